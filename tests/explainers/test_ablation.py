"""One feature at a time: LeaveOneCovariateIn and FeatureAblation against
values computed by hand (the closed-form cases of FeatureAblation are in
tests/test_base.py)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.utils.validation import validate_data

from sklearn_xai.explainers import (
    ExactShapley,
    FeatureAblation,
    LeaveOneCovariateIn,
)
from sklearn_xai.masking import BaselineMasker, GaussianConditionalMasker, MarginalMasker


class _Interaction(RegressorMixin, BaseEstimator):
    """``f(x) = x_0 x_1 + 2 x_2``, known without training."""

    def fit(self, X, y=None):
        validate_data(self, X)
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=np.float64)
        return X[:, 0] * X[:, 1] + 2.0 * X[:, 2]


@pytest.fixture(scope="module")
def interaction():
    X = np.random.default_rng(0).normal(size=(20, 3))
    return X, FrozenEstimator(_Interaction().fit(X))


def test_loci_by_hand(interaction):
    # x = (2, 3, 5), baseline b = (1, 1, 1):
    #   v({})  = f(1, 1, 1) = 1 + 2  = 3
    #   v({0}) = f(2, 1, 1) = 2 + 2  = 4   -> 1
    #   v({1}) = f(1, 3, 1) = 3 + 2  = 5   -> 2
    #   v({2}) = f(1, 1, 5) = 1 + 10 = 11  -> 8
    X, model = interaction
    ex = LeaveOneCovariateIn(model, masker=BaselineMasker(1.0)).fit(X)
    np.testing.assert_allclose(ex.transform([[2.0, 3.0, 5.0]]), [[1.0, 2.0, 8.0]])


def test_loci_and_occlusion_bracket_the_interaction(interaction):
    # Occlusion on the same row: f(x) = 6 + 10 = 16;
    #   f(1, 3, 5) = 13 -> 3,  f(2, 1, 5) = 12 -> 4,  f(2, 3, 1) = 8 -> 8.
    # Shapley: the contribution of x_0 is (x_0 - b_0) b_1 = 1 without x_1 and
    # (x_0 - b_0) x_1 = 3 with it, each with total weight 1/2 -> 2; likewise
    # x_1: 2 and 4 -> 3.  f(x_0, x_1) - f(b_0, b_1) = 5 is split (1, 2) by
    # LOCI, (3, 4) by occlusion and (2, 3) by Shapley, the mean of the two
    # for a feature that interacts with one other only.
    X, model = interaction
    row = [[2.0, 3.0, 5.0]]
    masker = BaselineMasker(1.0)
    loci = LeaveOneCovariateIn(model, masker=masker).fit(X).transform(row)
    occlusion = FeatureAblation(model, masker=masker).fit(X).transform(row)
    shapley = ExactShapley(model, masker=masker).fit(X).transform(row)
    np.testing.assert_allclose(occlusion, [[3.0, 4.0, 8.0]])
    np.testing.assert_allclose(shapley, [[2.0, 3.0, 8.0]])
    np.testing.assert_allclose((loci + occlusion) / 2, shapley)


def test_loci_equals_occlusion_and_shapley_without_interactions():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 4))
    linear = LinearRegression().fit(X, X @ [1.0, -2.0, 0.5, 3.0])
    model = FrozenEstimator(linear)
    masker = MarginalMasker(background=X[:10])
    rows = X[:5]
    loci = LeaveOneCovariateIn(model, masker=masker).fit(X).transform(rows)
    np.testing.assert_allclose(
        loci, FeatureAblation(model, masker=masker).fit(X).transform(rows), atol=1e-10)
    np.testing.assert_allclose(
        loci, ExactShapley(model, masker=masker).fit(X).transform(rows), atol=1e-10)
    # v({j}) - v({}) = w_j (x_j - mean of the background)
    expected = linear.coef_ * (rows - X[:10].mean(axis=0))
    np.testing.assert_allclose(loci, expected, atol=1e-10)


def test_loci_batches_and_counts_evaluations(interaction):
    X, model = interaction
    ex = LeaveOneCovariateIn(model, masker=BaselineMasker(1.0)).fit(X)
    A, n_eval = ex.explain(X, return_n_evaluations=True)
    assert n_eval == len(X) * (X.shape[1] + 1)  # the empty coalition and d singletons
    small = LeaveOneCovariateIn(model, masker=BaselineMasker(1.0), batch_size=4).fit(X)
    np.testing.assert_array_equal(small.transform(X), A)


@pytest.mark.parametrize("cls", [FeatureAblation, LeaveOneCovariateIn])
def test_stochastic_masker_is_seeded_by_random_state(cls):
    """With a stochastic masker, random_state seeds the per-row streams:
    reproducible for a seed, batch-independent, different for another seed."""
    rng = np.random.default_rng(2)
    X = rng.multivariate_normal([0.0, 0.0], [[1.0, 0.7], [0.7, 1.0]], size=200)
    # A non-linear model: a linear one is valued in closed form, no draws.
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures
    model = FrozenEstimator(make_pipeline(PolynomialFeatures(2), LinearRegression())
                            .fit(X, X @ [1.0, 2.0] + X[:, 0] * X[:, 1]))
    masker = GaussianConditionalMasker(n_draws=5)
    A = cls(model, masker=masker, random_state=0).fit(X).transform(X[:6])
    again = cls(model, masker=masker, random_state=0, batch_size=7).fit(X).transform(X[:6])
    other = cls(model, masker=masker, random_state=1).fit(X).transform(X[:6])
    # Same draws (a wrong draw moves attributions by ~0.1); only the model's
    # BLAS rounding may depend on the rows per call.
    np.testing.assert_allclose(A, again, rtol=0, atol=1e-12)
    assert not np.allclose(A, other)
    np.testing.assert_allclose(A[3:], cls(model, masker=masker, random_state=0)
                               .fit(X).transform(X[3:6]), rtol=0, atol=1e-12)
