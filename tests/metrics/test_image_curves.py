"""Image metric variants: the blurred baseline (BlurMasker, RISE's insertion),
insertion / deletion AUC and ABPC, each against an independent value (a
Gaussian convolution written here with torch, the paths built by hand, a
LATEC-style loop, Quantus' PixelFlipping and RegionPerturbation run
directly, closed forms on a linear model)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression

from sklearn_xai.masking import BaselineMasker, BlurMasker
from sklearn_xai.metrics import (
    abpc,
    deletion_auc,
    get_metric_spec,
    get_scorer_names,
    insertion_auc,
    pixel_flipping,
    removal_curve,
)

quantus_marks = pytest.mark.filterwarnings("ignore")


def _torch_blur(images, sigma, kernel_size):
    """Gaussian blur of (n, C, H, W) images: torch reflect padding and a
    separable normalised kernel, as torchvision's GaussianBlur computes it."""
    import torch
    r = kernel_size // 2
    x = np.arange(-r, r + 1, dtype=np.float64)
    k1 = np.exp(-0.5 * (x / sigma) ** 2)
    k1 /= k1.sum()
    kernel = torch.as_tensor(np.outer(k1, k1))[None, None]
    t = torch.as_tensor(images, dtype=torch.float64)
    n, C, H, W = t.shape
    t = t.reshape(n * C, 1, H, W)
    t = torch.nn.functional.pad(t, (r, r, r, r), mode="reflect")
    return torch.nn.functional.conv2d(t, kernel).reshape(n, C, H, W).numpy()


@pytest.mark.parametrize("shape", [(6, 6), (2, 5, 7)])
def test_blur_masker_equals_a_torch_gaussian_convolution(shape):
    rng = np.random.default_rng(0)
    d = int(np.prod(shape))
    X = rng.normal(size=(3, d))
    keep = rng.random((3, 2, d)) < 0.4
    m = BlurMasker(image_shape=shape, sigma=1.3, kernel_size=5).fit(X)
    Z = m.impute(X, keep)[:, :, 0]
    full = (1,) * (4 - len(shape)) + shape
    blurred = _torch_blur(X.reshape((3,) + full[1:] if len(shape) == 3 else
                                    (3, 1) + shape), 1.3, 5).reshape(3, d)
    expected = np.where(keep, X[:, None], blurred[:, None])
    np.testing.assert_allclose(Z, expected, atol=1e-12)


def test_blur_masker_checks_and_needs_no_rows():
    with pytest.raises(ValueError, match="kernel_size must be odd"):
        BlurMasker(kernel_size=4).fit(np.zeros((1, 16)))
    with pytest.raises(ValueError, match="square"):
        BlurMasker().fit(np.zeros((1, 15)))
    # A metric sets it up without training rows (it learns nothing).
    assert BlurMasker()._learns_from_rows() is None


class _Softmax(ClassifierMixin, BaseEstimator):
    """A fitted torch classifier on flattened images, 3 classes."""

    def __init__(self, module=None):
        self.module = module
        self.classes_ = np.arange(3)

    def fit(self, X, y=None):
        return self

    def __sklearn_is_fitted__(self):
        return True

    def predict_proba(self, X):
        import torch

        with torch.no_grad():
            dtype = next(self.module.parameters()).dtype
            z = torch.as_tensor(np.asarray(X), dtype=dtype)
            return torch.softmax(self.module(z), dim=1).double().numpy()

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def _problem(n=4, d=36, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.1, 1.0, size=(n, d))
    A = rng.normal(size=(n, d))  # continuous: no ties
    import torch
    torch.manual_seed(seed)
    clf = _Softmax(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(d, 8), torch.nn.Tanh(),
                                       torch.nn.Linear(8, 3)).double().eval())
    return clf, X, A, clf.predict(X)


def _hand_path(clf, X, A, y, base, mode, step=1):
    """The curve built feature by feature: insertion from ``base`` into x
    (mode="keep") or deletion of x into ``base`` (mode="remove")."""
    n, d = X.shape
    curves = []
    for i in range(n):
        order = np.argsort(-A[i], kind="stable")
        counts = list(range(0, d, step)) + [d]
        row = []
        for k in counts:
            z = (base[i] if mode == "keep" else X[i]).copy()
            idx = order[:k]
            z[idx] = X[i, idx] if mode == "keep" else base[i, idx]
            row.append(clf.predict_proba(z[None])[0, y[i]])
        curves.append(row)
    return np.array(curves), np.array(counts) / d


