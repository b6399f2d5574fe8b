"""Sphinx configuration of sklearn_xai's documentation.

The API reference (``api.rst``) and the metric table are generated at build
time from the packages' ``__all__`` and the metric registry, so they never go
stale.
"""

import importlib
import os
import sys
import warnings

sys.path.insert(0, os.path.abspath(".."))

import sklearn_xai  # noqa: E402

project = "sklearn_xai"
author = "sklearn_xai developers"
copyright = "2026, sklearn_xai developers"
version = release = sklearn_xai.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
templates_path = ["_templates"]
exclude_patterns = ["_build", "user_guide/definitions/*", "auto_examples/*.ipynb", "**.ipynb_checkpoints"]

try:
    import pydata_sphinx_theme  # noqa: F401

    html_theme = "pydata_sphinx_theme"
except ImportError:  # pragma: no cover
    html_theme = "alabaster"


sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "reference_url": {"sklearn_xai": None},
}

warnings.filterwarnings("ignore", category=UserWarning, message=".*non-interactive.*")

SUBPACKAGES = ["base", "compose", "explainers", "masking", "metrics", "datasets",
               "distributions", "models", "plotting", "benchmark", "utils",
               "utils.estimator_checks"]


def _write_api(srcdir):
    lines = [
        "API reference",
        "=============",
        "",
        "Generated from each subpackage's ``__all__``.",
        "",
    ]
    for sub in SUBPACKAGES:
        name = f"sklearn_xai.{sub}"
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        public = [n for n in getattr(module, "__all__", []) if not n.startswith("_")]
        if not public:
            continue
        lines += [f":mod:`{name}`", "-" * (len(name) + 7), "",
                  f".. automodule:: {name}", "   :no-members:", "",
                  f".. currentmodule:: {name}", "",
                  ".. autosummary::", "   :toctree: generated/", ""]
        lines += [f"   {n}" for n in sorted(public)]
        lines.append("")
    path = os.path.join(srcdir, "api.rst")
    text = "\n".join(lines)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as fh:
            fh.write(text)


def _rst_escape(text):
    """Escape characters that reStructuredText reads as markup (|a| is a
    substitution)."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")


def _write_metric_table(srcdir):
    from sklearn_xai.metrics import metric_specs

    rows = [
        ".. list-table:: Registered explanation metrics",
        "   :header-rows: 1",
        "",
        "   * - scorer name",
        "     - function",
        "     - kind",
        "     - orientation",
        "     - per row",
        "     - needs",
        "     - source",
        "     - description",
    ]
    for spec in metric_specs():
        rows += [
            f"   * - ``{spec.name}``",
            f"     - :func:`~sklearn_xai.metrics.{spec.func.__name__}`",
            f"     - {spec.kind}",
            f"     - {'↑' if spec.greater_is_better else '↓'}",
            f"     - {'yes' if spec.per_instance else 'no'}",
            f"     - {', '.join(spec.requires) or '–'}",
            f"     - {spec.source or '–'}",
            f"     - {_rst_escape(spec.description) or '–'}",
        ]
    os.makedirs(os.path.join(srcdir, "generated"), exist_ok=True)
    with open(os.path.join(srcdir, "generated", "metric_table.rst"), "w") as fh:
        fh.write("\n".join(rows) + "\n")


# Written when the configuration is read, before autosummary looks for stubs.
_HERE = os.path.dirname(os.path.abspath(__file__))
_write_api(_HERE)
_write_metric_table(_HERE)
