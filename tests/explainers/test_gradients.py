"""Gradient explainers against hand-derived gradients of small torch models.

Every expected value is computed here from the module's weights with numpy
(closed forms of softmax/linear-model gradients), never with the explainers.
"""

import numpy as np
import pytest
import torch
from skorch import NeuralNetRegressor
from sklearn.decomposition import PCA
from sklearn.frozen import FrozenEstimator
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from sklearn_xai.explainers._gradients import (
    LRP,
    DeepLift,
    Deconvolution,
    GradientShap,
    GuidedBackprop,
    GuidedGradCam,
    InputXGradient,
    IntegratedGradients,
    Saliency,
    SmoothGrad,
    differentiable_model,
)
from sklearn_xai.metrics import feature_agreement
from sklearn_xai.models import (
    LogisticNet,
    LogisticNetClassifier,
    MLPNetClassifier,
    TetrominoNetClassifier,
)
from sklearn_xai.utils import NotApplicableError

# float32 networks: gradients agree with float64 closed forms to ~1e-6.
RTOL, ATOL = 1e-4, 1e-6


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def _data(n=120, d=6, n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = np.linspace(2.0, -1.5, d)
    if n_classes == 2:
        y = (X @ w + 0.3 * rng.normal(size=n) > 0).astype(int)
    else:
        y = np.digitize(X @ w, [-1.0, 1.0])
    return X, y


def _fit_logistic(X, y, **kw):
    with torch.random.fork_rng(devices=[]):
        return LogisticNetClassifier(
            lr=0.1, max_epochs=8, early_stopping=False, random_state=0, **kw
        ).fit(X, y)


@pytest.fixture(scope="module")
def logistic():
    X, y = _data()
    torch.set_num_threads(1)
    return X, y, _fit_logistic(X, y)


def _weights(net):
    lin = net.module_.linear
    W = lin.weight.detach().numpy().astype(np.float64)
    b = lin.bias.detach().numpy().astype(np.float64) if lin.bias is not None else 0.0
    return W, b


def _softmax(Z):
    Z = Z - Z.max(axis=1, keepdims=True)
    E = np.exp(Z)
    return E / E.sum(axis=1, keepdims=True)


def _proba_gradient(W, b, X, c):
    """d p_c / dx = p_c (w_c - sum_k p_k w_k) for a softmax-linear model."""
    P = _softmax(X @ W.T + b)
    pc = P[np.arange(len(X)), c]
    return pc[:, None] * (W[c] - P @ W)


# ------------------------------------------------------------- closed forms
def test_saliency_is_the_analytic_softmax_gradient(logistic):
    X, y, net = logistic
    W, b = _weights(net)
    x = X[:20]
    c = np.argmax(x @ W.T + b, axis=1)
    P = _softmax(x @ W.T + b)
    p1 = P[:, 1]
    sign = np.where(c == 1, 1.0, -1.0)[:, None]  # d p_0 = - d p_1
    expected = sign * (p1 * (1 - p1))[:, None] * (W[1] - W[0])
    A = Saliency(FrozenEstimator(net)).fit(X).transform(x)
    np.testing.assert_allclose(A, expected, rtol=RTOL, atol=ATOL)
    # abs=True is Captum's default absolute gradient
    A_abs = Saliency(FrozenEstimator(net), abs=True).fit(X).transform(x)
    np.testing.assert_allclose(A_abs, np.abs(expected), rtol=RTOL, atol=ATOL)
    # an explicit class explains that class everywhere
    A1 = Saliency(FrozenEstimator(net), target=1).fit(X).transform(x)
    np.testing.assert_allclose(A1, (p1 * (1 - p1))[:, None] * (W[1] - W[0]),
                               rtol=RTOL, atol=ATOL)


def test_input_x_gradient_is_gradient_times_input(logistic):
    X, y, net = logistic
    W, b = _weights(net)
    x = X[:15]
    c = np.argmax(x @ W.T + b, axis=1)
    expected = x * _proba_gradient(W, b, x, c)
    A = InputXGradient(FrozenEstimator(net)).fit(X).transform(x)
    np.testing.assert_allclose(A, expected, rtol=RTOL, atol=ATOL)


def test_multiclass_and_decision_outputs():
    X, y = _data(n_classes=3, seed=1)
    net = _fit_logistic(X, y)
    W, b = _weights(net)
    x = X[:10]
    A = Saliency(FrozenEstimator(net), target=2).fit(X).transform(x)
    np.testing.assert_allclose(A, _proba_gradient(W, b, x, np.full(10, 2)),
                               rtol=RTOL, atol=ATOL)
    # output="decision": the gradient of logit z_2 is w_2
    A = Saliency(FrozenEstimator(net), target=2, output="decision").fit(X).transform(x)
    np.testing.assert_allclose(A, np.tile(W[2], (10, 1)), rtol=RTOL, atol=ATOL)


def test_binary_decision_is_the_log_odds(logistic):
    X, y, net = logistic
    W, _ = _weights(net)
    A = Saliency(FrozenEstimator(net), target=1, output="decision").fit(X).transform(X[:5])
    np.testing.assert_allclose(A, np.tile(W[1] - W[0], (5, 1)), rtol=RTOL, atol=ATOL)
    A0 = Saliency(FrozenEstimator(net), target=0, output="decision").fit(X).transform(X[:5])
    np.testing.assert_allclose(A0, -A, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("baseline", ["zero", "mean"])
def test_integrated_gradients_completeness(logistic, baseline):
    X, y, net = logistic
    W, b = _weights(net)
    x = X[:25] * 2.0  # far from the baseline: a curved path
    ig = IntegratedGradients(FrozenEstimator(net), baseline=baseline).fit(X)
    A = ig.transform(x)
    c = np.argmax(x @ W.T + b, axis=1)
    base = np.zeros(X.shape[1]) if baseline == "zero" else X.mean(axis=0)
    fx = _softmax(x @ W.T + b)[np.arange(25), c]
    fb = _softmax(base[None] @ W.T + b)[0, c]
    # 50-point Gauss-Legendre on a logistic curve is exact to ~1e-7; the
    # tolerance covers float32 arithmetic.
    np.testing.assert_allclose(A.sum(axis=1), fx - fb, atol=1e-5)
    # multiply_by_inputs=False returns the path-averaged gradient
    avg = IntegratedGradients(FrozenEstimator(net), baseline=baseline,
                              multiply_by_inputs=False).fit(X).transform(x)
    np.testing.assert_allclose(avg * (x - base), A, rtol=1e-4, atol=1e-6)


def test_openxai_finding_feature_agreement_is_one(logistic):
    """Grad, IG (OpenXAI's variant) and SmoothGrad rank features by |w1 - w0|."""
    X, y, net = logistic
    W, _ = _weights(net)
    reference = np.tile(W[1] - W[0], (40, 1))
    est = FrozenEstimator(net)
    explainers = [
        Saliency(est),
        IntegratedGradients(est, baseline="mean", multiply_by_inputs=False),
        SmoothGrad(est, n_perturbations=20, std=0.1, random_state=0),
    ]
    for ex in explainers:
        A = ex.fit(X).transform(X[:40])
        np.testing.assert_array_equal(feature_agreement(reference, A, k=0.25), 1.0)
    # Gradient x input is not proportional to the coefficients (OpenXAI: FA < 1).
    A = InputXGradient(est).fit(X).transform(X[:40])
    assert feature_agreement(reference, A, k=0.25).mean() < 1.0


def test_pipeline_scalers_follow_the_chain_rule():
    X, y = _data(seed=2)
    X = X * [1.0, 3.0, 0.5, 2.0, 1.0, 4.0] + 5.0
    pipe = make_pipeline(StandardScaler(), MinMaxScaler(), LogisticNetClassifier(
        lr=0.1, max_epochs=8, early_stopping=False, random_state=0))
    pipe.fit(X, y)
    net = pipe[-1]
    W, b = _weights(net)
    ss, mm = pipe[0], pipe[1]
    Z = mm.transform(ss.transform(X[:10]))
    c = np.argmax(Z @ W.T + b, axis=1)
    dz_dx = mm.scale_ / ss.scale_
    expected = _proba_gradient(W, b, Z, c) * dz_dx
    A = Saliency(FrozenEstimator(pipe)).fit(X).transform(X[:10])
    np.testing.assert_allclose(A, expected, rtol=RTOL, atol=ATOL)
    # an unfitted pipeline is fitted by the explainer and explained the same way
    A2 = Saliency(pipe).fit(X, y).transform(X[:10])
    np.testing.assert_allclose(A2, A, rtol=RTOL, atol=ATOL)


def test_regressor_gradients():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3)).astype(np.float32)
    y = (X @ [1.0, -2.0, 0.5]).astype(np.float32)[:, None]
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        reg = NeuralNetRegressor(LogisticNet, module__n_features=3, module__n_outputs=1,
                                 max_epochs=3, train_split=None, verbose=0).fit(X, y)
    W, b = _weights(reg)
    x = X[:7].astype(np.float64)
    np.testing.assert_allclose(Saliency(FrozenEstimator(reg)).fit(X).transform(x),
                               np.tile(W[0], (7, 1)), rtol=RTOL, atol=ATOL)
    # for a linear output DeepLift and IG are exactly w * (x - b)
    for ex in (DeepLift(FrozenEstimator(reg)), IntegratedGradients(FrozenEstimator(reg))):
        np.testing.assert_allclose(ex.fit(X).transform(x), x * W[0], rtol=1e-4, atol=1e-5)


