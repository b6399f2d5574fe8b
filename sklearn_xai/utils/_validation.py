"""Input validation shared by explainers, maskers and metrics."""

import numbers

import numpy as np
from sklearn.utils.validation import check_array

__all__ = [
    "affine_params",
    "check_attributions",
    "check_feature_vector",
    "check_reference",
    "check_rows",
    "resolve_k",
    "magnitude_order",
    "positions",
    "dense_rank",
    "top_k_coalitions",
    "top_k_mask",
]


def check_attributions(attributions, *, n_samples=None, n_features=None, name="attributions"):
    """Validate an attribution matrix and return it as float64 (never a view of
    user data that is written to).

    Parameters
    ----------
    attributions : array-like of shape (n_samples, n_features)
    n_samples, n_features : int, optional
        Expected shape.
    name : str
        Name used in error messages.

    Returns
    -------
    A : ndarray of shape (n_samples, n_features), float64
    """
    if hasattr(attributions, "to_numpy"):
        attributions = attributions.to_numpy()
    if (
        isinstance(attributions, np.ndarray)
        and attributions.ndim == 2
        and attributions.dtype == np.float64
        and attributions.size > 0
        and np.isfinite(attributions).all()
    ):
        # Fast path for the common case (a float64 matrix from an explainer):
        # check_array would only re-check what is checked here, at a cost
        # comparable to a small model call.
        A = attributions
    else:
        A = check_array(
            attributions,
            dtype=np.float64,
            ensure_all_finite=True,
            input_name=name,
            ensure_min_features=1,
        )
    if n_samples is not None and A.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {A.shape[0]} rows but X has {n_samples}; pass one "
            "attribution row per explained row."
        )
    if n_features is not None and A.shape[1] != n_features:
        raise ValueError(
            f"{name} has {A.shape[1]} columns but X has {n_features} features; "
            "pass one attribution per feature."
        )
    return A



def check_feature_vector(value, n_features, name, *, scalar=True, finite=True):
    """A number or a per-feature vector, as a float64 vector of length ``n_features``.

    The one check behind every parameter documented as "float or array-like
    of shape (n_features,)" (baselines, means, scales, weights).  Always
    returns a new array, so the caller's value is never modified.

    Parameters
    ----------
    value : float or array-like of shape (n_features,)
        The parameter's value.
    n_features : int
        Expected length.
    name : str
        Parameter name, used in the error message.
    scalar : bool, default=True
        Whether a single number is allowed (broadcast to every feature).
    finite : bool, default=True
        Whether every entry must be finite.

    Returns
    -------
    vector : ndarray of shape (n_features,), dtype float64

    Raises
    ------
    ValueError
        If the value has another shape or non-finite entries; the message
        names the parameter and the expected shape.

    Examples
    --------
    >>> from sklearn_xai.utils._validation import check_feature_vector
    >>> check_feature_vector(2, 3, "baseline")
    array([2., 2., 2.])
    >>> check_feature_vector([1, 2], 3, "baseline")
    Traceback (most recent call last):
    ...
    ValueError: baseline must be a number or have n_features=3 entries; got shape (2,).
    """
    try:
        arr = np.array(value, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be {'a number or ' if scalar else ''}an array of "
            f"n_features={n_features} numbers; got {value!r}."
        ) from exc
    if scalar and arr.ndim == 0:
        arr = np.full(n_features, float(arr))
    if arr.shape != (n_features,):
        what = "be a number or have" if scalar else "have"
        raise ValueError(
            f"{name} must {what} n_features={n_features} entries; got shape "
            f"{arr.shape}."
        )
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite numbers; got {arr.tolist()}.")
    return arr

