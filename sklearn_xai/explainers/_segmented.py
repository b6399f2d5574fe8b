"""Explainers whose players are each row's segments (``segmentation=``).

A segmentation (:mod:`sklearn_xai.masking`, :ref:`segmentations`) gives
every row its regions, which may differ from row to row (SLIC superpixels).
An explainer that plays a game over ``d`` players (KernelSHAP, the Captum
LIME and KernelSHAP surrogates) explains a row's segments instead by

* grouping the rows by their label map (rows with equal maps, all the rows
  for a grid or a single map, one row at a time for superpixels),
* running its own ``_explain`` on each group with ``K`` players, the group's
  segments: its coalitions or masks ``keep`` (..., K) keep the features
  ``keep[..., owner]`` (``owner`` the group's label map, one gather), and
* spreading the ``K`` attributions back: every feature of a segment gets the
  segment's attribution (as Captum's ``Lime``/``KernelShap`` with
  ``feature_mask`` return it with ``return_input_shape=True``), not a share
  divided by the segment's size, so a segment's value is read at any of its
  pixels and the attributions sum over *segments*, not pixels, to
  ``f(x) - v(empty)``.

An explainer opts in with four lines: ``fit_segmentation(self, X)`` in its
``_fit_explainer``; ``if explains_segments(self): return
explain_segments(self, X, f, target_index, rngs)`` first in ``_explain``;
``n_players(self, d)`` players; ``spread(self, keep)`` (masker-based
explainers get the last two through ``_n_players`` and ``_feature_group``).
A row's attributions do not depend on the other rows: its random stream is
its own, and its group is the rows with its label map.
"""

import numpy as np
from sklearn.base import clone

from sklearn_xai.masking import check_segmentation

__all__ = ["SEGMENTATION_DOC", "explain_segments", "explains_segments",
           "fit_segmentation", "n_players", "spread"]

SEGMENTATION_DOC = """
    segmentation : GridSegmentation, SLICSegmentation, LabelSegmentation or None, default=None
        The players of each row are its segments (see :ref:`segmentations`):
        a coalition keeps or removes whole segments, and every feature of a
        segment gets the segment's attribution (as Captum's
        ``feature_mask``).  Rows with equal label maps are explained
        together, one row at a time for per-row segmentations (SLIC).
        ``None``: every feature is a player."""


def fit_segmentation(explainer, X):
    """Set ``segmentation_`` (a checked clone, or None) at ``fit``."""
    segmentation = getattr(explainer, "segmentation", None)
    if segmentation is not None and getattr(explainer, "groups", None) is not None:
        raise ValueError(
            "Pass either groups= (one partition of the columns for all rows) or "
            "segmentation= (each row's segments), not both; LabelSegmentation(labels) "
            "gives one label map for all rows.")
    explainer.segmentation_ = check_segmentation(
        None if segmentation is None else clone(segmentation), X.shape[1])


def explains_segments(explainer):
    """Whether ``_explain`` must hand over to :func:`explain_segments` (a
    segmentation, and not already inside it)."""
    return (getattr(explainer, "segmentation_", None) is not None
            and getattr(explainer, "_segment_owner", None) is None)


def n_players(explainer, n_features):
    """Players of the current ``_explain`` call: the segments of its rows,
    or ``n_features``."""
    owner = getattr(explainer, "_segment_owner", None)
    return n_features if owner is None else int(owner.max()) + 1


def spread(explainer, keep):
    """Coalitions over the players (..., K) as coalitions over the features."""
    owner = getattr(explainer, "_segment_owner", None)
    return keep if owner is None else np.asarray(keep)[..., owner]


def explain_segments(explainer, X, f, target_index, rngs):
    """The explainer's ``_explain`` over each row's segments, spread back to
    the features (see the module docstring).

    Returns
    -------
    A : ndarray of shape (n, n_features)
    """
    labels = explainer.segmentation_.segment(X)
    if labels.shape[0] and np.all(labels == labels[:1]):  # one map: one group
        maps, inverse = labels[:1], np.zeros(len(X), dtype=np.intp)
    else:
        maps, inverse = np.unique(labels, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    A = np.empty(X.shape, dtype=np.float64)
    masker_based = hasattr(explainer, "_feature_group")
    saved = getattr(explainer, "_feature_group", None)
    try:
        for g, owner in enumerate(maps):
            rows = np.flatnonzero(inverse == g)
            owner = np.ascontiguousarray(owner)
            explainer._segment_owner = owner
            if masker_based:
                explainer._feature_group = owner
            phi = explainer._explain(
                X[rows], f, None if target_index is None else target_index[rows],
                None if rngs is None else rngs[rows])
            A[rows] = np.asarray(phi)[:, owner]
    finally:
        # The fitted state is left as it was (transform changes nothing).
        if hasattr(explainer, "_segment_owner"):
            del explainer._segment_owner
        if masker_based:
            explainer._feature_group = saved
    return A
