"""Tests of the localisation metrics (pointing game, attribution localisation,
top-k intersection) against hand-computed values and Quantus 0.6."""

import warnings

import numpy as np
import pytest

from sklearn_xai.metrics import (
    UndefinedScoreWarning,
    attribution_localisation,
    pointing_game,
    relevance_mass_accuracy,
    top_k_intersection,
)
from sklearn_xai.metrics._registry import get_metric_spec


# ---------------------------------------------------------------- pointing game
def test_pointing_game_hand_computed():
    mask = np.array([[1, 1, 0, 0],
                     [1, 1, 0, 0],
                     [0, 0, 1, 0]], dtype=bool)
    A = np.array([[0.2, 0.9, 0.5, -1.0],   # max 0.9 at f1 (in); |max| f3 (out)
                  [0.2, 0.1, 0.5, 0.0],    # max 0.5 at f2 (out)
                  [0.3, -2.0, 0.3, 0.1]])  # max 0.3 tied at f0 (out), f2 (in)
    np.testing.assert_array_equal(pointing_game(mask, A), [1.0, 0.0, 1.0])
    np.testing.assert_array_equal(pointing_game(mask, A, order_by="abs"),
                                  [0.0, 0.0, 0.0])
    # ties="fraction": one of the two tied maxima of row 2 is in the mask.
    np.testing.assert_array_equal(pointing_game(mask, A, ties="fraction"),
                                  [1.0, 0.0, 0.5])
    # weighted: a hit earns 1 - |M| / d = 1 - 2/4 (rows 0, 1), 1 - 1/4 (row 2).
    np.testing.assert_allclose(pointing_game(mask, A, weighted=True),
                               [0.5, 0.0, 0.75])


