"""Agreement with the exact Shapley values of the trained model: XAI-Bench's
shapley-corr and shapley-mse, and the reference they compare with
(:ref:`def-shapley-metrics` in the user guide).

The reference, :func:`exact_shapley_reference`, enumerates all ``2**d``
coalitions with :func:`~sklearn_xai.datasets.exact_shapley_values` under
the value function of a distribution (XAI-Bench's ground truth) or of any
masker; for an affine regressor it is computed in closed form.  A function
called directly computes it every time; pass it precomputed as
``reference=`` to score several explanations of the same model and rows
(the benchmark runner does, and an
:class:`~sklearn_xai.metrics.ExplanationScorer` remembers the last few it
computed).
"""

from sklearn_xai.datasets import exact_shapley_values
from sklearn_xai.metrics._common import (
    _CONVENTION_XAI_BENCH,
    _NAN_POLICY,
    _VALUE_PARAMS,
    _value_masker,
)
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references, _shared_docs
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput, affine_output
from sklearn_xai.utils._sklearn import StrOptions, fast_validate_params
from sklearn_xai.utils._stats import row_pearson
from sklearn_xai.utils._validation import check_attributions, check_rows

__all__ = ["exact_shapley_reference", "shapley_corr", "shapley_mse"]


def _shapley_values(estimator, X, *, distribution, masker, value, n_draws,
                    convention, random_state, target, output, batch_size, X_train):
    """Exact Shapley values of the explained output at the rows ``X``."""
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    vm = _value_masker(X, distribution, masker, value, n_draws, random_state,
                       X_train, exact_marginal=True)
    t = f.target_index(X)  # reads the predicted class from f(X) for classifiers
    return exact_shapley_values(
        affine_output(f, estimator, X), X, masker=vm, target_index=t,
        convention=convention, random_state=random_state, batch_size=batch_size,
    ).attributions


def _with_reference(estimator, X, attributions, *, reference, **kwargs):
    """Validated attributions and their reference (given, or computed)."""
    X = check_rows(X, allow_1d=False)
    A = check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])
    if reference is not None:
        # The explained output is still checked (target / output options).
        ExplainedOutput(estimator, target=kwargs["target"], output=kwargs["output"])
        R = check_attributions(reference, n_samples=X.shape[0], n_features=X.shape[1],
                               name="reference")
        return A, R
    return A, _shapley_values(estimator, X, **kwargs)


_REFERENCE_PARAMS = {**_VALUE_PARAMS, **_CONVENTION_XAI_BENCH}
_METRIC_PARAMS = {**_REFERENCE_PARAMS, "reference": ["array-like", None]}

_DOC_VALUE = """
value : {"observational", "interventional"}, default="observational"
    Value function with ``distribution``: ``E[f(X) | X_S = x_S]``
    (XAI-Bench's ground truth), or ``E_Z[f(x_S ⊕ Z_U)]`` with fresh
    marginal draws for every row.  Ignored when ``masker`` is given.
n_draws : int, default=1000
    Monte-Carlo draws from ``distribution`` per row and coalition of the
    reference (XAI-Bench used 20 000); unused for affine regressors
    (closed form).  In XAI-Bench's MLP setting 100 draws leave a
    reference error (0.002 in shapley-mse units) as large as good
    explainers' scores; 1000 leave 0.0002."""
_SHAPLEY_DOCS = dict(
    convention="""
convention : {"paper", "xai_bench_code"}, default="paper"
    ``"xai_bench_code"`` reproduces XAI-Bench's reference, which adds
    ``v_x(∅) / d`` to every value (its least-squares solve has no
    intercept; :ref:`def-switches-xaibench`).""",
)
_DOC_REFERENCE = _DOC_VALUE + """
reference : array-like of shape (n_samples, n_features), default=None
    Precomputed reference Shapley values (see
    :func:`exact_shapley_reference`); skips their computation, and then
    neither ``distribution`` nor ``masker`` is needed."""
_SHAPLEY_SHARED = ("random_state",)


@fast_validate_params(_REFERENCE_PARAMS, prefer_skip_nested_validation=True)
@Substitution("estimator", "X", *_SHAPLEY_SHARED, **_SHAPLEY_DOCS,
              reference_value=_DOC_VALUE,
              metric_references=_references("shapley1953", "liu2021"),
              **_shared_docs("value_function", "output_params"))
def exact_shapley_reference(estimator, X, *, distribution=None, masker=None,
                            X_train=None, value="observational", n_draws=1000,
                            convention="paper", random_state=None,
                            target="predicted", output="auto", batch_size=None):
    """Exact Shapley values of a trained model: the reference of
    :func:`shapley_corr` and :func:`shapley_mse`.

    Enumerates all ``2**d`` coalitions with
    :func:`sklearn_xai.datasets.exact_shapley_values` under the value
    function of ``distribution`` (or ``masker``); closed form for affine
    regressors.  Each call computes it; pass the result as ``reference=``
    to score several explanations of the same model and rows.  See
    :ref:`def-shapley` in the user guide.

    Parameters
    ----------
    {estimator}
    {X}
    {value_function}
    {reference_value}
    {convention}
    {random_state}
    {output_params}

    Returns
    -------
    reference : ndarray of shape (n_samples, n_features)
        The Shapley values of the explained output at each row.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import exact_shapley_reference
    >>> dist = MultivariateGaussian(mean=[1.0, 0.0], cov=np.eye(2))
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [2.0, -1.0])
    >>> exact_shapley_reference(model, [[2.0, 1.0]], distribution=dist).round(6)
    array([[ 2., -1.]])
    """
    return _shapley_values(estimator, check_rows(X, allow_1d=False), distribution=distribution,
                           masker=masker, value=value, n_draws=n_draws,
                           convention=convention, random_state=random_state,
                           target=target, output=output, batch_size=batch_size,
                           X_train=X_train)


