"""Row shards: a cell's explained rows cut into tasks give the unsharded cell.

Explainers and metrics draw a row's random numbers from a stream keyed by the
row's values, so the runner's sharded results must equal the unsharded ones
value for value (exact equality, no tolerance), for stochastic explainers
(LIME, KernelSHAP) and metrics; metrics whose score of a row depends on the
other rows must be scored on the whole cell.
"""

import os
import socket

import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.benchmark._runner import _ROW_WISE_CONVENTIONS, _row_wise, _shard_ranges
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.metrics import get_metric_spec, get_scorer_names

MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}
KEYS = ["dataset", "model", "explainer", "metric", "seed"]
EXACT = ["n_rows", "n_nan", "status", "greater_is_better", "model_score", "explainer_class"]


def _assert_same_results(a, b, rtol=1e-12, atol=1e-14):
    """Tables and per-row scores equal value for value: the same statuses
    and counts, and the same numbers up to the last bits that numpy's
    vectorised reductions round differently for arrays of other shapes
    (at most 1e-16 relative on most metrics, 1e-10 on ill-conditioned
    ratios).  Another random stream would change scores by 1e-3 or more."""
    ta, tb = (r.table.set_index(KEYS).sort_index() for r in (a, b))
    pd.testing.assert_frame_equal(ta[EXACT], tb[EXACT], check_exact=True)
    for column in ("value", "se"):
        np.testing.assert_allclose(ta[column], tb[column], rtol=rtol, atol=atol)
    pa, pb = (r.per_row.set_index(KEYS + ["row"]).sort_index() for r in (a, b))
    pd.testing.assert_index_equal(pa.index, pb.index)
    np.testing.assert_allclose(pa["value"], pb["value"], rtol=rtol, atol=atol)


def _stochastic_config(**overrides):
    config = {
        "dataset": {"name": "make_gaussian_linear",
                    "params": {"n_samples": 120, "n_features": 4, "rho": 0.5}},
        "models": {"linear": "linear_regression",
                   "tree": {"name": "decision_tree", "params": {"max_depth": 3}}},
        "explainers": {
            "random": "RandomExplainer",
            "lime": {"name": "LimeTabular", "params": {"n_perturbations": 60,
                                                       "feature_selection": "none"}},
            "kernel_shap": {"name": "KernelSHAP", "params": {
                "n_perturbations": 24,
                "masker": {"name": "MarginalMasker", "params": {"background": 8}}}},
        },
        "metrics": {
            "pgi": {"name": "pgi", "params": {"n_perturbations": 10}},
            "neg_pgu": {"name": "neg_pgu", "params": {"n_perturbations": 10}},
            "faith_plus": {"name": "faith_plus", "params": {"n_draws": 8}},
            "infidelity": {"name": "neg_infidelity", "params": {"n_perturbations": 10}},
            # Re-explains each row's neighbours with the (stochastic) explainer.
            "max_sensitivity": {"name": "neg_max_sensitivity",
                                "params": {"n_perturbations": 2}},
            "comprehensiveness": {"name": "comprehensiveness", "params": {"masker": MEAN}},
            "shapley_corr": {"name": "shapley_corr", "params": {"n_draws": 20}},
            "feature_agreement": "feature_agreement",
        },
        "seeds": [0], "n_explain": 11,
    }
    config.update(overrides)
    return config


def test_shard_ranges():
    assert _shard_ranges(11, 4) == [(0, 4), (4, 8), (8, 11)]
    assert _shard_ranges(11, 11) == _shard_ranges(11, None) == [(0, 11)]


def test_sharded_cells_equal_unsharded_ones_value_for_value():
    config = _stochastic_config()
    whole = run_benchmark(config, shard_size=None)
    # Uneven shards (4, 4, 3 rows), run by two threads.
    sharded = run_benchmark(config, shard_size=4, n_jobs=2, backend="threading")
    assert (whole.table["status"] == "ok").all(), whole.errors[["metric", "error"]]
    _assert_same_results(whole, sharded)
    # The stochastic explainers' attributions themselves are identical too:
    # they are what every metric above scored, row by row.
    assert len(sharded.task_log) == 2 * 3 * 3 and len(whole.task_log) == 2 * 3
    # Model evaluations are counted per row, so their sum over the shards is
    # the unsharded count.
    cells = ["model", "explainer", "seed"]
    counts = [r.table.groupby(cells)["n_evaluations"].first() for r in (whole, sharded)]
    pd.testing.assert_series_equal(*counts)


