"""Exact TreeSHAP of scikit-learn's tree models, vectorised in numpy.

Every supported model is first flattened into one :class:`TreeEnsemble`:
the nodes of all its trees (split feature, threshold, missing-value
direction, categorical bitset, cover) and, per leaf, its weighted value
(the tree's weight in the ensemble folded in: ``1 / n_trees`` for forests,
the learning rate for scikit-learn's gradient boosting).  The explained
output is ``offset + sum of the reached leaves' values``.  Flattening walks
all root-to-leaf paths at once, one tree level per numpy step.

Each leaf's root-to-leaf path is reduced to its *unique* features: for
feature ``k`` the zero fraction ``z_k`` (product of the cover ratios of the
path's splits on ``k``) and, per row, the one fraction ``o_k`` (1 when the
row satisfies every split on ``k`` of the path, else 0).  The leaf is the
product game ``v prod_j (o_j if j present else z_j)`` of its ``L``
features, whose Shapley value (Lundberg et al. 2020, Algorithm 2) is

    v (o_k - z_k) sum_s w(s, L) Q_s,   w(s, L) = s! (L - s - 1)! / L!

where ``Q_s`` is the coefficient of ``t^s`` in ``prod_{j != k}(z_j + o_j t)``.
As ``w(s, L) = int_0^1 u^s (1 - u)^(L-s-1) du``, the sum is the integral
over ``[0, 1]`` of ``prod_{j != k}(z_j + (o_j - z_j) u)``, a polynomial of
degree ``L - 1`` that Gauss-Legendre quadrature with ``ceil(L / 2)`` nodes
integrates exactly.  A feature the row fails (``o_k = 0``) gets
``-v sum_q omega_q T_q / (1 - u_q)`` with ``T_q`` the product over all ``L``
features at node ``u_q``, one satisfied gets
``v (1 - z_k) sum_q omega_q T_q / (z_k + (1 - z_k) u_q)``.  Leaves are
grouped by ``L`` and processed in chunks for blocks of rows at once; a leaf's
values depend on a row only through its pattern of ones, so with no more
than ``n_rows`` patterns (``L <= 8``) the ``2^L`` patterns are computed once
and rows look theirs up.

The interventional variant (exact Shapley values of the model's output
averaged over background rows ``b``) is, per leaf, the same product game
with ``z`` replaced by ``b``'s one fractions.  It is nonzero only when every
split of the path is satisfied by ``x`` or by ``b``: with ``F_x`` and
``F_b`` the features each fails (bitmasks, disjoint), the leaf's value goes
``(|F_b|-1)! |F_x|! / (|F_x|+|F_b|)!`` to each feature of ``F_b`` and
minus ``|F_b|! (|F_x|-1)! / (|F_x|+|F_b|)!`` to each of ``F_x``.  Each
distinct (pattern of ones, leaf) cell of a block of rows is computed once,
and of its pairs with background rows only those with disjoint masks are
visited.
"""

from functools import lru_cache
from math import factorial

import numpy as np
from scipy import sparse

from sklearn_xai.utils._output import BLOCK_ENTRIES, block_slices

__all__ = ["TreeEnsemble", "SKLEARN_TREE_FAMILIES", "sklearn_tree_ensemble"]

# Leaves x slots of one chunk of leaves of the same path length, and
# entries of the largest temporary array of a block of rows (a block holds
# at least one row).
_CHUNK_ENTRIES = BLOCK_ENTRIES // 8
_BLOCK_ENTRIES = 2 * BLOCK_ENTRIES
# Entries of the (rows, background rows, leaves) byte masks of the
# interventional variant.
_BYTE_ENTRIES = 8 * BLOCK_ENTRIES
# Longest path whose pattern of ones is one int64 key (with the leaf).
_MAX_PATTERN_BITS = 56

SKLEARN_TREE_FAMILIES = (
    "DecisionTreeRegressor", "DecisionTreeClassifier",
    "ExtraTreeRegressor", "ExtraTreeClassifier",
    "RandomForestRegressor", "RandomForestClassifier",
    "ExtraTreesRegressor", "ExtraTreesClassifier",
    "GradientBoostingRegressor", "GradientBoostingClassifier",
    "HistGradientBoostingRegressor", "HistGradientBoostingClassifier",
)


