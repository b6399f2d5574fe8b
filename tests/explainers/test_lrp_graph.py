"""The relevance family (CompositeLRP, DeepTaylor, PatternNet,
PatternAttribution) on networks that are graphs, read with torch.fx: residual
sums, functional ReLUs, global average pooling, BatchNorm folded into the
layer before it, Conv1d (issue #39).  Checked against Captum's LRP run
directly, a residual net computed by hand, conservation, and the same net
without its (zeroed) residual branch."""

import copy

import numpy as np
import pytest
import torch
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from torch import nn
from torch.nn import functional as F

from sklearn_xai.explainers import (
    CompositeLRP,
    DeepTaylor,
    PatternAttribution,
    PatternNet,
)
from sklearn_xai.explainers._chain import layer_chain
from sklearn_xai.explainers._lrp import propagate_relevance
from sklearn_xai.explainers._lrp_graph import layer_graph
from sklearn_xai.models import TetrominoCNN, TimeSeriesCNN
from sklearn_xai.utils import NotApplicableError

EXPLAINERS = (CompositeLRP, DeepTaylor, PatternNet, PatternAttribution)


class _TorchRegressor(RegressorMixin, BaseEstimator):
    """A fitted float64 torch module seen as a regressor (its first output)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        return self

    def predict(self, X):
        with torch.no_grad():
            out = self.module_(torch.as_tensor(np.asarray(X), dtype=torch.float64))
        return out.numpy()[:, 0]


class _Block(nn.Module):
    """Conv-BN-ReLU-Conv-BN, ``out = out + identity``, ReLU."""

    def __init__(self, c, bias):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=bias)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=bias)
        self.bn2 = nn.BatchNorm2d(c)
        self.relu2 = nn.ReLU()
        self.add = None  # Captum's Addition_Module in its copy

    def forward(self, x):
        identity = x
        out = self.relu1(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + identity if self.add is None else self.add(out, identity)
        return self.relu2(out)


class _ResNet(nn.Module):
    """A small residual CNN on 1xLxL images: stem Conv-BN-ReLU, one residual
    block, AdaptiveAvgPool2d(1), flatten, Linear."""

    def __init__(self, c=3, side=6, n_outputs=1, bias=True, flatten_module=True):
        super().__init__()
        self.side = side
        self.stem = nn.Conv2d(1, c, 3, padding=1, bias=bias)
        self.bn = nn.BatchNorm2d(c)
        self.relu = nn.ReLU()
        self.block = _Block(c, bias)
        self.pool = nn.AdaptiveAvgPool2d(1)
        # Captum has no rule for nn.Flatten: torch.flatten for its copy.
        self.flatten = nn.Flatten() if flatten_module else None
        self.fc = nn.Linear(c, n_outputs, bias=bias)

    def forward(self, X):
        x = self.relu(self.bn(self.stem(X.reshape(-1, 1, self.side, self.side))))
        x = self.pool(self.block(x))
        x = self.flatten(x) if self.flatten is not None else torch.flatten(x, 1)
        return self.fc(x)


def _init(net, seed=0, zero_bias=False):
    torch.manual_seed(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, (nn.Conv2d, nn.Conv1d, nn.Linear)):
                m.weight.normal_(0, 0.5)
                if m.bias is not None:
                    m.bias.uniform_(-0.3, 0.3)
            elif isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                if not zero_bias:
                    m.running_mean.normal_(0, 0.3)
                    m.bias.normal_(0, 0.2)
    return net.double().eval()


def _rows(n=40, d=36, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


def _captum(net, X, target=0, eps=1e-9):
    """Captum's LRP with its default rules (the epsilon rule, ``eps`` on every
    layer; max pooling with a vanishing epsilon, see test_lrp_conv).  Captum
    passes relevance, not gradients, between layers, so a functional sum
    would hand each summand the whole relevance: its copy of a residual
    block sums with Captum's ``Addition_Module`` (epsilon rule: ``R_k = a_k R
    / (a_1 + a_2 + eps)``)."""
    from captum.attr import LRP
    from captum.attr._utils.custom_modules import Addition_Module
    from captum.attr._utils.lrp_rules import EpsilonRule

    net = copy.deepcopy(net)
    for m in net.modules():
        if isinstance(m, _Block):
            m.add = Addition_Module()
    for m in net.modules():
        if isinstance(m, (nn.MaxPool2d, nn.MaxPool1d)):
            m.rule = EpsilonRule(1e-300)
        elif isinstance(m, (nn.Conv2d, nn.Linear, nn.AvgPool2d, nn.AdaptiveAvgPool2d,
                            nn.BatchNorm2d, Addition_Module)):
            m.rule = EpsilonRule(eps)
    return LRP(net).attribute(torch.as_tensor(X), target=target).detach().numpy()


class _PlainCNN(nn.Module):
    """Conv(padding 1) -> ReLU -> MaxPool(2) -> Conv(padding 2, stride 2,
    dilation 2) -> F.relu -> AdaptiveAvgPool2d(1) -> flatten -> Linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(3, 4, 3, padding=2, stride=2, dilation=2)
        self.pool2 = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 2)

    def forward(self, X):
        x = self.pool1(self.relu1(self.conv1(X.view(X.shape[0], 1, 8, 8))))
        x = self.pool2(F.relu(self.conv2(x)))
        return self.fc(torch.flatten(x, 1))


