"""Renamed explainer parameters, resolved at fit time.

A renamed parameter keeps its old name in ``__init__`` with the default
``"deprecated"`` (see :mod:`sklearn_xai.utils._deprecation`); ``fit``
resolves the pair with :func:`resolved` and stores the value in a fitted
attribute, so that ``__init__`` stays a plain assignment and ``fit`` never
modifies a parameter.
"""

import inspect

from sklearn_xai.utils._deprecation import renamed
from sklearn_xai.utils._sklearn import Hidden

__all__ = ["Hidden", "resolved"]


def resolved(explainer, old, new, *, stacklevel=5):
    """The value of parameter ``new``, or of its deprecated name ``old``.

    Parameters
    ----------
    explainer : estimator
    old, new : str
        The deprecated and the current parameter names.
    stacklevel : int, default=5
        Of the ``FutureWarning``: 5 points at the caller of ``fit`` when this
        is called from an explainer's ``_fit_explainer``.

    Returns
    -------
    value : object
    """
    default = inspect.signature(type(explainer).__init__).parameters[new].default
    return renamed(getattr(explainer, old), getattr(explainer, new), old=old, new=new,
                   default=default, owner=type(explainer).__name__,
                   stacklevel=stacklevel)
