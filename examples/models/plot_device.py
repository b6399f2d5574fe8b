"""
==========================================================================
Explaining and scoring a network on a GPU
==========================================================================

Torch networks are explained and scored on the device their parameters are
on. This example trains XAI-TRIS's small CNN with ``device="auto"`` (a CUDA
GPU when torch sees one, else the CPU), explains it with SmoothGrad and
scores the explanations with pixel flipping, then moves the fitted net to
the CPU with ``set_params(device="cpu")`` and checks that the explanations
and scores are the same there: every row draws its noise from its own
random stream, and the streams draw the same numbers on every device. On a
machine without a GPU both runs are on the CPU; the example runs anyway.
"""

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import SmoothGrad
from sklearn_xai.metrics import pixel_flipping
from sklearn_xai.models import TetrominoNetClassifier
from sklearn_xai.utils import RowStreams, row_keys

torch.set_num_threads(1)  # a tiny network: threads only add overhead

data = make_tetrominoes(2000, scenario="linear", image_size=8, random_state=0)
X = np.asarray(data.data, dtype=np.float32)
y = np.asarray(data.target)
train, test = data.train_indices, data.test_indices

net = TetrominoNetClassifier(architecture="cnn", image_size=8, lr=5e-3, max_epochs=60,
                             device="auto", random_state=0)
net.fit(X[train], y[train])
print(f"trained on {net.device_}; test accuracy {net.score(X[test], y[test]):.2f}")

# %%
# Explain and score where the net is
# -----------------------------------
# SmoothGrad draws its noise on the net's device; pixel flipping builds its
# masked copies and calls the net there when the net is on a GPU.
rows = X[test[:64]]


def explain_and_score(model):
    explainer = SmoothGrad(FrozenEstimator(model), n_perturbations=20, std=0.2,
                           random_state=0).fit(X[train])
    A = explainer.transform(rows)
    return A, pixel_flipping(model, rows, A, features_per_step=4)


A_device, score_device = explain_and_score(net)

# %%
# Move the fitted net and do it again
# -----------------------------------
# ``set_params(device=...)`` moves a fitted net's weights, criterion and
# optimizer state.  The explanations and scores agree to float32 rounding
# (and, on a GPU, to TF32 precision unless TF32 is turned off).
net.set_params(device="cpu")
A_cpu, score_cpu = explain_and_score(net)
print("largest attribution difference:",
      float(np.abs(A_device - A_cpu).max() / np.abs(A_cpu).max()))
print("largest score difference:", float(np.abs(score_device - score_cpu).max()))

# %%
# The same random numbers on every device
# ---------------------------------------
# A row's draws depend only on the seed and the row: here the noise of the
# first rows, drawn by numpy on the host and by torch on the device of the
# net's first run, agree to the last bits.
streams = RowStreams(0, row_keys(rows[:4]))
host = streams.normal((20, 64), method="box_muller")
device = "cuda" if torch.cuda.is_available() else "cpu"
on_device = streams.normal((20, 64), method="box_muller", device=device).cpu().numpy()
print(f"noise drawn on {device}: largest difference from numpy's "
      f"{np.abs(host - on_device).max():.1e}")

fig, axes = plt.subplots(2, 4, figsize=(8, 4.2))
for i in range(4):
    axes[0, i].imshow(rows[i].reshape(8, 8), cmap="gray")
    axes[1, i].imshow(A_cpu[i].reshape(8, 8), cmap="RdBu_r",
                      vmin=-np.abs(A_cpu[i]).max(), vmax=np.abs(A_cpu[i]).max())
    axes[0, i].set_title(f"class {y[test[i]]}")
    for ax in axes[:, i]:
        ax.set_axis_off()
axes[1, 0].set_title("SmoothGrad", loc="left")
fig.suptitle("Explanations computed where the network lives")
plt.tight_layout()
plt.show()
