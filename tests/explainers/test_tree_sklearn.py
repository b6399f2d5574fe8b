"""TreeContributions on scikit-learn's tree models, LightGBM and CatBoost.

The oracle is written here, independently of sklearn_xai's flattening of the
trees: the path-dependent value function ``v(S)`` by a recursive walk of the
fitted trees (follow the row's branch at a split on a feature of ``S``, else
average both children weighted by their cover), and exact Shapley values by
enumerating every subset.
"""

from itertools import combinations
from math import factorial

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.frozen import FrozenEstimator
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_xai.explainers import ExactShapley, TreeContributions
from sklearn_xai.masking import MarginalMasker

D = 5


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, D))
    y = X[:, 0] + X[:, 1] * X[:, 2] - 0.5 * X[:, 3]
    return X, y, (y > 0).astype(int), np.digitize(y, [-0.6, 0.6])


# ------------------------------------------------------------------ oracle
def _sklearn_walk(tree, x, S, node=0):
    """v(S) of one scikit-learn tree, (n_classes,) or (1,)."""
    t = tree.tree_
    left, right = t.children_left[node], t.children_right[node]
    if left < 0:
        value = t.value[node, 0]
        return value / value.sum() if hasattr(tree, "classes_") else value
    f = t.feature[node]
    if f in S:
        xf = np.float32(x[f])  # scikit-learn's trees compare float32 inputs
        go_left = t.missing_go_to_left[node] if np.isnan(xf) else xf <= t.threshold[node]
        return _sklearn_walk(tree, x, S, left if go_left else right)
    wl, wr = t.weighted_n_node_samples[left], t.weighted_n_node_samples[right]
    return (wl * _sklearn_walk(tree, x, S, left)
            + wr * _sklearn_walk(tree, x, S, right)) / (wl + wr)