def test_deeplift_lrp_gradientshap_on_a_linear_logit():
    """Exact x * (w1 - w0) on the log-odds of a bias-free linear model."""
    X, y = _data(seed=4)
    net = _fit_logistic(X, y, module__bias=False)
    W, _ = _weights(net)
    x = X[:12]
    expected = x * (W[1] - W[0])
    est = FrozenEstimator(net)
    kw = dict(target=1, output="decision")
    for ex in (DeepLift(est, **kw),
               GradientShap(est, n_perturbations=3, random_state=0, **kw),
               IntegratedGradients(est, **kw)):
        np.testing.assert_allclose(ex.fit(X).transform(x), expected, rtol=1e-4,
                                   atol=1e-5, err_msg=type(ex).__name__)
    # Captum's LRP scales the epsilon-rule relevances by the explained output
    # D = z1 - z0, which is computed after the last layer:
    # R_j = D * x_j * (w1_j / z1 - w0_j / z0).
    Z = x @ W.T
    D = Z[:, 1] - Z[:, 0]
    lrp = D[:, None] * x * (W[1] / Z[:, 1:] - W[0] / Z[:, :1])
    np.testing.assert_allclose(LRP(est, **kw).fit(X).transform(x), lrp, rtol=1e-3,
                               atol=1e-5)


