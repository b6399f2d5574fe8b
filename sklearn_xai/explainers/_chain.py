"""ReLU networks (dense and convolutional) as a chain of float64 layers.

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
* supported layers, in the order the model's ``forward`` calls them:
  ``torch.nn.Linear``; ``torch.nn.Conv2d`` (any stride, padding and
  dilation, zero padding, ``groups=1``, with or without bias);
  ``torch.nn.MaxPool2d`` and ``torch.nn.AvgPool2d``; ``torch.nn.ReLU``;
  ``torch.nn.Dropout`` / ``Dropout2d`` (the identity in evaluation mode);
  ``torch.nn.BatchNorm1d`` / ``BatchNorm2d`` (element-wise affine maps in
  evaluation mode); ``torch.nn.Flatten``, ``Unflatten``, ``Identity`` and
  the reshapes a ``forward`` applies between layers (``X.reshape(-1, 1, L,
  L)`` in :class:`~sklearn_xai.models.TetrominoCNN`, ``torch.flatten``):
  they are read from the shapes the layers receive, traced once with forward
  hooks on the training rows; and the folded scalers of a Pipeline
  (``StandardScaler``, ``MaxAbsScaler``, ``RobustScaler``, ``MinMaxScaler``
  without ``clip``) in front of a dense network;
* element-wise affine maps are folded into the next ``Linear`` layer, or,
  when a ReLU, a pooling or a convolution follows them, into the ``Linear`` /
  ``Conv2d`` layer right before them (``Conv2d → BatchNorm2d → ReLU``); into
  the last layer when none follows;
* the chain is checked against the model's own output on the training rows,
  so a module whose ``forward`` does more than apply its layers in order
  (skip connections, functional activations) is refused with a
  ``TypeError`` instead of being explained wrongly; the explainers then read
  it as a graph (:mod:`sklearn_xai.explainers._lrp_graph`), into the same
  :class:`LayerChain` with ``parents``.

Each layer knows its forward map and, for the relevance rules and the
patterns, its *modified backward*: the transpose of its linear part with the
weights ``W`` replaced by another array of the same shape (``W^+``, ``W^2``,
the patterns...), ``s @ V`` for a dense layer, a transposed convolution
(``torch.nn.grad.conv2d_input``) for a convolution, batched over rows.  Max
pooling passes a signal back to the position of the maximum of each window
(winner-take-all, as zennit and iNNvestigate do, i.e. the gradient of the
max); average pooling by its transpose (the gradient).
"""

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from sklearn_xai.explainers._torch import explained_module
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._torch import full_precision
from sklearn_xai.utils._torch_model import Affine

__all__ = ["LayerChain", "layer_chain"]

_SUPPORTED = ("torch.nn.Linear", "torch.nn.Conv2d (zero padding, groups=1)",
              "torch.nn.MaxPool2d", "torch.nn.AvgPool2d", "torch.nn.ReLU",
              "torch.nn.Dropout", "torch.nn.BatchNorm1d / BatchNorm2d (evaluation mode)",
              "reshapes and torch.nn.Flatten", "the affine scalers of a Pipeline")


