"""Localisation of attributions on a ground-truth mask: pointing game,
attribution localisation and top-k intersection.

The ground truth is a 0/1 (or boolean) mask per row, of the shape of the
attributions (images flattened row-major); a single mask applies to every
row.  Every score is computed from its row alone, in one vectorised pass over
the batch.  Definitions: :ref:`def-localisation-metrics` in the user guide.
"""

import numbers

import numpy as np
from scipy.ndimage import binary_dilation

from sklearn_xai.metrics._masks import _check_mask_inputs, _resolve_image_shape
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import handle_undefined
from sklearn_xai.utils._validation import (
    check_attributions,
    check_reference,
    resolve_k,
    top_k_mask,
)

__all__ = ["attribution_localisation", "pointing_game", "top_k_intersection"]


def _check_masks(ground_truth, attributions):
    """Validated float attributions and boolean masks of the same shape
    (a boolean mask array of the attributions' shape is used as it is)."""
    A = check_attributions(attributions)
    if (isinstance(ground_truth, np.ndarray) and ground_truth.dtype == bool
            and ground_truth.shape in (A.shape, A.shape[1:])):
        return A, np.broadcast_to(ground_truth, A.shape)
    return _check_mask_inputs(ground_truth, A)


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

    References
    ----------
    .. [1] J. Zhang, S. A. Bargal, Z. Lin, J. Brandt, X. Shen and S. Sclaroff,
       "Top-Down Neural Attention by Excitation Backprop", International
       Journal of Computer Vision 126, 2018.
    .. [2] A. Hedström et al., "Quantus: An Explainable AI Toolkit for
       Responsible Evaluation of Neural Network Explanations and Beyond",
       JMLR 24(34), 2023.

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
        shape = _resolve_image_shape(image_shape, A.shape[1])
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

    References
    ----------
    .. [1] M. Kohlbrenner, A. Bauer, S. Nakajima, A. Binder, W. Samek and
       S. Lapuschkin, "Towards Best Practice in Explaining Neural Network
       Decisions with LRP", IJCNN 2020.
    .. [2] A. Hedström et al., "Quantus: An Explainable AI Toolkit for
       Responsible Evaluation of Neural Network Explanations and Beyond",
       JMLR 24(34), 2023.

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
        R = np.maximum(A, 0.0)
        total = R.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = (R * M).sum(axis=1) / total
            if weighted:
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

    References
    ----------
    .. [1] J. Theiner, E. Müller-Budack and R. Ewerth, "Interpretable
       Semantic Photo Geolocation", WACV 2022.
    .. [2] A. Hedström et al., "Quantus: An Explainable AI Toolkit for
       Responsible Evaluation of Neural Network Explanations and Beyond",
       JMLR 24(34), 2023.

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
