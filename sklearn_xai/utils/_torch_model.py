"""From a fitted estimator to the torch function of its explained output.

What is a torch model here (:func:`torch_pieces`):

* a skorch net (its ``module_``), e.g. the estimators of
  :mod:`sklearn_xai.models`;
* a fitted scikit-learn MLP (:class:`~sklearn.neural_network.MLPClassifier`,
  :class:`~sklearn.neural_network.MLPRegressor`, every activation) or linear
  model (``LinearRegression``, ``Ridge``, ``Lasso``, ``LogisticRegression``
  binary and multinomial, ``SGDClassifier``, ``LinearSVC``, ... see
  :data:`SKLEARN_LINEAR_REGRESSORS` and :data:`SKLEARN_LINEAR_CLASSIFIERS`):
  it is replaced by an exact float64 torch replica of itself (weights
  copied, outputs equal to ``predict_proba`` / ``decision_function`` /
  ``predict``);
* a :class:`~sklearn.frozen.FrozenEstimator` of one;
* a :class:`~sklearn.pipeline.Pipeline` whose last step is one of the above
  and whose earlier steps are affine scalers (``StandardScaler``,
  ``MinMaxScaler``, ``MaxAbsScaler``, ``RobustScaler``): they are folded in
  as an element-wise affine torch layer, so the function (and its gradient)
  is one of the *raw* input columns.

Anything else raises a :class:`~sklearn_xai.utils.NotApplicableError`.
:func:`explained_torch_module` then builds the torch module mapping raw rows
to the explained outputs (one column per class), the same scalar every
explainer and metric explains (see :ref:`def-explained-output`).  It lives
in utils because both sides use it: the gradient explainers differentiate
it (``sklearn_xai/explainers/_torch.py`` adds their public entry points),
and :class:`~sklearn_xai.utils.ExplainedOutput` evaluates it on the model's
device for the maskers and metrics (``utils/_output.py``).
"""

import numpy as np
import torch
from sklearn import linear_model
from sklearn.base import is_classifier
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.preprocessing import (
    MaxAbsScaler,
    MinMaxScaler,
    RobustScaler,
    StandardScaler,
)
from sklearn.svm import LinearSVC, LinearSVR
from torch import nn

from sklearn_xai.utils._exceptions import NotApplicableError
from sklearn_xai.utils._estimators import unwrap

__all__ = [
    "AFFINE_SCALERS",
    "Affine",
    "ExplainedModule",
    "SKLEARN_LINEAR_CLASSIFIERS",
    "SKLEARN_LINEAR_REGRESSORS",
    "SklearnReplica",
    "explained_torch_module",
    "has_torch_replica",
    "is_torch_net",
    "predict_nonlinearity",
    "scaler_layer",
    "torch_pieces",
]

AFFINE_SCALERS = (StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler)


def _classes(module, names):
    """The classes of ``module`` among ``names`` that this scikit-learn has
    (looked up by name, so a class removed in a later release is skipped)."""
    return tuple(getattr(module, name) for name in names if hasattr(module, name))


#: scikit-learn regressors whose ``predict`` is ``X @ coef_.T + intercept_``.
SKLEARN_LINEAR_REGRESSORS = (
    *_classes(linear_model, (
        "LinearRegression", "Ridge", "RidgeCV", "Lasso", "LassoCV", "ElasticNet",
        "ElasticNetCV", "Lars", "LarsCV", "LassoLars", "LassoLarsCV", "LassoLarsIC",
        "OrthogonalMatchingPursuit", "OrthogonalMatchingPursuitCV", "BayesianRidge",
        "ARDRegression", "HuberRegressor", "QuantileRegressor", "SGDRegressor",
        "TheilSenRegressor")),
    LinearSVR,
)
#: scikit-learn classifiers whose ``decision_function`` is
#: ``X @ coef_.T + intercept_`` (one column for two classes).
SKLEARN_LINEAR_CLASSIFIERS = (
    *_classes(linear_model, (
        "LogisticRegression", "LogisticRegressionCV", "SGDClassifier",
        "RidgeClassifier", "RidgeClassifierCV", "Perceptron")),
    LinearSVC,
)
_MLP_ACTIVATIONS = {"identity": None, "logistic": nn.Sigmoid, "tanh": nn.Tanh,
                    "relu": nn.ReLU}


def is_torch_net(estimator):
    """Whether ``estimator`` is a fitted torch net (has a ``torch.nn.Module``
    ``module_``, as skorch nets do)."""
    return isinstance(getattr(estimator, "module_", None), nn.Module)


