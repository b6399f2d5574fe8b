"""Named benchmarks shipped with the toolkit, one module per source system.

Each preset is a function returning a :class:`~sklearn_xai.benchmark.BenchmarkSpec`;
its docstring says what it reproduces, how long it runs and which paper it
follows.  The shipped ones are declared in the index
``sklearn_xai.benchmark._preset_names`` (name -> module, which the command
line reads without importing anything), and the registry is built from it;
other code registers its own with :func:`register_preset`.  A reproduction
preset takes ``quick=False``; ``NAME_quick`` is its quick variant.

Modules:

``default``
    The embedded default benchmark that ``sklearn-xai run`` runs.
``xaibench``
    XAI-Bench (Liu et al., 2021): a small figure grid, Table 1 with the
    paper's definitions and with its code's switches, the correlation sweep.
``openxai``
    OpenXAI (Agarwal et al., 2022): its synthetic data.
``xaitris``
    XAI-TRIS (Clark et al., 2024): 8 x 8 tetromino images.
``beexai``
    BEExAI (Sithakoul et al., 2024): real tabular data, its Table 5.
``timeseries``
    Synthetic time series with planted shapes in known windows.
``units``
    Known-behaviour unit tests: hand-weighted models whose correct
    attributions are known (after XAI-Units, Lee et al., 2025).
``fooling``
    Explainers that can be fooled: models scaffolded to hide their
    sensitive feature from an explainer's perturbations (Slack et al., 2020).
``text``
    Synthetic texts with per-token ground truth (ERASER's and ferret's
    metrics).

Presets use the explainers and metrics this installation provides
(``sklearn_xai.utils.discovery``): a component that is not available is left
out, never faked.
"""

from sklearn_xai.benchmark.presets._registry import (
    PRESETS,
    _register_shipped,
    get_preset,
    is_preset,
    list_presets,
    register_preset,
)

# The shipped presets, in the order of the index (that of list_presets()).
_register_shipped()

__all__ = ["PRESETS", "get_preset", "is_preset", "list_presets", "register_preset"]
