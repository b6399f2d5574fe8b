"""Speed of the axiomatic metrics against Quantus 0.6 and against the bare
model evaluations they need.

Workload: 200 rows of 20 features, a small torch MLP (20 -> 64 -> 64 -> 2,
tanh; its first layer a ``Conv1d`` over the whole row so that Quantus can
shift it).  The same ``torch.nn.Module`` is given to Quantus (rows reshaped
to ``(n, 1, 20)``, ``softmax=True``, ``batch_size=200`` so it makes as few
calls as it can) and, for us, wrapped in a scikit-learn classifier whose
``predict_proba`` runs the module in ``no_grad`` float32.  Both use the zero
baseline and no normalisation.

For each metric the calls alternate (ours, Quantus, bare) for ``REPEATS``
rounds, so a slow phase of a shared machine hits all three; the table
shows the median and the range over the rounds.  "bare" is what the metric
cannot avoid: ``predict_proba`` on the rows it evaluates, in the same
blocks (completeness: ``x`` and its baseline, ``2n`` rows;
non-sensitivity: ``x`` and its ``d`` single-feature removals, ``n (d + 1)``
rows), and for input invariance the explainer's own work (one ``Saliency``
call on the ``n`` rows plus one ``predict_proba`` for the explained class).
Quantus' ``InputInvariance`` gets the same gradient as its
``explain_func``.  Torch and BLAS run single-threaded.

Re-measured 2026-11-27 on 2 CPU cores shared with other jobs (load
average 10 to 14, so single timings vary by 10x and more), Python 3.11,
torch CPU, 25 rounds; Quantus with its default ``batch_size=64`` and with
all 200 rows in one batch; "speed-up" is Quantus' median over ours (default
batch / batch of 200), "ours/bare" the ratio of the medians, then of the
fastest rounds:

================  ==================  =================  ==================  ==================  ========  ===========
metric            ours (ms)           Quantus (ms)       Quantus bs=200      bare (ms)           speed-up  ours/bare
================  ==================  =================  ==================  ==================  ========  ===========
completeness      74.9 [1.83, 90.9]   242 [163, 336]     158 [66.5, 226]     1.29 [0.807, 85.6]  3x / 2x   57.97, 2.27
non_sensitivity   266 [128, 440]      1640 [1120, 2410]  583 [373, 797]      253 [142, 425]      6x / 2x   1.05, 0.90
input_invariance  169 [106, 342]      1740 [1170, 2830]  961 [608, 1770]     135 [65.7, 271]     10x / 6x  1.25, 1.61
================  ==================  =================  ==================  ==================  ========  ===========

Completeness takes about 2 ms on a quiet round: its medians here measure
the machine's load, not the metric (its fastest rounds give 89x / 36x).
The 2026-11-23 run (load average about 10) gave 12x / 7x, 7x / 3x and
11x / 7x.

The three metrics are bound by the model rows they must evaluate, and
Quantus evaluates the same rows batched over the rows (two calls for
completeness, one per feature for non-sensitivity), so the speed-up is
Quantus' overhead over those evaluations, not an algorithmic gain; a
cProfile of our calls puts the model at about 70% (completeness: the rest
is the shared validation and masking) to 90% (input invariance) of the time.

Run: python benchmarks/bench_axiomatic.py
"""

import time
import warnings

import numpy as np
import torch
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from threadpoolctl import threadpool_limits

from sklearn_xai.explainers import Saliency
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import completeness, input_invariance, non_sensitivity

N_ROWS, N_FEATURES, REPEATS = 200, 20, 25


class ConvMLP(torch.nn.Module):
    """20 -> 64 -> 64 -> 2 with tanh; the first layer a Conv1d over the row."""

    def __init__(self, d, hidden=64, k=2):
        super().__init__()
        self.conv = torch.nn.Conv1d(1, hidden, kernel_size=d)
        self.hidden = torch.nn.Linear(hidden, hidden)
        self.out = torch.nn.Linear(hidden, k)

    def forward(self, X):
        H = torch.tanh(self.conv(X.reshape(X.shape[0], 1, -1)).flatten(1))
        return self.out(torch.tanh(self.hidden(H)))


