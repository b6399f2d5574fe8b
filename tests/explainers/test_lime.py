"""Tests of the LIME variants."""

import numpy as np
import pytest
import torch
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge

from sklearn_xai.explainers._lime import (
    CaptumKernelSHAP,
    CaptumLime,
    LimeTabular,
    LocalLinearSurrogate,
)
from sklearn_xai.utils import row_generators, row_keys


class CountingLinear(RegressorMixin, BaseEstimator):
    """Fixed linear model that counts its predict calls and checks its dtype."""

    def __init__(self, coef=(1.0,), intercept=0.0):
        self.coef = coef
        self.intercept = intercept

    def fit(self, X, y=None):
        self.coef_ = np.asarray(self.coef, dtype=np.float64)
        self.n_features_in_ = len(self.coef_)
        self.n_predict_calls_ = 0
        return self

    def predict(self, X):
        self.n_predict_calls_ += 1
        return np.asarray(X) @ self.coef_ + self.intercept


@pytest.fixture(scope="module")
def gaussian_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    w = np.array([3.0, -2.0, 1.0, 0.25])
    return X, w


# ----------------------------------------------------------------- LimeTabular
def test_lime_ranks_linear_coefficients(gaussian_data):
    X, w = gaussian_data
    ex = LimeTabular(LinearRegression(), n_perturbations=1000, random_state=0)
    A = ex.fit(X, X @ w).transform(X[:30])
    mean_abs = np.abs(A).mean(axis=0)
    assert np.array_equal(np.argsort(-mean_abs), np.argsort(-np.abs(w)))


def test_lime_sign_is_direction_of_effect(gaussian_data):
    X, _ = gaussian_data
    w = np.array([1.0, 2.0, 0.5, 1.5])
    ex = LimeTabular(LinearRegression(), n_perturbations=1000, random_state=0)
    ex.fit(X, X @ w)
    # Rows above the median of every feature (top quartile): all positive.
    high = np.tile(np.quantile(X, 0.9, axis=0), (3, 1)) + [[0.0], [0.1], [0.3]]
    assert np.all(ex.transform(high) > 0)
    # Rows in the bottom quartile: all negative.
    assert np.all(ex.transform(-high) < 0)


def test_lime_lasso_path_runs_lime_package_seeded_per_row(gaussian_data):
    """lasso_path runs lime row by row, seeded from the row's stream:
    identical weights to stock lime given the same seed."""
    from lime.lime_tabular import LimeTabularExplainer

    X, w = gaussian_data
    model = LinearRegression().fit(X, X @ w)
    rows = X[:3]
    A = LimeTabular(FrozenEstimator(model), n_perturbations=300, random_state=7,
                    feature_selection="lasso_path").fit(X).transform(rows)
    rngs = row_generators(7, row_keys(rows))
    for i, row in enumerate(rows):
        seed = int(rngs[i].integers(2**32))
        direct = LimeTabularExplainer(
            X, mode="regression", kernel_width=0.75 * np.sqrt(4),
            feature_selection="lasso_path", random_state=np.random.RandomState(seed),
        )
        exp = direct.explain_instance(row, model.predict, num_features=4, num_samples=300)
        expected = np.zeros(4)
        for j, v in exp.local_exp[0]:  # regression mode stores -coef here
            expected[j] = -v
        np.testing.assert_allclose(A[i], expected, rtol=1e-12, atol=1e-12)


def test_lime_classifier_explains_target_class(gaussian_data):
    X, w = gaussian_data
    y = (X @ w > 0).astype(int)
    clf = FrozenEstimator(LogisticRegression().fit(X, y))
    rows = X[:4]
    A1 = LimeTabular(clf, n_perturbations=300, target=1, random_state=0).fit(X).transform(rows)
    A0 = LimeTabular(clf, n_perturbations=300, target=0, random_state=0).fit(X).transform(rows)
    # p0 = 1 - p1 and the surrogate is linear in its response.
    np.testing.assert_allclose(A0, -A1, atol=1e-10)
    Ap = LimeTabular(clf, n_perturbations=300, random_state=0).fit(X).transform(rows)
    sign = np.where(clf.predict(rows) == 1, 1.0, -1.0)[:, None]
    np.testing.assert_allclose(Ap, sign * A1, atol=1e-10)


