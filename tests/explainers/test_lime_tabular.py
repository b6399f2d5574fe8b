"""LimeTabular against the ``lime`` package run directly.

The perturbations ``lime`` draws are captured (its private
``__data_inverse`` wrapped) and given to our regression step; our own draws
are compared with ``lime``'s in distribution (bin frequencies and in-bin
moments, with tolerances from their standard errors) and with the exact
truncated-normal moments of ``scipy.stats.truncnorm``.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from sklearn.metrics import pairwise_distances

from sklearn_xai.explainers._lime import (
    LimeTabular,
    _lime_discretised_sample,
    _lime_gaussian_sample,
    _lime_surrogates,
)

lime_tabular = pytest.importorskip("lime.lime_tabular")


def _draw(sampler, tables, rows, seeds, N):
    """Our perturbations of ``rows``: design, model inputs and squared
    distances."""
    design, inverse = np.empty((2, len(rows), N, rows.shape[1]))
    dist2 = sampler(*tables, rows, [np.random.default_rng(s) for s in seeds],
                    design, inverse)
    # lime's distances: scikit-learn's pairwise Euclidean distances.
    for i in range(len(rows)):
        expected = pairwise_distances(design[i], design[i, :1]).ravel() ** 2
        np.testing.assert_allclose(dist2[i], expected, rtol=1e-10, atol=1e-10)
    return design, inverse


class CountingNonlinear(RegressorMixin, BaseEstimator):
    """Fixed model ``tanh(X @ w) + X0 * X1`` counting its predict calls."""

    def __init__(self, coef=(1.0, -0.5, 0.25, 0.5, 0.1)):
        self.coef = coef

    def fit(self, X, y=None):
        self.coef_ = np.asarray(self.coef, dtype=np.float64)
        self.n_features_in_ = len(self.coef_)
        self.n_predict_calls_ = 0
        return self

    def predict(self, X):
        self.n_predict_calls_ += 1
        X = np.asarray(X)
        return np.tanh(X @ self.coef_) + X[:, 0] * X[:, 1]


@pytest.fixture(scope="module")
def mixed_data():
    """Normal, skewed and tied columns (the tied one has a collapsed lowest
    bin, whose lime value is its standardised bound)."""
    rng = np.random.default_rng(0)
    return np.column_stack([
        rng.normal(size=300),
        rng.normal(size=300),
        rng.exponential(size=300),
        rng.normal(size=300),
        rng.integers(0, 3, size=300).astype(float),
    ])


def _lime_direct(X, row, predict, n_samples, seed, **params):
    """lime's ``explain_instance`` on one row: its coefficients, the
    perturbations it drew (``data``, ``inverse``) and the explainer."""
    d = X.shape[1]
    explainer = lime_tabular.LimeTabularExplainer(
        X, mode="regression", kernel_width=0.75 * np.sqrt(d),
        random_state=np.random.RandomState(seed), **params)
    draw = explainer._LimeTabularExplainer__data_inverse
    drawn = []

    def recording(data_row, num_samples):
        drawn.append(draw(data_row, num_samples))
        return drawn[-1]

    explainer._LimeTabularExplainer__data_inverse = recording
    exp = explainer.explain_instance(row, predict, num_features=d, num_samples=n_samples)
    coef = np.zeros(d)
    for j, value in exp.local_exp[1]:
        coef[j] = value
    data, inverse = drawn[0]
    return coef, data, inverse, explainer


@pytest.mark.parametrize(
    "params",
    [
        {"discretizer": "quartile", "feature_selection": "auto"},  # forward selection
        {"discretizer": "decile", "feature_selection": "none"},
        {"discretizer": "quartile", "feature_selection": "highest_weights"},
        {"discretize_continuous": False, "feature_selection": "auto"},
    ],
)
def test_regression_step_equals_lime_on_lime_perturbations(mixed_data, params):
    X = mixed_data
    model = CountingNonlinear().fit(X)
    for i, seed in ((0, 1), (7, 2)):
        coef, data, inverse, explainer = _lime_direct(
            X, X[i], model.predict, 400, seed, **params)
        # lime's surrogate features: the bin indicators (scaler 0/1) or the
        # standardised values.
        design = (data - explainer.scaler.mean_) / explainer.scaler.scale_
        ours = _lime_surrogates(design[None], model.predict(inverse)[None],
                                0.75 * np.sqrt(X.shape[1]))[0]
        np.testing.assert_allclose(ours, coef, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("discretizer", ["quartile", "decile"])
def test_discretised_design_is_lime_encoding_of_our_draws(mixed_data, discretizer):
    """Our indicators are lime's discretiser applied to our perturbations."""
    X = mixed_data[:, :4]  # no collapsed bin: every value lies in its bin
    ex = LimeTabular(CountingNonlinear(coef=(1.0,) * 4), discretizer=discretizer,
                     random_state=0).fit(X, X[:, 0])
    rows = X[:3]
    design, inverse = _draw(_lime_discretised_sample, (ex._bins,), rows, range(3), 500)
    discretizer = lime_tabular.LimeTabularExplainer(
        X, mode="regression", discretizer=discretizer).discretizer
    for i, row in enumerate(rows):
        np.testing.assert_array_equal(inverse[i, 0], row)
        expected = discretizer.discretize(inverse[i]) == discretizer.discretize(row)
        np.testing.assert_array_equal(design[i], expected)


