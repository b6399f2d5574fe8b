"""Prediction speed of the package's skorch nets against a bare torch forward.

Every model-agnostic explainer and metric on our nets calls
``predict_proba`` (or ``predict``) on many rows.  skorch predicts through a
``DataLoader`` that fetches rows one at a time and collates batches of the
training ``batch_size``; our nets slice validated arrays into blocks and call
skorch's ``evaluation_step`` on each (``_NetMixin.forward_iter``).

For MLPNetClassifier and BEExAIMLPRegressor (20 features) on 4,000 and
20,000 rows, interleaved repetitions (median and range over 9 rounds, BLAS
single-threaded) of:

* ``ours``: the net's ``predict_proba`` / ``predict``;
* ``skorch``: skorch's DataLoader path on the same net
  (``get_iterator`` + ``evaluation_step``, what ``predict_proba`` did before);
* ``bare``: one no-grad forward of ``module_`` on the whole float32 tensor
  plus the output non-linearity.

ratio = ours / bare (goal <= 1.2) and skorch / ours.  The outputs are
compared too (max absolute difference to the DataLoader path).

Re-measured on the 2-core development machine (2026-11-27, shared with
other jobs, load average about 20, so the ranges are wide)::

    model                    rows        ours ms (range)  skorch ms  bare ms ours/bare skorch/ours max |diff|
    MLPNetClassifier         4000    100.2 ( 55.2-166.1)     1903.9    145.5      0.69        19.0   0.00e+00
    MLPNetClassifier        20000    318.7 (244.6-678.8)     5882.3    421.2      0.76        18.5   0.00e+00
    BEExAIMLPRegressor       4000    107.7 ( 91.7-176.1)     1230.9    117.3      0.92        11.4   0.00e+00
    BEExAIMLPRegressor      20000    516.1 (443.6-756.3)     7310.0    624.9      0.83        14.2   0.00e+00

(2026-11-23: 0.73-1.07 the bare forward, 8.5x to 19x faster than skorch.)

Our nets predict at the speed of one bare forward (ratios below 1 are the
blocks fitting the cache better than one 20,000-row tensor) and 11x to
19x faster than skorch's DataLoader path, with identical outputs.

Run: python benchmarks/bench_torch_models.py
"""

import time

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from sklearn_xai.models import BEExAIMLPRegressor, MLPNetClassifier

ROUNDS = 9


def _skorch_path(net, Z):
    X = net._validate_X(Z)
    nonlin = net._get_predict_nonlinearity()
    out = [nonlin(net.evaluation_step(batch, training=False)).numpy()
           for batch in net.get_iterator(net.get_dataset(X), training=False)]
    return np.concatenate(out)


def _bare(net, Z):
    nonlin = net._get_predict_nonlinearity()
    with torch.no_grad():
        net.module_.eval()
        return nonlin(net.module_(torch.from_numpy(Z.astype(np.float32)))).numpy()


def _time(fn, *args):
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 20)).astype(np.float32)
    nets = {
        "MLPNetClassifier": (MLPNetClassifier(max_epochs=3, random_state=0)
                             .fit(X, (X[:, 0] > 0).astype(int)), "predict_proba"),
        "BEExAIMLPRegressor": (BEExAIMLPRegressor(max_epochs=3, random_state=0)
                               .fit(X, X[:, 0] + X[:, 1]), "predict"),
    }
    print(f"{'model':22s} {'rows':>6s} {'ours ms (range)':>22s} {'skorch ms':>10s} "
          f"{'bare ms':>8s} {'ours/bare':>9s} {'skorch/ours':>11s} {'max |diff|':>10s}")
    with threadpool_limits(1):
        for name, (net, method) in nets.items():
            ours = getattr(net, method)
            for n_rows in (4000, 20000):
                Z = rng.normal(size=(n_rows, 20))
                times = {"ours": [], "skorch": [], "bare": []}
                for _ in range(ROUNDS):
                    times["ours"].append(_time(ours, Z))
                    times["skorch"].append(_time(_skorch_path, net, Z))
                    times["bare"].append(_time(_bare, net, Z))
                med = {k: 1e3 * float(np.median(v)) for k, v in times.items()}
                lo, hi = 1e3 * min(times["ours"]), 1e3 * max(times["ours"])
                diff = np.abs(np.asarray(ours(Z)).reshape(n_rows, -1)
                              - _skorch_path(net, Z).reshape(n_rows, -1)).max()
                print(f"{name:22s} {n_rows:6d} {med['ours']:8.1f} ({lo:5.1f}-{hi:5.1f}) "
                      f"{med['skorch']:10.1f} {med['bare']:8.1f} "
                      f"{med['ours'] / med['bare']:9.2f} {med['skorch'] / med['ours']:11.1f} "
                      f"{diff:10.2e}")


if __name__ == "__main__":
    main()
