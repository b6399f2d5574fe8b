"""Tests of BreakDown."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers._breakdown import BreakDown
from sklearn_xai.masking import BaselineMasker, MarginalMasker


class Interaction(RegressorMixin, BaseEstimator):
    """f(x) = x0 + x1 * x2 (fixed, no parameters to learn)."""

    def fit(self, X, y=None):
        self.n_features_in_ = 3
        self.is_fitted_ = True
        return self

    def predict(self, X):
        X = np.asarray(X)
        return X[:, 0] + X[:, 1] * X[:, 2]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 4))
    w = np.array([2.0, -1.0, 0.5, 3.0])
    return X, w


def test_breakdown_hand_computed_path_in_feature_order():
    """x = (3, 1, 2), baseline 0: f(x) = 5.
    Step 1: removing x0 -> 2, x1 -> 3, x2 -> 3; closest to 5: x1 (tie with x2,
    lower index) with a1 = 5 - 3 = 2.  Step 2: removing x0 -> 0, x2 -> 3;
    x2 with a2 = 3 - 3 = 0.  Step 3: x0 with a0 = 3 - 0 = 3.
    Path order would be (2, 0, 3); feature order is (3, 2, 0)."""
    X = np.array([[3.0, 1.0, 2.0]])
    ex = BreakDown(FrozenEstimator(Interaction().fit(X))).fit(X)
    np.testing.assert_allclose(ex.transform(X), [[3.0, 2.0, 0.0]])


def test_breakdown_linear_model_zero_baseline(data):
    X, w = data
    ex = BreakDown(LinearRegression()).fit(X, X @ w + 1.0)
    np.testing.assert_allclose(ex.transform(X[:10]), X[:10] * w, atol=1e-10)


def test_breakdown_marginal_masker_and_efficiency(data):
    X, w = data
    bg = X[:30]
    ex = BreakDown(LinearRegression(), masker=MarginalMasker(background=bg))
    A = ex.fit(X, X @ w).transform(X[40:45])
    np.testing.assert_allclose(A, (X[40:45] - bg.mean(axis=0)) * w, atol=1e-10)
    # Efficiency on a non-additive model: sum = f(x) - v(empty).
    model = FrozenEstimator(Interaction().fit(X[:, :3]))
    ex = BreakDown(model, masker=BaselineMasker("mean")).fit(X[:, :3])
    A = ex.transform(X[:5, :3])
    expected = model.predict(X[:5, :3]) - model.predict(X[:, :3].mean(axis=0)[None])
    np.testing.assert_allclose(A.sum(axis=1), expected, atol=1e-10)


def test_breakdown_batch_and_order_independent(data):
    X, w = data
    model = FrozenEstimator(Interaction().fit(X[:, :3]))
    ex = BreakDown(model, masker=BaselineMasker("median")).fit(X[:, :3])
    A = ex.transform(X[:12, :3])
    np.testing.assert_allclose(ex.transform(X[:12, :3][::-1]), A[::-1])
    ex.set_params(batch_size=4)
    np.testing.assert_allclose(ex.transform(X[:12, :3]), A)


def test_breakdown_classifier_target(data):
    X, w = data
    y = (X @ w > 0).astype(int)
    clf = FrozenEstimator(LogisticRegression().fit(X, y))
    A1 = BreakDown(clf, target=1).fit(X).transform(X[:5])
    A0 = BreakDown(clf, target=0).fit(X).transform(X[:5])
    # p0 = 1 - p1: every candidate value flips around 1/2, the path is the
    # same and the contributions change sign.
    np.testing.assert_allclose(A0, -A1, atol=1e-12)


def test_breakdown_errors(data):
    X, w = data
    with pytest.raises(ValueError, match="masker"):
        BreakDown(LinearRegression(), masker="zero").fit(X, X @ w)
    with pytest.raises(ValueError, match="needs a model"):
        BreakDown().fit(X)
