"""The removal-correlation metrics build their coalitions block by block.

Memory does not grow with the rows beyond (n, d) and (n, n_coalitions)
arrays, and the values in many small blocks equal direct per-row
computations: BEExAI's pooled correlation rebuilt from its subsets, a
row's score computed alone, and the closed form of a linear model.
"""

import tracemalloc

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from sklearn_xai.metrics import (
    faithfulness_correlation,
    faithfulness_estimate,
    monotonicity_correlation,
    sensitivity_n,
)

METRICS = {
    "faithfulness_correlation": lambda m, X, A, **kw: faithfulness_correlation(
        m, X, A, random_state=0, **kw),
    "sensitivity_n": lambda m, X, A, **kw: sensitivity_n(m, X, A, n_subsets=20,
                                                         random_state=0, **kw),
    "faithfulness_estimate": lambda m, X, A, **kw: faithfulness_estimate(m, X, A, **kw),
    "monotonicity_correlation": lambda m, X, A, **kw: monotonicity_correlation(
        m, X, A, **kw),
}


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    d = 10
    X = rng.normal(size=(4000, d))
    model = LinearRegression().fit(X, X @ rng.normal(size=d))
    return X, model


def _peak_bytes(func):
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", list(METRICS))
def test_peak_memory_grows_by_the_row_arrays_only(linear, name):
    """From 400 to 4000 rows: the (n, d) and (n, n_coalitions) arrays grow
    (a few float64 copies of each), not the (n, n_coalitions, d) masks and
    model inputs (d times larger: 10 features, 10 to 160 coalitions)."""
    X, model = linear
    A = np.random.default_rng(1).normal(size=X.shape)
    metric = METRICS[name]
    metric(model, X[:50], A[:50])  # warm caches
    # Model calls of at most 210 rows: blocks of a few dozen rows at most.
    small = _peak_bytes(lambda: metric(model, X[:400], A[:400], batch_size=210))
    large = _peak_bytes(lambda: metric(model, X, A, batch_size=210))
    n_coalitions = {"faithfulness_correlation": 20, "sensitivity_n": 160}.get(name, 10)
    assert large - small < 3600 * 8 * 8 * (X.shape[1] + n_coalitions)


@pytest.mark.parametrize("name", list(METRICS))
def test_scores_in_small_blocks_equal_each_row_alone(linear, name):
    X, model = linear
    X = X[:120]
    A = np.random.default_rng(2).normal(size=X.shape)
    metric = METRICS[name]
    scores = metric(model, X, A, batch_size=50)  # blocks of a few rows
    for i in (0, 61, 119):
        np.testing.assert_allclose(scores[i], metric(model, X[i:i + 1], A[i:i + 1])[0],
                                   rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", list(METRICS))
def test_exact_attributions_score_one_in_small_blocks(linear, name):
    """Zero baseline, coef * x: every subset's attribution mass is its exact
    output drop (monotonicity: |a_i| orders the squared drops)."""
    X, model = linear
    X = X[:300]
    scores = METRICS[name](model, X, model.coef_ * X, batch_size=40)
    np.testing.assert_allclose(scores, 1.0, rtol=0, atol=1e-12)


def test_beexai_pooled_correlation_from_its_subsets(linear):
    """BEExAI's convention draws one set of subsets from the seed: the
    pooled correlation rebuilt row by row from them (zero baseline)."""
    X, model = linear
    X = X[:200]
    A = np.random.default_rng(3).normal(size=X.shape)
    R, s, d = 20, 2, X.shape[1]
    got = faithfulness_correlation(model, X, A, n_subsets=R, subset_size=s,
                                   convention="beexai_code", absolute=False,
                                   random_state=7, batch_size=30)
    idx = np.random.default_rng(7).integers(0, d, size=(R, s))
    mass, drop = [], []
    for x, a in zip(X, A):
        fx = model.predict(x[None])[0]
        for r in range(R):
            z = x.copy()
            z[idx[r]] = 0.0
            mass.append(a[idx[r]].mean())
            drop.append(fx - model.predict(z[None])[0])
    np.testing.assert_allclose(got, np.corrcoef(mass, drop)[0, 1], rtol=1e-10)
