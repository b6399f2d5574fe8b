"""LRP rules, deep Taylor decomposition and PatternNet / PatternAttribution
against hand computations, Captum's LRP run directly, and the closed-form
pattern ``cov(x, y) / var(y)`` of a linear model with a suppressor feature."""

import warnings

import numpy as np
import pytest
import torch
from captum.attr import LRP as CaptumLRP
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from sklearn_xai.explainers import (
    CompositeLRP,
    DeepTaylor,
    PatternAttribution,
    PatternNet,
    torch_replica,
)
from sklearn_xai.models import BEExAIMLP


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


def _hand_net():
    """y = [1, -2] . relu(W1 x) + 0.5 with W1 = [[1, 2], [-1, 1]]: at x = (1, 2)
    the hidden units are (5, 1) and y = 3.5."""
    X = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, -1.0], [-1.0, 0.5]])
    mlp = MLPRegressor(hidden_layer_sizes=(2,), max_iter=1).fit(X, X[:, 0])
    mlp.coefs_ = [np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([[1.0], [-2.0]])]
    mlp.intercepts_ = [np.zeros(2), np.array([0.5])]
    return X, FrozenEstimator(mlp)


def _explain(X, model, **params):
    return CompositeLRP(model, **params).fit(X).transform(np.array([[1.0, 2.0]]))[0]


def test_lrp_rules_by_hand():
    X, model = _hand_net()
    # epsilon: hidden R = a w = (5, -2); input from unit 1 (z=5): x * w / 5 * 5
    # = (1, 4); from unit 2 (z=1): (1 * -1, 2 * 1) / 1 * -2 = (2, -4).
    np.testing.assert_allclose(_explain(X, model, epsilon=1e-12), [3.0, 0.0], atol=1e-9)
    # z-plus: only the positive contribution 5 * 1 of unit 1 at the output, so
    # hidden R = (3.5, 0); input (1, 4) / 5 * 3.5 -- sums to y = 3.5.
    np.testing.assert_allclose(_explain(X, model, rule="z_plus", epsilon=1e-12),
                               [0.7, 2.8], atol=1e-9)
    # alpha = 2, beta = 1: output layer z+ = 5 + 0.5 (bias), z- = -2.
    Rh = np.array([2 * 5 / 5.5 * 3.5, -1 * (-2) / (-2) * 3.5])
    # input layer, unit 1 (w = (1, 2)): positive parts x w = (1, 4), z+ = 5;
    # unit 2 (w = (-1, 1)): positive part x_2 w_2 = 2, negative x_1 w_1 = -1.
    expected = 2 * (np.array([1.0, 4.0]) / 5 * Rh[0] + np.array([0.0, 2.0]) / 2 * Rh[1]) \
        - 1 * (np.array([-1.0, 0.0]) / -1 * Rh[1])
    np.testing.assert_allclose(_explain(X, model, rule="alpha_beta", epsilon=1e-12),
                               expected, rtol=1e-9)
    # gamma = 0.25: W + 0.25 W+, b + 0.25 b+.
    Wo, bo = np.array([1.25, -2.0]), 0.625
    Rh = np.array([5.0, 1.0]) * Wo / (5 * 1.25 - 2 + bo) * 3.5
    W1 = np.array([[1.25, 2.5], [-1.0, 1.25]])
    z1 = W1 @ [1.0, 2.0]
    expected = np.array([1.0, 2.0]) * ((Rh / z1) @ W1)
    np.testing.assert_allclose(_explain(X, model, rule="gamma", epsilon=1e-12),
                               expected, rtol=1e-9)
    # w-square input rule under epsilon: hidden R = (5, -2); unit 1 spreads
    # w^2 = (1, 4) / 5, unit 2 w^2 = (1, 1) / 2.
    expected = np.array([1.0, 4.0]) / 5 * 5 + np.array([1.0, 1.0]) / 2 * -2
    np.testing.assert_allclose(_explain(X, model, input_rule="w_square", epsilon=1e-12),
                               expected, rtol=1e-9, atol=1e-9)
    # flat: (1, 1) / 2 from each unit.
    np.testing.assert_allclose(_explain(X, model, input_rule="flat", epsilon=1e-12),
                               [1.5, 1.5], rtol=1e-9)
    # z-box with l = -1, h = 3: z_j = x w_j - l w_j+ - h w_j-.
    l, h = np.full(2, -1.0), np.full(2, 3.0)
    x = np.array([1.0, 2.0])
    W = np.array([[1.0, 2.0], [-1.0, 1.0]])
    Wp, Wn = np.maximum(W, 0), np.minimum(W, 0)
    s = np.array([5.0, -2.0]) / (W @ x - Wp @ l - Wn @ h)
    expected = x * (s @ W) - l * (s @ Wp) - h * (s @ Wn)
    np.testing.assert_allclose(
        _explain(X, model, input_rule="z_box", low=-1.0, high=3.0, epsilon=1e-12),
        expected, rtol=1e-9)
    # Deep Taylor: z-plus above, w-square at the input: (1, 4) / 5 * 3.5.
    A = DeepTaylor(model).fit(X).transform([[1.0, 2.0]])[0]
    np.testing.assert_allclose(A, [0.7, 2.8], rtol=1e-9)


