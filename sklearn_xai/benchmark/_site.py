"""A static results site built from results folders (``sklearn-xai site``):
plain HTML pages, one CSS file and one small script, no server and no
external address (the pages work from ``file://``)."""

import hashlib
import html
import io
import json
import os

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._report import (
    _CSS,
    _decision_html,
    _family_title,
    _html_header,
    _html_page,
    _slug,
    _with_families,
)
from sklearn_xai.benchmark._results import _read_record, metric_display_name
from sklearn_xai.benchmark._submit import _inspect
from sklearn_xai.utils._files import write_in_folder

__all__ = ["build_site", "OPENXAI_STABILITY_METRICS"]

_STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_site_static")

#: Scorer names of OpenXAI's stability metrics, and OpenXAI's names.  OpenXAI's
#: tables report the natural log of the mean ratio (its ``evaluate_metrics.py``
#: takes ``np.log`` of the mean score), so the site shows ``ln(mean)`` beside
#: the mean of these metrics.
OPENXAI_STABILITY_METRICS = {"neg_ris": "RIS", "neg_ros": "ROS", "neg_rrs": "RRS"}

# The page's policy: scripts and styles from the site's own files only; no
# inline script runs, nothing is fetched from elsewhere.
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'none'")
_FILTERS = ("dataset", "model", "family", "source")


