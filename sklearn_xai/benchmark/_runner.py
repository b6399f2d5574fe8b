"""The benchmark runner: every cell of the grid, cached, resumable, parallel.

A cell is one (dataset, model, explainer, seed).  It draws the data, splits
it, fits the model, fits the explainer on the training rows, explains the
first ``n_explain`` held-out rows (timed, counting model evaluations) and
scores every metric on them (timed).  A cell is a pure function of its spec:
its result is stored in one file named by a hash of the spec, so an
interrupted run resumes where it stopped and a rerun computes nothing.  The
attributions are stored with the scores, so adding a metric to a benchmark
re-scores cached explanations instead of recomputing them.  The exact
Shapley references of ``shapley_corr`` / ``neg_shapley_mse`` are computed
once per (dataset, model, seed) before the cells and shared by their
explainers.

Cells run through :class:`joblib.Parallel`, whose backend (loky processes,
threads, or a Dask cluster) the caller chooses.
"""

import contextlib
import inspect
import os
import sys
import threading
import time
import traceback
import warnings

import joblib
import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import train_test_split
from sklearn.utils.multiclass import type_of_target

from sklearn_xai.benchmark._cache import read_cell, write_cell
from sklearn_xai.metrics import ROW_METADATA, get_metric_spec
from sklearn_xai.benchmark._spec import (
    BenchmarkSpec,
    _accepts,
    _lookup,
    bind_registered,
    _resolve_value,
    load_config,
    resolve_component,
)

__all__ = ["BenchmarkInterrupted", "run_benchmark"]


class BenchmarkInterrupted(KeyboardInterrupt):
    """Raised by :func:`run_benchmark` when it is interrupted (Ctrl-C).

    Every cell finished before the interrupt is in the cache (when there is
    one), so running the same benchmark with the same ``cache_dir`` again
    resumes where it stopped.

    Attributes
    ----------
    n_done : int
        Cells finished before the interrupt.
    n_total : int
        Cells of the benchmark.
    cache_dir : str or None
        Where the finished cells are cached (None: they are lost).
    """

    def __init__(self, n_done, n_total, cache_dir):
        self.n_done, self.n_total, self.cache_dir = n_done, n_total, cache_dir
        resume = ("rerun the same command to resume" if cache_dir is not None
                  else "nothing was cached, so a rerun starts over")
        super().__init__(f"interrupted after {n_done} of {n_total} cells; {resume}.")

# Bump when the content of a cached cell changes meaning.  Version 2: cells
# are .npz files read without pickle (version 1 cells, .pkl, are ignored).
CACHE_VERSION = 2
_BACKENDS = ("loky", "threading", "sequential", "dask")


# --------------------------------------------------------------------- data
_MAX_FLOAT_CLASSES = 10


def _task_of(y):
    """"regression" or "classification" from the target.

    Float targets are regression unless they take at most
    ``_MAX_FLOAT_CLASSES`` integer values (labels stored as floats); a
    dataset spec's ``task`` key overrides this guess.
    """
    y = np.asarray(y)
    if y.dtype.kind == "f":
        if type_of_target(y).startswith("continuous"):
            return "regression"
        return "classification" if np.unique(y).size <= _MAX_FLOAT_CLASSES else "regression"
    return "classification"


def _as_matrix(X, dataset):
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    try:
        return np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"Dataset {dataset!r} has non-numeric features; encode them first (for "
            "example with sklearn_xai.datasets.beexai_preprocessor) or use a "
            "loader that returns numeric X."
        ) from None


def _load_dataset(dataset_spec, seed):
    """The dataset's Bunch, drawn with ``random_state=seed`` when it takes one."""
    func = _lookup(dataset_spec["name"], "dataset")
    params = dict(dataset_spec["params"])
    if "random_state" not in params and _accepts(func, "random_state"):
        params["random_state"] = seed
    bunch = func(**params)
    if isinstance(bunch, tuple):
        bunch = {"X": bunch[0], "y": bunch[1]}
    bunch = dict(bunch)
    X = bunch.get("X", bunch.get("data"))
    y = bunch.get("y", bunch.get("target"))
    if X is None or y is None:
        raise ValueError(
            f"Dataset {dataset_spec['name']!r} returned no X/y (or data/target)."
        )
    bunch["X"] = _as_matrix(X, dataset_spec["name"])
    bunch["y"] = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    return bunch


