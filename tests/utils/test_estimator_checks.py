"""check_explainer passes the package's explainers and catches each broken
contract it claims to check."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin

from sklearn_xai.explainers import FeatureAblation, KernelSHAP, RandomExplainer
from sklearn_xai.utils.estimator_checks import check_explainer


class _Explainer(TransformerMixin, BaseEstimator):
    """A minimal explainer: coefficient times (x - training mean)."""

    def __init__(self, estimator=None, random_state=None):
        self.estimator = estimator
        self.random_state = random_state

    def fit(self, X, y=None):
        self.mean_ = np.mean(X, axis=0)
        model = self.estimator.estimator
        self.coef_ = np.ravel(model.coef_)
        return self

    def transform(self, X):
        return (np.asarray(X) - self.mean_) * self.coef_


class _BatchStatistics(_Explainer):
    def transform(self, X):  # centres on the batch: depends on the other rows
        X = np.asarray(X)
        return (X - X.mean(axis=0)) * self.coef_


class _Mutating(_Explainer):
    def transform(self, X):
        X -= self.mean_
        return X * self.coef_


class _WrongShape(_Explainer):
    def transform(self, X):
        return super().transform(X)[:, :-1]


class _Unseeded(_Explainer):
    def transform(self, X):
        noise = np.random.default_rng().normal(size=np.shape(X))
        return super().transform(X) + noise


@pytest.mark.parametrize("explainer", [FeatureAblation(), KernelSHAP(),
                                       RandomExplainer(), _Explainer()],
                         ids=lambda e: type(e).__name__)
def test_contract_holds(explainer):
    check_explainer(explainer)


@pytest.mark.parametrize("explainer, check", [
    (_BatchStatistics(), "batch invariance"),
    (_Mutating(), "no mutation"),
    (_WrongShape(), "shape"),
    (_Unseeded(), "batch invariance"),
])
def test_broken_contract_is_reported(explainer, check):
    with pytest.raises(AssertionError, match=rf"\[{check}, classification\]"):
        check_explainer(explainer)


def test_tasks_validated():
    with pytest.raises(ValueError, match="tasks must hold"):
        check_explainer(FeatureAblation(), tasks=("ranking",))
