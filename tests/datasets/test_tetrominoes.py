"""XAI-TRIS tetromino images: pixel-count anchors and mixing formulas."""

import numpy as np
import pytest
from scipy import ndimage
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.datasets import make_tetrominoes

T8 = [(1, 1), (2, 1), (2, 2), (3, 1)]  # T at (1, 1): rows (1,0), (1,1), (1,0)
L8 = [(4, 5), (5, 5), (6, 5), (6, 6)]  # L at (4, 5): rows (1,0), (1,0), (1,1)


def _image(pixels, size=8):
    img = np.zeros((size, size), dtype=bool)
    img[tuple(np.array(pixels).T)] = True
    return img


def _bbox(masks):
    rows, cols = masks.any(axis=2), masks.any(axis=1)
    size = masks.shape[1]
    return (rows.argmax(1), size - 1 - rows[:, ::-1].argmax(1),
            cols.argmax(1), size - 1 - cols[:, ::-1].argmax(1))


@pytest.mark.parametrize("scenario", ["linear", "multiplicative", "xor"])
def test_8x8_union_mask_and_signals(scenario):
    data = make_tetrominoes(40, scenario=scenario, random_state=0)
    union = _image(T8 + L8)
    assert data.image_shape == (8, 8) and data.data.shape == (40, 64)
    assert np.all(data.ground_truth_mask.sum(1) == 8)
    assert np.all(data.masks == union)
    signal = data.masks_signal.reshape(40, 8, 8)
    T, L = _image(T8), _image(L8)
    if scenario == "xor":
        s_T, s_L = signal[:, 1, 1], signal[:, 4, 5]
        pairs = {(int(a), int(b)) for a, b in zip(s_T[data.target == 0], s_L[data.target == 0])}
        assert pairs == {(1, 1), (-1, -1)}
        pairs = {(int(a), int(b)) for a, b in zip(s_T[data.target == 1], s_L[data.target == 1])}
        assert pairs == {(1, -1), (-1, 1)}
        np.testing.assert_array_equal(np.abs(signal) > 0, np.broadcast_to(union, signal.shape))
    else:
        np.testing.assert_array_equal(signal[data.target == 0] > 0,
                                      np.broadcast_to(T, signal[data.target == 0].shape))
        np.testing.assert_array_equal(signal[data.target == 1] > 0,
                                      np.broadcast_to(L, signal[data.target == 1].shape))
    assert np.max(np.abs(data.data)) == pytest.approx(1.0)
    assert data.target.mean() == 0.5


def test_8x8_rigid_masks_are_the_rows_own_shape():
    data = make_tetrominoes(200, scenario="rigid", random_state=0)
    assert np.all(data.ground_truth_mask.sum(1) == 4)
    np.testing.assert_array_equal(data.masks, data.masks_signal.reshape(200, 8, 8) > 0)
    positions = {tuple(np.argwhere(m)[0]) for m in data.masks}
    assert len(positions) > 10  # translated
    # rotations: the bounding box is 3x2 or 2x3
    r0, r1, c0, c1 = _bbox(data.masks)
    assert set(zip(r1 - r0 + 1, c1 - c0 + 1)) == {(3, 2), (2, 3)}
    # positions touch every border (inclusive bounds)
    assert r0.min() == 0 and c0.min() == 0 and r1.max() == 7 and c1.max() == 7


def test_64x64_union_mask_anchors():
    data = make_tetrominoes(40, scenario="linear", image_size=64, random_state=0)
    masks = data.masks
    assert np.all(data.ground_truth_mask.sum(1) == 862)
    r0, r1, c0, c1 = _bbox(masks[:1])
    assert (r0[0], r1[0], c0[0], c1[0]) == (6, 57, 6, 57)
    # per-class parts: T on the left half, L on the right
    assert masks[0][:, :32].sum() == 432 and masks[0][:, 32:].sum() == 430
    # raw union before smoothing: 512 pixels; smoothing keeps each shape's mass
    from sklearn_xai.datasets._tetrominoes import _fixed_images

    assert _fixed_images(64, 8, np.float64).any(axis=0).sum() == 512
    np.testing.assert_allclose(data.masks_signal.sum(1), 256.0, rtol=1e-5)


