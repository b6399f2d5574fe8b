"""Disparity of an explanation metric across groups (OpenXAI; definition in
the user guide, :ref:`def-group-gap`).

:func:`group_gap` compares the group means of any per-row scores;
:class:`GroupGapScorer`, the ``neg_group_gap`` scorer, computes the per-row
scores of a wrapped metric and returns their negated gap.
"""

import warnings

import numpy as np
from scipy import stats
from sklearn.utils import Bunch
from sklearn.utils.metadata_routing import MetadataRequest

from sklearn_xai.metrics._registry import _register_scorer
from sklearn_xai.metrics._scorer import ExplanationScorer, get_scorer
from sklearn_xai.metrics._shared_docs import _references
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._sklearn import StrOptions, validate_params

__all__ = ["GroupGapScorer", "group_gap"]


@validate_params(
    {
        "scores": ["array-like"],
        "sensitive": ["array-like"],
        "groups": ["array-like", None],
        "statistic": [StrOptions({"abs_diff", "max_min", "ratio"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(metric_references=_references("agarwal2022"))
def group_gap(scores, sensitive, *, groups=None, statistic="abs_diff"):
    """Gap between group means of a per-instance explanation metric.

    With per-instance scores ``s_i`` of any metric (e.g. :func:`pgu`) and
    group labels ``g_i``: ``mu_G = mean{s_i : g_i = G}`` and
    ``SE_G = sd_G / sqrt(n_G)`` (``ddof=0``, as OpenXAI prints).  NaN scores
    (undefined instances) are left out of their group.  See
    :ref:`def-group-gap` in the user guide.

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

    {metric_references}

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


@Substitution(metric_references=_references("agarwal2022"))
class GroupGapScorer:
    """Scorer of the gap of a metric between groups (greater is better: the
    negated gap, 0 = no disparity).

    The ``neg_group_gap`` scorer name: ``get_scorer("neg_group_gap",
    metric="pgi", ...)`` builds one.

    Parameters
    ----------
    metric : str, default="pgi"
        Name of a per-row explanation scorer (see
        :func:`~sklearn_xai.metrics.get_scorer_names`).
    statistic : {"abs_diff", "max_min", "ratio"}, default="abs_diff"
        How group means are compared (see
        :func:`~sklearn_xai.metrics.group_gap`).  For ``"ratio"`` (min/max,
        1 = parity) the scorer returns ``ratio - 1``.
    groups : list, default=None
        Groups to compare (default: all groups present).
    **metric_kwargs : dict
        Bound arguments of the wrapped metric.

    Notes
    -----
    ``sensitive`` (one group label per row) is routed as metadata like
    ``ground_truth``; the wrapped metric's own metadata is routed too.

    {metric_references}

    Examples
    --------
    >>> from sklearn_xai.metrics import get_scorer
    >>> get_scorer("neg_group_gap", metric="feature_agreement", k=2)
    GroupGapScorer(metric='feature_agreement', statistic='abs_diff')
    """

    def __init__(self, metric="pgi", *, statistic="abs_diff", groups=None, **metric_kwargs):
        inner = get_scorer(metric, **metric_kwargs)
        if not isinstance(inner, ExplanationScorer) or not inner.metric.per_instance:
            raise ValueError(
                f"neg_group_gap needs a per-row explanation metric; {metric!r} is not "
                "one (dataset-level metrics such as neg_auc_tp have no per-row "
                "scores to split by group)."
            )
        self.inner = inner
        self.statistic = statistic
        self.groups = groups
        self._request = MetadataRequest(owner=type(self).__name__)
        for param in set(inner.metric.metadata) | {"sensitive"}:
            self._request.score.add_request(param=param, alias=True)

    def get_metadata_routing(self):
        """Metadata consumed: ``sensitive`` plus the wrapped metric's."""
        return self._request

    def set_score_request(self, **kwargs):
        """Change which metadata is requested; returns self."""
        for param, alias in kwargs.items():
            self._request.score.add_request(param=param, alias=alias)
        return self

    def group_report(self, estimator, X, y=None, **metadata):
        """Full result of :func:`~sklearn_xai.metrics.group_gap` (group means,
        standard errors, counts, gap and Welch p-value)."""
        sensitive = metadata.pop("sensitive", None)
        if sensitive is None:
            raise ValueError(
                "neg_group_gap needs sensitive (one group label per row): pass "
                "fit(X, y, sensitive=...) with metadata routing enabled, or call "
                "scorer(estimator, X, y, sensitive=...)."
            )
        scores = self.inner.per_row(estimator, X, y, **metadata)
        sensitive = np.asarray(sensitive)
        if len(sensitive) != len(scores):
            raise ValueError(
                f"sensitive has {len(sensitive)} rows but X has {len(scores)}."
            )
        return group_gap(scores, sensitive, groups=self.groups, statistic=self.statistic)

    def __call__(self, estimator, X, y=None, **metadata):
        report = self.group_report(estimator, X, y, **metadata)
        gap = float(report.gap)
        return gap - 1.0 if self.statistic == "ratio" else -gap

    def __repr__(self):
        return f"GroupGapScorer(metric={self.inner.metric.name!r}, statistic={self.statistic!r})"


_register_scorer(
    "neg_group_gap", factory=GroupGapScorer,
    description="Negated gap of a per-row metric between the groups of sensitive.",
)
