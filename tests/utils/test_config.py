"""The package configuration and the allocation limit (check_allocation).

A count such as ``n_perturbations=10**12`` is refused where it enters, with
a message naming the parameter, the estimated size, the limit and how to
raise it, before any model call or training: the models below fail the test
if they are called.
"""

import threading
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPClassifier

from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.explainers import (
    MAPLE,
    CaptumKernelSHAP,
    CaptumLime,
    FeatureAblation,
    GradientShap,
    IntegratedGradients,
    KernelSHAP,
    LimeTabular,
    LocalLinearSurrogate,
    NoiseTunnel,
    PermutationImportance,
    Saliency,
    ShapleyValueSampling,
    SmoothGrad,
)
from sklearn_xai.masking import ConditionalMasker
from sklearn_xai.metrics import (
    avg_sensitivity,
    continuity,
    faith_plus,
    local_lipschitz_estimate,
    max_sensitivity,
    relative_input_stability,
    relative_output_stability,
    shapley_corr,
    shapley_mse,
)
from sklearn_xai.utils import check_allocation, config_context, get_config, set_config

BIG = 10**12
GIB = 2**30


# ------------------------------------------------------------- the mechanism
def test_default_limit_and_config_accessors():
    assert get_config() == {"max_allocation_bytes": 8 * GIB,
                            "device_memory_fraction": 0.25, "device_memory": None}
    with config_context(max_allocation_bytes=GIB):
        assert get_config()["max_allocation_bytes"] == GIB
        with config_context(max_allocation_bytes=None):
            assert get_config()["max_allocation_bytes"] is None
        assert get_config()["max_allocation_bytes"] == GIB
    assert get_config()["max_allocation_bytes"] == 8 * GIB
    set_config(max_allocation_bytes=2 * GIB)
    try:
        assert get_config()["max_allocation_bytes"] == 2 * GIB
        set_config()  # nothing given: unchanged
        assert get_config()["max_allocation_bytes"] == 2 * GIB
    finally:
        set_config(max_allocation_bytes=8 * GIB)
    get_config()["max_allocation_bytes"] = 1  # a copy: no effect
    assert get_config()["max_allocation_bytes"] == 8 * GIB


@pytest.mark.parametrize("bad", [0, -1, 1.5, "8G", True])
def test_invalid_limit_is_refused(bad):
    with pytest.raises(ValueError, match="max_allocation_bytes must be a positive int"):
        set_config(max_allocation_bytes=bad)
    assert get_config()["max_allocation_bytes"] == 8 * GIB


def test_config_is_per_thread():
    seen = {}

    def worker():
        seen["limit"] = get_config()["max_allocation_bytes"]

    with config_context(max_allocation_bytes=GIB):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    assert seen["limit"] == 8 * GIB


def test_message_names_parameter_size_limit_and_how_to_raise_it():
    # 10**12 copies of a 10-feature float64 row: 8e13 bytes = 72.76 TiB.
    assert 8e13 / 2**40 == pytest.approx(72.76, abs=0.01)
    with pytest.raises(ValueError) as info:
        check_allocation(BIG * 10, what="the perturbed copies of one row",
                         parameter="n_perturbations", value=BIG)
    message = str(info.value)
    for part in ("n_perturbations=1000000000000", "72.8 TiB",
                 "the perturbed copies of one row", "limit of 8.0 GiB",
                 f"max_allocation_bytes={8 * GIB}",
                 "set_config(max_allocation_bytes=", "config_context("):
        assert part in message


def test_limit_is_inclusive_and_itemsize_counts():
    with config_context(max_allocation_bytes=800):
        check_allocation(100, what="x", parameter="n")  # 800 bytes: allowed
        with pytest.raises(ValueError, match="needs about 808 B"):
            check_allocation(101, what="x", parameter="n")
        check_allocation(800, itemsize=1, what="x", parameter="n")
        with pytest.raises(ValueError, match=r"n needs about 1\.6 KiB"):
            check_allocation(200, itemsize=8, what="x", parameter="n")
    with config_context(max_allocation_bytes=None):
        check_allocation(BIG * BIG, what="x", parameter="n")  # no limit


