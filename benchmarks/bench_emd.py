"""EMD score on 64x64 XAI-TRIS maps: sklearn_xai.metrics.emd_score against plain
POT (``ot.emd2`` on the full 4096 x 4096 cost matrix, as XAI-TRIS computes it)
on the same (mask, map) pairs.

Prints, per configuration, the wall seconds per map (median and range of
interleaved rounds, so that a slow phase of a shared machine hits every
configuration), the speed-up over plain POT (ratio of the medians) and the
largest difference of the scores.  Run: ``python benchmarks/bench_emd.py
[n_maps] [rounds]`` (6 maps, 3 rounds by default).

Measured 2026-11-27 on the shared 2-core development machine (the load
average fell from 17 to 5 during the run, hence the wide ranges)::

    method                                              s/map  speed-up  max |diff|
    plain ot.emd2, full cost           14.224 [6.989, 15.189]      1.00    0.00e+00
    emd_score (net mass, 1 job)         9.097 [5.662, 11.535]      1.56    3.33e-16
    emd_score (full problem, 1 job)    14.865 [6.001, 16.385]      0.96    0.00e+00
    emd_score (net mass, n_jobs=2)       5.175 [3.747, 5.245]      2.75    3.33e-16
    emd_score coarsen=2 (approx.)        0.119 [0.075, 0.119]    119.83    1.63e-04
    emd_score coarsen=4 (approx.)        0.009 [0.005, 0.009]   1610.65    2.32e-03

(2026-11-22, one timing each: the net mass 1.7x to 2.3x faster.)
"""

import sys
import time

import numpy as np
import ot
from _timing import interleaved

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.metrics._localisation import _cost_matrix, emd_score


def plain_scores(masks, maps, C, d_max):
    out = []
    for m, a in zip(masks, maps):
        p = m / m.sum()
        q = np.abs(a) / np.abs(a).sum()
        out.append(1 - ot.emd2(p, q, C, numItermax=10_000_000) / d_max)
    return np.array(out)


def main(n_maps=6, rounds=3):
    data = make_tetrominoes(80, scenario="linear", image_size=64, random_state=0)
    masks = data.ground_truth_mask[:n_maps].astype(float)
    rng = np.random.default_rng(0)
    # Plausible attribution maps: the image itself (signal + background) and
    # a noisy copy of the mask.
    maps = np.vstack([np.abs(data.data[: n_maps // 2]),
                      masks[n_maps // 2:] + 0.3 * np.abs(
                          rng.normal(size=masks[n_maps // 2:].shape))])
    d_max = 64 * np.sqrt(2)

    t0 = time.perf_counter()
    C = _cost_matrix((64, 64))
    t_cost = time.perf_counter() - t0

    tasks = {"plain ot.emd2, full cost": lambda: plain_scores(masks, maps, C, d_max)}
    configs = [
        ("emd_score (net mass, 1 job)", dict()),
        ("emd_score (full problem, 1 job)", dict(net_mass=False)),
        ("emd_score (net mass, n_jobs=2)", dict(n_jobs=2)),
        ("emd_score coarsen=2 (approx.)", dict(coarsen=2)),
        ("emd_score coarsen=4 (approx.)", dict(coarsen=4)),
    ]
    for name, kw in configs:
        tasks[name] = lambda kw=kw: emd_score(masks, maps, **kw)
    ref = tasks["plain ot.emd2, full cost"]()
    diffs = {name: np.max(np.abs(task() - ref)) for name, task in tasks.items()}
    times = interleaved(tasks, rounds=rounds)
    t_plain = np.median(times["plain ot.emd2, full cost"])
    rows = [(name, times[name], diffs[name]) for name in tasks]

    print(f"64x64 maps: {n_maps} pairs, mask sizes {masks.sum(1).astype(int).tolist()}")
    print(f"cost matrix build (once per shape, cached): {t_cost:.2f} s")
    print(f"wall seconds per map, median [min, max] of {rounds} interleaved rounds")
    print(f"{'method':34s} {'s/map':>22s} {'speed-up':>9s} {'max |diff|':>11s}")
    for name, t, diff in rows:
        cell = (f"{np.median(t) / n_maps:.3f} [{min(t) / n_maps:.3f}, "
                f"{max(t) / n_maps:.3f}]")
        print(f"{name:34s} {cell:>22s} {t_plain / np.median(t):9.2f} {diff:11.2e}")
    print("coarsen=k error bound: sqrt(2)(k-1)/D_max =",
          ", ".join(f"k={k}: {np.sqrt(2) * (k - 1) / d_max:.4f}" for k in (2, 4)))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
