"""
=======================================================
Region explainers: occlusion, RISE and superpixel SHAP
=======================================================

Images are explained by hiding regions, not single pixels (see
:ref:`region-explainers`).  This example explains a known model on a small
photograph (scikit-image's ``camera``, 32 x 32): the model scores the
brightness of a blob around the photographer's head, so a faithful map lights
up there.  Three model-agnostic explainers compare:

* :class:`~sklearn_xai.explainers.Occlusion`, a 4 x 4 patch slid in steps of 2;
* :class:`~sklearn_xai.explainers.RISE`, 1000 random smooth masks per image;
* :class:`~sklearn_xai.explainers.KernelSHAP` whose players are the image's
  SLIC superpixels (``segmentation=``, see :ref:`segmentations`): every pixel
  of a superpixel gets the superpixel's Shapley value.
"""

import matplotlib.pyplot as plt
import numpy as np
from skimage import data
from skimage.transform import resize
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import RISE, KernelSHAP, Occlusion
from sklearn_xai.masking import BaselineMasker, SLICSegmentation

# %%
# A photograph and a model that reads one region of it
# ----------------------------------------------------
side = 32
image = resize(data.camera(), (side, side), anti_aliasing=True)
x = image.reshape(1, -1)

rows, cols = np.mgrid[:side, :side]
blob = np.exp(-((rows - 7) ** 2 + (cols - 14) ** 2) / (2 * 3.0**2)).ravel()


class BlobScore(RegressorMixin, BaseEstimator):
    """``tanh`` of the blob-weighted brightness: the model explained."""

    def fit(self, X, y=None):
        return self

    def __sklearn_is_fitted__(self):
        return True

    def predict(self, X):
        return np.tanh(np.asarray(X) @ blob / blob.sum() * 3.0)


model = FrozenEstimator(BlobScore())

# %%
# Three region explainers
# -----------------------
segmentation = SLICSegmentation(n_segments=50, compactness=0.3, image_shape=(side, side))
explainers = {
    "Occlusion 4x4, stride 2": Occlusion(model, patch_shape=(4, 4), strides=2,
                                         image_shape=(side, side)),
    "RISE, 1000 masks": RISE(model, n_masks=1000, mask_resolution=6,
                             image_shape=(side, side), random_state=0),
    "KernelSHAP on superpixels": KernelSHAP(model, n_perturbations=400,
                                            masker=BaselineMasker("zero"),
                                            segmentation=segmentation,
                                            random_state=0),
}
maps = {name: ex.fit(x).transform(x)[0].reshape(side, side)
        for name, ex in explainers.items()}

fig, axes = plt.subplots(1, 4, figsize=(12, 3.2))
axes[0].imshow(image, cmap="gray")
axes[0].contour(blob.reshape(side, side), levels=[0.5], colors="red")
axes[0].set_title("image (red: the model's blob)")
for ax, (name, a) in zip(axes[1:], maps.items()):
    ax.imshow(a, cmap="magma")
    ax.set_title(name)
for ax in axes:
    ax.set_axis_off()
fig.tight_layout()

# %%
# Do the top pixels of each map lie in the blob?
# ----------------------------------------------
# RISE's map carries a constant offset (the mean masked output), so the maps
# are compared by their ranking: the share of each map's ``k`` largest pixels
# that fall in the blob's ``k`` pixels.
inside = (blob > 0.5).reshape(side, side)
k = int(inside.sum())
for name, a in maps.items():
    top = np.argsort(a.ravel())[::-1][:k]
    print(f"{name:28s} top-{k} pixels in the blob: {inside.ravel()[top].mean():.2f} "
          f"(a random map: {inside.mean():.2f})")

# %%
# Occlusion and RISE resolve the blob to a few pixels.  The superpixel map
# can be no sharper than its superpixels, which follow the photograph's edges,
# not the model's blob: the blob's pixels fall in a few superpixels that also
# hold pixels outside it.  Superpixel attributions suit models whose evidence
# follows the image's objects.
