"""Shared docstring fragments and the one way of inserting them.

Parameters that many functions and estimators take (the explained model, the
rows, the attributions, the explained output, ``batch_size``,
``random_state``, the masker and its training rows, ...) are documented once
here.  A docstring names a fragment with a placeholder ``{name}`` alone on
its line, indented as the text around it; :class:`Substitution` (the
decorator of imbalanced-learn's ``utils/_docstring.py``) replaces it by the
fragment, indented to the placeholder's column.  Only the names given to the
decorator are replaced, so other braces (sets in formulas, ``{"abs",
"signed"}`` option lists) need no escaping.

The works that docstrings cite are written once too, in :data:`CITATIONS`;
:func:`references` makes the ``References`` section of the keys given, which
the docstring names by a placeholder like any other fragment.

A placeholder keeps the source readable: the reader sees which shared block
is inserted, and ``help()`` or the API reference shows the full text.
"""

import re
from textwrap import dedent, fill, indent

__all__ = ["CITATIONS", "DOC_FRAGMENTS", "Substitution", "fill_doc", "join_fragments",
           "references"]


def _fragment(text):
    return dedent(text).strip("\n")


def join_fragments(*texts):
    """One fragment made of ``texts``, each flush left or uniformly indented.

    Parameters
    ----------
    *texts : str
        Fragments (parameter entries, sections), in order.

    Returns
    -------
    text : str
        The fragments dedented and joined line after line, flush left.

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import join_fragments
    >>> print(join_fragments("    a : int", "b : int\\n    The b."))
    a : int
    b : int
        The b.
    """
    return "\n".join(_fragment(text) for text in texts)


