"""XAI-Bench generators: Gaussian / mixture features, additive label functions.

After Liu et al. (2021).  Features ``X ~ N(mu, Sigma(rho))`` or a Gaussian mixture;
raw labels ``y_raw = sum_j psi_j(x_j) + eps`` normalised once with the
training draw's mean and standard deviation (frozen into
``label_function``).  The ground truth is the exact Shapley value of the
label function, interventional (closed form, default) or observational
(enumeration of all subsets with one-dimensional Gaussian expectations).
"""

import numbers

import numpy as np
from scipy.special import ndtr

from sklearn_xai.datasets._common import (
    _feature_names,
    _finish,
    _gaussian,
    _generator,
)
from sklearn_xai.distributions import GaussianMixture
from sklearn_xai.utils._docstring import Substitution, join_fragments, references
from sklearn_xai.utils._shapley import all_coalitions, shapley_from_values
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params
from sklearn_xai.utils._validation import check_feature_vector
from sklearn_xai.utils._validation import check_rows as _check_rows

__all__ = [
    "make_gaussian_linear",
    "make_gaussian_nonlinear_additive",
    "make_gaussian_piecewise_constant",
    "make_linear_attribution",
    "make_mixture_linear",
    "make_mixture_nonlinear_additive",
    "make_mixture_piecewise_constant",
]

_MAX_OBSERVATIONAL_FEATURES = 16


# --------------------------------------------------------------------------
# one-dimensional components psi_j with exact Gaussian expectations
# --------------------------------------------------------------------------
class _Psi:
    """A component ``psi(t)`` and its expectation under ``N(mu, var)``."""

    is_zero = False
    slope = None  # the slope when psi is linear through 0

    def expectation(self, mu, var):
        """``E[psi(T)]`` for ``T ~ N(mu, var)`` (``psi(mu)`` where ``var == 0``)."""
        mu, var = np.broadcast_arrays(np.asarray(mu, float), np.asarray(var, float))
        positive = var > 0
        sd = np.sqrt(np.where(positive, var, 1.0))
        return np.where(positive, self._expectation(mu, sd), self(mu))


class _Zero(_Psi):
    is_zero = True
    slope = 0.0

    def __call__(self, t):
        return np.zeros_like(np.asarray(t, float))

    def _expectation(self, mu, sd):
        return np.zeros_like(mu)


class _Linear(_Psi):
    def __init__(self, a):
        self.a = float(a)
        self.slope = self.a
        self.is_zero = self.a == 0.0

    def __call__(self, t):
        return self.a * np.asarray(t, float)

    def _expectation(self, mu, sd):
        return self.a * mu


class _Sine(_Psi):
    """``a sin(b t)``; ``E = a sin(b mu) exp(-b^2 var / 2)``."""

    def __init__(self, a=1.0, b=1.0):
        self.a, self.b = float(a), float(b)

    def __call__(self, t):
        return self.a * np.sin(self.b * np.asarray(t, float))

    def _expectation(self, mu, sd):
        return self.a * np.sin(self.b * mu) * np.exp(-0.5 * (self.b * sd) ** 2)


class _Abs(_Psi):
    """``a |t|`` (folded-normal mean)."""

    def __init__(self, a=1.0):
        self.a = float(a)

    def __call__(self, t):
        return self.a * np.abs(np.asarray(t, float))

    def _expectation(self, mu, sd):
        folded = sd * np.sqrt(2.0 / np.pi) * np.exp(-(mu**2) / (2.0 * sd**2)) + mu * (
            1.0 - 2.0 * ndtr(-mu / sd)
        )
        return self.a * folded


class _Square(_Psi):
    def __call__(self, t):
        return np.asarray(t, float) ** 2

    def _expectation(self, mu, sd):
        return mu**2 + sd**2


class _Exp(_Psi):
    """``a exp(b t)`` (log-normal mean)."""

    def __init__(self, a=1.0, b=1.0):
        self.a, self.b = float(a), float(b)

    def __call__(self, t):
        return self.a * np.exp(self.b * np.asarray(t, float))

    def _expectation(self, mu, sd):
        return self.a * np.exp(self.b * mu + 0.5 * (self.b * sd) ** 2)


