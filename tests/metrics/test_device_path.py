"""The device path of the model-evaluating metrics (issue #35, item 3).

When the explained model is a torch module on an accelerator, the maskers'
``evaluate`` and ``infidelity`` build the model inputs, call the model and
reduce the per-copy values on the model's device
(``ExplainedOutput.device_path``); only values per (row, copy) come back to
the host.  A model on the CPU takes the numpy path by default; here the
private switch ``utils._output._DEVICE_PATH`` forces the device path on the
CPU (``True``) or the host path (``False``).  Checked on the CPU:

* the torch path equals the numpy path of the same skorch net to float32
  rounding, for every metric that has one (PGI and PGU: the perturbed
  copies are drawn on the host and sent to the device), and it is the path taken
  (``scores_tensor`` is called, skorch's ``predict_proba`` is not);
* a row's score on the torch path does not depend on its batch, the
  order or ``batch_size``;
* no tensor larger than (rows x copies) is brought back to the host, and
  every model call sees its input on the model's device;
* on a CUDA GPU (skipped without one) the values equal the CPU's to TF32
  precision.
"""

import copy

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.masking import BaselineMasker, BlurMasker
from sklearn_xai.metrics import (
    faithfulness_correlation,
    infidelity,
    pgi,
    pgu,
    pixel_flipping,
    region_perturbation,
)
from sklearn_xai.models import BEExAIMLPRegressor, MLPNetClassifier
from sklearn_xai.utils import _output
from sklearn_xai.utils._output import ExplainedOutput

RTOL, ATOL = 1e-5, 1e-7  # float32 rounding of a different arithmetic order


def _atol(metric):
    """A correlation near 0 of output drops that differ by float32 rounding
    (a scaler in float32 on the device, float64 on the host) moves by about
    1e-6 in absolute terms."""
    return 1e-5 if metric is faithfulness_correlation else ATOL

_RNG = np.random.default_rng(0)
X_TRAIN = _RNG.normal(size=(64, 16))
Y_TRAIN = (X_TRAIN[:, 0] + X_TRAIN[:, 1] > 0).astype(int)
X = X_TRAIN[:9]
A = _RNG.normal(size=X.shape)


@pytest.fixture(autouse=True)
def _device_path_on_the_cpu(monkeypatch):
    monkeypatch.setattr(_output, "_DEVICE_PATH", True)


@pytest.fixture(scope="module")
def net():
    return MLPNetClassifier(max_epochs=1, random_state=0).fit(X_TRAIN, Y_TRAIN)


@pytest.fixture(scope="module")
def regressor():
    return BEExAIMLPRegressor(max_epochs=1, random_state=0).fit(
        X_TRAIN, X_TRAIN[:, 0] - X_TRAIN[:, 2])


# (metric, keyword arguments): every metric with a device path.
METRICS = [
    (pixel_flipping, {"features_per_step": 3}),
    (region_perturbation, {"image_shape": (4, 4), "patch_size": 2}),
    (pixel_flipping, {"features_per_step": 4,
                      "masker": BlurMasker((4, 4), sigma=1.0)}),
    (faithfulness_correlation, {"n_subsets": 6, "random_state": 0}),
    (infidelity, {"n_perturbations": 12, "random_state": 0}),
    (infidelity, {"n_perturbations": 12, "convention": "xai_bench_code",
                  "random_state": 0}),
    (pgi, {"n_perturbations": 4, "k": 3, "random_state": 0}),
    (pgu, {"n_perturbations": 4, "k": 3, "auc": False, "random_state": 0}),
]
IDS = ["pixel_flipping", "region_perturbation", "pixel_flipping_blur",
       "faithfulness_correlation", "infidelity", "infidelity_xai_bench", "pgi", "pgu"]


def _host(metric, model, *args, **kw):
    """The metric with the host (numpy) path forced for a torch model."""
    previous = _output._DEVICE_PATH
    _output._DEVICE_PATH = False
    try:
        return metric(model, *args, **kw)
    finally:
        _output._DEVICE_PATH = previous


class _DeviceSpy:
    """Counts the device path's model calls and refuses skorch's host
    path (``predict_proba`` / ``predict`` of the net)."""

    def __init__(self, monkeypatch, model):
        self.calls = 0
        original = ExplainedOutput.scores_tensor

        def scores_tensor(f, Z):
            self.calls += 1
            return original(f, Z)

        def refuse(*args, **kwargs):
            raise AssertionError("the host path was taken for a torch model")

        monkeypatch.setattr(ExplainedOutput, "scores_tensor", scores_tensor)
        for name in ("predict_proba", "predict"):
            monkeypatch.setattr(model, name, refuse, raising=False)