def _split(bunch, task, test_size, n_explain, seed):
    """Training and explained row indices."""
    if bunch.get("train_indices") is not None and bunch.get("test_indices") is not None:
        train, test = np.asarray(bunch["train_indices"]), np.asarray(bunch["test_indices"])
    else:
        y = bunch["y"]
        stratify = y if task == "classification" else None
        train, test = train_test_split(np.arange(len(y)), test_size=test_size,
                                       random_state=seed, stratify=stratify)
    return train, test, test[:n_explain] if n_explain is not None else test


def _prepare(dataset_spec, model_spec, seed):
    """Data, split and fitted model of a cell (shared by its explainers)."""
    test_size, n_explain = dataset_spec["test_size"], dataset_spec["n_explain"]
    bunch = _load_dataset(dataset_spec, seed)
    X, y = bunch["X"], bunch["y"]
    task = dataset_spec.get("task") or _task_of(y)
    train, test, explained = _split(bunch, task, test_size, n_explain, seed)
    model = resolve_component(model_spec, "model", seed=seed, task=task, context=bunch)
    start = time.perf_counter()
    model.fit(X[train], y[train])
    fit_time = time.perf_counter() - start
    score = float(model.score(X[test], y[test]))
    # Per-row arrays of the Bunch (ground truths, masks, sensitive groups),
    # restricted to the explained rows.
    rows = {key: np.asarray(value)[explained] for key, value in bunch.items()
            if key not in ("X", "y") and isinstance(value, np.ndarray)
            and value.ndim >= 1 and len(value) == len(y)}
    meta = {key: rows.get(key) for key in ROW_METADATA}
    context = {k: v for k, v in bunch.items() if k not in ("X", "y", "DESCR")}
    return {
        "X_train": X[train], "y_train": y[train], "X_explain": X[explained],
        "metadata": meta, "rows": rows, "context": context, "model": model,
        "model_score": score, "model_fit_time": fit_time, "task": task,
    }


# ----------------------------------------------------------------- metrics
def _requirements(name):
    """What the registry says metric ``name`` requires (empty for a name
    that is not a registered metric: the cell reports that error)."""
    try:
        return get_metric_spec(name).requires
    except ValueError:
        return ()


def _model_reference(prepared):
    """OpenXAI's linear-model reference of the explained rows
    (:func:`~sklearn_xai.metrics.linear_model_reference`); for the
    two-class :class:`~sklearn_xai.models.LogisticNetClassifier` the same
    ``±(W_1 - W_0)`` from its linear layer."""
    from sklearn_xai.metrics import linear_model_reference

    model, X = prepared["model"], prepared["X_explain"]
    if hasattr(model, "coef_"):
        return linear_model_reference(model, X)
    layer = getattr(getattr(model, "module_", None), "linear", None)
    weight = None if layer is None else layer.weight.detach().cpu().numpy()
    if weight is None or weight.shape != (2, X.shape[1]):
        raise TypeError(
            f"{type(model).__name__} has no linear coefficients: '@linear_model_reference' "
            "needs a linear model (LinearRegression, LogisticRegression, "
            "LogisticNetClassifier with two classes)."
        )
    w = np.asarray(weight[1] - weight[0], dtype=np.float64)
    sign = np.where(model.predict(X) == model.classes_[1], 1.0, -1.0)
    return sign[:, None] * w


# Row references a metric's ``ground_truth`` can name besides the Bunch's
# per-row arrays: computed from the fitted model.
_DERIVED_REFERENCES = {"linear_model_reference": _model_reference}


