"""Conditional Shapley values with estimated conditionals (Aas et al., 2021).

:class:`EmpiricalConditionalSHAP` is XAI-Bench's "SHAPR": the
value of a coalition is a kernel-weighted average of the model over training
rows whose removed features are spliced into ``x``, with weights from a
Mahalanobis distance on the kept features
(:class:`~sklearn_xai.masking.EmpiricalConditionalMasker`); the Shapley
values are the weighted least squares fit over all ``2^d`` coalitions.
``method="gaussian"`` draws the removed features from a Gaussian fitted to
the training rows instead (Aas et al.'s "gaussian" approach,
:class:`~sklearn_xai.masking.GaussianConditionalMasker`).
"""

import numbers

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._shapley import _check_n_features
from sklearn_xai.masking import EmpiricalConditionalMasker, GaussianConditionalMasker
from sklearn_xai.utils._shapley import all_coalitions, shapley_kernel
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["EmpiricalConditionalSHAP"]

# Kernel weight of the empty and full coalitions in SHAPR's regression.
_END_WEIGHT = 1e4


def _shapr_projection(coalitions, end_weight=_END_WEIGHT):
    """Matrix ``P`` (d + 1, 2^d): ``[phi, phi_0] = P @ v`` (WLS with intercept).

    Design ``[z, 1]`` over all coalitions, Shapley-kernel weights
    ``(d-1) / (C(d,s) s (d-s))`` and ``end_weight`` for the empty and full
    coalitions (Aas et al.; XAI-Bench uses 1e4).
    """
    d = coalitions.shape[1]
    size = coalitions.sum(axis=1).astype(np.float64)
    inner = (size > 0) & (size < d)
    w = np.full(size.shape, end_weight)
    w[inner] = shapley_kernel(d, size[inner])
    design = np.column_stack([coalitions.astype(np.float64), np.ones(len(size))])
    gram = design.T @ (w[:, None] * design)
    return np.linalg.solve(gram, design.T * w)


@explainer_doc("explainer_output_params", "input_attributes", "regression_example",
               references=("aas2021", "liu2021"))
