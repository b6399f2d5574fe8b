"""Relative stability: the change of an explanation relative to the change
of what produced it (definitions in the user guide,
:ref:`def-stability-metrics`).

Relative stability (OpenXAI, after Agarwal et al. 2022) compares the change
of the explanation with the change of the input (RIS), of the model's first
hidden representation (RRS) or of its output (ROS).  The neighbours are
re-explained with a fitted explainer, all the neighbours of a block of
instances in one ``explainer.explain`` call, through the mechanism the
sensitivity family shares (``_shared_neighbours.py``).
"""

import numbers

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.masking import BasePerturber, GaussianNoisePerturber, check_perturber
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_explainer,
    _check_inputs,
    _class_labels,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references
from sklearn_xai.metrics._shared_neighbours import (
    _DISCRETE_FEATURES_DOC,
    _discrete_mask,
    _explain_neighbours,
)
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._estimators import transform_steps, unwrap
from sklearn_xai.utils._output import ExplainedOutput
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
              discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("agarwal2022_rethinking", "agarwal2022"))
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

    {metric_references}

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
              discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("agarwal2022_rethinking", "agarwal2022"))
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

    {metric_references}

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
              discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("agarwal2022_rethinking", "agarwal2022"))
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

    {metric_references}

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
