"""
=============================================================
How well do attributions add up to the model? (explanation error)
=============================================================

shap's benchmark ``ExplanationError`` (:ref:`def-explanation-error`) reads
the attributions as an additive model, :math:`v_x(\\emptyset) + \\sum_{j \\in
S} a_j`, and measures its root mean squared gap to the model's value
:math:`v_x(S)` when only the features of :math:`S` are kept (the others
replaced by background rows), over the coalitions met along random feature
orders.  Shapley values of the same masker minimise a weighted version of
this gap, and are exact for an additive model.

Here the model has one interaction, so no attribution is exact: KernelSHAP
with the masker of the metric is compared with occlusion (which attributes
the change from removing one feature at a time) and with random
attributions.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPRegressor

from sklearn_xai.explainers import FeatureAblation, KernelSHAP, RandomExplainer
from sklearn_xai.masking import MarginalMasker
from sklearn_xai.metrics import explanation_error

rng = np.random.default_rng(0)
X = rng.normal(size=(1000, 5))
y = 2 * X[:, 0] + X[:, 1] + X[:, 2] * X[:, 3]
model = MLPRegressor(hidden_layer_sizes=(32,), max_iter=1000, random_state=0).fit(X[:800], y[:800])
print(f"R^2 on held-out rows: {model.score(X[800:], y[800:]):.3f}")

masker = MarginalMasker(background=X[:50]).fit(X[:800])
frozen = FrozenEstimator(model)
explainers = {
    "KernelSHAP": KernelSHAP(frozen, masker=masker, random_state=0),
    "occlusion": FeatureAblation(frozen, masker=masker),
    "random": RandomExplainer(frozen, random_state=0),
}
rows = X[900:950]
errors = {}
for name, explainer in explainers.items():
    A = explainer.fit(X[:800]).transform(rows)
    errors[name] = explanation_error(model, rows, A, masker=masker, n_permutations=10,
                                     random_state=0)
    print(f"{name:10s} explanation error {errors[name].mean():.3f}")

# %%
# One error per row (lower is better).
fig, ax = plt.subplots(figsize=(6, 3))
ax.boxplot(list(errors.values()), tick_labels=list(errors))
ax.set_ylabel("explanation error (RMS)")
plt.tight_layout()
plt.show()
