"""Agreement of attributions with a reference explanation (OpenXAI, teex).

The top-k family (feature, rank, sign and signed-rank agreement) shares one
vectorised core: for every row it computes, once, how many items agree among
the top ``k`` features for *every* ``k`` (a cumulative count), from which a
single ``k`` or the area under the curve over ``k = 1..K`` is read off without
a loop over rows or over ``k``.  Definitions: :ref:`def-ground-truth-metrics`
in the user guide.

teex's scores compare each explanation with its reference as a vector
(:func:`cosine_similarity`) or, thresholded, as a set of selected features
(:func:`gt_precision`, :func:`gt_recall`, :func:`gt_f1`; definitions:
:ref:`def-teex-metrics`).

References come from the data generator (``bunch.ground_truth``) or from the
model itself: :func:`linear_model_reference` (OpenXAI's logistic-regression
coefficient reference) and :func:`linear_shapley_reference` (the exact Shapley
values of a linear model under independent features).
"""

import numbers
from textwrap import indent

import numpy as np
from scipy.stats import rankdata
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._estimators import unfreeze
from sklearn_xai.utils._output import (
    ExplainedOutput,
    block_slices,
    check_single_output_target,
)
from sklearn_xai.utils._sklearn import (
    Interval,
    StrOptions,
    fast_validate_params,
    validate_params,
)
from sklearn_xai.utils._stats import correlate_ranks, handle_undefined
from sklearn_xai.utils._validation import (
    check_attributions,
    check_reference,
    dense_rank,
    magnitude_order,
    positions,
    resolve_k,
)

__all__ = [
    "feature_agreement",
    "rank_agreement",
    "sign_agreement",
    "signed_rank_agreement",
    "rank_correlation",
    "pairwise_rank_agreement",
    "cosine_similarity",
    "gt_precision",
    "gt_recall",
    "gt_f1",
    "token_f1",
    "linear_model_reference",
    "linear_shapley_reference",
]


# --------------------------------------------------------------------- helpers
def _agreement_counts(G, A, kind):
    """Cumulative agreement counts, shape (n, d): column ``k - 1`` holds the
    number of agreeing items among the top ``k`` features.

    ``kind`` is ``"feature"``, ``"sign"`` (set agreement, position-free) or
    ``"rank"``, ``"signed_rank"`` (agreement position by position).
    """
    n, d = A.shape
    order_a, order_g = magnitude_order(A), magnitude_order(G)
    if kind in ("feature", "sign"):
        # Feature j is in both top-k sets iff max(pos_a(j), pos_g(j)) < k.
        last = np.maximum(positions(order_a), positions(order_g))
        weight = np.ones((n, d))
        if kind == "sign":
            weight = (np.sign(A) == np.sign(G)).astype(np.float64)
        flat = (np.arange(n)[:, None] * d + last).ravel()
        hist = np.bincount(flat, weights=weight.ravel(), minlength=n * d)
        return np.cumsum(hist.reshape(n, d), axis=1)
    ranks_a = np.take_along_axis(dense_rank(A), order_a, axis=1)
    ranks_g = np.take_along_axis(dense_rank(G), order_g, axis=1)
    same = (order_a == order_g) & (ranks_a == ranks_g)
    if kind == "signed_rank":
        sign_a = np.sign(np.take_along_axis(A, order_a, axis=1))
        sign_g = np.sign(np.take_along_axis(G, order_g, axis=1))
        same &= sign_a == sign_g
    return np.cumsum(same, axis=1, dtype=np.float64)


def _resolve_k_auc(k, auc, k_max, d):
    """Return ``(K, auc)`` from the user's ``k`` / ``auc`` / ``k_max``."""
    if auc is None:
        auc = k is None
    if auc and k is not None:
        raise ValueError(
            "k is the single cut-off of auc=False; the area under the curve runs "
            "over k = 1..k_max. Pass k_max=... with auc=True (or auc=False with k)."
        )
    if auc:
        return resolve_k(k_max, d), True
    return resolve_k(k_max if k is None else k, d), False


def _topk_agreement(ground_truth, attributions, kind, k, auc, k_max):
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    K, auc = _resolve_k_auc(k, auc, k_max, A.shape[1])
    counts = _agreement_counts(G, A, kind)[:, :K]
    curve = counts / np.arange(1, K + 1)
    if not auc:
        return curve[:, -1].copy()
    if K == 1:
        return curve[:, 0].copy()
    weights = np.ones(K)
    weights[[0, -1]] = 0.5
    return curve @ (weights / (K - 1))


