"""The one module of sklearn_xai that imports scikit-learn's private API.

scikit-learn's parameter validation (``sklearn.utils._param_validation``) and
``sklearn.base._fit_context`` are private: they may change in any release
without a deprecation cycle.  Every other module of the package imports them
from here, so a scikit-learn upgrade that moves or changes them is absorbed in
one place (imbalanced-learn does the same in ``imblearn/utils/_sklearn_compat.py``).
``tests/test_layers.py`` fails if another module of the package imports a
private scikit-learn name.

Names are re-exported without a leading underscore (``fit_context`` is
``sklearn.base._fit_context``): inside sklearn_xai this module is the one
door to them.  Besides the re-exports it holds :func:`fast_validate_params`,
a faster variant of scikit-learn's ``validate_params`` decorator used by the
model-based metrics.
"""

import functools
import inspect

from sklearn import get_config
from sklearn.base import _fit_context as fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    Interval,
    InvalidParameterError,
    Options,
    StrOptions,
    make_constraint,
    validate_parameter_constraints,
    validate_params,
)

__all__ = [
    "HasMethods",
    "Hidden",
    "Interval",
    "InvalidParameterError",
    "Options",
    "StrOptions",
    "fast_validate_params",
    "fit_context",
    "make_constraint",
    "validate_parameter_constraints",
    "validate_estimator_params",
    "validate_params",
]


def fast_validate_params(parameter_constraints, *, prefer_skip_nested_validation=True):
    """scikit-learn's ``validate_params`` with the checks prepared once.

    Why a fork: scikit-learn's decorator binds the signature, applies the
    defaults and builds every constraint object again on each call.  For the
    model-based metrics, which are called many times on a few hundred rows
    (inside scorers and the benchmark runner), that overhead counted against
    the "cost per call relative to the bare model evaluations" target of
    issue #7 (``benchmarks/bench_metrics_model.py``).  On a metric-like
    signature (``_BASE_PARAMS`` of ``metrics/_common.py`` plus
    ``ratio``, ``masker`` and ``random_state``) one call costs about 130 µs
    with scikit-learn's decorator and about 10 µs with this one.

    What it checks -- the same constraints, with the same error:

    * the signature is read, and the constraint objects are built, once per
      decorated function;
    * only the arguments actually passed are checked: the defaults are
      assumed to satisfy their constraints (``tests/metrics/test_param_validation.py``
      verifies this for every validated metric);
    * parameters constrained by ``object`` or ``"no_validation"`` are not
      checked;
    * if a value satisfies none of its constraints, the arguments are bound
      to the signature and handed to scikit-learn's
      ``validate_parameter_constraints``, which raises its usual
      ``InvalidParameterError`` naming the parameter (arguments that do not
      fit the signature raise the usual ``TypeError`` when bound);
    * ``sklearn.config_context(skip_parameter_validation=True)`` turns all
      checks off.

    Differences from scikit-learn's decorator: ``prefer_skip_nested_validation``
    is accepted for compatibility but ignored (nested calls are validated
    too, and no ``config_context`` is entered), and an
    ``InvalidParameterError`` raised inside the function is not renamed after
    the caller.

    Parameters
    ----------
    parameter_constraints : dict
        Parameter name -> list of constraints, as for scikit-learn's
        ``validate_params``.
    prefer_skip_nested_validation : bool, default=True
        Ignored (see above).

    Returns
    -------
    decorator : callable
        Decorator of the function to validate; the function keeps its
        ``_skl_parameter_constraints`` attribute, as with scikit-learn.
    """

    def decorator(func):
        func._skl_parameter_constraints = parameter_constraints
        sig = inspect.signature(func)
        positional = [
            p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        compiled = {
            name: [make_constraint(c) for c in constraints]
            for name, constraints in parameter_constraints.items()
            if constraints != "no_validation" and object not in constraints
        }

        def check(name, value):
            constraints = compiled.get(name)
            return constraints is None or any(
                c.is_satisfied_by(value) for c in constraints)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if not get_config()["skip_parameter_validation"]:
                if len(args) > len(positional) or not (
                    all(check(name, value) for name, value in zip(positional, args))
                    and all(check(name, value) for name, value in kwargs.items())
                ):
                    bound = sig.bind(*args, **kwargs)
                    bound.apply_defaults()
                    validate_parameter_constraints(
                        parameter_constraints, bound.arguments,
                        caller_name=func.__qualname__)
            return func(*args, **kwargs)

        return wrapper

    return decorator


def validate_estimator_params(estimator):
    """Check an estimator's hyperparameters against its
    ``_parameter_constraints``, as scikit-learn's ``fit`` does.

    Wraps the private ``BaseEstimator._validate_params`` so that this module
    stays the only place that reaches into scikit-learn's private API.

    Parameters
    ----------
    estimator : BaseEstimator
        An estimator with a ``_parameter_constraints`` class attribute.

    Raises
    ------
    InvalidParameterError
        Naming the parameter and the accepted values.
    """
    estimator._validate_params()
