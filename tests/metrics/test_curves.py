"""Removal curves (pixel flipping, region perturbation, selectivity, IROF,
shap.benchmark's keep/remove orders): closed forms on linear models with a
zero baseline, equality with Quantus 0.6 on the same inputs, orientation,
and input checks."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import get_metric_spec, get_scorer
from sklearn_xai.metrics._removal_paths import (
    _patch_units,
    irof,
    pixel_flipping,
    region_perturbation,
    removal_auc,
    removal_curve,
    selectivity,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning


# ---------------------------------------------------------------- fixtures
def _linear(d, seed=0, n=12):
    """A linear regressor without intercept, rows, and the exact
    contributions w_j x_j (the zero baseline removes them exactly)."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    model = LinearRegression(fit_intercept=False).fit(np.eye(d), w)
    X = rng.normal(size=(n, d))
    return model, X, w * X


def _expected_curve(C, A, key):
    """f after removing, cumulatively, the features sorted by ``key(A)``
    ascending (closed form of a linear model with a zero baseline)."""
    order = np.argsort(key(A), axis=1, kind="stable")
    removed = np.take_along_axis(C, order, axis=1).cumsum(axis=1)
    total = C.sum(axis=1, keepdims=True)
    return np.hstack([total, total - removed])


# ------------------------------------------------------------- closed forms
@pytest.mark.parametrize("order, key", [("positive", lambda a: -a),
                                        ("negative", lambda a: a),
                                        ("absolute", lambda a: -np.abs(a))])
def test_removal_curve_is_the_closed_form_of_a_linear_model(order, key):
    model, X, C = _linear(5)
    A = np.random.default_rng(1).normal(size=C.shape)
    curves, fractions = removal_curve(model, X, A, order=order)
    np.testing.assert_allclose(curves, _expected_curve(C, A, key), atol=1e-12)
    np.testing.assert_allclose(fractions, np.linspace(0, 1, 6))
    # Keeping the first k is removing all but the first k.
    kept, _ = removal_curve(model, X, A, order=order, mode="keep")
    np.testing.assert_allclose(kept, C.sum(axis=1, keepdims=True) - curves
                               + 0.0 * kept, atol=1e-12)


def test_pixel_flipping_is_the_area_over_the_fraction_removed():
    model, X, C = _linear(5)
    curve = _expected_curve(C, C, lambda a: -a)
    np.testing.assert_allclose(pixel_flipping(model, X, C),
                               np.trapezoid(curve, np.linspace(0, 1, 6), axis=1),
                               atol=1e-12)
    # Two features a step on five: steps remove 2, 4, 5 features.
    expected = np.trapezoid(curve[:, [0, 2, 4, 5]], [0, 0.4, 0.8, 1.0], axis=1)
    np.testing.assert_allclose(pixel_flipping(model, X, C, features_per_step=2),
                               expected, atol=1e-12)
    # Quantus' reduction: unit spacing over steps 1..K.
    np.testing.assert_allclose(
        pixel_flipping(model, X, C, features_per_step=2, convention="quantus_code"),
        np.trapezoid(curve[:, [2, 4, 5]], axis=1), atol=1e-12)


def test_region_perturbation_aopc_with_feature_groups():
    model, X, C = _linear(6)
    groups = np.array([2, 0, 2, 1, 0, 1])
    G = np.stack([C[:, groups == g].sum(axis=1) for g in range(3)], axis=1)
    for order, key in [("morf", lambda a: -a), ("lerf", lambda a: a)]:
        curve = _expected_curve(G, G, key)
        drop = curve[:, :1] - curve
        np.testing.assert_allclose(
            region_perturbation(model, X, C, groups=groups, order=order),
            drop.mean(axis=1), atol=1e-12)
        np.testing.assert_allclose(
            region_perturbation(model, X, C, groups=groups, order=order,
                                n_regions=2),
            drop[:, :3].mean(axis=1), atol=1e-12)
        np.testing.assert_allclose(
            region_perturbation(model, X, C, groups=groups, order=order,
                                convention="quantus_code"),
            np.trapezoid(drop[:, 1:], axis=1), atol=1e-12)


def test_image_patches_form_a_centred_grid():
    # 5 x 5 image, patches of 2: padded by (0, 1) on each axis, 3 x 3 grid.
    units = _patch_units((5, 5), 2).reshape(5, 5)
    assert units[0, 0] == 0 and units[0, 1] == 0 and units[1, 1] == 0
    assert units[0, 2] == 1 and units[4, 4] == 8 and units.max() == 8
    # 1 x 5 with patches of 4: three columns of padding, one left, two right.
    np.testing.assert_array_equal(_patch_units((1, 5), 4), [0, 0, 0, 1, 1])


