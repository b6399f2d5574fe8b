"""Model-ignorant image controls of XAI-TRIS: edge filters and the input.

XAI-TRIS calls them "baselines"; here they are :class:`SobelFilter`,
:class:`LaplaceFilter` and :class:`InputAttribution`, since "baseline" names
the reference input of gradient and removal methods.
"""

import numpy as np
from scipy import ndimage

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.utils._images import resolve_image_shape

__all__ = ["InputAttribution", "LaplaceFilter", "SobelFilter"]

# The docstring blocks of the image controls: the attributes they all have
# (after their own) and the References section.
_image_control_doc = explainer_doc(
    references=("clark2024",),
    image_control_attributes="""
        estimator_ : estimator or None
        n_features_in_ : int""")


class _ImageControl(BaseExplainer):
    """Shared scaffolding: rows are flattened images (row-major), and the
    attributions depend on the image alone, never on the model."""

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "image_shape": ["array-like", None],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.requires_estimator = False
        tags.explainer_tags.model_agnostic = False  # it explains no model
        return tags

    def _fit_explainer(self, X, y):
        shape = self.image_shape
        if shape is not None:
            shape = np.asarray(shape)
            if shape.ndim != 1 or len(shape) < 1 or not np.issubdtype(
                shape.dtype, np.integer
            ) or np.any(shape < 1):
                raise ValueError(
                    "image_shape must be a tuple of positive ints such as (8, 8); "
                    f"got {self.image_shape!r}."
                )
        self.image_shape_ = resolve_image_shape(self.image_shape, X.shape[1])

    def _explain(self, X, f, target_index, rngs):
        images = X.reshape((X.shape[0],) + self.image_shape_)
        return self._filter(images).reshape(X.shape)


@_image_control_doc
class SobelFilter(_ImageControl):
    """Sobel filter of the image (XAI-TRIS's model-ignorant edge control).

    By default the result is ``scipy.ndimage.sobel(image)`` along the **last
    axis only** (the horizontal derivative, smoothed along the other image
    axes, reflect mode), as XAI-TRIS's code computes it (see
    :ref:`def-switches-xaitris` in the user guide); with
    ``magnitude=True`` it is the gradient magnitude
    ``hypot(sobel(image, axis=-1), sobel(image, axis=-2), ...)`` over all image
    axes.  Each row is one flattened (row-major) image; all rows are filtered
    in one vectorised call.

    Parameters
    ----------
    estimator : estimator or None, default=None
        Ignored for the attributions; fitted when given (so the explainer can
        stand in for any other inside an ``ExplainedModel``).
    image_shape : tuple of int or None, default=None
        Shape of one image; ``None`` infers a square ``L x L`` image.
    magnitude : bool, default=False
        Return the gradient magnitude instead of the horizontal derivative.

    Attributes
    ----------
    image_shape_ : tuple of int
        The resolved image shape.
    {image_control_attributes}

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.explainers import SobelFilter
    >>> X = np.array([[0.0, 0.0, 1.0, 1.0] * 4])  # vertical edge, 4 x 4
    >>> SobelFilter().fit(X).transform(X).reshape(4, 4)
    array([[0., 4., 4., 0.],
           [0., 4., 4., 0.],
           [0., 4., 4., 0.],
           [0., 4., 4., 0.]])
    """

    _parameter_constraints = {
        **_ImageControl._parameter_constraints,
        "magnitude": ["boolean"],
    }

    def __init__(self, estimator=None, *, image_shape=None, magnitude=False):
        self.estimator = estimator
        self.image_shape = image_shape
        self.magnitude = magnitude

    @staticmethod
    def _sobel(images, axis):
        """``scipy.ndimage.sobel`` of every image along image axis ``axis``
        (derivative along it, [1, 2, 1] smoothing along the other image axes,
        never across rows)."""
        out = ndimage.correlate1d(images, [-1.0, 0.0, 1.0], axis=axis, mode="reflect")
        for other in range(1, images.ndim):
            if other != axis:
                out = ndimage.correlate1d(out, [1.0, 2.0, 1.0], axis=other,
                                          mode="reflect")
        return out

    def _filter(self, images):
        last = images.ndim - 1
        if not self.magnitude:
            return self._sobel(images, last)
        squares = sum(self._sobel(images, axis) ** 2 for axis in range(1, images.ndim))
        return np.sqrt(squares)


@_image_control_doc
class LaplaceFilter(_ImageControl):
    """Laplace filter of the image (``scipy.ndimage.laplace``, reflect mode;
    XAI-TRIS), all rows filtered in one vectorised call.

    Parameters
    ----------
    estimator : estimator or None, default=None
        Ignored for the attributions; fitted when given.
    image_shape : tuple of int or None, default=None
        Shape of one image; ``None`` infers a square ``L x L`` image.

    Attributes
    ----------
    image_shape_ : tuple of int
    {image_control_attributes}

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.explainers import LaplaceFilter
    >>> X = np.zeros((1, 9))
    >>> X[0, 4] = 1.0  # a single bright pixel in a 3 x 3 image
    >>> LaplaceFilter().fit(X).transform(X).reshape(3, 3)
    array([[ 0.,  1.,  0.],
           [ 1., -4.,  1.],
           [ 0.,  1.,  0.]])
    """

    def __init__(self, estimator=None, *, image_shape=None):
        self.estimator = estimator
        self.image_shape = image_shape

    def _filter(self, images):
        return ndimage.laplace(images, mode="reflect",
                               axes=tuple(range(1, images.ndim)))


@_image_control_doc
class InputAttribution(_ImageControl):
    """The input itself, normalised to sum to one: ``a = x / sum_j x_j``
    (XAI-TRIS).

    A row whose values sum to zero gets all-zero attributions.

    Parameters
    ----------
    estimator : estimator or None, default=None
        Ignored for the attributions; fitted when given.
    image_shape : tuple of int or None, default=None
        Shape of one image (only validated: the attribution does not depend
        on it); ``None`` accepts any number of features.

    Attributes
    ----------
    {image_control_attributes}

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.explainers import InputAttribution
    >>> InputAttribution().fit([[1.0, 3.0]]).transform([[1.0, 3.0]])
    array([[0.25, 0.75]])
    """

    def __init__(self, estimator=None, *, image_shape=None):
        self.estimator = estimator
        self.image_shape = image_shape

    def _fit_explainer(self, X, y):
        if self.image_shape is None:
            self.image_shape_ = (X.shape[1],)
        else:
            super()._fit_explainer(X, y)

    def _filter(self, images):
        flat = images.reshape(images.shape[0], -1)
        total = flat.sum(axis=1, keepdims=True)
        safe = np.where(total == 0.0, 1.0, total)
        return np.where(total == 0.0, 0.0, flat / safe)
