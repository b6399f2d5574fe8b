"""Torch plumbing shared by explainers and metrics.

Running a torch module the way explanations need it: in evaluation mode
(restoring the caller's modes afterwards), single-threaded for small
networks, and with a forward hook that reads a hidden layer.  Torch is
imported inside the functions, so importing this module does not import it.

How a fitted estimator becomes a torch function of its explained output
(scikit-learn replicas, scaler folding) lives in
``sklearn_xai/utils/_torch_model.py``.
"""

from contextlib import contextmanager

import numpy as np

from sklearn_xai.utils._output import model_input_dtype

__all__ = ["eval_mode", "first_hidden_layer", "single_thread"]


@contextmanager
def eval_mode(module):
    """Evaluation mode (no dropout, batch-norm running stats), then restore.

    Every submodule gets its own training flag back, even when the caller
    had mixed them.
    """
    states = [(m, m.training) for m in module.modules()]
    module.eval()
    try:
        yield module
    finally:
        for m, training in states:
            m.train(training)


@contextmanager
def single_thread():
    """Run torch single-threaded, restoring the caller's setting afterwards.

    For small networks one thread is as fast as several on an idle machine,
    and multi-threaded kernels of this size slow down by an order of
    magnitude when other processes compete for the cores.
    """
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def first_hidden_layer(net, batch_size):
    """First hidden layer (after its activation) of a skorch net's ``module_``.

    The first ``Linear`` or convolution among the module's leaf layers is
    read with a forward hook, or the activation right after it when there is
    one (a leaf module of ``torch.nn.modules.activation``).

    Parameters
    ----------
    net : skorch.NeuralNet
        A fitted net.
    batch_size : int or None
        Rows per forward pass (``None``: all at once).

    Returns
    -------
    rho : callable
        ``rho(Z) -> ndarray of shape (len(Z), n_hidden)``, float64, computed
        without gradients in evaluation mode.

    Raises
    ------
    TypeError
        If the module has no ``Linear`` or convolution layer.
    """
    import torch

    module = net.module_
    leaves = [m for m in module.modules() if not list(m.children())]
    layer = next(
        (i for i, m in enumerate(leaves)
         if isinstance(m, (torch.nn.Linear, torch.nn.modules.conv._ConvNd))),
        None,
    )
    if layer is None:
        raise TypeError(
            f"{type(module).__name__} has no Linear or Conv layer to read a hidden "
            "representation from."
        )
    hooked = leaves[layer]
    nxt = leaves[layer + 1] if layer + 1 < len(leaves) else None
    if nxt is not None and type(nxt).__module__ == "torch.nn.modules.activation":
        hooked = nxt
    dtype = model_input_dtype(net)
    device = next(module.parameters()).device

    def rho(Z):
        captured = []
        handle = hooked.register_forward_hook(
            lambda mod, inp, out: captured.append(out) if not captured else None
        )
        outs = []
        was_training = module.training
        module.eval()
        try:
            with torch.no_grad():
                step = batch_size or max(len(Z), 1)
                for start in range(0, len(Z), step):
                    captured.clear()
                    xb = torch.as_tensor(
                        np.ascontiguousarray(Z[start:start + step], dtype=dtype),
                        device=device,
                    )
                    module(xb)
                    outs.append(captured[0].reshape(len(xb), -1).double().cpu().numpy())
        finally:
            handle.remove()
            module.train(was_training)
        return np.concatenate(outs, axis=0) if outs else np.empty((0, 0))

    return rho
