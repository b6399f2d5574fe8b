"""XAI-Bench presets beyond Table 1: the figure grid, the 100-feature linear
case, Table 2 (simulated wine, from a user-supplied file) and the plain ROAR
curve (metric ``roar``)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from sklearn_xai.benchmark import get_preset, run_benchmark
from sklearn_xai.benchmark.presets.xaibench import (
    ROAR_CURVE_CUTOFFS,
    WINE_PATH_VARIABLE,
    _wine_data,
    xaibench_wine,
    xaibench_wine_code,
)
from sklearn_xai.datasets import WINE_QUALITY_COLUMNS, MultivariateGaussian
from sklearn_xai.metrics import get_metric_spec, get_scorer_names

# Registers the metric ``roar`` (until sklearn_xai.metrics imports it).
from sklearn_xai.metrics import ROAR_CUTOFFS, roar, roar_curve


# --------------------------------------------------------------- the grids
def test_figure_grid_covers_the_papers_grid():
    spec = get_preset("xaibench_figure_grid")
    generators = {ds["params"]["generator"] for ds in spec.datasets.values()}
    assert generators == {"make_gaussian_linear", "make_gaussian_piecewise_constant",
                          "make_gaussian_nonlinear_additive"}
    rhos = sorted({ds["params"]["rho"] for ds in spec.datasets.values()})
    assert rhos == [0.0, 0.25, 0.5, 0.75, 0.99]
    assert len(spec.datasets) == 15
    assert {m["name"] for m in spec.models.values()} == {"linear_regression",
                                                         "decision_tree", "mlp"}
    assert set(spec.explainers) == {"random", "shap", "bf_shap", "shapr", "lime", "maple",
                                    "l2x"}
    assert {"faith_minus", "faith_plus", "mono_minus", "mono_plus"} <= set(spec.metrics)
    assert spec.seeds == [7, 8, 9]
    for ds in spec.datasets.values():
        p = ds["params"]
        assert (p["n_train"], p["n_test"], p["n_features"], p["noise"]) == (1000, 100, 5,
                                                                             0.01)


def test_linear100_has_100_features_and_no_enumerating_explainer():
    spec = get_preset("xaibench_linear100")
    assert {ds["params"]["n_features"] for ds in spec.datasets.values()} == {100}
    assert {ds["params"]["generator"] for ds in spec.datasets.values()} == {
        "make_gaussian_linear"}
    # 2**100 coalitions: no exact Shapley explainer (the paper leaves them out).
    assert "ExactShapley" not in {e["name"] for e in spec.explainers.values()}
    assert set(spec.metrics) == {"faith_minus", "mono_minus"}


def _values(results):
    table = results.table
    assert (table.status == "ok").all(), table.loc[table.status != "ok", "error"].tolist()
    return table.set_index(["dataset", "model", "explainer", "metric"])["value"]


def test_figure_grid_quick_runs_and_shap_beats_random_at_rho0():
    values = _values(run_benchmark(get_preset("xaibench_figure_grid_quick"), n_jobs=1,
                                   verbose=0))
    # SHAP of a linear regression is exact at rho = 0 (w_j (x_j - E x_j)):
    # faith- near 1, RANDOM near 0.
    for data in ("linear_rho0", "piecewise_constant_rho0"):
        shap = values[data, "linear_regression", "shap", "faith_minus"]
        assert shap > 0.9 > 0.5 > values[data, "linear_regression", "random", "faith_minus"]


def test_linear100_quick_runs():
    values = _values(run_benchmark(get_preset("xaibench_linear100_quick"), n_jobs=1,
                                   verbose=0))
    shap = values["linear100_rho0", "linear_regression", "shap", "faith_minus"]
    assert shap > 0.9
    assert abs(values["linear100_rho0", "linear_regression", "random", "faith_minus"]) < 0.3


# ---------------------------------------------------------------- the wine
def _wine_fixture(path, n=200, seed=0):
    """A synthetic file with the UCI white-wine columns (not the real data)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 11)) @ rng.normal(size=(11, 11)) + 5.0
    score = (X[:, 10] - X[:, 1]) / np.std(X[:, 10] - X[:, 1])
    quality = np.clip(np.round(6 + score + 0.3 * rng.normal(size=n)), 3, 9)
    frame = pd.DataFrame(np.column_stack([X, quality]), columns=WINE_QUALITY_COLUMNS)
    frame.to_csv(path, sep=";", index=False)
    return frame


