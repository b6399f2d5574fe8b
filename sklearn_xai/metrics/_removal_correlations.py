"""Metrics that correlate attributions with output changes under removal:
does the output move, feature by feature or subset by subset, as the
attributions say?

* :func:`faithfulness_correlation` (Bhatt et al. 2020; BEExAI) and
  :func:`sensitivity_n` (Ancona et al. 2018): random subsets of features,
  correlation of their attribution mass with the output drop;
* :func:`faithfulness_estimate` (Alvarez-Melis and Jaakkola 2018): each
  feature (or group of features) removed alone, correlation of its
  attribution with the output drop;
* :func:`faith_minus` and :func:`faith_plus` (XAI-Bench's faith±,
  :ref:`def-faith`): the same with one feature removed, or known alone,
  through a value function (a masker, or a known distribution);
* :func:`monotonicity_correlation` (Nguyen and Martinez 2020): rank
  correlation of ``|a_i|`` with the spread of the output when feature ``i``
  is redrawn by a masker.

Every metric builds the coalitions of one block of rows at a time and
evaluates them in one batched pass (``_with_x_blocks`` and
``_values_with_x`` of ``_common.py``, or the rows' blocks of
:meth:`~sklearn_xai.utils.ExplainedOutput.blocks_with_x` where the metric
needs each draw's output): time and memory grow linearly with the rows,
and the coalitions, their model inputs and attribution masses hold one
block (8 model calls of about 2**17 input entries, or ``batch_size``
model rows).
Definitions: :ref:`def-removal-correlation` in the user guide.
"""

import numbers

import numpy as np

from sklearn_xai.masking import BaselineMasker, MarginalMasker, TokenMasker
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _CONVENTION_XAI_BENCH,
    _EMPTY_VALUE,
    _NAN_POLICY,
    _VALUE_PARAMS,
    _masker_streams,
    _prepare,
    _value_inputs,
    _values_with_x,
    _with_x_blocks,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.metrics._shared_removal import (
    _CONVENTION_BEEXAI,
    _DOC_REMOVAL_MASKER,
    _DOC_ZERO_MASKER,
    _MASKER_PARAMS,
    _MODEL_PARAMS,
    _NEEDS_VALUE,
    _VALUE_DOCS,
    _VALUE_SHARED,
    _xai_bench_value_masker,
)
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._random import keyed_streams, seed_entropy
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import handle_undefined, row_pearson, row_spearman
from sklearn_xai.utils._validation import magnitude_order, positions, resolve_k

__all__ = [
    "faith_minus",
    "faith_plus",
    "faithfulness_correlation",
    "faithfulness_estimate",
    "monotonicity_correlation",
    "sensitivity_n",
    "taucorr_loo",
]


_SHARED = ("X_train",)


