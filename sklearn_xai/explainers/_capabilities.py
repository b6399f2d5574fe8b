"""Which explainers work with which models, for the errors of model-specific ones.

A gradient explainer given a random forest, or TreeContributions given a
linear model, says which explainers would work.  The list is read from the
explainers' tags (:class:`~sklearn_xai.base.ExplainerTags`), so it names
every model-agnostic explainer of the installed package, new ones included.
"""

import inspect

from sklearn_xai.base import get_explainer_tags, is_explainer

__all__ = ["model_agnostic_explainers", "model_agnostic_hint"]


def model_agnostic_explainers():
    """Names of the public explainers that explain any model, sorted.

    The same list as ``all_explainers(model_agnostic=True)`` of
    :mod:`sklearn_xai.utils.discovery` (which this layer may not import).
    """
    from sklearn_xai import explainers

    names = []
    for name in explainers.__all__:
        obj = getattr(explainers, name)
        if (inspect.isclass(obj) and is_explainer(obj) and not inspect.isabstract(obj)
                and get_explainer_tags(obj).model_agnostic):
            names.append(name)
    return sorted(names)


def model_agnostic_hint():
    """The sentence model-specific explainers end their TypeError with."""
    return ("Model-agnostic explainers work with any model: "
            f"{', '.join(model_agnostic_explainers())}.")
