"""OpenXAI's released checkpoints loaded into our estimators.

The fixture files are written here in OpenXAI's exact format
(``torch.save(model.state_dict())`` of its ``LogisticRegression`` /
``ArtificialNeuralNetwork``: keys ``linear.*`` and ``network.<i>.*``,
float32).  Predictions are checked against OpenXAI's ``forward`` written
out in numpy (softmax of Linear-ReLU-...-Linear) and, where OpenXAI's
``openxai/model.py`` is importable, against OpenXAI's classes run side by
side on the same file.
"""

import dataclasses
import importlib.util
import sys
import types

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator

from sklearn_xai.benchmark import get_preset, run_benchmark
from sklearn_xai.explainers import IntegratedGradients
from sklearn_xai.models import (
    LogisticNetClassifier,
    MLPNetClassifier,
    load_openxai_model,
    openxai_checkpoint_name,
    read_openxai_state,
)
from sklearn_xai.utils._files import file_sha256


def _ann_state(d, hidden=(100, 100), seed=0):
    g = torch.Generator().manual_seed(seed)
    sizes = [d, *hidden, 2]
    state = {}
    for k, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        state[f"network.{2 * k}.weight"] = torch.randn(b, a, generator=g) * 0.3
        state[f"network.{2 * k}.bias"] = torch.randn(b, generator=g) * 0.1
    return state


def _lr_state(d, seed=0):
    g = torch.Generator().manual_seed(seed)
    return {"linear.weight": torch.randn(2, d, generator=g),
            "linear.bias": torch.randn(2, generator=g)}


def _openxai_forward(state, X):
    """OpenXAI's forward: softmax(network(x.float())), written out."""
    h = X.astype(np.float32)
    if "linear.weight" in state:
        z = h @ state["linear.weight"].numpy().T + state["linear.bias"].numpy()
    else:
        n = len(state) // 2
        for k in range(n):
            h = h @ state[f"network.{2 * k}.weight"].numpy().T \
                + state[f"network.{2 * k}.bias"].numpy()
            if k < n - 1:
                h = np.maximum(h, 0)
        z = h
    z = z.astype(np.float64)
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, state in [("ann_toy.pt", _ann_state(7)), ("lr_toy.pt", _lr_state(7)),
                        ("ann_narrow.pt", _ann_state(5, hidden=(8, 6, 4)))]:
        torch.save(state, tmp_path / name)
        out[name] = (tmp_path / name, state)
    return out


@pytest.mark.parametrize("name, cls", [("ann_toy.pt", MLPNetClassifier),
                                       ("lr_toy.pt", LogisticNetClassifier),
                                       ("ann_narrow.pt", MLPNetClassifier)])
def test_predictions_equal_openxai_forward(files, name, cls):
    path, state = files[name]
    model = load_openxai_model(path)
    assert type(model) is cls
    X = np.random.default_rng(0).random((40, state[next(iter(state))].shape[1]))
    np.testing.assert_allclose(model.predict_proba(X), _openxai_forward(state, X),
                               rtol=1e-5, atol=1e-6)
    assert model.classes_.tolist() == [0, 1]
    assert model.predict(X).tolist() == _openxai_forward(state, X).argmax(1).tolist()


def test_gradient_explainer_sees_the_released_weights(files):
    # IG of the LR's log-odds... here of the predicted class probability;
    # completeness: attributions sum to f(x) - f(baseline) (closed form check
    # of the weights reaching the differentiable model).
    path, state = files["lr_toy.pt"]
    model = load_openxai_model(path)
    X = np.random.default_rng(1).random((5, 7))
    ig = IntegratedGradients(FrozenEstimator(model), target=1, n_steps=200).fit(X)
    A = ig.transform(X)
    p = _openxai_forward(state, X)[:, 1]
    p0 = _openxai_forward(state, np.zeros((1, 7)))[0, 1]
    np.testing.assert_allclose(A.sum(1), p - p0, atol=2e-4)


def test_pretrained_param_fit_loads_and_clone_reloads(files):
    path, state = files["ann_toy.pt"]
    X = np.random.default_rng(2).random((30, 7))
    y = np.array(["no", "yes"] * 15)
    model = MLPNetClassifier(pretrained=path).fit(X, y)
    assert model.classes_.tolist() == ["no", "yes"]
    np.testing.assert_allclose(model.predict_proba(X), _openxai_forward(state, X),
                               rtol=1e-5, atol=1e-6)
    again = clone(model).fit(X[::-1], y[::-1])  # the data never trains it
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    with pytest.raises(ValueError, match="partial_fit and warm_start"):
        model.partial_fit(X, y)


def test_mismatches_are_refused_with_the_fix(files, tmp_path):
    path, _ = files["ann_toy.pt"]
    X = np.random.default_rng(3).random((4, 7))
    y = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="load it with MLPNetClassifier"):
        LogisticNetClassifier(pretrained=path).fit(X, y)
    with pytest.raises(ValueError, match="maps 7 features to 2 classes; X has 6"):
        MLPNetClassifier(pretrained=path).fit(X[:, :6], y)
    narrow, _ = files["ann_narrow.pt"]
    with pytest.raises(ValueError, match=r"module__hidden_layer_sizes=\(8, 6, 4\)"):
        MLPNetClassifier(pretrained=narrow).fit(np.zeros((2, 5)), [0, 1])
    with pytest.raises(ValueError, match="changed since the configuration"):
        MLPNetClassifier(pretrained=path, pretrained_sha256="0" * 64).fit(X, y)
    with pytest.raises(FileNotFoundError, match="released"):
        load_openxai_model(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="classes must list one label per output"):
        load_openxai_model(path, classes=[0, 1, 2])


