"""How the benchmark runner scales with its workers (row shards).

The runner cuts the explained rows of every (dataset, model, explainer,
seed) cell into row shards of ``shard_size`` rows, each one task that
explains its rows and scores the row-wise metrics on them, so one expensive
cell (LIME, MPRT re-explaining with LIME) no longer sets the wall time.  This
script runs a preset with 1 and 2 workers on loky and on a Dask
``LocalCluster`` (started by the runner, start-up included), interleaving the
configurations, and prints for each the median wall time and its range, the
speed-up over 1 worker of the same backend (paired by repetition), and how
evenly the shard tasks spread over the workers: each worker's busy time (sum
of its tasks' wall-clock run times), CPU time and task count, the tail (the
seconds between the first worker's last task end and the last worker's),
and the machine's load average when the run started.  BLAS runs one thread
per process, so "1 worker" is one core.  Each run is a fresh Python process,
as a command-line run is: its workers start with the run and import the
package's dependencies (scikit-learn, scipy, pandas; torch and captum for the
runs that use them), never reused from an earlier run.

Run: ``python benchmarks/bench_runner_scaling.py [--preset default|four_datasets]
[--repeats 3] [--shard-size auto|none|N] [--backends loky dask] [--before DIR]``
(``--before DIR``: rows "loky, before" run with the copy of the package in
``DIR``, e.g. ``git archive COMMIT sklearn_xai | tar -x -C DIR``).  Besides
the task CPU of ``results.task_log``, each run reports its total CPU: that
of the run's process and every process it started (its workers), start-up
and imports included, from ``getrusage(RUSAGE_CHILDREN)``.  Dask is skipped
with a message when ``dask.distributed`` is not installed.  ``four_datasets``
is the default preset on four datasets (the linear Gaussian data at
correlations 0, 0.25, 0.5, 0.75): 120 cells, 600 shard tasks, 24 fits, for
the same fixed cost of a run.

Idle 2 cores, 2026-11-27 (load 0.9-1.8, ``--backends loky dask --repeats
2``; each cell's explainer fitted once per run; the default preset's tasks
now take 8.5 CPU seconds, so the workers' start-up dominates)::

    | backend | workers | wall (s)         | speed-up         | CPU speed-up     | task CPU (s)     | total CPU (s)    |
    | ------- | ------- | ---------------- | ---------------- | ---------------- | ---------------- | ---------------- |
    | loky    | 1       | 13.3 [13.2-13.5] | 1.00             | 1.00             | 8.5 [8.2-8.8]    | 16.6 [16.4-16.7] |
    | loky    | 2       | 12.1 [11.6-12.7] | 1.10 [1.06-1.13] | 1.48 [1.43-1.54] | 11.3 [11.2-11.4] | 26.9 [26.3-27.4] |
    | dask    | 1       | 17.1 [15.9-18.4] | 1.00             | 1.00             | 9.1 [8.3-9.8]    | 21.5 [19.8-23.2] |
    | dask    | 2       | 18.8 [18.2-19.3] | 0.92 [0.82-1.01] | 1.10 [0.99-1.22] | 16.0 [15.5-16.4] | 38.0 [37.1-38.8] |

Earlier results (the default preset of 2026-11-23, whose tasks took 47
CPU seconds before LIME was vectorised) follow.

Results on the project's 2-core development machine (2026-11-23, the
default preset of that day: 30 cells of 50 rows, 14 metrics including MPRT,
150 shard tasks; ``--repeats 2``).  The machine is shared: other sessions'
jobs ran throughout, and the CPU a session gets is shared between them, so
two workers rarely had two cores.  "CPU speed-up" is the tasks' CPU seconds
with 1 worker over those of the busiest of 2 workers: the speed-up of the
task phase when each worker has a core, which the wall-clock speed-up
reaches on an idle machine.  Calmer period (load 0.7-2.7)::

    | backend | workers | wall (s)         | speed-up         | CPU speed-up     | CPU per worker (s)                  | tasks per worker | CPU min/max      |
    | ------- | ------- | ---------------- | ---------------- | ---------------- | ----------------------------------- | ---------------- | ---------------- |
    | loky    | 1       | 51.0 [50.3-51.6] | 1.00             | 1.00             | 47.3 [46.6-48.1]                    | 150              | 1.00             |
    | loky    | 2       | 54.2 [44.7-63.8] | 0.97 [0.81-1.12] | 1.72 [1.65-1.78] | 27.1 [26.1-28.1] / 27.6 [26.1-29.2] | 75 / 75          | 0.98 [0.96-1.00] |
    | dask    | 1       | 73.7 [72.5-74.9] | 1.00             | 1.00             | 64.1 [62.3-65.9]                    | 150              | 1.00             |
    | dask    | 2       | 46.5 [44.8-48.1] | 1.59 [1.56-1.62] | 1.99 [1.93-2.04] | 30.9 [29.1-32.6] / 32.3 [30.5-34.2] | 71.5 / 78.5      | 0.96 [0.96-0.96] |

The loky workers' busy time was 45 s each for 27 s of CPU: they waited for
a core (another session's job ran), which is why their wall-clock speed-up
is about 1.  Under heavy load (load 7.9-11.6) wall times only measure the
load (loky 0.80x, dask 1.22x), but the shards still spread evenly: CPU
per worker 40.9 / 41.9 s (loky), 49.6 / 50.6 s (dask), busy per worker
within 2 %.  Dask's 1-worker baseline runs in a worker process that pays its
own imports and scheduler traffic (64 s of CPU against 47 s for loky's
in-process sequential run).

On the idle machine (no other job; load 1.0-2.4 is the run itself), later
the same day::

    | backend | workers | wall (s)         | speed-up         | CPU speed-up     | busy per worker (s)                 | tasks per worker | CPU min/max      |
    | ------- | ------- | ---------------- | ---------------- | ---------------- | ----------------------------------- | ---------------- | ---------------- |
    | loky    | 1       | 48.3 [46.8-49.8] | 1.00             | 1.00             | 45.3 [43.7-46.9]                    | 150              | 1.00             |
    | loky    | 2       | 29.2 [28.0-30.3] | 1.66 [1.55-1.78] | 1.88 [1.86-1.90] | 23.3 [21.9-24.6] / 24.4 [23.4-25.5] | 81.5 / 68.5      | 0.95 [0.94-0.97] |
    | dask    | 1       | 63.3 [60.7-65.8] | 1.00             | 1.00             | 55.4 [53.6-57.3]                    | 150              | 1.00             |
    | dask    | 2       | 45.8 [42.6-48.9] | 1.39 [1.35-1.43] | 1.71 [1.61-1.82] | 34.5 [31.4-37.6] / 36.1 [33.0-39.2] | 75.0 / 75.0      | 0.96 [0.95-0.97] |

With two cores the task phase scales 1.88x (loky); the wall clock 1.66x,
because about 5 s of the 29 s are outside the tasks (starting two worker
processes that import torch, captum and scikit-learn, drawing the data and
fitting the models, assembling the results), a fixed cost that a longer
benchmark amortises.

Before row shards (one task per cell), ``--n-jobs 2`` gave 1.1x on the
default preset: the six LimeTabular cells set the wall time.

The longer workload, 2026-11-27 (``--preset four_datasets --repeats 2
--backends loky``; each run a fresh process), with the runner before shard
tasks were submitted longest first and workers warmed during the fit phase
("loky, before") interleaved as a third configuration.  The machine was
heavily loaded (load 9-20 on 2 cores, other sessions' test suites; the
load fell to 9 for one 1-worker run, 61 s against 477 s), so the wall
times measure the load, not the runner; the CPU columns do::

    | backend      | workers | wall (s)            | speed-up         | CPU speed-up     | CPU per worker (s)                  | tasks per worker | CPU min/max      | tail (s)      | load             |
    | ------------ | ------- | ------------------- | ---------------- | ---------------- | ----------------------------------- | ---------------- | ---------------- | ------------- | ---------------- |
    | loky         | 1       | 268.9 [61.1-476.7]  | 1.00             | 1.00             | 40.5 [38.5-42.5]                    | 600              | 1.00             | 0.0           | 9.8 [8.9-10.7]   |
    | loky         | 2       | 655.3 [621.5-689.2] | 0.39 [0.10-0.69] | 1.45 [1.28-1.62] | 27.5 [26.0-29.1] / 28.1 [26.2-30.0] | 296.5 / 303.5    | 0.98 [0.97-0.99] | 0.9 [0.5-1.3] | 18.0 [16.4-19.5] |
    | loky, before | 2       | 566.1 [432.2-700.0] | 0.41 [0.14-0.68] | 1.48 [1.44-1.52] | 27.0 [26.5-27.5] / 27.3 [26.7-27.9] | 297.0 / 303.0    | 0.99 [0.99-0.99] | 0.6 [0.3-0.9] | 17.5 [17.2-17.9] |

A calmer hour later (load 2.7-6.1, one run each): 1 worker 80.6 s (41.2 s of
task CPU), 2 workers 152.6 s (CPU 27.0 / 26.8 s, CPU speed-up 1.53, tail
0.1 s), before this change 139.2 s (CPU 24.0 / 24.3 s, tail 0.0 s); the
workers were busy 81 s for 27 s of CPU: they still shared the cores.

With a core each, two workers ran the task phase 1.45x faster (1.28-1.62):
the 600 shards spread evenly (CPU min/max 0.98) and the workers ended within
a second of each other (tail), but the two workers spent 1.35 times the
task CPU of one (55.6 s against 40.5 s).  Shards of this preset cost about
the same (0.7-0.9 s each), so the order changes little here; it matters when
a few tasks are long (``--shard-size none``, LIME with thousands of
perturbations), where an expensive task started last sets the tail.  The
warm-up neither: loky workers already import the runner (scikit-learn,
scipy, pandas: about 9 CPU seconds each on this machine) in their
initializer, before the fit phase; the warm-up adds the modules of the
run's models, explainers and datasets (torch and captum for gradient
explainers), which a worker left without a fit imports during the fit
phase, and on Dask workers, which have no initializer, the runner too.

Each cell's explainer fitted once, 2026-11-27 (``--preset default --repeats
2 --backends loky --before DIR``, DIR holding the package at 174eed2, the
runner before the change, as "loky, before").  Before, every worker fitted
the explainer of each cell it ran a shard of (and a whole-cell task fitted
it again); now the fit phase of each (dataset, model, seed) fits its cells'
explainers and each shard and whole-cell task receives the fitted
explainer.  The shared 2-core machine was loaded (load 11-17: every run
took 157-260 s of wall time against about 30 s idle, so the wall columns
measure the load); the CPU columns::

    | backend      | workers | wall (s)            | speed-up         | CPU speed-up     | task CPU (s)     | task CPU / 1 worker | total CPU (s)    | total CPU / 1 worker | CPU min/max      | tail (s)      | load             |
    | ------------ | ------- | ------------------- | ---------------- | ---------------- | ---------------- | ------------------- | ---------------- | -------------------- | ---------------- | ------------- | ---------------- |
    | loky         | 1       | 190.6 [157.4-223.8] | 1.00             | 1.00             | 11.0 [10.9-11.1] | 1.00                | 20.2 [20.1-20.3] | 1.00                 | 1.00             | 0.0           | 13.7 [11.4-16.1] |
    | loky         | 2       | 214.5 [209.5-219.5] | 0.89 [0.75-1.02] | 1.69 [1.65-1.73] | 12.9 [12.8-13.0] | 1.17 [1.15-1.19]    | 30.9 [30.5-31.4] | 1.53 [1.50-1.56]     | 0.97 [0.96-0.99] | 0.5 [0.2-0.9] | 16.5 [16.5-16.6] |
    | loky, before | 1       | 212.0 [163.8-260.2] | 1.00             | 1.00             | 10.2 [9.5-11.0]  | 1.00                | 19.6 [18.9-20.3] | 1.00                 | 1.00             | 0.0           | 14.7 [13.3-16.2] |
    | loky, before | 2       | 196.1 [184.8-207.5] | 1.10 [0.79-1.41] | 1.56 [1.39-1.73] | 12.9 [12.6-13.2] | 1.28 [1.15-1.40]    | 31.7 [30.7-32.6] | 1.62 [1.52-1.72]     | 0.97 [0.95-1.00] | 1.3 [1.1-1.4] | 13.3 [12.2-14.4] |

"task CPU": the CPU seconds of the shard tasks (``results.task_log``),
summed over the workers; "total CPU": the run's process and its workers,
start-up and imports included.  Two workers now spend 1.17x the task CPU of
one (1.28x before; the ranges overlap) and 1.53x its total CPU (1.62x).
The default preset's explainers cost 2 to 6 ms of CPU to fit (random 1.6,
ablation 3.9, exact Shapley 3.1, KernelSHAP 3.8, LIME 6.3 ms; 30 cells), so
the fits saved are a fraction of a second: what is left of the two workers'
surplus is their own start-up (each imports scikit-learn, scipy and pandas:
the total CPU's surplus, about 11 s) and the first calls' lazy imports in
each worker, plus CPU time that two processes on two shared cores lose to
each other.  Shipping the fitted explainer costs less than fitting it
again: pickling and unpickling it with a shard's arguments adds 0.05 to
0.34 ms (LIME's 32 kB the largest; it shares the model object that the
shard already carries), against its 2 to 6 ms fit; scheduling all shards
of a cell on one worker instead would give up the shard-level balance (CPU
min/max 0.97 above).  With 1 worker the task phase is the same work
(10.2-11.0 s, within the load's noise).
"""

