"""scikit-learn's estimator checks on every estimator of the package."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_xai.compose import ExplainedModel
from xgboost import XGBRegressor

from sklearn_xai.explainers import (
    EmpiricalConditionalSHAP,
    ExactShapley,
    FeatureAblation,
    KernelSHAP,
    RandomExplainer,
    ShapleyValueSampling,
    TreeContributions,
)
from sklearn_xai.masking import BaselineMasker, MarginalMasker
from sklearn_xai.utils.discovery import all_explainers


def _instances():
    """One configured instance per estimator, and the checks each is expected
    to fail, with the reason."""
    yield RandomExplainer(random_state=0), {}
    yield RandomExplainer(LinearRegression(), distribution="uniform", random_state=0), {}
    yield FeatureAblation(LinearRegression()), {}
    yield FeatureAblation(LinearRegression(), masker=MarginalMasker(20, random_state=0)), {}
    yield ExactShapley(LinearRegression(), masker=MarginalMasker(10, random_state=0), random_state=0), {}
    yield (
        KernelSHAP(LinearRegression(), n_samples=20, masker=MarginalMasker(10, random_state=0),
                   random_state=0),
        {},
    )
    yield ShapleyValueSampling(LinearRegression(), n_samples=5, random_state=0), {}
    yield EmpiricalConditionalSHAP(LinearRegression(), max_background=50, random_state=0), {}
    yield (
        EmpiricalConditionalSHAP(LinearRegression(), method="gaussian", n_samples=20,
                                 random_state=0),
        {},
    )
    yield TreeContributions(XGBRegressor(n_estimators=3)), {}
    yield (
        ExplainedModel(LinearRegression(), FeatureAblation(masker=BaselineMasker("mean"))),
        {
            "check_supervised_y_2d": (
                "y is handed to the model unchanged; LinearRegression fits a 2-D "
                "column y as multi-output and raises no DataConversionWarning"
            ),
        },
    )


INSTANCES = list(_instances())
EXPECTED = {id(est): failures for est, failures in INSTANCES}


@parametrize_with_checks(
    [est for est, _ in INSTANCES],
    expected_failed_checks=lambda est: EXPECTED.get(id(est), {}),
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_every_explainer_is_checked():
    """Each public explainer class appears among the checked instances."""
    checked = {type(est) for est, _ in INSTANCES}
    missing = [name for name, cls in all_explainers() if cls not in checked]
    assert not missing, f"add instances of {missing} to tests/test_common.py"


def test_explainer_in_classifier_explained_model():
    X = np.random.RandomState(0).randn(40, 3)
    y = (X[:, 0] > 0).astype(int)
    em = ExplainedModel(LogisticRegression(), FeatureAblation()).fit(X, y)
    assert em.transform(X).shape == X.shape
    assert set(em.classes_) == {0, 1}
