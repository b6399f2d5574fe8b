"""The explained output: one scalar per row, shared by explainers and metrics.

:func:`explained_output` turns ``(estimator, target, output)`` into an
:class:`ExplainedOutput`, a vectorised callable ``f(X, target_index) -> (n,)``.
Explainers and metrics both go through it, so they always explain and score
the same number (see :ref:`def-explained-output` in the user guide):

* classifiers, ``output="proba"`` (default): the probability of a class; with
  ``target="predicted"`` the class is the arg-max at the *original* row and is
  kept for every perturbed copy of that row;
* classifiers, ``output="decision"``: the decision function (logit) of the
  class; for scikit-learn's ``MLPClassifier``, which has no
  ``decision_function``, the logits of its forward pass (before the softmax
  or logistic output), those of its exact torch replica;
* ``output="margin"``: the model's raw additive score, the output exact tree
  attributions explain: ``decision_function`` where the model has one, the
  raw margin of gradient-boosting libraries (xgboost ``output_margin=True``,
  LightGBM ``raw_score=True``, CatBoost ``"RawFormulaVal"``), and
  ``predict`` for other regressors;
* regressors (and ``output="predict"``): ``predict``.

Model inputs are cast to the dtype the model expects (skorch nets are float32,
LIME and numpy hand float64) and evaluated in chunks of ``batch_size`` rows.
The number of rows evaluated is counted in ``n_evaluations``, which benchmarks
use to express timings as ratios to the bare model cost.

**The device path.**  When the model is a torch module with parameters (a
skorch net, a ``FrozenEstimator`` of one, a ``Pipeline`` of affine scalers
ending in one: :func:`~sklearn_xai.utils._device.model_device` is not
``None``), :meth:`ExplainedOutput.torch_model` is the explained output as a
torch module (:func:`~sklearn_xai.utils._torch_model.explained_torch_module`:
the same module, the same ``predict_proba`` nonlinearity or logits), and
:meth:`ExplainedOutput.scores_tensor` evaluates it on tensors already on the
model's device.  Callers that build their model inputs on the device (the
maskers' :meth:`~sklearn_xai.masking.BaseMasker.evaluate`, infidelity, ...)
ask :meth:`ExplainedOutput.blocks_with_x` for ``on_device=True``: the block
buffer is a tensor on the device in the model's dtype, and the scores, the
explained class and :meth:`ExplainedOutput.select` stay there, so only
values per (row, copy) come back to the host.  This is the path of a model
on an accelerator (:attr:`ExplainedOutput.device_path`); a torch model on
the CPU runs on the host already, where the numpy path is as fast (batched
per-row products are several times faster in numpy than in torch there), and
scikit-learn, xgboost and other models keep the numpy path.  The inputs are in the module's parameter
dtype on both paths (the host path feeds float32 to a float32 net, see
:func:`model_input_dtype`), so values agree to the float32 rounding of the
arithmetic order.

*Why one code path through the Array API.*  The arithmetic that follows the
model calls (target selection, averages over draws, differences and means
per row) is written once against the namespace
``sklearn.externals.array_api_compat.array_namespace(x)`` returns for its
inputs (``xp.where``, ``xp.mean``, ``xp.take_along_axis``, ...): scikit-learn
vendors array-api-compat, which gives a namespace for numpy arrays and
torch tensors alike, so one function serves both backends with no extra
dependency and no copy per backend.  What the Array API lacks (in-place
``out=`` arithmetic, ``einsum``, block-wise host buffers) stays numpy-only
where only the host path needs it; torch is imported lazily, so a
scikit-learn-only run never imports it.
"""

import numbers

import numpy as np
import pandas as pd
from scipy.special import expit
from sklearn.base import is_classifier
from sklearn.exceptions import NotFittedError
from sklearn.neural_network import MLPClassifier
from sklearn.externals.array_api_compat import array_namespace
from sklearn.externals.array_api_compat import device as device_of
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._device import block_entries, model_device
from sklearn_xai.utils._estimators import transform_steps, unfreeze, unwrap

__all__ = [
    "BLOCK_ENTRIES",
    "AffineOutput",
    "ExplainedOutput",
    "affine_output",
    "affine_once",
    "model_input",
    "block_slices",
    "class_index",
    "explained_output",
    "model_input_dtype",
    "to_numpy",
]

_OUTPUTS = ("auto", "proba", "decision", "predict", "margin")

# ``predict`` keyword arguments that return the raw margin, by library.
_MARGIN_KWARGS = {
    "xgboost": {"output_margin": True},
    "lightgbm": {"raw_score": True},
    "catboost": {"prediction_type": "RawFormulaVal"},
}


def _margin_kwargs(estimator):
    """``predict`` keywords giving the raw margin of a boosting library's
    model (``None`` for other models)."""
    module = type(_final_estimator(estimator)).__module__.split(".")[0]
    return _MARGIN_KWARGS.get(module)