import os

# One BLAS thread everywhere, so that "1 worker" uses one core like each of
# the 2 workers (joblib already limits its worker processes to
# cores // n_jobs threads; the sequential run in the main process would
# otherwise use every core in its matrix products).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from sklearn_xai.benchmark import BenchmarkSpec, get_preset, run_benchmark  # noqa: E402

# The default preset on four datasets (XAI-Bench's linear Gaussian data at
# four correlations): 4 x 2 models x 5 explainers x 3 seeds = 120 cells,
# 600 row shards, 24 fits; the fixed cost of a run (worker start-up and
# imports) is the same as the default preset's.
FOUR_DATASETS_RHO = (0.0, 0.25, 0.5, 0.75)


def _spec(name):
    if name != "four_datasets":
        return get_preset(name)
    config = get_preset("default").to_dict()
    base = config["datasets"]["gaussian_linear"]
    config["datasets"] = {f"gaussian_linear_rho{rho:g}": {
        **base, "params": {**base["params"], "rho": rho}} for rho in FOUR_DATASETS_RHO}
    config.update(name="four_datasets", description="The default preset on four datasets.")
    return BenchmarkSpec.from_dict(config)


def _have_dask():
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _spread(log):
    """Busy seconds (wall-clock time in tasks), CPU seconds and task counts
    per worker of one run's task log, workers sorted by busy time, and the
    tail: seconds between the first and the last worker's last task end."""
    busy = (log["end"] - log["start"]).groupby(log["worker"]).sum().sort_values()
    cpu = log.groupby("worker")["cpu"].sum().reindex(busy.index)
    count = log.groupby("worker").size().reindex(busy.index)
    last = log.groupby("worker")["end"].max()
    return list(busy), list(cpu), [int(c) for c in count], float(last.max() - last.min())


