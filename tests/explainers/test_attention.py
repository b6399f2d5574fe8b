"""AttentionRollout and AttentionXGradient against independent computations.

Rollout: a hand computation in numpy from given attention matrices.
Attention x gradient: the attention probabilities and their gradients taken
directly with torch hooks and ``torch.autograd.grad`` in the test, combined
by Chefer et al.'s rule written out here.
"""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.tree import DecisionTreeClassifier
from torch import nn

from sklearn_xai.explainers import AttentionRollout, AttentionXGradient, Saliency
from sklearn_xai.models import LogisticNetClassifier, TetrominoNetClassifier
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils.estimator_checks import check_explainer


class FixedAttention(nn.Module):
    """Layers whose attention probabilities are given matrices.

    A 2x2 image, patches of one pixel: 5 tokens (class token first).  Layer
    ``l`` has heads with the fixed probabilities ``softmax(logits[l])``
    (independent of the input), passed through ``attention_probs``; the
    output mixes the tokens with them, so it depends on the input.
    """

    def __init__(self, logits, n_outputs=2):
        super().__init__()
        self.logits = nn.ParameterList(
            [nn.Parameter(torch.tensor(L, dtype=torch.float32)) for L in logits])
        self.layers = nn.ModuleList(
            [nn.ModuleDict({"attention_probs": nn.Identity()}) for _ in logits])
        self.out = nn.Linear(5, n_outputs)
        self.image_shape = (1, 2, 2)

    def forward(self, X):
        tokens = torch.cat([torch.ones(len(X), 1), X], dim=1)[:, :, None]
        for L, layer in zip(self.logits, self.layers):
            probs = torch.softmax(L, dim=-1).expand(len(X), -1, -1, -1)
            probs = layer["attention_probs"](probs)
            tokens = tokens + (probs @ tokens[:, None]).mean(dim=1)
        return self.out(tokens[:, :, 0])


def _fixed_net(logits):
    """A skorch net around FixedAttention, weights as given (lr=0)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    y = (X[:, 0] > 0).astype(int)
    net = LogisticNetClassifier(FixedAttention(logits), lr=0.0, max_epochs=1,
                                early_stopping=False, random_state=0).fit(X, y)
    return FrozenEstimator(net), X


def _softmax(L):
    e = np.exp(L - L.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_rollout_one_layer_one_head_by_hand():
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(1, 1, 5, 5))
    model, X = _fixed_net(logits)
    A = _softmax(logits[0, 0])
    # (A + I) / 2 (rows of A + I sum to 2); the class token's row without itself.
    expected = (A + np.eye(5))[0, 1:] / 2
    got = AttentionRollout(model).fit(X).transform(X[:3])
    np.testing.assert_allclose(got, np.tile(expected, (3, 1)), rtol=1e-5)


def test_rollout_two_layers_two_heads_by_hand():
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(2, 2, 5, 5))
    model, X = _fixed_net(logits)
    hats = []
    for layer in logits:
        A = _softmax(layer).mean(axis=0) + np.eye(5)
        hats.append(A / A.sum(axis=1, keepdims=True))
    R = hats[1] @ hats[0]  # later layers on the left
    got = AttentionRollout(model).fit(X).transform(X[:2])
    np.testing.assert_allclose(got, np.tile(R[0, 1:], (2, 1)), rtol=1e-5)
    # Head fusion by the maximum.
    hats = []
    for layer in logits:
        A = _softmax(layer).max(axis=0) + np.eye(5)
        hats.append(A / A.sum(axis=1, keepdims=True))
    R = hats[1] @ hats[0]
    got = AttentionRollout(model, head_fusion="max").fit(X).transform(X[:1])
    np.testing.assert_allclose(got[0], R[0, 1:], rtol=1e-5)


def _tiny_vit(X, y, **params):
    net = TetrominoNetClassifier(
        architecture="vit", image_size=4, module__patch_size=2, module__dim=8,
        module__heads=2, module__depth=2, max_epochs=2, batch_size=-1,
        early_stopping=False, random_state=0, **params).fit(X, y)
    return FrozenEstimator(net)


@pytest.fixture(scope="module")
def vit_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 16))
    y = (X[:, 5] + X[:, 6] > 0).astype(int)
    return _tiny_vit(X, y), X, y


def _direct_attention_x_gradient(module, x, target, output):
    """Chefer et al.'s rule from hooks and autograd, one row."""
    probs = []
    handles = [module.blocks[i].attn.attention_probs.register_forward_hook(
        lambda m, i, o: probs.append(o)) for i in range(len(module.blocks))]
    logits = module(torch.tensor(x[None], dtype=torch.float32))
    for h in handles:
        h.remove()
    f = torch.softmax(logits, dim=1)[0, target] if output == "proba" else \
        (logits[0, 1] - logits[0, 0]) * (1 if target == 1 else -1)
    grads = torch.autograd.grad(f, probs)
    R = np.eye(probs[0].shape[-1])
    for P, G in zip(probs, grads):
        Abar = np.maximum((G * P)[0].detach().numpy(), 0).mean(axis=0)
        R = R + Abar @ R
    patch = R[0, 1:].reshape(2, 2)
    return np.kron(patch, np.ones((2, 2))).ravel()  # nearest: 2x2 pixels a patch


