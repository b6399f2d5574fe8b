"""Every explainer works with every metric that applies to its model.

The matrix runs through the benchmark runner, the path a user takes, on a
classifier and a regressor of each model family we support: scikit-learn
(MLP), XGBoost and skorch (our torch nets).  A score is either computed or
skipped with a reason; an explainer is either applicable or refuses the
model with a ``NotApplicableError`` that names the explainers that work, which
the runner reports as a skip.  Nothing else may fail.

The default run factorises the matrix: every explainer once against every
model (scored by a metric that reads the attributions only), and every
metric once against every model (scored on the attributions of two
explainers), and every metric that calls the explainer again (robustness,
randomisation, input invariance) with one explainer of each kind.  A metric
that only reads the attribution matrix cannot tell which explainer produced
it, beyond the matrix's shape and dtype, which the first part checks.  The
full product, and the explainer-calling metrics with every explainer, are
``slow``.

The image part (end of the file) does the same on 8x8 tetromino images with
the TetrominoNet CNN and MLP: every explainer once per model, every image
metric (ground-truth masks, removal paths, regions) once on two explainers'
attributions; the full product is ``slow``.
"""

import inspect

import numpy as np
import pytest

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.metrics import get_metric_spec, metric_specs
from sklearn_xai.utils.discovery import all_explainers

# (task, model alias): a classifier and a regressor per model family.
MODELS = [
    ("classification", "mlp"), ("regression", "mlp"),
    ("classification", "xgboost"), ("regression", "xgboost"),
    ("classification", "mlp_net"), ("regression", "beexai_mlp"),
]
# Few training iterations: the remove-and-retrain metrics refit clones of the
# model once per feature count, which dominates the matrix's time otherwise.
MODEL_PARAMS = {
    "mlp": {"hidden_layer_sizes": [8], "max_iter": 20},
    "xgboost": {"n_estimators": 10, "max_depth": 2},
    "mlp_net": {"max_epochs": 2},
    "beexai_mlp": {"max_epochs": 2},
}
# Small budgets: the matrix checks that the pieces fit together, not accuracy.
_CHEAP = {
    "n_perturbations": 24, "n_permutations": 2, "n_steps": 3, "n_estimators": 5,
    "n_epochs": 2, "max_epochs": 2, "n_coalitions": 16, "background": 10,
    "max_background": 10, "n_draws": 3, "epochs": 2, "n_masks": 16, "n_repeats": 2,
}
# Metrics that do not apply to a model family (skipped with the reason):
# xgboost has no hidden layer (representation stability).  Focus (like the
# other mask metrics) needs 0/1 masks, which these data sets do not have:
# it is skipped with that reason here and scored in tests/metrics/test_focus.py.
NOT_APPLICABLE = {"xgboost": {"neg_rrs"}}
# The one attributions-only metric that scores every explainer cell.
PROBE = "sparseness"


def _explainer_entry(name, cls):
    params = inspect.signature(cls.__init__).parameters
    chosen = {key: value for key, value in _CHEAP.items() if key in params}
    return {"name": name, "params": chosen} if chosen else name


def _cheap_metric(name):
    """Metric component with small budgets where the metric has them."""
    func = get_metric_spec(name).func
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return name
    chosen = {key: value for key, value in {
        "n_perturbations": 5, "n_draws": 5, "n_neighbours": 3,
        "n_subsets": 4, "n_noisy": 3, "n_retrain": 1, "n_steps": 3,
        "n_splits": 2, "n_permutations": 2,
    }.items() if key in params}
    return {"name": name, "params": chosen} if chosen else name


def _explainers(names=None):
    return {name: _explainer_entry(name, cls) for name, cls in all_explainers()
            if names is None or name in names}


def _calls_explainer(spec):
    return "explainer" in spec.requires


def _run(task, model, explainers, metrics):
    return _run_config(
        {task: {"name": "make_gaussian_linear",
                "params": {"n_samples": 120, "n_features": 4, "task": task}}},
        {model: {"name": model, "params": MODEL_PARAMS[model]}},
        explainers, {name: _cheap_metric(name) for name in metrics})


