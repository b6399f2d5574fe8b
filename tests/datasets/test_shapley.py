"""Exact Shapley values against closed forms and brute-force permutations."""

import itertools
import math

import numpy as np
import pytest

from sklearn_xai.datasets import (
    GaussianMixture,
    MultivariateGaussian,
    exact_shapley_values,
)
from sklearn_xai.masking import (
    BaselineMasker,
    ConditionalMasker,
    EmpiricalConditionalMasker,
    MarginalMasker,
)
from sklearn_xai.utils._output import BLOCK_ENTRIES


def _permutation_shapley(value, d):
    """Shapley values from the permutation definition (independent of the
    subset-weight formula): average marginal contributions over all orders."""
    phi = np.zeros(d)
    for order in itertools.permutations(range(d)):
        S = frozenset()
        for j in order:
            phi[j] += value(S | {j}) - value(S)
            S = S | {j}
    return phi / math.factorial(d)


def _gaussian_value(mean, cov, x, w, c):
    """Observational value of an affine model from textbook conditional means."""

    def value(S):
        S, U = sorted(S), [j for j in range(len(x)) if j not in S]
        e = x.copy()
        if U:
            e[U] = mean[U]
            if S:
                inv = np.linalg.inv(cov[np.ix_(S, S)])
                e[U] += cov[np.ix_(U, S)] @ inv @ (x[S] - mean[S])
        return e @ w + c

    return value


W = np.array([1.5, -2.0, 0.5, 3.0])


def test_independent_linear_closed_form():
    mean = np.array([0.3, -1.0, 2.0, 0.0])
    dist = MultivariateGaussian(mean, np.diag([1.0, 2.0, 0.5, 1.5]))
    X = dist.sample(7, random_state=0)
    expected = W * (X - mean)
    for value in ("observational", "interventional"):
        res = exact_shapley_values(None, X, dist, value=value, affine=(W, 1.0))
        np.testing.assert_allclose(res.attributions, expected, atol=1e-10)
        assert res.n_model_rows == 0
    mc = exact_shapley_values(lambda Z: Z @ W + 1.0, X, dist, n_draws=20_000,
                              random_state=0)
    np.testing.assert_allclose(mc.attributions, expected, atol=0.08)
    # batched: about n_model_rows / (BLOCK_ENTRIES // n_features) calls (one
    # block of rows per call by default), not one per row and coalition
    assert mc.n_model_calls <= 2 * np.ceil(mc.n_model_rows / (BLOCK_ENTRIES // 4))
    assert mc.n_model_calls < 7 * 15


def test_correlated_observational_linear_matches_permutation_formula():
    mean = np.array([0.5, -0.5, 0.0, 1.0])
    dist = MultivariateGaussian(mean, MultivariateGaussian.equicorrelated(4, 0.6).cov)
    X = dist.sample(4, random_state=1)
    res = exact_shapley_values(None, X, dist, affine=(W, 0.7))
    for i, x in enumerate(X):
        ref = _permutation_shapley(_gaussian_value(mean, dist.cov, x, W, 0.7), 4)
        np.testing.assert_allclose(res.attributions[i], ref, atol=1e-10)
    # Monte Carlo (f not declared affine) agrees with the closed form.
    mc = exact_shapley_values(lambda Z: Z @ W + 0.7, X, dist, n_draws=20_000,
                              random_state=0)
    np.testing.assert_allclose(mc.attributions, res.attributions, atol=0.1)


def test_interventional_differs_from_observational_where_theory_says():
    w = np.array([2.0, 0.0, 1.0])
    cov = np.array([[1.0, 0.8, 0.0], [0.8, 1.0, 0.0], [0.0, 0.0, 1.0]])
    dist = MultivariateGaussian(np.zeros(3), cov)
    X = np.array([[1.0, -1.0, 2.0], [0.5, 0.5, -1.0]])
    obs = exact_shapley_values(None, X, dist, affine=(w, 0.0)).attributions
    inter = exact_shapley_values(None, X, dist, value="marginal",
                                 affine=(w, 0.0)).attributions
    np.testing.assert_allclose(inter, w * X, atol=1e-12)
    # feature 1 is unused but correlated with feature 0: observational credit
    assert np.all(np.abs(obs[:, 1]) > 0.1)
    # feature 2 is independent of the others: both agree on it
    np.testing.assert_allclose(obs[:, 2], inter[:, 2], atol=1e-12)
    # hand-computed for x = (1, -1, 2): v({1}) = 2*0.8*x1, v({0,1}) = 2*x0, ...
    ref = _permutation_shapley(_gaussian_value(np.zeros(3), cov, X[0], w, 0.0), 3)
    np.testing.assert_allclose(obs[0], ref, atol=1e-12)


def test_baseline_and_background_values_by_hand():
    def f(Z):
        return Z[:, 0] * Z[:, 1] + Z[:, 2]

    res = exact_shapley_values(f, [[2.0, 3.0, 4.0]], value="baseline", baseline=0.0)
    np.testing.assert_allclose(res.attributions, [[3.0, 3.0, 4.0]])
    bg = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0], [-1.0, 2.0, 1.0]])
    x = np.array([2.0, 3.0, 4.0])

    def value(S):
        Z = np.where(np.isin(np.arange(3), list(S)), x, bg)
        return f(Z).mean()

    res = exact_shapley_values(f, x[None], value="interventional", background=bg)
    np.testing.assert_allclose(res.attributions[0], _permutation_shapley(value, 3))
    assert res.n_model_rows == 1 + 7 * 3  # f(x) once, 7 coalitions x 3 rows


