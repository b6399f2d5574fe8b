"""Feature groups: the players of a masking game when features are removed
together.

Encoded data splits a column the user knows into several model inputs (a
one-hot block ``sex_F``, ``sex_M``); removing one of them alone shows the
model a row no encoder produces (no category, or two).  With groups the
players of the game are the groups: a coalition keeps or removes whole
groups, and an explainer returns one attribution per group.

:func:`check_groups` validates a partition of the columns given by the user
and returns its names and, for every column, the group it belongs to; a
coalition over the groups ``keep`` (..., n_groups) is a coalition over the
columns as ``keep[..., owner]`` (one gather).  :func:`onehot_groups` reads
the one-hot blocks of a fitted ``OneHotEncoder`` or ``ColumnTransformer``
(or the preprocessing of a Pipeline).
"""

import numbers

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.utils.validation import check_is_fitted

from sklearn_xai.utils._estimators import unfreeze

__all__ = ["check_groups", "onehot_groups"]


def _column_name(j, feature_names):
    return str(feature_names[j]) if feature_names is not None else f"x{j}"


def check_groups(groups, n_features, feature_names=None):
    """Validate feature groups: a partition of the columns.

    Parameters
    ----------
    groups : dict or list of lists
        A dict ``{name: columns}`` or a list of lists of columns; a column
        is a position ``0 <= j < n_features`` or, when ``feature_names`` is
        given, a column name.  Every column must be in exactly one group
        (a column on its own is a one-column group).  A group of a list is
        named by its columns joined with ``"+"`` (``"sex_F+sex_M"``); a
        one-column group by its column.
    n_features : int
        Number of columns.
    feature_names : array-like of str, default=None
        The column names (an explainer's ``feature_names_in_``).  Without
        them, columns are given by position and named ``x0, x1, ...``.

    Returns
    -------
    names : ndarray of object, shape (n_groups,)
        The group names, in the order given.
    owner : ndarray of int, shape (n_features,)
        The group of each column: a coalition ``keep`` of shape
        ``(..., n_groups)`` keeps the columns ``keep[..., owner]``.

    Raises
    ------
    ValueError
        For an empty group, an unknown column name or position, a column in
        two groups, or a column in none; the message names them.

    Examples
    --------
    >>> from sklearn_xai.masking import check_groups
    >>> names, owner = check_groups({"sex": ["sex_F", "sex_M"], "age": ["age"]}, 3,
    ...                             feature_names=["sex_F", "sex_M", "age"])
    >>> names.tolist(), owner.tolist()
    (['sex', 'age'], [0, 0, 1])
    >>> check_groups([[2], [0, 1]], 3)[0].tolist()
    ['x2', 'x0+x1']
    """
    n_features = int(n_features)
    if feature_names is not None:
        feature_names = np.asarray(feature_names, dtype=object)
        position = {str(name): j for j, name in enumerate(feature_names)}
    if isinstance(groups, dict):
        items = [(str(name), members) for name, members in groups.items()]
    elif isinstance(groups, (list, tuple)):
        items = [(None, members) for members in groups]
    else:
        raise ValueError(
            "groups must be a dict {name: columns} or a list of lists of columns; "
            f"got {type(groups).__name__}."
        )
    if not items:
        raise ValueError("groups is empty: give at least one group of columns.")
    owner = np.full(n_features, -1, dtype=np.intp)
    names = []
    for g, (name, members) in enumerate(items):
        if isinstance(members, (str, numbers.Integral)) or not hasattr(members, "__iter__"):
            members = [members]
        members = list(members)
        label = name if name is not None else f"#{g}"
        if not members:
            raise ValueError(
                f"groups: group {label!r} is empty; every group needs at least one "
                "column (leave the group out instead)."
            )
        columns = []
        for member in members:
            if isinstance(member, (bool, np.bool_)):
                raise ValueError(
                    f"groups: group {label!r} holds the boolean {member!r}; give "
                    "column positions or names."
                )
            if isinstance(member, numbers.Integral):
                j = int(member)
                if not 0 <= j < n_features:
                    raise ValueError(
                        f"groups: group {label!r} names column position {j}, but X has "
                        f"{n_features} columns (positions 0 to {n_features - 1})."
                    )
            elif isinstance(member, str):
                if feature_names is None:
                    raise ValueError(
                        f"groups: group {label!r} names column {member!r}, but X has no "
                        "column names: fit on a pandas DataFrame with named columns, or "
                        "give the columns by position."
                    )
                if member not in position:
                    raise ValueError(
                        f"groups: group {label!r} names the unknown column {member!r}; "
                        f"the columns of X are {[str(c) for c in feature_names]}."
                    )
                j = position[member]
            else:
                raise ValueError(
                    f"groups: group {label!r} holds {member!r} "
                    f"({type(member).__name__}); give column positions (int) or "
                    "names (str)."
                )
            if owner[j] >= 0:
                other = names[owner[j]] if owner[j] < len(names) else label
                raise ValueError(
                    f"groups overlap: column {_column_name(j, feature_names)!r} is in "
                    f"group {other!r} and in group {label!r}; put every column in "
                    "exactly one group."
                )
            owner[j] = g
            columns.append(j)
        if name is None:
            name = "+".join(_column_name(j, feature_names) for j in columns)
        names.append(name)
    missing = np.flatnonzero(owner < 0)
    if len(missing):
        missing_names = [_column_name(j, feature_names) for j in missing]
        raise ValueError(
            f"groups leave out the column(s) {missing_names}: every column must be in "
            "exactly one group; add each of them to a group (a column alone is a "
            f"one-column group, e.g. [{missing_names[0]!r}])."
        )
    if len(set(names)) != len(names):
        seen = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"groups: the group names {seen} are given twice; name each "
                         "group once.")
    return np.asarray(names, dtype=object), owner


