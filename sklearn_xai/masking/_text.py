"""Removing tokens from a padded matrix of token ids."""

import numbers

import numpy as np

from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["TokenMasker"]


class TokenMasker(BaseMasker):
    """Remove tokens: replace them by ``[MASK]`` or delete them (PAD).

    The rows are token ids right-padded with ``pad_id`` (see
    :class:`sklearn_xai.datasets.TokenCodec`).  A removed token is replaced
    by ``mask_id`` (``replacement="mask"``) or by ``pad_id``
    (``replacement="pad"``, which a model reading the decoded text, such as
    :class:`sklearn_xai.models.TokenIdClassifier`, sees as the token
    deleted).  Padding positions are never changed, whatever the coalition:
    they are dummy players, so occlusion and permutation sampling give them
    exactly 0 and regression estimators (KernelSHAP) an estimate of 0.

    ``BaselineMasker(pad_id)`` is the same masker for ``replacement="pad"``;
    ``BaselineMasker(mask_id)`` would also turn padding into ``[MASK]``.

    Parameters
    ----------
    replacement : {"mask", "pad"}, default="mask"
        What a removed token becomes.
    pad_id : int, default=0
        The padding id (:data:`sklearn_xai.datasets.PAD_ID`).
    mask_id : int, default=1
        The ``[MASK]`` id (:data:`sklearn_xai.datasets.MASK_ID`).

    Attributes
    ----------
    n_features_in_ : int
        Number of token positions.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import TokenMasker
    >>> X = np.array([[5.0, 7.0, 0.0]])  # two tokens and one PAD
    >>> m = TokenMasker().fit(X)
    >>> m.impute(X, [[False, True, False]])[0, 0, 0].tolist()
    [1.0, 7.0, 0.0]
    >>> TokenMasker("pad").fit(X).impute(X, [[False, True, False]])[0, 0, 0].tolist()
    [0.0, 7.0, 0.0]
    """

    _parameter_constraints = {
        "replacement": [StrOptions({"mask", "pad"})],
        "pad_id": [Interval(numbers.Integral, 0, None, closed="left")],
        "mask_id": [Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, replacement="mask", *, pad_id=0, mask_id=1):
        self.replacement = replacement
        self.pad_id = pad_id
        self.mask_id = mask_id

    def _fit(self, X):
        self._fit_data_free(X.shape[1])

    def _learns_from_rows(self):
        return None

    def _fit_data_free(self, n_features):
        self.n_features_in_ = n_features

    @property
    def n_draws(self):
        return 1

    def _impute(self, X, keep, rngs):
        value = float(self.mask_id if self.replacement == "mask" else self.pad_id)
        fixed = keep | (X == self.pad_id)[:, None, :]
        return np.where(fixed, X[:, None, :], value)[:, :, None, :]
