"""Labels written into the results' CSV files are never spreadsheet formulas,
and read back exactly (CSV injection)."""

import csv

import numpy as np
import pandas as pd
import pytest

from sklearn_xai.benchmark import BenchmarkResults
from sklearn_xai.utils._files import csv_frame_text, read_csv_frame

# Labels a spreadsheet would evaluate, or that look like an escaped one.
HOSTILE = ["=1+2", "+cmd|' /C calc'!A0", "-2+3+cmd", "@SUM(A1:A9)", "\t=x", "\r=x",
           "'quoted", "''twice", "=HYPERLINK(\"http://x\",\"y\")", "a,b\nc", "-"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def _results():
    """Two explainers with hostile labels (and a plain one), a hostile metric
    and model name, negative scores."""
    explainers = [HOSTILE[0], HOSTILE[1], "plain"]
    metrics = [HOSTILE[3], "neg_x"]
    rows, per_row = [], []
    rng = np.random.default_rng(0)
    for m, metric in enumerate(metrics):
        for e, explainer in enumerate(explainers):
            for seed in range(2):
                value = -1.5 - e + 0.1 * seed - m
                rows.append({"dataset": HOSTILE[6], "model": HOSTILE[2],
                             "explainer": explainer, "metric": metric, "seed": seed,
                             "value": value, "greater_is_better": True, "se": 0.1,
                             "explain_time": 1.0, "metric_time": 0.5, "n_evaluations": 10,
                             "n_rows": 6, "status": "ok",
                             "error": HOSTILE[4 + seed] if e == 2 else ""})
                per_row.append(pd.DataFrame({
                    "dataset": HOSTILE[6], "model": HOSTILE[2], "explainer": explainer,
                    "metric": metric, "seed": seed, "row": np.arange(6),
                    "value": value + 0.1 * rng.normal(size=6)}))
    return pd.DataFrame(rows), pd.concat(per_row, ignore_index=True)


def _cells(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_hostile_labels_round_trip_and_are_never_formulas(tmp_path):
    table, per_row = _results()
    BenchmarkResults(table, per_row, control="plain").save(tmp_path)
    for name in ("results.csv", "per_row.csv", "leaderboard.csv"):
        cells = _cells(tmp_path / name)
        header = cells[0]
        for row in cells:
            for column, cell in zip(header, row):
                # A cell starting like a formula is a plain number (a negative
                # score), never text a spreadsheet would evaluate.
                if cell.startswith(FORMULA_START):
                    assert _is_number(cell), (name, column, cell)
        # The hostile labels are there, each behind one apostrophe.
        text = sum(cells[1:], [])
        assert "'=1+2" in text and "'@SUM(A1:A9)" in text and "''quoted" in text
        assert "=1+2" not in text
    loaded = BenchmarkResults.load(tmp_path)
    # The exact labels back, numbers as numbers.
    for column in ("dataset", "model", "explainer", "metric", "error"):
        assert loaded.table[column].tolist() == table[column].tolist(), column
    assert loaded.table["value"].dtype == np.float64
    np.testing.assert_array_equal(loaded.table["value"], table["value"])
    assert (loaded.table["value"] < 0).all()
    for column in ("dataset", "model", "explainer", "metric"):
        assert loaded.per_row[column].tolist() == per_row[column].tolist(), column
    np.testing.assert_allclose(loaded.per_row["value"], per_row["value"], rtol=1e-15)
    # The leaderboard of the loaded results names the same explainers.
    assert set(loaded.leaderboard()["explainer"]) == set(table["explainer"])


@pytest.mark.parametrize("label", HOSTILE + ["plain", "", "-0.5", "+3", "1e-3", "-x"])
def test_csv_frame_text_is_inverted_by_read_csv_frame(tmp_path, label):
    frame = pd.DataFrame({"label": [label, "other"], "score": [-2.5, 1.0],
                          label or "empty": ["x", label]})
    path = tmp_path / "f.csv"
    path.write_text(csv_frame_text(frame))
    back = read_csv_frame(path, dtype={"label": object}, keep_default_na=False)
    assert list(back.columns) == list(frame.columns)
    assert back["label"].tolist() == [label, "other"]
    assert back["score"].tolist() == [-2.5, 1.0]
    for row in _cells(path)[1:]:
        assert row[1] in ("-2.5", "1.0")  # numbers written as numbers
        # A plain number stays one; anything else starting like a formula is
        # escaped.
        assert not row[0].startswith(FORMULA_START) or _is_number(row[0])
    # The input is not modified.
    assert frame["label"].tolist() == [label, "other"]
