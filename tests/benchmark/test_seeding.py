"""The one rule by which the runner gives a component the cell's seed: a
component that takes a ``random_state`` gets ``random_state=seed`` unless
its spec sets one (an estimator instance keeps a value set on it; a
registered metric takes it when it declares it)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression

from sklearn_xai.benchmark import resolve_component
from sklearn_xai.benchmark._runner import _load_dataset, _metric_kwargs
from sklearn_xai.benchmark._spec import _seed_params
from sklearn_xai.metrics import get_metric_spec, register_metric
from sklearn_xai.metrics import _registry

SEED = 3


class KwargsEstimator(BaseEstimator):
    """Takes its parameters through ``**kwargs`` (as skorch nets do): its
    signature does not show ``random_state``, ``get_params`` does."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def get_params(self, deep=True):
        return {"random_state": None, **self.kwargs}

    def set_params(self, **params):
        self.kwargs.update(params)
        return self

    def fit(self, X, y):
        return self


@pytest.mark.parametrize("spec, params, expected", [
    # An estimator class with random_state: seeded unless the spec sets it.
    (RandomForestRegressor, {}, SEED),
    ({"name": RandomForestRegressor, "params": {"random_state": 7}}, {}, 7),
    # An instance: seeded where its random_state is None, else kept.
    (RandomForestRegressor(n_estimators=4), {"n_estimators": 4}, SEED),
    (RandomForestRegressor(random_state=5), {}, 5),
    ({"name": RandomForestRegressor(), "params": {"n_estimators": 2}},
     {"n_estimators": 2}, SEED),
    ({"name": RandomForestRegressor(random_state=5), "params": {"n_estimators": 2}},
     {"n_estimators": 2}, 5),
])
def test_estimators_with_random_state_get_the_seed(spec, params, expected):
    built = resolve_component(spec, "model", seed=SEED)
    assert isinstance(built, RandomForestRegressor)
    assert built.random_state == expected
    for key, value in params.items():
        assert built.get_params()[key] == value
    if isinstance(spec, RandomForestRegressor):
        assert built is not spec and spec.random_state in (None, 5)  # a clone
    assert resolve_component(spec, "model", seed=None).random_state == (
        None if expected == SEED else expected)


@pytest.mark.parametrize("spec", [LinearRegression, LinearRegression(),
                                  {"name": LinearRegression(), "params": {}}])
def test_estimators_without_random_state_are_left_alone(spec):
    built = resolve_component(spec, "model", seed=SEED)
    assert "random_state" not in built.get_params()
    obj = spec["name"] if isinstance(spec, dict) else spec
    assert _seed_params(obj, {}, SEED) == {}


def test_random_state_through_kwargs_is_read_from_the_instance():
    assert resolve_component(KwargsEstimator, "model", seed=SEED).kwargs == {
        "random_state": SEED}
    given = {"name": KwargsEstimator, "params": {"random_state": 9}}
    assert resolve_component(given, "model", seed=SEED).kwargs == {"random_state": 9}


def _draw(n_samples=10, random_state=None):
    rng = np.random.default_rng(random_state)
    return rng.normal(size=(n_samples, 2)), rng.normal(size=n_samples)


def _fixed(n_samples=10):
    return np.ones((n_samples, 2)), np.zeros(n_samples)


def test_plain_functions_are_seeded_by_their_signature():
    assert _seed_params(_draw, {}, SEED) == {"random_state": SEED}
    assert _seed_params(_draw, {"random_state": 1}, SEED) == {}
    assert _seed_params(_draw, {}, None) == {}
    assert _seed_params(_fixed, {}, SEED) == {}
    # The runner's dataset loader: the draw of seed 3, a fixed function as is.
    X, _ = _draw(random_state=SEED)
    np.testing.assert_array_equal(_load_dataset({"name": _draw, "params": {}}, SEED)["data"], X)
    X1, _ = _draw(random_state=1)
    loaded = _load_dataset({"name": _draw, "params": {"random_state": 1}}, SEED)
    np.testing.assert_array_equal(loaded["data"], X1)
    np.testing.assert_array_equal(_load_dataset({"name": _fixed, "params": {}}, SEED)["data"],
                                  np.ones((10, 2)))


def _noisy_size(attributions, random_state=None):
    noise = np.random.default_rng(random_state).normal(size=len(attributions))
    return np.abs(attributions).sum(axis=1) + noise


def _size(attributions):
    return np.abs(attributions).sum(axis=1)


@pytest.fixture
def plain_metrics():
    register_metric("seeding_test_noisy", _noisy_size, kind="attributions",
                    greater_is_better=True, requires=("random_state",))
    register_metric("seeding_test_plain", _size, kind="attributions",
                    greater_is_better=True)
    yield
    for name in ("seeding_test_noisy", "seeding_test_plain"):
        _registry._NAMES.pop(name, None)


def test_plain_function_metrics_get_the_seed_when_they_take_one(plain_metrics):
    prepared = {"context": {}, "X_train": None, "metadata": {}}
    noisy, plain = get_metric_spec("seeding_test_noisy"), get_metric_spec("seeding_test_plain")
    assert _seed_params(noisy, {}, SEED) == {"random_state": SEED}
    assert _seed_params(plain, {}, SEED) == {}
    kwargs, reason = _metric_kwargs({"name": "seeding_test_noisy", "params": {}}, noisy,
                                    prepared, None, SEED)
    assert reason is None and kwargs == {"random_state": SEED}
    kwargs, _ = _metric_kwargs({"name": "seeding_test_noisy", "params": {"random_state": 8}},
                               noisy, prepared, None, SEED)
    assert kwargs == {"random_state": 8}
    kwargs, reason = _metric_kwargs({"name": "seeding_test_plain", "params": {}}, plain,
                                    prepared, None, SEED)
    assert reason is None and kwargs == {}
