"""OpenXAI presets (Agarwal et al., NeurIPS Datasets and Benchmarks 2022):
its synthetic data and Adult with the logistic regression and the ANN, and
the stability metrics on the synthetic data."""

import numpy as np

from sklearn_xai.benchmark._spec import BenchmarkSpec
from sklearn_xai.benchmark.presets._registry import register_preset

__all__ = ["load_openxai_adult", "openxai_adult", "openxai_stability",
           "openxai_synthetic"]

# OpenXAI's synthetic data: the parameters of its data loader (every
# version that generated the data in code, up to commit deafb6f,
# ``openxai/dataloader.py``), rows per cluster set by the preset.
_OX_SYNTHGAUSS = {"n_features": 20, "n_clusters": 10, "cluster_distance": 5.0,
                  "sparsity": 0.25, "weight_range": [-1.0, 1.0], "test_size": 0.25,
                  "shuffle": False}

# OpenXAI's trainer for its synthetic data (``openxai/model.py`` train_model,
# ``experiment_config.json`` "training"/"gaussian"): epoch selected on the
# test rows of the dataset (``test_rows`` of minmax_scaled).
_OX_TRAINING = {"convention": "openxai_code", "selection_data": "@test_rows",
                "warmup": 5, "mean_prediction_bound": 0.4,
                "criterion__weight": [0.5, 0.5]}

_OX_AGREEMENT = ("feature_agreement", "rank_agreement", "sign_agreement",
                 "signed_rank_agreement", "rank_correlation", "pairwise_rank_agreement")


@register_preset
def openxai_synthetic(quick=False):
    """OpenXAI on its synthetic data (Agarwal et al., NeurIPS D&B 2022,
    Tables 2, 3 and 16, "Synthetic" rows), with the settings OpenXAI's code
    records.

    Data: :func:`~sklearn_xai.datasets.make_synthgauss` with the parameters
    of OpenXAI's data loader (2500 rows per cluster, 10 clusters, distance
    5, sparsity 0.25, seed 564, 25 % test rows) and ``shuffle=False``, which
    gives OpenXAI's draw exactly (rows cluster by cluster, test rows in
    ascending index order).  The explained rows are the first 1000 test
    rows, as in OpenXAI, hence rows of clusters 0 and 1 only (623 and 377):
    the published synthetic values describe two of the ten clusters.  Each
    split is min-max scaled with its own scaler, as OpenXAI's data loaders
    do (:func:`~sklearn_xai.datasets.minmax_scaled` with
    ``fit_on="each_split"``).  Models: logistic regression
    (:class:`~sklearn_xai.models.LogisticNetClassifier`) and the ANN
    (:class:`~sklearn_xai.models.MLPNetClassifier`), Adam lr 1e-3, 100
    epochs, batches of 32, torch seed 0, trained as OpenXAI's code
    (``convention="openxai_code"``): cross-entropy (class weights 0.5, 0.5)
    applied to the softmax outputs, and the weights of the epoch with the
    best **test** accuracy after a warm-up of 5 epochs, among epochs whose
    share of predicted positives on the test rows exceeds 0.4.  Selecting
    the epoch on the test rows that are then explained and scored is a
    pitfall of the original code (model selection on test data), mirrored
    here only to reproduce the published numbers.  Explainers: control N(0, 1); Grad; IG; G x I;
    SmoothGrad (sigma 0.1, 100 draws); KernelSHAP (500 samples, zero
    baseline); LIME (OpenXAI's local linear surrogate, std 0.1, width
    0.75 sqrt(d), 1000 samples).  Metrics: FA, RA, SA, SRA, RC, PRA
    (``k_max = 0.25``, AUC) against the generator's ground truth and, as in
    OpenXAI, against the LR's coefficients (``*_lr``; skipped for the ANN);
    PGI and PGU (σ = 0.1 absolute, as OpenXAI).  Stability (RIS/ROS) is left out of the preset (1000
    neighbours re-explained per row); add ``neg_ris`` to run it.
    Published LR values (OpenXAI's Table 2; e.g. FA: Random 0.155, Grad 1.000,
    G x I 0.555, SHAP 0.544, LIME 0.822; PGI Random 0.047, Grad 0.096).

    Run time: long (measured: 70 minutes with ``n_jobs=1`` on a shared,
    heavily loaded 2-core machine, nearly all of it the training of the two
    nets on 18 750 rows; the LR with the gradient explainers alone: 3
    minutes).  No linear model reaches the published LR accuracy (0.818) on
    the recorded data (ours: 0.725); see the reproductions page.
    ``quick=True``: 50 rows per cluster, 5 explained rows, 8 epochs, fewer
    KernelSHAP / LIME samples.

    Parameters
    ----------
    quick : bool, default=False
        The quick variant.

    Returns
    -------
    spec : BenchmarkSpec

    References
    ----------
    .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.
    """
    d = 20
    width = 0.75 * d ** 0.5
    epochs = 8 if quick else 100
    zero = {"name": "BaselineMasker", "params": {"value": "zero"}}
    explainers = {
        "random": "RandomExplainer",
        "grad": "Saliency",
        "ig": {"name": "IntegratedGradients", "params": {"multiply_by_inputs": False}},
        "itg": "InputXGradient",
        "sg": {"name": "SmoothGrad", "params": {"std": 0.1, "n_perturbations": 100}},
        "shap": {"name": "KernelSHAP", "params": {"n_perturbations": 100 if quick else 500,
                                                  "masker": zero}},
        "lime": {"name": "LocalLinearSurrogate",
                 "params": {"std": 0.1, "kernel_width": width,
                            "n_perturbations": 200 if quick else 1000}},
    }
    metrics = {}
    for name in _OX_AGREEMENT:
        params = {} if name in ("rank_correlation", "pairwise_rank_agreement") \
            else {"auc": True, "k_max": 0.25}
        metrics[name] = {"name": name, "params": params}
        metrics[name + "_lr"] = {"name": name, "params": {
            **params, "ground_truth": "@linear_model_reference"}}
    # OpenXAI's noise is sigma = 0.1 in the (min-max scaled) input units.
    noise = {"name": "GaussianNoisePerturber",
             "params": {"std": 0.1, "sigma_scale": "absolute"}}
    for name in ("pgi", "neg_pgu"):
        metrics[name] = {"name": name, "params": {"k": 0.25, "auc": True,
                                                  "perturber": noise}}
    net = {"max_epochs": epochs, "lr": 1e-3, "batch_size": 32, **_OX_TRAINING}
    return BenchmarkSpec(
        name="openxai_synthetic" + ("_quick" if quick else ""),
        description="OpenXAI synthetic Gaussian clusters, LR and ANN.",
        datasets={"synthetic": {
            "name": "minmax_scaled",
            "params": {"dataset": "make_synthgauss",
                       "params": {**_OX_SYNTHGAUSS,
                                  "n_samples": 50 if quick else 2500},
                       "fit_on": "each_split", "with_test_rows": True,
                       "random_state": 564}}},
        models={"lr": {"name": "LogisticNetClassifier", "params": net},
                "ann": {"name": "MLPNetClassifier", "params": net}},
        explainers=explainers, metrics=metrics,
        seeds=[0], n_explain=5 if quick else 1000,
    )
