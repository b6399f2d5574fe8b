"""
=====================================================================
A BEExAI-style benchmark on real data: German credit and Adult
=====================================================================

BEExAI (Sithakoul et al., 2024) compares post-hoc explainers on real tabular
data with no ground truth, through metrics that perturb the model's input:
comprehensiveness and sufficiency (drop, or keep only, the top 30 % of the
features), faithfulness correlation, monotonicity, and the complexity and
sparseness of the attributions.  This example runs the same kind of
benchmark on two data sets that ship with sklearn_xai (no download):

* German credit (1000 applicants, target 1 = good risk), and
* Adult (census income), subsampled to 2000 rows to keep the run short,

both through :func:`~sklearn_xai.datasets.beexai_preprocessor` (ordinal
encoding of the categories, quantile-uniform scaling to ``[0, 1]``), with an
XGBoost classifier and a logistic regression.  Removed features are set to
0, BEExAI's baseline (the minimum after the quantile scaling).

The last section measures a fairness gap: how much better one metric is on
the explanations of men than of women.
"""

import time
import warnings

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from sklearn_xai.benchmark import format_leaderboard, run_benchmark
from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import beexai_preprocessor, load_adult, load_german_credit
from sklearn_xai.explainers import KernelSHAP
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import get_scorer

warnings.filterwarnings("ignore", category=RuntimeWarning)


# %%
# Data sets for the runner
# ------------------------
# The runner takes any function returning a Bunch-like dict with numeric
# ``data``, ``target`` and, optionally, the ``sensitive`` group of every row.  As in
# BEExAI, the preprocessing is fitted on the whole data set before the
# split (it is unsupervised: encoding and per-feature quantiles).
def _beexai(bunch, n_samples=None, random_state=0):
    X, y, sensitive = bunch.data, bunch.target.to_numpy(), np.asarray(bunch.sensitive)
    if n_samples is not None and n_samples < len(X):
        rows, _ = train_test_split(np.arange(len(X)), train_size=n_samples,
                                   stratify=y, random_state=random_state)
        X, y, sensitive = X.iloc[rows], y[rows], sensitive[rows]
    Z = beexai_preprocessor(random_state=random_state).fit_transform(X)
    return {"data": np.asarray(Z, dtype=np.float64), "target": y, "sensitive": sensitive}


def german_credit():
    """German credit, BEExAI-preprocessed (sex kept aside as ``sensitive``)."""
    return _beexai(load_german_credit(as_frame=True, sensitive="sex"))


def adult(n_samples=2000):
    """A stratified subsample of Adult, BEExAI-preprocessed."""
    return _beexai(load_adult(as_frame=True, sensitive="sex"), n_samples=n_samples)


for name, load in [("German credit", german_credit), ("Adult", adult)]:
    data = load()
    print(f"{name}: {data['data'].shape[0]} rows, {data['data'].shape[1]} features, "
          f"positive rate {data['target'].mean():.2f}")

# %%
# The benchmark
# -------------
# Five explainers, one of them the random control every explainer must
# beat; sampling budgets are small so that the whole grid (2 data sets x
# 2 models x 5 explainers x 6 metrics) runs in a few seconds.  Losses
# (sufficiency, complexity) are scored as their negation, so greater is
# better everywhere.
zero = {"name": "BaselineMasker", "params": {"value": "zero"}}
benchmark = {
    "name": "beexai_real",
    "datasets": {"german_credit": {"name": german_credit},
                 "adult": {"name": adult}},
    "models": {"xgboost": {"name": "xgboost",
                           "params": {"n_estimators": 100, "max_depth": 4,
                                      "n_jobs": 1}},
               "logistic": {"name": "logistic_regression",
                            "params": {"max_iter": 1000}}},
    "explainers": {
        "random": "RandomExplainer",
        "ablation": {"name": "FeatureAblation", "params": {"masker": zero}},
        "kernel_shap": {"name": "KernelSHAP", "params": {"n_perturbations": 128,
                                                         "masker": zero}},
        "shapley_sampling": {"name": "ShapleyValueSampling",
                             "params": {"n_permutations": 4, "masker": zero}},
        "lime": {"name": "LimeTabular", "params": {"n_perturbations": 300}},
    },
    "metrics": [
        {"name": "comprehensiveness", "params": {"masker": zero}},
        {"name": "neg_sufficiency", "params": {"masker": zero}},
        {"name": "faithfulness_correlation", "params": {"masker": zero}},
        {"name": "monotonicity", "params": {"masker": zero}},
        "neg_complexity",
        "sparseness",
    ],
    "seeds": [0],
    "n_explain": 40,
}

