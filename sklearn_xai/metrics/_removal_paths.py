"""Metrics read off a removal path: the model's output as the features an
explanation ranks are removed, kept or inserted step by step, and what is
computed from that path.

* The curve and its area: :func:`removal_curve`, :func:`removal_auc`
  (shap.benchmark's keep/remove orders), :func:`pixel_flipping`,
  :func:`region_perturbation`, :func:`selectivity`, :func:`irof`
  (:ref:`def-removal-curves`), :func:`road` (Rong et al. 2022, noisy linear
  imputation) and :func:`auc_tp` (the accuracy along the path);
* one step of the path, the output drop when the top-k features are removed
  or kept alone: :func:`comprehensiveness` and :func:`sufficiency` (ERASER,
  BEExAI; :ref:`def-removal-metrics`);
* whether the path is monotone: :func:`monotonicity` (BEExAI's insertion
  monotonicity), :func:`mono_minus` and :func:`mono_plus` (XAI-Bench's mono±,
  :ref:`def-mono`).

The curves of :func:`removal_curve` and its reductions come from one engine,
:func:`_curves`: the features of a row are grouped into *units* (single
features, feature groups, image patches or superpixels, computed from that
row only), the units are ranked by their aggregated attribution, and the
coalitions of every step of every row are evaluated in one pass of the
masker.  The other metrics build their coalitions as one boolean array too
and evaluate them with ``_with_x`` of ``_common.py``.  Correlations between
attributions and output changes live in ``_removal_correlations.py``, the
retrained paths (ROAR) in ``_retraining.py``.
"""

import numbers
import textwrap

import numpy as np

from sklearn_xai.masking import (
    BlurMasker,
    GridSegmentation,
    NoisyLinearMasker,
    SLICSegmentation,
    TokenMasker,
)
from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _CONVENTION_XAI_BENCH,
    _EMPTY_VALUE,
    _NAN_POLICY,
    _VALUE_PARAMS,
    _masker_streams,
    _prepare,
    _value_inputs,
    _values_with_x,
    _with_x,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.metrics._shared_removal import (
    _COMMON_PARAMS,
    _CONVENTION_BEEXAI,
    _DOC_ORDER_BY,
    _DOC_REMOVAL_MASKER,
    _MASKER_PARAMS,
    _MODEL_PARAMS,
    _NEEDS_VALUE,
    _VALUE_DOCS,
    _VALUE_SHARED,
    _importance_order,
    _monotone_fraction,
    _xai_bench_value_masker,
)
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._images import resolve_image_shape
from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params
from sklearn_xai.utils._stats import handle_undefined
from sklearn_xai.utils._validation import magnitude_order, positions, top_k_coalitions

__all__ = [
    "ERASER_BINS",
    "abpc",
    "aopc_comprehensiveness",
    "aopc_sufficiency",
    "auc_tp",
    "comprehensiveness",
    "deletion_auc",
    "insertion_auc",
    "irof",
    "mono_minus",
    "mono_plus",
    "monotonicity",
    "pixel_flipping",
    "region_perturbation",
    "removal_auc",
    "removal_curve",
    "road",
    "selectivity",
    "sufficiency",
]


# ======================================================================
# Units: which features are removed together (per row, from that row only)
# ======================================================================
def _check_groups(groups, d):
    """Group id of each feature, relabelled 0..G-1 (in order of first id)."""
    groups = np.asarray(groups)
    if groups.ndim != 1 or groups.shape[0] != d:
        raise ValueError(
            f"groups must be a 1-D array with one group id per feature ({d}); "
            f"got shape {groups.shape}."
        )
    if not (np.issubdtype(groups.dtype, np.integer)
            or np.issubdtype(groups.dtype, np.bool_)):
        raise TypeError(
            "groups must hold integer group ids (one per feature), e.g. "
            f"[0, 0, 1, 2, 2]; got dtype {groups.dtype}."
        )
    return np.unique(groups, return_inverse=True)[1].reshape(d)


def _patch_units(shape, patch_size):
    """Patch of each pixel of an image of ``shape``, on a grid of
    ``patch_size`` squares centred on the image (the grid is padded by
    ``(p - h mod p) // 2`` rows above, the rest below, and likewise for
    columns; a patch may overhang the image): a centred
    :class:`~sklearn_xai.masking.GridSegmentation`."""
    shape = tuple(int(s) for s in shape)
    return GridSegmentation(int(patch_size), shape, align="center").labels(
        int(np.prod(shape)))


def _units(X, *, groups=None, image_shape=None, patch_size=None, slic=None):
    """Unit of each feature of each row, shape (n, d), ids 0..U_i - 1.

    ``image_shape`` with ``patch_size`` gives patches (a centred
    :class:`~sklearn_xai.masking.GridSegmentation`), with ``slic`` (a dict
    of SLIC parameters) superpixels (:class:`~sklearn_xai.masking.SLICSegmentation`);
    else ``groups`` (one id per feature) or one feature per unit.
    """
    n, d = X.shape
    if image_shape is not None and (patch_size is not None or slic is not None):
        if groups is not None:
            raise ValueError(
                "Pass either image_shape= (image patches or superpixels) or "
                "groups= (feature groups of tabular data), not both."
            )
        shape = resolve_image_shape(image_shape, d, ndim=2)
        if slic is not None:
            return SLICSegmentation(**slic, image_shape=shape).segment(X)
        return np.broadcast_to(_patch_units(shape, patch_size), (n, d))
    if groups is not None:
        return np.broadcast_to(_check_groups(groups, d), (n, d))
    return np.broadcast_to(np.arange(d), (n, d))


