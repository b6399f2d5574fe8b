"""ReLU networks with skip connections as a graph of float64 layers.

:func:`~sklearn_xai.explainers._chain.layer_chain` reads a network whose
``forward`` applies its layers one after the other.  A residual network
(``out = out + identity``), a 1-D CNN, or a net ending in a global average
pool is read here instead, from the module's ``torch.fx`` symbolic trace
(:func:`torch.fx.symbolic_trace`, shapes from a
:class:`torch.fx.Interpreter` run on two training rows), into
the same :class:`~sklearn_xai.explainers._chain.LayerChain`, whose
``parents`` then describe a graph; relevance propagation, deep Taylor and
the patterns walk it with the same code (:meth:`LayerChain.backward`).

Supported operations of the traced module:

* ``nn.Linear``; ``nn.Conv2d`` and ``nn.Conv1d`` (stride, dilation, zero
  padding of any size or ``"same"``, ``groups=1``; ``padding_mode="reflect"``,
  ``"replicate"`` and ``"circular"`` are refused);
* ``nn.MaxPool2d`` / ``MaxPool1d`` (winner-take-all), ``nn.AvgPool2d`` /
  ``AvgPool1d``, ``nn.AdaptiveAvgPool2d`` / ``AdaptiveAvgPool1d`` (when the
  output size divides the input size: an average pool) and the global mean
  over the spatial axes (``x.mean(dim=(2, 3))``, ``x.mean(2)``): linear maps
  with non-negative weights, relevance shared in proportion to the
  contributions;
* ``nn.ReLU``, ``F.relu``, ``torch.relu``, ``Tensor.relu``;
* the sum of two tensors (``a + b``, ``torch.add``): the relevance is split
  in proportion to the summands, ``R_a = a R / stab(a + b)`` (the z-rule of
  a sum node, Montavon et al. 2019);
* ``nn.BatchNorm1d`` / ``BatchNorm2d`` (evaluation mode) right after a
  ``Linear`` or convolution whose output nothing else reads: folded into it
  (``W s``, ``b s + t``), so its rules see one affine layer;
* ``nn.Flatten``, ``nn.Unflatten``, ``torch.flatten``, ``reshape``,
  ``view``, ``squeeze``, ``unsqueeze``, ``contiguous`` (row-major reshapes);
  ``nn.Dropout*``, ``nn.Identity`` and ``F.dropout`` (the identity in
  evaluation mode).

Anything else (attention, a product of tensors, a custom autograd function,
an activation other than the ReLU) raises a
:class:`~sklearn_xai.utils.NotApplicableError` naming the operation.
"""

import operator
from types import SimpleNamespace

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from sklearn_xai.explainers._chain import (
    LayerChain,
    _AvgPool,
    _Conv,
    _conv_layer,
    _decision_head,
    _Dense,
    _elementwise,
    _Layer,
    _MaxPool,
    _numpy,
    _Reshape,
    _tensor,
    check_reproduces,
)
from sklearn_xai.explainers._torch import explained_module
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._torch import full_precision

__all__ = ["layer_graph"]

_GRAPH_SUPPORTED = (
    "torch.nn.Linear, Conv1d / Conv2d (zero padding, groups=1), MaxPool1d / 2d, "
    "AvgPool1d / 2d, AdaptiveAvgPool1d / 2d, the mean over the spatial axes, ReLU "
    "(module or F.relu / torch.relu), the sum of two tensors (residual connections), "
    "BatchNorm1d / 2d after a Linear or convolution, Dropout, Identity, Flatten and "
    "reshapes")


class _Add(_Layer):
    """The sum of two layers' outputs (a residual connection)."""

    proportional = True

    def forward(self, a):
        return a[0] + a[1]

    def transpose(self, s, a=None):
        return (s, s)


