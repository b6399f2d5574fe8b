"""
=========================================
Write your own explainer and benchmark it
=========================================

A researcher's path from an idea to a leaderboard: a new explainer in about
30 lines, the contract checks that say it behaves like every other
explainer, and the default benchmark with the new explainer added.

The explainer below is *finite-difference gradient times input*: the
central difference ``(f(x + h e_j) - f(x - h e_j)) / 2h`` of the explained
output, times ``x_j``.  It needs no gradients, so it explains any model.
"""

# %%
# The explainer
# -------------
# Subclass :class:`~sklearn_xai.base.BaseExplainer`, write ``__init__`` as in
# scikit-learn (store the parameters, nothing else) and implement
# ``_explain(X, f, target_index, rngs)``: ``X`` are the rows, ``f(Z, t)`` is
# the explained output of the model (one number per row of ``Z``, for class
# ``t``), batched and counted by the base class.  Everything else (fit,
# validation, the explained class, ``transform``, tags, the scorers) comes
# from the base class.
import numpy as np

from sklearn_xai.base import BaseExplainer


class FiniteDifferenceXInput(BaseExplainer):
    """Central finite-difference gradient times input."""

    def __init__(self, estimator=None, *, step=1e-3, target="predicted",
                 output="auto", batch_size=None):
        self.estimator = estimator
        self.step = step
        self.target = target
        self.output = output
        self.batch_size = batch_size

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        shifts = self.step * np.eye(d)
        # All 2d shifted copies of every row in ONE model call.
        Z = np.concatenate([X[:, None, :] + shifts, X[:, None, :] - shifts], axis=1)
        t = None if target_index is None else np.repeat(target_index, 2 * d)
        values = f(Z.reshape(-1, d), t).reshape(n, 2, d)
        gradient = (values[:, 0] - values[:, 1]) / (2 * self.step)
        return gradient * X


# %%
# The contract checks
# -------------------
# :func:`~sklearn_xai.utils.estimator_checks.check_explainer` fits the
# explainer on a classifier and a regressor and checks the shape of the
# attributions, that a row's attributions do not depend on the other rows of
# the batch or their order, reproducibility and cloning.  It raises an
# ``AssertionError`` naming the failed check.
from sklearn_xai.utils.estimator_checks import check_explainer

check_explainer(FiniteDifferenceXInput())
print("FiniteDifferenceXInput passes the explainer contract checks.")

# %%
# scikit-learn's own checks apply too.  They fit the explainer on their own
# rows, so it needs a model to explain (``FiniteDifferenceXInput()`` alone
# fails with "needs a model"): an unfitted one that fits any target.
from sklearn.linear_model import LinearRegression
from sklearn.utils.estimator_checks import check_estimator

check_estimator(FiniteDifferenceXInput(LinearRegression()))
print("FiniteDifferenceXInput passes scikit-learn's check_estimator.")

# %%
# Against a closed form
# ---------------------
# On a linear model the gradient is the coefficient vector, so the
# attributions are ``w * x`` exactly (up to rounding).
from sklearn.frozen import FrozenEstimator

rng = np.random.default_rng(0)
X = rng.normal(size=(200, 4))
w = np.array([3.0, -2.0, 0.5, 0.0])
model = LinearRegression().fit(X, X @ w)
phi = FiniteDifferenceXInput(FrozenEstimator(model)).fit(X).transform(X[:3])
print(np.round(phi, 4))
print(np.round(X[:3] * model.coef_, 4))

# %%
# Benchmark it against a preset
# -----------------------------
# A preset is a :class:`~sklearn_xai.benchmark.BenchmarkSpec`; add the class
# under a label of your choice.  (From a YAML config, put the class and
# ``sklearn_xai.benchmark.register_component(FiniteDifferenceXInput,
# kind="explainer")`` in a module next to the config, name the class in the
# config, and name the module on the command line:
# ``sklearn-xai run mine.yaml --import my_explainers``.  Only the modules
# named with ``--import`` run; see :ref:`custom-explainer`.)
from sklearn_xai.benchmark import get_preset, run_benchmark

spec = get_preset("default")
spec.explainers["fd_x_input"] = {"name": FiniteDifferenceXInput, "params": {}}
spec.seeds, spec.n_explain = [0, 1], 20
results = run_benchmark(spec)  # sequential: the class lives in this script
board = results.leaderboard()
columns = ["model", "metric", "explainer", "mean", "rank"]
print(board.loc[board["explainer"].isin(["fd_x_input", "ablation", "random"]),
                columns].to_string(index=False))
