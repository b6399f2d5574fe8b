"""Properties every registered metric shares, checked over the registry.

Parametrised over :func:`~sklearn_xai.metrics.metric_specs` (every metric,
no hand list); each metric's requirements are supplied from its registry
entry by the shared ``metric_args`` fixture (conftest.py), as the benchmark
runner supplies them.

* the registry describes the function: its signature family (``kind``),
  what it requires (``requires`` names exactly the bindings its signature
  takes), its parameter validation (every parameter constrained, every
  default valid; ``test_param_validation.py`` checks the error messages);
* the output: one float64 score per row for per-row metrics, a float for
  dataset-level ones;
* inputs are never modified (X, attributions, ground truth, training data),
  and read-only inputs are accepted;
* a dataset-level score does not depend on the order of the rows or on
  ``batch_size``.  For per-row metrics, row order (permuting rows permutes
  the scores), ``batch_size``, a row scored alone versus in a batch, and the
  input dtype are checked by ``test_row_independence.py``;
* the scorer: ``scorer(estimator, X, **metadata)`` is the mean of the
  direct call, negated for losses, and ``score_attributions`` returns the
  direct call's per-row values;
* naming: losses, and only losses, carry ``neg_`` (the functions keep the
  plain name).
"""

import inspect
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from sklearn_xai.metrics import get_scorer, metric_specs
from sklearn_xai.metrics._registry import _BINDING_PARAMS
from sklearn_xai.utils._sklearn import validate_parameter_constraints

SPECS = metric_specs()
N_ROWS = 8  # rows scored by the checks below (cheap, several blocks apart)

# The leading positional parameters of each signature family.
_POSITIONAL = {
    "reference": ("ground_truth", "attributions"),
    "model": ("estimator", "X", "attributions"),
    "attributions": ("attributions",),
}


TASK = "classifier"  # model-based metrics score the logistic regression


def _ids(spec):
    return spec.name


@pytest.fixture(autouse=True)
def _quiet_undefined_rows():
    # Rows without a defined score are NaN with a warning: not what is
    # checked here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        yield


def _direct(spec, metric_args, rows=None, **extra):
    """The metric called directly on the first ``N_ROWS`` rows."""
    rows = np.arange(N_ROWS) if rows is None else rows
    kwargs = {**metric_args.kwargs(spec, TASK), **extra}
    return metric_args.call(spec, TASK, rows, kwargs)


# --------------------------------------------------------- the registry entry
def test_registry_lists_every_metric():
    names = {spec.name for spec in SPECS}
    assert {"pgi", "neg_auc_tp", "feature_agreement", "sparseness",
            "roar_faith_plus", "emd_score"} <= names
    assert len(names) == len(SPECS)


@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_kind_matches_the_signature(spec):
    params = list(inspect.signature(spec.func).parameters)
    expected = _POSITIONAL[spec.kind]
    assert tuple(params[:len(expected)]) == expected


@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_requires_names_exactly_the_bindings_the_signature_takes(spec):
    """Every binding parameter of the function (``masker``, ``X_train``,
    ``random_state``, ...) is declared in ``spec.requires``, and every
    declared binding is a parameter: the runner and the scorers bind
    arguments from the spec alone."""
    params = set(inspect.signature(spec.func).parameters)
    for need in spec.requires:
        names = _BINDING_PARAMS[need]
        if need == "training_data":  # all three: ROAR retrains on them
            assert set(names) <= params, (spec.name, need)
        elif not names:  # a condition on the model ("classifier"), no binding
            continue
        else:
            assert params & set(names), (spec.name, need)
    declared = set().union(*(_BINDING_PARAMS[r] for r in spec.requires))
    undeclared = (set().union(*_BINDING_PARAMS.values()) & params) - declared
    assert not undeclared, (
        f"{spec.name} takes {sorted(undeclared)}: declare the binding in its "
        "register_metric(requires=...)")


@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_parameters_are_validated_and_defaults_are_valid(spec):
    constraints = getattr(spec.func, "_skl_parameter_constraints", None)
    assert constraints is not None, f"{spec.name}: decorate it with validate_params"
    params = inspect.signature(spec.func).parameters
    assert set(constraints) == set(params), (
        f"{spec.name}: constraints and parameters differ: "
        f"{sorted(set(constraints) ^ set(params))}")
    defaults = {name: p.default for name, p in params.items()
                if p.default is not inspect.Parameter.empty}
    validate_parameter_constraints(constraints, defaults,
                                   caller_name=spec.func.__qualname__)


