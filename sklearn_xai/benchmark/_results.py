"""Benchmark results: one tidy table, per-row scores, and their aggregation
into leaderboards (mean, spread, ranks, rank frequencies, costs per explained
row, a paired test of every explainer against the random control and one
against the best explainer, which decides the explainers tied for best)."""

import hashlib
import io
import json
import numbers
import os
import warnings

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._decisions import (
    _TESTS,
    _decision_columns,
    _holm,  # noqa: F401  (importable from here, as before the move)
    _paired_family,
    _row_groups,
    decision_summary,
)
from sklearn_xai.utils._files import csv_frame_text, read_csv_frame, write_in_folder

__all__ = [
    "BenchmarkResults",
    "leaderboard",
    "metric_display_name",
    "rank_frequencies",
    "significance_vs_control",
]


TABLE_COLUMNS = [
    "dataset", "model", "explainer", "explainer_class", "metric", "metric_name", "seed",
    "value", "greater_is_better", "se", "n_rows", "n_nan", "explain_time",
    "metric_time", "n_evaluations", "model_score", "explainer_fit_time",
    "model_fit_time", "status", "error", "failed_in", "warnings", "cached",
]
PER_ROW_COLUMNS = ["dataset", "model", "explainer", "metric", "seed", "row", "value"]
_GROUP = ["dataset", "model", "metric"]


def metric_display_name(metric, greater_is_better):
    """A metric's name in its natural orientation, with an arrow.

    Scorer names of losses carry ``neg_`` (their scorers negate them); the
    table holds the metric's own values, so the prefix is dropped and the
    arrow says which way is better.

    Parameters
    ----------
    metric : str
    greater_is_better : bool

    Returns
    -------
    name : str

    Examples
    --------
    >>> from sklearn_xai.benchmark import metric_display_name
    >>> metric_display_name("neg_complexity", False)
    'complexity ↓'
    >>> metric_display_name("feature_agreement", True)
    'feature_agreement ↑'
    """
    name = metric[4:] if metric.startswith("neg_") and not greater_is_better else metric
    return f"{name} {'↑' if greater_is_better else '↓'}"


# ---------------------------------------------------------------- tables
def _cell_rows(out):
    """Tidy rows (and per-row score frames) of one runner cell output."""
    task, labels = out["task"], out["task"]["labels"]
    explanation = out.get("explanation") or {}
    rows, per_row = [], []
    for metric, metric_spec in task["metrics"].items():
        res = out["metrics"].get(metric, {})
        status = res.get("status", out["status"]) if out["status"] == "ok" else "error"
        failed_in = ("" if status != "error"
                     else out.get("failed_in", "explainer") if out["status"] == "error"
                     else "metric")
        error = res.get("error", "") or out["error"]
        if failed_in and out.get("not_applicable"):
            # The explainer refused the model (NotApplicableError): a skip.
            status, failed_in = "skipped", ""
            error = ("explainer not applicable: "
                     + error.split(": ", 1)[-1].rsplit(" (at ", 1)[0])
        row = {
            **labels,
            "explainer_class": explanation.get("explainer_class", _class_name(task["explainer"])),
            "metric": metric, "metric_name": metric_spec["name"],
            "value": res.get("value", np.nan), "greater_is_better": res.get("greater_is_better"),
            "se": res.get("se", np.nan), "n_rows": res.get("n_rows", 0),
            "n_nan": res.get("n_nan", 0),
            "explain_time": explanation.get("explain_time", np.nan),
            "metric_time": res.get("time", np.nan),
            "n_evaluations": explanation.get("n_evaluations", np.nan),
            "model_score": explanation.get("model_score", np.nan),
            "explainer_fit_time": explanation.get("explainer_fit_time", np.nan),
            "model_fit_time": explanation.get("model_fit_time", np.nan),
            "status": status, "error": error,
            "failed_in": failed_in,
            "warnings": " | ".join(out.get("warnings", [])),
            "cached": not out["computed"],
        }
        rows.append(row)
        scores = res.get("scores")
        if scores is not None:
            per_row.append((labels, metric, np.asarray(scores)))
    return rows, per_row


