"""Neural networks of the seed benchmarks as scikit-learn estimators (skorch).

Torch modules (``OpenXAIANN``, ``LogisticNet``, ``BEExAIMLP``,
``TetrominoMLP``, ``TetrominoCNN``) return logits; the estimators wrap them in
:class:`skorch.NeuralNetClassifier` / :class:`skorch.NeuralNetRegressor`
subclasses that accept float64 input, arbitrary class labels and a
``random_state``, and stop early on a validation split.  Gradient explainers
(:mod:`sklearn_xai.explainers`) differentiate through their ``module_``.
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

__all__ = [
    "BEExAIMLP",
    "BEExAIMLPClassifier",
    "BEExAIMLPRegressor",
    "LogisticNet",
    "LogisticNetClassifier",
    "MLPNetClassifier",
    "OpenXAIANN",
    "TetrominoCNN",
    "TetrominoMLP",
    "TetrominoNetClassifier",
    "cnn_flatten_size",
]
