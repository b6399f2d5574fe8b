"""
==========================================================================
Time series: planted shapes, window explainers and mask metrics
==========================================================================

:func:`~sklearn_xai.datasets.make_timeseries_classification` plants a shape
(here a bump) in a window of the first channel; its sign is the class. The
ground truth is the window, one mask entry per channel and time step
(channel-major columns, ``series_shape=(channels, T)``). We explain a model
with a gradient method and with window occlusion
(:class:`~sklearn_xai.compose.WindowExplainer` of
:class:`~sklearn_xai.explainers.FeatureAblation`, linear-interpolation
baseline) and score both against the window.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from sklearn_xai.compose import WindowExplainer
from sklearn_xai.datasets import make_timeseries_classification
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import InterpolationMasker
from sklearn_xai.metrics import mask_average_precision, mask_iou
from sklearn_xai.models import WindowFeatures

data = make_timeseries_classification(600, n_timesteps=40, n_channels=2, window=8,
                                      window_start=20, background="trend",
                                      amplitude=1.5, random_state=0)
X, y, mask = data.data, data.target, data.ground_truth_mask
C, T = data.series_shape
train, test = slice(0, 500), slice(500, 530)

fig, axes = plt.subplots(2, 1, figsize=(8, 4), sharex=True)
for c in range(C):
    for label, colour in ((0, "tab:blue"), (1, "tab:red")):
        row = np.flatnonzero(y == label)[0]
        axes[c].plot(X[row].reshape(C, T)[c], color=colour, label=f"class {label}")
    axes[c].fill_between(range(T), -4, 4, where=mask[0].reshape(C, T)[c], alpha=0.15,
                         color="green", label="window (mask)")
    axes[c].set_ylabel(f"channel {c}")
axes[0].legend(fontsize=8, ncol=3)
axes[1].set_xlabel("time step")
fig.tight_layout()

# %%
# A scikit-learn model on windowed features
# (:class:`~sklearn_xai.models.WindowFeatures`: the mean of each window of 4
# steps per channel). The model-agnostic explainers explain the raw time
# steps through the pipeline.
model = make_pipeline(WindowFeatures(4, series_shape=data.series_shape),
                      LogisticRegression(max_iter=1000)).fit(X[train], y[train])
print(f"test accuracy: {model.score(X[500:], y[500:]):.2f}")

explainers = {
    "random": RandomExplainer(random_state=0),
    "occlusion (interpolation)": WindowExplainer(
        FeatureAblation(FrozenEstimator(model),
                        masker=InterpolationMasker(data.series_shape)),
        window=4, series_shape=data.series_shape),
}
fig, axes = plt.subplots(len(explainers), 1, figsize=(8, 4), sharex=True)
for ax, (name, explainer) in zip(axes, explainers.items()):
    A = explainer.fit(X[train], y[train]).transform(X[test])
    ap = mask_average_precision(mask[test], A).mean()
    iou = mask_iou(mask[test], A).mean()
    print(f"{name}: AUC-PR {ap:.2f}, IoU {iou:.2f}")
    ax.imshow(np.abs(A[:1]).reshape(C, T), aspect="auto", cmap="Reds")
    ax.set_title(f"{name}: AUC-PR {ap:.2f}, IoU {iou:.2f}", fontsize=9)
    ax.set_ylabel("channel")
axes[-1].set_xlabel("time step")
fig.tight_layout()
plt.show()
