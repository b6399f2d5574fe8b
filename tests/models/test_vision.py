"""SmallResNet, SmallViT, their estimators, and a user's ResNet-18 with the
gradient and model-agnostic explainers."""

import operator
import pickle

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator
from sklearn.utils._param_validation import InvalidParameterError
from torch import nn

from sklearn_xai.models import SmallResNet, SmallViT, TetrominoNetClassifier


# ---------------------------------------------------------------- modules
def test_resnet_layers_are_modules_and_fx_traceable():
    net = SmallResNet(3 * 16 * 16, n_outputs=4, in_channels=3, widths=(4, 8, 8),
                      blocks_per_stage=2).eval()
    assert net(torch.zeros(2, 768)).shape == (2, 4)
    kinds = {type(m) for m in net.modules()}
    assert {nn.Conv2d, nn.BatchNorm2d, nn.ReLU, nn.AdaptiveAvgPool2d, nn.Flatten,
            nn.Linear} <= kinds
    # Every Conv2d is followed by a BatchNorm2d of its width.
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    assert [c.out_channels for c in convs] == [b.num_features for b in bns]
    # Stage 2 and 3 halve the resolution: 1x1 shortcuts there, identity elsewhere.
    shortcuts = [b.shortcut for stage in net.stages for b in stage]
    assert [isinstance(s, nn.Identity) for s in shortcuts] == [
        True, True, False, True, False, True]
    # The residual sum is an `add` node of the traced graph (no functional ReLU).
    graph = torch.fx.symbolic_trace(net).graph
    targets = [n.target for n in graph.nodes if n.op == "call_function"]
    assert targets.count(operator.add) == 6
    assert torch.relu not in targets and nn.functional.relu not in targets


def test_resnet_block_is_a_residual_sum():
    """Zeroing a block's second batch norm leaves ``relu(shortcut(x))``."""
    net = SmallResNet(64, widths=(2,)).eval()
    block = net.stages[0][0]
    nn.init.zeros_(block.bn2.weight)
    nn.init.zeros_(block.bn2.bias)
    x = torch.randn(3, 2, 8, 8)
    torch.testing.assert_close(block(x), torch.relu(x))


def test_vit_attention_probs_are_the_softmax_of_scaled_dot_products():
    torch.manual_seed(0)
    vit = SmallViT(3 * 16 * 16, n_outputs=3, in_channels=3, patch_size=4, dim=8,
                   heads=2, depth=3).eval()
    seen = []
    for block in vit.blocks:
        block.attn.attention_probs.register_forward_hook(lambda m, i, o: seen.append(o))
    X = torch.randn(2, 768)
    assert vit(X).shape == (2, 3)
    assert len(seen) == 3 and seen[0].shape == (2, 2, 17, 17)
    # Recompute the first block's probabilities directly from its weights.
    patches = X.reshape(2, 3, 4, 4, 4, 4).permute(0, 2, 4, 1, 3, 5).reshape(2, 16, 48)
    W = vit.patch_embed.weight.reshape(8, 48)
    tokens = patches @ W.T + vit.patch_embed.bias
    x = torch.cat([vit.cls_token.expand(2, -1, -1), tokens], 1) + vit.pos_embed
    h = vit.blocks[0].norm1(x)
    q, k, _ = vit.blocks[0].attn.qkv(h).split(8, dim=-1)
    q, k = (t.reshape(2, 17, 2, 4).transpose(1, 2) for t in (q, k))
    expected = torch.softmax(q @ k.transpose(-1, -2) / 2.0, dim=-1)
    torch.testing.assert_close(seen[0], expected, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("cls,kwargs,match", [
    (SmallResNet, {"n_features": 65}, "in_channels"),
    (SmallResNet, {"n_features": 64, "image_size": 4}, "image_size=4"),
    (SmallResNet, {"n_features": 64, "widths": ()}, "widths"),
    (SmallViT, {"n_features": 64, "patch_size": 3}, "patch_size"),
    (SmallViT, {"n_features": 64, "patch_size": 4, "dim": 10, "heads": 4}, "heads"),
])
def test_module_errors(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)


# ------------------------------------------------------------- estimators
@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(32, 64))
    y = np.where(X[:, 9] + X[:, 10] > 0, "b", "a")
    return X, y


@pytest.mark.parametrize("architecture,params", [
    ("resnet", {"module__widths": (4, 8)}),
    ("vit", {"module__patch_size": 4, "module__dim": 8, "module__heads": 2}),
])
def test_estimators_fit_predict_reproducible(images, architecture, params):
    X, y = images
    clf = TetrominoNetClassifier(architecture=architecture, max_epochs=1, batch_size=16,
                                 random_state=0, device="cpu", **params)
    clf.fit(X, y)
    assert list(clf.classes_) == ["a", "b"]
    proba = clf.predict_proba(X[:5])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    assert set(clf.predict(X)) <= {"a", "b"}
    # Same random_state, same fit; a pickle round trip predicts the same.
    again = clone(clf).fit(X, y)
    np.testing.assert_array_equal(again.predict_proba(X), clf.predict_proba(X))
    loaded = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(loaded.predict_proba(X), clf.predict_proba(X))
    expected = SmallResNet if architecture == "resnet" else SmallViT
    assert isinstance(clf.module_, expected) and clf.module_.image_shape == (1, 8, 8)


