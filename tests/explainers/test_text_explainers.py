"""Explainers on token-id matrices: occlusion, KernelSHAP and TextLIME with a
TokenMasker, and the embedding gradient methods; closed forms and the
explainer contract."""

import numpy as np
import pytest
import torch
from sklearn.datasets import make_classification
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from torch import nn

from sklearn_xai.datasets import PAD_ID, make_text_classification
from sklearn_xai.explainers import (
    EmbeddingAttribution,
    FeatureAblation,
    KernelSHAP,
    TextLIME,
)
from sklearn_xai.masking import TokenMasker
from sklearn_xai.models import TextNetClassifier, TokenIdClassifier
from sklearn_xai.utils._exceptions import NotApplicableError
from sklearn_xai.utils.estimator_checks import check_explainer


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="module")
def bow():
    """A bag-of-words logistic regression with hand-set weights per word:
    its decision is ``sum_j w(x_j)`` over the words of the text."""
    data = make_text_classification(40, random_state=0)
    vec = CountVectorizer(token_pattern=r"\S+", lowercase=False).fit(data.texts)
    words = vec.get_feature_names_out()
    w = np.random.default_rng(0).normal(size=len(words))
    clf = LogisticRegression().fit(vec.transform(data.texts), data.target)
    clf.coef_, clf.intercept_ = w[None, :], np.array([0.3])
    model = TokenIdClassifier(FrozenEstimator(make_pipeline(vec, clf)), data.codec,
                              vectorizer=None)
    model.fit(data.data, data.target)
    weight = {word: w[i] for i, word in enumerate(words)}
    X = data.data[:5]
    expected = np.array([[weight.get(tok, 0.0) if i != PAD_ID else 0.0
                          for tok, i in zip(data.codec.tokens_[row.astype(int)], row)]
                         for row in X])
    return FrozenEstimator(model), X, expected


def test_occlusion_and_kernelshap_closed_form(bow):
    """Deleting word ``t`` lowers the decision by ``w(t)``: occlusion and the
    Shapley values of this additive game are ``w(x_j)``, PAD 0."""
    model, X, expected = bow
    masker = TokenMasker("pad")
    A = FeatureAblation(model, masker=masker, output="decision", target=1).fit(X)
    np.testing.assert_allclose(A.transform(X), expected, atol=1e-12)
    shap = KernelSHAP(model, masker=masker, n_perturbations=64, output="decision",
                      target=1, random_state=0).fit(X)
    np.testing.assert_allclose(shap.transform(X), expected, atol=1e-8)


def test_text_lime_closed_form(bow):
    """The decision is linear in the keep-vector, so LIME's unpenalised
    surrogate recovers ``w(x_j)`` exactly; PAD positions get 0."""
    model, X, expected = bow
    ex = TextLIME(model, n_perturbations=60, alpha=0.0, masker=TokenMasker("pad"),
                  output="decision", target=1, random_state=0).fit(X)
    A = ex.transform(X)
    np.testing.assert_allclose(A, expected, atol=1e-8)
    assert (A[X == PAD_ID] == 0).all()
    # lime's ridge (alpha=1) shrinks towards 0 but keeps the order
    shrunk = TextLIME(model, n_perturbations=300, output="decision", target=1,
                      masker=TokenMasker("pad"), random_state=0).fit(X).transform(X)
    real = X != PAD_ID
    assert np.corrcoef(shrunk[real], expected[real])[0, 1] > 0.95


def test_text_lime_samples_keep_remove_masks():
    """TextLIME removes 1..d of the row's tokens (never its PAD) per sample,
    the first sample keeping everything (lime's LimeTextExplainer)."""
    ex = TextLIME(n_perturbations=500)
    ex.n_perturbations_ = 500
    real = np.array([True] * 6 + [False] * 3)
    keep = ex._keep(np.random.default_rng(0), real)
    assert keep[0].all() and keep[:, ~real].all()
    removed = (~keep[1:, real]).sum(axis=1)
    assert removed.min() == 1 and removed.max() == 6
    assert set(np.unique(removed)) == set(range(1, 7))


@pytest.mark.parametrize("explainer", [
    TextLIME(n_perturbations=30),
    FeatureAblation(masker=TokenMasker()),
    KernelSHAP(masker=TokenMasker(), n_perturbations=32),
], ids=["TextLIME", "FeatureAblation", "KernelSHAP"])
def test_check_explainer_masker_based(explainer):
    check_explainer(explainer)


class _PositionEmbedding(nn.Module):
    """Continuous rows read as tokens: each value is "embedded" by a linear
    map, so the explainer contract's synthetic rows can be explained."""

    def __init__(self, n_features, n_outputs, **kwargs):
        super().__init__()
        self.embedding = nn.Linear(1, 4)
        self.out = nn.Linear(4 * n_features, n_outputs)

    def forward(self, X):
        E = torch.tanh(self.embedding(X.reshape(X.shape[0], -1, 1)))
        return self.out(E.reshape(E.shape[0], -1))


