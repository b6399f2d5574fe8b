"""Metrics of the attributions alone: entropy complexity, Gini sparseness
(BEExAI) and effective complexity (Quantus); definitions in the user guide,
:ref:`def-attribution-metrics` and :ref:`def-effective-complexity`."""

import numbers

import numpy as np

from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._sklearn import (
    Interval,
    StrOptions,
    fast_validate_params,
    validate_params,
)
from sklearn_xai.utils._stats import handle_undefined
from sklearn_xai.utils._validation import check_attributions

__all__ = ["complexity", "effective_complexity", "sparseness"]


@validate_params(
    {
        "attributions": ["array-like"],
        "normalize": [StrOptions({"log_d", "none"})],
        "convention": [StrOptions({"paper", "beexai_code"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("bhatt2020", "sithakoul2024"))
def complexity(attributions, *, normalize="log_d", convention="paper"):
    """Entropy complexity of each explanation (Bhatt et al. 2020).

    With ``P_j = |a_j| / sum_l |a_l|`` and ``H = -sum_j P_j ln P_j``
    (``0 ln 0 = 0``): ``normalize="log_d"`` returns ``H / ln d`` in
    ``[0, 1]`` (0 for a one-hot explanation, 1 for uniform magnitudes);
    ``"none"`` returns ``H`` in nats (Quantus).  An all-zero explanation has
    no distribution: NaN, with an
    :class:`~sklearn_xai.metrics.UndefinedScoreWarning`.
    ``convention="beexai_code"`` returns BEExAI's
    ``H / d`` instead, with ``1e-8`` added inside the log and to the
    denominator of ``P`` (0 for an all-zero explanation).  See
    :ref:`def-complexity` in the user guide.

    Parameters
    ----------
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    normalize : {"log_d", "none"}, default="log_d"
        Divide the entropy by its maximum ``ln d`` (``"log_d"``) or not
        (``"none"``).
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: the entropy above, normalised by ``normalize``.
        ``"beexai_code"``: BEExAI's code, ``H / d`` with its ``1e-8``
        offsets (the paper promises a score in ``[0, 1]``; ``normalize`` is
        then ignored).

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better (simpler explanations).

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import complexity
    >>> complexity([[1.0, 0.0, 0.0], [2.0, -2.0, 2.0]])
    array([0., 1.])
    """
    A = np.abs(check_attributions(attributions))
    d = A.shape[1]
    total = A.sum(axis=1, keepdims=True)
    if convention == "beexai_code":
        P = A / (total + 1e-8)
        return -(P * np.log(P + 1e-8)).sum(axis=1) / d
    with np.errstate(invalid="ignore", divide="ignore"):
        P = A / total
        logP = np.where(P > 0, np.log(np.where(P > 0, P, 1.0)), 0.0)
    H = 0.0 - (P * logP).sum(axis=1)  # 0.0 - x avoids -0.0
    H = handle_undefined(H, total[:, 0] == 0, what="complexity",
                         reason="all-zero attributions", policy_param=False,
                         stacklevel=4)
    if normalize == "none":
        return H
    if d < 2:
        raise ValueError("complexity with normalize='log_d' needs at least 2 features.")
    return H / np.log(d)


@validate_params(
    {"attributions": ["array-like"], "normalize": ["boolean"],
     "convention": [StrOptions({"paper", "beexai_code"})]},
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("chalasani2020", "sithakoul2024"))
def sparseness(attributions, *, normalize=False, convention="paper"):
    """Gini sparseness of each explanation (Chalasani et al. 2020).

    Sort ``v = |a|`` ascending; ``G = 1 - 2 sum_k v_(k)/||v||_1 * (d - k + 1/2)/d``.
    Uniform magnitudes give 0 and a one-hot explanation ``1 - 1/d``; with
    ``normalize=True`` the score is divided by ``1 - 1/d`` to reach ``[0, 1]``.
    The default matches BEExAI and Quantus exactly on explanations with a
    nonzero attribution.  An all-zero explanation has no distribution of
    magnitudes: NaN, with an
    :class:`~sklearn_xai.metrics.UndefinedScoreWarning`.
    ``convention="beexai_code"`` adds BEExAI's ``1e-8``
    to the denominator, which scores an all-zero explanation 1, the
    sparsest possible (Captum's LIME, a Lasso, returns such rows).  See
    :ref:`def-sparseness` in the user guide.

    Parameters
    ----------
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    normalize : bool, default=False
        Divide by the maximum ``1 - 1/d`` (a one-hot explanation) to reach
        ``[0, 1]``.  Not with ``convention="beexai_code"``.
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: the index above, NaN (with a warning) for an all-zero
        explanation.
        ``"beexai_code"``: BEExAI's code (``evaluate/metrics/sparseness.py``),
        ``1 - 2 sum_k (d - k + 1/2) v_(k) / (d ||v||_1 + 1e-8)``: 1 for an
        all-zero explanation, the same index otherwise (to about
        ``1e-8 / (d ||v||_1)``).

        .. versionadded:: 0.1

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Greater is better (sparser explanations).

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import sparseness
    >>> sparseness([[0.0, 0.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0]])
    array([0.75, 0.  ])
    """
    v = np.sort(np.abs(check_attributions(attributions)), axis=1)
    d = v.shape[1]
    total = v.sum(axis=1)
    k = np.arange(1, d + 1)
    if convention == "beexai_code":
        if normalize:
            raise ValueError(
                "sparseness: normalize=True is not part of BEExAI's code; pass "
                "normalize=False with convention='beexai_code', or use "
                "convention='paper'.")
        return 1.0 - 2.0 * (v * (d - k + 0.5)).sum(axis=1) / (total * d + 1e-8)
    with np.errstate(invalid="ignore", divide="ignore"):
        G = 1.0 - 2.0 * ((v / total[:, None]) * ((d - k + 0.5) / d)).sum(axis=1)
    G = handle_undefined(G, total == 0, what="sparseness",
                         reason="all-zero attributions", policy_param=False,
                         stacklevel=4)
    if normalize:
        if d < 2:
            raise ValueError("sparseness with normalize=True needs at least 2 features.")
        G = G / (1.0 - 1.0 / d)
    return G


@fast_validate_params(
    {
        "attributions": ["array-like"],
        "eps": [Interval(numbers.Real, 0, None, closed="left")],
        "normalize": ["boolean"],
        "fraction": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("nguyen2020", "hedstrom2023"))
def effective_complexity(attributions, *, eps=1e-5, normalize=True, fraction=False):
    """Effective complexity: the number of features with a non-negligible attribution.

    ``EC(a) = |{j : |a_j| / max_l |a_l| > eps}|`` with ``normalize=True``
    (``|a_j| > eps`` otherwise), after Nguyen and Martínez (2020) as
    implemented by Quantus' ``EffectiveComplexity``.  A sparse explanation
    needs few features to be read.  See :ref:`def-effective-complexity` in
    the user guide.

    Parameters
    ----------
    attributions : array-like of shape (n_samples, n_features)
        The explanations to score.
    eps : float, default=1e-5
        Magnitudes at or below ``eps`` count as zero (Quantus' default).
    normalize : bool, default=True
        Divide each row by its largest magnitude first, so that ``eps`` is a
        fraction of the row's peak and the count does not depend on the
        attribution scale.  Quantus divides by the largest magnitude of the
        whole batch instead, which makes a row's count depend on the other
        rows; ``False`` compares the raw magnitudes with ``eps``.
    fraction : bool, default=False
        Return the count divided by ``n_features``, in ``[0, 1]``.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row count (or fraction) of features; lower is better.  An
        all-zero explanation scores 0.

    See Also
    --------
    sparseness : Gini index of the magnitudes (a continuous counterpart).
    complexity : Entropy of the normalised magnitudes.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import effective_complexity
    >>> A = [[3.0, -1e-7, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0]]
    >>> effective_complexity(A)
    array([2., 0.])
    >>> effective_complexity(A, fraction=True)
    array([0.5, 0. ])
    """
    A = np.abs(check_attributions(attributions))
    # |a_j| / peak > eps, without the division (an all-zero row counts 0).
    cut = eps * A.max(axis=1, keepdims=True) if normalize else eps
    scores = np.count_nonzero(A > cut, axis=1).astype(np.float64)
    if fraction:
        scores /= A.shape[1]
    return scores


register_metric(
    "neg_complexity", complexity, kind="attributions", greater_is_better=False,
    source="BEExAI", description="Entropy of the normalised attribution magnitudes.",
)
register_metric(
    "sparseness", sparseness, kind="attributions", greater_is_better=True,
    source="BEExAI", description="Gini index of the attribution magnitudes.",
)
register_metric(
    "neg_effective_complexity", effective_complexity, kind="attributions",
    greater_is_better=False, source="Quantus",
    description="Number of features whose attribution magnitude exceeds eps.",
)
