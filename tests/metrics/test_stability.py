import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from sklearn_xai.explainers import (
    FeatureAblation,
    LocalLinearSurrogate,
    RandomExplainer,
)
from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.metrics._registry import get_metric_spec
from sklearn_xai.metrics._sensitivity import _mean_pairwise_distance, max_sensitivity
from sklearn_xai.metrics._stability import (
    relative_input_stability,
    relative_output_stability,
    relative_representation_stability,
)
from sklearn_xai.utils import row_keys
from sklearn_xai.utils._random import RowStreams, row_uniform

W = np.array([3.0, -2.0, 1.0, 0.5])


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4)) + 2.0
    model = LinearRegression().fit(X, X @ W)
    ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    return X, model, ex


@pytest.fixture(scope="module")
def classifier():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 4))
    clf = LogisticRegression().fit(X, X @ W > 0)
    ex = FeatureAblation(FrozenEstimator(clf)).fit(X)
    return X, clf, ex


def _pert(sigma):
    return GaussianNoisePerturber(sigma, sigma_scale="absolute", binary_features=None)


def _neighbours(X, pert, n_samples, seed):
    """The documented neighbourhood of each row."""
    pert = pert.fit(X)
    streams = RowStreams(seed, row_keys(X))
    return np.stack([pert.perturb(X[i:i + 1], np.zeros(X.shape[1], bool), n_samples,
                                  streams[i:i + 1])[0] for i in range(len(X))])


# ------------------------------------------------------------------ RIS/ROS
@pytest.mark.parametrize("form", ["norm", "elementwise"])
def test_ris_is_one_for_scaled_identity_explanations(form):
    # f = c·sum(x), ablation with zero baseline: e_x = c x, so every ratio is 1.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)) + 3.0
    model = LinearRegression().fit(X, 2.5 * X.sum(axis=1))
    ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    s = relative_input_stability(model, X[:5], ex.transform(X[:5]), explainer=ex,
                                 n_perturbations=50, perturber=_pert(1e-2), form=form,
                                 random_state=0)
    np.testing.assert_allclose(s, 1.0, rtol=1e-7)


def test_ris_and_ros_match_a_brute_force_loop(linear):
    X, model, ex = linear
    Xe = X[:4]
    A = ex.transform(Xe)
    kw = dict(explainer=ex, n_perturbations=40, max_neighbours=25, perturber=_pert(1e-3),
              random_state=3)
    ris = relative_input_stability(model, Xe, A, **kw)
    ros = relative_output_stability(model, Xe, A, **kw)
    nb = _neighbours(Xe, _pert(1e-3), 40, 3)[:, :25]  # regression: all kept
    for i in range(4):
        En = ex.transform(nb[i])
        num = np.linalg.norm(A[i] - En, axis=1) / np.linalg.norm(A[i])
        den_x = np.linalg.norm(Xe[i] - nb[i], axis=1) / np.linalg.norm(Xe[i])
        fx, fn = model.predict(Xe[i:i + 1]), model.predict(nb[i])
        den_f = np.abs(fx - fn) / np.abs(fx)
        assert ris[i] == pytest.approx(np.max(num / den_x), rel=1e-9)
        assert ros[i] == pytest.approx(np.max(num / den_f), rel=1e-9)


def test_only_the_first_neighbours_of_the_same_class_are_kept(classifier):
    X, clf, ex = classifier
    # rows near the decision boundary, large noise: many neighbours flip
    Xe = X[np.argsort(np.abs(clf.decision_function(X)))[:3]]
    A = ex.transform(Xe)
    det = relative_input_stability(clf, Xe, A, explainer=ex, n_perturbations=60,
                                   max_neighbours=20, perturber=_pert(0.5),
                                   random_state=0, return_details=True)
    nb = _neighbours(Xe, _pert(0.5), 60, 0)
    for i in range(3):
        same = clf.predict(nb[i]) == clf.predict(Xe[i:i + 1])[0]
        kept = nb[i][same][:20]
        assert det.n_neighbours[i] == len(kept)
        num = np.linalg.norm(A[i] - ex.transform(kept), axis=1) / np.linalg.norm(A[i])
        den = np.linalg.norm(Xe[i] - kept, axis=1) / np.linalg.norm(Xe[i])
        assert det.scores[i] == pytest.approx(np.max(num / den), rel=1e-9)
    assert np.all(det.n_valid == det.n_neighbours) and det.n_undefined == 0


