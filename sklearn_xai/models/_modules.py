"""Torch modules of the seed benchmarks' networks.

Every module takes its input size as ``n_features`` and its output size as
``n_outputs`` (the skorch estimators of :mod:`sklearn_xai.models` fill both
in from the training data), takes a float32 batch of shape
``(n_samples, n_features)`` (images flattened row-major) and returns
**logits** (classifiers) or predictions (regressors) of shape
``(n_samples, n_outputs)``.  The softmax that the seeds apply inside their
modules is applied by the estimator at ``predict_proba`` time (skorch's
``predict_nonlinearity`` for :class:`torch.nn.CrossEntropyLoss`), so the
logits stay reachable for ``decision_function`` and ``output="decision"``
explanations, while the probabilities are identical.

Architectures of the seed benchmarks (OpenXAI, XAI-TRIS, BEExAI):

* :class:`OpenXAIANN`: ``d → 100 → 100 → n_outputs``, ReLU (OpenXAI).
* :class:`LogisticNet`: ``d → n_outputs`` linear (OpenXAI's LR, XAI-TRIS's
  LLR with ``bias=False``).
* :class:`BEExAIMLP`: dense layers of 128 units, each ReLU → BatchNorm →
  Dropout(0.1), linear output (BEExAI).
* :class:`TetrominoMLP`, :class:`TetrominoCNN`: XAI-TRIS's MLP and CNN for
  8×8 and 64×64 images, He-normal initialisation.
"""

import torch
from torch import nn
from torch.nn import functional as F

from sklearn_xai.utils._docstring import Substitution

__all__ = [
    "BEExAIMLP",
    "LogisticNet",
    "OpenXAIANN",
    "TetrominoCNN",
    "TetrominoMLP",
    "cnn_flatten_size",
]


def _check_positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}.")


def _he_normal(module):
    """XAI-TRIS initialisation: ``kaiming_normal_`` on every weight."""
    for layer in module.modules():
        if isinstance(layer, (nn.Linear, nn.Conv2d)):
            nn.init.kaiming_normal_(layer.weight)


def _dense_stack(sizes, *, bias=True, dropout=0.0):
    """``Linear → ReLU (→ Dropout)`` for consecutive sizes, plain last layer."""
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(n_in, n_out, bias=bias))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
            if dropout:
                layers.append(nn.Dropout(dropout))
    return nn.Sequential(*layers)


class OpenXAIANN(nn.Module):
    """OpenXAI's neural network: two hidden ReLU layers of 100 units.

    Parameters
    ----------
    n_features : int
        Input size ``d``.
    n_outputs : int, default=2
        Number of classes (logits returned).
    hidden_layer_sizes : tuple of int, default=(100, 100)

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import OpenXAIANN
    >>> OpenXAIANN(5)(torch.zeros(3, 5)).shape
    torch.Size([3, 2])
    """

    def __init__(self, n_features, n_outputs=2, hidden_layer_sizes=(100, 100)):
        super().__init__()
        for name, value in [("n_features", n_features), ("n_outputs", n_outputs),
                            *[("hidden_layer_sizes", h) for h in hidden_layer_sizes]]:
            _check_positive_int(name, value)
        self.layers = _dense_stack([n_features, *hidden_layer_sizes, n_outputs])

    def forward(self, X):
        return self.layers(X)


class LogisticNet(nn.Module):
    """Multinomial logistic regression as a single linear layer.

    OpenXAI's LR (``bias=True``) and XAI-TRIS's LLR (``bias=False``,
    He-normal initialisation with ``init="he_normal"``).

    Parameters
    ----------
    n_features : int
    n_outputs : int, default=2
    bias : bool, default=True
    init : {"default", "he_normal"}, default="default"

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import LogisticNet
    >>> net = LogisticNet(4, bias=False)
    >>> net(torch.zeros(2, 4)).abs().sum().item()
    0.0
    """

    def __init__(self, n_features, n_outputs=2, bias=True, init="default"):
        super().__init__()
        _check_positive_int("n_features", n_features)
        _check_positive_int("n_outputs", n_outputs)
        if init not in ("default", "he_normal"):
            raise ValueError(f"init must be 'default' or 'he_normal', got {init!r}.")
        self.linear = nn.Linear(n_features, n_outputs, bias=bias)
        if init == "he_normal":
            _he_normal(self)

    def forward(self, X):
        return self.linear(X)


