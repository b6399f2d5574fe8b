import numpy as np
import pytest

from sklearn_xai.utils import dense_rank, magnitude_order, resolve_k, top_k_mask


def _top_k_by_sort(A, k, order_by):
    order = magnitude_order(A, order_by=order_by)
    mask = np.zeros(A.shape, dtype=bool)
    np.put_along_axis(mask, order[:, :k], True, axis=1)
    return mask


@pytest.mark.parametrize("order_by", ["abs", "signed"])
def test_top_k_mask_is_the_sorted_prefix_ties_by_lower_index(order_by):
    rng = np.random.default_rng(0)
    continuous = rng.normal(size=(50, 9))
    # Small integers: many ties, including at the k-th largest value.
    tied = rng.integers(-2, 3, size=(200, 7)).astype(float)
    for A in (continuous, tied, np.zeros((3, 4))):
        for k in range(A.shape[1] + 1):
            np.testing.assert_array_equal(
                top_k_mask(A, k, order_by=order_by), _top_k_by_sort(A, k, order_by))


def test_top_k_mask_hand_case():
    A = np.array([[0.5, -2.0, 0.5, 0.0], [1.0, 1.0, 1.0, 1.0]])
    assert top_k_mask(A, 2).tolist() == [[True, True, False, False],
                                         [True, True, False, False]]
    assert top_k_mask(A, 1, order_by="signed").tolist() == [
        [True, False, False, False], [True, False, False, False]]
    with pytest.raises(ValueError, match="order_by"):
        top_k_mask(A, 1, order_by="rank")


def test_magnitude_order_and_dense_rank():
    A = np.array([[0.5, -2.0, 0.5, 0.0]])
    assert magnitude_order(A).tolist() == [[1, 0, 2, 3]]
    assert magnitude_order(A, order_by="signed").tolist() == [[0, 2, 3, 1]]
    assert dense_rank(A).tolist() == [[2, 1, 2, 3]]


def test_resolve_k():
    assert resolve_k(0.3, 9, rounding="floor") == 2
    assert resolve_k(0.01, 9, rounding="floor") == 1
    assert resolve_k(0.3, 9) == 3
    for bad in (0, 10, 1.5, -2, True, "3"):
        with pytest.raises(ValueError, match="k must be"):
            resolve_k(bad, 9)
