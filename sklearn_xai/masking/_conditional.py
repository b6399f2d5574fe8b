"""Observational (conditional) maskers: removed features are drawn from their
conditional law given the kept ones (SPEC 1.5)."""

import numbers

import numpy as np
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.datasets._distributions import MultivariateGaussian, _affine_params
from sklearn_xai.masking._base import BaseMasker

__all__ = ["ConditionalMasker", "GaussianConditionalMasker"]


class _DistributionMasker(BaseMasker):
    """Impute removed features by exact draws from ``self.distribution_``.

    Every row draws one block of ``n_samples`` standard normals (and
    component uniforms for mixtures) from its own generator and transforms it
    for all of its coalitions (common random numbers across coalitions).
    """

    @property
    def n_draws(self):
        return self.n_samples

    @property
    def is_deterministic(self):
        return False

    def _impute(self, X, keep, rngs):
        Z, u = self.distribution_._standard_draws(rngs, self.n_samples)
        return self.distribution_._impute_coalitions(X, keep, Z, u)

    def evaluate(self, f, X, keep, *, target_index=None, batch_size=None, rngs=None):
        """Value function ``v_x(S) = E[f(X) | X_S = x_S]``.

        Exact, without drawing, when ``f`` is affine (it exposes ``coef_``
        and ``intercept_``, e.g. a generator's linear ``label_function``):
        ``w . E[X | x_S] + c`` with the closed-form conditional mean.  Any
        other ``f`` is averaged over ``n_samples`` conditional draws (see
        :meth:`BaseMasker.evaluate`).

        Parameters
        ----------
        f : callable
            ``f(Z, target_index) -> (len(Z),)``.
        X : ndarray of shape (n_rows, n_features)
        keep : bool ndarray of shape (n_coalitions, n_features) or (n_rows, n_coalitions, n_features)
        target_index : ndarray of shape (n_rows,) or None
        batch_size : int or None
        rngs : list of numpy.random.Generator, optional

        Returns
        -------
        values : ndarray of shape (n_rows, n_coalitions)
        """
        check_is_fitted(self)
        aff = _affine_params(f, None, self.n_features_in_)
        if aff is None:
            return super().evaluate(f, X, keep, target_index=target_index,
                                    batch_size=batch_size, rngs=rngs)
        w, c = aff
        X = np.asarray(X, dtype=np.float64)
        keep = self._check_keep(X, keep)
        n, m, _ = keep.shape
        flat = keep.reshape(n * m, -1)
        uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
        inverse = inverse.reshape(n, m)
        out = np.empty((n, m))
        for k, mask in enumerate(uniq):
            rows, cols = np.nonzero(inverse == k)
            expected = self.distribution_._expected_rows(X[rows], mask)
            out[rows, cols] = expected @ w + c
        return out


class ConditionalMasker(_DistributionMasker):
    """Observational masker for a known distribution.

    Removed features ``U`` of a row ``x`` are drawn from ``X_U | X_S = x_S``
    under ``distribution`` (exact Gaussian or Gaussian-mixture
    conditionals, SPEC 2.1), so ``v_x(S) = E[f(X) | X_S = x_S]``: the value
    function of XAI-Bench's metrics and ground-truth Shapley values.

    Parameters
    ----------
    distribution : MultivariateGaussian or GaussianMixture
        The data distribution, e.g. ``make_gaussian_linear(...).distribution``.
    n_samples : int, default=100
        Conditional draws per row and coalition (XAI-Bench: 100 for its
        faithfulness metrics).

    Attributes
    ----------
    distribution_ : MultivariateGaussian or GaussianMixture
        The distribution used.
    n_features_in_ : int
        Number of features seen during :meth:`fit`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.masking import ConditionalMasker
    >>> from sklearn_xai.utils import row_generators
    >>> dist = MultivariateGaussian.equicorrelated(2, rho=0.9)
    >>> X = np.array([[2.0, 0.0]])
    >>> masker = ConditionalMasker(dist, n_samples=5).fit(X)
    >>> Z = masker.impute(X, [[True, False]], rngs=row_generators(0, [0]))
    >>> Z.shape, bool(np.all(Z[..., 0] == 2.0))
    ((1, 1, 5, 2), True)
    """

    _parameter_constraints = {
        "distribution": [HasMethods(["conditional_sample", "conditional_mean"])],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, distribution, n_samples=100):
        self.distribution = distribution
        self.n_samples = n_samples

    def _fit(self, X):
        if not hasattr(self.distribution, "_impute_coalitions"):
            raise TypeError(
                "distribution must be a sklearn_xai.datasets distribution "
                "(MultivariateGaussian or GaussianMixture); got "
                f"{type(self.distribution).__name__}."
            )
        if self.distribution.n_features != X.shape[1]:
            raise ValueError(
                f"distribution has {self.distribution.n_features} features but X has "
                f"{X.shape[1]}; pass the distribution of these features."
            )
        self.distribution_ = self.distribution


class GaussianConditionalMasker(_DistributionMasker):
    """Observational masker for real data: a Gaussian fitted to the training rows.

    :meth:`fit` estimates the mean and (``ddof=1``) covariance of ``X``;
    removed features are then drawn from the Gaussian conditional given the
    kept ones (pseudo-inverse when the estimated covariance is singular).

    Parameters
    ----------
    n_samples : int, default=100
        Conditional draws per row and coalition.

    Attributes
    ----------
    distribution_ : MultivariateGaussian
        The fitted Gaussian.
    n_features_in_ : int
        Number of features seen during :meth:`fit`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import GaussianConditionalMasker
    >>> rng = np.random.default_rng(0)
    >>> x0 = rng.normal(size=500)
    >>> X = np.column_stack([x0, 2 * x0 + 0.1 * rng.normal(size=500)])
    >>> masker = GaussianConditionalMasker().fit(X)
    >>> masker.distribution_.conditional_mean([[1.0, 0.0]], [0]).round(1).tolist()
    [[1.0, 2.0]]
    """

    _parameter_constraints = {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, n_samples=100):
        self.n_samples = n_samples

    def _fit(self, X):
        self.distribution_ = MultivariateGaussian.from_data(X, ddof=1)
