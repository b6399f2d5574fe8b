"""Prediction gap on important / unimportant features (OpenXAI; definitions
in the user guide, :ref:`def-pgi`)."""

import numbers

import numpy as np

from sklearn_xai.masking import BasePerturber, GaussianNoisePerturber, check_perturber
from sklearn_xai.metrics._common import _BASE_PARAMS, _check_inputs
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import keyed_streams
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._sklearn import fast_validate_params as validate_params
from sklearn_xai.utils._validation import resolve_k, top_k_coalitions

__all__ = ["pgi", "pgu"]


def _auc_over_k(M):
    """Trapezoid-weighted mean of M(k), k = 1..K, over t in [0, 1] (the area
    over k of the user guide's definitions, ``def-auc-k``)."""
    K = M.shape[1]
    if K == 1:
        return M[:, 0]
    return (M[:, :-1] + M[:, 1:]).sum(axis=1) / (2.0 * (K - 1))


def _default_perturber(X_train):
    """PGI / PGU's perturber for ``perturber=None``: σ = 0.1 × training std
    with binary columns detected on ``X_train``, else σ = 0.1 in input units
    with every column continuous."""
    if X_train is not None:
        return GaussianNoisePerturber(0.1)
    return GaussianNoisePerturber(0.1, sigma_scale="absolute", binary_features=None)


def _prediction_gap(estimator, X, attributions, *, owner, perturb_top, k, auc,
                    perturber, X_train, n_perturbations, convention,
                    random_state, order_by, target, output,
                    batch_size):
    X, A = _check_inputs(X, attributions)
    n, d = X.shape
    # Never fitted on X: the noise scales would depend on the other rows.
    perturber = check_perturber(perturber, X_train, default=_default_perturber(X_train),
                                n_features=d)
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    K = resolve_k(k, d)
    ks = list(range(1, K + 1)) if auc else [K]
    # fixed = features that keep their value: all but the top-k for PGI.
    fixed = top_k_coalitions(A, ks, order_by=order_by, rounding="ceil",
                             keep_top=not perturb_top)
    # OpenXAI's code seeds row i by its position i.
    policy = "openxai" if convention == "openxai_code" else "row"
    streams = keyed_streams(X, random_state, seed_policy=policy)
    m = len(ks)
    N = n_perturbations
    gaps = np.empty((n, m))

    def build(sl, out):
        Z = perturber.perturb(X[sl], fixed[sl], N, streams[sl])
        out[...] = Z.reshape(out.shape)

    for sl, t, raw_x, raw_z in f.blocks_with_x(X, m * N, build,
                                               target_index=f.fixed_target_index(X)):
        fx = f.select(raw_x, t)
        vals = f.select(raw_z, t).reshape(-1, m, N)
        gaps[sl] = np.abs(fx[:, None, None] - vals).mean(axis=2)
    return _auc_over_k(gaps) if auc else gaps[:, 0]


_PARAMS = {
    **_BASE_PARAMS,
    "k": [Interval(numbers.Integral, -1, None, closed="left"),
          Interval(numbers.Real, 0, 1, closed="right")],
    "auc": ["boolean"],
    "perturber": [BasePerturber, None],
    "X_train": ["array-like", None],
    "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
    "convention": [StrOptions({"paper", "openxai_code"})],
    "random_state": ["random_state"],
    "order_by": [StrOptions({"abs", "signed"})],
}


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", "attributions", "random_state", "target", "output",
              "batch_size", "scores_greater")
def pgi(estimator, X, attributions, *, k=0.25, auc=True, perturber=None,
        X_train=None, n_perturbations=100, convention="paper", random_state=None,
        order_by="abs", target="predicted", output="auto", batch_size=None):
    """Prediction gap on important features (PGI, OpenXAI).

    ``PGI_k(x) = mean_i |f(x) - f(x'_i)|`` where ``x'_i`` perturbs the top-k
    features of the explanation (the others keep their value), averaged over
    ``n_perturbations`` draws; by default the area under ``k = 1..⌈d/4⌉``.
    See :ref:`def-pgi` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    k : int or float, default=0.25
        With ``auc=True`` the largest ``K`` of the area under the curve over
        ``k = 1..K``; otherwise the single ``k``.  ``-1`` is all features, an
        int in ``[1, n_features]`` is used as is, a float in ``(0, 1]`` is a
        fraction rounded up (:func:`sklearn_xai.utils.resolve_k`).
    auc : bool, default=True
        Report the trapezoid-weighted mean over ``k = 1..K`` (OpenXAI's
        published numbers; see :ref:`def-auc-k`) instead of the value at
        ``K``.
    perturber : GaussianNoisePerturber or BasePerturber, default=None
        How the top-k features are perturbed (resolved by
        :func:`sklearn_xai.masking.check_perturber`).  A fitted perturber is
        used as is.  An unfitted one is fitted on ``X_train``, never on
        ``X``: noise scales, binary columns or ranges learnt from the scored
        rows would make a row's score depend on the other rows of its batch
        (the same row scored alone would get no noise at all).  Without
        ``X_train`` it is set up without data: ``sigma_scale="absolute"``
        and ``clip=False`` are then required and ``binary_features="auto"``
        finds no binary column (with a warning).  ``None`` is
        ``GaussianNoisePerturber(0.1)`` fitted on ``X_train`` (σ_j = 0.1 ×
        training std of feature ``j``, binary columns of ``X_train`` flipped
        with p = 0.1·√(2/π)) and, without ``X_train``,
        ``GaussianNoisePerturber(0.1, sigma_scale="absolute",
        binary_features=None)``: σ = 0.1 in the model's input units, every
        column continuous, which is OpenXAI's noise on its min–max scaled
        inputs [1]_.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows of the explained model, on which an unfitted
        ``perturber`` is fitted (noise scales, binary columns, range).
    n_perturbations : int, default=100
        Perturbed copies ``N`` per row (the same draws serve every ``k``).
    convention : {"paper", "openxai_code"}, default="paper"
        ``"paper"``: row ``i``'s noise comes from ``random_state`` and a hash
        of the row, so scores do not depend on batch size or row order;
        ``"openxai_code"``: seeded by the row's position ``i`` in ``X``, as
        OpenXAI's code.  Either way PGI and PGU of the same row share their
        draws.
    {random_state}
    order_by : {"abs", "signed"}, default="abs"
        Top-k by magnitude (OpenXAI since 2024) or by signed value (its
        pre-2024 code).
    {target}
    {output}
    {batch_size}

    Returns
    -------
    {scores_greater}

    See Also
    --------
    pgu : The same gap when the unimportant features are perturbed.

    References
    ----------
    .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

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

    A row's score does not depend on the rows scored with it:

    >>> alone = pgi(model, X[:1], exact[:1], X_train=X, random_state=0)
    >>> among = pgi(model, X, exact, X_train=X, random_state=0)[:1]
    >>> bool(np.allclose(alone, among, rtol=1e-12))
    True
    """
    return _prediction_gap(
        estimator, X, attributions, owner="pgi", perturb_top=True, k=k, auc=auc,
        perturber=perturber, X_train=X_train, n_perturbations=n_perturbations,
        convention=convention,
        random_state=random_state, order_by=order_by, target=target, output=output,
        batch_size=batch_size,
    )


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", "attributions", "random_state", "target", "output",
              "batch_size", "scores_lower")
