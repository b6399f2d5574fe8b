"""Devices: where a torch model runs, and how many inputs go into one call.

The one place that decides the size of a block of model inputs
(:func:`block_entries`): explainers, metrics and the explained output ask it
with the device of the model they evaluate, so no explainer or metric keeps
a block constant of its own.

* On the CPU (and for models that are not torch modules) a block holds about
  :data:`~sklearn_xai.utils._output.BLOCK_ENTRIES` (``2**17``) input entries:
  1 MiB of float64, which keeps a model's intermediate arrays in cache (an
  sklearn MLP evaluates 100 000 rows almost twice as fast in such calls as in
  one).
* On an accelerator a call should be as large as memory allows, since each
  call has a fixed cost (kernel launches, a host round trip) that a small
  block pays many times.  A block holds ``device_memory_fraction`` (see
  :func:`~sklearn_xai.utils.set_config`, default 0.25) of the device's free
  memory, divided by :data:`DEVICE_BYTES_PER_ENTRY` bytes per input entry:
  the input, the intermediate activations of a forward pass and their
  gradients, of a convolutional network of a few layers.

Torch is imported inside the functions, so importing this module does not
import it.
"""

from sklearn_xai.utils._config import get_config

__all__ = [
    "DEVICE_BYTES_PER_ENTRY",
    "DEVICE_MAX_ENTRIES",
    "block_entries",
    "model_device",
    "resolve_device",
]

# Device memory one input entry of a model call may take: its float32 value,
# a convolutional network's activations (16-32 channels per input entry over
# a few layers) and their gradients.  A block of this many bytes per entry
# fits a backward pass of the package's image networks with room to spare.
DEVICE_BYTES_PER_ENTRY = 256
# At most this many entries per call on an accelerator: a block's inputs are
# also built (float64) on the host, 256 MiB at this bound, and calls beyond
# a few million entries gain nothing more from a GPU's parallelism.
DEVICE_MAX_ENTRIES = 2**25


def resolve_device(device, *, parameter="device"):
    """The :class:`torch.device` a ``device`` setting names.

    Parameters
    ----------
    device : str or torch.device
        ``"auto"`` (CUDA when torch sees a GPU, else the CPU), ``"cpu"``,
        ``"cuda"``, ``"cuda:N"``, ``"mps"`` or a :class:`torch.device`.
    parameter : str, default="device"
        The parameter's name, for error messages.

    Returns
    -------
    device : torch.device

    Raises
    ------
    ValueError
        If ``device`` is not a device name, or names CUDA (or MPS) on a
        machine where torch sees none; the message names ``parameter`` and
        the fix.

    Examples
    --------
    >>> from sklearn_xai.utils._device import resolve_device
    >>> resolve_device("cpu")
    device(type='cpu')
    """
    import torch

    if isinstance(device, str) and device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        raise ValueError(
            f"{parameter}={device!r} is not a torch device; use 'auto', 'cpu', "
            "'cuda' or 'cuda:N'."
        ) from None
    if resolved.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(
                f"{parameter}={device!r} asks for a CUDA GPU, but torch sees none "
                f"(torch {torch.__version__}, CUDA build: "
                f"{torch.version.cuda or 'no'}). Use {parameter}='cpu', or "
                f"{parameter}='auto' to take a GPU only when there is one."
            )
        count = torch.cuda.device_count()
        if resolved.index is not None and resolved.index >= count:
            raise ValueError(
                f"{parameter}={device!r} names GPU {resolved.index}, but torch sees "
                f"{count} GPU(s) (cuda:0 to cuda:{count - 1})."
            )
    elif resolved.type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise ValueError(
                f"{parameter}={device!r} asks for an Apple GPU (MPS), but torch "
                f"sees none. Use {parameter}='cpu' or 'auto'."
            )
    return resolved


def model_device(estimator):
    """The device of a torch model's parameters, or ``None``.

    Parameters
    ----------
    estimator : object
        A fitted skorch net (its ``module_``), a :class:`torch.nn.Module`, a
        fitted :class:`~sklearn.pipeline.Pipeline` or
        :class:`~sklearn.frozen.FrozenEstimator` ending in one, or anything
        else.

    Returns
    -------
    device : torch.device or None
        ``None`` for models that are not torch modules (scikit-learn,
        xgboost, ...) and for modules without parameters: they are evaluated
        on the host.
    """
    import sys

    if "torch" not in sys.modules:  # no torch model exists without torch imported
        return None
    import torch

    seen = 0
    while seen < 16:  # unwrap FrozenEstimator / Pipeline / SklearnReplica
        seen += 1
        if isinstance(estimator, torch.nn.Module):
            break
        inner = getattr(estimator, "module_", None)
        if isinstance(inner, torch.nn.Module):
            estimator = inner
            break
        if hasattr(estimator, "steps"):
            estimator = estimator.steps[-1][1]
        elif hasattr(estimator, "estimator") and type(estimator).__name__ == \
                "FrozenEstimator":
            estimator = estimator.estimator
        else:
            return None
    if not isinstance(estimator, torch.nn.Module):
        return None
    param = next(estimator.parameters(), None)
    if param is None:
        param = next(estimator.buffers(), None)
    return None if param is None else param.device


def block_entries(device=None):
    """Input entries per model call on ``device`` (the one block-size rule).

    Parameters
    ----------
    device : torch.device, str or None, default=None
        The device the model runs on; ``None`` (a model that is not a torch
        module) and the CPU get
        :data:`~sklearn_xai.utils._output.BLOCK_ENTRIES` (``2**17``).

    Returns
    -------
    entries : int
        On an accelerator: ``device_memory_fraction`` of its free memory
        (``torch.cuda.mem_get_info``) over :data:`DEVICE_BYTES_PER_ENTRY`,
        between ``BLOCK_ENTRIES`` and :data:`DEVICE_MAX_ENTRIES`
        (``2**25``, a 256 MiB float64 block on the host).  The
        ``device_memory`` setting (bytes), when set, replaces the free
        memory.

    Examples
    --------
    >>> from sklearn_xai.utils._device import block_entries
    >>> block_entries("cpu")
    131072
    """
    from sklearn_xai.utils._output import BLOCK_ENTRIES

    if device is None:
        return BLOCK_ENTRIES
    kind = device if isinstance(device, str) else getattr(device, "type", "cpu")
    kind = kind.split(":")[0]
    if kind == "cpu":
        return BLOCK_ENTRIES
    config = get_config()
    memory = config["device_memory"]
    if memory is None:
        memory = _free_memory(device)
    budget = int(config["device_memory_fraction"] * memory)
    return min(DEVICE_MAX_ENTRIES, max(BLOCK_ENTRIES, budget // DEVICE_BYTES_PER_ENTRY))


def _free_memory(device):
    """Free bytes on ``device`` (CUDA: ``mem_get_info``; others: 1 GiB)."""
    import torch

    device = torch.device(device)
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return int(free)
    return 2**30  # MPS and others report no free memory: a conservative 1 GiB
