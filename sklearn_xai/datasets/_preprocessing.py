"""OpenXAI's and BEExAI's preprocessing as scikit-learn pipelines.

Both are :class:`~sklearn.compose.ColumnTransformer` based, so they are
fitted on training rows only, keep feature names through
``get_feature_names_out`` and support ``set_output(transform="pandas")``.
Categorical columns are found by dtype (``object``, ``string`` or
``category``: pandas 3 reads text as ``str``) or given explicitly.
"""

import numbers

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.feature_selection import SelectorMixin
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import (
    MaxAbsScaler,
    MinMaxScaler,
    OneHotEncoder,
    OrdinalEncoder,
    QuantileTransformer,
    RobustScaler,
    StandardScaler,
)
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._sklearn import (
    Interval,
    StrOptions,
    validate_estimator_params,
    validate_params,
)

__all__ = [
    "CorrelationFilter",
    "DatetimeFeatures",
    "openxai_preprocessor",
    "beexai_preprocessor",
    "openxai_split",
    "minmax_scale_target",
]

_TEXT_DTYPES = ["object", "string", "category"]


# ---------------------------------------------------------------------------
# Column selection
# ---------------------------------------------------------------------------


def _categorical_mask(X, categorical_features):
    """Boolean mask of the categorical columns of ``X``."""
    n_features = X.shape[1]
    if isinstance(categorical_features, str) and categorical_features == "auto":
        if hasattr(X, "select_dtypes"):
            text = set(X.select_dtypes(include=_TEXT_DTYPES).columns)
            return np.array([c in text for c in X.columns])
        return np.zeros(n_features, dtype=bool)
    given = np.asarray(categorical_features)
    if given.dtype == bool:
        if given.shape != (n_features,):
            raise ValueError(
                f"categorical_features as a boolean mask needs {n_features} "
                f"entries (one per column of X); got {given.shape[0]}."
            )
        return given.copy()
    mask = np.zeros(n_features, dtype=bool)
    for item in given.tolist():
        if isinstance(item, numbers.Integral):
            mask[item] = True
        elif hasattr(X, "columns") and item in list(X.columns):
            mask[list(X.columns).index(item)] = True
        else:
            raise ValueError(
                f"categorical_features names {item!r}, which is not a column of "
                "X; pass column names of the DataFrame, integer positions or a "
                "boolean mask."
            )
    return mask


def _is_binary_integer(column):
    """BEExAI's test for a column left unscaled: integer (or boolean) values
    with ``max |x| < 2``."""
    values = pd.Series(column)
    if pd.api.types.is_bool_dtype(values):
        return True
    if not pd.api.types.is_integer_dtype(values) or values.isna().all():
        return False
    return bool(values.abs().max() < 2)


class _ColumnSelector:
    """Callable column selector for :class:`ColumnTransformer`.

    ``kind`` is ``"numeric"`` (all non-categorical columns),
    ``"numeric_scaled"`` / ``"numeric_binary"`` (non-categorical columns
    that BEExAI scales / leaves as they are), ``"categorical"``,
    ``"categorical_many"`` (more than two levels) or ``"categorical_two"``.
    Evaluated on the training data when the transformer is fitted.
    """

    def __init__(self, kind, categorical_features="auto"):
        self.kind = kind
        self.categorical_features = categorical_features

    def __call__(self, X):
        categorical = _categorical_mask(X, self.categorical_features)
        columns = list(X.columns) if hasattr(X, "columns") else list(range(X.shape[1]))

        def column(j):
            return X.iloc[:, j] if hasattr(X, "iloc") else np.asarray(X)[:, j]

        keep = []
        for j, name in enumerate(columns):
            if self.kind == "numeric":
                chosen = not categorical[j]
            elif self.kind in ("numeric_scaled", "numeric_binary"):
                chosen = not categorical[j] and (
                    _is_binary_integer(column(j)) == (self.kind == "numeric_binary")
                )
            elif self.kind == "categorical":
                chosen = categorical[j]
            else:  # count levels of categorical columns only
                chosen = bool(categorical[j]) and (
                    pd.Series(column(j)).nunique(dropna=True) > 2
                ) == (self.kind == "categorical_many")
            if chosen:
                keep.append(name)
        return keep

    def __repr__(self):
        return f"_ColumnSelector({self.kind!r})"


