"""BEExAI's saved networks loaded into our estimators.

The fixture files are written here in BEExAI's exact format
(``torch.save(model.state_dict())`` of its ``NeuralNetwork``: keys
``linear1``, ``bn1``, ``bn2``, ``hidden_blocks.<i>.linear``,
``hidden_blocks.<i>.bn``, ``linear3``, float32, BatchNorm running statistics
and ``num_batches_tracked``).  Predictions are checked against BEExAI's
``forward`` in eval mode written out in numpy, and, where BEExAI's source
is at hand (the mirror named by ``SKLEARN_XAI_BEEXAI_REPO``, a checkout or a
git directory; CI has none), against BEExAI's own ``NNModel`` run side by
side, on fixture files and on the two networks BEExAI's repository ships
(``output/models/{boston,kickstarter}/NeuralNetwork.pt``).
"""

import importlib.util
import os
import subprocess
import sys
import types

import numpy as np
import pytest
import torch
from sklearn.base import clone

from sklearn_xai.models import (
    BEExAIMLP,
    BEExAIMLPClassifier,
    BEExAIMLPRegressor,
    MLPNetClassifier,
    load_beexai_model,
    read_beexai_state,
)
from sklearn_xai.utils._files import file_sha256

# A checkout (or bare git directory) of BEExAI's repository, for the
# side-by-side checks; not a dependency, never downloaded by the tests.
BEEXAI_REPO = os.environ.get("SKLEARN_XAI_BEEXAI_REPO", "")
_NORM = ("weight", "bias", "running_mean", "running_var", "num_batches_tracked")


def _beexai_state(d, n_outputs, n_neurons=8, blocks=2, batch_norm=True, seed=0):
    """A state dictionary as BEExAI saves it (its key order, dtypes).

    With ``batch_norm=False`` BEExAI still builds the BatchNorm layers and
    leaves them at their initial values (never run in training mode).
    """
    g = torch.Generator().manual_seed(seed)

    def linear(name, rows, cols):
        return {f"{name}.weight": torch.randn(rows, cols, generator=g) * 0.4,
                f"{name}.bias": torch.randn(rows, generator=g) * 0.1}

    def norm(name):
        n = n_neurons
        if not batch_norm:
            values = (torch.ones(n), torch.zeros(n), torch.zeros(n), torch.ones(n),
                      torch.tensor(0))
        else:
            values = (1 + 0.3 * torch.randn(n, generator=g),
                      0.2 * torch.randn(n, generator=g), torch.randn(n, generator=g),
                      0.5 + torch.rand(n, generator=g) * 2, torch.tensor(1000))
        return {f"{name}.{entry}": value for entry, value in zip(_NORM, values)}

    state = {**linear("linear1", n_neurons, d), **norm("bn1"), **norm("bn2")}
    for i in range(blocks):
        state.update(linear(f"hidden_blocks.{i}.linear", n_neurons, n_neurons))
        state.update(norm(f"hidden_blocks.{i}.bn"))
    state.update(linear("linear3", n_outputs, n_neurons))
    return state


def _beexai_forward(state, X, *, batch_norm, classification):
    """BEExAI's ``NeuralNetwork.forward`` in eval mode, written out in numpy."""
    s = {k: v.numpy() for k, v in state.items()}
    h = X.astype(np.float32)

    def linear(name, h):
        return h @ s[f"{name}.weight"].T + s[f"{name}.bias"]

    def norm(name, h):
        if not batch_norm:
            return h
        return ((h - s[f"{name}.running_mean"]) / np.sqrt(s[f"{name}.running_var"] + 1e-5)
                * s[f"{name}.weight"] + s[f"{name}.bias"])

    h = norm("bn1", np.maximum(linear("linear1", h), 0))
    i = 0
    while f"hidden_blocks.{i}.linear.weight" in s:
        h = norm(f"hidden_blocks.{i}.bn",
                 np.maximum(linear(f"hidden_blocks.{i}.linear", h), 0))
        i += 1
    z = linear("linear3", norm("bn2", h)).astype(np.float64)
    if not classification:
        return z
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, state in [("clf.pt", _beexai_state(6, 3)),
                        ("reg.pt", _beexai_state(5, 1, n_neurons=6, blocks=1, seed=1)),
                        ("clf_no_bn.pt", _beexai_state(4, 2, batch_norm=False, seed=2))]:
        torch.save(state, tmp_path / name)
        out[name] = (tmp_path / name, state)
    return out


