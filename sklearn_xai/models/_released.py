"""Published models: OpenXAI's released checkpoints as our estimators.

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

from sklearn_xai.utils._files import file_sha256

__all__ = ["load_openxai_model", "openxai_checkpoint_name", "read_openxai_state"]

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
    import torch

    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"No OpenXAI checkpoint at {path!r}: download OpenXAI's released "
            "'lr_<dataset>.pt' / 'ann_<dataset>.pt' (its LoadModel's files) and "
            "name the file.")
    size = os.path.getsize(path)
    if size > MAX_CHECKPOINT_BYTES:
        raise ValueError(
            f"{path!r} is {size} bytes, more than an OpenXAI checkpoint can be "
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
    return _map_openxai_state(raw, path)


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
