"""Published models: OpenXAI's released checkpoints and BEExAI's saved
networks as our estimators.

OpenXAI [1]_ releases the logistic regression and the neural network it
trained on each data set as PyTorch state dictionaries (``lr_<name>.pt``,
``ann_<name>.pt``; its ``openxai/model.py`` ``LoadModel``).  Nothing is
downloaded here: the user names the file.  The file is read with
``torch.load(weights_only=True)``, which unpickles tensors and plain
containers only (no code runs), after bounding its size; the state's keys
and shapes are checked against OpenXAI's two architectures before the
weights are copied into :class:`~sklearn_xai.models.LogisticNet` /
:class:`~sklearn_xai.models.OpenXAIANN`, so the estimator's
``predict_proba`` is OpenXAI's ``forward`` (softmax of the last layer).

BEExAI's networks (``torch.save(model.state_dict())`` of its
``NeuralNetwork``) are read the same way by :func:`read_beexai_state` and
load into :class:`~sklearn_xai.models.BEExAIMLPClassifier` /
:class:`~sklearn_xai.models.BEExAIMLPRegressor` (``module__layout="code"``).
The estimators' ``pretrained=`` parameter is one mechanism
(``_NetMixin``): each class reads its own format.

References
----------
.. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
   Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022;
   code: ``openxai/model.py``, ``LoadModel``, ``LogisticRegression``,
   ``ArtificialNeuralNetwork``.
"""

import os
import re

import numpy as np

from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._files import file_sha256

__all__ = [
    "load_beexai_model",
    "load_openxai_model",
    "openxai_checkpoint_name",
    "read_beexai_state",
    "read_openxai_state",
]

#: Largest checkpoint read (bytes).  OpenXAI's largest released network
#: (d -> 100 -> 100 -> 2 on HELOC's 23 features) is about 50 KB; the bound
#: leaves room for wider user checkpoints in the same format.
MAX_CHECKPOINT_BYTES = 64 * 2**20

_NETWORK_KEY = re.compile(r"network\.(\d+)\.(weight|bias)")


def openxai_checkpoint_name(model, dataset):
    """File name of an OpenXAI checkpoint: ``"<model>_<dataset>.pt"``.

    Parameters
    ----------
    model : {"lr", "ann"}
        OpenXAI's model abbreviation.
    dataset : str
        OpenXAI's data set name (``"adult"``, ``"compas"``, ``"german"``,
        ``"heloc"``, ``"gaussian"`` for its synthetic data, ...).

    Returns
    -------
    name : str

    Examples
    --------
    >>> from sklearn_xai.models import openxai_checkpoint_name
    >>> openxai_checkpoint_name("ann", "adult")
    'ann_adult.pt'
    """
    if model not in ("lr", "ann"):
        raise ValueError(f"model must be 'lr' or 'ann' (OpenXAI's names); got {model!r}.")
    if not isinstance(dataset, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", dataset):
        raise ValueError(
            f"dataset must be an OpenXAI data set name such as 'adult'; got {dataset!r}.")
    return f"{model}_{dataset}.pt"


def read_openxai_state(path, *, sha256=None):
    """Read and check an OpenXAI checkpoint.

    Parameters
    ----------
    path : str or path-like
        A state dictionary saved by OpenXAI (``torch.save(model.state_dict())``).
    sha256 : str or None, default=None
        Expected SHA-256 digest of the file; a file whose digest differs is
        refused (a benchmark preset records it, so a replaced file cannot
        be mixed with cached results of the old one).

    Returns
    -------
    kind : {"lr", "ann"}
        OpenXAI's architecture.
    state : dict of str to torch.Tensor
        The weights under the names of :class:`~sklearn_xai.models.LogisticNet`
        (``linear.*``) or :class:`~sklearn_xai.models.OpenXAIANN`
        (``layers.<i>.*``), as float32 tensors.
    sizes : list of int
        Layer widths ``[n_features, *hidden_layer_sizes, n_outputs]``.

    Raises
    ------
    FileNotFoundError
        When ``path`` is not a regular file.
    ValueError
        When the file is too large, its digest differs from ``sha256``, it
        is not a weights-only state dictionary, or its keys and shapes are
        not those of OpenXAI's ``LogisticRegression`` or
        ``ArtificialNeuralNetwork``.

    Examples
    --------
    >>> import os, tempfile, torch
    >>> from sklearn_xai.models import read_openxai_state
    >>> path = os.path.join(tempfile.mkdtemp(), "lr_toy.pt")
    >>> torch.save({"linear.weight": torch.zeros(2, 3),
    ...             "linear.bias": torch.zeros(2)}, path)
    >>> kind, state, sizes = read_openxai_state(path)
    >>> kind, sorted(state), sizes
    ('lr', ['linear.bias', 'linear.weight'], [3, 2])
    """
    raw, path = _read_state_dict(
        path, sha256,
        missing="No OpenXAI checkpoint at {path!r}: download OpenXAI's released "
                "'lr_<dataset>.pt' / 'ann_<dataset>.pt' (its LoadModel's files) and "
                "name the file.")
    return _map_openxai_state(raw, path)


def _read_state_dict(path, sha256, *, missing):
    """The state dictionary in the file ``path``: size bound, digest check,
    weights-only unpickling, a non-empty dict of tensors.  ``missing`` is the
    message (formatted with ``path``) of a path that is not a file."""
    import torch

    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(missing.format(path=path))
    size = os.path.getsize(path)
    if size > MAX_CHECKPOINT_BYTES:
        raise ValueError(
            f"{path!r} is {size} bytes, more than a published model's weights can be "
            f"(the bound is {MAX_CHECKPOINT_BYTES} bytes).")
    if sha256 is not None:
        digest = file_sha256(path)
        if digest != str(sha256).lower():
            raise ValueError(
                f"{path!r} has SHA-256 {digest}, not the recorded {sha256}: the file "
                "changed since the configuration was written; rebuild it (e.g. call "
                "the preset again) to use the new file.")
    try:
        raw = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is refused
        raise ValueError(
            f"{path!r} is not a weights-only PyTorch state dictionary "
            f"({type(exc).__name__}: {str(exc)[:200]}).") from None
    if not isinstance(raw, dict) or not raw or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in raw.items()):
        raise ValueError(f"{path!r} does not hold a state dictionary of tensors.")
    return raw, path


