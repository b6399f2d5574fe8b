"""Localisation: how attributions fall on a ground-truth mask.

The ground truth is a 0/1 (or boolean) mask per row, of the shape of the
attributions (images flattened row-major, ``(n_samples, n_pixels)``).  Every
score is computed from its row alone.

* Mass and rank on the mask (XAI-TRIS; :ref:`def-mask-metrics`):
  :func:`mask_precision`, :func:`relevance_rank_accuracy`,
  :func:`relevance_mass_accuracy`, :func:`mask_roc_auc`,
  :func:`mask_average_precision`, :func:`mask_iou`;
* the transport distance to the mask, :func:`emd_score` (:ref:`def-emd`);
* pointing game, attribution localisation and top-k intersection
  (:ref:`def-localisation-metrics`).

:func:`emd_score` solves one exact optimal-transport problem per row with
POT's network simplex (:func:`ot.emd2`):

* the ground cost (Euclidean pixel distances) is built once per image shape and
  cached in each process;
* only the *net* mass is transported: for a metric cost,
  ``W(p, q) = W((p - q)_+, (q - p)_+)`` exactly (mass present in both maps
  stays in place at zero cost), which shrinks the problem to the pixels where
  the two maps differ;
* rows are solved in parallel processes through joblib (``n_jobs``), since the
  solver is single-threaded.
"""

import functools
import numbers

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from scipy.ndimage import binary_dilation
from scipy.spatial.distance import cdist
from scipy.stats import rankdata
from sklearn.utils import Bunch

from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._random import purpose_generator
from sklearn_xai.utils._sklearn import (
    Interval,
    StrOptions,
    fast_validate_params,
    validate_params,
)
from sklearn_xai.utils._stats import handle_undefined
from sklearn_xai.utils._validation import (
    check_attributions,
    check_reference,
    magnitude_order,
    positions,
    resolve_k,
    top_k_mask,
)

__all__ = [
    "attribution_localisation",
    "emd_score",
    "focus",
    "make_mosaics",
    "mask_average_precision",
    "mask_iou",
    "mask_precision",
    "mask_roc_auc",
    "pointing_game",
    "relevance_mass_accuracy",
    "relevance_rank_accuracy",
    "top_k_intersection",
]


# POT's default (1e5) stops early on 64x64 maps; at least 2e5 is needed there.
_NUM_ITER_MAX = 10_000_000


# --------------------------------------------------------------------- helpers
def _check_mask_inputs(ground_truth, attributions):
    """Validated float attributions and boolean masks of the same shape."""
    A = check_attributions(attributions)
    M = check_reference(ground_truth, A)
    if not np.isin(M, (0.0, 1.0)).all():
        raise ValueError(
            "ground_truth must be a 0/1 (or boolean) mask per row for mask metrics; "
            "binarise a continuous ground truth first, e.g. ground_truth != 0."
        )
    return A, M.astype(bool)


def _topk_hits(A, M, *, nonzero_only):
    """Number of mask pixels among each row's top-|G| pixels, and |G|."""
    K = M.sum(axis=1)
    selected = positions(magnitude_order(A)) < K[:, None]
    if nonzero_only:
        selected &= A != 0
    return (selected & M).sum(axis=1).astype(np.float64), K


