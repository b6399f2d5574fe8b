"""Torch replicas of scikit-learn models (issue #20 B): outputs equal to
scikit-learn's own ``predict_proba`` / ``decision_function`` / ``predict``,
gradients equal to closed forms, every gradient explainer usable on a
scikit-learn MLP inside ``GridSearchCV(ExplainedModel(...))``."""

import warnings

import numpy as np
import pytest
import sklearn
import torch
from sklearn.exceptions import ConvergenceWarning
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import (
    LinearRegression,
    LogisticRegression,
    Ridge,
    SGDClassifier,
    SGDRegressor,
)
from sklearn.model_selection import GridSearchCV
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import LinearSVC

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.explainers import (
    LRP,
    CompositeLRP,
    Deconvolution,
    DeepLift,
    DeepLiftShap,
    DeepTaylor,
    GradientShap,
    GuidedBackprop,
    InputXGradient,
    IntegratedGradients,
    NoiseTunnel,
    PatternAttribution,
    PatternNet,
    Saliency,
    SmoothGrad,
    differentiable_model,
    torch_replica,
)
from sklearn_xai.metrics import check_scoring


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, 4)) * [1.0, 3.0, 0.5, 2.0] + [1.0, -2.0, 0.0, 5.0]
    y = X @ [1.0, -0.5, 2.0, 0.3] + np.sin(X[:, 0])
    X_test = rng.normal(size=(80, 4)) * 4.0  # far outside the training range too
    return X, y, X_test


def _binary(y):
    return (y > np.median(y)).astype(int)


def _three(y):
    return np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))


MODELS = [
    *[(f"mlp-clf-{act}-{k}", make_pipeline(StandardScaler(), MLPClassifier(
        hidden_layer_sizes=(6, 5), activation=act, max_iter=200, random_state=0)), k)
      for act in ("identity", "logistic", "tanh", "relu") for k in ("binary", "three")],
    *[(f"mlp-reg-{act}", make_pipeline(MinMaxScaler(), MLPRegressor(
        hidden_layer_sizes=(6,), activation=act, max_iter=200, random_state=0)), "reg")
      for act in ("identity", "logistic", "tanh", "relu")],
    ("mlp-reg-poisson", make_pipeline(MinMaxScaler(), MLPRegressor(
        hidden_layer_sizes=(6,), loss="poisson", max_iter=200, random_state=0)),
     "poisson"),
    ("linear", make_pipeline(StandardScaler(), LinearRegression()), "reg"),
    ("ridge", make_pipeline(MinMaxScaler(), Ridge()), "reg"),
    ("sgd-reg", make_pipeline(StandardScaler(), SGDRegressor(random_state=0)), "reg"),
    ("logistic-binary", make_pipeline(StandardScaler(), LogisticRegression()), "binary"),
    ("logistic-multinomial", make_pipeline(StandardScaler(), LogisticRegression()),
     "three"),
    ("sgd-log-binary", make_pipeline(StandardScaler(), SGDClassifier(
        loss="log_loss", random_state=0)), "binary"),
    ("sgd-log-ovr", make_pipeline(StandardScaler(), SGDClassifier(
        loss="log_loss", random_state=0)), "three"),
    ("linear-svc", make_pipeline(StandardScaler(), LinearSVC()), "three"),
    ("logistic-no-scaler", LogisticRegression(fit_intercept=False), "binary"),
]


def _target(kind, y):
    return {"binary": _binary, "three": _three, "reg": lambda v: v,
            "poisson": lambda v: np.exp(v / 10)}[kind](y)


@pytest.mark.parametrize("name, model, kind", MODELS, ids=[m[0] for m in MODELS])
def test_replica_outputs_equal_sklearn(name, model, kind):
    X, y, X_test = _data()
    model = sklearn.base.clone(model).fit(X, _target(kind, y))
    T = torch.as_tensor(X_test)
    final = model[-1] if hasattr(model, "steps") else model
    if hasattr(final, "classes_"):
        if hasattr(model, "predict_proba"):
            got = torch_replica(model)(T).detach().numpy()
            np.testing.assert_allclose(got, model.predict_proba(X_test), rtol=0, atol=1e-6)
        if hasattr(model, "decision_function"):
            got = torch_replica(model, output="decision")(T).detach().numpy()
            ref = model.decision_function(X_test)
            ref = np.column_stack([-ref, ref]) if ref.ndim == 1 else ref
            np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-6)
    else:
        got = torch_replica(model)(T).detach().numpy()
        np.testing.assert_allclose(got[:, 0], model.predict(X_test), rtol=1e-10, atol=1e-6)
    assert next(torch_replica(model).parameters()).dtype == torch.float64


