"""Randomisation sanity checks: model parameter randomisation (cascading and
independent, smooth and efficient variants), random logit and data
randomisation (definitions in the user guide, :ref:`def-randomisation-metrics`).

An explanation that does not change when the model's parameters, the
explained class or the training labels are randomised does not explain the
model (Adebayo et al. 2018).  Every check re-explains the scored rows for
another model, with a fresh clone of the explainer fitted to it (see
``X_train``), or for another class: each randomised model is built once per
call, from ``random_state`` alone, and all rows are explained in one
``explain`` call per model.
"""

import numbers

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.metrics._common import (
    _BASE_PARAMS,
    _NAN_POLICY,
    _check_inputs,
    _explained_at,
    _explainer_on,
    _refit,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import (
    RowStreams,
    purpose_generator,
    row_keys,
    seed_entropy,
)
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    fast_validate_params,
)
from sklearn_xai.utils._stats import handle_undefined, row_pearson, row_spearman

__all__ = [
    "data_randomisation",
    "efficient_mprt",
    "mprt",
    "random_logit",
    "smooth_mprt",
]


# ----------------------------------------------------------------- helpers
def _explained_labels(estimator, X, target, output, batch_size):
    """The class labels explained at ``X`` by the original model (None for a
    single-output model)."""
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    t, _ = _explained_at(f, X)
    if t is None:
        return f, None, None
    return f, t, np.asarray(f.estimator.classes_)[t]


def _explain(explainer, X, labels, keys):
    return np.asarray(explainer.explain(X, target=labels, row_keys=keys),
                      dtype=np.float64)


def _ssim(A, B, image_shape):
    from skimage.metrics import structural_similarity

    shape = tuple(image_shape)
    spatial = shape[-2:]
    win = min(7, *spatial)
    win -= 1 - win % 2
    if win < 3:
        raise ValueError(
            f"similarity='ssim' needs images at least 3 x 3; image_shape={shape}. "
            "Use similarity='spearman' or 'pearson' for tabular rows."
        )
    channel_axis = 0 if len(shape) == 3 else None
    out = np.empty(len(A))
    for i, (a, b) in enumerate(zip(A, B, strict=True)):
        lo, hi = min(a.min(), b.min()), max(a.max(), b.max())
        if hi == lo:
            out[i] = np.nan
            continue
        out[i] = structural_similarity(a.reshape(shape), b.reshape(shape), win_size=win,
                                       data_range=hi - lo, channel_axis=channel_axis)
    return out


def _similarity(A, B, similarity, absolute, image_shape):
    """Row-wise similarity of two explanation matrices (NaN where undefined)."""
    if absolute:
        A, B = np.abs(A), np.abs(B)
    if similarity == "ssim":
        if image_shape is None:
            raise ValueError("similarity='ssim' compares images: pass image_shape=(h, w) "
                             "or (c, h, w).")
        if int(np.prod(image_shape)) != A.shape[1]:
            raise ValueError(f"image_shape={tuple(image_shape)} has "
                             f"{int(np.prod(image_shape))} pixels but the "
                             f"attributions have {A.shape[1]} columns.")
        return _ssim(A, B, image_shape)
    if similarity == "spearman":
        return row_spearman(A, B)
    return row_pearson(A, B)


def _check_explainer(explainer, name):
    if explainer is None or not hasattr(explainer, "explain"):
        raise TypeError(
            f"{name} re-explains the rows with randomised models: pass explainer="
            "<the fitted sklearn_xai explainer that produced the attributions>; got "
            f"{type(explainer).__name__}."
        )


def _check_layers(estimator, layers):
    from sklearn_xai.models import randomised_layers  # imports torch: not at import

    names = randomised_layers(estimator)
    if layers is None:
        return names
    layers = [layers] if isinstance(layers, str) else list(layers)
    unknown = [name for name in layers if name not in names]
    if unknown or not layers:
        raise ValueError(
            f"layers must name some of this model's layers {names} (output layer "
            f"first, see sklearn_xai.models.randomised_layers); got {layers}."
        )
    # Keep the model's order: cascading goes from the output layer down.
    return [name for name in names if name in layers]


