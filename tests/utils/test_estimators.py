"""Unwrapping FrozenEstimator and Pipeline (sklearn_xai.utils._estimators)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import LinearSVC

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.utils import explained_output
from sklearn_xai.utils._estimators import is_frozen, transform_steps, unfreeze, unwrap


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    X = rng.randn(40, 3) * [1.0, 2.0, 3.0] + [1.0, -1.0, 0.5]
    return X, X @ [1.0, -2.0, 0.5]


class FrozenEstimatorLookalike(BaseEstimator):
    """A class whose *name* is not FrozenEstimator but that wraps an estimator."""

    def __init__(self, estimator=None):
        self.estimator = estimator


def test_is_frozen_by_type_not_by_name():
    model = LinearRegression()
    assert is_frozen(FrozenEstimator(model))
    assert not is_frozen(model)
    assert not is_frozen(FrozenEstimatorLookalike(model))
    FakeFrozen = type("FrozenEstimator", (BaseEstimator,), {})
    assert not is_frozen(FakeFrozen())


def test_unfreeze_nested_but_not_pipelines(data):
    X, y = data
    model = LinearRegression().fit(X, y)
    assert unfreeze(model) is model
    assert unfreeze(FrozenEstimator(FrozenEstimator(model))) is model
    pipe = make_pipeline(StandardScaler(), LinearRegression())
    assert unfreeze(FrozenEstimator(pipe)) is pipe


def test_unwrap_plain_frozen_and_pipelines(data):
    X, y = data
    model = LinearRegression().fit(X, y)
    assert unwrap(model) == (None, model)
    assert unwrap(FrozenEstimator(model)) == (None, model)
    # A Pipeline whose only other steps are passthrough has no preprocessing.
    assert unwrap(Pipeline([("skip", "passthrough"), ("m", model)])) == (None, model)

    scaler, minmax = StandardScaler().fit(X), MinMaxScaler().fit(X)
    inner = Pipeline([("minmax", FrozenEstimator(minmax)), ("none", None),
                      ("m", FrozenEstimator(model))])
    outer = FrozenEstimator(Pipeline([("scaler", scaler), ("inner", inner)]))
    steps, final = unwrap(outer)
    assert final is model
    # Steps of every nested Pipeline, in order, unfrozen, None dropped.
    assert steps == [("scaler", scaler), ("minmax", minmax)]
    np.testing.assert_allclose(transform_steps(steps, X),
                               minmax.transform(scaler.transform(X)))
    assert transform_steps(None, X) is X


def test_missing_predict_proba_error_names_the_model_not_its_wrapper(data):
    # issue #13 item 8: the error named FrozenEstimator instead of LinearSVC.
    X, _ = data
    y = (X[:, 0] > 1.0).astype(int)
    svc = LinearSVC().fit(X, y)
    frozen = FrozenEstimator(svc)
    for kwargs in ({}, {"output": "proba"}):
        with pytest.raises(ValueError, match="^LinearSVC has no predict_proba"):
            FeatureAblation(frozen, **kwargs).fit(X).transform(X[:2])
        with pytest.raises(ValueError, match="^LinearSVC has no predict_proba"):
            explained_output(frozen, **kwargs)
    pipe = FrozenEstimator(make_pipeline(StandardScaler(), LinearSVC()).fit(X, y))
    with pytest.raises(ValueError, match="^LinearSVC has no predict_proba"):
        explained_output(pipe)
    # output="decision" works on the same frozen model.
    A = FeatureAblation(frozen, output="decision").fit(X).transform(X[:2])
    assert A.shape == (2, 3)


def test_regressor_with_class_output_error_names_the_model(data):
    X, y = data
    frozen = FrozenEstimator(LinearRegression().fit(X, y))
    with pytest.raises(ValueError, match="LinearRegression is not one"):
        explained_output(frozen, output="proba")
