"""Correlation-type removal metrics of the faithfulness family: does the
output drop when features are removed agree with their attributions?

* :func:`sensitivity_n` (Ancona et al. 2018): random subsets of ``n``
  features, correlation of their attribution mass with the output drop;
* :func:`faithfulness_estimate` (Alvarez-Melis and Jaakkola 2018): each
  feature (or group of features) removed alone, correlation of its
  attribution with the output drop;
* :func:`monotonicity_correlation` (Nguyen and Martinez 2020): rank
  correlation of ``|a_i|`` with the spread of the output when feature ``i``
  is redrawn by a masker;
* :func:`road` (Rong et al. 2022): output drop when the most (least)
  relevant fraction of the features is removed by noisy linear imputation
  (:class:`~sklearn_xai.masking.NoisyLinearMasker`).

Every metric builds all the coalitions of all rows as one boolean array and
evaluates them in one batched pass (:func:`_with_x`, or the rows' blocks of
:meth:`~sklearn_xai.utils.ExplainedOutput.blocks_with_x` where the metric
needs each draw's output).  Definitions: :ref:`def-removal-correlation` in
the user guide.
"""

import numbers

import numpy as np

from sklearn_xai.masking import BaselineMasker, MarginalMasker, NoisyLinearMasker
from sklearn_xai.metrics._common import _BASE_PARAMS, _NAN_POLICY, _prepare, _with_x
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._random import keyed_streams, seed_entropy
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import handle_undefined, row_pearson, row_spearman
from sklearn_xai.utils._validation import magnitude_order, positions

__all__ = [
    "faithfulness_estimate",
    "monotonicity_correlation",
    "road",
    "sensitivity_n",
]

_MASKER_PARAMS = {
    "masker": [None, object],
    "X_train": ["array-like", None],
}
_DOC_ZERO_MASKER = """
masker : masker, default=None
    How features are removed; ``None`` is ``BaselineMasker("zero")``
    (Quantus' default "black" baseline on inputs scaled to [0, 1]).  Any
    masker works; a fitted one is used as is, an unfitted one is fitted on
    ``X_train``."""
_SHARED = ("estimator", "X", "attributions", "X_train", "target", "output",
           "batch_size")


