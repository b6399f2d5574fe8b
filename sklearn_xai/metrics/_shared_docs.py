"""Docstring fragments several metric families share.

The works the metrics cite are written once, in the package's citation
registry (:data:`sklearn_xai.utils._docstring.CITATIONS`): a docstring's
``References`` section is the placeholder ``{metric_references}``, filled by
``Substitution(metric_references=_references(key, ...))`` with the works
numbered in the order given.  :data:`_SHARED_DOCS` holds the blocks that
metric docstrings of several families repeat (the explained inputs, the
value function, the explained output, their Returns sections);
``Substitution(**_shared_docs(name, ...))`` fills the ones a docstring names.
"""

from sklearn_xai.utils._docstring import DOC_FRAGMENTS
from sklearn_xai.utils._docstring import references as _references  # noqa: F401


def _joined(*names):
    return "\n".join(DOC_FRAGMENTS[name] for name in names)


def _returns(text):
    return ("Returns\n-------\nscores : ndarray of shape (n_samples,)\n    "
            + text)


# Blocks that docstrings of several metric families repeat.
_SHARED_DOCS = {
    "model_inputs": _joined("estimator", "X", "attributions"),
    "output_params": _joined("target", "output", "batch_size"),
    "value_function": _joined("value_distribution", "value_masker", "X_train"),
    "returns_scores_greater": "Returns\n-------\n" + DOC_FRAGMENTS["scores_greater"],
    "returns_scores_lower": "Returns\n-------\n" + DOC_FRAGMENTS["scores_lower"],
    "returns_correlation": _returns(
        "Per-row correlation in ``[-1, 1]``; greater is better."),
    "returns_agreement": _returns(
        "Per-row agreement in ``[0, 1]``; greater is better."),
    "returns_fraction": _returns("Per-row fraction in ``[0, 1]``; greater is better."),
    "returns_precision": _returns(
        "Per-row precision in ``[0, 1]``; greater is better."),
    "returns_greater": _returns("Greater is better."),
    "returns_lower": _returns("Lower is better."),
}


def _shared_docs(*names):
    """The blocks of :data:`_SHARED_DOCS` called ``names``, as keyword
    arguments of ``Substitution``."""
    return {name: _SHARED_DOCS[name] for name in names}
