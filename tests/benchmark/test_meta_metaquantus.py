"""MetaQuantus's protocol in ``meta_evaluate``: its criteria against direct
computations on hand-built score arrays (and against MetaQuantus's own
functions when it is importable), the model-parameter noise, the extra
disruptive tests, and the shared small case against the numbers MetaQuantus
gave on it (``tests/benchmark/data/metaquantus_shared_case.json``, written by
``benchmarks/bench_meta.py --metaquantus``)."""

import json
import os

import sys

import numpy as np
import pytest
from scipy import stats

from sklearn_xai.benchmark import meta_evaluate
from sklearn_xai.benchmark._meta import (
    _iac,
    _iec_adversary,
    _iec_resilience,
    _mc_criteria,
    _scale_parameters,
)

FIXTURE = os.path.join(os.path.dirname(__file__), "data", "metaquantus_shared_case.json")


def _arrays(seed=0, K=3, N=15, M=4):
    """Continuous scores (no ties, no zero differences), perturbed copies
    and kept rows."""
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(K, N)) + np.arange(K)[:, None]
    Q_hat = Q[None] + rng.normal(0, 0.7, size=(M, K, N))
    mask = rng.random((M, N)) < 0.8
    return Q, Q_hat, mask


def _direct_iac(Q, Q_hat, mask, adversary):
    values = []
    for m in range(Q_hat.shape[0]):
        for k in range(Q.shape[0]):
            p = stats.wilcoxon(Q[k][mask[m]], Q_hat[m, k][mask[m]], zero_method="zsplit",
                               alternative="two-sided").pvalue
            values.append(1 - p if adversary else p)
    return np.mean(values)


def _ranking(column):
    """Explainer indices by increasing score (ties by index)."""
    return sorted(range(len(column)), key=lambda k: (column[k], k))


def _direct_iec_nr(Q, Q_hat, mask):
    per_perturbation = []
    for m in range(Q_hat.shape[0]):
        same = [a == b for n in np.flatnonzero(mask[m])
                for a, b in zip(_ranking(Q[:, n]), _ranking(Q_hat[m, :, n]))]
        per_perturbation.append(np.mean(same))
    return np.mean(per_perturbation)


def _direct_iec_ar(Q, Q_hat, mask, greater_is_better):
    per_perturbation = []
    for m in range(Q_hat.shape[0]):
        worse = [(Q[k, n] > Q_hat[m, k, n]) if greater_is_better else (Q[k, n] < Q_hat[m, k, n])
                 for k in range(Q.shape[0]) for n in np.flatnonzero(mask[m])]
        per_perturbation.append(np.mean(worse))
    return np.mean(per_perturbation)


def test_criteria_match_a_direct_computation():
    Q, Q_hat, mask = _arrays()
    assert _iac(Q, Q_hat, mask, False) == pytest.approx(_direct_iac(Q, Q_hat, mask, False))
    assert _iac(Q, Q_hat, mask, True) == pytest.approx(_direct_iac(Q, Q_hat, mask, True))
    assert _iec_resilience(Q, Q_hat, mask) == pytest.approx(_direct_iec_nr(Q, Q_hat, mask))
    assert _iec_adversary(Q, Q_hat, mask) == pytest.approx(_direct_iec_ar(Q, Q_hat, mask, True))


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_mc_score_is_the_mean_of_the_four_criteria_per_type(greater_is_better):
    Q, minor, mask_nr = _arrays(1)
    _, disrupted, mask_ar = _arrays(2)
    disrupted = disrupted - 1.0  # disruption lowers the raw scores
    # _mc_criteria takes oriented scores (greater is better).
    sign = 1 if greater_is_better else -1
    tests = {("model", "minor"): (sign * minor, mask_nr),
             ("model", "model_noise"): (sign * disrupted, mask_ar),
             ("input", "minor"): (sign * minor[:2], mask_nr[:2]),
             ("input", "input_noise"): (sign * disrupted[1:], mask_ar[1:])}
    columns, per_type = _mc_criteria(sign * Q, tests, greater_is_better)
    expected = {}
    for kind, (m_nr, m_ar) in {"model": (slice(None), slice(None)),
                               "input": (slice(0, 2), slice(1, None))}.items():
        crit = {"iac_nr": _direct_iac(Q, minor[m_nr], mask_nr[m_nr], False),
                "iac_ar": _direct_iac(Q, disrupted[m_ar], mask_ar[m_ar], True),
                "iec_nr": _direct_iec_nr(Q, minor[m_nr], mask_nr[m_nr]),
                "iec_ar": _direct_iec_ar(Q, disrupted[m_ar], mask_ar[m_ar],
                                         greater_is_better)}
        crit["mc"] = np.mean(list(crit.values()))
        expected[kind] = crit
        assert per_type[kind] == pytest.approx(crit)
    assert columns["mc_score"] == pytest.approx(np.mean([e["mc"] for e in expected.values()]))
    assert columns["reactivity_iec"] == pytest.approx(
        np.mean([e["iec_ar"] for e in expected.values()]))
    # Lower raw scores are worse when greater is better, better otherwise.
    assert (per_type["model"]["iec_ar"] > 0.5) == greater_is_better


