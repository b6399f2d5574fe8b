"""WindowExplainer: explain time windows, score time steps.

The masker-based explainers take feature ``groups``: with the windows of
:func:`~sklearn_xai.masking.window_groups` as groups,
:class:`~sklearn_xai.explainers.FeatureAblation` is window occlusion and
:class:`~sklearn_xai.explainers.KernelSHAP` (or
:class:`~sklearn_xai.explainers.ShapleyValueSampling`) segment KernelSHAP.
They then return one attribution per window, which the explanation metrics
refuse (they mask, perturb and rank one attribution per column).  This
meta-explainer sets the groups from ``window`` and gives every time step its
window's attribution, so that window explainers are scored against
per-time-step masks like the gradient methods.  It is a meta-explainer and
not an option of those explainers so that their own contract (one column per
group) stays as documented.
"""

import numbers

import numpy as np
from sklearn.base import BaseEstimator, MetaEstimatorMixin, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted

from sklearn_xai.base import clone_with_estimator
from sklearn_xai.compose._common import (
    TRANSFORM_DOC,
    fit_inner_explainer,
    inner_explainer_tags,
)
from sklearn_xai.masking import window_groups
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._images import resolve_series_shape
from sklearn_xai.utils._sklearn import HasMethods, Interval, StrOptions, fit_context

__all__ = ["WindowExplainer"]