def check_reference(reference, attributions, *, name="ground_truth"):
    """Validate a reference (ground truth) against an attribution matrix.

    A single vector of length ``n_features`` is broadcast to every row.

    Returns
    -------
    reference : ndarray of the same shape as ``attributions``, float64
    """
    if reference is None:
        raise ValueError(
            f"{name} is required for this metric. Pass it directly to the metric "
            f"function, or route it to a scorer as metadata "
            f"(sklearn.set_config(enable_metadata_routing=True) and "
            f"fit(X, y, {name}=...) in GridSearchCV / cross_validate)."
        )
    if hasattr(reference, "to_numpy"):
        reference = reference.to_numpy()
    G = np.asarray(reference, dtype=np.float64)
    if G.ndim == 1:
        G = np.broadcast_to(G, attributions.shape)
    G = check_array(G, dtype=np.float64, input_name=name, copy=False)
    if G.shape != attributions.shape:
        raise ValueError(
            f"{name} has shape {G.shape} but the attributions have shape "
            f"{attributions.shape}; pass one reference row per explained row "
            "(the rows of the fold being scored) or a single vector."
        )
    return G


def resolve_k(k, n_features, *, rounding="ceil"):
    """Resolve a top-k specification to an integer.

    See :ref:`def-ranking` in the user guide.

    Parameters
    ----------
    k : int or float
        ``-1`` means all features; an int in ``[1, n_features]`` is used as is;
        a float in ``(0, 1)`` is a fraction of ``n_features``; ``1.0`` means all
        features.
    n_features : int
    rounding : {"ceil", "floor"}, default="ceil"
        How fractions are rounded (BEExAI rounds down, with at least 1).

    Returns
    -------
    k : int

    Examples
    --------
    >>> from sklearn_xai.utils import resolve_k
    >>> resolve_k(-1, 20), resolve_k(3, 20), resolve_k(0.25, 20), resolve_k(0.3, 9)
    (20, 3, 5, 3)
    >>> resolve_k(0.3, 9, rounding="floor")
    2
    """
    msg = (
        f"k must be -1 (all features), an int in [1, {n_features}] or a float in "
        f"(0, 1]; got {k!r}."
    )
    if isinstance(k, bool) or not isinstance(k, numbers.Real):
        raise ValueError(msg)
    if isinstance(k, numbers.Integral):
        k = int(k)
        if k == -1:
            return n_features
        if 1 <= k <= n_features:
            return k
        raise ValueError(msg)
    k = float(k)
    if k == 1.0:
        return n_features
    if 0.0 < k < 1.0:
        if rounding == "floor":
            return max(int(np.floor(k * n_features + 1e-12)), 1)
        return int(np.ceil(k * n_features - 1e-12))
    raise ValueError(msg)


def magnitude_order(attributions, *, order_by="abs", ties="lower_first"):
    """Feature order per row, most important first.

    Parameters
    ----------
    attributions : ndarray of shape (n_samples, n_features)
    order_by : {"abs", "signed"}, default="abs"
        Sort by magnitude or by signed value (most positive first).
    ties : {"lower_first", "higher_first"}, default="lower_first"
        Order of equal values: lower column index first, or higher first
        (the reverse of an ascending stable sort, ``np.argsort(|a|)[::-1]``,
        as XAI-Bench's code orders features).

    Returns
    -------
    order : ndarray of shape (n_samples, n_features), int
        ``order[i, 0]`` is the most important feature of row ``i``.
    """
    if order_by == "abs":
        key = -np.abs(attributions)
    elif order_by == "signed":
        key = -np.asarray(attributions)
    else:
        raise ValueError(f"order_by must be 'abs' or 'signed', got {order_by!r}.")
    if ties == "higher_first":
        return np.argsort(-key, axis=1, kind="stable")[:, ::-1]
    if ties != "lower_first":
        raise ValueError(f"ties must be 'lower_first' or 'higher_first', got {ties!r}.")
    return np.argsort(key, axis=1, kind="stable")


def positions(order):
    """Inverse permutation: position of each feature in its row's order.

    Parameters
    ----------
    order : ndarray of shape (n_samples, n_features), int
        A feature order per row, such as :func:`magnitude_order` returns.

    Returns
    -------
    positions : ndarray of shape (n_samples, n_features), int
        ``positions[i, j]`` is the rank (0 = first) of feature ``j`` in
        ``order[i]``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._validation import positions
    >>> positions(np.array([[2, 0, 1]])).tolist()
    [[1, 2, 0]]
    """
    n, d = order.shape
    pos = np.empty_like(order)
    np.put_along_axis(pos, order, np.broadcast_to(np.arange(d), (n, d)), axis=1)
    return pos


