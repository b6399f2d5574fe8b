import numpy as np
import pytest

from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.utils import RowStreams, row_keys


def _rngs(X, seed=0):
    return RowStreams(seed, row_keys(X))


@pytest.fixture
def mixed():
    rng = np.random.default_rng(0)
    cont = rng.normal(0.0, [1.0, 3.0], size=(200, 2))
    binary = rng.integers(0, 2, size=(200, 1)).astype(float)
    cat = np.eye(3)[rng.integers(0, 3, size=200)]
    return np.hstack([cont, binary, cat])


def test_fit_learns_scales_and_binary_features(mixed):
    p = GaussianNoisePerturber(0.1, onehot_groups=[[3, 4, 5]]).fit(mixed)
    np.testing.assert_allclose(p.scale_[:2], 0.1 * mixed[:, :2].std(axis=0))
    assert p.scale_[2:].tolist() == [0.0] * 4
    assert p.binary_mask_.tolist() == [False, False, True, False, False, False]
    assert p.flip_prob_ == pytest.approx(0.1 * np.sqrt(2 / np.pi))
    absolute = GaussianNoisePerturber(0.3, sigma_scale="absolute").fit(mixed)
    assert absolute.scale_[:2].tolist() == [0.3, 0.3]
    explicit = GaussianNoisePerturber(binary_features=[0]).fit(mixed)
    assert explicit.binary_mask_[0] and not explicit.binary_mask_[2]
    none = GaussianNoisePerturber(binary_features=None).fit(mixed)
    assert not none.binary_mask_.any()


def test_continuous_noise_is_gaussian_with_the_right_scale():
    X = np.array([[1.0, -2.0, 5.0]])
    p = GaussianNoisePerturber(0.5, sigma_scale="absolute",
                               binary_features=None).fit(X)
    Z = p.perturb(X, [False, True, False], 20000, _rngs(X))
    assert Z.shape == (1, 20000, 3)
    assert np.all(Z[0, :, 1] == -2.0)
    noise = Z[0, :, [0, 2]] - X[0, [0, 2]][:, None]
    np.testing.assert_allclose(noise.mean(axis=1), 0.0, atol=0.02)
    np.testing.assert_allclose(noise.std(axis=1), 0.5, rtol=0.03)
    assert abs(np.corrcoef(noise)[0, 1]) < 0.03


def test_binary_flip_rate_equals_sigma_sqrt_2_over_pi():
    X = np.array([[0.0, 1.0]])
    p = GaussianNoisePerturber(0.5, sigma_scale="absolute").fit(np.array([[0, 1], [1, 0.0]]))
    Z = p.perturb(X, np.zeros(2, bool), 40000, _rngs(X))
    assert set(np.unique(Z)) <= {0.0, 1.0}
    rate = (Z[0] != X[0]).mean(axis=0)
    np.testing.assert_allclose(rate, 0.5 * np.sqrt(2 / np.pi), atol=0.01)


def test_onehot_group_moves_to_a_uniform_other_category(mixed):
    p = GaussianNoisePerturber(flip_prob=0.6, onehot_groups=[[3, 4, 5]]).fit(mixed)
    x = np.array([[0.0, 0.0, 0.0, 0.0, 1.0, 0.0]])
    Z = p.perturb(x, np.zeros(6, bool), 30000, _rngs(x))[0]
    cats = Z[:, 3:]
    assert np.all(cats.sum(axis=1) == 1.0) and set(np.unique(cats)) == {0.0, 1.0}
    freq = cats.mean(axis=0)
    np.testing.assert_allclose(freq, [0.3, 0.4, 0.3], atol=0.015)
    # A group with a fixed column does not move.
    fixed = np.zeros(6, bool)
    fixed[3] = True
    Z = p.perturb(x, fixed, 500, _rngs(x))[0]
    assert np.all(Z[:, 3:] == x[0, 3:])