class WindowExplainer(MetaEstimatorMixin, TransformerMixin, BaseEstimator):
    """An explainer of time windows whose attributions are spread over the time steps.

    ``fit`` fits a clone of ``explainer`` with ``groups`` set to the windows
    of ``window`` time steps (:func:`~sklearn_xai.masking.window_groups` of
    ``series_shape``); ``explain`` gives each column (channel, time step)
    the attribution of its window (``spread="copy"``, Captum's
    ``feature_mask`` convention) or that attribution divided by the
    window's size (``spread="share"``, which keeps sums, so Shapley values
    still add up to ``f(x) - v_x(empty)``).

    Parameters
    ----------
    explainer : explainer
        A sklearn_xai explainer with a ``groups`` parameter
        (:class:`~sklearn_xai.explainers.FeatureAblation`,
        :class:`~sklearn_xai.explainers.KernelSHAP`,
        :class:`~sklearn_xai.explainers.ShapleyValueSampling`,
        :class:`~sklearn_xai.explainers.ExactShapley`, ...).
    window : int, default=10
        Window length in time steps (the last window of a channel may be
        shorter).
    series_shape : tuple (n_channels, n_timesteps) or None, default=None
        Shape of one series, columns channel-major; ``None``: one channel.
    per_channel : bool, default=True
        One window per channel and time span; ``False``: a window holds
        every channel's time steps of its span.
    spread : {"copy", "share"}, default="copy"
        What each time step of a window gets: the window's attribution, or
        its share ``attribution / window size``.
    estimator : estimator or None, default=None
        The model to explain; when given it replaces the inner explainer's
        ``estimator`` (the benchmark runner sets it).

    Attributes
    ----------
    window_explainer_ : explainer
        The fitted clone of ``explainer``, one attribution per window.
    groups_ : None
        The attributions have one column per time step (not per group).
    windows_ : dict
        ``{name: column positions}``, the windows given as ``groups``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when the training rows had string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.compose import WindowExplainer
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> X = np.arange(12.0).reshape(2, 6)
    >>> model = FrozenEstimator(LinearRegression().fit(X, [0.0, 1.0]))
    >>> model.estimator.coef_ = np.ones(6)  # f(x) = sum of the series
    >>> ex = WindowExplainer(FeatureAblation(model), window=3).fit(X)
    >>> ex.transform(X[:1]).tolist()  # windows 0+1+2 and 3+4+5
    [[3.0, 3.0, 3.0, 12.0, 12.0, 12.0]]
    """

    _parameter_constraints: dict = {
        "explainer": [HasMethods(["fit", "explain"])],
        "window": [Interval(numbers.Integral, 1, None, closed="left")],
        "series_shape": ["array-like", None],
        "per_channel": ["boolean"],
        "spread": [StrOptions({"copy", "share"})],
        "estimator": [HasMethods(["fit"]), None],
    }

    def __init__(self, explainer, *, window=10, series_shape=None, per_channel=True,
                 spread="copy", estimator=None):
        self.explainer = explainer
        self.window = window
        self.series_shape = series_shape
        self.per_channel = per_channel
        self.spread = spread
        self.estimator = estimator

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **fit_params):
        """Fit a clone of the explainer with the windows as its groups.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_channels * n_timesteps)
        y : array-like of shape (n_samples,), default=None
        **fit_params : dict
            Passed to the explainer's ``fit``.

        Returns
        -------
        self : object
        """
        if "groups" not in self.explainer.get_params(deep=False):
            raise ValueError(
                f"{type(self.explainer).__name__} has no groups parameter; "
                "WindowExplainer needs an explainer that takes feature groups, such "
                "as FeatureAblation (window occlusion) or KernelSHAP."
            )
        # The number of steps, from X checked as the inner explainer will check
        # it (a 2-D, non-empty, real array or DataFrame), for the windows.
        n_features = check_array(X, dtype=None, ensure_all_finite=False).shape[1]
        shape = resolve_series_shape(self.series_shape, n_features)
        self.windows_ = window_groups(shape, self.window, per_channel=self.per_channel)
        explainer = clone_with_estimator(self.explainer, self.estimator)
        explainer.set_params(groups=self.windows_)
        fit_inner_explainer(self, explainer, X, y, attribute="window_explainer_",
                            **fit_params)
        owner = np.empty(self.n_features_in_, dtype=np.intp)
        size = np.empty(self.n_features_in_)
        for g, cols in enumerate(self.windows_.values()):
            owner[cols] = g
            size[cols] = len(cols)
        self._owner, self._size = owner, size
        self.groups_ = None
        return self

    @property
    def estimator_(self):
        """The inner explainer's fitted model."""
        check_is_fitted(self)
        return self.window_explainer_.estimator_

    @property
    def explained_estimator_(self):
        """The model the inner explainer explains."""
        check_is_fitted(self)
        return self.window_explainer_.explained_estimator_

    def explain(self, X, *, target=None, row_keys=None, return_n_evaluations=False):
        """Attributions of ``X``, one per time step (its window's).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_channels * n_timesteps)
        target : "predicted", int, label or array-like, default=None
            See the inner explainer's ``explain``.
        row_keys : array-like of int, default=None
        return_n_evaluations : bool, default=False

        Returns
        -------
        attributions : ndarray of shape (n_samples, n_channels * n_timesteps)
        n_evaluations : int
            Only if ``return_n_evaluations=True``.
        """
        check_is_fitted(self)
        A, n_eval = self.window_explainer_.explain(
            X, target=target, row_keys=row_keys, return_n_evaluations=True)
        A = np.asarray(A, dtype=np.float64)[:, self._owner]
        if self.spread == "share":
            A = A / self._size
        return (A, n_eval) if return_n_evaluations else A

    @Substitution(transform_sections=TRANSFORM_DOC)
    def transform(self, X):
        """Attribution matrix of ``X``, one column per time step.

        {transform_sections}
        """
        return self.explain(X)

    def get_feature_names_out(self, input_features=None):
        """Names of the attribution columns: the input columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None

        Returns
        -------
        feature_names_out : ndarray of str objects
        """
        check_is_fitted(self)
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            names = [f"x{j}" for j in range(self.n_features_in_)]
        return np.asarray(names, dtype=object)

    def __sklearn_tags__(self):
        return inner_explainer_tags(super().__sklearn_tags__(), self.explainer)
