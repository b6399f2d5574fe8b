"""OpenXAI / BEExAI preprocessing pipelines and the correlation filter."""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import TransformedTargetRegressor
from sklearn.linear_model import LinearRegression
from sklearn.preprocessing import MinMaxScaler, QuantileTransformer

from sklearn_xai.datasets._preprocessing import (
    CorrelationFilter,
    DatetimeFeatures,
    beexai_preprocessor,
    minmax_scale_target,
    openxai_preprocessor,
    openxai_split,
)
from sklearn_xai.datasets._real import load_diamonds, load_german_credit

# ---------------------------------------------------------------------------
# CorrelationFilter
# ---------------------------------------------------------------------------

# Zero-mean orthogonal columns: corr(u, u + v) = corr(v, u + v) = 1/sqrt(2),
# corr(u, v) = corr(u, w) = corr(v, w) = 0.
U = np.array([1.0, -1.0, 1.0, -1.0])
V = np.array([1.0, 1.0, -1.0, -1.0])
W = np.array([1.0, -1.0, -1.0, 1.0])
CHAIN = np.column_stack([U, U + V, V, W, np.full(4, 3.0)])  # a, b, c, d, constant


@pytest.mark.parametrize(
    "convention, threshold, expected",
    [
        ("paper", 0.7, [True, False, True, True, True]),         # c's partner b dropped
        ("beexai_code", 0.7, [True, False, False, True, True]),  # BEExAI drops c via b
        ("paper", 0.71, [True] * 5),                             # strict ">" threshold
        ("beexai_code", 0.0, [True, False, False, True, True]),  # zero corr never counts
    ],
)
def test_correlation_filter_hand_made_chain(convention, threshold, expected):
    selector = CorrelationFilter(threshold, convention=convention).fit(CHAIN)
    assert selector.get_support().tolist() == expected
    np.testing.assert_allclose(selector.correlation_[0, 1], 1 / np.sqrt(2))
    np.testing.assert_allclose(selector.correlation_[0, 2], 0.0, atol=1e-12)
    assert np.isnan(selector.correlation_[0, 4])  # constant column
    np.testing.assert_array_equal(selector.transform(CHAIN),
                                  CHAIN[:, np.array(expected)])


def _beexai_reference(frame, threshold):
    """BEExAI's DataCleaner.remove_correlated_features (library 0.0.6)."""
    corr_matrix = frame.corr().abs()
    upper = corr_matrix.where(np.triu(np.ones(corr_matrix.shape), k=1).astype(bool))
    to_drop = [c for c in upper.columns if any(upper[c] > threshold)]
    return [c for c in frame.columns if c not in to_drop]


def test_correlation_filter_matches_beexai_code_on_random_data():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(200, 3))
    mix = rng.normal(size=(3, 8))
    frame = pd.DataFrame(base @ mix + 0.3 * rng.normal(size=(200, 8)),
                         columns=[f"f{j}" for j in range(8)])
    for threshold in (0.3, 0.5, 0.7, 0.9):
        selector = CorrelationFilter(threshold, convention="beexai_code").fit(frame)
        assert list(selector.get_feature_names_out()) == _beexai_reference(frame,
                                                                          threshold)
        kept = frame.loc[:, CorrelationFilter(threshold).fit(frame).get_support()]
        corr = kept.corr().abs().to_numpy()
        assert (corr[np.triu_indices_from(corr, k=1)] <= threshold).all()


def test_correlation_filter_pandas_output_and_nan():
    frame = pd.DataFrame(CHAIN, columns=list("abcde"))
    frame.iloc[0, 3] = np.nan
    out = CorrelationFilter(0.7).set_output(transform="pandas").fit_transform(frame)
    assert list(out.columns) == ["a", "c", "d", "e"]
    with pytest.raises(ValueError, match="threshold"):
        CorrelationFilter(1.5).fit(CHAIN)


# scikit-learn's estimator checks of CorrelationFilter, DatetimeFeatures and of
# what openxai_preprocessor / beexai_preprocessor return run in
# tests/test_common.py, with every other estimator of the package.


# ---------------------------------------------------------------------------
# DatetimeFeatures
# ---------------------------------------------------------------------------


