"""A small residual network and a small vision transformer for image rows.

Like :class:`~sklearn_xai.models.TetrominoCNN`, both modules take rows of
flattened images, shape ``(n_samples, in_channels * image_size ** 2)``
(row-major ``(C, H, W)``), reshape them to images inside, and return
**logits** of shape ``(n_samples, n_outputs)``; ``n_features`` and
``n_outputs`` are filled in from the training data by the estimators
(:class:`~sklearn_xai.models.TetrominoNetClassifier` with
``architecture="resnet"`` or ``"vit"``).

Both are written so that explainers can see their layers:

* :class:`SmallResNet` uses layer modules only (``nn.ReLU`` modules, one per
  use, ``nn.BatchNorm2d`` after each ``nn.Conv2d``, ``nn.AdaptiveAvgPool2d``,
  ``nn.Flatten``, ``nn.Linear``), and its residual additions are written
  ``out = out + identity`` in ``forward`` (``torch.fx`` traceable), for the
  relevance (LRP) explainers and for layer-based ones (Grad-CAM);
* :class:`SmallViT` computes its self-attention explicitly (a ``qkv``
  linear layer, scaled dot products, softmax) and passes the attention
  probabilities, shape ``(n, heads, tokens, tokens)``, through an
  ``nn.Identity()`` submodule named ``attention_probs`` in each block
  (``blocks.<i>.attn.attention_probs``): a forward hook on it sees them, and
  their gradient flows through it.  This is the hook point of
  :class:`~sklearn_xai.explainers.AttentionRollout` and
  :class:`~sklearn_xai.explainers.AttentionXGradient`.
"""

import math

import torch
from torch import nn

from sklearn_xai.models._modules import _check_positive_int
from sklearn_xai.utils._docstring import Substitution, references

__all__ = ["SmallResNet", "SmallViT"]


