"""ROAR metrics used by name through explanation scorers (issue 6)."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import make_gaussian_linear
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics._registry import get_metric_spec
from sklearn_xai.metrics import (
    get_scorer,
    roar_faith_minus,
    roar_faith_plus,
    roar_mono_minus,
    roar_mono_plus,
)

ROAR = {
    "roar_faith_minus": roar_faith_minus,
    "roar_faith_plus": roar_faith_plus,
    "roar_mono_minus": roar_mono_minus,
    "roar_mono_plus": roar_mono_plus,
}


@pytest.fixture(scope="module")
def problem():
    bunch = make_gaussian_linear(n_samples=240, n_features=4, weights=[3.0, -2.0, 1.0, 0.5],
                                 rho=0.3, random_state=0)
    X, y = bunch.X, bunch.y
    return bunch.distribution, X[:200], y[:200], X[200:]


@pytest.mark.parametrize("name", sorted(ROAR))
def test_registered_with_explainer(name):
    spec = get_metric_spec(name)
    assert spec.func is ROAR[name]
    assert "explainer" in spec.requires and "distribution" in spec.requires


@pytest.mark.parametrize("name", sorted(ROAR))
def test_scorer_equals_direct_call(problem, name):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(),
                        FeatureAblation(masker=BaselineMasker("mean"))).fit(X_train, y_train)
    scorer = get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist)
    # Training attributions computed here, independently of the metric: for a
    # linear model, feature ablation with the mean baseline is w_j (x_j - mean_j).
    w = em.model_.coef_
    A_train = w * (X_train - X_train.mean(axis=0))
    A_test = w * (X_test - X_train.mean(axis=0))
    np.testing.assert_allclose(em.explainer_.explain(X_train), A_train, atol=1e-10)
    expected = ROAR[name](em.model_, X_test, A_test, X_train=X_train, y_train=y_train,
                          attributions_train=A_train, distribution=dist)
    assert scorer(em, X_test) == pytest.approx(float(np.mean(expected)), abs=1e-12)
    # Binding other training attributions changes the score: they are used.
    A_rand = np.random.default_rng(0).normal(size=A_train.shape)
    other = ROAR[name](em.model_, X_test, A_test, X_train=X_train, y_train=y_train,
                       attributions_train=A_rand, distribution=dist)
    bound = get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist,
                       attributions_train=A_rand)
    assert bound(em, X_test) == pytest.approx(float(np.mean(other)), abs=1e-12)


def test_grid_search_by_name(problem):
    dist, X_train, y_train, X_test = problem
    explainers = [FeatureAblation(masker=BaselineMasker("mean")),
                  RandomExplainer(random_state=0)]
    scoring = {n: get_scorer(n, X_train=X_train, y_train=y_train, distribution=dist)
               for n in ("roar_faith_minus", "roar_mono_plus")}
    cv = KFold(n_splits=2)
    search = GridSearchCV(ExplainedModel(LinearRegression(), explainers[0]),
                          {"explainer": explainers}, scoring=scoring, cv=cv,
                          refit=False).fit(X_train, y_train)
    for c, explainer in enumerate(explainers):
        for split, (fit_rows, test_rows) in enumerate(cv.split(X_train)):
            em = ExplainedModel(LinearRegression(), explainer).fit(
                X_train[fit_rows], y_train[fit_rows])
            A = em.explain(X_train[test_rows])
            A_train = em.explainer_.explain(X_train)
            for name in scoring:
                direct = ROAR[name](em.model_, X_train[test_rows], A, X_train=X_train,
                                    y_train=y_train, attributions_train=A_train,
                                    distribution=dist)
                got = search.cv_results_[f"split{split}_test_{name}"][c]
                assert got == pytest.approx(float(np.mean(direct)), abs=1e-12)
    # Exact attributions beat random ones on roar-faith-.
    faith = search.cv_results_["mean_test_roar_faith_minus"]
    assert faith[0] > faith[1] + 0.3


def test_training_attributions_shared_between_scorers(problem):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    calls = []
    explain = em.explainer_.explain

    def counting(X, **kwargs):
        calls.append(len(X))
        return explain(X, **kwargs)

    em.explainer_.explain = counting
    for name in ROAR:
        get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist)(em, X_test)
    assert calls.count(len(X_train)) == 1
    # A refit explainer does not reuse them.
    em.fit(X_train, y_train + 1.0)
    em.explainer_.explain = counting
    get_scorer("roar_mono_minus", X_train=X_train, y_train=y_train,
               distribution=dist)(em, X_test)
    assert calls.count(len(X_train)) == 2


@pytest.mark.parametrize("name", sorted(ROAR))
def test_missing_training_data_names_the_binding(problem, name):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    with pytest.raises(ValueError, match=rf"X_train=\.\.\., y_train=\.\.\..*get_scorer\('{name}'"):
        get_scorer(name, distribution=dist)(em, X_test)
    with pytest.raises(ValueError, match=r"needs its training data: pass y_train=\.\.\."):
        get_scorer(name, X_train=X_train, distribution=dist)(em, X_test)
    A = em.explain(X_test)
    with pytest.raises(ValueError, match="attributions_train= .* or explainer="):
        ROAR[name](em.model_, X_test, A, X_train=X_train, y_train=y_train,
                   distribution=dist)


def test_explainer_must_explain(problem):
    dist, X_train, y_train, X_test = problem
    model = LinearRegression().fit(X_train, y_train)
    with pytest.raises(ValueError, match="explainer"):
        roar_mono_plus(model, X_test, X_test, X_train=X_train, y_train=y_train,
                       explainer=object(), distribution=dist)


def test_metadata_routing_on(problem):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    scorer = get_scorer("roar_faith_plus", X_train=X_train, y_train=y_train,
                        distribution=dist)
    off = scorer(em, X_test)
    with sklearn.config_context(enable_metadata_routing=True):
        on = scorer(em, X_test)
    assert on == off
