"""What the removal families share (``_removal_paths.py``,
``_removal_correlations.py`` and ``_retraining.py``): the parameter
constraints and docstring entries of their maskers and value functions,
XAI-Bench's value masker, and the importance orders and monotone-step test
that XAI-Bench's mono± and its retrained variants read off a path.
"""

import numbers

import numpy as np

from sklearn_xai.masking import ConditionalMasker
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_distribution,
    _masker_streams,
    _value_masker,
)
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._validation import magnitude_order


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

# Docstring entries of the maskers of the removal metrics.
_DOC_REMOVAL_MASKER = """
masker : masker, default=None
    How features are removed; ``None`` is ``BaselineMasker("zero")``
    (BEExAI).  Any masker works (baseline, marginal, conditional); a fitted
    one is used as is, an unfitted one is fitted on ``X_train``."""

_DOC_ORDER_BY = """
order_by : {"abs", "signed"}, default="abs"
    Rank features by magnitude, or by signed value (BEExAI's choice for
    classification)."""

_MODEL_PARAMS = {
    k: _COMMON_PARAMS[k]
    for k in ("estimator", "X", "attributions", "masker", "X_train", "order_by",
              "absolute", "target", "output", "batch_size")
}


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

_VALUE_SHARED = ("random_state",)

# Every XAI-Bench metric evaluates a value function (the distribution, or a
# masker fitted on the training rows instead) with random draws.
_NEEDS_VALUE = ("masker", "distribution", "training_rows", "random_state")

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


