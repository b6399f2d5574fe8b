"""The displays draw what they are given: values read back from the artists
are compared with the attributions computed directly."""

import ast
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from sklearn.frozen import FrozenEstimator  # noqa: E402
from sklearn.linear_model import LinearRegression, LogisticRegression  # noqa: E402

import sklearn_xai.plotting  # noqa: E402
from sklearn_xai.explainers import ExactShapley, RandomExplainer  # noqa: E402
from sklearn_xai.masking import BaselineMasker  # noqa: E402
from sklearn_xai.plotting import (  # noqa: E402
    BeeswarmDisplay,
    ImageOverlayDisplay,
    MeanAbsAttributionDisplay,
    WaterfallDisplay,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def linear():
    """A linear model on 5 features, its data and exact Shapley values with
    the mean baseline: ``coef * (x - mean)``, base ``f(mean)``."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(40, 5)), columns=list("abcde"))
    coef = np.array([3.0, -2.0, 0.5, 0.0, 1.0])
    y = X.to_numpy() @ coef + 4.0
    model = LinearRegression().fit(X, y)
    explainer = ExactShapley(FrozenEstimator(model),
                             masker=BaselineMasker("mean")).fit(X)
    return X, model, explainer


def _widths(bars):
    return np.array([bar.get_width() for bar in bars])


# ------------------------------------------------------------------ waterfall
def test_waterfall_bars_are_the_sorted_attributions_ending_at_base_plus_sum():
    a = np.array([0.3, -2.0, 0.05, 1.5, -0.4, 0.1, -0.02])
    x = np.array([1, 2, 3, 4, 5, 6, 7.5])
    disp = WaterfallDisplay.from_attributions(a, x, base_value=10.0, max_display=4)
    # Top to bottom: -2.0, 1.5, -0.4, 0.3, then the 3 others summed.
    np.testing.assert_array_equal(disp.order_, [1, 3, 4, 0])
    np.testing.assert_allclose(_widths(disp.bars_), [-2.0, 1.5, -0.4, 0.3, 0.13])
    # The bottom bar starts at the base value, each bar starts where the one
    # below ends, and the top one ends at base + sum.
    starts = np.array([bar.get_x() for bar in disp.bars_])
    ends = starts + _widths(disp.bars_)
    assert starts[-1] == pytest.approx(10.0)
    np.testing.assert_allclose(starts[:-1], ends[1:])
    assert ends[0] == pytest.approx(10.0 + a.sum())
    assert disp.end_value_ == pytest.approx(10.0 + a.sum())
    assert disp.end_line_.get_xdata()[0] == pytest.approx(10.0 + a.sum())
    # Bars are stacked top to bottom in that order.
    ys = [bar.get_y() for bar in disp.bars_]
    assert ys == sorted(ys, reverse=True)
    labels = [t.get_text() for t in disp.ax_.get_yticklabels()]
    assert labels == ["x1 = 2", "x3 = 4", "x4 = 5", "x0 = 1", "3 other features"]


def test_waterfall_without_base_value_starts_at_zero():
    a = np.array([[1.0, -3.0, 0.5], [9.0, 9.0, 9.0]])
    disp = WaterfallDisplay.from_attributions(a, row=0)
    assert disp.bars_[-1].get_x() == 0.0
    assert disp.end_value_ == pytest.approx(-1.5)
    assert disp.base_line_.get_xdata()[0] == 0.0
    assert len(disp.bars_) == 3  # nothing grouped under max_display


def test_waterfall_from_explainer_starts_at_the_empty_coalition(linear):
    X, model, explainer = linear
    disp = WaterfallDisplay.from_explainer(explainer, X, row=3)
    x = X.to_numpy()[3]
    mean = X.to_numpy().mean(axis=0)
    # Shapley values of a linear model with the mean baseline, in closed form.
    phi = model.coef_ * (x - mean)
    np.testing.assert_allclose(disp.attributions, phi, atol=1e-10)
    f_mean = model.predict(pd.DataFrame(mean[None, :], columns=X.columns))[0]
    assert disp.base_value == pytest.approx(f_mean)
    assert disp.end_value_ == pytest.approx(model.predict(X.iloc[[3]])[0])
    assert disp.ax_.get_yticklabels()[0].get_text().startswith("a = ")
    # The same display from the explainer's attributions.
    direct = WaterfallDisplay.from_attributions(
        explainer.transform(X), X, row=3, base_value=disp.base_value)
    np.testing.assert_allclose(_widths(disp.bars_), _widths(direct.bars_),
                               rtol=1e-12)


def test_waterfall_auto_base_follows_the_explained_class():
    """For a classifier, the waterfall ends at the probability of the class
    the explainer explains (the predicted one) and starts at that class's
    probability at the baseline (the empty coalition of the mean masker)."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] - X[:, 1] > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    explainer = ExactShapley(FrozenEstimator(model),
                             masker=BaselineMasker("mean")).fit(X)
    for row in (0, 1, 2):
        disp = WaterfallDisplay.from_explainer(explainer, X, row=row)
        proba = model.predict_proba(X[[row]])[0]
        k = int(np.argmax(proba))
        assert disp.end_value_ == pytest.approx(proba[k])
        base = model.predict_proba(X.mean(axis=0)[None, :])[0, k]
        assert disp.base_value == pytest.approx(base)


