"""One call to choose an explainer for a practitioner's own fitted model."""

import inspect
import numbers

import numpy as np
import pandas as pd
from sklearn.base import is_classifier

from sklearn_xai.benchmark._rows import compare_rows
from sklearn_xai.utils._estimators import unfreeze, unwrap
from sklearn_xai.utils._output import model_input

__all__ = ["applicable_explainers", "applicable_metrics", "compare_explainers"]

# Metrics that need only the model, its rows and training rows: no ground
# truth, no data distribution, no retraining, no image shape.
_NO_TRUTH_BINDINGS = {"masker", "training_rows", "random_state", "explainer"}
# Model-evaluation budget of the sampling explainers, per explained row.
_KERNEL_SHAP_BUDGET = 512
_LIME_BUDGET = 1000
_EXACT_SHAPLEY_MAX_FEATURES = 10
_BACKGROUND = 50  # background rows of the explainers' marginal masker


def _final(model):
    """The model doing the work (inside FrozenEstimator and Pipeline)."""
    return unwrap(model)[1]


def _is_tree_model(model):
    """Whether exact tree attributions explain the model."""
    from sklearn_xai.explainers import TreeContributions

    return TreeContributions.supports(model)


def _tree_output(model):
    """The output exact tree attributions explain: the additive margin of a
    boosted model or a regressor's prediction (``"margin"``), the averaged
    probability of a tree or forest classifier (``"proba"``)."""
    final = _final(model)
    library = type(final).__module__.split(".")[0]
    if is_classifier(final) and not hasattr(final, "decision_function") \
            and library not in ("xgboost", "lightgbm", "catboost"):
        return "proba"
    return "margin"


def _has_representation(model):
    """Whether the relative representation stability can read a hidden
    layer of the model (scikit-learn MLPs, skorch nets)."""
    final = _final(model)
    return hasattr(final, "coefs_") or hasattr(final, "module_")


def _is_differentiable(model):
    try:
        from sklearn_xai.explainers import differentiable_model
    except ImportError:  # pragma: no cover - torch is a dependency
        return False
    try:
        differentiable_model(unfreeze(model))
    except (TypeError, ValueError):
        return False
    return True


