"""Decisions from a leaderboard: which explainers are tied for best.

Per (dataset, model, metric), every explainer is tested against the best one
with a paired one-sided test, Holm-corrected (:func:`leaderboard`'s
``tied_best`` column); across the metrics of a (dataset, model), explainers
are compared by their mean rank with a Friedman test and the Nemenyi
critical difference (:func:`decision_summary`, Demšar 2006).  The paired test
machinery here is also the one of the test against the random control
(:func:`significance_vs_control`).
"""

import functools
from numbers import Real

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._docstring import DEMSAR_REFERENCE
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._sklearn import Interval, validate_params

__all__ = ["decision_summary", "significance_note"]

_GROUP = ["dataset", "model", "metric"]
# Reliability flags (:func:`~sklearn_xai.benchmark.meta_evaluate`'s
# ``flags``) that say a metric's ranking is not evidence about the
# explainers: it prefers the random control to the best explainer, it does
# not react when the model is disrupted (or its attributions shuffled), or it gives every explainer
# the same score.  Flags about precision (few rows, unstable or underpowered
# rankings) are not among them: the paired tests already weigh the noise.
# The meta-evaluation's flags that make a metric's vote untrusted.  The
# meta-evaluation writes its flags from these names (``_meta._flags``), so
# the wording has one source and the match below cannot drift from it.
FLAG_CONTROL_WINS = "control beats the reference"
FLAG_BLIND = "blind to disruption"
FLAG_NO_SIGNAL = "same score for all explainers"
DISTRUSTING_FLAGS = (FLAG_CONTROL_WINS, FLAG_BLIND, FLAG_NO_SIGNAL)
# The reason of a metric dropped for its MetaQuantus score (an option of
# :func:`distrusted_metrics`, off by default).
FLAG_FAILS_METAQUANTUS = "fails MetaQuantus"
_TESTS = ("wilcoxon", "ttest")
# Means equal up to summation order tie (as the leaderboard's rank).
_DECIMALS = 12


def _select_pair(table, dataset, model, *, name="board"):
    """The rows of one (dataset, model) of a leaderboard or decision summary.

    Parameters
    ----------
    table : DataFrame
        A table with ``dataset`` and ``model`` columns.
    dataset, model : str or None
        The pair to keep; ``None`` is the table's only one (an error when it
        has several).
    name : str, default="board"
        What the table is called in the error messages.

    Returns
    -------
    sub : DataFrame
        The rows of ``table`` with that dataset and model.
    """
    sub = table
    for col, value in (("dataset", dataset), ("model", model)):
        values = list(dict.fromkeys(sub[col]))
        if value is None:
            if len(values) != 1:
                raise ValueError(f"The {name} has several {col}s {values}: pass {col}=.")
            value = values[0]
        sub = sub[sub[col] == value]
        if sub.empty:
            raise ValueError(f"No rows for {col}={value!r}; available: {values}.")
    return sub


# ------------------------------------------------------------ paired tests
def _holm(p_values):
    """Holm step-down adjusted p-values (NaN entries left out and kept NaN)."""
    p = np.asarray(p_values, dtype=np.float64)
    adjusted = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size == 0:
        return adjusted
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    running = 0.0
    for i, idx in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[idx]))
        adjusted[idx] = running
    return adjusted


def _paired_p_value(diff, test):
    """One-sided p-value of "the paired differences are positive"."""
    from scipy import stats

    diff = np.asarray(diff, dtype=np.float64)
    diff = diff[~np.isnan(diff)]
    if diff.size == 0:
        return np.nan
    if np.all(diff == 0):
        return 1.0
    if test == "wilcoxon":
        return float(stats.wilcoxon(diff, alternative="greater", zero_method="wilcox").pvalue)
    return float(stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue)


