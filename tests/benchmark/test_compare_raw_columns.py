"""compare_explainers and ``sklearn-xai compare`` on raw DataFrames with text,
categorical and boolean columns: explainers and metrics work on the raw
columns (float codes), the model on the user's DataFrame."""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

from sklearn_xai.benchmark import applicable_explainers, compare_explainers
from sklearn_xai.benchmark._cli import main
from sklearn_xai.benchmark._rows import compare_rows
from sklearn_xai.explainers import ExactShapley, FeatureAblation
from sklearn_xai.masking import MarginalMasker
from sklearn_xai.metrics import (
    avg_sensitivity,
    local_lipschitz_estimate,
    max_sensitivity,
    relative_output_stability,
)
from sklearn_xai.utils._tabular import TabularCodec

SIZES = {"small": 0.0, "medium": 1.0, "large": 3.0}
COLORS = {"red": 0.0, "green": -1.0, "blue": 2.0}
COLUMNS = ["size", "color", "flag", "x"]


def _frame(n, seed):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "size": rng.choice(list(SIZES), n),  # strings (object)
        "color": pd.Categorical(rng.choice(list(COLORS), n),
                                categories=["red", "green", "blue"]),
        "flag": rng.random(n) < 0.4,  # booleans
        "x": rng.normal(size=n),
    })


def _target(frame):
    return (frame["size"].map(SIZES).to_numpy()
            + frame["color"].astype(str).map(COLORS).to_numpy()
            + 2.0 * frame["flag"].to_numpy() + 3.0 * frame["x"].to_numpy())


def _pipeline(final):
    encode = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False),
          ["size", "color"]),
         ("numbers", "passthrough", ["flag", "x"])])
    return Pipeline([("encode", encode), ("model", final)])


@pytest.fixture(scope="module")
def data():
    train, test = _frame(40, 0), _frame(12, 1)
    model = _pipeline(LinearRegression()).fit(train, _target(train))
    return model, train, test


def _terms(model, frame):
    """g_j(x_j) of the additive model, one column per raw column, read off the
    fitted coefficients by hand: f(x) = intercept + sum_j g_j(x_j)."""
    encode, linear = model.named_steps["encode"], model.named_steps["model"]
    coef = dict(zip(encode.get_feature_names_out(), linear.coef_))
    return np.column_stack([
        [coef[f"onehot__size_{v}"] for v in frame["size"]],
        [coef[f"onehot__color_{v}"] for v in frame["color"]],
        coef["numbers__flag"] * frame["flag"].to_numpy(dtype=float),
        coef["numbers__x"] * frame["x"].to_numpy(),
    ])


def test_compare_runs_on_a_raw_dataframe_with_a_pipeline_selecting_columns_by_name(data):
    model, train, test = data
    results = compare_explainers(
        model, test, _target(test), X_train=train, n_explain=4, seeds=[0],
        metrics=["comprehensiveness", "neg_infidelity"])
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    # Masker-based explainers and the control; LIME and gradients left out.
    assert set(table["explainer"]) == {"random", "exact_shapley", "feature_ablation",
                                       "kernel_shap", "shapley_sampling", "loci"}
    # Infidelity is arithmetic on the values: left out on coded columns.
    assert set(table["metric"]) == {"comprehensiveness"}
    # The model's score is the user's pipeline's, on the raw rows.
    assert table["model_score"].iloc[0] == pytest.approx(model.score(test[:4],
                                                                     _target(test)[:4]))


def test_attributions_per_raw_column_equal_the_additive_closed_form(data):
    model, train, test = data
    rows = compare_rows(model, test, train)
    # One float column per raw column, named as the user's.
    assert rows.X.shape == (len(test), 4) and rows.feature_names == COLUMNS
    assert list(rows.model.feature_names_in_) == COLUMNS
    background = rows.X_train[:10]
    terms_x, terms_b = _terms(model, test), _terms(model, train[:10])
    expected = terms_x - terms_b.mean(axis=0)  # phi_j = g_j(x_j) - E_b g_j(b_j)
    for explainer in (ExactShapley, FeatureAblation):
        ex = explainer(FrozenEstimator(rows.model),
                       masker=MarginalMasker(background=background)).fit(rows.X_train)
        np.testing.assert_allclose(ex.explain(rows.X), expected, atol=1e-10)


def test_the_metric_baseline_is_the_mode_of_categorical_columns_and_the_mean_of_floats(
        data):
    model, train, test = data
    rows = compare_rows(model, test, train)
    _, masker = rows.metrics(["comprehensiveness"], rows.X_train)
    baseline = np.asarray(masker["params"]["value"])
    together = pd.concat([train, test], ignore_index=True)
    size_mode = train["size"].value_counts().idxmax()
    color_mode = train["color"].value_counts().idxmax()
    flag_mode = train["flag"].value_counts().idxmax()
    assert baseline[0] == sorted(together["size"].unique()).index(size_mode)
    assert baseline[1] == ["red", "green", "blue"].index(color_mode)
    assert baseline[2] == float(flag_mode)
    assert baseline[3] == pytest.approx(train["x"].mean())
    # Decoded, the baseline row is the modes and the mean, in the user's dtypes.
    row = rows.codec.decode(baseline[None, :])
    assert row.loc[0, "size"] == size_mode and row.loc[0, "color"] == color_mode
    assert row.dtypes.to_dict() == train.dtypes.to_dict()


