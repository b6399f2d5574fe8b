"""Hand-weighted models whose correct attributions are known by construction.

Each *unit* is a tiny network whose weights are set by hand (never trained):
a ``Linear -> ReLU -> Linear`` float64 torch module, except the product unit
(an explicit multiplication).  :class:`HandWeightedModel` wraps it as a
scikit-learn regressor: ``fit`` only validates, ``predict`` evaluates the
module.  It exposes the module as ``module_``, as skorch nets do, so the
gradient explainers (Captum) differentiate it through their usual
mechanism, and the model-agnostic explainers call ``predict``.

The data generator and ground truth of every unit are in
:func:`sklearn_xai.datasets.make_unit_test`.
"""

import numpy as np
import torch
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data
from torch import nn

from sklearn_xai.utils._sklearn import StrOptions, validate_estimator_params

__all__ = ["UNITS", "HandWeightedModel", "unit_module"]

# Shattered-gradients sawtooth: slope of the trend, frequency m and height A
# of the triangle wave A * tri(m * x1); the gradient in x1 is 1 +/- A * m.
_SAW_FREQUENCY = 20.0
_SAW_HEIGHT = 0.15
_SAW_KNOTS = 160  # knots at u = k / 2 cover u = m * x1 up to 80 (x1 <= 4)
# Conflicting unit: f = -x + 2 relu(x - M c) is x when c = 0, -x when c = 1
# for 0 <= x < M.
_CONFLICT_M = 4.0


def _identity_units(j, d):
    """Hidden rows computing relu(x_j) and relu(-x_j) (x_j = difference)."""
    e = np.zeros(d)
    e[j] = 1.0
    return [e, -e], [0.0, 0.0], [1.0, -1.0]


def _net(d, rows):
    """(W1, b1, w2) from a list of (weight rows, biases, output weights)."""
    W1 = np.vstack([np.atleast_2d(np.asarray(w, dtype=np.float64))
                    for r in rows for w in r[0]])
    b1 = np.array([b for r in rows for b in r[1]], dtype=np.float64)
    w2 = np.array([v for r in rows for v in r[2]], dtype=np.float64)
    assert W1.shape == (len(b1), d) and w2.shape == b1.shape
    return W1, b1, w2


def _cancellation():
    # f = 2 x1 - 2 x2 + x3
    rows = []
    for j, w in enumerate((2.0, -2.0, 1.0)):
        W, b, v = _identity_units(j, 3)
        rows.append((W, b, [w * v[0], w * v[1]]))
    return _net(3, rows)


def _conflicting():
    # f = -x + 2 relu(x - M c), features (x, c)
    W, b, v = _identity_units(0, 2)
    return _net(2, [(W, b, [-1.0, 1.0]), ([[1.0, -_CONFLICT_M]], [0.0], [2.0])])


def _xor():
    # f = |x1 - x2| = relu(x1 - x2) + relu(x2 - x1)
    return _net(2, [([[1.0, -1.0], [-1.0, 1.0]], [0.0, 0.0], [1.0, 1.0])])


def _pertinent_negative():
    # f = x1 + 2 relu(1 - x2): x2 = 0 raises the output by 2
    W, b, v = _identity_units(0, 2)
    return _net(2, [(W, b, v), ([[0.0, -1.0]], [1.0], [2.0])])


def _shattered_gradients():
    # f = x1 + x2 + A tri(m x1), tri(u) = u - 2 relu(u - 1/2) + 2 relu(u - 1) - ...
    A, m = _SAW_HEIGHT, _SAW_FREQUENCY
    W0, b0, v0 = _identity_units(0, 2)
    W1, b1, v1 = _identity_units(1, 2)
    k = np.arange(1, _SAW_KNOTS + 1)
    saw = ([[m, 0.0]] * len(k), list(-k / 2.0), list(A * np.where(k % 2 == 1, -2.0, 2.0)))
    return _net(2, [(W0, b0, [(1 + A * m) * v0[0], (1 + A * m) * v0[1]]),
                    (W1, b1, v1), saw])


def _saturation():
    # f = relu(x1 + x2) - relu(x1 + x2 - 1): clipped at 1
    return _net(2, [([[1.0, 1.0], [1.0, 1.0]], [0.0, -1.0], [1.0, -1.0])])


def _boolean_and():
    # min(x1, x2) = x1 - relu(x1 - x2)
    W, b, v = _identity_units(0, 2)
    return _net(2, [(W, b, v), ([[1.0, -1.0]], [0.0], [-1.0])])


def _boolean_or():
    # max(x1, x2) = x1 + relu(x2 - x1)
    W, b, v = _identity_units(0, 2)
    return _net(2, [(W, b, v), ([[-1.0, 1.0]], [0.0], [1.0])])


def _suppressor():
    # f = x1 - x2
    W0, b0, v0 = _identity_units(0, 2)
    W1, b1, v1 = _identity_units(1, 2)
    return _net(2, [(W0, b0, v0), (W1, b1, [-v1[0], -v1[1]])])


#: Unit name -> (number of features, formula, builder of (W1, b1, w2) or None
#: for the product).
UNITS = {
    "cancellation": (3, "2 x1 - 2 x2 + x3", _cancellation),
    "conflicting": (2, "-x1 + 2 relu(x1 - 4 x2)", _conflicting),
    "xor": (2, "|x1 - x2|", _xor),
    "product": (2, "x1 * x2", None),
    "pertinent_negative": (2, "x1 + 2 relu(1 - x2)", _pertinent_negative),
    "shattered_gradients": (2, "x1 + x2 + 0.15 tri(20 x1)", _shattered_gradients),
    "saturation": (2, "min(relu(x1 + x2), 1)", _saturation),
    "boolean_and": (2, "min(x1, x2)", _boolean_and),
    "boolean_or": (2, "max(x1, x2)", _boolean_or),
    "suppressor": (2, "x1 - x2", _suppressor),
}


