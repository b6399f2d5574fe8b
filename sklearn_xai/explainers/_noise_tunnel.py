"""NoiseTunnel: SmoothGrad, SmoothGrad-squared and VarGrad around any explainer."""

import dataclasses
import numbers

import numpy as np
from sklearn import get_config
from sklearn.utils import get_tags
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)

from sklearn_xai.base import (
    BaseExplainer,
    Tags,
    clone_with_estimator,
    mark_fitted,
    validate_X,
)
from sklearn_xai.explainers._gradients import Saliency
from sklearn_xai.utils._config import check_allocation
from sklearn_xai.utils._sklearn import (
    HasMethods,
    Interval,
    StrOptions,
    validate_estimator_params,
)

__all__ = ["NoiseTunnel"]

_KINDS = ("smoothgrad", "smoothgrad_sq", "vargrad")


class NoiseTunnel(BaseExplainer):
    """Another explainer's attributions averaged over noisy copies of each row.

    Each explained row ``x`` is copied ``N = n_perturbations`` times with
    Gaussian noise, ``x + ε_i``, ``ε_i ~ N(0, stdev² I)`` in input units, the
    inner explainer explains all noisy copies of all rows in **one**
    ``explain`` call, and the ``N`` attributions ``A_i`` of a row are
    aggregated (Captum's ``NoiseTunnel``):

    * ``"smoothgrad"``: ``(1/N) Σ_i A_i`` (Smilkov et al. 2017);
    * ``"smoothgrad_sq"``: ``(1/N) Σ_i A_i²``;
    * ``"vargrad"``: ``(1/N) Σ_i A_i² - ((1/N) Σ_i A_i)²`` (Adebayo et
      al. 2018).

    The noise of a row comes from its own random stream, and the noisy
    copies are explained for the class explained at the *original* row
    (``target="predicted"`` is resolved at ``x``), so a row's attributions
    depend only on the row, the parameters and ``random_state``.  A
    stochastic inner explainer gets keys derived from the row's stream for
    its copies.  The noise is drawn as :class:`SmoothGrad` draws it:
    ``SmoothGrad(n_perturbations=N, std=s, abs=a, random_state=r)`` equals
    ``NoiseTunnel(Saliency(abs=a), n_perturbations=N, stdev=s,
    random_state=r)`` to rounding.

    Parameters
    ----------
    explainer : explainer or None, default=None
        The inner explainer (any sklearn_xai explainer); ``None`` is
        :class:`Saliency`.  Its ``target`` and ``output`` are the ones
        explained.
    kind : {"smoothgrad", "smoothgrad_sq", "vargrad"}, default="smoothgrad"
        Aggregation of the noisy copies' attributions.
    n_perturbations : int, default=20
        Noisy copies per row (Captum's ``nt_samples``).
    stdev : float, default=0.1
        Standard deviation of the noise, in input units (Captum's
        ``stdevs``; the SmoothGrad paper uses 10-20 % of the input range).
    estimator : estimator or None, default=None
        The model to explain; when given it replaces the inner explainer's
        ``estimator`` (as :class:`~sklearn_xai.compose.ExplainedModel` and
        the benchmark runner set it).
    random_state : int, RandomState instance or None, default=None
        Seeds the noise.  Row ``i``'s draws depend only on the seed and on
        the row's values; pass an int for reproducible output.

    Attributes
    ----------
    explainer_ : explainer
        The fitted clone of the inner explainer.
    estimator_ : estimator
        The inner explainer's fitted model.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    References
    ----------
    .. [1] D. Smilkov, N. Thorat, B. Kim, F. Viégas and M. Wattenberg,
       "SmoothGrad: removing noise by adding noise", arXiv:1706.03825, 2017.
    .. [2] J. Adebayo, J. Gilmer, I. Goodfellow and B. Kim, "Local
       Explanation Methods for Deep Neural Networks Lack Sensitivity to
       Parameter Values", ICLR Workshop 2018.
    .. [3] S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark for
       Interpretability Methods in Deep Neural Networks", NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_xai.explainers import InputXGradient, NoiseTunnel
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = X @ [2.0, -1.0]
    >>> nt = NoiseTunnel(InputXGradient(LinearRegression()), kind="vargrad",
    ...                  n_perturbations=2000, stdev=0.5, random_state=0)
    >>> A = nt.fit(X, y).transform(X[:1])  # var((x + e) * w) = w**2 * 0.25
    >>> bool(np.allclose(A, [[1.0, 0.25]], rtol=0.1))
    True
    """

    _parameter_constraints = {
        "explainer": [HasMethods(["fit", "explain"]), None],
        "kind": [StrOptions(set(_KINDS))],
        "n_perturbations": [Interval(numbers.Integral, 1, None, closed="left")],
        "stdev": [Interval(numbers.Real, 0, None, closed="left")],
        "estimator": [HasMethods(["fit"]), None],
        "random_state": ["random_state"],
    }

    def __init__(self, explainer=None, *, kind="smoothgrad", n_perturbations=20,
                 stdev=0.1, estimator=None, random_state=None):
        self.explainer = explainer
        self.kind = kind
        self.n_perturbations = n_perturbations
        self.stdev = stdev
        self.estimator = estimator
        self.random_state = random_state

    def _inner(self):
        """An unfitted clone of the inner explainer, with ``estimator`` set."""
        return clone_with_estimator(
            Saliency() if self.explainer is None else self.explainer, self.estimator)

    def fit(self, X, y=None, **fit_params):
        """Fit a clone of the inner explainer (and its model).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,), default=None
            Targets (not needed for a ``FrozenEstimator``).
        **fit_params : dict
            Passed to the inner explainer's ``fit`` (routed when metadata
            routing is enabled).

        Returns
        -------
        self : object
        """
        validate_estimator_params(self)
        X_model = X
        validate_X(self, X, reset=True)
        if get_config().get("enable_metadata_routing", False):
            fit_params = process_routing(self, "fit", **fit_params).explainer.fit
        self.explainer_ = self._inner().fit(X_model, y, **fit_params)
        self.estimator_ = getattr(self.explainer_, "estimator_", None)
        mark_fitted(self)
        return self

    def get_metadata_routing(self):
        """Route ``fit`` metadata to the inner explainer's ``fit``.

        Returns
        -------
        routing : MetadataRouter
        """
        return MetadataRouter(owner=self).add(
            explainer=self._inner(),
            method_mapping=MethodMapping().add(caller="fit", callee="fit"),
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self._inner())
        explainer_tags = getattr(inner, "explainer_tags", None)
        if explainer_tags is not None:
            tags = Tags.from_sklearn(tags, dataclasses.replace(explainer_tags))
        tags.explainer_tags.stochastic = True
        tags.explainer_tags.shares_row_keys = True
        tags.target_tags.required = inner.target_tags.required
        tags.non_deterministic = self.random_state is None
        return tags

    def _output(self, target=None):
        inner = getattr(self.explainer_, "_output", None)
        return None if inner is None else inner(target)

    def _explain(self, X, f, target_index, rngs):
        n, d = X.shape
        N = self.n_perturbations
        check_allocation(2 * n * N * d, what=f"the noisy copies of {n} rows",
                         parameter="n_perturbations", value=N)
        keys = None
        inner_stochastic = getattr(
            get_tags(self.explainer_), "explainer_tags", None)
        inner_stochastic = inner_stochastic is not None and inner_stochastic.stochastic
        # Stream 0 of each row: the noise; stream 1: the keys of its noisy
        # copies' streams in the inner explainer (62-bit, non-negative).
        if self.stdev:
            # The Box–Muller draws SmoothGrad makes on the model's device,
            # with the streams' torch backend (on the CPU it computes them
            # about twice as fast as numpy's float64 transcendentals, as
            # fast as the ziggurat sampler).
            noise = rngs.normal((N, d), method="box_muller", device="cpu").numpy()
            noise *= self.stdev
        else:
            noise = np.zeros((n, N, d))
        if inner_stochastic:
            keys = (rngs.bits(N, stream=1) >> np.uint64(2)).astype(np.int64)
        noisy = (X[:, None, :] + noise).reshape(n * N, d)
        target = None
        if target_index is not None:
            classes = np.asarray(f.estimator.classes_)
            target = np.repeat(classes[target_index], N)
        A, n_eval = self.explainer_.explain(
            noisy, target=target, row_keys=None if keys is None else keys.ravel(),
            return_n_evaluations=True)
        if f is not None:
            f.n_evaluations += n_eval
            f.n_calls += 1
        A = np.asarray(A, dtype=np.float64).reshape(n, N, d)
        if self.kind == "smoothgrad":
            return A.mean(axis=1)
        if self.kind == "smoothgrad_sq":
            return (A * A).mean(axis=1)
        return A.var(axis=1)  # population variance, as Captum
