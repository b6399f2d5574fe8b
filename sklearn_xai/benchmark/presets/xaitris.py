"""XAI-TRIS preset (Clark et al., Machine Learning 2024): tetromino images
with known ground-truth masks."""

from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.benchmark.presets._registry import register_preset

__all__ = ["xaitris_8x8"]

_XT_SCENARIOS = ("linear", "multiplicative", "xor", "rigid")


@register_preset
def xaitris_8x8(quick=False):
    """XAI-TRIS at 8 x 8 (Clark et al., Machine Learning 2024).

    Data: :func:`~sklearn_xai.datasets.make_tetrominoes` at 8 x 8 for the
    four scenarios (linear, multiplicative, XOR, rigid) on the white and the
    correlated (smoothed) background: 8 datasets of 10 000 images with
    the generator's train/validation/test split.  Models:
    :class:`~sklearn_xai.models.TetrominoNetClassifier` MLP and CNN (and
    the linear LLR, which XAI-TRIS trains on the linear scenario only; here
    on all), 500 epochs.  Explainers: random;
    gradient, IG, G x I, DeepLift, GradientSHAP, LRP; KernelSHAP and
    Shapley value sampling with a zero baseline; the model-ignorant
    controls (Sobel and Laplace filters, the input itself).  Metrics: mask
    precision and EMD score
    against the ground-truth masks (``@ground_truth_mask``: the union of
    both shapes, or the row's own for RIGID), at most 100 explained test
    images.  No numeric table was published (box plots): compare the
    distributions of the figures.  Sizes as published: 10 000 images per
    dataset (80/10/10 split), 500 epochs without effective early stopping
    (with 2000 images and 100 epochs most networks stayed at chance level).

    Run time: heavy (24 trained networks per seed, the CNNs about 80 s
    each on one core; measured: 15 minutes with ``n_jobs=2``).
    ``quick=True``: the
    XOR scenario on the white background, 200 images, the MLP, 2 epochs, 5
    explained images.

    Parameters
    ----------
    quick : bool, default=False
        The quick variant.

    Returns
    -------
    spec : BenchmarkSpec

    References
    ----------
    .. [1] B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: Non-linear image
       benchmarks to quantify false positive post-hoc attribution of feature
       importance", Machine Learning 113, 2024.
    """
    scenarios = ("xor",) if quick else _XT_SCENARIOS
    backgrounds = ("white",) if quick else ("white", "correlated")
    n = 200 if quick else 10_000
    datasets = {f"{s}_{b}": {"name": "make_tetrominoes",
                             "params": {"n_samples": n, "scenario": s, "background": b,
                                        "image_size": 8}, "task": "classification"}
                for s in scenarios for b in backgrounds}
    # XAI-TRIS trains 500 epochs; its early stopping rarely fires, and a
    # patience of 10 epochs stops the CNN and the RIGID / correlated runs on
    # their initial plateau at chance level.
    net = {"image_size": 8, "max_epochs": 2 if quick else 500,
           "n_iter_no_change": 500}
    zero = {"name": "BaselineMasker", "params": {"value": "zero"}}
    explainers = {
        "random": "RandomExplainer",
        "gradient": "Saliency",
        "ig": "IntegratedGradients",
        "gxi": "InputXGradient",
        "deeplift": "DeepLift",
        "gradient_shap": "GradientShap",
        "lrp": "LRP",
        "kernel_shap": {"name": "KernelSHAP", "params": {"n_perturbations": 200 if quick else 1000,
                                                         "masker": zero}},
        # Captum's sampler: independent permutations, not antithetic pairs.
        "svs": {"name": "ShapleyValueSampling", "params": {"n_permutations": 2 if quick else 10,
                                                           "antithetic": False,
                                                           "masker": zero}},
        "sobel": "SobelFilter",
        "laplace": "LaplaceFilter",
        "input": "InputAttribution",
    }
    metrics = {
        "mask_precision": {"name": "mask_precision",
                           "params": {"ground_truth": "@ground_truth_mask"}},
        "emd_score": {"name": "emd_score", "params": {"ground_truth": "@ground_truth_mask"}},
    }
    return BenchmarkSpec(
        name="xaitris_8x8" + ("_quick" if quick else ""),
        description="XAI-TRIS tetrominoes 8x8: mask precision and EMD.",
        datasets=datasets,
        models={arch: {"name": "TetrominoNetClassifier",
                       "params": {"architecture": arch, **net}}
                for arch in (("mlp",) if quick else ("llr", "mlp", "cnn"))},
        explainers=explainers, metrics=metrics,
        seeds=[0], n_explain=5 if quick else 100,
    )
