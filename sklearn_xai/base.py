"""Base class of all explainers.

An explainer is a scikit-learn transformer: ``fit(X, y)`` fits (a clone of) the
model it explains and learns what the explanation needs from ``X``;
``transform(X)`` returns the attribution matrix, a float64 array of shape
``(n_samples, n_features)`` with one signed attribution per input feature.
A model that is already fitted is passed wrapped in
:class:`sklearn.frozen.FrozenEstimator`: it is then never refitted nor copied.
"""

import itertools
import numbers
from abc import ABCMeta, abstractmethod

import numpy as np
from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    OneToOneFeatureMixin,
    TransformerMixin,
    clone,
)
from sklearn.exceptions import NotFittedError
from sklearn.utils import get_tags
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import row_generators
from sklearn_xai.utils._random import row_keys as _row_keys

__all__ = ["BaseExplainer", "is_explainer"]


_FIT_IDS = itertools.count()


def mark_fitted(obj):
    """Give a freshly fitted estimator a new token; explanation scorers key
    their attribution cache on it, so a refit never reuses stale attributions."""
    obj._sklearn_xai_fit_id = next(_FIT_IDS)


def _is_frozen(estimator):
    return type(estimator).__name__ == "FrozenEstimator"


def fit_model(estimator, X, y=None, **fit_params):
    """``clone(estimator).fit(X, y)``, or ``estimator`` itself if frozen.

    Raises a clear error for a frozen model that was never fitted.
    """
    if _is_frozen(estimator):
        try:
            check_is_fitted(estimator.estimator)
        except NotFittedError:
            raise NotFittedError(
                f"The model inside FrozenEstimator ({type(estimator.estimator).__name__}) "
                "is not fitted. Fit it before freezing it, or pass the unfitted model "
                "without FrozenEstimator so that fit() trains it."
            ) from None
        return estimator
    if y is None:
        if get_tags(estimator).target_tags.required:
            raise ValueError(
                f"{type(estimator).__name__} requires y to be passed, but the target "
                "y is None. Pass y to fit, or wrap an already fitted model in "
                "sklearn.frozen.FrozenEstimator."
            )
        return clone(estimator).fit(X, **fit_params)
    return clone(estimator).fit(X, y, **fit_params)