class _Step(_Psi):
    """Piecewise constant on ``[e_k, e_{k+1})`` with ``levels[k]``."""

    def __init__(self, edges, levels):
        self.edges = np.asarray(edges, float)
        self.levels = np.asarray(levels, float)

    def __call__(self, t):
        return self.levels[np.searchsorted(self.edges, np.asarray(t, float), side="right")]

    def _expectation(self, mu, sd):
        cdf = ndtr((self.edges - mu[..., None]) / sd[..., None])
        zeros = np.zeros(mu.shape + (1,))
        probs = np.diff(np.concatenate([zeros, cdf, zeros + 1.0], axis=-1), axis=-1)
        return probs @ self.levels


class _CosineSteps(_Psi):
    """XAI-Bench ``psi_3``: ``trunc(2 cos(pi t))`` (paper) or its code variant.

    Paper: +1 where ``cos(pi t) >= 1/2``, -1 where ``cos(pi t) <= -1/2``,
    0 elsewhere (+-2 only at integers).  Code: +1 where ``cos(pi t) > -1/2``,
    -1 elsewhere.  Expectations sum normal probabilities of the periodic
    intervals ``[2k - 1/3, 2k + 1/3]`` (cos >= 1/2) and
    ``[2k + 2/3, 2k + 4/3]`` (cos <= -1/2) within ``mu +- 10 sd``.
    """

    def __init__(self, variant):
        self.variant = variant

    def __call__(self, t):
        c = np.cos(np.pi * np.asarray(t, float))
        if self.variant == "paper":
            return np.trunc(2.0 * c)
        return np.where(c > -0.5, 1.0, -1.0)

    def _expectation(self, mu, sd):
        lo = np.floor((np.min(mu - 10 * sd) - 2.0) / 2.0)
        hi = np.ceil((np.max(mu + 10 * sd) + 2.0) / 2.0)
        k2 = 2.0 * np.arange(lo, hi + 1.0)
        mu_, sd_ = mu[..., None], sd[..., None]

        def prob(a, b):
            return np.sum(ndtr((k2 + b - mu_) / sd_) - ndtr((k2 + a - mu_) / sd_), axis=-1)

        p_neg = prob(2.0 / 3.0, 4.0 / 3.0)
        if self.variant == "paper":
            return prob(-1.0 / 3.0, 1.0 / 3.0) - p_neg
        return 1.0 - 2.0 * p_neg


def _psi_functions(kind, n_features, weights, convention, task):
    """The components ``psi_j`` of a label function and its constant offset."""
    code = convention == "xai_bench_code"
    offset = 0.0
    if kind == "linear":
        psis = [_Linear(w) for w in weights]
    elif kind == "piecewise_constant":
        psis = [
            _Step([0.0], [-1.0, 1.0]),
            _Step([-0.5, 0.0, 0.5], [-2.0, 0.0 if code else -1.0, 1.0, 2.0]),
            _CosineSteps(convention),
        ]
    elif task == "classification":  # XAI-Bench code's non-linear classifier
        psis = [_Sine(-100.0, 2.0), _Abs(2.0), _Linear(1.0), _Exp(1.0, -1.0)]
        offset = -2.4
    else:
        psis = [_Sine(), _Abs(), _Square(), _Exp(1.0, -1.0 if code else 1.0)]
    psis = psis[:n_features] + [_Zero() for _ in range(n_features - len(psis))]
    return psis, offset


