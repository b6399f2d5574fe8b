"""Benchmark specifications: what a benchmark runs, declared as data.

A benchmark is a grid of datasets x models x explainers x metrics x seeds.
Every component is referenced by name with parameters
(``{"name": "FeatureAblation", "params": {...}}``), so a benchmark can be
written in Python, YAML or JSON, hashed, cached and reproduced.  This module
normalises such declarations (:class:`BenchmarkSpec`) and turns the names into
objects (:func:`resolve_component`).
"""

import difflib
import importlib
import inspect
import json
import numbers
import os
import re
from dataclasses import asdict, dataclass, field

from sklearn_xai.benchmark._renamed import (
    renamed_component_message,
    renamed_parameter_message,
)

__all__ = [
    "MODEL_ALIASES",
    "BenchmarkSpec",
    "load_config",
    "register_component",
    "resolve_component",
]

_KINDS = ("dataset", "model", "explainer", "masker")

# Components registered from Python (register_component): kind -> name -> object.
_REGISTERED = {kind: {} for kind in _KINDS}

# Top-level packages whose modules a config file may import a dotted path
# from.  Importing a module runs its code, so a config file (which may come
# from anyone) may only name modules of these installed libraries, and only
# objects that are estimator classes or sklearn_xai / scikit-learn data
# generators.  Anything else is registered from Python first.
_TRUSTED_ROOTS = ("sklearn", "sklearn_xai", "xgboost", "lightgbm", "catboost", "skorch",
                  "imblearn")

# Short model names.  A pair is (regressor, classifier): the runner picks by
# the dataset's target.  Values are dotted import paths.
MODEL_ALIASES = {
    "linear": ("sklearn.linear_model.LinearRegression",
               "sklearn.linear_model.LogisticRegression"),
    "linear_regression": ("sklearn.linear_model.LinearRegression", None),
    "logistic_regression": (None, "sklearn.linear_model.LogisticRegression"),
    "decision_tree": ("sklearn.tree.DecisionTreeRegressor",
                      "sklearn.tree.DecisionTreeClassifier"),
    "random_forest": ("sklearn.ensemble.RandomForestRegressor",
                      "sklearn.ensemble.RandomForestClassifier"),
    "mlp": ("sklearn.neural_network.MLPRegressor",
            "sklearn.neural_network.MLPClassifier"),
    "xgboost": ("xgboost.XGBRegressor", "xgboost.XGBClassifier"),
    "logistic_net": (None, "sklearn_xai.models.LogisticNetClassifier"),
    "mlp_net": (None, "sklearn_xai.models.MLPNetClassifier"),
    "beexai_mlp": ("sklearn_xai.models.BEExAIMLPRegressor",
                   "sklearn_xai.models.BEExAIMLPClassifier"),
    "tetromino_net": (None, "sklearn_xai.models.TetrominoNetClassifier"),
}

_COMPONENT_KEYS = {"name", "params"}
_DATASET_KEYS = {"name", "params", "test_size", "n_explain", "explain_rows", "task"}
_EXPLAIN_ROWS_KEYS = ("correct_by", "target")
_EXPLAIN_TARGETS = ("predicted", "true")
_METRIC_KEYS = {"name", "params", "nan_policy"}


def _import_path(path):
    """Object at a dotted import path such as ``"sklearn.tree.DecisionTreeRegressor"``."""
    module_name, _, attr = path.rpartition(".")
    if not module_name:
        raise ValueError(f"{path!r} is not a dotted import path.")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"Cannot import {module_name!r} for component {path!r}: {exc}."
        ) from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError(f"Module {module_name!r} has no attribute {attr!r}.") from None


def _package_lookup(kind, name):
    """The public sklearn_xai component ``name`` of a kind, or None.

    An explainer is looked up by its name alone: ``sklearn_xai.explainers``
    imports a module on first access, so resolving ``FeatureAblation`` does
    not import torch and captum with the gradient explainers.
    """
    if kind == "explainer":
        from sklearn_xai import explainers
        from sklearn_xai.base import BaseExplainer

        found = getattr(explainers, name, None) if name in explainers.__all__ else None
        if (inspect.isclass(found) and issubclass(found, BaseExplainer)
                and not inspect.isabstract(found)):
            return found
        return None
    return _package_names(kind).get(name)


def _package_names(kind):
    """Public names of sklearn_xai components of a kind, name -> object."""
    if kind == "explainer":
        from sklearn_xai.utils.discovery import all_explainers

        return dict(all_explainers())
    if kind == "masker":
        from sklearn_xai import masking
        from sklearn_xai.utils.discovery import all_maskers

        names = dict(all_maskers())
        names.update({n: getattr(masking, n) for n in masking.__all__
                      if inspect.isclass(getattr(masking, n))
                      and not inspect.isabstract(getattr(masking, n))})
        return names
    if kind == "dataset":
        from sklearn_xai import datasets

        # Generators, loaders and the factories that fix the split
        # (two_draws, minmax_scaled, preprocessed).
        return {n: getattr(datasets, n) for n in datasets.__all__
                if n.startswith(("make_", "load_"))
                or getattr(getattr(datasets, n), "__module__", "")
                == "sklearn_xai.datasets._splits"}
    if kind == "model":
        from sklearn_xai import models

        return {n: getattr(models, n) for n in models.__all__
                if inspect.isclass(getattr(models, n)) and hasattr(getattr(models, n), "fit")}
    raise ValueError(f"Unknown component kind {kind!r}.")


def _package_name_list(kind):
    """The names of :func:`_package_names`; for explainers read from
    ``sklearn_xai.explainers.__all__``, without importing the explainers
    (the gradient ones import torch)."""
    if kind == "explainer":
        from sklearn_xai import explainers

        return list(explainers.__all__)
    return list(_package_names(kind))


