"""Bar chart of the mean absolute attribution of each feature."""

import numpy as np

from sklearn_xai.plotting._common import (
    attributions_of,
    check_max_display,
    display_doc,
    feature_names_of,
    from_tail,
    get_ax,
    plain_text,
    pyplot,
    set_plain_ticklabels,
)
from sklearn_xai.utils import check_attributions


# The end of the from_* methods' docstrings.
_FROM_TAIL = from_tail("MeanAbsAttributionDisplay", "bars_max_display")


def _room_for(ax, texts):
    """Widen the x axis so that ``texts`` (left-aligned after the bars) end
    inside the axes, whatever the figure's size and labels.  A layout
    engine narrows the axes when the new tick labels need room, so the
    width is measured again until the texts fit (a few rounds)."""
    fig = ax.figure
    for text in texts:
        # Inside the axes once it is widened: a layout engine need not make
        # room for it (it would narrow the axes, and the text would overflow).
        text.set_in_layout(False)
    previous = None
    for _ in range(5):
        fig.draw_without_rendering()  # the layout sets the axes' width
        renderer = fig.canvas.get_renderer()
        width = ax.get_window_extent(renderer).width
        lo, hi = ax.get_xlim()
        needed = hi
        for text in texts:
            share = text.get_window_extent(renderer).width / max(width, 1.0)
            if share < 0.5:  # else the axes is too narrow for any room to help
                start = text.get_position()[0]
                needed = max(needed, (start - lo * share) / (1.0 - share))
        if needed > hi:
            ax.set_xlim(lo, lo + (needed - lo) * 1.03)
        elif previous is not None and abs(width - previous) < 0.5:
            return  # the layout has settled and the texts fit
        previous = width


