"""Tests of the group gap (OpenXAI's fairness analysis): group_gap against
hand computations, and the neg_group_gap scorer end to end, in a grid
search over an explainer's hyperparameter scored by the PGI gap between the
sexes on German credit, with ``sensitive`` routed per fold as metadata."""

import numpy as np
import pytest
import sklearn
from scipy import stats
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
from sklearn_xai.metrics._fairness import group_gap
from sklearn_xai.metrics._perturbation_gaps import pgi
from sklearn_xai.metrics._registry import metric_specs


def test_two_groups_hand_case():
    scores = [1.0, 2.0, 3.0, 5.0, 4.0, 6.0]
    sensitive = ["m", "f", "m", "f", "m", "f"]
    r = group_gap(scores, sensitive)
    assert r.groups.tolist() == ["f", "m"]
    np.testing.assert_allclose(r.means, [13 / 3, 8 / 3])
    np.testing.assert_allclose(r.counts, [3, 3])
    # SE with ddof=0: sd([2, 5, 6]) / sqrt(3)
    sd_f = np.sqrt(((2 - 13 / 3) ** 2 + (5 - 13 / 3) ** 2 + (6 - 13 / 3) ** 2) / 3)
    assert r.standard_errors[0] == pytest.approx(sd_f / np.sqrt(3))
    assert r.gap == pytest.approx(5 / 3)
    # Welch's t-test, computed from its formula (sample variances, ddof=1)
    a, b = np.array([2.0, 5.0, 6.0]), np.array([1.0, 3.0, 4.0])
    va, vb = a.var(ddof=1) / 3, b.var(ddof=1) / 3
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    dof = (va + vb) ** 2 / (va**2 / 2 + vb**2 / 2)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(t), dof))


def test_several_groups_max_min_and_ratio():
    scores = np.array([1.0, 1.0, 2.0, 4.0, 3.0, 3.0])
    sensitive = np.array([0, 0, 1, 1, 2, 2])
    r = group_gap(scores, sensitive, statistic="max_min")
    np.testing.assert_allclose(r.means, [1.0, 3.0, 3.0])
    assert r.gap == pytest.approx(2.0)
    assert group_gap(scores, sensitive, statistic="ratio").gap == pytest.approx(1 / 3)
    sub = group_gap(scores, sensitive, groups=[2, 0])
    assert sub.groups.tolist() == [2, 0] and sub.gap == pytest.approx(2.0)


def test_equal_groups_have_no_gap_and_nan_scores_are_left_out():
    r = group_gap([1.0, 2.0, np.nan, 1.0, 2.0], ["a", "a", "a", "b", "b"])
    assert r.gap == 0.0 and r.counts.tolist() == [2, 2]
    assert r.p_value == pytest.approx(1.0)


def test_p_value_nan_with_singletons():
    assert np.isnan(group_gap([1.0, 2.0], ["a", "b"]).p_value)


@pytest.mark.parametrize(
    "kwargs, match",
    [({"scores": [1.0, 2.0], "sensitive": ["a"]}, "one group label"),
     ({"scores": [1.0, 2.0], "sensitive": ["a", "a"]}, "at least two groups"),
     ({"scores": [1.0, 2.0, 3.0], "sensitive": ["a", "b", "c"]}, "exactly two"),
     ({"scores": [1.0, 2.0], "sensitive": ["a", "b"], "groups": ["a", "z"]},
      "group"),
     ({"scores": [-1.0, 2.0], "sensitive": ["a", "b"], "statistic": "ratio"},
      "positive")],
)
def test_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        group_gap(**kwargs)


def test_not_registered_as_a_plain_metric():
    assert all(spec.func is not group_gap for spec in metric_specs())


# ------------------------------------------- the scorer in model selection
PGI_KW = dict(n_perturbations=20, random_state=0)


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