def register_component(obj, *, kind, name=None):
    """Make a component of your own usable by name in benchmark configs.

    A YAML or JSON config names its components; to keep a config file from
    running arbitrary code, a dotted import path in it may only name an
    estimator class of scikit-learn, sklearn_xai, xgboost, lightgbm,
    catboost, skorch or imbalanced-learn, or a data generator of sklearn_xai
    or scikit-learn.  Everything else (your own explainer, model or dataset
    function) is registered from Python first, then named in the config by
    its registered name or its dotted path.  Specs built in Python
    (:class:`BenchmarkSpec`, a dict given to :func:`run_benchmark`) may use
    any object without registering it.

    Parameters
    ----------
    obj : class or callable
        An estimator class (kinds ``"model"``, ``"explainer"``,
        ``"masker"``) or a function returning a Bunch with ``data`` and
        ``target`` or an ``(X, y)`` tuple (kind ``"dataset"``).
    kind : {"dataset", "model", "explainer", "masker"}
    name : str, default=None
        The name configs use; defaults to ``obj.__name__``.  It may not
        shadow a component of sklearn_xai.

    Returns
    -------
    obj : class or callable
        ``obj`` itself, so this also works as a decorator through
        :func:`functools.partial`.

    Examples
    --------
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_xai.benchmark import register_component
    >>> class MyRidge(Ridge):
    ...     pass
    >>> register_component(MyRidge, kind="model")
    <class 'sklearn_xai.benchmark._spec.MyRidge'>
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}.")
    if not callable(obj):
        raise TypeError(f"obj must be a class or a function, got {type(obj).__name__}.")
    if kind != "dataset" and not _is_estimator_class(obj):
        raise TypeError(
            f"A {kind} must be an estimator class (with fit and get_params); got "
            f"{getattr(obj, '__name__', obj)!r}."
        )
    name = getattr(obj, "__name__", None) if name is None else name
    if not isinstance(name, str) or not name or "." in name:
        raise ValueError(f"name must be a non-empty str without dots, got {name!r}.")
    if name in _package_name_list(kind) or (kind == "model" and name in MODEL_ALIASES):
        raise ValueError(
            f"{name!r} already names a {kind} of sklearn_xai; register yours under "
            "another name (name=...)."
        )
    _REGISTERED[kind][name] = obj
    return obj


def _is_estimator_class(obj):
    return inspect.isclass(obj) and hasattr(obj, "fit") and hasattr(obj, "get_params")


def _dotted_path(obj):
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else None


def _registered_by_path(path, kind):
    return next((obj for obj in _REGISTERED[kind].values() if _dotted_path(obj) == path), None)


def _config_name_problem(name, kind):
    """Why a config file may not name ``name`` as a ``kind`` (None if it may).

    Bare names are looked up in fixed tables and are always safe to resolve;
    a dotted path is imported only from a trusted library, and must then be
    an estimator class (or a data generator for datasets)."""
    if not isinstance(name, str):
        return f"{name!r} is not a name"
    if "." not in name or _registered_by_path(name, kind) is not None:
        return None
    how = (f"{_REGISTER_HOW.format(obj=name.rpartition('.')[2], kind=kind)} and name "
           "it in the config by its registered name, or build the spec in Python")
    root = name.split(".", 1)[0]
    if root not in _TRUSTED_ROOTS:
        return (f"{name!r} is not in a library a config file may import from "
                f"({', '.join(_TRUSTED_ROOTS)}); {how}")
    try:
        obj = _import_path(name)
    except ValueError as exc:
        return str(exc).rstrip(".")
    if kind == "dataset":
        public = {**_package_names("dataset")}
        if (obj in public.values()) or (
                getattr(obj, "__module__", "").startswith("sklearn.datasets")
                and getattr(obj, "__name__", "").startswith("make_")):
            return None
        return (f"{name!r} is not a data generator or loader of sklearn_xai.datasets or "
                f"a scikit-learn make_* generator; {how}")
    if not _is_estimator_class(obj):
        return f"{name!r} is not an estimator class (with fit and get_params); {how}"
    return None


def bind_registered(value, kind, *, top=True):
    """``value`` with every component named by a registered name (or its
    dotted path) replaced by the registered object itself.

    Registrations live in the process that made them; worker processes
    (loky, Dask) receive the objects, not the names."""
    if _is_component(value) or (top and isinstance(value, dict) and "name" in value):
        name = value["name"]
        if isinstance(name, str):
            found = (_registered_by_path(name, kind) if "." in name
                     else _REGISTERED[kind].get(name))
            if found is None and kind in ("explainer", "masker"):
                other = "masker" if kind == "explainer" else "explainer"
                found = (_registered_by_path(name, other) if "." in name
                         else _REGISTERED[other].get(name))
            if found is not None and not (name in _package_name_list(kind)):
                name = found
        nested = "masker" if kind in ("explainer", "masker") else kind
        params = {k: bind_registered(v, nested, top=False)
                  for k, v in (value.get("params") or {}).items()}
        return {**value, "name": name, "params": params}
    if isinstance(value, list):
        return [bind_registered(v, kind, top=False) for v in value]
    if isinstance(value, dict):
        return {k: bind_registered(v, kind, top=False) for k, v in value.items()}
    return value


def check_config_components(spec):
    """Every problem with the component names of a spec read from a file.

    Walks the datasets, models, explainers and metric parameters (nested
    component specs included) and returns a list of messages, one per name
    a config file may not use."""
    problems = []

    def walk(value, kind, where):
        if _is_component(value):
            problem = _config_name_problem(value["name"], kind)
            if problem:
                problems.append(f"{where}: {problem}.")
            nested = "masker" if kind in ("explainer", "masker") else kind
            for key, v in (value.get("params") or {}).items():
                walk(v, nested, f"{where}.params.{key}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, kind, f"{where}[{i}]")
        elif isinstance(value, dict):
            for key, v in value.items():
                walk(v, kind, f"{where}.{key}")

    for group, kind in (("datasets", "dataset"), ("models", "model"),
                        ("explainers", "explainer")):
        for label, component in getattr(spec, group).items():
            comp = {k: component[k] for k in ("name", "params")}
            walk(comp, kind, f"{group}[{label!r}]")
    for label, metric in spec.metrics.items():
        for key, v in metric["params"].items():
            walk(v, "masker", f"metrics[{label!r}].params.{key}")
    return problems


def _lookup(name, kind, task=None):
    """Object (class or function) named ``name`` for a component ``kind``.

    Explainers resolve among :mod:`sklearn_xai.explainers` (then maskers, for
    nested parameters), models among :data:`MODEL_ALIASES` and
    :mod:`sklearn_xai.models`, datasets among :mod:`sklearn_xai.datasets`;
    any kind also takes a dotted import path.
    """
    if not isinstance(name, str):
        return name
    if kind == "model" and name in MODEL_ALIASES:
        regressor, classifier = MODEL_ALIASES[name]
        path = classifier if task == "classification" else regressor
        if path is None:
            other = "regression" if task == "classification" else "classification"
            raise ValueError(
                f"Model alias {name!r} is for {other} only, but the dataset's target "
                f"is {task or 'regression'}."
            )
        return _import_path(path)
    if "." in name:
        registered = _registered_by_path(name, kind)
        return registered if registered is not None else _import_path(name)
    kinds = {"explainer": ("explainer", "masker"), "masker": ("masker", "explainer")}
    for k in kinds.get(kind, (kind,)):
        found = _package_lookup(k, name)
        if found is None:
            found = _REGISTERED[k].get(name)
        if found is not None:
            return found
    raise ValueError(_unknown_name_message(name, kind))


# Per kind: where the names are listed, and an example of a dotted import
# path of that kind (one a config file may name).
_NAME_HINTS = {
    "explainer": ("sklearn_xai.utils.discovery.all_explainers()",
                  "sklearn_xai.explainers.KernelSHAP"),
    "masker": ("sklearn_xai.utils.discovery.all_maskers()",
               "sklearn_xai.masking.MarginalMasker"),
    "dataset": ("sklearn_xai.datasets.__all__", "sklearn.datasets.make_friedman1"),
    "model": (f"the aliases {sorted(MODEL_ALIASES)}, sklearn_xai.models.__all__",
              "sklearn.tree.DecisionTreeRegressor"),
}


def _unknown_name_message(name, kind):
    """The error for a ``kind`` named ``name`` that resolves to nothing: the
    closest known names, and the two ways to name a component of your own."""
    listed, example = _NAME_HINTS[kind]
    known = _package_name_list(kind) + list(_REGISTERED[kind])
    if kind == "model":
        known += list(MODEL_ALIASES)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
    hint = renamed_component_message(name) or hint
    what = "function" if kind == "dataset" else "Class"
    return (
        f"Unknown {kind} {name!r}.{hint} Use a name from {listed}; for your own "
        f"{kind}, {_REGISTER_HOW.format(obj=name, kind=kind)}; or give a dotted "
        f"import path 'package.module.{what}' such as {example!r}."
    )


# How to make a component of your own nameable, in every error that needs it.
_REGISTER_HOW = ("register it with sklearn_xai.benchmark.register_component({obj}, "
                 "kind={kind!r}) (for a config run from the command line: in a module "
                 "imported with --import my_module, such as a my_module.py next to the "
                 "config)")


def _accepts(obj, param):
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return False
    return param in params


def _seed_params(obj, params, seed):
    """``{"random_state": seed}`` where ``obj`` takes the cell's seed, else ``{}``.

    The one rule by which the runner seeds its components: a component gets
    ``random_state=seed`` when it takes a ``random_state`` and ``params``
    (its spec) does not set one.

    Parameters
    ----------
    obj : estimator, class, function or MetricSpec
        An estimator instance takes the seed when its ``get_params()`` has
        ``random_state`` set to None (a value set on the instance is kept);
        a registered metric when it declares ``"random_state"`` among its
        ``requires`` (metrics are bound by their registry entry); a class or
        function when its signature has a ``random_state`` parameter (its
        default is replaced).
    params : dict
        The parameters the spec gives ``obj``.
    seed : int or None
        The cell's seed; None seeds nothing.

    Returns
    -------
    extra : dict
        The parameters to add to ``params``.
    """
    from sklearn_xai.metrics import MetricSpec

    if seed is None or "random_state" in params:
        return {}
    if isinstance(obj, MetricSpec):
        takes = "random_state" in obj.requires
    elif hasattr(obj, "get_params") and not inspect.isclass(obj):
        takes = obj.get_params(deep=False).get("random_state", 0) is None
    else:
        takes = _accepts(obj, "random_state")
    return {"random_state": seed} if takes else {}


def _clone_with(estimator, params, seed):
    """A clone of an (unfitted) estimator instance with ``params`` set on top
    and the seed where it takes one, so that cells never share an object."""
    from sklearn.base import clone

    component = clone(estimator)
    params = {**params, **_seed_params(component, params, seed)}
    return component.set_params(**params) if params else component


def _is_component(value):
    return isinstance(value, dict) and "name" in value and set(value) <= _COMPONENT_KEYS


def _resolve_value(value, kind, seed, context):
    """Resolve nested component specs and ``"@key"`` references in a parameter."""
    if _is_component(value):
        return resolve_component(value, "masker" if kind == "explainer" else kind,
                                 seed=seed, context=context)
    if isinstance(value, str) and value.startswith("@"):
        key = value[1:]
        if context is None or key not in context or context[key] is None:
            raise ValueError(
                f"Parameter reference {value!r}: the dataset provides no {key!r} "
                f"(available: {sorted(k for k, v in (context or {}).items() if v is not None)})."
            )
        return context[key]
    if isinstance(value, list):
        return [_resolve_value(v, kind, seed, context) for v in value]
    if isinstance(value, dict):
        return {k: _resolve_value(v, kind, seed, context) for k, v in value.items()}
    return value


def resolve_component(spec, kind, *, seed=None, task=None, context=None):
    """Build a component (explainer, masker or model) from its spec.

    Parameters
    ----------
    spec : str, dict, class or estimator
        A name, ``{"name": name, "params": {...}}``, a class, or an
        (unfitted) estimator instance, which is cloned.  Parameters that are
        themselves component specs are built recursively (an explainer's
        ``masker``); the string ``"@key"`` stands for the dataset's
        ``Bunch[key]`` (``"@distribution"`` for a ``ConditionalMasker``).
    kind : {"explainer", "masker", "model"}
    seed : int, default=None
        Given as ``random_state`` to components that take one and whose spec
        does not set it, so every cell is reproducible.
    task : {"regression", "classification"}, default=None
        Picks the regressor or the classifier of a model alias.
    context : dict, default=None
        The dataset's Bunch, for ``"@key"`` references.

    Returns
    -------
    component : object

    Examples
    --------
    >>> from sklearn_xai.benchmark import resolve_component
    >>> resolve_component({"name": "FeatureAblation",
    ...                    "params": {"masker": {"name": "BaselineMasker",
    ...                                          "params": {"value": "mean"}}}},
    ...                   "explainer")
    FeatureAblation(masker=BaselineMasker(value='mean'))
    """
    if hasattr(spec, "get_params") and not inspect.isclass(spec):
        return _clone_with(spec, {}, seed)
    spec = _normalise_component(spec, kind)
    obj = _lookup(spec["name"], kind, task=task)
    params = {k: _resolve_value(v, kind, seed, context) for k, v in spec["params"].items()}
    if hasattr(obj, "get_params") and not inspect.isclass(obj):
        # An (unfitted) estimator instance in a spec: the spec's params on a clone.
        return _clone_with(obj, params, seed)
    for key, value in params.items():
        renamed = _renamed_problem(obj, key, value)
        if renamed is not None:
            raise ValueError(f"Cannot build {kind} {spec['name']!r}: {renamed}.")
    params.update(_seed_params(obj, params, seed))
    try:
        component = obj(**params)
    except TypeError as exc:
        raise ValueError(
            f"Cannot build {kind} {spec['name']!r} with parameters "
            f"{sorted(params)}: {exc}."
        ) from None
    # Estimators that take random_state through **kwargs (skorch nets) do
    # not show it in their signature: the built instance says.
    late = _seed_params(component, params, seed)
    return component.set_params(**late) if late else component


def _normalise_component(spec, what, keys=_COMPONENT_KEYS):
    """``{"name": ..., "params": {...}}`` (plus the allowed extra ``keys``)."""
    if isinstance(spec, str) or inspect.isclass(spec) or callable(spec) \
            or hasattr(spec, "get_params"):
        return {"name": spec, "params": {}}
    if not isinstance(spec, dict) or "name" not in spec:
        raise ValueError(
            f"A {what} must be a name or a dict {{'name': ..., 'params': {{...}}}}; "
            f"got {spec!r}."
        )
    unknown = set(spec) - keys
    if unknown:
        raise ValueError(
            f"Unknown keys {sorted(unknown)} in the {what} {spec['name']!r}; "
            f"valid keys: {sorted(keys)}."
        )
    params = spec.get("params") or {}
    if not isinstance(params, dict):
        raise ValueError(f"The params of {what} {spec['name']!r} must be a dict.")
    out = dict(spec)
    out["params"] = dict(params)
    return out


def _label_of(spec):
    name = spec["name"]
    if isinstance(name, str):
        return name.rsplit(".", 1)[-1]
    return getattr(name, "__name__", type(name).__name__)


def _normalise_group(value, what, keys=_COMPONENT_KEYS):
    """A dict label -> normalised spec from a dict, a list or a single spec."""
    if value is None:
        raise ValueError(f"The benchmark needs at least one {what}.")
    if isinstance(value, dict) and "name" in value and set(value) <= keys:
        value = [value]
    if isinstance(value, (str,)) or not isinstance(value, (dict, list, tuple)):
        value = [value]
    if isinstance(value, dict):
        out = {str(label): _normalise_component(v, what, keys) for label, v in value.items()}
    else:
        out = {}
        for v in value:
            spec = _normalise_component(v, what, keys)
            label = _label_of(spec)
            if label in out:
                raise ValueError(
                    f"Two {what}s are both labelled {label!r}: give them labels with "
                    f"a dict {{label: spec}}."
                )
            out[label] = spec
    if not out:
        raise ValueError(f"The benchmark needs at least one {what}.")
    return out


@dataclass
class BenchmarkSpec:
    """A benchmark: datasets x models x explainers x metrics x seeds.

    Each of ``datasets``, ``models``, ``explainers`` and ``metrics`` is a dict
    label -> component spec, or a list of specs (labelled by name), or one
    spec.  A component spec is a name or ``{"name": ..., "params": {...}}``
    (see :func:`resolve_component`).

    Parameters
    ----------
    datasets : dict, list or str
        Generators or loaders of :mod:`sklearn_xai.datasets` (or dotted
        paths to functions returning a Bunch (or dict) with ``data`` and
        ``target``, scikit-learn's spelling, or an ``(X, y)`` tuple).  The
        seed is passed as ``random_state`` to generators.  Extra keys
        ``test_size``, ``n_explain`` and ``explain_rows`` override the
        benchmark-wide values; ``task`` ("regression" or "classification")
        overrides the guess from the target (float targets with more than 10
        values are regression), which picks a model alias's estimator and
        whether the split is stratified.
    models : dict, list or str
        Model aliases (:data:`MODEL_ALIASES`), classes of
        :mod:`sklearn_xai.models`, or dotted class paths.
    explainers : dict, list or str
        Explainer class names (:func:`~sklearn_xai.utils.discovery.all_explainers`).
    metrics : dict, list or str
        Scorer names (:func:`~sklearn_xai.metrics.get_scorer_names`) with
        optional ``params`` bound to the scorer and ``nan_policy``
        (``"omit"``, ``"zero"``, ``"raise"``; see :ref:`def-nan-policy`).
    seeds : list of int, default=(0, 1, 2)
        One run per seed: data draw, split, model, explainer and metric
        randomness all follow it.
    test_size : float or int, default=0.25
        Held-out fraction (or count) of the dataset, unless the dataset's
        Bunch provides ``train_indices`` / ``test_indices``.
    n_explain : int or None, default=100
        Number of held-out rows explained and scored (``None``: all); with
        a ``correct_by`` filter, the number of candidate rows.
    control : str or None, default="auto"
        Label of the control explainer every explainer is tested against
        (the benchmark's random control); ``"auto"`` picks the one
        :class:`~sklearn_xai.explainers.RandomExplainer`, ``None`` skips the
        test.
    name : str, default="benchmark"
    description : str, default=""
    explain_rows : dict or None, default=None
        Which of the first ``n_explain`` held-out rows are explained, and
        what is explained, as ``{"correct_by": ..., "target": ...}``:

        - ``"correct_by"``: ``"all_models"`` or a list of model labels;
          only the rows that *every* one of these models classifies
          correctly are explained and scored, by every cell of the dataset
          (the same rows for all its models and explainers, as XAI-TRIS
          scores its images [1]_).  The filter is computed once per dataset
          and seed, after its models are fitted.  ``None`` (default): no
          filter.
        - ``"target"``: ``"predicted"`` (default: each explainer's own
          ``target``) or ``"true"``: explain (and score model-based metrics
          on) the row's true class.

        A dataset entry's ``explain_rows`` replaces this one (e.g. a model
        that counts only for some datasets).
    device : {"auto", "cpu", "cuda", "cuda:N"} or None, default=None
        Where the run's torch models train and run: every net with a
        ``device`` parameter (the skorch nets of
        :mod:`sklearn_xai.models`, inside pipelines too) gets it before it
        is fitted, and a fitted net is moved there.  ``"auto"``: a CUDA GPU
        when torch sees one, else the CPU.  ``None``: as each model's spec
        says.  Scores do not depend on the device (to float rounding), so
        it is not part of the cache keys; the results record the device used
        (``results.spec["device"]``).  :func:`run_benchmark`'s ``device``
        overrides it.  See :ref:`gpu`.

    References
    ----------
    .. [1] B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: Non-linear image
       benchmarks to quantify false positive post-hoc attribution of feature
       importance", Machine Learning 113, 2024.

    Examples
    --------
    >>> from sklearn_xai.benchmark import BenchmarkSpec
    >>> spec = BenchmarkSpec(
    ...     datasets={"linear": {"name": "make_linear_attribution",
    ...                          "params": {"n_samples": 200}}},
    ...     models=["linear_regression"],
    ...     explainers=["RandomExplainer", "FeatureAblation"],
    ...     metrics=["feature_agreement", "neg_complexity"], seeds=[0, 1])
    >>> len(spec.cells())
    4
    """

    datasets: object
    models: object
    explainers: object
    metrics: object
    seeds: list = field(default_factory=lambda: [0, 1, 2])
    test_size: float = 0.25
    n_explain: object = 100
    control: object = "auto"
    name: str = "benchmark"
    description: str = ""
    explain_rows: object = None
    device: object = None

    def __post_init__(self):
        _check_spec_name(self.name)
        self.device = check_device_setting(self.device, "device")
        self.datasets = _normalise_group(self.datasets, "dataset", _DATASET_KEYS)
        self.models = _normalise_group(self.models, "model")
        self.explainers = _normalise_group(self.explainers, "explainer")
        self.metrics = _normalise_group(self.metrics, "metric", _METRIC_KEYS)
        if isinstance(self.seeds, numbers.Integral):
            self.seeds = [int(self.seeds)]
        seeds = list(self.seeds)
        if not seeds or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool)
                                for s in seeds):
            raise ValueError(f"seeds must be a non-empty list of ints, got {self.seeds!r}.")
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"seeds has duplicates: {seeds}.")
        self.seeds = [int(s) for s in seeds]
        for label, ds in self.datasets.items():
            _check_split(ds.get("test_size", self.test_size), ds.get("n_explain", self.n_explain),
                         f"dataset {label!r}")
        self.explain_rows = _check_explain_rows(self.explain_rows, self.models,
                                                "explain_rows")
        for label, ds in self.datasets.items():
            if "explain_rows" in ds:
                ds["explain_rows"] = _check_explain_rows(
                    ds["explain_rows"], self.models, f"datasets[{label!r}].explain_rows")
        for label, ds in self.datasets.items():
            if ds.get("task") not in (None, "regression", "classification"):
                raise ValueError(
                    f"dataset {label!r}: task must be 'regression' or 'classification', "
                    f"got {ds['task']!r}."
                )
        for label, m in self.metrics.items():
            if m.get("nan_policy", "omit") not in ("omit", "zero", "raise"):
                raise ValueError(
                    f"Metric {label!r}: nan_policy must be 'omit', 'zero' or 'raise', "
                    f"got {m['nan_policy']!r}."
                )

    # ----------------------------------------------------------- building
    @classmethod
    def from_dict(cls, config):
        """Spec from a dict (the parsed YAML/JSON config).

        ``dataset`` / ``model`` / ``explainer`` / ``metric`` (singular) are
        accepted for a single component.  ``preset: NAME`` starts from a
        preset (:func:`~sklearn_xai.benchmark.get_preset`): the config's
        datasets, models, explainers and metrics are added to the preset's
        (a label already there is replaced; a label mapped to ``null``
        removes it) and its other keys override the preset's.

        Returns
        -------
        spec : BenchmarkSpec

        Examples
        --------
        >>> from sklearn_xai.benchmark import BenchmarkSpec
        >>> spec = BenchmarkSpec.from_dict({
        ...     "preset": "default", "seeds": [0],
        ...     "explainers": {"occlusion": "FeatureAblation", "lime": None}})
        >>> "occlusion" in spec.explainers, "lime" in spec.explainers
        (True, False)
        """
        if not isinstance(config, dict):
            raise ValueError(f"A benchmark config must be a mapping, got {type(config).__name__}.")
        config = dict(config)
        for key in ("dataset", "model", "explainer", "metric"):
            if key in config:
                if key + "s" in config:
                    raise ValueError(f"Give either {key!r} or {key + 's'!r}, not both.")
                config[key + "s"] = config.pop(key)
        if "preset" in config:
            config = _extend_preset(config.pop("preset"), config)
        valid = {f for f in cls.__dataclass_fields__}
        unknown = set(config) - valid
        for key in sorted(unknown):
            renamed = renamed_parameter_message("BenchmarkSpec", key, config[key])
            if renamed is not None:
                raise ValueError(f"{renamed} (a config file key).")
        if unknown:
            raise ValueError(
                f"Unknown benchmark config keys {sorted(unknown)}; valid keys: {sorted(valid)}."
            )
        missing = {"datasets", "models", "explainers", "metrics"} - set(config)
        if missing:
            raise ValueError(f"The benchmark config lacks {sorted(missing)}.")
        return cls(**config)

    def to_dict(self):
        """The normalised spec as a dict (JSON-serialisable when every
        component is given by name)."""
        return asdict(self)

    def control_label(self):
        """Label of the control explainer, or None.

        Returns
        -------
        label : str or None
            ``control`` when given; with ``control="auto"`` the label of the
            one :class:`~sklearn_xai.explainers.RandomExplainer`, or None
            when there is none or several.

        Examples
        --------
        >>> from sklearn_xai.benchmark import BenchmarkSpec
        >>> spec = BenchmarkSpec(datasets="make_linear_attribution",
        ...                      models="linear_regression",
        ...                      explainers={"random": "RandomExplainer",
        ...                                  "ablation": "FeatureAblation"},
        ...                      metrics="feature_agreement")
        >>> spec.control_label()
        'random'
        """
        if self.control != "auto":
            if self.control is not None and self.control not in self.explainers:
                raise ValueError(
                    f"control {self.control!r} is not an explainer label; labels: "
                    f"{sorted(self.explainers)}."
                )
            return self.control
        randoms = [label for label, e in self.explainers.items()
                   if _label_of(e) == "RandomExplainer"]
        return randoms[0] if len(randoms) == 1 else None

    def cells(self):
        """All (dataset, model, explainer, seed) label tuples, explainer-major
        (so cells sharing a fitted model are spread over the run)."""
        return [(d, m, e, s) for e in self.explainers for d in self.datasets
                for m in self.models for s in self.seeds]

    def dataset_split(self, label):
        """(test_size, n_explain) of a dataset."""
        ds = self.datasets[label]
        return ds.get("test_size", self.test_size), ds.get("n_explain", self.n_explain)

    def explained_rows(self, label):
        """The ``explain_rows`` option of a dataset (its own, else the
        benchmark's), with ``"all_models"`` expanded to the model labels;
        None when the dataset explains its first ``n_explain`` held-out rows
        as they are, with the explainers' own target.

        Examples
        --------
        >>> from sklearn_xai.benchmark import BenchmarkSpec
        >>> spec = BenchmarkSpec(datasets="make_classification",
        ...                      models=["logistic_regression", "decision_tree"],
        ...                      explainers="RandomExplainer", metrics="neg_complexity",
        ...                      explain_rows={"correct_by": "all_models"})
        >>> spec.explained_rows("make_classification")
        {'correct_by': ['logistic_regression', 'decision_tree'], 'target': 'predicted'}
        """
        option = self.datasets[label].get("explain_rows", self.explain_rows)
        if option is None:
            return None
        by = option["correct_by"]
        return {"correct_by": list(self.models) if by == "all_models" else
                (None if by is None else list(by)), "target": option["target"]}

    def validate_names(self):
        """Check every component before any cell runs, and report all
        problems at once.

        Each name must resolve (a dataset, model, explainer, masker or scorer
        name), and each component's ``params`` must bind to its signature:
        an unknown parameter is reported with its component's path and the
        closest valid names, a missing required one by name.

        Raises
        ------
        ValueError
            Listing every problem found.
        """
        problems = []
        for label, ds in self.datasets.items():
            where = f"datasets[{label!r}]"
            obj = _try_lookup(ds["name"], "dataset", where, problems)
            if obj is not None:
                problems += _params_problems([obj], ds["params"], where,
                                             supplied=("random_state",))
        for label, m in self.models.items():
            where = f"models[{label!r}]"
            if isinstance(m["name"], str) and m["name"] in MODEL_ALIASES:
                candidates = [_import_path(p) for p in MODEL_ALIASES[m["name"]] if p]
            else:
                obj = _try_lookup(m["name"], "model", where, problems)
                candidates = [] if obj is None else [obj]
            if candidates:
                problems += _params_problems(candidates, m["params"], where,
                                             supplied=("random_state",))
                problems += _nested_problems(m["params"], "model", where)
        for label, e in self.explainers.items():
            where = f"explainers[{label!r}]"
            obj = _try_lookup(e["name"], "explainer", where, problems)
            if obj is not None:
                problems += _params_problems(
                    [obj], e["params"], where,
                    supplied=("random_state", "estimator", "image_shape"))
                problems += _nested_problems(e["params"], "masker", where)
        from sklearn_xai.metrics import get_metric_spec, get_scorer_names

        names = get_scorer_names()
        for label, m in self.metrics.items():
            where = f"metrics[{label!r}]"
            if m["name"] not in names:
                close = difflib.get_close_matches(str(m["name"]), names, n=3)
                hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
                problems.append(
                    f"{where}: {m['name']!r} is not an explanation scorer.{hint} "
                    "(`sklearn-xai list metrics` lists them.)"
                )
                continue
            params = dict(m["params"])
            if m["name"] == "neg_group_gap":
                inner = params.pop("metric", "pgi")
                for key in ("statistic", "groups"):
                    params.pop(key, None)
                metric = m["name"] if inner == "neg_group_gap" else inner
            else:
                metric = m["name"]
            try:
                metric_spec = get_metric_spec(metric)
            except ValueError:  # a scorer registered from Python, or an unknown inner
                metric_spec = None
            if metric_spec is not None:
                # Per-row metadata ("@key" redirections) is routed, not bound.
                params = {k: v for k, v in params.items() if k not in metric_spec.metadata}
                problems += _params_problems(
                    [metric_spec.func], params, where, check_missing=False,
                    positional=_POSITIONAL[metric_spec.kind])
            problems += _nested_problems(params, "masker", where)
        if problems:
            raise ValueError(
                f"The benchmark {self.name!r} has {len(problems)} problem(s):\n  - "
                + "\n  - ".join(problems)
            )



_GROUPS = {"datasets": ("dataset", _DATASET_KEYS), "models": ("model", _COMPONENT_KEYS),
           "explainers": ("explainer", _COMPONENT_KEYS),
           "metrics": ("metric", _METRIC_KEYS)}


def _extend_preset(name, config):
    """A config dict: preset ``name`` extended by ``config`` (see
    :meth:`BenchmarkSpec.from_dict`)."""
    from sklearn_xai.benchmark.presets import get_preset

    if not isinstance(name, str):
        raise ValueError(f"preset must be a preset name, got {name!r}.")
    base = get_preset(name)
    merged = {f: getattr(base, f) for f in BenchmarkSpec.__dataclass_fields__}
    for group, (what, keys) in _GROUPS.items():
        if group not in config:
            continue
        extra = config.pop(group)
        if not isinstance(extra, dict):
            raise ValueError(
                f"To extend preset {name!r}, give {group} as a mapping label -> spec "
                "(a label mapped to null removes it)."
            )
        combined = dict(merged[group])
        for label, value in extra.items():
            if value is None:
                if label not in combined:
                    raise ValueError(
                        f"Cannot remove {what} {label!r}: preset {name!r} has "
                        f"{sorted(combined)}."
                    )
                del combined[label]
            else:
                combined[str(label)] = _normalise_component(value, what, keys)
        merged[group] = combined
    merged.update(config)
    # A model the config removes leaves the preset's row filters too.
    removed = set(base.models) - set(merged["models"])
    if removed:
        merged["datasets"] = {label: _without_models(ds, removed)
                              for label, ds in merged["datasets"].items()}
        merged["explain_rows"] = _without_models({"explain_rows": merged["explain_rows"]},
                                                 removed)["explain_rows"]
    return merged


def _without_models(entry, removed):
    """``entry`` (a dataset entry, or a dict holding ``explain_rows``) with the
    labels ``removed`` taken out of its ``explain_rows`` filter (no filter
    once none is left)."""
    option = entry.get("explain_rows")
    if not isinstance(option, dict) or not isinstance(option.get("correct_by"), list):
        return entry
    by = [m for m in option["correct_by"] if m not in removed]
    return {**entry, "explain_rows": {**option, "correct_by": by or None}}


# Positional arguments of each metric family (filled by the scorer).
_POSITIONAL = {"reference": 2, "model": 3, "attributions": 1}


def _try_lookup(name, kind, where, problems):
    try:
        return _lookup(name, kind)
    except ValueError as exc:
        problems.append(f"{where}: {exc}")
        return None


def _nested_problems(params, kind, where):
    """Problems of component specs nested in ``params`` (an explainer's masker)."""
    problems = []
    for key, value in params.items():
        if _is_component(value) and not hasattr(value["name"], "get_params"):
            sub = f"{where}.params.{key}"
            obj = _try_lookup(value["name"], kind, sub, problems)
            if obj is not None:
                nested = _normalise_component(value, kind)
                problems += _params_problems([obj], nested["params"], sub,
                                             supplied=("random_state",))
                problems += _nested_problems(nested["params"], kind, sub)
    return problems


def _renamed_problem(obj, key, value):
    """The error for parameter ``key`` of ``obj`` when it is a name that
    parameter had before 0.1 (:mod:`sklearn_xai.benchmark._renamed`), else
    None.  Only sklearn_xai's own components had such names."""
    if not getattr(obj, "__module__", "").startswith("sklearn_xai."):
        return None
    name = obj.__name__ if inspect.isclass(obj) or inspect.isfunction(obj) \
        else type(obj).__name__
    return renamed_parameter_message(name, key, value)


def _params_problems(candidates, params, where, *, supplied=(), positional=0,
                     check_missing=True):
    """Unknown (with close matches) and missing required parameters of a
    component, given the objects it may resolve to (both estimators of a
    model alias: a parameter is unknown when no candidate takes it)."""
    names, required, open_ended = set(), None, False
    label = None
    for obj in candidates:
        if hasattr(obj, "get_params") and not inspect.isclass(obj):
            names |= set(obj.get_params(deep=False))
            required = set() if required is None else required
            label = label or type(obj).__name__
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            return []
        label = label or getattr(obj, "__name__", str(obj))
        plist = list(sig.parameters.values())[positional:]
        if any(p.kind is p.VAR_KEYWORD for p in plist):
            open_ended = True
        keyword = [p for p in plist if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        names |= {p.name for p in keyword}
        req = {p.name for p in keyword if p.default is p.empty}
        required = req if required is None else required & req
    if not candidates:
        return []
    problems = []
    for key in params:
        renamed = _renamed_problem(candidates[0], key, params[key])
        if renamed is not None:
            problems.append(f"{where}: {renamed}")
    if not open_ended:
        for key in params:
            if key in names or _renamed_problem(candidates[0], key, None) is not None:
                continue
            close = difflib.get_close_matches(key, sorted(names), n=3, cutoff=0.6)
            hint = (f"did you mean {' or '.join(map(repr, close))}?" if close
                    else f"valid parameters: {sorted(names)}.")
            problems.append(f"{where}: {label} has no parameter {key!r}; {hint}")
    if check_missing and required:
        missing = sorted(required - set(params) - set(supplied))
        if missing:
            problems.append(f"{where}: {label} needs the parameter(s) {missing}.")
    return problems


def _check_split(test_size, n_explain, where):
    if isinstance(test_size, bool) or not isinstance(test_size, numbers.Real) or test_size <= 0 \
            or (isinstance(test_size, float) and test_size >= 1):
        raise ValueError(
            f"{where}: test_size must be a float in (0, 1) or a positive int, got {test_size!r}."
        )
    if n_explain is not None and (isinstance(n_explain, bool)
                                  or not isinstance(n_explain, numbers.Integral)
                                  or n_explain < 1):
        raise ValueError(f"{where}: n_explain must be a positive int or None, got {n_explain!r}.")


def _check_explain_rows(value, models, where):
    """The normalised ``explain_rows`` option (see :class:`BenchmarkSpec`)."""
    if value is None:
        return None
    how = (f"give {where} as a dict {{'correct_by': 'all_models' or a list of model "
           f"labels {sorted(models)}, 'target': 'predicted' or 'true'}}, or None")
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a dict or None, got {value!r}: {how}.")
    unknown = set(value) - set(_EXPLAIN_ROWS_KEYS)
    if unknown:
        raise ValueError(f"{where} has unknown keys {sorted(unknown)}: {how}.")
    by = value.get("correct_by")
    if isinstance(by, str) and by != "all_models":
        by = [by]
    if by is not None and by != "all_models":
        if not isinstance(by, (list, tuple)) or not by or not all(isinstance(m, str) for m in by):
            raise ValueError(f"{where}['correct_by'] must be 'all_models' or a non-empty "
                             f"list of model labels, got {by!r}: {how}.")
        missing = [m for m in by if m not in models]
        if missing:
            raise ValueError(f"{where}['correct_by'] names {missing}, which are not model "
                             f"labels of the benchmark; use labels of {sorted(models)}.")
        by = list(dict.fromkeys(by))
    target = value.get("target", "predicted")
    if target not in _EXPLAIN_TARGETS:
        raise ValueError(f"{where}['target'] must be 'predicted' or 'true', got "
                         f"{target!r}.")
    return {"correct_by": by, "target": target}


_DEVICE_SETTING = re.compile(r"(auto|cpu|mps|cuda(:[0-9]{1,3})?)")


def check_device_setting(value, where="device"):
    """A run's ``device`` setting, checked by its spelling only.

    A config file is untrusted input: the value is matched against the
    device names (``"auto"``, ``"cpu"``, ``"cuda"``, ``"cuda:N"``,
    ``"mps"``), never evaluated.  Whether the machine has the device is
    checked when a run starts (:func:`~sklearn_xai.utils._device.resolve_device`),
    so a config written for a GPU machine loads anywhere.

    Parameters
    ----------
    value : str, torch.device or None
    where : str, default="device"
        The setting's name in the error message (``--device`` for the
        command line).

    Returns
    -------
    device : str or None
        The device's name (``str`` of a :class:`torch.device`).

    Raises
    ------
    ValueError
        If ``value`` is not a device name.
    """
    if value is None:
        return None
    if type(value).__name__ == "device" and type(value).__module__ == "torch":
        value = str(value)
    if not isinstance(value, str) or _DEVICE_SETTING.fullmatch(value) is None:
        raise ValueError(
            f"{where}={value!r} is not a device; use 'auto', 'cpu', 'cuda' or "
            "'cuda:N' (N the GPU's index), or leave it out to keep each model's own."
        )
    return value


def _check_spec_name(name):
    """The benchmark's name names its default output folder
    (``sklearn_xai_results/<name>``): a plain folder name only."""
    if (not isinstance(name, str) or name.strip() in ("", ".", "..")
            or any(c in name for c in "/\\:") or not name.isprintable()
            or name != name.strip()):
        raise ValueError(
            f"name must be a plain folder name (letters, digits, '_', '-', '.'; no "
            f"'/', '\\', '..', ':' or control characters), got {name!r}: it names the "
            "default output folder sklearn_xai_results/<name>.")


def _parse_config(path, text):
    """The parsed config file, or a ValueError naming the file."""
    from sklearn_xai.utils._files import json_size_problem

    try:
        if path.endswith(".json"):
            config = json.loads(text)
        else:
            import yaml

            config = yaml.safe_load(text)
    except RecursionError:
        raise ValueError(f"{path}: the config nests too deeply to be read.") from None
    except ValueError as exc:  # json.JSONDecodeError
        kind = "JSON" if path.endswith(".json") else "YAML"
        raise ValueError(f"{path}: not valid {kind} ({exc}).") from None
    except Exception as exc:  # noqa: BLE001 - yaml.YAMLError and its subclasses
        import yaml

        if not isinstance(exc, yaml.YAMLError):
            raise
        text = " ".join(str(exc).split())
        raise ValueError(
            f"{path}: not a valid YAML config ({text}); a config holds plain mappings, "
            "lists, strings and numbers only (no '!!python' tags).") from None
    problem = json_size_problem(config)
    if problem is not None:
        raise ValueError(f"{path}: the config is refused: {problem}.")
    return config


def load_config(path):
    """Read a benchmark config file (YAML or JSON).

    Parameters
    ----------
    path : str or path-like
        A ``.yaml`` / ``.yml`` or ``.json`` file holding a mapping with the
        fields of :class:`BenchmarkSpec` (``name`` defaults to the file's
        stem).

    Returns
    -------
    spec : BenchmarkSpec

    Raises
    ------
    ValueError
        When the file names a component a config may not name: a dotted
        import path must be an estimator class of scikit-learn, sklearn_xai,
        xgboost, lightgbm, catboost, skorch or imbalanced-learn, or a data
        generator of sklearn_xai or scikit-learn; anything else is
        registered from Python first (:func:`register_component`).  Nothing
        outside those libraries is imported while checking.
    """
    path = os.fspath(path)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    config = _parse_config(path, text)
    if isinstance(config, dict) and "name" not in config:
        config = {**config, "name": os.path.splitext(os.path.basename(path))[0]}
    try:
        spec = BenchmarkSpec.from_dict(config)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    problems = check_config_components(spec)
    if problems:
        raise ValueError(
            f"{path}: a config file may not name these components:\n  - "
            + "\n  - ".join(problems)
        )
    return spec
