"""The metrics' parameter validation (sklearn_xai.utils._sklearn.
fast_validate_params checks only the arguments passed, so every default must
satisfy its own constraints)."""

import inspect

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.utils._param_validation import (
    InvalidParameterError,
    validate_parameter_constraints,
)

import sklearn_xai.metrics as metrics

VALIDATED = [
    getattr(metrics, name) for name in metrics.__all__
    if hasattr(getattr(metrics, name), "_skl_parameter_constraints")
]


def test_some_metrics_are_validated():
    names = {f.__name__ for f in VALIDATED}
    assert {"comprehensiveness", "faithfulness_correlation", "infidelity",
            "pgi"} <= names


@pytest.mark.parametrize("func", VALIDATED, ids=lambda f: f.__name__)
def test_defaults_satisfy_their_constraints(func):
    constraints = func._skl_parameter_constraints
    defaults = {
        name: p.default for name, p in inspect.signature(func).parameters.items()
        if p.default is not inspect.Parameter.empty and name in constraints
    }
    validate_parameter_constraints(constraints, defaults,
                                   caller_name=func.__qualname__)


def test_bad_arguments_raise_sklearn_errors_naming_the_parameter():
    X = np.random.default_rng(0).normal(size=(20, 3))
    model = LinearRegression().fit(X, X @ [1.0, 2.0, 3.0])
    A = np.ones((5, 3))
    with pytest.raises(InvalidParameterError, match="'ratio' parameter"):
        metrics.comprehensiveness(model, X[:5], A, ratio=1.5)
    with pytest.raises(InvalidParameterError, match="'n_subsets' parameter"):
        metrics.faithfulness_correlation(model, X[:5], A, n_subsets=1)
    with pytest.raises(InvalidParameterError, match="'X' parameter"):
        metrics.comprehensiveness(model, 3.0, A)
    with pytest.raises(TypeError):
        metrics.comprehensiveness(model, X[:5], A, no_such_parameter=1)
    # Valid calls pass, positional or keyword.
    assert metrics.comprehensiveness(model, X[:5], A, ratio=0.5).shape == (5,)
    assert metrics.comprehensiveness(estimator=model, X=X[:5],
                                     attributions=A).shape == (5,)
