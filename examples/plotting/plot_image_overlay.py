"""
============================
Attribution maps over images
============================

:class:`~sklearn_xai.plotting.ImageOverlayDisplay` reshapes attribution rows
to images and draws them over the explained images, with a diverging
colormap centred at 0 and the ground-truth region outlined.  The images are
XAI-TRIS tetrominoes on natural backgrounds (photographs shipped with
scikit-image); the class is carried by a T or L shape, whose pixels are the
ground truth.
"""

# %%
# A linear classifier of tetrominoes, explained by occlusion
# ----------------------------------------------------------
import matplotlib.pyplot as plt
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.plotting import ImageOverlayDisplay

data = make_tetrominoes(400, image_size=64, background="natural", random_state=0)
train, test = data.train_indices, data.test_indices[:4]
model = LogisticRegression(C=0.01, max_iter=300).fit(data.data[train], data.target[train])
print(f"test accuracy {model.score(data.data[data.test_indices], data.target[data.test_indices]):.2f}")
explainer = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("zero"),
                            target=1).fit(data.data[train])

# %%
# Four test images
# ----------------
# Red pixels raise the probability of class 1 (L), blue ones lower it; the
# green outline is the ground truth.
display = ImageOverlayDisplay.from_explainer(
    explainer, data.data[test], image_shape=data.image_shape,
    masks=data.ground_truth_mask[test],
    titles=[f"class {('T', 'L')[label]}" for label in data.target[test]])
plt.show()
