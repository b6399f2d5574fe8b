"""
=======================================================
ROAD and removal correlations on a real classifier
=======================================================

Removal metrics ask whether the model's output drops when the features an
explanation ranks high are removed.  How a feature is "removed" matters:
replacing it by a baseline value creates inputs the model never saw, and
Rong et al. (ROAD, :ref:`def-road`) showed that the shape of the removal
mask then leaks information, so that removing the most relevant features
first (MoRF) and the least relevant first (LeRF) can rank explainers
inconsistently.  Their fix is noisy linear imputation
(:ref:`def-noisy-linear`): removed features are predicted linearly from the
kept ones, plus a little noise.

Here a gradient-boosted classifier is trained on the breast-cancer data,
three explanations (occlusion and leave-one-covariate-in with the
training mean, and random attributions) are scored by ROAD with both maskers, and by the three
correlation metrics of :ref:`def-removal-correlation`.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import train_test_split

from sklearn_xai.explainers import FeatureAblation, LeaveOneCovariateIn
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.masking import NoisyLinearMasker
from sklearn_xai.metrics._removal_correlations import (
    faithfulness_estimate,
    monotonicity_correlation,
    sensitivity_n,
)
from sklearn_xai.metrics._removal_paths import road

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3,
                                                    random_state=0, stratify=y)
model = HistGradientBoostingClassifier(max_iter=50, random_state=0).fit(X_train, y_train)
rows = X_test[:60]
print(f"test accuracy: {model.score(X_test, y_test):.3f}")

# %%
# Three explanations of the probability of the predicted class
# -------------------------------------------------------------
rng = np.random.default_rng(0)
explanations = {
    "occlusion": FeatureAblation(FrozenEstimator(model),
                                 masker=BaselineMasker("mean")).fit(X_train)
    .transform(rows),
    "keep-one": LeaveOneCovariateIn(FrozenEstimator(model),
                                    masker=BaselineMasker("mean")).fit(X_train)
    .transform(rows),
    "random": rng.normal(size=rows.shape),
}

# %%
# ROAD curves: MoRF and LeRF with two ways of removing features
# --------------------------------------------------------------
# One call per fraction gives the curve (the scorer ``road`` averages it).
# A faithful explanation makes the MoRF curve (output drop) rise fast and
# the LeRF curve stay low.
percentages = np.round(np.arange(0.1, 1.0, 0.1), 1)
maskers = {"noisy linear": NoisyLinearMasker(0.01).fit(X_train),
           "training mean": BaselineMasker("mean").fit(X_train)}
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, (mname, masker) in zip(axes, maskers.items()):
    for (name, A), color in zip(explanations.items(), ("C0", "C1", "C7")):
        for order, style in (("morf", "-"), ("lerf", "--")):
            curve = [road(model, rows, A, percentages=[p], order=order, masker=masker,
                          random_state=0).mean() for p in percentages]
            ax.plot(percentages, curve, style, color=color,
                    label=f"{name} {order.upper()}")
    ax.set_title(f"removal by {mname}")
    ax.set_xlabel("fraction of features removed")
axes[0].set_ylabel("mean drop of p(predicted class)")
axes[0].legend(fontsize=8)
fig.tight_layout()

# %%
# One number per metric
# ---------------------
# ROAD MoRF (greater is better), ROAD LeRF (lower is better) and the three
# correlations (greater is better), each averaged over the rows.
print(f"{'':12s} {'ROAD MoRF':>10s} {'ROAD LeRF':>10s} {'sens-n':>8s} "
      f"{'faith-est':>10s} {'mono-corr':>10s}")
zero = BaselineMasker("mean").fit(X_train)
for name, A in explanations.items():
    morf = road(model, rows, A, X_train=X_train, random_state=0).mean()
    lerf = road(model, rows, A, X_train=X_train, order="lerf", random_state=0).mean()
    sn = np.nanmean(sensitivity_n(model, rows, A, subset_sizes=[1, 3, 10],
                                  n_subsets=30, masker=zero, random_state=0))
    fe = np.nanmean(faithfulness_estimate(model, rows, A, masker=zero))
    mc = np.nanmean(monotonicity_correlation(model, rows, A, X_train=X_train,
                                             n_draws=30, random_state=0))
    print(f"{name:12s} {morf:10.3f} {lerf:10.3f} {sn:8.3f} {fe:10.3f} {mc:10.3f}")

# %%
# The explanations built from the model's own response to removals
# (occlusion, keep-one) beat random attributions on every metric, and the
# gap between MoRF and LeRF is the signal ROAD reads.  Note the circularity
# of the faithfulness estimate: occlusion *is* the output drop when a feature
# is replaced by the training mean, so with that same masker it scores 1 by
# construction.  Judge an explainer with a removal that differs from the one
# it was built on (ROAD's noisy linear imputation here).  Correlation
# metrics are undefined (NaN, left out of the means) for rows where the
# model's output does not move at all, which happens when a tree ensemble
# saturates its probability.
plt.show()
