"""
==========================================================================
Synthetic texts: token-level explanations against per-token ground truth
==========================================================================

:func:`~sklearn_xai.datasets.make_text_classification` plants keywords in
filler text; with ``rule="negation"`` a ``not`` before a keyword flips its
weight. The ground truth gives each token its share of the rule's score.
A bag-of-words logistic regression is explained by occlusion and by LIME
over tokens (removed tokens become ``[MASK]``), and the explanations are
scored with the token F1 against the ground truth and ERASER's AOPC
comprehensiveness. Padding positions get attribution 0.

A bag of words cannot read the negation: the explanations are faithful to
the model (their top tokens move its output, AOPC) but agree only partly
with the rule's tokens (token F1), well above the random control.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_text_classification
from sklearn_xai.explainers import FeatureAblation, RandomExplainer, TextLIME
from sklearn_xai.masking import TokenMasker
from sklearn_xai.metrics import ERASER_BINS, aopc_comprehensiveness, token_f1
from sklearn_xai.models import TokenIdClassifier

data = make_text_classification(600, rule="negation", random_state=0)
train, test = slice(0, 500), slice(500, 540)
model = TokenIdClassifier(codec=data.codec, vectorizer="count")
model.fit(data.data[train], data.target[train])
print(f"accuracy: {model.score(data.data[test], data.target[test]):.2f}")

X = data.data[test]
frozen = FrozenEstimator(model)
explainers = {
    "random": RandomExplainer(random_state=0),
    "occlusion": FeatureAblation(frozen, masker=TokenMasker()),
    "lime": TextLIME(frozen, n_perturbations=300, random_state=0),
}
attributions = {name: ex.fit(data.data[train]).transform(X)
                for name, ex in explainers.items()}
for name, A in attributions.items():
    f1 = token_f1(data.ground_truth_mask[test], A)
    comp = aopc_comprehensiveness(frozen, X, A, ratios=ERASER_BINS)
    print(f"{name:>9}: token F1 {np.nanmean(f1):.2f}, "
          f"AOPC comprehensiveness {np.nanmean(comp):.3f}")

# %%
# One document: its tokens, the ground truth and the occlusion of the
# predicted class (PAD positions are left out).
row = int(np.flatnonzero(data.ground_truth_mask[test].sum(axis=1) >= 3)[0])
tokens = data.codec.decode_tokens(X[row:row + 1])[0]
n = len(tokens)
fig, ax = plt.subplots(figsize=(9, 3))
ax.bar(np.arange(n) - 0.2, data.ground_truth[test][row, :n], width=0.4,
       label="ground truth")
ax.bar(np.arange(n) + 0.2, attributions["occlusion"][row, :n], width=0.4,
       label="occlusion")
ax.set_xticks(np.arange(n), tokens, rotation=60)
ax.axhline(0, color="black", linewidth=0.5)
ax.legend()
fig.tight_layout()
plt.show()
