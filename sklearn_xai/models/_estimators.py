"""scikit-learn estimators for the seed benchmarks' networks (skorch nets).

The classes subclass :class:`skorch.NeuralNetClassifier` and
:class:`skorch.NeuralNetRegressor`, so everything skorch offers works
(``module__*``, ``optimizer__*``, ``callbacks``, ``warm_start``,
``get_params`` / ``set_params`` / ``clone``, pipelines and grid searches), with
the additions a scikit-learn user expects:

* ``X`` is validated like any scikit-learn input (NaN, shape, number of
  features, feature names) and cast to float32 inside, so float64 numpy
  arrays and DataFrames work in ``fit``, ``predict`` and ``predict_proba``;
* classifiers accept arbitrary labels (strings, non-contiguous ints):
  ``classes_`` holds them and ``predict`` returns them;
* regressors take a 1-D or 2-D ``y`` (cast to float32 of shape (n, n_outputs))
  and return a 1-D prediction for a single output;
* the module's input and output sizes are taken from the data (``module__``
  parameters override them);
* early stopping on a validation split (``early_stopping``,
  ``validation_fraction``, ``n_iter_no_change``, ``tol``), keeping the
  weights of the best validation loss;
* ``random_state`` makes a fit reproducible (weights, shuffling, dropout and
  validation split) without touching torch's global random state;
* ``verbose=0`` by default.

Modules return logits; ``predict_proba`` applies the softmax (skorch's
``predict_nonlinearity`` for :class:`torch.nn.CrossEntropyLoss`) and
``decision_function`` returns the logits (binary: ``z_1 - z_0``).
"""

import numbers
import os
import threading
import warnings
from contextlib import contextmanager

import numpy as np
import torch
from sklearn.base import is_classifier
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data
from skorch import NeuralNet, NeuralNetClassifier, NeuralNetRegressor
from skorch.callbacks import Callback, EarlyStopping, EpochScoring
from skorch.dataset import ValidSplit
from skorch.utils import data_from_dataset, is_dataset, to_device
from torch import nn

from sklearn_xai.models._modules import (
    BEExAIMLP,
    LogisticNet,
    OpenXAIANN,
    TetrominoCNN,
    TetrominoMLP,
)
from sklearn_xai.models._vision import SmallResNet, SmallViT
from sklearn_xai.utils._device import resolve_device
from sklearn_xai.utils._docstring import Substitution, join_fragments
from sklearn_xai.utils._output import class_index
from sklearn_xai.utils._sklearn import (
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_parameter_constraints,
)

__all__ = [
    "BEExAIMLPClassifier",
    "BEExAIMLPRegressor",
    "LogisticNetClassifier",
    "MLPNetClassifier",
    "TetrominoNetClassifier",
]

# Docstring fragments of the nets (see sklearn_xai.utils._docstring), which
# :func:`_net_doc` puts together: the training parameters (after each
# class's ``lr``, ``max_epochs`` and ``batch_size`` defaults), the
# attributes, and the sections of the OpenXAI nets.
# Guards the swap of a net's ``device`` setting in _NetMixin._on_device.
_DEVICE_SWAP = threading.Lock()

_NET_DOC = {
    "training": """
        early_stopping : bool, default=True
            Stop when the validation loss has not improved by ``tol`` for
            ``n_iter_no_change`` epochs, and restore the weights of the epoch
            with the lowest validation loss.  Needs a validation split.
        validation_fraction : float, default=0.1
            Fraction of the training rows held out for validation by
            ``train_split="auto"`` (stratified for classifiers).
        n_iter_no_change : int, default=10
            Patience of the early stopping, in epochs.
        tol : float, default=1e-4
            Minimum absolute decrease of the validation loss counted as an
            improvement.
        train_split : "auto", None or callable, default="auto"
            ``"auto"``: a :class:`skorch.dataset.ValidSplit` of
            ``validation_fraction`` seeded by ``random_state`` when
            ``early_stopping=True``, no split otherwise; ``None``: no split;
            a callable: skorch's meaning.
        random_state : int, RandomState instance or None, default=None
            Seeds weight initialisation, shuffling, dropout and the validation
            split.  torch's global random state is left untouched.
        verbose : int, default=0
            skorch's per-epoch log when positive.
        device : "auto", "cpu", "cuda", "cuda:N" or torch.device, default="cpu"
            Where the network trains and predicts (skorch's parameter).
            ``"auto"``: a CUDA GPU when torch sees one, else the CPU,
            resolved at ``fit`` (``device_``).  A GPU asked for on a machine
            without one is refused at ``fit`` with a ``ValueError``.
            ``set_params(device=...)`` on a fitted net moves its weights,
            criterion and optimizer state to the new device (a net trained
            on a GPU predicts on the CPU after ``set_params(device="cpu")``).
            A net pickled on a GPU loads on the CPU of a machine without one
            (skorch warns; ``"cuda"`` becomes the CPU, ``"auto"`` stays).
            See :ref:`gpu`.
        **kwargs
            Any other :class:`skorch.NeuralNet` parameter (``criterion``,
            ``optimizer``, ``callbacks``, ``warm_start``,
            ``iterator_train__*``, ``module__*``...).""",
    "net_attributes": """
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names.
        n_outputs_ : int
            Number of module outputs (classes, or regression outputs).
        module_ : torch.nn.Module
            The trained network.
        device_ : torch.device or None
            The device the network is on: ``device`` resolved (``"auto"``
            becomes ``cuda`` or ``cpu``); ``None`` when ``device=None``
            (skorch's "leave the modules where they are").
        history_ : skorch.History
        random_seed_ : int or None
            Seed of the last initialisation.""",
    "openxai_training": """
        convention : {"paper", "openxai_code"}, default="paper"
            ``"paper"``: cross-entropy on the logits, with early stopping
            (``early_stopping`` below).  ``"openxai_code"``: the training
            of OpenXAI's code [1]_, with two of its choices a new model
            should not copy: the
            class-weighted cross-entropy is applied to the *softmax outputs*
            (taken as if they were logits), and the weights kept are those of
            the epoch with the highest accuracy on ``selection_data`` -- in
            OpenXAI its **test set**, the rows on which the model is then
            evaluated and explained (a selection on test data) -- among the
            epochs after ``warmup`` whose share of predicted positives
            satisfies ``mean_prediction_bound``; the last epoch when no epoch
            qualifies.  All ``max_epochs`` epochs run (``early_stopping``
            has no effect) and an int ``random_state`` is torch's seed
            itself (OpenXAI's ``torch.manual_seed``).
        selection_data : tuple (X, y) or None, default=None
            Rows whose accuracy selects the kept epoch under
            ``convention="openxai_code"`` (OpenXAI: the test split).  None: a
            validation split of ``validation_fraction`` held out from the
            training rows (``train_split="auto"``).  Ignored under
            ``"paper"``.
        warmup : int, default=5
            Under ``"openxai_code"``, epochs ``1, ..., warmup + 1`` are never
            kept (OpenXAI's ``e > warmup`` on 0-based epochs).
        mean_prediction_bound : float in (0, 1) or None, default=None
            Under ``"openxai_code"`` (two classes), only epochs whose share of
            ``selection_data`` rows predicted as ``classes_[1]`` (probability
            at least 1/2) *exceeds* the bound, when it is at most 1/2, or
            *falls below* it, when it is above 1/2, are kept (OpenXAI's
            ``mean_prediction_bound``; 0.4 for its synthetic data).  None: no
            bound.""",
    "beexai_architecture": """
        Three hidden layers of 128 units, each ReLU → BatchNorm →
        Dropout(0.1), then a linear output.  BEExAI trains full-batch for 1000
        epochs at learning rate 1e-3 without validation; the defaults here use
        mini-batches and early stopping (set ``batch_size=-1, max_epochs=1000,
        early_stopping=False`` to mirror BEExAI, and ``module__layout="code"``
        for its code's layer layout).""",
}

