"""Shared validation, text helpers and docstring blocks of the displays.

matplotlib is imported inside the functions that draw, never at module
level, so importing :mod:`sklearn_xai.plotting` (or running a cached
benchmark) does not import it.
"""

import numbers
from textwrap import dedent

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.base import validate_X
from sklearn_xai.utils import check_attributions
from sklearn_xai.utils._docstring import Substitution

# Docstring blocks the displays share, by placeholder name (filled by
# :func:`display_doc`).
_DOCS = {
    "attributions_matrix": """
        attributions : array-like of shape (n_samples, n_features)
            Attributions.""",
    "explainer_param": """
        explainer : fitted sklearn_xai explainer
            Computes the attributions (``explainer.transform``).""",
    "names_from_rows": """
        feature_names : list of str, default=None
            Feature names; by default the DataFrame columns of ``X``, else
            ``x0, x1, ...``.""",
    "names_from_explainer": """
        feature_names : list of str, default=None
            Feature names; by default the DataFrame columns of ``X``, else the
            explainer's ``feature_names_in_``, else ``x0, x1, ...``.""",
    "plot_axes": """
        ax : matplotlib Axes, default=None
            Axes to draw on; ``None`` creates a figure.""",
    "bars_max_display": """
        max_display : int, default=10
            Number of features drawn as their own bar.""",
    "lines_max_display": """
        max_display : int, default=10
            Number of features drawn.""",
    "jitter_seed": """
        random_state : int, RandomState instance or None, default=0
            Seed of the vertical jitter.""",
    "lundberg_reference": """
        .. [1] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
           Model Predictions", NeurIPS 2017.""",
}


def display_doc(*names, **fragments):
    """Decorator filling the ``{name}`` placeholders of a display's
    docstring with the shared blocks ``names`` (keys of ``_DOCS``) and the
    further ``fragments``."""
    return Substitution(**{name: _DOCS[name] for name in names}, **fragments)


def from_tail(display, *names):
    """The end of the docstring of a display's ``from_*`` methods (the
    ``{from_tail}`` placeholder): ``ax``, the parameters ``names`` (keys of
    ``_DOCS``), ``**plot_kw`` and the Returns section."""
    return "\n".join([
        "ax : matplotlib Axes, default=None",
        "    Axes to draw on.",
        *(dedent(_DOCS[name]).strip("\n") for name in names),
        "**plot_kw : dict",
        "    Further arguments of :meth:`plot`.",
        "",
        "Returns",
        "-------",
        f"display : {display}",
    ])


def pyplot():
    """``matplotlib.pyplot``, with an error saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - matplotlib is a test dep
        raise ImportError(
            "The sklearn_xai.plotting displays need matplotlib: "
            "pip install matplotlib."
        ) from exc
    return plt


def plain_text(label):
    """``label`` as literal text for matplotlib: ``$`` is escaped so that
    mathtext does not interpret user labels (``"$x$"`` stays ``$x$``)."""
    return str(label).replace("$", r"\$")


def set_plain_ticklabels(ax, labels, axis="y"):
    """Set the tick labels of ``axis`` to ``labels`` as plain text (no
    mathtext, no TeX)."""
    setter = ax.set_yticklabels if axis == "y" else ax.set_xticklabels
    texts = setter([plain_text(label) for label in labels])
    for text in texts:
        text.set_usetex(False)
    return texts


def get_ax(ax):
    """``(ax, figure)``: ``ax`` if given, else a new figure's axes."""
    if ax is None:
        _, ax = pyplot().subplots()
    return ax, ax.figure


def check_max_display(max_display):
    if (not isinstance(max_display, numbers.Integral) or isinstance(max_display, bool)
            or max_display < 1):
        raise ValueError(
            f"max_display must be a positive int (the number of features drawn), "
            f"got {max_display!r}."
        )
    return int(max_display)


def check_fitted_explainer(explainer):
    """Raise unless ``explainer`` is a fitted transformer of attributions."""
    if not hasattr(explainer, "transform"):
        raise TypeError(
            f"explainer must be a fitted sklearn_xai explainer (with transform), "
            f"got {type(explainer).__name__}."
        )
    check_is_fitted(explainer)


def feature_names_of(feature_names, X, n_features, explainer=None):
    """Feature names, in order of preference: ``feature_names``, the columns
    of a DataFrame ``X``, the explainer's ``feature_names_in_``, then
    ``x0, x1, ...``."""
    if feature_names is None:
        if hasattr(X, "columns"):
            feature_names = list(X.columns)
        elif getattr(explainer, "feature_names_in_", None) is not None:
            feature_names = list(explainer.feature_names_in_)
        else:
            return [f"x{j}" for j in range(n_features)]
    if isinstance(feature_names, str) or np.ndim(feature_names) != 1:
        raise ValueError(
            "feature_names must be a list of strings, one per feature, got "
            f"{feature_names!r}."
        )
    feature_names = [str(name) for name in feature_names]
    if len(feature_names) != n_features:
        raise ValueError(
            f"feature_names has {len(feature_names)} names but the attributions "
            f"have {n_features} features; pass one name per feature."
        )
    return feature_names


def feature_values(X, shape):
    """``X`` as an object array of shape ``shape`` (its values as given:
    numbers or text), or ``None`` for ``X=None``."""
    if X is None:
        return None
    values = X.to_numpy(dtype=object) if hasattr(X, "to_numpy") else np.asarray(
        X, dtype=object)
    if values.shape != tuple(shape):
        raise ValueError(
            f"X has shape {values.shape} but the attributions have shape "
            f"{tuple(shape)}; pass the rows that were explained."
        )
    return values


def numeric_values(values):
    """Float version of an object array, ``nan`` where a value is not a
    number (text, categories)."""
    frame = pd.DataFrame(values)
    return frame.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)


def format_value(value):
    """Short text of a feature value (4 significant digits for numbers)."""
    if isinstance(value, (numbers.Number, np.number)) and not isinstance(value, bool):
        return f"{value:.4g}"
    return str(value)


def attributions_of(explainer, X):
    """``(attributions, X)`` of a fitted explainer."""
    check_fitted_explainer(explainer)
    return check_attributions(explainer.transform(X)), X


def explained_values(explainer, X):
    """The output the explainer explains at each row of ``X``, ``f(x)``, or
    ``None`` for an explainer without a model."""
    from sklearn_xai.utils import explained_output

    estimator = getattr(explainer, "explained_estimator_", None)
    if estimator is None:
        return None
    f = explained_output(estimator, target=getattr(explainer, "target", "predicted"),
                         output=getattr(explainer, "output", "auto"),
                         batch_size=getattr(explainer, "batch_size", None))
    X = validate_X(explainer, X, reset=False)
    return f(X, f.target_index(X))


def rows_of(X, rows):
    """Rows ``rows`` (a list of ints) of an array or DataFrame."""
    if hasattr(X, "iloc"):
        return X.iloc[rows]
    return np.asarray(X)[rows]
