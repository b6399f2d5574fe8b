"""LIME variants: stock ``lime``, OpenXAI's local surrogate and Captum's LIME.

Three explainers fit a weighted linear surrogate of the explained output ``f``
around each row and return its coefficients (Ribeiro et al. 2016):

* :class:`LimeTabular` re-implements the ``lime`` package's tabular LIME
  (XAI-Bench), vectorised across rows;
* :class:`LocalLinearSurrogate` re-implements OpenXAI's modified LIME
  (Gaussian neighbourhood on unscaled features), vectorised across rows;
* :class:`CaptumLime` re-implements Captum's binary-mask LIME, vectorised
  across rows;
* :class:`CaptumKernelSHAP` re-implements Captum's KernelSHAP, which Captum
  builds as a LIME with the Shapley kernel.
"""

import numbers

import numpy as np
from scipy import special
from sklearn.linear_model import Lasso
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import EXPLAINER_FRAGMENTS, explainer_doc
from sklearn_xai.explainers._segmented import (
    SEGMENTATION_DOC,
    explain_segments,
    explains_segments,
    fit_segmentation,
    n_players,
    spread,
)
from sklearn_xai.explainers._surrogate import (
    evaluate_block,
    exponential_kernel,
    lime_kernel,
    weighted_ridge,
)
from sklearn_xai.masking import BaseSegmentation
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._docstring import DOC_FRAGMENTS, join_fragments
from sklearn_xai.utils._output import block_slices
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._validation import check_feature_vector

__all__ = ["CaptumKernelSHAP", "CaptumLime", "LimeTabular", "LocalLinearSurrogate"]


def _check_perturbations(n_perturbations, n_features):
    """Refuse a count whose perturbed copies of one row (float64, with as
    many distances, masks or weights) exceed the allocation limit."""
    check_allocation(2 * n_perturbations * n_features,
                     what="the perturbed copies of one row",
                     parameter="n_perturbations", value=n_perturbations)


