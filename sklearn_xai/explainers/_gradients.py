"""Gradient explainers of differentiable torch models (Captum).

Every explainer here differentiates the **same scalar** that every other
explainer and metric explains (see :ref:`def-explained-output` in the user
guide): the probability of the target class
(the module output passed through the net's ``predict_proba`` nonlinearity,
i.e. the softmax for logits), the logit with ``output="decision"`` (for two
classes ``±(z_1 - z_0)``, like ``decision_function``), or the prediction of a
regressor.

What is differentiable (a skorch net, a scikit-learn MLP or linear model
through its exact torch replica, a FrozenEstimator of one, a Pipeline of
affine scalers ending in one) and how it becomes that scalar is decided in
``_torch.py`` (:func:`differentiable_model`); this module holds the Captum
methods.  Anything else raises a ``TypeError`` naming the model-agnostic
explainers.  Rows are sent to Captum in blocks of whole rows of at most
``batch_size`` model rows (``None``: about 2**17 input entries, see
:func:`~sklearn_xai.utils._output.block_slices`); the attributions are
float64 ``(n_samples, n_features)`` matrices (images flattened row-major).
Stochastic methods (SmoothGrad, GradientSHAP) draw their noise vectorised
from the rows' random streams (:class:`~sklearn_xai.utils.RowStreams`), so
results do not depend on the batch size or on the row order.
"""

import numbers
import warnings
from abc import abstractmethod

import numpy as np
import torch
from captum.attr import LRP as _CaptumLRP
from captum.attr import Deconvolution as _CaptumDeconvolution
from captum.attr import DeepLift as _CaptumDeepLift
from captum.attr import DeepLiftShap as _CaptumDeepLiftShap
from captum.attr import GuidedBackprop as _CaptumGuidedBackprop
from captum.attr import GuidedGradCam as _CaptumGuidedGradCam
from captum.attr import InputXGradient as _CaptumInputXGradient
from captum.attr import IntegratedGradients as _CaptumIntegratedGradients
from captum.attr import Saliency as _CaptumSaliency

# Captum exports its LRP rules (and the layer types LRP supports) from no
# public module: its documentation ("LRP", custom rules) imports them from
# captum.attr._utils.lrp_rules.
from captum.attr._core import lrp as _captum_lrp
from captum.attr._utils.lrp_rules import EpsilonRule
from torch import nn

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import EXPLAINER_FRAGMENTS, explainer_doc
from sklearn_xai.explainers._torch import (
    differentiable_model,
    explained_module,
    summed_output,
)
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import join_fragments
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._random import purpose_generator
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._torch import eval_mode
from sklearn_xai.utils._torch_model import Affine
from sklearn_xai.utils._validation import check_feature_vector

