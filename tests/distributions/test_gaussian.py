"""Tests of the Gaussian / mixture distributions against independent formulas."""

import pickle

import numpy as np
import pytest
from scipy import stats

from sklearn_xai.distributions import GaussianMixture, MultivariateGaussian


def _cov3():
    return np.array([[2.0, 0.6, 0.3], [0.6, 1.0, -0.2], [0.3, -0.2, 1.5]])


def _hand_conditional(mean, cov, x, S):
    """Textbook Gaussian conditioning with an explicit inverse."""
    U = [j for j in range(len(mean)) if j not in S]
    inv = np.linalg.inv(cov[np.ix_(S, S)])
    m = mean[U] + cov[np.ix_(U, S)] @ inv @ (x[S] - mean[S])
    C = cov[np.ix_(U, U)] - cov[np.ix_(U, S)] @ inv @ cov[np.ix_(S, U)]
    return m, C


# ----------------------------------------------------------------- Gaussian
def test_conditional_matches_textbook_formula():
    mean, cov = np.array([1.0, -1.0, 0.5]), _cov3()
    dist = MultivariateGaussian(mean, cov)
    x = np.array([2.0, 0.3, -1.0])
    for S in ([0], [1], [0, 2], [2]):
        cond = dist.conditional(x, S)
        m, C = _hand_conditional(mean, cov, x, S)
        np.testing.assert_allclose(cond.mean, m, atol=1e-12)
        np.testing.assert_allclose(cond.cov, C, atol=1e-12)
        # The conditional variance never exceeds the marginal one (the "+" typo).
        U = [j for j in range(3) if j not in S]
        assert np.all(np.diag(cond.cov) <= np.diag(cov)[U] + 1e-12)


def test_conditional_moments_match_brute_force_regression():
    """Regress X_U on X_S in a large joint sample: slope and residual covariance
    are the conditional gain and covariance."""
    dist = MultivariateGaussian([0.5, 0.0, -0.5, 1.0],
                                MultivariateGaussian.equicorrelated(4, 0.6).cov * 2.0)
    Z = dist.sample(200_000, random_state=0)
    mask = np.array([True, False, True, False])
    A = np.column_stack([np.ones(len(Z)), Z[:, mask]])
    coef, *_ = np.linalg.lstsq(A, Z[:, ~mask], rcond=None)
    x = np.array([1.0, 0.0, -2.0, 0.0])
    predicted = np.r_[1.0, x[mask]] @ coef
    expected = dist.conditional_mean(x[None], mask)[0, ~mask]
    np.testing.assert_allclose(predicted, expected, atol=0.02)
    resid_cov = np.cov((Z[:, ~mask] - A @ coef).T)
    np.testing.assert_allclose(resid_cov, dist.conditional(x, mask).cov, atol=0.03)


def test_conditional_sample_moments():
    mean, cov = np.array([1.0, -1.0, 0.5]), _cov3()
    dist = MultivariateGaussian(mean, cov)
    x = np.array([[2.0, 0.3, -1.0]])
    draws = dist.conditional_sample(x, [1], n_draws=40_000, random_state=1)
    assert draws.shape == (1, 40_000, 3)
    assert np.all(draws[0, :, 1] == 0.3)
    m, C = _hand_conditional(mean, cov, x[0], [1])
    np.testing.assert_allclose(draws[0][:, [0, 2]].mean(0), m, atol=0.03)
    np.testing.assert_allclose(np.cov(draws[0][:, [0, 2]].T), C, atol=0.05)


def test_marginal_sample_ignores_fixed_values():
    dist = MultivariateGaussian.equicorrelated(3, 0.9)
    X = np.array([[3.0, 0.0, 0.0], [-3.0, 0.0, 0.0]])
    inter = dist.marginal_sample(X, [0], n_draws=20_000, random_state=0)
    obs = dist.conditional_sample(X, [0], n_draws=20_000, random_state=0)
    # interventional: free features keep their marginal mean 0 whatever x_0
    np.testing.assert_allclose(inter[:, :, 1:].mean(axis=1), 0.0, atol=0.03)
    # observational: they follow x_0 (conditional mean 0.9 * x_0)
    np.testing.assert_allclose(obs[:, :, 1:].mean(axis=1), [[2.7, 2.7], [-2.7, -2.7]],
                               atol=0.03)
    marg = dist.marginal([0])
    np.testing.assert_allclose(marg.cov, [[1.0, 0.9], [0.9, 1.0]])


