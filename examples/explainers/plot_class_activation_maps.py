"""
==========================================================================
Class activation maps on tetrominoes
==========================================================================

Class activation maps weigh the output maps of one layer of a convolutional
network and sum them: :class:`~sklearn_xai.explainers.GradCAM` by their mean
gradient, :class:`~sklearn_xai.explainers.GradCAMPlusPlus` by their positive
gradients with the paper's closed-form pixel weights, and
:class:`~sklearn_xai.explainers.ScoreCAM` by how much the explained
probability rises when the input is masked with each map.  The region map is
upsampled to the image (bilinear).  This example explains XAI-TRIS's 8x8 CNN
(:class:`~sklearn_xai.models.TetrominoNetClassifier`) on the linear tetromino
scenario, reads two layers (``layer`` takes the dotted names of
:meth:`torch.nn.Module.get_submodule`), and puts the maps beside Guided
Grad-CAM and :class:`~sklearn_xai.explainers.ExpectedGradients`
(integrated gradients from training baselines).  The ground-truth mask of each
image says where the class signal is; the share of the absolute attribution
inside it measures how well a map localises the tetromino.
"""

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import (
    ExpectedGradients,
    GradCAM,
    GradCAMPlusPlus,
    GuidedGradCam,
    ScoreCAM,
)
from sklearn_xai.models import TetrominoNetClassifier

torch.set_num_threads(1)  # tiny network: threads only add overhead

# %%
# Data and model
# --------------
# The linear scenario on white noise, at XAI-TRIS's published signal
# strength.  A larger step than XAI-TRIS's keeps the training short.
data = make_tetrominoes(2000, scenario="linear", image_size=8, random_state=0)
train = np.concatenate([data.train_indices, data.val_indices])
test = data.test_indices[:40]
cnn = TetrominoNetClassifier(architecture="cnn", image_size=8, lr=5e-3, max_epochs=40,
                             batch_size=128, n_iter_no_change=10, random_state=0)
cnn.fit(data.data[train], data.target[train])
accuracy = cnn.score(data.data[data.test_indices], data.target[data.test_indices])
print(f"test accuracy {accuracy:.3f}")
print(cnn.module_.features)

# %%
# The explainers
# --------------
# ``layer=None`` reads the last ``Conv2d`` (``features.9``, 2x2 maps on 8x8
# images); ``"features.4"`` is the ReLU after the second convolution (5x5
# maps), finer but further from the decision.
model = FrozenEstimator(cnn)
X_background = data.data[train][:200]
explainers = {
    "Grad-CAM": GradCAM(model),
    "Grad-CAM (features.4)": GradCAM(model, layer="features.4"),
    "Grad-CAM++ (features.4)": GradCAMPlusPlus(model, layer="features.4"),
    "Score-CAM (features.4)": ScoreCAM(model, layer="features.4"),
    "Guided Grad-CAM": GuidedGradCam(model),
    "Expected Gradients": ExpectedGradients(model, n_perturbations=50, random_state=0),
}
X = data.data[test]
attributions = {name: ex.fit(X_background).transform(X)
                for name, ex in explainers.items()}

# %%
# Maps of two test images (one per class)
# ---------------------------------------
# The red outline is the ground truth: in the linear scenario both tetromino
# positions carry the signal of either class.
rows = [test[np.flatnonzero(data.target[test] == c)[0]] for c in (0, 1)]
fig, axes = plt.subplots(2, len(explainers) + 1, figsize=(13, 4.2))
for i, row in enumerate(rows):
    k = list(test).index(row)
    axes[i, 0].imshow(data.data[row].reshape(8, 8), cmap="gray")
    axes[i, 0].contour(data.masks[row].reshape(8, 8), levels=[0.5], colors="r",
                       linewidths=1)
    axes[i, 0].set_title(f"class {data.target[row]}", fontsize=8)
    for j, (name, A) in enumerate(attributions.items(), start=1):
        a = A[k].reshape(8, 8)
        bound = np.abs(a).max() or 1.0
        axes[i, j].imshow(a, cmap="RdBu_r", vmin=-bound, vmax=bound)
        if i == 0:
            axes[i, j].set_title(name, fontsize=8)
for ax in axes.ravel():
    ax.axis("off")
fig.tight_layout()

# %%
# Localisation: share of the absolute attribution on the tetromino
# -----------------------------------------------------------------
masks = data.masks[test].reshape(len(test), -1) > 0
share = {}
for name, A in attributions.items():
    total = np.abs(A).sum(axis=1)
    inside = (np.abs(A) * masks).sum(axis=1)
    share[name] = float(np.mean(inside[total > 0] / total[total > 0]))
    print(f"{name:>26}: {share[name]:.2f} of the attribution on the tetromino")
print(f"{'(uniform map)':>26}: {masks.mean():.2f}")

fig, ax = plt.subplots(figsize=(7, 2.8))
ax.barh(list(share), list(share.values()))
ax.axvline(masks.mean(), color="k", linestyle="--", linewidth=1, label="uniform map")
ax.set_xlabel("share of |attribution| inside the ground-truth mask")
ax.invert_yaxis()
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()

# %%
# On 8x8 images the layers of this CNN have 2x2 to 5x5 maps, so the class
# activation maps are blobs a few pixels wide that put little more of their
# mass on the tetromino than a uniform map would; the pixel-level methods
# (Guided Grad-CAM, which multiplies the Grad-CAM blob by guided
# backpropagation, and Expected Gradients) localise the shapes far better.
# Class activation maps are made for larger images whose objects span many
# cells of the last convolutional layer.
