"""Layer-wise relevance propagation rules and deep Taylor decomposition.

zennit (Anders et al. 2021), the maintained library of these rules, pins a
torch and a torchvision that our environment cannot take (``pip install
zennit`` replaces torch 2.13 by another release and pulls torchvision), so
the rules are written here, for dense and convolutional ReLU networks, in
float64 (numpy, and torch's transposed convolution), from the definitions of
Montavon et al. (2019).  Captum's single epsilon rule stays available as
:class:`~sklearn_xai.explainers.LRP`.

A network is a chain of layers (see :mod:`sklearn_xai.explainers._chain`),
or a graph of them (a residual network, read with ``torch.fx`` by
:mod:`sklearn_xai.explainers._lrp_graph`):
weighted layers ``z = a W^T + b`` (``Linear``; ``Conv2d``, where ``a W^T`` is
the convolution and ``s W`` below its transpose, batched over rows), ReLUs,
max and average pooling, reshapes, with batch normalisations and the scalers
of a Pipeline folded into the weighted layers.  The relevance ``R`` of the
explained score (the decision score of the target class, or the prediction
of a regressor) is passed from the output to the input, layer by layer, with
``stab(z) = z + eps * sign(z)`` (``sign(0) = 1``); the rules of weighted
layers are:

``epsilon``
    ``R_in = a * ((R / stab(a W^T + b)) W)``.
``gamma``
    As ``epsilon`` with ``W + gamma W^+`` and ``b + gamma b^+`` (positive
    contributions favoured).
``alpha_beta``
    ``R_in = alpha * P - beta * N``, the positive contributions
    ``a^+ W^+ + a^- W^-`` (and ``b^+``) and the negative ones
    ``a^+ W^- + a^- W^+`` (and ``b^-``) each normalised by their own sum.
``z_plus``
    Positive contributions ``a^+ W^+ + a^- W^-`` only, bias ignored
    (``alpha_beta`` with ``alpha=1, beta=0`` and no bias): conserves
    relevance exactly.
``w_square`` (input layer)
    ``R_in = (R / stab(1 W^2)) W^2``, independent of the input (the deep
    Taylor root point of unbounded inputs).
``flat`` (input layer)
    As ``w_square`` with all weights 1 (relevance spread uniformly over
    the inputs a unit sees: a filter's receptive field for a convolution,
    as zennit's ``Flat``).
``z_box`` (input layer)
    ``R_in = x * (s W) - l * (s W^+) - h * (s W^-)`` with
    ``s = R / stab(x W^T - l W^{+T} - h W^{-T})``: the deep Taylor root
    point of inputs bounded in ``[l, h]``.

The input rule applies to the first weighted layer.  Layers without weights:
a ReLU passes the relevance on unchanged; **max pooling** gives each window's
relevance to the position of its maximum (winner-take-all, as zennit and
iNNvestigate do: Captum's epsilon rule on the max gives it ``R z / (z +
eps)``); **average pooling** shares it in proportion to the contributions
(the z-rule, stabilised by ``epsilon``).  A **residual sum** ``a + b``
splits the relevance of its output between the summands in proportion to
their values, ``R_a = a R / stab(a + b)`` (the z-rule of a sum node, Montavon
et al. 2019: with ``epsilon -> 0`` it conserves the relevance), and the
relevance a layer's output receives from several readers (a residual branch
and the skip connection) is summed (:meth:`LayerChain.backward`).
"""

import numbers

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._chain import layer_chain
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._lrp_graph import layer_graph
from sklearn_xai.explainers._torch import differentiable_model
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._validation import check_feature_vector

__all__ = ["CompositeLRP", "DeepTaylor", "propagate_relevance"]

LAYER_RULES = ("epsilon", "gamma", "alpha_beta", "z_plus")
INPUT_RULES = (*LAYER_RULES, "w_square", "flat", "z_box")


def _stabilize(z, eps):
    return z + eps * np.where(z >= 0, 1.0, -1.0)


