"""Stability of explanations across models trained on different folds:
mean generalisability (MeGe) and relative consistency (ReCo) of Fel et al.
2022 (Xplique), definitions in the user guide, :ref:`def-mege-reco`.

The data are split into ``k`` folds and a clone of the model is trained on
all folds but fold ``i``, for each ``i``; a fresh clone of the explainer
explains every row with every model, for the row's true class.  For two
models ``i < j`` and a row of fold ``i`` or ``j`` (seen by one model, not
the other) that at least one of them classifies correctly, the distance
``δ = sqrt(1 - |Spearman(e_i(x), e_j(x))|)`` goes to ``S=`` when both
predict the same class (both correct), else to ``S≠``.
"""

import numbers

import numpy as np
from sklearn.model_selection import KFold
from sklearn.utils import Bunch

from sklearn_xai.metrics._common import _explainer_on, _refit
from sklearn_xai.metrics._registry import register_metric
from sklearn_xai.metrics._shared_docs import _references
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._docstring import Substitution
from sklearn_xai.utils._output import ExplainedOutput
from sklearn_xai.utils._random import row_keys, seed_entropy
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    fast_validate_params,
)
from sklearn_xai.utils._stats import UndefinedScoreWarning, row_spearman
from sklearn_xai.utils._validation import check_attributions, check_rows

__all__ = ["mege", "reco"]


def _fold_distances(estimator, X_train, y_train, explainer, n_splits, shuffle,
                    random_state, name):
    """``(S=, S≠)``: the distances between the explanations of two fold
    models, split by whether the two predictions agree."""
    if X_train is None or y_train is None:
        raise ValueError(
            f"{name} trains the model on {n_splits} folds of the data: pass "
            "X_train=... and y_train=... (the labelled rows; in a search, bind "
            f"them to the scorer: get_scorer({name!r}, X_train=X_train, "
            "y_train=y_train)).")
    X = check_rows(X_train, name="X_train", allow_1d=False)
    y = np.asarray(y_train.to_numpy() if hasattr(y_train, "to_numpy") else y_train)
    if y.shape != (len(X),):
        raise ValueError(f"y_train must hold one label per row of X_train ({len(X)}); "
                         f"got shape {y.shape}.")
    if ExplainedOutput(estimator).output == "predict":  # also: fitted?
        raise NotApplicableError(
            f"{name} compares correct and wrong predictions: estimator must be a "
            f"classifier; got {type(estimator).__name__}.")
    if explainer is None or not hasattr(explainer, "explain"):
        raise TypeError(
            f"{name} explains the rows with each fold's model: pass explainer="
            "<the fitted sklearn_xai explainer>; got "
            f"{type(explainer).__name__}.")
    if n_splits > len(X):
        raise ValueError(f"n_splits={n_splits} is larger than the {len(X)} rows of "
                         "X_train; pass n_splits <= len(X_train).")
    seed = seed_entropy(random_state)
    folds = KFold(n_splits, shuffle=shuffle,
                  random_state=seed % 2**32 if shuffle else None)
    fold = np.empty(len(X), dtype=np.intp)
    keys = row_keys(X)
    predictions, explanations = [], []
    for i, (train, test) in enumerate(folds.split(X)):
        fold[test] = i
        model = _refit(estimator, X[train], y[train], seed)
        ex = _explainer_on(explainer, model, X[train], y[train], name=name)
        predictions.append(np.asarray(model.predict(X)))
        explanations.append(np.asarray(ex.explain(X, target=y, row_keys=keys),
                                       dtype=np.float64))
    s_equal, s_differ = [], []
    for i in range(n_splits):
        for j in range(i + 1, n_splits):
            rows = (fold == i) | (fold == j)
            pi, pj = predictions[i][rows], predictions[j][rows]
            correct = (pi == y[rows]) | (pj == y[rows])
            rho = row_spearman(explanations[i][rows], explanations[j][rows])
            dist = np.sqrt(1.0 - np.abs(rho))
            keep = correct & ~np.isnan(dist)  # a constant explanation: left out
            s_equal.append(dist[keep & (pi == pj)])
            s_differ.append(dist[keep & (pi != pj)])
    return np.concatenate(s_equal), np.concatenate(s_differ)


