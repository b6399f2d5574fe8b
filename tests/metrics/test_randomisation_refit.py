"""The randomisation checks explain the randomised model, for every explainer.

Every check that re-explains a changed model (MPRT, smooth MPRT, efficient
MPRT, data randomisation) must explain it with a freshly fitted clone of the
explainer, ``clone(explainer).set_params(estimator=FrozenEstimator(model))``,
fitted on the rows the explainer was fitted on: explainers that learn from
the model at fit (tree paths, LRP rules, PatternNet's patterns, surrogates,
permutation importances) otherwise keep explaining the original model.  Each
score is compared with a direct computation: the randomised model built with
:func:`~sklearn_xai.models.randomise_model`, a clone of the explainer fitted
to it by hand, and the similarity computed with scipy.  The random logit
test re-explains the same model for the other class; it is checked the same
way.  Each metric is checked through its function and through its scorer on
an :class:`~sklearn_xai.compose.ExplainedModel` (the path of GridSearchCV
and cross_validate, also run here).
"""

import inspect
import warnings

import numpy as np
import pytest
from scipy.stats import entropy, spearmanr
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

import sklearn_xai.metrics._randomisation as randomisation
from sklearn_xai.compose import ExplainedModel
from sklearn_xai.explainers import CompositeLRP, PatternNet, Saliency
from sklearn_xai.metrics import (
    data_randomisation,
    efficient_mprt,
    get_scorer,
    mprt,
    random_logit,
    smooth_mprt,
)
from sklearn_xai.models import MLPNetClassifier, randomise_model, randomised_layers
from sklearn_xai.utils.discovery import all_explainers

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn_xai.metrics.UndefinedScoreWarning",
    "ignore::scipy.stats.ConstantInputWarning",
    "ignore::sklearn.exceptions.ConvergenceWarning",
    "ignore::UserWarning",
)

N_BINS = 5
RNG = np.random.default_rng(0)
X_TRAIN = RNG.normal(size=(12, 4))
Y_TRAIN = (X_TRAIN[:, 0] + X_TRAIN[:, 1] > 0).astype(int)
X = RNG.normal(size=(6, 4))
# Small budgets, as the explainer x metric matrix.
_CHEAP = {
    "n_perturbations": 8, "n_permutations": 2, "n_steps": 3, "n_estimators": 5,
    "n_epochs": 2, "max_epochs": 2, "n_coalitions": 16, "background": 6,
    "max_background": 6, "n_draws": 3, "n_repeats": 2,
}
# Images only (filters), a convolutional net (Grad-CAM) or a vision
# transformer (attention): not tabular rows.
_NOT_TABULAR = {"LaplaceFilter", "SobelFilter", "GuidedGradCam", "GradCAM",
                "GradCAMPlusPlus", "ScoreCAM", "AttentionRollout", "AttentionXGradient"}


@pytest.fixture(scope="module")
def net():
    return MLPNetClassifier(max_epochs=2, random_state=0).fit(X_TRAIN, Y_TRAIN)


@pytest.fixture(scope="module")
def booster():
    import xgboost
    return xgboost.XGBClassifier(n_estimators=3, max_depth=2, random_state=0).fit(
        X_TRAIN, Y_TRAIN)


def _explainer(cls):
    params = inspect.signature(cls.__init__).parameters
    chosen = {k: v for k, v in _CHEAP.items() if k in params}
    if "random_state" in params:
        chosen["random_state"] = 0
    return cls(**chosen)


def _fit_direct(explainer, model, X_fit, y_fit):
    """A clone of the explainer fitted by hand to ``model``."""
    frozen = FrozenEstimator(model)
    return clone(explainer).set_params(estimator=frozen).fit(X_fit, y_fit)


def _spearman(A, B):
    """Row-wise Spearman correlation of |A| and |B| with scipy (NaN if constant)."""
    return np.array([spearmanr(np.abs(a), np.abs(b)).statistic for a, b in zip(A, B)])