@functools.lru_cache(maxsize=256)
def _min_p_value(n_pairs, test):
    """Smallest one-sided p-value ``test`` can give on ``n_pairs`` pairs.

    Wilcoxon: the p-value of ``n_pairs`` distinct positive differences (all
    ranks on the positive side), from the same scipy call as the test itself
    (exact, ``1 / 2**n``, up to 50 pairs; normal approximation beyond).
    t-test: 0 from two pairs on (the statistic is unbounded), no test below.
    """
    n_pairs = int(n_pairs)
    if n_pairs < 1:
        return np.nan
    if test == "wilcoxon":
        return _paired_p_value(np.arange(1.0, n_pairs + 1.0), test)
    return 0.0 if n_pairs >= 2 else 1.0


class _Pairing:
    """The scores of one (dataset, model, metric) side by side, one column per
    explainer and one row per ``on`` key (sorted), built once for all the
    pairs a family of tests needs instead of one join per pair.

    ``pairs(explainer, reference)`` gives the two explainers' values on the
    keys both have a score for (an inner join: a NaN score is kept, a missing
    one is not), in the sorted key order, so the tests do not depend on the
    order of the table's rows.
    """

    def __init__(self, values, on):
        keyed = values.set_index(on + ["explainer"])["value"]
        if not keyed.index.is_unique:
            duplicated = keyed.index[keyed.index.duplicated()][:3].tolist()
            raise ValueError(f"Scores must be unique per {on + ['explainer']}; "
                             f"duplicated keys: {duplicated}.")
        self.values = keyed.unstack("explainer").sort_index()
        self.present = pd.Series(1.0, index=keyed.index).unstack("explainer").reindex(
            index=self.values.index, columns=self.values.columns).notna()

    def pairs(self, explainer, reference):
        if explainer not in self.values.columns or reference not in self.values.columns:
            return np.array([]), np.array([])
        both = (self.present[explainer] & self.present[reference]).to_numpy()
        return (self.values[explainer].to_numpy(dtype=float)[both],
                self.values[reference].to_numpy(dtype=float)[both])


def _row_groups(per_row):
    """Per-row scores split by (dataset, model, metric)."""
    if per_row is None or not len(per_row):
        return {}
    return {key: frame for key, frame in per_row.groupby(_GROUP, sort=False)}


def _paired_family(seeds, rows, reference, explainers, sign, test, *, worse=False):
    """Paired one-sided tests of ``explainers`` against ``reference`` within
    one (dataset, model, metric), Holm-corrected over the family.

    Scores are paired on (seed, row) when per-row scores pair up, else on
    seeds.  ``sign`` orients the metric (+1 when greater is better).  The
    alternative is "better than the reference", or "worse than the
    reference" when ``worse``.

    Returns a list of dicts: explainer, n_pairs, paired_over, p_value, p_holm.
    """
    records = []
    by_row = _Pairing(rows, ["seed", "row"]) if rows is not None and len(rows) else None
    by_seed = None
    for explainer in explainers:
        over = "rows"
        a = np.array([])
        if by_row is not None:
            a, b = by_row.pairs(explainer, reference)
        if a.size == 0:
            over = "seeds"
            by_seed = by_seed if by_seed is not None else _Pairing(seeds, ["seed"])
            a, b = by_seed.pairs(explainer, reference)
        diff = sign * (b - a) if worse else sign * (a - b)
        records.append({"explainer": explainer, "n_pairs": int(np.sum(~np.isnan(diff))),
                        "paired_over": over, "p_value": _paired_p_value(diff, test)})
    for rec, adjusted in zip(records, _holm([r["p_value"] for r in records])):
        rec["p_holm"] = adjusted
    return records


def _oriented(means, greater_is_better):
    """Means in the "greater is better" orientation, rounded so that means
    equal up to summation order tie."""
    means = np.asarray(means, dtype=np.float64)
    return np.round(np.where(np.asarray(greater_is_better, dtype=bool), means, -means),
                    _DECIMALS)


