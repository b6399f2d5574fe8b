"""The registry of scorer names: one table of metrics, user scorers and
scorer factories."""

import numpy as np
import pytest

from sklearn_xai.metrics import (
    ROW_METADATA,
    ExplanationScorer,
    GroupGapScorer,
    MetricSpec,
    get_metric_spec,
    get_scorer,
    get_scorer_names,
    make_explanation_scorer,
    metric_specs,
    register_metric,
    register_scorer,
    unregister_metric,
)
from sklearn_xai.metrics import _registry


def _mean_magnitude(attributions):
    return np.abs(np.asarray(attributions, dtype=float)).mean(axis=1)


@pytest.fixture
def registered():
    """Names registered by a test, removed afterwards."""
    names = []
    yield names
    for name in names:
        _registry._NAMES.pop(name, None)


def test_unregister_metric_makes_a_name_unknown_again():
    spec = register_metric("neg_unregister_me", _mean_magnitude, kind="attributions",
                           greater_is_better=False)
    assert "neg_unregister_me" in get_scorer_names()
    assert unregister_metric("neg_unregister_me") is spec
    assert "neg_unregister_me" not in get_scorer_names()
    assert "neg_unregister_me" not in _registry._NAMES
    with pytest.raises(ValueError, match="not a registered explanation metric"):
        get_metric_spec("neg_unregister_me")
    with pytest.raises(ValueError, match="neg_unregister_me"):
        get_scorer("neg_unregister_me")
    # The name is free again: registering it needs no replace=True.
    again = register_metric("neg_unregister_me", lambda a: np.zeros(len(a)),
                            kind="attributions", greater_is_better=False)
    assert unregister_metric("neg_unregister_me") is again


def test_unregister_metric_removes_user_scorers_too():
    scorer = make_explanation_scorer(_mean_magnitude, kind="attributions")
    register_scorer("user_magnitude", scorer)
    assert unregister_metric("user_magnitude") is scorer
    assert "user_magnitude" not in get_scorer_names()


@pytest.mark.parametrize("name", ["never_registered", None, 3])
def test_unregister_metric_of_an_unknown_name_says_how_to_fix_it(name):
    before = get_scorer_names()
    with pytest.raises(ValueError, match=r"not a registered scorer name.*"
                                         r"get_scorer_names\(\)"):
        unregister_metric(name)
    assert get_scorer_names() == before


def test_one_table_holds_every_name():
    names = get_scorer_names()
    assert names == sorted(_registry._NAMES)
    metrics = {spec.name for spec in metric_specs()}
    assert metrics < set(names)
    # neg_group_gap is a scorer factory in the same table, not a metric.
    assert "neg_group_gap" in names and "neg_group_gap" not in metrics
    assert isinstance(get_scorer("neg_group_gap", metric="pgi"), GroupGapScorer)
    with pytest.raises(ValueError, match="not a registered explanation metric"):
        get_metric_spec("neg_group_gap")


def test_names_are_taken_once(registered):
    with pytest.raises(ValueError, match="already exists"):
        register_scorer("neg_group_gap", len)
    with pytest.raises(ValueError, match="already exists"):
        register_scorer("pgi", len)
    register_scorer("my_len_scorer", len)
    registered.append("my_len_scorer")
    with pytest.raises(ValueError, match="already registered"):
        register_metric("my_len_scorer", _mean_magnitude, kind="attributions",
                        greater_is_better=True)


def test_get_scorer_copies_registered_scorers(registered):
    scorer = make_explanation_scorer("feature_agreement", k=2)
    register_scorer("fa_top2", scorer)
    registered.append("fa_top2")
    first, second = get_scorer("fa_top2"), get_scorer("fa_top2")
    assert isinstance(first, ExplanationScorer) and first is not second
    first.set_score_request(ground_truth=False)
    requests = second.get_metadata_routing().score.requests
    assert requests["ground_truth"] is True
    assert scorer.get_metadata_routing().score.requests["ground_truth"] is True


def test_register_metric_makes_a_scorer_name(registered):
    spec = register_metric("neg_mean_magnitude_test", _mean_magnitude,
                           kind="attributions", greater_is_better=False,
                           source="test")
    registered.append(spec.name)
    assert get_metric_spec("neg_mean_magnitude_test") is spec
    assert "neg_mean_magnitude_test" in get_scorer_names()
    scorer = get_scorer("neg_mean_magnitude_test")
    assert scorer.score_attributions(None, np.zeros((1, 2)),
                                     [[1.0, -3.0]]).tolist() == [2.0]


def test_requires_are_checked_and_kept_in_one_order():
    spec = MetricSpec("m", _mean_magnitude, "attributions", True,
                      requires=("random_state", "ground_truth", "masker"))
    assert spec.requires == ("ground_truth", "masker", "random_state")
    assert spec.metadata == ("ground_truth",)
    assert set(spec.metadata) <= set(ROW_METADATA)
    with pytest.raises(ValueError, match="Unknown requirements"):
        MetricSpec("m", _mean_magnitude, "attributions", True, requires=("X_train",))
    with pytest.raises(ValueError, match="neg_"):
        MetricSpec("m", _mean_magnitude, "attributions", False)


