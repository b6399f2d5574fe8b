"""Time series with known ground truth, and a loader of UCR/UEA archive files.

A batch of series is a 2-D float array ``(n_series, n_channels * n_timesteps)``
in channel-major order: column ``c * T + t`` holds channel ``c`` at time
step ``t``; the Bunch carries ``series_shape=(n_channels, n_timesteps)`` the
way the image generators carry ``image_shape``.

:func:`make_timeseries_classification` plants a shape (a bump, a level
shift, a frequency burst) in a window of some channels on a background of
noise, trend and seasonality; its sign is the class, so the ground truth is
the window (a per-time-step mask; the planted signal is returned too).
:func:`load_ucr_uea` reads a problem of the UCR/UEA archives from the
user's ``.ts`` (sktime) or ``.arff`` (Weka) files.
"""

import numbers
import os
import re

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.datasets._common import _finish
from sklearn_xai.masking import window_groups
from sklearn_xai.utils._random import seed_entropy
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params

__all__ = ["load_ucr_uea", "make_timeseries_classification"]

_SHAPES = ("bump", "level_shift", "frequency_burst")
_BACKGROUNDS = ("noise", "trend", "seasonal", "trend_seasonal", "random_walk")


def _shape(kind, window):
    """The planted shape on ``window`` time steps, peak magnitude 1, never
    zero at a time step of the window (so the window is its support)."""
    u = (np.arange(window) + 0.5) / window  # centres of the time steps in (0, 1)
    if kind == "bump":
        return np.exp(-0.5 * ((u - 0.5) / 0.25) ** 2)
    if kind == "level_shift":
        return np.ones(window)
    # frequency burst: a period-4 oscillation (+, -, -, +, ...) under a
    # half-sine envelope; cos(pi (2 t + 1) / 4) is +-1/sqrt(2), never 0.
    t = np.arange(window)
    return np.sqrt(2.0) * np.cos(np.pi * (2 * t + 1) / 4) * np.sin(np.pi * u)


