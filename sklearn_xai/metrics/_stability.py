"""Stability of explanations under small input changes (definitions in the
user guide, :ref:`def-stability-metrics`).

Relative stability (OpenXAI, after Agarwal et al. 2022) compares the change
of the explanation with the change of the input (RIS), of the model's first
hidden representation (RRS) or of its output (ROS); max-sensitivity (Yeh et
al. 2019; BEExAI, Captum, Quantus) is the largest explanation change in a
small box around the input.  Both re-explain perturbed rows with a fitted
explainer; all perturbed rows of a block of instances are explained in one
``explainer.explain`` call.  ``_explained_neighbours`` (neighbours drawn
per row, explained block by block for the class explained at their row) is
the mechanism max-sensitivity shares with the robustness metrics of
``_robustness.py`` (average sensitivity, local Lipschitz estimate,
continuity); relative stability, which first keeps the neighbours of the
row's class, uses the same explaining step (``_explain_neighbours``).
"""

import numbers

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.masking import BasePerturber, GaussianNoisePerturber, check_perturber
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_inputs,
    _check_training_rows,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._estimators import transform_steps, unwrap
from sklearn_xai.utils._output import ExplainedOutput, block_slices
from sklearn_xai.utils._random import RowStreams, row_keys
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    fast_validate_params,
)
from sklearn_xai.utils._stats import handle_undefined
from sklearn_xai.utils._torch import first_hidden_layer

__all__ = [
    "max_sensitivity",
    "relative_input_stability",
    "relative_output_stability",
    "relative_representation_stability",
]

_ACTIVATIONS = {
    "identity": lambda H: H,
    "relu": lambda H: np.maximum(H, 0.0),
    "tanh": np.tanh,
    "logistic": lambda H: 1.0 / (1.0 + np.exp(-H)),
}


# Neighbours drawn per row (n_perturbations) and explained per row
# (max_neighbours) by default.
_N_PERTURBATIONS, _MAX_NEIGHBOURS = 1000, 100


# ----------------------------------------------------------------- helpers
def _check_explainer(explainer):
    if explainer is None or not hasattr(explainer, "explain"):
        raise TypeError(
            "This stability metric re-explains perturbed rows: pass explainer=<a "
            "fitted sklearn_xai explainer> (it needs an explain(X, target=..., "
            f"row_keys=...) method); got {type(explainer).__name__}."
        )
    return explainer


_DISCRETE_FEATURES_DOC = """
    discrete_features : array-like of bool or int, default=None
        Columns that take no noise: a boolean mask of shape (n_features,) or
        column indices.  Category codes, booleans and integers are such
        columns (continuous noise makes no value of theirs; this is how
        :func:`~sklearn_xai.benchmark.compare_explainers` scores a raw
        DataFrame): a neighbour keeps the row's value there.  ``None``:
        every column takes noise."""


def _discrete_mask(discrete_features, n_features):
    """Boolean mask of ``discrete_features`` (a mask, indices or None)."""
    mask = np.zeros(n_features, dtype=bool)
    if discrete_features is None:
        return mask
    given = np.asarray(discrete_features).ravel()
    if given.dtype == bool:
        if given.shape != (n_features,):
            raise ValueError(
                f"discrete_features as a boolean mask needs {n_features} entries; got "
                f"{given.size}."
            )
        return given.copy()
    if given.size and (not np.issubdtype(given.dtype, np.integer)
                       or given.min() < -n_features or given.max() >= n_features):
        raise ValueError(
            "discrete_features must be a boolean mask or column indices in "
            f"[0, {n_features - 1}]; got {discrete_features!r}."
        )
    mask[given.astype(np.intp)] = True
    return mask


def _explain_neighbours(explainer, Z, owner, keys, labels, explainer_rng):
    """Attributions of neighbour rows ``Z``, each for the class of its owner.

    ``owner`` indexes ``keys`` and ``labels`` (the explained class of each
    original row, or None).  ``"common"`` explains every neighbour with the
    random-stream key of its original row (``keys``: the explainer's default
    keys of the explained rows; common random numbers), ``"independent"``
    with its own key.
    """
    keys = keys[owner] if explainer_rng == "common" else None
    target = None if labels is None else labels[owner]
    return np.asarray(explainer.explain(Z, target=target, row_keys=keys),
                      dtype=np.float64)


def _class_labels(f, t):
    """Class labels of the explained classes (None for regression)."""
    if t is None:
        return None
    return np.asarray(f.estimator.classes_)[t]


