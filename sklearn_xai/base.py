"""Base class of all explainers.

An explainer is a scikit-learn transformer: ``fit(X, y)`` fits (a clone of) the
model it explains and learns what the explanation needs from ``X``;
``transform(X)`` returns the attribution matrix, a float64 array of shape
``(n_samples, n_features)`` with one signed attribution per input feature.
A model that is already fitted is passed wrapped in
:class:`sklearn.frozen.FrozenEstimator`: it is then never refitted nor copied.

What an explainer can do is declared in its tags, the scikit-learn way:
``__sklearn_tags__`` returns :class:`Tags` (scikit-learn's tags plus an
``explainer_tags`` field holding :class:`ExplainerTags`), read with
:func:`get_explainer_tags`.
"""

import dataclasses
import inspect
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
from sklearn.utils import Tags as _SklearnTags
from sklearn.utils import get_tags
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.utils._estimators import is_frozen
from sklearn_xai.utils._output import ExplainedOutput, check_single_output_target
from sklearn_xai.utils._random import RowStreams
from sklearn_xai.utils._tabular import TabularCodec, has_non_numeric_columns
from sklearn_xai.utils._random import row_keys as _row_keys
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    validate_estimator_params,
)

__all__ = [
    "BaseExplainer",
    "ExplainerTags",
    "Tags",
    "get_explainer_tags",
    "is_explainer",
]


@dataclasses.dataclass(slots=True)
class ExplainerTags:
    """What an explainer needs and does, declared in ``__sklearn_tags__``.

    The base class reads these tags to decide whether ``fit`` needs a model
    and whether ``explain`` draws per-row random streams; the common tests and
    :func:`~sklearn_xai.utils.discovery.all_explainers` filter explainers by
    them.  An explainer sets the fields that differ from the defaults::

        def __sklearn_tags__(self):
            tags = super().__sklearn_tags__()
            tags.explainer_tags.stochastic = True
            tags.non_deterministic = self.random_state is None
            return tags

    Parameters
    ----------
    requires_estimator : bool, default=True
        Whether ``fit`` needs a model.  ``False`` for model-ignorant controls
        (random attributions, image filters), which are fitted without one
        and never call it.
    model_agnostic : bool, default=True
        Whether the explainer explains any model through its outputs alone
        (``predict``, ``predict_proba``, ``decision_function``).  ``False``
        for model-specific explainers (gradients of a torch network, tree
        paths) and for model-ignorant controls, which explain no model.
    differentiable : bool, default=False
        Whether the model must be a differentiable torch model (see
        :func:`~sklearn_xai.explainers.differentiable_model`).
    stochastic : bool, default=False
        Whether ``explain`` consumes random numbers.  ``_explain`` then
        receives the rows' :class:`~sklearn_xai.utils.RowStreams`, keyed by
        the rows (see :ref:`def-random-streams`), and ``random_state`` makes
        the attributions reproducible.  May depend
        on the parameters (a masker-based explainer is stochastic when its
        masker is).
    shares_row_keys : bool, default=True
        Whether ``explain`` honours ``row_keys`` (common random numbers
        between a row and its neighbours in stability metrics).  ``False``
        when the randomness *is* the explanation (the random control): each
        row is then always keyed by its own values, so a neighbour gets an
        independent draw.  Only meaningful for stochastic explainers.
    raw_columns : bool, default=False
        Whether the explainer explains a DataFrame with non-numeric
        (string, categorical) columns as it is: it only ever replaces a
        column's value by a value of the same column from other rows (a
        masker with ``substitutes_values``), so ``fit`` codes such columns
        and the model is called on DataFrames with the user's columns and
        dtypes (see :ref:`raw-dataframes`).  May depend on the parameters.

    Examples
    --------
    >>> from sklearn_xai.base import get_explainer_tags
    >>> from sklearn_xai.explainers import KernelSHAP
    >>> tags = get_explainer_tags(KernelSHAP())
    >>> tags.stochastic, tags.model_agnostic, tags.differentiable
    (True, True, False)
    """

    requires_estimator: bool = True
    model_agnostic: bool = True
    differentiable: bool = False
    stochastic: bool = False
    shares_row_keys: bool = True
    raw_columns: bool = False


