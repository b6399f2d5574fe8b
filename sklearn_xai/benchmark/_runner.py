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
explainers.  A dataset's ``explain_rows`` filter (the held-out rows that
every model it names classifies correctly, as XAI-TRIS scores its images)
is computed once per (dataset, seed) after its models are fitted, so every
cell of the dataset explains the same rows.

The explained rows of a cell are cut into row shards, each one task that
explains its rows and scores the metrics whose score of a row depends on
that row alone; per-row random streams make the joined shards equal to the
unsharded cell.  The other metrics are scored on the whole cell once its
shards are joined.  Finished shards are cached until their cell is, so an
interrupted run loses nothing.  Tasks run through :class:`joblib.Parallel`,
whose backend (loky processes, threads, or a Dask cluster, local or reached
by its scheduler's address) the caller chooses.  Shard and whole-cell tasks
are submitted longest first, by a cost estimated in model evaluations
(:func:`_task_cost`); worker processes import what the run needs while the
fit phase runs (:func:`_warm_worker`).  Each cell's explainer is fitted
once per run, in the fit phase of its (dataset, model, seed), and travels
with the cell's tasks, so more workers never fit it more often.
"""

import contextlib
import glob
import inspect
import numbers
import os
import socket
import sys
import threading
import time
import traceback
import warnings

import joblib
import numpy as np
from sklearn.frozen import FrozenEstimator
from sklearn.utils.multiclass import type_of_target

from sklearn_xai.benchmark._cache import read_cell, write_cell
from sklearn_xai.benchmark._spec import (
    MODEL_ALIASES,
    BenchmarkSpec,
    _import_path,
    _accepts,
    _lookup,
    _normalise_component,
    _resolve_value,
    _seed_params,
    bind_registered,
    check_device_setting,
    load_config,
    resolve_component,
)
from sklearn_xai.metrics import ROW_METADATA, get_metric_spec
from sklearn_xai.utils import NotApplicableError
from sklearn_xai.utils._device import resolve_device
from sklearn_xai.utils._output import model_input

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
    """The dataset's Bunch, drawn with ``random_state=seed`` when it takes one.

    A dataset function returns a Bunch (or dict) with ``data`` and
    ``target`` (scikit-learn's spelling), or an ``(X, y)`` tuple.
    """
    name = dataset_spec["name"]
    func = _lookup(name, "dataset")
    params = dict(dataset_spec["params"])
    params.update(_seed_params(func, params, seed))
    bunch = func(**params)
    if isinstance(bunch, tuple):
        bunch = {"data": bunch[0], "target": bunch[1]}
    bunch = dict(bunch)
    X, y = bunch.get("data"), bunch.get("target")
    if X is None or y is None:
        old = [key for key in ("X", "y") if key in bunch]
        hint = (f"; it has {old}: rename them 'data' and 'target'" if old
                else f"; its keys are {sorted(map(str, bunch))}")
        raise ValueError(
            f"Dataset {name!r} must return a Bunch with the keys 'data' (the "
            f"features) and 'target' (scikit-learn's spelling), or an (X, y) "
            f"tuple{hint}."
        )
    bunch["data"] = _as_matrix(X, name)
    bunch["target"] = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    return bunch


def _split(bunch, task, test_size, n_explain, seed):
    """Training and explained row indices."""
    if bunch.get("train_indices") is not None and bunch.get("test_indices") is not None:
        train, test = np.asarray(bunch["train_indices"]), np.asarray(bunch["test_indices"])
    else:
        from sklearn.model_selection import train_test_split  # not for a cached run

        y = bunch["target"]
        stratify = y if task == "classification" else None
        train, test = train_test_split(np.arange(len(y)), test_size=test_size,
                                       random_state=seed, stratify=stratify)
    return train, test, test[:n_explain] if n_explain is not None else test


def _torch_nets(obj, found, seen, depth=0):
    """The skorch nets inside ``obj`` (itself, pipeline steps, a
    FrozenEstimator's estimator, any estimator parameter), in ``found``."""
    if id(obj) in seen or depth > 16:
        return found
    seen.add(id(obj))
    from skorch import NeuralNet

    if isinstance(obj, NeuralNet):
        found.append(obj)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            _torch_nets(value, found, seen, depth + 1)
    elif hasattr(obj, "get_params") and not isinstance(obj, type):
        try:
            params = obj.get_params(deep=False)
        except Exception:  # noqa: BLE001 - not an estimator after all
            return found
        for value in params.values():
            _torch_nets(value, found, seen, depth + 1)
    return found


def _place(model, device):
    """``model`` with every torch net inside it on ``device`` (a run's
    ``device`` setting, resolved).

    Each net with a ``device`` parameter gets ``set_params(device=...)``:
    before fitting, where it will train; a fitted net (a model given fitted,
    as ``compare_explainers``' is) is moved there by the nets' own
    ``set_params``, on a copy, so the caller's model stays where it was.
    ``None`` and models without a net are returned as they are.
    """
    if device is None or "skorch" not in sys.modules:  # no net without skorch
        return model
    nets = [net for net in _torch_nets(model, [], set())
            if "device" in net.get_params(deep=False)]
    def elsewhere(net):  # a fitted net knows where it is (device_)
        return str(vars(net).get("device_", net.device)) != device

    if any(getattr(net, "initialized_", False) and elsewhere(net) for net in nets):
        import copy

        model = copy.deepcopy(model)
        nets = [net for net in _torch_nets(model, [], set())
                if "device" in net.get_params(deep=False)]
    for net in nets:
        fitted = getattr(net, "initialized_", False)
        if (fitted and elsewhere(net)) or (not fitted and str(net.device) != device):
            net.set_params(device=device)
    return model


def _prepare(dataset_spec, model_spec, seed, device=None):
    """Data, split and fitted model of a cell (shared by its explainers);
    the model's torch nets on ``device`` when it is given (see :func:`_place`)."""
    test_size, n_explain = dataset_spec["test_size"], dataset_spec["n_explain"]
    bunch = _load_dataset(dataset_spec, seed)
    X, y = bunch["data"], bunch["target"]
    task = dataset_spec.get("task") or _task_of(y)
    train, test, explained = _split(bunch, task, test_size, n_explain, seed)
    model = resolve_component(model_spec, "model", seed=seed, task=task, context=bunch)
    model = _place(model, device)
    _pin_torch()
    start = time.perf_counter()
    model.fit(X[train], y[train])
    fit_time = time.perf_counter() - start
    score = float(model.score(model_input(model, X[test]), y[test]))
    # Per-row arrays of the Bunch (ground truths, masks, sensitive groups),
    # restricted to the explained rows.
    rows = {key: np.asarray(value)[explained] for key, value in bunch.items()
            if key not in ("data", "target") and isinstance(value, np.ndarray)
            and value.ndim >= 1 and len(value) == len(y)}
    meta = {key: rows.get(key) for key in ROW_METADATA}
    context = {k: v for k, v in bunch.items() if k not in ("data", "target", "DESCR")}
    prepared = {
        "X_train": X[train], "y_train": y[train], "X_explain": X[explained],
        "y_explain": y[explained], "explain_target": None,
        "metadata": meta, "rows": rows, "context": context, "model": model,
        "model_score": score, "model_fit_time": fit_time, "task": task,
    }
    option = dataset_spec.get("explain_rows")
    if option is not None:
        if task != "classification":
            raise ValueError(
                f"explain_rows={_shown_option(option)} selects rows by their class or "
                f"explains the true class, but the dataset's target is {task}; remove "
                "explain_rows (or set the dataset's task to 'classification')."
            )
        if option["target"] == "true":
            prepared["explain_target"] = y[explained]
        if option["correct_by"]:
            # Whether this model classifies each candidate row correctly;
            # the runner intersects it over the filter's models.
            prepared["correct"] = (np.asarray(model.predict(model_input(model, X[explained])))
                                   == y[explained])
    return prepared


def _shown_option(option):
    """An ``explain_rows`` option as the user wrote it (model labels only)."""
    by = option["correct_by"]
    return {"correct_by": None if by is None else list(by), "target": option["target"]}


def _row_view(prepared, index):
    """The prepared cell restricted to explained rows ``index`` (a slice or
    a boolean mask; training rows, model and dataset context are shared)."""
    view = dict(prepared)
    view["X_explain"] = prepared["X_explain"][index]
    view["y_explain"] = prepared["y_explain"][index]
    if prepared["explain_target"] is not None:
        view["explain_target"] = prepared["explain_target"][index]
    view["metadata"] = {k: None if v is None else v[index]
                        for k, v in prepared["metadata"].items()}
    view["rows"] = {k: v[index] for k, v in prepared["rows"].items()}
    return view


def _filter_rows(fits, tasks):
    """Apply the ``correct_by`` row filters: each fit of a dataset with a
    filter is restricted to the candidate rows that every model of the
    filter classifies correctly (the same rows for all the models of that
    dataset and seed), its exact Shapley references with them.  A fit whose
    filter cannot be computed (a filter model failed, or no row is left)
    becomes a failed fit."""
    done, original = set(), dict(fits)
    for task in tasks:
        key, by = task["fit_key"], task["filter_keys"]
        if not by or key in done or key not in fits or fits[key]["error"]:
            continue
        done.add(key)
        fit = fits[key]
        failed = {label: original[k]["error"] for label, k in by.items()
                  if original[k]["error"]}
        if failed:
            label, error = next(iter(failed.items()))
            fits[key] = {**fit, "prepared": None,
                         "error": f"explain_rows: the filter's model {label!r} failed: {error}"}
            continue
        keep = np.logical_and.reduce([original[k]["prepared"]["correct"]
                                      for k in by.values()])
        if not keep.any():
            fits[key] = {**fit, "prepared": None, "error": (
                f"explain_rows: none of the {keep.size} candidate rows is classified "
                f"correctly by every model of {sorted(by)}; raise n_explain or name "
                "fewer models in correct_by.")}
            continue
        fits[key] = {**fit, "prepared": _row_view(fit["prepared"], keep),
                     "references": {k: v[keep] for k, v in fit["references"].items()}}


# ------------------------------------------------------------ torch threads
_PINNED = threading.local()


@contextlib.contextmanager
def _one_torch_thread():
    """Torch runs one thread inside a runner task, restored afterwards.

    A run's parallelism is its tasks (``n_jobs``).  Torch's kernels round
    differently with the number of threads, so a network trained, explained
    or scored with the threads of the main process (``n_jobs=1``) differs
    in its last bits, and after hundreds of epochs in its predictions, from
    the same network in a worker: with one thread per task a result does not
    depend on ``n_jobs``, and torch's threads never oversubscribe the cores
    the tasks share.  Torch is pinned as soon as it is imported: at the
    start when it already is, else by :func:`_pin_torch` once a component
    has imported it (a net, a gradient explainer).

    The OpenMP and BLAS thread pools (xgboost, LightGBM, scikit-learn's
    histogram gradient boosting, numpy's matrix products) are limited to one
    thread for the task too, with :func:`threadpoolctl.threadpool_limits`:
    two workers each running xgboost on every core spent 1.8 times the CPU
    of the same work on one thread each (``sklearn-xai compare`` on
    diabetes with xgboost, 2 cores).
    """
    if getattr(_PINNED, "active", False):  # nested: the outer block restores
        _pin_torch()
        yield
        return
    from threadpoolctl import threadpool_limits

    _PINNED.active, _PINNED.previous = True, None
    try:
        _pin_torch()
        with threadpool_limits(limits=1):
            yield
    finally:
        torch = sys.modules.get("torch")
        if torch is not None and _PINNED.previous is not None:
            torch.set_num_threads(_PINNED.previous)
        _PINNED.active, _PINNED.previous = False, None


def _pin_torch():
    """One torch thread for the rest of the current task, if torch is
    imported (see :func:`_one_torch_thread`)."""
    torch = sys.modules.get("torch")
    if torch is None or not getattr(_PINNED, "active", False):
        return
    if _PINNED.previous is None:
        _PINNED.previous = torch.get_num_threads()
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)


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
    sign = np.where(model.predict(model_input(model, X)) == model.classes_[1], 1.0, -1.0)
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
    from sklearn_xai.masking import (
        BaseMasker,
        BasePerturber,
        check_masker,
        check_perturber,
    )

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
            if _accepts(registry_spec.func, "y_train"):
                # ROAR retrains on them; the randomisation checks fit the
                # explainer as the cell did.
                params.setdefault("y_train", prepared["y_train"])
            if need == "training_data":  # retrains on explained training rows
                params.setdefault("attributions_train", train_attributions)
        elif need == "explainer":
            params.setdefault("explainer", explainer)
        elif need == "image_shape":
            if context.get("image_shape") is not None:
                params.setdefault("image_shape", tuple(context["image_shape"]))
        elif need == "classifier":
            if getattr(prepared["model"], "classes_", None) is None:
                return None, "the metric compares classes and the model is a regressor"
        elif need == "mask":
            truth = prepared["metadata"].get("ground_truth")
            if truth is not None and not np.isin(np.asarray(truth), (0, 1)).all():
                return None, ("the metric needs a 0/1 ground-truth mask and the "
                              "dataset's ground truth is continuous")
        elif need == "reference":
            if reference is not None:
                params["reference"] = reference
        # "masker": given in the params (fitted above) or the metric's default.
    params.update(_seed_params(registry_spec, params, seed))
    if prepared.get("explain_target") is not None and "target" not in params \
            and registry_spec.kind == "model" and _accepts(registry_spec.func, "target"):
        # explain_rows target "true": the metric scores the class explained.
        params["target"] = prepared["explain_target"]
    scored = metric_spec.get("explained_outputs")
    if scored and registry_spec.kind == "model":
        # The output the cell's explainers explain (see _tasks): the control
        # is scored on it, and the shared Shapley reference computed on it.
        for name, value in _scored_output(scored, prepared["model"]).items():
            if name not in params and _accepts(registry_spec.func, name):
                params[name] = value
    return params, None


# What a metric reads from an explainer that sets neither (the metrics'
# defaults): no explained output needs binding then.
_DEFAULT_OUTPUT = {"target": "predicted", "output": "auto"}


def _component_params(component_spec, kind):
    """The parameters a component spec gives its object: the object's
    (an instance's ``get_params``, a class's or function's defaults)
    updated with the spec's, or None for a spec that cannot be looked up."""
    try:
        spec = _normalise_component(component_spec, kind)
        obj = _lookup(spec["name"], kind)
        if hasattr(obj, "get_params") and not inspect.isclass(obj):
            params = obj.get_params(deep=False)
        else:
            params = {name: p.default
                      for name, p in inspect.signature(obj).parameters.items()
                      if p.default is not inspect.Parameter.empty}
    except (ValueError, TypeError, ImportError, AttributeError):
        return None
    params.update(spec["params"])
    return params


def _explained_output(explainer_spec):
    """``{"target": ..., "output": ...}`` an explainer spec explains, as
    the scorers read them from the fitted explainer (its parameters, or
    their defaults), or None for an explainer with neither parameter: one
    that explains no output of the model (the random control, an edge
    filter), or a spec that cannot be looked up (its cell reports that)."""
    params = _component_params(explainer_spec, "explainer")
    if params is None or ("target" not in params and "output" not in params):
        return None
    return {"target": params.get("target", "predicted"),
            "output": params.get("output", "auto"),
            "explainer": _normalise_component(explainer_spec, "explainer")["name"]}


def _output_of(candidate):
    """A candidate's ``target`` and ``output`` (without its explainer)."""
    return {"target": candidate["target"], "output": candidate["output"]}


def _applies(candidate, model):
    """Whether the candidate's explainer can explain ``model``: an explainer
    class with a ``supports(estimator)`` test (TreeContributions) that says
    no refuses the model at fit, so the output it would explain is not one
    the control is scored on."""
    try:
        cls = _lookup(candidate["explainer"], "explainer")
    except (ValueError, TypeError, ImportError, AttributeError):
        return True
    supports = getattr(cls, "supports", None)
    if supports is None:
        return True
    try:
        return bool(supports(model))
    except Exception:  # noqa: BLE001 - unknown: keep the candidate
        return True


def _scored_outputs(outputs, label, metric_spec):
    """The explained outputs the cell of explainer ``label`` scores
    ``metric_spec`` on, or None where the metric's defaults are that output.

    ``outputs`` maps every explainer label of the benchmark to
    :func:`_explained_output`.  An explainer that explains an output is
    scored on its own (bound only for metrics that share an exact Shapley
    reference, so that the reference is computed on it); one that explains
    none (the random control) is scored on the output the others explain,
    so that every explainer of a (dataset, model, seed) is scored on one
    output.  Candidates are resolved against the model by
    :func:`_scored_output`."""
    own = outputs[label]
    if own is None:
        scored = list({joblib.hash(o): o for o in outputs.values() if o is not None}.values())
    elif _uses_reference(metric_spec):
        scored = [own]
    else:
        return None
    if not scored or all(_output_of(c) == _DEFAULT_OUTPUT for c in scored):
        return None
    return scored


def _scored_output(candidates, model):
    """The one explained output (``target``, ``output``) of the
    ``candidates``; a ``ValueError`` when they differ on this model
    (``output="auto"`` is the model's default output: ``"proba"`` for a
    classifier, ``"predict"`` otherwise)."""
    from sklearn_xai.utils._output import ExplainedOutput

    def same_as(candidate):
        target, output = candidate["target"], candidate["output"]
        if isinstance(target, str) and target == "auto":
            target = "predicted"
        if isinstance(output, str) and output == "auto":
            try:
                output = ExplainedOutput(model, output="auto").output
            except (ValueError, TypeError):
                pass
        return joblib.hash((target, output))

    # Explainers that refuse this model (tree attributions of a network)
    # explain nothing here: the control is scored on the others' output.
    candidates = [c for c in candidates if _applies(c, model)]
    if not candidates:
        return {}
    if len({same_as(c) for c in candidates}) > 1:
        shown = ", ".join(f"target={c['target']!r} output={c['output']!r}"
                          for c in candidates)
        raise ValueError(
            f"The explainers explain different outputs ({shown}), so the control "
            "(which explains none) has no one output to be scored on: set the same "
            "target= and output= on every explainer (e.g. output='margin' for exact "
            "tree attributions)."
        )
    return {name: value for name, value in _output_of(candidates[0]).items()
            if not (name == "target" and isinstance(value, str) and value == "auto")}


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


def _score_metric(metric_spec, prepared, explainer, explanation, seed, reference=None,
                  raw=False):
    """One metric of one cell: status, value, per-row scores, time.

    ``reference`` is the metric's precomputed exact Shapley reference (shared
    by every explainer of the cell's dataset, model and seed), or None.
    ``raw``: keep the scorer's scores as they are (a row shard's scores,
    summarised once the shards of the cell are joined, see
    :func:`_join_metric`)."""
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
        if raw:
            result["scores"] = np.asarray(scores, dtype=np.float64)
        else:
            result.update(_summarise(scores, metric_spec.get("nan_policy", "omit"), name))
    except NotApplicableError as exc:  # the model lacks what the metric needs
        result.update(status="skipped", error=f"not applicable: {exc}")
    except Exception as exc:  # recorded, never fatal
        result.update(status="error", error=_format_error(exc))
    return result


def _failure(exc, stage):
    """The fields of a failed cell or shard: the error, where it happened,
    and whether the component does not apply to the model
    (:class:`~sklearn_xai.utils.NotApplicableError`, reported as a skip)."""
    return {"status": "error", "error": _format_error(exc), "failed_in": stage,
            "not_applicable": isinstance(exc, NotApplicableError)}


def _format_error(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno})" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


# -------------------------------------------------------------------- cells
def _cell_key(task, dataset_hash, model_hash):
    """Key of a cell.  The dataset and model enter by their hashes
    (:func:`_fit_key`'s), computed once per label: a fitted model in a spec
    (``compare_explainers``' forest) is hashed once per run, not per cell."""
    from sklearn_xai import __version__

    return joblib.hash({"version": CACHE_VERSION, "package": __version__,
                        "dataset": dataset_hash, "model": model_hash,
                        "explainer": task["explainer"], "seed": task["seed"]})


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
    _pin_torch()
    start = time.perf_counter()
    explainer.fit(prepared["X_train"], prepared["y_train"])
    fit_time = time.perf_counter() - start
    return explainer, fit_time


def _fit_explainer(task, prepared):
    """A cell's fitted explainer, as its shard and whole-cell tasks use it.
    Never raises.

    Returns a dict: ``explainer`` (fitted, or None), ``fit_time``,
    ``failure`` (the fields of :func:`_failure` when the fit failed, else
    None) and ``warnings`` (those the fit raised, which every task of the
    cell reports)."""
    out = {"explainer": None, "fit_time": 0.0, "failure": None, "warnings": []}
    with _recorded_warnings(out["warnings"]):
        try:
            out["explainer"], out["fit_time"] = _explain(task, prepared)
        except Exception as exc:
            out["failure"] = _failure(exc, "explainer")
    return out


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


def _worker_started(main_pid):
    """Initializer of the run's loky workers, run before a worker takes any
    task: a worker whose run died while it was starting (its parent is gone)
    exits at once, else it watches the run (:func:`_watch_parent`).  Without
    it, a worker started just before the run was killed waits for a task
    forever, and keeps the run's output pipes open."""
    if os.getppid() != main_pid:
        os._exit(1)
    _watch_parent(main_pid)


def _run_cell(task, cache_dir, fit=None, main_pid=None, base=None, fitted=None):
    """Compute (or load) one cell.  Never raises: errors are recorded.

    ``fit``: the cell's data, fitted model and exact Shapley references
    (:func:`_fit`), None when the cell is cached.  ``main_pid``: the run's
    main process (a worker process exits when it dies).  ``base``: the
    cell's content so far (read from the cache, or joined from its row
    shards); None reads the cache.  ``fitted``: the cell's fitted
    explainer (:func:`_fit_explainer`); None fits it here."""
    if main_pid is not None:
        _watch_parent(main_pid)
    caught = []
    with _one_torch_thread(), _recorded_warnings(caught):
        out, to_cache = _compute_cell(task, cache_dir, fit, base, fitted)
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


def _compute_cell(task, cache_dir, fit, base=None, fitted=None):
    """The cell's output, and (path, content) to cache or None.

    ``base``: the cell's content so far (explanation, metric results,
    warnings) instead of the cached one; only the metrics it lacks are
    scored, on the whole cell.  ``fitted``: the cell's fitted explainer
    (:func:`_fit_explainer`), None to fit it here."""
    path = _cell_path(task, cache_dir)
    cached = base if base is not None else (_read_cache(path) or {})
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
        fit = _standalone_fit(task)
    out["warnings"] = list(dict.fromkeys(out["warnings"] + fit["warnings"]))
    if fit["error"]:
        out.update(status="error", error=fit["error"], explanation=None, metrics={},
                   failed_in="model")
        return out, None
    prepared, references = fit["prepared"], fit["references"]
    if fitted is None:
        fitted = _fit_explainer(task, prepared)
    out["warnings"] = list(dict.fromkeys(out["warnings"] + fitted["warnings"]))
    if fitted["failure"] is not None:
        out.update(fitted["failure"], explanation=None, metrics={})
        return out, None
    explainer, fit_time = fitted["explainer"], fitted["fit_time"]
    stage = "explainer"
    try:
        explanation = cached.get("explanation")
        if explanation is None:
            start = time.perf_counter()
            A, n_eval = explainer.explain(prepared["X_explain"],
                                          target=prepared["explain_target"],
                                          return_n_evaluations=True)
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
                explainer.explain(prepared["X_train"], target=None if
                                  prepared["explain_target"] is None else prepared["y_train"]),
                dtype=np.float64)
            explanation["explain_train_time"] = time.perf_counter() - start
        for label, spec in missing.items():
            reference = references.get(task["reference_keys"].get(label))
            results[keys[label]] = _score_metric(spec, prepared, explainer, explanation,
                                                 task["seed"], reference)
    except Exception as exc:
        out.update(_failure(exc, stage), explanation=None, metrics={})
        return out, None
    out.update(explanation=explanation,
               metrics={label: results[keys[label]] for label in task["metrics"]})
    if path is None:
        return out, None
    # Metric errors are not cached, so a rerun retries them.
    keep = {k: v for k, v in results.items() if v["status"] != "error"}
    return out, (path, {"explanation": explanation, "metrics": keep})


