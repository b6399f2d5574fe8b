"""Numeric codes for the columns of a raw DataFrame, and the way back.

Explainers that only *substitute* a column's values (a masker that takes
removed features from background rows) need no arithmetic on the values, so
they can explain a model on the columns a user knows: strings, pandas
categoricals, booleans and numbers side by side.  :class:`TabularCodec`
turns such a DataFrame into a float64 matrix (numbers as they are, every
other column as the index of its value in that column's categories) and
turns any matrix of such codes back into a DataFrame with the original
columns and dtypes, which is what the user's Pipeline is called on.

scikit-learn's :class:`~sklearn.preprocessing.OrdinalEncoder` encodes but
cannot restore a column's pandas dtype (a ``category`` column with its
declared categories, a nullable ``string`` column), and a model that selects
columns by dtype (``make_column_selector(dtype_include="category")``,
HistGradientBoosting's ``categorical_features="from_dtype"``) needs it back
exactly, so the codec keeps the dtype of each column itself.
"""

import numpy as np
import pandas as pd

__all__ = ["TabularCodec", "has_non_numeric_columns"]


def _is_numeric(dtype):
    """Whether a pandas column dtype holds numbers (booleans included)."""
    if isinstance(dtype, pd.CategoricalDtype):
        return False
    return pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype)


def has_non_numeric_columns(X):
    """Whether ``X`` is a pandas DataFrame with a column that is not numeric.

    Parameters
    ----------
    X : object

    Returns
    -------
    bool

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.utils._tabular import has_non_numeric_columns
    >>> has_non_numeric_columns(pd.DataFrame({"a": [1.0], "b": ["x"]}))
    True
    >>> has_non_numeric_columns(pd.DataFrame({"a": [1.0]}))
    False
    """
    if not isinstance(X, pd.DataFrame):
        return False
    return not all(_is_numeric(dtype) for dtype in X.dtypes)


