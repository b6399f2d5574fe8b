import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers import RandomExplainer
from sklearn_xai.masking import BaselineMasker, MarginalMasker
from sklearn_xai.metrics._faithfulness import (
    auc_tp,
    faithfulness_correlation,
    monotonicity,
)
from sklearn_xai.metrics._registry import get_metric_spec

W = np.array([5.0, -4.0, 3.0, 2.0, -1.5, 1.0])


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 6))
    return X, LinearRegression().fit(X, X @ W)


class SigmoidClassifier(ClassifierMixin, BaseEstimator):
    """p(class 1) = sigmoid(w · x + b), fixed weights (hand-computable)."""

    def __init__(self, w=None, b=0.0):
        self.w = w
        self.b = b

    def fit(self, X, y=None):
        self.classes_ = np.array([0, 1])
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict_proba(self, X):
        p = 1.0 / (1.0 + np.exp(-(np.asarray(X) @ np.asarray(self.w) + self.b)))
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


# ------------------------------------------------------ faithfulness correlation
@pytest.mark.parametrize("masker", [None, BaselineMasker("mean"), "marginal"])
def test_faithfulness_correlation_is_one_for_exact_attributions(linear, masker):
    # For f = w·x + c, f(x) - v_x(S̄) = sum_{j in S} w_j (x_j - b_j) when b is the
    # baseline (zero, mean) or the background mean (marginal, by linearity).
    X, model = linear
    if masker == "marginal":
        masker = MarginalMasker(background=X[:30]).fit(X)
        base = X[:30].mean(axis=0)
    elif masker is None:
        base = np.zeros(6)
    else:
        masker = masker.fit(X)
        base = X.mean(axis=0)
    A = W * (X[:10] - base)
    s = faithfulness_correlation(model, X[:10], A, masker=masker, random_state=0)
    np.testing.assert_allclose(s, 1.0, atol=1e-10)
    s_neg = faithfulness_correlation(model, X[:10], -A, masker=masker, random_state=0)
    np.testing.assert_allclose(s_neg, -1.0, atol=1e-10)


def test_faithfulness_correlation_hand_case():
    # d = 2, s = 1: each subset is one feature; two distinct points -> ±1, and the
    # sign is that of (a_0 - a_1)(Δ_0 - Δ_1).
    X = np.array([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0], [3.0, 3.0]])
    model = LinearRegression().fit(X, X @ [1.0, 3.0])
    x = np.array([[1.0, 1.0]])  # Δ_0 = 1, Δ_1 = 3
    up = faithfulness_correlation(model, x, [[0.0, 1.0]], random_state=0)
    down = faithfulness_correlation(model, x, [[1.0, 0.0]], random_state=0)
    assert up[0] == pytest.approx(1.0) and down[0] == pytest.approx(-1.0)


def test_faithfulness_correlation_scale_and_batch_invariance(linear):
    X, model = linear
    A = RandomExplainer(random_state=0).fit(X).transform(X[:20])
    s = faithfulness_correlation(model, X[:20], A, random_state=0)
    np.testing.assert_allclose(
        faithfulness_correlation(model, X[:20], 7.0 * A, random_state=0), s)
    np.testing.assert_allclose(
        faithfulness_correlation(model, X[:20][::-1], A[::-1], random_state=0,
                                 batch_size=13)[::-1], s)
    assert np.all(np.abs(s) <= 1.0)
    assert not np.allclose(s, faithfulness_correlation(model, X[:20], A,
                                                       random_state=1))


def test_faithfulness_correlation_nan_for_constant_attributions(linear):
    X, model = linear
    with pytest.warns(RuntimeWarning, match="undefined for 2 of 2"):
        s = faithfulness_correlation(model, X[:2], np.ones((2, 6)), random_state=0)
    assert np.all(np.isnan(s))


def test_faithfulness_correlation_beexai_variant_pools(linear):
    X, model = linear
    A = W * X[:20]
    pooled = faithfulness_correlation(model, X[:20], A, variant="beexai",
                                      absolute=False, random_state=0)
    assert isinstance(pooled, float) and pooled == pytest.approx(1.0)
    # regression default takes |Δf|: no longer 1 with signed attributions
    pooled_abs = faithfulness_correlation(model, X[:20], A, variant="beexai",
                                          random_state=0)
    assert pooled_abs < 0.9
    # pooled over rows: depends on which rows are scored together
    rand = RandomExplainer(random_state=0).fit(X).transform(X[:20])
    a = faithfulness_correlation(model, X[:20], rand, variant="beexai", random_state=0)
    b = faithfulness_correlation(model, X[:10], rand[:10], variant="beexai",
                                 random_state=0)
    assert a != pytest.approx(b)


