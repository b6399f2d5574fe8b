"""The docstring blocks the explainers share are written once
(explainers/_docstring.py, the citation registry of utils/_docstring.py) and
read as written out in every explainer that names them."""

import pytest

from sklearn_xai.explainers import (
    MAPLE,
    BreakDown,
    CaptumKernelSHAP,
    CaptumLime,
    EmpiricalConditionalSHAP,
    ExactShapley,
    FeatureAblation,
    KernelSHAP,
    L2X,
    LeaveOneCovariateIn,
    LimeTabular,
    LocalLinearSurrogate,
    ShapleyValueSampling,
)

OUTPUT_PARAMS = """\
    target : "predicted", int or label, default="predicted"
        Explained class of a classifier (see :ref:`def-explained-output`):
        ``"predicted"`` is the class predicted at each explained row, an
        int a column of ``classes_``, another value a class label;
        :meth:`explain` also takes one label per row.
    output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
        Explained output: ``"auto"`` is the probability of the target
        class for a classifier and the prediction of a regressor;
        ``"decision"`` is the decision function (the logit); ``"margin"``
        the raw additive score (``decision_function``, or the raw margin
        of xgboost, LightGBM and CatBoost models).
    batch_size : int or None, default=None
        Maximum number of model rows per call; ``None`` makes calls of
        about 2**17 input entries.  The attributions do not depend on it.
"""

MASKER_RANDOM_STATE = """\
    random_state : int, RandomState instance or None, default=None
        Seeds the per-row random streams of a stochastic masker (unused by
        deterministic ones).

    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    masker_ : masker
        The fitted masker.
"""

INPUT_ATTRIBUTES = """\
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.
"""

REGRESSION_EXAMPLE = """\
    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
"""

LIU_2021 = """\
       Benchmarks for Scientific Research in Explainable Machine Learning",
       NeurIPS Datasets and Benchmarks 2021.
"""

# Each explainer's References section as written out, numbered in order.
REFERENCES = {
    FeatureAblation: ".. [1] M. D. Zeiler and R. Fergus, \"Visualizing and "
                     "Understanding\n       Convolutional Networks\", ECCV 2014.\n",
    LeaveOneCovariateIn: ".. [1] I. Covert, S. Lundberg and S.-I. Lee, \"Explaining by "
                         "Removing: A\n       Unified Framework for Model Explanation\"",
    BreakDown: ".. [1] M. Staniak and P. Biecek, \"Explanations of Model Predictions "
               "with\n       live and breakDown Packages\", The R Journal 10(2), 2018.\n"
               "    .. [2] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "
               "\"Synthetic\n" + LIU_2021,
    ExactShapley: ".. [1] L. S. Shapley, \"A value for n-person games\", in "
                  "Contributions to the\n       Theory of Games II, Annals of "
                  "Mathematics Studies 28, 1953.\n    .. [2] S. M. Lundberg",
    KernelSHAP: ".. [1] S. M. Lundberg and S.-I. Lee, \"A Unified Approach to "
                "Interpreting\n       Model Predictions\", NeurIPS 2017.\n"
                "    .. [2] I. Covert and S.-I. Lee, \"Improving KernelSHAP: Practical "
                "Shapley\n       Value Estimation via Linear Regression\", AISTATS 2021.\n",
    ShapleyValueSampling: ".. [1] J. Castro, D. Gómez and J. Tejada, \"Polynomial "
                          "calculation of the\n       Shapley value based on sampling\"",
    EmpiricalConditionalSHAP: ".. [1] K. Aas, M. Jullum and A. Løland, \"Explaining "
                              "individual predictions\n       when features are "
                              "dependent",
    L2X: ".. [1] J. Chen, L. Song, M. J. Wainwright and M. I. Jordan, \"Learning to"
         "\n       Explain: An Information-Theoretic Perspective on Model Interpretation"
         "\",\n       ICML 2018.\n",
    LimeTabular: ".. [1] M. T. Ribeiro, S. Singh and C. Guestrin, \"'Why Should I "
                 "Trust You?':\n       Explaining the Predictions of Any Classifier\", "
                 "KDD 2016.\n    .. [2] Y. Liu",
    LocalLinearSurrogate: ".. [1] M. T. Ribeiro",
    CaptumLime: ".. [1] M. T. Ribeiro",
    CaptumKernelSHAP: ".. [1] S. M. Lundberg and S.-I. Lee, \"A Unified Approach to "
                      "Interpreting\n       Model Predictions\", NeurIPS 2017.\n"
                      "    .. [2] N. Kokhlikyan et al., \"Captum: A unified and generic "
                      "model\n       interpretability library for PyTorch\", "
                      "arXiv:2009.07896, 2020.\n",
    MAPLE: ".. [1] G. Plumb, D. Molitor and A. Talwalkar, \"Model Agnostic "
           "Supervised\n       Local Explanations\", NeurIPS 2018.\n    .. [2] Y. Liu",
}


@pytest.mark.parametrize("explainer", list(REFERENCES), ids=lambda c: c.__name__)
def test_shared_docstring_blocks_read_as_written_out(explainer):
    doc = explainer.__doc__
    assert "{" + "explainer_" not in doc and "_attributes}" not in doc
    assert OUTPUT_PARAMS in doc or explainer is L2X
    assert INPUT_ATTRIBUTES + "\n" in doc
    assert REGRESSION_EXAMPLE in doc
    assert "\n    References\n    ----------\n    " + REFERENCES[explainer] in doc
    masker_based = explainer in (FeatureAblation, LeaveOneCovariateIn, BreakDown)
    assert (MASKER_RANDOM_STATE in doc) is masker_based
    if masker_based or explainer in (ExactShapley, KernelSHAP, ShapleyValueSampling):
        assert ("    estimator_ : estimator\n        The fitted model.\n"
                "    masker_ : masker\n        The fitted masker.\n") in doc


