"""XAI-Bench's metrics: faithfulness, monotonicity, their ROAR variants and
agreement with the exact Shapley values of the trained model (definitions in
the user guide: :ref:`def-faith`, :ref:`def-mono`, :ref:`def-roar` and
:ref:`def-shapley-metrics`).

Every metric reads the value function ``v_x(S)`` (expected model output when
only the features ``S`` of ``x`` are known) from a masker: observational
``E[f(X) | X_S = x_S]`` through :class:`~sklearn_xai.masking.ConditionalMasker`
on a known distribution (XAI-Bench's choice), interventional through a
:class:`~sklearn_xai.masking.MarginalMasker` whose background is drawn from
the distribution, or any masker passed explicitly.  All coalitions of all rows
are evaluated in one batched :meth:`~sklearn_xai.masking.BaseMasker.evaluate`
call (conditional draws shared by a row's coalitions).  When the model is an
affine regressor the observational values are computed in closed form.

Defaults follow XAI-Bench's paper where its code differs, with the code's
behaviour as named options (:ref:`def-switches-xaibench`): ``use_abs``,
``empty_value="explained_mean"``, ``xai_bench_index_bug``,
``xai_bench_roar_bugs``, ``xai_bench_efficiency``, ``reduction="mean"``.
"""

import hashlib
import numbers
import pickle
import weakref
from collections import OrderedDict

import numpy as np
from sklearn.base import clone

from sklearn_xai.datasets import exact_shapley_values
from sklearn_xai.distributions import BaseDistribution
from sklearn_xai.masking import ConditionalMasker, MarginalMasker, check_masker
from sklearn_xai.metrics._common import _BASE_PARAMS
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._estimators import unfreeze
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import keyed_generators, seed_entropy
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    validate_params,
)
from sklearn_xai.utils._stats import row_pearson
from sklearn_xai.utils._validation import check_attributions, magnitude_order, positions

__all__ = [
    "faith_minus",
    "faith_plus",
    "mono_minus",
    "mono_plus",
    "roar_faith_minus",
    "roar_faith_plus",
    "roar_mono_minus",
    "roar_mono_plus",
    "shapley_corr",
    "shapley_mse",
    "exact_shapley_reference",
]


# ----------------------------------------------------------------- the model
class _AffineOutput:
    """An explained output known to be ``f(z) = z @ coef_ + intercept_``.

    Exposes ``coef_`` / ``intercept_`` (and no ``fit``), which the
    distribution maskers and :func:`exact_shapley_values` recognise to compute
    expectations in closed form; calls are delegated to the wrapped output.
    """

    def __init__(self, f, coef, intercept):
        self.f = f
        self.coef_ = coef
        self.intercept_ = intercept
        self.output = f.output

    def __call__(self, Z, target_index=None):
        return self.f(Z, target_index)

    @property
    def n_evaluations(self):
        return self.f.n_evaluations


def _maybe_affine(f, estimator, X, fx):
    """Wrap ``f`` as :class:`_AffineOutput` when the regressor is affine.

    A model with a single coefficient vector counts as affine only when its
    predictions equal ``X @ coef_ + intercept_`` on the explained rows and on
    a shifted, rescaled copy of them (GLMs with a non-identity link fail).
    """
    if f.output != "predict":
        return f
    model = unfreeze(estimator)
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    if coef is None or intercept is None:
        return f
    w = np.asarray(coef, dtype=np.float64).ravel()
    c = np.asarray(intercept, dtype=np.float64).ravel()
    if w.shape != (X.shape[1],) or c.size != 1 or not np.all(np.isfinite(w)):
        return f
    c = float(c[0])
    probe = 0.5 * X[: min(len(X), 16)] + 1.0
    predicted = np.concatenate([fx, f(probe)])
    linear = np.concatenate([X @ w + c, probe @ w + c])
    scale = max(1.0, float(np.max(np.abs(linear))))
    if np.allclose(predicted, linear, rtol=0.0, atol=1e-9 * scale):
        return _AffineOutput(f, w, c)
    return f


def _raise_non_finite(X):
    """Say which non-finite values ``X`` holds, how many, where, and the fix."""
    n_nan = int(np.isnan(X).sum())
    n_inf = int(np.isinf(X).sum())
    parts = [f"{n} {kind} value{'s' if n > 1 else ''}"
             for n, kind in ((n_nan, "NaN"), (n_inf, "infinite")) if n]
    rows = np.flatnonzero(~np.isfinite(X).all(axis=1))
    shown = rows[:10].tolist()
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    raise ValueError(
        f"X contains {' and '.join(parts)} (rows {shown}{more}); the metric "
        "evaluates the model on these rows and needs finite features. Impute "
        "missing values first (e.g. sklearn.impute.SimpleImputer, fitted on "
        "the training rows) or drop those rows, and clip or drop infinite values."
    )


def _prepare(estimator, X, attributions, target, output, batch_size):
    """Validated rows, attributions, explained output, classes and f(X)."""
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    X = np.array(X, dtype=np.float64, copy=True)
    if X.ndim != 2:
        raise ValueError(
            f"X must be 2-D, one row per explained sample; got shape {X.shape}. "
            "Pass a single row as X.reshape(1, -1)."
        )
    if not np.all(np.isfinite(X)):
        _raise_non_finite(X)
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    t = f.target_index(X)
    fx = f(X, t)
    return X, A, _maybe_affine(f, estimator, X, fx), t, fx


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


def _sub_seed(random_state, stream):
    """A generator for one named purpose, derived from ``random_state``."""
    return np.random.default_rng([seed_entropy(random_state), stream])


