"""Dense ReLU networks as a chain of float64 affine layers (numpy).

Relevance propagation (:mod:`sklearn_xai.explainers._lrp`) and the signal
patterns of PatternNet (:mod:`sklearn_xai.explainers._pattern`) walk a
network layer by layer.  This module turns a differentiable model (see
:func:`~sklearn_xai.explainers.differentiable_model`: a skorch net, a
scikit-learn MLP or linear model replicated in torch, with affine scalers in
front) into that chain:

* the explained score is the **decision** score of the model (the logits,
  ``±(z_1 - z_0)`` for two classes, as ``decision_function``) or the
  prediction of a regressor: the output nonlinearity (softmax, sigmoid) is
  not part of the chain, as in Bach et al. (2015) and Kindermans et al.
  (2018);
* supported layers, in a plain sequence: ``torch.nn.Linear``,
  ``torch.nn.ReLU``, ``torch.nn.Dropout`` (the identity in evaluation
  mode), ``torch.nn.BatchNorm1d`` (an element-wise affine map in evaluation
  mode) and the folded scalers of a Pipeline (``StandardScaler``,
  ``MaxAbsScaler``, ``RobustScaler``, ``MinMaxScaler`` without ``clip``);
  element-wise affine maps are folded into the next ``Linear`` layer (into
  the last one when none follows);
* the chain is checked against the model's own output on the training rows,
  so a module whose ``forward`` does more than apply its layers in order
  (skip connections, reshapes, convolutions) is refused with a
  ``TypeError`` instead of being explained wrongly.
"""

import numpy as np
import torch
from torch import nn

from sklearn_xai.explainers._torch import Affine, explained_module
from sklearn_xai.utils import NotApplicableError

__all__ = ["DenseChain", "dense_chain"]

_SUPPORTED = ("torch.nn.Linear", "torch.nn.ReLU", "torch.nn.Dropout",
              "torch.nn.BatchNorm1d (evaluation mode)", "the affine scalers of a Pipeline")


class DenseChain:
    """``z_l = a_l @ W_l.T + b_l``, ``a_{l+1} = relu(z_l)`` where ``relu[l]``.

    Parameters
    ----------
    weights : list of ndarray of shape (d_out, d_in)
    biases : list of ndarray of shape (d_out,)
    relu : list of bool
        Whether a ReLU follows layer ``l`` (never after the last layer).
    """

    def __init__(self, weights, biases, relu):
        self.weights = weights
        self.biases = biases
        self.relu = relu

    def __len__(self):
        return len(self.weights)

    def forward(self, X):
        """The inputs ``a_l`` and pre-activations ``z_l`` of every layer.

        Parameters
        ----------
        X : ndarray of shape (n, n_features)

        Returns
        -------
        inputs : list of ndarray
            ``inputs[0]`` is ``X``.
        pre : list of ndarray
            ``pre[-1]`` holds the explained scores, one column per class.
        """
        inputs, pre = [], []
        a = np.asarray(X, dtype=np.float64)
        for W, b, relu in zip(self.weights, self.biases, self.relu):
            inputs.append(a)
            z = a @ W.T + b
            pre.append(z)
            a = np.maximum(z, 0.0) if relu else z
        return inputs, pre


def _unsupported(explainer, layer):
    return NotApplicableError(
        f"{explainer} supports dense ReLU networks only: a plain sequence of "
        f"{', '.join(_SUPPORTED)}; got a {type(layer).__name__} layer"
        + (" (a MinMaxScaler with clip=True is not affine)" if isinstance(layer, Affine)
           else "")
        + ". Captum's LRP, DeepLift and the other gradient explainers handle other "
        "architectures (convolutions, tanh and sigmoid activations)."
    )


def _elementwise(layer):
    """``(scale, offset)`` of an element-wise affine layer, or None."""
    if isinstance(layer, Affine):
        if layer.clip is not None:
            return None
        return (layer.scale.detach().cpu().double().numpy(),
                layer.offset.detach().cpu().double().numpy())
    if isinstance(layer, nn.BatchNorm1d):
        if layer.training or not layer.track_running_stats or layer.running_var is None:
            return None
        var = layer.running_var.detach().cpu().double().numpy()
        mean = layer.running_mean.detach().cpu().double().numpy()
        scale = 1.0 / np.sqrt(var + layer.eps)
        if layer.affine:
            scale = scale * layer.weight.detach().cpu().double().numpy()
            offset = layer.bias.detach().cpu().double().numpy() - mean * scale
        else:
            offset = -mean * scale
        return scale, offset
    return None


