"""The import layers of sklearn_xai, checked on the source (AST, no import).

Layers, lowest first.  A module may import modules of its own layer and of
lower layers, never of a higher one, whether at module level or inside a
function::

    utils       foundation: scikit-learn private API (utils/_sklearn.py),
                explained output, random streams, validation and ranking,
                estimator unwrapping, Shapley arithmetic
    models      skorch networks.  They import nothing of sklearn_xai but
                utils; only the benchmark imports them (gradient explainers
                recognise a torch net by its ``module_``, they do not import
                models), so they sit right above utils and any layer may use
                them
    distributions  feature distributions with exact conditionals and their
                public protocol (BaseDistribution: standard_draws,
                impute_coalitions, expected_rows, ...).  Masking draws from
                them (ConditionalMasker) and the generators return them; they
                need only utils
    masking     how features are removed: maskers and perturbers, the one
                value-function engine
    datasets    generators (which return distributions) and exact Shapley
                values, which enumerate coalitions through any masker, so
                they sit above masking; the Shapley arithmetic they share
                with the explainers lives in utils/_shapley.py
    base        BaseExplainer
    explainers
    metrics     metric functions, scorers, the registry
    compose     ExplainedModel (imports metrics for its ``scoring``)
    plotting    displays of attributions (waterfall, beeswarm, bars, image
                overlays); they call explainers (``from_explainer``) and
                validate with base and utils
    discovery   sklearn_xai.utils.discovery only: like sklearn.utils.discovery
                it lists the estimators of every subpackage by importing
                them, so it sits above them although it lives in utils
    benchmark

The root package (``sklearn_xai/__init__.py``) imports nothing; any module
may import from it (``__version__``).

Privacy: a module never imports a private name (``_name``) defined in
another subpackage, nor a private module (``sklearn_xai.x._y``) of another
subpackage: it goes through that subpackage's public ``__init__``.  utils is
the exception for modules (not names): its private modules are the package's
internal toolbox and everyone imports them, as scikit-learn does with
``sklearn.utils._param_validation``.

Inside metrics: a metric module imports private names of another metrics
module only from the shared modules of METRICS_SHARED_MODULES (``_common``
for every model-based metric, ``_shared_removal`` for the removal and
retraining families, ``_shared_neighbours`` for sensitivity and stability,
and the registry); a helper two metric modules need moves there, it is never
imported from a sibling metric module.

KNOWN_VIOLATIONS lists the breaches not fixed yet.  The test fails on any
breach not listed and on any listed one that is gone, so the list can only
shrink: delete an entry when you fix it.

A second check: only ``sklearn_xai/utils/_sklearn.py`` imports scikit-learn's
private API.
"""

import ast
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "sklearn_xai"

LAYERS = [
    "utils",
    "models",
    "distributions",
    "masking",
    "datasets",
    "base",
    "explainers",
    "metrics",
    "compose",
    "plotting",
    "discovery",
    "benchmark",
]

# Modules that sit in another layer than their subpackage.
LAYER_OF_MODULE = {"sklearn_xai.utils.discovery": "discovery"}

# (importer, imported) pairs that break the rules today.
KNOWN_VIOLATIONS = set()

SKLEARN_PRIVATE_GATEWAY = "sklearn_xai.utils._sklearn"

# The only metrics modules whose private names other metrics modules import.
METRICS_SHARED_MODULES = {
    "sklearn_xai.metrics._common",
    "sklearn_xai.metrics._shared_docs",
    "sklearn_xai.metrics._shared_removal",
    "sklearn_xai.metrics._shared_neighbours",
    "sklearn_xai.metrics._registry",  # registry internals, for the scorers
}


# ----------------------------------------------------------------- helpers
def package_modules(package_dir=PACKAGE_DIR):
    """``{dotted module name: source}`` of every module of the package."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = ("sklearn_xai",) + path.relative_to(package_dir).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path.read_text(encoding="utf-8")
    return modules


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _imports(source, root, known_modules=()):
    """``(imported module, imported names, line)`` for each import of a
    ``root`` module in ``source``, at any depth (lazy imports included).
    ``from pkg import submodule`` is reported as an import of the submodule.
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == root:
                    yield alias.name, (), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(
                    f"relative import at line {node.lineno}: use absolute imports")
            if node.module is None or node.module.split(".")[0] != root:
                continue
            names = []
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in known_modules:
                    yield submodule, (), node.lineno
                else:
                    names.append(alias.name)
            if names:
                yield node.module, tuple(names), node.lineno