def _run_config(datasets, models, explainers, metrics):
    config = {"datasets": datasets, "models": models, "explainers": explainers,
              "metrics": metrics, "seeds": [0], "n_explain": 3}
    return run_benchmark(config, n_jobs=1, backend="sequential").table


def _check(table, too_wide=()):
    """Nothing fails: a score is computed or skipped with its reason.

    ``too_wide``: explainers that enumerate all 2^d coalitions and refuse
    (ValueError naming ``max_features`` and what to use instead) a data set
    with more features than their ``max_features``.
    """
    wide = table["explainer"].isin(too_wide) & (table["status"] == "error")
    assert table.loc[wide, "error"].str.contains(
        "features > max_features=.*Use KernelSHAP").all()
    table = table[~table["explainer"].isin(too_wide)]
    errors = table[table["status"] == "error"]
    assert errors.empty, errors[
        ["model", "explainer", "metric", "failed_in", "error"]].to_string()
    # A model-specific explainer refuses a model it does not support
    # (NotApplicableError, naming what works); model-agnostic ones never do.
    refused = table[table["error"].str.startswith("explainer not applicable")]
    agnostic = set(model_agnostic_hint().split(": ", 1)[1].rstrip(".").split(", "))
    assert not set(refused["explainer"]) & agnostic
    skipped = table[table["status"] == "skipped"]
    assert skipped["error"].str.len().gt(0).all()
    return table


@pytest.mark.parametrize("task,model", MODELS)
def test_every_explainer_on_every_model(task, model):
    table = _check(_run(task, model, _explainers(), [PROBE]))
    ok = table[table["status"] == "ok"]
    assert {"RandomExplainer", "FeatureAblation", "KernelSHAP"} <= set(ok["explainer"])
    if model == "xgboost":
        assert "TreeContributions" in set(ok["explainer"])
        # A gradient explainer refuses a tree model: skipped with the reason.
        refused = table[table["explainer"] == "Saliency"]
        assert (refused["status"] == "skipped").all()
        assert refused["error"].str.startswith("explainer not applicable: Saliency").all()
    if model in ("mlp_net", "beexai_mlp"):
        assert {"Saliency", "IntegratedGradients"} <= set(ok["explainer"])


@pytest.mark.parametrize("task,model", MODELS)
def test_every_metric_on_every_model(task, model):
    names = [spec.name for spec in metric_specs()]
    table = _check(_run(task, model, _explainers({"RandomExplainer", "FeatureAblation"}),
                        names))
    ok = table[table["status"] == "ok"]
    # Every metric that needs no ground truth of another kind scores.
    needs_nothing = [spec.name for spec in metric_specs()
                     if not set(spec.requires) & {"ground_truth", "mask", "distribution",
                                                  "classifier", "image_shape",
                                                  "sensitive_feature"}]
    not_applicable = NOT_APPLICABLE.get(model, set())
    missing = set(needs_nothing) - set(ok["metric"]) - not_applicable
    assert not missing, table[table["metric"].isin(missing)][
        ["metric", "status", "error"]].drop_duplicates().to_string()
    # What does not apply is skipped with the reason, and only that.
    skipped = table[table["error"].str.startswith("not applicable")]
    assert set(skipped["metric"]) == not_applicable
    assert (skipped["status"] == "skipped").all()


# One explainer of each kind: gradient (torch), masker-based deterministic and
# stochastic, local surrogate, tree, the control.  The local surrogate is
# LocalLinearSurrogate (the sampled-surrogate base it shares with LimeTabular,
# ~10x cheaper per call); LimeTabular with these metrics runs in the slow
# test_metrics_that_call_the_explainer_with_every_explainer.
KINDS = {"RandomExplainer", "Saliency", "FeatureAblation", "KernelSHAP",
         "LocalLinearSurrogate"}


