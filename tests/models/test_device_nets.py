"""The nets' ``device``: "auto" resolved at fit (``device_``), a clear error
for a GPU torch does not see, and ``set_params(device=...)`` moving a fitted
net (weights, criterion, optimizer state)."""

import copy
import pickle
import warnings

import numpy as np
import pytest
import torch
from sklearn.base import clone

from sklearn_xai.models import MLPNetClassifier

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="needs a CUDA GPU")


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 4))
    return X, (X[:, 0] > 0).astype(int)


def _net(**params):
    # a class-weighted criterion: criterion_ has a buffer that must move too
    params.setdefault("criterion__weight", torch.tensor([1.0, 2.0]))
    return MLPNetClassifier(max_epochs=2, random_state=0, early_stopping=False,
                            **params)


@pytest.fixture(scope="module")
def _auto_net():
    X, y = _data()
    return _net(device="auto").fit(X, y)


@pytest.fixture
def fitted(_auto_net):
    """A fitted ``device="auto"`` net, a copy per test."""
    return copy.deepcopy(_auto_net)


def _tensors(net):
    """Every parameter, buffer and optimizer-state tensor of a fitted net."""
    out = {}
    for name in ("module_", "criterion_"):
        for key, value in getattr(net, name).state_dict().items():
            out[f"{name}{key}"] = value
    for i, state in enumerate(net.optimizer_.state.values()):
        for key, value in state.items():
            out[f"optimizer_{i}.{key}"] = value
    return out


def test_auto_resolves_at_fit_and_keeps_the_setting(fitted):
    X, y = _data()
    net = fitted
    expected = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    assert net.device_ == expected
    assert net.get_params()["device"] == "auto"
    assert clone(net).get_params()["device"] == "auto"
    # the same training as an explicit device: the same weights and outputs
    ref = _net(device=str(expected)).fit(X, y)
    np.testing.assert_array_equal(net.predict_proba(X), ref.predict_proba(X))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error for an absent GPU; on a GPU machine "
                    "test_cuda_round_trip runs instead")
@pytest.mark.parametrize("device", ["cuda", "cuda:1", torch.device("cuda")])
def test_cuda_without_a_gpu_is_refused_at_fit(device):
    X, y = _data()
    net = _net(device=device)  # constructing is fine (scikit-learn convention)
    with pytest.raises(ValueError, match=r"device=.*cuda.*torch sees none.*'auto'"):
        net.fit(X, y)