def layer_of(module):
    """Layer name of a module of the package (``None`` for the root)."""
    if module in LAYER_OF_MODULE:
        return LAYER_OF_MODULE[module]
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _subpackage(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _breach(importer, imported, names):
    """Why ``importer`` may not import ``names`` from ``imported`` (or None)."""
    if _subpackage(imported) is None:  # the root package
        private = [n for n in names if _is_private(n)]
        return f"private names {private} of sklearn_xai" if private else None
    low, high = layer_of(imported), layer_of(importer)
    if low not in LAYERS or high not in LAYERS:
        return None  # reported by test_every_module_has_a_layer
    if LAYERS.index(low) > LAYERS.index(high):
        return f"upward import: layer {high!r} must not import layer {low!r}"
    if _subpackage(imported) == _subpackage(importer):
        return None
    private = [n for n in names if _is_private(n)]
    if private:
        return f"private names {private} of another subpackage"
    if _subpackage(imported) != "utils" and any(
        _is_private(part) for part in imported.split(".")[2:]
    ):
        return ("private module of another subpackage: import from its "
                f"public package sklearn_xai.{_subpackage(imported)}")
    return None


def layer_violations(modules):
    """``{(importer, imported): message}`` of every breach in ``modules``."""
    found = {}
    for importer, source in modules.items():
        for imported, names, line in _imports(source, "sklearn_xai", modules):
            reason = _breach(importer, imported, names)
            if reason is not None:
                found.setdefault(
                    (importer, imported),
                    f"{importer}:{line} imports {imported} {list(names)}: {reason}",
                )
    return found


def metrics_private_imports(modules):
    """``{(importer, imported): message}`` of metrics modules importing
    private names of a metrics module that is not a shared one."""
    found = {}
    for importer, source in modules.items():
        if _subpackage(importer) != "metrics":
            continue
        for imported, names, line in _imports(source, "sklearn_xai", modules):
            if _subpackage(imported) != "metrics" or imported == importer \
                    or imported in METRICS_SHARED_MODULES:
                continue
            private = [n for n in names if _is_private(n)]
            if private:
                found.setdefault(
                    (importer, imported),
                    f"{importer}:{line} imports {private} from {imported}: move "
                    "them to a shared module (METRICS_SHARED_MODULES in "
                    f"{Path(__file__).name}) or make them the importer's own",
                )
    return found


def sklearn_private_imports(modules):
    """``{module: [messages]}`` of imports of scikit-learn private API."""
    found = {}
    for module, source in modules.items():
        for imported, names, line in _imports(source, "sklearn"):
            private_module = any(_is_private(p) for p in imported.split("."))
            private_names = [n for n in names if _is_private(n)]
            if private_module or private_names:
                found.setdefault(module, []).append(
                    f"{module}:{line} imports {imported} {list(names)}")
    return found


@pytest.fixture(scope="module")
def modules():
    return package_modules()


# ------------------------------------------------------------------- tests
def test_every_module_has_a_layer(modules):
    missing = sorted(m for m in modules
                     if layer_of(m) is not None and layer_of(m) not in LAYERS)
    assert not missing, (
        f"modules of a subpackage missing from LAYERS in {__file__}: {missing}; "
        "give the subpackage its place in the layer order (and the docstring)."
    )


def test_no_new_upward_or_private_imports(modules):
    found = layer_violations(modules)
    new = sorted(msg for pair, msg in found.items() if pair not in KNOWN_VIOLATIONS)
    assert not new, "imports that break the layers:\n" + "\n".join(new)


def test_known_violations_still_exist(modules):
    gone = sorted(KNOWN_VIOLATIONS - set(layer_violations(modules)))
    assert not gone, (
        "fixed, so delete from KNOWN_VIOLATIONS in tests/test_layers.py: "
        f"{gone}"
    )


def test_only_utils_sklearn_imports_sklearn_private_api(modules):
    assert SKLEARN_PRIVATE_GATEWAY in modules
    found = sklearn_private_imports(modules)
    others = sorted(msg for module, msgs in found.items()
                    if module != SKLEARN_PRIVATE_GATEWAY for msg in msgs)
    assert not others, (
        "import scikit-learn private API from sklearn_xai.utils._sklearn "
        "(re-export it there if missing):\n" + "\n".join(others)
    )


def test_metric_modules_share_private_names_only_through_shared_modules(modules):
    assert METRICS_SHARED_MODULES <= set(modules)
    found = metrics_private_imports(modules)
    assert not found, "\n".join(sorted(found.values()))


# scikit-learn private methods the package uses, each wrapped by the gateway.
SKLEARN_PRIVATE_METHODS = ("_validate_params",)


def private_method_calls(modules):
    """``{module: [line, ...]}`` of calls to scikit-learn's private methods."""
    found = {}
    for name, source in modules.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in SKLEARN_PRIVATE_METHODS:
                found.setdefault(name, []).append(node.lineno)
    return found


def test_only_utils_sklearn_calls_sklearn_private_methods(modules):
    found = private_method_calls(modules)
    others = {m: lines for m, lines in found.items() if m != SKLEARN_PRIVATE_GATEWAY}
    assert not others, (
        "call scikit-learn's private estimator methods through "
        f"sklearn_xai.utils._sklearn (validate_estimator_params): {others}"
    )
    breach = {"sklearn_xai.x": "class A:\n    def fit(self):\n        self._validate_params()\n"}
    assert private_method_calls(breach) == {"sklearn_xai.x": [3]}


# ---------------------------------------------- the checks catch breaches
def test_checker_flags_upward_imports():
    modules = {
        "sklearn_xai.utils._output": "def f():\n    from sklearn_xai.metrics import pgi\n",
        "sklearn_xai.metrics._scorer": "import sklearn_xai.compose\n",
        "sklearn_xai.masking._base": "from sklearn_xai import explainers\n",
        "sklearn_xai.explainers": "",
        "sklearn_xai.distributions._base": "from sklearn_xai.masking import BaseMasker\n",
        "sklearn_xai.masking._conditional": "from sklearn_xai.datasets import make_synthgauss\n",
        "sklearn_xai.datasets._shapley": "from sklearn_xai.masking import BaseMasker\n",
    }
    assert set(layer_violations(modules)) == {
        ("sklearn_xai.utils._output", "sklearn_xai.metrics"),
        ("sklearn_xai.metrics._scorer", "sklearn_xai.compose"),
        ("sklearn_xai.masking._base", "sklearn_xai.explainers"),
        ("sklearn_xai.distributions._base", "sklearn_xai.masking"),
        ("sklearn_xai.masking._conditional", "sklearn_xai.datasets"),
    }


def test_checker_flags_private_imports_across_subpackages():
    modules = {
        "sklearn_xai.explainers._shapley":
            "from sklearn_xai.masking._base import BaseMasker\n"
            "from sklearn_xai.datasets import _helper\n",
        "sklearn_xai.compose._explained_model": "from sklearn_xai.base import _is_frozen\n",
        "sklearn_xai.metrics._perturbation_gaps":
            "from sklearn_xai.utils._validation import _private_helper\n",
        "sklearn_xai.datasets._helper": "",
    }
    assert set(layer_violations(modules)) == {
        ("sklearn_xai.explainers._shapley", "sklearn_xai.masking._base"),
        ("sklearn_xai.explainers._shapley", "sklearn_xai.datasets._helper"),
        ("sklearn_xai.compose._explained_model", "sklearn_xai.base"),
        ("sklearn_xai.metrics._perturbation_gaps", "sklearn_xai.utils._validation"),
    }


def test_checker_allows_lower_public_own_and_utils_imports():
    modules = {
        "sklearn_xai.metrics._perturbation_gaps":
            "from sklearn_xai.metrics._common import _BASE_PARAMS\n"
            "from sklearn_xai.masking import GaussianNoisePerturber\n"
            "from sklearn_xai.utils._output import ExplainedOutput\n"
            "from sklearn_xai.utils._sklearn import fast_validate_params\n"
            "from sklearn_xai import __version__\n",
        "sklearn_xai.utils.discovery": "from sklearn_xai.metrics import metric_specs\n",
        "sklearn_xai.benchmark._spec": "from sklearn_xai.utils.discovery import all_maskers\n",
    }
    assert layer_violations(modules) == {}


def test_checker_flags_private_imports_between_metric_modules():
    modules = {
        "sklearn_xai.metrics._retraining":
            "from sklearn_xai.metrics._removal_paths import _mono, road\n"
            "from sklearn_xai.metrics._shared_removal import _code_ties\n"
            "from sklearn_xai.metrics._common import _BASE_PARAMS\n",
        "sklearn_xai.metrics._sensitivity":
            "def f():\n"
            "    from sklearn_xai.metrics._stability import _stability_ratios\n",
        "sklearn_xai.metrics._stability": "from sklearn_xai.metrics import pgi\n",
        "sklearn_xai.metrics._removal_paths": "",
        "sklearn_xai.metrics._shared_removal": "",
        "sklearn_xai.metrics._common": "",
        "sklearn_xai.metrics": "",
    }
    assert set(metrics_private_imports(modules)) == {
        ("sklearn_xai.metrics._retraining", "sklearn_xai.metrics._removal_paths"),
        ("sklearn_xai.metrics._sensitivity", "sklearn_xai.metrics._stability"),
    }


def test_checker_flags_sklearn_private_api():
    modules = {
        "sklearn_xai.a": "from sklearn.utils._param_validation import Interval\n",
        "sklearn_xai.b": "from sklearn.base import _fit_context, clone\n",
        "sklearn_xai.c": "def f():\n    import sklearn.utils._testing\n",
        "sklearn_xai.d": "from sklearn.base import clone\nimport sklearn_xai.utils\n"
                         "from sklearn import datasets as _skdatasets\n",
    }
    assert set(sklearn_private_imports(modules)) == {"sklearn_xai.a", "sklearn_xai.b",
                                                     "sklearn_xai.c"}