def test_wine_preset_without_the_file_says_how_to_pass_it(monkeypatch):
    monkeypatch.delenv(WINE_PATH_VARIABLE, raising=False)
    spec = get_preset("xaibench_wine")
    assert {ds["params"]["path"] for ds in spec.datasets.values()} == {None}
    assert {ds["task"] for ds in spec.datasets.values()} == {"regression"}
    with pytest.raises(FileNotFoundError, match=WINE_PATH_VARIABLE) as info:
        _wine_data(None)
    assert "xaibench_wine(path=" in str(info.value)


def test_wine_preset_reads_the_path_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(WINE_PATH_VARIABLE, str(tmp_path / "winequality-white.csv"))
    spec = get_preset("xaibench_wine_quick")
    assert {ds["params"]["path"] for ds in spec.datasets.values()} == {
        str(tmp_path / "winequality-white.csv")}
    explicit = xaibench_wine(quick=True, path=tmp_path)
    assert {ds["params"]["path"] for ds in explicit.datasets.values()} == {str(tmp_path)}


def test_wine_data_follows_both_recipes(tmp_path):
    path = tmp_path / "winequality-white.csv"
    frame = _wine_fixture(path)
    real = frame.drop(columns="quality").to_numpy()
    knn = _wine_data(path, "knn", n_train=50, n_test=7, random_state=0)
    assert knn["data"].shape == (57, 11)
    assert knn["test_indices"].tolist() == list(range(50, 57))
    # 1-NN labels are real quality grades.
    assert set(np.unique(knn["target"])) <= set(frame["quality"])
    lin = _wine_data(path, "linear", n_train=50, n_test=7, random_state=0)
    # The code's recipe: standardised real rows (scaler on all rows,
    # population std), 99 % kept; Gaussian with their mean and covariance.
    Z = (real - real.mean(axis=0)) / real.std(axis=0)
    cov = lin["distribution"].cov
    assert cov.shape == (11, 11)
    assert np.allclose(np.diag(cov), np.diag(np.cov(Z, rowvar=False)), rtol=0.05)
    assert lin["data"].shape == (57, 11) and lin["ground_truth"].shape == (57, 11)


@pytest.mark.slow
def test_wine_preset_runs_on_a_fixture_file(tmp_path):
    path = tmp_path / "winequality-white.csv"
    _wine_fixture(path)
    values = _values(run_benchmark(xaibench_wine(quick=True, path=path), n_jobs=1,
                                   verbose=0))
    for data in ("wine_knn", "wine_linear_code"):
        assert values[data, "tree", "shap", "shapley_corr"] > \
            values[data, "tree", "random", "shapley_corr"]



def test_wine_code_preset_takes_the_scripts_data_and_the_code_switches(tmp_path):
    # other/model_wine_experiment.py: the linear label on the wine Gaussian,
    # run through the experiment code of Table 1 (its switches).
    spec = xaibench_wine_code(path=tmp_path)
    assert list(spec.datasets) == ["wine_linear_code"]
    params = spec.datasets["wine_linear_code"]["params"]
    assert (params["labels"], params["convention"], params["n_train"], params["n_test"],
            params["path"]) == ("linear", "xai_bench_code", 1000, 100, str(tmp_path))
    metrics = spec.metrics
    assert set(metrics) == {"faith_minus", "faith_plus", "mono_minus", "mono_plus",
                            "shapley_corr", "neg_shapley_mse", "neg_infidelity"}
    for name in ("mono_minus", "mono_plus"):
        assert metrics[name]["params"] == {"empty_value": "explained_mean",
                                           "convention": "xai_bench_code"}
    for name in ("faith_minus", "faith_plus"):
        assert metrics[name]["params"]["convention"] == "xai_bench_code"
        assert metrics[name]["params"]["empty_value"] == "explained_mean"
    assert metrics["neg_infidelity"]["params"]["convention"] == "xai_bench_code"
    assert metrics["shapley_corr"]["params"]["n_draws"] == 1000
    assert set(spec.explainers) == {"random", "shap", "shapr", "lime", "maple", "l2x"}
    assert spec.models == {"tree": {"name": "decision_tree", "params": {}}}
    assert spec.seeds == [7, 8, 9]


