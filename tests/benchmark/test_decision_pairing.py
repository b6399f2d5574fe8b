"""The decision tests pair scores on (seed, row) by key: the pairs, and so the
p-values, are those of a direct key-by-key join, whatever the order of the
table's rows, with missing and NaN scores."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_xai.benchmark import leaderboard, significance_vs_control


def _tables(seed):
    rng = np.random.default_rng(seed)
    per_row, table = [], []
    for e, explainer in enumerate(["control", "a", "b", "c"]):
        for s in range(3):
            rows = np.arange(15)
            values = rng.normal(loc=0.2 * e, size=rows.size)
            if explainer == "b":            # two rows never scored, one NaN
                rows, values = rows[2:], values[2:]
                values[4] = np.nan
            per_row.append(pd.DataFrame({"dataset": "d", "model": "m", "metric": "q",
                                         "explainer": explainer, "seed": s, "row": rows,
                                         "value": values}))
            table.append({"dataset": "d", "model": "m", "metric": "q", "explainer": explainer,
                          "seed": s, "value": np.nanmean(values), "greater_is_better": True,
                          "n_rows": rows.size, "status": "ok"})
    return pd.DataFrame(table), pd.concat(per_row, ignore_index=True)


def _direct_p(per_row, explainer, reference):
    """One-sided Wilcoxon p of explainer > reference on the (seed, row) keys
    both have, joined by a dictionary."""
    def scores(name):
        part = per_row[per_row["explainer"] == name]
        return {(s, r): v for s, r, v in zip(part["seed"], part["row"], part["value"])}
    x, y = scores(explainer), scores(reference)
    diff = np.array([x[k] - y[k] for k in sorted(set(x) & set(y))])
    diff = diff[~np.isnan(diff)]
    return stats.wilcoxon(diff, alternative="greater").pvalue, diff.size


@pytest.mark.parametrize("shuffle", [False, True])
def test_pairs_are_a_key_join_in_any_row_order(shuffle):
    table, per_row = _tables(0)
    if shuffle:
        per_row = per_row.sample(frac=1.0, random_state=1).reset_index(drop=True)
        table = table.sample(frac=1.0, random_state=2).reset_index(drop=True)
    sig = significance_vs_control(table, per_row, control="control").set_index("explainer")
    raw = {e: _direct_p(per_row, e, "control") for e in ["a", "b", "c"]}
    for explainer, (p, n) in raw.items():
        assert sig.loc[explainer, "n_pairs"] == n
        assert sig.loc[explainer, "paired_over"] == "rows"
        assert sig.loc[explainer, "p_value"] == pytest.approx(p, rel=1e-12)
    assert raw["b"][1] == 3 * (13 - 1)      # 2 rows missing and 1 NaN per seed
    # Holm over the three, by hand.
    order = sorted(raw, key=lambda e: raw[e][0])
    running, holm = 0.0, {}
    for i, e in enumerate(order):
        running = max(running, min(1.0, (3 - i) * raw[e][0]))
        holm[e] = running
    for e in raw:
        assert sig.loc[e, "p_holm"] == pytest.approx(holm[e], rel=1e-12)


def test_leaderboard_decisions_do_not_depend_on_row_order():
    table, per_row = _tables(3)
    board = leaderboard(table, per_row, control="control").set_index("explainer")
    shuffled = leaderboard(table, per_row.sample(frac=1.0, random_state=4),
                           control="control").set_index("explainer")
    for column in ["p_vs_best", "n_pairs", "tied_best"]:
        pd.testing.assert_series_equal(board[column], shuffled[column])
    # "Worse than the best (c)": Holm over a and b of the direct p-values.
    assert board["mean"].idxmax() == "c"
    p = {e: _direct_p(per_row, "c", e)[0] for e in ["a", "b"]}
    low, high = sorted(p, key=p.get)
    assert board.loc[low, "p_vs_best"] == pytest.approx(min(1.0, 2 * p[low]), rel=1e-12)
    assert board.loc[high, "p_vs_best"] == pytest.approx(
        max(min(1.0, 2 * p[low]), p[high]), rel=1e-12)


def test_duplicated_keys_are_refused():
    table, per_row = _tables(5)
    doubled = pd.concat([per_row, per_row.iloc[:1]], ignore_index=True)
    with pytest.raises(ValueError, match="unique per"):
        significance_vs_control(table, doubled, control="control")