def test_datetime_features_parse_and_expand():
    X = pd.DataFrame({"v": [1.0, 2.0],
                      "when": ["2021-03-04 05:06:07", "2022-12-31 23:00:00"]})
    step = DatetimeFeatures(columns=["when"]).fit(X)
    out = step.transform(X)
    assert list(out.columns) == ["v", "when_year", "when_month", "when_day",
                                 "when_hour"]
    assert out.iloc[1, 1:].tolist() == [2022, 12, 31, 23]
    assert list(step.get_feature_names_out()) == list(out.columns)
    assert X.columns.tolist() == ["v", "when"]  # input untouched
    array = np.ones((2, 3))
    np.testing.assert_array_equal(DatetimeFeatures().fit(array).transform(array), array)
    with pytest.raises(ValueError, match="fitted on other columns"):
        step.transform(X[["when", "v"]])
    with pytest.raises(ValueError, match="not columns of X"):
        DatetimeFeatures(columns=["nope"]).fit(X)


# ---------------------------------------------------------------------------
# OpenXAI
# ---------------------------------------------------------------------------


def test_openxai_preprocessor_on_german_credit():
    bunch = load_german_credit(as_frame=True, include_sensitive=True)
    X = bunch.data
    pre = openxai_preprocessor().set_output(transform="pandas")
    Z = pre.fit_transform(X)
    numeric = list(X.select_dtypes(include="number").columns)
    categorical = list(X.select_dtypes(include="category").columns)
    n_levels = sum(X[c].nunique() for c in categorical)
    assert Z.shape == (1000, len(numeric) + n_levels)
    assert list(Z.columns) == list(pre.get_feature_names_out())
    assert list(Z.columns[: len(numeric)]) == numeric
    age = X["age"].to_numpy(dtype=float)
    np.testing.assert_allclose(Z["age"], (age - age.min()) / (age.max() - age.min()))
    # one active level per categorical attribute
    np.testing.assert_array_equal(Z.iloc[:, len(numeric):].sum(axis=1),
                                  np.full(1000, len(categorical)))
    assert Z["purpose_education"].sum() == (X["purpose"] == "education").sum()

    dropped = openxai_preprocessor(drop="first").fit_transform(X)
    assert dropped.shape[1] == Z.shape[1] - len(categorical)


def test_openxai_preprocessor_array_input_and_train_scaling():
    frame = load_german_credit(as_frame=True)
    array = load_german_credit()
    mask = array.feature_types == "categorical"
    Z_frame = openxai_preprocessor().fit_transform(frame.data)
    Z_array = openxai_preprocessor(categorical_features=mask).fit_transform(array.data)
    assert Z_frame.shape == Z_array.shape
    n_numeric = int((~mask).sum())
    np.testing.assert_allclose(Z_frame[:, :n_numeric], Z_array[:, :n_numeric])
    np.testing.assert_allclose(np.sort(Z_frame[:, n_numeric:].sum(axis=0)),
                               np.sort(Z_array[:, n_numeric:].sum(axis=0)))

    train = pd.DataFrame({"x": [0.0, 10.0], "c": ["a", "b"]})
    test = pd.DataFrame({"x": [20.0, 5.0], "c": ["b", "z"]})
    pre = openxai_preprocessor(categorical_features=["c"]).fit(train)
    np.testing.assert_allclose(pre.transform(test), [[2.0, 0.0, 1.0], [0.5, 0.0, 0.0]])
    with pytest.raises(ValueError, match="not a column"):
        openxai_preprocessor(categorical_features=["nope"]).fit(train)


