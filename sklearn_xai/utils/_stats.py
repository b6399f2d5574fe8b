"""Row-wise statistics of scores and the policy for undefined scores.

Metrics score every row on its own; some rows have no defined score (a
correlation with a constant vector, an empty mask, no valid perturbation).
One policy handles them everywhere (:func:`handle_undefined`): NaN with an
:class:`UndefinedScoreWarning` (``nan_policy="omit"``, the default; the
scorers leave NaN rows out of the mean), 0 (``"zero"``), or an error
(``"raise"``).
"""

import warnings

import numpy as np
from scipy.stats import rankdata
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_xai.utils._docstring import Substitution

__all__ = [
    "CONSTANT_RTOL",
    "NAN_POLICIES",
    "UndefinedScoreWarning",
    "handle_undefined",
    "nearly_constant",
    "row_pearson",
    "row_spearman",
]

NAN_POLICIES = ("omit", "zero", "raise")

#: Relative spread below which a row counts as constant (:func:`nearly_constant`).
CONSTANT_RTOL = 1e-10


class UndefinedScoreWarning(UndefinedMetricWarning, RuntimeWarning):
    """Warning that some rows have no defined score and are NaN.

    A subclass of scikit-learn's :class:`~sklearn.exceptions.UndefinedMetricWarning`
    (hence a ``UserWarning``) and of ``RuntimeWarning``, so filters written
    for either keep working.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_xai.metrics import UndefinedScoreWarning
    >>> warnings.filterwarnings("ignore", category=UndefinedScoreWarning)
    """


def handle_undefined(scores, undefined, nan_policy="omit", what="The score",
                     reason="undefined input", *, policy_param=True, stacklevel=3):
    """Apply a NaN policy to the rows where a score is undefined.

    Parameters
    ----------
    scores : ndarray of shape (n_samples,)
        The scores (not modified).
    undefined : ndarray of bool, shape (n_samples,)
        The rows without a defined score.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        ``"omit"``: NaN, with an :class:`UndefinedScoreWarning`; ``"zero"``:
        0; ``"raise"``: a ``ValueError``.
    what : str, default="The score"
        The metric's name, for the messages.
    reason : str, default="undefined input"
        Why such rows are undefined, for the messages.
    policy_param : bool, default=True
        Whether the metric takes a ``nan_policy`` parameter (the warning
        then says how to score such rows 0).
    stacklevel : int, default=3
        Passed to :func:`warnings.warn`.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        ``scores`` itself when every row is defined, else a copy.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._stats import handle_undefined
    >>> s = np.array([0.5, 0.0])
    >>> handle_undefined(s, s == 0, "zero", what="m", reason="empty").tolist()
    [0.5, 0.0]
    """
    if nan_policy not in NAN_POLICIES:
        raise ValueError(f"nan_policy must be one of {NAN_POLICIES}, got {nan_policy!r}.")
    n_bad = int(np.count_nonzero(undefined))
    if n_bad == 0:
        return scores
    size = np.size(scores)
    if nan_policy == "raise":
        raise ValueError(
            f"{what} is undefined for {n_bad} of {size} rows ({reason}); pass "
            "nan_policy='omit' (NaN, the default) or 'zero'."
        )
    scores = np.array(scores, dtype=np.float64, copy=True)
    if nan_policy == "zero":
        scores[undefined] = 0.0
        return scores
    scores[undefined] = np.nan
    hint = " Use nan_policy='zero' to score them 0." if policy_param else ""
    warnings.warn(
        f"{what} is undefined for {n_bad} of {size} rows ({reason}); they are NaN "
        f"(the scorers leave them out of the mean).{hint}",
        UndefinedScoreWarning,
        stacklevel=stacklevel,
    )
    return scores


def nearly_constant(u, *, axis=-1):
    """Whether ``u`` is constant along ``axis`` up to rounding.

    The one constancy test of the package's correlations: a row is constant
    when its spread ``max - min`` is at most :data:`CONSTANT_RTOL` (``1e-10``)
    times its largest magnitude.  Sums of equal attributions taken in
    different orders, or a constant saliency map computed with rounding,
    differ from one another by about ``1e-16`` relative; a correlation with
    such a row scores the rounding noise, not the explanation.

    Parameters
    ----------
    u : array-like of shape (..., n)
    axis : int, default=-1
        The axis along which the values are compared.

    Returns
    -------
    constant : ndarray of bool, shape (...), or bool
        True where ``u`` is constant (an all-zero row included).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._stats import nearly_constant
    >>> nearly_constant([[0.3, 0.1 + 0.2], [0.0, 0.0], [1.0, 1.001]])
    array([ True,  True, False])
    """
    u = np.asarray(u, dtype=np.float64)
    spread = np.ptp(u, axis=axis)
    return ~(spread > CONSTANT_RTOL * np.abs(u).max(axis=axis))