# Hidden-layer activations of scikit-learn's MLPs, by ``activation`` name.
_MLP_ACTIVATIONS = {
    "identity": lambda H: H,
    "logistic": expit,
    "tanh": np.tanh,
    "relu": lambda H: np.maximum(H, 0.0),
}


def _mlp_logits(estimator):
    """The logits of a fitted scikit-learn ``MLPClassifier`` (possibly in a
    ``Pipeline`` or ``FrozenEstimator``), or ``None`` for other models.

    The network's forward pass without its output activation (softmax or
    logistic), in float64: ``softmax(logits)`` (``sigmoid`` of the single
    binary logit) is ``predict_proba``, and the logits are those of the
    model's exact torch replica.  Returns ``logits(X)`` of shape (m,) for a
    binary model (the score of ``classes_[1]``, like ``decision_function``)
    and (m, n_classes) otherwise.
    """
    steps, final = unwrap(estimator)
    if not isinstance(final, MLPClassifier) or not hasattr(final, "coefs_"):
        return None
    coefs = [np.asarray(W, dtype=np.float64) for W in final.coefs_]
    intercepts = [np.asarray(b, dtype=np.float64) for b in final.intercepts_]
    hidden = _MLP_ACTIVATIONS[final.activation]

    def logits(X):
        H = np.asarray(transform_steps(steps, X), dtype=np.float64)
        for i, (W, b) in enumerate(zip(coefs, intercepts)):
            H = H @ W + b
            if i < len(coefs) - 1:
                H = hidden(H)
        return H[:, 0] if H.shape[1] == 1 else H

    return logits


def _final_estimator(estimator):
    """Unwrap FrozenEstimator and Pipeline to reach the model doing the work."""
    return unwrap(estimator)[1]


def model_input_dtype(estimator):
    """The dtype a model wants its input in: float32 for torch/skorch nets.

    Parameters
    ----------
    estimator : estimator
        A fitted estimator, possibly a ``FrozenEstimator`` or a ``Pipeline``.

    Returns
    -------
    dtype : numpy dtype
    """
    final = _final_estimator(estimator)
    if hasattr(final, "module_") or hasattr(final, "module"):
        module = getattr(final, "module_", None)
        try:
            param = next(module.parameters())
            return np.dtype(str(param.dtype).replace("torch.", ""))
        except (AttributeError, StopIteration, TypeError):
            return np.dtype(np.float32)
    return np.dtype(np.float64)


def check_fitted_classifier(estimator):
    """Raise ``NotFittedError`` for a classifier that has not been fitted.

    A class score needs the model's ``classes_``; without them the model is
    checked with :func:`sklearn.utils.validation.check_is_fitted`, so an
    unfitted model fails the same way for every explainer and metric
    instead of with an ``AttributeError`` on ``classes_`` wherever it is
    first read.  A fitted model without ``classes_`` is accepted.

    Parameters
    ----------
    estimator : estimator
        The explained model, possibly a ``FrozenEstimator`` or a
        ``Pipeline`` (the model doing the work is checked and named).

    Raises
    ------
    NotFittedError
        If the model is not fitted.
    """
    if hasattr(estimator, "classes_"):
        return
    final = _final_estimator(estimator)
    try:
        check_is_fitted(final)
    except NotFittedError:
        raise NotFittedError(
            f"This {type(final).__name__} instance is not fitted yet: fit the "
            "model before explaining or scoring it (wrap a fitted model in "
            "sklearn.frozen.FrozenEstimator to pass it to an explainer's fit)."
        ) from None
    except TypeError:  # not an estimator (no fit): nothing to check
        pass


def check_single_output_target(target, estimator, *, output="predict"):
    """Reject a class ``target`` when the explained output has no classes.

    A regressor (or a classifier explained through ``output="predict"``)
    has one output per row: there is no class to choose, and a class
    target would otherwise be silently ignored.

    Parameters
    ----------
    target : "predicted", None, int, label or array-like
        The requested target; ``"predicted"`` and ``None`` (not given) are
        accepted.
    estimator : estimator
        The explained model (named in the error).
    output : str, default="predict"
        The resolved output, named in the error for a classifier.

    Raises
    ------
    ValueError
        If ``target`` selects a class.
    """
    if target is None or (isinstance(target, str) and target == "predicted"):
        return
    if np.ndim(target) == 0:
        shown = f"target={target!r}"
    else:
        shown = f"target=<array of shape {np.shape(target)}>"
    final = _final_estimator(estimator)
    name = type(final).__name__
    if is_classifier(final) or hasattr(final, "classes_"):
        raise ValueError(
            f"{shown} selects a class, but output={output!r} of {name} has one "
            "output per row (the predicted label), so there is no class to "
            "choose. Use target='predicted' (the default) or omit target, or "
            "explain a class score with output='proba' or output='decision'."
        )
    raise ValueError(
        f"{shown} selects a class, but {name} is a regressor: it has one output "
        "per row, so there is no class to choose. Use target='predicted' (the "
        "default) or omit target."
    )


