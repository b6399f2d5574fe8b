"""One call to choose an explainer for a practitioner's own fitted model."""

import inspect
import numbers

import numpy as np
import pandas as pd
from sklearn.base import is_classifier

from sklearn_xai.benchmark._rows import compare_rows
from sklearn_xai.utils._estimators import unfreeze, unwrap
from sklearn_xai.utils._output import model_input

__all__ = ["applicable_explainers", "applicable_metrics", "compare_explainers",
           "decision_metrics"]

# Metrics that need only the model, its rows and training rows: no ground
# truth, no data distribution, no retraining, no image shape.
_NO_TRUTH_BINDINGS = {"masker", "training_rows", "random_state", "explainer"}
# Model-evaluation budget of the sampling explainers, per explained row.
_KERNEL_SHAP_BUDGET = 512
_LIME_BUDGET = 1000
_EXACT_SHAPLEY_MAX_FEATURES = 10
_BACKGROUND = 25  # background rows of the explainers' marginal masker
# Model evaluations per explained row of a masker explainer at most: the
# sampling explainers' coalitions times their background rows.  Exact
# Shapley values evaluate all 2^d coalitions, on as many background rows as
# fit (12 at 10 features), so that they cost what KernelSHAP costs.
_MASKER_EVALUATIONS = _KERNEL_SHAP_BUDGET * _BACKGROUND
# Input entries per model call (8 MiB of float64): forests and boosted
# ensembles pay about a millisecond per call and per hundred trees, which
# calls of 2**17 entries (4,000 rows of 30 features) do not amortise.
_BATCH_ENTRIES = 2**20
# The decision set: one metric per question a practitioner asks of an
# explanation (see decision_metrics), with the parameters compare uses.
_DECISION_METRICS = (
    ("comprehensiveness", {}),
    ("neg_sufficiency", {}),
    ("faithfulness_correlation", {}),
    ("neg_max_sensitivity", {"n_perturbations": 3}),
    ("neg_complexity", {}),
)
# --budget: rows of the pilot that times the explainers and metrics, and the
# fewest rows a cut leaves (below it the paired tests can decide nothing).
_PILOT_ROWS = 5
_MIN_BUDGET_ROWS = 10


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
    if _is_tree_model(model):  # piecewise constant (and no torch import)
        return False
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

    Model-agnostic explainers always apply: feature ablation, KernelSHAP
    (512 coalitions), LIME (1000 perturbations), sampling Shapley values
    (about 512 coalitions) and leave-one-covariate-in, all with a marginal
    (interventional) masker on 25 background rows, plus exact Shapley values
    up to 10 features.  The masker explainers cost at most what KernelSHAP
    costs, 512 x 25 = 12,800 model evaluations per explained row: exact
    Shapley values evaluate all ``2**n_features`` coalitions on as many
    background rows as that allows (25 up to 9 features, 12 at 10).  Every
    explainer calls the model on blocks of about 2**20 input entries
    (``batch_size``; the attributions do not depend on it), which amortises
    the cost of a call of a forest or boosted ensemble.  Gradient methods
    (saliency, input x gradient, integrated gradients, SmoothGrad) are added
    for differentiable torch models.  The random control is always first.
    Exact tree attributions
    (:class:`~sklearn_xai.explainers.TreeContributions`) are added for
    every tree model they support (xgboost, scikit-learn's trees, forests
    and gradient boosting, LightGBM, CatBoost), on the output they explain:
    the margin of boosted models and regressors, the probability of tree and
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
    # Every explainer that takes a batch size calls the model on blocks of
    # about _BATCH_ENTRIES input entries (the attributions do not depend on it).
    out = {"output": output} if output != "auto" else {}
    out["batch_size"] = max(1, _BATCH_ENTRIES // max(int(n_features), 1))
    explainers = {"random": "RandomExplainer"}
    if _is_tree_model(model):
        explainers["tree_shap"] = {"name": "TreeContributions",
                                   "params": {"output": _tree_output(model)}}
    if n_features <= _EXACT_SHAPLEY_MAX_FEATURES:
        exact_background = min(_BACKGROUND, max(1, _MASKER_EVALUATIONS >> n_features))
        explainers["exact_shapley"] = {"name": "ExactShapley", "params": {
            "masker": {"name": "MarginalMasker",
                       "params": {"background": exact_background}}, **out}}
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

    See Also
    --------
    decision_metrics : The few of them that :func:`compare_explainers`
        decides with by default, one per question.

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


def decision_metrics():
    """The metrics :func:`compare_explainers` decides with by default.

    One metric per question a practitioner asks of an explanation, chosen to
    decide rather than to be exhaustive (:func:`applicable_metrics` lists
    the whole catalogue that needs no ground truth):

    * ``comprehensiveness``: does removing the features it ranks first, in
      order of importance, change the output?  (faithfulness, necessity)
    * ``neg_sufficiency``: do those top features alone keep the output?
      (faithfulness, sufficiency)
    * ``faithfulness_correlation``: do the attributions of random feature
      subsets track the output changes when the subsets are removed?
      (faithfulness, the whole ranking and its signs)
    * ``neg_max_sensitivity`` with 3 perturbations (instead of 10): does
      the explanation stay the same under small input noise?  (robustness;
      the costliest of the five, as it re-explains 3 neighbours per row)
    * ``neg_complexity``: is the explanation concise?  (complexity)

    The rule: a question enters the set when a practitioner asks it before
    trusting an explanation and one metric answers it at the cost of about
    one explanation per row or less (the faithfulness and complexity
    metrics cost a few model calls per row; the sensitivity re-explains
    each row 3 times).  The other robustness metrics (``neg_ris``,
    ``neg_ros``, ``neg_avg_sensitivity``, ``neg_local_lipschitz_estimate``)
    ask the same question as max-sensitivity at 10 to 50 times its cost,
    and the other faithfulness metrics ask one of the three faithfulness
    questions again; ``metrics="all"`` in :func:`compare_explainers` (or
    ``--metrics all`` in ``sklearn-xai compare``) scores them all.

    Returns
    -------
    metrics : list of str or dict
        Scorer names, or ``{"name": ..., "params": ...}`` where compare sets
        a parameter, as :class:`BenchmarkSpec` takes them.

    See Also
    --------
    applicable_metrics : Every metric that needs no ground truth.
    compare_explainers : Scores the explainers of a model on these metrics.

    Examples
    --------
    >>> from sklearn_xai.benchmark import decision_metrics
    >>> names = [m if isinstance(m, str) else m["name"] for m in decision_metrics()]
    >>> names[:3]
    ['comprehensiveness', 'neg_sufficiency', 'faithfulness_correlation']
    >>> names[3:]
    ['neg_max_sensitivity', 'neg_complexity']
    """
    return [name if not params else {"name": name, "params": dict(params)}
            for name, params in _DECISION_METRICS]


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
                       metrics="auto", output="auto", n_explain=100, seeds=(0, 1),
                       n_jobs=None, backend=None, cache_dir=None, budget=None,
                       verbose=0, device=None):
    """Rank the explainers that apply to a fitted model on metrics without
    ground truth.

    A practitioner's question, "which explanation of *my* model should I
    trust?", as one call: every applicable explainer
    (:func:`applicable_explainers`) explains ``n_explain`` rows of ``X``, is
    scored on the decision set of metrics that need no true attributions
    (:func:`decision_metrics`: one metric per question, removal in order of
    importance, the top features alone, agreement with output changes,
    stability to small noise, conciseness; ``metrics="all"`` scores the
    whole catalogue of :func:`applicable_metrics`), for each seed, against
    the random control.  The returned results give the leaderboard with its
    decisions (which explainers are tied for best per metric and overall,
    with the significance test, mean ranks and costs) and write the report.

    The defaults are sized to decide in a minute or two rather than an hour:
    100 rows and 2 seeds of the five decision metrics, where the whole
    catalogue with 3 seeds took about an hour on a 30-column table (breast
    cancer) with an xgboost model on 2 cores.  Two seeds are the fewest that
    show whether a ranking depends on the explainers' random draws; the
    paired tests pool the rows of both.  ``budget`` fits a run to a time
    limit.

    The model is used as fitted (wrapped in
    :class:`~sklearn.frozen.FrozenEstimator`, never refitted); seeds vary
    only the explainers' and metrics' random draws.  Maskers of the
    metrics replace removed features by their mean over ``X_train``; the
    explainers' maskers draw from 25 background rows of ``X_train`` (12 for
    exact Shapley values at 10 features, see :func:`applicable_explainers`;
    a different choice on purpose, so no explainer is favoured by sharing
    the metric's masker).

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
    metrics : "auto", "all", list or dict, default="auto"
        ``"auto"`` is :func:`decision_metrics` (one metric per question, the
        sensitivity with 3 perturbations); ``"all"`` is every metric of
        :func:`applicable_metrics` with its default parameters (the
        representation stability ``neg_rrs`` only for models with a hidden
        layer); otherwise scorer names or specs as in :class:`BenchmarkSpec`.
    output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
        The output explained and scored, set on every explainer that takes
        it; the random control is scored on it too.  ``"auto"`` is
        ``"margin"`` when exact tree attributions are among the explainers
        (they exist only for the margin, and scores are only comparable on
        one output), else the model's default (probabilities of
        classifiers).
    n_explain : int, default=100
        Rows explained and scored.
    seeds : sequence of int, default=(0, 1)
        Seeds of the explainers' and metrics' random draws.
    n_jobs : int, default=None
        Cells in parallel (joblib's meaning).
    backend : str, default=None
        joblib backend (see :func:`run_benchmark`).
    cache_dir : str or path-like, default=None
        Per-cell cache folder (see :func:`run_benchmark`).  Cells are keyed
        by their content (the data, the fitted model, the explainer, the
        seed; each metric apart), so a rerun, or another comparison sharing
        the folder, computes only the cells and metrics it lacks.
    budget : float, default=None
        Seconds the explanations and scores may take, or ``None`` for no
        limit.  A pilot run times every explainer with its metrics on the
        first 5 rows and one seed (with the runner itself, cached like any
        cell); the comparison is then cut to fit the estimate in the
        budget, in this order: fewer seeds (down to 1), fewer rows (down to
        10), then without the costliest explainers (never the random
        control, always at least one other), the rows then growing back as
        far as the budget allows.  Model training and the report are not
        counted.  What was cut is printed when ``verbose > 0`` and added to
        the results' description (shown in the report).
    verbose : int, default=0
        Show a progress bar when > 0.
    device : {"auto", "cpu", "cuda", "cuda:N"} or None, default=None
        Where a torch model (a net of :mod:`sklearn_xai.models`, alone or in
        a pipeline) is explained and scored: a copy of it is moved there
        (``model`` itself stays where it is).  ``None``: where it is.  A GPU
        torch does not see is refused before any work starts; the device is
        not part of the cache keys and is recorded in
        ``results.spec["device"]`` (see :func:`run_benchmark`).

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
    from sklearn_xai.benchmark._runner import _run_device

    device = _run_device(device)  # fails fast, before any work
    if budget is not None:
        note = []
        results = _compare_within_budget(
            model, X, y, budget=budget, say=note.append, X_train=X_train,
            explainers=explainers, metrics=metrics, output=output,
            n_explain=n_explain, seeds=seeds, n_jobs=n_jobs, backend=backend,
            cache_dir=cache_dir, verbose=verbose, device=device)
        if verbose > 0:
            print(f"budget={budget:g}: {note[0]}")
        return results
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
    if isinstance(metrics, str) and metrics == "auto":
        metrics = decision_metrics()
    elif isinstance(metrics, str) and metrics == "all":
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
                            verbose=verbose, device=device)
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


# ------------------------------------------------------------------ budget
def _fit_budget(per_row_seconds, n_rows, n_seeds, budget, n_workers=1, *, keep=(),
                min_rows=_MIN_BUDGET_ROWS):
    """The largest comparison whose estimated time fits ``budget``.

    The estimate of a comparison is ``sum(per_row_seconds[e] for the kept
    explainers e) * rows * seeds / n_workers`` (cells and their row shards
    share the workers).  Cuts, in this order, until the estimate fits:

    1. seeds, one at a time, down to 1;
    2. rows, to the most that fit (``floor(budget * n_workers / (seeds *
       sum))``), down to ``min(n_rows, min_rows)``;
    3. the costliest explainers, one at a time (never those in ``keep``,
       always at least one other), the rows growing back after each to the
       most that fit, up to ``n_rows``.

    Parameters
    ----------
    per_row_seconds : dict
        Explainer label -> seconds per explained row and seed (explanation
        and every metric, as a pilot measured them).
    n_rows, n_seeds : int
        The comparison asked for.
    budget : float
        Seconds available.
    n_workers : int, default=1
        Workers running cells in parallel.
    keep : collection of str, default=()
        Labels never dropped (the random control).
    min_rows : int, default=10
        Fewest rows a cut leaves.

    Returns
    -------
    plan : dict
        ``n_rows``, ``n_seeds``, ``dropped`` (labels, in the order dropped)
        and ``estimate`` (seconds, of the plan; above ``budget`` when even
        the smallest comparison does not fit).
    """
    labels = list(per_row_seconds)
    n_workers = max(int(n_workers), 1)

    def estimate(rows, seeds):
        return sum(per_row_seconds[label] for label in labels) * rows * seeds / n_workers

    seeds = n_seeds
    while seeds > 1 and estimate(n_rows, seeds) > budget:
        seeds -= 1

    def most_rows():
        rate = estimate(1, seeds)
        if rate <= 0 or estimate(n_rows, seeds) <= budget:
            return n_rows
        return max(min(n_rows, min_rows), min(n_rows, int(max(budget, 0) // rate)))

    rows = most_rows()
    dropped = []
    while estimate(rows, seeds) > budget:
        candidates = [label for label in labels if label not in keep]
        if len(candidates) <= 1:
            break
        costliest = max(candidates, key=lambda label: per_row_seconds[label])
        labels.remove(costliest)
        dropped.append(costliest)
        rows = most_rows()
    return {"n_rows": rows, "n_seeds": seeds, "dropped": dropped,
            "estimate": estimate(rows, seeds)}


def _pilot_costs(table):
    """Explainer label -> seconds per explained row and seed in a pilot's
    results table: the explainer's fit and explanation plus every metric,
    averaged over the pilot's cells (failed parts count as free)."""
    table = table.assign(_rows=pd.to_numeric(table["n_rows"], errors="coerce"))
    costs = {}
    for label, sub in table.groupby("explainer", sort=False):
        per_cell = []
        for _, cell in sub.groupby("seed", sort=False):
            first = cell.iloc[0]
            seconds = np.nansum([first.get("explainer_fit_time", np.nan),
                                 first.get("explain_time", np.nan)])
            seconds += np.nansum(pd.to_numeric(cell["metric_time"], errors="coerce"))
            rows = cell["_rows"].max()
            per_cell.append(seconds / rows if rows and np.isfinite(rows) else seconds)
        costs[str(label)] = float(np.mean(per_cell))
    return costs