class _BatchNorm1d(nn.BatchNorm1d):
    """BatchNorm that normalises a one-row training batch with running stats.

    A training batch of one row (the last mini-batch when ``n % batch_size ==
    1``) makes :class:`torch.nn.BatchNorm1d` raise; this layer uses the
    running statistics for it instead (and leaves them unchanged).
    """

    def forward(self, X):
        if self.training and X.shape[0] == 1:
            return F.batch_norm(
                X, self.running_mean, self.running_var, self.weight, self.bias,
                training=False, eps=self.eps,
            )
        return super().forward(X)


class BEExAIMLP(nn.Module):
    """BEExAI's dense network (classification and regression).

    Each hidden layer is ``Linear(128) → ReLU → BatchNorm → Dropout(0.1)``;
    the output layer is linear (logits for classifiers).

    Parameters
    ----------
    n_features : int
    n_outputs : int, default=1
        1 for regression, the number of classes for classification.
    n_neurons : int, default=128
    n_hidden_layers : int, default=3
        Number of hidden layers of ``n_neurons`` units.
    dropout : float, default=0.1
    batch_norm : bool, default=True
    layout : {"paper", "code"}, default="paper"
        ``"paper"``: ``n_hidden_layers`` hidden layers, as the BEExAI paper
        describes ("three dense layers of 128 with batch normalisation and
        10 % dropout").  ``"code"``: BEExAI 0.0.6's ``NeuralNetwork(n_hidden_layers=3)``
        exactly: an input layer, ``n_hidden_layers`` further hidden blocks,
        then one more BatchNorm + Dropout before the output layer.

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import BEExAIMLP
    >>> net = BEExAIMLP(9).eval()
    >>> net(torch.zeros(4, 9)).shape
    torch.Size([4, 1])
    >>> sum(isinstance(m, torch.nn.Linear) for m in net.modules())
    4
    """

    def __init__(self, n_features, n_outputs=1, n_neurons=128, n_hidden_layers=3,
                 dropout=0.1, batch_norm=True, layout="paper"):
        super().__init__()
        for name, value in [("n_features", n_features), ("n_outputs", n_outputs),
                            ("n_neurons", n_neurons),
                            ("n_hidden_layers", n_hidden_layers)]:
            _check_positive_int(name, value)
        if not 0.0 <= dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {dropout!r}.")
        if layout not in ("paper", "code"):
            raise ValueError(f"layout must be 'paper' or 'code', got {layout!r}.")

        def norm_drop():
            return [_BatchNorm1d(n_neurons)] * batch_norm + [nn.Dropout(dropout)] * (
                dropout > 0
            )

        n_linear = n_hidden_layers + (layout == "code")
        layers = []
        for i in range(n_linear):
            layers += [nn.Linear(n_features if i == 0 else n_neurons, n_neurons),
                       nn.ReLU(), *norm_drop()]
        if layout == "code":
            layers += norm_drop()
        layers.append(nn.Linear(n_neurons, n_outputs))
        self.layers = nn.Sequential(*layers)

    def forward(self, X):
        return self.layers(X)


def _image_side(n_features, image_size):
    _check_positive_int("image_size", image_size)
    if n_features != image_size * image_size:
        raise ValueError(
            f"n_features={n_features} does not match image_size={image_size}: "
            f"a flattened {image_size}x{image_size} image has {image_size ** 2} "
            "features."
        )
    return image_size


# XAI-TRIS layer sizes (training/models.py): {image_size: (hidden sizes, bias,
# dropout)} for the MLP, {image_size: (channels, kernel, pool stride, bias)} for
# the CNN.
_TRIS_MLP = {8: ((32, 16, 8), True, 0.0), 64: ((256, 256, 64), False, 0.3)}
_TRIS_CNN = {8: ((1, 4, 4, 4, 4), 2, 2, True), 64: ((1, 4, 8, 16, 32), 4, 2, False)}


# The Parameters of the XAI-TRIS modules (a docstring fragment).
_TETROMINO_PARAMETERS = """
    Parameters
    ----------
    n_features : int
        ``image_size ** 2``.
    n_outputs : int, default=2
    image_size : {8, 64}, default=8"""


