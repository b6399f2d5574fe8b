"""Permutation feature importance as a (global) explainer."""

import numbers

import numpy as np
import pandas as pd
from sklearn.inspection import permutation_importance

from sklearn_xai.base import BaseExplainer
from sklearn_xai.utils import check_allocation
from sklearn_xai.utils._sklearn import Interval

__all__ = ["PermutationImportance"]


class PermutationImportance(BaseExplainer):
    """Permutation feature importance, the same for every row.

    At ``fit``, scikit-learn's :func:`sklearn.inspection.permutation_importance`
    measures on the training rows ``(X, y)`` how much the model's score drops
    when one column is shuffled (Breiman 2001; Fisher et al. 2019), averaged
    over ``n_repeats`` shuffles.  ``transform`` returns that one global
    importance for every row, as XAI-TRIS compares it with per-row
    attributions.  It needs ``y``: pass it to ``fit`` (also with a
    ``FrozenEstimator``).

    Parameters
    ----------
    estimator : estimator
        Any fitted or unfitted model with ``score`` (or a ``scoring``);
        ``FrozenEstimator(model)`` for a fitted one.
    scoring : str, callable or None, default=None
        The score whose drop is measured (a scikit-learn scoring name or
        scorer); ``None``: the model's ``score`` (accuracy for classifiers,
        R² for regressors), as XAI-TRIS.
    n_repeats : int, default=5
        Shuffles per feature.
    max_samples : int or float, default=1.0
        Training rows used for each repeat (a count, or a fraction of the
        rows).
    n_jobs : int or None, default=None
        Features shuffled in parallel (joblib).
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffles (made once, at ``fit``; ``transform`` draws
        nothing); pass an int for reproducible importances.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    importances_mean_ : ndarray of shape (n_features,)
        The importance returned for every row.
    importances_std_ : ndarray of shape (n_features,)
    importances_ : ndarray of shape (n_features, n_repeats)
        The score drops of every shuffle.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    References
    ----------
    .. [1] L. Breiman, "Random Forests", Machine Learning 45(1), 5-32, 2001.
    .. [2] A. Fisher, C. Rudin and F. Dominici, "All Models are Wrong, but
       Many are Useful: Learning a Variable's Importance by Studying an
       Entire Class of Prediction Models Simultaneously", JMLR 20(177),
       1-81, 2019.
    .. [3] B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: non-linear image
       benchmarks to quantify false positive post-hoc attribution of
       feature importance", Machine Learning 113, 6871-6910, 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import PermutationImportance
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = 3 * X[:, 0] + X[:, 1]
    >>> pi = PermutationImportance(LinearRegression(), random_state=0).fit(X, y)
    >>> A = pi.transform(X[:2])
    >>> bool((A[0] == A[1]).all() and A[0, 0] > A[0, 1] > abs(A[0, 2]))
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "scoring": [str, callable, None],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        Interval(numbers.Real, 0, 1, closed="right")],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, estimator=None, *, scoring=None, n_repeats=5, max_samples=1.0,
                 n_jobs=None, random_state=None):
        self.estimator = estimator
        self.scoring = scoring
        self.n_repeats = n_repeats
        self.max_samples = max_samples
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _fit_estimator(self, X, y, **fit_params):
        # Before the model is trained: one score per (feature, repeat).
        check_allocation(self.n_features_in_ * self.n_repeats,
                         what=f"the importances of {self.n_features_in_} features",
                         parameter="n_repeats", value=self.n_repeats)
        return super()._fit_estimator(X, y, **fit_params)

    def _fit_explainer(self, X, y):
        if y is None:
            raise ValueError(
                "PermutationImportance needs the targets: pass them as "
                "fit(X, y) (also for a FrozenEstimator); the importance is the "
                "drop of the model's score on (X, y) when a column is shuffled."
            )
        names = getattr(self, "feature_names_in_", None)
        data = X if names is None else pd.DataFrame(X, columns=names)
        result = permutation_importance(
            self.estimator_, data, y, scoring=self.scoring, n_repeats=self.n_repeats,
            max_samples=self.max_samples, n_jobs=self.n_jobs,
            random_state=self.random_state)
        self.importances_mean_ = np.asarray(result.importances_mean, dtype=np.float64)
        self.importances_std_ = np.asarray(result.importances_std, dtype=np.float64)
        self.importances_ = np.asarray(result.importances, dtype=np.float64)

    def _output(self, target=None):
        return None  # a global importance: no explained output per row

    def _explain(self, X, f, target_index, rngs):
        return np.tile(self.importances_mean_, (len(X), 1))
