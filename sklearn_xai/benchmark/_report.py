"""Reports of benchmark results: leaderboard tables (Markdown, HTML, text),
bar charts with error bars grouped by metric family, and one self-contained
HTML page (:func:`write_report`)."""

import base64
import html
import io
import os
import re
import sys
import textwrap
from numbers import Integral, Real

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._cd_diagram import plot_critical_difference
from sklearn_xai.benchmark._decisions import (
    DISTRUSTING_FLAGS,
    _select_pair,
    decision_summary,
    distrusted_metrics,
    significance_note,
)
from sklearn_xai.benchmark._docstring import DEMSAR_REFERENCE
from sklearn_xai.benchmark._results import BenchmarkResults, metric_display_name
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._files import (
    markdown_code,
    markdown_text,
    one_line,
    write_in_folder,
)
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params

__all__ = ["format_leaderboard", "plot_leaderboard", "write_report"]

NOT_BETTER_MARK = "†"
CANNOT_REACH_MARK = "‡"
TERMINAL_WIDTH = 100
_FORMATS = ("markdown", "html", "text")
_ERRORS = {"std": "± 1 std over seeds", "se": "± 1 standard error over seeds",
           "row_se": "± mean per-row standard error"}
# Scorer names that are factories, not registered metrics (no MetricSpec).
_FACTORY_FAMILIES = {"neg_group_gap": "fairness"}
# Longest explainer label a terminal table shows unabbreviated.
_LABEL_LIMIT = 20
# Most metric columns of one report table (HTML and report.md): a family with
# more (faithfulness has 19) is split into balanced tables, each of which fits
# a 1400-px page.
MAX_TABLE_METRICS = 7
# Longest model or explainer description in the report's summary.
_DESCRIPTION_LIMIT = 120


# ---------------------------------------------------------------- families
def _metric_family(name):
    """Family of a scorer name, from its registry entry: the spec's
    ``family``, else its module (``_faithfulness`` -> "faithfulness"), else
    "other"."""
    if name in _FACTORY_FAMILIES:
        return _FACTORY_FAMILIES[name]
    try:
        from sklearn_xai.metrics import get_metric_spec

        spec = get_metric_spec(name)
    except (ImportError, ValueError, KeyError, TypeError):
        return "other"
    family = getattr(spec, "family", None)
    if family:
        return str(family)
    module = getattr(getattr(spec, "func", None), "__module__", "") or ""
    return module.rsplit(".", 1)[-1].strip("_") or "other"


def _family_title(family):
    """``"ground_truth"`` -> ``"Ground truth"``."""
    text = str(family).replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else "Other"


def _with_families(board, table=None):
    """The board with a ``family`` column (kept if present): each metric
    label's family, looked up by its scorer name (``metric_name`` of the
    results table when given, else the label)."""
    if "family" in board:
        return board
    names = {}
    if table is not None and "metric_name" in table:
        known = table.dropna(subset=["metric_name"])
        names = dict(zip(known["metric"], known["metric_name"]))
    families = {m: _metric_family(names.get(m, m)) for m in dict.fromkeys(board["metric"])}
    return board.assign(family=board["metric"].map(families))


def _family_groups(sub):
    """``[(family title, [metric, ...]), ...]`` in the board's metric order."""
    if "family" not in sub:
        sub = _with_families(sub)
    groups = {}
    for metric, family in zip(sub["metric"], sub["family"]):
        metrics = groups.setdefault(_family_title(family), [])
        if metric not in metrics:
            metrics.append(metric)
    return list(groups.items())


# ------------------------------------------------------------------ cells
def _beats(row):
    """The row's test outcome."""
    return row.get("beats_control", pd.NA)


def _is_best(row):
    """Bold: ``tied_best`` when the board has it (NA for the control), else
    rank 1."""
    if "tied_best" in row.index:
        tied = row["tied_best"]
        return False if pd.isna(tied) else bool(tied)
    return not pd.isna(row["rank"]) and row["rank"] == 1


def _not_better(row):
    beats = _beats(row)
    return not pd.isna(beats) and not bool(beats)


def _number(row, digits):
    if np.isfinite(row["std"]):
        return f"{row['mean']:.{digits}f} ± {row['std']:.{digits}f}"
    return f"{row['mean']:.{digits}f}"


def _cell_text(row, digits, bold):
    text = _number(row, digits)
    if _not_better(row):
        text += f" {NOT_BETTER_MARK}"
    if bold and _is_best(row):
        text = f"**{text}**"
    return text


def _cannot_reach(sub, metric):
    """Whether no test of ``metric`` can reach the level (the board's
    ``can_reach_significance``; False when the column is absent)."""
    if "can_reach_significance" not in sub:
        return False
    values = sub.loc[sub["metric"] == metric, "can_reach_significance"].dropna()
    return bool(len(values)) and not bool(values.astype(bool).any())


def _column_name(sub, metric):
    rows = sub[sub["metric"] == metric]
    name = metric_display_name(metric, bool(rows["greater_is_better"].iloc[0]))
    return name + f" {CANNOT_REACH_MARK}" if _cannot_reach(sub, metric) else name


def _explainer_order(sub):
    return list(dict.fromkeys(sub["explainer"]))


# ------------------------------------------------------------ text tables
def _abbreviations(labels, limit):
    """label -> short label for labels longer than ``limit``: each word cut
    to 4 letters (``integrated_gradients`` -> ``inte_grad``), then truncated
    with an ellipsis; unique."""
    out, used = {}, set()
    for label in labels:
        short = str(label)
        if len(short) > limit:
            words = [w for w in re.split(r"[_\-\s.]+", short) if w]
            short = "_".join(w[:4] for w in words) if len(words) > 1 else short
            if len(short) > limit:
                short = short[:limit - 1] + "…"
            base, i = short, 2
            while short in used or short in labels and short != label:
                suffix = str(i)
                short = base[:limit - len(suffix)] + suffix
                i += 1
        used.add(short)
        out[label] = short
    return out


def _wide(sub, metrics, digits, bold, control, names):
    """One wide frame (explainers x ``metrics``) of one (dataset, model)."""
    sub = sub[sub["metric"].isin(metrics)]
    explainers = _explainer_order(sub)
    columns = {m: _column_name(sub, m) for m in metrics}
    cells = sub.assign(column=sub["metric"].map(columns),
                       text=[_cell_text(r, digits, bold) for _, r in sub.iterrows()])
    wide = cells.pivot(index="explainer", columns="column", values="text")
    wide = wide.reindex(index=explainers, columns=[columns[m] for m in metrics])
    wide = wide.fillna("–")
    wide.index = [f"{names.get(e, e)} (control)" if e == control else names.get(e, e)
                  for e in wide.index]
    wide.index.name = "explainer"
    wide.columns.name = None
    return wide


def _markdown(frame):
    """A Markdown table of ``frame``, its labels and text cells escaped
    (:func:`~sklearn_xai.utils._files.markdown_text`): a label cannot end the
    row, start a line or put HTML into the page."""
    frame = frame.copy()
    frame.index = [markdown_text(v) for v in frame.index]
    frame.index.name = None if frame.index.name is None else markdown_text(frame.index.name)
    frame.columns = [markdown_text(c) for c in frame.columns]
    for column in range(frame.shape[1]):
        values = frame.iloc[:, column]
        if values.dtype == object:
            frame.iloc[:, column] = [v if not isinstance(v, str) else markdown_text(v)
                                     for v in values]
    try:
        return frame.to_markdown()
    except ImportError:  # tabulate missing: a plain pipe table
        header = [frame.index.name or ""] + [str(c) for c in frame.columns]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for idx, row in frame.iterrows():
            lines.append("| " + " | ".join([str(idx)] + [str(v) for v in row]) + " |")
        return "\n".join(lines)


def _render(frame, fmt):
    if fmt == "markdown":
        return _markdown(frame)
    frame = frame.copy()  # plain text: each label on one line, no escape sequence
    name = frame.index.name
    frame.index = pd.Index([one_line(v) for v in frame.index],
                           name=None if name is None else one_line(name))
    frame.columns = [one_line(c) for c in frame.columns]
    return frame.to_string()


def _width(text):
    return max((len(line) for line in text.splitlines()), default=0)


def _chunks(metrics, fits):
    """Consecutive runs of ``metrics``, each as long as ``fits`` allows (at
    least one metric)."""
    chunks, current = [], []
    for metric in metrics:
        if current and not fits(current + [metric]):
            chunks.append(current)
            current = []
        current.append(metric)
    if current:
        chunks.append(current)
    return chunks


