"""Explainers of token-id matrices: LIME over tokens and embedding gradients.

A text batch is a float matrix of token ids ``(n_samples, max_len)``, padded
with the PAD id (see :class:`sklearn_xai.datasets.TokenCodec`); the
attributions have one column per token position, and padding positions get
exactly 0.  Occlusion (leave-one-out) and KernelSHAP over tokens are the
ordinary :class:`~sklearn_xai.explainers.FeatureAblation` and
:class:`~sklearn_xai.explainers.KernelSHAP` with a
:class:`~sklearn_xai.masking.TokenMasker`; this module adds

* :class:`TextLIME`, ``lime``'s ``LimeTextExplainer`` on positions: it
  samples binary keep/remove masks of the row's tokens (never Gaussian
  values, which mean nothing on ids) and weights them by their cosine
  distance to the full text;
* :class:`EmbeddingAttribution`, Saliency, InputXGradient and integrated
  gradients at the embedding layer of a torch text model (Captum's layer
  methods), summed over the embedding dimensions of each token.
"""

import numbers
import warnings

import numpy as np
import torch
from captum.attr import LayerGradientXActivation, LayerIntegratedGradients

from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._gradients import _GradientExplainer
from sklearn_xai.explainers._lime import _check_perturbations
from sklearn_xai.explainers._masker_based import _MaskerExplainer
from sklearn_xai.explainers._surrogate import (
    evaluate_block,
    lime_kernel,
    weighted_ridge,
)
from sklearn_xai.explainers._torch import summed_output
from sklearn_xai.masking import TokenMasker
from sklearn_xai.utils._exceptions import NotApplicableError
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["EmbeddingAttribution", "TextLIME"]


@explainer_doc("explainer_output_params", "masker_attributes", "input_attributes",
               references=("ribeiro2016",))
