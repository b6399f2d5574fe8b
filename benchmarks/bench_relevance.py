"""Cost of the relevance and pattern explainers against the bare model.

On a scikit-learn ``MLPClassifier`` (64 features, hidden layers of 100 and
100 ReLU units, float64) and 20,000 rows, interleaved repetitions (median
and range over 5 rounds) of:

* ``predict_proba``: the bare model evaluation of the rows;
* ``PatternAttribution.fit``: the patterns of every layer learned from the
  rows (moments summed over blocks of 4,096 rows);
* ``PatternAttribution.transform`` and ``CompositeLRP.transform``: numpy
  passes over the float64 layer chain;
* Captum's ``LRP`` and ``Saliency`` on the torch replica of the model, for
  comparison.

ratio = time / bare ``predict_proba``.  Run with ``OPENBLAS_NUM_THREADS=1``:
on a loaded machine a multi-threaded BLAS made the pattern moments ten
times slower.

Re-measured on the 2-core development machine (2026-11-27, shared with
other jobs, load average about 18, ``OPENBLAS_NUM_THREADS=1``)::

    bare predict_proba            median 0.758s range [0.485, 1.300]  ratio 1.0
    PatternAttribution.fit        median 3.663s range [2.735, 3.852]  ratio 4.8
    PatternAttribution.transform  median 1.964s range [1.768, 2.156]  ratio 2.6
    CompositeLRP.transform        median 2.946s range [2.524, 3.029]  ratio 3.9
    captum LRP.transform          median 10.650s range [9.852, 10.884]  ratio 14.1
    Saliency.transform            median 2.577s range [1.980, 3.096]  ratio 3.4

CompositeLRP is 3.6x faster than Captum's LRP (2.7x on 2026-11-23: 5.1
against 13.9).  Without ``OPENBLAS_NUM_THREADS=1`` the same day gave
8.1 against 13.6 (1.7x) and PatternAttribution.fit 34x.
"""

import warnings

import numpy as np
import torch
from _timing import interleaved, ratio_table
from sklearn.exceptions import ConvergenceWarning
from sklearn.frozen import FrozenEstimator
from sklearn.neural_network import MLPClassifier

from sklearn_xai.explainers import LRP, CompositeLRP, PatternAttribution, Saliency


def main(n_rows=20000, rounds=5):
    warnings.simplefilter("ignore", ConvergenceWarning)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, 64))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    model = FrozenEstimator(MLPClassifier(hidden_layer_sizes=(100, 100), max_iter=5,
                                          random_state=0).fit(X[:2000], y[:2000]))
    fitted = {
        "PatternAttribution.transform": PatternAttribution(model).fit(X),
        "CompositeLRP.transform": CompositeLRP(model).fit(X),
        "captum LRP.transform": LRP(model).fit(X),
        "Saliency.transform": Saliency(model).fit(X),
    }
    tasks = {
        "bare predict_proba": lambda: model.predict_proba(X),
        "PatternAttribution.fit": lambda: PatternAttribution(model).fit(X),
        **{name: (lambda ex=ex: ex.transform(X)) for name, ex in fitted.items()},
    }
    print(ratio_table(interleaved(tasks, rounds), "bare predict_proba"))

if __name__ == "__main__":
    main()
