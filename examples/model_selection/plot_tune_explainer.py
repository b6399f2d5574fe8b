"""
==================================================
Tuning an explainer with GridSearchCV
==================================================

An explainer's hyperparameters change its explanations, so they can be tuned
like a model's.  :class:`~sklearn_xai.compose.ExplainedModel` wraps a model
and an explainer in one estimator, and the explanation scorers of
:mod:`sklearn_xai.metrics` score it against a ground truth that scikit-learn's
metadata routing splits per fold.

Here the model is a linear regression on features with non-zero means.  Its
exact Shapley values are ``w_j (x_j - mu_j)``.  Feature ablation with a zero
baseline attributes ``w_j x_j`` instead, which ranks features differently;
ablating to the training mean recovers the Shapley values (the median, equal
to the mean for Gaussian features, does as well up to sampling noise).  The
search finds that out from the agreement with the ground truth alone.
"""

import numpy as np
import pandas as pd
import sklearn
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker, MarginalMasker
from sklearn_xai.metrics import check_scoring

# Ground truth travels to the scorers through metadata routing.
sklearn.set_config(enable_metadata_routing=True)

rng = np.random.RandomState(0)
mu = np.array([3.0, -2.0, 1.0, 0.0, 5.0])
w = np.array([1.0, -2.0, 3.0, 0.5, 0.1])
X = rng.randn(300, 5) + mu
y = X @ w + 0.1 * rng.randn(300)
ground_truth = w * (X - mu)  # exact Shapley values of the true linear model

model = LinearRegression().fit(X, y)

# %%
# Search over the masker, i.e. over what "removing a feature" means.
search = GridSearchCV(
    ExplainedModel(FrozenEstimator(model), FeatureAblation()),
    {
        "explainer__masker": [
            BaselineMasker("zero"),
            BaselineMasker("median"),
            BaselineMasker("mean"),
            MarginalMasker(50, random_state=0),
        ]
    },
    scoring=check_scoring(["feature_agreement", "rank_correlation", "r2"]),
    refit="feature_agreement",
    cv=5,
)
search.fit(X, y, ground_truth=ground_truth)

results = pd.DataFrame(search.cv_results_)
columns = ["param_explainer__masker", "mean_test_feature_agreement",
           "mean_test_rank_correlation", "mean_test_r2"]
with pd.option_context("display.width", 120, "display.max_colwidth", 40):
    print(results[columns].sort_values("mean_test_feature_agreement", ascending=False)
          .to_string(index=False))
print("best:", search.best_params_)

# %%
# The same search with the scorer named on the estimator itself: its
# ``score`` then drives the search and ``cross_val_score`` alike.
search2 = GridSearchCV(
    ExplainedModel(FrozenEstimator(model), FeatureAblation(), scoring="feature_agreement"),
    {"explainer__masker": [BaselineMasker("zero"), BaselineMasker("mean")]},
    cv=5,
).fit(X, y, ground_truth=ground_truth)
print("best (scoring on the estimator):", search2.best_params_)
