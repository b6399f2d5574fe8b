"""The benchmark's cell cache: files that cannot run code.

A cached cell is one ``.npz`` file (``cells/<key>.npz``): its numeric
arrays (attributions, per-row scores) plus one JSON document, stored as a
unicode array, that holds everything else (times, counts, statuses, error
texts, warnings) and names the arrays it refers to.  The row shards of a
cell that is not finished are files of the same format
(``shards/<key>-<start>-<stop>.npz``), deleted once they are joined into
the cell's file.  It is read with
``numpy.load(allow_pickle=False)`` and :func:`json.loads`, neither of which
can execute code, so a results folder received from someone else (a shared
drive, a tarball, a git repository) is safe to rerun: a file that is not a
well-formed cell, whatever it contains, is ignored and the cell recomputed.

Nothing under a results folder is read with a deserialiser that can run
code: only plain arrays and JSON.  Fitted models are not stored on disk at all: each (dataset,
model, seed) is fitted once per run and handed to its cells in memory.

What a foreign cache *can* hold is wrong numbers: the cache is a record of
earlier results, not a proof of them.  Delete the ``cache`` folder (or run
with ``--no-cache``) to recompute everything.
"""

import io
import json
import os

import numpy as np

from sklearn_xai.utils._files import write_in_folder

__all__ = ["read_cell", "write_cell"]

_FORMAT = "sklearn_xai.cell"
_FORMAT_VERSION = 1
_HEADER = "__cell__"
_ARRAY_TAG = "__array__"


def _encode(obj, arrays):
    """A JSON-able copy of ``obj`` with arrays moved into ``arrays``."""
    if isinstance(obj, dict):
        if _ARRAY_TAG in obj:
            raise ValueError(f"A cached dict cannot use the reserved key {_ARRAY_TAG!r}.")
        return {str(k): _encode(v, arrays) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_encode(v, arrays) for v in obj]
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind not in "biuf":
            raise TypeError(f"Only numeric arrays are cached, got dtype {obj.dtype}.")
        name = f"a{len(arrays)}"
        arrays[name] = obj
        return {_ARRAY_TAG: name}
    if isinstance(obj, np.generic):
        return obj.item()
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"Cannot cache an object of type {type(obj).__name__}.")


def _decode(obj, arrays):
    if isinstance(obj, dict):
        if set(obj) == {_ARRAY_TAG}:
            return arrays[obj[_ARRAY_TAG]]
        return {k: _decode(v, arrays) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v, arrays) for v in obj]
    return obj


def write_cell(path, content):
    """Write a cell's ``content`` (dicts, lists, numbers, strings and
    numeric arrays) to ``path`` atomically: a run killed while writing never
    leaves a half-written file under the final name, and a symbolic link
    under that name is replaced, not followed."""
    arrays = {}
    document = {"format": _FORMAT, "version": _FORMAT_VERSION,
                "content": _encode(content, arrays)}
    arrays[_HEADER] = np.array(json.dumps(document, allow_nan=True))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    # A new temporary file, then a rename: never through a link planted
    # under the cell's name.
    write_in_folder(os.path.dirname(path) or ".", os.path.basename(path),
                    buffer.getvalue())


def read_cell(path):
    """The content written by :func:`write_cell`, or None when ``path`` does
    not exist or is not a well-formed cell file (truncated, foreign, or
    holding anything but numeric arrays and JSON).  Never executes code
    from the file."""
    if path is None or not os.path.isfile(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        header = arrays.pop(_HEADER)
        if header.dtype.kind != "U" or header.ndim != 0:
            return None
        document = json.loads(str(header))
        if not isinstance(document, dict) or document.get("format") != _FORMAT \
                or document.get("version") != _FORMAT_VERSION:
            return None
        if any(a.dtype.kind not in "biuf" for a in arrays.values()):
            return None
        content = _decode(document["content"], arrays)
    except Exception:  # noqa: BLE001 - any malformed file means "recompute"
        return None
    return content if isinstance(content, dict) else None
