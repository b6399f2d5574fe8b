"""Gradient explainers of differentiable torch models (Captum).

Every explainer here differentiates the **same scalar** that every other
explainer and metric explains (SPEC 1.2): the probability of the target class
(the module output passed through the net's ``predict_proba`` nonlinearity,
i.e. the softmax for logits), the logit with ``output="decision"`` (for two
classes ``±(z_1 - z_0)``, like ``decision_function``), or the prediction of a
regressor.

What is differentiable (:func:`differentiable_model`):

* a skorch net (its ``module_``), e.g. the estimators of
  :mod:`sklearn_xai.models`;
* a :class:`~sklearn.frozen.FrozenEstimator` of one;
* a :class:`~sklearn.pipeline.Pipeline` whose last step is one of the above
  and whose earlier steps are affine scalers (``StandardScaler``,
  ``MinMaxScaler``, ``MaxAbsScaler``, ``RobustScaler``): they are folded into
  the gradient as an element-wise affine torch layer, so attributions are with
  respect to the *raw* input columns (chain rule).

Anything else raises a ``TypeError`` naming the model-agnostic explainers.
Rows are sent to Captum in chunks of ``batch_size`` explained rows; the
attributions are float64 ``(n_samples, n_features)`` matrices (images
flattened row-major).  Stochastic methods (SmoothGrad, GradientSHAP) draw their
noise from the per-row generators, so results do not depend on the batch size
or on the row order.
"""

import math
import numbers
import warnings
from abc import abstractmethod
from contextlib import contextmanager

import numpy as np
import torch
from captum.attr import LRP as _CaptumLRP
from captum.attr import DeepLift as _CaptumDeepLift
from captum.attr import Deconvolution as _CaptumDeconvolution
from captum.attr import GuidedBackprop as _CaptumGuidedBackprop
from captum.attr import GuidedGradCam as _CaptumGuidedGradCam
from captum.attr import InputXGradient as _CaptumInputXGradient
from captum.attr import IntegratedGradients as _CaptumIntegratedGradients
from captum.attr import Saliency as _CaptumSaliency
from captum.attr._utils.lrp_rules import EpsilonRule
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, RobustScaler, StandardScaler
from sklearn.utils._param_validation import Interval, StrOptions
from torch import nn

from sklearn_xai.base import BaseExplainer

__all__ = [
    "DeepLift",
    "Deconvolution",
    "GradientShap",
    "GuidedBackprop",
    "GuidedGradCam",
    "InputXGradient",
    "IntegratedGradients",
    "LRP",
    "Saliency",
    "SmoothGrad",
    "differentiable_model",
]

_AFFINE_SCALERS = (StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler)
_MODEL_AGNOSTIC = (
    "FeatureAblation, KernelSHAP, ExactShapley, ShapleyValueSampling, "
    "LimeTabular, LocalLinearSurrogate, CaptumLime"
)


# ---------------------------------------------------------------------------
# Resolving the differentiable model
# ---------------------------------------------------------------------------
def _unfreeze(estimator):
    if type(estimator).__name__ == "FrozenEstimator":
        return estimator.estimator
    return estimator


def _is_torch_net(estimator):
    return isinstance(getattr(estimator, "module_", None), nn.Module)


class _Affine(nn.Module):
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


def _scaler_layer(scaler, n_features):
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


def _not_differentiable(estimator, explainer, reason):
    return TypeError(
        f"{explainer} needs a differentiable torch model: a skorch net (e.g. "
        "sklearn_xai.models.MLPNetClassifier), a FrozenEstimator of one, or a "
        "Pipeline of affine scalers (StandardScaler, MinMaxScaler, MaxAbsScaler, "
        f"RobustScaler) ending in one; got {type(estimator).__name__} ({reason}). "
        f"Model-agnostic explainers work with any model: {_MODEL_AGNOSTIC}."
    )


