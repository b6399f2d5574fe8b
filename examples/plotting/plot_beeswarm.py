"""
=============================================
Every row at once: a beeswarm of attributions
=============================================

:class:`~sklearn_xai.plotting.BeeswarmDisplay` draws one point per row and
feature at its attribution, coloured by the feature's value.  A feature
whose red (high) points lie on the right raises the prediction when it
grows.
"""

# %%
# A logistic regression on the breast cancer data
# -----------------------------------------------
# Permutation Shapley values of the probability of the predicted class.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.explainers import ShapleyValueSampling
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.plotting import BeeswarmDisplay

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1)).fit(X, y)
explainer = ShapleyValueSampling(FrozenEstimator(model), masker=BaselineMasker("mean"),
                                 n_permutations=4, target=1,
                                 random_state=0).fit(X)

# %%
# The beeswarm of 150 patients
# ----------------------------
# The probability of class 1 (benign) is explained; features are sorted by
# their mean absolute attribution.
display = BeeswarmDisplay.from_explainer(explainer, X.iloc[:150], max_display=8)
display.ax_.set_title("Attributions to P(benign)")
plt.tight_layout()
plt.show()