@pytest.mark.parametrize("name, task, params", [
    ("clf.pt", "classification", dict(n_features=6, n_outputs=3, n_neurons=8,
                                      n_hidden_layers=2, batch_norm=True)),
    ("reg.pt", "regression", dict(n_features=5, n_outputs=1, n_neurons=6,
                                  n_hidden_layers=1, batch_norm=True)),
    ("clf_no_bn.pt", "classification", dict(n_features=4, n_outputs=2, n_neurons=8,
                                            n_hidden_layers=2, batch_norm=False)),
])
def test_predictions_equal_beexai_forward(files, name, task, params):
    path, state = files[name]
    _, read = read_beexai_state(path)
    assert read == {**params, "layout": "code"}
    model = load_beexai_model(path, task=task)
    classification = task == "classification"
    assert type(model) is (BEExAIMLPClassifier if classification else BEExAIMLPRegressor)
    # Inputs away from the BatchNorm statistics' scale, so a layer skipped or
    # a statistic left out would show.
    X = np.random.default_rng(0).normal(scale=2.0, size=(30, params["n_features"]))
    expected = _beexai_forward(state, X, batch_norm=params["batch_norm"],
                               classification=classification)
    if classification:
        np.testing.assert_allclose(model.predict_proba(X), expected, rtol=1e-5, atol=1e-6)
        assert model.classes_.tolist() == list(range(params["n_outputs"]))
        assert model.predict(X).tolist() == expected.argmax(1).tolist()
    else:
        np.testing.assert_allclose(model.predict(X), expected[:, 0], rtol=1e-5, atol=1e-5)
    # The running statistics were loaded, not refitted on the rows of fit.
    bn = [m for m in model.module_.modules() if isinstance(m, torch.nn.BatchNorm1d)]
    assert len(bn) == (params["n_hidden_layers"] + 2) * params["batch_norm"]
    if bn:
        np.testing.assert_array_equal(bn[-1].running_var.numpy(),
                                      state["bn2.running_var"].numpy())


def test_pretrained_param_is_the_same_mechanism(files):
    path, state = files["clf.pt"]
    module = dict(module__layout="code", module__n_neurons=8, module__n_hidden_layers=2,
                  module__batch_norm=True)
    X = np.random.default_rng(1).normal(size=(12, 6))
    y = np.array(["a", "b", "c"] * 4)
    model = BEExAIMLPClassifier(pretrained=path, **module).fit(X, y)
    assert model.classes_.tolist() == ["a", "b", "c"]
    expected = _beexai_forward(state, X, batch_norm=True, classification=True)
    np.testing.assert_allclose(model.predict_proba(X), expected, rtol=1e-5, atol=1e-6)
    again = clone(model).fit(X[::-1], y[::-1])  # the data never trains it
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    with pytest.raises(ValueError, match="partial_fit and warm_start"):
        model.partial_fit(X, y)
    # Module parameters that do not give the file's architecture: the fix.
    with pytest.raises(ValueError, match=r"Pass module__layout='code', "
                       r"module__n_neurons=8, module__n_hidden_layers=2, "
                       r"module__batch_norm=True"):
        BEExAIMLPClassifier(pretrained=path).fit(X, y)
    with pytest.raises(ValueError, match="maps 6 features to 3 classes; X has 5"):
        BEExAIMLPClassifier(pretrained=path, **module).fit(X[:, :5], y)
    with pytest.raises(ValueError, match="changed since the configuration"):
        BEExAIMLPClassifier(pretrained=path, pretrained_sha256="0" * 64, **module).fit(X, y)
    reg, _ = files["reg.pt"]
    with pytest.raises(ValueError, match="load it with BEExAIMLPRegressor"):
        BEExAIMLPClassifier(pretrained=reg).fit(X[:, :5], y)
    with pytest.raises(ValueError, match="maps 5 features to 1 outputs; X has 5 features "
                                         "and y 2 outputs"):
        BEExAIMLPRegressor(pretrained=reg, module__layout="code", module__n_neurons=6,
                           module__n_hidden_layers=1).fit(X[:, :5], np.zeros((12, 2)))
    # A BEExAI file is no OpenXAI checkpoint: the other reader refuses it.
    with pytest.raises(ValueError, match="'linear1.weight'"):
        MLPNetClassifier(pretrained=path).fit(X, y)