# ``pretrained`` of the nets whose published weights can be loaded (the
# mechanism is _NetMixin's; each class reads its own file format).
_PRETRAINED_DOC = """
        pretrained : str, path-like or None, default=None
            {what}, read as by
            :func:`~sklearn_xai.models.{reader}` (no code runs):
            ``fit`` loads its weights instead of training (``X`` and ``y``
            only set ``n_features_in_`` and ``{labels}``, which must match
            the file) and ``partial_fit`` is refused.  Metrics that retrain
            clones (ROAR) then measure nothing: use trained models for them.
            See :func:`~sklearn_xai.models.{loader}`.
        pretrained_sha256 : str or None, default=None
            Expected SHA-256 digest of ``pretrained``; a different file is
            refused."""
_NET_DOC["openxai_pretrained"] = _PRETRAINED_DOC.format(
    what="OpenXAI's released checkpoint of this architecture\n"
         "            (``lr_<dataset>.pt`` / ``ann_<dataset>.pt``)",
    reader="read_openxai_state", labels="classes_", loader="load_openxai_model")
for _task, _labels in [("classifier", "classes_"), ("regressor", "n_outputs_")]:
    _NET_DOC[f"beexai_pretrained_{_task}"] = _PRETRAINED_DOC.format(
        what="A network saved by BEExAI (``torch.save(model.state_dict())`` of\n"
             "            its ``NeuralNetwork``, e.g. its\n"
             "            ``output/models/<dataset>/NeuralNetwork.pt``; the module\n"
             "            parameters must give the file's sizes, with\n"
             "            ``module__layout=\"code\"``)",
        reader="read_beexai_state", labels=_labels, loader="load_beexai_model")


def _net_doc(*names, params, training=()):
    """Substitution of the shared blocks of this module.

    Parameters
    ----------
    *names : str
        The blocks the docstring names besides ``net_params``: keys of
        :data:`_NET_DOC`, ``classifier_attributes``, ``net_attributes`` (a
        regressor's) or ``openxai_net_sections`` (the Attributes and
        References of the OpenXAI nets).
    params : tuple
        The class's defaults of ``lr``, ``max_epochs`` and ``batch_size``.
    training : tuple of str, default=()
        Keys of :data:`_NET_DOC` of the parameters listed between
        ``batch_size`` and the shared training parameters.

    Returns
    -------
    decorator : Substitution
    """
    lr, max_epochs, batch_size = params
    net_params = join_fragments(f"""
        lr : float, default={lr}
            Learning rate of the optimizer (Adam by default; ``optimizer=`` and
            ``optimizer__*`` as in skorch).
        max_epochs : int, default={max_epochs}
            Maximum number of epochs.
        batch_size : int, default={batch_size}
            Mini-batch size of the training (``-1``: the whole training set).""",
        *(_NET_DOC[name] for name in training), _NET_DOC["training"])
    net_attributes = join_fragments("Attributes\n----------",
                                    _NET_DOC["net_attributes"])
    classifier_attributes = join_fragments(
        "Attributes\n----------\nclasses_ : ndarray of shape (n_classes,)",
        _NET_DOC["net_attributes"])
    sections = {
        "net_attributes": net_attributes,
        "classifier_attributes": classifier_attributes,
        "openxai_net_sections": join_fragments(classifier_attributes, """
            selected_epoch_ : int
                Under ``convention="openxai_code"``: the 1-based number of the kept
                epoch.

            References
            ----------
            .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
               Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022;
               code: ``openxai/model.py``, ``train_model``."""),
    }
    return Substitution(net_params=net_params,
                        **{name: sections.get(name) or _NET_DOC[name]
                           for name in names})


def _noop(*args, **kwargs):
    """Silent sink of the early-stopping callback."""


def _encoded_accuracy(net, X, y):
    """Validation accuracy on the encoded labels skorch sees during training."""
    proba = net.predict_proba(X)
    y = np.asarray(y.cpu() if isinstance(y, torch.Tensor) else y).ravel()
    return float(np.mean(np.argmax(proba, axis=1) == y))


@contextmanager
def _torch_seed(seed):
    """Seed torch's CPU generator inside the block and restore it afterwards."""
    if seed is None:
        yield
        return
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield


#: Rows per forward pass when the nets predict (see ``forward_iter``).
PREDICT_BLOCK_ROWS = 8192


