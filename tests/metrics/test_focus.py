"""Focus (Arias-Duart et al. 2022) and its mosaics: hand computations, the
mosaics against direct slicing, and Quantus 0.6's Focus run directly."""

import numpy as np
import pytest
import torch

from sklearn_xai.metrics import (
    attribution_localisation,
    focus,
    get_metric_spec,
    make_mosaics,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning


def test_hand_computed_quadrants():
    # 4 x 4 mosaic of 2 x 2 images; the class at top-right and bottom-left.
    a = np.zeros((4, 4))
    a[0, 3] = 3.0   # top-right: in
    a[3, 0] = 1.0   # bottom-left: in
    a[0, 0] = 4.0   # top-left: out
    a[3, 3] = -7.0  # negative: ignored
    A = a.reshape(1, -1)
    np.testing.assert_allclose(focus([[0, 1, 1, 0]], A, image_shape=(4, 4)), [4 / 8])
    np.testing.assert_allclose(focus([[1, 0, 0, 0]], A), [4 / 8])
    np.testing.assert_allclose(focus([[1, 1, 0, 0]], A), [7 / 8])
    # Pixel masks give the same score, and so does attribution localisation.
    M = np.zeros((4, 4), dtype=bool)
    M[:2, 2:] = M[2:, :2] = True
    np.testing.assert_allclose(focus(M.reshape(1, -1), A), [0.5])
    np.testing.assert_allclose(attribution_localisation(M.reshape(1, -1), A), [0.5])


def test_channels_and_odd_sides():
    # (2, 3, 3): odd sides put the middle row/column in the lower/right quadrants.
    a = np.zeros((2, 3, 3))
    a[0, 0, 0] = 1.0  # channel 0, top-left
    a[1, 1, 1] = 2.0  # channel 1, centre: bottom-right
    a[1, 0, 2] = 5.0  # channel 1, top-right
    A = a.reshape(1, -1)
    np.testing.assert_allclose(focus([[1, 0, 0, 1]], A, image_shape=(2, 3, 3)), [3 / 8])
    np.testing.assert_allclose(focus([[0, 1, 0, 0]], A, image_shape=(2, 3, 3)), [5 / 8])


def test_no_positive_attribution():
    A = -np.ones((1, 16))
    with pytest.warns(UndefinedScoreWarning):
        assert np.isnan(focus([[1, 1, 0, 0]], A)[0])
    np.testing.assert_array_equal(focus([[1, 1, 0, 0]], A, convention="quantus_code"), [0.0])


def test_bad_flags():
    with pytest.raises(ValueError, match="0/1"):
        focus([[2, 0, 0, 1]], np.ones((1, 16)))
    with pytest.raises(ValueError, match="one row of 4 flags"):
        focus([[1, 0, 0, 1]] * 2, np.ones((1, 16)))


@pytest.mark.parametrize("shape", [(2, 3), (3, 2, 2)])
def test_mosaics_hold_the_drawn_images(shape):
    rng = np.random.default_rng(0)
    n_pixels = int(np.prod(shape))
    images = rng.normal(size=(12, n_pixels))
    labels = np.repeat([0, 1, 2], 4)
    m = make_mosaics(images, labels, image_shape=shape, mosaics_per_class=5,
                     random_state=0)
    h, w = shape[-2:]
    assert m.image_shape == (*shape[:-2], 2 * h, 2 * w)
    assert m.data.shape == (15, 4 * n_pixels)
    np.testing.assert_array_equal(m.target, np.repeat([0, 1, 2], 5))
    for i in range(15):
        mosaic = m.data[i].reshape(m.image_shape)
        blocks = [mosaic[..., :h, :w], mosaic[..., :h, w:],
                  mosaic[..., h:, :w], mosaic[..., h:, w:]]
        for q in range(4):
            np.testing.assert_array_equal(blocks[q], images[m.indices[i, q]].reshape(shape))
        np.testing.assert_array_equal(m.labels[i], labels[m.indices[i]])
        own = m.quadrants[i]
        assert own.sum() == 2 and len(set(m.indices[i][own])) == 2
        assert (m.labels[i][~own] != m.target[i]).all()
        # The pixel masks are the flagged quadrants.
        gt = m.ground_truth[i].reshape(m.image_shape)
        for q in range(4):
            block = [gt[..., :h, :w], gt[..., :h, w:], gt[..., h:, :w], gt[..., h:, w:]][q]
            assert block.all() if own[q] else not block.any()
    again = make_mosaics(images, labels, image_shape=shape, mosaics_per_class=5,
                         random_state=0)
    np.testing.assert_array_equal(again.indices, m.indices)


def test_mosaic_errors():
    with pytest.raises(ValueError, match="at least two classes"):
        make_mosaics(np.ones((4, 4)), [0, 0, 0, 0])
    with pytest.raises(ValueError, match="two distinct images of class 1"):
        make_mosaics(np.ones((4, 4)), [0, 0, 0, 1])


def test_a_perfect_and_an_inverted_explanation_on_tetromino_mosaics():
    from sklearn_xai.datasets import make_tetrominoes

    data = make_tetrominoes(40, random_state=0)
    m = make_mosaics(data.data, data.target, image_shape=data.image_shape,
                     mosaics_per_class=3, random_state=0)
    on = np.where(m.ground_truth, 1.0, 0.0)
    assert focus(m.quadrants, on, image_shape=m.image_shape).tolist() == [1.0] * 6
    assert focus(m.quadrants, 1.0 - on, image_shape=m.image_shape).tolist() == [0.0] * 6
    # A constant map: half the mass on the class's two quadrants.
    np.testing.assert_allclose(focus(m.ground_truth, np.ones_like(on)), 0.5)


def test_registry():
    spec = get_metric_spec("focus")
    assert spec.kind == "reference" and spec.greater_is_better
    assert {"ground_truth", "mask", "image_shape"} <= set(spec.requires)


def test_equals_quantus_on_tetromino_mosaics():
    import quantus
    from sklearn_xai.datasets import make_tetrominoes

    data = make_tetrominoes(40, random_state=0)
    m = make_mosaics(data.data, data.target, image_shape=data.image_shape,
                     mosaics_per_class=4, random_state=1)
    n = len(m.data)
    A = np.random.default_rng(0).normal(size=m.data.shape)
    A[0] = -np.abs(A[0])  # no positive attribution: Quantus scores 0
    ours = focus(m.quadrants, A, image_shape=m.image_shape, convention="quantus_code")
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(A.shape[1], 2)).eval()
    x = m.data.reshape(n, 1, *m.image_shape).astype(np.float32)
    metric = quantus.Focus(disable_warnings=True)
    theirs = metric(model=model, x_batch=x, y_batch=m.target.astype(int),
                    a_batch=A.reshape(x.shape).astype(np.float32),
                    custom_batch=[tuple(int(v) for v in q) for q in m.quadrants],
                    channel_first=True, device="cpu")
    np.testing.assert_allclose(ours, theirs, atol=1e-6)
    assert ours[0] == 0.0
