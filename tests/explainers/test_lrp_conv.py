"""LRP, deep Taylor, PatternNet and PatternAttribution on convolutional
networks: against Captum's LRP run directly (per-layer rules), against the
same network with its convolutions unrolled into dense layers, against the
closed-form patterns ``cov(patch, y) / var(y)`` computed with a numpy
unfold, and on XAI-TRIS's CNN."""

import copy

import numpy as np
import pytest
import torch

# The oracle of the rules (captum is a dependency; its rule classes live in
# a private module).
from captum.attr import LRP as CaptumLRP
from captum.attr._utils.lrp_rules import Alpha1_Beta0_Rule, EpsilonRule, GammaRule
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from torch import nn

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import (
    CompositeLRP,
    DeepTaylor,
    PatternAttribution,
    PatternNet,
)
from sklearn_xai.explainers._lrp import propagate_relevance
from sklearn_xai.models import TetrominoNetClassifier


class _TorchRegressor(RegressorMixin, BaseEstimator):
    """A fitted float64 torch module seen as a regressor (what the explainers
    read of a skorch net: ``module_`` and ``predict``)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        return self

    def predict(self, X):
        with torch.no_grad():
            out = self.module_(torch.as_tensor(np.asarray(X), dtype=torch.float64))
        return out.numpy()[:, 0]


class _Image(nn.Module):
    """Flat rows -> (C, L, L) images -> layers (flattened before the first
    Linear), like XAI-TRIS's CNN."""

    def __init__(self, shape, *layers):
        super().__init__()
        self.shape = shape
        self.layers = nn.Sequential(*layers)

    def forward(self, X):
        Z = X.reshape(-1, *self.shape)
        for layer in self.layers:
            if isinstance(layer, nn.Linear) and Z.ndim > 2:
                Z = torch.flatten(Z, 1)
            Z = layer(Z)
        return Z


def _init(net, seed, bias_sign=None):
    torch.manual_seed(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                m.weight.normal_(0, 0.5)
                if m.bias is not None:
                    m.bias.uniform_(-0.3, 0.3)
                    if bias_sign is not None:
                        m.bias.copy_(bias_sign * m.bias.abs())
    return net.double().eval()


def _pooled_cnn(seed=0, bias_sign=None):
    """Conv (stride 1, padding 1) -> ReLU -> MaxPool(2) -> Conv (padding 1,
    dilation 2) -> ReLU -> AvgPool(2) -> Linear on 1x8x8 images."""
    net = _Image((1, 8, 8),
                 nn.Conv2d(1, 3, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                 nn.Conv2d(3, 4, 3, padding=2, dilation=2), nn.ReLU(), nn.AvgPool2d(2),
                 nn.Linear(16, 1))
    return _init(net, seed, bias_sign)


def _overlapping_cnn(seed=0):
    """Conv (padding="same", even kernel) -> ReLU -> MaxPool(3, stride 2,
    padding 1: overlapping windows) -> Conv (stride 2) -> ReLU ->
    AvgPool(3, stride 1, padding 1, count_include_pad=False, ceil_mode) ->
    Linear on 2x7x7 images."""
    net = _Image((2, 7, 7),
                 nn.Conv2d(2, 3, 2, padding="same"), nn.ReLU(),
                 nn.MaxPool2d(3, stride=2, padding=1),
                 nn.Conv2d(3, 4, 2, stride=2, bias=False), nn.ReLU(),
                 nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False,
                              ceil_mode=True),
                 nn.Linear(16, 1))
    return _init(net, seed)


def _captum(net, X, rules):
    """Captum's LRP with ``rules(layer, is_input_layer)`` set on every Conv2d / Linear /
    AvgPool2d.  Max pooling: Captum's epsilon rule on the max gives ``R z /
    (z + eps)`` to the maximum, ours (winner-take-all) ``R``: the same with
    a vanishing epsilon, so the max-pooling layers get EpsilonRule(1e-300)
    (with Captum's default 1e-9 the two differ by up to 2e-7 relative)."""
    net = copy.deepcopy(net)
    first = next(m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear)))
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear, nn.AvgPool2d)):
            m.rule = rules(m, m is first)
        elif isinstance(m, nn.MaxPool2d):
            m.rule = EpsilonRule(1e-300)
    out = CaptumLRP(net).attribute(torch.as_tensor(X), target=0)
    return out.detach().numpy()