class _NetMixin:
    """Validation, seeding, sizes and early stopping shared by all nets.

    The parameters this package adds to skorch's are checked against
    ``_parameter_constraints`` at the start of ``fit`` (scikit-learn's
    ``InvalidParameterError``); skorch checks its own parameters (names,
    ``__`` prefixes) when it initializes the net.
    """

    _parameter_constraints: dict = {
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "train_split": [StrOptions({"auto"}), None, callable],
        "random_state": ["random_state"],
    }

    def _init_extra(self, train_split, early_stopping, validation_fraction,
                    n_iter_no_change, tol, random_state, kwargs):
        kwargs.setdefault("iterator_train__shuffle", True)
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        return train_split

    # ------------------------------------------------------------ checks
    def _check_training_params(self):
        # skorch's NeuralNet overrides BaseEstimator._validate_params with its
        # own check of argument names, so the constraints are checked here.
        validate_parameter_constraints(
            self._parameter_constraints, self.get_params(deep=False),
            caller_name=type(self).__name__,
        )

    def _validate_X(self, X):
        """Validated float32 input for prediction (skorch datasets pass through)."""
        if is_dataset(X):
            return X
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float32, reset=False)

    def forward_iter(self, X, training=False, device="cpu"):
        """Module outputs block by block (skorch's hook), without a DataLoader
        for arrays at prediction time.

        skorch feeds prediction through a ``DataLoader`` that fetches the
        rows one at a time and collates them into batches of the training
        ``batch_size``: 10-14x the cost of the forward passes themselves on
        the row counts explainers and metrics evaluate (20-feature nets,
        4,000 and 20,000 rows, ``benchmarks/bench_torch_models.py``,
        2026-11-27).  A validated array
        is sliced into blocks of at least :data:`PREDICT_BLOCK_ROWS` rows
        instead, each passed through skorch's own ``evaluation_step`` (eval
        mode, no gradients), so the outputs are those of the same module;
        only the float32 rounding of the block products may differ in the
        last bits.  Training, skorch datasets and other inputs take skorch's
        path unchanged.
        """
        if training or not isinstance(X, np.ndarray):
            yield from super().forward_iter(X, training=training, device=device)
            return
        X_tensor = torch.from_numpy(np.ascontiguousarray(X))
        step = max(PREDICT_BLOCK_ROWS, self.batch_size if self.batch_size > 0 else 1)
        target = self._run_device()
        for start in range(0, len(X_tensor), step):
            block = X_tensor[start:start + step]
            block = block if target is None else block.to(target)
            yield to_device(self.evaluation_step((block, None), training=False),
                            device=device)

    # ------------------------------------------------------------- devices
    # skorch reads ``self.device`` wherever it places a tensor or a module,
    # and takes it as a torch device name, so ``device="auto"`` would reach
    # torch as is.  The user's setting stays in ``device`` (get_params,
    # clone); the resolved device is ``device_``, set when the net is
    # initialized, and skorch's steps that place tensors run inside
    # :meth:`_on_device`, which shows them ``device_``.
    def _run_device(self):
        """The torch device the net runs on: ``device_``, else ``device`` resolved."""
        if "device_" in vars(self):
            return self.device_
        return None if self.device is None else resolve_device(self.device)

    @contextmanager
    def _on_device(self):
        """Inside the block ``self.device`` is the resolved device (skorch's
        steps read it), outside the user's setting; restored on error too.

        Threads may predict with one fitted net at once (the runner's
        threading backend shares a cell's model): the first block to enter
        swaps the setting, the last to leave restores it, counted under a
        lock, so no thread reads ``"auto"`` while another is inside.  The
        counter's name ends with ``_`` so that skorch does not take it for a
        parameter."""
        state = vars(self)
        with _DEVICE_SWAP:
            if not state.get("_device_users_", 0):
                setting = state.get("device")
                if setting is not None and not isinstance(setting, torch.device):
                    state["_device_setting_"] = setting
                    state["device"] = self._run_device()
            state["_device_users_"] = state.get("_device_users_", 0) + 1
        try:
            yield
        finally:
            with _DEVICE_SWAP:
                state["_device_users_"] -= 1
                if not state["_device_users_"] and "_device_setting_" in state:
                    state["device"] = state.pop("_device_setting_")

    def _move_to(self, device):
        """Move the fitted modules, criteria and optimizer state to ``device``.

        ``Module.to`` keeps the parameter objects on most moves (it swaps
        their data) but makes new ones on others (to the ``meta`` device,
        say): the optimizers' parameter groups are pointed at the moved
        parameters, then their state (Adam's moments...) is reloaded through
        ``load_state_dict``, which casts it to each parameter's device (and
        keeps scalar step counters where torch keeps them).
        """
        names = [n for n in self._modules + self._criteria
                 if isinstance(getattr(self, n + "_", None), nn.Module)]
        old = [p for n in names for p in getattr(self, n + "_").parameters()]
        optimizers = [(n, getattr(self, n + "_", None)) for n in self._optimizers]
        optimizers = [(n, opt) for n, opt in optimizers
                      if isinstance(opt, torch.optim.Optimizer)]
        states = {n: opt.state_dict() for n, opt in optimizers}
        for n in names:
            setattr(self, n + "_", getattr(self, n + "_").to(device))
        new = [p for n in names for p in getattr(self, n + "_").parameters()]
        moved = {id(o): p for o, p in zip(old, new)}
        for n, opt in optimizers:
            for group in opt.param_groups:
                group["params"] = [moved.get(id(p), p) for p in group["params"]]
            opt.load_state_dict(states[n])
        self.device_ = device

    def set_params(self, **params):
        """Set parameters (skorch's ``set_params``); a new ``device`` moves a
        fitted net.

        ``set_params(device=...)`` on an initialized net moves ``module_``,
        ``criterion_`` and the optimizer state to the device (``"auto"``,
        ``"cpu"``, ``"cuda"``, ``"cuda:N"``, a :class:`torch.device`),
        so a net trained on a GPU predicts on the CPU and back; a device
        torch does not see is refused before anything changes.

        Parameters
        ----------
        **params : dict
            Estimator parameters.

        Returns
        -------
        self : object
        """
        target = False
        if "device" in params and getattr(self, "initialized_", False):
            value = params["device"]
            target = None if value is None else resolve_device(value)
        super().set_params(**params)
        if target is not False and target is not None:
            self._move_to(target)
        elif target is None:
            self.device_ = None
        return self

    def initialize(self):
        """Resolve ``device`` (``device_``) and initialize skorch's components.

        Returns
        -------
        self : object

        Raises
        ------
        ValueError
            If ``device`` names a GPU torch does not see (the message names
            ``device`` and the fix).
        """
        vars(self).pop("device_", None)
        self.device_ = None if self.device is None else resolve_device(self.device)
        with self._on_device():
            return super().initialize()

    def _initialize_module(self, *args, **kwargs):
        with self._on_device():
            return super()._initialize_module(*args, **kwargs)

    def _initialize_criterion(self, *args, **kwargs):
        with self._on_device():
            return super()._initialize_criterion(*args, **kwargs)

    def infer(self, x, **fit_params):
        """skorch's forward step, on ``device_``."""
        with self._on_device():
            return super().infer(x, **fit_params)

    def get_loss(self, y_pred, y_true, *args, **kwargs):
        """skorch's loss, with the targets on ``device_``."""
        with self._on_device():
            return super().get_loss(y_pred, y_true, *args, **kwargs)

    def load_params(self, *args, **kwargs):
        """skorch's ``load_params``, mapping the weights to ``device_``."""
        with self._on_device():
            return super().load_params(*args, **kwargs)

    def __setstate__(self, state):
        # skorch maps the pickled weights to ``state["device"]`` (to the CPU,
        # with a warning, when that names CUDA and torch sees none, and then
        # sets ``device="cpu"``).  ``"auto"`` is no torch device: skorch is
        # given the device the weights were on, and the setting stays "auto".
        setting = state.get("device")
        auto = isinstance(setting, str) and setting == "auto"
        fitted = "device_" in state
        if auto:
            state["device"] = str(state["device_"]) if fitted and \
                state["device_"] is not None else "cpu"
        with warnings.catch_warnings():
            if auto:  # skorch's "Setting self.device = cpu": it stays "auto"
                warnings.filterwarnings("ignore", message="Setting self.device")
            super().__setstate__(state)
        if fitted:
            device = vars(self).get("device")
            self.device_ = None if device is None else torch.device(device)
        if auto:
            self.device = "auto"

    # ------------------------------------------------------------- fitting
    #: Constraints of ``pretrained`` and ``pretrained_sha256``, merged into
    #: ``_parameter_constraints`` by the classes that implement
    #: :meth:`_read_pretrained` (and take the two parameters).
    _pretrained_constraints = {
        "pretrained": [str, os.PathLike, None],
        "pretrained_sha256": [str, None],
    }

    def _fit(self, X, y, *, reset, classes=None, **fit_params):
        if getattr(self, "pretrained", None) is not None:
            if not reset:
                raise ValueError(
                    f"{type(self).__name__}(pretrained=...) loads published weights "
                    "in fit and never trains; partial_fit and warm_start would train "
                    "them. Set pretrained=None to train.")
            return self._load_pretrained(X, y, classes)
        self._check_training_params()
        X, y = self._prepare_fit_data(X, y, reset=reset, classes=classes)
        if reset:
            rs = self.random_state
            self.random_seed_ = (
                None if rs is None else self._torch_seed_of(rs)
            )
        seed = self.random_seed_
        if seed is not None and not reset:
            # continued training (warm start, partial_fit): new draws per call
            seed = seed + len(self.history_)
        with _torch_seed(seed):
            if reset:
                self.initialize()
            with self._on_device():
                NeuralNet.partial_fit(self, X, y, **fit_params)
        return self

    def fit(self, X, y, **fit_params):
        """Initialise (unless ``warm_start``) and train the network.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows (float64 accepted; cast to float32).
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
            Targets.
        **fit_params : dict
            Passed to the module's ``forward`` and to ``train_split`` (skorch).

        Returns
        -------
        self : object
        """
        reset = not (self.warm_start and self.initialized_)
        return self._fit(X, y, reset=reset, _routing_method="fit", **fit_params)

    def partial_fit(self, X, y, classes=None, **fit_params):
        """Train for ``max_epochs`` more epochs without re-initialising.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        classes : array-like of shape (n_classes,), default=None
            All class labels (classifiers; needed on the first call when ``y``
            does not contain every class).
        **fit_params : dict

        Returns
        -------
        self : object
        """
        return self._fit(X, y, reset=not self.initialized_, classes=classes,
                         **fit_params)

    def _read_pretrained(self):
        """Hook of the nets that load published weights (``pretrained=``).

        Returns
        -------
        state : dict of str to torch.Tensor
            The file's weights under the names of this net's module.
        sizes : list of int
            ``[n_features, ..., n_outputs]`` of the file.
        module_params : dict
            The ``module__*`` values (without the prefix) that give the
            module the file's architecture, named in the error when the
            module's parameters do not match the state.
        """
        raise NotImplementedError(
            f"{type(self).__name__} reads no published weights file.")

    def _load_pretrained(self, X, y, classes):
        """``fit`` of a published model: the weights of ``pretrained`` (read
        and checked by :meth:`_read_pretrained`, then against ``X``'s width
        and the targets), no training."""
        self._check_training_params()
        self._prepare_fit_data(X, y, reset=True, classes=classes)
        state, sizes, module_params = self._read_pretrained()
        if sizes[0] != self.n_features_in_ or sizes[-1] != self.n_outputs_:
            unit = "classes" if is_classifier(self) else "outputs"
            raise ValueError(
                f"pretrained={self.pretrained!r} maps {sizes[0]} features to "
                f"{sizes[-1]} {unit}; X has {self.n_features_in_} features and y "
                f"{self.n_outputs_} {unit}.")
        self.random_seed_ = None
        self.initialize()
        own = {k: tuple(v.shape) for k, v in self.module_.state_dict().items()}
        theirs = {k: tuple(v.shape) for k, v in state.items()}
        if own != theirs:
            fix = ", ".join(f"module__{k}={v!r}" for k, v in module_params.items())
            raise ValueError(
                f"pretrained={self.pretrained!r} has the layer widths {sizes}; the "
                f"module's parameters are {own}."
                + (f" Pass {fix}." if fix else " Leave the module's parameters at "
                   "their defaults."))
        self.module_.load_state_dict(state)
        return self

    def _torch_seed_of(self, random_state):
        """The torch seed of a fit drawn from ``random_state``."""
        return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))

    def _holds_out_validation(self):
        """Whether ``train_split="auto"`` holds out a validation split."""
        return self.early_stopping

    def initialize_module(self):
        """Build the module with input/output sizes taken from the data."""
        kwargs = self.get_params_for("module")
        module = self._module_class()
        if not isinstance(module, nn.Module):
            if not hasattr(self, "n_features_in_"):
                raise ValueError(
                    f"{type(self).__name__} takes the module's sizes from the "
                    "training data: call fit(X, y), or pass module__n_features and "
                    "module__n_outputs to initialize() it without data."
                )
            kwargs.setdefault("n_features", self.n_features_in_)
            kwargs.setdefault("n_outputs", self.n_outputs_)
            for key, value in self._module_defaults().items():
                kwargs.setdefault(key, value)
        self.module_ = self.initialized_instance(module, kwargs)
        return self

    def _module_class(self):
        return self.module

    def _module_defaults(self):
        return {}

    def get_split_datasets(self, X, y=None, **fit_params):
        """Train/validation datasets; ``train_split="auto"`` is resolved here."""
        if isinstance(self.train_split, str):  # "auto"
            dataset = self.get_dataset(X, y)
            if not self._holds_out_validation():
                return dataset, None
            n_samples = len(dataset)
            if n_samples < 2:
                raise ValueError(
                    f"Early stopping holds out validation rows, which needs at least "
                    f"2 samples; got {n_samples} sample. Pass early_stopping=False."
                )
            split = ValidSplit(
                self.validation_fraction,
                stratified=is_classifier(self) and _can_stratify(
                    y, self.validation_fraction),
                random_state=getattr(self, "random_seed_", None),
            )
            return split(dataset, y, **fit_params)
        return super().get_split_datasets(X, y, **fit_params)

    def _get_param_names(self):
        # skorch lists the parameters from the instance ``__dict__`` (its own
        # override of this scikit-learn hook, as neither library offers a
        # public one), which includes skorch's private ``_params_to_validate``
        # bookkeeping set: it is no hyperparameter, so leave it out of
        # get_params (clone rebuilds it from the ``__`` parameters).
        return [k for k in super()._get_param_names() if k != "_params_to_validate"]

    def _early_stopping_callbacks(self):
        if not self.early_stopping or not self.train_split:
            return []
        return [("early_stopping", EarlyStopping(
            monitor="valid_loss", patience=self.n_iter_no_change, threshold=self.tol,
            threshold_mode="abs", load_best=True,
            sink=print if self.verbose else _noop,
        ))]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.non_deterministic = self.random_state is None
        return tags


