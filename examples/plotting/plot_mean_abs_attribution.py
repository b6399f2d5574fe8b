"""
============================================
Global importance: mean absolute attribution
============================================

:class:`~sklearn_xai.plotting.MeanAbsAttributionDisplay` averages the
absolute attributions of many rows into one bar per feature.  With
``groups=`` it draws one bar per group of rows: here, per predicted class.
"""

# %%
# Occlusion attributions of a gradient-boosting classifier
# --------------------------------------------------------
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.plotting import MeanAbsAttributionDisplay

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
model = GradientBoostingClassifier(n_estimators=50, max_depth=2, random_state=0).fit(X, y)
explainer = FeatureAblation(FrozenEstimator(model), masker=BaselineMasker("mean"),
                            target=1).fit(X)
rows = X.iloc[::3]
predicted = model.predict(rows)

# %%
# One bar per feature, then one per class
# ---------------------------------------
# ``from_explainer`` explains the rows; the display keeps the attributions'
# summary only, so the grouped chart is drawn from the attribution matrix.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
MeanAbsAttributionDisplay.from_explainer(explainer, rows, max_display=8, ax=left)
left.set_title("All rows")
A = explainer.transform(rows)
MeanAbsAttributionDisplay.from_attributions(
    A, rows, max_display=8, ax=right,
    groups=[("malignant", "benign")[label] for label in predicted])
right.set_title("Per predicted class")
fig.tight_layout()
plt.show()