def _metadata_overrides(params, registry_spec, prepared):
    """Metadata (``ground_truth``, ``sensitive``) a metric's params redirect:
    ``"@key"`` names a per-row array of the dataset's Bunch (restricted to
    the explained rows, e.g. ``"@ground_truth_mask"``) or a reference derived
    from the model (``"@linear_model_reference"``).  Returns the overrides
    and the reason to skip the metric (a model the reference does not
    apply to), or None."""
    overrides = {}
    for key in registry_spec.metadata:
        if key not in params:
            continue
        value = params[key]
        if not (isinstance(value, str) and value.startswith("@")):
            raise ValueError(
                f"The metric's {key} must name a per-row array of the dataset as "
                f"'@key' (e.g. '@ground_truth_mask'); got {type(value).__name__}."
            )
        name = value[1:]
        if name in _DERIVED_REFERENCES:
            try:
                overrides[key] = _DERIVED_REFERENCES[name](prepared)
            except TypeError as exc:
                return None, str(exc)
        elif prepared["rows"].get(name) is not None:
            overrides[key] = prepared["rows"][name]
        else:
            raise ValueError(
                f"{key}={value!r}: the dataset has no per-row array {name!r} (available: "
                f"{sorted(prepared['rows']) + sorted(_DERIVED_REFERENCES)})."
            )
    return overrides, None


def _add_image_shape(params, obj, context):
    """Give the dataset's ``image_shape`` to an explainer that takes one
    (metrics declare it in their registry entry, see :func:`_metric_kwargs`)."""
    if context.get("image_shape") is not None and "image_shape" not in params \
            and _accepts(obj, "image_shape"):
        params["image_shape"] = tuple(context["image_shape"])
    return params


def _metric_kwargs(metric_spec, registry_spec, prepared, explainer, seed,
                   train_attributions=None, reference=None):
    """Keyword arguments of a metric's scorer, or (None, reason) to skip it.

    The parameters of the benchmark spec, then whatever the registry entry
    requires that they do not give: from the dataset (distribution, image
    shape; metadata is routed, only checked here), the training split, the
    cell (explainer, training attributions, shared Shapley ``reference``)
    and its ``seed``.
    """
    from sklearn_xai.masking import BaseMasker, BasePerturber, check_masker, check_perturber

    params = {k: _resolve_value(v, "masker", seed, prepared["context"])
              for k, v in metric_spec["params"].items()
              if k not in registry_spec.metadata}
    # Maskers and perturbers learn their statistics from the training rows,
    # never from the scored rows (a row's score must not depend on its batch).
    for key, value in params.items():
        if isinstance(value, BaseMasker):
            params[key] = check_masker(value, prepared["X_train"])
        elif isinstance(value, BasePerturber):
            params[key] = check_perturber(value, prepared["X_train"])
    context = prepared["context"]
    for need in registry_spec.requires:
        if need in ROW_METADATA:  # routed to the scorer, not bound
            if prepared["metadata"][need] is None and need not in metric_spec["params"]:
                return None, f"the dataset provides no {need}"
        elif need == "distribution":
            if "distribution" not in params and "masker" not in params:
                if context.get("distribution") is None:
                    return None, ("the dataset provides no distribution (give the "
                                  "metric a masker in its params)")
                params["distribution"] = context["distribution"]
        elif need in ("training_rows", "training_data"):
            params.setdefault("X_train", prepared["X_train"])
            if need == "training_data":  # retrains on explained training rows
                params.setdefault("y_train", prepared["y_train"])
                params.setdefault("attributions_train", train_attributions)
        elif need == "explainer":
            params.setdefault("explainer", explainer)
        elif need == "image_shape":
            if context.get("image_shape") is not None:
                params.setdefault("image_shape", tuple(context["image_shape"]))
        elif need == "random_state":
            params.setdefault("random_state", seed)
        elif need == "classifier":
            if getattr(prepared["model"], "classes_", None) is None:
                return None, "the metric compares classes and the model is a regressor"
        elif need == "reference":
            if reference is not None:
                params["reference"] = reference
        # "masker": given in the params (fitted above) or the metric's default.
    return params, None