# --------------------------------------------------------------------------
# label function
# --------------------------------------------------------------------------
class _AdditiveLabelFunction:
    """Oracle ``h`` of an additive generator, with frozen normalisation.

    Regression: ``h(x) = (sum_j psi_j(x_j) + offset - loc) / scale`` where
    ``loc`` and ``scale`` are the mean and standard deviation (``ddof=0``) of
    the training draw's raw labels.  Classification: ``h(x) = 1[score >= 0]``
    with ``score = sum_j psi_j(x_j) + offset`` (no normalisation).
    Calling it on one row gives the same value as on a batch, unless
    ``batch_norm=True`` (XAI-Bench's per-batch z-scoring, for reproduction
    only: single rows then give NaN).

    Attributes
    ----------
    loc, scale : float
        The frozen normalisation constants.
    task : str
    distribution : MultivariateGaussian or GaussianMixture
    ground_truth_mask : ndarray of shape (n_features,), bool
        Features with a non-zero component.
    coef_, intercept_ : ndarray, float
        Only for linear regression label functions (without batch
        normalisation): ``h(x) = x @ coef_ + intercept_``.  Closed-form
        conditional expectations use them.
    """

    def __init__(self, psis, *, offset, loc, scale, task, distribution, batch_norm):
        self.psis = list(psis)
        self.offset = float(offset)
        self.loc = float(loc)
        self.scale = float(scale)
        self.task = task
        self.distribution = distribution
        self.batch_norm = bool(batch_norm)
        self.n_features = len(self.psis)

    def __repr__(self):
        return (
            f"_AdditiveLabelFunction(task={self.task!r}, n_features={self.n_features}, "
            f"loc={self.loc:.4g}, scale={self.scale:.4g})"
        )

    @property
    def ground_truth_mask(self):
        return np.array([not p.is_zero for p in self.psis])

    def _affine(self):
        if self.task != "regression" or self.batch_norm or any(
            p.slope is None for p in self.psis
        ):
            raise AttributeError(
                "only linear regression label functions are affine (coef_, intercept_)"
            )
        return np.array([p.slope for p in self.psis]) / self.scale

    @property
    def coef_(self):
        return self._affine()

    @property
    def intercept_(self):
        self._affine()
        return (self.offset - self.loc) / self.scale

    def components(self, X):
        """``psi_j(x_j)`` for every row and feature, shape (n_rows, n_features)."""
        X = _check_rows(X, self.n_features)
        out = np.zeros_like(X)
        for j, psi in enumerate(self.psis):
            if not psi.is_zero:
                out[:, j] = psi(X[:, j])
        return out

    def decision_function(self, X):
        """The continuous label: normalised regression label or class score."""
        raw = self.components(X).sum(axis=1) + self.offset
        if self.task == "classification":
            return raw
        if self.batch_norm:
            with np.errstate(invalid="ignore", divide="ignore"):
                return (raw - raw.mean()) / raw.std()
        return (raw - self.loc) / self.scale

    def __call__(self, X):
        """Noise-free labels of new rows (class labels for classification)."""
        score = self.decision_function(X)
        if self.task == "classification":
            return (score >= 0).astype(np.int64)
        return score

    def attributions(self, X, value="interventional"):
        """Exact Shapley values of :meth:`decision_function`.

        See :ref:`def-shapley` in the user guide.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        value : {"interventional", "observational"}, default="interventional"
            ``"interventional"``: ``(psi_j(x_j) - E[psi_j(X_j)]) / scale`` in
            closed form.  ``"observational"``: enumeration of all ``2**d``
            subsets with ``E[h(X) | x_S] = sum_j E[psi_j(X_j) | x_S]``, each
            term a one-dimensional Gaussian (mixture: posterior-weighted)
            expectation; at most 16 features.

        Returns
        -------
        attributions : ndarray of shape (n_rows, n_features)
        """
        X = _check_rows(X, self.n_features)
        comps = self.components(X)
        d = self.n_features
        dist = self.distribution
        if value == "interventional":
            log_w, means, _, covs = dist._parts(X[:1], np.zeros(d, dtype=bool), True)
            weights, var = np.exp(log_w[0]), np.diagonal(covs, axis1=1, axis2=2)
            expect = np.array([
                weights @ psi.expectation(means[0, :, j], var[:, j]) for j, psi in
                enumerate(self.psis)
            ])
            return (comps - expect) / self.scale
        if value != "observational":
            raise ValueError(
                f"value must be 'interventional' or 'observational'; got {value!r}."
            )
        if d > _MAX_OBSERVATIONAL_FEATURES:
            raise ValueError(
                f"observational ground truth enumerates 2**n_features subsets; "
                f"n_features={d} > {_MAX_OBSERVATIONAL_FEATURES}. Use "
                "gt_value='interventional' (closed form) for this many features."
            )
        active = self.ground_truth_mask
        masks = all_coalitions(d)
        values = np.empty((X.shape[0], masks.shape[0]))
        for k, mask in enumerate(masks):
            v = comps[:, mask].sum(axis=1)
            free = np.flatnonzero(~mask)
            if active[free].any():
                log_w, means, _, covs = dist._parts(X, mask, False)
                weights, var = np.exp(log_w), np.diagonal(covs, axis1=1, axis2=2)
                for pos, j in enumerate(free):
                    if active[j]:
                        e = self.psis[j].expectation(means[:, :, pos], var[None, :, pos])
                        v = v + np.sum(weights * e, axis=1)
            values[:, k] = v
        return shapley_from_values(values, d) / self.scale


class _AffineFunction:
    """``f(x) = x @ coef_ + intercept_``, callable, exposing ``coef_``."""

    def __init__(self, coef, intercept=0.0):
        self.coef_ = np.array(coef, dtype=np.float64, copy=True)
        self.coef_.flags.writeable = False
        self.intercept_ = float(intercept)

    def __call__(self, X):
        return _check_rows(X, self.coef_.size) @ self.coef_ + self.intercept_

    def __repr__(self):
        return f"_AffineFunction(n_features={self.coef_.size})"


