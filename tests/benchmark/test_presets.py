import re

import numpy as np
import pytest

from sklearn_xai.benchmark import get_preset, list_presets, resolve_component, run_benchmark
from sklearn_xai.benchmark._preset_names import SHIPPED_PRESETS, WITH_QUICK_VARIANT
from sklearn_xai.benchmark.presets import PRESETS, is_preset, register_preset
from sklearn_xai.datasets import (
    make_gaussian_linear,
    make_gaussian_piecewise_constant,
    make_text_classification,
    preprocessed,
    two_draws,
)

REPRODUCTIONS = ["xaibench_table_metrics", "xaibench_table_metrics_code",
                 "xaibench_rho_sweep", "openxai_synthetic", "openxai_stability",
                 "openxai_adult", "xaitris_8x8", "xaitris_64x64",
                 "beexai_real", "beexai_table5", "fooling"]


# Every preset, plus the quick variant of each reproduction preset.
PRESET_VARIANTS = [(name, False) for name in sorted(PRESETS)] + [
    (name, True) for name in REPRODUCTIONS
]


@pytest.mark.parametrize("name, quick", PRESET_VARIANTS)
def test_every_preset_resolves_every_component(name, quick):
    spec = get_preset(name, quick=quick)
    assert spec.name == name + ("_quick" if quick else "")
    spec.validate_names()
    context = {"distribution": make_gaussian_linear(20, random_state=0).distribution,
               "image_shape": (8, 8), "series_shape": (1, 20)}
    for label, explainer in spec.explainers.items():
        resolve_component(explainer, "explainer", seed=0, context=context)
    # What datasets hand to models through "@key" references: the unit of a
    # known-behaviour dataset, the test rows OpenXAI's trainer selects on.
    rng = np.random.default_rng(0)
    text = make_text_classification(5, random_state=0)
    model_context = {"unit": "xor",
                     "test_rows": (rng.normal(size=(8, 20)), np.arange(8) % 2),
                     "series_shape": (1, 20),
                     "codec": text.codec, "vocab_size": text.vocab_size}
    for label, model in spec.models.items():
        built = []
        for task in ("regression", "classification"):
            try:
                built.append(resolve_component(model, "model", seed=0, task=task,
                                               context=model_context))
            except ValueError as exc:
                assert "only" in str(exc)
        assert built
    # The docstring cites the paper the preset reproduces and flags heavy runs.
    doc = PRESETS[name].__doc__
    if name in REPRODUCTIONS:
        assert "References\n    ----------\n    .. [1]" in doc and "Run time" in doc


def test_preset_names():
    assert set(REPRODUCTIONS) <= set(list_presets())
    assert is_preset("openxai_synthetic_quick") and is_preset("default")
    assert not is_preset("default_quick") and not is_preset("nothing")
    with pytest.raises(ValueError, match="no quick variant"):
        get_preset("default", quick=True)
    with pytest.raises(ValueError, match="Unknown preset"):
        get_preset("nothing_quick")


# The module of each preset: one module per source system.
PRESET_MODULES = {
    "default": "default", "xaibench_small": "xaibench",
    "xaibench_table_metrics": "xaibench", "xaibench_table_metrics_code": "xaibench",
    "xaibench_rho_sweep": "xaibench", "xaibench_figure_grid": "xaibench",
    "xaibench_linear100": "xaibench", "xaibench_wine": "xaibench",
    "xaibench_wine_code": "xaibench", "xaibench_roar_curve": "xaibench",
    "openxai_synthetic": "openxai", "openxai_stability": "openxai",
    "openxai_adult": "openxai", "openxai_compas": "openxai", "openxai_heloc": "openxai",
    "openxai_german": "openxai",
    "xaitris_8x8": "xaitris", "xaitris_64x64": "xaitris", "beexai_real": "beexai",
    "beexai_table5": "beexai", "unit_tests": "units", "fooling": "fooling",
    "timeseries_synthetic": "timeseries", "text_synthetic": "text",
}


def test_presets_live_in_one_module_per_system():
    # list_presets keeps the registration order: the default first, then by system.
    assert list(list_presets()) == list(PRESET_MODULES)
    for name, module in PRESET_MODULES.items():
        assert PRESETS[name].__module__ == f"sklearn_xai.benchmark.presets.{module}"


