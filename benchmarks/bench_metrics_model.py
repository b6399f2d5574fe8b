"""Speed of the model-based explanation metrics, as a ratio to the bare model
evaluations they need.

For every metric: run it on 200 rows of a 20-feature sklearn MLPClassifier,
count the model rows it evaluates (including those of the explainer that
stability metrics call), then time ``predict_proba`` on that many rows in a
single call or in calls of the metrics' block size, whichever is faster
(measured first), alternating with the metric (15 rounds each, so a slow
phase of a shared machine hits both).  ratio = median metric time / median
bare model time, with the range of the rounds' ratios; the target is < 2.
The last line shows the floor of infidelity: drawing its Gaussian
perturbations alone (numpy's ziggurat, one stream per row) costs about
half of this small MLP's evaluations.
BLAS runs single-threaded for both (stable timings on a shared machine).
The metrics draw their random numbers from ``sklearn_xai.utils.RowStreams``
(counter-based, vectorised over rows); the header shows what the former
per-row generators (``row_generators``: one SeedSequence + PCG64 per row)
would cost for the same rows.

Relative output stability and max-sensitivity, measured 2026-11-27 on the
shared 2-core development machine (load average 12-13; ``--only
relative_output_stability max_sensitivity``; the bare model in blocks of
6553 rows)::

    metric                       model rows  metric ms  bare ms  ratio  range
    relative_output_stability        620200   10478.69  6823.40   1.54  [1.17, 1.89]
    max_sensitivity                   42200     722.33   523.88   1.38  [0.96, 1.57]

(the milliseconds are those of the loaded machine, several times the idle
ones; the ratios pair each round's metric and bare timings).  The other
metrics' figures are in ``doc/user_guide/metrics.rst``.

Run: python benchmarks/bench_metrics_model.py [--only NAME ...] [--rounds 15]
"""

import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPClassifier

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker, MarginalMasker
from sklearn_xai.utils._output import BLOCK_ENTRIES as _BLOCK_ENTRIES
from sklearn_xai.metrics._removal_correlations import faithfulness_correlation
from sklearn_xai.metrics._removal_paths import auc_tp, comprehensiveness, monotonicity
from sklearn_xai.metrics._perturbation_gaps import infidelity
from sklearn_xai.metrics._perturbation_gaps import pgi, pgu
from sklearn_xai.utils import RowStreams, row_generators, row_keys
from sklearn_xai.metrics._sensitivity import max_sensitivity
from sklearn_xai.metrics._stability import (
    relative_input_stability,
    relative_output_stability,
    relative_representation_stability,
)

N_ROWS, N_FEATURES, REPEATS = 200, 20, 15


class Counting(ClassifierMixin, BaseEstimator):
    """Delegates to a fitted classifier and counts the rows it evaluates."""

    def __init__(self, model=None):
        self.model = model

    def fit(self, X, y=None):
        return self

    def __getattr__(self, name):
        if name.startswith("__") or name == "model":
            raise AttributeError(name)
        return getattr(self.model, name)

    def __sklearn_is_fitted__(self):
        return True

    def predict_proba(self, X):
        Counting.rows += len(X)
        return self.model.predict_proba(X)

    def predict(self, X):
        Counting.rows += len(X)
        return self.model.predict(X)


Counting.rows = 0


def _loop_time(fn, number):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def paired_times(fn, bare):
    """Per-call times of ``fn`` and ``bare`` in ``REPEATS`` alternating rounds.

    The two are timed in turns (rounds of about 20 ms each), so a slow phase
    of a shared machine hits both; each round repeats a fast call enough
    times for the timer's resolution not to matter.  Returns the two lists.
    """
    fn(), bare()
    number = max(1, int(0.02 / max(_loop_time(fn, 1), 1e-6)))
    number_bare = max(1, int(0.02 / max(_loop_time(bare, 1), 1e-6)))
    t_fn, t_bare = [], []
    for _ in range(REPEATS):
        t_fn.append(_loop_time(fn, number))
        t_bare.append(_loop_time(bare, number_bare))
    return t_fn, t_bare


