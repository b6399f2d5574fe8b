"""Faithfulness with retraining (ROAR): XAI-Bench's roar-faith± and
roar-mono± (:ref:`def-roar` in the user guide).

Remove-and-retrain, after Hooker et al.: the features an explanation ranks
are replaced by their conditional mean in every training and explained row,
each row in its own order, and a clone of the model is refitted on the
imputed training rows at every step, so that the model cannot exploit the
imputed values.  The scores are XAI-Bench's faithfulness and monotonicity
(faith± in ``_removal_correlations.py``, mono± in ``_removal_paths.py``) of
the refitted models' outputs; the helpers they share live in
``_shared_removal.py``.

The metrics need the attributions of the training rows.  Called directly
they take ``attributions_train`` or explain ``X_train`` with ``explainer``;
an explanation scorer binds them from the fitted explainer it scores, which
remembers them for its fit (see :class:`~sklearn_xai.metrics.ExplanationScorer`),
so several ROAR scorers of one search explain the training rows once.
"""

import numbers

import numpy as np

from sklearn_xai.masking import check_masker
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _CONVENTION_XAI_BENCH,
    _EMPTY_VALUE,
    _NAN_POLICY,
    _check_distribution,
    _explained_at,
    _refit,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.metrics._shared_removal import (
    _code_ties,
    _importance_order,
    _monotone_fraction,
)
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import keyed_streams
from sklearn_xai.utils._sklearn import HasMethods, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import row_pearson
from sklearn_xai.utils._validation import (
    check_attributions,
    check_rows,
    magnitude_order,
    positions,
)

__all__ = [
    "roar",
    "roar_curve",
    "ROAR_CUTOFFS",
    "roar_faith_minus",
    "roar_faith_plus",
    "roar_mono_minus",
    "roar_mono_plus",
]


# ------------------------------------------------------------ the inputs
def _training_attributions(X_train, y_train, attributions_train, explainer, name):
    """``attributions_train``, or ``explainer.explain(X_train)``, with errors
    naming what to bind."""
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
    return np.asarray(explainer.explain(X_train), dtype=np.float64)


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


# ---------------------------------------------------------- the retraining
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
        rngs = keyed_streams(Z, random_state)
        return masker.impute(Z, keep[:, None, :], rngs=rngs)[:, 0].mean(axis=1)

    return impute_with_masker


def _roar_curves(estimator, X, attributions, *, X_train, y_train, attributions_train,
                 coalitions, distribution, masker, value, random_state, target,
                 output, batch_size, with_empty=False):
    """Retrain once per step and evaluate the explained rows.

    ``coalitions = (keep_x, keep_train, n_steps)``: ``keep_x(step)`` and
    ``keep_train(step)`` give the kept features of every explained and
    training row at one step (the others are imputed).  Returns the
    validated rows and attributions, the original model's output ``f(x)``,
    the predictions (n, n_steps) of each step's refitted model on the
    imputed explained rows and, with ``with_empty``, its predictions on the
    fully imputed rows (nothing kept).
    """
    X = check_rows(X, allow_1d=False)
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    t, fx = _explained_at(f, X)
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


# ------------------------------------------------------------- the scores
def _roar_faith(estimator, X, attributions, *, add, X_train, y_train,
                attributions_train, explainer, distribution, masker, value, use_abs,
                empty_value, convention, nan_policy, random_state, target,
                output, batch_size):
    name = "roar_faith_plus" if add else "roar_faith_minus"
    attributions_train = _training_attributions(X_train, y_train, attributions_train,
                                                explainer, name)
    A = check_attributions(attributions)
    A_tr = check_attributions(attributions_train, name="attributions_train")
    ties = _code_ties(convention)
    order_x, order_tr = magnitude_order(A, ties=ties), magnitude_order(A_tr, ties=ties)
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
    if convention == "xai_bench_code":
        n = len(X)
        if A_train.shape[0] < n:
            raise ValueError(
                "convention='xai_bench_code' reads the attributions of the first "
                f"n_explained={n} training rows; X_train has only {A_train.shape[0]}."
            )
        weights = A_train[:n]  # training rows, in feature order (XAI-Bench)
    else:
        weights = np.take_along_axis(A, order_x, axis=1)  # rank order, like delta
    weights = np.abs(weights) if use_abs else weights
    return row_pearson(delta, weights, nan_policy=nan_policy, what=name)