def _randomised_models(estimator, layers, mode, seed):
    """``(name, model)`` per step: cascading randomises ``layers[:k+1]``,
    independent ``layers[k]`` only.

    A layer's new values depend only on the seed and its name, so the
    cascade randomises one copy of the model a layer further at each step
    (the same models as copying at every step, without the copies); each
    model is used before the next step modifies it.
    """
    from sklearn_xai.models import randomise_model  # imports torch: not at import

    model = None
    for name in layers:
        if mode == "cascading" and model is not None:
            model = randomise_model(model, [name], random_state=seed, copy=False)
        else:
            model = randomise_model(estimator, [name], random_state=seed, copy="shared")
        yield name, model


def _smooth_explanations(explainer, X, labels, keys, noise, n_perturbations):
    """Mean explanation over the noisy copies ``X + noise`` (n, m, d)."""
    n, d = X.shape
    Z = (X[:, None, :] + noise).reshape(n * n_perturbations, d)
    owner = np.repeat(np.arange(n), n_perturbations)
    A = _explain(explainer, Z, None if labels is None else labels[owner], keys[owner])
    return A.reshape(n, n_perturbations, d).mean(axis=1)


def _mprt_scores(layer_scores, aggregate):
    if aggregate == "last":
        return layer_scores[:, -1].copy()
    return layer_scores.mean(axis=1)  # NaN if any layer is undefined


_SIM_PARAMS = {
    "similarity": [StrOptions({"spearman", "pearson", "ssim"})],
    "absolute": ["boolean"],
    "image_shape": ["array-like", None],
}
_MPRT_PARAMS = {
    **_BASE_PARAMS,
    **_SIM_PARAMS,
    **_NAN_POLICY,
    "explainer": [HasMethods(["explain"])],
    "mode": [StrOptions({"cascading", "independent"})],
    "layers": [str, "array-like", None],
    "aggregate": [StrOptions({"mean", "last"})],
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "return_layers": ["boolean"],
    "random_state": ["random_state"],
}

_COMMON_DOC = """    explainer : fitted explainer
        The explainer that produced ``attributions`` (or an
        :class:`~sklearn_xai.compose.ExplainedModel`, whose explainer is
        used).  Each randomised model is explained by a fresh clone of it,
        ``clone(explainer).set_params(estimator=FrozenEstimator(model))``,
        fitted as described under ``X_train``, which re-explains all rows in
        one call per model, for the class explained by the original model.
    mode : {"cascading", "independent"}, default="cascading"
        ``"cascading"``: step ``k`` randomises the first ``k + 1`` layers
        (output layer first, Adebayo et al.'s main test); ``"independent"``:
        step ``k`` randomises layer ``k`` alone.
    layers : str, list of str or None, default=None
        The layers to randomise, among
        :func:`sklearn_xai.models.randomised_layers` (always taken output
        layer first); ``None`` takes them all (for a large ensemble, one
        step per tree: pass a few).
    similarity : {"spearman", "pearson", "ssim"}, default="spearman"
        Row-wise Spearman (average ranks) or Pearson correlation of the two
        explanations, or the structural similarity of the two maps
        (``image_shape`` needed; scikit-image's ``structural_similarity``
        with a window of 7 pixels, or the odd size that fits, and the joint
        range of the two maps as data range).
    absolute : bool, default=True
        Compare the magnitudes ``|a|`` (Adebayo et al. compare absolute
        maps as well as signed ones; Quantus' default).
    image_shape : tuple of int or None, default=None
        ``(h, w)`` or ``(c, h, w)`` of the flattened maps (SSIM only).
    X_train : array-like of shape (n_train, n_features) or None, default=None
        The rows the clone of the explainer is fitted on for each
        randomised model, so that what it learns from the model at fit (a
        surrogate, tree paths, LRP rules, PatternNet's patterns) is learnt
        from the randomised one.  ``None`` fits it on the rows and targets
        the explainer itself was fitted on (kept by every sklearn_xai
        explainer, so an :class:`~sklearn_xai.compose.ExplainedModel` scored
        in a search uses its fold's training rows); an explainer that does
        not keep them (outside this package) needs ``X_train``.  A
        model-ignorant explainer fitted without a model is used as is.
    y_train : array-like of shape (n_train,) or None, default=None
        Targets passed with ``X_train`` to the clone's ``fit`` (explainers
        whose fit needs them, e.g.
        :class:`~sklearn_xai.explainers.PermutationImportance`); ignored
        without ``X_train``.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows whose similarity is undefined (a constant explanation): NaN
        with a warning, 0, or an error.
    random_state : int, RandomState instance or None, default=None
        Seeds the randomised parameters (see
        :func:`sklearn_xai.models.randomise_model`): the same seed gives the
        same randomised models whichever rows are scored."""


