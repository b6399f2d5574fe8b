import numpy as np
import pytest
from scipy import stats
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_xai.utils._stats import UndefinedScoreWarning, handle_undefined, row_pearson


def test_row_pearson_matches_scipy_and_is_nan_for_constant_rows():
    rng = np.random.default_rng(0)
    U, V = rng.normal(size=(4, 6)), rng.normal(size=(4, 6))
    U[3] = 2.0
    r = row_pearson(U, V)
    for i in range(3):
        assert r[i] == pytest.approx(stats.pearsonr(U[i], V[i])[0])
    assert np.isnan(r[3])
    # Along the last axis of any shape; a float for two vectors.
    assert row_pearson(U[None], V[None]).shape == (1, 4)
    assert float(row_pearson(U[0], V[0])) == pytest.approx(r[0])


def test_row_pearson_nan_policy():
    U = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    V = np.array([[1.0, 2.0, 4.0], [3.0, 2.0, 1.0]])
    with pytest.warns(UndefinedScoreWarning, match="m is undefined for 1 of 2 rows"):
        assert np.isnan(row_pearson(U, V, nan_policy="omit", what="m")[1])
    assert row_pearson(U, V, nan_policy="zero")[1] == 0.0
    with pytest.raises(ValueError, match="nan_policy"):
        row_pearson(U, V, nan_policy="raise")


def test_handle_undefined_policies_and_warning_class():
    scores = np.array([0.5, 0.25, 0.75])
    undefined = np.array([False, True, False])
    with pytest.warns(UndefinedScoreWarning, match=r"\(empty mask\)") as record:
        out = handle_undefined(scores, undefined, "omit", "metric", "empty mask")
    # One class that filters for scikit-learn's, user and runtime warnings catch.
    assert issubclass(record[0].category, UndefinedMetricWarning)
    assert issubclass(record[0].category, UserWarning)
    assert issubclass(record[0].category, RuntimeWarning)
    np.testing.assert_array_equal(out, [0.5, np.nan, 0.75])
    assert scores[1] == 0.25  # the input is not modified
    np.testing.assert_array_equal(handle_undefined(scores, undefined, "zero"),
                                  [0.5, 0.0, 0.75])
    with pytest.raises(ValueError, match="undefined for 1 of 3 rows"):
        handle_undefined(scores, undefined, "raise")
    assert handle_undefined(scores, ~np.ones(3, bool), "raise") is scores
    with pytest.raises(ValueError, match="nan_policy must be"):
        handle_undefined(scores, undefined, "drop")
