"""Gaussian copies of real data and their fidelity checks."""

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import jensenshannon
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.datasets import load_diabetes, load_wine
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.datasets import (
    MultivariateGaussian,
    explanation_transfer_error,
    make_gaussian_copy,
    make_wine_simulation,
    marginal_divergence,
    target_divergence,
)


def test_gaussian_copy_moments_and_labels():
    X, y = load_diabetes(return_X_y=True)
    data = make_gaussian_copy(X, y, n_samples=20_000, random_state=0)
    n = X.shape[0]
    Xs = (X - X.mean(0)) / X.std(0)
    dist = data.distribution
    assert isinstance(dist, MultivariateGaussian)
    np.testing.assert_allclose(dist.mean, 0.0, atol=1e-12)
    # ddof=1 covariance of ddof=0-standardised rows = correlation * n / (n - 1)
    np.testing.assert_allclose(dist.cov, np.corrcoef(X.T) * n / (n - 1), atol=1e-12)
    np.testing.assert_allclose(np.cov(data.data.T), dist.cov, atol=0.05)
    # 1-NN labels are real labels; the label function returns a real row's own label
    assert set(np.unique(data.target)) <= set(y)
    np.testing.assert_array_equal(data.label_function(Xs[:20]), y[:20])
    np.testing.assert_allclose(data.scaler.transform(X), Xs)
    assert data.ground_truth is None and data.data_test is None
    default = make_gaussian_copy(X, y, random_state=0)
    assert default.data.shape == X.shape


def test_more_neighbours_average_labels():
    X, y = load_diabetes(return_X_y=True)
    data = make_gaussian_copy(X, y, n_samples=200, n_neighbors=5, random_state=0)
    assert not set(np.unique(data.target)) <= set(y)
    assert data.label_model.n_neighbors == 5


def test_wine_simulation_holds_out_like_xai_bench():
    X, y = load_wine(return_X_y=True)
    data = make_wine_simulation(X, y, random_state=0)
    Xs = (X - X.mean(0)) / X.std(0)
    train, test = train_test_split(np.arange(len(X)), test_size=0.05, random_state=7)
    np.testing.assert_array_equal(data.real_test_indices, np.sort(test))
    np.testing.assert_allclose(data.data_test, Xs[test])
    np.testing.assert_allclose(data.distribution.mean, Xs[train].mean(0))
    np.testing.assert_allclose(data.distribution.cov, np.cov(Xs[train].T))
    assert data.data.shape == (len(train), 13)
    assert "wine" in data.DESCR.lower()


def test_feature_names_from_frame_and_as_frame():
    frame = load_wine(as_frame=True)
    data = make_gaussian_copy(frame.data, frame.target, n_samples=30, random_state=0,
                              as_frame=True)
    assert isinstance(data.data, pd.DataFrame)
    assert list(data.data.columns) == list(frame.data.columns)
    a = make_gaussian_copy(frame.data, frame.target, n_samples=30, random_state=0)
    b = make_gaussian_copy(frame.data, frame.target, n_samples=30, random_state=1)
    assert not np.allclose(a.data, b.data)
    np.testing.assert_array_equal(a.data, data.data.to_numpy())


def test_constant_feature_is_rejected():
    X = np.column_stack([np.arange(10.0), np.ones(10)])
    with pytest.raises(ValueError, match=r"features \[1\] of X are constant"):
        make_gaussian_copy(X, np.arange(10.0))
    with pytest.raises(InvalidParameterError, match="n_neighbors"):
        make_gaussian_copy(X[:, :1], np.arange(10.0), n_neighbors=0)


def test_marginal_divergence_values():
    # P = (1/2, 1/2), Q = (1, 0): JSD = 0.5 (KL(P||M) + KL(Q||M)), M = (3/4, 1/4)
    real = np.array([[0.2], [0.8]])
    sim = np.array([[0.1], [0.3]])
    expected = 0.5 * (0.5 * np.log2(0.5 / 0.75) + 0.5 * np.log2(0.5 / 0.25)
                      + np.log2(1 / 0.75))
    got = marginal_divergence(real, sim, bins=[0.0, 0.5, 1.0])
    assert got[0] == pytest.approx(expected)
    assert got[0] == pytest.approx(0.311278, abs=1e-6)
    rng = np.random.default_rng(0)
    A = rng.normal(size=(2000, 3))
    assert np.all(marginal_divergence(A, A) == 0.0)
    far = marginal_divergence(A, A + 100.0, bins=50)
    np.testing.assert_allclose(far, 1.0)
    assert np.all(marginal_divergence(A, A + 100.0, bins=50, base=np.e) <= np.log(2) + 1e-12)


def test_marginal_divergence_xai_bench_code():
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(3000, 2)), rng.normal(0.5, 1.2, size=(2500, 2))
    got = marginal_divergence(A, B, convention="xai_bench_code")
    edges = np.round(np.arange(-6.0, 5.95, 0.1), 1)
    assert len(edges) == 120
    for j in range(2):
        p = np.histogram(A[:, j], edges)[0] / len(A)
        q = np.histogram(B[:, j], edges)[0] / len(B)
        assert got[j] == pytest.approx(jensenshannon(p, q))
    # the distance is the square root of the natural-log divergence
    toolkit = marginal_divergence(A, B, bins=edges, base=np.e)
    np.testing.assert_allclose(got, np.sqrt(toolkit), rtol=1e-10)
    assert np.all(got <= np.sqrt(np.log(2)))


def test_target_divergence():
    assert target_divergence([3, 4, 4, 5], [5, 4, 4, 3]) == 0.0
    assert target_divergence([3, 3], [4, 4]) == 1.0
    # P = (1/2, 1/2, 0), Q = (0, 1/2, 1/2): JSD = 1/2 in base 2
    assert target_divergence([3, 4], [4, 5]) == pytest.approx(0.5)
    assert target_divergence([0.1, 0.2], [0.1, 0.2], bins=4) == 0.0


class _CoefExplainer(TransformerMixin, BaseEstimator):
    """Minimal explainer: linear-regression coefficient times input."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        self.coef_ = LinearRegression().fit(X, y).coef_
        return self

    def transform(self, X):
        return np.asarray(X) * self.coef_


def test_explanation_transfer_error():
    X, y = load_diabetes(return_X_y=True)
    copy = make_gaussian_copy(X, y, n_samples=2000, n_neighbors=5, random_state=0)
    Xs = copy.data_real
    same = explanation_transfer_error(_CoefExplainer(), Xs, y, Xs, y, Xs[:50])
    assert same == 0.0
    err = explanation_transfer_error(_CoefExplainer(), Xs, y, copy.data, copy.target, Xs[:50])
    coef_real = LinearRegression().fit(Xs, y).coef_
    coef_sim = LinearRegression().fit(copy.data, copy.target).coef_
    assert err == pytest.approx(np.mean((Xs[:50] * (coef_real - coef_sim)) ** 2))
    assert err > 0
