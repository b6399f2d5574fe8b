"""The "Write your own explainer" page, followed literally.

The module, the config, the command and the checks are read from
doc/user_guide/custom_explainer.rst itself, so the page and what works
cannot drift apart.
"""

import inspect
import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import _spec
from sklearn_xai.benchmark._cli import main

PAGE = Path(__file__).resolve().parents[2] / "doc" / "user_guide" / "custom_explainer.rst"


def _code_blocks(text):
    """The literal blocks of an rst page (``::`` paragraphs and
    ``.. code-block::`` directives), dedented."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"\s*\.\. code-block::", line) or (
                line.rstrip().endswith("::") and not line.lstrip().startswith("..")):
            i += 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                body.append(lines[i])
                i += 1
            blocks.append(textwrap.dedent("\n".join(body)).strip("\n") + "\n")
        else:
            i += 1
    return blocks


def _block(first_line):
    """The page's block starting with ``first_line``."""
    found = [b for b in _code_blocks(PAGE.read_text()) if b.startswith(first_line)]
    assert len(found) == 1, f"the page has {len(found)} blocks starting {first_line!r}"
    return found[0]


@pytest.fixture
def page_files(tmp_path, monkeypatch):
    """The page's module and config written to a fresh folder, as a new user
    would save them; the import state is restored afterwards."""
    (tmp_path / "my_explainers.py").write_text(_block("# my_explainers.py"))
    (tmp_path / "mine.yaml").write_text(_block("# mine.yaml"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    previous = sys.modules.pop("my_explainers", None)
    monkeypatch.setitem(_spec._REGISTERED, "explainer", dict(_spec._REGISTERED["explainer"]))
    yield tmp_path
    sys.modules.pop("my_explainers", None)
    if previous is not None:
        sys.modules["my_explainers"] = previous


def _shrunk(monkeypatch):
    """Run the page's command on a slice of its preset (one model, three
    explainers, two metrics, one seed), so the test takes seconds."""
    import sklearn_xai.benchmark._runner as runner

    real = runner.run_benchmark

    def small(spec, **kwargs):
        spec.models = {"linear": spec.models["linear"]}
        spec.explainers = {k: spec.explainers[k] for k in ("random", "ablation", "mine")}
        spec.metrics = {k: spec.metrics[k] for k in ("feature_agreement", "neg_complexity")}
        spec.seeds, spec.n_explain = [0], 8
        return real(spec, **kwargs)

    monkeypatch.setattr(runner, "run_benchmark", small)


def test_the_pages_command_runs_the_pages_explainer(page_files, monkeypatch, capsys):
    command = _block("$ sklearn-xai run")
    argv = command.split()[2:]
    assert argv == ["run", "mine.yaml", "--import", "my_explainers"]
    _shrunk(monkeypatch)
    extra = ["--out", str(page_files / "out"), "--n-jobs", "1", "-q", "--no-figures"]

    # Without --import the error says what to add, before anything runs.
    assert main(argv[:2] + extra) == 1
    err = capsys.readouterr().err
    assert "Unknown explainer 'MyExplainer'" in err
    assert "register_component(MyExplainer, kind='explainer')" in err
    assert "--import my_module" in err
    assert not (page_files / "out" / "results.csv").exists()

    assert main(argv + extra) == 0, capsys.readouterr().err
    table = pd.read_csv(page_files / "out" / "results.csv")
    mine = table[table["explainer"] == "mine"]
    assert set(mine["metric"]) == {"feature_agreement", "neg_complexity"}
    assert (mine["explainer_class"] == "MyExplainer").all()
    assert (mine["status"] == "ok").all() and mine["value"].notna().all()
    assert "mine" in capsys.readouterr().out


def test_the_pages_explainer_is_gradient_times_input(page_files):
    """On a linear model the page's explainer equals ``w * x`` (closed form)."""
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LinearRegression

    sys.path.insert(0, str(page_files))
    from my_explainers import MyExplainer

    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    w = np.array([2.0, -1.0, 0.5])
    model = LinearRegression().fit(X, X @ w + 1.0)
    phi = MyExplainer(FrozenEstimator(model)).fit(X).transform(X[:5])
    np.testing.assert_allclose(phi, X[:5] * w, atol=1e-6)


def test_the_pages_check_snippet_passes(page_files):
    snippet = _block("from sklearn.linear_model import LinearRegression\n"
                     "from sklearn.utils.estimator_checks import check_estimator")
    assert "check_estimator(MyExplainer(LinearRegression()))" in snippet
    sys.path.insert(0, str(page_files))
    exec(compile(snippet, "custom_explainer.rst", "exec"), {})  # raises on a failure

    # What the page warns about: without a model scikit-learn's checks fail.
    from my_explainers import MyExplainer
    from sklearn.utils.estimator_checks import check_estimator

    with pytest.raises(ValueError, match="needs a model"):
        check_estimator(MyExplainer())


# ----------------------------------------------- the unknown-name errors
def _kind_of(obj):
    from sklearn.base import is_regressor

    from sklearn_xai.base import BaseExplainer
    from sklearn_xai.masking import BaseMasker

    if inspect.isclass(obj) and issubclass(obj, BaseExplainer):
        return "explainer"
    if inspect.isclass(obj) and issubclass(obj, BaseMasker):
        return "masker"
    if inspect.isclass(obj) and is_regressor(obj()):
        return "model"
    if inspect.isfunction(obj) and "n_samples" in inspect.signature(obj).parameters:
        return "dataset"
    return None


@pytest.mark.parametrize("kind", ["explainer", "masker", "model", "dataset"])
def test_unknown_name_error_names_the_fix(kind):
    with pytest.raises(ValueError) as info:
        _spec._lookup("MyThing", kind)
    message = str(info.value)
    assert f"Unknown {kind} 'MyThing'" in message
    assert (f"sklearn_xai.benchmark.register_component(MyThing, kind={kind!r})"
            in message)
    assert "--import my_module" in message
    # The dotted path it offers is one of this kind, and a config may name it.
    example = re.findall(r"such as '([\w.]+)'", message)
    assert len(example) == 1
    assert _kind_of(_spec._import_path(example[0])) == kind
    assert _spec._config_name_problem(example[0], kind) is None


def test_unknown_name_error_suggests_close_names():
    with pytest.raises(ValueError, match="Did you mean 'KernelSHAP'"):
        _spec._lookup("KernelShap", "explainer")


def test_a_config_dotted_path_to_own_code_names_the_fix():
    problem = _spec._config_name_problem("my_explainers.MyExplainer", "explainer")
    assert "register_component(MyExplainer, kind='explainer')" in problem
    assert "--import my_module" in problem


# --------------------------------------------------------- --import errors
def test_import_errors_name_the_file_and_the_fix(page_files, capsys):
    run = ["run", "mine.yaml", "--out", str(page_files / "out"), "-q"]

    (page_files / "broken.py").write_text("import numpy\n\nregister(MyExplainer)\n")
    assert main(run + ["--import", "broken"]) == 1
    err = capsys.readouterr().err
    assert "broken.py, line 3" in err and "NameError" in err

    assert main(run + ["--import", "no_such_module_here"]) == 1
    err = capsys.readouterr().err
    assert "no_such_module_here.py" in err and str(page_files) in err

    # A file named like an imported module would silently not run.
    (page_files / "json.py").write_text("raise SystemExit('must not run')\n")
    assert main(run + ["--import", "json"]) == 1
    assert "already imported" in capsys.readouterr().err

    assert main(["run", "mnie.yaml", "--import", "my_explainers", "-q"]) == 1
    assert "config file 'mnie.yaml' not found" in capsys.readouterr().err
