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

Re-measured on the 2-core development machine (2026-11-27, shared with
other jobs, load average about 18, BLAS and torch single-threaded)::

    bare predict_proba                 median 0.131s range [0.127, 0.139]  ratio 1.0
    PatternAttribution.fit             median 1.002s range [0.891, 1.516]  ratio 7.6
    CompositeLRP(epsilon).transform    median 0.915s range [0.822, 1.002]  ratio 7.0
    CompositeLRP(ab, z_box).transform  median 1.850s range [1.603, 2.272]  ratio 14.1
    DeepTaylor.transform               median 1.109s range [0.977, 1.184]  ratio 8.5
    PatternAttribution.transform       median 0.772s range [0.588, 0.798]  ratio 5.9
    captum LRP.transform               median 0.942s range [0.753, 1.062]  ratio 7.2

(2026-11-23, load average about 8: 4.9 to 12.3, Captum's LRP 5.1.)
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
