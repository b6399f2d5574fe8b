"""Segmentations: the regions of each row, as integer labels per feature.

A segmentation maps rows ``X`` (n, n_features) to labels (n, n_features):
the region of every feature of every row, numbered ``0 .. K_i - 1`` in
increasing order of the labels the segmenter gives (a grid's patches
row-major), so that equal label maps give equal numbers.  Unlike feature
groups (:ref:`feature-groups`), which are one partition of the columns for
all rows, a segmentation may differ from row to row (SLIC superpixels follow
each image's own edges):

* :class:`SLICSegmentation`, scikit-image's SLIC superpixels of each image;
* :class:`GridSegmentation`, a regular grid of patches of an image, or of
  windows of a series;
* :class:`LabelSegmentation`, label maps given by the user, one for all rows
  or one per row.

The removal metrics (:func:`~sklearn_xai.metrics.irof`, region perturbation,
selectivity) and the ``segmentation`` parameter of the surrogate and
Shapley explainers read regions through :meth:`BaseSegmentation.segment`
(see :ref:`segmentations`).
"""

import numbers

from abc import ABCMeta, abstractmethod

import numpy as np
from sklearn.base import BaseEstimator

from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_estimator_params

__all__ = ["BaseSegmentation", "GridSegmentation", "LabelSegmentation",
           "SLICSegmentation", "check_segmentation"]


def _compact(labels):
    """Renumber each row's labels ``0 .. K_i - 1`` in increasing order of
    value (``np.unique``)."""
    labels = np.asarray(labels)
    out = np.empty(labels.shape, dtype=np.intp)
    for i, row in enumerate(labels):
        out[i] = np.unique(row, return_inverse=True)[1].reshape(-1)
    return out


class BaseSegmentation(BaseEstimator, metaclass=ABCMeta):
    """Base class of segmentations: :meth:`segment` gives each row's regions.

    A subclass implements ``_segment(X) -> labels`` (n, n_features) of
    integers; :meth:`segment` validates ``X`` and renumbers each row's labels
    ``0 .. K_i - 1`` in increasing order.  Segmentations are stateless: no
    ``fit`` is needed (they are cloned with the explainers that hold them).
    """

    _parameter_constraints: dict = {}

    #: Whether every row gets the same labels (a grid, one label map).
    per_row = False

    def segment(self, X):
        """Region labels of every feature of every row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows (flattened images or series).

        Returns
        -------
        labels : ndarray of int, shape (n_samples, n_features)
            Row ``i``'s regions numbered ``0 .. K_i - 1`` in increasing order
            of the segmenter's labels.
        """
        validate_estimator_params(self)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(
                f"{type(self).__name__}.segment takes a 2-D array of rows "
                f"(n_samples, n_features); got shape {X.shape}."
            )
        labels = np.asarray(self._segment(X))
        labels = np.broadcast_to(labels, X.shape)
        if not self.per_row:
            # One map for all rows: compact it once.
            return np.broadcast_to(_compact(labels[:1]), X.shape)
        return _compact(labels)

    @abstractmethod
    def _segment(self, X):
        """Integer labels (n, n_features) of the rows ``X``."""

    def check_n_features(self, n_features):
        """Raise a ValueError when rows of ``n_features`` columns cannot be
        segmented (called by the explainers at ``fit``)."""
        validate_estimator_params(self)
        self._shape(n_features)

    def _shape(self, n_features):  # pragma: no cover - overridden
        return (int(n_features),)