def _images(n=80, seed=0, d=64):
    return np.random.default_rng(seed).normal(size=(n, d))


@pytest.mark.parametrize("case", ["epsilon", "gamma", "z_plus", "alpha1_beta0",
                                  "conv_rule"])
def test_conv_rules_equal_captums_lrp(case):
    """Captum's conventions, compared like with like: its gamma rule leaves the
    bias unchanged (ours adds gamma b+: equal for biases <= 0); its
    Alpha1_Beta0 rule clamps the weights, not the inputs, and keeps the
    bias (ours: a+ W+ + a- W- and b+; equal on the non-negative inputs of
    the hidden layers, for biases >= 0), so the input layer keeps the
    epsilon rule.  Max pooling: see ``_captum``."""
    X = _images()
    bias_sign = {"gamma": -1.0, "alpha1_beta0": 1.0}.get(case)
    net = _pooled_cnn(bias_sign=bias_sign)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    eps = 1e-9
    if case == "epsilon":
        ours = CompositeLRP(model, epsilon=eps)
        rules = lambda m, first: EpsilonRule(eps)  # noqa: E731
    elif case == "gamma":
        ours = CompositeLRP(model, rule="gamma", gamma=0.3, epsilon=eps)
        rules = lambda m, first: EpsilonRule(eps) if isinstance(m, nn.AvgPool2d) \
            else GammaRule(0.3)  # noqa: E731
    elif case == "z_plus":  # z+ ignores the bias: Captum's set_bias_to_zero
        ours = CompositeLRP(model, rule="z_plus", input_rule="epsilon", epsilon=eps)
        rules = lambda m, first: EpsilonRule(eps) if first or isinstance(m, nn.AvgPool2d) \
            else Alpha1_Beta0_Rule(set_bias_to_zero=True)  # noqa: E731
    elif case == "conv_rule":  # zennit's EpsilonPlus but at the input layer
        ours = CompositeLRP(model, rule="epsilon", conv_rule="z_plus",
                            input_rule="epsilon", epsilon=eps)
        rules = lambda m, first: Alpha1_Beta0_Rule(set_bias_to_zero=True) \
            if isinstance(m, nn.Conv2d) and not first else EpsilonRule(eps)  # noqa: E731
    else:
        ours = CompositeLRP(model, rule="alpha_beta", alpha=1.0, beta=0.0,
                            input_rule="epsilon", epsilon=eps)
        rules = lambda m, first: EpsilonRule(eps) if first or isinstance(m, nn.AvgPool2d) \
            else Alpha1_Beta0_Rule()  # noqa: E731
    A = ours.fit(X).transform(X[:6])
    np.testing.assert_allclose(A, _captum(net, X[:6], rules), rtol=1e-9, atol=1e-12)
    assert np.abs(A).max() > 1e-3


@pytest.mark.parametrize("rule", ["epsilon", "z_plus"])
def test_overlapping_pooling_and_same_padding_equal_captums_lrp(rule):
    """Overlapping max-pooling windows add up the relevance of the windows a
    position wins; "same" padding of an even kernel pads the bottom and
    right; average pooling without the padded cells."""
    net = _overlapping_cnn()
    X = _images(60, seed=7, d=98)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    ours = CompositeLRP(model, rule=rule, input_rule="epsilon", epsilon=1e-9)
    A = ours.fit(X).transform(X[:6])
    rules = lambda m, first: Alpha1_Beta0_Rule(set_bias_to_zero=True) \
        if rule == "z_plus" and not first and not isinstance(m, nn.AvgPool2d) \
        else EpsilonRule(1e-9)  # noqa: E731
    np.testing.assert_allclose(A, _captum(net, X[:6], rules), rtol=1e-9, atol=1e-12)
    assert np.abs(A).max() > 1e-3


