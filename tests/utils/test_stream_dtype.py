"""A float32 copy of the data gets the same random draws (issue #34, item 3).

Rows are keyed on their values rounded to float32 (:func:`row_keys`), so
every stochastic explainer, masker and perturber draws the same numbers for
the float64 rows and for their float32 copy.  The components are discovered
(:func:`all_explainers`, :func:`all_maskers`, the perturbers of
:mod:`sklearn_xai.masking`), not listed by hand, so a new one is covered;
the metrics are checked in ``tests/metrics/test_stream_dtype.py``.

The float64 rows are float32 numbers plus a relative ``1e-12``: not float32
numbers (their keys were those of other values before the fix), but their
float32 copy is within ``1e-12`` of them, so anything beyond rounding noise
(``RTOL``) is a difference of draws.  Different draws move Monte-Carlo
attributions by far more (checked on another seed).
"""

import inspect

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression

from sklearn_xai import masking
from sklearn_xai.base import get_explainer_tags
from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.masking import BasePerturber, GaussianConditionalMasker
from sklearn_xai.utils import RowStreams, row_keys
from sklearn_xai.utils.discovery import all_explainers, all_maskers

RTOL, ATOL = 1e-7, 1e-9
D = 4
# Small budgets: the test compares draws, not accuracy.
CHEAP = {"n_perturbations": 16, "n_permutations": 2, "n_draws": 4,
         "n_coalitions": 16, "background": 10, "max_background": 10}
# Parameters without a default, per class: a new class with one fails below
# until it is given here.
REQUIRED = {"ConditionalMasker": lambda: {
    "distribution": MultivariateGaussian(np.zeros(D), np.eye(D))}}


def _rows(n, seed):
    """float64 rows that are not float32 numbers, and their float32 copy
    (within a relative 1e-12 of them)."""
    X32 = np.random.default_rng(seed).normal(size=(n, D)).astype(np.float32)
    X64 = X32.astype(np.float64) * (1.0 + 1e-12)
    assert np.all(X64 != X32) and np.array_equal(X64.astype(np.float32), X32)
    return X64, X32


X_TRAIN = _rows(120, 0)[0]
X64, X32 = _rows(6, 1)
Y_TRAIN = (X_TRAIN @ np.linspace(1.0, -1.0, D) > 0).astype(int)


def _kwargs(cls, **extra):
    params = inspect.signature(cls.__init__).parameters
    kw = {k: v for k, v in CHEAP.items() if k in params}
    kw.update(REQUIRED.get(cls.__name__, dict)())
    kw.update({k: v for k, v in extra.items() if k in params})
    return kw


def _stochastic_explainers():
    """Every explainer that is stochastic by default, and every masker-based
    one with a stochastic masker."""
    for name, cls in all_explainers():
        params = inspect.signature(cls.__init__).parameters
        extra = {"masker": GaussianConditionalMasker()} if "masker" in params else {}
        if not get_explainer_tags(cls(**_kwargs(cls, **extra))).stochastic:
            continue
        marks = ()
        if get_explainer_tags(cls).differentiable:
            marks = pytest.mark.filterwarnings("ignore::UserWarning")
        yield pytest.param(cls, extra, id=name, marks=marks)


@pytest.fixture(scope="module")
def model():
    """A logistic regression: model-agnostic explainers call it, gradient
    explainers differentiate its torch replica."""
    return FrozenEstimator(LogisticRegression().fit(X_TRAIN, Y_TRAIN))


def _build(cls, extra, model, random_state):
    kw = _kwargs(cls, **extra, random_state=random_state)
    if get_explainer_tags(cls).requires_estimator:
        kw["estimator"] = model
    return cls(**kw).fit(X_TRAIN, Y_TRAIN)


