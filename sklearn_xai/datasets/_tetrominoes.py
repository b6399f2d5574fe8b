"""XAI-TRIS tetromino images (Clark et al. 2024).

Two classes (T and L tetrominoes) embedded in white, smoothed (correlated) or
user-supplied natural-image backgrounds, with four signal scenarios: additive
fixed shapes (LIN), multiplicative fixed shapes (MULT), randomly rotated and
translated shapes (RIGID) and signed pairs of shapes (XOR).  The ground truth
is a pixel mask.
"""

import functools
import numbers
import os

import numpy as np
from scipy import ndimage
from sklearn.model_selection import StratifiedShuffleSplit

from sklearn_xai.datasets._common import _finish
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._random import seed_entropy
from sklearn_xai.utils._sklearn import Interval, Options, StrOptions, validate_params

__all__ = ["make_tetrominoes"]

# Cell grids (3 rows x 2 columns) of the two shapes; class 0 = T, class 1 = L.
_SHAPES = (
    np.array([[1, 0], [1, 1], [1, 0]], dtype=bool),
    np.array([[1, 0], [1, 0], [1, 1]], dtype=bool),
)
# Fixed top-left corners (row, col) of T and L.
_POSITIONS = {8: ((1, 1), (4, 5)), 64: ((8, 8), (32, 40))}
# Published signal-to-noise ratios alpha (XAI-TRIS configuration).
_ALPHA = {
    (64, "white"): {"linear": 0.03, "multiplicative": 0.65, "rigid": 0.575, "xor": 0.075},
    (64, "correlated"): {"linear": 0.02, "multiplicative": 0.05, "rigid": 0.375,
                         "xor": 0.03},
    (64, "imagenet"): {"linear": 0.06, "multiplicative": 0.20, "rigid": 0.03, "xor": 0.13},
    (8, "white"): {"linear": 0.18, "multiplicative": 0.70, "rigid": 0.65, "xor": 0.35},
    (8, "correlated"): {"linear": 0.0125, "multiplicative": 0.10, "rigid": 0.20,
                        "xor": 0.15},
}
_N_SAMPLES = {8: 10_000, 64: 40_000}
_SPLIT = {8: (0.8, 0.1, 0.1), 64: (0.9, 0.05, 0.05)}
_BACKGROUND_SMOOTHING = {8: 3.0, 64: 10.0}
# (sign of T, sign of L) in the four consecutive quarters of an XOR data set.
_XOR_SIGNS = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
_LUMINANCE = np.array([0.299, 0.587, 0.114])


def _tetromino(label, scale):
    """Amplitude-1 image of a shape, each cell a ``scale x scale`` block."""
    return np.kron(_SHAPES[label], np.ones((scale, scale), dtype=bool))


def _smooth(images, sigma):
    """Isotropic Gaussian filter of the last two axes (reflect, truncate 4)."""
    sigma = (0.0,) * (images.ndim - 2) + (sigma, sigma)
    return ndimage.gaussian_filter(images, sigma=sigma, mode="reflect", truncate=4.0)


def _fixed_images(size, scale, dtype):
    """The T and L images at their fixed positions, shape (2, L, L)."""
    images = np.zeros((2, size, size), dtype=dtype)
    for label, (top, left) in enumerate(_POSITIONS[size]):
        shape = _tetromino(label, scale)
        h, w = shape.shape
        if top + h > size or left + w > size:
            raise ValueError(
                f"pattern_scale={scale} makes the tetrominoes ({h}x{w} px) overflow "
                f"the {size}x{size} image at their fixed positions; use a smaller "
                "pattern_scale."
            )
        images[label, top : top + h, left : left + w] = shape
    return images


