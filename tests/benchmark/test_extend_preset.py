"""Extending a preset from a config: add, replace and remove components."""

import pytest

from sklearn_xai.benchmark import BenchmarkSpec, get_preset, load_config


def test_extend_adds_replaces_and_removes():
    base = get_preset("default")
    spec = BenchmarkSpec.from_dict({
        "preset": "default", "seeds": [4], "n_explain": 7,
        "explainers": {"occlusion": "FeatureAblation", "lime": None,
                       "random": {"name": "RandomExplainer", "params": {"scale": 2.0}}},
        "metrics": {"neg_complexity": None}})
    assert spec.seeds == [4] and spec.n_explain == 7
    assert spec.explainers["occlusion"] == {"name": "FeatureAblation", "params": {}}
    assert "lime" not in spec.explainers and "lime" in base.explainers
    assert spec.explainers["random"]["params"] == {"scale": 2.0}
    assert set(spec.metrics) == set(base.metrics) - {"neg_complexity"}
    assert spec.datasets == base.datasets and spec.models == base.models
    # The preset itself is untouched.
    assert get_preset("default").explainers == base.explainers


def test_extend_errors_name_the_problem():
    with pytest.raises(ValueError, match="Cannot remove explainer 'nope'"):
        BenchmarkSpec.from_dict({"preset": "default", "explainers": {"nope": None}})
    with pytest.raises(ValueError, match="as a mapping label -> spec"):
        BenchmarkSpec.from_dict({"preset": "default", "explainers": ["FeatureAblation"]})
    with pytest.raises(ValueError, match="preset"):
        BenchmarkSpec.from_dict({"preset": "no_such_preset"})


def test_yaml_config_extends_a_preset(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("preset: default\nseeds: [0]\nexplainers:\n"
                    "  occlusion: {name: FeatureAblation}\n")
    spec = load_config(path)
    assert spec.name == "mine" and "occlusion" in spec.explainers
    assert "ablation" in spec.explainers  # from the preset


def test_dataclasses_replace_gives_no_warning():
    import dataclasses
    import warnings

    spec = get_preset("default")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        copy = dataclasses.replace(spec, seeds=[0])
    assert copy.seeds == [0] and copy.control == spec.control
