"""What the model-based metric families share: the constraints of the
parameters every ``metric(estimator, X, attributions, ...)`` takes, the
validation of the rows they score, and the one way they obtain values of
the model on masked rows.

Every metric that removes, keeps or replaces features goes through
:func:`_prepare` (validated rows, attributions, the explained output and a
fitted masker) and :func:`_with_x` (``f(x)`` and the value function
``v_x(S)`` of :meth:`~sklearn_xai.masking.BaseMasker.evaluate`, in one
model call per block of rows).  Metrics defined from a data distribution
(XAI-Bench) resolve their masker with :func:`_value_masker`.  The metrics
that re-explain rows check the explainer with :func:`_check_explainer`; those
that refit the model do so with :func:`_refit`, and explain a refitted
model with a fresh clone of the explainer, :func:`_explainer_on`.

A helper only one family needs lives in that family's shared module
(``_shared_removal.py``, ``_shared_neighbours.py``), never here.

The rest of the metrics' infrastructure is not metric-specific and lives in
``sklearn_xai.utils``: the explained output and its blocks of model calls
(``utils/_output.py``), per-row random streams (``utils/_random.py``),
row-wise correlation and the NaN policy (``utils/_stats.py``), validation,
ranking and top-k coalitions (``utils/_validation.py``); shared docstring
entries are in ``utils/_docstring.py``.
"""

import numbers

import numpy as np
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator

from sklearn_xai.distributions import BaseDistribution
from sklearn_xai.masking import (
    BaselineMasker,
    ConditionalMasker,
    MarginalMasker,
    check_masker,
)
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._estimators import is_frozen, unfreeze
from sklearn_xai.utils._output import (
    ExplainedOutput,
    affine_once,
    affine_output,
    block_slices,
)
from sklearn_xai.utils._random import keyed_streams, purpose_generator
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._validation import check_attributions, check_rows


# Parameters every model-based metric takes, with their constraints.
_BASE_PARAMS = {
    "estimator": [object],
    "X": ["array-like"],
    "attributions": ["array-like"],
    "target": [object],
    "output": [StrOptions({"auto", "proba", "decision", "predict", "margin"})],
    "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
}

# Constraints shared by several families.
_EMPTY_VALUE = {"empty_value": [StrOptions({"expected", "explained_mean"})]}

_NAN_POLICY = {"nan_policy": [StrOptions({"omit", "zero", "raise"})]}

_CONVENTION_XAI_BENCH = {"convention": [StrOptions({"paper", "xai_bench_code"})]}
# Parameters of the metrics defined from a value function v_x(S): a data
# distribution or a masker (see _value_masker).
_VALUE_PARAMS = {
    **_BASE_PARAMS,
    "distribution": [None, object],
    "masker": [None, object],
    "X_train": ["array-like", None],
    "value": [StrOptions({"observational", "interventional"})],
    "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
}


def _check_inputs(X, attributions):
    """The scored rows and their attributions, validated the one way.

    ``X`` goes through :func:`~sklearn_xai.utils._validation.check_rows`
    (2-D, float64, finite, a new array) and the attributions through
    :func:`~sklearn_xai.utils._validation.check_attributions`, with one row
    per row of ``X`` and one column per feature.

    Returns
    -------
    X, A : ndarray of shape (n_samples, n_features), float64
        Never written to by the metrics (``A`` may be the caller's array).
    """
    X = check_rows(X, allow_1d=False)
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    return X, A


def _check_training_rows(X_train, n_features):
    """Validated training rows (float64, finite) with ``n_features`` columns."""
    return check_rows(X_train, n_features, name="X_train", allow_1d=False)


def _prepare(estimator, X, attributions, masker, target, output, batch_size,
             X_train=None):
    """Validated inputs shared by the model-based metrics.

    The masker is never fitted on the scored rows ``X`` (a row's score would
    depend on the other rows): a fitted one is used as is, an unfitted one
    is fitted on ``X_train``, and without training rows only a masker that
    learns nothing from data (the default zero baseline) is set up.

    Returns
    -------
    X, A : ndarray of shape (n_samples, n_features)
    f : ExplainedOutput
    masker : fitted masker
    """
    X, A = _check_inputs(X, attributions)
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    if masker is None:  # the zero baseline needs no rows
        masker = check_masker(None, default=BaselineMasker("zero"),
                              n_features=X.shape[1])
    else:
        masker = check_masker(masker, X_train, n_features=X.shape[1])
    return X, A, f, masker


def _with_x(f, masker, X, keep, batch_size, rngs, raw=False):
    """``(f(x), v_x(S))`` for the coalitions ``keep`` (n, m, d), from
    :meth:`~sklearn_xai.masking.BaseMasker.evaluate`: every block of rows is
    evaluated in one model call, ``X`` included, and the class of
    ``target="predicted"`` is read from that call.  With ``raw=True`` the
    full scores (n[, n_classes]) and (n, m[, n_classes])."""
    return masker.evaluate(f, X, keep, target_index=f.fixed_target_index(X),
                           batch_size=batch_size, rngs=rngs, include_x=True, raw=raw)


