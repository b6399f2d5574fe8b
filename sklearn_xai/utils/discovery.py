"""Discovery of the package's public explainers, maskers and metrics."""

import inspect

__all__ = ["all_explainers", "all_maskers", "all_metrics"]


def _public_classes(module, base):
    return sorted(
        (name, obj)
        for name, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, base) and not inspect.isabstract(obj) and name in module.__all__
    )


def all_explainers():
    """All public explainer classes.

    Returns
    -------
    explainers : list of (name, class) tuples, sorted by name
    """
    from sklearn_xai import explainers
    from sklearn_xai.base import BaseExplainer

    return _public_classes(explainers, BaseExplainer)


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
