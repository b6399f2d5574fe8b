"""The citation registry, ``references`` and ``join_fragments`` of
utils/_docstring.py, and the utils docstring blocks written once read as
written out."""

import re

from sklearn_xai.utils import row_keys, row_normal, row_uniform
from sklearn_xai.utils._docstring import CITATIONS, join_fragments, references
from sklearn_xai.utils._files import markdown_code, one_line
from sklearn_xai.utils._random import stream_keys
from sklearn_xai.utils._stats import correlate_ranks, row_spearman


def test_references_number_and_wrap_the_entries():
    text = references("zeiler2014", "lundberg2017")
    assert text == (
        "References\n----------\n"
        ".. [1] M. D. Zeiler and R. Fergus, \"Visualizing and Understanding\n"
        "   Convolutional Networks\", ECCV 2014.\n"
        ".. [2] S. M. Lundberg and S.-I. Lee, \"A Unified Approach to Interpreting\n"
        "   Model Predictions\", NeurIPS 2017.")


def test_citations_are_written_as_printed():
    # Authors, a quoted title, then the venue and year; one sentence.
    for key, text in CITATIONS.items():
        assert re.search(r"\b(19|20)\d\d\b", text) and text.endswith("."), key
        assert text.count('"') >= 2 and "  " not in text, key
        assert re.match(r"[a-z]+\d{4}", key), key


def test_join_fragments_dedents_each_part():
    assert join_fragments("\n        a : int\n            The a.", "", "b : int") == (
        "a : int\n    The a.\n\nb : int")


def test_utils_blocks_read_as_written_out():
    keys = ("\n    Returns\n    -------\n"
            "    keys : ndarray of shape (n_samples,), dtype int64\n\n    Examples\n")
    assert keys in row_keys.__doc__ and keys in stream_keys.__doc__
    draws = ("\n    Parameters\n    ----------\n"
             "    random_state : None, int, RandomState or Generator\n"
             "    keys : array-like of int, shape (n_rows,)\n"
             "    size : int or tuple of int, default=()\n    stream : int, default=0\n")
    assert draws + "\n    Returns\n" in row_uniform.__doc__
    assert draws + "    dtype : " in row_normal.__doc__
    options = ("    nan_policy : {\"omit\", \"zero\", \"raise\"} or None, default=None\n"
               "        What to do where either side is constant: see "
               ":func:`row_pearson`.\n    what : str, default=\"The correlation\"\n"
               "        The metric's name, for the messages of ``nan_policy``.\n"
               "\n    Returns\n")
    assert options in row_spearman.__doc__ and options in correlate_ranks.__doc__
    for function in (one_line, markdown_code):
        assert function.__doc__.endswith(
            "\n\n    Parameters\n    ----------\n    value : object\n\n"
            "    Returns\n    -------\n    text : str\n    ")
