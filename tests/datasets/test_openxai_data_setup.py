"""OpenXAI's synthetic data as its code recorded it, and its per-split scaling.

The reference draw is written out here from the description of OpenXAI's
``generate_gaussians(...).dgp_vars()`` (legacy numpy global stream: weights,
then per cluster a mask drawn feature by feature and the cluster's rows; the
50/50 threshold on a 1000-point grid; the test rows as a set of indices,
iterated in ascending order), independently of ``make_synthgauss``.
"""

import numpy as np
import pytest

from sklearn_xai.datasets import make_synthgauss, minmax_scaled

OX = dict(n_features=20, n_clusters=10, cluster_distance=5.0, sparsity=0.25,
          test_size=0.25, shuffle=False)


def _openxai_draw(n_per_cluster, seed=564, d=20, K=10, distance=5.0, p=0.25):
    np.random.seed(seed)
    w = np.random.uniform(1, -1, d)
    blocks, effective = [], []
    for k in range(K):
        mask = np.array([np.random.binomial(n=1, p=p) for _ in range(d)])
        centre = np.zeros(d)
        centre[k] = distance  # K <= d: one axis per cluster
        blocks.append(np.random.multivariate_normal(centre, np.eye(d), n_per_cluster))
        effective.append(np.repeat((mask * w)[None], n_per_cluster, axis=0))
    X, effective = np.concatenate(blocks), np.concatenate(effective)
    pi = 1 / (1 + np.exp(-np.sum(X * effective, axis=1)))
    grid = np.linspace(0, 1, 1000)
    threshold = grid[np.argmin([abs(0.5 - np.mean(pi > t)) for t in grid])]
    y = (pi > threshold).astype(int)
    n = len(X)
    test = sorted(set(np.random.choice(n, int(n * 0.25), replace=False).tolist()))
    return X, y, effective, np.asarray(test)


def test_make_synthgauss_reproduces_openxai_recorded_draw():
    X, y, effective, test = _openxai_draw(2500)
    data = make_synthgauss(n_samples=2500, random_state=564, **OX)
    np.testing.assert_array_equal(data.data, X)
    np.testing.assert_array_equal(data.target, y)
    np.testing.assert_array_equal(data.ground_truth, effective)
    np.testing.assert_array_equal(data.test_indices, test)
    assert len(data.target) == 25_000 and len(test) == 6250
    # OpenXAI explains the first 1000 test rows: clusters 0 and 1 only.
    assert np.bincount(data.cluster[data.test_indices[:1000]]).tolist() == [623, 377]


def _minmax(A):
    return (A - A.min(axis=0)) / (A.max(axis=0) - A.min(axis=0))


@pytest.mark.parametrize("fit_on", ["train", "each_split"])
def test_minmax_scaled_closed_form(fit_on):
    params = dict(n_samples=30, n_features=4, n_clusters=3, random_state=1)
    raw = make_synthgauss(**params)
    train, test = raw.train_indices, raw.test_indices
    data = minmax_scaled(params={k: v for k, v in params.items() if k != "random_state"},
                         fit_on=fit_on, random_state=1)
    lo, hi = raw.data[train].min(axis=0), raw.data[train].max(axis=0)
    np.testing.assert_allclose(data["data"][train], _minmax(raw.data[train]), atol=1e-12)
    if fit_on == "train":
        expected_test = (raw.data[test] - lo) / (hi - lo)
    else:  # OpenXAI: the test rows scaled by their own minima and maxima
        expected_test = _minmax(raw.data[test])
    np.testing.assert_allclose(data["data"][test], expected_test, atol=1e-12)
    assert not np.allclose(_minmax(raw.data[test]), (raw.data[test] - lo) / (hi - lo))
    assert "test_rows" not in data
    np.testing.assert_array_equal(data["ground_truth"], raw.ground_truth)


def test_minmax_scaled_test_rows_and_errors():
    data = minmax_scaled(params={"n_samples": 10, "n_features": 3}, fit_on="each_split",
                         with_test_rows=True, random_state=0)
    X_test, y_test = data["test_rows"]
    np.testing.assert_array_equal(X_test, data["data"][data["test_indices"]])
    np.testing.assert_array_equal(y_test, data["target"][data["test_indices"]])
    with pytest.raises(ValueError, match="fit_on must be"):
        minmax_scaled(params={"n_samples": 10}, fit_on="test")
    with pytest.raises(ValueError, match="train_indices"):
        minmax_scaled("make_gaussian_linear", params={"n_samples": 10},
                      fit_on="each_split")
