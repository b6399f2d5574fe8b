"""Named benchmarks shipped with the toolkit.

Each preset is a function returning a :class:`BenchmarkSpec`; its docstring
says what it reproduces.  Presets use the explainers and metrics this
installation provides (``sklearn_xai.utils.discovery``): a component that is
not available is left out, never faked.
"""

from sklearn_xai.benchmark._spec import BenchmarkSpec

__all__ = ["PRESETS", "get_preset", "list_presets"]

_MEAN_MASKER = {"name": "BaselineMasker", "params": {"value": "mean"}}


def _available_explainers():
    from sklearn_xai.utils.discovery import all_explainers

    return {name for name, _ in all_explainers()}


def _available_metrics():
    from sklearn_xai.metrics import get_scorer_names

    return set(get_scorer_names())


def _pick(candidates, available):
    """The candidates (label -> spec) whose component is available."""
    return {label: spec for label, spec in candidates.items()
            if (spec if isinstance(spec, str) else spec["name"]) in available}


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
    complexity and sparseness (mean masker), and XAI-Bench's faithfulness /
    monotonicity and OpenXAI's PGI / PGU when installed.  Three seeds.

    It is a smoke test of the whole pipeline with an expected outcome on the
    linear model (ablation and Shapley explainers match the ground truth),
    not the reproduction of a published table.
    """
    explainers = {"random": "RandomExplainer",
                  "ablation": {"name": "FeatureAblation", "params": {"masker": _MEAN_MASKER}}}
    explainers.update(_pick({
        "exact_shapley": {"name": "ExactShapley", "params": {"masker": {
            "name": "MarginalMasker", "params": {"background": 50}}}},
        "kernel_shap": {"name": "KernelSHAP", "params": {"n_samples": 64, "masker": {
            "name": "MarginalMasker", "params": {"background": 20}}}},
        "lime": {"name": "LimeTabular", "params": {"n_samples": 500}},
    }, _available_explainers()))
    masked = {"params": {"masker": _MEAN_MASKER}}
    metrics = {
        "feature_agreement": {"name": "feature_agreement", "params": {"k": 2}},
        "rank_correlation": "rank_correlation",
        "comprehensiveness": {"name": "comprehensiveness", **masked},
        "neg_sufficiency": {"name": "neg_sufficiency", **masked},
        "neg_complexity": "neg_complexity",
        "sparseness": "sparseness",
    }
    metrics.update(_pick({name: name for name in (
        "shapley_corr", "faith_plus", "faith_minus", "mono_plus", "mono_minus", "pgi",
        "neg_pgu")}, _available_metrics()))
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


def xaibench_small():
    """A small version of XAI-Bench's figure grid (Liu et al., NeurIPS D&B
    2021, SPEC 5.1 preset ``xaibench_figures``).

    Data: the piecewise-constant and non-linear additive label functions on
    5 Gaussian features with correlation rho = 0.5 (1000 rows; 50 explained).
    Models: sklearn ``MLPRegressor`` defaults and ``DecisionTreeRegressor``.
    Explainers: random; SHAP = exact Shapley values with a marginal masker
    (100 background rows); the observational (conditional) exact Shapley
    values and LIME (``kernel_width=0.5``, the XAI-Bench configuration) when
    installed.  Metrics: Shapley correlation / MSE against the generators'
    ground truth, faithfulness and monotonicity (observational, the dataset's
    distribution) and infidelity when installed, else OpenXAI's agreement
    metrics.  Three seeds (XAI-Bench reports 3 trials).  Its numbers are
    comparable in trend, not equal, to the published figures: the full grid
    has five correlations and three models.
    """
    available = _available_explainers()
    explainers = {"random": "RandomExplainer"}
    explainers.update(_pick({
        "shap": {"name": "ExactShapley", "params": {"masker": {
            "name": "MarginalMasker", "params": {"background": 100}}}},
        "lime": {"name": "LimeTabular", "params": {"kernel_width": 0.5,
                                                   "n_samples": 1000}},
    }, available))
    if "ExactShapley" in available and "ConditionalMasker" in _masker_names():
        explainers["shap_conditional"] = {"name": "ExactShapley", "params": {"masker": {
            "name": "ConditionalMasker", "params": {"distribution": "@distribution",
                                                    "n_samples": 50}}}}
    if len(explainers) == 1:
        explainers["ablation"] = {"name": "FeatureAblation",
                                  "params": {"masker": _MEAN_MASKER}}
    metrics = _pick({name: name for name in (
        "shapley_corr", "neg_shapley_mse", "faith_plus", "faith_minus", "mono_plus",
        "mono_minus", "neg_infidelity")}, _available_metrics())
    if not metrics:
        metrics = {"feature_agreement": "feature_agreement",
                   "rank_correlation": "rank_correlation"}
    params = {"n_samples": 1000, "n_features": 5, "rho": 0.5}
    return BenchmarkSpec(
        name="xaibench_small",
        description="XAI-Bench synthetic Gaussian data (piecewise constant, non-linear "
                    "additive), MLP and tree regressors.",
        datasets={"piecewise_constant": {"name": "make_gaussian_piecewise_constant",
                                         "params": params},
                  "nonlinear_additive": {"name": "make_gaussian_nonlinear_additive",
                                         "params": params}},
        models={"mlp": "mlp", "tree": "decision_tree"},
        explainers=explainers, metrics=metrics, seeds=[0, 1, 2], n_explain=50,
    )


def _masker_names():
    from sklearn_xai import masking

    return set(masking.__all__)


PRESETS = {"default": default, "xaibench_small": xaibench_small}


def list_presets():
    """Names and one-line descriptions of the presets.

    Returns
    -------
    presets : dict
        Name -> first line of the preset's docstring.

    Examples
    --------
    >>> from sklearn_xai.benchmark import list_presets
    >>> "default" in list_presets()
    True
    """
    return {name: " ".join(func.__doc__.split("\n\n")[0].split()) for name, func in PRESETS.items()}


def get_preset(name):
    """The benchmark spec of a preset.

    Parameters
    ----------
    name : str
        A name from :func:`list_presets`.

    Returns
    -------
    spec : BenchmarkSpec
    """
    if name not in PRESETS:
        raise ValueError(f"Unknown preset {name!r}; presets: {sorted(PRESETS)}.")
    return PRESETS[name]()
