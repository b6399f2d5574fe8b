"""Explainers: fit/transform estimators returning attribution matrices."""

from sklearn_xai.explainers._ablation import FeatureAblation
from sklearn_xai.explainers._random import RandomExplainer

__all__ = ["FeatureAblation", "RandomExplainer"]