def _per_row_frame(blocks):
    """One per-row frame of ``(labels, metric, scores)`` blocks, built at once
    (a frame per block and a concat cost most of a cached rerun)."""
    if not blocks:
        return pd.DataFrame(columns=PER_ROW_COLUMNS)
    sizes = [len(scores) for _, _, scores in blocks]

    def repeated(values):
        return np.repeat(np.array(values, dtype=object), sizes)

    return pd.DataFrame({
        "dataset": repeated([labels["dataset"] for labels, _, _ in blocks]),
        "model": repeated([labels["model"] for labels, _, _ in blocks]),
        "explainer": repeated([labels["explainer"] for labels, _, _ in blocks]),
        "metric": repeated([metric for _, metric, _ in blocks]),
        "seed": np.repeat(np.array([labels["seed"] for labels, _, _ in blocks]), sizes),
        "row": np.concatenate([np.arange(n) for n in sizes]),
        "value": np.concatenate([scores for _, _, scores in blocks]),
    }, columns=PER_ROW_COLUMNS)


def _class_name(spec):
    name = spec["name"]
    return name.rsplit(".", 1)[-1] if isinstance(name, str) else getattr(name, "__name__", "")


def _orientation(table):
    """metric -> greater_is_better, from the rows that know it."""
    known = table.dropna(subset=["greater_is_better"])
    return {m: bool(g) for m, g in zip(known["metric"], known["greater_is_better"])}


# ---------------------------------------------------------- significance
def _check_test(test):
    if test not in _TESTS:
        raise ValueError(f"test must be 'wilcoxon' or 'ttest', got {test!r}.")


def significance_vs_control(table, per_row=None, *, control, test="wilcoxon"):
    """Paired one-sided test of each explainer against a control explainer.

    For each (dataset, model, metric), each explainer's scores are paired
    with the control's on the same explained rows and seeds (per-row scores
    when available, else the per-seed values) and the differences, oriented
    so that positive means better, are tested for a positive shift.  p-values
    are Holm-corrected across the explainers of a (dataset, model, metric).

    Parameters
    ----------
    table : DataFrame
        The tidy results table (:attr:`BenchmarkResults.table`).
    per_row : DataFrame, default=None
        Per-row scores (:attr:`BenchmarkResults.per_row`).
    control : str
        Label of the control explainer (the random one).
    test : {"wilcoxon", "ttest"}, default="wilcoxon"
        Wilcoxon signed-rank test (default) or paired t-test.

    Returns
    -------
    significance : DataFrame
        Columns dataset, model, metric, explainer, n_pairs, paired_over
        ("rows" or "seeds"), p_value, p_holm.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import significance_vs_control
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "metric": "x", "greater_is_better": True,
    ...     "status": "ok", "explainer": ["random"] * 6 + ["shap"] * 6,
    ...     "seed": list(range(6)) * 2,
    ...     "value": [0.1, 0.2, 0.0, 0.1, 0.3, 0.2, 0.8, 0.9, 0.7, 0.9, 0.8, 1.0]})
    >>> sig = significance_vs_control(table, control="random")
    >>> sig[["explainer", "n_pairs", "paired_over"]].to_numpy().tolist()
    [['shap', 6, 'seeds']]
    >>> round(float(sig["p_value"].iloc[0]), 4)
    0.0156
    """
    _check_test(test)
    ok = table[table["status"] == "ok"]
    if control not in set(ok["explainer"]):
        raise ValueError(
            f"The control explainer {control!r} has no results; explainers: "
            f"{sorted(set(table['explainer']))}."
        )
    orientation = _orientation(table)
    row_groups = _row_groups(per_row)
    records = []
    for (dataset, model, metric), group in ok.groupby(_GROUP, sort=False):
        sign = 1.0 if orientation.get(metric, True) else -1.0
        explainers = [e for e in group["explainer"].unique() if e != control]
        family = _paired_family(group, row_groups.get((dataset, model, metric)), control,
                                explainers, sign, test)
        records.extend({"dataset": dataset, "model": model, "metric": metric, **rec}
                       for rec in family)
    columns = ["dataset", "model", "metric", "explainer", "n_pairs", "paired_over",
               "p_value", "p_holm"]
    return pd.DataFrame.from_records(records, columns=columns)