def _value_masker(X, distribution, masker, value, n_samples, random_state, X_train,
                  *, exact_marginal=False):
    """The fitted masker giving ``v_x(S)`` (exactly one of distribution / masker).

    ``masker`` is used as is when fitted, fitted on ``X_train`` otherwise
    (never on the scored rows ``X``; without ``X_train`` only a masker that
    learns nothing from data is accepted).  ``distribution`` is a shorthand
    for ``ConditionalMasker(distribution, n_samples)``; with
    ``value="interventional"`` the removed features take the values of
    ``n_samples`` rows drawn from the distribution (a ``MarginalMasker``), or,
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
    if masker is not None:
        return check_masker(masker, X_train, n_features=d)
    _check_distribution(distribution, d)
    if value == "observational" or exact_marginal:
        masker = ConditionalMasker(distribution, n_samples=n_samples, value=value)
    else:
        background = distribution.sample(n_samples,
                                         random_state=_sub_seed(random_state, 1))
        masker = MarginalMasker(background=background)
    return check_masker(masker, n_features=d)


def _values(f, X, keep, t, masker, batch_size, random_state):
    """``masker.evaluate`` with one random stream per row (keyed by the row)."""
    rngs = None
    if not masker.is_deterministic:
        rngs = keyed_generators(X, random_state)
    return masker.evaluate(f, X, keep, target_index=t, batch_size=batch_size,
                           rngs=rngs)


# ------------------------------------------------------------ faith and mono
def _faith(estimator, X, attributions, *, add, distribution, masker, value,
           n_samples, use_abs, empty_value, nan_policy, random_state, target,
           output, batch_size, X_train=None):
    X, A, f, t, fx = _prepare(estimator, X, attributions, target, output, batch_size)
    vm = _value_masker(X, distribution, masker, value, n_samples, random_state,
                       X_train)
    d = X.shape[1]
    eye = np.eye(d, dtype=bool)
    if add:
        with_empty = empty_value == "expected"
        keep = np.vstack([np.zeros((1, d), dtype=bool), eye]) if with_empty else eye
        V = _values(f, X, keep, t, vm, batch_size, random_state)
        v0 = V[:, 0] if with_empty else np.full(len(X), fx.mean())
        delta = np.abs(V[:, -d:] - v0[:, None])
    else:
        V = _values(f, X, ~eye, t, vm, batch_size, random_state)
        delta = np.abs(V - fx[:, None])
    weights = np.abs(A) if use_abs else A
    return row_pearson(delta, weights, nan_policy=nan_policy,
                       what="faith_plus" if add else "faith_minus")


def _importance_order(A, ascending):
    """Feature order by |a|: ascending (least important first) or descending.

    Ties are broken by the lower column index in both directions.
    """
    if ascending:
        return np.argsort(np.abs(A), axis=1, kind="stable")
    return magnitude_order(A)


def _monotone_fraction(v, ascending, avg):
    """Score a curve ``v`` (n, d+1) of values after adding 0..d features."""
    deltas = np.abs(np.diff(v, axis=1))
    if ascending:
        ok = deltas[:, :-1] <= deltas[:, 1:]
    else:
        ok = deltas[:, :-1] >= deltas[:, 1:]
    return ok.mean(axis=1) if avg else ok.all(axis=1).astype(np.float64)


def _mono(estimator, X, attributions, *, ascending, distribution, masker, value,
          n_samples, empty_value, avg, xai_bench_index_bug, random_state, target,
          output, batch_size, X_train=None):
    X, A, f, t, fx = _prepare(estimator, X, attributions, target, output, batch_size)
    n, d = X.shape
    if d < 2:
        raise ValueError("Monotonicity needs at least 2 features.")
    vm = _value_masker(X, distribution, masker, value, n_samples, random_state,
                       X_train)
    pos = positions(_importance_order(A, ascending))
    # Coalition t (t = 1..d-1) keeps the first t features of the order.
    keep = pos[:, None, :] < np.arange(1, d)[None, :, None]
    with_empty = empty_value == "expected"
    if with_empty:
        keep = np.concatenate([np.zeros((n, 1, d), dtype=bool), keep], axis=1)
    V = _values(f, X, keep, t, vm, batch_size, random_state)
    v0 = V[:, 0] if with_empty else np.full(n, fx.mean())
    v = np.column_stack([v0, V[:, -(d - 1):], fx])
    if xai_bench_index_bug:
        # XAI-Bench stores the value after adding feature j at position j + 1.
        v = np.column_stack([v[:, 0], np.take_along_axis(v[:, 1:], pos, axis=1)])
    return _monotone_fraction(v, ascending, avg)


# ----------------------------------------------------------------------- ROAR
def _conditional_mean_imputer(distribution, masker, value, random_state):
    """``impute(Z, keep) -> rows``: kept features as is, the others replaced by
    their conditional mean given the kept ones (exact for a distribution; the
    mean of the masker's imputations otherwise)."""
    if distribution is not None:
        if value == "interventional":
            mean = np.asarray(distribution.mean, dtype=np.float64)
            return lambda Z, keep: np.where(keep, Z, mean)

        def impute(Z, keep):
            out = Z.copy()
            uniq, inverse = np.unique(keep, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            for k, mask in enumerate(uniq):
                rows = np.flatnonzero(inverse == k)
                if not mask.all():
                    out[rows] = distribution.conditional_mean(Z[rows], mask)
            return out

        return impute

    def impute_with_masker(Z, keep):
        if masker.is_deterministic:
            # The exact (weighted) mean of the masker's imputations.
            return masker.expected_rows(Z, keep[:, None, :])[:, 0]
        rngs = keyed_generators(Z, random_state)
        return masker.impute(Z, keep[:, None, :], rngs=rngs)[:, 0].mean(axis=1)

    return impute_with_masker


# explainer -> ((fit id, X_train digest), attributions); weak so that fitted
# explainers are not kept alive.  Several ROAR scorers of one search share it.
_TRAIN_ATTRIBUTION_CACHE = weakref.WeakKeyDictionary()


def _training_attributions(X_train, y_train, attributions_train, explainer, name):
    """``attributions_train``, or ``explainer.explain(X_train)`` (memoised per
    fitted explainer and training set), with errors naming what to bind."""
    missing = [k for k, v in (("X_train", X_train), ("y_train", y_train)) if v is None]
    if missing:
        args = ", ".join(f"{k}=..." for k in missing)
        raise ValueError(
            f"{name} retrains the model and needs its training data: pass {args} "
            f"(in a search, bind them to the scorer: get_scorer({name!r}, "
            "X_train=X_train, y_train=y_train, distribution=...))."
        )
    if attributions_train is not None:
        return attributions_train
    if explainer is None:
        raise ValueError(
            f"{name} removes each training row's features in its own order: pass "
            "attributions_train= (the explainer's attributions of X_train) or "
            "explainer= (a fitted explainer; its scorer passes it automatically)."
        )
    fit_id = getattr(explainer, "_sklearn_xai_fit_id", None)
    key = (fit_id, _digest(np.asarray(
        X_train.to_numpy() if hasattr(X_train, "to_numpy") else X_train)))
    try:
        cached = _TRAIN_ATTRIBUTION_CACHE.get(explainer)
    except TypeError:  # unhashable explainer
        cached = None
    if fit_id is not None and cached is not None and cached[0] == key:
        return cached[1]
    A_train = np.asarray(explainer.explain(X_train), dtype=np.float64)
    A_train.setflags(write=False)
    if fit_id is not None:
        try:
            _TRAIN_ATTRIBUTION_CACHE[explainer] = (key, A_train)
        except TypeError:
            pass
    return A_train


def _check_roar_inputs(X, X_train, y_train, attributions_train, distribution, masker):
    if hasattr(X_train, "to_numpy"):
        X_train = X_train.to_numpy()
    X_train = np.array(X_train, dtype=np.float64, copy=True)
    if X_train.ndim != 2 or X_train.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_train must have shape (n_train, {X.shape[1]}) like X; got "
            f"{X_train.shape}."
        )
    y_train = np.asarray(y_train.to_numpy() if hasattr(y_train, "to_numpy") else y_train)
    if y_train.shape[0] != X_train.shape[0]:
        raise ValueError(
            f"y_train has {y_train.shape[0]} entries but X_train has "
            f"{X_train.shape[0]} rows."
        )
    A_train = check_attributions(attributions_train, n_samples=X_train.shape[0],
                                 n_features=X.shape[1], name="attributions_train")
    if (distribution is None) == (masker is None):
        raise ValueError(
            "Pass exactly one of distribution= (exact conditional-mean imputation) "
            "or masker= (imputation by the mean of the masker's draws)."
        )
    if distribution is not None:
        _check_distribution(distribution, X.shape[1])
    else:
        masker = check_masker(masker, X_train, n_features=X.shape[1])
    return X_train, y_train, A_train, masker


def _refit(estimator, X_train, y_train, random_state):
    """``clone(estimator)`` refitted (a FrozenEstimator's inner model is cloned).

    An estimator whose ``random_state`` is None is seeded from the metric's
    ``random_state`` so that refits are reproducible.
    """
    model = clone(unfreeze(estimator))
    params = model.get_params(deep=False)
    if "random_state" in params and params["random_state"] is None \
            and random_state is not None:
        model.set_params(random_state=int(_sub_seed(random_state, 2).integers(2**31)))
    return model.fit(X_train, y_train)


def _roar_curves(estimator, X, attributions, *, X_train, y_train, attributions_train,
                 coalitions, distribution, masker, value, random_state, target,
                 output, batch_size, with_empty=False):
    """Retrain once per step and evaluate the explained rows.

    ``coalitions = (keep_x, keep_train, n_steps)``: ``keep_x(step)`` and
    ``keep_train(step)`` give the kept features of every explained and
    training row at one step (the others are imputed).  Returns the
    predictions (n, n_steps) of each step's refitted model on the imputed
    explained rows, and, with ``with_empty``, its predictions on the fully
    imputed rows (nothing kept), plus the prepared inputs.
    """
    X, A, f, t, fx = _prepare(estimator, X, attributions, target, output, batch_size)
    X_train, y_train, A_train, masker = _check_roar_inputs(
        X, X_train, y_train, attributions_train, distribution, masker
    )
    impute = _conditional_mean_imputer(distribution, masker, value, random_state)
    keep_x, keep_train, n_steps = coalitions
    n = X.shape[0]
    out = np.empty((n, n_steps))
    empty = np.empty((n, n_steps))
    X_empty = impute(X, np.zeros(X.shape, dtype=bool)) if with_empty else None
    for step in range(n_steps):
        model = _refit(estimator, impute(X_train, keep_train(step)), y_train,
                       random_state)
        g = ExplainedOutput(model, target=target, output=output, batch_size=batch_size)
        Z = impute(X, keep_x(step))
        if with_empty:
            vals = g(np.vstack([Z, X_empty]), np.concatenate([t, t]) if t is not None
                     else None)
            out[:, step], empty[:, step] = vals[:n], vals[n:]
        else:
            out[:, step] = g(Z, t)
    return X, A, A_train, fx, out, empty


def _roar_faith(estimator, X, attributions, *, add, X_train, y_train,
                attributions_train, explainer, distribution, masker, value, use_abs,
                empty_value, xai_bench_roar_bugs, nan_policy, random_state, target,
                output, batch_size):
    name = "roar_faith_plus" if add else "roar_faith_minus"
    attributions_train = _training_attributions(X_train, y_train, attributions_train,
                                                explainer, name)
    A = check_attributions(attributions)
    A_tr = check_attributions(attributions_train, name="attributions_train")
    order_x, order_tr = magnitude_order(A), magnitude_order(A_tr)
    d = A.shape[1]

    def rule(order):
        # Step r: remove (faith-) or keep only (faith+) each row's r-th feature.
        def keep(r):
            sel = np.zeros(order.shape, dtype=bool)
            sel[np.arange(len(order)), order[:, r]] = True
            return sel if add else ~sel
        return keep

    with_empty = add and empty_value == "expected"
    X, A, A_train, fx, pred, empty = _roar_curves(
        estimator, X, A, X_train=X_train, y_train=y_train, attributions_train=A_tr,
        coalitions=(rule(order_x), rule(order_tr), d), distribution=distribution,
        masker=masker, value=value, random_state=random_state, target=target,
        output=output, batch_size=batch_size, with_empty=with_empty,
    )
    if add:
        ref = empty if with_empty else np.full((len(X), 1), fx.mean())
        delta = np.abs(pred - ref)
    else:
        delta = np.abs(fx[:, None] - pred)
    if xai_bench_roar_bugs:
        n = len(X)
        if A_train.shape[0] < n:
            raise ValueError(
                "xai_bench_roar_bugs=True reads the attributions of the first "
                f"n_explained={n} training rows; X_train has only {A_train.shape[0]}."
            )
        weights = A_train[:n]  # training rows, in feature order (XAI-Bench)
    else:
        weights = np.take_along_axis(A, order_x, axis=1)  # rank order, like delta
    weights = np.abs(weights) if use_abs else weights
    return row_pearson(delta, weights, nan_policy=nan_policy, what=name)


def _roar_mono(estimator, X, attributions, *, ascending, X_train, y_train,
               attributions_train, explainer, distribution, masker, value, avg,
               random_state, target, output, batch_size):
    attributions_train = _training_attributions(
        X_train, y_train, attributions_train, explainer,
        "roar_mono_minus" if ascending else "roar_mono_plus")
    A = check_attributions(attributions)
    A_tr = check_attributions(attributions_train, name="attributions_train")
    d = A.shape[1]
    if d < 2:
        raise ValueError("Monotonicity needs at least 2 features.")
    pos_x = positions(_importance_order(A, ascending))
    pos_tr = positions(_importance_order(A_tr, ascending))
    *_, pred, _ = _roar_curves(
        estimator, X, A, X_train=X_train, y_train=y_train, attributions_train=A_tr,
        coalitions=(lambda t: pos_x < t, lambda t: pos_tr < t, d + 1),
        distribution=distribution, masker=masker, value=value,
        random_state=random_state, target=target, output=output,
        batch_size=batch_size,
    )
    return _monotone_fraction(pred, ascending, avg)


# -------------------------------------------------------------------- Shapley
_REFERENCE_CACHE = OrderedDict()
_REFERENCE_CACHE_SIZE = 4


def _digest(*arrays):
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes() if isinstance(a, np.ndarray)
                 else pickle.dumps(a))
    return h.hexdigest()


