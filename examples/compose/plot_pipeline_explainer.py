"""
==================================================
An explainer as the last step of a Pipeline
==================================================

Explainers are transformers: ``transform`` returns one attribution per input
feature.  As the last step of a :class:`~sklearn.pipeline.Pipeline` they
explain the model they wrap on the pipeline's transformed features, and with
``set_output(transform="pandas")`` the attributions come back as a DataFrame
with the input's column names.
"""

import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.linear_model import RidgeCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker

X, y = load_diabetes(return_X_y=True, as_frame=True)

pipe = make_pipeline(
    StandardScaler(),
    FeatureAblation(RidgeCV(), masker=BaselineMasker("mean")),
)
pipe.set_output(transform="pandas")
attributions = pipe.fit(X, y).transform(X)
print(attributions.head())

# %%
# Mean absolute attribution per feature: a global importance ranking.
importance = attributions.abs().mean().sort_values(ascending=False)
print(importance.round(2).to_string())

# %%
# For a linear model ablating one feature to its mean removes exactly
# ``coef_j * (z_j - mean_j)``: the attributions match the coefficients.
model = pipe[-1].estimator_
Z = pipe[0].transform(X)
expected = model.coef_ * (Z - Z.mean())
print("max deviation from coef * (z - mean):",
      float(np.abs(attributions.to_numpy() - expected.to_numpy()).max()))

ax = importance.plot.barh(title="Mean |attribution| (feature ablation)")
ax.invert_yaxis()
