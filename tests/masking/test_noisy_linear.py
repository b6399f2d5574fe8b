"""Noisy linear imputation (Rong et al. 2022): images and tabular rows."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.masking import check_masker
from sklearn_xai.masking import NoisyLinearMasker
from sklearn_xai.utils import ExplainedOutput, RowStreams, row_keys

RNG = np.random.default_rng(0)
X_TRAIN = RNG.normal(size=(300, 4)) @ np.array(
    [[1.0, 0.5, 0.0, 0.2], [0.0, 1.0, 0.3, 0.0], [0.0, 0.0, 1.0, 0.4], [0, 0, 0, 1.0]])
X = RNG.normal(size=(5, 4))
H, W = 5, 6


def _ramp(a=1.0, b=2.0, c=0.5):
    r, col = np.mgrid[:H, :W]
    return (a * r + b * col + c).reshape(1, H * W).astype(np.float64)


def _interior_removals(n, rng, p=0.5):
    inner = np.zeros((H, W), dtype=bool)
    inner[1:-1, 1:-1] = True
    return (rng.random((n, H * W)) < p) & inner.ravel()


def _brute_force(image, removed):
    """Rong et al.'s equations solved densely: each removed pixel is the
    weighted mean of its in-image neighbours (1/6 direct, 1/12 diagonal)."""
    idx = np.flatnonzero(removed)
    pos = {j: k for k, j in enumerate(idx)}
    M, rhs = np.zeros((idx.size, idx.size)), np.zeros(idx.size)
    for k, j in enumerate(idx):
        r, c = divmod(j, W)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr, dc) == (0, 0) or not (0 <= rr < H and 0 <= cc < W):
                    continue
                w = 1 / 12 if dr and dc else 1 / 6
                M[k, k] += w
                nb = rr * W + cc
                if nb in pos:
                    M[k, pos[nb]] -= w
                else:
                    rhs[k] += w * image[nb]
    out = image.copy()
    out[idx] = np.linalg.solve(M, rhs)
    return out


def test_linear_image_is_recovered_exactly():
    image = _ramp()
    removed = _interior_removals(4, np.random.default_rng(1))
    masker = NoisyLinearMasker(noise=0.0, image_shape=(H, W)).fit(image)
    Z = masker.impute(np.vstack([image, 2 * image]), np.stack([~removed, ~removed]))
    assert Z.shape == (2, 4, 1, H * W)
    np.testing.assert_allclose(Z[0, :, 0], np.repeat(image, 4, axis=0), atol=1e-12)
    np.testing.assert_allclose(Z[1, :, 0], np.repeat(2 * image, 4, axis=0), atol=1e-12)


def test_image_imputation_solves_the_neighbour_equations():
    rng = np.random.default_rng(2)
    images = rng.random((3, H * W))
    removed = rng.random((3, 2, H * W)) < 0.6  # border pixels included
    masker = NoisyLinearMasker(noise=0.0, image_shape=(H, W)).fit(images)
    Z = masker.impute(images, ~removed)[:, :, 0]
    for i in range(3):
        for j in range(2):
            np.testing.assert_allclose(Z[i, j], _brute_force(images[i], removed[i, j]),
                                       atol=1e-10)
    # kept pixels are untouched
    np.testing.assert_array_equal(Z[~removed], np.broadcast_to(
        images[:, None], removed.shape)[~removed])


def test_channels_are_imputed_independently_and_everything_removed_is_zero():
    image = np.hstack([_ramp(), _ramp(2.0, -1.0, 3.0)])
    removed = np.concatenate([_interior_removals(1, np.random.default_rng(3))[0],
                              np.zeros(H * W, bool)])
    masker = NoisyLinearMasker(noise=0.0, image_shape=(H, W)).fit(image)
    Z = masker.impute(image, np.stack([~removed, np.zeros(2 * H * W, bool)]))[0, :, 0]
    np.testing.assert_allclose(Z[0], image[0], atol=1e-12)
    np.testing.assert_array_equal(Z[1], 0.0)


def test_noise_is_per_row_reproducible_and_of_the_given_scale():
    image = _ramp()
    removed = _interior_removals(1, np.random.default_rng(4), p=1.0)
    masker = NoisyLinearMasker(noise=0.1, image_shape=(H, W), n_draws=2000).fit(image)
    assert not masker.is_deterministic
    rows = np.vstack([image, image + 1])
    Z = masker.impute(rows, ~removed, rngs=RowStreams(0, row_keys(rows)))
    eps = Z[0, 0, :, removed[0]] - image[0, removed[0]][:, None]
    assert abs(eps.std() - 0.1) < 0.005 and abs(eps.mean()) < 0.005
    np.testing.assert_array_equal(Z[0, 0, :, ~removed[0]].T,
                                  np.broadcast_to(image[0, ~removed[0]],
                                                  (2000, (~removed[0]).sum())))
    alone = masker.impute(rows[1:], ~removed, rngs=RowStreams(0, row_keys(rows[1:])))
    np.testing.assert_array_equal(alone[0], Z[1])
    with pytest.raises(ValueError, match="stochastic"):
        masker.impute(rows, ~removed)


def test_noise_zero_is_deterministic():
    masker = NoisyLinearMasker(noise=0.0).fit(X_TRAIN)
    assert masker.is_deterministic
    keep = np.array([[True, False, True, False]])
    np.testing.assert_array_equal(masker.impute(X, keep), masker.impute(X, keep))


def test_tabular_is_the_gaussian_conditional_mean_of_the_training_rows():
    masker = NoisyLinearMasker(noise=0.0).fit(X_TRAIN)
    keep = np.array([[True, False, True, False], [False] * 4, [True] * 4])
    Z = masker.impute(X, keep)[:, :, 0]
    dist = MultivariateGaussian.from_data(X_TRAIN, ddof=1)
    for j, mask in enumerate(keep):
        np.testing.assert_allclose(Z[:, j], dist.expected_rows(X, mask))
    np.testing.assert_array_equal(Z[:, 2], X)
    # fitted on the training rows only: refitting on other rows changes it
    other = NoisyLinearMasker(noise=0.0).fit(X_TRAIN[:50] + 3.0)
    assert not np.allclose(other.impute(X, keep)[:, 0], Z[:, 0])


def test_tabular_noise_is_scaled_by_the_training_std():
    masker = NoisyLinearMasker(noise=0.5, n_draws=4000).fit(X_TRAIN)
    np.testing.assert_allclose(masker.scale_, 0.5 * X_TRAIN.std(axis=0, ddof=1))
    keep = np.array([[True, False, True, False]])
    Z = masker.impute(X[:1], keep, rngs=RowStreams(1, row_keys(X[:1])))[0, 0]
    np.testing.assert_allclose(Z[:, [1, 3]].std(axis=0), masker.scale_[[1, 3]],
                               rtol=0.05)


def test_training_rows_and_data_free_set_up():
    with pytest.raises(ValueError, match="mean and covariance") as info:
        check_masker(NoisyLinearMasker(), n_features=4)
    assert "X_train=<training rows>" in str(info.value)
    image_masker = check_masker(NoisyLinearMasker(image_shape=(H, W)), n_features=H * W)
    assert image_masker.n_features_in_ == H * W
    with pytest.raises(ValueError, match="image_shape"):
        check_masker(NoisyLinearMasker(image_shape=(4, 4)), n_features=H * W)
    with pytest.raises(ValueError, match="at least 2 training rows"):
        NoisyLinearMasker().fit(X_TRAIN[:1])
    with pytest.raises(InvalidParameterError):
        NoisyLinearMasker(noise=-1.0).fit(X_TRAIN)
    masker = NoisyLinearMasker(noise=0.2, n_draws=3)
    assert clone(masker).get_params() == masker.get_params()


def test_affine_closed_form_equals_the_model():
    w, c = np.array([1.0, -2.0, 0.5, 0.3]), 0.25
    model = LinearRegression().fit(X_TRAIN, X_TRAIN @ w + c)
    keep = np.array([[True, False, True, False], [False] * 4])
    masker = NoisyLinearMasker(noise=0.0).fit(X_TRAIN)
    closed = masker.evaluate(ExplainedOutput(model), X, keep)
    np.testing.assert_allclose(closed, masker.expected_rows(X, keep) @ model.coef_
                               + model.intercept_)
    # the noise has mean zero: the same expected rows with noise
    noisy = NoisyLinearMasker(noise=0.3, n_draws=2).fit(X_TRAIN)
    np.testing.assert_allclose(noisy.expected_rows(X, keep), masker.expected_rows(X, keep))


def test_equals_quantus_noisy_linear_imputation():
    pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                        "pip install quantus")
    from quantus.functions.perturb_func import noisy_linear_imputation

    rng = np.random.default_rng(5)
    images = rng.random((3, H * W))
    masker = NoisyLinearMasker(noise=0.0, image_shape=(H, W)).fit(images)
    for i in range(3):
        indices = np.sort(rng.choice(H * W, size=12, replace=False))
        keep = np.ones(H * W, bool)
        keep[indices] = False
        ours = masker.impute(images[i:i + 1], keep[None])[0, 0, 0]
        theirs = noisy_linear_imputation(images[i].reshape(1, H, W), indices, noise=0.0)
        np.testing.assert_allclose(ours, theirs.reshape(-1), atol=1e-10)


def test_dense_and_sparse_solvers_agree(monkeypatch):
    import sklearn_xai.masking._noisy_linear as module

    rng = np.random.default_rng(6)
    images = rng.random((6, H * W))
    removed = rng.random((6, H * W)) < rng.random((6, 1))
    dense = module._linear_fill(images, removed, module._neighbour_table(H, W))
    monkeypatch.setattr(module, "_DENSE_MAX", 0)
    sparse = module._linear_fill(images, removed, module._neighbour_table(H, W))
    np.testing.assert_allclose(dense, sparse, atol=1e-12)
    # Rows sharing a mask are solved together: each equals its solve alone.
    same = np.repeat(removed[:1], 6, axis=0)
    together = module._linear_fill(images, same, module._neighbour_table(H, W))
    for i in range(6):
        alone = module._linear_fill(images[i:i + 1], same[i:i + 1],
                                    module._neighbour_table(H, W))
        np.testing.assert_array_equal(together[i], alone[0])
