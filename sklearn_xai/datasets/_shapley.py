"""Exact Shapley values by enumeration of all coalitions (see :ref:`def-shapley`
in the user guide).

The value function is a masker's (:meth:`~sklearn_xai.masking.BaseMasker.evaluate`);
``value=`` / ``distribution=`` / ``background=`` / ``baseline=`` are shorthands
that build the corresponding masker.
"""

import numbers

import numpy as np
from sklearn.utils import Bunch
from sklearn.utils.validation import check_array

from sklearn_xai.distributions import BaseDistribution
from sklearn_xai.masking import (
    BaselineMasker,
    ConditionalMasker,
    MarginalMasker,
    check_masker,
)
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._random import keyed_streams
from sklearn_xai.utils._shapley import all_coalitions, shapley_from_values
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params
from sklearn_xai.utils._validation import affine_params, check_feature_vector

__all__ = ["exact_shapley_values"]

_VALUE_ALIASES = {
    "observational": "observational",
    "conditional": "observational",
    "interventional": "interventional",
    "marginal": "interventional",
    "baseline": "baseline",
}


def _value_masker(value, distribution, background, baseline, n_draws, n_features):
    """The fitted masker of the ``value=`` shorthand; returns (kind, masker)."""
    if value not in _VALUE_ALIASES:
        raise ValueError(
            "value must be 'observational' (alias 'conditional'), 'interventional' "
            f"(alias 'marginal') or 'baseline'; got {value!r}."
        )
    value = _VALUE_ALIASES[value]
    if distribution is not None:
        if not isinstance(distribution, BaseDistribution):
            raise TypeError(
                "distribution must be a sklearn_xai.distributions distribution "
                "(MultivariateGaussian or GaussianMixture, e.g. the 'distribution' "
                f"of a generator's Bunch); got {type(distribution).__name__}."
            )
        if distribution.n_features != n_features:
            raise ValueError(
                f"distribution has {distribution.n_features} features but X has "
                f"{n_features}."
            )
    if value == "baseline":
        if baseline is None or distribution is not None or background is not None:
            raise ValueError(
                "value='baseline' needs baseline= (a number or one value per "
                "feature) and no distribution or background."
            )
        masker = BaselineMasker(check_feature_vector(baseline, n_features, "baseline"))
    elif baseline is not None:
        raise ValueError(f"baseline= is only used with value='baseline', not {value!r}.")
    elif value == "observational":
        if distribution is None or background is not None:
            raise ValueError(
                "value='observational' needs distribution= (the generator's "
                "distribution, or MultivariateGaussian.from_data(X_train) as a "
                "Gaussian approximation for real data) and no background."
            )
        masker = ConditionalMasker(distribution, n_draws=n_draws)
    elif (distribution is None) == (background is None):
        raise ValueError(
            "value='interventional' needs exactly one of background= (rows whose "
            "values replace the removed features) or distribution= (exact "
            "marginal draws)."
        )
    elif distribution is not None:
        masker = ConditionalMasker(distribution, n_draws=n_draws,
                                   value="interventional")
    else:
        bg = check_array(background, dtype=np.float64, input_name="background")
        if bg.shape[1] != n_features:
            raise ValueError(
                f"background must have {n_features} columns like X; got {bg.shape[1]}."
            )
        masker = MarginalMasker(background=bg)
    return value, check_masker(masker, n_features=n_features)


