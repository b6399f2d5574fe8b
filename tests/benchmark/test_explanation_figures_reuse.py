"""compare's pictures reuse the attributions its cells computed: the same
matrix as the chosen explainer's ``transform`` on the rows, without
explaining every row a second time."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

from sklearn_xai.base import BaseExplainer
from sklearn_xai.benchmark import _explanation_figures as figures_module
from sklearn_xai.benchmark import _report as report_module
from sklearn_xai.benchmark import compare_explainers, explanation_figures
from sklearn_xai.benchmark._cli import main
from sklearn_xai.benchmark._explanation_figures import _build


@pytest.fixture(autouse=True)
def _agg():
    import matplotlib

    matplotlib.use("Agg")


def _data():
    """Diabetes, 4 features: 80 training rows and 12 held-out rows."""
    X, y = load_diabetes(return_X_y=True)
    X, y = X[:92, [0, 2, 3, 8]], y[:92]
    return X[:80], y[:80], X[80:], y[80:]


def _direct(spec, model, X_train, y_train, rows, seed):
    """The explainer of ``spec`` fitted and run on ``rows`` by hand."""
    explainer = _build(spec, "chosen", model, seed)
    explainer.fit(X_train, y_train)
    return explainer.transform(rows)


def test_the_runners_attributions_are_each_explainers_transform():
    # 12 rows are 2 row shards of the runner (10 + 2): every applicable
    # explainer of a forest (the masker explainers, LIME, exact tree
    # attributions) gives, per seed, what fitting it and calling transform
    # on the 12 rows gives.
    X_train, y_train, X, y = _data()
    model = RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0)
    model.fit(X_train, y_train)
    results = compare_explainers(model, X, y, X_train=X_train, n_explain=12,
                                 seeds=[0, 1], n_jobs=1, metrics=["neg_complexity"])
    spec = results.spec["explainers"]
    assert {"tree_shap", "exact_shapley", "kernel_shap", "lime", "loci"} <= set(spec)
    found = {(e, s): A for (_, _, e, s), A in results.attributions.items()}
    assert set(found) == {(e, s) for e in spec for s in (0, 1)}
    for (label, seed), A in found.items():
        if label == "random":  # its randomness is the explanation
            continue
        expected = _direct(spec[label], model, X_train, y_train, X, seed)
        np.testing.assert_allclose(A, expected, rtol=0, atol=1e-12, err_msg=label)


def test_given_attributions_are_pictured_without_explaining_the_rows(tmp_path,
                                                                      monkeypatch):
    X_train, y_train, X, _ = _data()
    model = RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0)
    model.fit(X_train, y_train)
    given = np.arange(48.0).reshape(12, 4)  # not what any explainer gives
    explained = []
    original = BaseExplainer.explain

    def counting(self, rows, **kw):
        explained.append(len(rows))
        return original(self, rows, **kw)

    monkeypatch.setattr(BaseExplainer, "explain", counting)
    section = explanation_figures(
        "ablation", model, X, tmp_path, X_train=X_train,
        explainers={"ablation": "FeatureAblation"}, attributions={"ablation": given})
    np.testing.assert_array_equal(section["attributions"], given)
    written = pd.read_csv(tmp_path / "attributions.csv", index_col="row")
    np.testing.assert_array_equal(written.to_numpy(), given)
    assert explained == [1]  # the waterfall's row only, for its base value
    # Another explainer's attributions are not the chosen one's: explained.
    explained.clear()
    section = explanation_figures(
        "ablation", model, X, tmp_path, X_train=X_train,
        explainers={"ablation": "FeatureAblation"}, attributions={"other": given})
    assert explained == [12, 1]
    shape = r"attributions\['ablation'\] has shape \(11, 4\)"
    with pytest.raises(ValueError, match=shape):
        explanation_figures("ablation", model, X, tmp_path, X_train=X_train,
                            explainers={"ablation": "FeatureAblation"},
                            attributions={"ablation": given[:11]})


def test_compare_pictures_the_chosen_explainers_own_attributions(tmp_path,
                                                                 monkeypatch):
    # The CLI hands the cells' attributions of the first seed to the
    # pictures: attributions.csv is the chosen explainer's transform of the
    # explained rows computed directly, and the rows are explained once.
    frame = load_diabetes(as_frame=True).frame.iloc[:100, [0, 2, 3, 8, -1]]
    csv = tmp_path / "diabetes.csv"
    frame.to_csv(csv, index=False)
    calls = []
    original = figures_module.explanation_figures

    def spy(results, *args, **kw):
        section = original(results, *args, **kw)
        calls.append((results, kw, section))
        return section

    monkeypatch.setattr(figures_module, "explanation_figures", spy)
    # The rest of the report (its own figures) is not what is tested here.
    monkeypatch.setattr(report_module, "write_report", lambda *args, **kw: {})
    out = tmp_path / "out"
    assert main(["compare", str(csv), "--target", "target", "--model",
                 "linear_regression", "--n-explain", "12", "--seeds", "2",
                 "--n-jobs", "1", "-q", "--out", str(out),
                 "--explainers", "feature_ablation,kernel_shap,loci",
                 "--metrics", "comprehensiveness,neg_complexity"]) == 0
    ((results, kw, section),) = calls
    label = section["explainer"]
    assert label in kw["attributions"]
    written = pd.read_csv(out / "attributions.csv", index_col="row").to_numpy()
    # The CLI's split of the file's rows: 75 training rows, 25 held out, the
    # first 12 explained.
    read = pd.read_csv(csv)
    X, y = read.drop(columns="target").to_numpy(), read["target"].to_numpy()
    X_train, X_test, y_train, _ = train_test_split(X, y, test_size=0.25, random_state=0)
    model = LinearRegression().fit(X_train, y_train)
    expected = _direct(results.spec["explainers"][label], model, X_train, y_train,
                       X_test[:12], 0)
    np.testing.assert_allclose(written, expected, rtol=1e-12, atol=1e-12)