@dataclasses.dataclass(slots=True)
class Tags(_SklearnTags):
    """scikit-learn's :class:`sklearn.utils.Tags` with an ``explainer_tags`` field.

    Returned by every explainer's ``__sklearn_tags__`` (and so by
    :func:`sklearn.utils.get_tags`), in the way imbalanced-learn adds
    ``sampler_tags``: scikit-learn's checks see ordinary tags.

    Parameters
    ----------
    explainer_tags : ExplainerTags or None, default=None
        The explainer's capabilities (``None`` for other estimators).
    **sklearn_tags
        The fields of :class:`sklearn.utils.Tags`.
    """

    explainer_tags: ExplainerTags | None = None

    @classmethod
    def from_sklearn(cls, tags, explainer_tags):
        """These tags with ``explainer_tags`` added.

        Parameters
        ----------
        tags : sklearn.utils.Tags
        explainer_tags : ExplainerTags

        Returns
        -------
        tags : Tags
        """
        fields = {f.name: getattr(tags, f.name)
                  for f in dataclasses.fields(_SklearnTags)}
        return cls(**fields, explainer_tags=explainer_tags)


def get_explainer_tags(explainer):
    """The :class:`ExplainerTags` of an explainer.

    Parameters
    ----------
    explainer : explainer instance or class
        A class is described by its default-constructed instance (tags that
        depend on parameters take their default values).

    Returns
    -------
    tags : ExplainerTags

    Raises
    ------
    TypeError
        If ``explainer`` is not a sklearn_xai explainer.

    Examples
    --------
    >>> from sklearn_xai.base import get_explainer_tags
    >>> from sklearn_xai.explainers import RandomExplainer, Saliency
    >>> get_explainer_tags(RandomExplainer).requires_estimator
    False
    >>> get_explainer_tags(Saliency()).differentiable
    True
    """
    if isinstance(explainer, type):
        if not issubclass(explainer, BaseExplainer) or inspect.isabstract(explainer):
            raise TypeError(
                f"{explainer.__name__} is not a concrete sklearn_xai explainer class."
            )
        explainer = explainer()
    tags = getattr(get_tags(explainer), "explainer_tags", None)
    if tags is None:
        raise TypeError(
            f"{type(explainer).__name__} is not a sklearn_xai explainer: its tags "
            "have no explainer_tags (subclass sklearn_xai.base.BaseExplainer)."
        )
    return tags


_FIT_IDS = itertools.count()


def clone_with_estimator(explainer, estimator):
    """A clone of ``explainer`` explaining ``estimator`` when it is not None.

    The meta-explainers (:class:`~sklearn_xai.compose.TransformedExplainer`,
    :class:`~sklearn_xai.explainers.NoiseTunnel`) take an inner explainer and
    an optional ``estimator`` that overrides the inner one's.
    """
    explainer = clone(explainer)
    if estimator is not None:
        if "estimator" not in explainer.get_params(deep=False):
            raise ValueError(
                f"estimator was given but {type(explainer).__name__} takes no "
                "estimator parameter; leave estimator=None."
            )
        explainer.set_params(estimator=estimator)
    return explainer


def mark_fitted(obj):
    """Give a freshly fitted estimator a new token; explanation scorers key
    their attribution cache on it, so a refit never reuses stale attributions."""
    obj._sklearn_xai_fit_id = next(_FIT_IDS)


def _non_numeric_columns(X):
    """Columns of ``X`` holding text (strings, string categories), as
    (names, dtypes): those whose conversion to float raises a ValueError.

    Only called after a conversion failed, so its cost does not matter.
    """
    if hasattr(X, "columns") and hasattr(X, "dtypes"):  # pandas / polars
        bad = []
        for position, name in enumerate(X.columns):
            column = X.iloc[:, position] if hasattr(X, "iloc") else X[name]
            try:
                np.asarray(column, dtype=np.float64)
            except ValueError:
                bad.append((name, str(column.dtype)))
            except TypeError:  # other objects: numpy's own error is clear
                pass
        return bad
    try:
        X = np.asarray(X)
    except (TypeError, ValueError):
        return []
    if X.ndim != 2 or X.dtype.kind not in "OSUM":
        return []
    bad = []
    for j in range(X.shape[1]):
        try:
            np.asarray(X[:, j], dtype=np.float64)
        except ValueError:
            bad.append((j, str(X.dtype)))
        except TypeError:
            pass
    return bad


