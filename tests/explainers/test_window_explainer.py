"""WindowExplainer: window occlusion and segment Shapley values spread over
the time steps, against their closed forms on additive models."""

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression

from sklearn_xai.compose import WindowExplainer
from sklearn_xai.explainers import CaptumLime, ExactShapley, FeatureAblation, KernelSHAP
from sklearn_xai.masking import BaselineMasker, InterpolationMasker, MarginalMasker
from sklearn_xai.metrics import get_scorer
from sklearn_xai.utils.estimator_checks import check_explainer


def _linear(C=2, T=6, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, C * T))
    w = rng.normal(size=C * T)
    return X, w, FrozenEstimator(LinearRegression().fit(X, X @ w + 1.0))


@pytest.mark.parametrize("explainer", [
    WindowExplainer(FeatureAblation(), window=2),
    WindowExplainer(KernelSHAP(n_perturbations=16), window=3, spread="share"),
])
def test_check_explainer(explainer):
    check_explainer(explainer, n_features=6)


def test_window_occlusion_closed_form():
    C, T = 2, 6
    X, w, model = _linear(C, T)
    ex = WindowExplainer(FeatureAblation(model, masker=BaselineMasker("zero")),
                         window=4, series_shape=(C, T)).fit(X)
    A = ex.transform(X[:5])
    assert A.shape == (5, C * T)
    windows = [[0, 1, 2, 3], [4, 5], [6, 7, 8, 9], [10, 11]]
    for cols in windows:
        term = (X[:5, cols] * w[cols]).sum(axis=1)  # f(x) - f(x without the window)
        np.testing.assert_allclose(A[:, cols], np.repeat(term[:, None], len(cols), 1),
                                   atol=1e-8)
    # per_channel=False: one window spans both channels
    ex = WindowExplainer(FeatureAblation(model, masker=BaselineMasker("zero")),
                         window=6, series_shape=(C, T), per_channel=False).fit(X)
    np.testing.assert_allclose(ex.transform(X[:2]), np.repeat(
        (X[:2] * w).sum(axis=1)[:, None], C * T, 1), atol=1e-8)


def test_segment_shapley_share_adds_up():
    # Group Shapley values of an additive model are the sums of the members'
    # terms w_j (x_j - mean_j); with spread="share" the row sums to
    # f(x) - E f(background).
    X, w, model = _linear(1, 8, seed=1)
    bg = X[:10]
    ex = WindowExplainer(ExactShapley(model, masker=MarginalMasker(background=bg)),
                         window=3, spread="share").fit(X)
    A = ex.transform(X[:4])
    terms = (X[:4] - bg.mean(axis=0)) * w
    for cols in ([0, 1, 2], [3, 4, 5], [6, 7]):
        np.testing.assert_allclose(A[:, cols].sum(axis=1), terms[:, cols].sum(axis=1),
                                   atol=1e-8)
    np.testing.assert_allclose(A.sum(axis=1), X[:4] @ w - bg.mean(axis=0) @ w,
                               atol=1e-8)


def test_interpolation_baseline_and_scoring_by_name():
    X, w, model = _linear(1, 8, seed=2)
    ex = WindowExplainer(FeatureAblation(model, masker=InterpolationMasker()),
                         window=4).fit(X)
    A = ex.transform(X[:3])
    # window 4-7 has no kept step after it: the value at step 3 is repeated
    Z = X[:3].copy()
    Z[:, 4:] = X[:3, 3:4]
    np.testing.assert_allclose(A[:, 4], X[:3] @ w - Z @ w, atol=1e-8)
    # explanation metrics score it (one attribution per time step)
    mask = np.zeros((3, 8), dtype=bool)
    mask[:, :4] = True
    score = get_scorer("mask_average_precision")(ex, X[:3], ground_truth=mask)
    assert 0 < score <= 1


def test_needs_an_explainer_with_groups():
    X, w, model = _linear(1, 6)
    with pytest.raises(ValueError, match="no groups parameter"):
        WindowExplainer(CaptumLime(model), window=2).fit(X)
