"""Beeswarm of every row's attributions, one line per feature."""

import numpy as np
from sklearn.utils import check_random_state

from sklearn_xai.plotting._common import (
    attributions_of,
    check_max_display,
    display_doc,
    feature_names_of,
    from_tail,
    feature_values,
    get_ax,
    numeric_values,
    pyplot,
    set_plain_ticklabels,
)
from sklearn_xai.utils import check_attributions


# The end of the from_* methods' docstrings.
_FROM_TAIL = from_tail("BeeswarmDisplay", "lines_max_display", "jitter_seed")


def density_jitter(x, rng, *, n_bins=50, width=0.4):
    """Vertical offsets of points at ``x``, within ``[-width, width]``,
    proportional to the local density of ``x`` (a violin-shaped cloud):
    ``width * u * density(x) / max(density)`` with ``u`` uniform on
    ``[-1, 1]`` drawn from ``rng``.  The density is a histogram of ``n_bins``
    bins smoothed over its neighbours."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return np.zeros(0)
    lo, hi = x.min(), x.max()
    if hi <= lo:
        density = np.ones_like(x)
    else:
        counts, edges = np.histogram(x, bins=n_bins, range=(lo, hi))
        smooth = np.convolve(counts, [0.25, 0.5, 0.25], mode="same")
        index = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, n_bins - 1)
        density = smooth[index] / smooth.max()
    return width * rng.uniform(-1.0, 1.0, size=x.size) * density


@display_doc("lundberg_reference")
class BeeswarmDisplay:
    """Beeswarm plot: every row's attribution of each feature.

    One horizontal line per feature (the ``max_display`` largest mean
    ``|attribution|``, largest at the top); each row is a point at its
    attribution, spread vertically in proportion to how many rows have a
    similar attribution (a deterministic jitter drawn from
    ``random_state``).  Points are coloured by the row's value of the
    feature, scaled per feature between its 5 % and 95 % quantiles (low to
    high); values that are not numbers are grey.  This is the summary plot
    of the ``shap`` package (Lundberg and Lee, 2017; Lundberg et al., 2020).

    Parameters
    ----------
    attributions : ndarray of shape (n_samples, n_features)
        The attributions.
    feature_names : list of str of length n_features
        Names of the features.
    feature_values : ndarray of shape (n_samples, n_features) or None, default=None
        The explained rows (numbers or text), which colour the points;
        ``None`` draws every point in one colour, without a colorbar.

    Attributes
    ----------
    order_ : ndarray of int
        Feature indices drawn, top to bottom (decreasing mean
        ``|attribution|``).
    collections_ : list of matplotlib.collections.PathCollection
        One collection per line of ``order_``, top to bottom; its offsets
        are ``(attribution, line + jitter)`` in row order and its array the
        scaled feature values (``nan`` for non-numeric values).
    colorbar_ : matplotlib.colorbar.Colorbar or None
        The "feature value" colorbar (``None`` without feature values).
    ax_ : matplotlib.axes.Axes
        Axes with the beeswarm.
    figure_ : matplotlib.figure.Figure
        Figure containing the beeswarm.

    See Also
    --------
    WaterfallDisplay : The attributions of one row.
    MeanAbsAttributionDisplay : Mean absolute attribution of each feature.

    References
    ----------
    {lundberg_reference}
    .. [2] S. M. Lundberg et al., "From local explanations to global
       understanding with explainable AI for trees", Nature Machine
       Intelligence 2, 56-67, 2020.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_xai.plotting import BeeswarmDisplay
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> disp = BeeswarmDisplay.from_attributions(X * [1.0, 2.0, 3.0], X)
    >>> disp.order_.tolist()
    [2, 1, 0]
    """

    def __init__(self, *, attributions, feature_names, feature_values=None):
        self.attributions = attributions
        self.feature_names = feature_names
        self.feature_values = feature_values

    @display_doc("plot_axes")
    def plot(self, ax=None, *, max_display=10, cmap="coolwarm", random_state=0,
             point_size=12, alpha=0.8, colorbar=True):
        """Draw the beeswarm.

        Parameters
        ----------
        {plot_axes}
        max_display : int, default=10
            Number of features drawn (the largest mean ``|attribution|``).
        cmap : str or Colormap, default="coolwarm"
            Colormap of the feature values, low to high; non-numeric values
            use grey.
        random_state : int, RandomState instance or None, default=0
            Seed of the vertical jitter (its own generator: the global
            random state is not used unless ``None`` is passed).
        point_size : float, default=12
            Marker area.
        alpha : float, default=0.8
            Marker opacity.
        colorbar : bool, default=True
            Draw the "feature value" colorbar (only with feature values).

        Returns
        -------
        display : BeeswarmDisplay
            Object that stores the computed values.
        """
        plt = pyplot()
        max_display = check_max_display(max_display)
        rng = check_random_state(random_state)
        A = np.asarray(self.attributions, dtype=np.float64)
        ax, fig = get_ax(ax)
        order = np.argsort(-np.abs(A).mean(axis=0), kind="stable")[:max_display]
        colormap = plt.get_cmap(cmap).with_extremes(bad="0.6")
        scaled = None
        if self.feature_values is not None:
            numeric = numeric_values(self.feature_values)
            scaled = np.full_like(numeric, np.nan)
            for j in order:
                column = numeric[:, j]
                finite = np.isfinite(column)
                if not finite.any():
                    continue
                lo, hi = np.percentile(column[finite], [5, 95])
                if hi > lo:
                    scaled[finite, j] = np.clip((column[finite] - lo) / (hi - lo), 0, 1)
                else:
                    scaled[finite, j] = 0.5
        n_lines = len(order)
        self.collections_ = []
        for line, j in enumerate(order):
            y = n_lines - 1 - line + density_jitter(A[:, j], rng)
            if scaled is None:
                collection = ax.scatter(A[:, j], y, s=point_size, alpha=alpha,
                                        color="tab:blue", linewidths=0)
            else:
                collection = ax.scatter(A[:, j], y, c=scaled[:, j], cmap=colormap,
                                        vmin=0.0, vmax=1.0, s=point_size,
                                        alpha=alpha, linewidths=0,
                                        plotnonfinite=True)
            collection.set_rasterized(A.shape[0] > 2000)
            self.collections_.append(collection)
        ax.axvline(0.0, color="0.5", linewidth=0.8, zorder=0)
        ax.set_yticks(np.arange(n_lines)[::-1])
        set_plain_ticklabels(ax, [self.feature_names[j] for j in order])
        ax.set_ylim(-0.6, n_lines - 0.4)
        ax.set_xlabel("attribution")
        self.colorbar_ = None
        if colorbar and scaled is not None:
            mappable = plt.cm.ScalarMappable(norm=plt.Normalize(0.0, 1.0),
                                             cmap=colormap)
            self.colorbar_ = fig.colorbar(mappable, ax=ax, ticks=[0.0, 1.0],
                                          aspect=40, pad=0.02)
            self.colorbar_.ax.set_yticklabels(["low", "high"])
            self.colorbar_.set_label("feature value")
            self.colorbar_.outline.set_visible(False)
        self.order_ = order
        self.ax_ = ax
        self.figure_ = fig
        return self

    @classmethod
    @display_doc("names_from_rows", "attributions_matrix", from_tail=_FROM_TAIL)
    def from_attributions(cls, attributions, X=None, *, feature_names=None, ax=None,
                          max_display=10, random_state=0, **plot_kw):
        """Plot the beeswarm of an attribution matrix.

        Parameters
        ----------
        {attributions_matrix}
        X : array-like or DataFrame of the same shape, default=None
            The explained rows, which colour the points; a DataFrame's
            columns name the features.
        {names_from_rows}
        {from_tail}
        """
        A = check_attributions(attributions)
        values = feature_values(X, A.shape)
        names = feature_names_of(feature_names, X, A.shape[1])
        display = cls(attributions=A, feature_names=names, feature_values=values)
        return display.plot(ax=ax, max_display=max_display, random_state=random_state,
                            **plot_kw)

    @classmethod
    @display_doc("explainer_param", "names_from_explainer", from_tail=_FROM_TAIL)
    def from_explainer(cls, explainer, X, *, feature_names=None, ax=None,
                       max_display=10, random_state=0, **plot_kw):
        """Explain the rows ``X`` with a fitted explainer and plot the beeswarm.

        Parameters
        ----------
        {explainer_param}
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows to explain; their values colour the points.
        {names_from_explainer}
        {from_tail}
        """
        A, X = attributions_of(explainer, X)
        names = feature_names_of(feature_names, X, A.shape[1], explainer)
        return cls.from_attributions(A, X, feature_names=names, ax=ax,
                                     max_display=max_display,
                                     random_state=random_state, **plot_kw)