class _SampledSurrogate(BaseExplainer):
    """LIME-style explainers: the neighbourhood of a row is drawn from the
    row's random stream; :meth:`fit` stores the neighbourhood size as
    ``n_perturbations_``."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True
        tags.non_deterministic = self.random_state is None
        return tags


# ---------------------------------------------------------------------------
# LimeTabular: the lime package
# ---------------------------------------------------------------------------

_LIME_PRESETS = {
    "xai_bench": {"kernel_width": 0.5, "n_perturbations": 5000},
}


@explainer_doc("explainer_output_params", "input_attributes", "regression_example",
               references=("ribeiro2016", "liu2021"))
class LimeTabular(_SampledSurrogate):
    """Stock LIME (``lime.lime_tabular.LimeTabularExplainer``) in regression
    mode on the explained output (XAI-Bench's "LIME"), re-implemented
    exactly and vectorised across rows.

    For each row, ``n_perturbations`` perturbations (the row itself first)
    are drawn as ``lime`` draws them: by default each feature takes one of
    the quartile (or decile) bins of the training data with the bin's
    training frequency, and a value from the normal of the training values
    in that bin (their mean and standard deviation) truncated to the bin;
    the surrogate's feature is the indicator "in the same bin as the row".
    The samples are weighted with the kernel
    ``sqrt(exp(-D**2 / width**2))`` of their Euclidean distance ``D`` to the
    row on these features, with ``width = kernel_width * sqrt(n_features)``,
    and ``Ridge(alpha=1)`` is fitted to the explained output ``f`` (the
    probability of the row's target class for classifiers, ``predict`` for
    regressors).  With ``discretize_continuous=False``, the perturbations
    are normal draws with the training mean and standard deviation of each
    feature and the surrogate's features are the standardised values.

    This is ``lime``'s estimator: for the same perturbations, the
    coefficients equal those of ``lime``'s ``explain_instance`` to rounding
    (tested against ``lime`` run directly).  The random numbers differ:
    ``lime`` calls scipy's ``truncnorm`` once per feature and row and
    fits scikit-learn's input-checked ``Ridge`` once or twice per row
    (``d * (d + 1) / 2`` more times for ``"auto"``'s forward selection when
    ``d <= 6``), which costs tens of milliseconds per row whatever the
    model, while here each row's draws come from its own random stream
    (bins by inversion of a uniform, truncated normals by rejection), the
    perturbations of a block of rows go to the model in one call and the
    weighted ridge problems of the block are solved together (batched
    normal equations on the weighted-centred design, as scikit-learn's
    ``Ridge`` with ``sample_weight``).  ``lime`` quirks are kept: a bin
    whose bounds coincide (the lowest one when the first percentile is the
    feature's minimum) yields its standardised bound ``(min - mean) / std``
    rather than a value of the feature, and without discretisation the
    perturbations are centred on the training mean, not on the row.

    With ``n_features`` features requested, ``feature_selection`` ``"auto"``,
    ``"none"``, ``"forward_selection"`` and ``"highest_weights"`` all keep
    every feature, so the surrogate is the same fit; ``"lasso_path"``, which
    may drop features row by row, runs ``lime``'s ``explain_instance`` row
    by row (seeded from the row's stream).

    The attribution of feature ``j`` is the surrogate's coefficient, with the
    sign of the direction of effect: with discretisation the surrogate's
    feature is the indicator "in the same bin as the row", so a feature whose
    current bin raises ``f`` above the rest of its range gets a positive
    attribution (for an increasing effect: rows above the median of the
    feature).  ``lime``'s regression mode stores the *negated* coefficients
    in ``local_exp[0]``; XAI-Bench reads that slot and negates it again, this
    explainer returns the fitted coefficients directly.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_perturbations : int, default=5000
        Neighbourhood size per row (``num_samples`` of ``lime``).
    kernel_width : float, default=0.75
        Kernel width relative to ``sqrt(n_features)`` (``lime``'s default).
    discretize_continuous : bool, default=True
        Use ``lime``'s bin indicators as interpretable features.
    discretizer : {"quartile", "decile"}, default="quartile"
        Bins used when ``discretize_continuous=True``.
    feature_selection : {"auto", "none", "forward_selection", "highest_weights", "lasso_path"}, default="auto"
        ``lime``'s feature selection; all ``n_features`` features are always
        requested, so every option but ``"lasso_path"`` keeps every feature
        (they only change the order in which ``lime`` adds them).
    preset : {"xai_bench"} or None, default=None
        ``"xai_bench"`` uses XAI-Bench's experiment configuration:
        ``kernel_width=0.5`` and ``n_perturbations=5000`` (overriding those
        two parameters).
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row random streams, so results are reproducible and a
        row's attributions do not depend on the batch, its size or the row
        order.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    training_data_ : ndarray of shape (n_train, n_features)
        Training rows (their bins and statistics define the perturbations;
        :meth:`lime_explainer` gives them to ``lime``).
    kernel_width_ : float
        The kernel width used (``kernel_width`` or the preset's).
    n_perturbations_ : int
        The neighbourhood size used (``n_perturbations`` or the preset's).
    {input_attributes}

    See Also
    --------
    LocalLinearSurrogate : OpenXAI's Gaussian-neighbourhood LIME.
    CaptumLime : binary-mask LIME (Captum).

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import LimeTabular
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = X @ [3.0, 1.0, 0.0]
    >>> ex = LimeTabular(LinearRegression(), n_perturbations=500, random_state=0)
    >>> A = ex.fit(X, y).transform([[2.0, 2.0, 2.0]])
    >>> bool(A[0, 0] > A[0, 1] > abs(A[0, 2]))
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 2, None, closed="left")],
        "kernel_width": [Interval(numbers.Real, 0, None, closed="neither")],
        "discretize_continuous": ["boolean"],
        "discretizer": [StrOptions({"quartile", "decile"})],
        "feature_selection": [
            StrOptions(
                {"auto", "none", "forward_selection", "highest_weights", "lasso_path"}
            )
        ],
        "preset": [StrOptions(set(_LIME_PRESETS)), None],
    }

    def __init__(self, estimator=None, *, n_perturbations=5000, kernel_width=0.75,
                 discretize_continuous=True, discretizer="quartile",
                 feature_selection="auto", preset=None, target="predicted",
                 output="auto", batch_size=None, random_state=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.kernel_width = kernel_width
        self.discretize_continuous = discretize_continuous
        self.discretizer = discretizer
        self.feature_selection = feature_selection
        self.preset = preset
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _fit_explainer(self, X, y):
        settings = {"kernel_width": self.kernel_width,
                    "n_perturbations": self.n_perturbations}
        if self.preset is not None:
            settings.update(_LIME_PRESETS[self.preset])
        self.kernel_width_ = settings["kernel_width"]
        self.n_perturbations_ = settings["n_perturbations"]
        _check_perturbations(self.n_perturbations_, X.shape[1])
        self.training_data_ = X.copy()
        if self.discretize_continuous:
            self._bins = _lime_bins(X, _LIME_PERCENTILES[self.discretizer])
        else:
            # lime's StandardScaler(with_mean=False): the sampling mean and
            # scale of every feature (a constant feature has scale 1).
            scaler = StandardScaler(with_mean=False).fit(X)
            self._bins = None
            self._mean, self._scale = scaler.mean_, scaler.scale_

    def lime_explainer(self, random_state=0):
        """The ``lime`` explainer of the training rows.

        Built on demand (``lime``'s discretisers hold lambdas, which cannot
        be pickled, so the fitted explainer stores only the training rows).
        :meth:`transform` uses it only for ``feature_selection="lasso_path"``.

        Parameters
        ----------
        random_state : int or numpy.random.RandomState, default=0
            Random state handed to ``lime``.

        Returns
        -------
        explainer : lime.lime_tabular.LimeTabularExplainer
        """
        from lime.lime_tabular import LimeTabularExplainer

        check_is_fitted(self, "training_data_")
        X = self.training_data_
        return LimeTabularExplainer(
            X,
            mode="regression",
            kernel_width=self.kernel_width_ * np.sqrt(X.shape[1]),
            discretize_continuous=self.discretize_continuous,
            discretizer=self.discretizer,
            feature_selection=self.feature_selection,
            random_state=random_state,
        )

    def _explain(self, X, f, target_index, rngs):
        if self.feature_selection == "lasso_path":
            return self._explain_with_lime(X, f, target_index, rngs)
        n, d = X.shape
        N = self.n_perturbations_
        width = self.kernel_width_ * np.sqrt(d)
        A = np.empty((n, d), dtype=np.float64)
        blocks = block_slices(n, N, d, self.batch_size, f.device)
        # Buffers of the largest block, reused block after block (fresh
        # arrays of this size cost page faults each time).
        size = min(blocks[0].stop, n)
        design, inverse = np.empty((2, size, N, d))
        for block in blocks:
            b = len(range(*block.indices(n)))
            if self._bins is not None:
                dist2 = _lime_discretised_sample(
                    self._bins, X[block], rngs[block].generators(), design[:b],
                    inverse[:b])
            else:
                dist2 = _lime_gaussian_sample(
                    self._mean, self._scale, X[block], rngs[block].generators(),
                    design[:b], inverse[:b])
            y = evaluate_block(f, inverse[:b], target_index, block)
            A[block] = _lime_surrogates(design[:b], y, width, dist2)
        return A

    def _explain_with_lime(self, X, f, target_index, rngs):
        """``lime``'s ``explain_instance`` row by row (``lasso_path``, whose
        selected features differ from row to row), seeded from each row's
        stream."""
        n, d = X.shape
        n_perturbations = self.n_perturbations_
        lime_ex = self.lime_explainer()
        A = np.zeros((n, d), dtype=np.float64)
        generators = rngs.generators()
        for i in range(n):
            state = np.random.RandomState(int(generators[i].integers(2**32)))
            lime_ex.random_state = state
            lime_ex.base.random_state = state
            if lime_ex.discretizer is not None:
                lime_ex.discretizer.random_state = state
            if target_index is None:
                def predict_fn(Z):
                    return f(Z)
            else:
                t = int(target_index[i])

                def predict_fn(Z, t=t):
                    return f(Z, np.full(len(Z), t, dtype=np.intp))

            exp = lime_ex.explain_instance(
                X[i], predict_fn, num_features=d, num_samples=n_perturbations
            )
            # local_exp[1] holds the fitted coefficients; local_exp[0] their
            # negation (lime's regression-mode convention).
            for j, weight in exp.local_exp[1]:
                A[i, j] = weight
        return A


# lime's quartile and decile discretisers.
_LIME_PERCENTILES = {"quartile": [25, 50, 75],
                     "decile": [10, 20, 30, 40, 50, 60, 70, 80, 90]}


# A bin whose truncated normal has less standard-normal mass than this is
# drawn by inversion (its quantile function) rather than by rejection.
_MIN_REJECTION_MASS = 0.25


class _LimeBins:
    """lime's discretisation of the training data, as lookup tables.

    All tables have shape (n_features, n_bins); ``edges`` and ``cdf`` have
    one column less.  For feature ``j``, ``edges[j]`` are lime's bin borders
    (the distinct percentiles, padded with ``+inf``): the bin of a value is
    the number of borders below it (lime's ``searchsorted``).  A perturbed
    value takes bin ``k`` with the training frequency of the bin (a uniform
    ``u`` is in bin ``k`` when ``u >= cdf[j, i]`` for exactly the ``k``
    columns ``i < k``) and is ``loc + scale * z``, ``z`` a standard normal
    truncated to ``[lower, upper]`` (lime's standardised bin bounds).
    ``z`` is drawn by rejection, or, in the bins flagged ``invert`` (whose
    truncated normal has little mass), as the quantile
    ``ndtri(alpha + beta * u)`` of the uniform rescaled within the bin.
    """

    def __init__(self, edges, cdf, lower, upper, loc, scale, invert, alpha, beta):
        self.edges, self.cdf = edges, cdf
        self.lower, self.upper, self.loc, self.scale = lower, upper, loc, scale
        self.invert, self.alpha, self.beta = invert, alpha, beta

    @property
    def n_bins(self):
        return self.loc.shape[1]


def _lime_bins(X, percentiles):
    """The :class:`_LimeBins` of the training rows ``X``, with the
    statistics of lime's ``BaseDiscretizer``: per bin the mean and the
    standard deviation (plus ``1e-11``) of the training values in the bin,
    bounds ``(min, q_1], (q_1, q_2], ..., (q_last, max]``; the frequency of
    the bin among the training rows (``LimeTabularExplainer``'s
    ``feature_frequencies``).  A bin whose standardised bounds coincide
    (the lowest one, when the first percentile is the minimum) gets lime's
    value for it: the standardised bound ``(min - mean) / std`` itself."""
    n, d = X.shape
    K = len(percentiles) + 1
    edges = np.full((d, K - 1), np.inf)
    cdf = np.full((d, K - 1), 2.0)  # never reached by a uniform in [0, 1)
    # Empty bins (never drawn) and constant ones: loc, no rejection.
    lower, upper = np.full((d, K), -np.inf), np.full((d, K), np.inf)
    loc, scale = np.zeros((d, K)), np.zeros((d, K))
    invert = np.zeros((d, K), dtype=bool)
    alpha, beta = np.full((d, K), 0.5), np.zeros((d, K))
    for j in range(d):
        column = X[:, j]
        qts = np.unique(np.percentile(column, percentiles))
        bins = np.searchsorted(qts, column)
        mins = np.concatenate([[column.min()], qts])
        maxs = np.concatenate([qts, [column.max()]])
        freq = np.bincount(bins, minlength=len(qts) + 1) / n
        edges[j, : len(qts)] = qts
        below = np.concatenate([[0.0], np.cumsum(freq)[:-1]])
        cdf[j, : len(qts)] = below[1:]
        for k in range(len(qts) + 1):
            selection = column[bins == k]
            if len(selection) == 0:
                continue
            mean = np.mean(selection)
            std = np.std(selection) + 0.00000000001
            minz = (mins[k] - mean) / std
            maxz = (maxs[k] - mean) / std
            if minz == maxz:
                loc[j, k] = minz
                continue
            loc[j, k], scale[j, k] = mean, std
            lower[j, k], upper[j, k] = minz, maxz
            mass = special.ndtr(maxz) - special.ndtr(minz)
            if mass < _MIN_REJECTION_MASS:
                invert[j, k] = True
                lower[j, k], upper[j, k] = -np.inf, np.inf
                beta[j, k] = mass / freq[k]
                alpha[j, k] = special.ndtr(minz) - below[k] * beta[j, k]
    return _LimeBins(edges, cdf, lower, upper, loc, scale, invert, alpha, beta)


# Bounds of the inverted probabilities: the quantile of 0 or 1 is infinite,
# that of these is finite and inside every bin whose probability bound
# rounds to 0 or 1.
_P_MIN, _P_MAX = np.finfo(np.float64).tiny, 1.0 - np.finfo(np.float64).epsneg


def _lime_discretised_sample(bins, Xb, rngs, design, inverse):
    """lime's discretised neighbourhoods of the rows ``Xb`` (b, d).

    Fills ``design`` (b, N, d), the interpretable features: 1 where a
    perturbation is in the row's bin, the row itself first (all ones), and
    ``inverse`` (b, N, d), the model inputs: the row, then ``N - 1`` values
    per feature drawn as lime's ``__data_inverse`` and ``undiscretize`` do
    (a bin with its training frequency, then the bin's truncated normal).
    Returns the squared distances (b, N) of the design rows to the first.

    Row ``i`` draws from ``rngs[i]`` only: ``(N - 1) * d`` uniforms (the
    bins), as many standard normals, then the normals that replace the
    rejected ones.  The rows of the block are drawn one after the other,
    each with whole-array operations on its ``(N - 1, d)`` draws (which
    stay in cache).
    """
    b, N, d = design.shape
    K = bins.n_bins
    design[:, 0] = 1.0
    inverse[:, 0] = Xb
    # Flat index into the (d, K) tables of each row's bin (lime's
    # searchsorted, side left: the number of borders below the value).
    offsets = np.arange(d) * K
    row_cell = offsets + (Xb[:, :, None] > bins.edges).sum(axis=2)
    u = np.empty((N - 1, d))
    below = np.empty((N - 1, d), dtype=np.uint8)  # bins below the drawn one
    cell = np.empty((N - 1, d), dtype=np.intp)
    for i, rng in enumerate(rngs):
        rng.random(out=u)
        z = inverse[i, 1:]
        rng.standard_normal(out=z)
        np.greater_equal(u, bins.cdf[:, 0], out=below.view(bool))
        for k in range(1, K - 1):
            below += u >= bins.cdf[:, k]
        np.add(below, offsets, out=cell)
        np.equal(cell, row_cell[i], out=design[i, 1:])
        _truncate_by_rejection(z.reshape(-1), np.take(bins.lower, cell).reshape(-1),
                               np.take(bins.upper, cell).reshape(-1), rng)
        if bins.invert.any():
            flagged = np.take(bins.invert, cell)
            p = (np.take(bins.alpha, cell[flagged])
                 + np.take(bins.beta, cell[flagged]) * u[flagged])
            z[flagged] = special.ndtri(np.clip(p, _P_MIN, _P_MAX))
        z *= np.take(bins.scale, cell)
        z += np.take(bins.loc, cell)
    # Indicators against the all-ones first row: a distance counts the
    # features out of the row's bin.
    return d - design.sum(axis=2)


def _truncate_by_rejection(z, lower, upper, rng):
    """Redraw, in place and from ``rng``, every standard normal of ``z``
    outside ``[lower, upper]`` until all are inside (each bound pair holds
    at least :data:`_MIN_REJECTION_MASS` of the normal)."""
    out = np.flatnonzero((z < lower) | (z > upper))
    while out.size:
        draws = rng.standard_normal(out.size)
        ok = (draws >= lower[out]) & (draws <= upper[out])
        z[out[ok]] = draws[ok]
        out = out[~ok]


def _lime_gaussian_sample(mean, scale, Xb, rngs, design, inverse):
    """lime's neighbourhoods without discretisation: fills the standardised
    design (b, N, d) (the row standardised first, then standard normal
    draws from the row's own generator) and the model inputs
    ``design * scale + mean`` (the row itself first); returns the squared
    distances (b, N) of the design rows to the first."""
    design[:, 0] = (Xb - mean) / scale
    for row, rng in zip(design, rngs):
        rng.standard_normal(out=row[1:])
    np.multiply(design, scale, out=inverse)
    inverse += mean
    inverse[:, 0] = Xb
    dist2 = np.empty(design.shape[:2])
    for i, row in enumerate(design):
        diff = row - row[0]
        np.einsum("nd,nd->n", diff, diff, out=dist2[i])
    return dist2


def _lime_surrogates(design, y, width, dist2=None):
    """lime's surrogate of every row of a block: the coefficients of
    ``Ridge(alpha=1)`` fitted to ``y`` (b, N) on ``design`` (b, N, d) with
    the weights ``sqrt(exp(-D**2 / width**2))`` of the Euclidean distances
    ``D`` of the design rows to the first one (the explained row);
    ``dist2``, the squared distances, if the caller has them."""
    if dist2 is None:
        diff = design - design[:, :1]
        dist2 = np.einsum("bnd,bnd->bn", diff, diff)
    return weighted_ridge(design, y, lime_kernel(dist2, width), 1.0)[0]


# ---------------------------------------------------------------------------
# LocalLinearSurrogate: OpenXAI's modified LIME
# ---------------------------------------------------------------------------


@explainer_doc("explainer_output_params", "input_attributes", "regression_example",
               references=("ribeiro2016", "agarwal2022"))
class LocalLinearSurrogate(_SampledSurrogate):
    """OpenXAI's LIME: a ridge surrogate fitted on a Gaussian neighbourhood
    (after Ribeiro et al. 2016), re-implemented exactly and vectorised
    across rows.

    For a row ``x`` the neighbourhood is ``z_0 = x`` and
    ``z_i = x + std * eps_i``, ``eps_i ~ N(0, I)`` for
    ``i = 1..n_perturbations-1``
    (unscaled features: the same absolute noise on every feature).  Sample
    weights are ``pi_i = sqrt(exp(-||z_i - x||**2 / w**2))`` with
    ``w = kernel_width * sqrt(n_features)`` and Euclidean distances on the
    unscaled features.  The surrogate is ``Ridge(alpha)`` with an intercept,
    fitted to the explained output ``f(z_i)`` (the probability of the row's
    target class); its coefficients are the attributions.

    OpenXAI fits the probability of class 1 and multiplies the coefficients
    by ``2 * y_hat - 1``; for a binary model this is exactly the coefficient
    vector of the predicted class's probability, which is what
    ``target="predicted"`` explains here (and generalises to more classes).
    OpenXAI's ``feature_selection="auto"`` requests all features (forward
    selection for ``d <= 6``, highest weights otherwise, both keeping all
    ``d``), so the final surrogate always uses every feature; it is fitted
    directly.  Stock ``lime`` cannot reproduce this explainer: it scales the
    noise by the training standard deviations and measures distances on
    standardised features.

    All neighbourhoods of a block of rows are scored in one model call and
    the weighted ridge problems are solved together (batched normal
    equations).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    std : float, default=0.1
        Standard deviation of the Gaussian perturbations, in input units.
    n_perturbations : int, default=1000
        Neighbourhood size per row, the row itself included.
    kernel_width : float, default=0.75
        Kernel width relative to ``sqrt(n_features)``.
    alpha : float, default=1.0
        Ridge penalty of the surrogate (``lime``'s ``Ridge(alpha=1)``).
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row random streams (OpenXAI: 0).

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    n_perturbations_ : int
        The neighbourhood size used.
    {input_attributes}

    See Also
    --------
    LimeTabular : stock LIME.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import LocalLinearSurrogate
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> ex = LocalLinearSurrogate(LinearRegression(), alpha=1e-8, random_state=0)
    >>> ex.fit(X, X @ [2.0, -1.0]).transform(X[:2]).round(6)
    array([[ 2., -1.],
           [ 2., -1.]])
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "std": [Interval(numbers.Real, 0, None, closed="neither")],
        "n_perturbations": [Interval(numbers.Integral, 2, None, closed="left")],
        "kernel_width": [Interval(numbers.Real, 0, None, closed="neither")],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(self, estimator=None, *, std=0.1, n_perturbations=1000,
                 kernel_width=0.75, alpha=1.0, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.std = std
        self.n_perturbations = n_perturbations
        self.kernel_width = kernel_width
        self.alpha = alpha
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = self.n_perturbations
        _check_perturbations(self.n_perturbations_, X.shape[1])

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        N = self.n_perturbations_
        width = self.kernel_width * np.sqrt(d)
        A = np.empty((n, d), dtype=np.float64)
        for block in block_slices(n, N, d, self.batch_size, f.device):
            Xb = X[block]
            noise = rngs[block].normal((N, d))
            noise[:, 0] = 0.0
            Z = Xb[:, None, :] + self.std * noise
            y = evaluate_block(f, Z, target_index, block)
            dist2 = np.sum((Z - Xb[:, None, :]) ** 2, axis=2)
            weights = lime_kernel(dist2, width)
            A[block], _ = weighted_ridge(Z, y, weights, self.alpha)
        return A


# ---------------------------------------------------------------------------
# Captum's binary-mask surrogates: CaptumLime and CaptumKernelSHAP
# ---------------------------------------------------------------------------
# The parameters and attributes the Captum surrogates share (docstring
# fragments, see sklearn_xai.explainers._docstring).
_CAPTUM_SURROGATE_DOC = {
    "captum_surrogate_params": join_fragments(
        """
        baseline : float or array-like of shape (n_features,), default=0.0
            Value of an absent feature (Captum's default 0).""",
        EXPLAINER_FRAGMENTS["explainer_output_params"],
        DOC_FRAGMENTS["explainer_random_state"], SEGMENTATION_DOC),
    "captum_surrogate_attributes": """
        estimator_ : estimator
            The fitted model.
        baseline_ : ndarray of shape (n_features,)
            The baseline broadcast to one value per feature.""",
}


class _CaptumMaskSurrogate(_SampledSurrogate):
    """Captum's ``Lime`` scheme, which its ``KernelShap`` also is: per row,
    binary masks ``m`` (``_masks``), inputs ``z = m * x + (1 - m) * b``
    scored in one model call per block of rows, a weighted linear model
    fitted to ``f(z)`` on the masks (``_fit_surrogates``, weights
    ``_sample_weight``); its coefficients are the attributions."""

    def _explain(self, X, f, target_index, rngs):
        if explains_segments(self):  # segmentation=: each row's segments
            return explain_segments(self, X, f, target_index, rngs)
        n, d = X.shape
        k = n_players(self, d)
        S = self.n_perturbations_
        A = np.empty((n, k), dtype=np.float64)
        for block in block_slices(n, S, d, self.batch_size, f.device):
            Xb = X[block]
            masks = np.stack([self._masks(rng, k) for rng in rngs[block].generators()])
            Z = np.where(spread(self, masks), Xb[:, None, :], self.baseline_)
            y = evaluate_block(f, Z, target_index, block)
            A[block] = self._fit_surrogates(masks.astype(np.float64), y,
                                            self._sample_weight(Xb, Z))
        return A


@explainer_doc("input_attributes", "regression_example", **_CAPTUM_SURROGATE_DOC,
               references=("ribeiro2016", "kokhlikyan2020"))
class CaptumLime(_CaptumMaskSurrogate):
    """Captum's LIME (``captum.attr.Lime`` defaults): binary feature-presence
    masks, cosine-distance exponential kernel and a Lasso surrogate
    (as used by XAI-TRIS and BEExAI).

    For a row ``x``, ``n_perturbations`` masks ``m_s ~ Bernoulli(0.5)^d`` give the
    inputs ``z_s = m_s * x + (1 - m_s) * b`` (``b`` the baseline).  Each is
    weighted by ``exp(-D(x, z_s)**2 / (2 * kernel_width**2))`` with
    ``D`` the cosine distance ``1 - cos(x, z_s)`` (or the Euclidean distance)
    computed on the inputs, and ``Lasso(alpha)`` with an intercept is fitted
    to ``f(z_s)`` on the masks ``m_s``; its coefficients are the
    attributions.  As in Captum, the cosine of a zero vector is 0.

    This re-implementation works with any model (no torch module is needed):
    the masked inputs of a block of rows are scored in one model call, where
    Captum evaluates one perturbation per forward pass by default.  The
    surrogates are fitted in float64 (Captum casts to float32).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_perturbations : int, default=25
        Number of masks per row: ``n_samples`` of Captum's
        ``Lime.attribute``, whose default is 25 (its ``LimeBase`` defaults
        to 50); BEExAI and XAI-TRIS call it with the default.

        .. versionchanged:: 0.1
           The default was 50, which is ``LimeBase``'s, not ``Lime``'s.
    alpha : float, default=0.01
        Lasso penalty (Captum's ``SkLearnLasso(alpha=0.01)``).
    kernel_width : float, default=1.0
        Width of the exponential similarity kernel.
    distance : {"cosine", "euclidean"}, default="cosine"
        Distance between the row and a masked input.
    {captum_surrogate_params}

    Attributes
    ----------
    {captum_surrogate_attributes}
    n_perturbations_ : int
        The number of masks per row used.
    segmentation_ : segmentation or None
        The fitted clone of ``segmentation``.
    {input_attributes}

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import CaptumLime
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> ex = CaptumLime(LinearRegression(), n_perturbations=100, alpha=1e-6,
    ...                 random_state=0)
    >>> ex.fit(X, X @ [2.0, -1.0, 0.5]).transform([[1.0, 2.0, 4.0]]).round(3)
    array([[ 2., -2.,  2.]])
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 2, None, closed="left")],
        "alpha": [Interval(numbers.Real, 0, None, closed="neither")],
        "kernel_width": [Interval(numbers.Real, 0, None, closed="neither")],
        "distance": [StrOptions({"cosine", "euclidean"})],
        "baseline": [numbers.Real, "array-like"],
        "segmentation": [BaseSegmentation, None],
    }

    def __init__(self, estimator=None, *, n_perturbations=25, alpha=0.01,
                 kernel_width=1.0, distance="cosine", baseline=0.0,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None, segmentation=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.alpha = alpha
        self.kernel_width = kernel_width
        self.distance = distance
        self.baseline = baseline
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.segmentation = segmentation

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = self.n_perturbations
        _check_perturbations(self.n_perturbations_, X.shape[1])
        self.baseline_ = check_feature_vector(self.baseline, X.shape[1], "baseline")
        fit_segmentation(self, X)

    def _similarity(self, Xb, Z):
        if self.distance == "cosine":
            # torch.nn.CosineSimilarity: x.z / max(||x|| ||z||, eps)
            dot = np.einsum("bd,bsd->bs", Xb, Z)
            norms = np.linalg.norm(Xb, axis=1)[:, None] * np.linalg.norm(Z, axis=2)
            dist = 1.0 - dot / np.maximum(norms, 1e-8)
        else:
            dist = np.linalg.norm(Z - Xb[:, None, :], axis=2)
        return exponential_kernel(dist, self.kernel_width)

    def _masks(self, rng, d):
        return rng.random((self.n_perturbations_, d)) < 0.5

    def _fit_surrogates(self, masks, y, weights):
        """Captum's ``SkLearnLasso``, one fit per row (coordinate descent
        has no batched form)."""
        lasso = Lasso(alpha=self.alpha, fit_intercept=True)
        return np.stack([lasso.fit(m, t, sample_weight=w).coef_
                         for m, t, w in zip(masks, y, weights)])

    def _sample_weight(self, Xb, Z):
        return self._similarity(Xb, Z)


# ---------------------------------------------------------------------------
# CaptumKernelSHAP: Captum's KernelShap (a LIME with the Shapley kernel)
# ---------------------------------------------------------------------------

#: Captum's weight of the full and the empty coalition (``KernelShap.inf_weight``).
_CAPTUM_INF_WEIGHT = 1e6


@explainer_doc("input_attributes", "regression_example", **_CAPTUM_SURROGATE_DOC,
               references=("lundberg2017", "kokhlikyan2020"))
class CaptumKernelSHAP(_CaptumMaskSurrogate):
    """Captum's KernelSHAP (``captum.attr.KernelShap``), as OpenXAI and
    BEExAI run it.

    Captum implements KernelSHAP as a LIME: for a row ``x`` the first two of
    its ``n_perturbations`` coalitions are the full and the empty one
    (weight ``1e6`` each); every other coalition draws a size ``k`` from
    ``p(k) ∝ (d - 1) / (k (d - k))``, ``0 < k < d``, then a uniformly random
    subset of that size (weight 1).  The inputs ``z = m * x + (1 - m) * b``
    (``b`` the baseline) are scored and a weighted
    :class:`~sklearn.linear_model.LinearRegression` with an intercept is
    fitted to ``f(z)`` on the masks ``m``; its coefficients are the
    attributions.  The full and empty coalitions thus enter as heavily
    weighted rows, not as constraints, and coalitions are neither paired nor
    enumerated: at a small budget (BEExAI's 25, Captum's default) the
    estimates are noisier than :class:`KernelSHAP`'s, which is what the
    published numbers of those benchmarks measure.  Use :class:`KernelSHAP`
    for Shapley values; use this class to reproduce them.

    This re-implementation works with any model (no torch module is needed)
    and scores the coalitions of a block of rows in one model call, where
    Captum evaluates one coalition per forward pass by default.  It draws
    from each row's own random stream, so its draws are Captum's in
    distribution, not in value; the surrogates are fitted in float64
    (Captum casts to float32).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_perturbations : int, default=25
        Coalitions per row, the full and the empty one included (Captum's
        ``n_samples``; its default 25, as BEExAI; OpenXAI uses 500).
    {captum_surrogate_params}

    Attributes
    ----------
    {captum_surrogate_attributes}
    n_perturbations_ : int
        The number of coalitions per row used.
    segmentation_ : segmentation or None
        The fitted clone of ``segmentation``.
    {input_attributes}

    See Also
    --------
    KernelSHAP : KernelSHAP with shap's coalition scheme and exact constraints.
    CaptumLime : Captum's LIME.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import CaptumKernelSHAP
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> ex = CaptumKernelSHAP(LinearRegression(), n_perturbations=25, random_state=0)
    >>> ex.fit(X, X @ [2.0, -1.0, 0.5]).transform([[1.0, 2.0, 4.0]]).round(6)
    array([[ 2., -2.,  2.]])
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 3, None, closed="left")],
        "baseline": [numbers.Real, "array-like"],
        "segmentation": [BaseSegmentation, None],
    }

    def __init__(self, estimator=None, *, n_perturbations=25, baseline=0.0,
                 target="predicted", output="auto", batch_size=None, random_state=None,
                 segmentation=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.baseline = baseline
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.segmentation = segmentation

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = self.n_perturbations
        _check_perturbations(self.n_perturbations_, X.shape[1])
        self.baseline_ = check_feature_vector(self.baseline, X.shape[1], "baseline")
        fit_segmentation(self, X)

    def _masks(self, rng, d):
        """The coalitions of one row: full, empty, then Captum's draws."""
        S = self.n_perturbations_
        masks = np.zeros((S, d), dtype=bool)
        masks[0] = True
        if d < 2:
            masks[2:] = True
            return masks
        sizes = np.arange(1, d)
        p = (d - 1) / (sizes * (d - sizes))
        k = rng.choice(sizes, size=S - 2, p=p / p.sum())
        # A uniformly random subset of size k: the k largest of d normals.
        order = np.argsort(-rng.standard_normal((S - 2, d)), axis=1)
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(d)[None, :].repeat(S - 2, 0), axis=1)
        masks[2:] = ranks < k[:, None]
        return masks

    def _fit_surrogates(self, masks, y, weights):
        """Captum's ``SkLearnLinearRegression`` for all rows of a block at
        once: scikit-learn's minimum-norm weighted least squares, batched."""
        return weighted_ridge(masks, y, weights, 0.0)[0]

    def _sample_weight(self, Xb, Z):
        weights = np.ones(Z.shape[:2])
        weights[:, :2] = _CAPTUM_INF_WEIGHT  # the full and the empty coalition
        return weights
