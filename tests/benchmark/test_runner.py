import os
import sys

import numpy as np
import pandas as pd

import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier, MLPRegressor

from sklearn_xai.benchmark import BenchmarkSpec, resolve_component, run_benchmark
from sklearn_xai.datasets import make_linear_attribution
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import comprehensiveness, feature_agreement

MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}
VALUE_COLUMNS = ["dataset", "model", "explainer", "metric", "seed", "value", "se",
                 "n_rows", "n_nan", "n_evaluations", "model_score", "status"]

# Explainer executions, counted by the test explainers below (threading and
# sequential backends share this process).
CALLS = {"n": 0, "fail_seeds": set()}


class CountingAblation(FeatureAblation):
    """FeatureAblation that counts its explanations and fails on request."""

    def __init__(self, estimator=None, *, masker=None, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        super().__init__(estimator, masker=masker, target=target, output=output,
                         batch_size=batch_size)
        self.random_state = random_state

    def _explain(self, X, f, target_index, rngs):
        CALLS["n"] += 1
        if self.random_state in CALLS["fail_seeds"]:
            raise RuntimeError(f"simulated crash at seed {self.random_state}")
        return super()._explain(X, f, target_index, rngs)


def _config(**overrides):
    config = {
        "dataset": {"name": "make_linear_attribution",
                    "params": {"n_samples": 200, "n_features": 4}},
        "models": {"lr": "linear_regression"},
        "explainers": {"random": "RandomExplainer",
                       "ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}}},
        "metrics": ["feature_agreement", "neg_complexity",
                    {"name": "comprehensiveness", "params": {"masker": MEAN}}],
        "seeds": [0, 1],
        "n_explain": 20,
    }
    config.update(overrides)
    return config


@pytest.fixture(autouse=True)
def _reset_calls():
    CALLS["n"] = 0
    CALLS["fail_seeds"] = set()


def test_tiny_grid_matches_a_hand_run():
    results = run_benchmark(_config(), n_jobs=1)
    table = results.table
    assert len(table) == 1 * 1 * 2 * 3 * 2
    assert (table["status"] == "ok").all()
    assert set(table["metric"]) == {"feature_agreement", "neg_complexity", "comprehensiveness"}
    assert results.control == "random"
    # The same cell computed by hand, independently of the runner.
    seed = 1
    bunch = make_linear_attribution(n_samples=200, n_features=4, random_state=seed)
    train, test = train_test_split(np.arange(200), test_size=0.25, random_state=seed)
    rows = test[:20]
    model = LinearRegression().fit(bunch.data[train], bunch.target[train])
    explainer = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("mean"))
    A = explainer.fit(bunch.data[train], bunch.target[train]).transform(bunch.data[rows])
    fa = feature_agreement(bunch.ground_truth[rows], A).mean()
    masker = BaselineMasker("mean").fit(bunch.data[train])
    comp = comprehensiveness(model, bunch.data[rows], A, masker=masker).mean()
    got = table[(table["explainer"] == "ablation") & (table["seed"] == seed)].set_index("metric")
    assert got.loc["feature_agreement", "value"] == pytest.approx(fa)
    assert got.loc["comprehensiveness", "value"] == pytest.approx(comp)
    assert got.loc["feature_agreement", "model_score"] == pytest.approx(
        model.score(bunch.data[test], bunch.target[test]))
    # Ablation would evaluate the model once per row and per removed feature
    # (+ the row); a linear model's coalitions are valued from its
    # coefficients, so only f(x) and the affinity check's rows (two per row at
    # most) reach the model.
    n_eval = got.loc["feature_agreement", "n_evaluations"]
    assert 20 <= n_eval <= 20 * (1 + 2) < 20 * (4 + 1)
    assert got.loc["neg_complexity", "greater_is_better"] is False or \
        not got.loc["neg_complexity", "greater_is_better"]
    assert len(results.per_row) == 2 * 3 * 2 * 20


def test_rerun_is_cached_and_resume_recomputes_only_failures(tmp_path):
    config = _config(explainers={"random": "RandomExplainer",
                                 "counting": {"name": CountingAblation,
                                              "params": {"masker": MEAN}}},
                     seeds=[0, 1, 2])
    CALLS["fail_seeds"] = {1}
    # 20 explained rows in two row shards of 10: two explanations per cell.
    first = run_benchmark(config, n_jobs=2, backend="threading", cache_dir=tmp_path,
                          shard_size=10)
    assert CALLS["n"] == 3 * 2
    failed = first.table[first.table["status"] == "error"]
    assert set(failed["seed"]) == {1} and set(failed["explainer"]) == {"counting"}
    assert failed["error"].str.contains("simulated crash at seed 1").all()
    assert (first.table.loc[first.table["status"] != "error", "status"] == "ok").all()

    # Resume: only the failed cell is computed again.
    CALLS["n"] = 0
    CALLS["fail_seeds"] = set()
    second = run_benchmark(config, n_jobs=2, backend="threading", cache_dir=tmp_path,
                           shard_size=10)
    assert CALLS["n"] == 2
    assert second.n_computed == 1
    # Finished cells leave no shard files behind.
    assert not os.listdir(tmp_path / "shards")
    assert (second.table["status"] == "ok").all()

    # Rerun: nothing is computed and the table is unchanged.
    CALLS["n"] = 0
    third = run_benchmark(config, n_jobs=1, cache_dir=tmp_path)
    assert CALLS["n"] == 0 and third.n_computed == 0
    assert third.table["cached"].all()
    pd.testing.assert_frame_equal(second.table[VALUE_COLUMNS], third.table[VALUE_COLUMNS])

    # A new metric re-scores the cached explanations without explaining again.
    config["metrics"] = config["metrics"] + ["sparseness"]
    fourth = run_benchmark(config, n_jobs=1, cache_dir=tmp_path)
    assert CALLS["n"] == 0
    assert (fourth.table["status"] == "ok").all()
    assert "sparseness" in set(fourth.table["metric"])


def test_no_cache_recomputes(tmp_path):
    config = _config(explainers={"counting": {"name": CountingAblation}}, seeds=[0])
    run_benchmark(config, cache_dir=None, shard_size=None)
    run_benchmark(config, cache_dir=None, shard_size=None)
    assert CALLS["n"] == 2
    assert not os.listdir(tmp_path)


def test_failures_and_skips_are_recorded():
    # An invalid *value* passes the up-front check and fails while scoring.
    config = _config(seeds=[0], metrics=[
        "feature_agreement", {"name": "neg_complexity", "params": {"normalize": "bogus"}}])
    del config["dataset"]
    config["datasets"] = {
        "with_gt": {"name": "make_linear_attribution", "params": {"n_samples": 100}},
        "no_gt": {"name": "sklearn_xai.datasets.load_diabetes"},
    }
    results = run_benchmark(config)
    table = results.table.set_index(["dataset", "explainer", "metric"])
    skipped = table.loc[("no_gt", "ablation", "feature_agreement")]
    assert skipped["status"] == "skipped"
    assert "ground_truth" in skipped["error"]
    assert table.loc[("with_gt", "ablation", "feature_agreement"), "status"] == "ok"
    broken = results.table[results.table["metric"] == "neg_complexity"]
    assert (broken["status"] == "error").all()
    assert broken["error"].str.contains("normalize").all()
    assert (broken["failed_in"] == "metric").all()
    assert (results.table.loc[results.table["status"] != "error", "failed_in"] == "").all()


def test_cell_level_error_does_not_stop_the_run():
    config = _config(models={"lr": "linear_regression",
                             "bad": {"name": "linear_regression",
                                     "params": {"fit_intercept": "maybe"}}}, seeds=[0])
    results = run_benchmark(config)
    bad = results.table[results.table["model"] == "bad"]
    assert (bad["status"] == "error").all() and bad["error"].str.contains("fit_intercept").all()
    assert (bad["failed_in"] == "model").all()
    assert (results.table.loc[results.table["model"] == "lr", "status"] == "ok").all()


def test_parameter_typos_fail_before_any_cell_with_every_problem_named():
    CALLS["n"] = 0
    config = _config(
        seeds=[0],
        models={"lr": {"name": "linear_regression", "params": {"fit_intercep": False}}},
        explainers={"ablation": {"name": "FeatureAblation",
                                 "params": {"batch_sise": 10,
                                            "masker": {"name": "BaselineMasker",
                                                       "params": {"valu": "mean"}}}},
                    "kernel": {"name": "KernelSHAP", "params": {"nsamples": 50}}},
        metrics=["feature_agreement", {"name": "pgi", "params": {"kk": 2}}, "pgii"])
    config["dataset"]["params"]["n_featurs"] = 3
    with pytest.raises(ValueError) as info:
        run_benchmark(config)
    message = str(info.value)
    for expected in (
            "datasets['make_linear_attribution']: make_linear_attribution has no "
            "parameter 'n_featurs'; did you mean 'n_features'?",
            "models['lr']: LinearRegression has no parameter 'fit_intercep'; did you mean "
            "'fit_intercept'?",
            "explainers['ablation']: FeatureAblation has no parameter 'batch_sise'; did you "
            "mean 'batch_size'?",
            "explainers['ablation'].params.masker: BaselineMasker has no parameter 'valu'",
            "explainers['kernel']: KernelSHAP has no parameter 'nsamples'; valid "
            "parameters: ['batch_size', 'estimator', 'groups', 'masker', "
            "'n_perturbations',",
            "metrics['pgi']: pgi has no parameter 'kk'; did you mean 'k'?",
            "metrics['pgii']: 'pgii' is not an explanation scorer. Did you mean 'pgi'?"):
        assert expected in message
    assert "7 problem(s)" in message
    assert CALLS["n"] == 0


def test_explainer_and_model_instances_in_a_spec_are_cloned():
    explainer = FeatureAblation(masker=BaselineMasker("mean"))
    model = LinearRegression()
    results = run_benchmark(_config(seeds=[0, 1], models={"lr": model},
                                    explainers={"ablation": explainer}))
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
    # The user's objects are not fitted or changed.
    assert not hasattr(explainer, "estimator_") and not hasattr(model, "coef_")
    assert explainer.get_params()["masker"].get_params() == {"value": "mean"}


def test_threading_and_loky_give_the_same_table(tmp_path):
    config = _config(seeds=[0, 1])
    threaded = run_benchmark(config, n_jobs=2, backend="threading").table
    # Worker processes share the cell and fitted-model caches.
    loky = run_benchmark(config, n_jobs=2, backend="loky", cache_dir=tmp_path).table
    assert len(os.listdir(tmp_path / "cells")) == 4
    pd.testing.assert_frame_equal(threaded[VALUE_COLUMNS], loky[VALUE_COLUMNS])


def _no_dask_client_left(distributed):
    with pytest.raises(ValueError):
        distributed.get_client()


def test_dask_backend_gives_the_same_table():
    distributed = pytest.importorskip("distributed")
    config = _config(seeds=[0, 1])
    # Sequential = loky is checked in test_threading_and_loky_give_the_same_table.
    reference = run_benchmark(config, n_jobs=1).table
    # An in-process cluster (no ports, no worker processes) the caller owns.
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        table = run_benchmark(config, backend="dask").table
    pd.testing.assert_frame_equal(reference[VALUE_COLUMNS], table[VALUE_COLUMNS])
    _no_dask_client_left(distributed)


@pytest.mark.slow
def test_dask_backend_starts_and_stops_its_own_cluster():
    distributed = pytest.importorskip("distributed")
    import multiprocessing

    config = _config(seeds=[0, 1])
    reference = run_benchmark(config, n_jobs=1).table
    before = {p.pid for p in multiprocessing.active_children()}
    # No running client: the runner starts a loopback cluster of 2 worker
    # processes for this run and shuts it down afterwards.
    table = run_benchmark(config, n_jobs=2, backend="dask").table
    pd.testing.assert_frame_equal(reference[VALUE_COLUMNS], table[VALUE_COLUMNS])
    _no_dask_client_left(distributed)
    left = {p.pid for p in multiprocessing.active_children() if p.is_alive()} - before
    assert not left


def test_dask_missing_gives_a_clear_error(monkeypatch):
    # A None entry in sys.modules makes ``import distributed`` raise ImportError,
    # as on a machine without the dask extra.
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match="sklearn-xai\\[dask\\]"):
        run_benchmark(_config(seeds=[0]), backend="dask")