@validate_params(
    {
        "f": "no_validation",
        "X": "no_validation",
        "distribution": "no_validation",
        "masker": "no_validation",
        "value": "no_validation",
        "background": "no_validation",
        "baseline": "no_validation",
        "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
        "target_index": "no_validation",
        "affine": "no_validation",
        "max_features": [Interval(numbers.Integral, 0, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "convention": [StrOptions({"paper", "xai_bench_code"})],
        "random_state": "no_validation",
    },
    prefer_skip_nested_validation=True,
)
@Substitution(dataset_references=references("shapley1953", "liu2021"))
def exact_shapley_values(
    f,
    X,
    distribution=None,
    *,
    masker=None,
    value="observational",
    background=None,
    baseline=None,
    n_draws=1000,
    target_index=None,
    affine=None,
    max_features=16,
    batch_size=None,
    convention="paper",
    random_state=None,
):
    """Exact Shapley values of a vectorised model by enumerating all coalitions.

    ``phi_j(x) = sum_{S ⊆ [d] \\ {j}} |S|! (d-|S|-1)! / d! (v_x(S ∪ {j}) - v_x(S))``
    with the value function ``v_x`` of ``masker`` (see
    :ref:`def-value-function` and :ref:`def-shapley` in the user guide).
    Without a masker, ``value`` builds one:

    - ``"observational"`` (alias ``"conditional"``): ``E[f(X) | X_S = x_S]``
      under ``distribution``
      (``ConditionalMasker(distribution, n_draws)``);
    - ``"interventional"`` (alias ``"marginal"``): ``mean_z f(x_S ⊕ z_U)``
      over the rows of ``background`` (``MarginalMasker(background)``), or
      ``E_Z[f(x_S ⊕ Z_U)]`` with ``Z`` drawn from ``distribution``
      (``ConditionalMasker(distribution, n_draws,
      value="interventional")``);
    - ``"baseline"``: ``f(x_S ⊕ b_U)`` (``BaselineMasker(baseline)``).

    All ``2**d`` coalitions of all rows are evaluated through
    :meth:`~sklearn_xai.masking.BaseMasker.evaluate`, in batched calls of
    ``f`` of at most ``batch_size`` rows each (never one call per row and
    coalition).  ``v_x([d]) = f(x)`` is evaluated once per row.  When ``f``
    is affine (``affine=(w, c)``, or ``f`` exposes ``coef_`` and
    ``intercept_``) and the masker knows its expected rows
    (:meth:`~sklearn_xai.masking.BaseMasker.expected_rows`; every masker of
    :mod:`sklearn_xai.masking` does), every value is computed in closed
    form, without calling ``f``.  Stochastic maskers draw one block of
    random numbers per row (keyed by the row) shared by all its coalitions
    (common random numbers).

    Parameters
    ----------
    f : callable
        ``f(Z) -> (m,)``, or ``f(Z, target_index) -> (m,)`` when
        ``target_index`` is given (e.g. an
        :class:`~sklearn_xai.utils.ExplainedOutput`).  May be None with
        ``affine``.
    X : array-like of shape (n_rows, n_features)
        The explained rows.
    distribution : BaseDistribution, default=None
        Data distribution (observational values, or interventional values
        without a background), e.g. a generator's ``bunch.distribution``.
    masker : BaseMasker, default=None
        Any :mod:`sklearn_xai.masking` masker defining ``v_x``, fitted on
        training rows (an unfitted one is accepted only when it learns
        nothing from data, e.g. ``BaselineMasker("zero")``).  Replaces
        ``value``, ``distribution``, ``background`` and ``baseline``.
    value : {"observational", "conditional", "interventional", "marginal", "baseline"}, default="observational"
        The value function when no masker is given.
    background : array-like of shape (n_background, n_features), default=None
        Background rows of interventional values.
    baseline : float or array-like of shape (n_features,), default=None
        Baseline of ``value="baseline"``.
    n_draws : int, default=1000
        Monte-Carlo draws per row and coalition when values come from a
        distribution and ``f`` is not affine (XAI-Bench used 20 000).
    target_index : array-like of shape (n_rows,), default=None
        Class column of each explained row, repeated for all of its
        perturbed copies and passed as ``f``'s second argument.
    affine : tuple (w, c), default=None
        Declares ``f(z) = z @ w + c`` (closed form).
    max_features : int, default=16
        Largest number of features accepted (``2**d`` coalitions).
    batch_size : int or None, default=None
        Maximum number of rows per call of ``f``; ``None``: calls of about
        ``BLOCK_ENTRIES`` (``2**17``) input values
        (:func:`sklearn_xai.utils._output.block_slices`).  Values do not
        depend on it.
    convention : {"paper", "xai_bench_code"}, default="paper"
        ``"paper"``: the Shapley values.  ``"xai_bench_code"``: XAI-Bench's
        biased least-squares solution, which adds ``v_x(∅) / d`` to every
        value so that they sum to ``f(x)``.
    random_state : int, RandomState, Generator or None, default=None
        Seed of the Monte-Carlo draws of a stochastic masker.

    Returns
    -------
    result : Bunch
        - ``attributions``: ndarray (n_rows, n_features), the Shapley values;
        - ``base_values``: ndarray (n_rows,), ``v_x(∅)``;
        - ``predictions``: ndarray (n_rows,), ``f(x) = v_x([d])``, so that
          ``attributions.sum(1) == predictions - base_values`` (efficiency);
        - ``n_model_rows``: int, number of rows evaluated by ``f``;
        - ``n_model_calls``: int, number of calls of ``f``;
        - ``value``: str, the value function used (``"masker"`` when a
          masker was given);
        - ``masker``: the fitted masker.

    Raises
    ------
    ValueError
        If ``n_features > max_features`` (use KernelSHAP instead).

    {dataset_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import MultivariateGaussian, exact_shapley_values
    >>> from sklearn_xai.masking import BaselineMasker
    >>> dist = MultivariateGaussian(np.zeros(3), np.eye(3))
    >>> f = lambda Z: Z[:, 0] * Z[:, 1] + Z[:, 2]
    >>> res = exact_shapley_values(f, [[1.0, 2.0, 3.0]], value="baseline", baseline=0.0)
    >>> res.attributions.tolist()
    [[1.0, 1.0, 3.0]]
    >>> exact_shapley_values(f, [[1.0, 2.0, 3.0]],
    ...                      masker=BaselineMasker("zero")).attributions.tolist()
    [[1.0, 1.0, 3.0]]
    >>> res = exact_shapley_values(lambda Z: Z @ [1.0, 2.0, 3.0], [[1.0, 1.0, 1.0]],
    ...                            dist, affine=([1.0, 2.0, 3.0], 0.0))
    >>> res.attributions.tolist(), res.n_model_rows
    ([[1.0, 2.0, 3.0]], 0)
    """
    X = check_array(X, dtype=np.float64, input_name="X", copy=True)
    n, d = X.shape
    if d > max_features:
        raise ValueError(
            f"Exact Shapley values enumerate 2**n_features coalitions; X has "
            f"n_features={d} > max_features={max_features}. Use "
            "sklearn_xai.explainers.KernelSHAP (sampled coalitions) for this many "
            "features, or raise max_features if 2**n_features model evaluations "
            "per row are affordable."
        )
    if masker is None:
        kind, masker = _value_masker(value, distribution, background, baseline,
                                     n_draws, d)
    else:
        given = [k for k, v in (("distribution", distribution),
                                ("background", background),
                                ("baseline", baseline)) if v is not None]
        if given:
            raise ValueError(
                f"masker= defines the value function; do not pass {given} with it."
            )
        kind, masker = "masker", check_masker(masker, n_features=d)
    if target_index is not None:
        target_index = np.asarray(target_index)
        if target_index.shape != (n,):
            raise ValueError(
                f"target_index must have one entry per row, shape ({n},); got "
                f"{target_index.shape}."
            )

    masks = all_coalitions(d)
    full = masks.shape[0] - 1
    counter = Bunch(rows=0, calls=0)

    def call(Z, t=None):
        """``f`` on Z, at most ``batch_size`` rows per call (``None``: blocks
        of about ``BLOCK_ENTRIES`` values), ``t`` the class of each row."""
        out = []
        for sl in block_slices(len(Z), 1, d, batch_size):
            chunk = Z[sl]
            counter.rows += len(chunk)
            counter.calls += 1
            res = f(chunk) if target_index is None else f(chunk, t[sl])
            out.append(np.asarray(res, dtype=np.float64).reshape(-1))
        res = np.concatenate(out) if out else np.empty(0)
        if res.shape != (len(Z),):
            raise ValueError(
                f"f must return one value per row; got {res.size} values for "
                f"{len(Z)} rows."
            )
        return res

    values = None
    aff = affine_params(f, affine, d)
    if aff is not None:
        expected = masker.expected_rows(X, masks)
        if expected is not None:
            w, c = aff
            values = expected @ w + c
        elif f is None:
            raise ValueError(
                f"{type(masker).__name__} has no closed form for an affine model; "
                "pass the model itself as f."
            )
    if values is None:
        values = np.empty((n, masks.shape[0]))
        values[:, full] = call(X, target_index)
        rngs = None
        if not masker.is_deterministic:
            rngs = keyed_streams(X, random_state)
        values[:, :full] = masker.evaluate(
            call, X, masks[:full], target_index=target_index, batch_size=batch_size,
            rngs=rngs,
        )

    phi = shapley_from_values(values, d)
    if convention == "xai_bench_code":
        phi = phi + values[:, :1] / d
    return Bunch(
        attributions=phi,
        base_values=values[:, 0].copy(),
        predictions=values[:, full].copy(),
        n_model_rows=counter.rows,
        n_model_calls=counter.calls,
        value=kind,
        masker=masker,
    )