@pytest.mark.parametrize("method", ["saliency", "input_x_gradient",
                                    "integrated_gradients"])
def test_check_explainer_embedding(method):
    X, y = make_classification(n_samples=80, n_features=4, n_informative=3,
                               n_redundant=0, random_state=0)
    net = TextNetClassifier(module=_PositionEmbedding, max_epochs=2, random_state=0)
    net.fit(X, y)
    check_explainer(EmbeddingAttribution(method=method, n_steps=8),
                    tasks=("classification",), model=FrozenEstimator(net))


class _SumEmbedding(nn.Module):
    """Logits ``W sum_j e(x_j) + b``: linear in the embeddings."""

    def __init__(self, n_features, n_outputs, vocab_size, pad_id=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, 3, padding_idx=pad_id)
        self.out = nn.Linear(3, n_outputs)

    def forward(self, X):
        return self.out(self.embedding(X.round().long()).sum(dim=1))


@pytest.fixture(scope="module")
def linear_net():
    data = make_text_classification(60, random_state=0)
    net = TextNetClassifier(module=_SumEmbedding,
                            module__vocab_size=len(data.codec.tokens_),
                            max_epochs=1, random_state=0, early_stopping=False)
    net.fit(data.data, data.target)
    E = net.module_.embedding.weight.detach().double().numpy()
    W = net.module_.out.weight.detach().double().numpy()
    return net, data.data[:4], E, W[1] - W[0]


@pytest.mark.parametrize("method,baseline", [
    ("integrated_gradients", "pad"), ("integrated_gradients", "mask"),
    ("input_x_gradient", "pad"), ("saliency", "pad")])
def test_embedding_attribution_closed_form(linear_net, method, baseline):
    """For the decision ``(W_1 - W_0) . sum_j e_j`` the gradient at each
    embedding is ``u = W_1 - W_0``: saliency ``sum |u|``, input x gradient
    ``u . e_j``, integrated gradients ``u . (e_j - e'_j)`` with ``e'`` the
    baseline's embedding (PAD: 0; MASK: ``e_1``)."""
    net, X, E, u = linear_net
    ids = X.astype(int)
    ex = EmbeddingAttribution(FrozenEstimator(net), method=method, baseline=baseline,
                              n_steps=5, output="decision", target=1).fit(X)
    A = ex.transform(X)
    if method == "saliency":
        expected = np.full(X.shape, np.abs(u).sum())
    elif method == "integrated_gradients" and baseline == "mask":
        expected = (E[ids] - E[1]) @ u
    else:
        expected = E[ids] @ u
    expected[X == PAD_ID] = 0.0
    np.testing.assert_allclose(A, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("architecture", ["cnn", "transformer"])
def test_embedding_ig_completeness(architecture):
    """IG with the PAD baseline sums to ``f(x) - F(0)``, ``F`` the module
    from the embeddings on (the PAD embedding is 0; the transformer keeps
    the attention mask of ``x``, as layer attributions of HF models do);
    padding positions get exactly 0."""
    data = make_text_classification(60, random_state=0)
    net = TextNetClassifier(architecture=architecture, max_epochs=1, random_state=0,
                            early_stopping=False).fit(data.data, data.target)
    X = data.data[:3]
    ex = EmbeddingAttribution(FrozenEstimator(net), n_steps=64, target=1).fit(X)
    A = ex.transform(X)
    module = net.module_
    with torch.no_grad():
        zero = torch.zeros(*X.shape, module.embedding.embedding_dim)
        pad = torch.as_tensor(X == PAD_ID)
        logits = (module.forward_embedded(zero, pad) if architecture == "transformer"
                  else module.forward_embedded(zero))
        f0 = torch.softmax(logits, dim=1)[:, 1].double().numpy()
    f = net.predict_proba(X)[:, 1]
    np.testing.assert_allclose(A.sum(axis=1), f - f0, atol=2e-3)
    if architecture == "cnn":  # no mask: F(0) is the all-PAD text
        empty = net.predict_proba(np.zeros((1, X.shape[1])))[0, 1]
        np.testing.assert_allclose(f0, empty, atol=1e-6)
    assert (A[X == PAD_ID] == 0).all()


def test_embedding_attribution_errors(linear_net):
    net, X, _, _ = linear_net
    # Not applicable (the runner skips it with the reason), like a gradient
    # explainer on a tree.
    with pytest.raises(NotApplicableError, match="layer='emb'"):
        EmbeddingAttribution(FrozenEstimator(net), layer="emb").fit(X)