def _rngs(masker, X, random_state):
    return None if masker.is_deterministic else keyed_streams(X, random_state)


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
@Substitution(*_SHARED, "random_state", masker=_DOC_ZERO_MASKER)
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
    {estimator}
    {X}
    {attributions}
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
    nan_policy : {{"omit", "zero", "raise"}}, default="omit"
        A size where the drop or the mass is constant over the subsets has
        no correlation and is left out of the row's mean; a row with no
        size left is NaN with a warning (``"omit"``), 0 (``"zero"``) or
        raises (``"raise"``).
    {random_state}
    {target}
    {output}
    {batch_size}

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Mean correlations in [-1, 1]; greater is better.  A float for
        ``convention="quantus_code"``.

    References
    ----------
    .. [1] M. Ancona, E. Ceolini, C. Öztireli and M. Gross, "Towards better
       understanding of gradient-based attribution methods for deep neural
       networks", ICLR 2018.

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
    rngs = _rngs(masker, X, entropy)
    if convention == "quantus_code":
        order = magnitude_order(A, order_by="signed")
        steps = int(0.8 * d)
        rank = positions(order)
        removed = rank[:, None, :] < np.arange(1, steps + 1)[None, :, None]
        fx, values = _with_x(f, masker, X, ~removed, batch_size, rngs)
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
    removed = np.zeros((n, S, R, d), dtype=bool)
    base = np.arange(n * S * R).reshape(n, S, R) * d
    for j, size in enumerate(sizes):
        drawn = min(size, d - size)
        idx = streams.permutations(d, (R,), n_chosen=drawn, stream=int(size))
        flat = (base[:, j, :, None] + idx).reshape(-1)
        if drawn == size:
            removed.reshape(-1)[flat] = True
        else:
            removed[:, j] = True
            removed.reshape(-1)[flat] = False
    mass = np.matmul(removed.reshape(n, S * R, d), A[:, :, None]).reshape(n, S, R)
    fx, values = _with_x(f, masker, X, ~removed.reshape(n, S * R, d), batch_size, rngs)
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
@Substitution(*_SHARED, "random_state", "nan_policy", "scores_greater",
              masker=_DOC_ZERO_MASKER)
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
    {estimator}
    {X}
    {attributions}
    features_per_step : int, default=1
        Features removed together (Quantus' ``features_in_step``).
    {masker}
    {X_train}
    {nan_policy}
    {random_state}
        Only used by a stochastic masker.
    {target}
    {output}
    {batch_size}

    Returns
    -------
    {scores_greater}
        Correlations in [-1, 1].

    References
    ----------
    .. [1] D. Alvarez-Melis and T. S. Jaakkola, "Towards Robust
       Interpretability with Self-Explaining Neural Networks", NeurIPS 2018.

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
    removed = group[:, None, :] == np.arange(m)[None, :, None]  # (n, m, d)
    mass = np.matmul(removed, A[:, :, None])[..., 0]
    fx, values = _with_x(f, masker, X, ~removed, batch_size,
                         _rngs(masker, X, random_state))
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
@Substitution(*_SHARED, "random_state", "nan_policy", "scores_greater")
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
    {estimator}
    {X}
    {attributions}
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
    {target}
    {output}
    {batch_size}

    Returns
    -------
    {scores_greater}
        Rank correlations in [-1, 1].

    References
    ----------
    .. [1] A. Nguyen and M. R. Martínez, "On quantitative aspects of model
       interpretability", arXiv:2007.07584, 2020.

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
    keep = group[:, None, :] != np.arange(m)[None, :, None]  # (n, m, d)
    mass = np.matmul(~keep, A[:, :, None])[..., 0]
    b = masker._draw_count()
    rngs = _rngs(masker, X, random_state)
    moved = np.empty((n, m))

    def build(sl, out):
        out[...] = masker.impute(X[sl], keep[sl], rngs=None if rngs is None
                                 else rngs[sl], check_input=False).reshape(out.shape)

    for sl, t, raw_x, raw_z in f.blocks_with_x(X, m * b, build,
                                               target_index=f.fixed_target_index(X)):
        fx = f.select(raw_x, t)
        sq = (f.select(raw_z, t).reshape(-1, m, b) - fx[:, None, None]) ** 2
        w = masker._draw_weights(X[sl], keep[sl])
        v = sq.mean(axis=2) if w is None else np.einsum("cmb,cmb->cm", w, sq)
        small = np.abs(fx) < eps
        moved[sl] = v / np.where(small, 1.0, fx * fx)[:, None]
    r = row_spearman(mass, moved)
    return handle_undefined(r, np.isnan(r), nan_policy,
                            what="monotonicity_correlation",
                            reason="constant attributions or output spread")


# ----------------------------------------------------------------------
# ROAD
# ----------------------------------------------------------------------
_DEFAULT_PERCENTAGES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


@fast_validate_params(
    {**_BASE_PARAMS, **_MASKER_PARAMS,
     "percentages": ["array-like"],
     "order": [StrOptions({"morf", "lerf"})],
     "order_by": [StrOptions({"abs", "signed"})],
     "noise": [Interval(numbers.Real, 0, None, closed="left")],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, "random_state")
def road(estimator, X, attributions, *, percentages=_DEFAULT_PERCENTAGES, order="morf",
         masker=None, X_train=None, noise=0.01, order_by="signed", random_state=None,
         target="predicted", output="auto", batch_size=None):
    """Remove and Debias (ROAD, Rong et al. 2022).

    For each fraction ``p`` of ``percentages``, remove the ``floor(p d)``
    most relevant features (MoRF) or least relevant ones (LeRF) with noisy
    linear imputation and record the output drop ``f(x) - f(x'_p)``; the
    row's score is the mean drop over the fractions.  MoRF: greater is
    better (scorer ``road``); LeRF: lower is better (scorer
    ``neg_road_lerf``).  See :ref:`def-road` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    percentages : array-like of float, default=(0.1, ..., 0.9)
        Fractions in [0, 1] of the features removed (the paper's 10 % to
        90 %).  Quantus' percentages in % divide by 100.
    order : {{"morf", "lerf"}}, default="morf"
        Remove the most relevant features first, or the least relevant.
    masker : masker, default=None
        How features are removed; ``None`` is
        ``NoisyLinearMasker(noise)`` fitted on ``X_train`` (the Gaussian
        conditional mean of the removed features given the kept ones, plus
        noise; tabular rows need ``X_train``).  For images pass a
        ``NoisyLinearMasker(noise, image_shape=(h, w))`` (no training rows
        needed).  Any masker is accepted.
    {X_train}
    noise : float, default=0.01
        Noise of the default masker (ignored when ``masker`` is given).
    order_by : {{"abs", "signed"}}, default="signed"
        Rank features by signed attribution (the paper and Quantus) or by
        magnitude.
    {random_state}
    {target}
    {output}
    {batch_size}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Mean output drop; greater is better for MoRF, lower for LeRF.

    Notes
    -----
    Quantus' ``ROAD`` reports, per percentage, the fraction of rows whose
    predicted class is unchanged (an accuracy curve over the dataset).
    With ``output="predict"`` the per-row drops here are 0 or not, and
    Quantus' accuracy at ``p`` is the fraction of rows with no change; this
    function's per-row mean over ``p`` of the change of the explained
    probability is a row-level, finer-grained version of the same curve.

    References
    ----------
    .. [1] Y. Rong, T. Leemann, V. Borisov, G. Kasneci and E. Kasneci, "A
       Consistent and Efficient Evaluation Strategy for Attribution
       Methods", ICML 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import road
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 6))
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0, 0.5, 0.0, 1.0])
    >>> good = model.coef_ * X
    >>> bad = -good
    >>> a = road(model, X[:20], good[:20], X_train=X, random_state=0).mean()
    >>> b = road(model, X[:20], bad[:20], X_train=X, random_state=0).mean()
    >>> bool(a > b)
    True
    """
    p = np.asarray(percentages, dtype=np.float64).reshape(-1)
    if p.size == 0 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(
            "percentages must be a non-empty list of fractions in [0, 1] (e.g. "
            f"0.1 for 10 %); got {percentages!r}."
        )
    if masker is None:
        masker = NoisyLinearMasker(noise)
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    k = np.floor(p * d + 1e-9).astype(int)
    rank = positions(magnitude_order(A, order_by=order_by))
    if order == "lerf":
        rank = d - 1 - rank
    removed = rank[:, None, :] < k[None, :, None]
    fx, values = _with_x(f, masker, X, ~removed, batch_size,
                         _rngs(masker, X, random_state))
    return (fx[:, None] - values).mean(axis=1)


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
register_metric(
    "road", road, kind="model", greater_is_better=True,
    requires=("masker", "training_rows", "random_state"), source="Quantus",
    description="Mean output drop as the most relevant features are removed by "
                "noisy linear imputation.",
    default_kwargs={"order": "morf"},
)
register_metric(
    "neg_road_lerf", road, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"), source="Quantus",
    description="Mean output drop as the least relevant features are removed by "
                "noisy linear imputation.",
    default_kwargs={"order": "lerf"},
)
