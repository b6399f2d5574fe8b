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


# ------------------------------------------------- model-specific explainers
def test_model_specific_explainer_is_checked_on_the_given_model():
    xgboost = pytest.importorskip("xgboost")
    from sklearn_xai.explainers import TreeContributions

    from sklearn_xai.utils import NotApplicableError

    # On the default logistic regression, the tree explainer cannot be checked.
    with pytest.raises(NotApplicableError, match="TreeContributions needs a tree model"):
        check_explainer(TreeContributions(), tasks=("classification",))
    check_explainer(TreeContributions(), model={
        "classification": xgboost.XGBClassifier(n_estimators=3, max_depth=2),
        "regression": xgboost.XGBRegressor(n_estimators=3, max_depth=2),
    })


@pytest.mark.slow  # GuidedGradCam takes about a second a call on 2 busy cores
def test_convolutional_explainer_is_checked_on_a_cnn():
    torch = pytest.importorskip("torch")
    from sklearn.frozen import FrozenEstimator
    from skorch import NeuralNetClassifier

    from sklearn_xai.explainers import GuidedGradCam
    from sklearn_xai.utils import NotApplicableError

    class TinyCNN(torch.nn.Module):
        """One 3 x 3 convolution of the 8 x 8 image, then a linear layer."""

        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(1, 2, 3, padding=1)
            self.out = torch.nn.Linear(128, 2)

        def forward(self, x):
            h = torch.relu(self.conv(x.reshape(-1, 1, 8, 8)))
            return self.out(h.flatten(1))

    with pytest.raises(NotApplicableError, match="Conv2d"):
        check_explainer(GuidedGradCam(), tasks=("classification",), n_features=64)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        cnn = NeuralNetClassifier(TinyCNN, criterion=torch.nn.CrossEntropyLoss,
                                  classes=[0, 1], verbose=0).initialize()
    check_explainer(GuidedGradCam(), tasks=("classification",), n_features=64,
                    model=FrozenEstimator(cnn))


def test_fitted_frozen_model_is_used_as_is():
    from sklearn.datasets import make_classification
    from sklearn.frozen import FrozenEstimator
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=80, n_features=4, n_informative=3,
                               n_redundant=0, random_state=0)
    frozen = FrozenEstimator(LogisticRegression(C=0.5).fit(X, y))

    class _Records(_Explainer):
        def fit(self, X, y=None):
            seen.append(self.estimator)
            return super().fit(X, y)

    seen = []
    check_explainer(_Records(), tasks=("classification",), model=frozen)
    assert seen and all(model is frozen for model in seen)


def test_model_validated():
    with pytest.raises(ValueError, match=r"model has no entry for the task\(s\) "
                                         r"\['regression'\]"):
        check_explainer(FeatureAblation(), model={"classification": None})
    with pytest.raises(TypeError, match="model must be an estimator"):
        check_explainer(FeatureAblation(), model="xgboost")
