"""One resolution of the image shape of flattened rows, for explainers and
metrics alike."""

import pytest

from sklearn_xai.utils._images import resolve_image_shape


def test_none_is_a_square_image():
    assert resolve_image_shape(None, 49) == (7, 7)
    with pytest.raises(ValueError, match=r"not a square number.*image_shape"):
        resolve_image_shape(None, 12)


def test_a_given_shape_must_cover_the_columns():
    assert resolve_image_shape([3, 4], 12) == (3, 4)
    assert resolve_image_shape((2, 3, 2), 12) == (2, 3, 2)  # any ndim by default
    with pytest.raises(ValueError, match=r"image_shape must be .*product is 12"):
        resolve_image_shape((3, 3), 12)
    with pytest.raises(ValueError, match=r"\(height, width\)"):
        resolve_image_shape((2, 3, 2), 12, ndim=2)
    with pytest.raises(ValueError, match="image_shape must be"):
        resolve_image_shape((0, 12), 0)


def test_explainers_and_metrics_share_it():
    import sklearn_xai.explainers._image as image
    import sklearn_xai.metrics._localisation as localisation
    import sklearn_xai.metrics._removal_paths as removal_paths
    import sklearn_xai.metrics._sensitivity as sensitivity

    for module in (image, localisation, removal_paths, sensitivity):
        assert module.resolve_image_shape is resolve_image_shape
        assert not hasattr(module, "_resolve_image_shape")