def _decision_columns(board, ok, per_row, *, control, test, alpha, significance=None):
    """The leaderboard's decision columns, indexed like ``board``.

    ``tied_best`` and ``p_vs_best`` per explainer; ``paired_over``,
    ``n_pairs``, ``n_comparisons``, ``min_p_value`` and
    ``can_reach_significance`` per (dataset, model, metric).
    ``significance`` is :func:`significance_vs_control`'s output when a
    control is given (its pair counts enter the reachability).
    """
    n = len(board)
    tied = pd.array([pd.NA] * n, dtype="boolean")
    p_vs_best = np.full(n, np.nan)
    paired_over = np.full(n, None, dtype=object)
    n_pairs = np.zeros(n, dtype=np.int64)
    n_comparisons = np.zeros(n, dtype=np.int64)
    min_p = np.full(n, np.nan)
    reach = pd.array([pd.NA] * n, dtype="boolean")
    row_groups = _row_groups(per_row)
    seed_groups = {key: frame for key, frame in ok.groupby(_GROUP, sort=False)}
    control_groups = {}
    if significance is not None and len(significance):
        control_groups = {key: frame for key, frame in significance.groupby(_GROUP, sort=False)}
    for key, group in board.groupby(_GROUP, sort=False):
        pos = board.index.get_indexer(group.index)
        sign = 1.0 if bool(group["greater_is_better"].iloc[0]) else -1.0
        oriented = _oriented(group["mean"], group["greater_is_better"])
        candidate = (group["explainer"] != control).to_numpy() & ~np.isnan(oriented)
        family, counts, overs = [], [], []
        if candidate.any():
            best_value = oriented[candidate].max()
            is_best = candidate & (oriented == best_value)
            # The reference: the best mean, first in the board's order on a tie.
            reference = group["explainer"].iloc[int(np.flatnonzero(is_best)[0])]
            others = [e for e, c in zip(group["explainer"], group["explainer"] != control)
                      if c and e != reference]
            family = _paired_family(seed_groups[key], row_groups.get(key), reference,
                                    others, sign, test, worse=True)
            by_name = {rec["explainer"]: rec for rec in family}
            for i, explainer in enumerate(group["explainer"]):
                if explainer == control:
                    continue
                if explainer != reference:
                    p_vs_best[pos[i]] = by_name[explainer]["p_holm"]
                if is_best[i]:
                    tied[pos[i]] = True  # best by mean
                elif not np.isnan(p_vs_best[pos[i]]):
                    tied[pos[i]] = not p_vs_best[pos[i]] < alpha
            counts += [rec["n_pairs"] for rec in family]
            overs += [rec["paired_over"] for rec in family]
        # A Holm family can reject only if its smallest p-value times its
        # size is below alpha: the smaller family (the best is not compared
        # with itself) and the most pairs bound what any test can reach.
        sizes = [len(family)] if family else []
        against_control = control_groups.get(key)
        if against_control is not None and len(against_control):
            sizes.append(len(against_control))
            counts += against_control["n_pairs"].tolist()
            overs += against_control["paired_over"].tolist()
        m = min(sizes, default=0)
        largest = max(counts, default=0)
        n_pairs[pos], n_comparisons[pos] = largest, m
        if overs:
            paired_over[pos] = "rows" if "rows" in overs else "seeds"
        if m and largest:
            min_p[pos] = _min_p_value(largest, test)
            reach[pos] = bool(min(1.0, m * min_p[pos[0]]) < alpha)
        elif m:
            reach[pos] = False
    return pd.DataFrame({
        "tied_best": tied, "p_vs_best": p_vs_best, "paired_over": paired_over,
        "n_pairs": n_pairs, "n_comparisons": n_comparisons, "min_p_value": min_p,
        "can_reach_significance": reach,
    }, index=board.index)


