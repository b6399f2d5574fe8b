"""Overhead of the benchmark runner.

Runs the ``default`` preset and compares the run's wall time with the sum of
the cells' own work: explanation and metric times (what the benchmark is
about) and model / explainer fitting.  The ratio ``wall / (explain +
metrics)`` is the runner's overhead factor (data generation, caching,
process start-up, result assembly); with ``n_jobs=2`` the ideal is 0.5.
A cached rerun shows the cost of loading every cell from disk.

Run: ``python benchmarks/bench_runner_overhead.py [--preset NAME]``.  Prints a
table (seconds).  Wall times depend on the machine's load.
"""

import argparse
import tempfile
import time

from sklearn_xai.benchmark import run_benchmark


def cell_times(results):
    """Sums over cells (not over the cell x metric rows) of each cost."""
    table = results.table
    cells = table.drop_duplicates(["dataset", "model", "explainer", "seed"])
    return {
        "explain": cells["explain_time"].sum(),
        "metrics": table["metric_time"].sum(),
        "explainer fit": cells["explainer_fit_time"].sum(),
        # One model fit per (dataset, model, seed), shared by its explainers.
        "model fit": cells.drop_duplicates(["dataset", "model", "seed"])["model_fit_time"].sum(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="default")
    args = parser.parse_args()
    # Import everything once so the first timing does not pay for imports.
    run_benchmark({"dataset": {"name": "make_linear_attribution",
                               "params": {"n_samples": 50}},
                   "models": ["linear_regression"], "explainers": ["RandomExplainer"],
                   "metrics": ["neg_complexity"], "seeds": [0], "n_explain": 5})
    rows = []
    for n_jobs, backend in ((1, "sequential"), (2, "loky"), (2, "threading")):
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            results = run_benchmark(args.preset, n_jobs=n_jobs, backend=backend,
                                    cache_dir=cache)
            wall = time.perf_counter() - start
            start = time.perf_counter()
            rerun = run_benchmark(args.preset, n_jobs=n_jobs, backend=backend,
                                  cache_dir=cache)
            cached_wall = time.perf_counter() - start
        assert rerun.n_computed == 0
        t = cell_times(results)
        work = t["explain"] + t["metrics"]
        rows.append((f"{backend} n_jobs={n_jobs}", results.n_cells, wall, t["explain"],
                     t["metrics"], t["model fit"] + t["explainer fit"], wall / work,
                     wall / (work + t["model fit"] + t["explainer fit"]), cached_wall))
    header = ("run", "cells", "wall", "explain", "metrics", "fits", "wall/(expl+met)",
              "wall/(all work)", "cached rerun")
    print(f"Preset {args.preset!r}: wall time versus the cells' own times (seconds)\n")
    print("{:<22}{:>6}{:>9}{:>9}{:>9}{:>8}{:>17}{:>17}{:>14}".format(*header))
    for r in rows:
        print("{:<22}{:>6}{:>9.2f}{:>9.2f}{:>9.2f}{:>8.2f}{:>17.2f}{:>17.2f}{:>14.2f}".format(*r))


if __name__ == "__main__":
    main()