class Affine(nn.Module):
    """``x * scale + offset`` (then optionally clipped): a fitted scaler."""

    def __init__(self, scale, offset, clip=None):
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale))
        self.register_buffer("offset", torch.as_tensor(offset))
        self.clip = clip

    def forward(self, X):
        Z = X * self.scale + self.offset
        if self.clip is not None:
            Z = torch.clamp(Z, *self.clip)
        return Z


def scaler_layer(scaler, n_features):
    """The affine map of a fitted scaler as ``(scale, offset, clip)`` arrays."""
    scale = np.ones(n_features)
    offset = np.zeros(n_features)
    clip = None
    if isinstance(scaler, StandardScaler):
        if scaler.scale_ is not None:
            scale = 1.0 / scaler.scale_
        if scaler.mean_ is not None and scaler.with_mean:
            offset = -scaler.mean_ * scale
    elif isinstance(scaler, RobustScaler):
        if scaler.scale_ is not None:
            scale = 1.0 / scaler.scale_
        if scaler.center_ is not None:
            offset = -scaler.center_ * scale
    elif isinstance(scaler, MaxAbsScaler):
        scale = 1.0 / scaler.scale_
    else:  # MinMaxScaler
        scale, offset = scaler.scale_, scaler.min_
        if scaler.clip:
            clip = tuple(float(v) for v in scaler.feature_range)
    return np.asarray(scale, dtype=np.float64), np.asarray(offset, dtype=np.float64), clip


def _not_differentiable(estimator, explainer, reason, hint=None):
    """The error for a model that is no torch model; ``hint()``, when given,
    returns a sentence appended to it (the explainers name the
    model-agnostic explainers)."""
    return NotApplicableError(
        f"{explainer} needs a differentiable torch model: a skorch net (e.g. "
        "sklearn_xai.models.MLPNetClassifier), a scikit-learn MLPClassifier / "
        "MLPRegressor or linear model (replicated in torch), a FrozenEstimator "
        "of one, or a Pipeline of affine scalers (StandardScaler, MinMaxScaler, "
        "MaxAbsScaler, RobustScaler) ending in one; got "
        f"{type(estimator).__name__} ({reason})."
        + ("" if hint is None else f" {hint()}")
    )


def _float64_linear(W, b):
    """A float64 ``torch.nn.Linear`` computing ``x @ W.T + b``."""
    W = np.asarray(W, dtype=np.float64)
    layer = nn.Linear(W.shape[1], W.shape[0], dtype=torch.float64)
    with torch.no_grad():
        layer.weight.copy_(torch.as_tensor(W))
        layer.bias.copy_(torch.as_tensor(np.array(np.broadcast_to(
            np.asarray(b, dtype=np.float64), (W.shape[0],)))))
    return layer


def _binary_logits(W, b):
    """Two output rows ``(0, z)`` for a one-score binary model: the softmax of
    ``(0, z)`` is ``(1 - sigmoid(z), sigmoid(z))`` and the decision
    difference ``z - 0`` is the one-column ``decision_function``."""
    W = np.asarray(W, dtype=np.float64).reshape(1, -1)
    b = np.asarray(b, dtype=np.float64).reshape(-1)[:1]
    return np.vstack([np.zeros_like(W), W]), np.concatenate([[0.0], b])


def _ovr_normalised(logits):
    """scikit-learn's one-vs-rest probabilities: sigmoids divided by their sum."""
    p = torch.sigmoid(logits)
    return p / p.sum(dim=-1, keepdim=True)


class _Exp(nn.Module):
    """``exp``: the output activation of ``MLPRegressor(loss="poisson")``."""

    def forward(self, X):
        return torch.exp(X)


class SklearnReplica:
    """A fitted scikit-learn model seen as a torch net (its exact replica).

    It has what the gradient explainers read from a skorch net: ``module_``
    (a float64 ``torch.nn.Sequential`` of ``Linear`` layers and activation
    modules, returning one score per class: the logits, ``(0, z)`` for a
    one-score binary model, or the prediction of a regressor) and
    ``predict_nonlinearity`` (scores to ``predict_proba``; ``None`` when the
    model has no exact torch ``predict_proba``).

    Parameters
    ----------
    estimator : fitted estimator
        The scikit-learn model replicated.
    module : torch.nn.Module
    predict_nonlinearity : callable or None
    """

    def __init__(self, estimator, module, predict_nonlinearity):
        self.estimator = estimator
        self.module_ = module
        self.predict_nonlinearity = predict_nonlinearity

    def __repr__(self):
        return f"SklearnReplica({type(self.estimator).__name__})"


def has_torch_replica(estimator):
    """Whether the (final) model ``estimator`` has an exact torch replica.

    Parameters
    ----------
    estimator : estimator
        A scikit-learn model (not a Pipeline nor a FrozenEstimator).

    Returns
    -------
    bool
    """
    return isinstance(estimator, (MLPClassifier, MLPRegressor,
                                  *SKLEARN_LINEAR_REGRESSORS,
                                  *SKLEARN_LINEAR_CLASSIFIERS))


