"""Neural classifiers of time series: a 1-D CNN and a GRU, as skorch estimators.

Both read a batch of series as the package stores them, a 2-D array
``(n_series, n_channels * n_timesteps)`` in channel-major order (column
``c * T + t``), and reshape it to ``(n_channels, n_timesteps)`` inside the
module, so that every explainer sees one attribution per channel and time
step and the gradient explainers differentiate through the reshape.
:class:`WindowFeatures` summarises windows for scikit-learn models.  The
estimators are the package's skorch classifiers (float64 input, any labels,
``random_state``, early stopping on a validation split; see
:mod:`sklearn_xai.models`) with a ``series_shape`` parameter.
"""


import numbers

import numpy as np
import torch
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data
from torch import nn

from sklearn_xai.models._estimators import _net_doc, _NetClassifier
from sklearn_xai.models._modules import _check_positive_int
from sklearn_xai.utils._images import resolve_series_shape
from sklearn_xai.utils._sklearn import Interval, fit_context

__all__ = ["TimeSeriesCNN", "TimeSeriesCNNClassifier", "TimeSeriesGRU",
           "TimeSeriesGRUClassifier", "WindowFeatures"]


def _series_sides(n_features, n_channels):
    _check_positive_int("n_channels", n_channels)
    if n_features % n_channels:
        raise ValueError(
            f"n_features={n_features} is not a multiple of n_channels={n_channels}: "
            "a series has n_channels * n_timesteps columns (channel-major)."
        )
    return n_channels, n_features // n_channels


class TimeSeriesCNN(nn.Module):
    """A 1-D convolutional network for channel-major flattened series.

    The input ``(batch, n_channels * T)`` is reshaped to ``(batch,
    n_channels, T)``; ``n_blocks`` blocks ``Conv1d(kernel_size, padding
    "same") → ReLU``, of ``n_filters`` filters each, are followed by a global
    average over time and a linear layer to the ``n_outputs`` logits.

    Parameters
    ----------
    n_features : int
        Columns of the input, ``n_channels * T``.
    n_outputs : int, default=2
        Number of logits (classes).
    n_channels : int, default=1
    n_filters : int, default=16
    kernel_size : int, default=5
        Odd kernel length, in time steps.
    n_blocks : int, default=2

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import TimeSeriesCNN
    >>> net = TimeSeriesCNN(40, n_channels=2)
    >>> net(torch.zeros(3, 40)).shape
    torch.Size([3, 2])
    """

    def __init__(self, n_features, n_outputs=2, n_channels=1, n_filters=16,
                 kernel_size=5, n_blocks=2):
        super().__init__()
        self.n_channels, self.n_timesteps = _series_sides(n_features, n_channels)
        for name, value in (("n_outputs", n_outputs), ("n_filters", n_filters),
                            ("kernel_size", kernel_size), ("n_blocks", n_blocks)):
            _check_positive_int(name, value)
        if kernel_size % 2 == 0:
            raise ValueError(f"kernel_size must be odd (a centred window); got "
                             f"{kernel_size}.")
        layers, c_in = [], n_channels
        for _ in range(n_blocks):
            layers += [nn.Conv1d(c_in, n_filters, kernel_size, padding=kernel_size // 2),
                       nn.ReLU()]
            c_in = n_filters
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(n_filters, n_outputs)

    def forward(self, X):
        Z = self.features(X.reshape(-1, self.n_channels, self.n_timesteps))
        return self.classifier(Z.mean(dim=2))


class TimeSeriesGRU(nn.Module):
    """A GRU classifier for channel-major flattened series.

    The input ``(batch, n_channels * T)`` is reshaped to ``(batch, T,
    n_channels)`` (one step per time step, the channels as features), run
    through a ``num_layers`` GRU of ``hidden_size`` units, and its last
    hidden state (both directions' when ``bidirectional``) goes through a
    linear layer to the ``n_outputs`` logits.

    Parameters
    ----------
    n_features : int
        Columns of the input, ``n_channels * T``.
    n_outputs : int, default=2
    n_channels : int, default=1
    hidden_size : int, default=32
    num_layers : int, default=1
    bidirectional : bool, default=False

    Notes
    -----
    cuDNN computes the backward pass of a recurrent layer only in training
    mode; the gradient explainers (which evaluate in eval mode) run it on
    the CPU.

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import TimeSeriesGRU
    >>> net = TimeSeriesGRU(40, n_channels=2, hidden_size=8)
    >>> net(torch.zeros(3, 40)).shape
    torch.Size([3, 2])
    """

    def __init__(self, n_features, n_outputs=2, n_channels=1, hidden_size=32,
                 num_layers=1, bidirectional=False):
        super().__init__()
        self.n_channels, self.n_timesteps = _series_sides(n_features, n_channels)
        for name, value in (("n_outputs", n_outputs), ("hidden_size", hidden_size),
                            ("num_layers", num_layers)):
            _check_positive_int(name, value)
        self.gru = nn.GRU(n_channels, hidden_size, num_layers=num_layers,
                          batch_first=True, bidirectional=bool(bidirectional))
        self.classifier = nn.Linear(hidden_size * (2 if bidirectional else 1),
                                    n_outputs)

    def forward(self, X):
        Z = X.reshape(-1, self.n_channels, self.n_timesteps).transpose(1, 2)
        _, h = self.gru(Z)
        if self.gru.bidirectional:
            last = torch.cat([h[-2], h[-1]], dim=1)
        else:
            last = h[-1]
        return self.classifier(last)


class _SeriesNetClassifier(_NetClassifier):
    """A net classifier whose module takes ``n_channels`` from ``series_shape``."""

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        "series_shape": ["array-like", None],
    }

    def _module_defaults(self):
        self._check_training_params()
        C, _ = resolve_series_shape(self.series_shape, self.n_features_in_)
        return {"n_channels": C}