def _tensor(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


class _Layer:
    """A layer of the chain: ``forward`` maps ``(n, *in_shape)`` arrays to
    ``(n, *out_shape)`` ones; ``relu`` says whether a ReLU follows."""

    weighted = False
    convolution = False
    relu = False
    proportional = False  # relevance in proportion to the contributions

    def __init__(self, in_shape, out_shape):
        self.in_shape = tuple(in_shape)
        self.out_shape = tuple(out_shape)


class _Dense(_Layer):
    """``z = a @ W.T + b``."""

    weighted = True

    def __init__(self, weight, bias):
        super().__init__(weight.shape[1:], weight.shape[:1])
        self.weight = weight
        self.bias = bias

    def forward(self, a):
        return a @ self.weight.T + self.bias

    def apply(self, a, V):
        """The linear part with weights ``V``: ``a @ V.T``."""
        return a @ V.T

    def transpose(self, s, V):
        """Its transpose: ``s @ V``."""
        return s @ V

    def weight_sums(self, V):
        """``apply(ones, V)`` (the sum of each unit's weights ``V``)."""
        return V.sum(axis=1)

    def patches(self, a):
        """``(rows, d_in)``: the inputs one unit sees, one row per output."""
        return a

    def unit_outputs(self, z):
        """``(rows, d_out)``, aligned with :meth:`patches`."""
        return z


class _Conv(_Layer):
    """``z = conv2d(pad(a), W) + b`` (zero padding, ``groups=1``)."""

    weighted = True
    convolution = True

    def __init__(self, weight, bias, in_shape, *, stride, pad, dilation):
        self.weight = weight
        self.bias = bias.reshape(-1, 1, 1)
        self.stride = stride
        self.pad = pad  # (left, right, top, bottom), as F.pad takes it
        self.dilation = dilation
        C, H, W = in_shape
        self.padded_shape = (C, H + pad[2] + pad[3], W + pad[0] + pad[1])
        kh, kw = weight.shape[2:]
        out = [(size - d * (k - 1) - 1) // s + 1 for size, k, s, d in zip(
            self.padded_shape[1:], (kh, kw), stride, dilation, strict=True)]
        super().__init__(in_shape, (weight.shape[0], *out))

    def _windows(self, a):
        """``(n, C, H', W', kh, kw)``: the input patch of every output position
        (a strided view of the zero-padded input)."""
        left, right, top, bottom = self.pad
        if any(self.pad):
            a = np.pad(a, ((0, 0), (0, 0), (top, bottom), (left, right)))
        (kh, kw), (dh, dw), (sh, sw) = self.weight.shape[2:], self.dilation, self.stride
        windows = np.lib.stride_tricks.sliding_window_view(
            a, (dh * (kh - 1) + 1, dw * (kw - 1) + 1), axis=(2, 3))
        return windows[:, :, ::sh, ::sw, ::dh, ::dw]

    def forward(self, a):
        return self.apply(a, self.weight) + self.bias

    def apply(self, a, V):
        # numpy: torch's float64 conv2d and unfold run a slow path on the CPU
        # (0.1 s for a few hundred 8x8 images), its convolution_backward not.
        out = np.tensordot(self._windows(a), V, axes=([1, 4, 5], [1, 2, 3]))
        return np.ascontiguousarray(out.transpose(0, 3, 1, 2))

    def transpose(self, s, V):
        g = torch.nn.grad.conv2d_input((len(s), *self.padded_shape), _tensor(V),
                                       _tensor(s), self.stride, 0, self.dilation)
        left, right, top, bottom = self.pad
        H, W = self.padded_shape[1:]
        return g[:, :, top:H - bottom, left:W - right].numpy()

    def weight_sums(self, V):
        return self.apply(np.ones((1, *self.in_shape)), V)

    def patches(self, a):
        windows = self._windows(a)  # (n, C, H', W', kh, kw)
        return windows.transpose(0, 2, 3, 1, 4, 5).reshape(-1, int(np.prod(self.weight.shape[1:])))

    def unit_outputs(self, z):
        return z.reshape(len(z), z.shape[1], -1).transpose(0, 2, 1).reshape(-1, z.shape[1])


class _MaxPool(_Layer):
    """Max pooling; its transpose sends a signal to each window's maximum."""

    def __init__(self, layer, in_shape, out_shape):
        super().__init__(in_shape, out_shape)
        self.kwargs = dict(kernel_size=layer.kernel_size, stride=layer.stride,
                           padding=layer.padding, dilation=layer.dilation,
                           ceil_mode=layer.ceil_mode)

    def forward(self, a):
        return F.max_pool2d(_tensor(a), **self.kwargs).numpy()

    def transpose(self, s, a):
        """Winner-take-all: ``s`` of each window to the position of its
        maximum in ``a`` (summed where windows overlap)."""
        _, index = F.max_pool2d(_tensor(a), return_indices=True, **self.kwargs)
        n, C = s.shape[:2]
        out = torch.zeros(n, C, int(np.prod(self.in_shape[1:])), dtype=torch.float64)
        out.scatter_add_(2, index.reshape(n, C, -1), _tensor(s).reshape(n, C, -1))
        return out.reshape(n, *self.in_shape).numpy()


