"""Images stored as flattened rows (row-major), and time series stored
channel-major, as the explainers and the
metrics of attribution maps read them."""

import numpy as np

__all__ = ["resolve_image_shape", "resolve_series_shape"]


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


def resolve_series_shape(series_shape, n_columns):
    """The ``(n_channels, n_timesteps)`` shape of one series whose flattened
    row has ``n_columns`` values.

    A batch of series is a 2-D array ``(n_series, n_channels * n_timesteps)``
    in channel-major order: column ``c * n_timesteps + t`` holds channel
    ``c`` at time step ``t`` (a C-order reshape to ``(n_channels,
    n_timesteps)`` gives one series), the way images are flattened row-major
    and read through :func:`resolve_image_shape`.

    Parameters
    ----------
    series_shape : array-like of two ints or None
        ``(n_channels, n_timesteps)``; ``None`` means one channel,
        ``(1, n_columns)``.
    n_columns : int
        Length of one flattened series (the number of columns).

    Returns
    -------
    shape : tuple of two ints
        ``(n_channels, n_timesteps)`` whose product is ``n_columns``.

    Raises
    ------
    ValueError
        If ``series_shape`` does not have two positive sides whose product
        is ``n_columns``.

    Examples
    --------
    >>> from sklearn_xai.utils._images import resolve_series_shape
    >>> resolve_series_shape(None, 50)
    (1, 50)
    >>> resolve_series_shape((2, 25), 50)
    (2, 25)
    """
    if series_shape is None:
        return (1, int(n_columns))
    try:
        return resolve_image_shape(series_shape, n_columns, ndim=2)
    except (ValueError, TypeError):
        raise ValueError(
            f"series_shape must be (n_channels, n_timesteps) whose product is "
            f"{n_columns} (the number of columns, channel-major); got "
            f"{series_shape!r}."
        ) from None
