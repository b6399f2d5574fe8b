"""OpenXAI's training of its LR and ANN (``convention="openxai_code"``).

The expected values are computed here from the recorded weights of every
epoch (numpy softmax, OpenXAI's selection rule written out), or in closed
form (the loss), never from the estimator's own bookkeeping.
"""

import numpy as np
import pytest
import torch
from skorch.callbacks import Callback
from torch import nn

from sklearn_xai.models import LogisticNetClassifier, MLPNetClassifier
from sklearn_xai.models._estimators import _SoftmaxCrossEntropyLoss


class _RecordWeights(Callback):
    """Test-side record of the module's weights after every epoch."""

    def on_train_begin(self, net, **kwargs):
        self.states = []

    def on_epoch_end(self, net, **kwargs):
        self.states.append({k: v.detach().clone().numpy()
                            for k, v in net.module_.state_dict().items()})


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _expected_epoch(states, X, y, warmup, bound):
    """OpenXAI's rule: among 0-based epochs e > warmup whose positive rate
    (p_1 >= 1/2) exceeds ``bound`` (bound <= 1/2), the first of highest
    accuracy; the last epoch when none qualifies.  Returns a 1-based epoch."""
    best, best_acc = None, 0.0
    for e, state in enumerate(states):
        p = _softmax(X @ state["linear.weight"].T.astype(np.float64)
                     + state["linear.bias"])
        pred = (p[:, 1] >= 0.5).astype(int)
        accuracy, rate = np.mean(pred == y), np.mean(pred)
        if e > warmup and (bound is None or rate > bound) and accuracy > best_acc:
            best, best_acc = e, accuracy
    return len(states) if best is None else best + 1


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] > 1).astype(int)
    X_sel = rng.normal(size=(200, 2))
    # Other labels on the selection rows: their accuracy peaks mid-training.
    y_sel = (X_sel[:, 0] > 1.3).astype(int)
    return X, y, X_sel, y_sel


@pytest.mark.parametrize("bound", [None, 0.09, 0.105, 0.3])
def test_keeps_the_epoch_of_openxai_selection_rule(bound):
    X, y, X_sel, y_sel = _data()
    record = _RecordWeights()
    clf = LogisticNetClassifier(
        lr=0.004, max_epochs=15, batch_size=30, convention="openxai_code",
        selection_data=(X_sel, y_sel), warmup=1, mean_prediction_bound=bound,
        callbacks=[("record", record)], random_state=3,
    ).fit(X, y)
    expected = _expected_epoch(record.states, X_sel, y_sel, 1, bound)
    # The case is built so that the rule matters: the bound moves the kept
    # epoch, and without a qualifying epoch (0.3) the last one is kept.
    assert expected == {None: 4, 0.09: 7, 0.105: 11, 0.3: 15}[bound]
    assert clf.selected_epoch_ == expected
    kept = record.states[expected - 1]
    for name, value in clf.module_.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), kept[name])
    # The last epoch's weights differ from the kept ones (when not the last).
    if expected != 15:
        assert not np.array_equal(record.states[-1]["linear.weight"],
                                  kept["linear.weight"])


def test_a_bound_above_one_half_bounds_the_rate_from_above():
    X, y, X_sel, y_sel = _data()
    # Rates stay below 0.15: "rate < 0.6" holds for every epoch, so the
    # selection is the unbounded one.
    kwargs = dict(lr=0.004, max_epochs=15, batch_size=30, convention="openxai_code",
                  selection_data=(X_sel, y_sel), warmup=1, random_state=3)
    a = LogisticNetClassifier(mean_prediction_bound=0.6, **kwargs).fit(X, y)
    b = LogisticNetClassifier(**kwargs).fit(X, y)
    assert a.selected_epoch_ == b.selected_epoch_ == 4


def test_softmax_cross_entropy_closed_form():
    z = np.array([[2.0, -1.0], [0.5, 0.25], [-3.0, 4.0]])
    y = np.array([1, 0, 1])
    w = np.array([0.3, 0.7])
    p = _softmax(z)  # OpenXAI's model output ...
    log_q = np.log(_softmax(p))  # ... passed to a cross-entropy as logits
    expected = np.sum(-w[y] * log_q[np.arange(3), y]) / np.sum(w[y])
    loss = _SoftmaxCrossEntropyLoss(weight=[0.3, 0.7])(
        torch.tensor(z, dtype=torch.float32), torch.tensor(y))
    assert float(loss) == pytest.approx(expected, rel=1e-6)


def test_int_random_state_is_the_torch_seed():
    # lr=0: the trained weights are the initial ones, which under
    # "openxai_code" are those of torch.manual_seed(random_state).
    X, y, X_sel, y_sel = _data()
    clf = LogisticNetClassifier(lr=0.0, max_epochs=1, convention="openxai_code",
                                selection_data=(X_sel, y_sel), random_state=7).fit(X, y)
    torch.manual_seed(7)
    reference = nn.Linear(2, 2)
    np.testing.assert_array_equal(clf.module_.linear.weight.detach().numpy(),
                                  reference.weight.detach().numpy())


def test_without_selection_data_the_validation_split_selects():
    X, y, _, _ = _data()
    clf = MLPNetClassifier(max_epochs=8, convention="openxai_code", warmup=2,
                           random_state=0).fit(X, y)
    assert 4 <= clf.selected_epoch_ <= 8
    assert "selection_acc" in clf.history_[-1]
    assert len(clf.history_) == 8  # all epochs run: no early stopping


def test_paper_convention_is_unchanged():
    X, y, X_sel, y_sel = _data()
    clf = LogisticNetClassifier(max_epochs=3, random_state=0,
                                selection_data=(X_sel, y_sel)).fit(X, y)
    assert not hasattr(clf, "selected_epoch_")
    assert "selection_acc" not in clf.history_[-1]
    assert type(clf.criterion_) is nn.CrossEntropyLoss


def test_openxai_convention_validation():
    X, y, X_sel, y_sel = _data()
    with pytest.raises(ValueError, match="criterion"):
        LogisticNetClassifier(convention="openxai_code", criterion=nn.NLLLoss,
                              max_epochs=1).fit(X, y)
    with pytest.raises(ValueError, match="one label per row"):
        LogisticNetClassifier(convention="openxai_code", max_epochs=1,
                              selection_data=(X_sel, y_sel[:5])).fit(X, y)
    with pytest.raises(ValueError, match="selection_data must be a pair"):
        LogisticNetClassifier(convention="openxai_code", max_epochs=1,
                              selection_data=(X_sel, y_sel, y_sel)).fit(X, y)
    with pytest.raises(ValueError, match="convention"):
        LogisticNetClassifier(convention="openxai", max_epochs=1).fit(X, y)
    with pytest.raises(ValueError, match="neither"):
        LogisticNetClassifier(convention="openxai_code", max_epochs=1,
                              train_split=None).fit(X, y)
    y3 = np.arange(len(y)) % 3
    with pytest.raises(ValueError, match="two classes"):
        LogisticNetClassifier(convention="openxai_code", max_epochs=1,
                              mean_prediction_bound=0.4,
                              selection_data=(X_sel, y3[:200])).fit(X, y3)
