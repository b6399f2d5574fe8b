"""Randomisation sanity checks: MPRT (and its smooth and efficient variants),
random logit and data randomisation."""

import copy
from copy import deepcopy as _deepcopy

import numpy as np
import pytest
import torch
from scipy.stats import entropy, spearmanr
from sklearn.base import BaseEstimator
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.neural_network import MLPClassifier
from skorch import NeuralNetClassifier

from sklearn_xai.explainers import FeatureAblation, RandomExplainer, Saliency
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import get_metric_spec
from sklearn_xai.metrics._randomisation import (
    _histogram_entropy,
    data_randomisation,
    efficient_mprt,
    mprt,
    random_logit,
    smooth_mprt,
)
from sklearn_xai.models._randomise import randomised_layers
from sklearn_xai.utils._estimators import unwrap

D = 6
RNG = np.random.default_rng(0)
X_TRAIN = RNG.normal(size=(300, D)) + 3.0  # positive rows: x / sum(x) is defined
X = RNG.normal(size=(30, D)) + 3.0
W = np.array([2.0, -1.5, 1.0, 0.5, 0.0, 0.0])
Y = (X_TRAIN @ W > np.median(X_TRAIN @ W)).astype(int)


class InputShare(BaseEstimator):
    """A model-ignorant 'explainer': a = x / sum(x) whatever the model."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y=None):
        self.estimator_ = unwrap(self.estimator)[1]
        return self

    def explain(self, X, *, target=None, row_keys=None):
        X = np.asarray(X, dtype=np.float64)
        return X / X.sum(axis=1, keepdims=True)

    def transform(self, X):
        return self.explain(X)


class LogitGradient(BaseEstimator):
    """Gradient of the target class's logit of a torch net (the explainer
    mirrored by the Quantus explain_func below)."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y=None):
        self.estimator_ = unwrap(self.estimator)[1]
        return self

    def explain(self, X, *, target=None, row_keys=None):
        net = self.estimator_
        x = torch.tensor(np.asarray(X, dtype=np.float32), requires_grad=True)
        if target is None:
            with torch.no_grad():
                target = net.module_(x).argmax(dim=1).numpy()
        idx = np.searchsorted(np.asarray(net.classes_), np.asarray(target))
        return _logit_gradient(net.module_, x, idx)

    def transform(self, X):
        return self.explain(X)


def _logit_gradient(module, x, idx):
    x = x.detach().clone().requires_grad_(True)
    out = module(x)
    out[torch.arange(len(x)), torch.as_tensor(idx)].sum().backward()
    return x.grad.detach().numpy().astype(np.float64)


def _module(seed=0):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(D, 16), torch.nn.ReLU(),
                               torch.nn.Linear(16, 16), torch.nn.ReLU(),
                               torch.nn.Linear(16, 2))


@pytest.fixture(scope="module")
def net():
    """A skorch net, initialised (untrained: the checks need parameters,
    not accuracy)."""
    return NeuralNetClassifier(_module(), criterion=torch.nn.CrossEntropyLoss,
                               classes=[0, 1], verbose=0).initialize()


@pytest.fixture(scope="module")
def mlp():
    return MLPClassifier(hidden_layer_sizes=(16, 16), max_iter=300, random_state=0).fit(X_TRAIN, Y)


@pytest.fixture(scope="module")
def logistic():
    return LogisticRegression().fit(X_TRAIN, Y)


# ----------------------------------------------------------- known answers
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("mode", ["cascading", "independent"])
@pytest.mark.parametrize("similarity", ["spearman", "pearson"])
def test_model_ignorant_explainer_is_similar_at_every_layer(mlp, mode, similarity):
    ex = InputShare(FrozenEstimator(mlp)).fit(X_TRAIN)
    # An explainer outside the package keeps no fit rows: X_train is given.
    out = mprt(mlp, X, ex.transform(X), explainer=ex, mode=mode, similarity=similarity,
               X_train=X_TRAIN, return_layers=True, random_state=0)
    assert out.layers == ["layer_2", "layer_1", "layer_0"]
    np.testing.assert_allclose(out.layer_scores, 1.0)
    np.testing.assert_allclose(out.scores, 1.0)
    assert efficient_mprt(mlp, X, ex.transform(X), explainer=ex, X_train=X_TRAIN,
                          random_state=0) == pytest.approx(np.zeros(len(X)))
    np.testing.assert_allclose(
        smooth_mprt(mlp, X, ex.transform(X), explainer=ex, n_perturbations=5,
                    X_train=X_TRAIN, random_state=0), 1.0)
    np.testing.assert_allclose(
        data_randomisation(mlp, X, ex.transform(X), explainer=ex, X_train=X_TRAIN,
                           y_train=Y, random_state=0), 1.0)


