import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_xai.benchmark import (
    BenchmarkResults,
    format_leaderboard,
    leaderboard,
    metric_display_name,
    plot_leaderboard,
    rank_frequencies,
    significance_vs_control,
    write_report,
)
from sklearn_xai.benchmark._results import _holm


def _table():
    """Hand-made results: one dataset/model, two metrics, three seeds."""
    values = {
        ("acc", "good"): [0.8, 0.9, 1.0], ("acc", "random"): [0.1, 0.2, 0.3],
        ("acc", "noisy"): [0.3, 0.1, 0.2],
        ("neg_loss", "good"): [1.0, 2.0, 3.0], ("neg_loss", "random"): [5.0, 5.0, 5.0],
        ("neg_loss", "noisy"): [4.0, 6.0, 5.0],
    }
    rows = []
    for (metric, explainer), vals in values.items():
        for seed, v in enumerate(vals):
            rows.append({"dataset": "d", "model": "m", "explainer": explainer,
                         "metric": metric, "seed": seed, "value": v,
                         "greater_is_better": metric == "acc", "se": 0.1 * (seed + 1),
                         "explain_time": 1.0, "metric_time": 0.5, "n_evaluations": 10,
                         "status": "ok", "error": ""})
    rows.append({**rows[0], "seed": 3, "value": 100.0, "status": "error", "error": "boom"})
    return pd.DataFrame(rows)


def test_leaderboard_matches_hand_computed_values():
    board = leaderboard(_table()).set_index(["metric", "explainer"])
    good = board.loc[("acc", "good")]
    assert good["mean"] == pytest.approx(0.9)
    assert good["std"] == pytest.approx(np.sqrt(0.02 / 3))          # ddof=0
    assert good["se"] == pytest.approx(np.sqrt(0.02 / 3) / np.sqrt(3))
    assert good["row_se"] == pytest.approx(0.2)                      # mean of 0.1, 0.2, 0.3
    assert good["n_seeds"] == 3                                      # the error row is ignored
    assert board.loc[("acc", "random"), "mean"] == pytest.approx(0.2)
    unbiased = leaderboard(_table(), ddof=1).set_index(["metric", "explainer"])
    assert unbiased.loc[("acc", "good"), "std"] == pytest.approx(0.1)
    assert unbiased.loc[("acc", "good"), "se"] == pytest.approx(0.1 / np.sqrt(3))
    # Ranks follow the orientation: the loss ranks the lowest mean first.
    assert board.loc[("acc", "good"), "rank"] == 1
    assert board.loc[("neg_loss", "good"), "rank"] == 1
    assert board.loc[("neg_loss", "noisy"), "rank"] == 2        # 5.0 ties with random
    assert board.loc[("neg_loss", "random"), "rank"] == 2
    assert board.loc[("acc", "random"), "rank"] == 2 and board.loc[("acc", "noisy"), "rank"] == 2
    # No control: no test.
    assert board["beats_control"].isna().all()


def test_holm_adjustment_by_hand():
    # sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    np.testing.assert_allclose(_holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    np.testing.assert_allclose(_holm([0.5, np.nan, 0.01]), [0.5, np.nan, 0.02])
    assert _holm([0.9, 0.8])[0] == 1.0 or _holm([0.9, 0.8])[0] == pytest.approx(1.0)


def _per_row(rng, n_rows=40):
    frames = []
    for seed in range(3):
        base = rng.normal(size=n_rows)
        scores = {
            ("acc", "random"): base,
            ("acc", "good"): base + 0.5 + 0.3 * rng.normal(size=n_rows),
            ("acc", "noisy"): base + rng.normal(size=n_rows),
            ("neg_loss", "random"): base + 5,
            ("neg_loss", "good"): base + 4.5 + 0.3 * rng.normal(size=n_rows),
            ("neg_loss", "noisy"): base + 5 + rng.normal(size=n_rows),
        }
        for (metric, explainer), v in scores.items():
            frames.append(pd.DataFrame({"dataset": "d", "model": "m", "explainer": explainer,
                                        "metric": metric, "seed": seed,
                                        "row": np.arange(n_rows), "value": v}))
    return pd.concat(frames, ignore_index=True)