# ----------------------------------------------------------------- top-k family
_TOPK_PARAMS = {
    "ground_truth": ["array-like"],
    "attributions": ["array-like"],
    "k": [Interval(numbers.Real, None, None, closed="neither"), None],
    "auc": ["boolean", None],
    "k_max": [Interval(numbers.Real, None, None, closed="neither")],
}


@validate_params(_TOPK_PARAMS, prefer_skip_nested_validation=True)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_agreement"))
def feature_agreement(ground_truth, attributions, *, k=None, auc=None, k_max=0.25):
    """Feature agreement: fraction of shared top-k features (OpenXAI FA).

    ``FA@k = |T_k(a) ∩ T_k(g)| / k`` where ``T_k`` is the set of the ``k``
    features of largest magnitude (ties broken by the lower column index, so
    the score is reproducible; OpenXAI's unstable sort is not).  By default
    the area under ``FA@k`` for ``k = 1..ceil(d/4)`` (OpenXAI's tables).
    See :ref:`def-topk-agreement` in the user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    k : int, float or None, default=None
        A single cut-off: ``-1`` for all features, an int in
        ``[1, n_features]`` or a fraction in ``(0, 1]`` rounded up (see
        :func:`sklearn_xai.utils.resolve_k`).  Giving ``k`` scores at that
        ``k`` (``auc`` then defaults to False).
    auc : bool or None, default=None
        Return the area under the metric-versus-``k`` curve for
        ``k = 1..k_max`` (trapezoid rule on ``t = (k-1)/(K-1)``, so a value in
        ``[0, 1]``; see :ref:`def-auc-k`).  ``None`` means ``True`` unless ``k`` is
        given.  With ``auc=False`` and ``k=None`` the score is taken at
        ``k_max``.
    k_max : int or float, default=0.25
        Largest ``k`` of the curve.  ``0.25`` (``ceil(d/4)``, e.g. 5 of 20
        features) is what OpenXAI's code and published tables use; ``-1``
        gives the paper's "all values of k".

    {returns_agreement}

    See Also
    --------
    rank_agreement, sign_agreement, signed_rank_agreement

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import feature_agreement
    >>> g, a = [[3.0, -2.0, 1.0, 0.0]], [[0.1, 5.0, 0.0, 4.0]]
    >>> feature_agreement(g, a, k=2)
    array([0.5])
    >>> feature_agreement(g, a, k_max=-1)  # AUC of FA@1..4 = 0, .5, 2/3, 1
    array([0.55555556])
    """
    return _topk_agreement(ground_truth, attributions, "feature", k, auc, k_max)


@validate_params(_TOPK_PARAMS, prefer_skip_nested_validation=True)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_agreement"))
def rank_agreement(ground_truth, attributions, *, k=None, auc=None, k_max=0.25):
    """Rank agreement: same feature at the same position of the top k (OpenXAI RA).

    ``RA@k = (1/k) sum_{p<=k} 1[pi_p(a) = pi_p(g) and r(a) = r(g) there]``:
    position ``p`` agrees when both explanations put the same feature there
    *and* give it the same dense rank (OpenXAI's code; without ties the
    second condition follows from the first).  See :ref:`def-topk-agreement`
    in the user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    k : int, float or None, default=None
        A single cut-off: ``-1`` for all features, an int in
        ``[1, n_features]`` or a fraction in ``(0, 1]`` rounded up (see
        :func:`sklearn_xai.utils.resolve_k`).  Giving ``k`` scores at that
        ``k`` (``auc`` then defaults to False).
    auc : bool or None, default=None
        Return the area under the metric-versus-``k`` curve for
        ``k = 1..k_max`` (trapezoid rule on ``t = (k-1)/(K-1)``, so a value in
        ``[0, 1]``; see :ref:`def-auc-k`).  ``None`` means ``True`` unless ``k`` is
        given.  With ``auc=False`` and ``k=None`` the score is taken at
        ``k_max``.
    k_max : int or float, default=0.25
        Largest ``k`` of the curve.  ``0.25`` (``ceil(d/4)``, e.g. 5 of 20
        features) is what OpenXAI's code and published tables use; ``-1``
        gives the paper's "all values of k".

    {returns_agreement}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import rank_agreement
    >>> g, a = [[3.0, -2.0, 1.0, 0.0]], [[4.0, 0.0, 2.0, 1.0]]
    >>> rank_agreement(g, a, k=3)  # position 1 agrees, 2 and 3 do not
    array([0.33333333])
    """
    return _topk_agreement(ground_truth, attributions, "rank", k, auc, k_max)