def test_lime_references_read_as_written_out():
    assert ("    .. [2] C. Agarwal et al., \"OpenXAI: Towards a Transparent "
            "Evaluation of Post\n       hoc Model Explanations\", NeurIPS Datasets "
            "and Benchmarks 2022.\n") in LocalLinearSurrogate.__doc__
    assert ("    .. [2] N. Kokhlikyan et al., \"Captum: A unified and generic model\n"
            "       interpretability library for PyTorch\", arXiv:2009.07896, 2020.\n"
            ) in CaptumLime.__doc__


def test_xai_bench_is_cited_as_written_out():
    # The XAI-Bench entry is numbered by its place in each list.
    for explainer, number in [(BreakDown, 2), (ExactShapley, 3), (LimeTabular, 2),
                              (MAPLE, 2), (L2X, 2), (EmpiricalConditionalSHAP, 2)]:
        assert (f"    .. [{number}] Y. Liu, S. Khandagale, C. White and W. Neiswanger, "
                "\"Synthetic\n" + LIU_2021) in explainer.__doc__


GRADIENT_TAIL = """\
    batch_size : int or None, default=None
        Maximum number of model rows per Captum call (an explained row
        costs one model row, ``n_steps`` for integrated gradients,
        ``n_perturbations`` for the noisy methods, two for DeepLIFT and
        Guided Grad-CAM; a call holds at least one explained row);
        ``None`` makes calls of about 2**17 input entries.  The
        attributions do not depend on it.
"""

GRADIENT_ATTRIBUTES = """
    Attributes
    ----------
    estimator_ : estimator
        The fitted model.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.
"""


def test_gradient_blocks_read_as_written_out():
    pytest.importorskip("captum")
    from sklearn_xai.explainers import (
        Deconvolution,
        DeepLift,
        GuidedBackprop,
        InputXGradient,
        SmoothGrad,
    )

    for explainer in (InputXGradient, DeepLift, SmoothGrad, GuidedBackprop,
                      Deconvolution):
        doc = explainer.__doc__
        assert OUTPUT_PARAMS.split("    batch_size")[0] + GRADIENT_TAIL in doc
        assert GRADIENT_ATTRIBUTES in doc and "{" + "gradient_" not in doc
    for explainer in (GuidedBackprop, Deconvolution):
        assert ("    Parameters\n    ----------\n    estimator : estimator\n"
                "        A differentiable model whose ReLUs are ``torch.nn.ReLU`` "
                "modules.\n    target : ") in explainer.__doc__


def test_captum_surrogate_blocks_read_as_written_out():
    for explainer in (CaptumLime, CaptumKernelSHAP):
        doc = explainer.__doc__
        assert ("    baseline : float or array-like of shape (n_features,), "
                "default=0.0\n        Value of an absent feature (Captum's "
                "default 0).\n" + OUTPUT_PARAMS + "    random_state : int, "
                "RandomState instance or None, default=None\n") in doc
        assert ("    Attributes\n    ----------\n    estimator_ : estimator\n"
                "        The fitted model.\n    baseline_ : ndarray of shape "
                "(n_features,)\n        The baseline broadcast to one value per "
                "feature.\n    n_perturbations_ : int\n") in doc


def test_image_control_blocks_read_as_written_out():
    from sklearn_xai.explainers import InputAttribution, LaplaceFilter, SobelFilter

    for explainer in (SobelFilter, LaplaceFilter, InputAttribution):
        assert ("    estimator_ : estimator or None\n    n_features_in_ : int\n\n"
                "    References\n    ----------\n    .. [1] B. Clark, R. Wilming and "
                "S. Haufe, \"XAI-TRIS: Non-linear image\n       benchmarks to "
                "quantify false positive post-hoc attribution of feature\n"
                "       importance\", Machine Learning 113, 2024.\n\n    Examples\n"
                ) in explainer.__doc__


def test_relevance_blocks_read_as_written_out():
    pytest.importorskip("torch")
    from sklearn_xai.explainers import (
        CompositeLRP,
        DeepTaylor,
        PatternAttribution,
        PatternNet,
    )

    for explainer in (CompositeLRP, DeepTaylor):
        doc = explainer.__doc__
        assert ("    Parameters\n    ----------\n    estimator : estimator\n"
                "        A dense or convolutional ReLU network (see above);\n"
                "        ``FrozenEstimator(model)`` for a fitted one.\n") in doc
        assert ("one value per feature.\n" + OUTPUT_PARAMS + "\n    Attributes\n    ----------\n"
                "    estimator_ : estimator\n        The fitted model.\n"
                "    chain_ : LayerChain\n") in doc
    for explainer in (PatternNet, PatternAttribution):
        doc = explainer.__doc__
        assert ("    Parameters\n    ----------\n    estimator : estimator\n"
                "        A dense or convolutional ReLU network or a linear model (see"
                "\n        above); ``FrozenEstimator(model)`` for a fitted one.\n"
                "    pattern_type : ") in doc
        assert ("used for the output layer in both cases).\n" + OUTPUT_PARAMS
                + "\n    Attributes\n    ----------\n    estimator_ : estimator\n") in doc
        assert ("        Only when ``X`` has string column names.\n\n    References\n"
                "    ----------\n    .. [1] P.-J. Kindermans") in doc
        assert ("    array([ 1., -1.])\n    >>> from sklearn.frozen import "
                "FrozenEstimator\n    >>> from sklearn_xai.explainers import "
                + explainer.__name__ + "\n") in doc
        assert "{" + "pattern_" not in doc
