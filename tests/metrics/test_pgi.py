import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.metrics._perturbation_gaps import pgi, pgu
from sklearn_xai.metrics._registry import get_metric_spec

W = np.array([8.0, -7.0, 6.0, 5.0, -4.0, 3.0, 2.0, 1.0])


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 8))
    return X, LinearRegression().fit(X, X @ W)


def _abs_perturber(sigma=0.1):
    return GaussianNoisePerturber(sigma, sigma_scale="absolute", binary_features=None)


def test_pgi_closed_form_for_a_linear_model(linear):
    # f(x) - f(x') = w_T · eps with eps ~ N(0, σ² I): E|.| = σ ||w_T|| sqrt(2/π).
    X, model = linear
    A = np.tile(np.abs(W), (1, 1))
    s = pgi(model, X[:1], A, k=3, auc=False, perturber=_abs_perturber(0.2),
            n_perturbations=40000, random_state=0)
    expected = 0.2 * np.linalg.norm(W[:3]) * np.sqrt(2 / np.pi)
    assert s[0] == pytest.approx(expected, rel=0.02)
    u = pgu(model, X[:1], A, k=3, auc=False, perturber=_abs_perturber(0.2),
            n_perturbations=40000, random_state=0)
    assert u[0] == pytest.approx(0.2 * np.linalg.norm(W[3:]) * np.sqrt(2 / np.pi),
                                 rel=0.02)


def test_sigma_scale_std_uses_the_training_std(linear):
    X, model = linear
    X_train = X * 4.0  # features std ≈ 4
    A = np.tile(np.abs(W), (1, 1))
    pert = GaussianNoisePerturber(0.1, binary_features=None).fit(X_train)
    s = pgi(model, X[:1], A, k=1, auc=False, perturber=pert, n_perturbations=40000,
            random_state=1)
    assert s[0] == pytest.approx(
        0.1 * X_train[:, 0].std() * 8.0 * np.sqrt(2 / np.pi), rel=0.02)


def test_auc_is_the_trapezoid_over_k(linear):
    X, model = linear
    A = X * W
    kw = dict(perturber=_abs_perturber(), n_perturbations=50, random_state=3)
    per_k = np.column_stack(
        [pgi(model, X, A, k=k, auc=False, **kw) for k in (1, 2, 3)])
    expected = (per_k[:, 0] / 2 + per_k[:, 1] + per_k[:, 2] / 2) / 2
    np.testing.assert_allclose(pgi(model, X, A, k=3, **kw), expected, rtol=1e-12)
    # default k = 0.25 -> K = ceil(8 / 4) = 2
    np.testing.assert_allclose(pgi(model, X, A, **kw),
                               (per_k[:, 0] + per_k[:, 1]) / 2, rtol=1e-12)
    np.testing.assert_allclose(pgi(model, X, A, k=1, **kw), per_k[:, 0])


def test_k_equal_d_pgu_is_zero_and_pgi_perturbs_everything(linear):
    X, model = linear
    A = X * W
    kw = dict(perturber=_abs_perturber(), n_perturbations=20, random_state=0, auc=False)
    assert np.all(pgu(model, X, A, k=-1, **kw) == 0.0)
    # with all features perturbed the explanation does not matter
    np.testing.assert_allclose(pgi(model, X, A, k=-1, **kw),
                               pgi(model, X, -A[:, ::-1], k=-1, **kw))


def test_exact_beats_random_on_a_classifier():
    # PGI(exact) >= PGI(random) and PGU(exact) <= PGU(random) (catches
    # OpenXAI's inverted masks).
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 8))
    clf = LogisticRegression().fit(X, X @ W + rng.normal(size=300) > 0)
    exact = FeatureAblation(FrozenEstimator(clf)).fit(X).transform(X[:80])
    rand = RandomExplainer(random_state=0).fit(X).transform(X[:80])
    pert = GaussianNoisePerturber(0.5).fit(X)
    kw = dict(perturber=pert, n_perturbations=50, random_state=0)
    assert pgi(clf, X[:80], exact, **kw).mean() > pgi(clf, X[:80], rand, **kw).mean()
    assert pgu(clf, X[:80], exact, **kw).mean() < pgu(clf, X[:80], rand, **kw).mean()


def test_signed_order_inverts_negative_contributions(linear):
    # OpenXAI's pre-2024 bug: the signed order puts large negative weights last.
    X, model = linear
    A = np.tile(W, (1, 1))  # feature 1 has weight -7
    kw = dict(perturber=_abs_perturber(), n_perturbations=2000, random_state=0,
              auc=False, k=2)
    by_abs = pgi(model, X[:1], A, **kw)[0]
    by_sign = pgi(model, X[:1], A, order_by="signed", **kw)[0]
    assert by_abs == pytest.approx(0.1 * np.hypot(8, 7) * np.sqrt(2 / np.pi), rel=0.05)
    assert by_sign == pytest.approx(0.1 * np.hypot(8, 6) * np.sqrt(2 / np.pi), rel=0.05)


def test_batch_size_and_row_order_do_not_matter(linear):
    X, model = linear
    A = X * W
    kw = dict(perturber=_abs_perturber(), n_perturbations=30, random_state=5)
    ref = pgu(model, X, A, **kw)
    np.testing.assert_allclose(pgu(model, X, A, batch_size=97, **kw), ref, rtol=1e-12)
    np.testing.assert_allclose(pgu(model, X[::-1], A[::-1], **kw)[::-1], ref,
                               rtol=1e-12)
    np.testing.assert_allclose(pgu(model, X[10:11], A[10:11], **kw), ref[10:11],
                               rtol=1e-12)