def _entropy(A):
    return np.array([entropy(np.histogram(a, bins=N_BINS)[0]) for a in A])


class _Capture:
    """Records the model data_randomisation retrains (and its permuted labels)."""

    def __init__(self, refit):
        self.refit, self.calls = refit, []

    def __call__(self, estimator, X_train, y_train, random_state):
        model = self.refit(estimator, X_train, y_train, random_state)
        self.calls.append((model, np.asarray(y_train)))
        return model


def _direct_retrained(explainer, Xe, labels, retrained, X_fit):
    """data_randomisation's per-row values at ``Xe``, computed directly from
    the model it trained on permuted labels and those labels (``retrained``)."""
    A = explainer.explain(Xe, target=labels)
    B = _fit_direct(explainer, retrained[0], X_fit, retrained[1]).explain(
        Xe, target=labels)
    return _spearman(A, B)


def _direct(explainer, model, layers, Xe, labels, X_fit, y_fit):
    """The other metrics' per-row values at ``Xe``, computed directly: the
    explainer was fitted on ``(X_fit, y_fit)``, and so is each clone."""
    A = explainer.explain(Xe, target=labels)
    cascade = [randomise_model(model, layers[:k + 1], random_state=0)
               for k in range(len(layers))]
    B = [_fit_direct(explainer, m, X_fit, y_fit).explain(Xe, target=labels)
         for m in cascade]
    sims = np.column_stack([_spearman(A, b) for b in B])
    h0, h1 = _entropy(A), _entropy(B[-1])
    B_rl = explainer.explain(Xe, target=1 - labels)  # two classes: the other one
    return A, {
        "mprt": sims.mean(axis=1),
        "smooth_mprt": sims.mean(axis=1),  # no noise: the plain explanations
        "efficient_mprt": np.where(h0 > 0, (h1 - h0) / np.where(h0 > 0, h0, 1), np.nan),
        "random_logit": np.array([spearmanr(a, b).statistic for a, b in zip(A, B_rl)]),
    }


def _kwargs(layers):
    return {
        "mprt": {"layers": layers},
        "smooth_mprt": {"layers": layers, "n_perturbations": 1, "noise_magnitude": 0.0},
        "efficient_mprt": {"layers": layers, "n_bins": N_BINS},
        "data_randomisation": {"X_train": X_TRAIN, "y_train": Y_TRAIN},
        "random_logit": {},
    }


_FUNCS = {"mprt": mprt, "smooth_mprt": smooth_mprt, "efficient_mprt": efficient_mprt,
          "data_randomisation": data_randomisation, "random_logit": random_logit}
_SCORERS = {"mprt": "neg_mprt", "smooth_mprt": "neg_smooth_mprt",
            "efficient_mprt": "efficient_mprt",
            "data_randomisation": "neg_data_randomisation",
            "random_logit": "neg_random_logit"}


def _scorers(layers):
    return {name: get_scorer(_SCORERS[name], random_state=0, **_kwargs(layers)[name])
            for name in _FUNCS}


def _oriented(scorer, value):
    """A scorer's value in its metric's orientation."""
    return value if scorer.metric.greater_is_better else -value


def _nanmean(a):
    return np.nanmean(a) if np.isfinite(a).any() else np.nan


@pytest.fixture
def capture(monkeypatch):
    capture = _Capture(randomisation._refit)
    monkeypatch.setattr(randomisation, "_refit", capture)
    return capture


