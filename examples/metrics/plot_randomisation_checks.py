"""
=================================================================
Does the explanation depend on the model? (randomisation checks)
=================================================================

Adebayo et al.'s sanity checks (:ref:`def-randomisation-metrics`) re-explain
the rows after randomising what a faithful explanation depends on.  Here an
MLP is trained on the wine data (13 features, 3 classes) and three
explainers are checked:

* feature ablation (occlusion with the training mean), which queries the
  model;
* :class:`~sklearn_xai.explainers.InputAttribution`, the input itself
  (``x / sum(x)``), which ignores the model: the checks must flag it;
* :class:`~sklearn_xai.explainers.RandomExplainer`, noise drawn from each
  row's own random stream: it ignores the model too.

The model parameter randomisation test (:ref:`def-mprt`) randomises the
MLP's layers from the output down and plots the similarity of each
explanation with the original one; the efficient variant
(:ref:`def-efficient-mprt`), the random logit test (:ref:`def-random-logit`)
and the data randomisation test (:ref:`def-data-randomisation`) summarise
the same question in one number each.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_wine
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from sklearn_xai.explainers import FeatureAblation, InputAttribution, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    data_randomisation,
    efficient_mprt,
    mprt,
    random_logit,
)

X, y = load_wine(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=60,
                                                    random_state=0, stratify=y)
model = make_pipeline(
    MinMaxScaler(),
    MLPClassifier(hidden_layer_sizes=(32, 16), max_iter=2000, random_state=0),
).fit(X_train, y_train)
print(f"test accuracy: {model.score(X_test, y_test):.2f}")

frozen = FrozenEstimator(model)
explainers = {
    "feature ablation": FeatureAblation(
        frozen, masker=BaselineMasker("mean").fit(X_train)).fit(X_train),
    "input x / sum(x)": InputAttribution(frozen).fit(X_train),
    "random": RandomExplainer(frozen, random_state=0).fit(X_train),
}

# %%
# Cascading randomisation, layer by layer
# ---------------------------------------
# ``return_layers=True`` gives the per-layer curve: the Spearman correlation
# of the magnitudes before and after randomising the output layer, then the
# two last layers, then all three.

fig, ax = plt.subplots(figsize=(6, 3.5))
curves = {}
for name, explainer in explainers.items():
    A = explainer.transform(X_test)
    out = mprt(model, X_test, A, explainer=explainer, return_layers=True,
               random_state=0)
    curves[name] = out
    ax.plot(range(1, len(out.layers) + 1), np.nanmean(out.layer_scores, axis=0),
            marker="o", label=name)
ax.set_xticks(range(1, len(out.layers) + 1),
              [f"+{layer}" for layer in out.layers])
ax.set_xlabel("layers randomised (cascading, output first)")
ax.set_ylabel("Spearman similarity (mean)")
ax.axhline(0, color="grey", lw=0.5)
ax.legend()
fig.tight_layout()

# %%
# The explanation that ignores the model stays at similarity 1: it fails the
# check.  Occlusion changes as soon as the output layer is randomised.
#
# One number per check
# --------------------
# eMPRT is the relative rise of the explanation's entropy under full
# randomisation (higher is better); the random logit test compares the
# explanation of the predicted class with that of another class, and the
# data randomisation test with the explanation of a model trained on
# shuffled labels (lower is better for both).

print(f"{'explainer':18s} {'MPRT':>6s} {'eMPRT':>6s} {'RL':>6s} {'DR':>6s}")
for name, explainer in explainers.items():
    A = explainer.transform(X_test)
    scores = [
        np.nanmean(curves[name].scores),
        np.nanmean(efficient_mprt(model, X_test, A, explainer=explainer,
                                  n_bins=5, random_state=0)),
        np.nanmean(random_logit(model, X_test, A, explainer=explainer,
                                absolute=True, random_state=0)),
        np.nanmean(data_randomisation(model, X_test, A, explainer=explainer,
                                      X_train=X_train, y_train=y_train,
                                      random_state=0)),
    ]
    print(f"{name:18s} " + " ".join(f"{s:6.2f}" for s in scores))

# %%
# The input-only explanation scores 1 on every similarity and 0 on eMPRT,
# and so does the random control: its noise is keyed by the row, so the
# randomised model gets the very same attributions.  The checks measure
# whether an explanation depends on the model, not whether it is accurate
# (a random explainer is the worst on faithfulness metrics, yet passes as
# model-independent here, rightly).  Occlusion of the trained MLP depends
# on the model's parameters, on the explained class and on what the model
# learnt from its labels.
# Thirteen features give few values per row, hence ``n_bins=5`` for eMPRT.
plt.show()

# %%
# In a benchmark
# --------------
# Any run that scores a randomisation metric reports which explainers pass:
# :func:`~sklearn_xai.benchmark.sanity_checks` (a mean similarity below 0.5
# passes), the report's "Sanity checks" section and a line of
# ``sklearn-xai run``.  The default preset scores ``neg_mprt``.
from sklearn_xai.benchmark import run_benchmark, sanity_checks, sanity_summary

results = run_benchmark({
    "dataset": {"name": "make_linear_attribution",
                "params": {"n_samples": 200, "n_features": 4}},
    "models": {"mlp": {"name": "mlp", "params": {"hidden_layer_sizes": [16],
                                                 "max_iter": 500}}},
    "explainers": {"random": "RandomExplainer",
                   "ablation": {"name": "FeatureAblation", "params": {
                       "masker": {"name": "BaselineMasker",
                                  "params": {"value": "mean"}}}}},
    "metrics": ["neg_mprt"], "seeds": [0], "n_explain": 20,
}, n_jobs=1)
print(sanity_checks(results)[["explainer", "value", "passed"]])
print("\n".join(sanity_summary(sanity_checks(results))))
