"""Speed of the LIME variants.

* ``LimeTabular`` against calling ``lime`` directly on the same rows, model and
  ``n_samples`` (the wrapper must stay within 1.5x of direct lime);
* ``LocalLinearSurrogate``, ``CaptumLime`` and ``CaptumKernelSHAP`` as
  ratios to the bare model evaluations they need (one ``predict`` on all
  perturbed rows);
* ``CaptumKernelSHAP`` against ``captum.attr.KernelShap`` run on the same
  rows, model and ``n_samples`` (Captum given every coalition of a row in
  one forward call: ``perturbations_per_eval=n_samples``).

Run: ``python benchmarks/bench_lime.py``.  Prints a table (CPU seconds).
"""

import time

import numpy as np
from lime.lime_tabular import LimeTabularExplainer
from sklearn.ensemble import RandomForestRegressor
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import Ridge
from sklearn.neural_network import MLPRegressor

from sklearn_xai.explainers._lime import (
    CaptumKernelSHAP,
    CaptumLime,
    LimeTabular,
    LocalLinearSurrogate,
)


def best_of(func, repeat=3):
    """Smallest CPU time of the calling process over ``repeat`` runs (CPU time,
    not wall time, so other processes on the machine do not distort ratios)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return min(times)


def bench_lime_tabular(model, X, rows, n_samples):
    d = X.shape[1]
    ours = LimeTabular(FrozenEstimator(model), n_perturbations=n_samples, random_state=0).fit(X)
    direct = LimeTabularExplainer(
        X, mode="regression", kernel_width=0.75 * np.sqrt(d), random_state=0
    )

    def run_direct():
        for row in rows:
            direct.explain_instance(row, model.predict, num_features=d,
                                    num_samples=n_samples)

    # Interleave the two so both see the same machine state.
    t_ours, t_direct = np.inf, np.inf
    for _ in range(3):
        t_ours = min(t_ours, best_of(lambda: ours.transform(rows), repeat=1))
        t_direct = min(t_direct, best_of(run_direct, repeat=1))
    return t_ours, t_direct


def bench_captum_kernel_shap(model, X, rows, n_samples):
    import torch
    from captum.attr import KernelShap

    ours = CaptumKernelSHAP(FrozenEstimator(model), n_perturbations=n_samples,
                            random_state=0).fit(X)
    peer = KernelShap(lambda t: torch.as_tensor(model.predict(t.detach().numpy())))
    inputs = torch.as_tensor(rows)

    def run_peer():
        for i in range(len(rows)):
            peer.attribute(inputs[i:i + 1], n_samples=n_samples,
                           perturbations_per_eval=n_samples)

    t_ours, t_peer = np.inf, np.inf
    for _ in range(3):  # interleaved
        t_ours = min(t_ours, best_of(lambda: ours.transform(rows), repeat=1))
        t_peer = min(t_peer, best_of(run_peer, repeat=1))
    return t_ours, t_peer


def bench_vectorised(explainer, model, X, rows, per_row):
    explainer.set_params(estimator=FrozenEstimator(model)).fit(X)
    Z = np.repeat(rows, per_row, axis=0)
    t_model = best_of(lambda: model.predict(Z))
    t_ex = best_of(lambda: explainer.transform(rows))
    return t_ex, t_model


def main():
    rng = np.random.default_rng(0)
    lines = []
    header = f"{'explainer':<22}{'model':<14}{'d':>4}{'rows':>6}{'samples':>9}" \
             f"{'ours s':>10}{'ref s':>10}{'ratio':>8}  reference"
    lines.append(header)
    lines.append("-" * len(header))
    for d in (5, 20):
        X = rng.normal(size=(1000, d))
        y = X @ rng.normal(size=d) + np.sin(X[:, 0])
        models = {
            "Ridge": Ridge().fit(X, y),
            "MLP": MLPRegressor(hidden_layer_sizes=(50, 50), max_iter=200, random_state=0).fit(X, y),
            "RandomForest": RandomForestRegressor(50, random_state=0).fit(X, y),
        }
        rows = X[:10]
        for name, model in models.items():
            t_ours, t_direct = bench_lime_tabular(model, X, rows, 5000)
            lines.append(
                f"{'LimeTabular':<22}{name:<14}{d:>4}{len(rows):>6}{5000:>9}"
                f"{t_ours:>10.3f}{t_direct:>10.3f}{t_ours / t_direct:>8.2f}  direct lime"
            )
        for name, model in models.items():
            for ex, per_row in ((LocalLinearSurrogate(random_state=0), 1000),
                                (CaptumLime(random_state=0), 50),
                                (CaptumKernelSHAP(n_perturbations=25, random_state=0), 25),
                                (CaptumKernelSHAP(n_perturbations=500, random_state=0), 500)):
                rows_v = X[:200]
                t_ex, t_model = bench_vectorised(ex, model, X, rows_v, per_row)
                lines.append(
                    f"{type(ex).__name__:<22}{name:<14}{d:>4}{len(rows_v):>6}"
                    f"{per_row:>9}{t_ex:>10.3f}{t_model:>10.3f}"
                    f"{t_ex / t_model:>8.2f}  bare model evaluations"
                )
        for name, model in models.items():
            for n_samples in (25, 500):
                rows_c = X[:50]
                t_ours, t_peer = bench_captum_kernel_shap(model, X, rows_c, n_samples)
                lines.append(
                    f"{'CaptumKernelSHAP':<22}{name:<14}{d:>4}{len(rows_c):>6}"
                    f"{n_samples:>9}{t_ours:>10.3f}{t_peer:>10.3f}"
                    f"{t_ours / t_peer:>8.2f}  captum KernelShap"
                )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