# ------------------------------------------------------------------ markup
def _json_data(document):
    """``document`` as JSON text safe inside ``<script type="application/json">``:
    ``< > &`` and the line separators U+2028 / U+2029 as ``\\u`` escapes, so
    that no label can close the element or start markup."""
    text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _page(title, body, data=None, home="index.html"):
    """An HTML page of the site: the report's page with the site's CSS, its
    script and the page's JSON data."""
    head = (f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<link rel="stylesheet" href="site.css">')
    nav = ('<header class="site"><a class="home" href="index.html">'
           "All benchmarks and explainers</a></header>" if home else "")
    tail = ""
    if data is not None:
        tail = (f'<script type="application/json" id="site-data">{_json_data(data)}'
                '</script><script src="site.js" defer></script>')
    return _html_page(title, [nav] + list(body), head, tail)


def _number(value, digits=4):
    try:
        value = float(value)
    except (TypeError, ValueError):
        return np.nan
    return value if np.isfinite(value) else np.nan


def _flag(value):
    if value is None or pd.isna(value):
        return "–"
    return "yes" if bool(value) else "no"


def _table(columns, rows, *, sortable=True):
    """An HTML table of ``rows`` (dicts): ``columns`` is a list of ``(key,
    header, kind)`` with kind "text", "number" or "link" (the row holds
    ``(text, href)``).  Every label is escaped; each row carries its filter
    columns as ``data-`` attributes and each number its exact value in
    ``data-sort``."""
    head = "".join(
        f'<th scope="col" data-key="{html.escape(key)}" data-type="'
        f'{"number" if kind == "number" else "text"}">{_html_header(header)}</th>'
        for key, header, kind in columns)
    body = []
    for row in rows:
        attrs = "".join(f' data-{name}="{html.escape(str(row[name]))}"'
                        for name in _FILTERS if name in row)
        cells = []
        for key, _, kind in columns:
            value = row.get(key)
            if kind == "number":
                x = _number(value)
                if np.isnan(x):
                    cells.append('<td class="num empty">–</td>')
                else:
                    cells.append(f'<td class="num" data-sort="{x!r}">'
                                 f"{html.escape(f'{x:.4g}')}</td>")
            elif kind == "link":
                text, href = value
                cells.append(f'<td class="text"><a href="{html.escape(href)}">'
                             f"{html.escape(str(text))}</a></td>")
            else:
                cells.append(f'<td class="text">{html.escape(str(value))}</td>')
        body.append(f"<tr{attrs}>{''.join(cells)}</tr>")
    cls = "board site sortable" if sortable else "board site"
    return (f'<div class="scroll"><table class="{cls}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _page_name(kind, label):
    """A file name of the site for a label: letters of the label and a digest
    (never a path, never a hidden file)."""
    digest = hashlib.sha256(str(label).encode("utf-8")).hexdigest()[:10]
    return f"{kind}-{_slug(label)[:40].strip('.')}-{digest}.html"


# ---------------------------------------------------------------- folders
class _Folder:
    """One accepted results folder."""

    def __init__(self, directory, results, meta, alpha):
        self.directory = directory
        self.name = os.path.basename(os.path.abspath(directory))
        self.results = results
        self.meta = meta
        self.is_submission = bool(meta)
        self.source = str(meta.get("submitter", self.name)) if meta else self.name
        spec = results.spec or {}
        self.benchmark = str(meta.get("preset") or spec.get("name") or "benchmark")
        self.record = _read_record(directory)
        table = results.table
        self.board = None
        if (table["status"] == "ok").any():
            board = results.leaderboard(alpha=alpha, n_bootstrap=0)
            self.board = _with_families(board, table)
        known = table.dropna(subset=["metric_name"]) if "metric_name" in table else table
        self.scorers = (dict(zip(known["metric"], known["metric_name"]))
                        if "metric_name" in known else {})


def _board_rows(folder, benchmark_page=None):
    """The leaderboard rows of a folder, as dicts for :func:`_table`."""
    rows = []
    board = folder.board
    if board is None:
        return rows
    sizes = board.groupby(["dataset", "model", "metric"])["explainer"].transform("size")
    for (_, r), n in zip(board.iterrows(), sizes):
        gib = bool(r["greater_is_better"]) if pd.notna(r["greater_is_better"]) else True
        scorer = folder.scorers.get(r["metric"], r["metric"])
        mean = _number(r["mean"])
        stability = OPENXAI_STABILITY_METRICS.get(str(scorer))
        rows.append({
            "source": folder.source, "dataset": str(r["dataset"]),
            "model": str(r["model"]), "family": _family_title(r.get("family", "other")),
            "metric": metric_display_name(str(r["metric"]), gib)
            + (f" ({stability})" if stability else ""),
            "explainer": (str(r["explainer"]), _page_name("explainer", r["explainer"])),
            "benchmark": (folder.benchmark, benchmark_page),
            "mean": mean, "std": _number(r.get("std")),
            "ln_mean": np.log(mean) if stability and mean > 0 else np.nan,
            "rank": _number(r.get("rank")), "of": n, "n_seeds": _number(r.get("n_seeds")),
            "tied_best": _flag(r.get("tied_best")),
            "beats_control": _flag(r.get("beats_control")),
            "p_holm": _number(r.get("p_holm")),
            "_stability": bool(stability),
        })
    return rows


def _columns(rows, *, benchmark=False):
    columns = [("benchmark", "benchmark", "link")] if benchmark else []
    columns += [("source", "source", "text"), ("dataset", "dataset", "text"),
                ("model", "model", "text"), ("family", "family", "text"),
                ("metric", "metric", "text")]
    if not benchmark:
        columns.append(("explainer", "explainer", "link"))
    columns += [("mean", "mean", "number"), ("std", "std", "number")]
    if any(r["_stability"] for r in rows):
        columns.append(("ln_mean", "ln(mean)", "number"))
    columns += [("rank", "rank", "number"), ("of", "of", "number"),
                ("tied_best", "tied_best", "text"),
                ("beats_control", "beats_control", "text"),
                ("p_holm", "p_holm", "number"),
                ("n_seeds", "seeds", "number")]
    return columns


def _filter_data(rows):
    return {"filters": {name: sorted({str(r[name]) for r in rows}) for name in _FILTERS}}


_STABILITY_NOTE = (
    "<p>ln(mean): OpenXAI's stability metrics (RIS, ROS, RRS, the largest ratio "
    "of an explanation's relative change to the input's, output's or "
    "representation's over the neighbours of a row; lower is better) are "
    "reported by OpenXAI as the natural log of their mean; the column shows "
    "that number for them, beside the mean itself.</p>")
_LEGEND = (
    "<p>One row per (source, dataset, model, metric, explainer): the mean over "
    "seeds, its standard deviation, the explainer's rank among the "
    "<em>of</em> explainers of its source's run (1 = best), whether it is tied "
    "for best and whether a paired one-sided test beats the random control "
    "(Holm-corrected p).  Ranks and tests are those of each run: rows of "
    "different sources are placed side by side, not re-tested.  Sort by a "
    "column by clicking its header; filter with the menus (the page's address "
    "keeps the choice: <code>#sort=mean&amp;dir=desc&amp;filter=dataset:NAME</code>).</p>")


def _provenance(folder):
    """The folder's record, as a definition list: what the run recorded,
    read from its JSON files (nothing executed)."""
    items = [("Folder", folder.name), ("Source", folder.source)]
    if folder.is_submission:
        items += [(f"submission.json: {key}", value if isinstance(value, str)
                   else json.dumps(value, ensure_ascii=False, default=str))
                  for key, value in folder.meta.items()]
    spec = folder.results.spec or {}
    items.append(("Seeds", ", ".join(str(s) for s in spec.get("seeds", []))))
    items.append(("Control", str(folder.results.control)))
    wall = folder.results.wall_time
    if isinstance(wall, (int, float)):
        items.append(("Wall time", f"{wall:.1f} s"))
    files = folder.record.get("files")
    if isinstance(files, dict):
        for name, entry in files.items():
            if isinstance(entry, dict):
                items.append((f"Digest of {name}", f"sha256 {entry.get('sha256')} "
                              f"({entry.get('rows')} rows)"))
    digest = os.path.join(folder.directory, "report.digest.json")
    if os.path.isfile(digest) and not os.path.islink(digest):
        try:
            with open(digest, encoding="utf-8") as fh:
                value = json.load(fh).get("digest")
        except (OSError, ValueError, AttributeError, RecursionError):
            value = None
        if isinstance(value, str):
            items.append(("Report digest (results, spec, package version)", value))
    dl = "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>"
                 for k, v in items)
    config = json.dumps(spec, indent=2, ensure_ascii=False, default=str)
    return (f'<details><summary>Provenance: {html.escape(folder.source)}</summary>'
            f'<dl class="spec">{dl}</dl><p>The configuration of the run '
            f"(<code>benchmark.json</code>):</p><pre class=\"config\"><code>"
            f"{html.escape(config)}</code></pre></details>")


def _cd_writer(out, stem, paths):
    """``cd_figure`` of the report's decision section: the diagram as an
    SVG file of the site (its text as escaped SVG text), shown by an
    ``<img>``, where no script of the file could run."""
    import matplotlib
    import matplotlib.pyplot as plt

    def write(fig, dataset, model):
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "site"}):
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
        name = f"figures/cd-{stem}-{len(paths)}.svg"
        paths[name] = write_in_folder(out, name, buffer.getvalue())
        return (f'<img class="cd" src="{html.escape(name)}" alt="'
                f'{html.escape(f"critical difference diagram, {dataset} / {model}")}">')

    return write


