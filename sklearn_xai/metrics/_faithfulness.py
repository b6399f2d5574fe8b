"""Predictive faithfulness without a reference: what happens to the model's
output when the features an explanation calls important are removed or kept
(BEExAI / ERASER, SPEC 4.2)."""

import functools
import inspect
import numbers
import warnings

import numpy as np
from sklearn import get_config
from sklearn.utils._param_validation import (
    Interval,
    StrOptions,
    make_constraint,
    validate_parameter_constraints,
)

from sklearn_xai.masking._base import check_masker
from sklearn_xai.masking._baseline import BaselineMasker
from sklearn_xai.metrics._ground_truth import _positions
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._output import BLOCK_ENTRIES, ExplainedOutput
from sklearn_xai.utils._random import RowStreams, row_generators, row_keys, seed_entropy
from sklearn_xai.utils._validation import (
    check_attributions,
    magnitude_order,
    resolve_k,
    top_k_mask,
)

__all__ = [
    "auc_tp",
    "comprehensiveness",
    "faithfulness_correlation",
    "monotonicity",
    "sufficiency",
]

# Upper bound on the number of float64 entries of one block of model inputs
# when no batch_size is given: one model call per block of rows, of the size
# ExplainedOutput uses (moderate blocks keep the model's own intermediate
# arrays in cache).
_BLOCK_ENTRIES = BLOCK_ENTRIES


def validate_params(parameter_constraints, *, prefer_skip_nested_validation=True):
    """scikit-learn's ``validate_params`` with the checks prepared once.

    The same constraints and error messages, at a fraction of the cost per
    call (which matters for metrics scored on a few hundred model rows): the
    signature is read once, constraint objects are built once, parameters
    constrained only by ``object`` are not checked, and only the arguments
    actually passed are checked (the defaults satisfy their constraints, which
    ``tests/metrics`` verifies).  A value that satisfies none of its
    constraints is handed to scikit-learn, which raises its usual error.
    Honours ``sklearn.config_context(skip_parameter_validation=True)``.
    """

    def decorator(func):
        func._skl_parameter_constraints = parameter_constraints
        sig = inspect.signature(func)
        positional = [
            p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        compiled = {
            name: [make_constraint(c) for c in constraints]
            for name, constraints in parameter_constraints.items()
            if constraints != "no_validation" and object not in constraints
        }

        def check(name, value):
            constraints = compiled.get(name)
            return constraints is None or any(
                c.is_satisfied_by(value) for c in constraints)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if not get_config()["skip_parameter_validation"]:
                if len(args) > len(positional) or not (
                    all(check(name, value) for name, value in zip(positional, args))
                    and all(check(name, value) for name, value in kwargs.items())
                ):
                    bound = sig.bind(*args, **kwargs)
                    bound.apply_defaults()
                    validate_parameter_constraints(
                        parameter_constraints, bound.arguments,
                        caller_name=func.__qualname__)
            return func(*args, **kwargs)

        return wrapper

    return decorator


# Parameters every model-based metric takes, with their constraints.
_BASE_PARAMS = {
    "estimator": [object],
    "X": ["array-like"],
    "attributions": ["array-like"],
    "target": [object],
    "output": [StrOptions({"auto", "proba", "decision", "predict"})],
    "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
}


def _prepare(estimator, X, attributions, masker, target, output, batch_size):
    """Validated inputs shared by the model-based metrics."""
    X = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}.")
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    if masker is None:
        # The default zero baseline needs no statistics: build it fitted
        # rather than paying for data validation on every call.
        masker = BaselineMasker("zero")
        masker.baseline_ = np.zeros(X.shape[1])
        masker.n_features_in_ = X.shape[1]
    else:
        masker = check_masker(masker, X)
    return X, A, f, masker


def _row_rngs(X, random_state, seed_policy="row"):
    """One generator per row (SPEC 1.7), for stochastic maskers: keyed by the
    row's content ("row") or by its position in ``X`` ("openxai")."""
    return row_generators(random_state, _keys(X, seed_policy))


def _row_streams(X, random_state, seed_policy="row"):
    """Vectorised per-row streams with the keys of :func:`_row_rngs`."""
    return RowStreams(random_state, _keys(X, seed_policy))


def _keys(X, seed_policy):
    return row_keys(X) if seed_policy == "row" else np.arange(X.shape[0])


