"""Docstring blocks that several functions of :mod:`sklearn_xai.benchmark`
share, written once.

A docstring names a block with a placeholder ``{name}`` alone on its line;
:class:`~sklearn_xai.utils._docstring.Substitution` fills it, e.g.
``@Substitution(demsar_reference=DEMSAR_REFERENCE)``.
"""

from textwrap import dedent

__all__ = ["DEMSAR_REFERENCE", "PRESET_PARAMETERS", "PRESET_RETURNS", "preset_fragments"]

#: The reference of the Friedman test and the Nemenyi critical difference.
DEMSAR_REFERENCE = """
.. [1] Demšar, J. "Statistical Comparisons of Classifiers over Multiple
   Data Sets", Journal of Machine Learning Research 7, 1-30, 2006."""

#: The Parameters section of a preset with a quick variant (a preset taking
#: more parameters documents them on the lines after its placeholder).
PRESET_PARAMETERS = """
Parameters
----------
quick : bool, default=False
    The quick variant."""

#: What a preset function returns.
PRESET_RETURNS = """
Returns
-------
spec : BenchmarkSpec"""


def preset_fragments(references):
    """The fragments a preset's docstring names: ``preset_parameters``,
    ``preset_returns`` and ``preset_references`` (placeholders in braces).

    Parameters
    ----------
    references : str
        The entries of the References section (``.. [1] ...``), which the
        fragment puts under its heading.

    Returns
    -------
    fragments : dict of str to str
        Keyword arguments of
        :class:`~sklearn_xai.utils._docstring.Substitution`.
    """
    return {"preset_parameters": PRESET_PARAMETERS, "preset_returns": PRESET_RETURNS,
            "preset_references": "References\n----------\n"
                                 + dedent(references).strip("\n")}
