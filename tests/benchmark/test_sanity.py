"""Randomisation sanity checks in the runner, the report and the command line."""

import io

import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import (
    BenchmarkResults,
    BenchmarkSpec,
    run_benchmark,
    sanity_checks,
    sanity_summary,
    write_report,
)
from sklearn_xai.benchmark._cli import _show


def _table(rows):
    frame = pd.DataFrame(rows, columns=["explainer", "metric", "seed", "value"])
    frame["dataset"], frame["model"] = "d", "m"
    frame["greater_is_better"] = frame["metric"] == "efficient_mprt"
    frame["status"], frame["error"] = "ok", ""
    return frame


def test_pass_and_fail_by_the_documented_rule():
    table = _table([
        ("random", "neg_mprt", 0, 1.0), ("random", "neg_mprt", 1, 1.0),
        ("ablation", "neg_mprt", 0, 0.2), ("ablation", "neg_mprt", 1, 0.6),   # mean 0.4
        ("edge", "neg_mprt", 0, 0.5),                                        # not < 0.5
        ("ablation", "efficient_mprt", 0, 0.3), ("random", "efficient_mprt", 0, 0.0),
        ("ablation", "feature_agreement", 0, 0.9),                           # not a check
    ])
    checks = sanity_checks(BenchmarkResults(table)).set_index(["explainer", "metric"])
    assert len(checks) == 5
    assert checks.loc[("ablation", "neg_mprt"), "value"] == pytest.approx(0.4)
    assert checks.loc[("ablation", "neg_mprt"), "n_seeds"] == 2
    assert bool(checks.loc[("ablation", "neg_mprt"), "passed"])
    assert not checks.loc[("edge", "neg_mprt"), "passed"]
    assert not checks.loc[("random", "neg_mprt"), "passed"]
    assert bool(checks.loc[("ablation", "efficient_mprt"), "passed"])
    assert not checks.loc[("random", "efficient_mprt"), "passed"]    # no rise
    # A stricter threshold fails the ablation too.
    strict = sanity_checks(BenchmarkResults(table), threshold=0.3)
    assert not strict[(strict.explainer == "ablation")
                      & (strict.metric == "neg_mprt")]["passed"].item()
    lines = sanity_summary(sanity_checks(BenchmarkResults(table)))
    assert lines == ["d / m: pass: ablation; fail: edge (mprt ↓), "
                     "random (efficient_mprt ↑, mprt ↓)"]


def test_metric_labels_resolve_through_the_spec_and_errors_are_skipped():
    table = _table([("a", "my_check", 0, 0.1), ("b", "my_check", 0, 0.9)])
    table.loc[1, "status"] = "error"
    results = BenchmarkResults(table, spec={"metrics": {"my_check": {"name": "neg_mprt"}}})
    checks = sanity_checks(results)
    assert list(checks["explainer"]) == ["a"] and checks["passed"].all()
    assert sanity_checks(BenchmarkResults(_table([("a", "sparseness", 0, 0.3)]))).empty
    assert sanity_summary(sanity_checks(BenchmarkResults(_table([])))) == []


def test_threshold_is_validated():
    with pytest.raises(ValueError, match="threshold"):
        sanity_checks(BenchmarkResults(_table([])), threshold=2.0)


@pytest.fixture(scope="module")
def results():
    spec = BenchmarkSpec.from_dict({
        "dataset": {"name": "make_linear_attribution",
                    "params": {"n_samples": 200, "n_features": 4}},
        "models": {"mlp": {"name": "mlp", "params": {"hidden_layer_sizes": [8],
                                                     "max_iter": 200}}},
        "explainers": {
            "random": "RandomExplainer",
            "ablation": {"name": "FeatureAblation", "params": {
                "masker": {"name": "BaselineMasker", "params": {"value": "mean"}}}},
        },
        "metrics": ["neg_mprt", "neg_complexity"], "seeds": [0], "n_explain": 20,
    })
    return run_benchmark(spec, n_jobs=1)


def test_runner_scores_the_check_and_the_model_matters(results):
    checks = sanity_checks(results).set_index("explainer")
    # The random control draws the same attributions whatever the model.
    assert checks.loc["random", "value"] == pytest.approx(1.0)
    assert not checks.loc["random", "passed"]
    # Ablation on a randomised MLP explains a different function.
    assert checks.loc["ablation", "value"] < 0.5 and checks.loc["ablation", "passed"]


def test_report_and_terminal_show_the_checks(results, tmp_path):
    paths = write_report(results, tmp_path, figures=False, reliability=False)
    page = open(paths["report_html"], encoding="utf-8").read()
    assert '<section id="sanity">' in page and 'href="#sanity"' in page
    section = page.split('<section id="sanity">', 1)[1].split("</section>", 1)[0]
    assert "ablation" in section and "&#10003;" in section and "&#10007;" in section
    assert "mprt ↓" in section
    md = open(paths["report_md"], encoding="utf-8").read()
    assert "## Sanity checks" in md and "FAIL" in md
    out = io.StringIO()
    _show(results, 0.05, None, out)
    text = out.getvalue()
    assert "Sanity checks" in text
    assert "pass: ablation; fail: random (mprt ↓)" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_no_section_without_randomisation_metrics(tmp_path):
    table = _table([("a", "sparseness", 0, 0.3), ("b", "sparseness", 0, 0.4)])
    paths = write_report(BenchmarkResults(table, control="b"), tmp_path, figures=False,
                         reliability=False)
    assert 'id="sanity"' not in open(paths["report_html"], encoding="utf-8").read()
    assert np.isfinite(table["value"]).all()