@validate_params(_TOPK_PARAMS, prefer_skip_nested_validation=True)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_agreement"))
def sign_agreement(ground_truth, attributions, *, k=None, auc=None, k_max=0.25):
    """Sign agreement: shared top-k features that also share their sign (OpenXAI SA).

    ``SA@k = |{(j, sgn a_j): j in T_k(a)} ∩ {(j, sgn g_j): j in T_k(g)}| / k``
    (position-free; ``sgn 0 = 0``).  See :ref:`def-topk-agreement` in the
    user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    k : int, float or None, default=None
        A single cut-off: ``-1`` for all features, an int in
        ``[1, n_features]`` or a fraction in ``(0, 1]`` rounded up (see
        :func:`sklearn_xai.utils.resolve_k`).  Giving ``k`` scores at that
        ``k`` (``auc`` then defaults to False).
    auc : bool or None, default=None
        Return the area under the metric-versus-``k`` curve for
        ``k = 1..k_max`` (trapezoid rule on ``t = (k-1)/(K-1)``, so a value in
        ``[0, 1]``; see :ref:`def-auc-k`).  ``None`` means ``True`` unless ``k`` is
        given.  With ``auc=False`` and ``k=None`` the score is taken at
        ``k_max``.
    k_max : int or float, default=0.25
        Largest ``k`` of the curve.  ``0.25`` (``ceil(d/4)``, e.g. 5 of 20
        features) is what OpenXAI's code and published tables use; ``-1``
        gives the paper's "all values of k".

    {returns_agreement}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import sign_agreement
    >>> g, a = [[3.0, -2.0, 1.0, 0.0]], [[1.0, 2.0, 0.0, 0.5]]
    >>> sign_agreement(g, a, k=2)  # feature 1 is shared but its sign differs
    array([0.5])
    """
    return _topk_agreement(ground_truth, attributions, "sign", k, auc, k_max)


@validate_params(_TOPK_PARAMS, prefer_skip_nested_validation=True)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_agreement"))
def signed_rank_agreement(ground_truth, attributions, *, k=None, auc=None,
                          k_max=0.25):
    """Signed rank agreement: rank agreement that also requires equal signs (OpenXAI SRA).

    Position ``p`` of the top ``k`` agrees when both explanations put the
    same feature there with the same dense rank and the same sign.  See
    :ref:`def-topk-agreement` in the user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    k : int, float or None, default=None
        A single cut-off: ``-1`` for all features, an int in
        ``[1, n_features]`` or a fraction in ``(0, 1]`` rounded up (see
        :func:`sklearn_xai.utils.resolve_k`).  Giving ``k`` scores at that
        ``k`` (``auc`` then defaults to False).
    auc : bool or None, default=None
        Return the area under the metric-versus-``k`` curve for
        ``k = 1..k_max`` (trapezoid rule on ``t = (k-1)/(K-1)``, so a value in
        ``[0, 1]``; see :ref:`def-auc-k`).  ``None`` means ``True`` unless ``k`` is
        given.  With ``auc=False`` and ``k=None`` the score is taken at
        ``k_max``.
    k_max : int or float, default=0.25
        Largest ``k`` of the curve.  ``0.25`` (``ceil(d/4)``, e.g. 5 of 20
        features) is what OpenXAI's code and published tables use; ``-1``
        gives the paper's "all values of k".

    {returns_agreement}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import signed_rank_agreement
    >>> g, a = [[3.0, -2.0, 1.0, 0.0]], [[3.0, 2.0, 1.0, 0.0]]
    >>> signed_rank_agreement(g, a, k=-1)
    array([0.75])
    """
    return _topk_agreement(ground_truth, attributions, "signed_rank", k, auc, k_max)


