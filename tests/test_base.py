import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker, MarginalMasker


@pytest.fixture
def linear_data():
    rng = np.random.RandomState(0)
    X = rng.randn(60, 4) + [1.0, -1.0, 2.0, 0.0]
    w = np.array([2.0, -1.0, 0.5, 0.0])
    return X, X @ w + 3.0, w


def test_frozen_model_is_not_refit_or_copied(linear_data):
    X, y, _ = linear_data
    model = LinearRegression().fit(X, y)
    coef = model.coef_.copy()
    ex = FeatureAblation(FrozenEstimator(model)).fit(X[:10], np.zeros(10))
    assert ex.estimator_.estimator is model
    np.testing.assert_array_equal(model.coef_, coef)


def test_unfitted_frozen_model_error(linear_data):
    X, y, _ = linear_data
    with pytest.raises(NotFittedError, match="inside FrozenEstimator.*not fitted"):
        FeatureAblation(FrozenEstimator(LinearRegression())).fit(X, y)


def test_missing_estimator_error(linear_data):
    X, y, _ = linear_data
    with pytest.raises(ValueError, match="needs a model: pass estimator="):
        FeatureAblation().fit(X, y)


def test_wrong_number_of_features(linear_data):
    X, y, _ = linear_data
    ex = FeatureAblation(LinearRegression()).fit(X, y)
    with pytest.raises(ValueError, match="4 features"):
        ex.transform(X[:, :3])


