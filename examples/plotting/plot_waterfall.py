"""
===============================================
One prediction as a waterfall of Shapley values
===============================================

:class:`~sklearn_xai.plotting.WaterfallDisplay` shows how the features of one
row move the model's output from the base value (the output with no feature
known) to the prediction.  Exact Shapley values with the mean baseline add up
to ``f(x) - f(mean)``, so ``from_explainer`` starts the bars at ``f(mean)``
and the last bar ends at the prediction.
"""

# %%
# A ridge model on the diabetes data, explained exactly
# -----------------------------------------------------
import matplotlib.pyplot as plt
from sklearn.datasets import load_diabetes
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import Ridge

from sklearn_xai.explainers import ExactShapley
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.plotting import WaterfallDisplay

X, y = load_diabetes(return_X_y=True, as_frame=True)
model = Ridge(alpha=0.1).fit(X, y)
explainer = ExactShapley(FrozenEstimator(model), masker=BaselineMasker("mean")).fit(X)

# %%
# The waterfall of one patient
# ----------------------------
# The six largest attributions get their own bar; the four others are
# summed into one.  The labels show the patient's (standardised) values.
display = WaterfallDisplay.from_explainer(explainer, X, row=0, max_display=6)
print(f"base value {display.base_value:.1f} + attributions "
      f"= {display.end_value_:.1f}; prediction {model.predict(X.iloc[[0]])[0]:.1f}")
display.ax_.set_title("Patient 0: disease progression in one year")
plt.tight_layout()
plt.show()