@pytest.mark.parametrize("metric, kw", METRICS, ids=IDS)
def test_torch_path_equals_numpy_path(net, metric, kw, monkeypatch):
    expected = _host(metric, net, X, A, **kw)
    spy = _DeviceSpy(monkeypatch, net)
    got = metric(net, X, A, **kw)
    assert spy.calls > 0
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=_atol(metric))


@pytest.mark.parametrize("metric, kw", [METRICS[0], METRICS[3], METRICS[4]],
                         ids=["pixel_flipping", "faithfulness_correlation",
                              "infidelity"])
def test_torch_path_regressor_pipeline_and_targets(regressor, net, metric, kw):
    """A regressor, a frozen Pipeline of a scaler and a net (the scaler runs
    in torch on the device path, in numpy on the host path), and an explicit
    class target."""
    np.testing.assert_allclose(metric(regressor, X, A, **kw),
                               _host(metric, regressor, X, A, **kw),
                               rtol=RTOL, atol=_atol(metric))
    frozen = FrozenEstimator(make_pipeline(StandardScaler().fit(X_TRAIN), net))
    f = ExplainedOutput(frozen)
    assert f.device_path and isinstance(f.torch_model(), torch.nn.Module)
    # the module is the scaler then the net: its scores are the pipeline's
    np.testing.assert_allclose(f.scores_tensor(f.as_tensor(X)).numpy(),
                               frozen.predict_proba(X), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(metric(frozen, X, A, target=1, **kw),
                               _host(metric, frozen, X, A, target=1, **kw),
                               rtol=RTOL, atol=_atol(metric))


@pytest.mark.parametrize("metric, kw", [METRICS[1], METRICS[3], METRICS[4]],
                         ids=["region_perturbation", "faithfulness_correlation",
                              "infidelity"])
def test_torch_path_row_independence(net, metric, kw):
    full = metric(net, X, A, **kw)
    order = np.array([4, 0, 8, 2, 6, 1, 7, 3, 5])
    shuffled = metric(net, X[order], A[order], batch_size=7, **kw)
    alone = metric(net, X[3:4], A[3:4], batch_size=1, **kw)
    np.testing.assert_allclose(shuffled, full[order], rtol=RTOL, atol=_atol(metric))
    np.testing.assert_allclose(alone, full[3:4], rtol=RTOL, atol=_atol(metric))


@pytest.mark.parametrize("index, n_copies", [(0, 6), (3, 6), (4, 12), (6, 12)],
                         ids=["pixel_flipping", "faithfulness_correlation",
                              "infidelity", "pgi"])
def test_no_block_leaves_the_device(net, index, n_copies, monkeypatch):
    """Tensors brought to the host hold at most (rows x copies) entries, and
    every model call gets its input on the model's device (``n_copies``:
    the model inputs per row besides the row itself)."""
    metric, kw = METRICS[index]
    back = []
    for name in ("cpu", "numpy", "tolist"):
        original = getattr(torch.Tensor, name)

        def record(self, *args, _original=original, **kwargs):
            back.append(self.numel())
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(torch.Tensor, name, record)
    device = next(net.module_.parameters()).device
    seen = []
    hook = net.module_.register_forward_pre_hook(
        lambda module, inputs: seen.append((inputs[0].device, inputs[0].shape[0])))
    try:
        metric(net, X, A, **kw)
    finally:
        hook.remove()
    assert seen and all(d == device for d, _ in seen)
    assert sum(rows for _, rows in seen) == len(X) * (n_copies + 1)
    assert back and max(back) <= len(X) * n_copies


@pytest.mark.parametrize("include_x", [True, False])
def test_masker_evaluate_torch_path(net, regressor, include_x, monkeypatch):
    """BaselineMasker.evaluate on the device path equals its host path: the
    explained scalar for given classes, every class (``raw=True``), a
    regressor, with and without ``f(x)``; a row's values alone equal its
    values in the batch."""
    masker = BaselineMasker(0.5).fit(X_TRAIN)
    keep = _RNG.random((len(X), 5, X.shape[1])) < 0.5
    t = np.arange(len(X)) % 2

    def run(model, **kw):
        return masker.evaluate(ExplainedOutput(model), X, keep, batch_size=7,
                               include_x=include_x, **kw)

    calls = []
    original = ExplainedOutput.scores_tensor
    monkeypatch.setattr(ExplainedOutput, "scores_tensor",
                        lambda f, Z: calls.append(len(Z)) or original(f, Z))
    cases = [(net, {"target_index": t}), (net, {"raw": True}), (regressor, {})]
    for model, kw in cases:
        calls.clear()
        got = run(model, **kw)
        assert sum(calls) == len(X) * (5 + include_x)  # all on the device
        monkeypatch.setattr(_output, "_DEVICE_PATH", False)
        expected = run(model, **kw)
        monkeypatch.setattr(_output, "_DEVICE_PATH", True)
        for g, e in zip(got if include_x else [got], expected if include_x else [expected]):
            np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL)
    alone = masker.evaluate(ExplainedOutput(net), X[2:3], keep[2:3],
                            target_index=t[2:3], include_x=include_x)
    full = run(net, target_index=t)
    np.testing.assert_allclose(alone[1] if include_x else alone,
                               (full[1] if include_x else full)[2:3],
                               rtol=RTOL, atol=ATOL)