def test_selectivity_with_image_patches_is_the_closed_form():
    model, X, C = _linear(16, n=8)
    patches = _patch_units((4, 4), 2)
    P = np.stack([C[:, patches == p].sum(axis=1) for p in range(4)], axis=1)
    curve = _expected_curve(P, P, lambda a: -a)
    np.testing.assert_allclose(
        selectivity(model, X, C, image_shape=(4, 4), patch_size=2),
        np.trapezoid(curve, np.linspace(0, 1, 5), axis=1), atol=1e-12)
    np.testing.assert_allclose(
        selectivity(model, X, C, image_shape=(4, 4), patch_size=2,
                    convention="quantus_code"),
        np.trapezoid(curve[:, 1:], axis=1), atol=1e-12)


def test_irof_orders_groups_by_their_mean_attribution():
    model, X, C = _linear(5)
    X = np.abs(X) + 0.5  # f(x) != 0
    model.coef_ = np.abs(model.coef_)
    C = model.coef_ * X
    groups = np.array([0, 0, 0, 1, 2])
    A = C.copy()
    means = np.stack([A[:, groups == g].mean(axis=1) for g in range(3)], axis=1)
    G = np.stack([C[:, groups == g].sum(axis=1) for g in range(3)], axis=1)
    order = np.argsort(-means, axis=1, kind="stable")
    removed = np.take_along_axis(G, order, axis=1).cumsum(axis=1)
    fx = C.sum(axis=1, keepdims=True)
    p = np.hstack([fx, fx - removed]) / fx
    np.testing.assert_allclose(irof(model, X, A, groups=groups),
                               1 - np.trapezoid(p, np.linspace(0, 1, 4), axis=1),
                               atol=1e-12)
    np.testing.assert_allclose(irof(model, X, A, groups=groups,
                                    convention="quantus_code"),
                               3 - np.trapezoid(p[:, 1:], axis=1), atol=1e-12)


def test_irof_is_undefined_where_the_output_is_zero():
    model, X, C = _linear(4, n=3)
    X = X.copy()
    X[1] = 0.0
    with pytest.warns(UndefinedScoreWarning):
        scores = irof(model, X, C)
    assert np.isnan(scores[1]) and np.isfinite(scores[[0, 2]]).all()
    assert irof(model, X, C, nan_policy="zero")[1] == 0.0
    with pytest.raises(ValueError, match="f\\(x\\) is 0"):
        irof(model, X, C, nan_policy="raise")


def test_removal_auc_follows_shap_benchmark_orders():
    model, X, C = _linear(6)
    A = np.random.default_rng(2).normal(size=C.shape)
    d = 6
    t = np.linspace(0, 1, d + 1)
    fx = C.sum(axis=1)
    for order, sign in [("positive", 1.0), ("negative", -1.0)]:
        key = sign * A
        ranked = np.argsort(-key, axis=1, kind="stable")
        eligible = (key >= 0).sum(axis=1)
        counts = np.minimum(np.arange(d + 1)[None, :], eligible[:, None])
        first = np.take_along_axis(C, ranked, axis=1).cumsum(axis=1)
        first = np.hstack([np.zeros((len(X), 1)), first])
        taken = np.take_along_axis(first, counts, axis=1)
        np.testing.assert_allclose(
            removal_auc(model, X, A, mode="keep", order=order),
            np.trapezoid(taken, t, axis=1), atol=1e-12)
        np.testing.assert_allclose(
            removal_auc(model, X, A, mode="remove", order=order),
            np.trapezoid(fx[:, None] - taken, t, axis=1), atol=1e-12)
    # Absolute: the deviation |f(x) - c_k| along the magnitude order.
    curve = _expected_curve(C, A, lambda a: -np.abs(a))
    np.testing.assert_allclose(
        removal_auc(model, X, A, mode="remove", order="absolute"),
        np.trapezoid(np.abs(fx[:, None] - curve), t, axis=1), atol=1e-12)


