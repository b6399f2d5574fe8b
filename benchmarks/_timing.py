"""Interleaved timing shared by the benchmark scripts.

Every task runs once per round, the rounds one after another, so that a
slow phase of a shared machine hits all tasks alike; each task is reported
by the median and range of its wall times and the ratio of its median to a
reference task's (the bare model evaluations).
"""

import contextlib
import functools
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


@contextlib.contextmanager
def phase_times(wrapped):
    """CPU seconds spent in each phase of a computation, timed by wrapping
    the functions that do them.

    ``wrapped``: ``(owner, attribute, phase name)`` triples; inside the
    block each ``owner.attribute`` is replaced by a timed wrapper, and the
    yielded dict maps a phase name to its CPU seconds so far (clear it
    between rounds).  The originals are restored on exit."""
    acc = {}
    originals = [(obj, attr, getattr(obj, attr)) for obj, attr, _ in wrapped]

    def timer(fn, key):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                acc[key] = acc.get(key, 0.0) + time.process_time() - start
        return run

    try:
        for (obj, attr, key), (_, _, fn) in zip(wrapped, originals, strict=True):
            setattr(obj, attr, timer(fn, key))
        yield acc
    finally:
        for obj, attr, fn in originals:
            setattr(obj, attr, fn)
