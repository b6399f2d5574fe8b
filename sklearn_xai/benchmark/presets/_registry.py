"""The preset registry: preset names and the functions building their specs.

The shipped presets are declared once, in the index
:mod:`sklearn_xai.benchmark._preset_names` (which the command line reads
without importing anything); :func:`_register_shipped` builds the registry
from it.
"""

import inspect
from importlib import import_module

from sklearn_xai.benchmark._preset_names import SHIPPED_PRESETS, WITH_QUICK_VARIANT

__all__ = ["PRESETS", "get_preset", "is_preset", "list_presets", "register_preset"]

#: Preset name -> function returning its :class:`BenchmarkSpec`, in
#: registration order (the order of :func:`list_presets`).
PRESETS = {}
_QUICK = "_quick"


def register_preset(func=None, *, name=None):
    """Register a function returning a :class:`BenchmarkSpec` as a preset.

    Use it as a decorator.  The function takes no argument, or one keyword
    ``quick=False`` that selects the quick variant (small sizes, seconds),
    which is then also reachable as ``NAME_quick``.  The first paragraph of
    its docstring is the preset's description in :func:`list_presets` and
    ``sklearn-xai list presets``.

    Parameters
    ----------
    func : callable, default=None
        The preset function; ``None`` when called with ``name=`` only.
    name : str, default=None
        Preset name; defaults to the function's name.

    Returns
    -------
    func : callable
        The function, unchanged (or a decorator when ``func`` is None).

    Raises
    ------
    ValueError
        When the name is taken by another function or ends with
        ``"_quick"``, or the function has no docstring.

    Examples
    --------
    >>> from sklearn_xai.benchmark import BenchmarkSpec
    >>> from sklearn_xai.benchmark.presets import PRESETS, get_preset, register_preset
    >>> @register_preset
    ... def tiny():
    ...     '''Random control and feature ablation on a small linear problem.'''
    ...     return BenchmarkSpec(
    ...         datasets={"linear": {"name": "make_linear_attribution",
    ...                              "params": {"n_samples": 100}}},
    ...         models=["linear_regression"],
    ...         explainers=["RandomExplainer", "FeatureAblation"],
    ...         metrics=["feature_agreement"], seeds=[0], name="tiny")
    >>> get_preset("tiny").explainers["FeatureAblation"]
    {'name': 'FeatureAblation', 'params': {}}
    >>> del PRESETS["tiny"]  # unregister it again
    """
    if func is None:
        return lambda f: register_preset(f, name=name)
    name = func.__name__ if name is None else name
    if not isinstance(name, str) or not name or name.endswith(_QUICK):
        raise ValueError(f"A preset name must be a non-empty str not ending with "
                         f"{_QUICK!r} (the quick variants' suffix), got {name!r}.")
    if not (func.__doc__ or "").strip():
        raise ValueError(f"Preset {name!r} needs a docstring: its first paragraph is "
                         "the preset's description.")
    known = PRESETS.get(name)
    if known is not None and _path(known) != _path(func):
        raise ValueError(f"Preset name {name!r} is already registered by {_path(known)}.")
    PRESETS[name] = func
    return func


def _path(func):
    return f"{func.__module__}.{func.__qualname__}"


def list_presets():
    """Names and one-line descriptions of the presets.

    Returns
    -------
    presets : dict
        Name -> first paragraph of the preset's docstring, on one line.

    Examples
    --------
    >>> from sklearn_xai.benchmark import list_presets
    >>> "default" in list_presets()
    True
    """
    return {name: " ".join(func.__doc__.split("\n\n")[0].split()) for name, func in PRESETS.items()}


def is_preset(name):
    """Whether ``name`` is a preset (or a preset's ``_quick`` variant).

    Parameters
    ----------
    name : str

    Returns
    -------
    is_preset : bool

    Examples
    --------
    >>> from sklearn_xai.benchmark.presets import is_preset
    >>> is_preset("openxai_synthetic_quick"), is_preset("default_quick")
    (True, False)
    """
    name = str(name)
    base = name[:-len(_QUICK)] if name.endswith(_QUICK) else name
    return base in PRESETS and (base == name or _takes_quick(PRESETS[base]))


def _register_shipped(index=SHIPPED_PRESETS, with_quick=WITH_QUICK_VARIANT):
    """Register the presets of the index, in its order.

    Parameters
    ----------
    index : dict, default=SHIPPED_PRESETS
        Preset name -> module of :mod:`sklearn_xai.benchmark.presets` whose
        function of that name builds the preset.
    with_quick : set, default=WITH_QUICK_VARIANT
        The names whose function takes ``quick`` (a ``NAME_quick`` variant).

    Raises
    ------
    ImportError
        When a module has no function of a declared name, or a function's
        ``quick`` parameter disagrees with ``with_quick``: the index, which
        the command line reads, would be wrong.
    """
    for name, module in index.items():
        path = f"{__package__}.{module}"
        func = getattr(import_module(path), name, None)
        if not callable(func):
            raise ImportError(
                f"Preset {name!r} is declared in sklearn_xai/benchmark/_preset_names.py "
                f"but {path} defines no function {name}(); define it or remove the "
                "declaration.")
        takes_quick = _takes_quick(func)
        if takes_quick != (name in with_quick):
            raise ImportError(
                f"Preset function {path}.{name} {'takes' if takes_quick else 'lacks'} "
                f"quick=, but WITH_QUICK_VARIANT in sklearn_xai/benchmark/"
                f"_preset_names.py {'lacks' if takes_quick else 'lists'} {name!r}; "
                "make them agree.")
        register_preset(func, name=name)


def _takes_quick(func):
    """Whether a preset function has a quick variant (a ``quick`` parameter)."""
    return "quick" in inspect.signature(func).parameters


def get_preset(name, *, quick=False):
    """The benchmark spec of a preset.

    Parameters
    ----------
    name : str
        A name from :func:`list_presets`; ``NAME_quick`` is the quick
        variant of a reproduction preset (small sizes, seconds; used in the
        tests).
    quick : bool, default=False
        The quick variant.

    Returns
    -------
    spec : BenchmarkSpec

    Examples
    --------
    >>> from sklearn_xai.benchmark import get_preset
    >>> get_preset("xaibench_table_metrics_quick").name
    'xaibench_table_metrics_quick'
    """
    if name.endswith(_QUICK) and name[:-len(_QUICK)] in PRESETS:
        name, quick = name[:-len(_QUICK)], True
    if name not in PRESETS:
        raise ValueError(f"Unknown preset {name!r}; presets: {sorted(PRESETS)} "
                         "(and NAME_quick for the reproduction presets).")
    if quick:
        if not _takes_quick(PRESETS[name]):
            raise ValueError(f"Preset {name!r} has no quick variant.")
        return PRESETS[name](quick=True)
    return PRESETS[name]()
