"""Rows that are constant in exact arithmetic but not in floating point
(sums of equal attributions taken in different orders, a constant saliency
map with rounding noise) have no defined correlation: NaN with an
UndefinedScoreWarning, never a score of the rounding noise.  Likewise the
attribution-only metrics on all-zero rows."""

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.metrics import (
    UndefinedScoreWarning,
    complexity,
    faithfulness_correlation,
    monotonicity_correlation,
    mprt,
    sensitivity_n,
    sparseness,
)
from sklearn_xai.utils._stats import nearly_constant, row_pearson, row_spearman

D = 10
RNG = np.random.default_rng(0)
X = RNG.normal(size=(60, D))
LINEAR = LinearRegression().fit(X, X @ np.arange(1.0, D + 1.0))
TENTHS = np.full((4, D), 0.1)  # every subset of size s has mass s / 10 exactly


def test_sums_of_tenths_are_constant_in_exact_arithmetic_only():
    # The premise of the tests below, checked with exact fractions: 0.1 + 0.2
    # is 0.3, but not in floating point.
    assert Fraction(1, 10) + Fraction(2, 10) == Fraction(3, 10)
    assert 0.1 + 0.2 != 0.3
    rows = np.array([[0.1 + 0.2, 0.3, 0.3],
                     [0.0, 0.0, 0.0], [1.0, 1.0 + 1e-6, 1.0], [1e-20, 2e-20, 3e-20]])
    np.testing.assert_array_equal(nearly_constant(rows), [True, True, False, False])


def test_row_pearson_and_spearman_nan_on_rounding_noise_and_match_scipy():
    u = np.array([0.1 + 0.2, 0.3, 0.3, 0.3])
    v = np.array([1.0, 3.0, 2.0, 5.0])
    assert np.ptp(u) > 0  # not exactly constant ...
    assert np.isnan(row_pearson(u, v))  # ... but constant up to rounding
    assert np.isnan(row_spearman(u, v))
    with pytest.warns(UndefinedScoreWarning, match="m is undefined for 1 of 1"):
        assert np.isnan(row_spearman(u[None], v[None], nan_policy="omit", what="m")[0])
    U, V = RNG.normal(size=(5, 7)), RNG.normal(size=(5, 7))
    U[0, :3] = U[0, 3]  # ties: average ranks, as scipy
    for i in range(5):
        assert row_spearman(U, V)[i] == pytest.approx(stats.spearmanr(U[i], V[i])[0])
        assert row_pearson(U, V)[i] == pytest.approx(stats.pearsonr(U[i], V[i])[0])


def test_faithfulness_correlation_constant_attributions_are_nan():
    with pytest.warns(UndefinedScoreWarning, match="4 of 4 rows"):
        s = faithfulness_correlation(LINEAR, X[:4], TENTHS, random_state=0)
    assert np.isnan(s).all()  # was about 1e-17 on every row


def test_sensitivity_n_constant_attributions_are_nan():
    with pytest.warns(UndefinedScoreWarning, match="4 of 4 rows"):
        s = sensitivity_n(LINEAR, X[:4], TENTHS, n_subsets=5, random_state=0)
    assert np.isnan(s).all()


def test_monotonicity_correlation_constant_attributions_are_nan():
    A = np.tile([0.1 + 0.2, 0.3], (4, D // 2))
    with pytest.warns(UndefinedScoreWarning, match="4 of 4 rows"):
        s = monotonicity_correlation(LINEAR, X[:4], A)
    assert np.isnan(s).all()


@pytest.mark.parametrize("subset_size", [D, D + 1, 1.0])
def test_faithfulness_correlation_refuses_removing_every_feature(subset_size):
    # Quantus refuses subset_size >= the number of features; so does
    # sensitivity_n (subset_sizes in [1, d - 1]).
    with pytest.raises(ValueError, match="subset_size"):
        faithfulness_correlation(LINEAR, X[:2], X[:2], subset_size=subset_size)
    with pytest.raises(ValueError, match="subset_sizes"):
        sensitivity_n(LINEAR, X[:2], X[:2], subset_sizes=D)
    # d - 1 features is the largest subset: still scored.
    s = faithfulness_correlation(LINEAR, X[:2], LINEAR.coef_ * X[:2],
                                 subset_size=D - 1, random_state=0)
    np.testing.assert_allclose(s, 1.0)  # exact attributions of a linear model


class _ConstantMap(BaseEstimator):
    """A saliency map constant up to rounding, whatever the model."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y=None):
        return self

    def explain(self, X, *, target=None, row_keys=None):
        row = np.resize([0.1 + 0.2, 0.3], np.shape(X)[1])
        return np.tile(row, (len(X), 1))

    def transform(self, X):
        return self.explain(X)


@pytest.mark.parametrize("similarity", ["spearman", "pearson"])
def test_mprt_of_a_constant_saliency_map_is_nan(similarity):
    y = (X[:, 0] > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    ex = _ConstantMap()
    with pytest.warns(UndefinedScoreWarning, match="3 of 3 rows"):
        s = mprt(model, X[:3], ex.explain(X[:3]), explainer=ex, similarity=similarity,
                 layers=None, random_state=0)
    assert np.isnan(s).all()  # spearman scored the noise's ranks: 1 here


def test_all_zero_rows_warn_in_complexity_and_sparseness():
    A = [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
    with pytest.warns(UndefinedScoreWarning, match="sparseness is undefined for 1 of 2"):
        s = sparseness(A)
    # Gini index of a one-hot row: 1 - 2 * (1 / 4) * (1 / 2) = 0.75.
    np.testing.assert_array_equal(s, [np.nan, 0.75])
    with pytest.warns(UndefinedScoreWarning, match="complexity is undefined for 1 of 2"):
        c = complexity(A)
    np.testing.assert_array_equal(c, [np.nan, 0.0])
    # BEExAI's code scores an all-zero row on purpose, without a warning:
    # 1 - 0 / 1e-8 = 1 for the Gini index, 0 for the entropy.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedScoreWarning)
        np.testing.assert_allclose(sparseness(A, convention="beexai_code"), [1.0, 0.75])
        np.testing.assert_allclose(complexity(A, convention="beexai_code")[0], 0.0)
