"""Time series: windows as feature groups, and the linear-interpolation masker.

A batch of series is a 2-D array ``(n_series, n_channels * n_timesteps)`` in
channel-major order (column ``c * T + t``), its shape carried as
``series_shape=(n_channels, n_timesteps)`` (see
:func:`sklearn_xai.utils._images.resolve_series_shape`).

* :func:`window_groups` cuts the time axis into consecutive windows: the
  ``groups`` of the masker-based explainers, so that
  :class:`~sklearn_xai.explainers.FeatureAblation` with them is window
  occlusion and :class:`~sklearn_xai.explainers.KernelSHAP` segment
  KernelSHAP.
* :class:`InterpolationMasker` replaces removed time steps by the straight
  line between the nearest kept time steps of the same channel, a removal
  that keeps the series' level and trend (zero and mean baselines are
  :class:`~sklearn_xai.masking.BaselineMasker`).
"""

import numbers

import numpy as np

from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._images import resolve_series_shape
from sklearn_xai.utils._sklearn import Interval

__all__ = ["InterpolationMasker", "window_groups"]


def window_groups(series_shape, window, *, per_channel=True):
    """Consecutive time windows of a flattened series, as feature groups.

    Parameters
    ----------
    series_shape : tuple (n_channels, n_timesteps)
        Shape of one series; its columns are channel-major (column
        ``c * n_timesteps + t``).
    window : int
        Length of a window in time steps; the last window of a channel is
        shorter when ``window`` does not divide ``n_timesteps``.
    per_channel : bool, default=True
        One group per channel and window (``"c0:t0-9"``); ``False``: one
        group per window holding every channel's time steps in it
        (``"t0-9"``).

    Returns
    -------
    groups : dict
        ``{name: [column positions]}``, a partition of the
        ``n_channels * n_timesteps`` columns in column order, for the
        ``groups`` parameter of the masker-based explainers (see
        :ref:`feature-groups`).

    Examples
    --------
    >>> from sklearn_xai.masking import window_groups
    >>> window_groups((1, 5), 2)
    {'c0:t0-1': [0, 1], 'c0:t2-3': [2, 3], 'c0:t4-4': [4]}
    >>> window_groups((2, 4), 2, per_channel=False)
    {'t0-1': [0, 1, 4, 5], 't2-3': [2, 3, 6, 7]}
    """
    if len(tuple(series_shape)) != 2:
        raise ValueError(
            f"series_shape must be (n_channels, n_timesteps); got {series_shape!r}."
        )
    C, T = (int(s) for s in series_shape)
    if isinstance(window, bool) or not isinstance(window, numbers.Integral) \
            or not 1 <= window <= T or min(C, T) < 1:
        raise ValueError(
            f"window must be an int in [1, n_timesteps={T}]; got {window!r}."
        )
    starts = range(0, T, int(window))
    groups = {}
    if per_channel:
        for c in range(C):
            for s in starts:
                e = min(s + window, T)
                groups[f"c{c}:t{s}-{e - 1}"] = list(range(c * T + s, c * T + e))
    else:
        for s in starts:
            e = min(s + window, T)
            groups[f"t{s}-{e - 1}"] = [c * T + t for c in range(C) for t in range(s, e)]
    return groups


@Substitution("n_features_in")
class InterpolationMasker(BaseMasker):
    """Replace removed time steps by linear interpolation between kept ones.

    Per channel of each series (channel-major columns, see
    :func:`~sklearn_xai.utils._images.resolve_series_shape`), a removed time
    step ``t`` takes ``x_l + (x_r - x_l) (t - l) / (r - l)`` where ``l < t <
    r`` are the nearest kept time steps before and after it; before the
    first kept step the first kept value is repeated, after the last the
    last one (``numpy.interp``'s rule).  A channel with no kept time step
    takes ``fill_value``.  Deterministic (one draw); it learns nothing from
    rows.

    Parameters
    ----------
    series_shape : tuple (n_channels, n_timesteps) or None, default=None
        Shape of one series; ``None``: one channel.
    fill_value : float, default=0.0
        Value of every time step of a channel whose time steps are all
        removed.

    Attributes
    ----------
    series_shape_ : tuple of int
        ``(n_channels, n_timesteps)``.
    {n_features_in}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import InterpolationMasker
    >>> m = InterpolationMasker().fit(np.zeros((1, 5)))
    >>> x = np.array([[0.0, 9.0, 9.0, 6.0, 9.0]])
    >>> m.impute(x, [[True, False, False, True, False]])[0, 0, 0].tolist()
    [0.0, 2.0, 4.0, 6.0, 6.0]
    """

    _parameter_constraints = {
        "series_shape": ["array-like", None],
        "fill_value": [Interval(numbers.Real, None, None, closed="neither")],
    }

    def __init__(self, series_shape=None, *, fill_value=0.0):
        self.series_shape = series_shape
        self.fill_value = fill_value

    def _fit(self, X):
        self._fit_data_free(X.shape[1])

    def _learns_from_rows(self):
        return None

    def _fit_data_free(self, n_features):
        self.series_shape_ = resolve_series_shape(self.series_shape, n_features)

    @property
    def n_draws(self):
        return 1

    def _impute(self, X, keep, rngs):
        n, m, d = keep.shape
        C, T = self.series_shape_
        K = keep.reshape(n, m, C, T)
        V = np.broadcast_to(X.reshape(n, 1, C, T), K.shape)
        t = np.arange(T)
        # nearest kept step at or before t (-1: none) and at or after t (T: none)
        left = np.maximum.accumulate(np.where(K, t, -1), axis=-1)
        right = np.minimum.accumulate(np.where(K, t, T)[..., ::-1], axis=-1)[..., ::-1]
        has_left, has_right = left >= 0, right < T
        x_left = np.take_along_axis(V, np.maximum(left, 0), axis=-1)
        x_right = np.take_along_axis(V, np.minimum(right, T - 1), axis=-1)
        both = has_left & has_right & (right > left)
        frac = np.where(both, (t - left) / np.where(both, right - left, 1), 0.0)
        Z = np.where(has_left, x_left, x_right) + frac * (x_right - x_left)
        Z = np.where(has_left | has_right, Z, float(self.fill_value))
        Z = np.where(K, V, Z)
        return Z.reshape(n, m, 1, d)
