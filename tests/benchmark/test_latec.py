"""LATEC's released scores and saliency maps read into our results.

Fixtures are written here exactly as LATEC's code writes them: per model,
``np.array`` over methods of ``np.hstack`` over chunks of the metrics'
``(n_metrics, chunk)`` scores (``main_eval.py``), saved with
``np.savez(file, *per_model)``; maps as ``np.vstack`` over chunks of
``(chunk, n_methods, *shape)`` (``main_explain.py``).  The orientation is
checked against LATEC's ``main_rank.py`` list of larger-is-better metric
indices, and the decisions against mean ranks computed directly.
"""

import numpy as np
import pytest
from scipy.stats import rankdata

from sklearn_xai.benchmark import (
    LATEC_METHODS,
    LATEC_METRICS,
    load_latec_saliency_maps,
    load_latec_scores,
    write_report,
)

# main_rank.py: ``bup_order = [0, 1, 2, 4, 5, 7, 9, 12, 17]``.
LATEC_LARGER_IS_BETTER = [0, 1, 2, 4, 5, 7, 9, 12, 17]


def _latec_scores(rng, n_methods, n_obs=12, chunk=5):
    """One model's array as main_eval.py builds it."""
    per_method = []
    for _ in range(n_methods):
        chunks = [rng.normal(size=(20, min(chunk, n_obs - start)))
                  for start in range(0, n_obs, chunk)]
        per_method.append(np.hstack(chunks))
    return np.array(per_method)


@pytest.fixture
def scores_file(tmp_path):
    rng = np.random.default_rng(0)
    arrays = [_latec_scores(rng, 14), _latec_scores(rng, 14), _latec_scores(rng, 17)]
    arrays[1][3, 5, 2] = np.nan  # a missing score
    path = tmp_path / "eval_scores_imagenet.npz"
    np.savez(path, *arrays)
    return path, arrays


def test_table_and_per_row_equal_the_file(scores_file):
    path, arrays = scores_file
    results = load_latec_scores(path)
    table = results.table
    assert set(table["dataset"]) == {"imagenet"}
    assert len(table) == (14 + 14 + 17) * 20
    models = ["resnet50", "efficientnet_b0", "deit_small"]
    for k, model in enumerate(models):
        for i in (0, 6, arrays[k].shape[0] - 1):
            for j in (0, 5, 12, 19):
                row = table[(table["model"] == model)
                            & (table["explainer"] == LATEC_METHODS[i])
                            & (table["metric"] == LATEC_METRICS[j][0])]
                values = arrays[k][i, j]
                assert row["value"].iloc[0] == pytest.approx(np.nanmean(values))
                assert bool(row["greater_is_better"].iloc[0]) == \
                    (j in LATEC_LARGER_IS_BETTER)
                per_row = results.per_row[
                    (results.per_row["model"] == model)
                    & (results.per_row["explainer"] == LATEC_METHODS[i])
                    & (results.per_row["metric"] == LATEC_METRICS[j][0])]
                np.testing.assert_array_equal(per_row["value"].to_numpy(), values)
    nan_row = table[(table["model"] == "efficientnet_b0")
                    & (table["explainer"] == LATEC_METHODS[3])
                    & (table["metric"] == LATEC_METRICS[5][0])]
    assert nan_row["n_nan"].iloc[0] == 1 and nan_row["n_rows"].iloc[0] == 11
    # Only the transformer has the attention methods.
    assert set(table.loc[table["model"] == "resnet50", "explainer"]) == \
        set(LATEC_METHODS[:14])
    assert "attention_rollout" in set(table.loc[table["model"] == "deit_small", "explainer"])


def test_decisions_equal_direct_mean_ranks(scores_file):
    path, arrays = scores_file
    results = load_latec_scores(path)
    summary = results.decisions()
    for k, model in enumerate(["resnet50", "efficientnet_b0", "deit_small"]):
        n = arrays[k].shape[0]
        ranks = np.zeros(n)
        for j, (_, greater) in enumerate(LATEC_METRICS):
            means = np.nanmean(arrays[k][:, j], axis=1)
            ranks += rankdata(-means if greater else means)
        ranks /= len(LATEC_METRICS)
        got = summary[summary["model"] == model].set_index("explainer")["mean_rank"]
        expected = dict(zip(LATEC_METHODS[:n], ranks))
        for method, value in expected.items():
            assert got[method] == pytest.approx(value), (model, method)


@pytest.mark.slow
def test_report_renders_released_scores(scores_file, tmp_path):
    # The report on released scores (no control, no spec of ours): 11 CPU-s
    # of decision tables and diagrams for 45 explainers x 20 metrics.
    path, _ = scores_file
    write_report(load_latec_scores(path), tmp_path / "report", figures=False)
    html = (tmp_path / "report" / "report.html").read_text()
    assert "attention_rollout" in html and "deit_small" in html


def test_saliency_maps_flattened_row_major(tmp_path):
    rng = np.random.default_rng(1)
    # main_explain.py: vstack over chunks of (chunk, n_methods, C, H, W).
    arrays = [np.vstack([rng.normal(size=(3, m, 3, 4, 5)) for _ in range(2)])
              for m in (14, 14, 17)]
    path = tmp_path / "explain_ImageNetDataModule_14_methods_2024.npz"
    np.savez(path, *arrays)
    maps = load_latec_saliency_maps(path)
    assert maps["_shape"] == (3, 4, 5)
    np.testing.assert_array_equal(maps["deit_small"]["attention_lrp"],
                                  arrays[2][:, 16].reshape(6, 60))
    np.testing.assert_array_equal(maps["resnet50"]["occlusion"][2],
                                  arrays[0][2, 0].ravel())
    assert "attention" not in maps["efficientnet_b0"]


def test_hostile_and_foreign_files_are_refused(tmp_path):
    obj = tmp_path / "eval_scores_obj.npz"
    np.savez(obj, np.array([{"a": 1}], dtype=object), np.zeros((14, 20, 2)),
             np.zeros((17, 20, 2)))
    with pytest.raises(ValueError, match="without unpickling"):
        load_latec_scores(obj)
    names = tmp_path / "eval_scores_names.npz"
    np.savez(names, a=np.zeros((14, 20, 2)))
    with pytest.raises(ValueError, match="arr_0, arr_1 and arr_2"):
        load_latec_scores(names)
    shape = tmp_path / "eval_scores_shape.npz"
    np.savez(shape, np.zeros((14, 19, 2)), np.zeros((14, 20, 2)), np.zeros((17, 20, 2)))
    with pytest.raises(ValueError, match=r"\(n_methods, 20 metrics"):
        load_latec_scores(shape)
    methods = tmp_path / "eval_scores_methods.npz"
    np.savez(methods, np.zeros((15, 20, 2)), np.zeros((14, 20, 2)), np.zeros((17, 20, 2)))
    with pytest.raises(ValueError, match="15 methods"):
        load_latec_scores(methods)
    text = tmp_path / "eval_scores_text.npz"
    text.write_text("not a zip")
    with pytest.raises(ValueError, match="not a NumPy .npz"):
        load_latec_scores(text)
    ok = tmp_path / "eval_scores_ok.npz"
    np.savez(ok, np.zeros((14, 20, 2)), np.zeros((14, 20, 2)), np.zeros((17, 20, 2)))
    with pytest.raises(ValueError, match="over the bound"):
        load_latec_scores(ok, max_bytes=100)
    with pytest.raises(ValueError, match="modality must be one of"):
        load_latec_scores(ok, modality="audio")
    with pytest.raises(FileNotFoundError, match="released"):
        load_latec_scores(tmp_path / "missing.npz")
