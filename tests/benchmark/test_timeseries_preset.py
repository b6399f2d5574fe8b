"""The timeseries_synthetic preset: its full spec, and its quick variant run
end to end from the command line (scores in range, the random control
beaten on the masks, the leaderboards and the report)."""

import time

import pandas as pd

from sklearn_xai.benchmark import get_preset
from sklearn_xai.benchmark._cli import main
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


def test_quick_variant_runs_from_the_cli_and_reports(tmp_path, capsys):
    out_dir = tmp_path / "out"
    start = time.perf_counter()
    assert main(["run", "timeseries_synthetic_quick", "--out", str(out_dir), "-q",
                 "--n-jobs", "1", "--no-figures", "--no-cache"]) == 0
    elapsed = time.perf_counter() - start
    out = capsys.readouterr().out
    assert "random (control)" in out and "mask_average_precision" in out
    table = pd.read_csv(out_dir / "results.csv")
    assert (table["status"] == "ok").all(), table["error"].unique()
    assert set(table["metric"]) >= MASK_METRICS | {"window_removal_zero",
                                                   "window_removal_interpolation"}
    masks = table[table["metric"].isin(MASK_METRICS)]
    assert masks["value"].between(0, 1).all()
    # the model's explanations find the window better than the random control
    ap = table[table["metric"] == "mask_average_precision"].set_index("explainer")["value"]
    assert ap["segment_kernel_shap"] > ap["random"]
    assert "mask_average_precision" in (out_dir / "report.html").read_text()
    assert (out_dir / "report.md").exists()
    # The run itself takes seconds (cells: ~4 s on two loaded cores); a cold
    # start is dominated by importing torch and captum.  A loose safety bound:
    assert elapsed < 600
