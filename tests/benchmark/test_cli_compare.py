"""``sklearn-xai compare``: choose what runs, fit a time budget, resume from
the cache, and end on the decision."""

import pandas as pd
import pytest
from sklearn.datasets import load_diabetes

from sklearn_xai.benchmark import _compare
from sklearn_xai.benchmark._cli import main


@pytest.fixture
def csv(tmp_path):
    """100 rows of diabetes, 4 features: 75 training rows, 25 held out."""
    frame = load_diabetes(as_frame=True).frame.iloc[:100, [0, 2, 3, 8, -1]]
    path = tmp_path / "diabetes.csv"
    frame.to_csv(path, index=False)
    return path


def _compare_cli(csv, out, *extra):
    return main(["compare", str(csv), "--target", "target", "--model",
                 "linear_regression", "--n-explain", "6", "--seeds", "1",
                 "--n-jobs", "1", "--no-figures", "-q", "--out", str(out), *extra])


def _table(out):
    return pd.read_csv(out / "results.csv")


def test_explainers_and_metrics_restrict_what_runs(tmp_path, csv, capsys):
    out = tmp_path / "out"
    assert _compare_cli(csv, out, "--explainers", "feature_ablation,KernelSHAP",
                        "--metrics", "comprehensiveness", "--metrics", "complexity") == 0
    table = _table(out)
    # The random control is kept; a class name picks the applicable spec.
    assert set(table["explainer"]) == {"random", "feature_ablation", "kernel_shap"}
    assert set(table["metric"]) == {"comprehensiveness", "neg_complexity"}
    assert len(table.drop_duplicates(["explainer", "seed"])) == 3


def test_default_metrics_are_the_decision_set(tmp_path, csv):
    out = tmp_path / "out"
    assert _compare_cli(csv, out, "--explainers", "feature_ablation") == 0
    table = _table(out)
    assert set(table["metric"]) == {"comprehensiveness", "neg_sufficiency",
                                    "faithfulness_correlation", "neg_max_sensitivity",
                                    "neg_complexity"}


def test_unknown_names_fail_before_anything_runs(tmp_path, csv, capsys):
    out = tmp_path / "out"
    assert _compare_cli(csv, out, "--explainers", "feature_ablation,shapp") == 1
    err = capsys.readouterr().err
    assert "--explainers: unknown explainer(s) ['shapp']" in err
    assert "'kernel_shap'" in err and "sklearn-xai list explainers" in err
    assert not out.exists()
    assert _compare_cli(csv, out, "--metrics", "feature_agreement") == 1
    err = capsys.readouterr().err
    assert "--metrics: unknown metric(s) ['feature_agreement']" in err
    assert "'comprehensiveness'" in err and not out.exists()


def test_a_rerun_computes_nothing(tmp_path, csv, capsys):
    out = tmp_path / "out"
    args = ("--explainers", "feature_ablation", "--metrics", "comprehensiveness")
    assert _compare_cli(csv, out, *args) == 0
    assert "2 cells (2 computed, 0 from the cache)" in capsys.readouterr().out
    assert (out / "cache").is_dir()
    assert _compare_cli(csv, out, *args) == 0
    assert "2 cells (0 computed, 2 from the cache)" in capsys.readouterr().out


def test_cache_dir_is_shared_across_output_folders(tmp_path, csv, capsys):
    cache = tmp_path / "shared_cache"
    assert _compare_cli(csv, tmp_path / "a", "--cache-dir", str(cache),
                        "--explainers", "feature_ablation",
                        "--metrics", "comprehensiveness") == 0
    capsys.readouterr()
    # One more explainer in a new output folder: only its cell is computed.
    assert _compare_cli(csv, tmp_path / "b", "--cache-dir", str(cache),
                        "--explainers", "feature_ablation,loci",
                        "--metrics", "comprehensiveness") == 0
    assert "3 cells (1 computed, 2 from the cache)" in capsys.readouterr().out
    assert not (tmp_path / "a" / "cache").exists()
    assert not (tmp_path / "b" / "cache").exists()


RUN_CONFIG = """\
name: tiny
datasets:
  linear:
    name: make_linear_attribution
    params: {n_samples: 60, n_features: 3}
models:
  lr: linear_regression
explainers:
  random: RandomExplainer
  ablation:
    name: FeatureAblation
    params:
      masker: {name: BaselineMasker, params: {value: mean}}
metrics: [neg_complexity]
seeds: [0]
n_explain: 5
"""