def test_lrp_epsilon_rule_on_a_logit_is_input_times_weight():
    X, y = _data(n_classes=3, seed=7)
    net = _fit_logistic(X, y, module__bias=False)
    W, _ = _weights(net)
    x = X[:10]
    A = LRP(FrozenEstimator(net), target=2, output="decision").fit(X).transform(x)
    np.testing.assert_allclose(A, x * W[2], rtol=1e-4, atol=1e-6)


def test_lrp_refuses_layers_captum_has_no_rule_for():
    # Captum's LRP raises a plain TypeError at attribution time for a leaf
    # layer without a rule (LayerNorm here); LRP refuses such a module in fit
    # with a NotApplicableError naming the layer (a skip in benchmarks).
    X = np.random.default_rng(0).normal(size=(20, 3)).astype(np.float32)
    y = X[:, :1].copy()

    def regressor(module):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            return NeuralNetRegressor(module, max_epochs=1, train_split=None,
                                      verbose=0).fit(X, y)

    plain = regressor(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                          torch.nn.Linear(4, 1)))
    assert LRP(FrozenEstimator(plain)).fit(X).transform(X[:2]).shape == (2, 3)
    normed = regressor(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LayerNorm(4),
                                           torch.nn.Linear(4, 1)))
    with pytest.raises(NotApplicableError, match=r"no rule for the layers \['LayerNorm'\]"):
        LRP(FrozenEstimator(normed)).fit(X)


def test_guided_methods_on_relu_network():
    X, y = _data(seed=5)
    with torch.random.fork_rng(devices=[]):
        mlp = MLPNetClassifier(max_epochs=3, early_stopping=False, random_state=0,
                               module__hidden_layer_sizes=(8,)).fit(X, y)
    est = FrozenEstimator(mlp)
    x = X[:6]
    module = mlp.module_
    hidden = module.layers[0]
    out = module.layers[2]
    W1 = hidden.weight.detach().numpy().astype(np.float64)
    b1 = hidden.bias.detach().numpy().astype(np.float64)
    W2 = out.weight.detach().numpy().astype(np.float64)
    v = W2[1] - W2[0]  # gradient of the log-odds w.r.t. the hidden units
    active = (x @ W1.T + b1) > 0
    # guided backprop: only positive gradients through active units
    gb = (active * np.maximum(v, 0)) @ W1
    # deconvolution: positive gradients whatever the activation
    dc = np.tile(np.maximum(v, 0) @ W1, (6, 1))
    kw = dict(target=1, output="decision")
    np.testing.assert_allclose(GuidedBackprop(est, **kw).fit(X).transform(x), gb,
                               rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(Deconvolution(est, **kw).fit(X).transform(x), dc,
                               rtol=1e-4, atol=1e-6)
    # the module's training flag is restored after explaining
    mlp.module_.train()
    Saliency(est, target=1).fit(X).transform(x)  # no predict_proba call
    assert mlp.module_.training


def test_guided_gradcam_needs_a_cnn():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(40, 64))
    y = (X[:, 9] > 0).astype(int)
    with torch.random.fork_rng(devices=[]):
        cnn = TetrominoNetClassifier(max_epochs=1, early_stopping=False,
                                     random_state=0).fit(X, y)
    A = GuidedGradCam(FrozenEstimator(cnn)).fit(X).transform(X[:3])
    assert A.shape == (3, 64) and np.all(np.isfinite(A))
    X2, y2 = _data()
    with pytest.raises(TypeError, match="Conv2d"):
        GuidedGradCam(FrozenEstimator(_fit_logistic(X2, y2))).fit(X2)


