"""Explanation scorers and their names.

A scorer is a callable ``scorer(estimator, X, y=None, **metadata) -> float``
(greater is better) that scikit-learn's model selection tools accept as
``scoring``.  ``estimator`` is an :class:`~sklearn_xai.compose.ExplainedModel`,
an explainer, or a :class:`~sklearn.pipeline.Pipeline` ending in one; they
are recognised by protocol (``explain`` and ``explained_estimator_``), so
this module imports neither explainers nor ``sklearn_xai.compose``.

Per-row metadata (``ground_truth``, ``sensitive``) reaches a scorer through
scikit-learn's metadata routing, so :class:`~sklearn.model_selection.GridSearchCV`
hands every fold's scorer exactly the rows of that fold.  Scorers request the
metadata their metric needs by default (public ``MetadataRequest`` API); enable
routing with ``sklearn.set_config(enable_metadata_routing=True)``.

scikit-learn offers no way to register third-party scoring strings, and we do
not patch it: names are resolved here (:func:`get_scorer`,
:func:`check_scoring`) and by :class:`~sklearn_xai.compose.ExplainedModel`'s
``scoring`` parameter.
"""

import copy
import inspect
import numbers
from collections import OrderedDict

import joblib
import numpy as np
from sklearn import get_config
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.metrics import get_scorer_names as sklearn_get_scorer_names
from sklearn.pipeline import Pipeline
from sklearn.utils.metadata_routing import MetadataRequest

from sklearn_xai.metrics._registry import (
    MetricSpec,
    _entry,
    _register_scorer,
    _scorer_names,
    get_metric_spec,
    metric_specs,
)
from sklearn_xai.metrics._shapley_reference import exact_shapley_reference
from sklearn_xai.utils._stats import NAN_POLICIES, handle_undefined

__all__ = [
    "ExplanationScorer",
    "check_scoring",
    "get_scorer",
    "get_scorer_names",
    "make_explanation_scorer",
    "register_scorer",
]

def _explains(estimator):
    """Whether ``estimator`` follows the explanation protocol (duck-typed)."""
    return hasattr(estimator, "explain")


def _unwrap(estimator, X):
    """(model, explainer, options, X seen by the explainer) of a scorable estimator.

    Scorable objects are recognised by protocol, not by type: ``explain(X)``
    plus the fitted model as ``explained_estimator_`` (explainers and
    :class:`~sklearn_xai.compose.ExplainedModel`); this module imports
    neither.  ``explainer`` is that object: it computes the attributions and
    is what stability metrics re-explain with.  ``options`` is where the
    scorer reads the default ``target`` and ``output``: the inner explainer
    of a meta-estimator that keeps one as ``explainer_`` (ExplainedModel),
    else the object itself.  A Pipeline ending in a scorable object explains
    its transformed ``X``.
    """
    Xe = X
    if isinstance(estimator, Pipeline) and _explains(estimator.steps[-1][1]):
        Xe = estimator[:-1].transform(X) if len(estimator) > 1 else X
        estimator = estimator.steps[-1][1]
    if _explains(estimator):
        options = getattr(estimator, "explainer_", estimator)
        if getattr(options, "groups_", None) is not None:
            # Metrics mask, perturb and rank one attribution per column.
            raise ValueError(
                f"{type(options).__name__} was fitted with groups and gives one "
                "attribution per feature group, but explanation metrics score one "
                "attribution per column of X. Score the explainer with groups=None "
                "(grouped attributions are for reading, not for these metrics)."
            )
        return estimator.explained_estimator_, estimator, options, Xe
    raise TypeError(
        "Explanation scorers score an ExplainedModel, an explainer, or a Pipeline "
        f"ending in an explainer; got {type(estimator).__name__}. Wrap the model: "
        "ExplainedModel(model, explainer)."
    )


def _as_array(X):
    if hasattr(X, "to_numpy"):
        return X.to_numpy()
    return np.asarray(X)


# The memo of a fitted explainer's attributions, kept on the explainer
# itself: (fit id, {digest of X: attributions}), the last few X.
_EXPLANATIONS = "_sklearn_xai_explanations"
_N_EXPLANATIONS = 4
# Exact Shapley references an ExplanationScorer remembers.
_N_REFERENCES = 4