start = time.perf_counter()
results = run_benchmark(benchmark, n_jobs=1)
print(f"{results.n_cells} cells in {time.perf_counter() - start:.1f} s")

# %%
# Model quality and explanation cost
# ----------------------------------
# One row per (data set, model, explainer): the model's held-out accuracy,
# the time to explain the 40 rows and the number of model evaluations it
# took.
table = results.table
costs = (table.groupby(["dataset", "model", "explainer"])
         [["model_score", "explain_time", "n_evaluations"]].first().round(3))
print(costs.to_string())

# %%
# Leaderboard
# -----------
# Mean per metric (a single seed here: no spread over seeds); the
# significance marks compare every explainer with the random control on the
# per-row scores (one-sided Wilcoxon signed-rank test, Holm-corrected).
board = results.leaderboard()
print(format_leaderboard(board, fmt="text", control=results.control))

# %%
# Without ground truth the metrics disagree, and they inherit the choice of
# the removal baseline: 0 is the smallest value of every feature after the
# quantile scaling, not a neutral value, so "removing" features can move a
# logistic regression towards the predicted class (negative
# comprehensiveness, negative sufficiency) while faithfulness correlation,
# which compares the sizes of the attributions with those of the output
# changes, still separates the Shapley-type explainers from the control.
# Read a BEExAI leaderboard metric by metric, never as a single verdict.

# %%
# The same numbers as one wide table: explainers in rows, (data set, model,
# metric) in columns.
wide = table.pivot_table(index="explainer", columns=["dataset", "model", "metric"],
                         values="value")
wide.xs("xgboost", axis=1, level="model").round(3)

# %%
# Average rank of each explainer over all (data set, model, metric) columns
# (1 = best): a BEExAI-style summary.
ranks = wide.rank(axis=0, ascending=False)
ranks.mean(axis=1).sort_values().rename("mean rank").round(2).to_frame()

# %%
# Fairness gap by sex
# -------------------
# The ``neg_group_gap`` scorer splits the per-row scores of any metric by the
# ``sensitive`` attribute and compares the group means (the negated absolute
# difference, so 0 is parity).  Its ``group_report`` gives the group means,
# their standard errors, the gap and a Welch test.  Here: comprehensiveness
# of KernelSHAP explanations of the logistic regression on the 250 held-out
# German credit applicants.
data = german_credit()
X_train, X_test, y_train, y_test, s_train, s_test = train_test_split(
    data["data"], data["target"], data["sensitive"], test_size=0.25, stratify=data["target"],
    random_state=0,
)
em = ExplainedModel(LogisticRegression(max_iter=1000),
                    KernelSHAP(n_perturbations=128, masker=BaselineMasker("zero"),
                               random_state=0))
em.fit(X_train, y_train)
scorer = get_scorer("neg_group_gap", metric="comprehensiveness",
                    masker=BaselineMasker("zero"))
report = scorer.group_report(em, X_test, sensitive=s_test)
print(pd.DataFrame({"mean": report.means, "standard error": report.standard_errors,
                    "rows": report.counts}, index=report.groups).round(3))
print(f"gap {report.gap:.3f} (Welch p = {report.p_value:.2f}); scorer value "
      f"{scorer(em, X_test, sensitive=s_test):.3f}")