_CALLS_PER_BLOCK = 8


def _with_x_blocks(f, masker, X, n_coalitions, keep_of, batch_size, rngs):
    """``(f(x), v_x(S))`` as :func:`_with_x`, block by block of rows.

    ``keep_of(sl)`` builds the coalitions (c, n_coalitions, d) of the rows
    ``sl`` only: a block is 8 model calls
    (:func:`~sklearn_xai.utils._output.block_slices`, about 2**17 input
    entries or ``batch_size`` model rows each), so the coalitions, their
    model inputs and the metric's per-coalition arrays hold one block
    (about 8 MiB of float64 by default) whatever the number of rows.  The class of each row and whether the model is affine
    are decided once, for all rows; a row's values do not depend on its
    block.
    """
    n, d = X.shape
    t = f.fixed_target_index(X)
    g = affine_once(f, X)
    fx, values = np.empty(n), np.empty((n, n_coalitions))
    # Blocks of _CALLS_PER_BLOCK model calls: fewer blocks to build, the
    # model calls those of one pass over all rows.
    call = block_slices(n, n_coalitions + 1, d, batch_size, f.device)[0]
    # On an accelerator one call is already as large as memory allows.
    calls = _CALLS_PER_BLOCK if f.device is None or f.device.type == "cpu" else 1
    step = calls * max(1, call.stop - call.start) if n else 1
    for start in range(0, n, step):
        sl = slice(start, start + step)
        fx[sl], values[sl] = masker.evaluate(
            g, X[sl], keep_of(sl), target_index=None if t is None else t[sl],
            batch_size=batch_size, rngs=None if rngs is None else rngs[sl],
            include_x=True)
    return fx, values


def _check_distribution(distribution, n_features):
    if not isinstance(distribution, BaseDistribution):
        raise TypeError(
            "distribution must be a sklearn_xai.distributions distribution "
            "(MultivariateGaussian or GaussianMixture, e.g. the 'distribution' of a "
            f"generator's Bunch); got {type(distribution).__name__}."
        )
    if distribution.n_features != n_features:
        raise ValueError(
            f"distribution has {distribution.n_features} features but X has "
            f"{n_features}; pass the distribution of these features."
        )


def _value_masker(X, distribution, masker, value, n_draws, random_state, X_train,
                  *, exact_marginal=False):
    """The fitted masker giving ``v_x(S)`` (exactly one of distribution / masker).

    ``masker`` is used as is when fitted, fitted on ``X_train`` otherwise
    (never on the scored rows ``X``; without ``X_train`` only a masker that
    learns nothing from data is accepted).  ``distribution`` is a shorthand
    for ``ConditionalMasker(distribution, n_draws)``; with
    ``value="interventional"`` the removed features take the values of
    ``n_draws`` rows drawn from the distribution (a ``MarginalMasker``), or,
    with ``exact_marginal`` (the Shapley reference), fresh marginal draws per
    row (``ConditionalMasker(..., value="interventional")``).
    """
    if (distribution is None) == (masker is None):
        raise ValueError(
            "Pass exactly one of distribution= (the data distribution, e.g. "
            "bunch.distribution; observational or interventional values) or "
            "masker= (any sklearn_xai masker, fitted on training rows)."
        )
    d = X.shape[1]
    # The draws of one coalition of one row: the model rows of one value.
    if masker is not None:
        draws = getattr(masker, "n_draws", None)
        if isinstance(draws, numbers.Integral):
            check_allocation(draws * d, what="the draws of one coalition of one "
                             "row", parameter="the masker's n_draws", value=draws)
        return check_masker(masker, X_train, n_features=d)
    _check_distribution(distribution, d)
    check_allocation(n_draws * d, what="the draws of one coalition of one row",
                     parameter="n_draws", value=n_draws)
    if value == "observational" or exact_marginal:
        masker = ConditionalMasker(distribution, n_draws, value=value)
    else:
        background = distribution.sample(n_draws,
                                         random_state=purpose_generator(random_state, 1))
        masker = MarginalMasker(background=background)
    return check_masker(masker, n_features=d)


def _value_inputs(estimator, X, attributions, target, output, batch_size):
    """Validated rows and attributions, and the explained output (affine
    when the regressor is)."""
    X, A = _check_inputs(X, attributions)
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    return X, A, affine_output(f, estimator, X)


def _values_with_x(f, X, keep, masker, random_state, batch_size):
    """``(f(x), v_x(S))``: one pass over the rows and their coalitions, with
    one random stream per row (keyed by the row)."""
    rngs = _masker_streams(masker, X, random_state)
    return _with_x(f, masker, X, keep, batch_size, rngs)


