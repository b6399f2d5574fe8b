import numpy as np
import pytest
from sklearn import config_context
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    ExplanationScorer,
    check_scoring,
    feature_agreement,
    get_scorer,
    get_scorer_names,
    make_explanation_scorer,
    register_scorer,
)
from sklearn_xai.metrics._registry import metric_specs


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    mu = np.array([3.0, -2.0, 1.0, 0.0])
    X = rng.randn(120, 4) + mu
    w = np.array([1.0, -2.0, 3.0, 0.5])
    return X, X @ w, w * (X - mu)


def test_names_and_resolution():
    names = get_scorer_names()
    for name in ("feature_agreement", "comprehensiveness", "neg_sufficiency",
                 "neg_complexity", "sparseness", "neg_group_gap"):
        assert name in names
    assert all(s.greater_is_better != s.name.startswith("neg_") for s in metric_specs())
    assert isinstance(get_scorer("feature_agreement"), ExplanationScorer)
    assert get_scorer("r2")._score_func.__name__ == "r2_score"
    with pytest.raises(ValueError, match="not a known scorer"):
        get_scorer("feature_agreemnt")
    with pytest.raises(ValueError, match="scikit-learn scorer"):
        get_scorer("r2", k=3)


def test_check_scoring_forms():
    out = check_scoring(["feature_agreement", "r2"])
    assert sorted(out) == ["feature_agreement", "r2"]
    out = check_scoring({"fa": "feature_agreement", "custom": len})
    assert out["custom"] is len and isinstance(out["fa"], ExplanationScorer)
    assert check_scoring(None) is None
    with pytest.raises(ValueError, match="duplicate"):
        check_scoring(["r2", "r2"])
    with pytest.raises(TypeError, match="scoring must be"):
        check_scoring(3)


def test_register_scorer():
    def my_scorer(estimator, X, y=None):
        return 1.0

    register_scorer("my_constant_test_scorer", my_scorer)
    assert get_scorer("my_constant_test_scorer") is my_scorer
    assert "my_constant_test_scorer" in get_scorer_names()
    with pytest.raises(ValueError, match="already exists"):
        register_scorer("feature_agreement", my_scorer)


def test_make_explanation_scorer_unregistered_metric(data):
    X, y, G = data

    def mean_abs(attributions):
        return np.abs(attributions).mean(axis=1)

    with pytest.raises(ValueError, match="kind="):
        make_explanation_scorer(mean_abs)
    scorer = make_explanation_scorer(mean_abs, greater_is_better=False, kind="attributions")
    ex = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean")).fit(X, y)
    assert scorer(ex, X) == pytest.approx(-np.abs(G).mean(), rel=0.05)


def test_scorer_on_explainer_and_missing_metadata(data):
    X, y, G = data
    ex = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean")).fit(X, y)
    scorer = get_scorer("feature_agreement", k=2)
    expected = feature_agreement(G, ex.transform(X), k=2).mean()
    assert scorer(ex, X, ground_truth=G) == pytest.approx(expected)
    with pytest.raises(ValueError, match="needs ground_truth.*Metadata routing is off"):
        scorer(ex, X)
    with pytest.raises(ValueError, match="one ground_truth row per row of X"):
        scorer(ex, X, ground_truth=G[:5])
    with pytest.raises(TypeError, match="ExplainedModel"):
        scorer(LinearRegression().fit(X, y), X, ground_truth=G)


def test_losses_are_negated(data):
    X, y, _ = data
    ex = FeatureAblation(LinearRegression()).fit(X, y)
    from sklearn_xai.metrics import complexity

    assert get_scorer("neg_complexity")(ex, X) == pytest.approx(-complexity(ex.transform(X)).mean())


class _CountingExplainer(RandomExplainer):
    n_explain = 0

    def _explain(self, X, f, target_index, rngs):
        type(self).n_explain += 1
        return super()._explain(X, f, target_index, rngs)


def test_attributions_computed_once_per_fit_and_X(data):
    X, y, G = data
    _CountingExplainer.n_explain = 0
    em = ExplainedModel(LinearRegression(), _CountingExplainer(random_state=0)).fit(X, y)
    scorers = check_scoring(["feature_agreement", "sparseness", "neg_complexity", "r2"])
    for name, s in scorers.items():
        s(em, X, y, **({"ground_truth": G} if name == "feature_agreement" else {}))
    assert _CountingExplainer.n_explain == 1
    em.fit(X, y)  # a refit invalidates the cache
    scorers["sparseness"](em, X)
    assert _CountingExplainer.n_explain == 2


def _recording_metric(log):
    def rows_seen(ground_truth, attributions):
        log.append(np.asarray(ground_truth)[:, 0].copy())
        return np.ones(len(attributions))

    return rows_seen


