"""PatternNet and PatternAttribution (Kindermans et al. 2018).

The weights of a linear model do not show where the *signal* is: with a
suppressor feature (a feature that carries only the noise of another one),
the weights point at the suppressor, though it holds no information about
the target.  Kindermans et al. estimate the signal direction of each neuron
``y = w^T x`` from data, its **pattern**::

    linear estimator        a = cov(x, y) / var(y)
    two-component estimator a_+ = cov_+(x, y) / var_+(y),  a_- likewise

where ``cov_+`` and ``var_+`` are taken over the rows where ``y > 0`` (the
regime a following ReLU lets through) and ``cov_-`` over ``y < 0``.
For a linear model the pattern is the closed form ``cov(x, y) / var(y)``.
A convolution filter applies its weights to every patch of its input, so its
pattern is estimated over all (row, output position) pairs, ``x`` being the
patch (zero padding included) and ``y`` the filter's output there.

Both explainers back-project the explained score ``y`` (the decision score of
the target class, or the prediction of a regressor) layer by layer, with the
ReLUs gating as in the gradient:

* PatternNet replaces each weight matrix (or convolution kernel) by its
  patterns: the estimated signal ``s = a y`` in input space;
* PatternAttribution replaces it by ``w ⊙ a``: the contributions of the
  signal, which sum to ``y`` on a linear model (``w^T a = 1``).

Convolutions are back-projected by the transposed convolution with the
patterns in place of the kernel, max pooling by its gradient (to each
window's maximum), average pooling and reshapes by their transpose.  In a
residual network (a graph, :mod:`sklearn_xai.explainers._lrp_graph`) the
patterns are still learned per ``Linear`` / convolution from the inputs and
outputs that layer sees; a sum node ``a + b`` has no weights and so no
pattern: it passes the back-projected signal to both summands (its
transpose, as the gradient does), and the signals reaching a layer from its
several readers are summed.

The patterns of every layer are learned from the training rows at ``fit``
(float64, in one pass of numpy matrix products); layers followed by a ReLU use
the two-component estimator (``a_+``; ``a_-`` is stored too) unless
``pattern_type="linear"``, the output layer the linear one.
"""

import numpy as np

from sklearn_xai.explainers._docstring import EXPLAINER_FRAGMENTS, explainer_doc
from sklearn_xai.explainers._lrp import _LRP_DOC, _RelevanceExplainer
from sklearn_xai.utils._docstring import join_fragments
from sklearn_xai.utils._sklearn import StrOptions

__all__ = ["PatternAttribution", "PatternNet", "learn_patterns"]


class _Moments:
    """Running sums over rows for ``cov(a, y_k) / var(y_k)`` restricted to
    the rows of a mask (one mask column per output ``k``)."""

    def __init__(self, d_out, d_in):
        self.count = np.zeros(d_out)
        self.sum_y = np.zeros(d_out)
        self.sum_yy = np.zeros(d_out)
        self.sum_a = np.zeros((d_out, d_in))
        self.sum_ya = np.zeros((d_out, d_in))

    def add(self, a, y, mask):
        m = np.ones_like(y) if mask is None else mask.astype(np.float64)
        ym = y * m
        self.count += m.sum(axis=0)
        self.sum_y += ym.sum(axis=0)
        self.sum_yy += (ym * y).sum(axis=0)
        # One product with the long (rows) dimension inside, several times
        # faster than m.T @ a and ym.T @ a.
        S = a.T @ np.hstack([m, ym])
        d_out = m.shape[1]
        self.sum_a += S[:, :d_out].T
        self.sum_ya += S[:, d_out:].T

    def pattern(self):
        """``(d_out, d_in)``; 0 where ``var(y_k) = 0`` or fewer than two rows
        qualify."""
        safe = np.maximum(self.count, 1.0)
        mean_y = self.sum_y / safe
        mean_yy = self.sum_yy / safe
        cov = self.sum_ya / safe[:, None] - mean_y[:, None] * (self.sum_a / safe[:, None])
        var = mean_yy - mean_y ** 2
        ok = (self.count >= 2) & (var > 1e-12 * np.maximum(mean_yy, 1e-300))
        out = np.zeros_like(cov)
        out[ok] = cov[ok] / var[ok, None]
        return out


# Rows per block when accumulating the moments: bounded memory, and products
# with a short inner dimension, several times faster than one long one.
_PATTERN_BLOCK = 4096
# At most this many patch values per block (convolutions see one patch per
# output position): fewer rows per block for large images.
_PATTERN_ELEMENTS = 2 ** 24


