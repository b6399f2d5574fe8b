"""Base class of maskers: how a feature is "removed".

A masker answers one question for every explainer and metric of the toolkit:
given rows ``X`` and, for each row, coalitions ``keep`` of features that are
*kept*, what inputs does the model see?  :meth:`BaseMasker.impute` returns them
as an array of shape ``(n_rows, n_coalitions, n_draws, n_features)``;
:meth:`BaseMasker.evaluate` evaluates the explained output on them in bounded
batches and averages over the draws, giving the value function
``v_x(S) = E[f(x')]`` of SPEC section 1.5.
"""

from abc import ABCMeta, abstractmethod

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["BaseMasker", "check_masker"]


class BaseMasker(BaseEstimator, metaclass=ABCMeta):
    """Base class for maskers.

    Subclasses implement :meth:`_fit` (learn statistics from training rows),
    :meth:`_impute` and the :attr:`n_draws` property.
    """

    _parameter_constraints: dict = {}

    def fit(self, X, y=None):
        """Learn what the masker needs (baselines, background, distribution).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : None
            Ignored.

        Returns
        -------
        self : object
        """
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, reset=True)
        self._fit(X)
        return self

    def _fit(self, X):
        """Hook for subclasses; ``X`` is a validated float64 array."""

    @property
    @abstractmethod
    def n_draws(self):
        """Number of imputed copies per (row, coalition)."""

    @property
    def is_deterministic(self):
        """Whether :meth:`impute` ignores the random generators."""
        return True

    @abstractmethod
    def _impute(self, X, keep, rngs):
        """Return imputed rows of shape (n, m, n_draws, d); ``keep`` is (n, m, d)."""

    def _check_keep(self, X, keep):
        keep = np.asarray(keep)
        if keep.dtype != bool:
            if not np.isin(keep, (0, 1)).all():
                raise ValueError("keep must be a boolean mask of kept features.")
            keep = keep.astype(bool)
        n, d = X.shape
        if keep.ndim == 1:
            keep = keep[None, :]
        if keep.ndim == 2:
            keep = np.broadcast_to(keep, (n,) + keep.shape)
        if keep.ndim != 3 or keep.shape[0] != n or keep.shape[2] != d:
            raise ValueError(
                f"keep must have shape (n_coalitions, {d}) or ({n}, n_coalitions, "
                f"{d}); got {keep.shape}."
            )
        return keep

    def impute(self, X, keep, *, rngs=None, check_input=True):
        """Inputs the model sees when only the features in ``keep`` are known.

        Parameters
        ----------
        X : ndarray of shape (n_rows, n_features)
            The rows being explained or scored.
        keep : bool ndarray of shape (n_coalitions, n_features) or (n_rows, n_coalitions, n_features)
            ``True`` where the feature keeps its value in ``X``.
        rngs : list of numpy.random.Generator, optional
            One generator per row (see :mod:`sklearn_xai.utils`); required by
            stochastic maskers.
        check_input : bool, default=True
            Validate the masker's state and the inputs.  Callers that already
            did (a fitted masker, float64 ``X`` with the fitted number of
            features, a boolean ``keep`` of shape (n_rows, n_coalitions,
            n_features)) may pass ``False`` to save the checks on every call.

        Returns
        -------
        Z : ndarray of shape (n_rows, n_coalitions, n_draws, n_features)
        """
        if not check_input:
            return self._impute(X, keep, rngs)
        check_is_fitted(self)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[-1]} features, but {type(self).__name__} was fitted "
                f"with {self.n_features_in_}."
            )
        keep = self._check_keep(X, keep)
        if not self.is_deterministic and rngs is None:
            raise ValueError(
                f"{type(self).__name__} is stochastic: pass one random generator per "
                "row in rngs (sklearn_xai.utils.row_generators)."
            )
        return self._impute(X, keep, rngs)

    def evaluate(self, f, X, keep, *, target_index=None, batch_size=None, rngs=None):
        """Value function ``v_x(S)``: mean model output over the imputed rows.

        Parameters
        ----------
        f : callable
            ``f(Z, target_index) -> (len(Z),)``, typically an
            :class:`~sklearn_xai.utils.ExplainedOutput`.
        X : ndarray of shape (n_rows, n_features)
        keep : bool ndarray, see :meth:`impute`
        target_index : ndarray of shape (n_rows,) or None
            Class column of each row (``None`` for regression outputs).
        batch_size : int or None
            Upper bound on the number of model rows per call (at least one
            row's coalitions are always evaluated together).
        rngs : list of numpy.random.Generator, optional

        Returns
        -------
        values : ndarray of shape (n_rows, n_coalitions)
        """
        X = np.asarray(X, dtype=np.float64)
        keep = self._check_keep(X, keep)
        n, m, _ = keep.shape
        b = self.n_draws
        per_row = m * b
        rows_per_chunk = max(1, (batch_size or n * per_row) // max(per_row, 1))
        out = np.empty((n, m), dtype=np.float64)
        for start in range(0, n, rows_per_chunk):
            sl = slice(start, start + rows_per_chunk)
            Z = self.impute(
                X[sl], keep[sl], rngs=None if rngs is None else rngs[sl]
            )
            c = Z.shape[0]
            t = None
            if target_index is not None:
                t = np.repeat(np.asarray(target_index)[sl], per_row)
            vals = f(Z.reshape(c * per_row, -1), t)
            out[sl] = np.asarray(vals, dtype=np.float64).reshape(c, m, b).mean(axis=2)
        return out


def check_masker(masker, X=None, *, default=None):
    """Return a fitted masker.

    Parameters
    ----------
    masker : BaseMasker or None
        A fitted masker is used as is; an unfitted one is cloned and fitted
        on ``X``; ``None`` uses ``default``.
    X : ndarray, optional
        Rows to fit an unfitted masker on.
    default : BaseMasker, optional

    Returns
    -------
    masker : fitted BaseMasker
    """
    if masker is None:
        masker = default
    if not isinstance(masker, BaseMasker):
        raise TypeError(
            "masker must be a sklearn_xai masker such as BaselineMasker('zero') or "
            f"MarginalMasker(); got {type(masker).__name__}."
        )
    try:
        check_is_fitted(masker)
        return masker
    except Exception:
        if X is None:
            raise ValueError(
                f"{type(masker).__name__} is not fitted and no data was given to "
                "fit it; call masker.fit(X_train) first."
            ) from None
        return clone(masker).fit(X)
