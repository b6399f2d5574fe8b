"""Cost of the meta-evaluation of metrics, as a ratio to the benchmark it
evaluates.

Workload: ``make_gaussian_linear`` with 20 features (1000 rows, 200 of them
explained), a linear regression and a scikit-learn MLP (32, 32), four
explainers (the random control, feature ablation with a mean baseline,
KernelSHAP with 64 coalitions, LIME with 500 perturbations) and six metrics
(feature agreement, rank correlation, comprehensiveness, sufficiency,
complexity, PGI), one seed.  Four timings, interleaved in one process
(``REPEATS`` rounds, so a slow phase of a shared machine hits all four),
median and range:

* ``benchmark``: ``run_benchmark(spec)``;
* ``meta (spec)``: ``meta_evaluate(spec)``, which runs the same benchmark and
  re-scores every metric on one minor and one disruptive perturbation of
  every row (one metric call per explainer for all the perturbed rows);
* ``meta (cached)``: ``meta_evaluate(spec, cache_dir=...)`` with every cell
  in the cache: the meta-evaluation's own work (model refits, explainer
  refits, the two re-scorings, the statistics), no explanation;
* ``meta (results)``: ``meta_evaluate(results)`` on the finished results
  (statistics only: split halves, power, agreement);
* ``metric time``: the metrics' share of the benchmark (sum of the table's
  ``metric_time``).

Targets: ``meta (spec) / benchmark <= 2`` (the re-scoring costs two more
scorings of the metrics, never an explanation) and ``meta (cached)`` a few
metric times.  BLAS runs single-threaded (threadpoolctl).

Measured on the development machine (2 cores shared with other jobs, so
the ranges are wide; seconds, median [min, max] of 3 interleaved rounds,
ratio to the benchmark)::

                     seconds: median [min, max] of 3 rounds; ratio to benchmark
    benchmark         22.06  [18.35, 39.86]
    meta (spec)       19.17  [16.40, 45.48]   0.869
    meta (cached)      3.71  [3.24, 4.69]   0.168
    meta (results)     0.59  [0.50, 0.68]   0.0269
    metric time        1.15  [1.02, 1.59]   0.0519
    meta (cached) / metric time: 3.24 (two re-scorings, explainer refits, statistics)

The full meta-evaluation costs about one benchmark plus 17 % (the medians
of the two full runs are within the machine's noise); of its own 3.7 s,
2.3 s are the two re-scorings and the rest the refits of the models and
explainers and the statistics.

Run: python benchmarks/bench_meta.py
"""

import tempfile
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.benchmark import meta_evaluate

REPEATS = 3
MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}
SPEC = {
    "name": "bench_meta",
    "dataset": {"name": "make_gaussian_linear",
                "params": {"n_samples": 1000, "n_features": 20, "rho": 0.5}},
    "models": {"linear": "linear_regression",
               "mlp": {"name": "mlp", "params": {"hidden_layer_sizes": [32, 32],
                                                 "max_iter": 300}}},
    "explainers": {
        "random": "RandomExplainer",
        "ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}},
        "kernel_shap": {"name": "KernelSHAP", "params": {"n_perturbations": 64}},
        "lime": {"name": "LimeTabular", "params": {"n_perturbations": 500}},
    },
    "metrics": {
        "feature_agreement": {"name": "feature_agreement", "params": {"k": 5}},
        "rank_correlation": "rank_correlation",
        "comprehensiveness": {"name": "comprehensiveness", "params": {"masker": MEAN}},
        "neg_sufficiency": {"name": "neg_sufficiency", "params": {"masker": MEAN}},
        "neg_complexity": "neg_complexity",
        "pgi": "pgi",
    },
    "seeds": [0], "n_explain": 200,
}


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main():
    names = ["benchmark", "meta (spec)", "meta (cached)", "meta (results)",
             "metric time"]
    times = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as cache:
        # Fill the cell cache once: "meta (cached)" then reads the cells and
        # costs only the meta-evaluation's own work.
        run_benchmark(SPEC, cache_dir=cache)
        for _ in range(REPEATS):
            t, results = _timed(lambda: run_benchmark(SPEC))
            times["benchmark"].append(t)
            times["metric time"].append(float(results.table["metric_time"].sum()))
            t, meta = _timed(lambda: meta_evaluate(SPEC))
            times["meta (spec)"].append(t)
            assert meta["mc_score"].notna().any()
            t, _ = _timed(lambda: meta_evaluate(SPEC, cache_dir=cache))
            times["meta (cached)"].append(t)
            t, _ = _timed(lambda results=results: meta_evaluate(results))
            times["meta (results)"].append(t)
    base = np.median(times["benchmark"])
    print(f"{'':16s} seconds: median [min, max] of {REPEATS} rounds; ratio to benchmark")
    for name in names:
        values = times[name]
        med = np.median(values)
        ratio = "" if name == "benchmark" else f"   {med / base:.3g}"
        print(f"{name:16s} {med:6.2f}  [{min(values):.2f}, {max(values):.2f}]{ratio}")
    extra = np.median(times["meta (cached)"]) / np.median(times["metric time"])
    print(f"meta (cached) / metric time: {extra:.2f} (two re-scorings, explainer refits, "
          "statistics)")


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    with threadpool_limits(1):
        main()
