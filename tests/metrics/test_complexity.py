"""Tests of the metrics of the attributions alone (entropy complexity, Gini
sparseness) against hand-computed values."""

import numpy as np
import pytest

from sklearn_xai.metrics import UndefinedScoreWarning, complexity, sparseness
from sklearn_xai.metrics._registry import get_metric_spec


def test_complexity_values():
    A = np.array([[0.0, 0.0, 2.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    with pytest.warns(UndefinedScoreWarning, match="1 of 4 rows"):
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


def test_complexity_errors():
    with pytest.raises(ValueError, match="at least 2 features"):
        complexity([[1.0]])


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
    with pytest.warns(UndefinedScoreWarning, match="1 of 1 rows"):
        assert np.isnan(sparseness(np.zeros((1, 3)))[0])


def test_sparseness_beexai_code():
    # BEExAI's get_sparsity on sorted |a|: 1 - 2 sum_j (d - j + 1/2) v_j /
    # (d sum v + 1e-8), by hand: [0,0,0,3] -> 1 - 2 * 1.5 / 12 = 0.75;
    # [1,2,3,4] -> 1 - 2 * 15 / 40 = 0.25; an all-zero row -> 1 - 0 = 1.
    A = np.array([[0.0, 0.0, 0.0, 3.0], [4.0, -3.0, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    out = sparseness(A, convention="beexai_code")
    np.testing.assert_allclose(out, [0.75, 0.25, 1.0], atol=1e-8)
    # Rows with a nonzero attribution: the Gini index, to ~1e-8 / (d ||v||_1).
    np.testing.assert_allclose(out[:2], sparseness(A[:2]), atol=1e-9)
    with pytest.raises(ValueError, match="normalize=True is not part of BEExAI"):
        sparseness(A, normalize=True, convention="beexai_code")
    with pytest.raises(ValueError, match="convention"):
        sparseness(A, convention="beexai")
    # BEExAI's mean over rows counts an all-zero row as 1 (no NaN to omit).
    assert sparseness(A[[0, 1, 1, 2]], convention="beexai_code").mean() == (
        pytest.approx((0.75 + 0.25 + 0.25 + 1.0) / 4, abs=1e-8))

def test_registry_entries():
    spec = get_metric_spec("neg_complexity")
    assert spec.func is complexity and not spec.greater_is_better
    assert spec.kind == "attributions" and spec.family == "complexity"
    spec = get_metric_spec("sparseness")
    assert spec.func is sparseness and spec.greater_is_better


# --------------------------------------------------------- effective complexity
def test_effective_complexity_hand_computed():
    from sklearn_xai.metrics._complexity import effective_complexity

    A = np.array([[3.0, -1e-7, 0.5, 0.0],
                  [1e-6, 2e-6, 0.0, 0.0],
                  [0.0, 0.0, 0.0, 0.0]])
    # Relative to each row's peak: 3 and 0.5 (row 0); 0.5 and 1 (row 1); none.
    np.testing.assert_array_equal(effective_complexity(A), [2.0, 2.0, 0.0])
    # Raw magnitudes > 1e-5: row 1 has none.
    np.testing.assert_array_equal(effective_complexity(A, normalize=False),
                                  [2.0, 0.0, 0.0])
    # eps=0.2: row 0's 0.5 / 3 is below it; row 1 keeps 0.5 and 1.
    np.testing.assert_array_equal(effective_complexity(A, eps=0.2), [1.0, 2.0, 0.0])
    np.testing.assert_array_equal(effective_complexity(A, eps=0.5), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(effective_complexity(A, fraction=True),
                                  [0.5, 0.5, 0.0])
    # eps=0 counts the non-zero features.
    np.testing.assert_array_equal(effective_complexity(A, eps=0), [3.0, 2.0, 0.0])
    # Scale invariance when normalised; a row's count ignores the other rows.
    np.testing.assert_array_equal(effective_complexity(1e-9 * A),
                                  effective_complexity(A))
    np.testing.assert_array_equal(effective_complexity(A[1:2]), [2.0])
    spec = get_metric_spec("neg_effective_complexity")
    assert spec.func is effective_complexity and spec.kind == "attributions"
    assert not spec.greater_is_better and spec.family == "complexity"


def test_effective_complexity_equals_quantus():
    quantus = pytest.importorskip(
        "quantus", reason="Quantus 0.6 is the peer oracle; pip install quantus")
    from sklearn_xai.metrics._complexity import effective_complexity

    rng = np.random.default_rng(0)
    A = rng.normal(size=(25, 20)) * rng.random((25, 1)) * 10
    A[rng.random(A.shape) < 0.3] = 0.0
    x = rng.normal(size=(25, 1, 20)).astype(np.float32)

    def run(a, **kw):
        metric = quantus.EffectiveComplexity(disable_warnings=True, **kw)
        return np.asarray(metric(model=None, x_batch=x[:len(a)], y_batch=np.zeros(len(a), int),
                                 a_batch=a[:, None, :], channel_first=True), dtype=float)

    for eps in (1e-5, 0.3, 1.0):
        np.testing.assert_array_equal(
            effective_complexity(A, eps=eps, normalize=False),
            run(A, eps=eps, normalise=False))
    # Quantus normalises by the largest magnitude of the whole batch: on
    # one-row batches it is our per-row normalisation.
    for i in range(5):
        np.testing.assert_array_equal(effective_complexity(A[i:i + 1], eps=0.3),
                                      run(A[i:i + 1], eps=0.3))


def test_effective_complexity_normalises_per_row_unlike_quantus():
    quantus = pytest.importorskip(
        "quantus", reason="Quantus 0.6 is the peer oracle; pip install quantus")
    from sklearn_xai.metrics._complexity import effective_complexity

    # Two rows of the same shape, 1000 times apart: Quantus divides both by
    # the batch's largest magnitude, so the small row counts no feature.
    A = np.array([[1.0, 0.5, 0.2, 0.0], [1000.0, 500.0, 200.0, 0.0]])
    metric = quantus.EffectiveComplexity(eps=0.1, disable_warnings=True)
    theirs = metric(model=None, x_batch=np.zeros((2, 1, 4), np.float32),
                    y_batch=np.zeros(2, int), a_batch=A[:, None, :], channel_first=True)
    np.testing.assert_array_equal(np.asarray(theirs, dtype=float), [0.0, 3.0])
    np.testing.assert_array_equal(effective_complexity(A, eps=0.1), [3.0, 3.0])