def test_every_name_the_cli_accepts_resolves_to_a_preset():
    # The command line checks names against the index without importing the
    # presets; each name it accepts is a registered preset, and the names
    # are exactly the expected ones (PRESET_MODULES, REPRODUCTIONS above).
    from sklearn_xai.benchmark._cli import _check_benchmark_name

    quick = set(REPRODUCTIONS) | {"xaibench_figure_grid", "xaibench_linear100",
                                  "xaibench_wine", "xaibench_wine_code",
                                  "xaibench_roar_curve", "openxai_compas",
                                  "openxai_heloc", "openxai_german", "unit_tests",
                                  "timeseries_synthetic", "text_synthetic"}
    assert set(SHIPPED_PRESETS) == set(PRESET_MODULES) and WITH_QUICK_VARIANT == quick
    for name in PRESET_MODULES:
        _check_benchmark_name(name, imports=[])
        assert is_preset(name)
        if name in quick:
            _check_benchmark_name(f"{name}_quick", imports=[])
            assert is_preset(f"{name}_quick")
        else:
            with pytest.raises(ValueError, match="neither a preset"):
                _check_benchmark_name(f"{name}_quick", imports=[])
            assert not is_preset(f"{name}_quick")


def test_registry_is_built_from_the_index():
    from sklearn_xai.benchmark.presets._registry import _register_shipped

    with pytest.raises(ImportError, match=r"presets\.openxai defines no function "
                                          r"xaibench_small\(\)"):
        _register_shipped({"xaibench_small": "openxai"}, set())
    with pytest.raises(ImportError, match=r"default\.default lacks quick=.*lists 'default'"):
        _register_shipped({"default": "default"}, {"default"})
    with pytest.raises(ImportError, match=r"unit_tests takes quick=.*lacks 'unit_tests'"):
        _register_shipped({"unit_tests": "units"}, set())
    assert list(PRESETS)[:len(SHIPPED_PRESETS)] == list(SHIPPED_PRESETS)


def test_shared_docstring_blocks_are_filled_in():
    # The blocks the preset and decision docstrings share are written once
    # (sklearn_xai.benchmark._docstring) and read as if written out.
    from sklearn_xai.benchmark import decision_summary, plot_critical_difference, write_report

    for name in WITH_QUICK_VARIANT:
        doc = PRESETS[name].__doc__
        assert ("\n    Parameters\n    ----------\n    quick : bool, default=False\n"
                "        The quick variant.\n") in doc, name
        assert "\n    Returns\n    -------\n    spec : BenchmarkSpec\n" in doc, name
        assert "\n    References\n    ----------\n    .. [1] " in doc, name
        assert not re.search(r"\{[a-z_]+\}", doc), name  # no placeholder left
    assert "path : str or path-like" in PRESETS["openxai_heloc"].__doc__
    demsar = ("    References\n    ----------\n    .. [1] Demšar, J. \"Statistical "
              "Comparisons of Classifiers over Multiple\n       Data Sets\", Journal of "
              "Machine Learning Research 7, 1-30, 2006.\n")
    for func in (decision_summary, plot_critical_difference, write_report):
        assert demsar in func.__doc__, func.__name__


def test_register_preset_checks_its_function():
    def tiny():
        """A tiny preset."""
        return get_preset("default")

    try:
        assert register_preset(name="tiny_test")(tiny) is tiny
        assert list_presets()["tiny_test"] == "A tiny preset."
        assert get_preset("tiny_test").name == "default"
        assert register_preset(tiny, name="tiny_test") is tiny  # same function: no-op
        def other():
            """Another preset."""

        with pytest.raises(ValueError, match="already registered"):
            register_preset(other, name="tiny_test")
        assert PRESETS["tiny_test"] is tiny
    finally:
        PRESETS.pop("tiny_test", None)
    with pytest.raises(ValueError, match="_quick"):
        register_preset(tiny, name="tiny_quick")
    with pytest.raises(ValueError, match="docstring"):
        register_preset(lambda: None, name="undocumented")
    assert "undocumented" not in PRESETS


def test_presets_name_the_public_dataset_factories():
    names = {get_preset(n).datasets[label]["name"]
             for n in ("xaibench_table_metrics", "openxai_synthetic", "beexai_real")
             for label in get_preset(n).datasets}
    assert names == {"two_draws", "minmax_scaled", "preprocessed"}


@pytest.mark.parametrize("name", ["two_draws", "sklearn_xai.datasets.two_draws"])
def test_config_file_may_name_a_dataset_factory(tmp_path, name):
    from sklearn_xai.benchmark import load_config

    path = tmp_path / "draws.yaml"
    path.write_text(
        "datasets:\n"
        f"  draws: {{name: {name}, params: {{generator: make_gaussian_linear, "
        "n_train: 40, n_test: 6}}\n"
        "models: [linear_regression]\n"
        "explainers: {random: RandomExplainer, ablation: FeatureAblation}\n"
        "metrics: [feature_agreement]\n"
        "seeds: [0]\n"
        "n_explain: null\n")
    spec = load_config(path)
    spec.validate_names()
    table = run_benchmark(spec, n_jobs=1).table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    assert (table["n_rows"] == 6).all()  # the factory's test rows are explained