def _pos(A):
    return np.maximum(A, 0.0)


def _neg(A):
    return np.minimum(A, 0.0)


def _layer_relevance(rule, layer, a, R, *, epsilon, gamma, alpha, beta, low, high):
    """Relevance of a weighted layer's inputs ``a`` (n, *in_shape) from that of
    its outputs ``R`` (n, *out_shape).  ``layer.apply(a, V)`` is the layer's
    linear part with weights ``V`` (``a @ V.T`` for a dense layer, a
    convolution), ``layer.transpose(s, V)`` its transpose (``s @ V``, a
    transposed convolution)."""
    W, b = layer.weight, layer.bias
    fwd, bwd = layer.apply, layer.transpose
    if rule == "epsilon":
        s = R / _stabilize(fwd(a, W) + b, epsilon)
        return a * bwd(s, W)
    if rule == "gamma":
        Wg, bg = W + gamma * _pos(W), b + gamma * _pos(b)
        s = R / _stabilize(fwd(a, Wg) + bg, epsilon)
        return a * bwd(s, Wg)
    if rule in ("alpha_beta", "z_plus"):
        ap, an = _pos(a), _neg(a)
        Wp, Wn = _pos(W), _neg(W)
        bias = rule == "alpha_beta"
        zp = fwd(ap, Wp) + fwd(an, Wn) + (_pos(b) if bias else 0.0)
        sp = R / _stabilize(zp, epsilon)
        Rp = ap * bwd(sp, Wp) + an * bwd(sp, Wn)
        if rule == "z_plus":
            return Rp
        zn = fwd(ap, Wn) + fwd(an, Wp) + _neg(b)
        sn = R / _stabilize(zn, epsilon)
        Rn = ap * bwd(sn, Wn) + an * bwd(sn, Wp)
        return alpha * Rp - beta * Rn
    if rule in ("w_square", "flat"):
        V = W * W if rule == "w_square" else np.ones_like(W)
        s = R / _stabilize(layer.weight_sums(V), epsilon)
        return bwd(s, V)
    # z_box
    Wp, Wn = _pos(W), _neg(W)
    z = fwd(a, W) - fwd(low, Wp) - fwd(high, Wn)
    s = R / _stabilize(z, epsilon)
    return a * bwd(s, W) - low * bwd(s, Wp) - high * bwd(s, Wn)


def _unweighted_relevance(layer, a, R, epsilon):
    """Relevance through a layer without weights: a reshape passes it on, max
    pooling gives it to the maximum of each window (winner-take-all), average
    pooling (and a global mean) in proportion to the contributions (the
    z-rule, stabilised by ``epsilon``); a residual sum ``a_1 + a_2`` splits
    it between its summands in proportion to their values, ``R_k = a_k R /
    stab(a_1 + a_2)`` (the z-rule of a sum, Montavon et al. 2019)."""
    if isinstance(a, tuple):  # a sum of several inputs
        s = R / _stabilize(layer.forward(a), epsilon)
        return tuple(part * s for part in a)
    if layer.proportional:  # average pooling
        s = R / _stabilize(layer.forward(a), epsilon)
        return a * layer.transpose(s, a)
    return layer.transpose(R, a)


def _input_bounds(chain, first, bound):
    """A bound of the raw features mapped to the input of layer ``first``
    (through the reshapes and poolings before it, which are monotone)."""
    if first == 0:
        return bound
    return chain.forward(bound[None])[0][first]


