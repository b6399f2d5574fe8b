"""Critical-difference diagram of mean ranks (Demšar 2006, Figure 1)."""

import textwrap

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._decisions import _select_pair
from sklearn_xai.benchmark._docstring import DEMSAR_REFERENCE
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._sklearn import HasMethods, validate_params

__all__ = ["plot_critical_difference"]

_NEEDED = ("dataset", "model", "explainer", "mean_rank", "critical_difference")


def _cliques(ranks, cd):
    """Maximal runs ``(i, j)``, ``i < j``, of the sorted ``ranks`` whose
    range is less than ``cd``: groups not significantly different."""
    cliques, last = [], 0
    if not np.isfinite(cd):
        return cliques
    for i in range(len(ranks)):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] - ranks[i] < cd:
            j += 1
        if j > i and j > last:
            cliques.append((i, j))
            last = j
    return cliques


@validate_params(
    {
        "summary": [pd.DataFrame],
        "dataset": "no_validation",
        "model": "no_validation",
        "ax": [None, HasMethods(["plot", "text"])],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(demsar_reference=DEMSAR_REFERENCE)
def plot_critical_difference(summary, *, dataset=None, model=None, ax=None):
    """Critical-difference diagram of the explainers' mean ranks.

    The axis carries the mean ranks over metrics (1 = best, on the left);
    each explainer is named on the left (better half) or the right side with
    a line to its mean rank; thick bars join the explainers whose mean ranks
    differ by less than the Nemenyi critical difference (not significantly
    different), and the critical difference is drawn above the axis [1]_.

    Parameters
    ----------
    summary : DataFrame
        A :func:`decision_summary`.
    dataset, model : str, default=None
        Which (dataset, model) to draw; required when the summary has
        several.
    ax : matplotlib Axes, default=None
        Where to draw; a new figure when None.

    Returns
    -------
    ax : matplotlib.axes.Axes

    References
    ----------
    {demsar_reference}

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import decision_summary, plot_critical_difference
    >>> board = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "metric": ["x"] * 3 + ["y"] * 3,
    ...     "explainer": ["a", "b", "c"] * 2, "mean": [3.0, 2.0, 1.0, 0.9, 0.8, 0.7],
    ...     "greater_is_better": True})
    >>> ax = plot_critical_difference(decision_summary(board))
    >>> sorted(t.get_text() for t in ax.texts if t.get_text() in {"a", "b", "c"})
    ['a', 'b', 'c']
    """
    import matplotlib.pyplot as plt

    missing = set(_NEEDED) - set(summary.columns)
    if missing:
        raise ValueError(f"The summary lacks the columns {sorted(missing)}; pass a "
                         "decision_summary().")
    sub = _select_pair(summary, dataset, model, name="summary")
    sub = sub.sort_values("mean_rank", kind="stable")
    names = [str(e) for e in sub["explainer"]]
    ranks = sub["mean_rank"].to_numpy(dtype=float)
    cd = float(sub["critical_difference"].iloc[0])
    k = len(names)
    low, high = 1.0, float(max(k, np.ceil(np.nanmax(ranks)), 2))
    span = high - low
    n_left = (k + 1) // 2
    n_levels = max(n_left, k - n_left)
    cliques = _cliques(ranks, cd)

    # Room for the labels: about 0.075 inch per character at fontsize 9.
    def inches(labels):
        return 0.075 * max((len(line) for n in labels for line in n.split("\n")),
                           default=1) + 0.3

    if ax is None:  # wide enough for the labels on both sides of a 3-inch axis
        _, ax = plt.subplots(figsize=(max(7.0, (2 * inches(names) + 3.0) / 0.775),
                                      1.4 + 0.3 * n_levels + 0.15 * len(cliques)))
    fig = ax.figure
    width = ax.get_position().width * fig.get_figwidth()
    # In axes given too narrow, long labels are wrapped (never cut off).
    fit = max(8, int(((width - 1.0) / 2 - 0.3) / 0.075))
    names = [textwrap.fill(n, fit) if len(n) > fit else n for n in names]
    label_inches = inches(names)
    if width > 2 * label_inches + 1.0:
        margin = label_inches * span / (width - 2 * label_inches)
    else:
        margin = span

    line = {"color": "black", "linewidth": 0.9}
    # The rank axis and its ticks.
    ax.plot([low, high], [0.0, 0.0], **line)
    for tick in np.arange(low, high + 0.25, 0.5):
        size = 0.12 if float(tick).is_integer() else 0.06
        ax.plot([tick, tick], [0.0, size], **line)
        if float(tick).is_integer():
            ax.text(tick, 0.17, f"{int(tick)}", ha="center", va="bottom", fontsize=8)
    # The critical difference above the axis.
    top = 0.55
    if np.isfinite(cd):
        ax.plot([low, low + cd], [top, top], **line)
        for end in (low, low + cd):
            ax.plot([end, end], [top - 0.05, top + 0.05], **line)
        ax.text(low + cd / 2, top + 0.08, "CD", ha="center", va="bottom", fontsize=8)
    # The groups not significantly different, just below the axis.
    for c, (i, j) in enumerate(cliques):
        y = -0.2 - 0.15 * c
        ax.plot([ranks[i] - 0.03 * span / 4, ranks[j] + 0.03 * span / 4], [y, y],
                color="black", linewidth=3.0, solid_capstyle="butt")
    # One line and one label per explainer: the better half on the left.
    start = -0.2 - 0.15 * len(cliques) - 0.1
    step = 0.3 * max(n.count("\n") + 1 for n in names)  # wrapped labels: more room
    for i, (name, rank) in enumerate(zip(names, ranks)):
        if i < n_left:
            y, end, ha = start - step * (i + 1), low - 0.1 * margin, "right"
        else:
            y, end, ha = start - step * (k - i), high + 0.1 * margin, "left"
        ax.plot([rank, rank, end], [0.0, y, y], **line)
        ax.text(end + (-0.05 if ha == "right" else 0.05) * margin, y, name, ha=ha,
                va="center", fontsize=9)
    bottom = start - step * (n_levels + 0.5)
    ax.set_xlim(low - margin, high + margin)
    ax.set_ylim(bottom, top + 0.35)
    ax.axis("off")
    title = f"{sub['dataset'].iloc[0]} / {sub['model'].iloc[0]}: mean rank"
    if "friedman_p_value" in sub and np.isfinite(sub["friedman_p_value"].iloc[0]):
        title += f" (Friedman p = {float(sub['friedman_p_value'].iloc[0]):.3g})"
    ax.set_title(title, fontsize=9)
    return ax
