"""The runner's cross-model row filter and true-class target (``explain_rows``).

A hand-built data set and two threshold classifiers that err on known rows:
the explained rows must be exactly those every model of ``correct_by``
classifies correctly, the same for every cell of the data set; the true-class
target must explain the true class (closed form), and a row's score must not
depend on which other rows are kept.
"""

import glob
import os

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import Bunch

from sklearn_xai.benchmark import BenchmarkSpec, run_benchmark
from sklearn_xai.benchmark._cache import read_cell

N_TRAIN, N_TEST = 20, 20
# Test positions each model classifies wrongly.
WRONG = {"a": {1, 4, 7}, "b": {4, 10, 15}}
ZERO = {"name": "BaselineMasker", "params": {"value": "zero"}}


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


class ColumnClassifier(ClassifierMixin, BaseEstimator):
    """P(class 1 | x) = sigmoid(x[column]): predicts class 1 iff x[column] > 0."""

    def __init__(self, column=0):
        self.column = column

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict_proba(self, X):
        p = _sigmoid(np.asarray(X, dtype=np.float64)[:, self.column])
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


def toy_rows(random_state=None):
    """40 rows, 3 features; rows 20-39 are the test rows.  Column 0 gives
    the class except on the test positions WRONG["a"], column 1 except on
    WRONG["b"]; column 2 is noise."""
    rng = np.random.default_rng(0)
    n = N_TRAIN + N_TEST
    y = np.arange(n) % 2
    sign = 2.0 * y - 1.0
    X = np.column_stack([sign * rng.uniform(0.5, 2.0, n), sign * rng.uniform(0.5, 2.0, n),
                         rng.uniform(0.5, 2.0, n)])
    for column, label in ((0, "a"), (1, "b")):
        X[[N_TRAIN + i for i in WRONG[label]], column] *= -1
    return Bunch(data=X, target=y, train_indices=np.arange(N_TRAIN),
                 test_indices=np.arange(N_TRAIN, n))


def _spec(explain_rows, explainers=None, metrics=None, n_explain=16, dataset=None):
    return BenchmarkSpec(
        datasets={"toy": {"name": toy_rows, "task": "classification", **(dataset or {})}},
        models={"a": {"name": ColumnClassifier, "params": {"column": 0}},
                "b": {"name": ColumnClassifier, "params": {"column": 1}}},
        explainers=explainers or {"input": "InputAttribution"},
        metrics=metrics or ["neg_complexity"], seeds=[0], n_explain=n_explain,
        explain_rows=explain_rows)


def _attributions(cache_dir):
    """(model label -> attributions) of the cached cells, keyed by the
    model's column through the attributions' shapes."""
    return [read_cell(path)["explanation"]["attributions"]
            for path in sorted(glob.glob(os.path.join(cache_dir, "cells", "*.npz")))]


@pytest.mark.parametrize("correct_by, wrong", [
    ("all_models", WRONG["a"] | WRONG["b"]),
    (["a"], WRONG["a"]),
    (["b"], WRONG["b"]),
])
def test_only_rows_every_model_classifies_correctly_are_explained(tmp_path, correct_by,
                                                                  wrong):
    data = toy_rows()
    kept = [i for i in range(16) if i not in wrong]
    results = run_benchmark(_spec({"correct_by": correct_by}), cache_dir=tmp_path,
                            shard_size=5)
    table = results.table
    assert (table["status"] == "ok").all(), table["error"].tolist()
    assert (table["n_rows"] == len(kept)).all()
    X = data.data[N_TRAIN:][kept]
    expected = X / X.sum(axis=1, keepdims=True)  # InputAttribution: x / sum x
    cells = _attributions(tmp_path)
    assert len(cells) == 2  # one per model, the same rows for both
    for A in cells:
        np.testing.assert_allclose(A, expected, rtol=1e-12)


def test_per_dataset_option_and_exclusion_of_a_model():
    """A dataset's own explain_rows replaces the benchmark's: the model 'a'
    counts on one data set only (as XAI-TRIS counts its linear model in the
    linear scenario only)."""
    spec = BenchmarkSpec(
        datasets={"with_a": {"name": toy_rows, "task": "classification"},
                  "without_a": {"name": toy_rows, "task": "classification",
                                "explain_rows": {"correct_by": ["b"]}}},
        models={"a": {"name": ColumnClassifier, "params": {"column": 0}},
                "b": {"name": ColumnClassifier, "params": {"column": 1}}},
        explainers={"input": "InputAttribution"}, metrics=["neg_complexity"], seeds=[0],
        n_explain=16, explain_rows={"correct_by": "all_models", "target": "true"})
    assert spec.explained_rows("with_a") == {"correct_by": ["a", "b"], "target": "true"}
    assert spec.explained_rows("without_a") == {"correct_by": ["b"], "target": "predicted"}
    table = run_benchmark(spec).table.set_index("dataset")
    n_both = 16 - len({i for i in WRONG["a"] | WRONG["b"] if i < 16})
    n_b = 16 - len({i for i in WRONG["b"] if i < 16})
    assert (table.loc["with_a", "n_rows"] == n_both).all()
    assert (table.loc["without_a", "n_rows"] == n_b).all()