def main(only=()):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, N_FEATURES))
    y = (X[:, :5] @ rng.normal(size=5) + 0.5 * np.sin(X[:, 5]) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp = MLPClassifier(hidden_layer_sizes=(100,), max_iter=200,
                            random_state=0).fit(X, y)
    Xe = X[:N_ROWS]
    marginal = MarginalMasker(background=10, random_state=0).fit(X)
    zero = BaselineMasker("zero").fit(X)

    def make_cases(model):
        """Metric calls on ``model`` (the counting wrapper or the bare MLP)."""
        explainer = FeatureAblation(FrozenEstimator(model)).fit(X)
        A = FeatureAblation(FrozenEstimator(mlp)).fit(X).transform(Xe)
        return {
            "pgi": lambda: pgi(model, Xe, A, random_state=0),
            "pgu": lambda: pgu(model, Xe, A, random_state=0),
            "faithfulness_correlation": lambda: faithfulness_correlation(
                model, Xe, A, masker=zero, random_state=0),
            "faithfulness_correlation (marginal)": lambda: faithfulness_correlation(
                model, Xe, A, masker=marginal, random_state=0),
            "auc_tp": lambda: auc_tp(model, Xe, A, masker=zero),
            "monotonicity": lambda: monotonicity(model, Xe, A, masker=zero),
            "monotonicity (marginal)": lambda: monotonicity(model, Xe, A,
                                                            masker=marginal),
            "comprehensiveness": lambda: comprehensiveness(model, Xe, A,
                                                           masker=zero),
            "infidelity": lambda: infidelity(model, Xe, A, X_train=X,
                                             random_state=0),
            "relative_input_stability": lambda: relative_input_stability(
                model, Xe, A, explainer=explainer, random_state=0),
            "relative_representation_stability": lambda: (
                relative_representation_stability(
                    model, Xe, A, explainer=explainer, random_state=0)),
            "relative_output_stability": lambda: relative_output_stability(
                model, Xe, A, explainer=explainer, random_state=0),
            "max_sensitivity": lambda: max_sensitivity(
                model, Xe, A, explainer=explainer, X_train=X, random_state=0),
        }

    # The bare model evaluations in the cheaper of one call and calls of the
    # metrics' block size (large calls spill the MLP's activations from
    # cache: comparing against them alone would flatter the metrics).
    block = _BLOCK_ENTRIES // N_FEATURES
    Z_all = X[np.arange(20 * block) % len(X)]
    t_one, t_blocks = (np.median(t) for t in paired_times(
        lambda: mlp.predict_proba(Z_all),
        lambda: [mlp.predict_proba(Z_all[s:s + block])
                 for s in range(0, len(Z_all), block)]))
    blocked = t_blocks < t_one

    def bare(Z):
        if not blocked:
            return mlp.predict_proba(Z)
        return [mlp.predict_proba(Z[s:s + block]) for s in range(0, len(Z), block)]

    counted, timed = make_cases(Counting(mlp)), make_cases(mlp)
    keys = row_keys(Xe)
    t_rng = min(_loop_time(lambda: row_generators(0, keys), 1)
                for _ in range(REPEATS))
    print(f"{N_ROWS} rows, {N_FEATURES} features, MLPClassifier(100,); "
          f"medians of {REPEATS} alternating rounds, ratio [min, max] over the rounds; "
          f"row_generators({N_ROWS} rows) = "
          f"{t_rng * 1e3:.1f} ms")
    print(f"bare model: {'blocks of ' + str(block) + ' rows' if blocked else 'one call'} "
          f"(one call {t_one * 1e3:.1f} ms, blocks {t_blocks * 1e3:.1f} ms on "
          f"{len(Z_all)} rows)")
    print(f"{'metric':38s} {'model rows':>11s} {'metric ms':>10s} {'bare ms':>8s} "
          f"{'ratio':>6s} {'range':>13s}")
    worst = 0.0
    for name, fn in timed.items():
        if only and name not in only:
            continue
        Counting.rows = 0
        counted[name]()
        rows = Counting.rows
        Z = X[np.arange(rows) % len(X)]
        times_metric, times_bare = paired_times(fn, lambda: bare(Z))
        t_metric, t_bare = np.median(times_metric), np.median(times_bare)
        ratio = t_metric / t_bare
        rounds = np.array(times_metric) / np.array(times_bare)
        worst = max(worst, ratio)
        print(f"{name:38s} {rows:11d} {t_metric * 1e3:10.2f} {t_bare * 1e3:8.2f} "
              f"{ratio:6.2f} [{rounds.min():.2f}, {rounds.max():.2f}]")
    print(f"worst ratio: {worst:.2f} (target < 2)")
    if only:
        return
    # Infidelity's floor: its Gaussian perturbations (100 x 20 per row, drawn
    # per row so scores do not depend on the batch) cost a large fraction of
    # this small MLP's evaluations by themselves.
    streams = RowStreams(0, keys)
    Z = X[np.arange(N_ROWS * 101) % len(X)]
    t_draw, t_bare = (np.median(t) for t in paired_times(
        lambda: streams.normal((100, N_FEATURES), dtype=np.float32),
        lambda: bare(Z)))
    print(f"infidelity's noise alone: {t_draw * 1e3:.2f} ms = "
          f"{t_draw / t_bare:.2f} x its bare model time")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="+", default=(),
                        help="metric names of the table to time (default: all)")
    parser.add_argument("--rounds", type=int, default=REPEATS)
    args = parser.parse_args()
    REPEATS = args.rounds
    with threadpool_limits(1):
        main(args.only)
