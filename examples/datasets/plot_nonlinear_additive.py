"""
==========================================================================
Non-linear additive labels: exact Shapley values of a trained model
==========================================================================

:func:`~sklearn_xai.datasets.make_gaussian_nonlinear_additive` builds the label
``sin(x0) + |x1| + x2^2 + exp(x3)`` (normalised). Its ground truth is known
exactly; a model trained on the data can be explained exactly too, with
:func:`~sklearn_xai.datasets.exact_shapley_values` (all 32 coalitions, every
model evaluation batched). Comparing the two shows what the model learnt.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPRegressor

from sklearn_xai.datasets import exact_shapley_values, make_gaussian_nonlinear_additive

data = make_gaussian_nonlinear_additive(1000, random_state=0)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    model = MLPRegressor(hidden_layer_sizes=(32, 32), max_iter=200,
                         random_state=0).fit(data.data, data.target)

X_explain = data.data[:100]
result = exact_shapley_values(model.predict, X_explain, value="interventional",
                              background=data.data[-50:])
print(f"{result.n_model_rows} model rows in {result.n_model_calls} calls")

fig, axes = plt.subplots(1, 4, figsize=(12, 3), sharey=True)
for j, ax in enumerate(axes):
    ax.plot(X_explain[:, j], data.ground_truth[:100, j], ".", label="ground truth")
    ax.plot(X_explain[:, j], result.attributions[:, j], ".", label="model (exact SHAP)")
    ax.set_xlabel(f"x{j}")
axes[0].set_ylabel("attribution")
axes[0].legend(fontsize=8)
fig.tight_layout()
print("correlation per feature:",
      np.round([np.corrcoef(data.ground_truth[:100, j], result.attributions[:, j])[0, 1]
                for j in range(4)], 3))
plt.show()
