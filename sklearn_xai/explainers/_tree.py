"""TreeSHAP contributions of tree ensembles (Lundberg et al. 2020)."""

import json
import numbers

import numpy as np
from sklearn.base import is_classifier

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.explainers._treeshap import (
    SKLEARN_TREE_FAMILIES,
    sklearn_tree_ensemble,
)
from sklearn_xai.masking import MarginalMasker
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._estimators import is_frozen, transform_steps, unwrap
from sklearn_xai.utils._output import class_index
from sklearn_xai.utils._sklearn import HasMethods, Interval, StrOptions

__all__ = ["TreeContributions"]


def _is_xgboost(model):
    module = type(model).__module__ or ""
    return module.split(".")[0] == "xgboost" and (
        hasattr(model, "get_booster") or type(model).__name__ == "Booster"
    )


def _is_booster(model):
    """A raw ``xgboost.Booster``: already trained, it has no ``fit``."""
    return type(model).__name__ == "Booster"


def _module(model):
    return (type(model).__module__ or "").split(".")[0]


def _is_lightgbm(model):
    return _module(model) == "lightgbm" and (
        hasattr(model, "booster_") or type(model).__name__ in
        ("Booster", "LGBMClassifier", "LGBMRegressor", "LGBMModel"))


def _is_catboost(model):
    return _module(model) == "catboost" and hasattr(model, "get_feature_importance")


def _is_sklearn_tree(model):
    return (_module(model) == "sklearn"
            and type(model).__name__ in SKLEARN_TREE_FAMILIES)


def _family(model):
    """``"xgboost"``, ``"sklearn"``, ``"lightgbm"``, ``"catboost"`` or None."""
    for family, test in (("xgboost", _is_xgboost), ("sklearn", _is_sklearn_tree),
                         ("lightgbm", _is_lightgbm), ("catboost", _is_catboost)):
        if test(model):
            return family
    return None


_SUPPORTED = (
    "xgboost (XGBClassifier, XGBRegressor, xgboost.Booster), scikit-learn's "
    "DecisionTree, ExtraTree, RandomForest, ExtraTrees, GradientBoosting and "
    "HistGradientBoosting regressors and classifiers, LightGBM (LGBMClassifier, "
    "LGBMRegressor, lightgbm.Booster) or CatBoost (CatBoostClassifier, "
    "CatBoostRegressor)"
)


def _check_tree_model(estimator):
    """``(preprocess, final, family)``; refuse a model of no supported family."""
    preprocess, final = unwrap(estimator)
    family = _family(final)
    if family is None:
        raise NotApplicableError(
            f"TreeContributions needs a tree model: {_SUPPORTED}, or a Pipeline / "
            f"FrozenEstimator whose final step is one; got {type(final).__name__}. "
            f"{model_agnostic_hint()}"
        )
    return preprocess, final, family


def _booster_classes(booster):
    """Class indices of a raw Booster from its objective (None for regression)."""
    objective = json.loads(booster.save_config())["learner"]["objective"]["name"]
    if objective.startswith("binary:"):
        return np.arange(2)
    if objective.startswith("multi:"):
        config = json.loads(booster.save_config())
        return np.arange(int(config["learner"]["learner_model_param"]["num_class"]))
    return None


def _check_training_data(X, y):
    """Refuse what a tree library (xgboost's C++ core) would reject with an
    opaque error:
    string arrays in ``X`` (``validate_X`` converts numeric strings for the
    explainer, but the model is fitted on ``X`` as given), and a ``y``
    without one finite target per row of ``X``."""
    if not hasattr(X, "columns"):  # DataFrames: xgboost checks their dtypes
        if np.asarray(X).dtype.kind in "SU":
            raise ValueError(
                f"X has dtype {np.asarray(X).dtype}, but tree models need numbers: "
                "pass X as a numeric array (e.g. X.astype(float)); encode text "
                "features first (see sklearn.preprocessing.OrdinalEncoder)."
            )
    if y is None:
        return
    y = np.asarray(y)
    n = (X.shape if hasattr(X, "shape") else np.asarray(X).shape)[0]
    if y.ndim == 0 or y.shape[0] != n:
        raise ValueError(
            f"y has {1 if y.ndim == 0 else y.shape[0]} target(s) but X has {n} "
            "rows: pass one target per row of X to TreeContributions.fit."
        )
    if y.dtype.kind in "fc" and not np.all(np.isfinite(y)):
        raise ValueError(
            "y contains NaN or infinity, which the model cannot fit: drop those rows "
            "or impute their targets before TreeContributions.fit."
        )


