"""From a fitted estimator to the differentiable function gradient explainers
differentiate.

What is differentiable (:func:`differentiable_model`):

* a skorch net (its ``module_``), e.g. the estimators of
  :mod:`sklearn_xai.models`;
* a :class:`~sklearn.frozen.FrozenEstimator` of one;
* a :class:`~sklearn.pipeline.Pipeline` whose last step is one of the above
  and whose earlier steps are affine scalers (``StandardScaler``,
  ``MinMaxScaler``, ``MaxAbsScaler``, ``RobustScaler``): they are folded into
  the gradient as an element-wise affine torch layer, so attributions are with
  respect to the *raw* input columns (chain rule).

Anything else raises a ``TypeError`` naming the model-agnostic explainers.
:func:`explained_module` then builds the torch module mapping raw rows to the
explained outputs (one column per class), the same scalar every other
explainer and metric explains (see :ref:`def-explained-output`).
"""

import numpy as np
import torch
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, RobustScaler, StandardScaler
from torch import nn

from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.utils._estimators import unwrap

__all__ = [
    "Affine",
    "ExplainedModule",
    "differentiable_model",
    "explained_module",
    "is_torch_net",
    "predict_nonlinearity",
    "scaler_layer",
    "summed_output",
]

AFFINE_SCALERS = (StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler)


def is_torch_net(estimator):
    """Whether ``estimator`` is a fitted torch net (has a ``torch.nn.Module``
    ``module_``, as skorch nets do)."""
    return isinstance(getattr(estimator, "module_", None), nn.Module)


class Affine(nn.Module):
    """``x * scale + offset`` (then optionally clipped): a fitted scaler."""

    def __init__(self, scale, offset, clip=None):
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale))
        self.register_buffer("offset", torch.as_tensor(offset))
        self.clip = clip

    def forward(self, X):
        Z = X * self.scale + self.offset
        if self.clip is not None:
            Z = torch.clamp(Z, *self.clip)
        return Z


def scaler_layer(scaler, n_features):
    """The affine map of a fitted scaler as ``(scale, offset, clip)`` arrays."""
    scale = np.ones(n_features)
    offset = np.zeros(n_features)
    clip = None
    if isinstance(scaler, StandardScaler):
        if scaler.scale_ is not None:
            scale = 1.0 / scaler.scale_
        if scaler.mean_ is not None and scaler.with_mean:
            offset = -scaler.mean_ * scale
    elif isinstance(scaler, RobustScaler):
        if scaler.scale_ is not None:
            scale = 1.0 / scaler.scale_
        if scaler.center_ is not None:
            offset = -scaler.center_ * scale
    elif isinstance(scaler, MaxAbsScaler):
        scale = 1.0 / scaler.scale_
    else:  # MinMaxScaler
        scale, offset = scaler.scale_, scaler.min_
        if scaler.clip:
            clip = tuple(float(v) for v in scaler.feature_range)
    return np.asarray(scale, dtype=np.float64), np.asarray(offset, dtype=np.float64), clip


def _not_differentiable(estimator, explainer, reason):
    return TypeError(
        f"{explainer} needs a differentiable torch model: a skorch net (e.g. "
        "sklearn_xai.models.MLPNetClassifier), a FrozenEstimator of one, or a "
        "Pipeline of affine scalers (StandardScaler, MinMaxScaler, MaxAbsScaler, "
        f"RobustScaler) ending in one; got {type(estimator).__name__} ({reason}). "
        f"{model_agnostic_hint()}"
    )


def differentiable_model(estimator, *, explainer="This explainer"):
    """The torch pieces of a fitted differentiable model.

    Parameters
    ----------
    estimator : fitted estimator
        A skorch net, a ``FrozenEstimator`` of one, or a ``Pipeline`` of
        affine scalers ending in one.
    explainer : str, default="This explainer"
        Name used in the error message.

    Returns
    -------
    net : skorch.NeuralNet
        The fitted net whose ``module_`` is differentiated.
    scalers : list of (scale, offset, clip)
        The affine maps applied before the net, in order.

    Raises
    ------
    TypeError
        If the model is not differentiable; the message lists the
        model-agnostic explainers.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import differentiable_model
    >>> try:
    ...     differentiable_model(LogisticRegression())
    ... except TypeError as exc:
    ...     print(str(exc)[:52])
    This explainer needs a differentiable torch model: a
    """
    scalers = []
    steps, final = unwrap(estimator)
    for name, step in steps or ():
        if not isinstance(step, AFFINE_SCALERS):
            raise _not_differentiable(
                estimator, explainer,
                f"pipeline step {name!r} is a {type(step).__name__}, not an "
                "affine scaler",
            )
        scalers.append(scaler_layer(step, step.n_features_in_))
    if not is_torch_net(final):
        raise _not_differentiable(
            estimator, explainer,
            f"{type(final).__name__} has no torch module_",
        )
    return final, scalers