def _unrolled(conv, in_shape):
    """The dense matrix and bias of a convolution (zero padding), from torch's
    conv2d applied to the basis images."""
    d = int(np.prod(in_shape))
    with torch.no_grad():
        out = conv(torch.eye(d, dtype=torch.float64).reshape(d, *in_shape))
        out = out - conv.bias.reshape(1, -1, 1, 1)
    positions = out.shape[2] * out.shape[3]
    W = out.reshape(d, -1).T.numpy().copy()
    b = np.repeat(conv.bias.detach().numpy(), positions)
    return W, b, out.shape[1:]


def _dense(W, b):
    layer = nn.Linear(W.shape[1], W.shape[0]).double()
    with torch.no_grad():
        layer.weight.copy_(torch.as_tensor(W))
        layer.bias.copy_(torch.as_tensor(b))
    return layer


def test_conv_equals_its_unrolled_dense_network_for_every_rule():
    """Conv (padding 1) -> ReLU -> Conv (stride 2, padding (0, 1), dilation
    (1, 2)) -> ReLU -> Linear on 2x6x6 images, and the same network with both
    convolutions written as dense layers: every rule gives the same
    relevance (the dense rules are checked by hand in
    test_lrp_patterns.py)."""
    conv1 = nn.Conv2d(2, 3, 3, padding=1)
    conv2 = nn.Conv2d(3, 2, (2, 3), stride=2, padding=(0, 1), dilation=(1, 2))
    net = _init(_Image((2, 6, 6), conv1, nn.ReLU(), conv2, nn.ReLU(), nn.Linear(12, 1)), 3)
    W1, b1, shape1 = _unrolled(conv1, (2, 6, 6))
    W2, b2, shape2 = _unrolled(conv2, tuple(shape1))
    assert tuple(shape2) == (2, 3, 2)
    dense = nn.Sequential(_dense(W1, b1), nn.ReLU(), _dense(W2, b2), nn.ReLU(),
                          net.layers[-1]).double().eval()
    X = _images(120, seed=1, d=72)
    conv_model = FrozenEstimator(_TorchRegressor(net).fit(X))
    dense_model = FrozenEstimator(_TorchRegressor(dense).fit(X))
    np.testing.assert_allclose(conv_model.predict(X), dense_model.predict(X), rtol=1e-12)
    rows = X[:5]
    # One fit per model (a fit runs the float64 torch model, slow on the
    # CPU), then every combination of rules on the fitted chains.
    conv_lrp = CompositeLRP(conv_model).fit(X)
    dense_lrp = CompositeLRP(dense_model).fit(X)
    assert [type(layer).__name__ for layer in conv_lrp.chain_.layers] == [
        "_Reshape", "_Conv", "_Conv", "_Reshape", "_Dense"]
    target = np.zeros(len(rows), dtype=int)
    for rule in ("epsilon", "gamma", "alpha_beta", "z_plus"):
        for input_rule in (None, "w_square", "z_box", "alpha_beta"):
            A, B = (propagate_relevance(
                lrp.chain_, rows, target, rule=rule, input_rule=input_rule,
                epsilon=1e-7, gamma=0.3, alpha=2.0, beta=1.0, low=lrp.low_,
                high=lrp.high_) for lrp in (conv_lrp, dense_lrp))
            np.testing.assert_allclose(A, B, rtol=1e-9, atol=1e-11,
                                       err_msg=f"{rule}, {input_rule}")
    np.testing.assert_allclose(
        conv_lrp.transform(rows), dense_lrp.transform(rows), rtol=1e-9, atol=1e-11)
    A = DeepTaylor(conv_model, input_rule="z_box", low=-3.0, high=3.0).fit(X).transform(rows)
    B = DeepTaylor(dense_model, input_rule="z_box", low=-3.0, high=3.0).fit(X).transform(rows)
    np.testing.assert_allclose(A, B, rtol=1e-9, atol=1e-11)
    # The flat rule spreads relevance uniformly over each filter's receptive
    # field (zennit's Flat: a convolution with an all-ones kernel), i.e. the
    # inputs a dense unit is connected to.  With first-layer weights of +-1,
    # w^2 is that indicator on the unrolled network too.
    with torch.no_grad():
        conv1.weight.copy_(torch.sign(conv1.weight))
    W1, b1, _ = _unrolled(conv1, (2, 6, 6))
    dense[0] = _dense(W1, b1)
    for rule in ("epsilon", "z_plus"):
        A = CompositeLRP(conv_model, rule=rule, input_rule="flat").fit(X).transform(rows)
        B = CompositeLRP(dense_model, rule=rule, input_rule="w_square").fit(X).transform(rows)
        np.testing.assert_allclose(A, B, rtol=1e-9, atol=1e-11)
    pn = PatternNet(conv_model).fit(X)
    assert [p.shape for p in pn.patterns_] == [(3, 2, 3, 3), (2, 3, 2, 3), (1, 12)]


