"""Exact XAI-Bench metrics on a simulated copy of real data (issue 9, item 5)."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.datasets import load_diabetes, make_gaussian_copy, marginal_divergence
from sklearn_xai.explainers import ExactShapley, RandomExplainer
from sklearn_xai.masking import ConditionalMasker
from sklearn_xai.metrics import (
    exact_shapley_reference,
    faith_plus,
    shapley_corr,
)

FEATURES = ["age", "bmi", "bp", "s1", "s5"]  # continuous columns of the real data


def _copy(n_samples=400, random_state=0):
    real = load_diabetes(as_frame=True)
    sim = make_gaussian_copy(real.data[FEATURES], real.target, n_samples=n_samples,
                             random_state=random_state)
    return sim


@pytest.fixture(scope="module")
def sim():
    return _copy()


def test_copy_keeps_the_real_correlations(sim):
    real = load_diabetes(as_frame=True).data[FEATURES].to_numpy()
    # The Gaussian of the standardised features (ddof=0 scaling): mean 0 and
    # the unbiased covariance of the scaled rows, i.e. the real correlation
    # matrix times n / (n - 1).
    n = len(real)
    np.testing.assert_allclose(sim.distribution.mean, 0.0, atol=1e-12)
    np.testing.assert_allclose(sim.distribution.cov,
                               np.corrcoef(real, rowvar=False) * n / (n - 1), atol=1e-10)
    # Near-Gaussian continuous columns are copied closely.
    assert np.all(marginal_divergence(sim.data_real, sim.data, bins=10) < 0.1)


@pytest.mark.parametrize(
    "model", [LinearRegression(), DecisionTreeRegressor(max_depth=3, random_state=0)]
)
def test_exact_shapley_beats_random(sim, model):
    X, y, dist = sim.data, sim.target, sim.distribution
    X_explain = X[300:330]
    exact = ExactShapley(model, masker=ConditionalMasker(dist, n_draws=30)).fit(
        X[:300], y[:300])
    model = exact.estimator_
    random = RandomExplainer(random_state=0).fit(X[:300])
    kw = dict(distribution=dist, n_draws=30, random_state=1)
    A_exact, A_random = exact.explain(X_explain), random.explain(X_explain)
    corr_exact = shapley_corr(model, X_explain, A_exact, **kw)
    corr_random = shapley_corr(model, X_explain, A_random, **kw)
    assert np.nanmean(corr_exact) > 0.9
    assert np.nanmean(corr_exact) > np.nanmean(corr_random) + 0.5
    assert np.nanmean(faith_plus(model, X_explain, A_exact, **kw)) > \
        np.nanmean(faith_plus(model, X_explain, A_random, **kw))


def test_linear_closed_form_reference(sim):
    """The metrics' reference on simulated data equals an independent
    enumeration of the observational Shapley values of a linear model, with
    v_x(S) = w' E[X | X_S = x_S] + b from the Gaussian conditional mean
    formula."""
    from itertools import combinations
    from math import comb

    X, y, dist = sim.data, sim.target, sim.distribution
    model = LinearRegression().fit(X, y)
    w, mu, S = model.coef_, dist.mean, dist.cov
    d = X.shape[1]

    def value(x, keep):
        k = np.flatnonzero(keep)
        u = np.flatnonzero(~keep)
        z = np.array(mu, dtype=float)
        z[k] = x[k]
        if k.size and u.size:
            z[u] = mu[u] + S[np.ix_(u, k)] @ np.linalg.solve(S[np.ix_(k, k)], x[k] - mu[k])
        return z @ w

    x = X[0]
    phi = np.zeros(d)
    for j in range(d):
        others = [i for i in range(d) if i != j]
        for size in range(d):
            for subset in combinations(others, size):
                keep = np.zeros(d, dtype=bool)
                keep[list(subset)] = True
                with_j = keep.copy()
                with_j[j] = True
                phi[j] += (value(x, with_j) - value(x, keep)) / (d * comb(d - 1, size))
    np.testing.assert_allclose(exact_shapley_reference(model, X[:1], distribution=dist),
                               phi[None], atol=1e-9)
    assert shapley_corr(model, X[:1], phi[None], distribution=dist)[0] == \
        pytest.approx(1.0, abs=1e-9)


def test_run_benchmark_on_simulated_data():
    cond = {"name": "ConditionalMasker",
            "params": {"distribution": "@distribution", "n_draws": 20}}
    benchmark = {
        "datasets": {"copy": {"name": _copy, "params": {"n_samples": 300}}},
        "models": ["linear_regression"],
        "explainers": {"random": "RandomExplainer",
                       "exact": {"name": "ExactShapley", "params": {"masker": cond}}},
        "metrics": ["shapley_corr", {"name": "faith_minus", "params": {"n_draws": 20}}],
        "seeds": [0],
        "n_explain": 15,
    }
    results = run_benchmark(benchmark, n_jobs=1)
    table = results.table.set_index(["explainer", "metric"])["value"]
    assert (results.table["status"] == "ok").all()
    # 20 conditional draws per coalition on 15 rows: seeds 0-4 give
    # correlations 0.93-0.99 (the reference itself is Monte Carlo).
    assert table["exact", "shapley_corr"] > 0.9
    assert table["exact", "shapley_corr"] > table["random", "shapley_corr"] + 0.5
    assert table["exact", "faith_minus"] > table["random", "faith_minus"]
