"""
==========================================================================
OpenXAI's SynthGauss clusters and their sparse ground truth
==========================================================================

:func:`~sklearn_xai.datasets.make_synthgauss` draws Gaussian clusters whose
labels follow a logistic model with a cluster-specific sparse mask ``m_k``
of a shared weight vector ``w`` (OpenXAI's code). The ground truth of a row
is ``w * m_k`` of its cluster.
"""

import matplotlib.pyplot as plt

from sklearn_xai.datasets import make_synthgauss

data = make_synthgauss(200, n_features=8, n_clusters=4, cluster_distance=4.0,
                       sparsity=0.5, random_state=0)
print(data.data.shape, "class balance:", data.target.mean(), "threshold:", data.threshold)

fig, axes = plt.subplots(1, 2, figsize=(10, 4))
axes[0].scatter(data.data[:, 0], data.data[:, 1], c=data.cluster, s=4, cmap="tab10")
axes[0].set_xlabel("x0")
axes[0].set_ylabel("x1")
axes[0].set_title("clusters (first two features)")
im = axes[1].imshow(data.weights * data.cluster_masks, cmap="coolwarm", vmin=-1, vmax=1)
axes[1].set_xlabel("feature")
axes[1].set_ylabel("cluster")
axes[1].set_title("ground truth w * m_k")
fig.colorbar(im, ax=axes[1])
fig.tight_layout()
print("active features per cluster:", data.cluster_masks.sum(axis=1))
plt.show()
