"""Attribution maps drawn over their images."""

import numbers

import numpy as np

from sklearn_xai.plotting._common import (
    attributions_of,
    display_doc,
    plain_text,
    pyplot,
)
from sklearn_xai.utils import check_attributions


def _check_image_shape(image_shape, n_features):
    shape = tuple(image_shape) if np.ndim(image_shape) == 1 else None
    if (shape is None or len(shape) not in (2, 3)
            or not all(isinstance(s, numbers.Integral) and s > 0 for s in shape)):
        raise ValueError(
            f"image_shape must be (height, width) or (height, width, channels) "
            f"of positive ints, got {image_shape!r}."
        )
    if int(np.prod(shape)) != n_features:
        raise ValueError(
            f"image_shape {shape} holds {int(np.prod(shape))} values but the "
            f"attributions have {n_features} features a row; pass the shape the "
            "rows were flattened from (channels last)."
        )
    return tuple(int(s) for s in shape)


def _as_maps(values, n_rows, image_shape, name):
    """Rows of ``values`` reshaped to ``image_shape`` and summed over
    channels: shape (n_rows, height, width)."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim > 2:  # images given unflattened
        values = values.reshape(values.shape[0], -1)
    if values.ndim != 2 or values.shape != (n_rows, int(np.prod(image_shape))):
        raise ValueError(
            f"{name} has shape {np.shape(values)}; expected ({n_rows}, "
            f"{int(np.prod(image_shape))}): one flattened image of shape "
            f"{image_shape} per row of the attributions."
        )
    maps = values.reshape((n_rows,) + image_shape)
    return maps.sum(axis=3) if maps.ndim == 4 else maps


def _greyscale(images):
    """(n, h, w) images scaled to [0, 1] per image."""
    lo = images.min(axis=(1, 2), keepdims=True)
    hi = images.max(axis=(1, 2), keepdims=True)
    return (images - lo) / np.where(hi > lo, hi - lo, 1.0)


class ImageOverlayDisplay:
    """Attribution maps drawn over their images, one axes per image.

    Each row of attributions is reshaped to the image shape and summed over
    channels; the map is drawn with a diverging colormap centred at 0, with
    symmetric limits ``[-v, v]`` where ``v`` is a percentile of
    ``|attribution|`` over every map shown (so the maps share one scale),
    over the image in grey.  The map's opacity grows with ``|attribution|``,
    so the image shows through where the attribution is small.  A
    ground-truth mask is outlined by a contour.  This is the overlay of
    saliency-map papers (Simonyan et al., 2014) and of Captum's
    ``visualize_image_attr`` ("blended_heat_map").

    Parameters
    ----------
    attribution_maps : ndarray of shape (n_images, height, width)
        Attribution maps (summed over channels).
    images : ndarray of shape (n_images, height, width) or None, default=None
        Greyscale underlays, scaled to [0, 1] (``None``: no underlay).
    masks : ndarray of shape (n_images, height, width) or None, default=None
        Ground-truth masks, outlined where they cross 0.5.
    titles : list of str or None, default=None
        One title per image.

    Attributes
    ----------
    overlays_ : list of matplotlib.image.AxesImage
        The attribution maps drawn, one per image (``get_array()`` is the
        map, ``get_clim()`` the symmetric limits).
    underlays_ : list of matplotlib.image.AxesImage
        The grey images (empty without images).
    contours_ : list of matplotlib.contour.QuadContourSet
        The mask outlines (empty without masks).
    limit_ : float
        ``v``: the colour limits are ``(-v, v)``.
    colorbar_ : matplotlib.colorbar.Colorbar
        The attribution colorbar.
    axes_ : ndarray of matplotlib Axes of shape (n_rows, n_cols)
        The grid (unused cells are hidden).
    ax_ : matplotlib.axes.Axes
        The first axes of the grid.
    figure_ : matplotlib.figure.Figure
        Figure containing the grid.

    See Also
    --------
    WaterfallDisplay, BeeswarmDisplay : Displays of tabular attributions.

    References
    ----------
    .. [1] K. Simonyan, A. Vedaldi and A. Zisserman, "Deep Inside
       Convolutional Networks: Visualising Image Classification Models and
       Saliency Maps", ICLR Workshop 2014.
    .. [2] N. Kokhlikyan et al., "Captum: A unified and generic model
       interpretability library for PyTorch", arXiv:2009.07896, 2020.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_xai.plotting import ImageOverlayDisplay
    >>> A = np.zeros((1, 16)); A[0, 5] = 1.0
    >>> disp = ImageOverlayDisplay.from_attributions(A, image_shape=(4, 4),
    ...                                              percentile=100)
    >>> disp.overlays_[0].get_clim()
    (-1.0, 1.0)
    """

    def __init__(self, *, attribution_maps, images=None, masks=None, titles=None):
        self.attribution_maps = attribution_maps
        self.images = images
        self.masks = masks
        self.titles = titles

    def plot(self, ax=None, *, n_cols=4, cmap="RdBu_r", percentile=99, alpha=0.8,
             mask_color="lime", colorbar=True):
        """Draw the maps.

        Parameters
        ----------
        ax : matplotlib Axes or array-like of Axes, default=None
            Axes to draw on, at least one per image; ``None`` creates a
            figure with a grid of ``n_cols`` columns.
        n_cols : int, default=4
            Number of columns of the grid (fewer with fewer images).
        cmap : str or Colormap, default="RdBu_r"
            Diverging colormap (negative blue, positive red).
        percentile : float in (0, 100], default=99
            The colour limits are ``+-`` this percentile of ``|attribution|``.
        alpha : float in [0, 1], default=0.8
            Opacity of the map where ``|attribution|`` reaches the limit.
        mask_color : color, default="lime"
            Colour of the mask outlines.
        colorbar : bool, default=True
            Draw one colorbar for all maps.

        Returns
        -------
        display : ImageOverlayDisplay
            Object that stores the computed values.
        """
        plt = pyplot()
        if not isinstance(percentile, numbers.Real) or not 0 < percentile <= 100:
            raise ValueError(f"percentile must be in (0, 100], got {percentile!r}.")
        if not isinstance(alpha, numbers.Real) or not 0 <= alpha <= 1:
            raise ValueError(f"alpha must be in [0, 1], got {alpha!r}.")
        if (not isinstance(n_cols, numbers.Integral) or isinstance(n_cols, bool)
                or n_cols < 1):
            raise ValueError(f"n_cols must be a positive int, got {n_cols!r}.")
        maps = np.asarray(self.attribution_maps, dtype=np.float64)
        n_images = maps.shape[0]
        if ax is None:
            n_cols = min(int(n_cols), n_images)
            n_rows = -(-n_images // n_cols)
            fig, axes = plt.subplots(n_rows, n_cols, squeeze=False,
                                     figsize=(2.4 * n_cols + 1.0, 2.5 * n_rows),
                                     layout="constrained")
        else:
            axes = np.atleast_2d(np.asarray(ax, dtype=object))
            if axes.size < n_images:
                raise ValueError(
                    f"ax has {axes.size} axes for {n_images} images; pass one "
                    "axes per image or ax=None."
                )
            fig = axes.flat[0].figure
        limit = float(np.percentile(np.abs(maps), percentile))
        if limit <= 0:
            limit = float(np.abs(maps).max()) or 1.0
        self.limit_ = limit
        self.overlays_, self.underlays_, self.contours_ = [], [], []
        for i, axis in enumerate(axes.flat):
            if i >= n_images:
                axis.set_axis_off()
                continue
            if self.images is not None:
                self.underlays_.append(axis.imshow(self.images[i], cmap="gray",
                                                   vmin=0.0, vmax=1.0))
            opacity = alpha * np.clip(np.abs(maps[i]) / limit, 0.0, 1.0)
            if self.images is None:
                opacity = None
            self.overlays_.append(axis.imshow(maps[i], cmap=cmap, vmin=-limit,
                                              vmax=limit, alpha=opacity))
            if self.masks is not None:
                self.contours_.append(axis.contour(
                    np.asarray(self.masks[i], dtype=np.float64), levels=[0.5],
                    colors=[mask_color], linewidths=1.2))
            if self.titles is not None:
                axis.set_title(plain_text(self.titles[i]), usetex=False, fontsize=9)
            axis.set_xticks([])
            axis.set_yticks([])
        self.colorbar_ = None
        if colorbar:
            mappable = plt.cm.ScalarMappable(norm=plt.Normalize(-limit, limit),
                                             cmap=cmap)
            self.colorbar_ = fig.colorbar(mappable, ax=list(axes.flat), shrink=0.8,
                                          label="attribution")
        self.axes_ = axes
        self.ax_ = axes.flat[0]
        self.figure_ = fig
        return self

    @classmethod
    def from_attributions(cls, attributions, X=None, *, image_shape, masks=None,
                          titles=None, ax=None, **plot_kw):
        """Plot attribution rows as maps over their images.

        Parameters
        ----------
        attributions : array-like of shape (n_images, n_features)
            One flattened attribution map per row (``n_features = h * w``
            or ``h * w * c``, channels last).
        X : array-like of shape (n_images, n_features), default=None
            The explained images, flattened the same way; drawn in grey
            (mean over channels) under the maps.
        image_shape : tuple of int
            ``(height, width)`` or ``(height, width, channels)``.
        masks : array-like of shape (n_images, height * width) or \