def _masker_state(masker):
    """What determines a fitted masker's value function: its class and its
    public (fitted) attributes, without private caches."""
    return (type(masker).__qualname__,
            {k: v for k, v in vars(masker).items() if not k.startswith("_")})


def _shapley_values(f, X, t, fx, masker, xai_bench_efficiency, random_state,
                    batch_size):
    """Exact Shapley values of the explained output, memoised when reproducible."""
    cacheable = isinstance(random_state, numbers.Integral) or isinstance(
        f, _AffineOutput
    )
    key = None
    if cacheable:
        key = _digest(X, fx, t, _masker_state(masker), xai_bench_efficiency,
                      random_state if isinstance(random_state, numbers.Integral)
                      else None, type(f).__name__)
        if key in _REFERENCE_CACHE:
            _REFERENCE_CACHE.move_to_end(key)
            return _REFERENCE_CACHE[key].copy()
    phi = exact_shapley_values(
        f, X, masker=masker, target_index=t,
        xai_bench_efficiency=xai_bench_efficiency, random_state=random_state,
        batch_size=batch_size or 65536,
    ).attributions
    if key is not None:
        _REFERENCE_CACHE[key] = phi.copy()
        if len(_REFERENCE_CACHE) > _REFERENCE_CACHE_SIZE:
            _REFERENCE_CACHE.popitem(last=False)
    return phi


