"""Speed of infidelity against Captum and against the bare model evaluations.

Side by side in one process: :func:`sklearn_xai.metrics.infidelity`
(``convention="paper"``, ``n_perturbations=100``, ``sigma=0.1`` absolute,
``normalize=True``) and ``captum.metrics.infidelity`` with the same
Gaussian perturbation (``torch.randn`` noise drawn by its ``perturb_func``)
and the same number of draws, on cheap torch models: the package's
``MLPNetClassifier`` (OpenXAI's two-layer ReLU net, 20 features, the
predicted class's probability) and a 20-feature linear regression net
(``torch.nn.Linear``, the bare minimum of model work).  Captum calls the
module's forward directly; ours goes through the estimator's
``predict_proba`` / ``predict``.  ``bare`` is one no-grad forward of the
module on the same number of perturbed rows (``n_rows x 100``) in blocks of
the size our metric uses, without drawing noise.  Captum is skipped with a
message when it is not installed.

Interleaved repetitions (the order rotated from round to round), median and
range, torch and BLAS single-threaded.

Re-measured on the 2-core development machine (2026-11-27, captum 0.9,
load average about 10 from other jobs: the ranges are wide), 5 rounds::

    model              rows   ours ms (range)      captum ms (range)      bare ms (range)   ours/bare captum/ours
    MLPNetClassifier   1000   1701.8 (1449.0-1862.6)   3074.6 (2467.8-4216.1)   1018.9 ( 886.3-1129.5)  1.67  1.81
    MLPNetClassifier   5000   5361.2 (4129.9-8908.6)  15728.3 (9288.3-22976.5)  3755.5 (2483.3-5692.8)  1.43  2.93
    torch Linear       1000    529.3 ( 390.6- 615.5)   1159.9 (1071.3-1462.1)     76.5 (  28.3- 222.0)  6.92  2.19
    torch Linear       5000   2256.9 (1916.4-2503.8)   6847.2 (6722.6-7394.1)   1367.3 (1193.7-1768.8)  1.65  3.03

and at 200 rows (``--rows 200``, 5 rounds, the same day)::

    MLPNetClassifier    200   1043.6 ( 686.2-2363.7)   1853.1 (1549.1-2812.9)    754.9 ( 421.0- 983.0)  1.38  1.78
    torch Linear        200    363.9 ( 173.3- 486.3)    944.3 ( 686.0-1130.9)      1.3 (   1.0-  64.8)  281.12  2.60

Ours is 1.8x to 3.0x faster than Captum at 200 to 5,000 rows (1.8x on the
package's net, 2.2x to 3.0x on a bare ``torch.nn.Linear``; the 2026-11-23
run, on a less loaded machine, gave 2.2x to 3.7x at 1,000 and 5,000 rows),
and within 1.7x of the bare evaluations on the package's net.  On a bare ``torch.nn.Linear`` the model is
cheaper than drawing the noise: cProfile of 1,000 rows (130 ms): the
Box–Muller draws of the 2,000,000 normals (``_box_muller_block`` 45 ms plus
the SplitMix64 hashing 13 ms) against 27 ms for the model, so no sampler in
numpy gets within 2x of that forward (``torch.randn``, which Captum's
perturbation uses, costs about the same per draw).  Before this change the draws were numpy's ziggurat row by row
(about 1.5x the Box–Muller time).

Run::

    python benchmarks/bench_infidelity.py [--rounds 7]
"""

import argparse
import time
import warnings

import numpy as np
import torch
from sklearn.base import BaseEstimator, RegressorMixin
from threadpoolctl import threadpool_limits

from sklearn_xai.metrics import infidelity
from sklearn_xai.models import MLPNetClassifier

try:
    from captum.metrics import infidelity as captum_infidelity
except ImportError:  # pragma: no cover - optional peer
    captum_infidelity = None

N_PERTURBATIONS = 100
SIGMA = 0.1
D = 20


