"""Exact TreeSHAP of scikit-learn's tree models, vectorised in numpy.

Every supported model is first flattened into one :class:`TreeEnsemble`:
the nodes of all its trees (split feature, threshold, missing-value
direction, categorical bitset, cover) and, per leaf, its weighted value
(the tree's weight in the ensemble folded in: ``1 / n_trees`` for forests,
the learning rate for scikit-learn's gradient boosting).  The explained
output is ``offset + sum of the reached leaves' values``.

Each leaf's root-to-leaf path is reduced to its *unique* features: for
feature ``k`` the zero fraction ``z_k`` (product of the cover ratios of the
path's splits on ``k``) and, per row, the one fraction ``o_k`` (1 when the
row satisfies every split on ``k`` of the path, else 0).  Path-dependent
TreeSHAP (Lundberg et al. 2020, Algorithm 2) gives the leaf's value ``v``
to feature ``k`` as

    v (o_k - z_k) sum_s w(s, L) Q_s,   w(s, L) = s! (L - s - 1)! / L!

where ``Q_s`` is the coefficient of ``t^s`` in ``prod_{j != k}(z_j + o_j t)``:
the polynomial of all ``L`` features is built once (EXTEND) and divided by
``k``'s factor (UNWIND).  Leaves are grouped by ``L`` and processed in chunks
for blocks of rows at once.

The interventional variant (exact Shapley values of the model's output
averaged over background rows ``b``) uses, per row, background row and
leaf, the features where only ``x`` (``A``), only ``b`` (``B``) or neither
satisfy the path's splits: with none of the last kind, the leaf's value goes
``(|A|-1)! |B|! / (|A|+|B|)!`` to each feature of ``A`` and minus
``|A|! (|B|-1)! / (|A|+|B|)!`` to each of ``B``.
"""

from math import factorial

import numpy as np
from scipy import sparse

from sklearn_xai.utils._output import BLOCK_ENTRIES, block_slices

__all__ = ["TreeEnsemble", "SKLEARN_TREE_FAMILIES", "sklearn_tree_ensemble"]

