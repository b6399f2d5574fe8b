"""Docstring fragments several metric families share.

The works the metrics cite, once each (:data:`_CITATIONS`): a docstring's
``References`` section is the placeholder ``{metric_references}``, filled by
``Substitution(metric_references=_references(key, ...))`` with the works
numbered in the order given.  :data:`_SHARED_DOCS` holds the blocks that
metric docstrings of several families repeat (the explained inputs, the
value function, the explained output, their Returns sections);
``Substitution(**_shared_docs(name, ...))`` fills the ones a docstring names.
"""

import textwrap

from sklearn_xai.utils._docstring import DOC_FRAGMENTS


def _joined(*names):
    return "\n".join(DOC_FRAGMENTS[name] for name in names)


def _returns(text):
    return ("Returns\n-------\nscores : ndarray of shape (n_samples,)\n    "
            + text)


# Blocks that docstrings of several metric families repeat.
_SHARED_DOCS = {
    "model_inputs": _joined("estimator", "X", "attributions"),
    "output_params": _joined("target", "output", "batch_size"),
    "value_function": _joined("value_distribution", "value_masker", "X_train"),
    "returns_scores_greater": "Returns\n-------\n" + DOC_FRAGMENTS["scores_greater"],
    "returns_scores_lower": "Returns\n-------\n" + DOC_FRAGMENTS["scores_lower"],
    "returns_correlation": _returns(
        "Per-row correlation in ``[-1, 1]``; greater is better."),
    "returns_agreement": _returns(
        "Per-row agreement in ``[0, 1]``; greater is better."),
    "returns_fraction": _returns("Per-row fraction in ``[0, 1]``; greater is better."),
    "returns_precision": _returns(
        "Per-row precision in ``[0, 1]``; greater is better."),
    "returns_greater": _returns("Greater is better."),
    "returns_lower": _returns("Lower is better."),
}