def _mprt_core(estimator, X, attributions, *, explainer, mode, layers, similarity,
               absolute, image_shape, X_train, y_train, aggregate, nan_policy,
               return_layers, random_state, target, output, batch_size, smooth, name):
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer, name)
    seed = seed_entropy(random_state)
    layers = _check_layers(estimator, layers)
    _, _, labels = _explained_labels(estimator, X, target, output, batch_size)
    keys = row_keys(X)
    if smooth is not None:
        n_perturbations, noise_magnitude = smooth
        check_allocation(2 * X.shape[0] * n_perturbations * X.shape[1],
                         what=f"the noisy copies of {X.shape[0]} rows",
                         parameter="n_perturbations", value=n_perturbations)
        scale = noise_magnitude * (X.max(axis=1) - X.min(axis=1))
        noise = RowStreams(seed, keys).normal((n_perturbations, X.shape[1]))
        noise = noise * scale[:, None, None]

        def explain(ex):
            return _smooth_explanations(ex, X, labels, keys, noise, n_perturbations)

        A = explain(explainer)
    else:
        def explain(ex):
            return _explain(ex, X, labels, keys)

    layer_scores = np.empty((X.shape[0], len(layers)))
    for k, (_, model) in enumerate(_randomised_models(estimator, layers, mode, seed)):
        B = explain(_explainer_on(explainer, model, X_train, y_train, name=name))
        layer_scores[:, k] = _similarity(A, B, similarity, absolute, image_shape)
    scores = _mprt_scores(layer_scores, aggregate)
    scores = handle_undefined(scores, np.isnan(scores), nan_policy, what=name,
                              reason="a constant explanation (its similarity is undefined)")
    if return_layers:
        return Bunch(scores=scores, layer_scores=layer_scores, layers=list(layers))
    return scores


# ----------------------------------------------------------------- metrics
@fast_validate_params(_MPRT_PARAMS, prefer_skip_nested_validation=True)
@Substitution(common=_COMMON_DOC, metric_references=_references("adebayo2018"),
              **_shared_docs("model_inputs", "output_params"))
def mprt(estimator, X, attributions, *, explainer, mode="cascading", layers=None,
         similarity="spearman", absolute=True, image_shape=None, X_train=None,
         y_train=None, aggregate="mean", nan_policy="omit", return_layers=False,
         random_state=None,
         target="predicted", output="auto", batch_size=None):
    """Model parameter randomisation test (MPRT).

    ``MPRT(x) = mean_k sim(e(x; f), e(x; f_k))``: the similarity of the
    explanation of ``x`` with the explanations of the same class by models
    ``f_k`` whose layers are randomised, output layer first.  An explanation
    that ignores the model scores 1; lower is better (the scorer is
    ``neg_mprt``).  See :ref:`def-mprt` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {common}
    aggregate : {"mean", "last"}, default="mean"
        The score of a row: the mean similarity over the randomisation
        steps (the area under Adebayo et al.'s curve, up to the number of
        steps), or that of the last step (the fully randomised model in
        cascading mode; Quantus' ``return_last_correlation``).
    return_layers : bool, default=False
        Also return the per-layer curve.
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Similarity, aggregated over the steps; lower is better.
    details : Bunch
        Only with ``return_layers=True``: ``scores``, ``layer_scores``
        (n_samples, n_steps), the similarity after each step, and
        ``layers``, the layer randomised at each step.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.neural_network import MLPRegressor
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import mprt
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 4))
    >>> model = MLPRegressor(hidden_layer_sizes=(8,), solver="lbfgs", random_state=0).fit(
    ...     X, X @ [3.0, 2.0, 1.0, 0.0])
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> out = mprt(model, X[:5], ex.transform(X[:5]), explainer=ex,
    ...            return_layers=True, random_state=0)
    >>> out.layers, out.layer_scores.shape
    (['layer_1', 'layer_0'], (5, 2))
    """
    return _mprt_core(
        estimator, X, attributions, explainer=explainer, mode=mode, layers=layers,
        similarity=similarity, absolute=absolute, image_shape=image_shape,
        X_train=X_train, y_train=y_train, aggregate=aggregate, nan_policy=nan_policy,
        return_layers=return_layers, random_state=random_state, target=target,
        output=output, batch_size=batch_size, smooth=None, name="MPRT")


