"""Tests of the retraining (ROAR) metrics: literal ports of XAI-Bench's
loops, hand computations, invariances, and their use by name through
explanation scorers (training attributions computed once per fitted
explainer)."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_xai.compose import ExplainedModel
from sklearn_xai.datasets import MultivariateGaussian, make_gaussian_linear
from sklearn_xai.explainers import FeatureAblation, RandomExplainer
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import (
    get_scorer,
    roar_faith_minus,
    roar_faith_plus,
    roar_mono_minus,
    roar_mono_plus,
)
from sklearn_xai.metrics._registry import get_metric_spec

ROAR = {
    "roar_faith_minus": roar_faith_minus,
    "roar_faith_plus": roar_faith_plus,
    "roar_mono_minus": roar_mono_minus,
    "roar_mono_plus": roar_mono_plus,
}


@pytest.fixture(scope="module")
def problem():
    bunch = make_gaussian_linear(n_samples=240, n_features=4, weights=[3.0, -2.0, 1.0, 0.5],
                                 rho=0.3, random_state=0)
    X, y = bunch.data, bunch.target
    return bunch.distribution, X[:200], y[:200], X[200:]


@pytest.mark.parametrize("name", sorted(ROAR))
def test_registered_with_explainer(name):
    spec = get_metric_spec(name)
    assert spec.func is ROAR[name]
    assert "explainer" in spec.requires and "distribution" in spec.requires


@pytest.mark.parametrize("name", sorted(ROAR))
def test_scorer_equals_direct_call(problem, name):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(),
                        FeatureAblation(masker=BaselineMasker("mean"))).fit(X_train, y_train)
    scorer = get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist)
    # Training attributions computed here, independently of the metric: for a
    # linear model, feature ablation with the mean baseline is w_j (x_j - mean_j).
    w = em.model_.coef_
    A_train = w * (X_train - X_train.mean(axis=0))
    A_test = w * (X_test - X_train.mean(axis=0))
    np.testing.assert_allclose(em.explainer_.explain(X_train), A_train, atol=1e-10)
    expected = ROAR[name](em.model_, X_test, A_test, X_train=X_train, y_train=y_train,
                          attributions_train=A_train, distribution=dist)
    assert scorer(em, X_test) == pytest.approx(float(np.mean(expected)), abs=1e-12)
    # Binding other training attributions changes the score: they are used.
    A_rand = np.random.default_rng(0).normal(size=A_train.shape)
    other = ROAR[name](em.model_, X_test, A_test, X_train=X_train, y_train=y_train,
                       attributions_train=A_rand, distribution=dist)
    bound = get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist,
                       attributions_train=A_rand)
    assert bound(em, X_test) == pytest.approx(float(np.mean(other)), abs=1e-12)


def test_grid_search_by_name(problem):
    dist, X_train, y_train, X_test = problem
    explainers = [FeatureAblation(masker=BaselineMasker("mean")),
                  RandomExplainer(random_state=0)]
    scoring = {n: get_scorer(n, X_train=X_train, y_train=y_train, distribution=dist)
               for n in ("roar_faith_minus", "roar_mono_plus")}
    cv = KFold(n_splits=2)
    search = GridSearchCV(ExplainedModel(LinearRegression(), explainers[0]),
                          {"explainer": explainers}, scoring=scoring, cv=cv,
                          refit=False).fit(X_train, y_train)
    for c, explainer in enumerate(explainers):
        for split, (fit_rows, test_rows) in enumerate(cv.split(X_train)):
            em = ExplainedModel(LinearRegression(), explainer).fit(
                X_train[fit_rows], y_train[fit_rows])
            A = em.explain(X_train[test_rows])
            A_train = em.explainer_.explain(X_train)
            for name in scoring:
                direct = ROAR[name](em.model_, X_train[test_rows], A, X_train=X_train,
                                    y_train=y_train, attributions_train=A_train,
                                    distribution=dist)
                got = search.cv_results_[f"split{split}_test_{name}"][c]
                assert got == pytest.approx(float(np.mean(direct)), abs=1e-12)
    # Exact attributions beat random ones on roar-faith-.
    faith = search.cv_results_["mean_test_roar_faith_minus"]
    assert faith[0] > faith[1] + 0.3


def test_training_attributions_shared_between_scorers(problem):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    calls = []
    explain = em.explainer_.explain

    def counting(X, **kwargs):
        calls.append(len(X))
        return explain(X, **kwargs)

    em.explainer_.explain = counting
    for name in ROAR:
        get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist)(em, X_test)
    assert calls.count(len(X_train)) == 1
    # A refit explainer does not reuse them.
    em.fit(X_train, y_train + 1.0)
    em.explainer_.explain = counting
    get_scorer("roar_mono_minus", X_train=X_train, y_train=y_train,
               distribution=dist)(em, X_test)
    assert calls.count(len(X_train)) == 2


@pytest.mark.parametrize("name", sorted(ROAR))
def test_missing_training_data_names_the_binding(problem, name):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    with pytest.raises(ValueError, match=rf"X_train=\.\.\., y_train=\.\.\..*get_scorer\('{name}'"):
        get_scorer(name, distribution=dist)(em, X_test)
    with pytest.raises(ValueError, match=r"needs its training data: pass y_train=\.\.\."):
        get_scorer(name, X_train=X_train, distribution=dist)(em, X_test)
    A = em.explain(X_test)
    with pytest.raises(ValueError, match="attributions_train= .* or explainer="):
        ROAR[name](em.model_, X_test, A, X_train=X_train, y_train=y_train,
                   distribution=dist)


def test_explainer_must_explain(problem):
    dist, X_train, y_train, X_test = problem
    model = LinearRegression().fit(X_train, y_train)
    with pytest.raises(ValueError, match="explainer"):
        roar_mono_plus(model, X_test, X_test, X_train=X_train, y_train=y_train,
                       explainer=object(), distribution=dist)


def test_metadata_routing_on(problem):
    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    scorer = get_scorer("roar_faith_plus", X_train=X_train, y_train=y_train,
                        distribution=dist)
    off = scorer(em, X_test)
    with sklearn.config_context(enable_metadata_routing=True):
        on = scorer(em, X_test)
    assert on == off


# ------------------------------------------------- the metrics, called directly
def _random_attributions(shape, seed=1):
    return np.random.default_rng(seed).normal(size=shape)


def _xb_roar_faith(model, X, A, X_train, y_train, A_train, dist, version, bugs):
    """XAI-Bench's ROARFaithfulness loop (with its bugs when ``bugs``)."""
    n, d = X.shape
    X_all = np.vstack([X_train, X])
    W_all = np.abs(np.vstack([A_train, A]))
    y_preds = model.predict(X)
    if version == "inc":
        y_preds = np.full(n, model.predict(X).mean())
    new = np.zeros((d, n))
    for j in range(d):
        X_new = X_all.copy()
        for i in range(len(X_all)):
            # The code's np.argsort(|w|)[::-1] (numpy 1.19's default sort is
            # stable at this size): ties by the higher column.  The paper
            # convention breaks them by the lower column.
            order = (np.argsort(W_all[i], kind="stable")[::-1] if bugs
                     else np.argsort(-W_all[i], kind="stable"))
            mask = np.ones(d, dtype=int)
            mask[order[j]] = 0
            if version == "inc":
                mask = 1 - mask
            X_new[i] = dist.conditional_mean(X_new[i : i + 1], mask.astype(bool))[0]
        refit = LinearRegression().fit(X_new[: len(X_train)], y_train)
        new[j] = refit.predict(X_new[len(X_train):])
    deltas = np.abs(y_preds[:, None] - new.T)  # (n, rank)
    if bugs:
        weights = W_all[:n]  # training rows, feature order
    else:
        weights = np.take_along_axis(np.abs(A), np.argsort(-np.abs(A), axis=1,
                                                             kind="stable"), axis=1)
    return np.array([np.corrcoef(weights[i], deltas[i])[0, 1] for i in range(n)])