def _onehot_blocks(encoder):
    """Number of output columns of each input column of a fitted
    OneHotEncoder (its categories, less the dropped one, infrequent ones
    merged into one column), checked against ``get_feature_names_out``."""
    infrequent = getattr(encoder, "infrequent_categories_", None)
    drop = getattr(encoder, "drop_idx_", None)
    sizes = []
    for i, categories in enumerate(encoder.categories_):
        size = len(categories)
        if infrequent is not None and infrequent[i] is not None:
            size -= len(infrequent[i]) - 1
        if drop is not None and drop[i] is not None:
            size -= 1
        sizes.append(size)
    n_out = len(encoder.get_feature_names_out())
    if sum(sizes) != n_out:  # pragma: no cover - a future encoder option
        raise ValueError(
            f"Could not read the one-hot blocks of {encoder!r} ({sum(sizes)} "
            f"columns counted, {n_out} produced); pass groups as a dict "
            "{source column: [encoded columns]} instead."
        )
    return sizes


def _as_names(columns, feature_names, n_features):
    """Labels of a ColumnTransformer's column selection (names or positions)."""
    if callable(columns):  # pragma: no cover - resolved at fit
        raise ValueError("A callable column selection cannot be read.")
    if isinstance(columns, (str, numbers.Integral)):
        columns = [columns]
    if isinstance(columns, slice):
        if isinstance(columns.start, str) or isinstance(columns.stop, str):
            raise ValueError("A slice of column names cannot be read.")
        columns = np.arange(n_features)[columns]
    columns = np.asarray(columns)
    if columns.dtype.kind == "b":
        columns = np.flatnonzero(columns)
    out = []
    for c in columns.tolist():
        if isinstance(c, str):
            out.append(c)
        else:
            out.append(_column_name(int(c), feature_names))
    return out


def _encoder_in(step):
    """The OneHotEncoder a transformer ends in (itself or a Pipeline's last
    step), or None."""
    step = unfreeze(step)
    while isinstance(step, Pipeline):
        step = unfreeze(step.steps[-1][1])
    return step if isinstance(step, OneHotEncoder) else None