# ------------------------------------------------------------------- site
def build_site(results_dirs, out, *, alpha=0.05):
    """Build a static results site from results folders.

    Each folder is checked as :func:`check_submission` checks a submission
    (only CSV, JSON and NPZ files, no link, bounded sizes, the schema, the
    seeds; ``submission.json`` when present: submitter, known preset,
    version).  A folder that fails is refused, and the index lists why.
    The accepted folders are grouped by benchmark (the preset a submission
    names, else the run's name): a page per benchmark holds one leaderboard
    of all their rows, each marked with its source (the submitter, or the
    folder's name), sortable by any column and filtered by dataset, model,
    metric family and source; the decision tables and critical-difference
    diagrams of each run; and each run's provenance (seeds, control, file
    digests, configuration, submission record).  A page per explainer holds
    its rows across benchmarks.  OpenXAI's stability metrics (RIS, ROS, RRS)
    also show ``ln(mean)``, the number OpenXAI's tables report.

    The pages are plain HTML with one CSS file and one small script, no
    external address (they work from ``file://``); without the script the
    tables are complete.  Every label is escaped (HTML text and attributes,
    SVG text, the pages' JSON data), the pages forbid inline scripts
    (Content-Security-Policy), and nothing read is executed.  Files are
    written inside ``out`` only, never through a link.

    Parameters
    ----------
    results_dirs : list of str or path-like
        Results folders (written by ``sklearn-xai run --out DIR`` or
        :meth:`BenchmarkResults.save`, or submitted).
    out : str or path-like
        The site's folder (created when needed).
    alpha : float, default=0.05
        Level of the leaderboards' tests.

    Returns
    -------
    site : dict
        ``"paths"``: name -> written path (``index.html`` first);
        ``"refused"``: folder -> list of problems.

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import BenchmarkResults, build_site
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": "a",
    ...     "metric": "neg_complexity", "metric_name": "neg_complexity",
    ...     "seed": [0, 1], "value": [1.0, 3.0],
    ...     "greater_is_better": False, "status": "ok", "error": "", "cached": False})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = BenchmarkResults(table, spec={"name": "demo", "seeds": [0, 1]}).save(
    ...         folder + "/run")
    ...     site = build_site([folder + "/run"], folder + "/site")
    ...     names = [name.split("-")[0] for name in sorted(site["paths"])]
    >>> names, site["refused"]
    (['benchmark', 'explainer', 'index.html', 'site.css', 'site.js'], {})
    """
    out = os.fspath(out)
    folders, refused = [], {}
    for directory in results_dirs:
        directory = os.fspath(directory)
        results, meta, problems = _inspect(directory, submission=None)
        if problems:
            refused[directory] = problems
            continue
        folders.append(_Folder(directory, results, meta, alpha))
    paths = {}
    with open(os.path.join(_STATIC, "site.css"), encoding="utf-8") as fh:
        paths["site.css"] = write_in_folder(out, "site.css", _CSS + fh.read())
    with open(os.path.join(_STATIC, "site.js"), encoding="utf-8") as fh:
        paths["site.js"] = write_in_folder(out, "site.js", fh.read())

    benchmarks = {}
    for folder in folders:
        benchmarks.setdefault(folder.benchmark, []).append(folder)
    explainer_rows = {}
    benchmark_pages = []
    for benchmark, group in benchmarks.items():
        name = _page_name("benchmark", benchmark)
        rows = [row for folder in group for row in _board_rows(folder, name)]
        for row in rows:
            explainer_rows.setdefault(row["explainer"][0], []).append(row)
        body = [f"<h1>{html.escape(benchmark)}</h1>",
                '<p class="lead">Sources: ' + ", ".join(
                    html.escape(f.source) + (' <span class="tag submission">submission'
                                             "</span>" if f.is_submission else "")
                    for f in group) + ".</p>",
                '<section id="leaderboard"><h2>Leaderboard</h2>',
                f'<div class="legend">{_LEGEND}'
                + (_STABILITY_NOTE if any(r["_stability"] for r in rows) else "")
                + "</div>", _table(_columns(rows), rows), "</section>"]
        for i, folder in enumerate(group):
            body.append(f"<h2>Run: {html.escape(folder.source)}</h2>")
            if folder.board is not None:
                body.append(_decision_html(
                    folder.board, folder.results.control, alpha,
                    section_id=f"decision-{i}",
                    cd_figure=_cd_writer(out, name[:-5], paths)))
            else:
                body.append("<p>No successful cell.</p>")
            body.append(_provenance(folder))
        paths[name] = write_in_folder(out, name, _page(
            f"{benchmark}: leaderboard", body, _filter_data(rows)))
        benchmark_pages.append((benchmark, name, group))

    explainer_pages = []
    for explainer, rows in explainer_rows.items():
        name = _page_name("explainer", explainer)
        body = [f"<h1>Explainer {html.escape(explainer)}</h1>",
                '<p class="lead">Its rows in every benchmark of the site.</p>',
                f'<div class="legend">{_LEGEND}'
                + (_STABILITY_NOTE if any(r["_stability"] for r in rows) else "")
                + "</div>", _table(_columns(rows, benchmark=True), rows)]
        paths[name] = write_in_folder(out, name, _page(
            f"{explainer}: explainer", body, _filter_data(rows)))
        explainer_pages.append((explainer, name))

    index = ["<h1>Benchmark results</h1>", "<h2>Benchmarks</h2><ul>"]
    index += [f'<li><a href="{html.escape(name)}">{html.escape(benchmark)}</a> ('
              + ", ".join(html.escape(f.source) for f in group) + ")</li>"
              for benchmark, name, group in benchmark_pages]
    index.append("</ul><h2>Explainers</h2><ul>")
    index += [f'<li><a href="{html.escape(name)}">{html.escape(explainer)}</a></li>'
              for explainer, name in sorted(explainer_pages)]
    index.append("</ul>")
    if refused:
        index.append('<h2 class="refused">Refused folders</h2><ul>')
        index += [f"<li><code>{html.escape(os.path.basename(os.path.abspath(d)))}"
                  "</code>: " + html.escape("; ".join(problems)) + "</li>"
                  for d, problems in refused.items()]
        index.append("</ul>")
    if not benchmark_pages:
        index.append("<p>No accepted results folder.</p>")
    paths = {"index.html": write_in_folder(out, "index.html",
                                           _page("Benchmark results", index, home=None)),
             **paths}
    return {"paths": paths, "refused": refused}