def test_criteria_by_hand():
    # Two explainers, two rows.  Row 0 swaps the explainers' order, row 1
    # keeps it: half of the (row, position) pairs agree.
    Q = np.array([[1.0, 5.0], [2.0, 4.0]])
    Q_hat = np.array([[[3.0, 5.0], [2.0, 4.0]]])
    keep = np.ones((1, 2), dtype=bool)
    assert _iec_resilience(Q, Q_hat, keep) == 0.5
    # Only row 1 kept: the order is the same.
    assert _iec_resilience(Q, Q_hat, np.array([[False, True]])) == 1.0
    # Worse perturbed scores: only explainer 0 of row 0 changed, and got better.
    assert _iec_adversary(Q, Q_hat, keep) == 0.0
    assert _iec_adversary(Q, Q[None] - 1, keep) == 1.0
    # Q_hat - 1: explainer 0 of row 0 went from 1 to 2 (better), the other three worse.
    assert _iec_adversary(Q, Q_hat - 1, keep) == 0.75
    # No row kept: undefined, not 0.
    assert np.isnan(_iec_resilience(Q, Q_hat, np.zeros((1, 2), dtype=bool)))
    # Identical scores: Wilcoxon p-value 1 (MetaQuantus's zsplit test).
    assert _iac(Q, Q[None], keep, False) == 1.0 and _iac(Q, Q[None], keep, True) == 0.0


@pytest.fixture
def metaquantus(monkeypatch):
    """MetaQuantus's ``MetaEvaluation``, the peer these criteria are checked
    against; it is not a dependency (``pip install --no-deps metaquantus``
    beside our torch pin), so CI skips this check and keeps the hand and
    direct computations above."""
    import importlib.util

    if importlib.util.find_spec("metaquantus") is None:
        pytest.skip("MetaQuantus is not installed (pip install --no-deps "
                    "metaquantus==0.0.5): the peer check runs where it is")
    # MetaQuantus 0.0.5 imports torchvision for its image presets only, and
    # Quantus's np.trapz, removed in numpy 2: both patched for this test only.
    import types

    monkeypatch.setitem(sys.modules, "torchvision", types.ModuleType("torchvision"))
    if not hasattr(np, "trapz"):
        monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    from metaquantus import MetaEvaluation

    return MetaEvaluation


def test_criteria_equal_metaquantus_functions(metaquantus):
    MetaEvaluation = metaquantus
    Q, Q_hat, mask = _arrays(3)
    for adversary, name in ((False, "Resilience"), (True, "Adversary")):
        theirs = np.mean([MetaEvaluation.compute_iac_score(
            q=Q[k], q_hat=Q_hat[m, k], indices=mask[m], test_name=f"Model {name} Test")
            for m in range(len(Q_hat)) for k in range(len(Q))])
        assert _iac(Q, Q_hat, mask, adversary) == pytest.approx(theirs, abs=1e-12)
    theirs = np.mean([MetaEvaluation.compute_iec_resilience(Q, Q_hat[m], mask[m])
                      for m in range(len(Q_hat))])
    assert _iec_resilience(Q, Q_hat, mask) == pytest.approx(theirs, abs=1e-12)
    # score_direction=None: "unperturbed greater" counts (greater is better).
    theirs = np.mean([MetaEvaluation.compute_iec_adversary(Q, Q_hat[m], mask[m], None)
                      for m in range(len(Q_hat))])
    assert _iec_adversary(Q, Q_hat, mask) == pytest.approx(theirs, abs=1e-12)