(n_images, height, width), default=None
            Ground-truth masks (e.g. the pixels the label depends on),
            outlined by a contour.
        titles : list of str, default=None
            One title per image.
        ax : matplotlib Axes or array-like of Axes, default=None
            Axes to draw on, one per image.
        **plot_kw : dict
            Further arguments of :meth:`plot` (``n_cols``, ``percentile``,
            ``alpha``, ...).

        Returns
        -------
        display : ImageOverlayDisplay
        """
        A = check_attributions(attributions)
        shape = _check_image_shape(image_shape, A.shape[1])
        maps = _as_maps(A, A.shape[0], shape, "attributions")
        images = None
        if X is not None:
            X = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X,
                           dtype=np.float64)
            if X.shape != A.shape:
                raise ValueError(
                    f"X has shape {X.shape} but the attributions have shape "
                    f"{A.shape}; pass the explained images, flattened the same way."
                )
            grey = X.reshape((A.shape[0],) + shape)
            images = _greyscale(grey.mean(axis=3) if grey.ndim == 4 else grey)
        if masks is not None:
            masks = _as_maps(masks, A.shape[0], shape[:2], "masks")
        if titles is not None:
            titles = [str(t) for t in titles]
            if len(titles) != A.shape[0]:
                raise ValueError(
                    f"titles has {len(titles)} entries for {A.shape[0]} images; "
                    "pass one title per image."
                )
        display = cls(attribution_maps=maps, images=images, masks=masks,
                      titles=titles)
        return display.plot(ax=ax, **plot_kw)

    @classmethod
    @display_doc("explainer_param")
    def from_explainer(cls, explainer, X, *, image_shape, masks=None, titles=None,
                       ax=None, **plot_kw):
        """Explain images with a fitted explainer and plot the maps over them.

        Parameters
        ----------
        {explainer_param}
        X : array-like of shape (n_images, n_features)
            Flattened images to explain.
        image_shape : tuple of int
            ``(height, width)`` or ``(height, width, channels)``.
        masks : array-like, default=None
            Ground-truth masks, outlined by a contour.
        titles : list of str, default=None
            One title per image.
        ax : matplotlib Axes or array-like of Axes, default=None
            Axes to draw on, one per image.
        **plot_kw : dict
            Further arguments of :meth:`plot`.

        Returns
        -------
        display : ImageOverlayDisplay
        """
        A, X = attributions_of(explainer, X)
        return cls.from_attributions(A, X, image_shape=image_shape, masks=masks,
                                     titles=titles, ax=ax, **plot_kw)