def test_empty_and_full_conditioning_sets():
    dist = MultivariateGaussian([1.0, 2.0], [[1.0, 0.5], [0.5, 2.0]])
    x = np.array([0.0, 0.0])
    none = dist.conditional(x, np.zeros(2, dtype=bool))
    np.testing.assert_array_equal(none.mean, dist.mean)
    np.testing.assert_array_equal(none.cov, dist.cov)
    full = dist.conditional(x, [0, 1])
    assert full.n_features == 0
    X = np.array([[0.3, -0.7], [1.0, 1.0]])
    draws = dist.conditional_sample(X, [0, 1], n_draws=4, random_state=0)
    np.testing.assert_array_equal(draws, np.repeat(X[:, None], 4, axis=1))
    np.testing.assert_array_equal(dist.conditional_mean(X, [True, True]), X)
    np.testing.assert_allclose(dist.conditional_mean(X, []), [[1.0, 2.0]] * 2)


def test_singular_covariance_uses_pseudo_inverse():
    # x1 is an exact copy of x0: Sigma_SS is singular for S = {0, 1}.
    cov = np.array([[1.0, 1.0, 0.5], [1.0, 1.0, 0.5], [0.5, 0.5, 1.0]])
    with pytest.raises(ValueError, match="allow_singular=True"):
        MultivariateGaussian(np.zeros(3), cov)
    dist = MultivariateGaussian(np.zeros(3), cov, allow_singular=True)
    x = np.array([[2.0, 2.0, 0.0]])
    np.testing.assert_allclose(dist.conditional_mean(x, [0, 1]), [[2.0, 2.0, 1.0]])
    np.testing.assert_allclose(dist.conditional(x[0], [0, 1]).cov, [[0.75]])
    # x1 given x0 is a point mass at x0 (variance clipped to 0).
    draws = dist.conditional_sample(x, [0], n_draws=200, random_state=0)
    np.testing.assert_allclose(draws[0, :, 1], 2.0, atol=1e-4)


def test_near_one_correlation_is_stable():
    dist = MultivariateGaussian.equicorrelated(6, 0.999999)
    m = dist.conditional_mean(np.array([[1.0, 1.0, 1.0, 0.0, 0.0, 0.0]]), [0, 1, 2])
    assert np.all(np.isfinite(m))
    np.testing.assert_allclose(m[0, 3:], 1.0, atol=1e-4)


def test_blocks_are_cached_per_mask():
    dist = MultivariateGaussian.equicorrelated(4, 0.3)
    X = dist.sample(5, random_state=0)
    for _ in range(3):
        dist.conditional_mean(X, [0, 2])
        dist.conditional_mean(X, np.array([True, False, True, False]))
    assert len(dist._cache) == 1
    big = MultivariateGaussian(np.zeros(20), np.eye(20))
    rng = np.random.default_rng(0)
    for mask in rng.random((300, 20)) < 0.5:
        big.conditional_mean(np.zeros((1, 20)), mask)
    assert len(big._cache) <= 256


def test_reproducible_row_keyed_and_common_random_numbers():
    dist = MultivariateGaussian(np.zeros(3), np.eye(3))
    X = np.arange(12.0).reshape(4, 3)
    a = dist.conditional_sample(X, [0], 10, random_state=3)
    b = dist.conditional_sample(X, [0], 10, random_state=3)
    c = dist.conditional_sample(X, [0], 10, random_state=4)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    # a row's draws do not depend on the batch it is in
    np.testing.assert_array_equal(dist.conditional_sample(X[2:3], [0], 10, 3)[0], a[2])
    np.testing.assert_array_equal(dist.conditional_sample(X[::-1], [0], 10, 3), a[::-1])
    # common random numbers: independent feature 2 gets the same draws whether
    # feature 1 is fixed or free
    d = dist.conditional_sample(X, [0, 1], 10, random_state=3)
    np.testing.assert_array_equal(a[..., 2], d[..., 2])


