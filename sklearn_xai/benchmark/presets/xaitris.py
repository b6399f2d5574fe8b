"""XAI-TRIS presets (Clark et al., Machine Learning 2024): tetromino images
with known ground-truth masks, scored as XAI-TRIS scores them.

XAI-TRIS explains the *true* class of the first 2000 test images and scores
only the images that every model of the scenario classifies correctly; its
linear model (LLR) counts only in the linear scenario.  Both presets do the
same through the runner's ``explain_rows`` option.
"""

from sklearn_xai.benchmark._docstring import preset_fragments
from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.utils._docstring import Substitution

__all__ = ["xaitris_64x64", "xaitris_8x8"]

# Docstring blocks of this module's presets (filled by Substitution).
_DOC = preset_fragments("""
.. [1] B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: Non-linear image
   benchmarks to quantify false positive post-hoc attribution of feature
   importance", Machine Learning 113, 2024.""")

_XT_SCENARIOS = ("linear", "multiplicative", "xor", "rigid")
# XAI-TRIS's test_size: the first 2000 test images are explained.
_XT_N_EXPLAIN = 2000
_ZERO = {"name": "BaselineMasker", "params": {"value": "zero"}}


def _explain_rows(scenario, models):
    """XAI-TRIS's scored images: correct for every model of the scenario
    (the LLR only in the linear one), explained for their true class."""
    by = [m for m in models if m != "llr" or scenario == "linear"]
    return {"correct_by": by, "target": "true"}


def _explainers(n_permutations):
    # XAI-TRIS (xai/methods.py) calls Captum's KernelShap and
    # ShapleyValueSampling with their defaults: 25 coalitions, 25
    # permutations, zero baseline.
    return {
        "random": "RandomExplainer",
        "gradient": "Saliency",
        "ig": "IntegratedGradients",
        "gxi": "InputXGradient",
        "deeplift": "DeepLift",
        "gradient_shap": "GradientShap",
        "lrp": "LRP",
        "kernel_shap": {"name": "CaptumKernelSHAP", "params": {"n_perturbations": 25}},
        # Captum's sampler: independent permutations, not antithetic pairs.
        "svs": {"name": "ShapleyValueSampling", "params": {"n_permutations": n_permutations,
                                                           "antithetic": False,
                                                           "masker": _ZERO}},
        "sobel": "SobelFilter",
        "laplace": "LaplaceFilter",
        "input": "InputAttribution",
    }


def _metrics(coarsen=1):
    emd = {"ground_truth": "@ground_truth_mask"}
    if coarsen > 1:
        emd["coarsen"] = coarsen
    return {
        "mask_precision": {"name": "mask_precision",
                           "params": {"ground_truth": "@ground_truth_mask"}},
        "emd_score": {"name": "emd_score", "params": emd},
    }


def _spec(name, *, size, scenarios, backgrounds, n_samples, models, net, explainers,
          metrics, n_explain):
    datasets = {}
    for s in scenarios:
        for b in backgrounds:
            datasets[f"{s}_{b}"] = {
                "name": "make_tetrominoes",
                "params": {"n_samples": n_samples, "scenario": s, "background": b,
                           "image_size": size},
                "task": "classification", "explain_rows": _explain_rows(s, models)}
    return BenchmarkSpec(
        name=name,
        description=f"XAI-TRIS tetrominoes {size}x{size}: mask precision and EMD of the "
                    "true class, on the test images every model classifies correctly.",
        datasets=datasets,
        models={arch: {"name": "TetrominoNetClassifier",
                       "params": {"architecture": arch, "image_size": size, **net}}
                for arch in models},
        explainers=explainers, metrics=metrics, seeds=[0], n_explain=n_explain,
    )


