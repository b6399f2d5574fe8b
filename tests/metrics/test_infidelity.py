import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression
from sklearn.neural_network import MLPRegressor

from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.metrics._perturbation_gaps import infidelity
from sklearn_xai.metrics._registry import get_metric_spec
from sklearn_xai.utils import row_keys
from sklearn_xai.utils._random import row_normal

W = np.array([3.0, -2.0, 1.0, 0.5])


class Square(RegressorMixin, BaseEstimator):
    """f(x) = x_0 ** 2 (closed forms)."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0] ** 2


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    return X, LinearRegression().fit(X, X @ W)


def test_exact_gradient_of_a_linear_model_is_zero(linear):
    X, model = linear
    grad = np.tile(model.coef_, (10, 1))
    for normalize in (True, False):
        s = infidelity(model, X[:10], grad, normalize=normalize, random_state=0)
        np.testing.assert_allclose(s, 0.0, atol=1e-20)
    # Normalised: any positive multiple of the gradient is also exact.
    np.testing.assert_allclose(
        infidelity(model, X[:10], 5 * grad, random_state=0), 0.0, atol=1e-20)
    assert np.all(infidelity(model, X[:10], 5 * grad, normalize=False,
                             random_state=0) > 0)


def test_the_model_is_evaluated_at_the_perturbed_input():
    # f = x0², a = ∇f(x) = (2 x0, 0): f(x) - f(x - I) - I·a = -I0², so the
    # unnormalised infidelity is E[I0⁴] = 3σ⁴ whatever x (evaluating the model
    # at pure noise instead would give a value growing with x0⁴).
    X = np.array([[2.0, 0.0], [-5.0, 1.0]])
    model = Square().fit(X)
    A = np.column_stack([2 * X[:, 0], np.zeros(2)])
    s = infidelity(model, X, A, sigma=0.3, sigma_scale="absolute", normalize=False,
                   n_perturbations=40000, random_state=0)
    np.testing.assert_allclose(s, 3 * 0.3**4, rtol=0.05)


def test_sigma_is_relative_to_the_training_std():
    X_train = np.column_stack([np.linspace(-4, 4, 101), np.zeros(101)])
    model = Square().fit(X_train)
    x = np.array([[1.0, 0.0]])
    a = np.array([[2.0, 0.0]])
    sd = X_train[:, 0].std()
    s = infidelity(model, x, a, X_train=X_train, normalize=False,
                   n_perturbations=40000, random_state=0)
    assert s[0] == pytest.approx(3 * (0.1 * sd) ** 4, rel=0.05)
    pert = GaussianNoisePerturber(0.1).fit(X_train)
    np.testing.assert_allclose(
        infidelity(model, x, a, perturber=pert, normalize=False,
                   n_perturbations=40000, random_state=0), s)


def test_xai_bench_code_closed_form(linear):
    # x - I = clip(-0.2 z, 0, 1) does not depend on x; with a = 0:
    # INFD = (w·x - μ)² + Var, μ = 0.2 Σw / sqrt(2π),
    # Var = 0.04 Σw² (1/2 - 1/(2π)).
    X, model = linear
    s = infidelity(model, X[:2], np.zeros((2, 4)), convention="xai_bench_code",
                   normalize=False, n_perturbations=200000, random_state=0)
    mu = 0.2 * W.sum() / np.sqrt(2 * np.pi) + model.intercept_
    var = 0.04 * (W**2).sum() * (0.5 - 1 / (2 * np.pi))
    np.testing.assert_allclose(s, (X[:2] @ W - mu) ** 2 + var, rtol=0.02)


def test_beexai_code_evaluates_pure_noise(linear):
    # model at ε ~ N(0, σ²): with a = 0, |f(x) - f(ε)|² has mean
    # (w·x)² + σ² Σw² (intercept ≈ 0).
    X, model = linear
    s = infidelity(model, X[:2], np.zeros((2, 4)), convention="beexai_code",
                   sigma=0.5, sigma_scale="absolute", normalize=False,
                   n_perturbations=50000, random_state=0)
    np.testing.assert_allclose(s, (X[:2] @ W) ** 2 + 0.25 * (W**2).sum(), rtol=0.02)


def test_beexai_code_defaults_are_beexais(linear):
    # BEExAI's noise generator loops over the features' standard deviations
    # std_k and draws, for each, isotropic noise eps ~ N(0, std_k² I) on
    # every feature; it does not rescale the attributions.  With a = c w,
    # a linear model, x = 0 and signed differences the score is
    # E[((x - eps)·a - w·(x - eps))²] = (c - 1)² mean_k(std_k²) Σ w_j²,
    # not the per-feature (c - 1)² Σ w_j² std_j², and not ~0 (rescaled).
    X, model = linear
    X_train = X * [0.5, 0.5, 1.0, 4.0]
    std = X_train.std(axis=0)
    x = np.zeros((1, 4))
    s = infidelity(model, x, 2.0 * W[None, :], convention="beexai_code",
                   X_train=X_train, absolute=False, n_perturbations=50000,
                   random_state=0)
    expected = (std**2).mean() * (W**2).sum()
    per_feature = (W**2 * std**2).sum()
    assert expected > 5 * per_feature
    np.testing.assert_allclose(s, expected, rtol=0.02)
    # Regression outputs use |f(x) - f(eps)| by default.
    a = np.abs(W)[None, :]
    kw = dict(convention="beexai_code", X_train=X_train, n_perturbations=20,
              random_state=0)
    np.testing.assert_array_equal(infidelity(model, x, a, **kw),
                                  infidelity(model, x, a, absolute=True, **kw))
    assert not np.allclose(infidelity(model, x, a, **kw),
                           infidelity(model, x, a, absolute=False, **kw))


def test_default_number_of_draws_per_convention(linear):
    X, model = linear

    class Counting(LinearRegression):
        rows = 0

        def predict(self, Z):
            Counting.rows += len(Z)
            return super().predict(Z)

    counted = Counting().fit(X, X @ W)
    # BEExAI's code: 5 draws for each of the d = 4 feature scales.
    for convention, n in (("paper", 100), ("xai_bench_code", 1000),
                          ("beexai_code", 5 * 4)):
        Counting.rows = 0
        infidelity(counted, X[:3], X[:3], convention=convention, random_state=0)
        assert Counting.rows == 3 + 3 * n


def test_normalised_is_scale_invariant_unnormalised_is_not(linear):
    X, model = linear
    rng = np.random.default_rng(0)
    A = rng.normal(size=(10, 4))
    a = infidelity(model, X[:10], A, random_state=0)
    np.testing.assert_allclose(infidelity(model, X[:10], 3 * A, random_state=0), a)
    assert not np.allclose(infidelity(model, X[:10], 3 * A, normalize=False,
                                      random_state=0),
                           infidelity(model, X[:10], A, normalize=False,
                                      random_state=0))


def test_zero_attributions_normalised_give_the_output_variance(linear):
    X, model = linear
    s = infidelity(model, X[:1], np.zeros((1, 4)), sigma=1.0,
                   sigma_scale="absolute", n_perturbations=40000, random_state=0)
    assert s[0] == pytest.approx((W**2).sum(), rel=0.03)


def test_batch_and_order_invariance(linear):
    X, model = linear
    A = np.random.default_rng(1).normal(size=X.shape)
    s = infidelity(model, X, A, random_state=4)
    np.testing.assert_allclose(infidelity(model, X, A, random_state=4, batch_size=77),
                               s, rtol=1e-12)
    np.testing.assert_allclose(infidelity(model, X[::-1], A[::-1], random_state=4)[::-1],
                               s, rtol=1e-12)
    assert not np.allclose(infidelity(model, X, A, random_state=5), s)


def test_noise_scale_comes_from_the_training_rows_or_is_absolute(linear):
    # Never from the scored rows: a row alone would get sigma_j = 0.
    X, model = linear
    A = np.random.default_rng(2).normal(size=(5, 4))
    X_train = 3.0 * X
    kw = dict(normalize=False, random_state=0)
    default = infidelity(model, X[:5], A, **kw)
    np.testing.assert_array_equal(
        default, infidelity(model, X[:5], A, sigma_scale="absolute", **kw))
    np.testing.assert_array_equal(
        infidelity(model, X[:5], A, X_train=X_train, **kw),
        infidelity(model, X[:5], A, X_train=X_train, sigma_scale="std", **kw))
    # an unfitted perturber: fitted on X_train, or set up without data
    np.testing.assert_array_equal(
        infidelity(model, X[:5], A, X_train=X_train,
                   perturber=GaussianNoisePerturber(0.1), **kw),
        infidelity(model, X[:5], A, X_train=X_train, **kw))
    np.testing.assert_array_equal(
        infidelity(model, X[:5], A, perturber=GaussianNoisePerturber(
            0.1, sigma_scale="absolute", binary_features=None), **kw), default)
    np.testing.assert_array_equal(default[:1], infidelity(model, X[:1], A[:1], **kw))


def test_std_scale_needs_training_rows(linear):
    X, model = linear
    with pytest.raises(ValueError, match="pass X_train"):
        infidelity(model, X[:3], X[:3], sigma_scale="std")
    with pytest.raises(ValueError, match="X_train=<training rows>"):
        infidelity(model, X[:3], X[:3], perturber=GaussianNoisePerturber(0.1))
    with pytest.raises(ValueError, match="X_train has 2 features"):
        infidelity(model, X[:3], X[:3], X_train=X[:, :2])
    # XAI-Bench's perturbation has no scale to take
    assert infidelity(model, X[:3], X[:3], convention="xai_bench_code",
                      sigma_scale="std", n_perturbations=10).shape == (3,)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("normalize", [True, False])
def test_agrees_with_captum_on_the_same_draws(normalize):
    torch = pytest.importorskip("torch")
    from captum.metrics import infidelity as captum_infidelity

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    model = MLPRegressor(hidden_layer_sizes=(16,), max_iter=300,
                         random_state=0).fit(X, np.sin(X @ W))
    Xe, A = X[:8], rng.normal(size=(8, 4))
    N, sigma = 30, 0.1
    s = infidelity(model, Xe, A, n_perturbations=N, normalize=normalize,
                   X_train=X, random_state=7)
    # The documented draws: row_normal(random_state, row_keys(X), (N, d),
    # dtype=float32, method="box_muller") * σ_j, σ_j = σ × the training std
    # of feature j.
    scale = sigma * X.std(axis=0)
    z = row_normal(7, row_keys(Xe), (N, 4), dtype=np.float32, method="box_muller")
    noise = (z * scale).reshape(-1, 4)

    def perturb(inputs):
        I = torch.as_tensor(noise, dtype=inputs.dtype)
        return I, inputs - I

    def forward(t):
        return torch.as_tensor(model.predict(t.numpy()))

    ref = captum_infidelity(forward, perturb, torch.as_tensor(Xe),
                            torch.as_tensor(A), n_perturb_samples=N,
                            normalize=normalize).numpy()
    np.testing.assert_allclose(s, ref, rtol=1e-9, atol=1e-12)


def test_registry_entry():
    spec = get_metric_spec("neg_infidelity")
    assert spec.func is infidelity and not spec.greater_is_better