def applicable_explainers(model, n_features, *, output="auto"):
    """The explainers that apply to a fitted model, with sensible budgets.

    Model-agnostic explainers always apply: feature ablation, KernelSHAP,
    LIME, sampling Shapley values and leave-one-covariate-in, all with a
    marginal (interventional) masker on 50 background rows, plus exact
    Shapley values up to 10 features.  Gradient methods (saliency, input x
    gradient, integrated gradients, SmoothGrad) are added for differentiable
    torch models.  The random control is always first.  Exact tree attributions
    (:class:`~sklearn_xai.explainers.TreeContributions`) are added for every
    tree model they support (xgboost, scikit-learn's trees, forests and
    gradient boosting, LightGBM, CatBoost), on the output they explain: the
    margin of boosted models and regressors, the probability of tree and
    forest classifiers.

    Parameters
    ----------
    model : fitted estimator
    n_features : int
    output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
        The explained output, set on every explainer that has the parameter.

    Returns
    -------
    explainers : dict
        Label -> component spec (see :class:`BenchmarkSpec`).

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.benchmark import applicable_explainers
    >>> model = LinearRegression().fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]], [0, 1, 2])
    >>> list(applicable_explainers(model, 2))[:3]
    ['random', 'exact_shapley', 'feature_ablation']
    """
    marginal = {"name": "MarginalMasker", "params": {"background": _BACKGROUND}}
    out = {"output": output} if output != "auto" else {}
    explainers = {"random": "RandomExplainer"}
    if _is_tree_model(model):
        explainers["tree_shap"] = {"name": "TreeContributions",
                                   "params": {"output": _tree_output(model)}}
    if n_features <= _EXACT_SHAPLEY_MAX_FEATURES:
        explainers["exact_shapley"] = {"name": "ExactShapley",
                                       "params": {"masker": marginal, **out}}
    explainers.update({
        "feature_ablation": {"name": "FeatureAblation",
                             "params": {"masker": marginal, **out}},
        "kernel_shap": {"name": "KernelSHAP", "params": {
            "n_perturbations": _KERNEL_SHAP_BUDGET, "masker": marginal, **out}},
        "shapley_sampling": {"name": "ShapleyValueSampling", "params": {
            "n_permutations": max(2, _KERNEL_SHAP_BUDGET // (n_features + 1)),
            "masker": marginal, **out}},
        "lime": {"name": "LimeTabular", "params": {"n_perturbations": _LIME_BUDGET, **out}},
        "loci": {"name": "LeaveOneCovariateIn", "params": {"masker": marginal, **out}},
    })
    if _is_differentiable(model):
        explainers.update({
            "saliency": {"name": "Saliency", "params": dict(out)},
            "input_x_gradient": {"name": "InputXGradient", "params": dict(out)},
            "integrated_gradients": {"name": "IntegratedGradients",
                                     "params": dict(out)},
            "smoothgrad": {"name": "SmoothGrad", "params": dict(out)},
        })
    return explainers


def applicable_metrics(*, families=("faithfulness", "robustness", "complexity")):
    """The registered metrics that need no ground truth.

    A metric applies to any fitted model when it needs nothing but the
    model, the explained rows, training rows (for its masker), the
    explainer (to re-explain perturbed rows) and a seed: no true
    attributions, no data distribution, no retraining.

    Parameters
    ----------
    families : tuple of str, default=("faithfulness", "robustness", "complexity")
        Metric families to keep (see :data:`sklearn_xai.metrics.FAMILIES`).

    Returns
    -------
    metrics : list of str
        Scorer names, per-row metrics only (the decisions pair explainers
        row by row), sorted by family then name.

    Examples
    --------
    >>> from sklearn_xai.benchmark import applicable_metrics
    >>> "comprehensiveness" in applicable_metrics()
    True
    >>> "feature_agreement" in applicable_metrics()
    False
    """
    from sklearn_xai.metrics import metric_specs

    chosen = [spec for spec in metric_specs()
              if spec.kind != "reference" and spec.per_instance
              and set(spec.requires) <= _NO_TRUTH_BINDINGS
              and spec.family in families]
    order = {family: i for i, family in enumerate(families)}
    return [spec.name for spec in sorted(chosen, key=lambda s: (order[s.family], s.name))]


def _explainer_name(spec):
    """Class name of an explainer spec: a name, a class, an instance, or a
    dict ``{"name": ..., "params": ...}`` holding one of them."""
    if isinstance(spec, dict):
        spec = spec.get("name")
    if isinstance(spec, str):
        return spec.rsplit(".", 1)[-1]
    return spec.__name__ if inspect.isclass(spec) else type(spec).__name__


def _default_output(model, explainers):
    """One explained output for every explainer: the margin when exact tree
    attributions (which exist only for the margin) are compared."""
    names = {_explainer_name(spec) for spec in explainers.values()}
    if "TreeContributions" in names:
        return _tree_output(model)
    return "auto"


def compare_explainers(model, X, y=None, *, X_train=None, explainers="auto",
                       metrics="auto", output="auto", n_explain=100, seeds=(0, 1, 2),
                       n_jobs=None, backend=None, cache_dir=None, verbose=0):
    """Rank the explainers that apply to a fitted model on metrics without
    ground truth.

    A practitioner's question, "which explanation of *my* model should I
    trust?", as one call: every applicable explainer
    (:func:`applicable_explainers`) explains ``n_explain`` rows of ``X``, is
    scored on every metric that needs no true attributions
    (:func:`applicable_metrics`: faithfulness, robustness and complexity),
    for each seed, against the random control.  The returned results give the
    leaderboard with its decisions (which explainers are tied for best per
    metric and overall, with the significance test, mean ranks and costs)
    and write the report.

    The model is used as fitted (wrapped in
    :class:`~sklearn.frozen.FrozenEstimator`, never refitted); seeds vary
    only the explainers' and metrics' random draws.  Maskers of the
    metrics replace removed features by their mean over ``X_train``; the
    explainers' maskers draw from 50 background rows of ``X_train`` (a
    different choice on purpose, so no explainer is favoured by sharing the
    metric's masker).

    Parameters
    ----------
    model : fitted estimator
        The model to explain (a classifier or a regressor; a Pipeline is
        fine, including one fitted on a DataFrame whose ColumnTransformer
        selects columns by name: the model is always called on a DataFrame
        with its columns).
    X : array-like or DataFrame of shape (n_samples, n_features)
        Rows to explain (typically held-out rows); the first ``n_explain``
        are explained.  A raw DataFrame with string, pandas categorical or
        boolean columns is compared on its own columns (see
        :ref:`raw-dataframes`): its columns are coded as floats for the
        explainers and metrics (categories by their index) and decoded into
        the user's columns and dtypes for every model call; only the
        explainers that substitute values and the metrics that never do
        arithmetic on a category take part (the others are left out, with
        the reason, in :mod:`sklearn_xai.benchmark._rows`), removed columns
        take their most frequent value (categories, booleans) or their mean,
        and noise goes to float columns only.
    y : array-like of shape (n_samples,), default=None
        Their targets, only to report the model's score; ``None`` reports
        none.
    X_train : array-like or DataFrame of shape (n_train, n_features), default=None
        Training rows (a DataFrame with the columns of ``X`` when ``X`` is
        one): background of the maskers and of LIME's sampling.
        ``None`` uses the rows of ``X`` after the first ``n_explain``
        (then ``X`` needs more than ``n_explain`` rows).
    explainers : "auto" or dict, default="auto"
        ``"auto"`` is :func:`applicable_explainers`; a dict label -> spec
        (names, ``{"name": ..., "params": ...}`` or explainer instances) as
        in :class:`BenchmarkSpec`.  A random control is added when none is
        given.
    metrics : "auto", list or dict, default="auto"
        ``"auto"`` is :func:`applicable_metrics`; otherwise scorer names or
        specs as in :class:`BenchmarkSpec`.
    output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
        The output explained and scored, set on every explainer that takes
        it; the random control is scored on it too.  ``"auto"`` is
        ``"margin"`` when exact tree attributions are among the explainers
        (they exist only for the margin, and scores are only comparable on
        one output), else the model's default (probabilities of
        classifiers).
    n_explain : int, default=100
        Rows explained and scored.
    seeds : sequence of int, default=(0, 1, 2)
    n_jobs : int, default=None
        Cells in parallel (joblib's meaning).
    backend : str, default=None
        joblib backend (see :func:`run_benchmark`).
    cache_dir : str or path-like, default=None
        Per-cell cache folder (see :func:`run_benchmark`).
    verbose : int, default=0
        Show a progress bar when > 0.

    Returns
    -------
    results : BenchmarkResults
        ``results.leaderboard()`` (per metric: mean, spread, rank, tied for
        best, better than the control, cost per row),
        ``results.decisions()`` (mean ranks over metrics, Friedman test,
        critical difference); write the report with
        ``sklearn_xai.benchmark.write_report(results, folder)``.

    See Also
    --------
    run_benchmark : The general runner this call configures.

    References
    ----------
    .. [1] J. Demšar, "Statistical Comparisons of Classifiers over Multiple
       Data Sets", Journal of Machine Learning Research 7, 2006.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_xai.benchmark import compare_explainers
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = Ridge().fit(X[:300], y[:300])
    >>> results = compare_explainers(
    ...     model, X[300:], y[300:], X_train=X[:300], n_explain=10, seeds=[0],
    ...     explainers={"ablation": "FeatureAblation"},
    ...     metrics=["comprehensiveness", "neg_complexity"])
    >>> sorted(results.table["explainer"].unique())
    ['ablation', 'random']
    """
    from sklearn.frozen import FrozenEstimator
    from sklearn.utils.validation import check_array, check_is_fitted

    from sklearn_xai.benchmark._runner import run_benchmark
    from sklearn_xai.benchmark._spec import BenchmarkSpec

    check_is_fitted(model)
    rows = compare_rows(model, X, X_train)  # float codes for raw DataFrames
    X, X_train, model = rows.X, rows.X_train, rows.model
    if isinstance(n_explain, bool) or not isinstance(n_explain, numbers.Integral) \
            or n_explain < 1:
        raise ValueError(f"n_explain must be a positive int, got {n_explain!r}.")
    n_explain = min(int(n_explain), len(X))
    if X_train is None:
        if len(X) <= n_explain:
            raise ValueError(
                f"X has {len(X)} rows and n_explain={n_explain}: pass X_train= "
                "(training rows, the maskers' background) or a larger X."
            )
        X_train, X = X[n_explain:], X[:n_explain]
        if y is not None:
            y = np.asarray(y)[:n_explain]
    X_train = check_array(X_train, dtype=np.float64, ensure_all_finite=True)
    if X_train.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_train has {X_train.shape[1]} features but X has {X.shape[1]}."
        )
    frozen = model if isinstance(model, FrozenEstimator) else FrozenEstimator(model)
    classification = is_classifier(unfreeze(model))
    n_features = X.shape[1]
    # Targets only feed the model's reported score; without them the model's
    # own predictions stand in (the score is then not reported).
    y_given = y is not None
    y_explain = np.asarray(y) if y_given else frozen.predict(model_input(frozen, X))
    y_train = frozen.predict(model_input(frozen, X_train))
    if explainers == "auto":
        explainers = applicable_explainers(model, n_features)
        explainers = rows.explainers(explainers)
    elif not isinstance(explainers, dict):
        raise ValueError(
            "explainers must be 'auto' or a dict label -> explainer spec; got "
            f"{type(explainers).__name__}."
        )
    else:
        explainers = dict(explainers)
        names = {_explainer_name(spec) for spec in explainers.values()}
        if "RandomExplainer" not in names:
            explainers = {"random": "RandomExplainer", **explainers}
    if output == "auto":
        output = _default_output(model, explainers)
    if output != "auto":
        explainers = {label: _with_output(spec, output)
                      for label, spec in explainers.items()}
    if metrics == "auto":
        metrics = [m for m in applicable_metrics()
                   if m != "neg_rrs" or _has_representation(model)]
    metrics, mean_masker = rows.metrics(metrics, X_train)
    metrics = _with_masker(metrics, mean_masker)

    X_all = np.vstack([X_train, X])
    y_all = np.concatenate([y_train, y_explain])
    train = np.arange(len(X_train))
    test = np.arange(len(X_train), len(X_all))

    user_data = _ArrayData(X_all, y_all, train, test)
    spec = BenchmarkSpec(
        name="compare_explainers",
        description=f"Explainers of a fitted {type(_final(model)).__name__}.",
        datasets={"data": {"name": user_data,
                           "task": "classification" if classification else "regression"}},
        models={type(_final(model)).__name__: frozen},
        explainers=explainers, metrics=metrics, seeds=list(seeds),
        n_explain=n_explain, control="random" if "random" in explainers else "auto",
    )
    results = run_benchmark(spec, n_jobs=n_jobs, backend=backend, cache_dir=cache_dir,
                            verbose=verbose)
    if not y_given and "model_score" in results.table:
        results.table["model_score"] = np.nan
    return results


