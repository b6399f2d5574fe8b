"""The registry of explanation scorer names: one table, the single source of
truth for scorer names, orientation, requirements and the docs' metric table.

Every name :func:`~sklearn_xai.metrics.get_scorer` resolves lives here: the
metrics (a :class:`MetricSpec` each, registered by the metric modules at
import time with :func:`register_metric`), the scorers users register with
:func:`~sklearn_xai.metrics.register_scorer`, and scorer factories such as
``neg_group_gap`` (which wraps another metric).  A spec says everything a
caller must supply besides the rows and their attributions (its
``requires``), so the scorers and the benchmark runner bind a metric's
arguments from its spec, never from its signature.
"""

from dataclasses import dataclass, field

__all__ = [
    "FAMILIES",
    "ROW_METADATA",
    "MetricSpec",
    "get_metric_spec",
    "metric_specs",
    "register_metric",
    "unregister_metric",
]

_KINDS = ("reference", "model", "attributions")

# What a metric measures (the docs, ``sklearn-xai list`` and the report group
# metrics by it).  A metric module is one family; a metric registered from
# elsewhere names its family or gets "other".
FAMILIES = (
    "faithfulness", "robustness", "localisation", "complexity", "axiomatic",
    "randomisation", "ground_truth", "fairness", "other",
)
_MODULE_FAMILY = {
    "_removal_paths": "faithfulness", "_removal_correlations": "faithfulness",
    "_retraining": "faithfulness", "_perturbation_gaps": "faithfulness",
    "_sensitivity": "robustness", "_stability": "robustness",
    "_fold_stability": "robustness",
    "_localisation": "localisation", "_complexity": "complexity",
    "_axiomatic": "axiomatic", "_randomisation": "randomisation",
    "_ground_truth": "ground_truth", "_shapley_reference": "ground_truth",
    "_fairness": "fairness",
}

# Per-row metadata: routed to a scorer (scikit-learn's metadata routing) and
# split per fold by model selection, never bound at construction.
ROW_METADATA = ("ground_truth", "sensitive")

# What a caller supplies besides the rows and their attributions, in a
# canonical order, and the parameters of the metric function each fills.
_BINDING_PARAMS = {
    "ground_truth": ("ground_truth",),
    "sensitive": ("sensitive",),
    "masker": ("masker", "perturber"),
    "distribution": ("distribution",),
    "explainer": ("explainer",),
    "training_rows": ("X_train", "y_train"),
    "training_data": ("X_train", "y_train", "attributions_train"),
    "reference": ("reference",),
    "image_shape": ("image_shape",),
    "random_state": ("random_state",),
    "classifier": (),  # binds nothing: the explained model must have classes
    "mask": (),  # binds nothing: the ground truth must be a 0/1 mask per row
}
_REQUIREMENTS = tuple(_BINDING_PARAMS)