def _image_geometry(n_features, image_size, in_channels):
    """``image_size`` checked against ``n_features`` (inferred when None)."""
    _check_positive_int("n_features", n_features)
    _check_positive_int("in_channels", in_channels)
    if image_size is None:
        side = math.isqrt(n_features // in_channels)
        if in_channels * side * side != n_features:
            raise ValueError(
                f"n_features={n_features} is not in_channels={in_channels} square "
                "images; pass image_size (the side of the square images) and "
                "in_channels with in_channels * image_size ** 2 == n_features."
            )
        return side
    _check_positive_int("image_size", image_size)
    if in_channels * image_size * image_size != n_features:
        raise ValueError(
            f"n_features={n_features} does not match image_size={image_size} and "
            f"in_channels={in_channels}: a flattened image has in_channels * "
            f"image_size ** 2 = {in_channels * image_size ** 2} features."
        )
    return image_size


class _BasicBlock(nn.Module):
    """``conv-BN-ReLU-conv-BN``, plus the shortcut, then ReLU (ResNet's basic block).

    The shortcut is the identity, or a ``1x1`` convolution with
    batch normalisation when the stride or the width changes.
    """

    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        if stride != 1 or c_in != c_out:
            self.shortcut = nn.Sequential(
                nn.Conv2d(c_in, c_out, 1, stride=stride, bias=False),
                nn.BatchNorm2d(c_out))
        else:
            self.shortcut = nn.Identity()
        self.relu2 = nn.ReLU()

    def forward(self, x):
        identity = self.shortcut(x)
        out = self.relu1(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + identity
        return self.relu2(out)


@Substitution(module_references=references("he2016"))
class SmallResNet(nn.Module):
    """A small residual network (ResNet) for flattened square images.

    A ``3x3`` convolution stem (``Conv2d → BatchNorm2d → ReLU``, width
    ``widths[0]``), then one stage per entry of ``widths`` of
    ``blocks_per_stage`` basic blocks (``conv3x3 → BN → ReLU → conv3x3 →
    BN``, ``out = out + identity``, ``ReLU``; the first block of every stage
    after the first halves the resolution with stride 2, and its shortcut is
    a ``1x1`` convolution with batch normalisation), then
    ``AdaptiveAvgPool2d(1) → Flatten → Linear(widths[-1] → n_outputs)``.
    He et al.'s ResNet-18 [1]_ is four stages of widths 64-512 with two
    blocks each and a ``7x7`` stride-2 stem with max pooling; this one keeps
    its block and shortcut, at the size of small images.

    Parameters
    ----------
    n_features : int
        ``in_channels * image_size ** 2``.
    n_outputs : int, default=2
        Number of classes (logits returned).
    image_size : int or None, default=None
        Side of the square images; ``None`` infers it from ``n_features``
        and ``in_channels``.
    in_channels : int, default=1
    widths : tuple of int, default=(16, 32)
        Channels of the stages.
    blocks_per_stage : int, default=1
    stem_stride : int, default=1
        Stride of the stem convolution (2 quarters the cost on 64x64 images).

    Attributes
    ----------
    image_shape : tuple of int
        ``(in_channels, image_size, image_size)``, read by the image
        explainers.

    {module_references}

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import SmallResNet
    >>> net = SmallResNet(3 * 16 * 16, in_channels=3).eval()
    >>> net.image_shape, net(torch.zeros(2, 768)).shape
    ((3, 16, 16), torch.Size([2, 2]))
    """

    def __init__(self, n_features, n_outputs=2, image_size=None, in_channels=1,
                 widths=(16, 32), blocks_per_stage=1, stem_stride=1):
        super().__init__()
        self.image_size = _image_geometry(n_features, image_size, in_channels)
        self.in_channels = in_channels
        self.image_shape = (in_channels, self.image_size, self.image_size)
        _check_positive_int("n_outputs", n_outputs)
        _check_positive_int("blocks_per_stage", blocks_per_stage)
        _check_positive_int("stem_stride", stem_stride)
        widths = tuple(widths)
        if not widths:
            raise ValueError("widths must hold at least one stage width, got ().")
        for width in widths:
            _check_positive_int("widths", width)
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, widths[0], 3, stride=stem_stride, padding=1,
                      bias=False),
            nn.BatchNorm2d(widths[0]), nn.ReLU())
        stages = []
        c_in = widths[0]
        for i, width in enumerate(widths):
            blocks = []
            for j in range(blocks_per_stage):
                stride = 2 if (i > 0 and j == 0) else 1
                blocks.append(_BasicBlock(c_in, width, stride))
                c_in = width
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.Sequential(*stages)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(widths[-1], n_outputs)
        for layer in self.modules():
            if isinstance(layer, nn.Conv2d):
                nn.init.kaiming_normal_(layer.weight, mode="fan_out",
                                        nonlinearity="relu")

    def forward(self, X):
        Z = self.stem(X.reshape(-1, *self.image_shape))
        Z = self.stages(Z)
        return self.fc(self.flatten(self.pool(Z)))