def _check_all(explainer, model, capture):
    layers = randomised_layers(model)[:2]
    labels = model.predict(X)
    kwargs = _kwargs(layers)
    # Through the functions, with the explainer fitted on the training rows.
    ex = _fit_direct(explainer, model, X_TRAIN, Y_TRAIN)
    A = ex.explain(X)
    rows = {name: func(model, X, A, explainer=ex, random_state=0, **kwargs[name])
            for name, func in _FUNCS.items()}
    retrained = capture.calls[-1]
    # Through the scorers, on an ExplainedModel fitted on the same rows.
    em = ExplainedModel(FrozenEstimator(model), explainer).fit(X_TRAIN, Y_TRAIN)
    means = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, scorer in _scorers(layers).items():
            means[name] = _oriented(scorer, scorer(em, X))
    retrained_scorer = capture.calls[-1]

    A_direct, expected = _direct(ex, model, layers, X, labels, X_TRAIN, Y_TRAIN)
    np.testing.assert_allclose(A, A_direct)
    expected_scorer = dict(expected)
    expected["data_randomisation"] = _direct_retrained(ex, X, labels, retrained,
                                                       X_TRAIN)
    expected_scorer["data_randomisation"] = _direct_retrained(
        ex, X, labels, retrained_scorer, X_TRAIN)
    for name in _FUNCS:
        np.testing.assert_allclose(rows[name], expected[name], atol=1e-9,
                                   equal_nan=True, err_msg=f"{name} (function)")
        np.testing.assert_allclose(means[name], _nanmean(expected_scorer[name]),
                                   atol=1e-9, equal_nan=True,
                                   err_msg=f"{name} (scorer)")


# The default run checks the explainers that learn from the model at fit
# (those issue #32 found explaining the original model), a gradient and the
# control; the other explainers of the matrix (masker-based, surrogates,
# PermutationImportance, NoiseTunnel, ...) are checked in the slow run.
_FAST = {"TreeContributions", "CompositeLRP", "DeepTaylor", "PatternNet",
         "PatternAttribution", "Saliency", "RandomExplainer"}