# Shared parameter (and Returns/Attributes) blocks, written flush left; each
# is inserted indented to its placeholder's column.
DOC_FRAGMENTS = {
    # ------------------------------------------------ model-based metrics
    "estimator": _fragment("""
        estimator : fitted estimator
            The model whose explanations are scored."""),
    "X": _fragment("""
        X : array-like of shape (n_samples, n_features)
            The explained rows."""),
    "attributions": _fragment("""
        attributions : array-like of shape (n_samples, n_features)
            Their explanations, one row per row of ``X``."""),
    "target": _fragment("""
        target : "predicted", int or label, default="predicted"
            Explained class of a classifier: ``"predicted"`` is the class
            predicted for the original row (kept fixed under perturbation),
            an int or a class label names one class (see
            :class:`sklearn_xai.utils.ExplainedOutput`).  Ignored for
            regressors."""),
    "output": _fragment("""
        output : {"auto", "proba", "decision", "predict", "margin"}, default="auto"
            Explained output: ``"auto"`` is ``predict_proba`` for classifiers
            and ``predict`` for regressors; ``"margin"`` is the raw additive
            score that exact tree attributions explain
            (``decision_function``, or the raw margin of xgboost, LightGBM and
            CatBoost models); see :class:`sklearn_xai.utils.ExplainedOutput`."""),
    "batch_size": _fragment("""
        batch_size : int or None, default=None
            Maximum rows per model call; ``None`` lets the metric choose
            blocks of about 2**17 values.  Scores do not depend on it."""),
    "random_state": _fragment("""
        random_state : int, RandomState instance or None, default=None
            Seeds the random draws.  Row ``i``'s draws depend only on the
            seed and on the row's values, so scores do not depend on the
            other rows, their order or the batch size.  Pass an int for
            reproducible results across calls."""),
    "masker": _fragment("""
        masker : masker, default=None
            How features are removed (resolved by
            :func:`sklearn_xai.masking.check_masker`).  A fitted masker is
            used as is; an unfitted one is fitted on ``X_train``."""),
    "X_train": _fragment("""
        X_train : array-like of shape (n_train, n_features), default=None
            Training rows an unfitted ``masker`` (or ``perturber``) is fitted
            on.  A masker is never fitted on ``X`` (a row's score would depend
            on the other rows): without ``X_train`` an unfitted masker that
            learns from data (``BaselineMasker("mean")``,
            ``MarginalMasker(100)``, ...) raises a ``ValueError``, and one that
            does not (``BaselineMasker("zero")``, a given baseline or
            background) is used as is."""),
    "scores_greater": _fragment("""
        scores : ndarray of shape (n_samples,)
            One score per row; greater is better."""),
    "scores_lower": _fragment("""
        scores : ndarray of shape (n_samples,)
            One score per row; lower is better."""),
    "nan_policy": _fragment("""
        nan_policy : {"omit", "zero", "raise"}, default="omit"
            A row where either side of the correlation is constant has no
            correlation: NaN with a warning (``"omit"``), 0 (``"zero"``,
            XAI-Bench's code) or a ``ValueError`` (``"raise"``)."""),
    "value_distribution": _fragment("""
        distribution : MultivariateGaussian or GaussianMixture, default=None
            The data distribution (e.g. ``bunch.distribution``) whose value
            function ``v_x(S)`` is used, see ``value``.  Exactly one of
            ``distribution`` and ``masker`` is required."""),
    "value_masker": _fragment("""
        masker : masker, default=None
            Any :mod:`sklearn_xai.masking` masker defining ``v_x(S)`` instead
            of ``distribution``.  A fitted masker is used as is; an unfitted
            one is fitted on ``X_train``, never on ``X`` (a row's score would
            depend on the other rows)."""),
    # ------------------------------------------------- metrics vs. truth
    "ground_truth": _fragment("""
        ground_truth : array-like of shape (n_samples, n_features) or (n_features,)
            The true attributions (or relevance masks), one row per explained
            row; a single row is broadcast to every row."""),
    # --------------------------------------------------------- datasets
    "return_X_y_as_frame": _fragment("""
        return_X_y : bool, default=False
            Return ``(X, y)``.
        as_frame : bool, default=False
            Return pandas objects."""),
    # ---------------------------------------------------------- maskers
    "n_features_in": _fragment("""
        n_features_in_ : int
            Number of features seen during :meth:`fit`."""),
    # ------------------------------------------------------- explainers
    "explainer_random_state": _fragment("""
        random_state : int, RandomState instance or None, default=None
            Seeds the explainer's random draws.  Row ``i``'s draws depend
            only on the seed and on the row's values, so its attributions do
            not depend on the other rows of the batch, their order or the
            batch size.  Pass an int for reproducible output across calls."""),
}

