"""The README's quick start runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_quick_start_runs():
    text = README.read_text()
    section = text[text.index("## Quick start"):]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "README has no python quick-start block"
    import sklearn

    try:
        namespace = {}
        exec(compile(blocks[0], str(README), "exec"), namespace)  # noqa: S102
    finally:
        sklearn.set_config(enable_metadata_routing=False)
    assert namespace["attributions"].shape == (200, 3)
    assert namespace["search"].best_params_["explainer__masker"].value == "mean"


def test_readme_commands_match_ci():
    text = README.read_text()
    ci = (README.parent / ".ci" / "run").read_text()
    install = re.search(r"## Install\n\n```bash\n(.*?)\n```", text, flags=re.S).group(1)
    tests = re.search(r"## Run the tests\n\n```bash\n(.*?)\n```", text, flags=re.S).group(1)
    assert install.strip() in ci
    assert tests.strip() in ci


_NUMBERS = {"seventy": 70, "eighty": 80, "ninety": 90}
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9}


def test_readme_counts_the_registered_metrics():
    from sklearn_xai.metrics import metric_specs

    match = re.search(r"## Metrics\n\n(\w+)-(\w+) scorers", README.read_text())
    assert match, "the Metrics section no longer opens with the scorer count"
    stated = _NUMBERS[match.group(1).lower()] + _UNITS[match.group(2).lower()]
    assert stated == len(metric_specs())
