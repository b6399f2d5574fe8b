"""Per-row random streams: reproducibility, batch invariance, independence
and the distribution of the vectorised draws (RowStreams)."""

import numpy as np
import pytest
from scipy import stats

from sklearn_xai.utils import row_generators, row_keys
from sklearn_xai.utils._random import (
    RowStreams,
    _mix,
    _mix_int,
    row_integers,
    row_normal,
    row_permutations,
    row_uniform,
    seed_entropy,
)

KEYS = np.arange(400) * 7 + 3


def test_splitmix64_finaliser_matches_the_reference_values():
    # SplitMix64 outputs for state 0 (Vigna's splitmix64.c): mix(k * gamma).
    gamma = 0x9E3779B97F4A7C15
    out = [_mix_int(k * gamma & (2**64 - 1)) for k in (1, 2, 3)]
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    # The vectorised finaliser agrees with the scalar one.
    z = np.array([k * gamma & (2**64 - 1) for k in (1, 2, 3)], dtype=np.uint64)
    assert [int(v) for v in _mix(z)] == out
    b = RowStreams(5, [1, 2, 3]).bits(4, stream=2)
    assert b.dtype == np.uint64 and b.shape == (3, 4)


@pytest.mark.parametrize("draw", [
    lambda s: s.uniform((6, 3)),
    lambda s: s.normal((5, 3)),
    lambda s: s.normal((30, 20)),  # >= 512 draws per row: per-row PCG64
    lambda s: s.normal((31, 3), dtype=np.float32, method="box_muller"),
    lambda s: s.normal(700, method="box_muller"),
    lambda s: s.integers(7, (6, 3)),
    lambda s: s.permutations(9, 4, n_chosen=3),
    lambda s: s.bits(5),
])
def test_rows_do_not_depend_on_batch_order_or_slicing(draw):
    keys = np.array([11, 5, 42, 7, 2**62 + 1])
    full = draw(RowStreams(3, keys))
    perm = np.array([3, 0, 4, 1, 2])
    np.testing.assert_array_equal(draw(RowStreams(3, keys[perm])), full[perm])
    np.testing.assert_array_equal(draw(RowStreams(3, keys[2:3])), full[2:3])
    np.testing.assert_array_equal(draw(RowStreams(3, keys)[1:4]), full[1:4])
    np.testing.assert_array_equal(draw(RowStreams(3, keys)[[4, 0]]), full[[4, 0]])
    # Same key twice -> same draws; another seed -> different draws.
    twice = draw(RowStreams(3, [42, 42]))
    np.testing.assert_array_equal(twice[0], twice[1])
    assert not np.array_equal(draw(RowStreams(4, keys)), full)


def test_random_state_forms_and_streams():
    a = row_uniform(7, [1, 2], 5)
    np.testing.assert_array_equal(a, RowStreams(7, [1, 2]).uniform(5))
    assert not np.array_equal(a, row_uniform(7, [1, 2], 5, stream=1))
    # A RandomState / Generator is consumed once, reproducibly.
    np.testing.assert_array_equal(row_uniform(np.random.RandomState(0), [1], 3),
                                  row_uniform(np.random.RandomState(0), [1], 3))
    assert not np.array_equal(row_uniform(None, [1], 3), row_uniform(None, [1], 3))
    # Large seeds (SeedSequence entropy is 128-bit) and negative keys work.
    RowStreams(2**100 + 3, [-1, 0]).normal(2)
    with pytest.raises(ValueError, match="keys"):
        RowStreams(0, [[1, 2]])
    with pytest.raises(ValueError, match="stream"):
        RowStreams(0, [1]).uniform(2, stream=-1)
    with pytest.raises(ValueError, match="high"):
        RowStreams(0, [1]).integers(0, 2)


