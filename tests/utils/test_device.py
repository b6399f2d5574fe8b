"""The one block-size rule and device resolution (sklearn_xai.utils._device)."""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.utils import config_context, get_config, set_config
from sklearn_xai.utils._device import (
    DEVICE_BYTES_PER_ENTRY,
    DEVICE_MAX_ENTRIES,
    block_entries,
    model_device,
    resolve_device,
)
from sklearn_xai.utils._output import BLOCK_ENTRIES, ExplainedOutput, block_slices


def test_cpu_blocks_keep_the_cache_bound():
    assert block_entries(None) == block_entries("cpu") == block_entries(
        torch.device("cpu")) == 2**17
    # 20 features: 6553 rows per call, 3 inputs per row -> 2184 rows per block.
    assert block_slices(10_000, 3, 20)[0] == slice(0, 2184)
    assert block_slices(10_000, 3, 20, device=torch.device("cpu"))[0] == slice(0, 2184)


@pytest.mark.parametrize("memory, expected", [
    (2**34, 2**34 // 4 // DEVICE_BYTES_PER_ENTRY),  # a fraction of 16 GiB
    (2**20, BLOCK_ENTRIES),                          # tiny device: CPU bound floor
    (2**50, DEVICE_MAX_ENTRIES),                     # huge device: host bound
])
def test_accelerator_blocks_follow_memory(memory, expected):
    with config_context(device_memory=memory):
        assert block_entries(torch.device("cuda")) == expected
        assert block_entries("cuda:0") == expected
        per_row, d = 50, 4096
        step = max(expected // d, 1) // per_row or 1
        assert block_slices(10**4, per_row, d, device="cuda")[0] == slice(0, step)


def test_free_memory_is_read_from_the_device(monkeypatch):
    monkeypatch.setattr(torch.cuda, "mem_get_info", lambda device=None: (2**33, 2**35))
    with config_context(device_memory_fraction=0.5):
        assert block_entries("cuda") == 2**32 // DEVICE_BYTES_PER_ENTRY


def test_batch_size_wins_over_device():
    with config_context(device_memory=2**34):
        assert block_slices(100, 4, 10, batch_size=8, device="cuda")[0] == slice(0, 2)


@pytest.mark.parametrize("kwargs, match", [
    ({"device_memory_fraction": 0}, "device_memory_fraction"),
    ({"device_memory_fraction": 1.5}, "device_memory_fraction"),
    ({"device_memory_fraction": True}, "device_memory_fraction"),
    ({"device_memory": -1}, "device_memory"),
    ({"device_memory": 2.5}, "device_memory"),
])
def test_config_validation(kwargs, match):
    before = get_config()
    with pytest.raises(ValueError, match=match):
        set_config(**kwargs)
    assert get_config() == before


def test_config_context_restores():
    before = get_config()
    with config_context(device_memory_fraction=0.75, device_memory=2**30):
        assert get_config()["device_memory_fraction"] == 0.75
        assert get_config()["device_memory"] == 2**30
    assert get_config() == before


def test_resolve_device():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device(torch.device("cpu")) == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert resolve_device("auto").type == expected
    with pytest.raises(ValueError, match=r"backend=.gpu. is not a torch device"):
        resolve_device("gpu", parameter="backend")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error for an absent GPU; "
                    "test_resolve_device covers a GPU machine")
def test_cuda_absent_is_a_clear_error():
    with pytest.raises(ValueError, match=r"device='cuda' asks for a CUDA GPU.*device='cpu'"):
        resolve_device("cuda")


def test_model_device():
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(int)
    lr = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    assert model_device(lr) is None
    module = torch.nn.Sequential(torch.nn.Linear(3, 2))
    assert model_device(module) == torch.device("cpu")
    assert model_device(torch.nn.ReLU()) is None

    class Net:  # a fitted skorch-like net inside a pipeline, frozen
        module_ = module.to("meta")

    assert model_device(FrozenEstimator(make_pipeline(StandardScaler(), Net()))).type \
        == "meta"


def test_explained_output_blocks_on_the_model_device():
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int)
    f = ExplainedOutput(LogisticRegression().fit(X, y))
    assert f.device is None
