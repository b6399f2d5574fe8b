"""KernelSHAP explains its rows in blocks bounded by memory.

A row's attributions do not depend on its block (its coalitions come from
its own stream, its regression is its own), the values in blocks are the
exact Shapley values where the budget enumerates every coalition (checked
against a direct enumeration), the model rows evaluated do not depend on the
blocks, and the peak memory does not grow with the number of rows beyond
the ``(n, d)`` inputs and outputs.
"""

import itertools
import math
import tracemalloc

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, PoissonRegressor

from sklearn_xai import config_context
from sklearn_xai.explainers import KernelSHAP
from sklearn_xai.masking import BaselineMasker, MarginalMasker

# Small enough that a block holds one to three rows of the settings below
# (about 100 kB a row with shap's 4 draws per unit, which a row must fit;
# blocks count the first draws only), large enough for one row.
TINY_LIMIT = 200_000


class _RowWise(RegressorMixin, BaseEstimator):
    """A non-additive model computed row by row without BLAS (each row's
    prediction is bit-identical whatever the batch); counts its calls."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        self.calls_ = []
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=np.float64)
        self.calls_.append(len(X))
        return np.tanh(X).sum(axis=1) + X[:, 0] * X[:, 1]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 12))
    return X, X @ rng.normal(size=12)


@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("model", ["linear", "rowwise"])
def test_a_row_alone_equals_the_row_in_tiny_blocks(data, model, paired):
    X, y = data
    estimator = (LinearRegression().fit(X, y) if model == "linear"
                 else _RowWise().fit(X, y))
    ex = KernelSHAP(FrozenEstimator(estimator), n_perturbations=200, paired=paired,
                    masker=MarginalMasker(background=X[:5]), random_state=0).fit(X)
    with config_context(max_allocation_bytes=TINY_LIMIT):
        if model == "rowwise":
            estimator.calls_.clear()
        tiny = ex.transform(X)
        if model == "rowwise":  # one block (and model call) per 1 to 3 rows
            assert len(estimator.calls_) >= 100
    np.testing.assert_array_equal(ex.transform(X), tiny)
    for i in (0, 1, 150, 299):
        np.testing.assert_array_equal(ex.transform(X[i:i + 1])[0], tiny[i])
    np.testing.assert_array_equal(ex.transform(X[::-1])[::-1], tiny)


def _brute_force_shapley(predict, x):
    """phi_j = sum_{S without j} |S|! (d - |S| - 1)! / d! (v(S + j) - v(S)),
    v(S) = f(x with the features outside S set to 0)."""
    d = len(x)
    phi = np.zeros(d)
    for j in range(d):
        others = [k for k in range(d) if k != j]
        for size in range(d):
            weight = math.factorial(size) * math.factorial(d - size - 1) / math.factorial(d)
            for S in itertools.combinations(others, size):
                keep = np.zeros(d, dtype=bool)
                keep[list(S)] = True
                without = np.where(keep, x, 0.0)
                keep[j] = True
                with_j = np.where(keep, x, 0.0)
                phi[j] += weight * (predict(with_j[None])[0] - predict(without[None])[0])
    return phi


def test_blocks_give_the_exact_shapley_values():
    """A budget covering every coalition gives the Shapley values, block
    by block: against a direct enumeration (a non-additive model) and the
    closed form ``coef * x`` (a linear model, zero baseline)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 5))
    y = X @ [1.0, -2.0, 0.5, 3.0, 0.0] + 1.0
    model = _RowWise().fit(X, y)
    linear = LinearRegression().fit(X, y)
    with config_context(max_allocation_bytes=5_000):  # blocks of 2 rows (2 kB each)
        phi = KernelSHAP(FrozenEstimator(model), n_perturbations=100,
                         masker=BaselineMasker("zero")).fit(X).transform(X)
        phi_lin = KernelSHAP(FrozenEstimator(linear), n_perturbations=100,
                             masker=BaselineMasker("zero")).fit(X).transform(X)
    for i in (0, 13, 39):
        np.testing.assert_allclose(phi[i], _brute_force_shapley(model.predict, X[i]),
                                   rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(phi_lin, linear.coef_ * X, rtol=1e-10, atol=1e-12)


def test_model_rows_do_not_depend_on_the_blocks(data):
    """n * (n_perturbations + 2) coalitions of a deterministic masker, plus
    the one affine probe of a model with coefficients (a GLM, not affine):
    the same rows whatever the blocks, not one probe per block."""
    X, y = data
    glm = PoissonRegressor().fit(X, np.exp(y / 10))
    ex = KernelSHAP(FrozenEstimator(glm), n_perturbations=200,
                    masker=BaselineMasker("zero"), random_state=0).fit(X)
    A, n_eval = ex.explain(X[:64], return_n_evaluations=True)
    with config_context(max_allocation_bytes=TINY_LIMIT):
        A_tiny, n_eval_tiny = ex.explain(X[:64], return_n_evaluations=True)
    probe = 2 * 16  # the first 16 rows and a shifted copy of them
    assert n_eval == n_eval_tiny == 64 * 202 + probe
    np.testing.assert_allclose(A_tiny, A, rtol=1e-12, atol=1e-14)


def _peak_bytes(explainer, X):
    tracemalloc.start()
    try:
        explainer.transform(X)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_peak_memory_does_not_grow_with_the_rows():
    """From 500 to 5000 rows the peak grows by the (n, d) arrays only
    (input checks, row keys, attributions: 0.36 MB each here), not by the
    coalitions and their model inputs (about 10 kB a row, 45 MB)."""
    rng = np.random.default_rng(2)
    d = 10
    X = rng.normal(size=(5000, d))
    model = LinearRegression().fit(X, X @ rng.normal(size=d))
    ex = KernelSHAP(FrozenEstimator(model), n_perturbations=64,
                    masker=BaselineMasker("zero"), random_state=0).fit(X)
    ex.transform(X[:20])  # warm caches
    small, large = _peak_bytes(ex, X[:500]), _peak_bytes(ex, X)
    assert large - small < 4 * 2**20