def _summarise(scores, nan_policy, name):
    """Value, per-row SE, number of rows and of undefined rows."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim == 0:
        return {"value": float(scores), "se": float("nan"), "n_rows": 1,
                "n_nan": int(np.isnan(scores)), "scores": None}
    nan = np.isnan(scores)
    if nan.any() and nan_policy == "raise":
        raise ValueError(
            f"{name} is undefined (NaN) for {int(nan.sum())} of {scores.size} rows; "
            "set the metric's nan_policy to 'omit' or 'zero'."
        )
    if nan_policy == "zero":
        scores = np.where(nan, 0.0, scores)
    used = scores[~np.isnan(scores)]
    if used.size == 0:
        value = se = float("nan")
    else:
        value = float(used.mean())
        se = float(used.std() / np.sqrt(used.size))
    return {"value": value, "se": se, "n_rows": int(scores.size), "n_nan": int(nan.sum()),
            "scores": scores}


def _score_metric(metric_spec, prepared, explainer, explanation, seed, reference=None):
    """One metric of one cell: status, value, per-row scores, time.

    ``reference`` is the metric's precomputed exact Shapley reference (shared
    by every explainer of the cell's dataset, model and seed), or None."""
    from sklearn_xai.metrics import ExplanationScorer, get_scorer

    name = metric_spec["name"]
    result = {"status": "ok", "error": "", "time": float("nan"), "value": float("nan"),
              "se": float("nan"), "n_rows": 0, "n_nan": 0, "scores": None,
              "greater_is_better": None}
    try:
        registry_spec = get_metric_spec(name)
        result["greater_is_better"] = bool(registry_spec.greater_is_better)
        kwargs, reason = _metric_kwargs(metric_spec, registry_spec, prepared, explainer, seed,
                                        explanation.get("attributions_train"), reference)
        if reason is not None:
            result.update(status="skipped", error=reason)
            return result
        scorer = get_scorer(name, **kwargs)
        if not isinstance(scorer, ExplanationScorer):
            raise TypeError(f"{name!r} gives no per-row scores; the runner needs an "
                            "explanation metric from sklearn_xai.metrics.")
        X = prepared["X_explain"]
        metadata = {k: v for k, v in prepared["metadata"].items()
                    if k in registry_spec.metadata}
        overrides, reason = _metadata_overrides(metric_spec["params"], registry_spec,
                                                prepared)
        if reason is not None:
            result.update(status="skipped", error=reason)
            return result
        metadata.update(overrides)
        start = time.perf_counter()
        model = getattr(explainer, "explained_estimator_", prepared["model"])
        scores = scorer.score_attributions(model, X, explanation["attributions"],
                                           explainer=explainer, **metadata)
        result["time"] = time.perf_counter() - start
        result.update(_summarise(scores, metric_spec.get("nan_policy", "omit"), name))
    except Exception as exc:  # recorded, never fatal
        result.update(status="error", error=_format_error(exc))
    return result


def _format_error(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno})" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


# -------------------------------------------------------------------- cells
def _cell_key(task):
    from sklearn_xai import __version__

    return joblib.hash({"version": CACHE_VERSION, "package": __version__,
                        "dataset": task["dataset"],
                        "model": task["model"], "explainer": task["explainer"],
                        "seed": task["seed"]})


def _metric_key(metric_spec):
    return joblib.hash(metric_spec)


def _read_cache(path):
    return read_cell(path)


def _write_cache(path, content):
    write_cell(path, content)


def _explain(task, prepared):
    """Fit the explainer on the training rows and explain the held-out rows."""
    spec = task["explainer"]
    if isinstance(spec, dict) and (isinstance(spec["name"], str)
                                   or inspect.isclass(spec["name"])):
        obj = _lookup(spec["name"], "explainer")
        spec = {**spec, "params": _add_image_shape(dict(spec["params"]), obj,
                                                   prepared["context"])}
    explainer = resolve_component(spec, "explainer", seed=task["seed"],
                                  context=prepared["context"])
    if "estimator" in explainer.get_params(deep=False):
        explainer.set_params(estimator=FrozenEstimator(prepared["model"]))
    start = time.perf_counter()
    explainer.fit(prepared["X_train"], prepared["y_train"])
    fit_time = time.perf_counter() - start
    return explainer, fit_time


