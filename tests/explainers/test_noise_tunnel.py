"""NoiseTunnel (closed forms of SmoothGrad, SmoothGrad-squared and VarGrad),
PermutationImportance (scikit-learn run directly) and DeepLiftShap (Captum run
directly, summation to delta)."""

import numpy as np
import pytest
import torch
from captum.attr import DeepLiftShap as CaptumDeepLiftShap
from sklearn.frozen import FrozenEstimator
from sklearn.inspection import permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.neural_network import MLPClassifier, MLPRegressor

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers import (
    DeepLiftShap,
    FeatureAblation,
    InputXGradient,
    KernelSHAP,
    NoiseTunnel,
    PermutationImportance,
    Saliency,
    SmoothGrad,
    torch_replica,
)
from sklearn_xai.masking import BaselineMasker, MarginalMasker


class _Input(BaseExplainer):
    """The input itself (a model-ignorant explainer written for these tests)."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.requires_estimator = False
        tags.explainer_tags.model_agnostic = False
        return tags

    def _explain(self, X, f, target_index, rngs):
        return X.copy()


def _regression(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    w = np.array([2.0, -1.0, 0.5])
    return X, X @ w + 1.0, w


def test_noise_tunnel_closed_forms_on_a_linear_model():
    X, y, w = _regression()
    model = FrozenEstimator(LinearRegression().fit(X, y))
    x = X[:3]
    # The gradient of a linear model is w at every noisy copy.
    for kind, expected in (("smoothgrad", np.tile(w, (3, 1))),
                           ("smoothgrad_sq", np.tile(w ** 2, (3, 1))),
                           ("vargrad", np.zeros((3, 3)))):
        A = NoiseTunnel(Saliency(), kind=kind, n_perturbations=7, stdev=0.3,
                        estimator=model, random_state=0).fit(X).transform(x)
        np.testing.assert_allclose(A, expected, rtol=1e-12, atol=1e-12)
    # Input x gradient at x + e is (x + e) w: VarGrad = w^2 var(e), exactly the
    # variance of the copies themselves (InputAttribution, same noise stream).
    kw = dict(kind="vargrad", n_perturbations=50, stdev=0.3, random_state=1)
    var_x = NoiseTunnel(_Input(), **kw).fit(X).transform(x)
    A = NoiseTunnel(InputXGradient(model), **kw).fit(X).transform(x)
    np.testing.assert_allclose(A, w ** 2 * var_x, rtol=1e-10)


def test_noise_tunnel_moments_of_the_noise():
    """For the input itself: SmoothGrad -> x, SmoothGrad-squared
    -> x^2 + s^2, VarGrad -> s^2 (within 5 standard errors)."""
    X = np.array([[0.5, -1.0, 2.0], [0.0, 3.0, -0.5]])
    N, s = 20000, 0.5
    for kind, expected, se in (
            ("smoothgrad", X, s / np.sqrt(N)),
            ("smoothgrad_sq", X ** 2 + s ** 2,
             np.sqrt(4 * X ** 2 * s ** 2 + 2 * s ** 4) / np.sqrt(N)),
            ("vargrad", np.full_like(X, s ** 2), np.sqrt(2) * s ** 2 / np.sqrt(N))):
        A = NoiseTunnel(_Input(), kind=kind, n_perturbations=N, stdev=s,
                        random_state=0).fit(X).transform(X)
        assert np.all(np.abs(A - expected) < 5 * se), kind


def test_noise_tunnel_rows_are_independent_and_explained_at_their_class():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = np.digitize(X[:, 0] - X[:, 1], [-0.5, 0.5])
    mlp = FrozenEstimator(MLPClassifier(hidden_layer_sizes=(6,), max_iter=300,
                                        random_state=0).fit(X, y))
    nt = NoiseTunnel(Saliency(mlp), n_perturbations=15, stdev=1.0, random_state=0).fit(X)
    A = nt.transform(X[:6])
    np.testing.assert_array_equal(nt.transform(X[3:6]), A[3:])
    np.testing.assert_array_equal(nt.transform(X[[5, 4, 3]]), A[[5, 4, 3]])
    # target="predicted" is the class at the original row, for every copy.
    predicted = mlp.predict(X[:6])
    np.testing.assert_array_equal(nt.explain(X[:6], target=predicted), A)
    A, n_eval = nt.explain(X[:6], return_n_evaluations=True)
    assert n_eval == 6 + 6 * 15  # the predicted classes, then the copies
    # SmoothGrad draws the same noise from the same row streams.
    for abs_ in (False, True):
        sg = SmoothGrad(mlp, n_perturbations=15, std=1.0, abs=abs_,
                        random_state=0).fit(X).transform(X[:6])
        nt = NoiseTunnel(Saliency(abs=abs_), estimator=mlp, n_perturbations=15,
                         stdev=1.0, random_state=0).fit(X).transform(X[:6])
        np.testing.assert_allclose(nt, sg, rtol=1e-12, atol=1e-15)


def test_noise_tunnel_around_a_stochastic_model_agnostic_explainer():
    X, y, w = _regression(60)
    model = LinearRegression()
    ks = KernelSHAP(model, n_perturbations=30, masker=MarginalMasker(10, random_state=0))
    nt = NoiseTunnel(ks, n_perturbations=3, stdev=0.1, random_state=0).fit(X, y)
    A = nt.transform(X[:4])
    np.testing.assert_array_equal(nt.transform(X[2:4]), A[2:])
    assert not np.allclose(nt.explain(X[:4], row_keys=np.arange(4)), A)
    # A deterministic linear explanation: smoothgrad of occlusion against the
    # mean baseline is w (x + mean e - mean(X)), the noise averaged.
    fa = NoiseTunnel(FeatureAblation(model, masker=BaselineMasker("mean")),
                     n_perturbations=200, stdev=0.01,
                     random_state=0).fit(X, y)
    expected = w * (X[:4] - X.mean(axis=0))
    np.testing.assert_allclose(fa.transform(X[:4]), expected, atol=0.01)


def test_noise_tunnel_needs_its_inner_model():
    X, y, _ = _regression(30)
    with pytest.raises(ValueError, match="needs a model"):
        NoiseTunnel(Saliency()).fit(X, y)
    nt = NoiseTunnel(Saliency(), estimator=LinearRegression()).fit(X, y)
    assert nt.estimator_ is nt.explainer_.estimator_
    np.testing.assert_allclose(nt.estimator_.coef_, [2.0, -1.0, 0.5])


# ------------------------------------------------------- permutation importance
def test_permutation_importance_is_sklearns():
    X, y, _ = _regression(150)
    model = LinearRegression().fit(X, y)
    pi = PermutationImportance(FrozenEstimator(model), n_repeats=4, random_state=3)
    A = pi.fit(X, y).transform(X[:5])
    ref = permutation_importance(model, X, y, n_repeats=4, random_state=3)
    np.testing.assert_array_equal(A, np.tile(ref.importances_mean, (5, 1)))
    np.testing.assert_array_equal(pi.importances_, ref.importances)
    clf = LogisticRegression().fit(X, y > 1)
    pi = PermutationImportance(FrozenEstimator(clf), scoring="roc_auc", random_state=0)
    ref = permutation_importance(clf, X, y > 1, scoring="roc_auc", random_state=0)
    np.testing.assert_array_equal(pi.fit(X, y > 1).importances_mean_, ref.importances_mean)
    with pytest.raises(ValueError, match=r"fit\(X, y\)"):
        PermutationImportance(FrozenEstimator(model)).fit(X)


# ----------------------------------------------------------------- DeepLiftShap
def test_deep_lift_shap_equals_captum_and_sums_to_delta():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    clf = MLPClassifier(hidden_layer_sizes=(8,), max_iter=300, random_state=0).fit(X, y)
    ex = DeepLiftShap(FrozenEstimator(clf), target=1, max_baselines=8,
                      random_state=0).fit(X)
    assert ex.baseline_.shape == (8, 4)
    assert {tuple(r) for r in ex.baseline_} <= {tuple(r) for r in X}
    A = ex.transform(X[:5])
    theirs = CaptumDeepLiftShap(torch_replica(clf)).attribute(
        torch.as_tensor(X[:5]).requires_grad_(), baselines=torch.as_tensor(ex.baseline_),
        target=1)
    np.testing.assert_allclose(A, theirs.detach().numpy(), rtol=1e-10, atol=1e-12)
    small = DeepLiftShap(FrozenEstimator(clf), target=1, max_baselines=8, random_state=0,
                         batch_size=16).fit(X)
    np.testing.assert_allclose(small.transform(X[:5]), A, rtol=1e-12, atol=1e-14)
    # On a ReLU regressor the attributions sum to f(x) - mean_b f(b).
    reg = FrozenEstimator(MLPRegressor(hidden_layer_sizes=(8,), max_iter=300,
                                       random_state=0).fit(X, X[:, 0] * X[:, 1]))
    ex = DeepLiftShap(reg, max_baselines=8, random_state=0).fit(X)
    f = reg.predict
    np.testing.assert_allclose(ex.transform(X[:5]).sum(axis=1),
                               f(X[:5]) - f(ex.baseline_).mean(), atol=1e-10)
    one = DeepLiftShap(reg, baseline="zero").fit(X)  # one baseline: DeepLIFT
    np.testing.assert_allclose(one.transform(X[:5]).sum(axis=1),
                               f(X[:5]) - f(np.zeros((1, 4))), atol=1e-10)