# ------------------------------------------------------------ rank statistics
@validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "ranks": [StrOptions({"dense", "average"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_correlation"))
def rank_correlation(ground_truth, attributions, *, ranks="dense", nan_policy="omit"):
    """Rank correlation: Pearson correlation of the magnitude ranks (OpenXAI RC).

    ``RC = Pearson(r(|a|), r(|g|))`` over all features.  With
    ``ranks="dense"`` (OpenXAI) equal magnitudes share a rank and ranks are
    consecutive; ``ranks="average"`` is the textbook Spearman correlation
    (tied magnitudes get the mean of their positions, as
    :func:`scipy.stats.spearmanr`).  See :ref:`def-rank-correlation` in the
    user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    ranks : {"dense", "average"}, default="dense"
        How tied magnitudes are ranked.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row whose magnitudes are all equal (in either explanation) has no
        correlation: ``"omit"`` returns NaN with a warning, ``"zero"``
        scores it 0, ``"raise"`` raises.

    {returns_correlation}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import rank_correlation
    >>> g = [[4.0, -3.0, 2.0, 1.0]]
    >>> rank_correlation(g, [[1.0, 2.0, -3.0, 4.0]])
    array([-1.])
    >>> rank_correlation(g, [[4.0, 2.0, 2.0, 0.0]], ranks="average").round(4)
    array([0.9487])
    """
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    if ranks == "dense":
        ra, rg = dense_rank(A), dense_rank(G)
    else:
        ra = rankdata(-np.abs(A), method="average", axis=1)
        rg = rankdata(-np.abs(G), method="average", axis=1)
    # Constancy is judged on the magnitudes, not on their ranks: rounding
    # noise on equal magnitudes would rank as an ordering.
    return correlate_ranks(ra, rg, np.abs(A), np.abs(G), nan_policy=nan_policy,
                           what="rank_correlation")


@validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "convention": [StrOptions({"openxai_code", "paper"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("ground_truth",
              metric_references=_references("agarwal2022", "krishna2022"),
              **_shared_docs("returns_scores_greater"))
def pairwise_rank_agreement(ground_truth, attributions, *, convention="openxai_code",
                            nan_policy="omit"):
    """Pairwise rank agreement: fraction of feature pairs ordered alike (OpenXAI PRA).

    ``PRA = C(d, 2)^-1 sum_{j<l} 1[(r_j(a) < r_l(a)) = (r_j(g) < r_l(g))]``
    with dense magnitude ranks (rank 1 = largest).  See :ref:`def-pra` in
    the user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    convention : {"openxai_code", "paper"}, default="openxai_code"
        How pairs with tied ranks count.  ``"openxai_code"`` (the default,
        which reproduces OpenXAI's code and tables): a pair tied in one
        vector counts as "not less", so it agrees only when the other vector
        also has ``r_j >= r_l`` (not symmetric in ``j, l``).  ``"paper"``:
        a pair tied in the reference has no order to agree with and is left
        out of both numerator and denominator (Kendall-style; recommended
        for masked references, where most entries are tied at 0).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        With ``convention="paper"``, a reference whose entries are all tied
        leaves no pair: NaN with a warning (``"omit"``), 0 or an error.

    {returns_scores_greater}

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import pairwise_rank_agreement
    >>> g = [[3.0, 1.0, 1.0]]
    >>> pairwise_rank_agreement(g, [[3.0, 2.0, 1.0]])  # pair (1, 2) tied in g
    array([0.66666667])
    >>> pairwise_rank_agreement(g, [[3.0, 2.0, 1.0]], convention="paper")
    array([1.])
    """
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    n, d = A.shape
    if d < 2:
        raise ValueError("pairwise_rank_agreement needs at least 2 features.")
    ra, rg = dense_rank(A), dense_rank(G)
    j, l = np.triu_indices(d, k=1)
    agree = np.empty(n)
    counted = np.empty(n)
    # Blocks of rows whose (rows, pairs) temporaries hold about BLOCK_ENTRIES
    # entries.
    for sl in block_slices(n, j.size, 1):
        less_a = ra[sl][:, j] < ra[sl][:, l]
        less_g = rg[sl][:, j] < rg[sl][:, l]
        same = less_a == less_g
        if convention == "paper":
            valid = rg[sl][:, j] != rg[sl][:, l]
            agree[sl] = (same & valid).sum(axis=1)
            counted[sl] = valid.sum(axis=1)
        else:
            agree[sl] = same.sum(axis=1)
            counted[sl] = j.size
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = agree / counted
    return handle_undefined(scores, counted == 0, nan_policy, "pairwise_rank_agreement",
                            "constant input")


# ------------------------------------------------------- teex: vector and mask
@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "bounding": [StrOptions({"none", "abs", "max"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("ground_truth", metric_references=_references("antonanzas2023"))
def cosine_similarity(ground_truth, attributions, *, bounding="none",
                      nan_policy="omit"):
    """Cosine similarity of each explanation with its reference (teex).

    ``cos(a, g) = <a, g> / (||a||_2 ||g||_2)`` per row: 1 when the
    explanation is a positive multiple of the reference, -1 when it points
    the opposite way, 0 when orthogonal.  See :ref:`def-cosine-similarity`
    in the user guide.

    Parameters
    ----------
    {ground_truth}
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    bounding : {"none", "abs", "max"}, default="none"
        ``"none"``: the signed cosine in ``[-1, 1]``.  teex bounds it to
        ``[0, 1]``: ``"abs"`` (teex's default) takes ``|cos|``, so that an
        explanation of the opposite sign scores 1; ``"max"`` takes
        ``max(cos, 0)``.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row where either vector is all zero has no direction: NaN with a
        warning, 0, or an error (teex adds ``1e-4`` to a random entry
        instead).

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row cosine; greater is better.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import cosine_similarity
    >>> g = [1.0, 0.0, 1.0]  # one reference for every row
    >>> cosine_similarity(g, [[2.0, 0.0, 2.0], [-1.0, 0.0, -1.0]])
    array([ 1., -1.])
    >>> cosine_similarity(g, [[-1.0, 0.0, -1.0]], bounding="abs")
    array([1.])
    """
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    norms = np.linalg.norm(A, axis=1) * np.linalg.norm(G, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.einsum("ij,ij->i", A, G) / norms
    # Rounding may push |cos| a hair above 1.
    scores = np.clip(scores, -1.0, 1.0)
    if bounding == "abs":
        scores = np.abs(scores)
    elif bounding == "max":
        scores = np.maximum(scores, 0.0)
    return handle_undefined(scores, norms == 0, nan_policy, "cosine_similarity",
                            "all-zero explanation or reference")


def _binarise(V, threshold, threshold_type, normalize):
    """Rows of ``V`` thresholded to a boolean mask, after scaling each row by
    its largest magnitude when ``normalize``."""
    if normalize:
        peak = np.abs(V).max(axis=1, keepdims=True)
        V = np.divide(V, peak, out=np.zeros_like(V), where=peak > 0)
    return (np.abs(V) if threshold_type == "abs" else V) > threshold


def _confusion(ground_truth, attributions, threshold, threshold_type, normalize):
    """Per-row true positives, predicted positives and true positives of the
    thresholded attributions against the (binarised) ground truth."""
    if threshold_type == "abs" and threshold < 0:
        raise ValueError(
            f"threshold must be >= 0 with threshold_type='abs' (it bounds |a|); got "
            f"{threshold}. Use threshold_type='signed' for a negative threshold."
        )
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    pred = _binarise(A, threshold, threshold_type, normalize)
    binary_rows = np.isin(G, (0.0, 1.0)).all(axis=1, keepdims=True)
    true = np.where(binary_rows, G != 0,
                    _binarise(G, threshold, threshold_type, normalize))
    tp = np.count_nonzero(pred & true, axis=1).astype(np.float64)
    return tp, pred.sum(axis=1), true.sum(axis=1)


_THRESHOLD_PARAMS = {
    "ground_truth": ["array-like"],
    "attributions": ["array-like"],
    "threshold": [Interval(numbers.Real, None, None, closed="neither")],
    "threshold_type": [StrOptions({"abs", "signed"})],
    "normalize": ["boolean"],
    "nan_policy": [StrOptions({"omit", "zero", "raise"})],
}

_THRESHOLD_DOC = """ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
    The true relevant features: a 0/1 (or boolean) mask, or true
    attributions, one row per explained row; a single row is broadcast to
    every row.  A row whose entries are all 0 or 1 is used as the mask; any
    other row is binarised like the attributions.
attributions : array-like of shape (n_samples, n_features)
    The explanations to score.
threshold : float, default=0.5
    A feature is selected when its (scaled) attribution exceeds it: teex's
    ``binThreshold``.
threshold_type : {"abs", "signed"}, default="abs"
    Compare ``|a_j|`` (``"abs"``, teex's default) or ``a_j`` itself
    (``"signed"``, teex's ``"thres"``: negative attributions are never
    selected) with ``threshold``.
normalize : bool, default=True
    Divide each row by its largest magnitude first, so that the threshold is
    a fraction of the row's peak (``0.5``: at least half the largest
    attribution) and the score does not depend on the attribution scale.
    ``False`` thresholds the raw values."""


def _threshold_doc(func):
    func.__doc__ = func.__doc__.replace(
        "    {threshold_params}", indent(_THRESHOLD_DOC, "    "))
    return func


@fast_validate_params(_THRESHOLD_PARAMS, prefer_skip_nested_validation=True)
@_threshold_doc
@Substitution(metric_references=_references("antonanzas2023"),
              **_shared_docs("returns_precision"))
def gt_precision(ground_truth, attributions, *, threshold=0.5, threshold_type="abs",
                 normalize=True, nan_policy="omit"):
    """Precision of the thresholded explanation against the ground truth (teex).

    The features an explanation selects, ``P = {j : |a_j| / max_l |a_l| >
    threshold}``, are compared with the true relevant features ``T`` (a mask,
    or true attributions binarised the same way): ``precision = |P ∩ T| /
    |P|``, the share of the selected features that are relevant.  See
    :ref:`def-gt-classification` in the user guide.

    Parameters
    ----------
    {threshold_params}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row that selects no feature (an all-zero explanation) has no
        precision: NaN with a warning, 0, or an error.

    {returns_precision}

    See Also
    --------
    gt_recall, gt_f1

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import gt_precision
    >>> mask = [[1, 1, 0, 0]]
    >>> gt_precision(mask, [[1.0, 0.2, -0.8, 0.1]])  # selects f0 and f2
    array([0.5])
    """
    tp, n_pred, _ = _confusion(ground_truth, attributions, threshold, threshold_type,
                               normalize)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = tp / n_pred
    return handle_undefined(scores, n_pred == 0, nan_policy, "gt_precision",
                            "no feature selected")


@fast_validate_params(_THRESHOLD_PARAMS, prefer_skip_nested_validation=True)
@_threshold_doc
@Substitution(metric_references=_references("antonanzas2023"))
def gt_recall(ground_truth, attributions, *, threshold=0.5, threshold_type="abs",
              normalize=True, nan_policy="omit"):
    """Recall of the thresholded explanation against the ground truth (teex).

    With the selected features ``P`` and the relevant features ``T`` of
    :func:`gt_precision`: ``recall = |P ∩ T| / |T|``, the share of the
    relevant features that the explanation selects.  See
    :ref:`def-gt-classification` in the user guide.

    Parameters
    ----------
    {threshold_params}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row without relevant feature (an empty mask) has no recall: NaN
        with a warning, 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row recall in ``[0, 1]``; greater is better.

    See Also
    --------
    gt_precision, gt_f1

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import gt_recall
    >>> mask = [[1, 1, 0, 0]]
    >>> gt_recall(mask, [[1.0, 0.2, -0.8, 0.1]])  # finds f0, misses f1
    array([0.5])
    """
    tp, _, n_true = _confusion(ground_truth, attributions, threshold, threshold_type,
                               normalize)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = tp / n_true
    return handle_undefined(scores, n_true == 0, nan_policy, "gt_recall",
                            "no relevant feature")


@fast_validate_params(_THRESHOLD_PARAMS, prefer_skip_nested_validation=True)
@_threshold_doc
@Substitution(metric_references=_references("antonanzas2023"))
def gt_f1(ground_truth, attributions, *, threshold=0.5, threshold_type="abs",
          normalize=True, nan_policy="omit"):
    """F1 score of the thresholded explanation against the ground truth (teex).

    The harmonic mean of :func:`gt_precision` and :func:`gt_recall`,
    ``F1 = 2 |P ∩ T| / (|P| + |T|)`` (0 when one of them is 0).  See
    :ref:`def-gt-classification` in the user guide.

    Parameters
    ----------
    {threshold_params}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row that selects no feature and has no relevant feature has no
        score: NaN with a warning, 0, or an error.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row F1 in ``[0, 1]``; greater is better.

    See Also
    --------
    gt_precision, gt_recall

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import gt_f1
    >>> truth = [[0.9, -0.6, 0.1, 0.0]]  # true attributions: f0 and f1 relevant
    >>> gt_f1(truth, [[1.0, 0.2, -0.8, 0.1]])  # selects f0 and f2
    array([0.5])
    """
    tp, n_pred, n_true = _confusion(ground_truth, attributions, threshold,
                                    threshold_type, normalize)
    denom = n_pred + n_true
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = 2.0 * tp / denom
    return handle_undefined(scores, denom == 0, nan_policy, "gt_f1",
                            "no feature selected and no relevant feature")


@fast_validate_params(
    {
        "ground_truth": ["array-like"],
        "attributions": ["array-like"],
        "k": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "order_by": [StrOptions({"abs", "signed"})],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("deyoung2020", "attanasio2023"))
def token_f1(ground_truth, attributions, *, k=None, order_by="signed",
             nan_policy="omit"):
    """Token F1: the top-k tokens of the explanation against the rationale.

    The ``k`` positions of largest attribution ``P`` (ties to the lower
    position) are compared with the ground-truth tokens ``T`` (a mask, or
    true attributions' non-zero entries): ``F1 = 2 |P ∩ T| / (|P| + |T|)``.
    ``k=None`` takes ``k = |T|`` per row, where precision, recall and F1
    coincide.  ERASER's token-level F1 of a hard rationale, with ferret's
    top-k discretisation of soft scores.  See :ref:`text` in the user guide.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features)
        The rationale: a 0/1 or boolean mask of the relevant tokens, or true
        attributions (their non-zero entries are relevant).
    attributions : array-like of shape (n_samples, n_features)
        Explanations to score (padding positions should hold 0).
    k : int or None, default=None
        Size of the selected set; ``None`` is the size of each row's
        rationale.
    order_by : {"signed", "abs"}, default="signed"
        Select the largest attributions (the tokens supporting the explained
        class, as ferret) or the largest magnitudes.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row whose rationale is empty with ``k=None`` has no score.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row F1 in ``[0, 1]``; greater is better.

    See Also
    --------
    gt_f1 : F1 of a thresholded explanation.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import token_f1
    >>> rationale = [[0, 1, 1, 0, 0]]
    >>> token_f1(rationale, [[0.1, 0.9, -0.5, 0.4, 0.0]])  # top 2: tokens 1 and 3
    array([0.5])
    """
    A = check_attributions(attributions)
    G = check_reference(ground_truth, A)
    true = G != 0
    n_true = true.sum(axis=1)
    K = n_true if k is None else np.full(A.shape[0], min(int(k), A.shape[1]))
    rank = positions(magnitude_order(A, order_by=order_by))
    selected = rank < K[:, None]
    tp = (selected & true).sum(axis=1)
    denom = K + n_true
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = 2.0 * tp / denom
    return handle_undefined(scores, denom == 0, nan_policy, "token_f1",
                            "an empty rationale")


register_metric(
    "token_f1", token_f1, kind="reference", greater_is_better=True,
    requires=("ground_truth",), source="ERASER",
    description="F1 of the top-k tokens against the ground-truth rationale.",
)


# ----------------------------------------------------------- model references
def _linear_weights(estimator, X, target):
    """Per-row coefficient vectors of the explained linear output, shape (n, d).

    Regressors: ``coef_``.  Classifiers: the coefficients of the explained
    class's decision function (binary models: ``+coef_`` for
    ``classes_[1]`` and ``-coef_`` for ``classes_[0]``, as
    :class:`~sklearn_xai.utils.ExplainedOutput` with ``output="decision"``).
    """
    model = unfreeze(estimator)
    if not hasattr(model, "coef_"):
        check_is_fitted(model)
        raise TypeError(
            f"{type(model).__name__} has no coef_: a model reference needs a fitted "
            "linear model (LinearRegression, Ridge, LogisticRegression, ...). For a "
            "Pipeline, explain the final linear step on the transformed features."
        )
    X = check_attributions(X, name="X")
    coef = np.atleast_2d(np.asarray(model.coef_, dtype=np.float64))
    if X.shape[1] != coef.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but the model's coef_ has "
            f"{coef.shape[1]}."
        )
    if not hasattr(model, "classes_"):
        check_single_output_target(target, model)
        if coef.shape[0] != 1:
            raise ValueError(
                "Multi-output regressors are not supported: the explained output "
                "must be one scalar per row."
            )
        return X, np.broadcast_to(coef[0], X.shape)
    f = ExplainedOutput(model, target=target, output="decision")
    t = f.target_index(X)
    W = np.vstack([-coef[0], coef[0]]) if coef.shape[0] == 1 else coef
    return X, W[t]


@validate_params(
    {"estimator": [object], "X": ["array-like"], "target": [object]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("agarwal2022"))
def linear_model_reference(estimator, X, *, target="predicted"):
    """OpenXAI's model reference: the explained class's coefficient vector, per row.

    For a binary logistic regression OpenXAI uses ``W_1 - W_0`` times
    ``(2 ŷ - 1)`` for the predicted class ``ŷ``; with scikit-learn's single
    coefficient row ``w = W_1 - W_0`` that is ``+w`` for rows predicted as
    ``classes_[1]`` and ``-w`` for the others.  Every gradient explanation of
    such a model scores 1 against it.  Multi-class linear models give the
    coefficient row of the explained class's decision function; regressors
    give ``coef_`` for every row.  See :ref:`def-model-reference` in the user
    guide.

    Parameters
    ----------
    estimator : fitted linear model
        Any estimator with ``coef_`` (a ``FrozenEstimator`` is unwrapped).
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    target : "predicted", int, label or array-like, default="predicted"
        Explained class (see :class:`sklearn_xai.utils.ExplainedOutput`);
        a regressor has one output, so only ``"predicted"`` applies to it.

    Returns
    -------
    reference : ndarray of shape (n_samples, n_features)

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import linear_model_reference
    >>> X = np.array([[-2.0, 0.0], [-1.0, 1.0], [1.0, 0.0], [2.0, 1.0]])
    >>> clf = LogisticRegression().fit(X, [0, 0, 1, 1])
    >>> ref = linear_model_reference(clf, X)
    >>> bool(np.allclose(ref[2:], clf.coef_) and np.allclose(ref[:2], -clf.coef_))
    True
    """
    _, W = _linear_weights(estimator, X, target)
    return np.array(W, dtype=np.float64)


@validate_params(
    {"estimator": [object], "X": ["array-like"], "mean": ["array-like", None],
     "target": [object]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("lundberg2017"))
def linear_shapley_reference(estimator, X, mean=None, *, target="predicted"):
    """Exact Shapley values of a linear model under independent features.

    For ``f(x) = w·x + b`` and independent features (or any distribution
    with the interventional value function) the Shapley value of feature
    ``j`` is ``w_j (x_j - E[X_j])`` exactly.  For classifiers the explained
    output is the decision function (logit) of the explained class, which is
    linear; probabilities are not.  See :ref:`def-shapley` in the user guide.

    Parameters
    ----------
    estimator : fitted linear model
        Any estimator with ``coef_`` (a ``FrozenEstimator`` is unwrapped).
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    mean : array-like of shape (n_features,), default=None
        ``E[X]`` under the data distribution (e.g. the generator's
        distribution mean, or the training-set mean).  ``None`` uses the
        mean of ``X`` itself, which is only right when ``X`` is a large
        sample of the distribution.
    target : "predicted", int, label or array-like, default="predicted"
        Explained class; a regressor has one output, so only
        ``"predicted"`` applies to it.

    Returns
    -------
    reference : ndarray of shape (n_samples, n_features)
        Satisfies ``reference.sum(axis=1) == f(X) - f(mean)``.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import linear_shapley_reference
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> model = LinearRegression().fit(X, X @ [2.0, -1.0] + 3.0)
    >>> linear_shapley_reference(model, [[1.0, 1.0]], mean=[0.0, 0.0]).round(6)
    array([[ 2., -1.]])
    """
    X, W = _linear_weights(estimator, X, target)
    if mean is None:
        mu = X.mean(axis=0)
    else:
        mu = np.asarray(mean, dtype=np.float64).ravel()
        if mu.shape != (X.shape[1],) or not np.all(np.isfinite(mu)):
            raise ValueError(
                f"mean must be a finite vector of length {X.shape[1]} (E[X] of each "
                f"feature); got shape {np.shape(mean)}."
            )
    return W * (X - mu)


# --------------------------------------------------------------------- registry
_REGISTERED = [
    ("feature_agreement", feature_agreement,
     "Fraction of the top-k features shared with the reference (AUC over k)."),
    ("rank_agreement", rank_agreement,
     "Fraction of top-k positions holding the same feature as the reference."),
    ("sign_agreement", sign_agreement,
     "Fraction of top-k features shared with the reference with the same sign."),
    ("signed_rank_agreement", signed_rank_agreement,
     "Fraction of top-k positions holding the same feature with the same sign."),
    ("rank_correlation", rank_correlation,
     "Pearson correlation of dense magnitude ranks with the reference."),
    ("pairwise_rank_agreement", pairwise_rank_agreement,
     "Fraction of feature pairs ordered as in the reference."),
]
for _name, _func, _desc in _REGISTERED:
    register_metric(
        _name, _func, kind="reference", greater_is_better=True,
        requires=("ground_truth",), source="OpenXAI", description=_desc,
    )
_TEEX = [
    ("cosine_similarity", cosine_similarity,
     "Cosine of the angle between the explanation and the reference."),
    ("gt_precision", gt_precision,
     "Share of the features selected by the thresholded explanation that are relevant."),
    ("gt_recall", gt_recall,
     "Share of the relevant features that the thresholded explanation selects."),
    ("gt_f1", gt_f1,
     "F1 score of the thresholded explanation against the relevant features."),
]
for _name, _func, _desc in _TEEX:
    register_metric(
        _name, _func, kind="reference", greater_is_better=True,
        requires=("ground_truth",), source="teex", description=_desc,
    )

# Moved to the localisation family; kept importable from here.
from sklearn_xai.metrics._localisation import top_k_intersection  # noqa: E402,F401