@contextlib.contextmanager
def _recorded_warnings(sink):
    """Collect the warnings a cell raises ("Category: message (xN)") into
    ``sink``.  ``warnings.catch_warnings`` is process-global, so warnings are
    only recorded in a main thread (sequential, loky and Dask process
    workers); under the threading backend they are shown as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with warnings.catch_warnings(record=True) as caught:
        yield
    counts = {}
    for w in caught:
        text = f"{w.category.__name__}: {w.message}"
        counts[text] = counts.get(text, 0) + 1
    sink.extend(text if n == 1 else f"{text} (x{n})" for text, n in counts.items())


def _watch_parent(main_pid):
    """In a worker process started by the run's main process, a daemon
    thread that ends the worker as soon as the main process is gone (killed
    with SIGKILL, say), so that workers never outlive their run."""
    global _WATCHING
    if _WATCHING or os.getpid() == main_pid or os.getppid() != main_pid:
        return
    _WATCHING = True

    def watch():
        while os.getppid() == main_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="sklearn_xai-parent-watch", daemon=True).start()


_WATCHING = False


def _run_cell(task, cache_dir, fit=None, main_pid=None):
    """Compute (or load) one cell.  Never raises: errors are recorded.

    ``fit``: the cell's data, fitted model and exact Shapley references
    (:func:`_fit`), None when the cell is cached.  ``main_pid``: the run's
    main process (a worker process exits when it dies)."""
    if main_pid is not None:
        _watch_parent(main_pid)
    caught = []
    with _recorded_warnings(caught):
        out, to_cache = _compute_cell(task, cache_dir, fit)
    if out["computed"]:
        out["warnings"] = list(dict.fromkeys(out["warnings"] + caught))
    if to_cache is not None:
        if _WATCHING and os.getppid() != main_pid:
            os._exit(1)  # the run is gone: write nothing more into its folder
        path, content = to_cache
        _write_cache(path, {**content, "warnings": out["warnings"]})
    return out


def _indexed(index, *args):
    return index, _run_cell(*args)


def _cell_path(task, cache_dir):
    return None if cache_dir is None else os.path.join(cache_dir, "cells",
                                                      task["key"] + ".npz")


def _missing_metrics(task, cached):
    """Labels -> specs of the task's metrics the cached cell lacks, and the
    cache keys of all its metrics."""
    results = cached.get("metrics", {})
    keys = task["metric_keys"]
    missing = {label: spec for label, spec in task["metrics"].items()
               if keys[label] not in results}
    return missing, keys


def _compute_cell(task, cache_dir, fit):
    """The cell's output, and (path, content) to cache or None."""
    path = _cell_path(task, cache_dir)
    cached = _read_cache(path) or {}
    results = dict(cached.get("metrics", {}))
    missing, keys = _missing_metrics(task, cached)
    out = {"task": task, "computed": False, "status": "ok", "error": "",
           "warnings": list(cached.get("warnings", []))}
    if not missing and "explanation" in cached:
        out.update(explanation=cached["explanation"],
                   metrics={label: results[keys[label]] for label in task["metrics"]})
        return out, None
    out["computed"] = True
    if fit is None:  # the cache changed since the run started
        fit = _fit(task["dataset"], task["model"], task["seed"], {})
    out["warnings"] = list(dict.fromkeys(out["warnings"] + fit["warnings"]))
    if fit["error"]:
        out.update(status="error", error=fit["error"], explanation=None, metrics={},
                   failed_in="model")
        return out, None
    prepared, references = fit["prepared"], fit["references"]
    stage = "explainer"
    try:
        explainer, fit_time = _explain(task, prepared)
        explanation = cached.get("explanation")
        if explanation is None:
            start = time.perf_counter()
            A, n_eval = explainer.explain(prepared["X_explain"], return_n_evaluations=True)
            explanation = {
                "attributions": np.asarray(A, dtype=np.float64),
                "explain_time": time.perf_counter() - start,
                "n_evaluations": int(n_eval), "explainer_fit_time": fit_time,
                "model_score": prepared["model_score"],
                "model_fit_time": prepared["model_fit_time"],
                "explainer_class": type(explainer).__name__,
            }
        if "attributions_train" not in explanation and any(
                "training_data" in _requirements(spec["name"])
                for spec in missing.values()):
            # ROAR metrics retrain on explained training rows: explain them once.
            start = time.perf_counter()
            explanation["attributions_train"] = np.asarray(
                explainer.explain(prepared["X_train"]), dtype=np.float64)
            explanation["explain_train_time"] = time.perf_counter() - start
        for label, spec in missing.items():
            reference = references.get(task["reference_keys"].get(label))
            results[keys[label]] = _score_metric(spec, prepared, explainer, explanation,
                                                 task["seed"], reference)
    except Exception as exc:
        out.update(status="error", error=_format_error(exc), explanation=None,
                   metrics={}, failed_in=stage)
        return out, None
    out.update(explanation=explanation,
               metrics={label: results[keys[label]] for label in task["metrics"]})
    if path is None:
        return out, None
    # Metric errors are not cached, so a rerun retries them.
    keep = {k: v for k, v in results.items() if v["status"] != "error"}
    return out, (path, {"explanation": explanation, "metrics": keep})


