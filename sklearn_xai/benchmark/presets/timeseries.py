"""Time-series preset: planted shapes with known windows, scored against the
per-time-step ground-truth masks and by removal curves over the windows."""

from sklearn_xai.benchmark._docstring import preset_fragments
from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.utils._docstring import Substitution

__all__ = ["timeseries_synthetic"]

_DOC = preset_fragments("""
.. [1] A. A. Ismail, M. Gunady, H. Corrada Bravo and S. Feizi, "Benchmarking
   Deep Learning Interpretability in Time Series Predictions", NeurIPS 2020.""")

#: (shape, background) of the datasets: one shape per background.
_DATASETS = (("bump", "noise"), ("level_shift", "trend"),
             ("frequency_burst", "seasonal"))
_MASKERS = {
    "zero": {"name": "BaselineMasker", "params": {"value": "zero"}},
    "mean": {"name": "BaselineMasker", "params": {"value": "mean"}},
    "interpolation": {"name": "InterpolationMasker",
                      "params": {"series_shape": "@series_shape"}},
}
_WINDOW = "sklearn_xai.compose.WindowExplainer"


def _window(inner, window, masker):
    return {"name": _WINDOW, "params": {
        "explainer": {"name": inner[0], "params": {**inner[1], "masker": _MASKERS[masker]}},
        "window": window, "series_shape": "@series_shape"}}


def _explainers(window, n_perturbations, quick):
    explainers = {
        "random": "RandomExplainer",
        "saliency": "Saliency",
        "ig": "IntegratedGradients",
        "gxi": "InputXGradient",
        "gradient_shap": "GradientShap",
        "occlusion_zero": _window(("FeatureAblation", {}), window, "zero"),
        "occlusion_interp": _window(("FeatureAblation", {}), window, "interpolation"),
        "segment_kernel_shap": _window(
            ("KernelSHAP", {"n_perturbations": n_perturbations}), window, "mean"),
    }
    if quick:
        explainers = {k: explainers[k] for k in
                      ("random", "gxi", "occlusion_interp", "segment_kernel_shap")}
    return explainers


def _metrics(quick):
    truth = {"ground_truth": "@ground_truth_mask"}
    metrics = {name: {"name": name, "params": dict(truth)} for name in (
        "mask_average_precision", "mask_roc_auc", "mask_iou",
        "relevance_mass_accuracy", "relevance_rank_accuracy")}
    for label, masker in _MASKERS.items():
        if quick and label == "mean":
            continue
        metrics[f"window_removal_{label}"] = {
            "name": "region_perturbation",
            "params": {"groups": "@window_ids", "masker": masker}}
    return metrics


@Substitution(**_DOC)
def timeseries_synthetic(quick=False):
    """Synthetic time series with planted shapes: gradients, window occlusion
    and segment KernelSHAP against the known windows.

    Data: :func:`~sklearn_xai.datasets.make_timeseries_classification`, two
    channels of 60 time steps, the class the sign of a shape planted in a
    window of 10 steps at a random position of the first channel: a bump on
    white noise, a level shift on a trend, a frequency burst on a seasonal
    background; 1200 series each.  Models: a logistic regression on the
    raw time steps (a scikit-learn model; the gradient explainers read its
    torch replica), :class:`~sklearn_xai.models.TimeSeriesCNNClassifier`
    and :class:`~sklearn_xai.models.TimeSeriesGRUClassifier`.  Explainers:
    random control; saliency, integrated gradients, gradient x input,
    GradientSHAP; window occlusion
    (:class:`~sklearn_xai.compose.WindowExplainer` of
    :class:`~sklearn_xai.explainers.FeatureAblation`, windows of 10 steps)
    with a zero baseline and with linear interpolation
    (:class:`~sklearn_xai.masking.InterpolationMasker`); segment KernelSHAP
    (:class:`~sklearn_xai.explainers.KernelSHAP` over the windows, mean
    baseline).  Metrics against the per-time-step masks
    (``@ground_truth_mask``): AUC-PR
    (:func:`~sklearn_xai.metrics.mask_average_precision`), ROC-AUC, IoU of
    the top-|mask| steps, relevance mass and rank accuracy; removal curves
    over the windows (:func:`~sklearn_xai.metrics.region_perturbation` with
    ``groups="@window_ids"``) with the zero, mean and interpolation
    baselines.  In the spirit of Ismail et al. (2020) [1]_, who plant boxes
    in known windows of synthetic series to score saliency methods.

    Run time: a few minutes on two cores (9 trained models, 100 explained
    series per cell; measured 2026-11-27: 151 CPU seconds with
    ``--n-jobs 1``, 72 cells, 0.75 GB peak memory).  ``quick=True``: one dataset (the bump), 200 series
    of one channel and 30 steps, the logistic regression only, four
    explainers; seconds.

    {preset_parameters}

    {preset_returns}

    {preset_references}
    """
    n_samples, n_channels, n_timesteps, window = (
        (200, 1, 30, 6) if quick else (1200, 2, 60, 10))
    datasets = {}
    for shape, background in (_DATASETS[:1] if quick else _DATASETS):
        datasets[f"{shape}_{background}"] = {
            "name": "make_timeseries_classification",
            "params": {"n_samples": n_samples, "n_timesteps": n_timesteps,
                       "n_channels": n_channels, "shape": shape, "window": window,
                       "window_start": "random", "background": background,
                       "amplitude": 1.5},
            "task": "classification", "n_explain": 20 if quick else 100}
    models = {"logistic": {"name": "sklearn.linear_model.LogisticRegression",
                           "params": {"max_iter": 1000}}}
    if not quick:
        net = {"series_shape": "@series_shape", "lr": 3e-3, "max_epochs": 40}
        models["cnn"] = {"name": "TimeSeriesCNNClassifier", "params": dict(net)}
        models["gru"] = {"name": "TimeSeriesGRUClassifier",
                         "params": {**net, "max_epochs": 20}}
    return BenchmarkSpec(
        name="timeseries_synthetic" + ("_quick" if quick else ""),
        description="Synthetic time series with planted shapes in known windows: "
                    "mask metrics per time step and removal curves over windows.",
        datasets=datasets, models=models,
        explainers=_explainers(window, 32 if quick else 64, quick),
        metrics=_metrics(quick), seeds=[0], n_explain=20 if quick else 100,
    )