@_net_doc("classifier_attributes", params=("1e-3", 100, 64))
class TimeSeriesCNNClassifier(_SeriesNetClassifier):
    """A 1-D CNN classifier of time series (skorch).

    A :class:`skorch.NeuralNetClassifier` of
    :class:`~sklearn_xai.models.TimeSeriesCNN` on channel-major flattened
    series (column ``c * T + t``); ``series_shape`` gives the number of
    channels to the module (``module__*`` sets its filters, kernel and
    blocks).

    Parameters
    ----------
    module : torch module class or instance, default=TimeSeriesCNN
    series_shape : tuple (n_channels, n_timesteps) or None, default=None
        Shape of one series; ``None``: one channel.
    {net_params}

    {classifier_attributes}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_timeseries_classification
    >>> from sklearn_xai.models import TimeSeriesCNNClassifier
    >>> data = make_timeseries_classification(200, n_timesteps=30, window=6,
    ...                                       random_state=0)
    >>> clf = TimeSeriesCNNClassifier(series_shape=data.series_shape, max_epochs=3,
    ...                               random_state=0).fit(data.data, data.target)
    >>> clf.predict_proba(data.data[:2]).shape
    (2, 2)
    """

    def __init__(self, module=TimeSeriesCNN, *, series_shape=None, lr=1e-3,
                 max_epochs=100, batch_size=64, **kwargs):
        self.series_shape = series_shape
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


