"""Explainers: fit/transform estimators returning attribution matrices.

The deprecated names ``InputBaseline``, ``LaplaceBaseline`` and
``SobelBaseline`` (renamed :class:`InputAttribution`, :class:`LaplaceFilter`
and :class:`SobelFilter`) are still importable from here for one release;
they are not in ``__all__``.
"""

from sklearn_xai.explainers._ablation import FeatureAblation, LeaveOneCovariateIn
from sklearn_xai.explainers._breakdown import BreakDown
from sklearn_xai.explainers._gradients import (
    LRP,
    Deconvolution,
    DeepLift,
    DeepLiftShap,
    GradientShap,
    GuidedBackprop,
    GuidedGradCam,
    InputXGradient,
    IntegratedGradients,
    Saliency,
    SmoothGrad,
)
from sklearn_xai.explainers._image import (
    InputAttribution,
    InputBaseline,  # noqa: F401 (deprecated name, importable until 0.2)
    LaplaceBaseline,  # noqa: F401
    LaplaceFilter,
    SobelBaseline,  # noqa: F401
    SobelFilter,
)
from sklearn_xai.explainers._l2x import L2X
from sklearn_xai.explainers._lime import CaptumLime, LimeTabular, LocalLinearSurrogate
from sklearn_xai.explainers._lrp import CompositeLRP, DeepTaylor
from sklearn_xai.explainers._maple import MAPLE
from sklearn_xai.explainers._noise_tunnel import NoiseTunnel
from sklearn_xai.explainers._pattern import PatternAttribution, PatternNet
from sklearn_xai.explainers._permutation import PermutationImportance
from sklearn_xai.explainers._random import RandomExplainer
from sklearn_xai.explainers._shapley import (
    ExactShapley,
    KernelSHAP,
    ShapleyValueSampling,
)
from sklearn_xai.explainers._shapr import EmpiricalConditionalSHAP
from sklearn_xai.explainers._torch import differentiable_model, torch_replica
from sklearn_xai.explainers._tree import TreeContributions

__all__ = [
    "BreakDown",
    "CaptumLime",
    "CompositeLRP",
    "Deconvolution",
    "DeepLift",
    "DeepLiftShap",
    "DeepTaylor",
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
    "PatternAttribution",
    "PatternNet",
    "PermutationImportance",
    "RandomExplainer",
    "Saliency",
    "ShapleyValueSampling",
    "SmoothGrad",
    "SobelFilter",
    "TreeContributions",
    "differentiable_model",
    "torch_replica",
]
