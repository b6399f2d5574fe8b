"""The rows ``compare_explainers`` and ``sklearn-xai compare`` work on.

Numeric rows are used as float arrays.  A raw DataFrame with string,
pandas categorical or boolean columns is turned into float codes by a
:class:`~sklearn_xai.utils._tabular.TabularCodec` fitted on the training
and the explained rows together: the runner, the explainers and the metrics
see the codes, one column per raw column, and the user's model is called
behind a first Pipeline step that decodes them into a DataFrame with the
user's columns and dtypes (:func:`coded_model`).  Codes can only be
substituted, never averaged or perturbed by noise, so the comparison on
coded rows keeps the explainers and the metrics that respect that rule
(the explainers tagged ``raw_columns``; :data:`CODED_METRICS_LEFT_OUT`), gives the
metrics a per-column baseline (:func:`coded_baseline`) and tells the
metrics that add noise which columns take none (``discrete_features``).
"""

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_array

from sklearn_xai.utils._tabular import TabularCodec, has_non_numeric_columns

__all__ = ["CODED_METRICS_LEFT_OUT", "CompareRows", "coded_baseline",
           "coded_model", "compare_rows", "csv_rows"]

# Why the explainers that do not only substitute values of the coded columns
# (ExplainerTags.raw_columns False) are left out.  LIME samples continuous
# values around the training statistics of each column, which are no
# category codes; gradient explainers need a gradient a code does not have;
# exact tree attributions read the tree model's input as floats after the
# Pipeline's steps, and decoded string and categorical columns are none (a
# HistGradientBoosting with native categories would need its own category
# encoder run on the decoded frame, which it does not do).
_LEFT_OUT_REASON = {
    "LimeTabular": "LIME samples continuous values around each column's training "
                   "statistics, which are no category codes",
    "TreeContributions": "it reads the tree model's input as floats, and decoded "
                         "string or categorical columns are none",
}
_GRADIENT_REASON = "a category code has no gradient"

# Metrics left out on coded rows, with the reason.
CODED_METRICS_LEFT_OUT = {
    "neg_infidelity": "it multiplies the attributions by the input change x - x', "
                      "which is arithmetic on category codes",
    "neg_ris": "it divides by the relative input change (x - x') / x, which is "
               "arithmetic on category codes",
    "pgi": "it adds noise to the top-k features; with no noise on category codes an "
           "explanation ranking a categorical column first would score as unfaithful",
    "neg_pgu": "it adds noise to the bottom features; with no noise on category codes "
               "an explanation ranking a categorical column last would score as "
               "faithful",
}


def _takes_discrete_features(name):
    """Whether registered metric ``name`` adds noise to the inputs and takes
    ``discrete_features`` (the columns that take none)."""
    import inspect

    from sklearn_xai.metrics import get_metric_spec

    try:
        func = get_metric_spec(name).func
    except ValueError:  # not a registered metric: the runner reports it
        return False
    return "discrete_features" in inspect.signature(func).parameters


def _decode(Z, codec):
    """The user's DataFrame from codes (the first step of :func:`coded_model`)."""
    return codec.decode(np.asarray(Z, dtype=np.float64))


def coded_model(model, codec):
    """``model`` behind a step that decodes float codes into its DataFrame.

    Parameters
    ----------
    model : fitted estimator
        The user's model, fitted on raw DataFrames.
    codec : TabularCodec
        Fitted on the raw columns.

    Returns
    -------
    pipeline : Pipeline
        ``Pipeline([("decode", FunctionTransformer), ("model",
        FrozenEstimator(model))])``, fitted: it takes codes (an array or a
        DataFrame with the user's column names) and calls ``model`` on the
        user's columns and dtypes.  Being a Pipeline, its final model is
        found by the usual unwrapping (margins, tree families, hidden
        layers).
    """
    from sklearn.frozen import FrozenEstimator
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    decode = FunctionTransformer(_decode, kw_args={"codec": codec}, validate=False)
    names = pd.DataFrame(np.zeros((1, len(codec.columns_))),
                         columns=[str(c) for c in codec.columns_])
    decode.fit(names)
    frozen = model if isinstance(model, FrozenEstimator) else FrozenEstimator(model)
    return Pipeline([("decode", decode), ("model", frozen)])


