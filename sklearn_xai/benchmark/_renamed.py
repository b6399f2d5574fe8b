"""Parameters and names renamed before 0.1, for the errors of config files.

Version 0.1 is the first release: no old name is accepted anywhere.  A
config file (or a spec built from a dict) written with an old name gets one
error that names the component, the old name and what to write instead,
rather than "has no parameter".  The tables are data only: they import no
component, so a test checks that every new name is a real parameter today.
"""

__all__ = ["RENAMED_COMPONENTS", "RENAMED_PARAMETERS", "renamed_component_message",
           "renamed_parameter_message"]

# An upstream-quirk switch became a value of ``convention=``; its entry maps
# each old value of the switch to that value.
_XAI_BENCH_SWITCH = {True: "xai_bench_code", False: "paper"}
_STRATEGY = {"greedy": "paper", "beexai": "beexai_code"}

#: ``(component, old parameter) -> new``.  ``new`` is the new parameter's
#: name when only the name changed; for a former switch it is a dict
#: ``{old value: value of convention}``, or ``{old value: (parameter,
#: value)}`` when the old values went to different parameters.
#: ``component`` is the public class, function or ``Class.method`` name.
RENAMED_PARAMETERS = {
    # explainers
    ("CaptumLime", "n_samples"): "n_perturbations",
    ("EmpiricalConditionalSHAP", "n_samples"): "n_draws",
    ("EmpiricalConditionalSHAP", "uniform_small_coalitions"): _XAI_BENCH_SWITCH,
    ("ExactShapley", "xai_bench_efficiency"): _XAI_BENCH_SWITCH,
    ("GradientShap", "n_samples"): "n_perturbations",
    ("KernelSHAP", "n_samples"): "n_perturbations",
    ("LimeTabular", "n_samples"): "n_perturbations",
    ("LocalLinearSurrogate", "n_samples"): "n_perturbations",
    ("ShapleyValueSampling", "n_samples"): "n_permutations",
    ("SmoothGrad", "n_samples"): "n_perturbations",
    # maskers and distributions
    ("ConditionalMasker", "n_samples"): "n_draws",
    ("GaussianConditionalMasker", "n_samples"): "n_draws",
    ("BasePerturber.perturb", "n_samples"): "n_perturbations",
    ("BaseDistribution.conditional_expectation", "n_samples"): "n_draws",
    ("BaseDistribution.conditional_sample", "n_samples"): "n_draws",
    ("BaseDistribution.marginal_sample", "n_samples"): "n_draws",
    ("BaseDistribution.standard_draws", "n_samples"): "n_draws",
    # datasets
    ("CorrelationFilter", "strategy"): _STRATEGY,
    ("beexai_preprocessor", "correlation_strategy"): _STRATEGY,
    ("exact_shapley_values", "n_samples"): "n_draws",
    ("exact_shapley_values", "xai_bench_efficiency"): _XAI_BENCH_SWITCH,
    ("make_gaussian_linear", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_gaussian_nonlinear_additive", "psi_variant"): "convention",
    ("make_gaussian_nonlinear_additive", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_gaussian_piecewise_constant", "psi_variant"): "convention",
    ("make_gaussian_piecewise_constant", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_mixture_linear", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_mixture_nonlinear_additive", "psi_variant"): "convention",
    ("make_mixture_nonlinear_additive", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_mixture_piecewise_constant", "psi_variant"): "convention",
    ("make_mixture_piecewise_constant", "xai_bench_batch_norm"): _XAI_BENCH_SWITCH,
    ("make_synthgauss", "variant"): "convention",
    ("marginal_divergence", "xai_bench_compat"): _XAI_BENCH_SWITCH,
    # metrics
    ("auc_tp", "variant"): {"atanasova": "paper", "beexai_regression": "beexai_code"},
    ("complexity", "normalization"): {"log_d": ("normalize", "log_d"),
                                      "none": ("normalize", "none"),
                                      "beexai": ("convention", "beexai_code")},
    ("emd_score", "d_max"): {"code": "xai_tris_code", "true": "paper"},
    ("exact_shapley_reference", "n_samples"): "n_draws",
    ("exact_shapley_reference", "xai_bench_efficiency"): _XAI_BENCH_SWITCH,
    ("faith_minus", "n_samples"): "n_draws",
    ("faith_plus", "n_samples"): "n_draws",
    ("faithfulness_correlation", "variant"): {"bhatt": "paper", "beexai": "beexai_code"},
    ("infidelity", "perturbation"): {"gaussian": "paper", "xai_bench": "xai_bench_code",
                                     "beexai": "beexai_code"},
    ("MetricSpec", "seed"): "source",
    ("register_metric", "seed"): "source",
    ("max_sensitivity", "beexai_batch_bug"): {True: "beexai_code", False: "paper"},
    ("max_sensitivity", "variant"): {"yeh": "paper", "beexai": "beexai_code"},
    ("mono_minus", "n_samples"): "n_draws",
    ("mono_minus", "xai_bench_index_bug"): _XAI_BENCH_SWITCH,
    ("mono_plus", "n_samples"): "n_draws",
    ("mono_plus", "xai_bench_index_bug"): _XAI_BENCH_SWITCH,
    ("monotonicity", "variant"): {"insertion": "paper", "beexai": "beexai_code"},
    ("pairwise_rank_agreement", "ties"): {"openxai": "openxai_code", "skip": "paper"},
    ("pgi", "n_samples"): "n_perturbations",
    ("pgi", "seed_policy"): {"row": "paper", "openxai": "openxai_code"},
    ("pgu", "n_samples"): "n_perturbations",
    ("pgu", "seed_policy"): {"row": "paper", "openxai": "openxai_code"},
    ("relative_input_stability", "n_samples"): "n_perturbations",
    ("relative_output_stability", "n_samples"): "n_perturbations",
    ("relative_representation_stability", "n_samples"): "n_perturbations",
    ("roar_faith_minus", "xai_bench_roar_bugs"): _XAI_BENCH_SWITCH,
    ("roar_faith_plus", "xai_bench_roar_bugs"): _XAI_BENCH_SWITCH,
    ("shapley_corr", "n_samples"): "n_draws",
    ("shapley_corr", "xai_bench_efficiency"): _XAI_BENCH_SWITCH,
    ("shapley_mse", "n_samples"): "n_draws",
    ("shapley_mse", "xai_bench_efficiency"): _XAI_BENCH_SWITCH,
    # benchmark
    ("BenchmarkResults", "baseline"): "control",
    ("BenchmarkSpec", "baseline"): "control",
    ("format_leaderboard", "baseline"): "control",
    ("leaderboard", "baseline"): "control",
    ("plot_leaderboard", "baseline"): "control",
}

#: Old public name -> new name (classes, functions, methods, attributes).
RENAMED_COMPONENTS = {
    "InputBaseline": "InputAttribution",
    "LaplaceBaseline": "LaplaceFilter",
    "SobelBaseline": "SobelFilter",
    "significance_vs_baseline": "significance_vs_control",
    "MetricSpec.seed": "MetricSpec.source",
    "BenchmarkSpec.baseline_label": "BenchmarkSpec.control_label",
    "BenchmarkSpec.baseline": "BenchmarkSpec.control",
    "BenchmarkResults.baseline": "BenchmarkResults.control",
}


def _yaml(value):
    """``value`` as written in a YAML config."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def renamed_parameter_message(component, old, value):
    """The error for parameter ``old`` of ``component``, or None.

    Parameters
    ----------
    component : str
        Class or function name (as in :data:`RENAMED_PARAMETERS`).
    old : str
        The parameter given.
    value : object
        Its value, to spell out the replacement.

    Returns
    -------
    message : str or None
        None when ``old`` is not a former name of a parameter of
        ``component``.

    Examples
    --------
    >>> from sklearn_xai.benchmark._renamed import renamed_parameter_message
    >>> renamed_parameter_message("KernelSHAP", "n_samples", 100)
    "KernelSHAP: parameter 'n_samples' was renamed 'n_perturbations' before 0.1; write n_perturbations: 100"
    """
    new = RENAMED_PARAMETERS.get((component, old))
    if new is None:
        return None
    if isinstance(new, str):
        return (f"{component}: parameter {old!r} was renamed {new!r} before 0.1; "
                f"write {new}: {_yaml(value)}")
    targets = {v if isinstance(v, tuple) else ("convention", v) for v in new.values()}
    names = sorted({name for name, _ in targets})
    head = (f"{component}: parameter {old!r} was replaced by "
            f"{' and '.join(map(repr, names))} before 0.1")
    try:
        target = new.get(value)
    except TypeError:  # an unhashable value
        target = None
    if target is None:
        options = ", ".join(f"{_yaml(k)} -> {_target(v)}" for k, v in new.items())
        return f"{head} ({old}: {options})"
    return f"{head}; write {_target(target)}"


def _target(value):
    name, new = value if isinstance(value, tuple) else ("convention", value)
    return f"{name}: {_yaml(new)}"


def renamed_component_message(name):
    """``" 'name' was renamed 'new' before 0.1."`` for an old name, else ``""``.

    Examples
    --------
    >>> from sklearn_xai.benchmark._renamed import renamed_component_message
    >>> renamed_component_message("SobelBaseline")
    " 'SobelBaseline' was renamed 'SobelFilter' before 0.1."
    """
    new = RENAMED_COMPONENTS.get(name)
    return f" {name!r} was renamed {new!r} before 0.1." if new else ""
