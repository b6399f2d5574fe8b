import numpy as np
import pytest
from sklearn.base import clone
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression

from sklearn_xai.benchmark import run_benchmark
from sklearn_xai.compose import TransformedExplainer
from sklearn_xai.explainers import FeatureAblation, LocalLinearSurrogate, RandomExplainer
from sklearn_xai.metrics import faithfulness_correlation


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4))
    model = LinearRegression().fit(X, X @ [2.0, -1.0, 0.5, -3.0])
    return X, model


def test_abs_of_the_inner_attributions(data):
    X, model = data
    inner = FeatureAblation(FrozenEstimator(model)).fit(X)
    ex = TransformedExplainer(FeatureAblation(), func="abs",
                              estimator=FrozenEstimator(model)).fit(X)
    A = inner.transform(X[:10])
    assert (A < 0).any()
    np.testing.assert_array_equal(ex.transform(X[:10]), np.abs(A))
    B, n = ex.explain(X[:10], return_n_evaluations=True)
    np.testing.assert_array_equal(B, np.abs(A))
    assert n == inner.explain(X[:10], return_n_evaluations=True)[1] > 0
    assert ex.estimator_.estimator is model and ex.n_features_in_ == 4


def test_row_keys_and_target_are_forwarded(data):
    X, model = data
    lime = LocalLinearSurrogate(FrozenEstimator(model), n_perturbations=30, random_state=0)
    ex = TransformedExplainer(lime, func=np.negative).fit(X)
    inner = ex.explainer_
    keys = [5, 5, 6]
    np.testing.assert_array_equal(ex.explain(X[:3], row_keys=keys),
                                  -inner.explain(X[:3], row_keys=keys))
    assert not np.array_equal(ex.explain(X[:3], row_keys=keys), ex.explain(X[:3]))


def test_bad_parameters(data):
    X, model = data
    with pytest.raises(ValueError, match="takes no estimator parameter"):
        TransformedExplainer(_NoEstimator(), estimator=model).fit(X)
    bad = TransformedExplainer(FeatureAblation(FrozenEstimator(model)),
                               func=lambda A: A.sum(axis=1)).fit(X)
    with pytest.raises(ValueError, match="func must return an array of the "):
        bad.transform(X[:2])
    with pytest.raises(Exception, match="func"):
        TransformedExplainer(FeatureAblation(), func="square").fit(X)


class _NoEstimator(RandomExplainer):
    def __init__(self, random_state=None):
        self.random_state = random_state

    def get_params(self, deep=True):
        return {"random_state": self.random_state}


def test_metrics_and_runner_take_it(data):
    X, model = data
    ex = TransformedExplainer(FeatureAblation(FrozenEstimator(model))).fit(X)
    s = faithfulness_correlation(model, X[:5], ex.transform(X[:5]), random_state=0,
                                 absolute=True)
    assert s.shape == (5,)
    benchmark = {
        "datasets": {"lin": {"name": "make_gaussian_linear",
                             "params": {"n_samples": 200, "n_features": 4}}},
        "models": ["linear_regression"],
        "explainers": {"abs_ablation": {
            "name": "sklearn_xai.compose.TransformedExplainer",
            "params": {"explainer": {"name": "FeatureAblation"}, "func": "abs"}}},
        "metrics": ["sparseness"],
        "seeds": [0], "n_explain": 10,
    }
    table = run_benchmark(benchmark, n_jobs=1).table
    assert (table["status"] == "ok").all(), table["error"].tolist()


def test_tags_are_the_inner_explainers():
    from sklearn.utils import get_tags

    from sklearn_xai.base import get_explainer_tags
    from sklearn_xai.explainers import KernelSHAP, Saliency
    from sklearn_xai.masking import GaussianConditionalMasker

    for inner in (FeatureAblation(), RandomExplainer(), Saliency(),
                  KernelSHAP(random_state=0),
                  FeatureAblation(masker=GaussianConditionalMasker(n_draws=3))):
        ex = TransformedExplainer(inner)
        assert get_explainer_tags(ex) == get_explainer_tags(inner), inner
        assert get_tags(ex).non_deterministic == get_tags(inner).non_deterministic
    tags = get_explainer_tags(TransformedExplainer(RandomExplainer()))
    assert tags.stochastic and not tags.requires_estimator and not tags.shares_row_keys
    assert get_explainer_tags(TransformedExplainer(Saliency())).differentiable
    # A copy: editing the wrapper's tags leaves the inner explainer's alone.
    inner = FeatureAblation()
    get_tags(TransformedExplainer(inner)).explainer_tags.stochastic = True
    assert not get_explainer_tags(inner).stochastic


def test_stochastic_inner_gets_row_streams(data):
    X, model = data
    lime = LocalLinearSurrogate(FrozenEstimator(model), n_perturbations=30)
    def explain(seed):
        ex = TransformedExplainer(clone(lime).set_params(random_state=seed))
        return ex.fit(X).transform(X[:3])

    a, b, c = explain(0), explain(0), explain(1)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


@pytest.mark.parametrize("columns", [None, ["a", "b", "c"]])
def test_both_meta_explainers_take_the_inner_input_attributes(columns):
    # ExplainedModel and TransformedExplainer fit their inner explainer the
    # same way: its n_features_in_ and, from a DataFrame, its column names.
    import pandas as pd

    from sklearn_xai.compose import ExplainedModel
    from sklearn_xai.masking import BaselineMasker

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = X @ [1.0, -2.0, 0.5]
    X = X if columns is None else pd.DataFrame(X, columns=columns)
    model = LinearRegression().fit(X, y)
    ablation = FeatureAblation(masker=BaselineMasker("zero"))
    for meta in (ExplainedModel(LinearRegression(), ablation).fit(X, y),
                 TransformedExplainer(clone(ablation), func="abs",
                                      estimator=FrozenEstimator(model)).fit(X, y)):
        assert meta.explainer_.n_features_in_ == meta.n_features_in_ == 3
        if columns is None:
            assert not hasattr(meta, "feature_names_in_")
        else:
            assert list(meta.feature_names_in_) == columns
        doc = type(meta).transform.__doc__
        assert ("        Parameters\n        ----------\n        X : array-like of shape "
                "(n_samples, n_features)\n\n        Returns\n        -------\n        "
                "attributions : ndarray of shape (n_samples, n_features)\n") in doc