class EmpiricalConditionalSHAP(BaseExplainer):
    """Conditional Shapley values with empirical (kernel-weighted) conditionals.

    XAI-Bench's "SHAPR", after the "empirical" method of Aas, Jullum &
    Løland (2021); see :ref:`def-shapley` in the user guide.  For each
    coalition ``S`` and training row
    ``z_i``::

        D_i(S)^2 = (x_S - z_S)^T pinv(Sigma_S) (x_S - z_S) / |S|
        w_i(S)   = exp(-D_i(S)^2 / (2 sigma^2))
        v_x(S)   = sum_i w_i f(x_S + z_{i, not S}) / sum_i w_i

    with ``Sigma_S`` the sample covariance of the training rows on ``S``:
    the value function of
    :class:`~sklearn_xai.masking.EmpiricalConditionalMasker`.
    The Shapley values are the weighted least squares fit of ``v_x`` on the
    coalition indicators **with an intercept**, over all ``2^d`` coalitions,
    Shapley-kernel weights and weight ``1e4`` for the empty and full
    coalitions (so rows sum to ``f(x) - v_x(empty)`` up to that
    approximation).  All ``2^d x n_background`` model rows of a block of
    instances go to the model in one call (XAI-Bench evaluates one row at a
    time).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    method : {"empirical", "gaussian"}, default="empirical"
        ``"empirical"``: the kernel-weighted training rows above;
        ``"gaussian"``: ``v_x(S)`` is the Monte-Carlo mean of ``f`` over
        ``n_draws`` draws of the removed features from the conditional of a
        Gaussian fitted to the training rows.
    sigma : float, default=0.4
        Kernel bandwidth (XAI-Bench tuned it over {0.1, 0.2, 0.4, 0.8}).
    convention : {"paper", "xai_bench_code"}, default="paper"
        ``"paper"``: the Mahalanobis kernel for every coalition (Aas et
        al.).  ``"xai_bench_code"``: coalitions with ``|S| <= 1`` use
        uniform weights (plain marginal averaging), as XAI-Bench's code
        (see :ref:`def-switches-xaibench`).
    max_background : int or None, default=None
        Use at most this many training rows (drawn without replacement with
        ``random_state``); ``None`` uses all (XAI-Bench: 1000).
    n_draws : int, default=1000
        Draws per coalition for ``method="gaussian"`` (ignored otherwise).
    max_features : int, default=12
        Refuse inputs with more features (the cost grows as ``2^d``).
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the background subsample and the Gaussian draws.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    background_ : ndarray of shape (n_background, n_features)
        Training rows used as donors ("empirical").
    covariance_ : ndarray of shape (n_features, n_features)
        Their sample covariance.
    masker_ : EmpiricalConditionalMasker or GaussianConditionalMasker
        The fitted masker giving ``v_x`` (the Gaussian one for
        ``method="gaussian"``, fitted on ``background_``).
    convention_ : str
        The convention used.
    n_draws_ : int
        The number of draws per coalition used.
    {input_attributes}

    See Also
    --------
    ExactShapley : exact Shapley values of a chosen masker.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import EmpiricalConditionalSHAP
    >>> X = np.random.default_rng(0).normal(size=(500, 2))
    >>> y = X @ [2.0, -1.0]
    >>> ex = EmpiricalConditionalSHAP(LinearRegression()).fit(X, y)
    >>> phi = ex.transform([[1.0, 1.0]])
    >>> bool(np.abs(phi - [[2.0, -1.0]]).max() < 0.2)  # close to w * (x - mean)
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "method": [StrOptions({"empirical", "gaussian"})],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "convention": [StrOptions({"paper", "xai_bench_code"})],
        "max_background": [Interval(numbers.Integral, 2, None, closed="left"), None],
        "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_features": [Interval(numbers.Integral, 1, 20, closed="both")],
    }

    def __init__(self, estimator=None, *, method="empirical", sigma=0.4,
                 convention="paper", max_background=None, n_draws=1000,
                 max_features=12, target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.method = method
        self.sigma = sigma
        self.convention = convention
        self.max_background = max_background
        self.n_draws = n_draws
        self.max_features = max_features
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = self.method == "gaussian"
        tags.non_deterministic = tags.explainer_tags.stochastic and self.random_state is None
        return tags

    def _fit_explainer(self, X, y):
        self.convention_ = self.convention
        self.n_draws_ = self.n_draws
        n, d = X.shape
        _check_n_features(self, d)
        if n < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least 2 training rows to estimate "
                f"a covariance; got n_samples={n}."
            )
        donors = EmpiricalConditionalMasker(
            self.sigma, max_background=self.max_background,
            uniform_small_coalitions=self.convention_ == "xai_bench_code",
            random_state=self.random_state,
        ).fit(X)
        self.background_ = donors.background_
        self.covariance_ = donors.covariance_
        self._projection = _shapr_projection(all_coalitions(d))
        if self.method == "gaussian":
            # The number of draws is the masker's first parameter.
            self.masker_ = GaussianConditionalMasker(self.n_draws_).fit(
                self.background_)
        else:
            self.masker_ = donors

    def _explain(self, X, f, target_index, rngs):
        d = X.shape[1]
        coalitions = all_coalitions(d)
        batch_size = self.batch_size
        if self.method == "gaussian":
            values = self.masker_.evaluate(f, X, coalitions, target_index=target_index,
                                           batch_size=batch_size, rngs=rngs)
        else:
            # v_x(full) = f(x): one model row, evaluated in the call of the
            # row's other coalitions (2^d - 1 coalitions x n_background rows).
            fx, rest = self.masker_.evaluate(
                f, X, coalitions[:-1], target_index=target_index,
                batch_size=batch_size, include_x=True,
            )
            values = np.column_stack([rest, fx])
        return values @ self._projection[:d].T
