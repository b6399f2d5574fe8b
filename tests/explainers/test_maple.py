"""Tests of MAPLE."""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge

from sklearn_xai.explainers._maple import MAPLE


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4)) + [0.0, 1.0, -2.0, 0.5]
    w = np.array([2.0, -1.0, 0.5, 0.0])
    return X, w


def loop_weights(forest, X_train, x):
    """XAI-Bench's training_point_weights loop, divided by the number of trees."""
    train_leaves = forest.apply(X_train)
    leaves = forest.apply(x[None])[0]
    weights = np.zeros(len(X_train))
    for t in range(train_leaves.shape[1]):
        same = np.where(train_leaves[:, t] == leaves[t])[0]
        weights[same] += 1.0 / len(same)
    return weights / train_leaves.shape[1]


def test_maple_linear_model_gives_coefficient_times_deviation(data):
    X, w = data
    ex = MAPLE(LinearRegression(), n_estimators=30, alpha=1e-10, random_state=0)
    rows = X[:6]
    A = ex.fit(X, X @ w + 1.0).transform(rows)
    np.testing.assert_allclose(A, w * (rows - X.mean(axis=0)), atol=1e-7)


def test_maple_weights_match_leaf_cooccurrence_loop(data):
    X, w = data
    ex = MAPLE(LinearRegression(), n_estimators=15, random_state=0).fit(X, X @ w)
    W = ex.local_weights(X[:4])
    for i in range(4):
        np.testing.assert_allclose(W[i], loop_weights(ex.forest_, X, X[i]), rtol=1e-12)
    np.testing.assert_allclose(W.sum(axis=1), 1.0)


def test_maple_equals_sklearn_ridge_with_forest_weights(data):
    X, _ = data
    model = LinearRegression().fit(X, np.sin(X[:, 0]) * X[:, 1])
    y_f = model.predict(X)
    ex = MAPLE(FrozenEstimator(model), n_estimators=20, random_state=1).fit(X)
    rows = X[10:14]
    A = ex.transform(rows)
    for i, x in enumerate(rows):
        wts = loop_weights(ex.forest_, X, x)
        ridge = Ridge(alpha=0.001).fit(X, y_f, sample_weight=wts)
        np.testing.assert_allclose(A[i], ridge.coef_ * (x - X.mean(axis=0)),
                                   rtol=1e-6, atol=1e-9)


def test_maple_forest_settings(data):
    X, w = data
    ex = MAPLE(LinearRegression(), random_state=0).fit(X, X @ w)
    assert len(ex.forest_.estimators_) == 200
    assert ex.forest_.min_samples_leaf == 10
    assert ex.forest_.max_features == 0.5
    np.testing.assert_allclose(ex.forest_.estimators_[0].tree_.n_outputs, 1)


def test_maple_classifier_uses_target_class(data):
    X, w = data
    y = (X @ w > np.median(X @ w)).astype(int)
    clf = FrozenEstimator(LogisticRegression().fit(X, y))
    rows = X[:5]
    A1 = MAPLE(clf, n_estimators=20, target=1, random_state=0).fit(X).transform(rows)
    A0 = MAPLE(clf, n_estimators=20, target=0, random_state=0).fit(X).transform(rows)
    # p0 = 1 - p1 at every training row, the weights do not depend on the class
    np.testing.assert_allclose(A0, -A1, atol=1e-10)


def test_maple_reproducible_and_batch_independent(data):
    X, w = data
    ex = MAPLE(LinearRegression(), n_estimators=20, random_state=3).fit(X, X @ w + X[:, 0] ** 2)
    A = ex.transform(X[:20])
    np.testing.assert_allclose(ex.transform(X[:20][::-1]), A[::-1], rtol=1e-10)
    np.testing.assert_allclose(ex.transform(X[7:8]), A[7:8], rtol=1e-10)
    ex2 = MAPLE(LinearRegression(), n_estimators=20, random_state=3).fit(X, X @ w + X[:, 0] ** 2)
    np.testing.assert_array_equal(ex2.transform(X[:20]), A)


@pytest.mark.parametrize(
    "params, match",
    [({"n_estimators": 0}, "n_estimators"), ({"alpha": -1.0}, "alpha"),
     ({"max_features": 1.5}, "max_features"), ({"min_samples_leaf": 0}, "min_samples_leaf")],
)
def test_maple_bad_parameters(data, params, match):
    X, w = data
    with pytest.raises(ValueError, match=match):
        MAPLE(LinearRegression(), **params).fit(X, X @ w)


def test_maple_wrong_width(data):
    X, w = data
    ex = MAPLE(LinearRegression(), n_estimators=5, random_state=0).fit(X, X @ w)
    with pytest.raises(ValueError, match="features"):
        ex.transform(X[:2, :3])