# ----------------------------------------------------------- what is allowed
@pytest.mark.parametrize("model", [
    KNeighborsClassifier(),  # scikit-learn MLPs and linear models are replicated
    make_pipeline(PCA(2), LogisticNetClassifier(max_epochs=1)),
])
def test_non_differentiable_models_raise(model):
    X, y = _data()
    with pytest.raises(TypeError, match="FeatureAblation.*KernelSHAP"):
        Saliency(model).fit(X, y)
    with pytest.raises(TypeError, match="differentiable torch model"):
        differentiable_model(model.fit(X, y))


def test_classifier_labels_are_not_differentiable(logistic):
    X, y, net = logistic
    with pytest.raises(ValueError, match="output='proba'"):
        Saliency(FrozenEstimator(net), output="predict").fit(X).transform(X[:2])


def test_invalid_baseline_shape(logistic):
    X, y, net = logistic
    with pytest.raises(ValueError, match="baseline must be"):
        IntegratedGradients(FrozenEstimator(net), baseline=np.zeros(3)).fit(X)


# ------------------------------------------------ randomness and batching
def test_stochastic_reproducible_and_batch_independent(logistic):
    X, y, net = logistic
    est = FrozenEstimator(net)
    x = X[:9]
    for cls, kw in ((SmoothGrad, dict(n_perturbations=15)),
                    (GradientShap, dict(baseline=X[:4], std=0.2))):
        full = cls(est, random_state=0, **kw).fit(X).transform(x)
        again = cls(est, random_state=0, **kw).fit(X).transform(x)
        np.testing.assert_array_equal(full, again)
        chunked = cls(est, random_state=0, batch_size=2, **kw).fit(X).transform(x)
        np.testing.assert_allclose(chunked, full, rtol=1e-6, atol=1e-9)
        perm = np.arange(9)[::-1]
        shuffled = cls(est, random_state=0, **kw).fit(X).transform(x[perm])
        np.testing.assert_allclose(shuffled, full[perm], rtol=1e-6, atol=1e-9)
        other = cls(est, random_state=1, **kw).fit(X).transform(x)
        assert not np.allclose(other, full)


def test_smoothgrad_with_zero_noise_is_saliency(logistic):
    X, y, net = logistic
    est = FrozenEstimator(net)
    A = SmoothGrad(est, n_perturbations=3, std=0.0, random_state=0).fit(X).transform(X[:5])
    np.testing.assert_allclose(A, Saliency(est).fit(X).transform(X[:5]), rtol=1e-6)


def test_deterministic_batch_size_and_evaluation_count(logistic):
    X, y, net = logistic
    est = FrozenEstimator(net)
    ig = IntegratedGradients(est, n_steps=10).fit(X)
    A, n_eval = ig.explain(X[:7], return_n_evaluations=True)
    # 7 rows for the predicted class, then 7 x 10 quadrature points
    assert n_eval == 7 + 70
    chunked = IntegratedGradients(est, n_steps=10, batch_size=3).fit(X).transform(X[:7])
    np.testing.assert_allclose(chunked, A, rtol=1e-6, atol=1e-9)


def test_true_label_targets_per_row(logistic):
    X, y, net = logistic
    W, b = _weights(net)
    x, t = X[:10], y[:10]
    A = Saliency(FrozenEstimator(net)).fit(X).explain(x, target=t)
    np.testing.assert_allclose(A, _proba_gradient(W, b, x, t), rtol=RTOL, atol=ATOL)


def test_string_labels_and_dataframe_input(logistic):
    import pandas as pd
    X, y, _ = logistic
    labels = np.array(["neg", "pos"])[y]
    net = _fit_logistic(X, labels)
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    ex = Saliency(FrozenEstimator(net), target="pos").fit(X)
    A = ex.transform(X[:4])
    W, b = _weights(net)
    np.testing.assert_allclose(A, _proba_gradient(W, b, X[:4], np.ones(4, int)),
                               rtol=RTOL, atol=ATOL)
    out = Saliency(FrozenEstimator(net)).set_output(transform="pandas").fit(df).transform(df)
    assert list(out.columns) == list(df.columns)