def _rigid_images(labels, scale, size, rng, dtype):
    """Each row's shape rotated by q * 90 degrees (counter-clockwise) and
    placed with its top-left corner uniform over every position where it
    fits (bounds inclusive)."""
    n = labels.size
    turns = rng.integers(0, 4, n)
    where = rng.random((n, 2))
    images = np.zeros((n, size, size), dtype=dtype)
    for label in (0, 1):
        for q in range(4):
            rows = np.flatnonzero((labels == label) & (turns == q))
            shape = np.rot90(_tetromino(label, scale), q)
            h, w = shape.shape
            if h > size or w > size:
                raise ValueError(
                    f"pattern_scale={scale} makes the tetrominoes larger than the "
                    f"{size}x{size} image; use a smaller pattern_scale."
                )
            top = (where[rows, 0] * (size - h + 1)).astype(np.intp)
            left = (where[rows, 1] * (size - w + 1)).astype(np.intp)
            dr, dc = np.nonzero(shape)
            images[rows[:, None], top[:, None] + dr, left[:, None] + dc] = 1
    return images


# Photographs shipped with scikit-image (no download): the default natural
# backgrounds (XAI-TRIS draws them from ImageNet, which cannot ship).
_SKIMAGE_PHOTOS = ("astronaut", "camera", "chelsea", "coffee", "coins", "rocket", "moon",
                   "clock", "brick", "grass", "gravel")
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def _grey(image, where):
    """A 2-D float64 grey-scale image: RGB(A) as luminance
    ``0.299 R + 0.587 G + 0.114 B`` (XAI-TRIS's conversion)."""
    image = np.asarray(image)
    if image.ndim == 3 and image.shape[-1] in (3, 4):
        image = image[..., :3].astype(np.float64) @ _LUMINANCE
    if image.ndim != 2:
        raise ValueError(
            f"{where} must be a grey-scale (height, width) or colour (height, width, 3) "
            f"image; got shape {np.shape(image)}."
        )
    image = image.astype(np.float64)
    if not np.all(np.isfinite(image)):
        raise ValueError(f"{where} contains NaN or infinity.")
    return image


@functools.lru_cache(maxsize=1)
def _skimage_photos():
    """The grey-scale photographs of :data:`_SKIMAGE_PHOTOS` (read-only)."""
    from skimage import data

    photos = []
    for name in _SKIMAGE_PHOTOS:
        photo = _grey(getattr(data, name)(), f"skimage.data.{name}()")
        photo.setflags(write=False)
        photos.append(photo)
    return tuple(photos)


def _read_image_folder(folder):
    """Every PNG / JPEG file of ``folder`` (sorted by name), grey-scale,
    read with :func:`skimage.io.imread` (image decoders only, never pickle)."""
    from skimage import io

    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise ValueError(
            f"background_images={folder!r} is not a folder; give a folder of PNG or "
            "JPEG images, or an array of images."
        )
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith(_IMAGE_SUFFIXES))
    if not names:
        raise ValueError(
            f"background_images={folder!r} holds no PNG or JPEG image (files ending "
            f"{', '.join(_IMAGE_SUFFIXES)})."
        )
    return [_grey(io.imread(os.path.join(folder, n)), f"image {n!r} of {folder!r}")
            for n in names]


def _background_images(images, size):
    """A list of grey-scale float64 images from ``background_images``: None
    (the scikit-image photographs), a folder, an array of images or a list
    of images; every side at least ``size``."""
    if images is None:
        out = list(_skimage_photos())
    elif isinstance(images, (str, os.PathLike)):
        out = _read_image_folder(images)
    elif not isinstance(images, (list, tuple)):  # an array of images
        imgs = np.asarray(images)
        if imgs.ndim == 2 and imgs.shape[1] == size * size:
            imgs = imgs.reshape(-1, size, size)
        if imgs.ndim not in (3, 4) or len(imgs) == 0:
            raise ValueError(
                "background_images must have shape (n_images, height, width), "
                f"(n_images, height, width, 3) or (n_images, {size * size}), or be a "
                f"list of images or a folder; got shape {np.shape(images)}."
            )
        out = [_grey(img, "background_images") for img in imgs]
    else:
        out = [_grey(img, f"background_images[{i}]") for i, img in enumerate(images)]
        if not out:
            raise ValueError("background_images is empty.")
    small = [img.shape for img in out if min(img.shape) < size]
    if small:
        raise ValueError(
            f"background_images must be at least {size} pixels on both sides; got "
            f"{small[0][0]}x{small[0][1]}."
        )
    return out