def _dataset_with_everything(n_samples=40, random_state=None):
    """Two-class 3x3 images (label: sign of pixel 4) with a 0/1 ground truth."""
    rng = np.random.default_rng(random_state)
    X = rng.normal(size=(n_samples, 9))
    truth = np.zeros((n_samples, 9))
    truth[:, 4] = 1.0
    return {"data": X, "target": (X[:, 4] + 0.3 * X[:, 0] > 0).astype(int),
            "ground_truth": truth, "image_shape": (3, 3)}


def test_every_metric_the_runner_shards_is_row_wise():
    """Every registered metric with default parameters that ``_row_wise``
    admits gives, shard by shard, the unsharded per-row scores."""
    names = []
    for name in get_scorer_names():
        try:
            get_metric_spec(name)
        except ValueError:
            continue
        if _row_wise({"name": name, "params": {}}):
            names.append(name)
    metrics = {name: name for name in names}
    # The benchmark codes' conventions the runner shards, each checked here.
    for name, conventions in _ROW_WISE_CONVENTIONS.items():
        for convention in conventions:
            params = {"convention": convention}
            if "masker" in get_metric_spec(name).requires:
                params["masker"] = MEAN
            assert _row_wise({"name": name, "params": params})
            metrics[f"{name}_{convention}"] = {"name": name, "params": params}
    config = {
        "dataset": {"name": f"{__name__}._dataset_with_everything", "params": {}},
        "models": ["logistic_regression"],
        "explainers": {"ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}}},
        "metrics": metrics, "seeds": [0], "n_explain": 7,
    }
    whole = run_benchmark(config, shard_size=None)
    sharded = run_benchmark(config, shard_size=3)
    ok = whole.table.set_index("metric")["status"] == "ok"
    assert ok.sum() >= 50, whole.table.loc[~ok.to_numpy(), ["metric", "error"]]
    assert ok[[f"{n}_{c}" for n, cs in _ROW_WISE_CONVENTIONS.items() for c in cs]].all()
    # neg_ros / neg_ris divide by tiny output changes: their last-bit
    # differences grow to 1e-10 relative.
    _assert_same_results(whole, sharded, rtol=1e-9, atol=1e-12)


# Metrics whose score of a row depends on the other rows: one value per
# dataset, positional seeds (OpenXAI's code), the mean prediction of the
# explained rows, retraining on explained training rows (ROAR).
WHOLE_CELL = {
    "auc_tp": {"name": "neg_auc_tp", "params": {"masker": MEAN}},
    "pgi_openxai": {"name": "pgi", "params": {"convention": "openxai_code",
                                              "n_perturbations": 10}},
    "faith_explained_mean": {"name": "faith_plus", "params": {
        "empty_value": "explained_mean", "masker": MEAN}},
    "roar": {"name": "roar_faith_plus", "params": {"masker": MEAN}},
}


def test_metrics_that_need_the_whole_cell_are_scored_on_it():
    for spec in WHOLE_CELL.values():
        assert not _row_wise(spec)
    assert not _row_wise({"name": "neg_group_gap", "params": {"metric": "pgi"}})
    assert _row_wise({"name": "pgi", "params": {}})
    config = _stochastic_config(
        dataset={"name": "make_gaussian_linear",
                 "params": {"n_samples": 60, "n_features": 4, "rho": 0.5}},
        models=["linear_regression"],
        explainers={"ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}}},
        metrics={**WHOLE_CELL, "pgi": {"name": "pgi", "params": {"n_perturbations": 10}}},
        n_explain=8)
    whole = run_benchmark(config, shard_size=None)
    sharded = run_benchmark(config, shard_size=3)
    assert (whole.table["status"] == "ok").all(), whole.errors[["metric", "error"]]
    _assert_same_results(whole, sharded)
    assert list(sharded.task_log["task"]).count("cell") == 1  # one whole-cell task
    # The test can fail: scoring these shard by shard would give other values.
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LinearRegression
    from sklearn_xai.masking import BaselineMasker
    from sklearn_xai.metrics import faith_plus, pgi

    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 4))
    model = LinearRegression().fit(X, X @ [1.0, 2.0, -1.0, 0.5])
    A = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("mean")).fit(X).explain(X)
    for metric, kwargs in [(pgi, {"convention": "openxai_code", "random_state": 0}),
                           (faith_plus, {"empty_value": "explained_mean",
                                         "masker": BaselineMasker("mean"), "X_train": X})]:
        full = metric(model, X, A, **kwargs)
        halves = np.concatenate([metric(model, X[:3], A[:3], **kwargs),
                                 metric(model, X[3:], A[3:], **kwargs)])
        assert not np.allclose(full, halves)


