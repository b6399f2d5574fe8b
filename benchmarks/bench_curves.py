"""Speed of the removal-curve metrics against Quantus 0.6 and against the bare
model evaluations they need.

Workload: 200 rows of 20 features, a small torch MLP (20-64-64-3, tanh),
explained as the probability of the predicted class.  Quantus gets the same
``torch.nn.Module`` (``softmax=True``) with the rows reshaped to
``(n, 1, 20)`` (pixel flipping) or to ``(n, 1, 4, 5)`` images (region
perturbation, selectivity with 2 x 2 patches; IROF with SLIC superpixels);
we get a scikit-learn classifier whose ``predict_proba`` runs the same module
under ``torch.no_grad`` in float32.  Both use a zero baseline and Quantus'
reductions (``convention="quantus_code"``, checked equal in
``tests/metrics/test_curves.py``).

Method: per metric, count the model rows our call evaluates, then time
``predict_proba`` on that many rows in one call or in calls of the metric's
block size, whichever is faster ("bare").  Ours, Quantus and the bare
evaluations alternate within each of ``REPEATS`` rounds (so a slow phase of a
shared machine hits all three); the table gives the median and, in brackets,
the range; "(min)" is the ratio of the fastest rounds, less sensitive to the
bursts of a shared machine.  BLAS and torch run single-threaded (``threadpool_limits(1)``,
``torch.set_num_threads(1)``).

Re-measured 2026-11-27 on 2 CPU cores shared with other jobs (load
average 14 to 18; torch 2, numpy 2.4; seconds; 7 rounds instead of 21)::

    200 rows, 20 features, median [range] of 7 interleaved rounds
    metric                      ours                  Quantus               bare model          Quantus/ours  ours/bare  (min)
    pixel_flipping       0.0879 [0.0605, 0.1172]  2.6883 [1.6081, 3.3856]  0.0660 [0.0285, 0.1136]   30.6x   1.33x  2.12x
    region_perturbation  0.0313 [0.0115, 0.0683]  0.6012 [0.5444, 0.7129]  0.0015 [0.0014, 0.0461]   19.2x  20.50x  8.31x
    selectivity          0.0373 [0.0120, 0.0454]  0.6677 [0.5394, 0.9401]  0.0298 [0.0019, 0.0579]   17.9x   1.25x  6.23x
    irof                 0.6132 [0.5252, 0.8652]  4.2298 [2.6014, 6.2232]  0.0384 [0.0337, 0.0807]    6.9x  15.95x 15.58x

The 2026-11-23 run (21 rounds, a quieter machine) gave 26x, 19x, 18x and
5x, and 1.4x to 16x the bare model.

On this shared machine the timings are bimodal (bursts of 5 ms hit any
call), which the medians of the millisecond-sized calls show: region
perturbation and selectivity evaluate the same 1,400 model rows (6 patches
of 2 x 2 on a 4 x 5 image), and their fastest rounds take 1.9 to 2.4 ms
against 1.2 ms for the bare evaluations, the rest being validation and the
masking of 200 x 7 coalitions.

IROF segments every image with SLIC, one row at a time, in both libraries;
that segmentation, not the model, dominates its time, hence its ratio to the
bare evaluations.

Run: python benchmarks/bench_curves.py
"""

import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from threadpoolctl import threadpool_limits

from sklearn_xai.metrics import irof, pixel_flipping, region_perturbation, selectivity
from sklearn_xai.utils._output import BLOCK_ENTRIES

N_ROWS, N_FEATURES, REPEATS = 200, 20, 21
SHAPE = (4, 5)


class TorchClassifier(ClassifierMixin, BaseEstimator):
    """``predict_proba``: softmax of a torch module's logits (float32, no
    grad); counts the rows it evaluates."""

    rows = 0

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        return self

    def __sklearn_is_fitted__(self):
        return True

    @property
    def classes_(self):
        return np.arange(3)

    def predict_proba(self, X):
        import torch

        TorchClassifier.rows += len(X)
        with torch.no_grad():
            Z = torch.as_tensor(np.asarray(X, dtype=np.float32))
            return torch.softmax(self.module(Z), dim=1).double().numpy()

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def _median_range(times):
    t = np.asarray(times)
    return f"{np.median(t):8.4f} [{t.min():.4f}, {t.max():.4f}]"