def _map_openxai_state(raw, path):
    import torch

    state = {k: v.detach().to(torch.float32) for k, v in raw.items()}
    if set(state) == {"linear.weight", "linear.bias"}:
        W, b = state["linear.weight"], state["linear.bias"]
        if W.ndim != 2 or b.shape != (W.shape[0],):
            raise ValueError(f"{path!r}: linear.weight {tuple(W.shape)} and linear.bias "
                             f"{tuple(b.shape)} do not form a linear layer.")
        return "lr", state, [int(W.shape[1]), int(W.shape[0])]
    layers = {}
    for key in state:
        match = _NETWORK_KEY.fullmatch(key)
        if match is None:
            raise ValueError(
                f"{path!r} has the key {key!r}, which neither OpenXAI's "
                "LogisticRegression ('linear.weight', 'linear.bias') nor its "
                "ArtificialNeuralNetwork ('network.<i>.weight', 'network.<i>.bias') "
                "has.")
        layers.setdefault(int(match.group(1)), {})[match.group(2)] = state[key]
    indices = sorted(layers)
    # OpenXAI's network is Linear, activation, Linear, ..., Linear: the
    # linear layers sit at the even indices 0, 2, ..., 2L.
    if indices != list(range(0, 2 * len(indices), 2)) or len(indices) < 2:
        raise ValueError(
            f"{path!r}: the linear layers are at network indices {indices}; OpenXAI's "
            "ArtificialNeuralNetwork has them at 0, 2, 4, ... (at least two).")
    sizes, mapped = None, {}
    for i in indices:
        pair = layers[i]
        if set(pair) != {"weight", "bias"}:
            raise ValueError(f"{path!r}: network.{i} lacks a weight or a bias.")
        W, b = pair["weight"], pair["bias"]
        if W.ndim != 2 or b.shape != (W.shape[0],):
            raise ValueError(f"{path!r}: network.{i} is not a linear layer.")
        if sizes is None:
            sizes = [int(W.shape[1])]
        elif W.shape[1] != sizes[-1]:
            raise ValueError(
                f"{path!r}: network.{i} takes {W.shape[1]} inputs after a layer of "
                f"{sizes[-1]} units.")
        sizes.append(int(W.shape[0]))
        mapped[f"layers.{i}.weight"], mapped[f"layers.{i}.bias"] = W, b
    return "ann", mapped, sizes


