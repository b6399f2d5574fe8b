"""
=================================================
LRP on a residual CNN
=================================================

:class:`~sklearn_xai.explainers.CompositeLRP`,
:class:`~sklearn_xai.explainers.DeepTaylor`,
:class:`~sklearn_xai.explainers.PatternNet` and
:class:`~sklearn_xai.explainers.PatternAttribution` read a network whose
``forward`` is not a plain sequence of layers as a graph, from its
``torch.fx`` trace: here a small ResNet-like CNN (Conv-BN-ReLU stem, one
residual block ``out = out + identity``, global average pooling, a linear
head) trained on 16x16 tetromino images (XAI-TRIS's 64x64 images averaged
over 4x4 blocks).  The batch normalisations are folded into the
convolutions before them; at the residual sum the relevance is split in
proportion to the two summands (the z-rule of a sum).  With zero biases the
epsilon rule conserves the relevance: the attributions of an image sum to
its explained logit, which the last lines check on the net with its biases
set to zero.
"""

import matplotlib.pyplot as plt
import numpy as np
import torch
from sklearn.frozen import FrozenEstimator
from torch import nn

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import (
    CompositeLRP,
    DeepTaylor,
    PatternAttribution,
    PatternNet,
)
from sklearn_xai.models import TetrominoNetClassifier

SIDE = 16


class SmallResNet(nn.Module):
    """Stem Conv-BN-ReLU, one residual block, global average pool, Linear."""

    def __init__(self, n_features, n_outputs=2, channels=8):
        super().__init__()
        self.stem = nn.Conv2d(1, channels, 3, padding=1)
        self.bn = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu2 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(channels, n_outputs)

    def forward(self, X):
        x = self.relu(self.bn(self.stem(X.reshape(-1, 1, SIDE, SIDE))))
        identity = x
        out = self.relu1(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.relu2(out + identity)
        return self.fc(self.flatten(self.pool(out)))


# %%
# Data: 64x64 tetrominoes averaged to 16x16 (images and ground-truth masks).
data = make_tetrominoes(400, image_size=64, scenario="linear", alpha=0.8,
                        random_state=0)


def shrink(images):
    return images.reshape(-1, SIDE, 4, SIDE, 4).mean(axis=(2, 4)).reshape(len(images), -1)


X = shrink(data.data).astype(np.float32)
masks = shrink(data.ground_truth_mask.astype(np.float64)) > 0
y = data.target
clf = TetrominoNetClassifier(SmallResNet, max_epochs=8, lr=5e-3, batch_size=64,
                             random_state=0).fit(X, y)
print(f"training accuracy {clf.score(X, y):.2f}")

# %%
# The four explainers of the relevance family, on four images.
rows = X[:4]
model = FrozenEstimator(clf)
explainers = {
    "LRP-epsilon": CompositeLRP(model),
    "LRP EpsilonPlus": CompositeLRP(model, conv_rule="z_plus", input_rule="z_plus"),
    "DeepTaylor": DeepTaylor(model),
    "PatternNet": PatternNet(model),
    "PatternAttribution": PatternAttribution(model),
}
maps = {name: e.fit(X).transform(rows) for name, e in explainers.items()}
print("layers read from the graph:",
      [type(layer).__name__.strip("_") for layer in explainers["DeepTaylor"].chain_.layers])

fig, axes = plt.subplots(len(rows), len(maps) + 1, figsize=(2 * (len(maps) + 1),
                                                             2 * len(rows)))
for i in range(len(rows)):
    axes[i, 0].imshow(rows[i].reshape(SIDE, SIDE), cmap="gray")
    axes[i, 0].contour(masks[i].reshape(SIDE, SIDE), levels=[0.5], colors="lime")
    for j, (name, A) in enumerate(maps.items(), start=1):
        a = A[i].reshape(SIDE, SIDE)
        v = np.abs(a).max() or 1.0
        axes[i, j].imshow(a, cmap="bwr", vmin=-v, vmax=v)
        if i == 0:
            axes[i, j].set_title(name, fontsize=8)
axes[0, 0].set_title("image (mask)", fontsize=8)
for ax in axes.ravel():
    ax.set_axis_off()
fig.tight_layout()

# %%
# Conservation: with every bias of the trained net set to zero (convolutions,
# BN means and offsets, the head; in place, the net is not used afterwards),
# the epsilon rule's attributions of an image sum to its explained logit
# ``z_1 - z_0``.
with torch.no_grad():
    for m in clf.module_.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            m.bias.zero_()
        elif isinstance(m, nn.BatchNorm2d):
            m.running_mean.zero_()
            m.bias.zero_()
unbiased = clf
A = CompositeLRP(FrozenEstimator(unbiased), epsilon=1e-9, target=1).fit(X).transform(rows)
logits = unbiased.module_(torch.as_tensor(rows)).detach().numpy()
print("sum of relevance:", A.sum(axis=1).round(4))
print("logit z_1 - z_0: ", (logits[:, 1] - logits[:, 0]).round(4))
plt.show()
