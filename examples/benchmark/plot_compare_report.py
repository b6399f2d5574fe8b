"""
===================================================
From a comparison to the pictures of its explainer
===================================================

:func:`~sklearn_xai.benchmark.compare_explainers` tells which explainer of a
fitted model to trust; :func:`~sklearn_xai.benchmark.explanation_figures`
then explains the compared rows with the explainer the decision puts first
and draws them (a beeswarm of every row, the mean ``|attribution|`` of each
feature, the waterfall of one row), and
:func:`~sklearn_xai.benchmark.write_report` places these pictures right
after the decision.  Budgets are kept tiny so that the example runs in
seconds; the defaults decide on more rows, seeds and metrics.
"""

import tempfile

import matplotlib.pyplot as plt
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge

from sklearn_xai.benchmark import (
    chosen_explainer,
    compare_explainers,
    explanation_figures,
    write_report,
)

# %%
# A comparison on a small budget
# ------------------------------
X, y = load_diabetes(return_X_y=True, as_frame=True)
X_train, y_train, X_test, y_test = X[:300], y[:300], X[300:], y[300:]
model = Ridge(alpha=0.1).fit(X_train, y_train)
explainers = {
    "ablation": "FeatureAblation",
    "kernel_shap": {"name": "KernelSHAP", "params": {"n_perturbations": 64}},
}
results = compare_explainers(
    model, X_test, y_test, X_train=X_train, n_explain=20, seeds=[0],
    explainers=explainers,
    metrics=["comprehensiveness", "neg_sufficiency", "neg_complexity"])
print("chosen:", chosen_explainer(results, reliability=False))

# %%
# The pictures of the chosen explainer, and the report
# ----------------------------------------------------
# The figures and ``attributions.csv`` go into the results folder; the
# returned section goes into the report after the decision.
folder = tempfile.mkdtemp()
section = explanation_figures(results, model, X_test, folder, X_train=X_train,
                              explainers=explainers, reliability=False)
paths = write_report(results, folder, figures=False, reliability=False,
                     explanations=section)
print(sorted(k for k in paths if "explanation" in k or k == "attributions"))

# %%
# What the report shows
# ---------------------
fig, axes = plt.subplots(1, 2, figsize=(12, 5))
for ax, key in zip(axes, ["figure_explanation_beeswarm", "figure_explanation_waterfall"]):
    ax.imshow(plt.imread(section["paths"][key]))
    ax.set_axis_off()
plt.tight_layout()
plt.show()