# ------------------------------------------------------- shared references
def _uses_reference(metric_spec):
    """Whether a metric compares with exact Shapley values it would compute
    itself (``shapley_corr``, ``neg_shapley_mse``): those take a precomputed
    ``reference``, which the runner computes once per dataset, model, seed."""
    return ("reference" not in metric_spec["params"]
            and "reference" in _requirements(metric_spec["name"]))


def _reference_params(params):
    """The parameters of a metric that define its reference."""
    from sklearn_xai.metrics import exact_shapley_reference

    keep = set(inspect.signature(exact_shapley_reference).parameters) - {"estimator", "X"}
    return {k: v for k, v in params.items() if k in keep}


def _reference_key(metric_spec):
    return joblib.hash(_reference_params(metric_spec["params"]))


def _fit(dataset, model, seed, reference_specs, main_pid=None):
    """Data, split and fitted model of one (dataset, model, seed), and the
    exact Shapley references its cells need, computed once for all the
    explainers of that fit.  Never raises.

    Returns a dict: ``prepared`` (:func:`_prepare`, or None), ``error`` (the
    failure of drawing the data or fitting the model, or ""), ``warnings``
    (those the fit raised) and ``references`` (reference key -> values; a
    reference that fails is left out, and its metrics then compute and
    report it).  The result travels to the cells as an argument, so nothing
    is ever stored on disk and read back with pickle."""
    if main_pid is not None:
        _watch_parent(main_pid)
    out = {"prepared": None, "error": "", "warnings": [], "references": {}}
    with _recorded_warnings(out["warnings"]):
        try:
            out["prepared"] = _prepare(dataset, model, seed)
        except Exception as exc:  # recorded by every cell of this fit
            out["error"] = _format_error(exc)
    if out["prepared"] is not None:
        out["references"] = _references(out["prepared"], seed, reference_specs)
    return out


def _references(prepared, seed, metric_specs):
    """Exact Shapley references of a fit: reference key -> (n_explain, d)."""
    from sklearn_xai.metrics import exact_shapley_reference

    out = {}
    for key, metric_spec in metric_specs.items():
        registry_spec = get_metric_spec(metric_spec["name"])
        kwargs, reason = _metric_kwargs(metric_spec, registry_spec, prepared, None, seed)
        if reason is not None:
            continue
        try:
            out[key] = exact_shapley_reference(prepared["model"], prepared["X_explain"],
                                               **_reference_params(kwargs))
        except Exception:  # noqa: BLE001 - the metric computes and reports it
            continue
    return out


