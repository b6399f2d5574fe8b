"""Tests of the axiomatic family (completeness, non-sensitivity, input
invariance): hand computations on linear models, known answers (Shapley
values and integrated gradients are complete; gradients are input
invariant, gradient × input is not; Kindermans et al. 2019) and equality
with Quantus 0.6 on a torch model."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.explainers import (
    ExactShapley,
    FeatureAblation,
    InputXGradient,
    IntegratedGradients,
    KernelSHAP,
    Saliency,
    ShapleyValueSampling,
)
from sklearn_xai.masking import BaselineMasker, MarginalMasker
from sklearn_xai.metrics import (
    completeness,
    input_invariance,
    non_sensitivity,
    shifted_model,
)
from sklearn_xai.metrics._registry import get_metric_spec
from sklearn_xai.utils._stats import UndefinedScoreWarning

torch = pytest.importorskip("torch")

W = np.array([3.0, -2.0, 0.0, 1.0, 0.0])


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 5))
    return X, LinearRegression().fit(X, X @ W + 0.5)


class _ConvNet(torch.nn.Module):
    """Rows (n, d) or (n, 1, d) -> logits (n, k); the first layer is a
    ``Conv1d`` over the whole row (a dense layer Quantus can shift)."""

    def __init__(self, d, hidden=16, k=3, null=(), seed=0):
        super().__init__()
        torch.manual_seed(seed)
        self.conv = torch.nn.Conv1d(1, hidden, kernel_size=d)
        self.out = torch.nn.Linear(hidden, k)
        with torch.no_grad():
            self.conv.weight[:, :, list(null)] = 0.0

    def forward(self, X):
        H = self.conv(X.reshape(X.shape[0], 1, -1)).flatten(1)
        return self.out(torch.tanh(H))


class _TorchClassifier(ClassifierMixin, BaseEstimator):
    """A fitted torch module as a differentiable classifier (softmax)."""

    def __init__(self, module=None):
        self.module = module

    def fit(self, X, y=None):
        self.module_ = self.module.eval()
        self.n_features_in_ = np.asarray(X).shape[1]
        with torch.no_grad():
            k = self.module_(torch.zeros(1, self.n_features_in_)).shape[1]
        self.classes_ = np.arange(k)
        self.predict_nonlinearity = lambda out: torch.softmax(out, dim=-1)
        return self

    def predict_proba(self, X):
        with torch.no_grad():
            Z = torch.as_tensor(np.asarray(X, dtype=np.float32))
            return torch.softmax(self.module_(Z), dim=1).double().numpy()

    def predict(self, X):
        return self.predict_proba(X).argmax(axis=1)


def _torch_problem(d=6, n=20, null=(), seed=0):
    net = _ConvNet(d, null=null, seed=seed).eval()
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32).astype(np.float64)
    X_train = rng.normal(size=(100, d)).astype(np.float32).astype(np.float64)
    clf = _TorchClassifier(net).fit(X_train)
    return net, clf, X, X_train


def _quantus_kwargs(**kw):
    return dict(abs=False, normalise=False, disable_warnings=True,
                display_progressbar=False, **kw)


# ------------------------------------------------------------ completeness
@pytest.mark.parametrize("masker", [None, "mean", "marginal"])
def test_completeness_of_exact_shapley_values_of_a_linear_model(linear, masker):
    # phi_j = w_j (x_j - E[b_j]) sums to f(x) - v_x(empty) for each masker.
    X, model = linear
    if masker is None:
        base = np.zeros(5)
    elif masker == "mean":
        masker, base = BaselineMasker("mean").fit(X), X.mean(axis=0)
    else:
        masker = MarginalMasker(background=X[:20]).fit(X)
        base = X[:20].mean(axis=0)
    exact = model.coef_ * (X - base)
    np.testing.assert_allclose(completeness(model, X, exact, masker=masker), 0.0,
                               atol=1e-12)
    # The gap of any other attribution is |sum_j a_j - sum_j phi_j|, by hand.
    other = model.coef_ * X + 0.25
    expected = np.abs(other.sum(axis=1) - exact.sum(axis=1))
    np.testing.assert_allclose(completeness(model, X, other, masker=masker),
                               expected, rtol=1e-10, atol=1e-12)


def test_relative_completeness_divides_by_the_output_change(linear):
    X, model = linear
    A = np.zeros_like(X)  # the whole change is missed: relative gap 1
    change = model.predict(X) - model.predict(np.zeros((1, 5)))
    np.testing.assert_allclose(completeness(model, X, A), np.abs(change), rtol=1e-12)
    np.testing.assert_allclose(completeness(model, X, A, relative=True), 1.0,
                               rtol=1e-12)
    # A row at the baseline has no relative gap.
    Z = np.vstack([X[:2], np.zeros((1, 5))])
    with pytest.warns(UndefinedScoreWarning):
        s = completeness(model, Z, np.ones((3, 5)), relative=True)
    assert np.isnan(s[2]) and np.all(np.isfinite(s[:2]))
    s0 = completeness(model, Z, np.ones((3, 5)), relative=True, nan_policy="zero")
    assert s0[2] == 0.0
    with pytest.raises(ValueError, match="baseline"):
        completeness(model, Z, np.ones((3, 5)), relative=True, nan_policy="raise")


def test_exact_shapley_of_a_nonlinear_model_is_complete():
    # Efficiency: the Shapley values of any model sum to v(N) - v(empty)
    # for the masker they are computed with.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int)
    model = LogisticRegression().fit(np.column_stack([X, X[:, 0] * X[:, 1]]), y)

    class Product(ClassifierMixin, BaseEstimator):
        def fit(self, X, y=None):
            self.classes_ = model.classes_
            return self

        def predict_proba(self, X):
            return model.predict_proba(np.column_stack([X, X[:, 0] * X[:, 1]]))

    clf = Product().fit(X)
    masker = BaselineMasker("mean").fit(X)
    ex = ExactShapley(FrozenEstimator(clf), masker=masker).fit(X)
    A = ex.transform(X[:10])
    assert completeness(clf, X[:10], A, masker=masker).max() < 1e-12
    # Occlusion (one feature at a time) is not complete with an interaction.
    occl = FeatureAblation(FrozenEstimator(clf), masker=masker).fit(X).transform(X[:10])
    assert completeness(clf, X[:10], occl, masker=masker).max() > 1e-3


@pytest.mark.parametrize("explainer", [ShapleyValueSampling, KernelSHAP])
def test_sampled_shapley_values_are_complete(linear, explainer):
    # Permutation sampling and KernelSHAP's constrained regression keep
    # efficiency exactly, whatever their sampling error per feature.
    X, model = linear
    masker = BaselineMasker("mean").fit(X)
    ex = explainer(FrozenEstimator(model), masker=masker, random_state=0).fit(X)
    A = ex.transform(X[:10])
    assert completeness(model, X[:10], A, masker=masker).max() < 1e-10
    # Against another baseline they miss f(b') - f(b) on every row.
    gap = completeness(model, X[:10], A)
    np.testing.assert_allclose(gap, abs(model.predict(X.mean(axis=0)[None])[0]
                                        - model.predict(np.zeros((1, 5)))[0]),
                               rtol=1e-8)


def test_integrated_gradients_are_complete_up_to_their_quadrature():
    net, clf, X, X_train = _torch_problem()
    ig = IntegratedGradients(FrozenEstimator(clf), n_steps=64).fit(X_train)
    gap = completeness(clf, X, ig.transform(X))
    assert gap.max() < 1e-4  # Gauss-Legendre on a smooth path; float32 model
    # Gradient x input is not complete for a nonlinear model.
    ixg = InputXGradient(FrozenEstimator(clf)).fit(X_train).transform(X)
    assert completeness(clf, X, ixg).mean() > 100 * gap.mean()


def test_completeness_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    net, clf, X, _ = _torch_problem()
    y = clf.predict(X)
    change = (clf.predict_proba(X) - clf.predict_proba(np.zeros_like(X)))[
        np.arange(len(X)), y].astype(np.float32)
    # Half the rows exactly complete (in Quantus' float32), half off by 0.1.
    A = np.zeros(X.shape, dtype=np.float32)
    A[:, 0] = change
    A[1::2, 0] += 0.1
    metric = quantus.Completeness(perturb_baseline=0.0, **_quantus_kwargs())
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 6).astype(np.float32),
                               y_batch=y, a_batch=A.reshape(-1, 1, 6), softmax=True,
                               channel_first=True, device="cpu"))
    ours = completeness(clf, X, A.astype(np.float64))
    np.testing.assert_array_equal(theirs, ours < 1e-6)
    assert theirs[::2].all() and not theirs[1::2].any()
    np.testing.assert_allclose(ours[1::2], 0.1, atol=1e-6)


# --------------------------------------------------------- non-sensitivity
def test_non_sensitivity_counts_the_symmetric_difference_by_hand(linear):
    X, model = linear  # features 2 and 4 are null players (w = 0)
    rows = X[:4]
    A = np.array([
        [1.0, 1.0, 0.0, 1.0, 0.0],   # exact support: 0 violations
        [1.0, 1.0, 1.0, 1.0, 1.0],   # credits both null players: 2
        [0.0, 1.0, 0.0, 1.0, 0.0],   # misses feature 0: 1
        [0.0, 0.0, 1.0, -1.0, 0.0],  # misses 0 and 1, credits 2: 3
    ])
    expected = [0.0, 2.0, 1.0, 3.0]
    np.testing.assert_array_equal(non_sensitivity(model, rows, A), expected)
    np.testing.assert_allclose(non_sensitivity(model, rows, A, normalize=True),
                               np.array(expected) / 5)
    # Quantus' signed test takes the negative attribution of row 3 for zero.
    np.testing.assert_array_equal(
        non_sensitivity(model, rows, A, convention="quantus_code"), [0, 2, 1, 4])


def test_non_sensitivity_tolerances(linear):
    X, model = linear
    x = X[:1].copy()
    x[0, 3] = 1e-3  # removing feature 3 moves f by w_3 x_3 = 1e-3
    A = (model.coef_ * x)  # zero on the null players
    assert non_sensitivity(model, x, A, eps=1e-6)[0] == 0
    # eps above 1e-3: feature 3 becomes a null player that is credited...
    assert non_sensitivity(model, x, A, eps=1e-2, attribution_eps=1e-6)[0] == 1
    # ... unless its attribution counts as zero too (attribution_eps=eps).
    assert non_sensitivity(model, x, A, eps=1e-2)[0] == 0


def test_non_sensitivity_with_a_marginal_masker_compares_the_expected_output(linear):
    X, model = linear
    bg = X[:10]
    masker = MarginalMasker(background=bg).fit(X)
    # v_x(N \ {j}) - f(x) = w_j (mean(bg_j) - x_j): zero only where w_j = 0.
    A = model.coef_ * (X[20:30] - bg.mean(axis=0))
    np.testing.assert_array_equal(
        non_sensitivity(model, X[20:30], A, masker=masker, eps=1e-9), 0.0)


def test_non_sensitivity_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    # Features 1 and 4 do not reach the network: null players.
    net, clf, X, _ = _torch_problem(null=(1, 4))
    rng = np.random.default_rng(3)
    A = rng.normal(size=X.shape).astype(np.float32)
    A[rng.random(X.shape) < 0.4] = 0.0
    y = clf.predict(X)
    eps = 1e-5
    metric = quantus.NonSensitivity(perturb_baseline=0.0, eps=eps, **_quantus_kwargs())
    theirs = np.asarray(metric(model=net, x_batch=X.reshape(-1, 1, 6).astype(np.float32),
                               y_batch=y, a_batch=A.reshape(-1, 1, 6), softmax=True,
                               channel_first=True, device="cpu"), dtype=np.float64)
    ours = non_sensitivity(clf, X, A.astype(np.float64), eps=eps,
                           convention="quantus_code")
    np.testing.assert_array_equal(ours, theirs)
    # The paper's |a_j| test differs exactly where negative attributions are.
    paper = non_sensitivity(clf, X, A.astype(np.float64), eps=eps)
    assert np.any(paper != ours)


# --------------------------------------------------------- input invariance
def test_shifted_model_gives_the_same_outputs_and_leaves_the_model_alone():
    net, clf, X, _ = _torch_problem()
    c = np.linspace(-1.0, 2.0, 6)
    before = [p.detach().clone() for p in net.parameters()]
    moved = shifted_model(clf, c)
    np.testing.assert_allclose(moved.predict_proba(X + c), clf.predict_proba(X),
                               atol=1e-6)
    for p, q in zip(before, net.parameters(), strict=True):
        assert torch.equal(p, q)
    with pytest.raises(ValueError, match="shift"):
        shifted_model(clf, np.ones(4))


def test_gradient_is_input_invariant_and_gradient_times_input_is_not():
    # Kindermans et al.: f'(x + c) = f(x) has the same gradient, so saliency
    # is unchanged, while gradient x input moves by c_j * grad_j.
    net, clf, X, X_train = _torch_problem()
    c = -1.0
    sal = Saliency(FrozenEstimator(clf)).fit(X_train)
    G = sal.transform(X)
    np.testing.assert_allclose(
        input_invariance(clf, X, G, explainer=sal, shift=c), 0.0, atol=1e-6)
    ixg = InputXGradient(FrozenEstimator(clf)).fit(X_train)
    s = input_invariance(clf, X, ixg.transform(X), explainer=ixg, shift=c)
    np.testing.assert_allclose(s, np.abs(c * G).mean(axis=1), rtol=1e-4, atol=1e-7)


def test_integrated_gradients_invariance_depends_on_the_baseline():
    net, clf, X, X_train = _torch_problem()
    zero = IntegratedGradients(FrozenEstimator(clf), n_steps=16).fit(X_train)
    assert input_invariance(clf, X, zero.transform(X), explainer=zero).min() > 1e-4
    # A baseline learnt from the training rows shifts with them.
    mean = IntegratedGradients(FrozenEstimator(clf), baseline="mean",
                               n_steps=16).fit(X_train)
    s = input_invariance(clf, X, mean.transform(X), explainer=mean, X_train=X_train)
    np.testing.assert_allclose(s, 0.0, atol=1e-6)
    # Without training rows the fitted (unshifted) mean is kept: not invariant.
    assert input_invariance(clf, X, mean.transform(X), explainer=mean).min() > 1e-4


def test_input_invariance_of_ablation_by_hand(linear):
    X, model = linear
    c = np.array([1.0, -2.0, 0.5, 3.0, -1.0])
    ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    # Zero baseline: w_j x_j becomes w_j (x_j + c_j).
    s = input_invariance(model, X[:5], ex.transform(X[:5]), explainer=ex, shift=c)
    np.testing.assert_allclose(s, np.abs(model.coef_ * c).mean(), rtol=1e-10)


def test_input_invariance_leaves_the_explainer_alone(linear):
    X, model = linear
    masker = BaselineMasker("mean").fit(X)
    ex = FeatureAblation(FrozenEstimator(model), masker=masker).fit(X)
    est, params, fitted_masker = ex.estimator_, ex.get_params(), ex.masker_
    A = ex.transform(X[:5])
    input_invariance(model, X[:5], A, explainer=ex)
    input_invariance(model, X[:5], A, explainer=ex, X_train=X)
    assert ex.estimator_ is est and ex.masker_ is fitted_masker
    assert ex.get_params() == params
    np.testing.assert_array_equal(ex.transform(X[:5]), A)


def test_input_invariance_rejects_bad_shifts_and_explainers(linear):
    X, model = linear
    ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    A = ex.transform(X[:3])
    with pytest.raises(ValueError, match="shift"):
        input_invariance(model, X[:3], A, explainer=ex, shift=[1.0, 2.0])
    with pytest.raises(ValueError, match="shift"):
        input_invariance(model, X[:3], A, explainer=ex, shift=np.inf)
    with pytest.raises((TypeError, ValueError), match="explainer"):
        input_invariance(model, X[:3], A, explainer=model)


def test_input_invariance_equals_quantus():
    quantus = pytest.importorskip("quantus", reason="Quantus 0.6 is the peer oracle; "
                                  "pip install quantus")
    # Quantus 0.6 shifts every input entry but the first (perturb_batch drops
    # index 0) while its network is shifted on all: with feature 0 a null
    # player that slip changes nothing, and the two definitions meet.
    net, clf, X, X_train = _torch_problem(null=(0,))
    y = clf.predict(X)
    shift = -1.0

    def gradient(model, inputs, targets, times_input=False, **kwargs):
        x = torch.as_tensor(np.asarray(inputs, dtype=np.float32)).requires_grad_(True)
        p = torch.softmax(model(x), dim=1)
        p.gather(1, torch.as_tensor(targets)[:, None]).sum().backward()
        g = x.grad.numpy()
        return g * np.asarray(inputs) if times_input else g

    # Quantus' shifted network (bias of the first layer moved) and ours.
    wrapped = quantus.helpers.model.pytorch_model.PyTorchModel(
        net, channel_first=True, softmax=True, device="cpu")
    theirs_net = wrapped.add_mean_shift_to_first_layer(shift, (1, 1, 6))
    with torch.no_grad():
        q = torch.softmax(theirs_net(torch.as_tensor(X + shift, dtype=torch.float32)
                                     .reshape(-1, 1, 6)), dim=1).numpy()
    np.testing.assert_allclose(shifted_model(clf, shift).predict_proba(X + shift), q,
                               atol=1e-6)

    for explainer, times_input in [(Saliency, False), (InputXGradient, True)]:
        ex = explainer(FrozenEstimator(clf)).fit(X_train)
        A = ex.transform(X)
        metric = quantus.InputInvariance(input_shift=shift, **_quantus_kwargs())
        theirs = np.asarray(metric(
            model=net, x_batch=X.reshape(-1, 1, 6).astype(np.float32), y_batch=y,
            a_batch=A.reshape(-1, 1, 6).astype(np.float32), softmax=True,
            channel_first=True, device="cpu", explain_func=gradient,
            explain_func_kwargs={"times_input": times_input}))
        ours = input_invariance(clf, X, A, explainer=ex, shift=shift)
        np.testing.assert_array_equal(theirs, ours < 1e-6)
        assert theirs.all() == (not times_input)


class _Counting(ClassifierMixin, BaseEstimator):
    """Delegates to a fitted classifier and records the size of each call."""

    def __init__(self, model=None):
        self.model = model

    def fit(self, X, y=None):
        self.classes_ = self.model.classes_
        self.calls_ = []
        return self

    def predict_proba(self, X):
        self.calls_.append(len(X))
        return self.model.predict_proba(X)


def test_every_row_and_removal_is_evaluated_in_one_model_call():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    clf = _Counting(LogisticRegression().fit(X, X[:, 0] > 0)).fit(X)
    A = rng.normal(size=X.shape)
    completeness(clf, X, A)
    assert clf.calls_ == [40 * 2]
    clf.calls_.clear()
    non_sensitivity(clf, X, A)
    assert clf.calls_ == [40 * 6]
    # batch_size bounds the calls; the scores do not change.
    clf.calls_.clear()
    np.testing.assert_array_equal(non_sensitivity(clf, X, A, batch_size=60),
                                  non_sensitivity(clf, X, A))
    assert max(clf.calls_[:-1]) <= 60


def test_registered_scorers():
    for name in ("neg_completeness", "neg_non_sensitivity", "neg_input_invariance"):
        spec = get_metric_spec(name)
        assert spec.family == "axiomatic" and not spec.greater_is_better
    assert get_metric_spec("neg_input_invariance").requires == (
        "explainer", "training_rows")
