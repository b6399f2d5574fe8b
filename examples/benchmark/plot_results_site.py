"""
=====================================================
Publishing results: a static site and a submission
=====================================================

Two runs of one preset, yours and a submitted one with another explainer,
become one static results site (:func:`~sklearn_xai.benchmark.build_site`,
or ``sklearn-xai site DIR... --out SITE``): a leaderboard per benchmark
that merges the folders and marks each row's source, the decision tables
and critical-difference diagrams of each run, a page per explainer and the
provenance of every run.  A submitted folder is checked first
(:func:`~sklearn_xai.benchmark.check_submission`, or ``sklearn-xai
submit-check DIR``); one that fails is refused with the reasons.  See
:ref:`publish`.
"""

import json
import os
import tempfile

from sklearn_xai import __version__
from sklearn_xai.benchmark import (
    BenchmarkSpec,
    build_site,
    check_submission,
    get_preset,
    run_benchmark,
)
from sklearn_xai.benchmark.presets import register_preset


# %%
# A tiny preset (the shipped ones take longer): a submission must name a
# known preset, so that its rows are comparable with the others.
@register_preset
def tiny_linear():
    """A tiny linear benchmark of the results-site example."""
    return BenchmarkSpec(
        datasets={"linear": {"name": "make_linear_attribution",
                             "params": {"n_samples": 80, "n_features": 4}}},
        models="linear_regression",
        explainers={"random": "RandomExplainer", "ablation": "FeatureAblation",
                    "saliency": "Saliency"},
        metrics=["feature_agreement", "neg_complexity"],
        seeds=[0, 1], n_explain=8, name="tiny_linear")


root = tempfile.mkdtemp()
ours = os.path.join(root, "ours")
run_benchmark(get_preset("tiny_linear"), n_jobs=1, verbose=0).save(ours)

# %%
# The submission: the same preset with the submitter's explainer added, and
# a ``submission.json`` that names the submitter, the preset and the version.
spec = get_preset("tiny_linear")
spec.explainers["kernel_shap"] = {"name": "KernelSHAP",
                                     "params": {"n_perturbations": 64}}
theirs = os.path.join(root, "alice")
run_benchmark(spec, n_jobs=1, verbose=0).save(theirs)
with open(os.path.join(theirs, "submission.json"), "w") as fh:
    json.dump({"submitter": "Alice Example", "preset": "tiny_linear",
               "sklearn_xai_version": __version__}, fh)
print("problems:", check_submission(theirs))

# %%
# A folder that carries anything but CSV, JSON or NPZ (here a pickle) is
# refused, and the site's index lists why.
hostile = os.path.join(root, "mallory")
run_benchmark(get_preset("tiny_linear"), n_jobs=1, verbose=0).save(hostile)
with open(os.path.join(hostile, "model.pkl"), "wb") as fh:
    fh.write(b"\x80\x04N.")
for problem in check_submission(hostile):
    print("-", problem)

# %%
# The site: open ``index.html`` in a browser (no server needed).
site = build_site([ours, theirs, hostile], os.path.join(root, "site"))
print("pages:", sorted(name for name in site["paths"] if name.endswith(".html")))
print("refused:", {os.path.basename(d): len(p) for d, p in site["refused"].items()})
