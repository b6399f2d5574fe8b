"""Meta-evaluation of metrics: known answers (a metric blind to the
attributions, feature agreement against exact ground truth), results-only
mode on a finished benchmark, the statistics against hand computations, and
the report's "Metric reliability" section."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_xai.benchmark import BenchmarkResults, run_benchmark, write_report
from sklearn_xai.benchmark import (
    DISRUPTIVE_PERTURBATIONS,
    meta_evaluate,
    plot_metric_agreement,
    reliability_summary,
)
from sklearn_xai.benchmark._meta import _rows_for_power, _split_half, _wilcoxon_p
from sklearn_xai.metrics import register_metric, unregister_metric

MEAN = {"name": "BaselineMasker", "params": {"value": "mean"}}
BLIND = "attribution_blind_test_metric"


def _blind(estimator, X, attributions):
    """A model metric that reads the rows but never the attributions."""
    return np.asarray(X, dtype=float).sum(axis=1)


@pytest.fixture(scope="module")
def blind_metric():
    register_metric(BLIND, _blind, kind="model", greater_is_better=True,
                    family="faithfulness", source="test")
    yield BLIND
    unregister_metric(BLIND)


def _config(metrics, explainers=None, **overrides):
    config = {
        "dataset": {"name": "make_linear_attribution",
                    "params": {"n_samples": 200, "n_features": 4}},
        "models": {"lr": "linear_regression"},
        "explainers": explainers or {
            "random": "RandomExplainer",
            "ablation": {"name": "FeatureAblation", "params": {"masker": MEAN}},
            "exact_shapley": {"name": "ExactShapley", "params": {"masker": {
                "name": "MarginalMasker", "params": {"background": 20}}}},
        },
        "metrics": metrics, "seeds": [0], "n_explain": 40,
    }
    config.update(overrides)
    return config


@pytest.fixture(scope="module")
def spec_meta(blind_metric):
    """Spec mode on a linear model with exact ground truth: feature agreement,
    a complexity metric and the blind metric, MetaQuantus's tests."""
    return meta_evaluate(_config(["feature_agreement", "neg_complexity", blind_metric]),
                         random_state=0)


def _row(meta, metric):
    return meta.set_index("metric").loc[metric]


def _tests(meta, metric, kind):
    return meta.attrs["metaquantus"][("make_linear_attribution", "lr", metric)][kind]


def test_blind_metric_has_no_reactivity_and_is_flagged(spec_meta):
    row = _row(spec_meta, BLIND)
    # Re-explaining for a disrupted model cannot change a score that never
    # reads the attributions nor the model: the Wilcoxon p-values are 1, no
    # score gets worse; the minor model noise changes nothing either.
    assert _tests(spec_meta, BLIND, "model") == {
        "iac_nr": 1.0, "iac_ar": 0.0, "iec_nr": 1.0, "iec_ar": 0.0, "mc": 0.5}
    assert row["effect_size"] == 0.0 and np.isnan(row["n_rows_80"])
    assert row["signal"] == 0.0
    for flag in ("blind to disruption", "same score for all explainers",
                 "no power vs control"):
        assert flag in row["flags"]
    # Every explainer gets the same scores: its ranking agrees with nothing.
    tau = pd.DataFrame(spec_meta.attrs["agreement"][("make_linear_attribution", "lr")])
    assert np.isnan(tau.loc[BLIND]).all()
    lines = reliability_summary(spec_meta)
    assert any(line.startswith(f"make_linear_attribution / lr: {BLIND}: ") for line in lines)
    assert all(len(line) <= 100 for line in lines)
    assert all(len(line) <= 60 for line in reliability_summary(spec_meta, max_width=60))


def test_metaquantus_columns_average_the_test_types(spec_meta):
    for metric in ("feature_agreement", "neg_complexity", BLIND):
        row = _row(spec_meta, metric)
        kinds = [_tests(spec_meta, metric, kind) for kind in ("model", "input")]
        for column, criterion in (("resilience_iac", "iac_nr"), ("resilience_iec", "iec_nr"),
                                  ("reactivity_iac", "iac_ar"), ("reactivity_iec", "iec_ar")):
            assert row[column] == pytest.approx(np.mean([k[criterion] for k in kinds]))
        for k in kinds:
            assert k["mc"] == pytest.approx(np.mean([k[c] for c in
                                                     ("iac_nr", "iac_ar", "iec_nr", "iec_ar")]))
        assert row["mc_score"] == pytest.approx(np.mean([k["mc"] for k in kinds]))