def test_loader_arguments_are_checked(files, tmp_path):
    clf, _ = files["clf.pt"]
    reg, _ = files["reg.pt"]
    assert load_beexai_model(clf, classes=["x", "y", "z"],
                             sha256=file_sha256(clf)).classes_.tolist() == ["x", "y", "z"]
    with pytest.raises(ValueError, match="classes must list one label per output"):
        load_beexai_model(clf, classes=[0, 1])
    with pytest.raises(ValueError, match="Pass task='regression'"):
        load_beexai_model(reg)
    with pytest.raises(ValueError, match="Pass task='classification'"):
        load_beexai_model(clf, task="regression")
    with pytest.raises(ValueError, match="task must be 'classification' or 'regression'"):
        load_beexai_model(clf, task="ranking")
    with pytest.raises(ValueError, match="pass classes=None"):
        load_beexai_model(reg, task="regression", classes=[0])
    with pytest.raises(FileNotFoundError, match="NeuralNetwork.pt"):
        read_beexai_state(tmp_path / "missing.pt")


def _saved(tmp_path, state, name="bad.pt"):
    torch.save(state, tmp_path / name)
    return tmp_path / name


def test_foreign_and_unsafe_files_are_refused(tmp_path):
    good = _beexai_state(3, 2, n_neurons=4, blocks=2)
    cases = [
        ({**good, "fc1.weight": torch.zeros(4, 3)}, "'fc1.weight'"),
        ({**good, "linear1.running_mean": torch.zeros(4)}, "'linear1.running_mean'"),
        ({k: v for k, v in good.items() if not k.startswith("hidden_blocks.0.")},
         r"numbered \[1\]"),
        ({k: v for k, v in good.items() if not k.startswith("hidden_blocks.")},
         "no hidden block"),
        ({k: v for k, v in good.items() if k != "linear3.bias"}, "linear3 lacks"),
        ({**good, "hidden_blocks.1.linear.weight": torch.zeros(4, 5)},
         r"hidden_blocks.1.linear has weight \(4, 5\)"),
        ({**good, "linear3.bias": torch.zeros(3)}, r"linear3 has weight \(2, 4\) and bias"),
        ({k: v for k, v in good.items() if not k.startswith("bn2.")},
         "has all of"),
        ({k: v for k, v in good.items() if k != "bn1.running_var"}, "a BatchNorm layer has"),
        ({**good, "bn1.running_mean": torch.zeros(5)}, r"bn1.running_mean has the shape"),
        ({**good, "linear1.weight": torch.zeros(4, 3, dtype=torch.int32)},
         "not floating point"),
    ]
    for state, message in cases:
        with pytest.raises(ValueError, match=message):
            read_beexai_state(_saved(tmp_path, state))
    # A pickle that would run code when unpickled: weights_only refuses it
    # and nothing runs.
    marker = tmp_path / "ran"

    class Boom:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    with pytest.raises(ValueError, match="not a weights-only"):
        read_beexai_state(_saved(tmp_path, {"linear1.weight": Boom()}))
    assert not marker.exists()
    with pytest.raises(ValueError, match="state dictionary"):
        read_beexai_state(_saved(tmp_path, [torch.zeros(2)]))


def test_reading_leaves_torch_random_state_alone(files):
    path, _ = files["clf.pt"]
    before = torch.random.get_rng_state()
    state, params = read_beexai_state(path)
    assert torch.equal(torch.random.get_rng_state(), before)
    BEExAIMLP(**params).load_state_dict(state)  # the names are the module's


# ---------------------------------------------------------------------------
# Side by side with BEExAI's own classes (its source is not installable
# without its heavy dependencies; its models.py is loaded alone).
# ---------------------------------------------------------------------------
def _beexai_source(relative, binary=False):
    """A file of BEExAI's repository: from a checkout or a git directory."""
    if os.path.isfile(os.path.join(BEEXAI_REPO, relative)):
        with open(os.path.join(BEEXAI_REPO, relative), "rb") as f:
            data = f.read()
    else:
        data = subprocess.run(["git", "--git-dir", BEEXAI_REPO, "show", f"HEAD:{relative}"],
                              capture_output=True, check=True).stdout
    return data if binary else data.decode()