def load_openxai_model(path, *, classes=(0, 1), sha256=None):
    """A fitted estimator holding an OpenXAI released model.

    The checkpoint's architecture decides the estimator:
    :class:`~sklearn_xai.models.LogisticNetClassifier` for OpenXAI's
    logistic regression, :class:`~sklearn_xai.models.MLPNetClassifier`
    (hidden layer sizes from the file) for its neural network, each with
    ``pretrained=path``; its ``predict_proba`` equals OpenXAI's model's
    ``forward`` on the same (OpenXAI-scaled) inputs.  The estimator is
    fitted already (``fit`` would load the same file again: it never
    trains); give it to explainers as any fitted model, in
    :class:`sklearn.frozen.FrozenEstimator`.

    Parameters
    ----------
    path : str or path-like
        OpenXAI's ``lr_<dataset>.pt`` or ``ann_<dataset>.pt``.
    classes : array-like, default=(0, 1)
        Labels of the output columns, in order (OpenXAI's column 1 is the
        positive class, label 1).
    sha256 : str or None, default=None
        Expected digest of the file (see :func:`read_openxai_state`).

    Returns
    -------
    model : LogisticNetClassifier or MLPNetClassifier
        Fitted.

    See Also
    --------
    read_openxai_state : The checked weights.

    References
    ----------
    .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

    Examples
    --------
    >>> import os, tempfile, torch
    >>> from sklearn_xai.models import load_openxai_model
    >>> path = os.path.join(tempfile.mkdtemp(), "lr_toy.pt")
    >>> torch.save({"linear.weight": torch.tensor([[0.0, 0.0], [1.0, -1.0]]),
    ...             "linear.bias": torch.zeros(2)}, path)
    >>> model = load_openxai_model(path)
    >>> model.predict([[2.0, 0.0], [0.0, 2.0]]).tolist()
    [1, 0]
    """
    from sklearn_xai.models._estimators import LogisticNetClassifier, MLPNetClassifier

    kind, _, sizes = read_openxai_state(path, sha256=sha256)
    classes = np.asarray(classes)
    if classes.ndim != 1 or len(classes) != sizes[-1]:
        raise ValueError(
            f"classes must list one label per output of the checkpoint ({sizes[-1]}); "
            f"got {classes.tolist()!r}.")
    if kind == "lr":
        model = LogisticNetClassifier(pretrained=path, pretrained_sha256=sha256)
    else:
        model = MLPNetClassifier(pretrained=path, pretrained_sha256=sha256,
                                 module__hidden_layer_sizes=tuple(sizes[1:-1]))
    # fit reads the file; the rows only carry n_features and the labels.
    return model.fit(np.zeros((len(classes), sizes[0]), dtype=np.float32), classes)


# --------------------------------------------------------------------------
# BEExAI's saved networks
# --------------------------------------------------------------------------
#: A key of BEExAI's ``NeuralNetwork`` state: its layer, then the entry.
_BEEXAI_KEY = re.compile(
    r"(linear1|linear3|bn1|bn2|hidden_blocks\.(\d+)\.(?:linear|bn))\."
    r"(weight|bias|running_mean|running_var|num_batches_tracked)")
_BN_ENTRIES = ("weight", "bias", "running_mean", "running_var", "num_batches_tracked")