def test_gradient_explanations_fall_far_below(net):
    ex = Saliency(FrozenEstimator(net)).fit(X_TRAIN)
    A = ex.transform(X)
    out = mprt(net, X, A, explainer=ex, return_layers=True, random_state=0)
    assert out.layers == ["4", "2", "0"]
    assert out.scores.mean() < 0.5
    ignorant = InputShare(FrozenEstimator(net)).fit(X_TRAIN)
    assert mprt(net, X, ignorant.transform(X), explainer=ignorant, X_train=X_TRAIN,
                random_state=0).mean() == pytest.approx(1.0)


def test_random_explainer_is_dissimilar_everywhere(logistic):
    ex = RandomExplainer(FrozenEstimator(logistic), random_state=0).fit(X_TRAIN)
    # A random explainer's attributions are its own draws, not the scored ones.
    A = RandomExplainer(random_state=1).fit(X_TRAIN).transform(X)
    out = mprt(logistic, X, A, explainer=ex, return_layers=True, random_state=0)
    assert abs(out.scores.mean()) < 0.2
    assert abs(random_logit(logistic, X, A, explainer=ex, random_state=0).mean()) < 0.2


def test_cascading_layers_and_layer_selection(mlp):
    ex = FeatureAblation(FrozenEstimator(mlp), masker=BaselineMasker("mean").fit(X_TRAIN)).fit(X_TRAIN)
    A = ex.transform(X)
    full = mprt(mlp, X, A, explainer=ex, return_layers=True, random_state=0)
    # Layers are taken output first whatever order they are given in.
    two = mprt(mlp, X, A, explainer=ex, layers=["layer_1", "layer_2"],
               return_layers=True, random_state=0)
    assert two.layers == ["layer_2", "layer_1"]
    np.testing.assert_allclose(two.layer_scores, full.layer_scores[:, :2])
    last = mprt(mlp, X, A, explainer=ex, aggregate="last", random_state=0)
    np.testing.assert_allclose(last, full.layer_scores[:, -1])
    np.testing.assert_allclose(full.scores, full.layer_scores.mean(axis=1))
    # Independent step k randomises layer k alone: its first step is cascading's.
    ind = mprt(mlp, X, A, explainer=ex, mode="independent", return_layers=True,
               random_state=0)
    np.testing.assert_allclose(ind.layer_scores[:, 0], full.layer_scores[:, 0])


def test_spearman_by_hand(logistic):
    ex = FeatureAblation(FrozenEstimator(logistic)).fit(X_TRAIN)
    A = ex.transform(X)
    from sklearn_xai.models._randomise import randomise_model
    rand = randomise_model(logistic, "linear", random_state=0)
    labels = logistic.predict(X)
    B = FeatureAblation(FrozenEstimator(rand)).fit(X_TRAIN).explain(X, target=labels)
    expected = [spearmanr(np.abs(a), np.abs(b)).statistic for a, b in zip(A, B, strict=True)]
    np.testing.assert_allclose(mprt(logistic, X, A, explainer=ex, random_state=0),
                               expected, rtol=1e-12)
    # Signed comparison.
    expected = [spearmanr(a, b).statistic for a, b in zip(A, B, strict=True)]
    np.testing.assert_allclose(
        mprt(logistic, X, A, explainer=ex, absolute=False, random_state=0), expected,
        rtol=1e-12)


def test_efficient_mprt_by_hand(mlp):
    A = RNG.normal(size=(4, 50))
    expected = [entropy(np.histogram(a, bins=10)[0]) for a in A]
    np.testing.assert_allclose(_histogram_entropy(A, 10), expected, rtol=1e-12)
    ex = FeatureAblation(FrozenEstimator(mlp)).fit(X_TRAIN)
    A = ex.transform(X)
    from sklearn_xai.models._randomise import randomise_model
    rand = randomise_model(mlp, "all", random_state=0)
    B = FeatureAblation(FrozenEstimator(rand)).fit(X_TRAIN).explain(
        X, target=mlp.predict(X))
    h0 = [entropy(np.histogram(a, bins=4)[0]) for a in A]
    h1 = [entropy(np.histogram(b, bins=4)[0]) for b in B]
    expected = (np.array(h1) - h0) / h0
    got = efficient_mprt(mlp, X, A, explainer=ex, n_bins=4, nan_policy="zero",
                         random_state=0)
    np.testing.assert_allclose(got, np.where(np.isfinite(expected), expected, 0.0),
                               rtol=1e-12)


