"""Per-row random streams.

Every stochastic explainer and metric draws the random numbers of row ``i`` from
a generator that depends only on ``random_state`` and on a *key* of that row, so
the attributions of a row do not depend on which other rows share its batch, on
the batch size, or on the row order (SPEC section 1.7).

By default the key of a row is a hash of its values (so a row explained alone,
in a batch, or after shuffling receives the same draws).  Stability metrics
pass explicit keys to give a row and its neighbours common random numbers.
"""

import hashlib
import numbers

import numpy as np

__all__ = ["row_keys", "row_generators", "seed_entropy"]


def seed_entropy(random_state):
    """Turn a scikit-learn ``random_state`` into a stable integer entropy.

    Parameters
    ----------
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        ``None`` draws fresh entropy (non reproducible), an int is used as is,
        a ``RandomState`` or ``Generator`` is advanced once to draw the entropy.

    Returns
    -------
    entropy : int
        Non-negative integer usable as :class:`numpy.random.SeedSequence`
        entropy.
    """
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(random_state, numbers.Integral) and not isinstance(
        random_state, bool
    ):
        if random_state < 0:
            raise ValueError(
                f"random_state must be a non-negative integer, got {random_state}."
            )
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(np.iinfo(np.int64).max))
    raise ValueError(
        "random_state must be None, an int, a numpy RandomState or a numpy "
        f"Generator; got {random_state!r}."
    )


def row_keys(X):
    """Content keys of the rows of ``X``: a 63-bit hash of each row's bytes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    keys : ndarray of shape (n_samples,), dtype int64
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    # -0.0 and 0.0 are the same value: normalise before hashing.
    X = X + 0.0
    keys = np.empty(X.shape[0], dtype=np.int64)
    for i, row in enumerate(X):
        digest = hashlib.blake2b(row.tobytes(), digest_size=8).digest()
        keys[i] = int.from_bytes(digest, "little") >> 1
    return keys


def row_generators(random_state, keys):
    """One independent :class:`numpy.random.Generator` per key.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
        The seed shared by all rows.
    keys : array-like of int, shape (n_samples,)
        One key per row (see :func:`row_keys`).

    Returns
    -------
    generators : list of numpy.random.Generator
    """
    entropy = seed_entropy(random_state)
    return [
        np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(int(k),)))
        for k in np.asarray(keys, dtype=np.int64)
    ]
