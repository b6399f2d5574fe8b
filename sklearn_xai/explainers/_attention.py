"""Attention explainers of vision transformers.

Both explainers read the attention probabilities of every self-attention
layer of a torch module, shape ``(n, heads, tokens, tokens)`` after the
softmax, from forward hooks on the submodules that carry them: an
``nn.Identity()`` named ``attention_probs`` (as in
:class:`~sklearn_xai.models.SmallViT`), or a submodule named ``attn_drop``
(timm's vision transformers, which apply it to the probabilities when their
fused attention is off; a dropout is the identity in evaluation mode).  The
layers are taken in the order the forward pass calls them.  The first token
is the class token, the others the patches in row-major order; the class
token's row of the aggregated ``tokens x tokens`` matrix, without its own
column, is a map over the patch grid, upsampled to the image (nearest: each
pixel gets its patch's score; or bilinear, as Captum's
``LayerAttribution.interpolate``) and repeated over the channels, so the
attributions have the shape of the flattened input.
"""

import math

import torch
from torch.nn import functional as F

from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._gradients import _GRADIENT_DOC, _GradientExplainer
from sklearn_xai.explainers._torch import differentiable_model, summed_output
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._sklearn import StrOptions

__all__ = ["ATTENTION_MODULE_NAMES", "AttentionRollout", "AttentionXGradient",
           "attention_layers"]

#: Names of the submodules whose outputs are attention probabilities.
ATTENTION_MODULE_NAMES = ("attention_probs", "attn_drop")


def attention_layers(module):
    """Dotted names of the submodules that carry attention probabilities.

    Parameters
    ----------
    module : torch.nn.Module

    Returns
    -------
    names : list of str
        Names (as :meth:`torch.nn.Module.get_submodule` reads them) whose
        last part is one of :data:`ATTENTION_MODULE_NAMES`, in registration
        order.

    Examples
    --------
    >>> from sklearn_xai.explainers._attention import attention_layers
    >>> from sklearn_xai.models import SmallViT
    >>> attention_layers(SmallViT(64, patch_size=4))
    ['blocks.0.attn.attention_probs', 'blocks.1.attn.attention_probs']
    """
    return [name for name, _ in module.named_modules()
            if name.rpartition(".")[2] in ATTENTION_MODULE_NAMES]


class _Recorder:
    """Forward hooks collecting the attention probabilities, in call order."""

    def __init__(self, module, names):
        self.probs = []
        self.handles = [module.get_submodule(name).register_forward_hook(self._hook)
                        for name in names]

    def _hook(self, layer, inputs, output):
        self.probs.append(output if output.ndim == 4 else output.unsqueeze(1))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for handle in self.handles:
            handle.remove()


# Docstring fragments of the two explainers.
_ATTENTION_DOC = {
    "attention_parameters": """
        image_shape : tuple of int or None, default=None
            ``(height, width)`` or ``(channels, height, width)`` of the
            flattened rows; ``None`` reads the module's ``image_shape``
            attribute (:class:`~sklearn_xai.models.SmallViT` has one), else a
            square single-channel image.
        interpolation : {"nearest", "bilinear"}, default="nearest"
            How the patch map is upsampled to the pixels: ``"nearest"``
            gives every pixel of a patch the patch's score; ``"bilinear"``
            interpolates between patch centres (``torch.nn.functional.
            interpolate``, ``align_corners=False``).""",
    "gradient_output_params": _GRADIENT_DOC["gradient_output_params"],
    "attention_attributes": """
        Attributes
        ----------
        estimator_ : estimator
            The fitted model.
        layers_ : list of str
            Dotted names of the modules whose outputs are the attention
            probabilities.
        image_shape_ : tuple of int
            ``(channels, height, width)`` of one row.
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names.""",
    "attention_example": """
        >>> import numpy as np
        >>> from sklearn.frozen import FrozenEstimator
        >>> from sklearn_xai.models import TetrominoNetClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(60, 64))
        >>> y = (X[:, 9] > 0).astype(int)
        >>> vit = TetrominoNetClassifier(architecture="vit", module__patch_size=4,
        ...                              max_epochs=2, random_state=0).fit(X, y)""",
}