def _budget_note(plan, n_rows, n_seeds, n_workers, pilot_rows, budget):
    """What a budget cut, in words ("1 seed instead of 2, 60 rows instead of
    100"), with the estimate."""
    cuts = []
    if plan["n_seeds"] < n_seeds:
        cuts.append(f"{plan['n_seeds']} seed{'s' * (plan['n_seeds'] > 1)} instead of "
                    f"{n_seeds}")
    if plan["n_rows"] < n_rows:
        cuts.append(f"{plan['n_rows']} rows instead of {n_rows}")
    if plan["dropped"]:
        cuts.append(f"without {', '.join(plan['dropped'])}")
    text = ", ".join(cuts) if cuts else "nothing cut"
    text += (f" (estimated {plan['estimate']:.0f} s on {n_workers} "
             f"worker{'s' * (n_workers > 1)}, from a pilot on {pilot_rows} "
             f"row{'s' * (pilot_rows > 1)} and 1 seed)")
    if plan["estimate"] > budget:
        text += ("; the smallest comparison is still over the budget: name fewer or "
                 "cheaper explainers or metrics")
    return text


def _compare_within_budget(model, X, y, *, budget, say, X_train, explainers, metrics,
                           output, n_explain, seeds, n_jobs, backend, cache_dir,
                           verbose, device=None):
    """:func:`compare_explainers` cut to fit ``budget`` seconds (see its
    ``budget``); ``say`` receives the note of what was cut before the
    comparison runs."""
    import joblib

    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) \
            or not np.isfinite(budget) or budget <= 0:
        raise ValueError(f"budget must be a positive number of seconds, got {budget!r}.")
    seeds = list(seeds)
    if isinstance(n_explain, bool) or not isinstance(n_explain, numbers.Integral) \
            or n_explain < 1 or not seeds or (X_train is None and len(X) <= n_explain):
        # The unbudgeted call raises the error.
        return compare_explainers(model, X, y, X_train=X_train, explainers=explainers,
                                  metrics=metrics, output=output, n_explain=n_explain,
                                  seeds=seeds, n_jobs=n_jobs, backend=backend,
                                  cache_dir=cache_dir, verbose=verbose, device=device)
    n_explain = min(int(n_explain), len(X))
    if X_train is None and len(X) > n_explain:
        # The split compare_explainers makes, made once for the pilot and the run.
        X_train, X = X[n_explain:], X[:n_explain]
        y = None if y is None else np.asarray(y)[:n_explain]
    if isinstance(explainers, str) and explainers == "auto":
        explainers = applicable_explainers(model, np.shape(X)[1])
    if isinstance(explainers, dict):
        if "RandomExplainer" not in {_explainer_name(s) for s in explainers.values()}:
            explainers = {"random": "RandomExplainer", **explainers}
    common = dict(X_train=X_train, metrics=metrics, output=output, n_jobs=n_jobs,
                  backend=backend, cache_dir=cache_dir, device=device)
    pilot_rows = min(_PILOT_ROWS, n_explain)
    pilot = compare_explainers(model, X, y, explainers=explainers, n_explain=pilot_rows,
                               seeds=seeds[:1], verbose=0, **common)
    costs = _pilot_costs(pilot.table)
    n_workers = joblib.effective_n_jobs(n_jobs)
    # The pilot's own cost, from its recorded times (the same when a rerun
    # reads it from the cache, so a rerun makes the same cuts).
    spent = sum(costs.values()) * pilot_rows / n_workers
    control = {label for label, spec in explainers.items()
               if _explainer_name(spec) == "RandomExplainer"}
    plan = _fit_budget(costs, n_explain, len(seeds), budget - spent, n_workers,
                       keep=control)
    note = _budget_note(plan, n_explain, len(seeds), n_workers, pilot_rows,
                        budget - spent)
    say(note)
    kept = {label: spec for label, spec in explainers.items()
            if label not in plan["dropped"]}
    results = compare_explainers(model, X, y, explainers=kept, n_explain=plan["n_rows"],
                                 seeds=seeds[:plan["n_seeds"]], verbose=verbose, **common)
    if isinstance(results.spec, dict):
        results.spec["description"] = (
            f"{results.spec.get('description') or ''} Within a budget of {budget:g} s: "
            f"{note}.").strip()
    return results