def _balanced_chunks(metrics, most):
    """``metrics`` cut into the fewest consecutive runs of at most ``most``
    metrics, of sizes differing by at most one (19 by 7: 7, 6, 6)."""
    metrics = list(metrics)
    if most is None or len(metrics) <= most:
        return [metrics]
    n = -(-len(metrics) // most)
    size, extra = divmod(len(metrics), n)
    chunks, start = [], 0
    for i in range(n):
        stop = start + size + (i < extra)
        chunks.append(metrics[start:stop])
        start = stop
    return chunks


def _text_tables(sub, fmt, digits, control, max_width, by_family, max_metrics=None):
    """``[(subtitle, rendered table), ...]`` of one (dataset, model): one
    table when it fits in ``max_width`` (and not ``by_family``), else one per
    metric family, split further by metric when a family is still too
    wide, and into tables of at most ``max_metrics`` metrics.  Returns the
    tables and the abbreviations used."""
    bold = fmt != "text"
    metrics = list(dict.fromkeys(sub["metric"]))
    names = {}

    def render(ms):
        return _render(_wide(sub, ms, digits, bold, control, names), fmt)

    if not by_family:
        whole = render(metrics)
        if max_width is None or _width(whole) <= max_width:
            return [("", whole)], names
    if max_width is not None:
        names = _abbreviations(_explainer_order(sub), _LABEL_LIMIT)
        names = {k: v for k, v in names.items() if k != v}
    parts = []
    for family, family_metrics in _family_groups(sub):
        chunks = []
        for part in _balanced_chunks(family_metrics, max_metrics):
            if max_width is None:
                chunks.append(part)
            else:
                chunks.extend(_chunks(part, lambda ms: _width(render(ms)) <= max_width))
        for i, chunk in enumerate(chunks, 1):
            title = family if len(chunks) == 1 else f"{family} ({i} of {len(chunks)})"
            parts.append((title, render(chunk)))
    return parts, names


def _note(control, alpha, bold, tied=False, cannot_reach=False):
    """The note under the tables, as phrases (joined by spaces, or one
    wrapped block each for a terminal)."""
    best = ""
    if bold:
        best = ("; in bold the best explainer per metric and those not significantly "
                "worse than it (tied best)" if tied else
                "; best explainer per metric in bold")
    if control is None:
        phrases = [f"Mean ± std over seeds{best}.",
                   "No random control: no significance test."]
    else:
        phrases = [f"Mean ± std over seeds{best}.",
                   f"{NOT_BETTER_MARK} = not significantly better than the `{markdown_code(control)}` "
                   "control",
                   "(one-sided paired Wilcoxon signed-rank test over seeds x explained rows, "
                   f"Holm-corrected across explainers, alpha = {alpha})."]
    if cannot_reach:
        phrases.append(f"{CANNOT_REACH_MARK} = too few seeds or rows for any test of this "
                       "metric to reach alpha.")
    return phrases


def _select_metrics(board, metrics):
    """Rows of the metrics named in ``metrics`` (labels such as
    ``neg_complexity`` or their display name ``complexity``)."""
    if metrics is None:
        return board
    if isinstance(metrics, str):
        metrics = [metrics]
    wanted = [m.strip() for item in metrics for m in str(item).split(",") if m.strip()]
    labels = list(dict.fromkeys(board["metric"]))
    aliases = {}
    for label in labels:
        aliases[label] = label
        if label.startswith("neg_"):
            aliases.setdefault(label[4:], label)
    unknown = [m for m in wanted if m not in aliases]
    if unknown:
        raise ValueError(f"Unknown metric(s) {unknown}; the results have {labels}.")
    keep = {aliases[m] for m in wanted}
    return board[board["metric"].isin(keep)]


@validate_params(
    {
        "board": [pd.DataFrame],
        "fmt": [StrOptions(set(_FORMATS))],
        "control": [str, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "digits": [Interval(Integral, 0, None, closed="left")],
        "max_width": [Interval(Integral, 20, None, closed="left"), None],
        "metrics": [str, list, tuple, None],
    },
    prefer_skip_nested_validation=True,
)
def format_leaderboard(board, *, fmt="markdown", control=None, alpha=0.05, digits=3,
                       max_width=TERMINAL_WIDTH, metrics=None):
    """Leaderboard tables as text: one table per (dataset, model), explainers
    as rows and metrics (natural orientation, with an arrow) as columns.

    Cells read ``mean ± std`` over seeds.  In Markdown and HTML the best
    explainer of each metric is in bold (with the board's ``tied_best``
    column: every explainer not significantly worse than the best), ``†``
    marks an explainer not significantly better than the control, and
    ``‡`` on a metric says that no test of it can reach ``alpha`` (the
    board's ``can_reach_significance``).

    Parameters
    ----------
    board : DataFrame
        A leaderboard (:func:`leaderboard`).
    fmt : {"markdown", "html", "text"}, default="markdown"
        Output format.  HTML gives one table per metric family.
    control : str, default=None
        Label of the control explainer (marked "(control)" in the table).
    alpha : float, default=0.05
        Level quoted in the note.
    digits : int, default=3
        Decimals of the means and standard deviations.
    max_width : int or None, default=100
        Widest line of the Markdown and text output, for a terminal: a table
        wider than this is split by metric family (the metric registry's
        ``family``), then by metric, explainer labels longer than 20
        characters are abbreviated (listed under the tables) and the note is
        wrapped.  ``None`` keeps one table per (dataset, model).  Ignored by
        HTML.
    metrics : str or list of str, default=None
        Metrics to show (labels, comma-separated or a list; a loss may be
        named without its ``neg_`` prefix).  ``None`` shows all.

    Returns
    -------
    text : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import format_leaderboard, leaderboard
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["a"] * 5 + ["b"] * 5,
    ...     "metric": "neg_complexity", "seed": list(range(5)) * 2,
    ...     "value": [1.0, 2.0, 3.0, 2.0, 2.0] + [0.5] * 5, "greater_is_better": False,
    ...     "status": "ok"})
    >>> print(format_leaderboard(leaderboard(table), fmt="text"))  # doctest: +NORMALIZE_WHITESPACE
    d / m
              complexity ↓
    explainer
    b          0.500 ± 0.000
    a          2.000 ± 0.632
    <BLANKLINE>
    Mean ± std over seeds. No random control: no significance test.
    """
    board = _select_metrics(board, metrics)
    return _format(board, fmt=fmt, control=control, alpha=alpha, digits=digits,
                   max_width=None if fmt == "html" else max_width, by_family=fmt == "html")


def _format(board, *, fmt, control, alpha, digits, max_width, by_family, heading="###",
            max_metrics=None):
    parts, abbreviations = [], {}
    if "family" not in board:
        board = _with_families(board)
    for (dataset, model), sub in board.groupby(["dataset", "model"], sort=False):
        title = f"{dataset} / {model}"
        if fmt == "html":
            parts.append(f"<h3>{html.escape(title)}</h3>")
            for family, family_metrics in _family_groups(sub):
                parts.append(f"<h4>{html.escape(family)}</h4>")
                parts.append(_html_table(sub[sub["metric"].isin(family_metrics)],
                                         digits, control))
            continue
        tables, names = _text_tables(sub, fmt, digits, control, max_width, by_family,
                                     max_metrics)
        abbreviations.update(names)
        for subtitle, text in tables:
            full = f"{title} — {subtitle}" if subtitle else title
            parts.append(f"{heading} {markdown_text(full)}\n\n{text}\n" if fmt == "markdown"
                         else f"{one_line(full)}\n{text}\n")
    tied = "tied_best" in board
    cannot = any(_cannot_reach(sub, m) for (_, _, m), sub in
                 board.groupby(["dataset", "model", "metric"], sort=False))
    phrases = _note(control, alpha, fmt != "text", tied=tied, cannot_reach=cannot)
    if fmt == "html":
        parts.append(f"<p>{html.escape(' '.join(phrases))}</p>")
        return "\n".join(parts)
    if abbreviations:
        escape = markdown_text if fmt == "markdown" else one_line
        parts.append(_fill("Abbreviations: " + ", ".join(
            f"{escape(short)} = {escape(label)}" for label, short in abbreviations.items())
            + ".", max_width))
    parts.append(_pack(phrases, max_width))
    return "\n".join(parts)


def _pack(phrases, width):
    """Phrases joined by spaces, a phrase never broken unless it is longer
    than ``width`` alone."""
    if width is None:
        return " ".join(phrases)
    lines = []
    for phrase in phrases:
        if lines and len(lines[-1]) + 1 + len(phrase) <= width:
            lines[-1] += " " + phrase
        else:
            lines.extend(_fill(phrase, width).splitlines())
    return "\n".join(lines)


def _fill(text, width):
    if width is None:
        return text
    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False)


# -------------------------------------------------------------------- HTML
def _html_header(name):
    """A metric header that may break after underscores and before its
    arrow (the arrow and its marks kept together)."""
    word, _, marks = str(name).partition(" ")
    head = "_<wbr>".join(html.escape(part) for part in word.split("_"))
    if marks:
        head += f' <span class="arrow">{html.escape(marks).replace(" ", "&nbsp;")}</span>'
    return head


def _html_table(sub, digits, control, max_metrics=MAX_TABLE_METRICS):
    """The leaderboard of ``sub`` (explainers x metrics) as HTML: one table,
    or several of at most ``max_metrics`` metric columns each (balanced), so
    that a wide family fits the page."""
    metrics = list(dict.fromkeys(sub["metric"]))
    chunks = _balanced_chunks(metrics, max_metrics)
    if len(chunks) > 1:
        return "\n".join(_html_table(sub[sub["metric"].isin(chunk)], digits, control,
                                      max_metrics=None) for chunk in chunks)
    explainers = _explainer_order(sub)
    cells = {(r["explainer"], r["metric"]): r for _, r in sub.iterrows()}
    head = "".join(f'<th scope="col">{_html_header(_column_name(sub, m))}</th>'
                   for m in metrics)
    rows = []
    for explainer in explainers:
        is_control = explainer == control
        label = html.escape(str(explainer))
        if is_control:
            label += ' <span class="tag">control</span>'
        tds = []
        for metric in metrics:
            row = cells.get((explainer, metric))
            if row is None or not np.isfinite(row["mean"]):
                tds.append('<td class="num empty">–</td>')
                continue
            text = html.escape(_number(row, digits))
            if _not_better(row):
                text += (f'<span class="mark" title="not significantly better than the '
                         f'control">{NOT_BETTER_MARK}</span>')
            cls = "num best" if _is_best(row) else "num"
            if _is_best(row):
                text = f"<strong>{text}</strong>"
            tds.append(f'<td class="{cls}">{text}</td>')
        attr = ' class="control"' if is_control else ""
        rows.append(f'<tr{attr}><th scope="row">{label}</th>{"".join(tds)}</tr>')
    return (f'<div class="scroll"><table class="board"><thead><tr><th scope="col">'
            f'explainer</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


# ------------------------------------------------------------------ figures
def _colours(explainers, control):
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap("tab10")
    others = [e for e in explainers if e != control]
    return {e: "0.6" if e == control else cmap(others.index(e) % 10) for e in explainers}


def _draw_panels(fig, sub, metrics, explainers, control, error, ncols=None):
    """One bar panel per metric of ``sub`` on ``fig`` (a figure or subfigure),
    ``ncols`` panels a row (at most 4 by default).  Returns what the panels
    show (for the legend)."""
    n = len(metrics)
    ncols = ncols or min(n, 4)
    nrows = int(np.ceil(n / ncols))
    axes = fig.subplots(nrows, ncols, squeeze=False)
    colours = _colours(explainers, control)
    shown = {"hatched": False, "best": False, "control": False}
    for ax, metric in zip(axes.ravel(), metrics):
        rows = sub[sub["metric"] == metric].set_index("explainer").reindex(explainers)
        rows = rows.dropna(subset=["mean"])
        x = np.arange(len(rows))
        bars = ax.bar(x, rows["mean"], yerr=rows[error].fillna(0), capsize=3,
                      color=[colours[e] for e in rows.index], edgecolor="black",
                      linewidth=0.5, error_kw={"elinewidth": 0.8})
        for bar, (explainer, row) in zip(bars, rows.iterrows()):
            shown["control"] |= explainer == control
            if _not_better(row):
                bar.set_hatch("//")
                shown["hatched"] = True
            if _is_best(row):
                bar.set_linewidth(2.0)
                shown["best"] = True
        ax.set_xticks(x, rows.index, rotation=45, ha="right", fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
        ax.set_title(_column_name(sub, metric), fontsize=9)
        ax.axhline(0, color="black", linewidth=0.5)
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)
        ax.set_axisbelow(True)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return shown


def _legend(fig, shown, control, error, n_panel_columns):
    """Legend of the marks (control colour, hatching, outline, error bars)
    under the panels, in as many columns as the figure is wide for."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = []
    if shown["control"]:
        handles.append(Patch(facecolor="0.6", edgecolor="black", linewidth=0.5,
                             label=f"{control} (control)"))
    if shown["hatched"]:
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//",
                             linewidth=0.5, label="not significantly better than control"))
    if shown["best"]:
        handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2.0,
                             label="best (or tied best)"))
    handles.append(Line2D([], [], color="black", marker="_", markersize=8, linewidth=0.8,
                          label=f"error bar: {_ERRORS[error]}"))
    fig.legend(handles=handles, loc="outside lower center",
               ncols=max(1, min(len(handles), n_panel_columns)), fontsize=8, frameon=False)


@validate_params(
    {
        "board": [pd.DataFrame],
        "dataset": "no_validation",
        "model": "no_validation",
        "control": [str, None],
        "error": [StrOptions({"std", "se", "row_se"})],
        "metrics": [str, list, tuple, None],
    },
    prefer_skip_nested_validation=True,
)
def plot_leaderboard(board, *, dataset=None, model=None, control=None, error="std",
                     metrics=None):
    """Bar chart of a leaderboard: one panel per metric, one bar per explainer,
    error bars over seeds; explainers not significantly better than the
    control are hatched, the best (or tied best) bars outlined, and a legend
    explains the marks.

    Parameters
    ----------
    board : DataFrame
        A leaderboard (:func:`leaderboard`).
    dataset, model : str, default=None
        Which (dataset, model) to plot; required when the board has several.
    control : str, default=None
        Label of the control explainer (drawn in grey).
    error : {"std", "se", "row_se"}, default="std"
        Column used for the error bars.
    metrics : str or list of str, default=None
        Metrics to draw (e.g. those of one family, as :func:`write_report`
        does); ``None`` draws all.

    Returns
    -------
    fig : matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import leaderboard, plot_leaderboard
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["a"] * 5 + ["b"] * 5,
    ...     "metric": "x", "seed": list(range(5)) * 2,
    ...     "value": [1.0, 2.0, 3.0, 2.0, 2.0] + [0.5] * 5, "greater_is_better": True,
    ...     "status": "ok"})
    >>> fig = plot_leaderboard(leaderboard(table))
    >>> [ax.get_title() for ax in fig.axes]
    ['x ↑']
    """
    import matplotlib.pyplot as plt

    sub = _select_pair(_select_metrics(board, metrics), dataset, model)
    metric_list = list(dict.fromkeys(sub["metric"]))
    explainers = list(dict.fromkeys(board["explainer"]))
    n = len(metric_list)
    ncols = min(n, 4)
    nrows = int(np.ceil(n / ncols))
    fig = plt.figure(figsize=(3.1 * ncols, 2.7 * nrows + 0.5), layout="constrained")
    shown = _draw_panels(fig, sub, metric_list, explainers, control, error)
    _legend(fig, shown, control, error, ncols)
    fig.suptitle(f"{sub['dataset'].iloc[0]} / {sub['model'].iloc[0]}", fontsize=10)
    return fig


def _png(fig):
    """PNG bytes of a figure (closed afterwards)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()


