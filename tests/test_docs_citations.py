"""User-facing text cites papers and the user guide, never internal notes.

The package, the documentation, the examples and the README must not cite the
internal specification or design notes (which do not ship), and every
``:ref:`def-...``` they use must name a section of the definitions page.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEFINITIONS = ROOT / "doc" / "user_guide" / "definitions.rst"

# "SPEC 4.2.1", "SPEC section 1.7", "SPEC §4", "DESIGN.md", "DESIGN-REVIEW".
INTERNAL = re.compile(r"\bSPEC\b|\bDESIGN\b|DESIGN\.md|DESIGN-REVIEW")
DEF_REF = re.compile(r":ref:`(?:[^`<]*<)?(def-[a-z0-9-]+)>?`")
SUFFIXES = {".py", ".rst", ".md", ".txt", ".cfg", ".toml"}
# Build outputs and generated pages are not sources.
SKIP_DIRS = {"_build", "auto_examples", "generated", "__pycache__"}


def _sources():
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    for top in ("sklearn_xai", "doc", "examples"):
        for path in sorted((ROOT / top).rglob("*")):
            if (path.is_file() and path.suffix in SUFFIXES
                    and not SKIP_DIRS.intersection(path.relative_to(ROOT).parts)):
                files.append(path)
    return [f for f in files if f.exists()]


SOURCES = _sources()


def _ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("path", SOURCES, ids=_ids(SOURCES))
def test_no_internal_citations(path):
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INTERNAL.search(line)
    ]
    assert not hits, (
        "Cite the paper (a numpydoc References section) or the user guide's "
        "definitions page (:ref:`def-...`) instead of internal notes:\n"
        + "\n".join(hits)
    )


def _definitions_text():
    """The definitions page with its ``.. include::`` files expanded."""
    text = DEFINITIONS.read_text(encoding="utf-8")

    def expand(match):
        return (DEFINITIONS.parent / match.group(1)).read_text(encoding="utf-8")

    return re.sub(r"^\.\. include:: (\S+)\s*$", expand, text, flags=re.M)


def test_definition_references_exist():
    labels = set(re.findall(r"^\.\. _(def-[a-z0-9-]+):", _definitions_text(),
                            flags=re.M))
    assert labels, "the definitions page defines no def-* labels"
    missing = [
        f"{path.relative_to(ROOT)}: {label}"
        for path in SOURCES
        for label in DEF_REF.findall(path.read_text(encoding="utf-8"))
        if label not in labels
    ]
    assert not missing, "Unknown definitions labels:\n" + "\n".join(missing)


def test_definitions_page_is_in_the_user_guide_toctree():
    index = (ROOT / "doc" / "user_guide" / "index.rst").read_text(encoding="utf-8")
    assert re.search(r"^\s+definitions\s*$", index, flags=re.M)
