"""Explanation metrics as plain functions, scorers and the scorer registry.

**Where a metric lives.**  A metric lives with the quantity it computes;
where it came from is :attr:`MetricSpec.source` and a ``convention=`` value,
never a module.  The private modules, one family of quantities each:

============================ =================================================
``_removal_paths.py``        the output along a removal or insertion path:
                             the curve, its area, one top-k step, its
                             monotonicity (removal curve/AUC, pixel flipping,
                             region perturbation, selectivity, IROF, ROAD,
                             insertion, deletion, ABPC, AUC-TP, comprehensiveness, sufficiency,
                             monotonicity, mono±)
``_removal_correlations.py`` correlations of attributions with output changes
                             under removal (faithfulness correlation and
                             estimate, faith±, sensitivity-n, monotonicity
                             correlation)
``_retraining.py``           the same quantities with the model retrained
                             (ROAR: roar, roar_curve, roar-faith±, roar-mono±)
``_perturbation_gaps.py``    output gaps under perturbation (PGI, PGU,
                             infidelity, explanation error)
``_sensitivity.py``          explanation change under small input changes
                             (max/avg sensitivity, local Lipschitz estimate,
                             continuity; consistency and Dasgupta et al.'s
                             sufficiency, explanations across rows)
``_stability.py``            explanation change relative to input,
                             representation or output change (relative
                             stability)
``_fold_stability.py``       explanations of models trained on different
                             folds (MeGe, ReCo)
``_localisation.py``         attributions against a ground-truth mask (mask
                             precision, EMD, mass/rank accuracy, ROC AUC,
                             pointing game, attribution localisation, top-k
                             intersection, focus on mosaics)
``_complexity.py``           the attributions alone (complexity, sparseness)
``_ground_truth.py``         agreement with a reference explanation
``_shapley_reference.py``    agreement with exact Shapley values
``_randomisation.py``        explanations of randomised models or labels
``_axiomatic.py``            axioms (completeness, non-sensitivity, input
                             invariance)
``_fairness.py``             gaps of a score between groups
============================ =================================================

Shared helpers live in one private module per family, the only private
names a metric module imports from another: ``_common.py`` (every
model-based metric), ``_shared_removal.py`` (the removal and retraining
families) and ``_shared_neighbours.py`` (sensitivity and stability);
``_registry.py`` and ``_scorer.py`` are the registry and the scorers.
``tests/test_layers.py`` checks the rule; ``doc/contributing.rst`` has the
whole guide.
"""

