"""Feature groups as players: the masker-based explainers' ``groups``.

Every expected value is computed here directly: group Shapley values by
enumerating the group coalitions and calling the model on hand-built rows,
the closed form of an additive model, and occlusion of a group by masking
its columns by hand.
"""

import itertools
from math import factorial

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.compose import ColumnTransformer
from sklearn.frozen import FrozenEstimator
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from sklearn_xai.explainers import (
    ExactShapley,
    FeatureAblation,
    KernelSHAP,
    LeaveOneCovariateIn,
    ShapleyValueSampling,
)
from sklearn_xai.masking import BaselineMasker, MarginalMasker, check_groups, onehot_groups
from sklearn_xai.metrics import get_scorer

GROUPS = {"ab": [0, 2], "c": [1], "de": [3, 4]}


class _Interacting(RegressorMixin, BaseEstimator):
    """f(x) = x0 x2 + sin(x1) + x3 x4 + x0 x3 (interactions within and
    across groups)."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return X[:, 0] * X[:, 2] + np.sin(X[:, 1]) + X[:, 3] * X[:, 4] + X[:, 0] * X[:, 3]


class _Additive(RegressorMixin, BaseEstimator):
    """f(x) = sum_j g_j(x_j), non-linear g_j (no affine shortcut)."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return _additive_terms(X).sum(axis=1)


def _additive_terms(X):
    return np.stack([X[:, 0] ** 2, np.sin(X[:, 1]), np.exp(X[:, 2] / 3),
                     np.abs(X[:, 3]), X[:, 4] ** 3 / 5], axis=1)


def _data(n=30, seed=0):
    return np.random.default_rng(seed).normal(size=(n, 5))


def _members(groups):
    return [np.asarray(m) for m in groups.values()]


def _value(model, x, background, kept_columns):
    """v_x(S): the mean model output over the background rows with the
    kept columns taken from x."""
    Z = background.copy()
    Z[:, kept_columns] = x[kept_columns]
    return model.predict(Z).mean()


def _group_shapley(model, x, background, members):
    """Shapley values of the groups by enumeration of the group coalitions."""
    g = len(members)
    phi = np.zeros(g)
    for i in range(g):
        others = [k for k in range(g) if k != i]
        for size in range(g):
            for S in itertools.combinations(others, size):
                cols = np.concatenate([members[k] for k in S] or [np.zeros(0, int)])
                with_i = np.concatenate([cols, members[i]])
                weight = factorial(size) * factorial(g - size - 1) / factorial(g)
                phi[i] += weight * (_value(model, x, background, with_i.astype(int))
                                    - _value(model, x, background, cols.astype(int)))
    return phi


def test_exact_group_shapley_matches_enumeration_and_efficiency():
    X = _data()
    B = X[:8]
    model = FrozenEstimator(_Interacting().fit(X))
    ex = ExactShapley(model, masker=MarginalMasker(background=B), groups=GROUPS).fit(X)
    A = ex.transform(X[10:13])
    assert A.shape == (3, 3)
    expected = np.array([_group_shapley(model, x, B, _members(GROUPS)) for x in X[10:13]])
    np.testing.assert_allclose(A, expected, atol=1e-10)
    # Efficiency: the group values sum to f(x) - E f(b).
    f = model.predict(X[10:13])
    np.testing.assert_allclose(A.sum(axis=1), f - model.predict(B).mean(), atol=1e-10)


def test_kernelshap_full_budget_and_sampling_efficiency_on_groups():
    X = _data()
    B = X[:8]
    model = FrozenEstimator(_Interacting().fit(X))
    expected = np.array([_group_shapley(model, x, B, _members(GROUPS)) for x in X[10:12]])
    masker = MarginalMasker(background=B)
    # 3 groups: 2^3 - 2 = 6 coalitions enumerate every one, exactly.
    ks = KernelSHAP(model, masker=masker, groups=GROUPS, n_perturbations=6,
                    random_state=0).fit(X)
    np.testing.assert_allclose(ks.transform(X[10:12]), expected, atol=1e-8)
    sv = ShapleyValueSampling(model, masker=masker, groups=GROUPS, n_permutations=3,
                              random_state=0).fit(X)
    A = sv.transform(X[10:12])
    assert A.shape == (2, 3)
    f = model.predict(X[10:12])
    np.testing.assert_allclose(A.sum(axis=1), f - model.predict(B).mean(), atol=1e-10)