# --------------------------------------------------- where the counts enter
class _Untouchable(ClassifierMixin, BaseEstimator):
    """A fitted linear classifier (2 classes) that fails the test when
    trained or evaluated on more than the explained rows: the allocation
    check must come before any perturbed row is scored."""

    def __init__(self, n_features=4):
        self.n_features = n_features

    def _set_fitted(self):
        self.classes_ = np.array([0, 1])
        self.n_features_in_ = self.n_features
        self.coef_ = np.ones((1, self.n_features))
        self.intercept_ = np.zeros(1)
        return self

    def fit(self, X, y=None):
        raise AssertionError("the model was trained before the allocation check")

    def predict_proba(self, X):
        # The explained rows themselves may be scored (their predicted
        # class), nothing more.
        if len(X) > 3:
            raise AssertionError("the model was called before the allocation check")
        return np.full((len(X), 2), 0.5)

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


class _UntouchableRegressor(RegressorMixin, BaseEstimator):
    def fit(self, X, y=None):
        raise AssertionError("the model was trained before the allocation check")

    def predict(self, X):
        raise AssertionError("the model was called before the allocation check")


class _UntouchableExplainer:
    """Fails the test if the metric explains anything."""

    def explain(self, *args, **kwargs):
        raise AssertionError("the explainer ran before the allocation check")

    transform = explain


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 4))
    y = (X[:, 0] > 0).astype(int)
    mlp = MLPClassifier((3,), max_iter=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mlp.fit(X, y)
    return X, y, mlp


def _frozen(d=4):
    return FrozenEstimator(_Untouchable(d)._set_fitted())


EXPLAINERS = {
    "LimeTabular": (lambda p: LimeTabular(_frozen(), n_perturbations=BIG), "n_perturbations"),
    "LocalLinearSurrogate": (lambda p: LocalLinearSurrogate(_frozen(), n_perturbations=BIG),
                             "n_perturbations"),
    "CaptumLime": (lambda p: CaptumLime(_frozen(), n_perturbations=BIG), "n_perturbations"),
    "CaptumKernelSHAP": (lambda p: CaptumKernelSHAP(_frozen(), n_perturbations=BIG),
                         "n_perturbations"),
    "ShapleyValueSampling": (lambda p: ShapleyValueSampling(_frozen(), n_permutations=BIG),
                             "n_permutations"),
    "IntegratedGradients": (lambda p: IntegratedGradients(FrozenEstimator(p[2]),
                                                          n_steps=BIG), "n_steps"),
    "SmoothGrad": (lambda p: SmoothGrad(FrozenEstimator(p[2]), n_perturbations=BIG),
                   "n_perturbations"),
    "GradientShap": (lambda p: GradientShap(FrozenEstimator(p[2]), n_perturbations=BIG),
                     "n_perturbations"),
    "NoiseTunnel": (lambda p: NoiseTunnel(Saliency(FrozenEstimator(p[2])),
                                          n_perturbations=BIG), "n_perturbations"),
    "MAPLE": (lambda p: MAPLE(_UntouchableRegressor(), n_estimators=BIG), "n_estimators"),
    "PermutationImportance": (lambda p: PermutationImportance(
        _UntouchableRegressor(), n_repeats=BIG), "n_repeats"),
}


@pytest.mark.parametrize("name", list(EXPLAINERS))
def test_explainer_counts_are_refused_before_any_work(name, problem):
    X, y, _ = problem
    make, parameter = EXPLAINERS[name]
    explainer = make(problem)
    with pytest.raises(ValueError, match=rf"{parameter}={BIG} needs about .* limit"):
        explainer.fit(X, y).transform(X[:2])


def test_kernel_shap_counts_beyond_every_coalition_are_not_refused(problem):
    """With 4 features every one of the 2**4 - 2 coalitions is enumerated
    whatever the budget: a large n_perturbations allocates nothing more."""
    X, y, mlp = problem
    A = KernelSHAP(FrozenEstimator(mlp), n_perturbations=BIG).fit(X).transform(X[:2])
    assert A.shape == (2, 4)
    d = 64  # too many coalitions to enumerate: the budget is drawn
    X64 = np.random.default_rng(1).normal(size=(3, d))
    explainer = KernelSHAP(_frozen(d), n_perturbations=BIG).fit(X64)
    with pytest.raises(ValueError, match=rf"n_perturbations={BIG} needs about"):
        explainer.transform(X64[:2])


def _distribution():
    return MultivariateGaussian.equicorrelated(4, rho=0.0)


METRICS = {
    "max_sensitivity": (lambda: dict(func=max_sensitivity, n_perturbations=BIG),
                        "n_perturbations"),
    "avg_sensitivity": (lambda: dict(func=avg_sensitivity, n_perturbations=BIG),
                        "n_perturbations"),
    "local_lipschitz_estimate": (lambda: dict(func=local_lipschitz_estimate,
                                              n_perturbations=BIG), "n_perturbations"),
    "continuity": (lambda: dict(func=continuity, n_steps=BIG), "n_steps"),
    "relative_input_stability": (lambda: dict(func=relative_input_stability,
                                              n_perturbations=BIG), "n_perturbations"),
    "relative_output_stability": (lambda: dict(func=relative_output_stability,
                                               n_perturbations=BIG), "n_perturbations"),
    "shapley_mse": (lambda: dict(func=shapley_mse, distribution=_distribution(),
                                 n_draws=BIG), "n_draws"),
    "shapley_corr": (lambda: dict(func=shapley_corr, distribution=_distribution(),
                                  n_draws=BIG), "n_draws"),
    "faith_plus": (lambda: dict(func=faith_plus, distribution=_distribution(),
                                n_draws=BIG), "n_draws"),
    "faith_plus_xai_bench_code": (lambda: dict(
        func=faith_plus, distribution=_distribution(), n_draws=BIG,
        convention="xai_bench_code"), "the masker's n_draws"),
    "faith_plus_masker": (lambda: dict(
        func=faith_plus, masker=ConditionalMasker(_distribution(), n_draws=BIG)),
        "the masker's n_draws"),
}


@pytest.mark.parametrize("name", list(METRICS))
def test_metric_counts_are_refused_before_any_work(name, problem):
    X = problem[0][:3]
    kwargs, parameter = METRICS[name]
    kwargs = kwargs()
    func = kwargs.pop("func")
    if name.startswith(("max_", "avg_", "local_", "continuity", "relative_")):
        kwargs["explainer"] = _UntouchableExplainer()
    with pytest.raises(ValueError, match=rf"{parameter}={BIG} needs about .* limit"):
        func(_frozen().estimator, X, np.ones_like(X), **kwargs)


def test_a_raised_limit_lets_the_same_run_through(problem):
    """The estimate of a sampled surrogate is its perturbed copies of one
    row and as many distances and weights: 2 * 50 * 4 float64 = 3200
    bytes here; the limit decides, and the result does not depend on it."""
    X, y, mlp = problem
    explainer = LocalLinearSurrogate(FrozenEstimator(mlp), n_perturbations=50,
                                     random_state=0)
    with config_context(max_allocation_bytes=3199):
        with pytest.raises(ValueError, match=r"n_perturbations=50 needs about 3\.1 KiB"):
            explainer.fit(X)
    with config_context(max_allocation_bytes=3200):
        A = explainer.fit(X).transform(X[:3])
    with config_context(max_allocation_bytes=None):
        np.testing.assert_array_equal(explainer.fit(X).transform(X[:3]), A)


def test_feature_ablation_has_no_count_to_check(problem):
    # A deterministic explainer without a count is never refused.
    X, y, mlp = problem
    with config_context(max_allocation_bytes=1):
        FeatureAblation(FrozenEstimator(mlp)).fit(X).transform(X[:2])


@pytest.mark.parametrize("name", ["pgi", "infidelity"])
def test_blocks_of_derived_rows_are_checked_for_every_metric(name, problem):
    """The metrics that score derived rows in blocks
    (ExplainedOutput.blocks_with_x) are refused before the first block: one
    row's 10**12 + 1 model inputs of 4 features."""
    from sklearn_xai import metrics

    X = problem[0][:3]
    # (10**12 + 1) * 4 float64 entries: 29.1 TiB
    assert (BIG + 1) * 4 * 8 / 2**40 == pytest.approx(29.10, abs=0.01)
    with pytest.raises(ValueError, match=r"needs about 29\.1 TiB for the "
                       rf"{BIG} model inputs of one row"):
        getattr(metrics, name)(_frozen().estimator, X, np.ones_like(X),
                               n_perturbations=BIG)


def test_config_is_importable_from_the_package():
    # That ``import sklearn_xai`` stays free of heavy imports is checked in a
    # fresh interpreter by tests/benchmark/test_fast_feedback.py.
    import sklearn_xai
    from sklearn_xai import config_context, get_config, set_config
    from sklearn_xai.utils import _config

    assert set_config is _config.set_config and get_config is _config.get_config
    assert config_context is _config.config_context
    assert sklearn_xai.get_config is _config.get_config
