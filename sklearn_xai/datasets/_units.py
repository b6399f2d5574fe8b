"""Known-behaviour units: data, hand-weighted model and ground truth.

Each unit (Lee et al., 2025; Belaid et al., 2022) pairs a model whose weights
are set by hand (:class:`~sklearn_xai.models.HandWeightedModel`) with a data
generator and the attribution a correct explainer gives on every row.  The
ground truth is the *baseline Shapley value* of the model at the unit's
reference input (the zero vector except for the pertinent negative), i.e. the
unique attribution that is efficient (sums to ``f(x) - f(r)``), symmetric,
dummy-free and linear (Shapley, 1953; Sundararajan and Najmi, 2020); the
suppressor unit instead credits the signal to the feature that carries it
(Haufe et al., 2014; Wilming et al., 2022).

The pass rule (:func:`~sklearn_xai.benchmark.unit_test_passes`) is one for every unit: an
explanation passes when its cosine similarity with the ground truth is at
least ``min_cosine`` (0.9) on at least ``min_fraction`` (90 %) of the rows;
an all-zero explanation fails its row.
"""

import numbers

import numpy as np

from sklearn_xai.datasets._common import _finish, _generator
from sklearn_xai.datasets._shapley import exact_shapley_values
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params

__all__ = ["UNIT_DESCRIPTIONS", "make_unit_test", "MIN_COSINE", "MIN_FRACTION"]

#: Per-row cosine similarity an explanation needs to pass its row.
MIN_COSINE = 0.9
#: Fraction of rows an explanation needs to pass to pass the unit.
MIN_FRACTION = 0.9

# The models (sklearn_xai.models, which imports torch and skorch) are
# imported on first use, so that importing the datasets stays light.

#: Unit name -> what the unit tests (one line); the keys are the units, in
#: the order of :data:`sklearn_xai.models.UNITS`.
UNIT_DESCRIPTIONS = {
    "cancellation": "x2 copies x1 and cancels it in the output; both keep "
                    "their (opposite) contributions",
    "conflicting": "a binary switch x2 reverses the effect of x1; Shapley "
                   "credits the switch with the reversal",
    "xor": "|x1 - x2| on signed inputs: a pure interaction",
    "product": "x1 * x2: the interaction is split equally",
    "pertinent_negative": "x2 = 0 raises the output by 2 (its usual value "
                          "is 1): an absent feature that matters",
    "shattered_gradients": "a fine sawtooth on x1 makes its gradient "
                           "alternate in sign around a smooth trend",
    "saturation": "the output saturates at 1 on every row: zero gradient, "
                  "nonzero contributions",
    "boolean_and": "fuzzy AND min(x1, x2) of signed inputs",
    "boolean_or": "fuzzy OR max(x1, x2): redundant true inputs",
    "suppressor": "x2 is pure noise that the model subtracts from x1 = "
                  "signal + noise; only x1 carries the signal",
}


def _signed(rng, size, low=0.5, high=1.5):
    return rng.choice([-1.0, 1.0], size=size) * rng.uniform(low, high, size=size)


_N_FEATURES = {"cancellation": 3}


def _draw(unit, n, rng):
    """Features of a unit and its reference input (the ground truth's
    baseline)."""
    reference = np.zeros(_N_FEATURES.get(unit, 2))
    if unit == "cancellation":
        x1 = rng.uniform(1.0, 2.0, n)
        X = np.column_stack([x1, x1, rng.uniform(1.0, 2.0, n)])
    elif unit == "conflicting":
        X = np.column_stack([rng.uniform(1.0, 2.0, n),
                             rng.integers(0, 2, n).astype(np.float64)])
    elif unit in ("xor", "product", "boolean_and", "boolean_or"):
        X = _signed(rng, (n, 2))
    elif unit == "pertinent_negative":
        X = np.column_stack([rng.uniform(1.0, 2.0, n), np.zeros(n)])
        reference = np.array([0.0, 1.0])
    elif unit == "shattered_gradients":
        X = rng.uniform(1.0, 2.0, (n, 2))
    elif unit == "saturation":
        X = rng.uniform(1.0, 1.5, (n, 2))
    else:  # suppressor: x1 = signal + distractor, x2 = distractor
        signal = _signed(rng, n)
        distractor = rng.normal(0.0, 2.0, n)
        X = np.column_stack([signal + distractor, distractor])
    return X, reference


