"""XAI-TRIS presets: the published protocol (first 2000 test images, true
class, images every model of the scenario classifies correctly, the LLR in
the linear scenario only), the 64 x 64 benchmark with natural backgrounds,
and their quick variants end to end."""

import numpy as np
import pytest

from sklearn_xai.benchmark import get_preset, run_benchmark
from sklearn_xai.benchmark._preset_names import SHIPPED_PRESETS, WITH_QUICK_VARIANT


@pytest.mark.parametrize("name, size, backgrounds", [
    ("xaitris_8x8", 8, {"white", "correlated"}),
    ("xaitris_64x64", 64, {"white", "correlated", "natural"}),
])
def test_presets_follow_the_xai_tris_protocol(name, size, backgrounds):
    assert SHIPPED_PRESETS[name] == "xaitris" and name in WITH_QUICK_VARIANT
    spec = get_preset(name)
    assert spec.n_explain == 2000 and set(spec.models) == {"llr", "mlp", "cnn"}
    assert {ds["params"]["background"] for ds in spec.datasets.values()} == backgrounds
    assert {ds["params"]["image_size"] for ds in spec.datasets.values()} == {size}
    assert len(spec.datasets) == 4 * len(backgrounds)
    for label, ds in spec.datasets.items():
        rows = spec.explained_rows(label)
        assert rows["target"] == "true"
        expected = ["llr", "mlp", "cnn"] if ds["params"]["scenario"] == "linear" \
            else ["mlp", "cnn"]
        assert rows["correct_by"] == expected, label
    for model in spec.models.values():
        assert model["params"]["image_size"] == size
        assert model["params"]["max_epochs"] == 500
    # xai/methods.py: Captum's KernelShap and ShapleyValueSampling with their
    # defaults (25 coalitions, 25 independent permutations; one at 64 x 64).
    assert spec.explainers["kernel_shap"] == {
        "name": "CaptumKernelSHAP", "params": {"n_perturbations": 25}}
    svs = spec.explainers["svs"]["params"]
    assert (svs["n_permutations"], svs["antithetic"]) == (25 if size == 8 else 1, False)


@pytest.mark.parametrize("name, n_datasets", [("xaitris_8x8", 1), ("xaitris_64x64", 3)])
def test_quick_variants_run_with_the_filter(name, n_datasets):
    results = run_benchmark(name + "_quick")
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].unique()
    assert table["dataset"].nunique() == n_datasets
    spec = get_preset(name, quick=True)
    for label in spec.datasets:
        assert spec.explained_rows(label) == {"correct_by": ["mlp"], "target": "true"}
        # every test image at most, only those the MLP classifies correctly
        n_test = 20 if name == "xaitris_8x8" else 10
        n_rows = table.loc[table["dataset"] == label, "n_rows"]
        assert n_rows.nunique() == 1 and 0 < n_rows.iloc[0] < n_test
    # mask precision and EMD are within their ranges
    values = table.set_index("metric")["value"]
    assert values.between(0, 1).all()


@pytest.mark.slow
def test_xai_tris_8x8_linear_white_full_protocol():
    """One dataset of the full preset (about 5 minutes on two cores): the
    scored images are those all three models classify correctly, and the
    gradient beats the random control on the MLP as XAI-TRIS reports."""
    spec = get_preset("xaitris_8x8")
    config = {"preset": "xaitris_8x8",
              "datasets": {d: None for d in spec.datasets if d != "linear_white"},
              "explainers": {e: None for e in spec.explainers
                             if e not in ("random", "gradient", "input")}}
    table = run_benchmark(config, n_jobs=2).table
    assert (table["status"] == "ok").all(), table["error"].unique()
    n_rows = table["n_rows"].unique()
    assert len(n_rows) == 1 and 0 < n_rows[0] <= 1000
    # at least every model's errors are excluded: n <= 1000 * min accuracy
    accuracy = table.groupby("model")["model_score"].first()
    assert n_rows[0] <= np.ceil(1000 * accuracy.min()) + 1
    precision = table[table["metric"] == "mask_precision"].set_index(["model", "explainer"])
    assert precision.loc[("mlp", "gradient"), "value"] > precision.loc[("mlp", "random"),
                                                                       "value"] + 0.3


def test_removing_a_model_from_the_preset_removes_it_from_the_filters():
    spec = get_preset("xaitris_8x8")
    extended = type(spec).from_dict({"preset": "xaitris_8x8",
                                     "models": {"llr": None, "cnn": None}})
    assert set(extended.models) == {"mlp"}
    for label in extended.datasets:
        assert extended.explained_rows(label) == {"correct_by": ["mlp"], "target": "true"}
    assert spec.explained_rows("linear_white")["correct_by"] == ["llr", "mlp", "cnn"]
