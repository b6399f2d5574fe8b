"""Region explainers of images and series: sliding-window occlusion and RISE.

Both explain any model through its outputs (no gradients) by hiding regions
of the input, replaced by a baseline value:

* :class:`Occlusion` (Zeiler and Fergus 2014; Captum's ``Occlusion``) slides
  a patch over the input and gives every feature the mean output drop of the
  patches covering it;
* :class:`RISE` (Petsiuk et al. 2018) scores random smooth masks and gives
  every feature the mask-weighted mean output.

A row is a flattened array of ``image_shape`` (row-major, ``(H, W)``,
``(C, H, W)``, ``(n_timesteps,)`` or ``(C, n_timesteps)``); the
attributions have the input's shape.  The model inputs of a block of rows
are scored in calls of at most ``batch_size`` rows (about 2**17 entries by
default).
"""

import math
import numbers

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._surrogate import evaluate_block
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._device import block_entries
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._sklearn import Interval
from sklearn_xai.utils._validation import check_feature_vector

__all__ = ["Occlusion", "RISE"]


def _as_tuple(value, name):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (int(value),)
    try:
        out = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        out = ()
    if not out or min(out) < 1:
        raise ValueError(f"{name} must be a positive int or a tuple of positive ints; "
                         f"got {value!r}.")
    return out


def _window_starts(length, window, stride):
    """Captum's window positions on one axis: ``0, s, 2s, ...``, ``1 +
    ceil((L - w) / s)`` of them (the last may overhang the end, cut there)."""
    return np.arange(1 + math.ceil((length - window) / stride)) * stride


# ---------------------------------------------------------------------------
# Occlusion
# ---------------------------------------------------------------------------
@explainer_doc("explainer_output_params", "input_attributes",
               references=("zeiler2014", "kokhlikyan2020"))
