"""The runner and the command line against a careless or hostile user:
results folders that carry pickles, configs that name arbitrary code,
unwritable output folders, failing cells and interrupted runs."""

import json
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import psutil
import pytest
from sklearn.linear_model import Ridge

from sklearn_xai.benchmark import load_config, register_component, run_benchmark
from sklearn_xai.benchmark._cache import read_cell, write_cell
from sklearn_xai.benchmark._cli import main


class _Planted:
    """A pickle payload: unpickling it creates the file ``marker``."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _config(**overrides):
    config = {
        "dataset": {"name": "make_linear_attribution",
                    "params": {"n_samples": 120, "n_features": 3}},
        "models": ["linear_regression"],
        "explainers": {"random": "RandomExplainer",
                       "ablation": {"name": "FeatureAblation",
                                    "params": {"masker": {"name": "BaselineMasker",
                                                          "params": {"value": "mean"}}}}},
        "metrics": ["feature_agreement", "neg_complexity"],
        "seeds": [0, 1], "n_explain": 10,
    }
    config.update(overrides)
    return config


def _write(path, config):
    path.write_text(json.dumps(config))
    return str(path)


# ------------------------------------------------------------ planted pickles
def test_planted_pickles_in_every_cache_file_never_run(tmp_path):
    cache = tmp_path / "cache"
    first = run_benchmark(_config(), cache_dir=cache).table
    cells = sorted((cache / "cells").iterdir())
    assert cells and all(p.suffix == ".npz" for p in cells)
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_Planted(str(marker)))
    # Every cached cell replaced by: a raw pickle, an .npz whose array is an
    # object array (pickled inside), and pickles beside them under the names
    # earlier versions read (cells/*.pkl, fits/).
    for i, path in enumerate(cells):
        if i % 2:
            path.write_bytes(payload)
        else:
            with open(path, "wb") as fh:
                np.savez(fh, __cell__=np.array([_Planted(str(marker))], dtype=object))
        path.with_suffix(".pkl").write_bytes(payload)
    (cache / "fits").mkdir()
    (cache / "fits" / "output.pkl").write_bytes(payload)
    second = run_benchmark(_config(), cache_dir=cache)
    assert not marker.exists()
    # The planted files were ignored: every cell recomputed, same numbers.
    assert second.n_computed == second.n_cells
    np.testing.assert_array_equal(first["value"].to_numpy(), second.table["value"].to_numpy())
    assert not marker.exists()


def test_cache_files_hold_only_numbers_and_json(tmp_path):
    content = {"explanation": {"attributions": np.arange(6.0).reshape(2, 3),
                               "n_evaluations": 7, "explainer_class": "X"},
               "metrics": {"k": {"status": "ok", "value": float("nan"), "scores": None,
                                 "greater_is_better": True}},
               "warnings": ["UserWarning: w"]}
    path = str(tmp_path / "c.npz")
    write_cell(path, content)
    back = read_cell(path)
    np.testing.assert_array_equal(back["explanation"]["attributions"],
                                  content["explanation"]["attributions"])
    assert back["explanation"]["n_evaluations"] == 7
    assert np.isnan(back["metrics"]["k"]["value"]) and back["metrics"]["k"]["scores"] is None
    # Anything else cannot be written, and a truncated file reads as absent.
    with pytest.raises(TypeError, match="Only numeric arrays"):
        write_cell(path, {"a": np.array(["x"], dtype=object)})
    with pytest.raises(TypeError, match="Cannot cache"):
        write_cell(path, {"a": object()})
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 2])
    assert read_cell(path) is None


# --------------------------------------------------------- configs and code
DANGEROUS = ["os.system", "subprocess.getoutput", "builtins.eval", "pickle.loads",
             "subprocess.Popen", "shutil.rmtree"]


@pytest.mark.parametrize("name", DANGEROUS)
@pytest.mark.parametrize("where", ["dataset", "model", "explainer", "masker", "metric_masker"])
def test_config_naming_arbitrary_code_is_refused(tmp_path, name, where):
    marker = tmp_path / "pwned"
    evil = {"name": name, "params": {"cmd": f"touch {marker}"}}
    config = _config()
    if where == "dataset":
        config["dataset"] = evil
    elif where == "model":
        config["models"] = [evil]
    elif where == "explainer":
        config["explainers"] = [evil]
    elif where == "masker":
        config["explainers"] = [{"name": "FeatureAblation", "params": {"masker": evil}}]
    else:
        config["metrics"] = [{"name": "comprehensiveness", "params": {"masker": evil}}]
    path = _write(tmp_path / "evil.json", config)
    with pytest.raises(ValueError, match="register_component") as info:
        load_config(path)
    assert repr(name) in str(info.value)
    assert not marker.exists()


@pytest.mark.parametrize("name, why", [
    ("sklearn.base.clone", "not an estimator class"),
    ("sklearn_xai.benchmark._runner._run_cell", "not an estimator class"),
    ("some_module_nobody_trusts.Model", "not in a library a config file may import"),
])
def test_config_dotted_paths_must_be_estimators_of_trusted_libraries(tmp_path, name, why):
    path = _write(tmp_path / "c.json", _config(models=[name]))
    with pytest.raises(ValueError, match=why):
        load_config(path)
    assert "some_module_nobody_trusts" not in sys.modules


def test_config_dataset_must_be_a_generator(tmp_path):
    ok = _write(tmp_path / "ok.json", _config(dataset={
        "name": "sklearn.datasets.make_friedman1", "params": {"n_samples": 100}}))
    load_config(ok)
    bad = _write(tmp_path / "bad.json", _config(dataset={"name": "sklearn.datasets.fetch_openml"}))
    with pytest.raises(ValueError, match="not a data generator"):
        load_config(bad)


def my_own_data(n_samples=100, random_state=None):
    """A dataset function of a module a config may not import from."""
    from sklearn_xai.datasets import make_linear_attribution

    return make_linear_attribution(n_samples=n_samples, n_features=3,
                                   random_state=random_state)


def test_registered_components_are_allowed_in_configs(tmp_path):
    path = _write(tmp_path / "c.json", _config(dataset={"name": "my_own_data"}, seeds=[0]))
    with pytest.raises(ValueError, match="Unknown dataset 'my_own_data'"):
        run_benchmark(path)
    register_component(my_own_data, kind="dataset")
    for name in ("my_own_data", f"{__name__}.my_own_data"):
        path = _write(tmp_path / "c.json", _config(dataset={"name": name}, seeds=[0]))
        results = run_benchmark(path)
        assert (results.table["status"] == "ok").all(), results.table["error"].tolist()


def test_register_component_refuses_bad_input():
    with pytest.raises(ValueError, match="already names"):
        register_component(type("FeatureAblation", (), {"fit": 1, "get_params": 1}),
                           kind="explainer")
    with pytest.raises(TypeError, match="estimator class"):
        register_component(len, kind="model")
    with pytest.raises(ValueError, match="kind must be"):
        register_component(len, kind="metric")


class _UntrustedRidge(Ridge):
    """A model from a module a config file may not import from."""


def test_python_specs_keep_full_freedom(tmp_path):
    # Python specs are not restricted: a class of any module works ...
    results = run_benchmark(_config(models={"own": _UntrustedRidge}, seeds=[0]))
    assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
    # ... while a config file naming it is refused.
    path = _write(tmp_path / "c.json",
                  _config(models=[f"{__name__}._UntrustedRidge"], seeds=[0]))
    with pytest.raises(ValueError, match="not in a library a config file may import"):
        load_config(path)


# ------------------------------------------------------ the command line
def test_unwritable_output_folder_is_one_line_and_exit_1(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    config = _write(tmp_path / "c.json", _config(seeds=[0]))
    for extra in ([], ["--no-cache"]):
        code = main(["run", config, "--out", str(blocker / "out"), "-q", *extra])
        captured = capsys.readouterr()
        assert code == 1
        err = captured.err.strip().splitlines()
        assert len(err) == 1 and "cannot write the output folder" in err[0]
        assert "--out DIR" in err[0] and "Traceback" not in captured.err
        assert "cells" not in captured.out  # nothing was computed


def test_hostile_config_on_the_command_line(tmp_path, capsys):
    marker = tmp_path / "pwned"
    config = _write(tmp_path / "c.json", _config(dataset={
        "name": "subprocess.getoutput", "params": {"cmd": f"touch {marker}"}}))
    assert main(["run", config, "--out", str(tmp_path / "o"), "-q"]) == 1
    assert "may not name" in capsys.readouterr().err
    assert not marker.exists()


def test_failed_cells_fail_the_run_and_are_grouped(tmp_path, capsys):
    config = _config(explainers={
        "random": "RandomExplainer",
        "broken": {"name": "FeatureAblation", "params": {"batch_size": -5}}})
    code = main(["run", _write(tmp_path / "c.json", config), "--out",
                 str(tmp_path / "o"), "-q", "--no-figures", "--backend", "sequential"])
    out = capsys.readouterr().out
    assert code == 1
    assert "4 of 8 scores FAILED:" in out
    line = next(l for l in out.splitlines() if l.startswith("  explainer 'broken'"))
    assert "batch_size" in line and "(x4 scores in 2 cells)" in line
    # A clean run exits 0, and skips are listed apart from failures.
    config = _config(dataset={"name": "load_diabetes"}, seeds=[0])
    code = main(["run", _write(tmp_path / "d.json", config), "--out",
                 str(tmp_path / "p"), "-q", "--no-figures", "--backend", "sequential"])
    out = capsys.readouterr().out
    assert code == 0
    assert "scores skipped as not applicable" in out and "FAILED" not in out
    assert "metric 'feature_agreement': the dataset provides no ground_truth (x2)" in out


_SLOW = """
import sys, time
from sklearn_xai.benchmark import register_component
from sklearn_xai.benchmark._cli import main
from sklearn_xai.explainers import FeatureAblation


