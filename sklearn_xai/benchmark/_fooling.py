"""The fooling test (Slack et al. 2020): do explainers still find the
sensitive feature of a model scaffolded to hide it?"""

import numbers

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.compose import make_column_transformer
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_X_y

from sklearn_xai.base import fit_model
from sklearn_xai.compose import ScaffoldedClassifier
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._estimators import is_frozen, seed_unset
from sklearn_xai.utils._sklearn import HasMethods, Interval, fast_validate_params

__all__ = ["FoolingResults", "fooling_explainers", "fooling_maskers", "fooling_test"]

#: The masker label of an explainer that draws its own perturbations (LIME).
OWN_SAMPLING = "own_sampling"

_COLUMNS = ["explainer", "masker", "model", "top1", "top_k", "innocuous_top1",
            "detector_accuracy", "fidelity", "n_rows"]


def fooling_explainers(random_state=None):
    """The explainers of the fooling test: LIME and KernelSHAP.

    Parameters
    ----------
    random_state : int or None, default=None
        Seeds both explainers.

    Returns
    -------
    explainers : dict
        Label -> unfitted explainer: ``"lime"``,
        :class:`~sklearn_xai.explainers.LimeTabular` (500 perturbations per
        row, its own sampling), and ``"kernel_shap"``,
        :class:`~sklearn_xai.explainers.KernelSHAP` (64 coalitions per row,
        a masker from :func:`fooling_maskers`).
    """
    from sklearn_xai.explainers import KernelSHAP, LimeTabular

    return {"lime": LimeTabular(n_perturbations=500, random_state=random_state),
            "kernel_shap": KernelSHAP(n_perturbations=64, random_state=random_state)}


def fooling_maskers(random_state=None):
    """The maskers of the fooling test: marginal, conditional, on-manifold.

    Parameters
    ----------
    random_state : int or None, default=None
        Seeds the background subsamples.

    Returns
    -------
    maskers : dict
        Label -> unfitted masker: ``"marginal"``,
        :class:`~sklearn_xai.masking.MarginalMasker` (50 background rows:
        KernelSHAP's substitutions, which break the dependence between
        features); ``"conditional"``,
        :class:`~sklearn_xai.masking.GaussianConditionalMasker` (20 draws
        from the conditional of a Gaussian fitted to the data);
        ``"on_manifold"``,
        :class:`~sklearn_xai.masking.EmpiricalConditionalMasker` (100 donor
        rows weighted by their closeness to the row on the kept features:
        the value function stays on the data manifold).
    """
    from sklearn_xai.masking import (
        EmpiricalConditionalMasker,
        GaussianConditionalMasker,
        MarginalMasker,
    )

    return {"marginal": MarginalMasker(50, random_state=random_state),
            "conditional": GaussianConditionalMasker(n_draws=20),
            "on_manifold": EmpiricalConditionalMasker(max_background=100,
                                                      random_state=random_state)}


def _threshold_model(column):
    """A depth-1 tree on one column: a threshold of that feature alone."""
    return make_pipeline(make_column_transformer(("passthrough", [column])),
                         DecisionTreeClassifier(max_depth=1))


def _frozen(model):
    """``model`` as a :class:`~sklearn.frozen.FrozenEstimator`."""
    return model if is_frozen(model) else FrozenEstimator(model)


def _sensitive_rank(A, feature):
    """Rank (1 = first) of ``feature`` among the features of each row of
    ``A`` by absolute attribution; a tie counts against it, so a row whose
    attributions are all equal (all zero) ranks it last."""
    a = np.abs(A)
    own = a[:, [feature]]
    return (a > own).sum(axis=1) + (a == own).sum(axis=1)