@dataclass(frozen=True, init=False)
class MetricSpec:
    """Registry entry of one metric: everything needed to call it.

    Parameters
    ----------
    name : str
        Canonical scorer name (losses, and only losses, carry a ``neg_``
        prefix).
    func : callable
        The plain metric function.
    kind : {"reference", "model", "attributions"}
        Signature family: ``func(ground_truth, attributions, **kw)``,
        ``func(estimator, X, attributions, **kw)`` or ``func(attributions, **kw)``.
    greater_is_better : bool
        Orientation of ``func``'s values.
    per_instance : bool, default=True
        Whether ``func`` returns one score per row (else one float).
    requires : tuple of str, default=()
        What a caller supplies besides the rows and their attributions (kept
        in the order below):

        * ``"ground_truth"``, ``"sensitive"``: per-row metadata, routed to the
          scorer (:data:`ROW_METADATA`);
        * ``"masker"``: how features are removed or perturbed (the
          ``masker`` or ``perturber`` parameter), fitted on training rows;
        * ``"distribution"``: the data distribution (``distribution=``;
          needed unless a masker is given);
        * ``"explainer"``: the fitted explainer, which re-explains rows;
        * ``"training_rows"``: training rows ``X_train`` (noise scales,
          maskers), and their targets ``y_train`` where the metric takes
          them (the randomisation checks refit the explainer as it was fit);
        * ``"training_data"``: ``X_train``, ``y_train`` and the explainer's
          ``attributions_train`` (metrics that retrain the model, ROAR);
        * ``"reference"``: precomputed exact Shapley values (``reference=``),
          shared by the explainers of a benchmark cell;
        * ``"image_shape"``: the image shape of flattened maps;
        * ``"random_state"``: the seed of the metric's random draws;
        * ``"classifier"``: the model must be a classifier (the metric
          compares classes); binds nothing, and the benchmark skips the
          metric for regressors;
        * ``"mask"``: the ground truth must be a 0/1 mask per row (pixels
          or features that matter); binds nothing, and the benchmark skips
          the metric on datasets whose ground truth is continuous.
    source : str, default=""
        The benchmark or system the metric comes from (for the docs).
    description : str, default=""
        One line for the docs' metric table.
    default_kwargs : dict, default=None
        Keyword arguments the scorer passes unless overridden.
    family : str, default=None
        What the metric measures, one of :data:`FAMILIES` ("faithfulness",
        "robustness", "localisation", "complexity", "axiomatic",
        "randomisation", "ground_truth", "fairness", "other").  ``None``
        takes the family of the module defining ``func``
        (``metrics/_removal_paths.py`` is in the faithfulness family, ...),
        else "other".

    Attributes
    ----------
    metadata : tuple of str
        The per-row metadata among ``requires``.

    Examples
    --------
    >>> from sklearn_xai.metrics import get_metric_spec
    >>> spec = get_metric_spec("pgi")
    >>> spec.kind, spec.greater_is_better, spec.requires
    ('model', True, ('masker', 'training_rows', 'random_state'))
    >>> get_metric_spec("feature_agreement").metadata
    ('ground_truth',)
    """

    name: str
    func: object
    kind: str
    greater_is_better: bool
    per_instance: bool = True
    requires: tuple = ()
    source: str = ""
    description: str = ""
    default_kwargs: dict = field(default_factory=dict)
    family: str = "other"

    def __init__(self, name, func, kind, greater_is_better, per_instance=True,
                 requires=(), source="", description="", default_kwargs=None, *,
                 family=None):
        if isinstance(requires, str):
            requires = (requires,)
        values = {
            "name": name, "func": func, "kind": kind,
            "greater_is_better": greater_is_better, "per_instance": per_instance,
            "requires": tuple(requires), "source": source,
            "description": description,
            "default_kwargs": dict(default_kwargs or {}),
            "family": family if family is not None else _family_of(func),
        }
        for key, value in values.items():
            object.__setattr__(self, key, value)
        self.__post_init__()

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {self.kind!r}.")
        if self.family not in FAMILIES:
            raise ValueError(
                f"family must be one of {FAMILIES}, got {self.family!r}."
            )
        unknown = set(self.requires) - set(_REQUIREMENTS)
        if unknown:
            raise ValueError(
                f"Unknown requirements {sorted(unknown)}; valid: {_REQUIREMENTS}."
            )
        # One canonical order, so that specs compare and print alike.
        object.__setattr__(self, "requires",
                           tuple(r for r in _REQUIREMENTS if r in self.requires))
        if self.greater_is_better == self.name.startswith("neg_"):
            raise ValueError(
                f"Scorer name {self.name!r}: losses (greater_is_better=False) and only "
                "losses carry the 'neg_' prefix."
            )

    @property
    def metadata(self):
        """Per-row metadata this metric needs routed (subset of requires)."""
        return tuple(r for r in self.requires if r in ROW_METADATA)


def _family_of(func):
    """The family of the metric module defining ``func``, else "other"."""
    module = getattr(func, "__module__", "") or ""
    if module.startswith("sklearn_xai.metrics."):
        return _MODULE_FAMILY.get(module.rsplit(".", 1)[-1], "other")
    return "other"


@dataclass(frozen=True)
class _ScorerEntry:
    """A name that is not a metric: a ready scorer (registered by a user;
    :func:`get_scorer` hands out deep copies) or a factory called with the
    keyword arguments of :func:`get_scorer` (``neg_group_gap``)."""

    name: str
    scorer: object = None
    factory: object = None
    description: str = ""


# name -> MetricSpec or _ScorerEntry: every explanation scorer name.
_NAMES: dict = {}


def _same_function(a, b):
    """Whether two functions are the same definition (a module imported twice,
    e.g. by doctest collection, re-registers its metrics harmlessly)."""
    return (
        getattr(a, "__qualname__", None) == getattr(b, "__qualname__", None)
        and getattr(a, "__module__", "").rsplit(".", 1)[-1]
        == getattr(b, "__module__", "").rsplit(".", 1)[-1]
    )


def _callable_of(entry):
    if isinstance(entry, MetricSpec):
        return entry.func
    return entry.factory if entry.factory is not None else entry.scorer