def test_ground_truth_routed_per_fold_in_grid_search():
    """Each scorer call receives exactly the ground-truth rows of its fold."""
    rng = np.random.RandomState(0)
    X = rng.randn(30, 3)
    X[:, 0] = np.arange(30)  # row id in feature 0
    y = X @ [0.0, 1.0, 1.0]
    G = np.column_stack([np.arange(30.0), np.zeros(30), np.zeros(30)])
    log = []
    scorer = make_explanation_scorer(_recording_metric(log), kind="reference",
                                     requires=("ground_truth",))
    cv = KFold(3, shuffle=True, random_state=0)
    with config_context(enable_metadata_routing=True):
        gs = GridSearchCV(
            ExplainedModel(LinearRegression(), RandomExplainer(random_state=0)),
            {"explainer__scale": [1.0, 2.0]},
            scoring={"rows": scorer, "r2": "r2"}, refit=False, cv=cv,
        )
        gs.fit(X, y, ground_truth=G)
    expected = [np.sort(test) for _, test in cv.split(X)] * 2
    assert len(log) == len(expected)
    for seen, exp in zip(sorted(log, key=lambda a: tuple(a)), sorted(expected, key=tuple)):
        np.testing.assert_array_equal(np.sort(seen), exp)


def test_cross_validate_without_routing_has_clear_error(data):
    X, y, G = data
    em = ExplainedModel(LinearRegression(), FeatureAblation(), scoring="feature_agreement")
    with pytest.raises(ValueError, match="enable_metadata_routing"):
        em.fit(X, y, ground_truth=G)
    with pytest.raises(ValueError, match="Metadata routing is off"):
        cross_validate(em, X, y, scoring=check_scoring(["feature_agreement"]),
                       error_score="raise")


class _Duck:
    """Neither an explainer nor an ExplainedModel: only the protocol."""

    def __init__(self, inner):
        self.inner = inner

    @property
    def explained_estimator_(self):
        return self.inner.explained_estimator_

    def explain(self, X, **params):
        return self.inner.explain(X, **params)


def test_scorers_recognise_the_explanation_protocol(data):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_xai.metrics import comprehensiveness

    X, y, G = data
    ex = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean")).fit(X, y)
    em = ExplainedModel(LinearRegression(),
                        FeatureAblation(masker=BaselineMasker("mean"))).fit(X, y)
    assert ex.explained_estimator_ is ex.estimator_
    assert em.explained_estimator_ is em.model_
    scorer = get_scorer("feature_agreement", k=2)
    expected = feature_agreement(G, ex.transform(X), k=2).mean()
    for est in (ex, em, _Duck(ex), _Duck(em)):
        assert scorer(est, X, ground_truth=G) == pytest.approx(expected)

    # A Pipeline ending in an explainer explains the transformed rows.
    scaler = StandardScaler().fit(X)
    inner = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean"))
    inner.fit(scaler.transform(X), y)
    pipe = Pipeline([("scaler", scaler), ("explainer", inner)])
    expected = feature_agreement(G, inner.transform(scaler.transform(X)), k=2).mean()
    assert scorer(pipe, X, ground_truth=G) == pytest.approx(expected)

    # Model-based metrics get the explainer's output (read from explainer_).
    labels = (y > np.median(y)).astype(int)
    em = ExplainedModel(LogisticRegression(), FeatureAblation(output="decision"))
    em.fit(X, labels)
    A = em.explain(X)
    expected = comprehensiveness(em.model_, X, A, output="decision").mean()
    assert get_scorer("comprehensiveness")(em, X) == pytest.approx(expected)
    assert expected != pytest.approx(comprehensiveness(em.model_, X, A).mean())

    with pytest.raises(AttributeError):  # unfitted: no explained model yet
        scorer(ExplainedModel(LinearRegression(), FeatureAblation()), X, ground_truth=G)


def test_score_attributions_equals_scoring_the_explainer():
    from sklearn.linear_model import LogisticRegression

    from sklearn_xai.explainers import FeatureAblation
    from sklearn_xai.masking import BaselineMasker
    from sklearn_xai.metrics import get_scorer

    rng = np.random.RandomState(0)
    X = rng.randn(40, 4)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = FrozenEstimator(LogisticRegression().fit(X, y))
    explainer = FeatureAblation(model, masker=BaselineMasker("mean"), target=1).fit(X, y)
    A = explainer.explain(X[:10])
    # The masker is fitted on the training rows (a metric never fits it on the
    # rows it scores).
    masker = BaselineMasker("mean").fit(X)
    for name, kwargs in (("comprehensiveness", {"masker": masker}),
                         ("neg_ris", {"n_perturbations": 5, "random_state": 0})):
        scorer = get_scorer(name, **kwargs)
        np.testing.assert_array_equal(
            scorer.score_attributions(explainer.explained_estimator_, X[:10], A,
                                      explainer=explainer),
            scorer.per_row(explainer, X[:10]))
    # target=1 came from the explainer: without it the default target differs.
    scorer = get_scorer("comprehensiveness", masker=masker)
    assert not np.array_equal(scorer.score_attributions(model, X[:10], A),
                              scorer.per_row(explainer, X[:10]))
    with pytest.raises(ValueError, match="pass the fitted explainer"):
        get_scorer("neg_ris").score_attributions(model, X[:10], A)
    with pytest.raises(ValueError, match="one row per row of X"):
        scorer.score_attributions(model, X[:10], A[:5])