class FoolingResults:
    """What :func:`fooling_test` found, per explainer, masker and model.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per explainer x masker x model (``"scaffolded"``, the
        scaffolded classifier built against that explainer and masker, and
        ``"biased"``, the biased model alone, the control), with columns

        * ``top1``: fraction of the explained rows whose largest absolute
          attribution is the sensitive feature's (a tie counts as not
          found);
        * ``top_k``: fraction where it is among the ``k`` largest;
        * ``innocuous_top1``: fraction where the innocuous feature is first;
        * ``detector_accuracy``: the scaffold's out-of-distribution detector
          accuracy on held-out real rows and perturbations
          (:attr:`~sklearn_xai.compose.ScaffoldedClassifier.detector_accuracy_`;
          NaN for the biased model);
        * ``fidelity``: fraction of the explained rows the scaffold routes to
          the biased model (1 for the biased model);
        * ``n_rows``: explained rows.
    sensitive_feature, innocuous_feature : int
        The column indices tested.
    k : int
        The ``k`` of ``top_k``.
    scaffolds : dict
        ``(explainer, masker)`` -> the fitted
        :class:`~sklearn_xai.compose.ScaffoldedClassifier`.
    """

    def __init__(self, table, *, sensitive_feature, innocuous_feature, k, scaffolds):
        self.table = table
        self.sensitive_feature = sensitive_feature
        self.innocuous_feature = innocuous_feature
        self.k = k
        self.scaffolds = scaffolds

    def pivot(self, value="top1"):
        """One column of :attr:`table` as explainer x masker rows, one column
        per model.

        Parameters
        ----------
        value : str, default="top1"
            A column of :attr:`table`.

        Returns
        -------
        frame : pandas.DataFrame
        """
        if value not in self.table.columns:
            raise ValueError(f"value must be a column of the table, one of "
                             f"{list(self.table.columns[3:])}; got {value!r}.")
        return self.table.pivot(index=["explainer", "masker"], columns="model",
                                values=value)

    def __repr__(self):
        return (f"FoolingResults(sensitive_feature={self.sensitive_feature}, "
                f"k={self.k})\n{self.pivot().to_string()}")


def _cells(explainers, maskers, seed):
    """(explainer label, masker label, explainer with its masker set), every
    ``random_state`` left None (the explainer's, the masker's) set to
    ``seed``."""
    for name, explainer in explainers.items():
        if "masker" in explainer.get_params(deep=False):
            for masker_name, masker in maskers.items():
                cell = clone(explainer).set_params(masker=clone(masker))
                yield name, masker_name, seed_unset(cell, seed)
        else:
            yield name, OWN_SAMPLING, seed_unset(clone(explainer), seed)