def test_significance_flags_better_explainer_not_random_like():
    per_row = _per_row(np.random.default_rng(0))
    sig = significance_vs_control(_table(), per_row, control="random")
    sig = sig.set_index(["metric", "explainer"])
    for metric in ("acc", "neg_loss"):
        assert sig.loc[(metric, "good"), "p_holm"] < 1e-6
        assert sig.loc[(metric, "noisy"), "p_holm"] > 0.05
        assert sig.loc[(metric, "good"), "paired_over"] == "rows"
        assert sig.loc[(metric, "good"), "n_pairs"] == 120
    # The pairing is by (seed, row): the same p-value as scipy on the aligned differences.
    a = per_row[(per_row.metric == "acc") & (per_row.explainer == "noisy")].value.to_numpy()
    b = per_row[(per_row.metric == "acc") & (per_row.explainer == "random")].value.to_numpy()
    expected = stats.wilcoxon(a - b, alternative="greater").pvalue
    assert sig.loc[("acc", "noisy"), "p_value"] == pytest.approx(expected)
    # Holm over the two explainers of a (dataset, model, metric).
    p = sig.loc["acc", "p_value"]
    np.testing.assert_allclose(sig.loc["acc", "p_holm"], _holm(p.to_numpy()))

    board = leaderboard(_table(), per_row, control="random").set_index(["metric", "explainer"])
    assert board.loc[("acc", "good"), "beats_control"]
    assert not board.loc[("acc", "noisy"), "beats_control"]
    assert pd.isna(board.loc[("acc", "random"), "beats_control"])
    text = format_leaderboard(board.reset_index(), control="random", fmt="markdown")
    assert "random (control)" in text and "†" in text
    assert "not significantly better than the `random` control" in text


def test_significance_over_seeds_without_per_row():
    sig = significance_vs_control(_table(), None, control="random").set_index(
        ["metric", "explainer"])
    # Three positive paired differences: exact one-sided Wilcoxon p = 1/2**3.
    assert sig.loc[("acc", "good"), "paired_over"] == "seeds"
    assert sig.loc[("acc", "good"), "p_value"] == pytest.approx(1 / 8)
    # Loss: good is lower in every seed, so it is better.
    assert sig.loc[("neg_loss", "good"), "p_value"] == pytest.approx(1 / 8)
    with pytest.raises(ValueError, match="control explainer 'nobody'"):
        significance_vs_control(_table(), None, control="nobody")


def test_rank_frequencies_by_hand():
    board = pd.DataFrame({
        "dataset": ["d1"] * 3 + ["d2"] * 3 + ["d3"] * 3, "model": "m", "metric": "x",
        "explainer": ["a", "b", "c"] * 3, "rank": [1, 2, 3, 2, 1, 3, 1, 3, 2]})
    freq = rank_frequencies(board).set_index("explainer")
    assert freq.loc["a", "top1"] == pytest.approx(2 / 3)
    assert freq.loc["a", "top2"] == pytest.approx(1.0)
    assert freq.loc["b", "top1"] == pytest.approx(1 / 3)
    assert freq.loc["c", "top2"] == pytest.approx(1 / 3)
    assert (freq["n_datasets"] == 3).all()


def test_display_names():
    assert metric_display_name("neg_sufficiency", False) == "sufficiency ↓"
    assert metric_display_name("pgi", True) == "pgi ↑"


