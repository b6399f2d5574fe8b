"""sklearn_xai: benchmark post-hoc feature-attribution explainers the
scikit-learn way.

Subpackages
-----------
datasets    generators with known ground truth and offline loaders
distributions  feature distributions with exact conditionals
explainers  fit/transform estimators returning attribution matrices
masking     how features are removed or perturbed
metrics     explanation metrics, scorers and the scorer-name registry
compose     ExplainedModel, the model + explainer meta-estimator
models      skorch networks used by the seed benchmarks
plotting    Display-style plots of attributions
benchmark   the benchmark runner, reports and the ``sklearn-xai`` command

``get_config``, ``set_config`` and ``config_context`` (the allocation limit,
``max_allocation_bytes``) are importable from the package itself, as in
scikit-learn.
"""

_CONFIG = ("config_context", "get_config", "set_config")


def __getattr__(name):
    # Imported on first use: ``import sklearn_xai`` stays free of heavy
    # imports (the CLI answers a mistyped preset before importing them).
    if name in _CONFIG:
        from sklearn_xai.utils import _config

        return getattr(_config, name)
    raise AttributeError(f"module 'sklearn_xai' has no attribute {name!r}")

__version__ = "0.1.0.dev0"

__all__ = [
    "__version__",
    "benchmark",
    "compose",
    "config_context",
    "datasets",
    "distributions",
    "explainers",
    "get_config",
    "masking",
    "metrics",
    "models",
    "plotting",
    "set_config",
    "utils",
]
