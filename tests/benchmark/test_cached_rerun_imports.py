"""A fully cached ``sklearn-xai run`` imports only what printing the stored
leaderboard needs (checked on the modules a fresh interpreter has loaded,
not on timings)."""

import json
import subprocess
import sys

from sklearn_xai.benchmark._cli import main

CONFIG = """\
name: tiny
datasets:
  linear:
    name: make_linear_attribution
    params: {n_samples: 120, n_features: 4}
models:
  lr: linear_regression
explainers:
  random: RandomExplainer
  ablation:
    name: FeatureAblation
    params:
      masker: {name: BaselineMasker, params: {value: mean}}
metrics: [feature_agreement, neg_complexity]
seeds: [0]
n_explain: 10
"""

_PROBE = """
import contextlib, io, json, sys
HEAVY = ("matplotlib", "torch", "captum", "skorch", "lime", "xgboost")
def heavy():
    return sorted(m for m in HEAVY if m in sys.modules)
report = {}
# 1. the cached rerun itself
from sklearn_xai.benchmark._cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    report["status"] = main(sys.argv[1:])
report["out"], report["heavy"] = out.getvalue(), heavy()
# 2. building and checking the default preset (all a cached rerun of it
# needs before reading its cells): the explainers and the randomisation
# metrics import torch and captum on first use
from sklearn_xai.benchmark._runner import _as_spec
_as_spec("default").validate_names()
report["heavy_default_preset"] = heavy()
# 3. randomising a scikit-learn model (MPRT in the default preset)
import numpy as np
from sklearn.neural_network import MLPRegressor
from sklearn_xai.models import randomise_model, randomised_layers
X = np.random.default_rng(0).normal(size=(30, 3))
mlp = MLPRegressor(hidden_layer_sizes=(4,), max_iter=5).fit(X, X[:, 0])
randomise_model(mlp, randomised_layers(mlp), random_state=0, copy="shared")
report["heavy_randomise"] = heavy()
print(json.dumps(report))
"""


def test_cached_rerun_imports_no_plotting_torch_or_optional_packages(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(CONFIG)
    argv = ["run", str(config), "--out", str(tmp_path / "out"), "--n-jobs", "1", "-q",
            "--no-figures"]
    assert main(argv) == 0  # fills the cache and writes the report
    first = capsys.readouterr().out.split("\n", 1)[1]  # after the cells/time line
    # One fresh interpreter checks three import-free paths in turn; the
    # modules are cumulative, so each list is checked after its step.
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", _PROBE, *argv],
                            capture_output=True, text=True, check=True)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["status"] == 0
    assert "tiny: 2 cells (0 computed, 2 from the cache)" in report["out"]
    assert report["out"].split("\n", 1)[1] == first
    assert report["heavy"] == []
    assert report["heavy_default_preset"] == []
    assert report["heavy_randomise"] == []