def test_device_path_default_is_accelerators_only(net, monkeypatch):
    """By default a torch model takes the device path on an accelerator
    only (the device is faked: no model call is made)."""
    monkeypatch.setattr(_output, "_DEVICE_PATH", None)
    f = ExplainedOutput(net)
    assert f.torch_model() is not None and not f.device_path
    f.device = torch.device("cuda")
    assert f.device_path
    monkeypatch.setattr(_output, "_DEVICE_PATH", False)
    assert not f.device_path


def test_torch_model_only_for_torch_modules(net):
    """scikit-learn models and predicted labels keep the host path; the
    target selection is the same function on both backends."""
    X_small = X_TRAIN[:5]
    sklearn_model = LogisticRegression().fit(X_TRAIN, Y_TRAIN)
    assert ExplainedOutput(sklearn_model).torch_model() is None
    assert not ExplainedOutput(sklearn_model).device_path
    assert ExplainedOutput(net, output="predict").torch_model() is None
    f = ExplainedOutput(net)
    scores = f.scores(X_small)
    got = f.scores_tensor(f.as_tensor(X_small))
    assert got.dtype == torch.float64 and got.device == f.device
    np.testing.assert_allclose(got.numpy(), scores, rtol=RTOL, atol=ATOL)
    t = np.array([0, 1, 1, 0, 1])
    np.testing.assert_array_equal(
        f.select(torch.as_tensor(scores), torch.as_tensor(t)).numpy(),
        scores[np.arange(5), t])
    stacked = np.stack([scores, scores[::-1]], axis=1)  # (5, 2 copies, 2)
    np.testing.assert_array_equal(
        f.select(torch.as_tensor(stacked), torch.as_tensor(t)).numpy(),
        f.select(stacked, t))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("metric, kw", METRICS, ids=IDS)
def test_cuda_values_equal_cpu(net, metric, kw):
    gpu = copy.deepcopy(net)
    gpu.module_.to("cuda")
    gpu.set_params(device="cuda")
    assert ExplainedOutput(gpu).device.type == "cuda"
    # TF32 matrix products (10-bit mantissa) on the GPU.
    np.testing.assert_allclose(metric(gpu, X, A, **kw), metric(net, X, A, **kw),
                               rtol=2e-3, atol=2e-4)


def test_scores_and_explainers_on_the_device_path(net, monkeypatch):
    """``ExplainedOutput.scores`` of a torch model on the device path calls the
    module there (not skorch's predict_proba) and equals the host scores; a
    gradient explainer with target="predicted" reads its classes that way."""
    from sklearn_xai.explainers import Saliency

    host_scores = ExplainedOutput(net).scores(X)
    _output._DEVICE_PATH = False
    host_attr = Saliency(FrozenEstimator(net)).fit(X_TRAIN).transform(X)
    _output._DEVICE_PATH = True
    spy = _DeviceSpy(monkeypatch, net)
    f = ExplainedOutput(net, batch_size=4)  # three calls of at most 4 rows
    np.testing.assert_allclose(f.scores(X), host_scores, rtol=RTOL, atol=ATOL)
    assert spy.calls == 3 and f.n_calls == 3 and f.n_evaluations == len(X)
    got = Saliency(FrozenEstimator(net)).fit(X_TRAIN).transform(X)
    np.testing.assert_allclose(got, host_attr, rtol=RTOL, atol=ATOL)
