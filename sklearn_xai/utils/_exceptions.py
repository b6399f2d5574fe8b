"""Exceptions shared across the package."""

__all__ = ["NotApplicableError"]


class NotApplicableError(TypeError):
    """An explainer or metric does not apply to this model or data.

    Raised, with a message naming what would work, when the model lacks what
    the method needs: gradients for a gradient explainer, a tree ensemble for
    exact tree attributions, classes for a metric that compares classes,
    parameters that can be randomised for a randomisation check, a hidden
    layer for representation stability.  It subclasses :class:`TypeError`
    (the type of the estimator is wrong for the method), so existing
    ``except TypeError`` code keeps working; the benchmark runner reports
    such scores as *skipped, not applicable* instead of failed.

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import TreeContributions
    >>> from sklearn_xai.utils import NotApplicableError
    >>> try:
    ...     TreeContributions(LinearRegression().fit([[0.0], [1.0]], [0.0, 1.0])).fit(
    ...         [[0.0], [1.0]])
    ... except NotApplicableError as exc:
    ...     print(str(exc)[:36])
    TreeContributions needs a tree model
    """