def _block_index(shape, coarsen):
    """Block of each pixel when the image is pooled into coarsen x coarsen blocks."""
    h, w = shape
    rows, cols = np.divmod(np.arange(h * w), w)
    n_block_cols = -(-w // coarsen)
    return (rows // coarsen) * n_block_cols + cols // coarsen


@functools.lru_cache(maxsize=3)
def _cost_matrix(shape, coarsen=1):
    """Euclidean ground cost (pixel units) between the (block) centres of an image.

    Built once per (shape, coarsen) and process; read-only.  Blocks at the
    right and bottom edges may be partial: their centre is the mean of their
    pixels' coordinates.
    """
    h, w = shape
    coords = np.column_stack(np.divmod(np.arange(h * w), w)).astype(np.float64)
    if coarsen > 1:
        block = _block_index(shape, coarsen)
        counts = np.bincount(block)
        coords = np.column_stack(
            [np.bincount(block, weights=coords[:, c]) / counts for c in range(2)]
        )
    C = cdist(coords, coords)
    C.setflags(write=False)
    return C


def _pool(P, shape, coarsen):
    """Sum-pool the rows of P (n, h*w) into coarsen x coarsen blocks."""
    if coarsen == 1:
        return P
    block = _block_index(shape, coarsen)
    n_blocks = block.max() + 1
    out = np.zeros((P.shape[0], n_blocks))
    np.add.at(out.T, block, P.T)
    return out


def _transport_cost(p, q, C, net_mass):
    """Exact Wasserstein-1 distance between two distributions of unit mass."""
    import ot

    if not net_mass:
        return float(ot.emd2(p, q, C, numItermax=_NUM_ITER_MAX))
    diff = p - q
    src = np.flatnonzero(diff > 0)
    dst = np.flatnonzero(diff < 0)
    if src.size == 0 or dst.size == 0:
        return 0.0
    a, b = diff[src], -diff[dst]
    mass = 0.5 * (a.sum() + b.sum())
    sub = C[np.ix_(src, dst)]
    return mass * float(ot.emd2(a / a.sum(), b / b.sum(), sub, numItermax=_NUM_ITER_MAX))


def _transport_block(P, Q, shape, coarsen, net_mass):
    """Wasserstein distances of the rows of P and Q (run in a worker)."""
    C = _cost_matrix(shape, coarsen)
    return np.array([_transport_cost(p, q, C, net_mass) for p, q in zip(P, Q)])


def _wasserstein_rows(P, Q, shape, *, coarsen=1, net_mass=True, n_jobs=None):
    """Row-wise exact transport costs between unit-mass maps P and Q (n, h*w)."""
    P, Q = _pool(P, shape, coarsen), _pool(Q, shape, coarsen)
    n = P.shape[0]
    n_workers = effective_n_jobs(n_jobs)
    if n_workers == 1 or n <= 1:
        return _transport_block(P, Q, shape, coarsen, net_mass)
    n_chunks = min(n, 4 * n_workers)
    bounds = np.linspace(0, n, n_chunks + 1).astype(int)
    parts = Parallel(n_jobs=n_jobs)(
        delayed(_transport_block)(P[s:e], Q[s:e], shape, coarsen, net_mass)
        for s, e in zip(bounds[:-1], bounds[1:])
        if e > s
    )
    return np.concatenate(parts)


# ---------------------------------------------------------------------- metrics
@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("clark2024"),
              **_shared_docs("returns_precision"))
def mask_precision(ground_truth, attributions, *, nan_policy="omit"):
    """Mask precision (XAI-TRIS): share of the mask among the top-K pixels (K = mask size).

    With ``K = |G|`` the number of mask pixels, ``S`` is the set of the ``K``
    pixels of largest ``|a|`` *among the pixels with non-zero attribution*
    (all of them if fewer than ``K`` are non-zero; ties at the cut broken by
    the lower index); ``precision = |S ∩ G| / K`` (denominator always ``K``).
    See :ref:`def-mask-metrics` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_pixels) or (n_pixels,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_pixels)
        Attribution maps to score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        An empty mask (``K = 0``) leaves the score undefined: NaN with a
        warning, 0, or an error.

    {returns_precision}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import mask_precision
    >>> mask = [[1, 1, 0, 0]]
    >>> mask_precision(mask, [[0.9, 0.0, 0.5, 0.0]])  # 2nd-ranked pixel is off-mask
    array([0.5])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    hits, K = _topk_hits(A, M, nonzero_only=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = hits / K
    return handle_undefined(scores, K == 0, nan_policy, "mask_precision", "empty mask")


@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("arras2022"),
              **_shared_docs("returns_greater"))
def relevance_rank_accuracy(ground_truth, attributions, *, nan_policy="omit"):
    """Relevance rank accuracy: share of the mask among the top-K pixels (K = mask size).

    ``|T_K(a) ∩ G| / K`` with ``K = |G|`` and ``T_K`` the ``K`` pixels of
    largest magnitude (ties by lower index).  Equal to
    :func:`mask_precision` when no attribution is zero.  See
    :ref:`def-mask-metrics` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_pixels) or (n_pixels,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_pixels)
        Attribution maps to score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Policy for empty masks.

    {returns_greater}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import relevance_rank_accuracy
    >>> relevance_rank_accuracy([[1, 1, 0, 0]], [[0.9, 0.0, 0.5, 0.0]])
    array([0.5])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    hits, K = _topk_hits(A, M, nonzero_only=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = hits / K
    return handle_undefined(scores, K == 0, nan_policy, "relevance_rank_accuracy",
                            "empty mask")


@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("arras2022"),
              **_shared_docs("returns_greater"))
