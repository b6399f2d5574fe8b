"""Explainers on a raw DataFrame: string and categorical columns are
explained as they are, and the user's Pipeline is called on DataFrames with
its own columns and dtypes."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from sklearn_xai.explainers import (
    ExactShapley,
    FeatureAblation,
    KernelSHAP,
    Saliency,
    ShapleyValueSampling,
)
from sklearn_xai.masking import BaselineMasker, MarginalMasker


def _frame(n=60, seed=0):
    rng = np.random.RandomState(seed)
    return pd.DataFrame({
        "size": rng.choice(["small", "medium", "large"], n),
        "colour": pd.Categorical(rng.choice(["red", "blue", "green"], n)),
        "x": rng.randn(n),
        "k": rng.randint(0, 5, n),
    })


def _additive_pipeline(df):
    effects = {"small": 0.0, "medium": 1.0, "large": 3.0}
    y = (df["size"].map(effects) + 2 * df["x"] - df["k"]
         + 1.5 * (df["colour"] == "red")).to_numpy(float)
    ct = ColumnTransformer([("cat", OneHotEncoder(), ["size", "colour"])],
                           remainder="passthrough")
    return make_pipeline(ct, LinearRegression()).fit(df, y)


def _per_column_effects(pipe, df):
    """g_j(x_j) of the additive pipeline, read from its coefficients."""
    ct, lr = pipe[0], pipe[-1]
    names = list(ct.get_feature_names_out())
    coef = dict(zip(names, lr.coef_))
    G = np.zeros((len(df), 4))
    for j, col in enumerate(["size", "colour"]):
        G[:, j] = [coef[f"cat__{col}_{v}"] for v in df[col].astype(str)]
    G[:, 2] = coef["remainder__x"] * df["x"].to_numpy()
    G[:, 3] = coef["remainder__k"] * df["k"].to_numpy()
    return G


@pytest.mark.parametrize("make", [
    lambda m, bg: ExactShapley(m, masker=MarginalMasker(background=bg)),
    lambda m, bg: KernelSHAP(m, masker=MarginalMasker(background=bg), random_state=0),
    lambda m, bg: ShapleyValueSampling(m, masker=MarginalMasker(background=bg),
                                       n_permutations=20, random_state=0),
], ids=["ExactShapley", "KernelSHAP", "ShapleyValueSampling"])
def test_additive_pipeline_per_raw_column_closed_form(make):
    """For f(x) = sum_j g_j(x_j) + c the interventional Shapley value of raw
    column j is g_j(x_j) - mean_b g_j(b_j) over the background rows."""
    df = _frame()
    pipe = _additive_pipeline(df)
    background = df.iloc[:25]
    ex = make(FrozenEstimator(pipe), background).fit(df)
    ex.set_output(transform="pandas")
    A = ex.transform(df.iloc[30:40])
    assert list(A.columns) == ["size", "colour", "x", "k"]
    G = _per_column_effects(pipe, df.iloc[30:40])
    expected = G - _per_column_effects(pipe, background).mean(axis=0)
    np.testing.assert_allclose(A.to_numpy(), expected, atol=1e-8)
    # The user's frame is not modified.
    pd.testing.assert_frame_equal(df, _frame())


class _DtypeSpy(RegressorMixin, BaseEstimator):
    """Records the frames it is called on; predicts the wrapped model."""

    def __init__(self, model=None):
        self.model = model

    def fit(self, X, y=None):
        self.calls_ = []
        self.is_fitted_ = True
        self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        return self

    def predict(self, X):
        self.calls_.append(X)
        return self.model.predict_proba(X)[:, 1]


def test_model_is_called_on_frames_with_the_users_dtypes():
    """HistGradientBoosting with native categorical support reads the
    categories from the dtype: the explainer must hand it the same dtypes."""
    df = _frame(120, seed=1)
    y = ((df["colour"] == "red") ^ (df["x"] > 0)).astype(int)
    hgb = HistGradientBoostingClassifier(categorical_features="from_dtype", max_iter=20,
                                         random_state=0).fit(df[["colour", "x", "k"]], y)
    X = df[["colour", "x", "k"]]
    spy = _DtypeSpy(hgb).fit(X)
    ex = FeatureAblation(FrozenEstimator(spy), masker=MarginalMasker(background=X[:10]))
    A = ex.fit(X).transform(X[:5])
    assert spy.calls_, "the model was never called"
    for frame in spy.calls_:
        assert isinstance(frame, pd.DataFrame)
        assert list(frame.columns) == ["colour", "x", "k"]
        assert frame.dtypes.equals(X.dtypes)
    # Occlusion by the background, computed directly on DataFrames.
    x, bg = X[:5].reset_index(drop=True), X[:10].reset_index(drop=True)
    f = hgb.predict_proba(x)[:, 1]
    expected = np.empty((5, 3))
    for j, col in enumerate(X.columns):
        for i in range(5):
            Z = pd.concat([x.iloc[[i]]] * len(bg), ignore_index=True)
            Z[col] = bg[col].to_numpy()
            Z[col] = Z[col].astype(X[col].dtype)
            expected[i, j] = f[i] - hgb.predict_proba(Z)[:, 1].mean()
    np.testing.assert_allclose(A, expected, atol=1e-12)


def test_explainers_that_average_values_refuse_text_columns():
    df = _frame()
    pipe = _additive_pipeline(df)
    for ex in (FeatureAblation(FrozenEstimator(pipe), masker=BaselineMasker("mean")),
               Saliency(FrozenEstimator(pipe))):
        with pytest.raises(ValueError, match=r"non-numeric column\(s\) \['size', 'colour'\]"
                           r"[\s\S]*MarginalMasker"):
            ex.fit(df)


def test_unseen_category_and_missing_column_are_named():
    df = _frame()
    pipe = _additive_pipeline(df)
    ex = ExactShapley(FrozenEstimator(pipe), masker=MarginalMasker(background=df[:10]))
    ex.fit(df)
    bad = df.iloc[:3].copy()
    bad.loc[bad.index[0], "size"] = "huge"
    with pytest.raises(ValueError, match=r"column 'size' has value\(s\) \['huge'\]"):
        ex.transform(bad)
    with pytest.raises(ValueError, match=r"lacks the fitted column\(s\) \['k'\]"):
        ex.transform(df.drop(columns="k"))
    with pytest.raises(TypeError, match="pass a DataFrame"):
        ex.transform(df.to_numpy())