def test_wine_code_preset_runs_on_a_fixture_file(tmp_path):
    path = tmp_path / "winequality-white.csv"
    _wine_fixture(path)
    values = _values(run_benchmark(xaibench_wine_code(quick=True, path=path), n_jobs=1,
                                   verbose=0))
    assert values["wine_linear_code", "tree", "shap", "shapley_corr"] > \
        values["wine_linear_code", "tree", "random", "shapley_corr"]

# ----------------------------------------------------------- the ROAR curve
def _hand_roar(model, X, A, y, X_train, y_train, A_train, cutoffs):
    """Remove-and-retrain written out row by row: independent standard
    normal features, so the conditional mean of a removed feature is 0."""
    d = X.shape[1]
    errors = []
    for c in cutoffs:
        k = int(c * d + 1e-9)
        Xt, Xe = X_train.copy(), X.copy()
        for Z, W in ((Xt, A_train), (Xe, A)):
            for i in range(len(Z)):
                Z[i, np.argsort(-np.abs(W[i]), kind="stable")[:k]] = 0.0
        refit = clone(model).fit(Xt, y_train)
        errors.append(np.mean(np.abs(y - refit.predict(Xe))))
    return np.array(errors)


@pytest.fixture(scope="module")
def linear_problem():
    dist = MultivariateGaussian.equicorrelated(5, rho=0.0)
    X = dist.sample(300, random_state=1)
    rng = np.random.default_rng(2)
    y = X @ np.array([5.0, -4.0, 3.0, 2.0, 1.0]) + 0.1 * rng.normal(size=300)
    model = LinearRegression().fit(X[:200], y[:200])
    A = model.coef_ * X  # exact Shapley values (mean 0)
    return dict(model=model, dist=dist, X=X[200:], y=y[200:], A=A[200:],
                X_train=X[:200], y_train=y[:200], A_train=A[:200])


def test_roar_curve_matches_a_row_by_row_computation(linear_problem):
    p = linear_problem
    cutoffs, errors = roar_curve(p["model"], p["X"], p["A"], y=p["y"],
                                 X_train=p["X_train"], y_train=p["y_train"],
                                 attributions_train=p["A_train"], distribution=p["dist"])
    assert cutoffs.tolist() == list(ROAR_CUTOFFS) == list(ROAR_CURVE_CUTOFFS)
    expected = _hand_roar(p["model"], p["X"], p["A"], p["y"], p["X_train"], p["y_train"],
                          p["A_train"], ROAR_CUTOFFS)
    np.testing.assert_allclose(errors, expected, rtol=1e-10, atol=1e-12)
    # int(c * 5) = 0, 0, 1, 2, 3, 4 features removed: the first two points
    # coincide, and removing the top features of an exact explanation
    # raises the error well above the noise level.
    assert errors[0] == errors[1] < 0.1 and errors[2:].min() > 5 * errors[1]


