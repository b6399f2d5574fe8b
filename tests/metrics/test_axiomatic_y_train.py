"""input_invariance refits explainers whose fit needs the targets."""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression

from sklearn_xai.explainers import PermutationImportance
from sklearn_xai.metrics import input_invariance


def test_input_invariance_refits_permutation_importance_with_y_train():
    # PermutationImportance's fit needs y; the shifted model predicts the
    # same on the shifted rows, so the refitted importances (same shuffles,
    # same score drops) equal the original ones: 0 for every row.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = X @ [1.0, -2.0, 0.5]
    model = LinearRegression().fit(X, y)
    explainer = PermutationImportance(FrozenEstimator(model), n_repeats=3,
                                      random_state=0).fit(X, y)
    A = explainer.explain(X[:5])
    scores = input_invariance(model, X[:5], A, explainer=explainer, X_train=X, y_train=y)
    np.testing.assert_allclose(scores, 0.0, atol=1e-9)
    with pytest.raises(ValueError, match="needs the targets"):
        input_invariance(model, X[:5], A, explainer=explainer, X_train=X)
