"""Observational (conditional) maskers: removed features are drawn from their
conditional law given the kept ones (see :ref:`def-conditional-value` in the
user guide)."""

import numbers

import numpy as np
from sklearn.utils import check_random_state

from sklearn_xai.distributions import BaseDistribution, MultivariateGaussian
from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.utils._docstring import (
    DOC_FRAGMENTS,
    Substitution,
    join_fragments,
    references,
)
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["ConditionalMasker", "EmpiricalConditionalMasker", "GaussianConditionalMasker"]


def _unique_masks(keep):
    """Distinct coalitions of ``keep`` (n, m, d) and where each (row,
    coalition) pair uses them: ``(masks (u, d), inverse (n, m))``."""
    n, m, d = keep.shape
    uniq, inverse = np.unique(keep.reshape(n * m, d), axis=0, return_inverse=True)
    return uniq, inverse.reshape(n, m)


_N_DRAWS_CONSTRAINTS = {
    "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
    "draws": [StrOptions({"shared", "per_coalition"})],
}

_DOC_DRAWS = """\
    draws : {"shared", "per_coalition"}, default="shared"
        ``"shared"``: a row's ``n_draws`` standard draws are transformed for
        all of its coalitions (common random numbers: the differences
        between coalition values have less Monte-Carlo noise).
        ``"per_coalition"``: every coalition of a row gets its own,
        independent block of ``n_draws`` draws, as when each value is
        estimated from a fresh conditional sample (XAI-Bench's code; its
        monotonicity scores depend on this when they compare two
        estimates of nearly the same value).  A row's draws come from its
        own generator either way, so its values do not depend on the other
        rows of a batch; with ``"per_coalition"`` they depend on the order
        of its coalitions."""
_DOC_DRAWS_ATTRIBUTES = join_fragments("""
    n_draws_ : int
        Draws per row and coalition in use.""", DOC_FRAGMENTS["n_features_in"])

class _DistributionMasker(BaseMasker):
    """Impute removed features by exact draws from ``self.distribution_``.

    With ``draws="shared"`` every row draws one block of ``n_draws``
    standard normals (and component uniforms for mixtures) from its own
    generator and transforms it for all of its coalitions (common random
    numbers across coalitions).  With ``draws="per_coalition"`` the row's
    generator gives one block per coalition, so the coalitions' Monte-Carlo
    errors are independent (XAI-Bench draws a fresh conditional sample for
    every value it estimates).  Either way a row's draws come from its own
    stream only.  The exact conditional means of the distribution give the
    values of an affine model in closed form
    (:meth:`BaseMasker.expected_rows`).

    ``n_draws`` is a parameter of these maskers (a plain attribute replacing
    the :class:`BaseMasker` property); :meth:`fit` stores the count in use
    as ``n_draws_``.
    """

    _interventional = False
    n_draws = 100
    draws = "shared"

    def _resolve_n_draws(self):
        self.n_draws_ = int(self.n_draws)

    def _draw_count(self):
        return self.n_draws_

    @property
    def is_deterministic(self):
        return False

    def _impute(self, X, keep, rngs):
        b = self.n_draws_
        if self.draws == "shared":
            Z, u = self.distribution_.standard_draws(rngs.generators(), b)
            return self.distribution_.impute_coalitions(
                X, keep, Z, u, interventional=self._interventional)
        # One block of b draws per coalition, taken in order from the row's
        # stream: coalition j of a row uses its draws j*b .. (j+1)*b - 1.
        n, m, d = keep.shape
        Z, u = self.distribution_.standard_draws(rngs.generators(), m * b)
        rows = self.distribution_.impute_coalitions(
            np.repeat(X, m, axis=0), keep.reshape(n * m, 1, d),
            Z.reshape(n * m, b, d), u.reshape(n * m, b),
            interventional=self._interventional)
        return rows.reshape(n, m, b, d)

    def _expected_rows(self, X, keep):
        masks, inverse = _unique_masks(keep)
        out = np.empty(keep.shape)
        for k, mask in enumerate(masks):
            rows, cols = np.nonzero(inverse == k)
            out[rows, cols] = self.distribution_.expected_rows(
                X[rows], mask, interventional=self._interventional)
        return out


@Substitution(draws=_DOC_DRAWS, draws_attributes=_DOC_DRAWS_ATTRIBUTES,
              masker_references=references("liu2021"))