@fast_validate_params(
    {
        "X": ["array-like"],
        "y": ["array-like"],
        "sensitive_feature": [Interval(numbers.Integral, 0, None, closed="left")],
        "innocuous_feature": [Interval(numbers.Integral, 0, None, closed="left")],
        "explainers": [dict, None],
        "maskers": [dict, None],
        "biased_estimator": [HasMethods(["fit", "predict_proba"]), None],
        "innocuous_estimator": [HasMethods(["fit", "predict_proba"]), None],
        "detector": [HasMethods(["fit", "predict"]), None],
        "n_explain": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_explained": [Interval(numbers.Integral, 1, None, closed="left")],
        "k": [Interval(numbers.Integral, 1, None, closed="left")],
        "test_size": [Interval(numbers.Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution(references=references("slack2020"))
def fooling_test(X, y, *, sensitive_feature=0, innocuous_feature=1, explainers=None,
                 maskers=None, biased_estimator=None, innocuous_estimator=None,
                 detector=None, n_explain=50, n_explained=100, k=2, test_size=0.25,
                 random_state=None):
    """Can explainers be fooled into hiding a biased model's sensitive feature?

    The adversarial test of Slack et al. (2020).  A biased model (by default
    a threshold of ``sensitive_feature`` alone, fitted to ``y``) is hidden
    in a :class:`~sklearn_xai.compose.ScaffoldedClassifier`, which answers
    with an innocuous model (by default the threshold at the median of
    ``innocuous_feature``) on the rows its detector takes for an explainer's
    perturbations.  For every explainer and masker (an explainer that takes
    no masker, LIME, draws its own perturbations: masker
    ``"own_sampling"``), a scaffold is trained against that explainer's
    perturbations, and held-out rows are explained, both of the scaffold
    and of the biased model alone (the control, whose sensitive feature an
    explainer should find in nearly every row).  The measure is how often
    the sensitive feature is still ranked first.

    The paper's result, which the tests check on correlated Gaussian data:
    LIME and KernelSHAP with marginal substitutions are fooled (the
    sensitive feature is first in few rows, the innocuous one in most),
    while conditional and on-manifold maskers, whose perturbations look
    like data, find the sensitive feature more often.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data (numeric).
    y : array-like of shape (n_samples,)
        Class labels; the default biased model fits them from the sensitive
        feature, and the default innocuous model needs two classes.
    sensitive_feature : int, default=0
        Column index of the sensitive feature.
    innocuous_feature : int, default=1
        Column index of the feature the default innocuous model uses.
    explainers : dict or None, default=None
        Label -> unfitted explainer; ``None`` is :func:`fooling_explainers`.
        An explainer with a ``masker`` parameter is tested with each masker.
    maskers : dict or None, default=None
        Label -> unfitted masker; ``None`` is :func:`fooling_maskers`.
    biased_estimator, innocuous_estimator : classifier or None, default=None
        The two models (fitted on the training split unless they are
        :class:`~sklearn.frozen.FrozenEstimator`); ``None`` for the
        defaults above.
    detector : classifier or None, default=None
        The scaffold's out-of-distribution detector; ``None`` is a random
        forest of 100 trees (the paper's).
    n_explain : int, default=50
        Held-out rows explained per cell.
    n_explained : int, default=100
        Training rows whose perturbations train each detector.
    k : int, default=2
        The ``k`` of the top-``k`` fraction.
    test_size : float, default=0.25
        Held-out fraction (stratified by ``y``).
    random_state : int, RandomState instance or None, default=None
        Seeds the split, the scaffolds, and every ``random_state`` of the
        explainers and maskers that is None.

    Returns
    -------
    results : FoolingResults

    See Also
    --------
    sklearn_xai.compose.ScaffoldedClassifier : the scaffolded model.

    {references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.benchmark import fooling_test
    >>> from sklearn_xai.explainers import LimeTabular
    >>> rng = np.random.default_rng(0)
    >>> cov = np.full((4, 4), 0.8) + 0.2 * np.eye(4)
    >>> X = rng.multivariate_normal(np.zeros(4), cov, size=600)
    >>> y = (X[:, 0] > 0).astype(int)
    >>> res = fooling_test(X, y, explainers={"lime": LimeTabular(n_perturbations=200)},
    ...                    n_explain=20, n_explained=30, random_state=0)
    >>> top1 = res.pivot("top1").loc[("lime", "own_sampling")]
    >>> float(top1["biased"]), float(top1["scaffolded"])
    (1.0, 0.0)
    """
    X, y = check_X_y(X, y, dtype=np.float64)
    d = X.shape[1]
    for name, index in (("sensitive_feature", sensitive_feature),
                        ("innocuous_feature", innocuous_feature)):
        if index >= d:
            raise ValueError(f"{name}={index} but X has {d} features: pass a column "
                             f"index below {d}.")
    if sensitive_feature == innocuous_feature:
        raise ValueError("sensitive_feature and innocuous_feature are the same column "
                         f"({sensitive_feature}): pass two different columns.")
    rng = check_random_state(random_state)
    seed = int(rng.randint(2**31))
    X_train, X_test, y_train, _ = train_test_split(
        X, y, test_size=test_size, stratify=y, random_state=seed)
    rows = X_test[:n_explain]
    if explainers is None:
        explainers = fooling_explainers(seed)
    if maskers is None:
        maskers = fooling_maskers(seed)

    if biased_estimator is None:
        biased_estimator = _threshold_model(sensitive_feature)
    biased = _frozen(fit_model(biased_estimator, X_train, y_train))
    if innocuous_estimator is None:
        classes = np.unique(y_train)
        if type_of_target(y_train) != "binary":
            raise ValueError(
                f"The default innocuous model needs two classes; y has {len(classes)}. "
                "Pass innocuous_estimator=<a classifier of the same classes>.")
        column = X_train[:, innocuous_feature]
        labels = classes[(column > np.median(column)).astype(int)]
        innocuous = _frozen(_threshold_model(innocuous_feature).fit(X_train, labels))
    else:
        innocuous = _frozen(fit_model(innocuous_estimator, X_train, y_train))

    records, scaffolds = [], {}
    for name, masker_name, explainer in _cells(explainers, maskers, seed):
        scaffold = ScaffoldedClassifier(
            biased, innocuous, detector=detector, perturbation=explainer,
            n_explained=n_explained, random_state=seed).fit(X_train, y_train)
        scaffolds[name, masker_name] = scaffold
        for model_name, model, fidelity, accuracy in (
                ("scaffolded", scaffold, scaffold.in_distribution(rows).mean(),
                 scaffold.detector_accuracy_),
                ("biased", biased, 1.0, np.nan)):
            ex = clone(explainer).set_params(estimator=FrozenEstimator(model))
            A = ex.fit(X_train, y_train).transform(rows)
            rank = _sensitive_rank(A, sensitive_feature)
            records.append({
                "explainer": name, "masker": masker_name, "model": model_name,
                "top1": float(np.mean(rank == 1)),
                "top_k": float(np.mean(rank <= k)),
                "innocuous_top1": float(np.mean(
                    _sensitive_rank(A, innocuous_feature) == 1)),
                "detector_accuracy": float(accuracy), "fidelity": float(fidelity),
                "n_rows": len(rows),
            })
    table = pd.DataFrame.from_records(records, columns=_COLUMNS)
    return FoolingResults(table, sensitive_feature=sensitive_feature,
                          innocuous_feature=innocuous_feature, k=k, scaffolds=scaffolds)