def test_onehot_fixed_columns_restores_only_the_fixed_columns(mixed):
    # OpenXAI's NewDiscrete_NormalPerturbation: the group moves (probability
    # p, to a uniform other category) as if free, then the column mask
    # restores the fixed columns.  Category 4 is active; p = 0.6.
    x = np.array([[0.0, 0.0, 0.0, 0.0, 1.0, 0.0]])
    p = GaussianNoisePerturber(flip_prob=0.6, onehot_groups=[[3, 4, 5]],
                               onehot_fixed="columns").fit(mixed)
    n = 40000
    # The active column fixed: it stays 1; each other category turns on
    # with probability 0.6 / 2, so two categories are on with probability 0.6.
    fixed = np.zeros(6, bool)
    fixed[4] = True
    Z = p.perturb(x, fixed, n, _rngs(x))[0][:, 3:]
    assert np.all(Z[:, 1] == 1.0)
    np.testing.assert_allclose(Z[:, [0, 2]].mean(axis=0), [0.3, 0.3], atol=0.01)
    np.testing.assert_allclose((Z.sum(axis=1) == 2).mean(), 0.6, atol=0.01)
    # An inactive column fixed: it stays 0; a move towards it leaves no
    # category on (probability 0.3), a move to the third one moves the row.
    fixed = np.zeros(6, bool)
    fixed[3] = True
    Z = p.perturb(x, fixed, n, _rngs(x))[0][:, 3:]
    assert np.all(Z[:, 0] == 0.0)
    np.testing.assert_allclose((Z.sum(axis=1) == 0).mean(), 0.3, atol=0.01)
    np.testing.assert_allclose(Z[:, 2].mean(), 0.3, atol=0.01)
    np.testing.assert_allclose(Z[:, 1].mean(), 0.4, atol=0.01)
    # The default keeps such a group still; with no fixed column both agree
    # draw for draw (the same random numbers).
    group = GaussianNoisePerturber(flip_prob=0.6, onehot_groups=[[3, 4, 5]]).fit(mixed)
    assert np.all(group.perturb(x, fixed, 200, _rngs(x))[0][:, 3:] == x[0, 3:])
    free = np.zeros(6, bool)
    np.testing.assert_array_equal(p.perturb(x, free, 300, _rngs(x)),
                                  group.perturb(x, free, 300, _rngs(x)))


def test_clip_keeps_the_training_range():
    X = np.array([[0.0], [1.0]])
    p = GaussianNoisePerturber(5.0, sigma_scale="absolute", clip=True,
                               binary_features=None).fit(X)
    Z = p.perturb(X, [False], 200, _rngs(X))
    assert Z.min() >= 0.0 and Z.max() <= 1.0 and np.any(Z == 1.0)
    unclipped = GaussianNoisePerturber(5.0, sigma_scale="absolute",
                                       binary_features=None).fit(X)
    assert unclipped.perturb(X, [False], 200, _rngs(X)).max() > 1.0


def test_rows_depend_only_on_their_generator(mixed):
    p = GaussianNoisePerturber(onehot_groups=[[3, 4, 5]]).fit(mixed)
    X = mixed[:7]
    full = p.perturb(X, np.zeros(6, bool), 5, _rngs(X))
    rev = p.perturb(X[::-1], np.zeros(6, bool), 5, _rngs(X[::-1]))
    np.testing.assert_array_equal(full, rev[::-1])
    single = p.perturb(X[3:4], np.zeros(6, bool), 5, _rngs(X[3:4]))
    np.testing.assert_array_equal(full[3], single[0])


def test_several_masks_share_their_draws():
    X = np.array([[0.0, 0.0, 0.0]])
    p = GaussianNoisePerturber(1.0, sigma_scale="absolute", binary_features=None).fit(
        np.array([[0.0, 0, 0], [1, 2, 3]]))
    masks = np.array([[[True, False, False], [False, True, True]]])
    Z = p.perturb(X, masks, 10, _rngs(X))
    assert Z.shape == (1, 2, 10, 3)
    np.testing.assert_array_equal(Z[0, 0, :, 0], 0.0)
    np.testing.assert_array_equal(Z[0, 1, :, 1:], 0.0)
    # the free entries of the two masks come from one draw
    free_first = p.perturb(X, [False, False, False], 10, _rngs(X))[0]
    np.testing.assert_array_equal(Z[0, 0, :, 1:], free_first[:, 1:])
    np.testing.assert_array_equal(Z[0, 1, :, 0], free_first[:, 0])