def _replicate(model, explainer="This explainer", hint=None):
    """The :class:`SklearnReplica` of a fitted scikit-learn MLP or linear model."""
    def fail(reason):
        return _not_differentiable(model, explainer, reason, hint)

    if not hasattr(model, "coef_") and not hasattr(model, "coefs_"):
        raise fail(f"{type(model).__name__} is not fitted")
    if isinstance(model, (MLPClassifier, MLPRegressor)):
        coefs = [np.asarray(W, dtype=np.float64).T for W in model.coefs_]
        intercepts = [np.asarray(b, dtype=np.float64) for b in model.intercepts_]
        hidden = _MLP_ACTIVATIONS[model.activation]
        out = model.out_activation_
        if isinstance(model, MLPClassifier) and out == "logistic" and model.n_outputs_ > 1:
            raise fail("a multilabel MLPClassifier explains several labels at "
                       "once; gradient explainers explain one output per row")
        if isinstance(model, MLPRegressor) and model.n_outputs_ > 1:
            raise fail("a multi-output MLPRegressor has several outputs per row")
        if out == "logistic":  # binary classifier: one score z
            coefs[-1], intercepts[-1] = _binary_logits(coefs[-1], intercepts[-1])
        layers = []
        for i, (W, b) in enumerate(zip(coefs, intercepts)):
            layers.append(_float64_linear(W, b))
            if i < len(coefs) - 1 and hidden is not None:
                layers.append(hidden())
        if out == "exp":  # MLPRegressor(loss="poisson")
            layers.append(_Exp())
        proba = _softmax if isinstance(model, MLPClassifier) else None
        return SklearnReplica(model, nn.Sequential(*layers), proba)
    W = np.asarray(model.coef_, dtype=np.float64)
    b = np.asarray(model.intercept_, dtype=np.float64)
    if isinstance(model, SKLEARN_LINEAR_REGRESSORS):
        if W.ndim == 2 and W.shape[0] > 1:
            raise fail(f"a multi-output {type(model).__name__} has several "
                       "outputs per row")
        W = W.reshape(1, -1)
        return SklearnReplica(model, nn.Sequential(_float64_linear(W, b.reshape(-1)[:1])),
                              None)
    W = W.reshape(-1, W.shape[-1])
    binary = W.shape[0] == 1
    if binary:
        W, b = _binary_logits(W, b)
    proba = None
    name = type(model).__name__
    if name in ("LogisticRegression", "LogisticRegressionCV"):
        # Binary: sigmoid (the softmax of (0, z)); more classes: multinomial.
        proba = _softmax
    elif name == "SGDClassifier" and model.loss == "log_loss":
        # scikit-learn's one-vs-rest probabilities (sigmoid when binary).
        proba = _softmax if binary else _ovr_normalised
    return SklearnReplica(model, nn.Sequential(_float64_linear(W, b)), proba)


def torch_pieces(estimator, *, explainer="This explainer", hint=None):
    """The torch pieces of a fitted torch model (see the module docstring).

    Parameters
    ----------
    estimator : fitted estimator
        A skorch net, a scikit-learn MLP or linear model (replicated), a
        ``FrozenEstimator`` of one, or a ``Pipeline`` of affine scalers
        ending in one.
    explainer : str, default="This explainer"
        Name used in the error message.
    hint : callable or None, default=None
        Returns a sentence appended to the error message.

    Returns
    -------
    net : skorch.NeuralNet or SklearnReplica
        The fitted net whose ``module_`` computes the output (a
        :class:`SklearnReplica` for a scikit-learn model).
    scalers : list of (scale, offset, clip)
        The affine maps applied before the net, in order.

    Raises
    ------
    NotApplicableError
        If the model is none of these.
    """
    scalers = []
    steps, final = unwrap(estimator)
    for name, step in steps or ():
        if not isinstance(step, AFFINE_SCALERS):
            raise _not_differentiable(
                estimator, explainer,
                f"pipeline step {name!r} is a {type(step).__name__}, not an "
                "affine scaler", hint,
            )
        scalers.append(scaler_layer(step, step.n_features_in_))
    if has_torch_replica(final):
        return _replicate(final, explainer, hint), scalers
    if not is_torch_net(final):
        raise _not_differentiable(
            estimator, explainer,
            f"{type(final).__name__} has no torch module_", hint,
        )
    return final, scalers