def test_discovery_finds_the_stochastic_components():
    names = {p.id for p in _stochastic_explainers()}
    assert {"KernelSHAP", "LimeTabular", "SmoothGrad", "ShapleyValueSampling",
            "FeatureAblation", "RandomExplainer"} <= names
    assert {"NoisyLinearMasker", "GaussianConditionalMasker"} <= {
        name for name, _ in all_maskers()}


@pytest.mark.parametrize("cls, extra", list(_stochastic_explainers()))
def test_explainer_draws_do_not_depend_on_the_dtype(cls, extra, model):
    ex = _build(cls, extra, model, random_state=0)
    A64 = ex.explain(X64)
    A32 = ex.explain(X32)
    np.testing.assert_allclose(A32, A64, rtol=RTOL, atol=ATOL,
                               err_msg=f"{cls.__name__}: float32 copy vs float64")
    # The test can see draws: another seed moves the attributions.
    other = _build(cls, extra, model, random_state=1).explain(X64)
    assert not np.allclose(other, A64, rtol=RTOL, atol=ATOL)


def _masker_params():
    for name, cls in all_maskers():
        yield pytest.param(cls, id=name)


@pytest.mark.parametrize("cls", list(_masker_params()))
def test_masker_draws_do_not_depend_on_the_dtype(cls):
    masker = cls(**_kwargs(cls)).fit(X_TRAIN)
    keep = np.array([[True, False, True, False], [False, False, False, False]])

    def impute(X, seed=0):
        return masker.impute(X, keep, rngs=RowStreams(seed, row_keys(X)))

    Z64, Z32 = impute(X64), impute(X32)
    np.testing.assert_allclose(Z32, Z64, rtol=RTOL, atol=ATOL,
                               err_msg=f"{cls.__name__}: float32 copy vs float64")
    if not masker.is_deterministic:
        assert not np.allclose(impute(X64, seed=1), Z64, rtol=RTOL, atol=ATOL)


def _perturbers():
    for name in masking.__all__:
        obj = getattr(masking, name)
        if isinstance(obj, type) and issubclass(obj, BasePerturber) \
                and not inspect.isabstract(obj):
            yield pytest.param(obj, id=name)


def test_perturbers_are_discovered():
    assert "GaussianNoisePerturber" in {p.id for p in _perturbers()}


@pytest.mark.parametrize("cls", list(_perturbers()))
def test_perturber_draws_do_not_depend_on_the_dtype(cls):
    perturber = cls(**_kwargs(cls)).fit(X_TRAIN)
    fixed = np.array([True, False, False, True])

    def noise(X, seed=0):
        Z = perturber.perturb(X, fixed, 8, RowStreams(seed, row_keys(X)))
        return Z - np.asarray(X, dtype=np.float64)[:, None, :]

    E64, E32 = noise(X64), noise(X32)
    np.testing.assert_allclose(E32, E64, rtol=RTOL, atol=ATOL,
                               err_msg=f"{cls.__name__}: float32 copy vs float64")
    assert not np.allclose(noise(X64, seed=1), E64, rtol=RTOL, atol=ATOL)


def test_one_stream_type_crosses_the_interfaces():
    """Maskers and perturbers take a RowStreams, nothing else; a RowStreams
    is not iterable (an old ``for rng in rngs`` loop fails loudly)."""
    masker = GaussianConditionalMasker().fit(X_TRAIN)
    generators = RowStreams(0, row_keys(X64)).generators()
    with pytest.raises(TypeError, match="rngs must be a sklearn_xai.utils.RowStreams"):
        masker.impute(X64, [[True, False, True, False]], rngs=generators)
    with pytest.raises(ValueError, match="rngs must cover the 6 rows"):
        masker.impute(X64, [[True, False, True, False]],
                      rngs=RowStreams(0, row_keys(X64[:2])))
    with pytest.raises(TypeError, match="not iterable"):
        list(RowStreams(0, [1, 2]))
    with pytest.raises(IndexError, match="generators"):
        RowStreams(0, [1, 2])[0]
