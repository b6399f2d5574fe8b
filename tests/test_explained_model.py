import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.base import is_classifier, is_regressor
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import check_scoring, feature_agreement

MU = np.array([3.0, -2.0, 1.0, 0.0, 5.0])
W = np.array([1.0, -2.0, 3.0, 0.5, 0.1])


@pytest.fixture
def problem():
    rng = np.random.RandomState(0)
    X = rng.randn(200, 5) + MU
    y = X @ W
    G = W * (X - MU)  # exact Shapley values of the linear model
    return X, y, G, LinearRegression().fit(X, y)


GRID = {"explainer__masker": [BaselineMasker("zero"), BaselineMasker("mean")]}


def _hand_check(X, y, G, model, cv):
    """Mean fold FA@0.25 of each masker, computed by hand."""
    out = []
    for masker in GRID["explainer__masker"]:
        scores = []
        for train, test in cv.split(X):
            b = np.zeros(5) if masker.value == "zero" else X[train].mean(0)
            scores.append(feature_agreement(G[test], W * (X[test] - b)).mean())
        out.append(np.mean(scores))
    return np.array(out)


def test_grid_search_multimetric_picks_hand_checked_best(problem):
    X, y, G, model = problem
    cv = KFold(5)
    with config_context(enable_metadata_routing=True):
        gs = GridSearchCV(
            ExplainedModel(FrozenEstimator(model), FeatureAblation()), GRID,
            scoring=check_scoring(["feature_agreement", "r2"]),
            refit="feature_agreement", cv=cv,
        ).fit(X, y, ground_truth=G)
    expected = _hand_check(X, y, G, model, cv)
    np.testing.assert_allclose(gs.cv_results_["mean_test_feature_agreement"], expected)
    assert expected[1] > expected[0]
    assert gs.best_params_["explainer__masker"].value == "mean"
    # The frozen model is shared, never refit: r2 is perfect on every fold.
    np.testing.assert_allclose(gs.cv_results_["mean_test_r2"], 1.0)
    assert gs.best_estimator_.model_.estimator is model


def test_grid_search_with_scoring_parameter_agrees(problem):
    X, y, G, model = problem
    cv = KFold(5)
    with config_context(enable_metadata_routing=True):
        gs = GridSearchCV(
            ExplainedModel(FrozenEstimator(model), FeatureAblation(),
                           scoring="feature_agreement"),
            GRID, cv=cv,
        ).fit(X, y, ground_truth=G)
        scores = cross_val_score(
            ExplainedModel(FrozenEstimator(model), FeatureAblation(masker=BaselineMasker("mean")),
                           scoring="feature_agreement"),
            X, y, cv=cv, params={"ground_truth": G},
        )
    np.testing.assert_allclose(gs.cv_results_["mean_test_score"], _hand_check(X, y, G, model, cv))
    assert gs.best_params_["explainer__masker"].value == "mean"
    assert scores.mean() == pytest.approx(gs.cv_results_["mean_test_score"][1])


def test_tune_model_and_explainer_together(problem):
    X, y, G, _ = problem
    with config_context(enable_metadata_routing=True):
        gs = GridSearchCV(
            ExplainedModel(Ridge(), FeatureAblation(masker=BaselineMasker("mean")),
                           scoring="feature_agreement"),
            {"model__alpha": [1e-3, 1e4]}, cv=3,
        ).fit(X, y, ground_truth=G)
    assert gs.best_params_["model__alpha"] == 1e-3


def test_delegation_and_tags(problem):
    X, y, _, _ = problem
    yc = (X[:, 0] > 3).astype(int)
    clf = ExplainedModel(LogisticRegression(), FeatureAblation()).fit(X, yc)
    assert is_classifier(clf) and not is_regressor(clf)
    np.testing.assert_array_equal(clf.predict(X), clf.model_.predict(X))
    np.testing.assert_allclose(clf.predict_proba(X), clf.model_.predict_proba(X))
    np.testing.assert_allclose(clf.decision_function(X), clf.model_.decision_function(X))
    np.testing.assert_array_equal(clf.classes_, [0, 1])
    reg = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X, y)
    assert is_regressor(reg)
    assert not hasattr(reg, "predict_proba")
    assert reg.score(X, y) == pytest.approx(1.0)
    np.testing.assert_allclose(reg.transform(X), reg.explain(X))
    with pytest.raises(ValueError, match="needs y"):
        reg.score(X)


def test_explained_model_clones_explainer_and_sets_estimator(problem):
    X, y, _, model = problem
    explainer = FeatureAblation(masker=BaselineMasker("mean"))
    em = ExplainedModel(FrozenEstimator(model), explainer).fit(X, y)
    assert explainer.get_params()["estimator"] is None
    assert em.explainer_ is not explainer
    assert em.explainer_.estimator_.estimator is model


def test_pandas_output_in_pipeline(problem):
    X, y, _, _ = problem
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)])
    pipe = make_pipeline(StandardScaler(), ExplainedModel(LinearRegression(), FeatureAblation()))
    out = pipe.set_output(transform="pandas").fit(df, y).transform(df)
    assert list(out.columns) == list(df.columns)


def test_scoring_unknown_name_error(problem):
    X, y, G, model = problem
    em = ExplainedModel(FrozenEstimator(model), RandomExplainer(), scoring="feature_agreemnt").fit(X, y)
    with pytest.raises(ValueError, match="not a known scorer"):
        em.score(X, y, ground_truth=G)


def test_missing_ground_truth_in_grid_search_is_clear(problem):
    X, y, _, model = problem
    with config_context(enable_metadata_routing=True):
        gs = GridSearchCV(
            ExplainedModel(FrozenEstimator(model), FeatureAblation(), scoring="feature_agreement"),
            GRID, cv=3, error_score="raise",
        )
        with pytest.raises(ValueError, match="needs ground_truth"):
            gs.fit(X, y)
