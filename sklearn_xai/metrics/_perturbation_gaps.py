"""Gaps between the model's output at a row and at perturbed copies of it.

* :func:`pgi` and :func:`pgu` (OpenXAI; :ref:`def-pgi`): the prediction
  gap when the important (unimportant) features are perturbed;
* :func:`infidelity` (Yeh et al. 2019; XAI-Bench, BEExAI, Captum;
  :ref:`def-infidelity`): the gap between the output change a perturbation
  causes and the change the attributions predict for it;
* :func:`explanation_error` (shap's benchmark; :ref:`def-explanation-error`):
  the same gap when the features of random permutation prefixes are kept
  and the others removed by a masker.
"""

import numbers

import numpy as np
from sklearn.externals.array_api_compat import array_namespace
from sklearn.utils import Bunch

from sklearn_xai.masking import BasePerturber, GaussianNoisePerturber, check_perturber
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _check_inputs,
    _check_training_rows,
    _masker_streams,
    _prepare,
    _with_x_blocks,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput, block_slices, to_numpy
from sklearn_xai.utils._random import keyed_streams
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._sklearn import fast_validate_params as validate_params
from sklearn_xai.utils._validation import positions, resolve_k, top_k_coalitions

__all__ = [
    "explanation_error",
    "infidelity",
    "pgi",
    "pgu",
]


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
        # The perturbers draw on the host (numpy's normal draws, not the
        # Box-Muller ones a device draws); on the device path the copies
        # are sent there, and the model calls and gaps stay there.
        Z = perturber.perturb(X[sl], fixed[sl], N, streams[sl]).reshape(out.shape)
        out[...] = Z if isinstance(out, np.ndarray) else f.as_tensor(Z)

    for sl, t, raw_x, raw_z in f.blocks_with_x(X, m * N, build,
                                               target_index=f.fixed_target_index(X),
                                               on_device=True):
        xp = array_namespace(raw_z)
        fx = f.select(raw_x, t)
        vals = xp.reshape(f.select(raw_z, t), (-1, m, N))
        gaps[sl] = to_numpy(xp.mean(xp.abs(fx[:, None, None] - vals), axis=2))
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
@Substitution("random_state", metric_references=_references("agarwal2022"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
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
    {model_inputs}
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
    {output_params}

    {returns_scores_greater}

    See Also
    --------
    pgu : The same gap when the unimportant features are perturbed.

    {metric_references}

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
@Substitution("random_state", metric_references=_references("agarwal2022"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
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
    {model_inputs}
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
    {output_params}

    {returns_scores_lower}

    See Also
    --------
    pgi : The same gap when the important features are perturbed.

    {metric_references}

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


# Draws per row for n_perturbations=None, by convention.
_DEFAULT_N = {"paper": 100, "xai_bench_code": 1000, "beexai_code": 5}

# Noise level for sigma=None: BEExAI's code draws from N(0, std_j^2), the
# standard deviation of each feature (get_results.py, ``inf_std``).
# (XAI-Bench's perturbation has no scale.)
_DEFAULT_SIGMA = {"paper": 0.1, "beexai_code": 1.0}


def _noise_scale(X, X_train, perturber, sigma, sigma_scale):
    """Per-feature noise standard deviation (d,), never taken from ``X``.

    The scale comes from a perturber, from the training rows or is absolute:
    the spread of the scored rows would make a row's score depend on the
    other rows of its batch (a row scored alone would get no noise).
    """
    d = X.shape[1]
    if perturber is not None:
        return check_perturber(perturber, X_train, n_features=d).scale_
    if sigma_scale == "auto":
        sigma_scale = "absolute" if X_train is None else "std"
    if sigma_scale == "absolute":
        return np.full(d, float(sigma))
    if X_train is None:
        raise ValueError(
            'sigma_scale="std" takes the standard deviation of each feature over '
            "the training rows: pass X_train=<training rows>, or "
            'sigma_scale="absolute". It is never taken from X, which would make a '
            "row's score depend on the other rows scored with it."
        )
    return float(sigma) * _check_training_rows(X_train, d).std(axis=0)


def _perturbation(convention, X, z, scale, out, work):
    """Write the points the model sees into ``out`` (c, N, d) and the
    perturbations ``I`` into ``work`` (c, N, d), with ``x - I`` what the
    model sees.  Both are buffers owned by the caller: float64 arrays on the
    host, or tensors in the model's dtype on its device (in-place operators
    serve both, without temporaries)."""
    Xb = X[:, None, :]
    if convention == "paper":
        work[...] = z
        work *= scale
        out[...] = Xb
        out -= work
        return
    if convention == "xai_bench_code":
        out[...] = z * -0.2  # in the dtype of z, as XAI-Bench scales it
        if isinstance(out, np.ndarray):
            np.clip(out, 0.0, 1.0, out=out)
        else:
            out.clamp_(0.0, 1.0)
    else:  # beexai_code: the model sees pure noise, one scale per draw
        out[...] = z
        out *= scale
    work[...] = Xb
    work -= out


@validate_params(
    {
        **_BASE_PARAMS,
        "convention": [StrOptions({"paper", "xai_bench_code", "beexai_code"})],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "sigma_scale": [StrOptions({"auto", "std", "absolute"})],
        "X_train": ["array-like", None],
        "perturber": [GaussianNoisePerturber, None],
        "normalize": ["boolean", None],
        "absolute": ["boolean", None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("yeh2019", "liu2021", "sithakoul2024"),
              **_shared_docs("model_inputs", "output_params"))
def infidelity(estimator, X, attributions, *, convention="paper",
               n_perturbations=None, sigma=None, sigma_scale="auto", X_train=None,
               perturber=None, normalize=None, absolute=None, random_state=None,
               target="predicted", output="auto", batch_size=None):
    """Infidelity (Yeh et al. 2019).

    ``INFD(x) = E_I[(I·a - (f(x) - f(x - I)))^2]``: how well the
    attributions predict the output change under a perturbation ``I`` of
    the input.  The model is evaluated at ``x - I``, a perturbed copy of the
    input (not at pure noise), by default.  See :ref:`def-infidelity` in the
    user guide.

    Parameters
    ----------
    {model_inputs}
    convention : {"paper", "xai_bench_code", "beexai_code"}, default="paper"
        The perturbation:

        * ``"paper"`` (Yeh et al.; Captum semantics):
          ``I ~ N(0, diag(sigma_j^2))``, model at ``x - I``.
        * ``"xai_bench_code"`` (XAI-Bench's code):
          ``x - I = clip(-0.2 z, 0, 1)``, ``z ~ N(0, I)``: a noisy point near
          0 that does not depend on ``x``.
        * ``"beexai_code"`` (BEExAI's code): ``I = x - eps``: the model
          sees pure noise.  As BEExAI's code draws it, ``eps`` comes in
          ``d`` groups of ``n_perturbations`` draws, group ``j`` isotropic,
          ``eps ~ N(0, sigma_j^2 I)`` (its ``__get_noises__`` loops over the
          vector of per-feature scales and applies each to every feature),
          ``sigma_j`` the standard deviation of feature ``j`` by default;
          regression scores use ``|f(x) - f(eps)|``, and the attributions
          are not rescaled (``normalize=False``).  BEExAI also divides each
          attribution matrix by its *batch* Frobenius norm, which is not
          reproduced (it makes a row's score depend on the other rows).
    n_perturbations : int or None, default=None
        Draws per row; ``None`` is 100 (``"paper"``), 1000
        (``"xai_bench_code"``, as XAI-Bench) or 5 (``"beexai_code"``, as
        BEExAI).  Under ``"beexai_code"`` it is the number of draws per
        feature scale, ``n_perturbations * n_features`` in all.
    sigma : float or None, default=None
        Noise level of ``"paper"`` and ``"beexai_code"``; ``None`` is 0.1
        (``"paper"``) or 1.0 (``"beexai_code"``: BEExAI's scales are the
        features' standard deviations).
    sigma_scale : {"auto", "std", "absolute"}, default="auto"
        ``"std"``: ``sigma_j = sigma × std_j`` with the per-feature standard
        deviation of ``X_train`` (required); ``"absolute"``: ``sigma_j =
        sigma`` in input units; ``"auto"``: ``"std"`` when ``X_train`` is
        given, else ``"absolute"``.  The scale is never taken from ``X``:
        the spread of the scored rows would make a row's score depend on the
        other rows of its batch (a row scored alone would get no noise), and
        a score must depend only on the row, the model, the attributions,
        the parameters and ``random_state``.
    X_train : array-like of shape (n_train, n_features), default=None
        Training rows of the explained model, giving the feature scales (and
        fitting an unfitted ``perturber``).
    perturber : GaussianNoisePerturber, default=None
        A perturber whose ``scale_`` gives ``sigma_j`` (overrides ``sigma``
        and ``sigma_scale``): used as is when fitted, else fitted on
        ``X_train`` (without ``X_train`` it must have
        ``sigma_scale="absolute"``).  Not used by ``"xai_bench_code"``.
    normalize : bool or None, default=None
        Replace ``a`` by ``beta* a`` with
        ``beta* = E[Δf I·a] / E[(I·a)^2]`` (XAI-Bench's and the authors'
        code, Captum ``normalize=True``), making the score invariant to
        rescaling ``a``.  ``beta* = 0`` when ``I·a`` is always 0.  ``None``
        is ``True`` except under ``convention="beexai_code"`` (BEExAI does
        not rescale).
    absolute : bool or None, default=None
        Use ``|f(x) - f(x - I)|``; ``None`` does so only for regression
        outputs under ``convention="beexai_code"``.
    random_state : int, RandomState instance or None, default=None
        Seeds the perturbations: the rows draw
        ``z = row_normal(random_state, row_keys(X), (n_perturbations, d),
        dtype=np.float32, method="box_muller")``
        (:func:`sklearn_xai.utils.row_normal`: the Box–Muller transform of
        the row's counter-based stream, vectorised over rows; single
        precision is ample for noise, and these draws are faster than
        numpy's ziggurat row by row), so scores do not depend on batch size
        or row order.
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Non-negative; lower is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import infidelity
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0])
    >>> grad = np.tile(model.coef_, (2, 1))  # I·a = f(x) - f(x - I) exactly
    >>> infidelity(model, X[:2], grad, random_state=0).round(12)
    array([0., 0.])
    """
    X, A = _check_inputs(X, attributions)
    n, d = X.shape
    N = _DEFAULT_N[convention] if n_perturbations is None else int(n_perturbations)
    if sigma is None:
        sigma = _DEFAULT_SIGMA.get(convention, 0.1)
    if normalize is None:
        normalize = convention != "beexai_code"
    # XAI-Bench's perturbation has no scale.
    scale = None if convention == "xai_bench_code" else _noise_scale(
        X, X_train, perturber, sigma, sigma_scale)
    if convention == "beexai_code":
        # BEExAI's Infidelity.__get_noises__ iterates over its vector of
        # standard deviations and draws, for each sigma_j, N isotropic noises
        # N(0, sigma_j^2 I): N d draws, each with one scale for all features.
        scale = np.repeat(scale, N)[:, None]
        N *= d
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    if absolute is None:
        absolute = convention == "beexai_code" and f.output == "predict"
    streams = keyed_streams(X, random_state)
    scores = np.empty(n)
    perturbations = {}
    # The device path (a torch model): noise, perturbations, I·a, the model
    # calls and the arithmetic per draw on the model's device, in its dtype;
    # only one score per row comes back.  One code for both backends.
    device = f.device if f.device_path else None
    if device is not None:
        import torch

        Xd, Ad = f.as_tensor(X), f.as_tensor(A)
        scale = None if scale is None else f.as_tensor(scale)
        new = dict(dtype=Xd.dtype, device=device)
        new_wide = dict(dtype=torch.float32 if device.type == "mps" else torch.float64,
                        device=device)  # MPS has no float64
    else:
        Xd, Ad, new, new_wide = X, A, None, None

    def empty(shape, how):
        return np.empty(shape) if how is None else torch.empty(shape, **how)

    # Noise drawn where the model runs; on the CPU (the device path forced
    # there) numpy's draws are the same numbers, faster, and shared by torch.
    draw_on = None if device is None or device.type == "cpu" else device

    def build(sl, out):
        z = streams[sl].normal((N, d), dtype=np.float32, method="box_muller",
                               device=draw_on)
        if device is not None and draw_on is None:
            z = torch.from_numpy(z)
        Xs, As = Xd[sl], Ad[sl]
        ia = empty((len(Xs), N), new_wide)
        # Steps of a quarter of a model block (4 N entries per row), in
        # buffers reused from step to step, so the temporaries stay in cache
        # instead of being mapped afresh for every step (which cost as much
        # as the model).  Scores do not depend on the step.
        steps = block_slices(len(Xs), 4 * N, d, device=device)
        work = empty((steps[0].stop - steps[0].start, N, d), new) if steps else None
        for c in steps:
            I = work[: len(Xs[c])]
            _perturbation(convention, Xs[c], z[c], scale, out[c], I)
            ia[c] = (I @ As[c][:, :, None])[..., 0]
        perturbations["ia"] = ia

    for sl, t, raw_x, raw_z in f.blocks_with_x(X, N, build,
                                               target_index=f.fixed_target_index(X),
                                               on_device=True):
        ia = perturbations.pop("ia")
        xp = array_namespace(ia)
        delta = f.select(raw_x, t)[:, None] - f.select(raw_z, t)
        if absolute:
            delta = xp.abs(delta)
        if normalize:
            den = xp.mean(ia * ia, axis=1)
            num = xp.mean(ia * delta, axis=1)
            beta = xp.where(den > 0, num / xp.where(den > 0, den, 1.0), 0.0)
            ia = beta[:, None] * ia
        scores[sl] = to_numpy(xp.mean((ia - delta) ** 2, axis=1))
    return scores


register_metric(
    "neg_infidelity", infidelity, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"),
    source="XAI-Bench, BEExAI, Captum",
    description="Squared error of attributions predicting output changes under noise.",
)


# ------------------------------------------------------- explanation error
@validate_params({
    **_BASE_PARAMS,
    "masker": [None, object],
    "X_train": ["array-like", None],
    "n_permutations": [Interval(numbers.Integral, 1, None, closed="left")],
    "features_per_step": [Interval(numbers.Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
    "return_details": ["boolean"],
}, prefer_skip_nested_validation=True)
@Substitution("masker", "X_train", metric_references=_references("lundberg2017"),
              **_shared_docs("model_inputs", "output_params"))
def explanation_error(estimator, X, attributions, *, masker=None, X_train=None,
                      n_permutations=10, features_per_step=1, random_state=None,
                      return_details=False, target="predicted", output="auto",
                      batch_size=None):
    """Explanation error (shap's ``benchmark.ExplanationError``).

    How far the additive model the attributions define is from the model:
    along ``n_permutations`` random orders ``π`` of the features, the
    coalitions ``S_k`` of the first ``min(d, k s)`` features of ``π``
    (``k = 0, 1, ..., ⌈d / s⌉``, ``s = features_per_step``) are kept and the
    others removed by ``masker``, and

    ``EE(x) = sqrt(mean_{π, k} (v_x(S_k) - v_x(∅) - sum_{j in S_k} a_j)²)``.

    Exact Shapley values of an additive model score 0.  Lower is better
    (scorer ``neg_explanation_error``).  See :ref:`def-explanation-error`
    in the user guide.

    Parameters
    ----------
    {model_inputs}
    {masker}
        ``None`` is ``BaselineMasker("zero")``; shap's benchmark uses its
        masker's background, as :class:`~sklearn_xai.masking.MarginalMasker`
        does.
    {X_train}
    n_permutations : int, default=10
        Random feature orders per row (shap's ``num_permutations``).
    features_per_step : int, default=1
        Features added to the coalition per step (shap's ``int(d *
        step_fraction)``, at least 1; its default ``step_fraction=0.01``
        adds one feature per step below 200 features).
    random_state : int, RandomState instance or None, default=None
        Seeds the orders (and a stochastic masker's draws): row ``i``'s
        depend only on the seed and the row's values.
    return_details : bool, default=False
        Also return the orders and the squared errors.
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Root mean squared error per row; lower is better.
    details : Bunch
        Only with ``return_details=True``: ``scores``, ``permutations``
        (n_samples, n_permutations, n_features), the orders, and
        ``squared_errors`` (n_samples, n_permutations, n_steps + 1), the
        squared error of each coalition (0 for the empty one).

    Notes
    -----
    shap 0.51 reports one number for all the rows it is given: the root
    mean over the coalitions of the *last* row only (the per-row errors it
    computes for the other rows are not used); run on one row, it equals
    this row's score with the same orders.  It draws the orders from
    numpy's global generator, reseeded to a fixed seed at each call.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.masking import MarginalMasker
    >>> from sklearn_xai.metrics import explanation_error
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 4))
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0, 0.0])
    >>> masker = MarginalMasker(background=X[:20])
    >>> exact = model.coef_ * (X[:5] - X[:20].mean(axis=0))
    >>> bool(explanation_error(model, X[:5], exact, masker=masker,
    ...                        random_state=0).max() < 1e-12)
    True
    >>> bool(explanation_error(model, X[:5], -exact, masker=masker,
    ...                        random_state=0).min() > 0.1)
    True
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    s = features_per_step
    n_steps = -(-d // s)
    n_coalitions = n_permutations * (n_steps + 1)
    check_allocation(n_coalitions * d, itemsize=1, what="the coalitions of one row",
                     parameter="n_permutations", value=n_permutations)
    rngs = _masker_streams(masker, X, random_state)
    order = keyed_streams(X, random_state).permutations(d, n_permutations, stream=1)
    # Position of each feature in each order, and each step's size.
    rank = positions(order.reshape(-1, d)).reshape(n, n_permutations, 1, d)
    size = np.minimum(np.arange(n_steps + 1) * s, d)[None, None, :, None]

    def keep_of(sl):
        return (rank[sl] < size).reshape(-1, n_coalitions, d)

    _, values = _with_x_blocks(f, masker, X, n_coalitions, keep_of, batch_size, rngs)
    values = values.reshape(n, n_permutations, n_steps + 1)
    # sum_{j in S_k} a_j: cumulative sums of the attributions in each order.
    ordered = np.take_along_axis(A[:, None, :], order, axis=2)
    cumulative = np.concatenate([np.zeros((n, n_permutations, 1)),
                                 np.cumsum(ordered, axis=2)], axis=2)
    predicted = values[:, :, :1] + cumulative[:, :, size[0, 0, :, 0]]
    errors = (values - predicted) ** 2
    scores = np.sqrt(errors.mean(axis=(1, 2)))
    if return_details:
        return Bunch(scores=scores, permutations=order, squared_errors=errors)
    return scores


register_metric(
    "neg_explanation_error", explanation_error, kind="model", greater_is_better=False,
    requires=("masker", "training_rows", "random_state"),
    source="shap.benchmark",
    description="RMS gap between the model and the additive model of the "
                "attributions over random permutation prefixes.",
)
