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

Measured on the 2-core development machine (2026-11-23, captum 0.9, other
jobs running: the ranges are wide), 7 rounds::

    model              rows   ours ms (range)      captum ms (range)      bare ms (range)   ours/bare captum/ours
    MLPNetClassifier   1000    400.8 ( 382.7- 931.8)   892.7 ( 789.5-1056.5)   264.5 ( 209.2- 578.2)  1.52  2.23
    MLPNetClassifier   5000   2054.9 (1774.1-2439.1)  4897.5 (4578.5-6482.6)  1690.6 (1325.7-2039.7)  1.22  2.38
    torch Linear       1000     96.4 (  82.0- 103.5)   283.0 ( 204.0- 313.2)    13.2 (   6.2-  18.6)  7.33  2.94
    torch Linear       5000    598.0 ( 404.9- 634.9)  2195.9 (1842.9-2446.7)   447.3 ( 120.3- 647.7)  1.34  3.67

Ours is 2.2x to 3.7x faster than Captum, and within 2x of the bare
evaluations on the package's net.  On a bare ``torch.nn.Linear`` the model is
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