@_net_doc("classifier_attributes", params=("1e-3", 100, 64))
class TimeSeriesGRUClassifier(_SeriesNetClassifier):
    """A GRU classifier of time series (skorch).

    A :class:`skorch.NeuralNetClassifier` of
    :class:`~sklearn_xai.models.TimeSeriesGRU` on channel-major flattened
    series (column ``c * T + t``); ``series_shape`` gives the number of
    channels to the module (``module__hidden_size`` and the others set the
    recurrent layer).

    Parameters
    ----------
    module : torch module class or instance, default=TimeSeriesGRU
    series_shape : tuple (n_channels, n_timesteps) or None, default=None
        Shape of one series; ``None``: one channel.
    {net_params}

    {classifier_attributes}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_timeseries_classification
    >>> from sklearn_xai.models import TimeSeriesGRUClassifier
    >>> data = make_timeseries_classification(200, n_timesteps=30, window=6,
    ...                                       random_state=0)
    >>> clf = TimeSeriesGRUClassifier(series_shape=data.series_shape, max_epochs=3,
    ...                               random_state=0).fit(data.data, data.target)
    >>> clf.predict(data.data[:2]).shape
    (2,)
    """

    def __init__(self, module=TimeSeriesGRU, *, series_shape=None, lr=1e-3,
                 max_epochs=100, batch_size=64, **kwargs):
        self.series_shape = series_shape
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


_STATISTICS = {"mean": np.mean, "std": np.std, "min": np.min, "max": np.max}


class WindowFeatures(TransformerMixin, BaseEstimator):
    """Summary statistics of consecutive time windows, as features for any
    scikit-learn model.

    Each channel of a channel-major series (column ``c * T + t``) is cut
    into windows of ``window`` steps (the last one shorter when ``window``
    does not divide ``T``, as :func:`~sklearn_xai.masking.window_groups`
    cuts them) and each window is summarised by ``statistics``.  In a
    :class:`~sklearn.pipeline.Pipeline` before a scikit-learn model, the
    model-agnostic explainers still explain the raw time steps (the
    pipeline's input).

    Parameters
    ----------
    window : int, default=10
        Window length in time steps.
    series_shape : tuple (n_channels, n_timesteps) or None, default=None
        Shape of one series; ``None``: one channel.
    statistics : tuple of {"mean", "std", "min", "max"}, default=("mean",)

    Attributes
    ----------
    series_shape_ : tuple of int
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import WindowFeatures
    >>> X = np.array([[0.0, 2.0, 4.0, 6.0, 8.0]])
    >>> WindowFeatures(window=2, statistics=("mean", "max")).fit_transform(X).tolist()
    [[1.0, 5.0, 8.0, 2.0, 6.0, 8.0]]
    """

    _parameter_constraints: dict = {
        "window": [Interval(numbers.Integral, 1, None, closed="left")],
        "series_shape": ["array-like", None],
        "statistics": [tuple, list],
    }

    def __init__(self, window=10, *, series_shape=None, statistics=("mean",)):
        self.window = window
        self.series_shape = series_shape
        self.statistics = statistics

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Check the series shape and the statistics.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_channels * n_timesteps)
        y : None
            Ignored.

        Returns
        -------
        self : object
        """
        X = validate_data(self, X, dtype=np.float64)
        self.series_shape_ = resolve_series_shape(self.series_shape, X.shape[1])
        unknown = [s for s in self.statistics if s not in _STATISTICS]
        if unknown or not self.statistics:
            raise ValueError(f"statistics must be a non-empty tuple of "
                             f"{sorted(_STATISTICS)}; got {self.statistics!r}.")
        if self.window > self.series_shape_[1]:
            raise ValueError(f"window={self.window} is longer than the series "
                             f"({self.series_shape_[1]} steps).")
        return self

    def transform(self, X):
        """Window statistics: per statistic, per channel, per window.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_channels * n_timesteps)

        Returns
        -------
        features : ndarray of shape (n_samples, n_statistics * n_channels * n_windows)
            Columns ordered by statistic, then channel, then window.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        C, T = self.series_shape_
        S = X.reshape(len(X), C, T)
        starts = range(0, T, self.window)
        out = [func(S[:, :, s:s + self.window], axis=2)
               for func in (_STATISTICS[name] for name in self.statistics)
               for s in starts]
        # (n, C) blocks in (statistic, window) order -> (statistic, channel, window)
        n_w = len(starts)
        F = np.stack(out, axis=2).reshape(len(X), C, len(self.statistics), n_w)
        return F.transpose(0, 2, 1, 3).reshape(len(X), -1)
