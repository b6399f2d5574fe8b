"""Pictures of the chosen explainer's attributions, for the report of
:func:`~sklearn_xai.benchmark.compare_explainers`.

The report's decision names the explainer to trust; this module explains
the compared rows with it and draws what a practitioner expects to see of
an explanation (a beeswarm of every row, the mean ``|attribution|`` of each
feature, the waterfall of one row), writes the figures and the attribution
matrix into the results folder and returns the report's section.
"""

import html
import numbers
import os
import sys

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._report import (
    _decision,
    _img,
    _markdown,
    _png,
    _reliability_table,
    _with_families,
)
from sklearn_xai.benchmark._results import BenchmarkResults
from sklearn_xai.benchmark._spec import resolve_component
from sklearn_xai.utils._files import csv_text, markdown_text, one_line, write_in_folder

__all__ = ["chosen_explainer", "explanation_figures"]

# Files written into the results folder (relative to it).
BEESWARM = "figures/explanation_beeswarm.png"
BAR = "figures/explanation_mean_abs.png"
WATERFALL = "figures/explanation_waterfall_row0.png"
ATTRIBUTIONS = "attributions.csv"
# Features listed in the section's table of the largest mean |attribution|.
_TOP = 10


def chosen_explainer(decision, *, alpha=0.05, control=None, reliability=True):
    """The explainer a decision puts first: best mean rank, never the control.

    Parameters
    ----------
    decision : BenchmarkResults, DataFrame or str
        Results (the decision of their report is computed: the leaderboard's
        mean ranks, the metrics the reliability table distrusts left out,
        as :func:`write_report` does), a decision summary
        (:func:`decision_summary`: its first row of the first dataset and
        model that is not the control), or an explainer label (returned as
        is).
    alpha : float, default=0.05
        Level of the tests behind the decision (results only).
    control : str, default=None
        Label of the control explainer, never chosen; ``None`` takes the
        results' control.
    reliability : bool or DataFrame, default=True
        As :func:`write_report`'s (results only): the metrics the
        reliability table distrusts do not vote; ``False`` lets every
        metric vote.  Pass the same value as to ``write_report``, so that
        the pictured explainer is the one its decision puts first.

    Returns
    -------
    label : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import chosen_explainer
    >>> summary = pd.DataFrame({"dataset": "d", "model": "m",
    ...                         "explainer": ["shap", "lime"], "mean_rank": [1.2, 1.8]})
    >>> chosen_explainer(summary)
    'shap'
    """
    if isinstance(decision, str):
        return decision
    if isinstance(decision, BenchmarkResults):
        control = decision.control if control is None else control
        ok = decision.table["status"] == "ok"
        if not ok.any():
            raise ValueError("The results have no successful score: there is no "
                             "decision, so no explainer to picture.")
        board = _with_families(decision.leaderboard(alpha=alpha), decision.table)
        decision = _decision(board, control, alpha,
                             _reliability_table(decision, reliability))
    if not isinstance(decision, pd.DataFrame) or "explainer" not in decision:
        raise TypeError(
            "decision must be BenchmarkResults, a decision summary (a DataFrame with "
            f"an 'explainer' column, best first) or an explainer label; got "
            f"{type(decision).__name__}.")
    frame = decision
    if "dataset" in frame and "model" in frame and len(frame):
        first = frame[["dataset", "model"]].iloc[0]
        frame = frame[(frame["dataset"] == first["dataset"])
                      & (frame["model"] == first["model"])]
    if "mean_rank" in frame:
        frame = frame.sort_values("mean_rank", kind="stable")
    labels = [str(e) for e in frame["explainer"] if control is None or e != control]
    if not labels:
        raise ValueError("The decision ranks no explainer besides the control: there "
                         "is no explainer to picture.")
    return labels[0]


def _explainer_spec(label, explainers, decision):
    """The spec of explainer ``label``: from ``explainers`` when given, else
    from the results' spec (names and parameters survive a save; an
    instance is only its repr there)."""
    if explainers is None and isinstance(decision, BenchmarkResults):
        explainers = (decision.spec or {}).get("explainers")
    if not isinstance(explainers, dict) or label not in explainers:
        known = sorted(explainers) if isinstance(explainers, dict) else None
        raise ValueError(
            f"No spec for the chosen explainer {label!r}"
            + (f" among {known}" if known else "")
            + ": pass explainers= (the dict label -> explainer given to "
            "compare_explainers).")
    return explainers[label]


