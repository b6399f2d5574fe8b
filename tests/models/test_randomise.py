"""Randomised copies of fitted models (sklearn_xai.models._randomise)."""

import copy
import pickle

import numpy as np
import pytest
import torch
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from skorch import NeuralNetClassifier

from sklearn_xai.models._randomise import randomise_model, randomised_layers
from sklearn_xai.utils._estimators import unwrap

RNG = np.random.default_rng(0)
X = RNG.normal(size=(120, 4))
Y_CLF = (X[:, 0] + X[:, 1] > 0).astype(int)
Y_REG = X @ [2.0, -1.0, 0.5, 0.0]


def _params(model):
    """Every parameter array of the final model, by layer name."""
    _, final = unwrap(model)
    if hasattr(final, "module_"):
        modules = dict(final.module_.named_modules())
        return {name: [p.detach().numpy().copy()
                       for p in modules[name].parameters(recurse=False)]
                for name in randomised_layers(model)}
    if hasattr(final, "coefs_"):
        return {f"layer_{i}": [w.copy(), b.copy()]
                for i, (w, b) in enumerate(zip(final.coefs_, final.intercepts_, strict=True))}
    if hasattr(final, "estimators_"):
        prefix = "stage_" if hasattr(final, "init_") else "tree_"
        return {f"{prefix}{i}": [t.tree_.value.copy() for t in np.ravel(trees)]
                for i, trees in enumerate(np.asarray(final.estimators_, dtype=object)
                                          .reshape(len(final.estimators_), -1))}
    if hasattr(final, "tree_"):
        return {"tree": [final.tree_.value.copy()]}
    return {"linear": [np.copy(final.coef_), np.copy(final.intercept_)]}


def _changed(before, after):
    return sorted(name for name in before
                  if any(not np.array_equal(a, b) for a, b in zip(before[name], after[name], strict=True)))


def _net():
    """An initialised (untrained: fast) skorch net, d -> 8 -> 8 -> 2."""
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(),
                                 torch.nn.Linear(8, 8), torch.nn.ReLU(),
                                 torch.nn.Linear(8, 2))
    return NeuralNetClassifier(module, criterion=torch.nn.CrossEntropyLoss,
                               classes=[0, 1], verbose=0).initialize()


@pytest.fixture(scope="module")
def models():
    torch.manual_seed(0)
    return {
        "mlp_clf": MLPClassifier(hidden_layer_sizes=(6, 5), max_iter=300, random_state=0).fit(X, Y_CLF),
        "mlp_reg": MLPRegressor(hidden_layer_sizes=(6,), solver="lbfgs", random_state=0).fit(X, Y_REG),
        "logistic": LogisticRegression().fit(X, Y_CLF),
        "ridge_pipe": FrozenEstimator(make_pipeline(StandardScaler(), Ridge()).fit(X, Y_REG)),
        "forest": RandomForestClassifier(4, max_depth=3, random_state=0).fit(X, Y_CLF),
        "extra": ExtraTreesRegressor(3, max_depth=3, random_state=0).fit(X, Y_REG),
        "gb_clf": GradientBoostingClassifier(n_estimators=3, random_state=0).fit(X, Y_CLF),
        "gb_reg": GradientBoostingRegressor(n_estimators=3, random_state=0).fit(X, Y_REG),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, Y_CLF),
        "net": FrozenEstimator(_net()),
    }


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_layer_names_output_first(models):
    assert randomised_layers(models["mlp_clf"]) == ["layer_2", "layer_1", "layer_0"]
    assert randomised_layers(models["logistic"]) == ["linear"]
    assert randomised_layers(models["ridge_pipe"]) == ["linear"]
    assert randomised_layers(models["forest"]) == ["tree_3", "tree_2", "tree_1", "tree_0"]
    assert randomised_layers(models["gb_clf"]) == ["stage_2", "stage_1", "stage_0"]
    assert randomised_layers(models["tree"]) == ["tree"]
    net_layers = randomised_layers(models["net"])
    module = unwrap(models["net"])[1].module_
    linear = [name for name, m in module.named_modules() if isinstance(m, torch.nn.Linear)]
    assert net_layers == linear[::-1]


@pytest.mark.parametrize("name", ["mlp_clf", "mlp_reg", "logistic", "ridge_pipe",
                                  "forest", "extra", "gb_clf", "gb_reg", "tree", "net"])
def test_changes_exactly_the_named_layers_and_not_the_input(models, name):
    model = models[name]
    layers = randomised_layers(model)
    chosen = layers[:1] if len(layers) < 3 else [layers[0], layers[2]]
    before = _params(model)
    pickled = pickle.dumps(model)
    new = randomise_model(model, chosen, random_state=0)
    assert type(new) is type(model) and new is not model
    assert _changed(before, _params(new)) == sorted(chosen)
    # The input model is untouched, parameters and all.
    assert _changed(before, _params(model)) == []
    assert pickle.dumps(model) == pickled
    # A fitted model of the same kind that still predicts.
    out = new.predict(X[:5].astype(np.float32))
    assert out.shape == (5,)


def test_wrappers_are_kept(models):
    new = randomise_model(models["ridge_pipe"], "linear", random_state=0)
    assert isinstance(new, FrozenEstimator)
    steps, final = unwrap(new)
    assert [n for n, _ in steps] == ["standardscaler"]
    assert final is not unwrap(models["ridge_pipe"])[1]


