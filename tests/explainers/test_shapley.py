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


# ----------------------------------------------------- ShapleyValueSampling
def test_svs_converges_to_exact():
    d = 6
    model = _model(d)
    X = np.random.default_rng(9).normal(size=(8, d))
    err = {n: _mean_error(ShapleyValueSampling, model, X, n, seeds=(0, 1))
           for n in (10, 1000)}
    assert err[1000] < err[10] / 4


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
    B = ShapleyValueSampling(FrozenEstimator(model), n_permutations=2,
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
    (KernelSHAP, {"n_samples": 0}, "n_samples"),
    (ShapleyValueSampling, {"n_permutations": 0}, "n_permutations"),
    (ShapleyValueSampling, {"n_samples": 0}, "n_samples"),
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