def _centre_crops(images, n, size, rng):
    """XAI-TRIS's ImageNet backgrounds: ``n`` images drawn at random, each
    with its shorter side resized to ``size`` (bilinear) and centre-cropped;
    each background's mean is subtracted."""
    chosen = rng.choice(len(images), size=n, replace=len(images) < n)
    out = np.empty((n, size, size))
    for k in np.unique(chosen):
        img = images[k]
        h, w = img.shape
        if (h, w) != (size, size):
            z = size / min(h, w)
            img = ndimage.zoom(img, z, order=1)
            top, left = (img.shape[0] - size) // 2, (img.shape[1] - size) // 2
            img = img[top : top + size, left : left + size]
        out[chosen == k] = img
    return out - out.mean(axis=(1, 2), keepdims=True)


def _random_crops(images, n, size, rng, chunk=1024):
    """``n`` natural backgrounds from a few large images: each row draws an
    image, a square crop of side ``s`` uniform in ``[size, 2 size]`` pixels
    of the image resized (anti-aliased) to a shorter side of ``3 size``, at
    a uniform position, resized to ``size x size`` (bilinear); each
    background's mean is subtracted."""
    from skimage.transform import rescale

    sources = []
    for img in images:
        z = 3 * size / min(img.shape)
        sources.append(rescale(img, z, order=1, anti_aliasing=z < 1, mode="reflect")
                       if z != 1 else img)
    chosen = rng.integers(0, len(sources), n)
    side = rng.integers(size, 2 * size + 1, n)
    where = rng.random((n, 2))
    out = np.empty((n, size, size))
    centres = np.arange(size) + 0.5
    for k, src in enumerate(sources):
        rows = np.flatnonzero(chosen == k)
        h, w = src.shape
        for lo in range(0, rows.size, chunk):
            r = rows[lo : lo + chunk]
            s = side[r].astype(np.float64)
            top = np.floor(where[r, 0] * (h - side[r] + 1))
            left = np.floor(where[r, 1] * (w - side[r] + 1))
            # Bilinear sampling at the centres of the output pixels.
            y = np.clip(top[:, None] + centres * (s[:, None] / size) - 0.5, 0, h - 1)
            x = np.clip(left[:, None] + centres * (s[:, None] / size) - 0.5, 0, w - 1)
            y0, x0 = np.floor(y).astype(np.intp), np.floor(x).astype(np.intp)
            y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
            wy, wx = (y - y0)[:, :, None], (x - x0)[:, None, :]
            a, b = src[y0[:, :, None], x0[:, None, :]], src[y0[:, :, None], x1[:, None, :]]
            c, d = src[y1[:, :, None], x0[:, None, :]], src[y1[:, :, None], x1[:, None, :]]
            out[r] = (1 - wy) * ((1 - wx) * a + wx * b) + wy * ((1 - wx) * c + wx * d)
    return out - out.mean(axis=(1, 2), keepdims=True)


def _frobenius_normalise(A):
    """``A / ||A||_F`` over the whole data set (an all-zero ``A`` is kept)."""
    flat = A.ravel()
    norm = np.sqrt(np.einsum("i,i->", flat, flat, dtype=np.float64))
    return A / A.dtype.type(norm) if norm > 0 else A