@Substitution(**_DOC)
def xaitris_8x8(quick=False):
    """XAI-TRIS at 8 x 8 (Clark et al., Machine Learning 2024).

    Data: :func:`~sklearn_xai.datasets.make_tetrominoes` at 8 x 8 for the
    four scenarios (linear, multiplicative, XOR, rigid) on the white and the
    correlated (smoothed) background: 8 datasets of 10 000 images with
    the generator's 80/10/10 train/validation/test split.  Models:
    :class:`~sklearn_xai.models.TetrominoNetClassifier` LLR, MLP and CNN,
    500 epochs.  Explainers: random; gradient, IG, G x I, DeepLift,
    GradientSHAP, LRP; Captum's KernelSHAP
    (:class:`~sklearn_xai.explainers.CaptumKernelSHAP`, 25 coalitions) and
    Shapley value sampling (25 independent permutations) with a zero
    baseline, Captum's defaults, as XAI-TRIS calls them; the model-ignorant
    controls (Sobel and Laplace filters, the input itself).  Metrics: mask precision and EMD score against the
    ground-truth masks (``@ground_truth_mask``: the union of both shapes,
    or the row's own for RIGID).

    Scored images, as XAI-TRIS scores them: the first 2000 test images
    (here all 1000), explained for their true class, and only those that
    every model of the scenario classifies correctly (MLP and CNN; the LLR
    too in the linear scenario only): ``explain_rows={"correct_by": [...],
    "target": "true"}`` on each dataset, so all the cells of a dataset score
    the same images.  No numeric table was published (box plots): compare
    the distributions of the figures.  Sizes as published: 10 000 images
    per dataset, 500 epochs without effective early stopping (with 2000
    images and 100 epochs most networks stayed at chance level).

    Run time: heavy (24 trained networks per seed, the CNNs about 80 s
    each on one core, then up to 1000 explained images per cell).
    ``quick=True``: the XOR scenario on the white background, 200 images,
    the MLP, 2 epochs, its 20 test images (those it classifies correctly).

    {preset_parameters}

    {preset_returns}

    {preset_references}
    """
    # XAI-TRIS trains 500 epochs; its early stopping rarely fires, and a
    # patience of 10 epochs stops the CNN and the RIGID / correlated runs on
    # their initial plateau at chance level.
    return _spec(
        "xaitris_8x8" + ("_quick" if quick else ""), size=8,
        scenarios=("xor",) if quick else _XT_SCENARIOS,
        backgrounds=("white",) if quick else ("white", "correlated"),
        n_samples=200 if quick else 10_000,
        models=("mlp",) if quick else ("llr", "mlp", "cnn"),
        net={"max_epochs": 2 if quick else 500, "n_iter_no_change": 500},
        explainers=_explainers(2 if quick else 25),
        metrics=_metrics(), n_explain=_XT_N_EXPLAIN)


