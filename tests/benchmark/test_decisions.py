"""Decisions of the leaderboard: tied for best, reachability, Friedman test,
Nemenyi critical difference and the critical-difference diagram.

Expected values are hand computations, Demšar (2006)'s published numbers or
scipy called directly, never the code's own output."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from sklearn_xai.benchmark import (  # noqa: E402
    BenchmarkResults,
    decision_summary,
    leaderboard,
    plot_critical_difference,
    plot_leaderboard,
    significance_note,
)
from sklearn_xai.benchmark._decisions import (  # noqa: E402
    _critical_difference,
    _min_p_value,
    _nemenyi_q,
    _select_pair,
)


def _scores(per_explainer, *, metric="x", greater_is_better=True, dataset="d",
            model="m"):
    """Table and per-row scores of one (dataset, model, metric): explainer ->
    (n_seeds, n_rows) array of per-row scores."""
    rows, frames = [], []
    for explainer, values in per_explainer.items():
        values = np.atleast_2d(np.asarray(values, dtype=float))
        for seed, v in enumerate(values):
            rows.append({"dataset": dataset, "model": model, "explainer": explainer,
                         "metric": metric, "seed": seed, "value": v.mean(),
                         "greater_is_better": greater_is_better, "n_rows": v.size,
                         "status": "ok"})
            frames.append(pd.DataFrame({"dataset": dataset, "model": model,
                                        "explainer": explainer, "metric": metric,
                                        "seed": seed, "row": np.arange(v.size),
                                        "value": v}))
    return pd.DataFrame(rows), pd.concat(frames, ignore_index=True)


def test_tied_best_identical_and_clearly_worse():
    best = np.linspace(1.0, 3.0, 20)
    table, per_row = _scores({
        "best": best,
        "same": best.copy(),                                   # identical to the best
        "worse": best - np.arange(1, 21) * 0.1,               # lower on every row
    })
    board = leaderboard(table, per_row).set_index("explainer")
    assert board["tied_best"].tolist() == [True, True, False]
    # 20 distinct positive differences: the exact one-sided Wilcoxon p-value
    # is 1/2**20; "same" has p = 1 (all differences zero).  Holm over the two:
    # min(1, 2 * 2**-20) and max(2 * 2**-20, 1 * 1) = 1.
    assert board.loc["worse", "p_vs_best"] == pytest.approx(2 * 2.0 ** -20)
    assert board.loc["same", "p_vs_best"] == 1.0
    assert np.isnan(board.loc["best", "p_vs_best"])
    assert (board["paired_over"] == "rows").all() and (board["n_pairs"] == 20).all()
    assert (board["n_comparisons"] == 2).all()
    assert board["can_reach_significance"].all()
    # A loss: the same scores negated, lower is better; the decisions agree.
    table, per_row = _scores({"best": -best, "same": -best,
                              "worse": -(best - np.arange(1, 21) * 0.1)},
                             greater_is_better=False)
    loss = leaderboard(table, per_row).set_index("explainer")
    assert loss["tied_best"].tolist() == [True, True, False]
    assert loss.loc["worse", "p_vs_best"] == pytest.approx(2 * 2.0 ** -20)


def test_holm_correction_over_three_explainers_by_hand():
    # Differences best - other on 6 rows, ranks 1..6:
    #   b: all positive                  -> T+ = 21, p = 1/64
    #   c: rank 1 negative               -> T+ = 20, p = #{S: sum(S) <= 1}/64 = 2/64
    #   e: rank 2 negative               -> T+ = 19, p = #{S: sum(S) <= 2}/64 = 3/64
    # Holm: 3 * 1/64 = 3/64, max(3/64, 2 * 2/64) = 4/64, max(4/64, 3/64) = 4/64.
    # Uncorrected, all three are below 0.05; corrected, only b is.
    best = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    d = np.arange(1.0, 7.0)
    table, per_row = _scores({
        "a": best, "b": best - d, "c": best - d * [-1, 1, 1, 1, 1, 1],
        "e": best - d * [1, -1, 1, 1, 1, 1]})
    board = leaderboard(table, per_row).set_index("explainer")
    assert board.loc["b", "p_vs_best"] == pytest.approx(3 / 64)
    assert board.loc["c", "p_vs_best"] == pytest.approx(4 / 64)
    assert board.loc["e", "p_vs_best"] == pytest.approx(4 / 64)
    assert board["tied_best"].to_dict() == {"a": True, "b": False, "c": True, "e": True}
    # The raw p-values, by scipy directly, are the hand values.
    assert stats.wilcoxon(d * [-1, 1, 1, 1, 1, 1], alternative="greater").pvalue \
        == pytest.approx(2 / 64)
    assert board["can_reach_significance"].all()                 # 3 * 1/64 < 0.05


def test_control_is_never_tied_best_nor_ranked_in_decisions():
    # The control has the best mean: it keeps its numeric rank 1 on the board
    # but is neither tied for best nor the reference of the tests.
    rng = np.random.default_rng(0)
    base = rng.normal(size=30)
    table, per_row = _scores({"random": base + 100.0, "a": base + 1.0,
                              "b": base + 1.0 - 0.5 * np.arange(1, 31) / 30})
    board = leaderboard(table, per_row, control="random").set_index("explainer")
    assert board.loc["random", "rank"] == 1
    assert pd.isna(board.loc["random", "tied_best"])
    assert bool(board.loc["a", "tied_best"]) and not bool(board.loc["b", "tied_best"])
    assert np.isnan(board.loc["random", "p_vs_best"])
    summary = decision_summary(board.reset_index(), control="random")
    assert "random" not in set(summary["explainer"])
    assert summary["mean_rank"].tolist() == [1.0, 2.0]
    # The board remembers its control.
    assert decision_summary(board.reset_index())["explainer"].tolist() == ["a", "b"]


def test_wilcoxon_reachability_by_hand():
    # 5 rows, 1 seed, 3 explainers: 2 comparisons with the best.  The
    # smallest exact one-sided Wilcoxon p-value is 1/2**5 = 0.03125, and
    # Holm needs 2 * 0.03125 = 0.0625 < 0.05: unreachable, so even an
    # explainer lower on every row stays tied for best.
    best = np.arange(1.0, 6.0)
    table, per_row = _scores({"a": best, "b": best - np.arange(1, 6),
                              "c": best - 2 * np.arange(1, 6)})
    board = leaderboard(table, per_row)
    assert (board["min_p_value"] == 1 / 32).all()
    assert (board["n_comparisons"] == 2).all()
    assert not board["can_reach_significance"].any()
    assert board["tied_best"].all()
    note = significance_note(board, alpha=0.05)
    assert note == ["With 5 rows and 1 seed no difference can be significant at "
                    "alpha=0.05 after correction for 2 comparisons: run more rows or "
                    "seeds (d / m: x)."]
    # At alpha = 0.1 the same run can reach it (0.0625 < 0.1).
    assert significance_note(board, alpha=0.1) == []
    assert leaderboard(table, per_row, alpha=0.1)["can_reach_significance"].all()
    # 6 rows: 2 / 64 = 0.03125 < 0.05.
    table, per_row = _scores({"a": np.arange(1.0, 7.0), "b": np.zeros(6),
                              "c": -np.ones(6)})
    assert leaderboard(table, per_row)["can_reach_significance"].all()
    assert significance_note(leaderboard(table, per_row)) == []
    # The smallest attainable p-values: 1/2**n exactly; the t-test has none
    # above 0 from two pairs on, and cannot test one pair.
    for n in (1, 2, 5, 10, 20):
        assert _min_p_value(n, "wilcoxon") == pytest.approx(2.0 ** -n)
    assert _min_p_value(2, "ttest") == 0.0 and _min_p_value(1, "ttest") == 1.0
    # Seeds only, with a control: the control's family (3 comparisons)
    # is larger; the smaller one (2 comparisons with the best) is named.
    table = pd.DataFrame({"dataset": "d", "model": "m", "metric": "x",
                          "explainer": np.repeat(["a", "b", "c", "r"], 3),
                          "seed": [0, 1, 2] * 4, "value": np.arange(12.0)[::-1],
                          "greater_is_better": True, "status": "ok"})
    board = leaderboard(table, control="r")
    assert (board["paired_over"] == "seeds").all() and (board["n_comparisons"] == 2).all()
    assert significance_note(board) == [
        "With 3 seeds and no per-row scores no difference can be significant at "
        "alpha=0.05 after correction for 2 comparisons: run more rows or seeds "
        "(d / m: x)."]


def test_nemenyi_q_against_demsar_table_5():
    # Demšar (2006), Table 5(a) and 5(b): critical values of the two-tailed
    # Nemenyi test, k = 2..10.
    q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
    for k, (a, b) in enumerate(zip(q05, q10), start=2):
        assert _nemenyi_q(k, 0.05) == pytest.approx(a, abs=1e-3)
        assert _nemenyi_q(k, 0.10) == pytest.approx(b, abs=1e-3)
    # Beyond the table, up to 20 explainers: increasing.
    q = [_nemenyi_q(k, 0.05) for k in range(2, 21)]
    assert np.all(np.diff(q) > 0) and 3.5 < q[-1] < 4.0
    # Demšar's Section 3.2.2 example: 4 classifiers, 14 data sets,
    # CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25 (alpha 0.05), 1.12 (alpha 0.10).
    assert _critical_difference(4, 14, 0.05) == pytest.approx(1.25, abs=5e-3)
    assert _critical_difference(4, 14, 0.10) == pytest.approx(1.12, abs=5e-3)
    assert np.isnan(_critical_difference(1, 14, 0.05))


def _board(ranks_per_metric, greater_is_better=True):
    """A leaderboard-like frame whose per-metric means rank the explainers as
    given (rank 1 = best)."""
    rows = []
    for j, ranks in enumerate(ranks_per_metric):
        for explainer, r in zip("abc", ranks):
            mean = -float(r) if greater_is_better else float(r)
            rows.append({"dataset": "d", "model": "m", "metric": f"x{j}",
                         "explainer": explainer, "mean": mean,
                         "greater_is_better": greater_is_better})
    return pd.DataFrame(rows)


def test_friedman_by_hand_and_against_scipy():
    # Ranks [1,2,3], [1,3,2], [1,2,3], [2,1,3]: mean ranks 1.25, 2.0, 2.75.
    # chi2 = 12 N / (k (k + 1)) * (sum R_j^2 - k (k + 1)^2 / 4)
    #      = 12 * 4 / 12 * (1.5625 + 4 + 7.5625 - 12) = 4.5,
    # p = chi2.sf(4.5, 2) = exp(-4.5 / 2).
    ranks = [[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]]
    for greater in (True, False):
        summary = decision_summary(_board(ranks, greater)).set_index("explainer")
        assert summary["mean_rank"].to_dict() == {"a": 1.25, "b": 2.0, "c": 2.75}
        assert (summary["n_metrics"] == 4).all()
        assert summary["friedman_statistic"].iloc[0] == pytest.approx(4.5)
        assert summary["friedman_p_value"].iloc[0] == pytest.approx(np.exp(-2.25))
        # CD = 2.343 sqrt(3 * 4 / (6 * 4)): every gap (0.75, 1.5) is within it.
        assert summary["critical_difference"].iloc[0] == pytest.approx(
            2.343 * np.sqrt(0.5), abs=1e-3)
        assert summary["tied_best_overall"].all()
    # Three times the blocks: the same mean ranks, CD = 2.343 sqrt(1 / 6) =
    # 0.957, so c (1.5 behind) is no longer tied, b (0.75 behind) is.
    summary = decision_summary(_board(ranks * 3)).set_index("explainer")
    assert summary["critical_difference"].iloc[0] == pytest.approx(
        2.343 * np.sqrt(1 / 6), abs=1e-3)
    assert summary["tied_best_overall"].to_dict() == {"a": True, "b": True, "c": False}
    assert summary["friedman_statistic"].iloc[0] == pytest.approx(13.5)   # 3 * 4.5
    # Random means with ties: the statistic and p-value of scipy on the
    # oriented means (tie-corrected).
    rng = np.random.default_rng(0)
    means = rng.integers(0, 3, size=(7, 5)).astype(float)
    board = pd.DataFrame([{"dataset": "d", "model": "m", "metric": f"x{i}",
                           "explainer": f"e{j}", "mean": means[i, j],
                           "greater_is_better": True}
                          for i in range(7) for j in range(5)])
    summary = decision_summary(board).set_index("explainer")
    expected = stats.friedmanchisquare(*means.T)
    assert summary["friedman_statistic"].iloc[0] == pytest.approx(expected.statistic)
    assert summary["friedman_p_value"].iloc[0] == pytest.approx(expected.pvalue)
    # Mean ranks: 1 = the largest mean, ties averaged.
    ranks = np.array([stats.rankdata(-row) for row in means])
    np.testing.assert_allclose(summary.loc[[f"e{j}" for j in range(5)], "mean_rank"],
                               ranks.mean(axis=0))


def test_friedman_needs_three_explainers_and_two_metrics():
    two = _board([[1, 2, 3]])[lambda f: f["explainer"] != "c"]
    summary = decision_summary(two)
    assert summary["friedman_statistic"].isna().all()
    assert "at least 3 explainers" in summary["note"].iloc[0]
    one_metric = decision_summary(_board([[1, 2, 3]]))
    assert one_metric["friedman_p_value"].isna().all()
    assert "at least 2 metrics" in one_metric["note"].iloc[0]
    # A metric without a score for every explainer is left out of the test
    # but counts in that explainer's mean rank.
    board = _board([[1, 2, 3], [1, 3, 2], [2, 1, 3]])
    board = board.drop(index=board.index[(board["metric"] == "x2")
                                         & (board["explainer"] == "c")])
    summary = decision_summary(board).set_index("explainer")
    assert summary["n_blocks"].iloc[0] == 2
    assert summary["n_metrics"].to_dict() == {"a": 3, "b": 3, "c": 2}
    assert summary.loc["a", "mean_rank"] == pytest.approx((1 + 1 + 2) / 3)
    assert "left out of the Friedman test" in summary["note"].iloc[0]
    with pytest.raises(ValueError, match="alpha"):
        decision_summary(board, alpha=1.5)
    with pytest.raises(ValueError, match="lacks the columns"):
        decision_summary(board.drop(columns="mean"))


def test_n_tied_best_counts_the_leaderboard_marks():
    best = np.linspace(1.0, 3.0, 20)
    frames = [_scores({"a": best, "b": best - np.arange(1, 21) * 0.1, "c": best},
                      metric="x"),
              _scores({"a": best - np.arange(1, 21) * 0.1, "b": best, "c": best},
                      metric="y")]
    table = pd.concat([f[0] for f in frames], ignore_index=True)
    per_row = pd.concat([f[1] for f in frames], ignore_index=True)
    summary = decision_summary(leaderboard(table, per_row)).set_index("explainer")
    # x: a and c tie for best, b is worse; y: b and c tie, a is worse.
    assert summary["n_tied_best"].to_dict() == {"a": 1, "b": 1, "c": 2}
    assert summary.loc["c", "mean_rank"] == pytest.approx(1.5)        # 1.5 and 1.5
    results = BenchmarkResults(table, per_row, control=None)
    pd.testing.assert_frame_equal(results.decisions(), decision_summary(
        leaderboard(table, per_row, n_bootstrap=0)))


def test_plot_draws_one_label_per_explainer():
    ranks = [[1, 2, 3], [1, 3, 2], [1, 2, 3], [2, 1, 3]] * 3
    summary = decision_summary(_board(ranks))
    ax = plot_critical_difference(summary)
    labels = [t.get_text() for t in ax.texts]
    assert sorted(t for t in labels if t in {"a", "b", "c"}) == ["a", "b", "c"]
    assert labels.count("CD") == 1
    plt.close(ax.figure)
    # Several (dataset, model)s: one must be chosen.
    both = pd.concat([summary, summary.assign(dataset="e")], ignore_index=True)
    with pytest.raises(ValueError, match="several datasets"):
        plot_critical_difference(both)
    fig, ax = plt.subplots()
    assert plot_critical_difference(both, dataset="e", ax=ax) is ax
    plt.close(fig)


def test_one_pair_chosen_alike_by_the_diagram_and_the_leaderboard_plot():
    # Two datasets x two models; the rows of one pair are those where both
    # columns match (a boolean mask written out here).
    base = _board([[1, 2, 3], [2, 1, 3]])
    table = pd.concat([base.assign(dataset=d, model=m) for d in ("d", "e")
                       for m in ("m", "n")], ignore_index=True)
    mask = (table["dataset"] == "e") & (table["model"] == "n")
    pd.testing.assert_frame_equal(_select_pair(table, "e", "n"), table[mask])
    one = table[table["dataset"] == "d"]
    with pytest.raises(ValueError, match=r"^The board has several models \['m', 'n'\]: "
                                         r"pass model=\.$"):
        _select_pair(one, None, None)
    pd.testing.assert_frame_equal(_select_pair(one, None, "m"),
                                  one[one["model"] == "m"])
    with pytest.raises(ValueError, match=r"^No rows for dataset='z'; available: "
                                         r"\['d', 'e'\]\.$"):
        _select_pair(table, "z", "m")
    # Both public callers go through it, each naming its own table.
    summary = decision_summary(table)
    with pytest.raises(ValueError, match="^The summary has several datasets"):
        plot_critical_difference(summary)
    board = table.assign(std=0.0, tied_best=False)
    with pytest.raises(ValueError, match="^The board has several datasets"):
        plot_leaderboard(board)
    with pytest.raises(ValueError, match=r"^No rows for model='z'"):
        plot_critical_difference(summary, dataset="d", model="z")
    ax = plot_critical_difference(summary, dataset="e", model="n")
    labels = sorted(t.get_text() for t in ax.texts if t.get_text() in {"a", "b", "c"})
    assert labels == ["a", "b", "c"]
    plt.close(ax.figure)


# ------------------------------------------- distrusted metrics do not vote
def _control_wins_one_metric():
    """Per-row scores of a, b, c and the random control on three metrics:
    m0 and m1 rank a > b > c > random; on m2 the control is best and the
    explainers come in the opposite order (c > b > a)."""
    rng = np.random.default_rng(0)
    levels = {"m0": {"random": 0, "a": 3, "b": 2, "c": 1},
              "m1": {"random": 0, "a": 3, "b": 2, "c": 1},
              "m2": {"random": 4, "a": 1, "b": 2, "c": 3}}
    tables, frames = [], []
    for metric, by_explainer in levels.items():
        table, per_row = _scores(
            {e: level + rng.normal(0, 0.3, (2, 25)) for e, level in by_explainer.items()},
            metric=metric)
        table["metric_name"] = "comprehensiveness"
        tables.append(table)
        frames.append(per_row)
    return BenchmarkResults(pd.concat(tables, ignore_index=True),
                            pd.concat(frames, ignore_index=True), control="random")


def test_distrusted_metric_left_out_of_ranks_and_counts():
    from sklearn_xai.benchmark import meta_evaluate
    from sklearn_xai.benchmark._decisions import distrusted_metrics

    results = _control_wins_one_metric()
    meta = meta_evaluate(results, perturb=False, n_splits=10)
    flagged = distrusted_metrics(meta)
    assert list(flagged) == [("d", "m", "m2")]
    assert flagged[("d", "m", "m2")].startswith("control beats the reference")
    board = results.leaderboard()
    summary = decision_summary(board, exclude=flagged).set_index("explainer")
    # By hand from the per-metric table without m2: ranks within m0 and m1
    # (a 1, b 2, c 3 on both) and the tied-best marks of those two metrics.
    kept = board[(board["metric"] != "m2") & (board["explainer"] != "random")]
    ranks = kept.groupby("metric")["mean"].rank(ascending=False)
    expected_rank = ranks.groupby(kept["explainer"]).mean()
    expected_tied = kept["tied_best"].astype(int).groupby(kept["explainer"]).sum()
    for explainer in "abc":
        assert summary.loc[explainer, "mean_rank"] == expected_rank[explainer]
        assert summary.loc[explainer, "n_tied_best"] == expected_tied[explainer]
        assert summary.loc[explainer, "n_metrics"] == 2
    assert expected_rank.to_dict() == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert summary["left_out"].str.startswith("m2 (control beats the reference").all()
    assert summary.attrs["left_out"] == {("d", "m"): {"m2": flagged[("d", "m", "m2")]}}
    # With m2 voting, a would rank (1 + 1 + 3) / 3.
    voting = decision_summary(board).set_index("explainer")
    assert voting.loc["a", "mean_rank"] == pytest.approx(5 / 3)


def test_every_metric_distrusted_keeps_them_and_says_so():
    board = _board([[1, 2, 3], [2, 1, 3]])
    summary = decision_summary(board, exclude={"x0": "r0", "x1": "r1"})
    assert summary["n_metrics"].tolist() == [2, 2, 2]
    assert (summary["left_out"] == "").all()
    assert summary["note"].str.contains(
        r"every metric is flagged as unreliable \(x0, x1\): the decision depends on "
        "them").all()


def test_report_decision_names_the_metrics_left_out(tmp_path):
    from sklearn_xai.benchmark import meta_evaluate, write_report

    results = _control_wins_one_metric()
    meta = meta_evaluate(results, perturb=False, n_splits=10)
    paths = write_report(results, tmp_path, figures=False, reliability=meta)
    page = open(paths["report_html"], encoding="utf-8").read()
    decision = page[page.index('<section id="decision">'):]
    decision = decision[:decision.index("</section>")]
    assert "Left out of the decision" in decision
    assert "m2 (control beats the reference" in decision
    assert "best or tied best (of 2 metrics)" in decision
    md = open(paths["report_md"], encoding="utf-8").read()
    section = md[md.index("## Decision"):]
    assert "best or tied best (of 2 metrics)" in section
    assert "Left out of the decision (flagged in the metric reliability): m2 (control " \
        "beats the reference" in section
    # Mean ranks 1, 2, 3 over m0 and m1; a is best on both, b and c on none.
    import re

    for explainer, rank, best in (("a", 1, 2), ("b", 2, 0), ("c", 3, 0)):
        assert re.search(rf"\| {explainer}\s+\|\s+{rank}(\.0+)?\s+\| {best} of 2 ", section)


# ----------------------------- metrics failing MetaQuantus: dropped on request
def _one_metric_disagrees():
    """m0 and m2 rank a > b > c, m1 ranks c > b > a; the control is last on
    all three (no metric is flagged)."""
    rng = np.random.default_rng(1)
    levels = {"m0": {"random": 0, "a": 3, "b": 2, "c": 1},
              "m1": {"random": 0, "a": 1, "b": 2, "c": 3},
              "m2": {"random": 0, "a": 3, "b": 2, "c": 1}}
    tables, frames = [], []
    for metric, by_explainer in levels.items():
        table, per_row = _scores(
            {e: level + rng.normal(0, 0.3, (2, 25)) for e, level in by_explainer.items()},
            metric=metric)
        table["metric_name"] = "comprehensiveness"
        tables.append(table)
        frames.append(per_row)
    return BenchmarkResults(pd.concat(tables, ignore_index=True),
                            pd.concat(frames, ignore_index=True), control="random")


def test_metric_failing_metaquantus_is_dropped_only_when_asked(tmp_path):
    from sklearn_xai.benchmark import meta_evaluate, write_report
    from sklearn_xai.benchmark._decisions import distrusted_metrics

    results = _one_metric_disagrees()
    meta = meta_evaluate(results, perturb=False, n_splits=10)
    assert distrusted_metrics(meta) == {}
    # MC scores as a spec-mode meta-evaluation gives them: m1 fails at 0.5.
    meta["mc_score"] = meta["metric"].map({"m0": 0.8, "m1": 0.3, "m2": 0.6})
    assert distrusted_metrics(meta) == {}  # off by default
    assert distrusted_metrics(meta, min_mc_score=0.5) == {
        ("d", "m", "m1"): "fails MetaQuantus (MC 0.30 < 0.50)"}
    assert distrusted_metrics(meta, min_mc_score=0.7).keys() == {
        ("d", "m", "m1"), ("d", "m", "m2")}
    with pytest.raises(ValueError, match="min_mc_score must be None or a float"):
        distrusted_metrics(meta, min_mc_score=2)
    board = results.leaderboard()
    # Mean ranks by hand: with m1, a is (1 + 3 + 1) / 3; without, 1.
    voting = decision_summary(board).set_index("explainer")
    assert voting.loc["a", "mean_rank"] == pytest.approx(5 / 3)
    summary = decision_summary(
        board, exclude=distrusted_metrics(meta, min_mc_score=0.5)).set_index("explainer")
    assert summary["mean_rank"].to_dict() == {"a": 1.0, "b": 2.0, "c": 3.0}
    # The report's decision, with and without the option.
    for option, dropped in ((None, False), (0.5, True)):
        paths = write_report(results, tmp_path / str(option), figures=False,
                             reliability=meta, min_mc_score=option)
        page = open(paths["report_html"], encoding="utf-8").read()
        decision = page[page.index('<section id="decision">'):]
        decision = decision[:decision.index("</section>")]
        assert ("m1 (fails MetaQuantus (MC 0.30 &lt; 0.50))" in decision) == dropped
        assert ("MetaQuantus MC score is below 0.50" in decision) == dropped
        md = open(paths["report_md"], encoding="utf-8").read()
        assert ("m1 (fails MetaQuantus" in md) == dropped
        # The reliability section says what each MetaQuantus score means.
        assert "NR IAC</em>: how similar" in page and "- MC: the mean of the four" in md


@pytest.mark.parametrize("given_axes", [False, True])
def test_cd_diagram_labels_stay_inside_the_figure(given_axes):
    """Long explainer labels are never cut off at the figure's edges: the
    figure grows to hold them, or they are wrapped in axes given too narrow."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sklearn_xai.benchmark import decision_summary, plot_critical_difference

    long = "a_very_long_explainer_label_from_a_users_own_config_" + "x" * 20
    labels = [long, "b", "c_" + long, "d"]
    board = pd.DataFrame({
        "dataset": "d", "model": "m", "metric": [m for m in "xyz" for _ in labels],
        "explainer": labels * 3,
        "mean": [4.0, 3.0, 2.0, 1.0, 3.9, 3.1, 2.2, 1.1, 4.2, 2.9, 2.1, 0.9],
        "greater_is_better": True})
    ax = None
    if given_axes:
        _, ax = plt.subplots(figsize=(6.0, 3.0))
    ax = plot_critical_difference(decision_summary(board), ax=ax)
    fig = ax.figure
    fig.canvas.draw()
    box = fig.bbox
    shown = [t for t in ax.texts if t.get_text().replace("\n", "").startswith(("a_", "c_"))]
    assert len(shown) == 2
    for text in shown:
        extent = text.get_window_extent()
        assert extent.x0 >= box.x0 - 1 and extent.x1 <= box.x1 + 1, text.get_text()
        assert text.get_text().replace("\n", "") in labels  # wrapped, not cut
    plt.close(fig)
