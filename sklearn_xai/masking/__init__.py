"""How features are removed or perturbed: one explicit choice shared by
explainers and metrics."""

from sklearn_xai.masking._base import (
    BaseMasker,
    BasePerturber,
    check_masker,
    check_perturber,
)
from sklearn_xai.masking._baseline import BaselineMasker, MarginalMasker
from sklearn_xai.masking._blur import BlurMasker
from sklearn_xai.masking._groups import (  # noqa: F401 (encoding_step_index: explainers)
    check_groups,
    encoding_step_index,
    onehot_groups,
)
from sklearn_xai.masking._conditional import (
    ConditionalMasker,
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
)
from sklearn_xai.masking._noisy_linear import NoisyLinearMasker
from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.masking._timeseries import InterpolationMasker, window_groups
from sklearn_xai.masking._text import TokenMasker
from sklearn_xai.masking._segments import (
    BaseSegmentation,
    GridSegmentation,
    LabelSegmentation,
    SLICSegmentation,
    check_segmentation,
)

__all__ = [
    "BaseMasker",
    "BasePerturber",
    "BaselineMasker",
    "BlurMasker",
    "ConditionalMasker",
    "EmpiricalConditionalMasker",
    "GaussianConditionalMasker",
    "GaussianNoisePerturber",
    "InterpolationMasker",
    "MarginalMasker",
    "NoisyLinearMasker",
    "TokenMasker",
    "check_groups",
    "check_masker",
    "check_perturber",
    "onehot_groups",
    "window_groups",
    "BaseSegmentation",
    "GridSegmentation",
    "LabelSegmentation",
    "SLICSegmentation",
    "check_segmentation",
]
