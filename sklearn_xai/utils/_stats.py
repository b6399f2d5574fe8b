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
from sklearn.exceptions import UndefinedMetricWarning

__all__ = ["NAN_POLICIES", "UndefinedScoreWarning", "handle_undefined", "row_pearson"]

NAN_POLICIES = ("omit", "zero", "raise")


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
        In ``[-1, 1]``; NaN where either side is constant (the correlation
        is undefined).  Invariant to positive affine maps of either side.

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
    constant = None
    if nan_policy is not None:
        constant = (np.ptp(u, axis=-1) == 0) | (np.ptp(v, axis=-1) == 0)
    u = u - u.mean(axis=-1, keepdims=True)
    v = v - v.mean(axis=-1, keepdims=True)
    den = np.sqrt((u * u).sum(axis=-1) * (v * v).sum(axis=-1))
    num = (u * v).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    r = np.clip(r, -1.0, 1.0)
    if constant is None:
        return r
    return handle_undefined(r, constant, nan_policy, what=what, reason="constant input")