def _child(spec_name, backend, workers, shard_size):
    """One run in this (fresh) process, as a command-line run would start
    it: its workers start with the run.  Prints a JSON line."""
    spec = _spec(spec_name)
    # Import the package's dependencies in this process first, as the
    # command line has when it calls the runner.
    run_benchmark({"dataset": {"name": "make_linear_attribution",
                               "params": {"n_samples": 50}},
                   "models": ["linear_regression"], "explainers": ["RandomExplainer"],
                   "metrics": ["neg_complexity"], "seeds": [0], "n_explain": 5})
    load = os.getloadavg()[0]
    start = time.perf_counter()
    results = run_benchmark(spec, n_jobs=workers, backend=backend, shard_size=shard_size)
    wall = time.perf_counter() - start
    errors = int((results.table["status"] == "error").sum())
    busy, cpu, count, tail = _spread(results.task_log)
    print(json.dumps({"wall": wall, "busy": busy, "cpu": cpu, "count": count, "tail": tail,
                      "errors": errors, "load": load}))


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(spec_name, backend, workers, shard_size, pythonpath=None):
    """One run in a fresh Python process (workers are not reused between
    runs, as loky would within one process), with ``pythonpath`` first on
    its path when given (another copy of the package: "before").  Adds
    ``total_cpu``: the CPU seconds of that process and of every process it
    started (its workers, reaped when it exits), start-up and imports
    included."""
    shard = "none" if shard_size is None else str(shard_size)
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([pythonpath, env.get("PYTHONPATH", "")])
    before = _children_cpu()
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", spec_name,
                          backend, str(workers), shard],
                         check=True, capture_output=True, text=True, env=env)
    run = json.loads(out.stdout.strip().splitlines()[-1])
    run["total_cpu"] = _children_cpu() - before
    return run