def test_ros_uses_probabilities_or_logits(classifier):
    X, clf, ex = classifier
    Xe = X[:3]
    A = ex.transform(Xe)
    kw = dict(explainer=ex, n_perturbations=20, perturber=_pert(1e-3), random_state=0)
    proba = relative_output_stability(clf, Xe, A, **kw)
    logit = relative_output_stability(clf, Xe, A, output="logit", **kw)
    assert not np.allclose(proba, logit)
    nb = _neighbours(Xe, _pert(1e-3), 20, 0)
    i = 1
    same = clf.predict(nb[i]) == clf.predict(Xe[i:i + 1])[0]
    kept = nb[i][same]
    num = np.linalg.norm(A[i] - ex.transform(kept), axis=1) / np.linalg.norm(A[i])
    dx = clf.decision_function(Xe[i:i + 1])
    lx = np.column_stack([-dx, dx])
    ln = np.column_stack([-clf.decision_function(kept), clf.decision_function(kept)])
    den = np.linalg.norm(lx - ln, axis=1) / np.linalg.norm(lx)
    assert logit[i] == pytest.approx(np.max(num / den), rel=1e-9)


# ---------------------------------------------------------------------- RRS
def test_rrs_with_a_sklearn_mlp_matches_the_hidden_layer():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 4))
    mlp = make_pipeline(StandardScaler(), MLPClassifier(
        hidden_layer_sizes=(6,), max_iter=50, random_state=0))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp.fit(X, X @ W > 0)
    ex = FeatureAblation(FrozenEstimator(mlp)).fit(X)
    Xe = X[:2]
    A = ex.transform(Xe)
    s = relative_representation_stability(mlp, Xe, A, explainer=ex, n_perturbations=15,
                                          perturber=_pert(1e-3), random_state=0)
    net, scaler = mlp[-1], mlp[0]

    def hidden(Z):
        return np.maximum(scaler.transform(Z) @ net.coefs_[0] + net.intercepts_[0], 0)

    nb = _neighbours(Xe, _pert(1e-3), 15, 0)
    for i in range(2):
        kept = nb[i][mlp.predict(nb[i]) == mlp.predict(Xe[i:i + 1])[0]]
        num = np.linalg.norm(A[i] - ex.transform(kept), axis=1) / np.linalg.norm(A[i])
        hx = hidden(Xe[i:i + 1])
        den = np.linalg.norm(hx - hidden(kept), axis=1) / np.linalg.norm(hx)
        ok = den > 0
        assert s[i] == pytest.approx(np.max(num[ok] / den[ok]), rel=1e-9)


def test_rrs_with_a_skorch_net_hooks_the_first_activation():
    torch = pytest.importorskip("torch")
    skorch = pytest.importorskip("skorch")
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4)).astype(np.float32)
    y = (X @ W > 0).astype(np.int64)
    module = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(),
                                 torch.nn.Linear(5, 2))
    net = skorch.NeuralNetClassifier(module, max_epochs=3, lr=0.1, train_split=None,
                                     verbose=0, criterion=torch.nn.CrossEntropyLoss)
    net.fit(X, y)
    ex = FeatureAblation(FrozenEstimator(net)).fit(X)
    Xe = X[:2].astype(np.float64)
    A = ex.transform(Xe)
    s = relative_representation_stability(net, Xe, A, explainer=ex, n_perturbations=15,
                                          perturber=_pert(1e-2), random_state=0)
    lin = net.module_[0]

    def hidden(Z):
        with torch.no_grad():
            return torch.tanh(lin(torch.as_tensor(Z, dtype=torch.float32))).double().numpy()

    nb = _neighbours(Xe, _pert(1e-2), 15, 0)
    for i in range(2):
        kept = nb[i][net.predict(nb[i].astype(np.float32)) ==
                     net.predict(X[i:i + 1])[0]]
        num = np.linalg.norm(A[i] - ex.transform(kept), axis=1) / np.linalg.norm(A[i])
        hx = hidden(Xe[i:i + 1])
        den = np.linalg.norm(hx - hidden(kept), axis=1) / np.linalg.norm(hx)
        assert s[i] == pytest.approx(np.max(num / den), rel=1e-4)


