"""Time-series generators and the UCR/UEA loader.

The ground truth is checked independently: the planted shapes against their
closed forms, the Bayes rule of the additive noise model (its accuracy
``Phi(a |s| / sigma)`` and the logistic coefficients ``2 a s / sigma**2``),
a model implementing the rule exactly scoring perfectly on the masks and a
rule-ignoring one at chance level; the loader against tiny files written in
the archives' exact formats."""

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.datasets import load_ucr_uea, make_timeseries_classification
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker, check_groups
from sklearn_xai.metrics import (
    mask_average_precision,
    mask_iou,
    mask_roc_auc,
    relevance_mass_accuracy,
)


def _closed_form_shape(kind, w):
    t = np.arange(w)
    u = (t + 0.5) / w
    if kind == "bump":
        return np.exp(-8 * (u - 0.5) ** 2)
    if kind == "level_shift":
        return np.ones(w)
    return np.array([1, -1, -1, 1] * w)[:w] * np.sin(np.pi * u)


@pytest.mark.parametrize("shape", ["bump", "level_shift", "frequency_burst"])
def test_planted_signal_and_mask_closed_form(shape):
    C, T, w, a = 3, 30, 8, 2.5
    data = make_timeseries_classification(
        40, n_timesteps=T, n_channels=C, n_informative_channels=2, shape=shape,
        window=w, window_start=5, amplitude=a, random_state=0)
    assert data.series_shape == (C, T) and data.data.shape == (40, C * T)
    s = _closed_form_shape(shape, w)
    for i in range(40):
        G = data.signal[i].reshape(C, T)  # channel-major columns
        M = data.ground_truth_mask[i].reshape(C, T)
        sign = 2 * data.target[i] - 1
        expected = np.zeros((C, T))
        expected[:2, 5:5 + w] = sign * a * s
        np.testing.assert_allclose(G, expected, atol=1e-12)
        np.testing.assert_array_equal(M, expected != 0)
    # the groups of the Bunch are the windows of w steps, per channel
    names, owner = check_groups(data.window_groups, C * T)
    assert len(names) == C * int(np.ceil(T / w))


@pytest.mark.parametrize("background", ["noise", "trend", "seasonal",
                                        "trend_seasonal", "random_walk"])
def test_background_is_independent_of_the_class(background):
    data = make_timeseries_classification(
        400, n_timesteps=24, window=4, background=background, random_state=1)
    B = data.data - data.signal
    # same background law in both classes: close means and spreads
    b0, b1 = B[data.target == 0], B[data.target == 1]
    assert abs(b0.mean() - b1.mean()) < 0.15
    assert abs(b0.std() / b1.std() - 1) < 0.1
    assert data.ground_truth is None
    if background == "noise":
        assert abs(B.std() - 1) < 0.03 and abs(B.mean()) < 0.03


def test_bayes_rule_of_the_additive_noise_model():
    # x = b + (2y - 1) a s with b ~ N(0, sigma^2 I): the log-odds are
    # 2 a <s, x> / sigma^2, and the Bayes accuracy is Phi(a |s| / sigma).
    a, sigma, w, T = 0.5, 1.5, 6, 16
    data = make_timeseries_classification(
        6000, n_timesteps=T, window=w, window_start=3, amplitude=a, noise=sigma,
        random_state=2)
    s = np.zeros(T)
    s[3:3 + w] = _closed_form_shape("bump", w)
    X, y = data.data, data.target
    accuracy = np.mean((X @ s > 0) == (y == 1))
    expected = norm.cdf(a * np.linalg.norm(s) / sigma)
    assert abs(accuracy - expected) < 3 * np.sqrt(expected * (1 - expected) / len(y))
    coef = LogisticRegression(C=1e4).fit(X, y).coef_[0]
    np.testing.assert_allclose(coef, 2 * a * s / sigma ** 2, atol=0.1)


def _rule_model(data, weights):
    """A logistic model with the given coefficients (no fitting)."""
    model = LogisticRegression()
    model.classes_ = np.array([0, 1])
    model.coef_ = weights[None, :]
    model.intercept_ = np.zeros(1)
    return FrozenEstimator(model)


