import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_xai.utils import explained_output
from sklearn_xai.utils._output import ExplainedOutput


@pytest.fixture
def clf3():
    rng = np.random.RandomState(0)
    X = rng.randn(90, 2)
    y = np.array(["a", "b", "c"])[np.argmax(X @ [[1, 0, -1], [0, 1, -1]], axis=1)]
    return X, LogisticRegression().fit(X, y)


def test_predicted_class_fixed_at_original_rows(clf3):
    X, clf = clf3
    f = explained_output(clf)
    t = f.target_index(X[:10])
    proba = clf.predict_proba(X[:10])
    np.testing.assert_array_equal(t, proba.argmax(1))
    # Perturbed copies are scored on the original row's class, not their own.
    Z = -X[:10]
    np.testing.assert_allclose(f(Z, t), clf.predict_proba(Z)[np.arange(10), t])


def test_target_forms(clf3):
    X, clf = clf3
    P = clf.predict_proba(X[:5])
    f = explained_output(clf, target=2)
    np.testing.assert_allclose(f(X[:5], f.target_index(X[:5])), P[:, 2])
    f = explained_output(clf, target=-1)
    np.testing.assert_array_equal(f.target_index(X[:5]), [2] * 5)
    f = explained_output(clf, target="b")
    np.testing.assert_allclose(f(X[:5], f.target_index(X[:5])), P[:, 1])
    labels = np.array(["c", "a", "b", "a", "c"])
    f = explained_output(clf, target=labels)
    np.testing.assert_array_equal(f.target_index(X[:5]), [2, 0, 1, 0, 2])
    with pytest.raises(ValueError, match="not among the model's classes"):
        explained_output(clf, target="z").target_index(X[:5])
    with pytest.raises(ValueError, match="not a valid class index"):
        explained_output(clf, target=3).target_index(X[:5])
    with pytest.raises(ValueError, match="one label per row"):
        explained_output(clf, target=labels[:3]).target_index(X[:5])


def test_decision_output_binary():
    rng = np.random.RandomState(0)
    X = rng.randn(50, 2)
    y = (X[:, 0] > 0).astype(int)
    clf = LogisticRegression().fit(X, y)
    f = explained_output(clf, output="decision")
    t = f.target_index(X)
    d = clf.decision_function(X)
    np.testing.assert_allclose(f(X, t), np.where(t == 1, d, -d))


def test_regressor_and_errors():
    X = np.arange(10.0).reshape(5, 2)
    reg = LinearRegression().fit(X, X.sum(1))
    f = explained_output(reg, batch_size=2)
    assert f.target_index(X) is None
    np.testing.assert_allclose(f(X), X.sum(1))
    assert f.n_calls == 3 and f.n_evaluations == 5
    with pytest.raises(ValueError, match="needs a classifier"):
        explained_output(reg, output="proba")
    with pytest.raises(ValueError, match="output must be one of"):
        explained_output(reg, output="logit")


