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
benchmark   the benchmark runner, reports and the ``sklearn-xai`` command
"""

__version__ = "0.1.0.dev0"

__all__ = [
    "__version__",
    "benchmark",
    "compose",
    "datasets",
    "distributions",
    "explainers",
    "masking",
    "metrics",
    "models",
    "utils",
]