class ConditionalMasker(_DistributionMasker):
    """Observational masker for a known distribution.

    Removed features ``U`` of a row ``x`` are drawn from ``X_U | X_S = x_S``
    under ``distribution`` (exact Gaussian or Gaussian-mixture
    conditionals), so ``v_x(S) = E[f(X) | X_S = x_S]``: the value function
    of XAI-Bench's metrics and ground-truth Shapley values.  See
    :ref:`def-conditional-value` in the user guide.

    The masker learns nothing from data: :func:`~sklearn_xai.masking.check_masker`
    sets it up without training rows.  An affine model (one exposing
    ``coef_`` and ``intercept_``) gets its values in closed form, from the
    exact conditional means.

    Parameters
    ----------
    distribution : BaseDistribution
        The data distribution, e.g. ``make_gaussian_linear(...).distribution``
        (a :class:`~sklearn_xai.distributions.MultivariateGaussian`,
        :class:`~sklearn_xai.distributions.GaussianMixture` or any
        :class:`~sklearn_xai.distributions.BaseDistribution`).
    n_draws : int, default=100
        Conditional draws per row and coalition (XAI-Bench: 100 for its
        faithfulness metrics).
    value : {"observational", "interventional"}, default="observational"
        ``"observational"``: draws from ``X_U | X_S = x_S``;
        ``"interventional"``: draws from the marginal law of ``X_U``,
        independent of ``x_S`` (``v_x(S) = E_Z[f(x_S ⊕ Z_U)]``, the exact
        counterpart of :class:`MarginalMasker`).
    {draws}

    Attributes
    ----------
    distribution_ : BaseDistribution
        The distribution used.
    {draws_attributes}

    {masker_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.distributions import MultivariateGaussian
    >>> from sklearn_xai.masking import ConditionalMasker
    >>> from sklearn_xai.utils import RowStreams
    >>> dist = MultivariateGaussian.equicorrelated(2, rho=0.9)
    >>> X = np.array([[2.0, 0.0]])
    >>> masker = ConditionalMasker(dist, n_draws=5).fit(X)
    >>> Z = masker.impute(X, [[True, False]], rngs=RowStreams(0, [0]))
    >>> Z.shape, bool(np.all(Z[..., 0] == 2.0))
    ((1, 1, 5, 2), True)

    With ``draws="per_coalition"`` two coalitions of a row get independent
    draws (shared draws would make these two blocks equal):

    >>> fresh = ConditionalMasker(dist, n_draws=5, draws="per_coalition").fit(X)
    >>> Z = fresh.impute(X, [[True, False], [True, False]], rngs=RowStreams(0, [0]))
    >>> bool(np.array_equal(Z[0, 0], Z[0, 1]))
    False
    """

    _parameter_constraints = {
        "distribution": [BaseDistribution],
        **_N_DRAWS_CONSTRAINTS,
        "value": [StrOptions({"observational", "interventional"})],
    }

    def __init__(self, distribution, n_draws=100, *, value="observational",
                 draws="shared"):
        self.distribution = distribution
        self.n_draws = n_draws
        self.value = value
        self.draws = draws

    @property
    def _interventional(self):
        return self.value == "interventional"

    def _fit(self, X):
        self._fit_data_free(X.shape[1])

    def _learns_from_rows(self):
        return None

    def _fit_data_free(self, n_features):
        self._resolve_n_draws()
        if self.distribution.n_features != n_features:
            raise ValueError(
                f"distribution has {self.distribution.n_features} features but X has "
                f"{n_features}; pass the distribution of these features."
            )
        self.distribution_ = self.distribution


@Substitution(draws=_DOC_DRAWS, draws_attributes=_DOC_DRAWS_ATTRIBUTES,
              masker_references=references("aas2021"))