def test_insertion_blur_equals_the_hand_built_path():
    clf, X, A, y = _problem()
    blurred = _torch_blur(X.reshape(-1, 1, 6, 6), 2.0, 9).reshape(X.shape)
    curves, fractions = _hand_path(clf, X, A, y, blurred, "keep", step=5)
    expected = np.trapezoid(curves, fractions, axis=1)
    masker = BlurMasker(sigma=2.0, kernel_size=9)
    ours = insertion_auc(clf, X, A, masker=masker, baseline=None, features_per_step=5)
    np.testing.assert_allclose(ours, expected, rtol=1e-7)
    # removal_curve's baseline="blur" is the same masker (truncated at 4 sigma).
    ours_curves, ours_fr = removal_curve(clf, X, A, mode="keep", baseline="blur",
                                         blur_sigma=2.0, features_per_step=5)
    blurred4 = BlurMasker(sigma=2.0).fit(X).impute(X, np.zeros((1, 36), bool))[:, 0, 0]
    curves4, _ = _hand_path(clf, X, A, y, blurred4, "keep", step=5)
    np.testing.assert_allclose(ours_curves, curves4, rtol=1e-7)
    np.testing.assert_allclose(ours_fr, fractions)
    np.testing.assert_allclose(
        insertion_auc(clf, X, A, blur_sigma=2.0, features_per_step=5),
        np.trapezoid(curves4, fractions, axis=1), rtol=1e-7)


def _latec_loop(clf, x, a, y, base, target_start, pixel_batch_size):
    """LATEC's Insertion / Deletion loop, restated: ``current`` starts at
    ``target_start``; each batch of pixels takes ``base``'s values; the
    state after the last batch is never scored; trapezoid dx = 1/len."""
    current = target_start.copy()
    order = np.argsort(-a, kind="stable")
    scores, replaced, d = [], 0, a.size
    while replaced < d:
        batch = min(d - replaced, pixel_batch_size)
        current[order[replaced:replaced + batch]] = base[order[replaced:replaced + batch]]
        replaced += batch
        if replaced == d:
            break
        scores.append(clf.predict_proba(current[None])[0, y])
    return np.trapezoid(scores, dx=1.0 / len(scores))


def test_latec_code_convention_equals_latec_loop():
    clf, X, A, y = _problem()
    blurred = BlurMasker(sigma=5.0, kernel_size=9).fit(X).impute(
        X, np.zeros((1, 36), bool))[:, 0, 0]
    ins = [_latec_loop(clf, X[i], A[i], y[i], X[i], blurred[i], 10) for i in range(4)]
    dele = [_latec_loop(clf, X[i], A[i], y[i], np.zeros(36), X[i], 10) for i in range(4)]
    ours_ins = insertion_auc(clf, X, A, baseline=None,
                             masker=BlurMasker(sigma=5.0, kernel_size=9),
                             features_per_step=10, convention="latec_code")
    ours_del = deletion_auc(clf, X, A, features_per_step=10, convention="latec_code")
    np.testing.assert_allclose(ours_ins, ins, rtol=1e-7)
    np.testing.assert_allclose(ours_del, dele, rtol=1e-7)


@quantus_marks
def test_deletion_equals_quantus_pixel_flipping_curve(monkeypatch):
    import quantus
    import torch
    monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    clf, X, A, y = _problem(d=12)
    net = clf.module.float()
    clf.module = net
    metric = quantus.PixelFlipping(features_in_step=3, return_auc_per_sample=False,
                                   abs=False, normalise=False, perturb_baseline=0.0,
                                   disable_warnings=True, display_progressbar=False)
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 12).astype(np.float32),
                               y_batch=y, a_batch=A.reshape(-1, 1, 12), softmax=True,
                               channel_first=True, device="cpu"))
    with torch.no_grad():
        fx = torch.softmax(net(torch.as_tensor(X, dtype=torch.float32)), 1).numpy()
    curves = np.concatenate([fx[np.arange(4), y][:, None], theirs], axis=1)
    expected = np.trapezoid(curves, np.arange(5) / 4, axis=1)
    ours = deletion_auc(clf, X, A, features_per_step=3)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours, pixel_flipping(clf, X, A, features_per_step=3))