def test_waterfall_auto_base_is_none_for_non_efficient_explainers(linear):
    X, model, _ = linear
    explainer = RandomExplainer(random_state=0).fit(X)
    disp = WaterfallDisplay.from_explainer(explainer, X, row=1)
    assert disp.base_value is None
    assert disp.bars_[-1].get_x() == 0.0


# ------------------------------------------------------------------- beeswarm
def test_beeswarm_points_are_the_attributions_coloured_by_value():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 4))
    A = X * np.array([0.1, 3.0, -1.0, 0.5])
    disp = BeeswarmDisplay.from_attributions(A, X, max_display=3)
    order = np.argsort(-np.abs(A).mean(axis=0))[:3]
    np.testing.assert_array_equal(disp.order_, order)
    assert [t.get_text() for t in disp.ax_.get_yticklabels()] == [
        f"x{j}" for j in order]
    for line, (j, collection) in enumerate(zip(order, disp.collections_)):
        offsets = collection.get_offsets()
        np.testing.assert_array_equal(offsets[:, 0], A[:, j])
        centre = len(order) - 1 - line
        assert np.all(np.abs(offsets[:, 1] - centre) <= 0.4)
        # Colour values rise with the feature value, from 0 to 1.
        colour = np.asarray(collection.get_array())
        by_value = np.argsort(X[:, j])
        assert np.all(np.diff(colour[by_value]) >= 0)
        lo, hi = np.percentile(X[:, j], [5, 95])
        np.testing.assert_allclose(colour, np.clip((X[:, j] - lo) / (hi - lo), 0, 1))
    # The colorbar maps the scaled values 0..1, labelled low -> high.
    assert (disp.colorbar_.vmin, disp.colorbar_.vmax) == (0.0, 1.0)
    assert [t.get_text() for t in disp.colorbar_.ax.get_yticklabels()] == ["low", "high"]
    assert disp.colorbar_.ax.get_ylabel() == "feature value"


def test_beeswarm_jitter_is_seeded_and_leaves_the_global_rng_alone():
    rng = np.random.default_rng(2)
    A = rng.normal(size=(50, 3))
    state = np.random.get_state()[1].copy()
    first = BeeswarmDisplay.from_attributions(A, random_state=3)
    second = BeeswarmDisplay.from_attributions(A, random_state=3)
    np.testing.assert_array_equal(np.random.get_state()[1], state)
    for c1, c2 in zip(first.collections_, second.collections_):
        np.testing.assert_array_equal(c1.get_offsets(), c2.get_offsets())
    other = BeeswarmDisplay.from_attributions(A, random_state=4)
    assert not np.array_equal(first.collections_[0].get_offsets(),
                              other.collections_[0].get_offsets())
    assert first.colorbar_ is None  # no values, no colorbar


def test_beeswarm_colours_non_numeric_values_grey():
    X = pd.DataFrame({"num": [1.0, 2.0, 3.0, 4.0],
                      "city": ["a", "b", "a", "c"]})
    A = np.array([[1.0, 0.5], [2.0, -0.5], [3.0, 0.2], [4.0, 0.1]])
    disp = BeeswarmDisplay.from_attributions(A, X)
    city = disp.collections_[list(disp.order_).index(1)]
    assert np.all(np.isnan(np.asarray(city.get_array())))
    disp.figure_.canvas.draw()  # colours are mapped when drawn
    grey = to_rgba("0.6", alpha=0.8)
    np.testing.assert_allclose(city.get_facecolors(), np.tile(grey, (4, 1)))