def test_metrics_that_do_not_read_the_inputs_ignore_the_input_tests(spec_meta):
    # MetaQuantus's input test scores the unperturbed attributions on
    # perturbed rows: a ground-truth or complexity metric gives the same
    # scores (p-value 1, nothing worse).
    for metric in ("feature_agreement", "neg_complexity"):
        assert _tests(spec_meta, metric, "input") == {
            "iac_nr": 1.0, "iac_ar": 0.0, "iec_nr": 1.0, "iec_ar": 0.0, "mc": 0.5}
    # ... and they are not flagged blind for it: blindness is judged on the
    # disrupted model, to which feature agreement reacts.
    assert _tests(spec_meta, "feature_agreement", "model")["iac_ar"] > 0.5
    assert "blind" not in _row(spec_meta, "feature_agreement")["flags"]


@pytest.fixture(scope="module")
def quick_meta(blind_metric):
    """The quick protocol: the cells' attributions perturbed, not re-explained."""
    return meta_evaluate(_config(["feature_agreement", "neg_complexity", blind_metric]),
                         protocol="attribution_noise", n_perturbations=1, random_state=0)


def test_feature_agreement_with_exact_ground_truth_is_powerful_and_resilient(quick_meta):
    row = _row(quick_meta, "feature_agreement")
    assert row["family"] == "ground_truth" and row["control"] == "random"
    assert row["reference"] in ("ablation", "exact_shapley")
    # On a linear model both explainers recover the ground truth: far from
    # the random control, a handful of rows suffices.
    assert row["effect_size"] > 1 and row["n_rows_80"] <= 10 < row["n_rows"]
    assert row["snr"] > 4 and row["split_half"] > 0.95
    # Resilient to minor noise (the explainers keep their order on nearly
    # every row, and no significant shift), reactive to shuffled attributions
    # (a significant drop for both explainers, a worse score on most rows:
    # a shuffle keeps the top features of a row now and then).
    assert row["resilience_iec"] >= 0.9 and row["resilience_iac"] > 0.5
    # Feature agreement here is top-1 agreement (k_max=0.25 of 4 features): a
    # uniform shuffle keeps a row's top feature in place with probability 1/4,
    # so each of the 40 rows scores worse with probability 3/4 (both
    # explainers share the row's shuffle).  The bound is the binomial's
    # 0.1 % quantile, not a value seen once.
    assert row["reactivity_iec"] >= stats.binom.ppf(0.001, 40, 0.75) / 40
    assert row["reactivity_iac"] > 0.99
    assert 0.8 < row["mc_score"] <= 1
    assert row["flags"] == ""
    blind = _row(quick_meta, BLIND)
    assert blind["reactivity_iac"] == 0.0 and blind["reactivity_iec"] == 0.0
    assert "blind to disruption" in blind["flags"]


def test_complexity_is_permutation_invariant_but_not_flagged_for_it(quick_meta):
    row = _row(quick_meta, "neg_complexity")
    assert row["reactivity_iac"] == 0.0 and row["reactivity_iec"] == 0.0
    assert "blind" not in row["flags"]


def test_table_shape_and_dtypes(spec_meta):
    assert list(spec_meta["metric"]) == ["feature_agreement", "neg_complexity", BLIND]
    assert (spec_meta["n_rows"] == 40).all() and (spec_meta["n_explainers"] == 3).all()
    assert (spec_meta["noise_source"] == "split_half").all()
    assert spec_meta["greater_is_better"].tolist() == [True, False, True]
    tau = pd.DataFrame(spec_meta.attrs["agreement"][("make_linear_attribution", "lr")])
    assert list(tau.columns) == list(spec_meta["metric"])


@pytest.fixture(scope="module")
def finished():
    """The runner tests' small benchmark, finished, with two seeds."""
    return run_benchmark(_config(["feature_agreement", "neg_complexity",
                                  {"name": "comprehensiveness", "params": {"masker": MEAN}}],
                                 seeds=[0, 1], n_explain=20))