def _block_rows(chain):
    per_row = 1
    for index in chain.weighted:
        layer = chain.layers[index]
        n_units = int(np.prod(layer.out_shape[1:])) if len(layer.out_shape) > 1 else 1
        per_row = max(per_row, n_units * int(np.prod(layer.weight.shape[1:])))
    return min(_PATTERN_BLOCK, max(1, _PATTERN_ELEMENTS // per_row))


def learn_patterns(chain, X, *, pattern_type="two_component"):
    """The signal patterns of every weighted layer of a ReLU layer chain.

    A dense unit ``y = w^T a`` has the pattern ``cov(a, y) / var(y)`` over
    the rows.  A convolution filter applies the same weights to every patch
    of its input (zero padding included), so its pattern is that of a dense
    unit whose rows are all the (row, output position) pairs: ``cov(patch,
    y) / var(y)``, as in Kindermans et al. (2018).  The moments are
    accumulated over blocks of rows, so memory does not grow with the number
    of training rows.

    Parameters
    ----------
    chain : LayerChain
    X : ndarray of shape (n, n_features)
        Training rows.
    pattern_type : {"two_component", "linear"}, default="two_component"
        Estimator of the layers followed by a ReLU.

    Returns
    -------
    patterns : list of ndarray
        The pattern used by each weighted layer (``a_+`` or ``a``), of the
        shape of its weights: ``(d_out, d_in)`` for a dense layer,
        ``(out_channels, in_channels, kh, kw)`` for a convolution.
    negative : list of ndarray or None
        ``a_-`` of the layers followed by a ReLU (two-component only).
    """
    layers = [chain.layers[index] for index in chain.weighted]
    two = [layer.relu and pattern_type == "two_component" for layer in layers]
    shapes = [(layer.weight.shape[0], int(np.prod(layer.weight.shape[1:])))
              for layer in layers]
    main = [_Moments(*shape) for shape in shapes]
    negative = [_Moments(*shape) if t else None for shape, t in zip(shapes, two, strict=True)]
    block = _block_rows(chain)
    for start in range(0, len(X), block):
        inputs, pre = chain.forward(X[start:start + block])
        # The covariances do not depend on the bias: y = w^T a.
        for k, (index, layer) in enumerate(zip(chain.weighted, layers, strict=True)):
            a = layer.patches(inputs[index])
            z = layer.unit_outputs(pre[index])
            if two[k]:
                main[k].add(a, z, z > 0)
                negative[k].add(a, z, z < 0)
            else:
                main[k].add(a, z, None)
    return ([m.pattern().reshape(layer.weight.shape) for m, layer in zip(main, layers, strict=True)],
            [None if m is None else m.pattern().reshape(layer.weight.shape)
             for m, layer in zip(negative, layers, strict=True)])


class _PatternExplainer(_RelevanceExplainer):
    _parameter_constraints = {
        **_RelevanceExplainer._parameter_constraints,
        "pattern_type": [StrOptions({"two_component", "linear"})],
    }

    def __init__(self, estimator=None, *, pattern_type="two_component",
                 target="predicted", output="auto", batch_size=None):
        self.estimator = estimator
        self.pattern_type = pattern_type
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _fit_explainer(self, X, y):
        super()._fit_explainer(X, y)
        patterns, negative = learn_patterns(self.chain_, X, pattern_type=self.pattern_type)
        self.patterns_ = patterns
        self.negative_patterns_ = negative
        self._backward = [self._backward_matrix(W, A)
                          for W, A in zip(self.chain_.weights, patterns, strict=True)]

    def _relevance(self, X, target):
        chain = self.chain_
        inputs, pre = chain.forward(X)
        rows = np.arange(len(X))
        r = np.zeros_like(pre[-1])
        r[rows, target] = pre[-1][rows, target]
        backward = dict(zip(chain.weighted, self._backward, strict=True))

        def step(index, r):
            layer = chain.layers[index]
            if layer.relu:
                r = r * (pre[index] > 0)
            # Weighted layers: the patterns (or w * a) in place of the weights;
            # max pooling: to each window's maximum; reshapes, average pooling
            # and a residual sum: the transpose (a sum passes the signal to
            # both summands, as the gradient does).
            return layer.transpose(r, backward[index] if layer.weighted else inputs[index])

        return chain.backward(r, step)


# The sections the two pattern explainers share: their Parameters (the same
# parameters), Attributes and References.
_PATTERN_ATTRIBUTES = """
        Attributes
        ----------
        estimator_ : estimator
            The fitted model.
        chain_ : LayerChain
            The model as float64 layers.
        n_layers_ : int
            Number of weighted layers (``Linear``, ``Conv1d`` and ``Conv2d``).
        patterns_ : list of ndarray
            The signal pattern of each unit of each weighted layer, of the
            shape of its weights (``(d_out, d_in)`` for a ``Linear``,
            ``(out_channels, in_channels, kh, kw)`` for a ``Conv2d``,
            ``(out_channels, in_channels, 1, k)`` for a ``Conv1d``):
            ``a_+`` for the layers followed by a ReLU with
            ``pattern_type="two_component"``, ``a = cov(x, y) / var(y)``
            otherwise; the output layer's rows are those of the explained
            decision scores.
        negative_patterns_ : list of (ndarray or None)
            ``a_-`` (rows where ``y < 0``) of the layers followed by a ReLU
            (two-component estimator), which a ReLU never lets through.
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names."""

_PATTERN_PARAMS = """
        Parameters
        ----------
        estimator : estimator
            A dense or convolutional ReLU network or a linear model (see
            above); ``FrozenEstimator(model)`` for a fitted one.
        pattern_type : {"two_component", "linear"}, default="two_component"
            Signal estimator of the layers followed by a ReLU: the
            two-component estimator ``a_+`` of the paper or the linear one
            (``cov(x, y) / var(y)`` over all rows, exact for linear layers and
            used for the output layer in both cases)."""

_REFERENCE = """
    References
    ----------
    .. [1] P.-J. Kindermans, K. T. Schütt, M. Alber, K.-R. Müller, D. Erhan,
       B. Kim and S. Dähne, "Learning how to explain neural networks:
       PatternNet and PatternAttribution", ICLR 2018.
    .. [2] S. Haufe, F. Meinecke, K. Görgen, S. Dähne, J.-D. Haynes, B.
       Blankertz and F. Bießmann, "On the interpretation of weight vectors of
       linear models in multivariate neuroimaging", NeuroImage 87, 96-110,
       2014."""

_SUPPRESSOR_EXAMPLE = """
        >>> import numpy as np
        >>> from sklearn.linear_model import LinearRegression
        >>> rng = np.random.default_rng(0)
        >>> z, d = rng.normal(size=(2, 500))
        >>> X = np.column_stack([z + d, d])  # x_2 only suppresses x_1's noise
        >>> model = LinearRegression().fit(X, z)
        >>> model.coef_.round(2)  # the weights point at the suppressor
        array([ 1., -1.])
        >>> from sklearn.frozen import FrozenEstimator"""


_pattern_doc = explainer_doc(
    lrp_scope=_LRP_DOC["lrp_scope"],
    pattern_sections=join_fragments(
        _PATTERN_PARAMS, EXPLAINER_FRAGMENTS["explainer_output_params"], "",
        _PATTERN_ATTRIBUTES, "", _REFERENCE),
    suppressor_example=_SUPPRESSOR_EXAMPLE,
)


@_pattern_doc
class PatternNet(_PatternExplainer):
    """PatternNet: the signal of the explained score, back-projected.

    Each layer's weights are replaced by its signal patterns, learned from
    the training rows at ``fit`` (see :mod:`sklearn_xai.explainers._pattern`),
    and the explained score ``y`` is passed back to the input with the ReLUs
    gating as in the gradient.  On a linear model ``y = w^T x + b`` the
    attribution is ``a y`` with ``a = cov(x, y) / var(y)`` (Haufe et al.
    2014): the estimated signal, which a suppressor feature does not carry.
    {lrp_scope}

    {pattern_sections}

    Examples
    --------
    {suppressor_example}
    >>> from sklearn_xai.explainers import PatternNet
    >>> pn = PatternNet(FrozenEstimator(model)).fit(X)
    >>> pn.patterns_[0].round(2)  # the pattern does not
    array([[1., 0.]])
    """

    @staticmethod
    def _backward_matrix(W, A):
        return A


@_pattern_doc
class PatternAttribution(_PatternExplainer):
    """PatternAttribution: the contributions of the signal to the score.

    Each layer's weights ``w`` are replaced by ``w ⊙ a``, with ``a`` the
    signal pattern learned from the training rows at ``fit`` (see
    :mod:`sklearn_xai.explainers._pattern`), and the explained score ``y``
    is passed back to the input with the ReLUs gating as in the gradient
    (a deep Taylor decomposition whose root point is the estimated
    distractor).  On a linear model the attribution is ``w ⊙ a y``, which
    sums to ``y`` and is zero on a suppressor feature.
    {lrp_scope}

    {pattern_sections}

    Examples
    --------
    {suppressor_example}
    >>> from sklearn_xai.explainers import PatternAttribution
    >>> pa = PatternAttribution(FrozenEstimator(model)).fit(X)
    >>> A = pa.transform(X[:3])
    >>> bool(np.allclose(A[:, 1], 0, atol=0.05))  # not on the suppressor
    True
    """

    @staticmethod
    def _backward_matrix(W, A):
        return W * A