def test_input_is_not_mutated(mixed):
    X = mixed[:3].copy()
    before = X.copy()
    GaussianNoisePerturber().fit(X).perturb(X, np.zeros(6, bool), 3, _rngs(X))
    np.testing.assert_array_equal(X, before)


@pytest.mark.parametrize(
    "kwargs, match",
    [({"onehot_groups": [[0]]}, "onehot_groups"),
     ({"onehot_groups": [[0, 1], [1, 2]]}, "disjoint"),
     ({"binary_features": [True, False]}, "boolean mask"),
     ({"binary_features": [9]}, "column indices"),
     ({"onehot_fixed": "feature"}, "onehot_fixed")],
)
def test_fit_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        GaussianNoisePerturber(**kwargs).fit(np.zeros((3, 3)))


def test_perturb_errors():
    X = np.zeros((2, 3))
    p = GaussianNoisePerturber().fit(X)
    with pytest.raises(ValueError, match="rngs must cover the 2 rows"):
        p.perturb(X, np.zeros(3, bool), 2, _rngs(X[:1]))
    # One type crosses the interface: a list of numpy generators is refused.
    with pytest.raises(TypeError, match="rngs must be a sklearn_xai.utils.RowStreams"):
        p.perturb(X, np.zeros(3, bool), 2, _rngs(X).generators())
    with pytest.raises(ValueError, match="keep_fixed_mask"):
        p.perturb(X, np.zeros(4, bool), 2, _rngs(X))
    with pytest.raises(ValueError, match="n_perturbations"):
        p.perturb(X, np.zeros(3, bool), 0, _rngs(X))
    with pytest.raises(ValueError, match="shape"):
        p.perturb(np.zeros((2, 4)), np.zeros(3, bool), 2, _rngs(X))


# ------------------------------------------- set up without training rows
def test_fit_without_rows_sets_only_what_needs_no_data(mixed):
    # What metrics do when they have no training rows: never look at the
    # scored rows, so nothing depends on which rows are scored together.
    p = GaussianNoisePerturber(0.3, sigma_scale="absolute", binary_features=[2],
                               onehot_groups=[[3, 4, 5]])._fit_without_rows(6)
    assert p.n_features_in_ == 6
    assert p.scale_.tolist() == [0.3, 0.3, 0.0, 0.0, 0.0, 0.0]
    assert p.binary_mask_.tolist() == [False, False, True, False, False, False]
    assert p.flip_prob_ == pytest.approx(0.3 * np.sqrt(2 / np.pi))
    # it perturbs exactly as the same perturber fitted on any rows would
    fitted = GaussianNoisePerturber(0.3, sigma_scale="absolute", binary_features=[2],
                                    onehot_groups=[[3, 4, 5]]).fit(mixed)
    X = mixed[:4]
    np.testing.assert_array_equal(
        p.perturb(X, np.zeros(6, bool), 5, _rngs(X)),
        fitted.perturb(X, np.zeros(6, bool), 5, _rngs(X)))


def test_fit_without_rows_auto_binary_finds_none_and_warns():
    with pytest.warns(UserWarning, match="binary_features='auto'"):
        p = GaussianNoisePerturber(0.1, sigma_scale="absolute")._fit_without_rows(3)
    assert not p.binary_mask_.any() and p.scale_.tolist() == [0.1] * 3


@pytest.mark.parametrize("kwargs, match", [
    ({}, 'sigma_scale="std"'),
    ({"sigma_scale": "absolute", "clip": True}, "clip=True"),
])
def test_fit_without_rows_refuses_what_needs_training_rows(kwargs, match):
    with pytest.raises(ValueError, match=match):
        GaussianNoisePerturber(binary_features=None, **kwargs)._fit_without_rows(3)