def test_completeness_on_a_bias_free_cnn():
    """z+ with w^2 at the input (deep Taylor) conserves the relevance through
    convolutions, max and average pooling: the attributions sum to the
    score; so does the epsilon rule as epsilon -> 0."""
    net = _pooled_cnn(seed=2)
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            m.bias = None
    X = _images(60, seed=2)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    if (model.predict(X[:20]) > 0).sum() < 10:  # explain positive scores
        with torch.no_grad():
            net.layers[-1].weight.neg_()
    f = model.predict(X[:20])
    A = DeepTaylor(model, epsilon=1e-12).fit(X).transform(X[:20])
    positive = f > 1e-6
    assert positive.sum() >= 5
    np.testing.assert_allclose(A.sum(axis=1)[positive], f[positive], rtol=1e-9)
    E = CompositeLRP(model, epsilon=1e-12).fit(X).transform(X[:20])
    np.testing.assert_allclose(E.sum(axis=1), f, rtol=1e-6, atol=1e-9)
    small = DeepTaylor(model, epsilon=1e-12, batch_size=3).fit(X).transform(X[:20])
    np.testing.assert_allclose(small, A, rtol=1e-12, atol=1e-15)


def _numpy_patches(images, k, padding):
    """(n * positions, C * k * k): every k x k patch of the zero-padded images,
    row-major positions, channel-major patch entries."""
    padded = np.pad(images, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    n, C, H, W = padded.shape
    rows = []
    for i in range(n):
        for r in range(H - k + 1):
            for c in range(W - k + 1):
                rows.append(padded[i, :, r:r + k, c:c + k].ravel())
    return np.array(rows)


def _pattern(a, y):
    return np.cov(a.T, y)[:-1, -1] / np.var(y, ddof=1)


@pytest.mark.parametrize("relu", [False, True])
def test_conv_patterns_are_cov_patch_over_var(relu):
    """One convolution (2 filters of 3x3 on 1x5x5, padding 1), then a
    Linear: the pattern of each filter is cov(patch, y) / var(y) over all
    (row, position) pairs (over those where y > 0 when a ReLU follows, the
    two-component a+), the output layer's the dense one; PatternNet's
    attribution is the score spread back through the patterns (col2im by
    hand)."""
    conv = nn.Conv2d(1, 2, 3, padding=1)
    layers = [conv, nn.ReLU(), nn.Linear(50, 1)] if relu else [conv, nn.Linear(50, 1)]
    net = _init(_Image((1, 5, 5), *layers), 4)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 25)) @ rng.normal(size=(25, 25)) * 0.3  # correlated pixels
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    pn = PatternNet(model).fit(X)
    W = conv.weight.detach().numpy().reshape(2, -1)
    b = conv.bias.detach().numpy()
    P = _numpy_patches(X.reshape(-1, 1, 5, 5), 3, 1)  # (300 * 25, 9)
    Y = P @ W.T + b  # (300 * 25, 2)
    for k in range(2):
        rows = Y[:, k] > 0 if relu else slice(None)
        expected = _pattern(P[rows], Y[rows, k])
        np.testing.assert_allclose(pn.patterns_[0][k].ravel(), expected, rtol=1e-9,
                                   atol=1e-12)
        if relu:
            neg = Y[:, k] < 0
            np.testing.assert_allclose(pn.negative_patterns_[0][k].ravel(),
                                       _pattern(P[neg], Y[neg, k]), rtol=1e-9, atol=1e-12)
    # Output layer: over the flattened (channel, position) maps.
    H = Y.reshape(300, 25, 2).transpose(0, 2, 1).reshape(300, 50)
    Hin = np.maximum(H, 0) if relu else H
    score = model.predict(X)
    np.testing.assert_allclose(pn.patterns_[1][0], _pattern(Hin, score), rtol=1e-9,
                               atol=1e-12)
    # Back-projection of three rows by hand.
    x = X[:3]
    r = score[:3, None] * pn.patterns_[1][0]  # (3, 50)
    if relu:
        r = r * (H[:3] > 0)
    r = r.reshape(3, 2, 25)
    A1 = pn.patterns_[0].reshape(2, 9)
    expected = np.zeros((3, 7, 7))
    for p in range(25):
        row, col = divmod(p, 5)
        expected[:, row:row + 3, col:col + 3] += (r[:, :, p] @ A1).reshape(3, 3, 3)
    expected = expected[:, 1:-1, 1:-1].reshape(3, 25)  # drop the padding
    np.testing.assert_allclose(pn.transform(x), expected, rtol=1e-9, atol=1e-12)
    pa = PatternAttribution(model).fit(X)
    r = score[:3, None] * pn.patterns_[1][0] * net.layers[-1].weight.detach().numpy()[0]
    if relu:
        r = r * (H[:3] > 0)
    r = r.reshape(3, 2, 25)
    WA = W * A1
    expected = np.zeros((3, 7, 7))
    for p in range(25):
        row, col = divmod(p, 5)
        expected[:, row:row + 3, col:col + 3] += (r[:, :, p] @ WA).reshape(3, 3, 3)
    np.testing.assert_allclose(pa.transform(x), expected[:, 1:-1, 1:-1].reshape(3, 25),
                               rtol=1e-9, atol=1e-12)