# ------------------------------------------------------------ bootstrap
def _bootstrap_interval(samples, n_bootstrap, confidence, rng):
    """Percentile interval of the mean over strata of within-stratum means.

    ``samples`` is a list of 1-D arrays (one per seed); rows are resampled
    with replacement within each array, so the bootstrap distribution is that
    of the reported value (the mean over seeds of the mean over rows).
    """
    samples = [s[~np.isnan(s)] for s in samples]
    samples = [s for s in samples if s.size]
    if not samples:
        return np.nan, np.nan
    boot = np.zeros(n_bootstrap)
    for s in samples:
        idx = rng.integers(0, s.size, size=(n_bootstrap, s.size))
        boot += s[idx].mean(axis=1)
    boot /= len(samples)
    tail = (1 - confidence) / 2
    low, high = np.quantile(boot, [tail, 1 - tail])
    return float(low), float(high)


def _bootstrap_columns(ok, per_row, keys, n_bootstrap, confidence, random_state):
    """ci_low / ci_high per leaderboard row: rows resampled within seeds, or
    seeds resampled when no per-row scores exist."""
    rng = np.random.default_rng(random_state)
    per_row_groups = {}
    if per_row is not None and len(per_row):
        per_row_groups = {key: frame for key, frame in per_row.groupby(keys, sort=False)}
    out = {}
    for key, group in ok.groupby(keys, sort=False):
        rows = per_row_groups.get(key)
        if rows is not None and len(rows):
            samples = [g["value"].to_numpy(dtype=float) for _, g in rows.groupby("seed")]
        else:
            samples = [group["value"].to_numpy(dtype=float)]
        out[key] = _bootstrap_interval(samples, n_bootstrap, confidence, rng)
    return out


