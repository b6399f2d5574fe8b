"""The runner and the command line against a careless or hostile user:
results folders that carry pickles, links and hostile labels, configs that
name arbitrary code, leave the output folder or expand without bound,
unwritable output folders, failing cells, interrupted and killed runs."""

import json
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import numpy as np
import pandas as pd
import psutil
import pytest
from sklearn.linear_model import Ridge

from sklearn_xai.benchmark import (
    BenchmarkResults,
    BenchmarkSpec,
    load_config,
    register_component,
    run_benchmark,
)
from sklearn_xai.benchmark._cache import read_cell, write_cell
from sklearn_xai.benchmark._cli import main
from sklearn_xai.utils._files import json_size_problem, markdown_text, write_in_folder


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



# --------------------------------------------------------- received folders
_HOSTILE_DATASET = "x\ntouch PWN #"
_SCRIPT = "<script>alert(1)</script>"
_IMG = "<img src=x onerror=alert(1)>"


def _received(folder, n_rows=6):
    """A results folder as :meth:`BenchmarkResults.save` writes it, with
    hostile labels: a dataset label that starts a shell line, explainers
    that are HTML tags."""
    explainers = ["random", _SCRIPT, _IMG]
    rows, per_row = [], []
    for e, explainer in enumerate(explainers):
        for seed in range(3):
            values = np.arange(n_rows) * (e + 1) + seed
            rows.append({"dataset": _HOSTILE_DATASET, "model": "m|odel",
                         "explainer": explainer, "metric": "acc", "seed": seed,
                         "value": values.mean(), "greater_is_better": True,
                         "status": "ok", "error": "", "cached": False})
            per_row.append(pd.DataFrame({
                "dataset": _HOSTILE_DATASET, "model": "m|odel", "explainer": explainer,
                "metric": "acc", "seed": seed, "row": np.arange(n_rows),
                "value": values.astype(float)}))
    results = BenchmarkResults(pd.DataFrame(rows), pd.concat(per_row, ignore_index=True),
                               spec={"name": "received"}, control="random")
    results.save(folder)
    return results


def test_report_of_a_received_folder_never_writes_through_a_link(tmp_path, capsys):
    folder = tmp_path / "received"
    _received(folder)
    outside = tmp_path / "bashrc"
    outside.write_text("# the user's shell start-up file\n")
    (folder / "report.md").symlink_to(outside)
    (folder / "report.html").symlink_to(outside)
    assert main(["report", str(folder), "--no-figures"]) == 0
    capsys.readouterr()
    assert outside.read_text() == "# the user's shell start-up file\n"
    assert not (folder / "report.md").is_symlink() and not (folder / "report.html").is_symlink()
    md = (folder / "report.md").read_text()
    page = (folder / "report.html").read_text()
    # The hostile dataset label starts no line, and no tag reaches either page.
    assert not any(line.lstrip("#| ").startswith("touch") for line in md.splitlines())
    assert "x touch PWN #" in md
    for tag in ("<script", "<img src=x"):
        assert tag not in md and tag not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in md and "m\\|odel" in md
    # No temporary file is left behind.
    assert not [p for p in os.listdir(folder) if p.endswith(".tmp")]


def test_writes_never_leave_the_folder(tmp_path):
    folder, outside = tmp_path / "f", tmp_path / "outside"
    outside.mkdir()
    folder.mkdir()
    (folder / "figures").symlink_to(outside, target_is_directory=True)
    for name in ("figures/a.png", "../x", "/etc/x", "a/../../x", ""):
        with pytest.raises(ValueError):
            write_in_folder(folder, name, b"data")
    assert not os.listdir(outside)
    (folder / "cell.npz").symlink_to(outside / "target")
    write_in_folder(folder, "cell.npz", b"data")
    assert not (outside / "target").exists()
    assert (folder / "cell.npz").read_bytes() == b"data"
    assert not (folder / "cell.npz").is_symlink()
    # The cache: a planted link under a cell's name is replaced.
    (folder / "c.npz").symlink_to(outside / "cell")
    write_cell(str(folder / "c.npz"), {"a": 1})
    assert not (outside / "cell").exists() and read_cell(str(folder / "c.npz")) == {"a": 1}


def test_cache_folder_that_is_a_link_is_refused(tmp_path):
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    cache.mkdir()
    outside.mkdir()
    (cache / "cells").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ValueError, match="cells/ is a symbolic link"):
        run_benchmark(_config(seeds=[0]), cache_dir=cache)
    assert not os.listdir(outside)