def _roar_mono(estimator, X, attributions, *, ascending, X_train, y_train,
               attributions_train, explainer, distribution, masker, value, avg,
               random_state, target, output, batch_size, convention="paper"):
    attributions_train = _training_attributions(
        X_train, y_train, attributions_train, explainer,
        "roar_mono_minus" if ascending else "roar_mono_plus")
    A = check_attributions(attributions)
    A_tr = check_attributions(attributions_train, name="attributions_train")
    d = A.shape[1]
    if d < 2:
        raise ValueError("Monotonicity needs at least 2 features.")
    pos_x = positions(_importance_order(A, ascending, convention))
    pos_tr = positions(_importance_order(A_tr, ascending, convention))
    *_, pred, _ = _roar_curves(
        estimator, X, A, X_train=X_train, y_train=y_train, attributions_train=A_tr,
        coalitions=(lambda t: pos_x < t, lambda t: pos_tr < t, d + 1),
        distribution=distribution, masker=masker, value=value,
        random_state=random_state, target=target, output=output,
        batch_size=batch_size,
    )
    return _monotone_fraction(pred, ascending, avg)


# ------------------------------------------------------- public metrics
_ROAR_PARAMS = {
    **_BASE_PARAMS,
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "attributions_train": ["array-like", None],
    "explainer": [HasMethods(["explain"]), None],
    "distribution": [None, object],
    "masker": [None, object],
    "value": [StrOptions({"observational", "interventional"})],
    "random_state": ["random_state"],
}

_ROAR_FAITH_PARAMS = {**_ROAR_PARAMS, **_NAN_POLICY, **_EMPTY_VALUE,
                      **_CONVENTION_XAI_BENCH, "use_abs": ["boolean"]}

_ROAR_MONO_PARAMS = {**_ROAR_PARAMS, "avg": ["boolean"]}

# Entries of every ROAR metric, then of roar-faith± only.
_ROAR_DOCS = dict(
    roar_X_train="""
X_train : array-like of shape (n_train, n_features)
    Training rows the model is refitted on (imputed at each step), in the
    model's input space.  Required; in a search bind it to the scorer:
    ``get_scorer("roar_faith_minus", X_train=X_train, y_train=y_train,
    distribution=...)``.""",
    y_train="""
y_train : array-like of shape (n_train,)
    Their targets.  Required.""",
    attributions_train="""
attributions_train : array-like of shape (n_train, n_features), default=None
    The explainer's attributions of the training rows; each row's
    features are removed in its own order.  Computed as
    ``explainer.explain(X_train)`` when not given.""",
    explainer="""
explainer : fitted explainer, default=None
    Explains ``X_train`` when ``attributions_train`` is not given (its
    explanation scorer binds the attributions, computed once per fitted
    explainer and training set, so several ROAR scorers share them).""",
    roar_distribution="""
distribution : MultivariateGaussian or GaussianMixture, default=None
    Removed features are replaced by their exact conditional mean given
    the kept ones (``value="observational"``) or by their mean
    (``"interventional"``).  Exactly one of ``distribution`` and
    ``masker`` is required.""",
    roar_masker="""
masker : masker, default=None
    Removed features are replaced by the mean of the masker's
    imputations.  A fitted masker is used as is; an unfitted one is
    fitted on ``X_train``.""",
    roar_value="""
value : {"observational", "interventional"}, default="observational"
    See ``distribution``.""",
    roar_random_state="""
random_state : int, RandomState instance, Generator or None, default=None
    Seeds the refitted models whose own ``random_state`` is None (and a
    stochastic masker).""",
    roar_target="""
target : "predicted", int, label or array-like, default="predicted"
    Explained class, fixed at the original model's prediction (see
    :class:`sklearn_xai.utils.ExplainedOutput`).  Ignored for
    regressors.""",
)