def test_results_only_mode_reuses_the_per_row_scores(finished):
    meta = meta_evaluate(finished)
    assert len(meta) == 3 and (meta["noise_source"] == "seeds").all()
    assert (meta["n_seeds"] == 2).all() and (meta["n_rows"] == 40).all()
    # Nothing was re-scored: the MetaQuantus columns are undefined.
    for column in ("resilience_iac", "reactivity_iec", "mc_score"):
        assert meta[column].isna().all()
    assert meta["split_half"].notna().all() and meta["effect_size"].notna().all()
    # The noise floor is the seed-to-seed spread of the explainer values.
    fa = finished.table[finished.table["metric"] == "feature_agreement"]
    per_seed = fa.pivot(index="explainer", columns="seed", values="value")
    expected = np.sqrt(np.mean(per_seed.var(axis=1, ddof=1)))
    assert _row(meta, "feature_agreement")["noise_floor"] == pytest.approx(expected)
    # Deterministic given random_state; other seeds draw other halves.
    again = meta_evaluate(finished)
    pd.testing.assert_frame_equal(meta, again)
    with pytest.raises(ValueError, match="perturb=True needs the attributions"):
        meta_evaluate(finished, perturb=True)


def test_report_has_the_reliability_section(finished, tmp_path):
    paths = write_report(finished, tmp_path, figures=True)
    page = open(paths["report_html"], encoding="utf-8").read()
    assert '<section id="reliability"><h2>Metric reliability</h2>' in page
    assert 'href="#reliability"' in page and 'table class="reliability"' in page
    assert "Kendall tau between the metrics" in page
    assert "## Metric reliability" in open(paths["report_md"], encoding="utf-8").read()
    paths = write_report(finished, tmp_path / "plain", figures=False, reliability=False)
    assert 'id="reliability"' not in open(paths["report_html"], encoding="utf-8").read()


def _synthetic(opposite):
    """Per-row scores of four explainers on three faithfulness metrics; the
    third ranks them in the opposite order when ``opposite``."""
    rng = np.random.default_rng(0)
    explainers = ["random", "a", "b", "c"]
    rows, per_row = [], []
    for m, metric in enumerate(["comprehensiveness", "faith_plus", "pgi"]):
        for e, explainer in enumerate(explainers):
            level = -e if (opposite and m == 2) else e
            for seed in (0, 1):
                values = level + rng.normal(0, 0.5, 30)
                per_row.append(pd.DataFrame({
                    "dataset": "d", "model": "m", "explainer": explainer,
                    "metric": metric, "seed": seed, "row": np.arange(30),
                    "value": values}))
                rows.append({"dataset": "d", "model": "m", "explainer": explainer,
                             "metric": metric, "metric_name": metric, "seed": seed,
                             "value": values.mean(), "greater_is_better": True,
                             "status": "ok"})
    return BenchmarkResults(pd.DataFrame(rows), pd.concat(per_row, ignore_index=True),
                            control="random")


def test_a_metric_ranking_against_its_family_is_flagged():
    meta = meta_evaluate(_synthetic(opposite=True)).set_index("metric")
    assert meta.loc["pgi", "family_agreement"] == pytest.approx(-1.0)
    assert "against its family (tau -1.00)" in meta.loc["pgi", "flags"]
    # Its best explainer is worse than the control: it cannot be trusted.
    assert meta.loc["pgi", "effect_size"] < 0
    assert "control beats the reference" in meta.loc["pgi", "flags"]
    assert meta.loc["faith_plus", "family_agreement"] == pytest.approx(0.0)
    # The two others agree with each other (tau 1) and are not flagged for it.
    assert "against" not in meta.loc["comprehensiveness", "flags"]
    tau = pd.DataFrame(meta.attrs["agreement"][("d", "m")])
    assert tau.loc["comprehensiveness", "faith_plus"] == pytest.approx(1.0)
    agree = meta_evaluate(_synthetic(opposite=False)).set_index("metric")
    assert (agree["family_agreement"] == 1).all() and (agree["flags"] == "").all()
    # The reference is the best explainer when the benchmark has no oracle,
    # or the one named.
    assert (agree["reference"] == "c").all()
    named = meta_evaluate(_synthetic(opposite=False), reference="a")
    assert (named["reference"] == "a").all()
    assert (named["effect_size"] < agree["effect_size"].to_numpy()).all()
    fig = plot_metric_agreement(meta)
    assert len(fig.axes) == 2  # the map and its colour bar