def test_efficiency_and_shift_invariance_for_nonlinear_model():
    dist = MultivariateGaussian.equicorrelated(4, 0.4)
    X = dist.sample(5, random_state=2)

    def f(Z):
        return np.sin(Z[:, 0]) * Z[:, 1] + Z[:, 2] ** 2 - Z[:, 3]

    res = exact_shapley_values(f, X, dist, n_draws=500, random_state=0)
    np.testing.assert_allclose(res.attributions.sum(1), res.predictions - res.base_values,
                               atol=1e-10)
    np.testing.assert_allclose(res.predictions, f(X))
    shifted = exact_shapley_values(lambda Z: f(Z) + 10.0, X, dist, n_draws=500,
                                   random_state=0)
    np.testing.assert_allclose(shifted.attributions, res.attributions, atol=1e-10)
    biased = exact_shapley_values(f, X, dist, n_draws=500, random_state=0,
                                  convention="xai_bench_code")
    np.testing.assert_allclose(biased.attributions.sum(1), res.predictions, atol=1e-10)


def test_observational_equals_interventional_for_independent_features():
    dist = MultivariateGaussian(np.zeros(3), np.eye(3))
    X = dist.sample(3, random_state=0)

    def f(Z):
        return Z[:, 0] * Z[:, 1] + np.exp(Z[:, 2])

    obs = exact_shapley_values(f, X, dist, n_draws=2_000, random_state=0)
    inter = exact_shapley_values(f, X, dist, value="interventional", n_draws=2_000,
                                 random_state=0)
    np.testing.assert_allclose(obs.attributions, inter.attributions, atol=1e-12)
    # product term: E[x0 x1 | x0] = 0, so each gets x0 x1 / 2 exactly
    expected01 = X[:, 0] * X[:, 1] / 2
    np.testing.assert_allclose(obs.attributions[:, 0], expected01, atol=0.1)


def test_batch_size_and_row_order_do_not_change_values():
    dist = MultivariateGaussian.equicorrelated(3, 0.5)
    X = dist.sample(6, random_state=3)

    def f(Z):
        return np.tanh(Z).sum(1) + Z[:, 0] * Z[:, 2]

    a = exact_shapley_values(f, X, dist, n_draws=50, random_state=5)
    b = exact_shapley_values(f, X[::-1], dist, n_draws=50, random_state=5,
                             batch_size=60)
    np.testing.assert_allclose(b.attributions[::-1], a.attributions, atol=1e-12)
    assert b.n_model_calls > a.n_model_calls
    assert a.n_model_rows == b.n_model_rows == 6 + 6 * 7 * 50
    c = exact_shapley_values(f, X, dist, n_draws=50, random_state=6)
    assert not np.allclose(c.attributions, a.attributions)


def test_mixture_observational_closed_form_vs_monte_carlo():
    mix = GaussianMixture([0.3, 0.7], [[1.0, 1.0, 0.0], [-1.0, -1.0, 0.5]],
                          MultivariateGaussian.equicorrelated(3, 0.3).cov)
    X = mix.sample(3, random_state=0)
    w = np.array([1.0, 2.0, -1.0])
    exact = exact_shapley_values(None, X, mix, affine=(w, 0.0))
    mc = exact_shapley_values(lambda Z: Z @ w, X, mix, n_draws=30_000, random_state=0)
    np.testing.assert_allclose(mc.attributions, exact.attributions, atol=0.08)
    # not the interventional values: the mixture correlates the features
    inter = exact_shapley_values(None, X, mix, value="interventional", affine=(w, 0.0))
    np.testing.assert_allclose(inter.attributions, w * (X - mix.mean), atol=1e-12)
    assert not np.allclose(inter.attributions, exact.attributions, atol=0.05)


def test_target_index_is_passed_per_row():
    seen = []

    def f(Z, t):
        seen.append(t)
        return Z.sum(1) * (t + 1)

    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    res = exact_shapley_values(f, X, value="baseline", baseline=0.0,
                               target_index=np.array([0, 1]))
    np.testing.assert_allclose(res.attributions, [[1.0, 2.0], [6.0, 8.0]])
    assert all(len(t) > 0 for t in seen)