def test_epsilon_rule_equals_captums_lrp():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 5))
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2], [-0.5, 0.5])
    mlp = MLPClassifier(hidden_layer_sizes=(7, 6), max_iter=200, random_state=0).fit(X, y)
    # The softmax is not propagated through: the logit of class 2 is explained.
    ours = CompositeLRP(FrozenEstimator(mlp), epsilon=1e-9, target=2).fit(X).transform(
        X[:6])
    module = torch_replica(mlp, output="decision")
    theirs = CaptumLRP(module).attribute(torch.as_tensor(X[:6]), target=2)
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=1e-7, atol=1e-10)


def test_deep_taylor_conserves_relevance_and_batches_do_not_matter():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 4))
    mlp = MLPRegressor(hidden_layer_sizes=(6,), max_iter=300, random_state=0).fit(
        X, np.abs(X[:, 0]) + X[:, 1])
    mlp.intercepts_ = [np.zeros(6), np.zeros(1)]  # conservation needs no bias
    dt = DeepTaylor(FrozenEstimator(mlp)).fit(X)
    A = dt.transform(X[:20])
    f = mlp.predict(X[:20])
    positive = f > 1e-6
    np.testing.assert_allclose(A.sum(axis=1)[positive], f[positive], rtol=1e-7)
    small = DeepTaylor(FrozenEstimator(mlp), batch_size=3).fit(X).transform(X[:20])
    np.testing.assert_allclose(small, A, rtol=1e-12)