_ROAR_FAITH_DOCS = dict(
    use_abs="""
use_abs : bool, default=True
    Correlate the output changes (magnitudes) with ``|a|`` (XAI-Bench's
    code and tables); ``False`` uses the signed attributions.""",
    roar_convention="""
convention : {"paper", "xai_bench_code"}, default="paper"
    ``"xai_bench_code"`` reproduces XAI-Bench's code, which correlates the
    output changes (in rank order) with the attributions of the first
    ``len(X)`` *training* rows in *feature* order, and orders features of
    equal importance as its ``np.argsort(|a|)[::-1]`` does (the higher
    column first).  Only for its tables (:ref:`def-switches-xaibench`).""",
)

_DOC_ROAR_MONO_CONVENTION = """
convention : {"paper", "xai_bench_code"}, default="paper"
    Order of features of equal importance: the lower column first, or, with
    ``"xai_bench_code"``, the higher first, as XAI-Bench's code (the
    reverse of ``np.argsort(|a|)``) orders them.  Only for its tables
    (:ref:`def-switches-xaibench`)."""

_DOC_ROAR_EMPTY_VALUE = """
empty_value : {"expected", "explained_mean"}, default="expected"
    The second term: the refitted model at the fully imputed row, or
    XAI-Bench's mean prediction of the original model over the explained
    rows (its code)."""

_DOC_AVG = """
avg : bool, default=True
    Fraction of steps satisfying the condition, or 1 only if all do."""

_ROAR_SHARED = ("output", "batch_size")


@fast_validate_params(_ROAR_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_ROAR_SHARED, "nan_policy", **_ROAR_DOCS, **_ROAR_FAITH_DOCS,
              metric_references=_references("liu2021", "hooker2019"),
              **_shared_docs("model_inputs", "returns_correlation"))
def roar_faith_minus(estimator, X, attributions, *, X_train=None, y_train=None,
                     attributions_train=None, explainer=None, distribution=None,
                     masker=None, value="observational", use_abs=True,
                     empty_value="expected", convention="paper", nan_policy="omit",
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
    {model_inputs}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {use_abs}
    empty_value : {"expected", "explained_mean"}, default="expected"
        Unused by roar-faith− (see :func:`roar_faith_plus`).
    {roar_convention}
    {nan_policy}
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    {returns_correlation}

    {metric_references}

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
                       convention=convention, nan_policy=nan_policy,
                       random_state=random_state, target=target, output=output,
                       batch_size=batch_size)


@fast_validate_params(_ROAR_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_ROAR_SHARED, "nan_policy", **_ROAR_DOCS, **_ROAR_FAITH_DOCS,
              roar_empty_value=_DOC_ROAR_EMPTY_VALUE,
              metric_references=_references("liu2021", "hooker2019"),
              **_shared_docs("model_inputs", "returns_correlation"))
def roar_faith_plus(estimator, X, attributions, *, X_train=None, y_train=None,
                    attributions_train=None, explainer=None, distribution=None,
                    masker=None, value="observational", use_abs=True,
                    empty_value="expected", convention="paper", nan_policy="omit",
                    random_state=None, target="predicted", output="auto",
                    batch_size=None):
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
    {model_inputs}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {use_abs}
    {roar_empty_value}
    {roar_convention}
    {nan_policy}
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    {returns_correlation}

    {metric_references}

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
                       convention=convention, nan_policy=nan_policy,
                       random_state=random_state, target=target, output=output,
                       batch_size=batch_size)


@fast_validate_params(_ROAR_MONO_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_ROAR_SHARED, **_ROAR_DOCS, avg=_DOC_AVG,
              metric_references=_references("liu2021", "hooker2019"),
              **_shared_docs("model_inputs", "returns_fraction"))