class TabularCodec:
    """Float codes for a DataFrame's columns and the DataFrame back from them.

    Numeric and boolean columns keep their values (as float64); every other
    column (strings, objects, pandas categoricals) is coded by the position
    of its value in the column's categories: the declared categories of a
    ``category`` column, otherwise the sorted distinct values seen at
    :meth:`fit`.  Missing values are coded ``NaN`` and decoded as missing.
    Date and time columns are refused: a date has no category table and no
    arithmetic an explainer could use.

    Attributes
    ----------
    columns_ : list
        Column labels, in order.
    dtypes_ : list of dtype
        Each column's dtype at fit.
    categories_ : list of ndarray or None
        Each non-numeric column's categories (``None`` for numeric columns).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.utils._tabular import TabularCodec
    >>> df = pd.DataFrame({"size": ["small", "large", "small"], "x": [1, 2, 3]})
    >>> codec = TabularCodec().fit(df)
    >>> codec.encode(df).to_numpy().tolist()
    [[1.0, 1.0], [0.0, 2.0], [1.0, 3.0]]
    >>> codec.decode([[0.0, 5.0]]).to_dict("list")
    {'size': ['large'], 'x': [5]}
    """

    def fit(self, X):
        """Learn the columns, their dtypes and the categories of the
        non-numeric ones.

        Parameters
        ----------
        X : pandas.DataFrame

        Returns
        -------
        self : TabularCodec
        """
        if not isinstance(X, pd.DataFrame):
            raise TypeError(f"TabularCodec needs a pandas DataFrame; got {type(X).__name__}.")
        self.columns_ = list(X.columns)
        self.dtypes_ = list(X.dtypes)
        self.categories_ = []
        for name, dtype in zip(self.columns_, self.dtypes_):
            column = X[name]
            if _is_numeric(dtype):
                self.categories_.append(None)
            elif pd.api.types.is_datetime64_any_dtype(dtype) \
                    or pd.api.types.is_timedelta64_dtype(dtype) \
                    or isinstance(dtype, pd.PeriodDtype):
                raise ValueError(
                    f"X column {name!r} holds dates or times (dtype {dtype}); explainers "
                    "cannot substitute or compare them. Turn it into numbers (e.g. days "
                    "since a reference date) or drop it before explaining."
                )
            elif isinstance(dtype, pd.CategoricalDtype):
                self.categories_.append(np.asarray(dtype.categories, dtype=object))
            else:
                values = pd.unique(column.dropna())
                try:
                    values = np.asarray(sorted(values), dtype=object)
                except TypeError:  # mixed types: first-seen order
                    values = np.asarray(values, dtype=object)
                self.categories_.append(values)
        return self

    @property
    def non_numeric_columns_(self):
        """Labels of the coded (non-numeric) columns."""
        return [c for c, cats in zip(self.columns_, self.categories_) if cats is not None]

    @property
    def discrete_mask_(self):
        """Boolean mask of the columns whose codes take whole values only:
        the coded columns, boolean and integer columns (continuous noise or a
        mean makes no value of theirs); ``False`` for float columns."""
        return np.array([
            cats is not None or not pd.api.types.is_float_dtype(dtype)
            for dtype, cats in zip(self.dtypes_, self.categories_)
        ], dtype=bool)

    def encode(self, X):
        """The float64 codes of ``X``, a DataFrame with the fitted columns.

        Parameters
        ----------
        X : pandas.DataFrame

        Returns
        -------
        codes : pandas.DataFrame of float64, same columns and index
        """
        if not isinstance(X, pd.DataFrame):
            raise TypeError(
                "This explainer was fitted on a DataFrame with non-numeric columns "
                f"{self.non_numeric_columns_}; pass a DataFrame with the same columns, "
                f"got {type(X).__name__}."
            )
        missing = [c for c in self.columns_ if c not in X.columns]
        if missing:
            raise ValueError(f"X lacks the fitted column(s) {missing}.")
        out = np.empty((len(X), len(self.columns_)))
        for j, (name, cats) in enumerate(zip(self.columns_, self.categories_)):
            column = X[name]
            if cats is None:
                try:
                    out[:, j] = np.asarray(column, dtype=np.float64)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"X column {name!r} was numeric at fit but holds "
                        f"{column.dtype} values now."
                    ) from None
                continue
            values = np.asarray(column.astype(object), dtype=object)
            missing_value = pd.isna(values)
            codes = pd.Index(cats).get_indexer(values[~missing_value])
            if (codes < 0).any():
                unseen = sorted({str(v) for v in values[~missing_value][codes < 0]})[:5]
                raise ValueError(
                    f"X column {name!r} has value(s) {unseen} that were not in the rows "
                    "the explainer was fitted on; fit the explainer on rows that hold "
                    "every category (or declare them with a pandas CategoricalDtype)."
                )
            out[~missing_value, j] = codes
            out[missing_value, j] = np.nan
        return pd.DataFrame(out, columns=X[self.columns_].columns, index=X.index)

    def decode(self, Z):
        """A DataFrame with the fitted columns and dtypes from codes ``Z``.

        Parameters
        ----------
        Z : array-like of shape (n_rows, n_columns)
            Codes, as :meth:`encode` gives them (or mixed from several
            encoded rows).

        Returns
        -------
        X : pandas.DataFrame
        """
        Z = np.asarray(Z, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[1] != len(self.columns_):
            raise ValueError(
                f"Codes must have shape (n_rows, {len(self.columns_)}); got {Z.shape}."
            )
        data = {}
        for j, (name, dtype, cats) in enumerate(zip(self.columns_, self.dtypes_,
                                                     self.categories_)):
            z = Z[:, j]
            self._check_codes(name, dtype, cats, z)
            if cats is None:
                # Values come from encoded rows, so an integer column's
                # codes are whole numbers; nullable dtypes keep NaN missing.
                data[name] = pd.Series(z, copy=False).astype(dtype)
                continue
            missing_value = np.isnan(z)
            codes = np.where(missing_value, -1, z).astype(np.intp)
            if isinstance(dtype, pd.CategoricalDtype):
                data[name] = pd.Categorical.from_codes(codes, dtype=dtype)
            else:
                values = np.empty(len(z), dtype=object)
                values[~missing_value] = cats[codes[~missing_value]]
                values[missing_value] = None
                data[name] = values if dtype == object else pd.Series(values).astype(dtype)
        return pd.DataFrame(data, columns=self.columns_)

    @staticmethod
    def _check_codes(name, dtype, cats, z):
        """Refuse codes that are no value of the column: a fraction or an
        out-of-range index for a coded column, a fraction for an integer
        column, anything but 0 and 1 for a boolean one (what an arithmetic
        perturbation, such as Gaussian noise or a mean, makes of them)."""
        if cats is None and pd.api.types.is_float_dtype(dtype):
            return
        known = z[~np.isnan(z)]
        if cats is not None:
            bad = (known != np.round(known)) | (known < 0) | (known >= len(cats))
            what = f"category codes in [0, {len(cats) - 1}]"
        elif pd.api.types.is_bool_dtype(dtype):
            bad = (known != 0) & (known != 1)
            what = "0 or 1 (a boolean column)"
        else:
            bad = known != np.round(known)
            what = f"whole numbers (a {dtype} column)"
        if bad.any():
            raise ValueError(
                f"Column {name!r} was given {float(known[bad][0])!r} where it takes {what}: "
                "its values were changed arithmetically (noise, a mean, an "
                "interpolation). Substitute whole values instead (a masker such as "
                "MarginalMasker), or leave this column out of such perturbations."
            )