def test_pointing_game_undefined_rows():
    mask = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=bool)
    A = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.2, 0.5, 0.1]])
    with pytest.warns(UndefinedScoreWarning, match="pointing_game"):
        out = pointing_game(mask, A)
    # Empty mask and constant map (no maximum to point at) are undefined.
    assert np.isnan(out[:2]).all() and out[2] == 1.0
    np.testing.assert_array_equal(pointing_game(mask, A, nan_policy="zero"),
                                  [0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="undefined for 2 of 3 rows"):
        pointing_game(mask, A, nan_policy="raise")


def test_pointing_game_tolerance_on_an_image():
    # 5 x 5 image, mask = the centre pixel (2, 2).
    mask = np.zeros((5, 5), dtype=bool)
    mask[2, 2] = True
    rows = []
    for r, c in [(2, 3), (3, 3), (2, 4), (0, 0)]:  # distances 1, sqrt 2, 2, sqrt 8
        a = np.zeros((5, 5))
        a[r, c] = 1.0
        rows.append(a.ravel())
    A = np.array(rows)
    np.testing.assert_array_equal(pointing_game(mask.ravel(), A), [0, 0, 0, 0])
    np.testing.assert_array_equal(pointing_game(mask.ravel(), A, tolerance=1),
                                  [1, 0, 0, 0])
    np.testing.assert_array_equal(pointing_game(mask.ravel(), A, tolerance=1.5),
                                  [1, 1, 0, 0])
    np.testing.assert_array_equal(pointing_game(mask.ravel(), A, tolerance=2),
                                  [1, 1, 1, 0])
    np.testing.assert_array_equal(
        pointing_game(mask.ravel(), A, tolerance=2.9, image_shape=(5, 5)), [1, 1, 1, 1])
    # The tolerance never crosses rows of the batch nor image borders.
    wide = np.zeros((2, 12))
    wide[0, 5] = 1.0   # last pixel of image row 0 of a 2 x 6 image
    wide[1, 6] = 1.0   # first pixel of image row 1
    m = np.zeros(12, dtype=bool)
    m[0] = True        # pixel (0, 0)
    np.testing.assert_array_equal(
        pointing_game(m, wide, tolerance=1, image_shape=(2, 6)), [0, 1])


def test_pointing_game_tolerance_needs_an_image_grid():
    with pytest.raises(ValueError, match="not a square number"):
        pointing_game([1, 0, 0], [[1.0, 0.0, 0.0]], tolerance=1)
    with pytest.raises(ValueError, match="image_shape must be"):
        pointing_game([1, 0, 0, 0], [[1.0, 0.0, 0.0, 0.0]], tolerance=1,
                      image_shape=(3, 2))
    with pytest.raises(ValueError, match="0/1"):
        pointing_game([[0.5, 0.0]], [[1.0, 0.0]])


# ------------------------------------------------------ attribution localisation
def test_attribution_localisation_hand_computed():
    mask = np.array([[1, 0, 0, 0], [1, 1, 0, 0]], dtype=bool)
    A = np.array([[0.6, 0.2, 0.2, -5.0],
                  [1.0, -1.0, 3.0, 0.0]])
    # Positive parts: row 0 (0.6, 0.2, 0.2, 0) -> 0.6; row 1 (1, 0, 3, 0) -> 1/4.
    np.testing.assert_allclose(attribution_localisation(mask, A), [0.6, 0.25])
    # Weighted (paper): times d / |M| = 4 and 2.
    np.testing.assert_allclose(attribution_localisation(mask, A, weighted=True),
                               [2.4, 0.5])
    # Quantus' code: magnitudes |a| (0.6 / 6, 2 / 5), weight |M| / d.
    q = attribution_localisation(mask, A, convention="quantus_code")
    np.testing.assert_allclose(q, [0.1, 0.4], rtol=1e-8)
    np.testing.assert_allclose(
        attribution_localisation(mask, A, convention="quantus_code", weighted=True),
        [0.1 / 4, 0.4 / 2], rtol=1e-8)
    # Quantus' code equals relevance mass accuracy up to its 1e-9.
    np.testing.assert_allclose(q, relevance_mass_accuracy(mask, A), rtol=1e-8)
    # Scale invariance (the ratio does not depend on the attribution units).
    np.testing.assert_allclose(attribution_localisation(mask, 1e3 * A),
                               attribution_localisation(mask, A))


def test_attribution_localisation_undefined_rows():
    mask = np.array([[1, 0, 0], [0, 0, 0], [1, 0, 0]], dtype=bool)
    A = np.array([[-1.0, -2.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
    with pytest.warns(UndefinedScoreWarning, match="attribution_localisation"):
        out = attribution_localisation(mask, A)
    assert np.isnan(out).all()  # no positive attribution / empty mask / zeros
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        q = attribution_localisation(mask[[0, 2]], A[[0, 2]], convention="quantus_code")
    np.testing.assert_allclose(q, [1 / 3, 0.0])  # Quantus: all-zero row scores 0


# ------------------------------------------------------------ top-k intersection
def test_top_k_intersection_is_in_the_localisation_family():
    from sklearn_xai.metrics import _ground_truth

    assert _ground_truth.top_k_intersection is top_k_intersection  # still importable
    spec = get_metric_spec("top_k_intersection")
    assert spec.family == "localisation" and spec.func is top_k_intersection


def test_registry_entries():
    for name in ("pointing_game", "attribution_localisation", "top_k_intersection"):
        spec = get_metric_spec(name)
        assert spec.kind == "reference" and spec.greater_is_better
        assert spec.family == "localisation" and spec.source == "Quantus"
    assert get_metric_spec("pointing_game").requires == ("ground_truth", "image_shape", "mask")
    assert get_metric_spec("attribution_localisation").requires == ("ground_truth", "mask")


def test_row_order_and_batch_do_not_matter():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(40, 16))
    M = rng.random((40, 16)) < 0.3
    M[:, 0] = True
    perm = rng.permutation(40)
    for func, kw in [(pointing_game, {"tolerance": 1}), (attribution_localisation, {}),
                     (top_k_intersection, {"k": 3})]:
        full = func(M, A, **kw)
        np.testing.assert_array_equal(func(M[perm], A[perm], **kw), full[perm])
        np.testing.assert_array_equal(func(M[:1], A[:1], **kw), full[:1])


# ------------------------------------------------------------- Quantus oracle
def _quantus_batch(n, d, seed):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, d))
    A[0, :3] = A[0].max() + 1.0  # a tie at the maximum
    M = rng.random((n, d)) < 0.3
    M[:, 1] = True
    x = rng.normal(size=(n, 1, d)).astype(np.float32)
    kwargs = dict(model=None, x_batch=x, y_batch=np.zeros(n, dtype=int),
                  a_batch=A[:, None, :], s_batch=M[:, None, :].astype(np.float64),
                  channel_first=True)
    return A, M, kwargs


def test_equal_to_quantus():
    quantus = pytest.importorskip(
        "quantus", reason="Quantus 0.6 is the peer oracle; pip install quantus")
    A, M, kwargs = _quantus_batch(40, 20, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pg = quantus.PointingGame(disable_warnings=True)(**kwargs)
        al = quantus.AttributionLocalisation(disable_warnings=True)(**kwargs)
        tki = {k: quantus.TopKIntersection(k=k, abs=True, disable_warnings=True)(**kwargs)
               for k in (1, 4, 10)}
    np.testing.assert_array_equal(pointing_game(M, A), np.asarray(pg, dtype=float))
    np.testing.assert_allclose(attribution_localisation(M, A, convention="quantus_code"),
                               al, rtol=1e-7, atol=1e-12)
    for k, q in tki.items():
        # Quantus sorts with an unstable argsort: no ties in |a| here.
        rows = np.abs(A).round(12).tolist()
        assert all(len(set(r)) == len(r) for r in rows[1:])
        np.testing.assert_allclose(top_k_intersection(M[1:], A[1:], k=k),
                                   np.asarray(q)[1:], rtol=0, atol=1e-12)