class Occlusion(BaseExplainer):
    """Sliding-window occlusion (Zeiler and Fergus; Captum's ``Occlusion``).

    A patch of ``patch_shape`` is slid over the row in steps of
    ``strides``: on an axis of length ``L`` with window ``w`` and stride
    ``s`` it starts at ``0, s, 2s, ...``, ``1 + ceil((L - w) / s)``
    positions, the last one cut at the end of the axis.  Each position
    replaces the patch by the baseline; the attribution of a feature is the
    mean, over the positions whose patch covers it, of ``f(x) - f(x with the
    patch occluded)``: Captum's ``Occlusion.attribute(x, sliding_window_shapes,
    strides, baselines)``, for any model (the occluded copies of a block of
    rows are scored together).  With ``patch_shape=(1,)`` it is
    :class:`FeatureAblation` with a baseline masker.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    patch_shape : int or tuple of int, default=(1,)
        Window sides (Captum's ``sliding_window_shapes``); an int is a
        square ``(p, p)`` patch.  With fewer axes than ``image_shape`` the
        patch covers the leading axes (the channels) whole.
    strides : int, tuple of int or None, default=None
        Steps of the window, one per axis of ``patch_shape`` (an int for
        all); ``None`` is 1 (Captum's default).  A stride may not exceed the
        window on an axis the window does not cover whole.
    baseline : float or array-like of shape (n_features,), default=0.0
        Value of an occluded feature (Captum's ``baselines``).
    image_shape : tuple of int, default=None
        Shape of one row (row-major).  ``None``: ``(n_features,)`` for a 1-D
        patch, a square image ``(L, L)`` for a 2-D one.
    {explainer_output_params}

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    image_shape_ : tuple of int
        The shape of a row.
    n_patches_ : int
        Patch positions per row (one model input each, besides ``x``).
    {input_attributes}

    See Also
    --------
    FeatureAblation : one feature (or group) at a time, any masker.
    RISE : random smooth masks instead of one patch.

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import Occlusion
    >>> X = np.random.default_rng(0).normal(size=(20, 4))
    >>> model = FrozenEstimator(LinearRegression().fit(X, X @ [1.0, 2.0, 3.0, 4.0]))
    >>> ex = Occlusion(model, patch_shape=(2,), strides=(1,)).fit(X)
    >>> ex.transform([[1.0, 1.0, 1.0, 1.0]]).round(6)  # mean drop of the patches
    array([[3., 4., 6., 7.]])
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "patch_shape": [Interval(numbers.Integral, 1, None, closed="left"), tuple, list],
        "strides": [Interval(numbers.Integral, 1, None, closed="left"), tuple, list,
                    None],
        "baseline": [numbers.Real, "array-like"],
        "image_shape": [tuple, list, None],
    }

    def __init__(self, estimator=None, *, patch_shape=(1,), strides=None, baseline=0.0,
                 image_shape=None, target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.patch_shape = patch_shape
        self.strides = strides
        self.baseline = baseline
        self.image_shape = image_shape
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        d = X.shape[1]
        patch = self.patch_shape
        patch = (int(patch),) * 2 if isinstance(patch, numbers.Integral) else _as_tuple(
            patch, "patch_shape")
        if self.image_shape is None:
            if len(patch) > 2:
                raise ValueError(
                    f"patch_shape {patch} has {len(patch)} axes: pass image_shape, "
                    "e.g. (channels, height, width).")
            shape = (d,) if len(patch) == 1 else resolve_image_shape(None, d)
        else:
            shape = resolve_image_shape(self.image_shape, d)
        if len(patch) > len(shape):
            raise ValueError(
                f"patch_shape {patch} has more axes than image_shape {shape}.")
        lead = len(shape) - len(patch)
        patch = shape[:lead] + patch
        strides = (1,) * (len(patch) - lead) if self.strides is None else _as_tuple(
            self.strides, "strides")
        if len(strides) == 1 and len(patch) - lead > 1:
            strides = strides * (len(patch) - lead)
        if len(strides) != len(patch) - lead:
            raise ValueError(
                f"strides {self.strides!r} must give one step per axis of "
                f"patch_shape {self.patch_shape!r} (or one int for all).")
        strides = (1,) * lead + strides
        starts = []
        for axis, (L, w, s) in enumerate(zip(shape, patch, strides)):
            if w > L:
                raise ValueError(
                    f"patch_shape {self.patch_shape!r} exceeds image_shape {shape} on "
                    f"axis {axis} ({w} > {L}).")
            if s > w and w < L:
                raise ValueError(
                    f"strides {self.strides!r}: a stride ({s}) larger than the window "
                    f"({w}) on axis {axis} would leave features never occluded "
                    "(Captum refuses it too).")
            starts.append(_window_starts(L, w, s))
        n_patches = int(np.prod([len(a) for a in starts]))
        check_allocation(n_patches * d, itemsize=1, what="the occlusion windows",
                         parameter="patch_shape", value=self.patch_shape)
        # One boolean mask per window position (n_patches, d).
        grids = np.meshgrid(*starts, indexing="ij")
        corners = np.stack([g.ravel() for g in grids], axis=1)
        coords = np.indices(shape).reshape(len(shape), -1).T  # (d, ndim)
        inside = np.ones((n_patches, d), dtype=bool)
        for axis, w in enumerate(patch):
            offset = coords[None, :, axis] - corners[:, axis, None]
            inside &= (offset >= 0) & (offset < w)
        self.image_shape_ = tuple(shape)
        self.n_patches_ = n_patches
        self._windows = inside
        self._coverage = inside.sum(axis=0).astype(np.float64)
        self.baseline_ = check_feature_vector(self.baseline, d, "baseline")

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        W = self._windows
        P = len(W)
        Wf = W.astype(np.float64)
        A = np.empty((n, d))
        for block in block_slices(n, P + 1, d, self.batch_size, f.device):
            Xb = X[block]
            Z = np.empty((len(Xb), P + 1, d))
            Z[:, 0] = Xb
            np.copyto(Z[:, 1:], np.where(W, self.baseline_, Xb[:, None, :]))
            y = evaluate_block(f, Z, target_index, block)
            A[block] = ((y[:, :1] - y[:, 1:]) @ Wf) / self._coverage
        return A


# ---------------------------------------------------------------------------
# RISE
# ---------------------------------------------------------------------------
def _linear_upsampling(n_in, n_out):
    """Matrix (n_out, n_in) of linear interpolation from ``n_in`` to
    ``n_out`` samples with half-pixel centres, the edges held
    (``torch.nn.functional.interpolate(..., align_corners=False)``)."""
    source = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    source = np.clip(source, 0.0, None)
    lo = np.minimum(np.floor(source).astype(np.intp), n_in - 1)
    hi = np.minimum(lo + 1, n_in - 1)
    frac = source - lo
    M = np.zeros((n_out, n_in))
    np.add.at(M, (np.arange(n_out), lo), 1.0 - frac)
    np.add.at(M, (np.arange(n_out), hi), frac)
    return M


def _crop_operators(length, resolution):
    """For each shift ``0 <= t < c`` (``c = ceil(L / s)``) the rows
    ``t .. t + L`` of the upsampling from ``s`` grid cells to ``(s + 1) c``
    samples: (c, L, s)."""
    cell = -(-length // resolution)
    up = _linear_upsampling(resolution, (resolution + 1) * cell)
    return np.stack([up[t: t + length] for t in range(cell)])


@explainer_doc("explainer_output_params", "input_attributes",
               references=("petsiuk2018",))
class RISE(BaseExplainer):
    """Randomized Input Sampling for Explanation (RISE; Petsiuk et al.).

    For each row, ``n_masks`` random masks are drawn: a grid of
    ``mask_resolution`` cells, each kept with probability ``p_keep``, is
    upsampled linearly to ``(s + 1) c`` samples per axis (``c = ceil(L /
    s)``, half-pixel centres and held edges as
    ``torch.nn.functional.interpolate(mode="bilinear",
    align_corners=False)``) and cropped to the row's ``L`` samples at a
    uniformly random shift ``0 <= t < c`` per axis.  A mask ``M`` in
    ``[0, 1]`` gives the input ``z = M x + (1 - M) b`` (``b`` the baseline,
    0 in the paper); the saliency of feature ``i`` is ``sum_n f(z_n)
    M_n(i) / (n_masks p_keep)``, the Monte-Carlo estimate of ``E[f(z)
    M(i)] / p_keep``.  Masks are 2-D over the last two axes of an image
    (repeated over its channels) or 1-D over the last axis of a series.
    Every row draws its masks from its own random stream, and the masked
    copies are scored in blocks.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_masks : int, default=1000
        Masks per row (the paper uses 4000 on ImageNet).
    mask_resolution : int or tuple of int, default=7
        Cells of the random grid per masked axis (``s``; 7 in the paper):
        an int for a 2-D grid over the last two axes (a 1-D one for a 1-D
        row), ``(s,)`` for 1-D masks over the last axis (series of shape
        ``(channels, n_timesteps)``), ``(s1, s2)`` for a 2-D grid.
    p_keep : float, default=0.5
        Probability that a grid cell is kept.
    baseline : float or array-like of shape (n_features,), default=0.0
        Value of a masked feature (the paper multiplies by the mask: 0).
    image_shape : tuple of int, default=None
        Shape of one row (row-major).  ``None``: a square image when the
        number of features is a square number, else a 1-D row.
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row masks.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    image_shape_ : tuple of int
        The shape of a row.
    {input_attributes}

    See Also
    --------
    Occlusion : one sliding patch at a time.

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import RISE
    >>> X = np.random.default_rng(0).normal(size=(50, 64))
    >>> w = np.zeros(64); w[27] = 1.0  # the model reads one pixel of an 8 x 8 image
    >>> model = FrozenEstimator(LinearRegression().fit(X, X @ w))
    >>> A = RISE(model, n_masks=2000, mask_resolution=4,
    ...          random_state=0).fit(X).transform(np.ones((1, 64)))
    >>> int(A.argmax())
    27
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "n_masks": [Interval(numbers.Integral, 1, None, closed="left")],
        "mask_resolution": [Interval(numbers.Integral, 1, None, closed="left"), tuple,
                            list],
        "p_keep": [Interval(numbers.Real, 0, 1, closed="right")],
        "baseline": [numbers.Real, "array-like"],
        "image_shape": [tuple, list, None],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, n_masks=1000, mask_resolution=7, p_keep=0.5,
                 baseline=0.0, image_shape=None, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.n_masks = n_masks
        self.mask_resolution = mask_resolution
        self.p_keep = p_keep
        self.baseline = baseline
        self.image_shape = image_shape
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True
        tags.non_deterministic = self.random_state is None
        return tags

    def _fit_explainer(self, X, y):
        d = X.shape[1]
        if self.image_shape is None:
            side = math.isqrt(d)
            shape = (side, side) if side * side == d else (d,)
        else:
            shape = resolve_image_shape(self.image_shape, d)
        res = self.mask_resolution
        if isinstance(res, numbers.Integral):
            res = (int(res),) * min(2, len(shape))
        else:
            res = _as_tuple(res, "mask_resolution")
        if len(res) > min(2, len(shape)):
            raise ValueError(
                f"mask_resolution {self.mask_resolution!r} gives {len(res)} masked axes; "
                f"RISE masks the last one or two axes of image_shape {shape}.")
        self.image_shape_ = tuple(shape)
        self._resolution = res
        # Per masked axis: the cropped upsampling of every shift (c, L, s).
        self._crops = [_crop_operators(L, s) for L, s in zip(shape[-len(res):], res)]
        self.baseline_ = check_feature_vector(self.baseline, d, "baseline")

    def _masks(self, grids, shifts):
        """Masks (m, *masked shape) of grids (m, *res) and shifts (m, axes)."""
        if len(self._crops) == 1:
            (C,) = self._crops
            return np.einsum("mls,ms->ml", C[shifts[:, 0]], grids)
        R, C = self._crops
        return np.matmul(np.matmul(R[shifts[:, 0]], grids),
                         np.swapaxes(C[shifts[:, 1]], 1, 2))

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        N, res = int(self.n_masks), self._resolution
        masked = self.image_shape_[-len(res):]
        repeat = d // int(np.prod(masked))  # leading axes (channels)
        cells = [len(C) for C in self._crops]
        A = np.zeros((n, d))
        for block in block_slices(n, N, d, self.batch_size, f.device):
            Xb = X[block]
            b = len(Xb)
            grids = (rngs[block].uniform((N,) + res, stream=0) < self.p_keep).astype(
                np.float64)
            shifts = rngs[block].integers(np.asarray(cells), (N, len(cells)), stream=1)
            # A block of several rows is one model call; a row alone whose
            # masked copies exceed a call is scored in chunks of masks.
            chunk = N if b > 1 else max(
                1, self.batch_size or block_entries(f.device) // d)
            for start in range(0, N, chunk):
                sl = slice(start, min(start + chunk, N))
                m = sl.stop - sl.start
                M = self._masks(grids[:, sl].reshape((b * m,) + res),
                                shifts[:, sl].reshape(b * m, -1))
                M = np.tile(M.reshape(b, m, -1), (1, 1, repeat))
                Z = M * Xb[:, None, :] + (1.0 - M) * self.baseline_
                y = evaluate_block(f, Z, target_index, block)
                A[block] += np.einsum("bm,bmd->bd", y, M)
        return A / (N * float(self.p_keep))
