"""The benchmark report: one self-contained HTML page, tables and figures per
metric family, grouped failures, and terminal tables within 100 columns."""

import html.parser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import (
    BenchmarkResults,
    format_leaderboard,
    write_report,
)
from sklearn_xai.benchmark._cli import main
from sklearn_xai.benchmark._report import (
    TERMINAL_WIDTH,
    _abbreviations,
    _family_groups,
    _metric_family,
    _with_families,
)
from sklearn_xai.metrics import get_metric_spec

ROOT = Path(__file__).resolve().parents[2]

# The default preset's metrics (label -> scorer name).
METRICS = {
    "feature_agreement": "feature_agreement", "rank_correlation": "rank_correlation",
    "comprehensiveness": "comprehensiveness", "neg_sufficiency": "neg_sufficiency",
    "neg_complexity": "neg_complexity", "sparseness": "sparseness",
    "shapley_corr": "shapley_corr", "faith_plus": "faith_plus",
    "faith_minus": "faith_minus", "mono_plus": "mono_plus", "mono_minus": "mono_minus",
    "pgi": "pgi", "neg_pgu": "neg_pgu",
}
EXPLAINERS = ["random", "ablation", "exact_shapley", "kernel_shap", "lime",
              "integrated_gradients", "shapley_value_sampling", "smooth_grad"]
MODELS = ["linear", "mlp"]
SEEDS = [0, 1, 2]


def _results():
    """Synthetic results shaped like the default preset's, with 13 metrics
    and 8 explainers, one explainer failure, one metric failure and one
    skipped metric."""
    rng = np.random.default_rng(0)
    rows = []
    for model in MODELS:
        for e, explainer in enumerate(EXPLAINERS):
            for seed in SEEDS:
                for label, name in METRICS.items():
                    row = {
                        "dataset": "gaussian_linear", "model": model,
                        "explainer": explainer, "explainer_class": explainer.title(),
                        "metric": label, "metric_name": name, "seed": seed,
                        "value": 0.1 * e + rng.normal(0, 0.02),
                        "greater_is_better": not label.startswith("neg_"),
                        "se": 0.01, "n_rows": 50, "n_nan": 0,
                        "explain_time": 0.01 * (e + 1), "metric_time": 0.001,
                        "n_evaluations": 100 * e, "model_score": 0.9,
                        "explainer_fit_time": 0.0, "model_fit_time": 0.0,
                        "status": "ok", "error": "", "failed_in": "", "warnings": "",
                        "cached": False,
                    }
                    if explainer == "lime" and model == "mlp" and seed == 2:
                        row.update(status="error", value=np.nan, failed_in="explainer",
                                   error="LinAlgError: Singular matrix")
                    elif explainer == "kernel_shap" and label == "pgi":
                        row.update(status="error", value=np.nan, failed_in="metric",
                                   error="ValueError: boom")
                    elif label == "shapley_corr" and model == "mlp":
                        row.update(status="skipped", value=np.nan,
                                   error="needs exact Shapley values of a linear model")
                    rows.append(row)
    table = pd.DataFrame(rows)
    spec = {"name": "synthetic", "description": "Made-up scores.",
            "datasets": {"gaussian_linear": {"name": "make_gaussian_linear"}},
            "models": {"linear": {"name": "linear_regression"}, "mlp": {"name": "mlp"}},
            "explainers": {e: {"name": e.title()} for e in EXPLAINERS},
            "metrics": {k: {"name": v} for k, v in METRICS.items()},
            "seeds": SEEDS, "n_explain": 50}
    return BenchmarkResults(table, spec=spec, control="random", wall_time=12.5)


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.tables, self.images, self.refs = [], [], [], []
        self.stack, self.rows, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.stack.append((tag, attrs.get("class", "")))
        if tag == "table":
            self.tables.append({"class": attrs.get("class", ""), "rows": [],
                                "in_details": any(t == "details" for t, _ in self.stack)})
        if tag == "tr":
            self.tables[-1]["rows"].append([])
        if tag in ("td", "th"):
            self.text = []
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        for name in ("src", "href"):
            if attrs.get(name) is not None:
                self.refs.append(attrs[name])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.tables:
            self.tables[-1]["rows"][-1].append("".join(self.text).strip())
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        self.text.append(data)


