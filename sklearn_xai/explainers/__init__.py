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
from sklearn_xai.explainers._maple import MAPLE
from sklearn_xai.explainers._random import RandomExplainer
from sklearn_xai.explainers._shapley import ExactShapley, KernelSHAP, ShapleyValueSampling
from sklearn_xai.explainers._shapr import EmpiricalConditionalSHAP
from sklearn_xai.explainers._torch import differentiable_model
from sklearn_xai.explainers._tree import TreeContributions

__all__ = [
    "BreakDown",
    "CaptumLime",
    "Deconvolution",
    "DeepLift",
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
    "RandomExplainer",
    "Saliency",
    "ShapleyValueSampling",
    "SmoothGrad",
    "SobelFilter",
    "TreeContributions",
    "differentiable_model",
]
