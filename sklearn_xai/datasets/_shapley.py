"""Exact Shapley values by enumeration of all coalitions (SPEC 3.2.4, 4.1.9)."""

import math
import numbers

import numpy as np
from sklearn.utils import Bunch
from sklearn.utils.validation import check_array

from sklearn_xai.datasets._distributions import _affine_params, _BaseDistribution
from sklearn_xai.utils._random import row_generators, row_keys, seed_entropy

__all__ = ["exact_shapley_values"]

_VALUE_ALIASES = {
    "observational": "observational",
    "conditional": "observational",
    "interventional": "interventional",
    "marginal": "interventional",
    "baseline": "baseline",
}


def _all_coalitions(n_features):
    """Boolean masks of all ``2**d`` coalitions; row ``k`` has bit ``j`` of ``k``."""
    codes = np.arange(2**n_features)
    return ((codes[:, None] >> np.arange(n_features)) & 1).astype(bool)


def _shapley_from_values(values, n_features):
    """Shapley values from the value of every coalition.

    Parameters
    ----------
    values : ndarray of shape (n_rows, 2**n_features)
        ``values[:, k]`` is ``v(S)`` for the coalition whose bit ``j`` is set
        when feature ``j`` belongs to ``S``.

    Returns
    -------
    phi : ndarray of shape (n_rows, n_features)
        ``phi_j = sum_{S not containing j} |S|! (d-|S|-1)! / d! (v(S+j) - v(S))``.
    """
    d = n_features
    codes = np.arange(2**d)
    sizes = _all_coalitions(d).sum(axis=1)
    weights = np.array(
        [math.factorial(s) * math.factorial(d - s - 1) / math.factorial(d) for s in range(d)]
    )
    phi = np.empty((values.shape[0], d))
    for j in range(d):
        bit = 1 << j
        without = codes[(codes & bit) == 0]
        phi[:, j] = (values[:, without | bit] - values[:, without]) @ weights[sizes[without]]
    return phi


