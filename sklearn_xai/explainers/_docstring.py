"""Docstring fragments shared by the explainers.

The explainers document their common parameters (``target``, ``output``,
``batch_size``, the ``random_state`` of a masker-based explainer) and
attributes (the fitted model and masker, ``n_features_in_``) once, here, and
insert them with :class:`~sklearn_xai.utils._docstring.Substitution` through
:func:`explainer_doc`: a docstring names a fragment with ``{name}`` alone on
its line, indented like the parameter entries around it.  Its
``References`` section is the placeholder ``{explainer_references}``, filled
from the package's citation registry by ``explainer_doc(..., references=(key,
...))``.
"""

from sklearn_xai.utils._docstring import DOC_FRAGMENTS, Substitution, join_fragments
from sklearn_xai.utils._docstring import references as _references

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
    "masker_random_state": """
        random_state : int, RandomState instance or None, default=None
            Seeds the per-row random streams of a stochastic masker (unused by
            deterministic ones).""",
    "masker_attributes": """
        estimator_ : estimator
            The fitted model.
        masker_ : masker
            The fitted masker.""",
    "input_attributes": """
        n_features_in_ : int
        feature_names_in_ : ndarray of str
            Only when ``X`` has string column names.""",
    # The imports of the examples that explain a linear regression.
    "regression_example": """
        >>> import numpy as np
        >>> from sklearn.linear_model import LinearRegression""",
}
# How the explained output is read: the three parameters every explainer of
# a model ends its parameter list with.
EXPLAINER_FRAGMENTS["explainer_output_params"] = join_fragments(
    *(EXPLAINER_FRAGMENTS[name]
      for name in ("explainer_target", "explainer_output", "explainer_batch_size")))


def explainer_doc(*names, references=None, **fragments):
    """:class:`~sklearn_xai.utils._docstring.Substitution` of shared fragments.

    Parameters
    ----------
    *names : str
        Fragment names: keys of :data:`EXPLAINER_FRAGMENTS` or of the
        package-wide ``DOC_FRAGMENTS``.
    references : tuple of str, default=None
        Keys of :data:`~sklearn_xai.utils._docstring.CITATIONS`: the works
        of the ``explainer_references`` placeholder (in braces), numbered in
        this order.
    **fragments : str
        The module's own fragments, flush left or uniformly indented.

    Returns
    -------
    decorator : Substitution
    """
    shared = [name for name in names if name in DOC_FRAGMENTS]
    own = {name: EXPLAINER_FRAGMENTS[name] for name in names
           if name not in DOC_FRAGMENTS}
    if references is not None:
        own["explainer_references"] = _references(*references)
    return Substitution(*shared, **own, **fragments)

