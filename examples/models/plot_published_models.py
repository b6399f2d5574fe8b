"""
==========================================================================
Explaining OpenXAI's released models
==========================================================================

OpenXAI releases the models behind its tables as PyTorch state
dictionaries (``lr_<dataset>.pt``, ``ann_<dataset>.pt``).
:func:`~sklearn_xai.models.load_openxai_model` turns such a file into a
fitted scikit-learn estimator whose probabilities are OpenXAI's, and the
OpenXAI presets take a ``models_path`` folder to explain those models
instead of retraining.

Nothing is downloaded here, so this example first writes a file in
OpenXAI's exact format (the state dictionary of its
``ArtificialNeuralNetwork``: ``network.0``, ``network.2``, ``network.4``
linear layers, ReLU between them) from a network trained on OpenXAI-style
synthetic data; with the real file, start at the loading step.
"""

import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_synthgauss
from sklearn_xai.explainers import IntegratedGradients, KernelSHAP
from sklearn_xai.metrics import feature_agreement
from sklearn_xai.models import MLPNetClassifier, load_openxai_model

torch.set_num_threads(1)

# %%
# A stand-in for the released file
# --------------------------------
data = make_synthgauss(n_samples=150, n_features=8, n_clusters=4, random_state=0)
X, y, truth = data.data, data.target, data.ground_truth
trained = MLPNetClassifier(max_epochs=30, random_state=0).fit(X, y)
layers = trained.module_.layers
state = {f"network.{i}.{p}": getattr(layers[i], p).detach().clone()
         for i in (0, 2, 4) for p in ("weight", "bias")}
folder = tempfile.mkdtemp()
path = os.path.join(folder, "ann_synthetic.pt")
torch.save(state, path)  # what OpenXAI's training script saves
print(sorted(state))

# %%
# Loading it
# ----------
# The architecture (two hidden layers of 100 units) is read from the file;
# the probabilities are those of the saved network.
ann = load_openxai_model(path)
print(ann)
print("largest probability difference:",
      np.abs(ann.predict_proba(X) - trained.predict_proba(X)).max())

# %%
# Explaining it
# -------------
# The loaded model is an ordinary fitted estimator: gradient explainers
# differentiate through its module, model-agnostic ones call it.
explainers = {
    "IG": IntegratedGradients(FrozenEstimator(ann), n_steps=32),
    "KernelSHAP": KernelSHAP(FrozenEstimator(ann), n_perturbations=128, random_state=0),
}
rows = slice(0, 40)
fa = {}
for name, explainer in explainers.items():
    A = explainer.fit(X).transform(X[rows])
    fa[name] = feature_agreement(truth[rows], A, k=3)

fig, ax = plt.subplots(figsize=(5, 3))
ax.boxplot(list(fa.values()), tick_labels=list(fa))
ax.set_ylabel("feature agreement with the ground truth (top 3)")
ax.set_title("A released network, two explainers")
fig.tight_layout()
plt.show()
