"""The public protocol of the distributions: what maskers and generators call,
and what a user subclass must implement."""

import numpy as np
import pytest
from scipy.special import ndtr

import sklearn_xai.datasets as datasets
from sklearn_xai.distributions import BaseDistribution, GaussianMixture, MultivariateGaussian
from sklearn_xai.masking import ConditionalMasker
from sklearn_xai.utils import RowStreams, row_generators, row_keys


class IndependentUniform(BaseDistribution):
    """Independent U(0, 1) features: only the two hooks are implemented."""

    def __init__(self, n_features):
        self.n_features = n_features

    def _impute(self, X, mask, Z, u, interventional):
        out = np.repeat(X[:, None, :], Z.shape[1], axis=1)
        out[:, :, ~mask] = ndtr(Z[:, :, ~mask])
        return out

    def _expected_rows(self, X, mask, interventional):
        return np.where(mask, X, 0.5)


def test_old_import_path_reexports_the_same_classes():
    assert datasets.MultivariateGaussian is MultivariateGaussian
    assert datasets.GaussianMixture is GaussianMixture
    assert issubclass(MultivariateGaussian, BaseDistribution)
    assert issubclass(GaussianMixture, BaseDistribution)


def test_base_class_is_abstract():
    with pytest.raises(TypeError):
        BaseDistribution()


def test_standard_draws_are_per_row_and_normals_first():
    mix = GaussianMixture([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]], np.eye(2))
    gauss = MultivariateGaussian(np.zeros(2), np.eye(2))
    rngs = row_generators(0, [5, 7])
    Z, u = mix.standard_draws(rngs, 4)
    assert Z.shape == (2, 4, 2) and u.shape == (2, 4)
    assert np.all((u >= 0) & (u < 1))
    # a row's normals come from its own generator, before its uniforms
    Z2, u2 = gauss.standard_draws(row_generators(0, [7]), 4)
    np.testing.assert_array_equal(Z2[0], Z[1])
    assert not u2.any()


def test_impute_coalitions_and_expected_rows_match_the_conditional():
    dist = MultivariateGaussian.equicorrelated(3, rho=0.6)
    X = dist.sample(4, random_state=0)
    keep = np.array([[True, False, False], [False, True, True], [False] * 3])
    keep = np.broadcast_to(keep, (4, 3, 3))
    Z, u = dist.standard_draws(row_generators(1, row_keys(X)), 2000)
    rows = dist.impute_coalitions(X, keep, Z, u)
    assert rows.shape == (4, 3, 2000, 3)
    for k, mask in enumerate(keep[0]):
        np.testing.assert_array_equal(rows[:, k][..., mask],
                                      np.broadcast_to(X[:, None, mask], (4, 2000, mask.sum())))
        expected = dist.expected_rows(X, mask)
        np.testing.assert_allclose(expected, dist.conditional_mean(X, mask))
        np.testing.assert_allclose(rows[:, k].mean(axis=1), expected, atol=0.1)
    # interventional: the free features' marginal mean, whatever x_S
    inter = dist.expected_rows(X, [0], interventional=True)
    np.testing.assert_allclose(inter[:, 1:], 0.0)
    with pytest.raises(ValueError, match="boolean keep"):
        dist.impute_coalitions(X, keep.astype(int), Z, u)


def test_user_subclass_works_with_maskers_and_sampling():
    dist = IndependentUniform(2)
    X = dist.sample(500, random_state=0)
    assert X.shape == (500, 2) and np.all((X >= 0) & (X < 1))
    np.testing.assert_allclose(X.mean(axis=0), 0.5, atol=0.05)
    np.testing.assert_allclose(dist.conditional_mean([[0.9, 0.2]], [1]), [[0.5, 0.2]])
    masker = ConditionalMasker(dist, n_draws=4000).fit(X[:2])
    # f(z) = z0 * z1: v_x({0}) = x0 / 2 (Monte Carlo), and in closed form for
    # an affine f
    v = masker.evaluate(lambda Z, t: Z[:, 0] * Z[:, 1], [[0.8, 0.3]], [[True, False]],
                        rngs=RowStreams(0, [0]))
    np.testing.assert_allclose(v, [[0.4]], atol=0.02)

    class Affine:
        coef_ = np.array([1.0, 2.0])
        intercept_ = 0.5

    np.testing.assert_allclose(masker.evaluate(Affine(), [[0.8, 0.3]], [[True, False]]),
                               [[0.8 + 1.0 + 0.5]])
    with pytest.raises(NotImplementedError, match="conditional_sample"):
        dist.conditional([0.1, 0.2], [0])
    with pytest.raises(NotImplementedError, match="marginal_sample"):
        dist.marginal([0])


def test_conditional_expectation_batches_subsets_into_few_model_calls():
    from sklearn_xai.distributions import MultivariateGaussian

    dist = MultivariateGaussian(np.zeros(3), [[1.0, 0.5, 0.2], [0.5, 1.0, 0.3],
                                              [0.2, 0.3, 1.0]])
    X = np.random.RandomState(0).randn(4, 3)
    calls = []

    def f(Z):
        calls.append(len(Z))
        return np.tanh(Z).sum(axis=1) * Z[:, 0]

    masks = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 0]], dtype=bool)
    values = dist.conditional_expectation(f, X, masks, n_draws=50, random_state=0)
    assert calls == [4 * 4 * 50]  # every subset's draws in one call
    for j, mask in enumerate(masks):  # same numbers as one subset at a time
        np.testing.assert_allclose(
            dist.conditional_expectation(f, X, mask, n_draws=50, random_state=0),
            values[:, j], rtol=1e-12)
    calls.clear()
    dist.conditional_expectation(f, X, masks, n_draws=50, random_state=0, batch_size=300)
    assert max(calls) <= 300
