"""
==========================================================
Do explanations serve both groups equally well? (fairness)
==========================================================

OpenXAI's fairness analysis (:ref:`def-group-gap`) splits a per-row explanation metric
by a sensitive attribute and compares the group means.  Here a logistic
regression is trained on German credit, its occlusion (feature ablation)
explanations are scored with PGI (the prediction gap when the top features
are perturbed, greater is better), and
:meth:`~sklearn_xai.metrics.GroupGapScorer.group_report` gives the mean,
standard error and count of each sex, the gap between them and a Welch test.
The scorer ``get_scorer("neg_group_gap", metric="pgi")`` returns the negated
gap, so it plugs into ``GridSearchCV`` with ``sensitive`` routed per fold.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import load_german_credit
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import get_scorer

bunch = load_german_credit(sensitive="sex")
X, y, sex = bunch.data.astype(float), bunch.target, np.asarray(bunch.sensitive)
X_train, X_test, y_train, y_test, _, sex_test = train_test_split(
    X, y, sex, test_size=0.3, random_state=0, stratify=y)

model = make_pipeline(MinMaxScaler(), LogisticRegression())
explained = ExplainedModel(model, FeatureAblation(masker=BaselineMasker("mean")))
explained.fit(X_train, y_train)

# The perturbation noise is scaled by the training rows' spread (``X_train``),
# never by the rows being scored.
scorer = get_scorer("neg_group_gap", metric="pgi", n_perturbations=50, random_state=0,
                    X_train=X_train)
report = scorer.group_report(explained, X_test, sensitive=sex_test)
for group, mean, se, count in zip(report.groups, report.means,
                                  report.standard_errors, report.counts):
    print(f"{group:>7s}: PGI = {mean:.4f} ± {se:.4f} (n = {count})")
print(f"gap = {report.gap:.4f}, Welch p-value = {report.p_value:.3f}")
value = scorer(explained, X_test, sensitive=sex_test)
print(f"scorer value (negated gap) = {value:.4f}")

# %%
# Group means with one standard error.
fig, ax = plt.subplots(figsize=(4, 3))
ax.bar(report.groups, report.means, yerr=report.standard_errors, capsize=6,
       color=["tab:orange", "tab:blue"])
ax.set_ylabel("mean PGI (higher = more faithful)")
ax.set_title(f"German credit, LR + occlusion: gap {report.gap:.4f}")
fig.tight_layout()
plt.show()
