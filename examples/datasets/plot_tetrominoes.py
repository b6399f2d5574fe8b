"""
==========================================================================
XAI-TRIS tetrominoes: scenarios, backgrounds and ground-truth masks
==========================================================================

:func:`~sklearn_xai.datasets.make_tetrominoes` embeds a T (class 0) or an L
(class 1) in a noise background, additively at fixed positions (LIN), as a
multiplicative modulation (MULT), rotated and translated (RIGID), or as a
signed pair whose sign pattern carries the class (XOR). The ground truth is
a pixel mask: both fixed shapes for LIN, MULT and XOR, the row's own shape
for RIGID. The signal-to-noise ratios default to the published ones.
"""

import matplotlib.pyplot as plt
import numpy as np

from sklearn_xai.datasets import make_tetrominoes

scenarios = ["linear", "multiplicative", "rigid", "xor"]
fig, axes = plt.subplots(3, 4, figsize=(10, 7.5))
for col, scenario in enumerate(scenarios):
    data = make_tetrominoes(200, scenario=scenario, background="correlated",
                            image_size=64, random_state=0)
    row = int(np.flatnonzero(data.target == 1)[0])
    axes[0, col].imshow(data.data[row].reshape(data.image_shape), cmap="gray")
    axes[0, col].set_title(f"{scenario} (alpha={data.alpha})", fontsize=9)
    axes[1, col].imshow(data.masks_signal[row].reshape(data.image_shape), cmap="coolwarm")
    axes[2, col].imshow(data.masks[row], cmap="Greens")
    axes[2, col].set_xlabel(f"{data.masks[row].sum()} mask pixels")
for ax, label in zip(axes[:, 0], ["image", "signal", "ground-truth mask"]):
    ax.set_ylabel(label)
for ax in axes.ravel():
    ax.set_xticks([])
    ax.set_yticks([])
fig.tight_layout()

# %%
# At 8x8 the masks are exact: 8 pixels for the union of both shapes.
small = make_tetrominoes(100, scenario="xor", random_state=0)
print(small.image_shape, small.ground_truth_mask.sum(axis=1)[:5])
plt.show()
