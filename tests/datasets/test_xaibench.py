"""XAI-Bench generators: label functions, ground truth, normalisation, errors."""

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.datasets import (
    exact_shapley_values,
    make_gaussian_linear,
    make_gaussian_nonlinear_additive,
    make_gaussian_piecewise_constant,
    make_linear_attribution,
    make_mixture_linear,
    make_mixture_nonlinear_additive,
    make_mixture_piecewise_constant,
)
from sklearn_xai.datasets._xaibench import _psi_functions

GAUSSIAN = [make_gaussian_linear, make_gaussian_piecewise_constant,
            make_gaussian_nonlinear_additive]
MIXTURE = [make_mixture_linear, make_mixture_piecewise_constant,
           make_mixture_nonlinear_additive]


def test_linear_labels_and_ground_truth():
    data = make_gaussian_linear(2000, rho=0.5, mean=1.0, noise=0.0, random_state=0)
    X, y, lf = data.data, data.target, data.label_function
    w = np.array([4.0, 3.0, 2.0, 1.0, 0.0])
    raw = X @ w
    m, s = raw.mean(), raw.std()
    np.testing.assert_allclose(y, (raw - m) / s)
    assert (lf.loc, lf.scale) == pytest.approx((m, s))
    # interventional ground truth (w_j (x_j - mu_j)) / s, whatever the correlation
    np.testing.assert_allclose(data.ground_truth, w * (X - 1.0) / s, atol=1e-12)
    np.testing.assert_array_equal(data.ground_truth_mask,
                                  np.tile([True] * 4 + [False], (2000, 1)))
    np.testing.assert_allclose(lf.coef_, w / s)
    # feature moments
    np.testing.assert_allclose(X.mean(0), 1.0, atol=0.06)
    corr = np.corrcoef(X.T)[np.triu_indices(5, 1)]
    np.testing.assert_allclose(corr, 0.5, atol=0.05)


def test_frozen_normalisation_single_row_equals_batch():
    for make in GAUSSIAN + MIXTURE:
        data = make(300, random_state=1)
        lf = data.label_function
        batch = lf(data.data)
        single = np.array([lf(data.data[i : i + 1])[0] for i in range(5)])
        np.testing.assert_allclose(single, batch[:5], rtol=0, atol=1e-12)
        # labels = oracle + noise / scale
        assert np.std(data.target - batch) == pytest.approx(0.01 / lf.scale, rel=0.2)
        # a row's label does not depend on the other rows of its batch
        new = data.distribution.sample(50, random_state=2)
        mixed = lf(np.vstack([new, data.data[:3]]))
        np.testing.assert_allclose(mixed[-3:], batch[:3], rtol=0, atol=1e-12)


def test_xai_bench_code_reproduces_per_batch_zscoring():
    data = make_gaussian_linear(200, random_state=0, convention="xai_bench_code")
    new = data.distribution.sample(30, random_state=3)
    labels = data.label_function(new)
    assert labels.mean() == pytest.approx(0.0, abs=1e-12)
    assert labels.std() == pytest.approx(1.0)
    with np.errstate(invalid="ignore"):
        assert np.isnan(data.label_function(new[:1])[0])
    assert not hasattr(data.label_function, "coef_")


def test_piecewise_components_paper_and_code():
    t = np.array([-0.75, -0.25, 0.25, 0.75, 0.5, 1.0, 2.0 / 3.0 + 0.01, 0.0])
    paper, _ = _psi_functions("piecewise_constant", 3, None, "paper", "regression")
    code, _ = _psi_functions("piecewise_constant", 3, None, "xai_bench_code",
                             "regression")
    np.testing.assert_array_equal(paper[0](t), [-1, -1, 1, 1, 1, 1, 1, 1])
    np.testing.assert_array_equal(paper[1](t), [-2, -1, 1, 2, 2, 2, 2, 1])
    np.testing.assert_array_equal(code[1](t), [-2, 0, 1, 2, 2, 2, 2, 1])
    # trunc(2 cos(pi t)): 0 at 0.5 (cos = 0), -2 at 1, -1 past 2/3, 2 at 0
    np.testing.assert_array_equal(paper[2](t), [-1, 1, 1, -1, 0, -2, -1, 2])
    np.testing.assert_array_equal(code[2](t), [-1, 1, 1, -1, 1, -1, -1, 1])