def roar_mono_minus(estimator, X, attributions, *, X_train=None, y_train=None,
                    attributions_train=None, explainer=None, distribution=None,
                    masker=None, value="observational", avg=True, random_state=None,
                    target="predicted", output="auto", batch_size=None):
    """ROAR monotonicity, least important first (XAI-Bench roar-mono−).

    For ``t = 0..d``: keep the ``t`` least important features of every
    training and explained row, impute the rest with conditional means,
    refit → ``f_t``; ``v_t = f_t(x̄_{K_t})``, scored as
    :func:`~sklearn_xai.metrics.mono_minus` (see :ref:`def-roar` in the user
    guide).  Costs ``d + 1`` refits.

    Parameters
    ----------
    {model_inputs}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {avg}
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    {returns_fraction}

    {metric_references}

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
                      value=value, avg=avg, random_state=random_state, target=target,
                      output=output, batch_size=batch_size)


@fast_validate_params({**_ROAR_MONO_PARAMS, **_CONVENTION_XAI_BENCH},
                      prefer_skip_nested_validation=True)
@Substitution(*_ROAR_SHARED, **_ROAR_DOCS, avg=_DOC_AVG,
              roar_mono_convention=_DOC_ROAR_MONO_CONVENTION,
              metric_references=_references("liu2021", "hooker2019"),
              **_shared_docs("model_inputs", "returns_fraction"))
def roar_mono_plus(estimator, X, attributions, *, X_train=None, y_train=None,
                   attributions_train=None, explainer=None, distribution=None,
                   masker=None, value="observational", avg=True, convention="paper",
                   random_state=None, target="predicted", output="auto",
                   batch_size=None):
    """ROAR monotonicity, most important first (XAI-Bench roar-mono+).

    For ``t = 0..d``: keep the ``t`` most important features of every
    training and explained row, impute the rest, refit → ``f_t``;
    ``v_t = f_t(x̄_{K_t})``, scored as :func:`~sklearn_xai.metrics.mono_plus`.
    Costs ``d + 1`` refits.  See :ref:`def-roar` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {avg}
    {roar_mono_convention}
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    {returns_fraction}

    {metric_references}

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
                      value=value, avg=avg, random_state=random_state, target=target,
                      output=output, batch_size=batch_size, convention=convention)


# ROAR retrains on explained training rows, with a value function (the
# distribution, or a masker) for the imputation.
_NEEDS_ROAR = ("masker", "distribution", "explainer", "training_data", "random_state")


for _name, _func, _desc in [
    ("roar_faith_minus", roar_faith_minus,
     "faith- with the model retrained after removing each ranked feature."),
    ("roar_faith_plus", roar_faith_plus,
     "faith+ with the model retrained on each ranked feature alone."),
    ("roar_mono_minus", roar_mono_minus,
     "mono- with the model retrained at every step."),
    ("roar_mono_plus", roar_mono_plus,
     "mono+ with the model retrained at every step."),
]:
    register_metric(_name, _func, kind="model", greater_is_better=True,
                    requires=_NEEDS_ROAR, source="XAI-Bench", description=_desc)


#: XAI-Bench's cut-offs (``custom_metrics/roar.py``), those of the ROAR
#: paper's figures: the fraction of features removed.
ROAR_CUTOFFS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9)


def _check_cutoffs(cutoffs):
    c = np.asarray(cutoffs, dtype=np.float64).reshape(-1)
    if c.size == 0 or not np.all((c >= 0) & (c < 1)) or np.any(np.diff(c) <= 0):
        raise ValueError(
            "cutoffs must be increasing fractions of features in [0, 1), e.g. "
            f"(0.0, 0.1, 0.3, 0.5, 0.7, 0.9); got {cutoffs!r}."
        )
    return c