@Substitution(beexai_references=references("sithakoul2024"))
def read_beexai_state(path, *, sha256=None):
    """Read and check a network saved by BEExAI.

    BEExAI [1]_ saves its ``NeuralNetwork`` with
    ``torch.save(model.state_dict(), path)`` (its ``Trainer.save_model``;
    its repository ships ``output/models/<dataset>/NeuralNetwork.pt``).
    The network is ``relu(linear1)``, ``bn1``, dropout, then
    ``n_hidden_layers`` blocks ``relu(linear)``, ``bn``, dropout, then
    ``bn2``, dropout and ``linear3`` (followed by a softmax for
    classification), which is :class:`~sklearn_xai.models.BEExAIMLP` with
    ``layout="code"``.  Its sizes are read from the keys and shapes; the
    BatchNorm running statistics are kept.  BEExAI builds the BatchNorm
    layers even with ``batch_norm=False`` and then leaves them at their
    initial values (never run in training mode): a file whose BatchNorm
    layers all hold those values (or that has none) is read as
    ``batch_norm=False``.  (Were such layers applied, they would scale by
    ``1 / sqrt(1 + 1e-5)``, so both readings agree to 5e-6.)

    Parameters
    ----------
    path : str or path-like
        The ``.pt`` file.  Read with ``torch.load(weights_only=True)`` after
        its size is bounded: no code runs.
    sha256 : str or None, default=None
        Expected SHA-256 digest of the file; a file whose digest differs is
        refused.

    Returns
    -------
    state : dict of str to torch.Tensor
        The weights (float32) and BatchNorm statistics under the names of
        ``BEExAIMLP(**params)``.
    params : dict
        The architecture as :class:`~sklearn_xai.models.BEExAIMLP`'s
        parameters: ``n_features``, ``n_outputs`` (1 for BEExAI's
        regression), ``n_neurons``, ``n_hidden_layers`` (BEExAI's number of
        hidden blocks), ``batch_norm`` and ``layout="code"``.

    Raises
    ------
    FileNotFoundError
        When ``path`` is not a regular file.
    ValueError
        When the file is too large, its digest differs from ``sha256``, it
        is not a weights-only state dictionary, or its keys and shapes are
        not those of BEExAI's ``NeuralNetwork``.

    See Also
    --------
    load_beexai_model : The file as a fitted estimator.

    {beexai_references}

    Examples
    --------
    >>> import os, tempfile, torch
    >>> from sklearn_xai.models import BEExAIMLP, read_beexai_state
    >>> n, d = 4, 3
    >>> saved = {"linear1.weight": torch.zeros(n, d), "linear1.bias": torch.zeros(n),
    ...          "hidden_blocks.0.linear.weight": torch.zeros(n, n),
    ...          "hidden_blocks.0.linear.bias": torch.zeros(n),
    ...          "linear3.weight": torch.zeros(2, n), "linear3.bias": torch.zeros(2)}
    >>> path = os.path.join(tempfile.mkdtemp(), "NeuralNetwork.pt")
    >>> torch.save(saved, path)
    >>> state, params = read_beexai_state(path)
    >>> params
    {'n_features': 3, 'n_outputs': 2, 'n_neurons': 4, 'n_hidden_layers': 1, 'batch_norm': False, 'layout': 'code'}
    >>> _ = BEExAIMLP(**params).load_state_dict(state)
    """
    raw, path = _read_state_dict(
        path, sha256,
        missing="No BEExAI network at {path!r}: name a file BEExAI saved "
                "(its output/models/<dataset>/NeuralNetwork.pt).")
    return _map_beexai_state(raw, path)