@fast_validate_params({
    **_MPRT_PARAMS,
    "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
    "noise_magnitude": [Interval(numbers.Real, 0, None, closed="left")],
}, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", common=_COMMON_DOC,
              metric_references=_references("hedstrom2023_sanity"),
              **_shared_docs("output_params", "returns_lower"))
def smooth_mprt(estimator, X, attributions, *, explainer, n_perturbations=50,
                noise_magnitude=0.1, mode="cascading", layers=None,
                similarity="spearman", absolute=True, image_shape=None, X_train=None,
                y_train=None, aggregate="mean", nan_policy="omit", return_layers=False,
                random_state=None, target="predicted", output="auto",
                batch_size=None):
    """Smooth model parameter randomisation test (sMPRT).

    MPRT between denoised explanations: every explanation, of the original
    model and of each randomised one, is the mean of the explanations of
    ``n_perturbations`` noisy copies ``x + ε``, ``ε ~ N(0, σ_x² I)``,
    ``σ_x = noise_magnitude · (max_j x_j - min_j x_j)`` (the same noise for
    every model).  Lower is better (scorer ``neg_smooth_mprt``).  See
    :ref:`def-smooth-mprt` in the user guide.

    Quantus' ``SmoothMPRT`` leaves the last of its ``nr_samples`` copies
    noise-free and draws fresh noise for every model; with the same noise
    (the last copy noise-free) the two give the same per-layer similarities
    (``tests/metrics/test_randomisation.py`` runs Quantus 0.6 directly).

    Parameters
    ----------
    {estimator}
    {X}
    attributions : array-like of shape (n_samples, n_features)
        The explainer's attributions of ``X``; validated only: the score
        compares denoised explanations, recomputed with ``explainer``.
    n_perturbations : int, default=50
        Noisy copies per row (Quantus' ``nr_samples``).
    noise_magnitude : float, default=0.1
        Noise standard deviation relative to the row's range of values.
    {common}
    aggregate : {"mean", "last"}, default="mean"
        Mean similarity over the steps, or that of the last step.
    return_layers : bool, default=False
        Also return the per-layer curve (see :func:`mprt`).
    {output_params}

    {returns_lower}
    details : Bunch
        Only with ``return_layers=True`` (see :func:`mprt`).

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import smooth_mprt
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 4))
    >>> model = LogisticRegression().fit(X, X[:, 0] + X[:, 1] > 0)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = smooth_mprt(model, X[:3], ex.transform(X[:3]), explainer=ex,
    ...                 n_perturbations=10, random_state=0)
    >>> s.shape
    (3,)
    """
    return _mprt_core(
        estimator, X, attributions, explainer=explainer, mode=mode, layers=layers,
        similarity=similarity, absolute=absolute, image_shape=image_shape,
        X_train=X_train, y_train=y_train, aggregate=aggregate, nan_policy=nan_policy,
        return_layers=return_layers, random_state=random_state, target=target,
        output=output, batch_size=batch_size,
        smooth=(n_perturbations, noise_magnitude), name="sMPRT")


def _histogram_entropy(A, n_bins):
    """Shannon entropy (nats) of the histogram of each row on ``n_bins``
    equal-width bins spanning the row's range (numpy's ``histogram``)."""
    n, d = A.shape
    lo, hi = A.min(axis=1, keepdims=True), A.max(axis=1, keepdims=True)
    width = np.where(hi > lo, hi - lo, 1.0)
    bins = np.clip(np.floor((A - lo) / width * n_bins), 0, n_bins - 1).astype(np.intp)
    counts = np.zeros((n, n_bins))
    np.add.at(counts, (np.arange(n)[:, None], bins), 1.0)
    p = counts / d
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.sum(np.where(p > 0, p * np.log(p), 0.0), axis=1)


