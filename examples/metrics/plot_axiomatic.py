"""
======================================================================
Which explainers keep their axioms? (completeness, null player, shift)
======================================================================

Three properties an attribution method can be proved to have, checked row
by row on a real model (:ref:`def-axiomatic-metrics`):

* **completeness**: the attributions add up to the output change from the
  baseline, ``f(x) - f(b)`` (:ref:`def-completeness`);
* **non-sensitivity**: features the model ignores get no attribution and
  features it uses get some (:ref:`def-non-sensitivity`);
* **input invariance**: shifting the inputs and the model by the same
  constant, which changes no output, leaves the explanation unchanged
  (:ref:`def-input-invariance`).

The model is an L1-penalised logistic regression on the breast cancer data:
the penalty sets many coefficients to exactly zero, so the model has true
null players.  All three metrics are losses (0 is perfect).
"""

# %%
# A sparse model and four explainers
# ----------------------------------
# Every explainer removes features with the same baseline, the training
# mean, so completeness is measured against the same ``f(b)``.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.explainers import (
    FeatureAblation,
    KernelSHAP,
    RandomExplainer,
    ShapleyValueSampling,
)
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import completeness, input_invariance, non_sensitivity

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3,
                                                    random_state=0, stratify=y)
model = make_pipeline(StandardScaler(),
                      LogisticRegression(l1_ratio=1.0, C=0.1, solver="liblinear"))
model.fit(X_train, y_train)
coef = model[-1].coef_.ravel()
print(f"accuracy {model.score(X_test, y_test):.3f}; "
      f"{np.sum(coef == 0)} of {coef.size} features unused (zero coefficient)")

mean = BaselineMasker("mean").fit(X_train)
frozen = FrozenEstimator(model)
explainers = {
    "occlusion": FeatureAblation(frozen, masker=mean),
    "Shapley sampling": ShapleyValueSampling(frozen, n_permutations=10, masker=mean,
                                             random_state=0),
    "KernelSHAP": KernelSHAP(frozen, n_perturbations=200, masker=mean,
                             random_state=0),
    "random": RandomExplainer(frozen, random_state=0),
}
rows = X_test[:60]
attributions = {}
for name, explainer in explainers.items():
    explainer.fit(X_train)
    attributions[name] = explainer.transform(rows)

# %%
# Completeness and the null player
# --------------------------------
# Shapley values are complete by construction (efficiency); occlusion is not,
# because the probability is not additive in the features.  Non-sensitivity
# counts, per row, the unused features that get an attribution plus the used
# features that get none: occlusion and Shapley sampling give an unused
# feature exactly zero, KernelSHAP's regression spreads small weights on
# them, and the random control credits every feature.
results = {}
for name, A in attributions.items():
    gap = completeness(model, rows, A, masker=mean, relative=True,
                       nan_policy="zero")
    ns = non_sensitivity(model, rows, A, masker=mean, eps=1e-6)
    results[name] = gap, ns
    print(f"{name:>17s}: relative completeness gap {np.median(gap):8.2e} (median), "
          f"null-player violations {ns.mean():5.2f} of {coef.size} features")

# %%
# Input invariance
# ----------------
# Shift every (raw) input by ``c = -1`` and the model by the opposite.  With
# the training rows (``X_train``), the explainer is refitted on the shifted
# rows: the mean baseline moves with the data and occlusion is unchanged.
# Without them, the fitted baseline stays where it was (the setting of
# Kindermans et al.) and the attributions move by ``f(x) - f(x_{-j} + b_j -
# c_j)`` minus the original: occlusion with a fixed baseline is not invariant.
occlusion = explainers["occlusion"]
A = attributions["occlusion"]
moved = input_invariance(model, rows, A, explainer=occlusion, X_train=X_train)
fixed = input_invariance(model, rows, A, explainer=occlusion)
print(f"occlusion, baseline refitted: mean change {moved.mean():.2e}")
print(f"occlusion, baseline kept:     mean change {fixed.mean():.2e}")

# %%
# The scores side by side (log scale; lower is better).
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
names = list(results)
axes[0].boxplot([np.maximum(results[n][0], 1e-16) for n in names],
                tick_labels=names)
axes[0].set_yscale("log")
axes[0].set_title("relative completeness gap")
axes[1].bar(names, [results[n][1].mean() for n in names])
axes[1].set_title("null-player violations per row")
for ax in axes:
    ax.tick_params(axis="x", rotation=30)
fig.tight_layout()
plt.show()
