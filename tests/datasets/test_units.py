"""Known-behaviour units: each ground truth against its closed form, the
torch module against the formula written in numpy, the pass rule by hand."""

import numpy as np
import pytest
import torch

from sklearn_xai.benchmark import unit_test_passes
from sklearn_xai.datasets import UNIT_DESCRIPTIONS, make_unit_test
from sklearn_xai.models import UNITS, HandWeightedModel, unit_module


def _tri(u):
    """Triangle wave of height 1/2 and period 1, tri(0) = 0 (closed form)."""
    return 0.5 - np.abs(np.mod(u, 1.0) - 0.5)


# The units' functions written directly in numpy, independently of the nets.
FORMULAS = {
    "cancellation": lambda X: 2 * X[:, 0] - 2 * X[:, 1] + X[:, 2],
    "conflicting": lambda X: np.where(X[:, 1] == 1, -X[:, 0], X[:, 0]),
    "xor": lambda X: np.abs(X[:, 0] - X[:, 1]),
    "product": lambda X: X[:, 0] * X[:, 1],
    "pertinent_negative": lambda X: X[:, 0] + 2 * np.maximum(1 - X[:, 1], 0),
    "shattered_gradients": lambda X: X[:, 0] + X[:, 1] + 0.15 * _tri(20 * X[:, 0]),
    "saturation": lambda X: np.clip(X[:, 0] + X[:, 1], 0, 1),
    "boolean_and": lambda X: np.minimum(X[:, 0], X[:, 1]),
    "boolean_or": lambda X: np.maximum(X[:, 0], X[:, 1]),
    "suppressor": lambda X: X[:, 0] - X[:, 1],
}


def _two_player_shapley(f, X, r):
    """Baseline Shapley values of two features, written out."""
    x1r = np.column_stack([X[:, 0], np.full(len(X), r[1])])
    rx2 = np.column_stack([np.full(len(X), r[0]), X[:, 1]])
    v0 = f(np.asarray(r, dtype=float)[None])[0]
    v1, v2, v12 = f(x1r), f(rx2), f(X)
    return np.column_stack([0.5 * (v1 - v0) + 0.5 * (v12 - v2),
                            0.5 * (v2 - v0) + 0.5 * (v12 - v1)])


@pytest.mark.parametrize("unit", sorted(UNITS))
def test_module_and_predict_equal_the_formula(unit):
    data = make_unit_test(unit, n_samples=300, random_state=0)
    f = FORMULAS[unit]
    np.testing.assert_allclose(data.target, f(data.data), rtol=0, atol=1e-12)
    np.testing.assert_allclose(data.model.predict(data.data), f(data.data), rtol=0, atol=1e-12)
    # Off the data too (the conflicting unit's formula holds for a 0/1
    # switch only).
    rng = np.random.default_rng(1)
    Z = data.data + rng.normal(0, 0.3, data.data.shape)
    if unit == "conflicting":
        Z = data.data
    out = unit_module(unit)(torch.as_tensor(Z)).detach().numpy().ravel()
    np.testing.assert_allclose(out, f(Z), rtol=0, atol=1e-6)


def test_ground_truths_closed_forms():
    d = make_unit_test("cancellation", 50, random_state=0)
    X = d.data
    np.testing.assert_array_equal(X[:, 0], X[:, 1])
    np.testing.assert_allclose(d.ground_truth, np.column_stack([2 * X[:, 0], -2 * X[:, 1],
                                                                X[:, 2]]), atol=1e-12)
    d = make_unit_test("conflicting", 50, random_state=0)
    x, c = d.data[:, 0], d.data[:, 1]
    assert set(c) == {0.0, 1.0}
    expected = np.where(c[:, None] == 1, np.column_stack([0 * x, -x]),
                        np.column_stack([x, 0 * x]))
    np.testing.assert_allclose(d.ground_truth, expected, atol=1e-12)
    d = make_unit_test("product", 50, random_state=0)
    p = d.data[:, 0] * d.data[:, 1]
    np.testing.assert_allclose(d.ground_truth, np.column_stack([p, p]) / 2, atol=1e-12)
    d = make_unit_test("pertinent_negative", 50, random_state=0)
    np.testing.assert_array_equal(d.data[:, 1], 0.0)
    np.testing.assert_allclose(d.ground_truth,
                               np.column_stack([d.data[:, 0], np.full(50, 2.0)]), atol=1e-12)
    np.testing.assert_array_equal(d.reference, [0.0, 1.0])
    d = make_unit_test("shattered_gradients", 50, random_state=0)
    x1 = d.data[:, 0]
    np.testing.assert_allclose(d.ground_truth,
                               np.column_stack([x1 + 0.15 * _tri(20 * x1), d.data[:, 1]]),
                               atol=1e-12)
    d = make_unit_test("saturation", 50, random_state=0)
    np.testing.assert_allclose(d.ground_truth, 0.5, atol=1e-12)
    d = make_unit_test("suppressor", 50, random_state=0)
    np.testing.assert_allclose(d.ground_truth[:, 0], d.target, atol=1e-12)
    np.testing.assert_array_equal(d.ground_truth[:, 1], 0.0)


@pytest.mark.parametrize("unit", ["xor", "boolean_and", "boolean_or"])
def test_interaction_ground_truths_are_two_player_shapley_values(unit):
    d = make_unit_test(unit, 100, random_state=0)
    np.testing.assert_allclose(d.ground_truth,
                               _two_player_shapley(FORMULAS[unit], d.data, [0.0, 0.0]),
                               atol=1e-12)