def _can_stratify(y, fraction):
    """Whether a stratified hold-out of ``fraction`` keeps every class on both sides."""
    counts = np.unique(np.asarray(y), return_counts=True)[1]
    n_valid = int(np.ceil(fraction * counts.sum()))
    n_classes = len(counts)
    return counts.min() >= 2 and n_classes <= n_valid <= counts.sum() - n_classes


def _has_logits(net):
    """``decision_function`` exists when the module returns logits."""
    criterion = net.criterion
    is_ce = (isinstance(criterion, type) and issubclass(criterion, nn.CrossEntropyLoss)) \
        or isinstance(criterion, nn.CrossEntropyLoss)
    return is_ce and net.predict_nonlinearity == "auto"


class _NetClassifier(_NetMixin, NeuralNetClassifier):
    """skorch classifier with scikit-learn input handling (see module doc)."""

    def __init__(self, module, *, criterion=nn.CrossEntropyLoss,
                 optimizer=torch.optim.Adam, lr=1e-3, max_epochs=100, batch_size=64,
                 train_split="auto", early_stopping=True, validation_fraction=0.1,
                 n_iter_no_change=10, tol=1e-4, random_state=None, verbose=0,
                 **kwargs):
        train_split = self._init_extra(
            train_split, early_stopping, validation_fraction, n_iter_no_change, tol,
            random_state, kwargs,
        )
        super().__init__(
            module, criterion=criterion, optimizer=optimizer, lr=lr,
            max_epochs=max_epochs, batch_size=batch_size, train_split=train_split,
            verbose=verbose, **kwargs,
        )

    @property
    def _default_callbacks(self):
        callbacks = [
            (name, EpochScoring(_encoded_accuracy, name="valid_acc",
                                lower_is_better=False))
            if name == "valid_acc" else (name, cb)
            for name, cb in super()._default_callbacks
        ]
        return callbacks + self._early_stopping_callbacks()

    def check_data(self, X, y):
        """No-op: ``classes_`` come from the original labels in :meth:`fit`."""

    def _prepare_fit_data(self, X, y, *, reset, classes=None):
        X, y = validate_data(self, X, y, dtype=np.float32, reset=reset)
        check_classification_targets(y)
        if reset:
            if self.classes is not None:
                labels = np.asarray(self.classes)
            elif classes is not None:
                labels = np.unique(np.asarray(classes))
            else:
                labels = np.unique(y)
            self.classes_inferred_ = labels
            self.n_outputs_ = len(labels)
        labels = np.asarray(self.classes_)
        try:  # the label -> column lookup of the explained output
            index = class_index(labels, y)
        except ValueError:
            unknown = ~np.isin(y, labels)
            raise ValueError(
                f"y contains labels {np.unique(y[unknown])[:5].tolist()} that are not "
                f"in classes_ {labels.tolist()}; pass every label through the "
                "'classes' parameter."
            ) from None
        return X, index.astype(np.int64)

    def predict_proba(self, X):
        """Class probabilities (softmax of the logits), float64.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        return np.asarray(super().predict_proba(self._validate_X(X)), dtype=np.float64)

    def predict(self, X):
        """Most probable class label.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    @available_if(_has_logits)
    def decision_function(self, X):
        """Logits of the module (before the softmax).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
            For two classes, ``z_1 - z_0`` (the log-odds of ``classes_[1]``).
        """
        Z = self.forward(self._validate_X(X), training=False)
        Z = np.asarray(Z.detach().cpu().numpy(), dtype=np.float64)
        if Z.shape[1] == 2:
            return Z[:, 1] - Z[:, 0]
        return Z


