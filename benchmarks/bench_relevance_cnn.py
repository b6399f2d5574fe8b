"""Cost of the relevance and pattern explainers on XAI-TRIS's CNN.

``TetrominoNetClassifier(architecture="cnn")`` (8x8 images, four blocks
Conv2d(2x2, padding 1) -> ReLU -> MaxPool(2), Linear; float32, trained for
2 epochs) and 2,000 rows, interleaved repetitions (median and range over 5
rounds) of:

* ``predict_proba``: the bare model evaluation of the rows (skorch, float32);
* ``CompositeLRP.transform`` (epsilon; alpha-beta with z-box at the input),
  ``DeepTaylor.transform``, ``PatternAttribution.fit`` / ``.transform``:
  float64 passes over the layer chain (numpy convolutions, torch's
  transposed convolution);
* Captum's ``LRP`` (float32, on the torch module), for comparison.

ratio = time / bare ``predict_proba``.  Run with ``OPENBLAS_NUM_THREADS=1``.

Measured on the 2-core development machine (2026-11-23, shared with other
jobs, load average about 8, BLAS and torch single-threaded)::

    bare predict_proba                   median 0.028s range [0.022, 0.041]  ratio 1.0
    PatternAttribution.fit               median 0.235s range [0.224, 0.254]  ratio 8.3
    CompositeLRP(epsilon).transform      median 0.187s range [0.171, 0.220]  ratio 6.6
    CompositeLRP(ab, z_box).transform    median 0.348s range [0.321, 0.432]  ratio 12.3
    DeepTaylor.transform                 median 0.225s range [0.191, 0.255]  ratio 8.0
    PatternAttribution.transform         median 0.139s range [0.122, 0.177]  ratio 4.9
    captum LRP.transform                 median 0.144s range [0.129, 0.196]  ratio 5.1
"""

import warnings

import numpy as np
import torch
from _timing import interleaved, ratio_table
from sklearn.frozen import FrozenEstimator

from sklearn_xai.datasets import make_tetrominoes
from sklearn_xai.explainers import (
    LRP,
    CompositeLRP,
    DeepTaylor,
    PatternAttribution,
)
from sklearn_xai.models import TetrominoNetClassifier


def main(n_rows=2000, rounds=5):
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    data = make_tetrominoes(n_rows, random_state=0)
    X, y = data.data.astype(np.float64), data.target
    model = FrozenEstimator(TetrominoNetClassifier(
        architecture="cnn", max_epochs=2, random_state=0).fit(X, y))
    fitted = {
        "CompositeLRP(epsilon).transform": CompositeLRP(model).fit(X),
        "CompositeLRP(ab, z_box).transform": CompositeLRP(
            model, rule="alpha_beta", input_rule="z_box").fit(X),
        "DeepTaylor.transform": DeepTaylor(model).fit(X),
        "PatternAttribution.transform": PatternAttribution(model).fit(X),
        "captum LRP.transform": LRP(model).fit(X),
    }
    tasks = {
        "bare predict_proba": lambda: model.predict_proba(X),
        "PatternAttribution.fit": lambda: PatternAttribution(model).fit(X),
        **{name: (lambda ex=ex: ex.transform(X)) for name, ex in fitted.items()},
    }
    print(ratio_table(interleaved(tasks, rounds), "bare predict_proba"))

if __name__ == "__main__":
    main()
