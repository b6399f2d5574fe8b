"""MeGe and ReCo (Fel et al. 2022): a hand computation on a tiny case with
fixed fold models and explanations, ReCo's maximum against a brute-force
scan of thresholds, and the folds against scikit-learn's KFold."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.metrics import get_metric_spec, mege, reco
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._stats import UndefinedScoreWarning

# Six rows (column 0 is the row's id), two folds: {0, 1, 2} and {3, 4, 5}.
# Model 0 is trained on fold 1, model 1 on fold 0.  Per model and row: the
# prediction and the explanation (3 features).
Y = np.array([0, 0, 1, 1, 1, 0])
PRED = {0: [0, 0, 1, 0, 0, 1], 1: [0, 1, 1, 1, 0, 1]}
E = {
    0: [[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]],
    1: [[1, 2, 3],   # row 0: both correct, ρ = 1 -> δ = 0          (S=)
        [1, 3, 2],   # row 1: model 1 wrong, ρ = 0.5 -> δ = √0.5   (S≠)
        [2, 3, 1],   # row 2: both correct, ρ = -0.5 -> δ = √0.5   (S=)
        [2, 1, 3],   # row 3: model 0 wrong, ρ = 0.5 -> δ = √0.5   (S≠)
        [3, 2, 1],   # row 4: both wrong: left out
        [3, 1, 2]],  # row 5: both wrong (predict 1, label 0): left out
}
X = np.column_stack([np.arange(6.0), np.zeros((6, 2))])


class _FoldModel(ClassifierMixin, BaseEstimator):
    """Model 0 if trained on fold 1 (rows 3-5), model 1 otherwise."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        self.index_ = 0 if np.asarray(X)[0, 0] >= 3 else 1
        return self

    def predict(self, X):
        return np.asarray(PRED[self.index_])[np.asarray(X)[:, 0].astype(int)]

    def predict_proba(self, X):
        p = self.predict(X).astype(float)
        return np.column_stack([1 - p, p])


class _TableExplainer(BaseEstimator):
    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y=None):
        self.estimator_ = self.estimator
        return self

    def explain(self, X, *, target=None, row_keys=None):
        index = self.estimator_.estimator.index_
        return np.asarray(E[index], dtype=float)[np.asarray(X)[:, 0].astype(int)]


def _args():
    model = _FoldModel().fit(X, Y)
    ex = _TableExplainer(FrozenEstimator(model)).fit(X, Y)
    return model, ex


def test_hand_computed():
    model, ex = _args()
    kw = dict(explainer=ex, X_train=X, y_train=Y, n_splits=2, return_details=True)
    d = mege(model, X, np.zeros_like(X), **kw)
    np.testing.assert_allclose(np.sort(d.s_equal), [0.0, np.sqrt(0.5)], atol=1e-12)
    np.testing.assert_allclose(d.s_differ, [np.sqrt(0.5), np.sqrt(0.5)], atol=1e-12)
    assert d.score == pytest.approx(1.0 / (1.0 + np.sqrt(0.5) / 2))
    # ReCo: γ in (0, √0.5]: TPR = 1/2, TNR = 1 - 0 ... TNR = #{S≠ > γ}/2 = 1 for
    # γ < √0.5, so the best is 1/2 + 1 - 1 = 1/2.
    assert reco(model, X, np.zeros_like(X), **kw).score == pytest.approx(0.5)


def test_reco_is_the_best_threshold():
    # Against a brute-force scan of thresholds on random distance sets.
    from sklearn_xai.metrics._fold_stability import _relative_consistency

    rng = np.random.default_rng(0)
    for _ in range(20):
        s_eq = np.round(rng.uniform(0, 1, rng.integers(1, 12)), 1)
        s_ne = np.round(rng.uniform(0.2, 1.2, rng.integers(1, 12)), 1)
        best = 0.0
        for gamma in np.linspace(-0.05, 1.3, 272):
            tpr = np.mean(s_eq < gamma)
            tnr = np.mean(s_ne > gamma)
            best = max(best, tpr + tnr - 1.0)
        assert _relative_consistency(s_eq, s_ne) == pytest.approx(best)
    assert _relative_consistency(np.array([0.1, 0.2]), np.array([0.3, 0.9])) == 1.0


def test_folds_and_refits_match_a_direct_computation():
    from scipy.stats import spearmanr
    from sklearn.model_selection import KFold

    rng = np.random.default_rng(1)
    Xr = rng.normal(size=(60, 4))
    y = (Xr @ [2.0, -1.0, 0.5, 0.0] + rng.normal(size=60) > 0).astype(int)
    model = LogisticRegression().fit(Xr, y)
    ex = FeatureAblation(FrozenEstimator(model)).fit(Xr)
    d = mege(model, Xr[:2], np.zeros((2, 4)), explainer=ex, X_train=Xr, y_train=y,
             n_splits=3, return_details=True)
    # Direct: three logistic regressions, the ablation of a linear model's
    # probability computed with each, the pairs over the rows of two folds.
    models, expl, folds = [], [], np.empty(60, dtype=int)
    for i, (train, test) in enumerate(KFold(3).split(Xr)):
        folds[test] = i
        models.append(LogisticRegression().fit(Xr[train], y[train]))
        expl.append(FeatureAblation(FrozenEstimator(models[-1])).fit(Xr[train])
                    .explain(Xr, target=y))
    s_eq, s_ne = [], []
    for i in range(3):
        for j in range(i + 1, 3):
            for n in np.flatnonzero((folds == i) | (folds == j)):
                pi, pj = models[i].predict(Xr[n:n + 1])[0], models[j].predict(Xr[n:n + 1])[0]
                if y[n] not in (pi, pj):
                    continue
                rho = spearmanr(expl[i][n], expl[j][n])[0]
                (s_eq if pi == pj else s_ne).append(np.sqrt(1 - abs(rho)))
    np.testing.assert_allclose(np.sort(d.s_equal), np.sort(s_eq), atol=1e-12)
    np.testing.assert_allclose(np.sort(d.s_differ), np.sort(s_ne), atol=1e-12)
    assert d.score == pytest.approx(1 / (1 + np.mean(s_eq)))


def test_errors_and_registry():
    model, ex = _args()
    with pytest.raises(ValueError, match="pass X_train=... and y_train=..."):
        mege(model, X, np.zeros_like(X), explainer=ex)
    from sklearn.linear_model import Ridge

    ridge = Ridge().fit(X, Y)
    with pytest.raises(NotApplicableError, match="classifier"):
        reco(ridge, X, np.zeros_like(X), explainer=ex, X_train=X, y_train=Y)
    for name in ("mege", "reco"):
        spec = get_metric_spec(name)
        assert spec.greater_is_better and not spec.per_instance
        assert spec.family == "robustness"
        assert {"explainer", "training_data", "classifier"} <= set(spec.requires)


def test_undefined_reco_warns():
    # Every row is classified correctly by both models: S≠ is empty.
    model, ex = _args()
    PRED_ALL = {0: list(Y), 1: list(Y)}
    old = dict(PRED)
    PRED.update(PRED_ALL)
    try:
        with pytest.warns(UndefinedScoreWarning, match="reco is undefined"):
            assert np.isnan(reco(model, X, np.zeros_like(X), explainer=ex, X_train=X,
                                 y_train=Y, n_splits=2))
    finally:
        PRED.update(old)
