"""Names renamed before 0.1: a config using one gets one clear error, and
the table of renames names real parameters (so it cannot rot)."""

import importlib
import inspect
import re

import pytest

from sklearn_xai.benchmark import resolve_component, run_benchmark
from sklearn_xai.benchmark._renamed import RENAMED_COMPONENTS, RENAMED_PARAMETERS

_BASE = """\
datasets: {data: {name: make_linear_attribution, params: {n_samples: 40, n_features: 3}}}
models: linear_regression
explainers: {random: RandomExplainer}
metrics: {complexity: neg_complexity}
seeds: [0]
n_explain: 5
"""


def _config(tmp_path, **groups):
    """A YAML config file: the base one with some groups replaced."""
    lines = [line for line in _BASE.splitlines()
             if line.split(":")[0] not in groups]
    lines += [f"{group}: {text}" for group, text in groups.items()]
    path = tmp_path / "old.yaml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("groups, message", [
    # an explainer's renamed parameter
    ({"explainers": "{k: {name: KernelSHAP, params: {n_samples: 64}}}"},
     "explainers['k']: KernelSHAP: parameter 'n_samples' was renamed "
     "'n_perturbations' before 0.1; write n_perturbations: 64"),
    # a metric's renamed parameter
    ({"metrics": "{mse: {name: neg_shapley_mse, params: {n_samples: 50}}}"},
     "metrics['mse']: shapley_mse: parameter 'n_samples' was renamed 'n_draws' "
     "before 0.1; write n_draws: 50"),
    # a dataset's renamed parameter
    ({"datasets": "{og: {name: make_synthgauss, params: {variant: paper}}}"},
     "datasets['og']: make_synthgauss: parameter 'variant' was renamed 'convention' "
     "before 0.1; write convention: paper"),
    # a switch, nested in an explainer, and a metric's switch
    ({"explainers": "{s: {name: ExactShapley, params: {xai_bench_efficiency: true}}}"},
     "explainers['s']: ExactShapley: parameter 'xai_bench_efficiency' was replaced "
     "by 'convention' before 0.1; write convention: xai_bench_code"),
    ({"metrics": "{mono: {name: mono_minus, params: {xai_bench_index_bug: false}}}"},
     "metrics['mono']: mono_minus: parameter 'xai_bench_index_bug' was replaced "
     "by 'convention' before 0.1; write convention: paper"),
    ({"explainers": "{a: {name: FeatureAblation, params: {masker: {name: "
                    "GaussianConditionalMasker, params: {n_samples: 7}}}}}"},
     "explainers['a'].params.masker: GaussianConditionalMasker: parameter "
     "'n_samples' was renamed 'n_draws' before 0.1; write n_draws: 7"),
])
def test_config_with_an_old_name_gets_one_clear_error(tmp_path, groups, message):
    path = _config(tmp_path, **groups)
    with pytest.raises(ValueError) as info:
        run_benchmark(path, n_jobs=1)
    text = str(info.value)
    assert "has 1 problem(s)" in text, text
    assert text.endswith(f"  - {message}"), text


def test_old_config_key_and_explainer_name(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text(_BASE + "baseline: random\n")
    with pytest.raises(ValueError, match=re.escape(
            "BenchmarkSpec: parameter 'baseline' was renamed 'control' before 0.1; "
            "write control: random")):
        run_benchmark(str(path), n_jobs=1)
    path = _config(tmp_path, explainers="{edges: SobelBaseline}")
    with pytest.raises(ValueError, match=re.escape(
            "Unknown explainer 'SobelBaseline'. 'SobelBaseline' was renamed "
            "'SobelFilter' before 0.1.")):
        run_benchmark(path, n_jobs=1)


def test_resolve_component_refuses_an_old_name():
    with pytest.raises(ValueError, match=re.escape(
            "Cannot build explainer 'LimeTabular': LimeTabular: parameter 'n_samples' "
            "was renamed 'n_perturbations' before 0.1; write n_perturbations: 30.")):
        resolve_component({"name": "LimeTabular", "params": {"n_samples": 30}},
                          "explainer")
    # a value a former switch did not take: every option is listed
    with pytest.raises(ValueError, match=re.escape(
            "(strategy: greedy -> convention: paper, beexai -> convention: "
            "beexai_code)")):
        resolve_component({"name": "sklearn_xai.datasets.CorrelationFilter",
                           "params": {"strategy": "other"}}, "model")


_MODULES = ["sklearn_xai.explainers", "sklearn_xai.masking", "sklearn_xai.distributions",
            "sklearn_xai.datasets", "sklearn_xai.metrics", "sklearn_xai.benchmark"]


def _public(name):
    """The public object ``name`` (``Class.method`` too) of sklearn_xai."""
    head, _, attr = name.partition(".")
    for module in _MODULES:
        module = importlib.import_module(module)
        if head in module.__all__:
            obj = getattr(module, head)
            return getattr(obj, attr) if attr else obj
    raise AssertionError(f"{head} is not a public name of {_MODULES}")


def _parameters(obj):
    return inspect.signature(obj).parameters


def _targets(new):
    """``(parameter, value)`` pairs an entry points to (value None: any)."""
    if isinstance(new, str):
        return [(new, None)]
    return [v if isinstance(v, tuple) else ("convention", v) for v in new.values()]


@pytest.mark.parametrize("component, old", sorted(RENAMED_PARAMETERS))
def test_every_new_name_is_a_parameter_today(component, old):
    obj = _public(component)
    params = _parameters(obj)
    doc = inspect.getdoc(obj) or ""
    for name, value in _targets(RENAMED_PARAMETERS[(component, old)]):
        assert name in params, f"{component} has no parameter {name!r}"
        # each value an old switch stands for is a documented option today
        assert value is None or f'"{value}"' in doc, f"{component}: {name}={value!r}"
    # The old name is gone.
    assert old not in params, (component, old)


def test_every_renamed_component_exists_and_the_old_name_is_gone():
    for old, new in RENAMED_COMPONENTS.items():
        head, _, attr = new.partition(".")
        obj = _public(head)
        assert not attr or attr in _parameters(obj) or hasattr(obj, attr), new
        head, _, attr = old.partition(".")
        if attr:
            assert not hasattr(_public(head), attr), old
        else:
            assert all(head not in dir(importlib.import_module(m)) for m in _MODULES), old
