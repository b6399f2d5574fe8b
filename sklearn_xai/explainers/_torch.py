"""The gradient explainers' entry points to a differentiable model.

The mechanism (scikit-learn replicas, folded scalers, the explained output
as a torch module) lives in :mod:`sklearn_xai.utils._torch_model`, shared
with the explained output's device path; here are what the explainers add:
:func:`differentiable_model` and :func:`explained_module`, whose error names
the model-agnostic explainers, the summed output they differentiate
(:func:`summed_output`), and the public :func:`torch_replica`.
"""

from sklearn.base import is_classifier

from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.utils._estimators import unwrap
from sklearn_xai.utils._torch_model import explained_torch_module, torch_pieces

__all__ = [
    "differentiable_model",
    "explained_module",
    "summed_output",
    "torch_replica",
]


def differentiable_model(estimator, *, explainer="This explainer"):
    """The torch pieces of a fitted differentiable model.

    Parameters
    ----------
    estimator : fitted estimator
        A skorch net, a scikit-learn MLP or linear model (see
        :func:`torch_replica`), a ``FrozenEstimator`` of one, or a
        ``Pipeline`` of affine scalers ending in one.
    explainer : str, default="This explainer"
        Name used in the error message.

    Returns
    -------
    net : skorch.NeuralNet or SklearnReplica
        The fitted net whose ``module_`` is differentiated (a
        :class:`~sklearn_xai.utils._torch_model.SklearnReplica` for a
        scikit-learn model).
    scalers : list of (scale, offset, clip)
        The affine maps applied before the net, in order.

    Raises
    ------
    TypeError
        If the model is not differentiable; the message lists the
        model-agnostic explainers.

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from sklearn_xai.explainers import differentiable_model
    >>> try:
    ...     differentiable_model(RandomForestRegressor())
    ... except TypeError as exc:
    ...     print(str(exc)[:52])
    This explainer needs a differentiable torch model: a
    """
    return torch_pieces(estimator, explainer=explainer, hint=model_agnostic_hint)


def explained_module(estimator, output, *, explainer="This explainer"):
    """:func:`~sklearn_xai.utils._torch_model.explained_torch_module`, whose
    error for a model without a torch module names the model-agnostic
    explainers (the explainers' entry point)."""
    return explained_torch_module(estimator, output, explainer=explainer,
                                  hint=model_agnostic_hint)


def summed_output(model, target):
    """Forward function returning the sum of the explained outputs, shape (1,).

    Rows are independent (evaluation mode), so the gradient of the sum is the
    per-row gradient of each row's own output.  Captum differentiates a
    per-row output vector one element at a time (``torch.unbind``), which
    costs ~50 µs of Python per row; one scalar per call removes that.
    ``target`` is tiled when Captum stacks several copies of the rows
    (integrated gradients: one block per step).
    """
    def forward(X):
        out = model(X)
        reps = out.shape[0] // len(target)
        index = target.repeat(reps) if reps > 1 else target
        return out.gather(1, index[:, None]).sum().reshape(1)

    return forward


def torch_replica(estimator, *, output="auto"):
    """An exact float64 torch replica of a fitted scikit-learn model.

    The weights of an :class:`~sklearn.neural_network.MLPClassifier` /
    :class:`~sklearn.neural_network.MLPRegressor` (any activation) or of a
    linear model (:data:`~sklearn_xai.utils._torch_model.SKLEARN_LINEAR_REGRESSORS`,
    :data:`~sklearn_xai.utils._torch_model.SKLEARN_LINEAR_CLASSIFIERS`) are copied into ``torch.nn.Linear``
    layers with ``torch.nn.ReLU`` / ``Tanh`` / ``Sigmoid`` modules between
    them; the affine scalers of a Pipeline in front of it are folded in as
    element-wise layers.  Every gradient explainer differentiates this
    module, so they apply to these scikit-learn models as to skorch nets.

    Parameters
    ----------
    estimator : fitted estimator
        The model, a ``FrozenEstimator`` of it, or a Pipeline of affine
        scalers ending in it (skorch nets are accepted too).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
        What the module returns: ``predict_proba`` (``"auto"`` for
        classifiers that have it), the decision scores (``"auto"`` for the
        other classifiers; two columns ``(-z, z)`` for a one-column
        ``decision_function`` ``z``, else ``decision_function``), or
        ``predict`` of a regressor (one column; ``"auto"`` for regressors).

    Returns
    -------
    module : torch.nn.Module
        Maps float64 rows of shape ``(n, n_features)`` to ``(n, n_outputs)``,
        in evaluation mode.

    Raises
    ------
    TypeError
        For other models, multi-output / multilabel models, and
        ``output="proba"`` for a classifier with no exact torch
        ``predict_proba`` (e.g. ``SGDClassifier(loss="modified_huber")``).

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from sklearn.neural_network import MLPClassifier
    >>> from sklearn_xai.explainers import torch_replica
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> y = (X[:, 0] > 0).astype(int)
    >>> mlp = MLPClassifier((5,), max_iter=50, random_state=0).fit(X, y)
    >>> module = torch_replica(mlp)
    >>> P = module(torch.as_tensor(X)).detach().numpy()
    >>> bool(np.allclose(P, mlp.predict_proba(X), rtol=0, atol=1e-12))
    True
    """
    if output not in ("auto", "proba", "decision", "predict"):
        raise ValueError(
            "output must be 'auto', 'proba', 'decision' or 'predict'; got "
            f"{output!r}."
        )
    if output == "auto":
        _, final = unwrap(estimator)
        if not is_classifier(final):
            output = "predict"
        else:
            output = "proba" if hasattr(estimator, "predict_proba") else "decision"
    model, _, _ = explained_module(estimator, output, explainer="torch_replica")
    return model.eval()
