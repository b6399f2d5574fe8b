"""Tests of the reference-agreement metrics (OpenXAI FA/RA/SA/SRA/RC/PRA) and the
linear model references, against hand-computed values and closed forms."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.metrics._ground_truth import (
    feature_agreement,
    linear_model_reference,
    linear_shapley_reference,
    pairwise_rank_agreement,
    rank_agreement,
    rank_correlation,
    sign_agreement,
    signed_rank_agreement,
    top_k_intersection,
)
from sklearn_xai.metrics._registry import get_metric_spec

TOPK = [feature_agreement, rank_agreement, sign_agreement, signed_rank_agreement]
ALL = TOPK + [rank_correlation, pairwise_rank_agreement]


@pytest.fixture
def no_ties():
    rng = np.random.default_rng(0)
    return rng.normal(size=(50, 9))


# ------------------------------------------------------------ self agreement
@pytest.mark.parametrize("metric", TOPK)
def test_self_agreement_is_one_for_every_k(metric, no_ties):
    d = no_ties.shape[1]
    for k in list(range(1, d + 1)) + [-1, 0.1, 0.5, 1.0]:
        np.testing.assert_array_equal(metric(no_ties, no_ties, k=k), 1.0)
    for k_max in [1, 2, 5, -1, 0.25]:
        np.testing.assert_allclose(metric(no_ties, no_ties, k_max=k_max), 1.0)


@pytest.mark.parametrize("metric", [rank_correlation, pairwise_rank_agreement])
def test_self_agreement_rank_statistics(metric, no_ties):
    np.testing.assert_allclose(metric(no_ties, no_ties), 1.0)


# ------------------------------------------------------- hand-computed cases
G_TIE = np.array([[2.0, -2.0, 1.0, 0.0]])  # dense ranks 1, 1, 2, 3
A_TIE = np.array([[2.0, 1.0, -1.0, 0.0]])  # dense ranks 1, 2, 2, 3


def test_hand_computed_with_ties():
    # Magnitude orders (ties by lower index): g -> 0,1,2,3 ; a -> 0,1,2,3.
    for k, fa in [(1, 1.0), (2, 1.0), (3, 1.0), (4, 1.0)]:
        assert feature_agreement(G_TIE, A_TIE, k=k)[0] == fa
    # RA: same feature everywhere, but position 2 has rank 1 in g and 2 in a.
    expected_ra = {1: 1.0, 2: 1 / 2, 3: 2 / 3, 4: 3 / 4}
    for k, ra in expected_ra.items():
        np.testing.assert_allclose(rank_agreement(G_TIE, A_TIE, k=k), [ra])
    # SA: feature 1 (-2 vs +1) and feature 2 (+1 vs -1) differ in sign; 0 == 0.
    expected_sa = {1: 1.0, 2: 1 / 2, 3: 1 / 3, 4: 2 / 4}
    for k, sa in expected_sa.items():
        np.testing.assert_allclose(sign_agreement(G_TIE, A_TIE, k=k), [sa])
    # SRA: positions 1 and 4 agree in feature, rank and sign.
    expected_sra = {1: 1.0, 2: 1 / 2, 3: 1 / 3, 4: 2 / 4}
    for k, sra in expected_sra.items():
        np.testing.assert_allclose(signed_rank_agreement(G_TIE, A_TIE, k=k), [sra])


def test_pairwise_rank_agreement_conventions():
    # Pairs (0,1) and (1,2) disagree under OpenXAI's "tied = not less" rule,
    # the default convention.
    np.testing.assert_allclose(pairwise_rank_agreement(G_TIE, A_TIE), [4 / 6])
    np.testing.assert_allclose(
        pairwise_rank_agreement(G_TIE, A_TIE, convention="openxai_code"), [4 / 6])
    # Pair (0,1) is tied in g and skipped; (1,2) still disagrees.
    np.testing.assert_allclose(pairwise_rank_agreement(G_TIE, A_TIE, convention="paper"),
                               [4 / 5])
    # OpenXAI's rule is not symmetric: reversing the columns changes the score.
    rev = pairwise_rank_agreement(G_TIE[:, ::-1], A_TIE[:, ::-1])
    # Reversed: g ranks 3,2,1,1 ; a ranks 3,2,2,1: "r_j < r_l" is False for
    # every pair in both vectors, so every pair agrees.
    np.testing.assert_allclose(rev, [1.0])


def test_pairwise_rank_agreement_all_tied_reference():
    g = np.zeros((2, 4))
    a = np.array([[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]])
    with pytest.warns(UserWarning, match="undefined for 2 of 2"):
        out = pairwise_rank_agreement(g, a, convention="paper")
    assert np.isnan(out).all()
    np.testing.assert_array_equal(
        pairwise_rank_agreement(g, a, convention="paper", nan_policy="zero"), 0.0
    )
    # openxai_code: every tied pair agrees only where a has r_j >= r_l.
    np.testing.assert_allclose(pairwise_rank_agreement(g, a), [1.0, 0.0])


def test_rank_correlation_dense_and_average_ranks():
    # Dense ranks 1,1,2,3 vs 1,2,2,3: r = 2 / sqrt(2.75 * 2).
    np.testing.assert_allclose(rank_correlation(G_TIE, A_TIE), [2 / math.sqrt(5.5)])
    # Average ranks = Spearman's rho (scipy) of the magnitudes.
    rng = np.random.default_rng(3)
    G = rng.integers(-3, 4, size=(20, 7)).astype(float)
    A = rng.integers(-3, 4, size=(20, 7)).astype(float)
    ok = (np.ptp(np.abs(G), axis=1) > 0) & (np.ptp(np.abs(A), axis=1) > 0)
    expected = [spearmanr(np.abs(g), np.abs(a)).statistic for g, a in zip(G[ok], A[ok])]
    np.testing.assert_allclose(rank_correlation(G[ok], A[ok], ranks="average"),
                               expected)


def test_rank_correlation_constant_row():
    g = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    a = np.array([[1.0, -1.0, 1.0], [3.0, 2.0, 1.0]])
    with pytest.warns(UserWarning, match="undefined for 1 of 2"):
        out = rank_correlation(g, a)
    assert np.isnan(out[0]) and out[1] == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="nan_policy"):
        rank_correlation(g, a, nan_policy="raise")


# ------------------------------------------------------------------ AUC over k
def test_auc_over_k_trapezoid_hand_computed():
    g, a = [[3.0, -2.0, 1.0, 0.0]], [[0.1, 5.0, 0.0, 4.0]]
    # FA@1..4 = 0, 1/2, 2/3, 1; trapezoid on t = 0, 1/3, 2/3, 1.
    expected = (0 / 2 + 1 / 2 + 2 / 3 + 1 / 2) / 3
    np.testing.assert_allclose(feature_agreement(g, a, k_max=-1), [expected])
    np.testing.assert_allclose(feature_agreement(g, a, k_max=2), [(0 + 0.5) / 2])
    # K = 1: the value at k = 1.
    np.testing.assert_allclose(feature_agreement(g, a, k_max=1), [0.0])
    # Default: k_max = 0.25 -> ceil(4 / 4) = 1.
    np.testing.assert_allclose(feature_agreement(g, a), [0.0])
    # auc=False without k scores at k_max.
    np.testing.assert_allclose(feature_agreement(g, a, auc=False, k_max=2), [0.5])


def test_default_is_auc_up_to_a_quarter_of_the_features():
    rng = np.random.default_rng(1)
    G, A = rng.normal(size=(5, 20)), rng.normal(size=(5, 20))
    per_k = np.column_stack([rank_agreement(G, A, k=k) for k in range(1, 6)])
    expected = (per_k[:, 0] / 2 + per_k[:, 1:4].sum(axis=1) + per_k[:, 4] / 2) / 4
    np.testing.assert_allclose(rank_agreement(G, A), expected)


def test_k_with_auc_true_is_an_error_and_bad_k_is_rejected():
    g = np.ones((1, 4))
    with pytest.raises(ValueError, match="k_max"):
        feature_agreement(g, g, k=2, auc=True)
    for bad in [0, 5, -2, 1.5]:
        with pytest.raises(ValueError, match="k must be"):
            feature_agreement(g, g, k=bad)


def test_integer_k_works():
    g = np.array([[5.0, 4.0, 3.0, 2.0, 1.0]])
    a = np.array([[5.0, 1.0, 3.0, 2.0, 4.0]])
    # Orders 0,1,2,3,4 vs 0,4,2,3,1: top-3 sets {0,1,2} vs {0,4,2}; positions
    # 1 and 3 hold the same feature.
    assert feature_agreement(g, a, k=3)[0] == pytest.approx(2 / 3)
    assert rank_agreement(g, a, k=3)[0] == pytest.approx(2 / 3)
    assert rank_agreement(g, a, k=2)[0] == pytest.approx(1 / 2)
    assert feature_agreement(g, a, k=np.int64(3))[0] == pytest.approx(2 / 3)


# ------------------------------------------------------ closed forms (random)
def test_random_explanations_match_hypergeometric_means():
    # For an explanation independent of the reference (no ties):
    # E[FA@k] = k/d (hypergeometric mean k^2/d over k), E[RA@k] = 1/d,
    # E[SA@k] = k/(2d) for symmetric signs.
    rng = np.random.default_rng(2)
    n, d = 20000, 8
    G, A = rng.normal(size=(n, d)), rng.normal(size=(n, d))
    for k in [1, 3, 6]:
        for metric, mean in [(feature_agreement, k / d), (rank_agreement, 1 / d),
                             (sign_agreement, k / (2 * d)),
                             (signed_rank_agreement, 1 / (2 * d))]:
            s = metric(G, A, k=k)
            se = s.std() / np.sqrt(n)
            assert abs(s.mean() - mean) < 4 * se + 1e-12, (metric.__name__, k)
    # PRA of independent orders: each pair agrees with probability 1/2.
    s = pairwise_rank_agreement(G, A)
    assert abs(s.mean() - 0.5) < 4 * s.std() / np.sqrt(n)
    # AUC over k = 1..K of FA: trapezoid-weighted mean of k/d.
    K = 4
    w = np.r_[0.5, np.ones(K - 2), 0.5] / (K - 1)
    s = feature_agreement(G, A, k_max=K)
    assert abs(s.mean() - w @ (np.arange(1, K + 1) / d)) < 4 * s.std() / np.sqrt(n)


# ------------------------------------------------------------------ invariances
@pytest.mark.parametrize("metric", ALL)
def test_positive_scaling_and_row_order_invariance(metric, no_ties):
    rng = np.random.default_rng(4)
    A = rng.normal(size=no_ties.shape)
    base = metric(no_ties, A)
    np.testing.assert_allclose(metric(no_ties, 3.7 * A), base)
    np.testing.assert_allclose(metric(0.2 * no_ties, A), base)
    perm = rng.permutation(len(A))
    np.testing.assert_allclose(metric(no_ties[perm], A[perm]), base[perm])
    np.testing.assert_allclose(
        np.concatenate([metric(no_ties[:7], A[:7]), metric(no_ties[7:], A[7:])]), base
    )


@pytest.mark.parametrize("metric", ALL)
def test_feature_permutation_equivariance(metric, no_ties):
    rng = np.random.default_rng(5)
    A = rng.normal(size=no_ties.shape)
    cols = rng.permutation(no_ties.shape[1])
    np.testing.assert_allclose(metric(no_ties[:, cols], A[:, cols]),
                               metric(no_ties, A))


def test_vector_reference_broadcasts():
    g = np.array([3.0, 1.0, 2.0])
    A = np.array([[3.0, 1.0, 2.0], [1.0, 2.0, 3.0]])
    np.testing.assert_allclose(feature_agreement(g, A, k=1), [1.0, 0.0])
    with pytest.raises(ValueError, match="ground_truth has shape"):
        feature_agreement(np.ones((3, 3)), A, k=1)


def test_inputs_not_mutated():
    rng = np.random.default_rng(6)
    G, A = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    G0, A0 = G.copy(), A.copy()
    for metric in ALL:
        metric(G, A)
    np.testing.assert_array_equal(G, G0)
    np.testing.assert_array_equal(A, A0)


# ------------------------------------------------------------- references
def _binary_problem():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(80, 4))
    y = (X @ [1.5, -2.0, 0.0, 0.5] + 0.3 * rng.normal(size=80) > 0).astype(int)
    return X, y


def test_linear_model_reference_is_openxai_coefficient_difference():
    X, y = _binary_problem()
    clf = LogisticRegression().fit(X, y)
    yhat = clf.predict(X)
    expected = (2 * yhat - 1)[:, None] * clf.coef_[0][None, :]
    np.testing.assert_allclose(linear_model_reference(clf, X), expected)
    np.testing.assert_allclose(linear_model_reference(FrozenEstimator(clf), X), expected)
    # A fixed class: its decision-function coefficients.
    np.testing.assert_allclose(linear_model_reference(clf, X, target=0),
                               np.broadcast_to(-clf.coef_[0], X.shape))
    # Exact gradient explanations of the logit score 1 on every metric.
    for metric in TOPK:
        np.testing.assert_allclose(metric(linear_model_reference(clf, X), expected), 1.0)


def test_linear_model_reference_multiclass_and_regression():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(90, 3))
    y = np.argmax(X @ rng.normal(size=(3, 3)), axis=1)
    clf = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(linear_model_reference(clf, X),
                               clf.coef_[clf.predict(X)])
    reg = LinearRegression().fit(X, X @ [1.0, -2.0, 3.0])
    np.testing.assert_allclose(linear_model_reference(reg, X[:2]),
                               [[1.0, -2.0, 3.0]] * 2)
    with pytest.raises(TypeError, match="coef_"):
        from sklearn.tree import DecisionTreeRegressor

        linear_model_reference(DecisionTreeRegressor().fit(X, y), X)


def _brute_force_shapley(f, x, baseline):
    """Shapley values with v(S) = f(x_S + baseline elsewhere), by enumeration."""
    d = len(x)
    phi = np.zeros(d)
    for j in range(d):
        others = [i for i in range(d) if i != j]
        for size in range(d):
            for S in itertools.combinations(others, size):
                w = math.factorial(size) * math.factorial(d - size - 1) / math.factorial(d)
                z = baseline.copy()
                z[list(S)] = x[list(S)]
                without = f(z[None])[0]
                z[j] = x[j]
                phi[j] += w * (f(z[None])[0] - without)
    return phi


def test_linear_shapley_reference_equals_enumerated_shapley_values():
    rng = np.random.default_rng(9)
    X = rng.normal(size=(30, 4))
    reg = LinearRegression().fit(X, X @ [2.0, -1.0, 0.5, 0.0] + 1.0 + rng.normal(size=30))
    mean = np.array([0.1, -0.2, 0.3, 0.0])
    ref = linear_shapley_reference(reg, X[:3], mean=mean)
    for x, phi in zip(X[:3], ref):
        np.testing.assert_allclose(phi, _brute_force_shapley(reg.predict, x, mean),
                                   atol=1e-12)
    # Efficiency and invariance to f -> f + c.
    np.testing.assert_allclose(ref.sum(axis=1),
                               reg.predict(X[:3]) - reg.predict(mean[None])[0])
    reg.intercept_ += 5.0
    np.testing.assert_allclose(linear_shapley_reference(reg, X[:3], mean=mean), ref)
    # Default mean: column means of X.
    np.testing.assert_allclose(linear_shapley_reference(reg, X),
                               reg.coef_ * (X - X.mean(axis=0)))


def test_linear_shapley_reference_classifier_explains_the_logit():
    X, y = _binary_problem()
    clf = LogisticRegression().fit(X, y)
    mean = np.zeros(4)
    ref = linear_shapley_reference(clf, X, mean=mean, target=1)
    np.testing.assert_allclose(ref.sum(axis=1),
                               clf.decision_function(X) - clf.intercept_[0])
    with pytest.raises(ValueError, match="mean must be"):
        linear_shapley_reference(clf, X, mean=[0.0, 1.0])


def test_top_k_intersection_hand_computed():
    # |a| ranks row 0: f0 (0.9) > f3 (0.7) > f2 (0.5) > f1 (0.1);
    # row 1: f1 = f2 (0.8, tie -> lower index f1 first) > f0 (0.3) > f3 (0).
    A = np.array([[0.9, -0.1, 0.5, -0.7],
                  [0.3, 0.8, -0.8, 0.0]])
    mask = np.array([[True, True, False, False],
                     [False, False, True, True]])
    # k = 2: top {f0, f3} -> 1 of 2 in {f0, f1}; top {f1, f2} -> 1 of 2 in {f2, f3}.
    np.testing.assert_allclose(top_k_intersection(mask, A, k=2), [0.5, 0.5])
    # k = 3: {f0, f3, f2} -> 1/3; {f1, f2, f0} -> 1/3.  k = 1: f0 in, f1 out.
    np.testing.assert_allclose(top_k_intersection(mask, A, k=3), [1 / 3, 1 / 3])
    np.testing.assert_allclose(top_k_intersection(mask.astype(float), A, k=1),
                               [1.0, 0.0])
    # The default k = 0.25 is ceil(4 / 4) = 1; a single mask row {f0, f1}
    # broadcasts: top-1 f0 (row 0) and f1 (row 1) are both in it.
    np.testing.assert_allclose(top_k_intersection(mask[0], A), [1.0, 1.0])
    # Reference attributions: their own top-2 {f2, f3} for both rows
    # (mask=None sees values other than 0/1) -> 1/2 and 1/2.
    reference = np.array([0.1, -0.2, 3.0, -2.0])
    np.testing.assert_allclose(top_k_intersection(reference, A, k=2), [0.5, 0.5])
    # mask=True reads the non-zero entries instead: all four features.
    np.testing.assert_allclose(top_k_intersection(reference, A, k=2, mask=True),
                               [1.0, 1.0])
    # Against a reference it is feature agreement at k.
    np.testing.assert_allclose(
        top_k_intersection(np.tile(reference, (2, 1)), A, k=3),
        feature_agreement(np.tile(reference, (2, 1)), A, k=3, auc=False))
    spec = get_metric_spec("top_k_intersection")
    assert spec.func is top_k_intersection and spec.requires == ("ground_truth",)
    assert spec.kind == "reference" and spec.greater_is_better and spec.per_instance


def test_registry_entries():
    for name in ["feature_agreement", "rank_agreement", "sign_agreement",
                 "signed_rank_agreement", "rank_correlation",
                 "pairwise_rank_agreement"]:
        spec = get_metric_spec(name)
        assert spec.kind == "reference"
        assert spec.requires == ("ground_truth",)
        assert spec.greater_is_better


@pytest.mark.parametrize("name", ["linear_model_reference", "linear_shapley_reference"])
def test_linear_references_reject_a_class_target_on_a_regressor(name):
    from sklearn.linear_model import LinearRegression

    import sklearn_xai.metrics as metrics

    rng = np.random.RandomState(0)
    X = rng.randn(20, 3)
    model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="LinearRegression is a regressor"):
        getattr(metrics, name)(model, X, target=1)
    # The default target still works: coef_ on every row (the model reference).
    if name == "linear_model_reference":
        np.testing.assert_allclose(getattr(metrics, name)(model, X),
                                   np.tile([1.0, 2.0, 3.0], (20, 1)))


def test_linear_references_validate_X():
    rng = np.random.RandomState(0)
    X = rng.randn(20, 3)
    model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    with pytest.raises(ValueError,
                       match="X has 2 features but the model's coef_ has 3"):
        linear_model_reference(model, X[:, :2])
    with pytest.raises(ValueError, match="Expected 2D array"):
        linear_shapley_reference(model, X[0])
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        linear_model_reference(model, Xn)


# --------------------------------------------- feature agreement, by hand
def test_feature_agreement_hand_computed():
    g = np.array([[3.0, -2.0, 1.0, 0.0], [0.0, 0.0, 5.0, 1.0]])
    a = np.array([[0.1, 5.0, 0.0, 4.0], [1.0, 0.0, -6.0, 0.5]])
    # Row 0: top-2 of g = {0, 1}, of a = {1, 3} -> 1/2.
    # Row 1: top-2 of g = {2, 3}, of a = {2, 0} -> 1/2; top-3: {2,3,0} vs {2,0,3} -> 1.
    np.testing.assert_allclose(feature_agreement(g, a, k=2), [0.5, 0.5])
    np.testing.assert_allclose(feature_agreement(g, a, k=3), [2 / 3, 1.0])
    np.testing.assert_allclose(feature_agreement(g, a, k=-1), [1.0, 1.0])
    # Fractions round up: 0.25 * 4 = 1 feature; 0.3 * 4 -> 2.
    np.testing.assert_allclose(feature_agreement(g, a, k=0.25), [0.0, 1.0])
    np.testing.assert_allclose(feature_agreement(g, a, k=0.3), [0.5, 0.5])


def test_feature_agreement_ties_by_lower_index_and_vector_reference():
    a = np.array([[1.0, 1.0, 1.0, 1.0]])
    assert feature_agreement([0, 0, 9, 9], a, k=2)[0] == 0.0
    assert feature_agreement([9, 9, 0, 0], a, k=2)[0] == 1.0
    np.testing.assert_allclose(feature_agreement([9, 9, 0, 0], np.ones((3, 4)), k=2), 1.0)


def test_feature_agreement_random_expectation():
    """E[FA@k] of random explanations is k/d (hypergeometric mean / k)."""
    rng = np.random.RandomState(0)
    g = rng.randn(20000, 10)
    a = rng.randn(20000, 10)
    assert feature_agreement(g, a, k=3).mean() == pytest.approx(0.3, abs=0.01)


def test_feature_agreement_errors():
    with pytest.raises(ValueError, match="k must be"):
        feature_agreement(np.ones((1, 4)), np.ones((1, 4)), k=0)
    with pytest.raises(ValueError, match="ground_truth has shape"):
        feature_agreement(np.ones((2, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="ground_truth"):
        feature_agreement(None, np.ones((3, 4)))


@pytest.mark.parametrize("convention", ["openxai_code", "paper"])
def test_pairwise_rank_agreement_blocks_of_rows(convention):
    # 435 pairs: blocks of 2**17 // 435 = 301 rows; the rows are independent.
    rng = np.random.default_rng(7)
    G = np.round(rng.normal(size=(700, 30)), 1)
    A = rng.normal(size=(700, 30))
    whole = pairwise_rank_agreement(G, A, convention=convention)
    parts = np.concatenate([pairwise_rank_agreement(G[i:i + 50], A[i:i + 50],
                                                    convention=convention)
                            for i in range(0, 700, 50)])
    np.testing.assert_array_equal(whole, parts)


# ----------------------------------------------------- teex: cosine, P / R / F1
def test_cosine_similarity_hand_computed():
    from sklearn_xai.metrics._ground_truth import cosine_similarity

    g = np.array([[1.0, 2.0, 2.0], [1.0, 0.0, 0.0], [3.0, 4.0, 0.0]])
    a = np.array([[2.0, 4.0, 4.0], [0.0, 5.0, 0.0], [-4.0, 3.0, 1e-300]])
    np.testing.assert_allclose(cosine_similarity(g, a), [1.0, 0.0, 0.0], atol=1e-15)
    a2 = np.array([[1.0, 1.0, 0.0]])
    g2 = np.array([[1.0, 0.0, 0.0]])
    np.testing.assert_allclose(cosine_similarity(g2, a2), [1 / np.sqrt(2)])
    np.testing.assert_allclose(cosine_similarity(g2, -a2), [-1 / np.sqrt(2)])
    np.testing.assert_allclose(cosine_similarity(g2, -a2, bounding="abs"),
                               [1 / np.sqrt(2)])
    np.testing.assert_allclose(cosine_similarity(g2, -a2, bounding="max"), [0.0])
    # Positive rescaling of either side leaves it unchanged.
    rng = np.random.default_rng(0)
    G, A = rng.normal(size=(20, 7)), rng.normal(size=(20, 7))
    np.testing.assert_allclose(cosine_similarity(3.0 * G, 0.01 * A),
                               cosine_similarity(G, A))
    expected = [np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)
                for u, v in zip(G, A, strict=True)]
    np.testing.assert_allclose(cosine_similarity(G, A), expected, rtol=1e-12)


def test_cosine_similarity_zero_vectors_are_undefined():
    from sklearn_xai.metrics._ground_truth import cosine_similarity
    from sklearn_xai.utils._stats import UndefinedScoreWarning

    g = np.array([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    a = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    with pytest.warns(UndefinedScoreWarning, match="cosine_similarity"):
        out = cosine_similarity(g, a)
    assert np.isnan(out[:2]).all() and out[2] == pytest.approx(1.0)
    np.testing.assert_allclose(cosine_similarity(g, a, nan_policy="zero"), [0, 0, 1])


def test_gt_precision_recall_f1_hand_computed():
    from sklearn_xai.metrics._ground_truth import gt_f1, gt_precision, gt_recall

    mask = np.array([[1, 1, 0, 0]])
    # |a| / max|a| = (1, .2, .8, .1) > 0.5 selects f0, f2: P = 1/2, R = 1/2.
    a = np.array([[1.0, 0.2, -0.8, 0.1]])
    assert gt_precision(mask, a)[0] == 0.5 and gt_recall(mask, a)[0] == 0.5
    assert gt_f1(mask, a)[0] == 0.5
    # Signed threshold: f2 (negative) is no longer selected: P = 1, R = 1/2.
    assert gt_precision(mask, a, threshold_type="signed")[0] == 1.0
    assert gt_recall(mask, a, threshold_type="signed")[0] == 0.5
    assert gt_f1(mask, a, threshold_type="signed")[0] == pytest.approx(2 / 3)
    # A lower threshold selects f0, f1, f2: P = 2/3, R = 1, F1 = 0.8.
    assert gt_precision(mask, a, threshold=0.15)[0] == pytest.approx(2 / 3)
    assert gt_recall(mask, a, threshold=0.15)[0] == 1.0
    assert gt_f1(mask, a, threshold=0.15)[0] == pytest.approx(0.8)
    # Without normalisation the threshold applies to the raw values:
    # 10 a -> (10, 2, 8, 1) > 1.5 selects f0, f1, f2.
    assert gt_precision(mask, 10 * a, threshold=1.5, normalize=False)[0] == \
        pytest.approx(2 / 3)
    # Normalised scores do not depend on the attribution scale.
    assert gt_f1(mask, 1e-6 * a)[0] == 0.5
    # A continuous ground truth is binarised like the attributions:
    # |g| / max|g| = (1, 2/3, 1/9, 0) > 0.5 -> {f0, f1}.
    truth = np.array([[0.9, -0.6, 0.1, 0.0]])
    assert gt_f1(truth, a)[0] == 0.5
    # A 0/1 row is a mask as it is, whatever the other rows are.
    rows = np.array([[1.0, 0.0, 0.0, 0.0], [0.9, -0.6, 0.1, 0.0]])
    aa = np.tile(a, (2, 1))
    np.testing.assert_allclose(gt_recall(rows, aa), [1.0, 0.5])
    np.testing.assert_allclose(gt_recall(rows[:1], aa[:1]), [1.0])


@pytest.mark.filterwarnings("ignore::sklearn_xai.utils._stats.UndefinedScoreWarning")
def test_gt_precision_recall_f1_match_scikit_learn_per_row():
    from sklearn.metrics import f1_score, precision_score, recall_score

    from sklearn_xai.metrics._ground_truth import gt_f1, gt_precision, gt_recall

    rng = np.random.default_rng(1)
    A = rng.normal(size=(12, 12))
    M = rng.random((12, 12)) < 0.4
    M[:, 0] = True
    for threshold, kind in [(0.5, "abs"), (0.3, "signed"), (0.0, "abs")]:
        scaled = A / np.abs(A).max(axis=1, keepdims=True)
        pred = (np.abs(scaled) if kind == "abs" else scaled) > threshold
        kw = {"threshold": threshold, "threshold_type": kind}
        for ours, theirs in [(gt_precision, precision_score), (gt_recall, recall_score),
                             (gt_f1, f1_score)]:
            expected = [theirs(m, p, zero_division=np.nan) for m, p in zip(M, pred, strict=True)]
            np.testing.assert_allclose(ours(M, A, **kw), expected, rtol=1e-12)


def test_gt_classification_undefined_rows_and_errors():
    from sklearn_xai.metrics._ground_truth import gt_f1, gt_precision, gt_recall
    from sklearn_xai.utils._stats import UndefinedScoreWarning

    mask = np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    a = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    with pytest.warns(UndefinedScoreWarning, match="gt_precision"):
        p = gt_precision(mask, a)
    assert np.isnan(p[[0, 2]]).all() and p[1] == 0.0
    with pytest.warns(UndefinedScoreWarning, match="gt_recall"):
        r = gt_recall(mask, a)
    assert r[0] == 0.0 and np.isnan(r[1:]).all()
    with pytest.warns(UndefinedScoreWarning, match="gt_f1"):
        f = gt_f1(mask, a)
    np.testing.assert_array_equal(f[:2], [0.0, 0.0])
    assert np.isnan(f[2])
    with pytest.raises(ValueError, match="threshold must be >= 0"):
        gt_precision(mask, a, threshold=-0.1)
    # A negative threshold is fine for signed thresholds.
    assert gt_recall([[1, 0]], [[-0.2, -1.0]], threshold=-0.5,
                     threshold_type="signed")[0] == 1.0


def test_teex_registry_entries():
    for name in ("cosine_similarity", "gt_precision", "gt_recall", "gt_f1"):
        spec = get_metric_spec(name)
        assert spec.kind == "reference" and spec.greater_is_better
        assert spec.requires == ("ground_truth",) and spec.family == "ground_truth"
        assert spec.source == "teex"


@pytest.mark.parametrize("ranks", ["dense", "average"])
def test_rank_correlation_constant_up_to_rounding_is_undefined(ranks):
    # Magnitudes equal up to rounding (1 + 1e-15) rank as an ordering; the
    # correlation is undefined all the same, as for exactly equal ones.
    G = np.array([[4.0, -3.0, 2.0, 1.0]])
    noisy = np.array([[1.0, 1.0 + 1e-15, -1.0, 1.0]])
    with pytest.warns(UserWarning):
        assert np.isnan(rank_correlation(G, noisy, ranks=ranks)).all()
    assert rank_correlation(G, noisy, ranks=ranks, nan_policy="zero").tolist() == [0.0]
    # A real ordering is still scored: Pearson of the ranks computed by hand.
    assert rank_correlation(G, [[1.0, 1.5, 1.0, 1.0]], ranks="average")[0] == \
        pytest.approx(np.corrcoef([1, 2, 3, 4], [3, 1, 3, 3])[0, 1])
