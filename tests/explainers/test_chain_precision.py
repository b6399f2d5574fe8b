"""The layer-chain check runs in full precision (no TF32 on a GPU), with a
tolerance that follows the model's dtype (issue #35, item 5)."""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from skorch import NeuralNetRegressor
from torch import nn

from sklearn_xai.explainers import CompositeLRP
from sklearn_xai.explainers._chain import _check_tolerance, layer_chain
from sklearn_xai.explainers._lrp_graph import layer_graph
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._torch import full_precision


@pytest.fixture
def tf32_on():
    """TF32 allowed, as on a CUDA machine by default; restored afterwards."""
    matmul = torch.get_float32_matmul_precision()
    cudnn = torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    yield
    torch.set_float32_matmul_precision(matmul)
    torch.backends.cudnn.allow_tf32 = cudnn


def _flags():
    return (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32,
            torch.get_float32_matmul_precision())


def test_full_precision_turns_tf32_off_and_restores(tf32_on):
    assert _flags() == (True, True, "high")
    with full_precision():
        assert _flags() == (False, False, "highest")
    assert _flags() == (True, True, "high")
    torch.set_float32_matmul_precision("medium")  # bfloat16 products: kept too
    with pytest.raises(KeyError), full_precision():
        assert _flags() == (False, False, "highest")
        raise KeyError("inside")
    assert _flags()[1:] == (True, "medium")


def _tf32_like(module, always=False):
    """The module's output off by a TF32-sized relative error (1e-3 of the
    output's scale) whenever cuDNN's TF32 flag is on (or ``always``): what
    the 64x64 XAI-TRIS CNN's forward gives on a GPU.  A hook on the root
    module: its leaves (what the chain reads) are unchanged."""
    def hook(mod, args, out):
        if always or torch.backends.cudnn.allow_tf32:
            return out + 1e-3 * (1.0 + out.abs().max())
        return None

    module.register_forward_hook(hook)
    return module


def _mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 1))


@pytest.mark.parametrize("build", [layer_chain, layer_graph])
def test_chain_check_runs_in_full_precision(build, tf32_on):
    X = np.random.default_rng(0).normal(size=(30, 6))
    model = NeuralNetRegressor(_tf32_like(_mlp())).initialize()  # a fitted float32 net
    chain = build(model, "predict", X)
    # the chain is the model (without the TF32 error): its scores, in float64
    with torch.no_grad():
        ref = _mlp()(torch.as_tensor(X, dtype=torch.float32)).double().numpy()
    np.testing.assert_allclose(chain.forward(X)[1][-1], ref, rtol=1e-5, atol=1e-6)
    assert torch.backends.cudnn.allow_tf32  # the caller's setting is back
    # the same error outside the flag's control is still refused: the tolerance
    # of float32 (3.5e-4) is below TF32's 1e-3
    model = NeuralNetRegressor(_tf32_like(_mlp(), always=True)).initialize()
    with pytest.raises(NotApplicableError, match="reproduce"):
        build(model, "predict", X)


def test_tolerance_follows_the_dtype():
    assert _check_tolerance(torch.float32) == pytest.approx(2.0 ** -11.5)
    assert _check_tolerance(torch.float64) == pytest.approx(2.0 ** -26)
    assert _check_tolerance(torch.float16) == pytest.approx(2.0 ** -5)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_composite_lrp_accepts_a_cnn_on_cuda_and_equals_the_cpu(tf32_on):
    import copy

    from sklearn_xai.models import TetrominoNetClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 64 * 64))
    y = (X[:, 2080] > 0).astype(int)
    net = TetrominoNetClassifier(architecture="cnn", image_size=64, max_epochs=1,
                                 batch_size=64, random_state=0, device="cuda",
                                 early_stopping=False).fit(X, y)
    on_gpu = CompositeLRP(FrozenEstimator(net)).fit(X).transform(X[:8])
    cpu = copy.deepcopy(net).set_params(device="cpu")
    on_cpu = CompositeLRP(FrozenEstimator(cpu)).fit(X).transform(X[:8])
    np.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-6, atol=1e-9)