class _Conv1d(_Conv):
    """A ``Conv1d`` as a ``Conv2d`` of height 1 on ``(C, L)`` inputs; its
    weights (and patterns) have the shape ``(out, in, 1, k)``."""

    def __init__(self, weight, bias, in_shape, *, stride, pad, dilation):
        C, L = in_shape
        super().__init__(weight[:, :, None, :], bias, (C, 1, L), stride=(1, stride),
                         pad=(pad[0], pad[1], 0, 0), dilation=(1, dilation))
        self.bias = bias.reshape(-1, 1)
        self.in_shape = (C, L)
        self.out_shape = (self.out_shape[0], self.out_shape[2])

    def _windows(self, a):
        return super()._windows(a[:, :, None, :])

    def apply(self, a, V):
        return super().apply(a, V)[:, :, 0, :]

    def transpose(self, s, V):
        return super().transpose(s[:, :, None, :], V)[:, :, 0, :]

    def unit_outputs(self, z):
        return super().unit_outputs(z[:, :, None, :])


class _MaxPool1d(_MaxPool):
    """``MaxPool1d`` as a ``MaxPool2d`` of height 1."""

    def forward(self, a):
        return super().forward(a[:, :, None, :])[:, :, 0, :]

    def transpose(self, s, a):
        return super().transpose(s[:, :, None, :], a[:, :, None, :])


class _AvgPool1d(_AvgPool):
    """``AvgPool1d`` (and a mean over time) as an ``AvgPool2d`` of height 1."""

    def forward(self, a):
        return super().forward(a[:, :, None, :])[:, :, 0, :]

    def transpose(self, s, a=None):
        x = torch.zeros((len(s), self.in_shape[0], 1, self.in_shape[1]),
                        dtype=torch.float64, requires_grad=True)
        with torch.enable_grad():
            out = F.avg_pool2d(x, **self.kwargs)
            (g,) = torch.autograd.grad(out, x, _tensor(s[:, :, None, :]))
        return g[:, :, 0, :].numpy()