def test_rrs_without_a_representation_says_what_works(linear):
    X, model, ex = linear
    with pytest.raises(TypeError, match="skorch net.*MLPClassifier"):
        relative_representation_stability(model, X[:2], ex.transform(X[:2]),
                                          explainer=ex, n_perturbations=5)
    s = relative_representation_stability(
        model, X[:2], ex.transform(X[:2]), explainer=ex, n_perturbations=5,
        representation=lambda Z: Z, perturber=_pert(1e-3), random_state=0)
    ris = relative_input_stability(model, X[:2], ex.transform(X[:2]), explainer=ex,
                                   n_perturbations=5, perturber=_pert(1e-3), random_state=0)
    np.testing.assert_allclose(s, ris)


# ------------------------------------------------------------ randomness, NaN
def test_common_random_numbers_versus_independent(classifier):
    # A sampling explainer: with common random numbers each neighbour reuses
    # the draws of its original row, so RIS measures how the explanation
    # function moves, not its Monte-Carlo noise; independent streams add
    # that noise.
    X, clf, _ = classifier
    ks = LocalLinearSurrogate(FrozenEstimator(clf), n_perturbations=50,
                              random_state=0).fit(X)
    A = ks.transform(X[:6])
    kw = dict(explainer=ks, n_perturbations=10, perturber=_pert(1e-3), random_state=0)
    common = relative_input_stability(clf, X[:6], A, **kw)
    indep = relative_input_stability(clf, X[:6], A, explainer_rng="independent",
                                     **kw)
    assert np.all(common * 20 < indep)


def test_random_control_is_never_stable(linear):
    # Its randomness is the explanation: it ignores the shared row keys, so a
    # neighbour gets independent draws under either policy (OpenXAI's random
    # control has log RIS ~ 11.6 in its Table 4), never the RIS = 0 that common
    # random numbers would give it.
    X, model, _ = linear
    rnd = RandomExplainer(random_state=0).fit(X)
    A = rnd.transform(X[:3])
    np.testing.assert_array_equal(rnd.explain(X[:3], row_keys=[1, 1, 1]), A)
    kw = dict(explainer=rnd, n_perturbations=20, random_state=0)
    for policy in ("common", "independent"):
        ris = relative_input_stability(model, X[:3], A, explainer_rng=policy, **kw)
        assert np.all(ris > 1e4)
    assert np.all(max_sensitivity(model, X[:3], A, explainer=rnd, X_train=X,
                                  random_state=0) > 0.5)


def test_undefined_rows_and_nan_policy(linear):
    X, model, ex = linear
    A = ex.transform(X[:3])
    A[1] = 0.0
    kw = dict(explainer=ex, n_perturbations=10, perturber=_pert(1e-3), random_state=0)
    with pytest.warns(RuntimeWarning, match="undefined for 1 of 3"):
        det = relative_input_stability(model, X[:3], A, return_details=True, **kw)
    assert np.isnan(det.scores[1]) and det.n_undefined == 1
    assert det.n_valid.tolist() == [10, 0, 10]
    assert det.n_neighbours.tolist() == [10, 10, 10]
    zero = relative_input_stability(model, X[:3], A, nan_policy="zero", **kw)
    assert zero[1] == 0.0 and zero[0] == det.scores[0]
    with pytest.raises(ValueError, match="nan_policy"):
        relative_input_stability(model, X[:3], A, nan_policy="raise", **kw)