class _AvgPool(_Layer):
    """Average pooling, a linear map with non-negative weights."""

    proportional = True

    def __init__(self, layer, in_shape, out_shape):
        super().__init__(in_shape, out_shape)
        self.kwargs = dict(kernel_size=layer.kernel_size, stride=layer.stride,
                           padding=layer.padding, ceil_mode=layer.ceil_mode,
                           count_include_pad=layer.count_include_pad,
                           divisor_override=layer.divisor_override)

    def forward(self, a):
        return F.avg_pool2d(_tensor(a), **self.kwargs).numpy()

    def transpose(self, s, a=None):
        x = torch.zeros((len(s), *self.in_shape), dtype=torch.float64, requires_grad=True)
        with torch.enable_grad():
            out = F.avg_pool2d(x, **self.kwargs)
            (g,) = torch.autograd.grad(out, x, _tensor(s))
        return g.numpy()


class _Reshape(_Layer):
    """Row-major reshape (flatten, unflatten)."""

    def forward(self, a):
        return a.reshape(len(a), *self.out_shape)

    def transpose(self, s, a=None):
        return s.reshape(len(s), *self.in_shape)


class LayerChain:
    """A ReLU network as a sequence (or a graph) of float64 layers.

    ``a_l = relu(z_l)`` where ``layers[l].relu``, else ``z_l``, with
    ``z_l = layers[l].forward(inputs_l)``; ``inputs_l`` is the output of
    layer ``parents[l][0]`` (``-1``: the input rows), or the tuple of the
    outputs of ``parents[l]`` for a layer with several inputs (the residual
    sum of :mod:`sklearn_xai.explainers._lrp_graph`).  A plain chain has
    ``parents[l] = (l - 1,)``.  Layers are in topological order: the last
    one gives the explained scores.

    Parameters
    ----------
    layers : list
        The layers (dense, convolution, pooling, reshape, sum), in order.
    parents : list of tuple of int or None, default=None
        The layers each layer reads; ``None``: a chain.
    """

    def __init__(self, layers, parents=None):
        self.layers = layers
        self.parents = ([(i - 1,) for i in range(len(layers))] if parents is None
                        else [tuple(p) for p in parents])

    def __len__(self):
        return len(self.layers)

    @property
    def weighted(self):
        """Indices of the layers with weights (``Linear``, ``Conv1d``, ``Conv2d``)."""
        return [i for i, layer in enumerate(self.layers) if layer.weighted]

    @property
    def weights(self):
        """The weights of the weighted layers."""
        return [self.layers[i].weight for i in self.weighted]

    def conv_row_entries(self):
        """The most float64 entries one row takes in a convolution's patches
        (0 without convolutions): sizes the blocks of rows explained at once."""
        return max([int(np.prod(layer.out_shape[1:]) * np.prod(layer.weight.shape[1:]))
                    for layer in self.layers if layer.convolution], default=0)

    @property
    def relu(self):
        """Whether a ReLU follows each layer."""
        return [layer.relu for layer in self.layers]

    def forward(self, X):
        """The inputs ``a_l`` and pre-activations ``z_l`` of every layer.

        Parameters
        ----------
        X : ndarray of shape (n, n_features)

        Returns
        -------
        inputs : list of ndarray (or of tuples of ndarray)
            ``inputs[0]`` is ``X``; a tuple for a layer with several inputs.
        pre : list of ndarray
            ``pre[-1]`` holds the explained scores, one column per class.
        """
        inputs, pre = [], []
        outputs = {-1: np.asarray(X, dtype=np.float64)}
        for layer, parents in zip(self.layers, self.parents, strict=True):
            a = (outputs[parents[0]] if len(parents) == 1
                 else tuple(outputs[p] for p in parents))
            inputs.append(a)
            z = layer.forward(a)
            pre.append(z)
            outputs[len(pre) - 1] = np.maximum(z, 0.0) if layer.relu else z
        return inputs, pre

    def backward(self, signal, step):
        """Pass a signal of the explained scores back to the input.

        Parameters
        ----------
        signal : ndarray
            The signal (relevance, back-projected score) of the last layer's
            output.
        step : callable
            ``step(l, s)`` maps the signal ``s`` of layer ``l``'s output to
            that of its input (a tuple, one per parent, for a layer with
            several inputs).  The signals a layer's output receives from its
            several consumers (a residual branch and the skip connection)
            are summed.

        Returns
        -------
        signal : ndarray of shape (n, n_features)
        """
        pending = {len(self) - 1: signal}
        for index in range(len(self) - 1, -1, -1):
            s = pending.pop(index, None)
            if s is None:  # does not reach the explained scores
                continue
            parents = self.parents[index]
            out = step(index, s)
            for parent, part in zip(parents, out if len(parents) > 1 else (out,),
                                    strict=True):
                pending[parent] = part if parent not in pending else pending[parent] + part
        return pending[-1]


