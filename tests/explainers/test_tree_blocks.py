"""TreeSHAP's code paths agree: pattern tables and direct computation,
distinct (pattern, leaf) cells, any block sizes, leaves with more than 8
features (masks of several bytes).

References are computed independently: shap's TreeExplainer (path-dependent,
when shap is installed) and ExactShapley with a MarginalMasker
(interventional, brute force over all coalitions).
"""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.tree import DecisionTreeRegressor

from sklearn_xai.explainers import ExactShapley, TreeContributions
from sklearn_xai.explainers import _treeshap
from sklearn_xai.masking import MarginalMasker

D = 10


@pytest.fixture(scope="module")
def deep():
    """A deep tree on 10 features: leaves of every path length 1..10."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, D))
    y = np.sin(3 * X).sum(axis=1) + X[:, 0] * X[:, 1] + 0.1 * rng.normal(size=600)
    model = DecisionTreeRegressor(max_depth=14, min_samples_leaf=2,
                                  random_state=0).fit(X, y)
    return X, model


def _explainer(model, X, **kwargs):
    return TreeContributions(FrozenEstimator(model), **kwargs).fit(X)


def test_deep_tree_has_long_and_short_paths(deep):
    X, model = deep
    lengths = {chunk.L for chunk in _treeshap.sklearn_tree_ensemble(model, D).chunks}
    assert min(lengths) <= 3 and max(lengths) >= 9


def test_path_dependent_equals_shap_with_tables_and_direct(deep):
    shap = pytest.importorskip("shap")
    X, model = deep
    ex = _explainer(model, X)
    rows = X[:300]          # chunks with 2^L <= 300 are tabulated
    expected = shap.TreeExplainer(model).shap_values(rows)
    np.testing.assert_allclose(ex.transform(rows), expected, atol=1e-10)
    # One row at a time: no table.
    alone = np.vstack([ex.transform(rows[i:i + 1]) for i in range(3)])
    np.testing.assert_allclose(alone, expected[:3], atol=1e-10)


@pytest.mark.parametrize("pattern_bits", [56, 0])
def test_interventional_equals_exact_shapley(deep, pattern_bits, monkeypatch):
    # pattern_bits=0: every (row, leaf) its own cell, as for paths longer
    # than an int64 key holds.
    monkeypatch.setattr(_treeshap, "_MAX_PATTERN_BITS", pattern_bits)
    X, model = deep
    background = X[-6:]
    ex = _explainer(model, X, feature_perturbation="interventional",
                    background=background)
    exact = ExactShapley(FrozenEstimator(model),
                         masker=MarginalMasker(background=background)).fit(X)
    rows = X[:3]
    expected = exact.transform(rows)
    # 3 rows share few (pattern, leaf) cells, 300 rows many.
    np.testing.assert_allclose(ex.transform(rows), expected, atol=1e-10)
    np.testing.assert_allclose(ex.transform(X[:300])[:3], expected, atol=1e-10)


@pytest.mark.parametrize("variant", ["tree_path_dependent", "interventional"])
def test_blocks_and_chunks_do_not_change_the_values(deep, variant, monkeypatch):
    X, model = deep
    rows = X[:40]
    kwargs = {"feature_perturbation": variant, "background": X[-7:]}
    reference = _explainer(model, X, **kwargs).transform(rows)
    # Tiny chunks of leaves, blocks of rows and of background rows.
    monkeypatch.setattr(_treeshap, "_CHUNK_ENTRIES", 50)
    monkeypatch.setattr(_treeshap, "_BLOCK_ENTRIES", 300)
    monkeypatch.setattr(_treeshap, "_BYTE_ENTRIES", 300)
    ex = _explainer(model, X, **kwargs)
    assert len(ex._ensemble.chunks) > 20
    np.testing.assert_allclose(ex.transform(rows), reference, atol=1e-12)