def test_estimator_image_size_and_channels():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2 * 16 * 16))
    y = np.arange(20) % 2
    clf = TetrominoNetClassifier(architecture="vit", image_size=16,
                                 module__in_channels=2, module__dim=8,
                                 module__heads=2, max_epochs=1,
                                 early_stopping=False, random_state=0).fit(X, y)
    assert clf.module_.image_shape == (2, 16, 16) and clf.module_.grid_size == 2
    with pytest.raises(ValueError, match="needs 256"):
        TetrominoNetClassifier(architecture="resnet", image_size=16,
                               max_epochs=1).fit(X, y)
    with pytest.raises(InvalidParameterError, match="architecture='resnet' or 'vit'"):
        TetrominoNetClassifier(architecture="cnn", image_size=16,
                               max_epochs=1).fit(X[:, :256], y)
    with pytest.raises(InvalidParameterError, match="architecture"):
        TetrominoNetClassifier(architecture="vgg").fit(X, y)


# ------------------------------- a user's ResNet-18 with every explainer kind
class _Block(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.downsample = None
        if stride != 1 or c_in != c_out:
            self.downsample = nn.Sequential(
                nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + identity)  # functional, as torchvision's is not


class ResNet18(nn.Module):
    """torchvision's ResNet-18 layout (7x7 stride-2 stem, max pooling, four
    stages of two basic blocks), on 3x32x32 rows, widths scaled by ``width``
    (64: ResNet-18's own)."""

    def __init__(self, n_features=3 * 32 * 32, n_outputs=2, width=64):
        super().__init__()
        w = [width, 2 * width, 4 * width, 8 * width]
        self.conv1 = nn.Conv2d(3, w[0], 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(w[0])
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, c = [], w[0]
        for i, wi in enumerate(w):
            layers.append(nn.Sequential(_Block(c, wi, 1 if i == 0 else 2),
                                        _Block(wi, wi, 1)))
            c = wi
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(w[3], n_outputs)

    def forward(self, X):
        x = self.maxpool(self.relu(self.bn1(self.conv1(X.reshape(-1, 3, 32, 32)))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def _user_resnet18(width):
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(16, 3 * 32 * 32))
    y = np.arange(16) % 2
    # Untrained (max_epochs=0): the explainers only need a fitted net.
    net = TetrominoNetClassifier(ResNet18, module__width=width, max_epochs=0,
                                 early_stopping=False, random_state=0).fit(X, y)
    return FrozenEstimator(net), X


def _patches(size=8):
    """Groups of the 3x32x32 columns: one per 8x8 patch and channel."""
    index = np.arange(3 * 32 * 32).reshape(3, 32 // size, size, 32 // size, size)
    return [list(g.ravel()) for g in index.transpose(0, 1, 3, 2, 4).reshape(
        -1, size * size)]


def _check_user_resnet18(width, n_rows, kernel_shap_groups):
    from sklearn_xai.explainers import (
        GradientShap,
        IntegratedGradients,
        KernelSHAP,
        Saliency,
    )

    model, X = _user_resnet18(width)
    rows = X[:n_rows]
    explainers = [
        Saliency(model, target=1),
        IntegratedGradients(model, n_steps=4, target=1),
        GradientShap(model, n_perturbations=4, random_state=0, target=1),
        KernelSHAP(model, n_perturbations=32, groups=kernel_shap_groups,
                   random_state=0, target=1),
    ]
    for explainer in explainers:
        A = explainer.fit(X).transform(rows)
        if getattr(explainer, "groups", None) is not None:
            # One value per group, spread over the group's pixels.
            index = np.zeros(rows.shape[1], dtype=int)
            for k, group in enumerate(explainer.groups):
                index[group] = k
            A = A[:, index]
        assert A.shape == rows.shape and np.all(np.isfinite(A)), type(explainer)
        assert np.any(A != 0), type(explainer)
    # Saliency is the gradient of the explained probability, taken directly.
    module = model.estimator.module_.eval()
    x = torch.tensor(rows, dtype=torch.float32, requires_grad=True)
    p = torch.softmax(module(x), dim=1)[:, 1].sum()
    (grad,) = torch.autograd.grad(p, x)
    np.testing.assert_allclose(Saliency(model, target=1).fit(X).transform(rows),
                               grad.numpy(), rtol=1e-4, atol=1e-8)


def test_user_resnet18_shape_with_every_explainer_kind():
    """ResNet-18's layout at 1/16 of its widths (cheap default twin);
    KernelSHAP on 48 patches."""
    _check_user_resnet18(width=4, n_rows=1, kernel_shap_groups=_patches())


@pytest.mark.slow
def test_user_resnet18_with_every_explainer_kind():
    """ResNet-18 itself (widths 64-512, 11M parameters); KernelSHAP per pixel."""
    _check_user_resnet18(width=64, n_rows=2, kernel_shap_groups=None)
