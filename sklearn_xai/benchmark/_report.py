"""Reports of benchmark results: leaderboard tables (Markdown, HTML, text)
and bar charts with error bars."""

import html
import os
import re

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._results import (
    _DEPRECATED,
    _renamed_control,
    metric_display_name,
)

__all__ = ["format_leaderboard", "plot_leaderboard", "write_report"]

NOT_BETTER_MARK = "†"
_FORMATS = ("markdown", "html", "text")


def _note(control, alpha, bold):
    best = "; best explainer per metric in bold" if bold else ""
    if control is None:
        return f"Mean ± std over seeds{best}. No random control: no significance test."
    return (f"Mean ± std over seeds{best}. "
            f"{NOT_BETTER_MARK} = not significantly better than the `{control}` "
            f"control (one-sided paired Wilcoxon signed-rank test over seeds x "
            f"explained rows, Holm-corrected across explainers, alpha = {alpha}).")


def _beats(row):
    """The row's test outcome (``beats_baseline`` in boards saved before the
    control was renamed)."""
    return row.get("beats_control", row.get("beats_baseline", pd.NA))


def _cell_text(row, digits, bold):
    text = f"{row['mean']:.{digits}f} ± {row['std']:.{digits}f}" if np.isfinite(row["std"]) \
        else f"{row['mean']:.{digits}f}"
    beats = _beats(row)
    if not pd.isna(beats) and not bool(beats):
        text += f" {NOT_BETTER_MARK}"
    if bold and row["rank"] == 1:
        text = f"**{text}**"
    return text


def _wide_tables(board, digits, bold, control):
    """One wide frame (explainers x metrics) per (dataset, model)."""
    tables = []
    for (dataset, model), group in board.groupby(["dataset", "model"], sort=False):
        cells = group.assign(
            column=[metric_display_name(m, g) for m, g in
                    zip(group["metric"], group["greater_is_better"])],
            text=[_cell_text(r, digits, bold) for _, r in group.iterrows()],
        )
        wide = cells.pivot(index="explainer", columns="column", values="text")
        wide = wide.reindex(index=list(dict.fromkeys(group["explainer"])),
                            columns=list(dict.fromkeys(cells["column"])))
        wide = wide.fillna("–")
        wide.index = [f"{e} (control)" if e == control else e for e in wide.index]
        wide.index.name = "explainer"
        wide.columns.name = None
        tables.append((dataset, model, wide))
    return tables


def _markdown(frame):
    try:
        return frame.to_markdown()
    except ImportError:  # tabulate missing: a plain pipe table
        header = [frame.index.name or ""] + [str(c) for c in frame.columns]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for idx, row in frame.iterrows():
            lines.append("| " + " | ".join([str(idx)] + [str(v) for v in row]) + " |")
        return "\n".join(lines)


def format_leaderboard(board, *, fmt="markdown", control=None, alpha=0.05, digits=3,
                       baseline=_DEPRECATED):
    """Leaderboard tables as text: one table per (dataset, model), explainers
    as rows and metrics (natural orientation, with an arrow) as columns.

    Parameters
    ----------
    board : DataFrame
        A leaderboard (:func:`leaderboard`).
    fmt : {"markdown", "html", "text"}, default="markdown"
    control : str, default=None
        Label of the control explainer (marked "(control)" in the table).
    alpha : float, default=0.05
        Level quoted in the note.
    digits : int, default=3
    baseline : str or None
        Deprecated alias of ``control``.

        .. deprecated:: 0.1
           Renamed ``control``; removed in the next release.

    Returns
    -------
    text : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import format_leaderboard, leaderboard
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["a", "a", "b", "b"],
    ...     "metric": "neg_complexity", "seed": [0, 1, 0, 1],
    ...     "value": [1.0, 3.0, 0.5, 0.5], "greater_is_better": False, "status": "ok"})
    >>> print(format_leaderboard(leaderboard(table), fmt="text"))  # doctest: +NORMALIZE_WHITESPACE
    d / m
              complexity ↓
    explainer
    b          0.500 ± 0.000
    a          2.000 ± 1.000
    <BLANKLINE>
    Mean ± std over seeds. No random control: no significance test.
    """
    control = _renamed_control(control, baseline, "format_leaderboard")
    if fmt not in _FORMATS:
        raise ValueError(f"fmt must be one of {_FORMATS}, got {fmt!r}.")
    parts = []
    for dataset, model, wide in _wide_tables(board, digits, fmt != "text", control):
        title = f"{dataset} / {model}"
        if fmt == "markdown":
            parts.append(f"### {title}\n\n{_markdown(wide)}\n")
        elif fmt == "html":
            body = wide.to_html(escape=True)
            body = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", body)
            parts.append(f"<h3>{html.escape(title)}</h3>\n{body}\n")
        else:
            parts.append(f"{title}\n{wide.to_string()}\n")
    note = _note(control, alpha, fmt != "text")
    parts.append(f"<p>{html.escape(note)}</p>" if fmt == "html" else note)
    return "\n".join(parts)


