"""Noise of the gradient explainers drawn on the model's device (issue #35).

SmoothGrad and GradientShap draw from the rows' streams with the torch
backend on the device of the model; the values are checked against a direct
computation (the gradient of a tanh network written out in numpy, the
draws from the streams' numpy backend), and the explainers' per-block work
is checked to stay on the model's device.
"""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPRegressor

from sklearn_xai.explainers import GradientShap, NoiseTunnel, Saliency, SmoothGrad
from sklearn_xai.utils import RowStreams, row_keys


@pytest.fixture(scope="module")
def mlp():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2]
    est = MLPRegressor(hidden_layer_sizes=(6,), activation="tanh", max_iter=300, random_state=0).fit(X, y)
    return est, X


def _grad(est, Z):
    """Gradient of the tanh MLP's output, written out in numpy."""
    (W1, W2), (b1, _) = est.coefs_, est.intercepts_
    h = np.tanh(Z @ W1 + b1)
    return ((1 - h**2) * W2[:, 0]) @ W1.T


def test_smoothgrad_is_the_mean_gradient_at_the_streams_noise(mlp):
    est, X = mlp
    N, std = 7, 0.3
    A = SmoothGrad(FrozenEstimator(est), n_perturbations=N, std=std,
                   random_state=5).fit(X).transform(X[:9])
    z = RowStreams(5, row_keys(X[:9])).normal((N, 4), method="box_muller")
    expected = np.stack([_grad(est, x + std * zi).mean(axis=0)
                         for x, zi in zip(X[:9], z)])
    np.testing.assert_allclose(A, expected, rtol=1e-9, atol=1e-12)
    # NoiseTunnel draws the same numbers on the host.
    B = NoiseTunnel(Saliency(FrozenEstimator(est)), n_perturbations=N, stdev=std,
                    random_state=5).fit(X).transform(X[:9])
    np.testing.assert_allclose(B, expected, rtol=1e-9, atol=1e-12)


def test_gradient_shap_is_its_formula_at_the_streams_draws(mlp):
    est, X = mlp
    N, std, B = 5, 0.2, X[:6]
    A = GradientShap(FrozenEstimator(est), baseline=B, n_perturbations=N, std=std,
                     random_state=3).fit(X).transform(X[10:14])
    s = RowStreams(3, row_keys(X[10:14]))
    idx = s.integers(len(B), N, stream=1)
    alpha = s.uniform(N, stream=2)
    eps = s.normal((N, 4), method="box_muller")
    expected = []
    for x, i, a, e in zip(X[10:14], idx, alpha, eps):
        delta = x + std * e - B[i]
        expected.append((delta * _grad(est, B[i] + a[:, None] * delta)).mean(axis=0))
    np.testing.assert_allclose(A, np.array(expected), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("cls, kw", [(SmoothGrad, {"n_perturbations": 4, "std": 0.5}),
                                     (GradientShap, {"n_perturbations": 4, "std": 0.5})])
def test_noise_and_path_stay_on_the_model_device(mlp, cls, kw):
    """A block's draws, noisy inputs and attributions are tensors on the
    model's device (here "meta": nothing can be copied back from it)."""
    est, X = mlp
    explainer = cls(FrozenEstimator(est), random_state=0, **kw).fit(X)
    module = torch.nn.Sequential(torch.nn.Linear(4, 1)).to("meta")
    inputs = torch.zeros((3, 4), dtype=torch.float64, device="meta",
                         requires_grad=True)
    target = torch.zeros(3, dtype=torch.long, device="meta")
    A, n_rows = explainer._attribute(module, inputs, target,
                                     RowStreams(0, np.arange(3)))
    assert A.device.type == "meta" and A.shape == (3, 4) and n_rows == 12


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_smoothgrad_on_cuda_equals_the_cpu():
    from sklearn_xai.models import TetrominoNetClassifier
    from sklearn_xai.datasets import make_tetrominoes

    data = make_tetrominoes(200, image_size=8, random_state=0)
    X, y = np.asarray(data.data, dtype=np.float32), np.asarray(data.target)
    net = TetrominoNetClassifier(max_epochs=1, device="cuda", random_state=0).fit(X, y)
    A_cuda = SmoothGrad(FrozenEstimator(net), n_perturbations=8,
                        random_state=0).fit(X).transform(X[:20])
    net.set_params(device="cpu")
    A_cpu = SmoothGrad(FrozenEstimator(net), n_perturbations=8,
                       random_state=0).fit(X).transform(X[:20])
    np.testing.assert_allclose(A_cuda, A_cpu, rtol=1e-3, atol=1e-5)