def _unsupported(explainer, layer, reason=""):
    return NotApplicableError(
        f"{explainer} supports dense ReLU networks and ReLU CNNs only: a plain "
        f"sequence of {', '.join(_SUPPORTED)}; got a {type(layer).__name__} layer"
        + (" (a MinMaxScaler with clip=True is not affine)" if isinstance(layer, Affine)
           else "")
        + (f" ({reason})" if reason else "")
        + ". Captum's LRP, DeepLift and the other gradient explainers handle other "
        "architectures (tanh and sigmoid activations, skip connections)."
    )


def _elementwise(layer):
    """``(scale, offset)`` of an element-wise affine layer (per channel for a
    BatchNorm2d, shapes ``(C, 1, 1)``), or None."""
    if isinstance(layer, Affine):
        if layer.clip is not None:
            return None
        return (layer.scale.detach().cpu().double().numpy(),
                layer.offset.detach().cpu().double().numpy())
    if isinstance(layer, (nn.BatchNorm1d, nn.BatchNorm2d)):
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
        if isinstance(layer, nn.BatchNorm2d):
            return scale.reshape(-1, 1, 1), offset.reshape(-1, 1, 1)
        return scale, offset
    return None


def _decision_head(n_outputs):
    """The map from the module's outputs to the explained decision scores:
    ``(z_0 - z_1, z_1 - z_0)`` for two outputs, the identity otherwise."""
    if n_outputs == 2:
        return np.array([[1.0, -1.0], [-1.0, 1.0]])
    return np.eye(n_outputs)


