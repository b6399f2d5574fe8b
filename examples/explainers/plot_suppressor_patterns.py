"""
=================================================
Weights and patterns on a suppressor variable
=================================================

A **suppressor** variable carries no information about the target, yet a
good model needs it: it cancels the noise of another feature.  With

* ``x1 = z + d`` (the signal ``z`` plus a distractor ``d``),
* ``x2 = d`` (the suppressor: the distractor alone),
* ``x3`` independent noise,

the target ``z`` is exactly ``x1 - x2``, so a linear model puts weight
``-1`` on the suppressor.  Explanations that follow the weights (the
gradient, input x gradient, LRP) therefore highlight ``x2``, although ``x2``
is statistically independent of ``z``.  The **pattern** of the model,
``a = cov(x, y) / var(y)`` (Haufe et al. 2014), estimates where the signal
lives instead; :class:`~sklearn_xai.explainers.PatternNet` and
:class:`~sklearn_xai.explainers.PatternAttribution` (Kindermans et al. 2018)
learn it at ``fit`` and do not point at the suppressor.  This is the central
claim of XAI-TRIS, checked here on a scikit-learn logistic regression and on
a small ReLU MLP (both explained through their exact torch replicas).
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

from sklearn_xai.explainers import (
    CompositeLRP,
    InputXGradient,
    PatternAttribution,
    PatternNet,
    Saliency,
)

warnings.filterwarnings("ignore", category=ConvergenceWarning)

# %%
# The data
# --------
rng = np.random.default_rng(0)
n = 3000
z, d = rng.normal(size=(2, n))
X = np.column_stack([z + d, d, 0.5 * rng.normal(size=n)])
y = (z > 0).astype(int)
names = ["x1 = z + d", "x2 = d (suppressor)", "x3 (noise)"]
print("correlation of each feature with the signal z:",
      np.round([np.corrcoef(X[:, j], z)[0, 1] for j in range(3)], 2))

# %%
# A linear model: weights against pattern
# ----------------------------------------
linear = LogisticRegression(C=10.0).fit(X, y)
pattern = PatternNet(FrozenEstimator(linear)).fit(X).patterns_[0][1]
w = linear.coef_[0]
print("weights (scaled to max 1):", np.round(w / np.abs(w).max(), 2))
print("pattern (scaled to max 1):", np.round(pattern / np.abs(pattern).max(), 2))

# %%
# Mean absolute attributions on held-out rows
# -------------------------------------------
# The explainers share the model and the rows; only the way they read the
# model differs.
X_test = X[-300:]
mlp = MLPClassifier(hidden_layer_sizes=(16,), max_iter=300, random_state=0).fit(
    X[:-300], y[:-300])
explainers = {
    "Saliency": Saliency(output="decision"),
    "InputXGradient": InputXGradient(output="decision"),
    "LRP-epsilon": CompositeLRP(),
    "PatternNet": PatternNet(),
    "PatternAttribution": PatternAttribution(),
}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
for ax, (title, model) in zip(axes, [("logistic regression", linear),
                                     ("ReLU MLP (16 units)", mlp)]):
    width = 0.8 / len(explainers)
    for k, (label, explainer) in enumerate(explainers.items()):
        if label == "Saliency" or label == "InputXGradient":
            # MLPClassifier has no decision_function: explain its probability.
            explainer = explainer.set_params(
                output="decision" if hasattr(model, "decision_function") else "proba")
        explainer = explainer.set_params(estimator=FrozenEstimator(model))
        A = np.abs(explainer.fit(X[:-300]).transform(X_test))
        share = A.mean(axis=0) / A.mean(axis=0).sum()
        print(f"{title:22s} {label:19s} shares {np.round(share, 2)}")
        ax.bar(np.arange(3) + k * width, share, width, label=label)
    ax.set_xticks(np.arange(3) + 0.4 - width / 2, names, fontsize=8)
    ax.set_title(title)
axes[0].set_ylabel("share of mean |attribution|")
axes[1].legend(fontsize=8)
fig.tight_layout()
plt.show()

# %%
# The weight-following methods give the suppressor ``x2`` about as much
# attribution as the signal-carrying ``x1``; PatternNet and
# PatternAttribution give it almost none, on the linear model (where the
# pattern is the closed form ``cov(x, y) / var(y)``) as on the MLP (where
# each ReLU unit's pattern is estimated on the rows where it is active).
