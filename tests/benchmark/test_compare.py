"""compare_explainers: a practitioner's fitted model in, decisions out."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split

from sklearn_xai.benchmark import (
    applicable_explainers,
    applicable_metrics,
    compare_explainers,
)
from sklearn_xai.metrics import get_metric_spec


def test_applicable_metrics_need_no_ground_truth():
    names = applicable_metrics()
    assert {"comprehensiveness", "neg_sufficiency", "pgi", "neg_complexity"} <= set(names)
    for name in names:
        spec = get_metric_spec(name)
        assert spec.per_instance and spec.kind != "reference"
        assert not {"ground_truth", "distribution", "training_data", "reference",
                    "image_shape", "sensitive"} & set(spec.requires)
    assert "feature_agreement" not in names and "roar_faith_plus" not in names


def test_applicable_explainers_follow_the_model():
    import xgboost
    X, y = load_breast_cancer(return_X_y=True)
    trees = xgboost.XGBClassifier(n_estimators=5, max_depth=2).fit(X, y)
    found = applicable_explainers(trees, X.shape[1])
    assert list(found)[0] == "random"
    assert "tree_shap" in found and "exact_shapley" not in found  # 30 features
    linear = Ridge().fit(X[:, :5], y)
    found = applicable_explainers(linear, 5)
    assert "tree_shap" not in found and "exact_shapley" in found
    assert "saliency" in found  # Ridge has an exact torch replica (issue #20)


def test_xgboost_tree_attributions_scored_on_the_margin():
    import xgboost
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0,
                                                        stratify=y)
    model = xgboost.XGBClassifier(n_estimators=30, max_depth=3).fit(X_train, y_train)
    results = compare_explainers(
        model, X_test, y_test, X_train=X_train, n_explain=12, seeds=[0],
        explainers={"tree_shap": "TreeContributions", "ablation": "FeatureAblation"},
        metrics=["comprehensiveness", "neg_complexity"])
    table = results.table
    assert set(table["explainer"]) == {"random", "tree_shap", "ablation"}
    assert (table["status"] == "ok").all(), table.loc[table["status"] != "ok", "error"]
    board = results.leaderboard()
    comp = board[board["metric"] == "comprehensiveness"].set_index("explainer")["mean"]
    # Removing the features with the largest exact contributions moves the
    # margin far more than removing random ones.
    assert comp["tree_shap"] > comp["random"] + 1.0
    assert "tied_best" in board


def test_representation_metric_only_for_models_with_hidden_layers():
    from sklearn_xai.benchmark._compare import _has_representation
    from sklearn.neural_network import MLPRegressor

    X, y = load_diabetes(return_X_y=True)
    assert not _has_representation(Ridge().fit(X, y))
    assert _has_representation(MLPRegressor(max_iter=5).fit(X[:50], y[:50]))


def test_x_train_defaults_to_the_rows_not_explained():
    X, y = load_diabetes(return_X_y=True)
    model = Ridge().fit(X[:300], y[:300])
    results = compare_explainers(model, X[300:], y[300:], n_explain=8, seeds=[0],
                                 explainers={"ablation": "FeatureAblation"},
                                 metrics=["neg_complexity"])
    assert set(results.table["n_rows"]) == {8}
    with pytest.raises(ValueError, match="pass X_train"):
        compare_explainers(model, X[:5], n_explain=5)


def test_model_must_be_fitted():
    X, _ = load_diabetes(return_X_y=True)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        compare_explainers(Ridge(), X)


@pytest.mark.slow
def test_practitioner_scenario_breast_cancer_xgboost(tmp_path):
    """The issue's scenario: six explainers plus the control, every
    applicable metric, decisions and a report."""
    import xgboost
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0,
                                                        stratify=y)
    model = xgboost.XGBClassifier(n_estimators=100, max_depth=3).fit(X_train, y_train)
    results = compare_explainers(model, X_test, y_test, X_train=X_train,
                                 n_explain=30, seeds=[0, 1], n_jobs=2)
    assert results.table["explainer"].nunique() >= 7
    failed = results.table[results.table["status"] == "error"]
    assert failed.empty, failed[["explainer", "metric", "error"]]
    summary = results.decisions()
    assert summary["tied_best_overall"].any()
    assert "random" not in set(summary["explainer"])
    results.write_report(tmp_path)
    assert (tmp_path / "report.html").exists()


def test_sklearn_tree_ensembles_get_exact_tree_attributions_on_their_output():
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X = X[:200, :6]
    y = y[:200]
    forest = RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
    boosted = HistGradientBoostingClassifier(max_iter=5).fit(X, y)
    for model, output in ((forest, "proba"), (boosted, "margin")):
        found = applicable_explainers(model, X.shape[1])
        assert found["tree_shap"] == {"name": "TreeContributions",
                                      "params": {"output": output}}
    results = compare_explainers(
        forest, X[150:], y[150:], X_train=X[:150], n_explain=6, seeds=[0],
        explainers={"tree_shap": "TreeContributions"}, metrics=["comprehensiveness"])
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()


def test_pipeline_selecting_columns_by_name_on_a_dataframe():
    """A ColumnTransformer that selects columns by name can only be called on
    a DataFrame: compare calls the model with the DataFrame's columns, and the
    score equals the metric computed directly on the same explanations."""
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_xai.explainers import FeatureAblation
    from sklearn_xai.masking import BaselineMasker
    from sklearn_xai.metrics import comprehensiveness

    data = load_breast_cancer(as_frame=True)
    X, y = data.data.iloc[:260, :5], data.target[:260]
    ct = ColumnTransformer([("scale", StandardScaler(), list(X.columns[:3]))],
                           remainder="passthrough")
    pipe = make_pipeline(ct, LogisticRegression(max_iter=1000)).fit(X[:200], y[:200])
    X_train, X_test = X[:200], X[200:]
    results = compare_explainers(
        pipe, X_test, y[200:], X_train=X_train, n_explain=8, seeds=[0],
        explainers={"ablation": FeatureAblation(masker=BaselineMasker("mean"))},
        metrics=["comprehensiveness"])
    table = results.table.set_index("explainer")
    assert (table["status"] == "ok").all(), table["error"].tolist()
    assert table.loc["ablation", "model_score"] == pytest.approx(
        pipe.score(X_test, y[200:]))
    ex = FeatureAblation(FrozenEstimator(pipe), masker=BaselineMasker("mean"),
                         output="auto").fit(X_train)
    A = ex.transform(X_test[:8])
    expected = comprehensiveness(FrozenEstimator(pipe), X_test[:8], A,
                                 masker=BaselineMasker("mean").fit(X_train)).mean()
    assert table.loc["ablation", "value"] == pytest.approx(expected)


def test_text_columns_need_training_rows_with_the_same_columns():
    # Raw DataFrames are compared on their own columns
    # (tests/benchmark/test_compare_raw_columns.py); their training rows must
    # be a DataFrame with the same columns.
    import pandas as pd

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "size": ["s", "m", "l", "m"]})
    model = Ridge().fit(np.c_[X["a"], X["a"]], [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="X_train must be a DataFrame with the same "
                                         "columns"):
        compare_explainers(model, X, X_train=np.ones((4, 2)), n_explain=2)
    with pytest.raises(ValueError, match=r"X_train has columns \['a', 'b'\]"):
        compare_explainers(model, X, X_train=X.set_axis(["a", "b"], axis=1),
                           n_explain=2)


def test_the_report_names_the_given_rows_not_an_object_address(tmp_path):
    from sklearn_xai.benchmark import write_report

    X, y = load_diabetes(return_X_y=True)
    model = Ridge().fit(X[:300], y[:300])
    results = compare_explainers(model, X[300:320], y[300:320], X_train=X[:300],
                                 n_explain=4, seeds=[0],
                                 explainers={"ablation": "FeatureAblation"},
                                 metrics=["neg_complexity"])
    write_report(results, tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert "the given rows (300 training + 20 held-out, 10 features)" in page
    assert "object at 0x" not in page


def test_decision_metrics_ask_one_question_each():
    from sklearn_xai.benchmark import decision_metrics

    metrics = decision_metrics()
    names = [m if isinstance(m, str) else m["name"] for m in metrics]
    assert names == ["comprehensiveness", "neg_sufficiency", "faithfulness_correlation",
                     "neg_max_sensitivity", "neg_complexity"]
    assert set(names) <= set(applicable_metrics())
    families = [get_metric_spec(n).family for n in names]
    assert families == ["faithfulness"] * 3 + ["robustness", "complexity"]
    assert {"name": "neg_max_sensitivity", "params": {"n_perturbations": 3}} in metrics


@pytest.mark.parametrize("metrics, expected", [
    ("auto", "decision"), ("all", "catalogue"),
    (["comprehensiveness"], ["comprehensiveness"])])
def test_metrics_auto_is_the_decision_set_and_all_the_catalogue(monkeypatch, metrics,
                                                                expected):
    from sklearn_xai.benchmark import _runner, decision_metrics

    seen = {}

    def fake_run(spec, **kwargs):
        seen["spec"] = spec
        return "results"

    monkeypatch.setattr(_runner, "run_benchmark", fake_run)
    X, y = load_diabetes(return_X_y=True)
    model = Ridge().fit(X[:300], y[:300])
    assert compare_explainers(model, X[300:], y[300:], X_train=X[:300],
                              metrics=metrics) == "results"
    spec = seen["spec"]
    if expected == "decision":
        expected = [m if isinstance(m, str) else m["name"] for m in decision_metrics()]
        assert spec.metrics["neg_max_sensitivity"]["params"]["n_perturbations"] == 3
    elif expected == "catalogue":
        expected = [m for m in applicable_metrics() if m != "neg_rrs"]  # no hidden layer
    assert list(spec.metrics) == expected
    assert spec.seeds == [0, 1]


def test_budget_from_python_cuts_and_says_so(monkeypatch, capsys):
    from sklearn_xai.benchmark import _compare

    # Pilot timings fixed: 0.25 s per row and seed; the pilot (5 rows) costs
    # 1.25 s of the 6.25 s, leaving 5 s = 1 seed x 20 rows.
    monkeypatch.setattr(_compare, "_pilot_costs",
                        lambda table: {"random": 0.0, "ablation": 0.25})
    X, y = load_diabetes(return_X_y=True)
    model = Ridge().fit(X[:300], y[:300])
    results = compare_explainers(
        model, X[300:], y[300:], X_train=X[:300], n_explain=30, seeds=[0, 1],
        explainers={"ablation": "FeatureAblation"}, metrics=["neg_complexity"],
        n_jobs=1, budget=6.25, verbose=1)
    printed = capsys.readouterr().out
    assert "budget=6.25: 1 seed instead of 2, 20 rows instead of 30" in printed
    assert set(results.table["n_rows"]) == {20} and set(results.table["seed"]) == {0}
    assert "Within a budget of 6.25 s" in results.spec["description"]
    with pytest.raises(ValueError, match="budget must be a positive number"):
        compare_explainers(model, X[300:], budget=0)


@pytest.mark.parametrize("n_features, exact_background", [(8, 25), (9, 25), (10, 12)])
def test_masker_explainers_cost_at_most_what_kernel_shap_costs(n_features, exact_background):
    # KernelSHAP: 512 coalitions x 25 background rows = 12,800 model
    # evaluations per row; exact Shapley values evaluate all 2**d coalitions
    # on at most 12,800 / 2**d rows (12 at d = 10, i.e. 12,288 evaluations).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, n_features))
    found = applicable_explainers(Ridge().fit(X, X[:, 0]), n_features)
    kernel = found["kernel_shap"]["params"]
    assert kernel["n_perturbations"] * kernel["masker"]["params"]["background"] == 12800
    exact = found["exact_shapley"]["params"]["masker"]["params"]["background"]
    assert exact == exact_background
    assert 2**n_features * exact <= 12800 < 2**n_features * (exact + 1) or exact == 25
    # Model calls of about 2**20 input entries, for every explainer that
    # takes a batch size (the control and tree attributions do not).
    for label, spec in found.items():
        if label != "random":
            assert spec["params"]["batch_size"] == 2**20 // n_features, label