class GaussianConditionalMasker(_DistributionMasker):
    """Observational masker for real data: a Gaussian fitted to the training rows.

    :meth:`fit` estimates the mean and (``ddof=1``) covariance of ``X``;
    removed features are then drawn from the Gaussian conditional given the
    kept ones (pseudo-inverse when the estimated covariance is singular).

    Parameters
    ----------
    n_draws : int, default=100
        Conditional draws per row and coalition.
    {draws}

    Attributes
    ----------
    distribution_ : MultivariateGaussian
        The fitted Gaussian.
    {draws_attributes}

    {masker_references}

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

    _parameter_constraints = dict(_N_DRAWS_CONSTRAINTS)

    def __init__(self, n_draws=100, *, draws="shared"):
        self.n_draws = n_draws
        self.draws = draws

    def _fit(self, X):
        self._resolve_n_draws()
        if X.shape[0] < 2:
            raise ValueError(
                "GaussianConditionalMasker needs at least 2 training rows to "
                f"estimate a covariance (ddof=1); got {X.shape[0]} sample. "
                "Fit it on the training data (the rows the model was trained on), "
                "not on the row being explained, or use BaselineMasker or "
                "MarginalMasker(background=...) for a single reference row."
            )
        self.distribution_ = MultivariateGaussian.from_data(X, ddof=1)

    def _learns_from_rows(self):
        return "its Gaussian (the mean and covariance of the training rows)"


@Substitution("n_features_in", masker_references=references("aas2021", "liu2021"))
class EmpiricalConditionalMasker(BaseMasker):
    """Observational masker for real data: kernel-weighted training rows.

    The removed features of a row ``x`` are spliced in from every training
    ("donor") row ``z_i``, and the value function weights the donors by how
    close they are to ``x`` on the kept features ``S`` (the "empirical"
    method of Aas, Jullum & Løland; XAI-Bench's SHAPR)::

        D_i(S)^2 = (x_S - z_{i,S})^T pinv(Sigma_S) (x_S - z_{i,S}) / |S|
        w_i(S)   = exp(-D_i(S)^2 / (2 sigma^2)) / sum_k exp(-D_k(S)^2 / (2 sigma^2))
        v_x(S)   = sum_i w_i(S) f(x_S ⊕ z_{i,U})

    with ``Sigma_S`` the sample covariance (``ddof=1``) of the donors on
    ``S``; the empty coalition weights all donors equally (the marginal
    average).  See :ref:`def-conditional-value` in the user guide.

    Parameters
    ----------
    sigma : float, default=0.4
        Kernel bandwidth (XAI-Bench tuned it over {0.1, 0.2, 0.4, 0.8}).
    max_background : int or None, default=None
        Keep at most this many training rows as donors (drawn without
        replacement with ``random_state``); ``None`` keeps all (XAI-Bench:
        1000).
    uniform_small_coalitions : bool, default=False
        XAI-Bench's code: coalitions with ``|S| <= 1`` weight the donors
        uniformly (plain marginal averaging) instead of by the kernel.
    random_state : int, RandomState instance or None, default=None
        Seeds the donor subsample.

    Attributes
    ----------
    background_ : ndarray of shape (n_background, n_features)
        The donor rows.
    covariance_ : ndarray of shape (n_features, n_features)
        Their sample covariance.
    {n_features_in}

    {masker_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import EmpiricalConditionalMasker
    >>> X_train = np.array([[0.0, 0.0], [2.0, 4.0]])
    >>> masker = EmpiricalConditionalMasker(sigma=0.5).fit(X_train)
    >>> masker.impute([[1.0, 1.0]], [[True, False]])[0, 0].tolist()
    [[1.0, 0.0], [1.0, 4.0]]
    >>> f = lambda Z, t: Z.sum(axis=1)
    >>> float(masker.evaluate(f, [[1.0, 1.0]], [[True, False]])[0, 0])  # equal weights
    3.0
    """

    _parameter_constraints = {
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_background": [Interval(numbers.Integral, 2, None, closed="left"), None],
        "uniform_small_coalitions": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, sigma=0.4, *, max_background=None, uniform_small_coalitions=False,
                 random_state=None):
        self.sigma = sigma
        self.max_background = max_background
        self.uniform_small_coalitions = uniform_small_coalitions
        self.random_state = random_state

    def _fit(self, X):
        n = X.shape[0]
        if n < 2:
            raise ValueError(
                "EmpiricalConditionalMasker needs at least 2 training rows to "
                f"estimate a covariance (ddof=1); got {n} sample. Fit it on the "
                "training data (the rows the model was trained on)."
            )
        if self.max_background is not None and self.max_background < n:
            rng = check_random_state(self.random_state)
            X = X[np.sort(rng.choice(n, size=self.max_background, replace=False))]
        self.background_ = X.copy()
        self.covariance_ = np.atleast_2d(np.cov(X, rowvar=False))
        self._metrics = {}

    def _learns_from_rows(self):
        return "its donor rows and their covariance"

    @property
    def n_draws(self):
        return self.background_.shape[0]

    def _impute(self, X, keep, rngs):
        return np.where(
            keep[:, :, None, :], X[:, None, None, :], self.background_[None, None]
        )

    def _metric(self, mask):
        """Zero-padded ``pinv(Sigma_S) / |S|`` of one coalition (cached)."""
        key = mask.tobytes()
        metric = self._metrics.get(key)
        if metric is None:
            d = mask.size
            metric = np.zeros((d, d))
            size = int(mask.sum())
            if size >= (2 if self.uniform_small_coalitions else 1):
                idx = np.flatnonzero(mask)
                block = np.linalg.pinv(self.covariance_[np.ix_(idx, idx)],
                                       hermitian=True)
                metric[np.ix_(idx, idx)] = block / size
            self._metrics[key] = metric
        return metric

    def _draw_weights(self, X, keep):
        n, m, _ = keep.shape
        if n == 0:
            return np.empty((0, m, self.n_draws))
        diff = X[:, None, :] - self.background_[None]  # (n, N, d)
        if np.all(keep == keep[:1]):
            # The same coalitions for every row: one metric per coalition.
            metrics = np.stack([self._metric(mask) for mask in keep[0]])
            dist2 = np.einsum("cnd,kde,cne->ckn", diff, metrics, diff, optimize=True)
        else:
            masks, inverse = _unique_masks(keep)
            metrics = np.stack([self._metric(mask) for mask in masks])[inverse]
            dist2 = np.einsum("cnd,ckde,cne->ckn", diff, metrics, diff, optimize=True)
        logw = -dist2 / (2.0 * self.sigma**2)
        w = np.exp(logw - logw.max(axis=2, keepdims=True))
        w /= w.sum(axis=2, keepdims=True)
        return w

    def _expected_rows(self, X, keep):
        mean = np.einsum("cmn,nd->cmd", self._draw_weights(X, keep), self.background_)
        return np.where(keep, X[:, None, :], mean)