def test_rows_for_power_matches_the_paired_t_test():
    # G*Power, two-tailed paired t-test, d_z = 0.5, alpha 0.05, power 0.8: 34.
    assert _rows_for_power(0.5, 0.05, 0.8) == 34
    assert _rows_for_power(-0.5, 0.05, 0.8) == 34
    assert _rows_for_power(0.2, 0.05, 0.8) == 199  # G*Power: 199
    assert np.isnan(_rows_for_power(0.0, 0.05, 0.8))
    from scipy import stats

    # The exact power of the paired t-test at that n is at least 0.8.
    n, d = 34, 0.5
    t_crit = stats.t.ppf(0.975, n - 1)
    power = 1 - stats.nct.cdf(t_crit, n - 1, d * np.sqrt(n))
    assert 0.8 <= power < 0.82


def test_split_half_reliability_by_hand():
    rng = np.random.default_rng(0)
    seed_of = np.zeros(200, dtype=int)
    # Explainers far apart: the ranking repeats on every half.
    S = np.arange(4.0)[:, None] + rng.normal(0, 0.1, (4, 200))
    reliability, noise = _split_half(S, seed_of, 50, np.random.default_rng(1))
    assert reliability > 0.99
    # The noise floor estimates the standard deviation of a mean of 200 rows.
    assert noise == pytest.approx(0.1 / np.sqrt(200), rel=0.3)
    # Identical explainers: the half means are noise, reliability near 0.
    S = rng.normal(0, 1, (40, 200))
    reliability, _ = _split_half(S, seed_of, 200, np.random.default_rng(2))
    assert abs(reliability) < 0.3
    # Two explainers: a correlation over two points is undefined.
    assert np.isnan(_split_half(S[:2], seed_of, 10, np.random.default_rng(3))[0])


def test_wilcoxon_ignores_rounding_differences():
    q = np.linspace(0, 1, 20)
    assert _wilcoxon_p(q, q + 1e-15) == 1.0
    assert _wilcoxon_p(q, q - 1.0) < 1e-3


def test_shuffle_depends_only_on_the_row():
    X = np.random.default_rng(0).normal(size=(6, 5))
    A = np.tile(np.arange(5.0), (6, 1))
    shuffle = DISRUPTIVE_PERTURBATIONS["shuffle_attributions"]
    _, _, full = shuffle(None, X, A, random_state=0)
    _, _, part = shuffle(None, X[3:], A[3:], random_state=0)
    np.testing.assert_array_equal(full[3:], part)
    np.testing.assert_array_equal(np.sort(full, axis=1), A)


@pytest.mark.parametrize("kwargs, match", [
    ({"perturb": "yes"}, "perturb"),
    ({"n_splits": 0}, "n_splits"),
    ({"noise_scale": -1}, "noise_scale"),
    ({"alpha": 1.5}, "alpha"),
    ({"disruptive": "shuffle_attributions"}, "disruptive"),
    ({"disruptive": ("shuffle_attributions",)}, "disruptive"),
    ({"disruptive": ("model_noise",), "protocol": "attribution_noise"}, "disruptive"),
    ({"protocol": "quick"}, "protocol"),
    ({"model_noise": (0.1,)}, "model_noise"),
    ({"input_noise": (0.1, -1.0)}, "input_noise"),
    ({"reference": "oracle"}, "reference='oracle' is not an explainer"),
])
def test_bad_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        meta_evaluate(_synthetic(False), **kwargs)


def test_meta_attrs_are_plain_values_that_pandas_operations_keep():
    results = _synthetic(opposite=True)
    meta = meta_evaluate(results)
    # pandas compares attrs in astype/concat: a DataFrame there raised "The
    # truth value of a DataFrame is ambiguous".
    assert meta.astype(str).shape == meta.shape
    assert len(pd.concat([meta, meta])) == 2 * len(meta)
    assert meta.copy().attrs["agreement"].keys() == meta.attrs["agreement"].keys()
    tau = meta.attrs["agreement"][("d", "m")]
    assert all(isinstance(v, float) for col in tau.values() for v in col.values())
    # Kendall tau-b of the explainers' mean scores, computed directly.
    means = results.table.groupby(["metric", "explainer"])["value"].mean().unstack(0)
    for a in means.columns:
        for b in means.columns:
            expected = stats.kendalltau(means[a], means[b]).statistic
            assert tau[a][b] == pytest.approx(expected)