def propagate_relevance(chain, X, target, *, rule="epsilon", input_rule=None,
                        conv_rule=None, epsilon=1e-6, gamma=0.25, alpha=2.0, beta=1.0,
                        low=None, high=None):
    """Relevance of the inputs of a ReLU layer chain (see the module docstring).

    Parameters
    ----------
    chain : LayerChain
    X : ndarray of shape (n, n_features)
    target : ndarray of int of shape (n,)
        Explained output column per row.
    rule : str, default="epsilon"
        Rule of every weighted layer but the first (:data:`LAYER_RULES`).
    input_rule : str or None, default=None
        Rule of the first weighted layer (:data:`INPUT_RULES`); ``None``:
        ``rule``.
    conv_rule : str or None, default=None
        Rule of the convolutions (but the first weighted layer when
        ``input_rule`` is set) (:data:`LAYER_RULES`); ``None``: ``rule``.
    epsilon, gamma, alpha, beta : float
        Parameters of the rules (``epsilon`` stabilises every denominator).
    low, high : ndarray of shape (n_features,) or None
        Input bounds of ``z_box``.

    Returns
    -------
    relevance : ndarray of shape (n, n_features)
        The input relevance; the relevance started from is the explained
        score ``chain.forward(X)[1][-1][i, target[i]]``.
    """
    inputs, pre = chain.forward(X)
    n = len(X)
    R = np.zeros_like(pre[-1])
    rows = np.arange(n)
    R[rows, target] = pre[-1][rows, target]
    first = chain.weighted[0]
    if low is not None:
        low, high = _input_bounds(chain, first, low), _input_bounds(chain, first, high)
    kw = dict(epsilon=epsilon, gamma=gamma, alpha=alpha, beta=beta, low=low, high=high)

    def step(index, R):
        layer = chain.layers[index]
        if not layer.weighted:
            return _unweighted_relevance(layer, inputs[index], R, epsilon)
        if index == first and input_rule is not None:
            this = input_rule
        elif conv_rule is not None and layer.convolution:
            this = conv_rule
        else:
            this = rule
        return _layer_relevance(this, layer, inputs[index], R, **kw)

    return chain.backward(R, step)


class _RelevanceExplainer(BaseExplainer):
    """Explainers that walk a ReLU layer chain built at fit time."""

    _parameter_constraints = {**BaseExplainer._parameter_constraints}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.model_agnostic = False
        tags.explainer_tags.differentiable = True
        return tags

    def _chain_output(self):
        f = self._output()
        if f.output == "predict" and f.is_classifier:
            raise ValueError(
                "output='predict' explains the predicted labels of a classifier, "
                "which have no relevance; use output='decision' (or 'proba', "
                f"which {type(self).__name__} explains through the decision "
                "scores)."
            )
        return f.output

    def _fit_explainer(self, X, y):
        name = type(self).__name__
        differentiable_model(self.estimator_, explainer=name)
        output = self._chain_output()
        try:
            self.chain_ = layer_chain(self.estimator_, output, X, explainer=name)
        except NotApplicableError as chain_error:
            # Not a plain sequence of layers: read the module's torch.fx graph
            # (residual sums, functional ReLUs, Conv1d, global pooling).
            try:
                self.chain_ = layer_graph(self.estimator_, output, X, explainer=name)
            except NotApplicableError as graph_error:
                if "scalers in front" in str(graph_error):
                    raise chain_error from None
                raise graph_error from None
        self.n_layers_ = len(self.chain_.weighted)

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        out = np.empty((n, d))
        t = np.zeros(n, dtype=np.intp) if target_index is None else target_index
        width = max(d, self.chain_.conv_row_entries())
        for block in block_slices(n, 1, width, self.batch_size):
            out[block] = self._relevance(X[block], t[block])
            f.n_evaluations += len(X[block])
            f.n_calls += 1
        return out


def _bounds(value, X, name, reduce):
    if isinstance(value, str):
        return reduce(X, axis=0)
    return np.broadcast_to(check_feature_vector(value, X.shape[1], name),
                           (X.shape[1],)).astype(np.float64)