class _Chunk:
    """Leaves of one path length ``L``: their unique features and steps.

    Slots (leaf ``p``, unique feature ``k``) are numbered ``k * P + p``.
    Per slot: the interval ``(lo, hi]`` the path's numeric splits on the
    feature leave to the row, whether a missing value follows the path
    (``nan_ok``), and the zero fraction ``z``; the path's steps themselves
    serve categorical splits.

    Parameters
    ----------
    ensemble : TreeEnsemble
    value : ndarray of shape (P, n_outputs)
    slot_feature, z : ndarray of shape (L, P)
    step_node, step_left, step_slot : ndarray of shape (n_steps,)
        The paths' splits (global node, whether the path goes left) and
        the slot of their feature.
    """

    def __init__(self, ensemble, value, slot_feature, z, step_node, step_left,
                 step_slot):
        L, P = z.shape
        n_out = value.shape[1]
        self.L, self.P = L, P
        self.value = value
        self.z = z
        self.slot_feature = slot_feature
        order = np.argsort(step_slot, kind="stable")
        self.step_node, self.step_left = step_node[order], step_left[order]
        slot = step_slot[order]
        self.slot_start = np.flatnonzero(np.r_[True, slot[1:] != slot[:-1]])
        self.has_cat = bool((ensemble.cat[self.step_node] >= 0).any())
        thr = ensemble.threshold[self.step_node]
        hi = np.full(P * L, np.inf)
        lo = np.full(P * L, -np.inf)
        np.minimum.at(hi, slot[self.step_left], thr[self.step_left])
        np.maximum.at(lo, slot[~self.step_left], thr[~self.step_left])
        self.lo, self.hi = lo.reshape(L, P), hi.reshape(L, P)
        follows = ensemble.missing_left[self.step_node] == self.step_left
        self.nan_ok = np.logical_and.reduceat(follows, self.slot_start).reshape(L, P)
        # Path-dependent: Gauss-Legendre nodes u_q and weights omega_q on
        # [0, 1]; per node the factor of a satisfied (A1) and of a failed
        # (A0) feature, and a satisfied slot's multiplier of T_q (R1).
        u, omega = _gauss_legendre(max(1, (L + 1) // 2))
        uq = u[:, None, None]
        self.A1 = z + (1 - z) * uq                            # (Q, L, P), > 0
        self.A0 = z * (1 - uq)
        self.R1 = omega[:, None, None] * (1 - z) / self.A1
        self.F = omega / (1 - u)                                # (Q,)
        self.n_features = ensemble.n_features
        self._matrices = {}
        self._pattern_table = None

    def _matrix(self, by_leaf):
        """(L * P, d * n_out): slot -> feature x output, times the leaf's
        value; ``by_leaf``: the same with rows ``p * L + k``.  Built on first
        use (a call needs one of the two)."""
        if by_leaf not in self._matrices:
            L, P, n_out = self.L, self.P, self.value.shape[1]
            if by_leaf:
                feat = self.slot_feature.T
                val = np.broadcast_to(self.value[:, None, :], (P, L, n_out))
            else:
                feat = self.slot_feature
                val = np.broadcast_to(self.value, (L, P, n_out))
            cols = (feat[..., None] * n_out + np.arange(n_out)).ravel()
            self._matrices[by_leaf] = sparse.csr_matrix(
                (val.ravel(), cols, np.arange(0, P * L * n_out + 1, n_out)),
                shape=(P * L, self.n_features * n_out))
        return self._matrices[by_leaf]

    def pattern_table(self):
        """Path-dependent slot values of every pattern of ones, as
        :func:`_by_leaf` lays them out; computed once (they depend on the
        trees only, not on the explained rows)."""
        if self._pattern_table is None:
            every = _patterns(self.L)
            self._pattern_table = _by_leaf(np.concatenate([
                _path_dependent(every[s], self) for s in block_slices(
                    len(every), self.P * (self.L + 1), 1, batch_size=_BLOCK_ENTRIES)]))
        return self._pattern_table


class TreeEnsemble:
    """A tree model flattened into arrays, with exact TreeSHAP.

    Parameters
    ----------
    trees : list of dict
        One dict per tree with arrays ``left``, ``right`` (-1 at leaves),
        ``feature``, ``threshold``, ``missing_left``, ``cat`` (row of
        ``bitsets`` of a categorical split, -1 for a numeric one), ``cover``
        and ``value`` of shape (n_nodes, n_outputs), already weighted.
    offset : ndarray of shape (n_outputs,)
        Constant added to the trees' sum (the initial raw prediction).
    n_features : int
    dtype : numpy dtype
        The model's input dtype (thresholds are compared in it).
    bitsets : ndarray of shape (n_bitsets, 8), uint32, default=None
        Left categories of the categorical splits.
    known_bitsets : ndarray of shape (n_features, 8), uint32, default=None
        Known categories per feature (others follow the missing direction).
    """

    def __init__(self, trees, offset, n_features, dtype=np.float64, bitsets=None,
                 known_bitsets=None):
        self.n_features = d = n_features
        self.dtype = dtype
        self.offset = np.asarray(offset, dtype=np.float64).ravel()
        self.n_outputs = self.offset.shape[0]
        self.bitsets = bitsets
        self.known_bitsets = known_bitsets
        # Global node arrays: children renumbered into the concatenation.
        sizes = np.array([len(t["feature"]) for t in trees], dtype=np.intp)
        starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.intp)
        tree_of = np.repeat(np.arange(len(trees)), sizes)

        def cat(key, dtype):
            return np.concatenate([np.asarray(t[key]) for t in trees]).astype(dtype)

        left, right = cat("left", np.intp), cat("right", np.intp)
        leaf = left < 0
        left = np.where(leaf, -1, left + starts[tree_of])
        right = np.where(leaf, -1, right + starts[tree_of])
        self.feature = cat("feature", np.intp)
        self.threshold = cat("threshold", float)
        self.missing_left = cat("missing_left", bool)
        self.cat = cat("cat", np.intp)
        cover = cat("cover", np.float64)
        value = np.concatenate([np.asarray(t["value"], dtype=np.float64).reshape(
            len(t["feature"]), -1) for t in trees])
        # Parent of every node and whether it is its parent's left child.
        internal = np.flatnonzero(~leaf)
        parent = np.full(len(left), -1, dtype=np.intp)
        parent[left[internal]] = internal
        parent[right[internal]] = internal
        is_left = np.zeros(len(left), dtype=bool)
        is_left[left[internal]] = True
        leaves = np.flatnonzero(leaf)
        root_cover = cover[starts[tree_of[leaves]]]
        self.expected_value = self.offset + (
            value[leaves] * (cover[leaves] / root_cover)[:, None]).sum(axis=0)
        # Steps of all root-to-leaf paths, one level per iteration.
        step_leaf, step_node, step_left, step_ratio = [], [], [], []
        node, which = leaves, np.arange(len(leaves))
        while node.size:
            up = parent[node]
            keep = up >= 0
            node, which, up = node[keep], which[keep], up[keep]
            step_leaf.append(which)
            step_node.append(up)
            step_left.append(is_left[node])
            with np.errstate(divide="ignore", invalid="ignore"):
                step_ratio.append(np.where(cover[up] > 0, cover[node] / cover[up], 0.0))
            node = up
        step_leaf = np.concatenate(step_leaf)
        step_node = np.concatenate(step_node)
        step_left = np.concatenate(step_left)
        step_ratio = np.concatenate(step_ratio)
        # Unique (leaf, feature) pairs: the slots, sorted by leaf.
        keys, step_slot = np.unique(step_leaf * d + self.feature[step_node],
                                    return_inverse=True)
        slot_leaf, slot_feature = keys // d, keys % d
        order = np.argsort(step_slot, kind="stable")
        bounds = np.flatnonzero(np.diff(step_slot[order], prepend=-1) != 0)
        slot_z = (np.multiply.reduceat(step_ratio[order], bounds) if len(bounds)
                  else np.zeros(0))
        n_leaves = len(leaves)
        length = np.bincount(slot_leaf, minlength=n_leaves)
        first = np.searchsorted(slot_leaf, np.arange(n_leaves))
        slot_pos = np.arange(len(keys)) - first[slot_leaf]
        leaf_value = value[leaves]
        self.offset_total = self.offset + leaf_value[length == 0].sum(axis=0)
        # Chunks of leaves of one length; a leaf's position in its chunk.
        chunk_of = np.full(n_leaves, -1, dtype=np.intp)
        pos = np.zeros(n_leaves, dtype=np.intp)
        members = []
        for L in np.unique(length[length > 0]):
            same = np.flatnonzero(length == L)
            size = max(1, _CHUNK_ENTRIES // (int(L) + 1))
            for s in range(0, len(same), size):
                ids = same[s:s + size]
                chunk_of[ids] = len(members)
                pos[ids] = np.arange(len(ids))
                members.append((int(L), ids))
        step_chunk = chunk_of[step_leaf]
        by_chunk = np.argsort(step_chunk, kind="stable")
        step_bounds = np.searchsorted(step_chunk[by_chunk], np.arange(len(members) + 1))
        self.chunks = []
        for c, (L, ids) in enumerate(members):
            P = len(ids)
            slots = first[ids][None, :] + np.arange(L)[:, None]     # (L, P)
            steps = by_chunk[step_bounds[c]:step_bounds[c + 1]]
            s_slot = step_slot[steps]
            self.chunks.append(_Chunk(
                self, leaf_value[ids], slot_feature[slots], slot_z[slots],
                step_node[steps], step_left[steps],
                slot_pos[s_slot] * P + pos[slot_leaf[s_slot]]))

    # ------------------------------------------------------------ decisions
    preprocessor = None  # HistGradientBoosting's encoder of categorical columns
    order = None

    def _cast(self, X):
        if self.preprocessor is not None:
            Xt = np.asarray(self.preprocessor.transform(X), dtype=np.float64)
            X = np.empty_like(Xt)
            X[:, self.order] = Xt
        return np.asarray(X, dtype=self.dtype).astype(np.float64)

    def _goes_left(self, X, nodes):
        """Whether each row goes left at each node: (n, len(nodes)) bool."""
        x = X[:, self.feature[nodes]]
        nan = np.isnan(x)
        with np.errstate(invalid="ignore"):
            left = x <= self.threshold[nodes]
        missing = nan
        cat = self.cat[nodes]
        is_cat = cat >= 0
        if is_cat.any():
            cols = np.flatnonzero(is_cat)
            xc = x[:, cols]
            bad = np.isnan(xc) | (xc < 0)
            code = np.where(bad, 0, xc).astype(np.int64) & 255  # uint8 as sklearn
            word, bit = code >> 5, (code & 31).astype(np.uint32)
            in_left = (self.bitsets[cat[cols][None, :], word] >> bit) & 1
            feats = self.feature[nodes][cols]
            known = (self.known_bitsets[feats[None, :], word] >> bit) & 1
            left[:, cols] = in_left.astype(bool)
            missing = missing.copy()
            missing[:, cols] = bad | ~(in_left.astype(bool) | known.astype(bool))
        return np.where(missing, self.missing_left[nodes], left)

    def _one(self, chunk, X):
        """One fractions (n, L, P) bool of rows ``X`` (already cast)."""
        if chunk.has_cat:  # split by split
            left = self._goes_left(X, chunk.step_node)
            o = np.logical_and.reduceat(left == chunk.step_left, chunk.slot_start,
                                        axis=1)
            return o.reshape(len(X), chunk.L, chunk.P)
        x = X[:, chunk.slot_feature.ravel()].reshape(len(X), chunk.L, chunk.P)
        o = (x > chunk.lo) & (x <= chunk.hi)
        nan = np.isnan(x)
        if nan.any():
            o = np.where(nan, chunk.nan_ok, o)
        return o

    def raw_output(self, X):
        """The explained output ``offset + sum of the reached leaves' values``.

        Returns
        -------
        raw : ndarray of shape (n_samples, n_outputs)
        """
        X = self._cast(X)
        out = np.tile(self.offset_total, (len(X), 1))
        for chunk in self.chunks:
            for rows in block_slices(len(X), chunk.P * chunk.L, 1,
                                     batch_size=_BLOCK_ENTRIES):
                reach = self._one(chunk, X[rows]).all(axis=1)
                out[rows] += reach @ chunk.value
        return out

    # ------------------------------------------------------------- TreeSHAP
    def shap_values(self, X):
        """Path-dependent TreeSHAP values, shape (n_samples, n_features, n_outputs)."""
        X = self._cast(X)
        n, d, K = len(X), self.n_features, self.n_outputs
        phi = np.zeros((n, d * K))
        for chunk in self.chunks:
            table = chunk.pattern_table() if _by_pattern(chunk, n) else None
            for rows in block_slices(n, chunk.P * (chunk.L + 1), 1,
                                     batch_size=_BLOCK_ENTRIES):
                o = self._one(chunk, X[rows])
                if table is not None:
                    phi[rows] += _to_features(chunk, _lookup(table, o), by_leaf=True)
                else:
                    phi[rows] += _to_features(chunk, _path_dependent(o, chunk))
        return phi.reshape(n, d, K)

    def interventional_values(self, X, background):
        """Interventional TreeSHAP values over the rows of ``background``.

        Returns
        -------
        phi : ndarray of shape (n_samples, n_features, n_outputs)
        expected : ndarray of shape (n_outputs,)
            The mean output over the background rows.
        """
        X = self._cast(X)
        state, expected = self._background_state(background)
        n, d, K = len(X), self.n_features, self.n_outputs
        m = self._background_rows
        phi = np.zeros((n, d * K))
        for chunk, (weights, blocks) in zip(self.chunks, state):
            P, L = chunk.P, chunk.L
            for mb, bits, counts, first_b, failed_slots in blocks:
                for rows in block_slices(n, P * L, 1, batch_size=_BYTE_ENTRIES):
                    # Rows sharing a leaf's pattern share its values.
                    fail, leaf, inverse = _cells(self._one(chunk, X[rows]))
                    values = np.concatenate([
                        _interventional(fail[c], leaf[c], bits, counts, first_b,
                                        failed_slots, weights)
                        for c in block_slices(len(fail), mb, 1,
                                              batch_size=_BYTE_ENTRIES)])
                    slot = np.take(values, inverse, axis=0).reshape(-1, P, L)
                    phi[rows] += _to_features(chunk, slot, by_leaf=True)
        return phi.reshape(n, d, K) / max(m, 1), expected

    def _background_state(self, background):
        """Per chunk, what the interventional values need of the background
        rows (the weights by ``(|F_b|, |F_x|)`` and the slots each
        background row fails), and the mean output over them: computed once
        per background (the explainer passes the same array on every call)."""
        cached = getattr(self, "_background_cache", None)
        if cached is not None and cached[0] is background:
            return cached[1], cached[2]
        B = self._cast(background)
        state = []
        for chunk in self.chunks:
            L = chunk.L
            # Weights by (|F_b|, |F_x|): to a feature of F_b, minus to one of F_x.
            fact = np.array([factorial(i) for i in range(2 * L + 1)], dtype=np.float64)
            a = np.arange(L + 1)[:, None]
            c = np.arange(L + 1)[None, :]
            weights = np.array([
                np.where(a > 0, fact[np.maximum(a - 1, 0)] * fact[c] / fact[a + c], 0),
                np.where(c > 0, fact[a] * fact[np.maximum(c - 1, 0)] / fact[a + c], 0)])
            fail_b = ~self._one(chunk, B).transpose(2, 0, 1)           # (P, m, L)
            bits_b = np.packbits(fail_b, axis=2, bitorder="little").transpose(2, 0, 1)
            n_fail_b = fail_b.sum(axis=2)                               # (P, m)
            # Background rows per block so that a block holds >= 1 row.
            bg_step = max(1, _BYTE_ENTRIES // chunk.P)
            blocks = []
            for bs in range(0, len(B), bg_step):
                bg = slice(bs, bs + bg_step)
                counts = n_fail_b[:, bg].ravel()                        # (P * mb,)
                blocks.append((
                    len(range(len(B))[bg]), np.ascontiguousarray(bits_b[:, :, bg]),
                    counts, np.r_[0, np.cumsum(counts)[:-1]],
                    np.nonzero(fail_b[:, bg])[2]))
            state.append((weights, blocks))
        expected = self.raw_output(background).mean(axis=0)
        self._background_rows = len(B)
        self._background_cache = (background, state, expected)
        return state, expected


def _path_dependent(o, chunk):
    """Per slot ``(o_k - z_k) int_0^1 prod_{j != k}(...)``: o (r, L, P) -> (r, L, P)."""
    total_one = None
    failed = 0.0
    for A1, A0, R1, F in zip(chunk.A1, chunk.A0, chunk.R1, chunk.F):
        T = np.where(o, A1, A0).prod(axis=1)[:, None, :]         # (r, 1, P)
        term = T * R1
        if total_one is None:
            total_one = term
        else:
            total_one += term
        failed = failed + F * T
    return np.where(o, total_one, -failed)


def _interventional(fail, leaf, bits_b, n_fail_b, first_b, failed_slots, weights):
    """Slot weights of (row, leaf) cells summed over a block of background rows.

    Parameters
    ----------
    fail : ndarray of shape (U, L), bool
        The slots the cell's row fails in the cell's leaf.
    leaf : ndarray of shape (U,)
        The cell's leaf.
    bits_b : ndarray of shape (W, P, m), uint8
        The slots each background row fails, packed in bytes.
    n_fail_b, first_b : ndarray of shape (P * m,)
        Their number per (leaf, background row), and where their positions
        ``k`` start in ``failed_slots``.
    failed_slots : ndarray of shape (n_fail_b.sum(),)
    weights : ndarray of shape (2, L + 1, L + 1)
        Weights by ``(|F_b|, |F_x|)`` of a feature of ``F_b`` and minus
        that of one of ``F_x``.

    Returns
    -------
    slot : ndarray of shape (U, L)
    """
    U, L = fail.shape
    m = bits_b.shape[2]
    bits_x = np.packbits(fail, axis=1, bitorder="little")            # (U, W)
    n_fail_x = fail.sum(axis=1)                                     # (U,)
    # (cell, background row) pairs whose failed features are disjoint.
    common = bits_x[:, 0, None] & np.take(bits_b[0], leaf, axis=0)  # (U, m)
    for w in range(1, bits_x.shape[1]):
        common |= bits_x[:, w, None] & np.take(bits_b[w], leaf, axis=0)
    flat = np.flatnonzero(common == 0)
    del common
    cell = flat // m
    pb = leaf[cell] * m + (flat - cell * m)                         # p * m + b
    nb = n_fail_b[pb]
    pair = nb * (L + 1) + n_fail_x[cell]
    # Minus to_x to each feature the row fails, summed over background rows.
    total_x = np.bincount(cell, weights=weights[1].ravel()[pair], minlength=U)
    slot = fail * -total_x[:, None]
    # to_b to each feature the background row fails: one entry per pair
    # and failed feature, its position read from failed_slots.
    ends = np.cumsum(nb)
    where = np.repeat(first_b[pb] - ends + nb, nb)
    where += np.arange(len(where))
    slot += np.bincount(np.repeat(cell * L, nb) + failed_slots[where],
                        weights=np.repeat(weights[0].ravel()[pair], nb),
                        minlength=U * L).reshape(U, L)
    return slot


def _cells(o):
    """The distinct (pattern of ones, leaf) cells of rows' ones ``o`` (r, L, P).

    Returns
    -------
    fail : ndarray of shape (U, L), bool
    leaf : ndarray of shape (U,)
    inverse : ndarray of shape (r * P,)
        Cell of each (row, leaf), row by row.
    """
    r, L, P = o.shape
    if L > _MAX_PATTERN_BITS:  # patterns beyond int64: each (row, leaf) a cell
        return (~o.transpose(0, 2, 1).reshape(r * P, L), np.tile(np.arange(P), r),
                np.arange(r * P))
    packed = np.packbits(o, axis=1, bitorder="little").astype(np.int64)  # (r, W, P)
    pattern = np.zeros((r, P), dtype=np.int64)
    for w in range(packed.shape[1]):
        pattern |= packed[:, w, :] << (8 * w)
    keys, inverse = np.unique(pattern * P + np.arange(P), return_inverse=True)
    pattern, leaf = np.divmod(keys, P)
    fail = ((pattern[:, None] >> np.arange(L)) & 1) == 0
    return fail, leaf, inverse.ravel()


@lru_cache(maxsize=None)
def _gauss_legendre(n_nodes):
    """Gauss-Legendre nodes and weights on [0, 1], exact to degree 2 n - 1."""
    x, w = np.polynomial.legendre.leggauss(n_nodes)
    return (x + 1) / 2, w / 2


def _by_pattern(chunk, n_rows):
    """Whether to tabulate a chunk's path-dependent values for every pattern.

    A leaf's values depend on a row only through which of its ``L``
    features the row satisfies: with no more patterns than rows (and
    ``L <= 8``), computing the ``2^L`` patterns once and looking rows up is
    cheaper.
    """
    return chunk.L <= 8 and 2 ** chunk.L <= n_rows


def _patterns(L):
    """Every pattern of ones of ``L`` slots, (2^L, L, 1) bool: slot k is bit k."""
    s = np.arange(2 ** L)[:, None, None]
    return ((s >> np.arange(L)[None, :, None]) & 1).astype(bool)


def _by_leaf(table):
    """A table of slot values (2^L, L, P) as rows ``p * 2^L + pattern``."""
    S, L, P = table.shape
    return np.ascontiguousarray(table.transpose(2, 0, 1)).reshape(P * S, L)


def _lookup(table, o):
    """Slot values (r, P, L) of rows with ones ``o`` (r, L, P) from ``_by_leaf``."""
    P = o.shape[2]
    pattern = np.packbits(o, axis=1, bitorder="little")[:, 0, :]   # (r, P)
    return np.take(table, pattern + np.arange(P) * (len(table) // P), axis=0)


def _to_features(chunk, slot, by_leaf=False):
    """Scatter slot weights (r, L, P), or (r, P, L) ``by_leaf``, to features
    x outputs (r, d * n_out)."""
    flat = slot.reshape(slot.shape[0], -1)
    matrix = chunk._matrix(by_leaf)
    return np.asarray(matrix.T @ flat.T).T


# ------------------------------------------------------------ scikit-learn
def _tree_state(tree):
    """The node arrays and values of a fitted scikit-learn tree, read in one
    call (its pickled state) instead of one array copy per attribute."""
    state = tree.tree_.__getstate__()
    return state["nodes"], state["values"]


def _sklearn_tree(nodes, value, weight):
    return {
        "left": nodes["left_child"], "right": nodes["right_child"],
        "feature": np.maximum(nodes["feature"], 0),
        "threshold": nodes["threshold"],
        "missing_left": nodes["missing_go_to_left"].astype(bool),
        "cat": np.full(len(nodes), -1),
        "cover": nodes["weighted_n_node_samples"],
        "value": weight * value,
    }


def _classifier_value(values):
    value = values[:, 0, :]
    return value / value.sum(axis=1, keepdims=True)


def sklearn_tree_ensemble(model, n_features):
    """Flatten a fitted scikit-learn tree model (see ``SKLEARN_TREE_FAMILIES``).

    Returns
    -------
    ensemble : TreeEnsemble
        Explains the model's natural additive output: the prediction of
        regressors, the class probabilities of decision trees and forests
        (averaged over the trees), the raw scores (log-odds for a binary
        classifier) of gradient boosting.
    """
    name = type(model).__name__
    if getattr(model, "n_outputs_", 1) != 1:
        raise ValueError(
            f"TreeContributions explains one output; {name} was fitted on "
            f"{model.n_outputs_} targets. Fit one model per target.")
    if name.startswith("HistGradientBoosting"):
        return _hist_gradient_boosting(model, n_features)
    if name.startswith("GradientBoosting"):
        if model.init not in (None, "zero"):
            raise ValueError(
                f"TreeContributions explains {name} with its default init (a "
                f"constant initial prediction); got init={model.init!r}, whose "
                "prediction depends on the row. Fit it with init=None.")
        K = model.estimators_.shape[1]
        lr = model.learning_rate
        trees = [_sklearn_tree(nodes, values[:, 0, :1], lr) for nodes, values in (
            _tree_state(est) for row in model.estimators_ for est in row)]
        # Tree (i, k) adds to output k: spread its value over the K outputs.
        for i, tree in enumerate(trees):
            value = np.zeros((len(tree["value"]), K))
            value[:, i % K] = tree["value"][:, 0]
            tree["value"] = value
        offset = np.asarray(model._raw_predict_init(np.zeros((1, n_features),
                                                             dtype=np.float32)))[0]
        return TreeEnsemble(trees, offset, n_features, dtype=np.float32)
    estimators = getattr(model, "estimators_", [model])
    weight = 1.0 / len(estimators)
    classifier = hasattr(model, "classes_")
    trees = [_sklearn_tree(nodes, _classifier_value(values) if classifier
                           else values[:, 0, :1], weight)
             for nodes, values in map(_tree_state, estimators)]
    offset = np.zeros(trees[0]["value"].shape[1])
    return TreeEnsemble(trees, offset, n_features, dtype=np.float32)


def _hist_gradient_boosting(model, n_features):
    preprocessor = getattr(model, "_preprocessor", None)
    if preprocessor is not None:
        # Categorical columns are ordinal-encoded first, then the numeric
        # ones: model column j is input column order[j].
        is_cat = np.asarray(model.is_categorical_, dtype=bool)
        order = np.r_[np.flatnonzero(is_cat), np.flatnonzero(~is_cat)]
    else:
        order = np.arange(n_features)
    known, f_idx_map = model._bin_mapper.make_known_categories_bitsets()
    known_full = np.zeros((n_features, 8), dtype=np.uint32)
    is_cat_model = getattr(model._bin_mapper, "is_categorical", None)
    if is_cat_model is not None:
        for j in np.flatnonzero(is_cat_model):
            known_full[order[j]] = known[f_idx_map[j]]
    trees, bitsets = [], []
    K = model.n_trees_per_iteration_
    for iteration in model._predictors:
        for k, predictor in enumerate(iteration):
            nodes = predictor.nodes
            leaf = nodes["is_leaf"].astype(bool)
            value = np.zeros((len(nodes), K))
            value[:, k] = nodes["value"]
            base = sum(len(b) for b in bitsets)
            cat = np.where(nodes["is_categorical"].astype(bool) & ~leaf,
                           nodes["bitset_idx"].astype(np.intp) + base, -1)
            bitsets.append(np.asarray(predictor.raw_left_cat_bitsets, dtype=np.uint32)
                           .reshape(-1, 8))
            trees.append({
                "left": np.where(leaf, -1, nodes["left"].astype(np.intp)),
                "right": np.where(leaf, -1, nodes["right"].astype(np.intp)),
                "feature": order[nodes["feature_idx"]],
                "threshold": nodes["num_threshold"],
                "missing_left": nodes["missing_go_to_left"],
                "cat": cat,
                "cover": nodes["count"].astype(np.float64),
                "value": value,
            })
    bitsets = np.concatenate(bitsets) if bitsets else np.zeros((0, 8), np.uint32)
    offset = np.asarray(model._baseline_prediction, dtype=np.float64).ravel()
    ensemble = TreeEnsemble(trees, offset, n_features, dtype=np.float64,
                            bitsets=bitsets, known_bitsets=known_full)
    ensemble.preprocessor = preprocessor
    ensemble.order = order
    return ensemble