# ------------------------------------------------------------------- AUC-TP
def _manual_auc_tp(clf, X, A):
    """Independent loop implementation: zero baseline, magnitude order."""
    n, d = X.shape
    orig = clf.predict(X)
    acc = []
    for t in range(d):
        Z = X.copy()
        for i in range(n):
            top = sorted(range(d), key=lambda j: (-abs(A[i, j]), j))[:t]
            Z[i, top] = 0.0
        acc.append(np.mean(clf.predict(Z) == orig))
    acc = np.array(acc)
    return sum((acc[t] + acc[t + 1]) / 2 for t in range(d - 1)) / d, acc


def test_auc_tp_matches_a_hand_loop():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 4)) + 0.3
    clf = SigmoidClassifier(w=[2.0, -1.0, 0.5, 0.2], b=0.1).fit(X)
    A = rng.normal(size=X.shape)
    expected, _ = _manual_auc_tp(clf, X, A)
    assert auc_tp(clf, X, A) == pytest.approx(expected, abs=1e-12)
    # flip rate = 1 - accuracy pointwise: trapz(1 - P)/d = (d - 1)/d - AUC
    assert auc_tp(clf, X, A, metric="flip_rate") == pytest.approx(0.75 - expected)


def test_auc_tp_tiny_hand_case():
    # d = 2, one row: t = 0 -> label kept (P = 1); t = 1 removes feature 0 (the
    # top one), sigmoid(-1) < 0.5 flips the label (P = 0): AUC = (1 + 0)/2 / 2.
    clf = SigmoidClassifier(w=[3.0, -1.0]).fit(np.zeros((1, 2)))
    x = np.array([[1.0, 1.0]])
    assert auc_tp(clf, x, [[3.0, -1.0]]) == pytest.approx(0.25)
    # ranking feature 1 first keeps the label at t = 1: AUC = 1/2
    assert auc_tp(clf, x, [[0.1, -1.0]]) == pytest.approx(0.5)


def test_auc_tp_exact_is_lower_than_reversed():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    clf = LogisticRegression().fit(X, X @ W > 0)
    exact = clf.coef_[0] * X
    reverse = np.abs(exact).max(axis=1, keepdims=True) * 2 - np.abs(exact)
    assert auc_tp(clf, X, exact) < auc_tp(clf, X, reverse) - 0.1


def test_auc_tp_regression_hand_formula(linear):
    X, model = linear
    A = W * X[:30]
    f0 = model.predict(X[:30])
    P = []
    for t in range(6):
        Z = X[:30].copy()
        for i in range(30):
            Z[i, np.argsort(-np.abs(A[i]), kind="stable")[:t]] = 0.0
        P.append(np.clip(1 - np.mean((model.predict(Z) - f0) ** 2) / f0.var(), 0, 1))
    assert auc_tp(model, X[:30], A) == pytest.approx(np.trapezoid(P) / 6)
    mse = np.array([np.mean((model.predict(
        np.where(np.argsort(np.argsort(-np.abs(A), axis=1, kind="stable"), axis=1) < t,
                 0.0, X[:30])) - f0) ** 2) for t in range(6)])
    q = 1.0 / (mse + 0.01 * mse.mean())
    q = (q - q.min()) / (q.max() - q.min())
    assert auc_tp(model, X[:30], A, variant="beexai_regression") == pytest.approx(
        np.trapezoid(q) / 6)


def test_auc_tp_works_with_a_marginal_masker():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 6))
    clf = LogisticRegression().fit(X, X @ W > 0)
    masker = MarginalMasker(background=20, random_state=0).fit(X)
    exact = clf.coef_[0] * X
    rand = RandomExplainer(random_state=0).fit(X).transform(X)
    assert auc_tp(clf, X, exact, masker=masker) < auc_tp(clf, X, rand, masker=masker)