def coded_baseline(codes, codec):
    """The metrics' per-column baseline on coded rows.

    Float columns: their mean; integer columns: their mean rounded to the
    nearest integer; boolean and coded (string, categorical) columns: their
    most frequent value (the smallest code among ties).  A mean of category
    codes is no category.

    Parameters
    ----------
    codes : ndarray of shape (n_rows, n_columns)
        Training rows, coded.
    codec : TabularCodec

    Returns
    -------
    baseline : ndarray of shape (n_columns,)
    """
    codes = np.asarray(codes, dtype=np.float64)
    baseline = np.empty(codes.shape[1])
    for j, (dtype, cats) in enumerate(zip(codec.dtypes_, codec.categories_)):
        column = codes[:, j]
        column = column[~np.isnan(column)]
        if cats is None and pd.api.types.is_float_dtype(dtype):
            baseline[j] = column.mean()
        elif cats is None and not pd.api.types.is_bool_dtype(dtype):
            baseline[j] = np.round(column.mean())
        else:
            values, counts = np.unique(column, return_counts=True)
            baseline[j] = values[np.argmax(counts)]
    return baseline


def _explainer_name(spec):
    import inspect

    if isinstance(spec, dict):
        spec = spec.get("name")
    if isinstance(spec, str):
        return spec.rsplit(".", 1)[-1]
    return spec.__name__ if inspect.isclass(spec) else type(spec).__name__


class CompareRows:
    """What :func:`compare_rows` found: the rows as float arrays, the model
    to call on them, and the restrictions of coded rows.

    Attributes
    ----------
    X, X_train : ndarray or None
        Float rows (codes for a raw DataFrame); ``X_train`` is ``None`` when
        not given.
    model : estimator
        The user's model, or :func:`coded_model` for coded rows.
    codec : TabularCodec or None
        ``None`` for numeric rows.
    feature_names : list of str or None
        The user's column names, when ``X`` is a DataFrame.
    left_out : dict
        Explainer and metric labels left out on coded rows -> the reason
        (filled by :meth:`explainers` and :meth:`metrics`).
    """

    def __init__(self, X, X_train, model, codec, feature_names):
        self.X, self.X_train, self.model = X, X_train, model
        self.codec, self.feature_names = codec, feature_names
        self.left_out = {}

    def explainers(self, explainers):
        """The explainer specs that apply to the rows: all of them for
        numeric rows; on coded rows the ones whose tags say they explain raw
        columns (:attr:`~sklearn_xai.base.ExplainerTags.raw_columns`: they
        only substitute column values) and the model-ignorant controls.
        Left-out labels are recorded in :attr:`left_out` with their
        reason."""
        if self.codec is None:
            return explainers
        from sklearn_xai.base import get_explainer_tags
        from sklearn_xai.benchmark._spec import resolve_component

        kept = {}
        for label, spec in explainers.items():
            name = _explainer_name(spec)
            tags = get_explainer_tags(resolve_component(spec, "explainer", seed=0))
            if tags.raw_columns or not tags.requires_estimator:
                kept[label] = spec
            elif name in _GRADIENT_NAMES:
                self.left_out[label] = _GRADIENT_REASON
            else:
                self.left_out[label] = _LEFT_OUT_REASON.get(
                    name, "it does not only substitute column values")
        return kept

    def metrics(self, metrics, X_train):
        """The metric specs that apply to the rows and the masker of their
        removals.

        Numeric rows: the metrics as given and ``BaselineMasker("mean")``.
        Coded rows: :data:`CODED_METRICS_LEFT_OUT` are left out (recorded in
        :attr:`left_out`), the noise-adding metrics get
        ``discrete_features`` (the coded, boolean and integer columns, which
        take no noise), and the masker is a ``BaselineMasker`` on
        :func:`coded_baseline` of ``X_train``.
        """
        if self.codec is None:
            return metrics, {"name": "BaselineMasker", "params": {"value": "mean"}}
        if isinstance(metrics, str):
            metrics = [metrics]
        if not isinstance(metrics, dict):
            metrics = {m if isinstance(m, str) else m["name"]: m for m in metrics}
        discrete = [int(j) for j in np.flatnonzero(self.codec.discrete_mask_)]
        kept = {}
        for label, spec in metrics.items():
            spec = {"name": spec, "params": {}} if isinstance(spec, str) else dict(spec)
            name = spec["name"]
            if name in CODED_METRICS_LEFT_OUT:
                self.left_out[label] = CODED_METRICS_LEFT_OUT[name]
                continue
            if _takes_discrete_features(name):
                spec["params"] = {"discrete_features": discrete,
                                  **(spec.get("params") or {})}
            kept[label] = spec
        masker = {"name": "BaselineMasker",
                  "params": {"value": coded_baseline(X_train, self.codec).tolist()}}
        return kept, masker


