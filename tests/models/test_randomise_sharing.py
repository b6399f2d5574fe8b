"""randomise_model copies only what it randomises and never writes into the
user's model (sklearn_xai.models._randomise)."""

import pickle

import numpy as np
import pytest
import torch
from sklearn.ensemble import GradientBoostingRegressor, RandomForestClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import Ridge
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor
from skorch import NeuralNetClassifier

from sklearn_xai.models._randomise import randomise_model, randomised_layers
from sklearn_xai.utils._estimators import unwrap

RNG = np.random.default_rng(0)
X = RNG.normal(size=(80, 4)).astype(np.float32)
Y_CLF = (X[:, 0] + X[:, 1] > 0).astype(int)
Y_REG = X @ np.array([2.0, -1.0, 0.5, 0.0], dtype=np.float32)


def _skorch():
    """A skorch net trained one epoch (an optimizer with state, a history)."""
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(),
                                 torch.nn.BatchNorm1d(8), torch.nn.Linear(8, 2))
    return NeuralNetClassifier(module, criterion=torch.nn.CrossEntropyLoss,
                               optimizer=torch.optim.Adam, max_epochs=1,
                               train_split=None, verbose=0).fit(X, Y_CLF)


def _tensors(model, name):
    """The parameters and buffers of layer ``name`` of a torch net, by name."""
    module = unwrap(model)[1].module_
    layer = dict(module.named_modules())[name]
    return {**dict(layer.named_parameters()), **dict(layer.named_buffers())}


@pytest.fixture(scope="module")
def models():
    return {
        "skorch": _skorch(),
        "frozen_skorch": FrozenEstimator(_skorch()),
        "mlp": MLPClassifier(hidden_layer_sizes=(5,), max_iter=50,
                             random_state=0).fit(X, Y_CLF),
        "ridge_pipe": FrozenEstimator(make_pipeline(StandardScaler(), Ridge()).fit(X, Y_REG)),
        "forest": RandomForestClassifier(3, max_depth=2, random_state=0).fit(X, Y_CLF),
        "boosting": GradientBoostingRegressor(n_estimators=3, max_depth=2,
                                              random_state=0).fit(X, Y_REG),
        "tree": DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, Y_REG),
    }


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", ["skorch", "frozen_skorch", "mlp", "ridge_pipe", "forest",
                                  "boosting", "tree"])
def test_user_model_bit_identical_after_randomising_and_using_the_copies(models, name):
    model = models[name]
    before = pickle.dumps(model)
    if name.endswith("skorch"):
        state = {k: v.clone() for k, v in unwrap(model)[1].module_.state_dict().items()}
    layers = randomised_layers(model)
    independent = [randomise_model(model, [layer], random_state=0, copy=copy)
                   for layer in layers for copy in (True, "shared")]
    cascade = randomise_model(model, layers[:1], random_state=0, copy="shared")
    for layer in layers[1:]:  # MPRT's cascade: one copy randomised further in place
        cascade = randomise_model(cascade, [layer], random_state=0, copy=False)
    for new in [*independent, cascade]:
        new.predict(X)  # a skorch net sets the training flags of its modules
    assert pickle.dumps(model) == before
    if name.endswith("skorch"):
        after = unwrap(model)[1].module_.state_dict()
        assert all(torch.equal(state[k], after[k]) for k in state)


def test_torch_copy_shares_only_the_layers_it_does_not_randomise(models):
    model = models["frozen_skorch"]
    names = randomised_layers(model)
    assert names == ["3", "2", "0"]  # Linear, BatchNorm1d (weight, bias), Linear
    new = randomise_model(model, ["2"], random_state=0, copy="shared")
    for name in names:
        old, copied = _tensors(model, name), _tensors(new, name)
        shared = [copied[k] is old[k] for k in old]
        # BatchNorm's running statistics are buffers of the randomised layer:
        # reset_parameters resets them, in tensors of the copy.
        assert all(shared) if name != "2" else not any(shared)
    assert not torch.equal(_tensors(new, "2")["weight"], _tensors(model, "2")["weight"])
    # The modules themselves (their training flags) are the copy's own.
    assert unwrap(new)[1].module_ is not unwrap(model)[1].module_


def test_sklearn_copies_share_what_they_do_not_randomise(models):
    mlp = randomise_model(models["mlp"], "layer_1", random_state=0, copy="shared")
    assert mlp.coefs_[0] is models["mlp"].coefs_[0]
    assert not np.array_equal(mlp.coefs_[1], models["mlp"].coefs_[1])
    forest = models["forest"]
    new = randomise_model(forest, "tree_2", random_state=0, copy="shared")
    assert new.estimators_[0] is forest.estimators_[0]
    assert new.estimators_[2] is not forest.estimators_[2]
    steps, _ = unwrap(randomise_model(models["ridge_pipe"], "linear", random_state=0,
                                      copy="shared"))
    assert steps[0][1] is unwrap(models["ridge_pipe"])[0][0][1]


def test_default_copy_is_independent_of_the_user_model(models):
    # copy=True: nothing shared, so training the copy cannot reach the model.
    model = models["frozen_skorch"]
    new = randomise_model(model, ["2"], random_state=0)
    for name in randomised_layers(model):
        old, copied = _tensors(model, name), _tensors(new, name)
        assert not any(copied[k] is old[k] for k in old)
        assert not any(copied[k].data_ptr() == old[k].data_ptr() for k in old)
    forest = models["forest"]
    new = randomise_model(forest, "tree_2", random_state=0)
    assert new.estimators_[0] is not forest.estimators_[0]
    mlp = models["mlp"]
    assert randomise_model(mlp, "layer_1", random_state=0).coefs_[0] is not mlp.coefs_[0]


def test_copy_refuses_other_values(models):
    with pytest.raises(ValueError, match="copy must be True, False or 'shared'"):
        randomise_model(models["mlp"], "layer_1", random_state=0, copy="deep")


class _Scaled(torch.nn.Module):
    """A layer whose reset_parameters also writes into its child's tensors."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(2))
        self.inner = torch.nn.Linear(2, 2)

    def reset_parameters(self):
        torch.nn.init.normal_(self.scale)
        torch.nn.init.zeros_(self.inner.weight)

    def forward(self, x):
        return self.inner(x) * self.scale


class _Net:
    """The least a torch model needs to be randomised: a fitted module_."""

    def __init__(self, module):
        self.module_ = module


def test_torch_layer_resets_reaching_children_and_tied_weights_stay_in_the_copy():
    torch.manual_seed(0)
    module = torch.nn.Sequential(_Scaled(), torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
    module[2].weight = module[1].weight  # tied
    net = _Net(module)
    state = {k: v.clone() for k, v in module.state_dict().items()}
    new = randomise_model(net, ["0", "1"], random_state=0, copy="shared")
    copied = new.module_
    assert torch.all(copied[0].inner.weight == 0)       # the child reset in the copy
    assert copied[2].weight is copied[1].weight          # still tied, to a new tensor
    assert copied[1].weight is not module[1].weight
    assert copied[2].bias is module[2].bias              # not randomised: shared
    after = module.state_dict()
    assert all(torch.equal(state[k], after[k]) for k in state)
    assert module[2].weight is module[1].weight


# That randomising a scikit-learn model imports neither torch nor skorch is
# checked in a fresh interpreter by
# tests/benchmark/test_cached_rerun_imports.py (one interpreter, three paths).
