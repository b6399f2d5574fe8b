"""Gaussian mixture with exact conditionals (see :ref:`def-conditional-value`
in the user guide)."""

import numpy as np
from scipy.special import logsumexp

from sklearn_xai.distributions._base import LOGPDF_DOC, _check_given
from sklearn_xai.distributions._gaussian import MultivariateGaussian, _GaussianFamily
from sklearn_xai.utils._docstring import Substitution, references

__all__ = ["GaussianMixture"]


@Substitution(distribution_references=references("liu2021"))
class GaussianMixture(_GaussianFamily):
    """Gaussian mixture ``sum_c pi_c N(mu_c, Sigma_c)`` with exact conditionals.

    The observational conditional of the free features given ``x_S`` is the
    mixture of the components' conditionals with posterior weights
    ``pi*_c(x_S) ∝ pi_c N(x_S; mu_{c,S}, Sigma_{c,SS})`` (computed in log
    space); the interventional marginal keeps the prior weights ``pi_c``.
    Sampling draws the component of every row independently.

    Parameters
    ----------
    weights : array-like of shape (n_components,)
        Non-negative component probabilities summing to 1.
    means : array-like of shape (n_components, n_features)
    covs : array-like of shape (n_components, n_features, n_features) or (n_features, n_features)
        One covariance per component, or one shared by all.
    allow_singular : bool, default=False
        Accept positive semi-definite covariances.

    Attributes
    ----------
    n_features, n_components : int
    weights : ndarray of shape (n_components,), read-only
    means : ndarray of shape (n_components, n_features), read-only
    covs : ndarray of shape (n_components, n_features, n_features), read-only
    components : list of MultivariateGaussian
    mean, cov : ndarray
        Mean and covariance of the mixture.

    {distribution_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.distributions import GaussianMixture
    >>> mix = GaussianMixture([0.5, 0.5], [[1.0, 1.0], [-1.0, -1.0]], np.eye(2))
    >>> mix.component_posterior([[3.0, 3.0]]).round(4).tolist()
    [[1.0, 0.0]]
    >>> mix.conditional_mean([[0.0, 8.0]], given=[1]).round(4).tolist()
    [[1.0, 8.0]]
    """

    def __init__(self, weights, means, covs, *, allow_singular=False):
        weights = np.array(weights, dtype=np.float64, copy=True)
        means = np.array(means, dtype=np.float64, copy=True)
        if weights.ndim != 1 or weights.size == 0:
            raise ValueError(
                f"weights must be a non-empty 1-D array; got shape {weights.shape}."
            )
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError("weights must be finite and non-negative.")
        if abs(weights.sum() - 1.0) > 1e-8:
            raise ValueError(
                f"weights must sum to 1; they sum to {weights.sum():.6g}. Divide them "
                "by their sum."
            )
        K = weights.size
        if means.ndim != 2 or means.shape[0] != K:
            raise ValueError(
                f"means must have shape (n_components, n_features) with "
                f"n_components={K} (one row per weight); got shape {means.shape}."
            )
        d = means.shape[1]
        covs = np.array(covs, dtype=np.float64, copy=True)
        if covs.shape == (d, d):
            covs = np.broadcast_to(covs, (K, d, d)).copy()
        if covs.shape != (K, d, d):
            raise ValueError(
                f"covs must have shape ({K}, {d}, {d}) (one covariance per component) "
                f"or ({d}, {d}) (shared); got shape {covs.shape}."
            )
        components = []
        for c in range(K):
            try:
                components.append(
                    MultivariateGaussian(means[c], covs[c], allow_singular=allow_singular)
                )
            except ValueError as exc:
                raise ValueError(f"component {c}: {exc}") from None
        weights = weights / weights.sum()
        covs = np.stack([comp.cov for comp in components])
        for arr in (weights, means, covs):
            arr.flags.writeable = False
        self._weights, self._means, self._covs = weights, means, covs
        self.components = components
        self.allow_singular = bool(allow_singular)
        self.n_features = d
        self.n_components = K

    @property
    def weights(self):
        """Component probabilities (read-only)."""
        return self._weights

    @property
    def means(self):
        """Component means (read-only)."""
        return self._means

    @property
    def covs(self):
        """Component covariances (read-only)."""
        return self._covs

    @property
    def mean(self):
        """Mean of the mixture."""
        return self._weights @ self._means

    @property
    def cov(self):
        """Covariance of the mixture."""
        centred = self._means - self.mean
        within = np.einsum("k,kij->ij", self._weights, self._covs)
        return within + (centred.T * self._weights) @ centred

    def __repr__(self):
        return (
            f"GaussianMixture(n_components={self.n_components}, "
            f"n_features={self.n_features})"
        )

    def _log_joint(self, X, mask):
        with np.errstate(divide="ignore"):
            log_w = np.broadcast_to(np.log(self._weights), (X.shape[0], self.n_components))
        if mask.any():
            log_w = log_w + np.stack(
                [c._log_marginal_pdf(X, mask) for c in self.components], axis=1
            )
        return log_w

    def _parts(self, X, mask, interventional):
        log_w = self._log_joint(X, np.zeros_like(mask) if interventional else mask)
        log_w = log_w - logsumexp(log_w, axis=1, keepdims=True)
        parts = [c._parts(X, mask, interventional) for c in self.components]
        means = np.concatenate([p[1] for p in parts], axis=1)
        factors = np.concatenate([p[2] for p in parts], axis=0)
        covs = np.concatenate([p[3] for p in parts], axis=0)
        return log_w, means, factors, covs

    def _from_parts(self, weights, means, covs):
        return GaussianMixture(weights / weights.sum(), means, covs, allow_singular=True)

    def component_posterior(self, X, given=None):
        """Posterior component probabilities ``pi*_c(x_S)`` of each row.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or list of int, default=None
            Features the posterior conditions on (default: all).

        Returns
        -------
        posterior : ndarray of shape (n_rows, n_components)
        """
        X = self._check_rows(X)
        mask = (np.ones(self.n_features, dtype=bool) if given is None
                else _check_given(given, self.n_features))
        log_w = self._log_joint(X, mask)
        return np.exp(log_w - logsumexp(log_w, axis=1, keepdims=True))

    @Substitution(**LOGPDF_DOC)
    def logpdf(self, X):
        """Log density of each row.

        {logpdf_sections}
        """
        X = self._check_rows(X)
        return logsumexp(self._log_joint(X, np.ones(self.n_features, dtype=bool)), axis=1)