_LRP_DOC = {
    "lrp_scope": """
        The explained score is the decision score of the target class (the
        logit, ``±(z_1 - z_0)`` for two classes) or the prediction of a
        regressor: the softmax is not propagated through, so
        ``output="proba"`` and ``output="decision"`` give the same
        attributions.  Supported models: dense and convolutional ReLU
        networks, plain or residual.  A module whose ``forward`` applies, in
        order, ``torch.nn.Linear``, ``Conv2d`` (any stride, padding and
        dilation, zero padding, ``groups=1``), ``MaxPool2d``,
        ``AvgPool2d``, ``ReLU``, ``Dropout``, ``BatchNorm1d`` /
        ``BatchNorm2d`` layers and reshapes (the skorch MLPs, logistic nets
        and XAI-TRIS's CNN :class:`~sklearn_xai.models.TetrominoCNN` of
        :mod:`sklearn_xai.models`), scikit-learn ``MLPClassifier`` /
        ``MLPRegressor`` with ``activation="relu"`` or ``"identity"`` and
        linear models, after affine scalers in a Pipeline (dense networks
        only), is read as a chain of layers; any other module is read as a
        graph from its ``torch.fx`` symbolic trace, which adds residual sums
        ``a + b``, functional ReLUs (``F.relu``, ``torch.relu``),
        ``Conv1d``, ``MaxPool1d`` / ``AvgPool1d``, ``AdaptiveAvgPool1d`` /
        ``2d`` and the global mean over the spatial axes (a ResNet-like CNN,
        :class:`~sklearn_xai.models.TimeSeriesCNN`; see
        :mod:`sklearn_xai.explainers._lrp_graph`).  Batch normalisations are
        folded into the ``Linear`` or convolution before them.  The layers
        are checked at ``fit`` to reproduce the model's output; other
        models (attention, tanh or sigmoid activations, products of
        tensors, reflect padding) raise a ``NotApplicableError`` (a
        ``TypeError``) naming the operation.  Max pooling passes relevance
        to each window's maximum (winner-take-all), average pooling in
        proportion to the contributions; a residual sum splits the
        relevance between its two summands in proportion to their values,
        ``R_a = a R / (a + b)`` (epsilon-stabilised; the z-rule of a sum,
        Montavon et al. 2019), and the pattern explainers pass the
        back-projected signal to both summands, as the gradient does.""",
    "lrp_estimator": """
        estimator : estimator
            A dense or convolutional ReLU network (see above);
            ``FrozenEstimator(model)`` for a fitted one.""",
    # The Attributes section of the LRP explainers.
    "lrp_attributes": """
        Attributes
        ----------
        estimator_ : estimator
            The fitted model.
        chain_ : LayerChain
            The model as float64 layers (weights folded with the scalers
            and batch normalisations); ``chain_.parents`` gives the layers
            each one reads (a graph for a residual network).
        n_layers_ : int
            Number of weighted layers (``Linear``, ``Conv1d`` and
            ``Conv2d``).
        low_, high_ : ndarray of shape (n_features,)
            The bounds of the ``"z_box"`` rule (training minimum and maximum
            by default).
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names.""",
    "lrp_example": """
        >>> import numpy as np
        >>> from sklearn.frozen import FrozenEstimator
        >>> from sklearn.neural_network import MLPRegressor
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 3))
        >>> y = np.maximum(X[:, 0], 0) + X[:, 1]
        >>> mlp = MLPRegressor(hidden_layer_sizes=(8,), max_iter=300, random_state=0).fit(X, y)""",
    "lrp_bounds": """
        low, high : "min" / "max", float or array-like of shape (n_features,), \
default="min" / "max"
            Input bounds of the ``"z_box"`` rule: the training minimum and
            maximum of each feature, a number, or one value per feature.""",
}


def _lrp_doc(*names):
    own = [name for name in names if name in _LRP_DOC]
    shared = [name for name in names if name not in _LRP_DOC]
    return explainer_doc("explainer_output_params", *shared,
                         **{name: _LRP_DOC[name] for name in own})


