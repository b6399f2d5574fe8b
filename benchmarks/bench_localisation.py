"""Speed of the localisation, effective-complexity and teex metrics against
Quantus 0.6.

Workload: 200 rows of 20 features, attributions of a small torch MLP
(20-32-2, float32) computed once (the metrics score given attributions), a
random ground-truth mask per row (about 30 % of the features, never empty).
Each round times, interleaved in one process, our function and the Quantus
metric on the same rows (Quantus gets the rows as ``(n, 1, d)`` "images",
channel first, the torch module as its model, one batch of 200; the checks
it runs on its inputs are part of its cost, as ours are of ours).  Median and
range over ``REPEATS`` rounds; BLAS and torch single-threaded.

These metrics need **no model evaluation**: the ratio to the bare model
evaluations of the other benchmarks does not apply (0 model rows).  The last
line gives, for scale, one forward pass of the MLP on the 200 rows.

Re-measured 2026-11-27 on the development machine (2 cores shared with
other jobs, load average 10 to 14; 41 rounds; ms, median [min, max]; the
speed-up is the ratio of the fastest rounds, since on this load the
medians of sub-millisecond calls measure the machine, not the metric: their
ratios came out at 200x to 380x):

=======================================  ======================  =======================  ========
metric                                   ours                    Quantus 0.6              speed-up
=======================================  ======================  =======================  ========
pointing_game                            0.253 [0.157, 100.4]    81.5 [1.578, 167.0]      10x
attribution_localisation (quantus_code)  0.323 [0.155, 100.4]    65.7 [1.547, 216.5]      10x
top_k_intersection (k=5)                 0.246 [0.146, 100.6]    75.0 [1.541, 149.5]      11x
effective_complexity                     0.146 [0.082, 170.6]    54.9 [1.061, 128.6]      13x
cosine_similarity                        0.719 [0.484, 313.8]
gt_precision / gt_recall / gt_f1         0.51 to 0.70
MLP forward pass, 200 rows (scale)       0.476 [0.382, 108.7]
=======================================  ======================  =======================  ========

The 2026-11-23 run (a quieter machine) gave medians 10x to 32x and
fastest rounds 8x to 14x.  At this
size both sides are fixed costs: ours is parameter and input validation plus
a handful of vectorised numpy passes (about half of one forward pass of the
MLP on the same rows), Quantus' is its input checks and set-up around the
same few array operations.  The teex metrics have no Quantus counterpart;
teex itself loops over rows in Python.

Run: python benchmarks/bench_localisation.py
"""

import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from sklearn_xai.metrics import (
    attribution_localisation,
    pointing_game,
    top_k_intersection,
)
from sklearn_xai.metrics._complexity import effective_complexity
from sklearn_xai.metrics._ground_truth import (
    cosine_similarity,
    gt_f1,
    gt_precision,
    gt_recall,
)

N_ROWS, N_FEATURES, REPEATS, K = 200, 20, 41, 5


def _problem():
    import torch

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_ROWS, N_FEATURES)).astype(np.float32)
    net = torch.nn.Sequential(torch.nn.Linear(N_FEATURES, 32), torch.nn.Tanh(),
                              torch.nn.Linear(32, 2)).eval()
    xt = torch.tensor(X, requires_grad=True)
    out = net(xt)
    target = out.argmax(dim=1)
    out.gather(1, target[:, None]).sum().backward()
    A = (xt.grad * xt).detach().numpy().astype(np.float64)  # gradient x input
    M = rng.random((N_ROWS, N_FEATURES)) < 0.3
    M[np.arange(N_ROWS), rng.integers(0, N_FEATURES, N_ROWS)] = True
    return net, X, target.numpy(), A, M


def _timed(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def main():
    import quantus
    import torch

    torch.set_num_threads(1)
    net, X, y, A, M = _problem()
    q_kwargs = dict(model=net, x_batch=X[:, None, :], y_batch=y,
                    a_batch=A[:, None, :], s_batch=M[:, None, :].astype(np.float32),
                    channel_first=True, batch_size=N_ROWS, device="cpu")
    cases = {
        "pointing_game": (
            lambda: pointing_game(M, A),
            lambda: quantus.PointingGame(disable_warnings=True)(**q_kwargs)),
        "attribution_localisation (quantus_code)": (
            lambda: attribution_localisation(M, A, convention="quantus_code"),
            lambda: quantus.AttributionLocalisation(disable_warnings=True)(**q_kwargs)),
        f"top_k_intersection (k={K})": (
            lambda: top_k_intersection(M, A, k=K),
            lambda: quantus.TopKIntersection(k=K, abs=True,
                                             disable_warnings=True)(**q_kwargs)),
        "effective_complexity": (
            lambda: effective_complexity(A, normalize=False),
            lambda: quantus.EffectiveComplexity(normalise=False, disable_warnings=True)(
                **{**q_kwargs, "s_batch": None})),
    }
    ours_only = {
        "cosine_similarity": lambda: cosine_similarity(M, A),
        "gt_precision": lambda: gt_precision(M, A),
        "gt_recall": lambda: gt_recall(M, A),
        "gt_f1": lambda: gt_f1(M, A),
    }
    X_t = torch.tensor(X)

    def forward():
        with torch.no_grad():
            net(X_t)

    times = {name: ([], []) for name in cases}
    extra = {name: [] for name in [*ours_only, "forward"]}
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for ours, theirs in cases.values():  # warm-up, and a check
            np.testing.assert_allclose(ours(), np.asarray(theirs(), dtype=float),
                                       rtol=1e-6, atol=1e-9)
        for _ in range(REPEATS):
            for name, (ours, theirs) in cases.items():
                times[name][0].append(_timed(ours))
                times[name][1].append(_timed(theirs))
            for name, func in ours_only.items():
                extra[name].append(_timed(func))
            extra["forward"].append(_timed(forward))

    def fmt(t):
        t = 1e3 * np.asarray(t)
        return f"{np.median(t):8.3f} [{t.min():.3f}, {t.max():.3f}]"

    print(f"{N_ROWS} rows x {N_FEATURES} features, {REPEATS} rounds; ms, median [range]")
    print(f"{'metric':42s}{'ours':>26s}{'Quantus':>28s}{'speed-up':>10s}")
    for name, (ours, theirs) in times.items():
        ratio = np.median(theirs) / np.median(ours)
        print(f"{name:42s}{fmt(ours):>26s}{fmt(theirs):>28s}{ratio:9.1f}x")
    for name in ours_only:
        print(f"{name:42s}{fmt(extra[name]):>26s}")
    print(f"{'MLP forward pass, 200 rows (scale)':42s}{fmt(extra['forward']):>26s}")


if __name__ == "__main__":
    main()