class ExplainedModule(nn.Module):
    """Raw input → scalers → net module → explained outputs (one per class)."""

    def __init__(self, scalers, module, nonlinearity, mode, dtype):
        super().__init__()
        # No empty container: Captum's LRP would take it for a rule-less layer.
        self.scalers = nn.Sequential(*[
            Affine(torch.as_tensor(s, dtype=dtype), torch.as_tensor(o, dtype=dtype), c)
            for s, o, c in scalers
        ]) if scalers else None
        self.module = module
        self.nonlinearity = nonlinearity
        self.mode = mode

    def forward(self, X):
        X = X.reshape(X.shape[0], -1)
        if self.scalers is not None:
            X = self.scalers(X)
        out = self.module(X)
        out = out[0] if isinstance(out, tuple) else out
        if self.mode == "decision":
            out = out.reshape(out.shape[0], -1)
            if out.shape[1] == 2:  # decision_function: z1 - z0 for classes_[1]
                diff = out[:, 1:] - out[:, :1]
                out = torch.cat([-diff, diff], dim=1)
            return out
        out = self.nonlinearity(out)
        return out.reshape(out.shape[0], -1)


def _identity(out):
    return out


def _softmax(out):
    return torch.softmax(out, dim=-1)


def _two_columns(proba):
    """``(1 - p, p)`` for a binary net with one probability column."""
    return torch.stack((1 - proba, proba), 1)


def _sigmoid_two_columns(logits):
    return _two_columns(torch.sigmoid(logits))


def predict_nonlinearity(net):
    """The function a skorch net's ``predict_proba`` applies to the module output.

    skorch's public ``predict_nonlinearity`` parameter, resolved as its
    documentation says: a callable is used as is, ``None`` is the identity,
    and ``"auto"`` follows the fitted criterion (``criterion_``): the
    softmax for :class:`torch.nn.CrossEntropyLoss`, the sigmoid (as two
    columns ``1 - p, p``) for :class:`torch.nn.BCEWithLogitsLoss`, two
    columns for :class:`torch.nn.BCELoss`, the identity otherwise.

    Parameters
    ----------
    net : skorch.NeuralNet
        A fitted net.

    Returns
    -------
    nonlinearity : callable
        Maps a tensor of module outputs to the tensor ``predict_proba``
        returns.

    Raises
    ------
    TypeError
        If ``predict_nonlinearity`` is neither ``"auto"``, ``None`` nor a
        callable.
    """
    nonlinearity = getattr(net, "predict_nonlinearity", "auto")
    if nonlinearity is None:
        return _identity
    if isinstance(nonlinearity, str) and nonlinearity == "auto":
        criterion = getattr(net, "criterion_", None)
        # A compiled criterion (torch.compile) wraps the module in _orig_mod.
        criterion = getattr(criterion, "_orig_mod", criterion)
        if isinstance(criterion, nn.CrossEntropyLoss):
            return _softmax
        if isinstance(criterion, nn.BCEWithLogitsLoss):
            return _sigmoid_two_columns
        if isinstance(criterion, nn.BCELoss):
            return _two_columns
        return _identity
    if not callable(nonlinearity):
        raise TypeError(
            "predict_nonlinearity has to be a callable, 'auto' or None; got "
            f"{nonlinearity!r}."
        )
    return nonlinearity


def explained_module(estimator, output, *, explainer="This explainer"):
    """The torch module of the explained outputs of a differentiable model.

    Parameters
    ----------
    estimator : fitted estimator
        See :func:`differentiable_model`.
    output : {"proba", "decision", "predict"}
        ``"proba"`` passes the module's output through the net's
        ``predict_proba`` nonlinearity, ``"decision"`` returns the logits
        (``±(z_1 - z_0)`` for two classes, like ``decision_function``).
    explainer : str, default="This explainer"
        Name used in the error message.

    Returns
    -------
    model : ExplainedModule
        On the device of the net's parameters.
    dtype : torch.dtype
        The dtype of the net's parameters (float32 without parameters).
    device : torch.device
    """
    net, scalers = differentiable_model(estimator, explainer=explainer)
    module = net.module_
    param = next(module.parameters(), None)
    dtype = torch.float32 if param is None else param.dtype
    device = torch.device("cpu") if param is None else param.device
    nonlinearity = predict_nonlinearity(net)
    model = ExplainedModule(scalers, module, nonlinearity, output, dtype)
    return model.to(device), dtype, device


def summed_output(model, target):
    """Forward function returning the sum of the explained outputs, shape (1,).

    Rows are independent (evaluation mode), so the gradient of the sum is the
    per-row gradient of each row's own output.  Captum differentiates a
    per-row output vector one element at a time (``torch.unbind``), which
    costs ~50 µs of Python per row; one scalar per call removes that.
    ``target`` is tiled when Captum stacks several copies of the rows
    (integrated gradients: one block per step).
    """
    def forward(X):
        out = model(X)
        reps = out.shape[0] // len(target)
        index = target.repeat(reps) if reps > 1 else target
        return out.gather(1, index[:, None]).sum().reshape(1)

    return forward