class _Float32Only(ClassifierMixin, BaseEstimator):
    """A model that, like a skorch net, only accepts float32 input."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.module_ = None
        return self

    def predict_proba(self, X):
        assert X.dtype == np.float32, X.dtype
        p = 1 / (1 + np.exp(-X[:, 0].astype(np.float64)))
        return np.column_stack([1 - p, p])


def test_inputs_cast_to_model_dtype():
    X = np.random.RandomState(0).randn(6, 2)
    model = _Float32Only().fit(X, [0, 1, 0, 1, 0, 1])
    f = explained_output(model)
    out = f(X, f.target_index(X))
    assert out.dtype == np.float64 and np.all(out >= 0.5)


def test_all_outputs_one_call(clf3):
    X, clf = clf3
    f = explained_output(clf)
    np.testing.assert_allclose(f.all_outputs(X[:7]), clf.predict_proba(X[:7]))
    assert f.n_calls == 1 and f.n_evaluations == 7
    reg = LinearRegression().fit(X, X.sum(1))
    np.testing.assert_allclose(explained_output(reg).all_outputs(X[:3]), X[:3].sum(1)[:, None])


def test_class_target_of_a_single_output_is_an_error(clf3):
    """A regressor, or output="predict", has one output per row: a class
    target used to be silently ignored; it is now an error naming the fix,
    for explainers and metrics alike (they all build an ExplainedOutput)."""
    from sklearn.frozen import FrozenEstimator
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_xai.metrics import comprehensiveness

    X = np.arange(10.0).reshape(5, 2)
    reg = LinearRegression().fit(X, X.sum(1))
    fix = r"Use target='predicted' \(the default\) or omit target"
    for model in (reg, FrozenEstimator(reg), make_pipeline(StandardScaler(), reg).fit(X, X.sum(1))):
        with pytest.raises(ValueError, match=r"target=1 selects a class, but "
                                             r"LinearRegression is a regressor.*" + fix):
            explained_output(model, target=1)
    with pytest.raises(ValueError, match=r"target=<array of shape \(5,\)>.*regressor"):
        explained_output(reg, target=np.zeros(5))
    with pytest.raises(ValueError, match="target=1 selects a class.*regressor"):
        explained_output(reg).target_index(X, target=1)
    for ok in ("predicted", None):
        assert explained_output(reg, target=ok).target_index(X) is None
    Xc, clf = clf3
    with pytest.raises(ValueError, match=r"target='b'.*output='predict' of "
                                         r"LogisticRegression.*output='proba'"):
        explained_output(clf, target="b", output="predict")
    with pytest.raises(ValueError, match="target=1 selects a class.*regressor"):
        comprehensiveness(reg, X, np.ones((5, 2)), target=1)


# ------------------------------------------------------------ output="margin"
def test_margin_output_of_xgboost_is_the_raw_margin_trees_explain():
    import xgboost
    from sklearn.datasets import make_classification

    from sklearn.frozen import FrozenEstimator

    from sklearn_xai.explainers import TreeContributions

    X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    model = xgboost.XGBClassifier(n_estimators=20, max_depth=3).fit(X, y)
    f = ExplainedOutput(model, output="margin")
    t = f.target_index(X[:30])
    margin = model.get_booster().predict(xgboost.DMatrix(X[:30]), output_margin=True)
    # Independent: log-odds of predict_proba; class 0's margin is minus class 1's.
    p1 = model.predict_proba(X[:30])[:, 1]
    np.testing.assert_allclose(margin, np.log(p1 / (1 - p1)), atol=1e-4)
    np.testing.assert_allclose(f(X[:30], t), np.where(t == 1, margin, -margin), rtol=1e-6)
    assert t.tolist() == (margin > 0).astype(int).tolist()
    # Exact tree contributions sum to the margin minus the bias (efficiency).
    ex = TreeContributions(FrozenEstimator(model)).fit(X)
    phi = ex.transform(X[:30])
    bias = np.where(t == 1, ex.expected_value_, -ex.expected_value_)
    np.testing.assert_allclose(phi.sum(axis=1) + bias, f(X[:30], t), atol=1e-4)


def test_margin_output_of_sklearn_models():
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LinearRegression, LogisticRegression

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    clf = LogisticRegression().fit(X, [0, 0, 1, 1])
    f = ExplainedOutput(clf, output="margin")
    np.testing.assert_allclose(f(X, np.ones(4, dtype=int)), clf.decision_function(X))
    reg = LinearRegression().fit(X, [1.0, 2.0, 0.5, 3.0])
    np.testing.assert_allclose(ExplainedOutput(reg, output="margin")(X), reg.predict(X))
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="no raw margin.*output='proba'"):
        ExplainedOutput(forest, output="margin")


def _mlp_forward_logits(mlp, X):
    """The MLP's pre-activation output, computed here from coefs_/intercepts_
    (ReLU hidden layers)."""
    H = np.asarray(X, dtype=np.float64)
    last = len(mlp.coefs_) - 1
    for i, (W, b) in enumerate(zip(mlp.coefs_, mlp.intercepts_)):
        H = H @ W + b
        if i < last:
            H = np.maximum(H, 0.0)
    return H


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("n_classes", [2, 3])
def test_decision_output_of_an_mlp_classifier_is_its_logits(n_classes):
    from sklearn.frozen import FrozenEstimator
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.RandomState(0)
    X = rng.randn(120, 3) * 2.0 + 1.0
    y = np.argmax(X @ rng.randn(3, n_classes), axis=1) if n_classes > 2 else (
        X[:, 0] > 1.0).astype(int)
    mlp = MLPClassifier((6, 4), max_iter=300, random_state=0).fit(X, y)
    Z = _mlp_forward_logits(mlp, X[:20])
    if n_classes == 2:  # one logit z, the score of classes_[1]; class 0 is -z
        Z = np.column_stack([-Z[:, 0], Z[:, 0]])
    for model in (mlp, FrozenEstimator(mlp)):
        for output in ("decision", "margin"):
            f = explained_output(model, output=output)
            assert f.output == "decision"
            np.testing.assert_allclose(f.all_outputs(X[:20]), Z, rtol=1e-10)
            t = f.target_index(X[:20])
            np.testing.assert_array_equal(t, Z.argmax(axis=1))
            np.testing.assert_allclose(f(X[:20], t), Z[np.arange(20), t], rtol=1e-10)
    # The logits are those of predict_proba: softmax (binary: sigmoid of z).
    if n_classes == 2:
        P = 1.0 / (1.0 + np.exp(-Z[:, 1]))
        np.testing.assert_allclose(mlp.predict_proba(X[:20])[:, 1], P, rtol=1e-10)
    else:
        P = np.exp(Z - Z.max(axis=1, keepdims=True))
        np.testing.assert_allclose(mlp.predict_proba(X[:20]),
                                   P / P.sum(axis=1, keepdims=True), rtol=1e-10)
    # In a Pipeline the preprocessing comes first.
    pipe = make_pipeline(StandardScaler(), MLPClassifier(
        (5,), max_iter=300, random_state=0)).fit(X, y)
    Z = _mlp_forward_logits(pipe[-1], pipe[0].transform(X[:20]))
    if n_classes == 2:
        Z = np.column_stack([-Z[:, 0], Z[:, 0]])
    f = explained_output(pipe, output="decision")
    np.testing.assert_allclose(f.all_outputs(X[:20]), Z, rtol=1e-10)


def test_decision_output_of_an_unfitted_mlp_is_not_fitted_error():
    from sklearn.exceptions import NotFittedError
    from sklearn.neural_network import MLPClassifier

    with pytest.raises(NotFittedError, match="MLPClassifier"):
        explained_output(MLPClassifier(), output="decision")
