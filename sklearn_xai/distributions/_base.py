"""Base class of the feature distributions: the protocol maskers use.

Conventions
-----------
``given`` is the set ``S`` of *fixed* (known) features: a boolean mask of
length ``n_features`` or a list of feature indices.  The free features are
``U = [d] \\ S``.  Methods returning rows return *full* rows of
``n_features`` columns, equal to ``X`` on ``S``.

Row ``i``'s random draws come from a generator keyed by ``(random_state,
key_i)`` (by default the key is a hash of the row's values; see
:ref:`def-random-streams` in the user guide),
so a row gets the same draws whatever the batch it is in.  One block of
standard normals (and, for mixtures, of uniforms selecting the component) is
drawn per row and transformed for every subset ``S``: the Monte-Carlo values of
different subsets share their random numbers, which lowers the variance of the
differences ``v(S + j) - v(S)`` that Shapley values are made of.
"""

import numbers
from abc import ABCMeta, abstractmethod
from collections import OrderedDict

import numpy as np

from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._random import row_generators, row_keys, seed_entropy
from sklearn_xai.utils._validation import affine_params, check_rows

__all__ = ["BaseDistribution"]

# Masks of distributions up to this many features are all cached (2**16
# entries at most); larger ones keep the most recently used masks.
_FULL_CACHE_MAX_FEATURES = 16
_LRU_SIZE = 256

# Docstring sections that the distributions' methods share (filled by
# Substitution): the parameters of ``conditional`` and all of ``logpdf``'s.
DISTRIBUTION_DOC = {
    "conditional_parameters": """
        Parameters
        ----------
        x : array-like of shape (n_features,)
            The instance; only its values on ``given`` are used.
        given : bool array-like of shape (n_features,) or list of int
            The fixed features ``S``.""",
}
LOGPDF_DOC = {
    "logpdf_sections": """
        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)

        Returns
        -------
        logpdf : ndarray of shape (n_rows,)""",
}


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


def _evaluate(f, Z, batch_size):
    """``f`` on the rows of ``Z``, at most ``batch_size`` rows per call
    (``None``: blocks of about ``BLOCK_ENTRIES`` values, see
    :func:`sklearn_xai.utils._output.block_slices`)."""
    out = [np.asarray(f(Z[sl]), dtype=np.float64).reshape(-1)
           for sl in block_slices(len(Z), 1, Z.shape[1], batch_size)]
    values = np.concatenate(out) if out else np.empty(0)
    if values.shape != (len(Z),):
        raise ValueError(
            f"f must return one value per row: got {values.size} values for "
            f"{len(Z)} rows."
        )
    return values


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



