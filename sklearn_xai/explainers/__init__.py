"""Explainers: fit/transform estimators returning attribution matrices.

Names are imported on first access (PEP 562), so that ``import
sklearn_xai.explainers`` and the model-agnostic explainers do not import
torch and captum: the gradient explainers import them when first used.
"""

import importlib

#: Public name -> the private module defining it.
_SUBMODULE = {
    "FeatureAblation": "_ablation",
    "LeaveOneCovariateIn": "_ablation",
    "BreakDown": "_breakdown",
    "LRP": "_gradients",
    "Deconvolution": "_gradients",
    "DeepLift": "_gradients",
    "DeepLiftShap": "_gradients",
    "GradientShap": "_gradients",
    "GuidedBackprop": "_gradients",
    "GuidedGradCam": "_gradients",
    "InputXGradient": "_gradients",
    "IntegratedGradients": "_gradients",
    "Saliency": "_gradients",
    "SmoothGrad": "_gradients",
    "InputAttribution": "_image",
    "LaplaceFilter": "_image",
    "SobelFilter": "_image",
    "L2X": "_l2x",
    "CaptumKernelSHAP": "_lime",
    "CaptumLime": "_lime",
    "LimeTabular": "_lime",
    "LocalLinearSurrogate": "_lime",
    "CompositeLRP": "_lrp",
    "DeepTaylor": "_lrp",
    "MAPLE": "_maple",
    "NoiseTunnel": "_noise_tunnel",
    "PatternAttribution": "_pattern",
    "PatternNet": "_pattern",
    "PermutationImportance": "_permutation",
    "RandomExplainer": "_random",
    "Occlusion": "_regions",
    "RISE": "_regions",
    "ExactShapley": "_shapley",
    "KernelSHAP": "_shapley",
    "ShapleyValueSampling": "_shapley",
    "EmpiricalConditionalSHAP": "_shapr",
    "differentiable_model": "_torch",
    "torch_replica": "_torch",
    "TreeContributions": "_tree",
    "EmbeddingAttribution": "_text",
    "TextLIME": "_text",
    "ExpectedGradients": "_gradients",
    "GradCAM": "_cam",
    "GradCAMPlusPlus": "_cam",
    "ScoreCAM": "_cam",
    "AttentionRollout": "_attention",
    "AttentionXGradient": "_attention",
}


def __getattr__(name):
    module = _SUBMODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later accesses skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AttentionRollout",
    "AttentionXGradient",
    "BreakDown",
    "CaptumKernelSHAP",
    "CaptumLime",
    "CompositeLRP",
    "Deconvolution",
    "DeepLift",
    "DeepLiftShap",
    "DeepTaylor",
    "EmbeddingAttribution",
    "EmpiricalConditionalSHAP",
    "ExactShapley",
    "FeatureAblation",
    "GradientShap",
    "GuidedBackprop",
    "GuidedGradCam",
    "InputAttribution",
    "InputXGradient",
    "IntegratedGradients",
    "KernelSHAP",
    "L2X",
    "LRP",
    "LaplaceFilter",
    "LeaveOneCovariateIn",
    "LimeTabular",
    "LocalLinearSurrogate",
    "MAPLE",
    "NoiseTunnel",
    "Occlusion",
    "PatternAttribution",
    "PatternNet",
    "PermutationImportance",
    "RISE",
    "RandomExplainer",
    "Saliency",
    "ShapleyValueSampling",
    "SmoothGrad",
    "SobelFilter",
    "TextLIME",
    "TreeContributions",
    "differentiable_model",
    "torch_replica",
    # Issue #37: class activation maps and expected gradients.
    "ExpectedGradients",
    "GradCAM",
    "GradCAMPlusPlus",
    "ScoreCAM",
]