def _curve(estimator, X, attributions, *, y, X_train, y_train, attributions_train,
           explainer, distribution, masker, value, cutoffs, random_state, target,
           output, batch_size, name):
    cutoffs = _check_cutoffs(cutoffs)
    attributions_train = _training_attributions(X_train, y_train, attributions_train,
                                                explainer, name)
    A = check_attributions(attributions)
    A_tr = check_attributions(attributions_train, name="attributions_train")
    d = A.shape[1]
    # floor(c * d) features removed (XAI-Bench: int(c * d)); the small
    # tolerance keeps 0.3 * 10 at 3.
    removed = np.floor(cutoffs * d + 1e-9).astype(int)
    pos_x, pos_tr = positions(magnitude_order(A)), positions(magnitude_order(A_tr))
    X, A, _, fx, pred, _ = _roar_curves(
        estimator, X, A, X_train=X_train, y_train=y_train, attributions_train=A_tr,
        coalitions=(lambda s: pos_x >= removed[s], lambda s: pos_tr >= removed[s],
                    len(removed)),
        distribution=distribution, masker=masker, value=value,
        random_state=random_state, target=target, output=output,
        batch_size=batch_size,
    )
    if y is None:
        ref = fx
    else:
        ref = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y, dtype=np.float64)
        if ref.shape != (X.shape[0],):
            raise ValueError(f"y must have one value per row of X ({X.shape[0]}); got "
                             f"shape {ref.shape}.")
    return cutoffs, np.abs(pred - ref[:, None]).mean(axis=0)


_ROAR_CURVE_PARAMS = {**_ROAR_PARAMS, "y": ["array-like", None], "cutoffs": ["array-like"]}

_ROAR_CURVE_DOCS = dict(
    y="""
y : array-like of shape (n_samples,), default=None
    Targets of the explained rows: the error is ``mean |y - f_c(x̃)|``
    (XAI-Bench's code).  ``None`` measures it against the original model's
    output ``f(x)`` instead (what a benchmark cell, which does not pass the
    test labels to metrics, computes).""",
    cutoffs="""
cutoffs : array-like of float, default=ROAR_CUTOFFS
    Increasing fractions ``c`` in [0, 1) of features removed:
    ``floor(c * n_features)`` per step.  Default: XAI-Bench's and the ROAR
    paper's 0, 0.1, 0.3, 0.5, 0.7, 0.9.""",
    roar_imputation="""
Removed features are replaced by their conditional mean given the kept
ones (``distribution``), or by the mean of a masker's imputations.
XAI-Bench's code replaces them by *one* conditional draw: pass
``masker=ConditionalMasker(distribution, n_draws=1)``.""",
)

_ROAR_CURVE_SHARED = ("output", "batch_size")

_REFERENCES = """
References
----------
.. [1] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark
   for Interpretability Methods in Deep Neural Networks", NeurIPS 2019.
.. [2] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
   Benchmarks for Scientific Research in Explainable Machine Learning",
   NeurIPS Datasets and Benchmarks 2021."""


@fast_validate_params(_ROAR_CURVE_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_ROAR_CURVE_SHARED, **_ROAR_DOCS, **_ROAR_CURVE_DOCS,
              references=_REFERENCES, **_shared_docs("model_inputs"))
def roar_curve(estimator, X, attributions, *, y=None, X_train=None, y_train=None,
               attributions_train=None, explainer=None, distribution=None, masker=None,
               value="observational", cutoffs=ROAR_CUTOFFS, random_state=None,
               target="predicted", output="auto", batch_size=None):
    """The remove-and-retrain curve: retrained model's error per cut-off.

    For each cut-off ``c``: remove the ``floor(c d)`` features of largest
    ``|a|`` from every training row (by its own attributions) and explained
    row, refit ``clone(estimator)`` on the imputed training rows → ``f_c``,
    and record ``mean_i |y_i - f_c(x̃_i)|`` over the explained rows.  Costs
    one refit per cut-off.

    {roar_imputation}

    Parameters
    ----------
    {model_inputs}
    {y}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {cutoffs}
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    Returns
    -------
    cutoffs : ndarray of shape (n_cutoffs,)
        The cut-offs.
    errors : ndarray of shape (n_cutoffs,)
        Mean absolute error of the refitted model at each cut-off.

    See Also
    --------
    roar : The area under this curve, XAI-Bench's ``roar`` score.

    {references}

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar_curve
    >>> dist = MultivariateGaussian.equicorrelated(5, rho=0.0)
    >>> X = dist.sample(400, random_state=0)
    >>> y = X @ [5.0, 4.0, 3.0, 2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)  # exact Shapley values
    >>> cutoffs, errors = roar_curve(model, X[:100], shap(X[:100]), y=y[:100],
    ...                              X_train=X, y_train=y,
    ...                              attributions_train=shap(X), distribution=dist)
    >>> bool(errors[0] < 1e-8 and errors[-1] > errors[2])
    True
    """
    return _curve(estimator, X, attributions, y=y, X_train=X_train, y_train=y_train,
                  attributions_train=attributions_train, explainer=explainer,
                  distribution=distribution, masker=masker, value=value,
                  cutoffs=cutoffs, random_state=random_state, target=target,
                  output=output, batch_size=batch_size, name="roar_curve")


