"""Explanation error (shap's benchmark.ExplanationError): a hand computation
and shap 0.51's code run directly on the same model, data and orders."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.neural_network import MLPRegressor

from sklearn_xai.masking import MarginalMasker
from sklearn_xai.metrics import explanation_error, get_metric_spec


class _Product(RegressorMixin, BaseEstimator):
    """f(x) = x_0 x_1 (+ x_2 when there are three features)."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return X[:, 0] * X[:, 1] + (X[:, 2] if X.shape[1] > 2 else 0.0)


def test_hand_computed_interaction():
    # f = x0 x1 at x = (1, 2), zero baseline: v(∅) = v({0}) = v({1}) = 0,
    # v({0, 1}) = 2.  a = (0.5, 0.5): along either order the errors are
    # 0, (0 - 0.5)² = 0.25 and (2 - 1)² = 1, so EE = sqrt(1.25 / 3).
    model = _Product().fit(np.zeros((1, 2)))
    d = explanation_error(model, [[1.0, 2.0]], [[0.5, 0.5]], n_permutations=3,
                          random_state=0, return_details=True)
    np.testing.assert_allclose(d.scores, [np.sqrt(1.25 / 3)])
    np.testing.assert_allclose(d.squared_errors, [[[0.0, 0.25, 1.0]] * 3])
    # Two features per step: the coalitions are ∅ and {0, 1}: sqrt(1 / 2).
    np.testing.assert_allclose(
        explanation_error(model, [[1.0, 2.0]], [[0.5, 0.5]], features_per_step=2),
        [np.sqrt(0.5)])


def test_hand_computed_order_dependent():
    # f = x0 x1 + x2 at x = (1, 2, 3), zero baseline, a = (1, 1, 3): the
    # squared error of a coalition is (v(S) - sum_S a)², v = 2 [0 and 1 in S]
    # + 3 [2 in S]: 1 for {0}, {1}; 0 for {2}, {0, 1}, {0,1,2}; 1 for {0, 2},
    # {1, 2}.  Check the recorded orders against this table.
    model = _Product().fit(np.zeros((1, 3)))
    d = explanation_error(model, [[1.0, 2.0, 3.0]], [[1.0, 1.0, 3.0]], n_permutations=6,
                          random_state=1, return_details=True)
    table = {frozenset(): 0, frozenset({0}): 1, frozenset({1}): 1, frozenset({2}): 0,
             frozenset({0, 1}): 0, frozenset({0, 2}): 1, frozenset({1, 2}): 1,
             frozenset({0, 1, 2}): 0}
    expected = [[table[frozenset(order[:k])] for k in range(4)]
                for order in d.permutations[0]]
    np.testing.assert_allclose(d.squared_errors[0], expected)
    np.testing.assert_allclose(d.scores, [np.sqrt(np.mean(expected))])
    assert sorted(map(tuple, d.permutations[0])) != [tuple(d.permutations[0, 0])] * 6


def test_rows_are_independent_and_registry():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    model = _Product().fit(X)
    A = rng.normal(size=X.shape)
    full = explanation_error(model, X, A, random_state=3)
    np.testing.assert_array_equal(
        explanation_error(model, X[[4, 1]], A[[4, 1]], random_state=3), full[[4, 1]])
    spec = get_metric_spec("neg_explanation_error")
    assert not spec.greater_is_better and spec.source == "shap.benchmark"


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("step_fraction,features_per_step", [(0.01, 1), (0.34, 2)])
def test_equals_shap(step_fraction, features_per_step, monkeypatch):
    shap = pytest.importorskip(
        "shap", reason="shap is a peer, not a dependency (pip install shap); the "
        "closed-form tests above run everywhere")
    from shap.benchmark import ExplanationError

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 6))
    y = X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + X[:, 3]
    model = MLPRegressor(hidden_layer_sizes=(8,), max_iter=300, random_state=0).fit(X, y)
    background = X[:20]
    rows = X[100:105]
    A = rng.normal(size=rows.shape)
    ours = explanation_error(model, rows, A, masker=MarginalMasker(background=background),
                             n_permutations=4, features_per_step=features_per_step,
                             random_state=0, return_details=True)
    masker = shap.maskers.Independent(background, max_samples=len(background))
    for i in range(len(rows)):
        orders = iter(ours.permutations[i])

        def replay(a, orders=orders):
            a[:] = next(orders)

        monkeypatch.setattr(np.random, "shuffle", replay)
        bench = ExplanationError(masker, model.predict, rows[i:i + 1], num_permutations=4)
        result = bench(A[i:i + 1], "ours", step_fraction=step_fraction, silent=True)
        monkeypatch.undo()
        np.testing.assert_allclose(ours.scores[i], result.value, rtol=1e-9)