def _img(png, alt):
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


# ----------------------------------------------------------------- report
_CSS = """
:root { color-scheme: light; --muted: #6b7280; --line: #d1d5db; --zebra: #f6f7f9;
        --accent: #1d4ed8; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       font-size: 15px; line-height: 1.45; color: #111827; background: #fff;
       margin: 0; }
main { max-width: 1400px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 1.7em; margin: 0 0 4px; }
h2 { font-size: 1.3em; margin: 40px 0 10px; padding-bottom: 4px;
     border-bottom: 2px solid var(--line); }
h3 { font-size: 1.12em; margin: 28px 0 8px; }
h4 { font-size: 1em; margin: 18px 0 6px; color: #374151; }
p.lead { color: var(--muted); margin: 0 0 14px; }
dl.spec { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px;
          margin: 12px 0; padding: 12px 16px; background: var(--zebra);
          border: 1px solid var(--line); border-radius: 6px; }
dl.spec dt { font-weight: 600; }
dl.spec dd { margin: 0; }
nav ul { margin: 6px 0; padding-left: 20px; }
a { color: var(--accent); }
.scroll { overflow-x: auto; margin: 6px 0 12px; }
table { border-collapse: collapse; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 4px 10px; }
table.board { font-size: 13px; }
table.board th, table.board td { padding: 3px 7px; }
table.reliability { font-size: 13px; }
table.reliability th, table.reliability td { padding: 3px 7px; }
thead th { background: #eef0f3; text-align: center; vertical-align: bottom;
           font-weight: 600; }
tbody th { text-align: left; font-weight: 500; white-space: nowrap; }
tbody tr:nth-child(even) { background: var(--zebra); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { text-align: left; }
td.best strong { font-weight: 700; }
td.empty { color: var(--muted); text-align: center; }
tr.control, tr.control th { color: var(--muted); font-style: italic; }
.tag { font-size: 0.75em; font-style: normal; border: 1px solid var(--line);
       border-radius: 3px; padding: 0 4px; margin-left: 4px; }
.mark { color: #b45309; margin-left: 2px; font-size: 0.9em; }
.arrow { white-space: nowrap; }
.legend { border-left: 4px solid var(--accent); background: #f8fafc; padding: 8px 14px;
          margin: 10px 0 16px; font-size: 14px; }
.legend p { margin: 3px 0; }
.notes li { margin: 4px 0; }
figure { margin: 10px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line);
             border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
code { font-size: 0.92em; background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
td code { white-space: pre-wrap; word-break: break-word; }
details { margin: 12px 0; border: 1px solid var(--line); border-radius: 6px;
          padding: 6px 12px; }
details summary { cursor: pointer; font-weight: 600; }
.ok { color: #15803d; }
.bad { color: #b91c1c; }
.explanation-pair { display: flex; flex-wrap: wrap; gap: 8px 28px;
                    align-items: flex-start; }
.explanation-pair figure { flex: 0 1 720px; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; }
"""


