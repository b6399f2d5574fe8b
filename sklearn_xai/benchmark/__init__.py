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

from sklearn_xai.benchmark._cd_diagram import plot_critical_difference
from sklearn_xai.benchmark._decisions import decision_summary, significance_note
from sklearn_xai.benchmark._compare import (
    applicable_explainers,
    applicable_metrics,
    compare_explainers,
)
from sklearn_xai.benchmark._report import (
    format_leaderboard,
    plot_leaderboard,
    write_report,
)
from sklearn_xai.benchmark._results import (
    BenchmarkResults,
    leaderboard,
    metric_display_name,
    rank_frequencies,
    significance_vs_baseline,
    significance_vs_control,
)
from sklearn_xai.benchmark._runner import BenchmarkInterrupted, run_benchmark
from sklearn_xai.benchmark._spec import (
    MODEL_ALIASES,
    BenchmarkSpec,
    load_config,
    register_component,
    resolve_component,
)
from sklearn_xai.benchmark.presets import get_preset, list_presets

__all__ = [
    "applicable_explainers",
    "applicable_metrics",
    "compare_explainers",
    "MODEL_ALIASES",
    "BenchmarkInterrupted",
    "BenchmarkResults",
    "BenchmarkSpec",
    "decision_summary",
    "format_leaderboard",
    "get_preset",
    "leaderboard",
    "list_presets",
    "load_config",
    "metric_display_name",
    "plot_critical_difference",
    "plot_leaderboard",
    "rank_frequencies",
    "register_component",
    "resolve_component",
    "run_benchmark",
    "significance_note",
    "significance_vs_baseline",
    "significance_vs_control",
    "write_report",
]