def test_spec_validation():
    with pytest.raises(ValueError, match="Unknown explainer 'NoSuchExplainer'"):
        run_benchmark(_config(explainers=["NoSuchExplainer"]))
    with pytest.raises(ValueError, match="not an explanation scorer"):
        run_benchmark(_config(metrics=["no_such_metric"]))
    with pytest.raises(ValueError, match="Unknown benchmark config keys"):
        BenchmarkSpec.from_dict({**_config(), "sedes": [1]})
    with pytest.raises(ValueError, match="labelled 'FeatureAblation'"):
        BenchmarkSpec.from_dict(_config(explainers=["FeatureAblation", "FeatureAblation"]))
    with pytest.raises(ValueError, match="seeds"):
        BenchmarkSpec.from_dict(_config(seeds=[]))
    with pytest.raises(ValueError, match="n_explain"):
        BenchmarkSpec.from_dict(_config(n_explain=0))
    with pytest.raises(ValueError, match="neither a preset"):
        run_benchmark("no_such_preset_or_file")
    with pytest.raises(ValueError, match="backend"):
        run_benchmark(_config(seeds=[0]), backend="spark")


def test_component_resolution():
    assert isinstance(resolve_component("mlp", "model", seed=3), MLPRegressor)
    clf = resolve_component({"name": "mlp", "params": {"max_iter": 5}}, "model", seed=3,
                            task="classification")
    assert isinstance(clf, MLPClassifier) and clf.random_state == 3 and clf.max_iter == 5
    with pytest.raises(ValueError, match="classification only"):
        resolve_component("logistic_regression", "model")
    explainer = resolve_component(
        {"name": "FeatureAblation", "params": {"masker": MEAN}}, "explainer")
    assert isinstance(explainer.masker, BaselineMasker) and explainer.masker.value == "mean"
    dotted = resolve_component("sklearn.tree.DecisionTreeRegressor", "model", seed=1)
    assert dotted.random_state == 1
    with pytest.raises(ValueError, match="dataset provides no 'distribution'"):
        resolve_component({"name": "FeatureAblation",
                           "params": {"masker": "@distribution"}}, "explainer", context={})


