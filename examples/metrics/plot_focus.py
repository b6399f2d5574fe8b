"""
=====================================================================
Does the explanation focus on the right images? (Focus on mosaics)
=====================================================================

Focus (:ref:`def-focus`, Arias-Duart et al. 2022) needs no pixel-level
ground truth, only labelled images: four images are framed into a
:math:`2 \\times 2` mosaic, two of the explained class and two of another,
and a faithful explanation of the class puts its positive relevance on the
two images of the class.  :func:`~sklearn_xai.metrics.make_mosaics` builds
the mosaics and records which quadrants hold the class.

Here the images are XAI-TRIS tetrominoes (a T or an L on noise,
:func:`~sklearn_xai.datasets.make_tetrominoes`).  A logistic regression is
trained on single images; on a mosaic, the model averages its logit over
the four quadrants, as a convolutional network with global pooling would.
Occlusion (:class:`~sklearn_xai.explainers.FeatureAblation`) explains the
mosaics for their class, and random attributions give the chance level of
about 0.5.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import focus, make_mosaics

data = make_tetrominoes(2000, random_state=0)
train, test = slice(0, 1600), slice(1600, None)
single = LogisticRegression(max_iter=1000).fit(data.data[train], data.target[train])
print(f"accuracy on single images: {single.score(data.data[test], data.target[test]):.3f}")

mosaics = make_mosaics(data.data[test], data.target[test], image_shape=data.image_shape,
                       mosaics_per_class=40, random_state=0)
print("mosaics:", mosaics.data.shape, "of shape", mosaics.image_shape)


class QuadrantAverage(ClassifierMixin, BaseEstimator):
    """The single-image classifier applied to each quadrant of a mosaic, its
    logits averaged (a global pooling)."""

    def __init__(self, single=None, image_shape=(8, 8)):
        self.single = single
        self.image_shape = image_shape

    def fit(self, X, y=None):
        self.classes_ = self.single.classes_
        self.n_features_in_ = np.shape(X)[1]
        return self

    def decision_function(self, X):
        h, w = self.image_shape
        M = np.asarray(X).reshape(-1, 2 * h, 2 * w)
        quadrants = [M[:, :h, :w], M[:, :h, w:], M[:, h:, :w], M[:, h:, w:]]
        return np.mean([self.single.decision_function(q.reshape(len(M), -1))
                        for q in quadrants], axis=0)

    def predict_proba(self, X):
        p = 1.0 / (1.0 + np.exp(-self.decision_function(X)))
        return np.column_stack([1.0 - p, p])


model = QuadrantAverage(single, data.image_shape).fit(mosaics.data, mosaics.target)
frozen = FrozenEstimator(model)
explainers = {
    "occlusion": FeatureAblation(frozen, masker=BaselineMasker("zero")),
    "random": RandomExplainer(frozen, random_state=0),
}
scores = {}
for name, explainer in explainers.items():
    A = explainer.fit(mosaics.data).explain(mosaics.data, target=mosaics.target)
    scores[name] = focus(mosaics.quadrants, A, image_shape=mosaics.image_shape)
    print(f"{name:10s} Focus {np.nanmean(scores[name]):.3f}")

# %%
# A mosaic, the quadrants of its class and the occlusion map.
i = 0
A = explainers["occlusion"].explain(mosaics.data[[i]], target=mosaics.target[[i]])
fig, axes = plt.subplots(1, 3, figsize=(9, 3))
axes[0].imshow(mosaics.data[i].reshape(mosaics.image_shape), cmap="gray")
axes[0].set_title(f"mosaic, class {mosaics.target[i]}")
axes[1].imshow(mosaics.ground_truth[i].reshape(mosaics.image_shape), cmap="gray")
axes[1].set_title("quadrants of the class")
axes[2].imshow(A[0].reshape(mosaics.image_shape), cmap="RdBu_r")
axes[2].set_title(f"occlusion, Focus {scores['occlusion'][i]:.2f}")
for ax in axes:
    ax.set_axis_off()
plt.tight_layout()
plt.show()