# ------------------------------------------------------------ CLI choices
def _select_explainers(available, names, option="explainers"):
    """The explainers of ``available`` (label -> spec, as
    :func:`applicable_explainers` gives them) that ``names`` name, the random
    control first and always kept; ``None`` keeps them all.

    A name is a label of ``available``, the class name of one of its specs
    (that spec, with its budget and masker), or any other explainer name
    (sklearn_xai's or registered with :func:`register_component`), used
    with its default parameters.  Unknown names raise a ValueError listing
    the valid ones.
    """
    if names is None:
        return dict(available)
    from sklearn_xai.benchmark._spec import _REGISTERED, _package_names

    by_class = {}
    for label, spec in available.items():
        by_class.setdefault(_explainer_name(spec), label)
    registered = set(_package_names("explainer")) | set(_REGISTERED["explainer"])
    chosen = {label: spec for label, spec in available.items()
              if _explainer_name(spec) == "RandomExplainer"}
    unknown = []
    for name in names:
        if name in available:
            chosen[name] = available[name]
        elif name in by_class:
            chosen[by_class[name]] = available[by_class[name]]
        elif name in registered:
            chosen[name] = name
        else:
            unknown.append(name)
    if unknown:
        raise ValueError(
            f"{option}: unknown explainer(s) {unknown}; the explainers that apply to "
            f"this model are {list(available)}, or name any explainer of 'sklearn-xai "
            "list explainers'."
        )
    if "RandomExplainer" not in {_explainer_name(s) for s in chosen.values()}:
        chosen = {"random": "RandomExplainer", **chosen}
    return chosen


def _select_metrics(names, option="metrics"):
    """The metric specs ``names`` name for a comparison: ``None`` or
    ``["auto"]`` is ``"auto"`` (:func:`decision_metrics`), ``["all"]`` is
    ``"all"``; otherwise names of :func:`applicable_metrics` (a loss may be
    named without ``neg_``), those of the decision set with its parameters.
    Unknown names raise a ValueError listing the valid ones."""
    if names is None or list(names) == ["auto"]:
        return "auto"
    if list(names) == ["all"]:
        return "all"
    catalogue = applicable_metrics()
    decision = {(m if isinstance(m, str) else m["name"]): m for m in decision_metrics()}
    chosen, unknown = [], []
    for name in names:
        full = name if name in catalogue else f"neg_{name}"
        if full not in catalogue:
            unknown.append(name)
        elif full not in [m if isinstance(m, str) else m["name"] for m in chosen]:
            chosen.append(decision.get(full, full))
    if unknown:
        raise ValueError(
            f"{option}: unknown metric(s) {unknown}; a comparison scores metrics "
            f"without ground truth: {catalogue}, or 'all' (default: the decision set "
            f"{list(decision)})."
        )
    return chosen