def _map_beexai_state(raw, path):
    import torch
    from torch import nn

    from sklearn_xai.models._modules import BEExAIMLP

    layers = {}
    for key, value in raw.items():
        match = _BEEXAI_KEY.fullmatch(key)
        is_norm = match is not None and match.group(1).split(".")[-1].startswith("bn")
        if match is None or (not is_norm and match.group(3) not in ("weight", "bias")):
            raise ValueError(
                f"{path!r} has the key {key!r}, which BEExAI's NeuralNetwork "
                "('linear1', 'bn1', 'hidden_blocks.<i>.linear', 'hidden_blocks.<i>.bn', "
                "'bn2', 'linear3') does not have.")
        layers.setdefault(match.group(1), {})[match.group(3)] = value
    blocks = sorted({int(name.split(".")[1]) for name in layers
                     if name.startswith("hidden_blocks.")})
    if blocks != list(range(len(blocks))):
        raise ValueError(f"{path!r}: the hidden blocks are numbered {blocks}; BEExAI "
                         "numbers them 0, 1, 2, ...")
    if not blocks:
        raise ValueError(
            f"{path!r} has no hidden block (BEExAI's n_hidden_layers=0), which "
            "BEExAIMLP cannot hold (n_hidden_layers >= 1).")
    linears = ["linear1", *(f"hidden_blocks.{i}.linear" for i in blocks), "linear3"]
    norms = ["bn1", *(f"hidden_blocks.{i}.bn" for i in blocks), "bn2"]
    for name in linears:
        entries = layers.get(name, {})
        if set(entries) != {"weight", "bias"}:
            raise ValueError(f"{path!r}: {name} lacks a weight or a bias "
                             f"(has {sorted(entries)}).")
    W1 = layers["linear1"]["weight"]
    if W1.ndim != 2:
        raise ValueError(f"{path!r}: linear1.weight {tuple(W1.shape)} is not a matrix.")
    n_neurons, n_features = (int(s) for s in W1.shape)
    n_outputs = int(layers["linear3"]["weight"].shape[0])
    expected = {"linear1": (n_neurons, n_features), "linear3": (n_outputs, n_neurons),
                **{name: (n_neurons, n_neurons) for name in linears[1:-1]}}
    for name in linears:
        W, b = layers[name]["weight"], layers[name]["bias"]
        if tuple(W.shape) != expected[name] or tuple(b.shape) != expected[name][:1]:
            raise ValueError(
                f"{path!r}: {name} has weight {tuple(W.shape)} and bias "
                f"{tuple(b.shape)}; after linear1's {n_neurons} units BEExAI's "
                f"network needs weight {expected[name]} and bias {expected[name][:1]}.")
    present = [name for name in norms if name in layers]
    if present and present != norms:
        raise ValueError(f"{path!r} has the BatchNorm layers {present}; BEExAI's "
                         f"network has all of {norms} or (edited) none.")
    for name in present:
        entries = layers[name]
        if set(entries) != set(_BN_ENTRIES):
            raise ValueError(f"{path!r}: {name} has {sorted(entries)}; a BatchNorm "
                             f"layer has {list(_BN_ENTRIES)}.")
        for entry in _BN_ENTRIES:
            shape = () if entry == "num_batches_tracked" else (n_neurons,)
            if tuple(entries[entry].shape) != shape:
                raise ValueError(f"{path!r}: {name}.{entry} has the shape "
                                 f"{tuple(entries[entry].shape)}, not {shape}.")
    for name, entries in layers.items():
        for entry, value in entries.items():
            if entry != "num_batches_tracked" and not value.is_floating_point():
                raise ValueError(f"{path!r}: {name}.{entry} is {value.dtype}, not "
                                 "floating point.")
    batch_norm = any(not _initial_norm(layers[name]) for name in present)
    params = {"n_features": n_features, "n_outputs": n_outputs, "n_neurons": n_neurons,
              "n_hidden_layers": len(blocks), "batch_norm": batch_norm,
              "layout": "code"}
    # Our names, from the module itself: its Linear and BatchNorm layers in
    # order are BEExAI's ``linears`` and ``norms`` (built on a forked
    # generator: reading a file leaves torch's random state alone).
    with torch.random.fork_rng(devices=[]):
        ours = BEExAIMLP(**params)
    state = {}
    mine = [n for n, m in ours.named_modules() if isinstance(m, nn.Linear)]
    for theirs, our_name in zip(linears, mine):
        for entry in ("weight", "bias"):
            state[f"{our_name}.{entry}"] = layers[theirs][entry].detach().to(torch.float32)
    if batch_norm:
        mine = [n for n, m in ours.named_modules() if isinstance(m, nn.BatchNorm1d)]
        for theirs, our_name in zip(norms, mine):
            for entry in _BN_ENTRIES:
                value = layers[theirs][entry].detach()
                state[f"{our_name}.{entry}"] = (
                    value.to(torch.int64) if entry == "num_batches_tracked"
                    else value.to(torch.float32))
    return state, params


def _initial_norm(entries):
    """Whether a BatchNorm layer holds its initial values (never trained)."""
    return (int(entries["num_batches_tracked"]) == 0
            and bool((entries["running_mean"] == 0).all())
            and bool((entries["running_var"] == 1).all())
            and bool((entries["weight"] == 1).all())
            and bool((entries["bias"] == 0).all()))


