"""
==============================================================
Known-behaviour unit tests: explainers on hand-weighted models
==============================================================

Each *unit* of :func:`~sklearn_xai.datasets.make_unit_test` is a tiny network
whose weights are set by hand, so the correct attribution of every row is
known by construction.  Here we look at two of them, saturation and
shattered gradients, and then compute the pass/fail matrix of a few
explainers on all ten units (the rule: cosine similarity with the ground
truth at least 0.9 on at least 90 % of the rows).  The full matrix, set
against the literature, is in the user guide (:ref:`known-behaviour`).
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator

from sklearn_xai.benchmark import get_preset, run_benchmark, unit_test_matrix
from sklearn_xai.benchmark import unit_test_passes
from sklearn_xai.datasets import make_unit_test
from sklearn_xai.explainers import (
    ExactShapley,
    FeatureAblation,
    IntegratedGradients,
    Saliency,
    SmoothGrad,
)
from sklearn_xai.masking import BaselineMasker

warnings.filterwarnings("ignore")  # all-zero explanations have no cosine

# %%
# Saturation: the output is clipped at 1 on every row
# ---------------------------------------------------
# ``f(x) = min(relu(x1 + x2), 1)`` with ``x1 + x2 >= 2``: the gradient is
# zero, yet both inputs contributed the rise from 0 to 1; the ground truth
# gives each half of it.
data = make_unit_test("saturation", n_samples=100, random_state=0)
model = FrozenEstimator(data.model)
zero = BaselineMasker("zero")
explainers = {
    "Saliency": Saliency(model),
    "Integrated gradients": IntegratedGradients(model),
    "Occlusion": FeatureAblation(model, masker=zero),
    "Exact Shapley": ExactShapley(model, masker=zero),
}
for name, explainer in explainers.items():
    A = explainer.fit(data.data).transform(data.data)
    passed, fraction = unit_test_passes(data.ground_truth, A)
    print(f"{name:22s} first row {np.round(A[0], 3)}  "
          f"{'pass' if passed else 'fail'} ({fraction:.0%} of rows)")

# %%
# Shattered gradients: a sawtooth on a smooth trend
# -------------------------------------------------
# ``f(x) = x1 + x2 + 0.15 tri(20 x1)``: the sawtooth is small (0.075) but
# steep, so the gradient in ``x1`` jumps between 4 and -2.  SmoothGrad
# averages it away; integrated gradients integrate it to the contribution.
data = make_unit_test("shattered_gradients", n_samples=200, random_state=0,
                      shuffle=False)
model = FrozenEstimator(data.model)
order = np.argsort(data.data[:, 0])
x1 = data.data[order, 0]
fig, ax = plt.subplots(figsize=(7, 3.5))
for name, explainer in {
    "Saliency": Saliency(model),
    "SmoothGrad (200 draws)": SmoothGrad(model, std=0.1, n_perturbations=200,
                                         random_state=0),
    "Integrated gradients": IntegratedGradients(model),
}.items():
    A = explainer.fit(data.data).transform(data.data)
    ax.plot(x1, A[order, 0], label=name, lw=1)
ax.plot(x1, data.ground_truth[order, 0], "k--", label="ground truth", lw=1)
ax.set_xlabel("x1")
ax.set_ylabel("attribution of x1")
ax.legend(fontsize=8)
fig.tight_layout()

# %%
# The pass/fail matrix
# --------------------
# The quick variant of the ``unit_tests`` preset runs five explainers on the
# ten units (``sklearn-xai run unit_tests`` runs all fifteen and prints the
# matrix).
results = run_benchmark(get_preset("unit_tests", quick=True), n_jobs=1)
matrix = unit_test_matrix(results)
print(matrix.to_string())

fraction = matrix.attrs["fraction"].astype(float)
fig, ax = plt.subplots(figsize=(9, 3))
im = ax.imshow(fraction.to_numpy(), vmin=0, vmax=1, cmap="RdYlGn")
ax.set_xticks(range(fraction.shape[1]), fraction.columns, rotation=40, ha="right")
ax.set_yticks(range(fraction.shape[0]), fraction.index)
for i in range(fraction.shape[0]):
    for j in range(fraction.shape[1]):
        ax.text(j, i, matrix.iloc[i, j], ha="center", va="center", fontsize=7)
fig.colorbar(im, label="fraction of rows with cosine >= 0.9")
fig.tight_layout()
plt.show()