# ------------------------------------------------------------------ bar chart
def test_bar_widths_are_mean_absolute_attributions():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(30, 6)) * np.arange(1, 7)
    disp = MeanAbsAttributionDisplay.from_attributions(A, max_display=4)
    mean_abs = np.abs(A).mean(axis=0)
    order = np.argsort(-mean_abs)
    np.testing.assert_array_equal(disp.order_, order[:4])
    widths = _widths(disp.bars_[0])
    np.testing.assert_allclose(widths[:4], mean_abs[order[:4]])
    np.testing.assert_allclose(widths[4], mean_abs[order[4:]].sum())
    assert disp.ax_.get_yticklabels()[-1].get_text() == "sum of 2 other features"


def test_bar_groups_are_grouped_bars_per_group():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(20, 3))
    groups = np.array(["no", "yes"] * 10)
    disp = MeanAbsAttributionDisplay.from_attributions(A, groups=groups)
    order = np.argsort(-np.abs(A).mean(axis=0))
    assert len(disp.bars_) == 2
    for container, g in zip(disp.bars_, ["no", "yes"]):
        expected = np.abs(A[groups == g]).mean(axis=0)[order]
        np.testing.assert_allclose(_widths(container), expected)
    assert [t.get_text() for t in disp.ax_.get_legend().get_texts()] == ["no", "yes"]
    with pytest.raises(ValueError, match="groups must have one label per row"):
        MeanAbsAttributionDisplay.from_attributions(A, groups=groups[:5])


# -------------------------------------------------------------- image overlay
def test_overlay_shows_the_channel_sum_with_symmetric_limits():
    rng = np.random.default_rng(5)
    A = rng.normal(size=(3, 4 * 5 * 2))
    X = rng.uniform(size=(3, 40))
    masks = np.zeros((3, 4, 5))
    masks[:, 1:3, 1:4] = 1
    disp = ImageOverlayDisplay.from_attributions(A, X, image_shape=(4, 5, 2),
                                                 masks=masks, n_cols=2)
    maps = A.reshape(3, 4, 5, 2).sum(axis=3)
    limit = np.percentile(np.abs(maps), 99)
    assert disp.axes_.shape == (2, 2)
    assert not disp.axes_[1, 1].axison  # the spare cell is hidden
    for i, overlay in enumerate(disp.overlays_):
        np.testing.assert_allclose(np.asarray(overlay.get_array()), maps[i])
        assert overlay.get_clim() == pytest.approx((-limit, limit))
    grey = X.reshape(3, 4, 5, 2).mean(axis=3)[0]
    np.testing.assert_allclose(
        np.asarray(disp.underlays_[0].get_array()),
        (grey - grey.min()) / (grey.max() - grey.min()))
    assert len(disp.contours_) == 3


@pytest.mark.parametrize("kwargs, match", [
    ({"image_shape": (3, 3)}, "image_shape"),
    ({"image_shape": (2, 2), "masks": np.ones((2, 3))}, "masks has shape"),
    ({"image_shape": (2, 2), "titles": ["one"]}, "titles has 1 entries"),
    ({"image_shape": (2, 2), "percentile": 0}, "percentile"),
])
def test_overlay_errors_name_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ImageOverlayDisplay.from_attributions(np.ones((2, 4)), **kwargs)


# --------------------------------------------------------------- all displays
def test_from_explainer_equals_from_attributions(linear):
    X, _, explainer = linear
    A = explainer.transform(X)
    bees = BeeswarmDisplay.from_explainer(explainer, X)
    direct = BeeswarmDisplay.from_attributions(A, X)
    for c1, c2 in zip(bees.collections_, direct.collections_):
        np.testing.assert_array_equal(c1.get_offsets(), c2.get_offsets())
        np.testing.assert_array_equal(c1.get_array(), c2.get_array())
    bars = MeanAbsAttributionDisplay.from_explainer(explainer, X)
    np.testing.assert_array_equal(
        _widths(bars.bars_[0]),
        _widths(MeanAbsAttributionDisplay.from_attributions(A, X).bars_[0]))
    assert bars.ax_.get_yticklabels()[0].get_text() in list("abcde")
    overlay = ImageOverlayDisplay.from_explainer(explainer, X.iloc[:2],
                                                 image_shape=(1, 5))
    np.testing.assert_array_equal(np.asarray(overlay.overlays_[1].get_array()),
                                  explainer.transform(X.iloc[:2])[1].reshape(1, 5))