@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_losses_and_only_losses_are_named_neg(spec):
    assert spec.greater_is_better != spec.name.startswith("neg_")
    assert not spec.func.__name__.startswith("neg_")  # functions keep the plain name


# ------------------------------------------------------------------- output
@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_output_is_one_float_per_row_or_one_float(spec, metric_args):
    out = _direct(spec, metric_args)
    if spec.per_instance:
        assert isinstance(out, np.ndarray)
        assert out.shape == (N_ROWS,) and out.dtype == np.float64
    else:
        assert isinstance(out, float | np.floating) and np.ndim(out) == 0


@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_inputs_are_not_modified_and_may_be_read_only(spec, metric_args):
    rows = np.arange(N_ROWS)
    task = TASK
    X = metric_args.problem["X"][rows].copy()
    A = metric_args.attributions(task)[rows].copy()
    meta = {k: v.copy() for k, v in metric_args.metadata(spec, rows).items()}
    kwargs = metric_args.kwargs(spec, task)
    arrays = {k: v.copy() for k, v in kwargs.items() if isinstance(v, np.ndarray)}
    kwargs.update(arrays)
    originals = {"X": X.copy(), "attributions": A.copy(),
                 **{k: v.copy() for k, v in meta.items()},
                 **{k: v.copy() for k, v in arrays.items()}}

    first = metric_args.call(spec, task, rows, kwargs, X=X, attributions=A, metadata=meta)
    given = {"X": X, "attributions": A, **meta, **arrays}
    for name, value in given.items():
        np.testing.assert_array_equal(value, originals[name],
                                      err_msg=f"{spec.name} modified {name}")

    for value in given.values():
        value.setflags(write=False)
    again = metric_args.call(spec, task, rows, kwargs, X=X, attributions=A,
                             metadata=meta)
    np.testing.assert_allclose(again, first, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("spec", [s for s in SPECS if not s.per_instance], ids=_ids)
def test_dataset_level_scores_ignore_row_order_and_batch_size(spec, metric_args):
    rows = np.arange(N_ROWS)
    ref = _direct(spec, metric_args, rows)
    perm = np.random.default_rng(0).permutation(rows)
    np.testing.assert_allclose(_direct(spec, metric_args, perm), ref, rtol=1e-12,
                               err_msg=f"{spec.name}: row order")
    if "batch_size" in inspect.signature(spec.func).parameters:
        np.testing.assert_allclose(_direct(spec, metric_args, rows, batch_size=7), ref,
                                   rtol=1e-12, err_msg=f"{spec.name}: batch_size")


# ------------------------------------------------------------------- scorer
@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_scorer_is_the_oriented_mean_of_the_direct_call(spec, metric_args):
    rows = np.arange(N_ROWS)
    task = TASK
    model, explainer, _ = metric_args.models[task]
    X = metric_args.problem["X"][rows]
    meta = metric_args.metadata(spec, rows)
    direct = _direct(spec, metric_args, rows)
    scorer = get_scorer(spec.name, **metric_args.kwargs(spec, task))

    # The scorer explains X with the explainer (deterministic here, so the
    # attributions are those of the direct call).
    value = scorer(explainer, X, **meta)
    mean = float(np.nanmean(direct)) if spec.per_instance else float(direct)
    sign = 1.0 if spec.greater_is_better else -1.0
    np.testing.assert_allclose(value, sign * mean, rtol=1e-10, equal_nan=True)

    np.testing.assert_allclose(scorer.per_row(explainer, X, **meta), direct,
                               rtol=1e-10, equal_nan=True)
    given = scorer.score_attributions(model, X, metric_args.attributions(task)[rows],
                                      explainer=explainer, **meta)
    np.testing.assert_allclose(given, direct, rtol=1e-10, equal_nan=True)


# ------------------------------------------------------------ unfitted model
@pytest.mark.parametrize("spec", SPECS, ids=_ids)
def test_an_unfitted_model_raises_not_fitted_error(spec, metric_args):
    """Every metric that takes a model refuses an unfitted one with
    sklearn's ``NotFittedError`` (never an ``AttributeError`` on
    ``classes_``); the other metrics take no model."""
    if spec.kind != "model":
        assert "estimator" not in inspect.signature(spec.func).parameters
        return
    model = clone(metric_args.models[TASK][0])  # the same classifier, unfitted
    rows = np.arange(N_ROWS)
    with pytest.raises(NotFittedError, match="LogisticRegression"):
        metric_args.call(spec, TASK, rows, metric_args.kwargs(spec, TASK),
                         model=model)