# ---------------------------------------------------------------------------
# Transformers
# ---------------------------------------------------------------------------


class CorrelationFilter(SelectorMixin, BaseEstimator):
    """Drop features strongly correlated with an earlier feature (BEExAI).

    The absolute Pearson correlation of every pair of features is computed on
    the training rows (pairwise-complete, as :meth:`pandas.DataFrame.corr`;
    a constant feature correlates with nothing). A pair is "correlated" when
    ``|r| > threshold``.

    - ``convention="paper"`` (default): scan the features in order and
      keep a feature unless it is correlated with a feature already kept
      (greedy).  Every kept pair then has ``|r| <= threshold`` (the paper's
      "keep only features with a cross-correlation lower than a given
      threshold") and a feature is only dropped because of a feature that
      stays.
    - ``convention="beexai_code"`` (BEExAI's code,
      ``DataCleaner.remove_correlated_features``):
      drop feature ``j`` if it is correlated with *any* earlier feature, even
      one that is itself dropped, so chains lose more features.

    Parameters
    ----------
    threshold : float in [0, 1], default=0.7
        BEExAI's default.
    convention : {"paper", "beexai_code"}, default="paper"
        Which features a chain of correlated features keeps (see above).

    Attributes
    ----------
    correlation_ : ndarray of shape (n_features, n_features)
        Absolute correlations (NaN where undefined).
    support_ : ndarray of bool of shape (n_features,)
        Kept features.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import CorrelationFilter
    >>> X = np.array([[1., 2., 0.], [2., 4.1, 1.], [3., 6., 0.], [4., 8.2, 1.]])
    >>> CorrelationFilter(threshold=0.9).fit(X).get_support()
    array([ True, False,  True])
    """

    _parameter_constraints = {
        "threshold": [Interval(numbers.Real, 0, 1, closed="both")],
        "convention": [StrOptions({"paper", "beexai_code"})],
    }

    def __init__(self, threshold=0.7, *, convention="paper"):
        self.threshold = threshold
        self.convention = convention

    def fit(self, X, y=None):
        """Compute the correlations and the kept features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric training data; NaN allowed (ignored pairwise).
        y : None
            Ignored.

        Returns
        -------
        self : CorrelationFilter
        """
        validate_estimator_params(self)
        convention = self.convention
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = np.array(pd.DataFrame(X).corr().abs(), dtype=np.float64)
        np.fill_diagonal(corr, np.nan)
        correlated = np.nan_to_num(corr, nan=0.0) > self.threshold
        support = np.ones(X.shape[1], dtype=bool)
        for j in range(1, X.shape[1]):
            earlier = correlated[:j, j]
            if convention == "paper":
                earlier = earlier & support[:j]
            support[j] = not earlier.any()
        self.correlation_ = corr
        self.support_ = support
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class DatetimeFeatures(TransformerMixin, BaseEstimator):
    """Replace date-time columns by year, month, day and hour (BEExAI).

    Each date-time column ``c`` becomes ``c_year``, ``c_month``, ``c_day``
    and ``c_hour`` (appended after the other columns, in that order), as
    BEExAI's ``Preprocessor.add_date_infos``; like BEExAI a date part is
    kept only if it is defined for every training row. Works on DataFrames
    (returns a DataFrame whatever ``set_output`` says, since the next step
    needs column dtypes); numeric arrays pass through (validated).

    Parameters
    ----------
    columns : "auto" or list of str, default="auto"
        ``"auto"``: the columns of a ``datetime64`` dtype; a list: those
        columns, parsed with :func:`pandas.to_datetime`.

    Attributes
    ----------
    datetime_columns_ : list of str
        Expanded columns.
    date_parts_ : dict
        Kept parts per expanded column.
    feature_names_in_ : ndarray of str
    n_features_in_ : int

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.datasets import DatetimeFeatures
    >>> X = pd.DataFrame({"when": pd.to_datetime(["2020-01-02 03:00"]), "v": [1.0]})
    >>> out = DatetimeFeatures().fit_transform(X)
    >>> list(out.columns)
    ['v', 'when_year', 'when_month', 'when_day', 'when_hour']
    >>> out.loc[0, ["when_year", "when_day", "when_hour"]].tolist()
    [2020, 2, 3]
    """

    _parameter_constraints = {"columns": [StrOptions({"auto"}), list]}
    _PARTS = ("year", "month", "day", "hour")

    def __init__(self, columns="auto"):
        self.columns = columns

    def _parse(self, X, column):
        values = X[column]
        if not pd.api.types.is_datetime64_any_dtype(values):
            values = pd.to_datetime(values)
        return values

    def fit(self, X, y=None):
        """Find the date-time columns and the date parts to keep.

        Parameters
        ----------
        X : DataFrame or array-like
        y : None
            Ignored.

        Returns
        -------
        self : DatetimeFeatures
        """
        validate_estimator_params(self)
        if not hasattr(X, "columns"):
            validate_data(self, X, dtype="numeric", ensure_all_finite="allow-nan")
            self.datetime_columns_, self.date_parts_ = [], {}
            return self
        self.n_features_in_ = X.shape[1]
        if all(isinstance(c, str) for c in X.columns):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        if isinstance(self.columns, str):
            names = [c for c in X.columns if pd.api.types.is_datetime64_any_dtype(X[c])]
        else:
            missing = [c for c in self.columns if c not in X.columns]
            if missing:
                raise ValueError(
                    f"columns names {missing}, which are not columns of X; pass "
                    "names of date-time columns or columns='auto'."
                )
            names = list(self.columns)
        self.datetime_columns_ = names
        self.date_parts_ = {}
        for column in names:
            parsed = self._parse(X, column)
            self.date_parts_[column] = [
                part for part in self._PARTS
                if not getattr(parsed.dt, part).isna().any()
            ]
        return self

    def transform(self, X):
        """Expand the date-time columns.

        Parameters
        ----------
        X : DataFrame or array-like

        Returns
        -------
        X_out : DataFrame (or the validated array when ``X`` is not a
            DataFrame)
        """
        check_is_fitted(self, "date_parts_")
        if not hasattr(X, "columns"):
            return validate_data(self, X, reset=False, dtype="numeric",
                                 ensure_all_finite="allow-nan")
        if X.shape[1] != self.n_features_in_ or (
            hasattr(self, "feature_names_in_")
            and list(X.columns) != list(self.feature_names_in_)
        ):
            raise ValueError(
                f"X has the columns {list(X.columns)}, but DatetimeFeatures was "
                "fitted on other columns; transform data with the training columns."
            )
        if not self.datetime_columns_:
            return X
        out = X.drop(columns=self.datetime_columns_)
        for column in self.datetime_columns_:
            parsed = self._parse(X, column)
            for part in self.date_parts_[column]:
                out[f"{column}_{part}"] = getattr(parsed.dt, part).to_numpy()
        return out

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        Parameters
        ----------
        input_features : array-like of str or None
            Ignored beyond a consistency check with ``feature_names_in_``.

        Returns
        -------
        names : ndarray of str
        """
        check_is_fitted(self, "date_parts_")
        if input_features is None:
            input_features = getattr(self, "feature_names_in_", None)
        if input_features is None:
            input_features = [f"x{j}" for j in range(self.n_features_in_)]
        names = [c for c in input_features if c not in self.datetime_columns_]
        for column in self.datetime_columns_:
            names += [f"{column}_{part}" for part in self.date_parts_[column]]
        return np.asarray(names, dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def set_output(self, *, transform=None):
        """Accepted for pipeline compatibility; the output stays a DataFrame.

        Parameters
        ----------
        transform : {"default", "pandas", "polars"} or None

        Returns
        -------
        self : DatetimeFeatures
        """
        return self


# ---------------------------------------------------------------------------
# Pipelines
# ---------------------------------------------------------------------------

_OWNER = "openxai_preprocessor / beexai_preprocessor"


def _check_table(X, *, fit):
    """Reject what the preprocessors cannot take, with sklearn's wording and
    the fix: sparse, empty, or other than 2-D ``X``.  NaN passes (missing)."""
    if sp.issparse(X):
        raise TypeError(
            f"Sparse data was passed for X, but {_OWNER} take dense data (a "
            "DataFrame or a 2-D array): their scalers and column selection need "
            "dense columns. Use X.toarray() to convert it to a dense numpy array."
        )
    shape = X.shape if hasattr(X, "shape") else np.shape(np.asarray(X, dtype=object))
    if len(shape) != 2:
        raise ValueError(
            f"Expected 2D array, got {len(shape)}D array instead (X of shape "
            f"{tuple(shape)}); {_OWNER} take X of shape (n_samples, n_features). "
            "Reshape your data either using array.reshape(-1, 1) if your data has "
            "a single feature or array.reshape(1, -1) if it contains a single sample."
        )
    if shape[0] == 0:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={tuple(shape)}) while a minimum "
            f"of 1 is required by {_OWNER}. Pass at least one row of X."
        )
    if fit and shape[1] == 0:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={tuple(shape)}) while a minimum "
            f"of 1 is required by {_OWNER}. Pass at least one column of X."
        )


def _allows_nan(transformer):
    if isinstance(transformer, str):  # "passthrough" / "drop"
        return True
    if isinstance(transformer, Pipeline):
        return all(_allows_nan(step) for _, step in transformer.steps)
    try:
        return get_tags(transformer).input_tags.allow_nan
    except (AttributeError, TypeError):  # a transformer without sklearn tags
        return False


class _TableTransformer(ColumnTransformer):
    """The :class:`~sklearn.compose.ColumnTransformer` of the preprocessors.

    It first checks that ``X`` is a dense, non-empty 2-D table (an error
    naming ``X`` and the fix, instead of an ``IndexError`` from the column
    selectors or ColumnTransformer's "X does not contain any features" on
    1-D input), and declares ``allow_nan`` when all its transformers pass
    missing values through, as sklearn's scalers and encoders do.
    """

    def fit_transform(self, X, y=None, **params):
        _check_table(X, fit=True)
        return super().fit_transform(X, y, **params)

    def transform(self, X, **params):
        check_is_fitted(self)
        _check_table(X, fit=False)
        return super().transform(X, **params)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = all(
            _allows_nan(transformer) for _, transformer, _ in self.transformers)
        return tags


_CATEGORICAL_FEATURES = [StrOptions({"auto"}), "array-like"]


@validate_params(
    {
        "categorical_features": _CATEGORICAL_FEATURES,
        "drop": [StrOptions({"first", "if_binary"}), None],
        "handle_unknown": [StrOptions({"ignore", "error", "infrequent_if_exist"})],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(dataset_references=references("agarwal2022"))
def openxai_preprocessor(*, categorical_features="auto", drop=None,
                         handle_unknown="ignore"):
    """OpenXAI's preprocessing: one-hot categoricals, min-max scaled numbers.

    OpenXAI one-hot encodes the qualitative attributes (German credit: every
    level; Adult, COMPAS: ``drop_first``) and min-max scales every feature to
    [0, 1] using the training rows. One-hot columns are 0/1 already and are
    not rescaled. OpenXAI's code fits separate scalers on the train and the
    test split (a pitfall); this pipeline, fitted on the training rows,
    applies the training scaling to test rows (as the paper describes).

    Parameters
    ----------
    categorical_features : "auto", array-like of str or int, or bool mask
        ``"auto"``: the ``object`` / ``string`` / ``category`` columns of a
        DataFrame (none for an array). For the ordinal-coded arrays of
        ``load_*(as_frame=False)`` pass
        ``bunch.feature_types == "categorical"``.
    drop : {"first", "if_binary"} or None, default=None
        Passed to :class:`~sklearn.preprocessing.OneHotEncoder`; ``"first"``
        reproduces OpenXAI's Adult / COMPAS encoding.
    handle_unknown : {"ignore", "error", "infrequent_if_exist"}, default="ignore"
        Passed to the encoder (a level unseen in training becomes all zeros).

    Returns
    -------
    preprocessor : ColumnTransformer
        Numeric columns (min-max scaled) first, then the one-hot columns,
        named ``<column>_<level>`` (``verbose_feature_names_out=False``).
        It takes a dense, non-empty 2-D ``X`` (a DataFrame or an array; a
        sparse, empty or 1-D ``X`` raises an error saying how to convert
        it) and passes NaN through as a missing value: NaN stays NaN in its
        scaled column, and a missing category is a level of its own.

    {dataset_references}

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.datasets import openxai_preprocessor
    >>> X = pd.DataFrame({"age": [20, 40, 30], "sex": ["f", "m", "f"]})
    >>> pre = openxai_preprocessor().set_output(transform="pandas")
    >>> pre.fit_transform(X)
       age  sex_f  sex_m
    0  0.0    1.0    0.0
    1  1.0    0.0    1.0
    2  0.5    1.0    0.0
    """
    return _TableTransformer(
        [
            ("numeric", MinMaxScaler(),
             _ColumnSelector("numeric", categorical_features)),
            ("categorical",
             OneHotEncoder(drop=drop, handle_unknown=handle_unknown,
                           sparse_output=False),
             _ColumnSelector("categorical", categorical_features)),
        ],
        verbose_feature_names_out=False,
    )


def _ordinal_encoder():
    """BEExAI's encoder: sorted levels, unknown level -> -1."""
    return OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)


