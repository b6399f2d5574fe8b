"""Explanation metrics as plain functions, scorers and the scorer registry."""

from sklearn_xai.metrics._complexity import complexity, sparseness
from sklearn_xai.metrics._faithfulness import comprehensiveness, sufficiency
from sklearn_xai.metrics._ground_truth import feature_agreement
from sklearn_xai.metrics._group import GroupGapScorer
from sklearn_xai.metrics._registry import MetricSpec, metric_specs, register_metric
from sklearn_xai.metrics._scorer import (
    ExplanationScorer,
    check_scoring,
    get_scorer,
    get_scorer_names,
    make_explanation_scorer,
    register_scorer,
)

__all__ = [
    "ExplanationScorer",
    "GroupGapScorer",
    "MetricSpec",
    "check_scoring",
    "get_scorer",
    "get_scorer_names",
    "make_explanation_scorer",
    "register_scorer",
    "complexity",
    "comprehensiveness",
    "feature_agreement",
    "metric_specs",
    "register_metric",
    "sparseness",
    "sufficiency",
]
