"""Shapley-value explainers: exact enumeration, KernelSHAP and permutation sampling.

All three estimate the Shapley values of the value function ``v_x(S)`` given
by a masker (see :ref:`def-shapley` in the user guide)::

    phi_j(x) = sum_{S not containing j} |S|! (d-|S|-1)! / d! * (v_x(S+j) - v_x(S))

* :class:`ExactShapley` enumerates all ``2^d`` coalitions;
* :class:`KernelSHAP` samples coalitions from the Shapley kernel and solves
  the constrained weighted least squares of Lundberg & Lee (2017);
* :class:`ShapleyValueSampling` averages marginal contributions along random
  feature orderings (Castro et al., 2009).

Every coalition of a block of rows is scored through one
:meth:`~sklearn_xai.masking.BaseMasker.evaluate` call, in model calls of at
most ``batch_size`` model rows (``None``: about 2**17 input entries).
"""

import numbers

import numpy as np

from sklearn_xai.explainers._docstring import deprecated_doc, explainer_doc
from sklearn_xai.explainers._masker_based import _MaskerExplainer
from sklearn_xai.explainers._params import Hidden, resolved
from sklearn_xai.masking import MarginalMasker
from sklearn_xai.utils._deprecation import DEPRECATED, switch_to_convention
from sklearn_xai.utils._shapley import all_coalitions, shapley_from_values, shapley_kernel
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["ExactShapley", "KernelSHAP", "ShapleyValueSampling"]


# --------------------------------------------------------------------------
# Pure helpers (coalition enumeration, the exact combination and the Shapley
# kernel live in sklearn_xai.utils._shapley, shared with the generators)
# --------------------------------------------------------------------------
def _constrained_wls(Z, weights, y, delta):
    """Weighted least squares ``y ~ Z @ phi`` subject to ``sum(phi) = delta``.

    The intercept is fixed at ``v(empty)`` (``y`` is ``v(S) - v(empty)``) and
    the efficiency constraint ``sum(phi) = v(full) - v(empty)`` is enforced
    exactly by eliminating the last coefficient; the rest is solved with a
    (batched) pseudo-inverse, the minimum-norm solution when the sampled
    coalitions do not determine every coefficient.

    Parameters
    ----------
    Z : ndarray of shape (n, m, d)
    weights : ndarray of shape (n, m) or (m,)
    y : ndarray of shape (n, m)
    delta : ndarray of shape (n,)

    Returns
    -------
    phi : ndarray of shape (n, d)
    """
    Z = np.asarray(Z, dtype=np.float64)
    n, m, d = Z.shape
    if d == 1:
        return np.asarray(delta, dtype=np.float64)[:, None].copy()
    sw = np.sqrt(np.broadcast_to(weights, (n, m)))[..., None]
    A = (Z[..., :-1] - Z[..., -1:]) * sw
    b = (y - Z[..., -1] * delta[:, None])[..., None] * sw
    rest = (np.linalg.pinv(A) @ b)[..., 0]
    return np.concatenate([rest, (delta - rest.sum(axis=1))[:, None]], axis=1)


def _values_with_ends(explainer, f, X, Z, target_index, rngs):
    """``v_x(empty)``, ``v_x(full)`` and ``v_x(S)`` of per-row coalitions ``Z``.

    The empty and full coalitions are put in front of ``Z`` (n, m, d) so that
    every value of a row comes from one masker call.  Returns ``v_empty``
    (n,), ``v_full`` (n,) and ``values`` (n, m).
    """
    n, _, d = Z.shape
    ends = np.zeros((2, d), dtype=bool)
    ends[1] = True
    keep = np.concatenate([np.broadcast_to(ends, (n, 2, d)), Z], axis=1)
    values = explainer.masker_.evaluate(
        f, X, keep, target_index=target_index,
        batch_size=explainer.batch_size, rngs=rngs,
    )
    return values[:, 0], values[:, 1], values[:, 2:]


def _check_n_features(explainer, d):
    if d > explainer.max_features:
        raise ValueError(
            f"{type(explainer).__name__} enumerates all 2^d coalitions, and X has "
            f"d={d} features > max_features={explainer.max_features}. Use "
            "KernelSHAP (sampled coalitions) or ShapleyValueSampling, or raise "
            "max_features if 2^d model evaluations per row are affordable."
        )