class WarningAblation(FeatureAblation):
    def _explain(self, X, f, target_index, rngs):
        import warnings

        warnings.warn("attributions look odd", UserWarning)
        return super()._explain(X, f, target_index, rngs)


def test_warnings_are_recorded_and_cached(tmp_path):
    config = _config(explainers={"warn": {"name": WarningAblation}}, seeds=[0])
    first = run_benchmark(config, cache_dir=tmp_path).table
    assert first["warnings"].str.contains("UserWarning: attributions look odd").all()
    second = run_benchmark(config, cache_dir=tmp_path).table
    assert second["cached"].all()
    assert (second["warnings"] == first["warnings"]).all()


def _image_data(n_samples=60, random_state=None):
    """Two-class 3x3 images whose label is the sign of pixel 4 (the mask)."""
    rng = np.random.default_rng(random_state)
    X = rng.normal(size=(n_samples, 9))
    mask = np.zeros((n_samples, 9), dtype=bool)
    mask[:, 4] = True
    return {"data": X, "target": (X[:, 4] > 0).astype(int), "ground_truth_mask": mask,
            "image_shape": (3, 3)}


def test_image_shape_and_row_references_reach_explainers_and_metrics():
    config = {
        "dataset": {"name": f"{__name__}._image_data", "params": {}},
        "models": ["logistic_regression"],
        "explainers": {"input": "InputAttribution", "sobel": "SobelFilter"},
        "metrics": {
            "precision": {"name": "mask_precision",
                          "params": {"ground_truth": "@ground_truth_mask"}},
            "fa_lr": {"name": "feature_agreement",
                      "params": {"k": 1, "ground_truth": "@linear_model_reference"}},
            "missing": {"name": "mask_precision", "params": {"ground_truth": "@nothing"}},
        },
        "seeds": [0], "n_explain": 10,
    }
    table = run_benchmark(config).table.set_index(["explainer", "metric"])
    # InputAttribution attributes the input itself: pixel 4 is in its top-1
    # only when it has the largest |x| of the row -- computed by hand.
    bunch = _image_data(60, random_state=0)
    _, test = train_test_split(np.arange(60), test_size=0.25, random_state=0,
                               stratify=bunch["target"])
    X = bunch["data"][test[:10]]
    expected = (np.abs(X).argmax(axis=1) == 4).mean()
    assert table.loc[("input", "precision"), "value"] == pytest.approx(expected)
    assert table.loc[("input", "fa_lr"), "status"] == "ok"
    assert table.loc[("sobel", "precision"), "status"] == "ok"  # needed image_shape
    assert table.loc[("input", "missing"), "status"] == "error"
    assert "no per-row array 'nothing'" in table.loc[("input", "missing"), "error"]


