"""Time and peak memory of KernelSHAP and the removal-correlation metrics
at 1 000, 10 000 and 100 000 rows: both should grow linearly in time and
not at all in memory beyond the (n, d) inputs and outputs.

Workload: 20 features, a LinearRegression (a cheap model, so the toolkit's
own work dominates; its values are computed in closed form by the masker),
KernelSHAP with 256 coalitions a row and ``MarginalMasker(100)``, the
metrics with their default zero baseline (faithfulness correlation: 20
subsets of 4 features; sensitivity-n: 10 subsets of each size 1..16;
faithfulness estimate and monotonicity correlation: one feature a step).

Method: every measurement runs in a fresh subprocess (a clean peak), the
tasks interleaved round by round; the peak is ``tracemalloc``'s (numpy
reports its arrays to it), after a warm-up call on 10 rows, of one call;
time is the wall time of that call under tracemalloc (which inflates
allocation-heavy code; compare ratios).  Median [min, max] over the rounds
at 1k and 10k, one run at 100k.  BLAS single-threaded.  ``--compare PATH``
runs the same tasks with the package of another checkout (PATH on
PYTHONPATH), interleaved with this one.

Measured (2 shared CPU cores, loaded; before = e3fae29, the code before
the blocks; median of 2 interleaved rounds at 1k/10k, 1 run at 100k;
seconds under tracemalloc, peak MiB)::

    task                      rows   before s  after s  before MiB  after MiB
    kernel_shap               1k       0.31     0.32        49.2        3.2
    kernel_shap               10k      2.06     2.20       491.6        4.8
    kernel_shap               100k    18.33    13.63      4915.7       38.1
    faithfulness_correlation  1k       0.04     0.04         8.4        7.0
    faithfulness_correlation  10k      0.27     0.13        83.9       20.9
    faithfulness_correlation  100k     2.52     0.88       839.2      110.0
    sensitivity_n             1k       0.28     0.47        58.2       19.2
    sensitivity_n             10k      1.89     1.73       581.4       77.6
    sensitivity_n             100k       -     14.51   (~5.8 GB)      775.3
    faithfulness_estimate     1k       0.05     0.03         7.3        7.1
    faithfulness_estimate     10k      0.12     0.10        73.2       22.4
    faithfulness_estimate     100k     1.64     0.61       732.4      124.5
    monotonicity_correlation  1k       0.05     0.04         4.4        3.2
    monotonicity_correlation  10k      0.13     0.12        44.3       18.7
    monotonicity_correlation  100k     1.94     1.26       442.5      185.9

KernelSHAP's peak is one block (8 MiB at most) plus the (n, d) arrays
(16 MB each at 100k rows).  The metrics' peaks that remain are their
(n, n_coalitions) arrays (values, masses, drops, the correlation's
temporaries), d times smaller than the (n, n_coalitions, d) masks and
float copies before.

Run: python benchmarks/bench_scaling.py [--compare /path/to/old/checkout]
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

TASKS = ("kernel_shap", "faithfulness_correlation", "sensitivity_n",
         "faithfulness_estimate", "monotonicity_correlation")
SIZES = (1_000, 10_000, 100_000)
D = 20

_CHILD = r"""
import json, sys, time, tracemalloc
import numpy as np
from threadpoolctl import threadpool_limits
task, n, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn_xai.explainers import KernelSHAP
from sklearn_xai.masking import MarginalMasker
from sklearn_xai import metrics
rng = np.random.default_rng(0)
X_train = rng.normal(size=(500, d))
model = LinearRegression().fit(X_train, X_train @ rng.normal(size=d))
X = rng.normal(size=(n, d))
A = rng.normal(size=(n, d))
if task == "kernel_shap":
    ex = KernelSHAP(FrozenEstimator(model), n_perturbations=256,
                    masker=MarginalMasker(100, random_state=0), random_state=0).fit(X_train)
    run = ex.transform
elif task == "sensitivity_n":
    run = lambda Z: metrics.sensitivity_n(model, Z, A[:len(Z)], n_subsets=10,
                                          random_state=0)
else:
    func = getattr(metrics, task)
    run = lambda Z: func(model, Z, A[:len(Z)], random_state=0)
with threadpool_limits(1):
    run(X[:10])
    tracemalloc.start()
    start = time.perf_counter()
    run(X)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"seconds": seconds, "peak": peak}))
"""


def measure(task, n, path):
    # Run in the checkout: ``python -c`` puts the working directory first
    # on sys.path.
    env = dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _CHILD, task, str(n), str(D)],
                         env=env, cwd=path, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", help="another checkout, measured as 'before'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--tasks", nargs="+", default=list(TASKS))
    parser.add_argument("--skip-before", nargs="*", default=[],
                        help="task:n pairs not run with --compare (too much memory)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    versions = {"after": here}
    if args.compare:
        versions = {"before": args.compare, **versions}
    results = {}
    for n in args.sizes:
        rounds = 1 if n >= 100_000 else args.rounds
        for _ in range(rounds):
            for task in args.tasks:
                for version, path in versions.items():
                    if version == "before" and f"{task}:{n}" in args.skip_before:
                        continue
                    r = measure(task, n, path)
                    results.setdefault((task, version, n), []).append(r)
                    print(f"{task:26s} {version:6s} n={n:>7d} {r['seconds']:8.2f} s "
                          f"{r['peak'] / 2**20:9.1f} MiB", flush=True)
    print()
    print(f"{'task':26s} {'version':7s} {'rows':>7s} {'seconds: median [min, max]':>30s}"
          f" {'peak MiB':>10s}")
    for (task, version, n), rs in sorted(results.items()):
        t = [r["seconds"] for r in rs]
        p = np.median([r["peak"] for r in rs]) / 2**20
        print(f"{task:26s} {version:7s} {n:7d} {np.median(t):9.2f} "
              f"[{min(t):.2f}, {max(t):.2f}]{'':8s} {p:10.1f}")


if __name__ == "__main__":
    main()