# --------------------------------------------------------------------------
# Explainers
# --------------------------------------------------------------------------
class _SampledShapley(_MaskerExplainer):
    """Shapley estimators that sample coalitions or orderings per row (from
    the row's random stream): stochastic whatever the masker."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True
        tags.non_deterministic = self.random_state is None
        return tags


@explainer_doc("explainer_target", "explainer_output", "explainer_batch_size",
               xai_bench_efficiency=deprecated_doc(
                   "xai_bench_efficiency", "bool",
                   '``convention="xai_bench_code"`` (for ``True``)'))
class ExactShapley(_MaskerExplainer):
    """Exact Shapley values by enumeration of all ``2^d`` coalitions.

    ``phi_j = sum_S |S|!(d-|S|-1)!/d! (v_x(S+j) - v_x(S))`` with ``v_x`` from
    ``masker`` (see :ref:`def-shapley` in the user guide); efficiency holds
    exactly:
    ``sum_j phi_j = f(x) - v_x(empty)``.  The ``2^d`` coalitions of a block of
    rows are scored in one masker evaluation, i.e. ``2^d * n_draws`` model
    rows per explained row.

    XAI-Bench presets: "SHAP" is the default ``MarginalMasker(100)`` (100
    training rows as interventional background); "BF-SHAP" is
    ``MarginalMasker(background=X_train[:1000])``.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    masker : masker, default=None
        The value function; ``None`` is ``MarginalMasker(100,
        random_state=random_state)``.  Cloned and fitted on the training rows.
    convention : {"paper", "xai_bench_code"}, default="paper"
        ``"paper"``: the Shapley values.  ``"xai_bench_code"`` reproduces
        XAI-Bench's BF-SHAP / ground-truth bias (its code solves the Shapley
        regression without intercept; see :ref:`def-switches-xaibench`): add
        ``v_x(empty) / d`` to every value, so that rows sum to ``f(x)``
        instead of ``f(x) - v_x(empty)``; these are not Shapley values.
    max_features : int, default=16
        Refuse inputs with more features (the cost grows as ``2^d``).
    {explainer_target}
    {explainer_output}
    {explainer_batch_size}
    random_state : int, RandomState instance or None, default=None
        Seeds the default background subsample and stochastic maskers.
    {xai_bench_efficiency}

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    masker_ : masker
        The fitted masker.
    convention_ : str
        The convention used (``convention``, or the one a deprecated switch
        names).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    See Also
    --------
    KernelSHAP : sampled coalitions, for many features.
    ShapleyValueSampling : permutation sampling.

    References
    ----------
    .. [1] L. S. Shapley, "A value for n-person games", in Contributions to
       the Theory of Games II, Annals of Mathematics Studies 28, 1953.
    .. [2] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
       Model Predictions", NeurIPS 2017.
    .. [3] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import ExactShapley
    >>> from sklearn_xai.masking import MarginalMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = ExactShapley(LinearRegression(), masker=MarginalMasker(background=X))
    >>> ex.fit(X, y).transform([[3.0, 3.0]]).round(6)  # w * (x - mean)
    array([[ 4., -2.]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "convention": [StrOptions({"paper", "xai_bench_code"})],
        "max_features": [Interval(numbers.Integral, 1, 30, closed="both")],
        "xai_bench_efficiency": ["boolean", Hidden(StrOptions({DEPRECATED}))],
    }

    def __init__(self, estimator=None, *, masker=None, convention="paper",
                 max_features=16, target="predicted", output="auto",
                 batch_size=None, random_state=None,
                 xai_bench_efficiency=DEPRECATED):
        self.estimator = estimator
        self.masker = masker
        self.convention = convention
        self.max_features = max_features
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.xai_bench_efficiency = xai_bench_efficiency

    def _default_masker(self):
        return MarginalMasker(100, random_state=self.random_state)

    def _fit_explainer(self, X, y):
        self.convention_ = switch_to_convention(
            self.convention,
            {"xai_bench_efficiency": (self.xai_bench_efficiency, "xai_bench_code")},
            owner=type(self).__name__, stacklevel=4,
        )
        _check_n_features(self, X.shape[1])
        super()._fit_explainer(X, y)

    def _explain(self, X, f, target_index, rngs):
        d = X.shape[1]
        coalitions = all_coalitions(d)
        values = self.masker_.evaluate(
            f, X, coalitions, target_index=target_index,
            batch_size=self.batch_size, rngs=rngs,
        )
        phi = shapley_from_values(values, d)
        if self.convention_ == "xai_bench_code":
            phi += values[:, :1] / d
        return phi


@explainer_doc("explainer_target", "explainer_output", "explainer_batch_size",
               "explainer_random_state",
               n_samples=deprecated_doc("n_samples", 'int or "auto"',
                                        "``n_perturbations``"))
class KernelSHAP(_SampledShapley):
    """KernelSHAP: Shapley values by weighted regression on sampled coalitions.

    Coalitions ``z`` are drawn with probability proportional to the Shapley
    kernel ``k(s) = (d-1) / (C(d,s) s (d-s))`` summed over the ``C(d,s)``
    coalitions of each size ``0 < s < d`` (so every sampled coalition gets
    the same regression weight), optionally in complementary pairs.  The
    empty and full coalitions are not sampled: they are *constraints*
    (intercept ``= v_x(empty)``, ``sum_j phi_j = f(x) - v_x(empty)``), not
    large weights (see :ref:`def-shapley`).  The weighted least squares with
    that fixed intercept is solved per row.  When ``n_perturbations`` covers
    all ``2^d - 2`` non-trivial coalitions, they are enumerated once each
    with their exact kernel weights, which gives the exact Shapley values
    (equal to :class:`ExactShapley` with the same masker).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_perturbations : int or "auto", default="auto"
        Coalitions per row (besides the empty and full ones); ``"auto"`` is
        ``2 d + 2048`` (shap's default).  OpenXAI used 500, XAI-TRIS and
        BEExAI 25.
    masker : masker, default=None
        The value function; ``None`` is ``MarginalMasker(100,
        random_state=random_state)``.  Use ``BaselineMasker("zero")`` for
        parity with Captum's ``KernelShap`` (OpenXAI, XAI-TRIS, BEExAI).
    paired : bool, default=True
        Antithetic sampling: every sampled coalition is followed by its
        complement (same kernel weight), which cancels the leading error
        term.
    {explainer_target}
    {explainer_output}
    {explainer_batch_size}
    {explainer_random_state}
        It also seeds the default background subsample.
    {n_samples}

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    masker_ : masker
        The fitted masker.
    n_perturbations_ : int or "auto"
        The number of coalitions per row used.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    See Also
    --------
    ExactShapley : exact enumeration (small ``d``).

    References
    ----------
    .. [1] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
       Model Predictions", NeurIPS 2017.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import KernelSHAP
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> y = X @ [2.0, -1.0, 0.5]
    >>> ex = KernelSHAP(LinearRegression(), n_perturbations=100,
    ...                 masker=BaselineMasker("zero"), random_state=0)
    >>> ex.fit(X, y).transform([[1.0, 1.0, 1.0]]).round(6)
    array([[ 2. , -1. ,  0.5]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left"),
                            StrOptions({"auto"})],
        "paired": ["boolean"],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                      StrOptions({"auto"}), Hidden(StrOptions({DEPRECATED}))],
    }

    def __init__(self, estimator=None, *, n_perturbations="auto", masker=None,
                 paired=True, target="predicted", output="auto", batch_size=None,
                 random_state=None, n_samples=DEPRECATED):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.masker = masker
        self.paired = paired
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.n_samples = n_samples

    def _default_masker(self):
        return MarginalMasker(100, random_state=self.random_state)

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = resolved(self, "n_samples", "n_perturbations")
        super()._fit_explainer(X, y)

    def _budget(self, d):
        m = self.n_perturbations_
        return 2 * d + 2048 if m == "auto" else int(m)

    def _sample(self, rng, d, m):
        """``m`` coalitions of sizes 1..d-1 drawn from the Shapley kernel."""
        sizes = np.arange(1, d)
        p = 1.0 / (sizes * (d - sizes))
        n_draw = -(-m // 2) if self.paired else m
        s = rng.choice(sizes, size=n_draw, p=p / p.sum())
        ranks = np.argsort(np.argsort(rng.random((n_draw, d)), axis=1), axis=1)
        z = ranks < s[:, None]
        if self.paired:
            z = np.stack([z, ~z], axis=1).reshape(-1, d)
        return z[:m]

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        m = self._budget(d)
        if d == 1:
            Z = np.zeros((n, 0, d), dtype=bool)
            weights = np.ones(0)
        elif d < 62 and m >= 2**d - 2:
            # The budget covers every coalition: enumerate with exact weights.
            Z = np.broadcast_to(all_coalitions(d)[1:-1], (n, 2**d - 2, d))
            weights = shapley_kernel(d, Z[0].sum(axis=1))
        else:
            Z = np.stack([self._sample(rng, d, m) for rng in rngs])
            weights = np.ones(m)
        v_empty, v_full, values = _values_with_ends(self, f, X, Z, target_index, rngs)
        return _constrained_wls(Z, weights, values - v_empty[:, None], v_full - v_empty)


@explainer_doc("explainer_target", "explainer_output", "explainer_batch_size",
               "explainer_random_state",
               n_samples=deprecated_doc("n_samples", "int", "``n_permutations``"))
class ShapleyValueSampling(_SampledShapley):
    """Shapley values by permutation sampling (Castro et al., 2009).

    For each of ``n_permutations`` random orderings of the features, features are
    added one at a time (starting from all removed) and each is credited with
    the change of ``v_x``; the attributions are the averages over orderings
    (Captum's ``ShapleyValueSampling``).  Rows sum exactly to
    ``f(x) - v_x(empty)``.  The ``n_permutations * (d - 1) + 2`` distinct
    coalitions of a block of rows are scored in one model call.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_permutations : int, default=25
        Number of feature orderings (XAI-TRIS and BEExAI: 25, Captum's
        default).
    masker : masker, default=None
        The value function; ``None`` is ``BaselineMasker("zero")`` (Captum).
    antithetic : bool, default=False
        Follow every ordering by its reverse (antithetic sampling).
    {explainer_target}
    {explainer_output}
    {explainer_batch_size}
    {explainer_random_state}
    {n_samples}

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    masker_ : masker
        The fitted masker.
    n_permutations_ : int
        The number of orderings per row used.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    References
    ----------
    .. [1] J. Castro, D. Gómez and J. Tejada, "Polynomial calculation of the
       Shapley value based on sampling", Computers & Operations Research
       36(5), 2009.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import ShapleyValueSampling
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = ShapleyValueSampling(LinearRegression(), n_permutations=5,
    ...                           random_state=0)
    >>> ex.fit(X, y).transform([[3.0, 3.0]]).round(6)  # additive model: exact
    array([[ 6., -3.]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "n_permutations": [Interval(numbers.Integral, 1, None, closed="left")],
        "antithetic": ["boolean"],
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                      Hidden(StrOptions({DEPRECATED}))],
    }

    def __init__(self, estimator=None, *, n_permutations=25, masker=None,
                 antithetic=False, target="predicted", output="auto",
                 batch_size=None, random_state=None, n_samples=DEPRECATED):
        self.estimator = estimator
        self.n_permutations = n_permutations
        self.masker = masker
        self.antithetic = antithetic
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.n_samples = n_samples

    def _fit_explainer(self, X, y):
        self.n_permutations_ = resolved(self, "n_samples", "n_permutations")
        super()._fit_explainer(X, y)

    def _permutations(self, rng, d):
        m = self.n_permutations_
        n_draw = -(-m // 2) if self.antithetic else m
        perms = np.argsort(rng.random((n_draw, d)), axis=1)
        if self.antithetic:
            perms = np.stack([perms, perms[:, ::-1]], axis=1).reshape(-1, d)
        return perms[:m]

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        m = self.n_permutations_
        perms = np.stack([self._permutations(rng, d) for rng in rngs])  # (n, m, d)
        # position[i, p, j] = step at which feature j enters in ordering p
        position = np.argsort(perms, axis=2)
        steps = np.arange(1, d)
        # Intermediate coalitions: first k features of each ordering, 0<k<d.
        inner = position[:, :, None, :] < steps[None, None, :, None]  # (n,m,d-1,d)
        v_empty, v_full, values = _values_with_ends(
            self, f, X, inner.reshape(n, m * (d - 1), d), target_index, rngs
        )
        path = np.concatenate(
            [
                np.broadcast_to(v_empty[:, None, None], (n, m, 1)),
                values.reshape(n, m, d - 1),
                np.broadcast_to(v_full[:, None, None], (n, m, 1)),
            ],
            axis=2,
        )  # (n, m, d+1): value after k features entered
        increments = np.diff(path, axis=2)  # increment of step k -> feature perms[k]
        contrib = np.take_along_axis(increments, position, axis=2)
        return contrib.mean(axis=1)
