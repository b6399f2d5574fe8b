"""Tests of the mask metrics (XAI-TRIS precision and EMD score, ROC-AUC,
relevance mass / rank accuracy) against plain POT, hand-computed values and
scikit-learn."""

import numpy as np
import ot
import pytest
from joblib import parallel_config
from sklearn.metrics import roc_auc_score

from sklearn_xai.metrics._localisation import (
    emd_score,
    mask_precision,
    mask_roc_auc,
    relevance_mass_accuracy,
    relevance_rank_accuracy,
)
from sklearn_xai.metrics._registry import get_metric_spec


def _plain_emd(mask, a, shape):
    """XAI-TRIS's computation: ot.emd2 on the full grid cost matrix."""
    h, w = shape
    rr, cc = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    pts = np.column_stack([rr.ravel(), cc.ravel()]).astype(float)
    C = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    p = mask / mask.sum()
    q = np.abs(a) / np.abs(a).sum()
    return ot.emd2(p, q, C, numItermax=1_000_000)


def _random_masks_and_maps(n, side, seed):
    rng = np.random.default_rng(seed)
    masks = (rng.random((n, side * side)) < 0.2).astype(float)
    masks[:, 0] = 1.0
    maps = rng.normal(size=(n, side * side)) * (rng.random((n, side * side)) < 0.7)
    return masks, maps


# ------------------------------------------------------------------ EMD score
def test_emd_matches_plain_pot_on_random_8x8_maps():
    masks, maps = _random_masks_and_maps(12, 8, 0)
    expected = np.array([1 - _plain_emd(m, a, (8, 8)) / (8 * np.sqrt(2))
                         for m, a in zip(masks, maps)])
    np.testing.assert_allclose(emd_score(masks, maps), expected, rtol=0, atol=1e-9)
    np.testing.assert_allclose(emd_score(masks, maps, convention="xai_tris_code"),
                               expected, rtol=0, atol=1e-9)
    expected_true = np.array([1 - _plain_emd(m, a, (8, 8)) / (7 * np.sqrt(2))
                              for m, a in zip(masks, maps)])
    np.testing.assert_allclose(emd_score(masks, maps, convention="paper"),
                               expected_true, rtol=0, atol=1e-9)


def test_net_mass_reduction_is_exact():
    masks, maps = _random_masks_and_maps(10, 8, 1)
    np.testing.assert_allclose(emd_score(masks, maps, net_mass=True),
                               emd_score(masks, maps, net_mass=False),
                               rtol=0, atol=1e-12)


def test_emd_of_mask_with_itself_and_scaled_copies_is_one():
    masks, _ = _random_masks_and_maps(5, 8, 2)
    np.testing.assert_allclose(emd_score(masks, masks), 1.0, atol=1e-15)
    np.testing.assert_allclose(emd_score(masks, -3.0 * masks), 1.0, atol=1e-15)


def test_emd_hand_computed_and_non_square_shape():
    # 2 x 3 image; mask on pixel (0, 0); all mass on pixel (1, 2): W = sqrt(5).
    mask = np.zeros((1, 6))
    mask[0, 0] = 1
    a = np.zeros((1, 6))
    a[0, 5] = 0.3
    np.testing.assert_allclose(emd_score(mask, a, image_shape=(2, 3)),
                               [1 - np.sqrt(5) / np.sqrt(13)])
    np.testing.assert_allclose(
        emd_score(mask, a, image_shape=(2, 3), convention="paper"),
        [1 - np.sqrt(5) / np.sqrt(5)], atol=1e-15)
    # Half the mass in place, half moved by one pixel: W = 0.5.
    a = np.zeros((1, 6))
    a[0, [0, 1]] = 1.0
    np.testing.assert_allclose(emd_score(mask, a, image_shape=(2, 3)),
                               [1 - 0.5 / np.sqrt(13)])
    with pytest.raises(ValueError, match="image_shape"):
        emd_score(mask, a)
    with pytest.raises(ValueError, match="image_shape"):
        emd_score(mask, a, image_shape=(3, 3))


def test_emd_scale_and_row_order_invariance_and_parallel():
    masks, maps = _random_masks_and_maps(9, 8, 3)
    base = emd_score(masks, maps)
    np.testing.assert_allclose(emd_score(masks, 5.0 * maps), base, atol=1e-12)
    perm = np.random.default_rng(0).permutation(9)
    np.testing.assert_allclose(emd_score(masks[perm], maps[perm]), base[perm],
                               atol=1e-12)
    # The parallel path (chunking and reassembly); threads keep the test fast,
    # the default loky processes run the same code.
    with parallel_config(backend="threading"):
        np.testing.assert_allclose(emd_score(masks, maps, n_jobs=2), base, atol=1e-12)


