"""Known-behaviour unit tests: hand-weighted models whose correct attributions
are known by construction (after XAI-Units, Lee et al. 2025, and Compare-xAI,
Belaid et al. 2022)."""

from sklearn_xai.benchmark._docstring import preset_fragments
from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.benchmark.presets._available import available_explainers, pick
from sklearn_xai.utils._docstring import Substitution

__all__ = ["UNIT_TEST_EXPLAINERS", "unit_tests"]

# Docstring blocks of this module's presets (filled by Substitution).
_DOC = preset_fragments("""
.. [1] J. Lee et al., "XAI-Units: Benchmarking Explainability Methods
   with Unit Tests", FAccT 2025.
.. [2] M. R. Belaid et al., "Do We Need Another Explainable AI Method?
   Toward Unifying Post-hoc XAI Evaluation Methods into an Interactive
   and Multi-dimensional Benchmark", arXiv:2207.14160, 2022.""")

_ZERO = {"name": "BaselineMasker", "params": {"value": "zero"}}

#: Label -> explainer spec of the ``unit_tests`` preset.  Every explainer that
#: takes a reference input gets the all-zero one (the ground truth's, except
#: the pertinent negative's, whose failure under the zero reference is the
#: behaviour tested).
UNIT_TEST_EXPLAINERS = {
    "random": "RandomExplainer",
    "saliency": "Saliency",
    "input_x_gradient": "InputXGradient",
    "integrated_gradients": {"name": "IntegratedGradients", "params": {"n_steps": 64}},
    "deeplift": "DeepLift",
    "smoothgrad": {"name": "SmoothGrad", "params": {"std": 0.1, "n_perturbations": 200}},
    "gradient_shap": {"name": "GradientShap", "params": {"n_perturbations": 50}},
    "lrp": "LRP",
    "occlusion": {"name": "FeatureAblation", "params": {"masker": _ZERO}},
    "kernel_shap": {"name": "KernelSHAP", "params": {"masker": _ZERO}},
    "shapley_sampling": {"name": "ShapleyValueSampling", "params": {"masker": _ZERO}},
    "exact_shapley": {"name": "ExactShapley", "params": {"masker": _ZERO}},
    "lime": {"name": "LocalLinearSurrogate", "params": {"n_perturbations": 500}},
    "captum_lime": {"name": "CaptumLime", "params": {"n_perturbations": 200}},
    "pattern_attribution": "PatternAttribution",
}

#: Explainers of the quick variant (the cells the tests assert).
_QUICK = ("random", "saliency", "integrated_gradients", "occlusion", "exact_shapley")


@Substitution(**_DOC)
def unit_tests(quick=False):
    """Known-behaviour unit tests: explainers x hand-weighted units, pass/fail
    against attributions known by construction.

    Data and models: :func:`~sklearn_xai.datasets.make_unit_test` for each of
    its ten units (cancellation, conflicting, xor, product,
    pertinent_negative, shattered_gradients, saturation, boolean_and,
    boolean_or, suppressor), 200 rows, with the unit's
    :class:`~sklearn_xai.models.HandWeightedModel` (fixed weights; ``fit``
    learns nothing).  Explainers: :data:`UNIT_TEST_EXPLAINERS` (gradients,
    integrated gradients, DeepLIFT, SmoothGrad, GradientSHAP, LRP, occlusion,
    KernelSHAP, Shapley sampling, exact Shapley, two LIMEs, PatternAttribution
    and the random control), each with the all-zero reference where it takes
    one.  Metric: ``cosine_similarity`` with the unit's ground truth, per row
    (an all-zero explanation scores 0).  The pass rule
    (:func:`~sklearn_xai.benchmark.unit_test_passes`): cosine >= 0.9 on at
    least 90 % of the 50 explained rows.
    :func:`~sklearn_xai.benchmark.unit_test_matrix` turns the results into
    the pass/fail matrix, which ``sklearn-xai run unit_tests`` prints.

    Run time: 20 to 40 s on one core (measured on a loaded machine).
    ``quick=True``: 40 rows, 10 explained, five explainers (random, saliency, integrated gradients,
    occlusion, exact Shapley); seconds.

    {preset_parameters}

    {preset_returns}

    {preset_references}
    """
    from sklearn_xai.datasets import UNIT_DESCRIPTIONS

    explainers = dict(UNIT_TEST_EXPLAINERS)
    if quick:
        explainers = {label: explainers[label] for label in _QUICK}
    explainers = pick(explainers, available_explainers())
    n_samples = 40 if quick else 200
    return BenchmarkSpec(
        name="unit_tests" + ("_quick" if quick else ""),
        description="Known-behaviour unit tests (hand-weighted models).",
        datasets={unit: {"name": "make_unit_test",
                         "params": {"unit": unit, "n_samples": n_samples}}
                  for unit in UNIT_DESCRIPTIONS},
        models={"hand_weighted": {"name": "HandWeightedModel",
                                  "params": {"unit": "@unit"}}},
        explainers=explainers,
        metrics={"cosine_similarity": {"name": "cosine_similarity",
                                       "nan_policy": "zero"}},
        seeds=[0], test_size=0.25, n_explain=None,
    )