class _AttentionExplainer(_GradientExplainer):
    """Hooks, image geometry and upsampling shared by the attention explainers."""

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "image_shape": [tuple, list, None],
        "interpolation": [StrOptions({"nearest", "bilinear"})],
    }

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        net, _ = differentiable_model(self.estimator_, explainer=type(self).__name__)
        module = net.module_
        self.layers_ = attention_layers(module)
        if not self.layers_:
            raise NotApplicableError(
                f"{type(self).__name__} explains transformers whose attention "
                "probabilities pass through a submodule named "
                f"{' or '.join(map(repr, ATTENTION_MODULE_NAMES))} (SmallViT, "
                f"TetrominoNetClassifier(architecture='vit')); "
                f"{type(module).__name__} has none. Gradient explainers (Saliency, "
                "IntegratedGradients, GradientShap, InputXGradient) explain any "
                "differentiable model. " + model_agnostic_hint()
            )
        shape = self.image_shape
        if shape is None:
            shape = getattr(module, "image_shape", None)
        shape = resolve_image_shape(shape, X.shape[1])
        self.image_shape_ = (1, *shape) if len(shape) == 2 else tuple(shape)
        if len(self.image_shape_) != 3:
            raise ValueError(
                "image_shape must be (height, width) or (channels, height, width); "
                f"got {self.image_shape!r}."
            )

    def _patch_grid(self, n_patches):
        """``(rows, columns)`` of the patch grid: square patches tiling the image."""
        _, H, W = self.image_shape_
        gh = max(1, round(math.sqrt(n_patches * H / W)))
        gw = n_patches // gh
        if gh * gw != n_patches or gh * W != gw * H:
            raise ValueError(
                f"{type(self).__name__}: {n_patches} patch tokens do not tile a "
                f"{H}x{W} image in square patches; pass the image's image_shape."
            )
        return gh, gw

    def _to_pixels(self, token_map):
        """Upsample ``(n, patches)`` scores to ``(n, C * H * W)`` pixels."""
        C, H, W = self.image_shape_
        n, n_patches = token_map.shape
        gh, gw = self._patch_grid(n_patches)
        grid = token_map.reshape(n, 1, gh, gw)
        if self.interpolation == "nearest" and H % gh == 0 and W % gw == 0:
            pixels = grid.repeat_interleave(H // gh, 2).repeat_interleave(W // gw, 3)
        elif self.interpolation == "nearest":
            pixels = F.interpolate(grid, size=(H, W), mode="nearest")
        else:
            pixels = F.interpolate(grid, size=(H, W), mode="bilinear",
                                   align_corners=False)
        return pixels.expand(n, C, H, W).reshape(n, -1)

    def _record(self, model, inputs):
        """Run the forward pass; return its output and the attention matrices."""
        with _Recorder(model.module, self.layers_) as recorder:
            out = model(inputs)
        if not recorder.probs:
            raise ValueError(
                f"{type(self).__name__}: the modules {self.layers_} were not called "
                "by the forward pass (a fused attention kernel skips them); turn "
                "the fused attention off (timm: fused_attn=False)."
            )
        return out, recorder.probs


@explainer_doc(references=("abnar2020", "klein2024"), **_ATTENTION_DOC)
class AttentionRollout(_AttentionExplainer):
    """Attention rollout of a vision transformer (Abnar & Zuidema 2020).

    For every attention layer ``l``, the heads' attention probabilities are
    fused (their mean by default) into ``A_l``, the identity is added for
    the residual connection and the rows renormalised, ``Â_l = (A_l + I) /
    rowsum(A_l + I)`` (``= (A_l + I) / 2``), and the layers are multiplied,
    ``R = Â_L ⋯ Â_2 Â_1``.  The class token's row of ``R``, without its own
    column, scores the patches; the patch map is upsampled to the pixels
    (see ``interpolation``).  The map does not depend on the explained class
    or output (``target`` and ``output`` are accepted for a uniform
    interface): it shows where the class token's information comes from.
    One forward pass per row, no gradient.  The attention probabilities are
    read from the submodules named ``attention_probs`` or ``attn_drop``
    (see :class:`~sklearn_xai.models.SmallViT`); a model without them is
    refused with a ``NotApplicableError`` that names the gradient
    explainers.

    Parameters
    ----------
    estimator : estimator
        A fitted differentiable transformer, e.g.
        ``FrozenEstimator(TetrominoNetClassifier(architecture="vit").fit(X, y))``.
    head_fusion : {"mean", "max", "min"}, default="mean"
        How the heads of a layer are fused (Abnar & Zuidema average them;
        ``"max"`` and ``"min"`` are common variants).
    {attention_parameters}
    {gradient_output_params}

    {attention_attributes}

    {explainer_references}

    Examples
    --------
    {attention_example}
    >>> from sklearn_xai.explainers import AttentionRollout
    >>> A = AttentionRollout(FrozenEstimator(vit)).fit(X).transform(X[:2])
    >>> A.shape, bool(np.all(A > 0))
    ((2, 64), True)
    """

    _parameter_constraints = {
        **_AttentionExplainer._parameter_constraints,
        "head_fusion": [StrOptions({"mean", "max", "min"})],
    }

    def __init__(self, estimator=None, *, head_fusion="mean", image_shape=None,
                 interpolation="nearest", target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.head_fusion = head_fusion
        self.image_shape = image_shape
        self.interpolation = interpolation
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        with torch.no_grad():
            _, probs = self._record(model, inputs.detach())
            R = None
            for P in probs:
                if self.head_fusion == "mean":
                    A = P.mean(dim=1)
                elif self.head_fusion == "max":
                    A = P.amax(dim=1)
                else:
                    A = P.amin(dim=1)
                A = A + torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
                A = A / A.sum(dim=-1, keepdim=True)
                R = A if R is None else A @ R
            return self._to_pixels(R[:, 0, 1:]), len(inputs)


@explainer_doc(references=("chefer2021_generic", "abnar2020", "klein2024"),
               **_ATTENTION_DOC)
class AttentionXGradient(_AttentionExplainer):
    """Attention times its gradient, accumulated over layers (Chefer et al. 2021).

    The variant of Chefer, Gur and Wolf's "generic attention-model
    explainability" [1]_ (their eqs. 5-6 for self-attention), the
    attention x gradient method that LATEC [3]_ runs on vision
    transformers: for every attention layer ``l`` (in forward order), with
    ``A_l`` its attention probabilities ``(heads, tokens, tokens)`` and
    ``∇A_l`` their gradient with respect to the explained output ``f``
    (the target class's probability, or its logit with
    ``output="decision"``),

    ``Ā_l = mean_heads( max(∇A_l ⊙ A_l, 0) )``  (positive part per head,
    then the mean over heads), and ``R ← R + Ā_l R`` from ``R = I``.

    The class token's row of ``R``, without its own column, scores the
    patches, upsampled to the pixels (see ``interpolation``).  Unlike
    :class:`AttentionRollout` the map depends on the explained class.  One
    forward and one backward pass per row.

    Parameters
    ----------
    estimator : estimator
        A fitted differentiable transformer whose attention probabilities
        pass through submodules named ``attention_probs`` or ``attn_drop``.
    {attention_parameters}
    {gradient_output_params}

    {attention_attributes}

    {explainer_references}

    Examples
    --------
    {attention_example}
    >>> from sklearn_xai.explainers import AttentionXGradient
    >>> A = AttentionXGradient(FrozenEstimator(vit)).fit(X).transform(X[:2])
    >>> A.shape, bool(np.all(A >= 0))
    ((2, 64), True)
    """

    def __init__(self, estimator=None, *, image_shape=None, interpolation="nearest",
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.image_shape = image_shape
        self.interpolation = interpolation
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        with _Recorder(model.module, self.layers_) as recorder:
            out = summed_output(model, target)(inputs)
        probs = recorder.probs
        if not probs:
            self._record(model, inputs)  # raises the fused-attention error
        grads = torch.autograd.grad(out, probs)
        R = None
        for P, G in zip(probs, grads):
            A = (G * P).clamp(min=0).mean(dim=1).detach()
            if R is None:
                R = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand_as(A)
            R = R + A @ R
        return self._to_pixels(R[:, 0, 1:]), len(inputs)