# -------------------------------------------------------------- monotonicity
def test_monotonicity_hand_case():
    X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    x = X[:1]
    assert monotonicity(model, x, [[3.0, 2.0, 1.0]])[0] == pytest.approx(1.0)
    assert monotonicity(model, x, [[1.0, 2.0, 3.0]])[0] == pytest.approx(0.0)
    # order 0, 2, 1 -> gains 3, 1, 2: one of two pairs non-increasing
    assert monotonicity(model, x, [[3.0, 1.0, 2.0]])[0] == pytest.approx(0.5)
    # a mean baseline b = (0.8, 1.4, 1.8) (the mean of the training rows X):
    # gains w_j (x_j - b_j) = 0.6, -0.8, -0.8
    s = monotonicity(model, x, [[3.0, 2.0, 1.0]], masker=BaselineMasker("mean"),
                     X_train=X)
    assert s[0] == pytest.approx(1.0)
    # the masker is never fitted on the scored row itself
    with pytest.raises(ValueError, match=r"masker\.fit\(X_train\)"):
        monotonicity(model, x, [[3.0, 2.0, 1.0]], masker=BaselineMasker("mean"))


def test_monotonicity_random_attributions_score_clearly_below_one():
    # Quantus pitfall: arbitrary attributions must not score 1.
    rng = np.random.default_rng(0)
    X = np.abs(rng.normal(size=(200, 6)))
    w = np.array([6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
    model = LinearRegression().fit(X, X @ w)
    rand = RandomExplainer(random_state=0).fit(X).transform(X)
    r = monotonicity(model, X, rand).mean()
    assert r < 0.7
    # exact attributions with positive contributions: gains sorted, score 1
    exact = monotonicity(model, X, w * X)
    np.testing.assert_allclose(exact, 1.0)


@pytest.mark.parametrize("masker", ["mean", "marginal"])
def test_monotonicity_other_maskers(masker):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 5))
    w = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    model = LinearRegression().fit(X, X @ w)
    if masker == "mean":
        m = BaselineMasker("mean").fit(X)
        base = X.mean(axis=0)
    else:
        m = MarginalMasker(background=X[:25]).fit(X)
        base = X[:25].mean(axis=0)
    contrib = w * (X[:20] - base)
    # ordering by |contribution| gives non-increasing |gains|; with sign
    # ordering (all gains in decreasing order) the score is exactly 1
    s = monotonicity(model, X[:20], contrib, masker=m, order_by="signed")
    np.testing.assert_allclose(s, 1.0)


def test_monotonicity_batch_and_order_invariance(linear):
    X, model = linear
    A = RandomExplainer(random_state=0).fit(X).transform(X[:30])
    s = monotonicity(model, X[:30], A)
    np.testing.assert_array_equal(monotonicity(model, X[:30], A, batch_size=11), s)
    np.testing.assert_array_equal(
        monotonicity(model, X[:30][::-1], A[::-1])[::-1], s)
    np.testing.assert_array_equal(monotonicity(model, X[:30], 4 * A), s)


def test_monotonicity_beexai_variant_hand_case():
    X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    x = X[:1]
    # g = 0, 3, 5, 6; c = (f(b)=0, 6-3, 6-5, 6-6) = (0, 3, 1, 0)
    # Δc = 3, -2, -1: pairs (3 <= -2) no, (-2 <= -1) yes -> 0.5
    assert monotonicity(model, x, [[3.0, 2.0, 1.0]], variant="beexai") == \
        pytest.approx(0.5)


def test_monotonicity_needs_two_features():
    X = np.array([[1.0], [2.0]])
    model = LinearRegression().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="two features"):
        monotonicity(model, X, X)


def test_registry_entries():
    assert get_metric_spec("faithfulness_correlation").greater_is_better
    spec = get_metric_spec("neg_auc_tp")
    assert spec.func is auc_tp and not spec.per_instance and not spec.greater_is_better
    assert get_metric_spec("monotonicity").func is monotonicity


def test_feature_permutation_equivariance():
    # Permuting the columns of X, model and attributions changes
    # nothing (catches order bugs such as XAI-Bench's index bug).
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 6))
    perm = np.array([3, 0, 5, 1, 4, 2])
    model = LinearRegression().fit(X, X @ W)
    model_p = LinearRegression().fit(X[:, perm], X @ W)
    A = rng.normal(size=X.shape)
    Xp, Ap = X[:, perm], A[:, perm]
    np.testing.assert_allclose(monotonicity(model_p, Xp, Ap), monotonicity(model, X, A))
    assert auc_tp(model_p, Xp, Ap) == pytest.approx(auc_tp(model, X, A))
    clf = LogisticRegression().fit(X, X @ W > 0)
    clf_p = LogisticRegression().fit(Xp, X @ W > 0)
    assert auc_tp(clf_p, Xp, Ap) == pytest.approx(auc_tp(clf, X, A))
