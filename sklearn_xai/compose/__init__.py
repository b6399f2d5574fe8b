"""Meta-estimators combining models and explainers."""

from sklearn_xai.compose._explained_model import ExplainedModel
from sklearn_xai.compose._transformed import TransformedExplainer
from sklearn_xai.compose._windows import WindowExplainer

__all__ = ["ExplainedModel", "TransformedExplainer", "WindowExplainer"]
