"""Methods that do not apply to a model say so with NotApplicableError, a
TypeError the benchmark runner reports as a skip."""

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from xgboost import XGBRegressor

from sklearn_xai.explainers import FeatureAblation, TreeContributions
from sklearn_xai.metrics import consistency, mprt, relative_representation_stability
from sklearn_xai.models import randomise_model
from sklearn_xai.utils import NotApplicableError

rng = np.random.default_rng(0)
X = rng.normal(size=(40, 3))
y = X @ [1.0, 2.0, -1.0]


def test_is_a_type_error():
    assert issubclass(NotApplicableError, TypeError)


def test_raised_where_the_model_lacks_what_the_method_needs():
    linear = LinearRegression().fit(X, y)
    booster = XGBRegressor(n_estimators=3, max_depth=2).fit(X, y)
    with pytest.raises(NotApplicableError, match="needs a tree model"):
        TreeContributions(linear).fit(X)
    hist = HistGradientBoostingRegressor(max_iter=3).fit(X, y)
    with pytest.raises(NotApplicableError, match="Cannot randomise"):
        randomise_model(hist, random_state=0)
    explainer = FeatureAblation(FrozenEstimator(hist)).fit(X)
    A = explainer.transform(X[:4])
    with pytest.raises(NotApplicableError, match="Cannot randomise"):
        mprt(hist, X[:4], A, explainer=explainer, random_state=0)
    explainer = FeatureAblation(FrozenEstimator(booster)).fit(X)
    with pytest.raises(NotApplicableError, match="internal representation"):
        relative_representation_stability(booster, X[:4], A, explainer=explainer,
                                          random_state=0)
    with pytest.raises(NotApplicableError, match="compares predicted classes"):
        consistency(linear, X[:4], A)
