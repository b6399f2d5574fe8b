"""Region explainers: segment KernelSHAP / LIME, Occlusion and RISE.

Every value is checked against an independent computation: the closed form
of a linear model, or Captum run directly on the same model."""

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.datasets import make_timeseries_classification
from sklearn_xai.explainers import (
    RISE,
    CaptumKernelSHAP,
    CaptumLime,
    KernelSHAP,
    Occlusion,
)
from sklearn_xai.masking import (
    BaselineMasker,
    GridSegmentation,
    LabelSegmentation,
    SLICSegmentation,
    window_groups,
)


def _linear(d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, d))
    w = rng.normal(size=d)
    model = LinearRegression().fit(X, X @ w + 0.5)
    return X, model


def _segment_closed_form(model, X, b, labels):
    """Shapley value of each segment of a linear model with a baseline
    masker, ``sum_{j in S} w_j (x_j - b_j)``, given to every pixel of it."""
    contrib = model.coef_ * (X - b)
    out = np.empty_like(contrib)
    for i, (c, lab) in enumerate(zip(contrib, labels)):
        sums = np.bincount(lab, weights=c)
        out[i] = sums[lab]
    return out


# ---------------------------------------------------------------------------
# Segment KernelSHAP / LIME
# ---------------------------------------------------------------------------
def test_segment_kernelshap_is_the_closed_form_per_row_superpixels():
    X, model = _linear(36)
    b = np.linspace(-1.0, 1.0, 36)
    seg = SLICSegmentation(n_segments=6, compactness=0.5, image_shape=(6, 6))
    labels = seg.segment(X[:4])
    assert len({int(lab.max()) for lab in labels}) > 1  # per-row counts differ
    # 2**K - 2 coalitions for K <= 9 segments: exact enumeration.
    ex = KernelSHAP(FrozenEstimator(model), n_perturbations=510,
                    masker=BaselineMasker(b), segmentation=seg, random_state=0)
    A = ex.fit(X).transform(X[:4])
    np.testing.assert_allclose(A, _segment_closed_form(model, X[:4], b, labels),
                               atol=1e-10)
    # Rows are explained alone or together alike.
    np.testing.assert_allclose(ex.transform(X[2:3]), A[2:3], atol=1e-12)


def test_segment_explainers_match_captum_feature_mask():
    import torch
    from captum import attr as captum_attr
    X, model = _linear(16, seed=1)
    b = 0.25
    labels = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 4]]).ravel()
    seg = LabelSegmentation(labels)
    x = X[:2]
    closed = _segment_closed_form(model, x, b, np.tile(labels, (2, 1)))
    w = torch.tensor(model.coef_)

    def forward(t):
        return t @ w + float(model.intercept_)

    from captum._utils.models.linear_model import SkLearnLinearRegression

    mask = torch.tensor(labels)[None]
    kwargs = {"baselines": b, "feature_mask": mask, "n_samples": 60}
    torch.manual_seed(0)
    captum_shap = torch.cat([captum_attr.KernelShap(forward).attribute(
        torch.tensor(row[None]), **kwargs) for row in x]).numpy()
    captum_lime = torch.cat([captum_attr.Lime(
        forward, interpretable_model=SkLearnLinearRegression()
    ).attribute(torch.tensor(row[None]), **kwargs) for row in x]).numpy()
    ours_shap = CaptumKernelSHAP(FrozenEstimator(model), n_perturbations=60,
                                 baseline=b, segmentation=seg,
                                 random_state=0).fit(X).transform(x)
    ours_lime = CaptumLime(FrozenEstimator(model), n_perturbations=60, alpha=1e-9,
                           baseline=b, segmentation=seg,
                           random_state=0).fit(X).transform(x)
    ours_kernel = KernelSHAP(FrozenEstimator(model), n_perturbations=30,
                             masker=BaselineMasker(b), segmentation=seg,
                             random_state=0).fit(X).transform(x)
    # A linear model is linear in the segment masks: every least squares
    # fit recovers the segment sums exactly, each pixel holding its segment's.
    np.testing.assert_allclose(captum_shap, closed, atol=1e-4)
    np.testing.assert_allclose(captum_lime, closed, atol=1e-4)
    np.testing.assert_allclose(ours_shap, closed, atol=1e-10)
    np.testing.assert_allclose(ours_kernel, closed, atol=1e-10)
    np.testing.assert_allclose(ours_lime, closed, atol=1e-4)  # Lasso's tolerance


