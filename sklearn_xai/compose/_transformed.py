"""TransformedExplainer: another explainer's attributions passed through a
row-wise function (BEExAI takes absolute attributions for regression).

Written here rather than as a ``Pipeline(explainer, FunctionTransformer)``
because benchmark metrics call ``explain`` (with ``target``, ``row_keys``
and evaluation counts), which a Pipeline does not forward.
"""


import numpy as np
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    OneToOneFeatureMixin,
    TransformerMixin,
)
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.base import clone_with_estimator
from sklearn_xai.compose._common import (
    TRANSFORM_DOC,
    fit_inner_explainer,
    inner_explainer_tags,
)
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._sklearn import HasMethods, StrOptions, fit_context

__all__ = ["TransformedExplainer"]

_FUNCS = {"abs": np.abs}


class TransformedExplainer(OneToOneFeatureMixin, TransformerMixin, MetaEstimatorMixin,
                           BaseEstimator):
    """An explainer whose attributions are passed through a function.

    ``fit`` fits a clone of ``explainer`` (given ``estimator`` when set);
    ``explain`` / ``transform`` return ``func(explainer_.explain(X))``.
    BEExAI, for example, scores absolute attributions on regression tasks:
    ``TransformedExplainer(CaptumLime(model), func="abs")``.

    Parameters
    ----------
    explainer : explainer
        A sklearn_xai explainer (anything with ``fit`` and ``explain``).
    func : "abs" or callable, default="abs"
        Applied to the attribution matrix (n_samples, n_features); it must
        act on each row independently (as ``np.abs`` does) so that a row's
        attributions never depend on the other rows explained with it -- a
        per-batch normalisation would break that contract.
    estimator : estimator or None, default=None
        The model to explain; when given it replaces the inner explainer's
        ``estimator`` (the benchmark runner sets it).

    Notes
    -----
    The tags are the inner explainer's (``get_tags(self).explainer_tags``
    is a copy of the :class:`~sklearn_xai.base.ExplainerTags` of
    ``explainer``: stochastic, needs a model, differentiable, ...), so
    :func:`~sklearn_xai.base.get_explainer_tags`, tag filters and the
    explanation scorers treat the wrapper as the explainer it wraps.

    Attributes
    ----------
    explainer_ : explainer
        The fitted clone of ``explainer``.
    estimator_ : estimator
        The inner explainer's fitted model.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when the training rows had string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.compose import TransformedExplainer
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> X = np.array([[1.0, -2.0], [0.0, 1.0], [2.0, 0.0], [-1.0, 3.0]])
    >>> y = X @ [1.0, -1.0]
    >>> FeatureAblation(LinearRegression()).fit(X, y).transform(X[3:]).round(6)
    array([[-1., -3.]])
    >>> ex = TransformedExplainer(FeatureAblation(LinearRegression()), func="abs")
    >>> ex.fit(X, y).transform(X[3:]).round(6)
    array([[1., 3.]])
    >>> from sklearn_xai.base import get_explainer_tags
    >>> get_explainer_tags(ex).model_agnostic
    True
    """

    _parameter_constraints: dict = {
        "explainer": [HasMethods(["fit", "explain"])],
        "func": [StrOptions(set(_FUNCS)), callable],
        "estimator": [HasMethods(["fit"]), None],
    }

    def __init__(self, explainer, *, func="abs", estimator=None):
        self.explainer = explainer
        self.func = func
        self.estimator = estimator

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **fit_params):
        """Fit a clone of the explainer.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), default=None
        **fit_params : dict
            Passed to the explainer's ``fit``.

        Returns
        -------
        self : object
        """
        explainer = clone_with_estimator(self.explainer, self.estimator)
        fit_inner_explainer(self, explainer, X, y, **fit_params)
        return self

    @property
    def estimator_(self):
        """The inner explainer's fitted model."""
        check_is_fitted(self)
        return self.explainer_.estimator_

    def _apply(self, A):
        func = _FUNCS.get(self.func, self.func) if isinstance(self.func, str) \
            else self.func
        out = np.asarray(func(np.asarray(A, dtype=np.float64)), dtype=np.float64)
        if out.shape != np.shape(A):
            raise ValueError(
                f"func must return an array of the attributions' shape {np.shape(A)}; "
                f"got {out.shape}."
            )
        return out

    def explain(self, X, *, target=None, row_keys=None, return_n_evaluations=False):
        """Transformed attributions of ``X`` (see the inner ``explain``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        target : "predicted", int, label or array-like, default=None
        row_keys : array-like of int, default=None
        return_n_evaluations : bool, default=False

        Returns
        -------
        attributions : ndarray of shape (n_samples, n_features)
        n_evaluations : int
            Only if ``return_n_evaluations=True``.
        """
        check_is_fitted(self)
        A, n_eval = self.explainer_.explain(X, target=target, row_keys=row_keys,
                                            return_n_evaluations=True)
        A = self._apply(A)
        return (A, n_eval) if return_n_evaluations else A

    @Substitution(transform_sections=TRANSFORM_DOC)
    def transform(self, X):
        """Transformed attribution matrix of ``X``.

        {transform_sections}
        """
        return self.explain(X)

    def __sklearn_tags__(self):
        return inner_explainer_tags(super().__sklearn_tags__(), self.explainer)
