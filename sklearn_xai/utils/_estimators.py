"""Looking inside the estimators users hand us: FrozenEstimator and Pipeline.

A fitted model reaches explainers and metrics wrapped in
:class:`sklearn.frozen.FrozenEstimator`, often with a
:class:`~sklearn.pipeline.Pipeline` of preprocessing steps in front.  Code
that needs the model doing the work (its coefficients, its torch module, its
class name for an error message) unwraps it here, by type.
"""

from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline

__all__ = ["is_frozen", "seed_unset", "transform_steps", "unfreeze", "unwrap"]


def is_frozen(estimator):
    """Whether ``estimator`` is a :class:`~sklearn.frozen.FrozenEstimator`."""
    return isinstance(estimator, FrozenEstimator)


def unfreeze(estimator):
    """The model inside (nested) ``FrozenEstimator`` wrappers.

    A Pipeline is returned as is (see :func:`unwrap` to look inside it).
    """
    while is_frozen(estimator):
        estimator = estimator.estimator
    return estimator


def unwrap(estimator):
    """``(steps, final)``: the preprocessing steps and the model doing the work.

    ``FrozenEstimator`` wrappers are removed and Pipelines split into their
    preprocessing steps and their last step, recursively (a frozen Pipeline,
    a Pipeline ending in a frozen model or in another Pipeline).

    Parameters
    ----------
    estimator : estimator

    Returns
    -------
    steps : list of (str, transformer) or None
        The preprocessing steps in the order they apply, each unfrozen;
        ``None`` and ``"passthrough"`` steps are left out.  ``None`` when
        there are none.
    final : estimator
        The final model, neither a ``FrozenEstimator`` nor a ``Pipeline``.

    Examples
    --------
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_xai.utils._estimators import unwrap
    >>> steps, final = unwrap(FrozenEstimator(
    ...     make_pipeline(StandardScaler(), LinearRegression())))
    >>> [name for name, _ in steps], type(final).__name__
    (['standardscaler'], 'LinearRegression')
    >>> unwrap(LinearRegression())[0] is None
    True
    """
    steps = []
    estimator = unfreeze(estimator)
    while isinstance(estimator, Pipeline):
        *head, (_, last) = estimator.steps
        for name, step in head:
            if step is None or (isinstance(step, str) and step == "passthrough"):
                continue
            steps.append((name, unfreeze(step)))
        estimator = unfreeze(last)
    return (steps or None), estimator


def transform_steps(steps, X):
    """``X`` passed through the ``transform`` of each step (``steps`` from
    :func:`unwrap`; ``None`` leaves ``X`` unchanged)."""
    for _, step in steps or ():
        X = step.transform(X)
    return X


def seed_unset(estimator, seed):
    """``estimator`` with every ``random_state`` left None, its own and its
    nested estimators' (an explainer's masker), set to ``seed``.

    Parameters
    ----------
    estimator : estimator
        Modified in place.
    seed : int

    Returns
    -------
    estimator : estimator
    """
    unset = {key: seed for key, value in estimator.get_params(deep=True).items()
             if (key == "random_state" or key.endswith("__random_state"))
             and value is None}
    return estimator.set_params(**unset) if unset else estimator