def test_results_do_not_depend_on_batch_size_or_row_order(classifier):
    X, clf, ex = classifier
    Xe = X[:12]
    A = ex.transform(Xe)
    kw = dict(explainer=ex, n_perturbations=30, max_neighbours=10, perturber=_pert(0.3),
              random_state=2)
    ref = relative_input_stability(clf, Xe, A, **kw)
    np.testing.assert_allclose(
        relative_input_stability(clf, Xe, A, batch_size=70, **kw), ref, rtol=1e-12)
    np.testing.assert_allclose(
        relative_input_stability(clf, Xe[::-1], A[::-1], **kw)[::-1], ref, rtol=1e-12)
    kw = dict(explainer=ex, random_state=2)
    ms = max_sensitivity(clf, Xe, A, **kw)
    np.testing.assert_allclose(max_sensitivity(clf, Xe, A, batch_size=25, **kw), ms,
                               rtol=1e-12)
    np.testing.assert_allclose(max_sensitivity(clf, Xe[::-1], A[::-1], **kw)[::-1], ms,
                               rtol=1e-12)


def test_ris_is_scale_invariant(linear):
    X, model, ex = linear
    A = ex.transform(X[:3])

    class Scaled:
        def explain(self, Z, **kw):
            return 4.0 * ex.explain(Z, **kw)

    kw = dict(n_perturbations=10, perturber=_pert(1e-3), random_state=0)
    np.testing.assert_allclose(
        relative_input_stability(model, X[:3], 4 * A, explainer=Scaled(), **kw),
        relative_input_stability(model, X[:3], A, explainer=ex, **kw), rtol=1e-10)


# ---------------------------------------------------------- max-sensitivity
def _uniform_draws(X, N, r, seed):
    u = np.stack([row_uniform(seed, row_keys(X[i:i + 1]), (N, X.shape[1]))[0]
                  for i in range(len(X))])
    return (2.0 * u - 1.0) * r


def test_max_sensitivity_matches_a_brute_force_loop(linear):
    X, model, ex = linear
    Xe = X[:3]
    A = ex.transform(Xe)
    s = max_sensitivity(model, Xe, A, explainer=ex, X_train=X, random_state=1)
    r = 0.02 * X.std(axis=0)  # radius in units of the training std
    delta = _uniform_draws(Xe, 10, r, 1)
    # ablation of a linear model: a(x + δ) - a(x) = w ⊙ δ
    expected = np.linalg.norm(W * delta, axis=2).max(axis=1)
    np.testing.assert_allclose(s, expected, rtol=1e-8)
    per_noise = max_sensitivity(model, Xe, A, explainer=ex, normalize="per_noise",
                                X_train=X, random_state=1)
    np.testing.assert_allclose(
        per_noise, (np.linalg.norm(W * delta, axis=2)
                    / np.linalg.norm(delta, axis=2)).max(axis=1), rtol=1e-8)


def test_max_sensitivity_beexai_code(linear):
    X, model, ex = linear
    Xe = X[:20]
    eq = LinearRegression().fit(X, 2.0 * X.sum(axis=1))
    ex_eq = FeatureAblation(FrozenEstimator(eq)).fit(X)
    A = ex_eq.transform(Xe)
    # a(x) - a(x - δ) = 2 δ: per-instance score 100 · 2 exactly
    s = max_sensitivity(eq, Xe, A, explainer=ex_eq, convention="beexai_code",
                        X_train=X, random_state=0)
    np.testing.assert_allclose(s, 200.0, rtol=1e-8)