def differentiable_model(estimator, *, explainer="This explainer"):
    """The torch pieces of a fitted differentiable model.

    Parameters
    ----------
    estimator : fitted estimator
        A skorch net, a ``FrozenEstimator`` of one, or a ``Pipeline`` of
        affine scalers ending in one.
    explainer : str, default="This explainer"
        Name used in the error message.

    Returns
    -------
    net : skorch.NeuralNet
        The fitted net whose ``module_`` is differentiated.
    scalers : list of (scale, offset, clip)
        The affine maps applied before the net, in order.

    Raises
    ------
    TypeError
        If the model is not differentiable; the message lists the
        model-agnostic explainers.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers._gradients import differentiable_model
    >>> try:
    ...     differentiable_model(LogisticRegression())
    ... except TypeError as exc:
    ...     print(str(exc)[:52])
    This explainer needs a differentiable torch model: a
    """
    scalers = []
    final = _unfreeze(estimator)
    if isinstance(final, Pipeline):
        *head, (_, last) = final.steps
        for name, step in head:
            step = _unfreeze(step)
            if step is None or (isinstance(step, str) and step == "passthrough"):
                continue
            if not isinstance(step, _AFFINE_SCALERS):
                raise _not_differentiable(
                    estimator, explainer,
                    f"pipeline step {name!r} is a {type(step).__name__}, not an "
                    "affine scaler",
                )
            scalers.append(_scaler_layer(step, step.n_features_in_))
        final = _unfreeze(last)
    if not _is_torch_net(final):
        raise _not_differentiable(
            estimator, explainer,
            f"{type(final).__name__} has no torch module_",
        )
    return final, scalers


