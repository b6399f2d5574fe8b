"""Comprehensiveness and sufficiency (DeYoung et al. 2020; BEExAI) against
hand-computed values: closed forms for a linear model and one probability
drop computed by hand."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import comprehensiveness, sufficiency


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