def _relative_consistency(s_equal, s_differ):
    """``max_γ TPR(γ) + TNR(γ) - 1`` with ``TPR = #{S= < γ} / |S=|`` and
    ``TNR = #{S≠ > γ} / |S≠|``: between two consecutive distinct distances
    ``TPR`` is ``F=(v)`` and ``TNR`` is ``1 - F≠(v)`` (empirical CDFs at the
    lower one, ``v``), so the maximum is ``max(0, max_v F=(v) - F≠(v))``."""
    values = np.unique(np.concatenate([s_equal, s_differ]))
    f_equal = np.searchsorted(np.sort(s_equal), values, side="right") / len(s_equal)
    f_differ = np.searchsorted(np.sort(s_differ), values, side="right") / len(s_differ)
    return float(max(0.0, np.max(f_equal - f_differ)))


_PARAMS = {
    "estimator": [object],
    "X": ["array-like"],
    "attributions": ["array-like"],
    "explainer": [HasMethods(["explain"])],
    "X_train": ["array-like", None],
    "y_train": ["array-like", None],
    "attributions_train": ["array-like", None],
    "n_splits": [Interval(numbers.Integral, 2, None, closed="left")],
    "shuffle": ["boolean"],
    "random_state": ["random_state"],
    "return_details": ["boolean"],
}

_DOC = """    estimator : fitted classifier
        The explained model: a clone of it is trained on each fold
        complement (an estimator whose ``random_state`` is None is seeded
        from ``random_state``).
    X : array-like of shape (n_samples, n_features)
        The scored rows; validated only (the measure is over the rows of
        ``X_train``).
    attributions : array-like of shape (n_samples, n_features)
        Their explanations; validated only.
    explainer : fitted explainer
        A fresh clone of it,
        ``clone(explainer).set_params(estimator=FrozenEstimator(model))``,
        is fitted on each fold model's training rows and explains every row
        of ``X_train`` for its label ``y_train``.
    X_train : array-like of shape (n_train, n_features)
        The labelled rows split into folds (required).
    y_train : array-like of shape (n_train,)
        Their class labels (required).
    attributions_train : array-like or None, default=None
        Not used; accepted so that a scorer binding the training data of
        retraining metrics can pass it.
    n_splits : int, default=4
        Folds ``k``, as many models (Xplique's ``k_splits``).
    shuffle : bool, default=False
        Shuffle the rows before splitting them into consecutive folds
        (seeded by ``random_state``); Xplique splits them in order.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle and the refitted models.
    return_details : bool, default=False
        Also return the two sets of distances."""


def _check_scored(X, attributions):
    X = check_rows(X, allow_1d=False)
    check_attributions(attributions, n_samples=X.shape[0], n_features=X.shape[1])


def _undefined(name, which):
    import warnings

    warnings.warn(f"{name} is undefined: {which} is empty (no row that two fold "
                  "models classify as described), so NaN is returned. Pass more "
                  "rows or fewer folds.", UndefinedScoreWarning, stacklevel=4)
    return float("nan")


@fast_validate_params({**_PARAMS}, prefer_skip_nested_validation=True)
@Substitution(common=_DOC, metric_references=_references("fel2022"))
def mege(estimator, X, attributions, *, explainer, X_train=None, y_train=None,
         attributions_train=None, n_splits=4, shuffle=False, random_state=None,
         return_details=False):
    """Mean generalisability (MeGe, Fel et al. 2022; Xplique).

    ``MeGe = 1 / (1 + mean(S=))``: how close the explanations of a row are
    when two models trained on different folds both classify it correctly,
    one of them without having seen it (``S=``, see below).  1 when these
    explanations always rank the features alike (or exactly opposite);
    greater is better.  See :ref:`def-mege-reco` in the user guide.

    ``X_train`` is split into ``n_splits`` folds and a clone of the model
    is trained on all folds but fold ``i``, for each ``i``.  For two models
    ``i < j`` and a row of fold ``i`` or ``j`` that at least one classifies
    correctly, ``δ = sqrt(1 - |ρ|)``, ``ρ`` the Spearman correlation of
    their explanations of the row, goes to ``S=`` when the two predictions
    agree (both correct), else to ``S≠``.

    Parameters
    ----------
{common}

    Returns
    -------
    score : float
        In ``(0, 1]``; greater is better.  NaN (with a warning) when ``S=``
        is empty.

    Notes
    -----
    An explanation that ignores the model scores 1: the random control
    (its attributions are a fixed function of the row and the seed, the
    same for every fold model) or a constant map.  Read MeGe with
    :func:`reco`, which is 0 for them.  A stochastic explainer explains a
    row with the row's random stream for every fold model (common random
    numbers), so its Monte-Carlo noise does not count as instability.
    details : Bunch
        Only with ``return_details=True``: ``score``, ``s_equal`` and
        ``s_differ``, the distances of ``S=`` and ``S≠``.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import mege
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 4))
    >>> y = (X @ [2.0, 1.0, 0.0, 0.0] > 0).astype(int)
    >>> model = LogisticRegression().fit(X, y)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = mege(model, X[:4], ex.transform(X[:4]), explainer=ex, X_train=X,
    ...          y_train=y, random_state=0)
    >>> bool(0.5 < s <= 1.0)
    True
    """
    _check_scored(X, attributions)
    s_equal, s_differ = _fold_distances(estimator, X_train, y_train, explainer,
                                        n_splits, shuffle, random_state, "mege")
    score = (1.0 / (1.0 + float(np.mean(s_equal))) if len(s_equal)
             else _undefined("mege", "S= (rows both models classify correctly)"))
    if return_details:
        return Bunch(score=score, s_equal=s_equal, s_differ=s_differ)
    return score


