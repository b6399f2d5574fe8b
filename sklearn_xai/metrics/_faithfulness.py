"""Predictive faithfulness without a reference: what happens to the model's
output when the features an explanation calls important are removed or kept
(BEExAI / ERASER; definitions in the user guide, :ref:`def-removal-metrics`)."""

import numbers

import numpy as np

from sklearn_xai.masking import BaselineMasker, check_masker
from sklearn_xai.metrics._common import _BASE_PARAMS
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import keyed_generators, keyed_streams, seed_entropy
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import handle_undefined, row_pearson
from sklearn_xai.utils._validation import (
    check_attributions,
    magnitude_order,
    positions,
    resolve_k,
    top_k_coalitions,
)

__all__ = [
    "auc_tp",
    "comprehensiveness",
    "faithfulness_correlation",
    "monotonicity",
    "sufficiency",
]


def _prepare(estimator, X, attributions, masker, target, output, batch_size,
             X_train=None):
    """Validated inputs shared by the model-based metrics.

    The masker is never fitted on the scored rows ``X`` (a row's score would
    depend on the other rows): a fitted one is used as is, an unfitted one
    is fitted on ``X_train``, and without training rows only a masker that
    learns nothing from data (the default zero baseline) is set up.
    """
    X = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}.")
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
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


def _insertion_keep(A, order_by):
    """Keep masks (n, d + 1, d): step ``t`` keeps the top-``t`` features."""
    rank = positions(magnitude_order(A, order_by=order_by))
    return rank[:, None, :] < np.arange(A.shape[1] + 1)[None, :, None]


def _removal_scores(estimator, X, attributions, *, ratio, masker, order_by, rounding,
                    absolute, target, output, batch_size, keep_top, X_train=None):
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    ratios = np.atleast_1d(np.asarray(ratio, dtype=object)).tolist()
    keep = top_k_coalitions(A, ratios, order_by=order_by, rounding=rounding,
                            keep_top=keep_top)
    fx, values = _with_x(f, masker, X, keep, batch_size, None)
    diff = fx[:, None] - values
    if absolute is None:
        absolute = f.output == "predict"
    if absolute:
        diff = np.abs(diff)
    return diff.mean(axis=1)


_COMMON_PARAMS = {
    **_BASE_PARAMS,
    "ratio": [Interval(numbers.Real, 0, 1, closed="right"), "array-like"],
    "masker": [None, object],
    "X_train": ["array-like", None],
    "order_by": [StrOptions({"abs", "signed"})],
    "rounding": [StrOptions({"floor", "ceil"})],
    "absolute": ["boolean", None],
}

_PARAM_DOC = """    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    ratio : float or list of float, default=0.3
        Fraction of features in the top set; ``k = floor(ratio * d)`` (at
        least 1) as BEExAI.  A list averages the scores over the ratios
        (ERASER's AOPC uses 0.01, 0.05, 0.1, 0.2, 0.5).
    masker : masker, default=None
        How features are removed; ``None`` is ``BaselineMasker("zero")``
        (BEExAI).  A fitted masker is used as is.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  A masker is never
        fitted on ``X`` (a row's score would depend on the other rows):
        without ``X_train`` an unfitted masker that learns from data
        (``BaselineMasker("mean")``, ``MarginalMasker(100)``, ...) raises a
        ``ValueError``, and one that does not (``BaselineMasker("zero")``, a
        given baseline or background) is used as is.
    order_by : {"abs", "signed"}, default="abs"
        Rank features by magnitude, or by signed value (BEExAI's choice for
        classification).
    rounding : {"floor", "ceil"}, default="floor"
    absolute : bool or None, default=None
        Take the absolute value of the output change; ``None`` does so for
        regression outputs only (BEExAI).
    target : "predicted", int or label, default="predicted"
        Explained class (see :class:`sklearn_xai.utils.ExplainedOutput`).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum rows per model call."""