__all__ = [
    "DeepLift",
    "DeepLiftShap",
    "Deconvolution",
    "ExpectedGradients",
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

def _check_baseline(baseline, X, *, allow_many):
    """Baseline rows ``(B, d)`` from "zero", "mean", "train" (the rows of
    ``X``), a number or an array.

    A number or a vector is one baseline row; a matrix holds one baseline
    per row (one row only unless ``allow_many``).
    """
    d = X.shape[1]
    if isinstance(baseline, str):
        if baseline == "train" and allow_many:
            return np.array(X, dtype=np.float64)
        if baseline == "zero":
            return np.zeros((1, d))
        return X.mean(axis=0, keepdims=True)  # "mean"
    if np.ndim(baseline) == 2 and (allow_many or np.shape(baseline)[0] == 1):
        rows = list(baseline)
        if not rows:
            raise ValueError("baseline must hold at least one row.")
        return np.stack([check_feature_vector(row, d, "baseline", scalar=False)
                         for row in rows])
    return check_feature_vector(baseline, d, "baseline")[None, :]


def _device_normal(rngs, size, device):
    """Standard normal noise of the rows' streams (stream 0), drawn on the
    model's ``device`` in float64: the Box–Muller draws of
    :meth:`~sklearn_xai.utils.RowStreams.normal`, the same on every device
    to the last bits of float64 (so, once rounded to a float32 model's
    inputs, almost always the same bits).  :class:`NoiseTunnel` draws the
    same numbers on the host."""
    return rngs.normal(size, method="box_muller", device=device)


# ---------------------------------------------------------------------------
# Base class
# ---------------------------------------------------------------------------
class _GradientExplainer(BaseExplainer):
    """Shared machinery: resolve the torch model, chunk rows, call Captum."""

    _parameter_constraints = {**BaseExplainer._parameter_constraints}
    _baseline_many = False
    # The parameter setting the model rows per explained row (checked
    # against the allocation limit in fit), if any.
    _count_parameter = None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.model_agnostic = False
        tags.explainer_tags.differentiable = True
        return tags

    def _fit_explainer(self, X, y):
        differentiable_model(self.estimator_, explainer=type(self).__name__)
        if "baseline" in self._parameter_constraints:
            self.baseline_ = _check_baseline(
                self.baseline, X, allow_many=self._baseline_many
            )
        if self._count_parameter is not None:
            name = self._count_parameter
            check_allocation(2 * self._model_rows_per_row() * X.shape[1],
                             what="the model inputs of one row and their gradients",
                             parameter=name,
                             value=getattr(self, name + "_", getattr(self, name)))

    def _torch_model(self, f):
        if f.output == "predict" and f.is_classifier:
            raise ValueError(
                f"output='predict' explains the predicted labels of a classifier, "
                f"which have no gradient; use output='proba' or output='decision' "
                f"with {type(self).__name__}."
            )
        return explained_module(self.estimator_, f.output, explainer=type(self).__name__)

    def _model_rows_per_row(self):
        """Model rows one explained row costs in a Captum call."""
        return 1

    def _explain(self, X, f, target_index, rngs):
        model, dtype, device = self._torch_model(f)
        n, d = X.shape
        out = np.empty(X.shape, dtype=np.float64)
        blocks = block_slices(n, self._model_rows_per_row(), d, self.batch_size, device)
        with eval_mode(model), torch.enable_grad(), warnings.catch_warnings():
            # Captum announces, on every call, the hooks it sets on activations.
            warnings.filterwarnings("ignore", message=".*hooks", category=UserWarning)
            for block in blocks:
                start, stop = block.start, min(block.stop, n)
                # Cast on the way to the device: one copy of the block (a
                # copy on the CPU too, so no explainer can write to X).
                inputs = _leaf(torch.from_numpy(np.ascontiguousarray(X[start:stop])).to(
                    device=device, dtype=dtype, copy=True))
                if target_index is None:
                    target = torch.zeros(stop - start, dtype=torch.long, device=device)
                else:
                    target = torch.as_tensor(target_index[start:stop], device=device)
                chunk_rngs = None if rngs is None else rngs[start:stop]
                A, n_rows = self._attribute(model, inputs, target, chunk_rngs)
                # Back to the host and to float64 in one copy.
                torch.from_numpy(out[start:stop]).copy_(
                    A.detach().reshape(stop - start, -1))
                f.n_evaluations += n_rows
                f.n_calls += 1
        return out

    @abstractmethod
    def _attribute(self, model, inputs, target, rngs):
        """Return ``(attributions tensor, number of model rows evaluated)``.

        ``model`` maps raw float rows to the explained outputs (one column per
        class), ``inputs`` is a chunk of rows requiring gradients, ``target``
        the output column per row, ``rngs`` the chunk's
        :class:`~sklearn_xai.utils.RowStreams` (stochastic explainers only).
        """

    def _baseline_tensor(self, inputs):
        B = torch.as_tensor(self.baseline_, dtype=inputs.dtype, device=inputs.device)
        return B.expand(inputs.shape[0], -1).contiguous()


# Docstring fragments of this module (see sklearn_xai.utils._docstring).
_GRADIENT_DOC = {
    # The explained output: the last parameters of every gradient explainer.
    "gradient_output_params": join_fragments(
        EXPLAINER_FRAGMENTS["explainer_target"],
        EXPLAINER_FRAGMENTS["explainer_output"],
        """
        batch_size : int or None, default=None
            Maximum number of model rows per Captum call (an explained row
            costs one model row, ``n_steps`` for integrated gradients,
            ``n_perturbations`` for the noisy methods, two for DeepLIFT and
            Guided Grad-CAM; a call holds at least one explained row);
            ``None`` makes calls of about 2**17 input entries.  The
            attributions do not depend on it."""),
    # The Attributes section, which an explainer's own attributes follow.
    "gradient_attributes": """
        Attributes
        ----------
        estimator_ : estimator
            The fitted model.
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names.""",
    # A doctest model shared by the examples: a logistic net on 2 features.
    "gradient_example": """
        >>> import numpy as np
        >>> from sklearn.frozen import FrozenEstimator
        >>> from sklearn_xai.models import LogisticNetClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(100, 2))
        >>> y = (X[:, 0] > 0).astype(int)
        >>> net = LogisticNetClassifier(lr=0.1, max_epochs=10,
        ...                             random_state=0).fit(X, y)""",
    "baseline": """
        baseline : "zero", "mean", float or array-like of shape (n_features,), \
default="zero"
            Reference input ``b``: zeros (XAI-TRIS, BEExAI), the training mean
            (OpenXAI), a constant, or a given row.""",
}

# The Parameters section of the explainers that change the ReLUs' backward
# pass (their only parameters are the model and the explained output).
_GRADIENT_DOC["relu_parameters"] = join_fragments("""
    Parameters
    ----------
    estimator : estimator
        A differentiable model whose ReLUs are ``torch.nn.ReLU`` modules.""",
    _GRADIENT_DOC["gradient_output_params"])


def _gradient_doc(*names, references=None):
    """Substitution of the common fragments and of ``names`` (this module's
    own fragments or shared ones); ``relu_parameters`` holds the output
    parameters.  ``references``: keys of the citation table, filling the
    ``explainer_references`` placeholder."""
    common = ("gradient_attributes",) if "relu_parameters" in names else (
        "gradient_output_params", "gradient_attributes")
    own = (*common, *[name for name in names if name in _GRADIENT_DOC])
    shared = [name for name in names if name not in _GRADIENT_DOC]
    return explainer_doc(*shared, references=references,
                         **{name: _GRADIENT_DOC[name] for name in own})


# ---------------------------------------------------------------------------
# Deterministic gradient methods
# ---------------------------------------------------------------------------
@_gradient_doc("gradient_example")
class Saliency(_GradientExplainer):
    """Vanilla gradient ``a = ∇_x f(x)`` (Captum ``Saliency``).

    Signed by default, as OpenXAI since March 2024; ``abs=True`` gives
    Captum's default absolute gradient (XAI-TRIS, BEExAI).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`);
        ``FrozenEstimator(model)`` for a fitted one.
    abs : bool, default=False
        Return ``|∇_x f(x)|``.
    {gradient_output_params}

    {gradient_attributes}

    References
    ----------
    .. [1] K. Simonyan, A. Vedaldi and A. Zisserman, "Deep Inside
       Convolutional Networks: Visualising Image Classification Models and
       Saliency Maps", ICLR Workshop 2014.

    Examples
    --------
    {gradient_example}
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
        A = _CaptumSaliency(summed_output(model, target)).attribute(
            inputs, abs=bool(self.abs))
        return A, len(inputs)


@_gradient_doc("gradient_example")
class InputXGradient(_GradientExplainer):
    """Gradient times input ``a = x ⊙ ∇_x f(x)`` (Captum ``InputXGradient``).

    OpenXAI's "itg".  With a pipeline of scalers, ``x`` is the raw input and
    the gradient includes the scalers (chain rule).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    {gradient_output_params}

    {gradient_attributes}

    References
    ----------
    .. [1] A. Shrikumar, P. Greenside, A. Shcherbina and A. Kundaje, "Not
       Just a Black Box: Learning Important Features Through Propagating
       Activation Differences", arXiv:1605.01713, 2016.

    Examples
    --------
    {gradient_example}
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
        A = _CaptumInputXGradient(summed_output(model, target)).attribute(inputs)
        return A, len(inputs)


_IG_METHODS = {"gausslegendre", "riemann_left", "riemann_right", "riemann_middle",
               "riemann_trapezoid"}


@_gradient_doc("gradient_example", "baseline")
class IntegratedGradients(_GradientExplainer):
    """Integrated gradients (Captum ``IntegratedGradients``).

    ``IG_j = (x_j - b_j) ∫_0^1 ∂_j f(b + t (x - b)) dt`` by ``n_steps``-point
    quadrature.  Completeness: ``Σ_j IG_j ≈ f(x) - f(b)``.
    ``multiply_by_inputs=False`` returns the path-averaged gradient only, which
    is what OpenXAI ran under the name IG (its preset also uses
    ``baseline="mean"``).

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    {baseline}
    n_steps : int, default=50
        Quadrature points.
    method : {"gausslegendre", "riemann_left", "riemann_right", \
"riemann_middle", "riemann_trapezoid"}, default="gausslegendre"
    multiply_by_inputs : bool, default=True
    {gradient_output_params}

    {gradient_attributes}
    baseline_ : ndarray of shape (1, n_features)
        The resolved baseline.

    References
    ----------
    .. [1] M. Sundararajan, A. Taly and Q. Yan, "Axiomatic Attribution for
       Deep Networks", ICML 2017.

    Examples
    --------
    {gradient_example}
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

    _count_parameter = "n_steps"

    def _model_rows_per_row(self):
        return self.n_steps

    def _attribute(self, model, inputs, target, rngs):
        # Captum stacks the n_steps scaled copies step by step: the summed
        # forward tiles the targets accordingly.
        ig = _CaptumIntegratedGradients(summed_output(model, target),
                                        multiply_by_inputs=self.multiply_by_inputs)
        A = ig.attribute(inputs, baselines=self._baseline_tensor(inputs),
                         n_steps=self.n_steps, method=self.method)
        return A, len(inputs) * self.n_steps


@_gradient_doc("gradient_example", "baseline")
class DeepLift(_GradientExplainer):
    """DeepLIFT, Rescale rule (Captum ``DeepLift``).

    Multipliers ``(Δ out / Δ in)`` replace the gradients of the ReLU and
    max-pool modules, between the input and ``baseline`` (XAI-TRIS and
    BEExAI use the zero baseline and multiply by inputs).  On a ReLU
    network the attributions of a logit (``output="decision"``) sum to its
    difference from the baseline (summation-to-delta).

    The softmax of a classifier (``output="proba"``) is applied as a
    function, so it is differentiated normally, as in XAI-TRIS's networks:
    the result equals Captum's ``DeepLift`` on a module whose ``forward``
    ends in ``torch.softmax``.  The Rescale rule is defined for elementwise
    nonlinearities and the softmax is not one, so no choice makes
    probabilities sum to their difference from the baseline: ours multiplies
    the softmax's gradient at ``x`` by the logits' multipliers, and Captum's
    rule for an ``nn.Softmax`` *module* (an elementwise Rescale of each
    probability, then centred over the classes) is another heuristic that
    gives other values (by up to about 1 on a 20-feature MLP) and misses
    summation-to-delta too, by less on that network (0.23 against 0.61 in
    probability).  Explain ``output="decision"`` when summation-to-delta
    matters: the DeepLIFT paper recommends the layer before the softmax [1]_
    (Section 3.6).

    Parameters
    ----------
    estimator : estimator
        A differentiable model whose nonlinearities are ``torch.nn`` modules.
    {baseline}
    multiply_by_inputs : bool, default=True
        ``False`` returns the multipliers only.
    {gradient_output_params}

    {gradient_attributes}
    baseline_ : ndarray of shape (1, n_features)

    References
    ----------
    .. [1] A. Shrikumar, P. Greenside and A. Kundaje, "Learning Important
       Features Through Propagating Activation Differences", ICML 2017.

    Examples
    --------
    {gradient_example}
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

    def _model_rows_per_row(self):
        return 2  # the input and its baseline

    def _attribute(self, model, inputs, target, rngs):
        dl = _CaptumDeepLift(model, multiply_by_inputs=self.multiply_by_inputs)
        A = dl.attribute(inputs, baselines=self._baseline_tensor(inputs), target=target)
        return A, 2 * len(inputs)


@_gradient_doc("gradient_example", "relu_parameters")
class GuidedBackprop(_GradientExplainer):
    """Guided backpropagation (Captum ``GuidedBackprop``).

    Gradient in which every ReLU module passes back only positive gradients
    at positive inputs (as used by XAI-TRIS).

    {relu_parameters}

    {gradient_attributes}

    References
    ----------
    .. [1] J. T. Springenberg, A. Dosovitskiy, T. Brox and M. Riedmiller,
       "Striving for Simplicity: The All Convolutional Net", ICLR Workshop
       2015.

    Examples
    --------
    {gradient_example}
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


@_gradient_doc("gradient_example", "relu_parameters")
class Deconvolution(GuidedBackprop):
    """Deconvolution (Captum ``Deconvolution``).

    Gradient in which every ReLU module passes back the positive part of the
    gradient whatever its input (as used by XAI-TRIS).

    {relu_parameters}

    {gradient_attributes}

    References
    ----------
    .. [1] M. D. Zeiler and R. Fergus, "Visualizing and Understanding
       Convolutional Networks", ECCV 2014.

    Examples
    --------
    {gradient_example}
    >>> from sklearn_xai.explainers import Deconvolution
    >>> Deconvolution(FrozenEstimator(net)).fit(X).transform(X[:2]).shape
    (2, 2)
    """

    _captum = _CaptumDeconvolution


# Layer types Captum's LRP has no default rule for but that are affine in
# evaluation mode: the epsilon rule applies to them as to Linear layers.
_LRP_AFFINE = (nn.BatchNorm1d, Affine)
# Leaf layer types Captum's LRP has a default rule for, and passes through.
_CAPTUM_LRP_RULES = tuple(_captum_lrp.SUPPORTED_LAYERS_WITH_RULES)
_CAPTUM_LRP_PASSED = tuple(_captum_lrp.SUPPORTED_NON_LINEAR_LAYERS)


@_gradient_doc("gradient_example")
class LRP(_GradientExplainer):
    """Layer-wise relevance propagation, epsilon rule (Captum ``LRP``).

    Captum's defaults (as used by XAI-TRIS): epsilon rule (ε = 1e-9) on
    linear, convolution and pooling layers, ReLU and dropout passed through.
    Batch normalisation (evaluation mode) and folded scalers get the epsilon
    rule too.  A module with another layer type (one Captum has no rule for,
    e.g. ``LayerNorm`` or ``GELU`` in attention networks) is refused in
    :meth:`fit` with a ``NotApplicableError`` naming the layers.

    Parameters
    ----------
    estimator : estimator
        A differentiable model.
    {gradient_output_params}

    {gradient_attributes}

    References
    ----------
    .. [1] S. Bach, A. Binder, G. Montavon, F. Klauschen, K.-R. Müller and
       W. Samek, "On Pixel-Wise Explanations for Non-Linear Classifier
       Decisions by Layer-Wise Relevance Propagation", PLOS ONE 10(7), 2015.

    Examples
    --------
    {gradient_example}
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

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        # Captum's LRP gives a rule to each leaf module by its exact type and
        # raises a TypeError at attribution time for any other leaf (the
        # _LRP_AFFINE layers, subclasses too, get a rule in _attribute).
        net, _ = differentiable_model(self.estimator_, explainer="LRP")
        supported = (*_CAPTUM_LRP_RULES, *_CAPTUM_LRP_PASSED, *_LRP_AFFINE)
        unsupported = sorted({
            type(m).__name__ for m in net.module_.modules()
            if next(m.children(), None) is None and not hasattr(m, "rule")
            and type(m) not in supported and not isinstance(m, _LRP_AFFINE)})
        if unsupported:
            raise NotApplicableError(
                f"LRP (Captum's rules) has no rule for the layers {unsupported} of "
                f"{type(net.module_).__name__}; it supports "
                f"{sorted(t.__name__ for t in supported)}. Use a gradient explainer "
                "(Saliency, IntegratedGradients, DeepLift), or AttentionXGradient "
                "for attention networks, or set a Captum rule as the layer's "
                "``rule`` attribute."
            )

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


# ---------------------------------------------------------------------------
# Convolutional nets: the explained layer and the image shape
# ---------------------------------------------------------------------------
def resolve_layer(module, layer, *, explainer):
    """The dotted name and the submodule of ``module`` an image explainer reads.

    ``layer=None`` is the last ``torch.nn.Conv2d`` in ``module.modules()``
    order (registration order); a name is looked up by
    :meth:`torch.nn.Module.get_submodule`.

    Raises
    ------
    NotApplicableError
        If ``layer`` is None and the module has no ``Conv2d`` layer.
    ValueError
        If ``layer`` names no submodule; the message lists the valid names.
    """
    if layer is None:
        convs = [name for name, m in module.named_modules() if isinstance(m, nn.Conv2d)]
        if not convs:
            raise NotApplicableError(
                f"{explainer} needs a convolutional network (a torch.nn.Conv2d "
                f"layer in the module) or layer= naming the layer whose maps it "
                f"reads; {type(module).__name__} has none. Use Saliency, "
                "IntegratedGradients or GuidedBackprop for dense networks."
            )
        return convs[-1], module.get_submodule(convs[-1])
    try:
        return layer, module.get_submodule(layer)
    except AttributeError:
        names = [name for name, _ in module.named_modules() if name]
        raise ValueError(
            f"layer={layer!r} is not a submodule of {type(module).__name__}; "
            f"pass one of {names} (dotted names, as torch.nn.Module.get_submodule "
            "reads them) or None for the last Conv2d."
        ) from None


def module_image_shape(module, image_shape, n_features):
    """The ``(channels, height, width)`` of one flattened input row.

    The module's own ``image_shape`` (``(C, H, W)`` or ``(H, W)``) or
    ``image_size`` (the side of square images) attribute wins, with its
    ``in_channels`` (default 1); otherwise ``image_shape`` (``(C, H, W)`` or
    ``(H, W)``; ``None``: ``in_channels`` square images) is checked against
    ``n_features`` by :func:`~sklearn_xai.utils._images.resolve_image_shape`.
    """
    channels = getattr(module, "in_channels", None)
    channels = int(channels) if isinstance(channels, numbers.Integral) else 1
    own = getattr(module, "image_shape", None)
    size = getattr(module, "image_size", None)
    if own is None and isinstance(size, numbers.Integral):
        own = (channels, size, size)
    shape = own if own is not None else image_shape
    if shape is not None and np.ndim(shape) == 1 and len(shape) == 2 and channels > 1:
        shape = (channels, *shape)
    if shape is None:
        if n_features % channels:
            raise ValueError(
                f"{n_features} features are not {channels} channels of equal size; "
                "pass image_shape=(channels, height, width)."
            )
        shape = (channels, *resolve_image_shape(None, n_features // channels))
    shape = resolve_image_shape(shape, n_features)
    if len(shape) == 2:
        shape = (1, *shape)
    if len(shape) != 3:
        raise ValueError(
            f"image_shape must be (height, width) or (channels, height, width); "
            f"got {image_shape!r}."
        )
    return shape


_GRADIENT_DOC["cam_params"] = """
    layer : str or None, default=None
        Dotted name of the layer whose output maps are used, as
        :meth:`torch.nn.Module.get_submodule` reads it (e.g.
        ``"features.9"``); ``None`` is the last ``torch.nn.Conv2d`` of the
        module.  An unknown name raises a ``ValueError`` listing the valid
        ones.
    image_shape : tuple of int or None, default=None
        ``(channels, height, width)`` or ``(height, width)`` of a flattened
        row (row-major).  A module's own ``image_shape`` or ``image_size``
        (with ``in_channels``) attribute wins; ``None`` otherwise means
        square one-channel images."""


@_gradient_doc("cam_params", references=("selvaraju2017", "springenberg2015"))
class GuidedGradCam(_GradientExplainer):
    """Guided Grad-CAM (Captum ``GuidedGradCam``), convolutional nets only.

    Guided backpropagation times the Grad-CAM map of ``layer`` (by default
    the **last** ``torch.nn.Conv2d`` layer, as :class:`GradCAM` chooses it),
    upsampled (nearest) to the image (as used by XAI-TRIS).
    The flattened input is reshaped to ``(C, H, W)`` images (see
    ``image_shape``).

    Parameters
    ----------
    estimator : estimator
        A differentiable model with at least one ``Conv2d`` layer, e.g.
        ``TetrominoNetClassifier(architecture="cnn")``.
    {cam_params}
    {gradient_output_params}

    {gradient_attributes}
    layer_ : str
        Dotted name of the layer used.
    image_shape_ : tuple of int
        ``(channels, height, width)`` of a row.

    {explainer_references}

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

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "layer": [str, None],
        "image_shape": ["array-like", None],
    }

    def __init__(self, estimator=None, *, layer=None, image_shape=None,
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.layer = layer
        self.image_shape = image_shape
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        net, _ = differentiable_model(self.estimator_, explainer=type(self).__name__)
        self.layer_, _ = resolve_layer(net.module_, self.layer,
                                       explainer=type(self).__name__)
        self.image_shape_ = module_image_shape(net.module_, self.image_shape,
                                               X.shape[1])

    def _model_rows_per_row(self):
        return 2  # guided backpropagation and Grad-CAM

    def _attribute(self, model, inputs, target, rngs):
        layer = model.module.get_submodule(self.layer_)
        images = inputs.reshape(len(inputs), *self.image_shape_)
        A = _CaptumGuidedGradCam(model, layer).attribute(images, target=target)
        return A, 2 * len(inputs)


# ---------------------------------------------------------------------------
# Stochastic gradient methods (noise from the per-row random streams)
# ---------------------------------------------------------------------------
def _leaf(tensor):
    """A fresh input tensor that requires gradients (Captum warns otherwise)."""
    return tensor.detach().requires_grad_()


def _repeat(tensor, k):
    """Repeat each row ``k`` times consecutively."""
    return torch.repeat_interleave(tensor, k, dim=0)


class _NoisyGradientExplainer(_GradientExplainer):
    """Gradient methods that average over random points around the input;
    :meth:`fit` stores ``n_perturbations`` as ``n_perturbations_``."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True
        tags.non_deterministic = self.random_state is None
        return tags

    _count_parameter = "n_perturbations"

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = self.n_perturbations
        super()._fit_explainer(X, y)

    def _model_rows_per_row(self):
        return self.n_perturbations_


@_gradient_doc("gradient_example", "explainer_random_state")
class SmoothGrad(_NoisyGradientExplainer):
    """SmoothGrad: mean gradient under Gaussian input noise.

    ``a = (1/N) Σ_i ∇_x f(x + ε_i)``, ``ε_i ~ N(0, std² I)`` with ``std`` in
    input units (Captum ``NoiseTunnel(Saliency)`` with
    ``nt_type="smoothgrad"``, no absolute value).  The noise of each row comes
    from its own random stream, so a row's attributions do not depend on the
    batch size or on the other rows; all ``N = n_perturbations`` noisy copies
    of a block of rows are differentiated in one pass.
    :class:`NoiseTunnel` applies the same noise around any explainer:
    ``NoiseTunnel(Saliency(abs=abs), n_perturbations=N, stdev=std,
    random_state=r)`` equals this explainer to rounding.

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    n_perturbations : int, default=100
        Noisy copies per row (OpenXAI's code: 100; its paper: 500).
    std : float, default=0.1
        Noise standard deviation (OpenXAI: 0.1 on min-max scaled features).
    abs : bool, default=False
        Average absolute gradients instead.
    {gradient_output_params}
    {explainer_random_state}

    {gradient_attributes}
    n_perturbations_ : int
        The number of noisy copies per row used.

    References
    ----------
    .. [1] D. Smilkov, N. Thorat, B. Kim, F. Viégas and M. Wattenberg,
       "SmoothGrad: removing noise by adding noise", arXiv:1706.03825, 2017.

    Examples
    --------
    {gradient_example}
    >>> from sklearn_xai.explainers import SmoothGrad
    >>> sg = SmoothGrad(FrozenEstimator(net), n_perturbations=20,
    ...                 random_state=0).fit(X)
    >>> bool(np.allclose(sg.transform(X[:4])[2:], sg.transform(X[2:4])))
    True
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
        "std": [Interval(numbers.Real, 0, None, closed="left")],
        "abs": ["boolean"],
    }

    def __init__(self, estimator=None, *, n_perturbations=100, std=0.1, abs=False,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.std = std
        self.abs = abs
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _attribute(self, model, inputs, target, rngs):
        m, d = inputs.shape
        N = self.n_perturbations_
        # Drawn on the model's device: the same numbers on every device.
        noise = _device_normal(rngs, (N, d), inputs.device)
        noise *= self.std
        noisy = _repeat(inputs, N) + noise.reshape(m * N, d).to(inputs.dtype)
        G = _CaptumSaliency(summed_output(model, _repeat(target, N))).attribute(
            _leaf(noisy), abs=bool(self.abs))
        return G.reshape(m, N, d).mean(dim=1), m * N


@_gradient_doc("gradient_example", "explainer_random_state")
class GradientShap(_NoisyGradientExplainer):
    """GradientSHAP: expected gradients between baselines and noisy inputs.

    ``a = E[(x + ε - b) ⊙ ∇f(b + α (x + ε - b))]`` over a baseline ``b``
    drawn uniformly from ``baseline``'s rows, ``α ~ U(0, 1)`` and
    ``ε ~ N(0, std² I)``, estimated with ``n_perturbations`` draws per row (Captum
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
    n_perturbations : int, default=5
        Draws ``(b, α, ε)`` per row.
    std : float, default=0.0
        Standard deviation of the input noise.
    {gradient_output_params}
    {explainer_random_state}

    {gradient_attributes}
    baseline_ : ndarray of shape (n_baselines, n_features)
    n_perturbations_ : int
        The number of draws per row used.

    References
    ----------
    .. [1] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
       Model Predictions", NeurIPS 2017.

    Examples
    --------
    {gradient_example}
    >>> from sklearn_xai.explainers import GradientShap
    >>> gs = GradientShap(FrozenEstimator(net), random_state=0).fit(X)
    >>> gs.transform(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "baseline": [StrOptions({"zero", "mean"}), numbers.Real, "array-like"],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
        "std": [Interval(numbers.Real, 0, None, closed="left")],
    }
    _baseline_many = True

    def __init__(self, estimator=None, *, baseline="zero", n_perturbations=5, std=0.0,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.baseline = baseline
        self.n_perturbations = n_perturbations
        self.std = std
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _attribute(self, model, inputs, target, rngs):
        m, d = inputs.shape
        N = self.n_perturbations_
        device = inputs.device
        B = torch.as_tensor(self.baseline_, dtype=torch.float64, device=device)
        # One stream per kind of draw: baseline rows, path positions, noise;
        # drawn on the model's device (the same numbers on every device), the
        # path arithmetic in float64 there.
        idx = rngs.integers(len(B), N, stream=1, device=device).reshape(m * N)
        alpha = rngs.uniform(N, stream=2, device=device).reshape(m * N, 1)
        X = _repeat(inputs.detach().to(torch.float64), N)
        if self.std:
            X += self.std * _device_normal(rngs, (N, d), device).reshape(m * N, d)
        base = B[idx]
        delta = X - base
        points = (base + alpha * delta).to(inputs.dtype)
        G = _CaptumSaliency(summed_output(model, _repeat(target, N))).attribute(
            _leaf(points), abs=False)
        A = G.detach().to(torch.float64) * delta
        return A.reshape(m, N, d).mean(dim=1), m * N


@_gradient_doc("gradient_example", "explainer_random_state",
               references=("erion2021", "sundararajan2017"))
class ExpectedGradients(GradientShap):
    """Expected Gradients: integrated gradients averaged over training baselines.

    ``EG_j(x) = E_{b ~ D, α ~ U(0, 1)}[(x_j - b_j) ∂_j f(b + α (x - b))]``:
    the integrated gradients of ``x`` from a baseline ``b`` drawn from the
    data ``D`` (the rows ``fit`` saw), averaged over baselines, with each
    path integral estimated by one uniformly drawn point ``α`` (Erion et
    al. 2021).  This is :class:`GradientShap`'s definition: the class is
    ``GradientShap`` with the Expected-Gradients defaults, ``baseline="train"``
    (every ``fit`` row, drawn uniformly with replacement) and no input
    noise; any other ``baseline`` or ``std`` gives ``GradientShap`` exactly
    (same draws from the same per-row random streams).  For a linear
    model ``f(x) = w·x + c`` every draw gives ``(x - b) ⊙ w``, so the
    attributions converge to ``(x - E[b]) ⊙ w``, the integrated gradients
    from the data mean.

    Parameters
    ----------
    estimator : estimator
        A differentiable model (see :func:`differentiable_model`).
    baseline : "train", "zero", "mean", float or array-like of shape \
(n_features,) or (n_baselines, n_features), default="train"
        Baseline distribution: the rows given to ``fit`` (``"train"``), or
        as in :class:`GradientShap`.
    n_perturbations : int, default=50
        Draws ``(b, α)`` per row; an explained row costs that many model
        rows.
    std : float, default=0.0
        Standard deviation of GradientSHAP's input noise (Expected
        Gradients has none).
    {gradient_output_params}
    {explainer_random_state}

    {gradient_attributes}
    baseline_ : ndarray of shape (n_baselines, n_features)
        The baseline rows (a copy of the ``fit`` rows for ``"train"``).
    n_perturbations_ : int
        The number of draws per row used.

    {explainer_references}

    Examples
    --------
    {gradient_example}
    >>> from sklearn_xai.explainers import ExpectedGradients
    >>> eg = ExpectedGradients(FrozenEstimator(net), random_state=0).fit(X)
    >>> eg.baseline_.shape
    (100, 2)
    >>> eg.transform(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints = {
        **GradientShap._parameter_constraints,
        "baseline": [StrOptions({"train", "zero", "mean"}), numbers.Real, "array-like"],
    }

    def __init__(self, estimator=None, *, baseline="train", n_perturbations=50,
                 std=0.0, target="predicted", output="auto", batch_size=None,
                 random_state=None):
        super().__init__(estimator, baseline=baseline, n_perturbations=n_perturbations,
                         std=std, target=target, output=output,
                         batch_size=batch_size, random_state=random_state)


@_gradient_doc("gradient_example", "explainer_random_state")
class DeepLiftShap(_GradientExplainer):
    """DeepSHAP: DeepLIFT averaged over background rows (Captum ``DeepLiftShap``).

    ``a(x) = (1/B) Σ_b DeepLIFT(x; b)`` over ``B`` baseline rows, by
    default training rows: the DeepSHAP approximation of SHAP values with an
    interventional background (Lundberg and Lee 2017), as XAI-TRIS runs it.
    Like DeepLIFT's Rescale rule it sums to ``f(x) - (1/B) Σ_b f(b)`` on
    ReLU networks when the explained output is the decision score (the
    softmax of ``output="proba"`` is differentiated as a function, as in
    :class:`DeepLift`).  The background is drawn once at ``fit`` (with
    ``random_state``), so the attributions are deterministic.

    Parameters
    ----------
    estimator : estimator
        A differentiable model whose nonlinearities are ``torch.nn`` modules.
    baseline : "train", "zero", "mean", float or array-like of shape \
(n_features,) or (n_baselines, n_features), default="train"
        The background: ``"train"`` draws ``max_baselines`` training rows
        (all rows when there are fewer) without replacement, the other
        values are as in :class:`GradientShap`.
    max_baselines : int, default=20
        Background size for ``baseline="train"``; an explained row costs
        ``2 * n_baselines`` model rows.
    multiply_by_inputs : bool, default=True
        ``False`` returns the averaged multipliers only.
    {gradient_output_params}
    {explainer_random_state}

    {gradient_attributes}
    baseline_ : ndarray of shape (n_baselines, n_features)
        The background rows.

    References
    ----------
    .. [1] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
       Model Predictions", NeurIPS 2017.
    .. [2] A. Shrikumar, P. Greenside and A. Kundaje, "Learning Important
       Features Through Propagating Activation Differences", ICML 2017.

    Examples
    --------
    {gradient_example}
    >>> from sklearn_xai.explainers import DeepLiftShap
    >>> ex = DeepLiftShap(FrozenEstimator(net), output="decision", target=1,
    ...                   random_state=0).fit(X)
    >>> A = ex.transform(X[:2])
    >>> f = net.decision_function(np.vstack([X[:2], ex.baseline_]))
    >>> bool(np.allclose(A.sum(axis=1), f[:2] - f[2:].mean(), atol=1e-4))
    True
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "baseline": [StrOptions({"train", "zero", "mean"}), numbers.Real, "array-like"],
        "max_baselines": [Interval(numbers.Integral, 1, None, closed="left")],
        "multiply_by_inputs": ["boolean"],
    }
    _baseline_many = True

    def __init__(self, estimator=None, *, baseline="train", max_baselines=20,
                 multiply_by_inputs=True, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.baseline = baseline
        self.max_baselines = max_baselines
        self.multiply_by_inputs = multiply_by_inputs
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _fit_explainer(self, X, y):
        if isinstance(self.baseline, str) and self.baseline == "train":
            differentiable_model(self.estimator_, explainer=type(self).__name__)
            if len(X) <= self.max_baselines:
                self.baseline_ = np.array(X, dtype=np.float64)
            else:
                rng = purpose_generator(self.random_state, 0)
                rows = np.sort(rng.choice(len(X), size=self.max_baselines, replace=False))
                self.baseline_ = np.array(X[rows], dtype=np.float64)
            return
        super()._fit_explainer(X, y)

    def _model_rows_per_row(self):
        return 2 * len(self.baseline_)

    def _attribute(self, model, inputs, target, rngs):
        B = torch.as_tensor(self.baseline_, dtype=inputs.dtype, device=inputs.device)
        if len(B) == 1:  # Captum's DeepLiftShap needs two baselines or more
            dl = _CaptumDeepLift(model, multiply_by_inputs=self.multiply_by_inputs)
            A = dl.attribute(inputs, baselines=B.expand(len(inputs), -1).contiguous(),
                             target=target)
        else:
            dls = _CaptumDeepLiftShap(model, multiply_by_inputs=self.multiply_by_inputs)
            A = dls.attribute(inputs, baselines=B, target=target)
        return A, 2 * len(B) * len(inputs)
