"""Renamed explainer parameters and upstream-quirk switches (deprecated in 0.1).

Every old name keeps working for one release: it warns with a FutureWarning
and gives exactly the attributions of the new name.
"""

import warnings

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import (
    CaptumLime,
    EmpiricalConditionalSHAP,
    ExactShapley,
    GradientShap,
    KernelSHAP,
    LimeTabular,
    LocalLinearSurrogate,
    ShapleyValueSampling,
    SmoothGrad,
)
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.models import LogisticNetClassifier


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = X @ [2.0, -1.0, 0.5] + X[:, 0] * X[:, 1]
    from sklearn.ensemble import RandomForestRegressor

    forest = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, y)
    with torch.random.fork_rng(devices=[]):
        net = LogisticNetClassifier(lr=0.1, max_epochs=3, early_stopping=False,
                                    random_state=0).fit(X, (y > 0).astype(int))
    return X, {"agnostic": FrozenEstimator(forest), "net": FrozenEstimator(net)}


# (class, model kind, old parameters, the same with the new names)
CASES = [
    (LimeTabular, "agnostic", {"n_samples": 40}, {"n_perturbations": 40}),
    (LocalLinearSurrogate, "agnostic", {"n_samples": 40}, {"n_perturbations": 40}),
    (CaptumLime, "agnostic", {"n_samples": 40}, {"n_perturbations": 40}),
    (KernelSHAP, "agnostic", {"n_samples": 4}, {"n_perturbations": 4}),
    (ShapleyValueSampling, "agnostic", {"n_samples": 3}, {"n_permutations": 3}),
    (EmpiricalConditionalSHAP, "agnostic", {"method": "gaussian", "n_samples": 7},
     {"method": "gaussian", "n_draws": 7}),
    (EmpiricalConditionalSHAP, "agnostic", {"uniform_small_coalitions": True},
     {"convention": "xai_bench_code"}),
    (EmpiricalConditionalSHAP, "agnostic", {"uniform_small_coalitions": False},
     {"convention": "paper"}),
    (ExactShapley, "agnostic", {"xai_bench_efficiency": True},
     {"convention": "xai_bench_code"}),
    (ExactShapley, "agnostic", {"xai_bench_efficiency": False}, {}),
    (SmoothGrad, "net", {"n_samples": 6}, {"n_perturbations": 6}),
    (GradientShap, "net", {"n_samples": 3, "std": 0.1},
     {"n_perturbations": 3, "std": 0.1}),
]


def _ids(case):
    cls, _, old, _ = case
    return f"{cls.__name__}-{'-'.join(old)}"


def _make(cls, model, **params):
    if cls in (ExactShapley, KernelSHAP):
        params.setdefault("masker", BaselineMasker("zero"))
    if cls is EmpiricalConditionalSHAP:
        params.setdefault("max_background", 20)
    return cls(model, random_state=0, **params)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_old_name_warns_and_gives_the_same_attributions(data, case):
    cls, kind, old, new = case
    X, models = data
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        expected = _make(cls, models[kind], **new).fit(X).transform(X[:4])
    ex = _make(cls, models[kind], **old)
    # The old name is a parameter (get_params / clone keep it) until fit.
    old_name = next(iter(set(old) - set(new)))
    assert ex.get_params()[old_name] == old[old_name]
    with pytest.warns(FutureWarning, match="0.2"):
        ex = clone(ex).fit(X)
    np.testing.assert_array_equal(ex.transform(X[:4]), expected)


@pytest.mark.parametrize("cls, old, new", [
    (LocalLinearSurrogate, "n_samples", "n_perturbations"),
    (KernelSHAP, "n_samples", "n_perturbations"),
    (ShapleyValueSampling, "n_samples", "n_permutations"),
    (EmpiricalConditionalSHAP, "n_samples", "n_draws"),
])
def test_both_names_with_different_values_is_an_error(data, cls, old, new):
    X, models = data
    ex = _make(cls, models["agnostic"], **{old: 5, new: 6})
    with pytest.raises(TypeError, match=f"pass only {new}"):
        ex.fit(X)


def test_deprecated_switch_contradicting_convention_is_an_error(data):
    X, models = data
    ex = _make(ExactShapley, models["agnostic"], xai_bench_efficiency=False,
               convention="xai_bench_code")
    with pytest.raises(TypeError, match="contradicts convention"), \
            pytest.warns(FutureWarning):
        ex.fit(X)


def test_deprecated_names_are_documented_and_default_to_deprecated():
    for cls, old in [(LimeTabular, "n_samples"), (SmoothGrad, "n_samples"),
                     (ExactShapley, "xai_bench_efficiency"),
                     (EmpiricalConditionalSHAP, "uniform_small_coalitions")]:
        assert cls().get_params()[old] == "deprecated"
        assert f"{old} : " in cls.__doc__ and ".. deprecated:: 0.1" in cls.__doc__


def test_old_name_still_validated(data):
    X, models = data
    with pytest.raises(ValueError, match="n_samples"):
        _make(KernelSHAP, models["agnostic"], n_samples=0).fit(X)
