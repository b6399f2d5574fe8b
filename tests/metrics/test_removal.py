"""Sensitivity-n, faithfulness estimate, monotonicity correlation and ROAD:
hand computations on linear models and equality with Quantus 0.6."""

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression

from sklearn_xai.masking import BaselineMasker
from sklearn_xai.masking import NoisyLinearMasker
from sklearn_xai.metrics import get_metric_spec
from sklearn_xai.metrics._removal_correlations import (
    faithfulness_estimate,
    monotonicity_correlation,
    sensitivity_n,
)
from sklearn_xai.metrics._removal_paths import road

RNG = np.random.default_rng(0)
W = np.array([3.0, -2.0, 1.0, 0.5, -1.5, 2.5])
X_TRAIN = RNG.normal(size=(300, 6))
X = RNG.normal(size=(8, 6)) + 0.5
LINEAR = LinearRegression().fit(X_TRAIN, X_TRAIN @ W + 1.0)
EXACT = W * X  # output drops to the zero baseline


# ----------------------------------------------------------------- by hand
def test_exact_attributions_of_a_linear_model_score_one():
    np.testing.assert_allclose(faithfulness_estimate(LINEAR, X, EXACT), 1.0)
    np.testing.assert_allclose(faithfulness_estimate(LINEAR, X, -EXACT), -1.0)
    np.testing.assert_allclose(
        faithfulness_estimate(LINEAR, X, EXACT, features_per_step=2), 1.0)
    np.testing.assert_allclose(
        sensitivity_n(LINEAR, X, EXACT, n_subsets=15, random_state=0), 1.0)
    np.testing.assert_allclose(
        sensitivity_n(LINEAR, X, -EXACT, n_subsets=15, random_state=0), -1.0)
    np.testing.assert_allclose(monotonicity_correlation(LINEAR, X, EXACT), 1.0)
    # |a| is used: the sign of an attribution does not matter
    np.testing.assert_allclose(monotonicity_correlation(LINEAR, X, -EXACT), 1.0)


def test_faithfulness_estimate_by_hand():
    A = RNG.normal(size=X.shape)
    mean = X_TRAIN.mean(axis=0)
    masker = BaselineMasker("mean").fit(X_TRAIN)
    drops = W * (X - mean)  # removing feature i alone
    expected = [np.corrcoef(a, g)[0, 1] for a, g in zip(A, drops)]
    np.testing.assert_allclose(faithfulness_estimate(LINEAR, X, A, masker=masker),
                               expected, rtol=1e-10)
    # groups of 4 (then 2): features ranked by signed attribution, drops add up
    order = np.argsort(-A, axis=1, kind="stable")
    expected = []
    for a, g, o in zip(A, drops, order):
        groups = [o[:4], o[4:]]
        expected.append(np.corrcoef([a[s].sum() for s in groups],
                                    [g[s].sum() for s in groups])[0, 1])
    np.testing.assert_allclose(
        faithfulness_estimate(LINEAR, X, A, masker=masker, features_per_step=4),
        expected, rtol=1e-10)


def test_sensitivity_n_by_hand_and_subset_sizes():
    A = RNG.normal(size=X.shape)
    # a linear model's drop on subset S is sum_{S} w_i x_i: the correlation
    # of the random masses with it is in [-1, 1] and depends on the seed only
    s1 = sensitivity_n(LINEAR, X, A, subset_sizes=[1, 2, 3], n_subsets=20,
                       random_state=1)
    s2 = sensitivity_n(LINEAR, X, A, subset_sizes=[1, 2, 3], n_subsets=20,
                       random_state=1)
    np.testing.assert_array_equal(s1, s2)
    assert np.all(np.abs(s1) <= 1)
    # size 1 with many subsets: every feature appears; the correlation of
    # drops and attributions over the features, weighted by how often each
    # is drawn, tends to faithfulness_estimate's with features_per_step=1
    one = sensitivity_n(LINEAR, X, A, subset_sizes=1, n_subsets=3000, random_state=0)
    np.testing.assert_allclose(one, faithfulness_estimate(LINEAR, X, A), atol=0.05)
    # fractions are floored to sizes
    np.testing.assert_array_equal(
        sensitivity_n(LINEAR, X, A, subset_sizes=[0.5], n_subsets=10, random_state=3),
        sensitivity_n(LINEAR, X, A, subset_sizes=[3], n_subsets=10, random_state=3))
    for bad in ([6], [0.0], [1.5]):
        with pytest.raises(ValueError, match="subset_sizes"):
            sensitivity_n(LINEAR, X, A, subset_sizes=bad)