def main():
    import quantus
    import torch

    if not hasattr(np, "trapz"):  # Quantus 0.6 calls np.trapz, gone in numpy 2.4
        np.trapz = np.trapezoid  # noqa: NPY201
    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(N_FEATURES, 64), torch.nn.Tanh(),
        torch.nn.Linear(64, 64), torch.nn.Tanh(), torch.nn.Linear(64, 3)).eval()
    clf = TorchClassifier(net)
    rng = np.random.default_rng(0)
    X = rng.uniform(0.1, 1.0, size=(N_ROWS, N_FEATURES)).astype(np.float32).astype(
        np.float64)
    A = rng.normal(size=X.shape)
    y = clf.predict(X)
    common = dict(abs=False, normalise=False, perturb_baseline=0.0,
                  disable_warnings=True, display_progressbar=False)
    flat = dict(model=net, x_batch=X.reshape(-1, 1, N_FEATURES).astype(np.float32),
                y_batch=y, a_batch=A.reshape(-1, 1, N_FEATURES), softmax=True,
                channel_first=True, device="cpu", batch_size=N_ROWS)
    image = dict(flat, x_batch=X.reshape(-1, 1, *SHAPE).astype(np.float32),
                 a_batch=A.reshape(-1, 1, *SHAPE))
    cases = {
        "pixel_flipping": (
            lambda: pixel_flipping(clf, X, A, convention="quantus_code"),
            lambda: quantus.PixelFlipping(return_auc_per_sample=True, **common)(
                **flat)),
        "region_perturbation": (
            lambda: region_perturbation(clf, X, A, image_shape=SHAPE, patch_size=2,
                                        convention="quantus_code"),
            lambda: quantus.RegionPerturbation(patch_size=2, **common)(**image)),
        "selectivity": (
            lambda: selectivity(clf, X, A, image_shape=SHAPE, patch_size=2,
                                convention="quantus_code"),
            lambda: quantus.Selectivity(patch_size=2, **common)(**image)),
        "irof": (
            lambda: irof(clf, X, A, image_shape=SHAPE, convention="quantus_code"),
            lambda: quantus.IROF(return_aggregate=False, **common)(**image)),
    }
    block = max(1, BLOCK_ENTRIES // N_FEATURES)
    lines = [f"{'metric':21s}{'ours':>28s}{'Quantus':>28s}{'bare model':>28s}"
             f"{'Quantus/ours':>14s}{'ours/bare':>11s}{'(min)':>8s}"]
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (ours, theirs) in cases.items():
            TorchClassifier.rows = 0
            ours()
            n_model = TorchClassifier.rows
            Z = np.repeat(X, -(-n_model // N_ROWS), axis=0)[:n_model]

            def bare_single(Z=Z):
                clf.predict_proba(Z)

            def bare_blocks(Z=Z):
                for s in range(0, len(Z), block):
                    clf.predict_proba(Z[s:s + block])

            t_single = min(_timed(bare_single) for _ in range(3))
            t_blocks = min(_timed(bare_blocks) for _ in range(3))
            bare = bare_single if t_single <= t_blocks else bare_blocks
            t_ours, t_theirs, t_bare = [], [], []
            for _ in range(REPEATS):
                t_ours.append(_timed(ours))
                t_theirs.append(_timed(theirs))
                t_bare.append(_timed(bare))
            m_ours, m_theirs, m_bare = (np.median(t) for t in (t_ours, t_theirs,
                                                                t_bare))
            lines.append(f"{name:21s}{_median_range(t_ours):>28s}"
                         f"{_median_range(t_theirs):>28s}{_median_range(t_bare):>28s}"
                         f"{m_theirs / m_ours:13.1f}x{m_ours / m_bare:10.2f}x"
                         f"{min(t_ours) / min(t_bare):7.2f}x")
    print(f"{N_ROWS} rows, {N_FEATURES} features, median [range] of {REPEATS} "
          "interleaved rounds, seconds")
    print("\n".join(lines))


def _timed(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
