"""Random attributions: the control every benchmark compares against."""

import numbers

import numpy as np
from sklearn.base import clone

from sklearn_xai.base import BaseExplainer
from sklearn_xai.utils._sklearn import HasMethods, Interval, StrOptions

__all__ = ["RandomExplainer"]


class RandomExplainer(BaseExplainer):
    """Model-ignorant random attributions (the control of XAI-Bench, OpenXAI,
    XAI-TRIS and BEExAI's sanity check).

    Parameters
    ----------
    estimator : estimator or None, default=None
        Ignored for the attributions; fitted when given so the explainer can
        stand in for any other inside :class:`~sklearn_xai.compose.ExplainedModel`.
    distribution : {"normal", "uniform", "uniform_range"}, default="normal"
        ``"normal"``: i.i.d. N(0, scale²) (XAI-Bench, OpenXAI);
        ``"uniform"``: U(-scale, scale) (XAI-TRIS);
        ``"uniform_range"``: uniform between the smallest and largest
        attribution that ``reference`` gives on the training rows (BEExAI's
        sanity baseline, bounds learnt in ``fit`` so a row's attributions do
        not depend on the other rows being explained).
    scale : float, default=1.0
        Standard deviation (normal) or half-width (uniform).
    reference : explainer, default=None
        The explainer whose range ``"uniform_range"`` uses; it is cloned,
        given this explainer's model, and fitted in :meth:`fit`.
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row random streams.

    Attributes
    ----------
    estimator_ : estimator or None
        The fitted model (``None`` without ``estimator``).
    low_, high_ : float
        Bounds of ``"uniform_range"``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Notes
    -----
    The control explains no output of the model, so it has no ``target``
    nor ``output``: a benchmark (:func:`~sklearn_xai.benchmark.run_benchmark`,
    :func:`~sklearn_xai.benchmark.compare_explainers`) scores it on the
    output its other explainers explain, so that its scores compare with
    theirs.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_xai.explainers import RandomExplainer
    >>> X = np.zeros((3, 4))
    >>> A = RandomExplainer(random_state=0).fit(X).transform(X)
    >>> A.shape
    (3, 4)
    >>> bool(np.allclose(A[0], A[1]))  # equal rows get equal draws
    True
    """

    _parameter_constraints = {
        **BaseExplainer._parameter_constraints,
        "distribution": [StrOptions({"normal", "uniform", "uniform_range"})],
        "scale": [Interval(numbers.Real, 0, None, closed="neither")],
        "reference": [HasMethods(["fit", "transform"]), None],
    }
    def __init__(self, estimator=None, *, distribution="normal", scale=1.0,
                 reference=None, random_state=None):
        self.estimator = estimator
        self.distribution = distribution
        self.scale = scale
        self.reference = reference
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.explainer_tags.requires_estimator = False
        tags.explainer_tags.model_agnostic = False  # it explains no model
        tags.explainer_tags.stochastic = True
        # Common random numbers would give a neighbour the very same random
        # attributions and make the control look perfectly stable.
        tags.explainer_tags.shares_row_keys = False
        tags.non_deterministic = self.random_state is None
        return tags

    def _fit_explainer(self, X, y):
        if self.distribution != "uniform_range":
            return
        if self.reference is None:
            raise ValueError(
                "distribution='uniform_range' needs reference=<explainer> whose "
                "attribution range the random control should match."
            )
        ref = clone(self.reference)
        if self.estimator_ is not None and "estimator" in ref.get_params(deep=False):
            from sklearn.frozen import FrozenEstimator

            ref.set_params(estimator=FrozenEstimator(self.estimator_))
        A = ref.fit(X, y).transform(X)
        A = np.asarray(A, dtype=np.float64)
        self.low_, self.high_ = float(A.min()), float(A.max())

    def _explain(self, X, f, target_index, rngs):
        d = X.shape[1]
        if self.distribution == "normal":
            return self.scale * rngs.normal(d)
        low, high = ((-self.scale, self.scale) if self.distribution == "uniform"
                     else (self.low_, self.high_))
        return low + (high - low) * rngs.uniform(d)