def test_model_parameters_are_scaled_by_their_own_normal_draws():
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    noisy = _scale_parameters(model, 0.5, np.random.default_rng(7))
    draws = np.random.default_rng(7)
    final, new = model[-1], noisy[-1]
    np.testing.assert_allclose(new.coef_, final.coef_ * draws.normal(1, 0.5, (1, 3)))
    np.testing.assert_allclose(new.intercept_, final.intercept_ * draws.normal(1, 0.5, 1))
    assert noisy[-1] is not final and model[-1].coef_ is final.coef_  # a copy

    mlp = MLPRegressor(hidden_layer_sizes=(4,), max_iter=50, random_state=0).fit(X, X[:, 0])
    noisy = _scale_parameters(mlp, 0.1, np.random.default_rng(1))
    draws = np.random.default_rng(1)
    for old, new in zip(mlp.coefs_, noisy.coefs_, strict=True):
        np.testing.assert_allclose(new, old * draws.normal(1, 0.1, old.shape))
    for old, new in zip(mlp.intercepts_, noisy.intercepts_, strict=True):
        np.testing.assert_allclose(new, old * draws.normal(1, 0.1, old.shape))


def test_torch_parameters_are_scaled():
    import torch

    class Net:
        pass

    net = Net()
    net.module_ = torch.nn.Linear(3, 2)
    noisy = _scale_parameters(net, 0.2, np.random.default_rng(0))
    for old, new in zip(net.module_.parameters(), noisy.module_.parameters(), strict=True):
        ratio = (new / old).detach().numpy()
        assert not np.allclose(ratio, 1.0)
        assert np.all(np.abs(ratio - 1) < 6 * 0.2)  # N(1, 0.2) draws
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier().fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(Exception, match="disruptive=\\('input_noise',\\)"):
        _scale_parameters(tree, 0.1, np.random.default_rng(0))


MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}


def test_randomised_model_and_shuffled_labels_are_disruptive_model_tests():
    config = {
        "dataset": {"name": "sklearn.datasets.make_classification",
                    "params": {"n_samples": 200, "n_features": 4, "n_informative": 3,
                               "n_redundant": 0, "random_state": 0}},
        "models": {"lr": "logistic_regression"},
        "explainers": {"ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}},
                       "occlusion": {"name": "FeatureAblation",
                                     "params": {"masker": {"name": "BaselineMasker",
                                                           "params": {"value": 0.0}}}}},
        "metrics": {"comprehensiveness": {"name": "comprehensiveness",
                                          "params": {"masker": MEAN}}},
        "seeds": [0], "n_explain": 30,
    }
    meta = meta_evaluate(config, n_perturbations=2,
                         disruptive=("randomised_model", "shuffled_labels"))
    per_type = meta.attrs["metaquantus"][("make_classification", "lr", "comprehensiveness")]
    assert set(per_type) == {"model"}  # no input test asked for
    assert all(np.isfinite(v) for v in per_type["model"].values())
    # Minor model noise (0.1 %) changes no prediction and hardly any score.
    assert per_type["model"]["iec_nr"] == 1.0


def _fixture():
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)


def test_shared_case_matches_metaquantus_within_monte_carlo_error():
    """Our protocol on the shared small case against the numbers
    MetaQuantus 0.0.5 gave on the same model, explainers, metrics and noise
    levels.  Each criterion is a mean over perturbations of per-perturbation
    values; the tolerance is 4 standard errors of the difference of the two
    means, with the larger of the per-perturbation standard deviations
    measured on each side (MetaQuantus's run, and single perturbations of
    ours; the p-values under minor noise are heavy-tailed), plus 0.02 for the
    criteria where neither side saw any spread."""
    fixture = _fixture()
    n_ours = fixture["ours_n_perturbations_in_test"]
    meta = meta_evaluate(fixture["spec"], n_perturbations=n_ours, random_state=0)
    dataset, model = fixture["pair"]
    for metric, by_type in fixture["metaquantus"].items():
        ours = meta.attrs["metaquantus"][(dataset, model, metric)]
        for kind, criteria in by_type.items():
            for criterion, theirs in criteria.items():
                sd = max(theirs["sd"], theirs["ours_sd"])
                se = sd * np.sqrt(1 / n_ours + 1 / theirs["n"])
                assert abs(ours[kind][criterion] - theirs["mean"]) <= 4 * se + 0.02, (
                    metric, kind, criterion, ours[kind][criterion], theirs)
