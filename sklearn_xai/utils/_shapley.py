"""Shapley-value arithmetic shared by the explainers and the generators.

Coalitions are boolean masks over the features; coalition ``k`` of
:func:`all_coalitions` holds feature ``j`` when bit ``j`` of ``k`` is set.
:func:`shapley_from_values` combines the values of all coalitions exactly
(used by :class:`~sklearn_xai.explainers.ExactShapley`,
:func:`~sklearn_xai.datasets.exact_shapley_values` and the XAI-Bench
generators' ground truth); :func:`shapley_kernel` gives the weights of
KernelSHAP's and SHAPR's weighted least squares.
"""

import math

import numpy as np
from scipy.special import comb

__all__ = ["all_coalitions", "shapley_from_values", "shapley_kernel"]


def all_coalitions(n_features):
    """Boolean masks of all ``2**d`` coalitions; row ``k`` has bit ``j`` of ``k``."""
    codes = np.arange(2**n_features)
    return ((codes[:, None] >> np.arange(n_features)) & 1).astype(bool)


def shapley_from_values(values, n_features):
    """Shapley values from the value of every coalition.

    Parameters
    ----------
    values : ndarray of shape (n_rows, 2**n_features)
        ``values[:, k]`` is ``v(S)`` for the coalition whose bit ``j`` is set
        when feature ``j`` belongs to ``S``.

    Returns
    -------
    phi : ndarray of shape (n_rows, n_features)
        ``phi_j = sum_{S not containing j} |S|! (d-|S|-1)! / d! (v(S+j) - v(S))``.
    """
    d = n_features
    codes = np.arange(2**d)
    sizes = all_coalitions(d).sum(axis=1)
    weights = np.array(
        [math.factorial(s) * math.factorial(d - s - 1) / math.factorial(d) for s in range(d)]
    )
    phi = np.empty((values.shape[0], d))
    for j in range(d):
        bit = 1 << j
        without = codes[(codes & bit) == 0]
        phi[:, j] = (values[:, without | bit] - values[:, without]) @ weights[sizes[without]]
    return phi


def shapley_kernel(d, size):
    """Shapley kernel ``(d-1) / (C(d, s) s (d-s))`` of coalition sizes ``0 < s < d``."""
    size = np.asarray(size, dtype=np.float64)
    return (d - 1) / (comb(d, size) * size * (d - size))
