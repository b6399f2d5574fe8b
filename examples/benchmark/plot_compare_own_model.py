"""
=========================================
Choosing an explainer for your own model
=========================================

:func:`~sklearn_xai.benchmark.compare_explainers` answers a practitioner's
question, "which explanation of *my* fitted model should I trust?", in one
call: the explainers that apply to the model are scored, against a random
control, on metrics that need no ground truth, and the results end on a
decision (the explainers by mean rank over the metrics).

By default the metrics are the **decision set**
(:func:`~sklearn_xai.benchmark.decision_metrics`): one metric per question
(removal in order of importance, the top features alone, agreement with
output changes, stability to small noise, conciseness), chosen to decide
rather than to be exhaustive.  The command line does the same on a CSV file
(``sklearn-xai compare data.csv --target y``), with ``--explainers``,
``--metrics`` and ``--budget SECONDS``.
"""

from sklearn.datasets import load_diabetes
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import train_test_split

from sklearn_xai.benchmark import (
    applicable_explainers,
    compare_explainers,
    decision_metrics,
    format_leaderboard,
)

X, y = load_diabetes(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = HistGradientBoostingRegressor(max_iter=30, max_depth=3, random_state=0)
model.fit(X_train, y_train)

# %%
# The explainers that apply to a gradient-boosted model include its exact
# tree attributions; three of the cheapest are compared here (with the random
# control, always added) to keep the example fast: the sampling explainers
# (KernelSHAP, LIME) evaluate the model thousands of times per row.
available = applicable_explainers(model, X.shape[1])
print(list(available))
chosen = {label: available[label] for label in ("tree_shap", "feature_ablation",
                                                 "loci")}
print([m if isinstance(m, str) else m["name"] for m in decision_metrics()])

# %%
# Two seeds (the default) and 20 explained rows.  ``budget=SECONDS`` would
# cut seeds, rows and then the costliest explainers to fit a time limit.
results = compare_explainers(model, X_test, y_test, X_train=X_train,
                             explainers=chosen, n_explain=20, n_jobs=1)
board = results.leaderboard()
print(format_leaderboard(board, fmt="text", control=results.control))

# %%
# The decision: mean rank over the five metrics (1 = best) and the number of
# metrics where each explainer is best or tied best.
print(results.decisions()[["explainer", "mean_rank", "n_tied_best", "n_metrics"]])
