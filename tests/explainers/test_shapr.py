"""Tests of EmpiricalConditionalSHAP (XAI-Bench's "SHAPR")."""

from itertools import combinations
from math import factorial

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers._shapr import EmpiricalConditionalSHAP

MU = np.array([1.0, 0.0, -1.0])
W = np.array([1.0, 2.0, -1.0])


def _cov(d, rho):
    return rho * np.ones((d, d)) + (1 - rho) * np.eye(d)


def observational_shapley(x, w, b, mu, cov):
    """Closed form for f(x) = w.x + b and X ~ N(mu, cov):
    v(S) = w_S.x_S + w_U.mu_{U|S} + b, mu_{U|S} = mu_U + C_US C_SS^-1 (x_S - mu_S)."""
    d = len(x)

    def v(S):
        S = list(S)
        U = [j for j in range(d) if j not in S]
        if not S:
            return w @ mu + b
        val = w[S] @ x[S] + b
        if U:
            cond = mu[U] + cov[np.ix_(U, S)] @ np.linalg.solve(cov[np.ix_(S, S)], x[S] - mu[S])
            val += w[U] @ cond
        return val

    phi = np.zeros(d)
    for j in range(d):
        others = [k for k in range(d) if k != j]
        for s in range(d):
            for S in combinations(others, s):
                weight = factorial(s) * factorial(d - s - 1) / factorial(d)
                phi[j] += weight * (v(S + (j,)) - v(S))
    return phi


@pytest.fixture(scope="module")
def correlated():
    rng = np.random.default_rng(0)
    cov = _cov(3, 0.7)
    X_test = rng.multivariate_normal(MU, cov, size=6)
    truth = np.array([observational_shapley(x, W, 0.5, MU, cov) for x in X_test])
    return rng, cov, X_test, truth


def _fit(n, rng, cov, **kw):
    X = rng.multivariate_normal(MU, cov, size=n)
    return EmpiricalConditionalSHAP(LinearRegression(), **kw).fit(X, X @ W + 0.5)


def test_empirical_approaches_observational_values(correlated):
    rng, cov, X_test, truth = correlated
    interventional = W * (X_test - MU)
    # Larger sample and narrower kernel: the kernel estimate's bias shrinks.
    err = {}
    for n, sigma in ((150, 0.8), (20000, 0.1)):
        A = _fit(n, rng, cov, sigma=sigma).transform(X_test)
        err[n] = np.abs(A - truth).mean()
    assert err[20000] < err[150] / 2
    assert err[20000] < 0.1
    # ... and the observational values differ from the interventional ones.
    assert np.abs(interventional - truth).mean() > 5 * err[20000]


def test_gaussian_method_approaches_observational_values(correlated):
    rng, cov, X_test, truth = correlated
    err = {}
    for n, draws in ((60, 30), (5000, 3000)):
        A = _fit(n, rng, cov, method="gaussian", n_draws=draws,
                 random_state=0).transform(X_test)
        err[n] = np.abs(A - truth).mean()
    assert err[5000] < err[60] / 2
    assert err[5000] < 0.04


def test_uniform_small_coalitions_two_features_are_marginal():
    # d = 2 with uniform weights for |S| <= 1: v({j}) is the marginal average,
    # so the values are interventional Shapley values w (x - mean(train)) up
    # to the 1e4 weight of the end constraints.
    rng = np.random.default_rng(1)
    X = rng.multivariate_normal([0.0, 1.0], _cov(2, 0.8), size=400)
    w = np.array([2.0, -1.0])
    model = LinearRegression().fit(X, X @ w)
    ex = EmpiricalConditionalSHAP(FrozenEstimator(model), convention="xai_bench_code")
    A = ex.fit(X).transform(X[:10])
    np.testing.assert_allclose(A, model.coef_ * (X[:10] - X.mean(axis=0)), atol=1e-3)
    # The default kernel weights condition on the kept feature: different.
    B = EmpiricalConditionalSHAP(FrozenEstimator(model)).fit(X).transform(X[:10])
    assert np.abs(A - B).max() > 0.1


