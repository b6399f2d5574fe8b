"""The package configuration, and the one check of large allocations.

Explainers and metrics evaluate the model on ``count`` derived inputs per
explained row (``n_perturbations``, ``n_draws``, ``n_steps``, ...).  A
mistaken count (``n_perturbations=10**12``) would otherwise reach numpy's
``Unable to allocate 72.8 TiB`` after minutes of work, or run for days.
:func:`check_allocation` estimates the memory from the count before any
work starts and refuses it above ``max_allocation_bytes``, a limit the user
can raise with :func:`set_config` or :func:`config_context`.
"""

import threading
from contextlib import contextmanager

__all__ = ["check_allocation", "config_context", "get_config", "set_config"]

# Largest array (in bytes) that explainers and metrics allocate without
# being told otherwise: 8 GiB, far above what the default settings need.
_DEFAULT_MAX_ALLOCATION_BYTES = 8 * 2**30

_global_config = {
    "max_allocation_bytes": _DEFAULT_MAX_ALLOCATION_BYTES,
    "device_memory_fraction": 0.25,
    "device_memory": None,
}
_local = threading.local()


def _config():
    """The configuration of this thread (a copy of the global one at first)."""
    if not hasattr(_local, "config"):
        _local.config = _global_config.copy()
    return _local.config


def get_config():
    """The current values of the sklearn_xai configuration.

    Returns
    -------
    config : dict
        ``max_allocation_bytes`` : int or None
            The largest array, in bytes, that explainers and metrics
            allocate (see :func:`check_allocation`); ``None``: no limit.
        ``device_memory_fraction`` : float
            Share of an accelerator's memory one block of model calls may
            take (see :func:`~sklearn_xai.utils._device.block_entries`).
        ``device_memory`` : int or None
            Bytes of accelerator memory blocks are sized from; ``None``: the
            device's free memory at the time of the call.

    See Also
    --------
    set_config : Set the configuration.
    config_context : Set it within a ``with`` block.

    Examples
    --------
    >>> from sklearn_xai.utils import get_config
    >>> get_config()["max_allocation_bytes"] == 8 * 2**30
    True
    """
    return _config().copy()


def _check_limit(value):
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            "max_allocation_bytes must be a positive int (bytes) or None (no "
            f"limit); got {value!r}."
        )


def _check_fraction(value):
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not 0 < value <= 1:
        raise ValueError(
            "device_memory_fraction must be a float in (0, 1], the share of an "
            f"accelerator's free memory a block may take; got {value!r}."
        )


def _check_memory(value):
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            "device_memory must be a positive int (bytes) or None (the device's "
            f"free memory); got {value!r}."
        )


def set_config(*, max_allocation_bytes="unchanged", device_memory_fraction="unchanged",
               device_memory="unchanged"):
    """Set the sklearn_xai configuration (for this thread).

    Parameters
    ----------
    max_allocation_bytes : int or None, default="unchanged"
        The largest array, in bytes, that explainers and metrics may
        allocate; larger counts (``n_perturbations``, ``n_draws``, ...) are
        refused before any work starts.  ``None`` removes the limit.  The
        default limit is 8 GiB.
    device_memory_fraction : float in (0, 1], default="unchanged"
        Share of an accelerator's memory that one block of model calls
        (inputs, activations, gradients) may take; blocks on the CPU keep
        their cache-sized bound.  The default is 0.25.  Results do not
        depend on it, only speed and peak memory.
    device_memory : int or None, default="unchanged"
        Bytes of accelerator memory to size blocks from; ``None`` (the
        default) reads the device's free memory at each call.  Set it to
        share a GPU with other work.

    See Also
    --------
    get_config, config_context

    Examples
    --------
    >>> from sklearn_xai.utils import get_config, set_config
    >>> set_config(max_allocation_bytes=2**34)  # 16 GiB
    >>> get_config()["max_allocation_bytes"]
    17179869184
    >>> set_config(max_allocation_bytes=8 * 2**30)  # back to the default
    """
    if max_allocation_bytes != "unchanged":
        _check_limit(max_allocation_bytes)
        _config()["max_allocation_bytes"] = max_allocation_bytes
    if device_memory_fraction != "unchanged":
        _check_fraction(device_memory_fraction)
        _config()["device_memory_fraction"] = float(device_memory_fraction)
    if device_memory != "unchanged":
        _check_memory(device_memory)
        _config()["device_memory"] = device_memory


@contextmanager
def config_context(*, max_allocation_bytes="unchanged",
                   device_memory_fraction="unchanged", device_memory="unchanged"):
    """Set the sklearn_xai configuration within a ``with`` block.

    Parameters
    ----------
    max_allocation_bytes, device_memory_fraction, device_memory : \
default="unchanged"
        See :func:`set_config`.

    Yields
    ------
    None

    Examples
    --------
    >>> from sklearn_xai.utils import config_context, get_config
    >>> with config_context(max_allocation_bytes=None):
    ...     print(get_config()["max_allocation_bytes"])
    None
    """
    old = get_config()
    set_config(max_allocation_bytes=max_allocation_bytes,
               device_memory_fraction=device_memory_fraction,
               device_memory=device_memory)
    try:
        yield
    finally:
        set_config(**old)


def _format_bytes(n_bytes):
    """``n_bytes`` in binary units, e.g. ``'72.8 TiB'``."""
    size = float(n_bytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024.0 or unit == "PiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024.0
    return None  # not reached


def check_allocation(n_entries, itemsize=8, *, what, parameter, value=None):
    """Refuse an allocation above the configured ``max_allocation_bytes``.

    Called where a count given by the user enters (``n_perturbations``,
    ``n_draws``, ``n_steps``, ...), before any work starts, with the size of
    the largest array that count makes the code allocate.

    Parameters
    ----------
    n_entries : int
        Entries of the array (a Python int: the product of the counts, which
        may exceed the range of numpy's integers).
    itemsize : int, default=8
        Bytes per entry (8 for float64).
    what : str
        The array, for the message (e.g. ``"the perturbed copies of one
        row"``).
    parameter : str
        The parameter setting the count, named in the message.
    value : object, default=None
        Its value, shown in the message when given.

    Raises
    ------
    ValueError
        If ``n_entries * itemsize`` exceeds ``max_allocation_bytes``.  The
        message names the parameter, the estimated size, the limit and how
        to raise it.

    Examples
    --------
    >>> from sklearn_xai.utils import check_allocation
    >>> check_allocation(1000 * 20, what="the copies of one row",
    ...                  parameter="n_perturbations")
    >>> check_allocation(10**12 * 10, what="the copies of one row",
    ...                  parameter="n_perturbations", value=10**12)
    Traceback (most recent call last):
    ...
    ValueError: n_perturbations=1000000000000 needs about 72.8 TiB for the ...
    """
    limit = _config()["max_allocation_bytes"]
    n_bytes = int(n_entries) * int(itemsize)
    if limit is None or n_bytes <= limit:
        return
    shown = parameter if value is None else f"{parameter}={value!r}"
    raise ValueError(
        f"{shown} needs about {_format_bytes(n_bytes)} for {what}, above the "
        f"limit of {_format_bytes(limit)} (max_allocation_bytes={limit}). Lower "
        f"{parameter}, or raise the limit with "
        "sklearn_xai.utils.set_config(max_allocation_bytes=...) or within "
        "`with sklearn_xai.utils.config_context(max_allocation_bytes=...):` "
        "(None: no limit)."
    )