def _fmt_range(values, digits=1):
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}-{max(values):.{digits}f}]")


def _shard_size(value):
    return value if value == "auto" else None if value == "none" else int(value)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        name, backend, workers, shard = argv[1:5]
        return _child(name, backend, int(workers), _shard_size(shard))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="default",
                        help="a preset, or four_datasets (the default preset on 4 datasets)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shard-size", default="auto", type=_shard_size)
    parser.add_argument("--backends", nargs="+", default=["loky", "dask"])
    parser.add_argument("--before", metavar="DIR",
                        help="a folder holding another copy of the package (say "
                             "`git archive COMMIT sklearn_xai | tar -x -C DIR`): adds "
                             "loky rows run with it first on the path, labelled 'loky, before'")
    args = parser.parse_args(argv)
    backends = list(args.backends)
    if "dask" in backends and not _have_dask():
        print("dask.distributed is not installed: the dask rows are skipped "
              "(pip install 'dask[distributed]').", file=sys.stderr)
        backends.remove("dask")
    _spec(args.preset)  # fail early on an unknown name
    configs = [(backend, workers) for backend in backends for workers in (1, 2)]
    if args.before:
        configs += [("loky, before", 1), ("loky, before", 2)]
    runs = {c: [] for c in configs}
    for rep in range(args.repeats):
        # Interleaved, the order rotated each repetition (the machine's load drifts).
        order = configs[rep % len(configs):] + configs[:rep % len(configs)]
        for backend, workers in order:
            run = _run(args.preset, backend.split(",")[0], workers, args.shard_size,
                       args.before if backend.endswith("before") else None)
            runs[backend, workers].append(run)
            print(f"  rep {rep}: {backend} x{workers}: {run['wall']:.1f} s "
                  f"(load {run['load']:.1f}), busy per worker "
                  f"{[round(b, 1) for b in run['busy']]} s, CPU "
                  f"{[round(c, 1) for c in run['cpu']]} s, tasks {run['count']}, "
                  f"tail {run['tail']:.1f} s, total CPU {run['total_cpu']:.1f} s, "
                  f"{run['errors']} errors",
                  file=sys.stderr, flush=True)
    print(f"\n{args.preset}: shard_size={args.shard_size}, {args.repeats} interleaved runs, "
          f"median [range]; {os.cpu_count()} cores\n")
    header = ("backend", "workers", "wall (s)", "speed-up", "CPU speed-up",
              "task CPU (s)", "task CPU / 1 worker", "total CPU (s)", "total CPU / 1 worker",
              "busy per worker (s)", "CPU per worker (s)", "tasks per worker", "CPU min/max",
              "tail (s)", "load")
    rows = []
    for backend, workers in configs:
        these, base = runs[backend, workers], runs[backend, 1]
        w = [r["wall"] for r in these]
        speedups = [b["wall"] / r["wall"] for b, r in zip(base, these)]  # paired by repetition
        busy = [r["busy"] for r in these]
        cpu = [r["cpu"] for r in these]
        counts = [r["count"] for r in these]
        balance = [min(c) / max(c) for c in cpu]
        # The tasks' CPU seconds with 1 worker over the busiest worker's:
        # the speed-up of the task phase when each worker has a core.
        cpu_speedups = [sum(b["cpu"]) / max(c) for b, c in zip(base, cpu)]
        per_worker = range(min(len(b) for b in busy))
        task_cpu = [sum(c) for c in cpu]
        task_ratio = [sum(c) / sum(b["cpu"]) for b, c in zip(base, cpu)]
        total = [r["total_cpu"] for r in these]
        total_ratio = [r["total_cpu"] / b["total_cpu"] for b, r in zip(base, these)]
        rows.append((backend, str(workers), _fmt_range(w), _fmt_range(speedups, 2),
                     _fmt_range(cpu_speedups, 2), _fmt_range(task_cpu),
                     _fmt_range(task_ratio, 2), _fmt_range(total), _fmt_range(total_ratio, 2),
                     " / ".join(_fmt_range([b[k] for b in busy]) for k in per_worker),
                     " / ".join(_fmt_range([c[k] for c in cpu]) for k in per_worker),
                     " / ".join(str(statistics.median([c[k] for c in counts]))
                                for k in per_worker),
                     _fmt_range(balance, 2), _fmt_range([r["tail"] for r in these]),
                     _fmt_range([r["load"] for r in these])))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for line in [header, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |")


if __name__ == "__main__":
    main()
