"""sklearn_xai.utils._sklearn: scikit-learn's private API behind one door."""

import numbers

import numpy as np
import pytest
from sklearn import config_context
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_xai.utils._sklearn import Interval, StrOptions, fast_validate_params

CONSTRAINTS = {
    "X": ["array-like"],
    "model": [object],
    "ratio": [Interval(numbers.Real, 0, 1, closed="both")],
    "kind": [StrOptions({"a", "b"})],
}


@fast_validate_params(CONSTRAINTS)
def _metric(X, model=None, *, ratio=0.5, kind="a"):
    """Doc kept."""
    return ratio, kind


def test_valid_calls_and_metadata_kept():
    assert _metric(np.zeros((2, 2)), ratio=1.0, kind="b") == (1.0, "b")
    assert _metric(X=[[0.0]]) == (0.5, "a")
    assert _metric.__doc__ == "Doc kept."
    assert _metric._skl_parameter_constraints is CONSTRAINTS


def test_invalid_values_raise_sklearn_errors_naming_the_parameter():
    with pytest.raises(InvalidParameterError, match="'ratio' parameter of _metric"):
        _metric([[0.0]], ratio=2.0)
    with pytest.raises(InvalidParameterError, match="'kind' parameter"):
        _metric([[0.0]], kind="c")
    with pytest.raises(InvalidParameterError, match="'X' parameter"):
        _metric(3.0)
    with pytest.raises(TypeError):
        _metric([[0.0]], None, 0.5)  # ratio is keyword-only
    with pytest.raises(TypeError):
        _metric([[0.0]], no_such=1)


def test_object_constraints_are_not_checked_and_config_skips_all():
    _metric([[0.0]], model=object())
    with config_context(skip_parameter_validation=True):
        assert _metric(3.0, ratio=2.0) == (2.0, "a")