def pgu(estimator, X, attributions, *, k=0.25, auc=True, perturber=None,
        X_train=None, n_perturbations=100, convention="paper", random_state=None,
        order_by="abs", target="predicted", output="auto", batch_size=None):
    """Prediction gap on unimportant features (PGU, OpenXAI).

    ``PGU_k(x) = mean_i |f(x) - f(x'_i)|`` where ``x'_i`` perturbs every
    feature *outside* the top-k of the explanation, averaged over
    ``n_perturbations`` draws; by default the area under ``k = 1..⌈d/4⌉``.
    PGU perturbs ``d - k`` features, so it can exceed PGI even for a perfect
    explanation: compare explainers on each metric.  See :ref:`def-pgi` in
    the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {attributions}
    k : int or float, default=0.25
        With ``auc=True`` the largest ``K`` of the area under the curve over
        ``k = 1..K``; otherwise the single ``k``.  ``-1`` is all features, an
        int in ``[1, n_features]`` is used as is, a float in ``(0, 1]`` is a
        fraction rounded up (:func:`sklearn_xai.utils.resolve_k`).
    auc : bool, default=True
        Report the trapezoid-weighted mean over ``k = 1..K`` (OpenXAI's
        published numbers; see :ref:`def-auc-k`) instead of the value at
        ``K``.
    perturber : GaussianNoisePerturber or BasePerturber, default=None
        How the features outside the top-k are perturbed (resolved by
        :func:`sklearn_xai.masking.check_perturber`).  A fitted perturber is
        used as is; an unfitted one is fitted on ``X_train``, never on ``X``
        (a row's score would depend on the other rows of its batch); without
        ``X_train`` it is set up without data (``sigma_scale="absolute"``
        and ``clip=False`` required).  ``None`` is
        ``GaussianNoisePerturber(0.1)`` fitted on ``X_train`` and, without
        ``X_train``, ``GaussianNoisePerturber(0.1, sigma_scale="absolute",
        binary_features=None)``: σ = 0.1 in the model's input units, every
        column continuous, which is OpenXAI's noise on its min–max scaled
        inputs [1]_ (see :func:`pgi`).
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows of the explained model, on which an unfitted
        ``perturber`` is fitted (noise scales, binary columns, range).
    n_perturbations : int, default=100
        Perturbed copies ``N`` per row (the same draws serve every ``k``).
    convention : {"paper", "openxai_code"}, default="paper"
        ``"paper"``: row ``i``'s noise comes from ``random_state`` and a hash
        of the row, so scores do not depend on batch size or row order;
        ``"openxai_code"``: seeded by the row's position ``i`` in ``X``, as
        OpenXAI's code.  Either way PGI and PGU of the same row share their
        draws.
    {random_state}
    order_by : {"abs", "signed"}, default="abs"
        Top-k by magnitude (OpenXAI since 2024) or by signed value (its
        pre-2024 code).
    {target}
    {output}
    {batch_size}

    Returns
    -------
    {scores_lower}

    See Also
    --------
    pgi : The same gap when the important features are perturbed.

    References
    ----------
    .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

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
        estimator, X, attributions, owner="pgu", perturb_top=False, k=k, auc=auc,
        perturber=perturber, X_train=X_train, n_perturbations=n_perturbations,
        convention=convention,
        random_state=random_state, order_by=order_by, target=target, output=output,
        batch_size=batch_size,
    )


register_metric(
    "pgi", pgi, kind="model", greater_is_better=True,
    requires=("masker", "training_rows", "random_state"), source="OpenXAI",
    description="Output change when the top-k features are perturbed.",
)
register_metric(
    "neg_pgu", pgu, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"), source="OpenXAI",
    description="Output change when all but the top-k features are perturbed.",
)
