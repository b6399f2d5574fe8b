"""Tests of the metrics of the attributions alone (entropy complexity, Gini
sparseness) against hand-computed values."""

import numpy as np
import pytest

from sklearn_xai.metrics import complexity, sparseness
from sklearn_xai.metrics._registry import get_metric_spec


def test_complexity_values():
    A = np.array([[0.0, 0.0, 2.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    out = complexity(A)
    np.testing.assert_allclose(out[:3], [0.0, 1.0, np.log(2) / np.log(3)])
    assert np.isnan(out[3])
    np.testing.assert_allclose(complexity(A[:3], normalize="none"),
                               [0, np.log(3), np.log(2)])
    be = complexity(A[1:2], convention="beexai_code")
    assert be[0] == pytest.approx(np.log(3) / 3, rel=1e-6)
    # Scale invariance.
    np.testing.assert_allclose(complexity(7.0 * A[:3]), out[:3])


def test_complexity_beexai_code_hand_computed():
    # BEExAI: P = |a| / (sum |a| + 1e-8), -sum P log(P + 1e-8) / d; an
    # all-zero row scores 0 rather than NaN.
    a = np.array([[3.0, 1.0, 0.0, 0.0]])
    P = np.abs(a[0]) / (4.0 + 1e-8)
    expected = -(P * np.log(P + 1e-8)).sum() / 4
    np.testing.assert_allclose(complexity(a, convention="beexai_code"), [expected],
                               rtol=1e-12)
    np.testing.assert_array_equal(
        complexity(np.zeros((1, 3)), convention="beexai_code"), [0.0])
    # normalize is ignored under BEExAI's code
    np.testing.assert_array_equal(
        complexity(a, convention="beexai_code", normalize="none"),
        complexity(a, convention="beexai_code"))


@pytest.mark.parametrize("old, new", [
    ("log_d", {"normalize": "log_d"}),
    ("none", {"normalize": "none"}),
    ("beexai", {"convention": "beexai_code"}),
])
def test_normalization_is_the_deprecated_name_of_normalize(old, new):
    A = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    with pytest.warns(FutureWarning, match="normalization"):
        before = complexity(A, normalization=old)
    np.testing.assert_array_equal(before, complexity(A, **new))


def test_complexity_errors():
    with pytest.raises(ValueError, match="at least 2 features"):
        complexity([[1.0]])
    with pytest.raises(TypeError, match="pass only normalize"):
        complexity([[1.0, 2.0]], normalization="log_d", normalize="none")


def test_sparseness_values():
    A = np.array([[0.0, 0.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0]])
    out = sparseness(A)
    # Row 2: v = [1,2,3,4]/10, weights (d-k+1/2)/d = [3.5, 2.5, 1.5, 0.5]/4.
    row2 = 1 - 2 * (np.array([1, 2, 3, 4]) / 10 * np.array([3.5, 2.5, 1.5, 0.5]) / 4).sum()
    np.testing.assert_allclose(out, [0.75, 0.0, row2])
    np.testing.assert_allclose(sparseness(A, normalize=True)[0], 1.0)
    # Unsorted input gives the same result (the sort is part of the metric).
    np.testing.assert_allclose(sparseness(A[:, ::-1]), out)
    np.testing.assert_allclose(sparseness(-5 * A), out)
    assert np.isnan(sparseness(np.zeros((1, 3))))[0]


def test_registry_entries():
    spec = get_metric_spec("neg_complexity")
    assert spec.func is complexity and not spec.greater_is_better
    assert spec.kind == "attributions" and spec.family == "complexity"
    spec = get_metric_spec("sparseness")
    assert spec.func is sparseness and spec.greater_is_better
