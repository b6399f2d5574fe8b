"""Files written into, and read from, a folder the user may have received
from someone else (a benchmark's results folder).

* :func:`write_in_folder` writes one file atomically (a temporary file in the
  same folder, then :func:`os.replace`), and never through a symbolic link: a
  link planted under the file's name is replaced by the file, not followed,
  and a sub-folder that is a link, or that leads out of the folder, is
  refused.
* :func:`markdown_text` escapes a label for Markdown (a table cell, a
  heading, a list item): one line, no raw HTML, no table or link syntax.
* :func:`csv_text` keeps a label written into a CSV file from being read
  as a formula by a spreadsheet (CSV injection); :func:`csv_frame_text` does so
  for every text cell of a table, reversibly, and :func:`read_csv_frame`
  reads the exact original cells back.
* :func:`json_size_problem` bounds what a parsed YAML/JSON document expands
  to (a YAML "alias bomb" of a few hundred bytes expands to billions of
  nodes) and how deeply it nests.
"""

import os
import re
import tempfile

from sklearn_xai.utils._docstring import Substitution

__all__ = ["csv_frame_text", "csv_text", "file_sha256", "json_size_problem", "markdown_code",
           "markdown_text", "one_line", "read_csv_frame", "write_in_folder"]

# Line breaks str.splitlines() knows, and the other control characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_MARKDOWN = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "`": "\\`",
             "[": "\\[", "]": "\\]", "\\": "\\\\"}
_MARKDOWN_RE = re.compile("[" + re.escape("".join(_MARKDOWN)) + "]")

#: Most nodes (mappings, lists, scalars, counted as often as aliases repeat
#: them) a config or record may expand to, and deepest nesting.
MAX_NODES = 1_000_000
MAX_DEPTH = 100


def markdown_text(value):
    """``value`` as one line of Markdown text that renders as itself.

    Control characters and line breaks become one space (a label cannot
    start a new line, a heading or a list item), HTML's ``& < >`` become
    entities (no raw tag reaches the page) and the characters of tables,
    code spans and links are escaped with a backslash.

    Parameters
    ----------
    value : object
        A label; ``str(value)`` is escaped.

    Returns
    -------
    text : str
    """
    text = one_line(value)
    return _MARKDOWN_RE.sub(lambda m: _MARKDOWN[m.group()], text)


# The Parameters and Returns of the functions that print a value as text
# (a docstring fragment).
_VALUE_TO_TEXT = """
    Parameters
    ----------
    value : object

    Returns
    -------
    text : str"""

@Substitution(value_to_text=_VALUE_TO_TEXT)
def one_line(value):
    """``str(value)`` on one line, without control characters (a label or
    message from a file printed on a terminal: no line break, no escape
    sequence).

    {value_to_text}
    """
    return _CONTROL.sub(" ", str(value))


# First characters a spreadsheet reads as the start of a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def csv_text(value):
    """``value`` as one line of text that a spreadsheet opening the CSV file
    shows as text, never evaluates (CSV injection).

    Control characters and line breaks become one space, and a label that
    starts like a formula (``= + - @``, a tab, ``|`` or ``%``) gets a
    leading apostrophe, which spreadsheets read as "this cell is text".
    The CSV writer still quotes commas and quotes.

    Parameters
    ----------
    value : object
        A label (a column name, a row label); ``str(value)`` is escaped.

    Returns
    -------
    text : str

    Examples
    --------
    >>> from sklearn_xai.utils._files import csv_text
    >>> print(csv_text("=SUM(A1:A9)"), csv_text("age"))
    '=SUM(A1:A9) age
    """
    text = one_line(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


# A number as a spreadsheet reads it ("-0.5", "+3", "1e-3"): not a formula.
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _escape_cell(text):
    """A text cell that a spreadsheet shows as text: one leading apostrophe
    when it starts like a formula, or with an apostrophe (so the escape can
    be undone), unless it is a plain number."""
    if text.startswith(_FORMULA_START + ("'",)) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_frame_text(frame):
    """``frame`` (without its index) as the text of a CSV file that a
    spreadsheet may open, its text cells escaped reversibly (CSV injection).

    A text cell or column name that starts like a formula (``= + - @``, a
    tab, a carriage return, ``|`` or ``%``) gets a leading apostrophe, which
    spreadsheets read as "this cell is text"; so does one that starts with
    an apostrophe, so that :func:`read_csv_frame` can strip exactly one from
    every text cell that starts with one and get the original back.
    Numbers (numeric columns, and numbers in object columns) and text that
    is a plain number (``"-0.5"``) are left as they are.  Every text cell
    is quoted (``csv.QUOTE_NONNUMERIC``): a carriage return inside a label
    stays inside its cell, where an unquoted one would start a new row (and
    the text after it a formula).

    Parameters
    ----------
    frame : DataFrame
        Not modified.

    Returns
    -------
    text : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.utils._files import csv_frame_text
    >>> print(csv_frame_text(pd.DataFrame({"label": ["=1+2", "'a", "b"],
    ...                                    "score": [-1.0, 0, 1]})), end="")
    "label","score"
    "'=1+2",-1.0
    "''a",0.0
    "b",1.0
    """
    import csv

    out = frame.copy()
    for i, dtype in enumerate(frame.dtypes):
        if dtype.kind in "OSUT" or str(dtype) in ("string", "str", "category"):
            out.isetitem(i, frame.iloc[:, i].astype(object).map(
                lambda v: _escape_cell(v) if isinstance(v, str) else v,
                na_action="ignore"))
    out.columns = [_escape_cell(c) if isinstance(c, str) else c for c in frame.columns]
    return out.to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC)


