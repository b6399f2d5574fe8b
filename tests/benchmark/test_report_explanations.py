"""compare's report: the pictures of the chosen explainer, a readable summary,
leaderboard tables that fit the page, and progress lines."""

import html
import html.parser
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_xai.benchmark import (
    BenchmarkResults,
    applicable_metrics,
    chosen_explainer,
    explanation_figures,
    write_report,
)
from sklearn_xai.benchmark import _explanation_figures as figures_module
from sklearn_xai.benchmark._report import MAX_TABLE_METRICS, short_description
from sklearn_xai.explainers import FeatureAblation

PNG = b"\x89PNG\r\n\x1a\n"
N_ROWS, N_FEATURES = 12, 5
WEIGHTS = np.array([3.0, -1.0, 0.5, 2.0, -0.25])


@pytest.fixture(autouse=True)
def _agg():
    import matplotlib

    matplotlib.use("Agg")


def _linear(names=None):
    """A linear model with known weights, rows to explain and training rows."""
    rng = np.random.default_rng(0)
    X_train = rng.normal(size=(40, N_FEATURES))
    X = rng.normal(size=(N_ROWS, N_FEATURES))
    model = LinearRegression().fit(X_train, X_train @ WEIGHTS + 1.0)
    if names is not None:
        X_train, X = pd.DataFrame(X_train, columns=names), pd.DataFrame(X, columns=names)
    return model, X, X_train


def _section(folder, names=None, capture=None, monkeypatch=None, **kw):
    """explanation_figures of FeatureAblation (zero baseline: a_ij = w_j x_ij
    for a linear model), the figures kept in ``capture`` when given."""
    model, X, X_train = _linear(names)
    if capture is not None:
        original = figures_module._png

        def keep(fig):
            capture.append(fig)
            return original(fig)

        monkeypatch.setattr(figures_module, "_png", keep)
    section = explanation_figures(
        "ablation", model, X, folder, X_train=X_train,
        explainers={"ablation": FeatureAblation()}, **kw)
    return section, model, X