class _TorchRegressor(RegressorMixin, BaseEstimator):
    """A fitted torch module seen as a regressor (what the explainers read of
    a skorch net: ``module_`` and ``predict``)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        return self

    def predict(self, X):
        with torch.no_grad():
            out = self.module_(torch.as_tensor(np.asarray(X), dtype=torch.float64))
        return out.numpy()[:, 0]


def test_batch_norm_and_dropout_are_folded():
    """BEExAI's Linear -> ReLU -> BatchNorm -> Dropout blocks: the batch
    normalisations (non-trivial running statistics) are folded into the next
    Linear layer; epsilon LRP then equals Captum's LRP on the folded net,
    folded here by hand."""
    torch.manual_seed(0)
    net = BEExAIMLP(3, n_neurons=5, n_hidden_layers=2).double().eval()
    linears = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm1d)]
    with torch.no_grad():
        for bn in norms:
            bn.running_mean.uniform_(-1, 1)
            bn.running_var.uniform_(0.5, 2)
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.5, 0.5)
    X = np.random.default_rng(0).normal(size=(50, 3))
    model = FrozenEstimator(_TorchRegressor(net).fit(X))
    ours = CompositeLRP(model, epsilon=1e-9).fit(X).transform(X[:4])
    folded = []
    for i, lin in enumerate(linears):
        W, b = lin.weight.detach().clone(), lin.bias.detach().clone()
        if i > 0:  # the batch norm before this layer: x * s + t
            bn = norms[i - 1]
            s = bn.weight / torch.sqrt(bn.running_var + bn.eps)
            t = bn.bias - bn.running_mean * s
            W, b = W * s, b + W @ t
        layer = torch.nn.Linear(W.shape[1], W.shape[0]).double()
        with torch.no_grad():
            layer.weight.copy_(W)
            layer.bias.copy_(b)
        folded += [layer, torch.nn.ReLU()] if i < len(linears) - 1 else [layer]
    folded = torch.nn.Sequential(*folded).eval()
    np.testing.assert_allclose(folded(torch.as_tensor(X)).detach().numpy()[:, 0],
                               model.predict(X), rtol=1e-12)
    theirs = CaptumLRP(folded).attribute(torch.as_tensor(X[:4]), target=0)
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=1e-7, atol=1e-12)
    pa = PatternAttribution(model).fit(X)
    assert [p.shape for p in pa.patterns_] == [(5, 3), (5, 5), (1, 5)]


class _SkipCNN(torch.nn.Module):
    """An 8x8 CNN with a residual connection (or grouped convolutions)."""

    def __init__(self, groups=1, skip=True):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 2, 3, padding=1)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(2, 2, 3, padding=1, groups=groups)
        self.linear = torch.nn.Linear(128, 1)
        self.skip = skip

    def forward(self, X):
        h = self.relu(self.conv1(X.reshape(-1, 1, 8, 8)))
        h = self.conv2(h) + h if self.skip else self.conv2(h)
        return self.linear(torch.flatten(h, 1))


def test_unsupported_models_raise_a_helpful_error():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 64))
    y = (X[:, 0] > 0).astype(int)
    tanh = MLPClassifier(hidden_layer_sizes=(3,), activation="tanh", max_iter=20).fit(X, y)
    for cls in (CompositeLRP, DeepTaylor, PatternNet, PatternAttribution):
        with pytest.raises(TypeError, match="dense ReLU networks.*Tanh"):
            cls(FrozenEstimator(tanh)).fit(X)
    # TetrominoCNN is supported (tests/explainers/test_lrp_conv.py), and so is
    # a CNN whose forward adds a skip connection, read as a graph
    # (tests/explainers/test_lrp_graph.py).
    torch.manual_seed(0)
    cnn = _TorchRegressor(_SkipCNN().double()).fit(X)
    assert (2, 1) in PatternNet(FrozenEstimator(cnn)).fit(X).chain_.parents
    grouped = _TorchRegressor(_SkipCNN(groups=2, skip=False).double()).fit(X)
    with pytest.raises(TypeError, match="dense ReLU networks.*groups=2"):
        CompositeLRP(FrozenEstimator(grouped)).fit(X)
    clipped = make_pipeline(MinMaxScaler(clip=True), LogisticRegression()).fit(X, y)
    with pytest.raises(TypeError, match="clip=True"):
        PatternNet(FrozenEstimator(clipped)).fit(X)


# ------------------------------------------------------------------ patterns
def _suppressor(n=2000, seed=0):
    """x_1 = z + d, x_2 = d: the target z is x_1 - x_2, so the weights are
    (1, -1), but x_2 (the suppressor) holds no information about z."""
    rng = np.random.default_rng(seed)
    z, d = rng.normal(size=(2, n))
    X = np.column_stack([z + d, d, rng.normal(size=n)])
    return X, z


def test_pattern_of_a_linear_model_is_cov_over_var():
    X, z = _suppressor()
    model = LinearRegression().fit(X, z)
    np.testing.assert_allclose(model.coef_[:2], [1.0, -1.0], atol=1e-10)
    y = model.predict(X)
    a = np.cov(X.T, y)[:3, 3] / np.var(y, ddof=1)  # closed form
    pn = PatternNet(FrozenEstimator(model)).fit(X)
    np.testing.assert_allclose(pn.patterns_[0][0], a, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a[:2], [1.0, 0.0], atol=0.05)  # not the suppressor
    rows = X[:5]
    f = model.predict(rows)
    np.testing.assert_allclose(pn.transform(rows), f[:, None] * a, rtol=1e-9)
    pa = PatternAttribution(FrozenEstimator(model)).fit(X)
    np.testing.assert_allclose(pa.transform(rows), f[:, None] * model.coef_ * a, rtol=1e-9)
    np.testing.assert_allclose(pa.transform(rows).sum(axis=1), f, rtol=1e-9)


def test_pattern_of_a_standardised_logistic_regression():
    """Scalers are folded: the pattern is in raw input units, and the two
    classes' decision scores +-z have the same signal a z."""
    X, z = _suppressor(seed=1)
    X = X * [2.0, 0.5, 1.0] + [1.0, -1.0, 3.0]
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, (z > 0).astype(int))
    score = model.decision_function(X)
    a = np.cov(X.T, score)[:3, 3] / np.var(score, ddof=1)
    pn = PatternNet(FrozenEstimator(model)).fit(X)
    np.testing.assert_allclose(pn.patterns_[0], [-a, a], rtol=1e-8, atol=1e-12)
    A0 = pn.explain(X[:4], target=0)
    A1 = pn.explain(X[:4], target=1)
    np.testing.assert_allclose(A0, A1, rtol=1e-12)
    np.testing.assert_allclose(A1, score[:4, None] * a, rtol=1e-8)
    assert abs(a[1]) < 0.05 * abs(a[0])


