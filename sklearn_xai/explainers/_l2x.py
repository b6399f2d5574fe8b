"""L2X: learning to explain with a concrete top-k feature selector (XAI-Bench)."""

import copy
import numbers

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.utils import seed_entropy
from sklearn_xai.utils._sklearn import Interval, StrOptions
from sklearn_xai.utils._torch import single_thread

__all__ = ["L2X"]

_L2X_PRESETS = {
    # XAI-Bench trains every selector for one epoch of 1000-row batches.
    "xai_bench": {"epochs": 1, "early_stopping": False, "train_batch_size": 1000},
}


def _build_networks(d, n_outputs, generator):
    """Selector and predictor of L2X (Keras layout of the XAI-Bench code)."""
    import torch
    from torch import nn

    # torch's default initialisation draws from the global generator: build
    # inside fork_rng so the caller's random state is left untouched.
    with torch.random.fork_rng(devices=[]):
        selector = nn.Sequential(
            nn.Linear(d, 100), nn.SELU(),
            nn.Linear(100, 100), nn.SELU(),
            nn.Linear(100, d),
        )
        predictor = nn.Sequential(
            nn.Linear(d, 200), nn.SELU(), nn.BatchNorm1d(200, eps=1e-3, momentum=0.01),
            nn.Linear(200, 200), nn.SELU(), nn.BatchNorm1d(200, eps=1e-3, momentum=0.01),
            nn.Linear(200, n_outputs),
        )
    with torch.no_grad():
        for module in (*selector, *predictor):
            if isinstance(module, nn.Linear):  # Keras: glorot_uniform, zero bias
                nn.init.xavier_uniform_(module.weight, generator=generator)
                nn.init.zeros_(module.bias)
    selector.double()
    predictor.double()
    return selector, predictor


def _regularised_weights(selector, predictor):
    """Kernels with Keras' l2 regulariser: both hidden selector layers and
    every predictor layer (the selector's logit layer is not regularised)."""
    from torch import nn

    linear = [m.weight for m in predictor if isinstance(m, nn.Linear)]
    return [selector[0].weight, selector[2].weight, *linear]


def _topk_mask(logits, k):
    """Test-time selection: features whose logit reaches the k-th largest."""
    import torch

    threshold = torch.topk(logits, k, dim=1).values[:, -1:]
    return (logits >= threshold).to(logits.dtype)


def _concrete_sample(logits, k, temperature, generator):
    """Relaxed top-k subset (Chen et al. 2018): max over k Gumbel-softmax draws."""
    import torch

    tiny = torch.finfo(logits.dtype).tiny
    shape = (logits.shape[0], k, logits.shape[1])
    uniform = torch.rand(shape, generator=generator, dtype=logits.dtype)
    uniform = uniform.clamp_min(tiny)
    gumbel = -torch.log(-torch.log(uniform))
    samples = torch.softmax((gumbel + logits[:, None, :]) / temperature, dim=-1)
    return samples.max(dim=1).values


@explainer_doc("explainer_target", "explainer_output", "explainer_batch_size",
               "input_attributes", "regression_example",
               references=("chen2018", "liu2021"))
