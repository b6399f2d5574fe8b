"""Every shared docstring fragment named in a public docstring is filled in.

Docstrings take their shared parameter entries from fragment registries
through ``Substitution``; a placeholder whose name the decorator does not
list stays in the rendered text as ``{name}`` (it did for ``random_state``
of two explainers and the Returns of two metrics).
"""

import importlib
import pkgutil
import re

import sklearn_xai

# A fragment placeholder: a snake_case identifier of two words or more in
# braces.  Set notation ({j}, {k}) and subscripts ({o_r}) are shorter.
PLACEHOLDER = re.compile(r"\{([a-z]+_[a-z_]{3,})\}")


def _public_objects():
    for info in pkgutil.walk_packages(sklearn_xai.__path__, "sklearn_xai."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name, None)
            if callable(obj) and getattr(obj, "__module__", "").startswith("sklearn_xai"):
                yield f"{obj.__module__}.{obj.__qualname__}", obj


def test_no_unfilled_fragment_placeholder():
    seen, unfilled = 0, {}
    for name, obj in _public_objects():
        doc = obj.__doc__ or ""
        seen += 1
        found = sorted(set(PLACEHOLDER.findall(doc)))
        if found:
            unfilled[name] = found
    assert seen > 200  # the walk reached the public API
    assert unfilled == {}


def test_the_pattern_catches_an_unfilled_fragment():
    assert PLACEHOLDER.findall("    {explainer_random_state}\n") == ["explainer_random_state"]
    assert PLACEHOLDER.findall("S ∪ {j}, a_{o_r(x)}") == []