def test_plain_cnn_with_adaptive_pool_equals_captum():
    """Conv2d with padding, stride and dilation, MaxPool2d, a functional ReLU,
    AdaptiveAvgPool2d, flatten, Linear (a net the layer chain refuses):
    equal to Captum's epsilon rule (its functional ReLU passes the gradient
    unchanged, as our ReLU passes the relevance); rtol 1e-9."""
    net = _init(_PlainCNN())
    X = _rows(30, 64)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    with pytest.raises(NotApplicableError):
        layer_chain(model, "predict", X)
    ours = CompositeLRP(model, epsilon=1e-9).fit(X).transform(X[:5])
    np.testing.assert_allclose(ours, _captum(net, X[:5]), rtol=1e-9, atol=1e-12)
    assert np.abs(ours).max() > 1e-3


def test_residual_cnn_with_batchnorm_equals_captum():
    """The residual CNN: BatchNorm folded into the convolution before it;
    Captum applies the epsilon rule to the BatchNorm2d as a layer of its
    own, which gives the same relevance (``R_c / c = s R / z`` of the folded
    layer, up to epsilon); the sum is its Addition_Module (see ``_captum``),
    our sum rule.  Epsilon 1e-14 in both (with 1e-9 they differ by up to
    4e-6 relative on small relevances: Captum's BN layer has an epsilon of
    its own), tolerance rtol 1e-8."""
    net = _init(_ResNet(flatten_module=False), seed=1)
    X = _rows()
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    ours = CompositeLRP(model, epsilon=1e-14).fit(X).transform(X[:5])
    np.testing.assert_allclose(ours, _captum(net, X[:5], eps=1e-14), rtol=1e-8, atol=1e-12)
    assert np.abs(ours).max() > 1e-3


def test_batchnorm_folding_preserves_outputs():
    """The folded graph reproduces the module (float64) to rounding: every BN
    is gone from the graph (3 convolutions, no separate affine layer)."""
    net = _init(_ResNet(), seed=2)
    X = _rows()
    chain = layer_graph(_TorchRegressor(net).fit(X), "predict", X)
    with torch.no_grad():
        expected = net(torch.as_tensor(X)).numpy()
    np.testing.assert_allclose(chain.forward(X)[1][-1], expected, rtol=1e-12, atol=1e-13)
    assert [type(layer).__name__ for layer in chain.layers] == [
        "_Reshape", "_Conv", "_Conv", "_Conv", "_Add", "_AvgPool", "_Reshape", "_Dense"]
    assert chain.parents[4] == (3, 1)  # conv2 + the stem's output