def test_two_draws_are_the_generators_independent_draws():
    data = two_draws("make_gaussian_piecewise_constant", n_train=30, n_test=7,
                     random_state=3, rho=0.5, convention="xai_bench_code")
    seeds = np.random.SeedSequence(3).generate_state(2)
    train = make_gaussian_piecewise_constant(30, rho=0.5, convention="xai_bench_code",
                                             random_state=int(seeds[0]))
    test = make_gaussian_piecewise_constant(7, rho=0.5, convention="xai_bench_code",
                                            random_state=int(seeds[1]))
    np.testing.assert_array_equal(data["data"], np.vstack([train.data, test.data]))
    np.testing.assert_array_equal(data["target"], np.concatenate([train.target, test.target]))
    np.testing.assert_array_equal(data["ground_truth"][30:], test.ground_truth)
    assert data["train_indices"].tolist() == list(range(30))
    assert data["test_indices"].tolist() == list(range(30, 37))


def test_preprocessed_fits_on_training_rows_only():
    data = preprocessed("load_diamonds", max_samples=500, random_state=0)
    y, train = data["target"], data["train_indices"]
    assert data["data"].shape == (500, 9) and len(data["test_indices"]) == 100
    assert y[train].min() == 0.0 and y[train].max() == 1.0
    assert not set(train) & set(data["test_indices"])
    german = preprocessed("load_german_credit", random_state=0)
    # Stratified 80/20 split keeps the class balance.
    assert abs(german["target"][german["train_indices"]].mean()
               - german["target"][german["test_indices"]].mean()) < 0.01


def _ok(table):
    return table.set_index(["dataset", "model", "explainer", "metric"])


@pytest.mark.slow
def test_xaibench_quick_runs_end_to_end():
    table = run_benchmark("xaibench_table_metrics_quick").table
    assert (table["status"] == "ok").all(), table.loc[table["status"] != "ok", "error"]
    t = _ok(table)["value"]
    # Exact Shapley values (marginal masker) agree with the ground truth on
    # independent features; the random control does not.
    assert t[("piecewise_constant", "mlp", "shap", "shapley_corr")] > 0.9
    assert abs(t[("piecewise_constant", "mlp", "random", "shapley_corr")]) < 0.9


@pytest.mark.slow
def test_openxai_quick_runs_end_to_end():
    table = run_benchmark("openxai_synthetic_quick").table
    errors = table[table["status"] == "error"]
    assert errors.empty, errors["error"].unique()
    t = _ok(table)
    # The LR-coefficient reference is only defined for the LR ...
    skipped = table[table["status"] == "skipped"]
    assert set(skipped["model"]) == {"ann"} and skipped["metric"].str.endswith("_lr").all()
    # ... and the gradient of a logistic model's logit is its coefficient
    # vector, so Grad and IG (no input multiplication) agree with it exactly.
    for explainer in ("grad", "ig"):
        assert t.loc[("synthetic", "lr", explainer, "feature_agreement_lr"), "value"] == \
            pytest.approx(1.0)
    assert t.loc[("synthetic", "lr", "random", "feature_agreement_lr"), "value"] < 0.9


@pytest.mark.slow
@pytest.mark.parametrize("name", ["xaitris_8x8_quick", "beexai_real_quick",
                                  "beexai_table5_quick",
                                  "xaibench_table_metrics_code_quick",
                                  "xaibench_rho_sweep_quick"])
def test_other_quick_presets_run_end_to_end(name):
    table = run_benchmark(name, n_jobs=2).table
    errors = table[table["status"] == "error"]
    if name in ("beexai_real_quick", "beexai_table5_quick"):
        # Gradient explainers need a differentiable model: XGBoost fails, recorded.
        assert set(errors["model"]) <= {"xgboost"}
        assert set(errors["explainer"]) <= {"deeplift", "ig", "saliency"}
        assert (table.loc[table["model"] == "mlp", "status"] == "ok").all()
    else:
        assert errors.empty, errors["error"].unique()
    assert (table["status"] == "ok").any()


def test_beexai_table5_scores_absolute_attributions():
    """Diamonds / XGBoost quick run: BEExAI's regression switches are set."""
    spec = get_preset("beexai_table5", quick=True)
    spec = {"datasets": spec.datasets, "models": {"xgboost": "xgboost"},
            "explainers": {k: spec.explainers[k] for k in ("random", "shap")},
            "metrics": {k: spec.metrics[k] for k in ("neg_auc_tp", "sparseness")},
            "seeds": [0], "n_explain": 5, "test_size": 0.2}
    results = run_benchmark(spec, n_jobs=1)
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
    shap = resolve_component(spec["explainers"]["shap"], "explainer", seed=0)
    assert shap.func == "abs" and type(shap.explainer).__name__ == "ShapleyValueSampling"
    assert get_preset("beexai_table5").metrics["neg_auc_tp"]["params"]["convention"] == \
        "beexai_code"