@pytest.fixture
def beexai(monkeypatch, tmp_path):
    """BEExAI's ``training/models.py`` with the imports its classes do not
    use at prediction time stubbed (plots, progress bars)."""
    if not BEEXAI_REPO or not os.path.isdir(BEEXAI_REPO):
        pytest.skip("BEExAI is a peer, not a dependency: set SKLEARN_XAI_BEEXAI_REPO to a "
                    "checkout of https://github.com/SquareResearchCenter-AI/BEExAI to run "
                    "the side-by-side check; the written-out forward checks the same "
                    "values everywhere")
    # A repository that is named but unreadable fails the test (no skip).
    source = _beexai_source("src/beexai/training/models.py")
    convert = types.ModuleType("beexai.utils.convert")
    convert.convert_to_tensor = lambda x: torch.as_tensor(np.asarray(x))
    stubs = {"beexai": types.ModuleType("beexai"),
             "beexai.utils": types.ModuleType("beexai.utils"),
             "beexai.utils.convert": convert,
             "tqdm": types.ModuleType("tqdm"),
             "matplotlib.pyplot": types.ModuleType("matplotlib.pyplot")}
    for name, module in stubs.items():
        monkeypatch.setitem(sys.modules, name, module)
    if importlib.util.find_spec("matplotlib") is None:
        monkeypatch.setitem(sys.modules, "matplotlib", types.ModuleType("matplotlib"))
    file = tmp_path / "beexai_models.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location("beexai_models_under_test", file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _theirs(beexai, path, task, params):
    net = beexai.NNModel(params["n_features"], params["n_outputs"], task,
                         n_neurons=params["n_neurons"], batch_norm=params["batch_norm"],
                         n_hidden_layers=params["n_hidden_layers"])
    net.load_state_dict(torch.load(path, weights_only=True))  # BEExAI's load_model
    return net.eval()


def _compare(beexai, path, task, n_rows=40):
    _, params = read_beexai_state(path)
    ours = load_beexai_model(path, task=task)
    theirs = _theirs(beexai, path, task, params)
    X = np.random.default_rng(5).normal(scale=1.5, size=(n_rows, params["n_features"]))
    if task == "classification":
        np.testing.assert_allclose(ours.predict_proba(X),
                                   theirs.predict_proba(X).numpy(), rtol=1e-5, atol=1e-6)
        assert ours.predict(X).tolist() == theirs.predict(X).tolist()
    else:
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X).numpy()[:, 0],
                                   rtol=1e-5, atol=1e-5)
    return params


def test_side_by_side_with_beexai_classes(beexai, tmp_path):
    # Files BEExAI itself saved: trained in train mode (the BatchNorm
    # statistics move), and with batch_norm=False.
    for name, task, d, o, bn in [("clf.pt", "classification", 5, 3, True),
                                 ("reg.pt", "regression", 4, 1, True),
                                 ("clf_no_bn.pt", "classification", 4, 2, False)]:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            net = beexai.NeuralNetwork(d, o, task, n_neurons=6, batch_norm=bn,
                                       n_hidden_layers=2)
            net.train()
            net(torch.randn(16, d) * 3 + 1)  # moves the running statistics
        torch.save(net.state_dict(), tmp_path / name)
        params = _compare(beexai, tmp_path / name, task)
        assert params["batch_norm"] is bn


@pytest.mark.parametrize("dataset, task, d, o", [("boston", "regression", 13, 1),
                                                 ("kickstarter", "classification", 20, 4)])
def test_beexai_released_networks(beexai, tmp_path, dataset, task, d, o):
    path = tmp_path / f"{dataset}.pt"
    path.write_bytes(_beexai_source(f"output/models/{dataset}/NeuralNetwork.pt",
                                    binary=True))
    params = _compare(beexai, path, task, n_rows=200)
    assert params == {"n_features": d, "n_outputs": o, "n_neurons": 32,
                      "n_hidden_layers": 1, "batch_norm": True, "layout": "code"}