def test_replica_refuses_what_it_cannot_copy():
    X, y, _ = _data()
    multilabel = MLPClassifier(hidden_layer_sizes=(3,), max_iter=20).fit(
        X, np.column_stack([_binary(y), _binary(-y)]))
    with pytest.raises(TypeError, match="multilabel"):
        differentiable_model(multilabel)
    huber = SGDClassifier(loss="modified_huber", random_state=0).fit(X, _three(y))
    with pytest.raises(TypeError, match="output='decision'"):
        torch_replica(huber, output="proba")
    torch_replica(huber, output="decision")  # the decision function is linear
    with pytest.raises(TypeError, match="not fitted"):
        differentiable_model(LogisticRegression())


def test_saliency_of_logistic_regression_is_the_closed_form():
    """d p_1 / d x = p_1 (1 - p_1) w / scale for a standardised logistic
    regression; d z / d x = w / scale for its decision function."""
    X, y, X_test = _data()
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, _binary(y))
    scaler, lr = model[0], model[-1]
    w = lr.coef_[0] / scaler.scale_
    p = model.predict_proba(X_test[:10])[:, 1]
    A = Saliency(FrozenEstimator(model), target=1).fit(X).transform(X_test[:10])
    np.testing.assert_allclose(A, (p * (1 - p))[:, None] * w, rtol=1e-9, atol=1e-12)
    A = Saliency(FrozenEstimator(model), target=1, output="decision").fit(X).transform(
        X_test[:10])
    np.testing.assert_allclose(A, np.tile(w, (10, 1)), rtol=1e-9)
    # Integrated gradients on the linear regression: w (x - b) exactly.
    reg = LinearRegression().fit(X, y)
    A = IntegratedGradients(FrozenEstimator(reg), n_steps=5).fit(X).transform(X_test[:5])
    np.testing.assert_allclose(A, reg.coef_ * X_test[:5], rtol=1e-9)


def test_saliency_of_an_mlp_matches_finite_differences():
    X, y, X_test = _data()
    mlp = MLPClassifier(hidden_layer_sizes=(8,), activation="tanh", max_iter=200,
                        random_state=0).fit(X, _three(y))
    x = X_test[:3]
    A = Saliency(FrozenEstimator(mlp), target=2).fit(X).transform(x)
    h = 1e-6
    fd = np.stack([(mlp.predict_proba(x + h * e)[:, 2] - mlp.predict_proba(x - h * e)[:, 2])
                   / (2 * h) for e in np.eye(4)], axis=1)
    np.testing.assert_allclose(A, fd, rtol=1e-5, atol=1e-9)


GRADIENT_EXPLAINERS = [
    Saliency(), InputXGradient(), IntegratedGradients(n_steps=8), DeepLift(),
    DeepLiftShap(max_baselines=4, random_state=0),
    GradientShap(n_perturbations=3, random_state=0), GuidedBackprop(), Deconvolution(),
    LRP(), SmoothGrad(n_perturbations=4, random_state=0),
    NoiseTunnel(Saliency(), n_perturbations=3, random_state=0),
    CompositeLRP(rule="alpha_beta"), DeepTaylor(), PatternNet(), PatternAttribution(),
]


@pytest.mark.parametrize("explainer", GRADIENT_EXPLAINERS,
                         ids=lambda e: type(e).__name__)
def test_gradient_explainers_on_a_sklearn_mlp_in_grid_search(explainer):
    X, y, _ = _data()
    X, y = X[:90], _binary(y[:90])
    model = make_pipeline(StandardScaler(), MLPClassifier(
        hidden_layer_sizes=(5,), max_iter=50, random_state=0))
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            ExplainedModel(model, explainer),
            {"model__mlpclassifier__alpha": [1e-4, 1e-2]},
            scoring=check_scoring(["sparseness", "neg_complexity"]),
            refit="sparseness", cv=2,
        ).fit(X, y)
    A = search.best_estimator_.explain(X[:4])
    assert A.shape == (4, 4) and np.isfinite(A).all()
    assert np.isfinite(search.cv_results_["mean_test_sparseness"]).all()