@Substitution(tetromino_parameters=_TETROMINO_PARAMETERS)
class TetrominoMLP(nn.Module):
    """XAI-TRIS's multi-layer perceptron for tetromino images.

    8×8: ``64 → 32 → 16 → 8 → n_outputs`` with biases, ReLU;
    64×64: ``4096 → 256 → 256 → 64 → n_outputs`` without biases, ReLU +
    Dropout(0.3).  He-normal initialisation.

    {tetromino_parameters}

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import TetrominoMLP
    >>> TetrominoMLP(64, image_size=8)(torch.zeros(2, 64)).shape
    torch.Size([2, 2])
    """

    def __init__(self, n_features, n_outputs=2, image_size=8):
        super().__init__()
        _image_side(n_features, image_size)
        if image_size not in _TRIS_MLP:
            raise ValueError(f"image_size must be 8 or 64, got {image_size!r}.")
        _check_positive_int("n_outputs", n_outputs)
        hidden, bias, dropout = _TRIS_MLP[image_size]
        self.layers = _dense_stack([n_features, *hidden, n_outputs], bias=bias,
                                   dropout=dropout)
        _he_normal(self)

    def forward(self, X):
        return self.layers(X)


def cnn_flatten_size(image_size, *, kernel_size, n_blocks=4, padding=1,
                     pool_size=2, n_channels=1):
    """Size of the flattened output of ``n_blocks`` conv + max-pool blocks.

    Each block is ``Conv2d(kernel_size, stride 1, padding)`` followed by
    ``MaxPool2d(pool_size)`` (stride = pool size, floor rounding).

    Parameters
    ----------
    image_size : int
        Side ``L`` of the square input.
    kernel_size : int
    n_blocks : int, default=4
    padding : int, default=1
    pool_size : int, default=2
    n_channels : int, default=1
        Channels of the last convolution.

    Returns
    -------
    size : int

    Examples
    --------
    >>> from sklearn_xai.models import cnn_flatten_size
    >>> cnn_flatten_size(64, kernel_size=4, n_channels=32)
    288
    >>> cnn_flatten_size(8, kernel_size=2, n_channels=4)
    4
    """
    side = image_size
    for _ in range(n_blocks):
        side = side + 2 * padding - kernel_size + 1
        side = side // pool_size
        if side < 1:
            raise ValueError(
                f"A {image_size}x{image_size} image is too small for {n_blocks} "
                f"blocks of kernel {kernel_size} and pooling {pool_size}."
            )
    return n_channels * side * side


@Substitution(tetromino_parameters=_TETROMINO_PARAMETERS)
class TetrominoCNN(nn.Module):
    """XAI-TRIS's convolutional network for tetromino images.

    Four blocks ``Conv2d(stride 1, padding 1) → ReLU → MaxPool2d(2)``, then a
    linear layer on the flattened maps.  8×8: kernel 2, channels
    1→4→4→4→4, flatten 4, ``Linear(4 → n_outputs)`` with bias; 64×64: kernel
    4, channels 1→4→8→16→32, flatten 288, ``Linear(288 → n_outputs)``
    without bias.  The flattened input is reshaped to ``(1, L, L)`` inside
    the module.  He-normal initialisation.

    {tetromino_parameters}

    Attributes
    ----------
    flatten_size : int
        Input size of the final linear layer (4 or 288).

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import TetrominoCNN
    >>> net = TetrominoCNN(64, image_size=8)
    >>> net.flatten_size, net(torch.zeros(3, 64)).shape
    (4, torch.Size([3, 2]))
    """

    def __init__(self, n_features, n_outputs=2, image_size=8):
        super().__init__()
        self.image_size = _image_side(n_features, image_size)
        if image_size not in _TRIS_CNN:
            raise ValueError(f"image_size must be 8 or 64, got {image_size!r}.")
        _check_positive_int("n_outputs", n_outputs)
        channels, kernel, pool, bias = _TRIS_CNN[image_size]
        blocks = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            blocks += [nn.Conv2d(c_in, c_out, kernel_size=kernel, stride=1, padding=1),
                       nn.ReLU(), nn.MaxPool2d(kernel_size=pool, stride=pool)]
        self.features = nn.Sequential(*blocks)
        self.flatten_size = cnn_flatten_size(
            image_size, kernel_size=kernel, n_blocks=len(channels) - 1,
            pool_size=pool, n_channels=channels[-1],
        )
        self.classifier = nn.Linear(self.flatten_size, n_outputs, bias=bias)
        _he_normal(self)

    def forward(self, X):
        L = self.image_size
        Z = self.features(X.reshape(-1, 1, L, L))
        return self.classifier(torch.flatten(Z, 1))
