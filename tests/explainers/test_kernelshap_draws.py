"""KernelSHAP's sampled coalitions and values, rebuilt from the row streams.

The coalitions of a row are worked out here from the documented recipe (a
size ``t`` from the kernel mass of the sizes, then a uniformly random
``t``-subset: the ``floor(u C(d, t))``-th in colexicographic order up to 46
features, the first ``t`` items of the row's partial shuffle above), drawn
from the row's own :class:`~sklearn_xai.utils.RowStreams` in plain Python,
and the Shapley values from a direct weighted least squares over them.
"""

import math

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import KernelSHAP
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.utils import RowStreams


def _f(X):
    X = np.asarray(X, dtype=np.float64)
    return np.tanh(X).sum(axis=1) + X[:, 0] * X[:, 1] + np.sin(X[:, 2] * X[:, 3])


class _Recorder(RegressorMixin, BaseEstimator):
    """``_f``, keeping every model input it is given."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        self.inputs_ = []
        return self

    def predict(self, X):
        self.inputs_.append(np.array(X, dtype=np.float64))
        return _f(X)


def _colex_subset(r, t):
    """The ``r``-th ``t``-subset of the non-negative integers in
    colexicographic order (combinatorial number system), as a bit code."""
    code = 0
    for i in range(t, 0, -1):
        c = i - 1
        while math.comb(c + 1, i) <= r:
            c += 1
        code |= 1 << c
        r -= math.comb(c, i)
    return code


def _expected_coalitions(streams, d, m, seed_draws):
    """The paired coalitions of each row: ``m`` of them after the empty and
    full ones, with each coalition's draw count (budget with no enumerated
    size: every size 1 .. d // 2 is sampled)."""
    sizes = np.arange(1, d // 2 + 1)
    probs = np.where(2 * sizes == d, 1.0, 2.0) / (sizes * (d - sizes))
    cdf = np.cumsum(probs) / probs.sum()
    n_units = -(-m // 2)
    u = streams.uniform((seed_draws, 2), stream=0)
    perm = (streams.permutations(d, seed_draws, n_chosen=int(sizes.max()), stream=1)
            if d > 46 else None)
    full = (1 << d) - 1
    rows = []
    for i in range(len(streams)):
        units, counts = {}, {}
        for j in range(seed_draws):
            t = int(sizes[min(np.searchsorted(cdf, u[i, j, 0], side="right"),
                              len(sizes) - 1)])
            if perm is None:
                r = min(int(u[i, j, 1] * math.comb(d, t)), math.comb(d, t) - 1)
                code = _colex_subset(r, t)
            else:
                code = sum(1 << int(k) for k in perm[i, j, :t])
            canon = min(code, full ^ code)
            if canon in units:
                counts[canon] += 1
            else:
                units[canon] = code
                counts[canon] = 1
                if len(units) == n_units:
                    break
        assert len(units) == n_units  # the draws suffice for these settings
        keep, weight = [], []
        for canon, code in units.items():
            for c in (code, full ^ code):
                keep.append([(c >> k) & 1 for k in range(d)])
                weight.append(counts[canon])
        rows.append((np.array(keep[:m], dtype=bool), np.array(weight[:m], float)))
    return rows


def _constrained_wls(Z, w, y, delta):
    """argmin sum w (y - Z phi)^2 subject to sum(phi) = delta (lstsq of the
    system with the last coefficient eliminated)."""
    sw = np.sqrt(w)[:, None]
    A = (Z[:, :-1] - Z[:, -1:]) * sw
    b = (y - Z[:, -1] * delta) * sw[:, 0]
    rest = np.linalg.lstsq(A, b, rcond=None)[0]
    return np.append(rest, delta - rest.sum())


@pytest.mark.parametrize("d, m", [(20, 61), (30, 91), (50, 151)])
def test_coalitions_and_values_follow_the_row_streams(d, m):
    # No size is enumerated at these budgets (3 d + 1): at d = 20, 61 x the
    # kernel mass share of the sizes (1, 19), about 0.30, is below their 40
    # coalitions, so every size is sampled; likewise at d = 30 and 50.
    X = np.random.default_rng(3).uniform(1.0, 2.0, size=(3, d))  # no zero entry
    rec = _Recorder().fit(X)
    ex = KernelSHAP(FrozenEstimator(rec), n_perturbations=m,
                    masker=BaselineMasker("zero"), random_state=7).fit(X)
    keys = np.array([11, 12, 13])
    A = ex.explain(X, row_keys=keys)
    inputs = np.concatenate(rec.inputs_).reshape(len(X), m + 2, d)
    expected = _expected_coalitions(RowStreams(7, keys), d, m, 4 * m)
    for i, (keep, w) in enumerate(expected):
        got = inputs[i] != 0
        assert not got[0].any() and got[1].all()
        np.testing.assert_array_equal(got[2:], keep)
        v_empty, v_full = _f(np.zeros((1, d)))[0], _f(X[i:i + 1])[0]
        y = _f(X[i] * keep) - v_empty
        phi = _constrained_wls(keep.astype(float), w, y, v_full - v_empty)
        np.testing.assert_allclose(A[i], phi, rtol=1e-8, atol=1e-10)


def test_blocks_hold_whole_model_calls():
    """With room for 4 rows a block but 3 rows a model call, blocks of 3
    rows: every call but the last is full (blocks of 4 made calls of 3 and
    1 row), and the values do not change."""
    from sklearn_xai import config_context
    from sklearn_xai.explainers._shapley import _kernel_plan, _row_bytes

    d, m, n = 12, 200, 10
    X = np.random.default_rng(5).uniform(1.0, 2.0, size=(n, d))
    enumerated, _ = _kernel_plan(d, m)
    row_bytes = _row_bytes(d, len(enumerated), m - len(enumerated), True)
    rec = _Recorder().fit(X)
    ex = KernelSHAP(FrozenEstimator(rec), n_perturbations=m, batch_size=3 * (m + 2),
                    masker=BaselineMasker("zero"), random_state=0).fit(X)
    with config_context(max_allocation_bytes=int(4.5 * row_bytes)):
        A = ex.transform(X)
    assert [len(Z) for Z in rec.inputs_] == [3 * (m + 2)] * 3 + [m + 2]
    rec.inputs_ = []
    B = ex.transform(X)  # blocks of 8 MiB: 9 rows, three calls of 3
    assert [len(Z) for Z in rec.inputs_] == [3 * (m + 2)] * 3 + [m + 2]
    np.testing.assert_allclose(A, B, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("d, m", [(12, 37), (50, 151)])
def test_rows_short_of_first_draws_are_drawn_again(d, m, monkeypatch):
    """With no reserve (a negative margin) most rows fall short of distinct
    units after the first draws and are drawn again: the coalitions and
    values still follow the recipe (draws are prefixes of one stream)."""
    from sklearn_xai.explainers import _shapley

    monkeypatch.setattr(_shapley, "_MARGIN", -6.0)
    X = np.random.default_rng(4).uniform(1.0, 2.0, size=(4, d))
    rec = _Recorder().fit(X)
    ex = KernelSHAP(FrozenEstimator(rec), n_perturbations=m,
                    masker=BaselineMasker("zero"), random_state=3).fit(X)
    keys = np.arange(4)
    ex.explain(X, row_keys=keys)
    inputs = np.concatenate(rec.inputs_).reshape(len(X), m + 2, d)
    for i, (keep, _) in enumerate(_expected_coalitions(RowStreams(3, keys), d, m,
                                                       4 * m)):
        np.testing.assert_array_equal(inputs[i, 2:] != 0, keep)


@pytest.mark.parametrize("d, paired", [(10, True), (20, True), (20, False), (50, True)])
def test_first_draw_count_fits_the_repeats(d, paired):
    """The first draws are about the distinct units needed plus their
    expected repeats: few rows (counted by a direct simulation of the
    draws) fall short, with far fewer draws than shap's 4 per unit."""
    from sklearn_xai.explainers._shapley import (
        _first_draw_count,
        _kernel_plan,
        _sample_units,
    )

    m = 512
    enumerated, sizes = _kernel_plan(d, m)
    n_sampled = m - len(enumerated)
    n_units = -(-n_sampled // 2) if paired else n_sampled
    probs = np.where(2 * sizes == d, 1.0, 2.0) / (sizes * (d - sizes))
    k = _first_draw_count(d, n_units, sizes, probs, paired, 4 * n_units + 8)
    _, _, short = _sample_units(RowStreams(0, np.arange(300)), d, n_units, sizes,
                                probs, paired, k)
    assert short.mean() <= 0.02
    # Repeats are rare at d >= 20: a few draws more than the units.
    assert k <= (1.1 * n_units if d >= 20 else 2 * n_units)


@pytest.mark.parametrize("d", [47, 62])
def test_shuffle_codes_are_the_first_items_of_the_row_permutations(d):
    """Each draw's shuffle stopped after its own ``t`` swaps gives the first
    ``t`` items of the row's full partial permutation (RowStreams)."""
    from sklearn_xai.explainers._shapley import _shuffle_codes

    streams, tmax, n_draws = RowStreams(5, np.arange(6)), d // 2, 40
    t = np.random.default_rng(d).integers(1, tmax + 1, size=(6, n_draws))
    perm = streams.permutations(d, n_draws, n_chosen=tmax, stream=1)
    expected = [[sum(1 << int(v) for v in perm[i, j, :t[i, j]])
                 for j in range(n_draws)] for i in range(6)]
    np.testing.assert_array_equal(_shuffle_codes(streams, d, n_draws, t, tmax),
                                  np.array(expected, dtype=np.int64))


def test_kernel_plan_of_thousands_of_features_does_not_warn():
    # C(3072, t) overflows float64: the plan samples every size, silently.
    import warnings

    from sklearn_xai.explainers._shapley import _kernel_plan

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enumerated, sampled = _kernel_plan(3072, 200)
    assert len(enumerated) == 0 and len(sampled) == 3072 // 2
