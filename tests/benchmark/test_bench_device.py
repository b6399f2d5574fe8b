"""benchmarks/bench_device.py: a tiny CPU run in-process (every row present,
finite, ours equal to Captum where both compute the same thing), the time
guard, and the goals' verdicts as direct comparisons of the numbers."""

import importlib.util
import json
import math
import pathlib
import sys

import numpy as np
import pytest
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXPLAINERS = ["Saliency", "InputXGradient", "DeepLift", "LRP",
              "IntegratedGradients(50)", "SmoothGrad(50)"]
METRICS = ["pixel_flipping(fps=1)", "region_perturbation(1x1)",
           "faithfulness_correlation(100)", "infidelity(100)", "max_sensitivity(10)"]
TINY = ["--small", "--device", "cpu", "--image-size", "8", "--rounds", "1",
        "--n-train", "16", "--n-fast", "4", "--n-slow", "1", "--n-metric", "2",
        "--pilot", "1", "--cpu-budget", "0", "--threads", "1"]


@pytest.fixture(scope="module")
def bench():
    folder = ROOT / "benchmarks"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("bench_device", folder / "bench_device.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


@pytest.fixture
def restore_threads():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def test_tiny_run_has_every_row_with_finite_numbers(bench, tmp_path, restore_threads):
    results = bench.main([*TINY, "--out", str(tmp_path)])
    written = json.loads((tmp_path / "bench_device.json").read_text())
    assert [row["name"] for row in written["rows"]] == EXPLAINERS + METRICS
    assert written["skipped"] == [] and written["meta"]["device"] == "cpu"
    for row in results["rows"]:
        assert "error" not in row, row
        captum = row["kind"] == "explainer" or row["name"].startswith(("infidelity", "max_sens"))
        numbers = [row["ours"]["median_s"], row["cpu"]["median_s"], row["cpu_scaled_s"],
                   row["cpu_speedup"], row["device_vs_cpu_rel_max_diff"]]
        if captum:
            numbers += [row["captum"]["median_s"], row["ours_over_captum"]]
        assert all(math.isfinite(v) and v >= 0 for v in numbers), row
        # the CPU side's time is scaled per image to the device's rows
        assert row["cpu_scaled_s"] == pytest.approx(
            row["cpu"]["median_s"] / row["cpu"]["n_rows"] * row["n_rows"])
    by_name = {row["name"]: row for row in results["rows"]}
    # each row's verdicts, in the JSON, are the comparisons of its own numbers
    for name in EXPLAINERS:
        row = by_name[name]
        assert [g["passed"] for g in row["goals"]] == [row["ours_over_captum"] <= 1.2]
    row = by_name["infidelity(100)"]
    assert [g["passed"] for g in row["goals"]] == [
        row["ours_over_captum"] <= 1.5, row["cpu_speedup"] >= 10]
    # on the CPU, ours and Captum called directly compute the same gradients
    for name in EXPLAINERS[:5]:
        assert by_name[name]["ours_vs_captum_rel_max_diff"] < 1e-4, name
    # SmoothGrad: two noise draws, one expectation (signed gradients on both sides)
    noisy = by_name["SmoothGrad(50)"]["ours_vs_captum_noisy"]
    assert noisy["corr"] > 0.9 and noisy["rel_mean_abs_diff"] < 0.1, noisy
    # device == CPU here: the "CPU copy" is the same net, the same values
    for name in METRICS[:3]:
        assert by_name[name]["device_vs_cpu_rel_max_diff"] < 1e-6, name
    table = (tmp_path / "bench_device.md").read_text().splitlines()
    assert len(table) == 2 + len(EXPLAINERS) + len(METRICS)


def test_time_guard_skips_and_lists_the_items(bench, tmp_path, restore_threads):
    results = bench.main([*TINY, "--guard", "0", "--out", str(tmp_path),
                          "--only", "Saliency", "infidelity"])
    assert results["rows"] == []
    assert results["skipped"] == ["Saliency", "infidelity(100)"]
    assert json.loads((tmp_path / "bench_device.json").read_text())["skipped"] == \
        results["skipped"]


def test_verdicts_compare_the_numbers_with_the_goals(bench):
    def explainer(ratio):
        return {"kind": "explainer", "name": "Saliency", "ours_over_captum": ratio,
                "cpu_speedup": 3.0}

    # explainers: only the Captum goal (1.2x), never the CPU one
    assert bench.verdicts(explainer(1.19)) == [("ours/Captum", 1.19, ("<=", 1.2), True)]
    assert bench.verdicts(explainer(1.21))[0][3] is False
    assert bench.verdicts(explainer(None))[0][3] is None
    # a captum.metrics peer: 1.5x, and the model-evaluating metrics' 10x
    row = {"kind": "metric", "name": "infidelity(100)", "captum_peer": True,
           "ours_over_captum": 1.4, "cpu_speedup": 9.9}
    assert [(v[0], v[3]) for v in bench.verdicts(row)] == [
        ("ours/Captum", True), ("CPU/device", False)]
    row = {"kind": "metric", "name": "pixel_flipping(fps=64)", "captum_peer": False,
           "cpu_speedup": 10.0}
    assert bench.verdicts(row) == [("CPU/device", 10.0, (">=", 10.0), True)]
    # the table shows each verdict on its row
    timing = {"median_s": 1.0, "min_s": 0.9, "max_s": 1.1, "n_reps": 3}
    rows = [{**explainer(1.25), "n_rows": 10, "ours": timing, "captum": timing,
             "cpu": {**timing, "n_rows": 2}, "cpu_scaled_s": 5.0},
            {**row, "n_rows": 10, "ours": timing, "cpu": {**timing, "n_rows": 10},
             "cpu_scaled_s": 10.0}]
    lines = bench.markdown_table({"rows": rows}).splitlines()
    assert "ours/Captum 1.25 ≤ 1.2: FAIL" in lines[2]
    assert "CPU/device 10.00 ≥ 10: pass" in lines[3]


def test_agreement_measures(bench):
    assert bench.relative_max_diff([1.0, 2.0], [1.0, 4.0]) == 0.5
    assert bench.relative_max_diff([0.0, 1e-3], [0.0, 0.0]) == 1e-3
    agree = bench.mean_agreement(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.0]))
    assert agree["rel_mean_abs_diff"] == pytest.approx(0.5)  # |2 - 4| / 4
    assert agree["corr"] == pytest.approx(1.0)
    agree = bench.mean_agreement(-np.eye(2), np.eye(2))  # every entry, not the mean map
    assert agree["rel_mean_abs_diff"] == 0.0
    assert agree["corr"] == pytest.approx(-1.0)
    assert math.isnan(bench.mean_agreement([1.0, 2.0], [2.0, 1.0])["corr"])  # 2 entries


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_cpu_twin_of_a_cuda_net(bench):
    from sklearn_xai.models import TetrominoNetClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(32, 64)).astype(np.float32)
    y = np.arange(32) % 2
    net = TetrominoNetClassifier(architecture="cnn", image_size=8, max_epochs=1,
                                 random_state=0, device="cuda").fit(X, y)
    twin = bench.cpu_twin(net)
    assert next(twin.module_.parameters()).device.type == "cpu"
    assert next(net.module_.parameters()).device.type == "cuda"
    np.testing.assert_allclose(twin.predict_proba(X), net.predict_proba(X), atol=1e-4)
