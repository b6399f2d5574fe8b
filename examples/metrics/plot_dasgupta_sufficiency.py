"""
=====================================================================
Do close explanations mean the same prediction? (Dasgupta et al.)
=====================================================================

Dasgupta et al. (2022) judge an explanation by what it tells about the
prediction: rows whose explanations are the same should get the same
prediction (*consistency*, :ref:`def-consistency`), and so should rows
whose explanations are close (*sufficiency*,
:ref:`def-dasgupta-sufficiency`; Quantus' ``Sufficiency``, called
:func:`~sklearn_xai.metrics.dasgupta_sufficiency` here because
:func:`~sklearn_xai.metrics.sufficiency` is ERASER's, another quantity).
Both are one number for a set of rows.

A logistic regression decides from the first two features.  Its
occlusion attributions of class 1, for every row, carry the decision;
random attributions do not.  (Explanations of the *predicted* class would
not: for a binary model they are mirror images for the two classes, so a
row of each class can have the same explanation.)  Sufficiency is shown
against the distance threshold, a fraction of the largest distance between
two explanations, with Quantus' standardised Euclidean distance (each
feature divided by its variance, which lets the two irrelevant features
weigh as much as the relevant ones) and with the plain Euclidean distance.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import consistency, dasgupta_sufficiency

rng = np.random.default_rng(0)
X = rng.normal(size=(700, 4))
y = (X[:, 0] - X[:, 1] > 0).astype(int)
model = LogisticRegression().fit(X[:500], y[:500])
frozen = FrozenEstimator(model)
explainers = {
    "occlusion": FeatureAblation(frozen, masker=BaselineMasker("mean")),
    "random": RandomExplainer(frozen, random_state=0),
}
rows = X[500:]
class_1 = np.ones(len(rows), dtype=int)
thresholds = [0.02, 0.05, 0.1, 0.2, 0.4]
fig, ax = plt.subplots(figsize=(6, 3.5))
for name, explainer in explainers.items():
    A = explainer.fit(X[:500]).explain(rows, target=class_1)
    c = consistency(model, rows, A, k=2, discretize="top_k_sign")
    print(f"{name:10s} consistency {c:.3f}")
    for distance, style in [("seuclidean", "-"), ("euclidean", "--")]:
        s = [dasgupta_sufficiency(model, rows, A, threshold=t, distance=distance,
                                  absolute=False) for t in thresholds[1:]]
        print(f"{'':10s} sufficiency ({distance}) at t=0.05: {s[0]:.3f}")
        ax.plot(thresholds[1:], s, style, marker="o", label=f"{name}, {distance}")
ax.set_xscale("log")
ax.set_xlabel("threshold (fraction of the largest distance)")
ax.set_ylabel("sufficiency")
ax.legend(fontsize="small")
plt.tight_layout()
plt.show()
