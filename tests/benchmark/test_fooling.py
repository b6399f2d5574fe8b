"""The fooling test: Slack et al.'s (2020) qualitative result on correlated
Gaussian data with a sensitive column."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier

from sklearn_xai.benchmark import fooling_test
from sklearn_xai.benchmark._fooling import _sensitive_rank
from sklearn_xai.datasets import make_gaussian_linear
from sklearn_xai.explainers import KernelSHAP, LimeTabular
from sklearn_xai.masking import (
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
    MarginalMasker,
)


def _data(n_samples, seed):
    """rho = 0.8 Gaussian, label = the sign of feature 0 (the sensitive one)."""
    data = make_gaussian_linear(n_samples=n_samples, n_features=4,
                                weights=[1.0, 0.0, 0.0, 0.0], rho=0.8,
                                task="classification", random_state=seed)
    return data.data, data.target


def _check_paper_result(res):
    top1 = res.pivot("top1")
    scaffolded, biased = top1["scaffolded"], top1["biased"]
    lime = ("lime", "own_sampling")
    marginal = ("kernel_shap", "marginal")
    # Unscaffolded, the biased model's feature is found in (nearly) every row.
    assert biased[lime] >= 0.95 and biased[marginal] >= 0.95
    # LIME and marginal KernelSHAP are fooled...
    assert scaffolded[lime] < 0.2
    assert scaffolded[marginal] < 0.2
    # ... and point at the innocuous feature instead.
    innocuous = res.pivot("innocuous_top1")["scaffolded"]
    assert innocuous[lime] > 0.6 and innocuous[marginal] > 0.6
    # Perturbations that look like data are fooled less.
    for masker in ("conditional", "on_manifold"):
        assert scaffolded["kernel_shap", masker] > scaffolded[marginal] + 0.1
    # The scaffold stays the biased model on most real rows.
    assert (res.table.query("model == 'scaffolded'")["fidelity"] > 0.5).all()


def test_fooling_paper_result_small():
    X, y = _data(500, 0)
    seed = 0
    res = fooling_test(
        X, y, n_explain=40, n_explained=40,
        explainers={"lime": LimeTabular(n_perturbations=100, random_state=seed),
                    "kernel_shap": KernelSHAP(n_perturbations=32, random_state=seed)},
        maskers={"marginal": MarginalMasker(30, random_state=seed),
                 "conditional": GaussianConditionalMasker(n_draws=10),
                 "on_manifold": EmpiricalConditionalMasker(max_background=60,
                                                           random_state=seed)},
        detector=RandomForestClassifier(30, random_state=seed), random_state=seed)
    assert len(res.table) == 8
    assert set(res.scaffolds) == {("lime", "own_sampling"), ("kernel_shap", "marginal"),
                                  ("kernel_shap", "conditional"),
                                  ("kernel_shap", "on_manifold")}
    _check_paper_result(res)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fooling_paper_result_defaults(seed):
    X, y = _data(1000, seed)
    _check_paper_result(fooling_test(X, y, random_state=seed))


def test_sensitive_rank_direct():
    A = np.array([[3.0, -1.0, 0.5],
                  [0.1, -2.0, 0.5],
                  [1.0, 1.0, 0.0],   # a tie counts against the feature
                  [0.0, 0.0, 0.0]])  # all equal: last
    np.testing.assert_array_equal(_sensitive_rank(A, 0), [1, 3, 2, 3])
    np.testing.assert_array_equal(_sensitive_rank(A, 1), [2, 1, 2, 3])


def test_fooling_test_input_errors():
    X, y = _data(60, 0)
    with pytest.raises(ValueError, match="sensitive_feature=7"):
        fooling_test(X, y, sensitive_feature=7)
    with pytest.raises(ValueError, match="same column"):
        fooling_test(X, y, sensitive_feature=1, innocuous_feature=1)
    with pytest.raises(ValueError, match="two classes"):
        fooling_test(X, np.arange(60) % 3)


def test_fooling_preset_builds_matched_scaffolds():
    from sklearn_xai.benchmark import get_preset
    from sklearn_xai.compose import ScaffoldedClassifier

    spec = get_preset("fooling_quick")
    assert spec.metrics["sensitive_top1"]["params"] == {"k": 1}
    scaffolds = {label[len("scaffold_"):]: spec.models[label]["name"]
                 for label in spec.models if label.startswith("scaffold_")}
    assert set(scaffolds) == set(spec.explainers) - {"random"}
    for label, scaffold in scaffolds.items():
        assert isinstance(scaffold, ScaffoldedClassifier)
        # Each scaffold's detector learns the perturbations of its explainer.
        explainer = spec.explainers[label]
        assert type(scaffold.perturbation).__name__ == explainer["name"]
        masker = explainer["params"].get("masker")
        if masker is not None:
            assert type(scaffold.perturbation.masker).__name__ == masker["name"]
    # The innocuous model is the fixed function 1[x_1 > 0].
    innocuous = scaffold.innocuous_estimator
    Z = np.array([[5.0, -0.1, 0.0, 0.0], [-5.0, 0.1, 0.0, 0.0]])
    np.testing.assert_array_equal(innocuous.predict(Z), [0, 1])


@pytest.mark.slow
def test_fooling_preset_quick_run():
    """The matched cells of the quick preset (20 rows, one seed: noisier
    than fooling_test's, so the marginal masker is compared, not bounded)."""
    from sklearn_xai.benchmark import get_preset, run_benchmark

    table = run_benchmark(get_preset("fooling_quick"), n_jobs=1).table
    top1 = table.pivot_table(index="model", columns="explainer", values="value")
    assert top1.loc["biased", ["lime", "kernel_shap_marginal",
                               "kernel_shap_on_manifold"]].min() >= 0.95
    assert top1.loc["scaffold_lime", "lime"] < 0.2
    marginal = top1.loc["scaffold_kernel_shap_marginal", "kernel_shap_marginal"]
    for masker in ("conditional", "on_manifold"):
        label = f"kernel_shap_{masker}"
        assert top1.loc[f"scaffold_{label}", label] > marginal + 0.1