class _NetRegressor(_NetMixin, NeuralNetRegressor):
    """skorch regressor with scikit-learn input handling (see module doc)."""

    def __init__(self, module, *, criterion=nn.MSELoss, optimizer=torch.optim.Adam,
                 lr=1e-3, max_epochs=100, batch_size=64, train_split="auto",
                 early_stopping=True, validation_fraction=0.1, n_iter_no_change=10,
                 tol=1e-4, random_state=None, verbose=0, **kwargs):
        train_split = self._init_extra(
            train_split, early_stopping, validation_fraction, n_iter_no_change, tol,
            random_state, kwargs,
        )
        super().__init__(
            module, criterion=criterion, optimizer=optimizer, lr=lr,
            max_epochs=max_epochs, batch_size=batch_size, train_split=train_split,
            verbose=verbose, **kwargs,
        )

    @property
    def _default_callbacks(self):
        return list(super()._default_callbacks) + self._early_stopping_callbacks()

    def _prepare_fit_data(self, X, y, *, reset, classes=None):
        X, y = validate_data(self, X, y, dtype=np.float32, reset=reset,
                             multi_output=True, y_numeric=True)
        y = np.asarray(y, dtype=np.float32)
        y = y.reshape(-1, 1) if y.ndim == 1 else y
        if reset:
            self.n_outputs_ = y.shape[1]
        elif y.shape[1] != self.n_outputs_:
            raise ValueError(
                f"y has {y.shape[1]} outputs, but {type(self).__name__} was fitted "
                f"with {self.n_outputs_}."
            )
        return X, y

    def predict(self, X):
        """Predictions, float64.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_outputs)
            1-D for a single output.
        """
        y = NeuralNet.predict_proba(self, self._validate_X(X))
        y = np.asarray(y, dtype=np.float64)
        return y.ravel() if y.ndim == 2 and y.shape[1] == 1 else y

    @available_if(lambda self: False)
    def predict_proba(self, X):
        """Not available: a regressor has no class probabilities."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags


# --------------------------------------------------------------------------
# OpenXAI's training (convention="openxai_code")
# --------------------------------------------------------------------------
class _SoftmaxCrossEntropyLoss(nn.CrossEntropyLoss):
    """OpenXAI's loss: class-weighted cross-entropy of the softmax outputs.

    OpenXAI's models end in a softmax and its trainer passes their output to
    :class:`torch.nn.CrossEntropyLoss`, which applies a second (log-)softmax:
    the loss is ``CE(softmax(z), y)``.  ``weight`` may be a list.
    """

    def __init__(self, weight=None, **kwargs):
        if weight is not None and not isinstance(weight, torch.Tensor):
            weight = torch.as_tensor(np.asarray(weight, dtype=np.float32))
        super().__init__(weight=weight, **kwargs)

    def forward(self, input, target):
        return super().forward(torch.softmax(input, dim=-1), target)


def _openxai_predictions(proba):
    """OpenXAI's class decisions: ``p_1 >= 1/2`` for two classes, else argmax."""
    if proba.shape[1] == 2:
        return (proba[:, 1] >= 0.5).astype(np.int64)
    return np.argmax(proba, axis=1)


