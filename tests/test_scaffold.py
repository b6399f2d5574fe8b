"""ScaffoldedClassifier (Slack et al. 2020): routing, recorded perturbations,
estimator checks."""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from sklearn_xai.compose import ScaffoldedClassifier, explainer_queries
from sklearn_xai.explainers import KernelSHAP, LimeTabular
from sklearn_xai.masking import BaselineMasker


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    cov = np.full((3, 3), 0.8) + 0.2 * np.eye(3)
    X = rng.multivariate_normal(np.zeros(3), cov, size=n)
    return X, (X[:, 0] > 0).astype(int)


def _small_forest():
    return RandomForestClassifier(n_estimators=20, random_state=0)


def _small_lime():
    return LimeTabular(n_perturbations=30, random_state=0)


def test_routing_equals_direct_computation():
    X, y = _data()
    biased = LogisticRegression().fit(X[:, :1], y)
    innocuous = LogisticRegression().fit(X[:, 1:2], (X[:, 1] > 0).astype(int))

    class Column:  # the biased / innocuous model of one column, fitted
        def __init__(self, model, j):
            self.model, self.j, self.classes_ = model, j, model.classes_

        def fit(self, X, y):
            return self

        def predict(self, X):
            return self.model.predict(X[:, [self.j]])

        def predict_proba(self, X):
            return self.model.predict_proba(X[:, [self.j]])

        def __sklearn_tags__(self):
            return LogisticRegression().__sklearn_tags__()

        def get_params(self, deep=True):
            return {}

        def __sklearn_is_fitted__(self):
            return True

    clf = ScaffoldedClassifier(
        FrozenEstimator(Column(biased, 0)), FrozenEstimator(Column(innocuous, 1)),
        detector=_small_forest(), perturbation=_small_lime(), n_explained=20,
        random_state=0).fit(X, y)
    Z = np.concatenate([X[:50], X[:50] + np.array([3.0, -3.0, 0.0])])
    real = clf.detector_.predict(Z) == 1
    assert 0 < real.sum() < len(Z)  # both branches are exercised
    expected = np.where(real, biased.predict(Z[:, :1]), innocuous.predict(Z[:, 1:2]))
    np.testing.assert_array_equal(clf.predict(Z), expected)
    expected_proba = np.where(real[:, None], biased.predict_proba(Z[:, :1]),
                              innocuous.predict_proba(Z[:, 1:2]))
    np.testing.assert_allclose(clf.predict_proba(Z), expected_proba)
    np.testing.assert_array_equal(clf.in_distribution(Z), real)


def test_detector_trained_on_real_rows_and_perturbations():
    X, y = _data()
    clf = ScaffoldedClassifier(DecisionTreeClassifier(max_depth=1),
                               DecisionTreeClassifier(max_depth=1),
                               detector=_small_forest(), perturbation=_small_lime(),
                               n_explained=20, perturbation_ratio=0.5, random_state=0).fit(X, y)
    # 20 rows x 29 perturbations recorded, subsampled to half the 300 rows.
    assert clf.n_perturbations_ == 150
    assert 0.5 < clf.detector_accuracy_ <= 1.0


def test_explainer_queries_baseline_masker():
    """With a zero baseline every query keeps each feature of its row or
    sets it to 0, and the explained rows themselves are left out."""
    X, y = _data(100)
    rows = X[:3]
    ex = KernelSHAP(n_perturbations=6, masker=BaselineMasker("zero"), random_state=0)
    Q = explainer_queries(ex, X, y, rows)
    assert len(Q) > 0
    kept_or_zero = [np.all((q == r) | (q == 0.0), axis=1) for r in rows for q in [Q]]
    assert np.any(kept_or_zero, axis=0).all()
    assert not any(np.array_equal(q, r) for q in Q for r in rows)


def test_explainer_queries_lime_count():
    """LIME evaluates the row and n_perturbations - 1 draws per row."""
    X, y = _data(100)
    Q = explainer_queries(LimeTabular(n_perturbations=25, random_state=0), X, y, X[:4])
    assert Q.shape == (4 * 24, 3)


def test_classes_must_agree():
    X, y = _data(60)
    other = FrozenEstimator(DummyClassifier().fit(X, y + 1))
    clf = ScaffoldedClassifier(DummyClassifier(), other, perturbation=_small_lime(),
                               n_explained=5)
    with pytest.raises(ValueError, match="same classes"):
        clf.fit(X, y)


# scikit-learn's estimator checks run on ScaffoldedClassifier in tests/test_common.py.


def test_perturbation_masker_is_seeded():
    """A masker left unseeded draws the same background on every fit: the
    scaffold seeds it from random_state."""
    from sklearn_xai.masking import MarginalMasker

    X, y = _data(200)
    ex = KernelSHAP(n_perturbations=8, masker=MarginalMasker(10))
    fits = [ScaffoldedClassifier(DecisionTreeClassifier(max_depth=1),
                                 DecisionTreeClassifier(max_depth=1),
                                 detector=DecisionTreeClassifier(random_state=0),
                                 perturbation=ex, n_explained=5,
                                 random_state=0).fit(X, y) for _ in range(2)]
    Z = X + 0.5
    np.testing.assert_array_equal(fits[0].in_distribution(Z), fits[1].in_distribution(Z))
    assert fits[0].perturbation.masker.random_state is None  # the parameter is kept