def test_uniform_and_normal_moments():
    u = row_uniform(0, KEYS, 500).ravel()
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.003 and abs(u.var() - 1 / 12) < 0.001
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    z = row_normal(1, KEYS, 501).ravel()  # odd size: one pair is cut
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1.0) < 0.01
    assert abs(stats.skew(z)) < 0.03 and abs(stats.kurtosis(z)) < 0.06
    assert stats.kstest(z, "norm").pvalue > 1e-3
    # Tails: P(|Z| > 3) = 0.0027.
    assert abs((np.abs(z) > 3).mean() - 0.0027) < 0.0006
    # Many draws per row (the per-row PCG64 path).
    big = row_normal(1, KEYS[:100], 2000)
    zb = big.ravel()
    assert abs(zb.mean()) < 0.01 and abs(zb.std() - 1.0) < 0.01
    assert stats.kstest(zb, "norm").pvalue > 1e-3
    r = np.corrcoef(big)[np.triu_indices(100, 1)]
    assert abs(r.mean()) < 0.002 and abs(r.std() * np.sqrt(2000) - 1.0) < 0.08


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_box_muller_normals_are_the_documented_transform(dtype):
    """method="box_muller": word p of the row's stream gives draws p and
    P + p, sqrt(-2 ln u) (cos, sin)(theta) with u = (hi + 1/2) 2**-32 and
    theta = 2 pi lo 2**-32, computed in dtype."""
    streams = RowStreams(5, [4, 9, 2**62 + 1])
    z = streams.normal((3, 5), stream=2, dtype=dtype, method="box_muller")
    assert z.shape == (3, 3, 5) and z.dtype == dtype
    words = streams.bits(8, stream=2)  # 15 draws: 8 words, the last sine cut
    hi = (words >> np.uint64(32)).astype(np.float64)
    lo = (words & np.uint64(0xFFFFFFFF)).astype(np.float64)
    r = np.sqrt(-2.0 * np.log((hi + 0.5) * 2.0**-32))
    theta = 2 * np.pi * lo * 2.0**-32
    expected = np.concatenate([r * np.cos(theta), r * np.sin(theta)], axis=1)[:, :15]
    rtol = 1e-12 if dtype == np.float64 else 2e-6
    np.testing.assert_allclose(z.reshape(3, 15), expected, rtol=rtol, atol=rtol)
    # Not the "auto" numbers; another stream gives other numbers.
    assert not np.allclose(z, streams.normal((3, 5), stream=2, dtype=dtype))
    assert not np.allclose(z, streams.normal((3, 5), stream=3, dtype=dtype,
                                             method="box_muller"))
    with pytest.raises(ValueError, match="method"):
        streams.normal(3, method="ziggurat")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_box_muller_normals_distribution_and_independence(dtype):
    z = row_normal(1, KEYS, 2001, dtype=dtype, method="box_muller")
    flat = z.ravel().astype(np.float64)
    assert abs(flat.mean()) < 0.005 and abs(flat.std() - 1.0) < 0.005
    assert abs(stats.skew(flat)) < 0.02 and abs(stats.kurtosis(flat)) < 0.04
    assert stats.kstest(flat[:200_000], "norm").pvalue > 1e-3
    assert abs((np.abs(flat) > 3).mean() - 0.0027) < 0.0003
    assert np.abs(flat).max() < np.sqrt(66 * np.log(2)) + 1e-6
    # Rows, the cosine and sine of one word, and neighbouring draws are
    # uncorrelated (under independence, correlations are ~N(0, 1/n)).
    r = np.corrcoef(z[:, :1000])[np.triu_indices(len(KEYS), 1)]
    assert abs(r.mean()) < 0.002 and abs(r.std() * np.sqrt(1000) - 1.0) < 0.05
    assert abs(stats.pearsonr(z[:, :1000].ravel(), z[:, 1000:2000].ravel())[0]) < 0.01
    assert abs(stats.pearsonr(z[:, :-1].ravel(), z[:, 1:].ravel())[0]) < 0.01
    # Cosine and sine of one word: uncorrelated, and so are their squares.
    assert abs(stats.pearsonr(z[:, :1000].ravel() ** 2,
                              z[:, 1000:2000].ravel() ** 2)[0]) < 0.01