def _hgb_walk(predictor, x, S, node=0):
    """v(S) of one HistGradientBoosting predictor (identity column order)."""
    nd = predictor.nodes[node]
    if nd["is_leaf"]:
        return nd["value"]
    left, right = nd["left"], nd["right"]
    f = nd["feature_idx"]
    if f in S:
        xf = x[f]
        if np.isnan(xf):
            go_left = nd["missing_go_to_left"]
        elif nd["is_categorical"]:
            words = predictor.raw_left_cat_bitsets[nd["bitset_idx"]]
            code = int(xf)
            go_left = bool((int(words[code // 32]) >> (code % 32)) & 1)
        else:
            go_left = xf <= nd["num_threshold"]
        return _hgb_walk(predictor, x, S, left if go_left else right)
    nodes = predictor.nodes
    wl, wr = float(nodes[left]["count"]), float(nodes[right]["count"])
    return (wl * _hgb_walk(predictor, x, S, left)
            + wr * _hgb_walk(predictor, x, S, right)) / (wl + wr)


def _value_function(model, x, S):
    """The model's additive output under path-dependent removal, (n_outputs,)."""
    name = type(model).__name__
    if name.startswith("HistGradientBoosting"):
        K = model.n_trees_per_iteration_
        out = np.asarray(model._baseline_prediction, dtype=float).ravel().copy()
        for iteration in model._predictors:
            for k in range(K):
                out[k] += _hgb_walk(iteration[k], x, S)
        return out
    if name.startswith("GradientBoosting"):
        out = np.asarray(model._raw_predict_init(x[None].astype(np.float32)),
                         dtype=float)[0].copy()
        for row in model.estimators_:
            for k, tree in enumerate(row):
                out[k] += model.learning_rate * _sklearn_walk(tree, x, S)[0]
        return out
    trees = getattr(model, "estimators_", [model])
    return np.mean([_sklearn_walk(tree, x, S) for tree in trees], axis=0)


def _brute_force(model, x):
    """Exact Shapley values of v by enumeration, (d, n_outputs), and v(empty)."""
    d = len(x)
    v = {S: _value_function(model, x, set(S))
         for r in range(d + 1) for S in combinations(range(d), r)}
    phi = np.zeros((d, len(v[()])))
    for i in range(d):
        others = [j for j in range(d) if j != i]
        for r in range(d):
            w = factorial(r) * factorial(d - r - 1) / factorial(d)
            for S in combinations(others, r):
                phi[i] += w * (v[tuple(sorted(S + (i,)))] - v[S])
    return phi, v[()]


def _model_output(model, X):
    """The explained output per class straight from the model, (n, n_outputs)."""
    if hasattr(model, "decision_function"):
        out = model.decision_function(X)
    elif hasattr(model, "predict_proba"):
        out = model.predict_proba(X)
    else:
        out = model.predict(X)
    return np.asarray(out, dtype=float).reshape(len(X), -1)


MODELS = {
    "tree_reg": (DecisionTreeRegressor(max_depth=4, random_state=0), "y"),
    "tree_clf": (DecisionTreeClassifier(max_depth=4, random_state=0), "y3"),
    "forest_reg": (RandomForestRegressor(5, max_depth=4, random_state=0), "y"),
    "forest_clf": (RandomForestClassifier(5, max_depth=4, random_state=0), "y3"),
    "extra_reg": (ExtraTreesRegressor(5, max_depth=4, random_state=0), "y"),
    "extra_clf": (ExtraTreesClassifier(5, max_depth=3, random_state=0), "y2"),
    "gb_reg": (GradientBoostingRegressor(n_estimators=5, max_depth=3, random_state=0), "y"),
    "gb_binary": (GradientBoostingClassifier(n_estimators=5, max_depth=3, random_state=0),
                  "y2"),
    "gb_multi": (GradientBoostingClassifier(n_estimators=4, max_depth=3, random_state=0),
                 "y3"),
    "hgb_reg": (HistGradientBoostingRegressor(max_iter=5, max_depth=4), "y"),
    "hgb_binary": (HistGradientBoostingClassifier(max_iter=5, max_depth=3), "y2"),
    "hgb_multi": (HistGradientBoostingClassifier(max_iter=4, max_depth=3), "y3"),
}


_FITTED = {}


def _fitted(name, data):
    """The model of ``MODELS[name]`` fitted once for the module (same data)."""
    if name not in _FITTED:
        X, y, y2, y3 = data
        model, target = MODELS[name]
        _FITTED[name] = clone(model).fit(X, {"y": y, "y2": y2, "y3": y3}[target])
    return _FITTED[name]


def _per_class(ex, X, n_outputs):
    """Attributions of every output column (class), (n, d, n_outputs)."""
    if ex.classes_ is None:
        return ex.transform(X)[..., None]
    if n_outputs == 1:  # binary boosted: the margin of classes_[1]
        return ex.explain(X, target=1)[..., None]
    return np.stack([ex.explain(X, target=k) for k in range(n_outputs)], axis=2)


# ------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", list(MODELS))
def test_path_dependent_equals_brute_force_and_sums_to_output(name, data):
    X = data[0]
    model = _fitted(name, data)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    rows = X[:3]
    out = _model_output(model, rows)
    A = _per_class(ex, rows, out.shape[1])
    expected = np.atleast_1d(ex.expected_value_)
    for i, x in enumerate(rows):
        phi, v_empty = _brute_force(model, x)
        np.testing.assert_allclose(A[i], phi, atol=1e-10)
        np.testing.assert_allclose(expected, v_empty, atol=1e-10)
    # Efficiency against the model's own output.
    np.testing.assert_allclose(A.sum(axis=1) + expected, out, atol=1e-10)


def test_expected_value_is_the_cover_weighted_mean_leaf(data):
    X, y = data[0], data[1]
    forest = RandomForestRegressor(4, max_depth=3, random_state=0).fit(X, y)
    ex = TreeContributions(FrozenEstimator(forest)).fit(X)
    means = []
    for tree in forest.estimators_:
        t = tree.tree_
        leaf = t.children_left < 0
        w = t.weighted_n_node_samples[leaf]
        means.append((w * t.value[leaf, 0, 0]).sum() / t.weighted_n_node_samples[0])
    assert ex.expected_value_ == pytest.approx(np.mean(means), abs=1e-12)


def test_classifier_targets(data):
    X, _, y2, y3 = data
    # Binary boosted: class 0 is the negated margin; "predicted" by its sign.
    gb = _fitted("gb_binary", data)
    ex = TreeContributions(FrozenEstimator(gb)).fit(X)
    rows = X[:20]
    A1 = ex.explain(rows, target=1)
    np.testing.assert_allclose(ex.explain(rows, target=0), -A1)
    margin = gb.decision_function(rows)
    np.testing.assert_allclose(ex.transform(rows),
                               np.where((margin > 0)[:, None], A1, -A1))
    # Forest: the probability of the explained class, per-row labels.
    rf = _fitted("forest_clf", data)
    ex = TreeContributions(FrozenEstimator(rf), output="proba").fit(X)
    proba = rf.predict_proba(rows)
    A = ex.explain(rows, target=y3[:20])
    np.testing.assert_allclose(
        A.sum(axis=1) + ex.expected_value_[y3[:20]],
        proba[np.arange(20), y3[:20]], atol=1e-12)
    pred = proba.argmax(axis=1)
    np.testing.assert_allclose(ex.transform(rows), ex.explain(rows, target=pred))


def test_rows_do_not_depend_on_the_batch(data):
    X = data[0]
    for name in ("forest_clf", "hgb_multi"):
        ex = TreeContributions(FrozenEstimator(_fitted(name, data)), target=1).fit(X)
        together = ex.transform(X[:12])
        alone = np.vstack([ex.transform(X[i:i + 1]) for i in range(12)])
        np.testing.assert_allclose(together, alone, atol=1e-12)


def test_hist_gradient_boosting_missing_values(data):
    X, y = data[0].copy(), data[1]
    rng = np.random.default_rng(1)
    X[rng.random(X.shape) < 0.2] = np.nan
    model = HistGradientBoostingRegressor(max_iter=5, max_depth=4).fit(X, y)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    rows = X[:20]
    assert np.isnan(rows).any()
    A = ex.transform(rows)
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_, model.predict(rows),
                               atol=1e-10)
    for i in np.flatnonzero(np.isnan(rows).any(axis=1))[:2]:
        phi, _ = _brute_force(model, rows[i])
        np.testing.assert_allclose(A[i], phi[:, 0], atol=1e-10)


def test_hist_gradient_boosting_categorical_splits(data):
    X, y = data[0].copy(), data[1]
    rng = np.random.default_rng(2)
    X[:, 0] = rng.integers(0, 6, size=len(X))  # codes 0..5 (encoded as themselves)
    y = y + np.isin(X[:, 0], [1, 4]) * 2.0
    model = HistGradientBoostingRegressor(max_iter=5, max_depth=3,
                                          categorical_features=[0]).fit(X, y)
    assert any(p[0].nodes["is_categorical"].any() for p in model._predictors)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    rows = X[:15]
    A = ex.transform(rows)
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_, model.predict(rows),
                               atol=1e-10)
    for i in range(2):
        phi, _ = _brute_force(model, rows[i])  # categorical column first: same order
        np.testing.assert_allclose(A[i], phi[:, 0], atol=1e-10)
    # A categorical column elsewhere: HistGradientBoosting encodes it first.
    Xp = X[:, [1, 2, 0, 3, 4]]
    model = HistGradientBoostingRegressor(max_iter=5, max_depth=3,
                                          categorical_features=[2]).fit(Xp, y)
    ex = TreeContributions(FrozenEstimator(model), feature_perturbation="interventional",
                           background=Xp[:8]).fit(Xp)
    exact = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=Xp[:8]))
    np.testing.assert_allclose(ex.transform(Xp[:6]), exact.fit(Xp).transform(Xp[:6]),
                               atol=1e-10)


