"""The shipped presets, declared once and readable without importing anything.

``sklearn-xai run NAME`` checks ``NAME`` against this index before it
imports scikit-learn, torch and the preset modules, so that a mistyped name
is answered at once.  The registry
(:data:`~sklearn_xai.benchmark.presets.PRESETS`) is built from it: a shipped
preset is a function of the same name in the module named here, added to
this index (and to ``WITH_QUICK_VARIANT`` when it takes ``quick``).
"""

__all__ = ["SHIPPED_PRESETS", "WITH_QUICK_VARIANT"]

#: Preset name -> the module of ``sklearn_xai.benchmark.presets`` defining it.
SHIPPED_PRESETS = {
    "default": "default",
    "xaibench_small": "xaibench",
    "xaibench_table_metrics": "xaibench",
    "xaibench_table_metrics_code": "xaibench",
    "xaibench_rho_sweep": "xaibench",
    "xaibench_figure_grid": "xaibench",
    "xaibench_linear100": "xaibench",
    "xaibench_wine": "xaibench",
    "xaibench_wine_code": "xaibench",
    "xaibench_roar_curve": "xaibench",
    "openxai_synthetic": "openxai",
    "openxai_stability": "openxai",
    "openxai_adult": "openxai",
    "openxai_compas": "openxai",
    "openxai_heloc": "openxai",
    "openxai_german": "openxai",
    "xaitris_8x8": "xaitris",
    "xaitris_64x64": "xaitris",
    "beexai_real": "beexai",
    "beexai_table5": "beexai",
    "unit_tests": "units",
    "fooling": "fooling",
    "timeseries_synthetic": "timeseries",
    "text_synthetic": "text",
}

#: Shipped presets that also have a ``NAME_quick`` variant.
WITH_QUICK_VARIANT = frozenset(SHIPPED_PRESETS) - {"default", "xaibench_small"}