# --------------------------------------------------------------------------
# generators
# --------------------------------------------------------------------------
_DESCR = {
    "linear": "psi_j(t) = w_j t (default w_j = d - j)",
    "piecewise_constant": (
        "psi_1 = sign step at 0; psi_2 = 4-level step with breaks -0.5, 0, 0.5; "
        "psi_3 = trunc(2 cos(pi t)); psi_j = 0 for j >= 4"
    ),
    "nonlinear_additive": (
        "psi_1 = sin t, psi_2 = |t|, psi_3 = t^2, psi_4 = exp(t); psi_j = 0 for j >= 5"
    ),
}


def _descr(kind, mixture, params):
    features = (
        f"Gaussian mixture with {params['n_components']} components (per-row component)"
        if mixture else "multivariate Gaussian N(mean, Sigma)"
    )
    return (
        f"XAI-Bench synthetic data ({kind.replace('_', ' ')} label function).\n\n"
        f"Features: {params['n_features']} from a {features}; rho={params['rho']}.\n"
        f"Label: y_raw = sum_j psi_j(x_j) + eps, eps ~ N(0, {params['noise']}^2); "
        f"{_DESCR[kind]} (convention={params['convention']!r}).\n"
        f"Task: {params['task']} (regression labels normalised with the frozen "
        "mean and std of this draw's raw labels).\n"
        f"Ground truth: exact {params['gt_value']} Shapley values of the label "
        "function.\n"
        "Source: Liu et al., Synthetic Benchmarks for Scientific Research in "
        "Explainable Machine Learning, NeurIPS Datasets & Benchmarks 2021."
    )


def _make_additive(kind, features, *, n_samples, n_features, rho, cov, noise, task,
                   gt_value, convention, shuffle, random_state, return_X_y, as_frame,
                   weights=None, mean=0.0, component_weights=None,
                   component_means=None):
    """Shared core of the six XAI-Bench generators.

    ``kind`` is the label function (``"linear"`` uses ``weights``) and
    ``features`` the feature distribution (``"gaussian"`` uses ``mean``,
    ``"mixture"`` ``component_weights`` and ``component_means``).
    ``convention="xai_bench_code"`` selects XAI-Bench's label functions and
    its per-batch label normalisation; ``convention`` is recorded.
    """
    code = convention == "xai_bench_code"
    parameters = dict(n_samples=n_samples)
    if kind == "linear":
        weights = parameters["weights"] = _default_weights(weights, n_features)
    if features == "mixture":
        distribution = _mixture(n_features, component_weights, component_means,
                                rho, cov)
        parameters.update(component_weights=distribution.weights,
                          component_means=distribution.means, rho=rho,
                          cov=distribution.covs[0])
    else:
        distribution = _gaussian(n_features, mean, rho, cov)
        parameters.update(mean=distribution.mean, rho=rho, cov=distribution.cov)
    parameters["random_state"] = random_state
    rng = _generator(random_state)
    d = distribution.n_features
    psis, offset = _psi_functions(kind, d, weights, convention, task)
    X = distribution.sample(n_samples, rng)
    raw = sum(psi(X[:, j]) for j, psi in enumerate(psis)) + offset
    raw = raw + noise * rng.standard_normal(n_samples)
    if task == "regression":
        loc, scale = float(raw.mean()), float(raw.std())
        if not scale > 0:
            raise ValueError(
                "the raw labels of this draw are constant, so they cannot be "
                "normalised; use n_samples >= 2 and a non-constant label function "
                "(non-zero weights or noise > 0)."
            )
        y = (raw - loc) / scale
    else:
        loc, scale = 0.0, 1.0
        y = (raw >= 0).astype(np.int64)
    label_function = _AdditiveLabelFunction(
        psis, offset=offset, loc=loc, scale=scale, task=task,
        distribution=distribution, batch_norm=code,
    )
    if gt_value == "observational" and d > _MAX_OBSERVATIONAL_FEATURES:
        raise ValueError(
            f"gt_value='observational' enumerates 2**n_features subsets; "
            f"n_features={d} > {_MAX_OBSERVATIONAL_FEATURES}. Use "
            "gt_value='interventional'."
        )
    ground_truth = label_function.attributions(X, gt_value)
    mask = np.tile(label_function.ground_truth_mask, (n_samples, 1))
    mixture = isinstance(distribution, GaussianMixture)
    parameters = dict(parameters, n_features=d, task=task, convention=convention,
                      gt_value=gt_value, noise=noise,
                      n_components=distribution.n_components)
    result, _ = _finish(
        X=X, y=y, ground_truth=ground_truth, ground_truth_mask=mask,
        distribution=distribution, label_function=label_function,
        feature_names=_feature_names(d), descr=_descr(kind, mixture, parameters),
        parameters=parameters, rng=rng, shuffle=shuffle, return_X_y=return_X_y,
        as_frame=as_frame,
    )
    return result


