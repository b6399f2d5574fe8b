"""The preset registry: preset names and the functions building their specs."""

import inspect

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
    return base in PRESETS and (base == name or _takes_quick(base))


def _takes_quick(name):
    return "quick" in inspect.signature(PRESETS[name]).parameters


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
        if not _takes_quick(name):
            raise ValueError(f"Preset {name!r} has no quick variant.")
        return PRESETS[name](quick=True)
    return PRESETS[name]()