class TorchClassifier(ClassifierMixin, BaseEstimator):
    """A fitted torch module as a (differentiable) scikit-learn classifier."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        self.n_features_in_ = np.asarray(X).shape[1]
        self.classes_ = np.arange(2)
        self.predict_nonlinearity = lambda out: torch.softmax(out, dim=-1)
        return self

    def predict_proba(self, X):
        with torch.no_grad():
            Z = torch.as_tensor(np.asarray(X, dtype=np.float32))
            return torch.softmax(self.module_(Z), dim=1).double().numpy()

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def saliency(model, inputs, targets, **kwargs):
    """Quantus' explain_func: gradient of the explained probability."""
    x = torch.as_tensor(np.asarray(inputs, dtype=np.float32)).requires_grad_(True)
    p = torch.softmax(model(x), dim=1)
    p.gather(1, torch.as_tensor(targets)[:, None]).sum().backward()
    return x.grad.numpy()


def _stats(times):
    t = 1e3 * np.asarray(times)
    return np.median(t), t.min(), t.max()


def _fmt(s):
    med, lo, hi = s
    return f"{med:.3g} [{lo:.3g}, {hi:.3g}]"


def interleaved(funcs):
    """Median and range of each function's time, the calls alternating."""
    for fn in funcs:  # warm-up
        fn()
    times = [[] for _ in funcs]
    for _ in range(REPEATS):
        for k, fn in enumerate(funcs):
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    return [_stats(t) for t in times]


def main():
    import quantus

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X_train = rng.normal(size=(1000, N_FEATURES)).astype(np.float32).astype(np.float64)
    X = X_train[:N_ROWS]
    net = ConvMLP(N_FEATURES).eval()
    clf = TorchClassifier(net).fit(X_train)
    y = clf.predict(X)
    sal = Saliency(FrozenEstimator(clf)).fit(X_train)
    A = sal.transform(X)
    Xq = X.reshape(-1, 1, N_FEATURES).astype(np.float32)
    Aq = A.reshape(-1, 1, N_FEATURES).astype(np.float32)
    zero = BaselineMasker("zero").fit(X_train)
    common = dict(abs=False, normalise=False, disable_warnings=True,
                  display_progressbar=False)
    call = dict(model=net, x_batch=Xq, y_batch=y, a_batch=Aq, softmax=True,
                channel_first=True, device="cpu")  # Quantus' batch_size=64
    full = dict(call, batch_size=N_ROWS)
    q_comp = quantus.Completeness(perturb_baseline=0.0, **common)
    q_ns = quantus.NonSensitivity(perturb_baseline=0.0, **common)
    q_ii = quantus.InputInvariance(input_shift=-1.0, **common)

    removed = np.repeat(X, N_FEATURES, axis=0)
    removed.reshape(N_ROWS, N_FEATURES, N_FEATURES)[
        :, np.arange(N_FEATURES), np.arange(N_FEATURES)] = 0.0
    with_x = np.vstack([X, removed])
    with_base = np.vstack([X, np.zeros_like(X)])

    cases = {
        "completeness": (
            lambda: completeness(clf, X, A, masker=zero),
            lambda: q_comp(**call),
            lambda: q_comp(**full),
            lambda: clf.predict_proba(with_base),
        ),
        "non_sensitivity": (
            lambda: non_sensitivity(clf, X, A, masker=zero),
            lambda: q_ns(**call),
            lambda: q_ns(**full),
            lambda: clf.predict_proba(with_x),
        ),
        "input_invariance": (
            lambda: input_invariance(clf, X, A, explainer=sal, shift=-1.0),
            lambda: q_ii(**call, explain_func=saliency),
            lambda: q_ii(**full, explain_func=saliency),
            lambda: (clf.predict_proba(X), sal.transform(X)),
        ),
    }
    header = (f"{'metric':<17s}  {'ours (ms)':<18s}  {'Quantus (ms)':<18s}  "
              f"{'Quantus, bs=200':<18s}  {'bare (ms)':<18s}  {'speed-up':<10s}  "
              "ours/bare (median, best)")
    print(header)
    print("-" * len(header))
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.set_num_threads(1)
        for name, (ours, theirs, theirs_full, bare) in cases.items():
            s_ours, s_q, s_qf, s_bare = interleaved([ours, theirs, theirs_full, bare])
            speedup = f"{s_q[0] / s_ours[0]:.0f}x / {s_qf[0] / s_ours[0]:.0f}x"
            print(f"{name:<17s}  {_fmt(s_ours):<18s}  {_fmt(s_q):<18s}  "
                  f"{_fmt(s_qf):<18s}  {_fmt(s_bare):<18s}  {speedup:<10s}  "
                  f"{s_ours[0] / s_bare[0]:.2f}, {s_ours[1] / s_bare[1]:.2f}")


if __name__ == "__main__":
    main()
