"""Gaussian noise perturbations (OpenXAI; see :ref:`def-perturbation` in the
user guide).

:class:`GaussianNoisePerturber` is not a value function: it does not "remove"
features but draws noisy copies of each row in which some features are held
fixed.  PGI / PGU perturb the top (or the bottom) features of an explanation;
the relative-stability metrics draw the neighbourhood of an instance with it.
"""

import numbers
import warnings

import numpy as np

from sklearn_xai.masking._base import BasePerturber
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._random import RowStreams
from sklearn_xai.utils._sklearn import Interval, StrOptions

__all__ = ["GaussianNoisePerturber"]


@Substitution("n_features_in", masker_references=references("agarwal2022"))
class GaussianNoisePerturber(BasePerturber):
    """Noisy copies of rows: Gaussian noise, Bernoulli flips, one-hot moves.

    For every perturbed feature ``j`` of a row ``x`` (as in OpenXAI's PGI,
    PGU and stability metrics; see :ref:`def-perturbation`):

    * continuous features: ``x'_j = x_j + eps_j`` with
      ``eps_j ~ N(0, sigma_j^2)``;
    * binary features (values in {0, 1}): ``x'_j = |x_j - b_j|`` with
      ``b_j ~ Bernoulli(p_flip)`` and ``p_flip = std * sqrt(2 / pi)`` by
      default (the expected absolute change of a N(0, std^2) draw);
    * one-hot groups: with probability ``p_flip`` the active category moves to
      a uniformly chosen other category of the group.

    Features marked as fixed keep their value.  With the default
    ``onehot_fixed="group"`` a one-hot group moves only when none of its
    columns is fixed (moving it would change a fixed column); with
    ``onehot_fixed="columns"`` the move is drawn as for a free group and
    then every fixed column keeps its value, as OpenXAI's German Credit
    perturbation does.

    What :meth:`fit` learns (noise scales, binary columns, range) must come
    from training rows, never from the rows being scored: otherwise a row's
    perturbations, hence its PGI / PGU / stability score, would depend on the
    other rows of its batch.  The metrics therefore resolve it with
    :func:`~sklearn_xai.masking.check_perturber`: a fitted perturber is used
    as is and an unfitted one is fitted on their ``X_train`` argument;
    without training rows only what needs no data is set (``std`` in input
    units and the listed binary columns) and ``sigma_scale="std"`` and
    ``clip=True`` are refused.

    Parameters
    ----------
    std : float, default=0.1
        Noise level σ of continuous features.
    sigma_scale : {"std", "absolute"}, default="std"
        ``"std"``: ``sigma_j = std * (training std of feature j)``, so the
        noise is in the units of each feature; ``"absolute"``: ``sigma_j =
        std`` in the model's input units (OpenXAI's convention on min–max
        scaled data).
    flip_prob : float in [0, 1] or None, default=None
        Flip probability of binary features and one-hot groups; ``None`` is
        ``min(std * sqrt(2 / pi), 1)``.
    binary_features : "auto", array-like of bool or int, or None, default="auto"
        Binary features: ``"auto"`` takes the columns whose training values
        are all 0 or 1 (none when a metric has no training rows); a boolean
        mask or a list of column indices; ``None`` treats every feature as
        continuous.  Columns of ``onehot_groups`` are never treated as
        independent binary features.
    onehot_groups : list of list of int or None, default=None
        Column indices of each one-hot encoded categorical feature.
    onehot_fixed : {"group", "columns"}, default="group"
        How a one-hot group with some fixed columns is perturbed.
        ``"group"``: it stays as it is, so a perturbed row is always a valid
        one-hot encoding.  ``"columns"``: the group moves as if it were free
        and only its fixed columns are restored, which can leave two active
        categories or none.  This is OpenXAI's
        ``NewDiscrete_NormalPerturbation`` (``openxai/explainers/
        perturbation_methods.py``), whose feature mask holds columns, not
        features; the PGI / PGU of its German Credit tables use it.
    clip : bool, default=False
        Clip perturbed values to the training range of each feature
        (OpenXAI does not clip).

    Attributes
    ----------
    scale_ : ndarray of shape (n_features,)
        Standard deviation of the Gaussian noise per feature.
    binary_mask_ : ndarray of shape (n_features,), bool
        Features that are flipped instead of receiving noise.
    flip_prob_ : float
        Flip probability in use.
    onehot_groups_ : list of ndarray of int
        Validated one-hot groups.
    data_min_, data_max_ : ndarray of shape (n_features,)
        Training range (used by ``clip=True``; infinite when fitted without
        rows).
    {n_features_in}

    {masker_references}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.masking import GaussianNoisePerturber
    >>> from sklearn_xai.utils import RowStreams
    >>> X = np.array([[0.0, 1.0, 5.0], [1.0, 3.0, 7.0]])
    >>> p = GaussianNoisePerturber(std=0.1).fit(X)
    >>> p.binary_mask_.tolist(), p.scale_.round(3).tolist()
    ([True, False, False], [0.0, 0.1, 0.1])
    >>> Z = p.perturb(X, [True, False, True], 4, RowStreams(0, [0, 1]))
    >>> Z.shape
    (2, 4, 3)
    >>> bool(np.all(Z[:, :, [0, 2]] == X[:, None, [0, 2]]))  # fixed features
    True
    """

    _parameter_constraints = {
        "std": [Interval(numbers.Real, 0, None, closed="left")],
        "sigma_scale": [StrOptions({"std", "absolute"})],
        "flip_prob": [Interval(numbers.Real, 0, 1, closed="both"), None],
        "binary_features": [StrOptions({"auto"}), "array-like", None],
        "onehot_groups": [list, tuple, None],
        "onehot_fixed": [StrOptions({"group", "columns"})],
        "clip": ["boolean"],
    }

    def __init__(self, std=0.1, *, sigma_scale="std", flip_prob=None,
                 binary_features="auto", onehot_groups=None, onehot_fixed="group",
                 clip=False):
        self.std = std
        self.sigma_scale = sigma_scale
        self.flip_prob = flip_prob
        self.binary_features = binary_features
        self.onehot_groups = onehot_groups
        self.onehot_fixed = onehot_fixed
        self.clip = clip

    def _fit(self, X):
        """Learn per-feature noise scales, binary features and the data range."""
        self._learn(X, X.shape[1])

    # Without training rows (check_perturber for a metric that has none),
    # only what needs no data is set: ``sigma_j = std``
    # (``sigma_scale="absolute"``), the binary columns listed in
    # ``binary_features`` (``"auto"`` finds none, with a warning: there is
    # nothing to detect them on) and the one-hot groups.
    _without_rows_alternative = ', or use sigma_scale="absolute" (noise in input units)'

    def _learns_from_rows(self):
        needs = [what for what, flag in (
            ('sigma_scale="std" (the training std of each feature)',
             self.sigma_scale == "std"),
            ("clip=True (the training range)", self.clip)) if flag]
        return " and ".join(needs) if needs else None

    def _fit_data_free(self, n_features):
        if isinstance(self.binary_features, str):
            warnings.warn(
                "binary_features='auto' detects binary columns on training rows, "
                "and the metric has none: every column gets Gaussian noise. Pass "
                "the metric X_train=<training rows> or a fitted perturber, or set "
                "binary_features to a mask (or None) to silence this warning.",
                UserWarning, stacklevel=6,
            )
        self._learn(None, n_features)

    def _learn(self, X, d):
        """Set the fitted attributes from the rows ``X`` (None: no rows)."""
        groups = []
        in_group = np.zeros(d, dtype=bool)
        for g in self.onehot_groups or ():
            g = np.asarray(g, dtype=np.intp).ravel()
            if g.size < 2 or g.min() < 0 or g.max() >= d or np.any(in_group[g]) \
                    or np.unique(g).size != g.size:
                raise ValueError(
                    "onehot_groups must be disjoint lists of at least two distinct "
                    f"column indices in [0, {d - 1}]; got {list(self.onehot_groups)}."
                )
            in_group[g] = True
            groups.append(g)
        if isinstance(self.binary_features, str) and X is not None:
            binary = np.all((X == 0) | (X == 1), axis=0)
        elif self.binary_features is None or isinstance(self.binary_features, str):
            binary = np.zeros(d, dtype=bool)
        else:
            b = np.asarray(self.binary_features).ravel()
            if b.dtype == bool:
                if b.shape != (d,):
                    raise ValueError(
                        f"binary_features as a boolean mask needs {d} entries; got "
                        f"{b.size}."
                    )
                binary = b.copy()
            else:
                if b.size and (not np.issubdtype(b.dtype, np.integer)
                               or b.min() < -d or b.max() >= d):
                    raise ValueError(
                        "binary_features must be 'auto', None, a boolean mask or "
                        f"column indices in [0, {d - 1}]; got {self.binary_features!r}."
                    )
                binary = np.zeros(d, dtype=bool)
                binary[b.astype(np.intp)] = True
        self.binary_mask_ = binary & ~in_group
        self.onehot_groups_ = groups
        self._onehot_mask = in_group
        spread = np.ones(d) if self.sigma_scale == "absolute" else X.std(axis=0)
        continuous = ~(self.binary_mask_ | in_group)
        self.scale_ = np.where(continuous, float(self.std) * spread, 0.0)
        self.flip_prob_ = float(
            min(float(self.std) * np.sqrt(2.0 / np.pi), 1.0)
            if self.flip_prob is None else self.flip_prob
        )
        self.data_min_ = np.full(d, -np.inf) if X is None else X.min(axis=0)
        self.data_max_ = np.full(d, np.inf) if X is None else X.max(axis=0)
        return self

    def _draw(self, rngs, n_perturbations):
        """Random numbers of every row: Gaussian, flip and one-hot draws.

        Everything is drawn for all features whatever the fixed set, so that
        different masks applied to the same draws share their noise (common
        random numbers across k and between PGI and PGU).
        """
        d = self.n_features_in_
        n_groups = len(self.onehot_groups_)
        n_flip = d if self.binary_mask_.any() else 0
        gauss = rngs.normal((n_perturbations, d), stream=0)
        unif = rngs.uniform((n_perturbations, n_flip), stream=1)
        group_u = rngs.uniform((n_perturbations, n_groups), stream=2)
        return gauss, unif, group_u

    def _apply(self, X, fixed, draws):
        """Perturbed rows (n, m, n_perturbations, d) for fixed masks (n, m, d)."""
        gauss, unif, group_u = draws
        Xb = X[:, None, None, :]
        free = ~fixed[:, :, None, :]
        Z = Xb + free * (gauss[:, None] * self.scale_)
        if unif.shape[-1]:
            flip = free & self.binary_mask_ & (unif[:, None] < self.flip_prob_)
            Z = np.where(flip, np.abs(Xb - 1.0), Z)
        p = self.flip_prob_
        for gi, g in enumerate(self.onehot_groups_):
            size = g.size
            # Move with probability p; the position of u inside [0, p) also picks
            # the new category uniformly among the size - 1 others.
            u = group_u[:, None, :, gi]
            if self.onehot_fixed == "group":
                move = ((u < p) & np.all(free[..., g], axis=-1))[..., None]
            else:  # "columns": move, then restore the fixed columns
                move = (u < p)[..., None] & free[..., g]
            if not np.any(move):
                continue
            active = np.argmax(X[:, g], axis=1)[:, None, None]
            step = 1 + np.minimum((u / max(p, 1e-300) * (size - 1)).astype(np.intp),
                                  size - 2)
            new = (active + step) % size
            onehot = (np.arange(size) == new[..., None]).astype(np.float64)
            block = Z[..., g]
            Z[..., g] = np.where(move, onehot, block)
        if self.clip:
            Z = np.clip(Z, self.data_min_, self.data_max_)
        return Z

    def _perturb(self, X, fixed, n_perturbations, rngs):
        # The Gaussian noise comes from stream 0 of the rows' RowStreams, the
        # flips from stream 1 and the one-hot moves from stream 2.
        return self._apply(X, fixed, self._draw(rngs, n_perturbations))