@pytest.mark.parametrize("kind, variant, task", [
    ("piecewise_constant", "paper", "regression"),
    ("piecewise_constant", "xai_bench_code", "regression"),
    ("nonlinear_additive", "paper", "regression"),
    ("nonlinear_additive", "xai_bench_code", "regression"),
    ("nonlinear_additive", "paper", "classification"),
])
def test_component_expectations_match_monte_carlo(kind, variant, task):
    psis, _ = _psi_functions(kind, 4 if kind == "nonlinear_additive" else 3, None,
                             variant, task)
    rng = np.random.default_rng(0)
    for mu, sd in [(0.0, 1.0), (0.7, 0.5), (-1.3, 2.0)]:
        t = mu + sd * rng.standard_normal(400_000)
        for psi in psis:
            mc = psi(t).mean()
            se = psi(t).std() / np.sqrt(t.size)
            assert psi.expectation(mu, sd**2) == pytest.approx(mc, abs=5 * se + 1e-9)
        # zero variance: the value at the mean
        assert psis[0].expectation(mu, 0.0) == pytest.approx(float(psis[0](mu)))


def test_nonlinear_variants_mirror_feature_four():
    paper = make_gaussian_nonlinear_additive(50, random_state=0, noise=0.0)
    code = make_gaussian_nonlinear_additive(50, random_state=0, noise=0.0,
                                            convention="xai_bench_code")
    np.testing.assert_array_equal(paper.data, code.data)
    x4 = paper.data[:, 3]
    np.testing.assert_allclose(paper.ground_truth[:, 3] * paper.label_function.scale,
                               np.exp(x4) - np.exp(0.5))
    np.testing.assert_allclose(code.ground_truth[:, 3] * code.label_function.scale,
                               np.exp(-x4) - np.exp(0.5))
    np.testing.assert_allclose(paper.ground_truth[:, 4], 0.0)


def test_observational_equals_interventional_when_independent():
    for make in GAUSSIAN:
        a = make(40, rho=0.0, gt_value="interventional", random_state=0)
        b = make(40, rho=0.0, gt_value="observational", random_state=0)
        np.testing.assert_allclose(a.ground_truth, b.ground_truth, atol=1e-10)


def test_observational_linear_ground_truth_matches_exact_shapley():
    data = make_gaussian_linear(20, rho=0.6, gt_value="observational", random_state=0)
    lf = data.label_function
    ref = exact_shapley_values(lf, data.data, data.distribution)  # closed form via coef_
    assert ref.n_model_rows == 0
    np.testing.assert_allclose(data.ground_truth, ref.attributions, atol=1e-10)
    # and it is not the interventional one
    assert not np.allclose(data.ground_truth, lf.attributions(data.data), atol=1e-3)


@pytest.mark.parametrize("make", [make_gaussian_nonlinear_additive,
                                  make_mixture_piecewise_constant])
def test_observational_ground_truth_matches_monte_carlo(make):
    data = make(3, n_features=4, rho=0.5, gt_value="observational", random_state=0)
    lf = data.label_function
    mc = exact_shapley_values(lf.decision_function, data.data, data.distribution,
                              n_draws=20_000, random_state=0)
    np.testing.assert_allclose(data.ground_truth, mc.attributions, atol=0.05)
    # efficiency: sum of the exact values = h(x) - E[h(X)], a constant shift
    resid = data.ground_truth.sum(1) - lf(data.data)
    assert np.ptp(resid) < 1e-9


def test_mixture_rows_draw_their_own_component():
    data = make_mixture_linear(4000, rho=0.25, random_state=0)
    side = data.data.mean(axis=1) > 0
    assert abs(side.mean() - 0.5) < 0.03
    data = make_mixture_linear(4000, component_weights=[0.8, 0.2], random_state=0)
    assert abs((data.data.mean(axis=1) > 0).mean() - 0.8) < 0.03
    # interventional ground truth centres on the mixture mean
    lf = data.label_function
    mu = data.distribution.mean
    np.testing.assert_allclose(data.ground_truth, lf.coef_ * (data.data - mu), atol=1e-10)


def test_classification_variants():
    lin = make_gaussian_linear(4000, task="classification", random_state=0)
    assert set(np.unique(lin.target)) == {0, 1}
    assert abs(lin.target.mean() - 0.5) < 0.03
    np.testing.assert_array_equal(lin.label_function(lin.data),
                                  (lin.data @ [4, 3, 2, 1, 0] >= 0).astype(int))
    assert lin.label_function.scale == 1.0
    nl = make_gaussian_nonlinear_additive(500, task="classification", noise=0.0,
                                          random_state=0)
    x = nl.data
    z = -100 * np.sin(2 * x[:, 0]) + 2 * np.abs(x[:, 1]) + x[:, 2] + np.exp(-x[:, 3]) - 2.4
    np.testing.assert_array_equal(nl.target, (z >= 0).astype(int))
    np.testing.assert_allclose(nl.label_function.decision_function(x), z)