@fast_validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
def comprehensiveness(estimator, X, attributions, *, ratio=0.3, masker=None,
                      X_train=None, order_by="abs", rounding="floor", absolute=None,
                      target="predicted", output="auto", batch_size=None):
    """Comprehensiveness: output drop when the top features are removed.

    ``C(x) = f(x) - f(x_{T̄} ⊕ b_T)`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Greater is better.

    References
    ----------
    .. [1] J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized
       NLP Models", ACL 2020.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import comprehensiveness
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> comprehensiveness(model, X[:1], [[3.0, 2.0, 1.0]], ratio=0.34).round(6)
    array([3.])
    """
    return _removal_scores(estimator, X, attributions, ratio=ratio, masker=masker,
                           order_by=order_by, rounding=rounding, absolute=absolute,
                           target=target, output=output, batch_size=batch_size,
                           keep_top=False, X_train=X_train)


@fast_validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
def sufficiency(estimator, X, attributions, *, ratio=0.3, masker=None,
                X_train=None, order_by="abs", rounding="floor", absolute=None,
                target="predicted", output="auto", batch_size=None):
    """Sufficiency: output drop when only the top features are kept.

    ``S(x) = f(x) - f(x_T ⊕ b_{T̄})`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better.

    References
    ----------
    .. [1] J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized
       NLP Models", ACL 2020.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import sufficiency
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> sufficiency(model, X[:1], [[3.0, 2.0, 1.0]], ratio=0.34).round(6)
    array([3.])
    """
    return _removal_scores(estimator, X, attributions, ratio=ratio, masker=masker,
                           order_by=order_by, rounding=rounding, absolute=absolute,
                           target=target, output=output, batch_size=batch_size,
                           keep_top=True, X_train=X_train)


comprehensiveness.__doc__ = comprehensiveness.__doc__.replace("{params}", _PARAM_DOC)
sufficiency.__doc__ = sufficiency.__doc__.replace("{params}", _PARAM_DOC)

register_metric(
    "comprehensiveness", comprehensiveness, kind="model", greater_is_better=True,
    requires=("masker", "training_rows"), source="BEExAI",
    description="Output drop when the top features are removed.",
)
register_metric(
    "neg_sufficiency", sufficiency, kind="model", greater_is_better=False,
    requires=("masker", "training_rows"), source="BEExAI",
    description="Output drop when only the top features are kept.",
)