@pytest.mark.parametrize("output", ["proba", "decision"])
def test_attention_x_gradient_equals_direct_autograd(vit_data, output):
    model, X, _ = vit_data
    module = model.estimator.module_.eval()
    ex = AttentionXGradient(model, target=1, output=output).fit(X)
    got = ex.transform(X[:3])
    for row, x in zip(got, X[:3]):
        expected = _direct_attention_x_gradient(module, x, 1, output)
        np.testing.assert_allclose(row, expected, rtol=1e-4, atol=1e-7)
    assert ex.layers_ == ["blocks.0.attn.attention_probs",
                          "blocks.1.attn.attention_probs"]
    assert ex.image_shape_ == (1, 4, 4)


def test_rollout_of_the_vit_is_a_distribution_over_tokens(vit_data):
    """The rollout's rows are stochastic, so the class token's row sums to 1:
    the patch scores (each repeated over its 4 pixels) sum to 1 minus the
    class token's own share, which is in (0, 1)."""
    model, X, _ = vit_data
    A = AttentionRollout(model).fit(X).transform(X[:4])
    patch_sum = A.sum(axis=1) / 4
    assert np.all(A > 0) and np.all((patch_sum > 0) & (patch_sum < 1))
    # Nearest upsampling: constant on each 2x2 patch.
    img = A.reshape(-1, 4, 4)
    assert np.all(img[:, ::2, ::2] == img[:, 1::2, 1::2])
    bilinear = AttentionRollout(model, interpolation="bilinear").fit(X).transform(X[:4])
    assert bilinear.shape == A.shape and not np.allclose(bilinear, A)


@pytest.mark.parametrize("explainer", [AttentionRollout(), AttentionXGradient()],
                         ids=lambda e: type(e).__name__)
def test_check_explainer(vit_data, explainer):
    model, X, _ = vit_data
    check_explainer(explainer, tasks=("classification",), n_features=16, model=model)


@pytest.mark.parametrize("cls", [AttentionRollout, AttentionXGradient])
def test_refuses_models_without_attention(cls):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    y = (X[:, 0] > 0).astype(int)
    net = LogisticNetClassifier(max_epochs=1, random_state=0).fit(X, y)
    with pytest.raises(NotApplicableError, match="Saliency, IntegratedGradients"):
        cls(FrozenEstimator(net)).fit(X)
    with pytest.raises(NotApplicableError):  # not differentiable at all
        cls(FrozenEstimator(DecisionTreeClassifier(max_depth=2).fit(X, y))).fit(X)
    # Saliency, which the message names, explains the net.
    assert Saliency(FrozenEstimator(net)).fit(X).transform(X[:2]).shape == (2, 4)


def test_image_shape_errors(vit_data):
    model, X, _ = vit_data
    with pytest.raises(ValueError, match="image_shape"):
        AttentionRollout(model, image_shape=(3, 5)).fit(X)
