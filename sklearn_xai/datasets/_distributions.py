"""Gaussian and Gaussian-mixture feature distributions with exact conditionals.

The distributions of the synthetic generators (SPEC section 2.1) know their
observational conditionals ``X_U | X_S = x_S`` and their interventional
marginals ``X_U`` in closed form, so maskers, metrics and ground-truth Shapley
values computed on them are exact (closed forms for affine models, Monte Carlo
with common random numbers otherwise).

Conventions
-----------
``given`` is the set ``S`` of *fixed* (known) features: a boolean mask of
length ``n_features`` or a list of feature indices.  The free features are
``U = [d] \\ S``.  Methods returning rows return *full* rows of
``n_features`` columns, equal to ``X`` on ``S``.

Row ``i``'s random draws come from a generator keyed by ``(random_state,
key_i)`` (SPEC section 1.7; by default the key is a hash of the row's values),
so a row gets the same draws whatever the batch it is in.  One block of
standard normals (and, for mixtures, of uniforms selecting the component) is
drawn per row and transformed for every subset ``S``: the Monte-Carlo values of
different subsets share their random numbers, which lowers the variance of the
differences ``v(S + j) - v(S)`` that Shapley values are made of.
"""

import math
import numbers
from collections import OrderedDict

import numpy as np
from scipy import linalg
from scipy.special import logsumexp

from sklearn_xai.utils._random import row_generators, row_keys, seed_entropy

__all__ = ["GaussianMixture", "MultivariateGaussian"]

_LOG_2PI = math.log(2.0 * math.pi)
# Masks of distributions up to this many features are all cached (2**16
# entries at most); larger ones keep the most recently used masks.
_FULL_CACHE_MAX_FEATURES = 16
_LRU_SIZE = 256


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def _check_given(given, n_features, *, allow_2d=False):
    """Turn ``given`` (bool mask or index list) into a bool mask.

    Returns a bool array of shape (n_features,), or (n_masks, n_features)
    when ``allow_2d`` and a 2-D boolean array is passed.
    """
    arr = np.asarray(given)
    if arr.dtype == bool:
        if arr.ndim == 1 and arr.shape[0] == n_features:
            return arr.copy()
        if allow_2d and arr.ndim == 2 and arr.shape[1] == n_features:
            return arr.copy()
        expected = f"({n_features},)" + (
            f" or (n_masks, {n_features})" if allow_2d else ""
        )
        raise ValueError(
            f"given must be a boolean mask of shape {expected} or a list of "
            f"feature indices; got a boolean array of shape {arr.shape}."
        )
    if arr.size == 0:
        return np.zeros(n_features, dtype=bool)
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            "given must be a boolean mask of length n_features or a 1-D list of "
            f"integer feature indices; got {given!r}."
        )
    if arr.min() < -n_features or arr.max() >= n_features:
        raise ValueError(
            f"given contains feature indices outside [0, {n_features}); pass "
            "indices of existing features."
        )
    mask = np.zeros(n_features, dtype=bool)
    mask[arr] = True
    return mask


