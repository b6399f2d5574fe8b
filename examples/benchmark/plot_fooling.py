"""
=========================================================
Can an explainer be fooled? (Slack et al.'s scaffolding)
=========================================================

A model auditor asks whether a model uses a sensitive feature.  Slack et al.
(2020) showed that a model can answer "no" to LIME and KernelSHAP while it
uses nothing else: a :class:`~sklearn_xai.compose.ScaffoldedClassifier`
routes real rows to a biased model and the explainer's perturbations, which
an out-of-distribution detector recognises, to an innocuous one.

:func:`~sklearn_xai.benchmark.fooling_test` builds one scaffold per
explainer and masker, against that explainer's own perturbations, and
counts the explained rows whose top feature is the sensitive one, for the
scaffold and for the biased model alone.  The data are four correlated
Gaussian features; the label is the sign of the first (the sensitive
feature), and the innocuous model thresholds the second.  See
:ref:`fooling-test` in the user guide.
"""

import matplotlib.pyplot as plt
from sklearn.ensemble import RandomForestClassifier

from sklearn_xai.benchmark import fooling_test
from sklearn_xai.datasets import make_gaussian_linear
from sklearn_xai.explainers import KernelSHAP, LimeTabular
from sklearn_xai.masking import (
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
    MarginalMasker,
)

data = make_gaussian_linear(n_samples=500, n_features=4, weights=[1.0, 0.0, 0.0, 0.0],
                            rho=0.8, task="classification", random_state=0)

# Small explainers and detectors keep the example fast; fooling_test's
# defaults are larger.
results = fooling_test(
    data.data, data.target, sensitive_feature=0, innocuous_feature=1,
    explainers={"lime": LimeTabular(n_perturbations=100),
                "kernel_shap": KernelSHAP(n_perturbations=32)},
    maskers={"marginal": MarginalMasker(30, random_state=0),
             "conditional": GaussianConditionalMasker(n_draws=10),
             "on_manifold": EmpiricalConditionalMasker(max_background=60,
                                                       random_state=0)},
    detector=RandomForestClassifier(30, random_state=0),
    n_explain=40, n_explained=40, random_state=0)
print(results.table.round(2).to_string(index=False))

# %%
# On the biased model alone every explainer finds the sensitive feature.
# Behind the scaffold, LIME and KernelSHAP with marginal substitutions point
# at the innocuous feature instead; the conditional and on-manifold maskers,
# whose perturbations look like data, still find the sensitive feature in
# many rows.

top1 = results.pivot("top1")
ax = top1[["biased", "scaffolded"]].plot.barh(figsize=(6, 3.5))
ax.set_xlabel("fraction of rows whose top feature is the sensitive one")
ax.set_ylabel("")
ax.set_yticklabels([f"{e} / {m}" for e, m in top1.index])
ax.set_xlim(0, 1)
plt.tight_layout()
plt.show()
