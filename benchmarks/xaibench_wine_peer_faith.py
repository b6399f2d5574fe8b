"""faith- and faith+ of the ``xaibench_wine_code`` explanations, scored by
XAI-Bench's own code beside sklearn_xai's.

XAI-Bench's Table 2 (Liu et al., 2021) lists SHAP's faith-/faith+ at
0.461 / 0.488, LIME's faith- at 0.237 and MAPLE's at -0.007; the
``xaibench_wine_code`` preset gives about 0.53 / 0.57, 0.32 and 0.07 on the
same recipe.  This script settles whether the metric or the explanations
differ.  For each seed it takes the preset's fitted decision tree, its 100
explained rows and its explainers, and scores their attributions twice:

* with :func:`~sklearn_xai.metrics.faith_minus` / ``faith_plus`` with the
  preset's parameters (``convention="xai_bench_code"``, the explained rows'
  mean prediction for the empty coalition, ``nan_policy="zero"``);
* with XAI-Bench's ``custom_metrics/faithfulness.py`` ``Faithfulness``
  class itself, whose conditional draws come from XAI-Bench's own
  ``GaussianLinearRegression`` built with the preset's mean and covariance.

It adds the explanation XAI-Bench's "shap" column computes,
``shap.Explainer(tree.predict, X_train)`` (shap's permutation explainer
over 100 background rows at 11 features), if shap is installed.

Usage (XAI-Bench is not a dependency: pass a clone of
https://github.com/abacusai/xai-bench; the white-wine file as for the
preset)::

    SKLEARN_XAI_WINE_QUALITY=/path/to/winequality-white.csv \\
        python benchmarks/xaibench_wine_peer_faith.py --xai-bench /path/to/xai-bench

About 30 s per seed (SHAPR's explanations dominate).
"""

import argparse
import sys

import numpy as np
import pandas as pd

from compare_xaibench_wine import EXPLAINERS as TABLE_COLUMNS
from compare_xaibench_wine import PUBLISHED as TABLE

import sklearn_xai.benchmark._runner as R
from sklearn_xai.benchmark import get_preset
from sklearn_xai.metrics import faith_minus, faith_plus

EXPLAINERS = ("shap", "shapr", "lime", "maple")
SHAP_LIBRARY = "shap (shap.Explainer)"  # XAI-Bench's "shap" column, run by shap itself


def published(name, row):
    """Table 2's mean of ``row`` ("faith− ↑" or "faith+ ↑") for an explainer."""
    column = "shap" if name == SHAP_LIBRARY else name
    return TABLE[row][TABLE_COLUMNS.index(column)][0]


def peer_modules(path):
    """XAI-Bench's ``Faithfulness`` and ``GaussianLinearRegression``."""
    if not hasattr(np, "int"):
        np.int = int  # XAI-Bench predates NumPy 1.24's removal of the alias
    sys.path.insert(0, str(path))
    from custom_metrics.faithfulness import Faithfulness
    from synthetic_datasets import GaussianLinearRegression
    return Faithfulness, GaussianLinearRegression


def run(seed, Faithfulness, GaussianLinearRegression):
    spec = R._as_spec(get_preset("xaibench_wine_code"))
    tasks = [t for t in R._tasks(spec) if t["seed"] == seed]
    prepared = R._standalone_fit(tasks[0])["prepared"]
    model, X = prepared["model"], prepared["X_explain"]
    dist = prepared["context"]["distribution"]
    mean, cov = np.asarray(dist.mean), np.asarray(dist.cov)
    peer_data = GaussianLinearRegression(mu=mean, dim=len(mean), weight=np.ones(len(mean)),
                                         noise=0.01, sigma=cov)

    def ours(metric, A):
        # The preset's own parameters of the metric (its code switches).
        params = spec.metrics[metric.__name__]["params"]
        return metric(model, X, A, distribution=dist, random_state=seed, **params).mean()

    def peer(version, A):
        np.random.seed(seed)  # XAI-Bench draws from NumPy's global stream
        return Faithfulness(None, model, peer_data, version=version).evaluate(
            pd.DataFrame(X), None, A, None)

    attributions = {}
    for task in tasks:
        name = task["labels"]["explainer"]
        if name in EXPLAINERS:
            explainer, _ = R._explain(task, prepared)
            attributions[name] = np.asarray(explainer.explain(X))
    try:
        import shap
    except ImportError:
        pass
    else:
        np.random.seed(seed)
        explainer = shap.Explainer(model.predict, pd.DataFrame(prepared["X_train"]))
        attributions[SHAP_LIBRARY] = explainer(pd.DataFrame(X)).values
    rows = []
    for name, A in attributions.items():
        rows.append({"seed": seed, "explainer": name,
                     "faith- (ours)": ours(faith_minus, A), "faith- (XAI-Bench)": peer("dec", A),
                     "faith+ (ours)": ours(faith_plus, A), "faith+ (XAI-Bench)": peer("inc", A)})
        print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xai-bench", required=True,
                        help="a clone of https://github.com/abacusai/xai-bench")
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 8, 9])
    args = parser.parse_args()
    modules = peer_modules(args.xai_bench)
    table = pd.DataFrame([row for seed in args.seeds for row in run(seed, *modules)])
    summary = table.drop(columns="seed").groupby("explainer", sort=False).mean()
    summary["published faith-"] = [published(name, "faith− ↑") for name in summary.index]
    summary["published faith+"] = [published(name, "faith+ ↑") for name in summary.index]
    print(summary.round(3).to_string())