def _reference(estimator, X, attributions, *, reference, distribution, masker,
               value, n_samples, xai_bench_efficiency, random_state, target,
               output, batch_size, X_train=None):
    X, A, f, t, fx = _prepare(estimator, X, attributions, target, output, batch_size)
    if reference is not None:
        R = check_attributions(reference, n_samples=X.shape[0], n_features=X.shape[1],
                               name="reference")
        return A, R
    vm = _value_masker(X, distribution, masker, value, n_samples, random_state,
                       X_train, exact_marginal=True)
    return A, _shapley_values(f, X, t, fx, vm, xai_bench_efficiency, random_state,
                              batch_size)


# ------------------------------------------------------------ public metrics
_MODEL = {
    **_BASE_PARAMS,
    "distribution": [None, object],
    "masker": [None, object],
    "X_train": ["array-like", None],
    "value": [StrOptions({"observational", "interventional"})],
    "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
}
_NAN = {"nan_policy": [StrOptions({"omit", "zero", "raise"})]}
_FAITH = {**_MODEL, **_NAN, "use_abs": ["boolean"],
          "empty_value": [StrOptions({"expected", "explained_mean"})]}
_MONO = {**_MODEL, "empty_value": [StrOptions({"expected", "explained_mean"})],
         "avg": ["boolean"], "xai_bench_index_bug": ["boolean"]}
_ROAR = {
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "attributions_train": ["array-like", None],
    "explainer": [HasMethods(["explain"]), None],
}
_ROAR_FAITH = {**{k: v for k, v in _FAITH.items() if k != "n_samples"}, **_ROAR,
               "xai_bench_roar_bugs": ["boolean"]}
_ROAR_MONO = {**{k: v for k, v in _MODEL.items() if k != "n_samples"}, **_ROAR,
              "avg": ["boolean"]}
_SHAPLEY = {**_MODEL, "reference": ["array-like", None],
            "xai_bench_efficiency": ["boolean"]}

_DOC_MODEL = """    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    attributions : array-like of shape (n_samples, n_features)
        Their explanations."""
_DOC_VALUE = """    distribution : MultivariateGaussian or GaussianMixture, default=None
        The data distribution (e.g. ``bunch.distribution``), a shorthand for
        ``masker=ConditionalMasker(distribution, n_samples)``.  Exactly one
        of ``distribution`` and ``masker`` is required.
    masker : masker, default=None
        Any :mod:`sklearn_xai.masking` masker defining ``v_x(S)``.  A fitted
        masker is used as is; an unfitted one is fitted on ``X_train``, never
        on ``X`` (a row's score would depend on the other rows).
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  Without them an
        unfitted masker that learns from data (``BaselineMasker("mean")``,
        ``MarginalMasker(100)``, ...) raises a ``ValueError``; one that does
        not (``BaselineMasker("zero")``, a given background) is used as is.
    value : {"observational", "interventional"}, default="observational"
        With ``distribution``: ``E[f(X) | X_S = x_S]`` through a
        :class:`~sklearn_xai.masking.ConditionalMasker` (XAI-Bench; closed
        form for affine regressors), or ``E_Z[f(x_S ⊕ Z_U)]`` with a
        background of ``n_samples`` rows drawn from the distribution.
        Ignored when ``masker`` is given.
    n_samples : int, default=100
        Draws per row and coalition (XAI-Bench: 100)."""
_DOC_COMMON = """    random_state : int, RandomState, Generator or None, default=None
        Seeds the draws; each row has its own stream keyed by its values, so
        scores do not depend on batch size or row order.
    target : "predicted", int, label or array-like, default="predicted"
        Explained class (see :class:`sklearn_xai.utils.ExplainedOutput`).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum model rows per call."""
_DOC_FAITH = """    use_abs : bool, default=True
        Correlate the output changes (magnitudes) with ``|a|`` (XAI-Bench's
        code and tables).  ``False`` uses the signed attributions, the
        papers' literal formula, which penalises correct negative
        attributions.
    empty_value : {"expected", "explained_mean"}, default="expected"
        ``v_x(∅)``: the expected output ``E[f(X)]`` from the value function,
        or XAI-Bench's mean prediction over the explained rows."""
