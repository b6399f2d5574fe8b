"""Randomised copies of fitted models, for the randomisation sanity checks.

The model parameter randomisation test (Adebayo et al. 2018) re-explains
rows with copies of the model whose parameters are re-initialised layer by
layer, from the output layer down.  :func:`randomised_layers` names the
groups of parameters ("layers") of a fitted model in that order and
:func:`randomise_model` returns a new fitted model with the named ones
re-initialised; the user's model is never modified.  See
:ref:`def-randomisation-metrics` in the user guide.

Supported models (possibly inside a :class:`~sklearn.pipeline.Pipeline`
and/or a :class:`~sklearn.frozen.FrozenEstimator`, which are kept):

* torch networks exposing their fitted ``module_`` (skorch nets): one layer
  per sub-module owning parameters;
* :class:`~sklearn.neural_network.MLPClassifier` /
  :class:`~sklearn.neural_network.MLPRegressor`: one layer per weight matrix
  ``coefs_[i]`` and its ``intercepts_[i]``;
* linear models (``coef_`` and ``intercept_``): one layer;
* decision trees and tree ensembles of scikit-learn (random forests,
  extra trees, gradient boosting): one layer per tree (per boosting stage),
  the last tree first;
* xgboost models (``XGBClassifier``, ``XGBRegressor``, ...): one layer per
  boosting round, the last round first.
"""

import copy as _copy
import numbers
import sys
import zlib

import numpy as np
from sklearn.pipeline import Pipeline

from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._estimators import is_frozen, unwrap
from sklearn_xai.utils._random import seed_entropy

__all__ = ["randomise_model", "randomised_layers"]

# Stream of the layer seeds (distinct from the other purposes of a seed).
_LAYER_STREAM = 7301


# ------------------------------------------------------------- model kinds
def _torch_module(model):
    module = getattr(model, "module_", None)
    # A torch module means torch is imported: a scikit-learn model is told
    # apart without importing torch.
    torch = sys.modules.get("torch")
    return module if torch is not None and isinstance(module, torch.nn.Module) else None


def _is_mlp(model):
    return hasattr(model, "coefs_") and hasattr(model, "intercepts_")


def _is_forest(model):
    return hasattr(model, "estimators_") and not hasattr(model, "init_") \
        and all(hasattr(t, "tree_") for t in np.ravel(model.estimators_))


def _is_boosting(model):
    return hasattr(model, "estimators_") and hasattr(model, "init_") \
        and all(hasattr(t, "tree_") for t in np.ravel(model.estimators_))


def _is_xgboost(model):
    return (type(model).__module__.split(".")[0] == "xgboost"
            and hasattr(model, "get_booster"))


def _xgboost_rounds(model):
    """Tree index ranges of each boosting round of a fitted xgboost model."""
    import json

    booster = json.loads(model.get_booster().save_raw("json"))
    indptr = booster["learner"]["gradient_booster"]["model"].get("iteration_indptr")
    if indptr is None:  # xgboost before 2.0: equal rounds
        n_trees = len(booster["learner"]["gradient_booster"]["model"]["trees"])
        n_rounds = model.get_booster().num_boosted_rounds()
        step = n_trees // max(n_rounds, 1)
        indptr = list(range(0, n_trees + 1, step))
    return booster, list(zip(indptr[:-1], indptr[1:], strict=True))


def _randomise_xgboost(model, names, seeds):
    """Leaf values of the trees of the named boosting rounds redrawn, normal
    with the mean and standard deviation of each tree's leaf values; the
    splits are kept.  Edited in the booster's JSON model and loaded back."""
    import json

    booster, rounds = _xgboost_rounds(model)
    trees = booster["learner"]["gradient_booster"]["model"]["trees"]
    for name in names:
        lo, hi = rounds[int(name[len("round_"):])]
        for k, tree in enumerate(trees[lo:hi]):
            rng = np.random.default_rng(seeds[name] + k)
            leaves = [j for j, child in enumerate(tree["left_children"]) if child == -1]
            current = np.asarray([tree["split_conditions"][j] for j in leaves])
            std = float(current.std()) or _rms(current)
            new = rng.normal(current.mean(), std, len(leaves))
            for j, value in zip(leaves, new, strict=True):
                tree["split_conditions"][j] = float(value)
                tree["base_weights"][j] = float(value)
    model.get_booster().load_model(bytearray(json.dumps(booster).encode()))