@Substitution(**_DOC)
def xaitris_64x64(quick=False, *, backgrounds=None, background_images=None, device="auto",
                  models=None, explainers=None, n_samples=None, max_epochs=None,
                  emd_coarsen=None):
    """XAI-TRIS at 64 x 64 (Clark et al., Machine Learning 2024).

    Data: :func:`~sklearn_xai.datasets.make_tetrominoes` at 64 x 64 (cells
    of 8 pixels, 4 for RIGID; smoothed shapes, masks thresholded at 0.05)
    for the four scenarios (LIN, MULT, RIGID, XOR) on white noise (WHITE)
    and smoothed noise (CORR) -- XAI-TRIS' eight 64 x 64 datasets -- and,
    by default, on natural images too.  XAI-TRIS draws its natural
    backgrounds from ImageNet, which cannot ship: ``"natural"`` takes random
    crops of the photographs scikit-image ships, or of the photographs in
    ``background_images`` (a folder), at XAI-TRIS's signal-to-noise ratios
    for ImageNet; ``"imagenet"`` follows XAI-TRIS' own procedure (one
    photograph per row, centre-cropped) and needs ``background_images``.
    40 000 images per dataset, 90/5/5 split.  Models:
    :class:`~sklearn_xai.models.TetrominoNetClassifier` LLR, MLP and CNN
    at 64 x 64, 500 epochs, on ``device``.  Explainers and metrics as in
    :func:`xaitris_8x8`; Shapley value sampling takes one permutation
    (4097 model calls per image).  Scored images as in XAI-TRIS: the first
    2000 test images (all of them), true class, only those every model of
    the scenario classifies correctly (the LLR in the linear scenario only).

    Run time: very heavy, meant for a GPU machine (``device="auto"`` picks
    ``"cuda"`` when torch sees one) or a cluster: 24 networks (36 with the
    natural backgrounds) trained on 36 000 images of 4096 pixels, and the
    exact EMD at 64 x 64 costs about 1-3 s per image on one CPU core (2000
    images x 12 explainers x 24-36 cells; ``emd_coarsen=2`` computes it on
    2 x 2 blocks).  ``quick=True``: the XOR scenario on the three
    backgrounds, 200 images, the MLP, 2 epochs, its 10 test images (those
    it classifies correctly), four explainers, the EMD on 8 x 8 blocks.
    The keyword arguments reduce or redirect the run (the preset called by
    name uses their defaults); ``benchmarks/compare_xaitris64.py`` puts the
    results beside XAI-TRIS' published claims.

    {preset_parameters}
    backgrounds : tuple of str, default=None
        Backgrounds among ``"white"``, ``"correlated"``, ``"natural"`` and
        ``"imagenet"``; ``None``: the three of the paper, natural images
        standing in for ImageNet (``("white", "correlated")``: the eight
        datasets without natural images).
    background_images : str or path-like, default=None
        A folder of photographs for the ``"natural"`` and ``"imagenet"``
        backgrounds (``None``: scikit-image's photographs for
        ``"natural"``).
    device : str, default="auto"
        Torch device of the networks; ``"auto"``: ``"cuda"`` when torch sees
        a GPU, else ``"cpu"``, resolved by each net when it is fitted (so
        the preset, and its cells' cache keys, are the same on every
        machine; results do not depend on the device).  The name is checked
        here; a GPU torch does not see is refused when a net is fitted.
        ``run_benchmark(device=...)`` and ``sklearn-xai run --device``
        override it for a run.
    models : tuple of str, default=None
        Architectures among ``"llr"``, ``"mlp"``, ``"cnn"`` (``None``: all
        three; the MLP alone when ``quick``).
    explainers : tuple of str, default=None
        Keys of the preset's explainers to keep (``None``: all twelve; four
        when ``quick``).
    n_samples : int, default=None
        Images per dataset (``None``: 40 000; 200 when ``quick``).
    max_epochs : int, default=None
        Training epochs (``None``: 500; 2 when ``quick``).
    emd_coarsen : int, default=None
        Side of the pixel blocks of the EMD (``None``: exact, 8 when
        ``quick``).

    {preset_returns}

    {preset_references}
    """
    from sklearn_xai.benchmark._spec import check_device_setting

    device = check_device_setting(device, "device")
    # One permutation at 4096 pixels (Captum's 25 would cost 100 000 model
    # evaluations per image).
    chosen = _explainers(1)
    if explainers is None and quick:
        explainers = ("random", "gradient", "gxi", "laplace")
    if explainers is not None:
        unknown = set(explainers) - set(chosen)
        if unknown:
            raise ValueError(f"Unknown explainers {sorted(unknown)}; the preset's are "
                             f"{sorted(chosen)}.")
        chosen = {k: chosen[k] for k in explainers}
    backgrounds = tuple(backgrounds or ("white", "correlated", "natural"))
    unknown = set(backgrounds) - {"white", "correlated", "natural", "imagenet"}
    if unknown or ("imagenet" in backgrounds and background_images is None):
        raise ValueError(
            "backgrounds must be among 'white', 'correlated', 'natural' and "
            f"'imagenet' ('imagenet' needs background_images=); got {backgrounds!r}."
        )
    spec = _spec(
        "xaitris_64x64" + ("_quick" if quick else ""), size=64,
        scenarios=("xor",) if quick else _XT_SCENARIOS,
        backgrounds=backgrounds,
        n_samples=n_samples or (200 if quick else 40_000),
        models=tuple(models or (("mlp",) if quick else ("llr", "mlp", "cnn"))),
        net={"max_epochs": max_epochs or (2 if quick else 500), "n_iter_no_change": 500,
             "device": device},
        explainers=chosen,
        metrics=_metrics(coarsen=emd_coarsen or (8 if quick else 1)),
        n_explain=_XT_N_EXPLAIN)
    if background_images is not None:
        for ds in spec.datasets.values():
            if ds["params"]["background"] in ("natural", "imagenet"):
                ds["params"]["background_images"] = str(background_images)
    return spec