_GRADIENT_NAMES = ("Saliency", "InputXGradient", "IntegratedGradients", "SmoothGrad",
                   "GradientSHAP", "DeepLift", "LRP", "NoiseTunnel")


def compare_rows(model, X, X_train):
    """Float rows for ``compare_explainers``, coding a raw DataFrame.

    Parameters
    ----------
    model : fitted estimator
    X : array-like or DataFrame
    X_train : array-like, DataFrame or None

    Returns
    -------
    rows : CompareRows
        Numeric rows are validated float arrays and ``model`` is unchanged.
        When ``X`` or ``X_train`` is a DataFrame with a string, categorical
        or boolean column, both are coded by a ``TabularCodec`` fitted on
        ``X_train`` and ``X`` together (so every category of either is
        known) and ``model`` is :func:`coded_model`.
    """
    names = [str(c) for c in X.columns] if isinstance(X, pd.DataFrame) else None
    if not (has_non_numeric_columns(X) or has_non_numeric_columns(X_train)
            or _has_bool_columns(X)):
        X = check_array(X, dtype=np.float64, ensure_all_finite=True)
        if X_train is not None:
            X_train = check_array(X_train, dtype=np.float64, ensure_all_finite=True)
        return CompareRows(X, X_train, model, None, names)
    for name, rows in (("X", X), ("X_train", X_train)):
        if rows is not None and not isinstance(rows, pd.DataFrame):
            raise ValueError(
                f"{name} must be a DataFrame with the same columns as the other rows "
                f"(they hold non-numeric columns); got {type(rows).__name__}."
            )
    together = X if X_train is None else pd.concat([X_train, X], ignore_index=True)
    if X_train is not None and list(X_train.columns) != list(X.columns):
        raise ValueError(
            f"X_train has columns {list(X_train.columns)} but X has {list(X.columns)}: "
            "pass both with the same columns in the same order."
        )
    changed = [c for c in X.columns if together[c].dtype != X[c].dtype]
    if changed:
        raise ValueError(
            f"X and X_train give column(s) {changed} different dtypes (for example "
            "categoricals with different categories): give them the same dtype."
        )
    codec = TabularCodec().fit(together)
    X_codes = check_array(codec.encode(X).to_numpy(), ensure_all_finite=True)
    train_codes = None if X_train is None else check_array(
        codec.encode(X_train).to_numpy(), ensure_all_finite=True)
    return CompareRows(X_codes, train_codes, coded_model(model, codec), codec, names)


def _has_bool_columns(X):
    return isinstance(X, pd.DataFrame) and any(
        pd.api.types.is_bool_dtype(t) for t in X.dtypes)


def csv_rows(frame):
    """The rows of a CSV for ``sklearn-xai compare`` and how to encode them.

    Parameters
    ----------
    frame : DataFrame
        The CSV's feature columns.

    Returns
    -------
    X : ndarray or DataFrame
        Float rows when every column is numeric, else the raw frame.
    encode : callable
        ``encode(model)``: ``model`` itself for numeric rows, else
        ``Pipeline([ColumnTransformer(OneHotEncoder(handle_unknown="ignore")
        on the text columns, the numeric ones passed through), model])``, to
        be fitted on the raw frame.
    note : str or None
        One line saying how text columns were encoded (``None`` when there
        are none).
    """
    text = [c for c in frame if not pd.api.types.is_numeric_dtype(frame[c])]
    if not text:
        return frame.to_numpy(dtype=np.float64), (lambda model: model), None
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    def encode(model):
        columns = ColumnTransformer(
            [("text", OneHotEncoder(handle_unknown="ignore", sparse_output=False), text)],
            remainder="passthrough")
        return Pipeline([("encode", columns), ("model", model)])

    note = (f"Text column(s) {text} one-hot encoded (OneHotEncoder, unknown categories "
            "ignored) in a Pipeline before the model, numeric columns passed through; "
            "explainers and metrics work on the raw columns.")
    return frame, encode, note