from sklearn_xai.metrics._axiomatic import (
    completeness,
    input_invariance,
    non_sensitivity,
    shifted_model,
)
from sklearn_xai.metrics._complexity import complexity, effective_complexity, sparseness
from sklearn_xai.metrics._fairness import GroupGapScorer, group_gap
from sklearn_xai.metrics._fold_stability import mege, reco
from sklearn_xai.metrics._ground_truth import (
    cosine_similarity,
    feature_agreement,
    gt_f1,
    gt_precision,
    gt_recall,
    linear_model_reference,
    linear_shapley_reference,
    pairwise_rank_agreement,
    rank_agreement,
    rank_correlation,
    sign_agreement,
    signed_rank_agreement,
    token_f1,
)
from sklearn_xai.metrics._localisation import (
    attribution_localisation,
    emd_score,
    focus,
    make_mosaics,
    mask_average_precision,
    mask_iou,
    mask_precision,
    mask_roc_auc,
    pointing_game,
    relevance_mass_accuracy,
    relevance_rank_accuracy,
    top_k_intersection,
)
from sklearn_xai.metrics._perturbation_gaps import (
    explanation_error,
    infidelity,
    pgi,
    pgu,
)
from sklearn_xai.metrics._randomisation import (
    data_randomisation,
    efficient_mprt,
    mprt,
    random_logit,
    smooth_mprt,
)
from sklearn_xai.metrics._registry import (
    FAMILIES,
    ROW_METADATA,
    MetricSpec,
    get_metric_spec,
    metric_specs,
    register_metric,
    unregister_metric,
)
from sklearn_xai.metrics._removal_correlations import (
    faith_minus,
    faith_plus,
    faithfulness_correlation,
    faithfulness_estimate,
    monotonicity_correlation,
    sensitivity_n,
    taucorr_loo,
)
from sklearn_xai.metrics._removal_paths import (
    ERASER_BINS,
    abpc,
    aopc_comprehensiveness,
    aopc_sufficiency,
    auc_tp,
    comprehensiveness,
    deletion_auc,
    insertion_auc,
    irof,
    mono_minus,
    mono_plus,
    monotonicity,
    pixel_flipping,
    region_perturbation,
    removal_auc,
    removal_curve,
    road,
    selectivity,
    sufficiency,
)
from sklearn_xai.metrics._retraining import (
    ROAR_CUTOFFS,
    roar,
    roar_curve,
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
from sklearn_xai.metrics._sensitivity import (
    avg_sensitivity,
    consistency,
    continuity,
    dasgupta_sufficiency,
    local_lipschitz_estimate,
    max_sensitivity,
)
from sklearn_xai.metrics._shapley_reference import (
    exact_shapley_reference,
    shapley_corr,
    shapley_mse,
)
from sklearn_xai.metrics._stability import (
    relative_input_stability,
    relative_output_stability,
    relative_representation_stability,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning

__all__ = [
    "abpc",
    "aopc_comprehensiveness",
    "aopc_sufficiency",
    "attribution_localisation",
    "auc_tp",
    "avg_sensitivity",
    "check_scoring",
    "completeness",
    "complexity",
    "comprehensiveness",
    "consistency",
    "continuity",
    "cosine_similarity",
    "dasgupta_sufficiency",
    "data_randomisation",
    "deletion_auc",
    "effective_complexity",
    "efficient_mprt",
    "emd_score",
    "ERASER_BINS",
    "exact_shapley_reference",
    "explanation_error",
    "ExplanationScorer",
    "faith_minus",
    "faith_plus",
    "faithfulness_correlation",
    "faithfulness_estimate",
    "FAMILIES",
    "focus",
    "feature_agreement",
    "get_metric_spec",
    "get_scorer",
    "get_scorer_names",
    "group_gap",
    "GroupGapScorer",
    "gt_f1",
    "gt_precision",
    "gt_recall",
    "infidelity",
    "input_invariance",
    "insertion_auc",
    "irof",
    "linear_model_reference",
    "linear_shapley_reference",
    "local_lipschitz_estimate",
    "make_explanation_scorer",
    "make_mosaics",
    "mask_average_precision",
    "mask_iou",
    "mask_precision",
    "mask_roc_auc",
    "max_sensitivity",
    "mege",
    "metric_specs",
    "MetricSpec",
    "mono_minus",
    "mono_plus",
    "monotonicity",
    "monotonicity_correlation",
    "mprt",
    "non_sensitivity",
    "pairwise_rank_agreement",
    "pgi",
    "pgu",
    "pixel_flipping",
    "pointing_game",
    "random_logit",
    "rank_agreement",
    "rank_correlation",
    "reco",
    "region_perturbation",
    "register_metric",
    "register_scorer",
    "relative_input_stability",
    "relative_output_stability",
    "relative_representation_stability",
    "relevance_mass_accuracy",
    "relevance_rank_accuracy",
    "removal_auc",
    "removal_curve",
    "road",
    "ROAR_CUTOFFS",
    "roar",
    "roar_curve",
    "roar_faith_minus",
    "roar_faith_plus",
    "roar_mono_minus",
    "roar_mono_plus",
    "ROW_METADATA",
    "selectivity",
    "sensitivity_n",
    "shapley_corr",
    "shapley_mse",
    "shifted_model",
    "sign_agreement",
    "signed_rank_agreement",
    "smooth_mprt",
    "sparseness",
    "sufficiency",
    "taucorr_loo",
    "token_f1",
    "top_k_intersection",
    "UndefinedScoreWarning",
    "unregister_metric",
]