@pytest.mark.parametrize("label, text", [
    ("a\nb", "a b"), ("a\r\n# b", "a # b"), ("a\u2028b", "a b"), ("\x1b[31mred", " \\[31mred"),
    ("<b>&", "&lt;b&gt;&amp;"), ("a|b", "a\\|b"), ("[x](javascript:y)", "\\[x\\](javascript:y)"),
    ("`code`", "\\`code\\`"), ("plain_label 1.5", "plain_label 1.5"),
])
def test_markdown_labels_are_escaped(label, text):
    assert markdown_text(label) == text


def test_truncated_or_missing_results_files_are_named(tmp_path, capsys):
    folder = tmp_path / "r"
    _received(folder)
    assert main(["report", str(folder), "--no-figures"]) == 0
    capsys.readouterr()
    # results.csv cut after 4 of its 9 rows: an error naming the file and counts.
    text = (folder / "results.csv").read_text()
    pd.read_csv(folder / "results.csv").head(4).to_csv(folder / "results.csv", index=False)
    assert main(["report", str(folder), "--no-figures"]) == 1
    err = capsys.readouterr().err
    assert "results.csv has 4 rows where the run wrote 9" in err
    # ... or cut in the middle of a row.
    (folder / "results.csv").write_text(text[:-7])
    assert main(["report", str(folder), "--no-figures"]) == 1
    assert "results.csv ends in the middle of a row" in capsys.readouterr().err
    (folder / "results.csv").write_text(text)
    # per_row.csv missing: said, instead of every explainer "not better than
    # the control".
    (folder / "per_row.csv").unlink()
    assert main(["report", str(folder), "--no-figures"]) == 1
    err = capsys.readouterr().err
    assert "per_row.csv is missing (the run wrote 54 rows)" in err
    assert "Traceback" not in err


def test_edited_results_file_is_a_warning(tmp_path):
    folder = tmp_path / "r"
    _received(folder)
    text = (folder / "results.csv").read_text()
    (folder / "results.csv").write_text(text.replace("m|odel", "m2"))
    with pytest.warns(UserWarning, match="differs from the file the run wrote"):
        BenchmarkResults.load(folder)


@pytest.mark.parametrize("content, why", [
    ("[1, 2]", "holds a list, not a JSON object"),
    ("[" * 2000 + "]" * 2000, "nests too deeply"),
    ("{", "not valid JSON"),
])
def test_hostile_benchmark_json_is_one_line(tmp_path, capsys, content, why):
    folder = tmp_path / "r"
    _received(folder)
    (folder / "benchmark.json").write_text(content)
    assert main(["report", str(folder), "--no-figures"]) == 1
    err = capsys.readouterr().err
    assert why in err and "benchmark.json" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# ----------------------------------------------------------- config files
@pytest.mark.parametrize("name", ["../../x", "/abs/path", "a/b", "..", "", "a\nb",
                                  "C:\\x"])
def test_config_name_must_be_a_plain_folder_name(tmp_path, capsys, monkeypatch, name):
    path = _write(tmp_path / "c.json", _config(name=name, seeds=[0]))
    monkeypatch.chdir(tmp_path)  # the default output folder is relative to here
    assert main(["run", path, "-q", "--no-figures"]) == 1
    err = capsys.readouterr().err
    assert "name must be a plain folder name" in err and str(path) in err
    assert not (tmp_path / "sklearn_xai_results").exists()
    with pytest.raises(ValueError, match="plain folder name"):
        BenchmarkSpec.from_dict(_config(name=name))
    BenchmarkSpec.from_dict(_config(name="my run-2.1"))  # an ordinary name


def _bomb():
    """A YAML flow sequence of 10 lists, each of 10 aliases of the one
    before: under 700 bytes, 10**10 values once expanded."""
    levels = ["&a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    return "[" + ", ".join(levels) + "]"


@pytest.mark.parametrize("where", ["top", "dataset_params", "masker_params", "seeds"])
def test_yaml_alias_bomb_is_refused_quickly(tmp_path, capsys, where):
    config = _config(seeds=[0])
    if where == "top":
        config["bomb"] = "BOMB"
    elif where == "dataset_params":
        config["dataset"]["params"]["x"] = "BOMB"
    elif where == "masker_params":
        config["explainers"]["ablation"]["params"]["masker"]["params"]["value"] = "BOMB"
    else:
        config["seeds"] = "BOMB"
    source = json.dumps(config).replace('"BOMB"', _bomb())  # JSON is YAML
    assert len(source.encode()) < 1500
    path = tmp_path / "bomb.yaml"
    path.write_text(source)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="expands to more than"):
        load_config(path)
    assert main(["run", str(path), "--out", str(tmp_path / "o"), "-q"]) == 1
    assert "bomb.yaml: the config is refused" in capsys.readouterr().err
    assert time.perf_counter() - start < 60  # bounded: not billions of nodes