@fast_validate_params(
    {
        "unit": [StrOptions(set(UNIT_DESCRIPTIONS))],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
        "as_frame": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def make_unit_test(unit="xor", n_samples=200, *, shuffle=True, random_state=None,
                   return_X_y=False, as_frame=False):
    """Data, hand-weighted model and ground truth of a known-behaviour unit.

    Every unit is a model whose weights are set by hand
    (:class:`~sklearn_xai.models.HandWeightedModel`, ``y = f(X)`` without
    noise) and whose correct attribution is known on every row:

    ====================  ===============================  ==========================
    unit                  model ``f`` and data             ground truth (row ``x``)
    ====================  ===============================  ==========================
    cancellation          ``2 x1 - 2 x2 + x3``,            ``(2 x1, -2 x2, x3)``
                          ``x2 = x1``,
                          ``x1, x3 ~ U(1,2)``
    conflicting           ``-x1 + 2 relu(x1 - 4 x2)``,     ``(x1, 0)`` if ``x2 = 0``,
                          ``x1 ~ U(1,2)``, ``x2 ∈ {0,1}``  ``(0, -x1)`` if ``x2 = 1``
    xor                   ``|x1 - x2|``, signed inputs     Shapley value
    product               ``x1 x2``, signed inputs         ``(x1 x2 / 2, x1 x2 / 2)``
    pertinent_negative    ``x1 + 2 relu(1 - x2)``,         ``(x1, 2)`` (reference
                          ``x1 ~ U(1,2)``, ``x2 = 0``      ``x2 = 1``)
    shattered_gradients   ``x1 + x2 + 0.15 tri(20 x1)``,   ``(f1(x1), x2)``, additive
                          ``x ~ U(1,2)``
    saturation            ``min(relu(x1 + x2), 1)``,       ``(1/2, 1/2)``
                          ``x ~ U(1,1.5)``
    boolean_and           ``min(x1, x2)``, signed inputs   Shapley value
    boolean_or            ``max(x1, x2)``, signed inputs   Shapley value
    suppressor            ``x1 - x2``, ``x1 = s + n``,     ``(s, 0)``
                          ``x2 = n``, ``s`` signed,
                          ``n ~ N(0, 2^2)``
    ====================  ===============================  ==========================

    Signed inputs are ``±U(0.5, 1.5)`` with a random sign; ``tri`` is a
    triangle wave of height 1/2 and period 1, so the gradient in ``x1``
    alternates between 4 and -2.  The ground truth is the baseline Shapley
    value at the unit's reference input ``r`` (zero, except ``x2 = 1`` for
    the pertinent negative, the value the feature usually takes):
    ``phi_j = sum_S |S|! (d - |S| - 1)! / d! (f(x_{S+j}, r) - f(x_S, r))``,
    computed by enumerating the coalitions of the model.  It sums to
    ``f(x) - f(r)`` on every row.  The suppressor's ground truth is not the
    model's Shapley value ``(x1, -x2)``: the distractor ``x2`` is
    independent of the target, so the signal ``s = f(x)`` is credited to
    ``x1`` alone (Haufe et al., 2014; Wilming et al., 2022).

    The pass rule, :func:`~sklearn_xai.benchmark.unit_test_passes`: an explanation passes the
    unit when its cosine similarity with the ground truth is at least
    :data:`MIN_COSINE` (0.9) on at least :data:`MIN_FRACTION` (90 %) of
    the rows.

    Parameters
    ----------
    unit : str, default="xor"
        One of ``"cancellation"``, ``"conflicting"``, ``"xor"``,
        ``"product"``, ``"pertinent_negative"``, ``"shattered_gradients"``,
        ``"saturation"``, ``"boolean_and"``, ``"boolean_or"``,
        ``"suppressor"``.
    n_samples : int, default=200
        Number of rows.
    shuffle : bool, default=True
        Shuffle the rows (the rows are independent draws, so this only
        changes their order).
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.
    return_X_y : bool, default=False
        Return ``(X, y)`` only.
    as_frame : bool, default=False
        ``data`` and ``ground_truth`` as DataFrames, ``target`` as a Series.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        ``data`` (n_samples, n_features), ``target = f(data)``, ``ground_truth``
        (n_samples, n_features), ``model`` (the fitted
        :class:`~sklearn_xai.models.HandWeightedModel`), ``unit``,
        ``reference`` (the reference input), ``formula``, ``tests`` (what
        the unit tests), ``pass_rule``, ``feature_names``, ``DESCR``,
        ``parameters``; ``distribution`` and ``ground_truth_mask`` are None.
    (X, y) : tuple
        With ``return_X_y=True``.

    References
    ----------
    .. [1] J. Lee et al., "XAI-Units: Benchmarking Explainability Methods
       with Unit Tests", FAccT 2025.
    .. [2] M. R. Belaid, E. Hüllermeier, M. Rabus and R. Krestel, "Do We
       Need Another Explainable AI Method? Toward Unifying Post-hoc XAI
       Evaluation Methods into an Interactive and Multi-dimensional
       Benchmark" (Compare-xAI), arXiv:2207.14160, 2022.
    .. [3] M. Sundararajan and A. Najmi, "The Many Shapley Values for Model
       Explanation", ICML 2020.
    .. [4] S. Haufe et al., "On the interpretation of weight vectors of linear
       models in multivariate neuroimaging", NeuroImage 87, 2014.
    .. [5] R. Wilming, C. Budding, K.-R. Müller and S. Haufe, "Scrutinizing
       XAI using linear ground-truth data with suppressor variables",
       Machine Learning 111, 2022.

    Examples
    --------
    >>> from sklearn_xai.datasets import make_unit_test
    >>> data = make_unit_test("saturation", n_samples=3, random_state=0)
    >>> data.model.predict(data.data)
    array([1., 1., 1.])
    >>> data.ground_truth
    array([[0.5, 0.5],
           [0.5, 0.5],
           [0.5, 0.5]])
    """
    from sklearn_xai.models import UNITS, HandWeightedModel

    rng = _generator(random_state)
    X, reference = _draw(unit, n_samples, rng)
    model = HandWeightedModel(unit=unit).fit(X)
    y = model.predict(X)
    if unit == "suppressor":
        truth = np.column_stack([X[:, 0] - X[:, 1], np.zeros(n_samples)])
    else:
        truth = exact_shapley_values(model.predict, X, value="baseline",
                                     baseline=reference).attributions
    d = X.shape[1]
    names = [f"x{j + 1}" for j in range(d)]
    formula = UNITS[unit][1]
    descr = (f"Known-behaviour unit {unit!r}: f(x) = {formula}, hand-weighted. "
             f"{UNIT_DESCRIPTIONS[unit]}. Ground truth: baseline Shapley value at "
             f"r = {reference.tolist()}" + (" (suppressor: the signal, on x1)"
                                            if unit == "suppressor" else "") + ".")
    result, _ = _finish(
        X=X, y=y, ground_truth=truth, ground_truth_mask=None, distribution=None,
        label_function=model.predict, feature_names=names, descr=descr,
        parameters={"unit": unit, "n_samples": n_samples, "shuffle": shuffle,
                    "random_state": random_state},
        rng=rng, shuffle=shuffle, return_X_y=return_X_y, as_frame=as_frame,
        model=model, unit=unit, reference=reference, formula=formula,
        tests=UNIT_DESCRIPTIONS[unit],
        pass_rule=(f"cosine(attribution, ground_truth) >= {MIN_COSINE} on at least "
                   f"{MIN_FRACTION:.0%} of the rows"),
    )
    return result
