"""The metric registry: one entry per metric, the single source of truth for
scorer names, orientation, requirements and the docs' metric table.

Metric modules register their functions at import time with
:func:`register_metric`; :mod:`sklearn_xai.metrics._scorer` builds scorers
from the entries.
"""

from dataclasses import dataclass, field

__all__ = ["MetricSpec", "register_metric", "get_metric_spec", "metric_specs"]

_KINDS = ("reference", "model", "attributions")
_REQUIREMENTS = ("ground_truth", "sensitive", "masker", "distribution", "explainer")


@dataclass(frozen=True)
class MetricSpec:
    """Registry entry of one metric.

    Parameters
    ----------
    name : str
        Canonical scorer name (losses carry a ``neg_`` prefix).
    func : callable
        The plain metric function.
    kind : {"reference", "model", "attributions"}
        Signature family: ``func(ground_truth, attributions, **kw)``,
        ``func(estimator, X, attributions, **kw)`` or ``func(attributions, **kw)``.
    greater_is_better : bool
        Orientation of ``func``'s values.
    per_instance : bool
        Whether ``func`` returns one score per row (else one float).
    requires : tuple of str
        Per-row metadata routed to the scorer (``"ground_truth"``,
        ``"sensitive"``) and objects bound at construction (``"masker"``,
        ``"distribution"``, ``"explainer"``).
    seed : str
        The system the metric comes from (for the docs).
    description : str
        One line for the docs' metric table.
    default_kwargs : dict
        Keyword arguments the scorer passes unless overridden.
    """

    name: str
    func: object
    kind: str
    greater_is_better: bool
    per_instance: bool = True
    requires: tuple = ()
    seed: str = ""
    description: str = ""
    default_kwargs: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}, got {self.kind!r}.")
        unknown = set(self.requires) - set(_REQUIREMENTS)
        if unknown:
            raise ValueError(
                f"Unknown requirements {sorted(unknown)}; valid: {_REQUIREMENTS}."
            )
        if self.greater_is_better == self.name.startswith("neg_"):
            raise ValueError(
                f"Scorer name {self.name!r}: losses (greater_is_better=False) and only "
                "losses carry the 'neg_' prefix."
            )

    @property
    def metadata(self):
        """Per-row metadata this metric needs routed (subset of requires)."""
        return tuple(r for r in self.requires if r in ("ground_truth", "sensitive"))


_METRICS: dict = {}


def _same_function(a, b):
    """Whether two functions are the same definition (a module imported twice,
    e.g. by doctest collection, re-registers its metrics harmlessly)."""
    return (
        getattr(a, "__qualname__", None) == getattr(b, "__qualname__", None)
        and getattr(a, "__module__", "").rsplit(".", 1)[-1]
        == getattr(b, "__module__", "").rsplit(".", 1)[-1]
    )


def register_metric(name, func, *, kind, greater_is_better, per_instance=True,
                    requires=(), seed="", description="", default_kwargs=None,
                    replace=False):
    """Add a metric to the registry.

    Parameters
    ----------
    name, func, kind, greater_is_better, per_instance, requires, seed, description, default_kwargs
        See :class:`MetricSpec`.
    replace : bool, default=False
        Allow overwriting an existing name.

    Returns
    -------
    spec : MetricSpec
    """
    if name in _METRICS and not replace and not _same_function(_METRICS[name].func, func):
        raise ValueError(
            f"A metric named {name!r} is already registered; pass replace=True to "
            "overwrite it."
        )
    spec = MetricSpec(
        name=name, func=func, kind=kind, greater_is_better=greater_is_better,
        per_instance=per_instance, requires=tuple(requires), seed=seed,
        description=description, default_kwargs=dict(default_kwargs or {}),
    )
    _METRICS[name] = spec
    return spec


def get_metric_spec(name):
    """Registry entry of a metric by scorer name."""
    try:
        return _METRICS[name]
    except KeyError:
        raise ValueError(
            f"{name!r} is not a registered explanation metric. Valid names: "
            f"{sorted(_METRICS)} (see sklearn_xai.metrics.get_scorer_names())."
        ) from None


def metric_specs():
    """All registry entries, sorted by name."""
    return [_METRICS[k] for k in sorted(_METRICS)]