def test_scorers_bind_the_order_and_orientation():
    expected = {
        "keep_positive": ("keep", "positive", True),
        "neg_keep_negative": ("keep", "negative", False),
        "neg_keep_absolute": ("keep", "absolute", False),
        "neg_remove_positive": ("remove", "positive", False),
        "remove_negative": ("remove", "negative", True),
        "remove_absolute": ("remove", "absolute", True),
    }
    model, X, C = _linear(5)
    for name, (mode, order, greater) in expected.items():
        spec = get_metric_spec(name)
        assert spec.default_kwargs == {"mode": mode, "order": order}
        assert spec.greater_is_better is greater
        np.testing.assert_allclose(  # the scorer passes mode and order
            get_scorer(name).score_attributions(model, X, C),
            removal_auc(model, X, C, mode=mode, order=order), rtol=1e-12)
    assert get_metric_spec("region_perturbation").default_kwargs == {"order": "morf"}
    assert get_metric_spec("neg_region_perturbation_lerf").default_kwargs == {
        "order": "lerf"}


# --------------------------------------------------------------- orientation
def test_a_faithful_explanation_beats_a_random_one():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 8))
    clf = LogisticRegression().fit(X, X @ np.linspace(3, -3, 8) + 0.3 * rng.normal(
        size=300) > 0)
    sign = np.where(clf.predict(X), 1.0, -1.0)[:, None]
    exact = sign * clf.coef_[0] * X  # explains the predicted class
    noise = rng.normal(size=exact.shape)
    groups = np.repeat(np.arange(4), 2)
    better = {  # metric -> (score(exact) vs score(random)) must be ">" or "<"
        "pf": (lambda a: pixel_flipping(clf, X, a), "<"),
        "rp": (lambda a: region_perturbation(clf, X, a, groups=groups), ">"),
        "lerf": (lambda a: region_perturbation(clf, X, a, groups=groups,
                                               order="lerf"), "<"),
        "sel": (lambda a: selectivity(clf, X, a, groups=groups), "<"),
        "irof": (lambda a: irof(clf, X, a), ">"),
        "keep_pos": (lambda a: removal_auc(clf, X, a, mode="keep"), ">"),
        "rm_abs": (lambda a: removal_auc(clf, X, a, order="absolute"), ">"),
        "keep_abs": (lambda a: removal_auc(clf, X, a, mode="keep",
                                           order="absolute"), "<"),
    }
    for name, (score, op) in better.items():
        good, bad = score(exact).mean(), score(noise).mean()
        assert (good > bad) if op == ">" else (good < bad), (name, good, bad)


# ------------------------------------------------------------------ contract
def test_any_masker_and_batch_size_do_not_change_a_row():
    model, X, C = _linear(6, n=30)
    masker = BaselineMasker(1.5).fit(X[:1])
    one = pixel_flipping(model, X[:1], C[:1], masker=masker)
    all_rows = pixel_flipping(model, X, C, masker=masker, batch_size=7)
    np.testing.assert_allclose(one, all_rows[:1], rtol=1e-12)


def test_inputs_are_not_modified_and_bad_inputs_name_the_parameter():
    model, X, C = _linear(6)
    X0, C0 = X.copy(), C.copy()
    region_perturbation(model, X, C, groups=[0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(C, C0)
    with pytest.raises(ValueError, match="groups"):
        region_perturbation(model, X, C, groups=[0, 1])
    with pytest.raises(TypeError, match="groups"):
        selectivity(model, X, C, groups=np.linspace(0, 1, 6))
    with pytest.raises(ValueError, match="image_shape"):
        selectivity(model, X, C, image_shape=(4, 4))
    with pytest.raises(ValueError, match="patch_size"):
        removal_curve(model, X, C, patch_size=2)
    with pytest.raises(ValueError, match="features_per_step"):
        pixel_flipping(model, X, C, features_per_step=0)


def test_irof_segments_each_image_alone():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(4, 64))
    model = LinearRegression().fit(X, X.sum(axis=1) + 1.0)
    A = rng.normal(size=X.shape)
    together = irof(model, X, A, image_shape=(8, 8), n_segments=10)
    alone = np.array([irof(model, X[i:i + 1], A[i:i + 1], image_shape=(8, 8),
                           n_segments=10)[0] for i in range(4)])
    np.testing.assert_allclose(together, alone, rtol=1e-12)


# ------------------------------------------------------------ Quantus oracle
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


def _torch_problem(d, n=16, seed=0):
    torch = pytest.importorskip("torch")
    torch.manual_seed(seed)
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(d, 16),
                              torch.nn.Tanh(), torch.nn.Linear(16, 3)).eval()
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.1, 1.0, size=(n, d)).astype(np.float32).astype(np.float64)
    A = rng.normal(size=(n, d))  # continuous: no ties in any order
    clf = _TorchClassifier(net)
    return net, clf, X, A, clf.predict(X)


