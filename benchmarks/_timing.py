"""Interleaved timing shared by the benchmark scripts.

Every task runs once per round, the rounds one after another, so that a
slow phase of a shared machine hits all tasks alike; each task is reported
by the median and range of its wall times and the ratio of its median to a
reference task's (the bare model evaluations).
"""

import time

import numpy as np


def interleaved(tasks, rounds=5, clock=time.perf_counter):
    """Wall times of ``tasks`` (name -> callable) over interleaved rounds
    (``clock=time.process_time``: the CPU times of this process instead,
    which a loaded machine's other processes do not inflate)."""
    times = {name: [] for name in tasks}
    for _ in range(rounds):
        for name, task in tasks.items():
            start = clock()
            task()
            times[name].append(clock() - start)
    return times


def ratio_table(times, reference):
    """One line per task: median, range and median / the reference's median."""
    base = np.median(times[reference])
    width = max(len(name) for name in times) + 2
    return "\n".join(
        f"{name:{width}s}median {np.median(values):.3f}s range "
        f"[{min(values):.3f}, {max(values):.3f}]  ratio {np.median(values) / base:.1f}"
        for name, values in times.items())