def test_foreign_and_unsafe_files_are_refused(tmp_path):
    bad_keys = tmp_path / "ann_bad.pt"
    torch.save({"fc1.weight": torch.zeros(3, 2), "fc1.bias": torch.zeros(3)}, bad_keys)
    with pytest.raises(ValueError, match="'fc1.weight'"):
        read_openxai_state(bad_keys)
    gap = tmp_path / "ann_gap.pt"
    torch.save({"network.0.weight": torch.zeros(3, 2), "network.0.bias": torch.zeros(3),
                "network.4.weight": torch.zeros(2, 3), "network.4.bias": torch.zeros(2)},
               gap)
    with pytest.raises(ValueError, match=r"indices \[0, 4\]"):
        read_openxai_state(gap)
    # A pickle that would run code when unpickled: weights_only refuses it
    # and nothing runs.
    marker = tmp_path / "ran"

    class Boom:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    evil = tmp_path / "ann_evil.pt"
    torch.save({"network.0.weight": Boom()}, evil)
    with pytest.raises(ValueError, match="not a weights-only"):
        read_openxai_state(evil)
    assert not marker.exists()
    not_a_dict = tmp_path / "lr_list.pt"
    torch.save([torch.zeros(2)], not_a_dict)
    with pytest.raises(ValueError, match="state dictionary"):
        read_openxai_state(not_a_dict)


def test_checkpoint_names():
    assert openxai_checkpoint_name("lr", "heloc") == "lr_heloc.pt"
    with pytest.raises(ValueError, match="'lr' or 'ann'"):
        openxai_checkpoint_name("mlp", "adult")
    with pytest.raises(ValueError, match="data set name"):
        openxai_checkpoint_name("lr", "../x")


def test_preset_explains_the_released_models(tmp_path, monkeypatch):
    from sklearn_xai.benchmark.presets.openxai import openxai_adult, openxai_compas

    states = {"lr": _lr_state(13), "ann": _ann_state(13)}
    for model, state in states.items():
        torch.save(state, tmp_path / f"{model}_adult.pt")
    monkeypatch.delenv("SKLEARN_XAI_OPENXAI_MODELS", raising=False)
    assert "pretrained" not in get_preset("openxai_adult").models["lr"]["params"]
    monkeypatch.setenv("SKLEARN_XAI_OPENXAI_MODELS", str(tmp_path))
    for spec in (openxai_adult(quick=True, models_path=tmp_path),
                 get_preset("openxai_adult", quick=True)):
        assert spec.name == "openxai_adult_quick_published"
        for model in ("lr", "ann"):
            params = spec.models[model]["params"]
            path = tmp_path / f"{model}_adult.pt"
            assert params["pretrained"] == str(path)
            assert params["pretrained_sha256"] == file_sha256(path)
    with pytest.raises(FileNotFoundError, match="no lr_compas.pt"):
        openxai_compas(quick=True, path=tmp_path, models_path=tmp_path)

    # The runner explains the released weights: the cell's model accuracy is
    # that of OpenXAI's forward on the explained split, computed by hand.
    spec = dataclasses.replace(
        spec, explainers={"grad": spec.explainers["grad"]},
        metrics={"pgi": spec.metrics["pgi"]})
    results = run_benchmark(spec, n_jobs=1)
    from sklearn_xai.benchmark._runner import _load_dataset, _split

    dataset = {**spec.datasets["adult"], "test_size": spec.dataset_split("adult")[0],
               "n_explain": spec.dataset_split("adult")[1]}
    data = _load_dataset(dataset, 0)
    _, test, _ = _split(data, "classification", dataset["test_size"],
                        dataset["n_explain"], 0)
    X, y = data["data"][test], data["target"][test]
    for model, state in states.items():
        expected = np.mean(_openxai_forward(state, X).argmax(1) == y)
        score = results.table.loc[results.table["model"] == model, "model_score"]
        assert score.iloc[0] == pytest.approx(expected)


def _openxai_model_module():
    """OpenXAI's ``openxai/model.py`` when OpenXAI is installed, with its
    data-loading imports stubbed (the classes do not use them)."""
    spec = importlib.util.find_spec("openxai")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("OpenXAI is not installed (pip install --no-deps "
                    "git+https://github.com/AI4LIFE-GROUP/OpenXAI); the written-out "
                    "forward above checks the same values everywhere")
    folder = list(spec.submodule_search_locations)[0]
    return folder


def test_side_by_side_with_openxai_classes(files, monkeypatch):
    folder = _openxai_model_module()
    if importlib.util.find_spec("requests") is None:  # only LoadModel downloads
        monkeypatch.setitem(sys.modules, "requests", types.ModuleType("requests"))
    package = types.ModuleType("openxai")
    package.__path__ = [folder]
    loaders = types.ModuleType("openxai.dataloader")
    loaders.ReturnLoaders = None
    utils = types.ModuleType("openxai.experiment_utils")
    utils.print_summary = None
    for name, module in [("openxai", package), ("openxai.dataloader", loaders),
                         ("openxai.experiment_utils", utils)]:
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("openxai.model", f"{folder}/model.py")
    ox = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ox)
    X = np.random.default_rng(4).random((25, 7))
    for name in ("ann_toy.pt", "lr_toy.pt"):
        path, state = files[name]
        theirs = (ox.ArtificialNeuralNetwork(7, [100, 100]) if name.startswith("ann")
                  else ox.LogisticRegression(7))
        theirs.load_state_dict(torch.load(path, weights_only=True))
        theirs.eval()
        expected = theirs.predict(X)  # OpenXAI: the softmax outputs (argmax=False)
        np.testing.assert_allclose(load_openxai_model(path).predict_proba(X), expected,
                                   rtol=1e-5, atol=1e-6)