# --------------------------------------------------------------------------
# base class
# --------------------------------------------------------------------------
@Substitution(distribution_references=references("aas2021", "liu2021"))
class BaseDistribution(metaclass=ABCMeta):
    """Base class for feature distributions with known conditionals.

    The public methods are what the rest of the package uses: maskers draw
    conditional rows with :meth:`standard_draws` and
    :meth:`impute_coalitions`, compute closed-form values of affine models
    with :meth:`expected_rows`, and users call :meth:`sample`,
    :meth:`conditional_mean`, :meth:`conditional_sample` and
    :meth:`conditional_expectation`.

    A subclass sets ``n_features`` (and ``n_components`` when its draws
    pick a mixture component) and implements two hooks; everything else is
    built on them:

    ``_impute(X, mask, Z, u, interventional)``
        Full rows of shape (n, B, d) for one boolean ``mask`` of fixed
        features: equal to ``X`` (n, d) on the mask, and on the free features
        the transform of the row's standard draws ``Z`` (n, B, d) and ``u``
        (n, B) (from :meth:`standard_draws`) into draws of the observational
        conditional ``X_U | X_S = x_S`` (or of the marginal ``X_U`` when
        ``interventional``).
    ``_expected_rows(X, mask, interventional)``
        Full rows (n, d): ``X`` on the mask, the conditional (or marginal)
        mean of the free features elsewhere.

    Override :meth:`standard_draws` when the transform needs other random
    numbers, and :meth:`conditional` / :meth:`marginal` to return the laws
    as distribution objects.

    Attributes
    ----------
    n_features : int
        Number of features.
    n_components : int
        Number of mixture components (1 unless the distribution is a
        mixture); with more than one, :meth:`standard_draws` also draws the
        uniforms that select a component.

    {distribution_references}

    Examples
    --------
    A distribution of independent uniform features on ``[0, 1)``:

    >>> import numpy as np
    >>> from scipy.special import ndtr
    >>> from sklearn_xai.distributions import BaseDistribution
    >>> class IndependentUniform(BaseDistribution):
    ...     def __init__(self, n_features):
    ...         self.n_features = n_features
    ...     def _impute(self, X, mask, Z, u, interventional):
    ...         out = np.repeat(X[:, None, :], Z.shape[1], axis=1)
    ...         out[:, :, ~mask] = ndtr(Z[:, :, ~mask])  # uniform draws
    ...         return out
    ...     def _expected_rows(self, X, mask, interventional):
    ...         return np.where(mask, X, 0.5)
    >>> dist = IndependentUniform(2)
    >>> dist.conditional_mean([[0.9, 0.1]], given=[0]).tolist()
    [[0.9, 0.5]]
    >>> Z = dist.conditional_sample([[0.9, 0.1]], given=[0], n_draws=3,
    ...                             random_state=0)
    >>> Z.shape, bool(np.all(Z[..., 0] == 0.9))
    ((1, 3, 2), True)
    """

    n_components = 1

    # ------------------------------------------------------------- hooks
    @abstractmethod
    def _impute(self, X, mask, Z, u, interventional):
        """Full rows (n, B, d) for one mask from standard draws (see class)."""

    @abstractmethod
    def _expected_rows(self, X, mask, interventional):
        """``E[X' | x_S]`` as full rows (n, d) (see class)."""

    # ---------------------------------------------------------- plumbing
    def _check_rows(self, X, name="X"):
        return check_rows(X, self.n_features, name)

    def _row_draws(self, X, n_draws, random_state, keys):
        keys = row_keys(X) if keys is None else np.asarray(keys, dtype=np.int64)
        if keys.shape != (len(X),):
            raise ValueError(
                f"row_keys must have one key per row, shape ({len(X)},); got "
                f"{keys.shape}."
            )
        rngs = row_generators(seed_entropy(random_state), keys)
        return self.standard_draws(rngs, n_draws)

    # -------------------------------------------------- masker protocol
    def standard_draws(self, rngs, n_draws):
        """One block of standard random numbers per row generator.

        The normals are drawn first, so a row's normals do not depend on the
        number of components.

        Parameters
        ----------
        rngs : sequence of numpy.random.Generator
            One generator per row (see
            :func:`sklearn_xai.utils.row_generators`).
        n_draws : int
            Monte-Carlo draws per row.

        Returns
        -------
        Z : ndarray of shape (n_rows, n_draws, n_features)
            Standard normals.
        u : ndarray of shape (n_rows, n_draws)
            Uniforms on ``[0, 1)`` selecting mixture components (zeros when
            ``n_components == 1``).
        """
        n, d = len(rngs), self.n_features
        Z = np.empty((n, n_draws, d))
        u = np.zeros((n, n_draws))
        for i, rng in enumerate(rngs):
            Z[i] = rng.standard_normal((n_draws, d))
            if self.n_components > 1:
                u[i] = rng.random(n_draws)
        return Z, u

    def impute_coalitions(self, X, keep, Z, u, *, interventional=False):
        """Conditional draws for per-row coalitions, as full rows.

        The draws ``Z``, ``u`` of a row are transformed for every coalition
        of that row (common random numbers), so the values of different
        coalitions share their Monte-Carlo noise.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
        keep : bool ndarray of shape (n_rows, n_coalitions, n_features)
            ``True`` where a feature is fixed at its value in ``X``.
        Z, u : ndarray
            The rows' standard draws, from :meth:`standard_draws`.
        interventional : bool, default=False
            Draw the free features from their marginal law instead of the
            conditional one.

        Returns
        -------
        rows : ndarray of shape (n_rows, n_coalitions, n_draws, n_features)
        """
        X = np.asarray(X, dtype=np.float64)
        keep = np.asarray(keep)
        n, d = X.shape[0], self.n_features
        if keep.dtype != bool or keep.ndim != 3 or keep.shape[0] != n \
                or keep.shape[2] != d or X.shape != (n, d):
            raise ValueError(
                f"impute_coalitions needs X of shape (n_rows, {d}) and a boolean "
                f"keep of shape (n_rows, n_coalitions, {d}); got {X.shape} and "
                f"{keep.shape} ({keep.dtype})."
            )
        m = keep.shape[1]
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

    def expected_rows(self, X, given, *, interventional=False):
        """Expected rows when only ``given`` is known: ``E[X | X_S = x_S]``.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or list of int
            The fixed features ``S``.
        interventional : bool, default=False
            The marginal mean of the free features instead of their
            conditional mean.

        Returns
        -------
        rows : ndarray of shape (n_rows, n_features)
            ``X`` on ``S``, the expected value elsewhere; for an affine model
            ``f(z) = w.z + c``, ``rows @ w + c`` is the exact value
            ``E[f(X) | X_S = x_S]``.
        """
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features:
            raise ValueError(
                f"X must have shape (n_rows, {self.n_features}); got {X.shape}."
            )
        return self._expected_rows(X, _check_given(given, self.n_features),
                                   interventional)

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
        Z, u = self.standard_draws([rng], int(n_samples))
        empty = np.zeros(self.n_features, dtype=bool)
        return self._impute(np.zeros((1, self.n_features)), empty, Z, u, False)[0]

    @Substitution(**DISTRIBUTION_DOC)
    def conditional(self, x, given):
        """Observational conditional law of the free features given ``x_S``.

        {conditional_parameters}

        Returns
        -------
        distribution : BaseDistribution
            Law of ``X_U | X_S = x_S`` over the ``n_features - |S|`` free
            features, in their original order.

        Raises
        ------
        NotImplementedError
            When the subclass does not represent its conditionals as
            distribution objects (draws and means still work).
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not return its conditional laws as "
            "distribution objects; use conditional_sample, conditional_mean or "
            "conditional_expectation."
        )

    def marginal(self, given):
        """Interventional counterpart of :meth:`conditional`: the law of ``X_U``.

        Parameters
        ----------
        given : bool array-like of shape (n_features,) or list of int

        Returns
        -------
        distribution : BaseDistribution

        Raises
        ------
        NotImplementedError
            When the subclass does not represent its marginals as
            distribution objects.
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not return its marginal laws as "
            "distribution objects; use marginal_sample."
        )

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

    def conditional_sample(self, X, given, n_draws=100, random_state=None, *,
                           row_keys=None):
        """Draws from the observational conditional, as full rows.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or list of int
        n_draws : int, default=100
            Monte-Carlo draws per row.
        random_state : int, RandomState, Generator or None, default=None
        row_keys : array-like of int of shape (n_rows,), default=None
            Keys of the rows' random streams (default: a hash of each row).

        Returns
        -------
        Z : ndarray of shape (n_rows, n_draws, n_features)
            ``Z[i, b]`` equals ``X[i]`` on ``given`` and is drawn from
            ``X_U | X_S = X[i, S]`` on the free features.
        """
        return self._sample_rows(X, given, n_draws, random_state, row_keys, False)

    def marginal_sample(self, X, given, n_draws=100, random_state=None, *,
                        row_keys=None):
        """Interventional counterpart of :meth:`conditional_sample`.

        The free features are drawn from their marginal law, independently of
        the fixed ones (``x_S`` is kept as is).  Same parameters and return
        value as :meth:`conditional_sample`.
        """
        return self._sample_rows(X, given, n_draws, random_state, row_keys, True)

    def _sample_rows(self, X, given, n_draws, random_state, keys, interventional):
        X = self._check_rows(X)
        mask = _check_given(given, self.n_features)
        Z, u = self._row_draws(X, int(n_draws), random_state, keys)
        return self._impute(X, mask, Z, u, interventional)

    def conditional_expectation(self, f, X, given, n_draws=100, random_state=None,
                                interventional=False, *, affine=None,
                                batch_size=None, row_keys=None):
        """Expected model output when only the features ``S`` are known.

        Observational ``E[f(X) | X_S = x_S]`` (default) or interventional
        ``E_Z[f(x_S ⊕ Z_U)]``.  Closed form when ``f`` is affine
        (``affine=(w, c)``, or ``f`` exposes ``coef_`` and ``intercept_``);
        otherwise Monte Carlo with ``n_draws`` draws per row, the same
        standard draws being transformed for every subset (common random
        numbers).

        Parameters
        ----------
        f : callable
            Vectorised model ``f(Z) -> (m,)``.
        X : array-like of shape (n_rows, n_features)
        given : bool array-like of shape (n_features,) or (n_masks, n_features), or list of int
            One subset, or several as a 2-D boolean array.
        n_draws : int, default=100
            Monte-Carlo draws per row (ignored for affine ``f``).
        random_state : int, RandomState, Generator or None, default=None
        interventional : bool, default=False
            Draw the free features from their marginal instead of the
            conditional.
        affine : tuple (w, c), default=None
            Declares ``f(z) = z @ w + c``.
        batch_size : int or None, default=None
            Maximum number of rows per call of ``f``; ``None``: blocks of
            about ``BLOCK_ENTRIES`` (``2**17``) values, several subsets per
            call when they fit.  Values do not depend on it.
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
        aff = affine_params(f, affine, self.n_features)
        if aff is not None:
            w, c = aff
            for j, mask in enumerate(masks):
                out[:, j] = self._expected_rows(X, mask, interventional) @ w + c
        else:
            Z, u = self._row_draws(X, int(n_draws), random_state, row_keys)
            n, B, d = Z.shape
            # Several subsets per model call: as many as one block holds.
            for block in block_slices(len(masks), n * B, d, batch_size):
                rows = np.concatenate([self._impute(X, mask, Z, u, interventional)
                                       .reshape(n * B, d) for mask in masks[block]])
                values = _evaluate(f, rows, batch_size).reshape(-1, n, B).mean(axis=2)
                out[:, block] = values.T
        return out[:, 0] if single else out

