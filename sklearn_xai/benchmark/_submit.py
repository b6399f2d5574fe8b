"""Checks of a results folder submitted by someone else (``sklearn-xai
submit-check``), before the results site (:func:`build_site`) reads it.

A submission is a results folder as :meth:`BenchmarkResults.save` writes it
(``results.csv``, ``per_row.csv``, ``leaderboard.csv``, ``benchmark.json``)
and a ``submission.json`` naming the submitter, the preset and the
sklearn_xai version that ran it.  Only CSV, JSON and NPZ files are allowed,
none of them a link, none larger than a bound; nothing in the folder is
executed (CSV and JSON are parsed as data, NPZ arrays loaded with
``allow_pickle=False``).
"""

import json
import os
import re
import warnings

import numpy as np

from sklearn_xai.benchmark._results import PER_ROW_COLUMNS, BenchmarkResults
from sklearn_xai.utils._files import json_size_problem, one_line

__all__ = ["check_submission"]

#: Largest file of a results folder (bytes), most data rows of one CSV file
#: and most files of a folder.
MAX_FILE_BYTES = 64 * 2**20
MAX_ROWS = 2_000_000
MAX_FILES = 1000
#: The file types a results folder may hold.
ALLOWED_SUFFIXES = (".csv", ".json", ".npz")
SUBMISSION_FILE = "submission.json"
# Columns results.csv must have, and what each must hold.
_RESULT_COLUMNS = {"dataset": "text", "model": "text", "explainer": "text",
                   "metric": "text", "seed": "integer", "value": "number",
                   "greater_is_better": "boolean", "status": "status"}
_STATUSES = {"ok", "skipped", "error"}
_KINDS = {"text": "a non-empty label in every row", "integer": "integers",
          "number": "numbers (empty for a failed score)", "boolean": "True or False",
          "status": "'ok', 'skipped' or 'error'"}
# Longest text field of submission.json (submitter, preset, version).
_MAX_FIELD = 200
_VERSION = re.compile(r"\d+(\.\d+)*((a|b|rc|\.dev|\.post)\d+)*(\+[A-Za-z0-9.]+)?")
_FIX_TYPES = ("a results folder holds only the files BenchmarkResults.save writes "
              "(CSV and JSON) and NPZ arrays: remove it (reports, figures and Parquet "
              "copies are rebuilt by the site) or submit a copy without it")


def _name(directory, path):
    return os.path.relpath(path, directory)


def _walk(directory, problems):
    """The regular files of ``directory`` (relative names), every link,
    unknown file type, oversized file or path leaving the folder reported
    in ``problems``."""
    root = os.path.realpath(directory)
    files = []
    def unreadable(error):
        problems.append(f"{_name(directory, error.filename)}: cannot be read "
                        f"({error.strerror}); make it readable or remove it")

    for here, dirs, names in os.walk(directory, onerror=unreadable, followlinks=False):
        for d in list(dirs):
            path = os.path.join(here, d)
            if os.path.islink(path):
                problems.append(f"{_name(directory, path)}: a symbolic link to a folder; "
                                "replace it by the folder's files or remove it")
                dirs.remove(d)
        for n in names:
            path = os.path.join(here, n)
            rel = _name(directory, path)
            if os.path.islink(path):
                problems.append(f"{rel}: a symbolic link; a results folder holds its "
                                "files themselves: copy the file in, or remove the link")
                continue
            real = os.path.realpath(path)
            if not real.startswith(root.rstrip(os.sep) + os.sep):
                problems.append(f"{rel}: leads out of the folder; remove it")
                continue
            if not os.path.isfile(path):
                problems.append(f"{rel}: not a regular file (a device, socket or pipe); "
                                "remove it")
                continue
            if not n.lower().endswith(ALLOWED_SUFFIXES):
                problems.append(f"{rel}: not a CSV, JSON or NPZ file; {_FIX_TYPES}")
                continue
            size = os.path.getsize(path)
            if size > MAX_FILE_BYTES:
                problems.append(f"{rel}: {size} bytes, over the bound of {MAX_FILE_BYTES}; "
                                "explain fewer rows or split the run into several "
                                "submissions")
                continue
            files.append(rel)
            if len(files) > MAX_FILES:
                problems.append(f"more than {MAX_FILES} files; submit the results files "
                                "without the cell cache")
                return files
    return files