def test_segment_lime_on_series_is_window_groups():
    C, T, window = 2, 24, 6
    X, y = make_timeseries_classification(60, n_timesteps=T, n_channels=C, window=6,
                                          random_state=0, return_X_y=True)
    model = FrozenEstimator(LogisticRegression().fit(X, y))
    groups = window_groups((C, T), window)
    x = X[:3]
    # KernelSHAP: segmentation= and groups= are one mechanism, the same
    # players in the same order with the same per-row draws.
    by_groups = KernelSHAP(model, n_perturbations=40, groups=groups,
                           masker=BaselineMasker("mean"), random_state=0).fit(X)
    by_segments = KernelSHAP(model, n_perturbations=40,
                             segmentation=GridSegmentation((window,), (C, T)),
                             masker=BaselineMasker("mean"), random_state=0).fit(X)
    G = by_groups.transform(x)
    owner = np.empty(C * T, dtype=int)
    for k, columns in enumerate(groups.values()):
        owner[columns] = k
    np.testing.assert_allclose(by_segments.transform(x), G[:, owner], atol=1e-12)
    # LIME: the grid of windows is the label map of the window groups.
    lime = [CaptumLime(model, n_perturbations=50, segmentation=seg,
                       random_state=0).fit(X).transform(x)
            for seg in (GridSegmentation((window,), (C, T)), LabelSegmentation(owner))]
    np.testing.assert_allclose(lime[0], lime[1], atol=1e-12)
    assert np.all(lime[0][:, owner == 0] == lime[0][:, :1])  # one value per window


def test_segmentation_errors():
    X, model = _linear(4)
    with pytest.raises(ValueError, match="either groups= .* or segmentation="):
        KernelSHAP(FrozenEstimator(model), groups=[[0, 1], [2, 3]],
                   segmentation=LabelSegmentation([0, 0, 1, 1])).fit(X)
    with pytest.raises(ValueError, match="labels has 3 columns but X has 4"):
        CaptumLime(FrozenEstimator(model),
                   segmentation=LabelSegmentation([0, 0, 1])).fit(X)


# ---------------------------------------------------------------------------
# Occlusion
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("image_shape, patch, strides", [
    ((2, 7, 6), (2, 3, 3), (1, 2, 2)),
    ((2, 7, 6), (1, 2, 4), (1, 1, 3)),
    ((7, 6), (3, 3), None),
    ((2, 9), (1, 4), (1, 3)),  # a series: windows per channel
])
def test_occlusion_matches_captum(image_shape, patch, strides):
    import torch
    from captum import attr as captum_attr
    rng = np.random.default_rng(0)
    d = int(np.prod(image_shape))
    X = rng.normal(size=(20, d))
    W1, w2 = rng.normal(size=(d, 5)), rng.normal(size=5)

    class Net(RegressorMixin, BaseEstimator):  # a ReLU net, in numpy and in torch
        def fit(self, X, y=None):
            return self

        def __sklearn_is_fitted__(self):
            return True

        def predict(self, X):
            return np.maximum(X @ W1, 0.0) @ w2

    def forward(t):
        return torch.relu(t.reshape(len(t), -1) @ torch.tensor(W1)) @ torch.tensor(w2)

    ex = Occlusion(FrozenEstimator(Net()), patch_shape=patch, strides=strides,
                   baseline=0.3, image_shape=image_shape).fit(X)
    expected = captum_attr.Occlusion(forward).attribute(
        torch.tensor(X[:3]).reshape((3,) + image_shape), sliding_window_shapes=patch,
        strides=1 if strides is None else strides, baselines=0.3,
        perturbations_per_eval=64)
    np.testing.assert_allclose(ex.transform(X[:3]), expected.reshape(3, -1).numpy(),
                               atol=1e-6)


def test_occlusion_linear_closed_form_and_errors():
    X, model = _linear(5)
    # Windows of 2, stride 1 on 5 features: feature j is covered by the
    # windows starting at j-1 and j (when they exist).
    A = Occlusion(FrozenEstimator(model), patch_shape=(2,)).fit(X).transform(X[:1])
    c = model.coef_ * X[0]
    windows = [c[s:s + 2].sum() for s in range(4)]
    expected = [windows[0], (windows[0] + windows[1]) / 2, (windows[1] + windows[2]) / 2,
                (windows[2] + windows[3]) / 2, windows[3]]
    np.testing.assert_allclose(A[0], expected, atol=1e-12)
    with pytest.raises(ValueError, match="stride .* larger than the window"):
        Occlusion(FrozenEstimator(model), patch_shape=(2,), strides=3).fit(X)
    with pytest.raises(ValueError, match="exceeds image_shape"):
        Occlusion(FrozenEstimator(model), patch_shape=(6,)).fit(X)


