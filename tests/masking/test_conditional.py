"""Observational maskers built on the exact distributions."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.distributions import GaussianMixture, MultivariateGaussian
from sklearn_xai.masking import (
    ConditionalMasker,
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
)
from sklearn_xai.utils import RowStreams, row_keys


def _dist():
    cov = np.array([[1.0, 0.7, 0.0], [0.7, 1.0, 0.0], [0.0, 0.0, 2.0]])
    return MultivariateGaussian([1.0, -1.0, 0.5], cov)


def test_impute_draws_from_the_conditional():
    dist = _dist()
    X = np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    masker = ConditionalMasker(dist, n_draws=20_000).fit(X)
    keep = np.array([[True, False, False], [False, True, True], [True, True, True]])
    Z = masker.impute(X, keep, rngs=RowStreams(0, row_keys(X)))
    assert Z.shape == (2, 3, 20_000, 3)
    np.testing.assert_array_equal(Z[:, 0, :, 0], X[:, [0]].repeat(20_000, 1))
    np.testing.assert_array_equal(Z[:, 2], np.repeat(X[:, None], 20_000, axis=1))
    # x1 | x0: mean -1 + 0.7 (x0 - 1), variance 1 - 0.49; x2 independent
    np.testing.assert_allclose(Z[:, 0, :, 1].mean(1), [-1 + 0.7, -1 - 0.7], atol=0.02)
    np.testing.assert_allclose(Z[:, 0, :, 1].var(1), 0.51, atol=0.02)
    np.testing.assert_allclose(Z[:, 0, :, 2].mean(1), 0.5, atol=0.03)
    np.testing.assert_allclose(Z[:, 1, :, 0].mean(1), [1 + 0.7, 1 + 0.7], atol=0.02)


def test_common_random_numbers_and_row_keys():
    dist = MultivariateGaussian(np.zeros(3), np.eye(3))
    X = np.arange(6.0).reshape(2, 3)
    masker = ConditionalMasker(dist, n_draws=8).fit(X)
    keep = np.array([[True, False, False], [True, True, False]])
    Z = masker.impute(X, keep, rngs=RowStreams(1, row_keys(X)))
    # feature 2 is free in both coalitions: same draws (common random numbers)
    np.testing.assert_array_equal(Z[:, 0, :, 2], Z[:, 1, :, 2])
    # a row's draws do not depend on its batch
    alone = masker.impute(X[1:], keep, rngs=RowStreams(1, row_keys(X[1:])))
    np.testing.assert_array_equal(alone[0], Z[1])
    other = masker.impute(X, keep, rngs=RowStreams(2, row_keys(X)))
    assert not np.allclose(other, Z)
    with pytest.raises(ValueError, match="stochastic"):
        masker.impute(X, keep)


def test_per_row_coalitions():
    dist = _dist()
    X = dist.sample(3, random_state=0)
    masker = ConditionalMasker(dist, n_draws=4).fit(X)
    keep = np.array([
        [[True, False, False], [False, False, True]],
        [[False, True, False], [True, True, False]],
        [[True, False, False], [False, False, False]],
    ])
    rngs = RowStreams(0, row_keys(X))
    Z = masker.impute(X, keep, rngs=rngs)
    for i in range(3):
        single = masker.impute(X[i : i + 1], keep[i : i + 1],
                               rngs=RowStreams(0, row_keys(X[i : i + 1])))
        np.testing.assert_array_equal(Z[i], single[0])
        np.testing.assert_array_equal(Z[i][:, :, keep[i][0]][0],
                                      np.broadcast_to(X[i, keep[i][0]], (4, keep[i][0].sum())))


def test_evaluate_affine_closed_form_without_calling_f():
    dist = _dist()
    X = dist.sample(4, random_state=1)
    masker = ConditionalMasker(dist, n_draws=10).fit(X)
    keep = np.array([[True, False, False], [False, False, True], [False] * 3])

    class Affine:
        coef_ = np.array([2.0, -1.0, 0.5])
        intercept_ = 3.0

        def __call__(self, Z, t=None):
            raise AssertionError("closed form expected")

    values = masker.evaluate(Affine(), X, keep)
    for j, mask in enumerate(keep):
        expected = dist.conditional_mean(X, mask) @ Affine.coef_ + 3.0
        np.testing.assert_allclose(values[:, j], expected)
    # x1 | x0 closed form by hand for the first coalition
    x1 = -1 + 0.7 * (X[:, 0] - 1)
    np.testing.assert_allclose(values[:, 0], 2 * X[:, 0] - x1 + 0.25 + 3.0)


def test_evaluate_monte_carlo_matches_distribution():
    dist = GaussianMixture([0.4, 0.6], [[1.0, 1.0], [-1.0, -2.0]], np.eye(2) * 0.5)
    X = dist.sample(5, random_state=0)
    masker = ConditionalMasker(dist, n_draws=300).fit(X)
    keep = np.array([[True, False], [False, True], [False, False]])

    def f(Z):
        return np.sin(Z[:, 0]) * Z[:, 1]

    values = masker.evaluate(lambda Z, t: f(Z), X, keep,
                             rngs=RowStreams(3, row_keys(X)), batch_size=500)
    expected = dist.conditional_expectation(f, X, keep, n_draws=300, random_state=3)
    np.testing.assert_allclose(values, expected, atol=1e-12)


def test_fit_validation_and_clone():
    dist = _dist()
    with pytest.raises(ValueError, match="3 features but X has 2"):
        ConditionalMasker(dist).fit(np.zeros((4, 2)))
    with pytest.raises(InvalidParameterError, match="distribution"):
        ConditionalMasker(np.eye(3)).fit(np.zeros((4, 3)))
    with pytest.raises(InvalidParameterError, match="n_draws"):
        ConditionalMasker(dist, n_draws=0).fit(np.zeros((4, 3)))
    masker = clone(ConditionalMasker(dist, n_draws=7))
    assert masker.get_params()["n_draws"] == 7
    assert masker.fit(np.zeros((2, 3))).n_draws == 7
    assert masker.n_draws_ == 7
    assert not masker.is_deterministic


def test_gaussian_conditional_masker_fits_the_data():
    rng = np.random.default_rng(0)
    x0 = rng.normal(size=2000)
    X = np.column_stack([x0, 2.0 * x0 + 0.5 * rng.normal(size=2000), rng.normal(size=2000)])
    masker = GaussianConditionalMasker(n_draws=5000).fit(X)
    np.testing.assert_allclose(masker.distribution_.mean, X.mean(0))
    np.testing.assert_allclose(masker.distribution_.cov, np.cov(X.T))
    x = np.array([[1.0, 0.0, 0.0]])
    Z = masker.impute(x, [[True, False, False]], rngs=RowStreams(0, [0]))
    beta = np.cov(X.T)[0, 1] / np.var(X[:, 0], ddof=1)
    expected = X[:, 1].mean() + beta * (1.0 - X[:, 0].mean())
    assert Z[0, 0, :, 1].mean() == pytest.approx(expected, abs=0.03)
    assert Z[0, 0, :, 1].mean() == pytest.approx(2.0, abs=0.1)
    # singular estimated covariance (duplicated column) is accepted
    dup = np.column_stack([x0, x0])
    GaussianConditionalMasker(n_draws=3).fit(dup).impute(
        dup[:1], [[True, False]], rngs=RowStreams(0, [0]))


def test_gaussian_conditional_masker_on_one_row_says_what_to_do():
    """One training row has no covariance: the error names the problem, the
    row count and the fix (previously the distribution's generic 'X must be a
    2-D array with more than ddof=1 rows')."""
    with pytest.raises(ValueError, match=r"GaussianConditionalMasker needs at least 2 "
                                         r"training rows.*got 1 sample.*Fit it on the "
                                         r"training data.*BaselineMasker"):
        GaussianConditionalMasker().fit(np.ones((1, 3)))
    X = np.array([[1.0, 2.0], [3.0, 5.0]])  # two rows are enough
    assert GaussianConditionalMasker(n_draws=2).fit(X).distribution_.cov.shape == (2, 2)


# ------------------------------------------------------------- interventional
def test_interventional_value_draws_the_marginal():
    dist = _dist()
    X = np.array([[3.0, 0.0, 0.0]])
    inter = ConditionalMasker(dist, n_draws=20000, value="interventional").fit(X)
    obs = ConditionalMasker(dist, n_draws=20000).fit(X)
    keep = np.array([[True, False, True]])
    Zi = inter.impute(X, keep, rngs=RowStreams(0, [0]))
    Zo = obs.impute(X, keep, rngs=RowStreams(0, [0]))
    # marginal mean of x1 is -1; conditional mean given x0 = 3 is -1 + 0.7 * 2
    assert Zi[0, 0, :, 1].mean() == pytest.approx(-1.0, abs=0.03)
    assert Zo[0, 0, :, 1].mean() == pytest.approx(0.4, abs=0.03)
    np.testing.assert_allclose(inter.expected_rows(X, keep)[0, 0], [3.0, -1.0, 0.0])
    with pytest.raises(InvalidParameterError, match="value"):
        ConditionalMasker(dist, value="marginal").fit(X)


# ------------------------------------------------------------------ empirical
def test_empirical_masker_hand_computed_weights():
    # Two donors, d = 2 (the SHAPR hand case): Sigma = [[2, 4], [4, 8]].
    Xtr = np.array([[0.0, 0.0], [2.0, 4.0]])
    masker = EmpiricalConditionalMasker(sigma=0.5).fit(Xtr)
    np.testing.assert_allclose(masker.covariance_, [[2.0, 4.0], [4.0, 8.0]])
    x = np.array([[1.0, 1.0]])
    keep = np.array([[False, False], [True, False], [False, True], [True, True]])

    def f(Z, t):
        return Z.sum(axis=1)

    v = masker.evaluate(f, x, keep)[0]
    # S={1}: distances^2 (1-0)^2/8 and (1-4)^2/8
    w0, w1 = np.exp(-(1 / 8) / (2 * 0.25)), np.exp(-(9 / 8) / (2 * 0.25))
    np.testing.assert_allclose(v, [3.0, 3.0, 1 + 2 * w1 / (w0 + w1), 2.0], rtol=1e-12)
    # per-row coalitions give the same values as shared ones
    per_row = masker.evaluate(f, np.vstack([x, x]), np.stack([keep, keep[::-1]]))
    np.testing.assert_allclose(per_row[0], v, rtol=1e-12)
    np.testing.assert_allclose(per_row[1], v[::-1], rtol=1e-12)
    # uniform weights for |S| <= 1 (XAI-Bench's code): x1 + mean(0, 2)
    uniform = EmpiricalConditionalMasker(sigma=0.5, uniform_small_coalitions=True)
    np.testing.assert_allclose(uniform.fit(Xtr).evaluate(f, x, keep)[0, 2], 1 + 1.0)


def test_empirical_masker_subsample_and_errors():
    X = np.random.default_rng(0).normal(size=(100, 3))
    m = EmpiricalConditionalMasker(max_background=20, random_state=0).fit(X)
    assert m.n_draws == 20 and m.is_deterministic
    assert all(any(np.array_equal(r, s) for s in X) for r in m.background_)
    np.testing.assert_array_equal(
        EmpiricalConditionalMasker(max_background=20, random_state=0).fit(X).background_,
        m.background_)
    with pytest.raises(ValueError, match="at least 2 training rows"):
        EmpiricalConditionalMasker().fit(X[:1])
    with pytest.raises(InvalidParameterError, match="sigma"):
        EmpiricalConditionalMasker(sigma=0).fit(X)


def test_second_positional_argument_of_conditional_masker_is_n_draws():
    X = _dist().sample(20, random_state=0)
    assert ConditionalMasker(_dist(), 9).fit(X).n_draws_ == 9
