"""Speed of the model-based explanation metrics, as a ratio to the bare model
evaluations they need.

For every metric: run it on 200 rows of a 20-feature sklearn MLPClassifier,
count the model rows it evaluates (including those of the explainer that
stability metrics call), then time ``predict_proba`` on that many rows in a
single call.  ratio = metric time / bare model time; the target is < 2.
BLAS runs single-threaded for both (stable timings on a shared machine).
The metrics draw their random numbers from ``sklearn_xai.utils.RowStreams``
(counter-based, vectorised over rows); the header shows what the former
per-row generators (``row_generators``: one SeedSequence + PCG64 per row)
would cost for the same rows.

Run: python benchmarks/bench_metrics_model.py
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
from sklearn_xai.metrics._faithfulness import (
    auc_tp,
    comprehensiveness,
    faithfulness_correlation,
    monotonicity,
)
from sklearn_xai.metrics._infidelity import infidelity
from sklearn_xai.metrics._pgi import pgi, pgu
from sklearn_xai.utils import row_generators, row_keys
from sklearn_xai.metrics._stability import (
    max_sensitivity,
    relative_input_stability,
    relative_output_stability,
    relative_representation_stability,
)

N_ROWS, N_FEATURES, REPEATS = 200, 20, 7


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


def best_time(fn):
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
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

    counted, timed = make_cases(Counting(mlp)), make_cases(mlp)
    keys = row_keys(Xe)
    t_rng = best_time(lambda: row_generators(0, keys))
    print(f"{N_ROWS} rows, {N_FEATURES} features, MLPClassifier(100,); "
          f"best of {REPEATS} runs; row_generators({N_ROWS} rows) = "
          f"{t_rng * 1e3:.1f} ms")
    print(f"{'metric':38s} {'model rows':>11s} {'metric s':>9s} {'bare s':>8s} "
          f"{'ratio':>6s}")
    worst = 0.0
    for name, fn in timed.items():
        Counting.rows = 0
        counted[name]()
        rows = Counting.rows
        t_metric = best_time(fn)
        Z = X[np.arange(rows) % len(X)]
        t_bare = best_time(lambda: mlp.predict_proba(Z))
        ratio = t_metric / t_bare
        worst = max(worst, ratio)
        print(f"{name:38s} {rows:11d} {t_metric:9.4f} {t_bare:8.4f} {ratio:6.2f}")
    print(f"worst ratio: {worst:.2f} (target < 2)")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