class _Product(nn.Module):
    """``x_1 * x_2`` (one output column); further columns are ignored."""

    def forward(self, X):
        return (X[:, 0] * X[:, 1]).reshape(-1, 1)


def unit_module(unit, n_features=None):
    """The float64 torch module of a hand-weighted unit.

    Parameters
    ----------
    unit : str
        A key of :data:`UNITS`.
    n_features : int, default=None
        Number of input columns; columns after the unit's own features get
        zero weight.  Defaults to the unit's number of features.

    Returns
    -------
    module : torch.nn.Module
        Maps ``(n, n_features)`` float64 rows to ``(n, 1)`` outputs, in
        evaluation mode.

    Examples
    --------
    >>> import torch
    >>> from sklearn_xai.models import unit_module
    >>> module = unit_module("boolean_or")
    >>> X = torch.tensor([[1.0, -1.0], [-0.5, -1.0]], dtype=torch.float64)
    >>> module(X).ravel().tolist()
    [1.0, -0.5]
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {sorted(UNITS)}; got {unit!r}.")
    k, _, build = UNITS[unit]
    n_features = k if n_features is None else int(n_features)
    if build is None:
        return _Product().eval()
    W1, b1, w2 = build()
    # Irrelevant trailing columns: zero weights (a Linear layer keeps the
    # network a plain Sequential, which every gradient rule supports).
    W1 = np.hstack([W1, np.zeros((W1.shape[0], n_features - k))])
    first = nn.Linear(n_features, len(b1), dtype=torch.float64)
    second = nn.Linear(len(b1), 1, dtype=torch.float64)
    with torch.no_grad():
        first.weight.copy_(torch.as_tensor(W1))
        first.bias.copy_(torch.as_tensor(b1))
        second.weight.copy_(torch.as_tensor(w2.reshape(1, -1)))
        second.bias.zero_()
    for p in (*first.parameters(), *second.parameters()):
        p.requires_grad_(False)
    return nn.Sequential(first, nn.ReLU(), second).eval()


class HandWeightedModel(RegressorMixin, BaseEstimator):
    """A regressor with hand-set weights: one known-behaviour unit.

    The model is fixed by construction (see :data:`UNITS`); ``fit`` only
    validates ``X`` and records ``n_features_in_``.  Columns after the
    unit's own features are irrelevant (zero weight).  The float64 torch
    module is ``module_``, so gradient explainers (Saliency, integrated
    gradients, DeepLIFT, LRP, ...) differentiate it exactly as they do a
    skorch net; ``predict`` evaluates the same module, so every explainer
    explains the same function.

    ====================  ==========================  ===========================
    unit                  function                    behaviour tested
    ====================  ==========================  ===========================
    cancellation          2 x1 - 2 x2 + x3            copies that cancel
    conflicting           -x1 + 2 relu(x1 - 4 x2)     a switch reverses x1
    xor                   abs(x1 - x2)                interaction
    product               x1 * x2                     interaction
    pertinent_negative    x1 + 2 relu(1 - x2)         a zero that matters
    shattered_gradients   x1 + x2 + 0.15 tri(20 x1)   sawtooth gradient
    saturation            min(relu(x1 + x2), 1)       flat output
    boolean_and           min(x1, x2)                 fuzzy AND
    boolean_or            max(x1, x2)                 fuzzy OR (redundancy)
    suppressor            x1 - x2                     suppressor variable
    ====================  ==========================  ===========================

    Parameters
    ----------
    unit : str, default="xor"
        Which unit.

    Attributes
    ----------
    module_ : torch.nn.Module
        The float64 network, ``(n, n_features_in_) -> (n, 1)``.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined only when ``X`` has string column names.

    See Also
    --------
    sklearn_xai.datasets.make_unit_test : data and ground truth of a unit.

    References
    ----------
    .. [1] J. Lee et al., "XAI-Units: Benchmarking Explainability Methods
       with Unit Tests", FAccT 2025.
    .. [2] M. Sundararajan, A. Taly and Q. Yan, "Axiomatic Attribution for
       Deep Networks", ICML 2017.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.models import HandWeightedModel
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0]])
    >>> HandWeightedModel(unit="saturation").fit(X).predict(X)
    array([1., 1.])
    """

    _parameter_constraints = {"unit": [StrOptions(set(UNITS))]}

    def __init__(self, unit="xor"):
        self.unit = unit

    def fit(self, X, y=None):
        """Validate ``X`` and build the module (nothing is learnt).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            At least as many columns as the unit has features.
        y : array-like of shape (n_samples,), default=None
            Validated when given, otherwise unused (nothing is learnt).

        Returns
        -------
        self : HandWeightedModel
        """
        validate_estimator_params(self)
        if y is None:
            X = validate_data(self, X, dtype=np.float64, reset=True)
        else:  # checked (finite, one per row), then unused
            X, _ = validate_data(self, X, y, dtype=np.float64, y_numeric=True,
                                 reset=True)
        k = UNITS[self.unit][0]
        if X.shape[1] < k:
            raise ValueError(
                f"The {self.unit!r} unit needs at least {k} features; X has "
                f"n_features = {X.shape[1]}. Generate its data with "
                "sklearn_xai.datasets.make_unit_test."
            )
        self.module_ = unit_module(self.unit, X.shape[1])
        return self

    def predict(self, X):
        """The unit's output.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "module_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        with torch.no_grad():
            return self.module_(torch.as_tensor(X)).numpy().reshape(-1).copy()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = False
        tags.regressor_tags.poor_score = True
        return tags