@pytest.mark.parametrize("block", [None, 37])
def test_two_component_patterns_of_a_relu_layer(block, monkeypatch):
    """a+ of each hidden unit: covariance of the inputs and the unit over the
    rows where the unit is positive, over its variance there (moments summed
    over blocks of rows or not)."""
    if block is not None:
        from sklearn_xai.explainers import _pattern

        monkeypatch.setattr(_pattern, "_PATTERN_BLOCK", block)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    mlp = MLPRegressor(hidden_layer_sizes=(4,), max_iter=300, random_state=0).fit(
        X, np.maximum(X[:, 0], 0) - X[:, 1])
    pn = PatternNet(FrozenEstimator(mlp)).fit(X)
    H = X @ mlp.coefs_[0] + mlp.intercepts_[0]
    for k in range(4):
        for sign, patterns in ((1, pn.patterns_), (-1, pn.negative_patterns_)):
            rows = sign * H[:, k] > 0
            if rows.sum() < 3:
                continue
            expected = np.cov(X[rows].T, H[rows, k])[:3, 3] / np.var(H[rows, k], ddof=1)
            np.testing.assert_allclose(patterns[0][k], expected, rtol=1e-8, atol=1e-12)
    linear = PatternNet(FrozenEstimator(mlp), pattern_type="linear").fit(X)
    expected = np.cov(X.T, H[:, 0])[:3, 3] / np.var(H[:, 0], ddof=1)
    np.testing.assert_allclose(linear.patterns_[0][0], expected, rtol=1e-8)
    assert linear.negative_patterns_ == [None, None]
    # PatternNet back-projects y through the patterns, gated by the ReLUs.
    x = X[:3]
    Hx = x @ mlp.coefs_[0] + mlp.intercepts_[0]
    y = mlp.predict(x)
    A2 = pn.patterns_[1][0]  # (4,)
    expected = ((y[:, None] * A2) * (Hx > 0)) @ pn.patterns_[0]
    np.testing.assert_allclose(pn.transform(x), expected, rtol=1e-9)
