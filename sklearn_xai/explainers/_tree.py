"""TreeSHAP contributions of xgboost models (Lundberg et al. 2020)."""

import json

import numpy as np

from sklearn_xai.base import BaseExplainer
from sklearn_xai.explainers._capabilities import model_agnostic_hint
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._estimators import is_frozen, transform_steps, unwrap
from sklearn_xai.utils._output import class_index
from sklearn_xai.utils._sklearn import HasMethods, StrOptions

__all__ = ["TreeContributions"]


def _is_xgboost(model):
    module = type(model).__module__ or ""
    return module.split(".")[0] == "xgboost" and (
        hasattr(model, "get_booster") or type(model).__name__ == "Booster"
    )


def _is_booster(model):
    """A raw ``xgboost.Booster``: already trained, it has no ``fit``."""
    return type(model).__name__ == "Booster"


def _check_xgboost(estimator):
    preprocess, final = unwrap(estimator)
    if not _is_xgboost(final):
        raise NotApplicableError(
            "TreeContributions needs an xgboost model: XGBClassifier, XGBRegressor, "
            "xgboost.Booster, or a Pipeline / FrozenEstimator whose final step is "
            f"one; got {type(final).__name__}. {model_agnostic_hint()}"
        )
    return preprocess, final


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
    """Refuse what xgboost's C++ core would reject with an opaque error:
    string arrays in ``X`` (``validate_X`` converts numeric strings for the
    explainer, but the model is fitted on ``X`` as given), and a ``y``
    without one finite target per row of ``X``."""
    if not hasattr(X, "columns"):  # DataFrames: xgboost checks their dtypes
        if np.asarray(X).dtype.kind in "SU":
            raise ValueError(
                f"X has dtype {np.asarray(X).dtype}, but xgboost needs numbers: "
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
            "y contains NaN or infinity, which xgboost rejects: drop those rows "
            "or impute their targets before TreeContributions.fit."
        )


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
            margin = self.explainer._predict(X, output_margin=True)
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
    """Exact TreeSHAP contributions of an xgboost model (``pred_contribs``).

    ``booster.predict(DMatrix(X), pred_contribs=True)`` (Lundberg et al.'s
    path-dependent TreeSHAP): each row's contributions sum to the model's
    **margin** (log-odds for binary classifiers, per-class scores for
    multi-class ones, the prediction for regressors) minus
    :attr:`expected_value_`.  Values are in margin space and are not
    comparable in scale with probability-space explainers.  For a binary
    classifier explaining class 0 the contributions are negated (the margin
    of class 0 is minus that of class 1); for multi-class models the column
    of the explained class is returned.

    Parameters
    ----------
    estimator : XGBClassifier, XGBRegressor, xgboost.Booster or Pipeline
        The model (``FrozenEstimator(model)`` or a raw ``Booster`` for a
        fitted one).  A Pipeline's preprocessing steps are applied first and
        must keep one column per input feature.
    approx : bool, default=False
        Saabas' approximation (``approx_contribs=True``) instead of TreeSHAP.
    target : "predicted", int or label, default="predicted"
        Explained class of a classifier; ``"predicted"`` is the class with
        the largest margin.
    output : {"margin"}, default="margin"
        The explained output (contributions exist only for the margin).

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    expected_value_ : float or ndarray of shape (n_classes,)
        The bias term: the margin of the average training row in the trees'
        weighting (per class for multi-class models; of ``classes_[1]`` for
        binary ones).
    classes_ : ndarray or None
        Classes of a classifier (``None`` for regressors).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    References
    ----------
    .. [1] S. M. Lundberg, G. Erion, H. Chen, A. DeGrave, J. M. Prutkin,
       B. Nair, R. Katz, J. Himmelfarb, N. Bansal and S.-I. Lee, "From local
       explanations to global understanding with explainable AI for trees",
       Nature Machine Intelligence 2, 2020.

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
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "estimator": [HasMethods(["fit"]), HasMethods(["predict", "get_dump"]), None],
        "approx": ["boolean"],
        "output": [StrOptions({"margin"})],
    }

    def __init__(self, estimator=None, *, approx=False, target="predicted",
                 output="margin"):
        self.estimator = estimator
        self.approx = approx
        self.target = target
        self.output = output

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.model_agnostic = False  # xgboost models only
        return tags

    def _fit_estimator(self, X, y, **fit_params):
        # Refuse another model before training it; a raw Booster is trained
        # already and has no fit: it is used as is, like a FrozenEstimator.
        _check_xgboost(self.estimator)
        if _is_booster(self.estimator):
            return self.estimator
        if not is_frozen(self.estimator):  # fitted here: validate its data first
            _check_training_data(X, y)
        return super()._fit_estimator(X, y, **fit_params)

    def _fit_explainer(self, X, y):
        preprocess, final = _check_xgboost(self.estimator_)
        self._preprocess = preprocess
        if _is_booster(final):
            self._booster = final
            self.classes_ = _booster_classes(final)
        else:
            self._booster = final.get_booster()
            classes = getattr(final, "classes_", None)
            self.classes_ = None if classes is None else np.asarray(classes)
        bias = self._contributions(X[:1])[0, ..., -1]
        self.expected_value_ = float(bias) if np.ndim(bias) == 0 else bias

    def _dmatrix(self, X):
        from xgboost import DMatrix

        if self._preprocess is not None:
            Xt = np.asarray(transform_steps(self._preprocess, X), dtype=np.float64)
            if Xt.shape != X.shape:
                raise ValueError(
                    "The Pipeline's preprocessing changes the number of columns "
                    f"({X.shape[1]} -> {Xt.shape[1]}); TreeContributions needs one "
                    "model input per feature. " + model_agnostic_hint()
                )
            X = Xt
        return DMatrix(X, feature_names=self._booster.feature_names)

    def _predict(self, X, **kwargs):
        return np.asarray(self._booster.predict(self._dmatrix(X), **kwargs),
                          dtype=np.float64)

    def _contributions(self, X):
        return self._predict(X, pred_contribs=True, approx_contribs=self.approx)

    def _output(self, target=None):
        return _TreeTarget(self, self.target if target is None else target)

    def _explain(self, X, f, target_index, rngs):
        contribs = self._contributions(X)
        f.n_evaluations += len(X)
        if contribs.ndim == 3:  # multi-class: (n, n_classes, d + 1)
            contribs = contribs[np.arange(len(X)), target_index]
        elif target_index is not None:  # binary: margin of class 0 is -margin
            contribs = np.where((target_index == 0)[:, None], -contribs, contribs)
        return contribs[:, :-1]