def test_gaussian_design_is_lime_standardisation(mixed_data):
    X = mixed_data
    ex = LimeTabular(CountingNonlinear(), discretize_continuous=False).fit(X, X[:, 0])
    rows = X[:2]
    design, inverse = _draw(_lime_gaussian_sample, (ex._mean, ex._scale), rows,
                            range(2), 300)
    scaler = lime_tabular.LimeTabularExplainer(
        X, mode="regression", discretize_continuous=False).scaler
    np.testing.assert_array_equal(inverse[:, 0], rows)
    np.testing.assert_allclose(design, (inverse - scaler.mean_) / scaler.scale_,
                               rtol=1e-12, atol=1e-12)


def _moments_agree(ours, theirs, z=5.0, atol=1e-9):
    """Two-sample z-tests of the mean and the variance (standard errors from
    the fourth central moments)."""
    n1, n2 = len(ours), len(theirs)
    se_mean = np.sqrt(ours.var() / n1 + theirs.var() / n2)
    assert abs(ours.mean() - theirs.mean()) <= z * se_mean + atol

    def var_se2(x):
        c = x - x.mean()
        return max(np.mean(c**4) - np.mean(c**2) ** 2, 0.0) / len(x)

    se_var = np.sqrt(var_se2(ours) + var_se2(theirs))
    assert abs(ours.var() - theirs.var()) <= z * se_var + atol


def test_sampling_distribution_equals_lime(mixed_data):
    """Bin frequencies and in-bin moments of our draws and of lime's (a
    large sample each), and ours against truncnorm's exact moments.  The
    last column lives on a 1e-12 scale: lime's ``std + 1e-11`` makes its
    truncated normals narrow, which we draw by inversion."""
    rng = np.random.default_rng(1)
    X = np.column_stack([mixed_data[:, 2], mixed_data[:, 0], mixed_data[:, 4],
                         1e-12 * rng.normal(size=len(mixed_data))])
    M = 40_000
    ex = LimeTabular(CountingNonlinear(coef=(1.0,) * 4), random_state=0).fit(X, X[:, 0])
    assert ex._bins.invert[3].any() and not ex._bins.invert[:3].any()
    row = X[5]
    _, ours = _draw(_lime_discretised_sample, (ex._bins,), row[None], [3], M + 1)
    ours = ours[0, 1:]
    explainer = lime_tabular.LimeTabularExplainer(
        X, mode="regression", random_state=np.random.RandomState(4))
    _, theirs = explainer._LimeTabularExplainer__data_inverse(row, M + 1)
    theirs = theirs[1:]
    disc = explainer.discretizer
    # lime's values: in-bin draws, except the collapsed lowest bin of the
    # tied column, which yields its standardised bound (0 here) for both.
    bins_ours_all, bins_theirs_all = disc.discretize(ours), disc.discretize(theirs)
    assert disc.mins[2][0] == disc.maxs[2][0] == 0.0  # a collapsed bin
    for j in range(X.shape[1]):
        bins_ours, bins_theirs = bins_ours_all[:, j], bins_theirs_all[:, j]
        for k in range(len(disc.means[j])):
            p_ours, p_theirs = np.mean(bins_ours == k), np.mean(bins_theirs == k)
            p = (p_ours + p_theirs) / 2
            assert abs(p_ours - p_theirs) <= 5 * np.sqrt(p * (1 - p) * 2 / M) + 1e-12
            in_ours, in_theirs = ours[bins_ours == k, j], theirs[bins_theirs == k, j]
            if min(len(in_ours), len(in_theirs)) < 100:
                continue
            lo, hi = disc.mins[j][k], disc.maxs[j][k]
            mean, std = disc.means[j][k], disc.stds[j][k]
            _moments_agree((in_ours - mean) / std, (in_theirs - mean) / std)
            if lo == hi:
                continue
            exact = stats.truncnorm((lo - mean) / std, (hi - mean) / std, loc=mean, scale=std)
            n = len(in_ours)
            assert abs(in_ours.mean() - exact.mean()) <= 5 * exact.std() / np.sqrt(n)
            assert np.all((in_ours >= lo - 1e-9 * std) & (in_ours <= hi + 1e-9 * std))