def test_draws_are_uncorrelated_across_rows_positions_and_streams():
    z = row_normal(2, KEYS, 200)  # (400, 200)
    # Row means and lag-1 correlation within a row.
    assert abs(stats.pearsonr(z[:, :-1].ravel(), z[:, 1:].ravel())[0]) < 0.01
    # Correlation between consecutive keys (the openxai policy uses 0..n-1).
    zk = row_normal(2, np.arange(400), 200)
    r = np.corrcoef(zk)[np.triu_indices(400, 1)]
    # Under independence the correlations are ~N(0, 1/200).
    assert abs(r.mean()) < 0.002 and abs(r.std() * np.sqrt(200) - 1.0) < 0.05
    # Pairs within the polar method and between streams.
    n = zk.shape[1] // 2
    assert abs(stats.pearsonr(zk[:, :n].ravel(), zk[:, n:].ravel())[0]) < 0.01
    other = row_normal(2, np.arange(400), 200, stream=1)
    assert abs(stats.pearsonr(zk.ravel(), other.ravel())[0]) < 0.01


def test_integers_and_permutations_are_uniform():
    k = row_integers(3, KEYS, 6, 300).ravel()
    counts = np.bincount(k, minlength=6)
    assert k.min() >= 0 and k.max() < 6
    assert stats.chisquare(counts).pvalue > 1e-3
    p = row_permutations(4, KEYS, 4, 30)  # 12000 permutations of 4 items
    assert np.all(np.sort(p, axis=-1) == np.arange(4))
    codes = (p * 4 ** np.arange(4)).sum(axis=-1).ravel()
    _, freq = np.unique(codes, return_counts=True)
    assert freq.size == 24 and stats.chisquare(freq).pvalue > 1e-3
    # Subsets of size 2 of 5 items: the 10 pairs are equally likely, and the
    # prefix is a sample without replacement.
    sub = np.sort(row_permutations(5, KEYS, 5, 25, n_chosen=2), axis=-1)
    assert np.all(sub[..., 0] < sub[..., 1])
    _, freq = np.unique(sub[..., 0] * 5 + sub[..., 1], return_counts=True)
    assert freq.size == 10 and stats.chisquare(freq).pvalue > 1e-3


def test_row_generators_still_give_numpy_generators():
    keys = row_keys(np.array([[0.0, 1.0], [-0.0, 1.0], [2.0, 3.0]]))
    assert keys[0] == keys[1] != keys[2]
    g = row_generators(0, keys)
    assert all(isinstance(r, np.random.Generator) for r in g)
    assert g[0].random() == g[1].random()


