"""Per-row random streams.

Every stochastic explainer and metric draws the random numbers of row ``i``
from a stream that depends only on ``random_state`` and on a *key* of that
row, so the attributions (or scores) of a row do not depend on which other
rows share its batch, on the batch size, or on the row order (see
:ref:`def-random-streams` in the user guide).

By default the key of a row is a hash of its values (so a row explained alone,
in a batch, or after shuffling receives the same draws).  Stability metrics
pass explicit keys to give a row and its neighbours common random numbers.

One engine, :class:`RowStreams`, implements this contract: the seed is
resolved once (:func:`seed_entropy`), each key is hashed once, and stream
``s`` of row ``i`` is a SplitMix64 sequence started at a position hashed from
``(seed, key_i, s)``: draw ``j`` is ``mix(base(seed, key_i, s) + (j + 1) * γ)``,
with ``mix`` the SplitMix64 finaliser and ``γ`` the golden-ratio increment.
It has two interfaces:

* vectorised draws for all rows at once (:meth:`RowStreams.uniform`,
  :meth:`~RowStreams.normal`, :meth:`~RowStreams.integers`,
  :meth:`~RowStreams.permutations`, :meth:`~RowStreams.bits`, and the
  functions :func:`row_uniform`, :func:`row_normal`, :func:`row_integers`,
  :func:`row_permutations`): nothing is computed per row in Python, so
  metrics that need a few draws for many rows pay almost nothing for
  randomness.  Uniforms have 52 random bits; normals come from the polar
  method on pairs of uniforms or, for many draws per row, from the row's
  numpy generator below, or (``method="box_muller"``) from the Box–Muller
  transform of the words, vectorised over all rows;
* the same counter-based draws as torch tensors on a device (``device=``
  of :meth:`~RowStreams.bits`, :meth:`~RowStreams.uniform`,
  :meth:`~RowStreams.integers` and :meth:`~RowStreams.normal` with
  ``method="box_muller"``), so noise is drawn where a torch model runs: the
  SplitMix64 words are 64-bit integer arithmetic, exact on every device, so
  words, uniforms and integers equal the numpy draws bit for bit on the CPU
  and on CUDA; the Box–Muller normals go through ``log``, ``sqrt``, ``cos``
  and ``sin``, whose last bit may differ between numpy, torch's CPU kernels
  and CUDA (a few units in the last place, see :meth:`RowStreams.normal`);
* one :class:`numpy.random.Generator` per row (:meth:`RowStreams.generators`,
  :func:`row_generators`) for code that needs numpy's generator API
  (distributions, some explainers): a PCG64 generator whose 128-bit state
  and increment are the first four words of the row's stream, built in a
  few microseconds.

:class:`RowStreams` is the one type that crosses interfaces: explainers'
``_explain``, maskers' ``impute``/``evaluate``, perturbers' ``perturb`` and
the metrics all receive and pass on a :class:`RowStreams` (checked by
:func:`check_streams`); code that needs numpy's generator API asks it for
``streams.generators(stream=...)`` at the point of use.
"""

import numbers

import numpy as np
from numpy.random.bit_generator import ISeedSequence

from sklearn_xai.utils._docstring import Substitution

__all__ = [
    "RowStreams",
    "check_streams",
    "keyed_streams",
    "purpose_generator",
    "row_generators",
    "row_integers",
    "row_keys",
    "row_normal",
    "row_permutations",
    "row_uniform",
    "seed_entropy",
    "stream_keys",
]

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # 2**64 / golden ratio, odd (SplitMix64 increment)
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64 finaliser
# Fractional bits of sqrt(2), sqrt(3), sqrt(5): salts of keys, streams, retries.
_KEY_SALT, _STREAM_SALT, _RETRY_SALT = (
    0x6A09E667F3BCC909, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B)
_U_GAMMA, _U_M1, _U_M2 = np.uint64(_GAMMA), np.uint64(_M1), np.uint64(_M2)
_U30, _U27, _U31, _U12 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(12)
_U_ONE = np.uint64(0x3FF0000000000000)  # exponent bits of 1.0
_BLOCK = 1 << 14  # words hashed per block (temporaries stay in cache)
_PCG_MIN_DRAWS = 512  # normals per row from which a per-row PCG64 is faster
# Generators of stream s are seeded from counter stream _GENERATOR_STREAMS + s.
_GENERATOR_STREAMS = 1 << 62


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


def check_streams(streams, n_rows, *, name="rngs"):
    """Check that ``streams`` is a :class:`RowStreams` over ``n_rows`` rows.

    Parameters
    ----------
    streams : object
        The rows' random streams handed to a masker, perturber or explainer.
    n_rows : int
        Number of rows they must cover.
    name : str, default="rngs"
        The parameter's name, for the error message.

    Returns
    -------
    streams : RowStreams

    Raises
    ------
    TypeError
        If ``streams`` is not a :class:`RowStreams` (a list of numpy
        generators is no longer accepted).
    ValueError
        If it covers another number of rows.
    """
    if not isinstance(streams, RowStreams):
        raise TypeError(
            f"{name} must be a sklearn_xai.utils.RowStreams over the {n_rows} rows, "
            f"got {type(streams).__name__}; build it with "
            "RowStreams(random_state, row_keys(X)) (code that needs numpy "
            "generators asks it for streams.generators())."
        )
    if len(streams) != n_rows:
        raise ValueError(
            f"{name} must cover the {n_rows} rows, got a RowStreams over "
            f"{len(streams)} rows; build it with RowStreams(random_state, "
            "row_keys(X)) for the rows passed."
        )
    return streams


# Docstring fragments: the Returns section of the row-key functions and the
# Parameters of the draws per row.
_RETURNS_KEYS = """
    Returns
    -------
    keys : ndarray of shape (n_samples,), dtype int64"""
