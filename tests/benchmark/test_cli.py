import json

import pandas as pd
import pytest

from sklearn_xai.benchmark._cli import main

CONFIG = """\
name: tiny
datasets:
  linear:
    name: make_linear_attribution
    params: {n_samples: 120, n_features: 4}
models:
  lr: linear_regression
explainers:
  random: RandomExplainer
  ablation:
    name: FeatureAblation
    params:
      masker: {name: BaselineMasker, params: {value: mean}}
metrics: [feature_agreement, neg_complexity]
seeds: [0, 1]
n_explain: 15
"""


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(CONFIG)
    return path


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for text in ("Presets:", "default", "xaibench_small", "RandomExplainer",
                 "BaselineMasker", "feature_agreement", "make_linear_attribution",
                 "linear_regression"):
        assert text in out
    assert "complexity" in out and "↓" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert main(["list", "metrics"]) == 0
    out = capsys.readouterr().out
    # Grouped by family, each family's metrics under its heading.
    from sklearn_xai.metrics import metric_specs

    headings = [line.strip() for line in out.splitlines() if line.startswith("  ")
                and not line.startswith("    ")]
    families = {s.family for s in metric_specs()}
    assert {h.split(" (")[0].lower().replace(" ", "_") for h in headings} >= families
    for spec in metric_specs():
        heading_block = out.split(
            f"  {spec.family.replace('_', ' ').capitalize()} (", 1)[1].split("\n\n", 1)[0]
        assert f"    {spec.name} " in heading_block, spec.name
    assert main(["list", "presets"]) == 0
    out = capsys.readouterr().out
    assert "Explainers:" not in out and "default" in out
    assert main(["list", "nonsense"]) == 1
    assert "cannot list" in capsys.readouterr().err


