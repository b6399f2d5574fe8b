"""Explainers: fit/transform estimators returning attribution matrices."""

from sklearn_xai.explainers._ablation import FeatureAblation
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
    differentiable_model,
)
from sklearn_xai.explainers._image import InputBaseline, LaplaceBaseline, SobelBaseline
from sklearn_xai.explainers._l2x import L2X
from sklearn_xai.explainers._lime import CaptumLime, LimeTabular, LocalLinearSurrogate
from sklearn_xai.explainers._maple import MAPLE
from sklearn_xai.explainers._random import RandomExplainer
from sklearn_xai.explainers._shapley import ExactShapley, KernelSHAP, ShapleyValueSampling
from sklearn_xai.explainers._shapr import EmpiricalConditionalSHAP
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
    "InputBaseline",
    "InputXGradient",
    "IntegratedGradients",
    "KernelSHAP",
    "L2X",
    "LRP",
    "LaplaceBaseline",
    "LimeTabular",
    "LocalLinearSurrogate",
    "MAPLE",
    "RandomExplainer",
    "Saliency",
    "ShapleyValueSampling",
    "SmoothGrad",
    "SobelBaseline",
    "TreeContributions",
    "differentiable_model",
]