def test_save_load_and_report(tmp_path):
    table = _table()
    results = BenchmarkResults(table, _per_row(np.random.default_rng(1)),
                               spec={"name": "hand"}, control="random", wall_time=1.0)
    paths = write_report(results, tmp_path)
    for key in ("results", "per_row", "leaderboard", "benchmark", "report_md",
                "report_html", "figure_d_m_other"):
        assert (tmp_path / paths[key].split("/")[-1]).exists() or \
            (tmp_path / "figures" / paths[key].split("/")[-1]).exists()
    md = (tmp_path / "report.md").read_text()
    assert "acc ↑" in md and "loss ↓" in md and "boom" in md
    assert "<table" in (tmp_path / "report.html").read_text()
    assert "random (control)" in md
    meta = json.loads((tmp_path / "benchmark.json").read_text())
    assert meta["control"] == "random" and "baseline" not in meta
    loaded = BenchmarkResults.load(tmp_path)
    assert loaded.control == "random"
    pd.testing.assert_frame_equal(
        loaded.leaderboard().drop(columns="beats_control"),
        results.leaderboard().drop(columns="beats_control"), check_dtype=False)
    assert (loaded.leaderboard()["beats_control"].fillna(False).to_numpy()
            == results.leaderboard()["beats_control"].fillna(False).to_numpy()).all()
    with pytest.raises(FileNotFoundError, match="No results.csv"):
        BenchmarkResults.load(tmp_path / "missing")


def test_plot_needs_a_choice_of_dataset():
    table = pd.concat([_table(), _table().assign(dataset="e")])
    board = leaderboard(table)
    with pytest.raises(ValueError, match="several datasets"):
        plot_leaderboard(board)
    fig = plot_leaderboard(board, dataset="e", error="se")
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 2


def _one_cell(values_per_seed):
    table = pd.DataFrame({"dataset": "d", "model": "m", "explainer": "a", "metric": "x",
                          "seed": range(len(values_per_seed)),
                          "value": [np.mean(v) for v in values_per_seed],
                          "greater_is_better": True, "status": "ok"})
    per_row = pd.concat([pd.DataFrame({"dataset": "d", "model": "m", "explainer": "a",
                                       "metric": "x", "seed": k, "row": range(len(v)),
                                       "value": v})
                         for k, v in enumerate(values_per_seed)], ignore_index=True)
    return table, per_row


def test_bootstrap_interval_by_hand():
    # Two rows {0, 1}: resampled means are 0, 1/2, 1 with probabilities
    # 1/4, 1/2, 1/4, so the central 95 % interval is [0, 1].
    board = leaderboard(*_one_cell([np.array([0.0, 1.0])]))
    assert board.loc[0, "ci_low"] == 0.0 and board.loc[0, "ci_high"] == 1.0
    # Constant rows: a degenerate interval at the value.
    board = leaderboard(*_one_cell([np.full(5, 0.3), np.full(5, 0.5)]))
    assert board.loc[0, "ci_low"] == pytest.approx(0.4)
    assert board.loc[0, "ci_high"] == pytest.approx(0.4)
    # Normal rows: close to the normal-theory interval of the mean over seeds.
    rng = np.random.default_rng(0)
    values = [rng.normal(size=400), rng.normal(size=400)]
    board = leaderboard(*_one_cell(values), n_bootstrap=4000)
    half = 1.96 * np.sqrt(sum(v.var() / v.size for v in values)) / 2
    center = np.mean([v.mean() for v in values])
    assert board.loc[0, "ci_low"] == pytest.approx(center - half, abs=0.15 * half)
    assert board.loc[0, "ci_high"] == pytest.approx(center + half, abs=0.15 * half)
    assert np.isnan(leaderboard(*_one_cell(values), n_bootstrap=0).loc[0, "ci_low"])
    with pytest.raises(ValueError, match="confidence"):
        leaderboard(*_one_cell(values), confidence=1.5)


def test_spec_names_its_control(tmp_path):
    from sklearn_xai.benchmark import BenchmarkSpec, load_config

    grid = {"datasets": "make_linear_attribution", "models": "linear_regression",
            "explainers": {"random": "RandomExplainer", "ablation": "FeatureAblation"},
            "metrics": "feature_agreement"}
    assert BenchmarkSpec(**grid).control_label() == "random"
    assert BenchmarkSpec(**grid, control="ablation").control_label() == "ablation"
    assert BenchmarkSpec(**grid, control=None).control_label() is None
    assert "control" in BenchmarkSpec(**grid).to_dict()
    with pytest.raises(ValueError, match="control 'nobody' is not an explainer label"):
        BenchmarkSpec(**grid, control="nobody").control_label()
    path = tmp_path / "grid.yaml"
    path.write_text("datasets: make_linear_attribution\nmodels: linear_regression\n"
                    "explainers: {random: RandomExplainer, ablation: FeatureAblation}\n"
                    "metrics: feature_agreement\ncontrol: null\n")
    assert load_config(path).control_label() is None


