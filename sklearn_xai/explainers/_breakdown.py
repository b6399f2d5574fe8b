"""BreakDown: contributions along a greedy step-down path (pyBreakDown; XAI-Bench)."""

import numpy as np

from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._masker_based import _MaskerExplainer

__all__ = ["BreakDown"]


@explainer_doc("explainer_output_params", "masker_random_state", "masker_attributes",
               "input_attributes", "regression_example",
               references=("staniak2018", "liu2021"))
class BreakDown(_MaskerExplainer):
    """Break-down attributions: remove features one at a time along a greedy
    path from the full input (pyBreakDown's "down" direction).

    Starting from ``S = [d]`` (all features kept), each step removes the
    remaining feature ``j`` whose removal keeps the value closest to the
    model's output: ``j = argmin_{j in S} |f(x) - v_x(S \\ {j})|`` (ties: the
    lowest index), and credits it with the change
    ``a_j = v_x(S) - v_x(S \\ {j})``; then ``S <- S \\ {j}``.  The
    attributions sum to ``f(x) - v_x(∅)``.  ``v`` is the value function of
    ``masker``.

    Attributions are returned in **feature order** (XAI-Bench returns them in
    path order, a bug; see :ref:`def-switches-xaibench` in the user guide).
    Every step evaluates the candidate
    removals of all rows of a block in one model call (``batch_size`` bounds
    it), ``d (d + 1) / 2`` value evaluations per row in total.

    XAI-Bench's code (after pyBreakDown) replaces a removed feature by the
    values of every training row and averages the predictions:
    ``masker=MarginalMasker(background=X_train)`` reproduces it; the default
    baseline 0 is our reading of its ``baseline=0`` argument.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    masker : masker, default=None
        How a feature is removed; ``None`` is ``BaselineMasker("zero")``.
        Fitted on the training rows in :meth:`fit`.
    {explainer_output_params}
    {masker_random_state}

    Attributes
    ----------
    {masker_attributes}
    {input_attributes}

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import BreakDown
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0]])
    >>> ex = BreakDown(LinearRegression()).fit(X, X @ [2.0, -1.0] + 1.0)
    >>> ex.transform([[2.0, 2.0]]).round(6)
    array([[ 4., -2.]])
    """

    def __init__(self, estimator=None, *, masker=None, target="predicted",
                 output="auto", batch_size=None, random_state=None):
        self.estimator = estimator
        self.masker = masker
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        rows = np.arange(n)
        fx = np.asarray(f(X, target_index), dtype=np.float64)
        kept = np.ones((n, d), dtype=bool)
        previous = fx
        A = np.zeros((n, d), dtype=np.float64)
        for step in range(d):
            m = d - step
            # Remaining features of each row, in increasing index order.
            remaining = np.argsort(~kept, axis=1, kind="stable")[:, :m]
            candidates = np.repeat(kept[:, None, :], m, axis=1)
            candidates[rows[:, None], np.arange(m)[None, :], remaining] = False
            values = self.masker_.evaluate(
                f, X, candidates, target_index=target_index,
                batch_size=self.batch_size, rngs=rngs,
            )
            best = np.argmin(np.abs(fx[:, None] - values), axis=1)
            chosen = remaining[rows, best]
            current = values[rows, best]
            A[rows, chosen] = previous - current
            kept[rows, chosen] = False
            previous = current
        return A