def _default_weights(weights, n_features):
    if weights is None:
        return np.arange(n_features - 1, -1, -1, dtype=np.float64)
    return check_feature_vector(weights, n_features, "weights", scalar=False)


def _mixture(n_features, component_weights, component_means, rho, cov):
    """The XAI-Bench mixture: default two components at +1 and -1, equal weights."""
    base = _gaussian(n_features, 0.0, rho, cov)
    if component_means is None:
        means = np.stack([np.ones(n_features), -np.ones(n_features)])
    else:
        means = np.array(component_means, dtype=np.float64, copy=True)
        if means.ndim != 2 or means.shape[1] != n_features or means.shape[0] < 1:
            raise ValueError(
                "component_means must have shape (n_components, n_features) with "
                f"n_features={n_features}; got shape {means.shape}."
            )
    K = means.shape[0]
    if component_weights is None:
        weights = np.full(K, 1.0 / K)
    else:
        weights = np.array(component_weights, dtype=np.float64, copy=True)
        if weights.shape != (K,):
            raise ValueError(
                f"component_weights must have one entry per component ({K}); got "
                f"shape {weights.shape}."
            )
    return GaussianMixture(weights, means, base.cov)


_COMMON_CONSTRAINTS = {
    "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
    "n_features": [Interval(numbers.Integral, 1, None, closed="left")],
    "rho": [Interval(numbers.Real, -1, 1, closed="neither")],
    "cov": ["array-like", None],
    "noise": [Interval(numbers.Real, 0, None, closed="left")],
    "task": [StrOptions({"regression", "classification"})],
    "convention": [StrOptions({"paper", "xai_bench_code"})],
    "gt_value": [StrOptions({"interventional", "observational"})],
    "shuffle": ["boolean"],
    "random_state": ["random_state"],
    "return_X_y": ["boolean"],
    "as_frame": ["boolean"],
}
_GAUSSIAN_CONSTRAINTS = dict(_COMMON_CONSTRAINTS, mean=[numbers.Real, "array-like"])
_MIXTURE_CONSTRAINTS = dict(
    _COMMON_CONSTRAINTS,
    component_weights=["array-like", None],
    component_means=["array-like", None],
)
_WEIGHTS_CONSTRAINT = {"weights": ["array-like", None]}


