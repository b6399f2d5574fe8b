import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from sklearn_xai.masking import BaselineMasker, MarginalMasker, check_masker


X = np.array([[1.0, 10.0, -3.0], [3.0, 20.0, -1.0], [8.0, 60.0, 1.0]])


@pytest.mark.parametrize(
    "value, expected",
    [("zero", [0, 0, 0]), ("mean", [4, 30, -1]), ("median", [3, 20, -1]),
     ("min", [1, 10, -3]), ("max", [8, 60, 1]), (2.5, [2.5] * 3), ([1, 2, 3], [1, 2, 3])],
)
def test_baseline_values(value, expected):
    m = BaselineMasker(value).fit(X)
    np.testing.assert_array_equal(m.baseline_, expected)
    Z = m.impute(X, [[True, False, True], [False, False, False]])
    assert Z.shape == (3, 2, 1, 3)
    np.testing.assert_array_equal(Z[:, 0, 0, 1], expected[1])
    np.testing.assert_array_equal(Z[:, 0, 0, [0, 2]], X[:, [0, 2]])
    np.testing.assert_array_equal(Z[:, 1, 0], np.broadcast_to(expected, (3, 3)))


def test_baseline_errors():
    with pytest.raises(ValueError,
                       match=r"value must be a number or have n_features=3 entries"):
        BaselineMasker([1.0, 2.0]).fit(X)
    with pytest.raises(ValueError, match="value"):
        BaselineMasker("black").fit(X)
    with pytest.raises(NotFittedError):
        BaselineMasker().impute(X, [[True, True, True]])
    m = BaselineMasker().fit(X)
    with pytest.raises(ValueError, match="keep must have shape"):
        m.impute(X, [[True, True]])
    with pytest.raises(ValueError, match="features"):
        m.impute(X[:, :2], [[True, True]])


def test_marginal_background_and_per_row_coalitions():
    bg = np.array([[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]])
    m = MarginalMasker(bg).fit(X)
    keep = np.array([[[True, False, False]], [[False, True, True]], [[True, True, True]]])
    Z = m.impute(X, keep)
    assert Z.shape == (3, 1, 2, 3)
    np.testing.assert_array_equal(Z[0, 0], [[1, 0, 0], [1, 4, 6]])
    np.testing.assert_array_equal(Z[1, 0], [[0, 20, -1], [2, 20, -1]])
    np.testing.assert_array_equal(Z[2, 0], [X[2], X[2]])


def test_marginal_subsample_reproducible():
    data = np.random.RandomState(0).randn(500, 2)
    a = MarginalMasker(50, random_state=1).fit(data).background_
    b = MarginalMasker(50, random_state=1).fit(data).background_
    c = MarginalMasker(50, random_state=2).fit(data).background_
    assert a.shape == (50, 2)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert MarginalMasker(1000).fit(data).background_.shape == (500, 2)


def test_evaluate_value_function_and_batching():
    bg = np.random.RandomState(0).randn(7, 3)
    m = MarginalMasker(bg).fit(X)
    w = np.array([1.0, -2.0, 0.5])
    calls = []

    def f(Z, t):
        calls.append(len(Z))
        return Z @ w

    keep = np.array([[True, False, True], [False, False, False], [True, True, True]])
    v = m.evaluate(f, X, keep)
    # Linear f: v_x(S) = w_S x_S + w_U mean(bg)_U.
    expected = np.array([[np.where(k, x, bg.mean(0)) @ w for k in keep] for x in X])
    np.testing.assert_allclose(v, expected)
    assert calls == [3 * 3 * 7]
    calls.clear()
    v2 = m.evaluate(f, X, keep, batch_size=21)
    np.testing.assert_allclose(v2, v)
    assert calls == [21, 21, 21]


def test_check_masker():
    fitted = BaselineMasker("mean").fit(X)
    assert check_masker(fitted) is fitted
    unfitted = BaselineMasker("mean")
    out = check_masker(unfitted, X)
    assert out is not unfitted and not hasattr(unfitted, "baseline_")
    np.testing.assert_array_equal(out.baseline_, X.mean(0))
    assert isinstance(check_masker(None, X, default=BaselineMasker()), BaselineMasker)
    with pytest.raises(TypeError, match="masker must be"):
        check_masker("zero", X)
    with pytest.raises(ValueError, match="not fitted"):
        check_masker(BaselineMasker())


def test_impute_without_checks_gives_the_same_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    keep = rng.random((6, 4, 3)) < 0.5
    for masker in (BaselineMasker("mean").fit(X), BaselineMasker(2.5).fit(X)):
        np.testing.assert_array_equal(masker.impute(X, keep, check_input=False),
                                      masker.impute(X, keep))
    # Non-finite values keep the select semantics (inf * 0 would be NaN).
    X[0, 1] = np.inf
    Z = BaselineMasker("zero").fit(X[1:]).impute(X, keep, check_input=False)
    assert np.all(Z[0, :, 0, 1] == np.where(keep[0, :, 1], np.inf, 0.0))
