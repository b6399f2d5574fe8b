"""Noisy linear imputation (ROAD's masker; see :ref:`def-noisy-linear` in the
user guide)."""

import numbers

import numpy as np
from scipy.sparse import csc_matrix
from scipy.sparse.linalg import splu

from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.masking._base import BaseMasker
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._sklearn import Interval

__all__ = ["NoisyLinearMasker"]

# Neighbours of a pixel and their weights in Rong et al.'s imputation: 1/6
# for the four direct neighbours, 1/12 for the four diagonal ones.
_OFFSETS = ((-1, -1, 1 / 12), (-1, 0, 1 / 6), (-1, 1, 1 / 12), (0, -1, 1 / 6),
            (0, 1, 1 / 6), (1, -1, 1 / 12), (1, 0, 1 / 6), (1, 1, 1 / 12))


def _neighbour_table(height, width):
    """For every pixel and offset: the neighbour's flat index (-1 outside the
    image) and its weight, as arrays of shape (height * width, 8)."""
    r, c = np.divmod(np.arange(height * width), width)
    idx = np.empty((height * width, len(_OFFSETS)), dtype=np.intp)
    wts = np.empty(len(_OFFSETS))
    for k, (dr, dc, w) in enumerate(_OFFSETS):
        rr, cc = r + dr, c + dc
        inside = (rr >= 0) & (rr < height) & (cc >= 0) & (cc < width)
        idx[:, k] = np.where(inside, rr * width + cc, -1)
        wts[k] = w
    return idx, wts


# Planes whose removed pixels number at most this are solved as dense
# systems, batched over the planes with the same count (one LAPACK call per
# system, no Python loop per plane); larger ones as sparse systems.
_DENSE_MAX = 256


def _linear_fill(planes, removed, table):
    """Rong et al.'s linear imputation of the removed pixels of image planes.

    Each removed pixel equals the weighted mean of its (in-image) neighbours,
    kept or removed.  Every plane's system is solved on its own (a plane's
    values never depend on the other planes, to the last bit): planes with
    few removed pixels as dense systems, batched by their number of removed
    pixels; the others as sparse systems, factorised once per distinct mask.

    Parameters
    ----------
    planes : ndarray of shape (p, n_pixels)
    removed : bool ndarray of shape (p, n_pixels)
    table : (idx, wts) from :func:`_neighbour_table`

    Returns
    -------
    filled : ndarray of shape (p, n_pixels)
    """
    out = planes.copy()
    counts = removed.sum(axis=1)
    n_pixels = planes.shape[1]
    full = counts == n_pixels
    # No kept pixel: the system is singular (any constant solves it).
    out[full] = 0.0
    small = (counts > 0) & (counts <= _DENSE_MAX) & ~full
    for r in np.unique(counts[small]):
        members = np.flatnonzero(small & (counts == r))
        _dense_fill(out, planes, removed, members, int(r), table)
    large = (counts > _DENSE_MAX) & ~full
    if np.any(large):
        _sparse_fill(out, planes, removed, np.flatnonzero(large), table)
    return out


def _dense_fill(out, planes, removed, members, r, table):
    """Solve the systems of the planes ``members``, each with ``r`` removed
    pixels, as one batch of dense (r, r) systems."""
    idx, wts = table
    P = members.size
    rem = removed[members]
    var = np.nonzero(rem)[1].reshape(P, r)  # removed pixels, in order
    var_id = np.cumsum(rem, axis=1) - 1  # variable of each removed pixel
    nb = idx[var]  # (P, r, 8)
    inside = nb >= 0
    nb_safe = np.where(inside, nb, 0)
    w = np.where(inside, wts, 0.0)
    rows_p = np.arange(P)[:, None, None]
    nb_removed = inside & rem[rows_p, nb_safe]
    lhs = np.zeros((P, r, r))
    ar = np.arange(r)
    lhs[:, ar, ar] = w.sum(axis=2)
    p_i, v_i, k_i = np.nonzero(nb_removed)
    lhs[p_i, v_i, var_id[p_i, nb_safe[p_i, v_i, k_i]]] -= w[p_i, v_i, k_i]
    x = planes[members]
    rhs = np.zeros((P, r))
    kept_w = np.where(inside & ~nb_removed, w, 0.0)
    for k in range(idx.shape[1]):  # elementwise: no batch-dependent sums
        rhs += kept_w[:, :, k] * x[np.arange(P)[:, None], nb_safe[:, :, k]]
    sol = np.linalg.solve(lhs, rhs[:, :, None])[:, :, 0]
    out[members[:, None], var] = sol