_DOC_NAN = """    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row whose output changes or attributions are constant has no
        correlation: NaN with a warning, 0 (XAI-Bench), or an error."""
_DOC_MONO = """    empty_value : {"expected", "explained_mean"}, default="expected"
        ``v_0 = v_x(∅)``: ``E[f(X)]`` from the value function, or
        XAI-Bench's mean prediction over the explained rows.
    avg : bool, default=True
        Fraction of the ``d - 1`` consecutive steps that satisfy the
        condition; ``False`` gives 1 only when all of them do.
    xai_bench_index_bug : bool, default=False
        Reproduce XAI-Bench's code, which stores the value after adding
        feature ``j`` at position ``j + 1`` of the curve (so the test runs in
        feature-index order).  Only for reproducing its tables."""
_DOC_ROAR = """    X_train : array-like of shape (n_train, n_features)
        Training rows the model is refitted on (imputed at each step), in the
        model's input space.  Required; in a search bind it to the scorer:
        ``get_scorer("roar_faith_minus", X_train=X_train, y_train=y_train,
        distribution=...)``.
    y_train : array-like of shape (n_train,)
        Their targets.  Required.
    attributions_train : array-like of shape (n_train, n_features), default=None
        The explainer's attributions of the training rows; each row's
        features are removed in its own order.  Computed as
        ``explainer.explain(X_train)`` when not given.
    explainer : fitted explainer, default=None
        Explains ``X_train`` when ``attributions_train`` is not given (its
        explanation scorer passes it; the attributions are memoised per fitted
        explainer and training set, so several ROAR scorers share them).
    distribution : MultivariateGaussian or GaussianMixture, default=None
        Removed features are replaced by their exact conditional mean given
        the kept ones (``value="observational"``) or by their mean
        (``"interventional"``).  Exactly one of ``distribution`` and
        ``masker`` is required.
    masker : masker, default=None
        Removed features are replaced by the mean of the masker's
        imputations.
    value : {"observational", "interventional"}, default="observational"
        See ``distribution``."""
_DOC_ROAR_COMMON = """    random_state : int, RandomState, Generator or None, default=None
        Seeds the refitted models whose own ``random_state`` is None (and a
        stochastic masker).
    target : "predicted", int, label or array-like, default="predicted"
        Explained class, fixed at the original model's prediction.
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum model rows per call."""
_DOC_SHAPLEY = """    distribution : MultivariateGaussian or GaussianMixture, default=None
        The data distribution (XAI-Bench's ground truth), a shorthand for
        ``masker=ConditionalMasker(distribution, n_samples, value=value)``.
        Exactly one of ``distribution`` and ``masker`` is required (unless
        ``reference`` is given).
    masker : masker, default=None
        Any :mod:`sklearn_xai.masking` masker: the value function of the
        reference Shapley values instead.  A fitted masker is used as is; an
        unfitted one is fitted on ``X_train``, never on ``X``.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  Without them an
        unfitted masker that learns from data (``BaselineMasker("mean")``,
        ``MarginalMasker(100)``, ...) raises a ``ValueError``; one that does
        not (``BaselineMasker("zero")``, a given background) is used as is.
    value : {"observational", "interventional"}, default="observational"
        Value function with ``distribution`` (exact marginal draws for
        ``"interventional"``).
    n_samples : int, default=1000
        Monte-Carlo draws per row and coalition of the reference (XAI-Bench
        used 20 000); unused for affine regressors (closed form).  In
        XAI-Bench's MLP setting 100 draws leave a reference error (0.002 in
        shapley-mse units) as large as good explainers' scores; 1000 leave
        0.0002."""
_DOC_REFERENCE = """    reference : array-like of shape (n_samples, n_features), default=None
        Precomputed reference Shapley values (see
        :func:`exact_shapley_reference`); skips their computation."""
_DOC_EFFICIENCY = """    xai_bench_efficiency : bool, default=False
        Reproduce XAI-Bench's reference, which adds ``v_x(∅) / d`` to every
        value (its least-squares solve has no intercept)."""


def _doc(func, *parts):
    func.__doc__ = func.__doc__.replace("{params}", "\n".join(parts))
    return func


@validate_params(_FAITH, prefer_skip_nested_validation=True)
def faith_minus(estimator, X, attributions, *, distribution=None, masker=None,
                X_train=None, value="observational", n_samples=100, use_abs=True,
                empty_value="expected", nan_policy="omit", random_state=None,
                target="predicted", output="auto", batch_size=None):
    """Faithfulness by removal (XAI-Bench faith−): does removing a feature
    change the output in proportion to its attribution?

    ``Δ_j = |v_x([d] \\ {j}) - f(x)|`` and ``faith− = Pearson(Δ, |a|)`` per
    row.  Costs ``d * n_samples`` model rows per row.  See :ref:`def-faith`
    in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row correlation in ``[-1, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import faith_minus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0])
    >>> shap = model.coef_ * (X[:2] - dist.mean)  # exact Shapley values
    >>> faith_minus(model, X[:2], shap, distribution=dist).round(6)
    array([1., 1.])
    """
    return _faith(estimator, X, attributions, add=False, distribution=distribution,
                  masker=masker, value=value, n_samples=n_samples, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


@validate_params(_FAITH, prefer_skip_nested_validation=True)
def faith_plus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_samples=100, use_abs=True,
               empty_value="expected", nan_policy="omit", random_state=None,
               target="predicted", output="auto", batch_size=None):
    """Faithfulness by addition (XAI-Bench faith+): does knowing only one
    feature move the output in proportion to its attribution?

    ``Δ_j = |v_x({j}) - v_x(∅)|`` and ``faith+ = Pearson(Δ, |a|)`` per row
    (see :ref:`def-faith` in the user guide).  Costs ``(d + 1) * n_samples``
    model rows per row.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row correlation in ``[-1, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import faith_plus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0])
    >>> shap = model.coef_ * (X[:2] - dist.mean)
    >>> faith_plus(model, X[:2], shap, distribution=dist).round(6)
    array([1., 1.])
    """
    return _faith(estimator, X, attributions, add=True, distribution=distribution,
                  masker=masker, value=value, n_samples=n_samples, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


@validate_params(_MONO, prefer_skip_nested_validation=True)
def mono_minus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_samples=100, empty_value="expected",
               avg=True, xai_bench_index_bug=False, random_state=None,
               target="predicted", output="auto", batch_size=None):
    """Monotonicity, least important first (XAI-Bench mono−).

    Features are added in *ascending* order of ``|a|``; with ``v_t`` the
    value after ``t`` features (``v_0 = v_x(∅)``, ``v_d = f(x)``) and
    ``δ_t = v_{t+1} - v_t``, the score is the fraction of steps with
    ``|δ_t| <= |δ_{t+1}|``: a faithful ranking makes each added feature
    matter more than the previous one.  Costs ``d * n_samples`` model rows
    per row.  See :ref:`def-mono` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]`` (about 0.5 for a random ranking);
        greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import mono_minus
    >>> dist = MultivariateGaussian.equicorrelated(4, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [4.0, -3.0, 2.0, 1.0])
    >>> shap = model.coef_ * (X[:3] - dist.mean)
    >>> mono_minus(model, X[:3], shap, distribution=dist)
    array([1., 1., 1.])
    """
    return _mono(estimator, X, attributions, ascending=True, distribution=distribution,
                 masker=masker, value=value, n_samples=n_samples,
                 empty_value=empty_value, avg=avg,
                 xai_bench_index_bug=xai_bench_index_bug, random_state=random_state,
                 target=target, output=output, batch_size=batch_size, X_train=X_train)


