"""Tests of ExactShapley, KernelSHAP and ShapleyValueSampling."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers._shapley import (
    ExactShapley,
    KernelSHAP,
    ShapleyValueSampling,
    _add_unit_moments,
    _constrained_wls,
    _first_draws,
    _kernel_plan,
    _solve_normal_equations,
    _subsets_by_rank,
    _unrank_subsets,
)
from sklearn_xai.base import get_explainer_tags
from sklearn_xai.masking import BaselineMasker, MarginalMasker


class Interactions(RegressorMixin, BaseEstimator):
    """``f(x) = a.x + b x0 x1 + c x2 x3 x4 + intercept``; counts predict calls.

    With the zero baseline its Shapley values are known in closed form: each
    linear term goes to its feature, a product of k features is split in k
    equal shares.
    """

    def __init__(self, a=None, b=1.5, c=-2.0, intercept=0.0):
        self.a = a
        self.b = b
        self.c = c
        self.intercept = intercept

    def fit(self, X, y=None):
        d = np.asarray(X).shape[1]
        self.a_ = np.zeros(d) if self.a is None else np.asarray(self.a, dtype=float)
        self.n_features_in_ = d
        self.n_predict_calls_ = 0
        return self

    def predict(self, X):
        self.n_predict_calls_ += 1
        X = np.asarray(X)
        return (X @ self.a_ + self.b * X[:, 0] * X[:, 1]
                + self.c * X[:, 2] * X[:, 3] * X[:, 4] + self.intercept)

    def shapley_zero_baseline(self, X):
        phi = X * self.a_
        phi[:, :2] += (self.b * X[:, 0] * X[:, 1] / 2)[:, None]
        phi[:, 2:5] += (self.c * X[:, 2] * X[:, 3] * X[:, 4] / 3)[:, None]
        return phi


@pytest.fixture(scope="module")
def gaussian():
    rng = np.random.default_rng(0)
    X = rng.normal(loc=[1.0, -0.5, 0.0, 2.0, 0.3], size=(300, 5))
    w = np.array([3.0, -2.0, 1.0, 0.5, -1.5])
    return X, w


def _model(d, **kw):
    rng = np.random.default_rng(1)
    return Interactions(a=rng.normal(size=d), **kw).fit(np.zeros((1, d)))


# ------------------------------------------------------------- ExactShapley
def test_exact_linear_marginal_closed_form(gaussian):
    X, w = gaussian
    model = LinearRegression().fit(X, X @ w + 0.7)
    bg = X[:50]
    ex = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=bg))
    A = ex.fit(X).transform(X[50:80])
    expected = model.coef_ * (X[50:80] - bg.mean(axis=0))
    np.testing.assert_allclose(A, expected, rtol=0, atol=1e-10)


def test_exact_interactions_closed_form():
    model = _model(5)
    X = np.random.default_rng(2).normal(size=(8, 5))
    A = ExactShapley(FrozenEstimator(model), masker=BaselineMasker("zero")).fit(X).transform(X)
    np.testing.assert_allclose(A, model.shapley_zero_baseline(X), atol=1e-12)


def test_exact_efficiency_marginal_nonlinear(gaussian):
    X, _ = gaussian
    model = _model(5, intercept=3.0)
    bg = X[:40]
    ex = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=bg)).fit(X)
    A = ex.transform(X[100:120])
    v_empty = model.predict(bg).mean()
    np.testing.assert_allclose(A.sum(axis=1), model.predict(X[100:120]) - v_empty,
                               atol=1e-10)


def test_exact_xai_bench_efficiency_shifts_by_v_empty_over_d():
    model = _model(5, intercept=10.0)  # f(0) = 10 = v(empty) under the zero baseline
    X = np.random.default_rng(3).normal(size=(6, 5))
    kw = dict(masker=BaselineMasker("zero"))
    A = ExactShapley(FrozenEstimator(model), **kw).fit(X).transform(X)
    B = ExactShapley(FrozenEstimator(model), convention="xai_bench_code",
                     **kw).fit(X).transform(X)
    np.testing.assert_allclose(B - A, 2.0, atol=1e-12)  # 10 / 5 on each feature
    np.testing.assert_allclose(B.sum(axis=1), model.predict(X), atol=1e-10)


def test_exact_one_model_call_and_cost():
    model = _model(5)
    X = np.random.default_rng(4).normal(size=(20, 5))
    ex = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=X[:7])).fit(X)
    calls = model.n_predict_calls_
    _, n_eval = ex.explain(X, return_n_evaluations=True)
    assert model.n_predict_calls_ - calls == 1
    assert n_eval == 20 * 2**5 * 7


def test_exact_default_masker_is_100_row_background(gaussian):
    X, _ = gaussian
    ex = ExactShapley(LinearRegression(), random_state=0).fit(X, X[:, 0])
    assert isinstance(ex.masker_, MarginalMasker)
    assert ex.masker_.background_.shape == (100, 5)
    again = ExactShapley(LinearRegression(), random_state=0).fit(X, X[:, 0])
    np.testing.assert_array_equal(ex.masker_.background_, again.masker_.background_)


def test_exact_refuses_too_many_features():
    X = np.random.default_rng(0).normal(size=(20, 17))
    with pytest.raises(ValueError, match="KernelSHAP"):
        ExactShapley(LinearRegression()).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="max_features=3"):
        ExactShapley(LinearRegression(), max_features=3).fit(X[:, :4], X[:, 0])


# --------------------------------------------------------------- KernelSHAP
def test_kernel_full_budget_equals_exact(gaussian):
    X, _ = gaussian
    model = _model(5, intercept=1.0)
    masker = MarginalMasker(background=X[:30])
    exact = ExactShapley(FrozenEstimator(model), masker=masker).fit(X).transform(X[:25])
    for n_perturbations in (30, 1000):  # 2^5 - 2 = 30 non-trivial coalitions
        A = KernelSHAP(FrozenEstimator(model), n_perturbations=n_perturbations, masker=masker,
                       random_state=0).fit(X).transform(X[:25])
        np.testing.assert_allclose(A, exact, rtol=0, atol=1e-8)


def test_kernel_exact_on_additive_model_with_few_samples():
    rng = np.random.default_rng(15)
    X = rng.normal(size=(100, 10))
    model = LinearRegression().fit(X, X @ rng.normal(size=10))
    bg = X[:20]
    # v(S) is exactly linear in the coalition: 60 of the 1022 coalitions
    # determine it, so the regression recovers the exact values.
    A = KernelSHAP(FrozenEstimator(model), n_perturbations=60, masker=MarginalMasker(background=bg),
                   random_state=0).fit(X).transform(X[:10])
    np.testing.assert_allclose(A, model.coef_ * (X[:10] - bg.mean(axis=0)), atol=1e-10)


# The name of each sampler's budget per row.
_N = {KernelSHAP: "n_perturbations", ShapleyValueSampling: "n_permutations"}


def _mean_error(explainer_cls, model, X, budget, seeds, **kw):
    truth = model.shapley_zero_baseline(X)
    errs = []
    for seed in seeds:
        A = explainer_cls(FrozenEstimator(model), **{_N[explainer_cls]: budget},
                          masker=BaselineMasker("zero"), random_state=seed,
                          **kw).fit(X).transform(X)
        errs.append(np.sqrt(((A - truth) ** 2).mean()))
    return np.mean(errs)


def test_kernel_converges_to_exact():
    d = 12  # 4094 non-trivial coalitions: 2000 samples still sample
    model = _model(d)
    X = np.random.default_rng(5).normal(size=(6, d))
    err = {n: _mean_error(KernelSHAP, model, X, n, seeds=(0, 1)) for n in (50, 2000)}
    assert err[2000] < err[50] / 3
    assert err[2000] < 0.05


@pytest.mark.parametrize("paired", [True, False])
def test_kernel_efficiency_is_exact(paired):
    d = 8
    model = _model(d, intercept=2.0)
    X = np.random.default_rng(6).normal(size=(10, d))
    A = KernelSHAP(FrozenEstimator(model), n_perturbations=40, paired=paired,
                   masker=BaselineMasker("zero"), random_state=0).fit(X).transform(X)
    np.testing.assert_allclose(A.sum(axis=1), model.predict(X) - 2.0, atol=1e-10)


def test_kernel_cost_and_single_call():
    d = 8
    model = _model(d)
    X = np.random.default_rng(7).normal(size=(15, d))
    ex = KernelSHAP(FrozenEstimator(model), n_perturbations=37, masker=BaselineMasker("zero"),
                    random_state=0).fit(X)
    calls = model.n_predict_calls_
    _, n_eval = ex.explain(X, return_n_evaluations=True)
    assert model.n_predict_calls_ - calls == 1
    assert n_eval == 15 * (37 + 2)


def test_kernel_auto_budget_and_one_feature():
    X = np.random.default_rng(8).normal(size=(30, 1))
    model = LinearRegression().fit(X, 3 * X[:, 0])
    ex = KernelSHAP(FrozenEstimator(model), masker=BaselineMasker("mean"), random_state=0)
    A = ex.fit(X).transform(X[:4])
    np.testing.assert_allclose(A[:, 0], 3 * (X[:4, 0] - X[:, 0].mean()), atol=1e-10)


def test_kernel_plan_follows_shaps_enumeration_rule():
    # d = 10: kernel mass of the size pairs (s, 10 - s) is proportional to
    # 2/9, 2/16, 2/21, 2/24 and 1/25 (normalised: 0.393, 0.221, 0.168, ...).
    # Budget 512: 512 * 0.393 / 20 >= 1 -> sizes 1, 9 enumerated (492 left);
    # 492 * 0.364 / 90 >= 1 -> sizes 2, 8 (402 left); 402 * 0.435 / 240 < 1
    # -> sizes 3 to 7 are sampled.
    enumerated, sampled = _kernel_plan(10, 512)
    assert len(enumerated) == 2 * (10 + 45)
    assert sorted(set(enumerated.sum(axis=1))) == [1, 2, 8, 9]
    assert len(np.unique(enumerated, axis=0)) == len(enumerated)
    np.testing.assert_array_equal(sampled, [3, 4, 5])
    # Budget 64: 64 * 0.393 / 20 = 1.26 >= 1 -> sizes 1, 9 only.
    enumerated, sampled = _kernel_plan(10, 64)
    assert sorted(set(enumerated.sum(axis=1))) == [1, 9]
    np.testing.assert_array_equal(sampled, [2, 3, 4, 5])
    # Budget 15 < 20 singletons and complements: nothing enumerated.
    enumerated, sampled = _kernel_plan(10, 15)
    assert len(enumerated) == 0
    np.testing.assert_array_equal(sampled, [1, 2, 3, 4, 5])


@pytest.mark.parametrize("m, full_rank", [(40, True), (40, False), (4, False)])
def test_normal_equations_equal_the_constrained_least_squares(m, full_rank):
    # The moments route (used by KernelSHAP) against the pseudo-inverse of
    # the weighted design; m = 4 < d - 1 coalitions is rank deficient: both
    # give the minimum-norm solution.
    rng = np.random.default_rng(21)
    n, d = 5, 7
    Z = rng.random((n, m, d)) < 0.5
    w = rng.random((n, m)) + 0.1
    y = rng.normal(size=(n, m))
    delta = rng.normal(size=n)
    Zf = Z.astype(float)
    M = np.einsum("nk,nki,nkj->nij", w, Zf, Zf)
    c = np.einsum("nk,nk,nki->ni", w, y, Zf)
    phi = _solve_normal_equations(M, c, delta, full_rank=full_rank)
    np.testing.assert_allclose(phi, _constrained_wls(Z, w, y, delta), atol=1e-8)
    np.testing.assert_allclose(phi.sum(axis=1), delta, atol=1e-12)


def test_first_draws_count_duplicates_until_the_budget_is_spent():
    canon = np.array([[5, 3, 5, 7, 3, 9],
                      [1, 1, 1, 1, 2, 1]])
    idx, counts, short = _first_draws(canon, 3)
    # Row 0: the third distinct unit (7) is draw 3; draws 4 and 5 do not count.
    np.testing.assert_array_equal(idx[0], [0, 1, 3])
    np.testing.assert_array_equal(counts[0], [2, 1, 1])
    # Row 1: only two distinct units in six draws: padded with count 0.
    np.testing.assert_array_equal(idx[1, :2], [0, 4])
    np.testing.assert_array_equal(counts[1], [5, 1, 0])
    np.testing.assert_array_equal(short, [False, True])
    # Without a short row (the vectorised path): the same for row 0.
    idx0, counts0, short0 = _first_draws(canon[:1], 3)
    np.testing.assert_array_equal(idx0, idx[:1])
    np.testing.assert_array_equal(counts0, counts[:1])
    assert not short0.any()


@pytest.mark.parametrize("paired, n_coalitions", [(True, 9), (True, 10), (False, 7)])
def test_unit_moments_equal_the_moments_of_the_coalitions(paired, n_coalitions):
    rng = np.random.default_rng(3)
    n, d = 4, 6
    n_units = -(-n_coalitions // 2) if paired else n_coalitions
    units = rng.random((n, n_units, d)) < 0.5
    counts = rng.integers(1, 4, (n, n_units)).astype(float)
    y = rng.normal(size=(n, n_coalitions))
    M0, c0 = rng.normal(size=(d, d)), rng.normal(size=(n, d))
    M, c = _add_unit_moments(M0, c0, units, counts, y, paired, mass=2.5)
    if paired:
        Z = np.stack([units, ~units], axis=2).reshape(n, 2 * n_units, d)[:, :n_coalitions]
        w = np.repeat(counts, 2, axis=1)[:, :n_coalitions]
    else:
        Z, w = units, counts
    w = 2.5 * w / w.sum(axis=1, keepdims=True)
    Zf = Z.astype(float)
    np.testing.assert_allclose(M, M0 + np.einsum("nk,nki,nkj->nij", w, Zf, Zf), atol=1e-12)
    np.testing.assert_allclose(c, c0 + np.einsum("nk,nk,nki->ni", w, y, Zf), atol=1e-12)


def test_random_subsets_by_rank_are_uniform_and_agree_with_unranking():
    from math import comb

    for d, t in ((6, 3), (9, 2), (12, 5)):
        u = (np.arange(comb(d, t)) + 0.5) / comb(d, t)
        codes = _subsets_by_rank(u, np.full(u.shape, t), d)
        # Every t-subset exactly once, in the same order as the unranking.
        assert len(np.unique(codes)) == comb(d, t)
        assert all(bin(int(c)).count("1") == t for c in codes)
        np.testing.assert_array_equal(codes, _unrank_subsets(u, np.full(u.shape, t), d))


def _kernel_error(model, X, budget, seeds, **kw):
    truth = model.shapley_zero_baseline(X)
    return np.mean([np.sqrt(((KernelSHAP(FrozenEstimator(model), n_perturbations=budget,
                                         masker=BaselineMasker("zero"), random_state=s,
                                         **kw).fit(X).transform(X) - truth) ** 2).mean())
                    for s in seeds])


def test_kernel_sampled_error_against_exact_values():
    # d = 10 with interactions: 200 of the 1022 coalitions per row.  The
    # error of enumerating sizes 1, 9 (and sampling the rest in pairs) is
    # well below the error of the coalitions' plain Monte-Carlo average;
    # the efficiency constraint holds exactly.
    d = 10
    model = _model(d)
    X = np.random.default_rng(17).normal(size=(20, d))
    truth = model.shapley_zero_baseline(X)
    err = {b: _kernel_error(model, X, b, seeds=(0, 1)) for b in (100, 400, 1000)}
    assert err[1000] < err[400] < err[100]
    assert err[400] < 0.05 * np.sqrt((truth ** 2).mean())
    A = KernelSHAP(FrozenEstimator(model), n_perturbations=400, masker=BaselineMasker("zero"),
                   random_state=0).fit(X).transform(X)
    np.testing.assert_allclose(A.sum(axis=1), truth.sum(axis=1), atol=1e-10)


def test_kernel_rows_independent_when_draws_are_topped_up():
    # d = 6, 53 coalitions: the sampled size pairs (2, 4) and 3 hold 21 + 10
    # units; some rows need more than the first round of draws.
    d = 6
    model = _model(d)
    X = np.random.default_rng(18).normal(size=(17, d))

    def make():
        return KernelSHAP(FrozenEstimator(model), n_perturbations=53,
                          masker=BaselineMasker("zero"), random_state=2)

    ref = make().fit(X).transform(X)
    for i in range(len(X)):
        np.testing.assert_allclose(make().fit(X).transform(X[i:i + 1]), ref[i:i + 1],
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("d", [30, 50, 70])  # unranking, shuffles, no de-duplication
@pytest.mark.parametrize("paired", [True, False])
def test_kernel_many_features_efficiency_and_row_independence(d, paired):
    rng = np.random.default_rng(22)
    model = _model(d, intercept=1.0)
    X = rng.normal(size=(6, d))
    ex = KernelSHAP(FrozenEstimator(model), n_perturbations=3 * d + 1, paired=paired,
                    masker=BaselineMasker("zero"), random_state=0).fit(X)
    A, n_eval = ex.explain(X, return_n_evaluations=True)
    assert n_eval == 6 * (3 * d + 3)
    np.testing.assert_allclose(A.sum(axis=1), model.predict(X) - 1.0, atol=1e-8)
    np.testing.assert_allclose(ex.transform(X[3:4]), A[3:4], rtol=1e-12, atol=1e-12)
    # An additive model is recovered exactly from these few coalitions.
    lin = Interactions(a=model.a_, b=0.0, c=0.0).fit(X)
    B = KernelSHAP(FrozenEstimator(lin), n_perturbations=3 * d + 1, paired=paired,
                   masker=BaselineMasker("zero"), random_state=0).fit(X).transform(X)
    np.testing.assert_allclose(B, X * model.a_, atol=1e-8)


@pytest.mark.slow
def test_kernel_error_at_most_shaps_at_the_same_budget():
    shap = pytest.importorskip(
        "shap", reason="shap is only the peer of this slow error comparison, not a "
        "dependency; pip install shap")
    from sklearn.neural_network import MLPRegressor

    from sklearn_xai.datasets import exact_shapley_values

    rng = np.random.default_rng(0)
    d = 10
    Xt = rng.normal(size=(1500, d))
    y = Xt[:, 0] * Xt[:, 1] + np.sin(2 * Xt[:, 2]) + Xt[:, 3] * Xt[:, 4] * Xt[:, 5]
    mlp = MLPRegressor(hidden_layer_sizes=(32, 32), max_iter=200, random_state=0).fit(Xt, y)
    X, bg = Xt[:30], Xt[-8:]
    exact = exact_shapley_values(mlp.predict, X, value="interventional",
                                 background=bg).attributions
    ours, peer = [], []
    for seed in range(3):
        A = KernelSHAP(FrozenEstimator(mlp), n_perturbations=256,
                       masker=MarginalMasker(background=bg), random_state=seed).fit(X).transform(X)
        ours.append(np.sqrt(((A - exact) ** 2).mean()))
        np.random.seed(seed)
        B = shap.KernelExplainer(mlp.predict, bg).shap_values(X, nsamples=256, silent=True)
        peer.append(np.sqrt(((B - exact) ** 2).mean()))
    assert np.mean(ours) <= np.mean(peer)


# ----------------------------------------------------- ShapleyValueSampling
def test_svs_converges_to_exact():
    d = 6
    model = _model(d)
    X = np.random.default_rng(9).normal(size=(8, d))
    err = {n: _mean_error(ShapleyValueSampling, model, X, n, seeds=(0, 1))
           for n in (10, 1000)}
    assert err[1000] < err[10] / 4


def test_svs_antithetic_halves_the_error_against_exact_values():
    # The pairwise term x0 x1 is exact with antithetic pairs; for the
    # three-way term an ordering and its reverse halve the variance of a
    # marginal contribution (P/2 or 0 against P or 0 for P = c x2 x3 x4), so
    # the error is about 0.7 times that of independent orderings.
    d = 8
    model = _model(d)
    X = np.random.default_rng(19).normal(size=(100, d))
    seeds = (0, 1, 2, 3)
    anti = _mean_error(ShapleyValueSampling, model, X, 26, seeds=seeds)
    indep = _mean_error(ShapleyValueSampling, model, X, 26, seeds=seeds, antithetic=False)
    assert anti < 0.85 * indep


@pytest.mark.slow
def test_svs_error_at_most_shaps_permutation_explainer():
    shap = pytest.importorskip(
        "shap", reason="shap is only the peer of this slow error comparison, not a "
        "dependency; pip install shap")
    d = 8
    model = _model(d)
    X = np.random.default_rng(20).normal(size=(40, d))
    truth = model.shapley_zero_baseline(X)
    n_perm = 26
    evals = n_perm * (d - 1) + 2  # ours; shap: evals // (2 d + 1) pairs
    ours = _mean_error(ShapleyValueSampling, model, X, n_perm, seeds=range(4))
    masker = shap.maskers.Independent(np.zeros((1, d)), max_samples=1)
    peer = []
    for seed in range(4):
        np.random.seed(seed)
        ex = shap.PermutationExplainer(model.predict, masker, seed=seed)
        peer.append(np.sqrt(((ex(X, max_evals=evals, silent=True).values - truth) ** 2).mean()))
    assert ours <= np.mean(peer)


def test_svs_antithetic_exact_for_two_features():
    # Only features 0 and 1 matter (the others are null players): an ordering
    # and its reverse put them in both relative orders, so two antithetic
    # permutations give the exact values.
    rng = np.random.default_rng(10)
    X = rng.normal(size=(50, 2))
    Z = np.column_stack([X, np.zeros((50, 3))])  # features 2-4 at the baseline
    model = Interactions(a=[1.0, -1.0, 0, 0, 0], c=0.0).fit(Z)
    A = ShapleyValueSampling(FrozenEstimator(model), n_permutations=2, antithetic=True,
                             random_state=0).fit(Z).transform(Z)
    np.testing.assert_allclose(A, model.shapley_zero_baseline(Z), atol=1e-12)
    # Without antithetic pairs, two orderings are usually not both orders.
    B = ShapleyValueSampling(FrozenEstimator(model), n_permutations=2, antithetic=False,
                             random_state=0).fit(Z).transform(Z)
    assert not np.allclose(B, model.shapley_zero_baseline(Z))


def test_svs_efficiency_and_cost():
    d = 5
    model = _model(d, intercept=-1.0)
    X = np.random.default_rng(11).normal(size=(12, d))
    ex = ShapleyValueSampling(FrozenEstimator(model), n_permutations=7, random_state=0).fit(X)
    calls = model.n_predict_calls_
    A, n_eval = ex.explain(X, return_n_evaluations=True)
    assert model.n_predict_calls_ - calls == 1
    assert n_eval == 12 * (7 * (d - 1) + 2)
    np.testing.assert_allclose(A.sum(axis=1), model.predict(X) + 1.0, atol=1e-10)


def test_svs_exact_on_additive_model(gaussian):
    X, w = gaussian
    model = LinearRegression().fit(X, X @ w)
    A = ShapleyValueSampling(FrozenEstimator(model), n_permutations=3,
                             masker=BaselineMasker("mean"), random_state=0).fit(X).transform(X[:5])
    np.testing.assert_allclose(A, model.coef_ * (X[:5] - X.mean(axis=0)), atol=1e-10)


# ------------------------------------------------------------ classifiers
@pytest.mark.parametrize("cls", [ExactShapley, KernelSHAP, ShapleyValueSampling])
def test_classifier_explains_predicted_class_probability(cls):
    rng = np.random.default_rng(12)
    X = rng.normal(size=(200, 4))
    y = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])  # three classes
    clf = LogisticRegression().fit(X, y)
    bg = X[:25]
    kw = {} if cls is ExactShapley else {_N[cls]: 20, "random_state": 0}
    ex = cls(FrozenEstimator(clf), masker=MarginalMasker(background=bg), **kw).fit(X)
    rows = X[100:110]
    proba = clf.predict_proba(rows)
    c = proba.argmax(axis=1)
    v_empty = clf.predict_proba(bg).mean(axis=0)[c]
    A = ex.transform(rows)
    np.testing.assert_allclose(A.sum(axis=1), proba[np.arange(10), c] - v_empty,
                               atol=1e-10)
    # An explicit class: class 2 for every row.
    A2 = ex.explain(rows, target=np.full(10, 2))
    np.testing.assert_allclose(
        A2.sum(axis=1), proba[:, 2] - clf.predict_proba(bg)[:, 2].mean(), atol=1e-10)


# ---------------------------------------------------- randomness, batching
@pytest.mark.parametrize("make", [
    lambda m: ExactShapley(m, masker=MarginalMasker(background=np.ones((3, 5)))),
    lambda m: KernelSHAP(m, n_perturbations=20, masker=BaselineMasker("zero"), random_state=3),
    lambda m: ShapleyValueSampling(m, n_permutations=6, random_state=3),
])
def test_independent_of_batch_size_and_row_order(make):
    model = _model(5)
    X = np.random.default_rng(13).normal(size=(17, 5))
    ref = make(FrozenEstimator(model)).fit(X).transform(X)
    batched = make(FrozenEstimator(model)).set_params(batch_size=7).fit(X).transform(X)
    # Same draws; only BLAS summation order may differ (last-ulp).
    np.testing.assert_allclose(ref, batched, rtol=1e-12, atol=1e-12)
    perm = np.random.default_rng(0).permutation(17)
    shuffled = make(FrozenEstimator(model)).fit(X).transform(X[perm])
    np.testing.assert_allclose(shuffled, ref[perm], rtol=1e-12, atol=1e-12)
    alone = make(FrozenEstimator(model)).fit(X).transform(X[4:5])
    np.testing.assert_allclose(alone, ref[4:5], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cls", [KernelSHAP, ShapleyValueSampling])
def test_reproducible_with_random_state(cls):
    d = 9
    model = _model(d)
    X = np.random.default_rng(14).normal(size=(5, d))
    kw = {_N[cls]: 30, "masker": BaselineMasker("zero")}
    a = cls(FrozenEstimator(model), random_state=0, **kw).fit(X).transform(X)
    b = cls(FrozenEstimator(model), random_state=0, **kw).fit(X).transform(X)
    c = cls(FrozenEstimator(model), random_state=1, **kw).fit(X).transform(X)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize("cls, params, match", [
    (KernelSHAP, {"n_perturbations": 0}, "n_perturbations"),
    (KernelSHAP, {"n_perturbations": "all"}, "n_perturbations"),
    (ShapleyValueSampling, {"n_permutations": 0}, "n_permutations"),
    (ExactShapley, {"convention": "xai_bench"}, "convention"),
    (ExactShapley, {"masker": "zero"}, "masker"),
    (ExactShapley, {"max_features": 0}, "max_features"),
    (KernelSHAP, {"paired": "yes"}, "paired"),
])
def test_invalid_parameters(cls, params, match):
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match=match):
        cls(LinearRegression(), **params).fit(X, X[:, 0])


def test_missing_estimator_and_wrong_width():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="estimator"):
        ExactShapley().fit(X)
    ex = ExactShapley(LinearRegression()).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="features"):
        ex.transform(X[:, :2])


def test_does_not_mutate_input(gaussian):
    X, w = gaussian
    X = X.copy()
    before = X.copy()
    KernelSHAP(LinearRegression(), n_perturbations=20, random_state=0).fit(X, X @ w).transform(X[:5])
    np.testing.assert_array_equal(X, before)


def test_exact_with_stochastic_conditional_masker():
    # Observational values of a linear model under a Gaussian fitted to the
    # data: v(S) = b + w_S.x_S + w_U.E[x_U | x_S] with the Gaussian's
    # conditional means, and phi_0 = (v({0}) - v({})) / 2 + (v({0,1}) - v({1})) / 2.
    from sklearn_xai.masking._conditional import GaussianConditionalMasker

    rng = np.random.default_rng(16)
    X = rng.multivariate_normal([0.0, 0.0], [[1.0, 0.6], [0.6, 1.0]], size=4000)
    w = np.array([1.0, -2.0])
    model = LinearRegression().fit(X, X @ w)
    ex = ExactShapley(FrozenEstimator(model), masker=GaussianConditionalMasker(n_draws=4000),
                      random_state=0).fit(X)
    rows = X[:5]
    m = X.mean(axis=0)
    C = np.cov(X, rowvar=False)
    cond1 = m[1] + C[1, 0] / C[0, 0] * (rows[:, 0] - m[0])  # E[x1 | x0]
    cond0 = m[0] + C[0, 1] / C[1, 1] * (rows[:, 1] - m[1])  # E[x0 | x1]
    f = model.predict
    v_empty = f(m[None])[0]
    b, (w0, w1) = model.intercept_, model.coef_
    v0 = b + w0 * rows[:, 0] + w1 * cond1
    v1 = b + w0 * cond0 + w1 * rows[:, 1]
    full = f(rows)
    phi0 = 0.5 * (v0 - v_empty) + 0.5 * (full - v1)
    A = ex.transform(rows)
    assert get_explainer_tags(ex).stochastic
    # Monte-Carlo tolerance: four standard errors of a mean of f over the
    # 4000 conditional draws (f's variance under the Gaussian is w'Cw).
    tol = 4 * np.sqrt(w @ C @ w / 4000)
    np.testing.assert_allclose(A[:, 0], phi0, atol=tol)
    np.testing.assert_allclose(A.sum(axis=1), full - v_empty, atol=tol)
    again = ExactShapley(FrozenEstimator(model), masker=GaussianConditionalMasker(n_draws=4000),
                         random_state=0).fit(X).transform(rows)
    np.testing.assert_array_equal(A, again)


def _conditional_shapley_by_hand(w, c, mean, cov, x):
    """Exact observational Shapley values of ``z @ w + c`` at ``x`` under a
    Gaussian, from the textbook conditional mean and the Shapley formula
    (written here without the package's code)."""
    from itertools import combinations
    from math import factorial

    d = len(x)

    def v(S):
        S = list(S)
        U = [j for j in range(d) if j not in S]
        z = np.array(mean, dtype=float)
        z[S] = x[S]
        if S and U:
            z[U] = mean[U] + cov[np.ix_(U, S)] @ np.linalg.solve(
                cov[np.ix_(S, S)], x[S] - mean[S])
        return z @ w + c

    phi = np.zeros(d)
    for j in range(d):
        others = [k for k in range(d) if k != j]
        for r in range(d):
            for S in combinations(others, r):
                weight = factorial(r) * factorial(d - r - 1) / factorial(d)
                phi[j] += weight * (v(S + (j,)) - v(S))
    return phi, v(())


def test_exact_conditional_masker_uses_the_closed_form_on_a_linear_model():
    # shap's tied-pair case: two features correlated at 0.999999, only the
    # first used by the model; each gets half of its effect.  Monte-Carlo
    # draws gave 0.400 / 0.401 and sums of 0.80-1.15 instead of 1.
    from sklearn_xai.distributions import MultivariateGaussian
    from sklearn_xai.masking import ConditionalMasker

    mean = np.zeros(3)
    cov = np.array([[1, 0.999999, 0], [0.999999, 1, 0], [0, 0, 1]])
    rng = np.random.RandomState(0)
    X = rng.randn(40, 3)
    model = LinearRegression().fit(X, X @ [1.0, 0.0, 0.0] + 0.25)
    ex = ExactShapley(FrozenEstimator(model),
                      masker=ConditionalMasker(MultivariateGaussian(mean, cov)),
                      random_state=1).fit(X)
    x = np.array([[1.0, 1.0, 1.0], [0.3, -2.0, 0.5]])
    A = ex.transform(x)
    for row, a in zip(x, A):
        expected, v_empty = _conditional_shapley_by_hand(
            model.coef_, model.intercept_, mean, cov, row)
        np.testing.assert_allclose(a, expected, atol=1e-9)
        np.testing.assert_allclose(a.sum(), model.predict(row[None])[0] - v_empty,
                                   atol=1e-9)
    np.testing.assert_allclose(A[0], [0.5, 0.5, 0.0], atol=1e-6)
