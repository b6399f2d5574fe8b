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
from sklearn_xai.benchmark._cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(sys.argv[1:])
heavy = sorted(m for m in ("matplotlib", "torch", "captum", "skorch", "lime", "xgboost")
               if m in sys.modules)
print(json.dumps({"status": status, "out": out.getvalue(), "heavy": heavy}))
"""


def test_cached_rerun_imports_no_plotting_torch_or_optional_packages(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(CONFIG)
    argv = ["run", str(config), "--out", str(tmp_path / "out"), "--n-jobs", "1", "-q",
            "--no-figures"]
    assert main(argv) == 0  # fills the cache and writes the report
    first = capsys.readouterr().out.split("\n", 1)[1]  # after the cells/time line
    result = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True,
                            text=True, check=True)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["status"] == 0
    assert "tiny: 2 cells (0 computed, 2 from the cache)" in report["out"]
    assert report["out"].split("\n", 1)[1] == first
    assert report["heavy"] == []