def test_full_image_conv_equals_a_dense_layer():
    """A convolution whose kernel covers the whole image (no padding) is a
    Linear layer: with its weights copied into one, all four explainers give
    the same attributions to 1e-10 (patterns included)."""
    conv = nn.Conv2d(1, 6, 6)
    net = _init(_Image((1, 6, 6), conv, nn.ReLU(), nn.Linear(6, 4), nn.ReLU(),
                       nn.Linear(4, 1)), 5)
    first = _dense(conv.weight.detach().numpy().reshape(6, 36), conv.bias.detach().numpy())
    dense = nn.Sequential(first, nn.ReLU(), *net.layers[2:]).double().eval()
    X = _images(400, seed=5, d=36)
    conv_model = FrozenEstimator(_TorchRegressor(net).fit(X))
    dense_model = FrozenEstimator(_TorchRegressor(dense).fit(X))
    rows = X[:7]
    for make in (lambda m: PatternNet(m), lambda m: PatternAttribution(m),
                 lambda m: PatternNet(m, pattern_type="linear"),
                 lambda m: CompositeLRP(m, rule="alpha_beta", input_rule="z_box"),
                 lambda m: DeepTaylor(m)):
        a, b = make(conv_model).fit(X), make(dense_model).fit(X)
        np.testing.assert_allclose(a.transform(rows), b.transform(rows), rtol=1e-10,
                                   atol=1e-10)
    pa_conv, pa_dense = PatternNet(conv_model).fit(X), PatternNet(dense_model).fit(X)
    np.testing.assert_allclose(pa_conv.patterns_[0].reshape(6, 36), pa_dense.patterns_[0],
                               rtol=1e-10, atol=1e-12)


