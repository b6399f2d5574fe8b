"""Dataset factories that fix a benchmark's training / explained rows.

Each factory wraps a generator or loader of :mod:`sklearn_xai.datasets` and
returns a dict with ``data``, ``target``, the per-row arrays of the wrapped dataset
and ``train_indices`` / ``test_indices``, which the benchmark runner uses
instead of its own split.  They set up the data the way a published
benchmark does (independent draws for XAI-Bench, min-max scaled inputs for
OpenXAI, BEExAI's preprocessing of real data), and a benchmark config names
them like any generator (``name: two_draws``).
"""

import numpy as np

from sklearn_xai.utils._docstring import Substitution, references

__all__ = ["minmax_scaled", "preprocessed", "two_draws"]


def two_draws(generator="make_gaussian_piecewise_constant", n_train=1000, n_test=100, *,
              random_state=None, **params):
    """Training and explained rows as two independent draws of a generator.

    XAI-Bench draws its 1000 training rows and its 100 explained rows
    separately, so its per-batch label normalisation
    (``convention="xai_bench_code"``) standardises each batch with its own
    statistics.  The two draws use seeds spawned from ``random_state``.

    Parameters
    ----------
    generator : str, default="make_gaussian_piecewise_constant"
        Name of a generator of :mod:`sklearn_xai.datasets` taking the
        number of rows as its first argument and ``random_state``.
    n_train : int, default=1000
        Rows of the training draw.
    n_test : int, default=100
        Rows of the explained (test) draw.
    random_state : int or None, default=None
        Seed from which the two draws' seeds are spawned
        (:class:`numpy.random.SeedSequence`).
    **params
        Passed to the generator.

    Returns
    -------
    data : dict
        The generator's Bunch fields with the two draws stacked (training
        rows first), ``train_indices`` and ``test_indices``.

    See Also
    --------
    make_gaussian_piecewise_constant : XAI-Bench's piecewise-constant data.

    Examples
    --------
    >>> from sklearn_xai.datasets import two_draws
    >>> data = two_draws(n_train=20, n_test=5, random_state=0)
    >>> data["data"].shape, data["test_indices"].tolist()
    ((25, 5), [20, 21, 22, 23, 24])
    """
    from sklearn_xai import datasets

    func = getattr(datasets, generator)
    seeds = np.random.SeedSequence(random_state).generate_state(2)
    train = func(n_train, random_state=int(seeds[0]), **params)
    test = func(n_test, random_state=int(seeds[1]), **params)
    out = dict(train)
    for key, value in train.items():
        if isinstance(value, np.ndarray) and value.ndim >= 1 and len(value) == n_train:
            out[key] = np.concatenate([value, test[key]])
    out["train_indices"] = np.arange(n_train)
    out["test_indices"] = np.arange(n_train, n_train + n_test)
    return out


@Substitution(dataset_references=references("agarwal2022"))
def minmax_scaled(dataset="make_synthgauss", *, params=None, fit_on="train",
                  with_test_rows=False, random_state=None):
    """A generator's data with every feature min-max scaled to [0, 1].

    OpenXAI scales its inputs this way before training.  With
    ``fit_on="train"`` (default) the scaler is fitted on the training rows
    when the dataset defines a split (``train_indices``), else on all rows.
    ``fit_on="each_split"`` mirrors OpenXAI's code, where each split's data
    loader fits its own scaler: the training rows are scaled with the
    training minima and maxima, the test rows with the *test* minima and
    maxima.  This is a pitfall of the original code (the test rows are
    scaled with statistics of the test set itself, and a row's scaled value
    depends on the other test rows); use it only to reproduce OpenXAI.
    Per-row ground truths and the split are passed through unchanged.

    Parameters
    ----------
    dataset : str, default="make_synthgauss"
        Name of a generator or loader of :mod:`sklearn_xai.datasets`
        returning a Bunch.
    params : dict or None, default=None
        Its parameters.
    fit_on : {"train", "each_split"}, default="train"
        Which rows the scaler is fitted on (see above).  ``"each_split"``
        needs a dataset with ``train_indices`` and ``test_indices``.
    with_test_rows : bool, default=False
        Also return ``test_rows = (data[test], target[test])`` (scaled), e.g. for a
        model that selects its training epoch on the test rows as OpenXAI's
        trainer does (``selection_data="@test_rows"`` of
        :class:`~sklearn_xai.models.LogisticNetClassifier` in a benchmark
        spec).  Needs ``test_indices``.
    random_state : int or None, default=None
        Passed to the generator.

    Returns
    -------
    data : dict
        The generator's Bunch with ``data`` scaled, and
        ``test_rows`` when ``with_test_rows=True``.

    See Also
    --------
    make_synthgauss : OpenXAI's synthetic Gaussian clusters.

    Examples
    --------
    >>> from sklearn_xai.datasets import minmax_scaled
    >>> data = minmax_scaled(params={"n_samples": 20, "n_features": 4}, random_state=0)
    >>> X, train = data["data"], data["train_indices"]
    >>> float(X[train].min()), float(X[train].max())
    (0.0, 1.0)
    >>> ox = minmax_scaled(params={"n_samples": 20, "n_features": 4},
    ...                    fit_on="each_split", with_test_rows=True, random_state=0)
    >>> X_test, y_test = ox["test_rows"]
    >>> X_test.min(axis=0).tolist(), X_test.max(axis=0).tolist()
    ([0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0])

    {dataset_references}
    """
    from sklearn.preprocessing import MinMaxScaler

    from sklearn_xai import datasets

    if fit_on not in ("train", "each_split"):
        raise ValueError(
            f"fit_on must be 'train' or 'each_split'; got {fit_on!r}."
        )
    bunch = dict(getattr(datasets, dataset)(**(params or {}), random_state=random_state))
    X = np.asarray(bunch["data"], dtype=np.float64)
    train, test = bunch.get("train_indices"), bunch.get("test_indices")
    if (fit_on == "each_split" and (train is None or test is None)) or \
            (with_test_rows and test is None):
        raise ValueError(
            f"Dataset {dataset!r} defines no train_indices / test_indices, which "
            "fit_on='each_split' and with_test_rows=True need; use fit_on='train' "
            "and with_test_rows=False."
        )
    scaler = MinMaxScaler().fit(X if train is None else X[np.asarray(train)])
    scaled = scaler.transform(X)
    if fit_on == "each_split":
        test = np.asarray(test)
        scaled[test] = MinMaxScaler().fit_transform(X[test])
    bunch["data"] = scaled
    if with_test_rows:
        y = np.asarray(bunch["target"])
        bunch["test_rows"] = (scaled[np.asarray(test)], y[np.asarray(test)])
    return bunch