def test_random_logit_known_answers():
    rng = np.random.default_rng(1)
    Xm = rng.normal(size=(400, 4)) + 3.0
    y = np.digitize(Xm[:, 0] - Xm[:, 1] + 0.5 * Xm[:, 2], [-0.5, 1.0, 2.0])
    model = LogisticRegression(max_iter=1000).fit(Xm, y)
    ignorant = InputShare(FrozenEstimator(model)).fit(Xm)
    np.testing.assert_allclose(
        random_logit(model, Xm[:20], ignorant.transform(Xm[:20]), explainer=ignorant,
                     random_state=0), 1.0)
    ex = FeatureAblation(FrozenEstimator(model), output="decision").fit(Xm)
    s = random_logit(model, Xm[:20], ex.transform(Xm[:20]), explainer=ex,
                     random_state=0)
    assert s.mean() < 0.9
    # The other class is never the explained one: by hand for row 0.
    for seed in range(5):
        from sklearn_xai.utils._random import RowStreams, row_keys
        shift = RowStreams(seed, row_keys(Xm[:20])).integers(3)
        t = model.predict(Xm[:20])
        other = (t + 1 + shift) % 4
        B = ex.explain(Xm[:20], target=other)
        expected = [spearmanr(a, b).statistic
                    for a, b in zip(ex.transform(Xm[:20]), B, strict=True)]
        np.testing.assert_allclose(
            random_logit(model, Xm[:20], ex.transform(Xm[:20]), explainer=ex,
                         random_state=seed), expected, rtol=1e-12)
        assert np.all(other != t)


def test_binary_random_logit_of_decision_is_opposite(logistic):
    ex = FeatureAblation(FrozenEstimator(logistic), output="decision").fit(X_TRAIN)
    A = ex.transform(X)
    np.testing.assert_allclose(random_logit(logistic, X, A, explainer=ex, random_state=0),
                               -1.0)
    np.testing.assert_allclose(random_logit(logistic, X, A, explainer=ex, absolute=True,
                                            random_state=0), 1.0)


def test_data_randomisation_falls_below(logistic):
    ex = FeatureAblation(FrozenEstimator(logistic)).fit(X_TRAIN)
    s = data_randomisation(logistic, X, ex.transform(X), explainer=ex, X_train=X_TRAIN,
                           y_train=Y, random_state=0)
    assert s.mean() < 0.8
    again = data_randomisation(logistic, X, ex.transform(X), explainer=ex,
                               X_train=X_TRAIN, y_train=Y, random_state=0)
    np.testing.assert_array_equal(s, again)


def test_smooth_mprt_uses_common_noise(mlp):
    ex = FeatureAblation(FrozenEstimator(mlp)).fit(X_TRAIN)
    A = ex.transform(X)
    s = smooth_mprt(mlp, X, A, explainer=ex, n_perturbations=4, random_state=0,
                    return_layers=True)
    assert s.layer_scores.shape == (len(X), 3)
    # No noise: sMPRT is MPRT.
    plain = mprt(mlp, X, A, explainer=ex, random_state=0)
    np.testing.assert_allclose(
        smooth_mprt(mlp, X, A, explainer=ex, n_perturbations=2, noise_magnitude=0.0,
                    random_state=0), plain, rtol=1e-10)


def test_ssim_matches_skimage(mlp):
    from skimage.metrics import structural_similarity
    from sklearn_xai.metrics._randomisation import _similarity
    A, B = RNG.normal(size=(3, 64)), RNG.normal(size=(3, 64))
    got = _similarity(A, B, "ssim", True, (8, 8))
    for i in range(3):
        a, b = np.abs(A[i]), np.abs(B[i])
        rng_ = max(a.max(), b.max()) - min(a.min(), b.min())
        assert got[i] == pytest.approx(structural_similarity(
            a.reshape(8, 8), b.reshape(8, 8), win_size=7, data_range=rng_))
    np.testing.assert_allclose(_similarity(A, A, "ssim", True, (8, 8)), 1.0)