def test_labels_are_plain_text():
    label = "$x$_<script>"
    A = np.array([[1.0, -2.0], [0.5, 0.3]])
    for disp in (
        WaterfallDisplay.from_attributions(A, feature_names=[label, "b"]),
        BeeswarmDisplay.from_attributions(A, A, feature_names=[label, "b"]),
        MeanAbsAttributionDisplay.from_attributions(A, feature_names=[label, "b"],
                                                    groups=[label, "g"]),
    ):
        texts = [t for t in disp.ax_.get_yticklabels() if "script" in t.get_text()]
        assert [t.get_text() for t in texts] == [r"\$x\$_<script>"]
        assert not texts[0].get_usetex()
        disp.figure_.canvas.draw()  # mathtext would fail or eat the dollars
    overlay = ImageOverlayDisplay.from_attributions(np.ones((1, 4)), image_shape=(2, 2),
                                                    titles=[label])
    assert overlay.ax_.get_title() == r"\$x\$_<script>"
    overlay.figure_.canvas.draw()


@pytest.mark.parametrize("call, match", [
    (lambda A: WaterfallDisplay.from_attributions(A, np.ones((3, 2))), "X has shape"),
    (lambda A: WaterfallDisplay.from_attributions(A, row=5), "row must be"),
    (lambda A: WaterfallDisplay.from_attributions(A, base_value="x"), "base_value"),
    (lambda A: BeeswarmDisplay.from_attributions(A, feature_names=["a"]),
     "feature_names has 1 names"),
    (lambda A: BeeswarmDisplay.from_attributions(A, max_display=0), "max_display"),
    (lambda A: MeanAbsAttributionDisplay.from_attributions(A, feature_names="ab"),
     "feature_names must be a list"),
    (lambda A: BeeswarmDisplay.from_explainer(object(), A), "explainer must be"),
])
def test_errors_name_the_parameter(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call(np.ones((2, 3)))


def test_modules_import_matplotlib_only_inside_functions():
    """matplotlib is imported when a display draws, never at import time (a
    cached benchmark run must not pay for it): no module of the subpackage
    imports it at module level."""
    package = Path(sklearn_xai.plotting.__file__).parent
    top_level = []
    for path in sorted(package.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            top_level += [f"{path.name}: {n}" for n in names
                          if n.split(".")[0] == "matplotlib"]
    assert len(list(package.glob("*.py"))) >= 5
    assert top_level == []


@pytest.mark.parametrize("display, max_display", [
    (MeanAbsAttributionDisplay, "Number of features drawn as their own bar."),
    (WaterfallDisplay, "Number of features drawn as their own bar."),
    (BeeswarmDisplay, "Number of features drawn."),
])
def test_shared_docstring_blocks_read_as_written_out(display, max_display):
    # The blocks the displays share are written once (plotting/_common.py).
    tail = ("        ax : matplotlib Axes, default=None\n            Axes to draw on.\n"
            f"        max_display : int, default=10\n            {max_display}\n")
    for method in (display.from_attributions, display.from_explainer):
        doc = method.__doc__
        assert tail in doc
        assert ("        **plot_kw : dict\n            Further arguments of :meth:`plot`.\n"
                f"\n        Returns\n        -------\n        display : {display.__name__}\n"
                ) in doc
        assert "{" not in doc
    assert ("explainer : fitted sklearn_xai explainer\n            Computes the "
            "attributions (``explainer.transform``).") in display.from_explainer.__doc__
    assert ("    References\n    ----------\n    .. [1] S. M. Lundberg and S.-I. Lee, "
            "\"A Unified Approach to Interpreting\n       Model Predictions\", NeurIPS "
            "2017.\n") in display.__doc__
    assert ("        ax : matplotlib Axes, default=None\n            Axes to draw on; "
            "``None`` creates a figure.\n") in display.plot.__doc__