class _FirstColumn:
    """Explains a row by its first column (plus one): the explanation changes
    exactly where a neighbour changes column 0."""

    def explain(self, X, *, target=None, row_keys=None):
        X = np.asarray(X, dtype=np.float64)
        return np.c_[X[:, :1] + 1.0, np.zeros(len(X))]


@pytest.mark.parametrize("metric", [max_sensitivity, avg_sensitivity,
                                    local_lipschitz_estimate])
def test_noise_metrics_leave_discrete_columns_unperturbed(metric):
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(0, 3, 8).astype(float), rng.normal(size=8)]
    model = LinearRegression().fit(X, X[:, 1])
    A = _FirstColumn().explain(X)
    kw = dict(explainer=_FirstColumn(), random_state=0)
    if metric is not local_lipschitz_estimate:
        kw["radius_scale"] = "absolute"
    # Column 0 (a code) takes no noise: the explanation never changes.
    for discrete in ([0], [True, False]):
        np.testing.assert_array_equal(
            metric(model, X, A, discrete_features=discrete, **kw), 0.0)
    assert np.all(metric(model, X, A, **kw) > 0)  # noise on column 0 without it


def test_relative_output_stability_holds_discrete_columns_fixed():
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(0, 3, 6).astype(float), rng.normal(size=6)]
    model = LinearRegression().fit(X, X @ [1.0, 2.0])
    A = _FirstColumn().explain(X)
    kw = dict(explainer=_FirstColumn(), n_perturbations=20, max_neighbours=5,
              random_state=0)
    np.testing.assert_array_equal(
        relative_output_stability(model, X, A, discrete_features=[0], **kw), 0.0)
    assert np.all(relative_output_stability(model, X, A, **kw) > 0)


def test_decoding_refuses_arithmetic_on_a_category_code():
    codec = TabularCodec().fit(_frame(10, 0))
    with pytest.raises(ValueError, match=r"Column 'size' was given 0\.5[\s\S]*"
                                         "MarginalMasker"):
        codec.decode([[0.5, 0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match="Column 'flag'"):
        codec.decode([[0.0, 0.0, 0.3, 1.0]])
    assert codec.discrete_mask_.tolist() == [True, True, True, False]


def test_compare_a_classifier_pipeline_and_an_explainer_instance(data):
    _, train, test = data
    y_train = (_target(train) > 1.0).astype(int)
    model = _pipeline(LogisticRegression()).fit(train, y_train)
    results = compare_explainers(
        model, test, X_train=train, n_explain=5, seeds=[0],
        explainers={"ablation": FeatureAblation(masker=MarginalMasker(background=10))},
        metrics=["neg_sufficiency", "neg_local_lipschitz_estimate"])
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    assert set(table["explainer"]) == {"random", "ablation"}


def test_hist_gradient_boosting_with_native_categories_on_a_raw_dataframe():
    train, test = _frame(60, 0), _frame(8, 1)
    cols = ["color", "x"]
    model = HistGradientBoostingRegressor(max_iter=10, categorical_features="from_dtype")
    model.fit(train[cols], _target(train))
    assert model.is_categorical_.tolist() == [True, False]
    results = compare_explainers(
        model, test[cols], X_train=train[cols], n_explain=4, seeds=[0],
        explainers={"ablation": FeatureAblation(masker=MarginalMasker(background=10))},
        metrics=["comprehensiveness"])
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    rows = compare_rows(model, test[cols], train[cols])
    # The automatic choice: masker-based explainers; no exact tree
    # attributions (they read the model's input as floats), no LIME.
    chosen = rows.explainers(applicable_explainers(rows.model, 2))
    assert set(chosen) == {"random", "exact_shapley", "feature_ablation",
                           "kernel_shap", "shapley_sampling", "loci"}
    assert {"tree_shap", "lime"} <= set(rows.left_out)
    # Exact attributions of the whole raw-column model, per raw column.
    ex = ExactShapley(FrozenEstimator(rows.model),
                      masker=MarginalMasker(background=rows.X_train[:5])).fit(rows.X_train)
    A = ex.explain(rows.X[:3])
    assert A.shape == (3, 2)
    # Efficiency: the attributions add up to f(x) - E_b f(b), the model called
    # on the raw rows directly.
    gap = model.predict(test[cols][:3]) - model.predict(train[cols][:5]).mean()
    np.testing.assert_allclose(A.sum(axis=1), gap, atol=1e-10)


def test_cli_compares_a_csv_with_a_text_column(tmp_path, capsys, monkeypatch):
    # One metric is enough here (--metrics only filters the printed table).
    monkeypatch.setattr("sklearn_xai.benchmark._compare.applicable_metrics",
                        lambda **kw: ["comprehensiveness"])
    frame = _frame(48, 0).drop(columns=["color", "flag"])
    frame["target"] = _target(_frame(48, 0))
    path = tmp_path / "shop.csv"
    frame.to_csv(path, index=False)
    status = main(["compare", str(path), "--target", "target", "--model", "linear",
                   "--n-explain", "4", "--seeds", "1", "--n-jobs", "1",
                   "--metrics", "comprehensiveness", "--no-figures", "-q",
                   "--out", str(tmp_path / "out")])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "Text column(s) ['size'] one-hot encoded" in printed.out
    table = pd.read_csv(tmp_path / "out" / "results.csv")
    assert "feature_ablation" in set(table["explainer"])
    assert "lime" not in set(table["explainer"])
