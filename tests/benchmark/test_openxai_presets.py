"""OpenXAI presets: the recorded settings, the quick run, the full run (slow)."""

import numpy as np
import pytest

from sklearn_xai.benchmark import get_preset, resolve_component, run_benchmark
from sklearn_xai.datasets import minmax_scaled


def _ok(table):
    return table[table["status"] == "ok"].set_index(
        ["dataset", "model", "explainer", "metric"])


def test_openxai_synthetic_uses_the_recorded_settings():
    spec = get_preset("openxai_synthetic")
    data = spec.datasets["synthetic"]
    assert data["name"] == "minmax_scaled"
    params = data["params"]
    # OpenXAI's data loader: 2500 rows per cluster, 10 clusters, distance 5,
    # sparsity 0.25, seed 564, rows in OpenXAI's order, one scaler per split.
    assert params["random_state"] == 564 and params["fit_on"] == "each_split"
    assert params["params"] == {"n_samples": 2500, "n_features": 20, "n_clusters": 10,
                                "cluster_distance": 5.0, "sparsity": 0.25,
                                "weight_range": [-1.0, 1.0], "test_size": 0.25,
                                "shuffle": False}
    assert spec.n_explain == 1000 and spec.seeds == [0]
    for model in spec.models.values():
        p = model["params"]
        assert (p["convention"], p["selection_data"], p["warmup"],
                p["mean_prediction_bound"], p["lr"], p["batch_size"], p["max_epochs"]) \
            == ("openxai_code", "@test_rows", 5, 0.4, 1e-3, 32, 100)
    # The runner explains test_indices[:n_explain]: OpenXAI's first 1000 test
    # rows, from clusters 0 and 1 only.
    bunch = minmax_scaled(**params)
    explained = bunch["test_indices"][:spec.n_explain]
    assert np.bincount(bunch["cluster"][explained]).tolist() == [623, 377]
    X_test = bunch["X"][bunch["test_indices"]]
    np.testing.assert_allclose(X_test.min(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(X_test.max(axis=0), 1.0, atol=1e-12)
    model = resolve_component(spec.models["lr"], "model", seed=0, context=bunch)
    assert model.selection_data is bunch["test_rows"]


def test_openxai_synthetic_quick_runs_end_to_end():
    table = run_benchmark("openxai_synthetic_quick", n_jobs=1).table
    errors = table[table["status"] == "error"]
    assert errors.empty, errors["error"].unique()
    skipped = table[table["status"] == "skipped"]
    assert set(skipped["model"]) == {"ann"} and skipped["metric"].str.endswith("_lr").all()
    t = _ok(table)["value"]
    # The gradient of a logistic model's logit is its coefficient vector.
    for explainer in ("grad", "ig", "sg"):
        assert t[("synthetic", "lr", explainer, "feature_agreement_lr")] == \
            pytest.approx(1.0)
    assert t[("synthetic", "lr", "random", "feature_agreement_lr")] < 0.9


# Published LR values of OpenXAI's Table 2 ("Synthetic") reproduced by the
# full preset within 0.03 (three published standard errors).
PUBLISHED_LR = {
    ("random", "feature_agreement_lr"): 0.155,
    ("grad", "feature_agreement_lr"): 1.000,
    ("itg", "feature_agreement_lr"): 0.555,
    ("itg", "sign_agreement_lr"): 0.555,
}


@pytest.mark.slow
def test_openxai_synthetic_lr_matches_published():
    # The full preset restricted to the LR, its reference metrics and the
    # explainers without sampling surrogates (about 3 minutes, n_jobs=1).
    spec = get_preset("openxai_synthetic").to_dict()
    spec["models"] = {"lr": spec["models"]["lr"]}
    spec["explainers"] = {k: spec["explainers"][k]
                          for k in ("random", "grad", "ig", "itg", "sg")}
    spec["metrics"] = {k: v for k, v in spec["metrics"].items() if k.endswith("_lr")}
    table = run_benchmark(spec, n_jobs=1).table
    assert table["model_score"].iloc[0] == pytest.approx(0.724, abs=0.01)
    t = _ok(table)["value"]
    for (explainer, metric), published in PUBLISHED_LR.items():
        assert t[("synthetic", "lr", explainer, metric)] == pytest.approx(
            published, abs=0.03), (explainer, metric)