class _HandResidual(nn.Module):
    """h = relu(W1 x + b1); y = w2 . (h + x) + b2."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 2)
        self.fc2 = nn.Linear(2, 1)
        with torch.no_grad():
            self.fc1.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
            self.fc1.bias.copy_(torch.tensor([0.0, -0.5]))
            self.fc2.weight.copy_(torch.tensor([[1.0, -2.0]]))
            self.fc2.bias.copy_(torch.tensor([0.5]))

    def forward(self, X):
        return self.fc2(torch.relu(self.fc1(X)) + X)


def test_residual_sum_rule_by_hand():
    """x = (1, 2): z1 = (-1, 4), h = (0, 4), s = h + x = (1, 6), y = 1 - 12 +
    0.5 = -10.5.  Output layer (epsilon rule): R_s = s w2 y / y = (1, -12).
    Sum rule: R_h = h / s R_s = (0, -8), skip R_x = x / s R_s = (1, -4).
    First layer: only unit 2 has relevance, R_x += x W1[1] (-8 / 4) =
    (-1, -8).  Total (0, -12)."""
    X = np.array([[1.0, 2.0], [0.3, -0.2]])
    model = FrozenEstimator(_TorchRegressor(_HandResidual().double()).fit(X))
    A = CompositeLRP(model, epsilon=1e-12).fit(X).transform(X[:1])
    np.testing.assert_allclose(A, [[0.0, -12.0]], rtol=1e-9, atol=1e-9)


def test_residual_cnn_conserves_relevance():
    """Zero biases (convolutions, BN means and offsets, Linear): the input
    relevance of the epsilon rule sums to the output, epsilon -> 0."""
    net = _init(_ResNet(bias=False), seed=3, zero_bias=True)
    X = _rows()
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    A = CompositeLRP(model, epsilon=1e-12).fit(X).transform(X[:6])
    np.testing.assert_allclose(A.sum(axis=1), model.predict(X[:6]), rtol=1e-8)


def test_zeroed_residual_branch_equals_the_net_without_block():
    """With the block's second convolution zeroed, the block is the identity
    (its input is a ReLU output): every explainer of the residual net equals
    the same explainer of the net without the block (explained by the layer
    chain).  At the sum node LRP and deep Taylor give the skip path all the
    relevance; PatternNet and PatternAttribution pass the signal to both
    summands, and the zeroed convolution has zero patterns."""
    net = _init(_ResNet(), seed=4)
    with torch.no_grad():
        net.block.conv2.weight.zero_()
        net.block.conv2.bias.zero_()
        net.block.bn2.running_mean.zero_()
        net.block.bn2.bias.zero_()
    plain = copy.deepcopy(net)
    plain.block = nn.Identity()
    X = _rows()
    res = FrozenEstimator(_TorchRegressor(net).fit(X))
    ref = FrozenEstimator(_TorchRegressor(plain).fit(X))
    for cls in EXPLAINERS:
        kw = {"epsilon": 1e-12} if cls in (CompositeLRP, DeepTaylor) else {}
        ours = cls(res, **kw).fit(X)
        assert len(ours.chain_.layers) == 8  # the graph
        np.testing.assert_allclose(ours.transform(X[:4]),
                                   cls(ref, **kw).fit(X).transform(X[:4]),
                                   rtol=1e-7, atol=1e-10, err_msg=cls.__name__)


def test_tetromino_cnn_graph_equals_chain():
    """XAI-TRIS's CNN (the layer chain reads it): the torch.fx graph of the
    same module gives the same relevance for every rule."""
    X = _rows(30, 64, seed=5)
    model = _TorchRegressor(_init(TetrominoCNN(64))).fit(X)
    chain, graph = layer_chain(model, "decision", X), layer_graph(model, "decision", X)
    t = np.zeros(4, dtype=np.intp)
    for kw in ({"rule": "z_plus", "input_rule": "w_square"}, {"rule": "epsilon"},
               {"rule": "alpha_beta", "input_rule": "z_box", "low": -np.ones(64),
                "high": np.ones(64)}):
        np.testing.assert_allclose(propagate_relevance(graph, X[:4], t, **kw),
                                   propagate_relevance(chain, X[:4], t, **kw),
                                   rtol=1e-10, atol=1e-12)


def test_deep_taylor_and_patterns_on_residual_cnn():
    """Deep Taylor's z+ keeps the relevance non-negative through a residual net
    whose sums see only non-negative summands (the identity is a ReLU output;
    the branch, for this check, has no BN offset and non-negative
    convolutions); the patterns have the shape of each convolution."""
    net = _init(_ResNet(bias=False), seed=6, zero_bias=True)
    with torch.no_grad():
        for conv in (net.block.conv1, net.block.conv2, net.fc):
            conv.weight.abs_()
    X = _rows()
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    A = DeepTaylor(model).fit(X).transform(X[:6])
    y = model.predict(X[:6])
    assert (y > 0).all()
    np.testing.assert_allclose(A.sum(axis=1), y, rtol=1e-7)
    pn = PatternNet(model).fit(X)
    assert [p.shape for p in pn.patterns_] == [(3, 1, 3, 3), (3, 3, 3, 3), (3, 3, 3, 3),
                                                (1, 3)]
    assert np.isfinite(PatternAttribution(model).fit(X).transform(X[:3])).all()


def _conv2d_twin(module, head_weight, head_bias):
    """The Conv2d twin of height 1 of a TimeSeriesCNN (kernels (1, k),
    AdaptiveAvgPool2d(1) for the mean over time), ending in one Linear
    output ``head_weight . z + head_bias``."""
    layers = []
    for conv in module.features:
        if isinstance(conv, nn.Conv1d):
            twin = nn.Conv2d(conv.in_channels, conv.out_channels, (1, conv.kernel_size[0]),
                             padding=(0, conv.padding[0]))
            with torch.no_grad():
                twin.weight.copy_(conv.weight[:, :, None, :])
                twin.bias.copy_(conv.bias)
            layers += [twin, nn.ReLU()]
    head = nn.Linear(len(head_weight), 1)
    with torch.no_grad():
        head.weight.copy_(torch.as_tensor(head_weight)[None])
        head.bias.copy_(torch.as_tensor(head_bias).reshape(1))
    C, T = module.n_channels, module.n_timesteps

    class Twin(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.head = head

        def forward(self, X):
            Z = self.pool(self.features(X.reshape(-1, C, 1, T)))
            return self.head(torch.flatten(Z, 1))

    return Twin().double().eval()


def test_timeseries_cnn_equals_captum_on_its_conv2d_twin():
    """Issue #39: TimeSeriesCNN (Conv1d 'same' -> ReLU, twice, mean over
    time, Linear) is explained; Captum has no Conv1d rule, so its LRP runs on
    the Conv2d twin of height 1; rtol 1e-9."""
    X = _rows(30, 24, seed=8)
    module = _init(TimeSeriesCNN(24, n_channels=2, n_filters=3, kernel_size=3))
    model = FrozenEstimator(_TorchRegressor(module).fit(X))
    ours = CompositeLRP(model, epsilon=1e-9).fit(X).transform(X[:4])
    fc = module.classifier
    twin = _conv2d_twin(module, fc.weight[0].detach(), fc.bias[0].detach())
    np.testing.assert_allclose(ours, _captum(twin, X[:4]), rtol=1e-9, atol=1e-12)
    assert np.abs(ours).max() > 1e-3
    assert PatternNet(model).fit(X).patterns_[0].shape == (3, 2, 1, 3)


class _Pool1d(nn.Module):
    """Conv1d(stride 2, padding 2, dilation 2) -> F.relu -> Dropout ->
    MaxPool1d(2) -> AvgPool1d(2) -> AdaptiveAvgPool1d(1) -> Identity ->
    flatten -> Linear, on (2, 16) series; ``two_d`` builds its Conv2d twin
    of height 1 for Captum."""

    def __init__(self, two_d=False):
        super().__init__()
        self.two_d = two_d
        if two_d:
            self.conv = nn.Conv2d(2, 3, (1, 3), stride=(1, 2), padding=(0, 2),
                                  dilation=(1, 2))
            self.max = nn.MaxPool2d((1, 2))
            self.avg = nn.AvgPool2d((1, 2))
            self.adaptive = nn.AdaptiveAvgPool2d(1)
            self.relu = nn.ReLU()
        else:
            self.conv = nn.Conv1d(2, 3, 3, stride=2, padding=2, dilation=2)
            self.max = nn.MaxPool1d(2)
            self.avg = nn.AvgPool1d(2)
            self.adaptive = nn.AdaptiveAvgPool1d(1)
            self.drop = nn.Dropout(0.5)
            self.identity = nn.Identity()
        self.fc = nn.Linear(3, 1)

    def forward(self, X):
        if self.two_d:
            x = self.relu(self.conv(X.reshape(-1, 2, 1, 16)))
            return self.fc(torch.flatten(self.adaptive(self.avg(self.max(x))), 1))
        x = self.drop(F.relu(self.conv(X.reshape(-1, 2, 16))))
        x = self.identity(self.adaptive(self.avg(self.max(x))))
        return self.fc(x.flatten(1))


def test_1d_pooling_equals_captum_on_the_conv2d_twin():
    """Conv1d with stride, padding and dilation, MaxPool1d (winner-take-all),
    AvgPool1d, AdaptiveAvgPool1d, Dropout and Identity (the identity), a
    functional ReLU: Captum's LRP on the Conv2d twin of height 1; rtol 1e-9."""
    net, twin = _init(_Pool1d(), seed=9), _Pool1d(two_d=True).double().eval()
    with torch.no_grad():
        twin.conv.weight.copy_(net.conv.weight[:, :, None, :])
        twin.conv.bias.copy_(net.conv.bias)
        twin.fc.load_state_dict(net.fc.state_dict())
    X = _rows(20, 32, seed=9)
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    ours = CompositeLRP(model, epsilon=1e-9).fit(X).transform(X[:4])
    np.testing.assert_allclose(ours, _captum(twin, X[:4]), rtol=1e-9, atol=1e-12)
    assert np.abs(ours).max() > 1e-3