class _OpenXAIEpochSelection(Callback):
    """Keep the weights of OpenXAI's selected epoch (see ``convention``).

    After every epoch the net predicts the selection rows; an epoch is
    eligible when its 0-based index exceeds ``warmup`` and its share of
    predicted positives satisfies the bound; the eligible epoch of highest
    accuracy (the first on ties) is restored at the end of training.
    """

    def __init__(self, warmup, bound, selection=None):
        self.warmup = warmup
        self.bound = bound
        self.selection = selection

    def on_train_begin(self, net, X=None, y=None, **kwargs):
        self.epoch_ = -1
        self.best_ = (0.0, None, None)  # accuracy, 1-based epoch, weights
        self.X = self.y = None
        if self.selection is not None:
            X, y = self.selection
            self.X = validate_data(net, X, dtype=np.float32, reset=False)
            self.y = class_index(np.asarray(net.classes_), np.asarray(y)).astype(np.int64)
            if len(self.X) != len(self.y):
                raise ValueError(
                    f"selection_data holds {len(self.X)} rows but {len(self.y)} "
                    "labels; pass one label per row."
                )
        if self.bound is not None and net.n_outputs_ != 2:
            raise ValueError(
                "mean_prediction_bound bounds the share of predicted positives, "
                f"defined for two classes; got {net.n_outputs_}. Pass None."
            )

    def on_epoch_end(self, net, dataset_train=None, dataset_valid=None, **kwargs):
        self.epoch_ += 1
        if self.X is not None:
            X, y = self.X, self.y
        elif dataset_valid is None:
            raise ValueError(
                "convention='openxai_code' selects the kept epoch on selection_data "
                "or on a validation split, and there is neither: pass "
                "selection_data=(X, y) or train_split='auto'."
            )
        else:
            X, y = data_from_dataset(dataset_valid)
            X = np.asarray(X.cpu() if isinstance(X, torch.Tensor) else X)
            y = np.asarray(y.cpu() if isinstance(y, torch.Tensor) else y)
        pred = _openxai_predictions(net.predict_proba(X))
        accuracy = float(np.mean(pred == y))
        positive = float(np.mean(pred == 1))
        net.history.record("selection_acc", accuracy)
        net.history.record("selection_positive_rate", positive)
        if self.bound is None:
            in_bound = True
        elif self.bound > 0.5:
            in_bound = positive < self.bound
        else:
            in_bound = positive > self.bound
        if self.epoch_ > self.warmup and in_bound and accuracy > self.best_[0]:
            state = {k: v.detach().clone() for k, v in net.module_.state_dict().items()}
            self.best_ = (accuracy, len(net.history), state)

    def on_train_end(self, net, X=None, y=None, **kwargs):
        _, epoch, state = self.best_
        if state is None:
            net.selected_epoch_ = len(net.history)
        else:
            net.module_.load_state_dict(state)
            net.selected_epoch_ = epoch


class _OpenXAITrainingMixin:
    """``convention``, ``selection_data``, ``warmup`` and
    ``mean_prediction_bound`` of OpenXAI's two classifiers."""

    _openxai_constraints = {
        "convention": [StrOptions({"paper", "openxai_code"})],
        "selection_data": [tuple, list, None],
        "warmup": [Interval(numbers.Integral, 0, None, closed="left")],
        "mean_prediction_bound": [Interval(numbers.Real, 0, 1, closed="neither"), None],
        **_NetMixin._pretrained_constraints,
    }

    def _set_openxai_training(self, convention, selection_data, warmup,
                              mean_prediction_bound, pretrained, pretrained_sha256):
        self.convention = convention
        self.selection_data = selection_data
        self.warmup = warmup
        self.mean_prediction_bound = mean_prediction_bound
        self.pretrained = pretrained
        self.pretrained_sha256 = pretrained_sha256

    def _read_pretrained(self):
        """OpenXAI's checkpoint (see :meth:`_NetMixin._read_pretrained`)."""
        from sklearn_xai.models._released import read_openxai_state

        kind, state, sizes = read_openxai_state(self.pretrained,
                                                sha256=self.pretrained_sha256)
        expected = "lr" if isinstance(self, LogisticNetClassifier) else "ann"
        if kind != expected:
            other = "LogisticNetClassifier" if kind == "lr" else "MLPNetClassifier"
            raise ValueError(
                f"pretrained={self.pretrained!r} holds OpenXAI's "
                f"{'logistic regression' if kind == 'lr' else 'neural network'}; "
                f"load it with {other} (or sklearn_xai.models.load_openxai_model).")
        module_params = {} if kind == "lr" else {
            "hidden_layer_sizes": tuple(sizes[1:-1])}
        return state, sizes, module_params

    def _openxai(self):
        return isinstance(self.convention, str) and self.convention == "openxai_code"

    def _torch_seed_of(self, random_state):
        if self._openxai() and isinstance(random_state, numbers.Integral):
            return int(random_state)
        return super()._torch_seed_of(random_state)

    def _holds_out_validation(self):
        if self._openxai():
            return self.selection_data is None
        return super()._holds_out_validation()

    def _check_training_params(self):
        super()._check_training_params()
        if not self._openxai():
            return
        criterion = self.criterion
        if not (criterion is nn.CrossEntropyLoss or criterion is _SoftmaxCrossEntropyLoss):
            raise ValueError(
                "convention='openxai_code' trains with OpenXAI's loss (cross-entropy "
                f"of the softmax outputs); got criterion={criterion!r}. Leave "
                "criterion at its default (class weights: criterion__weight)."
            )
        if self.selection_data is not None and len(self.selection_data) != 2:
            raise ValueError(
                "selection_data must be a pair (X, y) of selection rows and their "
                f"labels; got a sequence of {len(self.selection_data)} items."
            )

    def initialize_criterion(self):
        """The criterion; OpenXAI's softmax cross-entropy under ``"openxai_code"``."""
        if not self._openxai():
            return super().initialize_criterion()
        kwargs = self.get_params_for("criterion")
        self.criterion_ = _SoftmaxCrossEntropyLoss(**kwargs).to(self.device)
        return self

    def _early_stopping_callbacks(self):
        if not self._openxai():
            return super()._early_stopping_callbacks()
        return [("openxai_epoch_selection", _OpenXAIEpochSelection(
            self.warmup, self.mean_prediction_bound, self.selection_data))]