def _numpy(param):
    return param.detach().cpu().double().numpy()


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _conv_layer(layer, in_shape, explainer):
    if layer.groups != 1:
        raise _unsupported(explainer, layer, f"groups={layer.groups}; only groups=1 is "
                           "supported")
    if layer.padding_mode != "zeros":
        raise _unsupported(explainer, layer, f"padding_mode={layer.padding_mode!r}; "
                           "only zero padding is supported")
    W = _numpy(layer.weight)
    b = np.zeros(W.shape[0]) if layer.bias is None else _numpy(layer.bias)
    kh, kw = W.shape[2:]
    dilation = _pair(layer.dilation)
    if isinstance(layer.padding, str):
        if layer.padding == "valid":
            pad = (0, 0, 0, 0)
        else:  # "same" (stride 1): the extra pixel of an even kernel goes last
            th, tw = dilation[0] * (kh - 1), dilation[1] * (kw - 1)
            pad = (tw // 2, tw - tw // 2, th // 2, th - th // 2)
    else:
        ph, pw = _pair(layer.padding)
        pad = (pw, pw, ph, ph)
    return _Conv(W, b, in_shape, stride=_pair(layer.stride), pad=pad, dilation=dilation)


def _trace(model, rows, dtype, device):
    """Run ``model`` on ``rows`` with forward hooks on its leaf modules:
    the leaves in the order they are called, with their input and output
    shapes (without the rows dimension), and the model's output."""
    calls = []

    def hook(module, args, output):
        shape_in = tuple(args[0].shape[1:]) if args and torch.is_tensor(args[0]) else None
        shape_out = tuple(output.shape[1:]) if torch.is_tensor(output) else None
        calls.append((module, shape_in, shape_out))

    leaves = [m for m in model.modules() if not list(m.children())]
    handles = [m.register_forward_hook(hook) for m in leaves]
    try:
        # full precision: the output is the reference of the chain's check
        with torch.no_grad(), full_precision():
            out = model(torch.as_tensor(rows, dtype=dtype, device=device))
    finally:
        for handle in handles:
            handle.remove()
    return calls, out


def _check_tolerance(dtype):
    """Relative tolerance of the check that a chain reproduces its model.

    The chain replays the layers in float64 on the host; the model's
    forward (run in :func:`~sklearn_xai.utils._torch.full_precision`, so
    no TF32 on a GPU) rounds at its own dtype's precision ``eps``.  The two
    sum the same products in different orders, so they differ by rounding
    errors that grow with the length ``K`` of the sums: about
    ``sqrt(K) eps`` (random rounding) and at most ``K eps`` of the terms'
    magnitude.  ``sqrt(eps)`` bounds the first for any ``K`` up to ``1 /
    eps`` and the second for ``K`` up to ``1 / sqrt(eps)`` (4096 for
    float32: a 64x64 image's dense layer), while a model whose forward
    does something else than its layers (a skip connection, a functional
    activation) is off by a relative error of order 1: float32
    ``3.5e-4`` (was ``1e-4``, about ``840 eps``, which TF32's ``1e-3``
    exceeded), float64 ``1.5e-8`` (was ``1e-9``), float16 ``0.03``.
    """
    return float(np.sqrt(torch.finfo(dtype).eps))


def check_reproduces(chain, rows, expected, dtype):
    """Whether ``chain`` gives the model's ``expected`` output on ``rows``.

    Parameters
    ----------
    chain : LayerChain
    rows : ndarray of shape (n, n_features)
    expected : torch.Tensor
        The model's output on ``rows``, computed in
        :func:`~sklearn_xai.utils._torch.full_precision`.
    dtype : torch.dtype
        The model's dtype (sets the tolerance, :func:`_check_tolerance`).

    Returns
    -------
    reproduces : bool
    """
    expected = expected.detach().cpu().double().numpy().reshape(len(rows), -1)
    with full_precision():
        got = chain.forward(rows)[1][-1]
    tol = _check_tolerance(dtype)
    return got.shape == expected.shape and bool(np.allclose(
        got, expected, rtol=tol, atol=tol * (1.0 + np.abs(expected).max(initial=0))))


_SHAPE_ONLY = (nn.Flatten, nn.Unflatten, nn.Identity, nn.Dropout, nn.Dropout1d,
               nn.Dropout2d)


def layer_chain(estimator, output, X, *, explainer="This explainer"):
    """The :class:`LayerChain` of the explained score of a fitted model.

    Parameters
    ----------
    estimator : fitted estimator
        A differentiable model (see
        :func:`~sklearn_xai.explainers.differentiable_model`).
    output : {"proba", "decision", "predict"}
        The resolved explained output; ``"proba"`` and ``"decision"`` both
        give the decision scores (the softmax is not propagated through).
    X : ndarray of shape (n, n_features)
        Rows on which the chain is traced and checked against the model.
    explainer : str, default="This explainer"
        Name used in the error messages.

    Returns
    -------
    chain : LayerChain

    Raises
    ------
    TypeError
        If the model is not a plain sequence of supported layers.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers._chain import layer_chain
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, -2.0, 0.5] + 3.0)
    >>> chain = layer_chain(model, "predict", X)
    >>> [type(layer).__name__ for layer in chain.layers], chain.relu
    (['_Dense'], [False])
    >>> chain.layers[0].weight.round(6), chain.layers[0].bias.round(6)
    (array([[ 1. , -2. ,  0.5]]), array([3.]))
    """
    mode = "predict" if output == "predict" else "decision"
    model, dtype, device = explained_module(estimator, mode, explainer=explainer)
    model.eval()
    rows = np.asarray(X[:256], dtype=np.float64)
    calls, expected = _trace(model, rows, dtype, device)
    layers = []
    shape = (rows.shape[1],)
    pending = None  # element-wise (scale, offset) waiting for an affine layer
    pending_after = None  # the layer right before the pending map, if weighted

    def fold_backward(layer):
        """Fold the pending map into the weighted layer before it."""
        nonlocal pending
        previous = layers[-1] if layers else None
        if previous is None or previous is not pending_after or previous.relu:
            raise _unsupported(
                explainer, layer, "an element-wise affine map (BatchNorm, scaler) must "
                "come right after a Linear or Conv2d layer, or right before a Linear "
                "layer, to be folded into it")
        s, t = np.broadcast_arrays(*pending, np.zeros(previous.out_shape))[:2]
        if isinstance(previous, _Conv):
            s, t = s.reshape(s.shape[0], -1), t.reshape(t.shape[0], -1)
            if not (np.all(s == s[:, :1]) and np.all(t == t[:, :1])):
                raise _unsupported(explainer, layer, "a per-pixel affine map after a "
                                   "convolution cannot be folded into it")
            s, t = s[:, 0], t[:, 0]
            previous.weight = previous.weight * s[:, None, None, None]
            previous.bias = previous.bias * s[:, None, None] + t[:, None, None]
        else:
            previous.weight = previous.weight * s[:, None]
            previous.bias = previous.bias * s + t
        pending = None

    for layer, shape_in, shape_out in calls:
        if isinstance(layer, _SHAPE_ONLY) or (
                isinstance(layer, nn.Sequential) and not len(layer)):
            continue
        if shape_in is None or shape_out is None:
            raise _unsupported(explainer, layer, "it does not map one tensor to one tensor")
        if shape_in != shape and not isinstance(layer, nn.ReLU):
            if int(np.prod(shape_in)) != int(np.prod(shape)):
                raise _unsupported(explainer, layer, f"its input of shape {shape_in} is "
                                   f"no reshape of the previous output {shape}")
            if pending is not None:
                pending = tuple(np.broadcast_to(p, shape).reshape(shape_in)
                                for p in pending)
            layers.append(_Reshape(shape, shape_in))
            shape = shape_in
        if isinstance(layer, nn.Linear):
            W = _numpy(layer.weight)
            b = np.zeros(W.shape[0]) if layer.bias is None else _numpy(layer.bias)
            if pending is not None:  # W (s x + t) + b
                s, t = pending
                b = b + W @ t
                W = W * s
                pending = None
            layers.append(_Dense(W, b))
        elif isinstance(layer, nn.Conv2d):
            if len(shape) != 3:
                raise _unsupported(explainer, layer, f"input of shape {shape}")
            if pending is not None:
                fold_backward(layer)
            layers.append(_conv_layer(layer, shape, explainer))
        elif isinstance(layer, (nn.MaxPool2d, nn.AvgPool2d)):
            if len(shape) != 3 or (isinstance(layer, nn.MaxPool2d) and layer.return_indices):
                raise _unsupported(explainer, layer, "needs (channels, height, width) "
                                   "inputs and return_indices=False")
            if pending is not None:
                fold_backward(layer)
            kind = _MaxPool if isinstance(layer, nn.MaxPool2d) else _AvgPool
            layers.append(kind(layer, shape, shape_out))
        elif isinstance(layer, nn.ReLU):
            if pending is not None:
                fold_backward(layer)
            if not layers or layers[-1].relu:
                raise _unsupported(explainer, layer)
            layers[-1].relu = True
        else:
            affine = _elementwise(layer)
            if affine is None:
                raise _unsupported(explainer, layer)
            if pending is None:
                pending = affine
                pending_after = layers[-1] if layers and layers[-1].weighted else None
            else:  # s2 (s1 x + t1) + t2
                pending = (pending[0] * affine[0], pending[1] * affine[0] + affine[1])
        if layers:
            shape = layers[-1].out_shape
    dense = [layer for layer in layers if isinstance(layer, _Dense)]
    if not dense:
        raise NotApplicableError(f"{explainer} found no torch.nn.Linear layer in the model.")
    if pending is not None:  # after the last Linear: s (W x + b) + t
        if layers[-1] is not dense[-1]:
            raise _unsupported(explainer, layers[-1], "an element-wise affine map after "
                               "the last layer")
        s, t = pending
        dense[-1].weight = dense[-1].weight * s[:, None]
        dense[-1].bias = dense[-1].bias * s + t
    if layers[-1].relu:
        raise NotApplicableError(
            f"{explainer}: the model ends in a ReLU; the explained scores must be "
            "the output of a Linear layer."
        )
    if layers[-1] is not dense[-1]:
        raise NotApplicableError(
            f"{explainer}: the model ends in a {type(layers[-1]).__name__.strip('_')} "
            "layer; the explained scores must be the output of a Linear layer."
        )
    last = dense[-1]
    head = _decision_head(last.weight.shape[0]) if mode == "decision" else \
        np.eye(last.weight.shape[0])
    last.weight = head @ last.weight
    last.bias = head @ last.bias
    chain = LayerChain(layers)
    # The chain must be the model: compare on (up to 256) training rows.
    if not check_reproduces(chain, rows, expected, dtype):
        raise NotApplicableError(
            f"{explainer} supports dense ReLU networks and ReLU CNNs only: a plain "
            f"sequence of {', '.join(_SUPPORTED)}. The layers of this model, applied "
            "in the order its forward calls them, do not reproduce its output (its "
            "forward does something else: a skip connection, a functional "
            "activation). Captum's LRP and the other gradient explainers handle "
            "such models."
        )
    return chain