@Substitution(beexai_references=references("sithakoul2024"))
def load_beexai_model(path, *, task="classification", classes=None, sha256=None):
    """A fitted estimator holding a network saved by BEExAI.

    A :class:`~sklearn_xai.models.BEExAIMLPClassifier` or
    :class:`~sklearn_xai.models.BEExAIMLPRegressor` with ``pretrained=path``
    and the file's architecture (``module__layout="code"``, its
    ``n_neurons``, ``n_hidden_layers`` and ``batch_norm``; see
    :func:`read_beexai_state`).  In eval mode it computes BEExAI's
    ``NeuralNetwork.forward``: ``predict_proba`` is the softmax BEExAI's
    classification network returns (its ``NNModel.predict_proba``),
    ``predict`` the label of its argmax (BEExAI's ``predict`` returns the
    argmax index: the labels here are ``classes``), and a regressor's
    ``predict`` is BEExAI's one output, as a 1-D array.  The estimator is
    fitted already (``fit`` would load the same file again: it never
    trains); give it to explainers in :class:`sklearn.frozen.FrozenEstimator`.
    The inputs must be preprocessed as BEExAI preprocessed the training
    data.

    Parameters
    ----------
    path : str or path-like
        BEExAI's ``NeuralNetwork.pt``.
    task : {"classification", "regression"}, default="classification"
        BEExAI's task of the network (one output: regression).
    classes : array-like or None, default=None
        Classification: the labels of the output columns, in order.  None:
        ``0, 1, ..., K - 1``, BEExAI's label-encoded targets.  Must be None
        for regression.
    sha256 : str or None, default=None
        Expected digest of the file (see :func:`read_beexai_state`).

    Returns
    -------
    model : BEExAIMLPClassifier or BEExAIMLPRegressor
        Fitted.

    See Also
    --------
    read_beexai_state : The checked weights and architecture.

    {beexai_references}

    Examples
    --------
    >>> import os, tempfile, torch
    >>> from sklearn_xai.models import load_beexai_model
    >>> n = 4
    >>> saved = {"linear1.weight": torch.ones(n, 2), "linear1.bias": torch.zeros(n),
    ...          "hidden_blocks.0.linear.weight": torch.eye(n),
    ...          "hidden_blocks.0.linear.bias": torch.zeros(n),
    ...          "linear3.weight": torch.ones(1, n), "linear3.bias": torch.zeros(1)}
    >>> path = os.path.join(tempfile.mkdtemp(), "NeuralNetwork.pt")
    >>> torch.save(saved, path)
    >>> model = load_beexai_model(path, task="regression")
    >>> model.predict([[1.0, 2.0], [-1.0, -2.0]]).tolist()
    [12.0, 0.0]
    """
    from sklearn_xai.models._estimators import BEExAIMLPClassifier, BEExAIMLPRegressor

    if task not in ("classification", "regression"):
        raise ValueError(
            f"task must be 'classification' or 'regression' (BEExAI's tasks); got "
            f"{task!r}.")
    _, params = read_beexai_state(path, sha256=sha256)
    n_outputs = params["n_outputs"]
    module = {f"module__{k}": params[k]
              for k in ("layout", "n_neurons", "n_hidden_layers", "batch_norm")}
    X = np.zeros((max(n_outputs, 2), params["n_features"]), dtype=np.float32)
    if task == "regression":
        if classes is not None:
            raise ValueError("classes labels a classifier's outputs; pass classes=None "
                             "with task='regression'.")
        if n_outputs != 1:
            raise ValueError(
                f"{os.fspath(path)!r} has {n_outputs} outputs; BEExAI's regression "
                "network has one. Pass task='classification'.")
        model = BEExAIMLPRegressor(pretrained=path, pretrained_sha256=sha256, **module)
        return model.fit(X, np.zeros(len(X)))
    if n_outputs == 1:
        raise ValueError(
            f"{os.fspath(path)!r} has one output: BEExAI's regression network (its "
            "classification softmax over one column is constant). Pass "
            "task='regression'.")
    classes = np.arange(n_outputs) if classes is None else np.asarray(classes)
    if classes.ndim != 1 or len(classes) != n_outputs:
        raise ValueError(
            f"classes must list one label per output of the network ({n_outputs}); "
            f"got {classes.tolist()!r}.")
    model = BEExAIMLPClassifier(pretrained=path, pretrained_sha256=sha256, **module)
    # fit reads the file; the rows only carry n_features and the labels.
    return model.fit(X[:n_outputs], classes)
