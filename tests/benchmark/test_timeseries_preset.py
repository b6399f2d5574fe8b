"""The timeseries_synthetic preset: its full spec, and its quick variant run
end to end (scores in range, the random control beaten on the masks, a
leaderboard and a report)."""

import time

import numpy as np

from sklearn_xai.benchmark import get_preset, run_benchmark, write_report
from sklearn_xai.benchmark._preset_names import SHIPPED_PRESETS, WITH_QUICK_VARIANT

MASK_METRICS = {"mask_average_precision", "mask_roc_auc", "mask_iou",
                "relevance_mass_accuracy", "relevance_rank_accuracy"}


def test_full_preset_spec():
    assert SHIPPED_PRESETS["timeseries_synthetic"] == "timeseries"
    assert "timeseries_synthetic" in WITH_QUICK_VARIANT
    spec = get_preset("timeseries_synthetic")
    assert set(spec.models) == {"logistic", "cnn", "gru"}
    assert len(spec.datasets) == 3
    assert MASK_METRICS <= set(spec.metrics)
    for label in ("zero", "mean", "interpolation"):
        metric = spec.metrics[f"window_removal_{label}"]
        assert metric["name"] == "region_perturbation"
        assert metric["params"]["groups"] == "@window_ids"
    assert {"occlusion_zero", "occlusion_interp", "segment_kernel_shap", "saliency",
            "ig", "gxi", "gradient_shap"} <= set(spec.explainers)


def test_quick_variant_runs_and_reports(tmp_path):
    start = time.perf_counter()
    results = run_benchmark("timeseries_synthetic_quick")
    elapsed = time.perf_counter() - start
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].unique()
    assert set(table["metric"]) >= MASK_METRICS | {"window_removal_zero",
                                                   "window_removal_interpolation"}
    masks = table[table["metric"].isin(MASK_METRICS)]
    assert masks["value"].between(0, 1).all()
    # the model's explanations find the window better than the random control
    ap = table[table["metric"] == "mask_average_precision"].set_index("explainer")["value"]
    assert ap["segment_kernel_shap"] > ap["random"]
    assert np.isfinite(results.leaderboard()["mean"]).all()
    write_report(results, tmp_path, figures=False, reliability=False)
    assert "mask_average_precision" in (tmp_path / "report.html").read_text()
    assert elapsed < 600  # seconds on an idle machine; a loose safety bound here