class ExplainedModule(nn.Module):
    """Raw input → scalers → net module → explained outputs (one per class)."""

    def __init__(self, scalers, module, nonlinearity, mode, dtype):
        super().__init__()
        # No empty container: Captum's LRP would take it for a rule-less layer.
        self.scalers = nn.Sequential(*[
            Affine(torch.as_tensor(s, dtype=dtype), torch.as_tensor(o, dtype=dtype), c)
            for s, o, c in scalers
        ]) if scalers else None
        self.module = module
        self.nonlinearity = nonlinearity
        self.mode = mode

    def forward(self, X):
        X = X.reshape(X.shape[0], -1)
        if self.scalers is not None:
            X = self.scalers(X)
        out = self.module(X)
        out = out[0] if isinstance(out, tuple) else out
        if self.mode == "decision":
            out = out.reshape(out.shape[0], -1)
            if out.shape[1] == 2:  # decision_function: z1 - z0 for classes_[1]
                diff = out[:, 1:] - out[:, :1]
                out = torch.cat([-diff, diff], dim=1)
            return out
        out = self.nonlinearity(out)
        return out.reshape(out.shape[0], -1)


def _identity(out):
    return out


def _softmax(out):
    return torch.softmax(out, dim=-1)


def _two_columns(proba):
    """``(1 - p, p)`` for a binary net with one probability column."""
    return torch.stack((1 - proba, proba), 1)


def _sigmoid_two_columns(logits):
    return _two_columns(torch.sigmoid(logits))


def predict_nonlinearity(net):
    """The function a skorch net's ``predict_proba`` applies to the module output.

    skorch's public ``predict_nonlinearity`` parameter, resolved as its
    documentation says: a callable is used as is, ``None`` is the identity,
    and ``"auto"`` follows the fitted criterion (``criterion_``): the
    softmax for :class:`torch.nn.CrossEntropyLoss`, the sigmoid (as two
    columns ``1 - p, p``) for :class:`torch.nn.BCEWithLogitsLoss`, two
    columns for :class:`torch.nn.BCELoss`, the identity otherwise.

    Parameters
    ----------
    net : skorch.NeuralNet
        A fitted net.

    Returns
    -------
    nonlinearity : callable
        Maps a tensor of module outputs to the tensor ``predict_proba``
        returns.

    Raises
    ------
    TypeError
        If ``predict_nonlinearity`` is neither ``"auto"``, ``None`` nor a
        callable.
    """
    nonlinearity = getattr(net, "predict_nonlinearity", "auto")
    if nonlinearity is None:
        return _identity
    if isinstance(nonlinearity, str) and nonlinearity == "auto":
        criterion = getattr(net, "criterion_", None)
        # A compiled criterion (torch.compile) wraps the module in _orig_mod.
        criterion = getattr(criterion, "_orig_mod", criterion)
        if isinstance(criterion, nn.CrossEntropyLoss):
            return _softmax
        if isinstance(criterion, nn.BCEWithLogitsLoss):
            return _sigmoid_two_columns
        if isinstance(criterion, nn.BCELoss):
            return _two_columns
        return _identity
    if not callable(nonlinearity):
        raise TypeError(
            "predict_nonlinearity has to be a callable, 'auto' or None; got "
            f"{nonlinearity!r}."
        )
    return nonlinearity


def explained_torch_module(estimator, output, *, explainer="This explainer", hint=None):
    """The torch module of the explained outputs of a differentiable model.

    Parameters
    ----------
    estimator : fitted estimator
        See :func:`torch_pieces`.
    output : {"proba", "decision", "predict"}
        ``"proba"`` passes the module's output through the net's
        ``predict_proba`` nonlinearity, ``"decision"`` returns the logits
        (``±(z_1 - z_0)`` for two classes, like ``decision_function``).
    explainer : str, default="This explainer"
        Name used in the error message.
    hint : callable or None, default=None
        Returns a sentence appended to the error message of a model that is
        no torch model.

    Returns
    -------
    model : ExplainedModule
        On the device of the net's parameters.
    dtype : torch.dtype
        The dtype of the net's parameters (float32 without parameters).
    device : torch.device
    """
    net, scalers = torch_pieces(estimator, explainer=explainer, hint=hint)
    module = net.module_
    param = next(module.parameters(), None)
    dtype = torch.float32 if param is None else param.dtype
    device = torch.device("cpu") if param is None else param.device
    if isinstance(net, SklearnReplica):
        nonlinearity = net.predict_nonlinearity
        if nonlinearity is None:
            if output == "proba":
                raise NotApplicableError(
                    f"{explainer}: the predict_proba of {net.estimator!r} has no "
                    "exact torch replica (only LogisticRegression, "
                    "SGDClassifier(loss='log_loss') and MLPClassifier have one); "
                    "use output='decision'."
                )
            nonlinearity = _identity
    else:
        nonlinearity = predict_nonlinearity(net)
    model = ExplainedModule(scalers, module, nonlinearity, output, dtype)
    return model.to(device), dtype, device