class _ExplainedModule(nn.Module):
    """Raw input → scalers → net module → explained outputs (one per class)."""

    def __init__(self, scalers, module, nonlinearity, mode, dtype):
        super().__init__()
        # No empty container: Captum's LRP would take it for a rule-less layer.
        self.scalers = nn.Sequential(*[
            _Affine(torch.as_tensor(s, dtype=dtype), torch.as_tensor(o, dtype=dtype), c)
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


def _summed(model, target):
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


@contextmanager
def _eval_mode(module):
    """Evaluation mode (no dropout, batch-norm running stats), then restore."""
    states = [(m, m.training) for m in module.modules()]
    module.eval()
    try:
        yield module
    finally:
        for m, training in states:
            m.train(training)


def _check_baseline(baseline, X, *, allow_many, name="baseline"):
    """Baseline rows ``(B, d)`` from "zero", "mean", a scalar or an array."""
    d = X.shape[1]
    if isinstance(baseline, str):
        if baseline == "zero":
            return np.zeros((1, d))
        return X.mean(axis=0, keepdims=True)  # "mean"
    if isinstance(baseline, numbers.Real) and not isinstance(baseline, bool):
        return np.full((1, d), float(baseline))
    B = np.asarray(baseline, dtype=np.float64)
    if B.ndim == 1:
        B = B[None, :]
    if B.ndim != 2 or B.shape[1] != d or (B.shape[0] != 1 and not allow_many):
        shapes = f"({d},)" + (f" or (n_baselines, {d})" if allow_many else "")
        raise ValueError(
            f"{name} must be 'zero', 'mean', a number or an array of shape "
            f"{shapes}; got shape {np.shape(baseline)}."
        )
    if not np.all(np.isfinite(B)):
        raise ValueError(f"{name} must be finite.")
    return B


# ---------------------------------------------------------------------------
# Base class
# ---------------------------------------------------------------------------
class _GradientExplainer(BaseExplainer):
    """Shared machinery: resolve the torch model, chunk rows, call Captum."""

    _parameter_constraints = {**BaseExplainer._parameter_constraints}
    _baseline_many = False

    def _fit_explainer(self, X, y):
        differentiable_model(self.estimator_, explainer=type(self).__name__)
        if "baseline" in self._parameter_constraints:
            self.baseline_ = _check_baseline(
                self.baseline, X, allow_many=self._baseline_many
            )

    def _torch_model(self, f):
        if f.output == "predict" and f.is_classifier:
            raise ValueError(
                f"output='predict' explains the predicted labels of a classifier, "
                f"which have no gradient; use output='proba' or output='decision' "
                f"with {type(self).__name__}."
            )
        net, scalers = differentiable_model(self.estimator_, explainer=type(self).__name__)
        module = net.module_
        param = next(module.parameters(), None)
        dtype = torch.float32 if param is None else param.dtype
        device = torch.device("cpu") if param is None else param.device
        nonlinearity = net._get_predict_nonlinearity()
        model = _ExplainedModule(scalers, module, nonlinearity, f.output, dtype)
        return model.to(device), dtype, device

    def _explain(self, X, f, target_index, rngs):
        model, dtype, device = self._torch_model(f)
        n = X.shape[0]
        step = self.batch_size or max(n, 1)
        out = np.empty(X.shape, dtype=np.float64)
        with _eval_mode(model), torch.enable_grad(), warnings.catch_warnings():
            # Captum announces, on every call, the hooks it sets on activations.
            warnings.filterwarnings("ignore", message=".*hooks", category=UserWarning)
            for start in range(0, n, step):
                stop = min(start + step, n)
                inputs = _leaf(torch.tensor(np.array(X[start:stop]), dtype=dtype,
                                            device=device))
                if target_index is None:
                    target = torch.zeros(stop - start, dtype=torch.long, device=device)
                else:
                    target = torch.as_tensor(target_index[start:stop], device=device)
                chunk_rngs = None if rngs is None else rngs[start:stop]
                A, n_rows = self._attribute(model, inputs, target, chunk_rngs)
                out[start:stop] = A.detach().cpu().numpy().reshape(stop - start, -1)
                f.n_evaluations += n_rows
                f.n_calls += 1
        return out

    @abstractmethod
    def _attribute(self, model, inputs, target, rngs):
        """Return ``(attributions tensor, number of model rows evaluated)``.

        ``model`` maps raw float rows to the explained outputs (one column per
        class), ``inputs`` is a chunk of rows requiring gradients, ``target``
        the output column per row, ``rngs`` the chunk's generators (stochastic
        explainers only).
        """

    def _baseline_tensor(self, inputs):
        B = torch.as_tensor(self.baseline_, dtype=inputs.dtype, device=inputs.device)
        return B.expand(inputs.shape[0], -1).contiguous()


_COMMON_PARAMS = """target : "predicted", int or label, default="predicted"
        Explained class of a classifier (``"predicted"``: arg-max at each
        row; :meth:`explain` also takes one label per row).
    output : {{"auto", "proba", "decision", "predict"}}, default="auto"
        ``"auto"``: the target-class probability (classifiers) or the
        prediction (regressors); ``"decision"``: the logit.
    batch_size : int or None, default=None
        Number of explained rows sent to Captum per call (``None``: all).{extra}"""

_ATTRIBUTES = """Attributes
    ----------
    estimator_ : estimator
        The fitted model.{extra}
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names."""

# A doctest model shared by the examples: a logistic net on 2 features.
_EXAMPLE_SETUP = """>>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn_xai.models import LogisticNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = (X[:, 0] > 0).astype(int)
    >>> net = LogisticNetClassifier(lr=0.1, max_epochs=10, random_state=0).fit(X, y)"""


# ---------------------------------------------------------------------------
# Deterministic gradient methods
# ---------------------------------------------------------------------------
class Saliency(_GradientExplainer):
    __doc__ = f"""Vanilla gradient ``a = ∇_x f(x)`` (Captum ``Saliency``).

    Signed by default, as OpenXAI since March 2024 (SPEC 3.2.2); ``abs=True``
    gives Captum's default absolute gradient (XAI-TRIS, BEExAI).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`);
        ``FrozenEstimator(model)`` for a fitted one.
    abs : bool, default=False
        Return ``|∇_x f(x)|``.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import Saliency
    >>> A = Saliency(FrozenEstimator(net)).fit(X).transform(X[:3])
    >>> A.shape
    (3, 2)
    >>> bool(np.all(np.abs(A[:, 0]) > np.abs(A[:, 1])))
    True
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints, "abs": ["boolean"],
    }

    def __init__(self, estimator=None, *, abs=False, target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.abs = abs
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        A = _CaptumSaliency(_summed(model, target)).attribute(inputs, abs=bool(self.abs))
        return A, len(inputs)


class InputXGradient(_GradientExplainer):
    __doc__ = f"""Gradient times input ``a = x ⊙ ∇_x f(x)`` (Captum ``InputXGradient``).

    OpenXAI's "itg" (SPEC 3.2.2).  With a pipeline of scalers, ``x`` is the
    raw input and the gradient includes the scalers (chain rule).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import InputXGradient
    >>> A = InputXGradient(FrozenEstimator(net)).fit(X).transform([[0.0, 1.0]])
    >>> bool(A[0, 0] == 0.0)  # x_0 = 0
    True
    """

    def __init__(self, estimator=None, *, target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        A = _CaptumInputXGradient(_summed(model, target)).attribute(inputs)
        return A, len(inputs)


_BASELINE_DOC = """baseline : "zero", "mean", float or array-like of shape (n_features,), \
default="zero"
        Reference input ``b``: zeros (XAI-TRIS, BEExAI), the training mean
        (OpenXAI), a constant, or a given row."""

_IG_METHODS = {"gausslegendre", "riemann_left", "riemann_right", "riemann_middle",
               "riemann_trapezoid"}


class IntegratedGradients(_GradientExplainer):
    __doc__ = f"""Integrated gradients (Captum ``IntegratedGradients``).

    ``IG_j = (x_j - b_j) ∫_0^1 ∂_j f(b + t (x - b)) dt`` by ``n_steps``-point
    quadrature (SPEC 3.2.3).  Completeness: ``Σ_j IG_j ≈ f(x) - f(b)``.
    ``multiply_by_inputs=False`` returns the path-averaged gradient only, which
    is what OpenXAI ran under the name IG (its preset also uses
    ``baseline="mean"``).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    {_BASELINE_DOC}
    n_steps : int, default=50
        Quadrature points.
    method : {{"gausslegendre", "riemann_left", "riemann_right", \
"riemann_middle", "riemann_trapezoid"}}, default="gausslegendre"
    multiply_by_inputs : bool, default=True
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra='''
    baseline_ : ndarray of shape (1, n_features)
        The resolved baseline.''')}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import IntegratedGradients
    >>> ig = IntegratedGradients(FrozenEstimator(net), target=1).fit(X)
    >>> x = np.array([[1.0, -0.5]])
    >>> f = net.predict_proba(np.vstack([x, [[0.0, 0.0]]]))[:, 1]
    >>> bool(abs(ig.transform(x).sum() - (f[0] - f[1])) < 1e-4)
    True
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "baseline": [StrOptions({"zero", "mean"}), numbers.Real, "array-like"],
        "n_steps": [Interval(numbers.Integral, 1, None, closed="left")],
        "method": [StrOptions(_IG_METHODS)],
        "multiply_by_inputs": ["boolean"],
    }

    def __init__(self, estimator=None, *, baseline="zero", n_steps=50,
                 method="gausslegendre", multiply_by_inputs=True, target="predicted",
                 output="auto", batch_size=None):
        self.estimator = estimator
        self.baseline = baseline
        self.n_steps = n_steps
        self.method = method
        self.multiply_by_inputs = multiply_by_inputs
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        # Captum stacks the n_steps scaled copies step by step: the summed
        # forward tiles the targets accordingly.
        ig = _CaptumIntegratedGradients(_summed(model, target),
                                        multiply_by_inputs=self.multiply_by_inputs)
        A = ig.attribute(inputs, baselines=self._baseline_tensor(inputs),
                         n_steps=self.n_steps, method=self.method)
        return A, len(inputs) * self.n_steps