def _build(spec, label, model, random_state):
    from sklearn.frozen import FrozenEstimator

    try:
        explainer = resolve_component(spec, "explainer", seed=random_state)
    except (ValueError, TypeError, ImportError) as exc:
        raise ValueError(
            f"Cannot rebuild the chosen explainer {label!r} from its spec ({exc}); "
            "pass explainers= (the dict label -> explainer given to "
            "compare_explainers), whose instances are used as given.") from None
    if "estimator" in explainer.get_params(deep=False):
        frozen = model if isinstance(model, FrozenEstimator) else FrozenEstimator(model)
        explainer.set_params(estimator=frozen)
    return explainer


def _names(feature_names, X, n_features):
    if feature_names is None:
        if hasattr(X, "columns"):
            return [str(c) for c in X.columns]
        return [f"x{j}" for j in range(n_features)]
    names = [str(n) for n in feature_names]
    if len(names) != n_features:
        raise ValueError(
            f"feature_names has {len(names)} names but the attributions have "
            f"{n_features} features; pass one name per column of X.")
    return names


def _rows(X, n):
    return X.iloc[:n] if hasattr(X, "iloc") else np.asarray(X)[:n]


def _figure(height, width=8.0):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    return fig, ax


def _say(verbose, text):
    if verbose:
        print(f"explanations: {text}", file=sys.stderr, flush=True)