def test_conditional_expectation_affine_and_monte_carlo():
    dist = MultivariateGaussian([0.5, -0.5, 1.0], _cov3())
    X = dist.sample(6, random_state=0)
    w, c = np.array([1.0, -2.0, 0.5]), 0.3
    given = np.array([[True, False, False], [False, True, True], [False] * 3, [True] * 3])
    exact = dist.conditional_expectation(None, X, given, affine=(w, c))
    for j, S in enumerate(given):
        np.testing.assert_allclose(exact[:, j], dist.conditional_mean(X, S) @ w + c)
    np.testing.assert_allclose(exact[:, 3], X @ w + c)
    mc = dist.conditional_expectation(lambda Z: Z @ w + c, X, given, n_draws=20_000,
                                      random_state=0, batch_size=7_000)
    np.testing.assert_allclose(mc, exact, atol=0.05)
    inter = dist.conditional_expectation(None, X, given[0], interventional=True,
                                         affine=(w, c))
    expected = X[:, 0] * w[0] + dist.mean[1:] @ w[1:] + c
    np.testing.assert_allclose(inter, expected)

    class Linear:
        coef_, intercept_ = w, c

        def __call__(self, Z):
            raise AssertionError("closed form expected")

    np.testing.assert_allclose(dist.conditional_expectation(Linear(), X, given), exact)


def test_logpdf_matches_scipy():
    mean, cov = np.array([1.0, -1.0, 0.5]), _cov3()
    X = np.random.default_rng(0).normal(size=(5, 3))
    np.testing.assert_allclose(MultivariateGaussian(mean, cov).logpdf(X),
                               stats.multivariate_normal(mean, cov).logpdf(X))


def test_user_arrays_are_not_mutated_or_aliased():
    mean, cov = np.zeros(3), _cov3()
    mean_copy, cov_copy = mean.copy(), cov.copy()
    dist = MultivariateGaussian(mean, cov)
    X = np.ones((2, 3))
    dist.conditional_sample(X, [0], 5, random_state=0)
    dist.conditional_mean(X, [1])
    np.testing.assert_array_equal(X, np.ones((2, 3)))
    cov[0, 0] = 100.0
    np.testing.assert_array_equal(dist.cov, cov_copy)
    np.testing.assert_array_equal(mean, mean_copy)
    with pytest.raises(ValueError):
        dist.mean[0] = 1.0


def test_pickle_roundtrip():
    dist = MultivariateGaussian.equicorrelated(3, 0.5)
    dist.conditional_mean(np.zeros((1, 3)), [0])
    clone = pickle.loads(pickle.dumps(dist))
    np.testing.assert_array_equal(clone.conditional_mean(np.ones((1, 3)), [0]),
                                  dist.conditional_mean(np.ones((1, 3)), [0]))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(mean=[0, 0], cov=[[1, 2], [2, 1]]), "not positive definite"),
        (dict(mean=[0, 0], cov=[[1, 0.5], [0.2, 1]]), "symmetric"),
        (dict(mean=[0, 0, 0], cov=np.eye(2)),
         r"mean must be a number or have n_features=2 entries"),
        (dict(mean=[0, 0], cov=np.ones(2)), "square matrix"),
        (dict(mean=[np.nan, 0], cov=np.eye(2)), "finite"),
    ],
)
def test_gaussian_parameter_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        MultivariateGaussian(**kwargs)


@pytest.mark.parametrize("rho", [-0.25, -0.3, 1.0, 1.5])
def test_equicorrelated_rho_range(rho):
    with pytest.raises(ValueError, match=r"rho=.*-1/\(n_features-1\) < rho < 1"):
        MultivariateGaussian.equicorrelated(5, rho)
    MultivariateGaussian.equicorrelated(5, -0.24)


def test_given_validation():
    dist = MultivariateGaussian.equicorrelated(3)
    with pytest.raises(ValueError, match="given"):
        dist.conditional_mean(np.zeros((1, 3)), [True, False])
    with pytest.raises(ValueError, match="outside"):
        dist.conditional_mean(np.zeros((1, 3)), [5])
    with pytest.raises(ValueError, match="4 features but 3 are expected"):
        dist.conditional_mean(np.zeros((1, 4)), [0])


