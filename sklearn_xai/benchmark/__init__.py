"""Benchmark runner, results, leaderboards, reports and presets.

A benchmark is a grid of datasets x models x explainers x metrics x seeds
(:class:`BenchmarkSpec`, or a YAML/JSON config, or a preset).
:func:`run_benchmark` runs its cells in parallel with a per-cell disk cache;
:class:`BenchmarkResults` holds the tidy table and builds leaderboards with a
paired significance test against the random control and one against the best
explainer (the explainers tied for best); :func:`decision_summary` ranks the
explainers over metrics with a Friedman test and the critical difference
drawn by :func:`plot_critical_difference`; :func:`write_report`
writes Markdown/HTML tables and figures.  The ``sklearn-xai`` command line
wraps all of it.  The presets live in :mod:`sklearn_xai.benchmark.presets`,
one module per source system.
"""

import importlib

# Public name -> the submodule defining it.  The submodules (and scikit-learn,
# torch, matplotlib behind them) are imported on first access (PEP 562), so
# that ``sklearn-xai`` answers a mistyped preset or ``--help`` at once.
_SUBMODULE = {
    "calibrate_signal_strength": "_calibration",
    "plot_critical_difference": "_cd_diagram",
    "decision_summary": "_decisions",
    "significance_note": "_decisions",
    "applicable_explainers": "_compare",
    "applicable_metrics": "_compare",
    "compare_explainers": "_compare",
    "chosen_explainer": "_explanation_figures",
    "explanation_figures": "_explanation_figures",
    "decision_metrics": "_compare",
    "FoolingResults": "_fooling",
    "fooling_explainers": "_fooling",
    "fooling_maskers": "_fooling",
    "fooling_test": "_fooling",
    "LATEC_METHODS": "_latec",
    "LATEC_METRICS": "_latec",
    "LATEC_MODELS": "_latec",
    "load_latec_saliency_maps": "_latec",
    "load_latec_scores": "_latec",
    "DISRUPTIVE_PERTURBATIONS": "_meta",
    "meta_evaluate": "_meta",
    "plot_metric_agreement": "_meta",
    "reliability_summary": "_meta",
    "SANITY_THRESHOLD": "_sanity",
    "sanity_checks": "_sanity",
    "sanity_summary": "_sanity",
    "format_leaderboard": "_report",
    "plot_leaderboard": "_report",
    "write_report": "_report",
    "BenchmarkResults": "_results",
    "leaderboard": "_results",
    "metric_display_name": "_results",
    "rank_frequencies": "_results",
    "significance_vs_control": "_results",
    "BenchmarkInterrupted": "_runner",
    "run_benchmark": "_runner",
    "MODEL_ALIASES": "_spec",
    "BenchmarkSpec": "_spec",
    "load_config": "_spec",
    "register_component": "_spec",
    "resolve_component": "_spec",
    "EXPECTED_OUTCOMES": "_units",
    "UNIT_TEST_REFERENCES": "_units",
    "format_unit_test_matrix": "_units",
    "unit_test_matrix": "_units",
    "unit_test_matrix_rst": "_units",
    "unit_test_passes": "_units",
    "unit_test_summary": "_units",
    "get_preset": "presets",
    "list_presets": "presets",
    "build_site": "_site",
    "OPENXAI_STABILITY_METRICS": "_site",
    "check_submission": "_submit",
}


def __getattr__(name):
    module = _SUBMODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later accesses skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "applicable_explainers",
    "calibrate_signal_strength",
    "applicable_metrics",
    "compare_explainers",
    "chosen_explainer",
    "explanation_figures",
    "MODEL_ALIASES",
    "BenchmarkInterrupted",
    "BenchmarkResults",
    "BenchmarkSpec",
    "decision_metrics",
    "decision_summary",
    "DISRUPTIVE_PERTURBATIONS",
    "EXPECTED_OUTCOMES",
    "FoolingResults",
    "LATEC_METHODS",
    "LATEC_METRICS",
    "LATEC_MODELS",
    "fooling_explainers",
    "fooling_maskers",
    "fooling_test",
    "format_leaderboard",
    "format_unit_test_matrix",
    "get_preset",
    "leaderboard",
    "list_presets",
    "load_config",
    "load_latec_saliency_maps",
    "load_latec_scores",
    "meta_evaluate",
    "metric_display_name",
    "plot_critical_difference",
    "plot_leaderboard",
    "plot_metric_agreement",
    "rank_frequencies",
    "register_component",
    "reliability_summary",
    "resolve_component",
    "run_benchmark",
    "SANITY_THRESHOLD",
    "sanity_checks",
    "sanity_summary",
    "significance_note",
    "significance_vs_control",
    "UNIT_TEST_REFERENCES",
    "unit_test_matrix",
    "unit_test_matrix_rst",
    "unit_test_passes",
    "unit_test_summary",
    "write_report",
    "build_site",
    "OPENXAI_STABILITY_METRICS",
    "check_submission",
]
