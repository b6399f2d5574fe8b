"""Our TreeSHAP of scikit-learn's tree models next to shap's TreeExplainer.

On scikit-learn's breast-cancer (classification, 30 features) and diabetes
(regression, 10 features) data, fit a RandomForest, a GradientBoosting and a
HistGradientBoosting model and explain the same rows with
:class:`~sklearn_xai.explainers.TreeContributions` (path-dependent, and
interventional over a background) and with ``shap.TreeExplainer`` (the same
variant, the same background).  xgboost, LightGBM and CatBoost models, when
those packages are installed, are compared path-dependent only (their
libraries' own contributions on both sides; one thread each).  The two run
in interleaved rounds (see ``_timing.py``); each line gives the median wall
time (fit of the explainer included) and its range, the ratio of the
medians, and the largest absolute difference between the two attribution
matrices.

Path-dependent values agree to rounding.  Interventional values differ
from shap's (up to a tenth of the largest value on diabetes): ours equal
``ExactShapley`` with a ``MarginalMasker`` on the same background to 1e-13
(checked on diabetes, 10 features), shap's do not.  With inputs rounded to
float32 first, shap's GradientBoosting values agree to 1e-6 and its
HistGradientBoosting ones too (shap compares float32 inputs where
HistGradientBoosting compares float64); on RandomForest shap's values do
not even sum to the output minus its mean over the background (off by 1.2
on diabetes with 20 trees, ours by 1e-13).

Measured on 2 loaded cores (2026-11-27, shap 0.51.0, 200 rows, 100 trees,
100 background rows, 5 rounds, ``--clock cpu``: this process's CPU time),
after the fixed cost per call was cut (each tree read in one call, the
per-chunk matrices and pattern tables built once, the interventional
background prepared once at fit); ours/shap, the ratio of the medians:

| data | model | path-dependent | interventional |
|---|---|---|---|
| breast_cancer | RandomForest | 0.85 | 0.19 |
| breast_cancer | ExtraTrees | 0.60 | 0.21 |
| breast_cancer | GradientBoosting | 0.96 | 0.25 |
| breast_cancer | HistGradientBoosting | 0.59 | 0.39 |
| breast_cancer | XGBoost | 0.50 | - |
| breast_cancer | LightGBM | 0.65 | - |
| breast_cancer | CatBoost | 0.86 | - |
| diabetes | RandomForest | 0.54 | 0.53 |
| diabetes | ExtraTrees | 0.51 | 0.68 |
| diabetes | GradientBoosting | 1.00 | 0.23 |
| diabetes | HistGradientBoosting | 0.60 | 0.25 |
| diabetes | XGBoost | 0.85 | - |
| diabetes | LightGBM | 0.67 | - |
| diabetes | CatBoost | 0.89 | - |

Before the change, in the same conditions: GradientBoosting path-dependent
1.09 on both data sets, RandomForest interventional on diabetes 0.63.

shap is not a dependency of sklearn_xai: the script exits with a message
when it is missing (``pip install shap``).

Run::

    python benchmarks/bench_tree_shap.py [--rows 200] [--background 100]
        [--rounds 5] [--trees 100] [--models RandomForest,...] [--clock cpu]
"""

import argparse
import sys
import time
import warnings

import numpy as np
from _timing import interleaved
from sklearn.base import is_classifier
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import TreeContributions


def _library_models(task, n_trees):
    """xgboost, LightGBM and CatBoost models of those installed."""
    classification = task == "classification"
    models = {}
    try:
        from xgboost import XGBClassifier, XGBRegressor
    except ImportError:
        pass
    else:
        cls = XGBClassifier if classification else XGBRegressor
        models["XGBoost"] = cls(n_estimators=n_trees, max_depth=6, n_jobs=1,
                                random_state=0)
    try:
        from lightgbm import LGBMClassifier, LGBMRegressor
    except ImportError:
        pass
    else:
        cls = LGBMClassifier if classification else LGBMRegressor
        models["LightGBM"] = cls(n_estimators=n_trees, n_jobs=1, verbose=-1,
                                 random_state=0)
    try:
        from catboost import CatBoostClassifier, CatBoostRegressor
    except ImportError:
        pass
    else:
        cls = CatBoostClassifier if classification else CatBoostRegressor
        models["CatBoost"] = cls(iterations=n_trees, depth=6, thread_count=1,
                                 verbose=0, random_seed=0, allow_writing_files=False)
    return models