def _is_tree(model):
    return hasattr(model, "tree_") and hasattr(model.tree_, "value")


def _is_linear(model):
    return hasattr(model, "coef_") and not _is_mlp(model)


def _unsupported(model):
    name = type(model).__name__
    hint = ""
    if type(model).__module__.split(".")[0] in ("lightgbm", "catboost"):
        hint = (f" {name}'s leaf values live in its compiled booster and cannot be "
                "set safely from Python; use a scikit-learn tree ensemble "
                "(e.g. GradientBoostingClassifier) for randomisation checks.")
    elif type(model).__name__.startswith("HistGradientBoosting"):
        hint = (" Its trees are private predictor objects; use "
                "GradientBoostingClassifier/Regressor for randomisation checks.")
    return NotApplicableError(
        f"Cannot randomise the parameters of {name}.{hint} Supported models: "
        "torch nets with a fitted module_ (skorch), MLPClassifier / "
        "MLPRegressor, linear models (coef_), xgboost models, decision trees, "
        "random forests, extra trees and gradient boosting of scikit-learn, possibly in a "
        "Pipeline and/or a FrozenEstimator."
    )


def _layer_names(model):
    module = _torch_module(model)
    if module is not None:
        names = [name for name, m in module.named_modules()
                 if next(m.parameters(recurse=False), None) is not None]
        return [name or "module" for name in names][::-1]
    if _is_mlp(model):
        return [f"layer_{i}" for i in range(len(model.coefs_))][::-1]
    if _is_boosting(model):
        return [f"stage_{i}" for i in range(len(model.estimators_))][::-1]
    if _is_xgboost(model):
        return [f"round_{i}" for i in range(len(_xgboost_rounds(model)[1]))][::-1]
    if _is_forest(model):
        return [f"tree_{i}" for i in range(len(model.estimators_))][::-1]
    if _is_tree(model):
        return ["tree"]
    if _is_linear(model):
        return ["linear"]
    raise _unsupported(model)


def _final_model(estimator):
    from sklearn.utils.validation import check_is_fitted

    _, final = unwrap(estimator)
    if _torch_module(final) is None:
        check_is_fitted(final)
    return final


def randomised_layers(estimator):
    """The names of the randomisable parameter groups of a fitted model.

    Parameters
    ----------
    estimator : fitted estimator
        A supported model (see :func:`randomise_model`), possibly in a
        Pipeline or a FrozenEstimator.

    Returns
    -------
    layers : list of str
        Output layer first: the order of cascading randomisation.  Torch
        nets: the names of the sub-modules owning parameters (from
        ``module_.named_modules()``); MLPs: ``"layer_i"`` for ``coefs_[i]``;
        linear models: ``["linear"]``; forests: ``"tree_i"`` for
        ``estimators_[i]``; gradient boosting: ``"stage_i"`` for the trees
        of stage ``i``; xgboost: ``"round_i"`` for the trees of boosting
        round ``i``; a single decision tree: ``["tree"]``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.neural_network import MLPClassifier
    >>> from sklearn_xai.models import randomised_layers
    >>> X = np.random.default_rng(0).normal(size=(40, 3))
    >>> mlp = MLPClassifier((5, 4), max_iter=500, random_state=0).fit(X, X[:, 0] > 0)
    >>> randomised_layers(mlp)
    ['layer_2', 'layer_1', 'layer_0']
    """
    return _layer_names(_final_model(estimator))


def _check_layers(layers, names):
    if isinstance(layers, str):
        layers = names if layers == "all" else [layers]
    layers = list(layers)
    unknown = [name for name in layers if name not in names]
    if unknown:
        raise ValueError(
            f"Unknown layers {unknown}; this model's layers are {names} (see "
            "randomised_layers(estimator)); pass some of them or 'all'."
        )
    return layers


def layer_seed(random_state, name):
    """The integer seed of layer ``name`` for ``random_state``.

    A layer's new parameters depend only on the seed and its name, so a
    layer gets the same values in every cascading step and in independent
    randomisation.  ``random_state=None`` draws fresh entropy.
    """
    entropy = seed_entropy(random_state)
    rng = np.random.default_rng([entropy, _LAYER_STREAM, zlib.crc32(name.encode())])
    return int(rng.integers(2**62))