# key -> the reference as printed.
_CITATIONS = {
    "achanta2012": (
        'R. Achanta, A. Shaji, K. Smith, A. Lucchi, P. Fua and S. Süsstrunk, "SLIC '
        'Superpixels Compared to State-of-the-Art Superpixel Methods", IEEE TPAMI 2012.'
    ),
    "adebayo2018": (
        'J. Adebayo, J. Gilmer, M. Muelly, I. Goodfellow, M. Hardt and B. Kim, "Sanity '
        'Checks for Saliency Maps", NeurIPS 2018.'
    ),
    "agarwal2022": (
        'C. Agarwal et al., "OpenXAI: Towards a Transparent Evaluation of Post hoc '
        'Model Explanations", NeurIPS Datasets and Benchmarks 2022.'
    ),
    "agarwal2022_rethinking": (
        "C. Agarwal, N. Johnson, M. Pawelczyk, S. Krishna, E. Saxena, M. Zitnik and H. "
        'Lakkaraju, "Rethinking Stability for Attribution-based Explanations", ICLR '
        "2022 Workshop on PAIR^2Struct."
    ),
    "alvarezmelis2018": (
        'D. Alvarez-Melis and T. S. Jaakkola, "Towards Robust Interpretability with '
        'Self-Explaining Neural Networks", NeurIPS 2018.'
    ),
    "alvarezmelis2018_on": (
        'D. Alvarez-Melis and T. S. Jaakkola, "On the Robustness of Interpretability '
        'Methods", ICML Workshop on Human Interpretability in Machine Learning, 2018.'
    ),
    "ancona2018": (
        'M. Ancona, E. Ceolini, C. Öztireli and M. Gross, "Towards better understanding'
        ' of gradient-based attribution methods for deep neural networks", ICLR 2018.'
    ),
    "antonanzas2023": (
        'J. Antoñanzas, Y. Jia, E. Frank, A. Bifet and B. Pfahringer, "teex: A toolbox '
        'for the evaluation of explanations", Neurocomputing 555, 2023.'
    ),
    "arras2022": (
        'L. Arras, A. Osman and W. Samek, "CLEVR-XAI: A benchmark dataset for the '
        'ground truth evaluation of neural network explanations", Information Fusion '
        "81, 2022."
    ),
    "atanasova2020": (
        'P. Atanasova, J. G. Simonsen, C. Lioma and I. Augenstein, "A Diagnostic Study '
        'of Explainability Techniques for Text Classification", EMNLP 2020.'
    ),
    "bach2015": (
        'S. Bach, A. Binder, G. Montavon, F. Klauschen, K.-R. Müller and W. Samek, "On '
        "Pixel-Wise Explanations for Non-Linear Classifier Decisions by Layer-Wise "
        'Relevance Propagation", PLoS ONE 2015.'
    ),
    "bhatt2020": (
        'U. Bhatt, A. Weller and J. M. F. Moura, "Evaluating and Aggregating Feature-'
        'based Model Explanations", IJCAI 2020.'
    ),
    "chalasani2020": (
        'P. Chalasani, J. Chen, A. R. Chowdhury, X. Wu and S. Jha, "Concise '
        'Explanations of Neural Networks using Adversarial Training", ICML 2020.'
    ),
    "clark2024": (
        'B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: Non-linear image benchmarks to '
        'quantify false positive post-hoc attribution of feature importance", Machine '
        "Learning 113, 2024."
    ),
    "dasgupta2022": (
        'S. Dasgupta, N. Frost and M. Moshkovitz, "Framework for Evaluating '
        'Faithfulness of Local Explanations", ICML 2022.'
    ),
    "deyoung2020": (
        'J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized NLP Models", '
        "ACL 2020."
    ),
    "hedstrom2023": (
        'A. Hedström et al., "Quantus: An Explainable AI Toolkit for Responsible '
        'Evaluation of Neural Network Explanations and Beyond", JMLR 24(34), 2023.'
    ),
    "hedstrom2023_sanity": (
        'A. Hedström, L. Weber, S. Lapuschkin and M. M.-C. Höhne, "Sanity Checks '
        'Revisited: An Exploration to Repair the Model Parameter Randomisation Test", '
        "XAI in Action workshop, NeurIPS 2023."
    ),
    "hooker2019": (
        'S. Hooker, D. Erhan, P.-J. Kindermans and B. Kim, "A Benchmark for '
        'Interpretability Methods in Deep Neural Networks", NeurIPS 2019.'
    ),
    "kindermans2019": (
        "P.-J. Kindermans, S. Hooker, J. Adebayo, M. Alber, K. T. Schütt, S. Dähne, D. "
        'Erhan and B. Kim, "The (Un)reliability of Saliency Methods", in Explainable '
        "AI: Interpreting, Explaining and Visualizing Deep Learning, Springer 2019."
    ),
    "kohlbrenner2020": (
        "M. Kohlbrenner, A. Bauer, S. Nakajima, A. Binder, W. Samek and S. Lapuschkin, "
        '"Towards Best Practice in Explaining Neural Network Decisions with LRP", IJCNN'
        " 2020."
    ),
    "krishna2022": (
        'S. Krishna et al., "The Disagreement Problem in Explainable Machine Learning: '
        "A Practitioner's Perspective\", arXiv:2202.01602, 2022."
    ),
    "liu2021": (
        'Y. Liu, S. Khandagale, C. White and W. Neiswanger, "Synthetic Benchmarks for '
        'Scientific Research in Explainable Machine Learning", NeurIPS Datasets and '
        "Benchmarks 2021."
    ),
    "lundberg2017": (
        'S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting Model '
        'Predictions", NeurIPS 2017.'
    ),
    "lundberg2020": (
        'S. M. Lundberg et al., "From local explanations to global understanding with '
        'explainable AI for trees", Nature Machine Intelligence 2020.'
    ),
    "montavon2018": (
        'G. Montavon, W. Samek and K.-R. Müller, "Methods for Interpreting and '
        'Understanding Deep Neural Networks", Digital Signal Processing 73, 2018.'
    ),
    "nguyen2020": (
        'A. Nguyen and M. R. Martínez, "On quantitative aspects of model '
        'interpretability", arXiv:2007.07584, 2020.'
    ),
    "rieger2020": (
        'L. Rieger and L. K. Hansen, "IROF: a low resource evaluation metric for '
        'explanation methods", ICLR workshop AI for Affordable Healthcare 2020.'
    ),
    "rong2022": (
        'Y. Rong, T. Leemann, V. Borisov, G. Kasneci and E. Kasneci, "A Consistent and '
        'Efficient Evaluation Strategy for Attribution Methods", ICML 2022.'
    ),
    "samek2017": (
        'W. Samek, A. Binder, G. Montavon, S. Lapuschkin and K.-R. Müller, "Evaluating '
        'the Visualization of What a Deep Neural Network Has Learned", IEEE TNNLS 2017.'
    ),
    "shapley1953": (
        'L. S. Shapley, "A value for n-person games", in Contributions to the Theory of'
        " Games II, Annals of Mathematics Studies 28, 1953."
    ),
    "sithakoul2024": (
        'S. Sithakoul, S. Meftah and C. Feutry, "BEExAI: Benchmark to Evaluate '
        'Explainable AI", 2024.'
    ),
    "sixt2020": (
        'L. Sixt, M. Granz and T. Landgraf, "When Explanations Lie: Why Many Modified '
        'BP Attributions Fail", ICML 2020.'
    ),
    "sundararajan2017": (
        'M. Sundararajan, A. Taly and Q. Yan, "Axiomatic Attribution for Deep '
        'Networks", ICML 2017.'
    ),
    "theiner2022": (
        'J. Theiner, E. Müller-Budack and R. Ewerth, "Interpretable Semantic Photo '
        'Geolocation", WACV 2022.'
    ),
    "yeh2019": (
        'C.-K. Yeh, C.-Y. Hsieh, A. S. Suggala, D. I. Inouye and P. Ravikumar, "On the '
        '(In)fidelity and Sensitivity of Explanations", NeurIPS 2019.'
    ),
    "zhang2018": (
        'J. Zhang, S. A. Bargal, Z. Lin, J. Brandt, X. Shen and S. Sclaroff, "Top-Down '
        'Neural Attention by Excitation Backprop", International Journal of Computer '
        "Vision 126, 2018."
    ),
}


def _references(*keys):
    """A ``References`` section listing ``keys``, flush left.

    Parameters
    ----------
    *keys : str
        Keys of :data:`_CITATIONS`, in the order of their numbers.

    Returns
    -------
    text : str
        The heading, then ``.. [1] ...`` entries with their continuation
        lines indented by three spaces.
    """
    return "References\n----------\n" + "\n".join(
        textwrap.fill(_CITATIONS[key], width=76, initial_indent=f".. [{i}] ",
                      subsequent_indent="   ")
        for i, key in enumerate(keys, start=1)
    )


def _shared_docs(*names):
    """The blocks of :data:`_SHARED_DOCS` called ``names``, as keyword
    arguments of ``Substitution``."""
    return {name: _SHARED_DOCS[name] for name in names}