def _fit_groups(tasks, cache_dir):
    """Fit key -> (dataset, model, seed, {reference key: metric spec}) of
    every fit a cell still to compute needs, and the indices of the cells
    fully in the cache (which need none)."""
    groups, complete = {}, []
    for i, task in enumerate(tasks):
        cached = _read_cache(_cell_path(task, cache_dir)) or {}
        missing, _ = _missing_metrics(task, cached)
        if not missing and "explanation" in cached:
            complete.append(i)
            continue
        group = groups.setdefault(task["fit_key"],
                                  (task["dataset"], task["model"], task["seed"], {}))
        group[3].update({task["reference_keys"][label]: s for label, s in missing.items()
                         if label in task["reference_keys"]})
    return groups, complete


def _tasks(spec):
    tasks = []
    for d, m, e, s in spec.cells():
        test_size, n_explain = spec.dataset_split(d)
        dataset = {**spec.datasets[d], "test_size": test_size, "n_explain": n_explain}
        tasks.append({
            "labels": {"dataset": d, "model": m, "explainer": e, "seed": s},
            "dataset": bind_registered(dataset, "dataset"),
            "model": bind_registered(spec.models[m], "model"),
            "explainer": bind_registered(spec.explainers[e], "explainer"),
            "metrics": {label: {**metric, "params": bind_registered(metric["params"], "masker",
                                                                top=False)}
                        for label, metric in spec.metrics.items()},
            "seed": s,
        })
        task = tasks[-1]
        # Keys are computed here, in the main process: a worker may not be
        # able to hash objects defined in the main script.
        task["key"] = _cell_key(task)
        task["fit_key"] = joblib.hash((task["dataset"], task["model"], s))
        task["metric_keys"] = {label: _metric_key(m) for label, m in task["metrics"].items()}
        task["reference_keys"] = {label: _reference_key(m)
                                  for label, m in task["metrics"].items()
                                  if _uses_reference(m)}
    return tasks


# ----------------------------------------------------------------- backends
@contextlib.contextmanager
def _backend(backend, n_jobs):
    """joblib parallel configuration for ``backend`` (a Dask client is
    started on this machine if none is running)."""
    if backend is None:
        yield
        return
    if backend not in _BACKENDS:
        raise ValueError(f"backend must be one of {_BACKENDS} or None, got {backend!r}.")
    if backend != "dask":
        with joblib.parallel_config(backend=backend):
            yield
        return
    try:
        import distributed
    except ImportError:
        raise ImportError(
            "backend='dask' needs dask.distributed, which is not installed: "
            "pip install 'sklearn-xai[dask]' (or 'dask[distributed]'), or use "
            "backend='loky' or 'threading'."
        ) from None
    with contextlib.ExitStack() as stack:
        try:
            distributed.get_client()
        except ValueError:  # no running client: a local cluster for this run only
            workers = None if n_jobs is None or n_jobs < 0 else n_jobs
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, host="127.0.0.1",
                dashboard_address=None))
            stack.enter_context(distributed.Client(cluster))
        with joblib.parallel_config(backend="dask"):
            yield


def _as_spec(benchmark):
    if isinstance(benchmark, BenchmarkSpec):
        return benchmark
    if isinstance(benchmark, dict):
        return BenchmarkSpec.from_dict(benchmark)
    if isinstance(benchmark, (str, os.PathLike)):
        from sklearn_xai.benchmark.presets import PRESETS, get_preset, is_preset

        if is_preset(benchmark):
            return get_preset(str(benchmark))
        if os.path.exists(benchmark):
            return load_config(benchmark)
        raise ValueError(
            f"{benchmark!r} is neither a preset ({sorted(PRESETS)}) nor an existing "
            "config file."
        )
    raise TypeError(
        "benchmark must be a BenchmarkSpec, a config dict, a preset name or a config "
        f"file path; got {type(benchmark).__name__}."
    )