@pytest.mark.parametrize("make", [
    lambda m: ExactShapley(m, masker=m_(), groups=GROUPS),
    lambda m: KernelSHAP(m, masker=m_(), groups=GROUPS, n_perturbations=20,
                         random_state=0),
    lambda m: ShapleyValueSampling(m, masker=m_(), groups=GROUPS, n_permutations=2,
                                   random_state=0),
    lambda m: FeatureAblation(m, masker=m_(), groups=GROUPS),
    lambda m: LeaveOneCovariateIn(m, masker=m_(), groups=GROUPS),
], ids=["exact", "kernel", "sampling", "ablation", "loci"])
def test_additive_model_group_value_is_sum_of_member_terms(make):
    """For f = sum_j g_j(x_j) every explainer gives, for a group G,
    sum_{j in G} (g_j(x_j) - mean_b g_j(b_j))."""
    X = _data()
    model = FrozenEstimator(_Additive().fit(X))
    A = make(model).fit(X).transform(X[20:24])
    centred = _additive_terms(X[20:24]) - _additive_terms(X[:6]).mean(axis=0)
    expected = np.stack([centred[:, m].sum(axis=1) for m in _members(GROUPS)], axis=1)
    np.testing.assert_allclose(A, expected, atol=1e-10)


def m_():
    return MarginalMasker(background=_data()[:6])


def test_feature_ablation_of_a_group_masks_the_whole_group():
    X = _data()
    model = FrozenEstimator(_Interacting().fit(X))
    baseline = np.array([0.5, -1.0, 2.0, 0.0, 1.0])
    ex = FeatureAblation(model, masker=BaselineMasker(baseline), groups=GROUPS).fit(X)
    x = X[15:17]
    A = ex.transform(x)
    for g, members in enumerate(_members(GROUPS)):
        masked = x.copy()
        masked[:, members] = baseline[members]
        np.testing.assert_allclose(A[:, g], model.predict(x) - model.predict(masked),
                                   atol=1e-12)


def test_groups_by_name_and_feature_names_out():
    X = pd.DataFrame(_data(), columns=list("abcde"))
    model = FrozenEstimator(_Interacting().fit(X.to_numpy()))
    groups = {"first": ["a", "c"], "second": ["b"], "third": ["d", "e"]}
    ex = FeatureAblation(model, groups=groups).set_output(transform="pandas").fit(X)
    out = ex.transform(X.iloc[:2])
    assert list(out.columns) == ["first", "second", "third"]
    assert ex.get_feature_names_out().tolist() == ["first", "second", "third"]
    np.testing.assert_array_equal(ex.groups_["first"], [0, 2])
    by_position = FeatureAblation(model, groups=GROUPS).fit(X.to_numpy())
    np.testing.assert_allclose(out.to_numpy(), by_position.transform(X.iloc[:2].to_numpy()))
    # A list of lists: groups named by their columns.
    listed = FeatureAblation(model, groups=[["a", "c"], ["b"], [3, 4]]).fit(X)
    assert listed.get_feature_names_out().tolist() == ["a+c", "b", "d+e"]
    # Without groups nothing changes.
    assert FeatureAblation(model).fit(X).get_feature_names_out().tolist() == list("abcde")