def test_64x64_rigid_anchors():
    data = make_tetrominoes(400, scenario="rigid", image_size=64, random_state=0)
    counts = data.ground_truth_mask.sum(1)
    r0, r1, c0, c1 = _bbox(data.masks)
    inner = (r0 > 0) & (c0 > 0) & (r1 < 63) & (c1 < 63)
    assert inner.sum() > 300
    assert set(counts[inner & (data.target == 0)]) == {156}
    assert set(counts[inner & (data.target == 1)]) == {157}
    # the mask is the thresholded smoothed signal of the row
    np.testing.assert_array_equal(data.ground_truth_mask, data.masks_signal >= 0.05)


def test_corner_t_anchor():
    img = np.zeros((64, 64))
    img[0:12, 0:4] = 1.0
    img[4:8, 4:8] = 1.0  # T with 4-pixel cells at the (0, 0) corner
    smooth = ndimage.gaussian_filter(img, 1.5, mode="reflect", truncate=4.0)
    assert (smooth >= 0.05).sum() == 116
    from sklearn_xai.datasets._tetrominoes import _rigid_images, _smooth

    class Corner:  # rotation 0, top-left position (0, 0)
        def integers(self, low, high, size):
            return np.zeros(size, dtype=int)

        def random(self, size):
            return np.zeros(size)

    own = _smooth(_rigid_images(np.array([0]), 4, 64, Corner(), np.float64), 1.5)
    np.testing.assert_allclose(own[0], smooth)


def test_additive_mixing_and_shared_background():
    kw = dict(n_samples=60, background="correlated", random_state=5)
    noise = make_tetrominoes(scenario="linear", alpha=0.0, **kw)
    lin = make_tetrominoes(scenario="linear", alpha=0.3, **kw)
    xor = make_tetrominoes(scenario="xor", alpha=0.3, **kw)
    mult = make_tetrominoes(scenario="multiplicative", alpha=0.3, **kw)
    B = noise.data.astype(np.float64)
    for data in (lin, xor):
        # X = a * P + b * B exactly, with a, b > 0 (global normalisations)
        P = data.masks_signal.astype(np.float64)
        A = np.column_stack([P.ravel(), B.ravel()])
        coef, *_ = np.linalg.lstsq(A, data.data.ravel().astype(np.float64), rcond=None)
        np.testing.assert_allclose(A @ coef, data.data.ravel(), atol=1e-5)
        assert np.all(coef > 0)
        P_norm, B_norm = np.linalg.norm(P), np.linalg.norm(B)
        ratio = (coef[0] * P_norm) / (coef[1] * B_norm)
        assert ratio == pytest.approx(0.3 / 0.7, rel=1e-4)
    # multiplicative: X proportional to (1 - alpha P) * B pixel-wise
    expected = (1 - 0.3 * mult.masks_signal) * B
    scale = np.sum(mult.data * expected) / np.sum(expected**2)
    np.testing.assert_allclose(mult.data, scale * expected, atol=1e-5)


def test_backgrounds_white_vs_correlated():
    white = make_tetrominoes(300, alpha=0.0, random_state=0).data.reshape(300, 8, 8)
    corr = make_tetrominoes(300, alpha=0.0, background="correlated",
                            random_state=0).data.reshape(300, 8, 8)

    def neighbour_corr(imgs):
        return np.corrcoef(imgs[:, :, :-1].ravel(), imgs[:, :, 1:].ravel())[0, 1]

    assert abs(neighbour_corr(white)) < 0.05
    assert neighbour_corr(corr) > 0.9


