"""The default benchmark, the one ``sklearn-xai run`` runs without argument."""

from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.benchmark.presets._available import (
    MEAN_MASKER,
    available_explainers,
    available_metrics,
    pick,
)

__all__ = ["default"]


def default():
    """Quick benchmark (about a minute on two cores): attribution methods on a
    linear Gaussian problem with known Shapley values.

    Data: :func:`~sklearn_xai.datasets.make_gaussian_linear` (XAI-Bench's
    linear label function, d = 5, correlation rho = 0.5, 1000 rows), whose
    interventional Shapley values are known in closed form; 50 held-out rows
    are explained.  Models: linear regression and a small scikit-learn MLP.
    Explainers: the random control, feature ablation with a training-mean
    baseline, and, when installed, exact Shapley values (marginal masker, 50
    background rows), KernelSHAP and LIME.  Metrics: agreement with the
    ground truth (OpenXAI's feature agreement, XAI-Bench's Shapley
    correlation when available), BEExAI's comprehensiveness, sufficiency,
    complexity and sparseness (mean masker), XAI-Bench's faithfulness /
    monotonicity and OpenXAI's PGI / PGU when installed, and the model
    parameter randomisation sanity check (MPRT, Adebayo et al. 2018), whose
    outcome the report's "Sanity checks" section shows.  Three seeds.

    It is a smoke test of the whole pipeline with an expected outcome on the
    linear model (ablation and Shapley explainers match the ground truth),
    not the reproduction of a published table.

    Returns
    -------
    spec : BenchmarkSpec
    """
    explainers = {"random": "RandomExplainer",
                  "ablation": {"name": "FeatureAblation", "params": {"masker": MEAN_MASKER}}}
    explainers.update(pick({
        "exact_shapley": {"name": "ExactShapley", "params": {"masker": {
            "name": "MarginalMasker", "params": {"background": 50}}}},
        "kernel_shap": {"name": "KernelSHAP", "params": {"n_perturbations": 64, "masker": {
            "name": "MarginalMasker", "params": {"background": 20}}}},
        "lime": {"name": "LimeTabular", "params": {"n_perturbations": 500}},
    }, available_explainers()))
    masked = {"params": {"masker": MEAN_MASKER}}
    metrics = {
        "feature_agreement": {"name": "feature_agreement", "params": {"k": 2}},
        "rank_correlation": "rank_correlation",
        "comprehensiveness": {"name": "comprehensiveness", **masked},
        "neg_sufficiency": {"name": "neg_sufficiency", **masked},
        "neg_complexity": "neg_complexity",
        "sparseness": "sparseness",
        "neg_mprt": "neg_mprt",
    }
    metrics.update(pick({name: name for name in (
        "shapley_corr", "faith_plus", "faith_minus", "mono_plus", "mono_minus", "pgi",
        "neg_pgu")}, available_metrics()))
    return BenchmarkSpec(
        name="default",
        description="Linear Gaussian data with known Shapley values; quick smoke benchmark.",
        datasets={"gaussian_linear": {"name": "make_gaussian_linear",
                                      "params": {"n_samples": 1000, "n_features": 5,
                                                 "rho": 0.5}}},
        models={"linear": "linear_regression",
                "mlp": {"name": "mlp", "params": {"hidden_layer_sizes": [32, 32],
                                                  "max_iter": 300}}},
        explainers=explainers, metrics=metrics, seeds=[0, 1, 2], n_explain=50,
    )
