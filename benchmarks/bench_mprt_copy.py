"""MPRT with copies of only what is randomised, against deep copies of the
whole model (the code before), and against the explanation work MPRT needs.

Workloads: the default preset's cell (``make_gaussian_linear``, 1000 rows,
d = 5, rho = 0.5; 50 held-out rows explained by ``FeatureAblation`` with a
training-mean baseline) on its MLP (scikit-learn ``MLPRegressor``, 32 x 32,
three layers) and on a skorch net (``BEExAIMLPRegressor``, four linear and
three batch-norm layers, 30 epochs).  ``neg_mprt``'s computation:
``mprt(..., mode="cascading")`` and the independent mode, which copies the
model once per layer.

Method: one process, BLAS and torch single-threaded; the old
``randomise_model`` (``git show a1660b6:sklearn_xai/models/_randomise.py``,
loaded under another module name) and the new one swapped in turn into
``sklearn_xai.models`` (where MPRT imports it at call time), interleaved
repetitions, median and range.  "bare": the explanations MPRT cannot avoid,
one ``explain`` of the rows per randomised layer with an explainer fitted
beforehand.

Measured (2 CPU cores shared with 7 other jobs, so the seconds are
inflated; compare the ratios; median [min, max] over 7 interleaved
repetitions, ms):

    model        mode         old [range]             new [range]            old/new  old/bare  new/bare
    default MLP  cascading     105.9 [62.2, 117.8]     105.9 [74.5, 134.7]    1.00x    3.60    3.60
    default MLP  independent   150.6 [124.5, 178.4]    124.3 [73.2, 136.2]    1.21x    2.73    2.25
    skorch net   cascading     537.5 [506.0, 923.6]    350.7 [329.5, 595.6]   1.53x    2.77    1.81
    skorch net   independent  2194.0 [2000.1, 2653.4]  526.3 [447.3, 704.2]   4.17x   10.60    2.54

A deep copy of a skorch net pickles its module, optimizer and criterion
(skorch's ``__getstate__``) and copies every tensor: 78 ms for this net
against 6 ms for a copy of its module alone.  The new copy shares every
tensor but those of the randomised layer.  The default preset's
``MLPRegressor`` deep-copies in 0.5 ms: copying was never its cost; what
remains above the bare explanations there is fitting a clone of the
explainer per randomised model, the forward pass for the explained
outputs and the row-wise ranks.

Run: python benchmarks/bench_mprt_copy.py
"""

import importlib.util
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import torch
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPRegressor
from threadpoolctl import threadpool_limits

import sklearn_xai.models as models
from sklearn_xai.datasets import make_gaussian_linear
from sklearn_xai.explainers import FeatureAblation
from sklearn_xai.masking import BaselineMasker
from sklearn_xai.metrics._randomisation import mprt

sys.path.insert(0, str(Path(__file__).parent))
from _timing import interleaved  # noqa: E402

OLD_COMMIT = "a1660b6"
REPEATS = 7


def _old_randomise_model():
    """``randomise_model`` as of OLD_COMMIT (deep copies of the whole model)."""
    source = subprocess.run(
        ["git", "show", f"{OLD_COMMIT}:sklearn_xai/models/_randomise.py"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent).stdout
    path = Path(tempfile.mkdtemp()) / "_old_randomise.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("_old_randomise", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.randomise_model


def main():
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    data = make_gaussian_linear(n_samples=1000, n_features=5, rho=0.5, random_state=0)
    X, y = data.data, data.target
    X_train, y_train, X_explain = X[:800], y[:800], X[800:850]
    fitted = {
        "default MLP": MLPRegressor(hidden_layer_sizes=(32, 32), max_iter=300,
                                    random_state=0).fit(X_train, y_train),
        "skorch net": models.BEExAIMLPRegressor(max_epochs=30, random_state=0).fit(
            X_train, y_train),
    }
    versions = {"old": _old_randomise_model(), "new": models.randomise_model}
    print("model        mode         old [range] ms           new [range] ms"
          "           old/new  old/bare  new/bare")
    for name, model in fitted.items():
        estimator = FrozenEstimator(model)
        explainer = FeatureAblation(estimator=estimator, masker=BaselineMasker(value="mean")).fit(X_train)
        A = explainer.explain(X_explain)
        n_layers = len(models.randomised_layers(estimator))
        explainers = [FeatureAblation(estimator=FrozenEstimator(model), masker=BaselineMasker(value="mean")).fit(
            X_train) for _ in range(n_layers)]

        def bare():
            for ex in explainers:
                ex.explain(X_explain)

        for mode in ("cascading", "independent"):
            def run(version, mode=mode):
                def task():
                    models.randomise_model = versions[version]
                    mprt(estimator, X_explain, A, explainer=explainer, mode=mode,
                         random_state=0)
                return task

            with threadpool_limits(1):
                times = interleaved({"old": run("old"), "new": run("new"), "bare": bare},
                                    rounds=REPEATS)
            models.randomise_model = versions["new"]
            med = {k: 1e3 * np.median(v) for k, v in times.items()}
            rng = {k: (1e3 * min(v), 1e3 * max(v)) for k, v in times.items()}
            print(f"{name:12s} {mode:12s} "
                  f"{med['old']:7.1f} [{rng['old'][0]:.1f}, {rng['old'][1]:.1f}]   "
                  f"{med['new']:7.1f} [{rng['new'][0]:.1f}, {rng['new'][1]:.1f}]   "
                  f"{med['old'] / med['new']:5.2f}x  {med['old'] / med['bare']:6.2f}  "
                  f"{med['new'] / med['bare']:6.2f}")


if __name__ == "__main__":
    main()
