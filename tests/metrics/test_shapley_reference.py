"""Tests of the agreement with the model's exact Shapley values
(shapley-corr, shapley-mse) and of their reference, against closed forms on
linear models, exact enumerations and invariances."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression

from sklearn_xai.datasets import MultivariateGaussian, exact_shapley_values
from sklearn_xai.masking import BaselineMasker, ConditionalMasker, MarginalMasker
from sklearn_xai.metrics import exact_shapley_reference, shapley_corr, shapley_mse

W = np.array([3.0, -2.0, 1.5, 0.5, -0.25])


class _Poly(RegressorMixin, BaseEstimator):
    """A fixed non-linear model, f(x) = sum_j c_j x_j + x_0 x_1 + x_2**2 + offset,
    with its input columns permuted by ``perm`` (``x = z[:, inverse(perm)]``)."""

    def __init__(self, perm=None, offset=0.0):
        self.perm = perm
        self.offset = offset

    def fit(self, X, y=None):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, Z):
        Z = np.asarray(Z, dtype=float)
        X = Z if self.perm is None else Z[:, np.argsort(self.perm)]
        return X[:, :5] @ W + X[:, 0] * X[:, 1] + X[:, 2] ** 2 + self.offset


@pytest.fixture(scope="module")
def gaussian():
    dist = MultivariateGaussian.equicorrelated(5, rho=0.0, mean=0.3)
    X = dist.sample(400, random_state=0)
    y = X @ W + 1.0
    return dist, X, y


def _random_attributions(shape, seed=1):
    return np.random.default_rng(seed).normal(size=shape)


def test_shapley_metrics_closed_form_on_linear_model(gaussian):
    dist, X, y = gaussian
    model = LinearRegression().fit(X, y)
    shap = model.coef_ * (X[:50] - dist.mean)
    np.testing.assert_allclose(exact_shapley_reference(model, X[:50], distribution=dist),
                               shap, atol=1e-10)
    np.testing.assert_allclose(shapley_corr(model, X[:50], shap, distribution=dist), 1.0)
    np.testing.assert_allclose(shapley_mse(model, X[:50], shap, distribution=dist), 0.0,
                               atol=1e-20)
    # Random N(0, 1) attributions: E[(a - phi)^2] = 1 + phi^2 per feature.
    A = _random_attributions(shap.shape, seed=8)
    mse = shapley_mse(model, X[:50], A, distribution=dist)
    np.testing.assert_allclose(mse, ((A - shap) ** 2).mean(axis=1))
    np.testing.assert_allclose(shapley_mse(model, X[:50], A, distribution=dist,
                                           reduction="sum"), 5 * mse)
    big = _random_attributions((4000, 5), seed=9)
    Xb = dist.sample(4000, random_state=1)
    phi = model.coef_ * (Xb - dist.mean)
    m = shapley_mse(model, Xb, big, distribution=dist)
    expected = 1 + (phi**2).mean()
    assert abs(m.mean() - expected) < 4 * m.std() / np.sqrt(len(m))
    corr = shapley_corr(model, Xb, big, distribution=dist)
    assert abs(corr.mean()) < 4 * corr.std() / np.sqrt(len(corr))


def test_xai_bench_convention_adds_base_value_over_d(gaussian):
    dist, X, y = gaussian
    model = LinearRegression().fit(X, y)
    shap = model.coef_ * (X[:10] - dist.mean)
    v0 = model.predict(dist.mean[None])[0]  # E[f] for an affine model
    np.testing.assert_allclose(
        shapley_mse(model, X[:10], shap, distribution=dist, convention="xai_bench_code"),
        (v0 / 5) ** 2,
    )


def test_shapley_metrics_invariant_to_output_offset(gaussian):
    dist, X, _ = gaussian
    A = _random_attributions((6, 5), seed=10)
    kw = dict(distribution=dist, n_draws=200, random_state=0)
    for metric in (shapley_corr, shapley_mse):
        base = metric(_Poly().fit(X), X[:6], A, **kw)
        shifted = metric(_Poly(offset=123.0).fit(X), X[:6], A, **kw)
        np.testing.assert_allclose(shifted, base, rtol=1e-9, atol=1e-9)


def test_shapley_reference_from_maskers(gaussian):
    dist, X, _ = gaussian
    model = _Poly().fit(X)
    background = X[200:230]
    expected = exact_shapley_values(model.predict, X[:5], value="interventional",
                                    background=background).attributions
    np.testing.assert_allclose(
        exact_shapley_reference(model, X[:5], masker=MarginalMasker(background).fit(X)),
        expected,
    )
    base = exact_shapley_values(model.predict, X[:5], value="baseline",
                                baseline=0.5).attributions
    np.testing.assert_allclose(
        exact_shapley_reference(model, X[:5], masker=BaselineMasker(0.5).fit(X)), base
    )
    # A masker draws its own n_draws (the metric's n_draws only sizes the
    # distribution= shorthand).
    obs = exact_shapley_reference(model, X[:5],
                                  masker=ConditionalMasker(dist, 50).fit(X),
                                  random_state=0)
    np.testing.assert_allclose(
        obs, exact_shapley_reference(model, X[:5], distribution=dist, n_draws=50,
                                     random_state=0)
    )
    # A precomputed reference is used as is.
    A = _random_attributions((5, 5), seed=11)
    np.testing.assert_allclose(shapley_mse(model, X[:5], A, reference=expected),
                               ((A - expected) ** 2).mean(axis=1))


def _permuted_problem(X, background, perm):
    return (_Poly(perm=perm).fit(X[:, perm]),
            MarginalMasker(background=background[:, perm]).fit(X[:, perm]))


@pytest.mark.parametrize("metric", [shapley_corr, shapley_mse])
def test_feature_permutation_equivariance(metric, gaussian):
    _, X, _ = gaussian
    background = X[200:240]
    model = _Poly().fit(X)
    masker = MarginalMasker(background=background).fit(X)
    A = _random_attributions((20, 5), seed=5)
    base = metric(model, X[:20], A, masker=masker)
    perm = np.array([3, 0, 4, 2, 1])
    pmodel, pmasker = _permuted_problem(X, background, perm)
    np.testing.assert_allclose(metric(pmodel, X[:20, perm], A[:, perm], masker=pmasker),
                               base, atol=1e-10)


def test_shapley_corr_scale_invariant_and_mse_not(gaussian):
    dist, X, _ = gaussian
    model = _Poly().fit(X)
    A = _random_attributions((8, 5), seed=14)
    kw = dict(distribution=dist, n_draws=50, random_state=0)
    np.testing.assert_allclose(shapley_corr(model, X[:8], 3.0 * A, **kw),
                               shapley_corr(model, X[:8], A, **kw), atol=1e-12)
    assert not np.allclose(shapley_mse(model, X[:8], 3.0 * A, **kw),
                           shapley_mse(model, X[:8], A, **kw))


@pytest.mark.parametrize("metric", [shapley_corr, shapley_mse])
def test_non_finite_X_is_named_with_its_count_and_fix(metric, gaussian):
    """NaN / infinity in X: the error says which, how many, and what to do."""
    dist, X, _ = gaussian
    model = LinearRegression().fit(X, X @ W)
    A = _random_attributions((6, 5), seed=3)
    Xn = X[:6].copy()
    Xn[1, 2] = Xn[4, 0] = np.nan
    before = Xn.copy()
    with pytest.raises(ValueError, match=r"X contains 2 NaN values \(rows \[1, 4\]\).*"
                                         r"SimpleImputer"):
        metric(model, Xn, A, distribution=dist, n_draws=5, random_state=0)
    np.testing.assert_array_equal(Xn, before)  # user data untouched
    Xn[1, 2] = np.inf
    with pytest.raises(ValueError, match=r"X contains 1 NaN value and 1 infinite value"):
        metric(model, Xn, A, distribution=dist, n_draws=5, random_state=0)
    with pytest.raises(ValueError, match=r"X must be 2-D.*reshape\(1, -1\)"):
        metric(model, X[0], A[:1], distribution=dist, n_draws=5, random_state=0)


# ------------------------------------------------------------------ the memo


def _counting_reference_calls(monkeypatch):
    from sklearn_xai.metrics import _shapley_reference

    calls = []
    original = _shapley_reference.exact_shapley_values

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_shapley_reference, "exact_shapley_values", counting)
    return calls


def test_direct_calls_compute_the_reference_every_time(monkeypatch, gaussian):
    dist, X, _ = gaussian
    calls = _counting_reference_calls(monkeypatch)
    model = _Poly().fit(X)
    A = _random_attributions((5, 5), seed=31)
    for _ in range(2):
        shapley_corr(model, X[:5], A, distribution=dist, n_draws=20, random_state=0)
    assert len(calls) == 2


def test_scorer_remembers_references_for_its_own_lifetime(monkeypatch, gaussian):
    import gc
    import weakref

    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures

    from sklearn_xai.compose import ExplainedModel
    from sklearn_xai.explainers import FeatureAblation
    from sklearn_xai.metrics import get_scorer

    dist, X, y = gaussian
    calls = _counting_reference_calls(monkeypatch)
    model = make_pipeline(PolynomialFeatures(2), LinearRegression())
    em = ExplainedModel(model, FeatureAblation(masker=BaselineMasker("mean"))).fit(
        X[100:], y[100:] + X[100:, 0] * X[100:, 1])
    kw = dict(distribution=dist, n_draws=20, random_state=0)
    scorer = get_scorer("shapley_corr", **kw)
    first = scorer(em, X[:6])
    assert len(calls) == 1
    # The scorer passes the reference it computed: the metric's own value.
    direct = shapley_corr(em.model_, X[:6], em.explain(X[:6]), **kw)
    assert len(calls) == 2
    assert first == pytest.approx(float(np.nanmean(direct)), abs=1e-12)
    assert scorer(em, X[:6]) == first and len(calls) == 2  # remembered
    scorer(em, X[6:12])  # other rows: computed
    assert len(calls) == 3
    # Another scorer (another metric on the same model) computes its own.
    get_scorer("neg_shapley_mse", **kw)(em, X[:6])
    assert len(calls) == 4
    # At most four references, and they go with the scorer.
    for start in range(12, 42, 6):
        scorer(em, X[start:start + 6])
    assert len(scorer._references) == 4
    refs = [weakref.ref(r) for r in scorer._references.values()]
    del scorer
    gc.collect()
    assert all(ref() is None for ref in refs)
    # Without an int random_state each call draws afresh: nothing remembered.
    unseeded = get_scorer("shapley_corr", distribution=dist, n_draws=20)
    before = len(calls)
    unseeded(em, X[:6])
    unseeded(em, X[:6])
    assert len(calls) == before + 2 and not unseeded._references
    # A bound reference is used as is.
    bound = get_scorer("shapley_corr", reference=np.tile(np.arange(5.0), (6, 1)),
                       **kw)
    bound(em, X[:6])
    assert len(calls) == before + 2