def _beexai_scaler(scaler, random_state):
    if scaler is None:
        return "passthrough"
    if not isinstance(scaler, str):
        return scaler
    return {
        "quantile_uniform": QuantileTransformer(output_distribution="uniform",
                                                random_state=random_state),
        "quantile_normal": QuantileTransformer(output_distribution="normal",
                                               random_state=random_state),
        "standard": StandardScaler(),
        "minmax": MinMaxScaler(),
        "maxabs": MaxAbsScaler(),
        "robust": RobustScaler(),
    }[scaler]


@validate_params(
    {
        "scaler": [StrOptions({"quantile_uniform", "quantile_normal", "standard",
                               "minmax", "maxabs", "robust"}),
                   TransformerMixin, None],
        "categorical_encoder": [StrOptions({"ordinal", "onehot"})],
        "categorical_features": _CATEGORICAL_FEATURES,
        "datetime_features": [StrOptions({"auto"}), list, None],
        "correlation_threshold": [Interval(numbers.Real, 0, 1, closed="both"), None],
        "convention": [StrOptions({"paper", "beexai_code"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(dataset_references=references("sithakoul2024"))
def beexai_preprocessor(*, scaler="quantile_normal", categorical_encoder="ordinal",
                        categorical_features="auto", datetime_features="auto",
                        correlation_threshold=None, convention="paper",
                        random_state=None):
    """BEExAI's preprocessing as a scikit-learn pipeline.

    Steps, as BEExAI's ``Preprocessor``, ``DataCleaner`` and ``Scaler``:

    1. date-time columns -> year / month / day / hour
       (:class:`DatetimeFeatures`);
    2. numeric columns: optional correlation filter
       (:class:`CorrelationFilter`), then ``scaler``; integer columns with
       values in {-1, 0, 1} (BEExAI's "categorical" test) are left as they
       are;
    3. categorical columns: ``"ordinal"`` codes (sorted levels, unknown ->
       -1), scaled by ``scaler`` when the column has more than two levels (as
       BEExAI, which scales every non-binary integer column), or ``"onehot"``
       columns (not scaled).

    BEExAI's benchmark (``benchmetrics.py``, hence its Table 5) uses the
    defaults: ordinal encoding and a quantile transform with *normal* output
    (``QuantileTransformer(output_distribution="normal")``) of every
    non-binary input, no correlation filter; its min-max target scaling is
    :func:`minmax_scale_target`.  With normal output a zero baseline (the
    removal value of BEExAI's metrics) is each feature's training median;
    with ``scaler="quantile_uniform"`` it would be each feature's minimum.

    Differences from BEExAI's code: fitted on training rows as any
    scikit-learn transformer (BEExAI also fits on the training split); the
    correlation filter only sees the scaled numeric columns (BEExAI's sees
    every numeric column of the raw frame, including binary ones); output
    order is scaled numeric, scaled ordinal, then unscaled columns (BEExAI:
    scaled columns in input order, then unscaled); one-hot columns are named
    ``<column>_<level>`` (BEExAI: ``<column>_<index>``) and unknown levels are
    ignored (BEExAI raises).

    Parameters
    ----------
    scaler : str, transformer or None, default="quantile_normal"
        ``"quantile_normal"`` (``QuantileTransformer(output_distribution=
        "normal")``, BEExAI's benchmark setting), ``"quantile_uniform"``
        (scikit-learn's ``QuantileTransformer()``), ``"standard"``,
        ``"minmax"``, ``"maxabs"``, ``"robust"``, a transformer, or None (no
        scaling).

        .. versionchanged:: 0.1
           The default was ``"quantile_uniform"``, which BEExAI's benchmark
           does not use.
    categorical_encoder : {"ordinal", "onehot"}, default="ordinal"
    categorical_features : "auto", array-like of str or int, or bool mask
        See :func:`openxai_preprocessor`.
    datetime_features : "auto", list of str or None, default="auto"
        Date-time columns to expand (``"auto"``: ``datetime64`` columns);
        None: no date step.
    correlation_threshold : float in [0, 1] or None, default=None
        Drop numeric features correlated above it (BEExAI: 0.7 when
        ``keep_corr_features=False``); None keeps all.
    convention : {"paper", "beexai_code"}, default="paper"
        Which features the correlation filter keeps: the paper's greedy
        rule or BEExAI's code (see :class:`CorrelationFilter`).
    random_state : int, RandomState or None, default=None
        For the quantile transformer's subsampling.

    Returns
    -------
    preprocessor : Pipeline
        Steps ``"datetime"`` (unless ``datetime_features=None``) and
        ``"columns"`` (a ColumnTransformer with branches ``"numeric"``,
        ``"categorical"`` and ``"unscaled"``).  Input as for
        :func:`openxai_preprocessor`: a dense, non-empty 2-D ``X``, NaN
        passed through as a missing value (an ordinal code of NaN).

    {dataset_references}

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.datasets import beexai_preprocessor
    >>> X = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0], "flag": [0, 1, 0, 1],
    ...                   "cut": ["a", "b", "c", "a"]})
    >>> pre = beexai_preprocessor(scaler="minmax").set_output(transform="pandas")
    >>> out = pre.fit_transform(X)
    >>> list(out.columns)
    ['v', 'cut', 'flag']
    >>> out["cut"].tolist()
    [0.0, 0.5, 1.0, 0.0]
    """
    scale = _beexai_scaler(scaler, random_state)
    numeric = scale
    if correlation_threshold is not None:
        numeric = Pipeline([
            ("correlation", CorrelationFilter(correlation_threshold,
                                              convention=convention)),
            ("scale", scale),
        ])
    if categorical_encoder == "ordinal":
        categorical = [
            ("categorical",
             Pipeline([("encode", _ordinal_encoder()),
                       ("scale", _beexai_scaler(scaler, random_state))]),
             _ColumnSelector("categorical_many", categorical_features)),
            ("categorical_two", _ordinal_encoder(),
             _ColumnSelector("categorical_two", categorical_features)),
        ]
    else:
        categorical = [
            ("categorical", OneHotEncoder(handle_unknown="ignore",
                                          sparse_output=False),
             _ColumnSelector("categorical", categorical_features)),
        ]
    columns = _TableTransformer(
        [("numeric", numeric, _ColumnSelector("numeric_scaled", categorical_features)),
         *categorical,
         ("unscaled", "passthrough",
          _ColumnSelector("numeric_binary", categorical_features))],
        verbose_feature_names_out=False,
    )
    steps = [("columns", columns)]
    if datetime_features is not None:
        steps.insert(0, ("datetime", DatetimeFeatures(columns=datetime_features)))
    return Pipeline(steps)


@validate_params(
    {
        "test_size": [Interval(numbers.Real, 0, 1, closed="neither"),
                      Interval(numbers.Integral, 1, None, closed="left")],
        "stratify": ["boolean"],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def openxai_split(X, y, *arrays, test_size=0.2, stratify=True, random_state=0):
    """OpenXAI's train/test split: 80/20, stratified on ``y``, seed 0.

    OpenXAI splits each data set (unless its source provides a split) with
    ``train_test_split(..., stratify=y, test_size=0.2)``; its explanations
    and metrics use the first 1000 test rows.

    Parameters
    ----------
    X : array-like or DataFrame
    y : array-like of shape (n_samples,)
    *arrays : array-like
        Further per-row arrays split the same way (e.g. ``bunch.sensitive``).
    test_size : float or int, default=0.2
    stratify : bool, default=True
        Stratify on ``y`` (classification).
    random_state : int, RandomState or None, default=0

    Returns
    -------
    splits : list
        ``X_train, X_test, y_train, y_test`` followed by the train and test
        parts of each of ``arrays``, as :func:`~sklearn.model_selection.train_test_split`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import openxai_split
    >>> X, y = np.arange(20).reshape(10, 2), np.array([0, 1] * 5)
    >>> X_train, X_test, y_train, y_test = openxai_split(X, y)
    >>> X_train.shape, X_test.shape, int(y_test.sum())
    ((8, 2), (2, 2), 1)
    """
    return train_test_split(X, y, *arrays, test_size=test_size,
                            stratify=y if stratify else None,
                            random_state=random_state)


@validate_params(
    {"y_train": ["array-like"], "feature_range": [tuple]},
    prefer_skip_nested_validation=True,
)
def minmax_scale_target(y_train, *y_other, feature_range=(0, 1)):
    """Min-max scale a regression target with the training range (BEExAI).

    BEExAI scales regression targets to [0, 1] with a ``MinMaxScaler`` fitted
    on the training targets, so models and every metric work on the scaled
    target. Train the model on the returned values to reproduce it.

    With :class:`sklearn.compose.TransformedTargetRegressor`
    (``TransformedTargetRegressor(regressor, transformer=MinMaxScaler())``)
    the regressor is fitted on the scaled target, but ``predict`` maps the
    predictions back to the original units, so attributions and metrics of
    that wrapper are in the original units, not BEExAI's; explain its fitted
    ``regressor_`` on transformed inputs for BEExAI's scale.

    Parameters
    ----------
    y_train : array-like of shape (n_samples,)
        Defines the range.
    *y_other : array-like
        Further targets (test, validation) scaled with the training range.
    feature_range : tuple (min, max), default=(0, 1)

    Returns
    -------
    scaled : ndarray or tuple of ndarray
        ``y_train`` scaled, or a tuple with every input scaled.

    Examples
    --------
    >>> from sklearn_xai.datasets import minmax_scale_target
    >>> train, test = minmax_scale_target([1.0, 3.0, 5.0], [2.0, 7.0])
    >>> train.tolist(), test.tolist()
    ([0.0, 0.5, 1.0], [0.25, 1.5])
    """
    scaler = MinMaxScaler(feature_range=feature_range)
    scaler.fit(np.asarray(y_train, dtype=np.float64).reshape(-1, 1))
    scaled = tuple(
        scaler.transform(np.asarray(y, dtype=np.float64).reshape(-1, 1)).ravel()
        for y in (y_train, *y_other)
    )
    return scaled[0] if not y_other else scaled