# --------------------------------------------------------------- row shards
# The explained rows of a cell are cut into row shards, each one task that
# explains its rows and scores the row-wise metrics on them.  Explainers and
# metrics draw the random numbers of a row from a stream keyed by the row's
# values (sklearn_xai.utils.RowStreams), so a row's attributions and scores
# do not depend on the other rows of its shard: the joined shards are the
# unsharded cell, value for value.  Metrics whose scores are not a function
# of each row alone are scored on the whole cell once its shards are joined
# (see _row_wise).
# shard_size="auto": at most _AUTO_SHARDS shards per cell, of at least
# _MIN_SHARD_ROWS rows (a function of the cell's rows only, never of the
# number of workers, so an interrupted run resumes with any n_jobs).
_AUTO_SHARDS = 8
_MIN_SHARD_ROWS = 10

# Code conventions (reproductions of a benchmark's code) whose scores are
# still one per row, each row on its own (checked in tests/benchmark/test_shards.py).
_ROW_WISE_CONVENTIONS = {
    "emd_score": ("xai_tris_code",),
    "pairwise_rank_agreement": ("openxai_code",),
    "mono_plus": ("xai_bench_code",),
    "mono_minus": ("xai_bench_code",),
}


def _row_wise(metric_spec):
    """Whether a metric's score of a row depends on that row alone, so the
    metric can be scored shard by shard.

    Not row-wise, hence scored on the whole cell: names that are not a
    registered metric (``neg_group_gap`` compares groups of rows), metrics
    with one value per dataset (``per_instance=False``), metrics that retrain
    on the explained training rows (``training_data``: ROAR, data
    randomisation), a benchmark code's convention unless known to be per-row
    (``_ROW_WISE_CONVENTIONS``; OpenXAI's code seeds rows by position, BEExAI's
    pools rows), XAI-Bench's ``empty_value="explained_mean"`` (the mean
    prediction of the explained rows)."""
    try:
        registry_spec = get_metric_spec(metric_spec["name"])
    except ValueError:
        return False
    if not registry_spec.per_instance or "training_data" in registry_spec.requires:
        return False
    try:
        signature = inspect.signature(registry_spec.func).parameters
    except (TypeError, ValueError):
        return False
    params = {**(registry_spec.default_kwargs or {}), **metric_spec["params"]}

    def value(name):
        if name in params:
            return params[name]
        return signature[name].default if name in signature else None

    convention = value("convention")
    if convention not in (None, "paper") and convention not in _ROW_WISE_CONVENTIONS.get(
            registry_spec.name, ()):
        return False
    return value("empty_value") != "explained_mean"


