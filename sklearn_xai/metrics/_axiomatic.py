"""Axiomatic properties of attributions (definitions in the user guide,
:ref:`def-axiomatic-metrics`).

Completeness (Sundararajan et al. 2017) compares the sum of a row's
attributions with the change of the output between the row and its
baseline; non-sensitivity (Nguyen and Martinez 2020) counts the features
that break the null-player axiom; input invariance (Kindermans et al. 2019)
measures how much the attributions move when the input and the model are
shifted by the same constant, which leaves every output unchanged.
"""

import copy
import numbers

import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.masking import BaseMasker
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_explainer,
    _check_inputs,
    _check_training_rows,
    _class_labels,
    _explainer_on,
    _masker_streams,
    _prepare,
    _with_x,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import row_keys
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    fast_validate_params,
)
from sklearn_xai.utils._stats import handle_undefined

__all__ = ["completeness", "input_invariance", "non_sensitivity", "shifted_model"]


def _masked_values(f, masker, X, keep, random_state, batch_size):
    """``(f(x), v_x(S))`` for the coalitions ``keep`` (n, m, d), in one pass;
    a stochastic masker draws from one stream per row, keyed by the row."""
    rngs = _masker_streams(masker, X, random_state)
    return _with_x(f, masker, X, keep, batch_size, rngs)