def test_convention_openxai_code_seeds_by_position(linear):
    # For a linear model |f(x) - f(x')| = |w_T · eps| does not depend on x, so
    # with equal attributions two rows differ only through their noise.
    X, model = linear
    A = np.tile(np.abs(W), (2, 1))
    kw = dict(perturber=_abs_perturber(), n_perturbations=10, random_state=0)
    ox = pgi(model, X[:2], A, convention="openxai_code", **kw)
    ox_swapped = pgi(model, X[1::-1], A, convention="openxai_code", **kw)
    np.testing.assert_allclose(ox, ox_swapped, rtol=1e-12)
    row = pgi(model, X[:2], A, convention="paper", **kw)
    row_swapped = pgi(model, X[1::-1], A, convention="paper", **kw)
    np.testing.assert_allclose(row, row_swapped[::-1], rtol=1e-12)
    assert not np.allclose(row, row_swapped)


def test_reproducible_and_seed_dependent(linear):
    X, model = linear
    A = X * W
    kw = dict(perturber=_abs_perturber(), n_perturbations=10)
    a = pgi(model, X, A, random_state=0, **kw)
    np.testing.assert_array_equal(a, pgi(model, X, A, random_state=0, **kw))
    assert not np.allclose(a, pgi(model, X, A, random_state=1, **kw))


def test_scale_invariance(linear):
    X, model = linear
    A = X * W
    kw = dict(perturber=_abs_perturber(), n_perturbations=10, random_state=0)
    np.testing.assert_allclose(pgi(model, X, 3.5 * A, **kw), pgi(model, X, A, **kw))


def test_validation_errors(linear):
    X, model = linear
    with pytest.raises(ValueError, match="k must be"):
        pgi(model, X, X, k=9)
    with pytest.raises(ValueError, match="columns"):
        pgi(model, X, X[:, :3])
    fitted = GaussianNoisePerturber().fit(X[:, :3])
    with pytest.raises(ValueError, match="fitted on 3 features"):
        pgi(model, X, X, perturber=fitted)
    with pytest.raises(Exception, match="perturber"):
        pgi(model, X, X, perturber="gauss")


# ----------------------------------------- where the noise scale comes from
class _FirstSquared(RegressorMixin, BaseEstimator):
    """f(x) = x_0 ** 2 (closed forms)."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0] ** 2


def test_default_noise_without_training_rows_is_absolute(linear):
    # σ = 0.1 in input units: E|w_0 ε| = 0.1 |w_0| sqrt(2/π), whatever X's spread.
    X, model = linear
    A = np.tile(np.abs(W), (1, 1))
    for Xs in (X[:1], 10.0 * X[:1]):
        s = pgi(model, Xs, A, k=1, auc=False, n_perturbations=40000, random_state=0)
        assert s[0] == pytest.approx(0.1 * 8.0 * np.sqrt(2 / np.pi), rel=0.02)


def test_default_noise_with_training_rows_is_relative_to_their_std(linear):
    X, model = linear
    X_train = X * 4.0
    A = np.tile(np.abs(W), (1, 1))
    s = pgi(model, X[:1], A, k=1, auc=False, X_train=X_train, n_perturbations=40000,
            random_state=1)
    assert s[0] == pytest.approx(
        0.1 * X_train[:, 0].std() * 8.0 * np.sqrt(2 / np.pi), rel=0.02)


def test_binary_columns_are_detected_on_the_training_rows():
    # Column 0 is binary in the training rows: it flips with p = 0.1 sqrt(2/π)
    # and f = x_0² changes by exactly 1; as a continuous column with σ = 0.1
    # it would change by E[(0.1 ε)²] = 0.01 on average.
    rng = np.random.default_rng(0)
    X_train = np.column_stack([rng.integers(0, 2, 100), rng.normal(size=100)])
    model = _FirstSquared().fit(X_train)
    x, a = np.array([[0.0, 0.5]]), np.array([[1.0, 0.0]])
    kw = dict(k=1, auc=False, n_perturbations=40000, random_state=0)
    s = pgi(model, x, a, X_train=X_train, **kw)
    assert s[0] == pytest.approx(0.1 * np.sqrt(2 / np.pi), rel=0.05)
    assert pgi(model, x, a, **kw)[0] == pytest.approx(0.01, rel=0.05)


def test_unfitted_perturber_is_fitted_on_the_training_rows(linear):
    X, model = linear
    A = X[:5] * W
    X_train = 2.0 * X + 1.0
    kw = dict(n_perturbations=30, random_state=0)
    pert = GaussianNoisePerturber(0.2)
    np.testing.assert_array_equal(
        pgi(model, X[:5], A, perturber=pert, X_train=X_train, **kw),
        pgi(model, X[:5], A, perturber=clone(pert).fit(X_train), **kw))
    # a fitted perturber is used as is
    fitted = clone(pert).fit(X)
    np.testing.assert_array_equal(
        pgu(model, X[:5], A, perturber=fitted, X_train=X_train, **kw),
        pgu(model, X[:5], A, perturber=fitted, **kw))


def test_unfitted_perturber_is_never_fitted_on_the_scored_rows(linear):
    X, model = linear
    with pytest.raises(ValueError, match="X_train=<training rows>"):
        pgi(model, X, X, perturber=GaussianNoisePerturber(0.1))
    with pytest.raises(ValueError, match="X_train has 3 features"):
        pgi(model, X, X, X_train=X[:, :3])




def test_registry_entries():
    assert get_metric_spec("pgi").greater_is_better
    spec = get_metric_spec("neg_pgu")
    assert not spec.greater_is_better and spec.func is pgu and spec.per_instance
