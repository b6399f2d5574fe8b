"""The docstring blocks the dataset generators and loaders share are written
once (datasets/_xaibench.py, _simulation.py, _real.py, the citation registry
and DOC_FRAGMENTS of utils/_docstring.py) and read as written out."""

import pytest

from sklearn_xai.datasets import (
    load_breast_cancer,
    load_heloc,
    load_wine,
    load_wine_quality,
    make_gaussian_copy,
    make_gaussian_linear,
    make_gaussian_piecewise_constant,
    make_mixture_linear,
    make_mixture_nonlinear_additive,
    make_synthgauss,
    make_wine_simulation,
    openxai_preprocessor,
)

LIU_2021 = """\
    References
    ----------
    .. [1] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.

    Examples
"""

RETURN_X_Y = """\
    return_X_y : bool, default=False
        Return ``(X, y)``.
    as_frame : bool, default=False
        Return pandas objects.
"""


@pytest.mark.parametrize("generator", [
    make_gaussian_linear, make_gaussian_piecewise_constant, make_mixture_linear,
    make_mixture_nonlinear_additive], ids=lambda f: f.__name__)
def test_xai_bench_sections_read_as_written_out(generator):
    doc = generator.__doc__
    assert ("\n\n    Parameters\n    ----------\n"
            "    n_samples : int, default=1000\n        Number of rows.\n"
            "    n_features : int, default=5\n        Number of features.\n") in doc
    assert ("        ``target`` as a Series.\n\n    Returns\n    -------\n"
            "    data : Bunch\n") in doc
    assert ("    (X, y) : tuple if ``return_X_y`` is True.\n\n" + LIU_2021) in doc
    linear = "linear" in generator.__name__.split("_")
    assert ("    weights : array-like of shape (n_features,), default=None\n"
            in doc) is linear
    features = "component_weights" if "mixture" in generator.__name__ else "mean"
    assert "        Number of features.\n    " + ("weights" if linear else features) in doc


def test_simulation_blocks_read_as_written_out():
    for generator in (make_gaussian_copy, make_wine_simulation):
        assert ("    random_state : int, RandomState instance or None, default=None\n"
                "        Seed of the simulation.\n" + RETURN_X_Y + "\n    Returns\n"
                ) in generator.__doc__
    assert ("    .. [2] P. Cortez, A. Cerdeira, F. Almeida, T. Matos and J. Reis, "
            "\"Modeling\n       wine preferences by data mining from physicochemical "
            "properties\",\n       Decision Support Systems 47(4), 2009.\n"
            ) in make_wine_simulation.__doc__
    assert RETURN_X_Y + "\n    Returns\n" in make_synthgauss.__doc__


def test_loader_blocks_read_as_written_out():
    for loader in (load_heloc, load_wine_quality):
        assert ("\n    Raises\n    ------\n    FileNotFoundError\n        When "
                "``path`` is None or holds no such file.\n\n    Examples\n"
                ) in loader.__doc__
    for loader in (load_breast_cancer, load_wine):
        assert ("\n    Parameters\n    ----------\n    return_X_y : bool, default=False"
                "\n    as_frame : bool, default=False\n\n    Returns\n    -------\n"
                "    data : Bunch or (data, target)\n") in loader.__doc__
    assert ("    References\n    ----------\n    .. [1] C. Agarwal et al., \"OpenXAI: "
            "Towards a Transparent Evaluation of Post\n       hoc Model "
            "Explanations\", NeurIPS Datasets and Benchmarks 2022.\n\n    Examples\n"
            ) in openxai_preprocessor.__doc__
