"""Tests of TreeContributions."""

import numpy as np
import pytest
import xgboost as xgb
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.explainers._shapley import ExactShapley
from sklearn_xai.explainers._tree import TreeContributions
from sklearn_xai.masking import MarginalMasker


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    return X


def _margin(booster, X):
    return booster.predict(xgb.DMatrix(X), output_margin=True)


def test_regression_sums_to_margin_and_matches_xgboost(data):
    X = data
    y = 2 * X[:, 0] - X[:, 1] * X[:, 2]
    model = xgb.XGBRegressor(n_estimators=30, max_depth=3).fit(X, y)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    A = ex.transform(X[:20])
    assert A.dtype == np.float64 and A.shape == (20, 4)
    booster = model.get_booster()
    np.testing.assert_allclose(A.sum(axis=1), _margin(booster, X[:20]) - ex.expected_value_,
                               atol=1e-4)
    raw = booster.predict(xgb.DMatrix(X[:20]), pred_contribs=True)
    np.testing.assert_allclose(A, raw[:, :-1], rtol=1e-6)
    assert ex.expected_value_ == pytest.approx(float(raw[0, -1]))


def test_additive_stumps_equal_interventional_shapley(data):
    # Depth-1 trees split on one feature each, so the model is additive and
    # TreeSHAP's cover-weighted expectation is the training mean:
    # contributions = interventional Shapley values with the training rows as
    # background.
    X = data
    y = np.sin(X[:, 0]) + X[:, 1] ** 2 - X[:, 3]
    model = xgb.XGBRegressor(n_estimators=40, max_depth=1, subsample=1.0).fit(X, y)
    tree = TreeContributions(FrozenEstimator(model)).fit(X).transform(X[:15])
    exact = ExactShapley(FrozenEstimator(model), masker=MarginalMasker(background=X))
    np.testing.assert_allclose(tree, exact.fit(X).transform(X[:15]), atol=1e-4)


def test_binary_classifier_margin_and_class_sign(data):
    X = data
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = xgb.XGBClassifier(n_estimators=20, max_depth=2).fit(X, y)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    rows = X[:30]
    margin = _margin(model.get_booster(), rows)
    A1 = ex.explain(rows, target=1)
    np.testing.assert_allclose(A1.sum(axis=1), margin - ex.expected_value_, atol=1e-4)
    np.testing.assert_allclose(ex.explain(rows, target=0), -A1)
    # "predicted": the sign of the margin picks the class.
    pred = ex.transform(rows)
    np.testing.assert_allclose(pred, np.where((margin > 0)[:, None], A1, -A1))
    assert np.all(ex.classes_ == [0, 1])


def test_multiclass_picks_target_column(data):
    X = data
    y = np.digitize(X[:, 0] - X[:, 2], [-0.7, 0.7])
    model = xgb.XGBClassifier(n_estimators=15, max_depth=2).fit(X, y)
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    rows = X[:25]
    margin = _margin(model.get_booster(), rows)
    assert ex.expected_value_.shape == (3,)
    c = margin.argmax(axis=1)
    A = ex.transform(rows)
    np.testing.assert_allclose(A.sum(axis=1),
                               margin[np.arange(25), c] - ex.expected_value_[c], atol=1e-4)
    A2 = ex.explain(rows, target=2)
    np.testing.assert_allclose(A2.sum(axis=1), margin[:, 2] - ex.expected_value_[2],
                               atol=1e-4)
    # Labels per row (true labels, as XAI-TRIS explains).
    A3 = ex.explain(rows, target=y[:25])
    np.testing.assert_allclose(A3.sum(axis=1),
                               margin[np.arange(25), y[:25]] - ex.expected_value_[y[:25]],
                               atol=1e-4)


def test_unfitted_model_is_trained_and_booster_accepted(data):
    X = data
    y = X[:, 0] * 3
    ex = TreeContributions(xgb.XGBRegressor(n_estimators=10)).fit(X, y)
    booster = ex.estimator_.get_booster()
    from_booster = TreeContributions(booster).fit(X)
    np.testing.assert_allclose(from_booster.transform(X[:5]), ex.transform(X[:5]))
    assert from_booster.classes_ is None
    clf = xgb.XGBClassifier(n_estimators=5).fit(X, np.digitize(X[:, 1], [-0.5, 0.5]))
    raw = TreeContributions(clf.get_booster()).fit(X)
    np.testing.assert_array_equal(raw.classes_, [0, 1, 2])


def test_pipeline_with_scaler(data):
    X = data
    y = X[:, 0] - X[:, 3]
    pipe = make_pipeline(StandardScaler(), xgb.XGBRegressor(n_estimators=10)).fit(X, y)
    ex = TreeContributions(FrozenEstimator(pipe)).fit(X)
    A = ex.transform(X[:10])
    np.testing.assert_allclose(A.sum(axis=1) + ex.expected_value_, pipe.predict(X[:10]),
                               atol=1e-4)


def test_saabas_approximation_also_sums_to_margin(data):
    X = data
    y = X[:, 0] * X[:, 1]
    model = xgb.XGBRegressor(n_estimators=10, max_depth=3).fit(X, y)
    exact = TreeContributions(FrozenEstimator(model)).fit(X).transform(X[:10])
    approx = TreeContributions(FrozenEstimator(model), approx=True).fit(X).transform(X[:10])
    np.testing.assert_allclose(approx.sum(axis=1), exact.sum(axis=1), atol=1e-4)
    assert not np.allclose(approx, exact)


@pytest.mark.parametrize("model", [LinearRegression(), KNeighborsRegressor()])
def test_non_tree_models_are_refused(model, data):
    X = data
    with pytest.raises(TypeError, match="KernelSHAP"):
        TreeContributions(model).fit(X, X[:, 0])
    with pytest.raises(TypeError, match="xgboost"):
        TreeContributions(make_pipeline(StandardScaler(), model)).fit(X, X[:, 0])


def test_invalid_parameters(data):
    X = data
    with pytest.raises(ValueError, match="output"):
        TreeContributions(xgb.XGBRegressor(), output="proba").fit(X, X[:, 0])
    with pytest.raises(ValueError, match="estimator"):
        TreeContributions().fit(X)
    ex = TreeContributions(xgb.XGBClassifier(n_estimators=3)).fit(X, (X[:, 0] > 0).astype(int))
    with pytest.raises(ValueError, match="target"):
        ex.explain(X[:3], target=5)
    with pytest.raises(ValueError, match="features"):
        ex.transform(X[:3, :2])


@pytest.mark.parametrize("case, match", [
    ("short_y", r"y has 299 target\(s\) but X has 300 rows"),
    ("nan_y", "y contains NaN"),
    ("string_X", "X has dtype <U"),
])
def test_training_data_is_validated_before_xgboost_sees_it(data, case, match):
    """xgboost's C++ core would reject these with an ``XGBoostError`` and a
    stack trace; the error names the parameter and the fix instead."""
    X = data
    y = X[:, 0].copy()
    if case == "short_y":
        y = y[:-1]
    elif case == "nan_y":
        y[3] = np.nan
    else:
        X = X.astype(str)
    with pytest.raises(ValueError, match=match):
        TreeContributions(xgb.XGBRegressor(n_estimators=2)).fit(X, y)
