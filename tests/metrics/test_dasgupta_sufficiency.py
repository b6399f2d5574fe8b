"""Sufficiency of Dasgupta et al. 2022 (Quantus' Sufficiency): a hand
computation and Quantus 0.6 run directly."""

import numpy as np
import pytest
import torch
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from sklearn_xai.metrics import dasgupta_sufficiency, get_metric_spec, sufficiency
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._stats import UndefinedScoreWarning


class _Fixed(ClassifierMixin, BaseEstimator):
    """A classifier predicting given classes (row i -> classes[i])."""

    def __init__(self, classes=None):
        self.classes = classes
        self.classes_ = np.array([0, 1])

    def fit(self, X, y=None):
        return self

    def predict_proba(self, X):
        c = np.asarray(self.classes)[np.asarray(X)[:, 0].astype(int)]
        return np.stack([1.0 - c, c], axis=1).astype(float)

    def decision_function(self, X):
        return self.predict_proba(X)[:, 1] - 0.5


def test_hand_computed_euclidean():
    # Explanations on a line: 0, 1, 1.5, 10; predicted classes 0, 0, 1, 1.
    A = np.array([[0.0], [1.0], [1.5], [10.0]])
    X = np.arange(4.0)[:, None]  # row i predicts classes[i]
    model = _Fixed([0, 0, 1, 1])
    # Absolute distances, t = 1: close pairs (0,1) and (1,2) only.
    # s_0 = 1/1 (row 1 agrees); s_1 = 1/2 (row 0 agrees, row 2 not);
    # s_2 = 0/1; s_3 undefined.  Mean over defined = (1 + 0.5 + 0) / 3.
    d = dasgupta_sufficiency(model, X, A, threshold=1.0, distance="euclidean",
                             relative=False, return_details=True)
    np.testing.assert_allclose(d.local_sufficiency, [1.0, 0.5, 0.0, np.nan])
    np.testing.assert_array_equal(d.n_close, [1, 2, 1, 0])
    assert d.score == pytest.approx(0.5)
    assert d.n_defined == 3
    # Relative: distances / 10 (0.1, 0.15 and 0.05 among rows 0-2); t = 0.12
    # keeps the same pairs, t = 0.15 adds (0, 2): s = (1/2, 1/2, 0/2), mean 1/3.
    assert dasgupta_sufficiency(model, X, A, threshold=0.12, distance="euclidean") \
        == pytest.approx(0.5)
    assert dasgupta_sufficiency(model, X, A, threshold=0.15, distance="euclidean") \
        == pytest.approx(1 / 3)


def test_seuclidean_scales_by_column_variance_and_ignores_constant_columns():
    # Column 0 has variance 1 (values -1, 0, 1 ... ddof=1); column 1 is
    # constant (0 difference whatever its scale) and changes nothing.
    A = np.array([[-1.0, 5.0], [0.0, 5.0], [1.0, 5.0]])
    X = np.column_stack([np.arange(3.0), np.zeros(3)])
    model = _Fixed([1, 1, 0])
    # var (ddof=1) of column 0 is 1: distances |a_i - a_j|, so 0-1, 1-2 close at 1.
    d = dasgupta_sufficiency(model, X, A, threshold=1.0, relative=False,
                             absolute=False, return_details=True)
    np.testing.assert_allclose(d.local_sufficiency, [1.0, 0.5, 0.0])


def test_undefined_warns_and_is_nan():
    A = np.array([[0.0], [10.0]])
    with pytest.warns(UndefinedScoreWarning, match="larger threshold"):
        s = dasgupta_sufficiency(_Fixed([0, 1]), np.arange(2.0)[:, None], A,
                                 threshold=0.5, distance="euclidean", relative=False)
    assert np.isnan(s)


def test_regressor_is_not_applicable():
    from sklearn.linear_model import Ridge

    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(NotApplicableError, match="dasgupta_sufficiency compares"):
        dasgupta_sufficiency(Ridge().fit(X, X[:, 0]), X, X)


def test_registry_and_name_clash_documented():
    spec = get_metric_spec("dasgupta_sufficiency")
    assert spec.greater_is_better and not spec.per_instance
    assert spec.requires == ("classifier",)
    assert "Dasgupta" in spec.source
    assert get_metric_spec("neg_sufficiency").func is sufficiency
    assert "dasgupta_sufficiency" in sufficiency.__doc__
    assert ":func:`sufficiency`" in dasgupta_sufficiency.__doc__


def test_equals_quantus():
    """Quantus' default distance; it passes ``V=None`` to scipy's cdist,
    which the other distances refuse with the scipy in the venv."""
    distance = "seuclidean"
    import quantus
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    clf = LogisticRegression().fit(X, X[:, 0] + X[:, 1] > 0)
    A = X * clf.coef_[0] + 0.3 * rng.normal(size=X.shape)
    ours = dasgupta_sufficiency(clf, X, A, threshold=0.3, distance=distance,
                                return_details=True)
    # The same linear model in torch: logits (0, w.x + b) have clf's arg-max.
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(4, 2)).eval()
    with torch.no_grad():
        net[1].weight.copy_(torch.tensor(np.vstack([np.zeros(4), clf.coef_[0]]), dtype=torch.float32))
        net[1].bias.copy_(torch.tensor([0.0, clf.intercept_[0]], dtype=torch.float32))
    metric = quantus.Sufficiency(threshold=0.3, distance_func=distance,
                                 disable_warnings=True)
    theirs = np.asarray(metric(model=net, x_batch=X[:, None, :].astype(np.float32),
                               y_batch=clf.predict(X).astype(int),
                               a_batch=A[:, None, :].astype(np.float32),
                               channel_first=True, softmax=False, device="cpu",
                               batch_size=len(X)))
    defined = ~np.isnan(ours.local_sufficiency)
    assert defined.sum() > len(X) // 2
    np.testing.assert_allclose(ours.local_sufficiency[defined], theirs[defined], atol=1e-6)
    # Quantus scores a row with no close row 0.
    np.testing.assert_array_equal(theirs[~defined], 0.0)