def test_shuffle_keeps_rows_aligned_and_seeds_reproduce():
    a = make_gaussian_piecewise_constant(100, rho=0.3, random_state=0)
    b = make_gaussian_piecewise_constant(100, rho=0.3, random_state=0)
    c = make_gaussian_piecewise_constant(100, rho=0.3, random_state=1)
    np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(a.target, b.target)
    assert not np.allclose(a.data, c.data)
    np.testing.assert_allclose(a.ground_truth, a.label_function.attributions(a.data),
                               atol=1e-12)
    ordered = make_gaussian_piecewise_constant(100, rho=0.3, random_state=0,
                                               shuffle=False)
    assert not np.array_equal(ordered.data, a.data)
    np.testing.assert_allclose(np.sort(ordered.target), np.sort(a.target))


def test_return_x_y_and_as_frame():
    X, y = make_mixture_nonlinear_additive(30, random_state=0, return_X_y=True)
    assert X.shape == (30, 5) and y.shape == (30,)
    data = make_gaussian_linear(30, n_features=3, random_state=0, as_frame=True)
    assert isinstance(data.data, pd.DataFrame) and isinstance(data.target, pd.Series)
    assert list(data.data.columns) == data.feature_names == ["x0", "x1", "x2"]
    assert list(data.ground_truth.columns) == data.feature_names
    assert "XAI-Bench" in data.DESCR
    assert data.parameters["rho"] == 0.0


def test_make_linear_attribution():
    data = make_linear_attribution(300, 4, weights=[1.0, 0.0, -2.0, 0.5],
                                   mean=[1.0, 2.0, 3.0, 4.0], rho=0.3, random_state=0)
    w = np.array([1.0, 0.0, -2.0, 0.5])
    np.testing.assert_allclose(data.target, data.data @ w)
    np.testing.assert_allclose(data.ground_truth, w * (data.data - [1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(data.ground_truth_mask[0], w != 0)
    res = exact_shapley_values(data.label_function, data.data[:5], data.distribution,
                               value="interventional")
    np.testing.assert_allclose(res.attributions, data.ground_truth[:5], atol=1e-12)
    drawn = make_linear_attribution(10, 3, random_state=0)
    np.testing.assert_array_equal(drawn.coef, make_linear_attribution(
        10, 3, random_state=0).coef)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(rho=-0.3), ValueError, r"-1/\(n_features-1\) < rho < 1"),
        (dict(rho=1.0), InvalidParameterError, "rho"),
        (dict(n_samples=0), InvalidParameterError, "n_samples"),
        (dict(task="ranking"), InvalidParameterError, "task"),
        (dict(weights=[1.0, 2.0]), ValueError,
         "weights must have n_features=5 entries"),
        (dict(weights=[1.0, 2.0, 0.0, 0.0, np.nan]), ValueError,
         "weights must hold finite numbers"),
        (dict(convention="code"), InvalidParameterError, "convention"),
        (dict(rho=0.5, cov=np.eye(5)), ValueError, "either rho"),
        (dict(mean=[0.0, 1.0]), ValueError, "mean must be a number"),
        (dict(n_samples=1), ValueError, "n_samples >= 2"),
        (dict(n_features=17, gt_value="observational"), ValueError,
         "gt_value='interventional'"),
    ],
)
def test_parameter_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_gaussian_linear(**{"n_samples": 20, **kwargs})


def test_mixture_parameter_errors():
    with pytest.raises(ValueError, match="component_means must have shape"):
        make_mixture_linear(20, component_means=np.zeros((2, 3)))
    with pytest.raises(ValueError, match="sum to 1"):
        make_mixture_linear(20, component_weights=[0.5, 0.6])


@pytest.mark.parametrize("make", [make_gaussian_piecewise_constant,
                                  make_mixture_nonlinear_additive,
                                  make_gaussian_linear, make_mixture_linear])
def test_code_convention_is_recorded_and_normalises_per_batch(make):
    kw = dict(n_samples=60, n_features=4, random_state=0)
    code = make(convention="xai_bench_code", **kw)
    paper = make(**kw)
    assert code.parameters["convention"] == "xai_bench_code"
    assert paper.parameters["convention"] == "paper"
    assert code.label_function.batch_norm and not paper.label_function.batch_norm
