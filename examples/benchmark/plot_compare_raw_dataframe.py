"""
=======================================================
Choosing an explainer for a Pipeline on a raw DataFrame
=======================================================

A practitioner's model is rarely fitted on a float matrix: it is a
scikit-learn Pipeline whose ColumnTransformer one-hot encodes string and
categorical columns by name.  :func:`~sklearn_xai.benchmark.compare_explainers`
takes that Pipeline and the raw DataFrame as they are: the explainers and the
metrics work on the raw columns (one attribution per column the user knows,
not per one-hot column), and the Pipeline is always called on a DataFrame
with the user's columns and dtypes.

On such rows only the explainers that substitute a column's values take part
(LIME, gradients and exact tree attributions are left out), a removed column
takes its most frequent value (categories, booleans) or its mean (numbers),
and the robustness metrics add noise to the float columns only (see
:ref:`raw-dataframes`).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import Ridge
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

from sklearn_xai.benchmark import compare_explainers, format_leaderboard
from sklearn_xai.explainers import ExactShapley
from sklearn_xai.masking import MarginalMasker

# %%
# A shop's orders: a string, a categorical, a boolean and a float column
# ----------------------------------------------------------------------
rng = np.random.default_rng(0)
n = 240
orders = pd.DataFrame({
    "size": rng.choice(["small", "medium", "large"], n),
    "colour": pd.Categorical(rng.choice(["red", "green", "blue"], n)),
    "member": rng.random(n) < 0.3,
    "price": rng.gamma(4.0, 5.0, n),
})
basket = (orders["size"].map({"small": 1.0, "medium": 2.0, "large": 4.0})
          + 1.5 * orders["member"] + 0.1 * orders["price"]
          + rng.normal(scale=0.3, size=n))
train, test = orders[:200], orders[200:]

model = Pipeline([
    ("encode", ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore"), ["size", "colour"])],
        remainder="passthrough")),
    ("ridge", Ridge()),
]).fit(train, basket[:200])

# %%
# Which explanation of this Pipeline should we trust?
# ---------------------------------------------------
# A few rows, two seeds and four metrics keep this example fast; the
# defaults (100 rows, three seeds, every metric that applies) decide better.
# The Ridge Pipeline is additive in the raw columns, so every masker-based
# explainer finds the same attributions (the exact Shapley values) and ties;
# the random control is far behind.
results = compare_explainers(
    model, test, basket[200:], X_train=train, n_explain=12, seeds=[0, 1],
    metrics=["comprehensiveness", "neg_sufficiency", "neg_max_sensitivity",
             "neg_complexity"])
print(format_leaderboard(results.leaderboard(), fmt="text", control="random"))

# %%
# Attributions per raw column
# ---------------------------
# Exact Shapley values with a marginal masker explain the Pipeline on the
# raw DataFrame: one column per raw column.  The colour does not enter the
# basket: its attributions stay near zero.
explainer = ExactShapley(FrozenEstimator(model),
                         masker=MarginalMasker(background=train[:50])).fit(train)
explainer.set_output(transform="pandas")
attributions = explainer.transform(test)
mean_abs = attributions.abs().mean()
print(mean_abs.round(3))

fig, ax = plt.subplots(figsize=(5, 2.5))
ax.barh(mean_abs.index, mean_abs.to_numpy())
ax.set_xlabel("mean |attribution|")
ax.set_title("Ridge Pipeline, per raw column")
fig.tight_layout()
plt.show()
