"""Shapley-value explainers: exact enumeration, KernelSHAP and permutation sampling.

All three estimate the Shapley values of the value function ``v_x(S)`` given
by a masker (see :ref:`def-shapley` in the user guide)::

    phi_j(x) = sum_{S not containing j} |S|! (d-|S|-1)! / d! * (v_x(S+j) - v_x(S))

* :class:`ExactShapley` enumerates all ``2^d`` coalitions;
* :class:`KernelSHAP` enumerates the coalition sizes of large kernel weight
  and samples the rest from the Shapley kernel in complementary pairs (as
  shap's ``KernelExplainer``), then solves the constrained weighted least
  squares of Lundberg & Lee (2017);
* :class:`ShapleyValueSampling` averages marginal contributions along random
  feature orderings (Castro et al., 2009), antithetic pairs by default.

Every coalition of a block of rows is scored through one
:meth:`~sklearn_xai.masking.BaseMasker.evaluate` call, in model calls of at
most ``batch_size`` model rows (``None``: about 2**17 input entries).
"""

import functools
import itertools
import numbers

import numpy as np
from scipy.special import comb

from sklearn_xai.explainers._docstring import explainer_doc
from sklearn_xai.explainers._masker_based import (
    GROUPS_ATTRIBUTE_DOC,
    GROUPS_DOC,
    _MaskerExplainer,
)
from sklearn_xai.explainers._segmented import (
    SEGMENTATION_DOC,
    explain_segments,
    explains_segments,
)
from sklearn_xai.masking import BaseSegmentation, MarginalMasker
from sklearn_xai.utils._config import check_allocation, get_config
from sklearn_xai.utils._device import block_entries
from sklearn_xai.utils._output import BLOCK_ENTRIES, affine_once, block_slices
from sklearn_xai.utils._random import swap_offsets
from sklearn_xai.utils._shapley import (
    all_coalitions,
    shapley_from_values,
    shapley_kernel,
)
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["ExactShapley", "KernelSHAP", "ShapleyValueSampling"]


# --------------------------------------------------------------------------
# Pure helpers (coalition enumeration, the exact combination and the Shapley
# kernel live in sklearn_xai.utils._shapley, shared with the generators)
# --------------------------------------------------------------------------
def _constrained_wls(Z, weights, y, delta):
    """Weighted least squares ``y ~ Z @ phi`` subject to ``sum(phi) = delta``.

    The intercept is fixed at ``v(empty)`` (``y`` is ``v(S) - v(empty)``) and
    the efficiency constraint ``sum(phi) = v(full) - v(empty)`` is enforced
    exactly by eliminating the last coefficient; the rest is solved with a
    (batched) pseudo-inverse, the minimum-norm solution when the sampled
    coalitions do not determine every coefficient.

    Parameters
    ----------
    Z : ndarray of shape (n, m, d)
    weights : ndarray of shape (n, m) or (m,)
    y : ndarray of shape (n, m)
    delta : ndarray of shape (n,)

    Returns
    -------
    phi : ndarray of shape (n, d)
    """
    Z = np.asarray(Z, dtype=np.float64)
    n, m, d = Z.shape
    if d == 1:
        return np.asarray(delta, dtype=np.float64)[:, None].copy()
    sw = np.sqrt(np.broadcast_to(weights, (n, m)))[..., None]
    A = (Z[..., :-1] - Z[..., -1:]) * sw
    b = (y - Z[..., -1] * delta[:, None])[..., None] * sw
    rest = (np.linalg.pinv(A) @ b)[..., 0]
    return np.concatenate([rest, (delta - rest.sum(axis=1))[:, None]], axis=1)


def _solve_normal_equations(M, c, delta, full_rank=False):
    """The constrained weighted least squares from its normal equations.

    ``M = Z' W Z`` (n, d, d) or (d, d) and ``c = Z' W y`` (n, d) are the
    moments of the unconstrained regression ``y ~ Z phi`` (``y = v(S) -
    v(empty)``); the constraint ``sum(phi) = delta`` eliminates the last
    coefficient (``phi_d = delta - sum_{j<d} phi_j``), which turns the
    design into ``A = Z P`` with ``P = [I; -1']`` and the response into
    ``y - z_d delta``.  The reduced system ``P'MP x = P'(c - M_{:,d} delta)``
    is solved with a Hermitian pseudo-inverse: the minimum-norm solution
    when the coalitions do not determine every coefficient, as
    :func:`_constrained_wls`, at ``O(n d^3)`` instead of ``O(n m d^2)``;
    ``full_rank=True`` (the coalitions include every singleton, so the
    system is positive definite) solves it directly.
    """
    M = np.broadcast_to(M, (len(c),) + M.shape[-2:])
    q = c - M[:, :, -1] * delta[:, None]
    r = q[:, :-1] - q[:, -1:]
    G = (M[:, :-1, :-1] - M[:, :-1, -1:] - M[:, -1:, :-1]
         + M[:, -1:, -1:])
    if full_rank:
        rest = np.linalg.solve(G, r[..., None])[..., 0]
    else:
        scale = np.abs(np.diagonal(G, axis1=1, axis2=2)).max(axis=1)
        scale[scale == 0] = 1.0
        # Scale each row's system to unit diagonal maximum: the rank cut-off
        # of the pseudo-inverse is then relative to the row's own moments.
        rest = (np.linalg.pinv(G / scale[:, None, None], 1e-10, hermitian=True)
                @ (r / scale[:, None])[..., None])[..., 0]
    return np.concatenate([rest, (delta - rest.sum(axis=1))[:, None]], axis=1)


