"""Tests of the model-ignorant image controls (XAI-TRIS)."""

import numpy as np
import pytest
from scipy import ndimage
from sklearn.linear_model import LinearRegression

from sklearn_xai.explainers._image import InputAttribution, LaplaceFilter, SobelFilter


@pytest.fixture(scope="module")
def images():
    return np.random.default_rng(0).normal(size=(5, 6, 6))


def test_sobel_equals_scipy_image_by_image(images):
    X = images.reshape(5, -1)
    A = SobelFilter().fit(X).transform(X)
    for i, img in enumerate(images):
        np.testing.assert_allclose(A[i], ndimage.sobel(img, axis=-1).ravel(), atol=1e-12)


def test_sobel_magnitude_equals_hypot_of_scipy(images):
    X = images.reshape(5, -1)
    A = SobelFilter(magnitude=True).fit(X).transform(X)
    for i, img in enumerate(images):
        ref = np.hypot(ndimage.sobel(img, axis=0), ndimage.sobel(img, axis=1))
        np.testing.assert_allclose(A[i], ref.ravel(), atol=1e-12)


def test_laplace_equals_scipy_image_by_image(images):
    X = images.reshape(5, -1)
    A = LaplaceFilter().fit(X).transform(X)
    for i, img in enumerate(images):
        np.testing.assert_allclose(A[i], ndimage.laplace(img).ravel(), atol=1e-12)


def test_rectangular_images():
    imgs = np.random.default_rng(1).normal(size=(3, 4, 7))
    X = imgs.reshape(3, -1)
    A = SobelFilter(image_shape=(4, 7)).fit(X).transform(X)
    L = LaplaceFilter(image_shape=(4, 7)).fit(X).transform(X)
    for i, img in enumerate(imgs):
        np.testing.assert_allclose(A[i], ndimage.sobel(img, axis=-1).ravel(), atol=1e-12)
        np.testing.assert_allclose(L[i], ndimage.laplace(img).ravel(), atol=1e-12)


def test_input_attribution():
    X = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0], [-1.0, 3.0, 0.0, 0.0]])
    A = InputAttribution().fit(X).transform(X)
    np.testing.assert_allclose(A, [[0.1, 0.2, 0.3, 0.4], [0, 0, 0, 0], [-0.5, 1.5, 0, 0]])


def test_image_controls_ignore_the_model(images):
    X = images.reshape(5, -1)
    y = X[:, 0]
    with_model = SobelFilter(LinearRegression()).fit(X, y).transform(X)
    np.testing.assert_array_equal(with_model, SobelFilter().fit(X).transform(X))
    np.testing.assert_array_equal(
        LaplaceFilter().fit(X).transform(X[::-1]), LaplaceFilter().fit(X).transform(X)[::-1]
    )


def test_image_shape_errors():
    X = np.zeros((2, 10))
    with pytest.raises(ValueError, match="square"):
        SobelFilter().fit(X)
    with pytest.raises(ValueError, match="image_shape"):
        LaplaceFilter(image_shape=(3, 3)).fit(X)
    with pytest.raises(ValueError, match="image_shape"):
        SobelFilter(image_shape=(2.5, 4)).fit(X)
    with pytest.raises(ValueError, match="image_shape"):
        InputAttribution(image_shape=(3, 4)).fit(X)
    ex = SobelFilter().fit(np.zeros((2, 9)))
    with pytest.raises(ValueError, match="features"):
        ex.transform(np.zeros((2, 16)))
