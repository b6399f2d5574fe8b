"""Speed of exact Shapley values relative to the bare model evaluations.

For d = 5, 10 and 14 features, explain 100 rows of a small scikit-learn
``MLPRegressor`` with :func:`sklearn_xai.datasets.exact_shapley_values`
(interventional values over a small background), and compare the wall time
with the time the model alone takes to predict the same number of rows in
batches of the same size.  The ratio is the overhead of building the
``2**d`` coalitions and aggregating the values (1.0 = no overhead).

Run::

    python benchmarks/bench_exact_shapley.py [--features 5 10 14] [--rows 100]
        [--background 10] [--batch-size 65536]
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPRegressor

from sklearn_xai.datasets import exact_shapley_values, make_gaussian_nonlinear_additive


def bench(n_features, n_rows, n_background, batch_size, repeats=3):
    data = make_gaussian_nonlinear_additive(2000, n_features, rho=0.5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = MLPRegressor(hidden_layer_sizes=(32,), max_iter=30, random_state=0)
        model.fit(data.data, data.target)
    X, background = data.data[:n_rows], data.data[-n_background:]

    best_shap, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = exact_shapley_values(model.predict, X, value="interventional",
                                      background=background, batch_size=batch_size)
        best_shap = min(best_shap, time.perf_counter() - start)

    n_model_rows = result.n_model_rows
    block = np.random.default_rng(0).normal(size=(batch_size, n_features))
    best_model = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        remaining = n_model_rows
        while remaining > 0:
            model.predict(block[: min(batch_size, remaining)])
            remaining -= batch_size
        best_model = min(best_model, time.perf_counter() - start)
    return dict(d=n_features, rows=n_rows, background=n_background,
                model_rows=n_model_rows, calls=result.n_model_calls,
                shapley_s=best_shap, predict_s=best_model,
                ratio=best_shap / best_model)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", type=int, nargs="+", default=[5, 10, 14])
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--background", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=65536)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    header = (f"{'d':>3} {'rows':>5} {'bg':>4} {'model rows':>11} {'calls':>6} "
              f"{'shapley s':>10} {'predict s':>10} {'ratio':>6}")
    print(header)
    for d in args.features:
        r = bench(d, args.rows, args.background, args.batch_size, args.repeats)
        print(f"{r['d']:>3} {r['rows']:>5} {r['background']:>4} {r['model_rows']:>11} "
              f"{r['calls']:>6} {r['shapley_s']:>10.3f} {r['predict_s']:>10.3f} "
              f"{r['ratio']:>6.2f}")


if __name__ == "__main__":
    main()