def test_exact_shapley_reference_is_computed_once_per_model_and_seed(monkeypatch):
    from sklearn_xai.metrics import _shapley_reference

    calls = []
    original = _shapley_reference.exact_shapley_values

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_shapley_reference, "exact_shapley_values", counting)
    config = {
        "dataset": {"name": "make_gaussian_piecewise_constant",
                    "params": {"n_samples": 200, "n_features": 3}},
        "models": {"tree": {"name": "decision_tree", "params": {"max_depth": 3}}},
        "explainers": {"random": "RandomExplainer",
                       "shap": {"name": "ExactShapley", "params": {"masker": {
                           "name": "MarginalMasker", "params": {"background": 20}}}},
                       "ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}}},
        "metrics": {"corr": {"name": "shapley_corr", "params": {"n_draws": 50}},
                    "mse": {"name": "neg_shapley_mse", "params": {"n_draws": 50}},
                    "corr_200": {"name": "shapley_corr", "params": {"n_draws": 200}}},
        "seeds": [0, 1], "n_explain": 8,
    }
    table = run_benchmark(config, n_jobs=1).table
    assert (table["status"] == "ok").all()
    # Two seeds x two reference settings (50 and 200 draws), not x 3 explainers.
    assert len(calls) == 2 * 2
    # The shared reference gives the metric's own value, computed by hand.
    from sklearn_xai.datasets import make_gaussian_piecewise_constant
    from sklearn_xai.metrics import shapley_corr
    from sklearn.tree import DecisionTreeRegressor

    bunch = make_gaussian_piecewise_constant(n_samples=200, n_features=3, random_state=1)
    train, test = train_test_split(np.arange(200), test_size=0.25, random_state=1)
    model = DecisionTreeRegressor(max_depth=3, random_state=1).fit(bunch.data[train],
                                                                   bunch.target[train])
    X = bunch.data[test[:8]]
    A = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("mean")).fit(
        bunch.data[train]).explain(X)
    want = shapley_corr(model, X, A, distribution=bunch.distribution, n_draws=50,
                        random_state=1)
    got = table.set_index(["explainer", "metric", "seed"]).loc[("ablation", "corr", 1)]
    assert got["value"] == pytest.approx(np.nanmean(want))