def _models(task, n_trees):
    return {**_sklearn_models(task, n_trees), **_library_models(task, n_trees)}


def _sklearn_models(task, n_trees):
    if task == "classification":
        return {
            "RandomForest": RandomForestClassifier(n_trees, max_depth=8, random_state=0),
            "ExtraTrees": ExtraTreesClassifier(n_trees, max_depth=8, random_state=0),
            "GradientBoosting": GradientBoostingClassifier(n_estimators=n_trees,
                                                           max_depth=3, random_state=0),
            "HistGradientBoosting": HistGradientBoostingClassifier(max_iter=n_trees,
                                                                   random_state=0),
        }
    return {
        "RandomForest": RandomForestRegressor(n_trees, max_depth=8, random_state=0),
        "ExtraTrees": ExtraTreesRegressor(n_trees, max_depth=8, random_state=0),
        "GradientBoosting": GradientBoostingRegressor(n_estimators=n_trees, max_depth=3,
                                                      random_state=0),
        "HistGradientBoosting": HistGradientBoostingRegressor(max_iter=n_trees,
                                                              random_state=0),
    }


def _shap_values(shap, model, X, background):
    """shap's values of class 1 (classifiers) or of the prediction, (n, d)."""
    if background is None:
        explainer = shap.TreeExplainer(model, feature_perturbation="tree_path_dependent")
    else:
        explainer = shap.TreeExplainer(model, data=background,
                                       feature_perturbation="interventional")
    with warnings.catch_warnings():  # LightGBM's binary output format notice
        warnings.simplefilter("ignore", UserWarning)
        values = np.asarray(explainer.shap_values(X, check_additivity=False))
    if values.ndim == 3:  # (n, d, n_classes) in shap >= 0.45
        values = values[:, :, 1] if values.shape[2] == len(model.classes_) else values[1]
    return values


def _ours(model, X_train, X, background):
    kwargs = {"target": 1} if is_classifier(model) else {}
    if background is not None:
        kwargs.update(feature_perturbation="interventional", background=background)
    ex = TreeContributions(FrozenEstimator(model), **kwargs).fit(X_train)
    return ex.transform(X)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--background", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--models", default=None,
                        help="comma-separated model names (default: all)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="cpu: this process's CPU time, which other processes "
                             "on a loaded machine do not inflate")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    try:
        import shap
    except ImportError:
        sys.exit("bench_tree_shap.py compares with shap's TreeExplainer, which is not "
                 "installed: pip install shap")

    datasets = {"breast_cancer": ("classification", load_breast_cancer(return_X_y=True)),
                "diabetes": ("regression", load_diabetes(return_X_y=True))}
    print(f"shap {shap.__version__}; {args.rows} rows, {args.rounds} interleaved rounds")
    for data_name, (task, (X, y)) in datasets.items():
        X = np.asarray(X, dtype=np.float64)
        X_explain = X[: args.rows]
        background = X[-args.background:]
        library = _library_models(task, args.trees)
        for model_name, model in _models(task, args.trees).items():
            if args.models and model_name not in args.models.split(","):
                continue
            model.fit(X, y)
            variants = [("path_dependent", None), ("interventional", background)]
            for variant, bg in variants[:1] if model_name in library else variants:
                results = {}
                tasks = {
                    "ours": lambda: results.__setitem__(
                        "ours", _ours(model, X, X_explain, bg)),
                    "shap": lambda: results.__setitem__(
                        "shap", _shap_values(shap, model, X_explain, bg)),
                }
                times = interleaved(tasks, rounds=args.rounds, clock=clock)
                diff = np.abs(results["ours"] - results["shap"]).max()
                scale = np.abs(results["shap"]).max()
                line = "  ".join(
                    f"{name} {np.median(t):.3f}s [{min(t):.3f}, {max(t):.3f}]"
                    for name, t in times.items())
                ratio = np.median(times["ours"]) / np.median(times["shap"])
                line += f"  ours/shap {ratio:.2f}"
                print(f"{data_name:14s}{model_name:21s}{variant:15s}{line}  "
                      f"max |ours - shap| {diff:.2e} (max |shap| {scale:.2e})")


if __name__ == "__main__":
    main()
