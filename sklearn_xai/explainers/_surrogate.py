"""Local surrogate machinery shared by LIME-style explainers and MAPLE.

A local surrogate explainer scores many rows around each explained row,
weights them by a similarity kernel and fits a weighted linear model whose
coefficients are the attributions.  The pieces here are vectorised across
explained rows:

* :func:`~sklearn_xai.utils._output.block_slices` (the package's one block
  rule) groups explained rows so that their neighbourhoods fit in one model
  call of at most ``batch_size`` rows, or of about
  :data:`~sklearn_xai.utils._output.BLOCK_ENTRIES` entries;
* :func:`evaluate_block` scores the neighbourhoods of a block in one call;
* :func:`weighted_ridge` solves the weighted ridge problems of a block
  together (batched normal equations; with no penalty, the minimum-norm
  least-squares solution of scikit-learn's ``LinearRegression``);
* :func:`lime_kernel` and :func:`exponential_kernel` are the similarity
  kernels of ``lime`` and Captum.
"""

import numpy as np

__all__ = [
    "evaluate_block",
    "exponential_kernel",
    "lime_kernel",
    "weighted_ridge",
]


def evaluate_block(f, Z, target_index, block):
    """Explained output at the perturbations ``Z`` (b, N, d) of a block of rows.

    One model call for the whole block; every perturbed row is scored on the
    class column of the row it perturbs (``target_index`` is None for
    regression).  Returns a float64 array of shape (b, N).
    """
    b, N, d = Z.shape
    t = None if target_index is None else np.repeat(np.asarray(target_index)[block], N)
    return np.asarray(f(Z.reshape(b * N, d), t), dtype=np.float64).reshape(b, N)


def weighted_ridge(Z, y, w, alpha):
    """Batched weighted ridge regression with an intercept.

    Solves, for every batch item ``b`` independently,
    ``min_{beta, c} sum_i w[b, i] (y[b, i] - c - Z[b, i] @ beta)**2
    + alpha * ||beta||**2``, the objective of
    ``sklearn.linear_model.Ridge(alpha).fit(Z[b], y[b], sample_weight=w[b])``
    (weighted centring, unpenalised intercept).  With ``alpha=0`` it is
    ``LinearRegression().fit(Z[b], y[b], sample_weight=w[b])``: the
    minimum-norm least-squares solution, computed as scikit-learn does (the
    pseudo-inverse of the square-root-weighted centred design, singular
    values below ``eps * max(N, d)`` of the largest dropped, as
    ``numpy.linalg.lstsq``) rather than from the normal equations, whose
    condition number is squared (Captum's KernelSHAP weights two rows by
    1e6) and which are singular when the design is rank-deficient.

    Parameters
    ----------
    Z : ndarray of shape (B, N, d) or (1, N, d)
        Design matrices (a single one is shared by all batch items).
    y : ndarray of shape (B, N) or (1, N)
        Responses.
    w : ndarray of shape (B, N)
        Non-negative sample weights; each row must have a positive sum.
    alpha : float
        Ridge penalty.

    Returns
    -------
    coef : ndarray of shape (B, d)
    intercept : ndarray of shape (B,)
    """
    w = np.asarray(w, dtype=np.float64)
    sw = w.sum(axis=1)
    if np.any(sw <= 0):
        raise ValueError(
            "Every local regression needs at least one sample with a positive "
            "weight; the weights of some rows sum to zero."
        )
    p = w / sw[:, None]
    z_mean = np.matmul(p[:, None, :], Z)[:, 0]
    y_mean = np.einsum("bn,bn->b", p, np.broadcast_to(y, w.shape))
    Zc = Z - z_mean[:, None, :]
    yc = y - y_mean[:, None]
    if alpha == 0:
        root = np.sqrt(w)
        design = Zc * root[:, :, None]
        rcond = np.finfo(np.float64).eps * max(design.shape[1:])
        coef = np.einsum("bdn,bn->bd", np.linalg.pinv(design, rcond=rcond),
                         yc * root)
        return coef, y_mean - np.einsum("bd,bd->b", z_mean, coef)
    # The normal equations of the square-root-weighted centred design, in
    # one temporary (BLAS products: einsum over (B, N, d) is several
    # times slower).
    root = np.sqrt(w)
    Zc *= root[:, :, None]
    ZcT = Zc.transpose(0, 2, 1)
    gram = np.matmul(ZcT, Zc)
    d = Zc.shape[2]
    gram[:, np.arange(d), np.arange(d)] += alpha
    rhs = np.matmul(ZcT, (yc * root)[:, :, None])[:, :, 0]
    try:
        coef = np.linalg.solve(gram, rhs[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError:
        coef = np.einsum("bij,bj->bi", np.linalg.pinv(gram), rhs)
    intercept = y_mean - np.einsum("bd,bd->b", z_mean, coef)
    return coef, intercept


def lime_kernel(squared_distance, width):
    """``lime``'s sample weights ``sqrt(exp(-D**2 / width**2))``."""
    return np.sqrt(np.exp(-squared_distance / width**2))


def exponential_kernel(distance, width):
    """Captum's similarity ``exp(-D**2 / (2 width**2))`` (``exp_kernel_similarity``)."""
    return np.exp(-(distance**2) / (2.0 * width**2))