@pytest.mark.parametrize("make", [
    lambda est: Saliency(est),
    lambda est: IntegratedGradients(est, n_steps=7, baseline="mean"),
    lambda est: DeepLift(est, baseline=0.5),
    lambda est: SmoothGrad(est, n_perturbations=6, random_state=0),
    lambda est: GradientShap(est, n_perturbations=4, std=0.1, random_state=0),
], ids=["Saliency", "IntegratedGradients", "DeepLift", "SmoothGrad", "GradientShap"])
def test_batch_size_is_model_rows_and_none_is_bounded(logistic, make, monkeypatch):
    """batch_size bounds the model rows of a Captum call (whole explained rows);
    None makes blocks of about BLOCK_ENTRIES entries.  Attributions are those
    of one row per call."""
    import sklearn_xai.utils._output as output

    X, y, net = logistic
    est = FrozenEstimator(net)
    x = X[:9]
    one_row = make(est).set_params(batch_size=1).fit(X).transform(x)
    np.testing.assert_allclose(make(est).fit(X).transform(x), one_row,
                               rtol=1e-6, atol=1e-9)
    ex = make(est).fit(X)
    calls = []
    original = type(ex)._attribute

    def counting(self, model, inputs, target, rngs):
        calls.append(len(inputs))
        return original(self, model, inputs, target, rngs)

    monkeypatch.setattr(type(ex), "_attribute", counting)
    per_row = ex._model_rows_per_row()
    monkeypatch.setattr(output, "BLOCK_ENTRIES", 3 * per_row * X.shape[1])
    np.testing.assert_allclose(ex.transform(x), one_row, rtol=1e-6, atol=1e-9)
    assert calls == [3, 3, 3]  # three explained rows per block
    calls.clear()
    ex.set_params(batch_size=2 * per_row).transform(x)
    assert calls == [2, 2, 2, 2, 1]


def test_predict_nonlinearity_is_the_nets_predict_proba(logistic):
    from sklearn_xai.utils._torch_model import predict_nonlinearity

    X, y, net = logistic
    Z = net.module_(torch.as_tensor(X[:5], dtype=torch.float32))
    np.testing.assert_allclose(predict_nonlinearity(net)(Z).detach().numpy(),
                               net.predict_proba(X[:5]), rtol=1e-6)
    reg = NeuralNetRegressor(LogisticNet, module__n_features=6, module__n_outputs=1,
                             max_epochs=1, train_split=None, verbose=0)
    reg.initialize()
    assert predict_nonlinearity(reg)(Z) is Z
    reg.set_params(predict_nonlinearity=torch.tanh)
    assert predict_nonlinearity(reg) is torch.tanh
    reg.set_params(predict_nonlinearity="softmax")
    with pytest.raises(TypeError, match="predict_nonlinearity"):
        predict_nonlinearity(reg)


def test_deeplift_on_probabilities_is_captums_on_a_functional_softmax():
    """DeepLift of a probability differentiates the softmax as a function:
    Captum's DeepLift run directly on the same weights with ``torch.softmax``
    in ``forward`` gives the same values, and on the logits summation-to-delta
    holds exactly (ReLU network, zero baseline)."""
    from captum.attr import DeepLift as CaptumDeepLift

    X, y = _data(n=200, d=5, n_classes=3, seed=7)
    net = MLPNetClassifier(max_epochs=5, early_stopping=False, random_state=0,
                           verbose=0).fit(X, y)
    x = X[:30]
    A = DeepLift(FrozenEstimator(net), output="proba").fit(X).transform(x)
    t = net.predict_proba(x).argmax(axis=1)

    class Softmaxed(torch.nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, z):
            return torch.softmax(self.module(z), dim=1)

    module = net.module_.eval()
    xt = torch.tensor(x, dtype=torch.float32)
    expected = CaptumDeepLift(Softmaxed(module)).attribute(
        xt, baselines=torch.zeros_like(xt), target=torch.as_tensor(t)).detach().numpy()
    np.testing.assert_allclose(A, expected, rtol=1e-4, atol=1e-6)
    # Logits: summation-to-delta, computed from the model's own outputs.
    D = DeepLift(FrozenEstimator(net), output="decision").fit(X).transform(x)
    with torch.no_grad():
        z = module(xt).numpy()
        z0 = module(torch.zeros_like(xt[:1])).numpy()
    tz = D.sum(axis=1)
    np.testing.assert_allclose(tz, z[np.arange(len(x)), t] - z0[0, t], rtol=1e-4,
                               atol=1e-5)
