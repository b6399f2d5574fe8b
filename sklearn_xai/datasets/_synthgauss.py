"""OpenXAI's SynthGauss: clustered Gaussian data with per-cluster sparse
logistic labels (Agarwal et al. 2022)."""

import numbers

import numpy as np
from sklearn.utils import check_random_state

from sklearn_xai.datasets._common import _feature_names, _finish
from sklearn_xai.distributions import GaussianMixture
from sklearn_xai.utils._docstring import Substitution, references
from sklearn_xai.utils._sklearn import Interval, StrOptions, validate_params
from sklearn_xai.utils._validation import check_rows as _check_rows

__all__ = ["make_synthgauss"]


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _code_centers(n_clusters, n_features, distance):
    """OpenXAI code's centres: axis-aligned, ``+-`` when K = 2d, else blocks
    of ``d`` centres with multipliers 1, 2, 4, 6, ... (last block partial)."""
    K, d = n_clusters, n_features
    eye = np.eye(d) * distance
    if d >= K:
        return eye[:K].copy()
    if K == 2 * d:
        return np.concatenate([eye, -eye])
    multipliers = np.repeat(np.r_[1.0, 2.0 * np.arange(1, K // d + 1)], d)[:K]
    return eye[np.arange(K) % d] * multipliers[:, None]


def _paper_centers(n_clusters, n_features, distance):
    """OpenXAI paper's centres: ``kappa e_k``, far blocks at 2 kappa, 3 kappa, ..."""
    k = np.arange(n_clusters)
    return np.eye(n_features)[k % n_features] * (distance * (1 + k // n_features))[:, None]


def _draw_masks(rs, n_masks, n_features, sparsity, min_active):
    """Bernoulli(sparsity) masks, redrawn until each has ``min_active`` ones."""
    masks = rs.binomial(1, sparsity, size=(n_masks, n_features)).astype(bool)
    while min_active and np.any(bad := masks.sum(axis=1) < min_active):
        masks[bad] = rs.binomial(1, sparsity, size=(int(bad.sum()), n_features)) > 0
    return masks


class _SynthGaussLabelFunction:
    """Oracle of SynthGauss: ``pi = sigmoid(x . (w_k * m_k))``, ``y = 1[pi > t]``.

    Calling it needs each row's cluster; when it is not given, the most
    probable cluster under the data distribution is used.

    Attributes
    ----------
    effective_weights : ndarray of shape (n_clusters, n_features)
        ``w_k * m_k`` per cluster.
    threshold : float
        The class threshold ``t``.
    distribution : GaussianMixture
    """

    def __init__(self, effective_weights, threshold, distribution):
        self.effective_weights = effective_weights
        self.threshold = float(threshold)
        self.distribution = distribution

    def __repr__(self):
        return (
            f"_SynthGaussLabelFunction(n_clusters={len(self.effective_weights)}, "
            f"threshold={self.threshold:.4g})"
        )

    def _cluster(self, X, cluster):
        if cluster is None:
            return np.argmax(self.distribution.component_posterior(X), axis=1)
        cluster = np.asarray(cluster)
        if cluster.shape != (X.shape[0],) or cluster.min() < 0 or \
                cluster.max() >= len(self.effective_weights):
            raise ValueError(
                f"cluster must hold one cluster index in [0, "
                f"{len(self.effective_weights)}) per row."
            )
        return cluster

    def probs(self, X, cluster=None):
        """``sigmoid(x . (w_k * m_k))`` per row, shape (n_rows,)."""
        X = _check_rows(X, self.effective_weights.shape[1])
        w = self.effective_weights[self._cluster(X, cluster)]
        return _sigmoid(np.einsum("ij,ij->i", X, w))

    def __call__(self, X, cluster=None):
        """Class labels ``1[pi > threshold]`` per row."""
        return (self.probs(X, cluster) > self.threshold).astype(np.int64)


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_features": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_clusters": [Interval(numbers.Integral, 1, None, closed="left")],
        "cluster_distance": [Interval(numbers.Real, 0, None, closed="neither")],
        "weight_range": [tuple, list],
        "sparsity": [Interval(numbers.Real, 0, 1, closed="both")],
        "cov": ["array-like", None],
        "test_size": [Interval(numbers.Real, 0, 1, closed="left")],
        "convention": [StrOptions({"openxai_code", "paper"})],
        "min_active_features": [Interval(numbers.Integral, 0, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "return_X_y": ["boolean"],
        "as_frame": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
@Substitution("return_X_y_as_frame", dataset_references=references("agarwal2022"))
def make_synthgauss(n_samples=1000, n_features=20, *, n_clusters=10,
                    cluster_distance=6.0, weight_range=(-1.0, 1.0), sparsity=0.25,
                    cov=None, test_size=0.25, convention="openxai_code",
                    min_active_features=0, shuffle=True, random_state=None,
                    return_X_y=False, as_frame=False):
    """OpenXAI's synthetic Gaussian-cluster classification data.

    ``convention="openxai_code"`` (default) follows the code that produced
    OpenXAI's data: one weight vector ``w ~ U(weight_range)^d`` shared by all
    clusters; cluster by cluster a mask ``m_k ~ Bernoulli(sparsity)^d`` and
    ``n_samples`` rows ``x ~ N(mu_k, cov)``; ``pi = sigmoid(x . (w * m_k))``;
    threshold ``t`` = the first point of a 1000-point grid on [0, 1] whose
    positive rate is closest to 1/2; ``y = 1[pi > t]``.  With an int
    ``random_state`` and ``shuffle=False`` the draws are those of OpenXAI's
    generator seeded with the same int (legacy ``RandomState`` stream).
    ``convention="paper"`` follows OpenXAI's Algorithm 1: per-cluster weights,
    the cluster of each of ``n_samples`` rows drawn uniformly, centres
    ``kappa e_k`` with far blocks at ``2 kappa``, ``3 kappa``, ... and the
    median of ``pi`` as threshold.

    Parameters
    ----------
    n_samples : int, default=1000
        Rows **per cluster** (``"openxai_code"``; OpenXAI paper parameters) or
        in total (``"paper"``).
    n_features : int, default=20
        Number of features ``d``.
    n_clusters : int, default=10
        Number of clusters ``K`` (OpenXAI code class default: 100).
    cluster_distance : float, default=6.0
        Centre distance ``kappa`` (code class default: 5).
    weight_range : tuple (low, high), default=(-1.0, 1.0)
        Range of the uniform weights.
    sparsity : float, default=0.25
        Probability ``p`` that a feature is active in a cluster's mask (code
        class default: 0.5).
    cov : array-like of shape (n_features, n_features), default=None
        Covariance of every cluster (default: identity).
    test_size : float, default=0.25
        Fraction of rows in the test split (``floor(n * test_size)`` rows
        drawn without replacement).
    convention : {"openxai_code", "paper"}, default="openxai_code"
        Data-generating process (see above): the code that produced
        OpenXAI's data, or the paper's Algorithm 1.
    min_active_features : int, default=0
        Redraw cluster masks with fewer active features (OpenXAI: 0; an
        all-zero mask makes a cluster's labels ignore its features; 1 is
        recommended outside reproduction).
    shuffle : bool, default=True
        Shuffle the rows (``False`` keeps OpenXAI's cluster-by-cluster order).
    random_state : int, RandomState instance or None, default=None
        Seed (OpenXAI used 564 in the paper's parameters, 567 in its code).
    {return_X_y_as_frame}

    Returns
    -------
    data : Bunch
        ``data``, ``target``, ``probs`` (``pi``), ``cluster`` (index per row),
        ``ground_truth`` (``w_k * m_k`` of each row's cluster),
        ``ground_truth_mask`` (``m_k``), ``weights`` (``w``, shape (d,) for
        the code variant, (K, d) for the paper variant), ``cluster_masks``
        (K, d), ``centers`` (K, d), ``threshold``, ``train_indices``,
        ``test_indices``, ``distribution`` (the equal-weight Gaussian
        mixture of the clusters), ``label_function``, ``feature_names``,
        ``feature_info``, ``DESCR``, ``parameters``.
    (X, y) : tuple if ``return_X_y`` is True.

    {dataset_references}

    Examples
    --------
    >>> from sklearn_xai.datasets import make_synthgauss
    >>> data = make_synthgauss(n_samples=50, n_features=5, n_clusters=4,
    ...                        random_state=0)
    >>> data.data.shape, len(data.test_indices)
    ((200, 5), 50)
    >>> bool((data.ground_truth[data.ground_truth_mask == 0] == 0).all())
    True
    """
    if len(weight_range) != 2 or not float(weight_range[0]) < float(weight_range[1]):
        raise ValueError(
            f"weight_range must be a pair (low, high) with low < high; got "
            f"{weight_range!r}."
        )
    low, high = (float(v) for v in weight_range)
    if min_active_features > n_features or (min_active_features and sparsity == 0):
        raise ValueError(
            f"min_active_features={min_active_features} cannot be met with "
            f"n_features={n_features} and sparsity={sparsity}; lower it or raise "
            "sparsity."
        )
    d, K = n_features, n_clusters
    if cov is None:
        cov = np.eye(d)
    cov = np.asarray(cov, dtype=np.float64)
    if cov.shape != (d, d):
        raise ValueError(f"cov must have shape ({d}, {d}); got {cov.shape}.")
    rs = check_random_state(random_state)
    if convention == "openxai_code":
        centers = _code_centers(K, d, cluster_distance)
        distribution = GaussianMixture(np.full(K, 1.0 / K), centers, cov)
        w = rs.uniform(high, low, d)  # OpenXAI passes (upper, lower)
        masks, blocks = [], []
        for k in range(K):
            masks.append(_draw_masks(rs, 1, d, sparsity, min_active_features)[0])
            blocks.append(rs.multivariate_normal(centers[k], cov, n_samples))
        masks = np.array(masks)
        X = np.concatenate(blocks)
        cluster = np.repeat(np.arange(K), n_samples)
        effective = w * masks
    else:
        centers = _paper_centers(K, d, cluster_distance)
        distribution = GaussianMixture(np.full(K, 1.0 / K), centers, cov)
        w = rs.uniform(low, high, (K, d))
        masks = _draw_masks(rs, K, d, sparsity, min_active_features)
        effective = w * masks
        cluster = rs.randint(K, size=n_samples)
        X = centers[cluster] + rs.multivariate_normal(np.zeros(d), cov, n_samples)
    probs = _sigmoid(np.einsum("ij,ij->i", X, effective[cluster]))
    if convention == "openxai_code":
        grid = np.linspace(0.0, 1.0, 1000)
        rates = (probs[None, :] > grid[:, None]).mean(axis=1)
        threshold = float(grid[np.argmin(np.abs(rates - 0.5))])
    else:
        threshold = float(np.median(probs))
    y = (probs > threshold).astype(np.int64)
    n_total = X.shape[0]
    n_test = int(n_total * test_size)
    test = np.sort(rs.choice(n_total, n_test, replace=False))
    label_function = _SynthGaussLabelFunction(effective, threshold, distribution)
    parameters = dict(
        n_samples=n_samples, n_features=d, n_clusters=K,
        cluster_distance=cluster_distance, weight_range=(low, high),
        sparsity=sparsity, cov=cov.copy(), test_size=test_size, convention=convention,
        min_active_features=min_active_features, random_state=random_state,
    )
    descr = (
        f"OpenXAI SynthGauss ({convention} process): {K} Gaussian clusters in {d} "
        "dimensions; each cluster's label probability is "
        "sigmoid(x . (w * m_k)) with a sparse mask m_k; y = 1[pi > threshold]. "
        "Ground truth: w * m_k of the row's cluster.\nSource: Agarwal et al., "
        "OpenXAI, NeurIPS Datasets & Benchmarks 2022."
    )
    rng = np.random.default_rng(rs.randint(np.iinfo(np.int32).max))
    result, perm = _finish(
        X=X, y=y, ground_truth=effective[cluster], ground_truth_mask=masks[cluster],
        distribution=distribution, label_function=label_function,
        feature_names=_feature_names(d), descr=descr, parameters=parameters, rng=rng,
        shuffle=shuffle, return_X_y=return_X_y, as_frame=as_frame,
        per_row=("probs", "cluster"), probs=probs, cluster=cluster, weights=w,
        cluster_masks=masks, centers=centers, threshold=threshold,
    )
    if return_X_y:
        return result
    is_test = np.zeros(n_total, dtype=bool)
    is_test[test] = True
    if perm is not None:
        is_test = is_test[perm]
    result.test_indices = np.flatnonzero(is_test)
    result.train_indices = np.flatnonzero(~is_test)
    return result