@fast_validate_params({
    **_BASE_PARAMS,
    **_NAN_POLICY,
    "explainer": [HasMethods(["explain"])],
    "layers": [str, "array-like", None],
    "n_bins": [Interval(numbers.Integral, 2, None, closed="left")],
    "absolute": ["boolean"],
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "random_state": ["random_state"],
}, prefer_skip_nested_validation=True)
@Substitution(metric_references=_references("hedstrom2023_sanity"),
              **_shared_docs("model_inputs", "output_params"))
def efficient_mprt(estimator, X, attributions, *, explainer, layers=None, n_bins=100,
                   absolute=False, X_train=None, y_train=None, nan_policy="omit",
                   random_state=None,
                   target="predicted", output="auto", batch_size=None):
    """Efficient model parameter randomisation test (eMPRT).

    The relative rise of the explanation's complexity when all the model's
    layers are randomised: ``eMPRT(x) = (H(e(x; f_rand)) - H(e(x; f))) /
    H(e(x; f))`` with ``H`` the entropy of the histogram of the
    attribution values of the row.  An explanation that ignores the model
    scores 0; higher is better.  See :ref:`def-efficient-mprt` in the user
    guide.

    Parameters
    ----------
    {model_inputs}
    explainer : fitted explainer
        A fresh clone of it explains the rows with the randomised model
        (see :func:`mprt`).
    layers : str, list of str or None, default=None
        The layers randomised together (``None``: all of them).
    n_bins : int, default=100
        Equal-width bins of the histogram of each row's attributions
        (fixed: Quantus chooses it from the whole batch, which would make a
        row's score depend on the other rows).
    absolute : bool, default=False
        Histogram of ``|a|`` instead of ``a`` (Quantus' default is signed).
    X_train : array-like of shape (n_train, n_features) or None, default=None
        The rows the clone of the explainer is fitted on; ``None``: those
        the explainer was fitted on (see :func:`mprt`).
    y_train : array-like of shape (n_train,) or None, default=None
        Targets passed with ``X_train`` to the clone's ``fit``.
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows whose original explanation has zero entropy (constant) are
        undefined: NaN with a warning, 0, or an error.
    random_state : int, RandomState instance or None, default=None
        Seeds the randomised parameters.
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Relative rise of the entropy; higher is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import efficient_mprt
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 6))
    >>> model = LogisticRegression().fit(X, X[:, 0] > 0)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> efficient_mprt(model, X[:3], ex.transform(X[:3]), explainer=ex,
    ...                n_bins=5, random_state=0).shape
    (3,)
    """
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer, "eMPRT")
    seed = seed_entropy(random_state)
    layers = _check_layers(estimator, layers)
    _, _, labels = _explained_labels(estimator, X, target, output, batch_size)
    from sklearn_xai.models import randomise_model  # imports torch: not at import

    model = randomise_model(estimator, layers, random_state=seed, copy="shared")
    B = _explain(_explainer_on(explainer, model, X_train, y_train, name="eMPRT"), X,
                 labels, row_keys(X))
    if absolute:
        A, B = np.abs(A), np.abs(B)
    h0, h1 = _histogram_entropy(A, n_bins), _histogram_entropy(B, n_bins)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(h0 > 0, (h1 - h0) / np.where(h0 > 0, h0, 1.0), np.nan)
    return handle_undefined(scores, np.isnan(scores), nan_policy, what="eMPRT",
                            reason="a constant original explanation (zero entropy)")


@fast_validate_params({
    **_BASE_PARAMS,
    **_SIM_PARAMS,
    **_NAN_POLICY,
    "explainer": [HasMethods(["explain"])],
    "random_state": ["random_state"],
}, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", "attributions",
              metric_references=_references("sixt2020"),
              **_shared_docs("output_params", "returns_lower"))