def test_lime_reproducible_and_batch_independent(gaussian_data):
    X, w = gaussian_data
    ex = LimeTabular(LinearRegression(), n_perturbations=200, random_state=3).fit(X, X @ w)
    rows = X[:5]
    A = ex.transform(rows)
    np.testing.assert_array_equal(A, ex.transform(rows))
    np.testing.assert_array_equal(A[::-1], ex.transform(rows[::-1]))
    np.testing.assert_array_equal(A[2:3], ex.transform(rows[2:3]))
    ex.set_params(batch_size=50)
    np.testing.assert_array_equal(A, ex.transform(rows))
    other = LimeTabular(LinearRegression(), n_perturbations=200, random_state=4).fit(X, X @ w)
    assert not np.allclose(A, other.transform(rows))


def test_lime_one_model_call_per_block(gaussian_data):
    X, w = gaussian_data
    ex = LimeTabular(CountingLinear(coef=tuple(w)), n_perturbations=100, random_state=0)
    ex.fit(X, X @ w)
    ex.transform(X[:3])
    assert ex.estimator_.n_predict_calls_ == 1
    ex.set_params(feature_selection="lasso_path").fit(X, X @ w)
    ex.transform(X[:3])  # lime row by row
    assert ex.estimator_.n_predict_calls_ == 3


def test_lime_preset_and_kernel_width(gaussian_data):
    X, w = gaussian_data
    ex = LimeTabular(LinearRegression(), kernel_width=0.3).fit(X, X @ w)
    assert ex.lime_explainer().base.kernel_fn.keywords["kernel_width"] == pytest.approx(0.6)
    ex = LimeTabular(LinearRegression(), preset="xai_bench").fit(X, X @ w)
    assert ex.lime_explainer().base.kernel_fn.keywords["kernel_width"] == pytest.approx(1.0)
    assert ex.n_perturbations_ == 5000 and ex.kernel_width_ == 0.5


@pytest.mark.parametrize(
    "params, match",
    [
        ({"preset": "openxai"}, "preset"),
        ({"n_perturbations": 1}, "n_perturbations"),
        ({"discretizer": "entropy"}, "discretizer"),
        ({"kernel_width": 0.0}, "kernel_width"),
    ],
)
def test_lime_bad_parameters(gaussian_data, params, match):
    X, w = gaussian_data
    with pytest.raises(ValueError, match=match):
        LimeTabular(LinearRegression(), **params).fit(X, X @ w)


def test_lime_needs_estimator_and_right_width(gaussian_data):
    X, w = gaussian_data
    with pytest.raises(ValueError, match="needs a model"):
        LimeTabular().fit(X)
    ex = LimeTabular(LinearRegression(), n_perturbations=50).fit(X, X @ w)
    with pytest.raises(ValueError, match="features"):
        ex.transform(X[:2, :3])


# -------------------------------------------------------- LocalLinearSurrogate
def test_surrogate_recovers_gradient_of_linear_regressor(gaussian_data):
    X, w = gaussian_data
    ex = LocalLinearSurrogate(LinearRegression(), alpha=1e-9, n_perturbations=200, random_state=0)
    A = ex.fit(X, X @ w + 3.0).transform(X[:7])
    np.testing.assert_allclose(A, np.tile(w, (7, 1)), atol=1e-6)