def _matrix():
    out = []
    for name, cls in all_explainers():
        if name in _NOT_TABULAR:
            continue
        marks = [] if name in _FAST else [pytest.mark.slow]
        out.append(pytest.param(name, cls, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name, cls", _matrix())
def test_every_randomisation_check_explains_the_randomised_model(name, cls, net,
                                                                  request, capture):
    model = request.getfixturevalue("booster") if name == "TreeContributions" else net
    _check_all(_explainer(cls), model, capture)


def _fold_expectations(explainer, model, layers, folds, capture_calls):
    """Per fold, each metric's mean computed directly: the explainer fitted
    on the fold's training rows, the scores on its test rows."""
    out = []
    for k, (train, test) in enumerate(folds):
        ex = _fit_direct(explainer, model, X_TRAIN[train], Y_TRAIN[train])
        labels = model.predict(X_TRAIN[test])
        _, expected = _direct(ex, model, layers, X_TRAIN[test], labels,
                              X_TRAIN[train], Y_TRAIN[train])
        expected["data_randomisation"] = _direct_retrained(
            ex, X_TRAIN[test], labels, capture_calls[k], X_TRAIN)
        out.append({name: _nanmean(v) for name, v in expected.items()})
    return out


@pytest.mark.parametrize("cls", [PatternNet,
                                 pytest.param(CompositeLRP, marks=pytest.mark.slow)])
def test_cross_validate_scores_the_randomised_model_of_each_fold(cls, net, capture):
    layers = randomised_layers(net)[:2]
    scorers = _scorers(layers)
    cv = KFold(3)
    folds = list(cv.split(X_TRAIN))
    em = ExplainedModel(FrozenEstimator(net), cls())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cross_validate(em, X_TRAIN, Y_TRAIN, cv=cv, scoring=scorers,
                                error_score="raise")
    expected = _fold_expectations(cls(), net, layers, folds, capture.calls)
    for name, scorer in scorers.items():
        got = _oriented(scorer, result[f"test_{name}"])
        want = [fold[name] for fold in expected]
        np.testing.assert_allclose(got, want, atol=1e-9, equal_nan=True, err_msg=name)


def test_grid_search_scores_the_randomised_model(net):
    layers = randomised_layers(net)[:2]
    scorer = get_scorer("neg_mprt", layers=layers, random_state=0)
    cv = KFold(2)
    search = GridSearchCV(ExplainedModel(FrozenEstimator(net), Saliency()),
                          {"explainer__abs": [False, True]}, cv=cv, scoring=scorer,
                          error_score="raise").fit(X_TRAIN, Y_TRAIN)
    for i, params in enumerate(search.cv_results_["params"]):
        for k, (train, test) in enumerate(cv.split(X_TRAIN)):
            ex = _fit_direct(Saliency(abs=params["explainer__abs"]), net,
                             X_TRAIN[train], Y_TRAIN[train])
            Xe = X_TRAIN[test]
            _, expected = _direct(ex, net, layers, Xe, net.predict(Xe),
                                  X_TRAIN[train], Y_TRAIN[train])
            np.testing.assert_allclose(-search.cv_results_[f"split{k}_test_score"][i],
                                       _nanmean(expected["mprt"]), atol=1e-9)


class _KeepsNoRows:
    """An explainer outside the package: it keeps no fit rows."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def get_params(self, deep=False):
        return {"estimator": self.estimator}

    def set_params(self, **params):
        self.estimator = params.get("estimator", self.estimator)
        return self

    def fit(self, X, y=None):
        self.estimator_ = self.estimator
        return self

    def explain(self, X, *, target=None, row_keys=None):
        return np.asarray(X, dtype=np.float64) * 2.0


@pytest.mark.parametrize("func", [mprt, smooth_mprt, efficient_mprt])
def test_explainer_keeping_no_rows_needs_x_train(func, net):
    ex = _KeepsNoRows(FrozenEstimator(net)).fit(X_TRAIN)
    with pytest.raises(ValueError, match="X_train=...") as info:
        func(net, X, ex.explain(X), explainer=ex, random_state=0)
    assert "fresh clone" in str(info.value)
    # With the rows, it is cloned and fitted on them.
    func(net, X, ex.explain(X), explainer=ex, X_train=X_TRAIN, random_state=0)


def test_x_train_and_y_train_reach_the_clone(net):
    """Given X_train (and y_train), the clone is fitted on them: the same as
    the rows the explainer was fitted on gives the same scores."""
    from sklearn_xai.explainers import PermutationImportance

    ex = _fit_direct(PermutationImportance(n_repeats=2, random_state=0), net,
                     X_TRAIN, Y_TRAIN)
    A = ex.explain(X)
    kept = mprt(net, X, A, explainer=ex, layers=randomised_layers(net)[:1],
                random_state=0)
    given = mprt(net, X, A, explainer=ex, layers=randomised_layers(net)[:1],
                 X_train=X_TRAIN, y_train=Y_TRAIN, random_state=0)
    np.testing.assert_array_equal(kept, given)
    with pytest.raises(ValueError, match="needs the targets"):
        mprt(net, X, A, explainer=ex, X_train=X_TRAIN, random_state=0)


def test_benchmark_fits_the_clone_as_the_cell_fitted_the_explainer():
    """The runner binds the training rows of a cell and their targets: an
    explainer whose fit needs targets is refitted to each randomised model."""
    from sklearn_xai.benchmark import run_benchmark

    config = {
        "datasets": {"d": {"name": "make_gaussian_linear",
                           "params": {"n_samples": 40, "n_features": 4,
                                      "task": "classification"}}},
        "models": {"m": {"name": "linear"}},
        "explainers": {"pi": {"name": "PermutationImportance",
                              "params": {"n_repeats": 2}}},
        "metrics": {"neg_mprt": "neg_mprt", "efficient_mprt": "efficient_mprt"},
        "seeds": [0], "n_explain": 3,
    }
    table = run_benchmark(config, n_jobs=1, backend="sequential").table
    assert (table["status"] == "ok").all(), table[["metric", "error"]].to_string()
