"""The command line answers mistakes before importing the heavy stack.

A mistyped preset name must be answered without importing scikit-learn,
torch or the preset modules (checked on the modules a fresh interpreter has
loaded, not on timings).  The index of shipped preset names the check reads
is the one the registry is built from (``tests/benchmark/test_presets.py``
checks that every name resolves).
"""

import json
import subprocess
import sys


_PROBE = """
import contextlib, io, json, sys
HEAVY = ("sklearn", "torch", "matplotlib", "pandas", "sklearn_xai.benchmark.presets",
         "sklearn_xai.metrics")
import sklearn_xai
after_package = sorted(m for m in HEAVY if m in sys.modules)
from sklearn_xai.benchmark._cli import main
err = io.StringIO()
with contextlib.redirect_stderr(err):
    status = main(["run", "defualt"])
heavy = sorted(m for m in HEAVY if m in sys.modules)
print(json.dumps({"status": status, "stderr": err.getvalue(), "heavy": heavy,
                  "after_package": after_package}))
"""


def test_mistyped_preset_is_answered_before_heavy_imports():
    # One fresh interpreter: ``import sklearn_xai`` imports none of the heavy
    # stack (so ``sklearn_xai.set_config`` is cheap, tests/utils/test_config.py),
    # and neither does the CLI's answer to a mistyped preset.
    result = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True,
                            text=True, check=True)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["status"] == 1
    assert "Did you mean 'default'?" in report["stderr"]
    assert report["heavy"] == []
    assert report["after_package"] == []


def test_lazy_package_exports_every_public_name():
    import sklearn_xai.benchmark as benchmark

    assert sorted(benchmark._SUBMODULE) == sorted(benchmark.__all__)
    for name in benchmark.__all__:
        assert getattr(benchmark, name) is not None
    assert set(benchmark.__all__) <= set(dir(benchmark))


def test_lazy_explainers_export_every_public_name():
    import importlib

    import sklearn_xai.explainers as explainers

    assert set(explainers.__all__) <= set(explainers._SUBMODULE)
    for name, module in explainers._SUBMODULE.items():
        defined = getattr(importlib.import_module(f"sklearn_xai.explainers.{module}"), name)
        assert getattr(explainers, name) is defined
    assert set(explainers.__all__) <= set(dir(explainers))