def test_max_sensitivity_beexai_code_radius_comes_from_the_training_rows():
    # One feature, a(x) = x² (FeatureAblation of f(x) = x² against 0),
    # so a(x) - a(x - δ) = 2xδ - δ² and the score 100 max |2x - δ| depends on
    # the draws only through r; the training rows fix r = mean |t_i - t_j|.
    from sklearn_xai.masking import BaselineMasker
    t = np.array([[0.0], [1.0], [3.0]])  # distinct pairs 1, 3, 2: r = 2
    grid = np.linspace(-4.0, 4.0, 9)[:, None]  # f(x) = x² exactly
    model = make_pipeline(PolynomialFeatures(2, include_bias=False),
                          LinearRegression()).fit(grid, grid[:, 0] ** 2)
    ex = FeatureAblation(FrozenEstimator(model),
                         masker=BaselineMasker(value=0.0)).fit(t)
    Xe = np.array([[0.5], [2.0], [-2.0]])  # its own pairs would give r = 8 / 3
    A = ex.transform(Xe)
    np.testing.assert_allclose(A[:, 0], Xe[:, 0] ** 2, rtol=1e-9)
    s = max_sensitivity(model, Xe, A, explainer=ex, convention="beexai_code",
                        X_train=t, random_state=3)
    delta = _uniform_draws(Xe, 5, 2.0, 3)[..., 0]
    expected = 100 * np.abs(2 * Xe - delta).max(axis=1)
    np.testing.assert_allclose(s, expected, rtol=1e-8)
    # a row's score does not depend on the rows scored with it
    alone = [max_sensitivity(model, Xe[i:i + 1], A[i:i + 1], explainer=ex,
                             convention="beexai_code", X_train=t, random_state=3)[0]
             for i in range(3)]
    np.testing.assert_array_equal(alone, s)
    with pytest.raises(ValueError, match="X_train"):
        max_sensitivity(model, Xe, A, explainer=ex, convention="beexai_code")


def test_mean_pairwise_distance_hand_case():
    X = np.array([[0.0, 1.0], [1.0, 1.0], [3.0, 1.0]])
    # distinct pairs (as BEExAI's mean over i < j): |0-1|, |0-3|, |1-3| = 6 / 3
    np.testing.assert_allclose(_mean_pairwise_distance(X), [2.0, 0.0])
    with pytest.raises(ValueError, match="at least 2 rows"):
        _mean_pairwise_distance(X[:1])


def test_max_sensitivity_agrees_with_captum(classifier):
    torch = pytest.importorskip("torch")
    from captum.metrics import sensitivity_max

    X, clf, ex = classifier
    Xe = X[:6]
    A = ex.transform(Xe)
    N = 10
    s = max_sensitivity(clf, Xe, A, explainer=ex, normalize="relative",
                        radius=0.05, radius_scale="absolute", random_state=3)
    delta = _uniform_draws(Xe, N, 0.05, 3).reshape(-1, 4)
    labels = clf.predict(Xe)

    def perturb(inputs):
        return inputs + torch.as_tensor(delta, dtype=inputs.dtype)

    def explain(inputs):
        tup = isinstance(inputs, tuple)
        x = inputs[0] if tup else inputs
        e = torch.as_tensor(ex.explain(x.numpy(),
                                       target=np.repeat(labels, len(x) // len(Xe))))
        return (e,) if tup else e

    ref = sensitivity_max(explain, torch.as_tensor(Xe), perturb_func=perturb,
                          n_perturb_samples=N).numpy()
    np.testing.assert_allclose(s, ref, rtol=1e-9)




def test_max_neighbours_caps_the_explained_neighbours(linear):
    X, model, ex = linear
    det = relative_input_stability(model, X[:3], ex.transform(X[:3]), explainer=ex,
                                   n_perturbations=12, max_neighbours=5,
                                   perturber=_pert(1e-3), random_state=0,
                                   return_details=True)
    assert det.n_neighbours.tolist() == [5, 5, 5]


def test_registry_entries():
    for name, func in (("neg_ris", relative_input_stability),
                       ("neg_rrs", relative_representation_stability),
                       ("neg_ros", relative_output_stability),
                       ("neg_max_sensitivity", max_sensitivity)):
        spec = get_metric_spec(name)
        assert spec.func is func and spec.requires == (
            ("explainer", "training_rows", "random_state") if name == "neg_max_sensitivity"
            else ("masker", "explainer", "random_state"))
        assert not spec.greater_is_better and spec.per_instance