def test_groups_on_raw_dataframe_columns():
    """Groups of raw (string, categorical) columns through the coded path."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"sex": rng.choice(["F", "M"], 40),
                       "city": pd.Categorical(rng.choice(["a", "b", "c"], 40)),
                       "age": rng.normal(size=40)})
    y = (df["sex"] == "F") * 2.0 + df["city"].cat.codes + df["age"]
    ct = ColumnTransformer([("cat", OneHotEncoder(), ["sex", "city"])],
                           remainder="passthrough")
    pipe = make_pipeline(ct, LinearRegression()).fit(df, y)
    background = df.iloc[:7]
    ex = ExactShapley(FrozenEstimator(pipe), masker=MarginalMasker(background=background),
                      groups={"who": ["sex", "city"], "age": ["age"]}).fit(df)
    A = ex.transform(df.iloc[10:13])
    assert A.shape == (3, 2)
    np.testing.assert_allclose(A.sum(axis=1), pipe.predict(df.iloc[10:13])
                               - pipe.predict(background).mean(), atol=1e-10)
    # The additive model: "age" is coef * (age - mean background age).
    np.testing.assert_allclose(
        A[:, 1], pipe[-1].coef_[-1] * (df["age"].iloc[10:13] - background["age"].mean()),
        atol=1e-10)


@pytest.mark.parametrize("groups, message", [
    ({"a": [0, 1], "b": [1, 2, 3, 4]}, "groups overlap: column 'x1' is in group 'a' and"),
    ({"a": [0, 1], "b": [2, 3]}, r"groups leave out the column\(s\) \['x4'\]"),
    ({"a": ["nope"], "b": [0, 1, 2, 3, 4]}, "X has no column names"),
    ({"a": [7], "b": [0, 1, 2, 3, 4]}, "column position 7, but X has 5 columns"),
    ({"a": [], "b": [0, 1, 2, 3, 4]}, "group 'a' is empty"),
    ({"a": [0.5], "b": [1, 2, 3, 4]}, "give column positions"),
    ([[0, 1], [0, 1, 2, 3, 4]], "groups overlap"),
])
def test_invalid_groups_name_the_problem(groups, message):
    X = _data()
    with pytest.raises(ValueError, match=message):
        KernelSHAP(FrozenEstimator(_Interacting().fit(X)), groups=groups).fit(X)


def test_unknown_column_name_lists_the_columns():
    X = pd.DataFrame(_data(), columns=list("abcde"))
    with pytest.raises(ValueError, match="unknown column 'z'; the columns of X are"):
        check_groups({"g": ["a", "z"]}, 5, feature_names=X.columns)
    with pytest.raises(ValueError, match="InvalidParameterError|must be") as info:
        FeatureAblation(groups="columns").fit(X)
    assert "groups" in str(info.value)


def test_exact_shapley_max_features_counts_groups():
    X = np.random.default_rng(0).normal(size=(10, 20))
    model = FrozenEstimator(LinearRegression().fit(X, X.sum(axis=1)))
    # 20 columns in 4 groups: enumerable (2^4 coalitions).
    groups = [list(range(k, k + 5)) for k in range(0, 20, 5)]
    A = ExactShapley(model, masker=BaselineMasker("zero"), groups=groups).fit(X).transform(X[:2])
    w = model.estimator.coef_  # zero baseline: a group is sum_j w_j x_j
    np.testing.assert_allclose(A, np.stack([X[:2, g] @ w[g] for g in groups], 1),
                               atol=1e-10)
    with pytest.raises(ValueError, match="d=20 features > max_features=16"):
        ExactShapley(model).fit(X)


# ---------------------------------------------------------------- one-hot
def _onehot_pipeline(encoder=None, n=60):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({
        "sex": rng.choice(["F", "M"], n),
        "city": pd.Categorical(rng.choice(["lyon", "nice", "paris"], n)),
        "age": rng.normal(40, 10, n),
    })
    y = (df["sex"] == "F") * 2.0 + df["city"].cat.codes * 1.5 + 0.1 * df["age"]
    encoder = encoder or OneHotEncoder(sparse_output=False)
    ct = ColumnTransformer([("cat", encoder, ["sex", "city"]),
                            ("num", StandardScaler(), ["age"])])
    return df, make_pipeline(ct, LinearRegression()).fit(df, y)


def test_onehot_groups_of_a_column_transformer():
    _, pipe = _onehot_pipeline()
    names = pipe[0].get_feature_names_out().tolist()
    assert names == ["cat__sex_F", "cat__sex_M", "cat__city_lyon", "cat__city_nice",
                     "cat__city_paris", "num__age"]
    assert onehot_groups(pipe) == {"sex": [0, 1], "city": [2, 3, 4], "num__age": [5]}
    assert onehot_groups(pipe[0]) == onehot_groups(pipe)
    # Dropped and infrequent categories: blocks read from the encoder.
    _, pipe = _onehot_pipeline(OneHotEncoder(drop="first", sparse_output=False))
    assert pipe[0].get_feature_names_out().tolist() == [
        "cat__sex_M", "cat__city_nice", "cat__city_paris", "num__age"]
    assert onehot_groups(pipe) == {"sex": [0], "city": [1, 2], "num__age": [3]}
    enc = OneHotEncoder(min_frequency=3, sparse_output=False).fit(
        pd.DataFrame({"a": list("xxxyyyz"), "b": list("ppppqqq")}))
    assert enc.get_feature_names_out().tolist() == ["a_x", "a_y", "a_infrequent_sklearn",
                                                   "b_p", "b_q"]
    assert onehot_groups(enc) == {"a": [0, 1, 2], "b": [3, 4]}
    # An encoder inside a Pipeline of the ColumnTransformer, columns by position;
    # an encoder as a step of its own.
    df = pd.DataFrame({"a": list("xyzxy"), "b": list("ppqqp"), "c": [1.0, 2, 3, 4, 5]})
    ct = ColumnTransformer([("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                                  OneHotEncoder()), [0, 1])],
                           remainder="passthrough").fit(df)
    assert ct.get_feature_names_out().tolist() == [
        "cat__a_x", "cat__a_y", "cat__a_z", "cat__b_p", "cat__b_q", "remainder__c"]
    assert onehot_groups(ct) == {"a": [0, 1, 2], "b": [3, 4], "remainder__c": [5]}
    alone = make_pipeline(OneHotEncoder(), LinearRegression()).fit(df[["a", "b"]], df["c"])
    assert onehot_groups(alone) == {"a": [0, 1, 2], "b": [3, 4]}
    with pytest.raises(ValueError, match="needs a OneHotEncoder or a ColumnTransformer"):
        onehot_groups(StandardScaler().fit([[0.0]]))


def test_onehot_explainer_on_encoded_rows_closed_form():
    df, pipe = _onehot_pipeline()
    ct, model = pipe[0], pipe[-1]
    Xe = ct.transform(df)
    B = Xe[:10]
    ex = ExactShapley(FrozenEstimator(pipe), masker=MarginalMasker(background=B),
                      groups="onehot").fit(Xe)
    assert ex.get_feature_names_out().tolist() == ["sex", "city", "num__age"]
    A = ex.transform(Xe[20:25])
    # Linear in the encoded columns: a block's value is sum_j w_j (x_j - mean b_j).
    centred = model.coef_ * (Xe[20:25] - B.mean(axis=0))
    expected = np.stack([centred[:, :2].sum(1), centred[:, 2:5].sum(1), centred[:, 5]], 1)
    np.testing.assert_allclose(A, expected, atol=1e-10)
    # Efficiency against the user's Pipeline on the raw rows.
    np.testing.assert_allclose(A.sum(axis=1), pipe.predict(df.iloc[20:25])
                               - pipe.predict(df.iloc[:10]).mean(), atol=1e-10)
    # The explained model is the rest of the Pipeline, on the encoded rows.
    np.testing.assert_allclose(ex.explained_estimator_.predict(Xe[:3]),
                               pipe.predict(df.iloc[:3]))


def test_onehot_with_named_encoded_columns_and_set_output():
    df, pipe = _onehot_pipeline()
    Xe = pd.DataFrame(pipe[0].transform(df), columns=pipe[0].get_feature_names_out())
    ex = FeatureAblation(FrozenEstimator(pipe), masker=BaselineMasker("zero"),
                         groups="onehot").set_output(transform="pandas").fit(Xe)
    out = ex.transform(Xe.iloc[:3])
    assert list(out.columns) == ["sex", "city", "num__age"]
    zeroed = Xe.iloc[:3].to_numpy().copy()
    zeroed[:, 2:5] = 0.0
    np.testing.assert_allclose(out["city"], pipe[-1].predict(Xe.iloc[:3].to_numpy())
                               - pipe[-1].predict(zeroed), atol=1e-12)


def test_onehot_errors_say_what_to_pass():
    df, pipe = _onehot_pipeline()
    Xe = pipe[0].transform(df)
    with pytest.raises(ValueError, match=r"pass estimator=FrozenEstimator\(pipeline\)"):
        FeatureAblation(pipe, groups="onehot").fit(Xe)
    with pytest.raises(ValueError, match="pass estimator=FrozenEstimator"):
        FeatureAblation(FrozenEstimator(LinearRegression().fit(Xe, Xe[:, 0])),
                        groups="onehot").fit(Xe)
    with pytest.raises(ValueError, match="encoding gives 6 columns .* but X has 3"):
        FeatureAblation(FrozenEstimator(pipe), groups="onehot").fit(Xe[:, :3])


def test_scorers_refuse_grouped_attributions():
    X = _data()
    ex = FeatureAblation(FrozenEstimator(_Interacting().fit(X)), groups=GROUPS).fit(X)
    with pytest.raises(ValueError, match="one attribution per feature group"):
        get_scorer("neg_complexity")(ex, X[:3])