def _block_slices(n_rows, per_row, n_features, batch_size):
    """Slices of rows whose ``per_row`` model inputs form one block.

    A block holds at most ``batch_size`` model rows (at least one explained
    row), or about ``_BLOCK_ENTRIES`` float64 entries when ``batch_size`` is
    None.  Results never depend on the block size: each row's draws come from
    its own stream.
    """
    cap = batch_size or max(_BLOCK_ENTRIES // max(n_features, 1), 1)
    step = max(1, cap // max(per_row, 1))
    return [slice(s, s + step) for s in range(0, n_rows, step)]


def _raw_scores(f, Z):
    """Model scores of ``Z``: (m,) for regression, (m, n_classes) otherwise."""
    raw = f._raw(Z)
    if f.output == "predict" and raw.ndim == 2:
        if raw.shape[1] != 1:
            raise ValueError(
                "Multi-output regressors are not supported: the explained output "
                "must be one scalar per row."
            )
        raw = raw[:, 0]
    return raw


def _given_target(f, X):
    """Class index per row when it does not depend on the model's output at
    ``X`` (an explicit target); None for "predicted" and for regression."""
    if f.output == "predict" or (isinstance(f.target, str)
                                 and f.target == "predicted"):
        return None
    return f.target_index(X)


def _select(raw, t):
    """Explained scalar of scores ``raw`` (c, ...[, n_classes]) for the class
    ``t`` (c,) of each row; ``raw`` itself for regression (``t`` None)."""
    if t is None:
        return raw
    rows = np.arange(len(t))
    if raw.ndim == 2:
        return raw[rows, t]
    flat = raw.reshape(len(t), -1, raw.shape[-1])
    return flat[rows, :, t].reshape(raw.shape[:-1])


def _blocks_with_x(f, X, per_row, batch_size, build, given_target=None):
    """Evaluate each block of rows and their derived inputs in one model call.

    For every block ``sl`` of explained rows, ``build(sl, out)`` writes the
    ``per_row`` model inputs of each row into ``out``, shape (c, per_row, d);
    the model sees ``X[sl]`` followed by them in one call (split only by
    ``batch_size``), from one buffer filled in place.
    Yields ``(sl, t, raw_x, raw_z)``: the explained class per row (from the
    model's output at ``X[sl]`` for ``target="predicted"``, else
    ``given_target[sl]``; None for regression), the scores at ``X[sl]`` and
    the scores of the derived inputs, shape (c, per_row[, n_classes]).
    """
    n, d = X.shape
    for sl in _block_slices(n, per_row + 1, d, batch_size):
        Xs = X[sl]
        c = Xs.shape[0]
        buf = np.empty((c * (per_row + 1), d))
        buf[:c] = Xs
        build(sl, buf[c:].reshape(c, per_row, d))
        raw = _raw_scores(f, buf)
        raw_x, raw_z = raw[:c], raw[c:].reshape((c, per_row) + raw.shape[1:])
        if f.output == "predict":
            t = None
        elif given_target is not None:
            t = given_target[sl]
        else:
            t = raw_x.argmax(axis=1).astype(np.intp)
        yield sl, t, raw_x, raw_z


def _masked_scores(f, masker, X, keep, batch_size, rngs, raw=False):
    """Scores at ``X`` and of its masked copies, averaged over the draws.

    Returns ``(t, fx, values)``: the explained class per row, ``f(x)`` (n,)
    and the value function ``v_x(S)`` (n, m) for the coalitions ``keep``
    (n, m, d).  With ``raw=True``, ``fx`` and ``values`` are the full scores
    (n[, n_classes]) and (n, m[, n_classes]), from which labels are read.
    Every block of rows is evaluated in one model call, ``X`` included.
    """
    n, m, d = keep.shape
    b = masker.n_draws
    stochastic = not masker.is_deterministic and rngs is not None
    given = _given_target(f, X)
    t_all = None if f.output == "predict" else np.empty(n, dtype=np.intp)
    fx = values = None

    # _prepare checked the masker and X; keep is built here.  A stochastic
    # masker without generators goes through the checks (and their error).
    check = not (keep.dtype == bool and keep.ndim == 3
                 and (masker.is_deterministic or rngs is not None))

    def build(sl, out):
        out[...] = masker.impute(X[sl], keep[sl], rngs=rngs[sl] if stochastic else None,
                                 check_input=check).reshape(out.shape)

    for sl, t, raw_x, raw_z in _blocks_with_x(f, X, m * b, batch_size, build, given):
        if b > 1:
            raw_z = raw_z.reshape((raw_z.shape[0], m, b) + raw_z.shape[2:]).mean(axis=2)
        if not raw:
            raw_x, raw_z = _select(raw_x, t), _select(raw_z, t)
        if fx is None:
            fx = np.empty((n,) + raw_x.shape[1:])
            values = np.empty((n,) + raw_z.shape[1:])
        fx[sl], values[sl] = raw_x, raw_z
        if t is not None:
            t_all[sl] = t
    return t_all, fx, values


def _pearson_rows(u, v):
    """Pearson correlation of the rows of ``u`` and ``v``; NaN when constant."""
    u = u - u.mean(axis=-1, keepdims=True)
    v = v - v.mean(axis=-1, keepdims=True)
    den = np.sqrt((u * u).sum(axis=-1) * (v * v).sum(axis=-1))
    num = (u * v).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return np.clip(r, -1.0, 1.0)


def _insertion_keep(A, order_by):
    """Keep masks (n, d + 1, d): step ``t`` keeps the top-``t`` features."""
    rank = _positions(magnitude_order(A, order_by=order_by))
    return rank[:, None, :] < np.arange(A.shape[1] + 1)[None, :, None]


def _warn_nan(scores, what):
    n_nan = int(np.isnan(scores).sum())
    if n_nan:
        warnings.warn(
            f"{what} is undefined for {n_nan} of {scores.size} rows (constant "
            "input to a correlation); they are NaN in the result (omitted by "
            "the scorers' nanmean).",
            RuntimeWarning,
            stacklevel=3,
        )
    return scores


def _top_k_keep(A, ratios, *, order_by, rounding, keep_top):
    """Coalitions (n, len(ratios), d): keep the top-k (or all but the top-k)."""
    ks = [resolve_k(r, A.shape[1], rounding=rounding) for r in ratios]
    if len(ks) == 1:  # one cut: a partition beats a full sort
        top = top_k_mask(A, ks[0], order_by=order_by)[:, None, :]
    else:
        rank = _positions(magnitude_order(A, order_by=order_by))
        top = rank[:, None, :] < np.array(ks)[None, :, None]
    return top if keep_top else ~top


def _removal_scores(estimator, X, attributions, *, ratio, masker, order_by, rounding,
                    absolute, target, output, batch_size, keep_top):
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size)
    ratios = np.atleast_1d(np.asarray(ratio, dtype=object)).tolist()
    keep = _top_k_keep(A, ratios, order_by=order_by, rounding=rounding,
                       keep_top=keep_top)
    _, fx, values = _masked_scores(f, masker, X, keep, batch_size, None)
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
        (BEExAI).  An unfitted masker is fitted on ``X``; pass one fitted on
        training rows to avoid that.
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


@validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
def comprehensiveness(estimator, X, attributions, *, ratio=0.3, masker=None,
                      order_by="abs", rounding="floor", absolute=None,
                      target="predicted", output="auto", batch_size=None):
    """Comprehensiveness: output drop when the top features are removed.

    ``C(x) = f(x) - f(x_{T̄} ⊕ b_T)`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Greater is better.

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
                           keep_top=False)


@validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
def sufficiency(estimator, X, attributions, *, ratio=0.3, masker=None,
                order_by="abs", rounding="floor", absolute=None,
                target="predicted", output="auto", batch_size=None):
    """Sufficiency: output drop when only the top features are kept.

    ``S(x) = f(x) - f(x_T ⊕ b_{T̄})`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better.

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
                           keep_top=True)


comprehensiveness.__doc__ = comprehensiveness.__doc__.replace("{params}", _PARAM_DOC)
sufficiency.__doc__ = sufficiency.__doc__.replace("{params}", _PARAM_DOC)

register_metric(
    "comprehensiveness", comprehensiveness, kind="model", greater_is_better=True,
    requires=("masker",), seed="BEExAI",
    description="Output drop when the top features are removed.",
)
register_metric(
    "neg_sufficiency", sufficiency, kind="model", greater_is_better=False,
    requires=("masker",), seed="BEExAI",
    description="Output drop when only the top features are kept.",
)


_MODEL_PARAMS = {
    k: _COMMON_PARAMS[k]
    for k in ("estimator", "X", "attributions", "masker", "order_by", "absolute",
              "target", "output", "batch_size")
}


@validate_params(
    {
        **_MODEL_PARAMS,
        "n_subsets": [Interval(numbers.Integral, 2, None, closed="left")],
        "subset_size": [Interval(numbers.Integral, 1, None, closed="left"),
                        Interval(numbers.Real, 0, 1, closed="right"), None],
        "variant": [StrOptions({"bhatt", "beexai"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def faithfulness_correlation(estimator, X, attributions, *, n_subsets=20,
                             subset_size=None, masker=None, variant="bhatt",
                             absolute=None, random_state=None, target="predicted",
                             output="auto", batch_size=None):
    """Faithfulness correlation (Bhatt et al. 2020; BEExAI), SPEC 4.2.8.

    For each row, draw ``n_subsets`` feature subsets ``S_r`` of size ``s``
    without replacement, remove them with the masker, and correlate the
    attribution mass of each subset with the output drop:
    ``Pearson_r(sum_{j in S_r} a_j, f(x) - v_x([d] minus S_r))``.

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
        (BEExAI).  Any masker works (baseline, marginal, conditional); an
        unfitted one is fitted on ``X``.
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
                               batch_size)
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
        idx = _row_streams(X, entropy).permutations(d, n_subsets, n_chosen=s)
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
    rngs = None if masker.is_deterministic else _row_rngs(X, entropy)
    _, fx, values = _masked_scores(f, masker, X, ~removed, batch_size, rngs)
    drop = fx[:, None] - values
    if absolute:
        drop = np.abs(drop)
    if variant == "beexai":
        return float(_pearson_rows(mass.ravel(), drop.ravel()))
    return _warn_nan(_pearson_rows(mass, drop), "faithfulness_correlation")


def _performance_curve(f, masker, X, A, order_by, batch_size, metric, rngs):
    """P_t, t = 0..d-1, of predictions with the top-t features removed."""
    n, d = X.shape
    keep = ~_insertion_keep(A, order_by)[:, :d]  # remove top-t, t = 0..d-1
    _, original, removed_out = _masked_scores(f, masker, X, keep, batch_size, rngs,
                                              raw=True)
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


@validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "absolute"},
        "metric": [StrOptions({"accuracy", "flip_rate"})],
        "variant": [StrOptions({"atanasova", "beexai_regression"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def auc_tp(estimator, X, attributions, *, masker=None, order_by="abs",
           metric="accuracy", variant="atanasova", random_state=None,
           target="predicted", output="auto", batch_size=None):
    """Area under the threshold-performance curve (Atanasova et al. 2020;
    BEExAI), SPEC 4.2.10.  Dataset-level.

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
                               batch_size)
    d = X.shape[1]
    regression = f.output == "predict"
    rngs = None if masker.is_deterministic else _row_rngs(X, random_state)
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


@validate_params(
    {
        **_MODEL_PARAMS,
        "variant": [StrOptions({"insertion", "beexai"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def monotonicity(estimator, X, attributions, *, masker=None, order_by="abs",
                 variant="insertion", absolute=None, random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Insertion monotonicity (BEExAI), SPEC 4.2.11.

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
                               batch_size)
    n, d = X.shape
    if d < 2:
        raise ValueError("monotonicity needs at least two features.")
    keep = _insertion_keep(A, order_by)
    rngs = None if masker.is_deterministic else _row_rngs(X, random_state)
    _, _, g = _masked_scores(f, masker, X, keep, batch_size, rngs)
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
    greater_is_better=True, requires=("masker",), seed="BEExAI",
    description="Correlation of subset attribution mass with the output drop.",
)
register_metric(
    "neg_auc_tp", auc_tp, kind="model", greater_is_better=False, per_instance=False,
    requires=("masker",), seed="BEExAI",
    description="Area under the accuracy curve as top features are removed.",
)
register_metric(
    "monotonicity", monotonicity, kind="model", greater_is_better=True,
    requires=("masker",), seed="BEExAI",
    description="Fraction of non-increasing gains along the insertion curve.",
)