def _pool_spec(kernel, stride=None, padding=0, dilation=1, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return SimpleNamespace(kernel_size=kernel, stride=kernel if stride is None else stride,
                           padding=padding, dilation=dilation, ceil_mode=ceil_mode,
                           count_include_pad=count_include_pad,
                           divisor_override=divisor_override)


def _lift(value, fill):
    """A 1-D pooling parameter as the 2-D one of height 1."""
    value = value[0] if isinstance(value, (tuple, list)) else value
    return (fill, value)


def _refuse(explainer, op, reason=""):
    return NotApplicableError(
        f"{explainer} supports dense ReLU networks and ReLU CNNs, with residual "
        f"connections: graphs of {_GRAPH_SUPPORTED}; got {op}"
        + (f" ({reason})" if reason else "")
        + ". Captum's LRP, DeepLift, IntegratedGradients and the other gradient "
        "explainers handle other architectures (attention, other activations, "
        "custom autograd functions)."
    )


def _conv1d_layer(layer, in_shape, explainer):
    if layer.groups != 1 or layer.padding_mode != "zeros":
        reason = (f"groups={layer.groups}; only groups=1 is supported" if layer.groups != 1
                  else f"padding_mode={layer.padding_mode!r}; only zero padding is supported")
        raise _refuse(explainer, f"a {type(layer).__name__} layer", reason)
    W = _numpy(layer.weight)
    b = np.zeros(W.shape[0]) if layer.bias is None else _numpy(layer.bias)
    (k,), (d,), (s,) = W.shape[2:], layer.dilation, layer.stride
    if isinstance(layer.padding, str):
        total = 0 if layer.padding == "valid" else d * (k - 1)
        pad = (total // 2, total - total // 2)
    else:
        pad = (layer.padding[0], layer.padding[0])
    return _Conv1d(W, b, in_shape, stride=s, pad=pad, dilation=d)


class _Shapes(torch.fx.Interpreter):
    """The per-row shape of every tensor a traced module computes (the
    interpreter alone: torch.fx's ShapeProp imports sympy, seconds)."""

    def shapes(self, X):
        self._shapes = {}
        with torch.no_grad():
            self.run(X)
        return self._shapes

    def run_node(self, node):
        out = super().run_node(node)
        if torch.is_tensor(out):
            self._shapes[node] = tuple(out.shape[1:])
        return out


def _describe(node, module=None):
    if module is not None:
        return f"a {type(module).__name__} layer ({node.target!r})"
    if node.op == "call_function":
        name = getattr(node.target, "__qualname__", getattr(node.target, "__name__", None))
        return f"the function {name or node.target!r}"
    if node.op == "call_method":
        return f"the tensor method {node.target!r}"
    return f"the {node.op} node {node.target!r}"


_RESHAPE_METHODS = {"view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous",
                    "view_as", "reshape_as"}
_RESHAPE_FUNCTIONS = {torch.flatten, torch.reshape, torch.squeeze, torch.unsqueeze}
_RELU_FUNCTIONS = {F.relu, torch.relu}
_ADD_FUNCTIONS = {operator.add, operator.iadd, torch.add}
_IDENTITY_FUNCTIONS = {F.dropout, F.dropout1d, F.dropout2d}
_IDENTITY_MODULES = (nn.Identity, nn.Dropout, nn.Dropout1d, nn.Dropout2d)


def layer_graph(estimator, output, X, *, explainer="This explainer"):
    """The :class:`LayerChain` (a graph) of a module traced with ``torch.fx``.

    Parameters
    ----------
    estimator : fitted estimator
        A skorch net (or any estimator with a torch ``module_``; see
        :func:`~sklearn_xai.explainers.differentiable_model`) whose module
        ``torch.fx.symbolic_trace`` can trace.
    output : {"proba", "decision", "predict"}
        The resolved explained output (see
        :func:`~sklearn_xai.explainers._chain.layer_chain`).
    X : ndarray of shape (n, n_features)
        Rows on which the graph is traced and checked against the model.
    explainer : str, default="This explainer"
        Name used in the error messages.

    Returns
    -------
    chain : LayerChain
        With ``parents`` describing the graph.

    Raises
    ------
    NotApplicableError
        Naming the first unsupported operation.
    """
    mode = "predict" if output == "predict" else "decision"
    model, dtype, device = explained_module(estimator, mode, explainer=explainer)
    model.eval()
    if model.scalers is not None:
        raise _refuse(explainer, "scalers in front of the network",
                      "fold them into the first layer or explain the net alone")
    module = model.module
    rows = np.asarray(X[:256], dtype=np.float64)
    try:
        traced = torch.fx.symbolic_trace(module)
        shapes = _Shapes(traced).shapes(torch.as_tensor(rows[:2], dtype=dtype,
                                                       device=device))
    except Exception as exc:  # noqa: BLE001 - any tracing failure is a refusal
        raise _refuse(explainer, f"a module torch.fx cannot trace ({type(exc).__name__}: "
                      f"{str(exc).splitlines()[0] if str(exc) else ''})") from exc

    layers, parents = [], []
    index_of = {}  # fx node -> layer index (-1: the input)
    stale = set()  # fx nodes whose value a ReLU changed in place of
    readers = {}  # layer index -> number of layers reading its output

    def shape(node):
        return shapes.get(node)

    def source(node, op):
        if not isinstance(node, torch.fx.Node) or node not in index_of:
            raise _refuse(explainer, op, "an operand is not a tensor computed from the input")
        if node in stale:
            raise _refuse(explainer, op, "it reads a pre-activation that a ReLU also reads")
        return index_of[node]

    def add(layer, sources):
        for p in sources:
            readers[p] = readers.get(p, 0) + 1
        layers.append(layer)
        parents.append(tuple(sources))
        return len(layers) - 1

    def relu(node, op):
        p = source(node, op)
        if p < 0 or layers[p].relu or readers.get(p, 0) or len(node.users) > 1:
            raise _refuse(explainer, op, "a ReLU must follow a layer whose output "
                          "nothing else reads")
        layers[p].relu = True
        stale.add(node)
        return p

    def mean_pool(node, p, in_shape, dims, op):
        ndim = len(in_shape) + 1
        dims = sorted(d % ndim for d in ((dims,) if isinstance(dims, int) else dims))
        if len(in_shape) not in (2, 3) or dims != list(range(2, ndim)):
            raise _refuse(explainer, op, f"a mean over the axes {dims} of a tensor of "
                          f"shape {in_shape}; only the global mean over the spatial axes "
                          "is supported")
        if len(in_shape) == 3:
            pooled = _AvgPool(_pool_spec(in_shape[1:]), in_shape, (in_shape[0], 1, 1))
        else:
            pooled = _AvgPool1d(_pool_spec((1, in_shape[1])), in_shape, (in_shape[0], 1))
        p = add(pooled, (p,))
        out_shape = shape(node)
        if out_shape != pooled.out_shape:
            p = add(_Reshape(pooled.out_shape, out_shape), (p,))
        return p

    for node in traced.graph.nodes:
        if node.op == "placeholder":
            if index_of:
                raise _refuse(explainer, "a forward with several inputs")
            index_of[node] = -1
            continue
        if node.op == "output":
            result = node.args[0]
            break
        if shape(node) is None:
            # Not a tensor (x.shape[0], x.size(1), a tuple): shape arithmetic,
            # or the operand of an operation refused below when it is read.
            continue
        out_shape = shape(node)
        if node.op == "call_module":
            layer = traced.get_submodule(node.target)
            op = _describe(node, layer)
            (arg,) = node.args[:1] or (None,)
            p = source(arg, op)
            in_shape = shape(arg) if p >= 0 else (rows.shape[1],)
            if isinstance(layer, _IDENTITY_MODULES):
                index_of[node] = p
            elif isinstance(layer, nn.ReLU):
                index_of[node] = relu(arg, op)
            elif isinstance(layer, nn.Linear):
                if len(in_shape) != 1:
                    raise _refuse(explainer, op, f"its input has the shape {in_shape}")
                W = _numpy(layer.weight)
                b = np.zeros(W.shape[0]) if layer.bias is None else _numpy(layer.bias)
                index_of[node] = add(_Dense(W, b), (p,))
            elif isinstance(layer, nn.Conv2d):
                index_of[node] = add(_conv_layer(layer, in_shape, explainer), (p,))
            elif isinstance(layer, nn.Conv1d):
                index_of[node] = add(_conv1d_layer(layer, in_shape, explainer), (p,))
            elif isinstance(layer, (nn.MaxPool2d, nn.AvgPool2d)):
                if getattr(layer, "return_indices", False):
                    raise _refuse(explainer, op, "return_indices=True")
                kind = _MaxPool if isinstance(layer, nn.MaxPool2d) else _AvgPool
                index_of[node] = add(kind(layer, in_shape, out_shape), (p,))
            elif isinstance(layer, (nn.MaxPool1d, nn.AvgPool1d)):
                if getattr(layer, "return_indices", False):
                    raise _refuse(explainer, op, "return_indices=True")
                if isinstance(layer, nn.MaxPool1d):
                    spec = _pool_spec(_lift(layer.kernel_size, 1), _lift(layer.stride, 1),
                                      _lift(layer.padding, 0), _lift(layer.dilation, 1),
                                      layer.ceil_mode)
                    index_of[node] = add(_MaxPool1d(spec, in_shape, out_shape), (p,))
                else:
                    spec = _pool_spec(_lift(layer.kernel_size, 1), _lift(layer.stride, 1),
                                      _lift(layer.padding, 0), 1, layer.ceil_mode,
                                      layer.count_include_pad)
                    index_of[node] = add(_AvgPool1d(spec, in_shape, out_shape), (p,))
            elif isinstance(layer, (nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool1d)):
                sizes, outs = in_shape[1:], out_shape[1:]
                if len(sizes) != len(outs) or any(s % o for s, o in zip(sizes, outs,
                                                                         strict=True)):
                    raise _refuse(explainer, op, f"output size {outs} does not divide the "
                                  f"input size {sizes}")
                kernel = tuple(s // o for s, o in zip(sizes, outs, strict=True))
                if len(kernel) == 2:
                    index_of[node] = add(_AvgPool(_pool_spec(kernel), in_shape, out_shape),
                                         (p,))
                else:
                    index_of[node] = add(_AvgPool1d(_pool_spec((1, kernel[0])), in_shape,
                                                    out_shape), (p,))
            elif isinstance(layer, (nn.Flatten, nn.Unflatten)):
                index_of[node] = add(_Reshape(in_shape, out_shape), (p,))
            elif isinstance(layer, (nn.BatchNorm1d, nn.BatchNorm2d)):
                affine = _elementwise(layer)
                if affine is None:
                    raise _refuse(explainer, op, "a batch normalisation must be in "
                                  "evaluation mode with running statistics")
                prev = layers[p] if p >= 0 else None
                if not isinstance(prev, (_Dense, _Conv)) or prev.relu or readers.get(p, 0) \
                        or len(arg.users) > 1:
                    raise _refuse(explainer, op, "a batch normalisation must come right "
                                  "after a Linear or convolution whose output nothing else "
                                  "reads, to be folded into it")
                scale, offset = (v.ravel() for v in affine)
                expand = (-1,) + (1,) * (prev.weight.ndim - 1)
                prev.weight = prev.weight * scale.reshape(expand)
                bias_expand = (-1,) + (1,) * (prev.bias.ndim - 1)
                prev.bias = prev.bias * scale.reshape(bias_expand) + offset.reshape(bias_expand)
                index_of[node] = p
            else:
                raise _refuse(explainer, op)
            continue
        op = _describe(node)
        target = node.target
        is_method = node.op == "call_method"
        if (is_method and target in _RESHAPE_METHODS) or (
                node.op == "call_function" and target in _RESHAPE_FUNCTIONS):
            p = source(node.args[0], op)
            in_shape = shape(node.args[0]) if p >= 0 else (rows.shape[1],)
            if in_shape == out_shape:
                index_of[node] = p
            else:
                index_of[node] = add(_Reshape(in_shape, out_shape), (p,))
        elif (is_method and target == "relu") or (
                node.op == "call_function" and target in _RELU_FUNCTIONS):
            index_of[node] = relu(node.args[0], op)
        elif (is_method and target == "add") or (
                node.op == "call_function" and target in _ADD_FUNCTIONS):
            if len(node.args) != 2 or node.kwargs.get("alpha", 1) != 1:
                raise _refuse(explainer, op, "only the sum of two tensors is supported")
            a, b = (source(x, op) for x in node.args)
            if shape(node.args[0]) != out_shape or shape(node.args[1]) != out_shape:
                raise _refuse(explainer, op, "a broadcasting sum")
            index_of[node] = add(_Add(out_shape, out_shape), (a, b))
        elif (is_method and target == "mean") or (
                node.op == "call_function" and target is torch.mean):
            p = source(node.args[0], op)
            dims = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
            if dims is None:
                raise _refuse(explainer, op, "a mean over all axes")
            index_of[node] = mean_pool(node, p, shape(node.args[0]), dims, op)
        elif node.op == "call_function" and target in _IDENTITY_FUNCTIONS:
            index_of[node] = source(node.args[0], op)
        else:
            raise _refuse(explainer, op)

    if not isinstance(result, torch.fx.Node) or result not in index_of:
        raise _refuse(explainer, "a forward that does not return one tensor")
    last = source(result, "the output")
    if last != len(layers) - 1 or not isinstance(layers[last], _Dense) or layers[last].relu:
        raise NotApplicableError(
            f"{explainer}: the explained scores must be the output of the last "
            "torch.nn.Linear layer (without a ReLU after it).")
    dense = layers[last]
    head = _decision_head(dense.weight.shape[0]) if mode == "decision" else \
        np.eye(dense.weight.shape[0])
    dense.weight = head @ dense.weight
    dense.bias = head @ dense.bias
    chain = LayerChain(layers, parents)
    with torch.no_grad(), full_precision():  # the check's reference: no TF32
        expected = model(torch.as_tensor(rows, dtype=dtype, device=device))
    if not check_reproduces(chain, rows, expected, dtype):
        raise _refuse(explainer, "a graph that its layers do not reproduce",
                      "its forward does more than the operations above")
    return chain
