"""The docstring sections the distributions share are written once
(distributions/_base.py, the citation registry) and read as written out."""

from sklearn_xai.distributions import (
    BaseDistribution,
    GaussianMixture,
    MultivariateGaussian,
)

LIU_2021 = (".. [{}] Y. Liu, S. Khandagale, C. White and W. Neiswanger, \"Synthetic\n"
            "       Benchmarks for Scientific Research in Explainable Machine "
            "Learning\",\n       NeurIPS Datasets and Benchmarks 2021.\n\n    Examples\n")


def test_shared_method_sections_read_as_written_out():
    for distribution in (BaseDistribution, MultivariateGaussian):
        assert ("Observational conditional law of the free features given ``x_S``."
                "\n\n        Parameters\n        ----------\n"
                "        x : array-like of shape (n_features,)\n"
                "            The instance; only its values on ``given`` are used.\n"
                "        given : bool array-like of shape (n_features,) or list of int\n"
                "            The fixed features ``S``.\n\n        Returns\n"
                ) in distribution.conditional.__doc__
    for distribution in (MultivariateGaussian, GaussianMixture):
        assert distribution.logpdf.__doc__ == (
            "Log density of each row.\n\n        Parameters\n        ----------\n"
            "        X : array-like of shape (n_rows, n_features)\n\n"
            "        Returns\n        -------\n"
            "        logpdf : ndarray of shape (n_rows,)\n        ")


def test_references_read_as_written_out():
    for distribution in (MultivariateGaussian, GaussianMixture):
        assert ("\n    References\n    ----------\n    " + LIU_2021.format(1)
                ) in distribution.__doc__
    assert ("\n    References\n    ----------\n    .. [1] K. Aas, M. Jullum and "
            "A. Løland, \"Explaining individual predictions\n       when features "
            "are dependent: More accurate approximations to Shapley\n       values\", "
            "Artificial Intelligence 298, 2021.\n    " + LIU_2021.format(2)
            ) in BaseDistribution.__doc__