@quantus_marks
def test_abpc_equals_quantus_region_perturbation_morf_minus_lerf():
    import quantus
    clf, X, A, y = _problem()
    clf.module = clf.module.float()
    drops = {}
    for order in ("morf", "lerf"):
        metric = quantus.RegionPerturbation(
            patch_size=2, order=order, regions_evaluation=9, abs=False, normalise=False,
            perturb_baseline=0.0, disable_warnings=True, display_progressbar=False)
        drops[order] = np.asarray(metric(
            model=clf.module, x_batch=X.reshape(-1, 1, 6, 6).astype(np.float32),
            y_batch=y, a_batch=A.reshape(-1, 1, 6, 6), softmax=True,
            channel_first=True, device="cpu"))
    # LeRF - MoRF output = MoRF drop - LeRF drop; 0 at step 0.
    gap = np.concatenate([np.zeros((4, 1)), drops["morf"] - drops["lerf"]], axis=1)
    expected = np.trapezoid(gap, np.arange(10) / 9, axis=1)
    ours = abpc(clf, X, A, image_shape=(6, 6), patch_size=2)
    np.testing.assert_allclose(ours, expected, rtol=1e-4, atol=1e-6)


def test_abpc_closed_form_on_a_linear_model():
    # f(x) = w.x, zero baseline, one feature per step: removing the features
    # in order o leaves m_k = f(x) - sum_{j<k} c_{o_j}, c = w * x.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5, 6))
    model = LinearRegression(fit_intercept=False).fit(X, X @ [3.0, -1, 2, 0.5, 0, 1])
    c = model.coef_ * X
    A = c + 0.01 * rng.normal(size=c.shape)
    t = np.arange(7) / 6
    expected = []
    for ci, ai in zip(c, A):
        fx = ci.sum()
        morf = fx - np.concatenate([[0], np.cumsum(ci[np.argsort(-ai)])])
        lerf = fx - np.concatenate([[0], np.cumsum(ci[np.argsort(ai)])])
        expected.append(np.trapezoid(lerf - morf, t))
    np.testing.assert_allclose(abpc(model, X, A), expected, rtol=1e-7)
    # Reversing the explanation flips the sign.
    np.testing.assert_allclose(abpc(model, X, -A), -np.array(expected), rtol=1e-7)


def test_baseline_and_masker_are_exclusive():
    clf, X, A, _ = _problem(n=1)
    with pytest.raises(ValueError, match="either baseline='blur' or masker="):
        insertion_auc(clf, X, A, baseline="blur", masker=BaselineMasker())
    with pytest.raises(ValueError, match="latec_code"):
        deletion_auc(clf, X, A, features_per_step=36, convention="latec_code")


def test_registered_as_scorers():
    for name, greater in [("insertion_auc", True), ("neg_deletion_auc", False),
                          ("abpc", True)]:
        assert name in get_scorer_names()
        spec = get_metric_spec(name)
        assert spec.kind == "model" and spec.greater_is_better is greater


def test_blur_masker_estimator_contract():
    # test_common skips BlurMasker (its rows are images, which the generic
    # checks' 2-10 features are not): its contract on images here.
    from sklearn.base import clone

    X = np.random.default_rng(0).random((3, 16))
    before = X.copy()
    m = BlurMasker(sigma=0.8)
    assert clone(m).get_params() == m.get_params()
    assert m.fit(X) is m and m.n_features_in_ == 16
    keep_all = m.impute(X, np.ones((1, 16), dtype=bool))
    np.testing.assert_array_equal(keep_all[:, 0, 0], X)
    blurred = m.impute(X, np.zeros((1, 16), dtype=bool))[:, 0, 0]
    again = clone(m).fit(X[::-1]).impute(X, np.zeros((1, 16), dtype=bool))[:, 0, 0]
    np.testing.assert_array_equal(blurred, again)  # stateless: the same blur
    np.testing.assert_array_equal(X, before)  # the rows are not modified
    assert not np.allclose(blurred, X)