def test_occlusion_default_strides_with_leading_axes():
    # patch_shape with fewer axes than image_shape and strides=None (stride 1):
    # a (2,) window on (2, 4) covers both rows and 2 columns, at columns 0, 1, 2.
    X, model = _linear(8)
    A = Occlusion(FrozenEstimator(model), patch_shape=(2,),
                  image_shape=(2, 4)).fit(X).transform(X[:1])
    c = (model.coef_ * X[0]).reshape(2, 4).sum(axis=0)  # drop per column
    windows = [c[0] + c[1], c[1] + c[2], c[2] + c[3]]
    columns = [windows[0], (windows[0] + windows[1]) / 2,
               (windows[1] + windows[2]) / 2, windows[2]]
    np.testing.assert_allclose(A[0], np.tile(columns, 2), atol=1e-12)


# ---------------------------------------------------------------------------
# RISE
# ---------------------------------------------------------------------------
def _torch_upsampled_cells(s, cell, L):
    """``a[t][:, k]``: the mask of a grid whose only kept cell is ``k``,
    upsampled by torch's bilinear interpolation and cropped at shift ``t``
    (one axis; 2-D masks are outer products of two of them)."""
    import torch
    eye = torch.eye(s, dtype=torch.float64)[:, None, :]  # (s cells, 1, s)
    up = torch.nn.functional.interpolate(eye, size=(s + 1) * cell, mode="linear",
                                         align_corners=False)[:, 0].numpy().T
    return np.stack([up[t:t + L] for t in range(cell)])  # (cell, L, s)


def test_rise_expected_map_is_the_closed_form():
    """On ``f(z) = w . z + c`` with ``z = M x``: ``E[S_i] = E[f(z) M_i] / p =
    p (w.x) + (1 - p) (K (w * x))_i + c`` with ``K_ij = E_t[sum_k a_ik a_jk]``
    (``a`` the interpolation weights of the grid cells at the shift ``t``;
    ``E[g_k g_l] = p^2 + p (1 - p) [k = l]`` and each pixel's weights sum to
    1): the saliency of pixel ``i`` is ``(1 - p) K_ii w_i x_i`` plus the
    smoothed contributions of its neighbours and a constant offset."""
    H = W = 4
    s, p = 2, 0.5
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, H * W))
    w = rng.normal(size=H * W)
    model = FrozenEstimator(LinearRegression().fit(X, X @ w + 0.7))
    x = np.abs(X[:1]) + 0.5
    # K from torch's upsampling, every shift (t_row, t_col) equally likely.
    a = _torch_upsampled_cells(s, 2, H)  # cell = ceil(4 / 2) = 2
    K = np.zeros((H * W, H * W))
    for tr, tc in itertools.product(range(2), repeat=2):
        A2 = np.einsum("ik,jl->ijkl", a[tr], a[tc]).reshape(H * W, s * s)
        K += A2 @ A2.T / 4
    wx = w * x[0]
    closed = p * wx.sum() + (1 - p) * K @ wx + 0.7
    errors = []
    for n_masks in (200, 20000):
        A = RISE(model, n_masks=n_masks, mask_resolution=s, p_keep=p,
                 random_state=0).fit(X).transform(x)[0]
        errors.append(np.abs(A - closed).max())
    # Monte-Carlo error ~ 1/sqrt(n_masks): here < 0.05 at 20000 masks.
    assert errors[1] < 0.05 * np.abs(closed).max()
    assert errors[1] < errors[0] / 3


def test_rise_masks_are_torch_bilinear_and_rows_independent():
    from sklearn_xai.explainers._regions import _crop_operators

    for L, s in [(4, 2), (7, 3), (5, 5)]:
        cell = -(-L // s)
        np.testing.assert_allclose(_crop_operators(L, s),
                                   _torch_upsampled_cells(s, cell, L), atol=1e-12)
    X, model = _linear(12)
    ex = RISE(FrozenEstimator(model), n_masks=50, mask_resolution=(3,),
              image_shape=(2, 6), batch_size=7, random_state=0).fit(X)
    A = ex.transform(X[:4])
    np.testing.assert_allclose(ex.transform(X[2:3]), A[2:3], atol=1e-12)
    assert A.shape == (4, 12)
