"""Meta-estimators combining models and explainers."""

from sklearn_xai.compose._explained_model import ExplainedModel
from sklearn_xai.compose._scaffold import ScaffoldedClassifier, explainer_queries
from sklearn_xai.compose._transformed import TransformedExplainer

__all__ = ["ExplainedModel", "ScaffoldedClassifier", "TransformedExplainer",
           "explainer_queries"]
