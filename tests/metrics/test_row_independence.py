"""A row's score depends only on the row (issue #13, item 3).

Common test over every registered per-row metric: the score of row ``i``
depends on the row, the model, the explainer, the parameters and
``random_state``, never on which other rows share its batch, their order,
``batch_size``, ``n_jobs`` or the input dtype.  Metrics are taken from the
registry (``metric_specs()``); dataset-level metrics are excluded by their
``per_instance`` flag, not by a hand list.

Every requirement (``spec.requires``) is supplied the way the benchmark
runner supplies it, by the shared ``metric_args`` fixture (conftest.py):
maskers fitted on the training rows, the data distribution, the fitted
explainer, and training rows / training attributions for the ROAR metrics.
The other properties every metric shares (shapes, no mutation, scorer =
direct call, defaults, naming) are checked in ``test_common.py``.
Metrics that take training rows for their noise scale (``X_train``: PGI, PGU,
infidelity, max-sensitivity) are checked both without them (their defaults,
which used to be fitted on the scored rows) and with them.
"""

import inspect

import joblib
import numpy as np
import pytest

from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics import metric_specs

# Tolerances: identical computations up to floating-point rounding of the
# model calls on blocks of different sizes.
RTOL, ATOL = 1e-10, 1e-13
# The relative-stability ratios divide explanation and output differences
# between a row and neighbours only sigma = 1e-5 away: rounding of the model
# calls (about 1e-16, different for blocks of different sizes) is amplified
# by about 1 / sigma, to 1e-11 .. 1e-9 relative.  A score that depended on
# the other rows would move far more (10% before issue #13 was fixed).
_RTOL = {"neg_ris": 1e-7, "neg_rrs": 1e-7, "neg_ros": 1e-7}

N_EXPLAIN = 50  # the explained rows of the shared problem (conftest.py)


def _accepts(func, name):
    return name in inspect.signature(func).parameters


def _per_row_specs():
    specs = [s for s in metric_specs() if s.per_instance]
    assert {"pgi", "neg_pgu", "neg_infidelity"} <= {s.name for s in specs}
    return specs


def _scorer(spec, metric_args, task, with_train=False):
    """score(rows, cast=None, **extra) -> per-row scores of those rows; ``cast``
    converts the arrays (rows, attributions, ground truth) passed in.  The
    problem, models and the metric's requirements come from the shared
    ``metric_args`` fixture (conftest.py), bound as the runner binds them."""
    kw = metric_args.kwargs(spec, task, with_train=with_train)
    X = metric_args.problem["X"]
    A = metric_args.attributions(task)

    def score(rows, cast=None, **extra):
        rows = np.asarray(rows)
        cast = cast or (lambda a: a)
        meta = metric_args.metadata(spec, rows)
        if "ground_truth" in meta:
            meta["ground_truth"] = cast(meta["ground_truth"])
        return np.asarray(metric_args.call(spec, task, rows, {**kw, **extra},
                                           X=cast(X[rows]), attributions=cast(A[rows]),
                                           metadata=meta))

    return score


def _cases():
    # Every metric on the classifier.  On the regressor, the first metric of
    # each family in the default run (the regressor's output path, once per
    # family) and the others with -m slow: a row's key, and so its draws, do
    # not depend on the task.
    regressor_families = set()
    for spec in _per_row_specs():
        tasks = (("classifier",) if spec.kind != "model" or "classifier" in spec.requires
                 else ("classifier", "regressor"))
        # Training rows as an option of the noise scale (not ROAR's training set).
        optional_train = "training_rows" in spec.requires
        for task in tasks:
            marks = ()
            if task == "regressor":
                if spec.family in regressor_families:
                    marks = pytest.mark.slow
                regressor_families.add(spec.family)
            yield pytest.param(spec, task, False, id=f"{spec.name}-{task}", marks=marks)
            if optional_train:
                yield pytest.param(spec, task, True, id=f"{spec.name}-{task}-X_train",
                                   marks=marks)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec, task, with_train", list(_cases()))
