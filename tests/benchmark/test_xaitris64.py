"""The XAI-TRIS 64 x 64 protocol: the signal-strength calibration against a
direct loop, the preset's eight datasets x three architectures on a chosen
device, the comparison script's claims on hand-made tables, and (slow) a
reduced run of the protocol end to end."""

import importlib.util
import pathlib
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import SGDClassifier

from sklearn_xai.benchmark import calibrate_signal_strength, run_benchmark
from sklearn_xai.benchmark.presets.xaitris import xaitris_64x64
from sklearn_xai.datasets import make_tetrominoes


def _script():
    folder = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(
            "compare_xaitris64", folder / "compare_xaitris64.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


# ----------------------------------------------------------- calibration
def _direct_loop(alphas, n_models, target, seed):
    """XAI-TRIS' sweep written out: one data set per alpha, n_models models
    seeded seed + k, the first alpha whose mean test accuracy reaches target."""
    curve = []
    for alpha in sorted(alphas):
        data = make_tetrominoes(300, scenario="xor", image_size=8, alpha=alpha,
                                random_state=seed)
        X, y = data.data, data.target
        accs = []
        for k in range(n_models):
            model = SGDClassifier(max_iter=5, tol=None, random_state=seed + k)
            model.fit(X[data.train_indices], y[data.train_indices])
            accs.append(np.mean(model.predict(X[data.test_indices])
                                == y[data.test_indices]))
        curve.append(accs)
        if np.mean(accs) >= target:
            return alpha, np.array(curve)
    return None, np.array(curve)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_calibration_equals_a_direct_loop():
    alphas = [0.9, 0.05, 0.3]  # sorted by the helper
    # XOR is not linearly separable: a linear model never reaches 0.8, so the
    # whole grid runs; then a reachable target stops early.
    for target in (0.8, 0.5):
        expected_alpha, expected = _direct_loop(alphas, 3, target, seed=2)
        result = calibrate_signal_strength(
            "xor", architecture=SGDClassifier(max_iter=5, tol=None), image_size=8,
            n_samples=300, alphas=alphas, n_models=3, target_accuracy=target,
            random_state=2)
        assert result.alpha == expected_alpha
        np.testing.assert_allclose(result.accuracies, expected)
        np.testing.assert_allclose(result.mean_accuracy, expected.mean(axis=1))
        assert list(result.alphas) == sorted(alphas)[:len(expected)]
    assert expected_alpha is not None  # the second target stopped early


def test_calibration_trains_xai_tris_networks_on_the_device():
    # The architecture by name: XAI-TRIS' LLR on the given device, seeded
    # random_state + k, scored on the test rows (here one model, one epoch).
    from sklearn_xai.models import TetrominoNetClassifier

    result = calibrate_signal_strength(
        "linear", architecture="llr", image_size=8, n_samples=200, alphas=[0.9],
        n_models=1, model_params={"max_epochs": 1}, device="cpu", random_state=4)
    data = make_tetrominoes(200, image_size=8, alpha=0.9, random_state=4)
    model = TetrominoNetClassifier(architecture="llr", image_size=8, max_epochs=1,
                                   device="cpu", random_state=4)
    model.fit(data.data[data.train_indices], data.target[data.train_indices])
    expected = np.mean(model.predict(data.data[data.test_indices])
                       == data.target[data.test_indices])
    np.testing.assert_allclose(result.accuracies, [[expected]])


def test_calibration_checks_its_grid():
    with pytest.raises(ValueError, match="alphas must be signal strengths"):
        calibrate_signal_strength(architecture=SGDClassifier(), alphas=[0.0, 0.5],
                                  image_size=8, n_samples=100)


def test_device_auto_is_resolved_by_the_nets():
    """The preset is the same on every machine ("auto" reaches the nets,
    which resolve it when fitted); a misspelt device is refused at once."""
    spec = xaitris_64x64(backgrounds=("white", "correlated"))
    assert {m["params"]["device"] for m in spec.models.values()
            if "device" in m["params"]} == {"auto"}
    assert xaitris_64x64(device="cpu").models["cnn"]["params"]["device"] == "cpu"
    with pytest.raises(ValueError, match="device"):
        xaitris_64x64(device="gpu0")


# ---------------------------------------------------------------- preset
def test_eight_datasets_by_three_architectures():
    spec = xaitris_64x64(backgrounds=("white", "correlated"))
    assert set(spec.datasets) == {f"{s}_{b}" for s in ("linear", "multiplicative",
                                                        "rigid", "xor")
                                  for b in ("white", "correlated")}
    assert set(spec.models) == {"llr", "mlp", "cnn"}
    for ds in spec.datasets.values():
        assert ds["params"]["image_size"] == 64 and ds["params"]["n_samples"] == 40_000
    # The default adds the natural backgrounds; a folder of photographs
    # replaces scikit-image's on them only.
    spec = xaitris_64x64(background_images="/data/photos")
    assert len(spec.datasets) == 12
    for label, ds in spec.datasets.items():
        assert (ds["params"].get("background_images") == "/data/photos") \
            == label.endswith("_natural")
    with pytest.raises(ValueError, match="'imagenet' needs background_images"):
        xaitris_64x64(backgrounds=("imagenet",))
    with pytest.raises(ValueError, match="Unknown explainers"):
        xaitris_64x64(explainers=("gradcam_typo",))


# ---------------------------------------------------- comparison script
def _table(values):
    """A results table from {(dataset, model, explainer, metric): value}."""
    return pd.DataFrame([{"dataset": d, "model": m, "explainer": e, "metric": k,
                          "value": v, "status": "ok"}
                         for (d, m, e, k), v in values.items()])


def test_compare_counts_the_claims_by_hand():
    script = _script()
    methods = ("gradient", "ig", "lime")
    values = {}
    for s in ("rigid", "xor"):
        for m in ("mlp", "cnn"):
            for i, e in enumerate(methods):
                # CORR below WHITE for two methods of three (holds), except
                # on XOR / MLP where only one method is (does not hold).
                corr_lower = i < (1 if (s, m) == ("xor", "mlp") else 2)
                values[(f"{s}_white", m, e, "emd_score")] = 0.6
                values[(f"{s}_correlated", m, e, "emd_score")] = 0.5 if corr_lower else 0.7
                # the CNN above the MLP on RIGID
                if s == "rigid" and m == "cnn":
                    values[(f"{s}_white", m, e, "emd_score")] = 0.65
            # Laplace beaten by no method, by all three on XOR / CNN.
            values[(f"{s}_correlated", m, "laplace", "emd_score")] = \
                0.45 if (s, m) == ("xor", "cnn") else 0.9
            values[(f"{s}_white", m, "laplace", "emd_score")] = 0.9
    text, within, total = script.compare(_table(values))
    # claim 1: 4 cells, 3 hold; claim 2: 4 cells, 3 hold; claim 3: RIGID on
    # WHITE (CNN 0.65 > MLP 0.6) holds, on CORR (CNN 0.5 = MLP 0.5) does not.
    assert (within, total) == (7, 10)
    assert "✗ xor mlp emd_score (1/3)" in text
    assert "✗ xor cnn emd_score (beaten by 3)" in text
    assert "7 of 10 cells within the rule" in text


def test_compare_puts_calibrated_alphas_beside_table_1():
    script = _script()
    # Table 1 (XAI-TRIS configuration): LIN WHITE 0.03, XOR CORR 0.03.
    assert script.published_alpha("linear", "white") == 0.03
    calib = pd.DataFrame([
        {"scenario": "linear", "background": "white", "architecture": "llr", "alpha": 0.035},
        {"scenario": "linear", "background": "white", "architecture": "mlp", "alpha": 0.02},
        {"scenario": "xor", "background": "correlated", "architecture": "llr",
         "alpha": 0.9},  # the LLR does not count outside LIN
        {"scenario": "xor", "background": "correlated", "architecture": "cnn",
         "alpha": 0.06},
    ])
    rows = {(s, b): (ours, hit) for s, b, ours, _, hit in script.alpha_rows(calib)}
    assert rows[("linear", "white")] == (0.035, True)   # 0.035 / 0.03 < 1.26
    assert rows[("xor", "correlated")] == (0.06, False)  # twice 0.03


# ------------------------------------------------------- reduced protocol
@pytest.mark.slow
def test_reduced_protocol_end_to_end():
    """The eight datasets x three architectures in miniature (400 images,
    3 epochs, three explainers, EMD on 8 x 8 blocks; minutes on a CPU, on
    the GPU when there is one), then the comparison script on its table."""
    spec = xaitris_64x64(backgrounds=("white", "correlated"), n_samples=400,
                         max_epochs=3, explainers=("random", "gradient", "laplace"),
                         emd_coarsen=8)
    table = run_benchmark(spec, n_jobs=1).table
    assert (table["status"] == "ok").all(), table["error"].unique()
    assert table["dataset"].nunique() == 8
    assert set(table["model"]) == {"llr", "mlp", "cnn"}
    assert table["value"].between(0, 1).all()
    text, within, total = _script().compare(table)
    assert total > 0 and 0 <= within <= total
    assert f"{within} of {total} cells within the rule" in text
