"""Meta-estimators combining models and explainers."""

from sklearn_xai.compose._explained_model import ExplainedModel
from sklearn_xai.compose._scaffold import ScaffoldedClassifier, explainer_queries
from sklearn_xai.compose._transformed import TransformedExplainer
from sklearn_xai.compose._windows import WindowExplainer

__all__ = ["ExplainedModel", "ScaffoldedClassifier", "TransformedExplainer",
           "WindowExplainer", "explainer_queries"]
