"""Images stored as flattened rows (row-major), as the explainers and the
metrics of attribution maps read them."""

import numpy as np

__all__ = ["resolve_image_shape"]


def resolve_image_shape(image_shape, n_pixels, *, ndim=None):
    """The shape of one image whose flattened row has ``n_pixels`` values.

    Parameters
    ----------
    image_shape : array-like of int or None
        The shape given by the caller; ``None`` means a square image
        ``(L, L)`` with ``L * L == n_pixels``.
    n_pixels : int
        Length of one flattened image (the number of columns).
    ndim : int or None, default=None
        Number of dimensions ``image_shape`` must have (2 for
        ``(height, width)``); ``None`` accepts any.

    Returns
    -------
    shape : tuple of int
        A shape whose product is ``n_pixels``.

    Raises
    ------
    ValueError
        If ``image_shape`` is ``None`` and ``n_pixels`` is not a square
        number, or if ``image_shape`` does not have ``ndim`` positive sides
        whose product is ``n_pixels``.

    Examples
    --------
    >>> from sklearn_xai.utils._images import resolve_image_shape
    >>> resolve_image_shape(None, 16)
    (4, 4)
    >>> resolve_image_shape((2, 8), 16, ndim=2)
    (2, 8)
    """
    if image_shape is None:
        side = int(round(np.sqrt(n_pixels)))
        if side * side != n_pixels:
            raise ValueError(
                f"Cannot infer a square image from {n_pixels} pixels per row, "
                "which is not a square number; pass image_shape=(height, width) "
                f"with height * width == {n_pixels}."
            )
        return (side, side)
    shape = tuple(int(s) for s in image_shape)
    if (ndim is not None and len(shape) != ndim) or min(shape, default=0) < 1 \
            or int(np.prod(shape)) != n_pixels:
        form = "(height, width)" if ndim == 2 else "a tuple of positive ints"
        raise ValueError(
            f"image_shape must be {form} whose product is {n_pixels} (the "
            f"number of columns); got {image_shape!r}."
        )
    return shape