# The works the docstrings cite, once each: key -> the reference as printed
# (authors, "title", venue year), filled to the docstring's width by
# :func:`references`.
CITATIONS = {
    "aas2021": (
        'K. Aas, M. Jullum and A. Løland, "Explaining individual predictions when '
        'features are dependent: More accurate approximations to Shapley values", '
        'Artificial Intelligence 298, 2021.'
    ),
    "abnar2020": (
        'S. Abnar and W. Zuidema, "Quantifying Attention Flow in Transformers", ACL '
        "2020."
    ),
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
    "ariasduart2022": (
        'A. Arias-Duart, F. Parés, D. Garcia-Gasulla and V. Gimenez-Abalos, "Focus! '
        'Rating XAI Methods and Finding Biases", FUZZ-IEEE 2022.'
    ),
    "atanasova2020": (
        'P. Atanasova, J. G. Simonsen, C. Lioma and I. Augenstein, "A Diagnostic Study '
        'of Explainability Techniques for Text Classification", EMNLP 2020.'
    ),
    "attanasio2023": (
        'G. Attanasio, E. Pastor, C. Di Bonaventura and D. Nozza, "ferret: a Framework '
        'for Benchmarking Explainers on Transformers", EACL 2023 (System '
        "Demonstrations)."
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
    "castro2009": (
        'J. Castro, D. Gómez and J. Tejada, "Polynomial calculation of the '
        'Shapley value based on sampling", Computers & Operations Research 36(5), '
        '2009.'
    ),
    "chalasani2020": (
        'P. Chalasani, J. Chen, A. R. Chowdhury, X. Wu and S. Jha, "Concise '
        'Explanations of Neural Networks using Adversarial Training", ICML 2020.'
    ),
    "chen2018": (
        'J. Chen, L. Song, M. J. Wainwright and M. I. Jordan, "Learning to '
        'Explain: An Information-Theoretic Perspective on Model Interpretation", '
        'ICML 2018.'
    ),
    "chefer2021_generic": (
        'H. Chefer, S. Gur and L. Wolf, "Generic Attention-model Explainability for '
        'Interpreting Bi-Modal and Encoder-Decoder Transformers", ICCV 2021.'
    ),
    "clark2024": (
        'B. Clark, R. Wilming and S. Haufe, "XAI-TRIS: Non-linear image benchmarks to '
        'quantify false positive post-hoc attribution of feature importance", Machine '
        "Learning 113, 2024."
    ),
    "cortez2009": (
        'P. Cortez, A. Cerdeira, F. Almeida, T. Matos and J. Reis, "Modeling wine '
        'preferences by data mining from physicochemical properties", Decision '
        'Support Systems 47(4), 2009.'
    ),
    "covert2021": (
        'I. Covert, S. Lundberg and S.-I. Lee, "Explaining by Removing: A Unified '
        'Framework for Model Explanation", Journal of Machine Learning Research '
        '22(209), 2021.'
    ),
    "covert2021_kernelshap": (
        'I. Covert and S.-I. Lee, "Improving KernelSHAP: Practical Shapley Value '
        'Estimation via Linear Regression", AISTATS 2021.'
    ),
    "dasgupta2022": (
        'S. Dasgupta, N. Frost and M. Moshkovitz, "Framework for Evaluating '
        'Faithfulness of Local Explanations", ICML 2022.'
    ),
    "deyoung2020": (
        'J. DeYoung et al., "ERASER: A Benchmark to Evaluate Rationalized NLP Models", '
        "ACL 2020."
    ),
    "dosovitskiy2021": (
        'A. Dosovitskiy et al., "An Image is Worth 16x16 Words: Transformers for '
        'Image Recognition at Scale", ICLR 2021.'
    ),
    "fel2022": (
        'T. Fel, D. Vigouroux, R. Cadène and T. Serre, "How Good is your '
        'Explanation? Algorithmic Stability Measures to Assess the Quality of '
        'Explanations for Deep Neural Networks", WACV 2022.'
    ),
    "he2016": (
        'K. He, X. Zhang, S. Ren and J. Sun, "Deep Residual Learning for Image '
        'Recognition", CVPR 2016.'
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
    "klein2024": (
        'L. Klein, C. T. Lüth, U. Schlegel, T. J. Bungert, M. El-Assady and P. F. '
        'Jäger, "Navigating the Maze of Explainable AI: A Systematic Approach to '
        'Evaluating Methods and Metrics", NeurIPS 2024 (Datasets and Benchmarks).'
    ),
    "kohlbrenner2020": (
        "M. Kohlbrenner, A. Bauer, S. Nakajima, A. Binder, W. Samek and S. Lapuschkin, "
        '"Towards Best Practice in Explaining Neural Network Decisions with LRP", IJCNN'
        " 2020."
    ),
    "kokhlikyan2020": (
        'N. Kokhlikyan et al., "Captum: A unified and generic model '
        'interpretability library for PyTorch", arXiv:2009.07896, 2020.'
    ),
    "krishna2022": (
        'S. Krishna et al., "The Disagreement Problem in Explainable Machine Learning: '
        "A Practitioner's Perspective\", arXiv:2202.01602, 2022."
    ),
    "lin1991": (
        'J. Lin, "Divergence measures based on the Shannon entropy", IEEE '
        'Transactions on Information Theory 37(1), 1991.'
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
    "mitchell2022": (
        'R. Mitchell, J. Cooper, E. Frank and G. Holmes, "Sampling Permutations '
        'for Shapley Value Estimation", Journal of Machine Learning Research '
        '23(43), 2022.'
    ),
    "montavon2018": (
        'G. Montavon, W. Samek and K.-R. Müller, "Methods for Interpreting and '
        'Understanding Deep Neural Networks", Digital Signal Processing 73, 2018.'
    ),
    "nguyen2020": (
        'A. Nguyen and M. R. Martínez, "On quantitative aspects of model '
        'interpretability", arXiv:2007.07584, 2020.'
    ),
    "petsiuk2018": (
        'V. Petsiuk, A. Das and K. Saenko, "RISE: Randomized Input Sampling for '
        'Explanation of Black-box Models", BMVC 2018.'
    ),
    "plumb2018": (
        'G. Plumb, D. Molitor and A. Talwalkar, "Model Agnostic Supervised Local '
        'Explanations", NeurIPS 2018.'
    ),
    "ribeiro2016": (
        'M. T. Ribeiro, S. Singh and C. Guestrin, "\'Why Should I Trust You?\': '
        'Explaining the Predictions of Any Classifier", KDD 2016.'
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
    "schulz2020": (
        'K. Schulz, L. Sixt, F. Tombari and T. Landgraf, "Restricting the Flow: '
        'Information Bottlenecks for Attribution", ICLR 2020.'
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
    "slack2020": (
        'D. Slack, S. Hilgard, E. Jia, S. Singh and H. Lakkaraju, "Fooling LIME and '
        'SHAP: Adversarial Attacks on Post hoc Explanation Methods", AIES 2020.'
    ),
    "staniak2018": (
        'M. Staniak and P. Biecek, "Explanations of Model Predictions with live '
        'and breakDown Packages", The R Journal 10(2), 2018.'
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
    "zeiler2014": (
        'M. D. Zeiler and R. Fergus, "Visualizing and Understanding Convolutional '
        'Networks", ECCV 2014.'
    ),
    "zhang2018": (
        'J. Zhang, S. A. Bargal, Z. Lin, J. Brandt, X. Shen and S. Sclaroff, "Top-Down '
        'Neural Attention by Excitation Backprop", International Journal of Computer '
        "Vision 126, 2018."
    ),
    # Class activation maps and expected gradients (issue #37).
    "selvaraju2017": (
        'R. R. Selvaraju, M. Cogswell, A. Das, R. Vedantam, D. Parikh and D. Batra, '
        '"Grad-CAM: Visual Explanations from Deep Networks via Gradient-based '
        'Localization", ICCV 2017.'
    ),
    "chattopadhay2018": (
        'A. Chattopadhay, A. Sarkar, P. Howlader and V. N. Balasubramanian, '
        '"Grad-CAM++: Generalized Gradient-based Visual Explanations for Deep '
        'Convolutional Networks", WACV 2018.'
    ),
    "wang2020": (
        'H. Wang, Z. Wang, M. Du, F. Yang, Z. Zhang, S. Ding, P. Mardziel and X. Hu, '
        '"Score-CAM: Score-Weighted Visual Explanations for Convolutional Neural '
        'Networks", CVPR Workshops 2020.'
    ),
    "erion2021": (
        'G. Erion, J. D. Janizek, P. Sturmfels, S. M. Lundberg and S.-I. Lee, '
        '"Improving performance of deep learning models with axiomatic attribution '
        'priors and expected gradients", Nature Machine Intelligence 3, 2021.'
    ),
    "springenberg2015": (
        'J. T. Springenberg, A. Dosovitskiy, T. Brox and M. Riedmiller, "Striving '
        'for Simplicity: The All Convolutional Net", ICLR Workshop 2015.'
    ),
}


def references(*keys):
    """A ``References`` section listing ``keys``, flush left.

    Parameters
    ----------
    *keys : str
        Keys of :data:`CITATIONS`, in the order of their numbers.

    Returns
    -------
    text : str
        The heading, then ``.. [1] ...`` entries with their continuation
        lines indented by three spaces.

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import references
    >>> print(references("lundberg2017"))
    References
    ----------
    .. [1] S. M. Lundberg and S.-I. Lee, "A Unified Approach to Interpreting
       Model Predictions", NeurIPS 2017.
    """
    return "References\n----------\n" + "\n".join(
        fill(CITATIONS[key], width=76, initial_indent=f".. [{i}] ",
                      subsequent_indent="   ")
        for i, key in enumerate(keys, start=1)
    )


_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}[ \t]*$",
                          re.MULTILINE)


def fill_doc(doc, fragments):
    """Replace the placeholders ``{name}`` of ``doc`` that name a fragment.

    Parameters
    ----------
    doc : str or None
        A docstring; ``None`` (docstrings stripped by ``python -OO``) is
        returned unchanged.
    fragments : dict of str to str
        Fragment text by name, flush left.  A placeholder alone on its line
        gets the fragment indented to its column; a placeholder inside a
        line gets the fragment text as is.

    Returns
    -------
    doc : str or None

    Raises
    ------
    ValueError
        If a name in ``fragments`` has no placeholder in ``doc`` (a stale
        decorator argument).

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import fill_doc
    >>> print(fill_doc("Parameters\\n    ----------\\n    {x}\\n",
    ...                {"x": "x : int\\n    The value."}))
    Parameters
        ----------
        x : int
            The value.
    <BLANKLINE>
    """
    if doc is None:
        return None
    unused = set(fragments)

    def block(match):
        name = match.group("name")
        if name not in fragments:
            return match.group(0)
        unused.discard(name)
        return indent(fragments[name], match.group("indent"),
                      lambda line: bool(line.strip()))

    doc = _PLACEHOLDER.sub(block, doc)
    for name in list(unused):
        token = "{" + name + "}"
        if token in doc:
            doc = doc.replace(token, fragments[name])
            unused.discard(name)
    if unused:
        raise ValueError(
            f"Docstring fragments {sorted(unused)} have no placeholder in the "
            "docstring; remove them from the Substitution or add '{name}' lines."
        )
    return doc


class Substitution:
    """Decorator filling a docstring's ``{name}`` placeholders.

    Parameters
    ----------
    *names : str
        Names of shared fragments (keys of :data:`DOC_FRAGMENTS`).
    **fragments : str
        Further fragments by name (a module's own shared blocks), flush
        left; they override shared ones of the same name.

    Examples
    --------
    >>> from sklearn_xai.utils._docstring import Substitution
    >>> @Substitution("estimator", k="k : int\\n    How many features.")
    ... def metric(estimator, k):
    ...     '''A metric.
    ...
    ...     Parameters
    ...     ----------
    ...     {estimator}
    ...     {k}
    ...     '''
    >>> print(metric.__doc__)
    A metric.
    <BLANKLINE>
        Parameters
        ----------
        estimator : fitted estimator
            The model whose explanations are scored.
        k : int
            How many features.
    <BLANKLINE>
    """

    def __init__(self, *names, **fragments):
        unknown = [name for name in names if name not in DOC_FRAGMENTS]
        if unknown:
            raise ValueError(
                f"Unknown shared docstring fragments {unknown}; known: "
                f"{sorted(DOC_FRAGMENTS)}."
            )
        self.fragments = {name: DOC_FRAGMENTS[name] for name in names}
        self.fragments.update({k: _fragment(v) for k, v in fragments.items()})

    def __call__(self, obj):
        obj.__doc__ = fill_doc(obj.__doc__, self.fragments)
        return obj