def test_inputs_untouched_and_errors(logistic):
    ex = FeatureAblation(FrozenEstimator(logistic)).fit(X_TRAIN)
    A = ex.transform(X)
    coef = logistic.coef_.copy()
    model_before = ex.estimator_
    mprt(logistic, X, A, explainer=ex, random_state=0)
    np.testing.assert_array_equal(logistic.coef_, coef)
    assert ex.estimator_ is model_before  # the explainer is not repointed
    with pytest.raises(ValueError, match="layers must name"):
        mprt(logistic, X, A, explainer=ex, layers=["layer_0"])
    with pytest.raises(ValueError, match="image_shape"):
        mprt(logistic, X, A, explainer=ex, similarity="ssim")
    with pytest.raises(ValueError, match="at least 3 x 3"):
        mprt(logistic, X, A, explainer=ex, similarity="ssim", image_shape=(1, D))
    with pytest.raises(ValueError, match="X_train=..., y_train="):
        data_randomisation(logistic, X, A, explainer=ex)
    reg = Ridge().fit(X_TRAIN, X_TRAIN @ W)
    rex = FeatureAblation(FrozenEstimator(reg)).fit(X_TRAIN)
    with pytest.raises(ValueError, match="pass a classifier"):
        random_logit(reg, X, rex.transform(X), explainer=rex)
    with pytest.raises(TypeError, match="Cannot randomise"):
        from sklearn.ensemble import HistGradientBoostingClassifier
        hgb = HistGradientBoostingClassifier(max_iter=2).fit(X_TRAIN, Y)
        hex_ = FeatureAblation(FrozenEstimator(hgb)).fit(X_TRAIN)
        mprt(hgb, X, hex_.transform(X), explainer=hex_)


def test_registry_entries():
    assert get_metric_spec("neg_mprt").family == "randomisation"
    assert not get_metric_spec("neg_mprt").greater_is_better
    assert get_metric_spec("efficient_mprt").greater_is_better
    assert "training_data" in get_metric_spec("neg_data_randomisation").requires
    for name in ("neg_mprt", "neg_smooth_mprt", "efficient_mprt", "neg_random_logit",
                 "neg_data_randomisation"):
        assert "explainer" in get_metric_spec(name).requires


# ---------------------------------------------------------- Quantus oracle
def _quantus_explain(model, inputs, targets, **kwargs):
    x = torch.as_tensor(np.asarray(inputs, dtype=np.float32)).reshape(len(inputs), -1)
    return _logit_gradient(model, x, np.asarray(targets)).reshape(np.shape(inputs))


def _quantus_randomise(estimator, layers, *, random_state, copy=True):
    """Quantus 0.6's cascading randomisation: each layer's reset_parameters()
    right after torch.manual_seed(seed + 1), output layer first."""
    new = _deepcopy(estimator) if copy else estimator
    modules = dict(unwrap(new)[1].module_.named_modules())
    for name in layers:
        torch.manual_seed(42 + 1)
        modules[name].reset_parameters()
    return new


def test_mprt_equals_quantus(net, monkeypatch):
    import quantus
    import sklearn_xai.models

    # The metrics import randomise_model from sklearn_xai.models when called.
    monkeypatch.setattr(sklearn_xai.models, "randomise_model", _quantus_randomise)
    ex = LogitGradient(FrozenEstimator(net)).fit(X_TRAIN)
    y = net.predict(X.astype(np.float32))
    A = ex.explain(X, target=y)
    ours = mprt(net, X, A, explainer=ex, X_train=X_TRAIN, return_layers=True,
                random_state=0)
    metric = quantus.MPRT(layer_order="top_down", seed=42,
                          similarity_func=quantus.similarity_func.correlation_spearman,
                          abs=True, normalise=True, disable_warnings=True)
    theirs = metric(model=copy.deepcopy(net.module_), x_batch=X[:, None, :].astype(np.float32),
                    y_batch=y, a_batch=A[:, None, :].astype(np.float32),
                    explain_func=_quantus_explain, channel_first=True, softmax=False,
                    device="cpu")
    # Quantus first re-explains with the original model: our A itself.
    np.testing.assert_allclose(theirs["original"], 1.0, atol=1e-6)
    layers = [name for name in theirs if name != "original"]
    assert layers == ours.layers == randomised_layers(net)
    for k, name in enumerate(layers):
        np.testing.assert_allclose(ours.layer_scores[:, k], theirs[name], atol=1e-6)


