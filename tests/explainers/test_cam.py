"""Class activation maps (GradCAM, GradCAMPlusPlus, ScoreCAM), the layer choice
they share with GuidedGradCam, and ExpectedGradients.

Each method is checked against a value computed independently here: Captum's
``LayerGradCam`` + ``LayerAttribution.interpolate`` run directly on the same
module, numpy hand computations on a one-convolution net (convolution,
gradients, weights and bilinear upsampling written out), a direct per-map
torch loop for Score-CAM, and the closed form ``(x - E[b]) w`` of expected
gradients on a linear model.
"""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from skorch import NeuralNetClassifier
from torch import nn

from sklearn_xai.explainers import (
    ExpectedGradients,
    GradCAM,
    GradCAMPlusPlus,
    GradientShap,
    GuidedGradCam,
    ScoreCAM,
)
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils.estimator_checks import check_explainer

C, H, W = 2, 5, 6  # two-channel, non-square images (catches transpositions)


class TwoConvNet(nn.Module):
    """Conv(2→3, 3x3, pad 1) → ReLU → Conv(3→4, 2x2) → ReLU → Linear → 3 classes."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(C, 3, 3, padding=1)
        self.act1 = nn.ReLU()
        self.conv2 = nn.Conv2d(3, 4, 2)
        self.act2 = nn.ReLU()
        self.head = nn.Linear(4 * (H - 1) * (W - 1), 3)

    def forward(self, x):
        h = self.act1(self.conv1(x.reshape(-1, C, H, W)))
        h = self.act2(self.conv2(h))
        return self.head(h.flatten(1))


class OneConvNet(nn.Module):
    """One 2x2 convolution (no padding, no activation) of a 3x4 image, then a
    linear layer to 3 classes: the hand computations' net."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 2)
        self.head = nn.Linear(2 * 2 * 3, 3)

    def forward(self, x):
        return self.head(self.conv(x.reshape(-1, 1, 3, 4)).flatten(1))


def _net(module, seed=0):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        net = NeuralNetClassifier(module, criterion=nn.CrossEntropyLoss,
                                  classes=[0, 1, 2], verbose=0).initialize()
    net.module_.double()
    return FrozenEstimator(net)


@pytest.fixture(scope="module")
def two_conv():
    rng = np.random.default_rng(0)
    return _net(TwoConvNet), rng.normal(size=(5, C * H * W))


@pytest.fixture(scope="module")
def one_conv():
    rng = np.random.default_rng(1)
    return _net(OneConvNet, seed=1), rng.normal(size=(5, 12))


def _softmax_module(est):
    """The net's module followed by the softmax (what predict_proba applies)."""
    return nn.Sequential(est.estimator.module_, nn.Softmax(dim=-1))


# ----------------------------------------------------------------- Grad-CAM
@pytest.mark.parametrize("layer,relu", [(None, True), ("conv1", False)])
def test_gradcam_equals_captum_layer_gradcam_bilinear(two_conv, layer, relu):
    """Captum's LayerGradCam then LayerAttribution.interpolate(bilinear), on
    the same float64 module; tolerance 1e-12 (same arithmetic up to order)."""
    from captum import attr as captum_attr
    est, X = two_conv
    target = np.array([0, 1, 2, 0, 1])
    ours = GradCAM(est, layer=layer, image_shape=(C, H, W), relu_attributions=relu,
                   target=target[0]).fit(X)
    A = ours.explain(X, target=target)
    module = est.estimator.module_
    images = torch.as_tensor(X).reshape(len(X), C, H, W)
    cam = captum_attr.LayerGradCam(_softmax_module(est),
                                   module.conv2 if layer is None else module.conv1)
    L = cam.attribute(images, target=torch.as_tensor(target),
                      relu_attributions=relu)
    up = captum_attr.LayerAttribution.interpolate(L, (H, W),
                                                  interpolate_mode="bilinear")
    expected = up.expand(-1, C, -1, -1).reshape(len(X), -1).detach().numpy()
    assert ours.layer_ == ("conv2" if layer is None else "conv1")
    np.testing.assert_allclose(A, expected, rtol=0, atol=1e-12)
    if not relu:
        assert (A < 0).any()
    assert np.abs(A).max() > 1e-6


def _conv2x2(x, weight, bias):
    """Valid 2x2 convolution of a (3, 4) image by (K, 1, 2, 2) kernels."""
    K = weight.shape[0]
    out = np.empty((K, 2, 3))
    for k in range(K):
        for i in range(2):
            for j in range(3):
                out[k, i, j] = np.sum(x[i:i + 2, j:j + 2] * weight[k, 0]) + bias[k]
    return out


def _bilinear(maps, size):
    """Bilinear resize with half-pixel centres (align_corners=False), by hand."""
    h, w = maps.shape[-2:]
    H_out, W_out = size

    def axis(n_in, n_out):
        src = np.maximum((np.arange(n_out) + 0.5) * n_in / n_out - 0.5, 0.0)
        i0 = np.minimum(np.floor(src).astype(int), n_in - 1)
        i1 = np.minimum(i0 + 1, n_in - 1)
        return i0, i1, src - i0

    r0, r1, lr = axis(h, H_out)
    c0, c1, lc = axis(w, W_out)
    top = maps[..., r0, :] * (1 - lr)[:, None] + maps[..., r1, :] * lr[:, None]
    return top[..., c0] * (1 - lc) + top[..., c1] * lc