_ROW_DRAW_PARAMETERS = """
    Parameters
    ----------
    random_state : None, int, RandomState or Generator
    keys : array-like of int, shape (n_rows,)
    size : int or tuple of int, default=()
    stream : int, default=0"""

@Substitution(returns_keys=_RETURNS_KEYS)
def row_keys(X):
    """Content keys of the rows of ``X``: a 63-bit hash of each row's values.

    Rows are keyed on their values rounded to single precision, a rounding
    that float64, float32, float16 and integer copies of the same data
    share, so all of them get the same keys (and the same random draws):
    a float32 copy of ``0.1`` holds another number than the float64 ``0.1``,
    but both round to the same float32.  The rule, value by value:

    * the value is rounded to the nearest float32 (exact for float32,
      float16 and integers of magnitude up to ``2**24``; float64 values
      beyond the float32 range become ``±inf``);
    * ``-0.0`` is keyed as ``0.0`` and every NaN as one NaN.

    Each value's 32-bit pattern is XORed with a salt of its column and passed
    through the SplitMix64 finaliser; a row's key is the finalised
    wrap-around sum of these words, computed in one vectorised pass (no loop
    over rows or features).  Two rows get the same key when all their values
    agree to single precision (a relative difference below about ``6e-8``),
    so such rows share their random draws; rows that differ in any value's
    float32 rounding get keys that collide with probability ``2**-63``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric rows (any real dtype, or a DataFrame of numeric columns).

    {returns_keys}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import row_keys
    >>> k = row_keys(np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 2.0], [-0.0, 0.0]]))
    >>> bool(k[0] == k[2]), bool(k[0] == k[1]), bool(k[3] == row_keys([[0.0, 0.0]])[0])
    (True, False, True)
    >>> X = np.array([[0.1, 1 / 3]])
    >>> bool(row_keys(X)[0] == row_keys(X.astype(np.float32))[0])
    True
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D to key its rows, got shape {X.shape}.")
    # The shared rounding: float32 (overflow to inf is part of the rule).
    with np.errstate(over="ignore", invalid="ignore"):
        X32 = X.astype(np.float32)
    X32 += np.float32(0.0)  # -0.0 -> 0.0 (X32 is a fresh array)
    X32[np.isnan(X32)] = np.float32(np.nan)  # one NaN pattern
    words = X32.view(np.uint32).astype(np.uint64)
    words ^= _column_salts(X.shape[1])
    with np.errstate(over="ignore"):
        h = _mix(words).sum(axis=1, dtype=np.uint64)
        h ^= np.uint64(_mix_int(_KEY_SALT ^ X.shape[1]))
        _mix(h)
    return (h >> np.uint64(1)).astype(np.int64)


def _column_salts(n_features):
    """Distinct well-mixed 64-bit salts of the columns ``0..n_features-1``:
    ``mix(c + (j + 1) γ)`` for column ``j``, computed vectorised (a few
    microseconds, so nothing is memoised)."""
    salts = np.arange(1, n_features + 1, dtype=np.uint64)
    salts *= _U_GAMMA
    salts += np.uint64(_KEY_SALT)
    return _mix(salts)


def row_generators(random_state, keys, *, stream=0):
    """One independent :class:`numpy.random.Generator` per key:
    ``RowStreams(random_state, keys).generators(stream=stream)``.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
        The seed shared by all rows.
    keys : array-like of int, shape (n_samples,)
        One key per row (see :func:`row_keys`).
    stream : int, default=0
        Sub-stream number (code that also draws vectorised numbers for the
        same seed and keys should give the generators a stream of their
        own).

    Returns
    -------
    generators : list of numpy.random.Generator
        Generator ``i`` depends only on ``random_state`` and ``keys[i]``.

    See Also
    --------
    RowStreams.generators : The same generators, with a choice of stream.
    RowStreams : Vectorised draws from the same streams (much cheaper when
        each row needs few draws).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import row_generators
    >>> g = row_generators(0, [3, 4, 3])
    >>> bool(g[0].random() == g[2].random()), bool(g[1].random() == g[2].random())
    (True, False)
    """
    return RowStreams(random_state, keys).generators(stream=stream)


# ------------------------------------------------------- counter-based streams
def _mix_int(z):
    """SplitMix64 finaliser of a Python int (64-bit wrap-around)."""
    z &= _MASK64
    z = ((z ^ (z >> 30)) * _M1) & _MASK64
    z = ((z ^ (z >> 27)) * _M2) & _MASK64
    return z ^ (z >> 31)


def _mix(z):
    """SplitMix64 finaliser of a uint64 array, in place (returns ``z``)."""
    z ^= z >> _U30
    z *= _U_M1
    z ^= z >> _U27
    z *= _U_M2
    z ^= z >> _U31
    return z


def _signed(word):
    """A 64-bit word as the signed int torch's int64 holds (two's complement)."""
    word &= _MASK64
    return word - (1 << 64) if word >> 63 else word


def _lsr(z, k):
    """Logical right shift of an int64 tensor (torch shifts arithmetically)."""
    return (z >> k) & ((1 << (64 - k)) - 1)


def _mix_torch(z):
    """:func:`_mix` of an int64 tensor, in place: the same words in two's
    complement (multiplication wraps around in 64 bits on every device)."""
    z ^= _lsr(z, 30)
    z *= _signed(_M1)
    z ^= _lsr(z, 27)
    z *= _signed(_M2)
    z ^= _lsr(z, 31)
    return z


def _float_dtype(dtype):
    """float64 or float32 as a numpy dtype, from a numpy or torch dtype."""
    if type(dtype).__module__ == "torch":
        name = str(dtype).removeprefix("torch.")
        dtype = {"float64": np.float64, "float32": np.float32}.get(name, name)
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = None
    if resolved not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32; got {dtype}.")
    return resolved


class _TorchFloats(dict):
    """numpy float dtype -> torch dtype, imported on first use."""

    def __missing__(self, key):
        import torch

        self.update({np.dtype(np.float64): torch.float64,
                     np.dtype(np.float32): torch.float32})
        return self[key]


_TORCH_FLOATS = _TorchFloats()
# The Box–Muller angle factor rounded to each dtype, as the host uses it.
_TORCH_TWO_PI = {np.dtype(np.float64): float(np.float64(2 * np.pi * 2.0**-32)),
                 np.dtype(np.float32): float(np.float32(2 * np.pi * 2.0**-32))}


def _seed64(entropy):
    """Fold an arbitrarily large non-negative int into 64 well-mixed bits."""
    h = _mix_int(_GAMMA)
    while True:
        h = _mix_int(h ^ (entropy & _MASK64)) + _GAMMA
        entropy >>= 64
        if not entropy:
            return _mix_int(h)


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(s) for s in size)


class _PresetState(ISeedSequence):
    """A seed sequence that hashes nothing: the bit generator built from it
    gets its state assigned right after construction (numpy accepts any
    :class:`~numpy.random.bit_generator.ISeedSequence`), which skips the
    tens of microseconds of :class:`numpy.random.SeedSequence` hashing."""

    def generate_state(self, n_words, dtype=np.uint32):
        return np.zeros(n_words, dtype=dtype)


_PRESET_STATE = _PresetState()  # stateless


def _pcg64_states(words):
    """PCG64 states from rows of four 64-bit words ``(w0, w1, w2, w3)``:
    128-bit state ``w0 w1`` and increment ``w2 w3`` (made odd)."""
    for w0, w1, w2, w3 in words.tolist():
        yield {
            "bit_generator": "PCG64",
            "state": {"state": (w0 << 64) | w1, "inc": (w2 << 64) | w3 | 1},
            "has_uint32": 0,
            "uinteger": 0,
        }


class RowStreams:
    """Per-row random streams keyed by ``(random_state, key)``.

    The random-number engine of the package, with two interfaces: draws
    vectorised over rows (:meth:`uniform`, :meth:`normal`, :meth:`integers`,
    :meth:`permutations`, :meth:`bits`) and one
    :class:`numpy.random.Generator` per row (:meth:`generators`) for code
    that needs numpy's API.  Row ``i`` of every draw depends only on the
    seed, on ``keys[i]``, on the ``stream`` number and on the requested
    ``size``, never on the other keys, their number or their order;
    different keys (and different streams of one key) give independent
    draws.  A :class:`RowStreams` indexed by a slice or an index array keeps
    its seed, so drawing block by block gives the same numbers as drawing
    for all rows at once.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
        The seed shared by all rows, resolved once with :func:`seed_entropy`
        (``None``: fresh entropy; a ``RandomState``/``Generator`` is advanced
        once).
    keys : array-like of int, shape (n_rows,)
        One key per row (see :func:`row_keys`); negative keys are taken
        modulo 2**64.

    Notes
    -----
    Draw ``j`` (flat index into ``size``) of row ``i`` in stream ``s`` is
    ``mix(b_is + (j + 1) γ)`` with ``b_is = mix(mix(key_i γ + c) ^ h(seed,
    s))``, ``mix`` the SplitMix64 finaliser and ``γ = 0x9E3779B97F4A7C15``:
    each row's draws are a SplitMix64 [1]_ sequence (which passes BigCrush)
    started at a pseudo-random 64-bit position, so two rows' sequences
    overlap with probability about ``n_draws / 2**64``.  The cost is a handful of numpy
    operations per array, independent of the number of rows.  A row's
    generator (:meth:`generators`) is a PCG64 [2]_ whose state is the first
    four words of the row's stream.

    References
    ----------
    .. [1] G. L. Steele, D. Lea and C. H. Flood, "Fast splittable
       pseudorandom number generators", OOPSLA 2014.
    .. [2] M. E. O'Neill, "PCG: A family of simple fast space-efficient
       statistically good algorithms for random number generation",
       Harvey Mudd College technical report HMC-CS-2014-0905, 2014.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import RowStreams
    >>> streams = RowStreams(0, [10, 11, 12])
    >>> z = streams.normal((4, 2))
    >>> z.shape
    (3, 4, 2)
    >>> bool(np.all(RowStreams(0, [12, 10]).normal((4, 2)) == z[[2, 0]]))
    True
    >>> bool(np.all(streams[1:].normal((4, 2)) == z[1:]))
    True
    """

    def __init__(self, random_state, keys):
        self.seed = _seed64(seed_entropy(random_state))
        keys = np.asarray(keys)
        if keys.ndim != 1 or (keys.size and not np.issubdtype(keys.dtype, np.integer)):
            raise ValueError(
                "keys must be a 1-D array of integers, one per row; got "
                f"{keys.dtype} array of shape {keys.shape}."
            )
        k = keys.astype(np.uint64)  # two's complement for negative keys
        k *= _U_GAMMA
        k += np.uint64(_KEY_SALT)
        self._hkeys = _mix(k)

    @classmethod
    def _from_hashed(cls, seed, hkeys):
        self = cls.__new__(cls)
        self.seed, self._hkeys = seed, hkeys
        return self

    def __len__(self):
        return self._hkeys.shape[0]

    def __getitem__(self, index):
        """Streams of a subset of the rows (slice, int array or boolean mask)."""
        sub = self._hkeys[index]
        if sub.ndim != 1:
            raise IndexError(
                "index RowStreams with a slice or a 1-D index array (streams[i:i+1] "
                "for row i alone); for row i's numpy Generator use "
                "streams.generators()[i].")
        return RowStreams._from_hashed(self.seed, sub)

    def __iter__(self):
        # Without it, Python would iterate through __getitem__ with ints,
        # which raise IndexError at once: an empty loop, not an error.
        raise TypeError(
            "RowStreams is not iterable: draw for all rows at once "
            "(streams.normal(size), uniform, integers, permutations) or loop over "
            "streams.generators() for one numpy Generator per row."
        )

    def __repr__(self):
        return f"RowStreams(n_rows={len(self)})"

    # ----------------------------------------------------------------- draws
    def _bases(self, stream):
        """Start of each row's SplitMix64 sequence in ``stream``, (n_rows,)."""
        if isinstance(stream, bool) or not isinstance(stream, numbers.Integral) \
                or stream < 0:
            raise ValueError(f"stream must be a non-negative int; got {stream!r}.")
        salt = _mix_int(self.seed ^ _mix_int((int(stream) + 1) * _STREAM_SALT))
        return _mix(self._hkeys ^ np.uint64(salt))

    def _generator_words(self, stream):
        """The four words per row that seed the PCG64 of ``stream``: hashed
        from a sub-stream reserved for generators, so they are never the
        words of the counter-based draws (:meth:`uniform`, ...) of any
        stream."""
        if isinstance(stream, bool) or not isinstance(stream, numbers.Integral) \
                or stream < 0:
            raise ValueError(f"stream must be a non-negative int; got {stream!r}.")
        return self.bits(4, stream=_GENERATOR_STREAMS + int(stream))

    def _fill(self, n_words, stream, out, convert):
        """Hash ``n_words`` counters per row, block by block, into ``out``.

        ``convert(z, out_block, start)`` turns a block of raw words
        (rows, n_words) starting at row ``start`` into output values.
        Blocks hold about ``_BLOCK`` words so that every pass over them stays
        in cache.  Returns the rows' sequence starts (n_rows,).
        """
        base = self._bases(stream)
        counters = np.arange(1, n_words + 1, dtype=np.uint64)
        counters *= _U_GAMMA
        step = max(1, _BLOCK // max(n_words, 1))
        scratch = np.empty((min(step, len(base)), n_words), dtype=np.uint64)
        for start in range(0, len(base), step):
            b = base[start : start + step]
            z = scratch[: len(b)]
            np.add(b[:, None], counters[None, :], out=z)
            convert(_mix(z), out[start : start + len(b)], start)
        return base

    def bits(self, size=(), *, stream=0, device=None):
        """Raw 64-bit draws, shape ``(n_rows, *size)``, dtype uint64.

        Parameters
        ----------
        size : int or tuple of int, default=()
            Draws per row.
        stream : int, default=0
            Independent sub-stream number (use different numbers for
            different kinds of draws of one row).
        device : str, torch.device or None, default=None
            ``None``: a numpy array.  A torch device: a torch int64 tensor on
            it holding the same 64 bits (two's complement), computed there.

        Returns
        -------
        bits : ndarray of shape (n_rows, \\*size), dtype uint64, or tensor
        """
        shape = _shape(size)
        m = _n_draws(shape)
        if device is not None:
            return self._torch_draws(m, stream, device, "bits").reshape(
                (len(self),) + shape)
        out = np.empty((len(self), m), dtype=np.uint64)
        self._fill(m, stream, out, _copy_words)
        return out.reshape((len(self),) + shape)

    def generators(self, *, stream=0):
        """One :class:`numpy.random.Generator` per row, for numpy's API.

        Row ``i``'s generator is a PCG64 whose 128-bit state and increment
        are four hashed words of row ``i`` in a sub-stream reserved for
        generators (state ``w0 w1``, increment ``w2 w3`` made odd), so it
        depends only on the seed, the row's key and ``stream``, like every
        other draw, and shares no word with the counter-based draws.  Building one costs a few microseconds (no
        :class:`numpy.random.SeedSequence` hashing).  The generators are
        independent objects; they do not support ``spawn``.

        Parameters
        ----------
        stream : int, default=0
            Independent sub-stream number.

        Returns
        -------
        generators : list of numpy.random.Generator
            One per row, in row order.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_xai.utils import RowStreams
        >>> streams = RowStreams(0, [10, 11])
        >>> g = streams.generators(stream=1)
        >>> z = np.stack([r.standard_normal(600) for r in g])
        >>> bool(np.all(z == streams.normal(600, stream=1)))
        True
        """
        generators = []
        for state in _pcg64_states(self._generator_words(stream)):
            bit_generator = np.random.PCG64(_PRESET_STATE)
            bit_generator.state = state
            generators.append(np.random.Generator(bit_generator))
        return generators

    def uniform(self, size=(), *, stream=0, device=None):
        """Uniform draws in ``[0, 1)`` (multiples of ``2**-52``).

        Parameters
        ----------
        size : int or tuple of int, default=()
        stream : int, default=0
        device : str, torch.device or None, default=None
            ``None``: a numpy array.  A torch device: a float64 tensor
            computed on it, equal to the numpy draws bit for bit.

        Returns
        -------
        u : ndarray of shape (n_rows, \\*size), float64, or tensor
        """
        shape = _shape(size)
        m = _n_draws(shape)
        if device is not None:
            return self._torch_draws(m, stream, device, "uniform").reshape(
                (len(self),) + shape)
        out = np.empty((len(self), m))
        self._fill(m, stream, out, _to_uniform)
        return out.reshape((len(self),) + shape)

    def normal(self, size=(), *, stream=0, dtype=np.float64, method="auto",
               device=None):
        """Standard normal draws.

        ``method="auto"``: fewer than ``_PCG_MIN_DRAWS`` (512) draws per
        row: Marsaglia's polar method on the hashed uniforms.  Pair ``p`` of a row takes two uniforms
        ``v`` in ``[-1, 1)`` from draws ``p`` and ``P + p`` (``P`` pairs) and
        keeps them if ``0 < |v|^2 < 1``; a rejected pair is redrawn from retry
        sub-streams of the same row (attempt ``a`` hashes the same counters
        from a start salted by ``a``).  More draws per row: numpy's ziggurat
        sampler on the row's generator of :meth:`generators` (same
        ``stream``), i.e. ``np.stack([g.standard_normal(m) for g in
        self.generators(stream=stream)])`` for ``m`` draws (about a
        microsecond per row, then numpy's speed).

        ``method="box_muller"``: the Box–Muller transform [1]_ of the
        counter-based words, vectorised over all rows (no per-row Python
        step, no rejection): the 64-bit word ``p`` of a row gives two 32-bit
        halves, ``u = (hi + 1/2) 2**-32`` and ``theta = 2 pi lo 2**-32``,
        and draws ``p`` and ``P + p`` (``P`` words) are ``sqrt(-2 ln u)``
        times ``cos(theta)`` and ``sin(theta)``, computed in ``dtype``.
        The draws are bounded by ``sqrt(66 ln 2) = 6.8`` (a tail probability
        of about ``1e-11`` is cut).  In single precision it is 1.4 to 1.7
        times as fast as numpy's ziggurat row by row (the transcendental
        functions are SIMD-vectorised), which is what a metric drawing many
        noisy copies per row (:func:`~sklearn_xai.metrics.infidelity`)
        spends its time on; in double precision it is slower.  Its numbers
        differ from ``"auto"``'s.

        Either way the result depends only on the seed, the row's key,
        ``stream``, ``size``, ``dtype`` and ``method``.

        With ``device`` (``method="box_muller"`` only) the same transform
        runs in torch on that device: the words and their conversion to
        floating point are exact, so the draws differ from numpy's only by
        the last-place rounding of ``log``, ``sqrt``, ``cos`` and ``sin`` in
        each library (at most a few units in the last place of ``dtype``;
        the tests bound it at 4 ulp in float64 and 8 in float32).

        Parameters
        ----------
        size : int or tuple of int, default=()
        stream : int, default=0
        dtype : {numpy.float64, numpy.float32}, default=numpy.float64
            ``float32`` uses numpy's single-precision ziggurat on the PCG64
            path (about 10% faster, different numbers); on the polar path
            the float64 draws are rounded; ``"box_muller"`` computes in
            ``dtype``.
        method : {"auto", "box_muller"}, default="auto"
            The sampler (see above).
        device : str, torch.device or None, default=None
            ``None``: a numpy array.  A torch device: a tensor computed on
            it (needs ``method="box_muller"``; ``dtype`` may be a numpy or a
            torch floating dtype).

        Returns
        -------
        z : ndarray of shape (n_rows, \\*size), of the requested dtype, or tensor

        References
        ----------
        .. [1] G. E. P. Box and M. E. Muller, "A Note on the Generation of
           Random Normal Deviates", The Annals of Mathematical Statistics
           29(2), 1958.
        """
        if method not in ("auto", "box_muller"):
            raise ValueError(
                f'method must be "auto" or "box_muller"; got {method!r}.')
        dtype = _float_dtype(dtype)
        shape = _shape(size)
        m = _n_draws(shape)
        if device is not None:
            if method != "box_muller":
                raise ValueError(
                    'normal draws on a torch device need method="box_muller" '
                    "(the polar and ziggurat samplers run on the host); got "
                    f"method={method!r}."
                )
            z = self._torch_draws((m + 1) // 2, stream, device, "box_muller",
                                  dtype=dtype)
            return z[:, :m].reshape((len(self),) + shape)
        if method == "box_muller":
            n_pairs = (m + 1) // 2
            out = np.empty((len(self), 2 * n_pairs), dtype=dtype)
            self._fill(n_pairs, stream, out, _box_muller_block)
            return out[:, :m].reshape((len(self),) + shape)
        if m >= _PCG_MIN_DRAWS:
            out = np.empty((len(self), m), dtype=dtype)
            # The rows' generators (see generators()), one reused object.
            bit_generator = np.random.PCG64(_PRESET_STATE)
            generator = np.random.Generator(bit_generator)
            for row, state in zip(out, _pcg64_states(self._generator_words(stream))):
                bit_generator.state = state
                generator.standard_normal(out=row, dtype=dtype)
            return out.reshape((len(self),) + shape)
        n_pairs = (m + 1) // 2
        out = np.empty((len(self), 2 * n_pairs))
        rejected = []

        def polar(z, block, start):
            rejected.append(_polar_block(z, block) + start * n_pairs)

        base = self._fill(2 * n_pairs, stream, out, polar)
        if rejected:
            _polar_retry(base, np.concatenate(rejected), out)
        if 2 * n_pairs != m or dtype != np.float64:
            out = out[:, :m].astype(dtype)
        return out.reshape((len(self),) + shape)

    def integers(self, high, size=(), *, stream=0, device=None):
        """Uniform integers in ``[0, high)``.

        ``floor(u * high)`` of a 52-bit uniform ``u``: the probability of
        each value is exact to within ``high * 2**-52``.

        Parameters
        ----------
        high : int or array-like of int
            Exclusive upper bound(s) in ``[1, 2**52]``; an array broadcasts
            against ``(n_rows, *size)``.
        size : int or tuple of int, default=()
        stream : int, default=0
        device : str, torch.device or None, default=None
            ``None``: a numpy array.  A torch device: an int64 tensor
            computed on it, equal to the numpy draws.

        Returns
        -------
        k : ndarray of shape (n_rows, \\*size), int64, or tensor
        """
        high = np.asarray(high)
        if high.size == 0 or not np.issubdtype(high.dtype, np.integer) \
                or high.min() < 1 or high.max() > 2**52:
            raise ValueError(
                f"high must hold integers in [1, 2**52]; got {high!r}."
            )
        u = self.uniform(size, stream=stream, device=device)
        if device is not None:
            import torch

            u *= torch.as_tensor(high, dtype=torch.float64, device=u.device)
            return u.to(torch.int64)
        u *= high
        return u.astype(np.int64)

    def _torch_draws(self, n_words, stream, device, kind, dtype=np.float64):
        """``n_words`` counter words per row as torch draws on ``device``.

        Words are hashed on the device (:func:`_mix_torch`) in blocks of
        rows of about :func:`~sklearn_xai.utils._device.block_entries`
        words, then converted as :func:`_copy_words` (``"bits"``),
        :func:`_to_uniform` (``"uniform"``) or :func:`_box_muller_block`
        (``"box_muller"``, two draws per word) do on the host.
        """
        import torch

        from sklearn_xai.utils._device import block_entries

        device = torch.device(device)
        base = torch.from_numpy(self._bases(stream).view(np.int64)).to(device)
        counters = torch.arange(1, n_words + 1, dtype=torch.int64, device=device)
        counters *= _signed(_GAMMA)
        if kind == "box_muller":
            tdtype = _TORCH_FLOATS[dtype]
            out = torch.empty((len(self), 2 * n_words), dtype=tdtype, device=device)
        else:
            out = torch.empty((len(self), n_words),
                              dtype=torch.int64 if kind == "bits" else torch.float64,
                              device=device)
        step = max(1, block_entries(device) // max(n_words, 1))
        for start in range(0, len(self), step):
            z = _mix_torch(base[start:start + step, None] + counters)
            block = out[start:start + step]
            if kind == "bits":
                block.copy_(z)
            elif kind == "uniform":
                torch.mul(_lsr(z, 12).to(torch.float64), 2.0**-52, out=block)
            else:
                hi, lo = _lsr(z, 32).to(tdtype), (z & 0xFFFFFFFF).to(tdtype)
                del z
                # The host's operations, in its order and dtype (numpy rounds
                # each step to dtype, as torch does).
                r = hi.add_(0.5).mul_(2.0**-32).log_().mul_(-2.0).sqrt_()
                theta = lo.mul_(_TORCH_TWO_PI[dtype])
                torch.cos(theta, out=block[:, :n_words])
                torch.sin(theta, out=block[:, n_words:])
                block[:, :n_words] *= r
                block[:, n_words:] *= r
        return out

    def permutations(self, n_items, size=(), *, n_chosen=None, stream=0):
        """Uniformly random (partial) permutations of ``range(n_items)``.

        A vectorised Fisher–Yates shuffle stopped after ``n_chosen`` swaps:
        the first ``n_chosen`` entries are a uniformly random ordered sample
        without replacement (so ``n_chosen=s`` draws a random subset of
        size ``s``).  The swap offsets ``k_j`` (uniform in
        ``[0, n_items - j)``) are decoded in mixed radix from one 52-bit
        uniform per group of consecutive swaps whose radices multiply to at
        most ``2**20`` (one draw per permutation when ``n_chosen`` is small),
        so each offset's probabilities are exact to within ``2**-32``.

        Parameters
        ----------
        n_items : int
            Number of items to permute.
        size : int or tuple of int, default=()
            Independent permutations per row.
        n_chosen : int or None, default=None
            Length of the returned prefix; ``None`` is ``n_items``.
        stream : int, default=0

        Returns
        -------
        perm : ndarray of shape (n_rows, \\*size, n_chosen), intp
        """
        n_items = int(n_items)
        n_chosen = n_items if n_chosen is None else int(n_chosen)
        if n_items < 1 or not 0 <= n_chosen <= n_items:
            raise ValueError(
                "Need n_items >= 1 and 0 <= n_chosen <= n_items; got "
                f"n_items={n_items}, n_chosen={n_chosen}."
            )
        shape = _shape(size)
        n_perm = len(self) * _n_draws(shape)
        n_swaps = min(n_chosen, n_items - 1)
        k = swap_offsets(self, n_items, size, n_swaps, stream)
        out_shape = (len(self),) + shape + (n_chosen,)
        # Cost model (ns per permutation, measured): full shuffle about
        # 0.9 n_items + 6 n_swaps, sparse one about 2.5 n_swaps (n_swaps - 1).
        if n_chosen < n_items and 2.5 * n_swaps * (n_swaps - 1) < 0.9 * n_items + 6 * n_swaps:
            return _sparse_shuffle(k).reshape(out_shape)
        # Item-major layout: position j of every permutation is one
        # contiguous row, and swaps are flat takes and puts.
        perm = np.empty((n_items, n_perm), dtype=np.intp)
        perm[...] = np.arange(n_items)[:, None]
        flat = perm.reshape(-1)
        cols = np.arange(n_perm)
        for j in range(n_swaps):
            other = (k[j] + j) * n_perm + cols
            held = perm[j].copy()
            perm[j] = flat[other]
            flat[other] = held
        return np.ascontiguousarray(perm[:n_chosen].T).reshape(out_shape)


def swap_offsets(streams, n_items, size, n_swaps, stream):
    """The swap offsets of :meth:`RowStreams.permutations`' Fisher–Yates
    shuffles: step ``j`` of permutation ``p`` swaps positions ``j`` and
    ``j + k[j, p]``, ``k[j]`` uniform in ``[0, n_items - j)``.

    ``streams.permutations(n_items, size, n_chosen=c, stream=s)`` is the
    shuffle of ``swap_offsets(streams, n_items, size, min(c, n_items - 1),
    s)``, for callers that need only part of each shuffle (KernelSHAP: the
    first ``t_p`` items of permutation ``p``, ``t_p`` varying).

    Parameters
    ----------
    streams : RowStreams
        The rows' streams.
    n_items : int
        Number of items permuted.
    size : int or tuple of int
        Permutations per row.
    n_swaps : int
        Swaps per permutation, at most ``n_items - 1``.
    stream : int
        Sub-stream number.

    Returns
    -------
    k : ndarray of shape (n_swaps, n_rows * prod(size)), intp
        The offsets, permutations in row order.
    """
    shape = _shape(size)
    n_perm = len(streams) * _n_draws(shape)
    # Step j swaps position j with j + k_j, k_j uniform in [0, n_items - j).
    groups = _radix_groups(np.arange(n_items, n_items - n_swaps, -1))
    u = streams.uniform(shape + (len(groups),), stream=stream).reshape(
        n_perm, len(groups))
    k = np.empty((n_swaps, n_perm), dtype=np.intp)
    j = 0
    for g, radices in enumerate(groups):
        v = (u[:, g] * float(np.prod(radices))).astype(np.intp)
        for radix in radices:
            v, k[j] = np.divmod(v, radix)
            j += 1
    return k


def _radix_groups(radices, limit=1 << 20):
    """Split ``radices`` into consecutive groups with products <= ``limit``."""
    groups, current, product = [], [], 1
    for r in (int(r) for r in radices):
        if current and product * r > limit:
            groups.append(current)
            current, product = [], 1
        current.append(r)
        product *= r
    if current:
        groups.append(current)
    return groups


def _sparse_shuffle(k):
    """The first ``n_swaps`` entries of the Fisher–Yates shuffle with swap
    offsets ``k`` (n_swaps, n_perm), without materialising the permutations.

    Step ``j`` reads the items at positions ``j`` and ``j + k_j`` from the
    earlier steps' writes (the latest write to a position wins; an unwritten
    position holds its own index): O(n_swaps^2) passes over ``n_perm``
    entries instead of O(n_items), with the same result as the full shuffle.
    Returns (n_perm, n_swaps).
    """
    n_swaps, n_perm = k.shape
    out = np.empty((n_perm, n_swaps), dtype=np.intp)
    targets, written = [], []  # position written at each earlier step, item
    for j in range(n_swaps):
        p = k[j] + j
        at_j = np.full(n_perm, j, dtype=np.intp)
        at_p = p.copy()
        for t, w in zip(targets, written):
            np.copyto(at_j, w, where=t == j)
            np.copyto(at_p, w, where=t == p)
        out[:, j] = at_p
        targets.append(p)
        written.append(at_j)
    return out


def _n_draws(shape):
    m = int(np.prod(shape, dtype=np.int64))
    if m < 0 or any(s < 0 for s in shape):
        raise ValueError(f"size must hold non-negative ints; got {shape}.")
    return m


def _copy_words(z, out, base=None):
    np.copyto(out, z)


def _to_uniform(z, out, base=None):
    """Raw words -> uniforms in [0, 1) with 52 random mantissa bits."""
    z >>= _U12
    z |= _U_ONE  # a float in [1, 2)
    np.subtract(z.view(np.float64), 1.0, out=out)


def _polar_block(z, out):
    """Raw words (rows, 2P) -> standard normals by the polar method.

    Pair ``p`` of a row is made of its words ``p`` and ``P + p``.  Returns
    the flat (row * P + p) indices of the rejected pairs, left at 0.
    """
    _to_uniform(z, out)
    out *= 2.0
    out -= 1.0  # uniform in [-1, 1), as _to_unit_interval
    n_pairs = out.shape[1] // 2
    x, y = out[:, :n_pairs], out[:, n_pairs:]
    sq = x * x
    sq += y * y
    bad = sq >= 1.0
    bad |= sq == 0.0
    sq[bad] = 1.0  # factor 0 until redrawn
    factor = np.log(sq)
    factor *= -2.0
    factor /= sq
    np.sqrt(factor, out=factor)
    x *= factor
    y *= factor
    return np.flatnonzero(bad)


def _box_muller_block(z, out, start=None):
    """Raw words (rows, P) -> standard normals (rows, 2P) in ``out``'s dtype
    by the Box–Muller transform: word ``p`` gives draws ``p`` (cosine) and
    ``P + p`` (sine) from its high and low 32-bit halves."""
    dtype = out.dtype.type
    n_pairs = z.shape[1]
    halves = z.view(np.uint32).reshape(z.shape + (2,))
    lo, hi = (halves[..., 0], halves[..., 1]) if np.little_endian else (
        halves[..., 1], halves[..., 0])
    r = np.add(hi, dtype(0.5), dtype=dtype, casting="unsafe")
    r *= dtype(2.0**-32)  # u in (0, 1]
    np.log(r, out=r)
    r *= dtype(-2.0)
    np.sqrt(r, out=r)
    theta = np.multiply(lo, dtype(2 * np.pi * 2.0**-32), dtype=dtype,
                        casting="unsafe")
    np.cos(theta, out=out[:, :n_pairs])
    np.sin(theta, out=out[:, n_pairs:])
    out[:, :n_pairs] *= r
    out[:, n_pairs:] *= r


def _polar_retry(base, rejected, out):
    """Redraw rejected pairs, attempt ``a = 1, 2, ...`` hashing the pair's
    counters from the row's start salted by ``a``, until all are accepted."""
    n_pairs = out.shape[1] // 2
    flat = out.reshape(-1)
    rows, idx = np.divmod(rejected, n_pairs)
    counters = [(idx.astype(np.uint64) + np.uint64(1 + offset)) * _U_GAMMA
                for offset in (0, n_pairs)]
    starts = base[rows]
    attempt = 0
    while rows.size:
        attempt += 1
        salted = _mix(starts ^ np.uint64(_mix_int(attempt * _RETRY_SALT)))
        x, y = (_to_unit_interval(_mix(c + salted)) for c in counters)
        sq = x * x + y * y
        ok = (sq < 1.0) & (sq > 0.0)
        sq = sq[ok]
        factor = np.sqrt(-2.0 * np.log(sq) / sq)
        pos = rows[ok] * (2 * n_pairs) + idx[ok]
        flat[pos] = x[ok] * factor
        flat[pos + n_pairs] = y[ok] * factor
        keep = ~ok
        rows, idx, starts = rows[keep], idx[keep], starts[keep]
        counters = [c[keep] for c in counters]


def _to_unit_interval(z):
    """Raw words -> uniforms in [-1, 1)."""
    u = np.empty(z.shape)
    _to_uniform(z, u)
    u *= 2.0
    u -= 1.0
    return u


@Substitution(row_draw_parameters=_ROW_DRAW_PARAMETERS)
def row_uniform(random_state, keys, size=(), *, stream=0):
    """Uniform draws in ``[0, 1)`` per row: ``RowStreams(random_state,
    keys).uniform(size, stream=stream)``.

    {row_draw_parameters}

    Returns
    -------
    u : ndarray of shape (n_rows, \\*size)

    Examples
    --------
    >>> from sklearn_xai.utils import row_uniform
    >>> u = row_uniform(0, [1, 2], 3)
    >>> u.shape, bool(((u >= 0) & (u < 1)).all())
    ((2, 3), True)
    """
    return RowStreams(random_state, keys).uniform(size, stream=stream)


@Substitution(row_draw_parameters=_ROW_DRAW_PARAMETERS)
def row_normal(random_state, keys, size=(), *, stream=0, dtype=np.float64,
               method="auto"):
    """Standard normal draws per row: ``RowStreams(random_state,
    keys).normal(size, stream=stream, dtype=dtype, method=method)``.

    {row_draw_parameters}
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
    method : {"auto", "box_muller"}, default="auto"
        See :meth:`RowStreams.normal`.

    Returns
    -------
    z : ndarray of shape (n_rows, \\*size)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import row_normal
    >>> z = row_normal(0, [5, 6], (1000, 2))
    >>> bool(np.all(row_normal(0, [6], (1000, 2))[0] == z[1]))
    True
    """
    return RowStreams(random_state, keys).normal(size, stream=stream, dtype=dtype,
                                                 method=method)


def row_integers(random_state, keys, high, size=(), *, stream=0):
    """Uniform integers in ``[0, high)`` per row: ``RowStreams(random_state,
    keys).integers(high, size, stream=stream)``.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
    keys : array-like of int, shape (n_rows,)
    high : int or array-like of int
    size : int or tuple of int, default=()
    stream : int, default=0

    Returns
    -------
    k : ndarray of shape (n_rows, \\*size), int64

    Examples
    --------
    >>> from sklearn_xai.utils import row_integers
    >>> k = row_integers(0, [1, 2, 3], 6, 10)
    >>> k.shape, bool(((k >= 0) & (k < 6)).all())
    ((3, 10), True)
    """
    return RowStreams(random_state, keys).integers(high, size, stream=stream)


def row_permutations(random_state, keys, n_items, size=(), *, n_chosen=None,
                     stream=0):
    """Random (partial) permutations per row: ``RowStreams(random_state,
    keys).permutations(n_items, size, n_chosen=n_chosen, stream=stream)``.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
    keys : array-like of int, shape (n_rows,)
    n_items : int
    size : int or tuple of int, default=()
    n_chosen : int or None, default=None
    stream : int, default=0

    Returns
    -------
    perm : ndarray of shape (n_rows, \\*size, n_chosen), intp

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import row_permutations
    >>> p = row_permutations(0, [1, 2], 5, 3)
    >>> p.shape, bool(np.all(np.sort(p, axis=-1) == np.arange(5)))
    ((2, 3, 5), True)
    """
    return RowStreams(random_state, keys).permutations(
        n_items, size, n_chosen=n_chosen, stream=stream)


# ------------------------------------------------------------ keyed by rows
_SEED_POLICIES = ("row", "openxai")


@Substitution(returns_keys=_RETURNS_KEYS)
def stream_keys(X, seed_policy="row"):
    """The keys of the rows of ``X`` under a seed policy.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    seed_policy : {"row", "openxai"}, default="row"
        ``"row"``: the row's content (:func:`row_keys`), so a row gets the
        same draws alone, in a batch or after shuffling.  ``"openxai"``: the
        row's position in ``X`` (0, 1, ...), as OpenXAI seeds by index.

    {returns_keys}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._random import stream_keys
    >>> stream_keys(np.ones((3, 2)), "openxai").tolist()
    [0, 1, 2]
    """
    if seed_policy not in _SEED_POLICIES:
        raise ValueError(
            f"seed_policy must be one of {_SEED_POLICIES}, got {seed_policy!r}."
        )
    if seed_policy == "row":
        return row_keys(X)
    return np.arange(np.shape(X)[0], dtype=np.int64)


def keyed_streams(X, random_state, *, seed_policy="row"):
    """:class:`RowStreams` of the rows of ``X`` (keys from :func:`stream_keys`).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    random_state : None, int, RandomState or Generator
    seed_policy : {"row", "openxai"}, default="row"

    Returns
    -------
    streams : RowStreams
    """
    return RowStreams(random_state, stream_keys(X, seed_policy))


def purpose_generator(random_state, stream):
    """A generator for one named purpose of a call, derived from ``random_state``.

    For draws that belong to the call rather than to a row (a background
    drawn once from a distribution, the seed of a retrained model): stream
    ``stream`` of the seed, independent of the per-row streams.

    Parameters
    ----------
    random_state : int, RandomState instance or None
    stream : int
        The purpose (distinct purposes of one function use distinct ints).

    Returns
    -------
    rng : numpy.random.Generator
    """
    return np.random.default_rng([seed_entropy(random_state), stream])