def test_surrogate_equals_sklearn_ridge_on_openxai_neighbourhood(gaussian_data):
    """OpenXAI's LIME built by hand: z_0 = x, z_i = x + 0.1 eps, sqrt-exp kernel
    on unscaled distances, Ridge(alpha=1) with sample weights."""
    X, _ = gaussian_data
    model = LinearRegression().fit(X, np.sin(X[:, 0]) + X[:, 1] ** 2)
    rows = X[:3]
    A = LocalLinearSurrogate(FrozenEstimator(model), random_state=11).fit(X).transform(rows)
    rngs = row_generators(11, row_keys(rows))
    width = 0.75 * np.sqrt(4)
    for i, x in enumerate(rows):
        eps = rngs[i].standard_normal((1000, 4))
        Z = x + 0.1 * eps
        Z[0] = x
        pi = np.sqrt(np.exp(-np.sum((Z - x) ** 2, axis=1) / width**2))
        ref = Ridge(alpha=1.0).fit(Z, model.predict(Z), sample_weight=pi)
        np.testing.assert_allclose(A[i], ref.coef_, rtol=1e-9, atol=1e-12)


def test_surrogate_classifier_is_openxai_sign_convention(gaussian_data):
    X, w = gaussian_data
    y = (X @ w > 0).astype(int)
    clf = FrozenEstimator(LogisticRegression().fit(X, y))
    rows = X[:6]
    A1 = LocalLinearSurrogate(clf, target=1, random_state=0).fit(X).transform(rows)
    Ap = LocalLinearSurrogate(clf, random_state=0).fit(X).transform(rows)
    y_hat = clf.predict(rows)
    np.testing.assert_allclose(Ap, A1 * (2 * y_hat - 1)[:, None], atol=1e-10)


def test_surrogate_one_call_batch_and_order_independent(gaussian_data):
    X, w = gaussian_data
    ex = LocalLinearSurrogate(CountingLinear(coef=tuple(w)), n_perturbations=100, random_state=2)
    ex.fit(X, X @ w)
    A, n_eval = ex.explain(X[:20], return_n_evaluations=True)
    assert ex.estimator_.n_predict_calls_ == 1
    assert n_eval == 20 * 100
    perm = np.random.default_rng(0).permutation(20)
    np.testing.assert_allclose(ex.transform(X[:20][perm]), A[perm], rtol=1e-12)
    ex.set_params(batch_size=250)
    np.testing.assert_allclose(ex.transform(X[:20]), A, rtol=1e-12)
    ex2 = LocalLinearSurrogate(CountingLinear(coef=tuple(w)), n_perturbations=100, random_state=2)
    np.testing.assert_array_equal(ex2.fit(X, X @ w).transform(X[:20]), A)


@pytest.mark.parametrize(
    "params, match",
    [({"std": 0.0}, "std"), ({"n_perturbations": 1}, "n_perturbations"),
     ({"alpha": -1.0}, "alpha")],
)
def test_surrogate_bad_parameters(gaussian_data, params, match):
    X, w = gaussian_data
    with pytest.raises(ValueError, match=match):
        LocalLinearSurrogate(LinearRegression(), **params).fit(X, X @ w)


# ------------------------------------------------------------------ CaptumLime
def test_captum_lime_linear_model_zero_baseline(gaussian_data):
    """f(m*x) = sum_j m_j w_j x_j + b is linear in the mask: the surrogate's
    coefficients are w_j x_j (tiny Lasso penalty)."""
    X, w = gaussian_data
    ex = CaptumLime(LinearRegression(), n_perturbations=200, alpha=1e-8, random_state=0)
    rows = X[:5]
    A = ex.fit(X, X @ w + 1.0).transform(rows)
    np.testing.assert_allclose(A, rows * w, atol=1e-4)


def test_captum_lime_matches_captum_with_same_masks(gaussian_data):
    """Side by side with captum.attr.Lime fed the same masks."""
    from captum.attr import Lime

    X, w = gaussian_data
    model = LinearRegression().fit(X, np.tanh(X @ w))
    rows = X[:3]
    A = CaptumLime(FrozenEstimator(model), random_state=5).fit(X).transform(rows)
    rngs = row_generators(5, row_keys(rows))

    def forward(t):
        return torch.as_tensor(model.predict(t.detach().double().numpy()))

    for i, x in enumerate(rows):
        # Captum's Lime.attribute draws its default n_samples masks (25).
        masks = iter((rngs[i].random((25, 4)) < 0.5).astype(np.int64))

        def perturb(inp, **kwargs):
            return torch.as_tensor(next(masks))[None]

        lime = Lime(forward, perturb_func=perturb)
        ref = lime.attribute(torch.as_tensor(x[None])).numpy()[0]
        np.testing.assert_allclose(A[i], ref, atol=2e-5)
        with pytest.raises(StopIteration):  # exactly 25 masks were drawn
            next(masks)