def plot_leaderboard(board, *, dataset=None, model=None, control=None, error="std",
                     baseline=_DEPRECATED):
    """Bar chart of a leaderboard: one panel per metric, one bar per explainer,
    error bars over seeds; explainers not significantly better than the
    control are hatched.

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
    baseline : str or None
        Deprecated alias of ``control``.

        .. deprecated:: 0.1
           Renamed ``control``; removed in the next release.

    Returns
    -------
    fig : matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    control = _renamed_control(control, baseline, "plot_leaderboard")
    if error not in ("std", "se", "row_se"):
        raise ValueError(f"error must be 'std', 'se' or 'row_se', got {error!r}.")
    sub = board
    for col, value in (("dataset", dataset), ("model", model)):
        values = list(dict.fromkeys(sub[col]))
        if value is None:
            if len(values) != 1:
                raise ValueError(f"The board has several {col}s {values}: pass {col}=.")
            value = values[0]
        sub = sub[sub[col] == value]
        if sub.empty:
            raise ValueError(f"No rows for {col}={value!r}; available: {values}.")
    metrics = list(dict.fromkeys(sub["metric"]))
    explainers = list(dict.fromkeys(board["explainer"]))
    n = len(metrics)
    ncols = min(n, 4)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 2.8 * nrows),
                             squeeze=False, constrained_layout=True)
    colors = plt.get_cmap("tab10")
    for ax, metric in zip(axes.ravel(), metrics):
        rows = sub[sub["metric"] == metric].set_index("explainer").reindex(explainers)
        rows = rows.dropna(subset=["mean"])
        x = np.arange(len(rows))
        bar_colors = ["0.6" if e == control else colors(explainers.index(e) % 10)
                      for e in rows.index]
        bars = ax.bar(x, rows["mean"], yerr=rows[error].fillna(0), capsize=3,
                      color=bar_colors, edgecolor="black", linewidth=0.5)
        for bar, (_, row) in zip(bars, rows.iterrows()):
            beats = _beats(row)
            if not pd.isna(beats) and not bool(beats):
                bar.set_hatch("//")
        ax.set_xticks(x, rows.index, rotation=45, ha="right", fontsize=8)
        ax.set_title(metric_display_name(metric, bool(rows["greater_is_better"].iloc[0])),
                     fontsize=9)
        ax.axhline(0, color="black", linewidth=0.5)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    fig.suptitle(f"{sub['dataset'].iloc[0]} / {sub['model'].iloc[0]}", fontsize=10)
    return fig


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text))


def write_report(results, directory, *, alpha=0.05, figures=True):
    """Save results and write ``report.md``, ``report.html`` and one PNG per
    (dataset, model) in ``figures/``.

    Parameters
    ----------
    results : BenchmarkResults
    directory : str or path-like
    alpha : float, default=0.05
        Level of the significance test against the random control.
    figures : bool, default=True
        Also draw the bar charts.

    Returns
    -------
    paths : dict
        Name -> written path.
    """
    directory = os.fspath(directory)
    paths = results.save(directory)
    ok = results.table["status"] == "ok"
    failures = results.table.loc[~ok, ["dataset", "model", "explainer", "metric", "seed",
                                       "status", "error"]]
    title = (results.spec or {}).get("name", "benchmark")
    if ok.any():
        board = results.leaderboard(alpha=alpha)
        md = format_leaderboard(board, fmt="markdown", control=results.control, alpha=alpha)
        body_html = format_leaderboard(board, fmt="html", control=results.control,
                                       alpha=alpha)
    else:
        board = None
        md = body_html = "No successful cell."
    summary = (f"{results.n_cells} cells, {int(ok.sum())} scores, "
               f"{int((results.table['status'] == 'error').sum())} errors, "
               f"{int((results.table['status'] == 'skipped').sum())} skipped")
    if results.wall_time is not None:
        summary += f", {results.wall_time:.1f} s wall time"
    md_parts = [f"# {title}\n", summary + "\n", md]
    html_parts = [f"<h1>{html.escape(str(title))}</h1>", f"<p>{html.escape(summary)}</p>",
                  body_html]
    if len(failures):
        md_parts.append("\n## Failed or skipped\n\n" + _markdown(failures.set_index("dataset")))
        html_parts.append("<h2>Failed or skipped</h2>" + failures.to_html(index=False))
    if figures and board is not None:
        import matplotlib.pyplot as plt

        fig_dir = os.path.join(directory, "figures")
        os.makedirs(fig_dir, exist_ok=True)
        for (dataset, model), _ in board.groupby(["dataset", "model"], sort=False):
            fig = plot_leaderboard(board, dataset=dataset, model=model,
                                   control=results.control)
            name = f"{_slug(dataset)}__{_slug(model)}.png"
            path = os.path.join(fig_dir, name)
            fig.savefig(path, dpi=100)
            plt.close(fig)
            paths[f"figure_{dataset}_{model}"] = path
            md_parts.append(f"\n![{dataset} / {model}](figures/{name})\n")
            html_parts.append(f'<img src="figures/{html.escape(name)}" '
                              f'alt="{html.escape(f"{dataset} / {model}")}">')
    paths["report_md"] = os.path.join(directory, "report.md")
    with open(paths["report_md"], "w", encoding="utf-8") as fh:
        fh.write("\n".join(md_parts))
    paths["report_html"] = os.path.join(directory, "report.html")
    with open(paths["report_html"], "w", encoding="utf-8") as fh:
        fh.write("<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
                 f"{html.escape(str(title))}</title></head><body>\n"
                 + "\n".join(html_parts) + "\n</body></html>\n")
    return paths