def _shard_ranges(n_rows, shard_size):
    """(start, stop) of the row shards of a cell of ``n_rows`` explained rows."""
    if shard_size == "auto":
        shard_size = max(_MIN_SHARD_ROWS, -(-n_rows // _AUTO_SHARDS))
    if shard_size is None or n_rows <= shard_size:
        return [(0, n_rows)]
    return [(lo, min(lo + shard_size, n_rows)) for lo in range(0, n_rows, shard_size)]


# ------------------------------------------------------------- task order
# Tasks are submitted longest first (the longest-processing-time rule): a
# worker that takes an expensive shard last would otherwise run alone while
# the others wait for it.  Costs are estimated before any task runs, in
# model evaluations (see _task_cost); the order changes when a task runs,
# never its result.
_AUTO_BUDGET = 2048  # evaluations per row of a budget given as "auto"


def _background_rows(masker):
    """Rows a masker replaces each masked row with (its ``background``),
    1 for a single baseline row or a masker that has none."""
    if isinstance(masker, dict) and "name" in masker:
        masker = (_component_params(masker, "masker") or {}).get("background")
    elif masker is not None and not isinstance(masker, (numbers.Integral, np.ndarray)):
        masker = getattr(masker, "background", None)
    if isinstance(masker, numbers.Integral) and not isinstance(masker, bool):
        return max(int(masker), 1)
    return max(len(masker), 1) if isinstance(masker, np.ndarray) and masker.ndim == 2 else 1


def _explainer_evaluations(explainer_spec, n_features):
    """Estimated model evaluations per explained row of an explainer spec:
    its budget (``n_perturbations`` or ``n_samples`` per row, 2048 for
    ``"auto"``; ``n_permutations`` x (d + 1)), else every coalition
    (``2**d``) for an enumerating explainer (one with ``max_features``),
    else one per feature (d + 1), times its masker's background rows."""
    params = _component_params(explainer_spec, "explainer") or {}
    d = n_features
    budget = next((params[k] for k in ("n_perturbations", "n_samples") if k in params
                   and params[k] is not None), None)
    if budget is not None:
        budget = budget if isinstance(budget, numbers.Real) else _AUTO_BUDGET
    elif isinstance(params.get("n_permutations"), numbers.Real):
        budget = params["n_permutations"] * (d + 1)
    elif isinstance(params.get("max_features"), numbers.Integral):
        budget = 2.0 ** min(d, params["max_features"])
    else:
        budget = d + 1
    return float(budget) * _background_rows(params.get("masker"))


def _metric_evaluations(metric_spec, explainer_evaluations, n_features):
    """Estimated model evaluations per row of a metric: none for a metric
    that reads the attributions (and a reference) only, one per feature
    (d + 1: a removal curve) for one that calls the model, plus the
    explainer's for one that re-explains the row (randomisation checks,
    sensitivities, ROAR)."""
    try:
        registry_spec = get_metric_spec(metric_spec["name"])
    except ValueError:
        return 0.0
    cost = n_features + 1.0 if registry_spec.kind == "model" else 0.0
    if "explainer" in registry_spec.requires:
        cost += explainer_evaluations
    return cost


def _task_cost(n_rows, n_features, explains, explainer_evaluations, metric_specs):
    """Estimated cost of a task, in model evaluations: its rows x (the
    explainer's evaluations per row when the task explains them, plus each
    metric's).  The model's own cost per evaluation is not estimated:
    every model counts the same."""
    per_row = explainer_evaluations if explains else 0.0
    per_row += sum(_metric_evaluations(spec, explainer_evaluations, n_features)
                   for spec in metric_specs)
    return n_rows * per_row


def _longest_first(jobs, costs):
    """``jobs`` sorted by decreasing ``costs`` (a stable sort: jobs of equal
    cost keep their order)."""
    order = sorted(range(len(jobs)), key=lambda k: -costs[k])
    return [jobs[k] for k in order]


def _shard_path(task, cache_dir, rows):
    return None if cache_dir is None else os.path.join(
        cache_dir, "shards", f"{task['key']}-{rows[0]}-{rows[1]}.npz")


def _remove_shards(task, cache_dir):
    """Delete the cached shards of a cell once the cell itself is cached."""
    if cache_dir is None:
        return
    for path in glob.glob(os.path.join(glob.escape(os.path.join(cache_dir, "shards")),
                                       f"{task['key']}-*.npz")):
        with contextlib.suppress(OSError):
            os.remove(path)


def _shard_view(prepared, lo, hi):
    """The prepared cell restricted to explained rows ``lo:hi`` (the
    training rows, model and dataset context are shared)."""
    return _row_view(prepared, slice(lo, hi))


def _worker_name():
    name = f"{socket.gethostname()}:{os.getpid()}"
    if threading.current_thread() is not threading.main_thread():
        name += f":{threading.current_thread().name}"
    return name


def _compute_shard(task, fit, rows, todo, cached, fitted):
    """Explain rows ``rows`` of a cell (unless ``cached`` holds their
    attributions) with the cell's fitted explainer ``fitted``
    (:func:`_fit_explainer`) and score the metrics ``todo`` (label -> spec)
    on them."""
    lo, hi = rows
    prepared = _shard_view(fit["prepared"], lo, hi)
    out = {"status": "ok", "error": "", "failed_in": "",
           "explanation": cached.get("explanation"),
           "metrics": dict(cached.get("metrics", {}))}
    if fitted["failure"] is not None:
        out.update(fitted["failure"])
        return out
    explainer, fit_time = fitted["explainer"], fitted["fit_time"]
    try:
        if out["explanation"] is None:
            start = time.perf_counter()
            A, n_eval = explainer.explain(prepared["X_explain"],
                                          target=prepared["explain_target"],
                                          return_n_evaluations=True)
            out["explanation"] = {
                "attributions": np.asarray(A, dtype=np.float64),
                "explain_time": time.perf_counter() - start,
                "n_evaluations": int(n_eval), "explainer_fit_time": fit_time,
                "explainer_class": type(explainer).__name__,
            }
    except Exception as exc:
        out.update(_failure(exc, "explainer"))
        return out
    for label, spec in todo.items():
        reference = fit["references"].get(task["reference_keys"].get(label))
        out["metrics"][task["metric_keys"][label]] = _score_metric(
            spec, prepared, explainer, out["explanation"], task["seed"],
            None if reference is None else reference[lo:hi], raw=True)
    return out


def _run_shard(index, task, cache_dir, fit, rows, todo, cached, fitted, main_pid=None):
    """One row shard of cell ``index`` (:func:`_compute_shard`) explained
    by the cell's fitted explainer ``fitted``, cached when its explanation
    succeeded.  Never raises.  Returns (index, rows, result) with the
    shard's warnings (the explainer fit's included), worker and start / end
    times."""
    if main_pid is not None:
        _watch_parent(main_pid)
    start, cpu = time.time(), time.process_time()
    caught = []
    with _one_torch_thread(), _recorded_warnings(caught):
        out = _compute_shard(task, fit, rows, todo, cached, fitted)
    out["warnings"] = list(dict.fromkeys(list(cached.get("warnings", []))
                                         + fitted["warnings"] + caught))
    path = _shard_path(task, cache_dir, rows)
    if path is not None and out["status"] == "ok":
        if _WATCHING and os.getppid() != main_pid:
            os._exit(1)  # the run is gone: write nothing more into its folder
        # Metric errors are not cached, so a rerun retries them.
        content = {"metrics": {k: v for k, v in out["metrics"].items()
                               if v["status"] != "error"},
                   "warnings": out["warnings"]}
        if "explain_time" in out["explanation"]:  # not a slice of the cached cell's
            content["explanation"] = out["explanation"]
        _write_cache(path, content)
    out.update(worker=_worker_name(), start=start, end=time.time(),
               cpu=time.process_time() - cpu)
    return index, rows, out


def _join_metric(metric_spec, parts, sizes):
    """A metric's cell result from its shards' raw results, or None when a
    shard's scores are not one per row (then the metric is scored on the
    whole cell)."""
    name = metric_spec["name"]
    total = float(sum(p["time"] for p in parts if np.isfinite(p["time"])))
    for status in ("error", "skipped"):
        for p in parts:
            if p["status"] == status:
                return {**p, "time": total if status == "error" else p["time"]}
    scores = [p.get("scores") for p in parts]
    if any(s is None or np.ndim(s) != 1 or len(s) != n for s, n in zip(scores, sizes)):
        return None
    result = {"status": "ok", "error": "", "time": total,
              "greater_is_better": parts[0]["greater_is_better"]}
    try:
        result.update(_summarise(np.concatenate(scores), metric_spec.get("nan_policy", "omit"),
                                 name))
    except Exception as exc:  # nan_policy="raise"
        result.update(status="error", error=_format_error(exc), value=float("nan"),
                      se=float("nan"), n_rows=0, n_nan=0, scores=None)
    return result


def _join_shards(task, prepared, cached, row_wise, shards):
    """The cell's content from its cached content and its shards' results
    (ordered by rows): explanation (attributions concatenated, explanation
    times and model evaluations summed over the shards: the work, not the
    wall time), metric results and warnings."""
    explanation = cached.get("explanation")
    parts = [s["explanation"] for s in shards]
    if explanation is None:
        explanation = {
            "attributions": np.concatenate([p["attributions"] for p in parts]),
            "explain_time": float(sum(p["explain_time"] for p in parts)),
            "n_evaluations": int(sum(p["n_evaluations"] for p in parts)),
            "explainer_fit_time": parts[0]["explainer_fit_time"],
            "model_score": prepared["model_score"],
            "model_fit_time": prepared["model_fit_time"],
            "explainer_class": parts[0]["explainer_class"],
        }
    metrics = dict(cached.get("metrics", {}))
    sizes = [len(p["attributions"]) for p in parts]
    for label, spec in row_wise.items():
        key = task["metric_keys"][label]
        joined = _join_metric(spec, [s["metrics"][key] for s in shards], sizes)
        if joined is not None:
            metrics[key] = joined
    warnings_ = list(cached.get("warnings", []))
    for s in shards:
        warnings_ += s.get("warnings", [])
    return {"explanation": explanation, "metrics": metrics,
            "warnings": list(dict.fromkeys(warnings_))}


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
    params = _reference_params(metric_spec["params"])
    scored = metric_spec.get("explained_outputs")
    return joblib.hash(params if scored is None else (params, scored))


def _fit(dataset, model, seed, reference_specs, main_pid=None, cells=None, device=None):
    """Data, split and fitted model of one (dataset, model, seed), the
    exact Shapley references its cells need, computed once for all the
    explainers of that fit, and the fitted explainers of its cells
    ``cells`` (cell index -> task).  Never raises.

    Returns a dict: ``prepared`` (:func:`_prepare`, or None), ``error`` (the
    failure of drawing the data or fitting the model, or ""), ``warnings``
    (those the fit raised), ``references`` (reference key -> values; a
    reference that fails is left out, and its metrics then compute and
    report it) and ``explainers`` (cell index -> :func:`_fit_explainer`).
    The result travels to the cells as an argument, so nothing is ever
    stored on disk and read back with pickle.  Each cell's explainer is
    fitted here, once per run, whatever the number of workers: the fitted
    explainer travels with the cell's tasks (it shares the model object of
    ``prepared``, which pickle sends once per task).  ``device``: the run's
    device setting (see :func:`_place`)."""
    if main_pid is not None:
        _watch_parent(main_pid)
    out = {"prepared": None, "error": "", "warnings": [], "references": {},
           "explainers": {}}
    with _one_torch_thread():
        with _recorded_warnings(out["warnings"]):
            try:
                out["prepared"] = _prepare(dataset, model, seed, device)
            except Exception as exc:  # recorded by every cell of this fit
                out["error"] = _format_error(exc)
        if out["prepared"] is not None:
            out["references"] = _references(out["prepared"], seed, reference_specs)
            out["explainers"] = {i: _fit_explainer(task, out["prepared"])
                                 for i, task in (cells or {}).items()}
    return out


def _warm_worker(components, main_pid=None):
    """A worker's first task: import what the run's tasks will need, so
    that the imports of a worker left without a fit overlap the fit phase
    instead of delaying its first shard.  Unpickling this function imports
    the runner (scikit-learn, the metrics); ``components`` are
    ``(name, kind)`` of the run's models, explainers and datasets, whose
    modules (torch, captum, ...) are imported by looking them up.  A
    lookup that fails is left to the task that needs it."""
    if main_pid is not None:
        _watch_parent(main_pid)
    for name, kind in components:
        with contextlib.suppress(Exception):
            if kind == "model" and isinstance(name, str) and name in MODEL_ALIASES:
                for path in filter(None, MODEL_ALIASES[name]):
                    _import_path(path)
            else:
                _lookup(name, kind)


def _warm_up_calls(tasks, n_jobs, main_pid):
    """One :func:`_warm_worker` call per worker of the active backend when
    its workers are other processes (loky, Dask), else none."""
    backend, _ = joblib.parallel.get_active_backend()
    if getattr(backend, "uses_threads", False):  # threading, sequential
        return []
    try:
        n_workers = joblib.effective_n_jobs(n_jobs)
    except Exception:  # noqa: BLE001 - a backend that cannot say: no warm-up
        return []
    if n_workers < 2:
        return []
    components = {}
    for task in tasks:
        for kind in ("dataset", "model", "explainer"):
            name = task[kind].get("name") if isinstance(task[kind], dict) else None
            # Names, classes and functions (pickled by reference), never an
            # instance (a fitted model can be large).
            if isinstance(name, str) or inspect.isclass(name) or inspect.isfunction(name):
                components.setdefault((kind, name if isinstance(name, str) else id(name)),
                                      (name, kind))
    return [joblib.delayed(_warm_worker)(list(components.values()), main_pid)
            for _ in range(n_workers)]


def _standalone_fit(task):
    """The fit of one cell outside a run's fit phase (row filter applied)."""
    device = task.get("device")
    fits = {task["fit_key"]: _fit(task["dataset"], task["model"], task["seed"], {},
                                  device=device)}
    models = (task["dataset"].get("explain_rows") or {}).get("correct_by") or {}
    for label, key in task["filter_keys"].items():
        if key not in fits:
            fits[key] = _fit(task["dataset"], models[label], task["seed"], {},
                             device=device)
    _filter_rows(fits, [task])
    return fits[task["fit_key"]]


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
    """Fit key -> (dataset, model, seed, {reference key: metric spec},
    {cell index: task of a cell to compute}) of every fit a cell still to
    compute needs, the indices of the cells fully in the cache (which need
    none), and every cell's cached content."""
    groups, complete, cached_cells = {}, [], []
    for i, task in enumerate(tasks):
        cached = _read_cache(_cell_path(task, cache_dir)) or {}
        cached_cells.append(cached)
        missing, _ = _missing_metrics(task, cached)
        if not missing and "explanation" in cached:
            complete.append(i)
            continue
        group = groups.setdefault(task["fit_key"],
                                  (task["dataset"], task["model"], task["seed"], {}, {}))
        group[4][i] = task
        group[3].update({task["reference_keys"][label]: s for label, s in missing.items()
                         if label in task["reference_keys"]})
        # The row filter needs every model it names fitted on this dataset.
        models = task["dataset"]["explain_rows"]["correct_by"] if task["filter_keys"] else {}
        for label, key in task["filter_keys"].items():
            groups.setdefault(key, (task["dataset"], models[label], task["seed"], {}, {}))
    return groups, complete, cached_cells


def _fit_key(dataset_hash, model_hash, seed):
    """Key of a (dataset, model, seed) fit, from the hashes of the dataset
    and model specs.  The parts are hashed apart: a model spec that is also
    inside the dataset's row filter would otherwise pickle as a
    back-reference and hash differently."""
    return joblib.hash((dataset_hash, model_hash, seed))


def _hash_once(cache, label, obj):
    """``joblib.hash(obj)``, computed once per ``label`` (the spec's entry
    for a label binds to the same content in every cell)."""
    if label not in cache:
        cache[label] = joblib.hash(obj)
    return cache[label]


def _tasks(spec, device=None):
    """The cells of ``spec``, with their cache keys; ``device`` (the run's,
    resolved) is added to each task after its keys, which it never enters:
    scores do not depend on it."""
    tasks = []
    dataset_hashes, model_hashes = {}, {}
    outputs = {label: _explained_output(bind_registered(explainer, "explainer"))
               for label, explainer in spec.explainers.items()}
    for d, m, e, s in spec.cells():
        test_size, n_explain = spec.dataset_split(d)
        dataset = {**spec.datasets[d], "test_size": test_size, "n_explain": n_explain}
        dataset.pop("explain_rows", None)
        option = spec.explained_rows(d)
        if option is not None:
            # The filter's model specs are part of the cell's key: changing
            # one of them changes the rows every cell of the dataset explains.
            dataset["explain_rows"] = {
                "correct_by": None if option["correct_by"] is None else
                {m: bind_registered(spec.models[m], "model") for m in option["correct_by"]},
                "target": option["target"]}
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
        for label, metric in task["metrics"].items():
            scored = _scored_outputs(outputs, e, metric)
            if scored is not None:
                metric["explained_outputs"] = scored
        # Keys are computed here, in the main process: a worker may not be
        # able to hash objects defined in the main script.
        dataset_hash = _hash_once(dataset_hashes, d, task["dataset"])
        model_hash = _hash_once(model_hashes, m, task["model"])
        task["key"] = _cell_key(task, dataset_hash, model_hash)
        task["fit_key"] = _fit_key(dataset_hash, model_hash, s)
        by = (task["dataset"].get("explain_rows") or {}).get("correct_by") or {}
        task["filter_keys"] = {
            label: _fit_key(dataset_hash, _hash_once(model_hashes, label, model), s)
            for label, model in by.items()}
        task["metric_keys"] = {label: _metric_key(m) for label, m in task["metrics"].items()}
        task["reference_keys"] = {label: _reference_key(m)
                                  for label, m in task["metrics"].items()
                                  if _uses_reference(m)}
        task["device"] = device
    return tasks


# ----------------------------------------------------------------- backends
def _loky_workers(backend):
    """joblib's configuration for loky workers that start watching the run's
    main process as soon as they start (:func:`_worker_started`): for
    ``backend="loky"``, and for ``None`` when joblib's active backend is its
    default loky one (a backend the user configured is kept as is)."""
    if backend is None:
        active, _ = joblib.parallel.get_active_backend()
        if type(active).__name__ != "LokyBackend" or getattr(active, "backend_kwargs", None):
            return contextlib.nullcontext()
    return joblib.parallel_config(backend="loky", initializer=_worker_started,
                                  initargs=(os.getpid(),))


@contextlib.contextmanager
def _backend(backend, n_jobs, scheduler_address=None):
    """joblib parallel configuration for ``backend``.  For ``"dask"``: a
    client of the scheduler at ``scheduler_address``, else the running
    client, else one of the scheduler that dask's configuration names
    (``DASK_SCHEDULER_ADDRESS``), else a loopback cluster of ``n_jobs``
    worker processes started for this run only."""
    if scheduler_address is not None and backend != "dask":
        raise ValueError(
            f"scheduler_address={scheduler_address!r} is the address of a Dask scheduler: "
            "it needs backend='dask'."
        )
    if backend is not None and backend not in _BACKENDS:
        raise ValueError(f"backend must be one of {_BACKENDS} or None, got {backend!r}.")
    if backend in (None, "loky"):
        with _loky_workers(backend):
            yield
        return
    if backend != "dask":
        with joblib.parallel_config(backend=backend):
            yield
        return
    try:
        import dask
        import distributed
    except ImportError:
        raise ImportError(
            "backend='dask' needs dask.distributed, which is not installed: "
            "pip install 'sklearn-xai[dask]' (or 'dask[distributed]'), or use "
            "backend='loky' or 'threading'."
        ) from None
    with contextlib.ExitStack() as stack:
        if scheduler_address is not None:
            # Closing this client leaves the cluster running.
            stack.enter_context(distributed.Client(scheduler_address))
        else:
            try:
                distributed.get_client()
            except ValueError:  # no running client
                address = dask.config.get("scheduler-address", None)
                if address:
                    stack.enter_context(distributed.Client(address))
                else:  # a local cluster for this run only
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


def _run_device(device):
    """A run's ``device`` setting, resolved before any work starts.

    Returns the device's name (``"cpu"``, ``"cuda"``, ``"cuda:1"``...;
    ``"auto"`` resolved) or ``None``; a misspelt device, or a GPU torch does
    not see, raises a ``ValueError`` naming ``device`` and the fix.
    """
    device = check_device_setting(device, "device")
    if device is None:
        return None
    return str(resolve_device(device, parameter="device"))


def _check_shard_size(shard_size):
    if shard_size is None or shard_size == "auto" or (isinstance(shard_size, numbers.Integral)
                              and not isinstance(shard_size, bool) and shard_size >= 1):
        return shard_size
    raise ValueError(
        "shard_size must be 'auto', a positive int (rows explained per task) or None "
        f"(one task per cell); got {shard_size!r}."
    )


def _plan_cell(task, cached, fit, cache_dir, shard_size):
    """How a cell still to compute is computed: its row-wise and whole-cell
    metrics still missing, its row shards, the shards already done (from the
    cache) and the shard tasks to run as (rows, metrics to score, cached
    shard content)."""
    n_rows = len(fit["prepared"]["X_explain"])
    if len((cached.get("explanation") or {}).get("attributions", ())) not in (0, n_rows):
        # A row filter kept other rows than when the cell was cached (its
        # models do not refit bit for bit): the cell starts over.
        cached = {}
    missing, keys = _missing_metrics(task, cached)
    row_wise = {label: spec for label, spec in missing.items() if _row_wise(spec)}
    plan = {"row_wise": row_wise, "ranges": _shard_ranges(n_rows, shard_size), "done": {},
            "jobs": [], "cached": cached,
            "whole": any(label not in row_wise for label in missing)}
    explained = cached.get("explanation")
    if explained is not None and not row_wise:
        plan["ranges"] = []  # only whole-cell metrics to score
        return plan
    for rows in plan["ranges"]:
        shard = _read_cache(_shard_path(task, cache_dir, rows)) or {}
        shard.setdefault("metrics", {})
        if explained is not None:  # score the cached cell's attributions
            shard["explanation"] = {"attributions": explained["attributions"][rows[0]:rows[1]]}
        elif "explain_time" not in shard.get("explanation", {}):
            shard.pop("explanation", None)
        todo = {label: spec for label, spec in row_wise.items()
                if keys[label] not in shard["metrics"]}
        if "explanation" in shard and not todo:
            plan["done"][rows] = {**shard, "status": "ok"}
        else:
            plan["jobs"].append((rows, todo, shard))
    return plan


def _fit_error(task, fit):
    return {"task": task, "computed": True, "status": "error", "error": fit["error"],
            "explanation": None, "metrics": {}, "failed_in": "model",
            "warnings": list(fit["warnings"])}


def _finish_cell(task, plan, fit, cache_dir):
    """A cell whose shards are all done: its output, or the content to score
    the whole-cell metrics on (then the output is None)."""
    shards = [plan["done"][rows] for rows in plan["ranges"]]
    failed = [s for s in shards if s["status"] == "error"]
    if failed:
        warnings_ = fit["warnings"] + [w for s in shards for w in s.get("warnings", [])]
        return {"task": task, "computed": True, "status": "error", "error": failed[0]["error"],
                "explanation": None, "metrics": {}, "failed_in": failed[0]["failed_in"],
                "not_applicable": failed[0].get("not_applicable", False),
                "warnings": list(dict.fromkeys(warnings_))}, None
    content = _join_shards(task, fit["prepared"], plan["cached"], plan["row_wise"], shards)
    if any(task["metric_keys"][label] not in content["metrics"] for label in task["metrics"]):
        return None, content
    warnings_ = list(dict.fromkeys(content["warnings"] + fit["warnings"]))
    results = content["metrics"]
    out = {"task": task, "computed": True, "status": "ok", "error": "",
           "explanation": content["explanation"], "warnings": warnings_,
           "metrics": {label: results[task["metric_keys"][label]] for label in task["metrics"]}}
    path = _cell_path(task, cache_dir)
    if path is not None:
        keep = {k: v for k, v in results.items() if v["status"] != "error"}
        _write_cache(path, {"explanation": content["explanation"], "metrics": keep,
                            "warnings": warnings_})
        _remove_shards(task, cache_dir)
    return out, None


def _whole_cell(index, task, cache_dir, fit, main_pid, base, fitted):
    """The whole-cell metrics of a cell whose shards are joined (``base``),
    with the cell's fitted explainer (:func:`_fit_explainer`)."""
    start, cpu = time.time(), time.process_time()
    out = _run_cell(task, cache_dir, fit, main_pid, base, fitted)
    return index, out, {"worker": _worker_name(), "start": start, "end": time.time(),
                        "cpu": time.process_time() - cpu}


def _n_features(fit):
    X = fit["prepared"]["X_explain"]
    return int(np.prod(X.shape[1:], dtype=np.int64))


def _job_costs(tasks, fits, jobs):
    """Estimated costs (:func:`_task_cost`) of shard tasks ``jobs``, as
    ``(cell index, rows, metrics to score, cached shard content)``."""
    evaluations, costs = {}, []
    for i, rows, todo, cached in jobs:
        task = tasks[i]
        d = _n_features(fits[task["fit_key"]])
        key = (task["labels"]["explainer"], d)
        if key not in evaluations:
            evaluations[key] = _explainer_evaluations(task["explainer"], d)
        costs.append(_task_cost(rows[1] - rows[0], d, "explanation" not in cached,
                                evaluations[key], todo.values()))
    return costs


def _whole_costs(tasks, fits, whole):
    """Estimated costs of whole-cell tasks ``whole``, as ``(cell index,
    joined content)``: the metrics the content lacks, on all the rows."""
    costs = []
    for i, base in whole:
        task = tasks[i]
        fit = fits[task["fit_key"]]
        d = _n_features(fit)
        missing, _ = _missing_metrics(task, base)
        costs.append(_task_cost(len(fit["prepared"]["X_explain"]), d, False,
                                _explainer_evaluations(task["explainer"], d),
                                missing.values()))
    return costs


def _log_entry(task, kind, rows, info):
    return {**task["labels"], "task": kind, "rows": rows, "worker": info["worker"],
            "start": info["start"], "end": info["end"], "cpu": info["cpu"]}


def run_benchmark(benchmark, *, n_jobs=None, backend=None, cache_dir=None, verbose=0,
                  shard_size="auto", scheduler_address=None, device=None):
    """Run every cell of a benchmark and collect the results.

    A cell is one (dataset, model, explainer, seed).  Each (dataset, model,
    seed) is drawn and fitted once, with the explainers of its cells (each
    fitted once per run, whatever ``n_jobs``), then the explained rows of
    each cell are cut into *row shards* of ``shard_size`` rows, each one parallel task
    that explains its rows and scores the row-wise metrics on them.  Every
    explainer and metric draws a row's random numbers from a stream keyed by
    the row's values, so the joined shards are the unsharded cell, value for
    value.  Metrics whose score of a row depends on other rows (one value per
    dataset, retraining on explained training rows such as ROAR, group gaps,
    a benchmark code's convention that pools or numbers the rows) are scored
    on the whole cell once its shards are joined, in a second round of tasks.
    A dataset with an ``explain_rows`` filter (see :class:`BenchmarkSpec`)
    explains only the candidate rows every model of its ``correct_by``
    classifies correctly: those models are fitted first, whether or not
    their own cells are cached, and the kept rows are then sharded as usual.

    Every explainer of a (dataset, model, seed) is scored on one explained
    output: the metrics read ``target`` and ``output`` from the explainer,
    and an explainer that sets neither (the random control, an edge filter)
    is scored on the output the other explainers explain (an explainer set
    to ``output="margin"`` makes the control's scores margins too).  When
    the other explainers explain different outputs, the control's scores
    are errors saying so: give every explainer the same ``output``.

    Parameters
    ----------
    benchmark : BenchmarkSpec, dict, str or path-like
        The spec, a config dict (see :meth:`BenchmarkSpec.from_dict`), a preset
        name (:func:`list_presets`) or a YAML/JSON config file.
    n_jobs : int, default=None
        Tasks run in parallel (joblib's meaning: ``None`` is 1 unless a
        ``joblib.parallel_config`` says otherwise, ``-1`` all cores).  With
        Dask, every worker thread of the cluster is used.
    backend : {"loky", "threading", "sequential", "dask"}, default=None
        joblib backend; ``None`` uses the active ``joblib.parallel_config``
        (loky by default).  ``"dask"`` needs ``dask.distributed``; it uses the
        cluster at ``scheduler_address``, else the running
        ``distributed.Client``, else the scheduler named by dask's
        configuration (the ``DASK_SCHEDULER_ADDRESS`` environment variable),
        else starts a loopback cluster of ``n_jobs`` worker processes for
        this run and shuts it down afterwards.
    cache_dir : str or path-like, default=None
        Folder of the cache: one ``.npz`` file of numbers and JSON per cell
        (and per row shard while its cell is unfinished), never read with
        pickle.  With a cache, an interrupted run resumes with every finished
        shard kept, and a rerun recomputes nothing; failed cells are retried.
        Cells are keyed by their spec and the package version, not by the
        code: after editing an explainer or metric, clear the folder (or pass
        ``None``).  ``None`` computes everything.
    verbose : int, default=0
        Show a progress bar (tqdm) of the tasks when > 0.
    shard_size : "auto", int or None, default="auto"
        Explained rows per task.  ``"auto"`` cuts a cell into at most 8
        shards of at least 10 rows (50 explained rows: 5 shards of 10);
        ``None`` makes each cell one task.  It changes how the work is
        spread, never the results.  Tasks are submitted longest first, by
        their cost estimated in model evaluations (see the user guide).
    scheduler_address : str, default=None
        Address of a running Dask scheduler (``"tcp://host:8786"``) to run
        the tasks on; needs ``backend="dask"``.  The cluster is left running.
    device : {"auto", "cpu", "cuda", "cuda:N"} or None, default=None
        Where the run's torch models train and run (every net with a
        ``device`` parameter, fitted ones moved there; see
        :class:`BenchmarkSpec`'s ``device``); ``None`` uses the spec's
        ``device``, and leaves each model's own when that is ``None`` too.
        A GPU torch does not see is refused before any work starts.  Not
        part of the cache keys (scores do not depend on the device); the
        device used is recorded in ``results.spec["device"]``.  See
        :ref:`gpu`.

    Returns
    -------
    results : BenchmarkResults
        The tidy results table (:attr:`BenchmarkResults.table`), per-row
        scores, and the leaderboard / report methods.  Its ``task_log``
        attribute (a DataFrame, not saved with the results) has one row per
        task this run computed: cell labels, ``task`` ("shard" or "cell"),
        ``rows`` (start, stop), ``worker`` (host:pid), ``start`` / ``end``
        (epoch seconds) and ``cpu`` (CPU seconds of the worker process
        during the task), to see how the work spread over the workers.
        Its ``attributions`` attribute (a dict, not saved either) maps
        ``(dataset, model, explainer, seed)`` labels to the attributions of
        the cell's explained rows, for every cell that has them, computed or
        cached (:func:`explanation_figures` reuses them).

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
    >>> sorted(results.task_log["rows"])  # 4 cells x 20 rows, in shards of 10
    [(0, 10), (0, 10), (0, 10), (0, 10), (10, 20), (10, 20), (10, 20), (10, 20)]
    """
    spec = _as_spec(benchmark)
    spec.validate_names()
    shard_size = _check_shard_size(shard_size)
    device = _run_device(spec.device if device is None else device)
    if scheduler_address is not None and backend != "dask":
        raise ValueError(
            f"scheduler_address={scheduler_address!r} is the address of a Dask scheduler: "
            "it needs backend='dask'."
        )
    tasks = _tasks(spec, device)
    if cache_dir is not None:
        cache_dir = os.fspath(cache_dir)
        try:
            for folder in ("cells", "shards"):
                if os.path.islink(os.path.join(cache_dir, folder)):
                    raise ValueError(
                        f"cache_dir={cache_dir!r}: {folder}/ is a symbolic link; the "
                        "cache is never written through a link: remove it, or give "
                        "another cache_dir.")
                os.makedirs(os.path.join(cache_dir, folder), exist_ok=True)
        except OSError as exc:
            raise ValueError(
                f"cache_dir={cache_dir!r} cannot be created ({exc.strerror or exc}); "
                "give a folder you can write, or cache_dir=None."
            ) from None
    import pandas as pd
    from tqdm.auto import tqdm

    start = time.perf_counter()
    outputs, log = [], []
    groups, complete, cached_cells = _fit_groups(tasks, cache_dir)
    main_pid = os.getpid()
    if verbose:
        print(f"{spec.name}: {len(tasks)} cells, {len(complete)} in the cache, "
              f"{len(tasks) - len(complete)} to compute ({len(groups)} datasets x "
              "models x seeds to draw and fit)", file=sys.stderr)
    done = set(complete)
    todo = [i for i in range(len(tasks)) if i not in done]
    with _backend(backend, n_jobs, scheduler_address):
        try:
            # Cells fully in the cache are read here: no worker starts for them.
            for i in complete:
                outputs.append((i, _run_cell(tasks[i], cache_dir, base=cached_cells[i])))
            # Each (dataset, model, seed) is drawn and fitted once, with the
            # exact Shapley references its cells need, and handed to the
            # tasks of its cells as an argument.
            # The workers start with the fit phase, and those left without a
            # fit import what the tasks need meanwhile (_warm_worker).
            warm = _warm_up_calls([tasks[i] for i in todo], n_jobs, main_pid) if groups \
                else []
            fitted = joblib.Parallel(n_jobs=n_jobs, batch_size=1)(
                [*warm, *(joblib.delayed(_fit)(*group[:4], main_pid, group[4], device)
                          for group in groups.values())])
            fits = dict(zip(groups, fitted[len(warm):]))
            # The cells' fitted explainers travel with their own tasks only.
            explainers = {i: e for fit in fits.values() for i, e in fit.pop("explainers").items()}
            _filter_rows(fits, [tasks[i] for i in todo])
            plans, jobs = {}, []
            for i in todo:
                fit = fits[tasks[i]["fit_key"]]
                if fit["error"]:
                    outputs.append((i, _fit_error(tasks[i], fit)))
                    continue
                plans[i] = _plan_cell(tasks[i], cached_cells[i], fit, cache_dir, shard_size)
                jobs += [(i, *job) for job in plans[i]["jobs"]]
            jobs = _longest_first(jobs, _job_costs(tasks, fits, jobs))
            n_shards = sum(len(p["ranges"]) for p in plans.values())
            n_whole = sum(p["whole"] for p in plans.values())
            if verbose and plans:
                print(f"{spec.name}: {n_shards} row shards, "
                      f"{n_shards - len(jobs)} in the cache, {len(jobs)} to compute; "
                      f"{n_whole} cells with metrics scored on the whole cell",
                      file=sys.stderr)
            whole = []

            def finish(i):
                out, base = _finish_cell(tasks[i], plans[i], fits[tasks[i]["fit_key"]],
                                         cache_dir)
                if out is not None:
                    outputs.append((i, out))
                    explainers.pop(i, None)
                else:
                    whole.append((i, base))

            with tqdm(total=len(jobs) + n_whole, disable=not (verbose and plans), desc=spec.name,
                      unit="task") as bar:
                for i, plan in plans.items():
                    if not plan["jobs"]:
                        finish(i)
                if jobs:
                    shards = joblib.Parallel(n_jobs=n_jobs, batch_size=1,
                                             return_as="generator_unordered")(
                        joblib.delayed(_run_shard)(i, tasks[i], cache_dir,
                                                   fits[tasks[i]["fit_key"]], rows, todo_i,
                                                   cached, explainers[i], main_pid)
                        for i, rows, todo_i, cached in jobs)
                    for i, rows, out in shards:
                        bar.update(1)
                        log.append(_log_entry(tasks[i], "shard", rows, out))
                        plans[i]["done"][rows] = out
                        if len(plans[i]["done"]) == len(plans[i]["ranges"]):
                            finish(i)
                # Metrics that need all the rows of a cell at once.
                bar.total = bar.n + len(whole)
                bar.refresh()
                if whole:
                    whole = _longest_first(whole, _whole_costs(tasks, fits, whole))
                    cells = joblib.Parallel(n_jobs=n_jobs, batch_size=1,
                                            return_as="generator_unordered")(
                        joblib.delayed(_whole_cell)(i, tasks[i], cache_dir,
                                                    fits[tasks[i]["fit_key"]], main_pid, base,
                                                    explainers[i])
                        for i, base in whole)
                    for i, out, info in cells:
                        explainers.pop(i, None)
                        bar.update(1)
                        log.append(_log_entry(tasks[i], "cell", None, info))
                        if out["status"] == "ok":
                            _remove_shards(tasks[i], cache_dir)
                        outputs.append((i, out))
        except KeyboardInterrupt:
            raise BenchmarkInterrupted(len(outputs), len(tasks), cache_dir) from None
    outputs = [out for _, out in sorted(outputs, key=lambda pair: pair[0])]
    wall_time = time.perf_counter() - start
    from sklearn_xai.benchmark._results import BenchmarkResults

    results = BenchmarkResults.from_cells(spec, outputs, wall_time=wall_time)
    results.spec["device"] = device  # provenance: the device used (None: the models')
    results.task_log = pd.DataFrame(log, columns=["dataset", "model", "explainer", "seed",
                                                  "task", "rows", "worker", "start", "end",
                                                  "cpu"])
    results.attributions = {
        tuple(out["task"]["labels"][k] for k in ("dataset", "model", "explainer", "seed")):
            out["explanation"]["attributions"]
        for out in outputs if (out.get("explanation") or {}).get("attributions") is not None}
    return results
