"""
==========================================================================
Linear Gaussian data: observational and interventional ground truth
==========================================================================

:func:`~sklearn_xai.datasets.make_gaussian_linear` draws correlated Gaussian
features and a linear label ``y = w'x`` (XAI-Bench). The generator returns
the exact Shapley values of its label function. Under the *interventional*
value function they are ``w_j (x_j - mu_j) / s`` whatever the correlation;
under the *observational* one (``E[h(X) | x_S]``) correlated features share
credit, so the last feature, whose weight is 0, receives attributions that
grow with the correlation ``rho``.
"""

import matplotlib.pyplot as plt
import numpy as np

from sklearn_xai.datasets import make_gaussian_linear

rhos = [0.0, 0.25, 0.5, 0.75, 0.99]
mean_abs = {"interventional": [], "observational": []}
for rho in rhos:
    for value in mean_abs:
        data = make_gaussian_linear(500, rho=rho, gt_value=value, random_state=0)
        mean_abs[value].append(np.abs(data.ground_truth).mean(axis=0))

# %%
# Mean absolute attribution of each feature (weights 4, 3, 2, 1, 0).
fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
for ax, (value, rows) in zip(axes, mean_abs.items()):
    rows = np.array(rows)
    for j in range(rows.shape[1]):
        ax.plot(rhos, rows[:, j], marker="o", label=f"x{j} (w={4 - j})")
    ax.set_title(f"{value} ground truth")
    ax.set_xlabel("rho")
axes[0].set_ylabel("mean |attribution|")
axes[1].legend(fontsize=8)
fig.tight_layout()

# %%
# The label function keeps the normalisation of the training draw, so new
# points are labelled consistently, one at a time or in a batch.
data = make_gaussian_linear(500, rho=0.5, random_state=0)
new = data.distribution.sample(3, random_state=1)
print(data.label_function(new), [data.label_function(row[None])[0] for row in new])
plt.show()
