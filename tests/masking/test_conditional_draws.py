"""``draws="shared" | "per_coalition"`` of the distribution maskers: shared
draws are common random numbers across a row's coalitions; per-coalition
draws are independent blocks (XAI-Bench's fresh sample per value), checked
against closed-form variances of Gaussian conditional means."""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.distributions import GaussianMixture, MultivariateGaussian
from sklearn_xai.masking import ConditionalMasker, GaussianConditionalMasker
from sklearn_xai.utils import RowStreams

RHO = 0.6


def _free_feature(Z, t):
    """A non-affine callable (no ``coef_``): the values go through the draws."""
    return Z[:, 1]


def _two_equal_coalitions(draws, n_rows=3000, n_draws=8):
    """Values of two copies of the coalition {0} for ``n_rows`` equal rows,
    each row with its own random stream."""
    dist = MultivariateGaussian.equicorrelated(2, rho=RHO)
    X = np.tile([[1.5, 0.0]], (n_rows, 1))
    masker = ConditionalMasker(dist, n_draws=n_draws, draws=draws).fit(X)
    keep = np.array([[True, False], [True, False]])
    rngs = RowStreams(0, np.arange(n_rows))
    return masker.evaluate(_free_feature, X, keep, rngs=rngs)


def test_per_coalition_draws_are_independent_closed_form_variance():
    """x1 | x0 = 1.5 ~ N(0.6 * 1.5, 1 - 0.36): the mean of b draws has
    variance 0.64 / b; two independent coalitions differ by variance
    2 * 0.64 / b and are uncorrelated."""
    b, n_rows = 8, 3000
    V = _two_equal_coalitions("per_coalition", n_rows, b)
    var_mean = (1 - RHO**2) / b
    se = np.sqrt(2.0 / (n_rows - 1))  # relative standard error of a variance
    np.testing.assert_allclose(V.mean(axis=0), RHO * 1.5, atol=4 * np.sqrt(var_mean / n_rows))
    np.testing.assert_allclose(V.var(axis=0, ddof=1), var_mean, rtol=4 * se)
    np.testing.assert_allclose(np.var(V[:, 0] - V[:, 1], ddof=1), 2 * var_mean,
                               rtol=4 * se)
    r = np.corrcoef(V[:, 0], V[:, 1])[0, 1]
    assert abs(r) < 4 / np.sqrt(n_rows)


def test_shared_draws_are_identical_across_coalitions():
    b, n_rows = 8, 500
    V = _two_equal_coalitions("shared", n_rows, b)
    np.testing.assert_array_equal(V[:, 0], V[:, 1])
    # ... and still have the variance of a mean of b conditional draws
    np.testing.assert_allclose(V[:, 0].var(ddof=1), (1 - RHO**2) / b,
                               rtol=4 * np.sqrt(2.0 / (n_rows - 1)))


def test_per_coalition_draws_are_exact_conditional_draws():
    """Each block is a sample of the conditional law (mean, variance), the
    kept features are the row's own values."""
    dist = MultivariateGaussian.equicorrelated(3, rho=RHO)
    X = np.array([[1.0, -2.0, 0.5]])
    keep = np.array([[True, False, False], [True, True, False], [False, False, False]])
    masker = ConditionalMasker(dist, n_draws=40_000, draws="per_coalition").fit(X)
    Z = masker.impute(X, keep, rngs=RowStreams(1, [0]))
    assert Z.shape == (1, 3, 40_000, 3)
    np.testing.assert_array_equal(Z[0, 0, :, 0], 1.0)
    np.testing.assert_array_equal(Z[0, 1, :, :2], np.tile([1.0, -2.0], (40_000, 1)))
    # x2 | x0, x1 (equicorrelated): weights rho / (1 + rho) each, variance
    # 1 - 2 rho^2 / (1 + rho)
    w = RHO / (1 + RHO)
    np.testing.assert_allclose(Z[0, 1, :, 2].mean(), w * (1.0 - 2.0), atol=0.015)
    np.testing.assert_allclose(Z[0, 1, :, 2].var(), 1 - 2 * RHO**2 / (1 + RHO), rtol=0.03)
    np.testing.assert_allclose(Z[0, 2].mean(axis=0), 0.0, atol=0.02)
    np.testing.assert_allclose(Z[0, 2].var(axis=0), 1.0, rtol=0.03)


def test_per_coalition_rows_do_not_depend_on_their_batch():
    dist = MultivariateGaussian.equicorrelated(3, rho=0.3)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    keep = rng.random((6, 4, 3)) < 0.5
    masker = ConditionalMasker(dist, n_draws=5, draws="per_coalition").fit(X)
    rows = np.arange(6)
    full = masker.impute(X, keep, rngs=RowStreams(3, rows))
    order = rows[::-1]
    reversed_batch = masker.impute(X[order], keep[order],
                                   rngs=RowStreams(3, order))
    np.testing.assert_array_equal(reversed_batch, full[order])
    alone = masker.impute(X[2:3], keep[2:3], rngs=RowStreams(3, [2]))
    np.testing.assert_array_equal(alone[0], full[2])
    # Evaluated in blocks of one row: the same values.
    values = masker.evaluate(lambda Z, t: Z.sum(axis=1), X, keep,
                             rngs=RowStreams(3, rows), batch_size=1)
    np.testing.assert_allclose(values, full.sum(axis=3).mean(axis=2))


def test_shared_is_the_default_and_unchanged():
    dist = MultivariateGaussian.equicorrelated(2, rho=0.5)
    X = np.array([[1.0, 2.0]])
    keep = np.array([[True, False], [False, True]])
    default = ConditionalMasker(dist, n_draws=4).fit(X)
    shared = ConditionalMasker(dist, n_draws=4, draws="shared").fit(X)
    assert default.get_params()["draws"] == "shared"
    np.testing.assert_array_equal(default.impute(X, keep, rngs=RowStreams(0, [0])),
                                  shared.impute(X, keep, rngs=RowStreams(0, [0])))


def test_gaussian_mixture_and_fitted_gaussian_take_the_option():
    mix = GaussianMixture(weights=[0.3, 0.7], means=[[-2.0, 0.0], [2.0, 1.0]],
                          covs=[np.eye(2), 0.5 * np.eye(2)])
    X = np.array([[0.5, 0.0], [1.0, 1.0]])
    keep = np.array([[True, False], [True, False]])
    masker = ConditionalMasker(mix, n_draws=6, draws="per_coalition").fit(X)
    Z = masker.impute(X, keep, rngs=RowStreams(0, [0, 1]))
    assert Z.shape == (2, 2, 6, 2)
    np.testing.assert_array_equal(Z[:, :, :, 0], X[:, [0]][:, None].repeat(2, 1).repeat(6, 2))
    assert not np.array_equal(Z[:, 0], Z[:, 1])
    rng = np.random.default_rng(1)
    fitted = GaussianConditionalMasker(n_draws=6, draws="per_coalition").fit(
        rng.normal(size=(50, 2)))
    Zg = fitted.impute(X, keep, rngs=RowStreams(0, [0, 1]))
    assert not np.array_equal(Zg[:, 0], Zg[:, 1])


@pytest.mark.parametrize("make", [
    lambda d: ConditionalMasker(MultivariateGaussian.equicorrelated(2, rho=0.0), draws=d),
    lambda d: GaussianConditionalMasker(draws=d),
])
def test_draws_is_validated(make):
    with pytest.raises(InvalidParameterError, match="'draws' parameter"):
        make("fresh").fit(np.random.default_rng(0).normal(size=(5, 2)))