def _read_json(directory, name, problems):
    """A JSON object of bounded size, else None (the problem recorded)."""
    path = os.path.join(directory, name)
    try:
        with open(path, encoding="utf-8") as fh:
            document = json.load(fh)
    except RecursionError:
        problems.append(f"{name}: nests too deeply; write it with json.dump of a flat "
                        "record")
        return None
    except (OSError, ValueError) as exc:
        problems.append(f"{name}: not valid UTF-8 JSON ({one_line(exc)}); write it again "
                        "with json.dump")
        return None
    problem = json_size_problem(document) if isinstance(document, dict) else (
        f"holds a {type(document).__name__}, not a JSON object")
    if problem is not None:
        problems.append(f"{name}: {problem}; write the record of a run with "
                        "BenchmarkResults.save")
        return None
    return document


def _check_npz(directory, name, problems):
    try:
        with np.load(os.path.join(directory, name), allow_pickle=False) as data:
            for key in data.files:
                data[key]
    except (OSError, ValueError, EOFError) as exc:
        problems.append(f"{name}: not an NPZ file of plain arrays ({one_line(exc)}); "
                        "save arrays with numpy.savez, never Python objects")


def _count_rows(path):
    """Data rows of a CSV file (its lines but the header, quoted line breaks
    counted: an upper bound), read in blocks."""
    n = 0
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            n += block.count(b"\n")
    return max(n - 1, 0)


def _is_integer(values):
    numbers = np.asarray(values, dtype=float)
    return np.isfinite(numbers).all() and (numbers == np.round(numbers)).all()


def _check_table(table, problems):
    """The columns of results.csv and the types of their values."""
    missing = [c for c in _RESULT_COLUMNS if c not in table]
    if missing:
        problems.append(f"results.csv lacks the columns {missing}; write it with "
                        "BenchmarkResults.save")
        return
    import pandas as pd

    for column, kind in _RESULT_COLUMNS.items():
        values = table[column]
        if kind == "text":
            bad = values.isna() | (values.astype(str).str.len() == 0)
        elif kind == "integer":
            numbers = pd.to_numeric(values, errors="coerce")
            bad = numbers.isna() | (numbers != numbers.round())
        elif kind == "number":
            bad = pd.to_numeric(values, errors="coerce").isna() & values.notna()
        elif kind == "boolean":
            text = values.astype(str).str.lower()
            bad = values.notna() & ~text.isin(["true", "false", "1", "0", "1.0", "0.0"])
        else:
            bad = ~values.astype(str).isin(_STATUSES)
        if bad.any():
            first = int(np.flatnonzero(bad.to_numpy())[0])
            problems.append(
                f"results.csv: column {column!r} must hold {_KINDS[kind]}; row "
                f"{first + 1} holds {one_line(values.iloc[first])[:80]!r}; write it with "
                "BenchmarkResults.save")


def _check_seeds(spec, table, problems):
    seeds = spec.get("seeds") if isinstance(spec, dict) else None
    if (not isinstance(seeds, list) or not seeds
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds)):
        problems.append("benchmark.json: the spec records no seeds (a non-empty list of "
                        "integers under spec.seeds); rerun the benchmark, which records "
                        "them")
        return
    if table is not None and "seed" in table:
        import pandas as pd

        found = set(pd.to_numeric(table["seed"], errors="coerce").dropna().astype(int))
        extra = sorted(found - set(seeds))
        if extra:
            problems.append(f"results.csv has seeds {extra} that benchmark.json does not "
                            f"record (spec.seeds = {seeds}); submit the folder of one "
                            "run, as written")


def _check_metadata(meta, spec, problems):
    """submission.json: submitter, a known preset whose datasets, models and
    metrics the run kept, and the sklearn_xai version."""
    for key in ("submitter", "preset", "sklearn_xai_version"):
        value = meta.get(key)
        if not isinstance(value, str) or not value.strip() or len(value) > _MAX_FIELD:
            problems.append(f"submission.json: {key!r} must be a non-empty string of at "
                            f"most {_MAX_FIELD} characters, got {one_line(value)[:80]!r}")
    version = meta.get("sklearn_xai_version")
    if isinstance(version, str) and not _VERSION.fullmatch(version):
        problems.append(f"submission.json: sklearn_xai_version {version[:80]!r} is not a "
                        "version number; write sklearn_xai.__version__ of the run")
    preset = meta.get("preset")
    if not isinstance(preset, str):
        return
    from sklearn_xai.benchmark.presets import get_preset, is_preset

    if not is_preset(preset):
        problems.append(f"submission.json: {one_line(preset)[:80]!r} is not a known "
                        "preset; run a preset of 'sklearn-xai list presets' (and "
                        "register your own explainer), so that the rows are comparable")
        return
    if not isinstance(spec, dict):
        return
    expected = json.loads(json.dumps(get_preset(preset).to_dict(), default=repr))
    differ = [key for key in ("datasets", "models", "metrics")
              if spec.get(key) != expected.get(key)]
    if differ:
        problems.append(f"benchmark.json: the run's {', '.join(differ)} differ from "
                        f"those of the preset {preset!r} in this version of sklearn_xai; "
                        "rerun the preset (adding explainers only) with this version")