def _mask_key(mask):
    """Integer bit-mask of a boolean mask (bit j set when feature j is fixed)."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


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


def _affine_params(f, affine, n_features):
    """``(w, c)`` when ``f`` is known to be affine, else ``None``.

    ``affine=(w, c)`` is explicit; otherwise a callable exposing ``coef_`` and
    ``intercept_`` (and no ``fit``: fitted estimators are not callables, and
    GLM-type regressors also have ``coef_``) is taken as ``f(z) = w.z + c``.
    """
    if affine is None:
        if hasattr(f, "fit") or not (hasattr(f, "coef_") and hasattr(f, "intercept_")):
            return None
        affine = (f.coef_, f.intercept_)
    try:
        w, c = affine
    except (TypeError, ValueError):
        raise ValueError(
            "affine must be a pair (w, c) with w of shape (n_features,) and a "
            f"scalar c, meaning f(z) = z @ w + c; got {affine!r}."
        ) from None
    w = np.asarray(w, dtype=np.float64).ravel()
    c = np.asarray(c, dtype=np.float64).ravel()
    if w.shape != (n_features,) or c.size != 1:
        raise ValueError(
            f"an affine f needs one coefficient per feature ({n_features}) and one "
            f"intercept; got {w.size} coefficients and {c.size} intercepts."
        )
    if not (np.all(np.isfinite(w)) and np.isfinite(c[0])):
        raise ValueError("the affine coefficients contain NaN or infinity.")
    return w, float(c[0])


def _evaluate(f, Z, batch_size):
    """``f`` on the rows of ``Z`` in chunks of ``batch_size`` rows."""
    step = batch_size or max(len(Z), 1)
    out = [np.asarray(f(Z[i : i + step]), dtype=np.float64).reshape(-1)
           for i in range(0, len(Z), step)]
    values = np.concatenate(out) if out else np.empty(0)
    if values.shape != (len(Z),):
        raise ValueError(
            f"f must return one value per row: got {values.size} values for "
            f"{len(Z)} rows."
        )
    return values


def _check_rows(X, n_features, name="X"):
    """``X`` as a float64 2-D array (a 1-D array is one row); never a view."""
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    X = np.array(X, dtype=np.float64, copy=True)
    if X.ndim == 1:
        X = X[None, :]
    if X.ndim != 2 or X.shape[1] != n_features:
        raise ValueError(
            f"{name} must have {n_features} columns (one per feature of the "
            f"distribution); got shape {X.shape}."
        )
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return X


class _BlockCache:
    """Per-mask cache: unbounded up to 16 features, LRU beyond."""

    def __init__(self, n_features):
        self.maxsize = None if n_features <= _FULL_CACHE_MAX_FEATURES else _LRU_SIZE
        self._data = OrderedDict()

    def get(self, key, compute):
        try:
            value = self._data[key]
        except KeyError:
            value = compute()
            self._data[key] = value
            if self.maxsize is not None and len(self._data) > self.maxsize:
                self._data.popitem(last=False)
            return value
        if self.maxsize is not None:
            self._data.move_to_end(key)
        return value

    def __len__(self):
        return len(self._data)


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


# --------------------------------------------------------------------------
# base class
# --------------------------------------------------------------------------
class _BaseDistribution:
    """Shared machinery of :class:`MultivariateGaussian` and :class:`GaussianMixture`.

    Subclasses implement ``_parts(X, mask, interventional)``, returning the
    law of the free features of every row as a mixture: log-weights
    ``(n, K)``, means ``(n, K, u)``, lower factors ``(K, u, u)`` and
    covariances ``(K, u, u)``; and ``_from_parts`` building a distribution
    object from one row's parts.
    """

    n_components = 1

    # ---------------------------------------------------------- plumbing
    def _check_rows(self, X, name="X"):
        return _check_rows(X, self.n_features, name)

    def _standard_draws(self, rngs, n_samples):
        """One block of standard normals (and uniforms) per row generator.

        Returns ``Z`` of shape (n_rows, n_samples, n_features) and ``u`` of
        shape (n_rows, n_samples) (uniforms selecting mixture components;
        zeros for a single Gaussian).  The normals are drawn first, so a row's
        normals do not depend on the number of components.
        """
        n, d = len(rngs), self.n_features
        Z = np.empty((n, n_samples, d))
        u = np.zeros((n, n_samples))
        for i, rng in enumerate(rngs):
            Z[i] = rng.standard_normal((n_samples, d))
            if self.n_components > 1:
                u[i] = rng.random(n_samples)
        return Z, u

    def _row_draws(self, X, n_samples, random_state, keys):
        keys = row_keys(X) if keys is None else np.asarray(keys, dtype=np.int64)
        if keys.shape != (len(X),):
            raise ValueError(
                f"row_keys must have one key per row, shape ({len(X)},); got "
                f"{keys.shape}."
            )
        rngs = row_generators(seed_entropy(random_state), keys)
        return self._standard_draws(rngs, n_samples)

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

    def _impute_coalitions(self, X, keep, Z, u, interventional=False):
        """Full rows for per-row coalitions.

        ``keep`` (n, m, d) boolean -> (n, m, B, d); the draws of a row are
        shared by all its coalitions (common random numbers).
        """
        n, m, d = keep.shape
        B = Z.shape[1]
        flat = keep.reshape(n * m, d)
        uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        row_of = np.repeat(np.arange(n), m)
        out = np.empty((n * m, B, d))
        for k, mask in enumerate(uniq):
            idx = np.flatnonzero(inverse == k)
            r = row_of[idx]
            out[idx] = self._impute(X[r], mask, Z[r], u[r], interventional)
        return out.reshape(n, m, B, d)

    def _expected_rows(self, X, mask, interventional=False):
        """``E[X' | x_S]`` as full rows (n, d): ``x_S`` and the mean of ``X_U``."""
        out = X.copy()
        free = ~mask
        if free.any():
            log_w, means, _, _ = self._parts(X, mask, interventional)
            out[:, free] = np.einsum("nk,nku->nu", np.exp(log_w), means)
        return out

    # ------------------------------------------------------------ public
    def sample(self, n_samples, random_state=None):
        """Draw ``n_samples`` i.i.d. rows.

        Parameters
        ----------
        n_samples : int
            Number of rows.
        random_state : int, RandomState, Generator or None, default=None
            Seed of the draw (one stream for the whole sample; mixture
            components are drawn per row).

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
        """
        if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) \
                or n_samples < 0:
            raise ValueError(
                f"n_samples must be a non-negative int; got {n_samples!r}."
            )
        if isinstance(random_state, np.random.Generator):
            rng = random_state
        else:
            rng = np.random.default_rng(seed_entropy(random_state))
        Z, u = self._standard_draws([rng], int(n_samples))
        empty = np.zeros(self.n_features, dtype=bool)
        return self._impute(np.zeros((1, self.n_features)), empty, Z, u, False)[0]

    def conditional(self, x, given):
        """Observational conditional law of the free features given ``x_S``.

        Parameters
        ----------
        x : array-like of shape (n_features,)
            The instance; only its values on ``given`` are used.
        given : bool array-like of shape (n_features,) or list of int
            The fixed features ``S``.

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

    def conditional_mean(self, X, given):
        """Observational conditional expectation ``E[X | X_S = x_S]`` per row.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or list of int

        Returns
        -------
        means : ndarray of shape (n_rows, n_features)
            Full rows: ``X`` on ``S``, the conditional mean on the free
            features.
        """
        X = self._check_rows(X)
        return self._expected_rows(X, _check_given(given, self.n_features), False)

    def conditional_sample(self, X, given, n_samples=100, random_state=None, *,
                           row_keys=None):
        """Draws from the observational conditional, as full rows.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or list of int
        n_samples : int, default=100
            Draws per row.
        random_state : int, RandomState, Generator or None, default=None
        row_keys : array-like of int of shape (n_rows,), default=None
            Keys of the rows' random streams (default: a hash of each row).

        Returns
        -------
        Z : ndarray of shape (n_rows, n_samples, n_features)
            ``Z[i, b]`` equals ``X[i]`` on ``given`` and is drawn from
            ``X_U | X_S = X[i, S]`` on the free features.
        """
        return self._sample_rows(X, given, n_samples, random_state, row_keys, False)

    def marginal_sample(self, X, given, n_samples=100, random_state=None, *,
                        row_keys=None):
        """Interventional counterpart of :meth:`conditional_sample`.

        The free features are drawn from their marginal law, independently of
        the fixed ones (``x_S`` is kept as is).  Same parameters and return
        value as :meth:`conditional_sample`.
        """
        return self._sample_rows(X, given, n_samples, random_state, row_keys, True)

    def _sample_rows(self, X, given, n_samples, random_state, keys, interventional):
        X = self._check_rows(X)
        mask = _check_given(given, self.n_features)
        Z, u = self._row_draws(X, int(n_samples), random_state, keys)
        return self._impute(X, mask, Z, u, interventional)

    def conditional_expectation(self, f, X, given, n_samples=100, random_state=None,
                                interventional=False, *, affine=None,
                                batch_size=None, row_keys=None):
        """Expected model output when only the features ``S`` are known.

        Observational ``E[f(X) | X_S = x_S]`` (default) or interventional
        ``E_Z[f(x_S ⊕ Z_U)]``.  Closed form when ``f`` is affine
        (``affine=(w, c)``, or ``f`` exposes ``coef_`` and ``intercept_``);
        otherwise Monte Carlo with ``n_samples`` draws per row, the same
        standard draws being transformed for every subset (common random
        numbers).

        Parameters
        ----------
        f : callable
            Vectorised model ``f(Z) -> (m,)``.
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or (n_masks, n_features), or list of int
            One subset, or several as a 2-D boolean array.
        n_samples : int, default=100
            Monte-Carlo draws per row (ignored for affine ``f``).
        random_state : int, RandomState, Generator or None, default=None
        interventional : bool, default=False
            Draw the free features from their marginal instead of the
            conditional.
        affine : tuple (w, c), default=None
            Declares ``f(z) = z @ w + c``.
        batch_size : int, default=None
            Maximum number of rows per call of ``f`` (default: all draws of
            one subset in one call).
        row_keys : array-like of int of shape (n_rows,), default=None
            Keys of the rows' random streams (default: a hash of each row).

        Returns
        -------
        values : ndarray of shape (n_rows,) or (n_rows, n_masks)
        """
        X = self._check_rows(X)
        masks = _check_given(given, self.n_features, allow_2d=True)
        single = masks.ndim == 1
        masks = np.atleast_2d(masks)
        out = np.empty((X.shape[0], masks.shape[0]))
        aff = _affine_params(f, affine, self.n_features)
        if aff is not None:
            w, c = aff
            for j, mask in enumerate(masks):
                out[:, j] = self._expected_rows(X, mask, interventional) @ w + c
        else:
            Z, u = self._row_draws(X, int(n_samples), random_state, row_keys)
            n, B, d = Z.shape
            for j, mask in enumerate(masks):
                rows = self._impute(X, mask, Z, u, interventional).reshape(n * B, d)
                out[:, j] = _evaluate(f, rows, batch_size).reshape(n, B).mean(axis=1)
        return out[:, 0] if single else out

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


class MultivariateGaussian(_BaseDistribution):
    """Multivariate Gaussian ``N(mean, cov)`` with exact conditionals.

    Observational conditional of the free features ``U`` given ``x_S``
    (SPEC section 2.1)::

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

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import MultivariateGaussian
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
        mean = np.array(mean, dtype=np.float64, copy=True)
        if mean.ndim == 0:
            mean = np.full(d, float(mean))
        if mean.shape != (d,):
            raise ValueError(
                f"mean must have one entry per feature of cov ({d}); got shape "
                f"{mean.shape}."
            )
        if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(cov))):
            raise ValueError("mean and cov must be finite (no NaN or infinity).")
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

    def logpdf(self, X):
        """Log density of each row.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)

        Returns
        -------
        logpdf : ndarray of shape (n_rows,)
        """
        X = self._check_rows(X)
        return self._log_marginal_pdf(X, np.ones(self.n_features, dtype=bool))


# --------------------------------------------------------------------------
# Gaussian mixture
# --------------------------------------------------------------------------
class GaussianMixture(_BaseDistribution):
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

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import GaussianMixture
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

    def logpdf(self, X):
        """Log density of each row.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)

        Returns
        -------
        logpdf : ndarray of shape (n_rows,)
        """
        X = self._check_rows(X)
        return logsumexp(self._log_joint(X, np.ones(self.n_features, dtype=bool)), axis=1)
