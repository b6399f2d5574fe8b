"""The per-row streams' torch backend: the same draws on every device."""

import numpy as np
import pytest
import torch

from sklearn_xai.utils import RowStreams
from sklearn_xai.utils._random import _GAMMA, _MASK64, _mix_int

KEYS = np.array([-3, 0, 1, 7, 2**40, 123456789])


def _python_words(seed_streams, n_words, stream):
    """SplitMix64 words computed with Python ints (no numpy, no torch)."""
    bases = [int(b) for b in seed_streams._bases(stream)]
    return np.array([[_mix_int(b + (j + 1) * _GAMMA) for j in range(n_words)]
                     for b in bases], dtype=np.uint64)


@pytest.mark.parametrize("stream", [0, 3, 2**40])
def test_words_equal_python_ints_and_numpy(stream):
    s = RowStreams(11, KEYS)
    t = s.bits(9, stream=stream, device="cpu")
    assert t.dtype == torch.int64 and t.shape == (len(KEYS), 9)
    words = t.numpy().view(np.uint64)
    assert np.array_equal(words, _python_words(s, 9, stream))
    assert np.array_equal(words, s.bits(9, stream=stream))


def test_uniform_and_integers_bit_for_bit():
    s = RowStreams(5, KEYS)
    u = s.uniform((4, 3), stream=2, device="cpu")
    assert u.dtype == torch.float64 and u.shape == (len(KEYS), 4, 3)
    assert np.array_equal(u.numpy(), s.uniform((4, 3), stream=2))
    # Independently: the top 52 bits of each word over 2**52.
    words = _python_words(s, 12, 2).reshape(len(KEYS), 4, 3)
    assert np.array_equal(u.numpy(), (words >> np.uint64(12)).astype(np.float64) / 2.0**52)
    high = np.array([1, 2, 10, 2**52])
    k = s.integers(high, (5, 4), stream=1, device="cpu")
    assert k.dtype == torch.int64
    assert np.array_equal(k.numpy(), s.integers(high, (5, 4), stream=1))
    assert k.numpy().min() >= 0 and np.all(k.numpy() < high)


@pytest.mark.parametrize("dtype, max_ulp", [(np.float64, 4), (np.float32, 8),
                                            (torch.float32, 8)])
def test_box_muller_normals_to_the_last_bits(dtype, max_ulp):
    s = RowStreams(0, np.arange(40))
    host = s.normal((25, 7), stream=1, dtype=dtype, method="box_muller")
    dev = s.normal((25, 7), stream=1, dtype=dtype, method="box_muller", device="cpu")
    assert dev.shape == host.shape and dev.dtype == {np.float64: torch.float64}.get(
        dtype, torch.float32)
    dev = dev.numpy()
    ulp = np.abs(dev - host) / np.spacing(np.abs(host))
    assert ulp.max() <= max_ulp
    # Independently of both: Box-Muller of the words' halves in float64.
    words = _python_words(s, 88, 1)  # 175 draws -> 88 words per row
    hi = (words >> np.uint64(32)).astype(np.float64)
    lo = (words & np.uint64(0xFFFFFFFF)).astype(np.float64)
    r = np.sqrt(-2.0 * np.log((hi + 0.5) * 2.0**-32))
    z = np.concatenate([r * np.cos(2 * np.pi * lo * 2.0**-32),
                        r * np.sin(2 * np.pi * lo * 2.0**-32)], axis=1)[:, :175]
    tol = 1e-12 if dev.dtype == np.float64 else 2e-5
    np.testing.assert_allclose(dev.reshape(40, 175), z, rtol=tol, atol=tol)


def test_row_independence_on_the_device(monkeypatch):
    s = RowStreams(9, np.arange(100, 160))
    full = s.normal(300, stream=4, method="box_muller", device="cpu")
    order = np.random.default_rng(0).permutation(60)
    assert torch.equal(s[order].normal(300, stream=4, method="box_muller",
                                       device="cpu"), full[order])
    assert torch.equal(s[7:8].normal(300, stream=4, method="box_muller",
                                     device="cpu"), full[7:8])
    # A row's draws do not depend on the block size (one row per block here).
    u = s.uniform(5000, device="cpu")
    monkeypatch.setattr("sklearn_xai.utils._output.BLOCK_ENTRIES", 5000)
    from sklearn_xai.utils._device import block_entries

    assert block_entries("cpu") == 5000
    assert torch.equal(s.uniform(5000, device="cpu"), u)


def test_draws_are_computed_on_the_given_device():
    s = RowStreams(1, np.arange(4))
    for draw in (s.bits(3, device="meta"), s.uniform(3, device="meta"),
                 s.integers(5, 3, device="meta"),
                 s.normal(3, method="box_muller", device="meta")):
        assert draw.device.type == "meta" and draw.shape == (4, 3)


def test_device_normals_need_box_muller():
    with pytest.raises(ValueError, match='method="box_muller"'):
        RowStreams(0, [1]).normal(3, device="cpu")
    with pytest.raises(ValueError, match="dtype must be float64 or float32"):
        RowStreams(0, [1]).normal(3, method="box_muller", dtype=torch.float16,
                                  device="cpu")


def test_empty_rows_and_draws():
    s = RowStreams(0, np.arange(3))
    assert s.uniform(0, device="cpu").shape == (3, 0)
    assert RowStreams(0, []).normal(4, method="box_muller", device="cpu").shape == (0, 4)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_cuda_draws_equal_the_cpu_draws():
    s = RowStreams(2, np.arange(500))
    for kind in ("bits", "uniform"):
        cpu = getattr(s, kind)((13, 17), stream=3)
        cuda = getattr(s, kind)((13, 17), stream=3, device="cuda").cpu().numpy()
        assert np.array_equal(cuda, cpu.view(np.int64) if kind == "bits" else cpu)
    for dtype, max_ulp in [(np.float64, 4), (np.float32, 8)]:
        host = s.normal(999, dtype=dtype, method="box_muller")
        cuda = s.normal(999, dtype=dtype, method="box_muller", device="cuda").cpu().numpy()
        assert (np.abs(cuda - host) / np.spacing(np.abs(host))).max() <= max_ulp
