"""Benchmark specifications: what a benchmark runs, declared as data.

A benchmark is a grid of datasets x models x explainers x metrics x seeds.
Every component is referenced by name with parameters
(``{"name": "FeatureAblation", "params": {...}}``), so a benchmark can be
written in Python, YAML or JSON, hashed, cached and reproduced.  This module
normalises such declarations (:class:`BenchmarkSpec`) and turns the names into
objects (:func:`resolve_component`).
"""

import importlib
import inspect
import json
import numbers
import os
from dataclasses import asdict, dataclass, field

__all__ = [
    "MODEL_ALIASES",
    "BenchmarkSpec",
    "load_config",
    "resolve_component",
]

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
_DATASET_KEYS = {"name", "params", "test_size", "n_explain", "task"}
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

        return {n: getattr(datasets, n) for n in datasets.__all__
                if n.startswith(("make_", "load_"))}
    if kind == "model":
        from sklearn_xai import models

        return {n: getattr(models, n) for n in models.__all__
                if inspect.isclass(getattr(models, n)) and hasattr(getattr(models, n), "fit")}
    raise ValueError(f"Unknown component kind {kind!r}.")


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
        return _import_path(name)
    kinds = {"explainer": ("explainer", "masker"), "masker": ("masker", "explainer")}
    for k in kinds.get(kind, (kind,)):
        found = _package_names(k).get(name)
        if found is not None:
            return found
    hint = {
        "explainer": "sklearn_xai.utils.discovery.all_explainers()",
        "masker": "sklearn_xai.utils.discovery.all_maskers()",
        "dataset": "sklearn_xai.datasets.__all__",
        "model": f"the aliases {sorted(MODEL_ALIASES)}, sklearn_xai.models.__all__",
    }[kind]
    raise ValueError(
        f"Unknown {kind} {name!r}: use a name from {hint}, or a dotted import "
        "path such as 'sklearn.tree.DecisionTreeRegressor'."
    )


def _accepts(obj, param):
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return False
    return param in params


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
    from sklearn.base import clone

    if hasattr(spec, "get_params") and not inspect.isclass(spec):
        component = clone(spec)
        if seed is not None and "random_state" in component.get_params(deep=False) \
                and component.get_params(deep=False)["random_state"] is None:
            component.set_params(random_state=seed)
        return component
    spec = _normalise_component(spec, kind)
    obj = _lookup(spec["name"], kind, task=task)
    params = {k: _resolve_value(v, kind, seed, context) for k, v in spec["params"].items()}
    if seed is not None and "random_state" not in params and _accepts(obj, "random_state"):
        params["random_state"] = seed
    try:
        return obj(**params)
    except TypeError as exc:
        raise ValueError(
            f"Cannot build {kind} {spec['name']!r} with parameters "
            f"{sorted(params)}: {exc}."
        ) from None


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
        paths to functions returning a Bunch with ``X``/``y`` or
        ``data``/``target``).  The seed is passed as ``random_state`` to
        generators.  Extra keys ``test_size`` and ``n_explain`` override the
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
        (``"omit"``, ``"zero"``, ``"raise"``; SPEC 1.6).
    seeds : list of int, default=(0, 1, 2)
        One run per seed: data draw, split, model, explainer and metric
        randomness all follow it.
    test_size : float or int, default=0.25
        Held-out fraction (or count) of the dataset, unless the dataset's
        Bunch provides ``train_indices`` / ``test_indices``.
    n_explain : int or None, default=100
        Number of held-out rows explained and scored (``None``: all).
    baseline : str or None, default="auto"
        Label of the control explainer significance is tested against;
        ``"auto"`` picks the one :class:`~sklearn_xai.explainers.RandomExplainer`.
    name : str, default="benchmark"
    description : str, default=""

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
    baseline: object = "auto"
    name: str = "benchmark"
    description: str = ""

    def __post_init__(self):
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
        accepted for a single component.

        Returns
        -------
        spec : BenchmarkSpec
        """
        if not isinstance(config, dict):
            raise ValueError(f"A benchmark config must be a mapping, got {type(config).__name__}.")
        config = dict(config)
        for key in ("dataset", "model", "explainer", "metric"):
            if key in config:
                if key + "s" in config:
                    raise ValueError(f"Give either {key!r} or {key + 's'!r}, not both.")
                config[key + "s"] = config.pop(key)
        valid = {f for f in cls.__dataclass_fields__}
        unknown = set(config) - valid
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

    def baseline_label(self):
        """Label of the control explainer, or None."""
        if self.baseline != "auto":
            if self.baseline is not None and self.baseline not in self.explainers:
                raise ValueError(
                    f"baseline {self.baseline!r} is not an explainer label; labels: "
                    f"{sorted(self.explainers)}."
                )
            return self.baseline
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

    def validate_names(self):
        """Resolve every component name once, so a typo fails before any cell runs."""
        for label, ds in self.datasets.items():
            _lookup(ds["name"], "dataset")
        for label, m in self.models.items():
            if not (isinstance(m["name"], str) and m["name"] in MODEL_ALIASES):
                _lookup(m["name"], "model")
        for label, e in self.explainers.items():
            _lookup(e["name"], "explainer")
        from sklearn_xai.metrics import get_scorer_names

        names = get_scorer_names()
        for label, m in self.metrics.items():
            if m["name"] not in names:
                raise ValueError(
                    f"Metric {label!r}: {m['name']!r} is not an explanation scorer; "
                    f"valid names: {names}."
                )


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
    """
    path = os.fspath(path)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if path.endswith(".json"):
        config = json.loads(text)
    else:
        import yaml

        config = yaml.safe_load(text)
    if isinstance(config, dict) and "name" not in config:
        config = {**config, "name": os.path.splitext(os.path.basename(path))[0]}
    try:
        return BenchmarkSpec.from_dict(config)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