def relevance_mass_accuracy(ground_truth, attributions, *, nan_policy="omit"):
    """Relevance mass accuracy: share of the attribution mass inside the mask.

    ``sum_{j in G} |a_j| / sum_j |a_j|`` per row (normalised per row only).
    See :ref:`def-mask-metrics` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_pixels) or (n_pixels,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_pixels)
        Attribution maps to score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        An all-zero map has no mass: NaN with a warning, 0, or an error.

    {returns_greater}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import relevance_mass_accuracy
    >>> relevance_mass_accuracy([[1, 1, 0, 0]], [[0.5, -0.25, 0.25, 0.0]])
    array([0.75])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    mag = np.abs(A)
    total = mag.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = (mag * M).sum(axis=1) / total
    return handle_undefined(scores, total == 0, nan_policy, "relevance_mass_accuracy",
                            "all-zero attribution map")


@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
def mask_roc_auc(ground_truth, attributions, *, nan_policy="omit"):
    """ROC-AUC of the attribution magnitudes as a detector of the mask, per row.

    The probability that a random mask pixel has a larger ``|a|`` than a
    random pixel outside the mask (ties count one half; Mann-Whitney form).
    Each map is scored on its own: no rescaling across the batch (which
    changes per-map rankings).  See :ref:`def-mask-metrics` in the user
    guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_pixels) or (n_pixels,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_pixels)
        Attribution maps to score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A mask that is empty or covers every pixel leaves the score
        undefined: NaN with a warning, 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row AUC in ``[0, 1]``, 0.5 for an uninformative map; greater is
        better.

    Examples
    --------
    >>> from sklearn_xai.metrics import mask_roc_auc
    >>> mask_roc_auc([[1, 1, 0, 0]], [[0.9, 0.1, 0.5, 0.0]])
    array([0.75])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    ranks = rankdata(np.abs(A), method="average", axis=1)
    n_pos = M.sum(axis=1).astype(np.float64)
    n_neg = M.shape[1] - n_pos
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = ((ranks * M).sum(axis=1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    return handle_undefined(scores, (n_pos == 0) | (n_neg == 0), nan_policy,
                            "mask_roc_auc", "mask empty or full")


@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
def mask_average_precision(ground_truth, attributions, *, nan_policy="omit"):
    """Average precision (area under the precision-recall curve) of ``|a|``
    as a detector of the mask, per row.

    The features are ranked by ``|a|``; at each distinct threshold (ties
    form one step) ``P_n`` is the share of the mask among the features at
    or above it and ``R_n`` the share of the mask they cover, and
    ``AP = sum_n (R_n - R_{n-1}) P_n`` -- the step-wise area of
    :func:`sklearn.metrics.average_precision_score`, without
    interpolation.  Unlike :func:`mask_roc_auc` it weighs the top of the
    ranking most, which suits small masks (a planted window in a long
    series).  Each map is scored on its own.  See :ref:`def-mask-metrics`
    in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened like the
        attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_features)
        Attribution maps to score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        An empty mask leaves the score undefined: NaN with a warning, 0,
        or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row average precision in ``(0, 1]``; a map that ranks features
        at random scores about the mask's share ``|G| / n_features``;
        greater is better.

    See Also
    --------
    mask_roc_auc : The area under the ROC curve of the same detector.

    Examples
    --------
    >>> from sklearn_xai.metrics import mask_average_precision
    >>> mask_average_precision([[1, 1, 0, 0]], [[0.9, 0.1, 0.5, 0.0]])
    array([0.83333333])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    n, d = A.shape
    mag = np.abs(A)
    order = np.argsort(-mag, axis=1, kind="stable")
    S = np.take_along_axis(mag, order, axis=1)
    hits = np.take_along_axis(M, order, axis=1)
    tp = np.cumsum(hits, axis=1, dtype=np.float64)
    # A tie group counts as one threshold: every member takes the precision
    # at the group's last position.
    last = np.ones((n, d), dtype=bool)
    last[:, :-1] = S[:, :-1] != S[:, 1:]
    idx = np.broadcast_to(np.arange(d), (n, d))
    end = np.minimum.accumulate(np.where(last, idx, d)[:, ::-1], axis=1)[:, ::-1]
    precision = np.take_along_axis(tp, end, axis=1) / (end + 1)
    n_pos = M.sum(axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = (precision * hits).sum(axis=1) / n_pos
    return handle_undefined(scores, n_pos == 0, nan_policy, "mask_average_precision",
                            "empty mask")


@validate_params(
    {"ground_truth": ["array-like"], "attributions": ["array-like"],
     "k": [Interval(numbers.Real, None, None, closed="neither"), None],
     "nan_policy": [StrOptions({"omit", "zero", "raise"})]},
    prefer_skip_nested_validation=True,
)
def mask_iou(ground_truth, attributions, *, k=None, nan_policy="omit"):
    """Intersection over union of the top-k attributed features and the mask, per row.

    ``IoU = |T_k(a) ∩ G| / |T_k(a) ∪ G|`` with ``T_k`` the ``k`` features of
    largest ``|a|`` (ties broken by the lower index) and ``G`` the mask.
    With ``k = |G|`` (the default) it is ``h / (2 |G| - h)`` for ``h`` hits,
    a monotone function of :func:`relevance_rank_accuracy`; a fixed ``k``
    also penalises a top set larger or smaller than the mask.  See
    :ref:`def-mask-metrics` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened like the
        attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_features)
        Attribution maps to score.
    k : int, float or None, default=None
        Size of the top set: ``None`` for each row's mask size ``|G|``;
        ``-1`` for all features, an int in ``[1, n_features]`` or a fraction
        in ``(0, 1]`` rounded up (see :func:`sklearn_xai.utils.resolve_k`).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        An empty mask with ``k=None`` (an empty union) leaves the score
        undefined: NaN with a warning, 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row IoU in ``[0, 1]``; greater is better.

    Examples
    --------
    >>> from sklearn_xai.metrics import mask_iou
    >>> mask_iou([[1, 1, 0, 0]], [[0.9, 0.1, 0.5, 0.0]])  # top-2 {0, 2}
    array([0.33333333])
    >>> mask_iou([[1, 1, 0, 0]], [[0.9, 0.1, 0.5, 0.0]], k=3)
    array([0.66666667])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    n, d = A.shape
    K = M.sum(axis=1) if k is None else np.full(n, resolve_k(k, d))
    top = positions(magnitude_order(A)) < K[:, None]
    inter = (top & M).sum(axis=1).astype(np.float64)
    union = (top | M).sum(axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = inter / union
    return handle_undefined(scores, union == 0, nan_policy, "mask_iou",
                            "empty mask and empty top set")


@validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "image_shape": ["array-like", None],
        "convention": [StrOptions({"xai_tris_code", "paper"})],
        "coarsen": [Interval(numbers.Integral, 1, None, closed="left")],
        "net_mass": ["boolean"],
        "n_jobs": [numbers.Integral, None],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("clark2024"))
def emd_score(ground_truth, attributions, *, image_shape=None,
              convention="xai_tris_code", coarsen=1, net_mass=True, n_jobs=None,
              nan_policy="omit"):
    """Earth mover's distance score of attribution maps against masks (XAI-TRIS).

    ``p = 1_G / |G|`` (uniform mass on the mask), ``q = |a| / sum |a|``; ``W``
    is the exact Wasserstein-1 distance between them with the Euclidean
    distance between pixel centres (in pixels) as ground cost, and
    ``score = 1 - W / D_max``.  See :ref:`def-emd` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_pixels) or (n_pixels,)
        Ground-truth masks, 0/1 or boolean, one per row (flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_pixels)
        Attribution maps to score.
    image_shape : tuple (height, width), default=None
        Shape of the images; ``None`` infers a square.
    convention : {"xai_tris_code", "paper"}, default="xai_tris_code"
        The normaliser ``D_max``.  ``"xai_tris_code"`` (the default, which
        reproduces XAI-TRIS's code and published figures): ``L * sqrt(2)``
        (``sqrt(h**2 + w**2)``; 11.3137 for 8x8).  ``"paper"``: the largest
        pixel distance ``sqrt((h-1)**2 + (w-1)**2)``, which the code's
        comment intends.
    coarsen : int, default=1
        Opt-in approximation: sum-pool both maps into ``coarsen x coarsen``
        blocks transported between block centres.  Each pixel moves at most
        ``sqrt(2) (coarsen - 1) / 2`` pixels to its centre, so
        ``|W_coarse - W| <= sqrt(2) (coarsen - 1)`` pixels and the score
        changes by at most ``sqrt(2) (coarsen - 1) / D_max`` (typically far
        less).  ``1`` is exact.
    net_mass : bool, default=True
        Transport only the surplus ``(p - q)_+`` to the deficit ``(q - p)_+``.
        Exact for the Euclidean cost (it changes the result only by rounding,
        ~1e-14) and faster; ``False`` solves the full problem.
    n_jobs : int, default=None
        Processes solving rows in parallel through joblib (``-1``: all
        cores; ``None``: one, unless in a :func:`joblib.parallel_config`
        context).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        An all-zero map (no distribution ``q``) or an empty mask leaves the
        score undefined: NaN with a warning (XAI-TRIS silently drops such
        samples), 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row score, 1 for a map with the mask's uniform distribution;
        greater is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import emd_score
    >>> mask = np.zeros((1, 16)); mask[0, 0] = 1
    >>> a = np.zeros((1, 16)); a[0, 1] = 2.0   # all mass one pixel to the right
    >>> emd_score(mask, a).round(6)  # 1 - 1 / (4 * sqrt(2))
    array([0.823223])
    >>> emd_score(mask, mask)
    array([1.])
    """
    A, M = _check_mask_inputs(ground_truth, attributions)
    shape = resolve_image_shape(image_shape, A.shape[1], ndim=2)
    h, w = shape
    norm = np.hypot(h, w) if convention == "xai_tris_code" else np.hypot(h - 1, w - 1)
    if norm == 0:
        raise ValueError("emd_score needs images of at least two pixels.")
    mag = np.abs(A)
    total = mag.sum(axis=1)
    K = M.sum(axis=1)
    undefined = (total == 0) | (K == 0)
    scores = np.full(A.shape[0], np.nan)
    ok = np.flatnonzero(~undefined)
    if ok.size:
        P = M[ok] / K[ok, None]
        Q = mag[ok] / total[ok, None]
        W = _wasserstein_rows(P, Q, shape, coarsen=int(coarsen), net_mass=net_mass,
                              n_jobs=n_jobs)
        scores[ok] = 1.0 - W / norm
    return handle_undefined(scores, undefined, nan_policy, "emd_score",
                            "all-zero attribution map or empty mask")


_REGISTERED = [
    ("mask_precision", mask_precision, "XAI-TRIS",
     "Share of the mask among the top-K non-zero pixels (K = mask size)."),
    ("emd_score", emd_score, "XAI-TRIS",
     "1 - earth mover's distance between the map and the mask, normalised."),
    ("mask_roc_auc", mask_roc_auc, "",
     "ROC-AUC of the attribution magnitudes against the mask."),
    ("mask_average_precision", mask_average_precision, "",
     "Average precision (AUC-PR) of the attribution magnitudes against the mask."),
    ("mask_iou", mask_iou, "",
     "Intersection over union of the top-k features (k = mask size) and the mask."),
    ("relevance_mass_accuracy", relevance_mass_accuracy, "",
     "Share of the attribution mass inside the mask."),
    ("relevance_rank_accuracy", relevance_rank_accuracy, "",
     "Share of the mask among the top-K pixels (K = mask size)."),
]


for _name, _func, _source, _desc in _REGISTERED:
    register_metric(
        _name, _func, kind="reference", greater_is_better=True,
        # emd_score measures distances on the image grid.
        requires=("ground_truth", "image_shape", "mask") if _name == "emd_score"
        else ("ground_truth", "mask"),
        source=_source, description=_desc,
    )


def _check_masks(ground_truth, attributions):
    """Validated float attributions and boolean masks of the same shape
    (a boolean mask array of the attributions' shape is used as it is)."""
    A = check_attributions(attributions)
    if (isinstance(ground_truth, np.ndarray) and ground_truth.dtype == bool
            and ground_truth.shape in (A.shape, A.shape[1:])):
        return A, np.broadcast_to(ground_truth, A.shape)
    return _check_mask_inputs(ground_truth, A)


def _positive_share(A, M, eps=0.0):
    """Share of each row's positive attribution inside its mask, and that
    positive total (the share is NaN where the total is 0 and ``eps`` is 0)."""
    R = np.maximum(A, 0.0)
    total = R.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (R * M).sum(axis=1) / (total + eps), total


def _disk(radius):
    """Boolean disk of the pixels within Euclidean distance ``radius`` of the
    centre, shape (2r + 1, 2r + 1) with ``r = floor(radius)``."""
    r = int(np.floor(radius))
    rows, cols = np.mgrid[-r:r + 1, -r:r + 1]
    return rows ** 2 + cols ** 2 <= radius ** 2


def _dilate(M, image_shape, tolerance):
    """Grow each row's mask by every pixel within ``tolerance`` pixels of it."""
    h, w = image_shape
    structure = _disk(tolerance)[None]  # no growth across rows
    grown = binary_dilation(M.reshape(-1, h, w), structure=structure)
    return grown.reshape(M.shape)


@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "tolerance": [Interval(numbers.Real, 0, None, closed="left")],
        "image_shape": ["array-like", None],
        "order_by": [StrOptions({"signed", "abs"})],
        "ties": [StrOptions({"any", "fraction"})],
        "weighted": ["boolean"],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("zhang2018", "hedstrom2023"))