def test_captum_lime_defaults_are_captums():
    """The defaults are those of ``captum.attr.Lime`` as BEExAI and
    XAI-TRIS call it: ``Lime(model).attribute(x)``, not ``LimeBase``'s
    50 samples."""
    import inspect

    from captum.attr import Lime

    captum_n = inspect.signature(Lime.attribute).parameters["n_samples"].default
    ours = inspect.signature(CaptumLime).parameters
    assert ours["n_perturbations"].default == captum_n == 25
    assert ours["alpha"].default == 0.01  # SkLearnLasso(alpha=0.01)
    assert ours["kernel_width"].default == 1.0


def test_captum_lime_baseline_and_errors(gaussian_data):
    X, w = gaussian_data
    base = X.mean(axis=0)
    ex = CaptumLime(LinearRegression(), n_perturbations=200, alpha=1e-8, distance="euclidean",
                    baseline=base, random_state=0)
    A = ex.fit(X, X @ w).transform(X[:3])
    np.testing.assert_allclose(A, (X[:3] - base) * w, atol=1e-4)
    with pytest.raises(ValueError, match="baseline"):
        CaptumLime(LinearRegression(), baseline=[0.0, 1.0]).fit(X, X @ w)
    with pytest.raises(ValueError, match="distance"):
        CaptumLime(LinearRegression(), distance="manhattan").fit(X, X @ w)


def test_captum_lime_batch_independent(gaussian_data):
    X, w = gaussian_data
    ex = CaptumLime(LinearRegression(), random_state=1).fit(X, X @ w)
    A = ex.transform(X[:10])
    np.testing.assert_allclose(ex.transform(X[:10][::-1]), A[::-1], rtol=1e-12)
    ex.set_params(batch_size=60)
    np.testing.assert_allclose(ex.transform(X[:10]), A, rtol=1e-12)


# ------------------------------------------------------------ CaptumKernelSHAP
def test_captum_kernel_shap_matches_captum_with_same_coalitions(gaussian_data):
    """Side by side with captum.attr.KernelShap fed the same coalitions: its
    similarity kernel (weight 1e6 for the full and empty coalitions, 1
    otherwise) and its weighted linear regression."""
    from captum.attr import KernelShap

    X, w = gaussian_data
    model = LinearRegression().fit(X, np.tanh(X @ w))
    rows = X[:3]
    ex = CaptumKernelSHAP(FrozenEstimator(model), n_perturbations=12, random_state=5)
    A = ex.fit(X).transform(rows)
    rngs = row_generators(5, row_keys(rows))

    def forward(t):
        return torch.as_tensor(model.predict(t.detach().double().numpy()))

    for i, x in enumerate(rows):
        coalitions = ex._masks(rngs[i], X.shape[1])
        # Captum's own generator yields the full then the empty coalition.
        assert coalitions[0].all() and not coalitions[1].any()
        masks = iter(coalitions.astype(np.int64))

        def perturb(inp, masks=masks, **kwargs):
            return torch.as_tensor(next(masks))[None]

        shap = KernelShap(forward)
        shap.perturb_func = perturb
        ref = shap.attribute(torch.as_tensor(x[None]), n_samples=12).numpy()[0]
        np.testing.assert_allclose(A[i], ref, atol=1e-5)


