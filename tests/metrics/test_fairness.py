import numpy as np
import pytest
from scipy import stats

from sklearn_xai.metrics._fairness import group_gap
from sklearn_xai.metrics._registry import metric_specs


def test_two_groups_hand_case():
    scores = [1.0, 2.0, 3.0, 5.0, 4.0, 6.0]
    sensitive = ["m", "f", "m", "f", "m", "f"]
    r = group_gap(scores, sensitive)
    assert r.groups.tolist() == ["f", "m"]
    np.testing.assert_allclose(r.means, [13 / 3, 8 / 3])
    np.testing.assert_allclose(r.counts, [3, 3])
    # SE with ddof=0: sd([2, 5, 6]) / sqrt(3)
    sd_f = np.sqrt(((2 - 13 / 3) ** 2 + (5 - 13 / 3) ** 2 + (6 - 13 / 3) ** 2) / 3)
    assert r.standard_errors[0] == pytest.approx(sd_f / np.sqrt(3))
    assert r.gap == pytest.approx(5 / 3)
    # Welch's t-test, computed from its formula (sample variances, ddof=1)
    a, b = np.array([2.0, 5.0, 6.0]), np.array([1.0, 3.0, 4.0])
    va, vb = a.var(ddof=1) / 3, b.var(ddof=1) / 3
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    dof = (va + vb) ** 2 / (va**2 / 2 + vb**2 / 2)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(t), dof))


def test_several_groups_max_min_and_ratio():
    scores = np.array([1.0, 1.0, 2.0, 4.0, 3.0, 3.0])
    sensitive = np.array([0, 0, 1, 1, 2, 2])
    r = group_gap(scores, sensitive, statistic="max_min")
    np.testing.assert_allclose(r.means, [1.0, 3.0, 3.0])
    assert r.gap == pytest.approx(2.0)
    assert group_gap(scores, sensitive, statistic="ratio").gap == pytest.approx(1 / 3)
    sub = group_gap(scores, sensitive, groups=[2, 0])
    assert sub.groups.tolist() == [2, 0] and sub.gap == pytest.approx(2.0)


def test_equal_groups_have_no_gap_and_nan_scores_are_left_out():
    r = group_gap([1.0, 2.0, np.nan, 1.0, 2.0], ["a", "a", "a", "b", "b"])
    assert r.gap == 0.0 and r.counts.tolist() == [2, 2]
    assert r.p_value == pytest.approx(1.0)


def test_p_value_nan_with_singletons():
    assert np.isnan(group_gap([1.0, 2.0], ["a", "b"]).p_value)


@pytest.mark.parametrize(
    "kwargs, match",
    [({"scores": [1.0, 2.0], "sensitive": ["a"]}, "one group label"),
     ({"scores": [1.0, 2.0], "sensitive": ["a", "a"]}, "at least two groups"),
     ({"scores": [1.0, 2.0, 3.0], "sensitive": ["a", "b", "c"]}, "exactly two"),
     ({"scores": [1.0, 2.0], "sensitive": ["a", "b"], "groups": ["a", "z"]},
      "group"),
     ({"scores": [-1.0, 2.0], "sensitive": ["a", "b"], "statistic": "ratio"},
      "positive")],
)
def test_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        group_gap(**kwargs)


def test_not_registered_as_a_plain_metric():
    assert all(spec.func is not group_gap for spec in metric_specs())
