"""
==========================================================================
Piecewise-constant labels: the paper's and XAI-Bench's code's versions
==========================================================================

:func:`~sklearn_xai.datasets.make_gaussian_piecewise_constant` adds three
step functions of the first three features. XAI-Bench's paper and its code
define two of them differently; ``convention="xai_bench_code"`` reproduces
the code (needed for its published tables). The ground truth of each
feature is its component minus the component's exact expectation, divided
by the label scale, so its plot against the feature is the step function
itself.
"""

import matplotlib.pyplot as plt
import numpy as np

from sklearn_xai.datasets import make_gaussian_piecewise_constant

fig, axes = plt.subplots(2, 3, figsize=(10, 5.5), sharex=True)
for row, variant in zip(axes, ["paper", "xai_bench_code"]):
    data = make_gaussian_piecewise_constant(1000, convention=variant, random_state=0)
    for j, ax in enumerate(row):
        order = np.argsort(data.data[:, j])
        ax.plot(data.data[order, j], data.ground_truth[order, j], ".", markersize=2)
        ax.set_title(f"{variant}: feature x{j}", fontsize=9)
for ax in axes[1]:
    ax.set_xlabel("feature value")
axes[0, 0].set_ylabel("ground-truth attribution")
axes[1, 0].set_ylabel("ground-truth attribution")
fig.tight_layout()

# %%
# Features 4 and 5 do not enter the label: their attributions are zero.
print(np.abs(data.ground_truth[:, 3:]).max(), data.ground_truth_mask[0])
plt.show()
