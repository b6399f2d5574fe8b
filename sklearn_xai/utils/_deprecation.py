"""Deprecated parameter names, handled one way.

A renamed parameter keeps working for one release: its old name stays in the
signature with the default ``"deprecated"`` (scikit-learn's convention, so
``get_params``/``clone`` keep working and the constraint is
``Hidden(StrOptions({"deprecated"}))``), and :func:`renamed` resolves the
pair, warning with a :class:`FutureWarning` that names the new parameter.
Old upstream-quirk switches (booleans such as ``xai_bench_index_bug``)
map onto the one ``convention=`` parameter with :func:`switch_to_convention`.
"""

import warnings

__all__ = ["DEPRECATED", "renamed", "switch_to_convention"]

DEPRECATED = "deprecated"
REMOVED_IN = "0.2"


def renamed(old_value, new_value, *, old, new, default, owner=None, stacklevel=3):
    """Resolve a parameter renamed from ``old`` to ``new``.

    Parameters
    ----------
    old_value : object
        Value passed under the old name; ``"deprecated"`` if not passed.
    new_value : object
        Value passed under the new name.
    old, new : str
        The parameter names.
    default : object
        The new parameter's default (to tell whether both were passed).
    owner : str, default=None
        Function or class name for the message.
    stacklevel : int, default=3

    Returns
    -------
    value : object
        ``old_value`` when the old name was used, else ``new_value``.

    Raises
    ------
    TypeError
        If both names were given different values.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_xai.utils._deprecation import renamed
    >>> renamed("deprecated", 50, old="n_samples", new="n_draws", default=100)
    50
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     renamed(10, 100, old="n_samples", new="n_draws", default=100)
    10
    >>> caught[0].category.__name__
    'FutureWarning'
    """
    if isinstance(old_value, str) and old_value == DEPRECATED:
        return new_value
    where = f"{owner}: " if owner else ""
    if not _same(new_value, default) and not _same(new_value, old_value):
        raise TypeError(
            f"{where}got both {old}={old_value!r} (deprecated) and "
            f"{new}={new_value!r}; pass only {new}."
        )
    warnings.warn(
        f"{where}'{old}' was renamed '{new}' in 0.1 and will be removed in "
        f"{REMOVED_IN}; pass {new}={old_value!r}.",
        FutureWarning,
        stacklevel=stacklevel,
    )
    return old_value


def switch_to_convention(convention, switches, *, default="paper", owner=None,
                         stacklevel=3):
    """Map deprecated upstream-quirk switches onto ``convention``.

    Parameters
    ----------
    convention : str
        The value passed as ``convention``.
    switches : dict of str to tuple
        ``{old_name: (value_passed, convention_it_means)}``; a value equal to
        ``"deprecated"`` (or ``None``) was not passed.  A passed boolean
        switch set to ``True`` means its convention, ``False`` means
        ``"paper"``; a passed string option is its convention directly when
        the tuple's second item is a dict mapping the option to one.
    default : str, default="paper"
        The parameter's default: a passed switch contradicts ``convention``
        only when ``convention`` was set to something else than its default.
    owner : str, default=None
    stacklevel : int, default=3

    Returns
    -------
    convention : str

    Examples
    --------
    >>> import warnings
    >>> from sklearn_xai.utils._deprecation import switch_to_convention
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     switch_to_convention("paper",
    ...                          {"xai_bench_index_bug": (True, "xai_bench_code")})
    'xai_bench_code'
    """
    where = f"{owner}: " if owner else ""
    for old, (value, means) in switches.items():
        if value is None or (isinstance(value, str) and value == DEPRECATED):
            continue
        if isinstance(means, dict):
            implied = means[value]
        else:
            implied = means if value else "paper"
        warnings.warn(
            f"{where}'{old}' is deprecated since 0.1 and will be removed in "
            f"{REMOVED_IN}; pass convention={implied!r}.",
            FutureWarning,
            stacklevel=stacklevel,
        )
        if convention not in (default, implied):
            raise TypeError(
                f"{where}{old}={value!r} contradicts convention={convention!r}; "
                "pass only convention."
            )
        convention = implied
    return convention


def _same(a, b):
    try:
        return bool(a == b)
    except Exception:  # arrays
        return a is b