@pytest.mark.parametrize("stream", [0, 3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_generators_are_the_engine_of_many_normals_per_row(stream, dtype):
    """One engine: normal() with >= 512 draws per row is the rows'
    generators' standard_normal, and a generator's PCG64 state is four words
    of the row's reserved generator sub-stream, never words of its
    counter-based draws."""
    streams = RowStreams(9, [3, -1, 2**62 + 5, 3])
    for size in (512, (30, 20)):
        expected = np.stack([g.standard_normal(size, dtype=dtype)
                             for g in streams.generators(stream=stream)])
        np.testing.assert_array_equal(
            streams.normal(size, stream=stream, dtype=dtype), expected)
    from sklearn_xai.utils._random import _GENERATOR_STREAMS

    words = [int(w) for w in streams.bits(4, stream=_GENERATOR_STREAMS + stream)[1]]
    state = streams.generators(stream=stream)[1].bit_generator.state["state"]
    counter_words = {int(w) for w in streams.bits(64, stream=stream)[1]}
    assert not counter_words & set(words)
    assert state == {"state": (words[0] << 64) | words[1],
                     "inc": (words[2] << 64) | words[3] | 1}


def test_row_generators_and_keyed_streams_generators_are_the_rowstreams_generators():
    from sklearn_xai.utils._random import keyed_streams

    X = np.array([[0.5, 1.0], [2.0, -3.0], [0.5, 1.0]])
    keys = row_keys(X)

    def first(gens):
        return np.array([g.random(6) for g in gens])

    reference = first(RowStreams(4, keys).generators())
    np.testing.assert_array_equal(first(row_generators(4, keys)), reference)
    np.testing.assert_array_equal(reference[0], reference[2])  # same row, same draws
    np.testing.assert_array_equal(first(keyed_streams(X, 4).generators()), reference)
    np.testing.assert_array_equal(
        first(keyed_streams(X, 4, seed_policy="openxai").generators()),
        first(RowStreams(4, [0, 1, 2]).generators()))
    # A RandomState is consumed once, reproducibly, and resolving the seed
    # first (as the distributions do) changes nothing.
    np.testing.assert_array_equal(
        first(row_generators(np.random.RandomState(1), keys)),
        first(row_generators(seed_entropy(np.random.RandomState(1)), keys)))
    # Another stream, another seed: other draws.
    other_stream = first(RowStreams(4, keys).generators(stream=1))
    assert not np.array_equal(other_stream, reference)
    assert not np.array_equal(first(row_generators(5, keys)), reference)


def test_generators_do_not_depend_on_batch_and_are_independent_objects():
    import copy
    import pickle

    keys = np.array([11, 5, 42, 7])
    full = RowStreams(3, keys).generators()
    perm = np.array([2, 0, 3, 1])
    shuffled = RowStreams(3, keys[perm]).generators()
    sliced = RowStreams(3, keys)[1:3].generators()
    draws = np.array([g.standard_normal(5) for g in full])
    np.testing.assert_array_equal([g.standard_normal(5) for g in shuffled], draws[perm])
    np.testing.assert_array_equal([g.standard_normal(5) for g in sliced], draws[1:3])
    # Drawing from one row's generator does not move another's.
    twice = RowStreams(3, [42, 42]).generators()
    assert twice[0] is not twice[1]
    twice[0].random(100)
    np.testing.assert_array_equal(twice[1].standard_normal(5), draws[2])
    # The generators copy and pickle like any numpy generator.
    g = RowStreams(3, [7]).generators()[0]
    for clone in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert clone.random() == copy.deepcopy(g).random()
    with pytest.raises(ValueError, match="stream"):
        RowStreams(0, [1]).generators(stream=-1)


def test_generators_and_vectorised_draws_of_one_stream_are_not_correlated():
    """A generator's state is the first four words of its stream, which also
    give the stream's first uniforms: no dependence is measurable, and other
    stream numbers give other generators."""
    n = 40_000
    streams = RowStreams(0, np.arange(n))
    u = streams.uniform(8)
    v = np.array([g.random(4) for g in streams.generators()])
    r = np.corrcoef(np.hstack([u, v]).T)[:8, 8:]
    # 32 correlations, each ~N(0, 1/n) under independence.
    assert np.abs(r).max() < 5 / np.sqrt(n)
    counts, _, _ = np.histogram2d(u[:, 0], v[:, 0], bins=10)
    assert stats.chi2_contingency(counts)[1] > 1e-3
    assert row_generators(0, [5], stream=2)[0].random() == \
        RowStreams(0, [5]).generators(stream=2)[0].random()


def test_generators_draw_independent_uniform_numbers():
    # 400 consecutive keys (the openxai policy), 500 uniforms each.
    u = np.array([g.random(500) for g in row_generators(6, np.arange(400))])
    assert stats.kstest(u.ravel(), "uniform").pvalue > 1e-3
    r = np.corrcoef(u)[np.triu_indices(400, 1)]
    # Under independence the correlations are ~N(0, 1/500).
    assert abs(r.mean()) < 0.002 and abs(r.std() * np.sqrt(500) - 1.0) < 0.05


def test_column_salts_are_computed_not_memoised():
    from sklearn_xai.utils import _random

    assert not hasattr(_random, "_SALT_CACHE")
    salts = _random._column_salts(7)
    assert [int(v) for v in salts] == [
        _mix_int(0x6A09E667F3BCC909 + (j + 1) * 0x9E3779B97F4A7C15) for j in range(7)]


def test_sparse_partial_shuffle_equals_the_plain_fisher_yates():
    # The sparse prefix shuffle must give exactly what swapping in a full
    # array gives for the same offsets (reference: a per-permutation loop).
    from sklearn_xai.utils._random import _sparse_shuffle

    rng = np.random.default_rng(0)
    for n_items, n_swaps in [(20, 4), (5, 3), (3, 2), (50, 9), (7, 1)]:
        k = np.stack([rng.integers(0, n_items - j, size=300) for j in range(n_swaps)])
        expected = np.empty((300, n_swaps), dtype=np.intp)
        for p in range(300):
            perm = list(range(n_items))
            for j in range(n_swaps):
                o = j + k[j, p]
                perm[j], perm[o] = perm[o], perm[j]
            expected[p] = perm[:n_swaps]
        np.testing.assert_array_equal(_sparse_shuffle(k), expected)


def test_row_keys_are_keyed_on_float32_rounded_values_whatever_the_dtype():
    """float64, float32, float16, integer and DataFrame copies of the same
    data get the same keys, hence the same draws, even where float32 cannot
    hold the float64 value (0.1)."""
    import pandas as pd

    X = np.array([[0.5, -1.25, 3.0], [0.1, 0.2, 0.3], [-0.0, 0.0, 7.0]])
    expected = row_keys(X)
    for copy in (X.astype(np.float32), pd.DataFrame(X.astype(np.float32)),
                 X.astype(np.float32).tolist(), X.astype(np.float32).astype(np.float64)):
        np.testing.assert_array_equal(row_keys(copy), expected)
    half = X.astype(np.float16)
    np.testing.assert_array_equal(row_keys(half), row_keys(half.astype(np.float64)))
    ints = np.array([[1, -2, 3], [2**24, 0, -(2**24)]])
    np.testing.assert_array_equal(row_keys(ints), row_keys(ints.astype(np.float64)))
    np.testing.assert_array_equal(row_keys(ints), row_keys(ints.astype(np.float32)))
    # -0.0 is 0.0 and every NaN one NaN; values beyond float32's range are inf.
    nan = np.float64("nan")
    negative_nan = np.copysign(nan, -1.0)
    assert row_keys([[-0.0, nan]])[0] == row_keys([[0.0, negative_nan]])[0]
    assert row_keys([[1e300, -1e300]])[0] == row_keys([[np.inf, -np.inf]])[0]
    # Distinct float32 rows stay distinct (no collision among 10**5 rows).
    rows = np.random.default_rng(0).normal(size=(100_000, 3)).astype(np.float32)
    assert np.unique(row_keys(rows)).size == np.unique(rows, axis=0).shape[0]
    # Same keys, same streams.
    k32, k64 = row_keys(X.astype(np.float32)), row_keys(X)
    np.testing.assert_array_equal(RowStreams(3, k32).normal(5), RowStreams(3, k64).normal(5))
    g32, g64 = row_generators(3, k32), row_generators(3, k64)
    assert all(np.array_equal(a.random(4), b.random(4)) for a, b in zip(g32, g64))


def _splitmix64_finaliser(z):
    """Vigna's SplitMix64 output function, written out from its definition."""
    mask = (1 << 64) - 1
    z &= mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def _row_key_by_hand(row):
    """The documented row key, one value at a time in plain Python: each
    value rounded to the nearest float32 (``struct``'s ``"f"`` format rounds
    to nearest; overflow read as inf), its 32-bit IEEE-754 pattern (-0.0,
    also a negative value that rounds to it, read as 0.0, NaN as the quiet NaN 0x7FC00000) XOR its column's salt,
    finalised, summed modulo 2**64; the sum XOR a finalised salt of the
    width, finalised again, shifted to 63 bits."""
    import math
    import struct

    mask, gamma, key_salt = (1 << 64) - 1, 0x9E3779B97F4A7C15, 0x6A09E667F3BCC909
    total = 0
    for j, value in enumerate(row):
        value = float(value) + 0.0
        if math.isnan(value):
            bits = 0x7FC00000
        else:
            try:
                bits = struct.unpack("<I", struct.pack("<f", value))[0]
            except OverflowError:  # beyond float32's range
                bits = struct.unpack("<I", struct.pack("<f", math.copysign(
                    math.inf, value)))[0]
            if bits == 0x80000000:  # -0.0, also from a negative underflow
                bits = 0
        salt = _splitmix64_finaliser(key_salt + (j + 1) * gamma)
        total = (total + _splitmix64_finaliser(bits ^ salt)) & mask
    total ^= _splitmix64_finaliser(key_salt ^ len(row))
    return _splitmix64_finaliser(total) >> 1


def test_row_keys_equal_the_documented_hash_computed_by_hand():
    rng = np.random.RandomState(0)
    X = np.vstack([rng.randn(20, 5), [[-0.0, 0.0, 1e300, -1e-300, 3.0]],
                   [[np.nan, -np.inf, 1e-45, 0.1, 2.0**24 + 1]]])
    assert row_keys(X).tolist() == [_row_key_by_hand(row) for row in X]