def test_monotonicity_correlation_by_hand():
    A = RNG.normal(size=X.shape)
    # marginal redraws from 3 background rows: v_i = mean_z (w_i (x_i - z_i))^2 / f(x)^2
    bg = X_TRAIN[:3]
    from sklearn_xai.masking import MarginalMasker

    masker = MarginalMasker(background=bg).fit(X_TRAIN)
    v = ((W * (X[:, None, :] - bg[None])) ** 2).mean(axis=1)
    expected = [spearmanr(np.abs(a), u)[0] for a, u in zip(A, v)]
    np.testing.assert_allclose(monotonicity_correlation(LINEAR, X, A, masker=masker),
                               expected, rtol=1e-10)
    # the default masker with training rows is the marginal one
    s = monotonicity_correlation(LINEAR, X, EXACT, X_train=X_TRAIN, n_draws=50,
                                 random_state=0)
    assert s.mean() > 0.5


def test_road_by_hand_with_a_baseline_and_with_noisy_linear_imputation():
    A = RNG.normal(size=X.shape)
    p = [0.2, 0.5, 1.0]
    k = [1, 3, 6]
    order = np.argsort(-A, axis=1, kind="stable")
    contrib = W * X
    morf = np.mean([np.take_along_axis(contrib, order[:, :kk], 1).sum(1) for kk in k],
                   axis=0)
    lerf = np.mean([np.take_along_axis(contrib, order[:, 6 - kk:], 1).sum(1)
                    for kk in k], axis=0)
    zero = BaselineMasker("zero")
    np.testing.assert_allclose(road(LINEAR, X, A, percentages=p, masker=zero), morf)
    np.testing.assert_allclose(road(LINEAR, X, A, percentages=p, masker=zero,
                                    order="lerf"), lerf)
    # noiseless linear imputation: drops are w . (x - E[x | kept])
    nl = NoisyLinearMasker(noise=0.0).fit(X_TRAIN)
    removed = [np.argsort(np.argsort(-A, 1, kind="stable"), 1) < kk for kk in k]
    exp = nl.expected_rows(X, np.stack(removed, axis=1) == 0)
    drops = ((X[:, None, :] - exp) @ W).mean(axis=1)
    np.testing.assert_allclose(road(LINEAR, X, A, percentages=p, X_train=X_TRAIN,
                                    noise=0.0), drops, rtol=1e-10)
    # the default noise: close to the noiseless drops, seeded per row
    noisy = road(LINEAR, X, A, percentages=p, X_train=X_TRAIN, random_state=0)
    np.testing.assert_allclose(noisy, drops, atol=0.2)
    np.testing.assert_array_equal(
        noisy[2:], road(LINEAR, X[2:], A[2:], percentages=p, X_train=X_TRAIN,
                        random_state=0))


def test_registry_entries():
    assert get_metric_spec("road").default_kwargs == {"order": "morf"}
    lerf = get_metric_spec("neg_road_lerf")
    assert lerf.default_kwargs == {"order": "lerf"} and not lerf.greater_is_better
    for name in ("sensitivity_n", "faithfulness_estimate", "monotonicity_correlation"):
        spec = get_metric_spec(name)
        assert spec.greater_is_better and spec.family == "faithfulness"


def test_errors_name_the_parameter():
    with pytest.raises(ValueError, match="features_per_step"):
        faithfulness_estimate(LINEAR, X, EXACT, features_per_step=7)
    with pytest.raises(ValueError, match="percentages"):
        road(LINEAR, X, EXACT, percentages=[10, 30], masker=BaselineMasker("zero"))
    with pytest.raises(ValueError, match="X_train"):
        road(LINEAR, X, EXACT)  # tabular noisy linear imputation needs training rows


# ---------------------------------------------------------------- Quantus
quantus_marks = pytest.mark.filterwarnings("ignore")