def _one_conv_pieces(est, X):
    module = est.estimator.module_
    weight = module.conv.weight.detach().numpy()
    bias = module.conv.bias.detach().numpy()
    V = module.head.weight.detach().numpy().reshape(3, 2, 2, 3)
    c = module.head.bias.detach().numpy()
    A = np.stack([_conv2x2(x.reshape(3, 4), weight, bias) for x in X])
    z = np.einsum("tkij,nkij->nt", V, A) + c
    return A, V, z


def _proba_gradient(V, z, target):
    """∂p_t/∂A for z = V·A + c: p_t (V_t - Σ_c p_c V_c), one (K, 2, 3) per row."""
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p[:, target, None, None, None] * (
        V[target] - np.einsum("nc,ckij->nkij", p, V))


def test_gradcam_hand_computation_one_conv_layer(one_conv):
    """Weights: spatial means of ∂p_t/∂A_k; map ReLU(Σ_k w_k A_k), bilinear."""
    est, X = one_conv
    A, V, z = _one_conv_pieces(est, X)
    target = 2
    weights = _proba_gradient(V, z, target).mean(axis=(2, 3))  # (n, K)
    cam = np.maximum(np.einsum("nk,nkij->nij", weights, A), 0)
    expected = _bilinear(cam, (3, 4)).reshape(len(X), -1)
    got = GradCAM(est, target=target, image_shape=(3, 4)).fit(X).transform(X)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert expected.max() > 0


def test_gradcam_plus_plus_hand_computation(one_conv):
    """Probability output: g = p_t (V_t - Σ_c p_c V_c); α = g² / (2g² + ΣA g³);
    w_k = Σ α ReLU(g); map ReLU(Σ w_k A_k), bilinear to the image."""
    est, X = one_conv
    A, V, z = _one_conv_pieces(est, X)
    target = 1
    G = _proba_gradient(V, z, target)
    expected = []
    for n in range(len(X)):
        g = G[n]
        sum_A = A[n].sum(axis=(1, 2))[:, None, None]
        den = 2 * g ** 2 + sum_A * g ** 3
        alpha = np.divide(g ** 2, den, out=np.zeros_like(g), where=den != 0)
        w = (alpha * np.maximum(g, 0)).sum(axis=(1, 2))
        cam = np.maximum(np.einsum("k,kij->ij", w, A[n]), 0)
        expected.append(_bilinear(cam, (3, 4)).ravel())
    got = GradCAMPlusPlus(est, target=target, image_shape=(3, 4)).fit(X).transform(X)
    np.testing.assert_allclose(got, np.array(expected), rtol=1e-9, atol=1e-14)
    assert np.max(expected) > 0
    # it is not Grad-CAM (the weights differ)
    gradcam = GradCAM(est, target=target, image_shape=(3, 4)).fit(X)
    assert not np.allclose(got, gradcam.transform(X))


# ---------------------------------------------------------------- Score-CAM
def test_scorecam_equals_direct_loop(two_conv):
    """One model call per map and row, written out; batched and blocked
    explanations give the same."""
    import torch.nn.functional as F

    est, X = two_conv
    module = est.estimator.module_
    f = _softmax_module(est)
    target = 1
    expected = []
    with torch.no_grad():
        for x in X:
            image = torch.as_tensor(x).reshape(1, C, H, W)
            maps = module.conv2(module.act1(module.conv1(image)))[0]  # the last Conv2d
            base = f(torch.zeros_like(image))[0, target]
            weights = []
            for a in maps:
                up = F.interpolate(a[None, None], size=(H, W), mode="bilinear",
                                   align_corners=False)[0, 0]
                span = up.max() - up.min()
                mask = (up - up.min()) / span if span > 0 else torch.zeros_like(up)
                weights.append(f(image * mask)[0, target] - base)
            cam = torch.relu(sum(w * a for w, a in zip(weights, maps)))
            up = F.interpolate(cam[None, None], size=(H, W), mode="bilinear",
                               align_corners=False)[0, 0]
            expected.append(up.expand(C, H, W).reshape(-1).numpy())
    ex = ScoreCAM(est, target=target, image_shape=(C, H, W)).fit(X)
    assert ex.layer_shape_ == (4, H - 1, W - 1)
    np.testing.assert_allclose(ex.transform(X), np.array(expected), rtol=0, atol=1e-12)
    small = ScoreCAM(est, target=target, image_shape=(C, H, W), batch_size=6).fit(X)
    np.testing.assert_allclose(small.transform(X), np.array(expected), rtol=0,
                               atol=1e-12)
    assert np.max(expected) > 0


