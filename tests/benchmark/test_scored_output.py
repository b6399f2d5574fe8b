"""Every explainer of a cell and the random control are scored on one output
(issue #32 item 2, issue #33 item 3)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_xai.benchmark import BenchmarkSpec, compare_explainers, run_benchmark
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import comprehensiveness

N_TRAIN, N_EXPLAIN = 60, 12


def _data():
    X, y = make_classification(n_samples=N_TRAIN + N_EXPLAIN, n_features=5,
                               n_informative=3, random_state=0)
    return X[:N_TRAIN], y[:N_TRAIN], X[N_TRAIN:], y[N_TRAIN:]


def _top_removed(X, A, mean):
    """The rows with their largest-|attribution| feature set to the training
    mean: comprehensiveness's ratio 0.3 of 5 features removes floor(1.5) = 1."""
    Xm = X.copy()
    top = np.argmax(np.abs(A), axis=1)
    Xm[np.arange(len(X)), top] = mean[top]
    return Xm


def _control_attributions(model, X_train, X, seed):
    explainer = RandomExplainer(random_state=seed).fit(X_train)
    return explainer.explain(X)


def _scores(results, explainer, metric):
    rows = results.per_row
    sub = rows[(rows["explainer"] == explainer) & (rows["metric"] == metric)]
    return sub.sort_values("row")["value"].to_numpy()


@pytest.fixture(scope="module")
def xgb_case():
    import xgboost

    X_train, y_train, X, y = _data()
    model = xgboost.XGBClassifier(n_estimators=10, max_depth=2).fit(X_train, y_train)
    results = compare_explainers(
        model, X, y, X_train=X_train, n_explain=N_EXPLAIN, seeds=[0],
        explainers={"tree": "TreeContributions", "ablation": "FeatureAblation"},
        metrics=["comprehensiveness"])
    return model, X_train, X, results


def test_compare_accepts_explainer_instances():
    """Issue #33 item 3: compare called .get on an explainer instance; the
    instance given is cloned, not changed."""
    import xgboost

    X_train, y_train, X, y = _data()
    model = xgboost.XGBClassifier(n_estimators=5, max_depth=2).fit(X_train, y_train)
    given = FeatureAblation()
    results = compare_explainers(
        model, X, y, X_train=X_train, n_explain=4, seeds=[0],
        explainers={"tree": "TreeContributions", "ablation": given,
                    "control": RandomExplainer()},
        metrics=["neg_complexity"])
    table = results.table
    assert set(table["explainer"]) == {"control", "tree", "ablation"}
    assert (table["status"] == "ok").all(), table.loc[table["status"] != "ok", "error"]
    assert given.output == "auto"


def test_xgboost_control_scored_on_the_margin_as_the_explainers(xgb_case):
    """Comprehensiveness by hand on the raw margin: the control's scores are
    the margin's drop, as the explainers' are (they used to be the
    probability's)."""
    import xgboost

    model, X_train, X, results = xgb_case
    margin = model.get_booster().inplace_predict
    mean = X_train.mean(axis=0)
    for label in ("random", "tree", "ablation"):
        if label == "random":
            A = _control_attributions(model, X_train, X, 0)
        elif label == "tree":
            A = model.get_booster().predict(xgboost.DMatrix(X),
                                            pred_contribs=True)[:, :-1]
        else:
            A = None
        scores = _scores(results, label, "comprehensiveness")
        assert scores.shape == (N_EXPLAIN,)
        if A is None:
            continue
        expected = (margin(X, predict_type="margin")
                    - margin(_top_removed(X, A, mean), predict_type="margin"))
        # The predicted class's margin: negated for class 0.
        expected = np.where(model.predict(X) == 1, expected, -expected)
        np.testing.assert_allclose(scores, expected, rtol=1e-5, atol=1e-6)


def test_compare_control_equals_the_metric_on_its_attributions(xgb_case):
    """The control's score is the metric function on the control's
    attributions with the explainers' output."""
    from sklearn.frozen import FrozenEstimator

    model, X_train, X, results = xgb_case
    A = _control_attributions(model, X_train, X, 0)
    masker = BaselineMasker(value="mean").fit(X_train)
    expected = comprehensiveness(FrozenEstimator(model), X, A, masker=masker,
                                 output="margin")
    np.testing.assert_allclose(_scores(results, "random", "comprehensiveness"), expected,
                               rtol=1e-6, atol=1e-9)
    probability = comprehensiveness(FrozenEstimator(model), X, A, masker=masker)
    assert not np.allclose(expected, probability)  # the output matters here