def _sparse_fill(out, planes, removed, members_all, table):
    """Solve large systems as sparse ones, one factorisation per distinct mask."""
    idx, wts = table
    masks, inverse = np.unique(removed[members_all], axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    for u, mask in enumerate(masks):
        var = np.flatnonzero(mask)
        members = members_all[inverse == u]
        nb = idx[var]  # (r, 8)
        inside = nb >= 0
        nb_safe = np.where(inside, nb, 0)
        w = np.where(inside, wts[None, :], 0.0)
        total = w.sum(axis=1)
        nb_removed = inside & mask[nb_safe]
        var_id = np.full(mask.size, -1, dtype=np.intp)
        var_id[var] = np.arange(var.size)
        rows, cols = np.nonzero(nb_removed)
        # total_i v_i - sum_{removed j} w_ij v_j = sum_{kept j} w_ij x_j
        data = np.concatenate([total, -w[rows, cols]])
        ii = np.concatenate([np.arange(var.size), rows])
        jj = np.concatenate([np.arange(var.size), var_id[nb_safe[rows, cols]]])
        lhs = csc_matrix((data, (ii, jj)), shape=(var.size, var.size))
        kept_w = np.where(inside & ~nb_removed, w, 0.0)  # (r, 8)
        sub = planes[members]
        rhs = np.zeros((members.size, var.size))
        for k in range(idx.shape[1]):  # elementwise: no batch-dependent sums
            rhs += kept_w[:, k] * sub[:, nb_safe[:, k]]
        # One factorisation per mask; one solve per row, because SuperLU's
        # multi-right-hand-side solve rounds differently with the number of
        # columns (a row's values would depend on the rows sharing its mask).
        lu = splu(lhs)
        for k, member in enumerate(members):
            out[member, var] = lu.solve(rhs[k])


def _gaussian_fill(X, keep, mean, cov):
    """Gaussian conditional means ``mu_U + Sigma_US Sigma_SS^+ (x_S - mu_S)``
    of every (row, coalition), kept features unchanged.

    The (row, coalition) pairs with the same number ``s`` of kept features
    are solved together: one stack of ``(s, s)`` pseudo-inverses (computed
    matrix by matrix, so a pair's values never depend on the others).
    """
    n, m, d = keep.shape
    flat = keep.reshape(n * m, d)
    x = np.repeat(X, m, axis=0)
    out = np.broadcast_to(mean, (n * m, d)).copy()
    counts = flat.sum(axis=1)
    for s in np.unique(counts):
        if s == 0:
            continue
        members = np.flatnonzero(counts == s)
        S = np.nonzero(flat[members])[1].reshape(members.size, s)  # kept columns
        xs = x[members[:, None], S]
        if s == d:
            out[members] = xs
            continue
        inv = np.linalg.pinv(cov[S[:, :, None], S[:, None, :]], hermitian=True)
        coef = np.matmul(inv, (xs - mean[S])[:, :, None])  # (P, s, 1)
        cross = np.transpose(cov[:, S], (1, 0, 2))  # (P, d, s)
        out[members] = mean + np.matmul(cross, coef)[:, :, 0]
        out[members[:, None], S] = xs
    return out.reshape(n, m, d)


@Substitution("n_features_in", masker_references=references("rong2022"))
class NoisyLinearMasker(BaseMasker):
    """Noisy linear imputation of the removed features (ROAD, Rong et al. 2022).

    A removed feature is replaced by a *linear* function of the kept ones,
    plus Gaussian noise, so that the imputed values carry (almost) no
    information about which features were removed: the class-information
    leakage through the mask shape that Rong et al. [1]_ show in baseline
    replacement is removed, and the evaluation of MoRF and LeRF orders
    agrees.  See :ref:`def-noisy-linear` in the user guide.

    * Images (``image_shape`` given): every removed pixel equals the
      weighted mean of its 8 neighbours inside the image (weight 1/6 for
      the direct neighbours, 1/12 for the diagonal ones, renormalised at
      the border, as in the authors' code), kept or removed.  The removed
      pixels of an image are the solution of one sparse linear system
      (factorised once per distinct mask), to which Gaussian noise of
      standard deviation ``noise`` (input units) is added.  The masker
      learns nothing from data.
    * Tabular rows (``image_shape=None``): columns have no neighbours, so
      the linear imputation is the best *linear* predictor of the removed
      features from the kept ones: the conditional mean of a Gaussian fitted
      to the training rows, ``mu_U + Sigma_US Sigma_SS^+ (x_S - mu_S)``,
      plus Gaussian noise of standard deviation ``noise`` times the
      feature's training standard deviation.  It is the tabular analogue of
      the image version: in both the removed values are a linear
      least-squares reconstruction from the kept values (the neighbour
      average is the conditional mean of a smooth Gaussian image model), so
      the reconstruction cannot encode the mask, and the noise keeps the
      model from reading the exact interpolant.

    With ``noise=0`` the masker is deterministic.  The mean of the imputed
    rows is the noiseless imputation, which gives the values of an affine
    model in closed form.

    Parameters
    ----------
    noise : float, default=0.01
        Standard deviation of the Gaussian noise added to the imputed
        values: in input units for images (Rong et al.'s 0.01 on inputs
        in [0, 1]), in units of each feature's training standard deviation
        for tabular rows.
    image_shape : tuple (height, width) or None, default=None
        The rows are flattened images of ``height * width`` pixels, or of
        ``n_channels * height * width`` values stored channel-first (each
        channel imputed on its own).  ``None``: tabular rows.
    n_draws : int, default=1
        Noisy imputations per row and coalition (ROAD uses one).  With
        ``noise=0`` every draw is the same.

    Attributes
    ----------
    distribution_ : MultivariateGaussian or None
        The Gaussian fitted to the training rows (tabular rows only).
    scale_ : ndarray of shape (n_features,)
        Standard deviation of the noise of each feature.
    {n_features_in}

    {masker_references}

    Examples
    --------
    A linear ramp is its own neighbour average, so the removed pixel of a
    linear image is recovered exactly:

    >>> import numpy as np
    >>> from sklearn_xai.masking import NoisyLinearMasker
    >>> image = np.add.outer(np.arange(3.0), 2 * np.arange(3.0)).reshape(1, 9)
    >>> keep = np.ones((1, 9), dtype=bool)
    >>> keep[0, 4] = False
    >>> masker = NoisyLinearMasker(noise=0.0, image_shape=(3, 3)).fit(image)
    >>> float(masker.impute(image, keep)[0, 0, 0, 4]), float(image[0, 4])
    (3.0, 3.0)
    """

    _parameter_constraints = {
        "noise": [Interval(numbers.Real, 0, None, closed="left")],
        "image_shape": ["array-like", None],
        "n_draws": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, noise=0.01, *, image_shape=None, n_draws=1):
        self.noise = noise
        self.image_shape = image_shape
        self.n_draws = n_draws

    # BaseMasker declares n_draws an abstract property; here it is a parameter.
    n_draws = 1

    @property
    def is_deterministic(self):
        return self.noise == 0

    def _draw_count(self):
        return 1 if self.is_deterministic else int(self.n_draws)

    def _resolve_shape(self, n_features):
        shape = tuple(int(s) for s in np.ravel(self.image_shape))
        if len(shape) != 2 or min(shape) < 1 or n_features % (shape[0] * shape[1]):
            raise ValueError(
                "image_shape must be (height, width) with n_features a multiple "
                f"of height * width (channel-first images); got {self.image_shape!r} "
                f"for {n_features} features."
            )
        self.image_shape_ = shape
        self._table = _neighbour_table(*shape)

    def _learns_from_rows(self):
        if self.image_shape is not None:
            return None
        return "its Gaussian (the mean and covariance of the training rows)"

    def _fit_data_free(self, n_features):
        self._resolve_shape(n_features)
        self.distribution_ = None
        self.scale_ = np.full(n_features, float(self.noise))

    def _fit(self, X):
        if self.image_shape is not None:
            self._fit_data_free(X.shape[1])
            return
        if X.shape[0] < 2:
            raise ValueError(
                "NoisyLinearMasker needs at least 2 training rows to estimate a "
                f"covariance for tabular rows; got {X.shape[0]} sample. Fit it on "
                "the training data, or pass image_shape=(height, width) for images."
            )
        self.image_shape_ = None
        self.distribution_ = MultivariateGaussian.from_data(X, ddof=1)
        self.scale_ = float(self.noise) * X.std(axis=0, ddof=1)

    def _expected_rows(self, X, keep):
        n, m, d = keep.shape
        if self.image_shape_ is not None:
            hw = self.image_shape_[0] * self.image_shape_[1]
            planes = np.broadcast_to(X[:, None, :], (n, m, d)).reshape(-1, hw)
            out = _linear_fill(planes, ~keep.reshape(-1, hw), self._table)
            return out.reshape(n, m, d)
        return _gaussian_fill(X, keep, self.distribution_.mean,
                              self.distribution_.cov)

    def _impute(self, X, keep, rngs):
        n, m, d = keep.shape
        mean = self._expected_rows(X, keep)[:, :, None, :]
        if self.is_deterministic:
            return mean
        b = int(self.n_draws)
        # One block of normals per row, shared by its coalitions, from the
        # rows' generators (maskers leave the counter-based streams to their
        # caller).
        z = np.stack([g.standard_normal((b, d)) for g in rngs.generators()])
        noise = z[:, None, :, :] * self.scale_
        return np.where(keep[:, :, None, :], X[:, None, None, :], mean + noise)
