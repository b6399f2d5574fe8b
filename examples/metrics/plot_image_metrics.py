"""
=====================================================================
Image metrics: insertion with a blurred baseline, deletion and ABPC
=====================================================================

Three faithfulness scores of image explanations read off removal paths
(see :ref:`images`):

* **insertion** (RISE): the most relevant pixels are inserted first into a
  Gaussian-blurred copy of the image; the output should rise early
  (greater area is better);
* **deletion**: the most relevant pixels are set to zero first; the output
  should collapse early (smaller area is better);
* **ABPC**: the area between the least- and most-relevant-first deletion
  curves (greater is better).

and two scores against the ground-truth mask, the area under the
precision-recall curve (AUC-PR) and the IoU of the top pixels.  The model
is XAI-TRIS' MLP on 8 x 8 tetrominoes (a T or an L at fixed positions on
white noise).
"""

# %%
# A small network on tetrominoes
# ------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import IntegratedGradients, RandomExplainer, Saliency
from sklearn_xai.masking import BlurMasker
from sklearn_xai.metrics import (
    abpc,
    deletion_auc,
    insertion_auc,
    mask_average_precision,
    mask_iou,
    removal_curve,
)
from sklearn_xai.models import TetrominoNetClassifier

data = make_tetrominoes(1000, scenario="linear", alpha=0.5, random_state=0)
X, y = data.data, data.target
train, test = data.train_indices, data.test_indices
model = TetrominoNetClassifier(architecture="mlp", max_epochs=5, batch_size=32, lr=1e-3,
                               random_state=0)
model.fit(X[train], y[train])
print(f"test accuracy {model.score(X[test], y[test]):.2f}")

X_explain, mask = X[test][:40], data.ground_truth_mask[test][:40]
frozen = FrozenEstimator(model)  # explain the fitted model, never refit it
explainers = {
    "IG": IntegratedGradients(frozen),
    "gradient": Saliency(frozen),
    "random": RandomExplainer(frozen, random_state=0),
}
maps = {name: e.fit(X[train]).transform(X_explain) for name, e in explainers.items()}

# %%
# The insertion and deletion curves
# ---------------------------------
# ``removal_curve`` gives the paths themselves: ``mode="keep"`` inserts the
# pixels into the blurred image (``baseline="blur"``), ``mode="remove"``
# deletes them (zero baseline).  Four pixels per step.
fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
for name, A in maps.items():
    for ax, mode, baseline in zip(axes, ("keep", "remove"), ("blur", None)):
        curves, fractions = removal_curve(model, X_explain, A, mode=mode,
                                          baseline=baseline, blur_sigma=1.0,
                                          features_per_step=4)
        ax.plot(fractions, curves.mean(axis=0), label=name)
axes[0].set(title="insertion into the blurred image", xlabel="fraction inserted",
            ylabel="probability of the predicted class")
axes[1].set(title="deletion (zero baseline)", xlabel="fraction deleted")
axes[0].legend()
fig.tight_layout()

# %%
# The blurred baseline
# --------------------
# :class:`~sklearn_xai.masking.BlurMasker` is the masker behind
# ``baseline="blur"``: every removed pixel takes its value in the blurred
# copy of its own image.
blurred = BlurMasker(sigma=1.0).fit(X_explain).impute(
    X_explain[:1], np.zeros((1, 64), dtype=bool))[0, 0, 0]
fig, axes = plt.subplots(1, 2, figsize=(5, 2.5))
for ax, img, title in zip(axes, (X_explain[0], blurred), ("image", "blurred")):
    ax.imshow(img.reshape(8, 8), cmap="gray")
    ax.set(title=title, xticks=[], yticks=[])

# %%
# The scores
# ----------
# Integrated gradients should insert steeply, delete steeply, open a wide
# gap between the LeRF and MoRF curves and find the mask; the random map
# should not.
print(f"{'':9s} {'insertion':>9s} {'deletion':>9s} {'ABPC':>6s} {'AUC-PR':>7s} "
      f"{'IoU':>5s}")
for name, A in maps.items():
    scores = (insertion_auc(model, X_explain, A, blur_sigma=1.0, features_per_step=4),
              deletion_auc(model, X_explain, A, features_per_step=4),
              abpc(model, X_explain, A, features_per_step=4),
              mask_average_precision(mask, A), mask_iou(mask, A))
    print(f"{name:9s} " + " ".join(f"{np.mean(s):{w}.3f}"
                                   for s, w in zip(scores, (9, 9, 6, 7, 5))))