def test_nan_input_rejected(linear_data):
    X, y, _ = linear_data
    ex = FeatureAblation(LinearRegression()).fit(X, y)
    Xn = X[:3].copy()
    Xn[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ex.transform(Xn)


def test_user_data_not_mutated(linear_data):
    X, y, _ = linear_data
    X0, y0 = X.copy(), y.copy()
    ex = FeatureAblation(LinearRegression(), masker=MarginalMasker(10, random_state=0))
    ex.fit(X, y).transform(X)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_ablation_closed_form(linear_data):
    """a_j = w_j (x_j - b_j) for a linear model and baseline b."""
    X, y, w = linear_data
    for value, b in [("zero", np.zeros(4)), ("mean", X.mean(0)), (1.5, np.full(4, 1.5))]:
        A = FeatureAblation(LinearRegression(), masker=BaselineMasker(value)).fit(X, y).transform(X)
        np.testing.assert_allclose(A, w * (X - b), atol=1e-9)


def test_ablation_marginal_equals_mean_baseline_for_linear(linear_data):
    X, y, w = linear_data
    bg = X[:25]
    A = FeatureAblation(LinearRegression(), masker=MarginalMasker(bg)).fit(X, y).transform(X)
    np.testing.assert_allclose(A, w * (X - bg.mean(0)), atol=1e-9)


def test_batch_size_does_not_change_attributions(linear_data):
    X, y, _ = linear_data
    X_clf = X
    y_clf = (X[:, 0] > 1).astype(int)
    full = FeatureAblation(LogisticRegression(), masker=MarginalMasker(15, random_state=0))
    A = full.fit(X_clf, y_clf).transform(X_clf)
    A1 = full.set_params(batch_size=7).fit(X_clf, y_clf).transform(X_clf)
    np.testing.assert_allclose(A, A1, atol=1e-12)


def test_classifier_explains_predicted_class_probability(linear_data):
    X, _, _ = linear_data
    y = (X[:, 0] - X[:, 1] > 2).astype(int)
    clf = LogisticRegression().fit(X, y)
    A = FeatureAblation(FrozenEstimator(clf)).fit(X).transform(X[:5])
    proba = clf.predict_proba(X[:5])
    c = proba.argmax(1)
    for j in range(4):
        Z = X[:5].copy()
        Z[:, j] = 0.0
        expected = proba[np.arange(5), c] - clf.predict_proba(Z)[np.arange(5), c]
        np.testing.assert_allclose(A[:, j], expected, atol=1e-12)


def test_random_explainer_row_streams():
    X = np.random.RandomState(1).randn(10, 3)
    ex = RandomExplainer(random_state=3).fit(X)
    A = ex.transform(X)
    # Row order, batch composition and duplicates do not change a row's draws.
    np.testing.assert_array_equal(ex.transform(X[::-1]), A[::-1])
    np.testing.assert_array_equal(ex.transform(X[4:5]), A[4:5])
    # Different seeds differ; the same seed reproduces.
    assert not np.allclose(RandomExplainer(random_state=4).fit(X).transform(X), A)
    np.testing.assert_array_equal(RandomExplainer(random_state=3).fit(X).transform(X), A)
    # Rows differ from each other.
    assert not np.allclose(A[0], A[1])
    # Explicit keys (common random numbers in stability metrics) are ignored:
    # the random control's draws are its explanation.
    np.testing.assert_array_equal(ex.explain(X[:2], row_keys=[7, 7]), A[:2])


def test_random_explainer_distributions():
    X = np.zeros((4000, 5)) + np.arange(4000)[:, None]
    normal = RandomExplainer(scale=2.0, random_state=0).fit(X).transform(X)
    assert abs(normal.std() - 2.0) < 0.05 and abs(normal.mean()) < 0.05
    uni = RandomExplainer(distribution="uniform", random_state=0).fit(X).transform(X)
    assert uni.min() >= -1 and uni.max() <= 1 and abs(uni.var() - 1 / 3) < 0.02


def test_random_explainer_uniform_range(linear_data):
    X, y, w = linear_data
    ref = FeatureAblation(masker=BaselineMasker("mean"))
    ex = RandomExplainer(LinearRegression(), distribution="uniform_range", reference=ref,
                         random_state=0).fit(X, y)
    A_ref = w * (X - X.mean(0))
    assert ex.low_ == pytest.approx(A_ref.min()) and ex.high_ == pytest.approx(A_ref.max())
    A = ex.transform(X)
    assert A.min() >= ex.low_ and A.max() <= ex.high_
    with pytest.raises(ValueError, match="needs reference="):
        RandomExplainer(distribution="uniform_range").fit(X)


def test_pipeline_last_step_pandas_output(linear_data):
    X, y, _ = linear_data
    df = pd.DataFrame(X, columns=["age", "income", "debt", "noise"])
    pipe = make_pipeline(StandardScaler(), FeatureAblation(LinearRegression()))
    pipe.set_output(transform="pandas")
    out = pipe.fit(df, y).transform(df)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == ["age", "income", "debt", "noise"]
    assert out.shape == X.shape


def test_dataframe_fitted_model_keeps_feature_names(linear_data):
    X, y, _ = linear_data
    df = pd.DataFrame(X, columns=list("abcd"))
    model = LinearRegression().fit(df, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        A = FeatureAblation(FrozenEstimator(model)).fit(df).transform(df)
    assert A.shape == X.shape


def test_fit_params_routed_to_model(linear_data):
    X, y, _ = linear_data
    sw = np.linspace(0.1, 1.0, len(y))
    with config_context(enable_metadata_routing=True):
        ex = FeatureAblation(LinearRegression().set_fit_request(sample_weight=True))
        ex.fit(X, y, sample_weight=sw)
    ref = LinearRegression().fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(ex.estimator_.coef_, ref.coef_)


def test_explain_reports_model_evaluations(linear_data):
    X, y, _ = linear_data
    from sklearn.tree import DecisionTreeRegressor

    ex = FeatureAblation(DecisionTreeRegressor(random_state=0),
                         masker=MarginalMasker(10, random_state=0)).fit(X, y)
    _, n_eval = ex.explain(X[:5], return_n_evaluations=True)
    # 5 rows for f(x) plus 5 rows x 4 ablations x 10 background rows.
    assert n_eval == 5 + 5 * 4 * 10
    # A linear model is valued from its coefficients: the model evaluates
    # only the affinity check's rows (the 5 rows and 5 shifted copies) and
    # f(x) of the 5 rows.
    ex = FeatureAblation(LinearRegression(), masker=MarginalMasker(10, random_state=0)).fit(X, y)
    _, n_eval = ex.explain(X[:5], return_n_evaluations=True)
    assert n_eval == 10 + 5