def onehot_groups(transformer):
    """The one-hot blocks of a fitted encoder, as groups of its output columns.

    Parameters
    ----------
    transformer : OneHotEncoder, ColumnTransformer or Pipeline
        Fitted.  A Pipeline is read through its last step that is a
        ``ColumnTransformer`` or ``OneHotEncoder`` (the output columns are
        those of that step).  A ``ColumnTransformer`` transformer that is a
        ``OneHotEncoder``, or a Pipeline ending in one, gives one group per
        input column, named by that column; every other output column is a
        group on its own, named by its output name (``"num__age"``).

    Returns
    -------
    groups : dict
        ``{name: [output column positions]}``, a partition of the output
        columns, in output order, for the ``groups`` parameter of the
        masker-based explainers.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.compose import ColumnTransformer
    >>> from sklearn.preprocessing import OneHotEncoder
    >>> from sklearn_xai.masking import onehot_groups
    >>> X = pd.DataFrame({"sex": ["F", "M", "F"], "age": [30.0, 40.0, 50.0]})
    >>> ct = ColumnTransformer([("cat", OneHotEncoder(), ["sex"])],
    ...                        remainder="passthrough").fit(X)
    >>> ct.get_feature_names_out().tolist()
    ['cat__sex_F', 'cat__sex_M', 'remainder__age']
    >>> onehot_groups(ct)
    {'sex': [0, 1], 'remainder__age': [2]}
    """
    step = _encoding_step(transformer)
    if step is None:
        raise ValueError(
            f"groups='onehot' needs a OneHotEncoder or a ColumnTransformer; "
            f"{type(unfreeze(transformer)).__name__} is neither (nor a Pipeline "
            "holding one)."
        )
    check_is_fitted(step)
    if isinstance(step, OneHotEncoder):
        names = getattr(step, "feature_names_in_", None)
        groups, start = {}, 0
        for i, size in enumerate(_onehot_blocks(step)):
            groups[_column_name(i, names)] = list(range(start, start + size))
            start += size
        return groups
    out_names = step.get_feature_names_out()
    owner = [None] * len(out_names)
    feature_names = getattr(step, "feature_names_in_", None)
    for name, trans, columns in step.transformers_:
        where = step.output_indices_.get(name)
        if where is None or where.stop <= where.start:
            continue
        encoder = _encoder_in(trans)
        if encoder is None:
            continue
        sources = _as_names(columns, feature_names, step.n_features_in_)
        encoder_names = getattr(encoder, "feature_names_in_", None)
        if encoder_names is not None and len(encoder_names) == encoder.n_features_in_:
            sources = [str(c) for c in encoder_names]
        sizes = _onehot_blocks(encoder)
        if len(sources) != len(sizes) or sum(sizes) != where.stop - where.start:
            raise ValueError(
                f"Could not match the one-hot blocks of transformer {name!r} to its "
                "input columns; pass groups as a dict {source column: [encoded "
                "columns]} instead."
            )
        position = where.start
        for source, size in zip(sources, sizes):
            for j in range(position, position + size):
                owner[j] = source
            position += size
    groups, encoded = {}, {}
    for j, source in enumerate(owner):
        label = str(out_names[j]) if source is None else source
        if encoded.setdefault(label, source is not None) != (source is not None) or (
                source is None and label in groups):
            raise ValueError(
                f"The one-hot block of column {label!r} and another output column "
                f"of {type(step).__name__} have the same name; pass groups as a "
                "dict {name: [encoded columns]} instead."
            )
        groups.setdefault(label, []).append(j)
    return groups


def encoding_step_index(pipeline):
    """Position of the last step of a Pipeline that is a ``ColumnTransformer``
    or a ``OneHotEncoder`` (``FrozenEstimator`` wrappers removed), or None."""
    for k in range(len(pipeline.steps) - 1, -1, -1):
        if isinstance(unfreeze(pipeline.steps[k][1]), (OneHotEncoder, ColumnTransformer)):
            return k
    return None


def _encoding_step(transformer):
    """The OneHotEncoder or ColumnTransformer that ``transformer`` is or, for
    a Pipeline, its last such step; None if there is none."""
    transformer = unfreeze(transformer)
    if isinstance(transformer, Pipeline):
        k = encoding_step_index(transformer)
        return None if k is None else unfreeze(transformer.steps[k][1])
    if isinstance(transformer, (OneHotEncoder, ColumnTransformer)):
        return transformer
    return None
