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

__all__ = ["eval_mode", "first_hidden_layer", "full_precision", "single_thread"]


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


@contextmanager
def full_precision():
    """float32 matrix products and convolutions in full float32, then restore.

    On NVIDIA GPUs torch may compute float32 products in TF32 (a 10-bit
    mantissa, relative errors of about ``1e-3``): cuDNN convolutions do by
    default (``torch.backends.cudnn.allow_tf32``), matrix products when
    ``torch.backends.cuda.matmul.allow_tf32`` (or
    ``torch.set_float32_matmul_precision("high")``) says so.  Inside the
    block both are off, so a check that compares a model's float32 output
    with a replay of its layers sees float32 rounding only; the caller's
    settings (the matmul precision, ``"medium"`` included, and cuDNN's flag)
    come back afterwards, also when the block raises.  On the CPU the flags
    change nothing.
    """
    import torch

    backends = torch.backends
    # Two APIs set these: the flags and torch.set_float32_matmul_precision,
    # and (torch >= 2.9) a per-backend ``fp32_precision``; torch refuses to
    # read the flags once the second was used.  The caller's settings are
    # saved and restored through the API they were set with, so that
    # torch's own record of it is unchanged.
    try:
        legacy = (torch.get_float32_matmul_precision(),
                  backends.cudnn.allow_tf32)
    except RuntimeError:  # the per-backend API is in use
        legacy = None
    fine = [obj for obj in (
        backends.cuda.matmul, getattr(backends.cudnn, "conv", None),
        getattr(backends.cudnn, "rnn", None),
        getattr(getattr(backends, "mkldnn", None), "matmul", None),
        getattr(getattr(backends, "mkldnn", None), "conv", None),
    ) if obj is not None and hasattr(obj, "fp32_precision")]
    saved = [obj.fp32_precision for obj in fine]
    if legacy is not None:
        torch.set_float32_matmul_precision("highest")
        backends.cudnn.allow_tf32 = False
    else:
        for obj in fine:
            obj.fp32_precision = "ieee"
    try:
        yield
    finally:
        if legacy is not None:
            torch.set_float32_matmul_precision(legacy[0])
            backends.cudnn.allow_tf32 = legacy[1]
        else:
            for obj, value in zip(fine, saved, strict=True):
                obj.fp32_precision = value


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