# ------------------------------------------------------------------ mixture
def _mixture():
    covs = np.stack([_cov3(), np.diag([1.0, 2.0, 0.5])])
    return GaussianMixture([0.3, 0.7], [[2.0, 1.0, 0.0], [-1.0, 0.0, 1.0]], covs)


def test_mixture_component_frequencies_per_row():
    mix = GaussianMixture([0.2, 0.8], [[4.0, 4.0], [-4.0, -4.0]], np.eye(2))
    X = mix.sample(20_000, random_state=0)
    assert abs((X[:, 0] > 0).mean() - 0.2) < 0.01
    # every batch mixes components (XAI-Bench drew one component per batch)
    small = mix.sample(50, random_state=1)
    assert 0 < (small[:, 0] > 0).sum() < 50
    np.testing.assert_allclose(X.mean(0), mix.mean, atol=0.05)
    np.testing.assert_allclose(np.cov(X.T), mix.cov, atol=0.15)


def test_mixture_posterior_uses_weights():
    mix = _mixture()
    x = np.array([[0.5, 0.2, -0.3]])
    S = [0, 2]
    dens = np.array([
        w * stats.multivariate_normal(m[S], c[np.ix_(S, S)]).pdf(x[0, S])
        for w, m, c in zip(mix.weights, mix.means, mix.covs)
    ])
    post = dens / dens.sum()
    np.testing.assert_allclose(mix.component_posterior(x, S)[0], post)
    cond = mix.conditional(x[0], S)
    np.testing.assert_allclose(cond.weights, post)
    means = [_hand_conditional(m, c, x[0], S)[0] for m, c in zip(mix.means, mix.covs)]
    np.testing.assert_allclose(mix.conditional_mean(x, S)[0, 1], post @ np.ravel(means))
    # S empty: prior weights
    np.testing.assert_allclose(mix.component_posterior(x, [])[0], [0.3, 0.7])
    np.testing.assert_allclose(mix.logpdf(x),
                               np.log(sum(w * stats.multivariate_normal(m, c).pdf(x[0])
                                          for w, m, c in zip(mix.weights, mix.means,
                                                             mix.covs))))


def test_mixture_conditional_draws_follow_posterior():
    mix = GaussianMixture([0.5, 0.5], [[1.0, 3.0], [-1.0, -3.0]], np.eye(2))
    x = np.array([[0.3, 0.0]])
    post = mix.component_posterior(x, [0])[0]
    draws = mix.conditional_sample(x, [0], n_draws=20_000, random_state=0)
    assert abs((draws[0, :, 1] > 0).mean() - post[0]) < 0.015
    inter = mix.marginal_sample(x, [0], n_draws=20_000, random_state=0)
    assert abs((inter[0, :, 1] > 0).mean() - 0.5) < 0.015


def test_mixture_extreme_posterior_is_finite():
    mix = GaussianMixture([0.5, 0.5], [[10.0, 10.0], [-10.0, -10.0]], np.eye(2) * 0.01)
    m = mix.conditional_mean(np.array([[40.0, 0.0]]), [0])
    np.testing.assert_allclose(m, [[40.0, 10.0]])


@pytest.mark.parametrize(
    "args, match",
    [
        (([0.5, 0.6], [[0.0], [1.0]], np.eye(1)), "sum to 1"),
        (([-0.5, 1.5], [[0.0], [1.0]], np.eye(1)), "non-negative"),
        (([0.5, 0.5], [[0.0], [1.0], [2.0]], np.eye(1)), "one row per weight"),
        (([0.5, 0.5], [[0.0], [1.0]], np.ones((3, 1, 1))), "covs must have shape"),
        (([0.5, 0.5], [[0.0], [1.0]], [[[1.0]], [[-1.0]]]), "component 1"),
    ],
)
def test_mixture_parameter_errors(args, match):
    with pytest.raises(ValueError, match=match):
        GaussianMixture(*args)