def test_rule_model_is_perfectly_plausible_and_a_rule_ignoring_one_at_chance():
    data = make_timeseries_classification(
        300, n_timesteps=40, n_channels=2, window=8, window_start="random",
        shape="frequency_burst", random_state=3)
    X, M = data.data[:150], data.ground_truth_mask[:150]
    # The rule, per row: the planted signal's own sign pattern.  Occluding
    # time step j of w.x (zero baseline) leaves w_j x_j: on the window only.
    A = data.signal[:150] * X  # f_i(x) = <s_i, x>, FeatureAblation closed form
    masker = BaselineMasker("zero")
    for metric in (mask_average_precision, mask_iou, relevance_mass_accuracy):
        np.testing.assert_allclose(metric(M, A), 1.0)
    # the same through the explainer, for one fixed window position
    fixed = make_timeseries_classification(
        60, n_timesteps=40, window=8, window_start=10, random_state=4)
    w = fixed.signal[fixed.target == 1][0]
    ex = FeatureAblation(_rule_model(fixed, w), masker=masker).fit(fixed.data)
    A = ex.transform(fixed.data[:20])
    np.testing.assert_allclose(mask_average_precision(fixed.ground_truth_mask[:20], A), 1)
    # Models ignoring the rule (random weights on every step, one model per
    # row): their gradients do not follow the window, so the scores are at
    # chance level.
    rng = np.random.default_rng(0)
    gradient = rng.normal(size=X.shape)
    auc = mask_roc_auc(M, gradient)
    assert abs(auc.mean() - 0.5) < 4 * auc.std() / np.sqrt(len(auc))
    share = M.sum(axis=1) / M.shape[1]
    assert mask_average_precision(M, gradient).mean() < 3 * share.mean()


def test_generator_rejects_inconsistent_sizes():
    with pytest.raises(ValueError, match="n_informative_channels"):
        make_timeseries_classification(10, n_channels=1, n_informative_channels=2)
    with pytest.raises(ValueError, match="window_start"):
        make_timeseries_classification(10, n_timesteps=20, window=5, window_start=18)


# ------------------------------------------------------------------ loader
TS_UNIVARIATE = """# A comment line
@problemName Tiny
@timeStamps false
@missing false
@univariate true
@equalLength true
@seriesLength 4
@classLabel true 1 2
@data
1.0,2.0,3.0,4.0:1
0.5,0.25,0,-1:2
"""

TS_MULTIVARIATE = """@problemName TinyMulti
@timeStamps false
@missing true
@univariate false
@dimensions 2
@equalLength false
@classLabel true up down
@data
1,2,3:4,5,6:up
7,?:8,9:down
"""

ARFF_UNIVARIATE = """% Weka file
@relation Tiny
@attribute att0 numeric
@attribute att1 numeric
@attribute att2 numeric
@attribute target {a,b}
@data
1,2,3,a
4,5,6,b
"""

ARFF_MULTIVARIATE = """@relation TinyMulti
@attribute relationalAtt relational
@attribute t1 numeric
@attribute t2 numeric
@end relationalAtt
@attribute activity {x,y}
@data
'1,2\\n3,4\\n5,6',x
'0,0\\n1,1\\n2,2',y
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_load_ts_univariate(tmp_path):
    data = load_ucr_uea(_write(tmp_path, "Tiny_TRAIN.ts", TS_UNIVARIATE))
    np.testing.assert_array_equal(data.data, [[1, 2, 3, 4], [0.5, 0.25, 0, -1]])
    assert data.target.tolist() == ["1", "2"] and data.series_shape == (1, 4)
    assert data.problem_name == "Tiny" and data.header["univariate"] == "true"


def test_load_ts_multivariate_unequal_and_missing(tmp_path):
    data = load_ucr_uea(_write(tmp_path, "TinyMulti_TEST.ts", TS_MULTIVARIATE))
    assert data.series_shape == (2, 3)
    # channel-major: channel 0 then channel 1; short channels padded with NaN
    np.testing.assert_array_equal(data.data, [[1, 2, 3, 4, 5, 6],
                                              [7, np.nan, np.nan, 8, 9, np.nan]])
    np.testing.assert_array_equal(data.lengths, [[3, 3], [2, 2]])
    assert data.target.tolist() == ["up", "down"]
    X, y = load_ucr_uea(tmp_path / "TinyMulti_TEST.ts", return_X_y=True)
    assert X.shape == (2, 6) and len(y) == 2


def test_load_arff_univariate_and_relational(tmp_path):
    data = load_ucr_uea(_write(tmp_path, "Tiny.arff", ARFF_UNIVARIATE))
    np.testing.assert_array_equal(data.data, [[1, 2, 3], [4, 5, 6]])
    assert data.target.tolist() == ["a", "b"] and data.series_shape == (1, 3)
    data = load_ucr_uea(_write(tmp_path, "TinyMulti.arff", ARFF_MULTIVARIATE))
    assert data.series_shape == (3, 2)
    np.testing.assert_array_equal(data.data, [[1, 2, 3, 4, 5, 6], [0, 0, 1, 1, 2, 2]])
    assert data.target.tolist() == ["x", "y"]


def test_loader_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="timeseriesclassification"):
        load_ucr_uea(tmp_path / "missing.ts")
    with pytest.raises(ValueError, match=".ts or .arff"):
        load_ucr_uea(_write(tmp_path, "x.csv", "1,2"))
    stamped = TS_UNIVARIATE.replace("@timeStamps false", "@timeStamps true")
    with pytest.raises(ValueError, match="timeStamps"):
        load_ucr_uea(_write(tmp_path, "s.ts", stamped))
