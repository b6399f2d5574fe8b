"""Neural networks of the seed benchmarks as scikit-learn estimators (skorch).

Torch modules (``OpenXAIANN``, ``LogisticNet``, ``BEExAIMLP``,
``TetrominoMLP``, ``TetrominoCNN``) return logits; the estimators wrap them in
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
"""

from sklearn_xai.models._estimators import (
    BEExAIMLPClassifier,
    BEExAIMLPRegressor,
    LogisticNetClassifier,
    MLPNetClassifier,
    TetrominoNetClassifier,
)
from sklearn_xai.models._modules import (
    BEExAIMLP,
    LogisticNet,
    OpenXAIANN,
    TetrominoCNN,
    TetrominoMLP,
    cnn_flatten_size,
)
from sklearn_xai.models._randomise import randomise_model, randomised_layers
from sklearn_xai.models._units import UNITS, HandWeightedModel, unit_module

__all__ = [
    "BEExAIMLP",
    "BEExAIMLPClassifier",
    "BEExAIMLPRegressor",
    "HandWeightedModel",
    "LogisticNet",
    "LogisticNetClassifier",
    "MLPNetClassifier",
    "OpenXAIANN",
    "TetrominoCNN",
    "TetrominoMLP",
    "TetrominoNetClassifier",
    "UNITS",
    "cnn_flatten_size",
    "randomise_model",
    "randomised_layers",
    "unit_module",
]
