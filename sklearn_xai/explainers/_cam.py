"""Class activation maps of convolutional nets: Grad-CAM, Grad-CAM++, Score-CAM.

A class activation map weighs the ``K`` output maps ``A_k`` (shape
``(h, w)``) of one layer of the net (``layer``, by default its last
``torch.nn.Conv2d``) and sums them: ``L = ReLU(Σ_k w_k A_k)``.  The methods
differ in the weights ``w_k`` of the explained output ``S`` (the same scalar
every explainer explains, see :ref:`def-explained-output`):

* Grad-CAM: the spatial mean of the gradient ``∂S/∂A_k``;
* Grad-CAM++: the positive gradients weighted by the closed-form ``α`` of
  the paper (exponential output, second and third derivatives from the
  first);
* Score-CAM: the increase of ``S`` when the input is multiplied by the map
  ``A_k`` upsampled and rescaled to ``[0, 1]``.

The map ``L`` (``(h, w)``) is upsampled to the image by bilinear
interpolation (``torch.nn.functional.interpolate`` with
``align_corners=False``, as Captum's ``LayerAttribution.interpolate`` with
``interpolate_mode="bilinear"``; ``upsampling="nearest"`` is Captum's
default) and repeated over the image's channels, so the attributions have
the input's shape: float64 ``(n_samples, n_features)``, images flattened
row-major ``(C, H, W)``.

The layer's maps are read by a forward hook on the submodule
``module.get_submodule(layer)``; the gradients are one
``torch.autograd.grad`` of the summed target outputs of a block of rows
(rows are independent in evaluation mode, so each row gets its own
gradient).  Rows go through the model in blocks of at most ``batch_size``
model rows (:func:`~sklearn_xai.utils._output.block_slices`), on the
module's device.  We write these methods rather than wrap Captum's
``LayerGradCam`` because Captum has no Grad-CAM++ or Score-CAM, and one
hook and one gradient per block serve all three.
"""

import torch
import torch.nn.functional as F

from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._gradients import (
    _GRADIENT_DOC,
    _GradientExplainer,
    module_image_shape,
    resolve_layer,
)
from sklearn_xai.explainers._torch import differentiable_model, explained_module
from sklearn_xai.utils._sklearn import StrOptions
from sklearn_xai.utils._torch import eval_mode

__all__ = ["GradCAM", "GradCAMPlusPlus", "ScoreCAM"]


class _LayerRecorder:
    """Forward hook keeping the last output of a layer."""

    def __init__(self, layer):
        self.output = None
        self._handle = layer.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.output = output[0] if isinstance(output, tuple) else output

    def close(self):
        self._handle.remove()


def _upsample(maps, size, mode):
    """``(m, k, h, w)`` maps to ``(m, k, *size)``."""
    if tuple(maps.shape[-2:]) == tuple(size):
        return maps
    kwargs = {"align_corners": False} if mode == "bilinear" else {}
    return F.interpolate(maps, size=size, mode=mode, **kwargs)


_CAM_DOC = {}
_CAM_DOC["cam_common"] = """
    relu_attributions : bool, default=True
        Apply the ReLU to the weighted sum of the maps (as the papers do),
        keeping the regions that raise the explained output; ``False``
        returns the signed sum (Captum's ``LayerGradCam`` default).
    upsampling : {"bilinear", "nearest"}, default="bilinear"
        How the layer's map is resized to the image:
        ``torch.nn.functional.interpolate`` with ``align_corners=False``,
        as Captum's ``LayerAttribution.interpolate``."""

_CAM_DOC["cam_attributes"] = """
    layer_ : str
        Dotted name of the layer used.
    image_shape_ : tuple of int
        ``(channels, height, width)`` of a row.
    layer_shape_ : tuple of int
        ``(n_maps, height, width)`` of the layer's output for one row."""

_CAM_DOC["cam_example"] = """
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn_xai.models import TetrominoNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 64))
    >>> y = (X[:, 9] > 0).astype(int)
    >>> cnn = TetrominoNetClassifier(max_epochs=2, random_state=0).fit(X, y)"""



def _cam_doc(*, references):
    """Substitution of the gradient explainers' and the CAM fragments."""
    own = ("gradient_output_params", "gradient_attributes", "cam_params")
    return explainer_doc(references=references,
                         **{name: _GRADIENT_DOC[name] for name in own}, **_CAM_DOC)