def distrusted_metrics(meta, *, min_mc_score=None):
    """The metrics a reliability table distrusts, with the reason.

    Parameters
    ----------
    meta : DataFrame or None
        :func:`~sklearn_xai.benchmark.meta_evaluate`'s table (columns
        dataset, model, metric, flags, and ``mc_score`` for
        ``min_mc_score``).
    min_mc_score : float, default=None
        Also distrust the metrics that fail MetaQuantus's test: a
        meta-consistency score (``mc_score``, in [0, 1], ideal 1) below
        this.  None (the default) does not read the MC score; a metric
        without one (results-only meta-evaluation) is never dropped for it.

    Returns
    -------
    distrusted : dict
        ``(dataset, model, metric) -> reason``: the metrics with a flag of
        :data:`DISTRUSTING_FLAGS` (the reason being those flags) or with an
        MC score below ``min_mc_score``; empty for ``None``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark._decisions import distrusted_metrics
    >>> meta = pd.DataFrame({"dataset": "d", "model": "m", "metric": ["a", "b"],
    ...                      "flags": ["control beats the reference (d_z -0.40); "
    ...                                "underpowered (needs 90 rows)",
    ...                                "underpowered (needs 50 rows)"]})
    >>> distrusted_metrics(meta)
    {('d', 'm', 'a'): 'control beats the reference (d_z -0.40)'}
    >>> meta["mc_score"] = [0.9, 0.4]
    >>> distrusted_metrics(meta, min_mc_score=0.5)[("d", "m", "b")]
    'fails MetaQuantus (MC 0.40 < 0.50)'
    """
    out = {}
    if min_mc_score is not None and not (isinstance(min_mc_score, Real)
                                         and 0 <= min_mc_score <= 1):
        raise ValueError(f"min_mc_score must be None or a float in [0, 1], got "
                         f"{min_mc_score!r}.")
    if meta is None or not len(meta) or "flags" not in meta:
        return out
    for _, row in meta.iterrows():
        flags = row["flags"] if isinstance(row["flags"], str) else ""
        reasons = [f.strip() for f in flags.split(";")
                   if f.strip().startswith(DISTRUSTING_FLAGS)]
        mc = pd.to_numeric(row.get("mc_score", np.nan), errors="coerce")
        if min_mc_score is not None and np.isfinite(mc) and mc < min_mc_score:
            reasons.append(f"{FLAG_FAILS_METAQUANTUS} (MC {mc:.2f} < {min_mc_score:.2f})")
        if reasons:
            out[(row["dataset"], row["model"], row["metric"])] = "; ".join(reasons)
    return out


def _left_out(exclude, dataset, model, metrics):
    """metric -> reason of the ``metrics`` of (dataset, model) in
    ``exclude`` (keyed by (dataset, model, metric) or by metric)."""
    if not exclude:
        return {}
    out = {}
    for metric in metrics:
        for key in ((dataset, model, metric), metric):
            try:
                if key in exclude:
                    out[metric] = str(exclude[key])
                    break
            except TypeError:  # an unhashable metric label
                continue
    return out