def test_score_of_a_row_does_not_depend_on_the_other_rows(spec, task, with_train,
                                                          metric_args):
    score = _scorer(spec, metric_args, task, with_train)
    everything = np.arange(N_EXPLAIN)
    ref = score(everything)
    assert ref.shape == (N_EXPLAIN,)

    rtol = _RTOL.get(spec.name, RTOL)

    def same(actual, rows, what):
        np.testing.assert_allclose(actual, ref[rows], rtol=rtol, atol=ATOL,
                                   err_msg=f"{spec.name} ({task}): {what}")

    # Alone, among 5 rows and among 50 in a permuted order.
    for i in (0, 17):
        same(score([i]), [i], f"row {i} scored alone")
    same(score(np.arange(5)), np.arange(5), "first 5 rows")
    perm = np.random.default_rng(0).permutation(N_EXPLAIN)
    same(score(perm), perm, "permuted rows")
    # Batch size, worker count and dtype are not part of the score (checked
    # on 12 rows: enough for several blocks, cheaper).
    some = np.arange(12)
    if _accepts(spec.func, "batch_size"):
        same(score(some, batch_size=101), some, "batch_size=101")
    if _accepts(spec.func, "n_jobs"):
        with joblib.parallel_config(backend="threading"):
            same(score(some, n_jobs=2), some, "n_jobs=2")
    # float32 input scores as its float64 value.
    f32 = score(some, cast=lambda a: a.astype(np.float32))
    f64 = score(some, cast=lambda a: a.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(f32, f64, rtol=rtol, atol=ATOL,
                               err_msg=f"{spec.name} ({task}): float32 vs float64")


# ------------------------------------------------------------------ maskers
# An unfitted masker used to be fitted on the scored rows: with
# BaselineMasker("mean") the comprehensiveness of one row was 0.54 among 50
# rows, 0.34 among 5 and 0.0 alone.  It is now fitted on X_train, and without
# training rows only a masker that learns nothing from data is accepted.
def _masker_cases(one_task=False):
    for spec in _per_row_specs():
        if spec.kind != "model" or not _accepts(spec.func, "masker") \
                or "training_data" in spec.requires:  # ROAR: its own X_train
            continue
        one = one_task or "classifier" in spec.requires
        for task in ("classifier",) if one else ("classifier", "regressor"):
            yield pytest.param(spec, task, id=f"{spec.name}-{task}")


def _masker_scorer(spec, metric_args, task, **masker_kw):
    """score(rows) of a model metric whose value function is given by
    ``masker_kw`` (``masker=``, ``X_train=``)."""
    kw = metric_args.kwargs(spec, task)
    kw.pop("distribution", None)  # the masker defines the value function
    kw.update(masker_kw)
    return lambda rows: np.asarray(metric_args.call(spec, task, np.asarray(rows), kw))


def test_masker_cases_cover_the_masker_metrics():
    names = {p.values[0].name for p in _masker_cases(one_task=True)}
    assert {"comprehensiveness", "neg_sufficiency", "faithfulness_correlation",
            "monotonicity", "faith_plus", "faith_minus", "mono_plus", "mono_minus",
            "shapley_corr", "neg_shapley_mse"} <= names


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec, task", list(_masker_cases()))
def test_unfitted_masker_is_fitted_on_the_training_rows(spec, task, metric_args):
    X_train = metric_args.problem["X_train"]
    score = _masker_scorer(spec, metric_args, task,
                           masker=BaselineMasker("mean"), X_train=X_train)
    everything = np.arange(N_EXPLAIN)
    ref = score(everything)
    # ... exactly as the masker fitted on the training rows by hand
    fitted = _masker_scorer(spec, metric_args, task,
                            masker=BaselineMasker("mean").fit(X_train))
    np.testing.assert_allclose(fitted(everything), ref, rtol=RTOL, atol=ATOL)

    def same(actual, rows, what):
        np.testing.assert_allclose(actual, ref[rows], rtol=RTOL, atol=ATOL,
                                   err_msg=f"{spec.name} ({task}): {what}")

    for i in (0, 17):
        same(score([i]), [i], f"row {i} scored alone")
    same(score(np.arange(5)), np.arange(5), "first 5 rows")
    perm = np.random.default_rng(1).permutation(N_EXPLAIN)
    same(score(perm), perm, "permuted rows")


@pytest.mark.parametrize("spec, task", list(_masker_cases(one_task=True)))
def test_unfitted_masker_learning_from_data_needs_training_rows(spec, task,
                                                                 metric_args):
    score = _masker_scorer(spec, metric_args, task, masker=BaselineMasker("mean"))
    with pytest.raises(ValueError, match=r"BaselineMasker\(value='mean'\).*"
                                         r"masker\.fit\(X_train\).*X_train=<training"):
        score([0])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec, task", list(_masker_cases(one_task=True)))
def test_data_free_masker_needs_no_training_rows(spec, task, metric_args):
    X_train = metric_args.problem["X_train"]
    baseline = X_train.mean(axis=0)  # a given array: nothing to learn
    rows = np.arange(8)
    unfitted = _masker_scorer(spec, metric_args, task, masker=BaselineMasker(baseline))
    fitted = _masker_scorer(spec, metric_args, task,
                            masker=BaselineMasker("mean").fit(X_train))
    ref = unfitted(rows)
    np.testing.assert_allclose(ref, fitted(rows), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(unfitted([3]), ref[[3]], rtol=RTOL, atol=ATOL)


def test_dataset_level_auc_tp_masker_resolution(metric_args):
    from sklearn_xai.metrics import auc_tp

    model, explainer, _ = metric_args.models["classifier"]
    X, X_train = metric_args.problem["X"], metric_args.problem["X_train"]
    A = metric_args.attributions("classifier")
    with pytest.raises(ValueError, match=r"masker\.fit\(X_train\)"):
        auc_tp(model, X, A, masker=BaselineMasker("median"))
    assert auc_tp(model, X, A, masker=BaselineMasker("median"), X_train=X_train) \
        == auc_tp(model, X, A, masker=BaselineMasker("median").fit(X_train))
