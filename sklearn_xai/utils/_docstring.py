"""Shared docstring fragments and the one way of inserting them.

Parameters that many functions and estimators take (the explained model, the
rows, the attributions, the explained output, ``batch_size``,
``random_state``, the masker and its training rows, ...) are documented once
here.  A docstring names a fragment with a placeholder ``{name}`` alone on
its line, indented as the text around it; :class:`Substitution` (the
decorator of imbalanced-learn's ``utils/_docstring.py``) replaces it by the
fragment, indented to the placeholder's column.  Only the names given to the
decorator are replaced, so other braces (sets in formulas, ``{"abs",
"signed"}`` option lists) need no escaping.

A placeholder keeps the source readable: the reader sees which shared block
is inserted, and ``help()`` or the API reference shows the full text.
"""

import re
from textwrap import dedent, indent

__all__ = ["DOC_FRAGMENTS", "Substitution", "fill_doc"]


def _fragment(text):
    return dedent(text).strip("\n")


# Shared parameter (and Returns/Attributes) blocks, written flush left; each
# is inserted indented to its placeholder's column.
DOC_FRAGMENTS = {
    # ------------------------------------------------ model-based metrics
    "estimator": _fragment("""
        estimator : fitted estimator
            The model whose explanations are scored."""),
    "X": _fragment("""
        X : array-like of shape (n_samples, n_features)
            The explained rows."""),
    "attributions": _fragment("""
        attributions : array-like of shape (n_samples, n_features)
            Their explanations, one row per row of ``X``."""),
    "target": _fragment("""
        target : "predicted", int or label, default="predicted"
            Explained class of a classifier: ``"predicted"`` is the class
            predicted for the original row (kept fixed under perturbation),
            an int or a class label names one class (see
            :class:`sklearn_xai.utils.ExplainedOutput`).  Ignored for
            regressors."""),
    "output": _fragment("""
        output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
            Explained output: ``"auto"`` is ``predict_proba`` for classifiers
            and ``predict`` for regressors; ``"margin"`` is the raw additive
            score that exact tree attributions explain
            (``decision_function``, or the raw margin of xgboost, LightGBM and
            CatBoost models); see :class:`sklearn_xai.utils.ExplainedOutput`."""),
    "batch_size": _fragment("""
        batch_size : int or None, default=None
            Maximum rows per model call; ``None`` lets the metric choose
            blocks of about 2**17 values.  Scores do not depend on it."""),
    "random_state": _fragment("""
        random_state : int, RandomState instance or None, default=None
            Seeds the random draws.  Row ``i``'s draws depend only on the
            seed and on the row's values, so scores do not depend on the
            other rows, their order or the batch size.  Pass an int for
            reproducible results across calls."""),
    "masker": _fragment("""
        masker : masker, default=None
            How features are removed (resolved by
            :func:`sklearn_xai.masking.check_masker`).  A fitted masker is
            used as is; an unfitted one is fitted on ``X_train``."""),
    "X_train": _fragment("""
        X_train : array-like of shape (n_train, n_features), default=None
            Training rows an unfitted ``masker`` (or ``perturber``) is fitted
            on.  A masker is never fitted on ``X`` (a row's score would depend
            on the other rows): without ``X_train`` an unfitted masker that
            learns from data (``BaselineMasker("mean")``,
            ``MarginalMasker(100)``, ...) raises a ``ValueError``, and one that
            does not (``BaselineMasker("zero")``, a given baseline or
            background) is used as is."""),
    "scores_greater": _fragment("""
        scores : ndarray of shape (n_samples,)
            One score per row; greater is better."""),
    "scores_lower": _fragment("""
        scores : ndarray of shape (n_samples,)
            One score per row; lower is better."""),
    "nan_policy": _fragment("""
        nan_policy : {"omit", "zero", "raise"}, default="omit"
            A row where either side of the correlation is constant has no
            correlation: NaN with a warning (``"omit"``), 0 (``"zero"``,
            XAI-Bench's code) or a ``ValueError`` (``"raise"``)."""),
    "value_distribution": _fragment("""
        distribution : MultivariateGaussian or GaussianMixture, default=None
            The data distribution (e.g. ``bunch.distribution``) whose value
            function ``v_x(S)`` is used, see ``value``.  Exactly one of
            ``distribution`` and ``masker`` is required."""),
    "value_masker": _fragment("""
        masker : masker, default=None
            Any :mod:`sklearn_xai.masking` masker defining ``v_x(S)`` instead
            of ``distribution``.  A fitted masker is used as is; an unfitted
            one is fitted on ``X_train``, never on ``X`` (a row's score would
            depend on the other rows)."""),
    # ------------------------------------------------- metrics vs. truth
    "ground_truth": _fragment("""
        ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
            The true attributions (or relevance masks), one row per explained
            row; a single row is broadcast to every row."""),
    # ------------------------------------------------------- explainers
    "explainer_random_state": _fragment("""
        random_state : int, RandomState instance or None, default=None
            Seeds the explainer's random draws.  Row ``i``'s draws depend
            only on the seed and on the row's values, so its attributions do
            not depend on the other rows of the batch, their order or the
            batch size.  Pass an int for reproducible output across calls."""),
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}[ \t]*$",
                          re.MULTILINE)


