"""Speed of the randomisation sanity checks against Quantus 0.6 and against
the bare model work they need.

Workload: 200 rows, 20 features, a torch MLP 20 -> 64 -> 64 -> 2 (three
layers with parameters), explained by the input gradient of the explained
class's logit.  Ours: ``sklearn_xai.metrics`` on a small scikit-learn
wrapper of the module (``predict_proba`` runs it in ``no_grad`` float32)
explained by ``Saliency(output="margin")``-like logit gradients (the
``LogitGradient`` explainer below, the same function Quantus gets as
``explain_func``).  Quantus: ``MPRT`` (cascading, ``top_down``, Spearman,
average over layers), ``RandomLogit`` (Spearman), ``SmoothMPRT`` (50 noisy
copies) and ``EfficientMPRT`` on the same module, rows reshaped to
(n, 1, 20).

Method: one process, BLAS and torch single-threaded; for each metric,
interleaved repetitions of ours, Quantus' and the bare work (median and
range over the repetitions).  The bare work is what the metric cannot avoid:
the gradient passes of every explanation it computes (the same number of
rows, in one call per model) plus one forward pass for the explained
classes; the ratio ours / bare is the overhead of the metric (copies and
randomisation of the model, ranks, bookkeeping).

Re-measured 2026-11-27 (2 CPU cores shared with other jobs, load average
10 to 14: the milliseconds are about 10x an idle machine's, compare the
ratios; median [min, max] over 5 repetitions, ms; the metrics now get
``X_train=X``, since a fresh clone of this explainer is fitted to every
randomised model)::

    metric         ours [range]             Quantus [range]              bare   Quantus/ours  ours/bare
    MPRT            566.5 [393.0, 757.3]     9634.7 [9044.8, 13640.1]    103.4     17x        5.5
    RandomLogit     101.9 [99.9, 198.7]      3372.9 [2343.8, 3443.6]      83.7     33x        1.2
    sMPRT (N=50)   1985.9 [1693.5, 2528.6]  51341.4 [43655.2, 59545.9]  1743.8     26x        1.1
    eMPRT           115.5 [94.9, 193.4]      8847.7 [8605.7, 10107.6]     48.0     77x        2.4

(2026-11-23, on a less loaded machine: 32x, 23x, 24x and 158x; 2.6, 5.4,
1.6 and 1.8 the bare work.)

The model work of this small MLP is 1-7 ms: what remains above it in
MPRT, RandomLogit and eMPRT is fixed per call (validation, the forward
pass for the explained classes, one deep copy of the estimator, the
row-wise ranks of two 200 x 20 matrices, about 1 ms each) and does not grow
with the model; with 50 noisy copies per row (sMPRT), where the model work
dominates, ours is 1.1-1.6x the bare work (1.06x in a quieter run).
Quantus' SmoothMPRT ignores ``explain_func`` for the noisy copies (it calls
Captum's Saliency through ``quantus.explain``), and its EfficientMPRT needs
``softmax=True`` (it takes the entropy of the model's outputs too).

Run: python benchmarks/bench_randomisation.py
"""

import copy
import time
import warnings

import numpy as np
import torch
from sklearn.base import BaseEstimator, ClassifierMixin
from threadpoolctl import threadpool_limits

from sklearn_xai.metrics._randomisation import (
    efficient_mprt,
    mprt,
    random_logit,
    smooth_mprt,
)

N_ROWS, N_FEATURES, REPEATS = 200, 20, 5


class TorchClassifier(ClassifierMixin, BaseEstimator):
    """A fitted torch classifier as a scikit-learn estimator (``module_``)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X=None, y=None):
        self.module_ = self.module
        self.classes_ = np.arange(2)
        return self

    def predict_proba(self, X):
        with torch.no_grad():
            out = self.module_(torch.as_tensor(np.asarray(X, dtype=np.float32)))
            return torch.softmax(out, dim=1).numpy().astype(np.float64)

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def logit_gradient(module, X, idx):
    x = torch.as_tensor(np.asarray(X, dtype=np.float32)).reshape(len(X), -1)
    x.requires_grad_(True)
    out = module(x)
    out[torch.arange(len(x)), torch.as_tensor(np.asarray(idx))].sum().backward()
    return x.grad.detach().numpy().astype(np.float64)


class LogitGradient(BaseEstimator):
    """Gradient of the explained class's logit (the explainer of both sides)."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X=None, y=None):
        self.estimator_ = self.estimator
        return self

    def explain(self, X, *, target=None, row_keys=None):
        if target is None:
            target = self.estimator_.predict(X)
        return logit_gradient(self.estimator_.module_, X, target)