def test_costs_per_explained_row_by_hand():
    # Two seeds explaining 4 rows each: 2 s and 6 s, 40 and 80 model rows.
    # A whole-explanation metric scores one row; the cell explains the 4 rows
    # of its per-row metric.  Per row: (0.5 + 1.5) / 2 = 1 s, (10 + 20) / 2 = 15.
    rows = [{"dataset": "d", "model": "m", "explainer": "a", "metric": metric,
             "seed": seed, "value": 1.0, "greater_is_better": True, "status": "ok",
             "n_rows": n_rows, "explain_time": time, "n_evaluations": evals}
            for metric, n_rows in (("per_row", 4), ("global", 1))
            for seed, time, evals in ((0, 2.0, 40), (1, 6.0, 80))]
    board = leaderboard(pd.DataFrame(rows)).set_index("metric")
    for metric in ("per_row", "global"):
        assert board.loc[metric, "cost_per_row"] == pytest.approx(1.0)
        assert board.loc[metric, "evaluations_per_row"] == pytest.approx(15.0)
    assert board.loc["per_row", "n_rows"] == 4 and board.loc["global", "n_rows"] == 1
    # Without n_rows in the table: NaN, and the other columns keep their values.
    board = leaderboard(_table())
    assert board["cost_per_row"].isna().all() and board["evaluations_per_row"].isna().all()
    with pytest.raises(ValueError, match="test must be"):
        leaderboard(_table(), test="sign")


def test_leaderboard_decision_columns_with_a_control():
    per_row = _per_row(np.random.default_rng(0))
    results = BenchmarkResults(_table(), per_row, control="random")
    board = results.leaderboard().set_index(["metric", "explainer"])
    for metric in ("acc", "neg_loss"):
        # good is the best; noisy is far worse on 120 pairs; the control is
        # never tied for best (even where it ties noisy's mean).
        assert board.loc[(metric, "good"), "tied_best"]
        assert not board.loc[(metric, "noisy"), "tied_best"]
        assert pd.isna(board.loc[(metric, "random"), "tied_best"])
        assert board.loc[(metric, "noisy"), "p_vs_best"] < 1e-4
        assert board.loc[(metric, "good"), "can_reach_significance"]
    # Same noisy-vs-good p-value as scipy on the (seed, row)-aligned differences.
    good = per_row[(per_row.metric == "acc") & (per_row.explainer == "good")].value.to_numpy()
    noisy = per_row[(per_row.metric == "acc") & (per_row.explainer == "noisy")].value.to_numpy()
    expected = stats.wilcoxon(good - noisy, alternative="greater").pvalue
    assert board.loc[("acc", "noisy"), "p_vs_best"] == pytest.approx(expected)  # 1 comparison
    # 120 pairs, one comparison with the best (the smaller family).
    assert (board["n_pairs"] == 120).all() and (board["n_comparisons"] == 1).all()
    summary = results.decisions()
    assert summary["explainer"].tolist() == ["good", "noisy"]
    assert summary["n_tied_best"].tolist() == [2, 0]


def test_save_records_rows_and_digests_of_its_files(tmp_path):
    import hashlib

    table, per_row = _table(), _per_row(np.random.default_rng(0), n_rows=5)
    BenchmarkResults(table, per_row, control="random").save(tmp_path)
    record = json.loads((tmp_path / "benchmark.json").read_text())["files"]
    for name, n_rows in (("results.csv", len(table)), ("per_row.csv", 3 * 6 * 5)):
        raw = (tmp_path / name).read_bytes()
        assert record[name] == {"rows": n_rows, "sha256": hashlib.sha256(raw).hexdigest()}
        assert raw.count(b"\n") == n_rows + 1  # header and rows, no label with a newline
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checks pass silently
        BenchmarkResults.load(tmp_path)