def _hidden_representation(estimator, batch_size):
    """ρ(Z): the first hidden layer after its activation, or a TypeError."""
    steps, final = unwrap(estimator)

    def transform(Z):
        return np.asarray(transform_steps(steps, Z))

    if hasattr(final, "coefs_") and hasattr(final, "hidden_layer_sizes"):
        if len(final.coefs_) < 2:
            raise NotApplicableError(f"{type(final).__name__} has no hidden layer.")
        act = _ACTIVATIONS[final.activation]
        W, b = final.coefs_[0], final.intercepts_[0]
        return lambda Z: act(transform(Z) @ W + b)
    if hasattr(final, "module_"):
        inner = first_hidden_layer(final, batch_size)
        return lambda Z: inner(transform(Z))
    raise NotApplicableError(
        "relative_representation_stability needs the model's internal "
        f"representation, and {type(final).__name__} exposes none. It works with "
        "a skorch net (its first hidden layer after the activation, read with a "
        "forward hook on estimator.module_), a scikit-learn MLPClassifier / "
        "MLPRegressor, or a Pipeline ending in one; or pass representation=<"
        "callable mapping X to hidden features>. For other models use "
        "relative_input_stability or relative_output_stability."
    )


def _stability_ratios(EA, EN, RA, RN, p, form, eps_min):
    """Per-neighbour ratios (m,) of explanation change to representation change."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if form == "norm":
            num = np.linalg.norm(EA - EN, ord=p, axis=1) / np.linalg.norm(
                EA, ord=p, axis=1)
            den = np.linalg.norm(RA - RN, ord=p, axis=1) / np.linalg.norm(
                RA, ord=p, axis=1)
        else:
            num = np.linalg.norm((EA - EN) / EA, ord=p, axis=1)
            den = np.linalg.norm((RA - RN) / RA, ord=p, axis=1)
            if eps_min is not None:
                den = np.maximum(den, eps_min)
        ratio = num / den
    valid = np.isfinite(ratio) & (den > 0)
    return np.where(valid, ratio, np.nan), valid


def _relative_stability(estimator, X, attributions, *, kind, explainer,
                        n_perturbations, max_neighbours, perturber, p,
                        form, eps_min, explainer_rng, nan_policy, return_details,
                        random_state, target, output, batch_size, representation,
                        discrete_features=None):
    N = n_perturbations
    X, A = _check_inputs(X, attributions)
    explainer = _check_explainer(explainer)
    n, d = X.shape
    check_allocation(2 * N * d, what="the neighbours of one row and their "
                     "attributions", parameter="n_perturbations", value=N)
    if output == "logit":
        output = "decision"
    # Never fitted on X: the neighbourhoods would depend on the other rows.
    perturber = check_perturber(
        perturber, default=GaussianNoisePerturber(std=1e-5, sigma_scale="absolute",
                                                  binary_features=None),
        n_features=d)
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    if kind in ("input", "output"):
        rho = None
    elif representation is not None:
        rho = representation
    else:
        rho = _hidden_representation(estimator, batch_size)
    keys = row_keys(X)
    streams = RowStreams(random_state, keys)
    scores = np.full(n, -np.inf)
    n_kept = np.zeros(n, dtype=np.intp)
    n_valid = np.zeros(n, dtype=np.intp)
    # Discrete columns are held fixed by the perturber: they take no noise.
    no_fix = _discrete_mask(discrete_features, d)
    neighbours = {}

    def build(sl, out):
        out[...] = perturber.perturb(X[sl], no_fix, N, streams[sl]).reshape(out.shape)
        neighbours["Z"] = out

    # f(X) comes in the same model calls as the neighbours of its block.
    for sl, t, raw_x, raw_z in f.blocks_with_x(X, N, build,
                                               target_index=f.fixed_target_index(X)):
        Zf = neighbours.pop("Z").reshape(-1, d)
        c = len(raw_x)
        raw_x = raw_x.reshape(c, -1)
        raw = raw_z.reshape(c * N, -1)
        owner = np.repeat(np.arange(sl.start, sl.start + c), N)
        same = np.ones(c * N, dtype=bool)
        if f.output != "predict":
            same = raw.argmax(axis=1) == np.repeat(raw_x.argmax(axis=1), N)
        # The first max_neighbours neighbours with the original class.
        rank = np.cumsum(same.reshape(c, N), axis=1).ravel()
        kept = same & (rank <= max_neighbours)
        if not kept.any():
            continue
        owner = owner[kept]
        local = owner - sl.start
        np.add.at(n_kept, owner, 1)
        Zk = Zf[kept]
        EN = _explain_neighbours(explainer, Zk, local, keys[sl], _class_labels(f, t),
                                 explainer_rng)
        if kind == "input":
            RA, RN = X[owner], Zk
        elif kind == "output":
            RA, RN = raw_x[local], raw[kept]
        else:
            rho_x = np.asarray(rho(X[sl]), dtype=np.float64).reshape(c, -1)
            RA = rho_x[local]
            RN = np.asarray(rho(Zk), dtype=np.float64).reshape(len(Zk), -1)
        ratio, valid = _stability_ratios(A[owner], EN, RA, RN, p, form, eps_min)
        np.add.at(n_valid, owner, valid)
        np.maximum.at(scores, owner[valid], ratio[valid])
    scores[n_valid == 0] = np.nan
    name = {"input": "RIS", "representation": "RRS", "output": "ROS"}[kind]
    scores = handle_undefined(scores, np.isnan(scores), nan_policy, what=name,
                              reason="no valid perturbation, or a zero explanation")
    if return_details:
        return Bunch(scores=scores, n_neighbours=n_kept, n_valid=n_valid,
                     n_undefined=int(np.isnan(scores).sum()))
    return scores


_STAB_PARAMS = {
    **_BASE_PARAMS,
    "explainer": [HasMethods(["explain"])],
    "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
    "max_neighbours": [Interval(numbers.Integral, 1, None, closed="left")],
    "perturber": [BasePerturber, None],
    "p": [Interval(numbers.Real, 1, None, closed="left")],
    "form": [StrOptions({"norm", "elementwise"})],
    "eps_min": [Interval(numbers.Real, 0, None, closed="neither"), None],
    "explainer_rng": [StrOptions({"common", "independent"})],
    "nan_policy": [StrOptions({"omit", "zero", "raise"})],
    "return_details": ["boolean"],
    "random_state": ["random_state"],
    "discrete_features": ["array-like", None],
}


@fast_validate_params(_STAB_PARAMS, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", "target", "output",
              discrete_features=_DISCRETE_FEATURES_DOC)
def relative_input_stability(estimator, X, attributions, *, explainer,
                             n_perturbations=_N_PERTURBATIONS,
                             max_neighbours=_MAX_NEIGHBOURS, perturber=None, p=2,
                             form="norm", eps_min=None, explainer_rng="common",
                             nan_policy="omit", return_details=False,
                             random_state=None, target="predicted", output="auto",
                             batch_size=None, discrete_features=None):
    """Relative input stability RIS (OpenXAI).

    ``RIS(x) = max_{x'} (‖e_x - e_x'‖/‖e_x‖) / (‖x - x'‖/‖x‖)`` over the
    neighbours ``x'`` of ``x`` with the same predicted class.  See
    :ref:`def-relative-stability` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``e_x`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the neighbours, for the class explained at ``x``.
    n_perturbations : int, default=1000
        Neighbours (perturbed copies) drawn per row.
    max_neighbours : int, default=100
        Only the first ``max_neighbours`` neighbours whose predicted class is
        that of ``x`` are explained (for regressors, the first
        ``max_neighbours`` neighbours).
    perturber : GaussianNoisePerturber or BasePerturber, default=None
        Draws the neighbourhood (resolved by
        :func:`sklearn_xai.masking.check_perturber`); ``None`` is
        ``GaussianNoisePerturber(std=1e-5, sigma_scale="absolute",
        binary_features=None)`` (σ = 1e-5 in input units on every column).
        A fitted perturber is used as is; an unfitted one is set up without
        data (it must have ``sigma_scale="absolute"``; ``"auto"`` binary
        columns are then none), never fitted on ``X``, so that a row's
        neighbourhood does not depend on the other rows.  For OpenXAI's
        flips of binary features (p = σ√(2/π)) pass a perturber fitted on
        the training rows.
    p : float, default=2
        Order of the norms.
    form : {"norm", "elementwise"}, default="norm"
        ``"norm"`` (OpenXAI): ``(‖e_x - e_x'‖/‖e_x‖) / (‖ρ(x) - ρ(x')‖/‖ρ(x)‖)``;
        ``"elementwise"`` (Agarwal et al. 2022):
        ``‖(e_x - e_x') ⊘ e_x‖ / max(‖(ρ(x) - ρ(x')) ⊘ ρ(x)‖, eps_min)``.
    eps_min : float or None, default=None
        Floor of the denominator of ``form="elementwise"`` (off by default).
    explainer_rng : {"common", "independent"}, default="common"
        ``"common"``: neighbours of row ``i`` are explained with row ``i``'s
        random stream (common random numbers; measures smoothness);
        ``"independent"``: with their own streams (a stochastic explainer's
        Monte-Carlo noise then dominates, as in OpenXAI's tables).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows with no valid neighbour (every denominator zero or undefined,
        ``‖e_x‖ = 0``, or no neighbour of the same class) are undefined:
        NaN with a warning (``"omit"``), 0, or an error.
    return_details : bool, default=False
        Also return the counts.
    random_state : int, RandomState instance or None, default=None
        Seeds the neighbourhoods: row ``i``'s neighbours are
        ``perturber.perturb(X[i:i+1], discrete_features fixed, n_perturbations,
        streams[i:i+1])`` with ``streams = RowStreams(random_state,
        row_keys(X))``, so scores do not depend on batch size or row order.
    {target}
    {output}
    batch_size : int or None, default=None
        Maximum rows per model call; also bounds the block of rows whose
        neighbours are explained together.
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Maximum ratio over the valid neighbours (NaN where undefined); lower
        is better.  OpenXAI reports the log of the mean.
    details : Bunch
        Only with ``return_details=True``: ``scores``, ``n_neighbours`` (kept
        neighbours per row), ``n_valid`` (valid ratios per row) and
        ``n_undefined`` (rows that are NaN before ``nan_policy``).

    References
    ----------
    .. [1] C. Agarwal, N. Johnson, M. Pawelczyk, S. Krishna, E. Saxena,
       M. Zitnik and H. Lakkaraju, "Rethinking Stability for
       Attribution-based Explanations", ICLR 2022 Workshop on PAIR^2Struct.
    .. [2] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import relative_input_stability
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = relative_input_stability(model, X[:2], ex.transform(X[:2]),
    ...                              explainer=ex, n_perturbations=50,
    ...                              random_state=0)
    >>> bool(np.all(s > 0))
    True
    """
    return _relative_stability(
        estimator, X, attributions, kind="input", explainer=explainer,
        n_perturbations=n_perturbations, max_neighbours=max_neighbours,
        discrete_features=discrete_features,
        perturber=perturber, p=p, form=form, eps_min=eps_min,
        explainer_rng=explainer_rng, nan_policy=nan_policy,
        return_details=return_details, random_state=random_state, target=target,
        output=output, batch_size=batch_size, representation=None,
    )


@fast_validate_params(
    {**_STAB_PARAMS, "representation": [callable, None]},
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", "target", "output",
              discrete_features=_DISCRETE_FEATURES_DOC)
def relative_representation_stability(estimator, X, attributions, *, explainer,
                                      n_perturbations=_N_PERTURBATIONS,
                                      max_neighbours=_MAX_NEIGHBOURS,
                                      perturber=None, p=2, form="norm",
                                      eps_min=None, explainer_rng="common",
                                      nan_policy="omit", return_details=False,
                                      random_state=None, representation=None,
                                      target="predicted", output="auto",
                                      batch_size=None, discrete_features=None):
    """Relative representation stability RRS (OpenXAI).

    ``RRS(x) = max_{x'} (‖e_x - e_x'‖/‖e_x‖) / (‖ρ(x) - ρ(x')‖/‖ρ(x)‖)``
    with ``ρ`` the model's first hidden layer after its activation.  See
    :ref:`def-relative-stability` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``e_x`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the neighbours, for the class explained at ``x``.
    n_perturbations : int, default=1000
        Neighbours (perturbed copies) drawn per row.
    max_neighbours : int, default=100
        Only the first ``max_neighbours`` neighbours whose predicted class is
        that of ``x`` are explained (for regressors, the first
        ``max_neighbours`` neighbours).
    perturber : GaussianNoisePerturber or BasePerturber, default=None
        Draws the neighbourhood (resolved by
        :func:`sklearn_xai.masking.check_perturber`); ``None`` is
        ``GaussianNoisePerturber(std=1e-5, sigma_scale="absolute",
        binary_features=None)`` (σ = 1e-5 in input units on every column).
        A fitted perturber is used as is; an unfitted one is set up without
        data (it must have ``sigma_scale="absolute"``; ``"auto"`` binary
        columns are then none), never fitted on ``X``, so that a row's
        neighbourhood does not depend on the other rows.  For OpenXAI's
        flips of binary features (p = σ√(2/π)) pass a perturber fitted on
        the training rows.
    p : float, default=2
        Order of the norms.
    form : {"norm", "elementwise"}, default="norm"
        ``"norm"`` (OpenXAI): ``(‖e_x - e_x'‖/‖e_x‖) / (‖ρ(x) - ρ(x')‖/‖ρ(x)‖)``;
        ``"elementwise"`` (Agarwal et al. 2022):
        ``‖(e_x - e_x') ⊘ e_x‖ / max(‖(ρ(x) - ρ(x')) ⊘ ρ(x)‖, eps_min)``.
    eps_min : float or None, default=None
        Floor of the denominator of ``form="elementwise"`` (off by default).
    explainer_rng : {"common", "independent"}, default="common"
        ``"common"``: neighbours of row ``i`` are explained with row ``i``'s
        random stream (common random numbers; measures smoothness);
        ``"independent"``: with their own streams (a stochastic explainer's
        Monte-Carlo noise then dominates, as in OpenXAI's tables).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows with no valid neighbour (every denominator zero or undefined,
        ``‖e_x‖ = 0``, or no neighbour of the same class) are undefined:
        NaN with a warning (``"omit"``), 0, or an error.
    return_details : bool, default=False
        Also return the counts.
    random_state : int, RandomState instance or None, default=None
        Seeds the neighbourhoods: row ``i``'s neighbours are
        ``perturber.perturb(X[i:i+1], discrete_features fixed, n_perturbations,
        streams[i:i+1])`` with ``streams = RowStreams(random_state,
        row_keys(X))``, so scores do not depend on batch size or row order.
    representation : callable or None, default=None
        ``ρ(Z) -> (len(Z), n_hidden)``.  ``None`` reads it from the model: a
        skorch net (forward hook on ``estimator.module_``: the activation
        module that follows its first Linear/Conv layer, or that layer's
        output if no activation module follows it), a scikit-learn
        ``MLPClassifier`` / ``MLPRegressor``, or a ``Pipeline`` ending in one.
        Other models raise a ``TypeError``.
    {target}
    {output}
    batch_size : int or None, default=None
        Maximum rows per model call; also bounds the block of rows whose
        neighbours are explained together.
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Maximum ratio over the valid neighbours (NaN where undefined); lower
        is better.  OpenXAI reports the log of the mean.
    details : Bunch
        Only with ``return_details=True``: ``scores``, ``n_neighbours`` (kept
        neighbours per row), ``n_valid`` (valid ratios per row) and
        ``n_undefined`` (rows that are NaN before ``nan_policy``).

    References
    ----------
    .. [1] C. Agarwal, N. Johnson, M. Pawelczyk, S. Krishna, E. Saxena,
       M. Zitnik and H. Lakkaraju, "Rethinking Stability for
       Attribution-based Explanations", ICLR 2022 Workshop on PAIR^2Struct.
    .. [2] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.neural_network import MLPRegressor
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import relative_representation_stability
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> model = MLPRegressor(hidden_layer_sizes=(8,), max_iter=50,
    ...                      random_state=0).fit(X, X.sum(1))
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = relative_representation_stability(
    ...     model, X[:2], ex.transform(X[:2]), explainer=ex, n_perturbations=50,
    ...     random_state=0)
    >>> s.shape
    (2,)
    """
    return _relative_stability(
        estimator, X, attributions, kind="representation", explainer=explainer,
        n_perturbations=n_perturbations, max_neighbours=max_neighbours,
        discrete_features=discrete_features,
        perturber=perturber, p=p, form=form, eps_min=eps_min,
        explainer_rng=explainer_rng, nan_policy=nan_policy,
        return_details=return_details, random_state=random_state, target=target,
        output=output, batch_size=batch_size, representation=representation,
    )


@fast_validate_params(
    {**_STAB_PARAMS,
     "output": [StrOptions({"auto", "proba", "decision", "logit", "predict", "margin"})]},
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", "target",
              discrete_features=_DISCRETE_FEATURES_DOC)
def relative_output_stability(estimator, X, attributions, *, explainer,
                              n_perturbations=_N_PERTURBATIONS,
                              max_neighbours=_MAX_NEIGHBOURS, perturber=None, p=2,
                              form="norm", eps_min=None, explainer_rng="common",
                              nan_policy="omit", return_details=False,
                              random_state=None, target="predicted", output="auto",
                              batch_size=None, discrete_features=None):
    """Relative output stability ROS (OpenXAI).

    ``ROS(x) = max_{x'} (‖e_x - e_x'‖/‖e_x‖) / (‖h(x) - h(x')‖/‖h(x)‖)``
    with ``h`` the model's full output vector: class probabilities by
    default (the paper), logits with ``output="logit"`` (OpenXAI's code and
    tables), ``predict`` for regressors.  See :ref:`def-relative-stability`
    in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``e_x`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the neighbours, for the class explained at ``x``.
    n_perturbations : int, default=1000
        Neighbours (perturbed copies) drawn per row.
    max_neighbours : int, default=100
        Only the first ``max_neighbours`` neighbours whose predicted class is
        that of ``x`` are explained (for regressors, the first
        ``max_neighbours`` neighbours).
    perturber : GaussianNoisePerturber or BasePerturber, default=None
        Draws the neighbourhood (resolved by
        :func:`sklearn_xai.masking.check_perturber`); ``None`` is
        ``GaussianNoisePerturber(std=1e-5, sigma_scale="absolute",
        binary_features=None)`` (σ = 1e-5 in input units on every column).
        A fitted perturber is used as is; an unfitted one is set up without
        data (it must have ``sigma_scale="absolute"``; ``"auto"`` binary
        columns are then none), never fitted on ``X``, so that a row's
        neighbourhood does not depend on the other rows.  For OpenXAI's
        flips of binary features (p = σ√(2/π)) pass a perturber fitted on
        the training rows.
    p : float, default=2
        Order of the norms.
    form : {"norm", "elementwise"}, default="norm"
        ``"norm"`` (OpenXAI): ``(‖e_x - e_x'‖/‖e_x‖) / (‖ρ(x) - ρ(x')‖/‖ρ(x)‖)``;
        ``"elementwise"`` (Agarwal et al. 2022):
        ``‖(e_x - e_x') ⊘ e_x‖ / max(‖(ρ(x) - ρ(x')) ⊘ ρ(x)‖, eps_min)``.
    eps_min : float or None, default=None
        Floor of the denominator of ``form="elementwise"`` (off by default).
    explainer_rng : {"common", "independent"}, default="common"
        ``"common"``: neighbours of row ``i`` are explained with row ``i``'s
        random stream (common random numbers; measures smoothness);
        ``"independent"``: with their own streams (a stochastic explainer's
        Monte-Carlo noise then dominates, as in OpenXAI's tables).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows with no valid neighbour (every denominator zero or undefined,
        ``‖e_x‖ = 0``, or no neighbour of the same class) are undefined:
        NaN with a warning (``"omit"``), 0, or an error.
    return_details : bool, default=False
        Also return the counts.
    random_state : int, RandomState instance or None, default=None
        Seeds the neighbourhoods: row ``i``'s neighbours are
        ``perturber.perturb(X[i:i+1], discrete_features fixed, n_perturbations,
        streams[i:i+1])`` with ``streams = RowStreams(random_state,
        row_keys(X))``, so scores do not depend on batch size or row order.
    {target}
    output : {"auto", "proba", "decision", "logit", "predict", "margin"}, default="auto"
        The output vector ``h``: ``"auto"`` is ``predict_proba`` for
        classifiers that have it, else ``decision_function``, else
        ``predict``; ``"logit"`` is an alias of ``"decision"`` here.
    batch_size : int or None, default=None
        Maximum rows per model call; also bounds the block of rows whose
        neighbours are explained together.
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Maximum ratio over the valid neighbours (NaN where undefined); lower
        is better.  OpenXAI reports the log of the mean.
    details : Bunch
        Only with ``return_details=True``: ``scores``, ``n_neighbours`` (kept
        neighbours per row), ``n_valid`` (valid ratios per row) and
        ``n_undefined`` (rows that are NaN before ``nan_policy``).

    References
    ----------
    .. [1] C. Agarwal, N. Johnson, M. Pawelczyk, S. Krishna, E. Saxena,
       M. Zitnik and H. Lakkaraju, "Rethinking Stability for
       Attribution-based Explanations", ICLR 2022 Workshop on PAIR^2Struct.
    .. [2] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import relative_output_stability
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> clf = LogisticRegression().fit(X, X[:, 0] > 0)
    >>> ex = FeatureAblation(FrozenEstimator(clf)).fit(X)
    >>> s = relative_output_stability(clf, X[:2], ex.transform(X[:2]),
    ...                               explainer=ex, n_perturbations=50,
    ...                               random_state=0)
    >>> s.shape
    (2,)
    """
    return _relative_stability(
        estimator, X, attributions, kind="output", explainer=explainer,
        n_perturbations=n_perturbations, max_neighbours=max_neighbours,
        discrete_features=discrete_features,
        perturber=perturber, p=p, form=form, eps_min=eps_min,
        explainer_rng=explainer_rng, nan_policy=nan_policy,
        return_details=return_details, random_state=random_state, target=target,
        output=output, batch_size=batch_size, representation=None,
    )


def _mean_pairwise_distance(X):
    """Per-feature mean |x_i - x_j| over the n(n - 1) pairs of distinct rows
    (BEExAI's radius, there a mean over ``i < j``), in O(n log n)."""
    n = X.shape[0]
    if n < 2:
        raise ValueError(
            'convention="beexai_code" takes its radius from the mean distance '
            "between two training rows: pass X_train with at least 2 rows."
        )
    v = np.sort(X, axis=0)
    w = 2.0 * np.arange(n) - n + 1.0
    return 2.0 * (w[:, None] * v).sum(axis=0) / (n * (n - 1.0))


@fast_validate_params(
    {
        **_BASE_PARAMS,
        "explainer": [HasMethods(["explain"])],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
        "radius_scale": [StrOptions({"auto", "std", "absolute"})],
        "X_train": ["array-like", None],
        "normalize": [StrOptions({"none", "relative", "per_noise"})],
        "convention": [StrOptions({"paper", "beexai_code"})],
        "explainer_rng": [StrOptions({"common", "independent"})],
        "random_state": ["random_state"],
        "discrete_features": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("X", "target", "output", discrete_features=_DISCRETE_FEATURES_DOC)
def max_sensitivity(estimator, X, attributions, *, explainer, n_perturbations=None,
                    radius=0.02, radius_scale="auto", X_train=None, normalize="none",
                    convention="paper", explainer_rng="common", random_state=None,
                    target="predicted", output="auto", batch_size=None,
                    discrete_features=None):
    """Max-sensitivity (Yeh et al. 2019; BEExAI, Captum, Quantus).

    ``SENS_max(x) = max_{j <= N} ‖a(x) - a(x + δ_j)‖_2`` with
    ``δ_j ~ U([-r, r]^d)``; the neighbours are explained for the class
    explained at ``x``.  See :ref:`def-max-sensitivity` in the user guide.

    Parameters
    ----------
    estimator : fitted estimator
        The explained model (gives the class explained at ``x``).
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``a(x)`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the perturbed rows.
    n_perturbations : int or None, default=None
        ``N``; ``None`` is 10 (Yeh, Captum) or 5
        (``convention="beexai_code"``).
    radius : float, default=0.02
        ``r`` of the uniform box.
    radius_scale : {"auto", "std", "absolute"}, default="auto"
        ``"std"``: ``r_j = radius × std_j`` (standard deviation of
        ``X_train``, required); ``"absolute"``: ``r_j = radius`` in input
        units (Captum's 0.02; Quantus uses 0.2 with
        ``n_perturbations=200``); ``"auto"``: ``"std"`` when ``X_train`` is
        given, else ``"absolute"``.  The scale is never taken from ``X``: a
        row's score would then depend on the other rows scored with it.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows giving the feature scales.
    normalize : {"none", "relative", "per_noise"}, default="none"
        ``"none"`` (Yeh), ``"relative"``: divided by ``‖a(x)‖`` (Captum's
        ``sensitivity_max``), ``"per_noise"``: each draw divided by
        ``‖δ_j‖_2``.
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: Yeh et al.'s definition above.  ``"beexai_code"``
        (BEExAI's code, per instance): ``N = 5``, ``r_j`` = the mean
        absolute difference of feature ``j`` between two distinct rows of
        ``X_train`` (required; BEExAI takes it over its explained sample,
        which would make a row's score depend on the rows scored with it),
        neighbours ``x - δ_j``, score
        ``100 × max_j ‖a(x) - a(x - δ_j)‖_2 / ‖δ_j‖_2`` (``radius``,
        ``radius_scale`` and ``normalize`` are ignored).  BEExAI's division
        by the noise norm of the whole batch and by the Frobenius norm of
        each batch of attributions, which make a row's score depend on the
        other rows, are not reproduced.
    explainer_rng : {"common", "independent"}, default="common"
        Explain the neighbours of row ``i`` with row ``i``'s random stream
        (common random numbers) or with their own.
    random_state : int, RandomState instance or None, default=None
        Seeds the noise: the rows draw ``(2 u - 1) * r`` with
        ``u = row_uniform(random_state, row_keys(X), (N, d))``
        (:func:`sklearn_xai.utils.row_uniform`).
    {target}
    {output}
    batch_size : int or None, default=None
        Bounds the block of rows whose neighbours are explained together.
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better (NaN for ``normalize="relative"`` when ``a(x) = 0``).

    References
    ----------
    .. [1] C.-K. Yeh, C.-Y. Hsieh, A. S. Suggala, D. I. Inouye and
       P. Ravikumar, "On the (In)fidelity and Sensitivity of Explanations",
       NeurIPS 2019.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import max_sensitivity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> # Ablation of a linear model moves by w_j δ_j: at most 0.02 × 3 here.
    >>> s = max_sensitivity(model, X[:3], ex.transform(X[:3]), explainer=ex,
    ...                     radius_scale="absolute", random_state=0)
    >>> bool(np.all(s <= 0.02 * np.linalg.norm([1.0, 2.0, 3.0])))
    True
    """
    return _sensitivity(
        estimator, X, attributions, reduction=np.max, explainer=explainer,
        n_perturbations=n_perturbations, radius=radius, radius_scale=radius_scale,
        X_train=X_train, normalize=normalize, convention=convention,
        explainer_rng=explainer_rng, random_state=random_state,
        target=target, output=output, batch_size=batch_size,
        discrete_features=discrete_features,
    )


def _explained_neighbours(estimator, X, *, explainer, n_neighbours, neighbours,
                          explainer_rng, target, output, batch_size):
    """Neighbours of the rows of ``X`` and their explanations, block by block.

    The one mechanism of the metrics that re-explain perturbed rows
    (max- and average sensitivity, local Lipschitz estimate, continuity):
    ``neighbours(sl, keys)`` returns the ``n_neighbours`` neighbours of
    rows ``X[sl]``, shape ``(c, n_neighbours, d)``, drawn from the rows' own
    streams (so a row's neighbours do not depend on the other rows); all the
    neighbours of a block are explained in one ``explainer.explain`` call,
    each for the class explained at its original row.

    Yields
    ------
    sl : slice
        The rows of the block.
    Z, EN : ndarray of shape (c, n_neighbours, d)
        The neighbours and their attributions (float64).
    """
    explainer = _check_explainer(explainer)
    n, d = X.shape
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    labels = _class_labels(f, f.target_index(X))
    keys = row_keys(X)
    m = int(n_neighbours)
    for sl in block_slices(n, m, d, batch_size):
        Z = neighbours(sl, keys)
        c = Z.shape[0]
        owner = np.repeat(np.arange(sl.start, sl.start + c), m)
        EN = _explain_neighbours(explainer, Z.reshape(c * m, d), owner, keys, labels,
                                 explainer_rng)
        yield sl, Z, EN.reshape(c, m, d)


def _sensitivity(estimator, X, attributions, *, reduction, explainer,
                 n_perturbations, radius, radius_scale, X_train, normalize,
                 convention, explainer_rng, random_state, target, output,
                 batch_size, discrete_features=None):
    """Max- or average sensitivity: ``reduction`` (``np.max`` or ``np.mean``)
    over the uniform neighbours of each row of the explanation distances."""
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer)
    n, d = X.shape
    beexai = convention == "beexai_code"
    N = (5 if beexai else 10) if n_perturbations is None else int(n_perturbations)
    check_allocation(2 * N * (n + d), what=f"{n} rows' distances to their neighbours "
                     "and one row's neighbours and their attributions",
                     parameter="n_perturbations", value=N)
    if beexai:
        if X_train is None:  # never the spread of X: rows must not interact
            raise ValueError(
                'convention="beexai_code" takes its radius from the mean distance '
                "between two rows of each feature over the training rows: pass "
                "X_train=<training rows>."
            )
        r = _mean_pairwise_distance(_check_training_rows(X_train, d))
        sign = -1.0
    else:
        sign = 1.0
        if radius_scale == "auto":
            radius_scale = "absolute" if X_train is None else "std"
        if radius_scale == "absolute":
            r = np.full(d, float(radius))
        else:
            if X_train is None:  # never the spread of X: rows must not interact
                raise ValueError(
                    'radius_scale="std" takes the standard deviation of each '
                    "feature over the training rows: pass X_train=<training rows> "
                    'or radius_scale="absolute".'
                )
            r = float(radius) * _check_training_rows(X_train, d).std(axis=0)
    r = np.where(_discrete_mask(discrete_features, d), 0.0, r)  # no noise there
    streams = RowStreams(random_state, row_keys(X))
    diff = np.empty((n, N))
    noise_sq = np.empty((n, N))

    def neighbours(sl, keys):
        delta = streams[sl].uniform((N, d))
        delta *= 2.0
        delta -= 1.0
        delta *= r
        noise_sq[sl] = (delta * delta).sum(axis=2)
        return X[sl, None, :] + sign * delta

    for sl, _, EN in _explained_neighbours(
            estimator, X, explainer=explainer, n_neighbours=N, neighbours=neighbours,
            explainer_rng=explainer_rng, target=target, output=output,
            batch_size=batch_size):
        diff[sl] = np.linalg.norm(A[sl, None, :] - EN, axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        if beexai:
            return 100.0 * reduction(diff / np.sqrt(noise_sq), axis=1)
        if normalize == "per_noise":
            return reduction(diff / np.sqrt(noise_sq), axis=1)
        scores = reduction(diff, axis=1)
        if normalize == "relative":
            norm = np.linalg.norm(A, axis=1)
            scores = np.where(norm > 0, scores / np.where(norm > 0, norm, 1.0), np.nan)
        return scores


register_metric(
    "neg_ris", relative_input_stability, kind="model", greater_is_better=False,
    requires=("masker", "explainer", "random_state"), source="OpenXAI",
    description="Relative explanation change over relative input change (max).",
)
register_metric(
    "neg_rrs", relative_representation_stability, kind="model",
    greater_is_better=False, requires=("masker", "explainer", "random_state"),
    source="OpenXAI",
    description="Relative explanation change over relative hidden-layer change.",
)
register_metric(
    "neg_ros", relative_output_stability, kind="model", greater_is_better=False,
    requires=("masker", "explainer", "random_state"), source="OpenXAI",
    description="Relative explanation change over relative output change (max).",
)
register_metric(
    "neg_max_sensitivity", max_sensitivity, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows", "random_state"),
    source="BEExAI, Captum, Quantus",
    description="Largest explanation change in a small box around the input.",
)
