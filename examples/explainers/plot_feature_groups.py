"""
=================================================
Feature groups: one attribution per one-hot block
=================================================

A model fitted on one-hot encoded data sees ``city_lyon``, ``city_nice`` and
``city_paris`` where the user sees one column, ``city``.  Explaining the
encoded columns one at a time removes a single indicator, which shows the
model a row no encoder produces (no city, or two), and splits the credit of
``city`` over three numbers.  With ``groups`` the players of the Shapley game
are groups of columns: a coalition keeps or removes a whole block, and the
explainer returns one attribution per group (see :ref:`feature-groups`).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from sklearn_xai.explainers import ExactShapley, KernelSHAP
from sklearn_xai.masking import MarginalMasker, onehot_groups

# %%
# A Pipeline on raw columns, explained on its encoded rows
# --------------------------------------------------------
rng = np.random.default_rng(0)
n = 300
X = pd.DataFrame({
    "city": rng.choice(["lyon", "nice", "paris"], n),
    "contract": rng.choice(["temporary", "permanent"], n),
    "age": rng.uniform(20, 65, n),
    "hours": rng.uniform(10, 45, n),
})
y = (X["city"].map({"lyon": 0.0, "nice": 1.0, "paris": 3.0})
     + 2.0 * (X["contract"] == "permanent") + 0.05 * X["age"]
     + 0.02 * X["age"] * (X["city"] == "paris"))
encoder = ColumnTransformer(
    [("cat", OneHotEncoder(sparse_output=False), ["city", "contract"])],
    remainder="passthrough")
pipeline = make_pipeline(encoder, GradientBoostingRegressor(random_state=0)).fit(X, y)

# The explainer sees the encoded rows: the output of the encoding step.
X_encoded = pipeline[0].transform(X)
print(pipeline[0].get_feature_names_out())
print(onehot_groups(pipeline))

# %%
# One column per encoded input, or one per group
# ----------------------------------------------
# ``groups="onehot"`` reads the blocks from the Pipeline (wrapped in
# ``FrozenEstimator``) and explains the rest of the Pipeline on the encoded
# rows.  Both explainers use the same 50 background rows.
background = MarginalMasker(background=X_encoded[:50])
per_column = KernelSHAP(FrozenEstimator(pipeline[-1]), masker=background,
                        n_perturbations=256, random_state=0).fit(X_encoded)
per_group = ExactShapley(FrozenEstimator(pipeline), masker=background,
                         groups="onehot").fit(X_encoded)
A_columns = per_column.transform(X_encoded[:100])
A_groups = per_group.transform(X_encoded[:100])
print(per_group.get_feature_names_out())

# Efficiency holds on groups: the values sum to f(x) - E f(background).
gap = pipeline.predict(X.iloc[:100]) - pipeline.predict(X.iloc[:50]).mean()
print("max |sum of group values - (f(x) - E f)|:",
      np.abs(A_groups.sum(axis=1) - gap).max())

# %%
# Mean absolute attribution
# -------------------------
# The encoded columns' bars split each variable; the groups' bars are the
# variables the user knows.
fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharex=True)
names = pipeline[0].get_feature_names_out()
axes[0].barh(names, np.abs(A_columns).mean(axis=0))
axes[0].set_title("KernelSHAP, one player per encoded column")
axes[1].barh(per_group.get_feature_names_out(), np.abs(A_groups).mean(axis=0))
axes[1].set_title('ExactShapley, groups="onehot"')
for ax in axes:
    ax.invert_yaxis()
    ax.set_xlabel("mean |attribution|")
fig.tight_layout()
plt.show()

# %%
# Groups of your own
# ------------------
# A dict ``{name: columns}`` (positions, or names of a DataFrame's columns)
# makes any partition of the columns the players, here the job and the
# person.
jobs = {"job": [0, 1, 2, 3, 4], "person": [5], "time": [6]}
A_jobs = ExactShapley(FrozenEstimator(pipeline[-1]), masker=background,
                      groups=jobs).fit(X_encoded).transform(X_encoded[:3])
print(pd.DataFrame(A_jobs, columns=list(jobs)).round(3))