class GridSegmentation(BaseSegmentation):
    """A regular grid of patches (images) or windows (series).

    The rows are arrays of ``image_shape`` flattened row-major: ``(height,
    width)`` or ``(channels, height, width)`` images, ``(channels,
    n_timesteps)`` series (channel-major, as
    :func:`~sklearn_xai.masking.window_groups`) or ``(n_timesteps,)``.
    ``patch_shape`` covers the *last* ``len(patch_shape)`` axes; each index
    of the leading axes has its own patches: ``patch_shape=(p, p)`` on a
    ``(C, H, W)`` image gives patches per channel, ``(C, p, p)`` patches
    through all channels; ``(window,)`` on a ``(C, T)`` series gives windows
    per channel (``window_groups(..., per_channel=True)``), ``(C, window)``
    windows through all channels.  Every row gets the same labels.

    Parameters
    ----------
    patch_shape : int or tuple of int
        Side(s) of a patch; an int is a square ``(p, p)`` patch.
    image_shape : tuple of int, default=None
        Shape of one row; ``None`` is a square ``(L, L)`` image for a 2-D
        patch and ``(n_features,)`` for a 1-D one.
    align : {"start", "center"}, default="start"
        ``"start"``: the grid starts at index 0 of every axis, the last patch
        of an axis is shorter when the patch does not divide it.
        ``"center"``: the grid is centred, padded by ``(p - L mod p) // 2``
        before the axis and the rest after it (Quantus' patches, used by the
        region metrics), so the first and last patches may be shorter.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import GridSegmentation
    >>> GridSegmentation((2, 2), (2, 4)).segment(np.zeros((1, 8)))[0].tolist()
    [0, 0, 1, 1, 0, 0, 1, 1]
    >>> GridSegmentation((2,), (1, 5)).segment(np.zeros((1, 5)))[0].tolist()
    [0, 0, 1, 1, 2]
    """

    _parameter_constraints = {
        "patch_shape": [Interval(numbers.Integral, 1, None, closed="left"), tuple, list],
        "image_shape": [tuple, list, None],
        "align": [StrOptions({"start", "center"})],
    }

    def __init__(self, patch_shape, image_shape=None, *, align="start"):
        self.patch_shape = patch_shape
        self.image_shape = image_shape
        self.align = align

    def _patch(self):
        p = self.patch_shape
        patch = (int(p), int(p)) if isinstance(p, numbers.Integral) else tuple(
            int(s) for s in p)
        if not patch or min(patch) < 1:
            raise ValueError(
                f"patch_shape must be positive ints, e.g. (8, 8) or (window,); got "
                f"{self.patch_shape!r}.")
        return patch

    def _shape(self, n_features):
        patch = self._patch()
        if self.image_shape is None:
            shape = (int(n_features),) if len(patch) == 1 else resolve_image_shape(
                None, n_features)
        else:
            shape = resolve_image_shape(self.image_shape, n_features)
        if len(patch) > len(shape):
            raise ValueError(
                f"patch_shape {patch} has more axes than image_shape {shape}; give "
                "one side per trailing axis of the image or series.")
        return shape

    def labels(self, n_features):
        """The label map of a row of ``n_features`` (n_features,)."""
        shape = self._shape(n_features)
        patch = self._patch()
        patch = (1,) * (len(shape) - len(patch)) + patch
        axes = []
        for L, p in zip(shape, patch):
            p = min(p, L)
            pad = ((-L) % p) // 2 if self.align == "center" else 0
            axes.append((np.arange(L) + pad) // p)
        counts = [int(a[-1]) + 1 for a in axes]
        grids = np.meshgrid(*axes, indexing="ij")
        return np.ravel_multi_index(grids, counts).ravel()

    def _segment(self, X):
        return self.labels(X.shape[1])[None, :]


class SLICSegmentation(BaseSegmentation):
    """SLIC superpixels of each image (scikit-image's
    :func:`skimage.segmentation.slic`), each row from its own pixels.

    Parameters
    ----------
    n_segments : int, default=100
        SLIC's approximate number of segments (scikit-image's default).
    compactness : float, default=10.0
        SLIC's balance of colour and space proximity.
    sigma : float, default=0.0
        Width of SLIC's Gaussian pre-smoothing.
    image_shape : tuple of int, default=None
        ``(height, width)`` or ``(channels, height, width)`` (the channels
        are SLIC's colour channels; every channel of a pixel gets the
        pixel's segment); ``None`` is a square single-channel image.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import SLICSegmentation
    >>> X = np.zeros((1, 64)); X[0, 32:] = 1.0  # top half 0, bottom half 1
    >>> seg = SLICSegmentation(n_segments=4, image_shape=(8, 8)).segment(X)[0]
    >>> top, bottom = set(seg[:32].tolist()), set(seg[32:].tolist())
    >>> top.isdisjoint(bottom)  # no superpixel crosses the edge
    True
    """

    _parameter_constraints = {
        "n_segments": [Interval(numbers.Integral, 1, None, closed="left")],
        "compactness": [Interval(numbers.Real, 0, None, closed="neither")],
        "sigma": [Interval(numbers.Real, 0, None, closed="left")],
        "image_shape": [tuple, list, None],
    }
    per_row = True

    def __init__(self, n_segments=100, compactness=10.0, sigma=0.0, image_shape=None):
        self.n_segments = n_segments
        self.compactness = compactness
        self.sigma = sigma
        self.image_shape = image_shape

    def _shape(self, n_features):
        shape = resolve_image_shape(self.image_shape, n_features)
        if len(shape) not in (2, 3):
            raise ValueError(
                "SLICSegmentation needs image_shape=(height, width) or (channels, "
                f"height, width); got {self.image_shape!r}.")
        return shape

    def _segment(self, X):
        try:
            from skimage.segmentation import slic
        except ImportError as exc:  # pragma: no cover - optional dependency
            raise ImportError(
                "SLICSegmentation uses scikit-image's SLIC: pip install "
                "scikit-image, or use GridSegmentation / LabelSegmentation."
            ) from exc
        shape = self._shape(X.shape[1])
        channels = shape[0] if len(shape) == 3 else None
        labels = np.empty(X.shape, dtype=np.intp)
        for i, row in enumerate(X):
            seg = slic(row.reshape(shape), n_segments=int(self.n_segments),
                       compactness=float(self.compactness), sigma=float(self.sigma),
                       start_label=0, channel_axis=None if channels is None else 0)
            labels[i] = np.tile(seg.ravel(), channels or 1)
        return labels


class LabelSegmentation(BaseSegmentation):
    """Regions given by the user: one label map for all rows, or one per row.

    Parameters
    ----------
    labels : array-like of int, shape (n_features,) or (n_samples, n_features)
        The region of every feature: one map for every row, or one map per
        row of the ``X`` segmented (then ``segment`` takes exactly those
        rows, in that order).  Any integers; each row is renumbered ``0 ..
        K_i - 1`` in increasing order.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import LabelSegmentation
    >>> LabelSegmentation([5, 5, 2, 7]).segment(np.zeros((2, 4))).tolist()
    [[1, 1, 0, 2], [1, 1, 0, 2]]
    """

    _parameter_constraints = {"labels": ["array-like"]}

    def __init__(self, labels):
        self.labels = labels

    @property
    def per_row(self):
        return np.ndim(self.labels) == 2

    def _array(self):
        labels = np.asarray(self.labels)
        if labels.ndim not in (1, 2) or (labels.size and not (
                np.issubdtype(labels.dtype, np.integer)
                or np.issubdtype(labels.dtype, np.bool_))):
            raise ValueError(
                "labels must be integer region ids of shape (n_features,) or "
                f"(n_samples, n_features); got {labels.dtype} array of shape "
                f"{labels.shape}.")
        return labels

    def _shape(self, n_features):
        labels = self._array()
        if labels.shape[-1] != n_features:
            raise ValueError(
                f"labels has {labels.shape[-1]} columns but X has {n_features}; give "
                "one region id per feature.")
        return (int(n_features),)

    def _segment(self, X):
        labels = self._array()
        self._shape(X.shape[1])
        if labels.ndim == 2 and labels.shape[0] != X.shape[0]:
            raise ValueError(
                f"labels holds one map per row for {labels.shape[0]} rows, but X has "
                f"{X.shape[0]}: segment exactly the rows the maps were made for, or "
                "give one map (n_features,) for all rows.")
        return labels


def check_segmentation(segmentation, n_features):
    """Validate a ``segmentation`` parameter for rows of ``n_features``.

    Parameters
    ----------
    segmentation : BaseSegmentation or None
    n_features : int

    Returns
    -------
    segmentation : BaseSegmentation or None
        The same object, checked.
    """
    if segmentation is None:
        return None
    if not isinstance(segmentation, BaseSegmentation):
        raise TypeError(
            "segmentation must be a GridSegmentation, SLICSegmentation or "
            f"LabelSegmentation (sklearn_xai.masking); got {segmentation!r}.")
    segmentation.check_n_features(n_features)
    return segmentation
