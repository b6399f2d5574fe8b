"""ScaffoldedClassifier: Slack et al.'s (2020) adversarial scaffolding, a
classifier that is biased on the data and innocuous on an explainer's
perturbations."""

import numbers

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    MetaEstimatorMixin,
    clone,
)
from sklearn.ensemble import RandomForestClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn_xai.base import BaseExplainer, clone_with_estimator, fit_model
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._estimators import seed_unset
from sklearn_xai.utils._sklearn import HasMethods, Interval, fit_context

__all__ = ["ScaffoldedClassifier", "explainer_queries"]

#: Label of the real rows in the detector's training set (the perturbations
#: are 0): ``detector_.predict(X) == 1`` means "in distribution".
_REAL = 1


class _QueryRecorder(ClassifierMixin, BaseEstimator):
    """A classifier that answers the class frequencies and records every row
    it is asked about (in ``queries_``, a list of arrays): what an explainer
    evaluates, for :func:`explainer_queries`."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = counts / counts.sum()
        self.queries_ = []
        return self

    def predict_proba(self, X):
        X = np.array(X, dtype=np.float64)  # a copy: callers reuse their buffers
        self.queries_.append(X)
        return np.broadcast_to(self.prior_, (len(X), len(self.prior_))).copy()

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


def _unique_rows(X):
    """The bytes of each row of a float64 array (hashable row keys)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    return X.view(np.dtype((np.void, X.dtype.itemsize * X.shape[1]))).ravel()


def explainer_queries(explainer, X, y, rows, *, exclude=None):
    """The rows an explainer asks a model about when it explains ``rows``.

    The explainer (a clone) is fitted on ``(X, y)`` to a model that only
    records its inputs, then explains ``rows``; the recorded inputs are its
    perturbations, drawn exactly as the explainer draws them (LIME's
    sampling, a masker's substitutions...).  Slack et al. (2020) train the
    out-of-distribution detector of a scaffolded model on such rows.

    Parameters
    ----------
    explainer : explainer
        A sklearn_xai explainer that queries its model (its ``estimator``
        parameter is replaced).
    X : ndarray of shape (n_samples, n_features)
        Training rows the explainer is fitted on.
    y : array-like of shape (n_samples,)
        Class labels (they fix the recorder's classes).
    rows : ndarray of shape (n_rows, n_features)
        Rows explained.
    exclude : ndarray of shape (n_excluded, n_features), default=None
        Rows left out of the result (the explained rows and the training
        rows, which an explainer also evaluates: they are real data, not
        perturbations).  ``None`` excludes ``X`` and ``rows``.

    Returns
    -------
    queries : ndarray of shape (n_queries, n_features)
        Every row the explainer evaluated, in order, less the excluded ones.
    """
    recorder = _QueryRecorder().fit(X, y)
    ex = clone_with_estimator(explainer, FrozenEstimator(recorder))
    ex.fit(X, y)
    ex.transform(rows)
    d = X.shape[1]
    queries = (np.concatenate(recorder.queries_) if recorder.queries_
               else np.empty((0, d)))
    if exclude is None:
        exclude = np.concatenate([X, rows])
    real = _unique_rows(np.asarray(exclude, dtype=np.float64))
    return queries[~np.isin(_unique_rows(queries), real)]


