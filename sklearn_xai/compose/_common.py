"""What the meta-explainers of :mod:`sklearn_xai.compose` share: fitting
their inner explainer and the docstring of ``transform``."""

__all__ = ["TRANSFORM_DOC", "fit_inner_explainer"]

#: Parameters and Returns of a meta-explainer's ``transform`` (filled by
#: :class:`~sklearn_xai.utils._docstring.Substitution`).
TRANSFORM_DOC = """
Parameters
----------
X : array-like of shape (n_samples, n_features)

Returns
-------
attributions : ndarray of shape (n_samples, n_features)"""


def fit_inner_explainer(meta, explainer, X, y=None, **fit_params):
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

    Returns
    -------
    explainer_ : explainer
        The fitted inner explainer, also set as ``meta.explainer_``.
    """
    meta.explainer_ = explainer.fit(X, y, **fit_params)
    meta.n_features_in_ = meta.explainer_.n_features_in_
    if hasattr(meta.explainer_, "feature_names_in_"):
        meta.feature_names_in_ = meta.explainer_.feature_names_in_
    return meta.explainer_