class _ClassActivationMap(_GradientExplainer):
    """Shared machinery: the layer, the image shape, the upsampling."""

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "layer": [str, None],
        "image_shape": ["array-like", None],
        "relu_attributions": ["boolean"],
        "upsampling": [StrOptions({"bilinear", "nearest"})],
    }

    def __init__(self, estimator=None, *, layer=None, image_shape=None,
                 relu_attributions=True, upsampling="bilinear", target="predicted",
                 output="auto", batch_size=None):
        self.estimator = estimator
        self.layer = layer
        self.image_shape = image_shape
        self.relu_attributions = relu_attributions
        self.upsampling = upsampling
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        name = type(self).__name__
        net, _ = differentiable_model(self.estimator_, explainer=name)
        self.layer_, _ = resolve_layer(net.module_, self.layer, explainer=name)
        self.image_shape_ = module_image_shape(net.module_, self.image_shape,
                                               X.shape[1])
        # One forward pass of one row gives the shape of the layer's maps.
        model, dtype, device = explained_module(self.estimator_, "decision",
                                                explainer=name)
        recorder = _LayerRecorder(model.module.get_submodule(self.layer_))
        try:
            with eval_mode(model), torch.no_grad():
                model(torch.zeros(1, X.shape[1], dtype=dtype, device=device))
        finally:
            recorder.close()
        shape = getattr(recorder.output, "shape", ())
        if len(shape) != 4:
            raise ValueError(
                f"{name} weighs the (channels, height, width) maps of a layer, but "
                f"layer {self.layer_!r} returns shape {tuple(shape)} per batch; "
                "name a convolutional layer or block with layer=."
            )
        self.layer_shape_ = tuple(int(s) for s in shape[1:])

    def _layer_and_gradient(self, model, inputs, target, gradient=True):
        """The layer's maps ``A`` of the rows and ``∂S/∂A`` (or ``None``)."""
        recorder = _LayerRecorder(model.module.get_submodule(self.layer_))
        try:
            with torch.set_grad_enabled(gradient):
                out = model(inputs)
        finally:
            recorder.close()
        A = recorder.output
        if not gradient:
            return A.detach(), None
        S = out.gather(1, target[:, None]).sum()
        (G,) = torch.autograd.grad(S, A)
        return A.detach(), G

    def _to_image(self, cam):
        """``(m, 1, h, w)`` region maps to ``(m, C * H * W)`` attributions."""
        if self.relu_attributions:
            cam = torch.relu(cam)
        C, H, W = self.image_shape_
        cam = _upsample(cam, (H, W), self.upsampling)
        return cam.expand(-1, C, -1, -1).reshape(len(cam), -1)


@_cam_doc(references=("selvaraju2017",))
class GradCAM(_ClassActivationMap):
    """Grad-CAM: layer maps weighted by their mean gradient.

    ``L = ReLU(Σ_k w_k A_k)`` with ``w_k = (1/hw) Σ_ij ∂S/∂A_k[i, j]``, the
    spatial mean of the gradient of the explained output ``S`` with
    respect to the ``k``-th map of ``layer``; ``L`` is upsampled to the
    image and repeated over its channels.  Equal to Captum's
    ``LayerGradCam`` followed by ``LayerAttribution.interpolate(...,
    interpolate_mode="bilinear")`` (``relu_attributions=True``).  One
    forward-backward pass per row.

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see
        :func:`~sklearn_xai.explainers.differentiable_model`) with a
        convolutional layer, e.g. ``TetrominoNetClassifier(architecture="cnn")``.
    {cam_params}
    {cam_common}
    {gradient_output_params}

    {gradient_attributes}
    {cam_attributes}

    See Also
    --------
    GradCAMPlusPlus, ScoreCAM : Other weights of the same maps.
    GuidedGradCam : Grad-CAM times guided backpropagation.

    {explainer_references}

    Examples
    --------
    {cam_example}
    >>> from sklearn_xai.explainers import GradCAM
    >>> A = GradCAM(FrozenEstimator(cnn)).fit(X).transform(X[:2])
    >>> A.shape, bool((A >= 0).all())
    ((2, 64), True)
    """

    def _attribute(self, model, inputs, target, rngs):
        A, G = self._layer_and_gradient(model, inputs, target)
        weights = G.mean(dim=(2, 3), keepdim=True)
        cam = (weights * A).sum(dim=1, keepdim=True)
        return self._to_image(cam), len(inputs)