def test_batch_norm_2d_is_folded_into_the_convolution():
    """Conv -> BatchNorm2d (evaluation mode, non-trivial statistics) -> ReLU:
    the normalisation is folded into the convolution; the epsilon rule then
    equals Captum's LRP on the folded network, folded here by hand."""
    conv, bn = nn.Conv2d(1, 3, 3, padding=1), nn.BatchNorm2d(3)
    net = _init(_Image((1, 6, 6), conv, bn, nn.ReLU(), nn.MaxPool2d(2),
                       nn.Linear(27, 1)), 6)
    with torch.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
    X = _images(50, seed=6, d=36)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    ours = CompositeLRP(model, epsilon=1e-9).fit(X).transform(X[:4])
    s = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach()
    folded = nn.Conv2d(1, 3, 3, padding=1).double()
    with torch.no_grad():
        folded.weight.copy_(conv.weight * s.reshape(-1, 1, 1, 1))
        folded.bias.copy_((conv.bias - bn.running_mean) * s + bn.bias)
    ref = _Image((1, 6, 6), folded, nn.ReLU(), nn.MaxPool2d(2), net.layers[-1]).eval()
    np.testing.assert_allclose(ref(torch.as_tensor(X)).detach().numpy()[:, 0],
                               model.predict(X), rtol=1e-12)
    theirs = _captum(ref, X[:4], lambda m, first: EpsilonRule(1e-9))
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


def test_xai_tris_cnn_with_all_four_explainers():
    """TetrominoNetClassifier(architecture="cnn") on 8x8 tetrominoes, trained
    for 2 epochs (float32): all four explainers run; the epsilon rule equals
    Captum's LRP on a float64 copy of the module whose output layer is the
    explained decision score z_1 - z_0."""
    data = make_tetrominoes(600, random_state=0)
    X, y = data.data.astype(np.float64), data.target
    clf = TetrominoNetClassifier(architecture="cnn", max_epochs=2, random_state=0).fit(X, y)
    model = FrozenEstimator(clf)
    rows = X[:10]
    for explainer in (CompositeLRP(model, rule="alpha_beta", input_rule="z_box"),
                      DeepTaylor(model), PatternNet(model), PatternAttribution(model)):
        A = explainer.fit(X).transform(rows)
        assert A.shape == (10, 64) and np.isfinite(A).all()
        assert np.abs(A).max() > 0
    assert [p.shape for p in explainer.patterns_] == [
        (4, 1, 2, 2), (4, 4, 2, 2), (4, 4, 2, 2), (4, 4, 2, 2), (2, 4)]
    assert explainer.n_layers_ == 5
    ours = CompositeLRP(model, epsilon=1e-9, target=1).fit(X).transform(rows)
    net = copy.deepcopy(clf.module_).double().eval()
    W, b = net.classifier.weight.detach(), net.classifier.bias.detach()
    head = nn.Linear(W.shape[1], 1).double()
    with torch.no_grad():
        head.weight.copy_(W[1:] - W[:1])
        head.bias.copy_(b[1:] - b[:1])
    net.classifier = head
    theirs = CaptumLRP(net).attribute(torch.as_tensor(rows), target=0).detach().numpy()
    # The explained module is float32: the chain is its float64 copy.
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-9)