class L2X(BaseExplainer):
    """L2X: an instance-wise feature selector trained to keep the ``k``
    features that best predict the model (Chen et al. 2018).

    In :meth:`fit`, for every ``k = 1..d`` a selector network
    (``x -> 100 SELU -> 100 SELU -> d`` logits) and a predictor network
    (``x * mask -> 200 SELU + batch norm -> 200 SELU + batch norm -> output``)
    are trained jointly on ``(X_train, f(X_train))``; during training the
    mask is the concrete (Gumbel-softmax) relaxation of a top-``k`` subset
    at temperature ``temperature``, at test time the ``k`` largest logits.
    Loss: mean squared error for regression outputs and decision values,
    cross-entropy against the class probabilities for ``output="proba"``;
    plus ``l2`` times the squared kernels of the hidden layers (Keras
    regulariser), Adam with learning rate ``learning_rate``.

    The explanation of ``x`` is the sum over ``k`` of the test-time masks,
    divided by its row sum (equal to XAI-Bench's
    ``2/(D(D+1)) sum_k I_k`` when each mask has exactly ``k`` ones).  It is
    the same for every class of a classifier and needs no model call.

    XAI-Bench trains each selector for a single epoch (``preset="xai_bench"``),
    which leaves L2X close to random in its tables; the default trains up to
    ``epochs`` epochs with early stopping on a held-out fraction of the
    training rows, restoring the best weights.

    Everything runs in float64 on the CPU, single-threaded (faster for
    networks this small; the caller's thread setting is restored); torch's
    random numbers come from a private generator seeded by ``random_state``
    (the global torch seed is left untouched).

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    epochs : int, default=200
        Maximum number of training epochs per ``k``.
    early_stopping : bool, default=True
        Stop when the validation loss has not improved for
        ``n_iter_no_change`` epochs and restore the best weights.
    validation_fraction : float, default=0.1
        Fraction of the training rows held out for early stopping.
    n_iter_no_change : int, default=10
        Patience of early stopping, in epochs.
    train_batch_size : int, default=1000
        Mini-batch size of the training (XAI-Bench's ``BATCH_SIZE``).
    learning_rate : float, default=1e-3
        Adam's learning rate.
    temperature : float, default=0.1
        Temperature of the concrete relaxation.
    l2 : float, default=1e-3
        L2 penalty of the hidden layers' kernels.
    preset : {"xai_bench"} or None, default=None
        ``"xai_bench"``: one epoch per ``k``, no early stopping, batches of
        1000 rows (overriding those parameters).
    {explainer_target}
        The attributions do not depend on it (accepted for a uniform
        interface).
    {explainer_output}
    {explainer_batch_size}
        The model is called in :meth:`fit` only.
    random_state : int, RandomState instance or None, default=None
        Seeds the initialisation, the validation split, the shuffling and the
        Gumbel noise.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    selectors_ : list of torch.nn.Module
        The trained selector for ``k = 1..n_features`` (logit networks).
    n_epochs_ : list of int
        Epochs run for each ``k``.
    {input_attributes}

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import L2X
    >>> X = np.random.default_rng(0).normal(size=(200, 3))
    >>> ex = L2X(LinearRegression(), epochs=2, random_state=0)
    >>> A = ex.fit(X, X[:, 0]).transform(X[:2])
    >>> A.shape, bool(np.allclose(A.sum(axis=1), 1.0))
    ((2, 3), True)
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "epochs": [Interval(numbers.Integral, 1, None, closed="left")],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(numbers.Integral, 1, None, closed="left")],
        "train_batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "learning_rate": [Interval(numbers.Real, 0, None, closed="neither")],
        "temperature": [Interval(numbers.Real, 0, None, closed="neither")],
        "l2": [Interval(numbers.Real, 0, None, closed="left")],
        "preset": [StrOptions(set(_L2X_PRESETS)), None],
    }

    def __init__(self, estimator=None, *, epochs=200, early_stopping=True,
                 validation_fraction=0.1, n_iter_no_change=10, train_batch_size=1000,
                 learning_rate=1e-3, temperature=0.1, l2=1e-3, preset=None,
                 target="predicted", output="auto", batch_size=None,
                 random_state=None):
        self.estimator = estimator
        self.epochs = epochs
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.train_batch_size = train_batch_size
        self.learning_rate = learning_rate
        self.temperature = temperature
        self.l2 = l2
        self.preset = preset
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _settings(self):
        settings = {
            "epochs": self.epochs,
            "early_stopping": self.early_stopping,
            "train_batch_size": self.train_batch_size,
        }
        if self.preset is not None:
            settings.update(_L2X_PRESETS[self.preset])
        return settings

    def _targets(self, X):
        """Training targets (n, n_outputs) and whether they are probabilities."""
        f = self._output()
        return f.all_outputs(X), f.output == "proba"

    def _fit_explainer(self, X, y):
        import torch

        settings = self._settings()
        Y, is_proba = self._targets(X)
        n, d = X.shape
        seed = seed_entropy(self.random_state) % (2**63)
        generator = torch.Generator().manual_seed(seed)
        Xt = torch.tensor(np.ascontiguousarray(X), dtype=torch.float64)
        Yt = torch.tensor(Y, dtype=torch.float64)
        if settings["early_stopping"]:
            n_val = max(1, int(round(self.validation_fraction * n)))
            if n - n_val < 2:
                raise ValueError(
                    "early_stopping needs at least 3 training rows (got "
                    f"n_samples={n}); pass more rows or early_stopping=False."
                )
            perm = torch.randperm(n, generator=generator)
            train, val = perm[n_val:], perm[:n_val]
        else:
            train = val = torch.arange(n)
        self.selectors_ = []
        self.n_epochs_ = []
        with single_thread():
            for k in range(1, d + 1):
                selector, n_epochs = self._train_one(
                    k, Xt[train], Yt[train], Xt[val], Yt[val], is_proba, generator,
                    settings,
                )
                self.selectors_.append(selector)
                self.n_epochs_.append(n_epochs)

    def _loss(self, pred, target, is_proba):
        import torch

        if is_proba:
            return -(target * torch.log_softmax(pred, dim=1)).sum(dim=1).mean()
        return ((pred - target) ** 2).mean()

    def _train_one(self, k, X, Y, X_val, Y_val, is_proba, generator, settings):
        import torch

        d = X.shape[1]
        selector, predictor = _build_networks(d, Y.shape[1], generator)
        params = [*selector.parameters(), *predictor.parameters()]
        optimizer = torch.optim.Adam(params, lr=self.learning_rate, eps=1e-7)
        penalised = _regularised_weights(selector, predictor)
        batch = settings["train_batch_size"]
        best_loss, best_state, stale, epoch = np.inf, None, 0, 0
        for epoch in range(1, settings["epochs"] + 1):
            selector.train()
            predictor.train()
            order = torch.randperm(X.shape[0], generator=generator)
            for start in range(0, X.shape[0], batch):
                idx = order[start : start + batch]
                if len(idx) < 2:  # batch norm needs two rows
                    continue
                xb = X[idx]
                mask = _concrete_sample(selector(xb), k, self.temperature, generator)
                loss = self._loss(predictor(xb * mask), Y[idx], is_proba)
                if self.l2 > 0:
                    loss = loss + self.l2 * sum((w**2).sum() for w in penalised)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if not settings["early_stopping"]:
                continue
            selector.eval()
            predictor.eval()
            with torch.no_grad():
                mask = _topk_mask(selector(X_val), k)
                val_loss = float(self._loss(predictor(X_val * mask), Y_val, is_proba))
            if val_loss < best_loss - 1e-12:
                best_loss, stale = val_loss, 0
                best_state = copy.deepcopy(selector.state_dict())
            else:
                stale += 1
                if stale >= self.n_iter_no_change:
                    break
        if best_state is not None:
            selector.load_state_dict(best_state)
        selector.eval()
        for p in selector.parameters():
            p.requires_grad_(False)
        return selector, epoch

    def _explain(self, X, f, target_index, rngs):
        import torch

        Xt = torch.tensor(np.ascontiguousarray(X), dtype=torch.float64)
        total = torch.zeros_like(Xt)
        with torch.no_grad(), single_thread():
            for k, selector in enumerate(self.selectors_, start=1):
                total += _topk_mask(selector(Xt), k)
        total = total.numpy()
        return total / total.sum(axis=1, keepdims=True)