def test_max_features_refusal_points_to_kernelshap():
    with pytest.raises(ValueError, match="KernelSHAP"):
        exact_shapley_values(lambda Z: Z.sum(1), np.zeros((1, 17)), value="baseline",
                             baseline=0.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(value="observational"), "needs distribution"),
        (dict(value="interventional"), "exactly one of background"),
        (dict(value="baseline"), "needs baseline"),
        (dict(value="shapley"), "value must be"),
        (dict(value="baseline", baseline=[0.0]),
         "baseline must be a number or have n_features=2 entries"),
        (dict(value="interventional", background=np.zeros((3, 3))), "2 columns"),
    ],
)
def test_parameter_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        exact_shapley_values(lambda Z: Z.sum(1), np.zeros((1, 2)), **kwargs)


def test_wrong_output_shape_is_reported():
    with pytest.raises(ValueError, match="one value per row"):
        exact_shapley_values(lambda Z: np.zeros(1), np.zeros((2, 2)), value="baseline",
                             baseline=0.0)


# ------------------------------------------------------------------ maskers
def test_any_masker_defines_the_value_function():
    dist = MultivariateGaussian.equicorrelated(3, 0.5)
    X = dist.sample(4, random_state=0)

    def f(Z):
        return np.tanh(Z[:, 0]) * Z[:, 1] + Z[:, 2] ** 2

    # the value= shorthands are the corresponding maskers
    sugar = exact_shapley_values(f, X, dist, n_draws=200, random_state=1)
    masked = exact_shapley_values(f, X, masker=ConditionalMasker(dist, n_draws=200),
                                  random_state=1)
    np.testing.assert_array_equal(masked.attributions, sugar.attributions)
    assert masked.value == "masker" and sugar.value == "observational"
    bg = dist.sample(9, random_state=2)
    np.testing.assert_array_equal(
        exact_shapley_values(f, X, masker=MarginalMasker(background=bg)).attributions,
        exact_shapley_values(f, X, value="interventional", background=bg).attributions)

    # a kernel-weighted empirical masker, against its definition written out
    X_train = dist.sample(30, random_state=3)
    sigma = 0.6
    masker = EmpiricalConditionalMasker(sigma=sigma).fit(X_train)
    cov = np.cov(X_train, rowvar=False)

    def value(x, S):
        S = sorted(S)
        if not S:
            return f(X_train).mean()
        diff = x[S] - X_train[:, S]
        dist2 = np.einsum("ni,ij,nj->n", diff, np.linalg.pinv(cov[np.ix_(S, S)]),
                          diff) / len(S)
        w = np.exp(-dist2 / (2 * sigma**2))
        Z = X_train.copy()
        Z[:, S] = x[S]
        return (w * f(Z)).sum() / w.sum()

    res = exact_shapley_values(f, X, masker=masker)
    for i, x in enumerate(X):
        ref = _permutation_shapley(lambda S, x=x: value(x, S), 3)
        np.testing.assert_allclose(res.attributions[i], ref, rtol=1e-10, atol=1e-12)
    assert res.n_model_rows == 4 * (1 + 7 * 30)


def test_masker_errors():
    X = np.zeros((1, 2))
    dist = MultivariateGaussian.equicorrelated(2, 0.5)
    with pytest.raises(ValueError, match="do not pass"):
        exact_shapley_values(lambda Z: Z.sum(1), X, dist,
                             masker=ConditionalMasker(dist))
    with pytest.raises(ValueError, match=r"masker\.fit\(X_train\)"):
        exact_shapley_values(lambda Z: Z.sum(1), X, masker=BaselineMasker("mean"))
    # data-free maskers need no fitting
    res = exact_shapley_values(lambda Z: Z.sum(1), [[1.0, 2.0]],
                               masker=BaselineMasker("zero"))
    np.testing.assert_allclose(res.attributions, [[1.0, 2.0]])


def test_batch_size_bounds_the_rows_of_one_call():
    dist = MultivariateGaussian.equicorrelated(3, 0.5)
    X = dist.sample(4, random_state=3)

    def f(Z):
        return np.tanh(Z).sum(1) + Z[:, 0] * Z[:, 2]

    new = exact_shapley_values(f, X, dist, n_draws=40, random_state=5)
    # batch_size is the maximum number of rows of one call of f
    sizes = []

    def g(Z):
        sizes.append(len(Z))
        return f(Z)

    small = exact_shapley_values(g, X, dist, n_draws=40, random_state=5, batch_size=70)
    np.testing.assert_allclose(small.attributions, new.attributions, atol=1e-12)
    assert max(sizes) <= 70 and small.n_model_calls == len(sizes)