# ------------------------------------------------------------ leaderboard
def leaderboard(table, per_row=None, *, control=None, alpha=0.05, ddof=0,
                test="wilcoxon", n_bootstrap=1000, confidence=0.95, random_state=0):
    """Aggregate a results table into a leaderboard.

    One row per (dataset, model, metric, explainer): the mean over seeds of
    the per-seed values (each the mean over explained rows), their standard
    deviation and standard error ``std / sqrt(n_seeds)``, the mean per-row
    standard error (``ddof=0``, as OpenXAI), a bootstrap interval of the mean,
    the rank of the explainer among those of its (dataset, model, metric) in
    the metric's orientation (1 = best; means equal to 12 decimals tie and
    share the best rank), mean costs, the costs per explained row, when a
    control is given the paired test against it
    (:func:`significance_vs_control`), and which explainers are tied for
    best.

    Tied for best: within each (dataset, model, metric), the explainer with
    the best mean (the control left out) is tied for best, and so is every
    other explainer that a paired one-sided test of "worse than the best"
    does not reject at ``alpha``, Holm-corrected over the explainers compared
    with the best [2]_.  The pairs are the same (seed, explained row) when
    per-row scores exist, else the same seed; the test is ``test``, as
    against the control.  The control is never tied for best.  A small run
    may be unable to reject anything: ``can_reach_significance`` says whether
    the smallest p-value the test can give on the run's pairs survives the
    correction (the exact one-sided Wilcoxon signed-rank test on ``n`` pairs
    never goes below ``1 / 2**n``); :func:`significance_note` words it.
    :func:`decision_summary` aggregates the metrics into mean ranks with a
    Friedman test and the Nemenyi critical difference [1]_.

    Parameters
    ----------
    table : DataFrame
        The tidy results table.
    per_row : DataFrame, default=None
        Per-row scores, for the significance test and the bootstrap interval.
    control : str, default=None
        Label of the control explainer (the random one); ``None`` skips the
        test.
    alpha : float, default=0.05
        Level of the Holm-corrected tests: ``beats_control`` is
        ``p_holm < alpha``; an explainer is not ``tied_best`` when
        ``p_vs_best < alpha``.
    ddof : int, default=0
        Delta degrees of freedom of the standard deviation over seeds (0, as
        the published tables; 1 for the unbiased variance).
    test : {"wilcoxon", "ttest"}, default="wilcoxon"
        Paired test of the comparisons with the control and with the best:
        Wilcoxon signed-rank test or paired t-test.
    n_bootstrap : int, default=1000
        Bootstrap resamples of the interval ``ci_low``, ``ci_high`` of the
        mean: explained rows are resampled within each seed (the row-sampling
        uncertainty); seeds are resampled for metrics without
        per-row scores.  0 skips it.
    confidence : float, default=0.95
        Coverage of the percentile bootstrap interval.
    random_state : int, default=0
        Seed of the bootstrap.

    Returns
    -------
    board : DataFrame
        One row per (dataset, model, metric, explainer), best rank first.
        Scores: ``mean``, ``std``, ``se``, ``n_seeds``, ``row_se``,
        ``greater_is_better``, ``rank``, ``ci_low``, ``ci_high``.  Mean
        costs per seed: ``explain_time``, ``metric_time``,
        ``n_evaluations``; per explained row: ``cost_per_row`` (seconds of
        explanation) and ``evaluations_per_row`` (model evaluations), from
        the ``explain_time``, ``n_evaluations`` and ``n_rows`` columns of
        ``table`` (NaN when missing); ``n_rows`` (rows scored per seed).
        The test against the control: ``p_value``, ``p_holm`` and
        ``beats_control`` (NA for the control and when no control is
        given).  The decisions: ``tied_best`` (boolean; NA for the control
        and for an explainer that cannot be tested), ``p_vs_best`` (the
        Holm-corrected p-value of "worse than the best"; NaN for the best
        and the control); and per (dataset, model, metric) ``paired_over``
        ("rows" or "seeds"), ``n_pairs`` (the most pairs of its tests),
        ``n_comparisons`` (the smaller Holm family: the explainers compared
        with the best, or with the control), ``min_p_value`` (the smallest
        p-value ``test`` can give on ``n_pairs`` pairs) and
        ``can_reach_significance`` (``n_comparisons * min_p_value < alpha``:
        when False, no test of the (dataset, model, metric) can reject,
        whatever the scores; NA when nothing is tested).
        ``board.attrs["control"]`` is ``control``.

    References
    ----------
    .. [1] Demšar, J. "Statistical Comparisons of Classifiers over Multiple
       Data Sets", Journal of Machine Learning Research 7, 1-30, 2006.
    .. [2] Holm, S. "A Simple Sequentially Rejective Multiple Test
       Procedure", Scandinavian Journal of Statistics 6(2), 65-70, 1979.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import leaderboard
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["a", "a", "b", "b"],
    ...     "metric": "x", "seed": [0, 1, 0, 1], "value": [1.0, 3.0, 0.0, 0.0],
    ...     "greater_is_better": True, "status": "ok"})
    >>> board = leaderboard(table)
    >>> board[["explainer", "mean", "std", "rank"]].to_numpy().tolist()
    [['a', 2.0, 1.0, 1], ['b', 0.0, 0.0, 2]]

    Two seeds cannot show ``b`` worse than ``a`` (the smallest one-sided
    Wilcoxon p-value on 2 pairs is 1/4), so both are tied for best:

    >>> board[["explainer", "tied_best"]].to_numpy().tolist()
    [['a', True], ['b', True]]
    >>> bool(board["can_reach_significance"].iloc[0])
    False
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}.")
    _check_test(test)
    ok = table[table["status"] == "ok"].copy()
    if ok.empty:
        raise ValueError("The results table has no successful cell to aggregate.")
    for col in ("se", "explain_time", "metric_time", "n_evaluations", "n_rows"):
        if col not in ok:
            ok[col] = np.nan
    _per_row_costs(ok)
    keys = _GROUP + ["explainer"]
    grouped = ok.groupby(keys, sort=False)
    board = grouped.agg(
        mean=("value", "mean"), n_seeds=("value", "count"), row_se=("se", "mean"),
        explain_time=("explain_time", "mean"), metric_time=("metric_time", "mean"),
        n_evaluations=("n_evaluations", "mean"), cost_per_row=("_cost", "mean"),
        evaluations_per_row=("_evaluations", "mean"), n_rows=("_n_rows", "mean"),
    ).reset_index()
    board.insert(board.columns.get_loc("n_seeds"), "std",
                 grouped["value"].std(ddof=ddof).to_numpy())
    board.insert(board.columns.get_loc("n_seeds"), "se",
                 board["std"].to_numpy() / np.sqrt(board["n_seeds"].to_numpy()))
    orientation = _orientation(ok)
    board["greater_is_better"] = board["metric"].map(orientation).astype(bool)
    # Means equal up to summation order (1e-12) tie.
    oriented = np.round(np.where(board["greater_is_better"], board["mean"], -board["mean"]), 12)
    board["rank"] = (pd.Series(oriented, index=board.index)
                     .groupby([board[k] for k in _GROUP]).rank(ascending=False, method="min")
                     .astype("Int64"))
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, (int, np.integer)) \
            or n_bootstrap < 0:
        raise ValueError(f"n_bootstrap must be a non-negative int, got {n_bootstrap!r}.")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}.")
    if n_bootstrap:
        intervals = _bootstrap_columns(ok, per_row, keys, n_bootstrap, confidence,
                                       random_state)
        ci = np.array([intervals[tuple(k)] for k in board[keys].itertuples(index=False)])
        board["ci_low"], board["ci_high"] = ci[:, 0], ci[:, 1]
    else:
        board["ci_low"] = board["ci_high"] = np.nan
    board["p_value"] = np.nan
    board["p_holm"] = np.nan
    board["beats_control"] = pd.array([pd.NA] * len(board), dtype="boolean")
    sig = None
    if control is not None:
        sig = significance_vs_control(ok, per_row, control=control, test=test)
        if len(sig):
            merged = board[keys].merge(sig[keys + ["p_value", "p_holm"]], on=keys, how="left")
            board["p_value"] = merged["p_value"].to_numpy()
            board["p_holm"] = merged["p_holm"].to_numpy()
            tested = ~np.isnan(board["p_holm"].to_numpy())
            beats = pd.array(board["p_holm"].to_numpy() < alpha, dtype="boolean")
            beats[~tested] = pd.NA
            board["beats_control"] = beats
    # Spec order (first appearance) for datasets, models and metrics.
    order = {k: {v: i for i, v in enumerate(dict.fromkeys(ok[k]))} for k in _GROUP}
    sort_keys = pd.DataFrame({k: board[k].map(order[k]) for k in _GROUP})
    sort_keys["rank"] = board["rank"]
    sort_keys["explainer"] = board["explainer"]
    idx = sort_keys.sort_values(_GROUP + ["rank", "explainer"], kind="stable").index
    board = board.loc[idx].reset_index(drop=True)
    # Costs beside the scores, then the decisions (after sorting: on a tie
    # for the best mean, the first explainer in the board's order is the
    # reference of the tests against the best).
    costs = ["cost_per_row", "evaluations_per_row", "n_rows"]
    board = board[[c for c in board.columns if c not in costs] + costs]
    decisions = _decision_columns(board, ok, per_row, control=control, test=test,
                                  alpha=alpha, significance=sig)
    board = pd.concat([board, decisions], axis=1)
    board.attrs["control"] = control
    return board


def _per_row_costs(ok):
    """Add the hidden columns ``_cost``, ``_evaluations`` and ``_n_rows`` to
    the successful rows ``ok``: explanation time and model evaluations per
    explained row of each (dataset, model, explainer, seed) cell.

    A cell explains the rows its per-row metrics score: the largest
    ``n_rows`` among its metrics (a metric of the whole explanation scores
    one row).
    """
    cell = [c for c in ("dataset", "model", "explainer", "seed") if c in ok]
    n_rows = pd.to_numeric(ok["n_rows"], errors="coerce").astype(float)
    explained = n_rows.groupby([ok[c] for c in cell], sort=False).transform("max")
    explained = explained.where(explained > 0)
    ok["_cost"] = pd.to_numeric(ok["explain_time"], errors="coerce") / explained
    ok["_evaluations"] = pd.to_numeric(ok["n_evaluations"], errors="coerce") / explained
    ok["_n_rows"] = n_rows


def rank_frequencies(board, top=(1, 2)):
    """How often each explainer ranks in the top-k across datasets (BEExAI).

    Parameters
    ----------
    board : DataFrame
        A :func:`leaderboard`.
    top : tuple of int, default=(1, 2)

    Returns
    -------
    frequencies : DataFrame
        One row per (model, metric, explainer): ``n_datasets`` and a column
        ``top{k}`` per k, the fraction of datasets where the explainer's rank
        is at most k.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import rank_frequencies
    >>> board = pd.DataFrame({"dataset": ["d1", "d1", "d2", "d2"], "model": "m",
    ...                       "metric": "x", "explainer": ["a", "b", "a", "b"],
    ...                       "rank": [1, 2, 2, 1]})
    >>> rank_frequencies(board, top=(1,))["top1"].tolist()
    [0.5, 0.5]
    """
    if not top or not all(isinstance(k, (int, np.integer)) and k >= 1 for k in top):
        raise ValueError(f"top must be positive ints, got {top!r}.")
    frame = board[["model", "metric", "explainer", "dataset"]].copy()
    for k in top:
        frame[f"top{k}"] = (board["rank"] <= k).astype(float)
    out = frame.groupby(["model", "metric", "explainer"], sort=False).agg(
        n_datasets=("dataset", "nunique"), **{f"top{k}": (f"top{k}", "mean") for k in top})
    return out.reset_index()


# ---------------------------------------------------------------- object
class BenchmarkResults:
    """Results of :func:`run_benchmark`.

    Parameters
    ----------
    table : DataFrame
        One row per (dataset, model, explainer, metric, seed): the metric's
        value in its own orientation (mean over the explained rows),
        ``greater_is_better``, its per-row standard error ``se``, ``n_rows``,
        ``n_nan``, ``explain_time`` / ``metric_time`` (seconds),
        ``n_evaluations`` (model rows evaluated by the explanation),
        ``model_score`` (the model's ``score`` on the held-out rows),
        ``status`` ("ok", "skipped" with the reason in ``error``, or "error"
        with the error message), ``failed_in`` (the step that failed:
        "model" for drawing the data or fitting the model, "explainer" or
        "metric"; empty unless ``status`` is "error"), ``warnings`` (those
        the cell raised, when not run by the threading backend) and
        ``cached``.
    per_row : DataFrame, default=None
        Per-row scores: dataset, model, explainer, metric, seed, row, value.
    spec : dict, default=None
        The benchmark spec (:meth:`BenchmarkSpec.to_dict`).
    control : str, default=None
        Label of the control explainer (the random one) every explainer is
        tested against.
    wall_time : float, default=None
        Wall-clock seconds of the run.

    Attributes
    ----------
    n_cells : int
        Number of (dataset, model, explainer, seed) cells.
    n_computed : int
        Cells computed by this run (not loaded from the cache).
    """

    def __init__(self, table, per_row=None, *, spec=None, control=None, wall_time=None):
        self.table = table
        self.per_row = per_row if per_row is not None else pd.DataFrame(columns=PER_ROW_COLUMNS)
        self.spec = spec
        self.control = control
        self.wall_time = wall_time

    @classmethod
    def from_cells(cls, spec, outputs, wall_time=None):
        """Assemble the runner's cell outputs."""
        rows, per_row = [], []
        for out in outputs:
            r, p = _cell_rows(out)
            rows.extend(r)
            per_row.extend(p)
        table = pd.DataFrame.from_records(rows, columns=TABLE_COLUMNS)
        per_row = _per_row_frame(per_row)
        return cls(table, per_row, spec=_jsonable(spec.to_dict()),
                   control=spec.control_label(), wall_time=wall_time)

    @property
    def n_cells(self):
        return len(self.table.groupby(["dataset", "model", "explainer", "seed"]))

    @property
    def n_computed(self):
        cells = self.table.drop_duplicates(["dataset", "model", "explainer", "seed"])
        return int((~cells["cached"].astype(bool)).sum())

    @property
    def errors(self):
        """Rows that failed, with their error messages."""
        return self.table[self.table["status"] == "error"]

    def leaderboard(self, *, alpha=0.05, ddof=0, test="wilcoxon", n_bootstrap=1000,
                    confidence=0.95, random_state=0):
        """The leaderboard (:func:`leaderboard`) with the significance test
        against the random control when the benchmark has one, and the
        explainers tied for best."""
        # Memoised: the command line, the report and the decisions ask for
        # the same leaderboard several times.  The key holds the tables'
        # identities, so replacing ``table`` or ``per_row`` recomputes it.
        key = (id(self.table), id(self.per_row), self.control, alpha, ddof, test,
               n_bootstrap, confidence, random_state)
        memo = self.__dict__.setdefault("_leaderboards", {})
        if not isinstance(random_state, (numbers.Integral, type(None))):
            memo = {}  # a generator's draws advance: never reuse them
        elif any(k[:2] != key[:2] for k in memo):
            memo.clear()  # the tables were replaced
        if key not in memo:
            memo[key] = leaderboard(self.table, self.per_row, control=self.control,
                                    alpha=alpha, ddof=ddof, test=test,
                                    n_bootstrap=n_bootstrap, confidence=confidence,
                                    random_state=random_state)
        return memo[key].copy()

    def decisions(self, alpha=0.05, *, test="wilcoxon"):
        """Mean ranks, Friedman test and critical difference per (dataset,
        model) (:func:`decision_summary` of the leaderboard), the control
        left out.

        Parameters
        ----------
        alpha : float, default=0.05
            Level of the paired tests of the leaderboard (``tied_best``), of
            the Friedman test and of the critical difference.
        test : {"wilcoxon", "ttest"}, default="wilcoxon"
            Paired test of the leaderboard.

        Returns
        -------
        summary : DataFrame
            As :func:`decision_summary`.
        """
        board = self.leaderboard(alpha=alpha, test=test, n_bootstrap=0)
        return decision_summary(board, alpha=alpha, control=self.control)

    def rank_frequencies(self, top=(1, 2)):
        """Top-k frequencies across datasets (:func:`rank_frequencies`)."""
        return rank_frequencies(self.leaderboard(), top=top)

    # ------------------------------------------------------------ files
    def save(self, directory):
        """Write ``results.csv``, ``per_row.csv``, ``leaderboard.csv``,
        ``benchmark.json`` (and Parquet copies when pyarrow is installed).

        Text cells of the CSV files that start like a spreadsheet formula
        (``= + - @``, a tab...) or with an apostrophe get a leading
        apostrophe, so that a spreadsheet shows them as text (CSV
        injection); :meth:`load` strips it and reads the labels back as they
        were.  Numbers are written as numbers.

        Parameters
        ----------
        directory : str or path-like

        Returns
        -------
        paths : dict
            Name -> written path.
        """
        directory = os.fspath(directory)
        paths, files = {}, {}

        def write(key, name, data, n_rows):
            paths[key] = write_in_folder(directory, name, data)
            raw = data.encode("utf-8") if isinstance(data, str) else data
            files[name] = {"rows": int(n_rows), "sha256": hashlib.sha256(raw).hexdigest()}

        for name, frame in (("results", self.table), ("per_row", self.per_row)):
            # Text cells escaped: a label is never a spreadsheet formula.
            write(name, f"{name}.csv", csv_frame_text(frame), len(frame))
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                continue
            buffer = io.BytesIO()
            frame.to_parquet(buffer, index=False)
            write(f"{name}_parquet", f"{name}.parquet", buffer.getvalue(), len(frame))
        if (self.table["status"] == "ok").any():
            board = self.leaderboard()
            write("leaderboard", "leaderboard.csv", csv_frame_text(board), len(board))
        # The record of the run, written last: what every file above holds
        # (rows and a digest), checked by load().
        paths["benchmark"] = write_in_folder(directory, "benchmark.json", json.dumps(
            {"spec": self.spec, "control": self.control, "wall_time": self.wall_time,
             "files": files}, indent=2, default=repr))
        return paths

    @classmethod
    def load(cls, directory):
        """Read results written by :meth:`save`.

        Parameters
        ----------
        directory : str or path-like

        Returns
        -------
        results : BenchmarkResults
        """
        directory = os.fspath(directory)
        path = os.path.join(directory, "results.csv")
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"No results.csv in {directory!r}: run a benchmark with --out "
                f"{directory} first."
            )
        meta = _read_record(directory)
        _check_files(directory, meta.get("files"))
        table = read_csv_frame(path, dtype={"error": object, "warnings": object})
        for col in ("error", "failed_in", "warnings"):
            if col in table:
                table[col] = table[col].astype(object).fillna("").astype(str)
        per_path = os.path.join(directory, "per_row.csv")
        per_row = read_csv_frame(per_path) if os.path.exists(per_path) else None
        return cls(table, per_row, spec=meta.get("spec"), control=meta.get("control"),
                   wall_time=meta.get("wall_time"))

    def __repr__(self):
        n_err = int((self.table["status"] == "error").sum())
        return (f"BenchmarkResults({self.n_cells} cells, {len(self.table)} scores, "
                f"{n_err} errors, control={self.control!r})")