def validate_X(explainer, X, *, reset):
    """``validate_data(explainer, X, dtype=float64)``, naming text columns.

    Explainers perturb and average features, so every feature must be a
    number.  When ``X`` has string, categorical or date columns, the error
    names them and says how to encode them, instead of numpy's
    ``could not convert string to float``.

    Parameters
    ----------
    explainer : estimator
        The estimator validating ``X`` (``n_features_in_`` and
        ``feature_names_in_`` are set or checked on it).
    X : array-like of shape (n_samples, n_features)
    reset : bool
        ``True`` in ``fit``, ``False`` afterwards.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    """
    # Missing values pass only where the explainer declares it handles them.
    finite = "allow-nan" if get_tags(explainer).input_tags.allow_nan else True
    try:
        return validate_data(explainer, X, dtype=np.float64, reset=reset,
                             ensure_all_finite=finite)
    except ValueError as exc:  # a TypeError (non-number objects) stays as is
        bad = _non_numeric_columns(X)
        if not bad:
            raise
        names = [name for name, _ in bad]
        dtypes = sorted({dtype for _, dtype in bad})
        where = "column(s)" if hasattr(X, "columns") else "column(s) at position(s)"
        raise ValueError(
            f"X has non-numeric {where} {names} (dtype {', '.join(dtypes)}), but "
            f"{type(explainer).__name__} needs numeric features. Encode them first, "
            "e.g. with sklearn_xai.datasets.openxai_preprocessor() (one-hot) or "
            "beexai_preprocessor() (ordinal codes), or a "
            "sklearn.compose.ColumnTransformer with a OneHotEncoder / "
            "OrdinalEncoder, then fit the model and the explainer on the "
            "encoded columns; or explain a Pipeline on the raw columns with an "
            "explainer that substitutes values (FeatureAblation, KernelSHAP, "
            "ShapleyValueSampling, ExactShapley, BreakDown with "
            "masker=MarginalMasker(...))."
        ) from exc


