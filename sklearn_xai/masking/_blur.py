"""The blurred-image masker: removed pixels take a Gaussian-blurred copy of
the image (RISE's insertion baseline, Petsiuk et al. 2018)."""

import numbers

import numpy as np
from scipy import ndimage

from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._sklearn import Interval

__all__ = ["BlurMasker"]


def gaussian_blur(X, image_shape, sigma, kernel_size=None):
    """Gaussian blur of flattened images over their last two axes.

    Parameters
    ----------
    X : ndarray of shape (n, n_features)
        Flattened images, row-major ``(C, H, W)`` or ``(H, W)``.
    image_shape : tuple of int
        The resolved shape of one image.
    sigma : float
        Standard deviation of the kernel in pixels.
    kernel_size : int or None
        Side of the square kernel (odd), as
        ``torchvision.transforms.GaussianBlur`` takes it; ``None`` truncates
        the kernel at four standard deviations.

    Returns
    -------
    blurred : ndarray of shape (n, n_features)
    """
    n = X.shape[0]
    images = X.reshape((n,) + tuple(image_shape))
    sigmas = (0.0,) * (images.ndim - 2) + (float(sigma),) * 2
    kw = {} if kernel_size is None else {"radius": (0,) * (images.ndim - 2)
                                         + (int(kernel_size) // 2,) * 2}
    # "mirror" (d c b | a b c d | c b a) is torch's "reflect" padding, the
    # padding of torchvision's GaussianBlur.
    blurred = ndimage.gaussian_filter(images, sigma=sigmas, mode="mirror", **kw)
    return blurred.reshape(n, -1)


@Substitution("n_features_in", blur_references=references("petsiuk2018"))
class BlurMasker(BaseMasker):
    """Replace removed pixels by a Gaussian-blurred copy of the same image.

    ``x' = x_S ⊕ (G_σ * x)_{S̄}``: each row is reshaped to its image
    (``(H, W)`` or ``(C, H, W)``, row-major), blurred over its two spatial
    axes with a Gaussian kernel of standard deviation ``sigma`` (mirror
    padding at the border, torch's ``"reflect"``; each channel on its own),
    and a removed pixel takes the blurred value.  This is RISE's insertion
    baseline [1]_ (LATEC's ImageNet configuration: ``torchvision``'s
    ``GaussianBlur(15, sigma=5)``, ``kernel_size=15, sigma=5``).  Deterministic (one draw); it learns
    nothing from rows, and a row's blurred copy depends on that row only.

    Parameters
    ----------
    image_shape : tuple of int or None, default=None
        Shape of one image, ``(height, width)`` or ``(channels, height,
        width)``; ``None``: a square single-channel image.
    sigma : float, default=5.0
        Standard deviation of the Gaussian kernel, in pixels.
    kernel_size : int or None, default=None
        Side of the square kernel (odd), as torchvision's ``GaussianBlur``
        takes it; ``None`` truncates the kernel at four standard deviations.

    Attributes
    ----------
    image_shape_ : tuple of int
        The resolved shape of one image.
    {n_features_in}

    {blur_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import BlurMasker
    >>> x = np.zeros((1, 9))
    >>> x[0, 4] = 9.0
    >>> m = BlurMasker(image_shape=(3, 3), sigma=100.0).fit(x)
    >>> Z = m.impute(x, [[False] * 4 + [True] + [False] * 4])[0, 0, 0]
    >>> Z.reshape(3, 3).round(2).tolist()  # a wide blur: the mirrored mean
    [[2.25, 2.25, 2.25], [2.25, 9.0, 2.25], [2.25, 2.25, 2.25]]
    """

    _parameter_constraints = {
        "image_shape": ["array-like", None],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "kernel_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
    }

    def __init__(self, image_shape=None, *, sigma=5.0, kernel_size=None):
        self.image_shape = image_shape
        self.sigma = sigma
        self.kernel_size = kernel_size

    def _fit(self, X):
        self._fit_data_free(X.shape[1])

    def _learns_from_rows(self):
        return None

    def _fit_data_free(self, n_features):
        if self.kernel_size is not None and self.kernel_size % 2 == 0:
            raise ValueError(
                f"kernel_size must be odd (torchvision's rule); got {self.kernel_size}."
            )
        shape = resolve_image_shape(self.image_shape, n_features)
        if len(shape) not in (2, 3):
            raise ValueError(
                "image_shape must be (height, width) or (channels, height, width); "
                f"got {shape!r}."
            )
        self.image_shape_ = shape

    @property
    def n_draws(self):
        return 1

    def _removed_values(self, X):
        return gaussian_blur(X, self.image_shape_, self.sigma, self.kernel_size)

    def _impute(self, X, keep, rngs):
        blurred = self._removed_values(X)
        return np.where(keep, X[:, None, :], blurred[:, None, :])[:, :, None, :]
