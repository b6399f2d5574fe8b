"""mask_average_precision and mask_iou: against scikit-learn's
average_precision_score row by row, and hand computations."""

import numpy as np
import pytest
from sklearn import config_context
from sklearn.metrics import average_precision_score
from sklearn.model_selection import GridSearchCV

from sklearn_xai.metrics import (
    check_scoring,
    get_metric_spec,
    get_scorer_names,
    mask_average_precision,
    mask_iou,
)


def _masks_and_maps(n, d, seed, levels=None):
    rng = np.random.default_rng(seed)
    masks = rng.random((n, d)) < 0.3
    masks[:, 0] = True  # never empty
    if levels is None:
        maps = rng.normal(size=(n, d))
    else:  # few distinct values: many ties
        maps = rng.integers(-levels, levels + 1, size=(n, d)).astype(float)
    return masks, maps


@pytest.mark.parametrize("levels", [None, 2])
def test_average_precision_matches_sklearn_per_row(levels):
    masks, maps = _masks_and_maps(25, 9, 1, levels)
    expected = [average_precision_score(m, np.abs(a)) for m, a in zip(masks, maps)]
    np.testing.assert_allclose(mask_average_precision(masks, maps), expected)


def test_average_precision_hand_computed():
    # |a| ranks 0 (hit), 2 (miss), 1 (hit), 3: P = 1, 1/2, 2/3 at the hits.
    np.testing.assert_allclose(
        mask_average_precision([[1, 1, 0, 0]], [[0.9, -0.1, 0.5, 0.0]]),
        [(1 + 2 / 3) / 2])
    # one tie group of all four features: precision 2/4 for both hits
    np.testing.assert_allclose(mask_average_precision([[1, 1, 0, 0]], [[1.0] * 4]),
                               [0.5])
    # a single mask for every row
    out = mask_average_precision([True, False], [[2.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(out, [1.0, 0.5])
    with pytest.warns(UserWarning, match="empty mask"):
        assert np.isnan(mask_average_precision([[0, 0]], [[1.0, 2.0]])[0])
    assert mask_average_precision([[0, 0]], [[1.0, 2.0]], nan_policy="zero")[0] == 0


def test_iou_hand_computed():
    mask = [[1, 1, 0, 0, 0]]
    a = [[0.9, 0.1, 0.5, 0.0, -0.2]]
    # k = |G| = 2: top {0, 2}: 1 / 3
    np.testing.assert_allclose(mask_iou(mask, a), [1 / 3])
    # k = 4: top {0, 2, 4, 1}: 2 / 4
    np.testing.assert_allclose(mask_iou(mask, a, k=4), [0.5])
    # ties at the cut go to the lower index: top-1 of [1, 1, 0, ...] is column 0
    np.testing.assert_allclose(mask_iou([[0, 1, 0]], [[1.0, 1.0, 0.0]]), [0.0])
    # a fraction k rounds up: 0.5 * 5 -> 3, top {0, 2, 4}
    np.testing.assert_allclose(mask_iou(mask, a, k=0.5), [1 / 4])
    with pytest.warns(UserWarning, match="empty"):
        assert np.isnan(mask_iou([[0, 0]], [[1.0, 2.0]])[0])
    # with a fixed k an empty mask is defined (no overlap)
    assert mask_iou([[0, 0]], [[1.0, 2.0]], k=1)[0] == 0


def test_iou_default_k_is_a_function_of_rank_accuracy():
    from sklearn_xai.metrics import relevance_rank_accuracy

    masks, maps = _masks_and_maps(30, 8, 2)
    rra = relevance_rank_accuracy(masks, maps)
    size = masks.sum(axis=1)
    hits = rra * size
    np.testing.assert_allclose(mask_iou(masks, maps), hits / (2 * size - hits))


def test_perfect_and_scale_invariant():
    masks, maps = _masks_and_maps(10, 7, 3)
    perfect = masks * 2.0 + 0.1 * np.abs(maps) * ~masks  # mask dominates
    np.testing.assert_allclose(mask_average_precision(masks, perfect), 1.0)
    np.testing.assert_allclose(mask_iou(masks, perfect), 1.0)
    for metric in (mask_average_precision, mask_iou):
        np.testing.assert_allclose(metric(masks, -3 * maps), metric(masks, maps))


def test_registered_like_the_mask_metrics():
    for name in ("mask_average_precision", "mask_iou"):
        assert name in get_scorer_names()
        spec = get_metric_spec(name)
        assert spec.kind == "reference" and spec.greater_is_better
        assert spec.requires == ("ground_truth", "mask")


def test_usable_by_name_in_grid_search():
    from sklearn.linear_model import LinearRegression

    from sklearn_xai.compose import ExplainedModel
    from sklearn_xai.explainers import FeatureAblation

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = X @ [3.0, 0.0, 2.0, 0.0]
    truth = np.tile([True, False, True, False], (60, 1))
    with config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            ExplainedModel(LinearRegression(), FeatureAblation()),
            {"explainer__target": ["predicted"]},
            scoring=check_scoring(["mask_average_precision", "mask_iou"]),
            refit=False, cv=2, error_score="raise",
        )
        search.fit(X, y, ground_truth=truth)
    assert search.cv_results_["mean_test_mask_average_precision"][0] == pytest.approx(1)
    assert search.cv_results_["mean_test_mask_iou"][0] == pytest.approx(1)
