"""How features are removed or perturbed: one explicit choice shared by
explainers and metrics."""

from sklearn_xai.masking._base import BaseMasker, check_masker
from sklearn_xai.masking._baseline import BaselineMasker, MarginalMasker
from sklearn_xai.masking._conditional import ConditionalMasker, GaussianConditionalMasker
from sklearn_xai.masking._perturb import GaussianNoisePerturber

__all__ = [
    "BaseMasker",
    "BaselineMasker",
    "ConditionalMasker",
    "GaussianConditionalMasker",
    "GaussianNoisePerturber",
    "MarginalMasker",
    "check_masker",
]