class _Interrupting(FeatureAblation):
    """FeatureAblation that records the rows it explains and stops the run
    (like Ctrl-C) at its third explanation when asked."""

    log = []
    interrupt = False

    def _explain(self, X, f, target_index, rngs):
        type(self).log.append(len(X))
        if type(self).interrupt and len(type(self).log) == 3:
            raise KeyboardInterrupt
        return super()._explain(X, f, target_index, rngs)


def test_an_interrupted_run_resumes_with_no_shard_lost(tmp_path):
    from sklearn_xai.benchmark import BenchmarkInterrupted

    config = _stochastic_config(
        models=["linear_regression"],
        explainers={"stop": {"name": _Interrupting, "params": {"masker": MEAN}}},
        metrics={"pgi": {"name": "pgi", "params": {"n_perturbations": 10}},
                 "feature_agreement": "feature_agreement"},
        seeds=[0, 1], n_explain=10)
    _Interrupting.log, _Interrupting.interrupt = [], True
    with pytest.raises(BenchmarkInterrupted):
        run_benchmark(config, cache_dir=tmp_path, shard_size=4)
    # Two shards were finished and cached before the interrupt.
    assert len(os.listdir(tmp_path / "shards")) == 2
    _Interrupting.log, _Interrupting.interrupt = [], False
    resumed = run_benchmark(config, cache_dir=tmp_path, shard_size=4)
    # 2 cells x (4 + 4 + 2) rows, minus the 2 shards of 4 rows already done.
    assert sorted(_Interrupting.log) == sorted([4, 4, 2, 2])
    assert not os.listdir(tmp_path / "shards")  # joined into cell files
    assert len(os.listdir(tmp_path / "cells")) == 2
    reference = run_benchmark(config, shard_size=None)
    _assert_same_results(reference, resumed)
    # A cached rerun reads the two cell files and computes nothing.
    _Interrupting.log = []
    rerun = run_benchmark(config, cache_dir=tmp_path, shard_size=4)
    assert _Interrupting.log == [] and rerun.n_computed == 0 and rerun.task_log.empty
    _assert_same_results(reference, rerun)


def test_a_new_metric_rescores_cached_cells_in_shards(tmp_path):
    config = _stochastic_config(models=["linear_regression"],
                                explainers={"stop": {"name": _Interrupting,
                                                     "params": {"masker": MEAN}}},
                                metrics=["feature_agreement"], n_explain=10)
    _Interrupting.log, _Interrupting.interrupt = [], False
    run_benchmark(config, cache_dir=tmp_path, shard_size=5)
    assert _Interrupting.log == [5, 5]
    config["metrics"] = ["feature_agreement", "sparseness"]
    _Interrupting.log = []
    more = run_benchmark(config, cache_dir=tmp_path, shard_size=5)
    assert _Interrupting.log == []  # the cached attributions are scored
    assert list(more.task_log["rows"]) == [(0, 5), (5, 10)]
    _assert_same_results(run_benchmark(config, shard_size=None), more)


def test_shard_size_and_scheduler_address_are_validated():
    config = _stochastic_config(seeds=[0])
    for bad in (0, 2.5, "10", True, "Auto"):
        with pytest.raises(ValueError, match="shard_size must be .auto., a positive int"):
            run_benchmark(config, shard_size=bad)
    with pytest.raises(ValueError, match="needs backend='dask'"):
        run_benchmark(config, scheduler_address="tcp://127.0.0.1:8786")


def test_dask_cluster_given_by_address():
    import distributed  # a [test] dependency (dask[distributed])

    config = _stochastic_config(models=["linear_regression"],
                                explainers={"lime": _stochastic_config()["explainers"]["lime"]},
                                metrics=["pgi", "feature_agreement"], n_explain=8)
    reference = run_benchmark(config, shard_size=None)
    # An in-process cluster (no ports, no worker processes), reached by its
    # address only: the runner connects, runs, and leaves it running.
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=":0") as cluster:
        results = run_benchmark(config, backend="dask", shard_size=3,
                                scheduler_address=cluster.scheduler_address)
        assert cluster.status.name == "running"
        with pytest.raises(ValueError):
            distributed.get_client()  # the runner's client is closed
        # The address in dask's configuration (DASK_SCHEDULER_ADDRESS).
        import dask

        with dask.config.set({"scheduler-address": cluster.scheduler_address}):
            configured = run_benchmark(config, backend="dask", shard_size=3)
        assert cluster.status.name == "running"
    _assert_same_results(reference, results)
    _assert_same_results(reference, configured)
    assert len(results.task_log) == 3
    assert configured.task_log["worker"].str.startswith(socket.gethostname()).all()