class _ArrayData:
    """A dataset "loader" returning given arrays and their fixed split
    (picklable, and hashed by content for the runner's cache keys)."""

    __name__ = "user_data"

    def __init__(self, X, y, train, test):
        self.X, self.y, self.train, self.test = X, y, train, test

    def __call__(self):
        return {"data": self.X, "target": self.y, "train_indices": self.train,
                "test_indices": self.test}

    def __repr__(self):
        # What reports show for the data set: its size, not an address.
        return (f"the given rows ({len(self.train)} training + {len(self.test)} "
                f"held-out, {self.X.shape[1]} features)")


def _with_output(spec, output):
    """The explainer spec with ``output`` set where the explainer takes it
    (an instance is cloned, never changed)."""
    from sklearn.base import clone

    from sklearn_xai.benchmark._spec import _lookup

    if hasattr(spec, "get_params") and not inspect.isclass(spec):
        takes = "output" in spec.get_params(deep=False)
        return clone(spec).set_params(output=output) if takes else spec
    if not isinstance(spec, dict):
        spec = {"name": spec, "params": {}}
    obj = _lookup(spec["name"], "explainer")
    params = (obj.get_params(deep=False) if hasattr(obj, "get_params")
              and not inspect.isclass(obj) else inspect.signature(obj).parameters)
    if "output" in params:
        spec = {**spec, "params": {**(spec.get("params") or {}), "output": output}}
    return spec


def _with_masker(metrics, masker):
    """Metric specs with ``masker`` bound where the metric takes one and none
    is given."""
    from sklearn_xai.metrics import get_metric_spec

    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, dict):
        metrics = {m if isinstance(m, str) else m["name"]: m for m in metrics}
    out = {}
    for label, spec in metrics.items():
        spec = {"name": spec, "params": {}} if isinstance(spec, str) else dict(spec)
        try:
            metric = get_metric_spec(spec["name"])
            # Metrics whose removal operator is a masker (not a perturber).
            needs_masker = ("masker" in metric.requires
                            and "masker" in inspect.signature(metric.func).parameters)
        except ValueError:
            needs_masker = False
        params = dict(spec.get("params") or {})
        if needs_masker and "masker" not in params and "perturber" not in params:
            params["masker"] = masker
        spec["params"] = params
        out[label] = spec
    return out