# When a torch model is evaluated on its device (the device path, see the
# module docstring): None on an accelerator only (a model on the CPU runs on
# the host already, where numpy's path is as fast or faster), True on every
# device (tests compare the two paths on the CPU with it), False never.
_DEVICE_PATH = None


# Input entries per model call when no batch size is given (1 MiB of float64).
# The one default block size of the package's model calls: ExplainedOutput
# and the metrics' blocks of rows (block_slices) both derive from it.
BLOCK_ENTRIES = 2**17


def block_slices(n_rows, per_row, n_features, batch_size=None, device=None):
    """Slices of rows whose ``per_row`` model inputs each form one block.

    A block holds at most ``batch_size`` model rows (but at least one
    explained row), or, when ``batch_size`` is None, about
    :func:`~sklearn_xai.utils._device.block_entries` input entries for the
    model's ``device`` (:data:`BLOCK_ENTRIES` on the CPU, a share of the
    free memory on a GPU).  Code that draws each row's random numbers from
    its own stream gets results that do not depend on the block size.

    Parameters
    ----------
    n_rows : int
        Number of explained rows.
    per_row : int
        Model inputs per explained row (perturbed copies, coalitions, ...).
    n_features : int
        Features per model input.
    batch_size : int or None, default=None
        Maximum model rows per block; ``None`` sizes blocks by the device.
    device : torch.device, str or None, default=None
        The device of the model (``None``: not a torch module, or on the
        CPU).

    Returns
    -------
    slices : list of slice
        Consecutive slices covering ``range(n_rows)``.

    Examples
    --------
    >>> from sklearn_xai.utils._output import block_slices
    >>> block_slices(5, per_row=3, n_features=4, batch_size=6)
    [slice(0, 2, None), slice(2, 4, None), slice(4, 6, None)]
    """
    cap = batch_size or max(block_entries(device) // max(n_features, 1), 1)
    step = max(1, cap // max(per_row, 1))
    return [slice(s, s + step) for s in range(0, n_rows, step)]


def _one_output(scores):
    """The one column of a regressor's 2-D scores (numpy or torch)."""
    if scores.shape[1] != 1:
        raise ValueError(
            "Multi-output regressors are not supported: the explained output "
            "must be one scalar per row."
        )
    return scores[:, 0]


def to_numpy(a):
    """``a`` as a numpy array on the host: a torch tensor is copied back from
    its device (the one place the device path brings values back), an array
    is returned as is.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._output import to_numpy
    >>> to_numpy(np.arange(3)).tolist()
    [0, 1, 2]
    """
    if isinstance(a, np.ndarray):
        return a
    if hasattr(a, "detach"):  # a torch tensor (torch need not be imported)
        return a.detach().cpu().numpy()
    return np.asarray(a)


def class_index(classes, labels):
    """Column index of each label in ``classes`` (a model's ``classes_``).

    The one lookup of class labels shared by the explained output, the tree
    attributions and the models; ``classes`` need not be sorted.

    Parameters
    ----------
    classes : array-like of shape (n_classes,)
        The model's class labels, in the order of its output columns.
    labels : array-like of shape (n_labels,)
        Labels to look up.

    Returns
    -------
    index : ndarray of shape (n_labels,), dtype intp

    Raises
    ------
    ValueError
        If a label is not among ``classes`` (the message names both).

    Examples
    --------
    >>> from sklearn_xai.utils import class_index
    >>> class_index(["cat", "dog", "ant"], ["ant", "cat"]).tolist()
    [2, 0]
    """
    classes = np.asarray(classes)
    labels = np.asarray(labels)
    sorter = np.argsort(classes, kind="stable")
    pos = np.searchsorted(classes, labels, sorter=sorter)
    pos = np.clip(pos, 0, len(classes) - 1)
    idx = sorter[pos]
    bad = classes[idx] != labels
    if np.any(bad):
        raise ValueError(
            f"target label(s) {np.unique(labels[bad])[:5].tolist()} are not among "
            f"the model's classes {classes.tolist()}."
        )
    return idx.astype(np.intp)


def model_input(estimator, Z, feature_names=None):
    """Rows ``Z`` as the model takes them: a DataFrame with its column names
    when it was fitted on a DataFrame (``feature_names_in_``), else ``Z``.

    A Pipeline whose ColumnTransformer selects columns by name can only be
    called on a DataFrame; every place that calls a user's model on rows
    held as an array goes through this function.

    Parameters
    ----------
    estimator : fitted estimator
    Z : array-like of shape (n_rows, n_features)
    feature_names : list of str, default=None
        The names to use; ``None`` reads ``estimator.feature_names_in_``.

    Returns
    -------
    Z : ndarray or pandas.DataFrame

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.utils._output import model_input
    >>> model = LinearRegression().fit(pd.DataFrame({"a": [0.0, 1.0]}), [0.0, 1.0])
    >>> list(model_input(model, np.array([[2.0]])).columns)
    ['a']
    """
    if feature_names is None:
        names = getattr(estimator, "feature_names_in_", None)
        feature_names = None if names is None else list(names)
    if feature_names is None or isinstance(Z, pd.DataFrame):
        return Z
    return pd.DataFrame(np.asarray(Z), columns=feature_names)


class ExplainedOutput:
    """Vectorised scalar output of a fitted model (see module docstring).

    Parameters
    ----------
    estimator : fitted estimator
        Any scikit-learn compatible model with ``predict`` (and
        ``predict_proba`` / ``decision_function`` for classifiers).
    target : "predicted", int, label or array-like of shape (n_samples,)
        Which class is explained.  ``"predicted"`` fixes the arg-max class at
        each original row; an int is always a column index of ``classes_``
        (negative ints count from the end); any other scalar is a class label
        looked up in ``estimator.classes_``; an array gives one class *label*
        per row (e.g. the true labels, as XAI-TRIS explains; this is also how
        to pass integer labels).  A regressor (and ``output="predict"``)
        has one output per row: any target but ``"predicted"`` raises a
        ``ValueError``.
    output : {"auto", "proba", "decision", "predict", "margin"}
        ``"auto"`` is ``"proba"`` for classifiers and ``"predict"`` otherwise.
        ``"margin"`` is the raw additive score (``decision_function``, or the
        raw margin of xgboost/LightGBM/CatBoost models; ``predict`` for other
        regressors): what exact tree attributions explain.  For an
        ``MLPClassifier`` (no ``decision_function``) ``"decision"`` and
        ``"margin"`` are the logits of its forward pass, before the output
        activation.
    batch_size : int or None
        Maximum number of rows per model call.  ``None``: calls of about
        ``2**17`` input entries (1 MiB of float64; 6553 rows of 20
        features), which keeps a model's intermediate arrays in cache: an
        sklearn MLP evaluates 100 000 rows almost twice as fast in such
        calls as in one.
    codec : TabularCodec or None, default=None
        When the model is called on a raw DataFrame: the rows it is given
        are codes (see :class:`~sklearn_xai.utils._tabular.TabularCodec`),
        decoded into a DataFrame with the model's columns and dtypes before
        each call.

    Attributes
    ----------
    n_evaluations : int
        Number of rows evaluated by the model so far.
    n_calls : int
        Number of model calls so far.
    """

    def __init__(self, estimator, *, target="predicted", output="auto", batch_size=None,
                 codec=None):
        if output not in _OUTPUTS:
            raise ValueError(
                f"output must be one of {_OUTPUTS}, got {output!r}."
            )
        self.estimator = estimator
        self.target = target
        self.is_classifier = is_classifier(estimator) or (
            output in ("proba", "decision") and hasattr(estimator, "classes_")
        )
        self._margin = None
        # MLPClassifier has no decision_function: its logits are computed.
        self._logits = None
        if output in ("decision", "margin") and not hasattr(estimator, "decision_function"):
            self._logits = _mlp_logits(estimator)
        if output == "margin":
            self.is_classifier = is_classifier(estimator) or hasattr(
                estimator, "classes_")
            self._margin = _margin_kwargs(estimator)
            if self._margin is None and self._logits is None and self.is_classifier \
                    and not hasattr(estimator, "decision_function"):
                raise ValueError(
                    f"{type(_final_estimator(estimator)).__name__} has no raw "
                    "margin (no decision_function, not an xgboost/LightGBM/"
                    "CatBoost model or MLPClassifier); use output='proba'."
                )
            output = "decision" if self.is_classifier else "predict"
        if output == "auto":
            output = "proba" if self.is_classifier else "predict"
        # Errors name the model doing the work, not its FrozenEstimator or
        # Pipeline wrapper.
        if output in ("proba", "decision") and not self.is_classifier:
            raise ValueError(
                f"output={output!r} needs a classifier, but "
                f"{type(_final_estimator(estimator)).__name__} is not one; use "
                "output='predict'."
            )
        if output == "proba" and not hasattr(estimator, "predict_proba"):
            raise ValueError(
                f"{type(_final_estimator(estimator)).__name__} has no "
                "predict_proba; use output='decision' or output='predict'."
            )
        if output == "decision" and self._margin is None and self._logits is None \
                and not hasattr(estimator, "decision_function"):
            if isinstance(_final_estimator(estimator), MLPClassifier):
                check_fitted_classifier(estimator)
            raise ValueError(
                f"{type(_final_estimator(estimator)).__name__} has no "
                "decision_function; use output='proba'."
            )
        if output in ("proba", "decision"):
            check_fitted_classifier(estimator)
        if output == "predict":
            check_single_output_target(target, estimator, output=output)
        self.output = output
        self.batch_size = batch_size
        self.dtype = model_input_dtype(estimator)
        names = getattr(estimator, "feature_names_in_", None)
        self.feature_names = None if names is None else list(names)
        self.codec = codec
        # Blocks of model calls are sized for the device the model runs on.
        self.device = model_device(estimator)
        self.n_evaluations = 0
        self.n_calls = 0
        # Set by affine_once: the output was checked once and is not affine.
        self.affine_checked = False

    # ------------------------------------------------------------ device path
    @property
    def device_path(self):
        """Whether model inputs are built and evaluated on the model's device.

        True for a torch model (:meth:`torch_model`) on an accelerator; a
        model on the CPU takes the numpy path, which runs there already and
        is as fast (per-row batched products are faster in numpy than in
        torch on the CPU).
        """
        if _DEVICE_PATH is False or self.device is None or (
                _DEVICE_PATH is None and self.device.type == "cpu"):
            return False  # decided before the torch module is built
        return self.torch_model() is not None

    def torch_model(self):
        """The explained output as a torch module on the model's device.

        Returns
        -------
        module : torch.nn.Module or None
            Maps rows (a tensor of shape (m, n_features) in the module's
            dtype, on :attr:`device`) to the model's scores, one column per
            class (``predict_proba``, or the decision function with two
            columns for two classes) or one column for ``output="predict"``.
            ``None`` when the model is not a torch module with parameters,
            or is read through a ``codec`` or a library-specific output: it
            is then evaluated on the host.
        """
        if "_torch_module" not in self.__dict__:
            self._torch_module = self._build_torch_model()
        return self._torch_module

    def _build_torch_model(self):
        if self.device is None or self.codec is not None \
                or self._margin is not None or self._logits is not None:
            return None
        if self.output == "predict" and (is_classifier(self.estimator)
                                         or hasattr(self.estimator, "classes_")):
            return None  # predicted labels, not scores
        from sklearn_xai.utils._exceptions import NotApplicableError
        from sklearn_xai.utils._torch_model import explained_torch_module

        try:
            module, dtype, device = explained_torch_module(self.estimator, self.output)
        except NotApplicableError:
            return None
        self._torch_dtype = dtype
        return module

    @property
    def torch_dtype(self):
        """The dtype of the torch model's parameters, its inputs' dtype on the
        device path (``None`` when :meth:`torch_model` is None)."""
        return None if self.torch_model() is None else self._torch_dtype

    def as_tensor(self, a, dtype=None):
        """``a`` as a tensor on the model's device, in the model's dtype.

        Parameters
        ----------
        a : array-like or torch.Tensor
        dtype : torch.dtype or None, default=None
            ``None``: the dtype of the model's parameters.

        Returns
        -------
        tensor : torch.Tensor
        """
        import torch

        self._check_torch_model("as_tensor")
        dtype = self._torch_dtype if dtype is None else dtype
        return torch.as_tensor(a).to(device=self.device, dtype=dtype)

    def _check_torch_model(self, caller):
        if self.torch_model() is None:
            raise ValueError(
                f"{caller} needs a torch model on a device; this output is evaluated "
                "on the host (torch_model() is None): use the numpy methods.")

    def scores_tensor(self, Z):
        """:meth:`scores` of rows held as a tensor on the model's device.

        Parameters
        ----------
        Z : torch.Tensor of shape (m, n_features)
            On :attr:`device`; cast to the module's dtype.

        Returns
        -------
        scores : torch.Tensor of shape (m,) or (m, n_classes), float64
            On the device (float32 where the device has no float64).
        """
        import torch

        from sklearn_xai.utils._torch import eval_mode

        self._check_torch_model("scores_tensor")
        model = self.torch_model()
        Z = Z.to(dtype=self._torch_dtype)
        n_features = int(np.prod(Z.shape[1:])) if Z.ndim > 1 else 1
        step = self.batch_size or max(
            block_entries(self.device) // max(n_features, 1), 1)
        outs = []
        with torch.no_grad(), eval_mode(model):
            for start in range(0, len(Z), step):
                chunk = Z[start : start + step]
                self.n_calls += 1
                self.n_evaluations += len(chunk)
                outs.append(model(chunk))
        wide = torch.float32 if self.device.type == "mps" else torch.float64
        if not outs:
            n_out = 1 if self.output == "predict" else self.n_outputs
            out = torch.empty((0, n_out), dtype=wide, device=self.device)
        else:
            out = (outs[0] if len(outs) == 1 else torch.cat(outs)).to(wide)
        if self.output == "predict":
            out = _one_output(out)
        return out

    # ------------------------------------------------------------------ model
    def _raw(self, Z):
        """Model scores of shape (m,) (regression) or (m, n_classes)."""
        Z = np.asarray(Z)
        n_features = Z.shape[1] if Z.ndim == 2 else int(np.prod(Z.shape[1:]))
        step = self.batch_size or max(
            block_entries(self.device) // max(n_features, 1), 1)
        if self.device_path and len(Z):
            # A torch model on an accelerator: each call's rows are cast to
            # its dtype on their way there and evaluated by the module itself
            # (no host cast of all rows, no per-call validation by skorch).
            return np.concatenate([
                to_numpy(self.scores_tensor(self.as_tensor(Z[start:start + step])))
                for start in range(0, len(Z), step)])
        if Z.dtype != self.dtype and self.codec is None:
            Z = Z.astype(self.dtype)
        outs = []
        for start in range(0, max(len(Z), 1), step):
            chunk = Z[start : start + step]
            if len(chunk) == 0:
                break
            self.n_calls += 1
            self.n_evaluations += len(chunk)
            if self.codec is not None:
                # Codes of a raw DataFrame: the model sees the user's columns
                # and dtypes (strings, categoricals) again.
                chunk = self.codec.decode(chunk)
            else:
                chunk = model_input(self.estimator, chunk, self.feature_names)
            if self.output == "proba":
                out = self.estimator.predict_proba(chunk)
            elif self._margin is not None and self.output == "predict":
                out = self.estimator.predict(chunk, **self._margin)
            elif self.output == "decision":
                if self._logits is not None:
                    out = self._logits(chunk)
                elif self._margin is None:
                    out = self.estimator.decision_function(chunk)
                else:
                    out = self.estimator.predict(chunk, **self._margin)
                out = np.asarray(out, dtype=np.float64)
                if out.ndim == 1:  # binary: score of classes_[1]
                    out = np.column_stack([-out, out])
            else:
                out = self.estimator.predict(chunk)
            outs.append(np.asarray(out, dtype=np.float64))
        if not outs:
            n_out = len(getattr(self.estimator, "classes_", [])) or 1
            shape = (0, n_out) if self.output != "predict" else (0,)
            return np.empty(shape)
        return outs[0] if len(outs) == 1 else np.concatenate(outs, axis=0)

    @property
    def n_outputs(self):
        """Number of classes (classifiers) or 1."""
        if self.output == "predict":
            return 1
        return len(self.estimator.classes_)

    # ----------------------------------------------------------------- target
    def target_index(self, X, target=None):
        """Column index of the explained class for each row of ``X``.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The original (unperturbed) rows.
        target : see class docstring, default=None
            Overrides ``self.target`` when given.

        Returns
        -------
        index : ndarray of shape (n_samples,), dtype int, or None
            ``None`` for regression outputs.
        """
        if self.output == "predict":
            check_single_output_target(target, self.estimator, output=self.output)
            return None
        target = self.target if target is None else target
        n = len(X)
        classes = np.asarray(self.estimator.classes_)
        if isinstance(target, str) and target == "predicted":
            return np.argmax(self._raw(X), axis=1).astype(np.intp)
        if np.ndim(target) == 0:
            if isinstance(target, numbers.Integral) and not isinstance(target, bool):
                idx = int(target)
                if not -len(classes) <= idx < len(classes):
                    raise ValueError(
                        f"target={target} is not a valid class index for a model "
                        f"with {len(classes)} classes."
                    )
                return np.full(n, idx % len(classes), dtype=np.intp)
            return np.full(n, class_index(classes, [target])[0], dtype=np.intp)
        target = np.asarray(target)
        if target.shape != (n,):
            raise ValueError(
                f"target as an array must have one label per row, shape ({n},); "
                f"got shape {target.shape}."
            )
        return class_index(classes, target)

    def all_outputs(self, Z):
        """The explained output for every class at once.

        Parameters
        ----------
        Z : ndarray of shape (m, n_features)

        Returns
        -------
        values : ndarray of shape (m, n_outputs), float64
            One column per class (``predict_proba`` or the decision function,
            two columns for a binary decision), or one column for
            ``output="predict"``; the model is called once per batch.
        """
        raw = self._raw(Z)
        if raw.ndim == 1:
            return raw[:, None]
        if self.output == "predict" and raw.shape[1] != 1:
            raise ValueError(
                "Multi-output regressors are not supported: the explained "
                "output must be one scalar per row."
            )
        return raw

    # ------------------------------------------------- blocks of derived rows
    def scores(self, Z):
        """Model scores of ``Z``, from which the explained scalar is selected.

        Parameters
        ----------
        Z : ndarray of shape (m, n_features)

        Returns
        -------
        scores : ndarray of shape (m,) or (m, n_classes), float64
            ``predict`` for ``output="predict"``; otherwise one column per
            class (two columns for a binary decision function).
        """
        raw = self._raw(Z)
        if self.output == "predict" and raw.ndim == 2:
            raw = _one_output(raw)
        return raw

    def fixed_target_index(self, X):
        """Class index per row when it is fixed in advance, else None.

        An explicit ``target`` (a class index, a label or one label per row)
        does not depend on the model's output at ``X``; ``"predicted"`` does
        (it is read from the scores of ``X`` as they are computed, see
        :meth:`blocks_with_x`) and regression outputs have no class.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The original rows.

        Returns
        -------
        index : ndarray of shape (n_samples,), dtype int, or None
        """
        if self.output == "predict" or (isinstance(self.target, str)
                                        and self.target == "predicted"):
            return None
        return self.target_index(X)

    @staticmethod
    def select(scores, target_index):
        """The explained scalar of ``scores`` for each row's class.

        Parameters
        ----------
        scores : ndarray or torch.Tensor of shape (c, ...[, n_classes])
            Scores from :meth:`scores` (or :meth:`scores_tensor`) for ``c``
            rows (and any number of derived inputs per row).
        target_index : ndarray or torch.Tensor of shape (c,) or None
            The class of each row, of the same kind as ``scores``; None for
            regression (``scores`` is then returned as is).

        Returns
        -------
        values : ndarray or torch.Tensor of shape (c, ...)

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_xai.utils import ExplainedOutput
        >>> scores = np.array([[0.2, 0.8], [0.6, 0.4]])
        >>> ExplainedOutput.select(scores, np.array([1, 1])).tolist()
        [0.8, 0.4]
        """
        if target_index is None:
            return scores
        # One code path for numpy arrays and torch tensors (see the module
        # docstring); advanced indexing is 5x faster than take_along_axis.
        xp = array_namespace(scores)
        rows = xp.arange(target_index.shape[0], device=device_of(scores))
        if scores.ndim == 2:
            return scores[rows, target_index]
        flat = scores.reshape(target_index.shape[0], -1, scores.shape[-1])
        return flat[rows, :, target_index].reshape(scores.shape[:-1])

    def blocks_with_x(self, X, per_row, build, *, target_index=None,
                      parameter=None, on_device=False):
        """Evaluate blocks of rows together with inputs derived from them.

        For every block ``sl`` of rows (:func:`block_slices` with this
        object's ``batch_size``), ``build(sl, out)`` writes the ``per_row``
        model inputs of each row into ``out``, shape (c, per_row, d); the
        model sees ``X[sl]`` followed by them, from one buffer filled in
        place, in one call (split only by ``batch_size``).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The original rows.
        per_row : int
            Derived inputs per row.
        build : callable
            ``build(sl, out)`` fills ``out`` in place.
        target_index : ndarray of shape (n_samples,) or None, default=None
            The class of each row when fixed in advance
            (:meth:`fixed_target_index`); None reads it from the scores at
            ``X[sl]`` (``target="predicted"``).
        parameter : str or None, default=None
            The caller's parameter setting ``per_row``, named when one
            row's block exceeds the allocation limit
            (:func:`~sklearn_xai.utils.check_allocation`, checked before
            the first block is built).
        on_device : bool, default=False
            The caller's ``build`` also fills a torch tensor: on the device
            path (:attr:`device_path`), ``out`` is a tensor on the model's
            device in its dtype, and ``t``, ``scores_x`` and ``scores_z``
            are tensors there (float64 scores, int64 classes).  Otherwise
            the numpy path.

        Yields
        ------
        sl : slice
            The rows of the block.
        t : ndarray of shape (c,) or None
            The explained class of each row (None for regression).
        scores_x : ndarray of shape (c,[ n_classes])
            Scores at ``X[sl]``.
        scores_z : ndarray of shape (c, per_row[, n_classes])
            Scores of the derived inputs.
        """
        n, d = X.shape
        check_allocation(
            (per_row + 1) * d, what=f"the {per_row} model inputs of one row",
            parameter=parameter or "the count of perturbations, draws or steps")
        device = on_device and self.device_path
        if device:
            import torch

            X = self.as_tensor(X)
            if target_index is not None:
                target_index = self.as_tensor(target_index, dtype=torch.int64)
        for sl in block_slices(n, per_row + 1, d, self.batch_size, self.device):
            Xs = X[sl]
            c = Xs.shape[0]
            if device:
                buf = torch.empty((c * (per_row + 1), d), dtype=X.dtype,
                                  device=X.device)
            else:
                buf = np.empty((c * (per_row + 1), d))
            buf[:c] = Xs
            build(sl, buf[c:].reshape(c, per_row, d))
            raw = self.scores_tensor(buf) if device else self.scores(buf)
            raw_x, raw_z = raw[:c], raw[c:].reshape((c, per_row) + tuple(raw.shape[1:]))
            if self.output == "predict":
                t = None
            elif target_index is not None:
                t = target_index[sl]
            else:
                t = array_namespace(raw_x).argmax(raw_x, axis=1)
            yield sl, t, raw_x, raw_z

    # ------------------------------------------------------------------- call
    def __call__(self, Z, target_index=None):
        """Scalar output for each row of ``Z``.

        Parameters
        ----------
        Z : ndarray of shape (m, n_features)
        target_index : ndarray of shape (m,) or None
            Class column per row; ``None`` uses ``target`` evaluated at ``Z``
            itself (only right for unperturbed rows).

        Returns
        -------
        values : ndarray of shape (m,), float64
        """
        raw = self._raw(Z)
        if self.output == "predict":
            if raw.ndim == 2:
                if raw.shape[1] != 1:
                    raise ValueError(
                        "Multi-output regressors are not supported: the explained "
                        "output must be one scalar per row."
                    )
                raw = raw[:, 0]
            return raw
        if target_index is None:
            target = self.target
            if isinstance(target, str) and target == "predicted":
                target_index = np.argmax(raw, axis=1)
            else:
                target_index = self.target_index(Z)
        target_index = np.asarray(target_index, dtype=np.intp)
        if target_index.shape != (len(raw),):
            raise ValueError(
                f"target_index must have shape ({len(raw)},), got {target_index.shape}."
            )
        return raw[np.arange(len(raw)), target_index]


def explained_output(estimator, *, target="predicted", output="auto", batch_size=None):
    """Build the :class:`ExplainedOutput` of a fitted estimator.

    Parameters
    ----------
    estimator : fitted estimator
    target : "predicted", int, label or array-like, default="predicted"
    output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
    batch_size : int or None, default=None

    Returns
    -------
    f : ExplainedOutput

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.utils import explained_output
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> clf = LogisticRegression().fit(X, [0, 0, 1, 1])
    >>> f = explained_output(clf)
    >>> t = f.target_index(X)
    >>> t.tolist()
    [0, 0, 1, 1]
    >>> bool(np.all(f(X, t) >= 0.5))
    True
    """
    return ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)


class AffineOutput:
    """An explained output known to be ``f(z) = z @ coef_ + intercept_``.

    Exposes ``coef_`` / ``intercept_`` (and no ``fit``), which the maskers
    and :func:`~sklearn_xai.datasets.exact_shapley_values` recognise to
    compute expectations in closed form; calls are delegated to the wrapped
    output.
    """

    def __init__(self, f, coef, intercept):
        self.f = f
        self.coef_ = coef
        self.intercept_ = intercept
        self.output = f.output
        self.batch_size = f.batch_size

    def __call__(self, Z, target_index=None):
        return self.f(Z, target_index)

    def fixed_target_index(self, X):
        return None  # a regression output has no class

    @property
    def n_evaluations(self):
        return self.f.n_evaluations


# Explained rows (and as many shifted, rescaled copies) on which a model
# with a coefficient vector must be affine to be treated as one.
_AFFINE_PROBE_ROWS = 16


def affine_output(f, estimator, X):
    """``f`` as an :class:`AffineOutput` when the regressor is affine.

    A model with a single coefficient vector counts as affine only when its
    predictions equal ``X @ coef_ + intercept_`` on the first explained rows
    and on a shifted, rescaled copy of them (GLMs with a non-identity link
    fail), checked in one small model call.
    """
    if f.output != "predict" or len(X) == 0 or getattr(f, "codec", None) is not None:
        return f
    model = unfreeze(estimator)
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    if coef is None or intercept is None:
        return f
    w = np.asarray(coef, dtype=np.float64).ravel()
    c = np.asarray(intercept, dtype=np.float64).ravel()
    if w.shape != (X.shape[1],) or c.size != 1 or not np.all(np.isfinite(w)):
        return f
    c = float(c[0])
    rows = X[:_AFFINE_PROBE_ROWS]
    probe = np.vstack([rows, 0.5 * rows + 1.0])
    linear = probe @ w + c
    scale = max(1.0, float(np.max(np.abs(linear))))
    if np.allclose(f(probe), linear, rtol=0.0, atol=1e-9 * scale):
        return AffineOutput(f, w, c)
    return f


def affine_once(f, X):
    """``f`` with the affine check of :func:`affine_output` made once, on
    the first rows of ``X``, for callers that evaluate ``X`` block by block.

    A masker checks an :class:`ExplainedOutput` in every ``evaluate`` call
    (one probe per block, on the block's first rows); this returns the
    :class:`AffineOutput` of an affine regressor, and ``f`` itself
    otherwise, marked ``affine_checked`` for a regression output (not
    checked again; classifier outputs are never affine).
    """
    if not isinstance(f, ExplainedOutput) or f.output != "predict":
        return f
    affine = affine_output(f, f.estimator, X)
    if affine is f:
        f.affine_checked = True  # not affine: evaluate() does not check again
    return affine