def pointing_game(ground_truth, attributions, *, tolerance=0, image_shape=None,
                  order_by="signed", ties="any", weighted=False, nan_policy="omit"):
    """Pointing game: whether the maximal attribution falls inside the mask.

    A row scores 1 (a *hit*) when the feature of largest attribution lies in
    the ground-truth mask ``M``, else 0 (Zhang et al. 2018).  On images,
    ``tolerance`` counts a maximum within ``tolerance`` pixels (Euclidean
    distance between pixel centres) of the mask as a hit, as the paper's
    15-pixel tolerance does.  See :ref:`def-pointing-game` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
        Ground-truth masks, 0/1 or boolean, one per row (images flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    tolerance : float, default=0
        Radius in pixels around the mask within which the maximum still
        counts as a hit; ``0`` requires the maximum to be on the mask
        (Quantus' ``PointingGame``).  A positive tolerance needs the image
        grid (``image_shape``).
    image_shape : tuple (height, width), default=None
        Shape of the images; ``None`` infers a square.  Only used when
        ``tolerance > 0``.
    order_by : {"signed", "abs"}, default="signed"
        Point at the largest attribution (``"signed"``, the paper and
        Quantus' default) or at the largest magnitude (``"abs"``).
    ties : {"any", "fraction"}, default="any"
        When several features share the maximum: ``"any"`` (Quantus) scores
        a hit if one of them is in the mask; ``"fraction"`` scores the share
        of them that is in the mask (the expected hit of a pointer choosing
        among them at random).
    weighted : bool, default=False
        Multiply a hit by ``1 - |M| / n_features``, the probability that a
        uniformly random pointer misses the mask, so that large masks earn
        less (Quantus' ``weighted=True``).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row with an empty mask, or whose attributions are all equal (no
        maximum to point at), has no score: NaN with a warning, 0, or an
        error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row hit in ``[0, 1]`` (0 or 1 unless ``ties="fraction"`` or
        ``weighted=True``); greater is better.

    See Also
    --------
    attribution_localisation : The share of the positive attribution on the
        mask.
    top_k_intersection : The share of the top-k features on the mask.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import pointing_game
    >>> mask = [True, True, False, False]  # one mask for every row
    >>> pointing_game(mask, [[0.2, 0.9, 0.5, -1.0], [0.2, 0.1, 0.5, 0.0]])
    array([1., 0.])
    >>> pointing_game(mask, [[0.2, 0.9, 0.5, -1.0]], order_by="abs")
    array([0.])
    """
    A, M = _check_masks(ground_truth, attributions)
    key = np.abs(A) if order_by == "abs" else A
    top = key == key.max(axis=1, keepdims=True)
    if tolerance > 0:
        shape = resolve_image_shape(image_shape, A.shape[1], ndim=2)
        M_hit = _dilate(M, shape, tolerance)
    else:
        M_hit = M
    if ties == "any":
        scores = np.any(top & M_hit, axis=1).astype(np.float64)
    else:
        scores = (top & M_hit).sum(axis=1) / top.sum(axis=1)
    size = M.sum(axis=1)
    if weighted:
        scores = scores * (1.0 - size / A.shape[1])
    undefined = (size == 0) | top.all(axis=1)
    return handle_undefined(scores, undefined, nan_policy, "pointing_game",
                            "empty mask or constant attributions")