# Entries (leaves x polynomial coefficients) of one chunk of leaves of the
# same path length, and of the largest temporary array of a block of rows
# (8 MiB of float64): a block holds at least 64 rows of a full chunk.
_CHUNK_ENTRIES = BLOCK_ENTRIES // 8
_BLOCK_ENTRIES = 8 * BLOCK_ENTRIES

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

    Per slot (leaf ``p``, unique feature ``k``): the interval ``(lo, hi]``
    the path's numeric splits on the feature leave to the row, whether a
    missing value follows the path (``nan_ok``), and the zero fraction
    ``z``; the path's steps themselves serve categorical splits.
    """

    def __init__(self, ensemble, L, value, slot_feature, z, steps):
        P, n_out = value.shape
        self.L = L
        self.value = value                      # (P, n_out)
        self.z = z                              # (P, L)
        self.slot_feature = slot_feature        # (P, L)
        node, go_left, slot = steps[:, 0], steps[:, 1].astype(bool), steps[:, 2]
        order = np.argsort(slot, kind="stable")
        self.step_node, self.step_left, slot = node[order], go_left[order], slot[order]
        self.slot_start = np.flatnonzero(np.r_[True, slot[1:] != slot[:-1]])
        self.has_cat = bool((ensemble.cat[self.step_node] >= 0).any())
        thr = ensemble.threshold[self.step_node]
        hi = np.full(P * L, np.inf)
        lo = np.full(P * L, -np.inf)
        np.minimum.at(hi, slot[self.step_left], thr[self.step_left])
        np.maximum.at(lo, slot[~self.step_left], thr[~self.step_left])
        self.lo, self.hi = lo, hi
        follows = ensemble.missing_left[self.step_node] == self.step_left
        self.nan_ok = np.logical_and.reduceat(follows, self.slot_start)
        # Path-dependent weights: with o_k = 1, sum_s w_s Q_s is
        # sum_j C_j G[j, k] where G[j] = -z G[j - 1] + w_{j - 1}, G[0] = 0.
        w = np.array([factorial(s) * factorial(L - s - 1) / factorial(L)
                      for s in range(L)])
        self.weights = w
        G = np.zeros((L + 1, L, P))
        for j in range(1, L + 1):
            G[j] = -z.T * G[j - 1] + w[j - 1]
        self.G = G
        # (L * P, d * n_out), slot-major rows k * P + p: feature x output,
        # times the leaf's value.
        d = ensemble.n_features
        feat = slot_feature.T.ravel()
        rows = np.repeat(np.arange(P * L), n_out)
        cols = np.repeat(feat, n_out) * n_out + np.tile(np.arange(n_out), P * L)
        vals = np.tile(value, (L, 1)).ravel()
        self.to_features = sparse.csr_matrix(
            (vals, (rows, cols)), shape=(P * L, d * n_out))


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
        self.n_features = n_features
        self.dtype = dtype
        self.offset = np.asarray(offset, dtype=np.float64).ravel()
        self.n_outputs = self.offset.shape[0]
        # Global node arrays.
        sizes = [len(t["feature"]) for t in trees]
        starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.intp)
        self.feature = np.concatenate([t["feature"] for t in trees]).astype(np.intp)
        self.threshold = np.concatenate([t["threshold"] for t in trees]).astype(float)
        self.missing_left = np.concatenate(
            [t["missing_left"] for t in trees]).astype(bool)
        self.cat = np.concatenate([t["cat"] for t in trees]).astype(np.intp)
        self.bitsets = bitsets
        self.known_bitsets = known_bitsets
        expected = self.offset.copy()
        by_length = {}
        constant = np.zeros(self.n_outputs)
        for tree, start in zip(trees, starts):
            leaves = _tree_leaves(tree)
            cover = np.asarray(tree["cover"], dtype=np.float64)
            value = np.asarray(tree["value"], dtype=np.float64)
            for leaf, path in leaves:
                expected += value[leaf] * (cover[leaf] / cover[0])
                if not path:
                    constant += value[leaf]
                    continue
                feats, slot_of, z = [], {}, []
                steps = []
                for node, go_left in path:
                    child = tree["left"][node] if go_left else tree["right"][node]
                    ratio = cover[child] / cover[node] if cover[node] > 0 else 0.0
                    f = int(tree["feature"][node])
                    if f not in slot_of:
                        slot_of[f] = len(feats)
                        feats.append(f)
                        z.append(1.0)
                    z[slot_of[f]] *= ratio
                    steps.append((start + node, go_left, slot_of[f]))
                by_length.setdefault(len(feats), []).append(
                    (value[leaf], feats, z, steps))
        self.expected_value = expected
        self.offset_total = self.offset + constant
        self.chunks = []
        for L in sorted(by_length):
            leaves = by_length[L]
            size = max(1, _CHUNK_ENTRIES // (L + 1))
            for s in range(0, len(leaves), size):
                self.chunks.append(self._chunk(L, leaves[s:s + size]))

    def _chunk(self, L, leaves):
        value = np.array([v for v, _, _, _ in leaves], dtype=np.float64)
        slot_feature = np.array([f for _, f, _, _ in leaves], dtype=np.intp)
        z = np.array([zz for _, _, zz, _ in leaves], dtype=np.float64)
        steps = np.array([(node, go_left, p * L + k)
                          for p, (_, _, _, path) in enumerate(leaves)
                          for node, go_left, k in path], dtype=np.intp)
        return _Chunk(self, L, value, slot_feature, z, steps)

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
        """One fractions (n, P, L) bool of rows ``X`` (already cast)."""
        if chunk.has_cat:  # split by split
            left = self._goes_left(X, chunk.step_node)
            o = np.logical_and.reduceat(left == chunk.step_left, chunk.slot_start,
                                        axis=1)
            return o.reshape(len(X), -1, chunk.L)
        x = X[:, chunk.slot_feature.ravel()]
        o = (x > chunk.lo) & (x <= chunk.hi)
        nan = np.isnan(x)
        if nan.any():
            o = np.where(nan, chunk.nan_ok, o)
        return o.reshape(len(X), -1, chunk.L)

    def raw_output(self, X):
        """The explained output ``offset + sum of the reached leaves' values``.

        Returns
        -------
        raw : ndarray of shape (n_samples, n_outputs)
        """
        X = self._cast(X)
        out = np.tile(self.offset_total, (len(X), 1))
        for chunk in self.chunks:
            for rows in block_slices(len(X), chunk.value.shape[0] * chunk.L, 1):
                reach = self._one(chunk, X[rows]).all(axis=2)
                out[rows] += reach @ chunk.value
        return out

    # ------------------------------------------------------------- TreeSHAP
    def shap_values(self, X):
        """Path-dependent TreeSHAP values, shape (n_samples, n_features, n_outputs)."""
        X = self._cast(X)
        n, d, K = len(X), self.n_features, self.n_outputs
        phi = np.zeros((n, d * K))
        for chunk in self.chunks:
            P, L = chunk.value.shape[0], chunk.L
            for rows in block_slices(n, P * (L + 1), 1, batch_size=_BLOCK_ENTRIES):
                o = self._one(chunk, X[rows])                     # (m, P, L)
                slot = _path_dependent(o.transpose(2, 0, 1), chunk)  # (L, m, P)
                phi[rows] += _to_features(chunk, slot.transpose(1, 0, 2))
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
        B = self._cast(background)
        n, d, K, m = len(X), self.n_features, self.n_outputs, len(B)
        phi = np.zeros((n, d * K))
        max_L = max((c.L for c in self.chunks), default=0)
        fact = np.array([factorial(i) for i in range(2 * max_L + 2)], dtype=np.float64)
        a = np.arange(max_L + 1)[:, None]
        c = np.arange(max_L + 1)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            only_x = np.where(a > 0, fact[np.maximum(a - 1, 0)] * fact[c] / fact[a + c],
                              0)
            only_b = np.where(c > 0, fact[a] * fact[np.maximum(c - 1, 0)] / fact[a + c],
                              0)
        for chunk in self.chunks:
            P, L = chunk.value.shape[0], chunk.L
            ob = self._one(chunk, B).astype(np.float64)        # (m, P, L)
            ob_lm = ob.transpose(1, 2, 0)                       # (P, L, m)
            not_ob_lm = 1.0 - ob_lm
            not_ob_ml = not_ob_lm.transpose(0, 2, 1)            # (P, m, L)
            # Background rows per block so that a block holds >= 8 rows.
            bg_step = max(1, _BLOCK_ENTRIES // (8 * P))
            for bs in range(0, m, bg_step):
                bg = slice(bs, bs + bg_step)
                mb = len(range(m)[bg])
                for rows in block_slices(n, P * mb, 1, batch_size=_BLOCK_ENTRIES):
                    ox = self._one(chunk, X[rows]).astype(np.float64).transpose(1, 0, 2)
                    # With every split satisfied by x or b, the features x
                    # fails are exactly those only b satisfies: |B| = c_x.
                    c_x = L - ox.sum(axis=2)                          # (P, r)
                    valid = (1.0 - ox) @ ob_lm[:, :, bg] == c_x[..., None]
                    n_a = (ox @ not_ob_lm[:, :, bg]).astype(np.intp)  # (P, r, mb)
                    c_i = c_x.astype(np.intp)[..., None]
                    w_a = np.where(valid, only_x[n_a, c_i], 0.0)
                    w_b = np.where(valid, only_b[n_a, c_i], 0.0).sum(axis=2)
                    # A feature x satisfies gets w_a from the rows b fails it
                    # on; one x fails gets -w_b from every valid row.
                    slot = np.where(ox > 0, w_a @ not_ob_ml[:, bg, :],
                                    -w_b[..., None]) / m              # (P, r, L)
                    phi[rows] += _to_features(chunk, slot.transpose(1, 2, 0))
        expected = self.raw_output(background).mean(axis=0)
        return phi.reshape(n, d, K), expected


def _path_dependent(o, chunk):
    """Per slot ``(o_k - z_k) sum_s w_s Q_s`` of one chunk: o (L, m, P) -> (L, m, P)."""
    L, m, P = o.shape
    o = o.astype(np.float64)
    z = chunk.z.T[:, None, :]                              # (L, 1, P)
    # EXTEND: coefficients of prod_j (z_j + o_j t), shape (L + 1, m, P).
    C = np.zeros((L + 1, m, P))
    C[0] = 1.0
    for j in range(L):
        upper = C[: j + 1] * o[j]
        C[: j + 2] *= z[j]
        C[1: j + 2] += upper
    # UNWIND, o_k = 1 (divide by z_k + t): a fixed linear map of C per slot.
    total_one = np.zeros((L, m, P))
    for j in range(1, L + 1):
        total_one += chunk.G[j][:, None, :] * C[j]
    # o_k = 0 (divide by z_k; a zero z_k gives o_k - z_k = 0 anyway).
    total_zero = np.tensordot(chunk.weights, C[:L], axes=1) / np.where(z > 0, z, 1.0)
    return (o - z) * np.where(o > 0, total_one, total_zero)


def _to_features(chunk, slot):
    """Scatter slot weights (m, L, P) to features x outputs (m, d * n_out)."""
    flat = slot.reshape(slot.shape[0], -1)
    return np.asarray(chunk.to_features.T @ flat.T).T


def _tree_leaves(tree):
    """(leaf, [(node, go_left), ...]) for every leaf, by a depth-first walk."""
    left, right = tree["left"], tree["right"]
    out = []
    stack = [(0, [])]
    while stack:
        node, path = stack.pop()
        if left[node] < 0:
            out.append((node, path))
            continue
        stack.append((int(right[node]), path + [(node, False)]))
        stack.append((int(left[node]), path + [(node, True)]))
    return out


# ------------------------------------------------------------ scikit-learn
def _sklearn_tree(tree, value, weight):
    t = tree.tree_
    return {
        "left": t.children_left, "right": t.children_right,
        "feature": np.where(t.feature >= 0, t.feature, 0),
        "threshold": t.threshold,
        "missing_left": np.asarray(t.missing_go_to_left, dtype=bool),
        "cat": np.full(t.node_count, -1),
        "cover": t.weighted_n_node_samples,
        "value": weight * value,
    }


def _classifier_value(tree):
    value = tree.tree_.value[:, 0, :]
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
        trees = [_sklearn_tree(est, est.tree_.value[:, 0, :1], lr)
                 for row in model.estimators_ for est in row]
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
    trees = [_sklearn_tree(est, _classifier_value(est) if classifier
                           else est.tree_.value[:, 0, :1], weight)
             for est in estimators]
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