def _classification():
    X_train, y_train, X, y = _data()
    return {"data": np.vstack([X_train, X]), "target": np.concatenate([y_train, y]),
            "train_indices": np.arange(N_TRAIN),
            "test_indices": np.arange(N_TRAIN, N_TRAIN + N_EXPLAIN)}


def test_runner_scores_the_control_on_the_explainers_output():
    """The general runner: explainers set output='decision', the control
    (which has no output) is scored on the decision function too."""
    mean_masker = {"name": "BaselineMasker", "params": {"value": "mean"}}
    spec = BenchmarkSpec(
        name="one_output",
        datasets={"d": {"name": _classification, "task": "classification"}},
        models={"lr": LogisticRegression()},
        explainers={"random": "RandomExplainer",
                    "ablation": {"name": "FeatureAblation",
                                 "params": {"masker": mean_masker, "output": "decision"}}},
        metrics={"comprehensiveness": {"name": "comprehensiveness",
                                       "params": {"masker": mean_masker}}},
        seeds=[0], n_explain=N_EXPLAIN)
    results = run_benchmark(spec)
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    X_train, y_train, X, _ = _data()
    model = LogisticRegression().fit(X_train, y_train)
    A = _control_attributions(model, X_train, X, 0)
    expected = (model.decision_function(X)
                - model.decision_function(_top_removed(X, A, X_train.mean(axis=0))))
    # The predicted class's decision: the sign flips for class 0.
    expected = np.where(model.predict(X) == 1, expected, -expected)
    np.testing.assert_allclose(_scores(results, "random", "comprehensiveness"), expected,
                               rtol=1e-6, atol=1e-9)


def test_runner_refuses_a_control_between_two_outputs():
    mean_masker = {"name": "BaselineMasker", "params": {"value": "mean"}}
    spec = BenchmarkSpec(
        name="two_outputs",
        datasets={"d": {"name": _classification, "task": "classification"}},
        models={"lr": LogisticRegression()},
        explainers={"random": "RandomExplainer",
                    "margin": {"name": "FeatureAblation",
                               "params": {"masker": mean_masker, "output": "decision"}},
                    "proba": {"name": "FeatureAblation",
                              "params": {"masker": mean_masker, "output": "proba"}}},
        metrics={"comprehensiveness": {"name": "comprehensiveness",
                                       "params": {"masker": mean_masker}}},
        seeds=[0], n_explain=4)
    table = run_benchmark(spec).table.set_index("explainer")
    assert table.loc["random", "status"] == "error"
    assert "set the same target= and output= on every explainer" in \
        table.loc["random", "error"]
    assert (table.loc[["margin", "proba"], "status"] == "ok").all()


def test_control_ignores_the_output_of_an_explainer_that_refuses_the_model():
    """TreeContributions (default output "margin") in a benchmark with a
    logistic regression refuses the model: the control is scored on the
    output of the explainers that apply (the probability here), exactly as
    in the same benchmark without TreeContributions, and is computed by
    hand.  It used to fail with "explain different outputs"."""
    mean_masker = {"name": "BaselineMasker", "params": {"value": "mean"}}
    explainers = {"random": "RandomExplainer",
                  "ablation": {"name": "FeatureAblation", "params": {"masker": mean_masker}}}
    metrics = {"comprehensiveness": {"name": "comprehensiveness",
                                     "params": {"masker": mean_masker}}}

    def run(with_trees):
        chosen = dict(explainers, **({"trees": "TreeContributions"} if with_trees else {}))
        return run_benchmark(BenchmarkSpec(
            name="refused_output",
            datasets={"d": {"name": _classification, "task": "classification"}},
            models={"lr": LogisticRegression()}, explainers=chosen, metrics=metrics,
            seeds=[0], n_explain=N_EXPLAIN))

    results = run(with_trees=True)
    table = results.table.set_index("explainer")
    assert table.loc["random", "status"] == "ok", table.loc["random", "error"]
    assert table.loc["trees", "status"] == "skipped"
    X_train, y_train, X, _ = _data()
    model = LogisticRegression().fit(X_train, y_train)
    A = _control_attributions(model, X_train, X, 0)
    P, Pm = model.predict_proba(X), model.predict_proba(
        _top_removed(X, A, X_train.mean(axis=0)))
    c = P.argmax(1)
    expected = P[np.arange(len(X)), c] - Pm[np.arange(len(X)), c]
    got = _scores(results, "random", "comprehensiveness")
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(got, _scores(run(with_trees=False), "random",
                                               "comprehensiveness"))
