"""Feature distributions with known conditionals.

A distribution knows its observational conditionals ``X_U | X_S = x_S`` and
its interventional marginals ``X_U``, so the value functions, metrics and
Shapley values computed on it are exact (closed forms for affine models,
Monte Carlo with common random numbers otherwise).  The synthetic generators
of :mod:`sklearn_xai.datasets` return one (``bunch.distribution``);
:class:`~sklearn_xai.masking.ConditionalMasker` draws from it.

:class:`BaseDistribution` is the protocol maskers and generators use; subclass
it to plug in another distribution (see its docstring).
"""

from sklearn_xai.distributions._base import BaseDistribution
from sklearn_xai.distributions._gaussian import MultivariateGaussian
from sklearn_xai.distributions._mixture import GaussianMixture

__all__ = ["BaseDistribution", "GaussianMixture", "MultivariateGaussian"]
