"""The baseline maskers' imputed rows, bit for bit, against a plain select.

``BaselineMasker`` builds its rows by arithmetic (``x * keep + b * ~keep``)
where that gives the same bits as ``np.where(keep, x, b)`` (``MarginalMasker``
selects): checked here on rows with zeros of both signs, infinities and NaN,
zero and non-zero baselines.
"""

import numpy as np
import pytest

from sklearn_xai.masking import BaselineMasker, MarginalMasker


def _rows(rng, kind):
    X = rng.normal(size=(4, 6))
    X[rng.random(X.shape) < 0.25] = 0.0
    if kind in ("negative zero", "all"):
        X[0, :3] = -0.0
    if kind in ("non-finite", "all"):
        X[1, 2], X[2, 4] = np.inf, np.nan
    return X


@pytest.mark.parametrize("kind", ["plain", "negative zero", "non-finite", "all"])
@pytest.mark.parametrize("baseline", ["zero", "mixed", "negative zero"])
@pytest.mark.parametrize("masker", ["baseline", "marginal"])
def test_imputed_rows_are_the_bits_of_a_select(kind, baseline, masker):
    rng = np.random.default_rng(len(kind) + 7 * len(baseline))
    X = _rows(rng, kind)
    b = np.zeros(6)
    if baseline == "mixed":
        b = rng.normal(size=6)
        b[::3] = 0.0
    elif baseline == "negative zero":
        b[1] = -0.0
        b[2] = 1.5
    keep = rng.random((4, 5, 6)) < 0.5
    m = (BaselineMasker(b) if masker == "baseline"
         else MarginalMasker(background=b[None, :])).fit(np.ones((2, 6)))
    got = m.impute(X, keep)
    expected = np.where(keep, X[:, None, :], b)[:, :, None, :]
    assert got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()
