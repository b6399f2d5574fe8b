"""Each explainer's tags say what its behaviour implies.

* ``stochastic``: a different ``random_state`` gives different attributions
  (and the same one the same attributions); otherwise the random state and
  ``row_keys`` of ``explain`` change nothing.
* ``shares_row_keys``: ``explain(row_keys=...)`` changes the draws exactly
  when the explainer shares keys.
* ``requires_estimator``: ``fit`` without a model fails exactly then.
* ``differentiable``: a model that is not a torch net is refused, naming the
  model-agnostic explainers; ``model_agnostic``: a plain scikit-learn model
  (and a tree ensemble) is explained.
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.ensemble import RandomForestRegressor
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsRegressor
from sklearn.utils import get_tags
from sklearn.utils.validation import validate_data

from sklearn_xai.base import BaseExplainer, ExplainerTags, Tags, get_explainer_tags
from sklearn_xai.explainers import (
    BreakDown,
    EmpiricalConditionalSHAP,
    ExactShapley,
    FeatureAblation,
    LeaveOneCovariateIn,
    differentiable_model,
)
from sklearn_xai.explainers._capabilities import model_agnostic_explainers
from sklearn_xai.masking import GaussianConditionalMasker
from sklearn_xai.models import LogisticNetClassifier
from sklearn_xai.utils.discovery import all_explainers

# Small settings so that every explainer runs in well under a second.
FAST = {
    "CaptumKernelSHAP": {"n_perturbations": 10},
    "CaptumLime": {"n_perturbations": 20},
    "EmpiricalConditionalSHAP": {"max_background": 20},
    "ExpectedGradients": {"n_perturbations": 3},
    "GradientShap": {"n_perturbations": 3},
    "KernelSHAP": {"n_perturbations": 4},
    "L2X": {"epochs": 1, "early_stopping": False},
    "LimeTabular": {"n_perturbations": 50},
    "LocalLinearSurrogate": {"n_perturbations": 50},
    "MAPLE": {"n_estimators": 5, "min_samples_leaf": 3},
    "ShapleyValueSampling": {"n_permutations": 3, "antithetic": False},
    "SmoothGrad": {"n_perturbations": 5},
    "TextLIME": {"n_perturbations": 20},
}
# Explainers whose default construction needs a model the others cannot use.
SPECIAL_MODEL = {"GuidedGradCam": "convolutional net", "TreeContributions": "xgboost",
                 "EmbeddingAttribution": "text net with an embedding layer",
                 "GradCAM": "convolutional net", "GradCAMPlusPlus": "convolutional net",
                 "ScoreCAM": "convolutional net",
                 "AttentionRollout": "vision transformer",
                 "AttentionXGradient": "vision transformer"}
MASKER_BASED = (BreakDown, ExactShapley, FeatureAblation, LeaveOneCovariateIn)


class _Interaction(RegressorMixin, BaseEstimator):
    """``f(x) = x_0 x_1 + 2 x_2 - x_3``: interactions, so sampled Shapley
    values and local surrogates depend on their draws."""

    def fit(self, X, y=None):
        validate_data(self, X)
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=np.float64)
        return X[:, 0] * X[:, 1] + 2.0 * X[:, 2] - X[:, 3]


@pytest.fixture(scope="module")
def data():
    X = np.random.default_rng(0).normal(size=(40, 4))  # 4 = a 2 x 2 image
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    return X, y


@pytest.fixture(scope="module")
def models(data):
    X, y = data
    net = LogisticNetClassifier(lr=0.1, max_epochs=3, early_stopping=False,
                                random_state=0).fit(X.astype(np.float32), y)
    return {"agnostic": FrozenEstimator(_Interaction().fit(X)),
            "differentiable": FrozenEstimator(net)}


def _instance(name, cls, models, **params):
    tags = get_explainer_tags(cls)
    est = cls(**FAST.get(name, {}), **params)
    if tags.requires_estimator:
        key = "differentiable" if tags.differentiable else "agnostic"
        est.set_params(estimator=models[key])
    return est


RUNNABLE = [(name, cls) for name, cls in all_explainers() if name not in SPECIAL_MODEL]
STOCHASTIC_VARIANTS = [
    *[(cls.__name__, cls, {"masker": GaussianConditionalMasker(n_draws=5)})
      for cls in MASKER_BASED],
    ("EmpiricalConditionalSHAP", EmpiricalConditionalSHAP,
     {"method": "gaussian", "n_draws": 5}),
]
VARIANTS = [(name, cls, {}) for name, cls in RUNNABLE] + STOCHASTIC_VARIANTS


def _ids(v):
    return v if isinstance(v, str) else ""


# ------------------------------------------------------------ the mechanism
def test_tags_are_sklearn_tags_with_explainer_tags():
    for name, cls in all_explainers():
        tags = get_tags(cls())
        assert isinstance(tags, Tags) and isinstance(tags.explainer_tags, ExplainerTags)
        assert get_explainer_tags(cls) == tags.explainer_tags, name


def test_tags_are_consistent():
    for name, cls in all_explainers():
        tags = get_explainer_tags(cls)
        if tags.differentiable or not tags.requires_estimator:
            assert not tags.model_agnostic, name
        if not tags.requires_estimator:
            assert not tags.differentiable, name


@pytest.mark.parametrize("name, cls, params", VARIANTS, ids=_ids)
def test_non_deterministic_only_without_random_state(name, cls, params):
    est = cls(**params)
    stochastic = get_explainer_tags(est).stochastic
    assert get_tags(est).non_deterministic == (
        stochastic and est.get_params().get("random_state") is None)
    if "random_state" in est.get_params():
        assert not get_tags(clone(est).set_params(random_state=0)).non_deterministic


def test_get_explainer_tags_rejects_other_estimators():
    with pytest.raises(TypeError, match="not a sklearn_xai explainer"):
        get_explainer_tags(LinearRegression())
    with pytest.raises(TypeError, match="not a concrete"):
        get_explainer_tags(BaseExplainer)


def test_the_package_declares_tags_in_sklearn_tags_only():
    """The class attributes that declared tags before ExplainerTags are read
    no more: no explainer may rely on them."""
    old = {"_stochastic", "_requires_estimator", "_shares_row_keys"}
    for name, cls in all_explainers():
        for klass in cls.__mro__:
            own = old & set(vars(klass))
            assert not own, f"{klass.__name__} declares {own}: use __sklearn_tags__"


# ------------------------------------------------------------- discovery
def test_all_explainers_filters_by_tags():
    every = dict(all_explainers())
    agnostic = dict(all_explainers(model_agnostic=True))
    differentiable = dict(all_explainers(differentiable=True))
    controls = dict(all_explainers(requires_estimator=False))
    assert {"KernelSHAP", "BreakDown", "MAPLE", "L2X", "EmpiricalConditionalSHAP",
            "LeaveOneCovariateIn"} <= set(agnostic)
    assert {"Saliency", "IntegratedGradients", "GuidedGradCam"} <= set(differentiable)
    assert set(controls) == {"RandomExplainer", "SobelFilter", "LaplaceFilter",
                             "InputAttribution"}
    assert not set(agnostic) & set(differentiable)
    assert "TreeContributions" in set(every) - set(agnostic) - set(differentiable)
    assert sorted(agnostic) == model_agnostic_explainers()
    assert dict(all_explainers(model_agnostic=True, stochastic=True)) == {
        n: c for n, c in agnostic.items() if get_explainer_tags(c).stochastic}
    with pytest.raises(ValueError, match="Unknown explainer tag.*differentiable"):
        all_explainers(gradient=True)


def test_model_specific_errors_name_every_model_agnostic_explainer(data):
    X, _ = data
    with pytest.raises(TypeError) as exc:  # (linear models have a torch replica)
        differentiable_model(KNeighborsRegressor().fit(X, X[:, 0]))
    for name in model_agnostic_explainers():
        assert name in str(exc.value)
    from sklearn_xai.explainers import TreeContributions

    with pytest.raises(TypeError) as exc:
        TreeContributions(LinearRegression()).fit(X, X[:, 0])
    assert all(name in str(exc.value) for name in model_agnostic_explainers())


# -------------------------------------------------------------- behaviour
@pytest.mark.parametrize("name, cls, params", VARIANTS, ids=_ids)
def test_stochastic_tag_matches_the_effect_of_random_state(data, models, name, cls,
                                                           params):
    X, y = data
    base = _instance(name, cls, models, **params)
    stochastic = get_explainer_tags(base).stochastic
    if "random_state" not in base.get_params():
        assert not stochastic, f"{name} is stochastic but takes no random_state"
        return
    A0 = clone(base).set_params(random_state=0).fit(X, y).transform(X[:5])
    again = clone(base).set_params(random_state=0).fit(X, y).transform(X[:5])
    np.testing.assert_array_equal(A0, again)
    if not stochastic:
        # Deterministic given the fit: explaining with other row keys changes
        # nothing (the random state may still seed what fit learns).
        ex = clone(base).set_params(random_state=0).fit(X, y)
        np.testing.assert_array_equal(ex.explain(X[:5], row_keys=np.arange(5)),
                                      ex.transform(X[:5]))
        return
    A1 = clone(base).set_params(random_state=1).fit(X, y).transform(X[:5])
    assert not np.allclose(A0, A1), f"{name}: random_state changes nothing"


@pytest.mark.parametrize(
    "name, cls, params",
    [v for v in VARIANTS if get_explainer_tags(v[1](**v[2])).stochastic], ids=_ids)
def test_shares_row_keys_tag_matches_explain(data, models, name, cls, params):
    X, y = data
    ex = _instance(name, cls, models, random_state=0, **params).fit(X, y)
    own = ex.explain(X[:4], row_keys=np.arange(4))
    other = ex.explain(X[:4], row_keys=np.arange(4) + 100)
    if get_explainer_tags(ex).shares_row_keys:
        assert not np.allclose(own, other), f"{name} ignores row_keys"
    else:
        np.testing.assert_array_equal(own, other)
        np.testing.assert_array_equal(own, ex.transform(X[:4]))


@pytest.mark.parametrize("name, cls", all_explainers(), ids=_ids)
def test_requires_estimator_tag_matches_fit(data, name, cls):
    X, y = data
    if get_explainer_tags(cls).requires_estimator:
        with pytest.raises(ValueError, match="needs a model"):
            cls().fit(X, y)
    else:
        ex = cls().fit(X)
        assert ex.estimator_ is None and ex.transform(X[:2]).shape == (2, 4)


@pytest.mark.parametrize("name, cls", all_explainers(requires_estimator=True), ids=_ids)
def test_model_tags_match_which_models_work(data, models, name, cls):
    X, y = data
    tags = get_explainer_tags(cls)
    linear = FrozenEstimator(LinearRegression().fit(X, X @ [1.0, -1.0, 0.5, 2.0]))
    if tags.differentiable:
        # (scikit-learn linear models and MLPs have a torch replica)
        knn = FrozenEstimator(KNeighborsRegressor().fit(X, X[:, 0]))
        with pytest.raises(TypeError, match="differentiable torch model"):
            cls(estimator=knn, **FAST.get(name, {})).fit(X)
        if name not in SPECIAL_MODEL:
            A = _instance(name, cls, models).fit(X).transform(X[:3])
            assert A.shape == (3, 4) and np.isfinite(A).all()
        return
    if not tags.model_agnostic:
        with pytest.raises(TypeError, match="Model-agnostic explainers"):
            cls(estimator=linear, **FAST.get(name, {})).fit(X)
        return
    forest = FrozenEstimator(RandomForestRegressor(n_estimators=3, random_state=0)
                             .fit(X, X[:, 0]))
    for model in (linear, forest):
        # y for the explainers that need it (PermutationImportance)
        ex = cls(estimator=model, **FAST.get(name, {})).fit(X, model.predict(X))
        A = ex.transform(X[:3])
        assert A.shape == (3, 4) and np.isfinite(A).all()