def test_set_params_moves_a_fitted_net(fitted):
    net = fitted
    assert {t.device.type for k, t in _tensors(net).items()
            if not k.endswith(".step")} == {net.device_.type}
    net.set_params(device=torch.device("meta"))
    moved = _tensors(net)
    assert net.device_ == torch.device("meta")
    # Adam's scalar step counters stay on the CPU (torch's own convention)
    assert {k for k, t in moved.items() if t.device.type != "meta"} == {
        k for k in moved if k.endswith(".step")}
    assert any(k.startswith("criterion_") for k in moved)
    assert any(k.endswith("exp_avg") for k in moved)
    # the optimizer updates the moved parameters, not the old ones
    params = {id(p) for p in net.module_.parameters()}
    assert all(id(p) in params for g in net.optimizer_.param_groups
               for p in g["params"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="the module's 'auto' net resolves to the GPU there; "
                    "test_cuda_round_trip checks the moves on a GPU machine")
def test_set_params_cpu_on_a_cpu_net_changes_nothing(fitted):
    X, y = _data()
    net = fitted
    before = net.predict_proba(X)
    ids = [id(p) for p in net.module_.parameters()]
    state = {k: t.clone() for k, t in _tensors(net).items()}
    net.set_params(device="cpu")
    assert [id(p) for p in net.module_.parameters()] == ids
    for key, value in _tensors(net).items():
        torch.testing.assert_close(value, state[key], rtol=0, atol=0)
    np.testing.assert_array_equal(net.predict_proba(X), before)


def test_a_bad_device_is_refused_before_anything_moves(fitted):
    where = fitted.device_
    with pytest.raises(ValueError, match="device='gpu' is not a torch device"):
        fitted.set_params(device="gpu")
    assert fitted.device == "auto" and fitted.device_ == where
    assert {p.device.type for p in fitted.module_.parameters()} == {where.type}


def test_pickle_round_trip_of_an_auto_net(fitted):
    X, y = _data()
    net = fitted
    back = pickle.loads(pickle.dumps(net))
    assert back.device == "auto" and back.device_ == net.device_
    np.testing.assert_array_equal(back.predict_proba(X), net.predict_proba(X))
    unfitted = pickle.loads(pickle.dumps(_net(device="auto")))
    assert unfitted.device == "auto"


@pytest.mark.skipif(torch.cuda.is_available(), reason="simulates loading a GPU pickle where torch sees no "
                    "GPU; on a GPU machine the weights stay on it")
@pytest.mark.parametrize("setting", ["auto", "cuda"])
def test_a_net_pickled_on_a_gpu_loads_on_the_cpu(fitted, setting):
    # What a net fitted on a GPU machine records (its weights are the CPU's
    # here; skorch maps them to the CPU either way when CUDA is absent).
    X, _ = _data()
    expected = fitted.predict_proba(X)
    vars(fitted)["device"] = setting
    vars(fitted)["device_"] = torch.device("cuda")
    data = pickle.dumps(fitted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = pickle.loads(data)
    said = [str(w.message) for w in caught]
    assert any("no CUDA devices" in m for m in said)  # skorch says where it loads
    # skorch's "Setting self.device = cpu" only when the setting does change
    assert any("Setting self.device" in m for m in said) is (setting == "cuda")
    # "auto" stays "auto"; skorch sets an explicit "cuda" to the CPU
    assert str(back.device) == ("auto" if setting == "auto" else "cpu")
    assert back.device_ == torch.device("cpu")
    assert {p.device.type for p in back.module_.parameters()} == {"cpu"}
    np.testing.assert_array_equal(back.predict_proba(X), expected)


@needs_cuda
def test_cuda_round_trip():
    X, y = _data()
    net = _net(device="cuda").fit(X, y)
    assert {t.device.type for k, t in _tensors(net).items()
            if not k.endswith(".step")} == {"cuda"}
    on_gpu = net.predict_proba(X)
    net.set_params(device="cpu")
    assert {t.device.type for t in _tensors(net).values()} == {"cpu"}
    np.testing.assert_allclose(net.predict_proba(X), on_gpu, rtol=1e-5, atol=1e-6)
    net.set_params(device="cuda").partial_fit(X, y)  # trains on the GPU again
    assert {t.device.type for k, t in _tensors(net).items()
            if not k.endswith(".step")} == {"cuda"}
    back = pickle.loads(pickle.dumps(net))
    assert back.device_.type == "cuda"


def test_overlapping_device_blocks_keep_the_resolved_device(_auto_net):
    """Two threads predicting with one "auto" net at once (the runner's
    threading backend): while either is inside skorch's steps, the net's
    ``device`` is the resolved device; the setting comes back when the last
    leaves.  The interleaving of two threads, played in one."""
    net = copy.deepcopy(_auto_net)
    first, second = net._on_device(), net._on_device()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert isinstance(net.device, torch.device)  # "auto" here broke skorch's step
    second.__exit__(None, None, None)
    assert net.device == "auto" and net.get_params()["device"] == "auto"
    # and concurrently, for real: every prediction succeeds and agrees
    from concurrent.futures import ThreadPoolExecutor

    X, _ = _data()
    expected = net.predict_proba(X)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: net.predict_proba(X), range(32)))
    for got in results:
        np.testing.assert_array_equal(got, expected)
    assert net.device == "auto"
