"""The shared masker / perturber machinery: resolvers, fitting without rows,
the value function with f(x) and all scores, and the perturber base class."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.masking import (
    BaselineMasker,
    BasePerturber,
    ConditionalMasker,
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
    GaussianNoisePerturber,
    MarginalMasker,
    check_masker,
    check_perturber,
)
from sklearn_xai.utils import ExplainedOutput, RowStreams, row_keys

RNG = np.random.default_rng(0)
X_TRAIN = RNG.normal(size=(40, 3))
X = RNG.normal(size=(6, 3))


# ---------------------------------------------------------------- resolvers
@pytest.mark.parametrize("masker", [
    BaselineMasker("zero"), BaselineMasker(1.5), BaselineMasker([1.0, 2.0, 3.0]),
    MarginalMasker(background=X_TRAIN[:5]),
    ConditionalMasker(MultivariateGaussian.equicorrelated(3, 0.5)),
])
def test_data_free_maskers_are_set_up_without_rows(masker):
    out = check_masker(masker, n_features=3)
    assert out is not masker and out.n_features_in_ == 3
    reference = check_masker(masker, X_TRAIN)  # fitted on rows: the same state
    keep = np.array([[True, False, True], [False, False, False]])
    np.testing.assert_array_equal(
        out.impute(X, keep, rngs=RowStreams(0, row_keys(X))),
        reference.impute(X, keep, rngs=RowStreams(0, row_keys(X))))


@pytest.mark.parametrize("masker, what", [
    (BaselineMasker("mean"), "value='mean'"),
    (BaselineMasker("median"), "value='median'"),
    (MarginalMasker(10), "background=10"),
    (GaussianConditionalMasker(), "mean and covariance"),
    (EmpiricalConditionalMasker(), "donor rows"),
])
def test_maskers_learning_from_data_need_training_rows(masker, what):
    with pytest.raises(ValueError, match=what) as info:
        check_masker(masker, n_features=3)
    message = str(info.value)
    assert type(masker).__name__ in message
    assert "masker.fit(X_train)" in message and "X_train=<training rows>" in message
    assert check_masker(masker, X_TRAIN, n_features=3).n_features_in_ == 3


def test_check_masker_feature_checks_and_default():
    fitted = BaselineMasker("mean").fit(X_TRAIN)
    assert check_masker(fitted, n_features=3) is fitted
    with pytest.raises(ValueError, match="masker was fitted on 3 features but X has 2"):
        check_masker(fitted, n_features=2)
    with pytest.raises(ValueError, match="X_train has 3 features but X has 2"):
        check_masker(BaselineMasker("mean"), X_TRAIN, n_features=2)
    default = check_masker(None, default=BaselineMasker("zero"), n_features=4)
    assert default.baseline_.tolist() == [0.0] * 4
    with pytest.raises(ValueError, match="not fitted"):
        check_masker(BaselineMasker("zero"))  # neither rows nor a feature count


def test_check_perturber_mirrors_check_masker():
    fitted = GaussianNoisePerturber(0.1).fit(X_TRAIN)
    assert check_perturber(fitted, X, n_features=3) is fitted  # never refitted
    with pytest.raises(ValueError, match="perturber was fitted on 3 features"):
        check_perturber(fitted, n_features=2)
    unfitted = GaussianNoisePerturber(0.1)
    out = check_perturber(unfitted, X_TRAIN, n_features=3)
    np.testing.assert_allclose(out.scale_, 0.1 * X_TRAIN.std(axis=0))
    assert not hasattr(unfitted, "scale_")
    with pytest.raises(ValueError, match=r'sigma_scale="std".*perturber\.fit\(X_train\)'):
        check_perturber(unfitted, n_features=3)
    absolute = check_perturber(None, default=GaussianNoisePerturber(
        0.2, sigma_scale="absolute", binary_features=None), n_features=3)
    assert absolute.scale_.tolist() == [0.2] * 3
    with pytest.raises(TypeError, match="perturber must be"):
        check_perturber(BaselineMasker(), n_features=3)
    with pytest.raises(TypeError, match="masker must be"):
        check_masker(GaussianNoisePerturber(), n_features=3)


@pytest.mark.parametrize("check, kind, given, default", [
    (check_masker, "masker", BaselineMasker("mean"), BaselineMasker("zero")),
    (check_perturber, "perturber", GaussianNoisePerturber(0.1),
     GaussianNoisePerturber(0.2, sigma_scale="absolute", binary_features=None)),
])
def test_check_masker_and_perturber_resolve_alike(check, kind, given, default):
    # The same rules, each message naming its own parameter.
    with pytest.raises(TypeError, match=rf"^{kind} must be a sklearn_xai {kind} "
                                        r"such as .*; got NoneType\.$"):
        check(None, n_features=3)  # no object and no default
    with pytest.raises(TypeError, match=rf"^{kind} must be .*; got ndarray\.$"):
        check(np.zeros(3), n_features=3)
    out = check(None, X_TRAIN, default=default, n_features=3)  # default fitted on X
    assert out is not default and out.n_features_in_ == 3
    assert not hasattr(default, "n_features_in_")  # the default is copied, not fitted
    fitted = check(given, X_TRAIN)
    assert check(fitted, X, default=default) is fitted  # a given one wins over default
    with pytest.raises(ValueError, match=rf"^{kind} was fitted on 3 features but X has 5"):
        check(fitted, n_features=5)
    with pytest.raises(ValueError, match=rf"call {kind}\.fit\(X_train\) first"):
        check(given)


# ------------------------------------------------------------ perturbers
class ShiftPerturber(BasePerturber):
    """Adds ``shift`` times a standard normal to the free features."""

    def __init__(self, shift=1.0):
        self.shift = shift

    def _learns_from_rows(self):
        return None

    def _perturb(self, X, fixed, n_perturbations, rngs):
        noise = rngs.normal((n_perturbations, X.shape[1]))
        return X[:, None, None, :] + ~fixed[:, :, None, :] * self.shift * noise[:, None]


def test_base_perturber_validation_is_shared():
    p = check_perturber(ShiftPerturber(2.0), n_features=3)
    streams = RowStreams(0, row_keys(X))
    Z = p.perturb(X, [True, False, True], 5, streams)
    assert Z.shape == (6, 5, 3)
    np.testing.assert_array_equal(Z[:, :, [0, 2]], np.broadcast_to(X[:, None, [0, 2]],
                                                                   (6, 5, 2)))
    with pytest.raises(ValueError, match="n_perturbations"):
        p.perturb(X, [True, False, True], 0, streams)
    with pytest.raises(ValueError, match="keep_fixed_mask"):
        p.perturb(X, [True, False], 2, streams)
    with pytest.raises(ValueError, match="shape"):
        p.perturb(X[:, :2], [True, False], 2, RowStreams(0, row_keys(X[:, :2])))
    with pytest.raises(NotFittedError):
        ShiftPerturber().perturb(X, [True, False, True], 2, streams)
    assert ShiftPerturber().fit(X_TRAIN).n_features_in_ == 3


# ---------------------------------------------------------- value function
def test_evaluate_include_x_reads_the_class_from_the_same_call():
    y = (X_TRAIN[:, 0] - X_TRAIN[:, 1] > 0).astype(int)
    clf = LogisticRegression().fit(X_TRAIN, y)
    masker = MarginalMasker(background=X_TRAIN[:7]).fit(X_TRAIN)
    keep = np.array([[True, False, True], [False, False, False]])
    f = ExplainedOutput(clf)
    fx, values = masker.evaluate(f, X, keep, include_x=True)
    proba = clf.predict_proba(X)
    c = proba.argmax(axis=1)
    np.testing.assert_allclose(fx, proba[np.arange(6), c])
    for k, mask in enumerate(keep):
        expected = [clf.predict_proba(np.where(mask, x, X_TRAIN[:7]))[:, ci].mean()
                    for x, ci in zip(X, c)]
        np.testing.assert_allclose(values[:, k], expected)
    assert f.n_evaluations == 6 * (1 + 2 * 7)  # f(x) in the same calls
    fx_raw, raw = masker.evaluate(f, X, keep, include_x=True, raw=True)
    np.testing.assert_allclose(fx_raw, proba)
    assert raw.shape == (6, 2, 2)
    np.testing.assert_allclose(raw[np.arange(6), :, c], values)
    # a fixed class per row, and the plain callable path
    t = np.array([0, 1, 0, 1, 0, 1])
    fx_t, values_t = masker.evaluate(f, X, keep, target_index=t, include_x=True,
                                     batch_size=15)
    np.testing.assert_allclose(fx_t, proba[np.arange(6), t])
    np.testing.assert_allclose(values_t, raw[np.arange(6), :, t])


def test_evaluate_affine_closed_form_for_every_masker():
    w, c = np.array([1.0, -2.0, 0.5]), 0.25

    class Affine:
        coef_, intercept_ = w, c

        def __call__(self, Z, t=None):
            raise AssertionError("closed form expected")

    keep = np.array([[True, False, True], [False, False, False], [True] * 3])
    for masker in (BaselineMasker("mean"), MarginalMasker(background=X_TRAIN[:9]),
                   EmpiricalConditionalMasker(sigma=0.5)):
        m = masker.fit(X_TRAIN)
        rows = m.expected_rows(X, keep)
        fx, values = m.evaluate(Affine(), X, keep, include_x=True)
        np.testing.assert_allclose(values, rows @ w + c)
        np.testing.assert_allclose(fx, X @ w + c)
        np.testing.assert_allclose(values[:, 2], X @ w + c)  # full coalition
        # the same values from the model itself
        model = LinearRegression().fit(X_TRAIN, X_TRAIN @ w + c)
        np.testing.assert_allclose(m.evaluate(ExplainedOutput(model), X, keep), values)


def test_huge_draw_count_is_refused_before_any_work():
    """A masker's n_draws multiplies the rows of one model call: a count
    beyond the allocation limit is refused by name, not by numpy."""
    from sklearn_xai.distributions import MultivariateGaussian
    from sklearn_xai.masking import ConditionalMasker

    calls = []

    def f(Z, t=None):
        calls.append(len(Z))
        return Z.sum(axis=1) ** 2

    masker = ConditionalMasker(MultivariateGaussian(np.zeros(3), np.eye(3)),
                               n_draws=10**12).fit(np.zeros((5, 3)))
    keep = np.ones((2, 4, 3), dtype=bool)
    rngs = RowStreams(0, [0, 1])
    with pytest.raises(ValueError, match=r"n_draws=1000000000000 needs about 87.3 TiB"):
        masker.evaluate(f, np.zeros((2, 3)), keep, rngs=rngs)
    assert not calls
