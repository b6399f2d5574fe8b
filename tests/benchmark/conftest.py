"""Results folders shared by the results-site and submission tests: two tiny
runs of one registered preset (a base run and a submission with a hostile
explainer label and submitter) and a synthetic run of OpenXAI's stability
metrics with hostile dataset and model labels."""

import contextlib
import json

import numpy as np
import pandas as pd
import pytest

# Labels a hostile submitter might choose (HTML, script, attribute, URL,
# spreadsheet formula, path traversal).
HOSTILE = {
    "img": "<img src=x onerror=alert(1)>",
    "attr": '"><script>document.title="pwned-attr"</script>',
    "close": "</script><script>document.title='pwned-close'</script>",
    "url": "javascript:alert(1)",
    "formula": '=HYPERLINK("http://example.invalid","x")',
    "path": "../../x",
    "separator": "a\u2028b</b>",
}
PRESET = "site_tiny_test"
STABILITY_EXPLAINERS = ["random", "grad", HOSTILE["close"], HOSTILE["img"]]


def tiny_spec():
    from sklearn_xai.benchmark import BenchmarkSpec

    return BenchmarkSpec(
        datasets={"lin": {"name": "make_linear_attribution",
                          "params": {"n_samples": 60, "n_features": 4}}},
        models="linear_regression",
        explainers={"random": "RandomExplainer", "ablation": "FeatureAblation",
                    "saliency": "Saliency"},
        metrics=["feature_agreement", "neg_complexity"], seeds=[0, 1], n_explain=5,
        name=PRESET)


@contextlib.contextmanager
def _registered():
    from sklearn_xai.benchmark.presets import PRESETS, register_preset

    def site_tiny_test():
        """A tiny benchmark of the results-site tests."""
        return tiny_spec()

    register_preset(site_tiny_test, name=PRESET)
    try:
        yield PRESET
    finally:
        PRESETS.pop(PRESET, None)


@pytest.fixture(scope="module")
def tiny_preset():
    """A preset registered for the tests of a module (submissions must name a
    known preset); unregistered after it, so that no other module sees it."""
    with _registered() as name:
        yield name


def _stability_results():
    """Synthetic results of OpenXAI's RIS and ROS: known ratios, hostile
    labels."""
    from sklearn_xai.benchmark import BenchmarkResults

    rows = []
    for e, explainer in enumerate(STABILITY_EXPLAINERS):
        for seed in (0, 1):
            for metric in ("neg_ris", "neg_ros"):
                rows.append({
                    "dataset": HOSTILE["path"], "model": HOSTILE["formula"],
                    "explainer": explainer, "explainer_class": "X", "metric": metric,
                    "metric_name": metric, "seed": seed,
                    "value": 10.0 ** (3 - e) * (1 + seed), "greater_is_better": False,
                    "se": 0.0, "n_rows": 4, "n_nan": 0, "status": "ok", "error": "",
                    "failed_in": "", "warnings": "", "cached": False})
    return BenchmarkResults(pd.DataFrame(rows), spec={
        "name": HOSTILE["url"], "seeds": [0, 1], "description": HOSTILE["separator"]},
        control="random")


@pytest.fixture(scope="session")
def site_folders(tmp_path_factory):
    """``{"base": dir, "submission": dir, "stability": dir}``."""
    from sklearn_xai import __version__
    from sklearn_xai.benchmark import get_preset, run_benchmark

    root = tmp_path_factory.mktemp("site_runs")
    with _registered():
        base = run_benchmark(get_preset(PRESET), n_jobs=1, cache_dir=None, verbose=0)
        spec = get_preset(PRESET)
    base.save(root / "base")
    spec.explainers = {"random": spec.explainers["random"],
                       HOSTILE["img"]: {"name": "Saliency", "params": {}}}
    sub = run_benchmark(spec, n_jobs=1, cache_dir=None, verbose=0)
    sub.save(root / "submission")
    (root / "submission" / "submission.json").write_text(json.dumps({
        "submitter": HOSTILE["attr"], "preset": PRESET,
        "sklearn_xai_version": __version__, "note": HOSTILE["separator"]}))
    _stability_results().save(root / "stability")
    return {"base": root / "base", "submission": root / "submission",
            "stability": root / "stability"}


@pytest.fixture(scope="session")
def skipped_folder(tmp_path_factory):
    """A results folder whose only score was skipped: cheap to build a site
    from (no leaderboard, no diagram)."""
    from sklearn_xai.benchmark import BenchmarkResults

    table = pd.DataFrame([{
        "dataset": "d", "model": "m", "explainer": "e", "explainer_class": "E",
        "metric": "x", "metric_name": "x", "seed": 0, "value": np.nan,
        "greater_is_better": True, "se": np.nan, "n_rows": 0, "n_nan": 0,
        "status": "skipped", "error": "not applicable", "failed_in": "",
        "warnings": "", "cached": False}])
    folder = tmp_path_factory.mktemp("skipped") / "skipped"
    BenchmarkResults(table, spec={"name": "skipped", "seeds": [0]}).save(folder)
    return folder


@pytest.fixture
def stability_expected():
    """ln of the mean over seeds of each explainer's RIS, by hand."""
    return {e: float(np.log(np.mean([10.0 ** (3 - i) * 1, 10.0 ** (3 - i) * 2])))
            for i, e in enumerate(STABILITY_EXPLAINERS)}