class _LinearNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(D, 1)

    def forward(self, x):
        return self.lin(x)[:, 0]


class LinearTorchRegressor(RegressorMixin, BaseEstimator):
    """A minimal scikit-learn regressor around a torch ``Linear`` (float32)."""

    def fit(self, X, y=None):
        torch.manual_seed(0)
        self.module_ = _LinearNet().eval()
        self.n_features_in_ = D
        return self

    def predict(self, X):
        with torch.no_grad():
            return self.module_(torch.from_numpy(np.asarray(X, dtype=np.float32))).numpy()


def _bare(forward, X, n):
    """One no-grad forward per block of the same size as ours, on fresh copies."""
    rows = np.repeat(X, N_PERTURBATIONS, axis=0).astype(np.float32)
    block = max(1, 2**17 // (N_PERTURBATIONS * D)) * N_PERTURBATIONS
    with torch.no_grad():
        for start in range(0, len(rows), block):
            forward(torch.from_numpy(rows[start:start + block]))


def _captum(forward, X, A, target):
    def perturb(inputs):
        noise = SIGMA * torch.randn_like(inputs)
        return noise, inputs - noise

    with torch.no_grad():
        return captum_infidelity(forward, perturb, torch.from_numpy(X),
                                 torch.from_numpy(A), target=target,
                                 n_perturb_samples=N_PERTURBATIONS, normalize=True)


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _fmt(t):
    t = 1e3 * np.asarray(t)
    return f"{np.median(t):8.1f} ({t.min():6.1f}-{t.max():6.1f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 5000])
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    Xtr = rng.normal(size=(2000, D)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = MLPNetClassifier(max_epochs=2, random_state=0).fit(
            Xtr, (Xtr[:, 0] + Xtr[:, 1] > 0).astype(int))
    reg = LinearTorchRegressor().fit(Xtr)
    softmax = torch.nn.Softmax(dim=1)

    def clf_forward(t):
        return softmax(clf.module_(t.float()))

    def reg_forward(t):
        return reg.module_(t.float())

    if captum_infidelity is None:
        print("captum is not installed: its column is skipped.")
    print(f"{'model':16s} {'rows':>6s} {'ours ms (range)':>24s} {'captum ms (range)':>24s} "
          f"{'bare ms (range)':>24s} {'ours/bare':>9s} {'captum/ours':>11s}")
    with threadpool_limits(1):
        for name, est, forward in (("MLPNetClassifier", clf, clf_forward),
                                   ("torch Linear", reg, reg_forward)):
            for n in args.rows:
                X = rng.normal(size=(n, D))
                A = rng.normal(size=(n, D))
                target = None
                if name == "MLPNetClassifier":
                    target = torch.from_numpy(clf.predict_proba(X).argmax(axis=1))
                runs = {
                    "ours": lambda r: infidelity(
                        est, X, A, n_perturbations=N_PERTURBATIONS, sigma=SIGMA,
                        sigma_scale="absolute", random_state=r),
                    "bare": lambda r: _bare(forward, X, n),
                }
                if captum_infidelity is not None:
                    runs["captum"] = lambda r: _captum(forward, X, A, target)
                times = {"ours": [], "captum": [], "bare": []}
                names = list(runs)
                for r in range(args.rounds):
                    k = r % len(names)  # rotate the order from round to round
                    for run in names[k:] + names[:k]:
                        times[run].append(_timed(lambda: runs[run](r)))
                med = {k: np.median(v) if v else np.nan for k, v in times.items()}
                print(f"{name:16s} {n:6d} {_fmt(times['ours']):>24s} "
                      f"{_fmt(times['captum']) if times['captum'] else 'skipped':>24s} "
                      f"{_fmt(times['bare']):>24s} {med['ours'] / med['bare']:9.2f} "
                      f"{med['captum'] / med['ours']:11.2f}")


if __name__ == "__main__":
    main()
