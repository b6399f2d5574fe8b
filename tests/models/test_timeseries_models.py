"""The time-series nets read channel-major rows (column c * T + t) and are
explained per time step by the gradient explainers."""

import numpy as np
import pytest
import torch

from sklearn_xai.datasets import make_timeseries_classification
from sklearn_xai.models import (
    TimeSeriesCNN,
    TimeSeriesCNNClassifier,
    TimeSeriesGRU,
    TimeSeriesGRUClassifier,
)


def test_cnn_reads_channel_major_columns():
    # One conv block of kernel 1 that reads channel 1 only: the logits are
    # a function of columns T..2T-1, so their gradient is zero elsewhere.
    C, T = 2, 5
    net = TimeSeriesCNN(C * T, n_channels=C, n_filters=1, kernel_size=1, n_blocks=1)
    with torch.no_grad():
        net.features[0].weight[:] = torch.tensor([[[0.0], [1.0]]])
        net.features[0].bias.zero_()
        net.classifier.weight[:] = torch.tensor([[1.0], [-1.0]])
        net.classifier.bias.zero_()
    x = torch.tensor(np.abs(np.random.default_rng(0).normal(size=(1, C * T))),
                     dtype=torch.float32, requires_grad=True)
    out = net(x)
    # mean over time of relu(channel 1) = mean of the last T columns
    assert out[0, 0].item() == pytest.approx(x[0, T:].mean().item(), rel=1e-6)
    out[0, 0].backward()
    np.testing.assert_allclose(x.grad[0, :T], 0.0)
    np.testing.assert_allclose(x.grad[0, T:], 1.0 / T, rtol=1e-6)


def test_gru_reads_one_step_per_time_step():
    C, T = 2, 4
    net = TimeSeriesGRU(C * T, n_channels=C, hidden_size=3)
    x = torch.randn(1, C * T, requires_grad=True)
    net(x)[0, 0].backward()
    # the last hidden state depends on every step of every channel
    assert (x.grad != 0).all()
    with pytest.raises(ValueError, match="multiple of n_channels"):
        TimeSeriesGRU(7, n_channels=2)


@pytest.mark.parametrize("cls, params", [
    (TimeSeriesCNNClassifier, {"module__n_filters": 4}),
    (TimeSeriesGRUClassifier, {"module__hidden_size": 4}),
])
def test_classifiers_fit_and_are_explained_per_time_step(cls, params):
    from sklearn.frozen import FrozenEstimator

    from sklearn_xai.explainers import InputXGradient

    data = make_timeseries_classification(120, n_timesteps=12, n_channels=2, window=3,
                                          shape="level_shift", amplitude=2.0,
                                          random_state=0)
    clf = cls(series_shape=data.series_shape, max_epochs=2, random_state=0,
              **params).fit(data.data, data.target)
    assert clf.module_.n_channels == 2 and clf.module_.n_timesteps == 12
    proba = clf.predict_proba(data.data[:5])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    A = InputXGradient(FrozenEstimator(clf)).fit(data.data).transform(data.data[:4])
    assert A.shape == (4, 24) and np.isfinite(A).all()
    with pytest.raises(ValueError, match="series_shape"):
        cls(series_shape=(5, 5), max_epochs=1).fit(data.data, data.target)


def test_window_features_hand_computed_and_in_a_pipeline():
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    from sklearn_xai.compose import WindowExplainer
    from sklearn_xai.explainers import FeatureAblation
    from sklearn_xai.models import WindowFeatures

    X = np.arange(14.0).reshape(1, 14) ** 2  # 2 channels x 7 steps
    F = WindowFeatures(3, series_shape=(2, 7), statistics=("mean", "std")).fit_transform(X)
    S = X.reshape(2, 7)
    windows = [slice(0, 3), slice(3, 6), slice(6, 7)]
    expected = [S[c, w].mean() for c in range(2) for w in windows] + \
               [S[c, w].std() for c in range(2) for w in windows]
    np.testing.assert_allclose(F[0], expected)
    with pytest.raises(ValueError, match="statistics"):
        WindowFeatures(2, statistics=("median",)).fit(X)
    # a scikit-learn model on window means is explained on the raw steps
    data = make_timeseries_classification(200, n_timesteps=20, window=5, window_start=5,
                                          shape="level_shift", random_state=0)
    model = make_pipeline(WindowFeatures(5), LogisticRegression()).fit(data.data,
                                                                       data.target)
    assert model.score(data.data, data.target) > 0.9
    ex = WindowExplainer(FeatureAblation(FrozenEstimator(model)), window=5).fit(data.data)
    A = ex.transform(data.data[:10])
    # the window the model reads dominates the occlusion map
    assert (np.abs(A[:, 5:10]).mean(axis=1) > np.abs(A[:, 10:]).max(axis=1)).mean() > 0.8