def run_benchmark(benchmark, *, n_jobs=None, backend=None, cache_dir=None, verbose=0):
    """Run every cell of a benchmark and collect the results.

    Parameters
    ----------
    benchmark : BenchmarkSpec, dict, str or path-like
        The spec, a config dict (see :meth:`BenchmarkSpec.from_dict`), a preset
        name (:func:`list_presets`) or a YAML/JSON config file.
    n_jobs : int, default=None
        Cells run in parallel (joblib's meaning: ``None`` is 1 unless a
        ``joblib.parallel_config`` says otherwise, ``-1`` all cores).
    backend : {"loky", "threading", "sequential", "dask"}, default=None
        joblib backend; ``None`` uses the active ``joblib.parallel_config``
        (loky by default).  ``"dask"`` needs ``dask.distributed`` and uses the
        running client, or starts a loopback cluster of ``n_jobs`` worker
        processes for this run and shuts it down afterwards.
    cache_dir : str or path-like, default=None
        Folder of the per-cell cache: ``.npz`` files of numbers and JSON,
        never read with pickle.  With a cache, an interrupted run resumes and a
        rerun recomputes nothing; failed cells are retried.  Cells are keyed
        by their spec and the package version, not by the code: after
        editing an explainer or metric, clear the folder (or pass ``None``).
        ``None`` computes everything.
    verbose : int, default=0
        Show a progress bar (tqdm) when > 0.

    Returns
    -------
    results : BenchmarkResults
        The tidy results table (:attr:`BenchmarkResults.table`), per-row
        scores, and the leaderboard / report methods.

    Examples
    --------
    >>> from sklearn_xai.benchmark import run_benchmark
    >>> results = run_benchmark({
    ...     "dataset": {"name": "make_linear_attribution", "params": {"n_samples": 200}},
    ...     "models": ["linear_regression"],
    ...     "explainers": ["RandomExplainer", "FeatureAblation"],
    ...     "metrics": ["feature_agreement"], "seeds": [0, 1], "n_explain": 20})
    >>> results.table[["explainer", "metric", "seed", "status"]].shape
    (4, 4)
    """
    spec = _as_spec(benchmark)
    spec.validate_names()
    tasks = _tasks(spec)
    if cache_dir is not None:
        cache_dir = os.fspath(cache_dir)
        try:
            os.makedirs(os.path.join(cache_dir, "cells"), exist_ok=True)
        except OSError as exc:
            raise ValueError(
                f"cache_dir={cache_dir!r} cannot be created ({exc.strerror or exc}); "
                "give a folder you can write, or cache_dir=None."
            ) from None
    from tqdm.auto import tqdm

    start = time.perf_counter()
    outputs = []
    groups, complete = _fit_groups(tasks, cache_dir)
    main_pid = os.getpid()
    if verbose:
        print(f"{spec.name}: {len(tasks)} cells, {len(complete)} in the cache, "
              f"{len(tasks) - len(complete)} to compute ({len(groups)} datasets x "
              "models x seeds to draw and fit)", file=sys.stderr)
    todo = [i for i in range(len(tasks)) if i not in set(complete)]
    with _backend(backend, n_jobs):
        try:
            # Cells fully in the cache are read here: no worker starts for them.
            for i in complete:
                outputs.append(_indexed(i, tasks[i], cache_dir, None, main_pid))
            # Each (dataset, model, seed) is drawn and fitted once, with the
            # exact Shapley references its cells need, and handed to its
            # explainers' cells as an argument.
            fits = dict(zip(groups, joblib.Parallel(n_jobs=n_jobs)(
                joblib.delayed(_fit)(*group, main_pid) for group in groups.values())))
            with tqdm(total=len(tasks), initial=len(outputs), disable=not verbose,
                      desc=spec.name, unit="cell") as bar:
                if todo:
                    parallel = joblib.Parallel(n_jobs=n_jobs,
                                               return_as="generator_unordered")
                    cells = parallel(
                        joblib.delayed(_indexed)(i, tasks[i], cache_dir,
                                                 fits.get(tasks[i]["fit_key"]), main_pid)
                        for i in todo)
                    for out in cells:
                        outputs.append(out)
                        bar.update(1)
        except KeyboardInterrupt:
            raise BenchmarkInterrupted(len(outputs), len(tasks), cache_dir) from None
    outputs = [out for _, out in sorted(outputs, key=lambda pair: pair[0])]
    wall_time = time.perf_counter() - start
    from sklearn_xai.benchmark._results import BenchmarkResults

    return BenchmarkResults.from_cells(spec, outputs, wall_time=wall_time)