# ------------------------------------------------------------ completeness
@fast_validate_params(
    {
        **_BASE_PARAMS,
        "masker": [BaseMasker, None],
        "X_train": ["array-like", None],
        "relative": ["boolean"],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("masker", "X_train", "random_state",
              metric_references=_references("sundararajan2017", "hedstrom2023"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
def completeness(estimator, X, attributions, *, masker=None, X_train=None,
                 relative=False, nan_policy="omit", random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Completeness gap (Sundararajan et al. 2017; Quantus ``Completeness``).

    ``gap(x) = |sum_j a_j(x) - (f(x) - f(b(x)))|`` where ``b(x)`` is the row
    with every feature removed by ``masker`` (its value ``v_x(∅)``: the zero
    baseline by default).  Integrated gradients and Shapley values are
    complete (gap 0 up to their approximation) for the same baseline.  See
    :ref:`def-completeness` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {masker}
        ``None`` is ``BaselineMasker("zero")``; a marginal masker gives the
        expected output over its background (the reference of KernelSHAP and
        of Shapley values with that masker).
    {X_train}
    relative : bool, default=False
        Divide the gap by ``|f(x) - f(b(x))|``: the share of the output
        change the attributions fail to account for.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        With ``relative=True``, a row whose output equals the baseline's has
        no relative gap: NaN with a warning (``"omit"``), 0 (``"zero"``) or a
        ``ValueError`` (``"raise"``).
    {random_state}
        Only used by a stochastic masker.
    {output_params}

    {returns_scores_lower}

    Notes
    -----
    Quantus returns ``sum_j a_j == f(x) - f(b)`` as a boolean, an exact
    floating-point equality that is false for any attribution computed
    numerically, with the attributions normalised by their maximum by
    default (``normalise=True``, which breaks completeness) and its
    ``"black"`` baseline the minimum of the row.  The gap keeps the
    information: ``completeness(...) <= tol`` is Quantus' test with a
    tolerance.  Costs ``1 + n_draws`` model rows per row (the row and its
    baseline draws), evaluated with the row in one model call.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.masking import BaselineMasker
    >>> from sklearn_xai.metrics import completeness
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, -2.0, 3.0] + 1.0)
    >>> mean = BaselineMasker("mean").fit(X)
    >>> exact = model.coef_ * (X - X.mean(axis=0))  # Shapley values, mean baseline
    >>> bool(completeness(model, X, exact, masker=mean).max() < 1e-12)
    True
    >>> bool(completeness(model, X, model.coef_ * X, masker=mean).mean() > 0.1)
    True
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    keep = np.zeros((n, 1, d), dtype=bool)
    fx, v = _masked_values(f, masker, X, keep, random_state, batch_size)
    change = fx - v[:, 0]
    gap = np.abs(A.sum(axis=1) - change)
    if not relative:
        return gap
    scale = np.abs(change)
    undefined = scale == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(undefined, np.nan, gap / np.where(undefined, 1.0, scale))
    return handle_undefined(scores, undefined, nan_policy, what="Relative completeness",
                            reason="the output equals the baseline's", stacklevel=4)


# --------------------------------------------------------- non-sensitivity
@fast_validate_params(
    {
        **_BASE_PARAMS,
        "masker": [BaseMasker, None],
        "X_train": ["array-like", None],
        "eps": [Interval(numbers.Real, 0, None, closed="left")],
        "attribution_eps": [Interval(numbers.Real, 0, None, closed="left"), None],
        "normalize": ["boolean"],
        "convention": [StrOptions({"paper", "quantus_code"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("masker", "X_train", "random_state",
              metric_references=_references("nguyen2020", "hedstrom2023"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
def non_sensitivity(estimator, X, attributions, *, masker=None, X_train=None,
                    eps=1e-5, attribution_eps=None, normalize=False,
                    convention="paper", random_state=None, target="predicted",
                    output="auto", batch_size=None):
    """Non-sensitivity: violations of the null-player axiom (Nguyen and
    Martinez 2020; Quantus ``NonSensitivity``).

    Feature ``j`` is a null player at ``x`` when removing it leaves the
    output unchanged, ``|f(x) - v_x(N \\ {j})| <= eps``, with ``v_x`` the
    value function of ``masker`` (the mean output over its draws).  The score
    is the size of the symmetric difference between the null players and
    the features with zero attribution (``|a_j| <= attribution_eps``): null
    players given an attribution plus features the output depends on given
    none.  See :ref:`def-non-sensitivity` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {masker}
        ``None`` is ``BaselineMasker("zero")``.  A stochastic masker
        (``MarginalMasker``) compares ``f(x)`` with the mean output over its
        draws (its ``n_draws`` background rows).
    {X_train}
    eps : float, default=1e-5
        Tolerance on the output change below which a feature is a null
        player (Quantus' ``eps``).
    attribution_eps : float or None, default=None
        Attributions with ``|a_j| <= attribution_eps`` count as zero;
        ``None`` is ``eps``.
    normalize : bool, default=False
        Divide the count by the number of features (a fraction in [0, 1]).
    convention : {"paper", "quantus_code"}, default="paper"
        ``"paper"``: a null player has ``|Δf| <= eps`` and a zero
        attribution ``|a_j| <= attribution_eps``.  ``"quantus_code"``:
        Quantus 0.6's tests, ``|Δf| < eps`` and the *signed* ``a_j <
        attribution_eps``, so a feature with a negative attribution counts
        as unattributed.
    {random_state}
        Only used by a stochastic masker.
    {output_params}

    {returns_scores_lower}
        An integer count (or a fraction with ``normalize=True``).

    Notes
    -----
    Costs ``d`` removals per row, each ``n_draws`` model rows of the
    masker, all evaluated together (one model call per block of rows).  Quantus replaces each feature by the minimum of the row
    (``"black"``); pass a masker for the baseline (``BaselineMasker(0.0)``
    is Quantus' ``perturb_baseline=0.0``).  Quantus' ``features_in_step``
    (removing groups of features) has no counterpart: the axiom concerns
    single features.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import non_sensitivity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 4))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 0.0, 0.0])
    >>> exact = model.coef_ * X  # zero for the two unused features
    >>> int(non_sensitivity(model, X, exact, eps=1e-8).max())
    0
    >>> uniform = np.ones_like(X)  # credits the unused features too
    >>> non_sensitivity(model, X, uniform, eps=1e-8)[:3].tolist()
    [2.0, 2.0, 2.0]
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    a_eps = eps if attribution_eps is None else attribution_eps
    keep = np.broadcast_to(~np.eye(d, dtype=bool), (n, d, d))
    fx, v = _masked_values(f, masker, X, keep, random_state, batch_size)
    delta = np.abs(v - fx[:, None])
    if convention == "quantus_code":
        null_player, unattributed = delta < eps, A < a_eps
    else:
        null_player, unattributed = delta <= eps, np.abs(A) <= a_eps
    violations = np.count_nonzero(null_player != unattributed, axis=1).astype(np.float64)
    return violations / d if normalize else violations


# --------------------------------------------------------- input invariance
def shifted_model(estimator, shift):
    """The model ``f'(z) = f(z - c)`` on inputs shifted by ``c``.

    A :class:`~sklearn.pipeline.Pipeline` of a ``StandardScaler`` without
    scaling whose mean is ``c`` (the state it learns from the single row
    ``c``: it subtracts ``c``) and the frozen ``estimator``: ``f'(x + c) = f(x)`` for every ``x``, every output
    of the model included.  The user's model is neither refitted nor
    modified.  The scaler is affine, so gradient explainers differentiate
    through it (a torch model stays differentiable), the way Kindermans et
    al. fold the shift into the first layer's bias.

    Parameters
    ----------
    estimator : fitted estimator
        The model ``f``.
    shift : float or array-like of shape (n_features,)
        The constant ``c`` added to the inputs.

    Returns
    -------
    model : Pipeline
        The fitted model ``f'``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import shifted_model
    >>> X = np.arange(12.0).reshape(6, 2)
    >>> model = LinearRegression().fit(X, X @ [1.0, -1.0] + 3.0)
    >>> moved = shifted_model(model, [10.0, -5.0])
    >>> bool(np.allclose(moved.predict(X + [10.0, -5.0]), model.predict(X)))
    True
    """
    c = np.atleast_1d(np.asarray(shift, dtype=np.float64))
    n_features = getattr(estimator, "n_features_in_", None)
    if c.ndim != 1 or (n_features is not None and c.size not in (1, n_features)):
        raise ValueError(
            "shift must be a number or one value per feature, shape "
            f"({n_features},); got shape {np.shape(shift)}."
        )
    if c.size == 1 and n_features is not None:
        c = np.full(n_features, c[0])
    if not np.all(np.isfinite(c)):
        raise ValueError("shift must be finite.")
    # The state StandardScaler(with_std=False).fit([c]) learns, set directly
    # (its documented attributes): fitting costs more than the metric's
    # own work on small models.
    unshift = StandardScaler(with_std=False)
    unshift.mean_, unshift.var_, unshift.scale_ = c.copy(), None, None
    unshift.n_samples_seen_, unshift.n_features_in_ = 1, c.size
    return Pipeline([("unshift", unshift), ("model", FrozenEstimator(estimator))])


def _shifted_explainer(explainer, model, X_train, c, y_train=None):
    """An explainer of ``model`` (``f'``) that leaves ``explainer`` intact:
    a clone fitted on ``(X_train + c, y_train)`` (the metrics' one refit,
    :func:`_explainer_on`) or, without training rows, a copy of the fitted
    explainer whose model is swapped (its fitted state kept)."""
    if X_train is not None:
        return _explainer_on(explainer, model, X_train + c, y_train,
                             name="input_invariance")
    if not hasattr(explainer, "estimator_"):
        raise TypeError(
            "input_invariance explains the shifted rows with the explainer's "
            "model replaced by the shifted one: pass a fitted sklearn_xai "
            f"explainer (it has an estimator_); got {type(explainer).__name__}."
        )
    moved = copy.copy(explainer)  # shallow: the user's explainer is not touched
    moved.estimator_ = model
    return moved


@fast_validate_params(
    {
        **_BASE_PARAMS,
        "explainer": [HasMethods(["explain"])],
        "shift": [numbers.Real, "array-like"],
        "X_train": ["array-like", None],
        "y_train": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", "target", "output",
              metric_references=_references("kindermans2019", "hedstrom2023"),
              **_shared_docs("returns_scores_lower"))
def input_invariance(estimator, X, attributions, *, explainer, shift=-1.0,
                     X_train=None, y_train=None, target="predicted", output="auto",
                     batch_size=None):
    """Input invariance (Kindermans et al. 2019; Quantus ``InputInvariance``).

    ``II(x) = mean_j |a_j(x; f) - a_j(x + c; f')|`` where ``f'(z) = f(z -
    c)`` is the model shifted by the constant ``c`` (:func:`shifted_model`):
    ``f'`` on ``x + c`` is ``f`` on ``x`` in every output, so an input
    invariant explainer gives the same attributions.  Gradients are input
    invariant, gradient × input and integrated gradients or occlusion with a
    fixed (zero) baseline are not; a baseline learnt from the training rows
    moves with them.  See :ref:`def-input-invariance` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``a(x; f)`` (from ``explainer``).
    explainer : fitted explainer
        Explains the shifted rows with the shifted model.  With ``X_train``,
        a clone is fitted on ``X_train + c`` with ``f'`` (baselines and
        backgrounds learnt from the data move with it); without, a copy of
        the fitted explainer with its model replaced by ``f'`` (its fitted
        state, e.g. a baseline, is kept: the setting of Kindermans et al.
        and Quantus).  The explainer passed is never modified.
    shift : float or array-like of shape (n_features,), default=-1.0
        The constant ``c`` added to the rows (Quantus' ``input_shift=-1``).
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows the clone of the explainer is fitted on (shifted).
    y_train : array-like of shape (n_train,), default=None
        Their targets, for explainers whose fit needs them
        (:class:`~sklearn_xai.explainers.PermutationImportance`).
    {target}
    {output}
    batch_size : int or None, default=None
        Maximum rows per model call when reading the explained class; the
        explainer batches its own calls.

    {returns_scores_lower}

    Notes
    -----
    Quantus returns whether every attribution is unchanged within
    ``atol=1e-4`` (``numpy.isclose``, also ``rtol=1e-5``), a boolean per
    row, after normalising both explanations by their maximum by default.
    The mean absolute change is 0 exactly when the attributions are
    unchanged, and says how far they move otherwise.  Quantus 0.6 also
    leaves the first input entry unshifted while shifting its network on
    all of them, so its ``f'(x + c)`` differs from ``f(x)`` unless the model
    ignores the first feature; every feature is shifted here.  A stochastic
    explainer explains ``x + c`` with ``x``'s random stream (common random
    numbers), so the change is the shift's, not the sampling's.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.masking import BaselineMasker
    >>> from sklearn_xai.metrics import input_invariance
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> zero = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = input_invariance(model, X[:2], zero.transform(X[:2]), explainer=zero)
    >>> s.round(6).tolist()  # w_j (x_j - 0) became w_j (x_j + c_j - 0)
    [2.0, 2.0]
    >>> mean = FeatureAblation(FrozenEstimator(model),
    ...                        masker=BaselineMasker("mean")).fit(X)
    >>> s = input_invariance(model, X[:2], mean.transform(X[:2]), explainer=mean,
    ...                      X_train=X)
    >>> bool(s.max() < 1e-12)
    True
    """
    X, A = _check_inputs(X, attributions)
    explainer = _check_explainer(explainer)
    n, d = X.shape
    c = np.broadcast_to(np.asarray(shift, dtype=np.float64), (d,)) \
        if np.ndim(shift) == 0 else np.asarray(shift, dtype=np.float64)
    if c.shape != (d,) or not np.all(np.isfinite(c)):
        raise ValueError(
            f"shift must be a finite number or one value per feature, shape ({d},); "
            f"got shape {np.shape(shift)}."
        )
    if X_train is not None:
        X_train = _check_training_rows(X_train, d)
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    labels = _class_labels(f, f.target_index(X))
    moved = _shifted_explainer(explainer, shifted_model(estimator, c), X_train, c, y_train)
    A_shift = np.asarray(moved.explain(X + c, target=labels, row_keys=row_keys(X)),
                         dtype=np.float64)
    return np.abs(A - A_shift).mean(axis=1)


register_metric(
    "neg_completeness", completeness, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"),
    source="Quantus (Sundararajan et al. 2017)",
    description="Gap between the attributions' sum and f(x) - f(baseline).",
)
register_metric(
    "neg_non_sensitivity", non_sensitivity, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"),
    source="Quantus (Nguyen and Martinez 2020)",
    description="Null-player violations: features whose removal and attribution "
                "disagree on being zero.",
)
register_metric(
    "neg_input_invariance", input_invariance, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows"),
    source="Quantus (Kindermans et al. 2019)",
    description="Attribution change when the input and the model are shifted "
                "by the same constant.",
)