def test_random_logit_equals_quantus(net):
    import quantus
    ex = LogitGradient(FrozenEstimator(net)).fit(X_TRAIN)
    y = net.predict(X.astype(np.float32))
    A = ex.explain(X, target=y)
    ours = random_logit(net, X, A, explainer=ex, random_state=0)
    # Two classes: the other class is the same for both.
    metric = quantus.RandomLogit(num_classes=2, seed=42,
                                 similarity_func=quantus.similarity_func.correlation_spearman,
                                 abs=False, normalise=True, disable_warnings=True)
    theirs = metric(model=net.module_, x_batch=X[:, None, :].astype(np.float32), y_batch=y,
                    a_batch=A[:, None, :].astype(np.float32), explain_func=_quantus_explain,
                    channel_first=True, softmax=False, device="cpu")
    np.testing.assert_allclose(ours, theirs, atol=1e-6)


def test_smooth_mprt_refuses_a_huge_noise_count_before_any_work():
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LogisticRegression

    from sklearn_xai.explainers import FeatureAblation
    from sklearn_xai.metrics import smooth_mprt

    X = np.random.default_rng(0).normal(size=(20, 3))
    model = LogisticRegression().fit(X, X[:, 0] > 0)
    ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    with pytest.raises(ValueError, match=r"n_perturbations=1000000000000 needs about"):
        smooth_mprt(model, X[:4], ex.transform(X[:4]), explainer=ex,
                    n_perturbations=10**12, random_state=0)


class _FixedNoise:
    """Stands in for RowStreams in sMPRT: ``normal`` returns the fixed noise
    ``E`` (n, m, d) whatever the seed (the noise is the test's, not ours)."""

    E = None

    def __init__(self, seed, keys):
        pass

    def normal(self, shape):
        return _FixedNoise.E


def test_smooth_mprt_equals_quantus_at_fixed_noise(net, monkeypatch):
    """Quantus' SmoothMPRT run directly, with both sides drawing the same
    noise: Quantus adds ``np.random.randn`` noise to nr_samples - 1 copies
    and leaves the last one noise-free, so our fixed noise is the same
    draws with a zero last copy, and Quantus' randn replays them (the same
    cycle for the original model and every randomised one, as ours)."""
    import quantus
    import sklearn_xai.metrics._randomisation as randomisation
    import sklearn_xai.models

    monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    monkeypatch.setattr(sklearn_xai.models, "randomise_model", _quantus_randomise)
    m = 5
    E = np.random.default_rng(7).normal(size=(len(X), m, D))
    E[:, -1] = 0.0
    monkeypatch.setattr(_FixedNoise, "E", E)
    monkeypatch.setattr(randomisation, "RowStreams", _FixedNoise)
    calls = []

    def randn(*shape):
        assert shape == (len(X), 1, D)
        k = len(calls) % (m - 1)
        calls.append(k)
        return E[:, k][:, None, :].copy()

    ex = LogitGradient(FrozenEstimator(net)).fit(X_TRAIN)
    y = net.predict(X.astype(np.float32))
    A = ex.explain(X, target=y)
    ours = smooth_mprt(net, X, A, explainer=ex, n_perturbations=m, noise_magnitude=0.2,
                       X_train=X_TRAIN, return_layers=True, random_state=0)
    metric = quantus.SmoothMPRT(layer_order="top_down", seed=42, nr_samples=m,
                                noise_magnitude=0.2, return_average_correlation=False,
                                similarity_func=quantus.similarity_func.correlation_spearman,
                                abs=True, normalise=True, disable_warnings=True)
    monkeypatch.setattr(np.random, "randn", randn)
    # Quantus 0.6's smoothing calls quantus.explain, not explain_func (a
    # captum gradient that needs 2-d outputs): point it at the same gradient.
    monkeypatch.setattr(quantus, "explain", _quantus_explain)
    theirs = metric(model=copy.deepcopy(net.module_), x_batch=X[:, None, :].astype(np.float32),
                    y_batch=y, a_batch=None, explain_func=_quantus_explain,
                    channel_first=True, softmax=False, device="cpu")
    monkeypatch.undo()
    layers = [name for name in theirs if name != "original"]
    assert layers == ours.layers == randomised_layers(net)
    # Quantus explained the original model twice (a_batch, then "original"),
    # then each randomised one: every explanation saw the same noise.
    assert len(calls) == (2 + len(layers)) * (m - 1)
    np.testing.assert_allclose(theirs["original"], 1.0, atol=1e-6)
    for k, name in enumerate(layers):
        np.testing.assert_allclose(ours.layer_scores[:, k], theirs[name], atol=1e-6)
    np.testing.assert_allclose(ours.scores, ours.layer_scores.mean(axis=1))