def _decision_head(n_outputs):
    """The map from the module's outputs to the explained decision scores:
    ``(z_0 - z_1, z_1 - z_0)`` for two outputs, the identity otherwise."""
    if n_outputs == 2:
        return np.array([[1.0, -1.0], [-1.0, 1.0]])
    return np.eye(n_outputs)


def dense_chain(estimator, output, X, *, explainer="This explainer"):
    """The :class:`DenseChain` of the explained score of a fitted model.

    Parameters
    ----------
    estimator : fitted estimator
        A differentiable model (see
        :func:`~sklearn_xai.explainers.differentiable_model`).
    output : {"proba", "decision", "predict"}
        The resolved explained output; ``"proba"`` and ``"decision"`` both
        give the decision scores (the softmax is not propagated through).
    X : ndarray of shape (n, n_features)
        Rows on which the chain is checked against the model.
    explainer : str, default="This explainer"
        Name used in the error messages.

    Returns
    -------
    chain : DenseChain

    Raises
    ------
    TypeError
        If the model is not a plain sequence of supported layers.
    """
    mode = "predict" if output == "predict" else "decision"
    model, dtype, device = explained_module(estimator, mode, explainer=explainer)
    model.eval()
    leaves = [m for m in model.modules() if not list(m.children())]
    weights, biases, relu = [], [], []
    pending = None  # element-wise (scale, offset) waiting for the next Linear
    for layer in leaves:
        if isinstance(layer, nn.Linear):
            W = layer.weight.detach().cpu().double().numpy()
            b = (np.zeros(W.shape[0]) if layer.bias is None
                 else layer.bias.detach().cpu().double().numpy())
            if pending is not None:  # W (s x + t) + b
                s, t = pending
                b = b + W @ t
                W = W * s
                pending = None
            weights.append(W)
            biases.append(b)
            relu.append(False)
        elif isinstance(layer, nn.ReLU):
            if not weights or relu[-1] or pending is not None:
                raise _unsupported(explainer, layer)
            relu[-1] = True
        elif isinstance(layer, nn.Dropout):
            continue
        else:
            affine = _elementwise(layer)
            if affine is None:
                raise _unsupported(explainer, layer)
            if pending is None:
                pending = affine
            else:  # s2 (s1 x + t1) + t2
                pending = (pending[0] * affine[0], pending[1] * affine[0] + affine[1])
    if not weights:
        raise NotApplicableError(f"{explainer} found no torch.nn.Linear layer in the model.")
    if pending is not None:  # after the last Linear: s (W x + b) + t
        s, t = pending
        weights[-1] = weights[-1] * s[:, None]
        biases[-1] = biases[-1] * s + t
    if relu[-1]:
        raise NotApplicableError(
            f"{explainer}: the model ends in a ReLU; the explained scores must be "
            "the output of a Linear layer."
        )
    head = _decision_head(weights[-1].shape[0]) if mode == "decision" else \
        np.eye(weights[-1].shape[0])
    weights[-1] = head @ weights[-1]
    biases[-1] = head @ biases[-1]
    chain = DenseChain(weights, biases, relu)
    # The chain must be the model: compare on (up to 256) training rows.
    rows = np.asarray(X[:256], dtype=np.float64)
    with torch.no_grad():
        expected = model(torch.as_tensor(rows, dtype=dtype, device=device))
    expected = expected.detach().cpu().double().numpy().reshape(len(rows), -1)
    got = chain.forward(rows)[1][-1]
    tol = 1e-4 if dtype != torch.float64 else 1e-9
    if got.shape != expected.shape or not np.allclose(
            got, expected, rtol=tol, atol=tol * (1.0 + np.abs(expected).max(initial=0))):
        raise NotApplicableError(
            f"{explainer} supports dense ReLU networks only: a plain sequence of "
            f"{', '.join(_SUPPORTED)}. The layers of this model, applied in the "
            "order they are registered, do not reproduce its output (its forward "
            "does something else: a skip connection, a reshape, a functional "
            "activation). Captum's LRP and the other gradient explainers handle "
            "such models."
        )
    return chain