class DeepLift(_GradientExplainer):
    __doc__ = f"""DeepLIFT, Rescale rule (Captum ``DeepLift``).

    Multipliers ``(Δ out / Δ in)`` replace the gradients of the ReLU and
    max-pool modules, between the input and ``baseline`` (SPEC 3.2.11;
    XAI-TRIS and BEExAI use the zero baseline and multiply by inputs).
    The softmax of a classifier is applied as a function, so it is
    differentiated normally, as in XAI-TRIS's networks.

    Parameters
    ----------
    estimator : estimator
        A differentiable model whose nonlinearities are ``torch.nn`` modules.
    {_BASELINE_DOC}
    multiply_by_inputs : bool, default=True
        ``False`` returns the multipliers only.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra='''
    baseline_ : ndarray of shape (1, n_features)''')}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import DeepLift
    >>> DeepLift(FrozenEstimator(net)).fit(X).transform(X[:4]).shape
    (4, 2)
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "baseline": [StrOptions({"zero", "mean"}), numbers.Real, "array-like"],
        "multiply_by_inputs": ["boolean"],
    }

    def __init__(self, estimator=None, *, baseline="zero", multiply_by_inputs=True,
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.baseline = baseline
        self.multiply_by_inputs = multiply_by_inputs
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        dl = _CaptumDeepLift(model, multiply_by_inputs=self.multiply_by_inputs)
        A = dl.attribute(inputs, baselines=self._baseline_tensor(inputs), target=target)
        return A, 2 * len(inputs)


class GuidedBackprop(_GradientExplainer):
    __doc__ = f"""Guided backpropagation (Captum ``GuidedBackprop``).

    Gradient in which every ReLU module passes back only positive gradients
    at positive inputs (SPEC 3.2.11, XAI-TRIS).

    Parameters
    ----------
    estimator : estimator
        A differentiable model whose ReLUs are ``torch.nn.ReLU`` modules.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import GuidedBackprop, Saliency
    >>> # without ReLUs, guided backpropagation is the plain gradient
    >>> ex = FrozenEstimator(net)
    >>> bool(np.allclose(GuidedBackprop(ex).fit(X).transform(X[:3]),
    ...                  Saliency(ex).fit(X).transform(X[:3])))
    True
    """

    def __init__(self, estimator=None, *, target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.target = target
        self.output = output
        self.batch_size = batch_size

    _captum = _CaptumGuidedBackprop

    def _attribute(self, model, inputs, target, rngs):
        return self._captum(model).attribute(inputs, target=target), len(inputs)


class Deconvolution(GuidedBackprop):
    __doc__ = f"""Deconvolution (Captum ``Deconvolution``).

    Gradient in which every ReLU module passes back the positive part of the
    gradient whatever its input (SPEC 3.2.11, XAI-TRIS).

    Parameters
    ----------
    estimator : estimator
        A differentiable model whose ReLUs are ``torch.nn.ReLU`` modules.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import Deconvolution
    >>> Deconvolution(FrozenEstimator(net)).fit(X).transform(X[:2]).shape
    (2, 2)
    """

    _captum = _CaptumDeconvolution


# Layer types Captum's LRP has no default rule for but that are affine in
# evaluation mode: the epsilon rule applies to them as to Linear layers.
_LRP_AFFINE = (nn.BatchNorm1d, _Affine)


class LRP(_GradientExplainer):
    __doc__ = f"""Layer-wise relevance propagation, epsilon rule (Captum ``LRP``).

    Captum's defaults (SPEC 3.2.11): epsilon rule (ε = 1e-9) on linear,
    convolution and pooling layers, ReLU and dropout passed through.  Batch
    normalisation (evaluation mode) and folded scalers get the epsilon rule
    too; other layer types raise Captum's ``TypeError``.

    Parameters
    ----------
    estimator : estimator
        A differentiable model.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import LRP
    >>> LRP(FrozenEstimator(net)).fit(X).transform(X[:2]).shape
    (2, 2)
    """

    def __init__(self, estimator=None, *, target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _attribute(self, model, inputs, target, rngs):
        extra = [m for m in model.modules()
                 if isinstance(m, _LRP_AFFINE) and not hasattr(m, "rule")]
        for layer in extra:
            layer.rule = EpsilonRule()
        try:
            A = _CaptumLRP(model).attribute(inputs, target=target)
        finally:  # Captum removes the rules it set; remove the ones set here
            for layer in extra:
                if hasattr(layer, "rule"):
                    del layer.rule
        return A, len(inputs)


class GuidedGradCam(_GradientExplainer):
    __doc__ = f"""Guided Grad-CAM (Captum ``GuidedGradCam``), convolutional nets only.

    Guided backpropagation times the Grad-CAM map of the **last**
    ``torch.nn.Conv2d`` layer, upsampled (nearest) to the image (SPEC 3.2.11).
    The flattened input is reshaped to ``(1, L, L)`` images, ``L`` from the
    module's ``image_size`` or the square root of ``n_features``.

    Parameters
    ----------
    estimator : estimator
        A differentiable model with at least one ``Conv2d`` layer, e.g.
        ``TetrominoNetClassifier(architecture="cnn")``.
    {_COMMON_PARAMS.format(extra="")}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn_xai.explainers import GuidedGradCam
    >>> from sklearn_xai.models import TetrominoNetClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 64))
    >>> y = (X[:, 9] > 0).astype(int)
    >>> cnn = TetrominoNetClassifier(max_epochs=2, random_state=0).fit(X, y)
    >>> GuidedGradCam(FrozenEstimator(cnn)).fit(X).transform(X[:2]).shape
    (2, 64)
    """

    def __init__(self, estimator=None, *, target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        net, _ = differentiable_model(self.estimator_, explainer="GuidedGradCam")
        if not any(isinstance(m, nn.Conv2d) for m in net.module_.modules()):
            raise TypeError(
                "GuidedGradCam needs a convolutional network (a torch.nn.Conv2d "
                f"layer in the module); {type(net.module_).__name__} has none. Use "
                "GuidedBackprop or Saliency for dense networks."
            )
        side = getattr(net.module_, "image_size", None) or math.isqrt(X.shape[1])
        if side * side != X.shape[1]:
            raise ValueError(
                f"GuidedGradCam reshapes rows to square images, but n_features="
                f"{X.shape[1]} is not a square."
            )
        self.image_shape_ = (1, side, side)

    def _attribute(self, model, inputs, target, rngs):
        layer = [m for m in model.module.modules() if isinstance(m, nn.Conv2d)][-1]
        images = inputs.reshape(len(inputs), *self.image_shape_)
        A = _CaptumGuidedGradCam(model, layer).attribute(images, target=target)
        return A, 2 * len(inputs)


# ---------------------------------------------------------------------------
# Stochastic gradient methods (noise from the per-row generators)
# ---------------------------------------------------------------------------
def _leaf(tensor):
    """A fresh input tensor that requires gradients (Captum warns otherwise)."""
    return tensor.detach().requires_grad_()


def _repeat(tensor, k):
    """Repeat each row ``k`` times consecutively."""
    return torch.repeat_interleave(tensor, k, dim=0)


class SmoothGrad(_GradientExplainer):
    __doc__ = f"""SmoothGrad: mean gradient under Gaussian input noise.

    ``a = (1/N) Σ_i ∇_x f(x + ε_i)``, ``ε_i ~ N(0, std² I)`` with ``std`` in
    input units (SPEC 3.2.2; Captum ``NoiseTunnel(Saliency)`` with
    ``nt_type="smoothgrad"``, no absolute value).  The noise of each row comes
    from its own random stream, so a row's attributions do not depend on the
    batch size or on the other rows; all ``N`` noisy copies of a chunk of rows
    are differentiated in one pass.

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    n_samples : int, default=100
        Noisy copies per row (OpenXAI's code: 100; its paper: 500).
    std : float, default=0.1
        Noise standard deviation (OpenXAI: 0.1 on min-max scaled features).
    abs : bool, default=False
        Average absolute gradients instead.
    {_COMMON_PARAMS.format(extra='''
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row noise.''')}

    {_ATTRIBUTES.format(extra="")}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import SmoothGrad
    >>> sg = SmoothGrad(FrozenEstimator(net), n_samples=20, random_state=0).fit(X)
    >>> bool(np.allclose(sg.transform(X[:4])[2:], sg.transform(X[2:4])))
    True
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "std": [Interval(numbers.Real, 0, None, closed="left")],
        "abs": ["boolean"],
    }
    _stochastic = True

    def __init__(self, estimator=None, *, n_samples=100, std=0.1, abs=False,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.n_samples = n_samples
        self.std = std
        self.abs = abs
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _attribute(self, model, inputs, target, rngs):
        m, d = inputs.shape
        N = self.n_samples
        noise = np.stack([rng.normal(0.0, self.std, size=(N, d)) for rng in rngs])
        noisy = _repeat(inputs, N) + torch.as_tensor(
            noise.reshape(m * N, d), dtype=inputs.dtype, device=inputs.device
        )
        G = _CaptumSaliency(_summed(model, _repeat(target, N))).attribute(
            _leaf(noisy), abs=bool(self.abs))
        return G.reshape(m, N, d).mean(dim=1), m * N


class GradientShap(_GradientExplainer):
    __doc__ = f"""GradientSHAP: expected gradients between baselines and noisy inputs.

    ``a = E[(x + ε - b) ⊙ ∇f(b + α (x + ε - b))]`` over a baseline ``b``
    drawn uniformly from ``baseline``'s rows, ``α ~ U(0, 1)`` and
    ``ε ~ N(0, std² I)``, estimated with ``n_samples`` draws per row (Captum
    ``GradientShap``; XAI-TRIS: zero baseline, 5 samples, std 0).  The draws
    come from the per-row random streams (Captum draws them from torch's
    global generator).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    baseline : "zero", "mean", float or array-like of shape (n_features,) or \
(n_baselines, n_features), default="zero"
        Baseline distribution (rows drawn uniformly).
    n_samples : int, default=5
    std : float, default=0.0
        Standard deviation of the input noise.
    {_COMMON_PARAMS.format(extra='''
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row draws.''')}

    {_ATTRIBUTES.format(extra='''
    baseline_ : ndarray of shape (n_baselines, n_features)''')}

    Examples
    --------
    {_EXAMPLE_SETUP}
    >>> from sklearn_xai.explainers import GradientShap
    >>> gs = GradientShap(FrozenEstimator(net), random_state=0).fit(X)
    >>> gs.transform(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "baseline": [StrOptions({"zero", "mean"}), numbers.Real, "array-like"],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "std": [Interval(numbers.Real, 0, None, closed="left")],
    }
    _stochastic = True
    _baseline_many = True

    def __init__(self, estimator=None, *, baseline="zero", n_samples=5, std=0.0,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.baseline = baseline
        self.n_samples = n_samples
        self.std = std
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _attribute(self, model, inputs, target, rngs):
        m, d = inputs.shape
        N = self.n_samples
        B = self.baseline_
        draws = [(rng.integers(0, len(B), size=N), rng.uniform(size=N),
                  rng.normal(0.0, self.std, size=(N, d)) if self.std else np.zeros((N, d)))
                 for rng in rngs]
        idx = np.concatenate([i for i, _, _ in draws])
        alpha = np.concatenate([a for _, a, _ in draws])[:, None]
        noise = np.concatenate([e for _, _, e in draws])
        X = np.repeat(inputs.detach().cpu().numpy().astype(np.float64), N, axis=0) + noise
        delta = X - B[idx]
        points = torch.as_tensor(B[idx] + alpha * delta, dtype=inputs.dtype,
                                 device=inputs.device)
        G = _CaptumSaliency(_summed(model, _repeat(target, N))).attribute(
            _leaf(points), abs=False)
        A = G.detach().cpu().numpy().astype(np.float64) * delta
        return torch.as_tensor(A.reshape(m, N, d).mean(axis=1)), m * N
