"""Speed of the region explainers against Captum and the bare model.

On a small torch CNN over 1 x 28 x 28 images (one class logit explained):

* ``Occlusion`` (4 x 4 patch, stride 2, 169 windows) against
  ``captum.attr.Occlusion`` with the same windows, Captum given all windows
  of a row in one forward call (``perturbations_per_eval=169``);
* ``KernelSHAP(segmentation=GridSegmentation((7, 7)))`` (16 segments, 200
  coalitions, zero baseline) against ``captum.attr.KernelShap`` with the same
  ``feature_mask`` and ``n_samples`` (all in one forward call); Captum's is
  :class:`CaptumKernelSHAP`'s scheme, also timed;
* ``RISE`` (500 masks) against the bare model evaluations it needs (the
  ``n_rows * n_masks`` masked images, in calls of about 2**17 entries as the
  explainer makes them).

The values of Occlusion equal Captum's (checked here too).  Interleaved
rounds, CPU time of this process (``time.process_time``) with torch and BLAS
on one thread; median and range, ratio to the first task of each table.

Run: ``python benchmarks/bench_regions.py``.  Prints tables (CPU seconds).
"""

import time

import numpy as np
import torch
from _timing import interleaved, ratio_table
from captum.attr import KernelShap as CaptumKernelShap
from captum.attr import Occlusion as CaptumOcclusion
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from threadpoolctl import threadpool_limits

from sklearn_xai.explainers import RISE, CaptumKernelSHAP, KernelSHAP, Occlusion
from sklearn_xai.masking import BaselineMasker, GridSegmentation

N_ROWS, SIDE = 8, 28


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 2))

    def forward(self, x):
        return self.body(x.reshape(-1, 1, SIDE, SIDE))


class TorchClassifier(ClassifierMixin, BaseEstimator):
    """A fitted torch module seen through ``predict_proba`` and
    ``decision_function`` (no gradients)."""

    def __init__(self, module):
        self.module = module
        self.classes_ = np.array([0, 1])

    def fit(self, X, y=None):
        return self

    def __sklearn_is_fitted__(self):
        return True

    def decision_function(self, X):
        with torch.no_grad():
            return self.module(torch.as_tensor(np.asarray(X), dtype=torch.float32)).numpy()

    def predict_proba(self, X):
        z = self.decision_function(X)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def predict(self, X):
        return self.decision_function(X).argmax(axis=1)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = Net().eval()
    model = FrozenEstimator(TorchClassifier(net))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_ROWS, SIDE * SIDE)).astype(np.float32)
    Xt = torch.tensor(X).reshape(N_ROWS, 1, SIDE, SIDE)
    target = 1
    common = {"target": target, "output": "decision"}

    occ = Occlusion(model, patch_shape=(4, 4), strides=2, image_shape=(SIDE, SIDE),
                    **common).fit(X)
    n_windows = occ.n_patches_
    seg = GridSegmentation((7, 7), (SIDE, SIDE))
    labels = torch.tensor(seg.segment(X[:1])[0]).reshape(1, 1, SIDE, SIDE)
    kshap = KernelSHAP(model, n_perturbations=200, masker=BaselineMasker("zero"),
                       segmentation=seg, random_state=0, **common).fit(X)
    cshap = CaptumKernelSHAP(model, n_perturbations=200, segmentation=seg,
                             random_state=0, **common).fit(X)
    rise = RISE(model, n_masks=500, mask_resolution=7, image_shape=(SIDE, SIDE),
                random_state=0, **common).fit(X)

    ours = occ.transform(X)
    theirs = CaptumOcclusion(net).attribute(
        Xt, sliding_window_shapes=(1, 4, 4), strides=(1, 2, 2), baselines=0.0,
        target=target, perturbations_per_eval=n_windows).reshape(N_ROWS, -1).numpy()
    print(f"Occlusion vs Captum: max |difference| {np.abs(ours - theirs).max():.2e}")

    masked = np.repeat(X, 500, axis=0)

    per_call = 2**17 // (SIDE * SIDE)  # the explainers' calls of ~2**17 entries

    def bare_rise():
        with torch.no_grad():
            for start in range(0, len(masked), per_call):
                net(torch.as_tensor(masked[start:start + per_call] * 0.5))

    with threadpool_limits(1):
        tables = {
            "Occlusion (4x4, stride 2)": {
                "captum.attr.Occlusion": lambda: CaptumOcclusion(net).attribute(
                    Xt, sliding_window_shapes=(1, 4, 4), strides=(1, 2, 2),
                    baselines=0.0, target=target, perturbations_per_eval=n_windows),
                "Occlusion": lambda: occ.transform(X),
            },
            "segment KernelSHAP (16 segments, 200 coalitions)": {
                "captum.attr.KernelShap": lambda: [CaptumKernelShap(net).attribute(
                    Xt[i:i + 1], baselines=0.0, target=target, feature_mask=labels,
                    n_samples=200, perturbations_per_eval=200) for i in range(N_ROWS)],
                "KernelSHAP(segmentation=)": lambda: kshap.transform(X),
                "CaptumKernelSHAP(segmentation=)": lambda: cshap.transform(X),
            },
            "RISE (500 masks)": {
                "bare model (n_rows * n_masks)": bare_rise,
                "RISE": lambda: rise.transform(X),
            },
        }
        for title, tasks in tables.items():
            times = interleaved(tasks, rounds=5, clock=time.process_time)
            print(f"\n{title}, {N_ROWS} rows")
            print(ratio_table(times, next(iter(tasks))))


if __name__ == "__main__":
    main()