# --------------------------------------------------------------------------
# Seed architectures
# --------------------------------------------------------------------------
@_net_doc("openxai_net_sections", params=("1e-3", 100, 64),
          training=("openxai_training", "openxai_pretrained"))
class MLPNetClassifier(_OpenXAITrainingMixin, _NetClassifier):
    """OpenXAI's neural network classifier (``d → 100 → 100 → K``, ReLU).

    A :class:`skorch.NeuralNetClassifier` of :class:`~sklearn_xai.models.OpenXAIANN`
    trained with Adam and cross-entropy (OpenXAI trains 100 epochs at
    learning rate 1e-3 with dataset-specific batch sizes).

    Parameters
    ----------
    module : torch module class or instance, default=OpenXAIANN
        Its ``n_features`` and ``n_outputs`` come from the data
        (``module__hidden_layer_sizes`` etc. tune it).
    {net_params}

    {openxai_net_sections}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import MLPNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> y = np.where(X[:, 0] > 0, "yes", "no")
    >>> clf = MLPNetClassifier(max_epochs=20, random_state=0).fit(X, y)
    >>> clf.classes_.tolist()
    ['no', 'yes']
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        **_OpenXAITrainingMixin._openxai_constraints,
    }

    def __init__(self, module=OpenXAIANN, *, lr=1e-3, max_epochs=100, batch_size=64,
                 convention="paper", selection_data=None, warmup=5,
                 mean_prediction_bound=None, pretrained=None, pretrained_sha256=None,
                 **kwargs):
        self._set_openxai_training(convention, selection_data, warmup,
                                   mean_prediction_bound, pretrained, pretrained_sha256)
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


@_net_doc("openxai_net_sections", params=("1e-3", 100, 64),
          training=("openxai_training", "openxai_pretrained"))
class LogisticNetClassifier(_OpenXAITrainingMixin, _NetClassifier):
    """Logistic regression as a one-layer network (OpenXAI's LR).

    A :class:`skorch.NeuralNetClassifier` of :class:`~sklearn_xai.models.LogisticNet`
    (``d → K`` linear, softmax at ``predict_proba``), trained with Adam and
    cross-entropy.  Its coefficients are ``module_.linear.weight``; for two
    classes the log-odds coefficients are ``weight[1] - weight[0]``.

    Parameters
    ----------
    module : torch module class or instance, default=LogisticNet
        ``module__bias=False`` gives XAI-TRIS's LLR.
    {net_params}

    {openxai_net_sections}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import LogisticNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X @ [2.0, -1.0, 0.0] > 0).astype(int)
    >>> clf = LogisticNetClassifier(lr=0.05, max_epochs=30, random_state=0).fit(X, y)
    >>> w = clf.module_.linear.weight.detach().numpy()
    >>> coef = w[1] - w[0]
    >>> bool(coef[0] > 0 > coef[1])
    True

    OpenXAI's training keeps the epoch (after the warm-up) that is best on
    the rows of ``selection_data``:

    >>> ox = LogisticNetClassifier(lr=0.05, max_epochs=10, convention="openxai_code",
    ...                            selection_data=(X[:100], y[:100]),
    ...                            random_state=0).fit(X, y)
    >>> 7 <= ox.selected_epoch_ <= 10
    True
    """

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        **_OpenXAITrainingMixin._openxai_constraints,
    }

    def __init__(self, module=LogisticNet, *, lr=1e-3, max_epochs=100, batch_size=64,
                 convention="paper", selection_data=None, warmup=5,
                 mean_prediction_bound=None, pretrained=None, pretrained_sha256=None,
                 **kwargs):
        self._set_openxai_training(convention, selection_data, warmup,
                                   mean_prediction_bound, pretrained, pretrained_sha256)
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


class _BEExAIPretrainedMixin:
    """``pretrained=`` of the BEExAI nets: a ``NeuralNetwork`` state
    dictionary saved by BEExAI (see :func:`~sklearn_xai.models.read_beexai_state`)."""

    def _read_pretrained(self):
        """BEExAI's saved network (see :meth:`_NetMixin._read_pretrained`)."""
        from sklearn_xai.models._released import read_beexai_state

        state, params = read_beexai_state(self.pretrained,
                                          sha256=self.pretrained_sha256)
        if is_classifier(self) and params["n_outputs"] == 1:
            raise ValueError(
                f"pretrained={self.pretrained!r} has one output, BEExAI's regression "
                "network (its classification softmax over one column is constant); "
                "load it with BEExAIMLPRegressor (or sklearn_xai.models."
                "load_beexai_model(path, task='regression')).")
        sizes = [params["n_features"], *[params["n_neurons"]] * (
            params["n_hidden_layers"] + 1), params["n_outputs"]]
        module_params = {k: params[k] for k in ("layout", "n_neurons",
                                                "n_hidden_layers", "batch_norm")}
        return state, sizes, module_params


@_net_doc("classifier_attributes", "beexai_architecture", params=("1e-3", 200, 128),
          training=("beexai_pretrained_classifier",))
class BEExAIMLPClassifier(_BEExAIPretrainedMixin, _NetClassifier):
    """BEExAI's dense network classifier.

    A :class:`skorch.NeuralNetClassifier` of
    :class:`~sklearn_xai.models.BEExAIMLP` (logits; softmax at
    ``predict_proba``).
    {beexai_architecture}

    Parameters
    ----------
    module : torch module class or instance, default=BEExAIMLP
    {net_params}

    {classifier_attributes}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import BEExAIMLPClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 5))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> clf = BEExAIMLPClassifier(max_epochs=10, random_state=0).fit(X, y)
    >>> clf.predict_proba(X[:2]).shape
    (2, 2)
    """

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        **_NetMixin._pretrained_constraints,
    }

    def __init__(self, module=BEExAIMLP, *, lr=1e-3, max_epochs=200, batch_size=128,
                 pretrained=None, pretrained_sha256=None, **kwargs):
        self.pretrained = pretrained
        self.pretrained_sha256 = pretrained_sha256
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


