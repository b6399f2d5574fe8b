"""Cost of XAI-Bench's metrics as a ratio to the bare model work they need.

Setting of XAI-Bench's Table 1 (SPEC 5.1): Gaussian piecewise-constant data,
5 features, rho = 0, scikit-learn ``MLPRegressor``, 100 explained rows,
observational values with 100 draws.  For every metric the model is wrapped
in a counter, so the table shows the model rows it evaluated (and refits for
ROAR), the metric's wall time, the time of the same model work done bare
(one ``predict`` on that many rows; plus the refits for ROAR), and their
ratio (overhead of masking, imputation, bookkeeping).

Run: ``python benchmarks/bench_xaibench_metrics.py``.
"""

import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPRegressor

from sklearn_xai.datasets import exact_shapley_values, make_gaussian_piecewise_constant
from sklearn_xai import metrics as xb

COUNT = {"rows": 0, "fits": 0}


class Counted(RegressorMixin, BaseEstimator):
    """Delegating regressor that counts predicted rows and fits."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        COUNT["fits"] += 1
        self.estimator_ = clone(self.estimator).fit(X, y)
        return self

    def predict(self, X):
        COUNT["rows"] += len(X)
        return self.estimator_.predict(X)


def main():
    warnings.simplefilter("ignore", ConvergenceWarning)
    gen = dict(n_features=5, rho=0.0, noise=0.01, convention="xai_bench_code")
    train = make_gaussian_piecewise_constant(n_samples=1000, random_state=0, **gen)
    test = make_gaussian_piecewise_constant(n_samples=100, random_state=1, **gen)
    dist = train.distribution
    base = MLPRegressor(random_state=0)
    model = Counted(base).fit(train.data, train.target)
    shap_train = exact_shapley_values(model.predict, train.data, value="interventional",
                                      background=train.data[:100]).attributions
    shap = exact_shapley_values(model.predict, test.data, value="interventional",
                                background=train.data[:100]).attributions
    common = dict(distribution=dist, random_state=0)
    roar = dict(X_train=train.data, y_train=train.target, attributions_train=shap_train,
                **common)
    cases = [
        ("faith_minus", xb.faith_minus, common),
        ("faith_plus", xb.faith_plus, common),
        ("mono_minus", xb.mono_minus, common),
        ("mono_plus", xb.mono_plus, common),
        ("shapley_corr (n_mc=100)", xb.shapley_corr, common),
        ("shapley_corr (n_mc=1000)", xb.shapley_corr, {**common, "n_draws": 1000}),
        ("roar_faith_minus", xb.roar_faith_minus, roar),
        ("roar_faith_plus", xb.roar_faith_plus, roar),
        ("roar_mono_minus", xb.roar_mono_minus, roar),
        ("roar_mono_plus", xb.roar_mono_plus, roar),
    ]
    rng = np.random.default_rng(0)
    print("MLPRegressor, d=5, 100 explained rows, 1000 training rows")
    print(f"{'metric':26s} {'model rows':>11s} {'refits':>6s} {'metric s':>9s} "
          f"{'bare s':>8s} {'ratio':>6s}")
    for name, func, kw in cases:
        COUNT.update(rows=0, fits=0)
        t0 = time.perf_counter()
        func(model, test.data, shap, **kw)
        elapsed = time.perf_counter() - t0
        rows, fits = COUNT["rows"], COUNT["fits"]
        Z = rng.normal(size=(rows, 5))
        t0 = time.perf_counter()
        base_fitted = clone(base).fit(train.data, train.target) if fits else model.estimator_
        for _ in range(max(fits - 1, 0)):
            clone(base).fit(train.data, train.target)
        base_fitted.predict(Z)
        bare = time.perf_counter() - t0
        print(f"{name:26s} {rows:11d} {fits:6d} {elapsed:9.3f} {bare:8.3f} "
              f"{elapsed / bare:6.2f}")


if __name__ == "__main__":
    main()