def test_roar_is_the_trapezoid_area_and_at_gives_one_point(linear_problem):
    p = linear_problem
    kw = dict(X_train=p["X_train"], y_train=p["y_train"], attributions_train=p["A_train"],
              distribution=p["dist"], y=p["y"])
    c, e = roar_curve(p["model"], p["X"], p["A"], **kw)
    area = sum((c[i + 1] - c[i]) * (e[i + 1] + e[i]) / 2 for i in range(len(c) - 1))
    assert roar(p["model"], p["X"], p["A"], **kw) == pytest.approx(area, rel=1e-12)
    assert roar(p["model"], p["X"], p["A"], at=0.5, **kw) == pytest.approx(e[3], rel=1e-12)
    # Without labels the error is measured against the model's own output:
    # nothing removed, a refit linear regression reproduces it.
    kw.pop("y")
    assert roar(p["model"], p["X"], p["A"], at=0.0, **kw) < 1e-10


def test_roar_ranks_an_exact_explanation_above_a_reversed_one(linear_problem):
    p = linear_problem
    kw = dict(X_train=p["X_train"], y_train=p["y_train"], distribution=p["dist"], y=p["y"])
    good = roar(p["model"], p["X"], p["A"], attributions_train=p["A_train"], **kw)
    bad = roar(p["model"], p["X"], 1 / np.abs(p["A"]),
               attributions_train=1 / np.abs(p["A_train"]), **kw)
    assert good > bad


def test_roar_with_a_tree_and_a_masker_draw_runs():
    from sklearn_xai.masking import ConditionalMasker

    dist = MultivariateGaussian.equicorrelated(4, rho=0.5)
    X = dist.sample(120, random_state=0)
    y = X[:, 0] + 2 * X[:, 1]
    model = DecisionTreeRegressor(random_state=0).fit(X[:100], y[:100])
    A = np.tile([1.0, 2.0, 0.1, 0.0], (120, 1))
    kw = dict(X_train=X[:100], y_train=y[:100], attributions_train=A[:100],
              masker=ConditionalMasker(dist, n_draws=1), random_state=0)
    first = roar(model, X[100:], A[100:], **kw)
    assert np.isfinite(first) and first == roar(model, X[100:], A[100:], **kw)


def test_roar_is_registered_per_data_set():
    assert "roar" in get_scorer_names()
    spec = get_metric_spec("roar")
    assert spec.greater_is_better and not spec.per_instance
    assert "training_data" in spec.requires


@pytest.mark.parametrize("cutoffs", [(), (0.5, 0.1), (0.0, 1.0)])
def test_roar_rejects_bad_cutoffs(linear_problem, cutoffs):
    p = linear_problem
    with pytest.raises(ValueError, match="cutoffs"):
        roar_curve(p["model"], p["X"], p["A"], X_train=p["X_train"], y_train=p["y_train"],
                   attributions_train=p["A_train"], distribution=p["dist"],
                   cutoffs=cutoffs)


def test_roar_curve_quick_runs():
    spec = get_preset("xaibench_roar_curve_quick")
    assert set(spec.metrics) == {"roar", "roar_error_50"}
    values = _values(run_benchmark(spec, n_jobs=1, verbose=0))
    assert values["piecewise_constant", "mlp", "shap", "roar"] > \
        values["piecewise_constant", "mlp", "random", "roar"]


def test_table1_code_preset_takes_the_codes_maple_and_tie_order():
    # custom_explainers/maple.py selects features on a validation fifth of the
    # training rows; the code orders tied features by np.argsort(|a|)[::-1].
    code, paper = (get_preset(name) for name in ("xaibench_table_metrics_code",
                                                  "xaibench_table_metrics"))
    assert code.explainers["maple"]["params"]["convention"] == "xai_bench_code"
    assert "convention" not in paper.explainers["maple"]["params"]
    # the code's label functions and per-batch normalisation of the data
    for spec, want in ((code, "xai_bench_code"), (paper, None)):
        for dataset in spec.datasets.values():
            assert dataset["params"].get("convention") == want
    for name in ("mono_plus", "roar_faith_plus", "roar_faith_minus", "roar_mono_plus"):
        assert code.metrics[name]["params"]["convention"] == "xai_bench_code"
        assert "convention" not in paper.metrics[name]["params"]