@pytest.mark.parametrize("task,model,explainers", [
    ("classification", "mlp_net", KINDS),
    # The tree explainer on xgboost explains the margin.
    ("regression", "xgboost", {"RandomExplainer", "TreeContributions"}),
])
def test_metrics_that_call_the_explainer(task, model, explainers):
    names = [spec.name for spec in metric_specs() if _calls_explainer(spec)]
    table = _check(_run(task, model, _explainers(explainers), names))
    ok = table[table["status"] == "ok"]
    assert set(ok["explainer"]) == explainers
    assert "neg_avg_sensitivity" in set(ok["metric"])
    assert not set(ok["metric"]) & NOT_APPLICABLE.get(model, set())


@pytest.mark.slow
@pytest.mark.parametrize("task,model", [("classification", "mlp_net"),
                                        ("regression", "xgboost")])
def test_metrics_that_call_the_explainer_with_every_explainer(task, model):
    names = [spec.name for spec in metric_specs() if _calls_explainer(spec)]
    _check(_run(task, model, _explainers(), names))


@pytest.mark.slow
@pytest.mark.parametrize("task,model", MODELS)
def test_full_matrix(task, model):
    _check(_run(task, model, _explainers(), [spec.name for spec in metric_specs()]))


# ---------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------
# The same matrix on images: 8x8 XAI-TRIS tetrominoes (rows are flattened
# (H, W) images; the runner gives the data set's image_shape to every
# explainer and metric that takes one) and the TetrominoNet CNN and MLP.
# Image-only explainers (CAMs, Occlusion, RISE, ...) apply here, tabular-only
# ones (tree explainers, embeddings) refuse with NotApplicableError (a skip),
# model-agnostic ones explain the 64 pixels.  Explainers added later are
# discovered by all_explainers() and join the matrix.
IMAGE_MODELS = ["cnn", "mlp"]
IMAGE_DATASET = {"tetrominoes": {"name": "make_tetrominoes",
                                 "params": {"n_samples": 200}, "task": "classification"}}
# Explainers that enumerate all 2^d coalitions refuse 64 pixels with a
# ValueError naming max_features and KernelSHAP (see _check).
TOO_WIDE = {"ExactShapley", "EmpiricalConditionalSHAP"}
# L2X trains one selector network per k = 1..d, 64 of them at 64 pixels
# (about 6 CPU-s): the slow full matrix runs it on images, its tabular cells
# cover it by default.
IMAGE_SLOW = {"L2X"}
# Segment players (``segmentation=``): a 2x2 grid and SLIC superpixels.
SEGMENTED = {"KernelSHAP", "CaptumLime"}
# Every metric that reads an image: its shape (removal paths, regions) or a
# 0/1 ground-truth mask (localisation); the mask metrics score against the
# tetrominoes' pixel masks (the data set's ``ground_truth`` is the signal).
IMAGE_METRICS = sorted(spec.name for spec in metric_specs()
                       if {"image_shape", "mask"} & set(spec.requires))
# Regions of 2x2 pixels (the default 8x8 patch is the whole image).
_IMAGE_METRIC_PARAMS = {"region_perturbation": {"patch_size": 2},
                        "neg_region_perturbation_lerf": {"patch_size": 2}}
# The two explainers whose attributions every image metric scores: the
# control and a gradient one (the image metrics read attributions only, or
# call the explainer again, which the tabular part covers per kind).
IMAGE_SCORED = {"RandomExplainer", "Saliency"}


def _image_model(architecture):
    return {architecture: {"name": "TetrominoNetClassifier",
                           "params": {"architecture": architecture, "max_epochs": 2}}}


def _image_explainers(names=None, exclude=()):
    from sklearn_xai.masking import GridSegmentation, SLICSegmentation

    entries = {name: entry for name, entry in _explainers(names).items()
               if name not in exclude}
    for name in SEGMENTED & set(entries):
        base = entries[name]["params"] if isinstance(entries[name], dict) else {}
        for label, segmentation in (("grid", GridSegmentation((2, 2))),
                                    ("slic", SLICSegmentation(n_segments=8))):
            entries[f"{name}[{label}]"] = {
                "name": name, "params": {**base, "segmentation": segmentation}}
    return entries