@_cam_doc(references=("chattopadhay2018", "selvaraju2017"))
class GradCAMPlusPlus(_ClassActivationMap):
    """Grad-CAM++: layer maps weighted by pixel-wise weighted positive gradients.

    ``L = ReLU(Σ_k w_k A_k)`` with ``w_k = Σ_ij α_k[i, j] ReLU(g_k[i, j])``,
    ``g_k = ∂S/∂A_k`` and the closed form of Chattopadhay et al. (their
    eq. 19) for an exponential output ``Y = exp(S)``, whose second and third
    derivatives are powers of the first::

        α_k[i, j] = g_k[i, j]² / (2 g_k[i, j]² + (Σ_ab A_k[a, b]) g_k[i, j]³)

    (``α = 0`` where the denominator vanishes).  The paper's weights carry
    the factor ``exp(S)`` common to every map of a row; it is left out (it
    scales a row's map by a positive constant and overflows for large
    scores).  The paper's ``S`` is the class score before the softmax:
    ``output="decision"``; the default explains the probability, as every
    explainer.  One forward-backward pass per row.

    Parameters
    ----------
    estimator : estimator
        A differentiable model with a convolutional layer.
    {cam_params}
    {cam_common}
    {gradient_output_params}

    {gradient_attributes}
    {cam_attributes}

    See Also
    --------
    GradCAM, ScoreCAM

    {explainer_references}

    Examples
    --------
    {cam_example}
    >>> from sklearn_xai.explainers import GradCAMPlusPlus
    >>> GradCAMPlusPlus(FrozenEstimator(cnn)).fit(X).transform(X[:2]).shape
    (2, 64)
    """

    def _attribute(self, model, inputs, target, rngs):
        A, G = self._layer_and_gradient(model, inputs, target)
        G2 = G * G
        denominator = 2 * G2 + A.sum(dim=(2, 3), keepdim=True) * G2 * G
        alpha = G2 / torch.where(denominator != 0, denominator,
                                 torch.ones_like(denominator))
        weights = (alpha * torch.relu(G)).sum(dim=(2, 3), keepdim=True)
        cam = (weights * A).sum(dim=1, keepdim=True)
        return self._to_image(cam), len(inputs)


@_cam_doc(references=("wang2020",))
class ScoreCAM(_ClassActivationMap):
    """Score-CAM: layer maps weighted by the output increase they cause as masks.

    Each map ``A_k`` of ``layer`` is upsampled to the image (as ``upsampling``
    says) and rescaled to ``[0, 1]``, ``H_k = (A_k - min A_k) / (max A_k -
    min A_k)`` (zero for a constant map); the weight of the map is the
    increase of the explained output when the input is multiplied by it,
    ``w_k = S(x ⊙ H_k) - S(x_b)``, with the zero image ``x_b`` as baseline.
    ``L = ReLU(Σ_k w_k A_k)`` is then upsampled to the image.  The paper's
    ``S`` is the softmax probability of the class: the default ``output``
    of a classifier.  No gradient: ``n_maps + 2`` forward rows per
    explained row (its maps, the ``n_maps`` masked images, the baseline),
    the masked images of a block of rows in one model call.

    Parameters
    ----------
    estimator : estimator
        A differentiable model with a convolutional layer (a torch module;
        Score-CAM only calls it, but reads the maps of one of its layers).
    {cam_params}
    {cam_common}
    {gradient_output_params}

    {gradient_attributes}
    {cam_attributes}

    See Also
    --------
    GradCAM, GradCAMPlusPlus

    {explainer_references}

    Examples
    --------
    {cam_example}
    >>> from sklearn_xai.explainers import ScoreCAM
    >>> ScoreCAM(FrozenEstimator(cnn)).fit(X).transform(X[:2]).shape
    (2, 64)
    """

    def _model_rows_per_row(self):
        return self.layer_shape_[0] + 2

    def _attribute(self, model, inputs, target, rngs):
        m = len(inputs)
        C, H, W = self.image_shape_
        K = self.layer_shape_[0]
        with torch.no_grad():
            A, _ = self._layer_and_gradient(model, inputs, target, gradient=False)
            U = _upsample(A, (H, W), self.upsampling)
            low = U.amin(dim=(2, 3), keepdim=True)
            span = U.amax(dim=(2, 3), keepdim=True) - low
            masks = torch.where(span > 0, (U - low) / torch.where(
                span > 0, span, torch.ones_like(span)), torch.zeros_like(U))
            images = inputs.reshape(m, 1, C, H, W)
            masked = (images * masks[:, :, None]).reshape(m * K, C * H * W)
            scores = model(masked).gather(
                1, torch.repeat_interleave(target, K)[:, None]).reshape(m, K)
            base = model(torch.zeros_like(inputs)).gather(1, target[:, None])
            weights = (scores - base)[:, :, None, None]
            cam = (weights * A).sum(dim=1, keepdim=True)
        return self._to_image(cam), m * (K + 2)