def _inspect(directory, submission=None):
    """Check a results folder; load it when it passes.

    Parameters
    ----------
    directory : str
    submission : bool or None
        Require ``submission.json`` (True), or check it when present (None).

    Returns
    -------
    results : BenchmarkResults or None
    meta : dict
        ``submission.json`` (empty when absent).
    problems : list of str
    """
    directory = os.fspath(directory)
    problems = []
    results = None
    if not os.path.isdir(directory):
        return None, {}, [f"{directory}: not a folder; give the folder a run wrote "
                          "(sklearn-xai run --out DIR)"]
    files = _walk(directory, problems)
    unsafe = bool(problems)  # a link or a foreign file: read nothing through pandas
    for required in ("results.csv", "benchmark.json"):
        if required not in files and not any(p.startswith(required + ":")
                                             for p in problems):
            problems.append(f"{required} is missing; a results folder holds the files "
                            "BenchmarkResults.save writes")
    meta = {}
    if SUBMISSION_FILE in files:
        meta = _read_json(directory, SUBMISSION_FILE, problems) or {}
    elif submission:
        problems.append(f"{SUBMISSION_FILE} is missing; write one with the keys "
                        "'submitter', 'preset' and 'sklearn_xai_version'")
    record = (_read_json(directory, "benchmark.json", problems)
              if "benchmark.json" in files else None)
    spec = record.get("spec") if isinstance(record, dict) else None
    if record is not None and not isinstance(spec, dict):
        problems.append("benchmark.json: no 'spec' object; write it with "
                        "BenchmarkResults.save")
        spec = None
    elif spec is not None and not isinstance(spec.get("name"), str):
        problems.append("benchmark.json: spec.name must be a string (the benchmark's name)")
    for name in files:
        if name.lower().endswith(".npz"):
            _check_npz(directory, name, problems)
        elif name.lower().endswith(".csv"):
            rows = _count_rows(os.path.join(directory, name))
            if rows > MAX_ROWS:
                unsafe = True
                problems.append(f"{name}: {rows} rows, over the bound of {MAX_ROWS}; "
                                "explain fewer rows or split the run")
    table = None
    if "results.csv" in files and isinstance(spec, dict) and not unsafe:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                results = BenchmarkResults.load(directory)
            problems.extend(f"{one_line(w.message)} Submit the folder as the run wrote "
                            "it." for w in caught)
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            problems.append(f"the results cannot be read: {one_line(exc)}")
        if results is not None:
            table = results.table
            _check_table(table, problems)
            per_row = results.per_row
            missing = [c for c in PER_ROW_COLUMNS if c not in per_row]
            if len(per_row.columns) and missing:
                problems.append(f"per_row.csv lacks the columns {missing}; write it with "
                                "BenchmarkResults.save")
    if spec is not None:
        _check_seeds(spec, table, problems)
    if meta and (submission or submission is None):
        _check_metadata(meta, spec, problems)
    if problems:
        return None, meta, problems
    return results, meta, []


def check_submission(directory, *, submission=True):
    """Check a results folder before it is shared or merged into the site.

    A folder passes when it holds only CSV, JSON and NPZ files (no link, no
    other file type, no file over 64 MiB or 2 million rows, NPZ arrays
    loadable with ``allow_pickle=False``); ``results.csv`` and
    ``benchmark.json`` (the record of the run :meth:`BenchmarkResults.save`
    writes) are there and read back with the digests of the record; the
    results table has its columns with values of their types; the seeds are
    recorded (``spec.seeds``) and are those of the table.  A submission also
    holds ``submission.json``, a JSON object with ``submitter``,
    ``preset`` (a known preset, whose datasets, models and metrics the run
    kept) and ``sklearn_xai_version``.  Nothing is executed: CSV and JSON
    are parsed as data, NPZ arrays loaded without pickle.

    Parameters
    ----------
    directory : str or path-like
        The results folder.
    submission : bool, default=True
        Require ``submission.json``; False checks a local results folder
        (``submission.json`` is then checked only when present).

    Returns
    -------
    problems : list of str
        Every problem found, each naming the file and the fix; empty when
        the folder passes.

    Examples
    --------
    >>> import tempfile
    >>> from sklearn_xai.benchmark import check_submission
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     problems = check_submission(folder)
    >>> [p.split(" ")[0] for p in problems]
    ['results.csv', 'benchmark.json', 'submission.json']
    """
    return _inspect(directory, submission=True if submission else None)[2]