def _patches(side=8, patch=2):
    """Patch id of every pixel of a flattened square image: ``patch x patch``
    squares, numbered row-major."""
    rows, cols = divmod(np.arange(side * side), side)
    return (rows // patch) * (side // patch) + cols // patch


def _image_metrics():
    """Label -> metric entry: every image metric, and IROF on 2x2 patches
    (``groups``) besides its SLIC superpixels."""
    metrics = {name: _image_metric(name) for name in IMAGE_METRICS}
    metrics["irof[patches]"] = {"name": "irof", "params": {
        "groups": _patches(), "image_shape": None}}
    return metrics


def _image_metric(name):
    entry = _cheap_metric(name)
    entry = entry if isinstance(entry, dict) else {"name": name, "params": {}}
    params = {**entry["params"], **_IMAGE_METRIC_PARAMS.get(name, {})}
    if "mask" in get_metric_spec(name).requires:
        params["ground_truth"] = "@ground_truth_mask"
    return {"name": name, "params": params}


def _run_images(architecture, explainers, metrics):
    """``metrics``: names, or a dict label -> metric entry."""
    if not isinstance(metrics, dict):
        metrics = {name: _image_metric(name) for name in metrics}
    return _check(_run_config(IMAGE_DATASET, _image_model(architecture), explainers,
                              metrics), too_wide=TOO_WIDE)


@pytest.mark.parametrize("architecture", IMAGE_MODELS)
def test_every_explainer_on_every_image_model(architecture):
    table = _run_images(architecture, _image_explainers(exclude=IMAGE_SLOW), [PROBE])
    ok = set(table.loc[table["status"] == "ok", "explainer"])
    assert {"RandomExplainer", "Occlusion", "RISE", "KernelSHAP", "KernelSHAP[grid]",
            "KernelSHAP[slic]", "CaptumLime[grid]", "Saliency", "ExpectedGradients",
            "LRP", "SobelFilter"} <= ok
    cams = {"GradCAM", "GradCAMPlusPlus", "ScoreCAM", "GuidedGradCam"}
    if architecture == "cnn":
        assert cams <= ok
    else:  # no Conv2d: refused with the reason, a skip
        refused = table[table["explainer"].isin(cams)]
        assert len(refused) == len(cams)
        assert (refused["status"] == "skipped").all()
        assert refused["error"].str.contains("needs a convolutional network").all()


def test_every_image_metric():
    metrics = _image_metrics()
    table = _run_images("cnn", _image_explainers(IMAGE_SCORED), metrics)
    ok = table[table["status"] == "ok"]
    assert set(ok["explainer"]) == IMAGE_SCORED
    missing = set(metrics) - set(ok["metric"])
    assert not missing, table[table["metric"].isin(missing)][
        ["metric", "status", "error"]].drop_duplicates().to_string()


# The runner scores the controls (RandomExplainer, the edge filters, which
# explain no output) on the one output the benchmark's other explainers
# explain, read from their specs: TreeContributions (output="margin" by
# default) would make them errors although it refuses these models (a skip,
# checked in test_every_explainer_on_every_image_model).
NOT_IN_FULL_IMAGE_MATRIX = {"TreeContributions"}


def _all_architectures():
    """Every TetrominoNetClassifier architecture (shipped ones join here)."""
    from sklearn_xai.models import TetrominoNetClassifier

    return sorted(TetrominoNetClassifier._parameter_constraints["architecture"][0].options)


# Measured on this machine's shared CPUs: about 70 CPU-s for the MLP, 6 to 8
# CPU-minutes each for the ResNet and the ViT (when they ship).
@pytest.mark.slow
@pytest.mark.parametrize("architecture", _all_architectures())
def test_full_image_matrix(architecture):
    metrics = _image_metrics()
    table = _run_images(architecture, _image_explainers(exclude=NOT_IN_FULL_IMAGE_MATRIX),
                        metrics)
    assert set(metrics) <= set(table.loc[table["status"] == "ok", "metric"])