def row_pearson(u, v, *, nan_policy=None, what="The correlation"):
    """Pearson correlation of ``u`` and ``v`` along their last axis.

    Parameters
    ----------
    u, v : array-like of shape (..., n)
    nan_policy : {"omit", "zero", "raise"} or None, default=None
        What to do where either side is constant (the correlation is
        undefined): see :func:`handle_undefined`; ``None`` returns NaN there
        silently.
    what : str, default="The correlation"
        The metric's name, for the messages of ``nan_policy``.

    Returns
    -------
    r : ndarray of shape (...) or float
        In ``[-1, 1]``; NaN where either side is constant up to rounding
        (:func:`nearly_constant`: the correlation is undefined).  Invariant
        to positive affine maps of either side.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._stats import row_pearson
    >>> u = [[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]
    >>> row_pearson(u, [[2.0, 4.0, 7.0], [1.0, 2.0, 3.0]]).round(4)
    array([0.9934,    nan])
    """
    u = np.asarray(u, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    return _correlate(u, v, nearly_constant(u) | nearly_constant(v), nan_policy, what)


# The options of the rank correlations (a docstring fragment).
_RANK_CORRELATION_OPTIONS = """
    nan_policy : {"omit", "zero", "raise"} or None, default=None
        What to do where either side is constant: see :func:`row_pearson`.
    what : str, default="The correlation"
        The metric's name, for the messages of ``nan_policy``."""

@Substitution(rank_correlation_options=_RANK_CORRELATION_OPTIONS)
def row_spearman(u, v, *, nan_policy=None, what="The correlation"):
    """Spearman correlation of ``u`` and ``v`` along their last axis.

    The Pearson correlation of the ranks (ties get their average rank, as
    :func:`scipy.stats.spearmanr`).  Whether a side is constant is decided
    on its values (:func:`nearly_constant`), not on its ranks: rounding
    noise on a constant row would otherwise rank as an ordering.

    Parameters
    ----------
    u, v : array-like of shape (..., n)
    {rank_correlation_options}

    Returns
    -------
    r : ndarray of shape (...) or float
        In ``[-1, 1]``; NaN where either side is constant up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._stats import row_spearman
    >>> u = [[1.0, 2.0, 3.0], [0.3, 0.1 + 0.2, 0.3]]
    >>> row_spearman(u, [[1.0, 5.0, 4.0], [1.0, 2.0, 3.0]]).round(4)
    array([0.5, nan])
    """
    u = np.asarray(u, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    return correlate_ranks(rankdata(u, method="average", axis=-1),
                           rankdata(v, method="average", axis=-1), u, v,
                           nan_policy=nan_policy, what=what)


@Substitution(rank_correlation_options=_RANK_CORRELATION_OPTIONS)
def correlate_ranks(ranks_u, ranks_v, values_u, values_v, *, nan_policy=None,
                    what="The correlation"):
    """Pearson correlation of two rankings, undefined where the values ranked
    are constant.

    The one way the package correlates ranks (Spearman's correlation, the
    rank correlation of magnitudes): whether a side is constant is decided on
    the values that were ranked (:func:`nearly_constant`), never on their
    ranks, since rounding noise on a constant row ranks as an ordering.

    Parameters
    ----------
    ranks_u, ranks_v : array-like of shape (..., n)
        Ranks of ``values_u`` and ``values_v`` along the last axis (any
        ranking: average, dense...).
    values_u, values_v : array-like of shape (..., n)
        The values ranked.
    {rank_correlation_options}

    Returns
    -------
    r : ndarray of shape (...) or float
        In ``[-1, 1]``; NaN where either side's values are constant up to
        rounding.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._stats import correlate_ranks
    >>> values = np.array([[1.0, 1.0 + 1e-15, 1.0]])   # constant up to rounding
    >>> correlate_ranks([[2, 1, 2]], [[1, 2, 3]], values, [[3.0, 2.0, 1.0]])
    array([nan])
    """
    constant = (nearly_constant(values_u) | nearly_constant(values_v))
    return _correlate(np.asarray(ranks_u, dtype=np.float64),
                      np.asarray(ranks_v, dtype=np.float64), constant, nan_policy, what)


def _correlate(u, v, constant, nan_policy, what):
    """Pearson correlation along the last axis, NaN where ``constant``."""
    u = u - u.mean(axis=-1, keepdims=True)
    v = v - v.mean(axis=-1, keepdims=True)
    den = np.sqrt((u * u).sum(axis=-1) * (v * v).sum(axis=-1))
    num = (u * v).sum(axis=-1)
    defined = ~constant & (den > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(defined, num / np.where(defined, den, 1.0), np.nan)
    r = np.clip(r, -1.0, 1.0)
    if nan_policy is None:
        return r
    return handle_undefined(r, np.isnan(r), nan_policy, what=what, reason="constant input")
