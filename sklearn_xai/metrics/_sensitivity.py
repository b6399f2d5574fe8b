"""How much an explanation changes when its input changes a little
(definitions in the user guide, :ref:`def-robustness-metrics`).

Max-sensitivity and average sensitivity (Yeh et al. 2019; BEExAI, Captum,
Quantus) are the largest and the mean explanation change over the same
uniform neighbours; the local Lipschitz estimate (Alvarez-Melis and
Jaakkola 2018) and continuity (Montavon et al. 2018) divide the explanation
change by the input change, over Gaussian neighbours and along a shift of
the row (a translation of an image); consistency (Dasgupta et al. 2022)
compares explanations and predictions across rows instead of neighbours: the
probability that rows whose explanations discretise to the same pattern get
the same prediction.

The re-explaining metrics share one mechanism with the stability family
(``_explained_neighbours`` in ``_shared_neighbours.py``).
"""

import numbers
import warnings

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_explainer,
    _check_inputs,
    _check_training_rows,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.metrics._shared_neighbours import (
    _DISCRETE_FEATURES_DOC,
    _discrete_mask,
    _explained_neighbours,
)
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import RowStreams, row_keys
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    fast_validate_params,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning, handle_undefined
from sklearn_xai.utils._validation import check_feature_vector, resolve_k, top_k_mask

__all__ = [
    "avg_sensitivity",
    "consistency",
    "continuity",
    "dasgupta_sufficiency",
    "local_lipschitz_estimate",
    "max_sensitivity",
]


_EXPLAINER_RNG = {"explainer_rng": [StrOptions({"common", "independent"})]}

_EXPLAINER_RNG_DOC = """
    explainer_rng : {"common", "independent"}, default="common"
        Explain the neighbours of row ``i`` with row ``i``'s random stream
        (common random numbers: measures the smoothness of a stochastic
        explainer) or with their own (its Monte-Carlo noise then adds in)."""


def _max_ratio(num, den):
    """Largest ``num / den`` over the neighbours with ``den > 0`` (NaN if none)."""
    valid = den > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(valid, num / np.where(valid, den, 1.0), -np.inf)
    scores = ratio.max(axis=1)
    scores[~valid.any(axis=1)] = np.nan
    return scores


