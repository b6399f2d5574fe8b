"""The faithfulness family: does the model's output move as an explanation
says when the features it ranks are removed or kept?

* Removal and insertion through a masker, without a reference (ERASER,
  BEExAI): :func:`comprehensiveness`, :func:`sufficiency`,
  :func:`faithfulness_correlation`, :func:`auc_tp` and :func:`monotonicity`
  (:ref:`def-removal-metrics` in the user guide).
* XAI-Bench's faithfulness and monotonicity, :func:`faith_minus`,
  :func:`faith_plus`, :func:`mono_minus` and :func:`mono_plus`
  (:ref:`def-faith`, :ref:`def-mono`).  They read the value function
  ``v_x(S)`` (expected model output when only the features ``S`` of ``x``
  are known) from a masker: observational ``E[f(X) | X_S = x_S]`` through
  :class:`~sklearn_xai.masking.ConditionalMasker` on a known distribution
  (XAI-Bench's choice), interventional through a
  :class:`~sklearn_xai.masking.MarginalMasker` whose background is drawn
  from the distribution, or any masker passed explicitly.

Every metric evaluates the explained rows and all their coalitions in one
batched :meth:`~sklearn_xai.masking.BaseMasker.evaluate` pass (the rows
themselves included, so ``f(x)`` and the explained class come from the same
model calls; conditional draws are shared by a row's coalitions, except under
``convention="xai_bench_code"`` of faith± and mono±, where every coalition
gets its own draws as in XAI-Bench's code).  For an affine regressor the
values are computed in closed form.

Defaults follow the papers; ``convention="xai_bench_code"`` or
``"beexai_code"`` reproduces a benchmark's code where it differs
(:ref:`def-published-differences`).  The retraining (ROAR) variants live in
``_roar.py``, the agreement with exact Shapley values in
``_shapley_reference.py``.
"""

import numbers

import numpy as np

from sklearn_xai.masking import ConditionalMasker
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _CONVENTION_XAI_BENCH,
    _DEPRECATED_N_SAMPLES,
    _DEPRECATED_SWITCH,
    _EMPTY_VALUE,
    _NAN_POLICY,
    _check_distribution,
    _prepare,
    _value_inputs,
    _value_masker,
    _values_with_x,
    _with_x,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._deprecation import DEPRECATED, renamed, switch_to_convention
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._random import keyed_streams, seed_entropy
from sklearn_xai.utils._sklearn import (
    Hidden,
    Interval,
    StrOptions,
    fast_validate_params,
)
from sklearn_xai.utils._stats import handle_undefined, row_pearson
from sklearn_xai.utils._validation import (
    magnitude_order,
    positions,
    resolve_k,
    top_k_coalitions,
)

__all__ = [
    "auc_tp",
    "comprehensiveness",
    "faith_minus",
    "faith_plus",
    "faithfulness_correlation",
    "mono_minus",
    "mono_plus",
    "monotonicity",
    "sufficiency",
]

# ======================================================================
# Removal and insertion without a reference (ERASER, BEExAI)
# ======================================================================
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
_CONVENTION_BEEXAI = {
    "convention": [StrOptions({"paper", "beexai_code"})],
}

# Entries shared by the functions of this section.
_DOC_REMOVAL_MASKER = """
masker : masker, default=None
    How features are removed; ``None`` is ``BaselineMasker("zero")``
    (BEExAI).  Any masker works (baseline, marginal, conditional); a fitted
    one is used as is, an unfitted one is fitted on ``X_train``."""
_DOC_ORDER_BY = """
order_by : {"abs", "signed"}, default="abs"
    Rank features by magnitude, or by signed value (BEExAI's choice for
    classification)."""