def _attributions(explainer, X):
    """``explainer.explain(X)``, computed once per fit of the explainer and X.

    The attributions are remembered on the explainer (a private attribute
    holding its fit id and the last few ``X``), so every scorer that scores
    the same fitted explainer shares them; a refit (a new fit id) forgets
    them, and they go with the explainer.  Explainers without a fit id
    (outside this package) are not memoised.
    """
    fit_id = getattr(explainer, "_sklearn_xai_fit_id", None)
    if fit_id is None:
        return _explain(explainer, X)
    memo = getattr(explainer, _EXPLANATIONS, None)
    if not (isinstance(memo, tuple) and memo[0] == fit_id):
        memo = (fit_id, OrderedDict())
    entries = memo[1]
    key = joblib.hash(_as_array(X))
    if key in entries:
        entries.move_to_end(key)
        return entries[key]
    A = _explain(explainer, X)
    entries[key] = A
    while len(entries) > _N_EXPLANATIONS:
        entries.popitem(last=False)
    try:
        setattr(explainer, _EXPLANATIONS, memo)
    except (AttributeError, TypeError):  # an object that takes no attributes
        pass
    return A


def _explain(explainer, X):
    A = np.asarray(_as_array(explainer.explain(X)), dtype=np.float64)
    A.setflags(write=False)
    return A


def _accepts(func, name):
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