@_net_doc("net_attributes", "beexai_architecture", params=("1e-3", 200, 128),
          training=("beexai_pretrained_regressor",))
class BEExAIMLPRegressor(_BEExAIPretrainedMixin, _NetRegressor):
    """BEExAI's dense network regressor.

    A :class:`skorch.NeuralNetRegressor` of
    :class:`~sklearn_xai.models.BEExAIMLP`.
    {beexai_architecture}

    Parameters
    ----------
    module : torch module class or instance, default=BEExAIMLP
    {net_params}

    {net_attributes}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import BEExAIMLPRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 5))
    >>> y = X[:, 0] - 2 * X[:, 1]
    >>> reg = BEExAIMLPRegressor(max_epochs=30, random_state=0).fit(X, y)
    >>> reg.predict(X[:3]).shape
    (3,)
    >>> bool(reg.score(X, y) > 0.8)
    True
    """

    _parameter_constraints = {
        **_NetRegressor._parameter_constraints,
        **_NetMixin._pretrained_constraints,
    }

    def __init__(self, module=BEExAIMLP, *, lr=1e-3, max_epochs=200, batch_size=128,
                 pretrained=None, pretrained_sha256=None, **kwargs):
        self.pretrained = pretrained
        self.pretrained_sha256 = pretrained_sha256
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)


_TETROMINO_MODULES = {"llr": LogisticNet, "mlp": TetrominoMLP, "cnn": TetrominoCNN,
                      "resnet": SmallResNet, "vit": SmallViT}
# XAI-TRIS's own architectures exist for its two image sizes only.
_XAITRIS_SIZES = (8, 64)


@_net_doc("classifier_attributes", params=("5e-4", 500, 512))
class TetrominoNetClassifier(_NetClassifier):
    """Classifiers for tetromino images: XAI-TRIS's LLR, MLP and CNN, a
    small ResNet and a small ViT.

    A :class:`skorch.NeuralNetClassifier` on flattened ``image_size ×
    image_size`` images: ``"llr"`` is a linear layer without bias,
    ``"mlp"`` :class:`~sklearn_xai.models.TetrominoMLP`, ``"cnn"``
    :class:`~sklearn_xai.models.TetrominoCNN` (the image is reshaped to
    ``(1, L, L)`` inside the module), ``"resnet"``
    :class:`~sklearn_xai.models.SmallResNet` and ``"vit"``
    :class:`~sklearn_xai.models.SmallViT` (any image size; a ViT's
    ``module__patch_size`` must divide it; ``module__in_channels`` for
    images of several channels, rows ``(C, H, W)`` row-major).  He-normal
    initialisation of XAI-TRIS's three, Adam at learning rate 5e-4, batches
    of 512, at most 500 epochs keeping the weights of the lowest validation
    loss, as XAI-TRIS.  XAI-TRIS's early stopping rarely fires (its patience
    compares a mean with a sum); the default patience here is 10 epochs
    (``n_iter_no_change=500`` mirrors it).

    The ResNet and the ViT train in minutes on a CPU.  Measured on 64×64
    ``make_tetrominoes(1250, scenario="linear", alpha=0.2)`` images (white
    background; a stronger signal than XAI-TRIS's ``alpha=0.03``, which is
    tuned for 40,000 images), 1,000 training and 250 held-out rows,
    ``early_stopping=False, lr=1e-3, batch_size=64``, one torch thread, CPU
    time (2026-11-27): ``architecture="vit"`` (patches of 8×8), 10 epochs,
    22 s, held-out accuracy 1.00; ``architecture="resnet",
    module__stem_stride=2``, 10 epochs, 29 s, 1.00 (5 epochs: 12 s, 0.83).

    Parameters
    ----------
    module : torch module class or instance, default=None
        ``None`` uses the module named by ``architecture``.
    architecture : {"llr", "mlp", "cnn", "resnet", "vit"}, default="cnn"
    image_size : int, default=8
        Side of the square images; ``X`` must have ``in_channels *
        image_size ** 2`` columns (``in_channels=1`` unless
        ``module__in_channels`` says otherwise).  XAI-TRIS's ``"mlp"`` and
        ``"cnn"`` exist for 8 and 64.
    {net_params}

    {classifier_attributes}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import TetrominoNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 64))
    >>> y = (X[:, 9] > 0).astype(int)
    >>> clf = TetrominoNetClassifier(architecture="cnn", max_epochs=2,
    ...                              random_state=0).fit(X, y)
    >>> clf.module_.flatten_size
    4
    >>> vit = TetrominoNetClassifier(architecture="vit", module__patch_size=4,
    ...                              max_epochs=2, random_state=0).fit(X, y)
    >>> vit.module_.grid_size
    2
    """

    _parameter_constraints = {
        **_NetClassifier._parameter_constraints,
        "architecture": [StrOptions(set(_TETROMINO_MODULES))],
        "image_size": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, module=None, *, architecture="cnn", image_size=8, lr=5e-4,
                 max_epochs=500, batch_size=512, **kwargs):
        self.architecture = architecture
        self.image_size = image_size
        super().__init__(module, lr=lr, max_epochs=max_epochs, batch_size=batch_size,
                         **kwargs)

    def _module_class(self):
        if self.module is not None:
            return self.module
        self._check_training_params()  # architecture and image_size too
        return _TETROMINO_MODULES[self.architecture]

    def _module_defaults(self):
        if self.module is not None:
            return {}
        channels = 1
        if self.architecture in ("resnet", "vit"):
            channels = self.get_params_for("module").get("in_channels", 1)
        elif self.architecture != "llr" and self.image_size not in _XAITRIS_SIZES:
            raise InvalidParameterError(
                f"The 'image_size' parameter of {type(self).__name__} must be 8 or 64 "
                f"with architecture={self.architecture!r} (XAI-TRIS's network for "
                f"8x8 or 64x64 images); got {self.image_size}. Pass image_size=8 or "
                "64, or architecture='resnet' or 'vit' (any size)."
            )
        n_expected = channels * self.image_size ** 2
        if self.n_features_in_ != n_expected:
            raise ValueError(
                f"X has {self.n_features_in_} columns, but image_size="
                f"{self.image_size} needs {n_expected} (flattened "
                f"{self.image_size}x{self.image_size} images"
                + (f" of {channels} channels)." if channels != 1 else ").")
            )
        if self.architecture == "llr":
            return {"bias": False, "init": "he_normal"}
        return {"image_size": self.image_size}
