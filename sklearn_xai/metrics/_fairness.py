"""Disparity of an explanation metric across groups (OpenXAI), SPEC 4.5."""

import warnings

import numpy as np
from scipy import stats
from sklearn.utils import Bunch
from sklearn.utils._param_validation import StrOptions, validate_params

__all__ = ["group_gap"]


@validate_params(
    {
        "scores": ["array-like"],
        "sensitive": ["array-like"],
        "groups": ["array-like", None],
        "statistic": [StrOptions({"abs_diff", "max_min", "ratio"})],
    },
    prefer_skip_nested_validation=True,
)
def group_gap(scores, sensitive, *, groups=None, statistic="abs_diff"):
    """Gap between group means of a per-instance explanation metric.

    With per-instance scores ``s_i`` of any metric (e.g. :func:`pgu`) and
    group labels ``g_i``: ``mu_G = mean{s_i : g_i = G}`` and
    ``SE_G = sd_G / sqrt(n_G)`` (``ddof=0``, SPEC 1.6).  NaN scores (undefined
    instances) are left out of their group.

    * ``"abs_diff"`` (two groups, OpenXAI's figures):
      ``|mu_{G1} - mu_{G2}|``;
    * ``"max_min"``: ``max_G mu_G - min_G mu_G``;
    * ``"ratio"``: ``min_G mu_G / max_G mu_G`` (1 = no disparity; needs
      positive means).

    Parameters
    ----------
    scores : array-like of shape (n_samples,)
        Per-instance metric values.
    sensitive : array-like of shape (n_samples,)
        Group label of each instance (e.g. sex).
    groups : array-like or None, default=None
        Groups to compare, in order; ``None`` uses every label of
        ``sensitive`` (sorted).  ``"abs_diff"`` needs exactly two.
    statistic : {"abs_diff", "max_min", "ratio"}, default="abs_diff"
        The disparity statistic.

    Returns
    -------
    result : Bunch
        ``gap`` (float; 0 means no disparity, except ``"ratio"`` where 1
        does), ``groups`` (labels), ``means``, ``standard_errors``,
        ``counts`` (arrays aligned with ``groups``) and ``p_value`` of a
        Welch t-test of equal means (between the two groups for
        ``"abs_diff"``, between the groups with the largest and the smallest
        mean otherwise; NaN with fewer than two scores in either group).

    Examples
    --------
    >>> from sklearn_xai.metrics import group_gap
    >>> r = group_gap([1.0, 2.0, 3.0, 5.0], ["m", "f", "m", "f"])
    >>> r.groups.tolist(), r.means.tolist(), float(r.gap)
    (['f', 'm'], [3.5, 2.0], 1.5)
    """
    s = np.asarray(scores, dtype=np.float64).ravel()
    g = np.asarray(sensitive).ravel()
    if s.shape != g.shape:
        raise ValueError(
            f"scores has {s.size} entries but sensitive has {g.size}; pass one group "
            "label per scored instance."
        )
    labels = np.unique(g) if groups is None else np.asarray(groups).ravel()
    if len(labels) < 2:
        raise ValueError(
            f"group_gap needs at least two groups; got {labels.tolist()}."
        )
    if statistic == "abs_diff" and len(labels) != 2:
        raise ValueError(
            f"statistic='abs_diff' compares exactly two groups; got {len(labels)} "
            f"({labels.tolist()}). Pass groups=[g1, g2] or statistic='max_min'."
        )
    members = [s[(g == label) & ~np.isnan(s)] for label in labels]
    empty = [label for label, m in zip(labels, members) if m.size == 0]
    if empty:
        raise ValueError(f"No (non-NaN) scores for group(s) {empty}.")
    means = np.array([m.mean() for m in members])
    ses = np.array([m.std() / np.sqrt(m.size) for m in members])
    counts = np.array([m.size for m in members])
    if statistic == "abs_diff":
        gap, (i, j) = abs(means[0] - means[1]), (0, 1)
    else:
        i, j = int(np.argmax(means)), int(np.argmin(means))
        if statistic == "max_min":
            gap = means[i] - means[j]
        else:
            if means[j] <= 0:
                raise ValueError(
                    "statistic='ratio' needs positive group means; use 'max_min'."
                )
            gap = means[j] / means[i]
    a, b = members[i], members[j]
    if a.size < 2 or b.size < 2:
        p_value = np.nan
    else:
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            p_value = float(stats.ttest_ind(a, b, equal_var=False).pvalue)
    return Bunch(gap=float(gap), groups=labels, means=means, standard_errors=ses,
                 counts=counts, p_value=p_value, statistic=statistic)