# ------------------------------------------- layer, image shape, refusals
def test_layer_by_name_and_errors(two_conv):
    est, X = two_conv
    A = GradCAM(est, layer="act1", image_shape=(C, H, W)).fit(X).transform(X[:2])
    assert A.shape == (2, C * H * W)
    # repeated over channels
    per_channel = A.reshape(2, C, H * W)
    np.testing.assert_array_equal(per_channel[:, 0], per_channel[:, 1])
    with pytest.raises(ValueError, match=r"layer='conv9'.*'conv1', 'act1', 'conv2'"):
        GradCAM(est, layer="conv9", image_shape=(C, H, W)).fit(X)
    with pytest.raises(ValueError, match="layer 'head' returns shape"):
        ScoreCAM(est, layer="head", image_shape=(C, H, W)).fit(X)
    with pytest.raises(ValueError, match="image_shape"):
        GradCAM(est, image_shape=(3, H, W)).fit(X)
    with pytest.raises(ValueError, match="layer='nope'"):
        GuidedGradCam(est, layer="nope", image_shape=(C, H, W)).fit(X)


def test_module_image_shape_attribute_wins(one_conv):
    est, X = one_conv
    module = est.estimator.module_
    with pytest.raises(ValueError, match="square"):
        GradCAM(est).fit(X)  # 12 features: no square image
    module.image_shape = (1, 3, 4)
    try:
        assert GradCAM(est).fit(X).image_shape_ == (1, 3, 4)
    finally:
        del module.image_shape


@pytest.mark.parametrize("cls", [GradCAM, GradCAMPlusPlus, ScoreCAM, GuidedGradCam])
def test_tabular_models_refused(cls):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4))
    y = (X[:, 0] > 0).astype(int)
    model = FrozenEstimator(LogisticRegression().fit(X, y))
    with pytest.raises(NotApplicableError, match="Conv2d.*Saliency"):
        cls(model).fit(X)


def test_guided_gradcam_layer_equals_captum(two_conv):
    from captum import attr as captum_attr
    est, X = two_conv
    got = GuidedGradCam(est, layer="conv1", image_shape=(C, H, W), target=2).fit(X)
    images = torch.as_tensor(X).reshape(len(X), C, H, W)
    ref = captum_attr.GuidedGradCam(_softmax_module(est), est.estimator.module_.conv1)
    expected = ref.attribute(images, target=2).reshape(len(X), -1).detach().numpy()
    np.testing.assert_allclose(got.transform(X), expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("cls", [
    GradCAM, ScoreCAM,
    # the same machinery as GradCAM (only the weights differ): slow set only
    pytest.param(GradCAMPlusPlus, marks=pytest.mark.slow),
])
def test_check_explainer_on_a_cnn(cls):
    class TinyCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3, padding=1)
            self.out = nn.Linear(128, 2)

        def forward(self, x):
            return self.out(torch.relu(self.conv(x.reshape(-1, 1, 8, 8))).flatten(1))

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        cnn = NeuralNetClassifier(TinyCNN, criterion=nn.CrossEntropyLoss,
                                  classes=[0, 1], verbose=0).initialize()
    check_explainer(cls(), tasks=("classification",), n_features=64,
                    model=FrozenEstimator(cnn))


# --------------------------------------------------------- expected gradients
def test_expected_gradients_is_gradient_shap_with_training_baselines():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    model = FrozenEstimator(LinearRegression().fit(X, X @ [1.0, -2.0, 0.5]))
    eg = ExpectedGradients(model, n_perturbations=7, random_state=0).fit(X)
    assert isinstance(eg, GradientShap)
    np.testing.assert_array_equal(eg.baseline_, X)
    gs = GradientShap(model, baseline=X, n_perturbations=7, random_state=0).fit(X)
    np.testing.assert_array_equal(eg.transform(X[:5]), gs.transform(X[:5]))
    # a row's result does not depend on its batch
    np.testing.assert_allclose(eg.transform(X[:4])[2:], eg.transform(X[2:4]),
                               rtol=0, atol=1e-12)


def test_expected_gradients_converges_to_closed_form_on_linear_model():
    """f(x) = w·x + c: each draw is (x - b) w, the mean (x - E[b]) w with a
    baseline-sampling error of sd(b_j) |w_j| / sqrt(N)."""
    rng = np.random.default_rng(4)
    X_train = rng.normal(loc=[1.0, -1.0, 0.0, 2.0], scale=[1.0, 0.5, 2.0, 1.0],
                         size=(300, 4))
    w = np.array([1.5, -2.0, 0.5, 1.0])
    model = FrozenEstimator(LinearRegression().fit(X_train, X_train @ w + 3.0))
    N = 4000
    x = rng.normal(size=(3, 4))
    eg = ExpectedGradients(model, n_perturbations=N, random_state=0).fit(X_train)
    A = eg.transform(x)
    expected = (x - X_train.mean(axis=0)) * w
    bound = 5 * X_train.std(axis=0) * np.abs(w) / np.sqrt(N)
    assert np.all(np.abs(A - expected) < bound)
    # a zero baseline would be far off: the test tells the baselines apart
    assert np.any(np.abs(x * w - expected) > 10 * bound)