@fast_validate_params({**_METRIC_PARAMS, **_NAN_POLICY},
                      prefer_skip_nested_validation=True)
@Substitution("nan_policy", *_SHAPLEY_SHARED, **_SHAPLEY_DOCS,
              reference=_DOC_REFERENCE, metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params",
                             "returns_correlation"))
def shapley_corr(estimator, X, attributions, *, distribution=None, masker=None,
                 X_train=None, value="observational", n_draws=1000, reference=None,
                 convention="paper", nan_policy="omit", random_state=None,
                 target="predicted", output="auto", batch_size=None):
    """Correlation with the exact Shapley values of the model (XAI-Bench shapley-corr).

    ``Pearson(a, φ(x))`` per row, signed, with ``φ`` from
    :func:`exact_shapley_reference`.  Invariant to positive rescaling of the
    attributions and to ``f → f + c``.  Costs ``2**d * n_draws`` model rows
    per row (none for affine regressors).  See :ref:`def-shapley-metrics` in
    the user guide.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {reference}
    {convention}
    {nan_policy}
    {random_state}
    {output_params}

    {returns_correlation}

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import shapley_corr
    >>> dist = MultivariateGaussian.equicorrelated(3, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [3.0, -2.0, 1.0])
    >>> shap = model.coef_ * (X[:2] - dist.mean)  # exact Shapley values
    >>> shapley_corr(model, X[:2], 2.0 * shap, distribution=dist).round(6)
    array([1., 1.])
    >>> shapley_corr(model, X[:2], -shap, distribution=dist).round(6)
    array([-1., -1.])
    """
    A, R = _with_reference(estimator, X, attributions, reference=reference,
                           distribution=distribution, masker=masker, value=value,
                           n_draws=n_draws, convention=convention,
                           random_state=random_state, target=target, output=output,
                           batch_size=batch_size, X_train=X_train)
    return row_pearson(A, R, nan_policy=nan_policy, what="shapley_corr")


@fast_validate_params({**_METRIC_PARAMS, "reduction": [StrOptions({"mean", "sum"})]},
                      prefer_skip_nested_validation=True)
@Substitution(*_SHAPLEY_SHARED, **_SHAPLEY_DOCS, reference=_DOC_REFERENCE,
              metric_references=_references("liu2021"),
              **_shared_docs("model_inputs", "value_function", "output_params"))
def shapley_mse(estimator, X, attributions, *, distribution=None, masker=None,
                X_train=None, value="observational", n_draws=1000, reference=None,
                reduction="mean", convention="paper", random_state=None,
                target="predicted", output="auto", batch_size=None):
    """Squared error to the exact Shapley values of the model (XAI-Bench shapley-mse).

    ``(1/d) sum_j (a_j - φ_j(x))**2`` per row with ``reduction="mean"``
    (XAI-Bench's code and tables: a random N(0, 1) explanation scores about
    1.1), ``sum_j (a_j - φ_j(x))**2`` with ``"sum"`` (the paper's formula).
    Registered as the loss ``neg_shapley_mse``.  See
    :ref:`def-shapley-metrics` in the user guide.

    Parameters
    ----------
    {model_inputs}
    {value_function}
    {reference}
    reduction : {"mean", "sum"}, default="mean"
        Average or sum over the features.
    {convention}
    {random_state}
    {output_params}

    Returns
    -------
    scores : ndarray of shape (n_samples,)
        Per-row squared error; lower is better.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.datasets import MultivariateGaussian
    >>> from sklearn_xai.metrics import shapley_mse
    >>> dist = MultivariateGaussian.equicorrelated(2, rho=0.0)
    >>> X = dist.sample(50, random_state=0)
    >>> model = LinearRegression().fit(X, X @ [2.0, -1.0])
    >>> shapley_mse(model, [[1.0, 1.0]], [[1.0, 0.0]], distribution=dist).round(6)
    array([1.])
    """
    A, R = _with_reference(estimator, X, attributions, reference=reference,
                           distribution=distribution, masker=masker, value=value,
                           n_draws=n_draws, convention=convention,
                           random_state=random_state, target=target, output=output,
                           batch_size=batch_size, X_train=X_train)
    sq = (A - R) ** 2
    return sq.mean(axis=1) if reduction == "mean" else sq.sum(axis=1)


# The Shapley metrics evaluate a value function (the distribution, or a
# masker fitted on the training rows) with random draws, or take a
# precomputed reference.
_NEEDS_SHAPLEY = ("masker", "distribution", "training_rows", "reference",
                  "random_state")
register_metric(
    "shapley_corr", shapley_corr, kind="model", greater_is_better=True,
    requires=_NEEDS_SHAPLEY, source="XAI-Bench",
    description="Correlation with the exact Shapley values of the model.",
)
register_metric(
    "neg_shapley_mse", shapley_mse, kind="model", greater_is_better=False,
    requires=_NEEDS_SHAPLEY, source="XAI-Bench",
    description="Mean squared error to the exact Shapley values of the model.",
)
