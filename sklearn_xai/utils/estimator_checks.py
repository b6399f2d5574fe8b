"""Contract checks for explainers, like scikit-learn's ``check_estimator``.

:func:`check_explainer` runs the checks every explainer of this package
passes, on a classifier and a regressor: it is the test a researcher runs on
a new explainer before benchmarking it.  The checks only use the public
protocol (``fit``, ``transform``/``explain``, ``get_params``, and the
``explainer_tags`` of ``__sklearn_tags__`` when present), so they also apply
to explainers that do not derive from
:class:`~sklearn_xai.base.BaseExplainer`.
"""

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression, Ridge

__all__ = ["check_explainer"]

_ATOL = 1e-8


def _tags(explainer):
    try:
        return explainer.__sklearn_tags__().explainer_tags
    except AttributeError:
        return None


def _problems(task, n_features, model):
    """Synthetic rows of ``task`` and the frozen model they explain: ``model``
    (cloned and fitted on the rows, or used as is when frozen), else a
    logistic or a ridge regression."""
    if task == "classification":
        X, y = make_classification(n_samples=80, n_features=n_features,
                                   n_informative=3, n_redundant=0, random_state=0)
        default = LogisticRegression()
    else:
        X, y = make_regression(n_samples=80, n_features=n_features, n_informative=3,
                               random_state=0)
        default = Ridge()
    if model is None:
        model = default
    if isinstance(model, FrozenEstimator):
        return X, y, model
    return X, y, FrozenEstimator(clone(model).fit(X, y))


def _models(model, tasks):
    """The model of each task (None: the default one)."""
    if isinstance(model, dict):
        missing = [task for task in tasks if task not in model]
        if missing:
            raise ValueError(
                f"model has no entry for the task(s) {missing}: give model="
                "{'classification': ..., 'regression': ...} for every task checked, "
                "or drop the task from tasks."
            )
        models = {task: model[task] for task in tasks}
    else:
        models = dict.fromkeys(tasks, model)
    for task, value in models.items():
        if value is not None and not hasattr(value, "fit"):
            raise TypeError(
                f"model must be an estimator (or a dict of estimators by task); "
                f"got {type(value).__name__} for {task!r}."
            )
    return models


def _build(explainer, model, random_state):
    ex = clone(explainer)
    params = ex.get_params(deep=False)
    updates = {}
    if "estimator" in params and (_tags(ex) is None or _tags(ex).requires_estimator):
        updates["estimator"] = model
    if "random_state" in params:
        updates["random_state"] = random_state
    return ex.set_params(**updates) if updates else ex


def _explain(ex, X):
    return np.asarray(ex.transform(X), dtype=np.float64)


def _fail(check, task, message):
    raise AssertionError(f"check_explainer [{check}, {task}]: {message}")


def check_explainer(explainer, *, tasks=("classification", "regression"),
                    n_features=4, model=None):
    """Check that an explainer honours the explainer contract.

    On a logistic regression and a ridge regression (or ``model``), frozen
    and fitted on synthetic data, each check fits a clone of ``explainer``
    and explains 12 rows:

    * **shape**: ``transform`` returns a finite float array of shape
      ``(n_rows, n_features)``, and ``fit`` returns the explainer;
    * **no mutation**: the explained rows are left unchanged;
    * **batch invariance**: each row's attributions are the same whether the
      row is explained alone or within the batch (they may depend on the
      row, the model and ``random_state`` only);
    * **row-order invariance**: permuting the rows permutes the
      attributions;
    * **reproducibility**: two fits with the same ``random_state`` give
      equal attributions;
    * **clone**: ``clone`` gives an unfitted explainer with equal parameters.

    Parameters
    ----------
    explainer : estimator
        An unfitted explainer; ``estimator`` (when it has the parameter and
        needs a model) and ``random_state`` are set by the checks.
    tasks : tuple of {"classification", "regression"}, \
            default=("classification", "regression")
        The models to explain; drop one for an explainer made for a single
        task.
    n_features : int, default=4
        Columns of the synthetic rows (64 for a model of 8 x 8 images).
    model : estimator, dict or None, default=None
        The model to explain, for explainers made for one kind of model
        (trees, convolutional networks): an unfitted estimator, cloned and
        fitted by the checks on each task's synthetic rows, or a fitted one
        in a :class:`~sklearn.frozen.FrozenEstimator`, used as is; a dict
        ``{"classification": ..., "regression": ...}`` gives one per task.
        ``None``: a logistic regression and a ridge regression.

    Raises
    ------
    AssertionError
        Naming the failed check, the task and what differed.

    See Also
    --------
    sklearn.utils.estimator_checks.check_estimator : scikit-learn's checks,
        which explainers also pass; run them separately on the explainer
        built with an unfitted model, as
        ``check_estimator(MyExplainer(LinearRegression()))`` (the checks fit
        it on their own rows, so ``MyExplainer()`` alone fails with "needs a
        model").

    Examples
    --------
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.utils.estimator_checks import check_explainer
    >>> check_explainer(FeatureAblation())

    A model-specific explainer is checked on a model it explains:

    >>> from xgboost import XGBClassifier  # doctest: +SKIP
    >>> from sklearn_xai.explainers import TreeContributions
    >>> check_explainer(TreeContributions(), tasks=("classification",),
    ...                 model=XGBClassifier(n_estimators=5))  # doctest: +SKIP
    """
    for task in tasks:
        if task not in ("classification", "regression"):
            raise ValueError(
                f"tasks must hold 'classification' and/or 'regression'; got {task!r}."
            )
    models = _models(model, tasks)
    for task in tasks:
        X, y, model = _problems(task, n_features, models[task])
        rows = X[:12].copy()

        ex = _build(explainer, model, 0)
        fitted = ex.fit(X, y)
        if fitted is not ex:
            _fail("fit returns self", task, "fit must return the explainer itself.")
        before = rows.copy()
        a = _explain(ex, rows)
        if not np.array_equal(rows, before):
            _fail("no mutation", task, "transform modified the rows it explained.")
        if a.shape != rows.shape:
            _fail("shape", task, f"attributions of shape {a.shape}, expected {rows.shape}.")
        if not np.all(np.isfinite(a)):
            _fail("shape", task, "attributions contain NaN or infinite values.")

        alone = np.vstack([_explain(ex, rows[i : i + 1]) for i in (0, 5, 11)])
        if not np.allclose(alone, a[[0, 5, 11]], rtol=1e-6, atol=_ATOL):
            worst = np.max(np.abs(alone - a[[0, 5, 11]]))
            _fail("batch invariance", task,
                  "a row explained alone differs from the same row in a batch "
                  f"(max difference {worst:.3g}); draw each row's random numbers "
                  "from its own stream (the RowStreams handed to _explain) and "
                  "never from statistics of the batch.")

        perm = np.random.default_rng(0).permutation(len(rows))
        permuted = _explain(ex, rows[perm])
        if not np.allclose(permuted, a[perm], rtol=1e-6, atol=_ATOL):
            _fail("row-order invariance", task,
                  "permuting the rows changed their attributions.")

        again = _explain(_build(explainer, model, 0).fit(X, y), rows)
        if not np.allclose(again, a, rtol=1e-6, atol=_ATOL):
            _fail("reproducibility", task,
                  "two fits with random_state=0 gave different attributions.")

        copy = clone(ex)
        if copy.get_params(deep=False).keys() != ex.get_params(deep=False).keys():
            _fail("clone", task, "clone changed the parameters.")
        if any(k.endswith("_") and not k.startswith("_") for k in vars(copy)):
            _fail("clone", task, "a clone carries fitted attributes.")
