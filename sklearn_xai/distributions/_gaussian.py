"""Multivariate Gaussian with exact conditionals, and the algebra it shares
with Gaussian mixtures (see :ref:`def-conditional-value` in the user guide)."""

import math
import numbers

import numpy as np
from scipy import linalg

from sklearn_xai.distributions._base import (
    DISTRIBUTION_DOC,
    LOGPDF_DOC,
    BaseDistribution,
    _BlockCache,
    _check_given,
    _mask_key,
)
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._validation import check_feature_vector

__all__ = ["MultivariateGaussian"]

_LOG_2PI = math.log(2.0 * math.pi)


def _psd_factor(C):
    """Symmetrised PSD version of ``C`` and a lower factor ``L @ L.T ~= C``.

    Plain Cholesky when ``C`` is positive definite; otherwise negative
    eigenvalues are clipped to 0 and the factor is a Cholesky with a growing
    diagonal jitter (relative 1e-12 ... 1e-6), or the eigen factor.
    """
    C = 0.5 * (C + C.T)
    if C.size == 0:
        return C, np.zeros_like(C)
    try:
        return C, linalg.cholesky(C, lower=True)
    except linalg.LinAlgError:
        pass
    eigval, eigvec = np.linalg.eigh(C)
    eigval = np.clip(eigval, 0.0, None)
    C = (eigvec * eigval) @ eigvec.T
    C = 0.5 * (C + C.T)
    scale = max(float(np.mean(np.diag(C))), np.finfo(float).tiny)
    eye = np.eye(C.shape[0])
    for jitter in (1e-12, 1e-10, 1e-8, 1e-6):
        try:
            return C, linalg.cholesky(C + jitter * scale * eye, lower=True)
        except linalg.LinAlgError:
            continue
    return C, eigvec * np.sqrt(eigval)



class _Blocks:
    """Cached algebra of one mask S of a Gaussian (see ``_compute_blocks``)."""

    __slots__ = ("gain", "cond_cov", "cond_factor", "whiten", "logdet", "rank")

    def __init__(self, gain, cond_cov, cond_factor, whiten, logdet, rank):
        self.gain = gain  # Sigma_US Sigma_SS^{-1}, shape (u, s)
        self.cond_cov = cond_cov  # Sigma_{U|S}, (u, u), symmetric PSD
        self.cond_factor = cond_factor  # lower factor of cond_cov
        self.whiten = whiten  # W (r, s): (x_S-mu_S)' Sigma_SS^+ (x_S-mu_S) = |W d|^2
        self.logdet = logdet  # log pseudo-determinant of Sigma_SS
        self.rank = rank  # rank of Sigma_SS