def _torch_problem(d=6, n=12, seed=0):
    torch = pytest.importorskip("torch")
    torch.manual_seed(seed)
    module = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(d, 16), torch.nn.Tanh(),
                                 torch.nn.Linear(16, 3)).eval()

    class TorchClassifier(ClassifierMixin, BaseEstimator):
        def __init__(self, module):
            self.module = module

        def fit(self, X=None, y=None):
            self.classes_ = np.arange(3)
            return self

        def predict_proba(self, X):
            with torch.no_grad():
                logits = self.module(torch.as_tensor(np.asarray(X, np.float32)))
                return torch.softmax(logits, dim=1).double().numpy()

        def predict(self, X):
            return self.predict_proba(X).argmax(axis=1)

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32).astype(np.float64)
    A = rng.normal(size=(n, d)).astype(np.float32).astype(np.float64)
    model = TorchClassifier(module).fit()
    return module, model, X, A


def _q(X):
    return X.reshape(len(X), 1, -1).astype(np.float32)


@quantus_marks
def test_faithfulness_estimate_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    module, model, X, A = _torch_problem()
    y = model.predict(X)
    # softmax=True: Quantus scores the logits by default, we the
    # probabilities of predict_proba (the definitions page states both).
    for step in (1, 2):
        theirs = quantus.FaithfulnessEstimate(
            features_in_step=step, perturb_baseline=0.0, normalise=False, abs=False,
            disable_warnings=True)(module, _q(X), y, _q(A), channel_first=True,
                                   softmax=True, device="cpu")
        ours = faithfulness_estimate(model, X, A, features_per_step=step)
        np.testing.assert_allclose(ours, theirs, atol=2e-5)
    logits = quantus.FaithfulnessEstimate(
        perturb_baseline=0.0, normalise=False, abs=False, disable_warnings=True)(
        module, _q(X), y, _q(A), channel_first=True, softmax=False, device="cpu")
    assert np.abs(faithfulness_estimate(model, X, A) - np.asarray(logits)).max() > 0.1


@quantus_marks
def test_monotonicity_correlation_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    module, model, X, A = _torch_problem(seed=1)
    y = model.predict(X)
    # Quantus' deterministic setting: one draw of a fixed baseline
    theirs = quantus.MonotonicityCorrelation(
        nr_samples=1, perturb_baseline=0.0, normalise=False, abs=True,
        disable_warnings=True)(module, _q(X), y, _q(A), channel_first=True,
                               softmax=True, device="cpu")
    ours = monotonicity_correlation(model, X, A)
    np.testing.assert_allclose(ours, theirs, atol=2e-5)


@quantus_marks
def test_sensitivity_n_quantus_code_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    module, model, X, A = _torch_problem(d=10, n=30, seed=2)
    y = model.predict(X)
    theirs = quantus.SensitivityN(
        perturb_baseline=0.0, normalise=False, abs=False, disable_warnings=True)(
        module, _q(X), y, _q(A), channel_first=True, softmax=True, device="cpu")
    ours = sensitivity_n(model, X, A, convention="quantus_code")
    np.testing.assert_allclose(ours, np.mean(theirs), atol=2e-5)


@quantus_marks
def test_road_removal_sets_and_imputation_equal_quantus():
    """Quantus' ROAD only takes images: a 4 x 4 one-channel image, noise 0.
    Its accuracy at ``p`` is the fraction of rows whose class survives the
    removal of their top ``p`` pixels: the same removals and imputation as
    ours (``output="predict"`` gives a zero drop exactly when it survives
    here, the predicted labels being the class indices)."""
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    module, model, X, A = _torch_problem(d=16, n=20, seed=3)
    y = model.predict(X)
    images = X.reshape(-1, 1, 4, 4).astype(np.float32)
    percentages = [10, 30, 50, 70, 90]
    theirs = quantus.ROAD(percentages=percentages, noise=0.0, normalise=False,
                          abs=False, disable_warnings=True)(
        module, images, y, A.reshape(-1, 1, 4, 4).astype(np.float32),
        channel_first=True, softmax=True, device="cpu")
    masker = NoisyLinearMasker(noise=0.0, image_shape=(4, 4))
    for p in percentages:
        drop = road(model, images.reshape(-1, 16).astype(np.float64), A,
                    percentages=[p / 100], masker=masker, output="predict")
        np.testing.assert_allclose(np.mean(drop == 0), theirs[p], atol=1e-12)