@pytest.mark.parametrize("name, output, target", [
    ("forest_clf", "proba", 2), ("extra_reg", "auto", None), ("gb_binary", "margin", 1),
    ("gb_multi", "margin", 0), ("hgb_multi", "margin", 2), ("tree_reg", "auto", None),
])
def test_interventional_equals_exact_shapley_with_marginal_masker(name, output, target,
                                                                  data):
    X = data[0]
    model = _fitted(name, data)
    background = X[50:62]
    kwargs = {} if target is None else {"target": target}
    ex = TreeContributions(FrozenEstimator(model), feature_perturbation="interventional",
                           background=background, **kwargs).fit(X)
    exact = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=background),
                         output=output, **kwargs).fit(X)
    rows = X[:6]
    np.testing.assert_allclose(ex.transform(rows), exact.transform(rows), atol=1e-10)
    np.testing.assert_array_equal(ex.background_, background)
    out = _model_output(model, background).mean(axis=0)
    np.testing.assert_allclose(np.atleast_1d(ex.expected_value_), out, atol=1e-10)


def test_interventional_background_drawn_from_training_rows(data):
    X, y = data[0], data[1]
    model = _fitted("forest_reg", data)
    ex = TreeContributions(FrozenEstimator(model), feature_perturbation="interventional",
                           background=10, random_state=0).fit(X)
    assert ex.background_.shape == (10, D)
    assert all((X == row).all(axis=1).any() for row in ex.background_)
    A = ex.transform(X[:5])
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_, model.predict(X[:5]),
                               atol=1e-10)


