"""Discovery of the package's public explainers, maskers and metrics."""

import inspect

__all__ = ["all_explainers", "all_maskers", "all_metrics"]


def _public_classes(module, base):
    # Through ``__all__`` (not ``inspect.getmembers``): a package that imports
    # its names on first access (``sklearn_xai.explainers``) lists them all.
    members = ((name, getattr(module, name)) for name in module.__all__)
    return sorted(
        (name, obj) for name, obj in members
        if inspect.isclass(obj) and issubclass(obj, base) and not inspect.isabstract(obj)
    )


def all_explainers(**tags):
    """All public explainer classes, optionally those with given tags.

    Parameters
    ----------
    **tags : bool
        Keep the explainers whose :class:`~sklearn_xai.base.ExplainerTags`
        have these values, e.g. ``model_agnostic=True`` (explain any model
        through its outputs), ``differentiable=True`` (need a torch model),
        ``stochastic=True`` or ``requires_estimator=False`` (model-ignorant
        controls).  A class is described by its default-constructed instance:
        a tag that depends on the parameters (a masker-based explainer is
        stochastic when its masker is) takes its default value.

    Returns
    -------
    explainers : list of (name, class) tuples, sorted by name

    Examples
    --------
    >>> from sklearn_xai.utils.discovery import all_explainers
    >>> names = [name for name, _ in all_explainers(differentiable=True)]
    >>> "IntegratedGradients" in names, "KernelSHAP" in names
    (True, False)
    """
    import dataclasses

    from sklearn_xai import explainers
    from sklearn_xai.base import BaseExplainer, ExplainerTags, get_explainer_tags

    known = {field.name for field in dataclasses.fields(ExplainerTags)}
    unknown = sorted(set(tags) - known)
    if unknown:
        raise ValueError(
            f"Unknown explainer tag(s) {unknown}; filter by any of {sorted(known)}."
        )
    found = _public_classes(explainers, BaseExplainer)
    if not tags:
        return found
    return [(name, cls) for name, cls in found
            if all(getattr(get_explainer_tags(cls), tag) == value
                   for tag, value in tags.items())]


def all_maskers():
    """All public masker classes.

    Returns
    -------
    maskers : list of (name, class) tuples, sorted by name
    """
    from sklearn_xai import masking
    from sklearn_xai.masking import BaseMasker

    return _public_classes(masking, BaseMasker)


def all_metrics():
    """All registered metrics.

    Returns
    -------
    metrics : list of MetricSpec, sorted by name
    """
    from sklearn_xai.metrics import metric_specs

    return metric_specs()