def test_captum_kernel_shap_draws_captums_coalitions():
    """Sizes follow p(k) = (d-1)/(k(d-k)) normalised over 0 < k < d (Captum's
    num_select_distribution); given its size, every feature is equally
    likely to be in a coalition."""
    d, S = 6, 4002
    ex = CaptumKernelSHAP(n_perturbations=S)
    ex.n_perturbations_ = S
    masks = ex._masks(np.random.default_rng(0), d)[2:]
    sizes = masks.sum(axis=1)
    k = np.arange(1, d)
    p = (d - 1) / (k * (d - k))
    p /= p.sum()
    counts = np.bincount(sizes, minlength=d + 1)
    assert counts[0] == counts[d] == 0
    expected = p * (S - 2)
    chi2 = ((counts[1:d] - expected) ** 2 / expected).sum()
    assert chi2 < 20.5  # chi-square, 4 degrees of freedom, p = 0.0004
    for size in (1, 3):
        inclusion = masks[sizes == size].mean(axis=0)
        se = np.sqrt(size / d * (1 - size / d) / (sizes == size).sum())
        np.testing.assert_allclose(inclusion, size / d, atol=5 * se)


def test_captum_kernel_shap_linear_model_and_errors(gaussian_data):
    """A linear model is linear in the mask: any coalitions give w * (x - b)."""
    X, w = gaussian_data
    base = X.mean(axis=0)
    ex = CaptumKernelSHAP(LinearRegression(), n_perturbations=25, baseline=base,
                          random_state=0)
    A = ex.fit(X, X @ w + 2.0).transform(X[:4])
    np.testing.assert_allclose(A, (X[:4] - base) * w, atol=1e-8)
    with pytest.raises(ValueError, match="n_perturbations"):
        CaptumKernelSHAP(LinearRegression(), n_perturbations=2).fit(X, X @ w)
    with pytest.raises(ValueError, match="baseline"):
        CaptumKernelSHAP(LinearRegression(), baseline=[0.0, 1.0]).fit(X, X @ w)


def test_captum_kernel_shap_batch_independent(gaussian_data):
    X, w = gaussian_data
    model = LinearRegression().fit(X, np.tanh(X @ w))
    ex = CaptumKernelSHAP(FrozenEstimator(model), random_state=1).fit(X)
    A = ex.transform(X[:10])
    np.testing.assert_allclose(ex.transform(X[:10][::-1]), A[::-1], rtol=1e-12)
    ex.set_params(batch_size=60)
    np.testing.assert_allclose(ex.transform(X[:10]), A, rtol=1e-12)


def test_weighted_least_squares_equals_sklearn_linear_regression():
    # alpha=0: scikit-learn's minimum-norm weighted least squares, batched,
    # on full-rank designs, on rank-deficient ones (more features than rows;
    # two features that always co-occur) and with Captum's 1e6 weights.
    from sklearn_xai.explainers._surrogate import weighted_ridge

    rng = np.random.default_rng(0)
    cases = []
    full = rng.integers(0, 2, size=(4, 25, 9)).astype(float)
    cases.append((full, rng.normal(size=(4, 25)), rng.uniform(0.1, 2, (4, 25))))
    wide = rng.integers(0, 2, size=(3, 12, 30)).astype(float)
    cases.append((wide, rng.normal(size=(3, 12)), rng.uniform(0.1, 2, (3, 12))))
    tied = rng.integers(0, 2, size=(3, 20, 6)).astype(float)
    tied[:, :, 4] = tied[:, :, 1]
    cases.append((tied, rng.normal(size=(3, 20)), np.ones((3, 20))))
    captum_w = np.ones((4, 25))
    captum_w[:, :2] = 1e6
    captum = full.copy()
    captum[:, 0], captum[:, 1] = 1.0, 0.0
    cases.append((captum, rng.normal(size=(4, 25)), captum_w))
    for Z, y, w in cases:
        coef, intercept = weighted_ridge(Z, y, w, 0.0)
        for b in range(len(Z)):
            ref = LinearRegression().fit(Z[b], y[b], sample_weight=w[b])
            np.testing.assert_allclose(coef[b], ref.coef_, rtol=1e-7, atol=1e-9)
            np.testing.assert_allclose(intercept[b], ref.intercept_, rtol=1e-7,
                                       atol=1e-9)