# Docstring fragments of the six XAI-Bench generators, which :func:`_sections`
# puts together (inserted by sklearn_xai.utils._docstring.Substitution).
_DOCS = {
    "weights": """
        weights : array-like of shape (n_features,), default=None
            Coefficients ``w`` (default ``w_j = d - j``, e.g. 4, 3, 2, 1, 0).""",
    "features_gaussian": """
        mean : float or array-like of shape (n_features,), default=0.0
            Mean of the features.
        rho : float, default=0.0
            Common correlation of the equicorrelated covariance
            ``(1 - rho) I + rho 11'``; must satisfy ``-1/(n_features-1) < rho < 1``
            (XAI-Bench sweeps 0, 0.25, 0.5, 0.75, 0.99).
        cov : array-like of shape (n_features, n_features), default=None
            A covariance used instead of ``rho`` (then leave ``rho=0``).""",
    "features_mixture": """
        component_weights : array-like of shape (n_components,), default=None
            Component probabilities ``pi_c`` (default: equal).
        component_means : array-like of shape (n_components, n_features), default=None
            Component means (default: two components at ``+1`` and ``-1``).
        rho : float, default=0.0
            Common correlation of every component's equicorrelated covariance;
            must satisfy ``-1/(n_features-1) < rho < 1``.
        cov : array-like of shape (n_features, n_features), default=None
            A covariance shared by the components, used instead of ``rho``.""",
    "noise_task": """
        noise : float, default=0.01
            Standard deviation of the additive label noise ``eps``.
        task : {"regression", "classification"}, default="regression"
            Classification thresholds the raw score at 0 (XAI-Bench code
            variant); its ground truth explains the latent score.""",
    "convention": """
        convention : {"paper", "xai_bench_code"}, default="paper"
            ``"paper"``: the published label functions, normalised once with
            this draw's statistics.  ``"xai_bench_code"``: what XAI-Bench's
            code computes, needed to reproduce its tables (see
            :ref:`def-switches-xaibench` in the user guide): its label
            functions (where they differ from the paper) and a
            ``label_function`` that z-scores every batch by its own mean and
            std (a single row then gives NaN; reproduction only).""",
    "convention_linear": """
        convention : {"paper", "xai_bench_code"}, default="paper"
            ``"paper"``: labels normalised once with this draw's statistics.
            ``"xai_bench_code"``: XAI-Bench's code, needed to reproduce its
            tables (see :ref:`def-switches-xaibench` in the user guide): a
            ``label_function`` that z-scores every batch by its own mean and
            std (a single row then gives NaN; reproduction only).""",
    "options": """
        gt_value : {"interventional", "observational"}, default="interventional"
            Value function of the ground-truth Shapley values of the label
            function: closed form, or exact enumeration (at most 16 features).
        shuffle : bool, default=True
            Shuffle the rows (and the ground truth with them).
        random_state : int, RandomState instance or None, default=None
            Seed of the draw.
        return_X_y : bool, default=False
            Return ``(X, y)`` instead of a Bunch.
        as_frame : bool, default=False
            Return ``data`` (and the ground truth) as DataFrames and
            ``target`` as a Series.""",
    "returns": """
        Returns
        -------
        data : Bunch
            ``data`` (n_samples, n_features), ``target`` (n_samples,), ``ground_truth``
            (n_samples, n_features) exact Shapley values of the label function,
            ``ground_truth_mask`` (features with a non-zero component),
            ``distribution`` (the feature law, with exact conditionals),
            ``label_function`` (frozen oracle; ``label_function.attributions(X)``
            gives the ground truth of new rows), ``feature_names``,
            ``feature_info``, ``DESCR``, ``parameters``.
        (X, y) : tuple if ``return_X_y`` is True.""",
}


def _sections(*names):
    """The Parameters, Returns and References sections of a generator.

    Parameters
    ----------
    *names : str
        The fragments of :data:`_DOCS` that document the generator's
        parameters after ``n_samples`` and ``n_features``, in order.

    Returns
    -------
    text : str
        The sections, flush left (the ``xaibench_sections`` placeholder).
    """
    return join_fragments(
        """
        Parameters
        ----------
        n_samples : int, default=1000
            Number of rows.
        n_features : int, default=5
            Number of features.""",
        *(_DOCS[name] for name in names), "", _DOCS["returns"], "",
        references("liu2021"))