def _check_imputation(value, distribution, background, baseline, n_features):
    """Validate the value-function inputs; return (kind, payload)."""
    if value not in _VALUE_ALIASES:
        raise ValueError(
            "value must be 'observational' (alias 'conditional'), 'interventional' "
            f"(alias 'marginal') or 'baseline'; got {value!r}."
        )
    value = _VALUE_ALIASES[value]
    if distribution is not None:
        if not isinstance(distribution, _BaseDistribution):
            raise TypeError(
                "distribution must be a sklearn_xai.datasets distribution "
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
        b = np.asarray(baseline, dtype=np.float64)
        b = np.full(n_features, float(b)) if b.ndim == 0 else b
        if b.shape != (n_features,) or not np.all(np.isfinite(b)):
            raise ValueError(
                f"baseline must be a finite number or {n_features} finite values; "
                f"got shape {b.shape}."
            )
        return value, b[None, :]
    if baseline is not None:
        raise ValueError(f"baseline= is only used with value='baseline', not {value!r}.")
    if value == "observational":
        if distribution is None or background is not None:
            raise ValueError(
                "value='observational' needs distribution= (the generator's "
                "distribution, or MultivariateGaussian.from_data(X_train) as a "
                "Gaussian approximation for real data) and no background."
            )
        return value, distribution
    if (distribution is None) == (background is None):
        raise ValueError(
            "value='interventional' needs exactly one of background= (rows whose "
            "values replace the removed features) or distribution= (exact "
            "marginal draws)."
        )
    if distribution is not None:
        return value, distribution
    bg = check_array(background, dtype=np.float64, input_name="background")
    if bg.shape[1] != n_features:
        raise ValueError(
            f"background must have {n_features} columns like X; got {bg.shape[1]}."
        )
    return value, bg


def exact_shapley_values(
    f,
    X,
    distribution=None,
    *,
    value="observational",
    background=None,
    baseline=None,
    n_samples=1000,
    target_index=None,
    affine=None,
    max_features=16,
    batch_size=65536,
    xai_bench_efficiency=False,
    random_state=None,
):
    """Exact Shapley values of a vectorised model by enumerating all coalitions.

    ``phi_j(x) = sum_{S ⊆ [d] \\ {j}} |S|! (d-|S|-1)! / d! (v_x(S ∪ {j}) - v_x(S))``
    with the value function ``v_x`` chosen by ``value`` (SPEC 1.5, 3.2.4):

    - ``"observational"`` (alias ``"conditional"``): ``E[f(X) | X_S = x_S]``
      under ``distribution``;
    - ``"interventional"`` (alias ``"marginal"``): ``mean_z f(x_S ⊕ z_U)``
      over the rows of ``background``, or ``E_Z[f(x_S ⊕ Z_U)]`` with ``Z``
      drawn from ``distribution``;
    - ``"baseline"``: ``f(x_S ⊕ b_U)``.

    All ``2**d`` coalitions of all rows are evaluated in batched calls of
    ``f`` of about ``batch_size`` rows each (never one call per row and
    coalition).  ``v_x([d]) = f(x)`` is evaluated once per row.  When ``f``
    is affine (``affine=(w, c)``, or ``f`` exposes ``coef_`` and
    ``intercept_``) every value is computed in closed form, without calling
    ``f``.  Monte-Carlo values draw one block of standard normals per row
    (keyed by the row, SPEC 1.7) shared by all coalitions (common random
    numbers).

    Parameters
    ----------
    f : callable
        ``f(Z) -> (m,)``, or ``f(Z, target_index) -> (m,)`` when
        ``target_index`` is given (e.g. an
        :class:`~sklearn_xai.utils.ExplainedOutput`).
    X : array-like of shape (n_rows, n_features)
        The explained rows.
    distribution : MultivariateGaussian or GaussianMixture, default=None
        Data distribution (observational values, or interventional values
        without a background).
    value : {"observational", "conditional", "interventional", "marginal", "baseline"}, default="observational"
        The value function.
    background : array-like of shape (n_background, n_features), default=None
        Background rows of interventional values.
    baseline : float or array-like of shape (n_features,), default=None
        Baseline of ``value="baseline"``.
    n_samples : int, default=1000
        Monte-Carlo draws per row and coalition when values come from a
        distribution and ``f`` is not affine (XAI-Bench used 20 000).
    target_index : array-like of shape (n_rows,), default=None
        Class column of each explained row, repeated for all of its
        perturbed copies and passed as ``f``'s second argument.
    affine : tuple (w, c), default=None
        Declares ``f(z) = z @ w + c`` (closed form).
    max_features : int, default=16
        Largest number of features accepted (``2**d`` coalitions).
    batch_size : int, default=65536
        Target number of rows per call of ``f`` (a call holds at least one
        row's draws for one coalition).
    xai_bench_efficiency : bool, default=False
        Reproduce XAI-Bench's biased least-squares solution, which adds
        ``v_x(∅) / d`` to every value so that they sum to ``f(x)``.
    random_state : int, RandomState, Generator or None, default=None
        Seed of the Monte-Carlo draws.

    Returns
    -------
    result : Bunch
        - ``attributions``: ndarray (n_rows, n_features), the Shapley values;
        - ``base_values``: ndarray (n_rows,), ``v_x(∅)``;
        - ``predictions``: ndarray (n_rows,), ``f(x) = v_x([d])``, so that
          ``attributions.sum(1) == predictions - base_values`` (efficiency);
        - ``n_model_rows``: int, number of rows evaluated by ``f``;
        - ``n_model_calls``: int, number of calls of ``f``;
        - ``value``: str, the value function used.

    Raises
    ------
    ValueError
        If ``n_features > max_features`` (use KernelSHAP instead).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import MultivariateGaussian, exact_shapley_values
    >>> dist = MultivariateGaussian(np.zeros(3), np.eye(3))
    >>> f = lambda Z: Z[:, 0] * Z[:, 1] + Z[:, 2]
    >>> res = exact_shapley_values(f, [[1.0, 2.0, 3.0]], value="baseline", baseline=0.0)
    >>> res.attributions.tolist()
    [[1.0, 1.0, 3.0]]
    >>> res = exact_shapley_values(lambda Z: Z @ [1.0, 2.0, 3.0], [[1.0, 1.0, 1.0]],
    ...                            dist, affine=([1.0, 2.0, 3.0], 0.0))
    >>> res.attributions.tolist(), res.n_model_rows
    ([[1.0, 2.0, 3.0]], 0)
    """
    X = check_array(X, dtype=np.float64, input_name="X", copy=True)
    n, d = X.shape
    if isinstance(max_features, bool) or not isinstance(max_features, numbers.Integral):
        raise ValueError(f"max_features must be an int; got {max_features!r}.")
    if d > max_features:
        raise ValueError(
            f"Exact Shapley values enumerate 2**n_features coalitions; X has "
            f"n_features={d} > max_features={max_features}. Use "
            "sklearn_xai.explainers.KernelSHAP (sampled coalitions) for this many "
            "features, or raise max_features if 2**n_features model evaluations "
            "per row are affordable."
        )
    for name, val in (("n_samples", n_samples), ("batch_size", batch_size)):
        if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val < 1:
            raise ValueError(f"{name} must be a positive int; got {val!r}.")
    kind, source = _check_imputation(value, distribution, background, baseline, d)
    if target_index is not None:
        target_index = np.asarray(target_index)
        if target_index.shape != (n,):
            raise ValueError(
                f"target_index must have one entry per row, shape ({n},); got "
                f"{target_index.shape}."
            )

    masks = _all_coalitions(d)
    full = masks.shape[0] - 1
    values = np.empty((n, masks.shape[0]))
    counter = Bunch(rows=0, calls=0)

    def call(Z, rows):
        """``f`` on Z (chunked), ``rows`` = explained-row index of each Z row."""
        out = []
        for start in range(0, len(Z), batch_size):
            chunk = Z[start : start + batch_size]
            counter.rows += len(chunk)
            counter.calls += 1
            if target_index is None:
                res = f(chunk)
            else:
                res = f(chunk, target_index[rows[start : start + batch_size]])
            out.append(np.asarray(res, dtype=np.float64).reshape(-1))
        res = np.concatenate(out)
        if res.shape != (len(Z),):
            raise ValueError(
                f"f must return one value per row; got {res.size} values for "
                f"{len(Z)} rows."
            )
        return res

    aff = _affine_params(f, affine, d)
    if aff is not None:
        w, c = aff
        for k, mask in enumerate(masks):
            if kind == "observational" or isinstance(source, _BaseDistribution):
                expected = source._expected_rows(X, mask, kind == "interventional")
            else:  # background or baseline: the mean of the imputed values
                expected = np.where(mask, X, source.mean(axis=0))
            values[:, k] = expected @ w + c
    else:
        values[:, full] = call(X, np.arange(n))
        _coalition_values(call, X, masks[:full], source, kind, values, n_samples,
                          batch_size, random_state)

    phi = _shapley_from_values(values, d)
    if xai_bench_efficiency:
        phi = phi + values[:, :1] / d
    return Bunch(
        attributions=phi,
        base_values=values[:, 0].copy(),
        predictions=values[:, full].copy(),
        n_model_rows=counter.rows,
        n_model_calls=counter.calls,
        value=kind,
    )


def _coalition_values(call, X, masks, source, kind, values, n_samples, batch_size,
                      random_state):
    """Fill ``values[:, :len(masks)]`` with Monte-Carlo / background averages.

    Rows are processed in chunks and coalitions in chunks so that each call
    of ``f`` holds about ``batch_size`` model rows.
    """
    n, d = X.shape
    from_distribution = isinstance(source, _BaseDistribution)
    B = n_samples if from_distribution else source.shape[0]
    per_row = B
    if n * per_row <= batch_size:
        row_step = n
        mask_step = max(1, batch_size // (n * per_row))
    else:
        row_step = max(1, batch_size // per_row)
        mask_step = 1
    entropy = seed_entropy(random_state) if from_distribution else None
    keys = row_keys(X) if from_distribution else None
    for r0 in range(0, n, row_step):
        Xr = X[r0 : r0 + row_step]
        r = Xr.shape[0]
        if from_distribution:
            Z, u = source._standard_draws(row_generators(entropy, keys[r0 : r0 + r]), B)
        for m0 in range(0, masks.shape[0], mask_step):
            chunk = masks[m0 : m0 + mask_step]
            m = chunk.shape[0]
            if from_distribution:
                Zin = np.stack([source._impute(Xr, mask, Z, u, kind == "interventional")
                                for mask in chunk], axis=1)
            else:
                Zin = np.where(chunk[None, :, None, :], Xr[:, None, None, :],
                               source[None, None])
            rows = np.repeat(np.arange(r0, r0 + r), m * B)
            out = call(Zin.reshape(-1, d), rows).reshape(r, m, B).mean(axis=2)
            values[r0 : r0 + r, m0 : m0 + m] = out
