"""
==========================================================================
A small ResNet and a small ViT on tetromino images, and attention rollout
==========================================================================

:class:`~sklearn_xai.models.TetrominoNetClassifier` trains, besides
XAI-TRIS's three networks, a small residual network
(``architecture="resnet"``, :class:`~sklearn_xai.models.SmallResNet`) and a
small vision transformer (``architecture="vit"``,
:class:`~sklearn_xai.models.SmallViT`) on images of any size.  This example
makes 16x16 tetromino images (XAI-TRIS's 64x64 images averaged over 4x4
blocks, with a stronger signal than XAI-TRIS's so that a few epochs
suffice), trains both for a few epochs, and explains the ViT with
:class:`~sklearn_xai.explainers.AttentionRollout` (where the class token's
information comes from) and
:class:`~sklearn_xai.explainers.AttentionXGradient` (the attention that
raises the predicted class), beside the ResNet's
:class:`~sklearn_xai.explainers.Saliency`.
"""

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import AttentionRollout, AttentionXGradient, Saliency
from sklearn_xai.models import TetrominoNetClassifier

torch.set_num_threads(1)

data = make_tetrominoes(1200, scenario="linear", image_size=64, alpha=0.3,
                        random_state=0)
# 64x64 -> 16x16: the mean of each 4x4 block.
X = data.data.reshape(-1, 16, 4, 16, 4).mean(axis=(2, 4)).reshape(-1, 256)
masks = data.masks.reshape(-1, 16, 4, 16, 4).mean(axis=(2, 4)) > 0.05
y = data.target
train, test = np.arange(1000), np.arange(1000, 1200)

common = dict(image_size=16, lr=2e-3, batch_size=64, max_epochs=8,
              early_stopping=False, random_state=0)
resnet = TetrominoNetClassifier(architecture="resnet", module__widths=(8, 16),
                                **common).fit(X[train], y[train])
vit = TetrominoNetClassifier(architecture="vit", module__patch_size=4, module__dim=32,
                             module__heads=4, **common).fit(X[train], y[train])
for name, clf in [("ResNet", resnet), ("ViT", vit)]:
    print(f"{name}: test accuracy {clf.score(X[test], y[test]):.3f}")

# %%
# Explain four test images.  The rollout is upsampled from the ViT's 4x4
# grid of patches (each pixel gets its patch's score).
rows = X[test[:4]]
maps = {
    "ResNet saliency": np.abs(Saliency(FrozenEstimator(resnet)).fit(X[train])
                              .transform(rows)),
    "ViT rollout": AttentionRollout(FrozenEstimator(vit)).fit(X[train]).transform(rows),
    "ViT attention x grad": AttentionXGradient(FrozenEstimator(vit))
    .fit(X[train]).transform(rows),
}
fig, axes = plt.subplots(4, 1 + len(maps), figsize=(8, 8))
for i, row in enumerate(rows):
    axes[i, 0].imshow(row.reshape(16, 16), cmap="gray")
    axes[i, 0].contour(masks[test[i]], levels=[0.5], colors="r", linewidths=0.8)
    for j, (title, A) in enumerate(maps.items(), start=1):
        axes[i, j].imshow(A[i].reshape(16, 16), cmap="viridis")
        if i == 0:
            axes[i, j].set_title(title, fontsize=9)
axes[0, 0].set_title("image (mask in red)", fontsize=9)
for ax in axes.ravel():
    ax.axis("off")
fig.tight_layout()
plt.show()
