"""Docstring fragments shared by the explainers.

The explainers document their common parameters (``target``, ``output``,
``batch_size``) once, here, and insert them with
:class:`~sklearn_xai.utils._docstring.Substitution` through
:func:`explainer_doc`: a docstring names a fragment with ``{name}`` alone on
its line, indented like the parameter entries around it.
"""

from sklearn_xai.utils._docstring import DOC_FRAGMENTS, Substitution

__all__ = ["EXPLAINER_FRAGMENTS", "explainer_doc"]

EXPLAINER_FRAGMENTS = {
    "explainer_target": """
        target : "predicted", int or label, default="predicted"
            Explained class of a classifier (see :ref:`def-explained-output`):
            ``"predicted"`` is the class predicted at each explained row, an
            int a column of ``classes_``, another value a class label;
            :meth:`explain` also takes one label per row.""",
    "explainer_output": """
        output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
            Explained output: ``"auto"`` is the probability of the target
            class for a classifier and the prediction of a regressor;
            ``"decision"`` is the decision function (the logit); ``"margin"``
            the raw additive score (``decision_function``, or the raw margin
            of xgboost, LightGBM and CatBoost models).""",
    "explainer_batch_size": """
        batch_size : int or None, default=None
            Maximum number of model rows per call; ``None`` makes calls of
            about 2**17 input entries.  The attributions do not depend on it.""",
}


def explainer_doc(*names, **fragments):
    """:class:`~sklearn_xai.utils._docstring.Substitution` of shared fragments.

    Parameters
    ----------
    *names : str
        Fragment names: keys of :data:`EXPLAINER_FRAGMENTS` or of the
        package-wide ``DOC_FRAGMENTS``.
    **fragments : str
        The module's own fragments, flush left or uniformly indented.

    Returns
    -------
    decorator : Substitution
    """
    shared = [name for name in names if name in DOC_FRAGMENTS]
    own = {name: EXPLAINER_FRAGMENTS[name] for name in names
           if name not in DOC_FRAGMENTS}
    return Substitution(*shared, **own, **fragments)