def _read_record(directory):
    """``benchmark.json`` of a results folder: a JSON object of bounded
    size, else a ValueError naming the file ({} when there is none)."""
    from sklearn_xai.utils._files import json_size_problem

    path = os.path.join(directory, "benchmark.json")
    if not os.path.exists(path):
        warnings.warn(f"{directory!r} has no benchmark.json, the run's record: its "
                      "results files cannot be checked (rows, digests) and the spec "
                      "and control are unknown.", UserWarning, stacklevel=3)
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            meta = json.load(fh)
    except RecursionError:
        raise ValueError(f"{path}: nests too deeply to be the record of a run.") from None
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}).") from None
    problem = json_size_problem(meta) if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or problem is not None:
        why = problem or f"it holds a {type(meta).__name__}, not a JSON object"
        raise ValueError(f"{path} is not the record of a run written by sklearn_xai: "
                         f"{why}.")
    return meta


def _csv_rows(path):
    """Rows of a CSV file written by :meth:`BenchmarkResults.save`."""
    return len(pd.read_csv(path, dtype=str, keep_default_na=False))


def _check_files(directory, record):
    """Check the results files against the run's record (``files`` of
    ``benchmark.json``): a missing or truncated file is an error that names
    it, a file changed since the run a warning."""
    if not isinstance(record, dict):
        return  # results saved before the record existed
    problems = []
    for name in ("results.csv", "per_row.csv"):
        entry = record.get(name)
        if not isinstance(entry, dict):
            continue
        rows = entry.get("rows")
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            problems.append(f"{name} is missing (the run wrote {rows} rows)")
            continue
        with open(path, "rb") as fh:
            raw = fh.read()
        if hashlib.sha256(raw).hexdigest() == entry.get("sha256"):
            continue
        if raw and not raw.endswith(b"\n"):
            problems.append(f"{name} ends in the middle of a row (truncated)")
            continue
        try:
            found = _csv_rows(path)
        except (ValueError, pd.errors.ParserError) as exc:
            problems.append(f"{name} cannot be read ({exc})")
            continue
        if found != rows:
            problems.append(f"{name} has {found} rows where the run wrote {rows} "
                            "(truncated or cut)")
        else:
            warnings.warn(f"{os.path.join(directory, name)} differs from the file the "
                          "run wrote (same number of rows): it was edited after the run.",
                          UserWarning, stacklevel=3)
    if problems:
        raise ValueError(
            f"{directory!r} does not hold the run's results: " + "; ".join(problems)
            + ". Copy the whole folder again, or rerun the benchmark (the cell cache "
            "makes the rerun fast).")


def _jsonable(obj):
    """Spec with objects (classes, estimators) replaced by their repr."""
    return json.loads(json.dumps(obj, default=repr))
