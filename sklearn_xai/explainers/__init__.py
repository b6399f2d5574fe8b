"""Explainers: fit/transform estimators returning attribution matrices."""

from sklearn_xai.explainers._ablation import FeatureAblation
from sklearn_xai.explainers._random import RandomExplainer
from sklearn_xai.explainers._shapley import ExactShapley, KernelSHAP, ShapleyValueSampling
from sklearn_xai.explainers._shapr import EmpiricalConditionalSHAP
from sklearn_xai.explainers._tree import TreeContributions

__all__ = [
    "EmpiricalConditionalSHAP",
    "ExactShapley",
    "FeatureAblation",
    "KernelSHAP",
    "RandomExplainer",
    "ShapleyValueSampling",
    "TreeContributions",
]