def top_k_mask(attributions, k, *, order_by="abs"):
    """Boolean mask of the ``k`` most important features of each row.

    The same set as the first ``k`` entries of :func:`magnitude_order` (ties
    broken by lower index), found with a partition instead of a full sort.

    Parameters
    ----------
    attributions : ndarray of shape (n_samples, n_features)
    k : int
        Number of features kept, in ``[0, n_features]``.
    order_by : {"abs", "signed"}, default="abs"

    Returns
    -------
    mask : bool ndarray of shape (n_samples, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import top_k_mask
    >>> top_k_mask(np.array([[0.5, -2.0, 0.5, 0.0]]), 2).tolist()
    [[True, True, False, False]]
    """
    if order_by == "abs":
        key = np.abs(attributions)
    elif order_by == "signed":
        key = np.asarray(attributions, dtype=np.float64)
    else:
        raise ValueError(f"order_by must be 'abs' or 'signed', got {order_by!r}.")
    n, d = key.shape
    k = int(k)
    if k <= 0 or k >= d:
        return np.full((n, d), k >= d)
    kth = np.partition(key, d - k, axis=1)[:, d - k, None]  # k-th largest
    top = key >= kth
    over = np.flatnonzero(top.sum(axis=1) > k)
    if over.size:  # ties at the k-th largest: keep the lowest-indexed ones
        sub, cut = key[over], kth[over]
        fixed = sub > cut
        ties = sub == cut
        fixed |= ties & (np.cumsum(ties, axis=1)
                         <= k - fixed.sum(axis=1, keepdims=True))
        top[over] = fixed
    return top


def top_k_coalitions(attributions, ratios, *, order_by="abs", rounding="floor",
                     keep_top=True):
    """Coalitions that keep the top-k features of each row (or all but them).

    Parameters
    ----------
    attributions : ndarray of shape (n_samples, n_features)
    ratios : list of int or float
        One ``k`` per coalition, resolved by :func:`resolve_k` (a fraction
        of the features, or a count).
    order_by : {"abs", "signed"}, default="abs"
        Rank by magnitude or by signed value (ties by lower index).
    rounding : {"floor", "ceil"}, default="floor"
        Rounding of fractional ``k`` (:func:`resolve_k`).
    keep_top : bool, default=True
        Keep the top-``k`` features (else all but them).

    Returns
    -------
    keep : bool ndarray of shape (n_samples, len(ratios), n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils._validation import top_k_coalitions
    >>> top_k_coalitions(np.array([[0.5, -2.0, 0.1]]), [1, 2]).astype(int).tolist()
    [[[0, 1, 0], [1, 1, 0]]]
    """
    A = attributions
    ks = [resolve_k(r, A.shape[1], rounding=rounding) for r in ratios]
    if len(ks) == 1:  # one cut: a partition beats a full sort
        top = top_k_mask(A, ks[0], order_by=order_by)[:, None, :]
    else:
        rank = positions(magnitude_order(A, order_by=order_by))
        top = rank[:, None, :] < np.array(ks)[None, :, None]
    return top if keep_top else ~top


def dense_rank(attributions):
    """Dense ranks of magnitudes per row: 1 = largest, ties share a rank.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.utils import dense_rank
    >>> dense_rank(np.array([[0.5, -2.0, 0.5, 0.0]])).tolist()
    [[2, 1, 2, 3]]
    """
    mag = np.abs(np.asarray(attributions, dtype=np.float64))
    order = np.argsort(-mag, axis=1, kind="stable")
    sorted_mag = np.take_along_axis(mag, order, axis=1)
    new_value = np.ones(mag.shape, dtype=np.int64)
    new_value[:, 1:] = sorted_mag[:, 1:] != sorted_mag[:, :-1]
    ranks = np.empty(mag.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, np.cumsum(new_value, axis=1), axis=1)
    return ranks