def _own_tensors(module, layers):
    """Copy-on-write: the parameters and buffers of ``layers`` (sub-modules
    included) replaced by clones wherever ``module`` holds them (tied weights
    stay tied), so that re-initialising them in place writes into tensors of
    ``module`` alone, never into tensors it shares with the user's model."""
    import torch

    clones = {}
    for layer in layers:
        for tensor in (*layer.parameters(), *layer.buffers()):
            if id(tensor) not in clones:
                clones[id(tensor)] = (_copy.deepcopy(tensor)  # Parameter type kept
                                      if isinstance(tensor, torch.nn.Parameter)
                                      else tensor.detach().clone())
    for sub in module.modules():
        for store in (sub._parameters, sub._buffers):
            for key, tensor in store.items():
                if tensor is not None and id(tensor) in clones:
                    store[key] = clones[id(tensor)]


def _randomise_torch(module, names, seeds):
    import torch

    modules = dict(module.named_modules())
    layers = {name: modules["" if name == "module" and "module" not in modules else name]
              for name in names}
    _own_tensors(module, layers.values())
    with torch.no_grad():
        for name in names:
            layer = layers[name]
            gen = torch.Generator().manual_seed(seeds[name])
            if hasattr(layer, "reset_parameters"):
                # reset_parameters draws from the global generator of the
                # layer's device: fork it, so that the user's torch random
                # state is left as it was (CPU only: seeding CUDA is slow).
                devices = sorted({p.device.index or 0 for p in layer.parameters(
                    recurse=False) if p.device.type == "cuda"})
                with torch.random.fork_rng(devices=devices):
                    if devices:
                        torch.manual_seed(seeds[name])
                    else:
                        torch.default_generator.manual_seed(seeds[name])
                    layer.reset_parameters()
            else:
                for param in layer.parameters(recurse=False):
                    std = float(param.detach().std()) if param.numel() > 1 else 1.0
                    noise = torch.randn(param.shape, generator=gen, dtype=param.dtype)
                    param.copy_(noise.to(param.device) * std)


def _glorot_bound(model, fan_in, fan_out):
    factor = 2.0 if getattr(model, "activation", "relu") == "logistic" else 6.0
    return np.sqrt(factor / (fan_in + fan_out))


def _randomise_mlp(model, names, seeds):
    coefs, intercepts = list(model.coefs_), list(model.intercepts_)
    for name in names:
        i = int(name.split("_")[1])
        rng = np.random.default_rng(seeds[name])
        fan_in, fan_out = coefs[i].shape
        bound = _glorot_bound(model, fan_in, fan_out)
        coefs[i] = rng.uniform(-bound, bound, coefs[i].shape).astype(coefs[i].dtype)
        intercepts[i] = rng.uniform(-bound, bound, intercepts[i].shape).astype(
            intercepts[i].dtype)
    model.coefs_, model.intercepts_ = coefs, intercepts


def _rms(values):
    rms = float(np.sqrt(np.mean(np.square(values)))) if np.size(values) else 0.0
    return rms if rms > 0 else 1.0


def _randomise_linear(model, seed):
    rng = np.random.default_rng(seed)
    coef = np.asarray(model.coef_)
    scale = _rms(coef)
    model.coef_ = rng.normal(0.0, scale, coef.shape).astype(coef.dtype)
    intercept = getattr(model, "intercept_", None)
    if isinstance(intercept, np.ndarray):
        model.intercept_ = rng.normal(0.0, scale, intercept.shape).astype(intercept.dtype)
    elif isinstance(intercept, numbers.Real) and intercept != 0.0:
        model.intercept_ = float(rng.normal(0.0, scale))


def _own_tree(tree):
    """Copy-on-write: ``tree`` (a fitted tree estimator) with its own copy of
    its ``tree_``, whose leaf values can be redrawn in place."""
    new = _shallow_copy(tree)
    new.tree_ = _copy.deepcopy(tree.tree_)
    return new