class _GaussianFamily(BaseDistribution):
    """Gaussians and Gaussian mixtures: conditionals as mixtures of Gaussians.

    Subclasses implement ``_parts(X, mask, interventional)``, returning the
    law of the free features of every row as a mixture: log-weights
    ``(n, K)``, means ``(n, K, u)``, lower factors ``(K, u, u)`` and
    covariances ``(K, u, u)``; and ``_from_parts`` building a distribution
    object from one row's parts.
    """

    def _impute(self, X, mask, Z, u, interventional):
        """Full rows for one mask from standard draws.

        ``X`` (n, d), ``Z`` (n, B, d), ``u`` (n, B) -> (n, B, d): equal to
        ``X`` on the fixed features, drawn on the free ones from the
        observational conditional (or the marginal if ``interventional``).
        """
        n, B, _ = Z.shape
        out = np.repeat(X[:, None, :], B, axis=1)
        free = ~mask
        if not free.any():
            return out
        log_w, means, factors, _ = self._parts(X, mask, interventional)
        Zu = Z[:, :, free]
        if log_w.shape[1] == 1:
            vals = means[:, 0, None, :] + Zu @ factors[0].T
        else:
            cum = np.cumsum(np.exp(log_w), axis=1)
            comp = (u[:, :, None] >= cum[:, None, :-1]).sum(axis=2)
            vals = np.empty_like(Zu)
            for c in range(log_w.shape[1]):
                rows, draws = np.nonzero(comp == c)
                vals[rows, draws] = means[rows, c] + Zu[rows, draws] @ factors[c].T
        out[:, :, free] = vals
        return out

    def _expected_rows(self, X, mask, interventional):
        """``E[X' | x_S]`` as full rows (n, d): ``x_S`` and the mean of ``X_U``."""
        out = X.copy()
        free = ~mask
        if free.any():
            log_w, means, _, _ = self._parts(X, mask, interventional)
            out[:, free] = np.einsum("nk,nku->nu", np.exp(log_w), means)
        return out

    @Substitution(**DISTRIBUTION_DOC)
    def conditional(self, x, given):
        """Observational conditional law of the free features given ``x_S``.

        {conditional_parameters}

        Returns
        -------
        distribution : MultivariateGaussian or GaussianMixture
            Law of ``X_U | X_S = x_S`` over the ``n_features - |S|`` free
            features, in their original order (a mixture's weights are the
            posterior component probabilities).  ``S`` empty gives the
            distribution itself; ``S`` all features a distribution over zero
            features (the point mass at ``x``).
        """
        x = self._check_rows(x, "x")
        if x.shape[0] != 1:
            raise ValueError(
                f"x must be a single instance; got {x.shape[0]} rows. Use "
                "conditional_mean or conditional_sample for several rows."
            )
        mask = _check_given(given, self.n_features)
        log_w, means, _, covs = self._parts(x, mask, False)
        return self._from_parts(np.exp(log_w[0]), means[0], covs)

    def marginal(self, given):
        """Interventional counterpart of :meth:`conditional`: the law of ``X_U``.

        Parameters
        ----------
        given : bool array-like of shape (n_features,) or list of int
            The fixed features ``S``; the returned law is the marginal of
            the free features ``U`` (it does not depend on ``x_S``).

        Returns
        -------
        distribution : MultivariateGaussian or GaussianMixture
            Law of ``X_U`` over the free features, in their original order.
        """
        mask = _check_given(given, self.n_features)
        log_w, means, _, covs = self._parts(np.zeros((1, self.n_features)), mask, True)
        return self._from_parts(np.exp(log_w[0]), means[0], covs)

    def __getstate__(self):
        state = self.__dict__.copy()
        for key in ("_cache", "_marginal_cache"):
            if key in state:
                state[key] = _BlockCache(self.n_features)
        return state


# --------------------------------------------------------------------------
# Gaussian
# --------------------------------------------------------------------------
def _equicorrelated_cov(n_features, rho):
    """``(1 - rho) I + rho 11'`` with a clear error outside the PD range."""
    rho = float(rho)
    low = -1.0 / (n_features - 1) if n_features > 1 else -math.inf
    if not (low < rho < 1.0) or not math.isfinite(rho):
        bound = f"{low:.6g}" if n_features > 1 else "-inf"
        raise ValueError(
            f"rho={rho!r} does not give a positive definite equicorrelated "
            f"covariance for n_features={n_features}: it needs "
            f"-1/(n_features-1) < rho < 1, i.e. {bound} < rho < 1. Pick rho in "
            "that range (XAI-Bench uses 0, 0.25, 0.5, 0.75, 0.99) or pass cov=."
        )
    cov = np.full((n_features, n_features), rho)
    np.fill_diagonal(cov, 1.0)
    return cov


