"""Which components this installation provides.

The smoke presets (``default``, ``xaibench_small``) use the explainers and
metrics that are available and leave the others out, never faking them.
"""

MEAN_MASKER = {"name": "BaselineMasker", "params": {"value": "mean"}}


def available_explainers():
    """Names of the explainers of this installation.

    Read from ``sklearn_xai.explainers.__all__`` without importing the
    explainers (the gradient explainers import torch and captum), so that a
    preset is built, and a cached run answered, without those imports.
    """
    from sklearn_xai import explainers

    return set(explainers.__all__) - {"differentiable_model", "torch_replica"}


def available_metrics():
    """Scorer names of this installation."""
    from sklearn_xai.metrics import get_scorer_names

    return set(get_scorer_names())


def available_maskers():
    """Public names of :mod:`sklearn_xai.masking`."""
    from sklearn_xai import masking

    return set(masking.__all__)


def pick(candidates, available):
    """The candidates (label -> spec) whose component is available."""
    return {label: spec for label, spec in candidates.items()
            if (spec if isinstance(spec, str) else spec["name"]) in available}