def explanation_figures(decision, model, X, folder, *, explainers=None, X_train=None,
                        y_train=None, feature_names=None, n_explain="auto", alpha=0.05,
                        reliability=True, max_display=20, random_state=0,
                        attributions=None, verbose=0):
    """Explain the compared rows with the chosen explainer and draw them.

    The explainer the decision puts first (:func:`chosen_explainer`: best
    mean rank, never the random control) is fitted on ``X_train`` for
    ``model`` and explains the rows of ``X`` (or its attributions are taken
    from ``attributions``, computed once by the comparison).  Into ``folder`` (through
    :func:`~sklearn_xai.utils._files.write_in_folder`: no write leaves the
    folder or follows a link) go a beeswarm of every row
    (:class:`~sklearn_xai.plotting.BeeswarmDisplay`), a bar chart of each
    feature's mean ``|attribution|``
    (:class:`~sklearn_xai.plotting.MeanAbsAttributionDisplay`), the
    waterfall of the first row (:class:`~sklearn_xai.plotting.WaterfallDisplay`,
    from the base value to the explained output for Shapley-value
    explainers) and ``attributions.csv`` (one row per explained row, one
    column per feature, labels escaped against CSV injection).  The
    returned section goes into the report with
    ``write_report(results, folder, explanations=section)``.

    Parameters
    ----------
    decision : BenchmarkResults, DataFrame or str
        The results of :func:`compare_explainers`, a decision summary, or
        the label of the explainer to picture (see :func:`chosen_explainer`).
    model : fitted estimator
        The compared model (a Pipeline is fine), used as fitted.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The compared rows, as given to :func:`compare_explainers`.
    folder : str or path-like
        The results folder.
    explainers : dict, default=None
        Label -> explainer spec, as given to :func:`compare_explainers`
        (needed when it held explainer instances); ``None`` rebuilds the
        chosen explainer from the results' spec.
    X_train : array-like or DataFrame, default=None
        Training rows the explainer is fitted on (its masker's background);
        ``None`` uses ``X``.
    y_train : array-like, default=None
        Their targets, passed to the explainer's ``fit``.
    feature_names : list of str, default=None
        One name per column of ``X``; by default the DataFrame's columns,
        else ``x0, x1, ...``.
    n_explain : int or "auto", default="auto"
        Rows of ``X`` explained (the first ones): ``"auto"`` takes the
        results' ``n_explain`` (the rows :func:`compare_explainers`
        scored), else every row.
    alpha : float, default=0.05
        Level of the decision's tests (results only).
    reliability : bool or DataFrame, default=True
        Whether the metrics the reliability table distrusts are left out of
        the decision (results only; see :func:`chosen_explainer`).
    max_display : int, default=20
        Features drawn individually in the beeswarm and the bar chart (the
        waterfall shows 10); the others are summed.
    random_state : int, default=0
        Seed of the explainer (the first seed of the comparison by default)
        and of the beeswarm's jitter.
    attributions : dict, default=None
        Explainer label -> attributions the comparison already computed on
        these rows with this ``random_state`` (the ``attributions`` of
        :func:`run_benchmark`'s results, of the cells of that seed).  When
        it holds the chosen explainer, its matrix of shape ``(n_rows,
        n_features)`` is pictured instead of explaining the rows again
        (only the waterfall's row is explained, for its base value), which
        saves one explanation of every row; it must then be what the
        explainer's ``transform`` gives on the rows.  ``None`` explains
        them.
    verbose : int, default=0
        Print one line per stage to standard error when > 0.

    Returns
    -------
    section : dict
        ``"explainer"`` (the label), ``"attributions"`` (ndarray of shape
        (n_rows, n_features)), ``"feature_names"``, ``"paths"`` (name ->
        written path: ``figure_explanation_beeswarm``,
        ``figure_explanation_mean_abs``, ``figure_explanation_waterfall``,
        ``attributions``), ``"html"`` and ``"markdown"`` (the report's
        section).

    See Also
    --------
    write_report : Its ``explanations`` parameter places the section after
        the decision.

    Examples
    --------
    >>> import tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_xai.benchmark import explanation_figures
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge().fit(X[:300], y[:300])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     section = explanation_figures(
    ...         "ablation", model, X[300:310], folder, X_train=X[:300],
    ...         explainers={"ablation": "FeatureAblation"})
    >>> section["attributions"].shape, sorted(section["paths"])[0]
    ((10, 10), 'attributions')
    """
    from sklearn_xai.plotting import (
        BeeswarmDisplay,
        MeanAbsAttributionDisplay,
        WaterfallDisplay,
    )

    if (not isinstance(max_display, numbers.Integral) or isinstance(max_display, bool)
            or max_display < 1):
        raise ValueError(f"max_display must be a positive int, got {max_display!r}.")
    folder = os.fspath(folder)
    label = chosen_explainer(decision, alpha=alpha, reliability=reliability)
    spec = _explainer_spec(label, explainers, decision)
    if isinstance(n_explain, str) and n_explain == "auto":
        n_explain = None
        if isinstance(decision, BenchmarkResults):
            n_explain = (decision.spec or {}).get("n_explain")
    n_rows = len(X)
    if n_explain is not None:
        if (not isinstance(n_explain, numbers.Integral) or isinstance(n_explain, bool)
                or n_explain < 1):
            raise ValueError(f"n_explain must be a positive int or 'auto', got "
                             f"{n_explain!r}.")
        n_rows = min(int(n_explain), n_rows)
    rows = _rows(X, n_rows)
    background = rows if X_train is None else X_train

    explainer = _build(spec, label, model, random_state)
    explainer.fit(background, y_train)
    if attributions is not None and label in attributions:
        _say(verbose, f"the comparison's attributions of {n_rows} rows by "
                      f"{one_line(label)}")
        A = np.asarray(attributions[label], dtype=np.float64)
        if A.ndim != 2 or len(A) != n_rows:
            raise ValueError(
                f"attributions[{label!r}] has shape {A.shape} but {n_rows} rows are "
                "pictured: pass one row of attributions per explained row (the first "
                "n_explain rows of X), or attributions=None to explain them.")
    else:
        _say(verbose, f"explaining {n_rows} rows with {one_line(label)}")
        A = np.asarray(explainer.transform(rows), dtype=np.float64)
    if A.ndim != 2:
        raise ValueError(
            f"The chosen explainer {label!r} gives attributions of shape {A.shape}; the "
            "pictures need one attribution per row and column (tabular data).")
    names = _names(feature_names, rows, A.shape[1])
    paths = {}

    _say(verbose, "figures 1/3 (beeswarm)")
    n_lines = min(max_display, A.shape[1])
    fig, ax = _figure(0.34 * n_lines + 1.4)
    BeeswarmDisplay.from_attributions(A, rows, feature_names=names, ax=ax,
                                      max_display=max_display, random_state=random_state)
    ax.set_title(f"{label}: every explained row", fontsize=10)
    beeswarm = _png(fig)
    paths["figure_explanation_beeswarm"] = write_in_folder(folder, BEESWARM, beeswarm)

    _say(verbose, "figures 2/3 (mean |attribution|)")
    n_bars = min(max_display, A.shape[1]) + (A.shape[1] > max_display)
    fig, ax = _figure(0.3 * n_bars + 1.2, width=7.0)
    MeanAbsAttributionDisplay.from_attributions(A, feature_names=names, ax=ax,
                                                max_display=max_display)
    ax.set_title(f"{label}: mean |attribution| over {n_rows} rows", fontsize=10)
    bar = _png(fig)
    paths["figure_explanation_mean_abs"] = write_in_folder(folder, BAR, bar)

    _say(verbose, "figures 3/3 (waterfall of the first row)")
    n_steps = min(10, A.shape[1]) + (A.shape[1] > 10)
    fig, ax = _figure(0.34 * n_steps + 1.4)
    # The Display explains the row itself, so that its base value is the
    # model's output without features for Shapley-value explainers.
    waterfall_display = WaterfallDisplay.from_explainer(
        explainer, rows, row=0, feature_names=names, ax=ax)
    ax.set_title(f"{label}: first explained row", fontsize=10)
    waterfall = _png(fig)
    paths["figure_explanation_waterfall"] = write_in_folder(folder, WATERFALL, waterfall)

    _say(verbose, "attributions.csv")
    frame = pd.DataFrame(A, columns=[csv_text(n) for n in names])
    frame.index.name = "row"
    paths["attributions"] = write_in_folder(folder, ATTRIBUTIONS, frame.to_csv())

    mean_abs = np.abs(A).mean(axis=0)
    order = np.argsort(-mean_abs, kind="stable")[:_TOP]
    top = pd.DataFrame({"feature": [names[j] for j in order],
                        "mean |attribution|": [f"{mean_abs[j]:.3g}" for j in order]})
    kind = type(explainer).__name__
    output = explainer.get_params(deep=False).get("output")
    base = waterfall_display.base_value
    section = {
        "explainer": label, "attributions": A, "feature_names": names, "paths": paths,
        "html": _section_html(label, kind, output, n_rows, A.shape[1], top, beeswarm,
                              bar, waterfall, base),
        "markdown": _section_markdown(label, kind, output, n_rows, A.shape[1], top,
                                      base),
    }
    return section