def _randomise_tree(tree, seed, classifier):
    """Leaf values of one fitted tree redrawn in place: class distributions
    from a flat Dirichlet for classifiers, N(mean, std) of the tree's leaf
    values for regressors (the scale of the tree is kept)."""
    rng = np.random.default_rng(seed)
    t = tree.tree_
    leaves = np.flatnonzero(t.children_left == -1)
    value = t.value  # a view of the tree's internal array
    if classifier:
        # value: (n_nodes, n_outputs, n_classes) class fractions (or counts).
        totals = value[leaves].sum(axis=2, keepdims=True)
        draws = rng.dirichlet(np.ones(value.shape[2]), size=(len(leaves), value.shape[1]))
        value[leaves] = draws * totals
    else:
        current = value[leaves]
        std = float(current.std()) or _rms(current)
        value[leaves] = rng.normal(current.mean(), std, current.shape)


def _shallow_copy(obj):
    """A new object of ``obj``'s type sharing its attribute values (without
    ``__getstate__``: a skorch net's pickles its torch attributes)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _copy_final(final):
    """A copy of the model doing the work that owns what randomisation
    replaces or writes into, and shares the rest with ``final``.

    The randomisation of MLPs and linear models assigns new arrays; that of
    trees (:func:`_own_tree`) and torch layers (:func:`_own_tensors`) copies
    the trees and tensors it writes into.  So a shallow copy of the model
    is enough, with its own tree container (forests, boosting) and its own
    torch modules (their structure and training flags; the tensors are
    shared until a layer is randomised).  xgboost boosters are edited in
    place: they are deep-copied.
    """
    if _is_xgboost(final):
        return _copy.deepcopy(final)
    new = _shallow_copy(final)
    if _torch_module(final) is not None:
        import torch

        memo = {}
        for value in final.__dict__.values():
            if isinstance(value, torch.nn.Module):
                memo.update((id(t), t) for t in (*value.parameters(), *value.buffers()))
        for key, value in final.__dict__.items():
            if isinstance(value, torch.nn.Module):  # module_, criterion_, ...
                new.__dict__[key] = _copy.deepcopy(value, memo)
    elif _is_boosting(final):
        new.estimators_ = np.array(final.estimators_, dtype=object, copy=True)
    elif _is_forest(final):
        new.estimators_ = list(final.estimators_)
    return new


def _copy_for_randomisation(estimator):
    """``estimator`` with its wrappers (FrozenEstimator, Pipeline) and its
    final model copied by :func:`_copy_final`; preprocessing steps shared."""
    if is_frozen(estimator):
        new = _shallow_copy(estimator)
        new.estimator = _copy_for_randomisation(estimator.estimator)
        return new
    if isinstance(estimator, Pipeline):
        new = _shallow_copy(estimator)
        *head, (name, last) = estimator.steps
        new.steps = [*head, (name, _copy_for_randomisation(last))]
        return new
    return _copy_final(estimator)


def randomise_model(estimator, layers="all", *, random_state=None, copy=True):
    """A new fitted model with the named layers' parameters re-initialised.

    The estimator is copied (its Pipeline and FrozenEstimator wrappers
    included) and the parameters of ``layers`` of the copy are redrawn; the
    other parameters are kept.  The input model is never modified.

    * torch nets (``module_``): each named sub-module's
      ``reset_parameters()`` (PyTorch's own initialisation, as Quantus
      does) under a torch seed derived from ``random_state`` and the layer
      name, without touching the global torch random state; a sub-module
      without ``reset_parameters`` gets ``N(0, s²)`` entries, ``s`` the
      standard deviation of each of its parameter tensors;
    * MLPClassifier / MLPRegressor: ``coefs_[i]`` and ``intercepts_[i]``
      redrawn as scikit-learn initialises them, uniform on
      ``[-b, b]`` with ``b = sqrt(6 / (fan_in + fan_out))`` (``sqrt(2 / ...)``
      for the logistic activation);
    * linear models: ``coef_`` and a non-zero ``intercept_`` redrawn
      ``N(0, s²)``, ``s`` the root mean square of the fitted ``coef_``;
    * trees: the leaf values of each named tree redrawn, class
      distributions from a flat Dirichlet (classifiers), or normal draws
      with the mean and standard deviation of the tree's leaf values
      (regressors, gradient-boosting stages).  The splits are kept;
    * xgboost models: the leaf values of the trees of each named boosting
      round (``"round_i"``, last round first), normal draws with the mean
      and standard deviation of each tree's leaf values, edited in the
      booster's JSON model (``save_raw("json")``) and loaded back; the
      splits are kept.

    Parameters
    ----------
    estimator : fitted estimator
        A supported model, possibly in a Pipeline and/or a FrozenEstimator.
    layers : "all", str or list of str, default="all"
        Names from :func:`randomised_layers` (one name or several; ``"all"``
        randomises every layer).
    random_state : int, RandomState instance or None, default=None
        Seeds the new parameters.  Layer ``name`` gets the same values for
        the same ``random_state`` whatever the other layers randomised with
        it, so cascading steps extend each other.
    copy : bool or "shared", default=True
        ``True`` randomises a deep copy: a model independent of
        ``estimator``, safe to train further.  ``"shared"`` randomises a
        copy that owns what is redrawn (the parameters of ``layers``, the
        trees of the named rounds) and shares the rest with ``estimator``
        (the other layers' tensors, the preprocessing steps, a net's
        optimizer and history): for predicting and explaining only, as the
        randomisation metrics do (copying a whole torch net can cost more
        than explaining with it).  Neither writes into ``estimator``.
        ``False`` randomises ``estimator`` itself, for callers that own it:
        a cascade of randomisations then extends one copy step by step
        instead of copying the model at every step (a randomised layer gets
        new tensors or trees, so a ``"shared"`` copy given back with
        ``copy=False`` still never writes into the model it came from).

    Returns
    -------
    randomised : estimator
        A fitted model of the same type (wrappers included); ``estimator``
        itself when ``copy=False``.

    References
    ----------
    .. [1] J. Adebayo, J. Gilmer, M. Muelly, I. Goodfellow, M. Hardt and
       B. Kim, "Sanity Checks for Saliency Maps", NeurIPS 2018.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.models import randomise_model, randomised_layers
    >>> X = np.random.default_rng(0).normal(size=(50, 3))
    >>> model = LogisticRegression().fit(X, X[:, 0] > 0)
    >>> randomised_layers(model)
    ['linear']
    >>> rand = randomise_model(model, "linear", random_state=0)
    >>> bool(np.any(rand.coef_ != model.coef_)), rand is model
    (True, False)
    """
    if isinstance(random_state, (np.random.RandomState, np.random.Generator)) \
            or random_state is None:
        random_state = seed_entropy(random_state)  # one seed for every layer
    names = randomised_layers(estimator)
    chosen = _check_layers(layers, names)
    seeds = {name: layer_seed(random_state, name) for name in chosen}
    if not (isinstance(copy, bool) or copy == "shared"):
        raise ValueError(
            f"copy must be True, False or 'shared', got {copy!r}; pass "
            "copy='shared' to predict and explain with a copy that shares the "
            "layers it does not randomise."
        )
    if copy == "shared":
        new = _copy_for_randomisation(estimator)
    else:
        new = _copy.deepcopy(estimator) if copy else estimator
    _, final = unwrap(new)
    module = _torch_module(final)
    if module is not None:
        _randomise_torch(module, chosen, seeds)
    elif _is_mlp(final):
        _randomise_mlp(final, chosen, seeds)
    elif _is_boosting(final) or _is_forest(final):
        classifier = _is_forest(final) and hasattr(final, "classes_")
        boosting = _is_boosting(final)
        prefix = "stage_" if boosting else "tree_"
        for name in chosen:
            i = int(name[len(prefix):])
            if boosting:  # (n_stages, K) array: the trees of stage i
                stage = final.estimators_[i]
                for k in range(len(stage)):
                    stage[k] = _own_tree(stage[k])
                    _randomise_tree(stage[k], seeds[name] + k, classifier)
            else:
                final.estimators_[i] = _own_tree(final.estimators_[i])
                _randomise_tree(final.estimators_[i], seeds[name], classifier)
    elif _is_xgboost(final):
        _randomise_xgboost(final, chosen, seeds)
    elif _is_tree(final):
        final.tree_ = _copy.deepcopy(final.tree_)  # copy-on-write
        _randomise_tree(final, seeds["tree"], hasattr(final, "classes_"))
    else:
        _randomise_linear(final, seeds["linear"])
    return new