def _component_name(value):
    if isinstance(value, dict):
        value = value.get("name", "")
    return short_description(value)


# Wrappers whose wrapped estimator is what a summary names.
_WRAPPERS = {"FrozenEstimator": "estimator"}
_MAX_PARAMETERS = 3
# Libraries whose estimator classes a summary may build with no arguments to
# read their default parameters (scikit-learn's convention: __init__ only
# stores its parameters).
_TRUSTED_LIBRARIES = frozenset({"sklearn", "sklearn_xai", "xgboost", "lightgbm",
                                "catboost", "skorch"})


def _call_name(node):
    import ast

    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _loaded_class(name):
    """The class ``name`` among the modules already imported (the model's own
    module is, when the report follows the run), or None."""
    import inspect
    import sys

    from sklearn.base import BaseEstimator

    for module_name, module in list(sys.modules.items()):
        # The name comes from a results folder (untrusted): only the classes
        # of the libraries whose __init__ is known to store its parameters
        # and nothing else are ever built to read their defaults.
        if module_name.split(".")[0] not in _TRUSTED_LIBRARIES:
            continue
        # The module's own names only: no lazy attribute hook runs.
        found = getattr(module, "__dict__", {}).get(name)
        if inspect.isclass(found) and issubclass(found, BaseEstimator) \
                and found.__module__.split(".")[0] in _TRUSTED_LIBRARIES:
            return found
    return None


def _defaults(name):
    """The constructor's default parameters of estimator class ``name``
    (empty when unknown)."""
    cls = _loaded_class(name)
    if cls is None:
        return {}
    try:
        return cls().get_params(deep=False)
    except Exception:  # noqa: BLE001 - a class that needs arguments
        return {}


def _same(value, default):
    try:
        if isinstance(value, float) and isinstance(default, float):
            return value == default or (np.isnan(value) and np.isnan(default))
        return bool(value == default) and type(value) is type(default)
    except (TypeError, ValueError):
        return False


def _literal(node):
    """``(known, value)`` of a parameter's expression (``nan`` and ``inf``
    included)."""
    import ast

    if isinstance(node, ast.Name) and node.id in ("nan", "inf"):
        return True, float(node.id)
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _describe(node, depth=0):
    """Short text of one estimator's repr expression: its class name and at
    most a few parameters that differ from the defaults (None values are
    dropped when the defaults are unknown); nested estimators by class
    name; a Pipeline as its steps."""
    import ast

    if not isinstance(node, ast.Call):
        return None
    name = _call_name(node)
    if name is None:
        return None
    keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
    if name in _WRAPPERS and _WRAPPERS[name] in keywords:
        inner = _describe(keywords[_WRAPPERS[name]], depth)
        if inner is not None:
            return inner
    if name == "Pipeline" and isinstance(keywords.get("steps"), ast.List):
        steps = []
        for step in keywords["steps"].elts:
            if isinstance(step, ast.Tuple) and len(step.elts) == 2:
                inner = step.elts[1]
                last = step is keywords["steps"].elts[-1]
                text = _describe(inner, depth + (0 if last else 1))
                steps.append(text if text is not None else ast.unparse(inner))
        return "Pipeline(" + " → ".join(steps) + ")"
    if depth > 0:
        return name
    defaults = _defaults(name)
    shown = []
    for key, expr in keywords.items():
        if isinstance(expr, ast.Call):
            inner = _describe(expr, depth + 1)
            shown.append(f"{key}={inner or _call_name(expr)}")
            continue
        known, value = _literal(expr)
        if known and (value is Ellipsis or (key in defaults and _same(value, defaults[key]))
                      or (not defaults and value is None)):
            continue
        text = ast.unparse(expr)
        shown.append(f"{key}={text if len(text) <= 24 else text[:23] + '…'}")
    if len(shown) > _MAX_PARAMETERS:
        shown = shown[:_MAX_PARAMETERS] + ["…"]
    return f"{name}({', '.join(shown)})" if shown else name