def random_logit(estimator, X, attributions, *, explainer, similarity="spearman",
                 absolute=False, image_shape=None, nan_policy="omit",
                 random_state=None, target="predicted", output="auto",
                 batch_size=None):
    """Random logit test: similarity with the explanation of another class.

    ``RL(x) = sim(e(x; y), e(x; y'))`` with ``y`` the explained class and
    ``y'`` drawn uniformly among the other classes (one draw per row, from
    the row's random stream).  An explanation that ignores the explained
    class scores 1; lower is better (scorer ``neg_random_logit``).  See
    :ref:`def-random-logit` in the user guide.

    Parameters
    ----------
    {estimator}
        A classifier.
    {X}
    {attributions}
    explainer : fitted explainer
        Explains the rows for the other classes (one call).
    similarity : {"spearman", "pearson", "ssim"}, default="spearman"
        See :func:`mprt` (Quantus' default is SSIM, which needs images).
    absolute : bool, default=False
        Compare ``|a|`` (the signed explanations by default, as Quantus: for
        a binary model explained by its decision function the explanation
        of the other class is the opposite one, similarity -1 signed and 1
        in magnitude).
    image_shape : tuple of int or None, default=None
        ``(h, w)`` or ``(c, h, w)`` of the flattened maps (SSIM only).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows with a constant explanation (undefined similarity): NaN with a
        warning, 0, or an error.
    random_state : int, RandomState instance or None, default=None
        Seeds the other classes: row ``i``'s is drawn from
        ``RowStreams(random_state, row_keys(X))``.
    {output_params}

    {returns_lower}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import random_logit
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(150, 4))
    >>> y = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])
    >>> model = LogisticRegression().fit(X, y)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = random_logit(model, X[:4], ex.transform(X[:4]), explainer=ex,
    ...                  random_state=0)
    >>> bool(np.all(s < 1))
    True
    """
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer, "random_logit")
    f, t, _ = _explained_labels(estimator, X, target, output, batch_size)
    if t is None:
        raise ValueError(
            "random_logit compares the explanations of two classes: pass a "
            f"classifier (got {type(estimator).__name__} with a single output).")
    classes = np.asarray(f.estimator.classes_)
    n_classes = len(classes)
    if n_classes < 2:
        raise ValueError("random_logit needs at least two classes.")
    keys = row_keys(X)
    shift = RowStreams(seed_entropy(random_state), keys).integers(n_classes - 1)
    other = (t + 1 + np.asarray(shift, dtype=np.intp)) % n_classes
    B = _explain(explainer, X, classes[other], keys)
    scores = _similarity(A, B, similarity, absolute, image_shape)
    return handle_undefined(scores, np.isnan(scores), nan_policy, what="random_logit",
                            reason="a constant explanation (its similarity is undefined)")


@fast_validate_params({
    **_BASE_PARAMS,
    **_SIM_PARAMS,
    **_NAN_POLICY,
    "explainer": [HasMethods(["explain"])],
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "attributions_train": ["array-like", None],
    "random_state": ["random_state"],
}, prefer_skip_nested_validation=True)
@Substitution(metric_references=_references("adebayo2018"),
              **_shared_docs("model_inputs", "output_params", "returns_lower"))
