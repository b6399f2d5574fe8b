"""Tests of L2X."""

import numpy as np
import pytest
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers._l2x import L2X


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    return X, X @ [1.0, -2.0, 0.5]


def test_l2x_selects_the_two_relevant_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = 3 * X[:, 0] - 2 * X[:, 1]
    ex = L2X(LinearRegression(), train_batch_size=50, epochs=8, learning_rate=3e-3,
             early_stopping=False, random_state=0)
    A = ex.fit(X, y).transform(X[:200])
    mean = A.mean(axis=0)
    assert min(mean[0], mean[1]) > max(mean[2:])


def test_l2x_attributions_are_normalised_mask_counts(small):
    X, y = small
    ex = L2X(LinearRegression(), epochs=2, train_batch_size=40, random_state=0).fit(X, y)
    A = ex.transform(X[:20])
    np.testing.assert_allclose(A.sum(axis=1), 1.0)
    counts = A * 6  # d (d + 1) / 2 = 6 ones over k = 1, 2, 3 (no ties)
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-12)
    assert counts.max() <= 3 + 1e-12 and counts.min() >= -1e-12
    # The k = d selector keeps every feature: each count is at least 1.
    assert counts.min() >= 1 - 1e-12


def test_l2x_reproducible_batch_independent_and_side_effect_free(small):
    X, y = small
    threads = torch.get_num_threads()
    state = torch.random.get_rng_state()
    ex = L2X(LinearRegression(), epochs=3, train_batch_size=40, random_state=5).fit(X, y)
    assert torch.get_num_threads() == threads
    assert torch.equal(torch.random.get_rng_state(), state)
    A = ex.transform(X[:15])
    np.testing.assert_array_equal(A[::-1], ex.transform(X[:15][::-1]))
    np.testing.assert_array_equal(A[4:5], ex.transform(X[4:5]))
    ex2 = L2X(LinearRegression(), epochs=3, train_batch_size=40, random_state=5).fit(X, y)
    np.testing.assert_array_equal(A, ex2.transform(X[:15]))


def test_l2x_epochs_preset_and_early_stopping(small):
    X, y = small
    ex = L2X(LinearRegression(), preset="xai_bench", random_state=0).fit(X, y)
    assert ex.n_epochs_ == [1, 1, 1]
    ex = L2X(LinearRegression(), epochs=40, n_iter_no_change=2, train_batch_size=60,
             random_state=0).fit(X, y)
    assert all(1 <= e <= 40 for e in ex.n_epochs_)
    assert len(ex.selectors_) == 3


def test_l2x_classifier_is_class_independent(small):
    X, y = small
    clf = FrozenEstimator(LogisticRegression().fit(X, (y > 0).astype(int)))
    A0 = L2X(clf, epochs=2, train_batch_size=60, target=0, random_state=0).fit(X).transform(X[:5])
    A1 = L2X(clf, epochs=2, train_batch_size=60, target=1, random_state=0).fit(X).transform(X[:5])
    np.testing.assert_array_equal(A0, A1)


@pytest.mark.parametrize(
    "params, match",
    [({"preset": "openxai"}, "preset"), ({"epochs": 0}, "epochs"),
     ({"validation_fraction": 1.5}, "validation_fraction"),
     ({"temperature": 0.0}, "temperature")],
)
def test_l2x_bad_parameters(small, params, match):
    X, y = small
    with pytest.raises(ValueError, match=match):
        L2X(LinearRegression(), **params).fit(X, y)


def test_l2x_too_few_rows_for_early_stopping():
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="early_stopping"):
        L2X(LinearRegression()).fit(X, [0.0, 1.0])
