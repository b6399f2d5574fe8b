"""``sklearn-xai submit-check``: a submitted results folder is checked
(files, schema, preset, version, seeds) without executing anything in it,
and every problem is listed, naming the file and the fix."""

import csv
import io
import json
import os
import shutil

import numpy as np
import pytest

from sklearn_xai.benchmark import _submit, check_submission
from sklearn_xai.benchmark._cli import main

from .conftest import PRESET

pytestmark = pytest.mark.usefixtures("tiny_preset")


class _Payload:
    """Unpickling it would create the file ``path`` (it must never run)."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.fixture
def submission(site_folders, tmp_path):
    folder = tmp_path / "submission"
    shutil.copytree(site_folders["submission"], folder)
    return folder


def test_a_valid_submission_passes(site_folders, capsys):
    assert check_submission(site_folders["submission"]) == []
    assert main(["submit-check", str(site_folders["submission"])]) == 0
    assert "accepted" in capsys.readouterr().out
    # A local run without submission.json: a submission needs one; the site
    # accepts it as a local folder.
    problems = check_submission(site_folders["base"])
    assert len(problems) == 1 and problems[0].startswith("submission.json is missing")
    assert check_submission(site_folders["base"], submission=False) == []


def test_every_problem_is_listed_with_its_file(submission, tmp_path, capsys):
    marker = tmp_path / "unpickled"
    np.savez(submission / "cells.npz", x=np.array([_Payload(str(marker))], dtype=object))
    (submission / "model.pkl").write_bytes(b"\x80\x04N.")
    (submission / "report.html").write_text("<p>hi</p>")
    os.symlink("/etc/hostname", submission / "linked.csv")
    (submission / "sub").mkdir()
    os.symlink(tmp_path, submission / "sub" / "escape")
    status = main(["submit-check", str(submission)])
    text = capsys.readouterr().out
    assert status == 1
    assert not marker.exists()  # the pickle was never loaded
    for expected in ["cells.npz: not an NPZ file of plain arrays",
                     "model.pkl: not a CSV, JSON or NPZ file",
                     "report.html: not a CSV, JSON or NPZ file",
                     "linked.csv: a symbolic link",
                     f"sub{os.sep}escape: a symbolic link to a folder"]:
        assert expected in text, expected
    assert text.count("\n  - ") == 5


def test_sizes_are_bounded(submission, monkeypatch):
    monkeypatch.setattr(_submit, "MAX_FILE_BYTES", 2000)
    problems = check_submission(submission)
    assert any(p.startswith("per_row.csv: ") and "over the bound of 2000" in p
               for p in problems)
    monkeypatch.setattr(_submit, "MAX_FILE_BYTES", 10**9)
    monkeypatch.setattr(_submit, "MAX_ROWS", 5)
    n_rows = len(open(submission / "results.csv").read().splitlines()) - 1
    assert f"results.csv: {n_rows} rows, over the bound of 5" in " ".join(
        check_submission(submission))


def _edit_record(folder, edit, name="benchmark.json"):
    record = json.loads((folder / name).read_text())
    edit(record)
    (folder / name).write_text(json.dumps(record))


def test_preset_version_and_seeds_are_checked(submission):
    _edit_record(submission, lambda r: r.update(preset="no_such_preset",
                                                sklearn_xai_version="latest!"),
                 name="submission.json")
    _edit_record(submission, lambda r: r["spec"].update(seeds=[]))
    problems = check_submission(submission)
    assert any("'no_such_preset' is not a known preset" in p for p in problems)
    assert any("sklearn_xai_version 'latest!' is not a version number" in p
               for p in problems)
    assert any("records no seeds" in p for p in problems)


def test_a_run_that_changed_the_preset_is_refused(submission):
    def drop_metric(record):
        del record["spec"]["metrics"]["neg_complexity"]

    _edit_record(submission, drop_metric)
    problems = check_submission(submission)
    assert problems == [f"benchmark.json: the run's metrics differ from those of the "
                        f"preset {PRESET!r} in this version of sklearn_xai; rerun the "
                        "preset (adding explainers only) with this version"]


def test_schema_types_and_digests(submission):
    text = (submission / "results.csv").read_text().splitlines()
    header, row = csv.reader(text[:2])
    row[header.index("seed")] = "zero"
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC).writerow(row)
    (submission / "results.csv").write_text(
        "\n".join([text[0], buffer.getvalue().strip()] + text[2:]) + "\n")
    problems = check_submission(submission)
    # Edited after the run (the digest of benchmark.json), and a seed that
    # is not an integer.
    assert any("differs from the file the run wrote" in p for p in problems)
    assert any("column 'seed' must hold integers; row 1 holds 'zero'" in p
               for p in problems)
