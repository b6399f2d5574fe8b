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
