"""OpenXAI SynthGauss generator."""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.datasets import GaussianMixture, make_synthgauss
from sklearn_xai.datasets._synthgauss import _code_centers, _paper_centers


def _openxai_reference(n, d, K, kappa, test_size, low, high, p, seed):
    """Step-by-step re-statement of OpenXAI's dgp_synthetic process
    (global legacy seed, scalar Bernoulli draws, per-cluster sampling)."""
    rs = np.random.RandomState(seed)
    w = rs.uniform(high, low, d)
    centres = []
    for i in range(K):  # d >= K case only
        c = np.zeros(d)
        c[i] = kappa
        centres.append(c)
    X, masks, clusters = [], [], []
    for i in range(K):
        m = np.array([rs.binomial(n=1, p=p) for _ in range(d)])
        X.append(rs.multivariate_normal(centres[i], np.eye(d), n))
        masks.append(np.repeat(m[None], n, axis=0))
        clusters.append(np.full(n, i))
    X, masks = np.concatenate(X), np.concatenate(masks)
    probs = 1 / (1 + np.exp(-np.sum(X * (masks * w), axis=1)))
    grid = np.linspace(0, 1, 1000)
    diffs = [abs(0.5 - (probs > t).mean()) for t in grid]
    threshold = grid[int(np.argmin(diffs))]
    y = (probs > threshold).astype(int)
    test = rs.choice(n * K, int(n * K * test_size), replace=False)
    return X, y, probs, masks, w, np.sort(test), threshold


def test_reproduces_openxai_code_draws():
    data = make_synthgauss(40, 6, n_clusters=3, cluster_distance=5.0, sparsity=0.5,
                           random_state=567, shuffle=False)
    X, y, probs, masks, w, test, thr = _openxai_reference(40, 6, 3, 5.0, 0.25, -1.0,
                                                          1.0, 0.5, 567)
    np.testing.assert_allclose(data.data, X)
    np.testing.assert_array_equal(data.target, y)
    np.testing.assert_allclose(data.probs, probs, rtol=1e-12)
    np.testing.assert_array_equal(data.ground_truth_mask, masks.astype(bool))
    np.testing.assert_allclose(data.weights, w)
    np.testing.assert_array_equal(data.test_indices, test)
    assert data.threshold == thr
    np.testing.assert_array_equal(np.sort(np.r_[data.train_indices, data.test_indices]),
                                  np.arange(120))


def test_shapes_balance_and_ground_truth():
    data = make_synthgauss(300, 8, n_clusters=4, random_state=0)
    assert data.data.shape == (1200, 8)
    assert len(data.test_indices) == 300 and len(data.train_indices) == 900
    assert not set(data.test_indices) & set(data.train_indices)
    assert abs(data.target.mean() - 0.5) < 0.01
    np.testing.assert_allclose(data.ground_truth,
                               data.weights * data.cluster_masks[data.cluster])
    np.testing.assert_array_equal(data.ground_truth_mask, data.cluster_masks[data.cluster])
    z = np.sum(data.data * data.ground_truth, axis=1)
    np.testing.assert_allclose(data.probs, 1 / (1 + np.exp(-z)))
    np.testing.assert_array_equal(data.target, data.probs > data.threshold)
    np.testing.assert_array_equal(data.label_function(data.data, data.cluster), data.target)
    # clusters are equally sized and centred on their centres
    assert np.all(np.bincount(data.cluster) == 300)
    for k in range(4):
        np.testing.assert_allclose(data.data[data.cluster == k].mean(0), data.centers[k],
                                   atol=0.2)
    assert isinstance(data.distribution, GaussianMixture)
    np.testing.assert_allclose(data.distribution.means, data.centers)
    # far-apart clusters: the label function recovers the cluster itself
    assert (data.label_function(data.data) == data.target).mean() > 0.99


def test_code_centres_cases():
    np.testing.assert_array_equal(_code_centers(2, 3, 5.0),
                                  [[5, 0, 0], [0, 5, 0]])
    np.testing.assert_array_equal(_code_centers(4, 2, 1.0),
                                  [[1, 0], [0, 1], [-1, 0], [0, -1]])
    np.testing.assert_array_equal(
        _code_centers(7, 2, 1.0), [[1, 0], [0, 1], [2, 0], [0, 2], [4, 0], [0, 4], [6, 0]]
    )
    np.testing.assert_array_equal(_paper_centers(5, 2, 1.0),
                                  [[1, 0], [0, 1], [2, 0], [0, 2], [3, 0]])


def test_paper_variant():
    data = make_synthgauss(2000, 5, n_clusters=3, convention="paper", random_state=0)
    assert data.data.shape == (2000, 5)
    assert data.weights.shape == (3, 5)
    assert data.target.mean() == pytest.approx(0.5, abs=1e-3)  # median threshold
    assert data.threshold == pytest.approx(np.median(data.probs))
    counts = np.bincount(data.cluster, minlength=3)
    assert np.all(np.abs(counts / 2000 - 1 / 3) < 0.04)
    np.testing.assert_allclose(data.ground_truth,
                               (data.weights * data.cluster_masks)[data.cluster])


def test_min_active_features_and_reproducibility():
    a = make_synthgauss(5, 10, n_clusters=50, sparsity=0.05, min_active_features=1,
                        random_state=3)
    assert np.all(a.cluster_masks.sum(1) >= 1)
    b = make_synthgauss(5, 10, n_clusters=50, sparsity=0.05, min_active_features=1,
                        random_state=3)
    c = make_synthgauss(5, 10, n_clusters=50, sparsity=0.05, min_active_features=1,
                        random_state=4)
    np.testing.assert_array_equal(a.data, b.data)
    assert not np.allclose(a.data, c.data)
    plain = make_synthgauss(5, 10, n_clusters=50, sparsity=0.05, random_state=3)
    assert np.any(plain.cluster_masks.sum(1) == 0)


def test_shuffle_remaps_splits():
    ordered = make_synthgauss(30, 4, n_clusters=2, random_state=1, shuffle=False)
    shuffled = make_synthgauss(30, 4, n_clusters=2, random_state=1)
    key = lambda X: np.lexsort(X.T)  # noqa: E731
    np.testing.assert_allclose(ordered.data[key(ordered.data)], shuffled.data[key(shuffled.data)])
    test_rows = ordered.data[ordered.test_indices]
    np.testing.assert_allclose(test_rows[key(test_rows)],
                               shuffled.data[shuffled.test_indices][
                                   key(shuffled.data[shuffled.test_indices])])
    np.testing.assert_allclose(shuffled.probs,
                               shuffled.label_function.probs(shuffled.data, shuffled.cluster))


def test_parameter_errors():
    with pytest.raises(ValueError, match="weight_range"):
        make_synthgauss(10, 3, n_clusters=2, weight_range=(1.0, -1.0))
    with pytest.raises(ValueError, match="min_active_features"):
        make_synthgauss(10, 3, n_clusters=2, min_active_features=4)
    with pytest.raises(InvalidParameterError, match="convention"):
        make_synthgauss(10, 3, convention="code")
    with pytest.raises(InvalidParameterError, match="sparsity"):
        make_synthgauss(10, 3, sparsity=1.5)
    with pytest.raises(ValueError, match="cov must have shape"):
        make_synthgauss(10, 3, n_clusters=2, cov=np.eye(2))