@validate_params(dict(_GAUSSIAN_CONSTRAINTS, **_WEIGHTS_CONSTRAINT),
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "weights", "features_gaussian", "noise_task", "convention_linear", "options"))
def make_gaussian_linear(n_samples=1000, n_features=5, *, weights=None, mean=0.0,
                         rho=0.0, cov=None, noise=0.01, task="regression",
                         convention="paper", gt_value="interventional", shuffle=True,
                         random_state=None, return_X_y=False, as_frame=False):
    """Gaussian features with a linear label (XAI-Bench).

    ``y = (w'x + eps - m) / s`` with ``m``, ``s`` frozen on this draw.

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_gaussian_linear
    >>> data = make_gaussian_linear(n_samples=200, rho=0.5, random_state=0)
    >>> data.data.shape, data.ground_truth.shape
    ((200, 5), (200, 5))
    >>> data.ground_truth_mask[0].tolist()
    [True, True, True, True, False]
    """
    return _make_additive(
        "linear", "gaussian", n_samples=n_samples, n_features=n_features,
        weights=weights, mean=mean, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(_GAUSSIAN_CONSTRAINTS,
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "features_gaussian", "noise_task", "convention", "options"))
def make_gaussian_piecewise_constant(n_samples=1000, n_features=5, *, mean=0.0,
                                     rho=0.0, cov=None, noise=0.01, task="regression",
                                     convention="paper", gt_value="interventional",
                                     shuffle=True, random_state=None,
                                     return_X_y=False, as_frame=False):
    """Gaussian features with a piecewise-constant label (XAI-Bench).

    Only the first three features matter: ``psi_1`` = +-1 step at 0,
    ``psi_2`` = four levels -2, -1, 1, 2 with breaks -0.5, 0, 0.5,
    ``psi_3 = trunc(2 cos(pi t))``.

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_gaussian_piecewise_constant
    >>> X, y = make_gaussian_piecewise_constant(n_samples=100, random_state=0,
    ...                                         return_X_y=True)
    >>> X.shape, abs(round(float(y.mean()), 10)), round(float(y.std()), 10)
    ((100, 5), 0.0, 1.0)
    """
    return _make_additive(
        "piecewise_constant", "gaussian", n_samples=n_samples, n_features=n_features,
        mean=mean, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(_GAUSSIAN_CONSTRAINTS,
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "features_gaussian", "noise_task", "convention", "options"))
def make_gaussian_nonlinear_additive(n_samples=1000, n_features=5, *, mean=0.0,
                                     rho=0.0, cov=None, noise=0.01, task="regression",
                                     convention="paper", gt_value="interventional",
                                     shuffle=True, random_state=None,
                                     return_X_y=False, as_frame=False):
    """Gaussian features with a non-linear additive label (XAI-Bench).

    ``psi_1 = sin``, ``psi_2 = |.|``, ``psi_3 = (.)^2``, ``psi_4 = exp``
    (``exp(-t)`` with ``convention="xai_bench_code"``); later features do
    not matter.

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_gaussian_nonlinear_additive
    >>> data = make_gaussian_nonlinear_additive(n_samples=50, random_state=0)
    >>> data.ground_truth_mask[0].tolist()
    [True, True, True, True, False]
    >>> bool(abs(data.label_function(data.data[:1])[0] - data.label_function(data.data)[0]) < 1e-12)
    True
    """
    return _make_additive(
        "nonlinear_additive", "gaussian", n_samples=n_samples, n_features=n_features,
        mean=mean, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(dict(_MIXTURE_CONSTRAINTS, **_WEIGHTS_CONSTRAINT),
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "weights", "features_mixture", "noise_task", "convention_linear", "options"))
def make_mixture_linear(n_samples=1000, n_features=5, *, weights=None,
                        component_weights=None, component_means=None, rho=0.0,
                        cov=None, noise=0.01, task="regression", convention="paper",
                        gt_value="interventional", shuffle=True, random_state=None,
                        return_X_y=False, as_frame=False):
    """Gaussian-mixture features with a linear label (XAI-Bench).

    Each row draws its own component (XAI-Bench's code drew one component
    per batch).

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_mixture_linear
    >>> data = make_mixture_linear(n_samples=1000, random_state=0)
    >>> data.distribution
    GaussianMixture(n_components=2, n_features=5)
    >>> bool(abs((data.data.mean(axis=1) > 0).mean() - 0.5) < 0.05)
    True
    """
    return _make_additive(
        "linear", "mixture", n_samples=n_samples, n_features=n_features,
        weights=weights, component_weights=component_weights,
        component_means=component_means, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(_MIXTURE_CONSTRAINTS,
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "features_mixture", "noise_task", "convention", "options"))
def make_mixture_piecewise_constant(n_samples=1000, n_features=5, *,
                                    component_weights=None, component_means=None,
                                    rho=0.0, cov=None, noise=0.01, task="regression",
                                    convention="paper", gt_value="interventional",
                                    shuffle=True, random_state=None, return_X_y=False,
                                    as_frame=False):
    """Gaussian-mixture features with the piecewise-constant label (XAI-Bench).

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_mixture_piecewise_constant
    >>> data = make_mixture_piecewise_constant(n_samples=100, random_state=0)
    >>> data.data.shape, data.distribution.n_components
    ((100, 5), 2)
    """
    return _make_additive(
        "piecewise_constant", "mixture", n_samples=n_samples, n_features=n_features,
        component_weights=component_weights,
        component_means=component_means, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(_MIXTURE_CONSTRAINTS,
                 prefer_skip_nested_validation=True)
@Substitution(xaibench_sections=_sections(
    "features_mixture", "noise_task", "convention", "options"))
def make_mixture_nonlinear_additive(n_samples=1000, n_features=5, *,
                                    component_weights=None, component_means=None,
                                    rho=0.0, cov=None, noise=0.01, task="regression",
                                    convention="paper", gt_value="interventional",
                                    shuffle=True, random_state=None, return_X_y=False,
                                    as_frame=False):
    """Gaussian-mixture features with the non-linear additive label (XAI-Bench).

    {xaibench_sections}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_mixture_nonlinear_additive
    >>> data = make_mixture_nonlinear_additive(n_samples=100, gt_value="observational",
    ...                                        random_state=0)
    >>> import numpy as np
    >>> resid = data.ground_truth.sum(axis=1) - data.label_function(data.data)
    >>> bool(np.ptp(resid) < 1e-8)  # efficiency: sum = h(x) - E[h(X)]
    True
    """
    return _make_additive(
        "nonlinear_additive", "mixture", n_samples=n_samples, n_features=n_features,
        component_weights=component_weights,
        component_means=component_means, rho=rho, cov=cov, noise=noise,
        task=task, gt_value=gt_value, convention=convention,
        shuffle=shuffle, random_state=random_state, return_X_y=return_X_y,
        as_frame=as_frame,
    )


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_features": [Interval(numbers.Integral, 1, None, closed="left")],
        "weights": ["array-like", None],
        "mean": [numbers.Real, "array-like"],
        "rho": [Interval(numbers.Real, -1, 1, closed="neither")],
        "cov": ["array-like", None],
        "noise": [Interval(numbers.Real, 0, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
        "as_frame": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def make_linear_attribution(n_samples=1000, n_features=5, *, weights=None, mean=0.0,
                            rho=0.0, cov=None, noise=0.0, shuffle=True,
                            random_state=None, return_X_y=False, as_frame=False):
    """Linear target with exact per-row attributions.

    ``y = w'x + eps`` with Gaussian features; ground truth
    ``g_ij = w_j (x_ij - mu_j)``, the exact Shapley value of ``x -> w'x``
    under every value function when features are independent (and its
    interventional Shapley value otherwise; see :ref:`def-shapley` in the
    user guide).

    Parameters
    ----------
    n_samples : int, default=1000
        Number of rows.
    n_features : int, default=5
        Number of features.
    weights : array-like of shape (n_features,), default=None
        Coefficients ``w`` (default: i.i.d. standard normal draws).
    mean : float or array-like of shape (n_features,), default=0.0
        Mean ``mu`` of the features.
    rho : float, default=0.0
        Common correlation of the equicorrelated covariance.
    cov : array-like of shape (n_features, n_features), default=None
        A covariance used instead of ``rho``.
    noise : float, default=0.0
        Standard deviation of additive noise on ``y`` (not on the ground
        truth).
    shuffle : bool, default=True
        Shuffle the rows.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw (and of the default weights).
    return_X_y : bool, default=False
        Return ``(X, y)``.
    as_frame : bool, default=False
        Return pandas objects.

    Returns
    -------
    data : Bunch
        ``data``, ``target``, ``ground_truth``, ``ground_truth_mask`` (``w != 0``),
        ``distribution``, ``label_function`` (``x -> w'x``, exposing
        ``coef_`` and ``intercept_``), ``coef`` (``w``), ``feature_names``,
        ``feature_info``, ``DESCR``, ``parameters``.
    (X, y) : tuple if ``return_X_y`` is True.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import make_linear_attribution
    >>> data = make_linear_attribution(n_samples=5, n_features=3,
    ...                                weights=[1.0, -2.0, 0.0], random_state=0)
    >>> np.allclose(data.ground_truth, data.data * [1.0, -2.0, 0.0])
    True
    """
    rng = _generator(random_state)
    dist = _gaussian(n_features, mean, rho, cov)
    if weights is None:
        weights = rng.standard_normal(n_features)
    weights = check_feature_vector(weights, n_features, "weights", scalar=False)
    X = dist.sample(n_samples, rng)
    y = X @ weights + noise * rng.standard_normal(n_samples)
    parameters = dict(n_samples=n_samples, n_features=n_features, weights=weights,
                      mean=dist.mean, rho=rho, cov=dist.cov, noise=noise,
                      random_state=random_state)
    descr = (
        "Linear attribution benchmark: y = w'x + eps with Gaussian "
        "features; ground truth g_ij = w_j (x_ij - mu_j), the exact Shapley value "
        "of the linear model (every value function for independent features, "
        "interventional otherwise)."
    )
    result, _ = _finish(
        X=X, y=y, ground_truth=(X - dist.mean) * weights,
        ground_truth_mask=np.tile(weights != 0, (n_samples, 1)), distribution=dist,
        label_function=_AffineFunction(weights), feature_names=_feature_names(n_features),
        descr=descr, parameters=parameters, rng=rng, shuffle=shuffle,
        return_X_y=return_X_y, as_frame=as_frame, coef=weights.copy(),
    )
    return result