def test_size_bound_counts_aliases_without_expanding():
    leaf = ["x"] * 10
    node = leaf
    for _ in range(9):
        node = [node] * 10
    assert "expands to more than" in json_size_problem({"a": node})
    # By hand: leaf 1 + 10, the list 1 + 10 x 11, the mapping 1 + its key + 111.
    assert json_size_problem({"a": [leaf] * 10}, max_nodes=113) is None
    assert "more than 112" in json_size_problem({"a": [leaf] * 10}, max_nodes=112)
    deep = []
    for _ in range(150):
        deep = [deep]
    assert "nests deeper" in json_size_problem(deep)
    loop = []
    loop.append(loop)
    assert "refers to itself" in json_size_problem(loop)


@pytest.mark.parametrize("text, why", [
    ("a: !!python/object/apply:os.system ['touch PWN']\n", "no '!!python' tags"),
    ("a: [1, 2\n", "not a valid YAML config"),
    ("a:\n\tb: 1\n", "not a valid YAML config"),
])
def test_yaml_errors_name_the_file(tmp_path, capsys, text, why):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main(["run", str(path), "--out", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert why in err and str(path) in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "PWN").exists()


@pytest.mark.parametrize("content, why", [
    ("[" * 2000 + "]" * 2000, "nests too deeply"),
    ("[1]", "must be a mapping, got list"),
    ('{"a": ', "not valid JSON"),
])
def test_json_config_errors_name_the_file(tmp_path, capsys, content, why):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["run", str(path), "--out", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert why in err and str(path) in err and "Traceback" not in err


def test_closed_stdout_pipe_is_not_an_error(monkeypatch, capsys):
    read, write = os.pipe()
    os.close(read)  # the reader is gone, as after `| head -1`
    stream = open(write, "w", buffering=1)  # line-buffered: the first line fails
    monkeypatch.setattr(sys, "stdout", stream)
    try:
        assert main(["list", "presets"]) == 0
        stream.write("x\n")  # the interpreter's last flush succeeds as well
        stream.flush()
    finally:
        monkeypatch.undo()
        stream.close()
    assert "Broken pipe" not in capsys.readouterr().err


# ---------------------------------------------------------- killed runs
# The slow explainer of these runs never sleeps for a set time: the first
# ``PASS`` calls go through, the later ones wait for the file ``gate/open``,
# and every call first leaves a file in ``calls/`` named by its process id.
# The tests wait for those files, not for a clock (a bound of minutes stays,
# as a safety net only).  The explainer is a module next to the config that
# the run imports with ``--import``: loky workers import it by name (the
# config's folder is on their ``sys.path``), which the killed loky run checks
# (test_cli.py's in-process --import test runs sequentially).
_GATED = """
import os, time
from sklearn_xai.benchmark import register_component
from sklearn_xai.explainers import FeatureAblation

FOLDER = {folder!r}


class GatedAblation(FeatureAblation):
    def _explain(self, X, f, target_index, rngs):
        calls = os.path.join(FOLDER, "calls")
        n = len(os.listdir(calls))
        open(os.path.join(calls, f"{{os.getpid()}}-{{time.time_ns()}}"), "w").close()
        if n >= {n_pass}:
            deadline = time.monotonic() + 600
            while not os.path.exists(os.path.join(FOLDER, "gate", "open")):
                assert time.monotonic() < deadline
                time.sleep(0.05)
        return super()._explain(X, f, target_index, rngs)


register_component(GatedAblation, kind="explainer")
"""

# The command line, as the ``sklearn-xai`` entry point runs it.
_CLI = "import sys; from sklearn_xai.benchmark._cli import main; sys.exit(main())"

_SAFETY_S = 600  # a bound for a broken run, never reached by a working one


def _gated_run(tmp_path, n_pass, n_seeds, extra):
    for folder in ("calls", "gate"):
        (tmp_path / folder).mkdir(exist_ok=True)
    module = tmp_path / "gated_explainers.py"
    module.write_text(textwrap.dedent(_GATED.format(folder=str(tmp_path), n_pass=n_pass)))
    config = _write(tmp_path / "gated.json", _config(explainers=["GatedAblation"],
                                                    seeds=list(range(n_seeds))))
    out = tmp_path / "out"
    cmd = [sys.executable, "-c", _CLI, "run", config, "--import", "gated_explainers",
           "--out", str(out), "-q", "--no-figures", "--shard-size", "none", *extra]
    return cmd, out / "cache" / "cells"


def _default_sigint():
    """Give the run Ctrl-C's default disposition (run in the child before it
    starts): a test session started with SIGINT ignored, e.g. as a background
    job of a non-interactive shell, passes the ignore on, and the run would
    never see the interrupt the test sends (it waited for the safety bound)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(condition, proc, what):
    """Wait until ``condition()``, while ``proc`` runs."""
    deadline = time.monotonic() + _SAFETY_S
    while not condition():
        assert proc.poll() is None, (what, proc.communicate())
        assert time.monotonic() < deadline, f"safety bound: still waiting for {what}"
        time.sleep(0.05)


def _n_files(folder, pattern="*"):
    return len(list(folder.glob(pattern))) if folder.exists() else 0


def test_ctrl_c_says_how_to_resume_and_exits_130(tmp_path, capsys, monkeypatch):
    cmd, cells = _gated_run(tmp_path, n_pass=2, n_seeds=8, extra=["--backend", "sequential"])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)
    # Two cells are cached and the third waits at the gate: interrupt it there.
    _wait_for(lambda: _n_files(cells, "*.npz") >= 2 and _n_files(tmp_path / "calls") >= 3,
              proc, "two cached cells and a third started")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=_SAFETY_S)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted after 2 of 8 cells; rerun the same command to resume" in err
    assert _n_files(cells, "*.npz") == 2
    # The rerun resumes: only the cells not cached are computed.  It runs in
    # this process (a fresh interpreter adds nothing to reading the cache);
    # its --import puts the config's folder on sys.path, restored afterwards.
    (tmp_path / "gate" / "open").touch()
    monkeypatch.setattr(sys, "path", list(sys.path))
    try:
        assert main(cmd[3:]) == 0, capsys.readouterr().err
    finally:
        sys.modules.pop("gated_explainers", None)
    assert "8 cells (6 computed, 2 from the cache)" in capsys.readouterr().out


def _tagged_processes(tag):
    """The live processes started with SKLEARN_XAI_TEST_TAG=tag in their
    environment (the run, its workers, their resource trackers)."""
    found = []
    for p in psutil.process_iter():
        try:
            if p.environ().get("SKLEARN_XAI_TEST_TAG") == tag and \
                    p.status() != psutil.STATUS_ZOMBIE:
                found.append(p)
        except (psutil.Error, OSError):
            continue
    return found


def _killed_run_leaves_nothing(tmp_path, ready, n_pass):
    """Start a 2-worker loky run, SIGKILL it once ``ready(proc)``, then check
    that every process it started exits and lets go of its output pipes."""
    cmd, cells = _gated_run(tmp_path, n_pass=n_pass, n_seeds=8,
                            extra=["--backend", "loky", "--n-jobs", "2"])
    tag = uuid.uuid4().hex
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "SKLEARN_XAI_TEST_TAG": tag})
    try:
        _wait_for(lambda: ready(proc, cells), proc, "the run's workers")
        proc.send_signal(signal.SIGKILL)
        n_cells = _n_files(cells, "*.npz")
        # The explainer ran in the workers, which imported its module by name.
        callers = {int(p.name.split("-")[0]) for p in (tmp_path / "calls").iterdir()}
        assert n_pass == 0 or (callers and proc.pid not in callers)
        # communicate() returns once no process holds the run's stdout/stderr.
        proc.communicate(timeout=_SAFETY_S)
        deadline = time.monotonic() + _SAFETY_S
        while _tagged_processes(tag):  # an orphan may stay a zombie: not counted
            assert time.monotonic() < deadline, "safety bound: processes left"
            time.sleep(0.1)
        # Nothing of the run is left to write cells, even with the gate open.
        (tmp_path / "gate" / "open").touch()
        assert not _tagged_processes(tag)
        assert _n_files(cells, "*.npz") == n_cells
    finally:
        for p in _tagged_processes(tag):
            p.kill()


def _workers(proc):
    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    return [c for c in children if "resource_tracker" not in " ".join(c.cmdline())]


def test_workers_do_not_outlive_a_killed_run(tmp_path):
    # Killed while both workers compute (one cell cached, two at the gate).
    _killed_run_leaves_nothing(
        tmp_path, lambda proc, cells: (_n_files(cells, "*.npz") >= 1
                                       and _n_files(tmp_path / "calls") >= 3
                                       and len(_workers(proc)) >= 2), n_pass=1)


# Slow: the killed workers finish their cold import (torch, scikit-learn) before
# they see the run is gone. The default run keeps the kill during computation
# (test_workers_do_not_outlive_a_killed_run), the same check on the same run.
@pytest.mark.slow
def test_workers_starting_do_not_outlive_a_killed_run(tmp_path):
    # Killed as soon as its workers exist, while they are still starting.
    _killed_run_leaves_nothing(tmp_path, lambda proc, cells: len(_workers(proc)) >= 2,
                               n_pass=0)
