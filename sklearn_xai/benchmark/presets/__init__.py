"""Named benchmarks shipped with the toolkit, one module per source system.

Each preset is a function returning a :class:`~sklearn_xai.benchmark.BenchmarkSpec`,
registered with :func:`register_preset`; its docstring says what it
reproduces, how long it runs and which paper it follows.  A reproduction
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
``units``
    Known-behaviour unit tests: hand-weighted models whose correct
    attributions are known (after XAI-Units, Lee et al., 2025).

Presets use the explainers and metrics this installation provides
(``sklearn_xai.utils.discovery``): a component that is not available is left
out, never faked.
"""

from sklearn_xai.benchmark.presets._registry import (
    PRESETS,
    get_preset,
    is_preset,
    list_presets,
    register_preset,
)

# Importing a module registers its presets, in the order of list_presets().
# isort: off
from sklearn_xai.benchmark.presets import default  # noqa: F401, E402
from sklearn_xai.benchmark.presets import xaibench  # noqa: F401, E402
from sklearn_xai.benchmark.presets import openxai  # noqa: F401, E402
from sklearn_xai.benchmark.presets import xaitris  # noqa: F401, E402
from sklearn_xai.benchmark.presets import beexai  # noqa: F401, E402
from sklearn_xai.benchmark.presets import units  # noqa: F401, E402
# isort: on

__all__ = ["PRESETS", "get_preset", "is_preset", "list_presets", "register_preset"]