@pytest.mark.slow
def test_timeseries_cnn_classifier_equals_captum_on_its_conv2d_twin():
    """Issue #39: a trained TimeSeriesCNNClassifier (float32), explained for
    its decision score z_1 - z_0, against Captum on the twin; all four
    explainers run."""
    from sklearn_xai.datasets import make_timeseries_classification
    from sklearn_xai.models import TimeSeriesCNNClassifier

    data = make_timeseries_classification(80, n_timesteps=12, window=4, random_state=0)
    X = data.data.astype(np.float64)
    clf = TimeSeriesCNNClassifier(series_shape=data.series_shape, max_epochs=1,
                                  module__n_filters=3, module__kernel_size=3,
                                  random_state=0).fit(X, data.target)
    model = FrozenEstimator(clf)
    ours = CompositeLRP(model, epsilon=1e-9, target=1).fit(X).transform(X[:4])
    module = copy.deepcopy(clf.module_).double()
    W, b = module.classifier.weight.detach(), module.classifier.bias.detach()
    twin = _conv2d_twin(module, W[1] - W[0], b[1] - b[0])
    # The module is float32: the graph is its float64 copy.
    np.testing.assert_allclose(ours, _captum(twin, X[:4]), rtol=1e-6, atol=1e-9)
    assert np.abs(ours).max() > 0
    for cls in (DeepTaylor, PatternNet, PatternAttribution):
        assert np.isfinite(cls(model).fit(X).transform(X[:2])).all()


