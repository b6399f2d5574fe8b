"""The runner's task order (longest first) and its worker warm-up."""

import sys
import textwrap

import joblib
import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.benchmark._runner import (
    _explainer_evaluations,
    _longest_first,
    _metric_evaluations,
    _task_cost,
    _warm_up_calls,
    _warm_worker,
)

VALUES = ["dataset", "model", "explainer", "seed", "metric", "status", "value", "se",
          "n_rows"]

# d = 4 features, 10 explained rows cut into shards of 4, 4 and 2 rows.
KSHAP = {"name": "KernelSHAP", "params": {
    "n_perturbations": 64, "masker": {"name": "MarginalMasker", "params": {"background": 5}}}}
LIME = {"name": "LimeTabular", "params": {"n_perturbations": 100}}


def _config(metrics):
    return {"dataset": {"name": "make_linear_attribution",
                        "params": {"n_samples": 100, "n_features": 4}},
            "models": ["linear_regression"],
            "explainers": {"random": "RandomExplainer", "lime": LIME, "kshap": KSHAP},
            "metrics": metrics, "seeds": [0], "n_explain": 10}


@pytest.mark.parametrize("spec, d, expected", [
    # A budget per row, times the masker's background rows.
    (KSHAP, 4, 64 * 5),
    (LIME, 4, 100),
    # "auto" budgets count 2048 evaluations; no masker is one baseline row.
    ("KernelSHAP", 4, 2048),
    # Permutations evaluate d + 1 coalitions each.
    ({"name": "ShapleyValueSampling", "params": {"n_permutations": 3}}, 4, 3 * 5),
    # Exact enumeration: every coalition, on each background row.
    ({"name": "ExactShapley", "params": {"masker": {"name": "MarginalMasker",
                                                    "params": {"background": 50}}}},
     5, 2 ** 5 * 50),
    # No budget: one evaluation per feature (and the full row).
    ("FeatureAblation", 6, 7),
    ("RandomExplainer", 3, 4),
])
def test_explainer_evaluations_per_row(spec, d, expected):
    assert _explainer_evaluations(spec, d) == expected


def test_metric_evaluations_per_row():
    # Attributions only; a removal curve (d + 1); a re-explanation on top.
    assert _metric_evaluations({"name": "neg_complexity", "params": {}}, 320, 4) == 0
    assert _metric_evaluations({"name": "feature_agreement", "params": {}}, 320, 4) == 0
    assert _metric_evaluations({"name": "comprehensiveness", "params": {}}, 320, 4) == 5
    assert _metric_evaluations({"name": "neg_mprt", "params": {}}, 320, 4) == 5 + 320
    assert _metric_evaluations({"name": "not_a_metric", "params": {}}, 320, 4) == 0


def test_shards_are_submitted_longest_first():
    # Costs per row (model evaluations, d = 4): KernelSHAP 64 x 5 = 320,
    # LIME 100, the random control 5; neg_complexity reads the attributions
    # only (0), comprehensiveness evaluates d + 1 = 5 coalitions.  Shards of
    # 4, 4 and 2 rows:
    #   kshap 4 x 325 = 1300, 1300, 2 x 325 = 650
    #   lime  4 x 105 = 420, 420,   2 x 105 = 210
    #   random 4 x 10 = 40, 40,     2 x 10 = 20
    # so the short KernelSHAP shard (650) goes before LIME's long ones.
    config = _config(["neg_complexity", "comprehensiveness"])
    results = run_benchmark(config, n_jobs=1, shard_size=4)
    order = list(zip(results.task_log["explainer"], results.task_log["rows"]))
    assert order == [("kshap", (0, 4)), ("kshap", (4, 8)), ("kshap", (8, 10)),
                     ("lime", (0, 4)), ("lime", (4, 8)), ("lime", (8, 10)),
                     ("random", (0, 4)), ("random", (4, 8)), ("random", (8, 10))]
    # The order changes when a shard runs, never what it computes: the same
    # bits as one task per cell.
    whole = run_benchmark(config, n_jobs=1, shard_size=None).table
    pd.testing.assert_frame_equal(results.table[VALUES], whole[VALUES])
    assert np.isfinite(results.table["value"]).all()


def test_task_cost_and_stable_longest_first():
    roar = {"name": "roar", "params": {}}  # re-explains: d + 1 + the explainer's
    complexity = {"name": "neg_complexity", "params": {}}
    # 10 rows, d = 4, KernelSHAP's 320 evaluations per row.
    assert _task_cost(10, 4, True, 320, [roar, complexity]) == 10 * (320 + 5 + 320)
    assert _task_cost(10, 4, False, 320, [roar, complexity]) == 10 * (5 + 320)
    assert _task_cost(3, 4, False, 320, []) == 0
    jobs = ["a", "b", "c", "d", "e"]
    assert _longest_first(jobs, [1.0, 5.0, 1.0, 5.0, 2.0]) == ["b", "d", "e", "a", "c"]


def test_warm_up_only_for_worker_processes():
    config = _config(["neg_complexity"])
    from sklearn_xai.benchmark._runner import _as_spec, _tasks

    tasks = _tasks(_as_spec(config))
    with joblib.parallel_config(backend="threading"):
        assert _warm_up_calls(tasks, 2, 0) == []
    with joblib.parallel_config(backend="sequential"):
        assert _warm_up_calls(tasks, 2, 0) == []
    with joblib.parallel_config(backend="loky"):
        assert _warm_up_calls(tasks, 1, 0) == []
        calls = _warm_up_calls(tasks, 2, 0)  # builds the calls, starts nothing
    assert len(calls) == 2
    func, args, _ = calls[0]
    assert func is _warm_worker
    assert sorted(args[0], key=str) == sorted(
        [("make_linear_attribution", "dataset"), ("linear_regression", "model"),
         ("RandomExplainer", "explainer"), ("LimeTabular", "explainer"),
         ("KernelSHAP", "explainer")], key=str)


def test_warm_up_leaves_instances_out():
    from sklearn.linear_model import LinearRegression

    from sklearn_xai.benchmark._runner import _as_spec, _tasks

    config = _config(["neg_complexity"])
    config["models"] = {"lr": LinearRegression()}
    with joblib.parallel_config(backend="loky"):
        (func, args, _), _ = _warm_up_calls(_tasks(_as_spec(config)), 2, 0)
    assert all(kind != "model" for _, kind in args[0])


def test_warm_worker_imports_the_components_modules(tmp_path, monkeypatch):
    (tmp_path / "r36_warm_model.py").write_text(textwrap.dedent("""
        from sklearn.linear_model import LinearRegression as Model
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "r36_warm_model", raising=False)
    # An unknown name is left to the task that needs it.
    _warm_worker([("r36_warm_model.Model", "model"), ("NoSuchExplainer", "explainer")])
    assert "r36_warm_model" in sys.modules
