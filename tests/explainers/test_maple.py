"""Tests of MAPLE."""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.tree import DecisionTreeRegressor

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


@pytest.mark.parametrize("convention", ["paper", "xai_bench_code"])
def test_maple_classifier_uses_target_class(data, convention):
    X, w = data
    y = (X @ w > np.median(X @ w)).astype(int)
    clf = FrozenEstimator(LogisticRegression().fit(X, y))
    rows = X[:5]
    kw = dict(n_estimators=20, convention=convention, random_state=0)
    A1 = MAPLE(clf, target=1, **kw).fit(X).transform(rows)
    A0 = MAPLE(clf, target=0, **kw).fit(X).transform(rows)
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


# ------------------------------------------- convention="xai_bench_code"
def _xai_bench_maple(forest, X_fit, y_fit, X_val, y_val, alpha=0.001):
    """XAI-Bench's MAPLE (``custom_explainers/maple.py``) given its forest
    and split, with scikit-learn's Ridge: the root-impurity scores, the
    validation choice of the number of features, weights summed over trees."""
    d = X_fit.shape[1]
    scores = np.zeros(d)
    for tree in forest.estimators_:
        if tree.tree_.feature[0] != -2:
            scores[tree.tree_.feature[0]] += tree.tree_.impurity[0]
    ranked = np.argsort(-scores, kind="stable")
    fit_leaves = forest.apply(X_fit)

    def weights(x):
        leaves = forest.apply(x[None])[0]
        w = np.zeros(len(X_fit))
        for t in range(fit_leaves.shape[1]):
            same = np.where(fit_leaves[:, t] == leaves[t])[0]
            w[same] += 1.0 / len(same)
        return w

    rmse = []
    for retain in range(1, d + 1):
        cols = np.sort(ranked[:retain])
        pred = [Ridge(alpha=alpha).fit(X_fit[:, cols], y_fit, sample_weight=weights(x))
                .predict(x[None, cols])[0] for x in X_val]
        rmse.append(np.sqrt(np.mean((np.asarray(pred) - y_val) ** 2)))
    best = np.sort(ranked[: int(np.argmin(rmse)) + 1])

    def explain(x, mean):
        coef = np.zeros(d)
        coef[best] = Ridge(alpha=alpha).fit(X_fit[:, best], y_fit,
                                            sample_weight=weights(x)).coef_
        return coef * (x - mean)

    return scores, np.asarray(rmse), best, explain


@pytest.fixture(scope="module")
def code_problem():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(250, 4))
    # Feature 0 dominates, 1 matters a little, 2 and 3 not at all.
    model = DecisionTreeRegressor(max_depth=4, random_state=0).fit(
        X, 3.0 * np.sign(X[:, 0]) + 0.3 * X[:, 1])
    ex = MAPLE(FrozenEstimator(model), n_estimators=25, convention="xai_bench_code",
               random_state=0).fit(X)
    return X, model, ex


def test_maple_xai_bench_code_matches_reference_loop(code_problem):
    X, model, ex = code_problem
    # The validation rows are the rows left out of X_train_ (a random 20 %).
    in_fit = (X[:, None, :] == ex.X_train_[None]).all(axis=2).any(axis=1)
    assert in_fit.sum() == 200 and len(ex.X_train_) == 200
    X_val = X[~in_fit]
    scores, rmse, best, explain = _xai_bench_maple(
        ex.forest_, ex.X_train_, model.predict(ex.X_train_), X_val, model.predict(X_val))
    np.testing.assert_allclose(ex.feature_scores_, scores, rtol=1e-12)
    np.testing.assert_allclose(ex.validation_rmse_, rmse, rtol=1e-6)
    np.testing.assert_array_equal(np.flatnonzero(ex.support_), best)
    rows = X[:5]
    expected = [explain(x, X.mean(axis=0)) for x in rows]  # the mean of all rows
    np.testing.assert_allclose(ex.transform(rows), expected, rtol=1e-6, atol=1e-10)


def test_maple_xai_bench_code_drops_features(code_problem):
    X, model, ex = code_problem
    # Feature 0 wins the root splits; features the local models do not keep
    # get zero attributions, the paper convention keeps them all.
    assert np.argmax(ex.feature_scores_) == 0
    assert ex.support_[0] and not ex.support_.all()
    A = ex.transform(X[:20])
    np.testing.assert_array_equal(A[:, ~ex.support_], 0.0)
    paper = MAPLE(FrozenEstimator(model), n_estimators=25, random_state=0).fit(X)
    assert paper.support_.all() and paper.validation_rmse_ is None
    assert np.all(paper.transform(X[:20]) != 0.0)


def test_maple_xai_bench_code_is_per_row(code_problem):
    X, _, ex = code_problem
    A = ex.transform(X[:12])
    np.testing.assert_array_equal(ex.transform(X[:12][::-1]), A[::-1])
    np.testing.assert_allclose(ex.transform(X[4:5]), A[4:5], rtol=1e-12)


def test_maple_xai_bench_code_needs_a_validation_row():
    X = np.array([[0.0, 1.0]])
    with pytest.raises(ValueError, match="at least 2"):
        MAPLE(LinearRegression(), convention="xai_bench_code").fit(X, [1.0])
    with pytest.raises(ValueError, match="convention"):
        MAPLE(LinearRegression(), convention="code").fit(X, [1.0])