def _quantus_patch_sums(A, shape, patch_size):
    """Summed attribution of each patch as Quantus 0.6 computes it (n, U).

    Quantus pads the image with zeros to a multiple of ``patch_size``
    (``floor`` of the padding above and left, ``ceil`` below and right) and
    sums each ``p x p`` block of the padded image in row-major order
    (``ndarray.sum`` over the last axis, pairwise).  The order of the terms
    and the padding zeros decide the rounding of the sums, and so which
    patches tie; the patches are numbered as by :func:`_patch_units`.
    """
    n = A.shape[0]
    h, w = shape
    p = int(patch_size)
    pad_h, pad_w = (-h) % p, (-w) % p
    image = np.pad(A.reshape(n, h, w), ((0, 0), (pad_h // 2, pad_h - pad_h // 2),
                                        (pad_w // 2, pad_w - pad_w // 2)))
    H, W = image.shape[1] // p, image.shape[2] // p
    blocks = image.reshape(n, H, p, W, p).transpose(0, 1, 3, 2, 4).reshape(n, H * W, p * p)
    return np.ascontiguousarray(blocks).sum(axis=-1)


def _unit_scores(A, units, how):
    """Summed or mean attribution of each unit (n, U); NaN for an id a row
    does not use."""
    n, d = A.shape
    U = int(units.max()) + 1
    flat = (units + U * np.arange(n)[:, None]).ravel()
    sums = np.bincount(flat, weights=A.ravel(), minlength=n * U).reshape(n, U)
    counts = np.bincount(flat, minlength=n * U).reshape(n, U)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = sums / counts if how == "mean" else np.where(counts > 0, sums, np.nan)
    return scores, counts > 0


# ======================================================================
# The curve engine
# ======================================================================
_ORDERS = {"positive", "negative", "absolute"}


def _curves(f, masker, X, A, units, *, mode="remove", order="positive",
            aggregate="sum", per_step=1, max_steps=None, cap=None, rngs=None,
            batch_size=None, unit_scores=None, sort_kind="stable"):
    """Output of the model along the removal (or insertion) path of each row.

    Units are ranked by their aggregated attribution (``"positive"``:
    largest first, ``"negative"``: smallest first, ``"absolute"``: largest
    magnitude first; ties by unit id, or as :func:`numpy.argsort` of
    ``sort_kind`` leaves them; ``unit_scores``, when given, replaces the
    aggregated attributions, every unit used) and step ``k`` removes (``mode=
    "remove"``) or keeps (``mode="keep"``) the first ``min(k * per_step,
    U_i)`` units of row ``i`` (with ``cap="sign"``, only those whose
    sign-adjusted score is ``>= 0``).

    Returns
    -------
    fx : ndarray of shape (n,)
    curves : ndarray of shape (n, K + 1)
        The output at steps ``0..K``; ``curves[:, 0]`` is ``f(x)`` when
        removing, the fully masked row when keeping.
    fractions : ndarray of shape (n, K + 1)
        Share of the row's units nominally removed (or kept) at each step;
        constant once a row has no unit left.
    n_units : ndarray of shape (n,)
        Number of units of each row.
    """
    if unit_scores is None:
        scores, used = _unit_scores(A, units, aggregate)
    else:
        scores, used = unit_scores, np.ones(unit_scores.shape, dtype=bool)
    if order == "positive":
        key = -scores
    elif order == "negative":
        key = scores
    else:
        key = -np.abs(scores)
    key = np.where(used, key, np.inf)  # unused ids last, never reached
    rank = positions(np.argsort(key, axis=1, kind=sort_kind))
    feature_rank = np.take_along_axis(rank, units, axis=1)
    n_units = used.sum(axis=1)
    if cap == "sign":  # shap.benchmark: only units of the order's sign
        signed = scores if order == "positive" else -scores
        cap = np.where(used, signed >= 0, False).sum(axis=1)
    K = -(-int(n_units.max()) // per_step)
    if max_steps is not None:
        K = min(K, int(max_steps))
    nominal = np.minimum(np.arange(K + 1)[None, :] * per_step, n_units[:, None])
    counts = nominal if cap is None else np.minimum(nominal, cap[:, None])
    chosen = feature_rank[:, None, :] < counts[:, :, None]  # (n, K + 1, d)
    if mode == "remove":
        # Step 0 removes nothing: f(x) itself, from the same model call.
        steps = chosen[:, 1:] if K else chosen[:, :1]
        fx, values = _with_x(f, masker, X, ~steps, batch_size, rngs)
        curves = np.concatenate([fx[:, None], values[:, :K]], axis=1)
    else:
        fx, curves = _with_x(f, masker, X, chosen, batch_size, rngs)
    return fx, curves, nominal / n_units[:, None], n_units


def _evaluate(estimator, X, attributions, masker, X_train, target, output,
              batch_size, random_state, units_kw, quantus_ties=False, **curve_kw):
    """Validated inputs, the units and :func:`_curves` in one call.

    ``quantus_ties``: rank the units as Quantus' ``RegionPerturbation`` and
    ``Selectivity`` do, ``np.argsort`` of the default kind (not stable: ties
    are left in the order its sort leaves them) over patch sums computed as
    Quantus computes them (:func:`_quantus_patch_sums`).
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    units = _units(X, **units_kw)
    if quantus_ties:
        curve_kw["sort_kind"] = "quicksort"  # np.argsort's default
        if units_kw.get("image_shape") is not None:
            shape = resolve_image_shape(units_kw["image_shape"], X.shape[1], ndim=2)
            curve_kw["unit_scores"] = _quantus_patch_sums(A, shape,
                                                          units_kw["patch_size"])
    rngs = _masker_streams(masker, X, random_state)
    return (*_curves(f, masker, X, A, units, rngs=rngs, batch_size=batch_size,
                     **curve_kw), A)


def _area(curves, fractions):
    """Trapezoid area of each row's curve over the fraction removed."""
    return np.trapezoid(curves, fractions, axis=1)


def _steps_area(values, n_steps):
    """Quantus' area: trapezoid with unit spacing over steps ``1..S_i`` of
    each row (step 0 excluded), ``values`` of shape (n, K + 1)."""
    n, width = values.shape
    k = np.arange(width)[None, :]
    S = n_steps[:, None]
    inside = (k >= 1) & (k <= S)
    weight = np.where(inside, 1.0, 0.0) - 0.5 * ((k == 1) & inside) - 0.5 * ((k == S) & inside)
    return (values * weight).sum(axis=1)


# ======================================================================
# Shared parameters and docstring entries
# ======================================================================
_PARAMS = {
    **_BASE_PARAMS,
    "masker": [None, object],
    "X_train": ["array-like", None],
    "random_state": ["random_state"],
}

_STEP = [Interval(numbers.Integral, 1, None, closed="left")]

_CONVENTION = {"convention": [StrOptions({"paper", "quantus_code"})]}

_REGION_PARAMS = {
    **_PARAMS,
    **_CONVENTION,
    "groups": ["array-like", None],
    "image_shape": ["array-like", None],
    "patch_size": _STEP,
}

_SHARED = ("X_train", "random_state")

_BLUR_PARAMS = {
    "baseline": [StrOptions({"blur"}), None],
    "blur_sigma": [Interval(numbers.Real, 0, None, closed="neither")],
}


def _baseline_masker(baseline, blur_sigma, masker, image_shape):
    """The masker of a ``baseline=`` option: ``"blur"`` is a
    :class:`~sklearn_xai.masking.BlurMasker` over the rows' images (RISE's
    blurred baseline), ``None`` leaves ``masker`` as given."""
    if baseline is None:
        return masker
    if masker is not None:
        raise ValueError(
            f"Pass either baseline={baseline!r} or masker=, not both: baseline='blur' "
            "is masker=BlurMasker(image_shape, sigma=blur_sigma); pass "
            "masker=BlurMasker(...) to set its kernel_size."
        )
    return BlurMasker(image_shape=image_shape, sigma=blur_sigma)

_DOCS = dict(
    curve_masker="""
masker : masker, default=None
    How features are removed (resolved by
    :func:`sklearn_xai.masking.check_masker`); ``None`` is
    ``BaselineMasker("zero")`` (Quantus' ``perturb_baseline=0.0``).  Any
    masker works (a constant baseline, marginal or conditional draws); a
    fitted one is used as is, an unfitted one is fitted on ``X_train``.""",
    groups="""
groups : array-like of shape (n_features,), default=None
    Tabular data: the integer group id of each feature; a group is
    removed as one region.  ``None`` is one feature per region.  Ignored
    when ``image_shape`` is given.""",
    image_shape="""
image_shape : tuple of int (height, width), default=None
    The rows are flattened single-channel images of this shape (row-major);
    the regions are then ``patch_size`` x ``patch_size`` patches of a grid
    centred on the image (edge patches may be partial).  ``None`` treats
    the rows as tabular data (``groups``).""",
    baseline="""
baseline : {"blur"} or None, default=None
    ``"blur"``: a removed pixel takes the value of a Gaussian-blurred copy
    of its own image (RISE's insertion baseline, Petsiuk et al. 2018),
    :class:`~sklearn_xai.masking.BlurMasker` of ``image_shape`` (``None``:
    square single-channel images) and ``blur_sigma``; ``masker`` must then
    be ``None``.  ``None``: ``masker`` decides.""",
    blur_sigma="""
blur_sigma : float, default=5.0
    Standard deviation in pixels of the blur of ``baseline="blur"`` (RISE's
    and LATEC's 5).""",
    patch_size="""
patch_size : int, default=8
    Side of the square patches when ``image_shape`` is given (Quantus'
    default 8).""",
)


def _convention_doc(paper, code):
    text = textwrap.fill(f'``"paper"``: {paper}  ``"quantus_code"``: {code}', width=76,
                         initial_indent="    ", subsequent_indent="    ",
                         break_on_hyphens=False, break_long_words=False)
    return '\nconvention : {"paper", "quantus_code"}, default="paper"\n' + text


def _pick(*names):
    return {name: _DOCS[name] for name in names}


def _units_kw(groups, image_shape, patch_size):
    return {"groups": groups, "image_shape": image_shape, "patch_size": patch_size}


# ======================================================================
# The public curve
# ======================================================================
@fast_validate_params(
    {**_PARAMS,
     "mode": [StrOptions({"remove", "keep"})],
     "order": [StrOptions(_ORDERS)],
     "features_per_step": _STEP,
     "groups": ["array-like", None],
     "image_shape": ["array-like", None],
     "patch_size": _STEP + [None],
     "aggregate": [StrOptions({"sum", "mean"})],
     **_BLUR_PARAMS},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, **_pick("groups", "curve_masker", "baseline", "blur_sigma"),
              metric_references=_references("bach2015", "petsiuk2018"),
              **_shared_docs("model_inputs", "output_params"))
def removal_curve(estimator, X, attributions, *, mode="remove", order="positive",
                  features_per_step=1, groups=None, image_shape=None, patch_size=None,
                  aggregate="sum", baseline=None, blur_sigma=5.0, masker=None,
                  X_train=None, random_state=None, target="predicted", output="auto",
                  batch_size=None):
    """The model's output as features are removed (or kept) in the order of
    an explanation, one curve per row.  See :ref:`def-removal-curves`.

    The features of each row are grouped into regions (single features,
    ``groups`` or image patches), ranked by their aggregated attribution,
    and step ``k = 0..K`` removes (``mode="remove"``) or keeps
    (``mode="keep"``, the others removed) the first ``min(k *
    features_per_step, U)`` regions, ``K = ceil(U / features_per_step)``.
    Every metric of this family is a reduction of these curves.

    Parameters
    ----------
    {model_inputs}
    mode : {"remove", "keep"}, default="remove"
        Remove the first regions (deletion, pixel flipping) or keep them and
        remove the others (insertion).
    order : {"positive", "negative", "absolute"}, default="positive"
        Rank regions by aggregated attribution, largest first
        (``"positive"``, most relevant first), smallest first
        (``"negative"``) or by magnitude (``"absolute"``); ties by position.
    features_per_step : int, default=1
        Regions removed (or added) per step.
    {groups}
    image_shape : tuple of int (height, width), default=None
        With ``patch_size``: the rows are flattened images of this shape and
        the regions are patches (see :func:`region_perturbation`).
    patch_size : int, default=None
        Side of the square patches (with ``image_shape``).
    aggregate : {"sum", "mean"}, default="sum"
        How a region's attribution is aggregated before ranking.
    {baseline}
    {blur_sigma}
    {curve_masker}
    {X_train}
    {random_state}
    {output_params}

    Returns
    -------
    curves : ndarray of shape (n_samples, K + 1)
        The explained output at each step; ``curves[:, 0]`` is ``f(x)``
        when removing and the fully masked row when keeping.
    fractions : ndarray of shape (K + 1,)
        The share of the regions removed (or kept) at each step.

    See Also
    --------
    pixel_flipping : The area under the curve, one feature at a time.
    region_perturbation : The mean output drop over regions (AOPC).
    selectivity : The area under the curve over regions.
    irof : The area over the normalised curve over superpixels.
    removal_auc : shap.benchmark's keep and remove areas.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import removal_curve
    >>> X = np.array([[1.0, 2.0, 3.0]])
    >>> model = LinearRegression(fit_intercept=False).fit(np.eye(3), [1.0, 2.0, 3.0])
    >>> curves, fractions = removal_curve(model, X, model.coef_ * X)
    >>> np.round(curves, 6)
    array([[14.,  5.,  1.,  0.]])
    >>> fractions
    array([0.        , 0.33333333, 0.66666667, 1.        ])
    """
    if patch_size is not None and image_shape is None:
        raise ValueError("patch_size needs image_shape=(height, width).")
    units_kw = _units_kw(groups, image_shape, patch_size)
    masker = _baseline_masker(baseline, blur_sigma, masker, image_shape)
    fx, curves, fractions, _, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, units_kw, mode=mode, order=order, aggregate=aggregate,
        per_step=features_per_step)
    return curves, fractions[0]


# ======================================================================
# Pixel flipping (Bach et al. 2015)
# ======================================================================
@fast_validate_params({**_PARAMS, **_CONVENTION, "features_per_step": _STEP},
                      prefer_skip_nested_validation=True)
@Substitution(*_SHARED, **_pick("curve_masker"),
              convention=_convention_doc(
    "the area under the curve over the fraction of features removed, ``f(x)`` "
    "at 0 included (in the output's units, comparable across numbers of "
    "features).",
    "Quantus' ``PixelFlipping(return_auc_per_sample=True)``: the trapezoid "
    "with unit spacing over steps ``1..K`` (``f(x)`` left out, growing with "
    "the number of steps)."),
              metric_references=_references("bach2015", "hedstrom2023"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
def pixel_flipping(estimator, X, attributions, *, features_per_step=1, masker=None,
                   X_train=None, convention="paper", random_state=None,
                   target="predicted", output="auto", batch_size=None):
    """Pixel flipping: area under the output curve as the most relevant
    features are removed first (Bach et al. 2015; Quantus' PixelFlipping).
    See :ref:`def-pixel-flipping` in the user guide.

    Features are removed in decreasing order of their (signed) attribution,
    ``features_per_step`` at a time; with ``c_k`` the output after ``k``
    steps (``c_0 = f(x)``) and ``t_k = min(k s, d) / d`` the fraction
    removed, the score is ``sum_k (t_{k+1} - t_k) (c_k + c_{k+1}) / 2``.
    A faithful explanation makes the output collapse early: lower is better.

    Parameters
    ----------
    {model_inputs}
    features_per_step : int, default=1
        Features removed per step (the last step may remove fewer).
    {curve_masker}
    {X_train}
    {convention}
    {random_state}
    {output_params}

    {returns_scores_lower}

    See Also
    --------
    removal_curve : The curves themselves.
    selectivity : The same area with image patches or feature groups.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import pixel_flipping
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 6))
    >>> model = LinearRegression().fit(X, X @ [6.0, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> bool(pixel_flipping(model, X, exact).mean()
    ...      < pixel_flipping(model, X, -exact).mean())
    True
    """
    fx, curves, fractions, n_units, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, {}, mode="remove", order="positive",
        per_step=features_per_step)
    if convention == "quantus_code":
        return _steps_area(curves, -(-n_units // features_per_step))
    return _area(curves, fractions)


# ======================================================================
# Region perturbation (Samek et al. 2017) and selectivity (Montavon et al. 2018)
# ======================================================================
@fast_validate_params(
    {**_REGION_PARAMS,
     "order": [StrOptions({"morf", "lerf"})],
     "n_regions": [Interval(numbers.Integral, 1, None, closed="left"), None]},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, **_pick("groups", "image_shape", "patch_size", "curve_masker"),
              convention=_convention_doc(
    "AOPC, the mean of ``f(x) - c_k`` over ``k = 0..L`` (Samek et al.).",
    "Quantus' ``RegionPerturbation`` curve ``f(x) - c_k``, ``k = 1..L``, "
    "reduced by its ``get_auc_score`` (trapezoid with unit spacing); regions "
    "with equal summed attributions are ordered as Quantus' unstable "
    "``np.argsort`` of its patch sums orders them."),
              metric_references=_references("samek2017"),
              **_shared_docs("model_inputs", "output_params"))
def region_perturbation(estimator, X, attributions, *, order="morf", groups=None,
                        image_shape=None, patch_size=8, n_regions=None, masker=None,
                        X_train=None, convention="paper", random_state=None,
                        target="predicted", output="auto", batch_size=None):
    """Region perturbation: area over the perturbation curve (AOPC) as
    regions are removed most (or least) relevant first (Samek et al. 2017;
    Quantus' RegionPerturbation).  See :ref:`def-region-perturbation`.

    Regions (image patches, or feature groups of tabular data) are ranked by
    their summed attribution and removed cumulatively; with ``c_k`` the
    output after ``k`` regions (``c_0 = f(x)``),
    ``AOPC = 1/(L+1) sum_{k=0}^{L} (f(x) - c_k)``.

    * ``order="morf"`` (most relevant first): a faithful explanation makes
      the output drop early; greater is better (scorer
      ``region_perturbation``).
    * ``order="lerf"`` (least relevant first): the output should stay;
      lower is better (scorer ``neg_region_perturbation_lerf``).

    Parameters
    ----------
    {model_inputs}
    order : {"morf", "lerf"}, default="morf"
        Most or least relevant region first.
    {groups}
    {image_shape}
    {patch_size}
    n_regions : int, default=None
        Regions removed ``L`` (Quantus' ``regions_evaluation``, default 100
        there); ``None`` removes all of them.
    {curve_masker}
    {X_train}
    {convention}
    {random_state}
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        One score per row; greater is better with ``order="morf"``, lower
        with ``order="lerf"``.

    See Also
    --------
    selectivity : The area under the output curve, regions by relevance.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import region_perturbation
    >>> rng = np.random.default_rng(0)
    >>> X = np.abs(rng.normal(size=(100, 6)))
    >>> model = LinearRegression().fit(X, X @ [6.0, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> groups = [0, 0, 1, 1, 2, 2]
    >>> bool(region_perturbation(model, X, exact, groups=groups).mean()
    ...      > region_perturbation(model, X, -exact, groups=groups).mean())
    True
    """
    fx, curves, _, n_units, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, _units_kw(groups, image_shape, patch_size), mode="remove",
        order="positive" if order == "morf" else "negative",
        max_steps=n_regions, quantus_ties=convention == "quantus_code")
    drop = fx[:, None] - curves
    if convention == "quantus_code":
        return _steps_area(drop, np.minimum(n_units, drop.shape[1] - 1))
    return drop.mean(axis=1)


@fast_validate_params(_REGION_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_SHARED, **_pick("groups", "image_shape", "patch_size", "curve_masker"),
              convention=_convention_doc(
    "the area under the curve over the fraction of regions removed, "
    "``f(x)`` at 0 included.",
    "Quantus' ``Selectivity`` reduced by its ``get_auc_score``: the "
    "trapezoid with unit spacing over steps ``1..U``; regions with equal "
    "summed attributions are ordered as Quantus' unstable ``np.argsort`` of "
    "its patch sums orders them."),
              metric_references=_references("montavon2018"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
def selectivity(estimator, X, attributions, *, groups=None, image_shape=None,
                patch_size=8, masker=None, X_train=None, convention="paper",
                random_state=None, target="predicted", output="auto",
                batch_size=None):
    """Selectivity: area under the output curve as regions are removed most
    relevant first (Montavon et al. 2018; Quantus' Selectivity).  See
    :ref:`def-selectivity`.

    Regions (image patches, or feature groups of tabular data) are ranked by
    their summed attribution and removed cumulatively; the score is the
    trapezoid area of ``c_0 = f(x), c_1, ..., c_U`` over the fraction of
    regions removed.  Lower is better.

    Parameters
    ----------
    {model_inputs}
    {groups}
    {image_shape}
    {patch_size}
    {curve_masker}
    {X_train}
    {convention}
    {random_state}
    {output_params}

    {returns_scores_lower}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import selectivity
    >>> rng = np.random.default_rng(0)
    >>> X = np.abs(rng.normal(size=(100, 16)))
    >>> model = LinearRegression().fit(X, X @ np.arange(16.0))
    >>> exact = model.coef_ * X
    >>> a = selectivity(model, X, exact, image_shape=(4, 4), patch_size=2)
    >>> b = selectivity(model, X, -exact, image_shape=(4, 4), patch_size=2)
    >>> bool(a.mean() < b.mean())
    True
    """
    fx, curves, fractions, n_units, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, _units_kw(groups, image_shape, patch_size), mode="remove",
        order="positive", quantus_ties=convention == "quantus_code")
    if convention == "quantus_code":
        return _steps_area(curves, n_units)
    return _area(curves, fractions)


# ======================================================================
# IROF (Rieger and Hansen 2020)
# ======================================================================
@fast_validate_params(
    {**_PARAMS, **_CONVENTION, **_NAN_POLICY,
     "groups": ["array-like", None],
     "image_shape": ["array-like", None],
     "n_segments": _STEP,
     "compactness": [Interval(numbers.Real, 0, None, closed="neither")],
     "sigma": [Interval(numbers.Real, 0, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, **_pick("groups", "curve_masker"),
              convention=_convention_doc(
    "``1 - area`` of the normalised curve ``c_k / f(x)``, for ``k`` from 0 to ``S``, "
    "over the fraction of segments removed (in [0, 1] when the output stays in "
    "``[0, f(x)]``; comparable across rows with different numbers of "
    "segments).",
    "Quantus' ``IROF``: ``S - trapz(c_1 / f(x), ..., c_S / f(x))`` with unit "
    "spacing (in units of segments), each row computed as if scored alone."),
              metric_references=_references("rieger2020", "achanta2012"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def irof(estimator, X, attributions, *, groups=None, image_shape=None,
         n_segments=100, compactness=10.0, sigma=0.0, masker=None, X_train=None,
         convention="paper", nan_policy="omit", random_state=None,
         target="predicted", output="auto", batch_size=None):
    """Iterative removal of features (IROF): area over the normalised output
    curve as segments are removed in decreasing mean attribution (Rieger and
    Hansen 2020; Quantus' IROF).  See :ref:`def-irof`.

    Images (``image_shape`` given) are segmented into superpixels by
    scikit-image's SLIC, each row from its own pixels; tabular rows use
    ``groups``.  Segments are ranked by their *mean* attribution and
    removed cumulatively; with ``c_k`` the output after ``k`` of the row's
    ``S`` segments, ``IROF = 1 - sum_k (c_k + c_{k+1}) / (2 S f(x))``.
    Greater is better.

    Parameters
    ----------
    {model_inputs}
    {groups}
    image_shape : tuple of int (height, width), default=None
        The rows are flattened single-channel images of this shape
        (row-major), segmented by SLIC.  ``None`` treats the rows as tabular
        data (``groups``).
    n_segments : int, default=100
        SLIC's approximate number of segments (scikit-image's default, as
        Quantus).
    compactness : float, default=10.0
        SLIC's balance of colour and space proximity.
    sigma : float, default=0.0
        Width of SLIC's Gaussian pre-smoothing.
    {curve_masker}
    {X_train}
    {convention}
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        A row with ``f(x) = 0`` has no normalised curve: NaN with a warning
        (``"omit"``), 0 (``"zero"``) or a ``ValueError`` (``"raise"``).
    {random_state}
    {output_params}

    {returns_scores_greater}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import irof
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 6))
    >>> clf = LogisticRegression().fit(X, X @ [3.0, -2, 1, 0, 0, 0] > 0)
    >>> exact = clf.coef_[0] * X
    >>> sign = np.where(clf.predict(X), 1.0, -1.0)[:, None]
    >>> bool(irof(clf, X, sign * exact).mean() > irof(clf, X, -sign * exact).mean())
    True
    """
    if image_shape is not None:
        units_kw = {"image_shape": image_shape, "slic": {
            "n_segments": int(n_segments), "compactness": float(compactness),
            "sigma": float(sigma)}}
    else:
        units_kw = {"groups": groups}
    fx, curves, fractions, n_units, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, units_kw, mode="remove", order="positive", aggregate="mean")
    undefined = fx == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        normalised = curves / fx[:, None]
    if convention == "quantus_code":
        scores = n_units - _steps_area(normalised, n_units)
    else:
        scores = 1.0 - _area(normalised, fractions)
    return handle_undefined(scores, undefined, nan_policy, "irof",
                            "the explained output f(x) is 0")


# ======================================================================
# shap.benchmark's keep / remove orders
# ======================================================================
@fast_validate_params(
    {**_PARAMS,
     "mode": [StrOptions({"remove", "keep"})],
     "order": [StrOptions(_ORDERS)],
     "features_per_step": _STEP},
    prefer_skip_nested_validation=True,
)
@Substitution(*_SHARED, **_pick("curve_masker"),
              metric_references=_references("lundberg2020"),
              **_shared_docs("model_inputs", "output_params"))
def removal_auc(estimator, X, attributions, *, mode="remove", order="positive",
                features_per_step=1, masker=None, X_train=None, random_state=None,
                target="predicted", output="auto", batch_size=None):
    """Area under a keep or remove curve, shap.benchmark's orders (Lundberg
    et al. 2020).  See :ref:`def-keep-remove`.

    Step ``k`` keeps (``mode="keep"``) or removes (``mode="remove"``) the
    ``k`` features ranked first by ``order``; the score is the trapezoid
    area of the curve over the fraction ``k / d``, ``k = 0..d``:

    * ``"positive"`` / ``"negative"``: features by decreasing / increasing
      signed attribution, and only those whose sign-adjusted attribution is
      ``>= 0`` (as shap.benchmark: once they are exhausted the curve is
      flat); the curve is the explained output.  Orientation: keep positive
      and remove negative raise the output (greater is better), keep
      negative and remove positive lower it (lower is better).
    * ``"absolute"``: features by decreasing magnitude; the curve is the
      output *deviation* ``|f(x) - c_k|``.  shap.benchmark scores its
      absolute orders against labels (R² or ROC AUC of retrained or masked
      models); without labels at scoring time we measure how far the
      output moves: small when keeping (lower is better), large when
      removing (greater is better).

    Parameters
    ----------
    {model_inputs}
    mode : {"remove", "keep"}, default="remove"
        Remove the first features or keep them (the others removed).
    order : {"positive", "negative", "absolute"}, default="positive"
        Which features come first, see above.
    features_per_step : int, default=1
        Features removed or added per step (shap.benchmark evaluates 11
        log-spaced counts; ``1`` gives the exact area over every count).
    {curve_masker}
    {X_train}
    {random_state}
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        One area per row; its orientation depends on ``mode`` and
        ``order``, see above and the scorer names (``keep_positive``,
        ``neg_keep_negative``, ``neg_keep_absolute``,
        ``neg_remove_positive``, ``remove_negative``, ``remove_absolute``).

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import removal_auc
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 5))
    >>> model = LinearRegression().fit(X, X @ [5.0, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> good = removal_auc(model, X, exact, mode="keep", order="positive")
    >>> bad = removal_auc(model, X, -exact, mode="keep", order="positive")
    >>> bool(good.mean() > bad.mean())
    True
    """
    fx, curves, fractions, _, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, {}, mode=mode, order=order, per_step=features_per_step,
        cap=None if order == "absolute" else "sign")
    if order == "absolute":
        curves = np.abs(fx[:, None] - curves)
    return _area(curves, fractions)


# ======================================================================
# Insertion and deletion (Petsiuk et al. 2018) and ABPC (Schulz et al. 2020)
# ======================================================================
_INS_DEL_PARAMS = {
    **_PARAMS,
    **_BLUR_PARAMS,
    "features_per_step": _STEP,
    "image_shape": ["array-like", None],
    "convention": [StrOptions({"paper", "latec_code"})],
}

_INS_DEL_CONVENTION = """
convention : {"paper", "latec_code"}, default="paper"
    ``"paper"``: the trapezoid area of the curve over the fraction of
    features inserted (removed), both ends included (``c_0`` and ``c_K``),
    as RISE defines it.  ``"latec_code"``: LATEC's ``Insertion`` and
    ``Deletion`` (``src/modules/components/insertion_deletion.py``): the
    trapezoid with spacing ``1 / (K - 1)`` over steps ``1..K-1`` only (its
    loop scores neither the start nor the last, complete step).  LATEC's
    ImageNet configuration inserts 50 features per step
    (``features_per_step=50``) into ``GaussianBlur(15, sigma=5)``
    (``masker=BlurMasker(sigma=5, kernel_size=15)``).  On multi-channel
    maps LATEC ranks every value but sets all channels of a pixel at its
    first one; here each value moves on its own (the same for one
    channel)."""


def _ins_del(estimator, X, attributions, *, mode, baseline, blur_sigma, image_shape,
             features_per_step, masker, X_train, convention, random_state, target,
             output, batch_size):
    masker = _baseline_masker(baseline, blur_sigma, masker, image_shape)
    _, curves, fractions, n_units, _ = _evaluate(
        estimator, X, attributions, masker, X_train, target, output, batch_size,
        random_state, {}, mode=mode, order="positive", per_step=features_per_step)
    if convention == "latec_code":
        K = curves.shape[1] - 1  # every row has d features: the same K
        if K < 2:
            raise ValueError(
                "convention='latec_code' scores steps 1..K-1 and needs K >= 2 steps; "
                f"got K={K} (n_features={int(n_units[0])}, features_per_step="
                f"{features_per_step}): use a smaller features_per_step."
            )
        inner = curves[:, 1:K]
        if K == 2:
            return inner[:, 0] * 0.0  # one point: LATEC's trapezoid is 0
        return np.trapezoid(inner, dx=1.0 / (K - 1), axis=1)
    return _area(curves, fractions)


@fast_validate_params(_INS_DEL_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_SHARED, **_pick("blur_sigma"),
              convention=_INS_DEL_CONVENTION,
              metric_references=_references("petsiuk2018", "klein2024"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def insertion_auc(estimator, X, attributions, *, baseline=None, blur_sigma=5.0,
                  image_shape=None, features_per_step=1, masker=None, X_train=None,
                  convention="paper", random_state=None, target="predicted",
                  output="auto", batch_size=None):
    """Insertion: area under the output curve as the most relevant pixels are
    inserted into a blurred copy of the image (RISE, Petsiuk et al. 2018).

    The path starts from the baseline image (every feature removed: by
    default each pixel takes its value in a Gaussian-blurred copy of the
    image) and inserts the features of ``x`` in decreasing order of their
    signed attribution, ``features_per_step`` at a time; the curve ``c_k``
    (``k = 0..K``) is the explained output, the score its area over the
    fraction inserted.  A faithful explanation makes the output rise early:
    greater is better.  It is :func:`removal_curve` with ``mode="keep"`` and
    ``baseline="blur"``, reduced to its area.

    Parameters
    ----------
    {model_inputs}
    baseline : {"blur"} or None, default=None
        ``"blur"``: the removed pixels take a Gaussian-blurred copy of their
        own image (:class:`~sklearn_xai.masking.BlurMasker` of
        ``image_shape`` and ``blur_sigma``; RISE, LATEC); ``masker`` must
        then be ``None``.  ``None``: ``masker`` decides, and insertion's
        default masker (``masker=None``) is that same blurred baseline.
    {blur_sigma}
    image_shape : tuple of int, default=None
        Shape of one image, ``(height, width)`` or ``(channels, height,
        width)`` (rows flattened row-major) for the blur; ``None``: square
        single-channel images.
    features_per_step : int, default=1
        Features inserted per step (RISE: one pixel; LATEC on ImageNet: 50).
    masker : masker, default=None
        How features are removed (resolved by
        :func:`sklearn_xai.masking.check_masker`); ``None`` is the blurred
        baseline ``BlurMasker(image_shape, sigma=blur_sigma)``.  Any masker
        works (a zero baseline ``BaselineMasker("zero")``, marginal or
        conditional draws); a fitted one is used as is, an unfitted one is
        fitted on ``X_train``.
    {X_train}
    {convention}
    {random_state}
    {output_params}

    {returns_scores_greater}

    See Also
    --------
    deletion_auc : The same path in reverse, from ``x`` down to the baseline.
    abpc : The area between the least- and most-relevant-first deletion curves.
    removal_curve : The curves themselves.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import insertion_auc
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 16))
    >>> model = LinearRegression().fit(X, X @ np.arange(16.0))
    >>> exact = model.coef_ * X
    >>> bool(insertion_auc(model, X, exact, blur_sigma=1.0).mean()
    ...      > insertion_auc(model, X, -exact, blur_sigma=1.0).mean())
    True
    """
    if baseline is None and masker is None:  # RISE's insertion baseline
        baseline = "blur"
    return _ins_del(estimator, X, attributions, mode="keep", baseline=baseline,
                    blur_sigma=blur_sigma, image_shape=image_shape,
                    features_per_step=features_per_step, masker=masker,
                    X_train=X_train, convention=convention, random_state=random_state,
                    target=target, output=output, batch_size=batch_size)


@fast_validate_params(_INS_DEL_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_SHARED, **_pick("curve_masker", "blur_sigma"),
              convention=_INS_DEL_CONVENTION,
              metric_references=_references("petsiuk2018", "klein2024"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_lower"))
def deletion_auc(estimator, X, attributions, *, baseline=None, blur_sigma=5.0,
                 image_shape=None, features_per_step=1, masker=None, X_train=None,
                 convention="paper", random_state=None, target="predicted",
                 output="auto", batch_size=None):
    """Deletion: area under the output curve as the most relevant pixels are
    removed first (RISE, Petsiuk et al. 2018).

    Features are removed in decreasing order of their signed attribution,
    ``features_per_step`` at a time (by default replaced by zero, as RISE
    and LATEC delete; ``baseline="blur"`` replaces them by a blurred copy of
    the image); the score is the area of the output curve over the fraction
    removed.  A faithful explanation makes the output collapse early: lower
    is better.  With the default zero baseline and ``convention="paper"``
    it equals :func:`pixel_flipping`.

    Parameters
    ----------
    {model_inputs}
    baseline : {"blur"} or None, default=None
        ``None``: ``masker`` decides (default a zero baseline).
        ``"blur"``: the removed pixels take a Gaussian-blurred copy of their
        own image (:class:`~sklearn_xai.masking.BlurMasker`).
    {blur_sigma}
    image_shape : tuple of int, default=None
        Shape of one image for ``baseline="blur"``, ``(height, width)`` or
        ``(channels, height, width)``; ``None``: square single-channel
        images.
    features_per_step : int, default=1
        Features removed per step (RISE: one pixel; LATEC on ImageNet: 50).
    {curve_masker}
    {X_train}
    {convention}
    {random_state}
    {output_params}

    {returns_scores_lower}

    See Also
    --------
    insertion_auc : The path from the baseline up to ``x``.
    pixel_flipping : The same area, with Quantus' step convention too.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import deletion_auc
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 6))
    >>> model = LinearRegression().fit(X, X @ [6.0, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> bool(deletion_auc(model, X, exact).mean() < deletion_auc(model, X, -exact).mean())
    True
    """
    return _ins_del(estimator, X, attributions, mode="remove", baseline=baseline,
                    blur_sigma=blur_sigma, image_shape=image_shape,
                    features_per_step=features_per_step, masker=masker,
                    X_train=X_train, convention=convention, random_state=random_state,
                    target=target, output=output, batch_size=batch_size)


@fast_validate_params({**_PARAMS, **_BLUR_PARAMS, "groups": ["array-like", None],
                       "image_shape": ["array-like", None], "patch_size": _STEP + [None],
                       "features_per_step": _STEP},
                      prefer_skip_nested_validation=True)
@Substitution(*_SHARED, **_pick("groups", "curve_masker", "baseline", "blur_sigma"),
              metric_references=_references("schulz2020", "samek2017"),
              **_shared_docs("model_inputs", "output_params", "returns_scores_greater"))
def abpc(estimator, X, attributions, *, groups=None, image_shape=None, patch_size=None,
         features_per_step=1, baseline=None, blur_sigma=5.0, masker=None, X_train=None,
         random_state=None, target="predicted", output="auto", batch_size=None):
    """Area between the perturbation curves: least- minus most-relevant-first
    deletion (ABPC, Schulz et al. 2020).

    Regions (features, ``groups`` or ``patch_size`` patches of
    ``image_shape`` images) are ranked by their summed attribution and
    removed cumulatively, ``features_per_step`` regions per step, most
    relevant first (MoRF, curve ``m_k``) and least relevant first (LeRF,
    ``l_k``), ``k = 0..K``, ``m_0 = l_0 = f(x)``; with ``t_k`` the fraction
    of regions removed, ``ABPC = sum_k (t_{k+1} - t_k) (g_k + g_{k+1}) / 2``
    where ``g_k = l_k - m_k``: the trapezoid area between the two curves.
    A faithful explanation makes the output fall early under MoRF and stay
    under LeRF: greater is better (0 for an explanation that orders the
    features no better than its reverse).  Equivalently the mean MoRF drop
    minus the mean LeRF drop of :func:`region_perturbation`, with the
    trapezoid's weights.

    Parameters
    ----------
    {model_inputs}
    {groups}
    image_shape : tuple of int (height, width), default=None
        With ``patch_size``, the rows are images of this shape and the
        regions are patches (as in :func:`region_perturbation`); with
        ``baseline="blur"``, the shape of the blurred images (``None``:
        square).
    patch_size : int, default=None
        Side of the square patches (with ``image_shape``); ``None``: one
        feature (or group) per region.
    features_per_step : int, default=1
        Regions removed per step.
    {baseline}
    {blur_sigma}
    {curve_masker}
    {X_train}
    {random_state}
    {output_params}

    {returns_scores_greater}

    See Also
    --------
    region_perturbation : The MoRF or LeRF curve alone (AOPC).
    deletion_auc : The MoRF area alone.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import abpc
    >>> rng = np.random.default_rng(0)
    >>> X = np.abs(rng.normal(size=(50, 6)))
    >>> model = LinearRegression().fit(X, X @ [6.0, 5, 4, 3, 2, 1])
    >>> exact = model.coef_ * X
    >>> bool(abpc(model, X, exact).mean() > 0 > abpc(model, X, -exact).mean())
    True
    """
    if patch_size is not None and image_shape is None:
        raise ValueError("patch_size needs image_shape=(height, width).")
    masker = _baseline_masker(baseline, blur_sigma, masker, image_shape)
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    units = _units(X, groups=groups, image_shape=image_shape, patch_size=patch_size)
    rngs = _masker_streams(masker, X, random_state)
    kw = dict(mode="remove", per_step=features_per_step, rngs=rngs,
              batch_size=batch_size)
    _, morf, fractions, _ = _curves(f, masker, X, A, units, order="positive", **kw)
    _, lerf, _, _ = _curves(f, masker, X, A, units, order="negative", **kw)
    return _area(lerf - morf, fractions)


# ======================================================================
# Registry
# ======================================================================
_REQUIRES = ("masker", "training_rows", "random_state")

_REGION_REQUIRES = (*_REQUIRES, "image_shape")


register_metric(
    "neg_pixel_flipping", pixel_flipping, kind="model", greater_is_better=False,
    requires=_REQUIRES, source="Quantus",
    description="Area under the output curve as the most relevant features are "
                "removed first.",
)

register_metric(
    "region_perturbation", region_perturbation, kind="model", greater_is_better=True,
    requires=_REGION_REQUIRES, source="Quantus",
    description="AOPC: mean output drop as regions are removed most relevant first.",
    default_kwargs={"order": "morf"},
)

register_metric(
    "neg_region_perturbation_lerf", region_perturbation, kind="model",
    greater_is_better=False, requires=_REGION_REQUIRES, source="Quantus",
    description="AOPC as regions are removed least relevant first.",
    default_kwargs={"order": "lerf"},
)

register_metric(
    "neg_selectivity", selectivity, kind="model", greater_is_better=False,
    requires=_REGION_REQUIRES, source="Quantus",
    description="Area under the output curve as regions are removed most relevant "
                "first.",
)

register_metric(
    "irof", irof, kind="model", greater_is_better=True, requires=_REGION_REQUIRES,
    source="Quantus",
    description="Area over the normalised output curve as segments are removed "
                "by mean attribution.",
)


register_metric(
    "insertion_auc", insertion_auc, kind="model", greater_is_better=True,
    requires=_REGION_REQUIRES, source="Petsiuk et al. 2018, LATEC",
    description="Area under the output curve as the most relevant pixels are "
                "inserted into a blurred copy of the image.",
)

register_metric(
    "neg_deletion_auc", deletion_auc, kind="model", greater_is_better=False,
    requires=_REGION_REQUIRES, source="Petsiuk et al. 2018, LATEC",
    description="Area under the output curve as the most relevant pixels are "
                "deleted first.",
)

register_metric(
    "abpc", abpc, kind="model", greater_is_better=True, requires=_REGION_REQUIRES,
    source="Schulz et al. 2020",
    description="Area between the least- and most-relevant-first deletion curves.",
)


for _name, _mode, _order, _greater, _what in [
    ("keep_positive", "keep", "positive", True,
     "Area under the output curve keeping the most positive features."),
    ("neg_keep_negative", "keep", "negative", False,
     "Area under the output curve keeping the most negative features."),
    ("neg_keep_absolute", "keep", "absolute", False,
     "Area under the output deviation keeping the largest-magnitude features."),
    ("neg_remove_positive", "remove", "positive", False,
     "Area under the output curve removing the most positive features."),
    ("remove_negative", "remove", "negative", True,
     "Area under the output curve removing the most negative features."),
    ("remove_absolute", "remove", "absolute", True,
     "Area under the output deviation removing the largest-magnitude features."),
]:
    register_metric(_name, removal_auc, kind="model", greater_is_better=_greater,
                    requires=_REQUIRES, source="shap.benchmark", description=_what,
                    default_kwargs={"mode": _mode, "order": _order})


# ======================================================================
# Removal and insertion without a reference (ERASER, BEExAI)
# ======================================================================
def _insertion_keep(A, order_by):
    """Keep masks (n, d + 1, d): step ``t`` keeps the top-``t`` features."""
    rank = positions(magnitude_order(A, order_by=order_by))
    return rank[:, None, :] < np.arange(A.shape[1] + 1)[None, :, None]


def _removal_scores(estimator, X, attributions, *, ratio, masker, order_by, rounding,
                    absolute, target, output, batch_size, keep_top, X_train=None):
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    ratios = np.atleast_1d(np.asarray(ratio, dtype=object)).tolist()
    keep = top_k_coalitions(A, ratios, order_by=order_by, rounding=rounding,
                            keep_top=keep_top)
    fx, values = _with_x(f, masker, X, keep, batch_size, None)
    diff = fx[:, None] - values
    if absolute is None:
        absolute = f.output == "predict"
    if absolute:
        diff = np.abs(diff)
    return diff.mean(axis=1)


_REMOVAL_DOCS = dict(
    removal_masker=_DOC_REMOVAL_MASKER,
    order_by=_DOC_ORDER_BY,
    ratio="""
ratio : float or list of float, default=0.3
    Fraction of features in the top set; ``k = floor(ratio * d)`` (at
    least 1) as BEExAI.  A list averages the scores over the ratios
    (ERASER's AOPC uses 0.01, 0.05, 0.1, 0.2, 0.5).""",
    rounding="""
rounding : {"floor", "ceil"}, default="floor"
    How ``ratio * d`` is rounded to the size of the top set.""",
    removal_absolute="""
absolute : bool or None, default=None
    Take the absolute value of the output change; ``None`` does so for
    regression outputs only (BEExAI).""",
)

_REMOVAL_SHARED = ("X_train",)


@fast_validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_REMOVAL_SHARED, **_REMOVAL_DOCS,
              metric_references=_references("deyoung2020", "sithakoul2024"),
              **_shared_docs("model_inputs", "output_params", "returns_greater"))
def comprehensiveness(estimator, X, attributions, *, ratio=0.3, masker=None,
                      X_train=None, order_by="abs", rounding="floor", absolute=None,
                      target="predicted", output="auto", batch_size=None):
    """Comprehensiveness: output drop when the top features are removed.

    ``C(x) = f(x) - f(x_{T̄} ⊕ b_T)`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.  Quantus'
    ``Sufficiency`` is another quantity (Dasgupta et al. 2022: whether rows
    with close explanations get the same prediction):
    :func:`dasgupta_sufficiency`.

    Parameters
    ----------
    {model_inputs}
    {ratio}
    {removal_masker}
    {X_train}
    {order_by}
    {rounding}
    {removal_absolute}
    {output_params}

    {returns_greater}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import comprehensiveness
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> comprehensiveness(model, X[:1], [[3.0, 2.0, 1.0]], ratio=0.34).round(6)
    array([3.])
    """
    return _removal_scores(estimator, X, attributions, ratio=ratio, masker=masker,
                           order_by=order_by, rounding=rounding, absolute=absolute,
                           target=target, output=output, batch_size=batch_size,
                           keep_top=False, X_train=X_train)


@fast_validate_params(_COMMON_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_REMOVAL_SHARED, **_REMOVAL_DOCS,
              metric_references=_references("deyoung2020", "sithakoul2024"),
              **_shared_docs("model_inputs", "output_params", "returns_lower"))
def sufficiency(estimator, X, attributions, *, ratio=0.3, masker=None,
                X_train=None, order_by="abs", rounding="floor", absolute=None,
                target="predicted", output="auto", batch_size=None):
    """Sufficiency: output drop when only the top features are kept.

    ``S(x) = f(x) - f(x_T ⊕ b_{T̄})`` with ``T`` the top-k features of the
    explanation (ERASER; BEExAI).  One model row per ratio and instance.
    See :ref:`def-comprehensiveness` in the user guide.  Quantus'
    ``Sufficiency`` is another quantity (Dasgupta et al. 2022: whether rows
    with close explanations get the same prediction):
    :func:`dasgupta_sufficiency`.

    Parameters
    ----------
    {model_inputs}
    {ratio}
    {removal_masker}
    {X_train}
    {order_by}
    {rounding}
    {removal_absolute}
    {output_params}

    {returns_lower}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import sufficiency
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> sufficiency(model, X[:1], [[3.0, 2.0, 1.0]], ratio=0.34).round(6)
    array([3.])
    """
    return _removal_scores(estimator, X, attributions, ratio=ratio, masker=masker,
                           order_by=order_by, rounding=rounding, absolute=absolute,
                           target=target, output=output, batch_size=batch_size,
                           keep_top=True, X_train=X_train)


register_metric(
    "comprehensiveness", comprehensiveness, kind="model", greater_is_better=True,
    requires=("masker", "training_rows"), source="BEExAI",
    description="Output drop when the top features are removed.",
)

register_metric(
    "neg_sufficiency", sufficiency, kind="model", greater_is_better=False,
    requires=("masker", "training_rows"), source="BEExAI",
    description="Output drop when only the top features are kept.",
)


# ======================================================================
# AOPC over token fractions (ERASER, ferret): rows of padded token ids
# ======================================================================
#: ERASER's AOPC bins (fractions of the tokens removed or kept).
ERASER_BINS = (0.01, 0.05, 0.1, 0.2, 0.5)

_AOPC_PARAMS = {
    **{k: _COMMON_PARAMS[k] for k in ("estimator", "X", "attributions", "masker",
                                      "X_train", "target", "output", "batch_size")},
    "ratios": ["array-like", None],
    "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
    "order_by": [StrOptions({"abs", "signed"})],
    "only_positive": ["boolean"],
    "nan_policy": [StrOptions({"omit", "zero", "raise"})],
}


def _token_steps(A, real, ratios, order_by, only_positive):
    """Rank of every position in the explanation's order (PAD last), the
    top-set sizes of each row and which of them count.

    ``ratios=None``: ``k = 1..n_i`` (``n_i`` the row's tokens, ferret's
    ``based_on="k"``).  Otherwise ``k = int(p n_i)`` for each ``p`` in
    order, skipping ``k = 0`` (ferret's ``based_on="perc"``).  With
    ``only_positive`` the top set holds only the positive attributions among
    the top ``k``, ``min(k, n_i^+)`` tokens, and is skipped when empty.  A
    set equal to the last one counted is skipped, as ferret does.
    """
    n, L = A.shape
    key = np.where(real, A if order_by == "signed" else np.abs(A), -np.inf)
    rank = positions(np.argsort(-key, axis=1, kind="stable"))
    lengths = real.sum(axis=1)
    if ratios is None:
        steps = np.broadcast_to(np.arange(1, L + 1), (n, L))
        valid = steps <= lengths[:, None]
    else:
        ratios = np.asarray(ratios, dtype=np.float64).ravel()
        if ratios.size == 0 or np.any((ratios <= 0) | (ratios > 1)):
            raise ValueError(
                "ratios must be fractions in (0, 1], e.g. ERASER's "
                f"{list(ERASER_BINS)}; got {ratios.tolist()}."
            )
        # int() truncation, as ferret
        steps = (ratios[None, :] * lengths[:, None]).astype(np.int64)
        valid = steps > 0
    if only_positive:
        steps = np.minimum(steps, ((A > 0) & real).sum(axis=1)[:, None])
        valid = valid & (steps > 0)  # an empty top set is skipped
    last = np.full(n, -1)
    for m in range(steps.shape[1]):
        valid[:, m] &= steps[:, m] != last
        last = np.where(valid[:, m], steps[:, m], last)
    return rank, np.where(valid, steps, 0), valid


def _aopc(estimator, X, attributions, *, ratios, masker, X_train, pad_id, order_by,
          only_positive, target, output, batch_size, nan_policy, keep_top, name):
    if only_positive and order_by != "signed":
        raise ValueError(
            "only_positive=True keeps the positive attributions among the top "
            "tokens of the signed order; use order_by='signed' with it."
        )
    if masker is None:
        masker = TokenMasker("pad", pad_id=pad_id)
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    real = X != pad_id
    rank, steps, valid = _token_steps(A, real, ratios, order_by, only_positive)
    top = rank[:, None, :] < steps[:, :, None]
    keep = (top | ~real[:, None, :]) if keep_top else ~top
    fx, values = _with_x(f, masker, X, keep, batch_size, None)
    count = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(valid, fx[:, None] - values, 0.0).sum(axis=1) / count
    return handle_undefined(scores, count == 0, nan_policy, name,
                            "a text too short for any top set")


_AOPC_DOCS = dict(
    aopc_params="""
ratios : array-like of float or None, default=None
    ``None``: the top-``k`` sets for ``k = 1, ..., n_i``, every size up to
    the row's ``n_i`` tokens (ferret's default).  Fractions ``p`` give
    ``k = int(p n_i)`` (truncated), skipping ``k = 0`` and repeated sizes
    (ferret's ``based_on="perc"``); ERASER's bins are
    :data:`ERASER_BINS`, ``(0.01, 0.05, 0.1, 0.2, 0.5)``.
masker : masker, default=None
    What a removed token becomes; ``None`` is ``TokenMasker("pad")``, which
    deletes it (ferret's ``remove_tokens=True``); ``TokenMasker("mask")``
    replaces it by ``[MASK]``.  A fitted masker is used as is, an unfitted
    one is fitted on ``X_train``.
X_train : array-like of shape (n_train, n_features), default=None
    Training rows for an unfitted masker that learns from data.
pad_id : int, default=0
    Positions holding this id are padding: not tokens, never ranked or
    removed.
order_by : {"signed", "abs"}, default="signed"
    Rank the tokens by their attribution (ferret, ERASER: the tokens that
    support the target class first) or by its magnitude.  Ties go to the
    lower position.
only_positive : bool, default=False
    Keep only the positive attributions in each top set (``min(k, n_i^+)``
    tokens; ferret's ``only_pos``, which its current release turns on by
    default); an empty top set is skipped.  A top set equal to the last one
    counted is skipped.
nan_policy : {"omit", "zero", "raise"}, default="omit"
    A row with no top set (no token, or ``int(p n_i) = 0`` for every ``p``).""",
)


@fast_validate_params(_AOPC_PARAMS, prefer_skip_nested_validation=True)
@Substitution(**_AOPC_DOCS,
              metric_references=_references("deyoung2020", "attanasio2023"),
              **_shared_docs("model_inputs", "output_params", "returns_greater"))
def aopc_comprehensiveness(estimator, X, attributions, *, ratios=None, masker=None,
                           X_train=None, pad_id=0, order_by="signed",
                           only_positive=False,
                           target="predicted", output="auto", batch_size=None,
                           nan_policy="omit"):
    """AOPC comprehensiveness over token fractions (ERASER, ferret).

    For a row of token ids ``x`` with ``n`` tokens (its non-PAD positions)
    and the top-``k`` tokens ``T_k`` of the explanation:
    ``AOPC_comp(x) = mean_k (f(x) - f(x without T_k))`` over the sizes
    ``k`` of ``ratios``.  ferret's ``AOPC_Comprehensiveness_Evaluation``
    (text ids rather than strings; its ``remove_first_last`` special tokens
    do not exist here).  See :ref:`text` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {aopc_params}
    {output_params}

    {returns_greater}

    See Also
    --------
    aopc_sufficiency, comprehensiveness

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import aopc_comprehensiveness
    >>> X = np.random.default_rng(0).integers(3, 9, size=(20, 3)).astype(float)
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> x = np.array([[4.0, 5.0, 0.0]])  # two tokens, then PAD
    >>> # k = 1 removes token 1 (2 * 5), k = 2 both (+ 1 * 4): mean (10 + 14) / 2
    >>> aopc_comprehensiveness(model, x, [[1.0, 2.0, 0.0]]).round(6)
    array([12.])
    """
    return _aopc(estimator, X, attributions, ratios=ratios, masker=masker,
                 X_train=X_train, pad_id=pad_id, order_by=order_by,
                 only_positive=only_positive, target=target, output=output,
                 batch_size=batch_size, nan_policy=nan_policy, keep_top=False,
                 name="aopc_comprehensiveness")


@fast_validate_params(_AOPC_PARAMS, prefer_skip_nested_validation=True)
@Substitution(**_AOPC_DOCS,
              metric_references=_references("deyoung2020", "attanasio2023"),
              **_shared_docs("model_inputs", "output_params", "returns_lower"))
def aopc_sufficiency(estimator, X, attributions, *, ratios=None, masker=None,
                     X_train=None, pad_id=0, order_by="signed", only_positive=False,
                     target="predicted", output="auto", batch_size=None,
                     nan_policy="omit"):
    """AOPC sufficiency over token fractions (ERASER, ferret).

    ``AOPC_suff(x) = mean_k (f(x) - f(x restricted to T_k))``: every token
    outside the top-``k`` set ``T_k`` is removed, for the sizes ``k`` of
    ``ratios``.  ferret's ``AOPC_Sufficiency_Evaluation``; ferret writes
    the kept tokens in the order of their scores, here they keep their
    positions (the same for a bag-of-words model).  See :ref:`text` in the
    user guide.

    Parameters
    ----------
    {model_inputs}
    {aopc_params}
    {output_params}

    {returns_lower}

    See Also
    --------
    aopc_comprehensiveness, sufficiency

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import aopc_sufficiency
    >>> X = np.random.default_rng(0).integers(3, 9, size=(20, 3)).astype(float)
    >>> model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    >>> x = np.array([[4.0, 5.0, 0.0]])
    >>> # k = 1 keeps token 1 only (drop 1 * 4), k = 2 keeps both (0)
    >>> aopc_sufficiency(model, x, [[1.0, 2.0, 0.0]]).round(6)
    array([2.])
    """
    return _aopc(estimator, X, attributions, ratios=ratios, masker=masker,
                 X_train=X_train, pad_id=pad_id, order_by=order_by,
                 only_positive=only_positive, target=target, output=output,
                 batch_size=batch_size, nan_policy=nan_policy, keep_top=True,
                 name="aopc_sufficiency")


register_metric(
    "aopc_comprehensiveness", aopc_comprehensiveness, kind="model",
    greater_is_better=True, requires=("masker", "training_rows"), source="ERASER",
    description="Mean output drop as the top tokens are removed (AOPC).",
)

register_metric(
    "neg_aopc_sufficiency", aopc_sufficiency, kind="model", greater_is_better=False,
    requires=("masker", "training_rows"), source="ERASER",
    description="Mean output drop when only the top tokens are kept (AOPC).",
)


def _performance_curve(f, masker, X, A, order_by, batch_size, metric, rngs):
    """P_t, t = 0..d-1, of predictions with the top-t features removed."""
    n, d = X.shape
    keep = ~_insertion_keep(A, order_by)[:, :d]  # remove top-t, t = 0..d-1
    original, removed_out = _with_x(f, masker, X, keep, batch_size, rngs, raw=True)
    if f.output == "predict":
        mse = ((removed_out - original[:, None]) ** 2).mean(axis=0)
        if metric == "mse":
            return mse
        var = original.var()
        if not var > 0:
            raise ValueError(
                "auc_tp for a regressor needs at least two rows with different "
                "predictions (it divides by the variance of f(X))."
            )
        return np.clip(1.0 - mse / var, 0.0, 1.0)
    same = removed_out.argmax(axis=2) == original.argmax(axis=1)[:, None]
    acc = same.mean(axis=0)
    return 1.0 - acc if metric == "flip_rate" else acc


def _beexai_regression_curve(mse):
    """BEExAI's regression curve of AUC-TP from ``MSE_t``, ``t = 0..d-1``.

    ``c = MSE + 0.01 mean(MSE)``; the slope indicator ``I_t`` is 1 for an
    interior point (``1 <= t <= d-2``) where the curve rises across it,
    ``c_{t+1} > c_{t-1}`` (BEExAI's central difference over the ratios
    ``r_t = 1 - 1/t``, which increase, so only the sign of the MSE
    difference counts), and 0 at both end points; ``g = I / c``, min-max
    normalised with BEExAI's ``1e-8`` added to the range.
    """
    c = mse + 0.01 * mse.mean()
    rises = np.zeros(c.shape, dtype=bool)
    rises[1:-1] = c[2:] > c[:-2]
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(rises, 1.0 / c, 0.0)
    return (g - g.min()) / (g.max() - g.min() + 1e-8)


@fast_validate_params(
    {
        **{k: v for k, v in _MODEL_PARAMS.items() if k != "absolute"},
        **_CONVENTION_BEEXAI,
        "metric": [StrOptions({"accuracy", "flip_rate"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "attributions", "X_train", "output", "batch_size",
              removal_masker=_DOC_REMOVAL_MASKER,
              metric_references=_references("atanasova2020", "sithakoul2024"))
def auc_tp(estimator, X, attributions, *, masker=None, X_train=None, order_by="abs",
           metric="accuracy", convention="paper", random_state=None,
           target="predicted", output="auto", batch_size=None):
    """Area under the threshold-performance curve (Atanasova et al. 2020;
    BEExAI).  Dataset-level; see :ref:`def-auc-tp` in the user guide.

    For ``t = 0..d-1`` the top-``t`` features of every row (by its own
    attributions) are removed with the masker; ``P_t`` compares the ablated
    predictions with the original ones and
    ``AUC-TP = trapz(P_0, ..., P_{d-1}) / d``.

    * Classifiers: ``P_t`` is the accuracy of the ablated predicted labels
      against the original predicted labels (``metric="accuracy"``, lower is
      better: a faithful ranking makes it collapse early), or the flip rate
      ``1 - accuracy`` (``metric="flip_rate"``, greater is better; for two
      classes this is BEExAI's library default, the MSE between label
      vectors).
    * Regressors: ``P_t = clip(1 - MSE_t / Var(f(X)), 0, 1)`` (1 = nothing
      changed; lower is better).  ``convention="beexai_code"`` follows
      BEExAI's code (``auc_tp.py``): ``c_t = MSE_t + 0.01 mean(MSE)``, a
      slope indicator ``I_t`` = 1 where the curve rises across an interior
      point (``c_{t+1} > c_{t-1}``, ``1 <= t <= d-2``) and 0 at both end
      points, ``P_t = I_t / c_t``, min–max normalised (``1e-8`` added to
      the range), ``trapz / d``.

    With a multi-draw masker (marginal, conditional) the ablated output is
    the mean over draws (of the probability vector for classifiers).

    Parameters
    ----------
    {estimator}
    X : array-like of shape (n_samples, n_features)
        The explained rows (the score depends on all of them).
    {attributions}
    {removal_masker}
    {X_train}
    order_by : {"abs", "signed"}, default="abs"
        Rank features by magnitude or by signed value.
    metric : {"accuracy", "flip_rate"}, default="accuracy"
        Performance of a classifier's ablated predictions (ignored for
        regressors).
    convention : {"paper", "beexai_code"}, default="paper"
        Regression curve, see above (ignored for classifiers).
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    target : "predicted", int or label, default="predicted"
        Explained class (only used by the masker's value function).
    {output}
    {batch_size}

    Returns
    -------
    score : float
        Lower is better, except with ``metric="flip_rate"``.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.metrics import auc_tp
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> clf = LogisticRegression().fit(X, (X @ [4.0, 1.0, 0.5, 0.1]) > 0)
    >>> exact = clf.coef_[0] * X
    >>> bool(auc_tp(clf, X, exact) < auc_tp(clf, X, exact[:, ::-1]))
    True
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    d = X.shape[1]
    regression = f.output == "predict"
    rngs = _masker_streams(masker, X, random_state)
    if regression and convention == "beexai_code":
        P = _beexai_regression_curve(
            _performance_curve(f, masker, X, A, order_by, batch_size, "mse", rngs))
    else:
        P = _performance_curve(f, masker, X, A, order_by, batch_size,
                               "accuracy" if regression else metric, rngs)
    return float(np.trapezoid(P) / d) if d > 1 else float(P[0])


@fast_validate_params(
    {
        **_MODEL_PARAMS,
        **_CONVENTION_BEEXAI,
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("estimator", "attributions", "X_train", order_by=_DOC_ORDER_BY,
              metric_references=_references("sithakoul2024"),
              **_shared_docs("output_params"))
def monotonicity(estimator, X, attributions, *, masker=None, X_train=None,
                 order_by="abs", convention="paper", absolute=None, random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Insertion monotonicity (BEExAI); see :ref:`def-monotonicity` in the
    user guide.

    Features are inserted into the baseline in the explanation's order:
    ``g_t = v_x(K_t)`` with ``K_t`` the top-``t`` features, ``t = 0..d``
    (``g_0 = f(b)``, ``g_d = f(x)``), gains ``gamma_t = g_{t+1} - g_t``.  The
    score is the fraction of consecutive gains that do not increase,
    ``1/(d-1) sum_{t=0}^{d-2} 1[gamma_t >= gamma_{t+1}]``: diminishing
    returns when the most important features come first.

    Not to be confused with XAI-Bench's mono± (:func:`mono_minus`), Arya et
    al.'s or Nguyen & Martínez's monotonicity.  Unlike Quantus'
    ``Monotonicity``, the original feature values are inserted, so arbitrary
    attributions do not score 1.

    Parameters
    ----------
    {estimator}
    X : array-like of shape (n_samples, n_features)
        The explained rows (at least two features).
    {attributions}
    masker : masker, default=None
        The baseline the features are inserted into; ``None`` is
        ``BaselineMasker("zero")`` (BEExAI).  Any masker works; a fitted one
        is used as is, an unfitted one is fitted on ``X_train``.
    {X_train}
    {order_by}
    convention : {"paper", "beexai_code"}, default="paper"
        ``"paper"``: one score per row (above).  ``"beexai_code"``: BEExAI's
        code, one float: the curve ``c_0 = f(b)``, ``c_t = f(x) - v_x(K_t)``
        for ``t >= 1`` (absolute value for regression), averaged over rows
        before differencing, then the fraction of ``t`` with
        ``Δc_t <= Δc_{t+1}``.
    absolute : bool or None, default=None
        Only for ``convention="beexai_code"``: absolute differences;
        ``None`` does so for regression outputs.
    random_state : int, RandomState instance or None, default=None
        Seeds stochastic maskers (one stream per row).
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,) or float
        Fractions in [0, 1] (multiples of ``1/(d-1)``); a float for
        ``convention="beexai_code"``.  Greater is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.metrics import monotonicity
    >>> X = np.array([[1.0, 1, 1], [2, 1, 0], [0, 0, 1], [1, 3, 2], [0, 2, 5]])
    >>> model = LinearRegression().fit(X, X @ [3.0, 2.0, 1.0])
    >>> monotonicity(model, X[:1], [[3.0, 2.0, 1.0]]).round(6)  # gains 3, 2, 1
    array([1.])
    >>> monotonicity(model, X[:1], [[1.0, 2.0, 3.0]]).round(6)  # gains 1, 2, 3
    array([0.])
    """
    X, A, f, masker = _prepare(estimator, X, attributions, masker, target, output,
                               batch_size, X_train)
    n, d = X.shape
    if d < 2:
        raise ValueError("monotonicity needs at least two features.")
    keep = _insertion_keep(A, order_by)
    rngs = _masker_streams(masker, X, random_state)
    _, g = _with_x(f, masker, X, keep, batch_size, rngs)
    if convention == "paper":
        gains = np.diff(g, axis=1)
        return (gains[:, :-1] >= gains[:, 1:]).mean(axis=1)
    if absolute is None:
        absolute = f.output == "predict"
    curve = g[:, -1:] - g
    if absolute:
        curve = np.abs(curve)
    curve[:, 0] = g[:, 0]
    delta = np.diff(curve.mean(axis=0))
    return float((delta[:-1] <= delta[1:]).mean())


register_metric(
    "neg_auc_tp", auc_tp, kind="model", greater_is_better=False, per_instance=False,
    requires=("masker", "training_rows", "random_state"), source="BEExAI",
    description="Area under the accuracy curve as top features are removed.",
)

register_metric(
    "monotonicity", monotonicity, kind="model", greater_is_better=True,
    requires=("masker", "training_rows", "random_state"), source="BEExAI",
    description="Fraction of non-increasing gains along the insertion curve.",
)


# ======================================================================
# XAI-Bench's mono±: is the path of a value function monotone?
# ======================================================================
def _mono(estimator, X, attributions, *, ascending, distribution, masker, value,
          n_draws, empty_value, avg, convention, random_state, target, output,
          batch_size, X_train=None):
    X, A, f = _value_inputs(estimator, X, attributions, target, output, batch_size)
    n, d = X.shape
    if d < 2:
        raise ValueError("Monotonicity needs at least 2 features.")
    vm = _xai_bench_value_masker(X, distribution, masker, value, n_draws,
                                 random_state, X_train, convention)
    pos = positions(_importance_order(A, ascending, convention))
    # Coalition t (t = 1..d-1) keeps the first t features of the order.
    keep = pos[:, None, :] < np.arange(1, d)[None, :, None]
    with_empty = empty_value == "expected"
    if with_empty:
        keep = np.concatenate([np.zeros((n, 1, d), dtype=bool), keep], axis=1)
    fx, V = _values_with_x(f, X, keep, vm, random_state, batch_size)
    v0 = V[:, 0] if with_empty else np.full(n, fx.mean())
    v = np.column_stack([v0, V[:, -(d - 1):], fx])
    if convention == "xai_bench_code":
        # XAI-Bench stores the value after adding feature j at position j + 1.
        v = np.column_stack([v[:, 0], np.take_along_axis(v[:, 1:], pos, axis=1)])
    return _monotone_fraction(v, ascending, avg)


_MONO_PARAMS = {**_VALUE_PARAMS, **_EMPTY_VALUE, **_CONVENTION_XAI_BENCH,
                "avg": ["boolean"]}

_MONO_DOCS = dict(
    _VALUE_DOCS,
    avg="""
avg : bool, default=True
    Fraction of the ``d - 1`` consecutive steps that satisfy the
    condition; ``False`` gives 1 only when all of them do.""",
    mono_convention="""
convention : {"paper", "xai_bench_code"}, default="paper"
    ``"xai_bench_code"`` reproduces XAI-Bench's code, which stores the
    value after adding feature ``j`` at position ``j + 1`` of the curve
    (so the test runs in feature-index order) and estimates every value
    with ``distribution`` from its own conditional sample of ``n_draws``
    rows (``ConditionalMasker(draws="per_coalition")``; the default
    shares one block of draws between a row's coalitions); only for
    reproducing its tables (:ref:`def-switches-xaibench`).""",
)


@fast_validate_params(_MONO_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, **_MONO_DOCS, metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params"))
def mono_minus(estimator, X, attributions, *, distribution=None, masker=None,
               X_train=None, value="observational", n_draws=100,
               empty_value="expected", avg=True, convention="paper",
               random_state=None, target="predicted", output="auto", batch_size=None):
    """Monotonicity, least important first (XAI-Bench mono−).

    Features are added in *ascending* order of ``|a|``; with ``v_t`` the
    value after ``t`` features (``v_0 = v_x(∅)``, ``v_d = f(x)``) and
    ``δ_t = v_{t+1} - v_t``, the score is the fraction of steps with
    ``|δ_t| <= |δ_{t+1}|``: a faithful ranking makes each added feature
    matter more than the previous one.  Costs ``d * n_draws`` model rows
    per row.  See :ref:`def-mono` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {value}
    {n_draws}
    {empty_value}
    {avg}
    {mono_convention}
    {random_state}
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row fraction in ``[0, 1]`` (about 0.5 for a random ranking);
        greater is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import mono_minus
    >>> dist = MultivariateGaussian.equicorrelated(4, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [4.0, -3.0, 2.0, 1.0])
    >>> shap = model.coef_ * (X[:3] - dist.mean)
    >>> mono_minus(model, X[:3], shap, distribution=dist)
    array([1., 1., 1.])
    """
    return _mono(estimator, X, attributions, ascending=True, distribution=distribution,
                 masker=masker, value=value, n_draws=n_draws,
                 empty_value=empty_value, avg=avg, convention=convention,
                 random_state=random_state, target=target, output=output,
                 batch_size=batch_size, X_train=X_train)


@fast_validate_params(_MONO_PARAMS, prefer_skip_nested_validation=True)
@Substitution(*_VALUE_SHARED, **_MONO_DOCS, metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params",
                             "returns_fraction"))
def mono_plus(estimator, X, attributions, *, distribution=None, masker=None,
              X_train=None, value="observational", n_draws=100,
              empty_value="expected", avg=True, convention="paper",
              random_state=None, target="predicted", output="auto", batch_size=None):
    """Monotonicity, most important first (XAI-Bench mono+).

    Features are added in *descending* order of ``|a|``; the score is the
    fraction of steps with ``|δ_t| >= |δ_{t+1}|`` (diminishing returns).
    Both XAI-Bench texts print "<=" here, which would reward a reversed
    ranking; its code, and this function, use ">=".  Costs
    ``d * n_draws`` model rows per row.  See :ref:`def-mono` in the user
    guide.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {value}
    {n_draws}
    {empty_value}
    {avg}
    {mono_convention}
    {random_state}
    {output_params}

    {returns_fraction}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import mono_plus
    >>> dist = MultivariateGaussian.equicorrelated(4, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [4.0, -3.0, 2.0, 1.0])
    >>> shap = model.coef_ * (X[:3] - dist.mean)
    >>> mono_plus(model, X[:3], shap, distribution=dist)
    array([1., 1., 1.])
    """
    return _mono(estimator, X, attributions, ascending=False, distribution=distribution,
                 masker=masker, value=value, n_draws=n_draws,
                 empty_value=empty_value, avg=avg, convention=convention,
                 random_state=random_state, target=target, output=output,
                 batch_size=batch_size, X_train=X_train)


for _name, _func, _desc in [
    ("mono_minus", mono_minus,
     "Fraction of steps where adding features in ascending |a| matters more."),
    ("mono_plus", mono_plus,
     "Fraction of steps where adding features in descending |a| matters less."),
]:
    register_metric(_name, _func, kind="model", greater_is_better=True,
                    requires=_NEEDS_VALUE, source="XAI-Bench", description=_desc)


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
@Substitution(*_SHARED, metric_references=_references("rong2022"),
              **_shared_docs("model_inputs", "output_params"))
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
    {model_inputs}
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
    {output_params}

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

    {metric_references}

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
                         _masker_streams(masker, X, random_state))
    return (fx[:, None] - values).mean(axis=1)


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