_RULE_PARAMS = {
    "epsilon": [Interval(numbers.Real, 0, None, closed="left")],
    "gamma": [Interval(numbers.Real, 0, None, closed="left")],
    "alpha": [Interval(numbers.Real, 1, None, closed="left")],
    "beta": [Interval(numbers.Real, 0, None, closed="left")],
    "low": [StrOptions({"min"}), numbers.Real, "array-like"],
    "high": [StrOptions({"max"}), numbers.Real, "array-like"],
}


@_lrp_doc("lrp_scope", "lrp_estimator", "lrp_attributes", "lrp_example", "lrp_bounds")
class CompositeLRP(_RelevanceExplainer):
    """Layer-wise relevance propagation with a composite of rules.

    One rule for the dense hidden and output layers (``rule``), one for the
    convolutions (``conv_rule``) and one for the input layer
    (``input_rule``), the way zennit's composites assign them: zennit's
    ``EpsilonGammaBox`` is ``rule="epsilon", conv_rule="gamma",
    input_rule="z_box"``, ``EpsilonPlus`` is ``rule="epsilon",
    conv_rule="z_plus", input_rule="z_plus"`` on a CNN, and
    ``EpsilonAlpha2Beta1`` ``rule="epsilon", conv_rule="alpha_beta",
    input_rule="alpha_beta"`` (on a dense network all three reduce to
    ``rule="epsilon"``, with ``input_rule="z_box"`` for the first);
    ``rule="alpha_beta"`` with ``alpha=2, beta=1`` is LRP-α2β1 of Bach et
    al. (2015).  The rules (see :mod:`sklearn_xai.explainers._lrp`) follow
    Montavon et al. (2019); ``rule="epsilon"`` with ``epsilon=1e-9`` is
    Captum's :class:`~sklearn_xai.explainers.LRP`.
    {lrp_scope}

    Parameters
    ----------
    {lrp_estimator}
    rule : {"epsilon", "gamma", "alpha_beta", "z_plus"}, default="epsilon"
        Rule of every weighted layer but the input layer (and the
        convolutions when ``conv_rule`` is set).
    input_rule : {"epsilon", "gamma", "alpha_beta", "z_plus", "w_square", \
"flat", "z_box"} or None, default=None
        Rule of the input layer (the first ``Linear`` or ``Conv2d``);
        ``None`` uses ``rule`` (or ``conv_rule``).
    conv_rule : {"epsilon", "gamma", "alpha_beta", "z_plus"} or None, \
default=None
        Rule of the ``Conv2d`` layers (but the input layer when
        ``input_rule`` is set); ``None`` uses ``rule``.
    epsilon : float, default=1e-6
        Stabiliser of every denominator (the ε of the epsilon rule).
    gamma : float, default=0.25
        Weight of the positive parameters in the gamma rule.
    alpha : float, default=2.0
    beta : float, default=1.0
        Weights of the positive and negative contributions (alpha-beta rule;
        conservation needs ``alpha - beta = 1``).
    {lrp_bounds}
    {explainer_output_params}

    {lrp_attributes}

    References
    ----------
    .. [1] S. Bach, A. Binder, G. Montavon, F. Klauschen, K.-R. Müller and
       W. Samek, "On Pixel-Wise Explanations for Non-Linear Classifier
       Decisions by Layer-Wise Relevance Propagation", PLOS ONE 10(7), 2015.
    .. [2] G. Montavon, A. Binder, S. Lapuschkin, W. Samek and K.-R. Müller,
       "Layer-Wise Relevance Propagation: An Overview", in Explainable AI:
       Interpreting, Explaining and Visualizing Deep Learning, LNCS 11700,
       Springer, 2019.
    .. [3] C. J. Anders, D. Neumann, W. Samek, K.-R. Müller and S.
       Lapuschkin, "Software for Dataset-wide XAI: From Local Explanations to
       Global Insights with Zennit, CoRelAy, and ViRelAy", arXiv:2106.13200,
       2021.

    Examples
    --------
    {lrp_example}
    >>> from sklearn_xai.explainers import CompositeLRP
    >>> lrp = CompositeLRP(FrozenEstimator(mlp), rule="z_plus",
    ...                    input_rule="w_square").fit(X)
    >>> A = lrp.transform(X[:3])
    >>> A.shape
    (3, 3)
    """

    _parameter_constraints = {
        **_RelevanceExplainer._parameter_constraints,
        "rule": [StrOptions(set(LAYER_RULES))],
        "input_rule": [StrOptions(set(INPUT_RULES)), None],
        "conv_rule": [StrOptions(set(LAYER_RULES)), None],
        **_RULE_PARAMS,
    }

    def __init__(self, estimator=None, *, rule="epsilon", input_rule=None, conv_rule=None,
                 epsilon=1e-6, gamma=0.25, alpha=2.0, beta=1.0, low="min", high="max",
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.rule = rule
        self.input_rule = input_rule
        self.conv_rule = conv_rule
        self.epsilon = epsilon
        self.gamma = gamma
        self.alpha = alpha
        self.beta = beta
        self.low = low
        self.high = high
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        self.low_ = _bounds(self.low, X, "low", np.min)
        self.high_ = _bounds(self.high, X, "high", np.max)

    def _rules(self):
        return self.rule, self.input_rule, self.conv_rule

    def _relevance(self, X, target):
        rule, input_rule, conv_rule = self._rules()
        return propagate_relevance(
            self.chain_, X, target, rule=rule, input_rule=input_rule, conv_rule=conv_rule,
            epsilon=self.epsilon, gamma=getattr(self, "gamma", 0.0),
            alpha=getattr(self, "alpha", 1.0), beta=getattr(self, "beta", 0.0),
            low=self.low_, high=self.high_)


@_lrp_doc("lrp_scope", "lrp_estimator", "lrp_attributes", "lrp_example", "lrp_bounds")
class DeepTaylor(CompositeLRP):
    """Deep Taylor decomposition of a dense or convolutional ReLU network.

    The ``z^+`` rule in every layer but the input layer, whose rule is the
    root point of the input domain: ``w^2`` for unbounded inputs (``input_rule=
    "w_square"``, the default) or ``z^B`` for inputs bounded in ``[low,
    high]`` (``input_rule="z_box"``) (Montavon et al. 2017).  With
    ``z^+`` and ``w^2`` the relevance is conserved exactly: the attributions
    of a row sum to its explained score when the hidden biases are zero.
    {lrp_scope}

    Parameters
    ----------
    {lrp_estimator}
    input_rule : {"w_square", "z_box"}, default="w_square"
        Rule of the input layer.
    epsilon : float, default=1e-9
        Stabiliser of the denominators.
    {lrp_bounds}
    {explainer_output_params}

    {lrp_attributes}

    References
    ----------
    .. [1] G. Montavon, S. Lapuschkin, A. Binder, W. Samek and K.-R. Müller,
       "Explaining Nonlinear Classification Decisions with Deep Taylor
       Decomposition", Pattern Recognition 65, 211-222, 2017.

    Examples
    --------
    {lrp_example}
    >>> from sklearn_xai.explainers import DeepTaylor
    >>> A = DeepTaylor(FrozenEstimator(mlp)).fit(X).transform(X[:3])
    >>> A.shape
    (3, 3)
    """

    _parameter_constraints = {
        **_RelevanceExplainer._parameter_constraints,
        "input_rule": [StrOptions({"w_square", "z_box"})],
        "epsilon": _RULE_PARAMS["epsilon"],
        "low": _RULE_PARAMS["low"],
        "high": _RULE_PARAMS["high"],
    }

    def __init__(self, estimator=None, *, input_rule="w_square", epsilon=1e-9,
                 low="min", high="max", target="predicted", output="auto",
                 batch_size=None):
        self.estimator = estimator
        self.input_rule = input_rule
        self.epsilon = epsilon
        self.low = low
        self.high = high
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _rules(self):
        return "z_plus", self.input_rule, None