def _raise_non_finite(X, name):
    """Say which non-finite values ``X`` holds, how many, where, and the fix."""
    n_nan = int(np.isnan(X).sum())
    n_inf = int(np.isinf(X).sum())
    parts = [f"{n} {kind} value{'s' if n > 1 else ''}"
             for n, kind in ((n_nan, "NaN"), (n_inf, "infinite")) if n]
    rows = np.flatnonzero(~np.isfinite(X).all(axis=1))
    shown = rows[:10].tolist()
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    raise ValueError(
        f"{name} contains {' and '.join(parts)} (rows {shown}{more}); the model "
        "is evaluated on these rows and needs finite features. Impute missing "
        "values first (e.g. sklearn.impute.SimpleImputer, fitted on the "
        "training rows) or drop those rows, and clip or drop infinite values."
    )


def check_rows(X, n_features=None, name="X", *, allow_1d=True):
    """``X`` as a new float64 2-D array of finite values.

    The one validation of rows a model, masker or distribution is evaluated
    on.  A DataFrame is converted; the result is never a view of ``X`` (the
    caller's data is never written to).

    Parameters
    ----------
    X : array-like of shape (n_rows, n_features) or (n_features,)
    n_features : int or None, default=None
        Required number of columns (``None``: any).
    name : str, default="X"
        Name used in error messages.
    allow_1d : bool, default=True
        Take a 1-D array as one row; ``False`` raises an error with the
        ``reshape(1, -1)`` fix instead (metrics, where a 1-D ``X`` is more
        often a mistake than one row).

    Returns
    -------
    X : ndarray of shape (n_rows, n_features), float64

    Examples
    --------
    >>> from sklearn_xai.utils._validation import check_rows
    >>> check_rows([1, 2], 2).tolist()
    [[1.0, 2.0]]
    """
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    X = np.array(X, dtype=np.float64, copy=True)
    if X.ndim == 1 and allow_1d:
        X = X[None, :]
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, one row per sample; got shape {X.shape}. "
            f"Pass a single row as {name}.reshape(1, -1)."
        )
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(
            f"{name} has {X.shape[1]} features but {n_features} are expected "
            f"(one column per feature); got shape {X.shape}."
        )
    if not np.all(np.isfinite(X)):
        _raise_non_finite(X, name)
    return X


def affine_params(f, affine, n_features):
    """``(w, c)`` when ``f`` is known to be affine, ``f(z) = z @ w + c``; else None.

    ``affine=(w, c)`` declares it explicitly; otherwise a callable exposing
    ``coef_`` and ``intercept_`` (and no ``fit``: fitted estimators are not
    callables, and GLM-type regressors also have ``coef_``) is taken as
    affine.  Maskers and distributions use it to compute expectations of
    ``f`` in closed form.

    Parameters
    ----------
    f : callable or None
    affine : tuple (w, c) or None
    n_features : int

    Returns
    -------
    params : tuple (ndarray of shape (n_features,), float) or None

    Examples
    --------
    >>> from sklearn_xai.utils._validation import affine_params
    >>> w, c = affine_params(None, ([1.0, 2.0], 0.5), 2)
    >>> w.tolist(), c
    ([1.0, 2.0], 0.5)
    >>> affine_params(lambda Z: Z.sum(1), None, 2) is None
    True
    """
    if affine is None:
        if hasattr(f, "fit") or not (hasattr(f, "coef_") and hasattr(f, "intercept_")):
            return None
        affine = (f.coef_, f.intercept_)
    try:
        w, c = affine
    except (TypeError, ValueError):
        raise ValueError(
            "affine must be a pair (w, c) with w of shape (n_features,) and a "
            f"scalar c, meaning f(z) = z @ w + c; got {affine!r}."
        ) from None
    w = np.asarray(w, dtype=np.float64).ravel()
    c = np.asarray(c, dtype=np.float64).ravel()
    if w.shape != (n_features,) or c.size != 1:
        raise ValueError(
            f"an affine f needs one coefficient per feature ({n_features}) and one "
            f"intercept; got {w.size} coefficients and {c.size} intercepts."
        )
    if not (np.all(np.isfinite(w)) and np.isfinite(c[0])):
        raise ValueError("the affine coefficients contain NaN or infinity.")
    return w, float(c[0])