class TextLIME(_MaskerExplainer):
    """LIME over the tokens of a text (``lime``'s ``LimeTextExplainer``).

    For a row with ``d`` tokens (its non-PAD positions), the first sample
    keeps every token; each of the other ``n_perturbations - 1`` removes
    ``r ~ U{1, ..., d}`` tokens chosen uniformly (``masker`` says what a
    removed token becomes: ``[MASK]`` by default, PAD to delete it).  A
    sample keeping ``k`` tokens lies at the cosine distance ``D = 100 (1 -
    sqrt(k / d))`` from the full text and weighs ``sqrt(exp(-D**2 /
    kernel_width**2))``; a ridge regression with intercept (``alpha``) of
    the explained output on the binary keep-vectors gives the attributions.
    As ``lime`` with ``bow=False``, a feature is a token *position*, not a
    word type.  PAD positions are no feature: their attribution is 0.

    Why not :class:`LimeTabular` or :class:`CaptumLime`: the first samples
    Gaussian feature values, meaningless on token ids; the second samples
    binary masks too, but weighs them by a distance between id vectors and
    replaces the padding as well.

    Parameters
    ----------
    estimator : estimator
        A model of token-id matrices (``FrozenEstimator(model)`` for a
        fitted one), e.g. :class:`sklearn_xai.models.TokenIdClassifier`.
    n_perturbations : int, default=1000
        Samples per row (``num_samples`` of ``lime``, whose default is 5000).
    kernel_width : float, default=25
        ``lime``'s text kernel width.
    alpha : float, default=1.0
        Ridge penalty (``lime``'s ``Ridge(alpha=1)``); 0 for least squares.
    masker : TokenMasker or masker, default=None
        How a removed token is replaced; ``None`` is ``TokenMasker("mask")``.
    pad_id : int, default=0
        Positions holding this id are padding.
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row samples.

    Attributes
    ----------
    {masker_attributes}
    {input_attributes}

    {explainer_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import TextLIME
    >>> X = np.random.default_rng(0).integers(3, 9, size=(20, 4)).astype(float)
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0, 4.0])
    >>> ex = TextLIME(FrozenEstimator(model), alpha=0.0, n_perturbations=200,
    ...               random_state=0)
    >>> x = np.array([[3.0, 4.0, 5.0, 0.0]])  # three tokens and one PAD
    >>> ex.fit(X).transform(x).round(6)  # w_j (x_j - 1): [MASK] has id 1
    array([[ 2.,  6., 12.,  0.]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 2, None, closed="left")],
        "kernel_width": [Interval(numbers.Real, 0, None, closed="neither")],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, estimator=None, *, n_perturbations=1000, kernel_width=25.0,
                 alpha=1.0, masker=None, pad_id=0, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.kernel_width = kernel_width
        self.alpha = alpha
        self.masker = masker
        self.pad_id = pad_id
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True  # it samples its coalitions
        tags.non_deterministic = self.random_state is None
        return tags

    def _default_masker(self):
        return TokenMasker("mask", pad_id=self.pad_id)

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        _check_perturbations(self.n_perturbations, X.shape[1])
        self.n_perturbations_ = self.n_perturbations

    def _keep(self, rng, real):
        """Keep-masks (S, L) of one row whose tokens are ``real`` (L,)."""
        S, L = self.n_perturbations_, real.size
        d = int(real.sum())
        keep = np.ones((S, L), dtype=bool)
        if d == 0:
            return keep
        removed = rng.integers(1, d + 1, size=S - 1)
        keys = rng.random((S - 1, L))
        keys[:, ~real] = np.inf  # padding is never drawn
        rank = np.argsort(np.argsort(keys, axis=1), axis=1)
        keep[1:] = rank >= removed[:, None]
        return keep

    def _explain(self, X, f, target_index, rngs):
        n, L = X.shape
        S = self.n_perturbations_
        A = np.zeros((n, L))
        for block in block_slices(n, S, L, self.batch_size, f.device):
            Xb = X[block]
            real = Xb != self.pad_id
            keep = np.stack([self._keep(rng, r) for rng, r in
                             zip(rngs[block].generators(), real)])
            Z = self.masker_.impute(Xb, keep, rngs=rngs[block]).mean(axis=2)
            y = evaluate_block(f, Z, target_index, block)
            d = real.sum(axis=1, keepdims=True)
            k = (keep & real[:, None, :]).sum(axis=2)
            dist = 100.0 * (1.0 - np.sqrt(k / np.maximum(d, 1)))
            w = lime_kernel(dist**2, self.kernel_width)
            coef, _ = weighted_ridge(keep.astype(np.float64), y, w, self.alpha)
            A[block] = np.where(real, coef, 0.0)
        return A


_LAYER_METHODS = ("saliency", "input_x_gradient", "integrated_gradients")


@explainer_doc("input_attributes", references=("sundararajan2017",))
class EmbeddingAttribution(_GradientExplainer):
    """Gradient attributions at the embedding layer, summed per token.

    For a torch text model (a skorch net such as
    :class:`sklearn_xai.models.TextNetClassifier`) whose module has an
    embedding layer ``module_.<layer>`` mapping token ids to vectors
    ``e_j``, with ``g_j = ∂f / ∂e_j``:

    * ``"saliency"``: ``a_j = sum_k |g_jk|`` (Captum's ``Saliency`` on the
      embeddings, summed);
    * ``"input_x_gradient"``: ``a_j = e_j · g_j``;
    * ``"integrated_gradients"``: ``a_j = (e_j - e'_j) · ∫_0^1 g_j(e' + t (e
      - e')) dt`` with ``e'`` the embedding of the baseline text
      (Captum's ``LayerIntegratedGradients``), so ``sum_j a_j ≈ f(x) - f(x')``.

    The baseline text ``x'`` is all PAD (``baseline="pad"``), or the row
    with every token replaced by ``[MASK]`` and its padding kept
    (``baseline="mask"``); only its embeddings enter the path, so whatever
    the module derives from the ids themselves (the transformer's attention
    mask over PAD) stays that of ``x``, as in layer attributions of
    Hugging Face models.  Padding positions get 0.

    Parameters
    ----------
    estimator : estimator
        A differentiable text model (``FrozenEstimator(net)`` for a fitted one).
    method : {"saliency", "input_x_gradient", "integrated_gradients"}, \
default="integrated_gradients"
    baseline : {"pad", "mask"}, default="pad"
        The integrated gradients' baseline text.
    n_steps : int, default=50
        Quadrature points of the integrated gradients.
    layer : str, default="embedding"
        Name of the embedding layer, an attribute of the net's ``module_``.
    pad_id : int, default=0
    mask_id : int, default=1
    target : "predicted", "true", int or array-like, default="predicted"
        The explained class (see :ref:`def-explained-output`).
    output : {"auto", "proba", "decision"}, default="auto"
        The explained output (probability or logit).
    batch_size : int or None, default=None
        Maximum number of model rows per Captum call.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    {input_attributes}

    {explainer_references}

    Examples
    --------
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn_xai.datasets import make_text_classification
    >>> from sklearn_xai.explainers import EmbeddingAttribution
    >>> from sklearn_xai.models import TextNetClassifier
    >>> data = make_text_classification(100, random_state=0)
    >>> net = TextNetClassifier(max_epochs=2, random_state=0).fit(data.data,
    ...                                                           data.target)
    >>> ex = EmbeddingAttribution(FrozenEstimator(net)).fit(data.data)
    >>> A = ex.transform(data.data[:3])
    >>> A.shape, bool((A[data.data[:3] == 0] == 0).all())
    ((3, 16), True)
    """

    _parameter_constraints = {
        **_GradientExplainer._parameter_constraints,
        "method": [StrOptions(set(_LAYER_METHODS))],
        "baseline": [StrOptions({"pad", "mask"})],
        "n_steps": [Interval(numbers.Integral, 1, None, closed="left")],
        "layer": [str],
        "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
        "mask_id": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, estimator=None, *, method="integrated_gradients", baseline="pad",
                 n_steps=50, layer="embedding", pad_id=0, mask_id=1,
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.method = method
        self.baseline = baseline
        self.n_steps = n_steps
        self.layer = layer
        self.pad_id = pad_id
        self.mask_id = mask_id
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        # The baseline is a text, resolved per row: not _check_baseline's vectors.
        from sklearn_xai.explainers._torch import differentiable_model

        net, _ = differentiable_model(self.estimator_, explainer=type(self).__name__)
        if not isinstance(getattr(net.module_, self.layer, None), torch.nn.Module):
            # Not applicable (skipped by the runner), as a gradient explainer
            # on a tree: the model has no embedding layer of that name.
            raise NotApplicableError(
                f"{type(self).__name__}: layer={self.layer!r} names no layer of the "
                f"net's module ({type(net.module_).__name__}); pass the attribute name "
                "of its embedding layer (a text net: TextNetClassifier). "
                + model_agnostic_hint()
            )

    def _model_rows_per_row(self):
        return self.n_steps if self.method == "integrated_gradients" else 1

    def _attribute(self, model, inputs, target, rngs):
        layer = getattr(model.module, self.layer)
        forward = summed_output(model, target)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning)
            if self.method == "integrated_gradients":
                pad = inputs == self.pad_id
                fill = self.pad_id if self.baseline == "pad" else self.mask_id
                base = torch.where(pad, inputs.detach(),
                                   torch.full_like(inputs, float(fill)))
                A = LayerIntegratedGradients(forward, layer).attribute(
                    inputs, baselines=base, n_steps=self.n_steps)
                n_rows = len(inputs) * self.n_steps
            else:
                A = LayerGradientXActivation(
                    forward, layer,
                    multiply_by_inputs=self.method == "input_x_gradient",
                ).attribute(inputs)
                if self.method == "saliency":
                    A = A.abs()
                n_rows = len(inputs)
        A = A.reshape(A.shape[0], inputs.shape[1], -1).sum(dim=2)
        return torch.where(inputs == self.pad_id, torch.zeros_like(A), A), n_rows
