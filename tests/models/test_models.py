"""Architectures (layer sizes of OpenXAI, XAI-TRIS and BEExAI) and estimator behaviour."""

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from torch import nn

from sklearn_xai.models import (
    BEExAIMLP,
    BEExAIMLPClassifier,
    BEExAIMLPRegressor,
    LogisticNet,
    LogisticNetClassifier,
    MLPNetClassifier,
    OpenXAIANN,
    TetrominoCNN,
    TetrominoMLP,
    TetrominoNetClassifier,
    cnn_flatten_size,
)


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def _linear_shapes(module):
    return [(m.in_features, m.out_features, m.bias is not None)
            for m in module.modules() if isinstance(m, nn.Linear)]


def _count(module, kind):
    return sum(isinstance(m, kind) for m in module.modules())


def _data(n=150, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, (X[:, 0] - X[:, 1] > 0).astype(int)


# ------------------------------------------------------------ architectures
def test_openxai_modules():
    assert _linear_shapes(OpenXAIANN(7)) == [(7, 100, True), (100, 100, True),
                                             (100, 2, True)]
    assert _count(OpenXAIANN(7), nn.ReLU) == 2
    assert _linear_shapes(LogisticNet(7)) == [(7, 2, True)]
    assert _linear_shapes(LogisticNet(7, bias=False)) == [(7, 2, False)]


def test_beexai_layouts():
    paper = BEExAIMLP(9)
    assert _linear_shapes(paper) == [(9, 128, True), (128, 128, True),
                                     (128, 128, True), (128, 1, True)]
    assert _count(paper, nn.BatchNorm1d) == 3 and _count(paper, nn.Dropout) == 3
    assert all(m.p == 0.1 for m in paper.modules() if isinstance(m, nn.Dropout))
    # BEExAI 0.0.6 NeuralNetwork(n_hidden_layers=3): linear1 + 3 blocks, then an
    # extra BatchNorm + Dropout before linear3.
    code = BEExAIMLP(9, 3, layout="code")
    assert _linear_shapes(code) == [(9, 128, True)] + [(128, 128, True)] * 3 + [
        (128, 3, True)]
    assert _count(code, nn.BatchNorm1d) == 5 and _count(code, nn.Dropout) == 5
    # ReLU comes before the batch norm in every hidden layer
    layers = list(code.layers)
    assert isinstance(layers[1], nn.ReLU) and isinstance(layers[2], nn.BatchNorm1d)


def test_beexai_batchnorm_accepts_a_single_training_row():
    net = BEExAIMLP(3).train()
    assert net(torch.zeros(1, 3)).shape == (1, 1)


def test_tetromino_mlps():
    assert _linear_shapes(TetrominoMLP(64, image_size=8)) == [
        (64, 32, True), (32, 16, True), (16, 8, True), (8, 2, True)]
    big = TetrominoMLP(4096, image_size=64)
    assert _linear_shapes(big) == [(4096, 256, False), (256, 256, False),
                                   (256, 64, False), (64, 2, False)]
    assert [m.p for m in big.modules() if isinstance(m, nn.Dropout)] == [0.3] * 3


@pytest.mark.parametrize("size, channels, kernel, flat, bias", [
    (8, [4, 4, 4, 4], 2, 4, True),
    (64, [4, 8, 16, 32], 4, 288, False),
])
def test_tetromino_cnn(size, channels, kernel, flat, bias):
    # flatten sizes worked by hand: 64 -> 63 -> 31 -> 30 -> 15 -> 14 -> 7 -> 6 -> 3,
    # 32 * 3 * 3 = 288; 8 -> 9 -> 4 -> 5 -> 2 -> 3 -> 1 -> 2 -> 1, 4 * 1 * 1 = 4.
    net = TetrominoCNN(size * size, image_size=size)
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    assert [c.out_channels for c in convs] == channels
    assert all(c.kernel_size == (kernel, kernel) and c.padding == (1, 1)
               and c.stride == (1, 1) for c in convs)
    assert net.flatten_size == flat
    assert cnn_flatten_size(size, kernel_size=kernel, n_channels=channels[-1]) == flat
    assert _linear_shapes(net.classifier) == [(flat, 2, bias)]
    assert net(torch.zeros(3, size * size)).shape == (3, 2)


def test_image_size_mismatch():
    with pytest.raises(ValueError, match="image_size=8"):
        TetrominoCNN(63, image_size=8)
    X = np.zeros((20, 10))
    y = np.arange(20) % 2
    with pytest.raises(ValueError, match="needs 64"):
        TetrominoNetClassifier(architecture="llr", max_epochs=1).fit(X, y)
    with pytest.raises(ValueError, match="architecture"):
        TetrominoNetClassifier(architecture="rnn", max_epochs=1).fit(np.zeros((20, 64)), y)


def test_tetromino_llr_has_no_bias():
    X = np.random.default_rng(0).normal(size=(30, 64))
    clf = TetrominoNetClassifier(architecture="llr", max_epochs=1, random_state=0)
    clf.fit(X, np.arange(30) % 2)
    assert _linear_shapes(clf.module_) == [(64, 2, False)]


# ------------------------------------------------------------ estimators
def test_float64_input_and_string_labels():
    X, y = _data()
    labels = np.array(["b", "a"])[y]
    clf = MLPNetClassifier(max_epochs=20, lr=0.01, random_state=0).fit(X, labels)
    assert X.dtype == np.float64
    assert clf.classes_.tolist() == ["a", "b"]
    proba = clf.predict_proba(X)
    assert proba.dtype == np.float64 and proba.shape == (150, 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    pred = clf.predict(X)
    assert set(pred) <= {"a", "b"}
    np.testing.assert_array_equal(pred, clf.classes_[proba.argmax(axis=1)])
    assert clf.score(X, labels) > 0.85
    # decision_function is the log-odds of classes_[1]
    dec = clf.decision_function(X)
    np.testing.assert_allclose(1 / (1 + np.exp(-dec)), proba[:, 1], rtol=1e-5)


def test_noncontiguous_int_labels_and_multiclass_decision():
    X, y = _data()
    y = np.where(X[:, 0] > 0.5, 7, np.where(X[:, 0] < -0.5, -3, 2))
    clf = LogisticNetClassifier(lr=0.1, max_epochs=10, random_state=0).fit(X, y)
    assert clf.classes_.tolist() == [-3, 2, 7]
    assert clf.decision_function(X).shape == (150, 3)
    assert set(clf.predict(X)) <= {-3, 2, 7}
    with pytest.raises(ValueError, match="not in classes_"):
        clf.partial_fit(X, np.full(150, 5))


def test_regressor_targets():
    X, _ = _data()
    y = X[:, 0] - 2 * X[:, 1]
    reg = BEExAIMLPRegressor(max_epochs=30, lr=0.01, random_state=0).fit(X, y)
    pred = reg.predict(X)
    assert pred.shape == (150,) and pred.dtype == np.float64
    assert reg.score(X, y) > 0.8
    assert not hasattr(reg, "predict_proba")
    reg2 = BEExAIMLPRegressor(max_epochs=2, random_state=0).fit(X, np.c_[y, -y])
    assert reg2.n_outputs_ == 2 and reg2.predict(X).shape == (150, 2)


def test_random_state_reproducible_without_touching_global_rng():
    X, y = _data()
    state = torch.get_rng_state()
    first = BEExAIMLPClassifier(max_epochs=3, random_state=0).fit(X, y)
    # fit draws from its own seeded stream (torch's DataLoader draws a worker
    # seed from the global generator at every prediction, so check fit alone)
    assert torch.equal(state, torch.get_rng_state())
    a = first.predict_proba(X)
    b = BEExAIMLPClassifier(max_epochs=3, random_state=0).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
    c = BEExAIMLPClassifier(max_epochs=3, random_state=1).fit(X, y).predict_proba(X)
    assert not np.allclose(a, c)


def test_early_stopping_and_validation_split():
    X, y = _data()
    clf = LogisticNetClassifier(lr=0.5, max_epochs=200, n_iter_no_change=2,
                                random_state=0).fit(X, y)
    history = clf.history_
    assert len(history) < 200
    assert "valid_loss" in history[-1] and "valid_acc" in history[-1]
    # the kept weights are those of the best validation epoch
    best = min(history[:, "valid_loss"])
    clf2 = LogisticNetClassifier(lr=0.5, max_epochs=200, n_iter_no_change=2,
                                 early_stopping=False, random_state=0)
    clf2.fit(X, y)
    assert "valid_loss" not in clf2.history_[-1]
    assert len(clf2.history_) == 200
    assert np.isfinite(best)
    with pytest.raises(ValueError, match="validation_fraction"):
        LogisticNetClassifier(validation_fraction=1.5).fit(X, y)
    with pytest.raises(ValueError, match="1 sample"):
        LogisticNetClassifier().fit(X[:1], y[:1])


def test_clone_set_params_pipeline_and_grid_search():
    X, y = _data()
    clf = MLPNetClassifier(max_epochs=5, random_state=0,
                           module__hidden_layer_sizes=(5,))
    cloned = clone(clf)
    assert cloned.get_params()["module__hidden_layer_sizes"] == (5,)
    cloned.set_params(module__hidden_layer_sizes=(3, 2)).fit(X, y)
    assert [m.out_features for m in cloned.module_.modules()
            if isinstance(m, nn.Linear)] == [3, 2, 2]
    pipe = make_pipeline(StandardScaler(), clf)
    search = GridSearchCV(pipe, {"mlpnetclassifier__lr": [1e-3, 1e-2]}, cv=2)
    search.fit(X, y)
    assert search.best_params_["mlpnetclassifier__lr"] in (1e-3, 1e-2)
    assert search.predict(X).shape == (150,)


@pytest.mark.parametrize("params, name", [
    ({"validation_fraction": 1.5}, "validation_fraction"),
    ({"validation_fraction": 0.0}, "validation_fraction"),
    ({"early_stopping": "yes"}, "early_stopping"),
    ({"n_iter_no_change": 0}, "n_iter_no_change"),
    ({"tol": -1.0}, "tol"),
    ({"train_split": "holdout"}, "train_split"),
    ({"random_state": "seed"}, "random_state"),
])
def test_parameters_validated_like_sklearn(params, name):
    from sklearn.utils._param_validation import InvalidParameterError

    X, y = _data(n=30)
    match = f"The '{name}' parameter of LogisticNetClassifier must be"
    with pytest.raises(InvalidParameterError, match=match):
        LogisticNetClassifier(max_epochs=1, **params).fit(X, y)


def test_tetromino_parameters_validated_like_sklearn():
    from sklearn.utils._param_validation import InvalidParameterError

    X, y = np.zeros((20, 64)), np.arange(20) % 2
    for params, name in (({"architecture": "rnn"}, "architecture"),
                         ({"image_size": 16}, "image_size")):
        with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter"):
            TetrominoNetClassifier(max_epochs=1, **params).fit(X, y)