def _add_unit_moments(M, c, units, counts, y, paired, mass):
    """Add the sampled coalitions to the moments ``M = Z'WZ`` and ``c = Z'Wy``.

    Unit ``k`` of a row is coalition ``z_k`` (value ``y[2k]`` when paired,
    else ``y[k]``) and, when paired, its complement ``1 - z_k`` (value
    ``y[2k + 1]``, absent for the last unit of an odd count), each weighted
    ``mass * count_k / total count``.  With ``w1``, ``w2`` the weights of
    the coalitions and complements, ``(1 - z)(1 - z)' = 11' - z1' - 1z' +
    zz'`` gives ``M = U' diag(w1 + w2) U - a1' - 1a' + sum(w2) 11'`` with
    ``a = U'w2``, and ``c = U'(w1 y1 - w2 y2) + sum(w2 y2) 1``: one pass
    over the units instead of two over the coalitions.
    """
    n, n_units, d = units.shape
    U = units.astype(np.float64)
    if paired:
        y1 = y[:, 0::2]
        y2 = np.zeros_like(y1)
        y2[:, : y.shape[1] // 2] = y[:, 1::2]
        w2 = counts.copy()
        w2[:, y.shape[1] // 2:] = 0.0  # the dropped last complement
        scale = mass / (counts.sum(axis=1) + w2.sum(axis=1))
        w1, w2 = counts * scale[:, None], w2 * scale[:, None]
        a = np.matmul(w2[:, None, :], U)[:, 0]
        M = M + np.matmul((U * (w1 + w2)[..., None]).transpose(0, 2, 1), U)
        M -= a[:, :, None] + a[:, None, :]
        M += w2.sum(axis=1)[:, None, None]
        wy2 = w2 * y2
        c = c + np.matmul((w1 * y1 - wy2)[:, None, :], U)[:, 0]
        c += wy2.sum(axis=1)[:, None]
        return M, c
    w = counts * (mass / counts.sum(axis=1, keepdims=True))
    UW = U * w[..., None]
    return M + np.matmul(UW.transpose(0, 2, 1), U), c + np.matmul(y[:, None, :], UW)[:, 0]


# Bytes of the arrays of one block of KernelSHAP rows (coalitions, their
# model inputs, draws, moments): 8 MiB, a few model calls of BLOCK_ENTRIES
# float64 entries each, whatever the number of rows.
_BLOCK_BYTES = 64 * BLOCK_ENTRIES


def _row_bytes(d, n_enumerated, n_sampled, paired, sizes=None):
    """Bytes one explained row occupies in a KernelSHAP block (an upper
    estimate): its ``n_enumerated + n_sampled + 2`` coalitions (bool) and
    their model inputs (float64: the masker's closed-form expected rows or
    imputed copies), and for the sampled coalitions their units with a
    float64 copy for the moments and the temporaries of their draws (at
    most 4 per unit, plus 8, or with the sampled ``sizes`` the first draws
    of :func:`_draw_counts`, the rows drawn again taken in as many rows'
    worth of draws; a partial shuffle per draw above 46 features)."""
    n_units = -(-n_sampled // 2) if paired else n_sampled
    per_draw = 160 + (10 * d if d > 46 else 0)
    draws = 4 * n_units + 8 if n_units else 0
    if n_units and sizes is not None:
        draws = _draw_counts(d, n_units, tuple(int(t) for t in sizes), paired)[0]
    return ((n_enumerated + n_sampled + 2) * (9 * d + 16)
            + n_units * (9 * d + 8) + draws * per_draw)


def _bit_masks(codes, d):
    """Boolean coalitions (..., d) of non-negative int64 codes (bit ``j``:
    feature ``j``)."""
    n_bytes = -(-d // 8)
    little = np.ascontiguousarray(codes, dtype="<i8").view(np.uint8)
    little = little.reshape(codes.shape + (8,))[..., :n_bytes]
    bits = np.unpackbits(little, axis=-1, count=d, bitorder="little")
    return bits.view(bool)


def _kernel_plan(d, m):
    """Which coalition sizes KernelSHAP enumerates for a budget of ``m``.

    Sizes are taken in pairs ``(s, d - s)``, largest kernel mass first
    (``s = 1, 2, ...``).  A pair is enumerated when the budget left, spread
    over the remaining pairs in proportion to their kernel mass, gives every
    coalition of the pair at least one evaluation (shap's
    ``KernelExplainer`` rule [Lundberg & Lee 2017]); the first pair that
    fails and all later ones are sampled.

    Returns
    -------
    enumerated : ndarray of shape (n_enumerated, d), bool
        Every coalition of the enumerated sizes.
    sampled : ndarray of int
        The smaller size ``t <= d / 2`` of each sampled pair of sizes.
    """
    lower = np.arange(1, d // 2 + 1)  # t and d - t
    # C(d, t) exceeds the float range from d of about 1030 on: inf is the
    # right count there (more coalitions than any budget), not a warning.
    with np.errstate(over="ignore"):
        n_coal = comb(d, lower, exact=False) * np.where(2 * lower == d, 1, 2)
    mass = np.where(2 * lower == d, 1.0, 2.0) / (lower * (d - lower))
    remaining = mass / mass.sum()
    left = m
    n_full = 0
    for i in range(len(lower)):
        if left * remaining[i] / n_coal[i] < 1.0 - 1e-8:
            break
        n_full += 1
        left -= int(round(n_coal[i]))
        if remaining[i] < 1.0:
            remaining = remaining / (1.0 - remaining[i])
    members = [c for t in lower[:n_full]
               for c in itertools.combinations(range(d), int(t))]
    enumerated = np.zeros((len(members), d), dtype=bool)
    for i, c in enumerate(members):
        enumerated[i, list(c)] = True
    # The complements: sizes d - t (t = d/2 is already complete).
    other = enumerated[enumerated.sum(axis=1) * 2 != d]
    return np.concatenate([enumerated, ~other]), lower[n_full:]


def _sample_units(streams, d, n_units, sizes, probs, paired, n_draws):
    """Distinct sampled coalitions per row, with their draw counts.

    ``n_draws`` units (a coalition and, if ``paired``, its complement) are
    drawn per row from the row's stream: the smaller side's size ``t`` from
    ``probs`` over ``sizes``, then a uniformly random ``t``-subset (unpaired:
    replaced by its complement with probability 1/2 when ``t < d - t``).  As
    in shap's ``KernelExplainer``, a unit drawn again uses no budget: it adds
    one to the count of its first draw, and draws stop counting once
    ``n_units`` distinct units are drawn.  A row with fewer distinct units in
    ``n_draws`` draws is padded with zero-count units and flagged as
    ``short``.  Draw ``j`` of a row does not depend on ``n_draws``, so a
    row that is not short gets the same result from any larger ``n_draws``.
    With more than 62 features units are not compared (every draw counts as
    new).

    Returns
    -------
    Z : ndarray of shape (n, n_units, d), bool
        The drawn coalitions (a pair's first member).
    counts : ndarray of shape (n, n_units), float64
    short : ndarray of shape (n,), bool
    """
    n = len(streams)
    u = streams.uniform((n_draws, 2), stream=0)
    cdf = np.cumsum(probs) / np.sum(probs)
    t = sizes[np.searchsorted(cdf, u[..., 0], side="right").clip(max=len(sizes) - 1)]
    flip = None if paired else (
        (streams.uniform(n_draws, stream=2) < 0.5) & (2 * t != d))
    if d <= _MAX_UNRANK:
        codes = (_subsets_by_rank(u[..., 1], t, d) if d <= _MAX_TABLE
                 else _unrank_subsets(u[..., 1], t, d))
    elif d <= 62:
        # A partial Fisher-Yates shuffle per draw, its first t items as a code.
        codes = _shuffle_codes(streams, d, n_draws, t, int(sizes.max()))
    if d <= 62:
        full = (1 << d) - 1
        if flip is not None:
            codes = np.where(flip, full ^ codes, codes)
        canon = np.minimum(codes, full ^ codes) if paired else codes
        idx, counts, short = _first_draws(canon, n_units)
        return _bit_masks(np.take_along_axis(codes, idx, axis=1), d), counts, short
    # Many features: a partial Fisher-Yates shuffle per draw, every draw new.
    tmax = int(sizes.max())
    perm = streams.permutations(d, n_draws, n_chosen=tmax, stream=1)
    perm = perm[:, :n_units]
    inside = np.arange(tmax) < t[:, :n_units, None]  # (n, n_units, tmax)
    Z = np.zeros((n, n_units, d), dtype=bool)
    np.put_along_axis(Z, perm, inside, axis=2)
    if flip is not None:
        Z ^= flip[:, :n_units, None]
    return Z, np.ones((n, n_units)), np.zeros(n, dtype=bool)


def _shuffle_codes(streams, d, n_draws, t, tmax):
    """Bit codes (n, n_draws) of the first ``t`` items of each draw's
    partial shuffle ``streams.permutations(d, n_draws, n_chosen=tmax,
    stream=1)``, the shuffle stopped after ``t`` swaps for each draw.

    Swap ``j`` fixes position ``j``, so the first ``t`` items need only the
    first ``t`` swaps: the draws are sorted by ``t`` (largest first) and
    swap ``j`` runs over the prefix of the draws with ``t > j``, item-major
    as in :meth:`~sklearn_xai.utils.RowStreams.permutations` (most draws
    are small subsets: the work is ``sum(t)`` swaps, not ``n_draws tmax``).
    """
    k = swap_offsets(streams, d, n_draws, min(tmax, d - 1), 1)
    t = t.reshape(-1)
    n_perm = len(t)
    order = np.argsort(-t, kind="stable")
    k = k[:, order]
    active = n_perm - np.searchsorted(t[order][::-1], np.arange(tmax), side="right")
    perm = np.empty((d, n_perm), dtype=np.int8)  # d <= 62: 8x less to write
    perm[...] = np.arange(d, dtype=np.int8)[:, None]
    flat = perm.reshape(-1)
    cols = np.arange(n_perm)
    codes = np.zeros(n_perm, dtype=np.int64)
    for j in range(tmax):
        c = active[j]
        if c == 0:
            break
        other = (k[j, :c] + j) * n_perm + cols[:c]
        held = perm[j, :c].copy()
        picked = flat[other]
        perm[j, :c] = picked
        flat[other] = held
        codes[:c] |= np.left_shift(np.int64(1), picked, dtype=np.int64)
    out = np.empty(n_perm, dtype=np.int64)
    out[order] = codes
    return out.reshape(len(streams), n_draws)


# Largest d whose t-subsets are drawn by unranking one uniform: C(d, t) < 2**44
# keeps every subset's probability exact to within 2**-8 relative (52-bit
# uniforms).
_MAX_UNRANK = 46


_MAX_TABLE = 20  # up to 2**20 codes (8 MiB) in _codes_by_size


@functools.lru_cache(maxsize=4)
def _codes_by_size(d):
    """The bit codes of all subsets of ``range(d)`` sorted by size (stable:
    colexicographic within a size), and where each size starts."""
    codes = np.arange(1 << d, dtype=np.int64)
    sizes = sum((codes >> j) & 1 for j in range(d))
    order = np.argsort(sizes, kind="stable")
    starts = np.searchsorted(sizes[order], np.arange(d + 2))
    out = codes[order]
    out.flags.writeable = False
    return out, starts


def _subsets_by_rank(u, t, d):
    """Uniformly random ``t``-subsets of ``range(d)`` as bit codes: the
    ``floor(u C(d, t))``-th ``t``-subset in the colexicographic order, read
    from a table of all subsets (one gather), as :func:`_unrank_subsets`."""
    codes, starts = _codes_by_size(d)
    n_t = starts[t + 1] - starts[t]
    r = np.minimum((u * n_t).astype(np.int64), n_t - 1)
    r += starts[t]
    return codes[r]


def _unrank_subsets(u, t, d):
    """Uniformly random ``t``-subsets of ``range(d)`` as bit codes.

    ``r = floor(u C(d, t))`` is decoded in the combinatorial number system
    (``r = sum_i C(c_i, i)`` over the members ``c_t > ... > c_1``), one
    vectorised pass per feature.
    """
    table = comb(np.arange(d + 1)[:, None], np.arange(int(t.max()) + 1)[None, :],
                 exact=False)
    table = np.rint(table).astype(np.int64)
    r = np.minimum((u * table[d][t]).astype(np.int64), table[d][t] - 1)
    k = t.astype(np.int64).copy()
    codes = np.zeros(u.shape, dtype=np.int64)
    for j in range(d - 1, -1, -1):
        c = table[j][k]
        take = c <= r
        take &= k > 0
        np.subtract(r, c, out=r, where=take)
        k -= take
        codes |= take.astype(np.int64) << j
    return codes


# Standard deviations of the repeats kept in reserve by _first_draw_count:
# at most about 0.5 % of the rows fall short (d = 10 to 50, 64 to 2088
# coalitions) and are drawn again.
_MARGIN = 2.5


def _first_draw_count(d, n_units, sizes, probs, paired, n_draws):
    """Draws per row after which a row has ``n_units`` distinct units with
    high probability: the smallest count ``k`` whose expected number of
    distinct units, less ``_MARGIN`` standard deviations of the repeats
    (taken as Poisson) and 2, reaches ``n_units`` (at most ``n_draws``).

    A draw of size ``t`` (probability ``p_t``) is uniform over the ``N_t``
    units of that size (paired: ``C(d, t)`` coalitions of the smaller side,
    half of them when ``2t = d``; unpaired: the ``2 C(d, t)`` coalitions of
    sizes ``t`` and ``d - t``), so ``k`` draws hold ``sum_t N_t (1 - (1 -
    p_t / N_t)^k)`` distinct units on average.  Only the speed depends on
    it: a row that falls short is drawn again with ``n_draws``.
    """
    p = probs / probs.sum()
    half = 2 * sizes == d
    N = comb(d, sizes, exact=False)
    N = np.where(half, N / 2, N) if paired else np.where(half, N, 2 * N)
    k = np.arange(n_units, n_draws + 1, dtype=np.float64)
    # log1p keeps (1 - p/N)^k accurate when N is huge (no repeats).
    distinct = (N * -np.expm1(k[:, None] * np.log1p(-p / N))).sum(axis=1)
    repeats = np.maximum(k - distinct, 0.0)
    enough = distinct - _MARGIN * np.sqrt(repeats) - 2.0 >= n_units
    return int(k[np.argmax(enough)]) if enough.any() else n_draws


def _draw_counts(d, n_units, sizes, paired):
    """``(first_draws, n_draws)`` of :meth:`KernelSHAP._sample`: the draws
    per row taken first (:func:`_first_draw_count`) and shap's limit, 4 per
    unit plus 8 (every draw counts as new above 62 features); ``sizes`` is
    a tuple of the sampled sizes."""
    if d > 62:
        return n_units, n_units
    return _cached_draw_counts(d, n_units, sizes, paired, _MARGIN)


@functools.lru_cache(maxsize=16)
def _cached_draw_counts(d, n_units, sizes, paired, margin):
    # margin (_MARGIN) is part of the key: a changed margin is recomputed.
    sizes = np.asarray(sizes)
    n_draws = 4 * n_units + 8
    return _first_draw_count(d, n_units, sizes, _size_mass(sizes, d), paired,
                             n_draws), n_draws


def _size_mass(sizes, d):
    """Kernel mass of the sampled unit sizes ``t`` (the sizes ``t`` and
    ``d - t`` together; a paired unit holds two coalitions of that mass
    whatever ``t``, an unpaired one a single coalition)."""
    return np.where(2 * sizes == d, 1.0, 2.0) / (sizes * (d - sizes))


def _first_draws(canon, n_units):
    """Indices of the first ``n_units`` distinct values of each row of
    ``canon`` (n, k), in draw order, how often each was drawn before the
    ``n_units``-th distinct value appeared (vectorised over rows), and which
    rows have fewer distinct values (their missing units get count 0)."""
    n, k = canon.shape
    if canon.max(initial=0) < 1 << 15:
        canon = canon.astype(np.int16)  # numpy's stable sort is a radix sort
    # Sort each row stably: a group of equal values starts with its earliest draw.
    order = np.argsort(canon, axis=1, kind="stable")
    sorted_canon = np.take_along_axis(canon, order, axis=1)
    start = np.ones((n, k), dtype=bool)
    start[:, 1:] = sorted_canon[:, 1:] != sorted_canon[:, :-1]
    flat_start = start.reshape(-1)
    group = np.cumsum(flat_start) - 1
    first_sorted = order.reshape(-1)[flat_start][group].reshape(n, k)
    first = np.empty_like(first_sorted)
    np.put_along_axis(first, order, first_sorted, axis=1)
    draws = np.arange(k)
    is_first = first == draws
    rank = np.cumsum(is_first, axis=1)
    # The budget is spent at the n_units-th distinct draw: later draws do not count.
    end = np.where(rank[:, -1] >= n_units, np.argmax(rank >= n_units, axis=1), k - 1)
    counted = draws <= end[:, None]
    offsets = np.arange(n)[:, None] * k
    counts = np.bincount((first + offsets)[counted], minlength=n * k).reshape(n, k)
    chosen = is_first & (rank <= n_units)
    short = rank[:, -1] < n_units
    if not short.any():  # exactly n_units chosen per row, found in row order
        idx = np.nonzero(chosen.reshape(-1))[0].reshape(n, n_units) - offsets
        return idx, np.take_along_axis(counts, idx, axis=1).astype(np.float64), short
    rows, cols = np.nonzero(chosen)
    idx = np.zeros((n, n_units), dtype=np.intp)
    idx[rows, rank[rows, cols] - 1] = cols
    out = np.zeros((n, n_units))
    out[rows, rank[rows, cols] - 1] = counts[rows, cols]
    return idx, out, short


def _values_with_ends(explainer, f, X, Z, target_index, rngs):
    """``v_x(empty)``, ``v_x(full)`` and ``v_x(S)`` of per-row coalitions ``Z``.

    The empty and full coalitions are put in front of ``Z`` (n, m, d) so that
    every value of a row comes from one masker call.  Returns ``v_empty``
    (n,), ``v_full`` (n,) and ``values`` (n, m).
    """
    n, _, d = Z.shape
    ends = np.zeros((2, d), dtype=bool)
    ends[1] = True
    keep = np.concatenate([np.broadcast_to(ends, (n, 2, d)), Z], axis=1)
    values = explainer._evaluate(f, X, keep, target_index=target_index, rngs=rngs)
    return values[:, 0], values[:, 1], values[:, 2:]


def _check_n_features(explainer, d):
    if d > explainer.max_features:
        grouped = getattr(explainer, "groups_", None) is not None
        players = "feature groups" if grouped else "features"
        raise ValueError(
            f"{type(explainer).__name__} enumerates all 2^d coalitions, and X has "
            f"d={d} {players} > max_features={explainer.max_features}. Use "
            "KernelSHAP (sampled coalitions) or ShapleyValueSampling, or raise "
            "max_features if 2^d model evaluations per row are affordable."
        )


# --------------------------------------------------------------------------
# Explainers
# --------------------------------------------------------------------------
class _SampledShapley(_MaskerExplainer):
    """Shapley estimators that sample coalitions or orderings per row (from
    the row's random stream): stochastic whatever the masker."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.stochastic = True
        tags.non_deterministic = self.random_state is None
        return tags


@explainer_doc("explainer_output_params", "masker_attributes", "input_attributes",
               "regression_example", explainer_groups=GROUPS_DOC,
               explainer_groups_attribute=GROUPS_ATTRIBUTE_DOC,
               references=("shapley1953", "lundberg2017", "liu2021"))
class ExactShapley(_MaskerExplainer):
    """Exact Shapley values by enumeration of all ``2^d`` coalitions.

    ``phi_j = sum_S |S|!(d-|S|-1)!/d! (v_x(S+j) - v_x(S))`` with ``v_x`` from
    ``masker`` (see :ref:`def-shapley` in the user guide); efficiency holds
    exactly:
    ``sum_j phi_j = f(x) - v_x(empty)``.  The ``2^d`` coalitions of a block of
    rows are scored in one masker evaluation, i.e. ``2^d * n_draws`` model
    rows per explained row.

    XAI-Bench presets: "SHAP" is the default ``MarginalMasker(100)`` (100
    training rows as interventional background); "BF-SHAP" is
    ``MarginalMasker(background=X_train[:1000])``.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    masker : masker, default=None
        The value function; ``None`` is ``MarginalMasker(100,
        random_state=random_state)``.  Cloned and fitted on the training rows.
    {explainer_groups}
        With groups, ``max_features`` bounds the number of groups.
    convention : {"paper", "xai_bench_code"}, default="paper"
        ``"paper"``: the Shapley values.  ``"xai_bench_code"`` reproduces
        XAI-Bench's BF-SHAP / ground-truth bias (its code solves the Shapley
        regression without intercept; see :ref:`def-switches-xaibench`): add
        ``v_x(empty) / d`` to every value, so that rows sum to ``f(x)``
        instead of ``f(x) - v_x(empty)``; these are not Shapley values.
    max_features : int, default=16
        Refuse inputs with more features (the cost grows as ``2^d``).
    {explainer_output_params}
    random_state : int, RandomState instance or None, default=None
        Seeds the default background subsample and stochastic maskers.

    Attributes
    ----------
    {masker_attributes}
    {explainer_groups_attribute}
    convention_ : str
        The convention used.
    {input_attributes}

    See Also
    --------
    KernelSHAP : sampled coalitions, for many features.
    ShapleyValueSampling : permutation sampling.

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import ExactShapley
    >>> from sklearn_xai.masking import MarginalMasker
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = ExactShapley(LinearRegression(), masker=MarginalMasker(background=X))
    >>> ex.fit(X, y).transform([[3.0, 3.0]]).round(6)  # w * (x - mean)
    array([[ 4., -2.]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "convention": [StrOptions({"paper", "xai_bench_code"})],
        "max_features": [Interval(numbers.Integral, 1, 30, closed="both")],
    }

    def __init__(self, estimator=None, *, masker=None, groups=None, convention="paper",
                 max_features=16, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.masker = masker
        self.groups = groups
        self.convention = convention
        self.max_features = max_features
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _default_masker(self):
        return MarginalMasker(100, random_state=self.random_state)

    def _fit_explainer(self, X, y):
        self.convention_ = self.convention
        self._fit_groups(X.shape[1])
        _check_n_features(self, self._n_players(X.shape[1]))
        super()._fit_explainer(X, y)

    def _explain(self, X, f, target_index, rngs):
        d = self._n_players(X.shape[1])
        coalitions = all_coalitions(d)
        values = self._evaluate(f, X, coalitions, target_index=target_index, rngs=rngs)
        phi = shapley_from_values(values, d)
        if self.convention_ == "xai_bench_code":
            phi += values[:, :1] / d
        return phi


@explainer_doc("explainer_output_params", "explainer_random_state", "masker_attributes",
               "input_attributes", "regression_example", explainer_groups=GROUPS_DOC,
               explainer_groups_attribute=GROUPS_ATTRIBUTE_DOC,
               explainer_segmentation=SEGMENTATION_DOC,
               references=("lundberg2017", "covert2021_kernelshap"))
class KernelSHAP(_SampledShapley):
    """KernelSHAP: Shapley values by weighted regression on sampled coalitions.

    The Shapley values are the solution of a weighted least squares over the
    coalitions ``z`` with the Shapley kernel ``k(s) = (d-1) / (C(d,s) s
    (d-s))`` of their size ``0 < s < d`` [1]_.  The empty and full
    coalitions are not regression rows: they are *constraints* (intercept
    ``= v_x(empty)``, ``sum_j phi_j = f(x) - v_x(empty)``), not large
    weights (see :ref:`def-shapley`).  The ``n_perturbations`` coalitions
    of a row are chosen as in shap's ``KernelExplainer``:

    * **enumerated sizes**: sizes are taken in pairs ``(s, d - s)``, largest
      kernel mass first (``s = 1, 2, ...``); a pair whose coalitions each get
      at least one evaluation when the budget left is spread over the
      remaining pairs in proportion to their kernel mass is enumerated
      completely, with the exact kernel weights;
    * **sampled sizes**: the rest of the budget is drawn from the remaining
      sizes in proportion to their kernel mass, a size then a uniformly
      random subset of it, in complementary pairs (``paired``).  A
      coalition drawn again costs no evaluation but adds one to its count
      (at most ``4`` draws per coalition pair); the sampled coalitions
      share the kernel mass of the sampled sizes in proportion to their
      counts.

    The weighted least squares with the fixed intercept and the efficiency
    constraint is solved per row from its normal equations.  When
    ``n_perturbations`` covers all ``2^d - 2`` non-trivial coalitions, they
    are all enumerated, which gives the exact Shapley values (equal to
    :class:`ExactShapley` with the same masker).  Enumerating the sizes of
    large kernel weight removes much of the sampling variance: on a
    10-feature MLP at 512 coalitions per row the error against the exact
    values is half that of sampling every coalition from the kernel, and
    below shap's at the same budget.

    Each row's draws come from its own random stream (the counter-based
    draws of the rows' :class:`~sklearn_xai.utils.RowStreams`), vectorised
    over rows.

    Memory does not grow with the number of rows: the rows are explained in
    blocks whose arrays (coalitions, their model inputs, draws, moments)
    hold at most 8 MiB, or ``max_allocation_bytes``
    (``sklearn_xai.set_config``) when lower, and at least one row: about
    ``(n_perturbations + 2) (9 d + 16)`` bytes and its draws (a model that
    is not affine sees the masker's copies in calls of whole rows, one
    row's ``(n_perturbations + 2) n_draws`` copies when they are more than
    a call's 2**17 entries).  The peak is one block plus the ``(n, d)``
    attributions; a row's attributions do not depend on its block.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_perturbations : int or "auto", default="auto"
        Coalitions per row (besides the empty and full ones); ``"auto"`` is
        ``2 d + 2048`` (shap's default).  OpenXAI used 500, XAI-TRIS and
        BEExAI 25.
    masker : masker, default=None
        The value function; ``None`` is ``MarginalMasker(100,
        random_state=random_state)``.  Use ``BaselineMasker("zero")`` for
        parity with Captum's ``KernelShap`` (OpenXAI, XAI-TRIS, BEExAI).
    paired : bool, default=True
        Antithetic sampling: every sampled coalition is followed by its
        complement (same kernel weight), which cancels the leading error
        term [2]_ (an odd number of sampled coalitions drops the last
        complement).
    {explainer_groups}
    {explainer_output_params}
    {explainer_random_state}
        It also seeds the default background subsample.
    {explainer_segmentation}
        With a segmentation, ``n_perturbations`` is per row; a budget of
        at least ``2**K - 2`` for ``K`` segments enumerates every coalition
        (exact Shapley values of the segments).

    Attributes
    ----------
    {masker_attributes}
    {explainer_groups_attribute}
    segmentation_ : segmentation or None
        The fitted clone of ``segmentation``.
    n_perturbations_ : int or "auto"
        The number of coalitions per row used.
    {input_attributes}

    See Also
    --------
    ExactShapley : exact enumeration (small ``d``).

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import KernelSHAP
    >>> from sklearn_xai.masking import BaselineMasker
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> y = X @ [2.0, -1.0, 0.5]
    >>> ex = KernelSHAP(LinearRegression(), n_perturbations=100,
    ...                 masker=BaselineMasker("zero"), random_state=0)
    >>> ex.fit(X, y).transform([[1.0, 1.0, 1.0]]).round(6)
    array([[ 2. , -1. ,  0.5]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left"),
                            StrOptions({"auto"})],
        "paired": ["boolean"],
        "segmentation": [BaseSegmentation, None],
    }

    def __init__(self, estimator=None, *, n_perturbations="auto", masker=None,
                 paired=True, groups=None, target="predicted", output="auto",
                 batch_size=None, random_state=None, segmentation=None):
        self.estimator = estimator
        self.n_perturbations = n_perturbations
        self.masker = masker
        self.groups = groups
        self.paired = paired
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state
        self.segmentation = segmentation

    def _default_masker(self):
        return MarginalMasker(100, random_state=self.random_state)

    def _fit_explainer(self, X, y):
        self.n_perturbations_ = self.n_perturbations
        super()._fit_explainer(X, y)

    def _budget(self, d):
        m = self.n_perturbations_
        return 2 * d + 2048 if m == "auto" else int(m)

    def _explain(self, X, f, target_index, rngs):
        if explains_segments(self):  # segmentation=: each row's segments
            return explain_segments(self, X, f, target_index, rngs)
        n, d = X.shape[0], self._n_players(X.shape[1])
        m = self._budget(d)
        # One row's arrays (coalitions and their float64 model inputs) must
        # fit the allocation limit (before the plan: every coalition counts as
        # sampled unless all are enumerated); the rows are then taken in
        # blocks whose arrays hold at most _BLOCK_BYTES (and the limit).
        every = d < 62 and m >= 2**d - 2
        check_allocation(_row_bytes(d, 2**d - 2, 0, self.paired) if every
                         else _row_bytes(d, 0, m, self.paired), itemsize=1,
                         what="the coalitions of one row and their model inputs",
                         parameter="n_perturbations", value=m)
        if d == 1:
            enumerated, sampled_sizes = np.zeros((0, 1), dtype=bool), np.zeros(0, int)
        elif every:
            # The budget covers every coalition: enumerate with exact weights.
            enumerated, sampled_sizes = all_coalitions(d)[1:-1], np.zeros(0, int)
        else:
            enumerated, sampled_sizes = _kernel_plan(d, m)
        n_sampled = m - len(enumerated) if len(sampled_sizes) else 0
        # Moments of the weighted regression y ~ Z phi of the enumerated
        # coalitions: shared by all rows.
        E = enumerated.astype(np.float64)
        wE = E * shapley_kernel(d, enumerated.sum(axis=1))[:, None]
        plan = (enumerated, wE, E.T @ wE, sampled_sizes, n_sampled)
        # Whether the model is affine (values in closed form) is decided once,
        # on the first rows of X, not again in every block.
        f = affine_once(f, X)
        limit = get_config()["max_allocation_bytes"]
        budget = _BLOCK_BYTES if limit is None else min(_BLOCK_BYTES, limit)
        phi = np.empty((n, d))
        row_bytes = _row_bytes(d, len(enumerated), n_sampled, self.paired,
                               sampled_sizes)
        step = self._block_rows(X.shape[1], 2 + len(enumerated) + n_sampled,
                                max(1, budget // row_bytes),
                                getattr(f, "device", None))
        for sl in block_slices(n, 1, 1, batch_size=step):
            phi[sl] = self._explain_block(
                X[sl], f, None if target_index is None else target_index[sl],
                None if rngs is None else rngs[sl], d, plan)
        return phi

    def _block_rows(self, n_features, n_coalitions, rows, device=None):
        """``rows`` (the block's row count allowed by memory) rounded down
        to a multiple of the rows of one model call of the masker (whole
        rows of ``n_coalitions`` times its draws, ``batch_size`` or
        about 2**17 input entries): a block then makes no partial calls
        but its last.  Values do not depend on it."""
        draws = getattr(self.masker_, "n_draws_", None)
        if draws is None:
            draws = self.masker_.n_draws
        if not isinstance(draws, numbers.Integral):
            return rows
        cap = self.batch_size or max(block_entries(device) // max(n_features, 1), 1)
        per_call = cap // (n_coalitions * max(int(draws), 1))
        return rows // per_call * per_call if rows > per_call > 0 else rows

    def _explain_block(self, X, f, target_index, rngs, d, plan):
        """The Shapley values of a block of rows (see :meth:`_explain`)."""
        enumerated, wE, EwE, sampled_sizes, n_sampled = plan
        n, n_e = len(X), len(enumerated)
        # The empty and full coalitions first, then the enumerated and the
        # sampled ones: one masker call for every value of a row.
        keep = np.empty((n, 2 + n_e + n_sampled, d), dtype=bool)
        keep[:, 0], keep[:, 1] = False, True
        keep[:, 2: 2 + n_e] = enumerated
        units = counts = None
        if n_sampled:
            units, counts = self._sample(rngs, d, n_sampled, sampled_sizes,
                                         keep[:, 2 + n_e:])
        values = self._evaluate(f, X, keep, target_index=target_index, rngs=rngs)
        v_empty, v_full = values[:, 0], values[:, 1]
        if d == 1:
            return (v_full - v_empty)[:, None]
        y = values[:, 2:] - v_empty[:, None]
        M = np.broadcast_to(EwE, (n, d, d)).copy()
        # One product per row (a stack of them): a row's moments do not
        # depend on the other rows of its block.
        c = np.matmul(y[:, None, :n_e], wE)[:, 0]
        if units is not None:
            # The sampled part carries the kernel mass of the sampled sizes,
            # shared in proportion to the draw counts (shap's renormalisation).
            mass = ((d - 1) / (sampled_sizes * (d - sampled_sizes))
                    * np.where(2 * sampled_sizes == d, 1.0, 2.0)).sum()
            # Blocks of rows keep the float temporaries in cache.
            step = max(1, (1 << 16) // (units.shape[1] * d))
            for start in range(0, n, step):
                sl = slice(start, start + step)
                M[sl], c[sl] = _add_unit_moments(M[sl], c[sl], units[sl], counts[sl],
                                                 y[sl, n_e:], self.paired, mass)
        # Every singleton enumerated (the first size enumerated): the
        # reduced system is positive definite.
        return _solve_normal_equations(M, c, v_full - v_empty,
                                       full_rank=n_e >= d)

    def _sample(self, rngs, d, n_sampled, sizes, out):
        """Write ``n_sampled`` coalitions per row into ``out`` (n, n_sampled,
        d): the units (paired: each followed by its complement, the last
        complement dropped when ``n_sampled`` is odd); return the units
        (n, n_units, d) and their draw counts (n, n_units).

        Each row's coalitions come from its own stream (the counter-based
        draws of ``rngs``, the rows' :class:`~sklearn_xai.utils.RowStreams`;
        a stochastic masker draws from their generators), vectorised over
        rows in blocks.
        """
        n = len(rngs)
        streams = rngs
        paired = self.paired
        n_units = -(-n_sampled // 2) if paired else n_sampled
        # A unit's smaller side t is drawn in proportion to the kernel mass
        # of the sizes t and d - t.
        probs = _size_mass(sizes, d)
        # shap's limit of 4 draws per unit; most rows need fewer, so draw
        # the count the repeats leave enough distinct units for first and
        # redraw the rows that fell short (draws are prefixes of one
        # stream: the result is the same), in as many rows' worth of draws.
        first_draws, n_draws = _draw_counts(d, n_units, tuple(int(t) for t in sizes),
                                            paired)
        units = np.empty((n, n_units, d), dtype=bool)
        counts = np.empty((n, n_units))
        step = max(1, (1 << 19) // (first_draws * d))
        for start in range(0, n, step):
            sl = slice(start, start + step)
            block = streams[sl]
            Z, cnt, short = _sample_units(block, d, n_units, sizes, probs,
                                          paired, first_draws)
            short = np.flatnonzero(short)
            again = max(1, len(Z) * first_draws // n_draws)
            for i in range(0, len(short), again):
                rows = short[i:i + again]
                Z[rows], cnt[rows], _ = _sample_units(
                    block[rows], d, n_units, sizes, probs, paired, n_draws)
            units[sl], counts[sl] = Z, cnt
            if paired:
                out[sl, 0::2] = Z
                np.logical_not(Z[:, : n_sampled // 2], out=out[sl, 1::2])
            else:
                out[sl] = Z
        return units, counts


@explainer_doc("explainer_output_params", "explainer_random_state", "masker_attributes",
               "input_attributes", "regression_example", explainer_groups=GROUPS_DOC,
               explainer_groups_attribute=GROUPS_ATTRIBUTE_DOC,
               references=("castro2009", "mitchell2022"))
class ShapleyValueSampling(_SampledShapley):
    """Shapley values by permutation sampling (Castro et al., 2009).

    For each of ``n_permutations`` random orderings of the features, features are
    added one at a time (starting from all removed) and each is credited with
    the change of ``v_x``; the attributions are the averages over orderings
    (Captum's ``ShapleyValueSampling``).  By default the orderings come in
    antithetic pairs (an ordering and its reverse, as shap's
    ``PermutationExplainer``), which halves the error of independent
    orderings on a 10-feature MLP at the same budget.  Rows sum exactly to
    ``f(x) - v_x(empty)``.  The ``n_permutations * (d - 1) + 2`` distinct
    coalitions of a block of rows are scored in one model call; each row's
    orderings come from its own random stream, drawn vectorised over rows.

    Parameters
    ----------
    estimator : estimator
        The model to explain (``FrozenEstimator(model)`` for a fitted one).
    n_permutations : int, default=25
        Number of feature orderings (XAI-TRIS and BEExAI: 25, Captum's
        default).
    masker : masker, default=None
        The value function; ``None`` is ``BaselineMasker("zero")`` (Captum).
    antithetic : bool, default=True
        Follow every ordering by its reverse (antithetic sampling [2]_, as
        shap's ``PermutationExplainer``): a feature that enters early in one enters
        late in the other, so the two marginal contributions are negatively
        correlated and their average has a lower variance (for an odd
        ``n_permutations`` the last reverse is dropped).  ``False`` draws
        independent orderings (Captum's ``ShapleyValueSampling``).
    {explainer_groups}
    {explainer_output_params}
    {explainer_random_state}

    Attributes
    ----------
    {masker_attributes}
    {explainer_groups_attribute}
    n_permutations_ : int
        The number of orderings per row used.
    {input_attributes}

    {explainer_references}

    Examples
    --------
    {regression_example}
    >>> from sklearn_xai.explainers import ShapleyValueSampling
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> y = X @ [2.0, -1.0]
    >>> ex = ShapleyValueSampling(LinearRegression(), n_permutations=5,
    ...                           random_state=0)
    >>> ex.fit(X, y).transform([[3.0, 3.0]]).round(6)  # additive model: exact
    array([[ 6., -3.]])
    """

    _parameter_constraints = {
        **_MaskerExplainer._parameter_constraints,
        "n_permutations": [Interval(numbers.Integral, 1, None, closed="left")],
        "antithetic": ["boolean"],
    }

    def __init__(self, estimator=None, *, n_permutations=25, masker=None,
                 antithetic=True, groups=None, target="predicted", output="auto",
                 batch_size=None, random_state=None):
        self.estimator = estimator
        self.n_permutations = n_permutations
        self.masker = masker
        self.groups = groups
        self.antithetic = antithetic
        self.target = target
        self.output = output
        self.batch_size = batch_size
        self.random_state = random_state

    def _fit_explainer(self, X, y):
        self.n_permutations_ = self.n_permutations
        super()._fit_explainer(X, y)

    def _permutations(self, rngs, d):
        """(n, m, d) orderings, drawn vectorised from the rows' streams."""
        m = self.n_permutations_
        n_draw = -(-m // 2) if self.antithetic else m
        perms = rngs.permutations(d, n_draw)
        if self.antithetic:
            perms = np.stack([perms, perms[..., ::-1]], axis=2)
            perms = perms.reshape(len(rngs), 2 * n_draw, d)
        return perms[:, :m]

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape[0], self._n_players(X.shape[1])
        m = self.n_permutations_
        check_allocation(n * m * d * (d + 16), itemsize=1,
                         what=f"the orderings and coalitions of {n} rows",
                         parameter="n_permutations", value=m)
        perms = self._permutations(rngs, d)  # (n, m, d)
        # position[i, p, j] = step at which feature j enters in ordering p
        position = np.argsort(perms, axis=2)
        steps = np.arange(1, d)
        # Intermediate coalitions: first k features of each ordering, 0<k<d.
        inner = position[:, :, None, :] < steps[None, None, :, None]  # (n,m,d-1,d)
        v_empty, v_full, values = _values_with_ends(
            self, f, X, inner.reshape(n, m * (d - 1), d), target_index, rngs
        )
        path = np.concatenate(
            [
                np.broadcast_to(v_empty[:, None, None], (n, m, 1)),
                values.reshape(n, m, d - 1),
                np.broadcast_to(v_full[:, None, None], (n, m, 1)),
            ],
            axis=2,
        )  # (n, m, d+1): value after k features entered
        increments = np.diff(path, axis=2)  # increment of step k -> feature perms[k]
        contrib = np.take_along_axis(increments, position, axis=2)
        return contrib.mean(axis=1)