def quantus_explain(model, inputs, targets, **kwargs):
    return logit_gradient(model, inputs, targets).reshape(np.shape(inputs))


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    import quantus

    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    module = torch.nn.Sequential(  # Flatten: (n, 1, d) rows for Quantus
        torch.nn.Flatten(), torch.nn.Linear(N_FEATURES, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 2))
    model = TorchClassifier(module).fit()
    X = np.random.default_rng(0).normal(size=(N_ROWS, N_FEATURES))
    y = model.predict(X)
    ex = LogitGradient(model).fit()
    A = ex.explain(X, target=y)
    xq, aq = X[:, None, :].astype(np.float32), A[:, None, :].astype(np.float32)
    spearman = quantus.similarity_func.correlation_spearman
    common = dict(x_batch=xq, y_batch=y, a_batch=aq, explain_func=quantus_explain,
                  channel_first=True, softmax=False, device="cpu")
    n_layers = 3

    def bare(n_models, copies=1, n_copies=1):
        """One forward pass, ``n_copies`` copies of the module and
        ``n_models`` gradient passes over ``copies`` copies of each row."""
        def run():
            model.predict_proba(X)
            Z = np.repeat(X, copies, axis=0)
            for _ in range(n_copies):
                copy.deepcopy(module)
            for _ in range(n_models):
                logit_gradient(module, Z, np.repeat(y, copies))
        return run

    cases = {
        "MPRT": (
            lambda: mprt(model, X, A, explainer=ex, X_train=X, random_state=0),
            lambda: quantus.MPRT(layer_order="top_down", similarity_func=spearman,
                                 return_average_correlation=True,
                                 disable_warnings=True)(model=module, **common),
            bare(n_layers)),  # one copy, extended layer by layer
        "RandomLogit": (
            lambda: random_logit(model, X, A, explainer=ex, random_state=0),
            lambda: quantus.RandomLogit(num_classes=2, similarity_func=spearman,
                                        disable_warnings=True)(model=module, **common),
            bare(1, n_copies=0)),  # the original model, another class
        "sMPRT (N=50)": (
            lambda: smooth_mprt(model, X, A, explainer=ex, X_train=X, random_state=0),
            # Quantus' SmoothMPRT ignores explain_func for the noisy copies and
            # calls quantus.explain (Captum's Saliency): give it that method.
            lambda: quantus.SmoothMPRT(layer_order="top_down", similarity_func=spearman,
                                       return_average_correlation=True,
                                       disable_warnings=True)(
                model=module, **common, explain_func_kwargs={"method": "Saliency"}),
            bare(n_layers + 1, copies=50)),
        "eMPRT": (
            lambda: efficient_mprt(model, X, A, explainer=ex, absolute=True, X_train=X,
                                   random_state=0),
            # softmax: Quantus also takes the entropy of the model's outputs.
            lambda: quantus.EfficientMPRT(abs=True, disable_warnings=True)(
                model=module, **{**common, "softmax": True}),
            bare(1)),
    }
    rows = []
    with threadpool_limits(1):
        torch.set_num_threads(1)
        for name, (ours, theirs, base) in cases.items():
            times = {"ours": [], "quantus": [], "bare": []}
            ours(), theirs(), base()  # warm-up
            for _ in range(REPEATS):
                times["ours"].append(timed(ours))
                times["quantus"].append(timed(theirs))
                times["bare"].append(timed(base))
            med = {k: 1e3 * np.median(v) for k, v in times.items()}
            rng = {k: (1e3 * min(v), 1e3 * max(v)) for k, v in times.items()}
            rows.append(
                f"{name:14s} ours {med['ours']:8.1f} [{rng['ours'][0]:.1f}, "
                f"{rng['ours'][1]:.1f}]  quantus {med['quantus']:8.1f} "
                f"[{rng['quantus'][0]:.1f}, {rng['quantus'][1]:.1f}]  bare "
                f"{med['bare']:7.1f}  quantus/ours {med['quantus'] / med['ours']:6.1f}x"
                f"  ours/bare {med['ours'] / med['bare']:5.2f}")
            print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    main()
