"""Robustness metrics: average sensitivity, local Lipschitz estimate,
continuity and consistency.

Hand computations use a linear model explained by feature ablation against a
zero baseline (gradient × input): ``a(x) = w ⊙ x``, so ``a(x) - a(x') =
w ⊙ (x - x')`` and every score has a closed form in the neighbours, which
are re-drawn here from the rows' streams.  Quantus 0.6 is the peer oracle:
its loops are fed the same neighbours (a perturbation function returning
them) and the same explainer, and must give the same scores.
"""

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from sklearn_xai.explainers import FeatureAblation, ShapleyValueSampling
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    avg_sensitivity,
    consistency,
    continuity,
    get_metric_spec,
    get_scorer,
    local_lipschitz_estimate,
    max_sensitivity,
)
from sklearn_xai.metrics._sensitivity import _translated, _translations
from sklearn_xai.utils._random import RowStreams, row_keys
from sklearn_xai.utils._stats import UndefinedScoreWarning

W = np.array([1.0, -2.0, 3.0, 0.5])


@pytest.fixture(scope="module")
def linear():
    """y = X w: ablation against zero gives a(x) = w * x exactly."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    model = LinearRegression().fit(X, X @ W)
    model.coef_, model.intercept_ = W.copy(), 0.0
    ex = FeatureAblation(FrozenEstimator(model),
                         masker=BaselineMasker("zero")).fit(X)
    Xe = X[:7]
    A = ex.transform(Xe)
    np.testing.assert_allclose(A, Xe * W, atol=1e-12)
    return model, ex, Xe, A


# ------------------------------------------------------------ hand computed
def test_avg_sensitivity_is_the_mean_of_the_max_sensitivity_distances(linear):
    model, ex, X, A = linear
    N, r = 8, 0.3
    s = avg_sensitivity(model, X, A, explainer=ex, n_perturbations=N, radius=r,
                        random_state=3)
    delta = (2.0 * RowStreams(3, row_keys(X)).uniform((N, 4)) - 1.0) * r
    dist = np.linalg.norm(W * delta, axis=2)                      # (n, N)
    np.testing.assert_allclose(s, dist.mean(axis=1), rtol=1e-10)
    # The same neighbours as max-sensitivity.
    mx = max_sensitivity(model, X, A, explainer=ex, n_perturbations=N, radius=r,
                         random_state=3)
    np.testing.assert_allclose(mx, dist.max(axis=1), rtol=1e-10)
    assert np.all(s < mx)
    rel = avg_sensitivity(model, X, A, explainer=ex, n_perturbations=N, radius=r,
                          normalize="relative", random_state=3)
    np.testing.assert_allclose(rel, s / np.linalg.norm(A, axis=1), rtol=1e-10)
    per_noise = avg_sensitivity(model, X, A, explainer=ex, n_perturbations=N,
                                radius=r, normalize="per_noise", random_state=3)
    np.testing.assert_allclose(
        per_noise, (dist / np.linalg.norm(delta, axis=2)).mean(axis=1), rtol=1e-10)


def test_avg_sensitivity_std_scale_needs_training_rows(linear):
    model, ex, X, A = linear
    with pytest.raises(ValueError, match="X_train"):
        avg_sensitivity(model, X, A, explainer=ex, radius_scale="std")
    X_train = np.random.default_rng(1).normal(scale=[1.0, 2.0, 3.0, 4.0],
                                              size=(50, 4))
    s = avg_sensitivity(model, X, A, explainer=ex, X_train=X_train, radius=0.1,
                        n_perturbations=5, random_state=0)
    delta = ((2.0 * RowStreams(0, row_keys(X)).uniform((5, 4)) - 1.0)
             * 0.1 * X_train.std(axis=0))
    np.testing.assert_allclose(s, np.linalg.norm(W * delta, axis=2).mean(axis=1),
                               rtol=1e-10)


def test_local_lipschitz_estimate_closed_form(linear):
    model, ex, X, A = linear
    N, std = 50, 0.2
    L = local_lipschitz_estimate(model, X, A, explainer=ex, n_perturbations=N,
                                 std=std, random_state=5)
    eps = std * RowStreams(5, row_keys(X)).normal((N, 4))
    ratio = np.linalg.norm(W * eps, axis=2) / np.linalg.norm(eps, axis=2)
    np.testing.assert_allclose(L, ratio.max(axis=1), rtol=1e-10)
    # The Lipschitz constant of x -> w * x is max |w_j|, approached from below.
    assert np.all(L <= np.abs(W).max()) and np.all(L > 0.8 * np.abs(W).max())
    # Scale-free for a linear explanation: the noise level does not matter.
    L_small = local_lipschitz_estimate(model, X, A, explainer=ex, n_perturbations=N,
                                       std=1e-3, random_state=5)
    np.testing.assert_allclose(L_small, L, rtol=1e-6)


def test_continuity_along_a_direction_is_the_l1_rate(linear):
    model, ex, X, A = linear
    u = np.array([1.0, 1.0, 0.0, -1.0])
    c = continuity(model, X, A, explainer=ex, direction=u, n_steps=3, radius=0.5)
    # ||w * t u||_1 / ||t u||_2 = sum |w_j u_j| / ||u||_2 for every step t.
    np.testing.assert_allclose(c, np.abs(W * u).sum() / np.linalg.norm(u), rtol=1e-9)
    # Random directions: one unit direction per row from the row's stream.
    cr = continuity(model, X, A, explainer=ex, random_state=2)
    g = RowStreams(2, row_keys(X)).normal((4,))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    np.testing.assert_allclose(cr, np.abs(W * g).sum(axis=1), rtol=1e-9)


def test_continuity_neighbours_and_undefined_rows(linear):
    model, ex, X, A = linear
    # A zero direction has no shift.
    with pytest.raises(ValueError, match="direction"):
        continuity(model, X, A, explainer=ex, direction=np.zeros(4))
    with pytest.raises(ValueError, match="n_steps"):
        continuity(model, X, A, explainer=ex, image_shape=(2, 2), n_steps=6)
    # A constant image is unchanged by every translation: undefined.
    Xc = np.vstack([np.full(4, 0.7), X[0]])
    Ac = ex.transform(Xc)
    with pytest.warns(UndefinedScoreWarning):
        c = continuity(model, Xc, Ac, explainer=ex, image_shape=(2, 2))
    assert np.isnan(c[0]) and np.isfinite(c[1])
    np.testing.assert_array_equal(
        continuity(model, Xc, Ac, explainer=ex, image_shape=(2, 2), nan_policy="zero"),
        [0.0, c[1]])


def test_image_translation_by_brute_force():
    rng = np.random.default_rng(0)
    imgs = rng.normal(size=(3, 2, 5))
    shifts = _translations(5, 4)
    np.testing.assert_array_equal(shifts, -5 + 2 * np.arange(1, 5))   # dx = 11 // 4
    out = _translated(imgs, shifts)
    for s, t in itertools.product(range(3), range(4)):
        expected = np.full((2, 5), imgs[s].min())
        for col in range(5):
            if 0 <= col - shifts[t] < 5:
                expected[:, col] = imgs[s][:, col - shifts[t]]
        np.testing.assert_array_equal(out[s, t], expected)


def test_continuity_images_by_brute_force(linear):
    rng = np.random.default_rng(1)
    w = rng.normal(size=6)
    X = rng.normal(size=(5, 6))
    model = LinearRegression().fit(X, X @ w)
    model.coef_, model.intercept_ = w, 0.0
    ex = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("zero")).fit(X)
    c = continuity(model, X, ex.transform(X), explainer=ex, image_shape=(2, 3))
    for i in range(5):
        img = X[i].reshape(2, 3)
        best = -np.inf
        for t in _translations(3, 7):
            moved = np.full((2, 3), img.min())
            for col in range(3):
                if 0 <= col - t < 3:
                    moved[:, col] = img[:, col - t]
            z = moved.ravel()
            if np.linalg.norm(z - X[i]) > 0:
                best = max(best, np.abs(w * (z - X[i])).sum() / np.linalg.norm(z - X[i]))
        np.testing.assert_allclose(c[i], best, rtol=1e-10)


def _brute_consistency(pattern, pred):
    n = len(pattern)
    local = np.full(n, np.nan)
    for i in range(n):
        same = [j for j in range(n) if j != i and pattern[j] == pattern[i]]
        if same:
            local[i] = np.mean([pred[j] == pred[i] for j in same])
    return local


@pytest.mark.parametrize("discretize", ["top_k_sign", "top_k", "sign"])
def test_consistency_equals_the_pairwise_definition(discretize):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4))
    clf = LogisticRegression().fit(X, (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int))
    A = np.round(rng.normal(size=(80, 4)), 0)  # few patterns, with zeros
    k = 2
    d = consistency(clf, X, A, k=k, discretize=discretize, return_details=True)
    order = np.argsort(-np.abs(A), axis=1, kind="stable")[:, :k]
    if discretize == "sign":
        keys = [tuple(np.sign(a)) for a in A]
    elif discretize == "top_k":
        keys = [frozenset(o) for o in order]
    else:
        keys = [frozenset((j, np.sign(a[j])) for j in o) for a, o in zip(A, order, strict=True)]
    local = _brute_consistency(keys, clf.predict(X))
    np.testing.assert_allclose(d.local_consistency, local, rtol=1e-12)
    assert d.n_defined == int(np.isfinite(local).sum()) > 0
    assert d.score == pytest.approx(np.nanmean(local), rel=1e-12)
    assert consistency(clf, X, A, k=k, discretize=discretize) == d.score


def test_consistency_is_one_for_explanations_that_decide_the_prediction():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3))
    clf = LogisticRegression().fit(X, X[:, 0] > 0)
    clf.coef_, clf.intercept_ = np.array([[2.0, 0.0, 0.0]]), np.zeros(1)
    # The only attribution's sign is the class: one pattern per class.
    assert consistency(clf, X, X * clf.coef_[0], k=1) == 1.0
    assert consistency(clf, X, X * clf.coef_[0], k=1, discretize="top_k") == pytest.approx(
        ((X[:, 0] > 0).mean() * 100 - 1) / 99 * (X[:, 0] > 0).mean()
        + ((X[:, 0] <= 0).mean() * 100 - 1) / 99 * (X[:, 0] <= 0).mean())
    # Explanations unrelated to the model: about the class balance.
    A = rng.normal(size=(100, 3))
    assert consistency(clf, X, A, k=1) < 0.8


def test_consistency_undefined_and_invalid():
    X = np.eye(3)
    clf = LogisticRegression().fit(np.vstack([X, -X]), [0, 1, 1, 1, 0, 0])
    with pytest.warns(UndefinedScoreWarning, match="no two rows"):
        assert np.isnan(consistency(clf, X, X, k=1))
    # k above n_features uses every feature, as k="all" does.
    A = np.array([[1.0, -2.0, 0.5], [1.0, -2.0, 0.5], [0.3, 2.0, -1.0]])
    np.testing.assert_array_equal(consistency(clf, A, A, k=5),
                                  consistency(clf, A, A, k="all"))
    with pytest.raises(TypeError, match="classifier"):
        consistency(LinearRegression().fit(X, [0.0, 1.0, 2.0]), X, X)


def test_explainer_randomness_is_shared_or_independent():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 4))
    model = make_pipeline(PolynomialFeatures(2), LinearRegression()).fit(
        X, X[:, 0] * X[:, 1] + X[:, 2] * X[:, 3])
    ex = ShapleyValueSampling(FrozenEstimator(model), n_permutations=2, antithetic=False,
                              masker=BaselineMasker("zero"), random_state=0).fit(X)
    A = ex.transform(X[:5])
    kw = dict(explainer=ex, n_perturbations=5, std=1e-3, random_state=0)
    # Common random numbers: x and its neighbours use the same permutations,
    # so the estimate moves smoothly; independent draws add Monte-Carlo noise
    # of order 1 over a step of 1e-3.
    same = local_lipschitz_estimate(model, X[:5], A, explainer_rng="common", **kw)
    indep = local_lipschitz_estimate(model, X[:5], A, explainer_rng="independent",
                                     **kw)
    assert np.all(same < 5) and np.all(indep > 30)


def test_registry_entries():
    for name, func, per_row in [("neg_avg_sensitivity", avg_sensitivity, True),
                                ("neg_local_lipschitz_estimate",
                                 local_lipschitz_estimate, True),
                                ("neg_continuity", continuity, True),
                                ("consistency", consistency, False)]:
        spec = get_metric_spec(name)
        assert spec.func is func and spec.family == "robustness"
        assert spec.per_instance is per_row
        assert spec.greater_is_better is (name == "consistency")


def test_scorer_negates_the_loss(linear):
    model, ex, X, A = linear
    scorer = get_scorer("neg_local_lipschitz_estimate", explainer=ex, random_state=0,
                        n_perturbations=5)
    direct = local_lipschitz_estimate(model, X, A, explainer=ex, random_state=0,
                                      n_perturbations=5)
    assert scorer.score_attributions(model, X, A, explainer=ex).shape == (7,)
    np.testing.assert_allclose(scorer(ex, X), -direct.mean(), rtol=1e-10)


# ----------------------------------------------------------- Quantus oracle
class _TorchClassifier(ClassifierMixin, BaseEstimator):
    """predict_proba of a torch module (softmax of its logits, float32)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        return self

    def __sklearn_is_fitted__(self):
        return True

    @property
    def classes_(self):
        return np.arange(3)

    def predict_proba(self, X):
        import torch

        with torch.no_grad():
            Z = torch.as_tensor(np.asarray(X, dtype=np.float32))
            return torch.softmax(self.module(Z), dim=1).double().numpy()

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def _torch_problem(d, n=12, seed=0):
    torch = pytest.importorskip("torch")
    torch.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(d, 16),
                              torch.nn.Tanh(), torch.nn.Linear(16, 3)).eval()
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.1, 1.0, size=(n, d))
    clf = _TorchClassifier(net)
    ex = FeatureAblation(FrozenEstimator(clf), masker=BaselineMasker("zero")).fit(X)
    return net, clf, ex, X, ex.transform(X), clf.predict(X)