class _Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, X):
        q = X.reshape(-1, 2, 2)
        attn = torch.softmax(q @ q.transpose(1, 2), dim=-1)
        return self.fc((attn @ q).flatten(1))


class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * x

    @staticmethod
    def backward(ctx, g):
        return g


class _Custom(nn.Module):
    def __init__(self, op):
        super().__init__()
        self.op = op
        self.fc = nn.Linear(4, 1)

    def forward(self, X):
        return self.fc(self.op(X))


class _Reflect(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect")
        self.fc = nn.Linear(4, 1)

    def forward(self, X):
        return self.fc(torch.flatten(self.conv(X.reshape(-1, 1, 2, 2)), 1))


@pytest.mark.parametrize("module, match", [
    (_Attention(), "'transpose'"),
    # torch.fx traces through a custom autograd function's forward: its ops
    # are what is refused (or explained, when they are supported ones).
    (_Custom(_Square.apply), "'mul'"),
    (_Custom(nn.Sigmoid()), "Sigmoid"),
    (_Reflect(), "padding_mode='reflect'"),
])
def test_unsupported_operations_are_named(module, match):
    X = _rows(10, 4)
    model = FrozenEstimator(_TorchRegressor(module.double()).fit(X))
    for cls in EXPLAINERS:
        with pytest.raises(NotApplicableError, match=f"{match}.*gradient explainers"):
            cls(model).fit(X)


def test_shipped_small_resnet_lrp0_equals_gradient_times_input():
    # The shipped SmallResNet (TetrominoNetClassifier(architecture="resnet"))
    # through the graph reader.  Independent value: on a bias-free ReLU net
    # (every affine part linear, BatchNorm reduced to a scale), LRP-0 is
    # gradient x input, which autograd gives directly.
    import torch
    from sklearn.frozen import FrozenEstimator

    from sklearn_xai.explainers import (
        CompositeLRP,
        DeepTaylor,
        InputXGradient,
        PatternAttribution,
    )
    from sklearn_xai.models import TetrominoNetClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 64))
    y = (X[:, 9] > 0).astype(int)
    net = TetrominoNetClassifier(architecture="resnet", image_size=8, max_epochs=1,
                                 random_state=0).fit(X, y)
    with torch.no_grad():
        for m in net.module_.modules():
            if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)) and m.bias is not None:
                m.bias.zero_()
            if isinstance(m, torch.nn.BatchNorm2d):
                m.bias.zero_()
                m.running_mean.zero_()
    model = FrozenEstimator(net)
    rows = X[:6]
    lrp = CompositeLRP(model, rule="epsilon", epsilon=1e-12, output="decision",
                       target=1).fit(X).transform(rows)
    gxi = InputXGradient(model, output="decision", target=1).fit(X).transform(rows)
    np.testing.assert_allclose(lrp, gxi, rtol=1e-4, atol=1e-6 * np.abs(gxi).max())
    # Deep Taylor (z+) and the patterns run on the same residual net.
    for explainer in (DeepTaylor(model), PatternAttribution(model)):
        A = explainer.fit(X).transform(rows)
        assert A.shape == rows.shape and np.all(np.isfinite(A))
