"""
=======================================================
Removal curves: pixel flipping, AOPC, selectivity, IROF
=======================================================

Removal curves (:ref:`def-removal-curves`) delete the pixels (or features,
patches, superpixels) of an image in the order an explanation ranks them
and watch the model's output: a faithful explanation names the pixels whose
removal makes the prediction collapse first.  Here a logistic regression
classifies scikit-learn's 8 x 8 handwritten digits and three explanations of
its predicted class are compared:

* occlusion (:class:`~sklearn_xai.explainers.FeatureAblation`): the output
  drop when each pixel alone is set to the black background;
* coefficient x input, the exact contribution of each pixel to the
  predicted class's logit;
* random attributions, the baseline any explanation should beat.

Removing a pixel sets it to 0 (black), the image background, so the removed
images stay in the data's domain.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    irof,
    pixel_flipping,
    region_perturbation,
    removal_auc,
    removal_curve,
    selectivity,
)

X, y = load_digits(return_X_y=True)
X = X / 16.0  # pixels in [0, 1], background 0
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=200,
                                                    random_state=0, stratify=y)
model = LogisticRegression(max_iter=2000).fit(X_train, y_train)
print(f"test accuracy: {model.score(X_test, y_test):.3f}")

predicted = model.predict(X_test)
coef = model.coef_[np.searchsorted(model.classes_, predicted)]
explanations = {
    "occlusion": FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("zero"))
    .fit(X_train).transform(X_test),
    "coef x input": coef * X_test,
    "random": RandomExplainer(random_state=0).fit(X_train).transform(X_test),
}

# %%
# The curves
# ----------
# :func:`~sklearn_xai.metrics.removal_curve` returns every row's curve: the
# probability of the predicted class after removing the top ``k`` pixels,
# four at a time.  Occlusion and coefficient x input make it collapse after a
# small fraction of the pixels; the random ranking needs most of the image.

fig, ax = plt.subplots(figsize=(6, 4))
for name, A in explanations.items():
    curves, fractions = removal_curve(model, X_test, A, features_per_step=4)
    ax.plot(fractions, curves.mean(axis=0), label=name)
ax.set_xlabel("fraction of pixels removed (most relevant first)")
ax.set_ylabel("mean probability of the predicted class")
ax.legend()
fig.tight_layout()

# %%
# The scores
# ----------
# Each metric reduces the curves to one number per row (here the mean over
# rows).  Pixel flipping and selectivity are areas under the curve (lower is
# better), AOPC with the most relevant patch first and IROF are areas over it
# (greater is better); keep-positive is shap.benchmark's insertion curve
# (greater is better).  Patches are 2 x 2, IROF's superpixels come from SLIC
# on each image.

metrics = {
    "pixel flipping (lower)": lambda A: pixel_flipping(model, X_test, A),
    "AOPC MoRF (greater)": lambda A: region_perturbation(
        model, X_test, A, image_shape=(8, 8), patch_size=2),
    "AOPC LeRF (lower)": lambda A: region_perturbation(
        model, X_test, A, image_shape=(8, 8), patch_size=2, order="lerf"),
    "selectivity (lower)": lambda A: selectivity(
        model, X_test, A, image_shape=(8, 8), patch_size=2),
    "IROF (greater)": lambda A: irof(model, X_test, A, image_shape=(8, 8),
                                     n_segments=16, compactness=0.1),
    "keep positive (greater)": lambda A: removal_auc(model, X_test, A,
                                                     mode="keep"),
}
print(f"{'':26s}" + "".join(f"{name:>14s}" for name in explanations))
for metric, score in metrics.items():
    row = [np.nanmean(score(A)) for A in explanations.values()]
    print(f"{metric:26s}" + "".join(f"{v:14.3f}" for v in row))

# %%
# Both faithful explanations beat the random one by a wide margin on every
# metric, and are close to each other.  Occlusion measures each pixel's
# effect alone, on the probability, which is what pixel flipping removes;
# coefficient x input is the exact additive decomposition of the logit, and
# sums well over regions (AOPC LeRF, selectivity, IROF) and along the
# insertion curve (keep positive).  Rank explainers per metric: the metrics
# ask different questions.

plt.show()