def short_description(value, limit=_DESCRIPTION_LIMIT):
    """One short line naming a component of the summary: an estimator's repr
    (``FrozenEstimator(estimator=Pipeline(steps=[...]))``, however long) as
    its class name and a few non-default parameters (``Pipeline(StandardScaler
    → LogisticRegression(C=0.5))``), any other text on one line, at most
    ``limit`` characters.

    Parameters
    ----------
    value : object
        A component's name or repr (or the component: its repr is used).
    limit : int, default=120
        Longest description; longer ones end with an ellipsis.

    Returns
    -------
    text : str
        Unescaped: escape it for the page it goes to.

    Examples
    --------
    >>> from sklearn_xai.benchmark._report import short_description
    >>> short_description("FrozenEstimator(estimator=Pipeline(steps=["
    ...                   "('s', StandardScaler()), ('m', Ridge(alpha=2.0))]))")
    'Pipeline(StandardScaler → Ridge(alpha=2.0))'
    """
    import ast

    text = value if isinstance(value, str) else repr(value)
    if "(" in text and len(text) < 100_000:
        # scikit-learn elides a long repr's last parameters with "...",
        # after keyword arguments, where Python allows none.
        source = re.sub(r",\s*\.\.\.(?=\s*[)\]])", "", text.strip())
        try:
            tree = ast.parse(source, mode="eval")
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            tree = None
        described = None
        if tree is not None:
            try:
                described = _describe(tree.body)
            except RecursionError:
                described = None
        if described is not None:
            text = described
    text = " ".join(one_line(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _spec_items(results, table):
    """(term, HTML description) pairs of the run's summary."""
    spec = results.spec or {}

    def labelled(key, column):
        group = spec.get(key)
        if isinstance(group, dict) and group:
            return ", ".join(
                f"<strong>{html.escape(str(label))}</strong> "
                f"<span class=\"lead\">({html.escape(_component_name(c))})</span>"
                if _component_name(c) and _component_name(c) != str(label)
                else f"<strong>{html.escape(str(label))}</strong>"
                for label, c in group.items())
        return ", ".join(html.escape(str(v)) for v in dict.fromkeys(table[column]))

    items = [("Datasets", labelled("datasets", "dataset")),
             ("Models", labelled("models", "model")),
             ("Explainers", labelled("explainers", "explainer"))]
    board_like = _with_families(table[["metric"]].drop_duplicates(), table)
    groups = _family_groups(board_like)
    items.append((f"Metrics ({board_like['metric'].nunique()})", "<br>".join(
        f"{html.escape(family)}: " + ", ".join(html.escape(m) for m in metrics)
        for family, metrics in groups)))
    seeds = spec.get("seeds")
    if seeds is None and "seed" in table:
        seeds = sorted(dict.fromkeys(table["seed"]))
    if seeds is not None:
        seeds = seeds if isinstance(seeds, (list, tuple)) else [seeds]
        items.append(("Seeds", html.escape(", ".join(str(s) for s in seeds))))
    n_explain = spec.get("n_explain")
    if n_explain is None and "n_rows" in table and (table["n_rows"] > 0).any():
        n_explain = int(table["n_rows"].max())
    if n_explain is not None:
        items.append(("Explained rows", f"{html.escape(str(n_explain))} held-out rows per "
                                        "(dataset, model, seed)"))
    if results.control is not None:
        items.append(("Control", html.escape(str(results.control))))
    ok = table["status"] == "ok"
    n_err = int((table["status"] == "error").sum())
    n_skip = int((table["status"] == "skipped").sum())
    cells = (f"{results.n_cells} cells, {int(ok.sum())} scores, "
             f"<span class=\"{'bad' if n_err else 'ok'}\">{n_err} errors</span>, "
             f"{n_skip} skipped as not applicable")
    items.append(("Cells", cells))
    if results.wall_time is not None:
        items.append(("Wall time", f"{results.wall_time:.1f} s"))
    return items


def _summary_text(results, table):
    ok = table["status"] == "ok"
    text = (f"{results.n_cells} cells, {int(ok.sum())} scores, "
            f"{int((table['status'] == 'error').sum())} errors, "
            f"{int((table['status'] == 'skipped').sum())} skipped")
    if results.wall_time is not None:
        text += f", {results.wall_time:.1f} s wall time"
    return text


def _strings(series):
    """A column as str, missing values as ""."""
    return series.astype(object).fillna("").astype(str)


def _grouped_failures(frame):
    """Failed scores grouped by (explainer, metric, error): a failure while
    drawing the data or fitting the model concerns every explainer and
    metric ("all"), an explainer's failure every metric of its cells."""
    where = frame["failed_in"] if "failed_in" in frame else pd.Series("", index=frame.index)
    where = _strings(where)
    explainer = np.where(where == "model", "all", frame["explainer"].astype(str))
    metric = np.where(where.isin(["model", "explainer"]), "all", frame["metric"].astype(str))
    return _group_counts(frame.assign(_explainer=explainer, _metric=metric,
                                      _error=_strings(frame["error"])),
                         ["_explainer", "_metric", "_error"])


def _group_counts(frame, keys):
    records = []
    for key, group in frame.groupby(keys, sort=False):
        places = ", ".join(dict.fromkeys(f"{d} / {m}" for d, m in
                                         zip(group["dataset"], group["model"])))
        seeds = ", ".join(str(s) for s in sorted(dict.fromkeys(group["seed"]), key=str))
        cells = len(group.drop_duplicates(["dataset", "model", "explainer", "seed"]))
        records.append((*key, len(group), cells, places, seeds))
    return sorted(records, key=lambda r: -r[len(keys)])


def _failures_html(table):
    errors = table[table["status"] == "error"]
    skipped = table[table["status"] == "skipped"]
    parts = ['<section id="failures"><h2>Failures</h2>']
    if len(errors):
        rows = "".join(
            f'<tr><td class="text">{html.escape(e)}</td><td class="text">{html.escape(m)}'
            f'</td><td class="text"><code>{html.escape(err)}</code></td>'
            f'<td class="num">{n}</td><td class="num">{c}</td>'
            f'<td class="text">{html.escape(places)}</td><td class="text">'
            f'{html.escape(seeds)}</td></tr>'
            for e, m, err, n, c, places, seeds in _grouped_failures(errors))
        parts.append(
            f'<p class="bad">{len(errors)} of {len(table)} scores failed, grouped by '
            "(explainer, metric, error); the results table has the details (columns "
            "<code>status</code>, <code>error</code>, <code>failed_in</code>) and a "
            "rerun retries them.</p>"
            '<div class="scroll"><table class="failures"><thead><tr><th>explainer</th>'
            "<th>metric</th><th>error</th><th>scores</th><th>cells</th>"
            "<th>dataset / model</th><th>seeds</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div>")
    else:
        parts.append('<p class="ok">No score failed.</p>')
    if len(skipped):
        frame = skipped.assign(_metric=skipped["metric"].astype(str),
                               _error=_strings(skipped["error"]))
        rows = "".join(
            f'<tr><td class="text">{html.escape(m)}</td><td class="text">'
            f'{html.escape(err)}</td><td class="num">{n}</td>'
            f'<td class="text">{html.escape(places)}</td></tr>'
            for m, err, n, _, places, _ in _group_counts(frame, ["_metric", "_error"]))
        parts.append(
            f'<details class="skips"><summary>{len(skipped)} scores skipped as not '
            "applicable (expected, not failures)</summary>"
            '<div class="scroll"><table class="skips"><thead><tr><th>metric</th>'
            "<th>reason</th><th>scores</th><th>dataset / model</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></details>")
    parts.append("</section>")
    return "\n".join(parts)


def _failures_markdown(table):
    parts = []
    errors = table[table["status"] == "error"]
    if len(errors):
        frame = pd.DataFrame(_grouped_failures(errors), columns=[
            "explainer", "metric", "error", "scores", "cells", "dataset / model", "seeds"])
        parts.append(f"\n## Failures\n\n{_markdown(frame.set_index('explainer'))}\n")
    skipped = table[table["status"] == "skipped"]
    if len(skipped):
        frame = skipped.assign(_metric=skipped["metric"].astype(str),
                               _error=_strings(skipped["error"]))
        rows = [(m, err, n, places) for m, err, n, _, places, _ in
                _group_counts(frame, ["_metric", "_error"])]
        frame = pd.DataFrame(rows, columns=["metric", "reason", "scores", "dataset / model"])
        parts.append("\n## Skipped as not applicable\n\n"
                     f"{_markdown(frame.set_index('metric'))}\n")
    return "\n".join(parts)


def _summary_value(summary, sub, column, attr):
    """A per-(dataset, model) statistic: the summary's column, else its
    ``attrs`` (a number or a dict keyed by (dataset, model))."""
    if column in sub and len(sub):
        return sub[column].iloc[0]
    value = summary.attrs.get(attr)
    if isinstance(value, dict):
        value = value.get(tuple(sub[["dataset", "model"]].iloc[0]))
    return value


def _fmt_number(value, digits=3):
    try:
        value = float(value)
    except (TypeError, ValueError):
        return "–"
    return f"{value:.{digits}g}" if np.isfinite(value) else "–"


def _costs(sub):
    """explainer -> (seconds per row, model evaluations per row) or per cell
    when the board has no per-row costs."""
    per_row = "cost_per_row" in sub
    time_col = "cost_per_row" if per_row else "explain_time"
    eval_col = "evaluations_per_row" if "evaluations_per_row" in sub else "n_evaluations"
    out = {}
    for explainer, group in sub.groupby("explainer", sort=False):
        t = group[time_col].mean() if time_col in group else np.nan
        e = group[eval_col].mean() if eval_col in group else np.nan
        out[explainer] = (t, e)
    unit = "per explained row" if per_row else "per cell"
    return out, unit


def _decision(board, control, alpha, meta, min_mc_score=None):
    """The decision summary, the metrics the reliability table ``meta``
    distrusts left out (:func:`decision_summary`'s ``exclude``; with
    ``min_mc_score``, also those whose MetaQuantus MC score is below it)."""
    return decision_summary(board, alpha=alpha, control=control,
                            exclude=distrusted_metrics(meta, min_mc_score=min_mc_score))


def _mc_vote(min_mc_score):
    """The sentence of the decision on the MetaQuantus option."""
    return ("" if min_mc_score is None else
            f" Nor do metrics whose MetaQuantus MC score is below {min_mc_score:.2f}.")


def _n_voting(summary, sub):
    """Metrics of one (dataset, model) of the board that vote in the decision."""
    key = tuple(sub[["dataset", "model"]].iloc[0])
    left_out = (summary.attrs.get("left_out") or {}).get(key) or {}
    return sub["metric"].nunique() - len(left_out), left_out


def _decision_html(board, control, alpha, meta=None, min_mc_score=None, *,
                   section_id="decision", cd_figure=None):
    """The decision section: per (dataset, model), the explainers by mean
    rank over metrics (and the critical-difference diagram when available),
    their costs, and the notes on significance.  Metrics the reliability
    table ``meta`` distrusts do not vote; the section names them.
    ``section_id`` is the section's id (and its headings' prefix);
    ``cd_figure(fig, dataset, model)`` returns the markup of a diagram
    (default: an embedded PNG)."""
    candidates = board.loc[board["explainer"] != control, "explainer"]
    # One explainer besides the control: ranked, with the summary's note
    # saying why there is no test, and no diagram.
    plot_cd = plot_critical_difference if candidates.nunique() >= 2 else None
    summary = _decision(board, control, alpha, meta, min_mc_score)
    vote = "" if meta is None else (
        '  Metrics that the <a href="#reliability">metric reliability</a> flags as '
        "unable to tell an explanation from a random one (" + html.escape(", ".join(
            f"“{flag}”" for flag in DISTRUSTING_FLAGS)) + ") do not vote."
        + _mc_vote(min_mc_score))
    parts = [f'<section id="{section_id}"><h2>Decision</h2>',
             '<p class="lead">Explainers ordered by their mean rank over the metrics of '
             "each dataset and model (1 = best); the count of metrics where each is best "
             f"or tied best; and what one explanation costs.{vote}</p>"]
    try:
        notes = significance_note(board, alpha)
    except ValueError:  # a board without the decision columns
        notes = []
    if notes:
        parts.append('<ul class="notes">' + "".join(
            f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>")
    for (dataset, model), sub in board.groupby(["dataset", "model"], sort=False):
        ranked = summary[(summary["dataset"] == dataset) & (summary["model"] == model)]
        parts.append(f'<h3 id="{section_id}-{_slug(dataset)}-{_slug(model)}">'
                     f"{html.escape(f'{dataset} / {model}')}</h3>")
        stats = []
        p = _summary_value(summary, ranked, "friedman_p_value", "friedman_p")
        cd = _summary_value(summary, ranked, "critical_difference", "cd")
        if p is not None and _fmt_number(p) != "–":
            stats.append(f"Friedman test over the metrics: p = {_fmt_number(p)}")
        if cd is not None and _fmt_number(cd) != "–":
            stats.append(f"Nemenyi critical difference = {_fmt_number(cd)} mean ranks "
                         f"(alpha = {alpha:g}); explainers joined by a bar in the diagram "
                         "are not significantly different")
        note = ranked["note"].iloc[0] if "note" in ranked and len(ranked) else ""
        if isinstance(note, str) and note:
            stats.append(note)
        if stats:
            parts.append("<p>" + html.escape("; ".join(stats)) + ".</p>")
        n_total, left_out = _n_voting(summary, sub)
        if left_out:
            parts.append('<p class="left-out"><strong>Left out of the decision</strong> '
                         "(flagged in the metric reliability): " + html.escape("; ".join(
                             f"{m} ({r})" for m, r in left_out.items())) + ".</p>")
        if plot_cd is not None and len(ranked) >= 2:
            # The diagram sizes its figure to hold the explainers' labels.
            fig = plot_cd(summary, dataset=dataset, model=model).figure
            image = (_img(_png(fig), f"critical difference diagram, {dataset} / {model}")
                     if cd_figure is None else cd_figure(fig, dataset, model))
            parts.append("<figure>" + image
                         + "<figcaption>Critical-difference diagram of the mean ranks "
                         "(Demšar, 2006).</figcaption></figure>")
        costs, unit = _costs(sub)
        rows = []
        order = list(ranked["explainer"]) + [e for e in _explainer_order(sub)
                                             if e not in set(ranked["explainer"])]
        ranked = ranked.set_index("explainer")
        for explainer in order:
            is_control = explainer == control
            if explainer in ranked.index:
                r = ranked.loc[explainer]
                rank = f"{float(r['mean_rank']):.2f}"
                best = r.get("n_tied_best", pd.NA)
                best = "–" if pd.isna(best) else f"{int(best)} of {int(r['n_metrics'])}"
            else:
                rank, best = "–", "–"
            t, e = costs.get(explainer, (np.nan, np.nan))
            label = html.escape(str(explainer))
            if is_control:
                label += ' <span class="tag">control</span>'
            attr = ' class="control"' if is_control else ""
            rows.append(f'<tr{attr}><th scope="row">{label}</th><td class="num">{rank}</td>'
                        f'<td class="num">{best}</td><td class="num">{_fmt_seconds(t)}</td>'
                        f'<td class="num">{_fmt_count(e)}</td></tr>')
        parts.append(
            '<div class="scroll"><table class="decision"><thead><tr><th>explainer</th>'
            f"<th>mean rank</th><th>best or tied best (of {n_total} metrics)</th>"
            f"<th>explain time {unit}</th><th>model evaluations {unit}</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")
    parts.append("</section>")
    return "\n".join(parts)


def _decision_markdown(board, control, alpha, meta=None, width=None, min_mc_score=None):
    """The decision section of ``report.md`` and of the terminal (prose
    filled to ``width``): per (dataset, model) the explainers by mean rank
    with their best or tied-best counts, the summary's note, and the
    metrics left out of the decision."""
    summary = _decision(board, control, alpha, meta, min_mc_score)
    vote = "" if meta is None else (
        "; metrics flagged as unable to tell an explanation from a random one ("
        + ", ".join(DISTRUSTING_FLAGS) + ") do not vote"
        + ("" if min_mc_score is None else
           f", nor metrics whose MetaQuantus MC score is below {min_mc_score:.2f}"))
    out = ["\n## Decision\n",
           _fill("Explainers by mean rank over the metrics (1 = best) and the metrics "
                 f"where each is best or tied best{vote}.", width) + "\n"]
    for (dataset, model), sub in board.groupby(["dataset", "model"], sort=False):
        ranked = summary[(summary["dataset"] == dataset) & (summary["model"] == model)]
        if not len(ranked):
            continue
        n_total, left_out = _n_voting(summary, sub)
        frame = pd.DataFrame({
            "explainer": ranked["explainer"].astype(str),
            "mean rank": [f"{v:.2f}" for v in ranked["mean_rank"]],
            f"best or tied best (of {n_total} metrics)": [
                "–" if pd.isna(n) else f"{int(n)} of {int(m)}"
                for n, m in zip(ranked["n_tied_best"], ranked["n_metrics"])]})
        esc = markdown_text if width is None else one_line
        out.append(f"\n### {esc(f'{dataset} / {model}')}\n")
        out.append(_markdown(frame.set_index("explainer")))
        if left_out:
            out.append("\n" + _fill(
                "Left out of the decision (flagged in the metric reliability): "
                + "; ".join(f"{esc(m)} ({esc(r)})" for m, r in left_out.items()) + ".",
                width)
                + "\n")
        note = ranked["note"].iloc[0]
        if isinstance(note, str) and note:
            out.append("\n" + _fill(f"Note: {esc(note)}.", width) + "\n")
    return "\n".join(out) + "\n"


def _fmt_count(value):
    """A count or mean count: thousands separators, at most one decimal."""
    if value is None or not np.isfinite(value):
        return "–"
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:,.1f}"


def _fmt_seconds(value):
    if value is None or not np.isfinite(value):
        return "–"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def _legend_html(board, control, alpha):
    tied = "tied_best" in board
    items = [
        "<p>Cells: mean ± standard deviation over seeds of the mean score over the "
        "explained rows; each metric in its natural orientation (↑ greater is better, "
        "↓ lower is better).</p>",
        "<p><strong>Bold</strong>: " + (
            "the best explainer of the metric and those not significantly worse than it "
            "(paired test against the best, Holm-corrected): tied best.</p>" if tied else
            "the best explainer of the metric (rank 1).</p>"),
    ]
    if control is not None:
        items.append(
            f'<p><span class="mark">{NOT_BETTER_MARK}</span> not significantly better '
            f"than the <em>{html.escape(str(control))}</em> control (one-sided paired "
            "Wilcoxon signed-rank test over seeds × explained rows, Holm-corrected "
            f"across explainers, alpha = {alpha:g}). The control's row is grey and "
            "italic.</p>")
    else:
        items.append("<p>No random control: no significance test.</p>")
    if any(_cannot_reach(sub, metric) for (_, _, metric), sub in
           board.groupby(["dataset", "model", "metric"], sort=False)):
        items.append(f"<p>{CANNOT_REACH_MARK} after a metric: too few seeds or rows for "
                     "any test of it to reach alpha, so its marks say nothing.</p>")
    items.append("<p>Figures: one bar per explainer with its error bar; the control in "
                 "grey, hatched bars not significantly better than the control, thick "
                 "outlines the best (or tied best).</p>")
    return '<div class="legend">' + "".join(items) + "</div>"


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text))


# ------------------------------------------------------ metric reliability
# Columns of the reliability table: (column, header, title, digits).
_RELIABILITY_COLUMNS = [
    ("family", "family", "metric family", None),
    ("noise_floor", "noise floor", "standard deviation of a run's value (seeds or "
     "split halves)", 3),
    ("snr", "signal / noise", "spread of the explainer means over the noise floor", 1),
    ("split_half", "split-half", "Spearman-Brown split-half reliability of the "
     "explainer ranking", 2),
    ("effect_size", "effect", "paired effect size d_z, reference vs control", 2),
    ("n_rows_80", "rows for 80 % power", "explained rows a paired t-test needs to "
     "separate the reference from the control", 0),
    ("resilience_iac", "NR IAC", "noise resilience, intra-consistency", 2),
    ("resilience_iec", "NR IEC", "noise resilience, inter-consistency", 2),
    ("reactivity_iac", "AR IAC", "adversarial reactivity, intra-consistency", 2),
    ("reactivity_iec", "AR IEC", "adversarial reactivity, inter-consistency", 2),
    ("mc_score", "MC", "MetaQuantus meta-consistency score", 2),
    ("family_agreement", "tau family", "mean Kendall tau with the metrics of its family",
     2),
]


# MetaQuantus's scores (Hedström et al. 2023), one sentence each, shown
# under the reliability table when it has them; all in [0, 1], 1 ideal.
_MQ_MEANINGS = [
    ("NR IAC", "how similar a metric's scores of each explainer stay when the model "
     "or the inputs get minor noise (mean Wilcoxon p-value)."),
    ("NR IEC", "how often the explainers keep their order on a row under that minor "
     "noise."),
    ("AR IAC", "how clearly the scores change when the model or the inputs are "
     "disrupted (one minus the mean Wilcoxon p-value)."),
    ("AR IEC", "how often an explainer's score of a row gets worse under that "
     "disruption."),
    ("MC", "the mean of the four, MetaQuantus's meta-consistency (a metric that is "
     "both resilient and reactive scores 1)."),
]
_MQ_LEGEND = ("<p>MetaQuantus's scores (in [0, 1], higher is better; computed when the "
              "meta-evaluation re-explains perturbed models and inputs, "
              "<code>meta_evaluate(spec)</code>):</p><ul>" + "".join(
                  f"<li><em>{name}</em>: {text}</li>" for name, text in _MQ_MEANINGS)
              + "</ul>")


def _reliability_table(results, reliability):
    """The meta-evaluation the report shows, or None."""
    if reliability is False or reliability is None:
        return None
    if isinstance(reliability, pd.DataFrame):
        return reliability if len(reliability) else None
    import warnings

    from sklearn_xai.benchmark import meta_evaluate

    # Memoised on the results (as their leaderboard): the pictures of the
    # chosen explainer and the report ask for the same decision.
    key = (id(results.table), id(results.per_row))
    memo = results.__dict__.setdefault("_reliability", {})
    if key in memo:
        return memo[key]
    memo.clear()
    try:
        meta = meta_evaluate(results, perturb=False)
    except (ValueError, TypeError, KeyError) as exc:  # the rest of the report stands
        warnings.warn(f"The report has no 'Metric reliability' section: {exc}",
                      UserWarning, stacklevel=3)
        return None
    memo[key] = meta if len(meta) else None
    return memo[key]


def _fmt_meta(value, digits):
    if digits is None:
        return html.escape(str(value))
    try:
        value = float(value)
    except (TypeError, ValueError):
        return "–"
    if not np.isfinite(value):
        return "∞" if value == np.inf else "–"
    return f"{value:.{digits}f}" if digits else f"{int(value)}"


def _sanity_table(results):
    """The randomisation sanity checks of the run, or None when it scored
    none."""
    from sklearn_xai.benchmark._sanity import sanity_checks

    checks = sanity_checks(results)
    return checks if len(checks) else None


def _sanity_pivot(sub, mark):
    """Explainers x checks, each cell "value mark"."""
    cells = {}
    for _, row in sub.iterrows():
        cells.setdefault(row["explainer"], {})[row["metric"]] = (
            f"{row['value']:.2f} {mark(row['passed'])}")
    frame = pd.DataFrame.from_dict(cells, orient="index").sort_index()
    rise = dict(zip(sub["metric"], sub["criterion"].str.contains("rise"), strict=False))
    return frame.rename(columns=lambda m: metric_display_name(m, rise.get(m, False)))


def _sanity_html(checks):
    """The "Sanity checks" section: which explainers depend on the model."""
    from sklearn_xai.benchmark._sanity import SANITY_THRESHOLD

    parts = ['<section id="sanity"><h2>Sanity checks</h2>',
             '<div class="legend"><p>Does the explanation depend on the model? Each '
             "explainer re-explains the rows for a model whose parameters are "
             "randomised (MPRT, Adebayo et al. 2018; smooth MPRT), trained on permuted "
             "labels (data randomisation) or for another class (random logit). The "
             "value is the mean similarity of the two explanations (1: the explanation "
             f"ignores the model); it <em>passes</em> below {SANITY_THRESHOLD:g}. For "
             "the efficient MPRT the value is the relative rise of the explanation's "
             "complexity, which passes above 0. The random control gives the same "
             "attributions whatever the model, so it fails by construction.</p></div>"]
    for (dataset, model), sub in checks.groupby(["dataset", "model"], sort=False):
        frame = _sanity_pivot(sub, lambda ok: "&#10003;" if ok else "&#10007;")
        parts.append(f"<h3>{html.escape(f'{dataset} / {model}')}</h3>")
        head = "".join(f'<th scope="col">{html.escape(str(c))}</th>' for c in frame.columns)
        rows = []
        for explainer, values in frame.iterrows():
            tds = []
            for metric in frame.columns:
                text = values[metric]
                if not isinstance(text, str):
                    tds.append('<td class="num">–</td>')
                    continue
                number, mark = text.split(" ", 1)
                css = "ok" if mark == "&#10003;" else "bad"
                tds.append(f'<td class="num">{number} <span class="{css}">{mark}</span></td>')
            rows.append(f'<tr><th scope="row">{html.escape(str(explainer))}</th>'
                        f'{"".join(tds)}</tr>')
        parts.append('<div class="scroll"><table class="sanity"><thead><tr>'
                     f'<th scope="col">explainer</th>{head}</tr></thead><tbody>'
                     f'{"".join(rows)}</tbody></table></div>')
    parts.append("</section>")
    return "\n".join(parts)


def _sanity_markdown(checks):
    from sklearn_xai.benchmark._sanity import sanity_summary

    out = ["\n## Sanity checks\n"]
    for (dataset, model), sub in checks.groupby(["dataset", "model"], sort=False):
        out.append(f"\n### {markdown_text(f'{dataset} / {model}')}\n")
        out.append(_markdown(_sanity_pivot(sub, lambda ok: "pass" if ok else "FAIL")))
    out.append("")
    out.extend(f"- {markdown_text(line)}" for line in sanity_summary(checks))
    return "\n".join(out) + "\n"


def _reliability_html(meta, figures):
    """The "Metric reliability" section: per (dataset, model) a table of the
    meta-evaluation and the heat map of the metrics' rank agreement."""
    from sklearn_xai.benchmark._meta import plot_metric_agreement

    shown = [c for c in _RELIABILITY_COLUMNS
             if c[0] in meta and pd.to_numeric(meta[c[0]], errors="coerce").notna().any()
             or c[0] == "family"]
    parts = ['<section id="reliability"><h2>Metric reliability</h2>',
             '<div class="legend"><p>How far to trust each metric\'s ranking of the '
             "explainers. <em>Noise floor</em>: the standard deviation of a run's value "
             "(over seeds, else over random halves of the rows); <em>split-half</em>: "
             "the Spearman-Brown reliability of the explainer ranking (1 = the ranking "
             "repeats on fresh rows); <em>effect</em> and <em>rows for 80 % power</em>: "
             "how well it separates the reference explainer from the random control; "
             "<em>tau family</em>: the mean Kendall tau of its ranking with the other "
             "metrics of its family.  A flagged metric is marked "
             '<span class="bad">&#9888;</span>.</p>'
             + (_MQ_LEGEND if any(c[0] == "mc_score" for c in shown) else "") + "</div>"]
    for (dataset, model), sub in meta.groupby(["dataset", "model"], sort=False):
        parts.append(f'<h3 id="reliability-{_slug(dataset)}-{_slug(model)}">'
                     f"{html.escape(f'{dataset} / {model}')}</h3>")
        head = "".join(f'<th scope="col" title="{html.escape(title)}">{html.escape(text)}'
                       "</th>" for _, text, title, _ in shown)
        rows = []
        for _, row in sub.iterrows():
            name = metric_display_name(row["metric"], bool(row["greater_is_better"]))
            flags = row.get("flags") if isinstance(row.get("flags"), str) else ""
            label = html.escape(name)
            if flags:
                label += ' <span class="bad" title="flagged">&#9888;</span>'
            tds = "".join(
                f'<td class="{"text" if digits is None else "num"}">'
                f"{_fmt_meta(row[column], digits)}</td>"
                for column, _, _, digits in shown)
            rows.append(f'<tr><th scope="row">{label}</th>{tds}'
                        f'<td class="text">{html.escape(flags)}</td></tr>')
        parts.append('<div class="scroll"><table class="reliability"><thead><tr>'
                     f'<th scope="col">metric</th>{head}<th scope="col">flags</th></tr>'
                     f'</thead><tbody>{"".join(rows)}</tbody></table></div>')
        tau = (meta.attrs.get("agreement") or {}).get((dataset, model))
        if figures and tau is not None and len(tau) >= 2:
            fig = plot_metric_agreement(meta, dataset, model)
            parts.append("<figure>" + _img(_png(fig), f"{dataset} / {model}: agreement")
                         + "<figcaption>Kendall tau between the metrics' explainer "
                         "rankings (blue: same order, red: opposite; – undefined: the "
                         "metric gives every explainer the same score).</figcaption>"
                         "</figure>")
    parts.append("</section>")
    return "\n".join(parts)


def _reliability_markdown(meta):
    from sklearn_xai.benchmark._meta import reliability_summary

    has_mc = "mc_score" in meta and pd.to_numeric(meta["mc_score"],
                                                  errors="coerce").notna().any()
    columns = ["metric", "noise_floor", "snr", "split_half", "effect_size", "n_rows_80",
               *(("resilience_iac", "resilience_iec", "reactivity_iac", "reactivity_iec")
                 if has_mc else ()),
               "mc_score", "family_agreement", "flags"]
    out = ["\n## Metric reliability\n"]
    for (dataset, model), sub in meta.groupby(["dataset", "model"], sort=False):
        frame = sub[[c for c in columns if c in sub]].copy()
        for c in frame.columns:
            if c not in ("metric", "flags"):
                frame[c] = [_fmt_meta(v, 0 if c == "n_rows_80" else 2) for v in frame[c]]
        out.append(f"\n### {markdown_text(f'{dataset} / {model}')}\n")
        out.append(_markdown(frame.set_index("metric")))
    if has_mc:
        out.append("\nMetaQuantus's scores (in [0, 1], higher is better):\n")
        out.extend(f"- {name}: {text}" for name, text in _MQ_MEANINGS)
    lines = reliability_summary(meta)
    if lines:
        out.append("\nFlagged metrics:\n")
        out.extend(f"- {markdown_text(line)}" for line in lines)
    return "\n".join(out) + "\n"


def _check_explanations(explanations):
    """The section of :func:`explanation_figures`, checked, or None."""
    if explanations is None:
        return None
    bad = [k for k in ("html", "markdown") if not isinstance(explanations.get(k), str)]
    paths = explanations.get("paths", {})
    if bad or not isinstance(paths, dict):
        raise ValueError(
            "explanations must be the dict explanation_figures() returns (with "
            f"'html' and 'markdown' texts and 'paths'); it lacks {bad or ['paths']}.")
    return {"html": explanations["html"], "markdown": explanations["markdown"],
            "paths": dict(paths)}


@validate_params(
    {
        "results": [BenchmarkResults],
        "directory": [str, os.PathLike],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "figures": ["boolean"],
        "reliability": ["boolean", pd.DataFrame],
        "explanations": [dict, None],
        "min_mc_score": [Interval(Real, 0, 1, closed="both"), None],
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(demsar_reference=DEMSAR_REFERENCE)
def write_report(results, directory, *, alpha=0.05, figures=True, reliability=True,
                 explanations=None, min_mc_score=None, verbose=0):
    """Save results and write ``report.html``, ``report.md`` and figures.

    ``report.html`` is one self-contained page (inline style, figures
    embedded, no script): the run's summary; the decision (explainers by
    mean rank over metrics, with the critical-difference diagram of Demšar
    (2006) and the notes on what the run is too small to show, when this
    version provides them); per (dataset, model) a leaderboard table and a
    bar-chart figure per metric family, with a legend of the marks; and the
    failed scores grouped by (explainer, metric, error) with their counts,
    the metrics skipped as not applicable apart in a collapsed section; and
    the reliability of each metric (:func:`~sklearn_xai.benchmark.meta_evaluate`:
    noise floor, split-half reliability, power, MetaQuantus's criteria, the
    flags) with the heat map of the metrics' rank agreement.  A leaderboard
    table holds at most 7 metrics (a wider family is split into balanced
    tables), and the summary names each model in one short line.  With
    ``explanations`` (:func:`explanation_figures`), the pictures of the
    chosen explainer's attributions follow the decision.
    ``report.md`` holds the same tables; ``figures/`` one PNG per (dataset,
    model) (a row of panels per metric family) and one per family.

    Parameters
    ----------
    results : BenchmarkResults
        The results to report.
    directory : str or path-like
        Output folder (created if needed).
    alpha : float, default=0.05
        Level of the significance tests.
    figures : bool, default=True
        Also draw the bar charts.
    reliability : bool or DataFrame, default=True
        Add the "Metric reliability" section: True computes it from the
        results' per-row scores (``meta_evaluate(results)``), a
        :func:`~sklearn_xai.benchmark.meta_evaluate` table (for
        example of a run with perturbations) is shown as is, False leaves
        the section out.
    explanations : dict, default=None
        The section :func:`explanation_figures` returns (its ``"html"``,
        ``"markdown"`` and ``"paths"``), placed after the decision; ``None``
        leaves it out.
    min_mc_score : float, default=None
        Leave out of the decision the metrics that fail MetaQuantus's test,
        an MC score (``mc_score`` of the reliability table) below this
        (:func:`~sklearn_xai.benchmark._decisions.distrusted_metrics`).  It
        needs a reliability table with the MetaQuantus scores, that is
        ``reliability=meta_evaluate(spec)`` (the table computed from the
        results alone has none, and then nothing is dropped for it).  None
        (the default): the MC score does not change the decision.
    verbose : int, default=0
        When > 0, print one line per stage to standard error
        ("report: leaderboard", "report: figures 3/12", ...), so that a long
        report is never silent.

    Returns
    -------
    paths : dict
        Name -> written path: those of :meth:`BenchmarkResults.save`,
        ``report_md``, ``report_html``, ``figure_<dataset>_<model>`` and
        ``figure_<dataset>_<model>_<family>``, and those of
        ``explanations``.

    References
    ----------
    {demsar_reference}

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import BenchmarkResults, write_report
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["a", "a", "b", "b"],
    ...     "metric": "neg_complexity", "seed": [0, 1, 0, 1],
    ...     "value": [1.0, 3.0, 0.5, 0.5], "greater_is_better": False,
    ...     "status": "ok", "error": "", "cached": False})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_report(BenchmarkResults(table), folder, figures=False)
    ...     page = open(paths["report_html"], encoding="utf-8").read()
    >>> "<table" in page and "<script" not in page
    True
    """
    directory = os.fspath(directory)
    section = _check_explanations(explanations)

    def stage(text):
        if verbose:
            print(f"report: {text}", file=sys.stderr, flush=True)

    stage("saving the results")
    paths = results.save(directory)
    table = results.table
    control = results.control
    ok = table["status"] == "ok"
    title = str((results.spec or {}).get("name", "benchmark"))
    description = (results.spec or {}).get("description") or ""
    summary = _summary_text(results, table)
    board = None
    if ok.any():
        stage("leaderboard")
        board = _with_families(results.leaderboard(alpha=alpha), table)

    md_parts = [f"# {markdown_text(title)}\n", summary + "\n"]
    body = [f"<header><h1>{html.escape(title)}</h1>"]
    if description:
        body.append(f'<p class="lead">{html.escape(str(description))}</p>')
    body.append('<dl class="spec">' + "".join(
        f"<dt>{term}</dt><dd>{text}</dd>" for term, text in _spec_items(results, table))
        + "</dl>")
    pairs = ([] if board is None else
             list(board.groupby(["dataset", "model"], sort=False).groups))
    toc = ['<li><a href="#decision">Decision</a></li>'] if board is not None else []
    if section is not None:
        toc.append('<li><a href="#explanations">Explanations</a></li>')
    toc += [f'<li><a href="#board-{_slug(d)}-{_slug(m)}">{html.escape(f"{d} / {m}")}'
            "</a></li>" for d, m in pairs]
    meta = checks = None
    if board is not None:
        if reliability is not False:
            stage("metric reliability")
        meta = _reliability_table(results, reliability)
        stage("sanity checks")
        checks = _sanity_table(results)
    if checks is not None:
        toc.insert(1 + (section is not None),
                   '<li><a href="#sanity">Sanity checks</a></li>')
    if meta is not None:
        toc.append('<li><a href="#reliability">Metric reliability</a></li>')
    toc.append('<li><a href="#failures">Failures and skipped metrics</a></li>')
    body.append("<nav><ul>" + "".join(toc) + "</ul></nav></header>")

    n_figures = 0
    if figures and board is not None:
        n_figures = sum(len(_family_groups(board[(board["dataset"] == d)
                                                 & (board["model"] == m)]))
                        for d, m in pairs)
    done = 0

    def figure_done():
        nonlocal done
        done += 1
        stage(f"figures {done}/{n_figures}")

    if board is None:
        body.append("<p>No successful cell.</p>")
        md_parts.append("No successful cell.")
        if section is not None:
            body.append(section["html"])
            md_parts.append(section["markdown"])
    else:
        stage("decision")
        body.append(_decision_html(board, control, alpha, meta, min_mc_score))
        md_parts.append(_decision_markdown(board, control, alpha, meta,
                                           min_mc_score=min_mc_score))
        if section is not None:
            body.append(section["html"])
            md_parts.append(section["markdown"])
        if checks is not None:
            body.append(_sanity_html(checks))
            md_parts.append(_sanity_markdown(checks))
        body.append('<section id="leaderboards"><h2>Leaderboards</h2>')
        body.append(_legend_html(board, control, alpha))
        md_parts.append(_format(board, fmt="markdown", control=control, alpha=alpha,
                                digits=3, max_width=None, by_family=True,
                                max_metrics=MAX_TABLE_METRICS))
        for dataset, model in pairs:
            sub = board[(board["dataset"] == dataset) & (board["model"] == model)]
            body.append(f'<h3 id="board-{_slug(dataset)}-{_slug(model)}">'
                        f"{html.escape(f'{dataset} / {model}')}</h3>")
            stem = f"{_slug(dataset)}__{_slug(model)}"
            for family, family_metrics in _family_groups(sub):
                family_rows = sub[sub["metric"].isin(family_metrics)]
                body.append(f'<section class="family"><h4>{html.escape(family)}</h4>')
                body.append(_html_table(family_rows, 3, control))
                if figures:
                    fig = plot_leaderboard(board, dataset=dataset, model=model,
                                           control=control, metrics=family_metrics)
                    fig.suptitle(f"{dataset} / {model}: {family}", fontsize=10)
                    png = _png(fig)
                    name = f"{stem}__{_slug(family.lower())}.png"
                    path = write_in_folder(directory, f"figures/{name}", png)
                    paths[f"figure_{dataset}_{model}_{family.lower()}"] = path
                    figure_done()
                    body.append("<figure>" + _img(png, f"{dataset} / {model}: {family}")
                                + f"<figcaption>{html.escape(family)} metrics, "
                                f"{html.escape(f'{dataset} / {model}')}: one panel per "
                                "metric, error bars ± 1 std over seeds.</figcaption>"
                                "</figure>")
                    # report.md shows the same files (no second rendering).
                    md_parts.append(
                        f"\n![{markdown_text(f'{dataset} / {model}: {family}')}]"
                        f"(figures/{name})\n")
                body.append("</section>")
        body.append("</section>")
    if meta is not None:
        stage("metric reliability section")
        body.append(_reliability_html(meta, figures))
        md_parts.append(_reliability_markdown(meta))
    stage("failures")
    body.append(_failures_html(table))
    md_parts.append(_failures_markdown(table))
    if section is not None:
        paths.update(section["paths"])
    written = ", ".join(f"<code>{html.escape(os.path.basename(p))}</code>"
                        for k, p in paths.items() if not k.startswith("figure_"))
    body.append(f"<footer>Written with this page: {written}"
                + (", and PNG copies of the figures in <code>figures/</code>"
                   if figures and board is not None else "") + ".</footer>")

    stage("writing report.html and report.md")
    paths["report_md"] = write_in_folder(directory, "report.md", "\n".join(md_parts))
    paths["report_html"] = write_in_folder(
        directory, "report.html",
        _html_page(f"{title}: benchmark report", body, f"<style>{_CSS}</style>"))
    return paths


def _html_page(title, body, head="", tail=""):
    """An HTML5 page: ``title`` (escaped here), the ``head`` markup (style,
    links), the ``body`` parts (markup, escaped by their writers) in
    ``<main>``, then ``tail`` (scripts)."""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(str(title))}</title>{head}</head>\n<body><main>\n"
            + "\n".join(body) + f"\n</main>{tail}</body></html>\n")
