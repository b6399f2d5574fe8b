"""The runner fits each cell's explainer once per run, whatever the number
of workers: its row shards and its whole-cell metrics all use that fit."""

import os
import sys
import uuid

import cloudpickle
import pandas as pd
import pytest

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.explainers import FeatureAblation

MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}


class FitLoggingAblation(FeatureAblation):
    """FeatureAblation that writes one file into ``log_dir`` per ``fit``
    (in whichever process fits it)."""

    def __init__(self, estimator=None, *, masker=None, target="predicted", output="auto",
                 batch_size=None, log_dir=None):
        super().__init__(estimator, masker=masker, target=target, output=output,
                         batch_size=batch_size)
        self.log_dir = log_dir

    def fit(self, X, y=None):
        name = f"{os.getpid()}-{uuid.uuid4().hex}"
        with open(os.path.join(self.log_dir, name), "w", encoding="utf-8"):
            pass
        return super().fit(X, y)


def _config(log_dir):
    return {
        "dataset": {"name": "make_linear_attribution",
                    "params": {"n_samples": 200, "n_features": 4}},
        "models": {"lr": "linear_regression"},
        "explainers": {"ablation": {"name": FitLoggingAblation,
                                    "params": {"masker": MEAN, "log_dir": str(log_dir)}}},
        # feature_agreement is scored shard by shard; neg_auc_tp (one value
        # per cell) in a whole-cell task after the shards are joined.
        "metrics": ["feature_agreement",
                    {"name": "neg_auc_tp", "params": {"masker": MEAN}}],
        "seeds": [0, 1, 2],
        "n_explain": 40,
    }


def _fits(log_dir):
    return sorted(os.listdir(log_dir))


def test_each_cell_fits_its_explainer_once(tmp_path):
    """3 cells of 4 row shards each, plus a whole-cell metric: 3 fits (the
    runner used to fit again for the whole-cell metric: 6)."""
    log = tmp_path / "fits"
    log.mkdir()
    results = run_benchmark(_config(log), n_jobs=1, shard_size=10)
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
    assert (results.task_log["task"] == "shard").sum() == 12
    assert (results.task_log["task"] == "cell").sum() == 3
    assert len(_fits(log)) == 3


def test_two_threads_fit_each_explainer_once(tmp_path):
    """Two threads share the cells' shards: still one fit per cell (the
    runner used to fit it in every thread that ran one of its shards)."""
    log = tmp_path / "fits"
    log.mkdir()
    results = run_benchmark(_config(log), n_jobs=2, backend="threading", shard_size=10)
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
    assert len(_fits(log)) == 3


@pytest.fixture
def pickled_by_value():
    """Loky workers cannot import this test module by name (pytest imports
    it with importlib): ship its classes by value."""
    module = sys.modules[__name__]
    cloudpickle.register_pickle_by_value(module)
    yield
    cloudpickle.unregister_pickle_by_value(module)


# Slow: two loky workers pay their imports (scikit-learn, scipy, pandas).
@pytest.mark.slow
def test_two_workers_fit_each_explainer_once(tmp_path, pickled_by_value):
    """With two loky workers the 12 shards spread over both processes, yet
    each cell's explainer is fitted once, and the results are those of one
    worker (the runner used to fit it in every worker that ran one of its
    shards, and again for the whole-cell metric)."""
    log_one, log_two = tmp_path / "one", tmp_path / "two"
    log_one.mkdir()
    log_two.mkdir()
    one = run_benchmark(_config(log_one), n_jobs=1, shard_size=10)
    two = run_benchmark(_config(log_two), n_jobs=2, backend="loky", shard_size=10)
    assert two.task_log["worker"].nunique() == 2
    assert len(_fits(log_two)) == 3
    columns = ["dataset", "model", "explainer", "metric", "seed", "value", "se",
               "n_rows", "n_evaluations", "status"]
    pd.testing.assert_frame_equal(one.table[columns], two.table[columns])
    pd.testing.assert_frame_equal(one.per_row.reset_index(drop=True),
                                  two.per_row.reset_index(drop=True))


def test_meta_evaluate_fits_each_cell_explainer_once(tmp_path):
    """meta_evaluate's attribution-noise protocol re-scores perturbed copies
    of the cells' attributions with the cell's own explainer: one fit per
    cell (it used to fit the explainer again after running the cell: 2)."""
    from sklearn_xai.benchmark import BenchmarkSpec, meta_evaluate

    log = tmp_path / "fits"
    log.mkdir()
    config = _config(log)
    config["seeds"] = [0]
    config["metrics"] = ["feature_agreement"]
    meta_evaluate(BenchmarkSpec.from_dict(config), protocol="attribution_noise",
                  n_perturbations=2)
    assert len(_fits(log)) == 1
