"""Helpers shared by the ``make_*`` generators (their common Bunch contract)."""

import numpy as np
from sklearn.utils import Bunch

from sklearn_xai.distributions import MultivariateGaussian
from sklearn_xai.utils._random import seed_entropy
from sklearn_xai.utils._validation import check_feature_vector

__all__ = []


def _generator(random_state):
    """A numpy Generator from a scikit-learn style ``random_state``."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(seed_entropy(random_state))


def _feature_names(n_features, prefix="x"):
    return [f"{prefix}{j}" for j in range(n_features)]


def _gaussian(n_features, mean, rho, cov):
    """The feature Gaussian of the XAI-Bench style generators.

    ``cov=None`` gives the equicorrelated ``Sigma(rho)``; a user ``cov`` is
    used as is (then ``rho`` must stay 0).
    """
    mean = check_feature_vector(mean, n_features, "mean")
    if cov is None:
        cov = MultivariateGaussian.equicorrelated(n_features, rho).cov
    else:
        if rho != 0:
            raise ValueError(
                "pass either rho (equicorrelated covariance) or cov, not both; "
                "set rho=0 when giving cov."
            )
        cov = np.asarray(cov, dtype=np.float64)
        if cov.shape != (n_features, n_features):
            raise ValueError(
                f"cov must have shape ({n_features}, {n_features}) for "
                f"n_features={n_features}; got {cov.shape}."
            )
    return MultivariateGaussian(mean, cov)


def _finish(
    *,
    X,
    y,
    ground_truth,
    ground_truth_mask,
    distribution,
    label_function,
    feature_names,
    descr,
    parameters,
    rng,
    shuffle,
    return_X_y,
    as_frame,
    per_row=(),
    **extra,
):
    """Shuffle rows, build the Bunch (or ``(X, y)``) of a generator.

    The Bunch names ``X`` and ``y`` ``data`` and ``target`` (scikit-learn's
    spelling).  ``per_row`` names entries of ``extra`` with one row per
    sample, permuted together with ``X``, ``y`` and the ground truth.
    Returns the Bunch and the permutation applied (``None`` when not
    shuffled).
    """
    perm = rng.permutation(X.shape[0]) if shuffle else None
    if perm is not None:
        X, y = X[perm], y[perm]
        if ground_truth is not None:
            ground_truth = ground_truth[perm]
        if ground_truth_mask is not None:
            ground_truth_mask = ground_truth_mask[perm]
        for key in per_row:
            extra[key] = extra[key][perm]
    feature_info = {name: "continuous" for name in feature_names}
    if as_frame:
        import pandas as pd

        X = pd.DataFrame(X, columns=feature_names)
        y = pd.Series(y, name="target")
        if ground_truth is not None:
            ground_truth = pd.DataFrame(ground_truth, columns=feature_names)
        if ground_truth_mask is not None:
            ground_truth_mask = pd.DataFrame(ground_truth_mask, columns=feature_names)
    if return_X_y:
        return (X, y), perm
    bunch = Bunch(
        data=X,
        target=y,
        ground_truth=ground_truth,
        ground_truth_mask=ground_truth_mask,
        distribution=distribution,
        label_function=label_function,
        feature_names=list(feature_names),
        feature_info=feature_info,
        DESCR=descr,
        parameters=parameters,
        **extra,
    )
    if as_frame:
        bunch.frame = pd.concat([X, y], axis=1)
    return bunch, perm