def test_pipeline_and_unfitted_model(data):
    X, y = data[0], data[1]
    ex = TreeContributions(make_pipeline(StandardScaler(),
                                         RandomForestRegressor(3, max_depth=3))).fit(X, y)
    A = ex.transform(X[:5])
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_,
                               ex.estimator_.predict(X[:5]), atol=1e-10)


def test_refusals(data):
    X, y, y2, _ = data
    with pytest.raises(TypeError, match="RandomForest.*HistGradientBoosting.*LightGBM"):
        TreeContributions(KNeighborsRegressor()).fit(X, y)
    gb = _fitted("gb_binary", data)
    with pytest.raises(ValueError, match="output='margin'"):
        TreeContributions(FrozenEstimator(gb), output="proba").fit(X)
    with pytest.raises(ValueError, match="approx"):
        TreeContributions(FrozenEstimator(gb), approx=True).fit(X)
    with pytest.raises(ValueError, match="one output.*2 targets"):
        TreeContributions(RandomForestRegressor(2)).fit(X, np.c_[y, y])
    Xn = X[:5].copy()
    Xn[0, 0] = np.nan
    ex = TreeContributions(FrozenEstimator(gb)).fit(X)
    with pytest.raises(ValueError, match="missing values.*HistGradientBoosting"):
        ex.transform(Xn)
    with pytest.raises(ValueError, match="feature_perturbation"):
        TreeContributions(FrozenEstimator(gb), feature_perturbation="x").fit(X)
    with pytest.raises(ValueError, match="init=None"):
        TreeContributions(GradientBoostingRegressor(n_estimators=2,
                                                    init=KNeighborsRegressor())).fit(X, y)


# -------------------------------------------------- LightGBM and CatBoost
def test_lightgbm_contributions(data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, y2, y3 = data
    rows = X[:10]
    reg = lightgbm.LGBMRegressor(n_estimators=5, num_leaves=4, verbose=-1).fit(X, y)
    ex = TreeContributions(FrozenEstimator(reg)).fit(X)
    np.testing.assert_allclose(ex.transform(rows).sum(axis=1) + ex.expected_value_,
                               reg.predict(rows), atol=1e-8)
    booster = TreeContributions(reg.booster_).fit(X)
    np.testing.assert_allclose(booster.transform(rows), ex.transform(rows))
    clf = lightgbm.LGBMClassifier(n_estimators=5, num_leaves=4, verbose=-1).fit(X, y2)
    ex = TreeContributions(FrozenEstimator(clf)).fit(X)
    margin = clf.predict(rows, raw_score=True)
    A1 = ex.explain(rows, target=1)
    np.testing.assert_allclose(A1.sum(axis=1) + ex.expected_value_, margin, atol=1e-8)
    np.testing.assert_allclose(ex.explain(rows, target=0), -A1)
    multi = lightgbm.LGBMClassifier(n_estimators=5, num_leaves=4, verbose=-1).fit(X, y3)
    ex = TreeContributions(FrozenEstimator(multi)).fit(X)
    margin = multi.predict(rows, raw_score=True)
    A = ex.explain(rows, target=2)
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_[2], margin[:, 2],
                               atol=1e-8)


def test_catboost_contributions(data):
    catboost = pytest.importorskip("catboost")
    X, y, y2, y3 = data
    rows = X[:10]
    reg = catboost.CatBoostRegressor(iterations=5, depth=3, verbose=False,
                                     allow_writing_files=False, thread_count=1).fit(X, y)
    ex = TreeContributions(FrozenEstimator(reg)).fit(X)
    np.testing.assert_allclose(ex.transform(rows).sum(axis=1) + ex.expected_value_,
                               reg.predict(rows), atol=1e-8)
    clf = catboost.CatBoostClassifier(iterations=5, depth=3, verbose=False,
                                      allow_writing_files=False, thread_count=1).fit(X, y2)
    ex = TreeContributions(FrozenEstimator(clf)).fit(X)
    margin = clf.predict(rows, prediction_type="RawFormulaVal")
    A1 = ex.explain(rows, target=1)
    np.testing.assert_allclose(A1.sum(axis=1) + ex.expected_value_, margin, atol=1e-8)
    np.testing.assert_allclose(ex.explain(rows, target=0), -A1)
    multi = catboost.CatBoostClassifier(iterations=5, depth=3, verbose=False,
                                        allow_writing_files=False, thread_count=1).fit(X, y3)
    ex = TreeContributions(FrozenEstimator(multi)).fit(X)
    margin = multi.predict(rows, prediction_type="RawFormulaVal")
    A = ex.explain(rows, target=2)
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_[2], margin[:, 2],
                               atol=1e-8)
