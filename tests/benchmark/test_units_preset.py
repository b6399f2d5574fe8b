"""The unit_tests preset and its pass/fail matrix: the cells the literature
settles, asserted on the quick variant (a few seconds)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.frozen import FrozenEstimator

from sklearn_xai.benchmark import (
    EXPECTED_OUTCOMES,
    format_unit_test_matrix,
    get_preset,
    run_benchmark,
    unit_test_matrix,
    unit_test_matrix_rst,
    unit_test_summary,
)
from sklearn_xai.benchmark import unit_test_passes
from sklearn_xai.datasets import make_unit_test
from sklearn_xai.models import UNITS


@pytest.fixture(scope="module")
def quick_results():
    with warnings.catch_warnings():
        # All-zero explanations (saliency on the saturated unit) warn that
        # their cosine is undefined; the preset scores them 0.
        warnings.simplefilter("ignore")
        return run_benchmark(get_preset("unit_tests", quick=True), n_jobs=1)


def test_quick_matrix_known_cells(quick_results):
    table = quick_results.table
    assert (table["status"] == "ok").all(), table["error"].unique()
    m = unit_test_matrix(quick_results)
    assert list(m.columns) == list(UNITS)
    assert set(m.index) == {"random", "saliency", "integrated_gradients", "occlusion",
                            "exact_shapley"}
    # The control fails everything.
    assert (m.loc["random"] == "fail").all()
    # Saliency fails saturation (zero gradient) and shattered gradients.
    assert m.loc["saliency", "saturation"] == "fail"
    assert m.loc["saliency", "shattered_gradients"] == "fail"
    # Integrated gradients: completeness sees the saturated rise; equal to
    # the Shapley value on additive and bilinear units; not on min / max.
    for unit in ("saturation", "cancellation", "product", "shattered_gradients"):
        assert m.loc["integrated_gradients", unit] == "pass", unit
    assert m.loc["integrated_gradients", "boolean_and"] == "fail"
    # Occlusion misses a redundant (saturated) input.
    assert m.loc["occlusion", "saturation"] == "fail"
    # Exact Shapley values at the zero reference are the ground truth except
    # for the pertinent negative (another reference) and the suppressor.
    shapley = m.loc["exact_shapley"]
    assert (shapley.drop(["pertinent_negative", "suppressor"]) == "pass").all()
    assert shapley["pertinent_negative"] == "fail" and shapley["suppressor"] == "fail"
    fraction = m.attrs["fraction"]
    assert fraction.loc["exact_shapley", "saturation"] == 1.0
    assert fraction.loc["saliency", "saturation"] == 0.0


def test_matrix_agrees_with_the_pass_rule_computed_directly(quick_results):
    """The runner's per-row cosine and unit_test_passes on the explanations
    computed here give the same cells."""
    from sklearn_xai.benchmark import resolve_component

    m = unit_test_matrix(quick_results)
    spec = get_preset("unit_tests", quick=True)
    for unit in ("saturation", "boolean_or"):
        data = make_unit_test(unit, 40, random_state=0)
        # The runner's split (seed 0, test_size 0.25, every held-out row).
        from sklearn.model_selection import train_test_split

        train, test = train_test_split(np.arange(40), test_size=0.25, random_state=0)
        for label in ("saliency", "exact_shapley", "integrated_gradients"):
            explainer = resolve_component(spec.explainers[label], "explainer", seed=0)
            explainer.set_params(estimator=FrozenEstimator(data.model))
            A = explainer.fit(data.data[train], data.target[train]).transform(data.data[test])
            passed, _ = unit_test_passes(data.ground_truth[test], A)
            assert m.loc[label, unit] == ("pass" if passed else "fail"), (label, unit)


def test_integrated_gradients_on_saturation_closed_form():
    """IG from zero on min(relu(x1 + x2), 1): x_j / (x1 + x2) (the path
    leaves the linear part at t = 1 / (x1 + x2)); Captum run directly."""
    from captum.attr import IntegratedGradients
    import torch

    data = make_unit_test("saturation", 20, random_state=0)
    X = torch.as_tensor(data.data)
    ig = IntegratedGradients(lambda Z: data.model.module_(Z)[:, 0])
    A = ig.attribute(X, baselines=torch.zeros_like(X), n_steps=400).numpy()
    np.testing.assert_allclose(A, data.data / data.data.sum(1, keepdims=True), atol=5e-3)
    assert unit_test_passes(data.ground_truth, A)[0]


def test_cli_summary_prints_the_matrix(quick_results):
    lines = unit_test_summary(quick_results)
    assert lines[0].startswith("Known-behaviour units (pass: cosine")
    assert "saturation" in lines[1] and any(line.split()[0] == "random" for line in lines[2:])
    other = type("R", (), {"spec": {"datasets": {"d": {"name": "make_synthgauss"}},
                                    "metrics": {}},
                           "table": pd.DataFrame(), "per_row": pd.DataFrame()})()
    assert unit_test_summary(other) == []


def test_rst_marks_agreement_with_the_literature():
    m = pd.DataFrame([["fail", "pass"], ["pass", "n/a"]], index=["saliency", "random"],
                     columns=["saturation", "product"])
    rst = unit_test_matrix_rst(m)
    assert "   * - saliency\n     - fail ✓\n     - pass ✗" in rst
    assert "   * - random\n     - pass ✗\n     - n/a\n" in rst
    assert ".. [STY17] M. Sundararajan" in rst
    assert EXPECTED_OUTCOMES[("saliency", "saturation")][0] == "fail"
    text = format_unit_test_matrix(m)
    assert text.splitlines()[1].split() == ["saliency", "fail", "pass"]


def test_explainer_without_a_rule_is_not_applicable():
    """LRP has no rule for the product's multiplication: the cell is n/a,
    not a failure of the unit."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = run_benchmark({
            "datasets": {u: {"name": "make_unit_test", "params": {"unit": u, "n_samples": 20}}
                         for u in ("product", "saturation")},
            "models": {"hand_weighted": {"name": "HandWeightedModel",
                                         "params": {"unit": "@unit"}}},
            "explainers": {"lrp": "LRP"},
            "metrics": {"cosine_similarity": {"name": "cosine_similarity",
                                              "nan_policy": "zero"}},
            "seeds": [0], "n_explain": None,
        }, n_jobs=1)
    m = unit_test_matrix(results)
    assert m.loc["lrp", "product"] == "n/a" and m.loc["lrp", "saturation"] == "pass"
    assert np.isnan(m.attrs["fraction"].loc["lrp", "product"])


@pytest.mark.slow  # the report (leaderboard tests, HTML) takes ~40 s
def test_command_line_prints_the_matrix(tmp_path, capsys):
    from sklearn_xai.benchmark._cli import main

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = main(["run", "unit_tests_quick", "--out", str(tmp_path / "out"),
                       "--no-figures", "--quiet"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Known-behaviour units (pass: cosine with the ground truth >= 0.9" in out
    row = next(line for line in out.splitlines() if line.split()[:1] == ["exact_shapley"]
               and "pass" in line)
    assert row.split()[1:] == ["pass"] * 4 + ["fail", "pass", "pass", "pass", "pass", "fail"]