# --------------------------------------------------------- average sensitivity
@fast_validate_params(
    {
        **_BASE_PARAMS,
        "explainer": [HasMethods(["explain"])],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
        "radius_scale": [StrOptions({"auto", "std", "absolute"})],
        "X_train": ["array-like", None],
        "normalize": [StrOptions({"none", "relative", "per_noise"})],
        **_EXPLAINER_RNG,
        "random_state": ["random_state"],
        "discrete_features": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", explainer_rng=_EXPLAINER_RNG_DOC,
              discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("yeh2019"), **_shared_docs("output_params"))
def avg_sensitivity(estimator, X, attributions, *, explainer, n_perturbations=10,
                    radius=0.02, radius_scale="auto", X_train=None, normalize="none",
                    explainer_rng="common", random_state=None, target="predicted",
                    output="auto", batch_size=None, discrete_features=None):
    """Average sensitivity (Yeh et al. 2019; Quantus' AvgSensitivity).

    ``SENS_avg(x) = (1/N) Σ_{j <= N} ‖a(x) - a(x + δ_j)‖_2`` with
    ``δ_j ~ U([-r, r]^d)``: the mean over the neighbours that
    :func:`max_sensitivity` maximises over (the same neighbours for the same
    ``random_state``, so ``avg_sensitivity <= max_sensitivity``).  The
    neighbours are explained for the class explained at ``x``.  See
    :ref:`def-avg-sensitivity` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``a(x)`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the perturbed rows.
    n_perturbations : int, default=10
        ``N``, neighbours drawn per row (Quantus draws 200).
    radius : float, default=0.02
        ``r`` of the uniform box (Quantus uses 0.2 in input units).
    radius_scale : {"auto", "std", "absolute"}, default="auto"
        ``"std"``: ``r_j = radius × std_j`` (standard deviation of
        ``X_train``, required); ``"absolute"``: ``r_j = radius`` in input
        units; ``"auto"``: ``"std"`` when ``X_train`` is given, else
        ``"absolute"``.  The scale is never taken from ``X``: a row's score
        would then depend on the other rows scored with it.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows giving the feature scales.
    normalize : {"none", "relative", "per_noise"}, default="none"
        ``"none"`` (Yeh et al.), ``"relative"``: divided by ``‖a(x)‖_2``
        (Quantus' default), ``"per_noise"``: each term divided by
        ``‖δ_j‖_2``.
    {explainer_rng}
    random_state : int, RandomState instance or None, default=None
        Seeds the noise: the rows draw ``(2 u - 1) * r`` with
        ``u = row_uniform(random_state, row_keys(X), (N, d))``, as
        :func:`max_sensitivity` does; scores do not depend on the other
        rows, their order or the batch size.
    {output_params}
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better (NaN for ``normalize="relative"`` when ``a(x) = 0``).

    See Also
    --------
    max_sensitivity : The largest instead of the mean explanation change.
    local_lipschitz_estimate : The largest change per unit input change.

    Notes
    -----
    Quantus' AvgSensitivity is ``normalize="relative"``,
    ``radius_scale="absolute"``, ``radius=0.2`` and ``n_perturbations=200``;
    its option to score a draw NaN when the prediction changes is not
    offered (the neighbours are explained for the class explained at ``x``
    whatever their prediction, as in Yeh et al.).

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import avg_sensitivity, max_sensitivity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> kw = dict(explainer=ex, radius_scale="absolute", random_state=0)
    >>> avg = avg_sensitivity(model, X[:3], ex.transform(X[:3]), **kw)
    >>> bool(np.all(avg <= max_sensitivity(model, X[:3], ex.transform(X[:3]), **kw)))
    True
    """
    return _sensitivity(
        estimator, X, attributions, reduction=np.mean, explainer=explainer,
        n_perturbations=n_perturbations, radius=radius, radius_scale=radius_scale,
        X_train=X_train, normalize=normalize, convention="paper",
        explainer_rng=explainer_rng, random_state=random_state, target=target,
        output=output, batch_size=batch_size, discrete_features=discrete_features,
    )


# --------------------------------------------------- local Lipschitz estimate
@fast_validate_params(
    {
        **_BASE_PARAMS,
        "explainer": [HasMethods(["explain"])],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
        "std": [Interval(numbers.Real, 0, None, closed="neither")],
        **_EXPLAINER_RNG,
        "random_state": ["random_state"],
        "discrete_features": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", explainer_rng=_EXPLAINER_RNG_DOC,
              discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("alvarezmelis2018_on"),
              **_shared_docs("output_params"))
def local_lipschitz_estimate(estimator, X, attributions, *, explainer,
                             n_perturbations=200, std=0.1, explainer_rng="common",
                             random_state=None, target="predicted", output="auto",
                             batch_size=None, discrete_features=None):
    """Local Lipschitz estimate (Alvarez-Melis and Jaakkola 2018; Quantus).

    ``L(x) = max_{j <= N} ‖a(x) - a(x + ε_j)‖_2 / ‖ε_j‖_2`` with Gaussian
    neighbours ``ε_j ~ N(0, std² I)``, explained for the class explained at
    ``x``.  See :ref:`def-local-lipschitz` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``a(x)`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the perturbed rows.
    n_perturbations : int, default=200
        ``N``, neighbours drawn per row (Quantus' default).
    std : float, default=0.1
        Standard deviation of the noise in input units (Quantus' default).
    {explainer_rng}
    random_state : int, RandomState instance or None, default=None
        Seeds the noise: ``ε = std × row_normal(random_state, row_keys(X),
        (N, d))``; scores do not depend on the other rows, their order or
        the batch size.
    {output_params}
    {discrete_features}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better; 0 for an explanation constant around ``x``.

    See Also
    --------
    continuity : The same ratio along a shift of the row, with an L1 numerator.
    max_sensitivity : The largest explanation change, not divided by ``‖ε‖``.

    Notes
    -----
    Alvarez-Melis and Jaakkola maximise the ratio over a ball
    ``‖x' - x‖ <= ε`` (by sampling or Bayesian optimisation); Quantus and
    this function sample Gaussian neighbours.  Quantus adds ``1e-10`` to the
    denominator, normalises the attributions by their largest magnitude by
    default and can score a draw NaN when the prediction changes; here the
    ratio is exact and the attributions are used as given (the paper's
    definition).

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import local_lipschitz_estimate
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> w = np.array([1.0, 2.0, 3.0])
    >>> model = LinearRegression().fit(X, X @ w)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> # Ablation of a linear model moves by w_j ε_j: the ratio is at most max |w_j|.
    >>> L = local_lipschitz_estimate(model, X[:3], ex.transform(X[:3]),
    ...                              explainer=ex, random_state=0)
    >>> bool(np.all(L <= 3.0 + 1e-9))
    True
    """
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer)
    n, d = X.shape
    N = int(n_perturbations)
    check_allocation(2 * N * d, what="the neighbours of one row and their "
                     "attributions", parameter="n_perturbations", value=N)
    # Discrete columns take no noise.
    sigma = np.where(_discrete_mask(discrete_features, d), 0.0, float(std))
    streams = RowStreams(random_state, row_keys(X))
    scores = np.empty(n)
    noise_norm = {}

    def neighbours(sl, keys):
        eps = streams[sl].normal((N, d))
        eps *= sigma
        noise_norm["norm"] = np.linalg.norm(eps, axis=2)
        return X[sl, None, :] + eps

    for sl, _, EN in _explained_neighbours(
            estimator, X, explainer=explainer, n_neighbours=N, neighbours=neighbours,
            explainer_rng=explainer_rng, target=target, output=output,
            batch_size=batch_size):
        num = np.linalg.norm(A[sl, None, :] - EN, axis=2)
        scores[sl] = _max_ratio(num, noise_norm.pop("norm"))
    return scores


# ------------------------------------------------------------------ continuity
def _translations(width, n_steps):
    """Quantus' horizontal translations: ``-w + k dx``, ``k = 1..n_steps``."""
    dx = (2 * width + 1) // n_steps
    if dx == 0:
        raise ValueError(
            f"n_steps={n_steps} translations of images {width} pixels wide need "
            f"n_steps <= 2 * width + 1 = {2 * width + 1}; pass a smaller n_steps."
        )
    return -width + dx * np.arange(1, n_steps + 1)


def _translated(images, shifts):
    """Images ``(c, h, w)`` shifted right by ``shifts`` pixels (left when
    negative), the uncovered columns filled with each image's minimum
    (Quantus' "black"): shape ``(c, len(shifts), h, w)``."""
    c, h, w = images.shape
    src = np.arange(w)[None, :] - shifts[:, None]          # (m, w)
    inside = (src >= 0) & (src < w)
    moved = images[:, :, np.clip(src, 0, w - 1)]           # (c, h, m, w)
    moved = np.moveaxis(moved, 2, 1)                       # (c, m, h, w)
    fill = images.reshape(c, -1).min(axis=1)[:, None, None, None]
    return np.where(inside[None, :, None, :], moved, fill)


@fast_validate_params(
    {
        **_BASE_PARAMS,
        "explainer": [HasMethods(["explain"])],
        "n_steps": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "radius": [Interval(numbers.Real, 0, None, closed="neither")],
        "direction": [StrOptions({"random"}), "array-like"],
        "image_shape": ["array-like", None],
        **_EXPLAINER_RNG,
        "nan_policy": [StrOptions({"omit", "zero", "raise"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "X", explainer_rng=_EXPLAINER_RNG_DOC,
              metric_references=_references("montavon2018"),
              **_shared_docs("output_params"))
def continuity(estimator, X, attributions, *, explainer, n_steps=None, radius=0.1,
               direction="random", image_shape=None, explainer_rng="common",
               nan_policy="omit", random_state=None, target="predicted",
               output="auto", batch_size=None):
    """Explanation continuity (Montavon et al. 2018; Quantus' Continuity).

    ``C(x) = max_{x'} ‖a(x) - a(x')‖_1 / ‖x - x'‖_2`` over the neighbours
    ``x'`` obtained by shifting ``x``: along a direction ``u`` in steps,
    ``x' = x + t u`` with ``t = ±radius × s / n_steps``, ``s = 1..n_steps``
    (tabular rows), or by translating the image horizontally in
    ``n_steps`` steps (``image_shape`` given, as Quantus does).  The
    neighbours are explained for the class explained at ``x``.  See
    :ref:`def-continuity` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations ``a(x)`` (from ``explainer``).
    explainer : fitted explainer
        Re-explains the shifted rows.
    n_steps : int or None, default=None
        Steps of the shift: for rows, ``n_steps`` steps each way
        (``2 × n_steps`` neighbours; ``None`` is 10); for images, the number
        of translations, at most ``2 × width + 1`` (``None`` is 28,
        Quantus' default, or ``2 × width + 1`` for narrower images).
    radius : float, default=0.1
        Largest shift of a row along ``u``, in input units (rows only).
    direction : "random" or array-like of shape (n_features,), default="random"
        ``u`` (rows only): ``"random"`` draws a uniformly random unit
        direction per row from the row's random stream; an array is the same
        direction for every row (normalised to unit length), e.g. one
        feature's axis.
    image_shape : tuple of int (height, width), default=None
        The rows are flattened ``height × width`` images: translate them
        horizontally by ``-w + k dx`` pixels, ``k = 1..n_steps``,
        ``dx = ⌊(2w + 1) / n_steps⌋``, filling the uncovered columns with the
        image's minimum, as Quantus does.  ``radius`` and ``direction`` are
        then ignored.
    {explainer_rng}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row none of whose neighbours differs from it (an image that a
        translation leaves unchanged) is undefined: NaN with a warning
        (``"omit"``), 0, or an error.
    random_state : int, RandomState instance or None, default=None
        Seeds the random directions: row ``i``'s ``u`` is drawn from its own
        stream (``RowStreams(random_state, row_keys(X))``), so scores do not
        depend on the other rows, their order or the batch size.  Unused
        with a given ``direction`` or ``image_shape``.
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Lower is better (a smaller largest rate of change of the
        explanation).

    See Also
    --------
    local_lipschitz_estimate : The same kind of ratio (L2 numerator) over
        Gaussian neighbours.

    Notes
    -----
    Montavon et al. define continuity as the largest ratio over all pairs of
    nearby inputs; the shift is a one-parameter path of such pairs.  Quantus
    (0.6) translates images as above, but by default takes the absolute
    value of the attributions and normalises them by their largest
    magnitude, and adds ``1e-9`` to the denominator (a translation that
    leaves the image unchanged then scores 0); here the attributions are
    used as given and such neighbours are skipped.  A translation is
    meaningless for tabular features, whose order is arbitrary: the row
    version shifts along a direction instead.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import continuity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> # Along feature 2's axis the ablation of feature 2 changes by w_2 t.
    >>> c = continuity(model, X[:3], ex.transform(X[:3]), explainer=ex,
    ...                direction=[0.0, 0.0, 1.0])
    >>> np.round(c, 6)
    array([3., 3., 3.])
    """
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer)
    n, d = X.shape
    if n_steps is not None:  # 2 n_steps neighbours per row (rows), n_steps (images)
        check_allocation(4 * int(n_steps) * d, what="the neighbours of one row and "
                         "their attributions", parameter="n_steps", value=n_steps)
    if image_shape is not None:
        h, w = resolve_image_shape(image_shape, d, ndim=2)
        shifts = _translations(w, min(28, 2 * w + 1) if n_steps is None else int(n_steps))

        def neighbours(sl, keys):
            Z = _translated(X[sl].reshape(-1, h, w), shifts)
            return Z.reshape(Z.shape[0], len(shifts), d)

        m = len(shifts)
    else:
        S = 10 if n_steps is None else int(n_steps)
        steps = float(radius) * np.arange(1, S + 1) / S
        steps = np.concatenate([-steps[::-1], steps])      # (2S,)
        m = 2 * S
        if isinstance(direction, str):
            streams = RowStreams(random_state, row_keys(X))
            fixed = None
        else:
            u = check_feature_vector(direction, d, "direction", scalar=False)
            norm = np.linalg.norm(u)
            if not norm > 0:
                raise ValueError("direction must have a non-zero entry; got all "
                                 "zeros.")
            fixed = u / norm

        def neighbours(sl, keys):
            if fixed is None:
                u = streams[sl].normal((d,))
                u /= np.linalg.norm(u, axis=1, keepdims=True)
            else:
                u = np.broadcast_to(fixed, X[sl].shape)
            return X[sl, None, :] + steps[None, :, None] * u[:, None, :]

    scores = np.empty(n)
    for sl, Z, EN in _explained_neighbours(
            estimator, X, explainer=explainer, n_neighbours=m, neighbours=neighbours,
            explainer_rng=explainer_rng, target=target, output=output,
            batch_size=batch_size):
        num = np.abs(A[sl, None, :] - EN).sum(axis=2)
        den = np.linalg.norm(X[sl, None, :] - Z, axis=2)
        scores[sl] = _max_ratio(num, den)
    return handle_undefined(scores, np.isnan(scores), nan_policy, what="continuity",
                            reason="no neighbour differs from the row")


# ----------------------------------------------------------------- consistency
def _predicted_classes(estimator, X, batch_size, name):
    """The class index each row is predicted (a classifier's arg-max output)."""
    f = ExplainedOutput(estimator, batch_size=batch_size)
    if f.output == "predict":
        raise NotApplicableError(
            f"{name} compares predicted classes: estimator must be a "
            f"classifier with predict_proba or decision_function; got "
            f"{type(estimator).__name__}."
        )
    return f.all_outputs(X).argmax(axis=1)


def _mean_of_defined(local, defined, message):
    """Mean of the defined local scores (in sorted order, so that it does not
    depend on the rows' order); NaN with ``message`` as a warning if none."""
    if defined.any():
        return float(np.mean(np.sort(local[defined])))
    warnings.warn(message, UndefinedScoreWarning, stacklevel=4)
    return float("nan")


def _patterns(A, k, discretize, convention):
    """Integer code of each row's discretised explanation (n,)."""
    n, d = A.shape
    k = resolve_k(k, d)
    sign = np.sign(A).astype(np.int8)
    if convention == "quantus_code":  # the signs of the first k columns
        code = sign[:, :k]
    elif discretize == "sign":
        code = sign
    else:
        top = top_k_mask(A, k)
        code = np.where(top, sign + 2 if discretize == "top_k_sign" else 1, 0)
    return np.unique(code, axis=0, return_inverse=True)[1].ravel()


@fast_validate_params(
    {
        "estimator": [object],
        "X": ["array-like"],
        "attributions": ["array-like"],
        "k": [Interval(numbers.Integral, 1, None, closed="left"),
              Interval(numbers.Real, 0, 1, closed="right"),
              StrOptions({"all"})],
        "discretize": [StrOptions({"top_k_sign", "top_k", "sign"})],
        "convention": [StrOptions({"paper", "quantus_code"})],
        "return_details": ["boolean"],
        "batch_size": _BASE_PARAMS["batch_size"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("X", "batch_size", metric_references=_references("dasgupta2022"))
def consistency(estimator, X, attributions, *, k=5, discretize="top_k_sign",
                convention="paper", return_details=False, batch_size=None):
    """Consistency (Dasgupta et al. 2022; Quantus' Consistency).

    The probability that two rows whose explanations discretise to the same
    pattern get the same predicted class: with ``e(x)`` the pattern and
    ``f(x)`` the prediction, the local consistency of row ``i`` is

    ``c_i = #{j ≠ i : e_j = e_i, f_j = f_i} / #{j ≠ i : e_j = e_i}``

    over the rows of ``X``, and the score is the mean of ``c_i`` over the
    rows that share their pattern with another row.  It is one number for
    the whole set of rows, which does not depend on their order or on the
    batch size.  See :ref:`def-consistency` in the user guide.

    Parameters
    ----------
    estimator : fitted classifier
        The explained model; its predicted classes are compared.
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    k : int, float in (0, 1] or "all", default=5
        Features in the pattern: an int (one above ``n_features`` uses all
        of them, so the default works on narrow data), a fraction of the
        features, or all of them.
    discretize : {"top_k_sign", "top_k", "sign"}, default="top_k_sign"
        The pattern ``e(x)``: ``"top_k_sign"``, the ``k`` features of largest
        ``|a_j|`` (ties by lower index) with their signs; ``"top_k"``, those
        features only; ``"sign"``, the signs of all features.
    convention : {"paper", "quantus_code"}, default="paper"
        ``"quantus_code"``: the pattern is the signs of the *first* ``k``
        columns, as Quantus' ``top_n_sign`` computes it (``discretize`` is
        then ignored).
    return_details : bool, default=False
        Also return the per-row local consistencies.
    {batch_size}

    Returns
    -------
    score : float
        Greater is better, in ``[0, 1]``; NaN (with a warning) when no two
        rows share a pattern.
    details : Bunch
        Only with ``return_details=True``: ``score``, ``local_consistency``
        (``c_i``, NaN for rows with a unique pattern), ``pattern`` (an
        integer code of each row's pattern) and ``n_defined`` (rows sharing
        their pattern).

    Notes
    -----
    Quantus scores each row within its batch of ``batch_size`` rows (64 by
    default), so a row's score depends on the rows batched with it; it
    scores 0 a row that shares its pattern with no other row, takes the
    signs of the first ``n`` columns rather than of the ``n`` largest
    attributions, and by default takes the absolute value of the
    attributions first, which makes every sign pattern positive.  Its
    per-row scores on one batch holding every row equal
    ``local_consistency`` with ``convention="quantus_code"`` where defined.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import consistency
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> clf = LogisticRegression().fit(X, X[:, 0] > 0)
    >>> # Gradient x input of the decision function, whose largest term
    >>> # w_0 x_0 mostly decides the class, against unrelated explanations.
    >>> A = X * clf.coef_[0]
    >>> round(consistency(clf, X, A, k=1), 2)
    1.0
    >>> round(consistency(clf, X, rng.normal(size=X.shape), k=1), 2)
    0.5
    """
    X, A = _check_inputs(X, attributions)
    n, d = X.shape
    predicted = _predicted_classes(estimator, X, batch_size, "consistency")
    kk = d if isinstance(k, str) else k
    if not isinstance(kk, numbers.Integral) or isinstance(kk, bool):
        kk = resolve_k(float(kk), d)
    else:
        kk = min(int(kk), d)
    pattern = _patterns(A, int(kk), discretize, convention)
    # Rows per pattern, and per (pattern, class).
    _, group, size = np.unique(pattern, return_inverse=True, return_counts=True)
    _, cell, same = np.unique(np.stack([pattern, predicted]), axis=1,
                              return_inverse=True, return_counts=True)
    size = size[group.ravel()]
    same = same[cell.ravel()]
    defined = size > 1
    local = np.full(n, np.nan)
    local[defined] = (same[defined] - 1) / (size[defined] - 1)
    n_defined = int(defined.sum())
    score = _mean_of_defined(
        local, defined, "consistency is undefined: no two rows have the same "
        "explanation pattern, so NaN is returned. Pass more rows, a smaller k or "
        'a coarser discretize ("top_k").')
    if return_details:
        return Bunch(score=score, local_consistency=local, pattern=pattern,
                     n_defined=n_defined)
    return score


_DISTANCES = {"seuclidean", "euclidean", "cityblock", "chebyshev", "cosine"}


def _explanation_distances(A, distance):
    """Pairwise distances of the rows of ``A`` (n, n); ``"seuclidean"`` scales
    each column by its sample variance over the rows (a constant column
    differs by 0 between any two rows whatever its scale, so it gets 1)."""
    from scipy.spatial.distance import cdist

    if distance == "seuclidean":
        var = A.var(axis=0, ddof=1) if A.shape[0] > 1 else np.ones(A.shape[1])
        return cdist(A, A, "seuclidean", V=np.where(var > 0, var, 1.0))
    return cdist(A, A, distance)


@fast_validate_params(
    {
        "estimator": [object],
        "X": ["array-like"],
        "attributions": ["array-like"],
        "threshold": [Interval(numbers.Real, 0, None, closed="left")],
        "distance": [StrOptions(_DISTANCES)],
        "relative": ["boolean"],
        "absolute": ["boolean"],
        "return_details": ["boolean"],
        "batch_size": _BASE_PARAMS["batch_size"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("X", "batch_size", metric_references=_references("dasgupta2022"))
def dasgupta_sufficiency(estimator, X, attributions, *, threshold=0.6,
                         distance="seuclidean", relative=True, absolute=True,
                         return_details=False, batch_size=None):
    """Sufficiency of Dasgupta et al. 2022 (Quantus' Sufficiency).

    The probability that rows whose explanations are close get the same
    predicted class: with ``δ_ij`` the distance between the explanations
    of rows ``i`` and ``j`` and ``f(x)`` the prediction, the local
    sufficiency of row ``i`` is

    ``s_i = #{j ≠ i : δ_ij ≤ t, f_j = f_i} / #{j ≠ i : δ_ij ≤ t}``

    over the rows of ``X``, and the score is the mean of ``s_i`` over the
    rows with at least one close row.  It is one number for the whole set
    of rows.  Not to be confused with :func:`sufficiency` (ERASER's: the
    output kept by the top features of one row).  See
    :ref:`def-dasgupta-sufficiency` in the user guide.

    Parameters
    ----------
    estimator : fitted classifier
        The explained model; its predicted classes are compared.
    {X}
    attributions : array-like of shape (n_samples, n_features)
        Their explanations.
    threshold : float, default=0.6
        Two explanations are close when their distance is at most
        ``threshold`` (Quantus' default).
    distance : {{"seuclidean", "euclidean", "cityblock", "chebyshev", \
"cosine"}}, default="seuclidean"
        Distance between explanations (scipy's ``cdist``); ``"seuclidean"``
        divides each column by its variance over the scored rows (Quantus'
        default).
    relative : bool, default=True
        Divide the distances by the largest one among the scored rows first
        (Quantus normalises the distance matrix so), which makes
        ``threshold`` a fraction of it.
    absolute : bool, default=True
        Compare ``|a|`` (Quantus' default).
    return_details : bool, default=False
        Also return the per-row local sufficiencies.
    {batch_size}

    Returns
    -------
    score : float
        Greater is better, in ``[0, 1]``; NaN (with a warning) when no row
        has a close row.
    details : Bunch
        Only with ``return_details=True``: ``score``,
        ``local_sufficiency`` (``s_i``, NaN for rows with no close row),
        ``n_close`` (close rows of each row) and ``n_defined``.

    Notes
    -----
    Quantus scores each row within its batch of ``batch_size`` rows (64 by
    default), so a row's score depends on the rows batched with it (the
    variances of ``"seuclidean"`` and the largest distance are the batch's),
    and it scores 0 a row with no close row.  Its per-row scores on one
    batch holding every row equal ``local_sufficiency`` where defined.
    Quantus 0.6 passes ``V=None`` to scipy's ``cdist`` whatever its
    ``distance_func``, which recent scipy refuses for every distance but
    ``"seuclidean"``.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import dasgupta_sufficiency
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> clf = LogisticRegression().fit(X, X[:, 0] > 0)
    >>> # Signed explanations that carry the decision (x_0's term) against
    >>> # unrelated ones.
    >>> A = X * clf.coef_[0]
    >>> good = dasgupta_sufficiency(clf, X, A, threshold=0.05, absolute=False)
    >>> noise = dasgupta_sufficiency(clf, X, rng.normal(size=X.shape),
    ...                              threshold=0.05, absolute=False)
    >>> round(good, 2), round(noise, 2)
    (0.95, 0.69)
    """
    X, A = _check_inputs(X, attributions)
    n = X.shape[0]
    check_allocation(n * n, what=f"the pairwise distances of {n} explanations",
                     parameter="X", value=f"{n} rows")
    predicted = _predicted_classes(estimator, X, batch_size, "dasgupta_sufficiency")
    if absolute:
        A = np.abs(A)
    dist = _explanation_distances(A, distance)
    np.nan_to_num(dist, copy=False, nan=0.0)  # cosine of a zero explanation
    top = dist.max()
    if relative and top > 0:
        dist /= top
    close = dist <= threshold
    np.fill_diagonal(close, False)
    n_close = close.sum(axis=1)
    same = (close & (predicted[:, None] == predicted[None, :])).sum(axis=1)
    defined = n_close > 0
    local = np.full(n, np.nan)
    local[defined] = same[defined] / n_close[defined]
    score = _mean_of_defined(
        local, defined, "dasgupta_sufficiency is undefined: no row has an "
        "explanation within threshold of another's, so NaN is returned. Pass "
        "more rows or a larger threshold.")
    if return_details:
        return Bunch(score=score, local_sufficiency=local, n_close=n_close,
                     n_defined=int(defined.sum()))
    return score


# -------------------------------------------------------------------- registry
register_metric(
    "neg_avg_sensitivity", avg_sensitivity, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows", "random_state"), source="Quantus",
    description="Mean explanation change in a small box around the input.",
)

register_metric(
    "neg_local_lipschitz_estimate", local_lipschitz_estimate, kind="model",
    greater_is_better=False, requires=("explainer", "random_state"),
    source="Quantus",
    description="Largest explanation change per unit input change (Gaussian "
                "neighbours).",
)

register_metric(
    "neg_continuity", continuity, kind="model", greater_is_better=False,
    requires=("explainer", "image_shape", "random_state"), source="Quantus",
    description="Largest L1 explanation change per unit shift of the input.",
)

register_metric(
    "consistency", consistency, kind="model", greater_is_better=True,
    per_instance=False, requires=("classifier",), source="Quantus",
    description="Probability that rows with the same explanation pattern get "
                "the same prediction.",
)

register_metric(
    "dasgupta_sufficiency", dasgupta_sufficiency, kind="model",
    greater_is_better=True, per_instance=False, requires=("classifier",),
    source="Dasgupta et al. 2022, Quantus",
    description="Probability that rows with close explanations get the same "
                "prediction.",
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
@Substitution("X", "target", "output", discrete_features=_DISCRETE_FEATURES_DOC,
              metric_references=_references("yeh2019", "sithakoul2024"))
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

    {metric_references}

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
    "neg_max_sensitivity", max_sensitivity, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows", "random_state"),
    source="BEExAI, Captum, Quantus",
    description="Largest explanation change in a small box around the input.",
)
