"""What the sensitivity and stability families share (``_sensitivity.py``
and ``_stability.py``): the one mechanism of the metrics that re-explain
perturbed rows.

:func:`_explained_neighbours` draws the neighbours of each row from the
row's own random stream and explains all the neighbours of a block of rows
in one ``explainer.explain`` call, each for the class explained at its
original row; relative stability, which first keeps the neighbours of the
row's class, uses the same explaining step (:func:`_explain_neighbours`).
Discrete features are never perturbed (:func:`_discrete_mask`).
"""

import numpy as np

from sklearn_xai.metrics._common import _check_explainer, _class_labels
from sklearn_xai.utils._output import ExplainedOutput, block_slices
from sklearn_xai.utils._random import row_keys


_DISCRETE_FEATURES_DOC = """
    discrete_features : array-like of bool or int, default=None
        Columns that take no noise: a boolean mask of shape (n_features,) or
        column indices.  Category codes, booleans and integers are such
        columns (continuous noise makes no value of theirs; this is how
        :func:`~sklearn_xai.benchmark.compare_explainers` scores a raw
        DataFrame): a neighbour keeps the row's value there.  ``None``:
        every column takes noise."""


def _discrete_mask(discrete_features, n_features):
    """Boolean mask of ``discrete_features`` (a mask, indices or None)."""
    mask = np.zeros(n_features, dtype=bool)
    if discrete_features is None:
        return mask
    given = np.asarray(discrete_features).ravel()
    if given.dtype == bool:
        if given.shape != (n_features,):
            raise ValueError(
                f"discrete_features as a boolean mask needs {n_features} entries; got "
                f"{given.size}."
            )
        return given.copy()
    if given.size and (not np.issubdtype(given.dtype, np.integer)
                       or given.min() < -n_features or given.max() >= n_features):
        raise ValueError(
            "discrete_features must be a boolean mask or column indices in "
            f"[0, {n_features - 1}]; got {discrete_features!r}."
        )
    mask[given.astype(np.intp)] = True
    return mask


def _explain_neighbours(explainer, Z, owner, keys, labels, explainer_rng):
    """Attributions of neighbour rows ``Z``, each for the class of its owner.

    ``owner`` indexes ``keys`` and ``labels`` (the explained class of each
    original row, or None).  ``"common"`` explains every neighbour with the
    random-stream key of its original row (``keys``: the explainer's default
    keys of the explained rows; common random numbers), ``"independent"``
    with its own key.
    """
    keys = keys[owner] if explainer_rng == "common" else None
    target = None if labels is None else labels[owner]
    return np.asarray(explainer.explain(Z, target=target, row_keys=keys),
                      dtype=np.float64)


def _explained_neighbours(estimator, X, *, explainer, n_neighbours, neighbours,
                          explainer_rng, target, output, batch_size):
    """Neighbours of the rows of ``X`` and their explanations, block by block.

    The one mechanism of the metrics that re-explain perturbed rows
    (max- and average sensitivity, local Lipschitz estimate, continuity):
    ``neighbours(sl, keys)`` returns the ``n_neighbours`` neighbours of
    rows ``X[sl]``, shape ``(c, n_neighbours, d)``, drawn from the rows' own
    streams (so a row's neighbours do not depend on the other rows); all the
    neighbours of a block are explained in one ``explainer.explain`` call,
    each for the class explained at its original row.

    Yields
    ------
    sl : slice
        The rows of the block.
    Z, EN : ndarray of shape (c, n_neighbours, d)
        The neighbours and their attributions (float64).
    """
    explainer = _check_explainer(explainer)
    n, d = X.shape
    f = ExplainedOutput(estimator, target=target, output=output, batch_size=batch_size)
    labels = _class_labels(f, f.target_index(X))
    keys = row_keys(X)
    m = int(n_neighbours)
    for sl in block_slices(n, m, d, batch_size, f.device):
        Z = neighbours(sl, keys)
        c = Z.shape[0]
        owner = np.repeat(np.arange(sl.start, sl.start + c), m)
        EN = _explain_neighbours(explainer, Z.reshape(c * m, d), owner, keys, labels,
                                 explainer_rng)
        yield sl, Z, EN.reshape(c, m, d)
