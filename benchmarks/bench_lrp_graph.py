"""Cost of the relevance family on a residual CNN (a torch.fx graph).

Workload: a small ResNet-like CNN on 1x16x16 images (stem Conv(3x3, 8
channels)-BN-ReLU, one residual block Conv-BN-ReLU-Conv-BN ``+ identity``
-ReLU, AdaptiveAvgPool2d(1), Flatten, Linear to 2 logits; float32, random
weights, BN running statistics set), ``N_ROWS`` random rows, interleaved
repetitions (median and range over the rounds, ``time.process_time`` so the
other jobs of a shared machine inflate it less), torch and BLAS
single-threaded:

* ``bare forward+backward``: the module's logits and one backward pass of
  the explained logit (what a gradient explainer costs at least; float32);
* ``captum LRP``: Captum's ``LRP`` (epsilon rule) on a copy of the module
  whose residual sum is Captum's ``Addition_Module`` (a functional sum would
  hand each summand the whole relevance; float32);
* ours: ``CompositeLRP`` (epsilon; and zennit's EpsilonPlus composite),
  ``DeepTaylor``, ``PatternAttribution`` ``transform`` (float64 passes over
  the graph: numpy convolutions, torch's transposed convolution) and
  ``CompositeLRP.fit`` (the torch.fx trace, BN folding and the check
  against the module).

ratio = median / the bare forward+backward median.

Measured 2026-11-27 on the 2-core development machine shared with other
jobs (load average about 13), 200 rows, 3 rounds (``main(200, 3)``), CPU
seconds::

    bare forward+backward                median 0.040s range [0.027, 0.043]  ratio 1.0
    captum LRP (Addition_Module)         median 0.086s range [0.086, 0.115]  ratio 2.2
    CompositeLRP.fit (fx trace)          median 0.120s range [0.117, 0.125]  ratio 3.0
    CompositeLRP(epsilon).transform      median 0.378s range [0.366, 1.335]  ratio 9.4
    CompositeLRP(EpsilonPlus).transform  median 0.505s range [0.485, 0.551]  ratio 12.6
    DeepTaylor.transform                 median 0.465s range [0.364, 0.495]  ratio 11.6
    PatternAttribution.transform         median 0.186s range [0.121, 0.197]  ratio 4.6

Ours is float64 (numpy convolutions over strided windows) where Captum and
the bare pass are float32 torch: the epsilon rule costs about 4x Captum's
LRP here; the composites with z+ convolutions need two convolutions per
layer and sign (``a+ W+ + a- W-``).  The default blocks of rows hold about
2**17 float64 patch entries (``block_slices``), 7 rows of this net;
``batch_size=64`` halves the epsilon rule's time (0.173 s against 0.334 s,
median of 3 interleaved rounds, 200 rows), which the new
``CompositeLRP(epsilon, batch_size=64)`` row measures.

Run: OPENBLAS_NUM_THREADS=1 python benchmarks/bench_lrp_graph.py
"""

import copy
import time
import warnings

import numpy as np
import torch
from _timing import interleaved, ratio_table
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator
from torch import nn

from sklearn_xai.explainers import CompositeLRP, DeepTaylor, PatternAttribution

SIDE = 16
N_ROWS = 500


class ResNet(nn.Module):
    def __init__(self, channels=8):
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
        self.fc = nn.Linear(channels, 2)
        self.add = None  # Captum's Addition_Module in its copy

    def forward(self, X):
        x = self.relu(self.bn(self.stem(X.reshape(-1, 1, SIDE, SIDE))))
        out = self.bn2(self.conv2(self.relu1(self.bn1(self.conv1(x)))))
        out = out + x if self.add is None else self.add(out, x)
        return self.fc(torch.flatten(self.pool(self.relu2(out)), 1))


class TorchRegressor(RegressorMixin, BaseEstimator):
    """A fitted torch module seen as a regressor of its first output."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        return self

    def predict(self, X):
        with torch.no_grad():
            return self.module_(torch.as_tensor(np.asarray(X, dtype=np.float32))).numpy()[:, 0]


def main(n_rows=N_ROWS, rounds=5):
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    from captum.attr import LRP
    from captum.attr._utils.custom_modules import Addition_Module

    torch.manual_seed(0)
    net = ResNet().eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.normal_(0, 0.2)
                m.running_var.uniform_(0.5, 2.0)
    X = np.random.default_rng(0).normal(size=(n_rows, SIDE * SIDE))
    model = FrozenEstimator(TorchRegressor(net).fit(X))
    theirs = copy.deepcopy(net)
    theirs.add = Addition_Module()
    captum = LRP(theirs)
    rows = torch.as_tensor(X, dtype=torch.float32)

    def bare():
        x = rows.clone().requires_grad_(True)
        net(x)[:, 0].sum().backward()

    fitted = {
        "CompositeLRP(epsilon).transform": CompositeLRP(model).fit(X),
        "CompositeLRP(epsilon, batch_size=64)": CompositeLRP(model, batch_size=64).fit(X),
        "CompositeLRP(EpsilonPlus).transform": CompositeLRP(
            model, conv_rule="z_plus", input_rule="z_plus").fit(X),
        "DeepTaylor.transform": DeepTaylor(model).fit(X),
        "PatternAttribution.transform": PatternAttribution(model).fit(X),
    }
    tasks = {
        "bare forward+backward": bare,
        "captum LRP (Addition_Module)": lambda: captum.attribute(rows, target=0),
        "CompositeLRP.fit (fx trace)": lambda: CompositeLRP(model).fit(X),
        **{name: (lambda ex=ex: ex.transform(X)) for name, ex in fitted.items()},
    }
    print(ratio_table(interleaved(tasks, rounds, clock=time.process_time),
                      "bare forward+backward"))


if __name__ == "__main__":
    main()
