"""Speed of the class activation maps against Captum and the bare model.

On XAI-TRIS's CNN (:class:`~sklearn_xai.models.TetrominoNetClassifier`,
64x64 images by default, 8x8 with ``--size 8``), one block of images is
explained for a fixed class by

* ``GradCAM`` and Captum's ``LayerGradCam`` + ``LayerAttribution.interpolate``
  (bilinear) on the same layer (the last ``Conv2d``);
* ``GuidedGradCam`` (ours wraps Captum's) and Captum's ``GuidedGradCam``
  called directly;
* ``GradCAMPlusPlus`` and ``ScoreCAM`` (``n_maps + 2`` forward rows per
  image; Captum has neither);
* the bare model: one forward-backward pass of the target probabilities with
  respect to the input (``torch.autograd.grad``), the reference of the
  ratios, and one forward pass.

The tasks run in interleaved rounds (``benchmarks/_timing.py``) and are
reported by the median and range of their wall times and the ratio of the
median to the forward-backward pass; timings on a shared machine are
inflated, the ratios much less.  Single-threaded torch (``--threads``).

Our explainers cut the images into blocks of about 2**17 input entries
(``batch_size=None``: 32 images of 64x64 for Grad-CAM, 16 for Guided
Grad-CAM, which costs two rows per image), while the Captum calls take all
images at once; ``--batch-size`` sets ours (e.g. to ``--n-images``) for a
like-for-like comparison.

Run: ``python benchmarks/bench_cam.py [--size 8|64] [--n-images N]
[--rounds R] [--threads T] [--device cpu|cuda] [--batch-size B]``
"""

import argparse
import warnings

import numpy as np
import torch
from captum.attr import GuidedGradCam as CaptumGuidedGradCam
from captum.attr import LayerAttribution, LayerGradCam
from sklearn.frozen import FrozenEstimator
from torch import nn

from sklearn_xai.explainers import GradCAM, GradCAMPlusPlus, GuidedGradCam, ScoreCAM
from sklearn_xai.models import TetrominoNetClassifier

try:
    from _timing import interleaved, ratio_table
except ImportError:  # run from the repository root
    from benchmarks._timing import interleaved, ratio_table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=64, choices=(8, 64))
    parser.add_argument("--n-images", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batch-size", type=int, default=None,
                        help="our explainers' batch_size (None: blocks of about "
                             "2**17 input entries, as the package does)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    warnings.filterwarnings("ignore", category=UserWarning)

    L = args.size
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, L * L)).astype(np.float32)
    y = (X[:, L * L // 2] > 0).astype(int)
    cnn = TetrominoNetClassifier(architecture="cnn", image_size=L, max_epochs=1,
                                 device=args.device, random_state=0).fit(X, y)
    X = X[:args.n_images]
    model = FrozenEstimator(cnn)
    target = 1
    module = cnn.module_.eval()
    layer_name = [name for name, m in module.named_modules()
                  if isinstance(m, nn.Conv2d)][-1]
    layer = module.get_submodule(layer_name)
    forward = nn.Sequential(module, nn.Softmax(dim=-1)).eval()
    inputs = torch.as_tensor(X, device=args.device)
    images = inputs.reshape(len(X), 1, L, L)
    targets = torch.full((len(X),), target, device=args.device)

    ours = {
        name: cls(model, target=target, batch_size=args.batch_size).fit(X)
        for name, cls in [("GradCAM", GradCAM), ("GradCAMPlusPlus", GradCAMPlusPlus),
                          ("ScoreCAM", ScoreCAM), ("GuidedGradCam", GuidedGradCam)]
    }
    n_maps = ours["ScoreCAM"].layer_shape_[0]

    def captum_gradcam():
        A = LayerGradCam(forward, layer).attribute(images, target=targets,
                                                   relu_attributions=True)
        return LayerAttribution.interpolate(A, (L, L), interpolate_mode="bilinear") \
            .reshape(len(X), -1).detach().cpu().numpy()

    def captum_guided():
        A = CaptumGuidedGradCam(forward, layer).attribute(images, target=targets)
        return A.reshape(len(X), -1).detach().cpu().numpy()

    def forward_backward():
        x = inputs.clone().requires_grad_()
        out = forward(x)[:, target].sum()
        torch.autograd.grad(out, x)

    def forward_only():
        with torch.no_grad():
            forward(inputs)

    # Same values first (float32 rounding).
    np.testing.assert_allclose(ours["GradCAM"].transform(X), captum_gradcam(),
                               rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ours["GuidedGradCam"].transform(X), captum_guided(),
                               rtol=1e-4, atol=1e-6)

    tasks = {
        "forward-backward (reference)": forward_backward,
        "forward": forward_only,
        "GradCAM (ours)": lambda: ours["GradCAM"].transform(X),
        "LayerGradCam + interpolate (Captum)": captum_gradcam,
        "GuidedGradCam (ours)": lambda: ours["GuidedGradCam"].transform(X),
        "GuidedGradCam (Captum)": captum_guided,
        "GradCAMPlusPlus (ours)": lambda: ours["GradCAMPlusPlus"].transform(X),
        f"ScoreCAM (ours, {n_maps + 2} fwd rows/image)":
            lambda: ours["ScoreCAM"].transform(X),
    }
    for task in tasks.values():  # warm-up
        task()
    times = interleaved(tasks, rounds=args.rounds)
    print(f"XAI-TRIS CNN {L}x{L}, {len(X)} images, layer {layer_name!r} "
          f"({n_maps} maps), our batch_size={args.batch_size}, "
          f"{args.threads} thread(s), {args.device}; "
          f"{args.rounds} interleaved rounds")
    print(ratio_table(times, "forward-backward (reference)"))


if __name__ == "__main__":
    main()