class BaseExplainer(
    OneToOneFeatureMixin, TransformerMixin, MetaEstimatorMixin, BaseEstimator,
    metaclass=ABCMeta,
):
    """Base class for explainers (see DESIGN.md, "Explainers").

    Subclasses define ``__init__`` with ``estimator`` first, their
    hyperparameters keyword-only, then the common ``target``, ``output``,
    ``batch_size`` and ``random_state`` they use, and implement
    :meth:`_explain` (and optionally :meth:`_fit_explainer`).

    Class attributes
    ----------------
    _requires_estimator : bool
        ``False`` for model-ignorant explainers (random, image filters).
    _stochastic : bool
        ``True`` if :meth:`_explain` consumes random numbers; it then receives
        one generator per row, keyed by the row (SPEC 1.7).
    _shares_row_keys : bool
        ``True`` (default) if :meth:`explain` honours ``row_keys`` (common
        random numbers between a row and its neighbours in stability
        metrics).  ``False`` when the randomness *is* the explanation (the
        random control): each row is then always keyed by its own values, so
        a neighbour gets an independent draw.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit"]), None],
        "target": [StrOptions({"predicted"}), numbers.Integral, str, "array-like"],
        "output": [StrOptions({"auto", "proba", "decision", "predict"})],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }
    _requires_estimator = True
    _stochastic = False
    _shares_row_keys = True

    # ------------------------------------------------------------------ fit
    def fit(self, X, y=None, **fit_params):
        """Fit the model (unless frozen) and what the explainer needs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,), default=None
            Targets for the model (not needed for a ``FrozenEstimator``).
        **fit_params : dict
            Passed to the model's ``fit`` (routed when metadata routing is
            enabled).

        Returns
        -------
        self : object
            The fitted explainer.
        """
        self._validate_params()
        X_model = X
        X = validate_data(self, X, dtype=np.float64, reset=True)
        if self.estimator is None:
            if self._requires_estimator:
                raise ValueError(
                    f"{type(self).__name__} needs a model: pass estimator=<model> "
                    "(wrap an already fitted model in "
                    "sklearn.frozen.FrozenEstimator)."
                )
            self.estimator_ = None
        else:
            if get_config().get("enable_metadata_routing", False):
                routed = process_routing(self, "fit", **fit_params)
                model_params = routed.estimator.fit
            else:
                model_params = fit_params
            self.estimator_ = fit_model(self.estimator, X_model, y, **model_params)
        self._fit_explainer(X, None if y is None else np.asarray(y))
        mark_fitted(self)
        return self

    def _fit_explainer(self, X, y):
        """Hook: learn background statistics from the validated training rows."""

    # ------------------------------------------------------------- explain
    def _output(self, target=None):
        if self.estimator_ is None or not self._requires_estimator:
            return None
        return ExplainedOutput(
            self.estimator_,
            target=self.target if target is None else target,
            output=getattr(self, "output", "auto"),
            batch_size=getattr(self, "batch_size", None),
        )

    def explain(self, X, *, target=None, row_keys=None, return_n_evaluations=False):
        """Attributions of ``X``, with control over the target and randomness.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to explain.
        target : "predicted", int, label or array-like, default=None
            Overrides the ``target`` parameter for this call (for example the
            true labels, one per row).
        row_keys : array-like of int, shape (n_samples,), default=None
            Keys of the per-row random streams; by default a hash of each row,
            so a row gets the same draws whatever its batch or position.
            Stability metrics pass the key of the original row to explain its
            neighbours with common random numbers.  Ignored by explainers
            whose randomness is the explanation (:class:`RandomExplainer`).
        return_n_evaluations : bool, default=False
            Also return the number of model rows evaluated.

        Returns
        -------
        attributions : ndarray of shape (n_samples, n_features), float64
        n_evaluations : int
            Only if ``return_n_evaluations=True``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        f = self._output(target)
        t = None if f is None else f.target_index(X)
        rngs = None
        if self._stochastic:
            if row_keys is None or not self._shares_row_keys:
                keys = _row_keys(X)
            else:
                keys = np.asarray(row_keys)
            if keys.shape != (X.shape[0],):
                raise ValueError(
                    f"row_keys must have one key per row, shape ({X.shape[0]},); "
                    f"got {keys.shape}."
                )
            rngs = row_generators(getattr(self, "random_state", None), keys)
        A = np.asarray(self._explain(X, f, t, rngs), dtype=np.float64)
        if A.shape != X.shape:
            raise RuntimeError(
                f"{type(self).__name__}._explain returned shape {A.shape}, expected "
                f"{X.shape}."
            )
        if return_n_evaluations:
            return A, (0 if f is None else f.n_evaluations)
        return A

    def transform(self, X):
        """Attribution matrix of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to explain.

        Returns
        -------
        attributions : ndarray of shape (n_samples, n_features), float64
            One signed attribution per row and feature, columns in input
            order (a DataFrame with the input's column names under
            ``set_output(transform="pandas")``).
        """
        return self.explain(X)

    @abstractmethod
    def _explain(self, X, f, target_index, rngs):
        """Return attributions (n, d) of validated float64 rows ``X``.

        ``f`` is the :class:`~sklearn_xai.utils.ExplainedOutput` (``None``
        for model-ignorant explainers), ``target_index`` the class column per
        row (``None`` for regression), ``rngs`` one generator per row (only
        for stochastic explainers).
        """

    # ------------------------------------------------------------ routing
    def get_metadata_routing(self):
        """Route ``fit`` metadata to the model's ``fit``.

        Returns
        -------
        routing : MetadataRouter
        """
        router = MetadataRouter(owner=self)
        if self.estimator is not None:
            router.add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(caller="fit", callee="fit"),
            )
        return router

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.transformer_tags.preserves_dtype = ["float64"]
        tags.target_tags.required = False
        tags.non_deterministic = self._stochastic and getattr(
            self, "random_state", None
        ) is None
        return tags



def is_explainer(obj):
    """Whether ``obj`` is a sklearn_xai explainer (class or instance)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, BaseExplainer)