def _stratified_splits(y, fractions, rng):
    """Train / validation / test indices from two stratified shuffle splits."""
    n = y.size
    n_val = int(round(n * fractions[1]))
    n_test = int(round(n * fractions[2]))
    n_train = n - n_val - n_test
    if min(n_train, n_val, n_test) < 2:
        raise ValueError(
            f"n_samples={n} is too small for stratified train/validation/test "
            f"splits of fractions {tuple(fractions)} (each part needs at least one "
            "row per class); increase n_samples."
        )
    seeds = rng.integers(0, 2**31 - 1, size=2)
    first = StratifiedShuffleSplit(n_splits=1, test_size=n_val + n_test,
                                   train_size=n_train, random_state=int(seeds[0]))
    train, rest = next(first.split(np.zeros(n), y))
    second = StratifiedShuffleSplit(n_splits=1, test_size=n_test,
                                    train_size=n_val, random_state=int(seeds[1]))
    val, test = next(second.split(np.zeros(rest.size), y[rest]))
    return np.sort(train), np.sort(rest[val]), np.sort(rest[test])


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "scenario": [StrOptions({"linear", "multiplicative", "rigid", "xor"})],
        "background": [StrOptions({"white", "correlated", "natural", "imagenet"})],
        "image_size": [Options(numbers.Integral, {8, 64})],
        "alpha": [Interval(numbers.Real, 0, 1, closed="both"), None],
        "pattern_scale": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "signal_smoothing": [Interval(numbers.Real, 0, None, closed="neither")],
        "background_smoothing": [Interval(numbers.Real, 0, None, closed="neither"),
                                 None],
        "white_std": [Interval(numbers.Real, 0, None, closed="neither")],
        "mask_threshold": [Interval(numbers.Real, 0, 1, closed="neither")],
        "background_images": ["array-like", str, os.PathLike, None],
        "split": [tuple, list, None],
        "dtype": "no_validation",
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
        "as_frame": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(dataset_references=references("clark2024"))