def _add(name, entry, replace, message):
    """Put ``entry`` under ``name``; an existing name needs ``replace`` (or
    the same definition imported again)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"A scorer name must be a non-empty str, got {name!r}.")
    old = _NAMES.get(name)
    if old is not None and not replace and not (
            type(old) is type(entry)
            and _same_function(_callable_of(old), _callable_of(entry))):
        raise ValueError(message.format(name=name))
    _NAMES[name] = entry
    return entry


def register_metric(name, func, *, kind, greater_is_better, per_instance=True,
                    requires=(), source="", description="", default_kwargs=None,
                    family=None, replace=False):
    """Add a metric to the registry, which makes it a scorer name.

    Parameters
    ----------
    name : str
        Scorer name; losses (``greater_is_better=False``), and only losses,
        start with ``neg_``.
    func : callable
        The metric function, of the signature of its ``kind``.
    kind : {"reference", "model", "attributions"}
        ``func(ground_truth, attributions, **kw)``,
        ``func(estimator, X, attributions, **kw)`` or ``func(attributions, **kw)``.
    greater_is_better : bool
        Orientation of ``func``'s values.
    per_instance : bool, default=True
        Whether ``func`` returns one value per row.
    requires : tuple of str, default=()
        What a caller supplies besides the rows and their attributions (see
        :class:`MetricSpec`).
    source : str, default=""
        The benchmark or system the metric comes from.
    description : str, default=""
        One line for the docs' metric table.
    default_kwargs : dict, default=None
        Keyword arguments the scorer passes unless overridden.
    family : str, default=None
        What the metric measures (see :class:`MetricSpec`); ``None`` takes
        the family of the module defining ``func``, else "other".
    replace : bool, default=False
        Allow overwriting an existing name.

    Returns
    -------
    spec : MetricSpec

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import get_scorer, register_metric
    >>> def mean_magnitude(attributions):
    ...     return np.abs(np.asarray(attributions, dtype=float)).mean(axis=1)
    >>> spec = register_metric("neg_mean_magnitude", mean_magnitude,
    ...                        kind="attributions", greater_is_better=False,
    ...                        description="Mean attribution magnitude.")
    >>> get_scorer("neg_mean_magnitude").score_attributions(
    ...     None, [[0.0, 0.0]], [[1.0, -3.0]])
    array([2.])
    """
    spec = MetricSpec(
        name=name, func=func, kind=kind, greater_is_better=greater_is_better,
        per_instance=per_instance, requires=requires, source=source,
        description=description, default_kwargs=default_kwargs, family=family,
    )
    return _add(name, spec, replace,
                "A metric named {name!r} is already registered; pass replace=True "
                "to overwrite it.")


def unregister_metric(name):
    """Remove a scorer name from the registry.

    The name, registered with :func:`register_metric` or
    :func:`~sklearn_xai.metrics.register_scorer`, is unknown to
    :func:`~sklearn_xai.metrics.get_scorer` again and may be registered anew.
    Built-in names can be removed too; importing :mod:`sklearn_xai.metrics`
    in a new process restores them.

    Parameters
    ----------
    name : str
        A registered scorer name (see
        :func:`~sklearn_xai.metrics.get_scorer_names`).

    Returns
    -------
    entry : MetricSpec or object
        What was registered: the metric's :class:`MetricSpec`, else the
        scorer (or scorer factory) registered under ``name``.

    Raises
    ------
    ValueError
        If ``name`` is not registered.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import (get_scorer_names, register_metric,
    ...                                  unregister_metric)
    >>> def mean_magnitude(attributions):
    ...     return np.abs(np.asarray(attributions, dtype=float)).mean(axis=1)
    >>> _ = register_metric("neg_mean_magnitude", mean_magnitude,
    ...                     kind="attributions", greater_is_better=False)
    >>> unregister_metric("neg_mean_magnitude").func is mean_magnitude
    True
    >>> "neg_mean_magnitude" in get_scorer_names()
    False
    """
    entry = _NAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        raise ValueError(
            f"unregister_metric: {name!r} is not a registered scorer name; pass "
            "one of sklearn_xai.metrics.get_scorer_names()."
        )
    del _NAMES[name]
    if isinstance(entry, MetricSpec):
        return entry
    return entry.factory if entry.factory is not None else entry.scorer


def _register_scorer(name, *, scorer=None, factory=None, description="",
                     replace=False):
    """Register a ready scorer or a scorer factory under ``name``."""
    entry = _ScorerEntry(name=name, scorer=scorer, factory=factory,
                         description=description)
    return _add(name, entry, replace,
                "A scorer named {name!r} already exists; pass replace=True to "
                "overwrite it.")


def _entry(name):
    """The registry entry of ``name`` (MetricSpec or _ScorerEntry), or None."""
    return _NAMES.get(name)


def _scorer_names():
    """Every registered scorer name, sorted."""
    return sorted(_NAMES)


def get_metric_spec(name):
    """Registry entry of a metric by scorer name.

    Parameters
    ----------
    name : str
        A metric's scorer name (see :func:`metric_specs`).

    Returns
    -------
    spec : MetricSpec

    Examples
    --------
    >>> from sklearn_xai.metrics import get_metric_spec
    >>> get_metric_spec("neg_pgu").func.__name__
    'pgu'
    """
    spec = _NAMES.get(name)
    if not isinstance(spec, MetricSpec):
        metrics = sorted(k for k, v in _NAMES.items() if isinstance(v, MetricSpec))
        raise ValueError(
            f"{name!r} is not a registered explanation metric. Valid names: "
            f"{metrics} (see sklearn_xai.metrics.get_scorer_names())."
        )
    return spec


def metric_specs():
    """All metric entries, sorted by name.

    Returns
    -------
    specs : list of MetricSpec

    Examples
    --------
    >>> from sklearn_xai.metrics import metric_specs
    >>> "pgi" in [spec.name for spec in metric_specs()]
    True
    """
    return [v for _, v in sorted(_NAMES.items()) if isinstance(v, MetricSpec)]
