"""What the meta-explainers of :mod:`sklearn_xai.compose` share: fitting
their inner explainer, taking its tags, and the docstring of ``transform``."""

import dataclasses

from sklearn.utils import get_tags

from sklearn_xai.base import Tags

__all__ = ["TRANSFORM_DOC", "fit_inner_explainer", "inner_explainer_tags"]

#: Parameters and Returns of a meta-explainer's ``transform`` (filled by
#: :class:`~sklearn_xai.utils._docstring.Substitution`).
TRANSFORM_DOC = """
Parameters
----------
X : array-like of shape (n_samples, n_features)

Returns
-------
attributions : ndarray of shape (n_samples, n_features)"""


def fit_inner_explainer(meta, explainer, X, y=None, *, attribute="explainer_",
                        **fit_params):
    """Fit ``explainer`` as ``meta.explainer_`` and give ``meta`` its input
    attributes (``n_features_in_``, and ``feature_names_in_`` when set).

    Parameters
    ----------
    meta : estimator
        The meta-explainer being fitted.
    explainer : explainer
        An unfitted copy of the inner explainer.
    X, y, **fit_params
        Passed to ``explainer.fit``.
    attribute : str, default="explainer_"
        The attribute of ``meta`` the fitted explainer is stored in.

    Returns
    -------
    explainer_ : explainer
        The fitted inner explainer, also set as ``meta.<attribute>``.
    """
    fitted = explainer.fit(X, y, **fit_params)
    setattr(meta, attribute, fitted)
    meta.n_features_in_ = fitted.n_features_in_
    if hasattr(fitted, "feature_names_in_"):
        meta.feature_names_in_ = fitted.feature_names_in_
    return fitted


def inner_explainer_tags(tags, explainer):
    """A meta-explainer's tags: ``tags`` (its own defaults) with the inner
    ``explainer``'s capabilities, input, dtype, target and determinism tags,
    copied so that editing them never edits the inner explainer's.

    Parameters
    ----------
    tags : Tags
        The meta-explainer's tags from ``super().__sklearn_tags__()``.
    explainer : explainer
        The inner explainer (unfitted is fine).

    Returns
    -------
    tags : Tags
    """
    inner = get_tags(explainer)
    explainer_tags = getattr(inner, "explainer_tags", None)
    if explainer_tags is not None:
        tags = Tags.from_sklearn(tags, dataclasses.replace(explainer_tags))
        if inner.transformer_tags is not None:
            tags.transformer_tags.preserves_dtype = list(
                inner.transformer_tags.preserves_dtype)
        tags.target_tags.required = inner.target_tags.required
    tags.input_tags = dataclasses.replace(inner.input_tags)
    tags.non_deterministic = inner.non_deterministic
    tags.requires_fit = True
    return tags
