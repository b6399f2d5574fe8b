"""What the model-based metric families share: the constraints of the
parameters every ``metric(estimator, X, attributions, ...)`` takes and the
validation of the rows they score.

The rest of the metrics' infrastructure is not metric-specific and lives in
``sklearn_xai.utils``: the explained output and its blocks of model calls
(``utils/_output.py``), per-row random streams (``utils/_random.py``),
row-wise correlation and the NaN policy (``utils/_stats.py``), ranking and
top-k coalitions (``utils/_validation.py``).
"""

import numbers

from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._validation import check_attributions

from sklearn_xai.utils._sklearn import Hidden

# Parameters every model-based metric takes, with their constraints.
_BASE_PARAMS = {
    "estimator": [object],
    "X": ["array-like"],
    "attributions": ["array-like"],
    "target": [object],
    "output": [StrOptions({"auto", "proba", "decision", "predict", "margin"})],
    "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
}


def _check_inputs(X, attributions):
    """The scored rows and their attributions, validated the one way.

    Both go through :func:`~sklearn_xai.utils._validation.check_attributions`
    (scikit-learn's ``check_array``: 2-D, float64, finite, with its error
    messages naming ``X`` or ``attributions``); the attributions must have
    one row per row of ``X`` and one column per feature.

    Returns
    -------
    X, A : ndarray of shape (n_samples, n_features), float64
        Never written to by the metrics (they may be the caller's arrays).
    """
    X = check_attributions(X, name="X")
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    return X, A


def _check_training_rows(X_train, n_features):
    """Validated training rows (float64, finite) with ``n_features`` columns."""
    X_train = check_attributions(X_train, name="X_train")
    if X_train.shape[1] != n_features:
        raise ValueError(
            f"X_train has {X_train.shape[1]} features but X has {n_features}."
        )
    return X_train
