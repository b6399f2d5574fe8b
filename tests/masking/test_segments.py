"""Segmentations: grid patches and windows, SLIC superpixels, user label maps."""

import numpy as np
import pytest

from sklearn_xai.masking import (
    GridSegmentation,
    LabelSegmentation,
    SLICSegmentation,
    window_groups,
)


def _partition(labels):
    """The regions of one label map as a set of frozensets of positions."""
    return {frozenset(np.flatnonzero(labels == k).tolist()) for k in np.unique(labels)}


def test_grid_patches_by_hand():
    # A 3 x 5 image in 2 x 2 patches from the top-left corner.
    labels = GridSegmentation((2, 2), (3, 5)).segment(np.zeros((2, 15)))
    expected = [[0, 0, 1, 1, 2],
                [0, 0, 1, 1, 2],
                [3, 3, 4, 4, 5]]
    np.testing.assert_array_equal(labels, np.tile(np.ravel(expected), (2, 1)))
    # Centred (Quantus' padding): 6 columns in patches of 4 are padded by 1
    # column on each side (patch 0 holds the padding and columns 0-2); 3 rows
    # fit in one patch.
    centred = GridSegmentation(4, (3, 6), align="center").segment(np.zeros((1, 18)))[0]
    np.testing.assert_array_equal(centred.reshape(3, 6), [[0, 0, 0, 1, 1, 1]] * 3)


def test_grid_channels():
    # (C, p, p) patches run through all channels; (p, p) patches per channel.
    X = np.zeros((1, 2 * 2 * 2))
    through = GridSegmentation((2, 1, 2), (2, 2, 2)).segment(X)[0]
    np.testing.assert_array_equal(through, [0, 0, 1, 1, 0, 0, 1, 1])
    per = GridSegmentation((1, 2), (2, 2, 2)).segment(X)[0]
    np.testing.assert_array_equal(per, [0, 0, 1, 1, 2, 2, 3, 3])


@pytest.mark.parametrize("per_channel", [True, False])
def test_grid_windows_are_window_groups(per_channel):
    C, T, w = 3, 11, 4
    patch = (w,) if per_channel else (C, w)
    labels = GridSegmentation(patch, (C, T)).segment(np.zeros((1, C * T)))[0]
    groups = window_groups((C, T), w, per_channel=per_channel)
    assert _partition(labels) == {frozenset(g) for g in groups.values()}
    # Same order of the players: the label of a group's columns is its rank.
    for k, columns in enumerate(groups.values()):
        np.testing.assert_array_equal(labels[columns], k)


def test_grid_series_default_shape():
    labels = GridSegmentation((3,)).segment(np.zeros((1, 7)))[0]
    np.testing.assert_array_equal(labels, [0, 0, 0, 1, 1, 1, 2])


def test_slic_is_skimage_per_row():
    from skimage.segmentation import slic
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3, 64))
    X[:, :32] += 3.0
    labels = SLICSegmentation(n_segments=5, compactness=0.5, image_shape=(8, 8)).segment(X)
    for row, got in zip(X, labels):
        seg = slic(row.reshape(8, 8), n_segments=5, compactness=0.5, sigma=0.0,
                   start_label=0, channel_axis=None).ravel()
        assert _partition(got) == _partition(seg)
        assert got.min() == 0 and got.max() == len(np.unique(seg)) - 1


def test_slic_colour_channels_share_the_pixel_segment():
    X = np.random.default_rng(1).normal(size=(1, 3 * 6 * 6))
    labels = SLICSegmentation(n_segments=4, image_shape=(3, 6, 6)).segment(X)[0]
    planes = labels.reshape(3, 36)
    np.testing.assert_array_equal(planes[0], planes[1])
    np.testing.assert_array_equal(planes[0], planes[2])


def test_label_segmentation_one_or_per_row():
    X = np.zeros((2, 4))
    np.testing.assert_array_equal(LabelSegmentation([7, 7, -1, 3]).segment(X),
                                  [[2, 2, 0, 1], [2, 2, 0, 1]])
    per_row = LabelSegmentation([[0, 0, 1, 1], [5, 6, 6, 6]])
    np.testing.assert_array_equal(per_row.segment(X), [[0, 0, 1, 1], [0, 1, 1, 1]])
    with pytest.raises(ValueError, match="one map per row for 2 rows, but X has 3"):
        per_row.segment(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="labels has 4 columns but X has 5"):
        LabelSegmentation([0, 0, 1, 1]).segment(np.zeros((1, 5)))
    with pytest.raises(ValueError, match="integer region ids"):
        LabelSegmentation([0.5, 1.0]).segment(np.zeros((1, 2)))


def test_grid_errors():
    with pytest.raises(ValueError, match="more axes than image_shape"):
        GridSegmentation((2, 2, 2), (4, 4)).segment(np.zeros((1, 16)))
    with pytest.raises(ValueError, match="image_shape"):
        GridSegmentation((2, 2), (3, 5)).segment(np.zeros((1, 16)))


@pytest.mark.parametrize("segmentation", [
    GridSegmentation((2, 2), (4, 4)),
    SLICSegmentation(n_segments=4, image_shape=(4, 4)),
    LabelSegmentation(np.arange(16) // 4),
])
def test_segmentations_are_clonable_components(segmentation):
    # The common checks skip segmentations (no fit): their estimator
    # contract is parameters, clone and an unchanged result.
    from sklearn.base import clone

    X = np.random.default_rng(0).random((3, 16))
    copy = clone(segmentation)
    assert repr(copy) == repr(segmentation)
    assert copy.get_params().keys() == segmentation.get_params().keys()
    np.testing.assert_array_equal(copy.segment(X), segmentation.segment(X))
    with pytest.raises(TypeError, match="abstract"):
        from sklearn_xai.masking import BaseSegmentation

        BaseSegmentation()
