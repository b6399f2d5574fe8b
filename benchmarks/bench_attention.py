"""Cost of the attention explainers on the shipped small ViT.

``TetrominoNetClassifier(architecture="vit")`` on 64x64 images (patches of
8x8: 65 tokens, width 64, two blocks of four heads; float32, untrained:
the cost does not depend on the weights) and 500 rows, interleaved
repetitions (median and range over 5 rounds, CPU time of this process) of:

* the bare forward pass of the torch module on the rows (``torch.no_grad``);
* ``predict_proba`` (skorch, the same forward pass and the softmax);
* ``AttentionRollout.transform``: one forward pass with hooks reading the
  attention probabilities, the product of the ``65x65`` layer matrices and
  the upsampling to the pixels;
* ``AttentionXGradient.transform``: one forward and one backward pass.

ratio = time / bare forward.  Run with ``OMP_NUM_THREADS=1``.

Measured on the 2-core development machine (2026-11-27, shared with other
jobs, load average about 15, torch single-threaded, CPU time)::

    bare forward                  median 0.315s range [0.253, 0.586]  ratio 1.0
    predict_proba                 median 0.305s range [0.258, 0.706]  ratio 1.0
    AttentionRollout.transform    median 0.632s range [0.583, 1.105]  ratio 2.0
    AttentionXGradient.transform  median 1.092s range [1.062, 1.577]  ratio 3.5

Rollout costs the forward pass plus the hooks' copies, the ``65x65`` matrix
products and the float64 upsampling to 4,096 pixels; attention x gradient
adds the backward pass.
"""

import time

import numpy as np
import torch
from _timing import interleaved, ratio_table
from sklearn.frozen import FrozenEstimator

from sklearn_xai.explainers import AttentionRollout, AttentionXGradient
from sklearn_xai.models import TetrominoNetClassifier


def main(n_rows=500, rounds=5):
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, 64 * 64)).astype(np.float32)
    y = np.arange(n_rows) % 2
    net = TetrominoNetClassifier(architecture="vit", image_size=64, max_epochs=0,
                                 early_stopping=False, random_state=0).fit(X, y)
    model = FrozenEstimator(net)
    rollout = AttentionRollout(model, batch_size=n_rows).fit(X)
    axg = AttentionXGradient(model, batch_size=n_rows).fit(X)
    module = net.module_.eval()
    X_tensor = torch.from_numpy(X)

    def bare():
        with torch.no_grad():
            module(X_tensor)

    tasks = {
        "bare forward": bare,
        "predict_proba": lambda: net.predict_proba(X),
        "AttentionRollout.transform": lambda: rollout.transform(X),
        "AttentionXGradient.transform": lambda: axg.transform(X),
    }
    times = interleaved(tasks, rounds=rounds, clock=time.process_time)
    print(ratio_table(times, "bare forward"))


if __name__ == "__main__":
    main()