def _steps(A, features_per_step, ascending):
    """Group index (n, d) of every feature: features ranked by signed value
    (descending, or ascending), ``features_per_step`` consecutive ones per
    group; and the number of groups."""
    d = A.shape[1]
    order = magnitude_order(-A if ascending else A, order_by="signed")
    group = positions(order) // features_per_step
    return group, -(-d // features_per_step)


def _check_step(features_per_step, d):
    if features_per_step > d:
        raise ValueError(
            f"features_per_step={features_per_step} exceeds the number of "
            f"features ({d}); pass at most {d}."
        )


# ----------------------------------------------------------------------
# sensitivity-n
# ----------------------------------------------------------------------
def _resolve_sizes(subset_sizes, d):
    if subset_sizes is None:
        sizes = np.arange(1, max(int(0.8 * d), 1) + 1)
    elif isinstance(subset_sizes, numbers.Integral):
        sizes = np.array([int(subset_sizes)])
    else:
        raw = np.atleast_1d(np.asarray(subset_sizes, dtype=np.float64))
        sizes = np.where(raw < 1, np.floor(raw * d), raw)
        if raw.ndim != 1 or np.any(raw <= 0) or np.any(sizes != np.round(sizes)):
            raise ValueError(
                "subset_sizes must be None, an int, or a list of positive ints "
                f"or fractions in (0, 1); got {subset_sizes!r}."
            )
        sizes = np.unique(np.maximum(sizes, 1).astype(int))
    if sizes.min() < 1 or sizes.max() >= d:
        raise ValueError(
            f"subset_sizes must lie in [1, n_features - 1] = [1, {d - 1}] (removing "
            f"all features leaves one subset only); got {subset_sizes!r}."
        )
    return sizes


@fast_validate_params(
    {
        **_BASE_PARAMS, **_MASKER_PARAMS, **_NAN_POLICY,
        "subset_sizes": [Interval(numbers.Integral, 1, None, closed="left"),
                         "array-like", None],
        "n_subsets": [Interval(numbers.Integral, 2, None, closed="left")],
        "convention": [StrOptions({"paper", "quantus_code"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, "random_state", masker=_DOC_ZERO_MASKER,
              metric_references=_references("ancona2018"),
              **_shared_docs("model_inputs", "output_params"))
def sensitivity_n(estimator, X, attributions, *, subset_sizes=None, n_subsets=100,
                  masker=None, X_train=None, convention="paper", nan_policy="omit",
                  random_state=None, target="predicted", output="auto",
                  batch_size=None):
    """Sensitivity-n (Ancona et al. 2018).

    For every subset size ``n`` and row ``x``, draw ``n_subsets`` random
    subsets ``S`` of ``n`` features, remove each with the masker, and take
    the Pearson correlation between the attribution mass ``sum_{i in S}
    a_i`` and the output drop ``f(x) - f(x_[S removed])``; the row's score
    is the mean of these correlations over the subset sizes.  An explanation
    satisfies sensitivity-n exactly when the correlation is 1.  See
    :ref:`def-sensitivity-n` in the user guide.

    Parameters
    ----------
    {model_inputs}
    subset_sizes : int, array-like of int or float, or None, default=None
        Subset sizes ``n``: ints, or fractions in (0, 1) of the features
        (rounded down, at least 1), each in ``[1, n_features - 1]``.
        ``None`` is ``1, ..., floor(0.8 n_features)`` (Quantus'
        ``n_max_percentage=0.8``).
    n_subsets : int, default=100
        Random subsets per size and row (the paper's 100).
    {masker}
    {X_train}
    convention : {"paper", "quantus_code"}, default="paper"
        ``"paper"``: random subsets per row, one correlation per row and
        size, averaged over the sizes (one score per row).
        ``"quantus_code"``: Quantus' ``SensitivityN``: step ``k`` removes
        the top ``k`` features by signed attribution (cumulatively), the
        drop is correlated with the attribution of the ``k``-th feature
        alone *across the rows* of ``X``, and the mean over the steps is
        returned (one float for the batch; ``subset_sizes`` and
        ``n_subsets`` are ignored).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A size where the drop or the mass is constant over the subsets has
        no correlation and is left out of the row's mean; a row with no
        size left is NaN with a warning (``"omit"``), 0 (``"zero"``) or
        raises (``"raise"``).
    {random_state}
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Mean correlations in [-1, 1]; greater is better.  A float for
        ``convention="quantus_code"``.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import sensitivity_n
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 6))
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0, 0.5, 0.0, 1.0])
    >>> exact = model.coef_ * X  # exact for the zero baseline
    >>> sensitivity_n(model, X[:3], exact[:3], n_subsets=10, random_state=0).round(6)
    array([1., 1., 1.])
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    entropy = seed_entropy(random_state)
    rngs = _masker_streams(masker, X, entropy)
    if convention == "quantus_code":
        order = magnitude_order(A, order_by="signed")
        steps = int(0.8 * d)
        rank = positions(order)
        ks = np.arange(1, steps + 1)[None, :, None]
        fx, values = _with_x_blocks(f, masker, X, steps,
                                    lambda sl: ~(rank[sl, None, :] < ks), batch_size, rngs)
        drop = (fx[:, None] - values).T
        mass = np.take_along_axis(A, order[:, :steps], axis=1).T
        return float(np.nanmean(row_pearson(mass, drop)))
    sizes = _resolve_sizes(subset_sizes, d)
    S, R = len(sizes), int(n_subsets)
    # Row i's subsets of size n: the first entries of partial random
    # permutations from the row's stream number n (so they do not depend on
    # the other sizes asked for); for n > d / 2 the kept d - n features are
    # drawn instead (fewer swaps).  One vectorised draw per size.
    streams = keyed_streams(X, entropy)
    mass = np.empty((n, S, R))

    def keep_of(sl):
        # The rows' subsets and their attribution mass, one block of rows
        # at a time (a row's draws come from its own streams).
        block = streams[sl]
        c = len(block)
        removed = np.zeros((c, S, R, d), dtype=bool)
        base = np.arange(c * S * R).reshape(c, S, R) * d
        for j, size in enumerate(sizes):
            drawn = min(size, d - size)
            idx = block.permutations(d, (R,), n_chosen=drawn, stream=int(size))
            flat = (base[:, j, :, None] + idx).reshape(-1)
            if drawn == size:
                removed.reshape(-1)[flat] = True
            else:
                removed[:, j] = True
                removed.reshape(-1)[flat] = False
        removed = removed.reshape(c, S * R, d)
        mass[sl] = np.matmul(removed, A[sl, :, None]).reshape(c, S, R)
        return ~removed

    fx, values = _with_x_blocks(f, masker, X, S * R, keep_of, batch_size, rngs)
    drop = fx[:, None, None] - values.reshape(n, S, R)
    r = row_pearson(mass, drop)  # (n, S)
    defined = ~np.isnan(r)
    count = defined.sum(axis=1)
    scores = np.where(defined, r, 0.0).sum(axis=1) / np.maximum(count, 1)
    return handle_undefined(scores, count == 0, nan_policy, what="sensitivity_n",
                            reason="constant attribution mass or output drop")


# ----------------------------------------------------------------------
# faithfulness estimate
# ----------------------------------------------------------------------
@fast_validate_params(
    {**_BASE_PARAMS, **_MASKER_PARAMS, **_NAN_POLICY,
     "features_per_step": [Interval(numbers.Integral, 1, None, closed="left")],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, "random_state", "nan_policy", masker=_DOC_ZERO_MASKER,
              metric_references=_references("alvarezmelis2018"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def faithfulness_estimate(estimator, X, attributions, *, features_per_step=1,
                          masker=None, X_train=None, nan_policy="omit",
                          random_state=None, target="predicted", output="auto",
                          batch_size=None):
    """Faithfulness estimate (Alvarez-Melis and Jaakkola 2018).

    Remove each feature alone (with the masker) and take the Pearson
    correlation, over the features, between its attribution ``a_i`` and
    the output drop ``f(x) - f(x_[i removed])``.  With
    ``features_per_step = k > 1`` the features are ranked by attribution
    and removed ``k`` consecutive ones at a time (the last group may be
    smaller), and a group's attribution is its sum.  See
    :ref:`def-faithfulness-estimate` in the user guide.

    Parameters
    ----------
    {model_inputs}
    features_per_step : int, default=1
        Features removed together (Quantus' ``features_in_step``).
    {masker}
    {X_train}
    {nan_policy}
    {random_state}
        Only used by a stochastic masker.
    {output_params}

    {returns_scores_greater}
        Correlations in [-1, 1].

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import faithfulness_estimate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 5))
    >>> model = LinearRegression().fit(X, X @ [5.0, 4.0, 3.0, 2.0, 1.0])
    >>> exact = model.coef_ * X
    >>> faithfulness_estimate(model, X[:3], exact[:3]).round(6)
    array([1., 1., 1.])
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    _check_step(features_per_step, d)
    group, m = _steps(A, features_per_step, ascending=False)
    steps = np.arange(m)[None, :, None]
    mass = np.empty((n, m))

    def keep_of(sl):
        removed = group[sl, None, :] == steps  # (c, m, d)
        mass[sl] = np.matmul(removed, A[sl, :, None])[..., 0]
        return ~removed

    fx, values = _with_x_blocks(f, masker, X, m, keep_of, batch_size,
                                _masker_streams(masker, X, random_state))
    r = row_pearson(mass, fx[:, None] - values)
    return handle_undefined(r, np.isnan(r), nan_policy, what="faithfulness_estimate",
                            reason="constant attributions or output drops")


# ----------------------------------------------------------------------
# monotonicity correlation
# ----------------------------------------------------------------------
def _default_redraw_masker(X_train, n_draws, random_state):
    if X_train is not None:
        return MarginalMasker(background=n_draws,
                              random_state=seed_entropy(random_state) % (2**32))
    return BaselineMasker("zero")


@fast_validate_params(
    {**_BASE_PARAMS, **_MASKER_PARAMS, **_NAN_POLICY,
     "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
     "features_per_step": [Interval(numbers.Integral, 1, None, closed="left")],
     "eps": [Interval(numbers.Real, 0, None, closed="left")],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, "random_state", "nan_policy",
              metric_references=_references("nguyen2020"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def monotonicity_correlation(estimator, X, attributions, *, masker=None, X_train=None,
                             n_draws=100, features_per_step=1, eps=1e-5,
                             nan_policy="omit", random_state=None, target="predicted",
                             output="auto", batch_size=None):
    """Monotonicity correlation (Nguyen and Martinez 2020).

    Redraw each feature ``i`` (the others keep their value) with the
    masker and measure how much the output moves,
    ``v_i = E[(f(x) - f(x'))^2] / f(x)^2`` over the masker's draws; the
    score is the Spearman correlation, over the features, between
    ``|a_i|`` and ``v_i``: a feature with a larger attribution should move
    the output more.  See :ref:`def-monotonicity-correlation` in the user
    guide.

    Parameters
    ----------
    {model_inputs}
    masker : masker, default=None
        How a feature is redrawn.  ``None`` is ``MarginalMasker(n_draws)``
        fitted on ``X_train`` (values of ``n_draws`` training rows: the
        feature's marginal law) and, without ``X_train``,
        ``BaselineMasker("zero")`` (one deterministic draw: ``v_i`` is the
        squared drop).  A fitted masker is used as is, an unfitted one is
        fitted on ``X_train``.
    {X_train}
    n_draws : int, default=100
        Background rows of the default masker (Quantus' ``nr_samples``);
        ignored when ``masker`` is given (its own draws are used).
    features_per_step : int, default=1
        Features redrawn together, ``k`` consecutive ones in the ranking by
        ``|a|`` (the group's attribution is the sum of their ``|a_i|``).
    eps : float, default=1e-5
        ``f(x)^2`` is not divided by where ``|f(x)| < eps`` (it does not
        change the correlation; kept for Quantus' scale of ``v_i``).
    {nan_policy}
    {random_state}
    {output_params}

    {returns_scores_greater}
        Rank correlations in [-1, 1].

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import monotonicity_correlation
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 5))
    >>> model = LinearRegression().fit(X, X @ [5.0, 4.0, 3.0, 2.0, 1.0])
    >>> exact = model.coef_ * X  # the drops to the zero baseline
    >>> monotonicity_correlation(model, X[:3], exact[:3]).round(6)
    array([1., 1., 1.])

    Redrawing each feature from the training rows instead:

    >>> s = monotonicity_correlation(model, X[:3], exact[:3], X_train=X,
    ...                              random_state=0)
    >>> bool(np.all(s > 0))
    True
    """
    if masker is None:
        masker = _default_redraw_masker(X_train, n_draws, random_state)
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output, batch_size,
                               X_train)
    n, d = X.shape
    _check_step(features_per_step, d)
    A = np.abs(A)
    group, m = _steps(A, features_per_step, ascending=True)
    steps = np.arange(m)[None, :, None]
    mass = np.empty((n, m))
    b = masker._draw_count()
    rngs = _masker_streams(masker, X, random_state)
    moved = np.empty((n, m))

    def build(sl, out):
        # The coalitions of one block of rows only (and their mass).
        removed = group[sl, None, :] == steps  # (c, m, d)
        mass[sl] = np.matmul(removed, A[sl, :, None])[..., 0]
        out[...] = masker.impute(X[sl], ~removed, rngs=None if rngs is None
                                 else rngs[sl], check_input=False).reshape(out.shape)

    for sl, t, raw_x, raw_z in f.blocks_with_x(X, m * b, build,
                                               target_index=f.fixed_target_index(X)):
        fx = f.select(raw_x, t)
        sq = (f.select(raw_z, t).reshape(-1, m, b) - fx[:, None, None]) ** 2
        w = masker._draw_weights(X[sl], group[sl, None, :] != steps)
        v = sq.mean(axis=2) if w is None else np.einsum("cmb,cmb->cm", w, sq)
        small = np.abs(fx) < eps
        moved[sl] = v / np.where(small, 1.0, fx * fx)[:, None]
    r = row_spearman(mass, moved)
    return handle_undefined(r, np.isnan(r), nan_policy,
                            what="monotonicity_correlation",
                            reason="constant attributions or output spread")


register_metric(
    "sensitivity_n", sensitivity_n, kind="model", greater_is_better=True,
    requires=("masker", "training_rows", "random_state"), source="Quantus",
    description="Correlation of random subsets' attribution mass with the "
                "output drop, averaged over subset sizes.",
)

register_metric(
    "faithfulness_estimate", faithfulness_estimate, kind="model",
    greater_is_better=True, requires=("masker", "training_rows", "random_state"),
    source="Quantus",
    description="Correlation of each feature's attribution with the output drop "
                "when it alone is removed.",
)

register_metric(
    "monotonicity_correlation", monotonicity_correlation, kind="model",
    greater_is_better=True, requires=("masker", "training_rows", "random_state"),
    source="Quantus",
    description="Rank correlation of |attribution| with the output spread when "
                "the feature is redrawn.",
)


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "order_by"},
        **_CONVENTION_BEEXAI,
        "n_subsets": [Interval(numbers.Integral, 2, None, closed="left")],
        "subset_size": [Interval(numbers.Integral, 1, None, closed="left"),
                        Interval(numbers.Real, 0, 1, closed="neither"), None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("X_train", "random_state", removal_masker=_DOC_REMOVAL_MASKER,
              metric_references=_references("bhatt2020", "sithakoul2024"),
              **_shared_docs("model_inputs", "output_params"))
def faithfulness_correlation(estimator, X, attributions, *, n_subsets=20,
                             subset_size=None, masker=None, X_train=None,
                             convention="paper", absolute=None, random_state=None,
                             target="predicted", output="auto", batch_size=None):
    """Faithfulness correlation (Bhatt et al. 2020; BEExAI).

    For each row, draw ``n_subsets`` feature subsets ``S_r`` of size ``s``
    without replacement, remove them with the masker, and correlate the
    attribution mass of each subset with the output drop:
    ``Pearson_r(sum_{j in S_r} a_j, f(x) - v_x([d] minus S_r))``.  See
    :ref:`def-faithfulness-correlation` in the user guide.

    Parameters
    ----------
    {model_inputs}
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
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Per-row correlations in [-1, 1] (NaN, with a warning, where either
        side is constant); a float for ``convention="beexai_code"``.
        Greater is better.

    {metric_references}

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
    streams = keyed_streams(X, entropy)
    if not code:
        mass = np.empty((n, n_subsets))

        def keep_of(sl):
            # The first s entries of a random permutation: a uniform subset
            # drawn without replacement, independently for every row and
            # repeat, from the row's stream; one block of rows at a time.
            idx = streams[sl].permutations(d, n_subsets, n_chosen=s)
            c = len(idx)
            removed = np.zeros((c, n_subsets, d), dtype=bool)
            flat = np.arange(0, c * n_subsets * d, d).reshape(c, n_subsets, 1) + idx
            removed.reshape(-1)[flat] = True
            mass[sl] = np.matmul(removed, A[sl, :, None])[..., 0]
            return ~removed
    else:
        rng = np.random.default_rng(entropy)
        idx = rng.integers(0, d, size=(n_subsets, s))
        kept1 = np.ones((n_subsets, d), dtype=bool)
        np.put_along_axis(kept1, idx, False, axis=1)
        mass = A[:, idx].mean(axis=2)

        def keep_of(sl):
            return np.broadcast_to(kept1, (len(X[sl]), n_subsets, d))
    rngs = _masker_streams(masker, X, entropy)
    fx, values = _with_x_blocks(f, masker, X, n_subsets, keep_of, batch_size, rngs)
    drop = fx[:, None] - values
    if absolute:
        drop = np.abs(drop)
    if code:
        return float(row_pearson(mass.ravel(), drop.ravel()))
    r = row_pearson(mass, drop)
    return handle_undefined(r, np.isnan(r), what="faithfulness_correlation",
                            reason="constant input to a correlation",
                            policy_param=False)


register_metric(
    "faithfulness_correlation", faithfulness_correlation, kind="model",
    greater_is_better=True, requires=("masker", "training_rows", "random_state"),
    source="BEExAI",
    description="Correlation of subset attribution mass with the output drop.",
)


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


_FAITH_PARAMS = {**_VALUE_PARAMS, **_NAN_POLICY, **_EMPTY_VALUE,
                 **_CONVENTION_XAI_BENCH, "use_abs": ["boolean"]}

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


@fast_validate_params(_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, "nan_policy", **_FAITH_DOCS,
              metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params",
                             "returns_correlation"))
def faith_minus(estimator, X, attributions, *, distribution=None, masker=None,
                X_train=None, value="observational", n_draws=100, use_abs=True,
                empty_value="expected", nan_policy="omit", convention="paper",
                random_state=None, target="predicted", output="auto", batch_size=None):
    """Faithfulness by removal (XAI-Bench faith−): does removing a feature
    change the output in proportion to its attribution?

    ``Δ_j = |v_x([d] \\ {j}) - f(x)|`` and ``faith− = Pearson(Δ, |a|)`` per
    row.  Costs ``d * n_draws`` model rows per row.  See :ref:`def-faith`
    in the user guide.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {value}
    {n_draws}
    {use_abs}
    {empty_value}
    {nan_policy}
    {faith_convention}
    {random_state}
    {output_params}

    {returns_correlation}

    {metric_references}

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
                  masker=masker, value=value, n_draws=n_draws, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  convention=convention, random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


@fast_validate_params(_FAITH_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, "nan_policy", **_FAITH_DOCS,
              metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params",
                             "returns_correlation"))
def faith_plus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_draws=100, use_abs=True,
               empty_value="expected", nan_policy="omit", convention="paper",
               random_state=None, target="predicted", output="auto", batch_size=None):
    """Faithfulness by addition (XAI-Bench faith+): does knowing only one
    feature move the output in proportion to its attribution?

    ``Δ_j = |v_x({j}) - v_x(∅)|`` and ``faith+ = Pearson(Δ, |a|)`` per row
    (see :ref:`def-faith` in the user guide).  Costs ``(d + 1) * n_draws``
    model rows per row.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {value}
    {n_draws}
    {use_abs}
    {empty_value}
    {nan_policy}
    {faith_convention}
    {random_state}
    {output_params}

    {returns_correlation}

    {metric_references}

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
                  masker=masker, value=value, n_draws=n_draws, use_abs=use_abs,
                  empty_value=empty_value, nan_policy=nan_policy,
                  convention=convention, random_state=random_state, target=target, output=output,
                  batch_size=batch_size, X_train=X_train)


for _name, _func, _desc in [
    ("faith_minus", faith_minus,
     "Correlation of |a| with the output change when each feature is removed."),
    ("faith_plus", faith_plus,
     "Correlation of |a| with the output change when only each feature is known."),
]:
    register_metric(_name, _func, kind="model", greater_is_better=True,
                    requires=_NEEDS_VALUE, source="XAI-Bench", description=_desc)


@fast_validate_params(
    {
        **{k: _MODEL_PARAMS[k] for k in ("estimator", "X", "attributions", "masker",
                                         "X_train", "target", "output", "batch_size")},
        "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("attanasio2023"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def taucorr_loo(estimator, X, attributions, *, masker=None, X_train=None, pad_id=0,
                target="predicted", output="auto", batch_size=None, nan_policy="omit"):
    """Kendall's tau between the attributions and leave-one-out effects (ferret).

    For a row of token ids with ``n`` tokens (its non-PAD positions), the
    leave-one-out effect of token ``j`` is ``f(x) - f(x without j)``;
    the score is Kendall's tau-b (:func:`scipy.stats.kendalltau`) between
    these ``n`` effects and the ``n`` attributions.  ferret's
    ``TauLOO_Evaluation`` (``taucorr_loo``).  See :ref:`text` in the user
    guide.

    Parameters
    ----------
    {model_inputs}
    masker : masker, default=None
        What a removed token becomes; ``None`` is ``TokenMasker("pad")``,
        which deletes it (ferret); ``TokenMasker("mask")`` replaces it by
        ``[MASK]``.  A fitted masker is used as is, an unfitted one is
        fitted on ``X_train``.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows for an unfitted masker that learns from data.
    pad_id : int, default=0
        Positions holding this id are padding, not tokens.
    {output_params}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row with fewer than two tokens, or constant effects or
        attributions, has no correlation.

    {returns_scores_greater}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import taucorr_loo
    >>> X = np.random.default_rng(0).integers(3, 9, size=(20, 3)).astype(float)
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> x = np.array([[4.0, 5.0, 6.0]])  # effects 4, 10, 18
    >>> taucorr_loo(model, x, [[0.1, 0.2, 0.3]]).round(6)
    array([1.])
    """
    from scipy.stats import kendalltau

    if masker is None:
        masker = TokenMasker("pad", pad_id=pad_id)
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    d = X.shape[1]
    keep = ~np.eye(d, dtype=bool)
    fx, values = _with_x_blocks(f, masker, X, d, lambda sl: keep, batch_size, None)
    effects = fx[:, None] - values
    real = X != pad_id
    tau = np.full(X.shape[0], np.nan)
    for i in range(X.shape[0]):
        e, a = effects[i, real[i]], A[i, real[i]]
        if e.size >= 2 and np.ptp(e) > 0 and np.ptp(a) > 0:
            tau[i] = kendalltau(e, a)[0]
    return handle_undefined(tau, np.isnan(tau), nan_policy, what="taucorr_loo",
                            reason="fewer than two tokens, or constant effects or "
                                   "attributions")


register_metric(
    "taucorr_loo", taucorr_loo, kind="model", greater_is_better=True,
    requires=("masker", "training_rows"), source="ferret",
    description="Kendall's tau between token attributions and leave-one-out effects.",
)