_MODEL_PARAMS = {
    k: _COMMON_PARAMS[k]
    for k in ("estimator", "X", "attributions", "masker", "X_train", "order_by",
              "absolute", "target", "output", "batch_size")
}


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "order_by"},
        "n_subsets": [Interval(numbers.Integral, 2, None, closed="left")],
        "subset_size": [Interval(numbers.Integral, 1, None, closed="left"),
                        Interval(numbers.Real, 0, 1, closed="right"), None],
        "variant": [StrOptions({"bhatt", "beexai"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def faithfulness_correlation(estimator, X, attributions, *, n_subsets=20,
                             subset_size=None, masker=None, X_train=None,
                             variant="bhatt",
                             absolute=None, random_state=None, target="predicted",
                             output="auto", batch_size=None):
    """Faithfulness correlation (Bhatt et al. 2020; BEExAI).

    For each row, draw ``n_subsets`` feature subsets ``S_r`` of size ``s``
    without replacement, remove them with the masker, and correlate the
    attribution mass of each subset with the output drop:
    ``Pearson_r(sum_{j in S_r} a_j, f(x) - v_x([d] minus S_r))``.  See
    :ref:`def-faithfulness-correlation` in the user guide.

    Parameters
    ----------
    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    n_subsets : int, default=20
        Number of random subsets ``R`` per row.
    subset_size : int, float in (0, 1] or None, default=None
        Subset size ``s``; a float is a fraction of the features (rounded
        down, at least 1); ``None`` is ``max(floor(0.2 d), 1)`` (BEExAI).
    masker : masker, default=None
        How the subset is removed; ``None`` is ``BaselineMasker("zero")``
        (BEExAI).  Any masker works (baseline, marginal, conditional); a
        fitted one is used as is.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  A masker is never
        fitted on ``X`` (a row's score would depend on the other rows):
        without ``X_train`` an unfitted masker that learns from data
        (``BaselineMasker("mean")``, ``MarginalMasker(100)``, ...) raises a
        ``ValueError``, and one that does not (``BaselineMasker("zero")``, a
        given baseline or background) is used as is.
    variant : {"bhatt", "beexai"}, default="bhatt"
        ``"bhatt"``: subsets drawn independently per row, one correlation per
        row (the paper).  ``"beexai"``: BEExAI's code — one set of subsets
        shared by all rows, indices drawn *with* replacement, the attribution
        *mean* over the subset, and one correlation pooled over all (row,
        subset) pairs (a single float).  BEExAI multiplies a non-zero
        baseline into ``x``; here the masker substitutes it (identical for
        BEExAI's zero baseline).
    absolute : bool or None, default=None
        Correlate with ``|f(x) - f(x')|``; ``None`` does so only for
        regression outputs under ``variant="beexai"``.
    random_state : int, RandomState instance or None, default=None
        Seeds the subsets (one stream per row, keyed by the row's content, so
        scores do not depend on batch size or row order).
    target : "predicted", int or label, default="predicted"
        Explained class (see :class:`sklearn_xai.utils.ExplainedOutput`).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum rows per model call.

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Per-row correlations in [-1, 1] (NaN, with a warning, where either
        side is constant); a float for ``variant="beexai"``.  Greater is
        better.

    References
    ----------
    .. [1] U. Bhatt, A. Weller and J. M. F. Moura, "Evaluating and
       Aggregating Feature-based Model Explanations", IJCAI 2020.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import faithfulness_correlation
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 5))
    >>> model = LinearRegression().fit(X, X @ [5.0, 4.0, 3.0, 2.0, 1.0])
    >>> A = model.coef_ * X  # exact attributions for the zero baseline
    >>> s = faithfulness_correlation(model, X[:3], A[:3], random_state=0)
    >>> s.round(6)
    array([1., 1., 1.])
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    if subset_size is None:
        s = max(int(np.floor(0.2 * d)), 1)
    elif isinstance(subset_size, numbers.Integral):
        s = int(subset_size)
    else:
        s = resolve_k(float(subset_size), d, rounding="floor")
    if s > d:
        raise ValueError(
            f"subset_size={subset_size} exceeds the number of features ({d})."
        )
    if absolute is None:
        absolute = variant == "beexai" and f.output == "predict"
    entropy = seed_entropy(random_state)  # one seed for subsets and masker
    if variant == "bhatt":
        # The first s entries of a random permutation: a uniform subset
        # drawn without replacement, independently for every row and repeat.
        idx = keyed_streams(X, entropy).permutations(d, n_subsets, n_chosen=s)
        removed = np.zeros((n, n_subsets, d), dtype=bool)
        flat = np.arange(0, n * n_subsets * d, d).reshape(n, n_subsets, 1) + idx
        removed.reshape(-1)[flat] = True
        mass = np.matmul(removed, A[:, :, None])[..., 0]
    else:
        rng = np.random.default_rng(entropy)
        idx = rng.integers(0, d, size=(n_subsets, s))
        removed1 = np.zeros((n_subsets, d), dtype=bool)
        np.put_along_axis(removed1, idx, True, axis=1)
        removed = np.broadcast_to(removed1, (n, n_subsets, d))
        mass = A[:, idx].mean(axis=2)
    rngs = None if masker.is_deterministic else keyed_generators(X, entropy)
    fx, values = _with_x(f, masker, X, ~removed, batch_size, rngs)
    drop = fx[:, None] - values
    if absolute:
        drop = np.abs(drop)
    if variant == "beexai":
        return float(row_pearson(mass.ravel(), drop.ravel()))
    r = row_pearson(mass, drop)
    return handle_undefined(r, np.isnan(r), what="faithfulness_correlation",
                            reason="constant input to a correlation",
                            policy_param=False)


def _performance_curve(f, masker, X, A, order_by, batch_size, metric, rngs):
    """P_t, t = 0..d-1, of predictions with the top-t features removed."""
    n, d = X.shape
    keep = ~_insertion_keep(A, order_by)[:, :d]  # remove top-t, t = 0..d-1
    original, removed_out = _with_x(f, masker, X, keep, batch_size, rngs, raw=True)
    if f.output == "predict":
        mse = ((removed_out - original[:, None]) ** 2).mean(axis=0)
        if metric == "mse":
            return mse
        var = original.var()
        if not var > 0:
            raise ValueError(
                "auc_tp for a regressor needs at least two rows with different "
                "predictions (it divides by the variance of f(X))."
            )
        return np.clip(1.0 - mse / var, 0.0, 1.0)
    same = removed_out.argmax(axis=2) == original.argmax(axis=1)[:, None]
    acc = same.mean(axis=0)
    return 1.0 - acc if metric == "flip_rate" else acc


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "absolute"},
        "metric": [StrOptions({"accuracy", "flip_rate"})],
        "variant": [StrOptions({"atanasova", "beexai_regression"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def auc_tp(estimator, X, attributions, *, masker=None, X_train=None, order_by="abs",
           metric="accuracy", variant="atanasova", random_state=None,
           target="predicted", output="auto", batch_size=None):
    """Area under the threshold-performance curve (Atanasova et al. 2020;
    BEExAI).  Dataset-level; see :ref:`def-auc-tp` in the user guide.

    For ``t = 0..d-1`` the top-``t`` features of every row (by its own
    attributions) are removed with the masker; ``P_t`` compares the ablated
    predictions with the original ones and
    ``AUC-TP = trapz(P_0, ..., P_{d-1}) / d``.

    * Classifiers: ``P_t`` is the accuracy of the ablated predicted labels
      against the original predicted labels (``metric="accuracy"``, lower is
      better: a faithful ranking makes it collapse early), or the flip rate
      ``1 - accuracy`` (``metric="flip_rate"``, greater is better; for two
      classes this is BEExAI's library default, the MSE between label
      vectors).
    * Regressors: ``P_t = clip(1 - MSE_t / Var(f(X)), 0, 1)`` (1 = nothing
      changed; lower is better).  ``variant="beexai_regression"`` follows
      BEExAI's code: ``P_t = MSE_t``, ``P <- P + 0.01 mean(P)``, ``1 / P``,
      min–max normalised, ``trapz / d``.

    With a multi-draw masker (marginal, conditional) the ablated output is
    the mean over draws (of the probability vector for classifiers).

    Parameters
    ----------
    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows (the score depends on all of them).
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    masker : masker, default=None
        ``None`` is ``BaselineMasker("zero")`` (BEExAI).
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  A masker is never
        fitted on ``X`` (a row's score would depend on the other rows):
        without ``X_train`` an unfitted masker that learns from data
        (``BaselineMasker("mean")``, ``MarginalMasker(100)``, ...) raises a
        ``ValueError``, and one that does not (``BaselineMasker("zero")``, a
        given baseline or background) is used as is.
    order_by : {"abs", "signed"}, default="abs"
        Rank features by magnitude or by signed value.
    metric : {"accuracy", "flip_rate"}, default="accuracy"
        Performance of a classifier's ablated predictions (ignored for
        regressors).
    variant : {"atanasova", "beexai_regression"}, default="atanasova"
        Regression curve, see above (ignored for classifiers).
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    target : "predicted", int or label, default="predicted"
        Explained class (only used by the masker's value function).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum rows per model call.

    Returns
    -------
    score : float
        Lower is better, except with ``metric="flip_rate"``.

    References
    ----------
    .. [1] P. Atanasova, J. G. Simonsen, C. Lioma and I. Augenstein, "A
       Diagnostic Study of Explainability Techniques for Text
       Classification", EMNLP 2020.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import auc_tp
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> clf = LogisticRegression().fit(X, (X @ [4.0, 1.0, 0.5, 0.1]) > 0)
    >>> exact = clf.coef_[0] * X
    >>> bool(auc_tp(clf, X, exact) < auc_tp(clf, X, exact[:, ::-1]))
    True
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    d = X.shape[1]
    regression = f.output == "predict"
    rngs = None if masker.is_deterministic else keyed_generators(X, random_state)
    if regression and variant == "beexai_regression":
        P = _performance_curve(f, masker, X, A, order_by, batch_size, "mse", rngs)
        P = P + 0.01 * P.mean()
        with np.errstate(divide="ignore"):
            P = 1.0 / P
        span = P.max() - P.min()
        P = (P - P.min()) / span if span > 0 else np.zeros_like(P)
    else:
        P = _performance_curve(f, masker, X, A, order_by, batch_size,
                               "accuracy" if regression else metric, rngs)
    return float(np.trapezoid(P) / d) if d > 1 else float(P[0])


@fast_validate_params(
    {
        **_MODEL_PARAMS,
        "variant": [StrOptions({"insertion", "beexai"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def monotonicity(estimator, X, attributions, *, masker=None, X_train=None,
                 order_by="abs",
                 variant="insertion", absolute=None, random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Insertion monotonicity (BEExAI); see :ref:`def-monotonicity` in the
    user guide.

    Features are inserted into the baseline in the explanation's order:
    ``g_t = v_x(K_t)`` with ``K_t`` the top-``t`` features, ``t = 0..d``
    (``g_0 = f(b)``, ``g_d = f(x)``), gains ``gamma_t = g_{t+1} - g_t``.  The
    score is the fraction of consecutive gains that do not increase,
    ``1/(d-1) sum_{t=0}^{d-2} 1[gamma_t >= gamma_{t+1}]``: diminishing
    returns when the most important features come first.

    Not to be confused with XAI-Bench's mono± (:func:`mono_minus`), Arya et
    al.'s or Nguyen & Martínez's monotonicity.  Unlike Quantus'
    ``Monotonicity``, the original feature values are inserted, so arbitrary
    attributions do not score 1.

    Parameters
    ----------
    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows (at least two features).
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    masker : masker, default=None
        The baseline the features are inserted into; ``None`` is
        ``BaselineMasker("zero")`` (BEExAI).  Any masker works.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows an unfitted ``masker`` is fitted on.  A masker is never
        fitted on ``X`` (a row's score would depend on the other rows):
        without ``X_train`` an unfitted masker that learns from data
        (``BaselineMasker("mean")``, ``MarginalMasker(100)``, ...) raises a
        ``ValueError``, and one that does not (``BaselineMasker("zero")``, a
        given baseline or background) is used as is.
    order_by : {"abs", "signed"}, default="abs"
        Rank features by magnitude or by signed value (BEExAI's choice for
        classification).
    variant : {"insertion", "beexai"}, default="insertion"
        ``"insertion"``: one score per row (above).  ``"beexai"``: BEExAI's
        code, one float: the curve ``c_0 = f(b)``, ``c_t = f(x) - v_x(K_t)``
        for ``t >= 1`` (absolute value for regression), averaged over rows
        before differencing, then the fraction of ``t`` with
        ``Δc_t <= Δc_{t+1}``.
    absolute : bool or None, default=None
        Only for ``variant="beexai"``: absolute differences; ``None`` does so
        for regression outputs.
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    target : "predicted", int or label, default="predicted"
        Explained class (see :class:`sklearn_xai.utils.ExplainedOutput`).
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum rows per model call.

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Fractions in [0, 1] (multiples of ``1/(d-1)``); a float for
        ``variant="beexai"``.  Greater is better.

    References
    ----------
    .. [1] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import monotonicity
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> monotonicity(model, X[:1], [[3.0, 2.0, 1.0]]).round(6)  # gains 3, 2, 1
    array([1.])
    >>> monotonicity(model, X[:1], [[1.0, 2.0, 3.0]]).round(6)  # gains 1, 2, 3
    array([0.])
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    if d < 2:
        raise ValueError("monotonicity needs at least two features.")
    keep = _insertion_keep(A, order_by)
    rngs = None if masker.is_deterministic else keyed_generators(X, random_state)
    _, g = _with_x(f, masker, X, keep, batch_size, rngs)
    if variant == "insertion":
        gains = np.diff(g, axis=1)
        return (gains[:, :-1] >= gains[:, 1:]).mean(axis=1)
    if absolute is None:
        absolute = f.output == "predict"
    curve = g[:, -1:] - g
    if absolute:
        curve = np.abs(curve)
    curve[:, 0] = g[:, 0]
    delta = np.diff(curve.mean(axis=0))
    return float((delta[:-1] <= delta[1:]).mean())


register_metric(
    "faithfulness_correlation", faithfulness_correlation, kind="model",
    greater_is_better=True, requires=("masker", "training_rows", "random_state"),
    source="BEExAI",
    description="Correlation of subset attribution mass with the output drop.",
)
register_metric(
    "neg_auc_tp", auc_tp, kind="model", greater_is_better=False, per_instance=False,
    requires=("masker", "training_rows", "random_state"), source="BEExAI",
    description="Area under the accuracy curve as top features are removed.",
)
register_metric(
    "monotonicity", monotonicity, kind="model", greater_is_better=True,
    requires=("masker", "training_rows", "random_state"), source="BEExAI",
    description="Fraction of non-increasing gains along the insertion curve.",
)