def test_nets_taking_random_state_through_kwargs_get_the_seed():
    """skorch nets take ``random_state`` through ``**kwargs`` (it is not in
    their signature): the runner's seed must still reach them, else every
    trained net of a benchmark is unseeded and a rerun trains another one."""
    from sklearn_xai.benchmark import resolve_component

    spec = {"name": "TetrominoNetClassifier",
            "params": {"architecture": "mlp", "image_size": 8, "max_epochs": 1}}
    assert resolve_component(spec, "model", seed=3,
                             task="classification").random_state == 3
    given = {"name": "TetrominoNetClassifier", "params": {"random_state": 7}}
    assert resolve_component(given, "model", seed=3,
                             task="classification").random_state == 7
    assert resolve_component("BEExAIMLPRegressor", "model", seed=5,
                             task="regression").random_state == 5


def _torch_spec():
    from sklearn_xai.benchmark import BenchmarkSpec

    return BenchmarkSpec(
        name="torch_threads",
        datasets={"xor": {"name": "make_tetrominoes", "params": {
            "n_samples": 120, "scenario": "xor", "background": "white", "image_size": 8},
            "task": "classification"}},
        models={"mlp": {"name": "TetrominoNetClassifier", "params": {
            "architecture": "mlp", "image_size": 8, "max_epochs": 2}}},
        explainers={"saliency": "Saliency", "ig": {"name": "IntegratedGradients",
                                                 "params": {"n_steps": 8}}},
        metrics={"neg_complexity": "neg_complexity"}, seeds=[0, 1], n_explain=6)