@validate_params(_MONO, prefer_skip_nested_validation=True)
def mono_plus(estimator, X, attributions, *, distribution=None, masker=None,
              X_train=None, value="observational", n_samples=100, empty_value="expected",
              avg=True, xai_bench_index_bug=False, random_state=None,
              target="predicted", output="auto", batch_size=None):
    """Monotonicity, most important first (XAI-Bench mono+).

    Features are added in *descending* order of ``|a|``; the score is the
    fraction of steps with ``|δ_t| >= |δ_{t+1}|`` (diminishing returns).
    Both XAI-Bench texts print "<=" here, which would reward a reversed
    ranking; its code, and this function, use ">=".  Costs
    ``d * n_samples`` model rows per row.  See :ref:`def-mono` in the user
    guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import mono_plus
    >>> dist = MultivariateGaussian.equicorrelated(4, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [4.0, -3.0, 2.0, 1.0])
    >>> shap = model.coef_ * (X[:3] - dist.mean)
    >>> mono_plus(model, X[:3], shap, distribution=dist)
    array([1., 1., 1.])
    """
    return _mono(estimator, X, attributions, ascending=False, distribution=distribution,
                 masker=masker, value=value, n_samples=n_samples,
                 empty_value=empty_value, avg=avg,
                 xai_bench_index_bug=xai_bench_index_bug, random_state=random_state,
                 target=target, output=output, batch_size=batch_size, X_train=X_train)


@validate_params(_ROAR_FAITH, prefer_skip_nested_validation=True)
def roar_faith_minus(estimator, X, attributions, *, X_train=None, y_train=None,
                     attributions_train=None, explainer=None, distribution=None,
                     masker=None, value="observational", use_abs=True, empty_value="expected",
                     xai_bench_roar_bugs=False, nan_policy="omit",
                     random_state=None, target="predicted", output="auto",
                     batch_size=None):
    """ROAR faithfulness by removal (XAI-Bench roar-faith−).

    For ``r = 1..d``: replace the ``r``-th most important feature of every
    training and explained row (by its own ``|a|``) with its conditional
    mean, refit ``clone(estimator)`` → ``f_r``;
    ``Δ_r(x) = |f(x) - f_r(x̄)|``; the score is
    ``Pearson_r(Δ_r(x), |a_{o_r(x)}|)``, both in rank order.  Costs ``d``
    refits per call.  See :ref:`def-roar` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row correlation in ``[-1, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.
    .. [2] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark
       for Interpretability Methods in Deep Neural Networks", NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar_faith_minus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(500, random_state=0)
    >>> y = X @ [3.0, -2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)  # exact Shapley values
    >>> scores = roar_faith_minus(model, X[:50], shap(X[:50]), X_train=X, y_train=y,
    ...                           attributions_train=shap(X), distribution=dist)
    >>> round(float(scores.mean()), 2)
    0.97
    """
    return _roar_faith(estimator, X, attributions, add=False, X_train=X_train,
                       y_train=y_train, attributions_train=attributions_train,
                       explainer=explainer, distribution=distribution, masker=masker,
                       value=value, use_abs=use_abs, empty_value=empty_value,
                       xai_bench_roar_bugs=xai_bench_roar_bugs, nan_policy=nan_policy,
                       random_state=random_state, target=target, output=output,
                       batch_size=batch_size)


@validate_params(_ROAR_FAITH, prefer_skip_nested_validation=True)
def roar_faith_plus(estimator, X, attributions, *, X_train=None, y_train=None,
                    attributions_train=None, explainer=None, distribution=None,
                    masker=None, value="observational", use_abs=True, empty_value="expected",
                    xai_bench_roar_bugs=False, nan_policy="omit", random_state=None,
                    target="predicted", output="auto", batch_size=None):
    """ROAR faithfulness by addition (XAI-Bench roar-faith+).

    For ``r = 1..d``: keep only the ``r``-th most important feature of every
    training and explained row, impute the rest with conditional means,
    refit → ``f_r``; ``Δ_r(x) = |f_r(x̄_{o_r}) - f_r(x̄_∅)|`` (the second
    term: the refitted model at the fully imputed row; XAI-Bench's code uses
    the original model's mean prediction, ``empty_value="explained_mean"``);
    score ``Pearson_r(Δ_r, |a_{o_r(x)}|)``.  Costs ``d`` refits.  See
    :ref:`def-roar` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row correlation in ``[-1, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.
    .. [2] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark
       for Interpretability Methods in Deep Neural Networks", NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar_faith_plus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(500, random_state=0)
    >>> y = X @ [3.0, -2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)  # exact Shapley values
    >>> scores = roar_faith_plus(model, X[:50], shap(X[:50]), X_train=X, y_train=y,
    ...                          attributions_train=shap(X), distribution=dist)
    >>> round(float(scores.mean()), 2)
    0.97
    """
    return _roar_faith(estimator, X, attributions, add=True, X_train=X_train,
                       y_train=y_train, attributions_train=attributions_train,
                       explainer=explainer, distribution=distribution, masker=masker,
                       value=value, use_abs=use_abs, empty_value=empty_value,
                       xai_bench_roar_bugs=xai_bench_roar_bugs, nan_policy=nan_policy,
                       random_state=random_state, target=target, output=output,
                       batch_size=batch_size)


