"""Waterfall of one row's attributions, from the base value to f(x)."""

import numbers

import numpy as np

from sklearn_xai.plotting._common import (
    attributions_of,
    check_max_display,
    display_doc,
    explained_values,
    feature_names_of,
    from_tail,
    feature_values,
    format_value,
    get_ax,
    plain_text,
    rows_of,
    set_plain_ticklabels,
)
from sklearn_xai.utils import check_attributions

# Explainers whose attributions add up to f(x) - v(empty coalition)
# (efficiency), for which base_value="auto" is f(x) - sum(a).
_EFFICIENT_EXPLAINERS = (
    "BreakDown",
    "EmpiricalConditionalSHAP",
    "ExactShapley",
    "KernelSHAP",
    "ShapleyValueSampling",
    "TreeContributions",
)


# The end of the from_* methods' docstrings.
_FROM_TAIL = from_tail("WaterfallDisplay", "bars_max_display")


def _is_efficient(explainer):
    from sklearn_xai import explainers

    classes = tuple(getattr(explainers, name) for name in _EFFICIENT_EXPLAINERS)
    return isinstance(explainer, classes)


def _check_row(row, n_rows):
    if (not isinstance(row, numbers.Integral) or isinstance(row, bool)
            or not -n_rows <= row < n_rows):
        raise ValueError(
            f"row must be an int index of the {n_rows} explained rows, got {row!r}."
        )
    return int(row) % n_rows


def _check_base_value(base_value):
    if base_value is None:
        return None
    if not isinstance(base_value, numbers.Real) or not np.isfinite(base_value):
        raise ValueError(
            "base_value must be a finite number (the output the attributions "
            "start from, e.g. the model's expected output) or None, got "
            f"{base_value!r}."
        )
    return float(base_value)


