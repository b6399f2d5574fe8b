"""Meta-estimators combining models and explainers."""

from sklearn_xai.compose._explained_model import ExplainedModel

__all__ = ["ExplainedModel"]