def _background(kind, n, C, T, rng, *, noise, trend_scale, season_amplitude,
                season_period):
    """Background series (n, C, T): white noise plus the named structure."""
    B = noise * rng.standard_normal((n, C, T))
    t = np.arange(T)
    if kind == "random_walk":
        return np.cumsum(B, axis=2) / np.sqrt(T)
    if kind in ("trend", "trend_seasonal"):
        slope = trend_scale * rng.standard_normal((n, C, 1))
        B += slope * (t - (T - 1) / 2) / T
    if kind in ("seasonal", "trend_seasonal"):
        phase = rng.uniform(0, 2 * np.pi, size=(n, C, 1))
        B += season_amplitude * np.sin(2 * np.pi * t / season_period + phase)
    return B


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_timesteps": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_channels": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_informative_channels": [Interval(numbers.Integral, 1, None, closed="left")],
        "shape": [StrOptions(set(_SHAPES))],
        "window": [Interval(numbers.Integral, 1, None, closed="left")],
        "window_start": [Interval(numbers.Integral, 0, None, closed="left"),
                         StrOptions({"random"}), None],
        "amplitude": [Interval(numbers.Real, 0, None, closed="neither")],
        "background": [StrOptions(set(_BACKGROUNDS))],
        "noise": [Interval(numbers.Real, 0, None, closed="neither")],
        "trend_scale": [Interval(numbers.Real, 0, None, closed="left")],
        "season_amplitude": [Interval(numbers.Real, 0, None, closed="left")],
        "season_period": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "group_window": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
        "as_frame": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def make_timeseries_classification(
        n_samples=1000, *, n_timesteps=100, n_channels=1, n_informative_channels=1,
        shape="bump", window=10, window_start=None, amplitude=1.0,
        background="noise", noise=1.0, trend_scale=1.0, season_amplitude=1.0,
        season_period=None, group_window=None, shuffle=True, random_state=None,
        return_X_y=False, as_frame=False):
    """Two-class time series whose class is the sign of a planted shape.

    Each series is ``x = b + (2 y - 1) * amplitude * s``: a background
    ``b`` (independent of the class) plus, on the time steps
    ``[start, start + window)`` of the first ``n_informative_channels``
    channels, the shape ``s`` with the sign of the class ``y`` (class 1: +,
    class 0: -).  The rule is additive: with the ``"noise"`` background and a
    fixed window the class log-odds are exactly ``2 * amplitude * <s, x> /
    noise**2`` (equal priors), so a linear model on the window is optimal.

    Shapes (peak magnitude 1, never zero inside the window, so the window is
    the shape's support): ``"bump"`` a Gaussian of standard deviation a
    quarter of the window, centred; ``"level_shift"`` a constant offset over
    the window; ``"frequency_burst"`` an oscillation of period 4 time steps
    (``sqrt(2) cos(pi (2 t + 1) / 4)``: +1, -1, -1, +1, ...) under a
    half-sine envelope.

    Backgrounds: i.i.d. normal noise of standard deviation ``noise``, plus
    for ``"trend"`` a linear trend of random slope (``trend_scale *
    N(0, 1)`` over the series), for ``"seasonal"`` a sinusoid of amplitude
    ``season_amplitude``, period ``season_period`` and random phase,
    ``"trend_seasonal"`` both, and ``"random_walk"`` the cumulative sum of
    the noise divided by ``sqrt(n_timesteps)``; each channel draws its own.

    Parameters
    ----------
    n_samples : int, default=1000
        Number of series (half per class, then shuffled).
    n_timesteps : int, default=100
        Length ``T`` of a series.
    n_channels : int, default=1
        Number of channels ``C`` (1: univariate).
    n_informative_channels : int, default=1
        The first channels that carry the shape (at most ``n_channels``).
    shape : {"bump", "level_shift", "frequency_burst"}, default="bump"
    window : int, default=10
        Length of the planted shape, in time steps.
    window_start : int, "random" or None, default=None
        First time step of the window: an int for every series, ``None`` for
        the centred window ``(T - window) // 2``, ``"random"`` for a
        position drawn uniformly per series (the mask then moves with it).
    amplitude : float, default=1.0
        Peak magnitude of the planted shape.
    background : {"noise", "trend", "seasonal", "trend_seasonal", "random_walk"}, default="noise"
    noise : float, default=1.0
        Standard deviation of the white noise.
    trend_scale : float, default=1.0
        Standard deviation of the trend's rise over the series.
    season_amplitude : float, default=1.0
    season_period : float, default=None
        Period of the seasonal background in time steps (default ``T / 4``).
    group_window : int, default=None
        Window length of the Bunch's ``window_groups`` (default
        ``window``).
    shuffle : bool, default=True
        Shuffle the rows (with their ground truth).
    random_state : int, RandomState instance or None, default=None
    return_X_y : bool, default=False
        Return ``(X, y)``.
    as_frame : bool, default=False
        Return pandas objects (one column per channel and time step).

    Returns
    -------
    data : Bunch
        ``data`` (n_samples, C * T) channel-major; ``target`` (0 or 1);
        ``ground_truth_mask`` (n_samples, C * T) boolean, the window of
        each row on the informative channels; ``ground_truth`` is None (the
        reference is the mask, as for the image generators); ``signal`` the
        planted signal ``(2 y - 1) * amplitude * s`` (zero off the window),
        so that ``data - signal`` is the background;
        ``window_start`` (n_samples,); ``series_shape`` ``(C, T)``;
        ``window_groups`` the windows of ``group_window`` steps as feature
        groups (:func:`~sklearn_xai.masking.window_groups`) and
        ``window_ids`` the same windows as one id per column (a tuple, the
        ``groups`` of :func:`~sklearn_xai.metrics.region_perturbation`);
        ``distribution`` and ``label_function`` are None; ``feature_names``
        (``"c0_t0"``, ...), ``feature_info``, ``DESCR``, ``parameters``.
    (X, y) : tuple if ``return_X_y`` is True.

    Examples
    --------
    >>> from sklearn_xai.datasets import make_timeseries_classification
    >>> data = make_timeseries_classification(100, n_timesteps=50, n_channels=2,
    ...                                       window=5, random_state=0)
    >>> data.data.shape, data.series_shape, int(data.ground_truth_mask[0].sum())
    ((100, 100), (2, 50), 5)
    >>> data.ground_truth_mask[0].reshape(2, 50)[0].nonzero()[0].tolist()
    [22, 23, 24, 25, 26]
    """
    n, C, T, w = int(n_samples), int(n_channels), int(n_timesteps), int(window)
    if n_informative_channels > C:
        raise ValueError(
            f"n_informative_channels={n_informative_channels} exceeds n_channels={C}; "
            "give at most n_channels informative channels."
        )
    if w > T:
        raise ValueError(f"window={w} is longer than the series (n_timesteps={T}).")
    if isinstance(window_start, numbers.Integral) and window_start + w > T:
        raise ValueError(
            f"window_start={window_start} puts the window past the end of the series: "
            f"window_start + window must be at most n_timesteps={T}."
        )
    period = T / 4 if season_period is None else float(season_period)
    bg_seq, signal_seq, rest_seq = np.random.SeedSequence(
        seed_entropy(random_state)).spawn(3)
    bg_rng, signal_rng, rng = (np.random.default_rng(s) for s in
                               (bg_seq, signal_seq, rest_seq))
    B = _background(background, n, C, T, bg_rng, noise=float(noise),
                    trend_scale=float(trend_scale),
                    season_amplitude=float(season_amplitude), season_period=period)
    labels = (np.arange(n) * 2 // n).astype(np.int64)
    if window_start == "random":
        starts = signal_rng.integers(0, T - w + 1, size=n)
    else:
        starts = np.full(n, (T - w) // 2 if window_start is None else int(window_start))
    steps = starts[:, None] + np.arange(w)  # (n, w)
    S = np.zeros((n, C, T))
    sign = (2.0 * labels - 1.0) * float(amplitude)
    S[np.arange(n)[:, None, None], np.arange(n_informative_channels)[None, :, None],
      steps[:, None, :]] = sign[:, None, None] * _shape(shape, w)
    M = np.zeros((n, C, T), dtype=bool)
    M[np.arange(n)[:, None, None], np.arange(n_informative_channels)[None, :, None],
      steps[:, None, :]] = True
    X = (B + S).reshape(n, C * T)
    names = [f"c{c}_t{t}" for c in range(C) for t in range(T)]
    groups = window_groups((C, T), int(group_window or w))
    window_ids = np.empty(C * T, dtype=np.intp)
    for g, cols in enumerate(groups.values()):
        window_ids[cols] = g
    parameters = dict(
        n_samples=n, n_timesteps=T, n_channels=C,
        n_informative_channels=int(n_informative_channels), shape=shape, window=w,
        window_start=window_start, amplitude=float(amplitude), background=background,
        noise=float(noise), trend_scale=float(trend_scale),
        season_amplitude=float(season_amplitude), season_period=period,
        random_state=random_state,
    )
    descr = (
        f"Synthetic time series: a {shape} of {w} steps planted with the class's sign "
        f"in channels 0-{n_informative_channels - 1} of {C}, {T} steps, on a "
        f"{background} background. Ground truth: the window (mask) and the planted "
        "signal."
    )
    result, _ = _finish(
        X=X, y=labels, ground_truth=None,
        ground_truth_mask=M.reshape(n, C * T), distribution=None, label_function=None,
        feature_names=names, descr=descr, parameters=parameters, rng=rng,
        shuffle=shuffle, return_X_y=return_X_y, as_frame=as_frame,
        per_row=("signal", "window_start"), signal=S.reshape(n, C * T),
        window_start=starts, series_shape=(C, T),
        window_groups=groups, window_ids=tuple(window_ids.tolist()),
    )
    return result


# ---------------------------------------------------------------------------
# UCR / UEA archive files
# ---------------------------------------------------------------------------
def _as_value(token, path):
    token = token.strip()
    if token in ("?", "NaN", "nan", ""):
        return np.nan
    try:
        return float(token)
    except ValueError:
        raise ValueError(
            f"{path}: cannot read {token!r} as a number; load_ucr_uea reads numeric "
            "series (time stamps, '(t, v)' pairs, are not supported)."
        ) from None


def _read_ts(path):
    """Series (list of (C, length) lists), labels and header of a .ts file."""
    header, series, labels = {}, [], []
    in_data = False
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not in_data:
                if not line.startswith("@"):
                    raise ValueError(f"{path}: expected a '@' header line before @data; "
                                     f"got {line[:40]!r}.")
                key, _, value = line[1:].partition(" ")
                key = key.lower()
                if key == "data":
                    in_data = True
                    continue
                header[key] = value.strip()
                continue
            if header.get("timestamps", "false").lower() == "true":
                raise ValueError(f"{path}: @timeStamps true is not supported; export the "
                                 "series without time stamps.")
            parts = line.split(":")
            has_label = header.get("classlabel", "false").split(" ")[0].lower() == "true" \
                or "targetlabel" in header
            dims = parts[:-1] if has_label else parts
            if has_label:
                labels.append(parts[-1].strip())
            series.append([[_as_value(v, path) for v in d.split(",")] for d in dims])
    if not in_data:
        raise ValueError(f"{path}: no @data line; is this a .ts file of the UCR/UEA "
                         "archives?")
    return series, labels, header


def _read_arff(path):
    """Series, labels and header of a Weka .arff file (univariate numeric
    attributes, or UEA's multivariate relational attribute)."""
    header, series, labels = {}, [], []
    relational = in_data = False
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            low = line.lower()
            if not in_data:
                if low.startswith("@relation"):
                    header["problemname"] = line.split(None, 1)[1].strip().strip("'\"")
                elif low.startswith("@attribute") and "relational" in low.split():
                    relational = True
                elif low.startswith("@data"):
                    in_data = True
                continue
            if relational:
                match = re.match(r"^\s*(['\"])(.*)\1\s*,\s*(.*)$", line)
                if match is None:
                    raise ValueError(f"{path}: cannot read the relational row "
                                     f"{line[:40]!r}.")
                dims = match.group(2).replace("\\n", "\n").split("\n")
                series.append([[_as_value(v, path) for v in d.split(",")] for d in dims])
                labels.append(match.group(3).strip().strip("'\""))
            else:
                values = line.split(",")
                series.append([[_as_value(v, path) for v in values[:-1]]])
                labels.append(values[-1].strip().strip("'\""))
    if not in_data:
        raise ValueError(f"{path}: no @data line; is this an .arff file?")
    return series, labels, header


def _pad(series, path):
    """(n, C * L) channel-major array, NaN-padded to the longest channel,
    and the lengths (n, C)."""
    channels = {len(s) for s in series}
    if len(channels) != 1:
        raise ValueError(f"{path}: the series have different numbers of dimensions "
                         f"{sorted(channels)}.")
    C = channels.pop()
    lengths = np.array([[len(d) for d in s] for s in series], dtype=np.intp)
    L = int(lengths.max())
    X = np.full((len(series), C, L), np.nan)
    for i, s in enumerate(series):
        for c, d in enumerate(s):
            X[i, c, :len(d)] = d
    return X.reshape(len(series), C * L), (C, L), lengths


def load_ucr_uea(path, *, return_X_y=False):
    """Load a time-series problem of the UCR/UEA archives from a user's file.

    Reads the archives' two text formats, never anything executable:

    * ``.ts`` (sktime's format): ``@problemName``, ``@timeStamps``,
      ``@univariate``, ``@classLabel true <labels>`` ... header lines, then
      after ``@data`` one series per line, its dimensions separated by
      ``:`` and their values by ``,``, the class label last; ``?`` is a
      missing value;
    * ``.arff`` (Weka's format): one numeric attribute per time step and the
      class last (univariate), or UEA's relational attribute holding the
      dimensions as ``'v,v,...\\nv,v,...'`` (multivariate).

    Series of unequal length are padded at the end with NaN (``lengths``
    gives the true lengths); explainers and models need equal lengths, so
    resample or truncate such problems first.

    Parameters
    ----------
    path : str or path-like
        A ``.ts`` or ``.arff`` file (e.g. ``GunPoint_TRAIN.ts``).
    return_X_y : bool, default=False
        Return ``(X, y)``.

    Returns
    -------
    data : Bunch
        ``data`` (n_series, C * L) float, channel-major (column ``c * L +
        t``), NaN-padded; ``target`` the class labels (str) as in the file;
        ``series_shape`` ``(C, L)``; ``lengths`` (n_series, C);
        ``feature_names`` (``"c0_t0"``, ...); ``problem_name``;
        ``header`` (the ``.ts`` header lines, lower-case keys); ``DESCR``.
    (X, y) : tuple if ``return_X_y`` is True.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn_xai.datasets import load_ucr_uea
    >>> text = ("@problemName Tiny\\n@timeStamps false\\n@univariate false\\n"
    ...         "@classLabel true a b\\n@data\\n1,2,3:4,5,6:a\\n0,0,1:1,0,0:b\\n")
    >>> path = os.path.join(tempfile.mkdtemp(), "Tiny_TRAIN.ts")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write(text)
    >>> data = load_ucr_uea(path)
    >>> data.series_shape, data.data[0].tolist(), data.target.tolist()
    ((2, 3), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], ['a', 'b'])
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"{path!r} is not a file; download the problem from "
            "timeseriesclassification.com and pass its .ts or .arff file."
        )
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".ts":
        series, labels, header = _read_ts(path)
    elif suffix == ".arff":
        series, labels, header = _read_arff(path)
    else:
        raise ValueError(f"path must end in .ts or .arff; got {path!r}.")
    if not series:
        raise ValueError(f"{path}: the file holds no series.")
    X, (C, L), lengths = _pad(series, path)
    y = np.asarray(labels, dtype=object).astype(str) if labels else None
    if return_X_y:
        return X, y
    name = header.get("problemname", os.path.splitext(os.path.basename(path))[0])
    return Bunch(
        data=X, target=y, series_shape=(C, L), lengths=lengths,
        feature_names=[f"c{c}_t{t}" for c in range(C) for t in range(L)],
        problem_name=name, header=header, ground_truth=None, ground_truth_mask=None,
        DESCR=f"UCR/UEA problem {name}: {X.shape[0]} series, {C} channel(s), "
              f"length {L}{' (padded with NaN)' if (lengths < L).any() else ''}.",
    )
