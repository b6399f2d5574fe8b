"""Prediction gap on important / unimportant features (OpenXAI, SPEC 4.2.1)."""

import numbers

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.masking._perturb import GaussianNoisePerturber
from sklearn_xai.metrics._faithfulness import (
    _BASE_PARAMS,
    _blocks_with_x,
    _given_target,
    _row_streams,
    _select,
    _top_k_keep,
    validate_params,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._validation import check_attributions, resolve_k

__all__ = ["pgi", "pgu"]


def _check_perturber(perturber, X, default):
    """A fitted perturber: as given, or a clone fitted on ``X``."""
    if perturber is None:
        perturber = default
    if not isinstance(perturber, GaussianNoisePerturber):
        raise TypeError(
            "perturber must be a sklearn_xai.masking.GaussianNoisePerturber; got "
            f"{type(perturber).__name__}."
        )
    try:
        check_is_fitted(perturber)
    except Exception:
        return clone(perturber).fit(X)
    if perturber.n_features_in_ != X.shape[1]:
        raise ValueError(
            f"perturber was fitted on {perturber.n_features_in_} features but X has "
            f"{X.shape[1]}."
        )
    return perturber


def _auc_over_k(M):
    """Trapezoid-weighted mean of M(k), k = 1..K, over t in [0, 1] (SPEC 4.1.6)."""
    K = M.shape[1]
    if K == 1:
        return M[:, 0]
    return (M[:, :-1] + M[:, 1:]).sum(axis=1) / (2.0 * (K - 1))


def _prediction_gap(estimator, X, attributions, *, perturb_top, k, auc, perturber,
                    n_samples, seed_policy, random_state, order_by, target, output,
                    batch_size):
    X = np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got shape {X.shape}.")
    n, d = X.shape
    A = check_attributions(attributions, n_samples=n, n_features=d)
    perturber = _check_perturber(perturber, X, GaussianNoisePerturber())
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    K = resolve_k(k, d)
    ks = list(range(1, K + 1)) if auc else [K]
    # fixed = features that keep their value: all but the top-k for PGI.
    fixed = _top_k_keep(A, ks, order_by=order_by, rounding="ceil",
                        keep_top=not perturb_top)
    streams = _row_streams(X, random_state, seed_policy)
    m = len(ks)
    gaps = np.empty((n, m))

    def build(sl, out):
        out[...] = perturber.perturb(X[sl], fixed[sl], n_samples, streams[sl]
                                     ).reshape(out.shape)

    for sl, t, raw_x, raw_z in _blocks_with_x(f, X, m * n_samples, batch_size, build,
                                              _given_target(f, X)):
        fx = _select(raw_x, t)
        vals = _select(raw_z, t).reshape(-1, m, n_samples)
        gaps[sl] = np.abs(fx[:, None, None] - vals).mean(axis=2)
    return _auc_over_k(gaps) if auc else gaps[:, 0]


_PARAMS = {
    **_BASE_PARAMS,
    "k": [Interval(numbers.Integral, -1, None, closed="left"),
          Interval(numbers.Real, 0, 1, closed="right")],
    "auc": ["boolean"],
    "perturber": [GaussianNoisePerturber, None],
    "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
    "seed_policy": [StrOptions({"row", "openxai"})],
    "random_state": ["random_state"],
    "order_by": [StrOptions({"abs", "signed"})],
}

_DOC = """    estimator : fitted estimator
        The model whose explanations are scored.
    X : array-like of shape (n_samples, n_features)
        The explained rows.
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    k : int or float, default=0.25
        With ``auc=True`` the largest ``K`` of the area under the curve over
        ``k = 1..K``; otherwise the single ``k``.  ``-1`` is all features, an
        int in ``[1, n_features]`` is used as is, a float in ``(0, 1]`` is a
        fraction rounded up (:func:`sklearn_xai.utils.resolve_k`).
    auc : bool, default=True
        Report the trapezoid-weighted mean over ``k = 1..K`` (OpenXAI's
        published numbers, SPEC 4.1.6) instead of the value at ``K``.
    perturber : GaussianNoisePerturber, default=None
        How features are perturbed.  ``None`` is
        ``GaussianNoisePerturber(std=0.1)`` (σ = 0.1 × feature std, binary
        features flipped with p = σ√(2/π)); an unfitted perturber is fitted
        on ``X``: pass one fitted on the training rows to take the scales
        from there, and ``GaussianNoisePerturber(0.1, sigma_scale="absolute")``
        for OpenXAI's setting on min–max scaled data.
    n_samples : int, default=100
        Perturbed copies ``N`` per row (the same draws serve every ``k``).
    seed_policy : {"row", "openxai"}, default="row"
        ``"row"``: row ``i``'s noise comes from ``random_state`` and a hash of
        the row, so scores do not depend on batch size or row order;
        ``"openxai"``: seeded by the row's position ``i`` in ``X`` (OpenXAI).
        Either way PGI and PGU of the same row share their draws.
    random_state : int, RandomState instance or None, default=None
        Seeds the perturbations.
    order_by : {"abs", "signed"}, default="abs"
        Top-k by magnitude (OpenXAI since 2024) or by signed value (its
        pre-2024 code).
    target : "predicted", int or label, default="predicted"
        Explained class; with ``"predicted"`` it is fixed at the original row.
    output : {"auto", "proba", "decision", "predict"}, default="auto"
    batch_size : int or None, default=None
        Maximum rows per model call."""


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
def pgi(estimator, X, attributions, *, k=0.25, auc=True, perturber=None,
        n_samples=100, seed_policy="row", random_state=None, order_by="abs",
        target="predicted", output="auto", batch_size=None):
    """Prediction gap on important features (PGI, OpenXAI), SPEC 4.2.1.

    ``PGI_k(x) = mean_i |f(x) - f(x'_i)|`` where ``x'_i`` perturbs the top-k
    features of the explanation (the others keep their value), averaged over
    ``n_samples`` draws; by default the area under ``k = 1..⌈d/4⌉``.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Greater is better.

    See Also
    --------
    pgu : The same gap when the unimportant features are perturbed.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import pgi
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 8))
    >>> model = LinearRegression().fit(X, X @ [8.0, 7, 6, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> a = pgi(model, X, exact, random_state=0).mean()
    >>> b = pgi(model, X, exact[:, ::-1], random_state=0).mean()
    >>> bool(a > b)
    True
    """
    return _prediction_gap(
        estimator, X, attributions, perturb_top=True, k=k, auc=auc,
        perturber=perturber, n_samples=n_samples, seed_policy=seed_policy,
        random_state=random_state, order_by=order_by, target=target, output=output,
        batch_size=batch_size,
    )


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
def pgu(estimator, X, attributions, *, k=0.25, auc=True, perturber=None,
        n_samples=100, seed_policy="row", random_state=None, order_by="abs",
        target="predicted", output="auto", batch_size=None):
    """Prediction gap on unimportant features (PGU, OpenXAI), SPEC 4.2.1.

    ``PGU_k(x) = mean_i |f(x) - f(x'_i)|`` where ``x'_i`` perturbs every
    feature *outside* the top-k of the explanation; by default the area under
    ``k = 1..⌈d/4⌉``.  PGU perturbs ``d - k`` features, so it can exceed PGI
    even for a perfect explanation: compare explainers on each metric.

    Parameters
    ----------
{params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better.

    See Also
    --------
    pgi : The same gap when the important features are perturbed.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import pgu
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 8))
    >>> model = LinearRegression().fit(X, X @ [8.0, 7, 6, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> a = pgu(model, X, exact, random_state=0).mean()
    >>> b = pgu(model, X, exact[:, ::-1], random_state=0).mean()
    >>> bool(a < b)
    True
    """
    return _prediction_gap(
        estimator, X, attributions, perturb_top=False, k=k, auc=auc,
        perturber=perturber, n_samples=n_samples, seed_policy=seed_policy,
        random_state=random_state, order_by=order_by, target=target, output=output,
        batch_size=batch_size,
    )


pgi.__doc__ = pgi.__doc__.replace("{params}", _DOC)
pgu.__doc__ = pgu.__doc__.replace("{params}", _DOC)

register_metric(
    "pgi", pgi, kind="model", greater_is_better=True, seed="OpenXAI",
    description="Output change when the top-k features are perturbed.",
)
register_metric(
    "neg_pgu", pgu, kind="model", greater_is_better=False, seed="OpenXAI",
    description="Output change when all but the top-k features are perturbed.",
)