def _quantus_kwargs(**kw):
    return dict(abs=False, normalise=False, perturb_baseline=0.0,
                disable_warnings=True, display_progressbar=False, **kw)


@pytest.mark.parametrize("features_per_step", [1, 4])
def test_pixel_flipping_equals_quantus(features_per_step, monkeypatch):
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    net, clf, X, A, y = _torch_problem(12)
    metric = quantus.PixelFlipping(features_in_step=features_per_step,
                                   return_auc_per_sample=True, **_quantus_kwargs())
    theirs = metric(model=net, x_batch=X.reshape(-1, 1, 12).astype(np.float32),
                    y_batch=y, a_batch=A.reshape(-1, 1, 12), softmax=True,
                    channel_first=True, device="cpu")
    ours = pixel_flipping(clf, X, A, features_per_step=features_per_step,
                          convention="quantus_code")
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("order", ["morf", "lerf"])
def test_region_perturbation_equals_quantus(order):
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    # 6 x 6 images and patches of 4: a padded, partly overhanging grid.
    net, clf, X, A, y = _torch_problem(36)
    metric = quantus.RegionPerturbation(patch_size=4, order=order,
                                        **_quantus_kwargs())
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 6, 6).astype(
        np.float32), y_batch=y, a_batch=A.reshape(-1, 1, 6, 6), softmax=True,
        channel_first=True, device="cpu"))
    curves, _ = removal_curve(clf, X, A, image_shape=(6, 6), patch_size=4,
                              order="positive" if order == "morf" else "negative")
    np.testing.assert_allclose(curves[:, :1] - curves[:, 1:], theirs,
                               rtol=1e-5, atol=1e-6)
    ours = region_perturbation(clf, X, A, image_shape=(6, 6), patch_size=4,
                               order=order, convention="quantus_code")
    np.testing.assert_allclose(ours, np.trapezoid(theirs, axis=1), rtol=1e-5,
                               atol=1e-6)


def test_selectivity_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    net, clf, X, A, y = _torch_problem(30)
    metric = quantus.Selectivity(patch_size=2, **_quantus_kwargs())
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 5, 6).astype(
        np.float32), y_batch=y, a_batch=A.reshape(-1, 1, 5, 6), softmax=True,
        channel_first=True, device="cpu"))
    ours = selectivity(clf, X, A, image_shape=(5, 6), patch_size=2,
                       convention="quantus_code")
    np.testing.assert_allclose(ours, np.trapezoid(theirs, axis=1), rtol=1e-5,
                               atol=1e-6)


def test_irof_equals_quantus(monkeypatch):
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    pytest.importorskip("skimage")
    monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    net, clf, X, A, y = _torch_problem(64, n=6)
    metric = quantus.IROF(return_aggregate=False, **_quantus_kwargs())
    # One row per Quantus batch: its padding of shorter rows is a batch effect.
    theirs = metric(model=net, x_batch=X.reshape(-1, 1, 8, 8).astype(np.float32),
                    y_batch=y, a_batch=A.reshape(-1, 1, 8, 8), softmax=True,
                    channel_first=True, device="cpu", batch_size=1)
    ours = irof(clf, X, A, image_shape=(8, 8), convention="quantus_code")
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("metric", ["morf", "lerf", "selectivity"])
def test_tied_patches_are_ordered_as_quantus(metric, monkeypatch):
    # Attributions on a coarse grid make many patch sums equal, or equal up
    # to rounding; 25 patches (more than 16) take numpy's unstable argsort,
    # which Quantus ranks with.  Quantus 0.6, run directly, is the oracle.
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    net, clf, X, _, y = _torch_problem(100, n=12)
    A = np.random.default_rng(1).choice([0.0, 0.1, 0.2, 0.3], size=X.shape)
    if metric == "selectivity":
        q = quantus.Selectivity(patch_size=2, **_quantus_kwargs())
        ours = selectivity(clf, X, A, image_shape=(10, 10), patch_size=2,
                           convention="quantus_code")
    else:
        q = quantus.RegionPerturbation(patch_size=2, order=metric, **_quantus_kwargs())
        ours = region_perturbation(clf, X, A, image_shape=(10, 10), patch_size=2,
                                   order=metric, convention="quantus_code")
    theirs = np.asarray(q(model=net, x_batch=X.reshape(-1, 1, 10, 10).astype(np.float32),
                          y_batch=y, a_batch=A.reshape(-1, 1, 10, 10), softmax=True,
                          channel_first=True, device="cpu"))
    np.testing.assert_allclose(ours, np.trapezoid(theirs, axis=1), rtol=1e-5, atol=1e-6)