# ------------------------------------------- explainers and refitted models
# Shared by families that re-explain rows (sensitivity, stability,
# axiomatic) or refit the model (retraining, randomisation).
def _check_explainer(explainer):
    """``explainer`` if it can re-explain rows, else a TypeError."""
    if explainer is None or not hasattr(explainer, "explain"):
        raise TypeError(
            "This metric re-explains rows: pass explainer=<a "
            "fitted sklearn_xai explainer> (it needs an explain(X, target=..., "
            f"row_keys=...) method); got {type(explainer).__name__}."
        )
    return explainer


def _class_labels(f, t):
    """Class labels of the explained classes (None for regression)."""
    if t is None:
        return None
    return np.asarray(f.estimator.classes_)[t]


def _explained_at(f, X):
    """The explained class of each row and ``f(x)``, from one model pass."""
    scores = f.scores(X)
    t = f.fixed_target_index(X)
    if t is None and f.output != "predict":
        t = scores.argmax(axis=1).astype(np.intp)
    return t, f.select(scores, t)


def _refit(estimator, X_train, y_train, random_state):
    """``clone(estimator)`` refitted (a FrozenEstimator's inner model is cloned).

    An estimator whose ``random_state`` is None is seeded from the metric's
    ``random_state`` so that refits are reproducible.
    """
    model = clone(unfreeze(estimator))
    params = model.get_params(deep=False)
    if "random_state" in params and params["random_state"] is None \
            and random_state is not None:
        model.set_params(random_state=int(purpose_generator(random_state, 2).integers(2**31)))
    return model.fit(X_train, y_train)


# The rows and targets a fitted explainer of this package was fitted on
# (set by BaseExplainer.fit, kept by reference).
_FIT_DATA = "_sklearn_xai_fit_data"


def _refittable(explainer):
    """The explainer to clone for another model: ``explainer`` itself when it
    takes an ``estimator`` parameter, else the fitted explainer it wraps
    (``explainer_``: an :class:`~sklearn_xai.compose.ExplainedModel`, which
    takes a ``model`` instead), recognised by protocol."""
    seen = explainer
    while True:
        params = seen.get_params(deep=False) if hasattr(seen, "get_params") else {}
        if "estimator" in params:
            return seen
        inner = getattr(seen, "explainer_", None)
        if inner is None:
            raise TypeError(
                "This metric explains each randomised or refitted model with a "
                "fresh clone of the explainer, clone(explainer).set_params("
                "estimator=FrozenEstimator(model)); "
                f"{type(explainer).__name__} has no estimator parameter. Pass a "
                "sklearn_xai explainer (or an ExplainedModel) as explainer=."
            )
        seen = inner


def _fit_data(explainer):
    """(X, y) the fitted explainer (or the explainer it wraps) was fitted on,
    or None when it does not keep them (an explainer outside this package)."""
    seen = explainer
    while seen is not None:
        data = getattr(seen, _FIT_DATA, None)
        if data is not None:
            return data
        seen = getattr(seen, "explainer_", None)
    return None


def _explainer_on(explainer, model, X_train, y_train=None, *, name="The check"):
    """A fresh clone of the explainer explaining ``model`` instead of its own.

    ``clone(explainer).set_params(estimator=FrozenEstimator(model))`` fitted
    on ``(X_train, y_train)`` when ``X_train`` is given, else on the rows and
    targets the explainer was fitted on: whatever it learnt from the model
    at fit (a surrogate, tree paths, LRP rules, patterns) is learnt again
    from ``model``, and whatever it learnt from data alone is learnt again
    from the same data (equal, for a deterministic fit).  A model-ignorant
    explainer fitted without a model (the random control) is returned as is.
    """
    if all(getattr(explainer, attr, None) is None
           for attr in ("explained_estimator_", "estimator_")):
        return explainer  # model-ignorant: nothing to point elsewhere
    target = _refittable(explainer)
    if X_train is None:
        data = _fit_data(explainer)
        if data is None:
            raise ValueError(
                f"{name} fits a fresh clone of the explainer to each randomised "
                f"or refitted model, but {type(explainer).__name__} does not keep the rows it "
                "was fitted on: pass them as X_train=... (and y_train=... if its "
                "fit needs targets)."
            )
        X_train, y_train = data
    frozen = model if is_frozen(model) else FrozenEstimator(model)
    return clone(target).set_params(estimator=frozen).fit(X_train, y_train)


def _masker_streams(masker, X, random_state):
    """The rows' random streams a masker draws from: ``None`` for a
    deterministic masker, else :class:`~sklearn_xai.utils.RowStreams` keyed
    on the rows of ``X``."""
    return None if masker.is_deterministic else keyed_streams(X, random_state)