def preprocessed(loader="load_diamonds", *, test_size=0.2, max_samples=None,
                 scale_target=None, loader_params=None, random_state=None):
    """A shipped real dataset, split and encoded with BEExAI's preprocessor.

    The rows are split (stratified for classification) with
    ``random_state``; :func:`~sklearn_xai.datasets.beexai_preprocessor`
    (ordinal categories, quantile scaling) is fitted on the training rows
    only; a regression target is min-max scaled on the training rows
    (BEExAI).

    Parameters
    ----------
    loader : str, default="load_diamonds"
        Name of a loader of :mod:`sklearn_xai.datasets` taking
        ``as_frame=True``.
    test_size : float, default=0.2
        Held-out fraction of the rows.
    max_samples : int or None, default=None
        Stratified subsample of the rows first (run time).
    scale_target : bool or None, default=None
        Min-max scale the target; ``None``: for float targets.
    loader_params : dict or None, default=None
        Further keyword arguments of the loader, e.g. ``{"log_target": True}``
        for :func:`~sklearn_xai.datasets.load_diamonds`.
    random_state : int or None, default=None
        Seed of the subsample, the split and the preprocessor.

    Returns
    -------
    data : dict
        ``data`` (encoded, float), ``target``, ``train_indices``, ``test_indices``,
        ``feature_names``, ``sensitive`` when the loader gives it.

    See Also
    --------
    beexai_preprocessor : The preprocessing pipeline fitted here.

    Examples
    --------
    >>> from sklearn_xai.datasets import preprocessed
    >>> data = preprocessed("load_german_credit", random_state=0)
    >>> data["data"].shape, len(data["test_indices"])
    ((1000, 19), 200)
    """
    from sklearn.model_selection import train_test_split

    from sklearn_xai import datasets

    bunch = getattr(datasets, loader)(as_frame=True, **(loader_params or {}))
    X, y = bunch.data, np.asarray(bunch.target)
    regression = y.dtype.kind == "f" if scale_target is None else scale_target
    rows = np.arange(len(y))
    stratify = None if regression else y
    if max_samples is not None and max_samples < len(y):
        rows, _ = train_test_split(rows, train_size=max_samples, random_state=random_state,
                                   stratify=stratify)
        rows = np.sort(rows)
        stratify = None if regression else y[rows]
    train, test = train_test_split(np.arange(len(rows)), test_size=test_size,
                                   random_state=random_state, stratify=stratify)
    X, y = X.iloc[rows], y[rows]
    pre = datasets.beexai_preprocessor(random_state=random_state).fit(X.iloc[train],
                                                                      y[train])
    Xt = np.asarray(pre.transform(X), dtype=np.float64)
    if regression:
        y = np.asarray(y, dtype=np.float64)
        lo, hi = y[train].min(), y[train].max()
        y = (y - lo) / (hi - lo)
    out = {"data": Xt, "target": y, "train_indices": train, "test_indices": test,
           "feature_names": list(getattr(pre, "get_feature_names_out", lambda: [])())}
    if bunch.get("sensitive") is not None:
        out["sensitive"] = np.asarray(bunch["sensitive"])[rows]
    return out