def make_tetrominoes(n_samples=None, *, scenario="linear", background="white",
                     image_size=8, alpha=None, pattern_scale=None,
                     signal_smoothing=1.5, background_smoothing=None, white_std=0.5,
                     mask_threshold=0.05, background_images=None, split=None,
                     dtype=np.float32, shuffle=True, random_state=None,
                     return_X_y=False, as_frame=False):
    """XAI-TRIS tetromino images with ground-truth pixel masks.

    Class 0 holds a T, class 1 an L tetromino (first and second half of the
    rows before shuffling).  Signal ``P`` (LIN, MULT: the class shape at its
    fixed position; RIGID: rotated by ``q * 90`` degrees and placed
    uniformly at random; XOR: both shapes with signs (+,+), (-,-) for class
    0 and (+,-), (-,+) for class 1), smoothed with ``signal_smoothing`` when
    ``pattern_scale > 3``.  Background ``B``: i.i.d. normal pixels, smoothed
    for ``"correlated"``, or grey-scale natural images (``"natural"``,
    ``"imagenet"``).  Both are
    normalised by the Frobenius norm of the whole data set and mixed:
    ``x = alpha P~ + (1 - alpha) B~`` (LIN, RIGID, XOR) or
    ``x = M~ * B~`` with ``M = 1 - alpha P`` (MULT); finally the data set is
    divided by its largest absolute value.

    Parameters
    ----------
    n_samples : int, default=None
        Number of images (default 10 000 at 8x8, 40 000 at 64x64).
    scenario : {"linear", "multiplicative", "rigid", "xor"}, default="linear"
        Signal scenario (LIN, MULT, RIGID, XOR).
    background : {"white", "correlated", "natural", "imagenet"}, default="white"
        Background: white noise, Gaussian-smoothed white noise (CORR), or
        grey-scale natural images.  ``"natural"``: random crops of a few
        large photographs (``background_images``, by default the
        photographs that scikit-image ships: astronaut, camera, chelsea,
        coffee, coins, rocket, moon, clock, brick, grass, gravel): each row
        draws a photograph, rescaled to a shorter side of ``3 L``, a square
        crop of side uniform in ``[L, 2 L]`` at a uniform position, resized
        to ``L x L`` (bilinear).  ``"imagenet"``: XAI-TRIS's procedure for
        its ImageNet images, one image per row with its shorter side resized
        to ``L`` and centre-cropped; it needs ``background_images`` (many
        images, e.g. a folder of ImageNet photographs).  Both convert colour
        to luminance ``0.299 R + 0.587 G + 0.114 B`` and subtract each
        background's mean, as XAI-TRIS does.
    image_size : {8, 64}, default=8
        Side ``L`` of the square images.
    alpha : float, default=None
        Signal-to-noise ratio (default: the published value of the scenario,
        background and size in XAI-TRIS's configuration).
    pattern_scale : int, default=None
        Side in pixels of a tetromino cell (default 1 at 8x8; 8 at 64x64, 4
        for RIGID).
    signal_smoothing : float, default=1.5
        Standard deviation (pixels) of the Gaussian filter applied to signals
        and masks when ``pattern_scale > 3``.
    background_smoothing : float, default=None
        Standard deviation of the CORR background filter (default 3 at 8x8,
        10 at 64x64).
    white_std : float, default=0.5
        Standard deviation of the white-noise pixels (irrelevant after the
        normalisation, kept for fidelity).
    mask_threshold : float, default=0.05
        Threshold of the smoothed masks (when ``pattern_scale > 3``).
    background_images : array-like, list of arrays, str or path-like, default=None
        Natural images for ``background="natural"`` or ``"imagenet"``: an
        array of shape (n_images, height, width), (n_images, height, width,
        3) or (n_images, L*L); a list of grey-scale or colour images of any
        sizes; or a folder, whose PNG and JPEG files are read with
        :func:`skimage.io.imread` (sorted by name; nothing is unpickled).
        Both sides at least ``L``.  Drawn at random per row.
    split : tuple of three floats, default=None
        Train / validation / test fractions of the two stratified splits
        (default (0.8, 0.1, 0.1) at 8x8, (0.9, 0.05, 0.05) at 64x64).
    dtype : numpy float dtype, default=numpy.float32
        Dtype of ``X`` (XAI-TRIS stores float16); computations use it too.
    shuffle : bool, default=True
        Shuffle the rows (with their masks).
    random_state : int, RandomState instance or None, default=None
        Seed (XAI-TRIS used 4000002).  The background draw depends only on
        the seed, the size and the background, so scenarios generated with
        the same seed share it.
    return_X_y : bool, default=False
        Return ``(X, y)``.
    as_frame : bool, default=False
        Return pandas objects (one column per pixel).

    Returns
    -------
    data : Bunch
        ``data`` (n_samples, L*L), flattened row-major; ``target`` (class 0 = T,
        1 = L); ``ground_truth_mask`` (n_samples, L*L) boolean: for LIN,
        MULT and XOR the union of both fixed shapes for every row, for RIGID
        the row's own shape (smoothed and thresholded at 64x64);
        ``ground_truth`` is None (the references are masks); ``masks`` the
        masks as (n_samples, L, L) images; ``masks_signal`` the amplitude-1
        (signed for XOR) signal before mixing; ``image_shape`` (L, L);
        ``train_indices``, ``val_indices``, ``test_indices``; ``alpha``;
        ``distribution`` and ``label_function`` are None; ``feature_names``,
        ``feature_info``, ``DESCR``, ``parameters``.
    (X, y) : tuple if ``return_X_y`` is True.

    {dataset_references}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_tetrominoes
    >>> data = make_tetrominoes(100, scenario="xor", random_state=0)
    >>> data.data.shape, data.image_shape, int(data.ground_truth_mask[0].sum())
    ((100, 64), (8, 8), 8)
    >>> data = make_tetrominoes(60, image_size=64, random_state=0)
    >>> int(data.ground_truth_mask[0].sum())
    862
    >>> natural = make_tetrominoes(60, image_size=64, background="natural",
    ...                            random_state=0)
    >>> natural.data.shape, natural.alpha
    ((60, 4096), 0.06)
    """
    size = int(image_size)
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise ValueError(f"dtype must be a floating dtype such as float32; got {dtype}.")
    n = _N_SAMPLES[size] if n_samples is None else int(n_samples)
    rigid = scenario == "rigid"
    scale = pattern_scale or (4 if rigid and size == 64 else size // 8)
    if background == "imagenet" and background_images is None:
        raise ValueError(
            "background='imagenet' needs background_images= (a folder or an array of "
            "grey-scale or RGB natural images, at least image_size pixels on each "
            "side); background='natural' uses scikit-image's photographs by default."
        )
    if background not in ("natural", "imagenet") and background_images is not None:
        raise ValueError("background_images is only used with background='natural' or "
                         "'imagenet'.")
    if alpha is None:
        # Natural backgrounds take the published alphas of XAI-TRIS's ImageNet ones.
        table = _ALPHA.get((size, "imagenet" if background == "natural" else background))
        if table is None:
            raise ValueError(
                f"there is no published alpha for background={background!r} at "
                f"{size}x{size}; pass alpha=."
            )
        alpha = table[scenario]
    fractions = _SPLIT[size] if split is None else tuple(float(f) for f in split)
    if len(fractions) != 3 or min(fractions) <= 0 or abs(sum(fractions) - 1) > 1e-9:
        raise ValueError(
            f"split must be three positive fractions summing to 1; got {split!r}."
        )
    if background_smoothing is None:
        background_smoothing = _BACKGROUND_SMOOTHING[size]
    smooth = scale > 3
    bg_seq, signal_seq, rest_seq = np.random.SeedSequence(
        seed_entropy(random_state)).spawn(3)
    bg_rng, signal_rng, rng = (np.random.default_rng(s) for s in
                               (bg_seq, signal_seq, rest_seq))

    # 1. background
    if background == "imagenet":
        B = _centre_crops(_background_images(background_images, size), n, size,
                          bg_rng).astype(dtype)
    elif background == "natural":
        B = _random_crops(_background_images(background_images, size), n, size,
                          bg_rng).astype(dtype)
    else:
        B = bg_rng.standard_normal((n, size, size)).astype(dtype) * dtype.type(white_std)
        if background == "correlated":
            B = _smooth(B, background_smoothing)

    # 2. signal and ground-truth mask
    labels = (np.arange(n) * 2 // n).astype(np.int64)
    if rigid:
        P = _rigid_images(labels, scale, size, signal_rng, dtype)
        if smooth:
            P = _smooth(P, signal_smoothing)
        mask = P >= mask_threshold if smooth else P > 0
    else:
        fixed = _fixed_images(size, scale, dtype)
        if smooth:
            fixed = _smooth(fixed, signal_smoothing)
        union = (fixed >= mask_threshold if smooth else fixed > 0).any(axis=0)
        mask = np.broadcast_to(union, (n, size, size)).copy()
        if scenario == "xor":
            signs = _XOR_SIGNS[np.arange(n) * 4 // n].astype(dtype)
            P = np.einsum("nc,cij->nij", signs, fixed)
        else:
            P = fixed[labels]

    # 3.-5. normalise, mix, scale
    a = dtype.type(alpha)
    if scenario == "multiplicative":
        X = _frobenius_normalise(1 - a * P) * _frobenius_normalise(B)
    else:
        X = a * _frobenius_normalise(P) + (1 - a) * _frobenius_normalise(B)
    peak = np.max(np.abs(X))
    if peak > 0:
        X = X / peak
    D = size * size
    names = [f"pixel_{r}_{c}" for r in range(size) for c in range(size)]
    parameters = dict(
        n_samples=n, scenario=scenario, background=background, image_size=size,
        alpha=float(alpha), pattern_scale=scale, signal_smoothing=signal_smoothing,
        background_smoothing=background_smoothing, white_std=white_std,
        mask_threshold=mask_threshold, split=fractions, dtype=dtype,
        random_state=random_state,
    )
    descr = (
        f"XAI-TRIS tetrominoes: {scenario} scenario on a {background} background, "
        f"{size}x{size} images, alpha={alpha}. Class 0 = T, class 1 = L. Ground "
        "truth: pixel masks (union of both fixed shapes for linear, multiplicative "
        "and xor; the row's own shape for rigid).\nSource: Clark et al., XAI-TRIS: "
        "Non-linear benchmarks to quantify ML explanation performance."
    )
    result, _ = _finish(
        X=X.reshape(n, D), y=labels, ground_truth=None,
        ground_truth_mask=mask.reshape(n, D), distribution=None, label_function=None,
        feature_names=names, descr=descr, parameters=parameters, rng=rng,
        shuffle=shuffle, return_X_y=return_X_y, as_frame=as_frame,
        per_row=("masks_signal",), masks_signal=P.reshape(n, D), image_shape=(size, size),
        alpha=float(alpha),
    )
    if return_X_y:
        return result
    result.masks = np.asarray(result.ground_truth_mask).reshape(n, size, size)
    result.train_indices, result.val_indices, result.test_indices = _stratified_splits(
        np.asarray(result.target), fractions, rng)
    return result