@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "weighted": ["boolean"],
        "convention": [StrOptions({"paper", "quantus_code"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("kohlbrenner2020", "hedstrom2023"))
def attribution_localisation(ground_truth, attributions, *, weighted=False,
                             convention="paper", nan_policy="omit"):
    """Attribution localisation: share of the positive attribution inside the mask.

    ``mu = sum_{j in M} max(a_j, 0) / sum_j max(a_j, 0)`` (Kohlbrenner et
    al. 2020's inside-total relevance ratio).  ``weighted=True`` returns the
    paper's size-corrected ``mu_w = mu * n_features / |M|``, which is 1 for
    attributions spread uniformly and grows as the attribution concentrates
    on a small mask.  See :ref:`def-attribution-localisation` in the user
    guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
        Ground-truth masks, 0/1 or boolean, one per row (images flattened
        row-major like the attributions); a single mask applies to every row.
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    weighted : bool, default=False
        Apply the mask-size weight: ``n_features / |M|`` under
        ``convention="paper"``, Quantus' ``|M| / n_features`` under
        ``convention="quantus_code"``.
    convention : {"paper", "quantus_code"}, default="paper"
        ``"paper"``: positive attributions, NaN when a row has none.
        ``"quantus_code"``: Quantus' defaults (``abs=True``): the
        magnitudes ``|a|`` (so it equals
        :func:`~sklearn_xai.metrics.relevance_mass_accuracy` up to the
        ``1e-9`` below), each divided by the row's largest magnitude, with
        ``1e-9`` added to the denominator (an all-zero row scores 0), and
        Quantus' weight ``|M| / n_features``.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row with an empty mask (or, under ``"paper"``, without positive
        attribution) has no score: NaN with a warning, 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row ratio in ``[0, 1]`` (``[0, n_features / |M|]`` with
        ``weighted=True`` under ``"paper"``); greater is better.

    See Also
    --------
    relevance_mass_accuracy : The same ratio for the magnitudes ``|a|``.
    pointing_game : Whether the maximum is on the mask.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import attribution_localisation
    >>> mask = [[True, False, False, False]]
    >>> attribution_localisation(mask, [[0.6, 0.2, 0.2, -5.0]])
    array([0.6])
    >>> attribution_localisation(mask, [[0.6, 0.2, 0.2, -5.0]], weighted=True)
    array([2.4])
    """
    A, M = _check_masks(ground_truth, attributions)
    n_features = A.shape[1]
    size = M.sum(axis=1)
    if convention == "quantus_code":
        R = np.abs(A)
        peak = R.max(axis=1, keepdims=True)
        R = np.divide(R, peak, out=np.zeros_like(R), where=peak > 0)
        scores = (R * M).sum(axis=1) / (R.sum(axis=1) + 1e-9)
        if weighted:
            scores = scores * (size / n_features)
        undefined = size == 0
    else:
        scores, total = _positive_share(A, M)
        if weighted:
            with np.errstate(invalid="ignore", divide="ignore"):
                scores = scores * (n_features / size)
        undefined = (size == 0) | (total == 0)
    return handle_undefined(scores, undefined, nan_policy, "attribution_localisation",
                            "empty mask or no positive attribution")


@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "k": [Interval(numbers.Real, None, None, closed="neither")],
        "mask": ["boolean", None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("theiner2022", "hedstrom2023"))
def top_k_intersection(ground_truth, attributions, *, k=0.25, mask=None):
    """Top-k intersection: share of the top-k features inside the reference.

    ``TKI@k = |T_k(a) ∩ M| / k``, where ``T_k(a)`` is the set of the ``k``
    features of largest ``|a|`` (ties broken by the lower column index) and
    ``M`` is the ground-truth mask, or, for a reference explanation, its
    own top-k set ``T_k(g)`` (the score is then feature agreement at ``k``,
    :func:`feature_agreement` with ``auc=False``).  Quantus'
    ``TopKIntersection``.  See :ref:`def-top-k-intersection` in the user
    guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
        A boolean (or 0/1) mask of the relevant features, or reference
        attributions; a single vector applies to every row.
    attributions : array-like of shape (n_samples, n_features)
        Explanations to score.
    k : int or float, default=0.25
        ``-1`` for all features, an int in ``[1, n_features]`` or a fraction
        in ``(0, 1]`` rounded up (see :func:`sklearn_xai.utils.resolve_k`).
    mask : bool or None, default=None
        Whether ``ground_truth`` is a mask (its non-zero entries) rather than
        reference attributions (their top-k); ``None`` treats it as a mask
        when every entry is 0 or 1.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]`` (at most ``|M| / k`` when the mask is
        smaller than ``k``); greater is better.

    See Also
    --------
    feature_agreement : The same count against the reference's top-k, with
        the area over ``k``.
    mask_precision : The top-K share with ``K`` the size of each mask.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import top_k_intersection
    >>> mask = [[True, True, False, False]]
    >>> top_k_intersection(mask, [[0.9, -0.1, 0.5, 0.0]], k=2).tolist()
    [0.5]
    """
    A = check_attributions(attributions)
    K = resolve_k(k, A.shape[1])
    if (mask is not False and isinstance(ground_truth, np.ndarray)
            and ground_truth.dtype == bool
            and ground_truth.shape in (A.shape, A.shape[1:])):
        inside = ground_truth  # a boolean mask: nothing to convert
    else:
        G = check_reference(ground_truth, A)
        if mask is None:
            mask = bool(np.isin(G, (0.0, 1.0)).all())
        inside = G != 0 if mask else top_k_mask(G, K)
    return (top_k_mask(A, K) & inside).sum(axis=1) / K


# ----------------------------------------------------------------- focus
def _quadrant_masks(quadrants, image_shape):
    """Pixel masks (n, n_pixels) of the flagged quadrants of 2 x 2 mosaics:
    flags (top-left, top-right, bottom-left, bottom-right), every channel."""
    shape = tuple(image_shape)
    h, w = shape[-2:]
    rows = np.arange(h)[:, None] >= h // 2
    cols = np.arange(w)[None, :] >= w // 2
    which = (2 * rows + cols).ravel()  # quadrant of each (row, column)
    M = np.asarray(quadrants, dtype=bool)[:, which]
    channels = int(np.prod(shape[:-2], dtype=np.int64))
    return np.tile(M, (1, channels))


@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "image_shape": ["array-like", None],
        "convention": [StrOptions({"paper", "quantus_code"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("ariasduart2022", "hedstrom2023"))
def focus(ground_truth, attributions, *, image_shape=None, convention="paper",
          nan_policy="omit"):
    """Focus: share of the positive attribution on the target class's
    images of a mosaic.

    A mosaic (:func:`make_mosaics`) is a 2 x 2 grid of images, two of the
    explained class and two of others; an explanation of the class that is
    faithful puts its positive relevance on the two images of the class:
    ``Focus = sum_{j in T} max(a_j, 0) / sum_j max(a_j, 0)`` with ``T`` the
    pixels of the target quadrants (Arias-Duart et al. 2022).  A random
    explanation scores about 0.5.  See :ref:`def-focus` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, 4) or (n_samples, n_pixels)
        Which quadrants hold the explained class, 0/1 flags (top-left,
        top-right, bottom-left, bottom-right: ``make_mosaics(...).quadrants``,
        Quantus' ``custom_batch``), or the pixel masks of those quadrants
        (``make_mosaics(...).ground_truth``).  An array of the attributions'
        shape is taken as pixel masks.
    attributions : array-like of shape (n_samples, n_pixels)
        Explanations of the mosaics (flattened row-major).
    image_shape : tuple of int or None, default=None
        ``(h, w)`` or ``(c, h, w)`` of a mosaic, to place quadrant flags;
        ``None`` takes a square single-channel mosaic.  An odd side puts
        the middle row (column) in the lower (right) quadrants.
    convention : {"paper", "quantus_code"}, default="paper"
        ``"paper"``: a row without positive attribution has no score.
        ``"quantus_code"``: ``1e-9`` is added to the denominator, as Quantus'
        ``Focus`` (such a row scores 0).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row without positive attribution (``"paper"``): NaN with a warning,
        0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row share in ``[0, 1]``; greater is better.

    See Also
    --------
    attribution_localisation : The same share on any mask.
    make_mosaics : Builds the mosaics and their quadrant flags.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import focus
    >>> # A 2 x 2 mosaic of 1-pixel images, the class at the top-left and
    >>> # bottom-right.
    >>> focus([[1, 0, 0, 1]], [[0.5, 0.25, -1.0, 0.25]], image_shape=(2, 2))
    array([0.75])
    """
    A = check_attributions(attributions)
    n_pixels = A.shape[1]
    G = np.asarray(ground_truth)
    if G.ndim == 2 and G.shape[1] == 4 and n_pixels != 4:
        if len(G) != len(A):
            raise ValueError(
                f"ground_truth has {len(G)} rows of quadrant flags but the "
                f"attributions have {len(A)}; pass one row of 4 flags per mosaic.")
        if not np.isin(G, (0, 1)).all():
            raise ValueError("ground_truth quadrant flags must be 0/1 (or boolean): "
                             "which of the 4 quadrants hold the explained class.")
        shape = resolve_image_shape(image_shape, n_pixels)
        if len(shape) < 2:
            raise ValueError(f"image_shape must be (h, w) or (c, h, w); got {shape}.")
        M = _quadrant_masks(G, shape)
    else:
        A, M = _check_masks(G, A)
    scores, total = _positive_share(A, M, 1e-9 if convention == "quantus_code" else 0.0)
    undefined = np.zeros(len(A), dtype=bool) if convention == "quantus_code" else total == 0
    return handle_undefined(scores, undefined, nan_policy, "focus",
                            "no positive attribution")


@fast_validate_params(
    {
        "images": ["array-like"],
        "labels": ["array-like"],
        "image_shape": ["array-like", None],
        "mosaics_per_class": [Interval(numbers.Integral, 1, None, closed="left")],
        "classes": ["array-like", None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("ariasduart2022"))
def make_mosaics(images, labels, *, image_shape=None, mosaics_per_class=10,
                 classes=None, random_state=None):
    """Build 2 x 2 mosaics of labelled images for :func:`focus`.

    Each mosaic of class ``c`` holds two distinct images of class ``c`` and
    two images of other classes (each drawn by picking one of the other
    classes uniformly, then one of its images), in a random order of the
    four quadrants (Arias-Duart et al. 2022).  The mosaic is explained for
    class ``c`` (``target``); :func:`focus` scores the explanation against
    the quadrants of class ``c`` (``quadrants`` or ``ground_truth``).

    Parameters
    ----------
    images : array-like of shape (n_images, n_pixels)
        The images, flattened row-major (as the package's image data sets,
        e.g. :func:`~sklearn_xai.datasets.make_tetrominoes`).
    labels : array-like of shape (n_images,)
        Their classes (at least two classes; at least two images of each
        class that gets mosaics).
    image_shape : tuple of int or None, default=None
        ``(h, w)`` or ``(c, h, w)`` of one image; ``None`` takes a square
        single-channel image.
    mosaics_per_class : int, default=10
        Mosaics built for each class.
    classes : array-like or None, default=None
        The classes to build mosaics of (``None``: every class in
        ``labels``).
    random_state : int, RandomState instance or None, default=None
        Seeds the draws.

    Returns
    -------
    mosaics : Bunch
        ``data`` (n_mosaics, 4 * n_pixels), the flattened mosaics;
        ``image_shape``, the shape of one mosaic (``(2h, 2w)`` or
        ``(c, 2h, 2w)``); ``target`` (n_mosaics,), the class of each
        mosaic; ``quadrants`` (n_mosaics, 4) bool, which quadrants
        (top-left, top-right, bottom-left, bottom-right) hold an image of
        ``target``; ``ground_truth`` (n_mosaics, 4 * n_pixels) bool, the
        pixels of those quadrants; ``indices`` and ``labels`` (n_mosaics,
        4), the index in ``images`` and the class of each quadrant's image.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import make_mosaics
    >>> images = np.arange(6 * 4, dtype=float).reshape(6, 4)  # 2 x 2 images
    >>> m = make_mosaics(images, [0, 0, 0, 1, 1, 1], mosaics_per_class=2,
    ...                  random_state=0)
    >>> m.data.shape, m.image_shape, m.target.tolist()
    ((4, 16), (4, 4), [0, 0, 1, 1])
    >>> m.quadrants.sum(axis=1).tolist()
    [2, 2, 2, 2]
    """
    X = check_attributions(images, name="images")
    y = np.asarray(labels)
    if y.shape != (len(X),):
        raise ValueError(f"labels must have one class per image ({len(X)}); got "
                         f"shape {y.shape}.")
    shape = resolve_image_shape(image_shape, X.shape[1])
    if len(shape) < 2:
        raise ValueError(f"image_shape must be (h, w) or (c, h, w); got {shape}.")
    present = np.unique(y)
    if len(present) < 2:
        raise ValueError("make_mosaics needs images of at least two classes; "
                         f"labels has {len(present)}.")
    targets = present if classes is None else np.asarray(classes).ravel()
    members = {c: np.flatnonzero(y == c) for c in present}
    for c in targets:
        if len(members.get(c, ())) < 2:
            label = c.item() if isinstance(c, np.generic) else c
            raise ValueError(
                f"make_mosaics puts two distinct images of class {label!r} in each of "
                "its mosaics; labels has fewer than 2 of them. Pass classes=... "
                "without it.")
    rng = purpose_generator(random_state, 0)
    indices, quad_labels = [], []
    for c in targets:
        others = present[present != c]
        for _ in range(mosaics_per_class):
            own = rng.choice(members[c], size=2, replace=False)
            other_classes = others[rng.integers(len(others), size=2)]
            foreign = [rng.choice(members[o]) for o in other_classes]
            order = rng.permutation(4)
            idx = np.concatenate([own, foreign])[order]
            indices.append(idx)
            quad_labels.append(np.concatenate([[c, c], other_classes])[order])
    indices = np.asarray(indices, dtype=np.intp).reshape(-1, 4)
    quad_labels = np.asarray(quad_labels).reshape(-1, 4)
    target = np.repeat(targets, mosaics_per_class)
    # (n, 4, *shape) -> (n, *lead, 2h, 2w): quadrants q = 2 * row + column.
    tiles = X[indices].reshape(len(indices), 2, 2, *shape)
    lead = shape[:-2]
    k = len(lead)
    axes = (0, *range(3, 3 + k), 1, 3 + k, 2, 4 + k)
    h, w = shape[-2:]
    mosaic_shape = (*lead, 2 * h, 2 * w)
    data = tiles.transpose(axes).reshape(len(indices), -1)
    quadrants = quad_labels == target[:, None]
    return Bunch(data=data, image_shape=mosaic_shape, target=target,
                 quadrants=quadrants,
                 ground_truth=_quadrant_masks(quadrants, mosaic_shape),
                 indices=indices, labels=quad_labels)


# --------------------------------------------------------------------- registry
register_metric(
    "pointing_game", pointing_game, kind="reference", greater_is_better=True,
    requires=("ground_truth", "image_shape", "mask"), source="Quantus",
    description="Whether the largest attribution falls inside the mask.",
)

register_metric(
    "attribution_localisation", attribution_localisation, kind="reference",
    greater_is_better=True, requires=("ground_truth", "mask"), source="Quantus",
    description="Share of the positive attribution inside the mask.",
)

register_metric(
    "top_k_intersection", top_k_intersection, kind="reference", greater_is_better=True,
    requires=("ground_truth",), source="Quantus",
    description="Share of the top-k features inside the mask (or the reference's top-k).",
)

register_metric(
    "focus", focus, kind="reference", greater_is_better=True,
    requires=("ground_truth", "image_shape", "mask"),
    source="Arias-Duart et al. 2022, Quantus",
    description="Share of the positive attribution on the explained class's "
                "images of a 2 x 2 mosaic.",
)