def data_randomisation(estimator, X, attributions, *, explainer, X_train=None,
                       y_train=None, attributions_train=None, similarity="spearman",
                       absolute=True, image_shape=None, nan_policy="omit",
                       random_state=None, target="predicted", output="auto",
                       batch_size=None):
    """Data randomisation test: similarity with the explanation of a model
    trained on permuted labels.

    A clone of the model is trained on ``(X_train, π(y_train))``, ``π`` a
    random permutation, a clone of the explainer is fitted to it on
    ``X_train``, and ``DR(x) = sim(e(x; f), e(x; f_π))`` for the class
    explained by the original model.  An explanation that does not depend
    on what the model learnt scores 1; lower is better (scorer
    ``neg_data_randomisation``).  See :ref:`def-data-randomisation` in the
    user guide.

    Parameters
    ----------
    {model_inputs}
    explainer : fitted explainer
        A fresh clone of it (or of an
        :class:`~sklearn_xai.compose.ExplainedModel`'s explainer),
        ``set_params(estimator=FrozenEstimator(retrained))``, is fitted on
        ``X_train`` and the permuted labels the model was retrained on.
    X_train : array-like of shape (n_train, n_features)
        The training rows (required).
    y_train : array-like of shape (n_train,)
        Their labels, permuted before retraining (required).
    attributions_train : array-like or None, default=None
        Not used; accepted so that a scorer binding the training data of
        retraining metrics can pass it.
    similarity : {"spearman", "pearson", "ssim"}, default="spearman"
        See :func:`mprt`.
    absolute : bool, default=True
        Compare the magnitudes ``|a|``.
    image_shape : tuple of int or None, default=None
        ``(h, w)`` or ``(c, h, w)`` of the flattened maps (SSIM only).
    nan_policy : {"omit", "zero", "raise"}, default="omit"
        Rows with a constant explanation: NaN with a warning, 0, or an error.
    random_state : int, RandomState instance or None, default=None
        Seeds the permutation, and the retrained model when its own
        ``random_state`` is None.
    {output_params}

    {returns_lower}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import data_randomisation
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> y = X[:, 0] + 0.5 * X[:, 1] > 0
    >>> model = LogisticRegression().fit(X, y)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = data_randomisation(model, X[:5], ex.transform(X[:5]), explainer=ex,
    ...                        X_train=X, y_train=y, random_state=0)
    >>> bool(s.mean() < 0.9)
    True
    """
    X, A = _check_inputs(X, attributions)
    _check_explainer(explainer, "data_randomisation")
    missing = [k for k, v in (("X_train", X_train), ("y_train", y_train)) if v is None]
    if missing:
        raise ValueError(
            "data_randomisation retrains the model on permuted labels: pass "
            + ", ".join(f"{k}=..." for k in missing)
            + " (in a search, bind them to the scorer: get_scorer("
            "'neg_data_randomisation', X_train=X_train, y_train=y_train)).")
    y_train = np.asarray(y_train.to_numpy() if hasattr(y_train, "to_numpy") else y_train)
    if len(y_train) != len(X_train):
        raise ValueError(f"y_train has {len(y_train)} entries but X_train has "
                         f"{len(X_train)} rows.")
    _, _, labels = _explained_labels(estimator, X, target, output, batch_size)
    seed = seed_entropy(random_state)
    y_perm = y_train[purpose_generator(seed, 3).permutation(len(y_train))]
    model = _refit(estimator, X_train, y_perm, seed)
    B = _explain(_explainer_on(explainer, model, X_train, y_perm,
                               name="data_randomisation"), X, labels, row_keys(X))
    scores = _similarity(A, B, similarity, absolute, image_shape)
    return handle_undefined(scores, np.isnan(scores), nan_policy,
                            what="data_randomisation",
                            reason="a constant explanation (its similarity is undefined)")


register_metric(
    "neg_mprt", mprt, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows", "image_shape", "random_state"),
    source="Adebayo et al. 2018, Quantus",
    description="Similarity of explanations under cascading layer randomisation.",
)
register_metric(
    "neg_smooth_mprt", smooth_mprt, kind="model", greater_is_better=False,
    requires=("explainer", "training_rows", "image_shape", "random_state"),
    source="Hedström et al. 2023, Quantus",
    description="MPRT between explanations averaged over noisy inputs.",
)
register_metric(
    "efficient_mprt", efficient_mprt, kind="model", greater_is_better=True,
    requires=("explainer", "training_rows", "random_state"),
    source="Hedström et al. 2023, Quantus",
    description="Relative rise of explanation entropy under full randomisation.",
)
register_metric(
    "neg_random_logit", random_logit, kind="model", greater_is_better=False,
    requires=("explainer", "image_shape", "random_state", "classifier"),
    source="Sixt et al. 2020, Quantus",
    description="Similarity with the explanation of a random other class.",
)
register_metric(
    "neg_data_randomisation", data_randomisation, kind="model",
    greater_is_better=False,
    requires=("explainer", "training_data", "image_shape", "random_state"),
    source="Adebayo et al. 2018",
    description="Similarity with explanations of a model trained on permuted labels.",
)