@validate_params(_ROAR_MONO, prefer_skip_nested_validation=True)
def roar_mono_minus(estimator, X, attributions, *, X_train=None, y_train=None,
                    attributions_train=None, explainer=None, distribution=None,
                    masker=None, value="observational", avg=True, random_state=None,
                    target="predicted", output="auto", batch_size=None):
    """ROAR monotonicity, least important first (XAI-Bench roar-mono−).

    For ``t = 0..d``: keep the ``t`` least important features of every
    training and explained row, impute the rest with conditional means,
    refit → ``f_t``; ``v_t = f_t(x̄_{K_t})``, scored as :func:`mono_minus`
    (see :ref:`def-roar` in the user guide).  Costs ``d + 1`` refits.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.
    .. [2] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark
       for Interpretability Methods in Deep Neural Networks", NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar_mono_minus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(300, random_state=0)
    >>> y = X @ [3.0, -2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)
    >>> roar_mono_minus(model, X[:1], shap(X[:1]), X_train=X, y_train=y,
    ...                 attributions_train=shap(X), distribution=dist)
    array([1.])
    """
    return _roar_mono(estimator, X, attributions, ascending=True, X_train=X_train,
                      y_train=y_train, attributions_train=attributions_train,
                      explainer=explainer, distribution=distribution, masker=masker,
                      value=value, avg=avg,
                      random_state=random_state, target=target, output=output,
                      batch_size=batch_size)


@validate_params(_ROAR_MONO, prefer_skip_nested_validation=True)
def roar_mono_plus(estimator, X, attributions, *, X_train=None, y_train=None,
                   attributions_train=None, explainer=None, distribution=None,
                   masker=None, value="observational", avg=True, random_state=None,
                   target="predicted", output="auto", batch_size=None):
    """ROAR monotonicity, most important first (XAI-Bench roar-mono+).

    For ``t = 0..d``: keep the ``t`` most important features of every
    training and explained row, impute the rest, refit → ``f_t``;
    ``v_t = f_t(x̄_{K_t})``, scored as :func:`mono_plus`.  Costs ``d + 1``
    refits.  See :ref:`def-roar` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.
    .. [2] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark
       for Interpretability Methods in Deep Neural Networks", NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar_mono_plus
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(300, random_state=0)
    >>> y = X @ [3.0, -2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)
    >>> roar_mono_plus(model, X[:1], shap(X[:1]), X_train=X, y_train=y,
    ...                attributions_train=shap(X), distribution=dist)
    array([1.])
    """
    return _roar_mono(estimator, X, attributions, ascending=False, X_train=X_train,
                      y_train=y_train, attributions_train=attributions_train,
                      explainer=explainer, distribution=distribution, masker=masker,
                      value=value, avg=avg,
                      random_state=random_state, target=target, output=output,
                      batch_size=batch_size)


@validate_params(
    {k: v for k, v in _SHAPLEY.items() if k not in ("attributions", "reference")},
    prefer_skip_nested_validation=True,
)
def exact_shapley_reference(estimator, X, *, distribution=None, masker=None,
                            X_train=None, value="observational", n_samples=1000,
                            xai_bench_efficiency=False, random_state=None,
                            target="predicted", output="auto", batch_size=None):
    """Exact Shapley values of a trained model: the reference of
    :func:`shapley_corr` and :func:`shapley_mse`.

    Enumerates all ``2**d`` coalitions with
    :func:`sklearn_xai.datasets.exact_shapley_values` under the value
    function of ``distribution`` (or ``masker``); closed form for affine
    regressors.  Reproducible results (integer ``random_state``) are memoised
    for the last few (model predictions, rows, value function) so that
    scoring several metrics does not recompute them.  See :ref:`def-shapley`
    in the user guide.

    Parameters
    ----------
    estimator : fitted estimator
    X : array-like of shape (n_samples, n_features)
{params}

    Returns
    -------
    reference : ndarray of shape (n_samples, n_features)

    References
    ----------
    .. [1] L. S. Shapley, "A value for n-person games", in Contributions to
       the Theory of Games II, Annals of Mathematics Studies 28, 1953.
    .. [2] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import exact_shapley_reference
    >>> dist = MultivariateGaussian(mean=[1.0, 0.0], cov=np.eye(2))
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [2.0, -1.0])
    >>> exact_shapley_reference(model, [[2.0, 1.0]], distribution=dist).round(6)
    array([[ 2., -1.]])
    """
    X = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=np.float64)
    return _reference(estimator, X, np.zeros(np.shape(X)), reference=None,
                      distribution=distribution, masker=masker, value=value,
                      n_samples=n_samples, xai_bench_efficiency=xai_bench_efficiency,
                      random_state=random_state, target=target, output=output,
                      batch_size=batch_size, X_train=X_train)[1]