def test_user_background_images():
    rng = np.random.default_rng(0)
    rgb = rng.random((7, 80, 96, 3))
    data = make_tetrominoes(40, background="imagenet", background_images=rgb,
                            image_size=64, alpha=0.0, random_state=0)
    imgs = data.data.reshape(40, 64, 64)
    np.testing.assert_allclose(imgs.mean(axis=(1, 2)), 0.0, atol=1e-6)
    grey = rgb @ [0.299, 0.587, 0.114]
    zoomed = ndimage.zoom(grey, (1, 0.8, 0.8), order=1)[:, :, 6:70]
    zoomed -= zoomed.mean(axis=(1, 2), keepdims=True)
    # every row is one of the user images, up to the global scale
    first = imgs[0].ravel()
    ratios = [abs(np.corrcoef(first, z.ravel())[0, 1]) for z in zoomed]
    assert max(ratios) > 0.9999
    default_alpha = make_tetrominoes(40, background="imagenet", image_size=64,
                                     background_images=rgb, random_state=0)
    assert default_alpha.alpha == 0.06


def test_splits_and_reproducibility():
    a = make_tetrominoes(200, scenario="xor", random_state=1)
    b = make_tetrominoes(200, scenario="xor", random_state=1)
    c = make_tetrominoes(200, scenario="xor", random_state=2)
    np.testing.assert_array_equal(a.data, b.data)
    assert not np.allclose(a.data, c.data)
    sizes = (len(a.train_indices), len(a.val_indices), len(a.test_indices))
    assert sizes == (160, 20, 20)
    parts = np.concatenate([a.train_indices, a.val_indices, a.test_indices])
    np.testing.assert_array_equal(np.sort(parts), np.arange(200))
    for idx in (a.train_indices, a.val_indices, a.test_indices):
        assert a.target[idx].mean() == 0.5  # stratified
    big = make_tetrominoes(100, image_size=64, random_state=0)
    assert (len(big.train_indices), len(big.val_indices)) == (90, 5)
    assert a.parameters["alpha"] == 0.35 and big.alpha == 0.03


def test_return_x_y_as_frame_and_dtype():
    X, y = make_tetrominoes(20, return_X_y=True, random_state=0, dtype=np.float64)
    assert X.shape == (20, 64) and X.dtype == np.float64
    data = make_tetrominoes(20, as_frame=True, random_state=0)
    assert data.data.columns[9] == "pixel_1_1"
    assert data.ground_truth is None and data.distribution is None


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(background="imagenet"), ValueError, "needs background_images"),
        (dict(background_images=np.zeros((2, 8, 8))), ValueError, "only used"),
        (dict(background="imagenet", background_images=np.zeros((2, 8, 8))),
         ValueError, "no published alpha"),
        (dict(pattern_scale=3), ValueError, "overflow"),
        (dict(split=(0.5, 0.5)), ValueError, "three positive fractions"),
        (dict(n_samples=10), ValueError, "too small"),
        (dict(image_size=16), InvalidParameterError, "image_size"),
        (dict(scenario="rotation"), InvalidParameterError, "scenario"),
        (dict(dtype=np.int32), ValueError, "floating dtype"),
    ],
)
def test_parameter_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_tetrominoes(**{"n_samples": 40, **kwargs})


# ----------------------------------------------------- natural backgrounds
def test_natural_backgrounds_default_photographs():
    """Default: crops of scikit-image's photographs, grey-scale, zero-mean;
    shape, range, reproducibility, the masks untouched."""
    a = make_tetrominoes(60, image_size=64, background="natural", alpha=0.0,
                         random_state=0)
    b = make_tetrominoes(60, image_size=64, background="natural", alpha=0.0,
                         random_state=0)
    c = make_tetrominoes(60, image_size=64, background="natural", alpha=0.0,
                         random_state=1)
    np.testing.assert_array_equal(a.data, b.data)
    assert not np.allclose(a.data, c.data)
    imgs = a.data.reshape(60, 64, 64)
    assert a.data.shape == (60, 4096) and np.abs(a.data).max() == 1.0
    np.testing.assert_allclose(imgs.mean(axis=(1, 2)), 0.0, atol=1e-6)
    # natural images: strongly correlated neighbours, unlike white noise
    assert np.corrcoef(imgs[:, :, :-1].ravel(), imgs[:, :, 1:].ravel())[0, 1] > 0.8
    # crops differ from row to row
    assert len({round(float(np.std(im)), 6) for im in imgs}) == 60
    white = make_tetrominoes(60, image_size=64, random_state=0)
    with_signal = make_tetrominoes(60, image_size=64, background="natural", random_state=0)
    np.testing.assert_array_equal(with_signal.ground_truth_mask, white.ground_truth_mask)
    assert with_signal.alpha == 0.06  # XAI-TRIS's alpha for its ImageNet backgrounds