def _what(label, kind, output, n_rows, n_features):
    """The section's first sentence, as plain text."""
    explained = f" of the model's {output}" if output not in (None, "auto") else ""
    return (f"The attributions{explained} by {label} ({kind}), the explainer the "
            f"decision puts first, on the {n_rows} compared rows and {n_features} "
            "features.")


def _section_html(label, kind, output, n_rows, n_features, top, beeswarm, bar,
                  waterfall, base):
    esc = html.escape
    start = ("its base value, the model's output with no feature known, "
             if base is not None else "0 ")
    rows = "".join(f'<tr><th scope="row">{esc(f)}</th><td class="num">{esc(v)}</td></tr>'
                   for f, v in zip(top["feature"], top["mean |attribution|"]))
    return "\n".join([
        f'<section id="explanations"><h2>Explanations by {esc(label)}</h2>',
        f'<p class="lead">{esc(_what(label, kind, output, n_rows, n_features))} '
        f"The matrix is in <code>{ATTRIBUTIONS}</code> (one row per explained row, one "
        "column per feature).</p>",
        "<figure>" + _img(beeswarm, f"beeswarm of the attributions by {label}")
        + "<figcaption>Every explained row: one point per row and feature at its "
        "attribution, coloured by the feature's value (low blue, high red, grey when "
        "not a number); features by decreasing mean |attribution|.</figcaption>"
        "</figure>",
        '<div class="explanation-pair"><figure>'
        + _img(bar, f"mean absolute attribution by {label}")
        + "<figcaption>Mean |attribution| of each feature over the explained rows: "
        "the global importance.</figcaption></figure>",
        '<div><h4>Largest mean |attribution|</h4><div class="scroll">'
        '<table class="explanation-top"><thead><tr><th scope="col">feature</th>'
        f'<th scope="col">mean |attribution|</th></tr></thead><tbody>{rows}</tbody>'
        "</table></div></div></div>",
        "<figure>" + _img(waterfall, f"waterfall of the first explained row by {label}")
        + f"<figcaption>The first explained row: from {esc(start)}each feature adds its "
        "attribution (red raises, blue lowers), the largest at the top; the labels "
        "show the row's values.</figcaption></figure>",
        "</section>",
    ])


def _section_markdown(label, kind, output, n_rows, n_features, top, base):
    esc = markdown_text
    start = ("its base value, the model's output with no feature known,"
             if base is not None else "0,")
    return "\n".join([
        f"\n## Explanations by {esc(label)}\n",
        f"{esc(_what(label, kind, output, n_rows, n_features))} The matrix is in "
        f"`{ATTRIBUTIONS}`.\n",
        f"![beeswarm of the attributions]({BEESWARM})\n",
        f"![mean absolute attribution]({BAR})\n",
        _markdown(top.set_index("feature")) + "\n",
        f"![waterfall of the first explained row]({WATERFALL})\n",
        f"The waterfall starts from {start} and each feature adds its attribution.\n",
    ])