@validate_params({**_SHAPLEY, **_NAN}, prefer_skip_nested_validation=True)
def shapley_corr(estimator, X, attributions, *, distribution=None, masker=None,
                 X_train=None, value="observational", n_samples=1000, reference=None,
                 xai_bench_efficiency=False, nan_policy="omit", random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Correlation with the exact Shapley values of the model (XAI-Bench shapley-corr).

    ``Pearson(a, φ(x))`` per row, signed, with ``φ`` from
    :func:`exact_shapley_reference`.  Invariant to positive rescaling of the
    attributions and to ``f → f + c``.  Costs ``2**d * n_samples`` model rows
    per row (none for affine regressors).  See :ref:`def-shapley-metrics` in
    the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row correlation in ``[-1, 1]``; greater is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import shapley_corr
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0])
    >>> shap = model.coef_ * (X[:2] - dist.mean)  # exact Shapley values
    >>> shapley_corr(model, X[:2], 2.0 * shap, distribution=dist).round(6)
    array([1., 1.])
    >>> shapley_corr(model, X[:2], -shap, distribution=dist).round(6)
    array([-1., -1.])
    """
    A, R = _reference(estimator, X, attributions, reference=reference,
                      distribution=distribution, masker=masker, value=value,
                      n_samples=n_samples, xai_bench_efficiency=xai_bench_efficiency,
                      random_state=random_state, target=target, output=output,
                      batch_size=batch_size, X_train=X_train)
    return row_pearson(A, R, nan_policy=nan_policy, what="shapley_corr")


@validate_params(
    {**_SHAPLEY, "reduction": [StrOptions({"mean", "sum"})]},
    prefer_skip_nested_validation=True,
)
def shapley_mse(estimator, X, attributions, *, distribution=None, masker=None,
                X_train=None, value="observational", n_samples=1000, reference=None,
                reduction="mean", xai_bench_efficiency=False, random_state=None,
                target="predicted", output="auto", batch_size=None):
    """Squared error to the exact Shapley values of the model (XAI-Bench shapley-mse).

    ``(1/d) sum_j (a_j - φ_j(x))**2`` per row with ``reduction="mean"``
    (XAI-Bench's code and tables: a random N(0, 1) explanation scores about
    1.1), ``sum_j (a_j - φ_j(x))**2`` with ``"sum"`` (the paper's formula).
    Registered as the loss ``neg_shapley_mse``.  See
    :ref:`def-shapley-metrics` in the user guide.

    Parameters
    ----------
{params}
    reduction : {"mean", "sum"}, default="mean"
        Average or sum over the features.

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row squared error; lower is better.

    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import shapley_mse
    >>> dist = MultivariateGaussian.equicorrelated(2, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [2.0, -1.0])
    >>> shapley_mse(model, [[1.0, 1.0]], [[1.0, 0.0]], distribution=dist).round(6)
    array([1.])
    """
    A, R = _reference(estimator, X, attributions, reference=reference,
                      distribution=distribution, masker=masker, value=value,
                      n_samples=n_samples, xai_bench_efficiency=xai_bench_efficiency,
                      random_state=random_state, target=target, output=output,
                      batch_size=batch_size, X_train=X_train)
    sq = (A - R) ** 2
    return sq.mean(axis=1) if reduction == "mean" else sq.sum(axis=1)


_doc(faith_minus, _DOC_MODEL, _DOC_VALUE, _DOC_FAITH, _DOC_NAN, _DOC_COMMON)
_doc(faith_plus, _DOC_MODEL, _DOC_VALUE, _DOC_FAITH, _DOC_NAN, _DOC_COMMON)
_doc(mono_minus, _DOC_MODEL, _DOC_VALUE, _DOC_MONO, _DOC_COMMON)
_doc(mono_plus, _DOC_MODEL, _DOC_VALUE, _DOC_MONO, _DOC_COMMON)
_DOC_ROAR_FAITH = _DOC_FAITH.replace(
    "``v_x(∅)``: the expected output ``E[f(X)]`` from the value function,\n"
    "        or XAI-Bench's mean prediction over the explained rows.",
    "(faith+ only) the second term: the refitted model at the fully\n"
    "        imputed row, or XAI-Bench's mean prediction of the original model\n"
    "        over the explained rows.",
)
_DOC_ROAR_BUGS = """    xai_bench_roar_bugs : bool, default=False
        Reproduce XAI-Bench's code, which correlates the output changes (in
        rank order) with the attributions of the first ``n_samples``
        *training* rows in *feature* order.  Only for its tables."""
_DOC_AVG = """    avg : bool, default=True
        Fraction of steps satisfying the condition, or 1 only if all do."""
_doc(roar_faith_minus, _DOC_MODEL, _DOC_ROAR, _DOC_ROAR_FAITH, _DOC_ROAR_BUGS,
     _DOC_NAN, _DOC_ROAR_COMMON)
_doc(roar_faith_plus, _DOC_MODEL, _DOC_ROAR, _DOC_ROAR_FAITH, _DOC_ROAR_BUGS,
     _DOC_NAN, _DOC_ROAR_COMMON)
_doc(roar_mono_minus, _DOC_MODEL, _DOC_ROAR, _DOC_AVG, _DOC_ROAR_COMMON)
_doc(roar_mono_plus, _DOC_MODEL, _DOC_ROAR, _DOC_AVG, _DOC_ROAR_COMMON)
_doc(exact_shapley_reference, _DOC_SHAPLEY, _DOC_EFFICIENCY, _DOC_COMMON)
_doc(shapley_corr, _DOC_MODEL, _DOC_SHAPLEY, _DOC_REFERENCE, _DOC_EFFICIENCY,
     _DOC_NAN, _DOC_COMMON)
_doc(shapley_mse, _DOC_MODEL, _DOC_SHAPLEY, _DOC_REFERENCE, _DOC_EFFICIENCY,
     _DOC_COMMON)

# Every XAI-Bench metric evaluates a value function (the distribution, or a
# masker fitted on the training rows instead) with random draws; ROAR also
# retrains on explained training rows, and the Shapley metrics take a
# precomputed reference.
_NEEDS_VALUE = ("masker", "distribution", "training_rows", "random_state")
_NEEDS_ROAR = ("masker", "distribution", "explainer", "training_data", "random_state")
_NEEDS_SHAPLEY = _NEEDS_VALUE + ("reference",)
_REGISTERED = [
    ("faith_minus", faith_minus, True, _NEEDS_VALUE,
     "Correlation of |a| with the output change when each feature is removed."),
    ("faith_plus", faith_plus, True, _NEEDS_VALUE,
     "Correlation of |a| with the output change when only each feature is known."),
    ("mono_minus", mono_minus, True, _NEEDS_VALUE,
     "Fraction of steps where adding features in ascending |a| matters more."),
    ("mono_plus", mono_plus, True, _NEEDS_VALUE,
     "Fraction of steps where adding features in descending |a| matters less."),
    ("roar_faith_minus", roar_faith_minus, True, _NEEDS_ROAR,
     "faith- with the model retrained after removing each ranked feature."),
    ("roar_faith_plus", roar_faith_plus, True, _NEEDS_ROAR,
     "faith+ with the model retrained on each ranked feature alone."),
    ("roar_mono_minus", roar_mono_minus, True, _NEEDS_ROAR,
     "mono- with the model retrained at every step."),
    ("roar_mono_plus", roar_mono_plus, True, _NEEDS_ROAR,
     "mono+ with the model retrained at every step."),
    ("shapley_corr", shapley_corr, True, _NEEDS_SHAPLEY,
     "Correlation with the exact Shapley values of the model."),
    ("neg_shapley_mse", shapley_mse, False, _NEEDS_SHAPLEY,
     "Mean squared error to the exact Shapley values of the model."),
]
for _name, _func, _gib, _req, _desc in _REGISTERED:
    register_metric(
        _name, _func, kind="model", greater_is_better=_gib, requires=_req,
        source="XAI-Bench", description=_desc,
    )