def test_natural_backgrounds_are_crops_of_the_given_image():
    """One constant-gradient image with a shorter side of 3 L (so it is not
    rescaled): every crop, resized bilinearly, is a plane whose slope is the
    image's slope times the crop's side / L, in [1, 2]."""
    rows, cols = np.mgrid[0:24, 0:30].astype(float)
    plane = 2.0 * rows + 1.0 * cols
    data = make_tetrominoes(40, background="natural", background_images=[plane],
                            alpha=0.0, random_state=0, dtype=np.float64)
    imgs = data.data.reshape(40, 8, 8)
    dr = np.diff(imgs, axis=1)
    dc = np.diff(imgs, axis=2)
    # constant steps within each image, in the ratio 2 : 1 of the plane
    np.testing.assert_allclose(dr, dr[:, :1, :1] * np.ones_like(dr), rtol=1e-9)
    np.testing.assert_allclose(dc, dc[:, :1, :1] * np.ones_like(dc), rtol=1e-9)
    np.testing.assert_allclose(dr[:, 0, 0], 2 * dc[:, 0, 0], rtol=1e-9)
    # crop sides between L and 2 L: steps (relative to the smallest,
    # a side of L when some row drew it) between 1x and 2x
    steps = dc[:, 0, 0] / dc[:, 0, 0].min()
    assert steps.max() <= 2.0 + 1e-9 and steps.max() > 1.5


def test_background_image_folder(tmp_path):
    from skimage import io

    rng = np.random.default_rng(0)
    images = [(rng.random((30 + 5 * i, 40, 3)) * 255).astype(np.uint8) for i in range(2)]
    images.append((rng.random((36, 36)) * 255).astype(np.uint8))
    for i, img in enumerate(images):
        io.imsave(tmp_path / f"img{i}.{'png' if i < 2 else 'jpg'}", img, check_contrast=False)
    (tmp_path / "notes.txt").write_text("not an image")
    from_folder = make_tetrominoes(40, background="natural", background_images=tmp_path,
                                   alpha=0.1, random_state=0)
    from_str = make_tetrominoes(40, background="natural", background_images=str(tmp_path),
                                alpha=0.1, random_state=0)
    np.testing.assert_array_equal(from_folder.data, from_str.data)
    # the PNGs are lossless: the same as the arrays themselves
    grey = [img @ [0.299, 0.587, 0.114] for img in images[:2]]
    reread = [io.imread(tmp_path / "img2.jpg")]
    from_arrays = make_tetrominoes(40, background="natural",
                                   background_images=grey + reread, alpha=0.1,
                                   random_state=0)
    np.testing.assert_allclose(from_folder.data, from_arrays.data, rtol=1e-5, atol=1e-6)
    centre = make_tetrominoes(40, background="imagenet", background_images=tmp_path,
                              image_size=8, alpha=0.1, random_state=0)
    assert centre.data.shape == (40, 64)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not an image")
    with pytest.raises(ValueError, match="holds no PNG or JPEG"):
        make_tetrominoes(40, background="natural", background_images=empty, alpha=0.1)
    with pytest.raises(ValueError, match="is not a folder"):
        make_tetrominoes(40, background="natural", background_images=tmp_path / "nope",
                         alpha=0.1)


@pytest.mark.parametrize("kwargs, match", [
    (dict(background_images=[np.zeros((4, 4))]), "at least 8 pixels"),
    (dict(background_images=[np.zeros((9, 9, 2))]), "grey-scale"),
    (dict(background_images=[np.full((9, 9), np.nan)]), "NaN"),
    (dict(background_images=[]), "empty"),
])
def test_natural_background_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_tetrominoes(40, background="natural", alpha=0.1, **kwargs)
    with pytest.raises(ValueError, match="no published alpha"):
        make_tetrominoes(40, background="natural")
