"""Speed of the gradient explainers, as a ratio to one forward-backward pass.

For each explainer the table gives the explained rows per second and the
ratio of its time to the time of one bare forward-backward pass of the module
on the same rows (``torch.autograd.grad`` of the target outputs).  The ideal
ratio is the number of passes the method needs: 1 for saliency, ``n_steps``
for integrated gradients, ``n_samples`` for SmoothGrad / GradientSHAP, about 2
for DeepLIFT, guided backprop and Grad-CAM (hooks, two passes).  The excess
over that is the toolkit's and Captum's overhead.

Two models: OpenXAI's MLP (20 features, 100-100 hidden units) on 2 000 rows,
and XAI-TRIS's 64x64 CNN on 40 images.  Targets are fixed class indices, so
the timings exclude the prediction of the explained class.  Single-threaded
torch (``--threads`` to change).

Run: ``python benchmarks/bench_gradients.py [--threads N] [--quick]``
"""

import argparse
import time

import numpy as np
import torch
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers._gradients import (
    LRP,
    DeepLift,
    Deconvolution,
    GradientShap,
    GuidedBackprop,
    GuidedGradCam,
    InputXGradient,
    IntegratedGradients,
    Saliency,
    SmoothGrad,
)
from sklearn_xai.models import MLPNetClassifier, TetrominoNetClassifier


def _best_time(func, repeat):
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def _forward_backward_time(net, X, repeat):
    module = net.module_.eval()
    inputs = torch.as_tensor(X, dtype=torch.float32)

    def run():
        x = inputs.clone().requires_grad_()
        out = torch.softmax(module(x), dim=-1)[:, 1].sum()
        torch.autograd.grad(out, x)

    return _best_time(run, repeat)


def _explainers(image, quick):
    n_sg = 20 if quick else 100
    rows = [
        ("Saliency", lambda e: Saliency(e, target=1)),
        ("InputXGradient", lambda e: InputXGradient(e, target=1)),
        ("IntegratedGradients (50 steps)", lambda e: IntegratedGradients(
            e, target=1, batch_size=500 if image else None)),
        (f"SmoothGrad ({n_sg} samples)", lambda e: SmoothGrad(
            e, n_perturbations=n_sg, target=1, random_state=0,
            batch_size=500 if image else None)),
        ("GradientShap (5 samples)", lambda e: GradientShap(e, target=1, random_state=0)),
        ("DeepLift", lambda e: DeepLift(e, target=1)),
        ("GuidedBackprop", lambda e: GuidedBackprop(e, target=1)),
        ("Deconvolution", lambda e: Deconvolution(e, target=1)),
        ("LRP", lambda e: LRP(e, target=1)),
    ]
    if image:
        rows.append(("GuidedGradCam", lambda e: GuidedGradCam(e, target=1)))
    return rows


def _bench(name, net, X, image, quick):
    repeat = 1 if quick else 3
    ref = _forward_backward_time(net, X, repeat=5)
    est = FrozenEstimator(net)
    print(f"\n{name}: {X.shape[0]} rows x {X.shape[1]} features; one forward-backward "
          f"pass: {ref * 1e3:.2f} ms ({X.shape[0] / ref:,.0f} rows/s)")
    print(f"{'explainer':<32}{'rows/s':>12}{'time (s)':>11}{'x fwd-bwd':>11}")
    for label, make in _explainers(image, quick):
        explainer = make(est).fit(X[:10])
        t = _best_time(lambda ex=explainer: ex.transform(X), repeat)
        print(f"{label:<32}{X.shape[0] / t:>12,.0f}{t:>11.3f}{t / ref:>11.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer rows and repeats")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)

    n_tab = 500 if args.quick else 2000
    X = rng.normal(size=(n_tab, 20))
    y = (X[:, 0] > 0).astype(int)
    mlp = MLPNetClassifier(max_epochs=2, random_state=0).fit(X, y)
    _bench("OpenXAI MLP", mlp, X, image=False, quick=args.quick)

    n_img = 10 if args.quick else 40
    images = rng.normal(size=(200, 64 * 64))
    labels = (images[:, 1000] > 0).astype(int)
    cnn = TetrominoNetClassifier(architecture="cnn", image_size=64, max_epochs=1,
                                 random_state=0).fit(images, labels)
    _bench("XAI-TRIS CNN 64x64", cnn, images[:n_img], image=True, quick=args.quick)


if __name__ == "__main__":
    main()
