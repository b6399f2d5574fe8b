"""A run's ``device``: run_benchmark(device=), ``sklearn-xai run --device``,
a config's ``device:`` key and compare_explainers(device=) (issue #35,
item 4): validated by spelling, refused before any work when the GPU is
absent, applied to every net of the run, kept out of the cache keys and
recorded in the results."""

import json

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.benchmark import BenchmarkSpec, compare_explainers, run_benchmark
from sklearn_xai.benchmark._cli import main
from sklearn_xai.benchmark._runner import _place
from sklearn_xai.models import MLPNetClassifier

no_cuda = pytest.mark.skipif(torch.cuda.is_available(),
                             reason="checks the fail-fast error for an absent GPU; "
                             "test_a_run_on_cuda_equals_the_cpu_run runs on a GPU")
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="needs a CUDA GPU")


def _config(**extra):
    return {"dataset": {"name": "make_linear_attribution",
                        "params": {"n_samples": 60, "n_features": 4}},
            "model": {"name": "BEExAIMLPRegressor",
                      "params": {"max_epochs": 1, "early_stopping": False}},
            "explainers": ["RandomExplainer"], "metrics": ["neg_complexity"],
            "seeds": [0], "n_explain": 10, **extra}


@pytest.mark.parametrize("value", ["gpu", "cuda:x", "__import__('os')", "CUDA", 1])
def test_config_device_is_checked_by_its_spelling(value):
    with pytest.raises(ValueError, match=r"device=.* is not a device; use 'auto'"):
        BenchmarkSpec.from_dict(_config(device=value))


def test_config_device_loads_on_any_machine():
    # a config written for a GPU machine loads here; the run checks the GPU
    spec = BenchmarkSpec.from_dict(_config(device="cuda:1"))
    assert spec.device == "cuda:1" and spec.to_dict()["device"] == "cuda:1"
    assert BenchmarkSpec.from_dict(_config()).device is None


@no_cuda
def test_a_run_on_an_absent_gpu_fails_before_any_work(tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(ValueError, match=r"device='cuda' asks for a CUDA GPU"):
        run_benchmark(_config(), device="cuda", cache_dir=cache)
    with pytest.raises(ValueError, match=r"device='cuda:0' asks for a CUDA GPU"):
        run_benchmark(_config(device="cuda:0"), cache_dir=cache)
    assert not cache.exists()  # nothing started
    X = np.random.default_rng(0).normal(size=(30, 3))
    with pytest.raises(ValueError, match=r"device='cuda'"):
        compare_explainers(Ridge().fit(X, X[:, 0]), X, device="cuda")


@no_cuda
def test_cli_names_the_device_option(tmp_path, capsys):
    config = tmp_path / "bench.json"
    config.write_text(json.dumps(_config(name="dev")))
    out = tmp_path / "out"
    with pytest.raises(SystemExit):  # argparse: a misspelt device
        main(["run", str(config), "--device", "gpu", "--out", str(out)])
    assert "--device='gpu' is not a device" in capsys.readouterr().err
    assert main(["run", str(config), "--device", "cuda", "--out", str(out)]) == 1
    assert "--device='cuda' asks for a CUDA GPU" in capsys.readouterr().err
    config.write_text(json.dumps(_config(name="dev", device="cuda")))
    assert main(["run", str(config), "--out", str(out)]) == 1
    assert "device='cuda' asks for a CUDA GPU" in capsys.readouterr().err
    assert not out.exists()


def test_place_sets_every_net_and_moves_fitted_ones_on_a_copy():
    pipe = make_pipeline(StandardScaler(), MLPNetClassifier(device="auto"))
    assert _place(pipe, "cpu") is pipe and pipe[-1].device == "cpu"
    X = np.random.default_rng(0).normal(size=(40, 4))
    net = MLPNetClassifier(max_epochs=1, early_stopping=False, random_state=0)
    frozen = FrozenEstimator(net.fit(X, (X[:, 0] > 0).astype(int)))
    placed = _place(frozen, "meta")
    assert placed is not frozen
    assert {p.device.type for p in placed.estimator.module_.parameters()} == {"meta"}
    # the caller's model stays where it was
    assert {p.device.type for p in net.module_.parameters()} == {"cpu"}
    assert _place(frozen, None) is frozen and _place(frozen, "cpu") is frozen
    ridge = Ridge()
    assert _place(ridge, "cpu") is ridge


def test_device_is_recorded_but_not_in_the_cache_keys(tmp_path):
    first = run_benchmark(_config(), device="cpu", cache_dir=tmp_path)
    assert first.n_computed == 1 and first.spec["device"] == "cpu"
    assert (first.table["status"] == "ok").all()
    again = run_benchmark(_config(), cache_dir=tmp_path)  # each model's own device
    assert again.n_computed == 0 and again.spec["device"] is None
    pd.testing.assert_series_equal(first.table["value"], again.table["value"])


@needs_cuda
def test_a_run_on_cuda_equals_the_cpu_run():
    on_gpu = run_benchmark(_config(), device="cuda")
    on_cpu = run_benchmark(_config(), device="cpu")
    assert on_gpu.spec["device"] == "cuda"
    assert (on_gpu.table["status"] == "ok").all()
    np.testing.assert_allclose(on_gpu.table["value"], on_cpu.table["value"],
                               rtol=1e-4, atol=1e-6)


@no_cuda
def test_cli_compare_names_the_device_option(tmp_path, capsys):
    """``sklearn-xai compare --device``: refused before the data is read or a
    model trained, with the option's name."""
    csv = tmp_path / "data.csv"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": (X[:, 0] > 0).astype(int)}).to_csv(
        csv, index=False)
    out = tmp_path / "out"
    with pytest.raises(SystemExit):  # argparse: a misspelt device
        main(["compare", str(csv), "--target", "y", "--device", "gpu", "--out", str(out)])
    assert "--device='gpu' is not a device" in capsys.readouterr().err
    assert main(["compare", str(csv), "--target", "y", "--device", "cuda",
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "--device='cuda' asks for a CUDA GPU" in err
    assert not out.exists()


def test_cli_compare_trains_a_net_on_the_device(tmp_path, monkeypatch, capsys):
    """The model ``compare`` trains gets --device before fitting, and the
    comparison is asked to run there."""
    import sklearn_xai.benchmark._compare as compare_module

    seen = {}

    def fake_compare(model, X, y, **options):
        seen["device"] = options["device"]
        seen["model"] = model
        raise ValueError("stopped by the test")

    monkeypatch.setattr(compare_module, "compare_explainers", fake_compare)
    csv = tmp_path / "data.csv"
    X = np.random.default_rng(0).normal(size=(60, 3))
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": (X[:, 0] > 0).astype(int)}).to_csv(
        csv, index=False)
    status = main(["compare", str(csv), "--target", "y", "--model", "mlp_net",
                   "--device", "cpu", "--out", str(tmp_path / "out"), "-q"])
    assert status == 1 and "stopped by the test" in capsys.readouterr().err
    assert seen["device"] == "cpu"
    nets = [step for step in getattr(seen["model"], "steps", [("", seen["model"])])]
    assert any(getattr(s, "device_", None) is not None and str(s.device_) == "cpu"
               for _, s in nets)
