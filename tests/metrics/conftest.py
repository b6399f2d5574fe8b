"""Shared fixtures of the metric tests that run over every registered metric
(``test_common.py``, ``test_row_independence.py``).

:class:`MetricArguments` supplies what a metric requires from its registry
entry (``spec.requires``), the way the benchmark runner binds it: the mask
metrics get masks, maskers are fitted on the training rows, XAI-Bench
metrics get the data distribution, re-explaining metrics the fitted
explainer, ROAR the training rows, labels and attributions.
"""

import inspect

import numpy as np
import pytest
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from sklearn_xai.datasets import make_gaussian_linear
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker

N_TRAIN, N_EXPLAIN = 200, 50

# Cheaper Monte-Carlo settings: the common properties do not depend on them.
FAST = {"n_draws": 20, "n_perturbations": 10, "max_neighbours": 10}


def _accepts(func, name):
    return name in inspect.signature(func).parameters


def _hidden_layer(Z):
    """A representation for RRS: tanh of a fixed projection, row by row."""
    W = np.linspace(-1.0, 1.0, 3 * Z.shape[1]).reshape(Z.shape[1], 3)
    return np.tanh(np.asarray(Z, dtype=np.float64) @ W)


def _problem():
    """Gaussian features, one count feature (values 0..3) and one binary
    feature: a small batch of the count feature can look binary, so
    binary-feature detection on the scored rows would show."""
    bunch = make_gaussian_linear(n_samples=N_TRAIN + N_EXPLAIN, n_features=5,
                                 rho=0.3, random_state=0)
    X = bunch.data.copy()
    X[:, 3] = np.clip(np.round(np.abs(X[:, 3]) * 1.5), 0, 3)
    X[:, 4] = (X[:, 4] > 0).astype(np.float64)
    y_reg = bunch.target
    y_clf = (y_reg > np.median(y_reg)).astype(int)
    return {
        "X_train": X[:N_TRAIN], "X": X[N_TRAIN:],
        "y_reg": y_reg, "y_clf": y_clf,
        "ground_truth": bunch.ground_truth[N_TRAIN:],
        "mask": np.abs(bunch.ground_truth[N_TRAIN:]) > np.median(
            np.abs(bunch.ground_truth[N_TRAIN:]), axis=1, keepdims=True),
        "distribution": bunch.distribution,
        "sensitive": np.arange(N_EXPLAIN) % 2,
    }


def _fitted(problem, task):
    X_train = problem["X_train"]
    if task == "classifier":
        model = LogisticRegression(solver="newton-cholesky").fit(
            X_train, problem["y_clf"][:N_TRAIN])
    else:
        model = make_pipeline(PolynomialFeatures(2), Ridge(1e-3)).fit(
            X_train, problem["y_reg"][:N_TRAIN])
    masker = BaselineMasker("mean").fit(X_train)
    explainer = FeatureAblation(FrozenEstimator(model), masker=masker).fit(X_train)
    return model, explainer, masker


class MetricArguments:
    """The problem, the fitted models and the arguments of every metric.

    Parameters
    ----------
    problem : dict
        Training rows, explained rows ``X``, labels, ground truths, masks,
        the distribution and a sensitive attribute.
    models : dict
        ``task -> (model, explainer, masker)`` for "classifier" and
        "regressor".
    """

    n_train, n_explain = N_TRAIN, N_EXPLAIN

    def __init__(self, problem, models):
        self.problem = problem
        self.models = models
        self._attributions = {}

    def attributions(self, task):
        """The explainer's attributions of the explained rows (computed once)."""
        if task not in self._attributions:
            A = self.models[task][1].transform(self.problem["X"])
            A.setflags(write=False)
            self._attributions[task] = A
        return self._attributions[task]

    def ground_truth(self, spec):
        """Reference explanations for ``spec``: masks for the mask metrics."""
        if spec.family == "localisation":
            return self.problem["mask"]
        return self.problem["ground_truth"]

    def kwargs(self, spec, task, *, with_train=False, fast=True):
        """The keyword arguments that bind ``spec.requires`` (metadata
        aside), as the runner binds them.

        ``with_train``: give training rows to metrics that take them as an
        option (``"training_rows"``; their defaults do without).
        ``fast``: cheaper Monte-Carlo settings, and a fixed hidden
        representation for RRS.
        """
        model, explainer, masker = self.models[task]
        func, p = spec.func, self.problem
        kw = dict(spec.default_kwargs)  # as the scorer binds them
        for need in spec.requires:
            if need == "masker":
                # A masker where the metric removes features with one and no
                # distribution is given; perturbers keep their defaults.
                if _accepts(func, "masker") and "distribution" not in spec.requires:
                    kw["masker"] = masker
            elif need == "distribution":
                kw["distribution"] = p["distribution"]
            elif need == "explainer":
                kw["explainer"] = explainer
            elif need == "training_rows":
                if with_train:
                    kw["X_train"] = p["X_train"]
            elif need == "training_data":  # ROAR: retrain on explained training rows
                y = p["y_clf"] if hasattr(model, "classes_") else p["y_reg"]
                kw.update(X_train=p["X_train"], y_train=y[:N_TRAIN],
                          attributions_train=explainer.transform(p["X_train"]))
            elif need == "image_shape":  # the maps are 1 x d "images"
                kw["image_shape"] = (1, p["X"].shape[1])
            elif need == "random_state":
                kw["random_state"] = 0
            # "reference": the metric computes its own exact Shapley values.
        if fast:
            if _accepts(func, "representation"):  # RRS: a fixed row-wise layer
                kw["representation"] = _hidden_layer
            for name, value in FAST.items():
                if _accepts(func, name):
                    kw[name] = value
        return kw

    def metadata(self, spec, rows):
        """Per-row metadata of ``spec`` for ``rows`` (ground truth included)."""
        values = {"ground_truth": self.ground_truth(spec),
                  "sensitive": self.problem["sensitive"]}
        return {k: values[k][rows] for k in spec.metadata}

    def call(self, spec, task, rows, kwargs, *, X=None, attributions=None,
             metadata=None, model=None):
        """``spec.func`` on ``rows`` of the problem (or on the arrays or the
        model given)."""
        model = self.models[task][0] if model is None else model
        X = self.problem["X"][rows] if X is None else X
        A = self.attributions(task)[rows] if attributions is None else attributions
        meta = self.metadata(spec, rows) if metadata is None else metadata
        if spec.kind == "reference":
            return spec.func(meta["ground_truth"], A, **kwargs)
        if spec.kind == "attributions":
            return spec.func(A, **kwargs)
        extra = {k: v for k, v in meta.items() if k != "ground_truth"}
        return spec.func(model, X, A, **kwargs, **extra)


@pytest.fixture(scope="session")
def metric_args():
    """:class:`MetricArguments` of the shared problem."""
    problem = _problem()
    models = {task: _fitted(problem, task) for task in ("classifier", "regressor")}
    return MetricArguments(problem, models)