def test_run_config_then_rerun_then_report(config_file, tmp_path, capsys):
    out_dir = tmp_path / "out"
    argv = ["run", str(config_file), "--out", str(out_dir), "--n-jobs", "1", "-q",
            "--no-figures"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "tiny: 4 cells (4 computed, 0 from the cache)" in out
    assert "### linear / lr" in out and "feature_agreement ↑" in out and "complexity ↓" in out
    assert "random (control)" in out
    table = pd.read_csv(out_dir / "results.csv")
    assert len(table) == 2 * 2 * 2 and (table["status"] == "ok").all()
    meta = json.loads((out_dir / "benchmark.json").read_text())
    assert meta["control"] == "random" and meta["spec"]["name"] == "tiny"
    assert (out_dir / "report.md").exists() and (out_dir / "report.html").exists()

    assert main(argv) == 0
    assert "(0 computed, 4 from the cache)" in capsys.readouterr().out

    assert main(["report", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "### linear / lr" in out
    assert (out_dir / "figures" / "linear__lr__ground_truth.png").exists()
    assert (out_dir / "figures" / "linear__lr__complexity.png").exists()


def test_run_errors_are_reported(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(CONFIG.replace("RandomExplainer", "NoSuchExplainer"))
    assert main(["run", str(bad), "--out", str(tmp_path / "o"), "-q"]) == 1
    assert "Unknown explainer 'NoSuchExplainer'" in capsys.readouterr().err
    assert main(["run", "no_such_preset", "-q"]) == 1
    assert main(["report", str(tmp_path / "nothing")]) == 1
    assert "No results.csv" in capsys.readouterr().err


def test_run_and_report_take_a_metrics_filter(config_file, tmp_path, capsys):
    out_dir = tmp_path / "out"
    argv = ["run", str(config_file), "--out", str(out_dir), "--n-jobs", "1", "-q",
            "--no-figures"]
    assert main(argv + ["--metrics", "complexity"]) == 0
    out = capsys.readouterr().out
    assert "complexity ↓" in out and "feature_agreement" not in out
    assert all(len(line) <= 100 for line in out.splitlines() if not line.startswith("Report"))
    # The report files keep every metric.
    assert "feature_agreement" in (out_dir / "report.md").read_text(encoding="utf-8")
    assert main(["report", str(out_dir), "--no-figures", "--metrics",
                 "feature_agreement,neg_complexity"]) == 0
    out = capsys.readouterr().out
    assert "feature_agreement ↑" in out and "complexity ↓" in out
    assert main(["report", str(out_dir), "--no-figures"]) == 0
    out = capsys.readouterr().out
    assert "feature_agreement ↑" in out and "complexity ↓" in out


def test_unknown_metrics_fail_before_running(config_file, tmp_path, capsys):
    out_dir = tmp_path / "never"
    assert main(["run", str(config_file), "--out", str(out_dir), "-q",
                 "--metrics", "pgi"]) == 1
    assert "--metrics: unknown metric(s) ['pgi']" in capsys.readouterr().err
    assert not out_dir.exists()


# ------------------------------------------------------------- compare
@pytest.mark.slow
def test_compare_ranks_explainers_of_a_model_trained_on_a_csv(tmp_path, capsys):
    import pandas as pd
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer(as_frame=True)
    frame = data.frame.iloc[:, list(range(6)) + [-1]]
    path = tmp_path / "cancer.csv"
    frame.to_csv(path, index=False)
    status = main(["compare", str(path), "--target", "target", "--model", "xgboost",
                   "--n-explain", "6", "--seeds", "1", "--n-jobs", "1",
                   "--metrics", "comprehensiveness", "--no-figures", "-q",
                   "--out", str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "XGBClassifier trained on" in printed
    assert "tree_shap" in printed and "comprehensiveness" in printed
    table = pd.read_csv(tmp_path / "out" / "results.csv")
    assert {"random", "tree_shap", "kernel_shap", "lime"} <= set(table["explainer"])
    assert (tmp_path / "out" / "report.html").exists()


def test_compare_names_a_missing_target(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_text("a,b\n1,2\n3,4\n")
    assert main(["compare", str(path), "--target", "y"]) == 1
    assert "--target 'y' is not a column" in capsys.readouterr().err


# ------------------------------------------------------------- --import
def test_run_imports_a_module_next_to_the_config(tmp_path, capsys):
    (tmp_path / "my_explainers.py").write_text(
        "from sklearn_xai.benchmark import register_component\n"
        "from sklearn_xai.explainers import FeatureAblation\n\n"
        "class MyAblation(FeatureAblation):\n"
        "    pass\n\n"
        "register_component(MyAblation, kind='explainer')\n")
    config = tmp_path / "mine.yaml"
    config.write_text(
        "dataset: {name: make_linear_attribution, params: {n_samples: 60}}\n"
        "models: [linear_regression]\n"
        "explainers: [RandomExplainer, MyAblation]\n"
        "metrics: [neg_complexity]\nseeds: [0]\nn_explain: 5\n")
    out = str(tmp_path / "out")
    # Without --import the name is unknown: nothing next to a config runs.
    assert main(["run", str(config), "--out", out, "-q"]) == 1
    assert "MyAblation" in capsys.readouterr().err
    # In this process (loky workers importing the module by name are checked by
    # the killed loky run of test_hostile_inputs.py, which imports its explainer
    # with --import in a fresh process).
    status = main(["run", str(config), "--import", "my_explainers", "--out", out,
                   "-q", "--no-figures", "--n-jobs", "1"])
    assert status == 0, capsys.readouterr()
    assert "MyAblation" in capsys.readouterr().out


def test_shard_size_option_and_its_errors(config_file, tmp_path, capsys, monkeypatch):
    import sklearn_xai.benchmark._runner as runner

    seen, real = {}, runner.run_benchmark

    def spy(spec, **kwargs):
        seen.update(kwargs)
        return real(spec, **kwargs)

    monkeypatch.setattr(runner, "run_benchmark", spy)
    argv = ["run", str(config_file), "--out", str(tmp_path / "o"), "--n-jobs", "1", "-q",
            "--no-figures", "--no-cache"]
    assert main(argv + ["--shard-size", "4"]) == 0
    assert seen["shard_size"] == 4 and seen["scheduler_address"] is None
    assert main(argv + ["--shard-size", "none"]) == 0
    assert seen["shard_size"] is None
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(argv + ["--shard-size", "0"])
    assert "positive number of rows" in capsys.readouterr().err


def test_cached_rerun_prints_the_stored_summary(config_file, tmp_path, capsys,
                                                monkeypatch):
    """A rerun served from the cache prints the summary stored beside the
    report, without recomputing the leaderboard; a different --metrics
    filter, or changed results, computes (and stores) it again."""
    from sklearn_xai.benchmark import _cli

    out_dir = tmp_path / "out"
    argv = ["run", str(config_file), "--out", str(out_dir), "--n-jobs", "1", "-q",
            "--no-figures"]
    assert main(argv) == 0
    first = capsys.readouterr().out.split("\n", 1)[1]  # after the cells/time line
    record = json.loads((out_dir / "report.digest.json").read_text())
    assert len(record["terminal"]) == 1

    def no_show(*args, **kwargs):
        raise AssertionError("the leaderboard was recomputed")

    monkeypatch.setattr(_cli, "_show", no_show)
    assert main(argv) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == first
    monkeypatch.undo()

    assert main(argv + ["--metrics", "feature_agreement"]) == 0
    filtered = capsys.readouterr().out
    assert "feature_agreement ↑" in filtered and "complexity ↓" not in filtered
    record = json.loads((out_dir / "report.digest.json").read_text())
    assert len(record["terminal"]) == 2

    # Changed results (a cell file removed and recomputed under another seed
    # list) give another digest: the report and the summary are rebuilt.
    changed = tmp_path / "changed.yaml"
    changed.write_text(config_file.read_text().replace("seeds: [0, 1]", "seeds: [0]"))
    assert main(["run", str(changed), "--out", str(out_dir), "--n-jobs", "1", "-q",
                 "--no-figures"]) == 0
    out = capsys.readouterr().out
    assert "tiny: 2 cells" in out and "feature_agreement ↑" in out
    record = json.loads((out_dir / "report.digest.json").read_text())
    assert len(record["terminal"]) == 1


def test_terminal_summary_prints_labels_and_errors_on_one_line():
    import io

    from sklearn_xai.benchmark import BenchmarkResults
    from sklearn_xai.benchmark._cli import _show

    rows = [{"dataset": "d", "model": "m", "explainer": e, "metric": "acc", "seed": s,
             "value": v + s, "greater_is_better": True, "status": "ok", "error": "",
             "cached": False}
            for e, v in (("random", 0.0), ("e\x1b[2J\nFAKE", 1.0)) for s in range(2)]
    rows.append({**rows[0], "explainer": "broken", "value": float("nan"),
                 "status": "error", "error": "boom\x1b[31m\nFAKE LINE"})
    out = io.StringIO()
    _show(BenchmarkResults(pd.DataFrame(rows), control="random"), 0.05, None, out)
    text = out.getvalue()
    assert "\x1b" not in text
    assert not any(line.startswith("FAKE") for line in text.splitlines())
    assert "boom [31m FAKE LINE" in text
