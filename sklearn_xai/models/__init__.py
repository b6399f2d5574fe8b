"""Neural networks of the seed benchmarks as scikit-learn estimators (skorch).

Torch modules (``OpenXAIANN``, ``LogisticNet``, ``BEExAIMLP``,
``TetrominoMLP``, ``TetrominoCNN``, ``SmallResNet``, ``SmallViT``,
``TimeSeriesCNN``, ``TimeSeriesGRU``)
return logits; the estimators wrap them in
:class:`skorch.NeuralNetClassifier` / :class:`skorch.NeuralNetRegressor`
subclasses that accept float64 input, arbitrary class labels and a
``random_state``, and stop early on a validation split.  Gradient explainers
(:mod:`sklearn_xai.explainers`) differentiate through their ``module_``.

:class:`HandWeightedModel` holds the hand-weighted networks of the
known-behaviour units (:data:`UNITS`), whose correct attributions are known
by construction.

:func:`randomise_model` re-initialises the layers of a copy of a fitted
model (torch and skorch nets, scikit-learn MLPs, linear models and tree
ensembles) for the randomisation sanity checks of
:mod:`sklearn_xai.metrics`; :func:`randomised_layers` names those layers.

Names are imported on first access (PEP 562): :func:`randomise_model` on a
scikit-learn model imports neither torch nor skorch.
"""

import importlib

#: Public name -> the private module defining it.
_SUBMODULE = {
    "BEExAIMLPClassifier": "_estimators",
    "BEExAIMLPRegressor": "_estimators",
    "LogisticNetClassifier": "_estimators",
    "MLPNetClassifier": "_estimators",
    "TetrominoNetClassifier": "_estimators",
    "BEExAIMLP": "_modules",
    "LogisticNet": "_modules",
    "OpenXAIANN": "_modules",
    "TetrominoCNN": "_modules",
    "TetrominoMLP": "_modules",
    "cnn_flatten_size": "_modules",
    "SmallResNet": "_vision",
    "SmallViT": "_vision",
    "TimeSeriesCNN": "_timeseries",
    "TimeSeriesCNNClassifier": "_timeseries",
    "TimeSeriesGRU": "_timeseries",
    "TimeSeriesGRUClassifier": "_timeseries",
    "WindowFeatures": "_timeseries",
    "TextCNN": "_text",
    "TextNetClassifier": "_text",
    "TinyTransformer": "_text",
    "TokenIdClassifier": "_text",
    "load_beexai_model": "_released",
    "load_openxai_model": "_released",
    "openxai_checkpoint_name": "_released",
    "read_beexai_state": "_released",
    "read_openxai_state": "_released",
    "randomise_model": "_randomise",
    "randomised_layers": "_randomise",
    "UNITS": "_units",
    "HandWeightedModel": "_units",
    "unit_module": "_units",
}


def __getattr__(name):
    module = _SUBMODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later accesses skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "BEExAIMLP",
    "BEExAIMLPClassifier",
    "BEExAIMLPRegressor",
    "HandWeightedModel",
    "LogisticNet",
    "LogisticNetClassifier",
    "MLPNetClassifier",
    "OpenXAIANN",
    "SmallResNet",
    "SmallViT",
    "TetrominoCNN",
    "TetrominoMLP",
    "TetrominoNetClassifier",
    "TimeSeriesCNN",
    "TimeSeriesCNNClassifier",
    "TimeSeriesGRU",
    "TimeSeriesGRUClassifier",
    "TextCNN",
    "TextNetClassifier",
    "TinyTransformer",
    "TokenIdClassifier",
    "UNITS",
    "WindowFeatures",
    "cnn_flatten_size",
    "load_beexai_model",
    "load_openxai_model",
    "openxai_checkpoint_name",
    "randomise_model",
    "read_beexai_state",
    "read_openxai_state",
    "randomised_layers",
    "unit_module",
]