def test_figures_are_pngs_inside_the_folder(tmp_path):
    folder = tmp_path / "results"
    section, _, X = _section(folder)
    paths = section["paths"]
    assert set(paths) == {"figure_explanation_beeswarm", "figure_explanation_mean_abs",
                          "figure_explanation_waterfall", "attributions"}
    root = folder.resolve()
    for key, path in paths.items():
        path = Path(path).resolve()
        assert root in path.parents, key
        if key.startswith("figure_"):
            assert path.read_bytes().startswith(PNG), key
    # The attribution matrix, against the closed form w_j * x_ij.
    written = pd.read_csv(paths["attributions"], index_col="row")
    assert list(written.columns) == [f"x{j}" for j in range(N_FEATURES)]
    np.testing.assert_allclose(written.to_numpy(), X * WEIGHTS, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(section["attributions"], X * WEIGHTS, atol=1e-12)
    assert section["explainer"] == "ablation"


def test_figures_structure(tmp_path, monkeypatch):
    """The bar chart has one bar per feature in decreasing mean |w_j x_ij|
    (computed here from the weights), the beeswarm one point per row and
    feature, the waterfall the first row's attributions."""
    names = ["age", "bmi", "bp", "s1", "s2"]
    figs = []
    _, _, X = _section(tmp_path, names=names, capture=figs, monkeypatch=monkeypatch)
    beeswarm, bar, waterfall = figs
    expected = np.abs(X.to_numpy() * WEIGHTS).mean(axis=0)
    order = np.argsort(-expected)

    ax = bar.axes[0]
    widths = [patch.get_width() for patch in ax.patches]
    np.testing.assert_allclose(widths, expected[order])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [names[j] for j in order]

    ax = beeswarm.axes[0]
    offsets = [c.get_offsets() for c in ax.collections]
    assert len(offsets) == N_FEATURES
    assert sum(len(o) for o in offsets) == N_ROWS * N_FEATURES
    # Line by line (top first), the points sit at that feature's attributions.
    for points, j in zip(offsets, order):
        np.testing.assert_allclose(np.sort(points[:, 0]),
                                   np.sort(X.to_numpy()[:, j] * WEIGHTS[j]))

    ax = waterfall.axes[0]
    steps = sorted(p.get_width() for p in ax.patches)
    np.testing.assert_allclose(steps, np.sort(X.to_numpy()[0] * WEIGHTS))


def test_escaping_of_feature_names(tmp_path):
    names = ["<script>alert(1)</script>", '=HYPERLINK("http://x")', "a|b", "@sum", "ok"]
    section, _, _ = _section(tmp_path, names=names)
    page = section["html"]
    assert "<script" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    header = Path(section["paths"]["attributions"]).read_text().splitlines()[0]
    cells = list(pd.read_csv(section["paths"]["attributions"], nrows=0).columns)
    assert cells[0] == "row"
    # Labels a spreadsheet would read as formulas start with an apostrophe.
    assert cells[2] == "'=HYPERLINK(\"http://x\")" and cells[4] == "'@sum"
    assert cells[1] == "<script>alert(1)</script>" and cells[5] == "ok"
    assert not re.search(r'(^|,)"?[=@+-]', header)
    md = section["markdown"]
    assert "<script" not in md and "a\\|b" in md


def _board_results(n_faithfulness=19, spec_models=None):
    """Results of 3 explainers and a random control on many faithfulness
    metrics (the registered ones), each explainer better by a fixed step."""
    metrics = [m for m in applicable_metrics(families=("faithfulness",))][:n_faithfulness]
    assert len(metrics) == n_faithfulness
    rng = np.random.default_rng(0)
    rows = []
    for explainer in ["random", "weak", "best", "middle"]:
        quality = {"random": 0.0, "weak": 0.2, "middle": 0.5, "best": 0.9}[explainer]
        for metric in metrics:
            better = not metric.startswith("neg_")
            for seed in (0, 1, 2):
                value = quality + rng.normal(0, 0.01)
                rows.append({
                    "dataset": "data", "model": "m", "explainer": explainer,
                    "metric": metric, "metric_name": metric, "seed": seed,
                    "value": value if better else -value, "greater_is_better": better,
                    "se": 0.01, "n_rows": 10, "n_nan": 0, "explain_time": 0.01,
                    "metric_time": 0.001, "n_evaluations": 10, "model_score": 0.9,
                    "status": "ok", "error": "", "failed_in": "", "warnings": "",
                    "cached": False})
    spec = {"name": "compare_explainers",
            "datasets": {"data": {"name": "the given rows (40 training + 12 held-out, "
                                  "5 features)"}},
            "models": spec_models or {"m": {"name": "m"}},
            "explainers": {e: {"name": "FeatureAblation"}
                           for e in ["random", "weak", "best", "middle"]},
            "seeds": [0, 1, 2], "n_explain": 10}
    return BenchmarkResults(pd.DataFrame(rows), spec=spec, control="random"), metrics


def test_chosen_explainer_is_the_best_mean_rank_never_the_control():
    results, _ = _board_results(n_faithfulness=4)
    assert chosen_explainer(results) == "best"
    assert chosen_explainer(results, reliability=False) == "best"
    summary = pd.DataFrame({"dataset": "d", "model": "m",
                            "explainer": ["random", "b", "a"], "mean_rank": [1.0, 2.5, 1.5]})
    assert chosen_explainer(summary, control="random") == "a"
    with pytest.raises(ValueError, match="besides the control"):
        chosen_explainer(summary.iloc[:1], control="random")


class _Tables(html.parser.HTMLParser):
    """Per <table>: its class and the number of header cells of its first row."""

    def __init__(self):
        super().__init__()
        self.tables, self.ids = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "table":
            self.tables.append({"class": attrs.get("class", ""), "columns": 0, "rows": 0})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"] += 1
        elif tag == "th" and self.tables and self.tables[-1]["rows"] == 1:
            self.tables[-1]["columns"] += 1


def test_wide_family_is_split_into_tables_that_fit(tmp_path):
    results, metrics = _board_results()
    paths = write_report(results, tmp_path, figures=False, reliability=False)
    page = Path(paths["report_html"]).read_text(encoding="utf-8")
    parser = _Tables()
    parser.feed(page)
    boards = [t for t in parser.tables if t["class"] == "board"]
    assert len(boards) == 3  # 19 metrics: 7 + 6 + 6
    assert all(t["columns"] <= MAX_TABLE_METRICS + 1 for t in boards)
    assert sum(t["columns"] - 1 for t in boards) == len(metrics)
    md = Path(paths["report_md"]).read_text(encoding="utf-8")
    headers = [line for line in md.splitlines()
               if line.startswith("|") and "explainer" not in line
               and any(m.removeprefix("neg_") in line for m in metrics)]
    widths = [line.count(" | ") for line in headers]
    assert widths and max(widths) <= MAX_TABLE_METRICS
    for metric in metrics:  # every metric still shown, in both pages
        assert metric.removeprefix("neg_") in md


def test_explanations_follow_the_decision(tmp_path):
    results, _ = _board_results(n_faithfulness=3)
    section, _, _ = _section(tmp_path)
    paths = write_report(results, tmp_path, figures=False, reliability=False,
                         explanations=section)
    page = Path(paths["report_html"]).read_text(encoding="utf-8")
    parser = _Tables()
    parser.feed(page)
    ids = parser.ids
    assert ids.index("decision") < ids.index("explanations") < ids.index("leaderboards")
    assert 'href="#explanations"' in page
    assert paths["attributions"] == section["paths"]["attributions"]
    md = Path(paths["report_md"]).read_text(encoding="utf-8")
    assert md.index("## Decision") < md.index("## Explanations") < md.index("Faithfulness")
    assert "](figures/explanation_beeswarm.png)" in md
    with pytest.raises(ValueError, match="explanation_figures"):
        write_report(results, tmp_path, figures=False, reliability=False,
                     explanations={"html": "x"})


def _models_line(folder, models):
    results, _ = _board_results(n_faithfulness=3, spec_models=models)
    paths = write_report(results, folder, figures=False, reliability=False)
    page = Path(paths["report_html"]).read_text(encoding="utf-8")
    line = re.search(r"<dt>Models</dt><dd>(.*?)</dd>", page, re.S).group(1)
    return html.unescape(re.sub(r"<[^>]+>", "", line))


def test_summary_names_the_model_in_one_short_line(tmp_path):
    xgboost = pytest.importorskip("xgboost")
    model = FrozenEstimator(xgboost.XGBClassifier(n_estimators=50, max_depth=3))
    assert len(repr(model)) > 800  # the full repr: every parameter
    line = _models_line(tmp_path / "a", {"XGBClassifier": {"name": repr(model)}})
    assert line == "XGBClassifier (XGBClassifier(max_depth=3, n_estimators=50))"
    pipe = FrozenEstimator(make_pipeline(StandardScaler(),
                                         LogisticRegression(C=0.5, max_iter=500)))
    line = _models_line(tmp_path / "b", {"LogisticRegression": {"name": repr(pipe)}})
    assert line == ("LogisticRegression (Pipeline(StandardScaler → "
                    "LogisticRegression(C=0.5, max_iter=500)))")
    assert "\n" not in line and len(line) < 130


def test_short_description_without_the_class_and_of_plain_text():
    # Unknown class: None values (defaults of most libraries) are dropped,
    # at most 3 parameters are kept.
    text = "MyModel(a=None, b=2, c='x', d=1.5, e=[1, 2], f=None, ...)"
    assert short_description(text) == "MyModel(b=2, c='x', d=1.5, …)"
    assert short_description("xgboost") == "xgboost"
    assert short_description("the given rows (4 training)") == "the given rows (4 training)"
    assert short_description("a\nb" * 100).count("\n") == 0
    assert len(short_description("x" * 500)) == 120
    assert short_description("<b>(1)</b>") == "<b>(1)</b>"  # escaped by the page
    # A received benchmark.json: deep nesting is one bounded line, never run.
    assert len(short_description("A(" * 5000 + ")" * 5000)) <= 120
    assert short_description("A(b=" * 90 + "1" + ")" * 90) == "A(b=A)"


def test_summary_escapes_a_hostile_model_name(tmp_path):
    line = _models_line(tmp_path, {"m": {"name": "Evil(a='<script>x</script>')"}})
    results, _ = _board_results(n_faithfulness=3,
                                spec_models={"m": {"name": "<script>x</script>"}})
    page = Path(write_report(results, tmp_path, figures=False,
                             reliability=False)["report_html"]).read_text()
    assert "<script" not in page
    assert "<script>" in line  # shown as text


def test_verbose_prints_one_line_per_stage(tmp_path, capsys):
    results, _ = _board_results(n_faithfulness=2)
    write_report(results, tmp_path / "quiet", reliability=False)
    assert capsys.readouterr().err == ""
    write_report(results, tmp_path / "loud", reliability=False, verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert all(line.startswith("report: ") for line in lines)
    assert "report: leaderboard" in lines and "report: decision" in lines
    # One figure per family (here one), rendered once.
    assert [line for line in lines if "figures" in line] == ["report: figures 1/1"]
    assert lines[-1] == "report: writing report.html and report.md"


def test_bar_values_stay_inside_the_axes():
    """The value written after the longest bar is inside the axes (it ran
    over the right frame)."""
    import matplotlib.pyplot as plt

    from sklearn_xai.plotting import MeanAbsAttributionDisplay

    _, ax = plt.subplots(figsize=(3, 2))  # a narrow axes, as in the report
    MeanAbsAttributionDisplay.from_attributions([[1.93, -0.2], [-1.93, 0.5]], ax=ax)
    ax.figure.canvas.draw()
    frame = ax.get_window_extent()
    for text in ax.texts:
        assert text.get_window_extent().x1 <= frame.x1
    assert ax.get_xlim()[0] == 0.0