@Substitution(references=references("slack2020"))
class ScaffoldedClassifier(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """A classifier that hides a biased model from post hoc explainers
    (the adversarial scaffolding of Slack et al., 2020).

    ``fit`` trains an out-of-distribution detector to tell the training rows
    from the perturbations an explainer draws around them (the inputs the
    ``perturbation`` explainer asks a model about, recorded while it
    explains ``n_explained`` training rows, see :func:`explainer_queries`).
    ``predict`` then routes every row the detector calls real to
    ``biased_estimator`` and every other row to ``innocuous_estimator``: on
    the data the classifier is the biased model, but an explainer whose
    perturbations the detector recognises sees mostly the innocuous one, and
    attributes the predictions to the innocuous model's features.  An
    explainer whose perturbations look like data (conditional or
    on-manifold sampling) is not fooled as easily.  This estimator is a
    *test* of explainers, the one model auditors ask about; see
    :func:`sklearn_xai.benchmark.fooling_test`.

    Parameters
    ----------
    biased_estimator : classifier
        The model used on real rows (in the paper, a function of the
        sensitive feature alone).  Fitted on ``(X, y)``, unless it is a
        :class:`~sklearn.frozen.FrozenEstimator`.
    innocuous_estimator : classifier
        The model used on the detected perturbations (a function of
        features unrelated to the sensitive one), with the same classes.
        Fitted on ``(X, y)``, unless frozen.
    detector : classifier or None, default=None
        The out-of-distribution detector (cloned); ``None`` is the paper's
        ``RandomForestClassifier(n_estimators=100)``, seeded with
        ``random_state``.
    perturbation : explainer or None, default=None
        The explainer whose perturbations the detector learns, e.g.
        ``LimeTabular()`` or ``KernelSHAP(masker=MarginalMasker())``; its
        ``estimator`` is replaced by a recorder.  ``None`` is
        :class:`~sklearn_xai.explainers.LimeTabular` with its defaults.
        Its ``random_state`` and those of its nested estimators (its
        masker) that are None are seeded from ``random_state``.
    n_explained : int, default=100
        Training rows (drawn with ``random_state``) whose explanations
        provide the perturbations.  Every row the explainer evaluates is
        held in memory until the subsample is drawn: ``n_explained`` times
        its evaluations per row (LIME's default is 5000), times
        ``n_features`` floats.
    perturbation_ratio : float, default=1.0
        At most ``perturbation_ratio * n_samples`` perturbations (drawn
        with ``random_state``) train the detector, next to the
        ``n_samples`` real rows.
    random_state : int, RandomState instance or None, default=None
        Seeds the explained rows, the subsample of perturbations, the
        detector's train/test split and the default detector.

    Attributes
    ----------
    biased_estimator_ : classifier
        The fitted biased model.
    innocuous_estimator_ : classifier
        The fitted innocuous model.
    detector_ : classifier
        The fitted detector: ``detector_.predict(X) == 1`` for rows it
        takes for real data, ``0`` for perturbations.
    detector_accuracy_ : float
        Its accuracy on a held-out 20 % of the real rows and perturbations
        (the paper's measure of the detector), which it was not trained on.
    n_perturbations_ : int
        Number of perturbations the detector saw (training and held-out).
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    See Also
    --------
    sklearn_xai.benchmark.fooling_test : how often explainers still find
        the biased feature of such a classifier.
    explainer_queries : the recorded perturbations.

    {references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.compose import make_column_transformer
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_xai.compose import ScaffoldedClassifier
    >>> from sklearn_xai.explainers import LimeTabular
    >>> rng = np.random.default_rng(0)
    >>> X = rng.multivariate_normal([0, 0, 0], [[1, .9, .9], [.9, 1, .9], [.9, .9, 1]], 500)
    >>> y = (X[:, 0] > 0).astype(int)
    >>> def on(column):
    ...     return make_pipeline(make_column_transformer(("passthrough", [column])),
    ...                          DecisionTreeClassifier(max_depth=1))
    >>> clf = ScaffoldedClassifier(on(0), on(1), n_explained=20, random_state=0,
    ...                            perturbation=LimeTabular(n_perturbations=100))
    >>> clf = clf.fit(X, y)
    >>> bool(clf.detector_accuracy_ > 0.8), bool(clf.score(X, y) > 0.9)
    (True, True)
    """

    _parameter_constraints = {
        "biased_estimator": [HasMethods(["fit", "predict"])],
        "innocuous_estimator": [HasMethods(["fit", "predict"])],
        "detector": [HasMethods(["fit", "predict"]), None],
        "perturbation": [BaseExplainer, None],
        "n_explained": [Interval(numbers.Integral, 1, None, closed="left")],
        "perturbation_ratio": [Interval(numbers.Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, biased_estimator, innocuous_estimator, *, detector=None,
                 perturbation=None, n_explained=100, perturbation_ratio=1.0,
                 random_state=None):
        self.biased_estimator = biased_estimator
        self.innocuous_estimator = innocuous_estimator
        self.detector = detector
        self.perturbation = perturbation
        self.n_explained = n_explained
        self.perturbation_ratio = perturbation_ratio
        self.random_state = random_state

    def _perturbation_explainer(self, seed):
        if self.perturbation is None:
            from sklearn_xai.explainers import LimeTabular

            explainer = LimeTabular()
        else:
            explainer = clone(self.perturbation)
        return seed_unset(explainer, seed)

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit both models and the detector of the explainer's perturbations.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        rng = check_random_state(self.random_state)
        seed = int(rng.randint(2**31))
        self.biased_estimator_ = fit_model(self.biased_estimator, X, y)
        self.innocuous_estimator_ = fit_model(self.innocuous_estimator, X, y)
        biased, innocuous = (np.asarray(self.biased_estimator_.classes_),
                             np.asarray(self.innocuous_estimator_.classes_))
        if not np.array_equal(biased, innocuous):
            raise ValueError(
                f"biased_estimator has classes {biased.tolist()} but "
                f"innocuous_estimator has {innocuous.tolist()}: pass two classifiers "
                "of the same classes (fit them on the same labels)."
            )
        self.classes_ = biased

        n = X.shape[0]
        explained = rng.choice(n, size=min(self.n_explained, n), replace=False)
        queries = explainer_queries(self._perturbation_explainer(seed), X, y,
                                    X[np.sort(explained)])
        n_keep = min(len(queries), max(1, int(self.perturbation_ratio * n)))
        if n_keep < 2:
            raise ValueError(
                f"The perturbation explainer evaluated {len(queries)} row(s) other "
                "than the training rows while explaining "
                f"{len(explained)} row(s): too few to train the detector. Pass an "
                "explainer that queries the model (LimeTabular, KernelSHAP, ...) or "
                "raise n_explained."
            )
        queries = queries[np.sort(rng.choice(len(queries), size=n_keep, replace=False))]
        self.n_perturbations_ = n_keep
        rows = np.concatenate([X, queries])
        labels = np.r_[np.full(n, _REAL), np.full(n_keep, 1 - _REAL)]
        train_rows, test_rows, train_labels, test_labels = train_test_split(
            rows, labels, test_size=0.2, stratify=labels, random_state=seed)
        if self.detector is None:
            detector = RandomForestClassifier(n_estimators=100, random_state=seed)
        else:
            detector = clone(self.detector)
        self.detector_ = detector.fit(train_rows, train_labels)
        self.detector_accuracy_ = float(
            accuracy_score(test_labels, self.detector_.predict(test_rows)))
        return self

    def in_distribution(self, X):
        """Which rows the detector takes for real data (routed to the biased
        model).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        mask : ndarray of bool, shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._in_distribution(X)

    def _in_distribution(self, X):
        return np.asarray(self.detector_.predict(X)) == _REAL

    def _route(self, X, method):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        real = self._in_distribution(X)
        if method == "predict":
            out = np.empty(len(X), dtype=self.classes_.dtype)
        else:
            out = np.empty((len(X), len(self.classes_)), dtype=np.float64)
        for mask, model in ((real, self.biased_estimator_),
                            (~real, self.innocuous_estimator_)):
            if mask.any():
                out[mask] = getattr(model, method)(X[mask])
        return out

    def predict(self, X):
        """Predictions of the biased model on rows the detector takes for
        data, of the innocuous model on the others.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        return self._route(X, "predict")

    def predict_proba(self, X):
        """Class probabilities, routed as :meth:`predict`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        return self._route(X, "predict_proba")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.non_deterministic = self.random_state is None
        return tags