@display_doc("lundberg_reference")
class MeanAbsAttributionDisplay:
    """Bar chart of the mean absolute attribution of each feature.

    One horizontal bar per feature, ``mean_i |a_ij|``, the largest at the
    top; the features beyond the ``max_display`` largest are summed into one
    "sum of N other features" bar at the bottom.  With ``groups`` of rows
    (e.g. the predicted class), each feature gets one bar per group, side by
    side; the features are ordered by their mean over all rows.  This is the
    global importance bar chart of the ``shap`` package (Lundberg and Lee,
    2017).

    Parameters
    ----------
    mean_abs : ndarray of shape (n_groups, n_features)
        Mean absolute attribution of each feature, one row per group (one
        row without groups).
    feature_names : list of str of length n_features
        Names of the features.
    group_names : list of str of length n_groups or None, default=None
        Group labels of the legend (``None`` without groups).
    overall : ndarray of shape (n_features,) or None, default=None
        Mean absolute attribution over all rows, which orders the features;
        ``None`` uses ``mean_abs[0]``.

    Attributes
    ----------
    order_ : ndarray of int
        Feature indices drawn as individual bars, top to bottom.
    bars_ : list of matplotlib.container.BarContainer
        One container per group; its bars follow ``order_``, then the
        "other features" bar if any.  A bar's width is the plotted value.
    ax_ : matplotlib.axes.Axes
        Axes with the bar chart.
    figure_ : matplotlib.figure.Figure
        Figure containing the bar chart.

    See Also
    --------
    BeeswarmDisplay : Every row's attribution, one line per feature.

    References
    ----------
    {lundberg_reference}

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_xai.plotting import MeanAbsAttributionDisplay
    >>> disp = MeanAbsAttributionDisplay.from_attributions(
    ...     [[1.0, -2.0], [-3.0, 0.0]], feature_names=["a", "b"])
    >>> [float(bar.get_width()) for bar in disp.bars_[0]]
    [2.0, 1.0]
    """

    def __init__(self, *, mean_abs, feature_names, group_names=None, overall=None):
        self.mean_abs = mean_abs
        self.feature_names = feature_names
        self.group_names = group_names
        self.overall = overall

    @display_doc("plot_axes")
    def plot(self, ax=None, *, max_display=10, color=None, show_values=True):
        """Draw the bar chart.

        Parameters
        ----------
        {plot_axes}
        max_display : int, default=10
            Number of features drawn as their own bar; the others are summed
            into one bar.
        color : color or list of colors, default=None
            Bar colour (one per group); ``None`` uses the colour cycle.
        show_values : bool, default=True
            Write each bar's value next to it (without groups).

        Returns
        -------
        display : MeanAbsAttributionDisplay
            Object that stores the computed values.
        """
        plt = pyplot()
        max_display = check_max_display(max_display)
        M = np.atleast_2d(np.asarray(self.mean_abs, dtype=np.float64))
        overall = M[0] if self.overall is None else np.asarray(self.overall)
        n_groups = M.shape[0]
        ax, fig = get_ax(ax)
        by_size = np.argsort(-overall, kind="stable")
        shown, rest = by_size[:max_display], by_size[max_display:]
        labels = [self.feature_names[j] for j in shown]
        values = M[:, shown]
        if rest.size:
            values = np.column_stack([values, M[:, rest].sum(axis=1)])
            labels.append(f"sum of {rest.size} other features")
        n_bars = values.shape[1]
        y = np.arange(n_bars)[::-1].astype(float)
        height = 0.8 / n_groups
        if color is None:
            cycle = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
            colors = [cycle[g % len(cycle)] for g in range(n_groups)]
        elif n_groups > 1 and not isinstance(color, str) and len(color) == n_groups:
            colors = list(color)
        else:
            colors = [color] * n_groups
        self.bars_ = []
        for g in range(n_groups):
            offset = (n_groups - 1) / 2 * height - g * height
            label = None if self.group_names is None else plain_text(
                self.group_names[g])
            self.bars_.append(ax.barh(y + offset, values[g], height=height * 0.95,
                                      color=colors[g], label=label))
        texts = []
        if show_values and n_groups == 1:
            span = max(values.max(), 1e-12)
            texts = [ax.text(value + 0.01 * span, yi, f"{value:.3g}", va="center",
                             fontsize=8, usetex=False)
                     for yi, value in zip(y, values[0])]
        ax.set_yticks(y)
        set_plain_ticklabels(ax, labels)
        ax.set_xlabel("mean |attribution|")
        ax.set_ylim(-0.6, n_bars - 0.4)
        if self.group_names is not None:
            legend = ax.legend(loc="lower right")
            for text in legend.get_texts():
                text.set_usetex(False)
        if texts:  # measured once the labels are set
            _room_for(ax, texts)
        self.order_ = shown
        self.ax_ = ax
        self.figure_ = fig
        return self

    @classmethod
    @display_doc("attributions_matrix", from_tail=_FROM_TAIL)
    def from_attributions(cls, attributions, X=None, *, feature_names=None,
                          groups=None, ax=None, max_display=10, **plot_kw):
        """Plot the mean absolute attributions of a matrix.

        Parameters
        ----------
        {attributions_matrix}
        X : DataFrame or array-like, default=None
            The explained rows, only read for their column names.
        feature_names : list of str, default=None
            Feature names; by default the DataFrame columns of ``X`` or of
            ``attributions``, else ``x0, x1, ...``.
        groups : array-like of shape (n_samples,), default=None
            A group label per row (e.g. the predicted class): one bar per
            group and feature.
        {from_tail}
        """
        source = X if X is not None else attributions
        A = check_attributions(attributions)
        names = feature_names_of(feature_names, source, A.shape[1])
        absolute = np.abs(A)
        overall = absolute.mean(axis=0)
        if groups is None:
            mean_abs, group_names = overall[None, :], None
        else:
            groups = np.asarray(groups)
            if groups.shape != (A.shape[0],):
                raise ValueError(
                    f"groups must have one label per row of the attributions, "
                    f"shape ({A.shape[0]},); got shape {groups.shape}."
                )
            labels = np.unique(groups)
            mean_abs = np.stack([absolute[groups == g].mean(axis=0) for g in labels])
            group_names = [str(g) for g in labels]
        display = cls(mean_abs=mean_abs, feature_names=names,
                      group_names=group_names, overall=overall)
        return display.plot(ax=ax, max_display=max_display, **plot_kw)

    @classmethod
    @display_doc("explainer_param", "names_from_explainer", from_tail=_FROM_TAIL)
    def from_explainer(cls, explainer, X, *, feature_names=None, groups=None, ax=None,
                       max_display=10, **plot_kw):
        """Explain the rows ``X`` with a fitted explainer and plot the mean
        absolute attributions.

        Parameters
        ----------
        {explainer_param}
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows to explain.
        {names_from_explainer}
        groups : array-like of shape (n_samples,), default=None
            A group label per row: one bar per group and feature.
        {from_tail}
        """
        A, X = attributions_of(explainer, X)
        names = feature_names_of(feature_names, X, A.shape[1], explainer)
        return cls.from_attributions(A, feature_names=names, groups=groups, ax=ax,
                                     max_display=max_display, **plot_kw)
