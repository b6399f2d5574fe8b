"""Fairness end to end (OpenXAI's group gap): a grid search over an explainer's
hyperparameter scored by the PGI gap between the sexes on German credit,
with ``sensitive`` routed per fold as metadata."""

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import load_german_credit
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import check_scoring, get_scorer
from sklearn_xai.metrics._pgi import pgi

PGI_KW = dict(n_samples=20, random_state=0)


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


@pytest.fixture(scope="module")
def german():
    bunch = load_german_credit(sensitive="sex")
    # A simple numeric subset: the ordinal-coded table, first 240 rows.
    X = bunch.data[:240].astype(np.float64)
    return X, bunch.target[:240], np.asarray(bunch.sensitive[:240])


def _model():
    return make_pipeline(MinMaxScaler(), LogisticRegression())


def test_grid_search_on_the_group_gap_matches_a_hand_computation(routing, german):
    X, y, sex = german
    assert set(sex) == {"female", "male"}
    maskers = [BaselineMasker("zero"), BaselineMasker("mean")]
    scoring = check_scoring({
        "gap": get_scorer("neg_group_gap", metric="pgi", **PGI_KW),
        "pgi": get_scorer("pgi", **PGI_KW),
    })
    cv = KFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(
        ExplainedModel(_model(), FeatureAblation()),
        {"explainer__masker": maskers}, scoring=scoring, refit="gap", cv=cv,
    ).fit(X, y, sensitive=sex)

    # Hand computation on the first fold, for each grid point.
    train, test = next(cv.split(X, y))
    model = _model().fit(X[train], y[train])
    for i, masker in enumerate(maskers):
        ex = FeatureAblation(FrozenEstimator(model), masker=clone(masker))
        A = ex.fit(X[train]).transform(X[test])
        s = pgi(model, X[test], A, **PGI_KW)
        g = sex[test]
        means = {v: s[g == v].mean() for v in ("female", "male")}
        gap = abs(means["female"] - means["male"])
        assert search.cv_results_["split0_test_gap"][i] == pytest.approx(-gap,
                                                                         rel=1e-10)
        assert search.cv_results_["split0_test_pgi"][i] == pytest.approx(s.mean(),
                                                                         rel=1e-10)
    # The refit uses the grid point with the smallest mean gap.
    best = int(np.argmax(search.cv_results_["mean_test_gap"]))
    assert search.best_index_ == best
    assert search.cv_results_["mean_test_gap"][best] <= 0.0


def test_group_report_on_a_fold_gives_the_group_means(routing, german):
    X, y, sex = german
    em = ExplainedModel(_model(), FeatureAblation()).fit(X[:160], y[:160])
    scorer = get_scorer("neg_group_gap", metric="pgi", **PGI_KW)
    report = scorer.group_report(em, X[160:], sensitive=sex[160:])
    s = pgi(em.model_, X[160:], em.transform(X[160:]), **PGI_KW)
    g = sex[160:]
    for group in ("female", "male"):
        k = list(report.groups).index(group)
        assert report.means[k] == pytest.approx(s[g == group].mean(), rel=1e-10)
        assert report.counts[k] == int((g == group).sum())
    assert scorer(em, X[160:], sensitive=sex[160:]) == pytest.approx(-report.gap)


def test_missing_sensitive_is_a_clear_error(routing, german):
    X, y, _ = german
    search = GridSearchCV(
        ExplainedModel(_model(), FeatureAblation()), {"explainer__masker": [None]},
        scoring=check_scoring({"gap": get_scorer("neg_group_gap", metric="pgi",
                                                 **PGI_KW)}),
        refit="gap", cv=2, error_score="raise",
    )
    with pytest.raises(ValueError, match="sensitive"):
        search.fit(X, y)
