"""A float32 copy of the scored rows gets the same random draws (issue #34,
item 3): rows are keyed on their values rounded to float32.

Every registered per-row metric that takes the rows and a ``random_state``
(from the registry, not a hand list) scores the float64 rows and their
float32 copy with the same seed; its requirements come from the shared
``metric_args`` fixture (conftest.py), bound as the runner binds them.  The
float64 rows are float32 numbers plus a relative ``1e-12`` (the integer
columns kept as they are), so the float32 copy is within ``1e-12`` of them
and any difference beyond rounding noise is a difference of draws; before
the fix 43 of these metrics differed by Monte-Carlo noise.
"""

import inspect

import numpy as np
import pytest

from sklearn_xai.masking import GaussianConditionalMasker
from sklearn_xai.metrics import metric_specs

# The relative-stability ratios divide by differences between a row and
# neighbours sigma = 1e-5 away, amplifying the 1e-12 input difference by
# about 1e5.
RTOL, ATOL = 1e-7, 1e-9
_RTOL = {"neg_ris": 1e-5, "neg_rrs": 1e-5, "neg_ros": 1e-5}
ROWS = np.arange(12)


def _seeded_row_metrics():
    """Each seeded per-row metric; those that remove features with a masker
    also with a stochastic masker (the fixture's masker is deterministic)."""
    for spec in metric_specs():
        params = inspect.signature(spec.func).parameters
        if spec.per_instance and spec.kind == "model" and "random_state" in params:
            yield pytest.param(spec, False, id=spec.name)
            if "masker" in params and "distribution" not in spec.requires:
                yield pytest.param(spec, True, id=f"{spec.name}-stochastic_masker")


def test_the_seeded_row_metrics_are_discovered():
    names = {p.id for p in _seeded_row_metrics()}
    assert {"pgi", "neg_pgu", "neg_infidelity", "neg_max_sensitivity",
            "monotonicity-stochastic_masker"} <= names


def _copies(X):
    """float64 rows that are not float32 numbers (their integer columns
    aside) and their float32 copy."""
    X32 = X.astype(np.float32)
    X64 = X32.astype(np.float64)
    fractional = X64 != np.round(X64)
    X64[fractional] *= 1.0 + 1e-12
    assert np.array_equal(X64.astype(np.float32), X32)
    assert np.all(fractional.any(axis=1))  # every row's key used to differ
    return X64, X32


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec, stochastic_masker", list(_seeded_row_metrics()))
def test_metric_draws_do_not_depend_on_the_dtype(spec, stochastic_masker, metric_args):
    task = "classifier"
    kw = {**metric_args.kwargs(spec, task), "random_state": 0}
    if stochastic_masker:
        kw["masker"] = GaussianConditionalMasker(n_draws=4).fit(
            metric_args.problem["X_train"])
    X64, X32 = _copies(metric_args.problem["X"][ROWS])

    def score(X):
        return np.asarray(metric_args.call(spec, task, ROWS, kw, X=X), dtype=np.float64)

    rtol = _RTOL.get(spec.name, RTOL)
    np.testing.assert_allclose(score(X32), score(X64), rtol=rtol, atol=ATOL,
                               err_msg=f"{spec.name}: float32 copy vs float64")