def test_openxai_split():
    X = np.arange(200).reshape(100, 2)
    y = np.r_[np.zeros(70, int), np.ones(30, int)]
    groups = np.arange(100)
    X_tr, X_te, y_tr, y_te, g_tr, g_te = openxai_split(X, y, groups)
    assert X_tr.shape == (80, 2) and X_te.shape == (20, 2)
    assert int(y_te.sum()) == 6 and int(y_tr.sum()) == 24  # stratified 30 %
    np.testing.assert_array_equal(X_te[:, 0] // 2, g_te)  # rows stay aligned
    again = openxai_split(X, y, groups)
    np.testing.assert_array_equal(again[1], X_te)


# ---------------------------------------------------------------------------
# BEExAI
# ---------------------------------------------------------------------------


def test_beexai_preprocessor_hand_case():
    X = pd.DataFrame({
        "v": [1.0, 3.0, 2.0, 5.0],
        "flag": [0, 1, 1, 0],             # integer with |x| < 2: not scaled
        "cut": ["b", "a", "c", "a"],      # 3 levels: ordinal codes, scaled
        "yes_no": ["n", "y", "y", "n"],   # 2 levels: codes 0/1, not scaled
        "count": [0, 4, 2, 8],            # integer with |x| >= 2: scaled
    })
    pre = beexai_preprocessor(scaler="minmax").set_output(transform="pandas")
    Z = pre.fit_transform(X)
    assert list(Z.columns) == ["v", "count", "cut", "yes_no", "flag"]
    assert list(Z.columns) == list(pre.get_feature_names_out())
    np.testing.assert_allclose(Z["v"], [0.0, 0.5, 0.25, 1.0])
    np.testing.assert_allclose(Z["count"], [0.0, 0.5, 0.25, 1.0])
    np.testing.assert_allclose(Z["cut"], [0.5, 0.0, 1.0, 0.0])  # a=0, b=1, c=2
    np.testing.assert_allclose(Z["yes_no"], [0.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(Z["flag"], [0, 1, 1, 0])
    unseen = pre.transform(X.assign(cut=["zz", "a", "a", "a"]))
    assert unseen["cut"].iloc[0] == -0.5  # unknown -> -1, then scaled

    onehot = beexai_preprocessor(scaler=None, categorical_encoder="onehot")
    onehot.set_output(transform="pandas")
    Z = onehot.fit_transform(X)
    assert list(Z.columns) == ["v", "count", "cut_a", "cut_b", "cut_c",
                               "yes_no_n", "yes_no_y", "flag"]
    np.testing.assert_array_equal(Z["v"], X["v"])


@pytest.mark.filterwarnings("ignore:n_quantiles:UserWarning")
def test_beexai_preprocessor_quantile_and_datetime():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({
        "a": rng.exponential(size=50),
        "b": rng.normal(size=50),
        "when": pd.date_range("2020-01-01", periods=50, freq="37h"),
    })
    pre = beexai_preprocessor(random_state=0).set_output(transform="pandas")
    Z = pre.fit_transform(X)
    assert list(Z.columns) == ["a", "b", "when_year", "when_month", "when_day",
                               "when_hour"]
    parts = pd.DataFrame({
        "a": X["a"], "b": X["b"], "when_year": X["when"].dt.year,
        "when_month": X["when"].dt.month, "when_day": X["when"].dt.day,
        "when_hour": X["when"].dt.hour,
    })
    # BEExAI's benchmark: QuantileTransformer(output_distribution="normal")
    reference = QuantileTransformer(n_quantiles=50, output_distribution="normal",
                                    random_state=0).fit_transform(parts)
    np.testing.assert_allclose(Z.to_numpy(), reference, atol=1e-12)


def test_beexai_preprocessor_on_diamonds():
    X = load_diamonds(as_frame=True).data.iloc[:3000]
    pre = beexai_preprocessor(random_state=0).set_output(transform="pandas")
    Z = pre.fit_transform(X)
    assert Z.shape == (3000, 9)  # BEExAI Table 5 keeps 9 features
    # Normal output: the zero baseline is each feature's median (about half
    # the rows on either side), not its minimum as with uniform output.
    below = (Z.to_numpy() < 0).mean(axis=0)
    np.testing.assert_allclose(below, 0.5, atol=0.06)
    uniform = beexai_preprocessor(scaler="quantile_uniform", random_state=0).fit_transform(X)
    assert uniform.min() == 0.0 and (uniform < 0).sum() == 0
    # carat, x, y and z are correlated above 0.9: the filter keeps carat
    filtered = beexai_preprocessor(correlation_threshold=0.9).fit(X)
    names = list(filtered.get_feature_names_out())
    assert "carat" in names and not {"x", "y", "z"} & set(names)


def test_minmax_scale_target_matches_transformed_target_regressor():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    y = X @ [1.0, -2.0, 0.5] + 100.0
    y_train, y_test = y[:20], y[20:]
    s_train, s_test = minmax_scale_target(y_train, y_test)
    np.testing.assert_allclose(s_train.min(), 0.0)
    np.testing.assert_allclose(s_train.max(), 1.0)
    span = y_train.max() - y_train.min()
    np.testing.assert_allclose(s_test, (y_test - y_train.min()) / span)
    wrapped = TransformedTargetRegressor(LinearRegression(),
                                         transformer=MinMaxScaler()).fit(X[:20], y_train)
    direct = LinearRegression().fit(X[:20], s_train)
    np.testing.assert_allclose(wrapped.regressor_.coef_, direct.coef_)
    only = minmax_scale_target([2.0, 4.0])
    np.testing.assert_allclose(only, [0.0, 1.0])


# ---------------------------------------------------------------------------
# Hostile inputs: NaN, sparse, empty and 1-D X
# ---------------------------------------------------------------------------

PREPROCESSORS = [
    pytest.param(openxai_preprocessor, id="openxai"),
    pytest.param(lambda: beexai_preprocessor(random_state=0), id="beexai"),
    pytest.param(lambda: beexai_preprocessor(random_state=0, datetime_features=None),
                 id="beexai-no-dates"),
]


@pytest.mark.parametrize("make", [
    pytest.param(openxai_preprocessor, id="openxai"),
    pytest.param(lambda: beexai_preprocessor(scaler="minmax"), id="beexai"),
    pytest.param(lambda: beexai_preprocessor(scaler="minmax", categorical_encoder="onehot",
                                             datetime_features=None), id="beexai-onehot"),
])
def test_preprocessors_pass_nan_through_as_missing(make):
    """NaN is a missing value, as in sklearn's scalers and encoders: it stays
    NaN in its (scaled) numeric column, and a missing category is a level of
    its own (one-hot) or NaN (ordinal); the other values are unchanged.  (A
    quantile transform would place the other values differently: its number
    of quantiles counts the rows with NaN.)"""
    X = pd.DataFrame({"x": [0.0, 1.0, np.nan, 2.0, 4.0],
                      "c": ["a", "b", None, "a", "b"]})
    before = X.copy()
    Z = make().set_output(transform="pandas").fit_transform(X)
    pd.testing.assert_frame_equal(X, before)  # user data untouched
    assert np.isnan(Z["x"].iloc[2]) and not Z["x"].drop(index=2).isna().any()
    clean = make().set_output(transform="pandas").fit_transform(X.drop(index=2))
    np.testing.assert_allclose(Z["x"].drop(index=2), clean["x"])


@pytest.mark.parametrize("make", PREPROCESSORS)
def test_preprocessors_reject_sparse_empty_and_1d_input_clearly(make):
    import scipy.sparse as sp

    X = np.random.RandomState(0).rand(20, 3)
    with pytest.raises(TypeError, match=r"[Ss]parse.*toarray\(\)"):
        make().fit(sp.csr_matrix(X))
    with pytest.raises(ValueError, match=r"0 sample\(s\) \(shape=\(0, 3\)\)"):
        make().fit(np.empty((0, 3)))
    with pytest.raises(ValueError, match=r"0 feature\(s\) \(shape=\(5, 0\)\)"):
        make().fit(np.empty((5, 0)))
    with pytest.raises(ValueError, match=r"(?s)Expected 2D array, got 1D.*Reshape your data"):
        make().fit(X[:, 0])
    pre = make().fit(X)
    with pytest.raises(ValueError, match=r"(?s)Expected 2D array, got 1D.*Reshape your data"):
        pre.transform(X[0])
    with pytest.raises(ValueError, match=r"0 sample\(s\) \(shape=\(0, 3\)\)"):
        pre.transform(np.empty((0, 3)))
    with pytest.raises(ValueError, match="infinity"):
        make().fit(np.where(X > 0.9, np.inf, X))