def fill_doc(doc, fragments):
    """Replace the placeholders ``{name}`` of ``doc`` that name a fragment.

    Parameters
    ----------
    doc : str or None
        A docstring; ``None`` (docstrings stripped by ``python -OO``) is
        returned unchanged.
    fragments : dict of str to str
        Fragment text by name, flush left.  A placeholder alone on its line
        gets the fragment indented to its column; a placeholder inside a
        line gets the fragment text as is.

    Returns
    -------
    doc : str or None

    Raises
    ------
    ValueError
        If a name in ``fragments`` has no placeholder in ``doc`` (a stale
        decorator argument).

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import fill_doc
    >>> print(fill_doc("Parameters\\n    ----------\\n    {x}\\n",
    ...                {"x": "x : int\\n    The value."}))
    Parameters
        ----------
        x : int
            The value.
    <BLANKLINE>
    """
    if doc is None:
        return None
    unused = set(fragments)

    def block(match):
        name = match.group("name")
        if name not in fragments:
            return match.group(0)
        unused.discard(name)
        return indent(fragments[name], match.group("indent"),
                      lambda line: bool(line.strip()))

    doc = _PLACEHOLDER.sub(block, doc)
    for name in list(unused):
        token = "{" + name + "}"
        if token in doc:
            doc = doc.replace(token, fragments[name])
            unused.discard(name)
    if unused:
        raise ValueError(
            f"Docstring fragments {sorted(unused)} have no placeholder in the "
            "docstring; remove them from the Substitution or add '{name}' lines."
        )
    return doc


class Substitution:
    """Decorator filling a docstring's ``{name}`` placeholders.

    Parameters
    ----------
    *names : str
        Names of shared fragments (keys of :data:`DOC_FRAGMENTS`).
    **fragments : str
        Further fragments by name (a module's own shared blocks), flush
        left; they override shared ones of the same name.

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import Substitution
    >>> @Substitution("estimator", k="k : int\\n    How many features.")
    ... def metric(estimator, k):
    ...     '''A metric.
    ...
    ...     Parameters
    ...     ----------
    ...     {estimator}
    ...     {k}
    ...     '''
    >>> print(metric.__doc__)
    A metric.
    <BLANKLINE>
        Parameters
        ----------
        estimator : fitted estimator
            The model whose explanations are scored.
        k : int
            How many features.
    <BLANKLINE>
    """

    def __init__(self, *names, **fragments):
        unknown = [name for name in names if name not in DOC_FRAGMENTS]
        if unknown:
            raise ValueError(
                f"Unknown shared docstring fragments {unknown}; known: "
                f"{sorted(DOC_FRAGMENTS)}."
            )
        self.fragments = {name: DOC_FRAGMENTS[name] for name in names}
        self.fragments.update({k: _fragment(v) for k, v in fragments.items()})

    def __call__(self, obj):
        obj.__doc__ = fill_doc(obj.__doc__, self.fragments)
        return obj
