"""What the model-based metric families share: the constraints of the
parameters every ``metric(estimator, X, attributions, ...)`` takes.

The rest of the metrics' infrastructure is not metric-specific and lives in
``sklearn_xai.utils``: the explained output and its blocks of model calls
(``utils/_output.py``), per-row random streams (``utils/_random.py``),
row-wise correlation and the NaN policy (``utils/_stats.py``), ranking and
top-k coalitions (``utils/_validation.py``).
"""

import numbers

from sklearn_xai.utils._sklearn import Interval, StrOptions

# Parameters every model-based metric takes, with their constraints.
_BASE_PARAMS = {
    "estimator": [object],
    "X": ["array-like"],
    "attributions": ["array-like"],
    "target": [object],
    "output": [StrOptions({"auto", "proba", "decision", "predict"})],
    "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
}