def _explain_func(ex, d):
    """Quantus' explain_func: our explainer on the flattened inputs."""
    def explain(model, inputs, targets, **kwargs):
        Z = np.asarray(inputs, dtype=np.float64).reshape(len(inputs), d)
        return ex.explain(Z, target=np.asarray(targets)).reshape(np.shape(inputs))
    return explain


def _replay(neighbours):
    """A Quantus perturb_func returning the given neighbours, one draw per call."""
    calls = iter(range(neighbours.shape[1]))

    def perturb(arr, indices=None, **kwargs):
        return neighbours[:, next(calls)].reshape(arr.shape).copy()
    return perturb


def _quantus(quantus):
    assert quantus.__version__.startswith("0.6")
    return dict(disable_warnings=True, display_progressbar=False)


def test_avg_sensitivity_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    net, clf, ex, X, A, y = _torch_problem(6)
    N, r = 20, 0.2
    delta = (2.0 * RowStreams(0, row_keys(X)).uniform((N, 6)) - 1.0) * r
    metric = quantus.AvgSensitivity(nr_samples=N, normalise=False, abs=False,
                                    perturb_func=_replay(X[:, None, :] + delta),
                                    **_quantus(quantus))
    theirs = metric(model=net, x_batch=X.reshape(-1, 1, 6), y_batch=y,
                    a_batch=A.reshape(-1, 1, 6), explain_func=_explain_func(ex, 6),
                    channel_first=True, device="cpu", batch_size=64)
    ours = avg_sensitivity(clf, X, A, explainer=ex, n_perturbations=N, radius=r,
                           normalize="relative", random_state=0)
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-12)