def _aggregate(scores, nan_policy, name):
    """Mean of per-row scores; NaN rows follow the scorer's ``nan_policy``
    (left out of the mean with a warning, counted as 0, or an error)."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim == 0:
        return float(scores)
    nan = np.isnan(scores)
    scores = handle_undefined(scores, nan, nan_policy, name, "NaN score",
                              stacklevel=4)
    used = scores[~np.isnan(scores)]
    return float(used.mean()) if used.size else float("nan")


class ExplanationScorer:
    """Scorer of an explanation metric: ``scorer(estimator, X, y=None,
    **metadata) -> float``, greater is better.

    Built by :func:`make_explanation_scorer` and :func:`get_scorer`.  Calling
    it explains ``X`` with the estimator (an explainer, an
    :class:`~sklearn_xai.compose.ExplainedModel` or a Pipeline ending in
    one), scores the attributions with the metric and returns the mean over
    rows, negated for losses.  Per-row metadata the metric needs
    (``spec.metadata``) is requested through scikit-learn's metadata
    routing.  Metrics that re-explain rows get the scored object as
    ``explainer``; the randomisation checks explain each randomised model
    with a fresh clone of its explainer, fitted on the rows it was fitted on
    (in a search, the fold's training rows) unless ``X_train`` is bound.

    What a scorer computes once and reuses:

    * the attributions of ``X`` by a fitted explainer, remembered on the
      explainer itself for its current fit (the last few ``X``), so several
      scorers of one search explain each candidate once, and a refit
      explains again.  Metrics that retrain on explained training rows
      (ROAR, which require ``"training_data"``) get the explainer's
      attributions of the bound ``X_train`` the same way;
    * the exact Shapley reference of metrics that compare with one
      (``"reference"`` in their requirements: ``shapley_corr``,
      ``neg_shapley_mse``), computed with
      :func:`~sklearn_xai.metrics.exact_shapley_reference` from the bound
      arguments and passed as ``reference=``.  The scorer keeps the last
      four, keyed by the model's state, the rows and the arguments, and
      only when ``random_state`` is bound to an int (otherwise each call
      draws afresh).  They live as long as the scorer: a new scorer
      computes its own, and binding ``reference=`` skips them.

    Parameters
    ----------
    spec : MetricSpec
        The metric, its orientation and what it requires.
    nan_policy : {"omit", "raise", "zero"}, default="omit"
        Rows with an undefined score (NaN): left out of the mean with an
        :class:`~sklearn_xai.metrics.UndefinedScoreWarning`, an error, or
        counted as 0.
    **kwargs : dict
        Keyword arguments of the metric bound at construction (``k=5``,
        ``masker=...``, ``distribution=...``).

    Attributes
    ----------
    metric : MetricSpec
        The metric and its orientation.
    kwargs : dict
        Keyword arguments bound at construction.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.metrics import ExplanationScorer, get_metric_spec
    >>> scorer = ExplanationScorer(get_metric_spec("neg_complexity"))
    >>> A = np.array([[1.0, 1.0], [1.0, 0.0]])
    >>> scorer.score_attributions(None, np.zeros((2, 2)), A)  # entropy / log(d)
    array([1., 0.])
    """

    def __init__(self, spec, *, nan_policy="omit", **kwargs):
        if nan_policy not in NAN_POLICIES:
            raise ValueError(
                f"nan_policy must be 'omit', 'raise' or 'zero', got {nan_policy!r}."
            )
        self.metric = spec
        self.nan_policy = nan_policy
        self.kwargs = kwargs
        self._references = OrderedDict()  # key -> exact Shapley reference
        self._request = MetadataRequest(owner=type(self).__name__)
        for param in spec.metadata:
            self._request.score.add_request(param=param, alias=True)

    # ----------------------------------------------------------- routing
    def get_metadata_routing(self):
        """Metadata this scorer consumes (requested by default).

        Returns
        -------
        routing : MetadataRequest
        """
        return self._request

    def set_score_request(self, **kwargs):
        """Change which metadata the scorer requests (``True``, ``False``,
        ``None`` or an alias string), as with scikit-learn's scorers.

        Returns
        -------
        self : ExplanationScorer
        """
        for param, alias in kwargs.items():
            self._request.score.add_request(param=param, alias=alias)
        return self

    # -------------------------------------------------------------- call
    def _metadata(self, metadata, n_rows):
        out = {}
        for param in self.metric.metadata:
            value = metadata.get(param)
            if value is None:
                routing = get_config().get("enable_metadata_routing", False)
                hint = (
                    "" if routing else
                    " Metadata routing is off: call "
                    "sklearn.set_config(enable_metadata_routing=True) so that "
                    "GridSearchCV / cross_validate pass it to the scorer."
                )
                raise ValueError(
                    f"The {self.metric.name!r} scorer needs {param}: pass it as "
                    f"fit(X, y, {param}=...) to GridSearchCV or cross_validate "
                    f"(params={{'{param}': ...}}), or call scorer(estimator, X, y, "
                    f"{param}=...).{hint}"
                )
            value = _as_array(value)
            if len(value) != n_rows:
                raise ValueError(
                    f"{param} has {len(value)} rows but X has {n_rows}: pass one "
                    f"{param} row per row of X (metadata routing splits it per fold)."
                )
            out[param] = value
        return out

    def _bound_kwargs(self, explainer, options):
        """Keyword arguments, with the explainer's target/output (read from
        ``options``) by default."""
        func = self.metric.func
        kwargs = dict(self.kwargs)
        if self.metric.kind == "model":
            for name in ("target", "output"):
                if name not in kwargs and _accepts(func, name) and hasattr(options, name):
                    value = getattr(options, name)
                    if not (isinstance(value, str) and value == "auto" and name == "target"):
                        kwargs[name] = value
            if "explainer" in self.metric.requires and "explainer" not in kwargs \
                    and explainer is not None:
                kwargs["explainer"] = explainer
            if "training_data" in self.metric.requires and explainer is not None \
                    and kwargs.get("attributions_train") is None \
                    and kwargs.get("X_train") is not None \
                    and kwargs.get("y_train") is not None:
                # The explainer's attributions of the training rows, shared
                # by every scorer of this fitted explainer.
                kwargs["attributions_train"] = _attributions(explainer,
                                                             kwargs["X_train"])
        return kwargs

    def _reference(self, model, X, kwargs):
        """The exact Shapley reference of a metric that takes one, from this
        scorer's memo (last :data:`_N_REFERENCES`), or None to let the
        metric compute it (no integer ``random_state``, or a model or
        argument that cannot be fingerprinted)."""
        random_state = kwargs.get("random_state")
        if not isinstance(random_state, numbers.Integral) \
                or isinstance(random_state, bool):
            return None
        params = inspect.signature(exact_shapley_reference).parameters
        args = {k: v for k, v in kwargs.items() if k in params}
        try:
            key = joblib.hash((model, X, sorted(args.items())))
        except Exception:  # noqa: BLE001 - an object joblib cannot pickle
            return None
        if key in self._references:
            self._references.move_to_end(key)
            return self._references[key]
        reference = exact_shapley_reference(model, X, **args)
        reference.setflags(write=False)
        self._references[key] = reference
        while len(self._references) > _N_REFERENCES:
            self._references.popitem(last=False)
        return reference

    def per_row(self, estimator, X, y=None, **metadata):
        """Per-row (or dataset-level) metric values, in the metric's own orientation.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or float
        """
        model, explainer, options, Xe = _unwrap(estimator, X)
        A = _attributions(explainer, Xe)
        return self._score(model, Xe, A, explainer, options, metadata)

    def score_attributions(self, estimator, X, attributions, *, explainer=None, **metadata):
        """Per-row metric values of attributions computed beforehand.

        The entry point for attributions that were not computed by the
        scorer (a benchmark that times its explanations, attributions loaded
        from disk, an explainer outside this package).

        Parameters
        ----------
        estimator : estimator
            The fitted model the attributions explain (used by metrics that
            evaluate the model; ignored by the others).
        X : array-like of shape (n_samples, n_features)
            The explained rows.
        attributions : array-like of shape (n_samples, n_features)
            Their attributions.
        explainer : fitted explainer, default=None
            The explainer that produced them: its ``target`` and ``output``
            are the defaults of metrics that take them, and metrics that
            re-explain perturbed rows (stability) need it.
        **metadata : dict
            ``ground_truth`` / ``sensitive`` rows aligned with ``X`` when the
            metric needs them.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or float
            In the metric's own orientation.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_xai.metrics import get_scorer
        >>> scorer = get_scorer("feature_agreement", k=1)
        >>> truth = np.array([[3.0, 1.0], [1.0, 3.0]])
        >>> scorer.score_attributions(None, truth, [[2.0, 0.5], [2.0, 0.5]],
        ...                           ground_truth=truth)
        array([1., 0.])
        """
        A = np.asarray(_as_array(attributions), dtype=np.float64)
        n_rows = len(_as_array(X))
        if A.ndim != 2 or len(A) != n_rows:
            raise ValueError(
                f"attributions must have one row per row of X ({n_rows}), got shape "
                f"{A.shape}."
            )
        if "explainer" in self.metric.requires and explainer is None \
                and "explainer" not in self.kwargs:
            raise ValueError(
                f"{self.metric.name} re-explains perturbed rows: pass the fitted "
                "explainer as explainer=..."
            )
        return self._score(estimator, X, A, explainer, explainer, metadata)

    def _score(self, model, Xe, A, explainer, options, metadata):
        meta = self._metadata(metadata, len(A))
        kwargs = self._bound_kwargs(explainer, options)
        func = self.metric.func
        if self.metric.kind == "reference":
            return func(meta["ground_truth"], A, **kwargs)
        if self.metric.kind == "attributions":
            return func(A, **kwargs)
        Xe = _as_array(Xe).astype(np.float64)
        if "reference" in self.metric.requires and kwargs.get("reference") is None:
            reference = self._reference(model, Xe, kwargs)
            if reference is not None:
                kwargs["reference"] = reference
        return func(model, Xe, A, **kwargs)

    def __call__(self, estimator, X, y=None, **metadata):
        """Score ``estimator`` on ``X`` (greater is better).

        Parameters
        ----------
        estimator : ExplainedModel, explainer or Pipeline ending in one
            Fitted.
        X : array-like of shape (n_samples, n_features)
        y : ignored
            Present for scikit-learn's scorer signature.
        **metadata : dict
            ``ground_truth`` / ``sensitive`` rows aligned with ``X`` when the
            metric needs them.

        Returns
        -------
        score : float
        """
        scores = self.per_row(estimator, X, y, **metadata)
        value = _aggregate(scores, self.nan_policy, self.metric.name)
        return value if self.metric.greater_is_better else -value

    def __repr__(self):
        args = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        return f"make_explanation_scorer({self.metric.func.__name__}{args})"


def make_explanation_scorer(metric, *, greater_is_better=True, kind=None,
                            requires=(), per_instance=True, nan_policy="omit",
                            **kwargs):
    """Make a scorer from an explanation metric.

    Parameters
    ----------
    metric : callable, str or MetricSpec
        A metric function (registered or not), or a registered name.
    greater_is_better : bool, default=True
        Orientation of ``metric``'s values (ignored for registered metrics,
        whose orientation is known).  Losses are negated by the scorer.
    kind : {"reference", "model", "attributions"}, default=None
        Signature family of an unregistered ``metric`` (required then).
    requires : tuple of str, default=()
        Metadata an unregistered ``metric`` needs (``"ground_truth"``,
        ``"sensitive"``), requested from the router by default.
    per_instance : bool, default=True
        Whether ``metric`` returns one value per row.
    nan_policy : {"omit", "raise", "zero"}, default="omit"
        Rows with an undefined score (NaN): left out of the mean with a
        warning, an error, or counted as 0.
    **kwargs : dict
        Bound keyword arguments of the metric (``k=5``, ``masker=...``).

    Returns
    -------
    scorer : ExplanationScorer

    Examples
    --------
    >>> from sklearn_xai.metrics import feature_agreement, make_explanation_scorer
    >>> scorer = make_explanation_scorer(feature_agreement, k=3)
    >>> scorer.metric.name
    'feature_agreement'
    """
    if isinstance(metric, str):
        spec = get_metric_spec(metric)
    elif isinstance(metric, MetricSpec):
        spec = metric
    elif callable(metric):
        spec = next((s for s in metric_specs() if s.func is metric), None)
        if spec is None:
            if kind is None:
                raise ValueError(
                    f"{getattr(metric, '__name__', metric)!r} is not a registered "
                    "metric: pass kind='reference', 'model' or 'attributions' to say "
                    "how to call it."
                )
            name = getattr(metric, "__name__", "metric")
            if not greater_is_better and not name.startswith("neg_"):
                name = "neg_" + name
            spec = MetricSpec(name=name, func=metric, kind=kind,
                              greater_is_better=greater_is_better,
                              per_instance=per_instance, requires=tuple(requires))
    else:
        raise TypeError(f"metric must be a callable or a name, got {metric!r}.")
    return ExplanationScorer(spec, nan_policy=nan_policy,
                             **{**spec.default_kwargs, **kwargs})


def register_scorer(name, scorer, *, replace=False):
    """Make ``scorer`` available by ``name`` to :func:`get_scorer`,
    :func:`check_scoring` and ``ExplainedModel(scoring=name)``.

    The name joins the metric names in the one registry of scorer names;
    :func:`get_scorer` hands out a deep copy, so that changing it (e.g.
    ``set_score_request``) leaves the registered scorer as it was.  To make a
    metric *function* a scorer name, use :func:`register_metric`.

    Parameters
    ----------
    name : str
        The scorer name.  Greater is better for every scorer: name losses
        ``neg_*``.
    scorer : callable
        ``scorer(estimator, X, y=None, **metadata) -> float``.
    replace : bool, default=False
        Allow overwriting a name.

    Examples
    --------
    >>> from sklearn_xai.metrics import get_scorer, register_scorer
    >>> from sklearn_xai.metrics import make_explanation_scorer
    >>> register_scorer("pgi_top2", make_explanation_scorer("pgi", k=2),
    ...                 replace=True)
    >>> get_scorer("pgi_top2")
    make_explanation_scorer(pgi, k=2)
    >>> get_scorer("pgi_top2") is get_scorer("pgi_top2")
    False
    """
    if not callable(scorer):
        raise TypeError(f"scorer must be callable, got {type(scorer).__name__}.")
    _register_scorer(name, scorer=scorer, replace=replace)


def get_scorer_names():
    """Names of all explanation scorers (scikit-learn's names also work in
    :func:`check_scoring`).

    Returns
    -------
    names : list of str

    Examples
    --------
    >>> from sklearn_xai.metrics import get_scorer_names
    >>> {"pgi", "neg_group_gap"} <= set(get_scorer_names())
    True
    """
    return _scorer_names()


def get_scorer(scoring, **kwargs):
    """Scorer by name: ours first, then scikit-learn's.

    Parameters
    ----------
    scoring : str or callable
        A name from :func:`get_scorer_names` or from
        :func:`sklearn.metrics.get_scorer_names`; a callable is returned as is.
    **kwargs : dict
        Bound keyword arguments of the metric (e.g. ``k=5``,
        ``masker=BaselineMasker("mean")``, ``metric="pgi"`` for
        ``"neg_group_gap"``).

    Returns
    -------
    scorer : callable

    Examples
    --------
    >>> from sklearn_xai.metrics import get_scorer
    >>> get_scorer("feature_agreement", k=2)
    make_explanation_scorer(feature_agreement, k=2)
    """
    if callable(scoring):
        if kwargs:
            raise ValueError("Keyword arguments only apply to scorer names.")
        return scoring
    if not isinstance(scoring, str):
        raise TypeError(f"scoring must be a str or a callable, got {scoring!r}.")
    entry = _entry(scoring)
    if isinstance(entry, MetricSpec):
        return make_explanation_scorer(entry, **kwargs)
    if entry is not None and entry.factory is not None:
        return entry.factory(**kwargs)
    if entry is not None:
        if kwargs:
            raise ValueError(f"Registered scorer {scoring!r} takes no keyword arguments.")
        # A copy, as scikit-learn's get_scorer: set_score_request on it must
        # not change the registered scorer.
        return copy.deepcopy(entry.scorer)
    if scoring in sklearn_get_scorer_names():
        if kwargs:
            raise ValueError(
                f"{scoring!r} is a scikit-learn scorer; build it with "
                "sklearn.metrics.make_scorer to pass arguments."
            )
        return sklearn_get_scorer(scoring)
    raise ValueError(
        f"{scoring!r} is not a known scorer. Explanation scorers: "
        f"{get_scorer_names()}; scikit-learn's are listed by "
        "sklearn.metrics.get_scorer_names()."
    )


def check_scoring(scoring=None, *, estimator=None):
    """Resolve ``scoring`` for scikit-learn's model selection tools.

    Parameters
    ----------
    scoring : str, callable, list, tuple, set, dict or None
        A name (ours or scikit-learn's), a callable, a collection of names
        (gives a dict name -> scorer, for multi-metric search), or a dict of
        names or callables.  ``None`` returns ``None``, or the estimator's own
        ``score`` when ``estimator`` is given.
    estimator : estimator, default=None

    Returns
    -------
    scoring : callable, dict or None

    Examples
    --------
    >>> from sklearn_xai.metrics import check_scoring
    >>> sorted(check_scoring(["feature_agreement", "r2"]))
    ['feature_agreement', 'r2']
    """
    if scoring is None:
        if estimator is None:
            return None
        from sklearn.metrics import check_scoring as sk_check_scoring

        return sk_check_scoring(estimator)
    if isinstance(scoring, (str,)) or callable(scoring):
        return get_scorer(scoring)
    if isinstance(scoring, dict):
        if not scoring:
            raise ValueError("scoring dict is empty; give at least one scorer.")
        return {str(k): get_scorer(v) for k, v in scoring.items()}
    if isinstance(scoring, (list, tuple, set)):
        names = list(scoring)
        if not names or not all(isinstance(n, str) for n in names):
            raise ValueError(
                "A scoring list must be a non-empty list of scorer names; use a "
                "dict to give callables names."
            )
        if len(set(names)) != len(names):
            raise ValueError(f"scoring has duplicate names: {names}.")
        return {n: get_scorer(n) for n in names}
    raise TypeError(
        "scoring must be a name, a callable, a list of names or a dict; got "
        f"{type(scoring).__name__}."
    )
