"""InterpolationMasker against numpy.interp, and window_groups as the
groups of the masker-based explainers (window occlusion)."""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import (
    BaselineMasker,
    InterpolationMasker,
    check_groups,
    check_masker,
    window_groups,
)


def test_interpolation_matches_numpy_interp_per_channel():
    rng = np.random.default_rng(0)
    C, T = 3, 11
    X = rng.normal(size=(4, C * T))
    keep = rng.random((4, 5, C * T)) < 0.4
    keep[0, 0, :T] = False  # a channel with nothing kept
    Z = InterpolationMasker((C, T), fill_value=-7.0).fit(X).impute(X, keep)
    assert Z.shape == (4, 5, 1, C * T)
    for i in range(4):
        for j in range(5):
            for c in range(C):
                cols = slice(c * T, (c + 1) * T)
                k = keep[i, j, cols]
                x = X[i, cols]
                expected = (np.interp(np.arange(T), np.flatnonzero(k), x[k])
                            if k.any() else np.full(T, -7.0))
                np.testing.assert_allclose(Z[i, j, 0, cols], expected)


def test_interpolation_hand_computed_and_set_up_without_rows():
    m = check_masker(InterpolationMasker(), n_features=6)
    x = np.array([[1.0, 5.0, 5.0, 5.0, 7.0, 5.0]])
    keep = [[True, False, False, False, True, False]]
    # 1 -> 7 over four steps, then the last kept value repeated
    np.testing.assert_allclose(m.impute(x, keep)[0, 0, 0], [1, 2.5, 4, 5.5, 7, 7])
    with pytest.raises(ValueError, match="series_shape"):
        InterpolationMasker((2, 4)).fit(np.zeros((1, 6)))


def test_window_groups_partition_the_columns():
    groups = window_groups((2, 7), 3)
    names, owner = check_groups(groups, 14)
    assert list(names) == ["c0:t0-2", "c0:t3-5", "c0:t6-6", "c1:t0-2", "c1:t3-5",
                           "c1:t6-6"]
    np.testing.assert_array_equal(owner, [0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 4, 4, 4, 5])
    across = window_groups((2, 7), 3, per_channel=False)
    assert across["t3-5"] == [3, 4, 5, 10, 11, 12]
    with pytest.raises(ValueError, match="window"):
        window_groups((1, 5), 6)


def test_feature_ablation_with_windows_is_window_occlusion():
    # f(x) = w.x: occluding a window with a zero baseline removes its terms
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 12))
    w = rng.normal(size=12)
    model = FrozenEstimator(LinearRegression().fit(X, X @ w))
    groups = window_groups((2, 6), 4)
    ex = FeatureAblation(model, groups=groups, masker=BaselineMasker("zero")).fit(X)
    A = ex.transform(X[:3])
    expected = np.column_stack([(X[:3, cols] * w[cols]).sum(axis=1)
                                for cols in groups.values()])
    np.testing.assert_allclose(A, expected, atol=1e-8)
    # with the interpolation masker, a window is replaced by its chord
    ex = FeatureAblation(model, groups=groups, masker=InterpolationMasker((2, 6)))
    A = ex.fit(X).transform(X[:1])
    x = X[0]
    first = x.copy()
    first[:4] = x[4]  # no kept step before: the first kept value is repeated
    np.testing.assert_allclose(A[0, 0], x @ w - first @ w, atol=1e-8)