_REMOVAL_DOCS = dict(
    removal_masker=_DOC_REMOVAL_MASKER,
    order_by=_DOC_ORDER_BY,
    ratio="""
ratio : float or list of float, default=0.3
    Fraction of features in the top set; ``k = floor(ratio * d)`` (at
    least 1) as BEExAI.  A list averages the scores over the ratios
    (ERASER's AOPC uses 0.01, 0.05, 0.1, 0.2, 0.5).""",
    rounding="""
rounding : {"floor", "ceil"}, default="floor"
    How ``ratio * d`` is rounded to the size of the top set.""",
    removal_absolute="""
absolute : bool or None, default=None
    Take the absolute value of the output change; ``None`` does so for
    regression outputs only (BEExAI).""",
)
_REMOVAL_SHARED = ("estimator", "X", "attributions", "X_train", "target", "output",
                   "batch_size")


@fast_validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_REMOVAL_SHARED, **_REMOVAL_DOCS)
def comprehensiveness(estimator, X, attributions, *, ratio=0.3, masker=None,
                      X_train=None, order_by="abs", rounding="floor", absolute=None,
                      target="predicted", output="auto", batch_size=None):
    """Comprehensiveness: output drop when the top features are removed.

    ``C(x) = f(x) - f(x_{T̄} ⊕ b_T)`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {ratio}
    {removal_masker}
    {X_train}
    {order_by}
    {rounding}
    {removal_absolute}
    {target}
    {output}
    {batch_size}

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
@Substitution(*_REMOVAL_SHARED, **_REMOVAL_DOCS)
def sufficiency(estimator, X, attributions, *, ratio=0.3, masker=None,
                X_train=None, order_by="abs", rounding="floor", absolute=None,
                target="predicted", output="auto", batch_size=None):
    """Sufficiency: output drop when only the top features are kept.

    ``S(x) = f(x) - f(x_T ⊕ b_{T̄})`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {ratio}
    {removal_masker}
    {X_train}
    {order_by}
    {rounding}
    {removal_absolute}
    {target}
    {output}
    {batch_size}

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


def _beexai_convention(convention, variant, options, owner):
    """``convention`` with the deprecated ``variant`` of a BEExAI metric
    mapped onto it (``options``: old value -> convention)."""
    return switch_to_convention(convention, {"variant": (variant, options)},
                                owner=owner, stacklevel=5)


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "order_by"},
        **_CONVENTION_BEEXAI,
        "n_subsets": [Interval(numbers.Integral, 2, None, closed="left")],
        "subset_size": [Interval(numbers.Integral, 1, None, closed="left"),
                        Interval(numbers.Real, 0, 1, closed="neither"), None],
        "random_state": ["random_state"],
        "variant": [StrOptions({"bhatt", "beexai"}), Hidden(StrOptions({DEPRECATED}))],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", "attributions", "X_train", "random_state", "target",
              "output", "batch_size", removal_masker=_DOC_REMOVAL_MASKER)
def faithfulness_correlation(estimator, X, attributions, *, n_subsets=20,
                             subset_size=None, masker=None, X_train=None,
                             convention="paper", absolute=None, random_state=None,
                             target="predicted", output="auto", batch_size=None,
                             variant=DEPRECATED):
    """Faithfulness correlation (Bhatt et al. 2020; BEExAI).

    For each row, draw ``n_subsets`` feature subsets ``S_r`` of size ``s``
    without replacement, remove them with the masker, and correlate the
    attribution mass of each subset with the output drop:
    ``Pearson_r(sum_{j in S_r} a_j, f(x) - v_x([d] minus S_r))``.  See
    :ref:`def-faithfulness-correlation` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    n_subsets : int, default=20
        Number of random subsets ``R`` per row.
    subset_size : int, float in (0, 1) or None, default=None
        Subset size ``s``, at most ``n_features - 1`` (removing every
        feature leaves a single subset, with nothing to correlate); a float
        is a fraction of the features (rounded down, at least 1); ``None``
        is ``max(floor(0.2 d), 1)`` (BEExAI).
    {removal_masker}
    {X_train}
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: subsets drawn independently per row, one correlation
        per row.  ``"beexai_code"``: BEExAI's code — one set of subsets
        shared by all rows, indices drawn *with* replacement, the
        attribution *mean* over the subset, and one correlation pooled over
        all (row, subset) pairs (a single float).  BEExAI multiplies a
        non-zero baseline into ``x``; here the masker substitutes it
        (identical for BEExAI's zero baseline).
    absolute : bool or None, default=None
        Correlate with ``|f(x) - f(x')|``; ``None`` does so only for
        regression outputs under ``convention="beexai_code"``.
    {random_state}
    {target}
    {output}
    {batch_size}
    variant : {"bhatt", "beexai"}
        Former switch: ``"bhatt"`` is ``convention="paper"``, ``"beexai"``
        is ``convention="beexai_code"``.

        .. deprecated:: 0.1
           Pass ``convention`` instead; ``variant`` will be removed in 0.2.

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Per-row correlations in [-1, 1] (NaN, with a warning, where either
        side is constant); a float for ``convention="beexai_code"``.
        Greater is better.

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
    convention = _beexai_convention(
        convention, variant, {"bhatt": "paper", "beexai": "beexai_code"},
        "faithfulness_correlation")
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    if subset_size is None:
        s = max(int(np.floor(0.2 * d)), 1)
    elif isinstance(subset_size, numbers.Integral):
        s = int(subset_size)
    else:
        s = resolve_k(float(subset_size), d, rounding="floor")
    if s >= d:
        raise ValueError(
            f"faithfulness_correlation needs subset_size < n_features: got "
            f"subset_size={subset_size} (s={s}) with {d} features; removing every "
            f"feature leaves one subset with nothing to correlate. Pass "
            f"subset_size at most {d - 1}."
        )
    code = convention == "beexai_code"
    if absolute is None:
        absolute = code and f.output == "predict"
    entropy = seed_entropy(random_state)  # one seed for subsets and masker
    if not code:
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
    rngs = None if masker.is_deterministic else keyed_streams(X, entropy)
    fx, values = _with_x(f, masker, X, ~removed, batch_size, rngs)
    drop = fx[:, None] - values
    if absolute:
        drop = np.abs(drop)
    if code:
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


def _beexai_regression_curve(mse):
    """BEExAI's regression curve of AUC-TP from ``MSE_t``, ``t = 0..d-1``.

    ``c = MSE + 0.01 mean(MSE)``; the slope indicator ``I_t`` is 1 for an
    interior point (``1 <= t <= d-2``) where the curve rises across it,
    ``c_{t+1} > c_{t-1}`` (BEExAI's central difference over the ratios
    ``r_t = 1 - 1/t``, which increase, so only the sign of the MSE
    difference counts), and 0 at both end points; ``g = I / c``, min-max
    normalised with BEExAI's ``1e-8`` added to the range.
    """
    c = mse + 0.01 * mse.mean()
    rises = np.zeros(c.shape, dtype=bool)
    rises[1:-1] = c[2:] > c[:-2]
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(rises, 1.0 / c, 0.0)
    return (g - g.min()) / (g.max() - g.min() + 1e-8)


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "absolute"},
        **_CONVENTION_BEEXAI,
        "metric": [StrOptions({"accuracy", "flip_rate"})],
        "random_state": ["random_state"],
        "variant": [StrOptions({"atanasova", "beexai_regression"}),
                    Hidden(StrOptions({DEPRECATED}))],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "attributions", "X_train", "output", "batch_size",
              removal_masker=_DOC_REMOVAL_MASKER)
def auc_tp(estimator, X, attributions, *, masker=None, X_train=None, order_by="abs",
           metric="accuracy", convention="paper", random_state=None,
           target="predicted", output="auto", batch_size=None, variant=DEPRECATED):
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
      changed; lower is better).  ``convention="beexai_code"`` follows
      BEExAI's code (``auc_tp.py``): ``c_t = MSE_t + 0.01 mean(MSE)``, a
      slope indicator ``I_t`` = 1 where the curve rises across an interior
      point (``c_{t+1} > c_{t-1}``, ``1 <= t <= d-2``) and 0 at both end
      points, ``P_t = I_t / c_t``, min–max normalised (``1e-8`` added to
      the range), ``trapz / d``.

    With a multi-draw masker (marginal, conditional) the ablated output is
    the mean over draws (of the probability vector for classifiers).

    Parameters
    ----------
    {estimator}
    X : array-like of shape (n_samples, n_features)
        The explained rows (the score depends on all of them).
    {attributions}
    {removal_masker}
    {X_train}
    order_by : {"abs", "signed"}, default="abs"
        Rank features by magnitude or by signed value.
    metric : {"accuracy", "flip_rate"}, default="accuracy"
        Performance of a classifier's ablated predictions (ignored for
        regressors).
    convention : {"paper", "beexai_code"}, default="paper"
        Regression curve, see above (ignored for classifiers).
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    target : "predicted", int or label, default="predicted"
        Explained class (only used by the masker's value function).
    {output}
    {batch_size}
    variant : {"atanasova", "beexai_regression"}
        Former switch: ``"atanasova"`` is ``convention="paper"``,
        ``"beexai_regression"`` is ``convention="beexai_code"``.

        .. deprecated:: 0.1
           Pass ``convention`` instead; ``variant`` will be removed in 0.2.

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
    convention = _beexai_convention(
        convention, variant, {"atanasova": "paper", "beexai_regression": "beexai_code"},
        "auc_tp")
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    d = X.shape[1]
    regression = f.output == "predict"
    rngs = None if masker.is_deterministic else keyed_streams(X, random_state)
    if regression and convention == "beexai_code":
        P = _beexai_regression_curve(
            _performance_curve(f, masker, X, A, order_by, batch_size, "mse", rngs))
    else:
        P = _performance_curve(f, masker, X, A, order_by, batch_size,
                               "accuracy" if regression else metric, rngs)
    return float(np.trapezoid(P) / d) if d > 1 else float(P[0])


@fast_validate_params(
    {
        **_MODEL_PARAMS,
        **_CONVENTION_BEEXAI,
        "random_state": ["random_state"],
        "variant": [StrOptions({"insertion", "beexai"}), Hidden(StrOptions({DEPRECATED}))],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "attributions", "X_train", "target", "output",
              "batch_size", order_by=_DOC_ORDER_BY)
def monotonicity(estimator, X, attributions, *, masker=None, X_train=None,
                 order_by="abs", convention="paper", absolute=None, random_state=None,
                 target="predicted", output="auto", batch_size=None,
                 variant=DEPRECATED):
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
    {estimator}
    X : array-like of shape (n_samples, n_features)
        The explained rows (at least two features).
    {attributions}
    masker : masker, default=None
        The baseline the features are inserted into; ``None`` is
        ``BaselineMasker("zero")`` (BEExAI).  Any masker works; a fitted one
        is used as is, an unfitted one is fitted on ``X_train``.
    {X_train}
    {order_by}
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: one score per row (above).  ``"beexai_code"``: BEExAI's
        code, one float: the curve ``c_0 = f(b)``, ``c_t = f(x) - v_x(K_t)``
        for ``t >= 1`` (absolute value for regression), averaged over rows
        before differencing, then the fraction of ``t`` with
        ``Δc_t <= Δc_{t+1}``.
    absolute : bool or None, default=None
        Only for ``convention="beexai_code"``: absolute differences;
        ``None`` does so for regression outputs.
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    {target}
    {output}
    {batch_size}
    variant : {"insertion", "beexai"}
        Former switch: ``"insertion"`` is ``convention="paper"``,
        ``"beexai"`` is ``convention="beexai_code"``.

        .. deprecated:: 0.1
           Pass ``convention`` instead; ``variant`` will be removed in 0.2.

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Fractions in [0, 1] (multiples of ``1/(d-1)``); a float for
        ``convention="beexai_code"``.  Greater is better.

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
    convention = _beexai_convention(
        convention, variant, {"insertion": "paper", "beexai": "beexai_code"},
        "monotonicity")
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    if d < 2:
        raise ValueError("monotonicity needs at least two features.")
    keep = _insertion_keep(A, order_by)
    rngs = None if masker.is_deterministic else keyed_streams(X, random_state)
    _, g = _with_x(f, masker, X, keep, batch_size, rngs)
    if convention == "paper":
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


# ======================================================================
# XAI-Bench's faith± and mono±: value functions from maskers
# ======================================================================
def _xai_bench_value_masker(X, distribution, masker, value, n_draws, random_state,
                            X_train, convention):
    """The value masker of faith± / mono±.

    Under ``convention="xai_bench_code"`` an observational value from
    ``distribution`` is estimated as XAI-Bench's code does: every coalition
    of a row from its own, independent sample of ``n_draws`` conditional
    draws (``ConditionalMasker(draws="per_coalition")``).  XAI-Bench calls
    its generator afresh for every value (``custom_metrics/monotonicity.py``
    and ``faithfulness.py``), so the Monte-Carlo errors of two values are
    independent; with the index bug of mono± the last steps compare two
    estimates of nearly the same value, and that noise decides the
    comparison.  Otherwise the rows' draws are shared by their coalitions.
    """
    if (convention == "xai_bench_code" and masker is None and distribution is not None
            and value == "observational"):
        _check_distribution(distribution, X.shape[1])
        masker, distribution = ConditionalMasker(
            distribution, n_draws, draws="per_coalition"), None
    return _value_masker(X, distribution, masker, value, n_draws, random_state, X_train)


def _faith(estimator, X, attributions, *, add, distribution, masker, value,
           n_draws, use_abs, empty_value, nan_policy, convention, random_state,
           target, output, batch_size, X_train=None):
    X, A, f = _value_inputs(estimator, X, attributions, target, output, batch_size)
    vm = _xai_bench_value_masker(X, distribution, masker, value, n_draws,
                                 random_state, X_train, convention)
    d = X.shape[1]
    eye = np.eye(d, dtype=bool)
    if add:
        with_empty = empty_value == "expected"
        keep = np.vstack([np.zeros((1, d), dtype=bool), eye]) if with_empty else eye
        fx, V = _values_with_x(f, X, keep, vm, random_state, batch_size)
        v0 = V[:, 0] if with_empty else np.full(len(X), fx.mean())
        delta = np.abs(V[:, -d:] - v0[:, None])
    else:
        fx, V = _values_with_x(f, X, ~eye, vm, random_state, batch_size)
        delta = np.abs(V - fx[:, None])
    weights = np.abs(A) if use_abs else A
    return row_pearson(delta, weights, nan_policy=nan_policy,
                       what="faith_plus" if add else "faith_minus")


def _importance_order(A, ascending, convention="paper"):
    """Feature order by |a|: ascending (least important first) or descending.

    Ties are broken by the lower column index in both directions, except
    that with ``convention="xai_bench_code"`` the descending order is the
    ascending one reversed (XAI-Bench's ``np.argsort(|a|)[::-1]``), ties by
    the higher index.
    """
    if ascending:
        return np.argsort(np.abs(A), axis=1, kind="stable")
    return magnitude_order(A, ties=_code_ties(convention))


def _code_ties(convention):
    """Tie order of a descending feature order under ``convention``."""
    return "higher_first" if convention == "xai_bench_code" else "lower_first"


def _monotone_fraction(v, ascending, avg):
    """Score a curve ``v`` (n, d+1) of values after adding 0..d features."""
    deltas = np.abs(np.diff(v, axis=1))
    if ascending:
        ok = deltas[:, :-1] <= deltas[:, 1:]
    else:
        ok = deltas[:, :-1] >= deltas[:, 1:]
    return ok.mean(axis=1) if avg else ok.all(axis=1).astype(np.float64)


def _mono(estimator, X, attributions, *, ascending, distribution, masker, value,
          n_draws, empty_value, avg, convention, random_state, target, output,
          batch_size, X_train=None):
    X, A, f = _value_inputs(estimator, X, attributions, target, output, batch_size)
    n, d = X.shape
    if d < 2:
        raise ValueError("Monotonicity needs at least 2 features.")
    vm = _xai_bench_value_masker(X, distribution, masker, value, n_draws,
                                 random_state, X_train, convention)
    pos = positions(_importance_order(A, ascending, convention))
    # Coalition t (t = 1..d-1) keeps the first t features of the order.
    keep = pos[:, None, :] < np.arange(1, d)[None, :, None]
    with_empty = empty_value == "expected"
    if with_empty:
        keep = np.concatenate([np.zeros((n, 1, d), dtype=bool), keep], axis=1)
    fx, V = _values_with_x(f, X, keep, vm, random_state, batch_size)
    v0 = V[:, 0] if with_empty else np.full(n, fx.mean())
    v = np.column_stack([v0, V[:, -(d - 1):], fx])
    if convention == "xai_bench_code":
        # XAI-Bench stores the value after adding feature j at position j + 1.
        v = np.column_stack([v[:, 0], np.take_along_axis(v[:, 1:], pos, axis=1)])
    return _monotone_fraction(v, ascending, avg)


_VALUE_PARAMS = {
    **_BASE_PARAMS,
    "distribution": [None, object],
    "masker": [None, object],
    "X_train": ["array-like", None],
    "value": [StrOptions({"observational", "interventional"})],
    "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
    "n_samples": _DEPRECATED_N_SAMPLES,
}
_FAITH_PARAMS = {**_VALUE_PARAMS, **_NAN_POLICY, **_EMPTY_VALUE,
                 **_CONVENTION_XAI_BENCH, "use_abs": ["boolean"]}
_MONO_PARAMS = {**_VALUE_PARAMS, **_EMPTY_VALUE, **_CONVENTION_XAI_BENCH,
                "avg": ["boolean"], "xai_bench_index_bug": _DEPRECATED_SWITCH}

_VALUE_DOCS = dict(
    value="""
value : {"observational", "interventional"}, default="observational"
    With ``distribution``: ``E[f(X) | X_S = x_S]`` through a
    :class:`~sklearn_xai.masking.ConditionalMasker` (XAI-Bench; closed
    form for affine regressors), or ``E_Z[f(x_S ⊕ Z_U)]`` with a
    background of ``n_draws`` rows drawn from the distribution.  Ignored
    when ``masker`` is given.""",
    n_draws="""
n_draws : int, default=100
    Draws from ``distribution`` per row and coalition (XAI-Bench: 100).""",
    empty_value="""
empty_value : {"expected", "explained_mean"}, default="expected"
    ``v_x(∅)`` (faith+, mono±; unused by faith−): the expected output
    ``E[f(X)]`` from the value function, or XAI-Bench's mean prediction
    over the explained rows (its code).""",
)
_VALUE_SHARED = ("estimator", "X", "attributions", "X_train", "random_state",
                 "target", "output", "batch_size", "value_distribution",
                 "value_masker", "n_samples")
_FAITH_DOCS = dict(
    _VALUE_DOCS,
    use_abs="""
use_abs : bool, default=True
    Correlate the output changes (magnitudes) with ``|a|`` (XAI-Bench's
    code and tables).  ``False`` uses the signed attributions, the
    papers' literal formula, which penalises correct negative
    attributions.""",
    faith_convention="""
convention : {"paper", "xai_bench_code"}, default="paper"
    ``"xai_bench_code"`` estimates every value with ``distribution`` as
    XAI-Bench's code does, from its own conditional sample of ``n_draws``
    rows (``ConditionalMasker(draws="per_coalition")``) instead of one
    block of draws shared by a row's coalitions; only for reproducing its
    tables (:ref:`def-switches-xaibench`).  No effect with ``masker`` or
    ``value="interventional"``.""",
)
_MONO_DOCS = dict(
    _VALUE_DOCS,
    avg="""
avg : bool, default=True
    Fraction of the ``d - 1`` consecutive steps that satisfy the
    condition; ``False`` gives 1 only when all of them do.""",
    mono_convention="""
convention : {"paper", "xai_bench_code"}, default="paper"
    ``"xai_bench_code"`` reproduces XAI-Bench's code, which stores the
    value after adding feature ``j`` at position ``j + 1`` of the curve
    (so the test runs in feature-index order) and estimates every value
    with ``distribution`` from its own conditional sample of ``n_draws``
    rows (``ConditionalMasker(draws="per_coalition")``; the default
    shares one block of draws between a row's coalitions); only for
    reproducing its tables (:ref:`def-switches-xaibench`).""",
    xai_bench_index_bug="""
xai_bench_index_bug : bool
    Former switch of ``convention="xai_bench_code"``.

    .. deprecated:: 0.1
       Pass ``convention="xai_bench_code"`` instead; ``xai_bench_index_bug``
       will be removed in 0.2.""",
)


@fast_validate_params(_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, "nan_policy", **_FAITH_DOCS)
def faith_minus(estimator, X, attributions, *, distribution=None, masker=None,
                X_train=None, value="observational", n_draws=100, use_abs=True,
                empty_value="expected", nan_policy="omit", convention="paper",
                random_state=None, target="predicted", output="auto", batch_size=None,
                n_samples=DEPRECATED):
    """Faithfulness by removal (XAI-Bench faith−): does removing a feature
    change the output in proportion to its attribution?

    ``Δ_j = |v_x([d] \\ {j}) - f(x)|`` and ``faith− = Pearson(Δ, |a|)`` per
    row.  Costs ``d * n_draws`` model rows per row.  See :ref:`def-faith`
    in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {value_distribution}
    {value_masker}
    {X_train}
    {value}
    {n_draws}
    {use_abs}
    {empty_value}
    {nan_policy}
    {faith_convention}
    {random_state}
    {target}
    {output}
    {batch_size}
    {n_samples}

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
    n_draws = renamed(n_samples, n_draws, old="n_samples", new="n_draws", default=100,
                      owner="faith_minus", stacklevel=4)
    return _faith(estimator, X, attributions, add=False, distribution=distribution,
                  masker=masker, value=value, n_draws=n_draws, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  convention=convention, random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


@fast_validate_params(_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, "nan_policy", **_FAITH_DOCS)
def faith_plus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_draws=100, use_abs=True,
               empty_value="expected", nan_policy="omit", convention="paper",
               random_state=None, target="predicted", output="auto", batch_size=None,
               n_samples=DEPRECATED):
    """Faithfulness by addition (XAI-Bench faith+): does knowing only one
    feature move the output in proportion to its attribution?

    ``Δ_j = |v_x({j}) - v_x(∅)|`` and ``faith+ = Pearson(Δ, |a|)`` per row
    (see :ref:`def-faith` in the user guide).  Costs ``(d + 1) * n_draws``
    model rows per row.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {value_distribution}
    {value_masker}
    {X_train}
    {value}
    {n_draws}
    {use_abs}
    {empty_value}
    {nan_policy}
    {faith_convention}
    {random_state}
    {target}
    {output}
    {batch_size}
    {n_samples}

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
    n_draws = renamed(n_samples, n_draws, old="n_samples", new="n_draws", default=100,
                      owner="faith_plus", stacklevel=4)
    return _faith(estimator, X, attributions, add=True, distribution=distribution,
                  masker=masker, value=value, n_draws=n_draws, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  convention=convention, random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


@fast_validate_params(_MONO_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, **_MONO_DOCS)
def mono_minus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_draws=100,
               empty_value="expected", avg=True, convention="paper",
               random_state=None, target="predicted", output="auto", batch_size=None,
               n_samples=DEPRECATED, xai_bench_index_bug=DEPRECATED):
    """Monotonicity, least important first (XAI-Bench mono−).

    Features are added in *ascending* order of ``|a|``; with ``v_t`` the
    value after ``t`` features (``v_0 = v_x(∅)``, ``v_d = f(x)``) and
    ``δ_t = v_{t+1} - v_t``, the score is the fraction of steps with
    ``|δ_t| <= |δ_{t+1}|``: a faithful ranking makes each added feature
    matter more than the previous one.  Costs ``d * n_draws`` model rows
    per row.  See :ref:`def-mono` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {value_distribution}
    {value_masker}
    {X_train}
    {value}
    {n_draws}
    {empty_value}
    {avg}
    {mono_convention}
    {random_state}
    {target}
    {output}
    {batch_size}
    {n_samples}
    {xai_bench_index_bug}

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
    n_draws = renamed(n_samples, n_draws, old="n_samples", new="n_draws", default=100,
                      owner="mono_minus", stacklevel=4)
    convention = switch_to_convention(
        convention, {"xai_bench_index_bug": (xai_bench_index_bug, "xai_bench_code")},
        owner="mono_minus", stacklevel=4)
    return _mono(estimator, X, attributions, ascending=True, distribution=distribution,
                 masker=masker, value=value, n_draws=n_draws,
                 empty_value=empty_value, avg=avg, convention=convention,
                 random_state=random_state, target=target, output=output,
                 batch_size=batch_size, X_train=X_train)


@fast_validate_params(_MONO_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, **_MONO_DOCS)
def mono_plus(estimator, X, attributions, *, distribution=None, masker=None,
              X_train=None, value="observational", n_draws=100,
              empty_value="expected", avg=True, convention="paper",
              random_state=None, target="predicted", output="auto", batch_size=None,
              n_samples=DEPRECATED, xai_bench_index_bug=DEPRECATED):
    """Monotonicity, most important first (XAI-Bench mono+).

    Features are added in *descending* order of ``|a|``; the score is the
    fraction of steps with ``|δ_t| >= |δ_{t+1}|`` (diminishing returns).
    Both XAI-Bench texts print "<=" here, which would reward a reversed
    ranking; its code, and this function, use ">=".  Costs
    ``d * n_draws`` model rows per row.  See :ref:`def-mono` in the user
    guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    {value_distribution}
    {value_masker}
    {X_train}
    {value}
    {n_draws}
    {empty_value}
    {avg}
    {mono_convention}
    {random_state}
    {target}
    {output}
    {batch_size}
    {n_samples}
    {xai_bench_index_bug}

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
    n_draws = renamed(n_samples, n_draws, old="n_samples", new="n_draws", default=100,
                      owner="mono_plus", stacklevel=4)
    convention = switch_to_convention(
        convention, {"xai_bench_index_bug": (xai_bench_index_bug, "xai_bench_code")},
        owner="mono_plus", stacklevel=4)
    return _mono(estimator, X, attributions, ascending=False, distribution=distribution,
                 masker=masker, value=value, n_draws=n_draws,
                 empty_value=empty_value, avg=avg, convention=convention,
                 random_state=random_state, target=target, output=output,
                 batch_size=batch_size, X_train=X_train)


# Every XAI-Bench metric evaluates a value function (the distribution, or a
# masker fitted on the training rows instead) with random draws.
_NEEDS_VALUE = ("masker", "distribution", "training_rows", "random_state")
for _name, _func, _desc in [
    ("faith_minus", faith_minus,
     "Correlation of |a| with the output change when each feature is removed."),
    ("faith_plus", faith_plus,
     "Correlation of |a| with the output change when only each feature is known."),
    ("mono_minus", mono_minus,
     "Fraction of steps where adding features in ascending |a| matters more."),
    ("mono_plus", mono_plus,
     "Fraction of steps where adding features in descending |a| matters less."),
]:
    register_metric(_name, _func, kind="model", greater_is_better=True,
                    requires=_NEEDS_VALUE, source="XAI-Bench", description=_desc)