def _parse(path):
    page = _Page()
    page.feed(Path(path).read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    import matplotlib

    matplotlib.use("Agg")
    folder = tmp_path_factory.mktemp("report")
    results = _results()
    paths = write_report(results, folder)
    return results, folder, paths, _parse(paths["report_html"])


def test_families_come_from_the_metric_registry():
    assert _metric_family("pgi") == "faithfulness"
    assert _metric_family("feature_agreement") == "ground_truth"
    assert _metric_family("neg_complexity") == "complexity"
    assert _metric_family("neg_group_gap") == "fairness"
    assert _metric_family("no_such_metric") == "other"
    board = pd.DataFrame({"dataset": "d", "model": "m", "metric": list(METRICS)})
    groups = _family_groups(_with_families(board))
    # Titled families in order of first appearance, each metric once.
    assert [g for g, _ in groups] == ["Ground truth", "Faithfulness", "Complexity"]
    assert sorted(m for _, ms in groups for m in ms) == sorted(METRICS)
    for title, metrics in groups:
        for metric in metrics:
            family = get_metric_spec(metric).family
            assert title == family.replace("_", " ").capitalize()
    # A metric labelled differently is looked up by its scorer name.
    table = pd.DataFrame({"metric": ["pgi_k3"], "metric_name": ["pgi"]})
    relabelled = _with_families(pd.DataFrame({"metric": ["pgi_k3"]}), table)
    assert relabelled["family"].tolist() == ["faithfulness"]


def test_html_is_one_self_contained_page(report):
    results, folder, paths, page = report
    # No file outside the page: figures are data: URIs, links are anchors.
    assert page.refs and all(r.startswith(("#", "data:")) for r in page.refs)
    assert "script" not in page.tags and "link" not in page.tags
    text = Path(paths["report_html"]).read_text(encoding="utf-8")
    assert "<style>" in text and "system-ui" in text and "tabular-nums" in text
    assert "border-collapse: collapse" in text and "nth-child(even)" in text
    # The header summarises the run.
    for item in ("Datasets", "Models", "Explainers", "Metrics (13)", "Seeds",
                 "Explained rows", "Wall time", "12.5 s", "integrated_gradients"):
        assert item in text
    # One embedded figure per (dataset, model, family) and one leaderboard
    # table, two for faithfulness, whose 8 metrics exceed the 7 of a table.
    boards = [t for t in page.tables if "board" in t["class"].split()]
    assert len(boards) == 2 * (3 + 1)
    assert max(len(t["rows"][0]) for t in boards) <= 1 + 7
    assert len([src for src in page.images if src.startswith("data:image/png;base64,")]) \
        >= 2 * 3
    first = boards[0]["rows"]
    # Headers: the metric in its orientation (‡ when no test can reach alpha).
    header = [h.replace("\xa0", " ").replace(" ‡", "") for h in first[0]]
    assert header[:3] == ["explainer", "feature_agreement ↑", "rank_correlation ↑"]
    assert len(first) == 1 + len(EXPLAINERS)
    assert any(r[0].startswith("random") and "control" in r[0] for r in first)
    # Cells never wrap: "mean ± std" is one cell of a nowrap, right-aligned column.
    assert all(" ± " in cell for row in first[1:] for cell in row[1:])
    assert 'tr class="control"' in text and "<strong>" in text
    assert "<strong>Bold</strong>" in text         # the legend explains bold
    # Decision tables: one per (dataset, model), the control last.
    decisions = [t for t in page.tables if "decision" in t["class"].split()]
    assert len(decisions) == 2
    assert decisions[0]["rows"][-1][0].startswith("random")
    # The CSV/JSON files are still written, and the figures as PNG files.
    for name in ("results.csv", "per_row.csv", "leaderboard.csv", "benchmark.json",
                 "report.md"):
        assert (folder / name).exists()
    assert (folder / "figures" / "gaussian_linear__linear__ground_truth.png").exists()
    assert (folder / "figures" / "gaussian_linear__mlp__faithfulness.png").exists()
    assert os.path.exists(paths["figure_gaussian_linear_linear_faithfulness"])
    # One rendering per (dataset, model, family): report.md shows the same files.
    assert sorted(p.name for p in (folder / "figures").glob("*.png")) == sorted(
        f"gaussian_linear__{m}__{f}.png" for m in MODELS
        for f in ("ground_truth", "faithfulness", "complexity"))


def test_failures_grouped_with_counts_and_skips_apart(report):
    results, _, _, page = report
    failures = [t for t in page.tables if t["class"] == "failures"]
    assert len(failures) == 1 and not failures[0]["in_details"]
    header, *rows = failures[0]["rows"]
    assert header[:5] == ["explainer", "metric", "error", "scores", "cells"]
    by_key = {(r[0], r[1], r[2]): r for r in rows}
    # lime failed in its explainer (mlp, seed 2): the 13 metrics of that
    # cell, one group.
    lime = by_key[("lime", "all", "LinAlgError: Singular matrix")]
    assert lime[3:5] == ["13", "1"] and lime[6] == "2"
    # kernel_shap's pgi failed in the metric: 2 models x 3 seeds.
    pgi = by_key[("kernel_shap", "pgi", "ValueError: boom")]
    assert pgi[3:5] == ["6", "6"] and pgi[5] == "gaussian_linear / linear, gaussian_linear / mlp"
    assert len(rows) == 2
    assert sum(int(r[3]) for r in rows) == int((results.table["status"] == "error").sum())
    # The expected skips are in a collapsed <details>, not among the failures.
    skips = [t for t in page.tables if t["class"] == "skips"]
    assert len(skips) == 1 and skips[0]["in_details"]
    (metric, reason, count, where), = skips[0]["rows"][1:]
    assert (metric, count, where) == ("shapley_corr", str(len(EXPLAINERS) * 3 - 1),
                                      "gaussian_linear / mlp")
    assert "linear model" in reason
    assert "shapley_corr" not in {r[1] for r in rows}


def test_report_md_has_the_tables_by_family(report):
    _, folder, _, _ = report
    md = (folder / "report.md").read_text(encoding="utf-8")
    for title in ("### gaussian_linear / linear — Ground truth",
                  "### gaussian_linear / mlp — Faithfulness",
                  "### gaussian_linear / mlp — Complexity",
                  "## Failures", "## Skipped as not applicable",
                  "![gaussian_linear / linear: Faithfulness]"
                  "(figures/gaussian_linear__linear__faithfulness.png)"):
        assert title in md


def test_decision_section_with_one_explainer_besides_the_control(tmp_path):
    """One explainer and the control: ranked, the note says why no test is
    run, no critical-difference diagram."""
    import matplotlib

    matplotlib.use("Agg")
    results = _results()
    # Two metrics of two families keep the figures (drawn, to show that no
    # diagram is among them) small: the decision is made on any metrics.
    table = results.table[results.table["explainer"].isin(["random", "ablation"])
                          & results.table["metric"].isin(["feature_agreement", "pgi"])]
    results = BenchmarkResults(table.reset_index(drop=True), spec=results.spec,
                               control="random")
    paths = write_report(results, tmp_path, figures=True)
    text = Path(paths["report_html"]).read_text(encoding="utf-8")
    page = _parse(paths["report_html"])
    decisions = [t for t in page.tables if "decision" in t["class"].split()]
    assert len(decisions) == 2                       # one per model
    for table in decisions:
        rows = {r[0]: r for r in table["rows"][1:]}
        assert set(rows) == {"ablation", "random control"}
        assert float(rows["ablation"][1]) == 1.0     # mean rank 1 of 1
        assert rows["random control"][1] == "–"      # the control is never ranked
    assert "needs at least 3 explainers, got 1" in text
    assert "critical difference diagram" not in text


def test_decision_section_has_the_friedman_test_and_the_diagram(report):
    """Eight explainers: the Friedman test and the critical-difference
    diagram are shown."""
    _, _, paths, page = report
    text = Path(paths["report_html"]).read_text(encoding="utf-8")
    assert "Friedman" in text
    assert "critical difference diagram" in text


@pytest.fixture(scope="module")
def board():
    """The leaderboard of :func:`_results` with its families, computed once
    for the tests that format it (format_leaderboard does not change it)."""
    results = _results()
    return _with_families(results.leaderboard(n_bootstrap=0), results.table)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_terminal_tables_fit_in_100_columns(board, fmt):
    before = board.copy()
    text = format_leaderboard(board, fmt=fmt, control="random")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= TERMINAL_WIDTH
    # Split by family, then by metric within the faithfulness family.
    assert "gaussian_linear / linear — Ground truth" in text
    assert "gaussian_linear / linear — Complexity" in text
    assert "gaussian_linear / linear — Faithfulness (1 of " in text
    for name in ("feature_agreement ↑", "complexity ↓", "pgu ↓", "mono_minus ↑"):
        assert text.count(name) == 2                 # once per model
    # Long explainer labels are abbreviated, and the abbreviations listed.
    assert "shap_valu_samp" in text and "shap_valu_samp = shapley_value_sampling" in text
    assert "random (control)" in text
    # Without a width limit: one table per (dataset, model), full labels.
    wide = format_leaderboard(board, fmt=fmt, control="random", max_width=None)
    assert "Ground truth" not in wide and "shapley_value_sampling" in wide
    assert max(len(line) for line in wide.splitlines()) > TERMINAL_WIDTH
    pd.testing.assert_frame_equal(board, before)  # the shared board is unchanged


def test_narrow_tables_are_not_split(board):
    text = format_leaderboard(board, fmt="markdown", control="random",
                              metrics=["feature_agreement", "complexity"])
    assert "### gaussian_linear / linear\n" in text and "—" not in text
    assert "feature_agreement ↑" in text and "complexity ↓" in text
    assert "pgi" not in text
    with pytest.raises(ValueError, match="Unknown metric"):
        format_leaderboard(board, metrics="nope")


def test_abbreviations_are_unique_and_short():
    labels = ["integrated_gradients", "integrated_gradients_smooth", "lime",
              "a_very_long_single_explainer_name"]
    short = _abbreviations(labels, 16)
    assert short["lime"] == "lime"
    assert short["integrated_gradients"] == "inte_grad"
    assert short["integrated_gradients_smooth"] == "inte_grad_smoo"
    assert len(set(short.values())) == len(labels)
    assert all(len(s) <= 16 for s in short.values())
    assert _abbreviations(["integrated_gradients"], 20) == {
        "integrated_gradients": "integrated_gradients"}


def test_cli_report_fits_and_filters(report, tmp_path, capsys):
    # The results as saved with the shared report (write_report saves them).
    _, folder, _, _ = report
    for name in ("results.csv", "per_row.csv", "benchmark.json"):
        shutil.copy(folder / name, tmp_path / name)
    assert main(["report", str(tmp_path), "--no-figures"]) == 1   # scores failed
    out = capsys.readouterr().out
    board_lines = out.split("scores skipped")[0].splitlines()
    assert max(len(line) for line in board_lines) <= TERMINAL_WIDTH
    assert "— Faithfulness (1 of" in out
    assert main(["report", str(tmp_path), "--no-figures", "--metrics",
                 "pgi,complexity", "--metrics", "sparseness"]) == 1
    out = capsys.readouterr().out
    assert "pgi ↑" in out and "complexity ↓" in out and "sparseness ↑" in out
    assert "feature_agreement" not in out.split("scores skipped")[0]
    assert main(["report", str(tmp_path), "--metrics", "nope"]) == 1
    assert "unknown metric(s) ['nope']" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser")
                    is None, reason="needs Chromium")
def test_render_report_in_headless_chromium(tmp_path):
    """benchmarks/render_report.py runs the quick default preset, renders
    report.html in headless Chromium and checks its tables and figures."""
    shot = tmp_path / "shot.png"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "render_report.py"),
         "--screenshot", str(shot)], capture_output=True, text=True, timeout=1200,
        cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All checks passed." in done.stdout
    assert shot.exists() and shot.stat().st_size > 10_000