@fast_validate_params({**_ROAR_CURVE_PARAMS,
                       "at": [numbers.Real, None]}, prefer_skip_nested_validation=True)
@Substitution(*_ROAR_CURVE_SHARED, **_ROAR_DOCS, **_ROAR_CURVE_DOCS,
              references=_REFERENCES, **_shared_docs("model_inputs"))
def roar(estimator, X, attributions, *, y=None, X_train=None, y_train=None,
         attributions_train=None, explainer=None, distribution=None, masker=None,
         value="observational", cutoffs=ROAR_CUTOFFS, at=None, random_state=None,
         target="predicted", output="auto", batch_size=None):
    """Remove-and-retrain score: area under the ROAR curve (XAI-Bench ``roar``).

    The trapezoidal area under :func:`roar_curve` (error of the refitted
    model against the fraction of features removed): the more the removed
    top-ranked features matter, the larger the error and the score.  With
    ``at=c`` the error at that single cut-off instead (one refit), which
    gives the curve one point per scorer.  One value for the data set, not
    per row.

    {roar_imputation}

    Parameters
    ----------
    {model_inputs}
    {y}
    {roar_X_train}
    {y_train}
    {attributions_train}
    {explainer}
    {roar_distribution}
    {roar_masker}
    {roar_value}
    {cutoffs}
    at : float, default=None
        Return the error at this cut-off (a fraction in [0, 1)) instead of
        the area; ``cutoffs`` is then ignored.
    {roar_random_state}
    {roar_target}
    {output}
    {batch_size}

    Returns
    -------
    score : float
        Area under the curve, or the error at ``at``; greater is better.

    {references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import roar
    >>> dist = MultivariateGaussian.equicorrelated(5, rho=0.0)
    >>> X = dist.sample(400, random_state=0)
    >>> y = X @ [5.0, 4.0, 3.0, 2.0, 1.0]
    >>> model = LinearRegression().fit(X, y)
    >>> shap = lambda Z: model.coef_ * (Z - dist.mean)
    >>> kw = dict(X_train=X, y_train=y, distribution=dist)
    >>> good = roar(model, X[:100], shap(X[:100]), attributions_train=shap(X), **kw)
    >>> reverse = lambda Z: 1.0 / np.abs(shap(Z))  # least important ranked first
    >>> bad = roar(model, X[:100], reverse(X[:100]), attributions_train=reverse(X), **kw)
    >>> bool(good > bad)
    True
    """
    if at is not None:
        cutoffs = (at,)
    c, errors = _curve(estimator, X, attributions, y=y, X_train=X_train, y_train=y_train,
                       attributions_train=attributions_train, explainer=explainer,
                       distribution=distribution, masker=masker, value=value,
                       cutoffs=cutoffs, random_state=random_state, target=target,
                       output=output, batch_size=batch_size, name="roar")
    if at is not None:
        return float(errors[0])
    return float(np.sum(np.diff(c) * (errors[1:] + errors[:-1]) / 2.0))


register_metric("roar", roar, kind="model", greater_is_better=True, per_instance=False,
                requires=_NEEDS_ROAR, source="XAI-Bench", family="faithfulness",
                description="Area under the retrained model's error as the top "
                            "features are removed (remove and retrain).")
