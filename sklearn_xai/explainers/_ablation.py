"""Feature ablation (occlusion): remove one feature at a time."""

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._shapley import _fit_masker
from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.masking._baseline import BaselineMasker

__all__ = ["FeatureAblation"]


class FeatureAblation(BaseExplainer):
    """Occlusion: the output change when one feature is removed.

    ``a_j = f(x) - v_x([d] \\ {j})`` where the value function ``v`` comes
    from ``masker`` (SPEC 3.2.12): with ``BaselineMasker`` this is
    ``f(x) - f(x with x_j = b_j)``; with ``MarginalMasker`` the removed
    feature is averaged over background rows.  All ``d`` ablations of a block
    of rows are evaluated in one model call (``batch_size`` bounds it).
    The model is stock scikit-learn or anything with ``predict`` /
    ``predict_proba``; captum's ``FeatureAblation`` needs a torch model, hence
    this vectorised implementation.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    masker : masker, default=None
        How a feature is removed; ``None`` is ``BaselineMasker("zero")``
        (Captum and BEExAI).  Fitted on the training rows in :meth:`fit`.
    target : "predicted", int or label, default="predicted"
        Explained class of a classifier.
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum number of model rows per call.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    masker_ : masker
        The fitted masker.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean"))
    >>> ex.fit(X, y).transform([[2.0, 2.0]]).round(6)  # w * (x - mean)
    array([[ 2.      , -0.666667]])
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "masker": [BaseMasker, None],
    }

    def __init__(self, estimator=None, *, masker=None, target="predicted",
                 output="auto", batch_size=None):
        self.estimator = estimator
        self.masker = masker
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        self.masker_ = _fit_masker(self.masker, BaselineMasker("zero"), X)

    def _explain(self, X, f, target_index, rngs):
        d = X.shape[1]
        keep = ~np.eye(d, dtype=bool)
        fx = f(X, target_index)
        values = self.masker_.evaluate(
            f, X, keep, target_index=target_index, batch_size=self.batch_size
        )
        return fx[:, None] - values
