"""ExplainedModel: a model and its explainer as one estimator, so that
scikit-learn's model selection tunes explainer (and model) hyperparameters
against explanation metrics."""

from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    OneToOneFeatureMixin,
    TransformerMixin,
    clone,
)
from sklearn.frozen import FrozenEstimator
from sklearn.utils import get_tags
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.base import BaseExplainer, fit_model, mark_fitted
from sklearn_xai.compose._common import TRANSFORM_DOC, fit_inner_explainer
from sklearn_xai.metrics import ROW_METADATA, get_scorer
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._estimators import is_frozen
from sklearn_xai.utils._sklearn import HasMethods, validate_estimator_params

__all__ = ["ExplainedModel"]

_ROUTED_ONLY = ROW_METADATA


def _model_has(attr):
    """available_if check: the (fitted or unfitted) model has ``attr``."""

    def check(self):
        model = getattr(self, "model_", self.model)
        getattr(model, attr)
        return True

    return check


class ExplainedModel(OneToOneFeatureMixin, TransformerMixin, MetaEstimatorMixin,
                     BaseEstimator):
    """A model and the explainer that explains it, as one estimator.

    ``fit`` fits a clone of ``model`` (nothing for a
    :class:`~sklearn.frozen.FrozenEstimator`), then a clone of ``explainer``
    given ``FrozenEstimator(model_)``.  Predictions delegate to the model;
    ``transform`` / ``explain`` return attributions; ``score`` uses
    ``scoring``.  With it, ``GridSearchCV(ExplainedModel(...),
    {"explainer__param": [...]}, scoring=...)`` tunes an explainer against
    explanation metrics, and ``"model__param"`` tunes the model.

    Parameters
    ----------
    model : estimator
        The model to explain; wrap a fitted model in ``FrozenEstimator``.
    explainer : explainer
        A sklearn_xai explainer, or a wrapper of one with an ``estimator``
        parameter and ``explain`` (e.g. :class:`WindowExplainer`); its
        ``estimator`` parameter is replaced.
    scoring : str, callable or None, default=None
        What :meth:`score` returns: an explanation scorer name (e.g.
        ``"feature_agreement"``), any scikit-learn scorer name, a callable
        ``scorer(estimator, X, y, **metadata)``, or ``None`` for the model's
        own ``score``.

    Attributes
    ----------
    model_ : estimator
        The fitted model (the ``FrozenEstimator`` itself when frozen).
    explainer_ : explainer
        The fitted explainer.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.compose import ExplainedModel
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0], [3.0, 1.0]])
    >>> y = X @ [2.0, -1.0]
    >>> em = ExplainedModel(LinearRegression(),
    ...                     FeatureAblation(masker=BaselineMasker("mean")))
    >>> em.fit(X, y).explain([[1.5, 1.25]]).round(6)
    array([[0., 0.]])
    >>> em.predict([[1.0, 1.0]]).round(6)
    array([1.])
    """

    _parameter_constraints: dict = {
        "model": [HasMethods(["fit"])],
        # A sklearn_xai explainer, or a wrapper of one that takes the model
        # as its ``estimator`` and explains (WindowExplainer).
        "explainer": [BaseExplainer, HasMethods(["fit", "explain", "get_params"])],
        "scoring": [str, callable, None],
    }

    def __init__(self, model, explainer, *, scoring=None):
        self.model = model
        self.explainer = explainer
        self.scoring = scoring

    # ------------------------------------------------------------------ fit
    def fit(self, X, y=None, **fit_params):
        """Fit the model (unless frozen), then the explainer on it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), default=None
        **fit_params : dict
            Routed to the model's and the explainer's ``fit`` when metadata
            routing is enabled; otherwise passed to the model's ``fit``.

        Returns
        -------
        self : ExplainedModel
        """
        validate_estimator_params(self)
        if get_config().get("enable_metadata_routing", False):
            routed = process_routing(self, "fit", **fit_params)
            model_params, explainer_params = routed.model.fit, routed.explainer.fit
        else:
            misplaced = sorted(set(fit_params) & set(_ROUTED_ONLY))
            if misplaced:
                raise ValueError(
                    f"{misplaced} reached ExplainedModel.fit: they are scorer "
                    "metadata, not model parameters. Enable metadata routing with "
                    "sklearn.set_config(enable_metadata_routing=True) so that "
                    "GridSearchCV / cross_validate route them to the scorer."
                )
            model_params, explainer_params = fit_params, {}
        self.model_ = fit_model(self.model, X, y, **model_params)
        frozen = self.model_ if is_frozen(self.model_) else FrozenEstimator(self.model_)
        explainer = clone(self.explainer).set_params(estimator=frozen)
        fit_inner_explainer(self, explainer, X, y, **explainer_params)
        mark_fitted(self)
        return self

    # -------------------------------------------------------------- model
    @available_if(_model_has("predict"))
    def predict(self, X, **params):
        """Predictions of the fitted model."""
        check_is_fitted(self)
        return self.model_.predict(X, **params)

    @available_if(_model_has("predict_proba"))
    def predict_proba(self, X, **params):
        """Class probabilities of the fitted model."""
        check_is_fitted(self)
        return self.model_.predict_proba(X, **params)

    @available_if(_model_has("predict_log_proba"))
    def predict_log_proba(self, X, **params):
        """Class log-probabilities of the fitted model."""
        check_is_fitted(self)
        return self.model_.predict_log_proba(X, **params)

    @available_if(_model_has("decision_function"))
    def decision_function(self, X, **params):
        """Decision function of the fitted model."""
        check_is_fitted(self)
        return self.model_.decision_function(X, **params)

    @property
    def classes_(self):
        """Class labels of the fitted classifier."""
        check_is_fitted(self)
        return self.model_.classes_

    @property
    def explained_estimator_(self):
        """The fitted model whose output is explained (``model_``).

        With :meth:`explain` it is the protocol explanation scorers use, the
        same as an explainer's ``explained_estimator_``.
        """
        check_is_fitted(self)
        return self.model_

    # ------------------------------------------------------------ explain
    @Substitution(transform_sections=TRANSFORM_DOC)
    def transform(self, X):
        """Attribution matrix of ``X`` (see the explainer's ``transform``).

        {transform_sections}
        """
        check_is_fitted(self)
        return self.explainer_.explain(X)

    def explain(self, X, **params):
        """Attributions of ``X``, with the explainer's ``explain`` options
        (``target``, ``row_keys``, ``return_n_evaluations``)."""
        check_is_fitted(self)
        return self.explainer_.explain(X, **params)

    # -------------------------------------------------------------- score
    def _scorer(self):
        if self.scoring is None:
            return None
        return get_scorer(self.scoring)

    def score(self, X, y=None, **params):
        """Score with ``scoring`` (or the model's own ``score`` if ``None``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), default=None
        **params : dict
            Scorer metadata such as ``ground_truth`` or ``sensitive`` (routed
            per fold by GridSearchCV when metadata routing is enabled).

        Returns
        -------
        score : float
            Greater is better.
        """
        check_is_fitted(self)
        scorer = self._scorer()
        if scorer is None:
            if y is None:
                raise ValueError(
                    "ExplainedModel(scoring=None).score uses the model's score, "
                    "which needs y; set scoring='<explanation metric>' to score "
                    "explanations."
                )
            return self.model_.score(X, y, **params)
        return scorer(self, X, y, **params)

    # ------------------------------------------------------------ routing
    def get_metadata_routing(self):
        """Route metadata to the model, the explainer and the scorer.

        Returns
        -------
        routing : MetadataRouter
        """
        router = MetadataRouter(owner=self)
        model_map = MethodMapping().add(caller="fit", callee="fit")
        for method in ("predict", "predict_proba", "predict_log_proba",
                       "decision_function"):
            model_map.add(caller=method, callee=method)
        scorer = self._scorer()
        if scorer is None:
            model_map.add(caller="score", callee="score")
        router.add(model=self.model, method_mapping=model_map)
        router.add(
            explainer=self.explainer,
            method_mapping=MethodMapping().add(caller="fit", callee="fit"),
        )
        if scorer is not None and hasattr(scorer, "get_metadata_routing"):
            router.add(
                scorer=scorer,
                method_mapping=MethodMapping().add(caller="score", callee="score"),
            )
        return router

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        model_tags = get_tags(self.model)
        tags.estimator_type = model_tags.estimator_type
        tags.classifier_tags = model_tags.classifier_tags
        tags.regressor_tags = model_tags.regressor_tags
        tags.target_tags.required = model_tags.target_tags.required
        tags.input_tags.allow_nan = False
        tags.non_deterministic = get_tags(self.explainer).non_deterministic
        return tags