def test_torch_threads_of_the_caller_are_restored():
    """The runner gives each task one torch thread in the main process
    (n_jobs=1) and restores the caller's setting afterwards."""
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(3)  # not the one thread a task gets
        one = run_benchmark(_torch_spec(), n_jobs=1, verbose=0)
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)
    assert (one.table["status"] == "ok").all()


# Slow: two loky workers each pay a cold import of torch, captum and skorch
# (the most expensive test of the default run before it moved here).
@pytest.mark.slow
def test_torch_results_do_not_depend_on_n_jobs():
    """Torch rounds differently with its number of threads: the runner gives
    each task one torch thread, so a trained net, its explanations and their
    scores are the same bits with n_jobs=1 (the main process) and n_jobs=2
    (workers), and the caller's torch setting is restored."""
    import torch

    spec = _torch_spec()
    before = torch.get_num_threads()
    one = run_benchmark(spec, n_jobs=1, verbose=0)
    assert torch.get_num_threads() == before
    two = run_benchmark(spec, n_jobs=2, verbose=0)
    assert (one.table["status"] == "ok").all()
    np.testing.assert_array_equal(one.table["model_score"], two.table["model_score"])
    np.testing.assert_array_equal(one.per_row["value"], two.per_row["value"])


def _old_keys_data(random_state=None):
    """A user dataset still spelling its Bunch keys ``X`` / ``y``."""
    from sklearn.utils import Bunch

    X = np.random.default_rng(random_state).normal(size=(40, 3))
    return Bunch(X=X, y=X @ [1.0, 2.0, -1.0])


def _tuple_data(random_state=None):
    X = np.random.default_rng(random_state).normal(size=(40, 3))
    return X, X @ [1.0, 2.0, -1.0]


def test_user_dataset_must_name_its_keys_data_and_target():
    def config(name):
        return {"dataset": {"name": f"{__name__}.{name}", "params": {}},
                "models": ["linear_regression"], "explainers": {"abl": "FeatureAblation"},
                "metrics": ["comprehensiveness"], "seeds": [0], "n_explain": 5}

    failed = run_benchmark(config("_old_keys_data")).table.iloc[0]
    assert failed["status"] != "ok"
    assert "'data'" in failed["error"] and "'target'" in failed["error"]
    assert "['X', 'y']" in failed["error"]  # names the keys to rename
    # An (X, y) tuple is still a data set: scored on the runner's 75/25 split,
    # recomputed here with scikit-learn directly.
    ok = run_benchmark(config("_tuple_data")).table.iloc[0]
    assert ok["status"] == "ok"
    X, y = _tuple_data(0)
    train, test = train_test_split(np.arange(40), test_size=0.25, random_state=0)
    expected = LinearRegression().fit(X[train], y[train]).score(X[test], y[test])
    assert ok["model_score"] == pytest.approx(expected, rel=1e-12)