class SlowAblation(FeatureAblation):
    def _explain(self, X, f, target_index, rngs):
        time.sleep({delay})
        return super()._explain(X, f, target_index, rngs)


register_component(SlowAblation, kind="explainer")
sys.exit(main(sys.argv[1:]))
"""


def _slow_run(tmp_path, delay, n_seeds, extra):
    script = tmp_path / "slow.py"
    script.write_text(textwrap.dedent(_SLOW.format(delay=delay)))
    config = _write(tmp_path / "slow.json", _config(explainers=["SlowAblation"],
                                                   seeds=list(range(n_seeds))))
    out = tmp_path / "out"
    cmd = [sys.executable, str(script), "run", config, "--out", str(out), "-q",
           "--no-figures", *extra]
    return cmd, out / "cache" / "cells"


def _wait_for_cells(cells, n, proc, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        assert proc.poll() is None, proc.communicate()
        if cells.exists() and len(list(cells.glob("*.npz"))) >= n:
            return
        time.sleep(0.1)
    raise AssertionError("no cell was cached in time")


def test_ctrl_c_says_how_to_resume_and_exits_130(tmp_path):
    cmd, cells = _slow_run(tmp_path, delay=0.5, n_seeds=8, extra=["--backend", "sequential"])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_cells(cells, 2, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted after" in err and "of 8 cells; rerun the same command to resume" in err
    n_cached = len(list(cells.glob("*.npz")))
    assert n_cached >= 2
    # The rerun resumes: only the cells not cached are computed.
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"8 cells ({8 - n_cached} computed, {n_cached} from the cache)" in done.stdout


def test_workers_do_not_outlive_a_killed_run(tmp_path):
    cmd, cells = _slow_run(tmp_path, delay=2.0, n_seeds=8,
                           extra=["--backend", "loky", "--n-jobs", "2"])
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_cells(cells, 1, proc)
    workers = [c for c in psutil.Process(proc.pid).children(recursive=True)
               if "resource_tracker" not in " ".join(c.cmdline())]
    assert workers
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    def alive(p):
        try:
            return p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.time() + 10
    while time.time() < deadline and any(alive(w) for w in workers):
        time.sleep(0.2)
    assert not any(alive(w) for w in workers)
    # ... and nothing writes cells once they are gone (a cell running when
    # the main process died is abandoned, not written later).
    n_cells = len(list(cells.glob("*.npz")))
    time.sleep(2.5)
    assert len(list(cells.glob("*.npz"))) == n_cells