def _classes(model):
    """Classes of a scikit-learn, LightGBM or CatBoost model (None: regression)."""
    if type(model).__name__ == "Booster":  # a raw LightGBM Booster
        objective = str(model.dump_model(num_iteration=0).get("objective", ""))
        if objective.startswith("binary"):
            return np.arange(2)
        if objective.startswith(("multiclass", "softmax", "multiclassova")):
            return np.arange(model.num_model_per_iteration())
        return None
    if not is_classifier(model):
        return None
    return np.asarray(model.classes_)


class _TreeTarget:
    """The class explained per row (plays ExplainedOutput's part for trees)."""

    def __init__(self, explainer, target):
        self.explainer = explainer
        self.target = target
        self.n_evaluations = 0

    def target_index(self, X):
        classes = self.explainer.classes_
        if classes is None:
            return None
        target = self.target
        n = len(X)
        if isinstance(target, str) and target == "predicted":
            margin = self.explainer._raw(X)
            self.n_evaluations += n
            if margin.ndim == 1:
                return (margin > 0).astype(np.intp)
            return np.argmax(margin, axis=1).astype(np.intp)
        if np.ndim(target) == 0:
            if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
                if not -len(classes) <= target < len(classes):
                    raise ValueError(
                        f"target={target} is not a valid class index for a model "
                        f"with {len(classes)} classes."
                    )
                return np.full(n, int(target) % len(classes), dtype=np.intp)
            target = np.full(n, target)
        target = np.asarray(target)
        if target.shape != (n,):
            raise ValueError(
                f"target as an array must have one label per row, shape ({n},); got "
                f"shape {target.shape}."
            )
        return class_index(np.asarray(classes), target)


