"""Hand-computed values for the first metrics of each family."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    complexity,
    comprehensiveness,
    feature_agreement,
    sparseness,
    sufficiency,
)


def test_feature_agreement_hand_computed():
    g = np.array([[3.0, -2.0, 1.0, 0.0], [0.0, 0.0, 5.0, 1.0]])
    a = np.array([[0.1, 5.0, 0.0, 4.0], [1.0, 0.0, -6.0, 0.5]])
    # Row 0: top-2 of g = {0, 1}, of a = {1, 3} -> 1/2.
    # Row 1: top-2 of g = {2, 3}, of a = {2, 0} -> 1/2; top-3: {2,3,0} vs {2,0,3} -> 1.
    np.testing.assert_allclose(feature_agreement(g, a, k=2), [0.5, 0.5])
    np.testing.assert_allclose(feature_agreement(g, a, k=3), [2 / 3, 1.0])
    np.testing.assert_allclose(feature_agreement(g, a, k=-1), [1.0, 1.0])
    # Fractions round up: 0.25 * 4 = 1 feature; 0.3 * 4 -> 2.
    np.testing.assert_allclose(feature_agreement(g, a, k=0.25), [0.0, 1.0])
    np.testing.assert_allclose(feature_agreement(g, a, k=0.3), [0.5, 0.5])


def test_feature_agreement_ties_by_lower_index_and_vector_reference():
    a = np.array([[1.0, 1.0, 1.0, 1.0]])
    assert feature_agreement([0, 0, 9, 9], a, k=2)[0] == 0.0
    assert feature_agreement([9, 9, 0, 0], a, k=2)[0] == 1.0
    np.testing.assert_allclose(feature_agreement([9, 9, 0, 0], np.ones((3, 4)), k=2), 1.0)


def test_feature_agreement_random_expectation():
    """E[FA@k] of random explanations is k/d (hypergeometric mean / k)."""
    rng = np.random.RandomState(0)
    g = rng.randn(20000, 10)
    a = rng.randn(20000, 10)
    assert feature_agreement(g, a, k=3).mean() == pytest.approx(0.3, abs=0.01)


def test_feature_agreement_errors():
    with pytest.raises(ValueError, match="k must be"):
        feature_agreement(np.ones((1, 4)), np.ones((1, 4)), k=0)
    with pytest.raises(ValueError, match="ground_truth has shape"):
        feature_agreement(np.ones((2, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="ground_truth"):
        feature_agreement(None, np.ones((3, 4)))


@pytest.fixture
def linear():
    X = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, 1.0], [2.0, 0.0, 1.0, 3.0]])
    w = np.array([1.0, -3.0, 0.5, 2.0])
    return X, LinearRegression().fit(np.vstack([X, np.eye(4), -np.eye(4)]),
                                     np.vstack([X, np.eye(4), -np.eye(4)]) @ w + 1.0), w


def test_comprehensiveness_and_sufficiency_linear(linear):
    X, model, w = linear
    A = w * X  # exact for a zero baseline
    # ratio 0.5 -> k = 2 features. Row 0: |A| = [1, 6, 1.5, 8] -> top {3, 1}.
    comp = comprehensiveness(model, X, A, ratio=0.5)
    suff = sufficiency(model, X, A, ratio=0.5)
    contrib = w * X
    top = np.argsort(-np.abs(contrib), kind="stable", axis=1)[:, :2]
    exp_comp = np.abs(np.take_along_axis(contrib, top, 1).sum(1))
    exp_suff = np.abs(contrib.sum(1) - np.take_along_axis(contrib, top, 1).sum(1))
    np.testing.assert_allclose(comp, exp_comp, atol=1e-9)
    np.testing.assert_allclose(suff, exp_suff, atol=1e-9)
    assert comp[0] == pytest.approx(abs(8.0 - 6.0))
    # A list of ratios averages (k = 1 and k = 2).
    both = comprehensiveness(model, X, A, ratio=[0.25, 0.5])
    one = comprehensiveness(model, X, A, ratio=0.25)
    np.testing.assert_allclose(both, (one + comp) / 2)


def test_comprehensiveness_mean_masker_and_signed_order(linear):
    X, model, w = linear
    masker = BaselineMasker([1.0, 1.0, 1.0, 1.0]).fit(X)
    A = np.array([[5.0, -9.0, 0.0, 1.0]] * 3)
    # abs order: feature 1 first; signed order: feature 0 first.
    c_abs = comprehensiveness(model, X, A, ratio=0.25, masker=masker, absolute=False)
    c_sgn = comprehensiveness(model, X, A, ratio=0.25, masker=masker, absolute=False,
                              order_by="signed")
    np.testing.assert_allclose(c_abs, w[1] * (X[:, 1] - 1.0), atol=1e-9)
    np.testing.assert_allclose(c_sgn, w[0] * (X[:, 0] - 1.0), atol=1e-9)


def test_comprehensiveness_classifier_probability_drop():
    rng = np.random.RandomState(0)
    X = rng.randn(100, 3)
    y = (X[:, 0] + 0.1 * X[:, 1] > 0).astype(int)
    clf = LogisticRegression().fit(X, y)
    good = np.tile([1.0, 0.1, 0.0], (100, 1))
    bad = np.tile([0.0, 0.1, 1.0], (100, 1))
    assert comprehensiveness(clf, X, good).mean() > comprehensiveness(clf, X, bad).mean() + 0.1
    # Sufficiency with the right feature kept is smaller (better).
    assert sufficiency(clf, X, good).mean() < sufficiency(clf, X, bad).mean()
    # Hand value for one row: removing feature 0 (k = floor(0.3*3) = 1).
    p = clf.predict_proba(X[:1])[0]
    c = p.argmax()
    Z = X[:1].copy()
    Z[0, 0] = 0
    expected = p[c] - clf.predict_proba(Z)[0, c]
    assert comprehensiveness(clf, X[:1], good[:1])[0] == pytest.approx(expected)


def test_complexity_values():
    A = np.array([[0.0, 0.0, 2.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    out = complexity(A)
    np.testing.assert_allclose(out[:3], [0.0, 1.0, np.log(2) / np.log(3)])
    assert np.isnan(out[3])
    np.testing.assert_allclose(complexity(A[:3], normalization="none"), [0, np.log(3), np.log(2)])
    be = complexity(A[1:2], normalization="beexai")
    assert be[0] == pytest.approx(np.log(3) / 3, rel=1e-6)
    # Scale invariance.
    np.testing.assert_allclose(complexity(7.0 * A[:3]), out[:3])


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