@pytest.fixture(scope="module")
def roar_problem():
    dist = MultivariateGaussian.equicorrelated(4, rho=0.5)
    X_train = dist.sample(150, random_state=0)
    w = np.array([2.0, -1.0, 0.5, 0.0])
    y_train = X_train @ w + np.sin(2 * X_train[:, 0])
    X = dist.sample(12, random_state=1)
    model = LinearRegression().fit(X_train, y_train)
    A_train = _random_attributions(X_train.shape, seed=12) * [4, 3, 2, 1]
    A = _random_attributions(X.shape, seed=13) * [4, 3, 2, 1]
    return dist, model, X, A, X_train, y_train, A_train


def test_roar_faith_matches_xai_bench_loop(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    kw = dict(X_train=X_train, y_train=y_train, attributions_train=A_train,
              distribution=dist)
    for metric, version in [(roar_faith_minus, "dec"), (roar_faith_plus, "inc")]:
        extra = {} if version == "dec" else {"empty_value": "explained_mean"}
        for bugs in (False, True):
            np.testing.assert_allclose(
                metric(model, X, A, convention="xai_bench_code" if bugs else "paper",
                       **kw, **extra),
                _xb_roar_faith(model, X, A, X_train, y_train, A_train, dist, version,
                               bugs),
                atol=1e-10,
            )


def test_roar_faith_plus_paper_reference_value(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    # [P]: |f_r(x_{o_r}) - f_r(E[X])|, by hand with each refitted model.
    d = X.shape[1]
    order_x = np.argsort(-np.abs(A), axis=1, kind="stable")
    order_tr = np.argsort(-np.abs(A_train), axis=1, kind="stable")
    deltas = np.zeros((len(X), d))
    for r in range(d):
        def impute(Z, order, r=r):
            out = Z.copy()
            for i in range(len(Z)):
                keep = np.zeros(d, dtype=bool)
                keep[order[i, r]] = True
                out[i] = dist.conditional_mean(Z[i : i + 1], keep)[0]
            return out
        refit = LinearRegression().fit(impute(X_train, order_tr), y_train)
        deltas[:, r] = np.abs(refit.predict(impute(X, order_x))
                              - refit.predict(dist.mean[None])[0])
    weights = np.take_along_axis(np.abs(A), order_x, axis=1)
    expected = [np.corrcoef(weights[i], deltas[i])[0, 1] for i in range(len(X))]
    np.testing.assert_allclose(
        roar_faith_plus(model, X, A, X_train=X_train, y_train=y_train,
                        attributions_train=A_train, distribution=dist),
        expected, atol=1e-10,
    )


def _tied(A):
    """Attributions with ties: rounded to one of three magnitudes."""
    return np.round(np.clip(A, -2, 2))


def test_roar_faith_xai_bench_code_orders_ties_as_its_argsort(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    A, A_train = _tied(A), _tied(A_train)
    assert all(len(set(np.abs(a))) < len(a) for a in A)  # every row has ties
    kw = dict(X_train=X_train, y_train=y_train, attributions_train=A_train,
              distribution=dist, nan_policy="zero")
    for metric, version in [(roar_faith_minus, "dec"), (roar_faith_plus, "inc")]:
        extra = {} if version == "dec" else {"empty_value": "explained_mean"}
        with np.errstate(invalid="ignore"):  # np.corrcoef of constant rows
            expected = [np.nan_to_num(_xb_roar_faith(model, X, A, X_train, y_train,
                                                     A_train, dist, version, bugs))
                        for bugs in (False, True)]
        for bugs in (False, True):
            np.testing.assert_allclose(
                metric(model, X, A, convention="xai_bench_code" if bugs else "paper",
                       **kw, **extra),
                expected[bugs], atol=1e-10,
            )


@pytest.mark.parametrize("tied", [False, True])
def test_roar_mono_matches_xai_bench_loop(roar_problem, tied):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    if tied:
        A, A_train = _tied(A), _tied(A_train)
    d = X.shape[1]
    for metric, version in [(roar_mono_minus, "inc"), (roar_mono_plus, "dec")]:
        preds = np.zeros((d + 1, len(X)))
        X_all = np.vstack([X_train, X])
        W_all = np.abs(np.vstack([A_train, A]))
        for j in range(d + 1):
            X_new = X_all.copy()
            for i in range(len(X_all)):
                order = np.argsort(W_all[i], kind="stable")
                if version == "dec":
                    order = order[::-1]  # the code's tie order
                mask = np.zeros(d, dtype=bool)
                mask[order[:j]] = True
                X_new[i] = dist.conditional_mean(X_new[i : i + 1], mask)[0]
            refit = LinearRegression().fit(X_new[: len(X_train)], y_train)
            preds[j] = refit.predict(X_new[len(X_train):])
        expected = []
        for dl in np.abs(np.diff(preds, axis=0)).T:
            if version == "dec":
                dl = dl[::-1]
            expected.append(np.sum(np.diff(dl) >= 0) / (d - 1))
        code = {"convention": "xai_bench_code"} if version == "dec" else {}
        kw = dict(X_train=X_train, y_train=y_train, attributions_train=A_train,
                  distribution=dist)
        np.testing.assert_allclose(metric(model, X, A, **kw, **code), expected)
        if tied and code:  # the paper convention takes the lower column first
            assert not np.allclose(metric(model, X, A, **kw), expected)


def test_roar_interventional_imputes_feature_means(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    kw = dict(X_train=X_train, y_train=y_train, attributions_train=A_train)
    obs_mask = roar_mono_plus(model, X, A, masker=BaselineMasker("zero"), **kw)
    np.testing.assert_allclose(
        roar_mono_plus(model, X, A, distribution=dist, value="interventional", **kw),
        obs_mask,  # the distribution's mean is 0, the baseline too
    )


def test_roar_errors(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    with pytest.raises(ValueError, match="X_train="):
        roar_faith_minus(model, X, A, distribution=dist)
    with pytest.raises(ValueError, match="exactly one"):
        roar_mono_minus(model, X, A, X_train=X_train, y_train=y_train,
                        attributions_train=A_train)
    with pytest.raises(ValueError, match="attributions_train"):
        roar_mono_minus(model, X, A, X_train=X_train, y_train=y_train,
                        attributions_train=A_train[:5], distribution=dist)


def test_roar_feature_permutation_equivariance(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem
    perm = np.array([2, 0, 3, 1])
    pdist = MultivariateGaussian(dist.mean[perm], dist.cov[np.ix_(perm, perm)])
    pmodel = LinearRegression().fit(X_train[:, perm], y_train)
    for metric in (roar_faith_minus, roar_faith_plus, roar_mono_minus, roar_mono_plus):
        base = metric(model, X, A, X_train=X_train, y_train=y_train,
                      attributions_train=A_train, distribution=dist)
        permuted = metric(pmodel, X[:, perm], A[:, perm], X_train=X_train[:, perm],
                          y_train=y_train, attributions_train=A_train[:, perm],
                          distribution=pdist)
        np.testing.assert_allclose(permuted, base, atol=1e-8)
    # XAI-Bench's roar-faith pairs ranks with feature-ordered weights: not equivariant.
    kw = dict(y_train=y_train, convention="xai_bench_code")
    base = roar_faith_minus(model, X, A, X_train=X_train, attributions_train=A_train,
                            distribution=dist, **kw)
    permuted = roar_faith_minus(pmodel, X[:, perm], A[:, perm], X_train=X_train[:, perm],
                                attributions_train=A_train[:, perm], distribution=pdist,
                                **kw)
    assert not np.allclose(permuted, base)


# ------------------------------------------------------------------ the memo


def test_the_original_model_sees_each_explained_row_once(roar_problem):
    dist, model, X, A, X_train, y_train, A_train = roar_problem

    class Counting(LinearRegression):
        def predict(self, Z):
            self.rows_seen_ = getattr(self, "rows_seen_", 0) + len(Z)
            return super().predict(Z)

    counting = Counting().fit(X_train, y_train)
    roar_faith_minus(counting, X, A, X_train=X_train, y_train=y_train,
                     attributions_train=A_train, distribution=dist)
    assert counting.rows_seen_ == len(X)  # f(x); the refits are clones


def test_training_attributions_are_remembered_by_the_explainer_only(problem):
    import gc
    import weakref

    dist, X_train, y_train, X_test = problem
    em = ExplainedModel(LinearRegression(), FeatureAblation()).fit(X_train, y_train)
    calls = []
    explain = em.explainer_.explain

    def counting(X, **kwargs):
        calls.append(len(X))
        return explain(X, **kwargs)

    em.explainer_.explain = counting
    # Called directly, the metric explains the training rows every time.
    for _ in range(2):
        roar_mono_plus(em.model_, X_test, em.explain(X_test), X_train=X_train,
                       y_train=y_train, explainer=em, distribution=dist)
    assert calls.count(len(X_train)) == 2
    # Through scorers, once per fit of the explainer: the memo lives on it.
    for name in ("roar_mono_plus", "roar_faith_minus"):
        get_scorer(name, X_train=X_train, y_train=y_train, distribution=dist)(em, X_test)
    assert calls.count(len(X_train)) == 3
    ref = weakref.ref(em)
    del em
    gc.collect()
    assert ref() is None  # nothing else keeps the explainer (or its memo)