def test_attributions_agree_with_lime_within_monte_carlo_error(mixed_data):
    """Same model and rows, independent random numbers: our mean over seeds
    and lime's mean over seeds differ by less than 5 standard errors."""
    X = mixed_data[:, :4]
    model = CountingNonlinear(coef=(1.0, -0.5, 0.25, 0.5)).fit(X)
    rows, N = X[:3], 2000
    ours = np.stack([
        LimeTabular(FrozenEstimator(model), n_perturbations=N, random_state=s)
        .fit(X).transform(rows) for s in range(10)])
    theirs = np.stack([
        np.stack([_lime_direct(X, row, model.predict, N, seed)[0] for row in rows])
        for seed in range(3)])
    sd = np.sqrt((ours.var(axis=0, ddof=1) * 9 + theirs.var(axis=0, ddof=1) * 2) / 11)
    se = sd * np.sqrt(1 / 10 + 1 / 3)
    diff = np.abs(ours.mean(axis=0) - theirs.mean(axis=0))
    assert np.all(diff <= 5 * se + 1e-6), (diff, se)
    # Attributions well above their Monte-Carlo error: the test has power.
    assert np.median(np.abs(theirs.mean(axis=0)) / se) > 5


@pytest.mark.parametrize("params", [{}, {"discretizer": "decile"},
                                    {"discretize_continuous": False}])
def test_row_attributions_do_not_depend_on_batch(mixed_data, params):
    X = mixed_data
    ex = LimeTabular(CountingNonlinear(), n_perturbations=150, random_state=5,
                     **params).fit(X, X[:, 0])
    rows = X[:10]
    A = ex.transform(rows)
    np.testing.assert_array_equal(ex.transform(rows[3:4]), A[3:4])
    np.testing.assert_array_equal(ex.transform(rows[::-1]), A[::-1])
    ex.set_params(batch_size=2)  # one row per block
    np.testing.assert_array_equal(ex.transform(rows), A)
    ex.set_params(batch_size=450)  # three rows per block
    np.testing.assert_array_equal(ex.transform(rows), A)


def test_model_called_once_per_block(mixed_data):
    X = mixed_data
    ex = LimeTabular(CountingNonlinear(), n_perturbations=100, random_state=0).fit(X, X[:, 0])
    A, n_eval = ex.explain(X[:10], return_n_evaluations=True)
    assert ex.estimator_.n_predict_calls_ == 1
    assert n_eval == 10 * 100
    ex.set_params(batch_size=300)  # 3 rows of 100 perturbations a block
    ex.fit(X, X[:, 0])
    np.testing.assert_array_equal(ex.transform(X[:10]), A)
    assert ex.estimator_.n_predict_calls_ == 4