def test_boolean_and_hand_values():
    X = np.array([[1.0, -1.0], [1.0, 1.5], [-1.0, -0.5]])
    model = HandWeightedModel(unit="boolean_and").fit(X)
    from sklearn_xai.datasets import exact_shapley_values

    # min(1, -1) = -1: the false input takes it all; min(1, 1.5) = 1 with
    # v({1}) = v({2}) = 0: shared; (-1, -0.5): phi1 = (min(-1, 0) - 0 +
    # min(-1, -.5) - min(0, -.5)) / 2 = (-1 - .5) / 2, phi2 = -1 - phi1.
    phi = exact_shapley_values(model.predict, X, value="baseline",
                               baseline=np.zeros(2)).attributions
    np.testing.assert_allclose(phi, [[0.0, -1.0], [0.5, 0.5], [-0.75, -0.25]], atol=1e-12)


@pytest.mark.parametrize("unit", sorted(UNITS))
def test_efficiency_and_reference(unit):
    d = make_unit_test(unit, 80, random_state=3)
    f_ref = d.model.predict(d.reference[None])[0]
    np.testing.assert_allclose(d.ground_truth.sum(1), d.target - f_ref, atol=1e-10)
    assert np.linalg.norm(d.ground_truth, axis=1).min() > 0


def test_saturation_is_flat_and_sawtooth_gradient_alternates():
    d = make_unit_test("saturation", 40, random_state=0)
    np.testing.assert_array_equal(d.model.predict(d.data + 0.2), 1.0)
    X = torch.as_tensor(d.data).requires_grad_(True)
    d.model.module_(X).sum().backward()
    np.testing.assert_array_equal(X.grad.numpy(), 0.0)

    d = make_unit_test("shattered_gradients", 400, random_state=0)
    X = torch.as_tensor(d.data).requires_grad_(True)
    d.model.module_(X).sum().backward()
    g = X.grad.numpy()
    # d/dx1 = 1 + 0.15 * 20 * (+-1): 4 on rising, -2 on falling teeth.
    rising = np.mod(20 * d.data[:, 0], 1.0) < 0.5
    np.testing.assert_allclose(g[:, 0], np.where(rising, 4.0, -2.0))
    np.testing.assert_allclose(g[:, 1], 1.0)
    assert 0.3 < rising.mean() < 0.7


def test_suppressor_is_independent_of_the_target():
    d = make_unit_test("suppressor", 5000, random_state=0)
    assert abs(np.corrcoef(d.data[:, 1], d.target)[0, 1]) < 0.05
    assert np.corrcoef(d.data[:, 0], d.target)[0, 1] > 0.05


def test_unit_test_passes_by_hand():
    G = np.array([[1.0, 0.0]] * 10)
    A = G.copy()
    assert unit_test_passes(G, A) == (True, 1.0)
    A[0] = [1.0, 1.0]  # cos = 0.707: one row of ten fails, 90 % still pass
    assert unit_test_passes(G, A) == (True, 0.9)
    A[1] = 0.0  # an all-zero explanation fails its row
    assert unit_test_passes(G, A) == (False, 0.8)
    assert unit_test_passes(G, -G) == (False, 0.0)  # the sign matters
    assert unit_test_passes(G, 5 * G) == (True, 1.0)  # the scale does not
    with pytest.raises(ValueError, match="ground_truth has shape"):
        unit_test_passes(G, G[:, :1])


def test_generator_contract():
    d = make_unit_test("xor", 30, random_state=0)
    assert d.data.shape == d.ground_truth.shape == (30, 2) and d.target.shape == (30,)
    assert d.unit == "xor" and d.feature_names == ["x1", "x2"] and "cosine" in d.pass_rule
    X, y = make_unit_test("xor", 30, random_state=0, return_X_y=True)
    np.testing.assert_array_equal(X, d.data)
    a = make_unit_test("product", 30, random_state=0, shuffle=False)
    b = make_unit_test("product", 30, random_state=0)
    assert sorted(map(tuple, a.data)) == sorted(map(tuple, b.data))
    frame = make_unit_test("product", 5, random_state=0, as_frame=True)
    assert list(frame.data.columns) == ["x1", "x2"]
    with pytest.raises(ValueError, match="unit"):
        make_unit_test("nand")
    with pytest.raises(ValueError, match="n_samples"):
        make_unit_test("xor", n_samples=0)


def test_model_validation_and_irrelevant_columns():
    X = np.random.default_rng(0).normal(size=(20, 4))
    model = HandWeightedModel(unit="xor").fit(X)
    Z = X.copy()
    Z[:, 2:] = 7.0  # trailing columns have zero weight
    np.testing.assert_allclose(model.predict(Z), np.abs(X[:, 0] - X[:, 1]), atol=1e-12)
    with pytest.raises(ValueError, match="needs at least 3 features"):
        HandWeightedModel(unit="cancellation").fit(X[:, :2])
    with pytest.raises(ValueError, match="unit"):
        HandWeightedModel(unit="nand").fit(X)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        HandWeightedModel().predict(X)


def test_unit_names_agree_between_datasets_and_models():
    assert list(UNIT_DESCRIPTIONS) == list(UNITS)