# ------------------------------------------------------ Friedman / Nemenyi
@functools.lru_cache(maxsize=256)
def _nemenyi_q(k, alpha):
    """Critical value ``q_alpha`` of the Nemenyi test for ``k`` treatments:
    the studentized range quantile (infinite degrees of freedom) over
    ``sqrt(2)`` (Demšar 2006, Table 5a)."""
    from scipy.stats import studentized_range

    if k < 2:
        return np.nan
    return float(studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def _critical_difference(k, n_blocks, alpha):
    """Nemenyi critical difference of mean ranks,
    ``q_alpha * sqrt(k (k + 1) / (6 N))`` (Demšar 2006, Section 3.2.2)."""
    if k < 2 or n_blocks < 1:
        return np.nan
    return _nemenyi_q(k, alpha) * np.sqrt(k * (k + 1) / (6.0 * n_blocks))


def _board_control(board, control):
    if control is None:
        control = board.attrs.get("control")
    return control


@validate_params(
    {
        "board": [pd.DataFrame],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "control": [str, None],
        "exclude": [dict, None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(demsar_reference=DEMSAR_REFERENCE)
def decision_summary(board, *, alpha=0.05, control=None, exclude=None):
    """Mean ranks over metrics, Friedman test and Nemenyi critical difference.

    Per (dataset, model), the explainers other than the control are ranked
    within each metric in the metric's orientation (1 = best, tied means
    share the average rank) and the ranks are averaged over the metrics, the
    metrics playing the part of Demšar's data sets.  The Friedman test asks
    whether the explainers' mean ranks differ at all; the Nemenyi critical
    difference ``CD = q_alpha * sqrt(k (k + 1) / (6 N))`` is the smallest
    difference of mean ranks that is significant at ``alpha`` for ``k``
    explainers and ``N`` metrics (Demšar 2006).  Explainers whose mean rank
    is within ``CD`` of the best mean rank are tied for best overall.

    The Friedman test and the critical difference use the metrics where every
    explainer has a score (a complete block design); the mean ranks use every
    metric where the explainer has one (``n_metrics``).

    Metrics in ``exclude`` (those a reliability table distrusts, see
    :func:`distrusted_metrics`) do not vote: they are left out of the ranks,
    of the tied-best counts and of the test, and ``left_out`` names them
    with the reason.  When every metric of a (dataset, model) is in
    ``exclude`` none is left out (there would be no decision) and the note
    says that the decision depends on them.

    Parameters
    ----------
    board : DataFrame
        A leaderboard (:func:`leaderboard`): columns dataset, model, metric,
        explainer, mean, greater_is_better and, for ``n_tied_best``,
        tied_best.
    alpha : float, default=0.05
        Level of the Friedman test and of the Nemenyi critical difference.
    control : str, default=None
        Label of the control explainer, left out of the ranks (it is never
        best).  ``None`` takes the control the leaderboard was built with
        (``board.attrs["control"]``) when it records one.
    exclude : dict, default=None
        Metrics left out of the decision: ``(dataset, model, metric)`` (or
        a metric label, for every dataset and model) -> the reason (text).

    Returns
    -------
    summary : DataFrame
        One row per (dataset, model, explainer), best mean rank first:
        ``mean_rank``, ``n_metrics``, ``n_tied_best`` (metrics where the
        explainer is tied for best by the paired test against the best,
        :func:`leaderboard`'s ``tied_best``), ``tied_best_overall`` (mean
        rank less than ``critical_difference`` above the best one); and per
        (dataset, model): ``n_explainers`` (k), ``n_blocks`` (N, the
        complete metrics), ``friedman_statistic`` (chi-square),
        ``friedman_p_value``, ``critical_difference``, ``left_out`` (the
        metrics of ``exclude`` left out, "metric (reason)" joined by "; ",
        or empty) and ``note`` (why the test is not available, that the
        decision depends on distrusted metrics, or empty).  ``summary.attrs["alpha"]`` is ``alpha``;
        ``summary.attrs["left_out"]`` maps (dataset, model) to
        ``{metric: reason}`` of the metrics left out.

    References
    ----------
    {demsar_reference}

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import decision_summary
    >>> board = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "metric": ["x"] * 3 + ["y"] * 3,
    ...     "explainer": ["a", "b", "c"] * 2, "mean": [3.0, 2.0, 1.0, 0.9, 0.8, 0.7],
    ...     "greater_is_better": True})
    >>> summary = decision_summary(board)
    >>> summary[["explainer", "mean_rank", "n_metrics"]].to_numpy().tolist()
    [['a', 1.0, 2], ['b', 2.0, 2], ['c', 3.0, 2]]
    >>> round(float(summary["friedman_statistic"].iloc[0]), 3)
    4.0
    """
    from scipy import stats

    missing = {"dataset", "model", "metric", "explainer", "mean",
               "greater_is_better"} - set(board.columns)
    if missing:
        raise ValueError(f"The board lacks the columns {sorted(missing)}; pass a "
                         "leaderboard().")
    control = _board_control(board, control)
    frame = board[board["explainer"] != control].copy()
    frame["oriented"] = _oriented(frame["mean"], frame["greater_is_better"])
    frame = frame[np.isfinite(frame["oriented"])]
    frame["metric_rank"] = frame.groupby(_GROUP, sort=False)["oriented"].rank(
        ascending=False, method="average")
    if "tied_best" in frame:
        tied = frame["tied_best"].astype("boolean").fillna(False).astype(int)
    else:
        tied = pd.Series(np.nan, index=frame.index)
    frame["tied"] = tied
    records, left_out_of = [], {}
    for (dataset, model), group in frame.groupby(["dataset", "model"], sort=False):
        notes = []
        scored = list(dict.fromkeys(group["metric"]))
        left_out = _left_out(exclude, dataset, model, scored)
        if left_out and len(left_out) == len(scored):
            notes.append("every metric is flagged as unreliable ("
                         + ", ".join(map(str, left_out)) + "): the decision depends on "
                         "them")
            left_out = {}
        elif left_out:
            group = group[~group["metric"].isin(list(left_out))]
        left_out_of[(dataset, model)] = left_out
        per_explainer = group.groupby("explainer", sort=False).agg(
            mean_rank=("metric_rank", "mean"), n_metrics=("metric_rank", "count"),
            n_tied_best=("tied", lambda s: s.sum(min_count=1)))
        explainers = list(per_explainer.index)
        k = len(explainers)
        wide = group.pivot(index="metric", columns="explainer", values="oriented")
        complete = wide[explainers].dropna()
        n_blocks = len(complete)
        statistic = p_value = np.nan
        if n_blocks < len(wide):
            notes.append(f"{len(wide) - n_blocks} metric(s) without a score for every "
                         "explainer left out of the Friedman test")
        if k < 3:
            notes.append(f"the Friedman test needs at least 3 explainers, got {k}")
        elif n_blocks < 2:
            notes.append("the Friedman test needs at least 2 metrics scored by every "
                         f"explainer, got {n_blocks}")
        elif (complete.nunique(axis=1) == 1).all():
            notes.append("every explainer ties on every metric")
            statistic, p_value = 0.0, 1.0
        else:
            result = stats.friedmanchisquare(*(complete[e].to_numpy() for e in explainers))
            statistic, p_value = float(result.statistic), float(result.pvalue)
        cd = _critical_difference(k, n_blocks, alpha)
        if np.isnan(cd):
            notes.append("no critical difference: it needs at least 2 explainers and "
                         "1 metric scored by every explainer")
        best = per_explainer["mean_rank"].min()
        gap = per_explainer["mean_rank"] - best
        overall = (gap < cd) if np.isfinite(cd) else pd.Series(np.isclose(gap, 0.0), index=gap.index)
        for explainer, row in per_explainer.iterrows():
            records.append({
                "dataset": dataset, "model": model, "explainer": explainer,
                "mean_rank": float(row["mean_rank"]), "n_metrics": int(row["n_metrics"]),
                "n_tied_best": row["n_tied_best"],
                "tied_best_overall": bool(overall[explainer]),
                "n_explainers": k, "n_blocks": n_blocks,
                "friedman_statistic": statistic, "friedman_p_value": p_value,
                "critical_difference": cd,
                "left_out": "; ".join(f"{m} ({r})" for m, r in left_out.items()),
                "note": "; ".join(notes),
            })
    columns = ["dataset", "model", "explainer", "mean_rank", "n_metrics", "n_tied_best",
               "tied_best_overall", "n_explainers", "n_blocks", "friedman_statistic",
               "friedman_p_value", "critical_difference", "left_out", "note"]
    summary = pd.DataFrame.from_records(records, columns=columns)
    summary["n_tied_best"] = summary["n_tied_best"].astype("Int64")
    order = {k: {v: i for i, v in enumerate(dict.fromkeys(board[k]))}
             for k in ("dataset", "model")}
    sort_keys = pd.DataFrame({k: summary[k].map(order[k]) for k in ("dataset", "model")})
    sort_keys["mean_rank"] = summary["mean_rank"]
    idx = sort_keys.sort_values(["dataset", "model", "mean_rank"], kind="stable").index
    summary = summary.loc[idx].reset_index(drop=True)
    summary.attrs["alpha"] = alpha
    summary.attrs["left_out"] = left_out_of
    return summary


# ------------------------------------------------------------------- notes
def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@validate_params(
    {"board": [pd.DataFrame], "alpha": [Interval(Real, 0, 1, closed="neither")]},
    prefer_skip_nested_validation=True,
)
def significance_note(board, alpha=0.05):
    """Plain-language notes on (dataset, model, metric)s too small for a
    significant difference.

    With few explained rows and seeds, a paired test cannot give a p-value
    small enough to survive the Holm correction: the exact one-sided
    Wilcoxon signed-rank test on ``n`` pairs never goes below ``1 / 2**n``,
    and Holm's first step compares the smallest p-value to ``alpha / m`` for
    ``m`` comparisons.  Then no explainer can be shown worse than the best
    (all are tied for best) nor better than the control, whatever the
    scores.

    Parameters
    ----------
    board : DataFrame
        A leaderboard (:func:`leaderboard`), with its columns
        ``min_p_value``, ``n_comparisons``, ``n_pairs``, ``paired_over`` and
        ``n_seeds``.
    alpha : float, default=0.05
        Level of the tests.

    Returns
    -------
    notes : list of str
        One sentence per size of run that cannot reach significance, naming
        the (dataset, model, metric)s concerned; empty when every test can.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import significance_note
    >>> board = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "metric": "x", "explainer": ["a", "b", "c"],
    ...     "n_seeds": 1, "paired_over": "rows", "n_pairs": 5, "n_comparisons": 2,
    ...     "min_p_value": 1 / 32})
    >>> significance_note(board, alpha=0.05)  # doctest: +NORMALIZE_WHITESPACE
    ['With 5 rows and 1 seed no difference can be significant at alpha=0.05 after
      correction for 2 comparisons: run more rows or seeds (d / m: x).']
    """
    needed = {"dataset", "model", "metric", "min_p_value", "n_comparisons", "n_pairs",
              "paired_over", "n_seeds"}
    missing = needed - set(board.columns)
    if missing:
        raise ValueError(f"The board lacks the columns {sorted(missing)}; pass a "
                         "leaderboard().")
    messages = {}
    for (dataset, model, metric), group in board.groupby(_GROUP, sort=False):
        m = int(group["n_comparisons"].max())
        min_p = float(group["min_p_value"].max())
        n_pairs = int(group["n_pairs"].max())
        if m < 1 or (np.isfinite(min_p) and min(1.0, m * min_p) < alpha):
            continue
        seeds = int(group["n_seeds"].max())
        over = group["paired_over"].dropna()
        if len(over) and (over == "rows").any():
            rows = int(round(n_pairs / max(seeds, 1)))
            size = f"With {_plural(rows, 'row')} and {_plural(seeds, 'seed')}"
        else:
            size = f"With {_plural(seeds, 'seed')} and no per-row scores"
        text = (f"{size} no difference can be significant at alpha={alpha:g} after "
                f"correction for {_plural(m, 'comparison')}: run more rows or seeds")
        messages.setdefault(text, {}).setdefault(f"{dataset} / {model}", []).append(
            str(metric))
    notes = []
    for text, places in messages.items():
        where = "; ".join(f"{place}: {', '.join(metrics)}" for place, metrics in places.items())
        notes.append(f"{text} ({where}).")
    return notes