@fast_validate_params({**_PARAMS}, prefer_skip_nested_validation=True)
@Substitution(common=_DOC, metric_references=_references("fel2022"))
def reco(estimator, X, attributions, *, explainer, X_train=None, y_train=None,
         attributions_train=None, n_splits=4, shuffle=False, random_state=None,
         return_details=False):
    """Relative consistency (ReCo, Fel et al. 2022; Xplique).

    How well one distance threshold tells the explanations of two fold
    models that agree on a row (``S=``) from those of two that disagree
    (``S≠``, one of them wrong), with the sets of :func:`mege`:

    ``ReCo = max_γ TPR(γ) + TNR(γ) - 1``, ``TPR = #{δ ∈ S= : δ < γ} / |S=|``,
    ``TNR = #{δ ∈ S≠ : δ > γ} / |S≠|``,

    that is ``max(0, max_v F=(v) - F≠(v))`` with ``F`` the empirical
    distribution functions of the two sets.  1 when every distance of
    ``S=`` is below every distance of ``S≠``; greater is better.  See
    :ref:`def-mege-reco` in the user guide.

    Parameters
    ----------
{common}

    Returns
    -------
    score : float
        In ``[0, 1]``; greater is better.  NaN (with a warning) when ``S=``
        or ``S≠`` is empty.
    details : Bunch
        Only with ``return_details=True``: ``score``, ``s_equal`` and
        ``s_differ``.

    Notes
    -----
    Xplique scans about 20 thresholds (every ``len // 20 + 1``-th of the
    sorted distances) and adds ``1e-10`` to the denominators; the maximum
    over all thresholds is at least its value.

    {metric_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.frozen import FrozenEstimator
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_xai.explainers import FeatureAblation
    >>> from sklearn_xai.metrics import reco
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 4))
    >>> y = (X @ [2.0, 1.0, 0.0, 0.0] + rng.normal(size=80) > 0).astype(int)
    >>> model = LogisticRegression().fit(X, y)
    >>> ex = FeatureAblation(FrozenEstimator(model)).fit(X)
    >>> s = reco(model, X[:4], ex.transform(X[:4]), explainer=ex, X_train=X,
    ...          y_train=y, random_state=0)
    >>> bool(0.0 <= s <= 1.0)
    True
    """
    _check_scored(X, attributions)
    s_equal, s_differ = _fold_distances(estimator, X_train, y_train, explainer,
                                        n_splits, shuffle, random_state, "reco")
    if len(s_equal) and len(s_differ):
        score = _relative_consistency(s_equal, s_differ)
    else:
        score = _undefined("reco", "S= or S≠ (rows the fold models agree or "
                                   "disagree on)")
    if return_details:
        return Bunch(score=score, s_equal=s_equal, s_differ=s_differ)
    return score


register_metric(
    "mege", mege, kind="model", greater_is_better=True, per_instance=False,
    requires=("explainer", "training_data", "random_state", "classifier"),
    source="Fel et al. 2022, Xplique",
    description="Closeness of the explanations of fold models that both "
                "classify a row correctly.",
)
register_metric(
    "reco", reco, kind="model", greater_is_better=True, per_instance=False,
    requires=("explainer", "training_data", "random_state", "classifier"),
    source="Fel et al. 2022, Xplique",
    description="How well explanation distance separates fold models that "
                "agree from ones that disagree.",
)