class TreeContributions(BaseExplainer):
    """Exact TreeSHAP contributions of tree ensembles.

    Exact Shapley values of a tree model's additive output, computed from
    the trees themselves in polynomial time:

    - **xgboost** models: ``booster.predict(DMatrix(X), pred_contribs=True)``
      (path-dependent TreeSHAP, or Saabas' approximation with
      ``approx=True``).
    - **scikit-learn** ``DecisionTree``, ``ExtraTree``, ``RandomForest``,
      ``ExtraTrees``, ``GradientBoosting`` and ``HistGradientBoosting``
      regressors and classifiers: our own vectorised TreeSHAP
      (Lundberg et al. 2020), path-dependent or interventional
      (``feature_perturbation``).  HistGradientBoosting's missing-value
      directions and native categorical splits are followed as its
      ``predict`` does.
    - **LightGBM** (``predict(X, pred_contrib=True)``) and **CatBoost**
      (``get_feature_importance(type="ShapValues")``): the libraries' own
      path-dependent contributions, when the package is installed.

    Each row's contributions sum to the explained output minus
    :attr:`expected_value_`.  The explained output is the model's natural
    additive output (``output="margin"``):

    - regressors: the raw prediction (``predict`` for a squared-error loss);
    - boosted classifiers (xgboost, GradientBoosting, HistGradientBoosting,
      LightGBM, CatBoost): the **margin**, log-odds for a binary classifier
      (the contributions are negated to explain class 0, whose margin is
      minus that of class 1), per-class raw scores for a multi-class one;
    - decision trees, random forests and extra trees classifiers: the
      **probability** of the explained class (the trees' class fractions,
      averaged over the trees), which is their raw output; ``output="proba"``
      names it explicitly and is refused for the other families, whose
      probability is not additive over trees.

    Values in margin space are not comparable in scale with
    probability-space explainers.

    Parameters
    ----------
    estimator : tree model or Pipeline
        An xgboost, scikit-learn, LightGBM or CatBoost tree model (see
        above), ``FrozenEstimator(model)`` or a raw xgboost / LightGBM
        ``Booster`` for a fitted one.  A Pipeline's preprocessing steps are
        applied first and must keep one column per input feature.
    feature_perturbation : {"tree_path_dependent", "interventional"}, \
            default="tree_path_dependent"
        ``"tree_path_dependent"``: a removed feature follows both children of
        its splits, weighted by the training rows that went each way (the
        nodes' cover): no background data needed.  ``"interventional"``:
        removed features take the values of ``background`` rows, the exact
        Shapley values of the output averaged over them (equal to
        ``ExactShapley(model, masker=MarginalMasker(background=...))``);
        scikit-learn models only.
    background : int or array-like of shape (n_background, n_features), \
            default=100
        Interventional variant only: the background rows, or how many to
        draw from the training rows.  Cost grows linearly with it.
    approx : bool, default=False
        Saabas' approximation (``approx_contribs=True``) instead of TreeSHAP
        (xgboost only).
    target : "predicted", int or label, default="predicted"
        Explained class of a classifier; ``"predicted"`` is the class with
        the largest output.
    output : {"margin", "proba"}, default="margin"
        The explained output: the model's additive output described above;
        ``"proba"`` only for decision trees, random forests and extra trees
        classifiers (where it is the same output).
    random_state : int, RandomState instance or None, default=None
        Seeds the draw of ``background`` rows when it is an int.

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    expected_value_ : float or ndarray of shape (n_classes,)
        The explained output of the average row: the cover-weighted mean of
        the leaf values (path-dependent) or the mean output over the
        background rows (interventional); per class for multi-class models
        and forest classifiers, of ``classes_[1]`` for binary boosted ones.
    classes_ : ndarray or None
        Classes of a classifier (``None`` for regressors).
    background_ : ndarray of shape (n_background, n_features)
        Interventional variant only: the background rows.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    See Also
    --------
    ExactShapley : Exact Shapley values of any model (exponential in the
        number of features).

    References
    ----------
    .. [1] S. M. Lundberg, G. Erion, H. Chen, A. DeGrave, J. M. Prutkin,
       B. Nair, R. Katz, J. Himmelfarb, N. Bansal and S.-I. Lee, "From local
       explanations to global understanding with explainable AI for trees",
       Nature Machine Intelligence 2, 56-67, 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from xgboost import XGBRegressor
    >>> from sklearn_xai.explainers import TreeContributions
    >>> X = np.random.default_rng(0).normal(size=(100, 3))
    >>> y = 2 * X[:, 0] + X[:, 1]
    >>> ex = TreeContributions(XGBRegressor(n_estimators=20)).fit(X, y)
    >>> phi = ex.transform(X[:2])
    >>> margin = ex.estimator_.predict(X[:2])
    >>> bool(np.allclose(phi.sum(axis=1) + ex.expected_value_, margin, atol=1e-4))
    True

    A random forest classifier, explaining the probability of class 1:

    >>> from sklearn.ensemble import RandomForestClassifier
    >>> ex = TreeContributions(RandomForestClassifier(n_estimators=5, random_state=0),
    ...                        target=1).fit(X, (y > 0).astype(int))
    >>> proba = ex.estimator_.predict_proba(X[:2])[:, 1]
    >>> bool(np.allclose(ex.transform(X[:2]).sum(axis=1) + ex.expected_value_[1],
    ...                  proba))
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "estimator": [HasMethods(["fit"]), HasMethods(["predict", "get_dump"]),
                      HasMethods(["predict", "dump_model"]), None],
        "feature_perturbation": [StrOptions({"tree_path_dependent", "interventional"})],
        "background": [Interval(numbers.Integral, 1, None, closed="left"),
                       "array-like"],
        "approx": ["boolean"],
        "output": [StrOptions({"margin", "proba"})],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, feature_perturbation="tree_path_dependent",
                 background=100, approx=False, target="predicted", output="margin",
                 random_state=None):
        self.estimator = estimator
        self.feature_perturbation = feature_perturbation
        self.background = background
        self.approx = approx
        self.target = target
        self.output = output
        self.random_state = random_state

    @staticmethod
    def supports(estimator):
        """Whether ``estimator`` is a model of a supported tree family.

        The final step of a Pipeline or the model inside a FrozenEstimator
        is the one checked (a Pipeline's preprocessing must still keep one
        column per feature, which only explaining can tell).

        Parameters
        ----------
        estimator : estimator

        Returns
        -------
        bool

        Examples
        --------
        >>> from sklearn.ensemble import RandomForestRegressor
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn_xai.explainers import TreeContributions
        >>> TreeContributions.supports(RandomForestRegressor()), TreeContributions.supports(Ridge())
        (True, False)
        """
        return _family(unwrap(estimator)[1]) is not None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.model_agnostic = False  # tree models only
        tags.input_tags.allow_nan = True  # missing values follow the trees
        return tags

    def _fit_estimator(self, X, y, **fit_params):
        # Refuse another model before training it; a raw Booster is trained
        # already and has no fit: it is used as is, like a FrozenEstimator.
        _check_tree_model(self.estimator)
        if not hasattr(self.estimator, "fit"):
            return self.estimator
        if not is_frozen(self.estimator):  # fitted here: validate its data first
            _check_training_data(X, y)
        return super()._fit_estimator(X, y, **fit_params)

    def _fit_explainer(self, X, y):
        preprocess, final, family = _check_tree_model(self.estimator_)
        self._preprocess = preprocess
        self._family = family
        self._check_options(final)
        if family == "xgboost":
            if _is_booster(final):
                self._booster = final
                self.classes_ = _booster_classes(final)
            else:
                self._booster = final.get_booster()
                classes = getattr(final, "classes_", None)
                self.classes_ = None if classes is None else np.asarray(classes)
            bias = self._contributions(X[:1])[0, ..., -1]
            self.expected_value_ = float(bias) if np.ndim(bias) == 0 else bias
            return
        self._model = final
        self.classes_ = _classes(final)
        if family == "sklearn":
            self._ensemble = sklearn_tree_ensemble(final, X.shape[1])
            if self.feature_perturbation == "interventional":
                masker = MarginalMasker(background=self.background,
                                        random_state=self.random_state).fit(X)
                self.background_ = masker.background_
                self._background_model = self._model_input(self.background_)
                # The mean output over the background, and what every call
                # needs of the background rows, computed once here.
                bias = self._ensemble._background_state(self._background_model)[1]
            else:
                bias = self._ensemble.expected_value
        else:
            bias = self._native(X[:1])[0, ..., -1]
        bias = np.asarray(bias, dtype=np.float64)
        self.expected_value_ = float(bias.ravel()[0]) if bias.size == 1 else bias

    def _check_options(self, final):
        name = type(final).__name__
        if self.approx and self._family != "xgboost":
            raise ValueError(
                f"approx=True (Saabas' approximation) is available for xgboost models "
                f"only; got {name}. Use approx=False.")
        if (self.feature_perturbation == "interventional"
                and self._family != "sklearn"):
            raise ValueError(
                "feature_perturbation='interventional' is implemented for "
                f"scikit-learn's tree models only; got {name}. Use "
                "feature_perturbation='tree_path_dependent', or ExactShapley with a "
                "MarginalMasker for interventional Shapley values.")
        if self.output == "proba":
            forest = (self._family == "sklearn" and hasattr(final, "classes_")
                      and "Boosting" not in name)
            if not forest:
                raise ValueError(
                    f"output='proba' applies to decision tree, random forest and "
                    f"extra trees classifiers, whose probability is additive over "
                    f"trees; {name} is explained in margin space: use "
                    "output='margin'.")

    # ------------------------------------------------------------ inputs
    def _model_input(self, X):
        """Rows as the final model sees them (after the Pipeline's steps)."""
        if self._preprocess is not None:
            Xt = np.asarray(transform_steps(self._preprocess, X), dtype=np.float64)
            if Xt.shape != X.shape:
                raise ValueError(
                    "The Pipeline's preprocessing changes the number of columns "
                    f"({X.shape[1]} -> {Xt.shape[1]}); TreeContributions needs one "
                    "model input per feature. " + model_agnostic_hint()
                )
            X = Xt
        if (self._family == "sklearn" and np.isnan(X).any()
                and type(self._model).__name__.startswith("GradientBoosting")):
            raise ValueError(
                f"{type(self._model).__name__} does not accept missing values (NaN) "
                "in X; impute them first, or use HistGradientBoosting, which "
                "handles them.")
        return X

    def _dmatrix(self, X):
        from xgboost import DMatrix

        # One thread to copy a dense array: xgboost's default (all cores)
        # spends more starting threads than copying (20 ms vs 1 ms, 100 rows).
        return DMatrix(self._model_input(X), feature_names=self._booster.feature_names,
                       nthread=1)

    def _predict(self, X, **kwargs):
        return np.asarray(self._booster.predict(self._dmatrix(X), **kwargs),
                          dtype=np.float64)

    def _raw(self, X):
        """The explained output of every class, (n,) or (n, n_outputs)."""
        if self._family == "xgboost":
            return self._predict(X, output_margin=True)
        if self._family == "sklearn":
            raw = self._ensemble.raw_output(self._model_input(X))
        elif self._family == "lightgbm":
            raw = np.asarray(self._model.predict(self._model_input(X), raw_score=True))
        else:
            raw = np.asarray(self._model.predict(self._model_input(X),
                                                 prediction_type="RawFormulaVal"))
        raw = np.asarray(raw, dtype=np.float64)
        return raw[:, 0] if raw.ndim == 2 and raw.shape[1] == 1 else raw

    def _contributions(self, X):
        return self._predict(X, pred_contribs=True, approx_contribs=self.approx)

    def _native(self, X):
        """LightGBM / CatBoost contributions, (n, d + 1) or (n, K, d + 1)."""
        Xm = self._model_input(X)
        d = Xm.shape[1]
        if self._family == "lightgbm":
            out = np.asarray(self._model.predict(Xm, pred_contrib=True),
                             dtype=np.float64)
            if out.shape[1] != d + 1:  # multi-class: classes side by side
                out = out.reshape(len(Xm), -1, d + 1)
            return out
        from catboost import Pool

        out = self._model.get_feature_importance(Pool(Xm), type="ShapValues")
        return np.asarray(out, dtype=np.float64)

    def _output(self, target=None):
        return _TreeTarget(self, self.target if target is None else target)

    def _explain(self, X, f, target_index, rngs):
        f.n_evaluations += len(X)
        if self._family == "sklearn":
            Xm = self._model_input(X)
            if self.feature_perturbation == "interventional":
                phi, _ = self._ensemble.interventional_values(
                    Xm, self._background_model)
            else:
                phi = self._ensemble.shap_values(Xm)
            # (n, d, n_outputs): no bias column to drop.
            if phi.shape[2] == 1:
                contribs = phi[:, :, 0]
            else:
                return phi[np.arange(len(X)), :, target_index]
        else:
            contribs = (self._contributions(X) if self._family == "xgboost"
                        else self._native(X))[..., :-1]
            if contribs.ndim == 3:  # multi-class: (n, n_classes, d)
                return contribs[np.arange(len(X)), target_index]
        if target_index is not None:  # binary: margin of class 0 is -margin
            contribs = np.where((target_index == 0)[:, None], -contribs, contribs)
        return contribs