def test_hand_computed_weights_one_row():
    # Two training rows, d = 2: every v(S) can be written down by hand.
    Xtr = np.array([[0.0, 0.0], [2.0, 4.0]])
    grid = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    model = LinearRegression().fit(grid, grid @ [1.0, 1.0])  # f = x0 + x1
    x = np.array([[1.0, 1.0]])
    sigma = 0.5
    ex = EmpiricalConditionalSHAP(FrozenEstimator(model), sigma=sigma).fit(Xtr)
    # Sigma_{0} = var(0, 2) = 2, Sigma_{1} = var(0, 4) = 8 (ddof=1).
    # S={0}: distances^2 (1-0)^2/2 and (1-2)^2/2 -> equal weights -> v = 1 + mean(0, 4) = 3
    # S={1}: (1-0)^2/8 and (1-4)^2/8 -> weights exp(-1/8 / 0.5), exp(-9/8 / 0.5)
    w0, w1 = np.exp(-(1 / 8) / (2 * sigma**2)), np.exp(-(9 / 8) / (2 * sigma**2))
    v1 = 1 + (w0 * 0 + w1 * 2) / (w0 + w1)
    v = np.array([3.0, 3.0, v1, 2.0])  # empty, {0}, {1}, full
    # WLS over [z, 1] with weights (1e4, 0.5, 0.5, 1e4).
    Z = np.array([[0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=float)
    Wt = np.diag([1e4, 0.5, 0.5, 1e4])
    coef = np.linalg.solve(Z.T @ Wt @ Z, Z.T @ Wt @ v)
    np.testing.assert_allclose(ex.transform(x)[0], coef[:2], rtol=1e-10)


def test_efficiency_up_to_end_weights(correlated):
    rng, cov, X_test, _ = correlated
    ex = _fit(500, rng, cov)
    A = ex.transform(X_test)
    f = ex.estimator_.predict
    v_empty = f(ex.background_).mean()
    np.testing.assert_allclose(A.sum(axis=1), f(X_test) - v_empty, atol=1e-3)


def test_classifier_predicted_class_probability():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    clf = LogisticRegression().fit(X, y)
    ex = EmpiricalConditionalSHAP(FrozenEstimator(clf)).fit(X)
    rows = X[:8]
    proba = clf.predict_proba(rows)
    c = proba.argmax(axis=1)
    v_empty = clf.predict_proba(X).mean(axis=0)[c]
    A = ex.transform(rows)
    np.testing.assert_allclose(A.sum(axis=1), proba[np.arange(8), c] - v_empty, atol=1e-3)


@pytest.mark.parametrize("method", ["empirical", "gaussian"])
def test_batch_size_row_order_and_seed(method, correlated):
    rng, cov, X_test, _ = correlated
    X = np.random.default_rng(3).multivariate_normal(MU, cov, size=200)
    kw = dict(method=method, n_draws=50, random_state=0)
    # Non-linear: a linear model is valued in closed form, without draws.
    model = FrozenEstimator(make_pipeline(PolynomialFeatures(2), LinearRegression())
                            .fit(X, X @ W + X[:, 0] * X[:, 1]))
    ref = EmpiricalConditionalSHAP(model, **kw).fit(X).transform(X_test)
    small = EmpiricalConditionalSHAP(model, batch_size=500, **kw).fit(X).transform(X_test)
    np.testing.assert_allclose(small, ref, rtol=1e-12, atol=1e-12)
    perm = np.array([5, 2, 0, 4, 1, 3])
    shuffled = EmpiricalConditionalSHAP(model, **kw).fit(X).transform(X_test[perm])
    np.testing.assert_allclose(shuffled, ref[perm], rtol=1e-12, atol=1e-12)
    if method == "gaussian":
        other = EmpiricalConditionalSHAP(model, **{**kw, "random_state": 1}).fit(X)
        assert not np.allclose(other.transform(X_test), ref)


def test_cost_one_call_per_block():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 3))
    model = FrozenEstimator(make_pipeline(PolynomialFeatures(2), LinearRegression())
                            .fit(X, X[:, 0] * X[:, 1]))
    ex = EmpiricalConditionalSHAP(model).fit(X)
    _, n_eval = ex.explain(X[:4], return_n_evaluations=True)
    assert n_eval == 4 * ((2**3 - 1) * 50 + 1)
    # A linear model is valued from its coefficients: only the affinity
    # check's rows (the 4 rows and 4 shifted copies) reach the model.
    linear = FrozenEstimator(LinearRegression().fit(X, X[:, 0]))
    _, n_eval = EmpiricalConditionalSHAP(linear).fit(X).explain(
        X[:4], return_n_evaluations=True)
    assert n_eval == 8


def test_max_background_subsample():
    X = np.random.default_rng(5).normal(size=(300, 3))
    ex = EmpiricalConditionalSHAP(LinearRegression(), max_background=40, random_state=0)
    ex.fit(X, X[:, 0])
    assert ex.background_.shape == (40, 3)
    assert all(any(np.array_equal(r, s) for s in X) for r in ex.background_[:5])


@pytest.mark.parametrize("params, match", [
    ({"sigma": 0}, "sigma"),
    ({"method": "copula"}, "method"),
    ({"max_background": 1}, "max_background"),
    ({"max_features": 2}, "KernelSHAP"),
])
def test_invalid_parameters(params, match):
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match=match):
        EmpiricalConditionalSHAP(LinearRegression(), **params).fit(X, X[:, 0])