def test_true_target_explains_the_true_class(tmp_path):
    """Model 'a' is not in the filter, so it misclassifies kept rows 1 and
    7.  Zero-baseline occlusion of P(class c | x) = sigmoid(+-x_0) has the
    closed form a_0 = P_c(x) - 1/2, the other features 0: explaining the
    true class flips the sign on the rows 'a' misclassifies, explaining the
    predicted class does not."""
    data = toy_rows()
    kept = [i for i in range(16) if i not in WRONG["b"]]
    x0, y = data.data[N_TRAIN:, 0][kept], data.target[N_TRAIN:][kept]
    p1 = _sigmoid(x0)
    explainers = {"ablation": {"name": "FeatureAblation", "params": {"masker": ZERO}}}
    for target, cls in (("true", y), ("predicted", (x0 > 0).astype(int))):
        assert (target == "predicted") or (cls != (x0 > 0)).sum() == 2
        cache = tmp_path / target
        results = run_benchmark(_spec({"correct_by": ["b"], "target": target},
                                      explainers=explainers, metrics=["pgi"]),
                                cache_dir=cache, shard_size=4)
        assert (results.table["status"] == "ok").all(), results.table["error"].tolist()
        # Model a's cell: the attributions on column 0 (model b's on column 1).
        (A,) = [A for A in _attributions(cache) if np.any(A[:, 0] != 0)]
        np.testing.assert_allclose(A[:, 0], np.where(cls == 1, p1 - 0.5, 0.5 - p1),
                                   rtol=1e-12)
        np.testing.assert_array_equal(A[:, 1:], 0.0)


def test_scores_of_a_row_do_not_depend_on_the_kept_rows():
    """Stochastic explainer and metric: the kept rows' per-row scores equal
    those of the unfiltered run on the same rows."""
    explainers = {"kernel_shap": {"name": "KernelSHAP", "params": {
        "n_perturbations": 16, "masker": {"name": "MarginalMasker",
                                          "params": {"background": 5}}}}}
    metrics = {"pgi": {"name": "pgi", "params": {"n_perturbations": 6}}}
    full = run_benchmark(_spec(None, explainers, metrics), shard_size=3).per_row
    kept = [i for i in range(16) if i not in WRONG["a"] | WRONG["b"]]
    part = run_benchmark(_spec({"correct_by": "all_models"}, explainers, metrics),
                         shard_size=None).per_row
    for model in ("a", "b"):
        f = full[full["model"] == model].sort_values("row")["value"].to_numpy()
        p = part[part["model"] == model].sort_values("row")["value"].to_numpy()
        np.testing.assert_allclose(p, f[kept], rtol=1e-12)
        assert not np.allclose(f[kept], f[:len(kept)])  # the check can fail


def test_filter_is_part_of_the_cell_key(tmp_path):
    """A cached run resumes; changing a filter model's parameters (hence the
    kept rows) recomputes the cells instead of reusing them."""
    first = run_benchmark(_spec({"correct_by": "all_models"}), cache_dir=tmp_path)
    again = run_benchmark(_spec({"correct_by": "all_models"}), cache_dir=tmp_path)
    assert again.table["cached"].all() and not first.table["cached"].any()
    spec = _spec({"correct_by": ["b"]})
    spec.models["b"]["params"]["column"] = 0  # 'b' now errs where 'a' does
    changed = run_benchmark(spec, cache_dir=tmp_path)
    assert not changed.table["cached"].any()
    assert (changed.table["n_rows"] == 16 - len(WRONG["a"])).all()


@pytest.mark.parametrize("option, match", [
    ("all_models", "must be a dict or None"),
    ({"correct_by": ["c"]}, r"names \['c'\], which are not model labels"),
    ({"correct_by": []}, "non-empty list of model labels"),
    ({"rows": 3}, "unknown keys"),
    ({"target": "label"}, "'predicted' or 'true'"),
])
def test_invalid_options_name_the_option_and_the_fix(option, match):
    with pytest.raises(ValueError, match=match) as info:
        _spec(option)
    assert "explain_rows" in str(info.value)
    with pytest.raises(ValueError, match=r"datasets\['toy'\].explain_rows"):
        _spec(None, dataset={"explain_rows": option})


def test_errors_of_the_filter_are_reported_per_cell():
    """No row left, or a regression target: the cells fail with the reason."""
    spec = _spec({"correct_by": "all_models"}, n_explain=1)
    spec.models["b"]["params"]["column"] = 2  # always class 1; test row 0 is class 0
    table = run_benchmark(spec).table
    assert table["status"].eq("error").all()
    assert table["error"].str.contains("none of the 1 candidate rows").all()
    spec = _spec({"correct_by": "all_models"})
    spec.datasets["toy"]["task"] = "regression"
    table = run_benchmark(spec).table
    assert table["status"].eq("error").all()
    assert table["error"].str.contains("explain_rows").all()
