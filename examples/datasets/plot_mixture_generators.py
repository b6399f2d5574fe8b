"""
==========================================================================
Gaussian-mixture features and their exact conditionals
==========================================================================

The ``make_mixture_*`` generators draw each row from one of two Gaussian
components centred at ``+1`` and ``-1`` (the component is drawn per row).
Their distribution is a :class:`~sklearn_xai.datasets.GaussianMixture` whose
observational conditional is again a mixture, with posterior component
weights: the conditional mean of ``x1`` given ``x0`` is a non-linear,
S-shaped curve although each component is linear.
"""

import matplotlib.pyplot as plt
import numpy as np

from sklearn_xai.datasets import make_mixture_linear

data = make_mixture_linear(1500, rho=0.3, random_state=0)
dist = data.distribution
grid = np.linspace(-4, 4, 200)
rows = np.zeros((grid.size, dist.n_features))
rows[:, 0] = grid
cond_mean = dist.conditional_mean(rows, [0])[:, 1]
posterior = dist.component_posterior(rows, [0])[:, 0]

fig, axes = plt.subplots(1, 2, figsize=(10, 4))
axes[0].scatter(data.data[:, 0], data.data[:, 1], s=3, alpha=0.4, c=data.data.mean(axis=1) > 0,
                cmap="coolwarm")
axes[0].plot(grid, cond_mean, "k", label="E[x1 | x0]")
axes[0].set_xlabel("x0")
axes[0].set_ylabel("x1")
axes[0].legend()
axes[1].plot(grid, posterior)
axes[1].set_xlabel("x0")
axes[1].set_ylabel("posterior weight of the +1 component")
fig.tight_layout()

# %%
# Observational and interventional ground truths differ on mixtures even for
# a linear label, because the mixture correlates the features.
obs = make_mixture_linear(200, gt_value="observational", random_state=0)
inter = make_mixture_linear(200, random_state=0)
print(np.abs(obs.ground_truth - inter.ground_truth).mean(axis=0).round(3))
plt.show()
