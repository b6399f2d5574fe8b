"""The ``neg_group_gap`` scorer: disparity of any per-row metric between the
groups of a sensitive attribute (OpenXAI fairness, SPEC 4.5)."""

import numpy as np
from sklearn.utils.metadata_routing import MetadataRequest

from sklearn_xai.metrics._scorer import ExplanationScorer, get_scorer

__all__ = ["GroupGapScorer"]


class GroupGapScorer:
    """Scorer of the gap of a metric between groups (greater is better: the
    negated gap, 0 = no disparity).

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
        from sklearn_xai.metrics._fairness import group_gap

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
