"""The code conventions of the faithfulness family, round two: XAI-Bench's
fresh conditional sample per value in faith± / mono±
(``convention="xai_bench_code"``) and BEExAI's slope indicator in AUC-TP's
regression curve (``convention="beexai_code"``), against hand computations."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression

from sklearn_xai.datasets import MultivariateGaussian
from sklearn_xai.masking import BaselineMasker, ConditionalMasker
from sklearn_xai.metrics import auc_tp, faith_minus, faith_plus, mono_minus, mono_plus
from sklearn_xai.utils import RowStreams


class _Tanh(RegressorMixin, BaseEstimator):
    """A non-affine regressor (no closed-form values: the draws matter)."""

    def fit(self, X, y=None):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        X = np.asarray(X)
        return np.tanh(X @ np.linspace(2.0, -1.0, X.shape[1])) + 0.3 * X[:, 0] ** 2


def _setup(d=5, n=12):
    dist = MultivariateGaussian.equicorrelated(d, rho=0.3)
    X = dist.sample(n, random_state=0)
    A = np.random.default_rng(1).normal(size=(n, d))
    return dist, X, _Tanh().fit(X), A


XB_METRICS = [mono_minus, mono_plus, faith_minus, faith_plus]


@pytest.mark.parametrize("metric", XB_METRICS, ids=lambda m: m.__name__)
def test_xai_bench_code_draws_a_fresh_sample_per_value(metric):
    """``convention="xai_bench_code"`` with a distribution is the same as
    passing ``ConditionalMasker(distribution, n_draws, draws="per_coalition")``;
    the paper convention shares the draws (``draws="shared"``)."""
    dist, X, model, A = _setup()
    kw = dict(n_draws=30, random_state=4)
    code = metric(model, X, A, distribution=dist, convention="xai_bench_code", **kw)
    code_masker = metric(model, X, A, convention="xai_bench_code", random_state=4,
                         masker=ConditionalMasker(dist, 30, draws="per_coalition"))
    np.testing.assert_array_equal(code, code_masker)
    paper = metric(model, X, A, distribution=dist, **kw)
    shared = metric(model, X, A, random_state=4,
                    masker=ConditionalMasker(dist, 30, draws="shared"))
    np.testing.assert_array_equal(paper, shared)
    if metric in (faith_minus, faith_plus):
        # For faith± the convention changes only the draws.
        assert not np.array_equal(code, paper)
        per_coalition = metric(model, X, A, random_state=4,
                               masker=ConditionalMasker(dist, 30, draws="per_coalition"))
        np.testing.assert_array_equal(code, per_coalition)


def test_xai_bench_code_values_are_independent_estimates():
    """The situation behind XAI-Bench's mono- with the index bug: two steps
    that add features the model ignores estimate the same value.  With
    per-coalition draws the two estimates are independent, their difference
    has the closed-form variance 2 Var(f | x_S) / n_draws; shared draws
    make it exactly 0."""
    class OnlyFirst(_Tanh):
        def predict(self, X):
            return np.asarray(X)[:, 0] ** 3  # depends on feature 0 only

    dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    x = np.array([[0.0, 1.0, 2.0]])
    model = OnlyFirst().fit(x)
    # Coalitions {2} and {1, 2}: f = X_0^3 with X_0 ~ N(0, 1) drawn in both,
    # E = 0 and Var(X_0^3) = E[X^6] = 15.
    b, n_rows = 20, 800
    X = np.repeat(x, n_rows, axis=0)
    keep = np.array([[False, False, True], [False, True, True]])
    for draws, expected in (("per_coalition", 2 * 15.0 / b), ("shared", 0.0)):
        masker = ConditionalMasker(dist, b, draws=draws).fit(X)
        V = masker.evaluate(lambda Z, t: model.predict(Z), X, keep,
                            rngs=RowStreams(0, np.arange(n_rows)))
        diff_var = np.var(V[:, 0] - V[:, 1], ddof=1)
        if expected == 0.0:
            assert diff_var == 0.0
        else:
            # X^3 is heavy-tailed: kurtosis of a mean of 20 draws; a loose band.
            assert 0.7 * expected < diff_var < 1.3 * expected


def test_xai_bench_code_keeps_a_given_masker_and_interventional_values():
    dist, X, model, A = _setup()
    masker = ConditionalMasker(dist, 10)  # shared: used as given
    a = mono_minus(model, X, A, masker=masker, convention="xai_bench_code", random_state=0)
    b = mono_minus(model, X, A, masker=ConditionalMasker(dist, 10),
                   convention="xai_bench_code", random_state=0)
    np.testing.assert_array_equal(a, b)
    inter_code = faith_plus(model, X, A, distribution=dist, value="interventional",
                            n_draws=10, random_state=0, convention="xai_bench_code")
    inter = faith_plus(model, X, A, distribution=dist, value="interventional",
                       n_draws=10, random_state=0)
    np.testing.assert_array_equal(inter_code, inter)


def test_xai_bench_code_checks_the_distribution():
    dist, X, model, A = _setup()
    with pytest.raises(ValueError, match="distribution has 4 features but X has 5"):
        mono_minus(model, X, A, distribution=MultivariateGaussian.equicorrelated(4, rho=0),
                   convention="xai_bench_code")
    with pytest.raises(TypeError, match="distribution must be"):
        faith_minus(model, X, A, distribution="gaussian", convention="xai_bench_code")


# ----------------------------------------------------------------- AUC-TP
def test_auc_tp_beexai_code_slope_indicator_by_hand():
    """One row of ones, f(x) = w.x with w (in removal order) 2, -1, 2, -3, 7,
    zero baseline: removing the top t features changes f by the partial sums
    s = 0, 2, 1, 3, 0 (t = 0..4), so MSE = 0, 4, 1, 9, 0.

    c = MSE + 0.01 * mean(MSE) = MSE + 0.028.  Indicator (interior t with
    c_{t+1} > c_{t-1}): t=1: 1.028 > 0.028 yes; t=2: 9.028 > 4.028 yes;
    t=3: 0.028 > 1.028 no; t=0 and t=4: 0.  g = (0, 1/4.028, 1/1.028, 0, 0),
    min-max: (0, 1.028/4.028, 1, 0, 0); trapz = 1.028/4.028 + 1; / d = 5.
    """
    w = np.array([2.0, -1.0, 2.0, -3.0, 7.0])
    rng = np.random.default_rng(0)
    Xfit = rng.normal(size=(50, 5))
    model = LinearRegression().fit(Xfit, Xfit @ w)
    x = np.ones((1, 5))
    A = np.array([[5.0, 4.0, 3.0, 2.0, 1.0]])  # remove features 0, 1, 2, 3
    expected = (1.028 / 4.028 + 1.0) / 5
    got = auc_tp(model, x, A, masker=BaselineMasker("zero"), convention="beexai_code")
    assert got == pytest.approx(expected, rel=1e-6)
    # Without the indicator t = 0 (MSE 0) would dominate: 1/0.028 normalises
    # to 1 and the score would be far from the hand value.
    c = np.array([0.0, 4.0, 1.0, 9.0, 0.0]) + 0.028
    g = 1 / c
    no_indicator = np.trapezoid((g - g.min()) / (g.max() - g.min())) / 5
    assert abs(no_indicator - expected) > 0.04


def test_auc_tp_beexai_code_flat_curve_scores_zero():
    """A model that ignores every feature: MSE = 0 everywhere, no point
    rises, the score is 0 (not NaN)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    model = LinearRegression().fit(X, np.full(20, 3.0))
    model.coef_[:] = 0.0
    score = auc_tp(model, X, rng.normal(size=(20, 4)), convention="beexai_code")
    assert score == 0.0