@Substitution(distribution_references=references("liu2021"))
class MultivariateGaussian(_GaussianFamily):
    """Multivariate Gaussian ``N(mean, cov)`` with exact conditionals.

    Observational conditional of the free features ``U`` given ``x_S``
    (see :ref:`def-conditional-value` in the user guide)::

        mu_{U|S}    = mu_U + Sigma_US Sigma_SS^{-1} (x_S - mu_S)
        Sigma_{U|S} = Sigma_UU - Sigma_US Sigma_SS^{-1} Sigma_SU

    computed with a Cholesky solve (pseudo-inverse when ``Sigma_SS`` is
    singular), symmetrised, negative eigenvalues clipped to 0, sampled with a
    jittered Cholesky factor; the blocks are cached per mask.

    Parameters
    ----------
    mean : float or array-like of shape (n_features,)
        Mean vector (a scalar is repeated for every feature).
    cov : array-like of shape (n_features, n_features)
        Symmetric positive definite covariance.
    allow_singular : bool, default=False
        Accept a positive *semi*-definite ``cov`` (conditionals then use the
        pseudo-inverse).

    Attributes
    ----------
    n_features : int
    mean : ndarray of shape (n_features,), read-only
    cov : ndarray of shape (n_features, n_features), read-only

    {distribution_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.distributions import MultivariateGaussian
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.5)
    >>> cond = dist.conditional([1.0, 0.0, 0.0], given=[0])
    >>> cond.mean.round(3).tolist()
    [0.5, 0.5]
    >>> cond.cov.round(3).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    >>> dist.conditional_mean(np.array([[2.0, 0.0, 0.0]]), [0]).tolist()
    [[2.0, 1.0, 1.0]]
    """

    def __init__(self, mean, cov, *, allow_singular=False):
        cov = np.array(cov, dtype=np.float64, copy=True)
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError(
                "cov must be a square matrix of shape (n_features, n_features); "
                f"got shape {cov.shape}."
            )
        d = cov.shape[0]
        mean = check_feature_vector(mean, d, "mean")
        if not np.all(np.isfinite(cov)):
            raise ValueError("cov must be finite (no NaN or infinity).")
        scale = max(float(np.max(np.abs(cov))) if d else 0.0, 1.0)
        if not np.allclose(cov, cov.T, rtol=1e-8, atol=1e-10 * scale):
            raise ValueError(
                "cov must be symmetric; pass (cov + cov.T) / 2 if the asymmetry "
                "is rounding noise."
            )
        cov = 0.5 * (cov + cov.T)
        eigmin = float(linalg.eigvalsh(cov)[0]) if d else 0.0
        tol = 10.0 * max(d, 1) * np.finfo(float).eps * scale
        if not allow_singular and eigmin <= tol:
            raise ValueError(
                f"cov is not positive definite (smallest eigenvalue {eigmin:.3g}). "
                "Pass a positive definite covariance (for an equicorrelated one, "
                "-1/(n_features-1) < rho < 1; for an estimated one, add a ridge "
                "such as cov + 1e-6 * np.eye(n_features)), or allow_singular=True "
                "to accept a positive semi-definite one."
            )
        if eigmin < -1e3 * tol:
            raise ValueError(
                f"cov is not positive semi-definite (smallest eigenvalue "
                f"{eigmin:.3g}); pass a valid covariance matrix."
            )
        mean.flags.writeable = False
        cov.flags.writeable = False
        self._mean = mean
        self._cov = cov
        self.allow_singular = bool(allow_singular)
        self.n_features = d
        self._cache = _BlockCache(d)
        self._marginal_cache = _BlockCache(d)

    @classmethod
    def equicorrelated(cls, n_features, rho=0.0, *, mean=0.0):
        """Unit variances and all correlations equal to ``rho``.

        ``Sigma(rho) = (1 - rho) I + rho 11'``, positive definite iff
        ``-1/(n_features - 1) < rho < 1``; other values raise ``ValueError``.

        Parameters
        ----------
        n_features : int
        rho : float, default=0.0
        mean : float or array-like of shape (n_features,), default=0.0

        Returns
        -------
        distribution : MultivariateGaussian
        """
        if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral) \
                or n_features < 1:
            raise ValueError(f"n_features must be a positive int; got {n_features!r}.")
        return cls(mean, _equicorrelated_cov(int(n_features), rho))

    @classmethod
    def from_data(cls, X, *, ddof=1):
        """Gaussian with the sample mean and covariance of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        ddof : int, default=1
            Delta degrees of freedom of the covariance.

        Returns
        -------
        distribution : MultivariateGaussian
            With ``allow_singular=True`` (estimated covariances can be
            singular; conditionals then use the pseudo-inverse).
        """
        if hasattr(X, "to_numpy"):
            X = X.to_numpy()
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[0] <= ddof or X.shape[1] < 1:
            raise ValueError(
                f"X must be a 2-D array with more than ddof={ddof} rows; got shape "
                f"{X.shape}."
            )
        if not np.all(np.isfinite(X)):
            raise ValueError("X contains NaN or infinity.")
        cov = np.atleast_2d(np.cov(X, rowvar=False, ddof=ddof))
        return cls(X.mean(axis=0), cov, allow_singular=True)

    @property
    def mean(self):
        """Mean vector (read-only)."""
        return self._mean

    @property
    def cov(self):
        """Covariance matrix (read-only)."""
        return self._cov

    def __repr__(self):
        return f"MultivariateGaussian(n_features={self.n_features})"

    # ---------------------------------------------------------- algebra
    def _blocks(self, mask):
        return self._cache.get(_mask_key(mask), lambda: self._compute_blocks(mask))

    def _compute_blocks(self, mask):
        free = ~mask
        s_idx, u_idx = np.flatnonzero(mask), np.flatnonzero(free)
        cov = self._cov
        S_SS = cov[np.ix_(s_idx, s_idx)]
        S_US = cov[np.ix_(u_idx, s_idx)]
        S_UU = cov[np.ix_(u_idx, u_idx)]
        s = len(s_idx)
        if s == 0:
            gain = np.zeros((len(u_idx), 0))
            whiten, logdet, rank = np.zeros((0, 0)), 0.0, 0
        else:
            chol = None
            try:
                chol = linalg.cholesky(S_SS, lower=True)
                diag = np.diag(chol) ** 2
                if diag.min() <= 1e4 * np.finfo(float).eps * np.max(np.diag(S_SS)):
                    chol = None  # numerically singular: use the pseudo-inverse
            except linalg.LinAlgError:
                chol = None
            if chol is not None:
                whiten = np.linalg.inv(chol)  # L^{-1}: Sigma_SS^{-1} = W'W
                gain = (S_US @ whiten.T) @ whiten
                logdet = 2.0 * float(np.sum(np.log(np.diag(chol))))
                rank = s
            else:
                eigval, eigvec = np.linalg.eigh(S_SS)
                keep = eigval > 1e-10 * max(eigval[-1], np.finfo(float).tiny)
                vec, val = eigvec[:, keep], eigval[keep]
                gain = (S_US @ vec / val) @ vec.T
                whiten = (vec / np.sqrt(val)).T
                logdet = float(np.sum(np.log(val)))
                rank = int(keep.sum())
        cond_cov, cond_factor = _psd_factor(S_UU - gain @ S_US.T)
        return _Blocks(gain, cond_cov, cond_factor, whiten, logdet, rank)

    def _marginal_blocks(self, mask):
        def compute():
            u_idx = np.flatnonzero(~mask)
            cov, factor = _psd_factor(self._cov[np.ix_(u_idx, u_idx)])
            return factor, cov

        return self._marginal_cache.get(_mask_key(mask), compute)

    def _log_marginal_pdf(self, X, mask):
        """Log density of ``X[:, mask]`` under the marginal ``N(mu_S, Sigma_SS)``."""
        if not mask.any():
            return np.zeros(X.shape[0])
        b = self._blocks(mask)
        delta = X[:, mask] - self._mean[mask]
        maha = np.sum((delta @ b.whiten.T) ** 2, axis=1)
        return -0.5 * (maha + b.logdet + b.rank * _LOG_2PI)

    def _parts(self, X, mask, interventional):
        n = X.shape[0]
        free = ~mask
        if interventional or not mask.any():
            factor, cov = self._marginal_blocks(mask)
            means = np.broadcast_to(self._mean[free], (n, 1, int(free.sum())))
        else:
            b = self._blocks(mask)
            factor, cov = b.cond_factor, b.cond_cov
            means = (self._mean[free] + (X[:, mask] - self._mean[mask]) @ b.gain.T)
            means = means[:, None, :]
        return np.zeros((n, 1)), means, factor[None], cov[None]

    def _from_parts(self, weights, means, covs):
        return MultivariateGaussian(means[0], covs[0], allow_singular=True)

    @Substitution(**LOGPDF_DOC)
    def logpdf(self, X):
        """Log density of each row.

        {logpdf_sections}
        """
        X = self._check_rows(X)
        return self._log_marginal_pdf(X, np.ones(self.n_features, dtype=bool))