def test_local_lipschitz_estimate_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    net, clf, ex, X, A, y = _torch_problem(6)
    N, std = 20, 0.1
    eps = std * RowStreams(1, row_keys(X)).normal((N, 6))
    metric = quantus.LocalLipschitzEstimate(
        nr_samples=N, normalise=False, abs=False,
        perturb_func=_replay(X[:, None, :] + eps), **_quantus(quantus))
    theirs = metric(model=net, x_batch=X.reshape(-1, 1, 6), y_batch=y,
                    a_batch=A.reshape(-1, 1, 6), explain_func=_explain_func(ex, 6),
                    channel_first=True, device="cpu", batch_size=64)
    ours = local_lipschitz_estimate(clf, X, A, explainer=ex, n_perturbations=N,
                                    std=std, random_state=1)
    # Quantus adds 1e-10 to ||x - x'|| (about 0.25 here).
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-8)


@pytest.mark.parametrize("n_steps", [5, 28])
def test_continuity_equals_quantus_on_images(n_steps):
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    h, w = 2, 16
    net, clf, ex, X, A, y = _torch_problem(h * w, n=4)
    metric = quantus.Continuity(nr_steps=n_steps, normalise=False, abs=False,
                                **_quantus(quantus))
    theirs = metric(model=net, x_batch=X.reshape(-1, 1, h, w), y_batch=y,
                    a_batch=A.reshape(-1, 1, h, w),
                    explain_func=_explain_func(ex, h * w), channel_first=True,
                    device="cpu", batch_size=64)
    ours = continuity(clf, X, A, explainer=ex, image_shape=(h, w), n_steps=n_steps)
    # Quantus adds 1e-9 to ||x - x'|| (at least 0.1 here).
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-7)


def test_consistency_equals_quantus_on_one_batch():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    net, clf, _, X, _, y = _torch_problem(8, n=60)
    rng = np.random.default_rng(3)
    # Few sign patterns among the first 5 columns (Quantus' top_n_sign).
    A = rng.normal(size=(60, 8)) * (rng.random((60, 8)) < 0.8)
    A[:, :2] = np.abs(A[:, :2])
    metric = quantus.Consistency(normalise=False, abs=False, **_quantus(quantus))
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 8), y_batch=y,
                               a_batch=A.reshape(-1, 1, 8), channel_first=True,
                               device="cpu", batch_size=60))
    d = consistency(clf, X, A, convention="quantus_code", return_details=True)
    defined = np.isfinite(d.local_consistency)
    assert 0 < defined.sum() < 60
    np.testing.assert_allclose(theirs[defined], d.local_consistency[defined],
                               rtol=1e-8)
    np.testing.assert_array_equal(theirs[~defined], 0.0)  # Quantus scores them 0
    assert d.score == pytest.approx(theirs[defined].mean(), rel=1e-8)