def _unescape_cell(value):
    return value[1:] if isinstance(value, str) and value.startswith("'") else value


def read_csv_frame(path, **kwargs):
    """Read a CSV file written by :func:`csv_frame_text` (the inverse of its
    escape): one leading apostrophe is stripped from every text cell and
    column name that has one.

    Parameters
    ----------
    path : str or path-like
    **kwargs
        Passed to :func:`pandas.read_csv`.

    Returns
    -------
    frame : DataFrame
    """
    import pandas as pd

    frame = pd.read_csv(path, **kwargs)
    for i, dtype in enumerate(frame.dtypes):
        if dtype.kind == "O":
            frame.isetitem(i, frame.iloc[:, i].map(_unescape_cell, na_action="ignore"))
    frame.columns = [_unescape_cell(c) for c in frame.columns]
    return frame


@Substitution(value_to_text=_VALUE_TO_TEXT)
def markdown_code(value):
    """``value`` as the text of a one-line Markdown code span (between
    backticks, where nothing is interpreted): control characters and line
    breaks become a space, backticks a quote.

    {value_to_text}
    """
    return one_line(value).replace("`", "'")


def file_sha256(path):
    """SHA-256 hex digest of a file's bytes (read in 1 MiB chunks)."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(2**20), b""):
            h.update(chunk)
    return h.hexdigest()


def _inside(root, path):
    root = os.path.realpath(root)
    path = os.path.realpath(path)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def write_in_folder(directory, name, data):
    """Write ``data`` to ``directory/name`` atomically, never through a link.

    The data goes to a new temporary file in the target's folder (created
    with ``O_EXCL``, so never an existing file or link), which then replaces
    ``name``: a symbolic link under that name is replaced, not followed, and
    a reader never sees a half-written file.  Sub-folders of ``name`` are
    created when missing; one that is a symbolic link, or that resolves
    outside ``directory``, is refused.

    Parameters
    ----------
    directory : str or path-like
        The folder written into (it may itself be a link the user chose).
    name : str
        Path of the file relative to ``directory``, with ``/`` between
        folders; no absolute path, no ``..``.
    data : str or bytes
        The content (``str`` is written as UTF-8).

    Returns
    -------
    path : str
        ``os.path.join(directory, name)``.

    Raises
    ------
    ValueError
        When ``name`` leaves the folder or a sub-folder is a link.
    """
    directory = os.fspath(directory)
    parts = name.split("/")
    if os.path.isabs(name) or any(p in ("", ".", "..") or os.sep in p for p in parts):
        raise ValueError(f"{name!r} is not a file name inside the folder {directory!r}.")
    folder = directory
    os.makedirs(folder, exist_ok=True)
    for part in parts[:-1]:
        folder = os.path.join(folder, part)
        if os.path.islink(folder) or not _inside(directory, folder):
            raise ValueError(
                f"{folder!r} is a symbolic link; sklearn_xai never writes through a "
                f"link in a results folder: remove it, or write the results to a new "
                f"folder.")
        os.makedirs(folder, exist_ok=True)
    path = os.path.join(directory, *parts)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{parts[-1]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_UMASK)  # as open() would create it
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def _read_umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# Read once, at import: os.umask() can only be read by setting it, which
# would race with files other threads create while it is changed.
_UMASK = _read_umask()


def json_size_problem(document, max_nodes=MAX_NODES, max_depth=MAX_DEPTH):
    """Why ``document`` (parsed YAML or JSON) is too large, or None.

    Counts the nodes the document expands to, a node reached through ``n``
    aliases counted ``n`` times, without expanding it (each distinct object
    is visited once), and its depth.

    Parameters
    ----------
    document : object
        Nested dicts, lists and scalars.
    max_nodes, max_depth : int
        The bounds.

    Returns
    -------
    problem : str or None
    """
    sizes, depths = {}, {}
    stack = [(document, False)]
    active = set()
    while stack:
        node, done = stack.pop()
        if not isinstance(node, (dict, list, tuple)):
            continue
        key = id(node)
        values = list(node.keys()) + list(node.values()) if isinstance(node, dict) \
            else list(node)
        children = [c for c in values if isinstance(c, (dict, list, tuple))]
        if done:
            active.discard(key)
            # Itself, its scalars (keys included) and its containers' sizes.
            sizes[key] = (1 + len(values) - len(children)
                          + sum(sizes[id(c)] for c in children))
            depths[key] = 1 + max((depths[id(c)] for c in children), default=0)
            if depths[key] > max_depth:
                return f"it nests deeper than {max_depth} levels"
            if sizes[key] > max_nodes:
                return (f"it expands to more than {max_nodes:,} values (YAML aliases "
                        "repeating a mapping count once per use)")
            continue
        if key in sizes:
            continue
        if key in active:
            return "it refers to itself (a recursive YAML alias)"
        active.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
        if len(active) > max_depth:
            return f"it nests deeper than {max_depth} levels"
    return None