def test_run_takes_a_shared_cache_dir(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(RUN_CONFIG)
    cache = tmp_path / "cache"
    for out, computed in (("a", 2), ("b", 0)):
        assert main(["run", str(config), "--n-jobs", "1", "--no-figures", "-q",
                     "--out", str(tmp_path / out), "--cache-dir", str(cache)]) == 0
        assert f"2 cells ({computed} computed" in capsys.readouterr().out


def test_the_decision_is_printed_last(tmp_path, csv, capsys):
    """Skips print after the leaderboard; the decision comes after them."""
    out = tmp_path / "out"
    # The representation stability needs a hidden layer: skipped for a
    # linear model.
    assert _compare_cli(csv, out, "--explainers", "feature_ablation,loci",
                        "--metrics", "complexity,rrs") == 0
    printed = capsys.readouterr().out
    assert "skipped as not applicable" in printed
    decision = printed.index("## Decision")
    assert decision > printed.index("skipped as not applicable")
    assert decision > printed.index("Report:")
    tail = printed[decision:]
    assert "mean rank" in tail and "feature_ablation" in tail and "loci" in tail


def test_budget_cuts_seeds_then_rows_and_says_so(tmp_path, csv, capsys, monkeypatch):
    # The pilot's timings fixed (0.51 s per row and seed in all), so that the
    # plan is known: the pilot costs 0.51 * 5 rows = 2.55 s, leaving 7.45 s;
    # 2 seeds x 20 rows (20.4 s) and 1 seed x 20 rows (10.2 s) do not fit,
    # floor(7.45 / 0.51) = 14 rows do.
    monkeypatch.setattr(_compare, "_pilot_costs",
                        lambda table: {"random": 0.01, "feature_ablation": 0.5})
    out = tmp_path / "out"
    assert main(["compare", str(csv), "--target", "target", "--model",
                 "linear_regression", "--n-explain", "20", "--seeds", "2",
                 "--n-jobs", "1", "--no-figures", "-q", "--out", str(out),
                 "--explainers", "feature_ablation", "--metrics", "complexity",
                 "--budget", "10"]) == 0
    printed = capsys.readouterr().out
    assert "--budget 10: 1 seed instead of 2, 14 rows instead of 20" in printed
    table = _table(out)
    assert set(table["n_rows"]) == {14} and set(table["seed"]) == {0}
    assert "Within a budget of 10 s" in (out / "report.html").read_text()


def test_fit_budget_by_hand():
    costs = {"random": 0.0, "a": 0.375, "b": 0.125}  # 0.5 s per row and seed
    fit = _compare._fit_budget
    # 100 rows x 2 seeds on 2 workers: 0.5 * 100 * 2 / 2 = 50 s.
    assert fit(costs, 100, 2, 60, 2, keep={"random"}) == {
        "n_rows": 100, "n_seeds": 2, "dropped": [], "estimate": 50.0}
    # One seed: 25 s fits 30 s.
    assert fit(costs, 100, 2, 30, 2, keep={"random"}) == {
        "n_rows": 100, "n_seeds": 1, "dropped": [], "estimate": 25.0}
    # One seed, then floor(15 / (0.5 / 2)) = 60 rows.
    assert fit(costs, 100, 2, 15, 2, keep={"random"}) == {
        "n_rows": 60, "n_seeds": 1, "dropped": [], "estimate": 15.0}
    # 10 rows (2.5 s) still exceed 2 s: without "a" (the costliest),
    # floor(2 / (0.125 / 2)) = 32 rows fit.
    assert fit(costs, 100, 2, 2, 2, keep={"random"}) == {
        "n_rows": 32, "n_seeds": 1, "dropped": ["a"], "estimate": 2.0}
    # Never below 10 rows, never the control nor the last explainer.
    assert fit(costs, 100, 2, 0.1, 2, keep={"random"}) == {
        "n_rows": 10, "n_seeds": 1, "dropped": ["a"], "estimate": 0.625}
    # Fewer rows asked than the floor: kept as asked.
    assert fit(costs, 4, 1, 0.1, 1, keep={"random"})["n_rows"] == 4


def test_pilot_costs_by_hand():
    # Two seeds of one explainer on 5 rows, two metrics each.
    table = pd.DataFrame({
        "explainer": ["a"] * 4,
        "seed": [0, 0, 1, 1],
        "n_rows": [5] * 4,
        "explainer_fit_time": [0.5, 0.5, 1.0, 1.0],
        "explain_time": [1.0, 1.0, 2.0, 2.0],
        "metric_time": [0.25, 0.25, 1.0, float("nan")],
    })
    # Seed 0: (0.5 + 1 + 0.5) / 5 = 0.4; seed 1: (1 + 2 + 1) / 5 = 0.8.
    assert _compare._pilot_costs(table) == {"a": pytest.approx(0.6)}
