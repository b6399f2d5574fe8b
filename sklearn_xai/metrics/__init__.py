"""Explanation metrics as plain functions, scorers and the scorer registry."""

from sklearn_xai.metrics._complexity import complexity, sparseness
from sklearn_xai.metrics._fairness import GroupGapScorer, group_gap
from sklearn_xai.metrics._faithfulness import (
    auc_tp,
    comprehensiveness,
    faith_minus,
    faith_plus,
    faithfulness_correlation,
    mono_minus,
    mono_plus,
    monotonicity,
    sufficiency,
)
from sklearn_xai.metrics._ground_truth import (
    feature_agreement,
    linear_model_reference,
    linear_shapley_reference,
    pairwise_rank_agreement,
    rank_agreement,
    rank_correlation,
    sign_agreement,
    signed_rank_agreement,
    top_k_intersection,
)
from sklearn_xai.metrics._infidelity import infidelity
from sklearn_xai.metrics._masks import (
    emd_score,
    mask_precision,
    mask_roc_auc,
    relevance_mass_accuracy,
    relevance_rank_accuracy,
)
from sklearn_xai.metrics._pgi import pgi, pgu
from sklearn_xai.metrics._registry import (
    FAMILIES,
    ROW_METADATA,
    MetricSpec,
    get_metric_spec,
    metric_specs,
    register_metric,
)
from sklearn_xai.metrics._roar import (
    roar_faith_minus,
    roar_faith_plus,
    roar_mono_minus,
    roar_mono_plus,
)
from sklearn_xai.metrics._scorer import (
    ExplanationScorer,
    check_scoring,
    get_scorer,
    get_scorer_names,
    make_explanation_scorer,
    register_scorer,
)
from sklearn_xai.metrics._shapley_reference import (
    exact_shapley_reference,
    shapley_corr,
    shapley_mse,
)
from sklearn_xai.metrics._stability import (
    max_sensitivity,
    relative_input_stability,
    relative_output_stability,
    relative_representation_stability,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning

# New metric families (#19, #18), imported by name when they land.
from sklearn_xai.metrics import (  # noqa: E402
    _axiomatic,
    _curves,
    _localisation,
    _randomisation,
    _removal,
    _robustness,
)
from sklearn_xai.metrics._axiomatic import *  # noqa: E402,F403
from sklearn_xai.metrics._curves import *  # noqa: E402,F403
from sklearn_xai.metrics._localisation import *  # noqa: E402,F403
from sklearn_xai.metrics._randomisation import *  # noqa: E402,F403
from sklearn_xai.metrics._removal import *  # noqa: E402,F403
from sklearn_xai.metrics._robustness import *  # noqa: E402,F403

__all__ = [
    "FAMILIES",
    "ROW_METADATA",
    "ExplanationScorer",
    "GroupGapScorer",
    "MetricSpec",
    "UndefinedScoreWarning",
    "auc_tp",
    "check_scoring",
    "complexity",
    "comprehensiveness",
    "emd_score",
    "exact_shapley_reference",
    "faith_minus",
    "faith_plus",
    "faithfulness_correlation",
    "feature_agreement",
    "get_metric_spec",
    "get_scorer",
    "get_scorer_names",
    "group_gap",
    "infidelity",
    "linear_model_reference",
    "linear_shapley_reference",
    "make_explanation_scorer",
    "mask_precision",
    "mask_roc_auc",
    "max_sensitivity",
    "metric_specs",
    "mono_minus",
    "mono_plus",
    "monotonicity",
    "pairwise_rank_agreement",
    "pgi",
    "pgu",
    "rank_agreement",
    "rank_correlation",
    "register_metric",
    "register_scorer",
    "relative_input_stability",
    "relative_output_stability",
    "relative_representation_stability",
    "relevance_mass_accuracy",
    "relevance_rank_accuracy",
    "roar_faith_minus",
    "roar_faith_plus",
    "roar_mono_minus",
    "roar_mono_plus",
    "shapley_corr",
    "shapley_mse",
    "sign_agreement",
    "signed_rank_agreement",
    "sparseness",
    "sufficiency",
    "top_k_intersection",
]
__all__ += (_axiomatic.__all__ + _curves.__all__ + _localisation.__all__
            + _randomisation.__all__ + _removal.__all__ + _robustness.__all__)