def test_same_seed_same_layer_whatever_else_is_randomised(models):
    mlp = models["mlp_clf"]
    one = randomise_model(mlp, ["layer_2"], random_state=3)
    two = randomise_model(mlp, ["layer_2", "layer_1"], random_state=3)
    again = randomise_model(mlp, ["layer_2"], random_state=3)
    other = randomise_model(mlp, ["layer_2"], random_state=4)
    np.testing.assert_array_equal(one.coefs_[2], two.coefs_[2])
    np.testing.assert_array_equal(one.coefs_[2], again.coefs_[2])
    assert not np.array_equal(one.coefs_[2], other.coefs_[2])
    # "all" is every layer.
    every = randomise_model(mlp, "all", random_state=3)
    assert _changed(_params(mlp), _params(every)) == sorted(randomised_layers(mlp))


def test_mlp_redrawn_like_sklearn_initialisation(models):
    mlp = models["mlp_clf"]
    new = randomise_model(mlp, "layer_0", random_state=0)
    fan_in, fan_out = mlp.coefs_[0].shape
    bound = np.sqrt(6.0 / (fan_in + fan_out))
    assert np.abs(new.coefs_[0]).max() <= bound
    assert np.abs(new.coefs_[0]).max() > 0.5 * bound


def test_classifier_leaves_stay_distributions(models):
    forest = randomise_model(models["forest"], "all", random_state=0)
    proba = forest.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.all(proba >= 0)
    assert not np.allclose(proba, models["forest"].predict_proba(X))


def test_torch_layers_reset_and_global_rng_untouched(models):
    net = models["net"]
    state = torch.get_rng_state()
    first = randomised_layers(net)[0]
    new = randomise_model(net, first, random_state=0)
    assert torch.equal(torch.get_rng_state(), state)
    again = randomise_model(net, first, random_state=0)
    layer = dict(unwrap(new)[1].module_.named_modules())[first]
    layer_again = dict(unwrap(again)[1].module_.named_modules())[first]
    assert torch.equal(layer.weight, layer_again.weight)
    # reset_parameters: nn.Linear's uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)).
    bound = 1 / np.sqrt(layer.in_features)
    assert float(layer.weight.detach().abs().max()) <= bound + 1e-7


def test_errors(models):
    with pytest.raises(ValueError, match="Unknown layers"):
        randomise_model(models["mlp_clf"], ["layer_9"], random_state=0)
    hist = HistGradientBoostingClassifier(max_iter=2).fit(X, Y_CLF)
    with pytest.raises(TypeError, match="Cannot randomise"):
        randomised_layers(hist)
    with pytest.raises(TypeError, match="Cannot randomise"):
        randomise_model(StandardScaler().fit(X), "all")


def test_deepcopy_semantics_for_frozen(models):
    frozen = models["net"]
    before = copy.deepcopy(_params(frozen))
    randomise_model(frozen, "all", random_state=1)
    assert _changed(before, _params(frozen)) == []


@pytest.mark.parametrize("name", ["mlp_clf", "forest", "net"])
def test_in_place_cascade_equals_fresh_copies(models, name):
    model = models[name]
    first, second = randomised_layers(model)[:2]
    step = randomise_model(model, [first], random_state=5)
    same = randomise_model(step, [second], random_state=5, copy=False)
    assert same is step
    fresh = randomise_model(model, [first, second], random_state=5)
    after, expected = _params(same), _params(fresh)
    for layer in expected:
        for a, b in zip(after[layer], expected[layer], strict=True):
            np.testing.assert_array_equal(a, b)


def test_xgboost_rounds_are_randomised_leaf_by_leaf():
    import json

    from xgboost import XGBClassifier, XGBRegressor

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    reg = XGBRegressor(n_estimators=4, max_depth=2, random_state=0).fit(X, X[:, 0] + X[:, 1])
    assert randomised_layers(reg) == ["round_3", "round_2", "round_1", "round_0"]
    before = reg.predict(X)
    last = randomise_model(reg, "round_3", random_state=0)
    np.testing.assert_array_equal(reg.predict(X), before)   # the input is untouched

    def leaves(model):
        trees = json.loads(model.get_booster().save_raw("json"))[
            "learner"]["gradient_booster"]["model"]["trees"]
        return [[t["split_conditions"][j] for j, c in enumerate(t["left_children"])
                 if c == -1] for t in trees]

    old, new = leaves(reg), leaves(last)
    assert old[:3] == new[:3] and old[3] != new[3]           # only the last round
    # The model is the sum of its trees: predictions move by the change of the
    # randomised tree's leaves only, and the splits are kept.
    delta = last.predict(X) - before
    assert np.unique(np.round(delta, 5)).size <= len(old[3])
    same = randomise_model(reg, "round_3", random_state=0)
    np.testing.assert_array_equal(same.predict(X), last.predict(X))
    # Cascading: randomising rounds 3 and 2 extends the step that randomised 3.
    both = randomise_model(reg, ["round_3", "round_2"], random_state=0)
    assert leaves(both)[3] == new[3] and leaves(both)[2] != old[2]
    # Classifiers: every tree of the round (one per class) is redrawn.
    clf = XGBClassifier(n_estimators=2, max_depth=2, random_state=0).fit(
        X, (X[:, 0] > 0).astype(int) + (X[:, 1] > 0))
    old, new = leaves(clf), leaves(randomise_model(clf, "round_1", random_state=0))
    assert len(old) == 6 and old[:3] == new[:3] and all(
        a != b for a, b in zip(old[3:], new[3:], strict=True))
