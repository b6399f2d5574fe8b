"""The docstring blocks the maskers share are written once (the
``n_features_in`` fragment and the citation registry of utils/_docstring.py,
masking/_conditional.py's attributes of the conditional maskers) and read as
written out."""

from sklearn_xai.masking import (
    BaselineMasker,
    ConditionalMasker,
    EmpiricalConditionalMasker,
    GaussianConditionalMasker,
    GaussianNoisePerturber,
    NoisyLinearMasker,
)

N_FEATURES_IN = ("    n_features_in_ : int\n"
                 "        Number of features seen during :meth:`fit`.\n")


def test_shared_attributes_read_as_written_out():
    for masker in (BaselineMasker, EmpiricalConditionalMasker, NoisyLinearMasker,
                   GaussianNoisePerturber):
        assert N_FEATURES_IN in masker.__doc__
    for masker in (ConditionalMasker, GaussianConditionalMasker):
        assert ("    n_draws_ : int\n        Draws per row and coalition in use.\n"
                + N_FEATURES_IN + "\n    References\n    ----------\n"
                ) in masker.__doc__


def test_references_read_as_written_out():
    assert ("    References\n    ----------\n    .. [1] Y. Liu, S. Khandagale, "
            "C. White and W. Neiswanger, \"Synthetic\n       Benchmarks for "
            "Scientific Research in Explainable Machine Learning\",\n       NeurIPS "
            "Datasets and Benchmarks 2021.\n\n    Examples\n"
            ) in ConditionalMasker.__doc__
    assert ("    .. [1] C. Agarwal et al., \"OpenXAI: Towards a Transparent "
            "Evaluation of Post\n       hoc Model Explanations\", NeurIPS Datasets "
            "and Benchmarks 2022.\n") in GaussianNoisePerturber.__doc__
    assert ("    .. [2] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "
            "\"Synthetic\n") in EmpiricalConditionalMasker.__doc__