def fit_model(estimator, X, y=None, **fit_params):
    """``clone(estimator).fit(X, y)``, or ``estimator`` itself if frozen.

    Raises a clear error for a frozen model that was never fitted.
    """
    if is_frozen(estimator):
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
    """Base class for explainers.

    An explainer returns one signed attribution row per explained row (see
    :ref:`def-attributions` in the user guide).

    Subclasses define ``__init__`` with ``estimator`` first, their
    hyperparameters keyword-only, then the common ``target``, ``output``,
    ``batch_size`` and ``random_state`` they use, and implement
    :meth:`_explain` (and optionally :meth:`_fit_explainer` and
    :meth:`_fit_estimator`).  ``batch_size`` always means the maximum
    number of model rows per call, ``None`` calls of about 2**17 input
    entries (:func:`~sklearn_xai.utils._output.block_slices`); the
    attributions never depend on it.  What the explainer needs and
    does (a model, a differentiable model, random numbers) is declared in
    ``__sklearn_tags__`` through :class:`ExplainerTags`.
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit"]), None],
        "target": [StrOptions({"predicted"}), numbers.Integral, str, "array-like"],
        "output": [StrOptions({"auto", "proba", "decision", "predict", "margin"})],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    @property
    def explained_estimator_(self):
        """The fitted model whose output is explained (``estimator_``).

        Together with :meth:`explain` it forms the protocol explanation
        scorers rely on: anything with both (an explainer, an
        :class:`~sklearn_xai.compose.ExplainedModel`) can be scored.
        ``None`` for a model-ignorant explainer fitted without a model.
        """
        check_is_fitted(self)
        return self.estimator_

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

        Notes
        -----
        The explainer keeps a reference to ``X`` and ``y`` (not a copy) in
        the private attribute ``_sklearn_xai_fit_data``: the randomisation
        checks (:func:`~sklearn_xai.metrics.mprt` and its variants) fit a
        fresh clone of the explainer to each randomised model on the same
        rows, so that what the explainer learnt from the model at fit is
        learnt again.
        """
        validate_estimator_params(self)
        X_model = X
        self.codec_ = None
        if has_non_numeric_columns(X):
            if not get_explainer_tags(self).raw_columns:
                validate_X(self, X, reset=True)  # the error naming the columns
            self.codec_ = TabularCodec().fit(X)
            X = self.codec_.encode(X)
        X = validate_X(self, X, reset=True)
        if self.estimator is None:
            if get_explainer_tags(self).requires_estimator:
                raise ValueError(
                    f"{type(self).__name__} needs a model: pass estimator=<model> "
                    "(wrap an already fitted model in "
                    "sklearn.frozen.FrozenEstimator)."
                )
            self.estimator_ = None
        else:
            self.estimator_ = self._fit_estimator(X_model, y, **fit_params)
        self._fit_explainer(X, None if y is None else np.asarray(y))
        self._sklearn_xai_fit_data = (X_model, y)
        mark_fitted(self)
        return self

    def _fit_estimator(self, X, y, **fit_params):
        """Hook: the fitted model to explain (``estimator`` is not None).

        By default a clone of ``estimator`` fitted on ``(X, y)`` with the
        (routed) ``fit_params``, or ``estimator`` itself when it is a
        ``FrozenEstimator``.  ``X`` is the input as given (not validated), so
        a Pipeline sees its DataFrame columns.
        """
        if get_config().get("enable_metadata_routing", False):
            fit_params = process_routing(self, "fit", **fit_params).estimator.fit
        return fit_model(self.estimator, X, y, **fit_params)

    def _fit_explainer(self, X, y):
        """Hook: learn background statistics from the validated training rows."""

    # ------------------------------------------------------------- explain
    def _output(self, target=None):
        if self.estimator_ is None or not get_explainer_tags(self).requires_estimator:
            return None
        return ExplainedOutput(
            self.estimator_,
            target=self.target if target is None else target,
            output=getattr(self, "output", "auto"),
            batch_size=getattr(self, "batch_size", None),
            codec=getattr(self, "codec_", None),
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
            Keys of the per-row random streams; by default a hash of each row
            (:func:`~sklearn_xai.utils.row_keys`, of its values rounded to
            float32), so a row gets the same draws whatever its batch,
            position or dtype.
            Stability metrics pass the key of the original row to explain its
            neighbours with common random numbers.  Ignored by explainers
            whose randomness is the explanation (:class:`RandomExplainer`).
        return_n_evaluations : bool, default=False
            Also return the number of model rows evaluated.

        Returns
        -------
        attributions : ndarray of shape (n_samples, n_features), float64
            With feature groups (``groups_``), one column per group:
            shape (n_samples, n_groups).
        n_evaluations : int
            Only if ``return_n_evaluations=True``.
        """
        check_is_fitted(self)
        if getattr(self, "codec_", None) is not None:
            X = self.codec_.encode(X)
        X = validate_X(self, X, reset=False)
        f = self._output(target)
        t = None if f is None else f.target_index(X)
        if f is not None and t is None:
            # One output per row (a regressor): a class target is an error
            # whatever plays the explained output's part.
            check_single_output_target(
                getattr(self, "target", None) if target is None else target,
                self.estimator_, output=getattr(f, "output", "predict"))
        rngs = None
        tags = get_explainer_tags(self)
        if tags.stochastic:
            if row_keys is None or not tags.shares_row_keys:
                keys = _row_keys(X)
            else:
                keys = np.asarray(row_keys)
            if keys.shape != (X.shape[0],):
                raise ValueError(
                    f"row_keys must have one key per row, shape ({X.shape[0]},); "
                    f"got {keys.shape}."
                )
            rngs = RowStreams(getattr(self, "random_state", None), keys)
        A = np.asarray(self._explain(X, f, t, rngs), dtype=np.float64)
        groups = getattr(self, "groups_", None)
        expected = X.shape if groups is None else (X.shape[0], len(groups))
        if A.shape != expected:
            raise RuntimeError(
                f"{type(self).__name__}._explain returned shape {A.shape}, expected "
                f"{expected}."
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
            ``set_output(transform="pandas")``); with feature groups, one
            per group, named by :meth:`get_feature_names_out`.
        """
        return self.explain(X)

    def get_feature_names_out(self, input_features=None):
        """Names of the attribution columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Checked against ``feature_names_in_`` as scikit-learn's
            one-to-one transformers do.

        Returns
        -------
        feature_names_out : ndarray of str objects
            The input feature names, or the group names when the explainer
            explains feature groups (``groups_``, see :ref:`feature-groups`).
        """
        names = super().get_feature_names_out(input_features)
        groups = getattr(self, "groups_", None)
        if groups is None:
            return names
        return np.asarray(list(groups), dtype=object)

    @abstractmethod
    def _explain(self, X, f, target_index, rngs):
        """Return attributions (n, d) of validated float64 rows ``X``.

        ``f`` is the :class:`~sklearn_xai.utils.ExplainedOutput` (``None``
        for model-ignorant explainers), ``target_index`` the class column per
        row (``None`` for regression).  ``rngs`` is the rows' random
        streams, a :class:`~sklearn_xai.utils.RowStreams` over the ``n`` rows
        keyed by ``row_keys`` (``None`` for explainers not tagged
        ``stochastic``): draw row ``i``'s numbers from it only, vectorised
        (``rngs.normal(size)``, ``uniform``, ``integers``,
        ``permutations``), or from ``rngs.generators()[i]`` where numpy's
        generator API is needed; hand it (or ``rngs[block]``) on to
        maskers and perturbers as is.
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
        tags = Tags.from_sklearn(super().__sklearn_tags__(), ExplainerTags())
        tags.input_tags.allow_nan = False
        tags.transformer_tags.preserves_dtype = ["float64"]
        tags.target_tags.required = False
        tags.non_deterministic = tags.explainer_tags.stochastic and getattr(
            self, "random_state", None
        ) is None
        return tags


def is_explainer(obj):
    """Whether ``obj`` is a sklearn_xai explainer (class or instance)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, BaseExplainer)
