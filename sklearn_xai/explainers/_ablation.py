"""One feature at a time: remove it (occlusion) or keep only it.

Both explainers evaluate ``d`` coalitions per row, next to the full or the
empty one, through the masker's value function ``v_x``:
:class:`FeatureAblation` removes each feature from the full input,
:class:`LeaveOneCovariateIn` adds each feature to the empty one.
"""

import numpy as np

from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._masker_based import (
    GROUPS_ATTRIBUTE_DOC,
    GROUPS_DOC,
    _MaskerExplainer,
)

__all__ = ["FeatureAblation", "LeaveOneCovariateIn"]


@explainer_doc("explainer_output_params", "masker_random_state", "masker_attributes",
               "input_attributes", "regression_example", explainer_groups=GROUPS_DOC,
               explainer_groups_attribute=GROUPS_ATTRIBUTE_DOC,
               references=("zeiler2014",))
class FeatureAblation(_MaskerExplainer):
    """Occlusion: the output change when one feature is removed.

    ``a_j = f(x) - v_x([d] \\ {j})`` where the value function ``v`` comes
    from ``masker`` (see :ref:`def-value-function` in the user guide): with
    ``BaselineMasker`` this is
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
    {explainer_groups}
        A group is removed as a whole: ``a_G = f(x) - v_x([d] \\ G)``.
    {explainer_output_params}
    {masker_random_state}

    Attributes
    ----------
    {masker_attributes}
    {explainer_groups_attribute}
    {input_attributes}

    See Also
    --------
    LeaveOneCovariateIn : keep one feature at a time instead of removing it.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = FeatureAblation(LinearRegression(), masker=BaselineMasker("mean"))
    >>> ex.fit(X, y).transform([[2.0, 2.0]]).round(6)  # w * (x - mean)
    array([[ 2.      , -0.666667]])
    """

    def __init__(self, estimator=None, *, masker=None, groups=None, target="predicted",
                 output="auto", batch_size=None, random_state=None):
        self.estimator = estimator
        self.masker = masker
        self.groups = groups
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _explain(self, X, f, target_index, rngs):
        d = self._n_players(X.shape[1])
        keep = ~np.eye(d, dtype=bool)
        fx = f(X, target_index)
        values = self._evaluate(f, X, keep, target_index=target_index, rngs=rngs)
        return fx[:, None] - values


@explainer_doc("explainer_output_params", "masker_random_state", "masker_attributes",
               "input_attributes", "regression_example", explainer_groups=GROUPS_DOC,
               explainer_groups_attribute=GROUPS_ATTRIBUTE_DOC,
               references=("covert2021",))
class LeaveOneCovariateIn(_MaskerExplainer):
    """Keep one feature at a time: ``a_j = v_x({j}) - v_x(∅)``.

    The counterpart of :class:`FeatureAblation`: each feature is credited
    with how far knowing it *alone* moves the value function ``v`` of
    ``masker`` from the fully masked input (see :ref:`def-value-function` in
    the user guide).  With ``BaselineMasker`` this is
    ``f(b with b_j = x_j) - f(b)``; with ``MarginalMasker`` the other
    features are averaged over background rows.  Covert, Lundberg & Lee
    (2021) call this summary "include individual"; occlusion is "remove
    individual".

    For a model without interactions both equal the Shapley values of the
    same masker.  An interaction is missed here and counted once per feature
    by occlusion: for ``f = x_0 x_1`` and the zero baseline, this explainer
    gives ``(0, 0)``, occlusion ``(x_0 x_1, x_0 x_1)`` and Shapley
    ``(x_0 x_1 / 2, x_0 x_1 / 2)``.  The ``d + 1`` coalitions of a block of
    rows are evaluated in one masker call (``batch_size`` bounds it).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    masker : masker, default=None
        How the other features are removed; ``None`` is
        ``BaselineMasker("zero")``.  Fitted on the training rows in
        :meth:`fit`.
    {explainer_groups}
        A group is kept as a whole: ``a_G = v_x(G) - v_x(empty)``.
    {explainer_output_params}
    {masker_random_state}

    Attributes
    ----------
    {masker_attributes}
    {explainer_groups_attribute}
    {input_attributes}

    See Also
    --------
    FeatureAblation : remove one feature at a time.
    ExactShapley : averages the contribution of a feature over all coalitions.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import LeaveOneCovariateIn
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = LeaveOneCovariateIn(LinearRegression(), masker=BaselineMasker("mean"))
    >>> ex.fit(X, y).transform([[2.0, 2.0]]).round(6)  # w * (x - mean)
    array([[ 2.      , -0.666667]])
    """

    def __init__(self, estimator=None, *, masker=None, groups=None, target="predicted",
                 output="auto", batch_size=None, random_state=None):
        self.estimator = estimator
        self.masker = masker
        self.groups = groups
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _explain(self, X, f, target_index, rngs):
        d = self._n_players(X.shape[1])
        keep = np.vstack([np.zeros((1, d), dtype=bool), np.eye(d, dtype=bool)])
        values = self._evaluate(f, X, keep, target_index=target_index, rngs=rngs)
        return values[:, 1:] - values[:, :1]
