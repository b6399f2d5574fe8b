"""Configuration shared by every test directory.

Generated test cases (scikit-learn's ``parametrize_with_checks``) cannot carry
``pytest.param(..., marks=...)``; the few of them the default run leaves to
``-m slow`` are named here, with the reason.
"""

import pytest

# LimeTabular calls ``lime`` row by row (about 45 ms a row whatever the number
# of perturbations), so the scikit-learn checks that explain the most rows
# cost as much as all other explainers' checks together.  The default run
# keeps its other checks (fit/transform contract, sample order and subset
# invariance, pipeline consistency, idempotent fit, object dtype) and
# LocalLinearSurrogate's full set (the same sampled-surrogate base class).
# Drop this entry once LimeTabular's sampling is vectorised.
SLOW_CHECKS = {
    "tests/test_common.py::test_sklearn_compatible_estimator[LimeTabular(": {
        "check_estimators_dtypes",
        "check_transformer_general",
        "check_transformer_data_not_an_array",
        "check_estimators_pickle",
        "check_transformer_preserve_dtypes",
    },
}


def _check_name(nodeid):
    """``check_x`` of ``...[Estimator(...)-check_x(option=...)]``."""
    return nodeid.rsplit("-", 1)[-1].split("(", 1)[0].rstrip("]")


@pytest.hookimpl(tryfirst=True)  # before ``-m "not slow"`` deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        for prefix, checks in SLOW_CHECKS.items():
            if item.nodeid.startswith(prefix) and _check_name(item.nodeid) in checks:
                item.add_marker(pytest.mark.slow)