class _Attention(nn.Module):
    """Multi-head self-attention written out, probabilities exposed.

    ``softmax(q kᵀ / sqrt(d_head))`` passes through ``attention_probs``
    (an ``nn.Identity``), so a forward hook on it reads the probabilities
    of shape ``(n, heads, tokens, tokens)`` and gradients flow through it.
    """

    def __init__(self, dim, heads):
        super().__init__()
        if dim % heads:
            raise ValueError(
                f"dim={dim} must be a multiple of heads={heads} (each head has "
                "dim // heads channels)."
            )
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.softmax = nn.Softmax(dim=-1)
        self.attention_probs = nn.Identity()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        n, t, dim = x.shape
        qkv = self.qkv(x).reshape(n, t, 3, self.heads, dim // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each (n, heads, t, d_head)
        scores = (q @ k.transpose(-2, -1)) * self.scale
        probs = self.attention_probs(self.softmax(scores))
        out = (probs @ v).transpose(1, 2).reshape(n, t, dim)
        return self.proj(out)


class _TransformerBlock(nn.Module):
    """Pre-norm encoder block: ``x + attn(LN(x))``, then ``x + mlp(LN(x))``."""

    def __init__(self, dim, heads, mlp_ratio):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = _Attention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


@Substitution(module_references=references("dosovitskiy2021"))
class SmallViT(nn.Module):
    """A small vision transformer (ViT) for flattened square images.

    The image is cut into ``patch_size x patch_size`` patches embedded by a
    ``Conv2d`` of that kernel and stride (``dim`` channels); a learned class
    token is prepended and a learned position embedding added; ``depth``
    pre-norm encoder blocks follow (multi-head self-attention of ``heads``
    heads, then an MLP of ``mlp_ratio * dim`` GELU units, each with a
    residual connection); the class token, layer-normalised, goes through a
    linear head, as in Dosovitskiy et al.'s ViT [1]_.  The attention probabilities of
    block ``i`` pass through the ``nn.Identity`` submodule
    ``blocks.<i>.attn.attention_probs`` (see the module documentation).

    Parameters
    ----------
    n_features : int
        ``in_channels * image_size ** 2``.
    n_outputs : int, default=2
        Number of classes (logits returned).
    image_size : int or None, default=None
        Side of the square images, a multiple of ``patch_size``; ``None``
        infers it from ``n_features`` and ``in_channels``.
    in_channels : int, default=1
    patch_size : int, default=8
    dim : int, default=64
        Token width.
    depth : int, default=2
        Number of encoder blocks.
    heads : int, default=4
        Attention heads per block (``dim`` must be a multiple).
    mlp_ratio : float, default=2
        Hidden units of the blocks' MLPs per token channel.

    Attributes
    ----------
    image_shape : tuple of int
        ``(in_channels, image_size, image_size)``.
    grid_size : int
        Patches per side (``image_size // patch_size``); the sequence holds
        ``1 + grid_size ** 2`` tokens, the class token first.

    {module_references}

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import SmallViT
    >>> vit = SmallViT(16 * 16, patch_size=4).eval()
    >>> vit.grid_size, vit(torch.zeros(3, 256)).shape
    (4, torch.Size([3, 2]))
    >>> vit.blocks[0].attn.attention_probs
    Identity()
    """

    def __init__(self, n_features, n_outputs=2, image_size=None, in_channels=1,
                 patch_size=8, dim=64, depth=2, heads=4, mlp_ratio=2):
        super().__init__()
        self.image_size = _image_geometry(n_features, image_size, in_channels)
        self.in_channels = in_channels
        self.image_shape = (in_channels, self.image_size, self.image_size)
        for name, value in [("n_outputs", n_outputs), ("patch_size", patch_size),
                            ("dim", dim), ("depth", depth), ("heads", heads)]:
            _check_positive_int(name, value)
        if self.image_size % patch_size:
            raise ValueError(
                f"image_size={self.image_size} must be a multiple of "
                f"patch_size={patch_size}; pass a patch_size that divides it."
            )
        if not mlp_ratio > 0:
            raise ValueError(f"mlp_ratio must be positive, got {mlp_ratio!r}.")
        self.patch_size = patch_size
        self.grid_size = self.image_size // patch_size
        self.patch_embed = nn.Conv2d(in_channels, dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, 1 + self.grid_size ** 2, dim))
        nn.init.trunc_normal_(self.pos_embed, std=0.02)
        nn.init.trunc_normal_(self.cls_token, std=0.02)
        self.blocks = nn.ModuleList(
            [_TransformerBlock(dim, heads, mlp_ratio) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_outputs)

    def forward(self, X):
        Z = self.patch_embed(X.reshape(-1, *self.image_shape))
        tokens = Z.flatten(2).transpose(1, 2)  # (n, patches, dim), row-major
        cls = self.cls_token.expand(tokens.shape[0], -1, -1)
        x = torch.cat([cls, tokens], dim=1) + self.pos_embed
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x[:, 0]))
