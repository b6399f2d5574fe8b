"""
==================================================
Which metrics to trust: meta-evaluation
==================================================

Explanation metrics disagree. Before deciding on a leaderboard, ask of each
metric whether its ranking of the explainers repeats on fresh rows, whether
it separates a good explainer from the random control with the rows
explained, whether it reacts when the model or its inputs are disrupted
(MetaQuantus's adversarial reactivity) but not to small noise (noise
resilience), and whether it agrees with the other metrics of its family.
:func:`~sklearn_xai.benchmark.meta_evaluate` answers all of it from one run
of the benchmark.

The data have a linear label on correlated Gaussian features, so the
ground-truth attributions are known; the model is a small MLP. A metric that
reads the rows but never the attributions is registered on purpose: the
meta-evaluation must catch it.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from sklearn_xai.benchmark import (
    meta_evaluate,
    plot_metric_agreement,
    reliability_summary,
)
from sklearn_xai.metrics import register_metric, unregister_metric

warnings.filterwarnings("ignore", category=ConvergenceWarning)


# %%
# A broken metric
# ---------------
# ``output_level`` scores a row by the model's output alone: every explainer
# gets the same score, whatever its attributions.
def output_level(estimator, X, attributions):
    return np.asarray(estimator.predict(X), dtype=float)


register_metric("output_level", output_level, kind="model", greater_is_better=True,
                family="faithfulness", source="this example")

# %%
# The benchmark
# -------------
# Four explainers (the random control among them), six metrics, two seeds of
# 40 explained rows. ``meta_evaluate`` runs it and then MetaQuantus's tests:
# the MLP's weights are multiplied by ``N(1, 0.001²)`` (minor) and
# ``N(1, 2²)`` (disruptive) draws and every explainer re-explains the rows
# for the perturbed model; the inputs get uniform noise of ±0.001 and ±5
# training standard deviations. Each metric scores the new explanations,
# twice per test here (``n_perturbations=2``).
mean = {"name": "BaselineMasker", "params": {"value": "mean"}}
benchmark = {
    "name": "meta",
    "datasets": {"gaussian_linear": {"name": "make_gaussian_linear",
                                     "params": {"n_samples": 600, "rho": 0.5}}},
    "models": {"mlp": {"name": "mlp", "params": {"hidden_layer_sizes": [16],
                                                 "max_iter": 300}}},
    "explainers": {
        "random": "RandomExplainer",
        "ablation_zero": "FeatureAblation",
        "ablation_mean": {"name": "FeatureAblation", "params": {"masker": mean}},
        "exact_shapley": {"name": "ExactShapley", "params": {"masker": {
            "name": "MarginalMasker", "params": {"background": 30}}}},
    },
    "metrics": {
        "feature_agreement": {"name": "feature_agreement", "params": {"k": 2}},
        "rank_correlation": "rank_correlation",
        "comprehensiveness": {"name": "comprehensiveness", "params": {"masker": mean}},
        "neg_sufficiency": {"name": "neg_sufficiency", "params": {"masker": mean}},
        "neg_complexity": "neg_complexity",
        "output_level": "output_level",
    },
    "seeds": [0, 1], "n_explain": 40,
}
meta = meta_evaluate(benchmark, n_perturbations=2, random_state=0)

columns = ["metric", "noise_floor", "snr", "split_half", "effect_size", "n_rows_80",
           "resilience_iac", "resilience_iec", "reactivity_iac", "reactivity_iec",
           "mc_score", "family_agreement"]
print(meta[columns].round(2).to_string(index=False))

# %%
# MetaQuantus's scores, each in [0, 1] with 1 ideal: ``resilience_iac``, how
# similar an explainer's scores stay under minor noise (a mean Wilcoxon
# p-value: any systematic shift, however small, pulls it down);
# ``resilience_iec``, how often the explainers keep their order on a row;
# ``reactivity_iac``, how clearly the scores change under disruption;
# ``reactivity_iec``, how often a row's score gets worse; ``mc_score``, the
# mean of the four. Each test type's criteria are in ``meta.attrs``:
print(meta.attrs["metaquantus"][("gaussian_linear", "mlp", "comprehensiveness")])

# %%
# ``split_half`` near 1 says the ranking repeats on the other half of the
# rows; ``n_rows_80`` is how many explained rows a paired t-test needs to
# tell the best explainer from the random control 80 % of the time. The
# flags say which metrics not to decide on:
print("\n".join(reliability_summary(meta)))

# %%
# ``output_level`` is caught: every explainer gets the same score and
# nothing separates the best explainer from the control. It does react to a
# disrupted model (it reads the model's output), so MetaQuantus's tests alone
# would not catch it. The quick protocol perturbs the attributions instead,
# without re-explaining anything; a shuffle of each row's attributions
# changes nothing in ``output_level``, which it flags as blind:
quick = meta_evaluate(benchmark, protocol="attribution_noise", random_state=0)
print(quick.set_index("metric").loc["output_level", "flags"])

# %%
# ``neg_complexity`` does not react to shuffling either, but by construction
# (it measures how spread out the attributions are, not which features they
# point to), so it is not flagged for it.
#
# Rows needed and meta-consistency
# --------------------------------
fig, (ax_rows, ax_mc) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
order = meta.sort_values("n_rows_80")
ax_rows.barh(order["metric"], order["n_rows_80"].fillna(0), color="tab:blue")
ax_rows.axvline(meta["n_rows"].iloc[0], color="k", ls="--", lw=1)
ax_rows.set_xlabel("explained rows for 80 % power (dashed: rows explained)")
ax_mc.barh(order["metric"], order["mc_score"], color="tab:green")
ax_mc.set_xlim(0, 1)
ax_mc.set_xlabel("MetaQuantus MC score (1 = ideal)")
ax_mc.set_yticklabels([])
plt.show()

# %%
# Agreement between metrics
# -------------------------
# The Kendall tau between the metrics' explainer rankings. The ground-truth
# metrics and the removal metrics agree here; the broken metric ranks
# nothing (its row is undefined).
plot_metric_agreement(meta)
plt.show()

# %%
# Clean up the registry (the example registered a metric).
unregister_metric("output_level")