@display_doc("lundberg_reference")
class WaterfallDisplay:
    """Waterfall plot of the attributions of one row.

    The bars start at the base value (the output with no feature known, e.g.
    the model's expected output) and each adds one feature's attribution, the
    largest ``|attribution|`` at the top; the ``n - max_display`` smallest are
    grouped into one "N other features" bar at the bottom, which is added
    first.  The last bar ends at ``base_value + sum(attributions)``, which is
    ``f(x)`` for efficient explainers (Shapley values).  Feature labels show
    the row's values (``"age = 42"``) when they are known.  This is the
    waterfall of the ``shap`` package (Lundberg and Lee, 2017).

    Build it with :meth:`from_explainer` or :meth:`from_attributions`; the
    constructor only stores what is plotted.

    Parameters
    ----------
    attributions : ndarray of shape (n_features,)
        The row's attributions.
    feature_names : list of str of length n_features
        Names of the features.
    base_value : float or None, default=None
        Where the first bar starts; ``None`` starts at 0 (the bars then end
        at ``sum(attributions)``).
    feature_values : ndarray of shape (n_features,) or None, default=None
        The row's feature values, shown in the labels.

    Attributes
    ----------
    order_ : ndarray of int
        Feature indices drawn as individual bars, top to bottom (decreasing
        ``|attribution|``).
    bars_ : list of matplotlib.patches.Rectangle
        The bars, top to bottom: one per feature of ``order_``, then the
        "other features" bar if any.  Each bar starts at ``get_x()`` and its
        signed width is the attribution it adds.
    end_value_ : float
        Where the last bar ends: ``base_value + sum(attributions)``
        (``sum(attributions)`` when ``base_value`` is ``None``).
    base_line_ : matplotlib.lines.Line2D
        Vertical line at the start (the base value, or 0).
    end_line_ : matplotlib.lines.Line2D
        Vertical line at ``end_value_``.
    ax_ : matplotlib.axes.Axes
        Axes with the waterfall.
    figure_ : matplotlib.figure.Figure
        Figure containing the waterfall.

    See Also
    --------
    BeeswarmDisplay : Attributions of every row, one line per feature.
    MeanAbsAttributionDisplay : Mean absolute attribution of each feature.

    References
    ----------
    {lundberg_reference}

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_xai.plotting import WaterfallDisplay
    >>> disp = WaterfallDisplay.from_attributions(
    ...     [0.5, -0.2, 0.1], [[1.0, 2.0, 3.0]], feature_names=["a", "b", "c"],
    ...     base_value=1.0)
    >>> round(float(disp.end_value_), 6)
    1.4
    """

    def __init__(self, *, attributions, feature_names, base_value=None,
                 feature_values=None):
        self.attributions = attributions
        self.feature_names = feature_names
        self.base_value = base_value
        self.feature_values = feature_values

    @display_doc("plot_axes")
    def plot(self, ax=None, *, max_display=10, positive_color="tab:red",
             negative_color="tab:blue", show_values=True):
        """Draw the waterfall.

        Parameters
        ----------
        {plot_axes}
        max_display : int, default=10
            Number of features drawn as their own bar; the others are summed
            into one bar.
        positive_color, negative_color : color, default="tab:red", "tab:blue"
            Colours of the bars that raise and lower the output.
        show_values : bool, default=True
            Write each bar's attribution next to it.

        Returns
        -------
        display : WaterfallDisplay
            Object that stores the computed values.
        """
        max_display = check_max_display(max_display)
        a = np.asarray(self.attributions, dtype=np.float64)
        names = list(self.feature_names)
        ax, fig = get_ax(ax)
        base = 0.0 if self.base_value is None else float(self.base_value)

        by_magnitude = np.argsort(-np.abs(a), kind="stable")
        shown = by_magnitude[:max_display]
        rest = by_magnitude[max_display:]
        labels = []
        for j in shown:
            if self.feature_values is None:
                labels.append(names[j])
            else:
                labels.append(f"{names[j]} = {format_value(self.feature_values[j])}")
        widths = [float(a[j]) for j in shown]
        if rest.size:
            widths.append(float(a[rest].sum()))
            labels.append(f"{rest.size} other features")
        # Accumulate from the bottom bar (the smallest) up to the top one.
        n_bars = len(widths)
        starts = np.empty(n_bars)
        position = base
        for i in range(n_bars - 1, -1, -1):
            starts[i] = position
            position += widths[i]
        self.end_value_ = position
        y = np.arange(n_bars)[::-1]  # first bar at the top
        colors = [positive_color if w >= 0 else negative_color for w in widths]
        container = ax.barh(y, widths, left=starts, color=colors, height=0.7)
        self.bars_ = list(container.patches)
        ends = np.r_[starts, starts + widths, base]
        span = max(float(np.ptp(ends)), 1e-12)
        # Room for the value texts on both sides.
        ax.set_xlim(ends.min() - 0.12 * span, ends.max() + 0.12 * span)
        if show_values:
            for yi, start, width in zip(y, starts, widths):
                end = start + width
                pad = 0.01 * span * (1 if width >= 0 else -1)
                ax.text(end + pad, yi, plain_text(f"{width:+.3g}"), va="center",
                        ha="left" if width >= 0 else "right", fontsize=8,
                        usetex=False)
        ax.set_yticks(y)
        set_plain_ticklabels(ax, labels)
        start_label = ("0" if self.base_value is None
                       else f"base value = {base:.4g}")
        self.base_line_ = ax.axvline(base, color="0.5", linestyle="--", linewidth=1)
        self.end_line_ = ax.axvline(self.end_value_, color="0.2", linestyle=":",
                                    linewidth=1)
        end_label = ("sum of attributions" if self.base_value is None
                     else "base value + sum")
        ax.set_xlabel(plain_text(
            f"{start_label}  ->  {end_label} = {self.end_value_:.4g}"))
        ax.set_ylim(-0.7, n_bars - 0.3)
        self.order_ = shown
        self.ax_ = ax
        self.figure_ = fig
        return self

    @classmethod
    @display_doc("names_from_rows", from_tail=_FROM_TAIL)
    def from_attributions(cls, attributions, X=None, *, row=0, feature_names=None,
                          base_value=None, ax=None, max_display=10, **plot_kw):
        """Plot the waterfall of one row of an attribution matrix.

        Parameters
        ----------
        attributions : array-like of shape (n_samples, n_features) or (n_features,)
            Attributions (one row or a matrix).
        X : array-like or DataFrame of the same shape, default=None
            The explained rows; their values are shown in the labels, and a
            DataFrame's columns name the features.
        row : int, default=0
            Which row of a matrix to plot.
        {names_from_rows}
        base_value : float or None, default=None
            Where the first bar starts (e.g. the model's expected output);
            ``None`` starts at 0.
        {from_tail}
        """
        A = np.asarray(attributions.to_numpy() if hasattr(attributions, "to_numpy")
                       else attributions)
        one_row = A.ndim == 1
        A = check_attributions(A.reshape(1, -1) if one_row else A)
        if X is not None and one_row and np.ndim(X) == 1:
            X = np.asarray(X, dtype=object).reshape(1, -1)
        values = feature_values(X, A.shape)
        row = _check_row(row, A.shape[0])
        names = feature_names_of(feature_names, X, A.shape[1])
        display = cls(attributions=A[row], feature_names=names,
                      base_value=_check_base_value(base_value),
                      feature_values=None if values is None else values[row])
        return display.plot(ax=ax, max_display=max_display, **plot_kw)

    @classmethod
    @display_doc("explainer_param", "names_from_explainer", from_tail=_FROM_TAIL)
    def from_explainer(cls, explainer, X, *, row=0, feature_names=None,
                       base_value="auto", ax=None, max_display=10, **plot_kw):
        """Explain one row with a fitted explainer and plot its waterfall.

        Parameters
        ----------
        {explainer_param}
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows; only ``X[row]`` is explained.
        row : int, default=0
            Which row of ``X`` to explain.
        {names_from_explainer}
        base_value : float, "auto" or None, default="auto"
            Where the first bar starts.  ``"auto"``: for explainers whose
            attributions add up to ``f(x) - v(empty)`` (Shapley values:
            :class:`~sklearn_xai.explainers.ExactShapley`, ``KernelSHAP``,
            ``ShapleyValueSampling``, ``EmpiricalConditionalSHAP``,
            ``TreeContributions``, ``BreakDown``), the value of the empty
            coalition ``f(x) - sum(a)``, so that the last bar ends at the
            explained output ``f(x)``; ``None`` (start at 0) for the others.
        {from_tail}
        """
        n_rows = X.shape[0] if hasattr(X, "shape") else len(X)
        X_row = rows_of(X, [_check_row(row, n_rows)])
        A, _ = attributions_of(explainer, X_row)
        if isinstance(base_value, str) and base_value == "auto":
            base_value = None
            if _is_efficient(explainer):
                fx = explained_values(explainer, X_row)
                if fx is not None:
                    base_value = float(fx[0] - A[0].sum())
        names = feature_names_of(feature_names, X, A.shape[1], explainer)
        return cls.from_attributions(A, X_row, row=0, feature_names=names,
                                     base_value=base_value, ax=ax,
                                     max_display=max_display, **plot_kw)