def test_emd_coarsen_respects_its_error_bound():
    masks, maps = _random_masks_and_maps(6, 16, 4)
    exact = emd_score(masks, maps)
    for k in (2, 3, 4):
        approx = emd_score(masks, maps, coarsen=k)
        bound = np.sqrt(2) * (k - 1) / (16 * np.sqrt(2))
        assert np.all(np.abs(approx - exact) <= bound + 1e-12)
    np.testing.assert_allclose(emd_score(masks, maps, coarsen=1), exact)
    # Identical block totals transport nothing.
    block = np.kron(np.eye(2), np.ones((2, 2))).ravel()[None]  # 4x4, two blocks
    np.testing.assert_allclose(emd_score(block, block, coarsen=2), [1.0])
    # Partial edge blocks (5x5 image, 2x2 blocks) are supported.
    masks, maps = _random_masks_and_maps(3, 5, 10)
    assert np.all(np.abs(emd_score(masks, maps, coarsen=2) - emd_score(masks, maps))
                  <= np.sqrt(2) / (5 * np.sqrt(2)) + 1e-12)


def test_emd_all_zero_map_and_empty_mask_are_nan_with_warning():
    masks, maps = _random_masks_and_maps(3, 8, 5)
    maps[1] = 0.0
    with pytest.warns(UserWarning, match="undefined for 1 of 3"):
        out = emd_score(masks, maps)
    assert np.isnan(out[1]) and np.isfinite(out[[0, 2]]).all()
    masks[2] = 0.0
    with pytest.warns(UserWarning, match="undefined for 2 of 3"):
        emd_score(masks, maps)
    with pytest.raises(ValueError, match="undefined"):
        emd_score(masks, maps, nan_policy="raise")


def test_mask_metrics_reject_non_binary_masks():
    with pytest.raises(ValueError, match="0/1"):
        emd_score([[0.5, 0.0, 1.0, 0.0]], [[1.0, 0.0, 0.0, 0.0]])


# ------------------------------------------------------------------ precision
def test_precision_is_one_when_the_attribution_is_the_mask():
    masks, _ = _random_masks_and_maps(7, 8, 6)
    np.testing.assert_array_equal(mask_precision(masks, masks), 1.0)
    np.testing.assert_array_equal(mask_precision(masks.astype(bool), 2 * masks), 1.0)


def test_precision_hand_computed_and_zero_pixels():
    mask = [[1, 1, 1, 0, 0, 0]]
    # K = 3; top-3 by |a|: pixels 3 (5.0), 0 (-4.0), 1 (1.0) -> 2 hits.
    np.testing.assert_allclose(mask_precision(mask, [[-4.0, 1.0, 0.5, 5.0, 0, 0]]),
                               [2 / 3])
    # Only two non-zero pixels: S = {0, 3}, denominator still K = 3.
    a = [[2.0, 0.0, 0.0, 1.0, 0.0, 0.0]]
    np.testing.assert_allclose(mask_precision(mask, a), [1 / 3])
    # Without the non-zero restriction, the zero-valued pixel 1 fills the top-3.
    np.testing.assert_allclose(relevance_rank_accuracy(mask, a), [2 / 3])


def test_relevance_rank_accuracy_equals_precision_without_zeros():
    rng = np.random.default_rng(7)
    masks, _ = _random_masks_and_maps(20, 6, 7)
    maps = rng.normal(size=masks.shape)
    np.testing.assert_allclose(relevance_rank_accuracy(masks, maps),
                               mask_precision(masks, maps))


def test_mask_roc_auc_matches_sklearn_per_row():
    rng = np.random.default_rng(8)
    masks, _ = _random_masks_and_maps(15, 5, 8)
    maps = rng.integers(-2, 3, size=masks.shape).astype(float)  # many ties
    expected = [roc_auc_score(m, np.abs(a)) for m, a in zip(masks, maps)]
    np.testing.assert_allclose(mask_roc_auc(masks, maps), expected)
    with pytest.warns(UserWarning, match="mask empty or full"):
        out = mask_roc_auc([[1, 1, 1]], [[1.0, 2.0, 3.0]])
    assert np.isnan(out).all()


def test_relevance_mass_accuracy_hand_computed():
    np.testing.assert_allclose(
        relevance_mass_accuracy([[1, 0, 1, 0]], [[1.0, -2.0, -3.0, 4.0]]), [0.4]
    )
    with pytest.warns(UserWarning, match="all-zero"):
        assert np.isnan(relevance_mass_accuracy([[1, 0]], [[0.0, 0.0]])[0])


@pytest.mark.parametrize("metric", [mask_precision, relevance_rank_accuracy,
                                    relevance_mass_accuracy, mask_roc_auc])
def test_cheap_mask_metrics_scale_invariant(metric):
    rng = np.random.default_rng(9)
    masks, maps = _random_masks_and_maps(10, 6, 9)
    maps = rng.normal(size=masks.shape)
    np.testing.assert_allclose(metric(masks, 0.3 * maps), metric(masks, maps))


def test_registry_entries():
    for name in ["mask_precision", "emd_score", "mask_roc_auc",
                 "relevance_mass_accuracy", "relevance_rank_accuracy"]:
        spec = get_metric_spec(name)
        assert spec.kind == "reference" and spec.requires == (
            ("ground_truth", "image_shape", "mask") if name == "emd_score"
            else ("ground_truth", "mask"))
        assert spec.greater_is_better
