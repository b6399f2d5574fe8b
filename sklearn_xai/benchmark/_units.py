"""The pass/fail matrix of the known-behaviour units (explainers x units).

:func:`unit_test_matrix` reads the per-row cosine similarities of a
``unit_tests`` run (:func:`~sklearn_xai.benchmark.get_preset`) -- or runs the
preset itself -- and applies the units' pass rule
(:func:`unit_test_passes`): an explainer passes a unit
when its explanation's cosine similarity with the ground truth is at least
0.9 on at least 90 % of the explained rows.  :data:`EXPECTED_OUTCOMES` holds
what the literature expects of some cells, :func:`format_unit_test_matrix`
prints the matrix and :func:`unit_test_matrix_rst` renders it, set against
those expectations, as the table of the user guide.
"""

import numpy as np
import pandas as pd

__all__ = ["EXPECTED_OUTCOMES", "UNIT_TEST_REFERENCES", "format_unit_test_matrix",
           "unit_test_matrix", "unit_test_matrix_rst", "unit_test_passes",
           "unit_test_summary"]

_METRIC = "cosine_similarity"

#: Short keys of :data:`EXPECTED_OUTCOMES` -> the reference.
UNIT_TEST_REFERENCES = {
    "STY17": "M. Sundararajan, A. Taly and Q. Yan, \"Axiomatic Attribution for Deep "
             "Networks\", ICML 2017.",
    "SGK17": "A. Shrikumar, P. Greenside and A. Kundaje, \"Learning Important Features "
             "Through Propagating Activation Differences\", ICML 2017.",
    "BFL17": "D. Balduzzi et al., \"The Shattered Gradients Problem: If resnets are the "
             "answer, then what is the question?\", ICML 2017.",
    "STK17": "D. Smilkov et al., \"SmoothGrad: removing noise by adding noise\", "
             "arXiv:1706.03825, 2017.",
    "SN20": "M. Sundararajan and A. Najmi, \"The Many Shapley Values for Model "
            "Explanation\", ICML 2020.",
    "SLL20": "P. Sturmfels, S. Lundberg and S.-I. Lee, \"Visualizing the Impact of "
             "Feature Attribution Baselines\", Distill 2020.",
    "HMK14": "S. Haufe et al., \"On the interpretation of weight vectors of linear "
             "models in multivariate neuroimaging\", NeuroImage 87, 2014.",
    "WBM22": "R. Wilming, C. Budding, K.-R. Müller and S. Haufe, \"Scrutinizing XAI "
             "using linear ground-truth data with suppressor variables\", Machine "
             "Learning 111, 2022.",
    "KSA18": "P.-J. Kindermans et al., \"Learning how to explain neural networks: "
             "PatternNet and PatternAttribution\", ICLR 2018.",
    "LL17": "S. M. Lundberg and S.-I. Lee, \"A Unified Approach to Interpreting Model "
            "Predictions\", NeurIPS 2017.",
    "CSU21": "I. Covert, S. Lundberg and S.-I. Lee, \"Explaining by Removing: A "
             "Unified Framework for Model Explanation\", JMLR 22, 2021.",
    "ACO18": "M. Ancona, E. Ceolini, C. Öztireli and M. Gross, \"Towards better "
             "understanding of gradient-based attribution methods for deep neural "
             "networks\", ICLR 2018.",
    "AKM21": "S. Agarwal et al., \"Towards the Unification and Robustness of "
             "Perturbation and Gradient Based Explanations\", ICML 2021.",
}

_SHAPLEY = ("kernel_shap", "shapley_sampling", "exact_shapley")
_GRADIENT = ("saliency", "input_x_gradient", "integrated_gradients", "deeplift",
             "smoothgrad", "gradient_shap", "lrp")
_REFERENCE_BASED = ("input_x_gradient", "integrated_gradients", "deeplift",
                    "gradient_shap", "occlusion", *_SHAPLEY)


def _expected():
    out = {}

    def add(explainers, unit, outcome, why, refs):
        for e in explainers:
            out[(e, unit)] = (outcome, why, refs)

    # Saturation: a zero gradient hides a saturated contribution.
    add(("saliency", "input_x_gradient", "smoothgrad"), "saturation", "fail",
        "zero gradient where the output saturates", ("STY17", "SGK17"))
    add(("integrated_gradients", "deeplift", "gradient_shap"), "saturation", "pass",
        "completeness: the path or reference difference sees the saturated rise",
        ("STY17", "SGK17"))
    add(("occlusion",), "saturation", "fail",
        "removing one of two redundant inputs leaves the output saturated", ("CSU21",))
    add(_SHAPLEY, "saturation", "pass", "Shapley values share a redundant rise",
        ("LL17", "CSU21"))
    # Shattered gradients.
    add(("saliency", "input_x_gradient"), "shattered_gradients", "fail",
        "the gradient is dominated by the sawtooth", ("BFL17",))
    add(("smoothgrad",), "shattered_gradients", "pass",
        "averaging gradients under noise removes the sawtooth", ("STK17", "BFL17"))
    add(("integrated_gradients",), "shattered_gradients", "pass",
        "additive model: integrated gradients equal the Shapley value", ("SN20",))
    # Additive and bilinear units: path methods and Shapley values agree.
    for unit in ("cancellation", "product"):
        add(("integrated_gradients",), unit, "pass",
            "integrated gradients equal the baseline Shapley value on additive and "
            "on bilinear models", ("STY17", "SN20"))
        add(_SHAPLEY, unit, "pass", "the ground truth is the Shapley value", ("SN20",))
    # min / max: integrated gradients differ from Shapley values.
    for unit in ("boolean_and", "boolean_or"):
        add(("integrated_gradients",), unit, "fail",
            "on min / max integrated gradients credit one input where the Shapley "
            "value splits", ("SN20",))
        add(_SHAPLEY, unit, "pass", "the ground truth is the Shapley value", ("SN20",))
    add(("occlusion",), "boolean_or", "fail",
        "a true input is redundant when the other is true", ("CSU21",))
    # Pertinent negatives: a zero reference cannot credit a zero input.
    add(_REFERENCE_BASED, "pertinent_negative", "fail",
        "a feature at the zero reference gets no attribution", ("SLL20",))
    # Suppressors: explanations of the model's mechanism credit the suppressor.
    add((*_GRADIENT, "occlusion", *_SHAPLEY, "lime", "captum_lime"), "suppressor", "fail",
        "the model uses the suppressor, which carries no signal", ("HMK14", "WBM22"))
    add(("pattern_attribution",), "suppressor", "pass",
        "the pattern, not the filter, separates signal from distractor", ("KSA18",))
    # Gradients are sensitivities, not contributions.
    add(("saliency",), "product", "fail",
        "the gradient (x2, x1) is not the contribution", ("ACO18",))
    add(("lime", "smoothgrad"), "saturation", "fail",
        "a local surrogate in a small neighbourhood is a smoothed gradient",
        ("AKM21", "STK17"))
    # The control fails everything.
    from sklearn_xai.datasets import UNIT_DESCRIPTIONS

    for unit in UNIT_DESCRIPTIONS:
        out[("random", unit)] = ("fail", "model-ignorant control", ())
    return out


#: (explainer label of the ``unit_tests`` preset, unit) -> (expected outcome,
#: why, reference keys of :data:`UNIT_TEST_REFERENCES`), for the cells the
#: literature (or, for the control, the construction) settles.
EXPECTED_OUTCOMES = _expected()


def _group(spec, key):
    """A group (``datasets``, ``metrics``) of a spec or of its dict."""
    group = spec.get(key) if isinstance(spec, dict) else getattr(spec, key, None)
    return group if isinstance(group, dict) else {}


def _unit_datasets(spec):
    """Dataset label -> unit of the spec's ``make_unit_test`` datasets."""
    return {label: ds.get("params", {}).get("unit", "xor")
            for label, ds in _group(spec, "datasets").items()
            if isinstance(ds, dict) and ds.get("name") == "make_unit_test"}


def _cosine_labels(spec):
    if spec is None:
        return [_METRIC]
    return [label for label, m in _group(spec, "metrics").items()
            if isinstance(m, dict) and m.get("name") == _METRIC]


def _thresholds(min_cosine, min_fraction):
    from sklearn_xai.datasets import MIN_COSINE, MIN_FRACTION

    return (MIN_COSINE if min_cosine is None else float(min_cosine),
            MIN_FRACTION if min_fraction is None else float(min_fraction))


def _passing_rows(cosines, min_cosine):
    """Rows whose cosine reaches ``min_cosine``; an undefined cosine (an
    all-zero explanation) fails."""
    return np.nan_to_num(np.asarray(cosines, dtype=np.float64), nan=-np.inf) >= min_cosine


def _fraction_passing(cosines, min_cosine):
    return float(np.mean(_passing_rows(cosines, min_cosine)))


def unit_test_passes(ground_truth, attributions, *, min_cosine=None, min_fraction=None):
    """The pass rule of the known-behaviour units.

    A row passes when the cosine similarity of its explanation with its
    ground truth is at least ``min_cosine`` (an all-zero explanation fails);
    the explanation passes the unit when at least ``min_fraction`` of the
    rows pass.  The cosine ignores the scale of the explanation, so
    explainers with different normalisations are judged on what they point
    to, signs included.

    Parameters
    ----------
    ground_truth : array-like of shape (n_samples, n_features)
    attributions : array-like of shape (n_samples, n_features)
    min_cosine, min_fraction : float, default=None
        None takes :data:`~sklearn_xai.datasets.MIN_COSINE` (0.9) and
        :data:`~sklearn_xai.datasets.MIN_FRACTION` (0.9).

    Returns
    -------
    passed : bool
    fraction : float
        Fraction of rows that pass.

    Examples
    --------
    >>> from sklearn_xai.benchmark import unit_test_passes
    >>> unit_test_passes([[0.5, 0.5], [1.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]])
    (False, 0.5)
    """
    from sklearn_xai.metrics import cosine_similarity

    min_cosine, min_fraction = _thresholds(min_cosine, min_fraction)
    # An all-zero explanation has no cosine: 0, it fails its row.
    cos = cosine_similarity(ground_truth, attributions, nan_policy="zero")
    fraction = _fraction_passing(cos, min_cosine)
    return bool(fraction >= min_fraction), fraction


def unit_test_matrix(results=None, *, quick=False, min_cosine=None, min_fraction=None,
                     n_jobs=None):
    """Pass/fail matrix of explainers on the known-behaviour units.

    Parameters
    ----------
    results : BenchmarkResults, default=None
        Results of the ``unit_tests`` preset (or of any benchmark whose
        datasets are :func:`~sklearn_xai.datasets.make_unit_test` units and
        whose metrics include ``cosine_similarity``).  None runs the preset.
    quick : bool, default=False
        With ``results=None``: run the quick variant.
    min_cosine, min_fraction : float, default=None
        The pass rule (:func:`unit_test_passes`);
        None takes :data:`~sklearn_xai.datasets.MIN_COSINE` (0.9) and
        :data:`~sklearn_xai.datasets.MIN_FRACTION` (0.9).
    n_jobs : int, default=None
        With ``results=None``: parallel cells.

    Returns
    -------
    matrix : DataFrame
        One row per explainer label and one column per unit, ``"pass"``,
        ``"fail"`` or ``"n/a"`` (the explainer does not apply to the
        unit's model, or failed).  ``matrix.attrs["fraction"]`` holds the
        fraction of rows that pass (NaN for ``"n/a"``).

    References
    ----------
    .. [1] J. Lee et al., "XAI-Units: Benchmarking Explainability Methods
       with Unit Tests", FAccT 2025.

    Examples
    --------
    >>> from sklearn_xai.benchmark import unit_test_matrix
    >>> matrix = unit_test_matrix(quick=True)  # doctest: +SKIP
    >>> matrix.loc["saliency", "saturation"]  # doctest: +SKIP
    'fail'
    """
    min_cosine, min_fraction = _thresholds(min_cosine, min_fraction)
    if results is None:
        from sklearn_xai.benchmark._runner import run_benchmark
        from sklearn_xai.benchmark.presets import get_preset

        results = run_benchmark(get_preset("unit_tests", quick=quick), n_jobs=n_jobs)
    spec = getattr(results, "spec", None)
    units = _unit_datasets(spec)
    table, per_row = results.table, results.per_row
    metrics = _cosine_labels(spec)
    table = table[table["metric"].isin(metrics)]
    if not units:
        units = {label: label for label in table["dataset"].unique()}
    table = table[table["dataset"].isin(list(units))]
    if table.empty:
        raise ValueError(
            "The results hold no cosine_similarity score of a make_unit_test dataset; "
            "run the 'unit_tests' preset (sklearn_xai.benchmark.get_preset)."
        )
    per_row = per_row[per_row["metric"].isin(metrics) & per_row["dataset"].isin(list(units))]
    explainers = list(dict.fromkeys(table["explainer"]))
    columns = list(dict.fromkeys(units[d] for d in table["dataset"]))
    fraction = pd.DataFrame(np.nan, index=explainers, columns=columns)
    ok = table[table["status"] == "ok"][["dataset", "explainer"]].drop_duplicates()
    passing = per_row.assign(passed=_passing_rows(per_row["value"], min_cosine))
    means = passing.groupby(["dataset", "explainer"])["passed"].mean()
    for dataset, explainer in ok.itertuples(index=False):
        if (dataset, explainer) in means.index:
            fraction.loc[explainer, units[dataset]] = means.loc[(dataset, explainer)]
    matrix = pd.DataFrame(np.where(fraction.isna(), "n/a",
                                   np.where(fraction >= min_fraction, "pass", "fail")),
                          index=explainers, columns=columns)
    matrix.index.name, matrix.columns.name = "explainer", "unit"
    matrix.attrs["fraction"] = fraction
    matrix.attrs["rule"] = (f"pass: cosine with the ground truth >= {min_cosine:g} on at "
                            f"least {min_fraction:.0%} of the rows")
    return matrix


def format_unit_test_matrix(matrix):
    """The matrix as plain text, one line per explainer.

    Parameters
    ----------
    matrix : DataFrame
        From :func:`unit_test_matrix`.

    Returns
    -------
    text : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import format_unit_test_matrix
    >>> m = pd.DataFrame([["pass", "fail"]], index=["ig"], columns=["xor", "product"])
    >>> print(format_unit_test_matrix(m))
    explainer  xor   product
    ig         pass  fail
    """
    cells = [["explainer", *map(str, matrix.columns)]]
    cells += [[str(e), *map(str, row)] for e, row in zip(matrix.index, matrix.to_numpy())]
    widths = [max(len(r[j]) for r in cells) for j in range(len(cells[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                     for r in cells)


def unit_test_summary(results):
    """Lines the command line prints after the leaderboard: the pass/fail
    matrix when the results hold known-behaviour units, else nothing.

    Parameters
    ----------
    results : BenchmarkResults

    Returns
    -------
    lines : list of str
    """
    spec = getattr(results, "spec", None)
    if not _unit_datasets(spec) or not _cosine_labels(spec):
        return []
    try:
        matrix = unit_test_matrix(results)
    except ValueError:
        return []
    return [f"Known-behaviour units ({matrix.attrs['rule']}):",
            *("  " + line for line in format_unit_test_matrix(matrix).splitlines())]


def unit_test_matrix_rst(matrix, *, expected=None):
    """The matrix as a reStructuredText table set against the literature.

    Each cell is the outcome and the fraction of rows that pass; a cell the
    literature settles (:data:`EXPECTED_OUTCOMES`) is marked ``✓`` when the
    outcome agrees with it and ``✗`` when it does not; the expectations and
    their references are listed after the table.

    Parameters
    ----------
    matrix : DataFrame
        From :func:`unit_test_matrix`.
    expected : dict, default=None
        (explainer, unit) -> (outcome, why, reference keys); defaults to
        :data:`EXPECTED_OUTCOMES`.

    Returns
    -------
    rst : str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import unit_test_matrix_rst
    >>> m = pd.DataFrame([["fail"]], index=["saliency"], columns=["saturation"])
    >>> for line in unit_test_matrix_rst(m).splitlines()[6:8]:
    ...     print(line)
       * - saliency
         - fail ✓
    """
    expected = EXPECTED_OUTCOMES if expected is None else expected
    fraction = matrix.attrs.get("fraction")
    lines = [".. list-table::", "   :header-rows: 1", "   :stub-columns: 1", "",
             "   * - explainer", *(f"     - {u}" for u in matrix.columns)]
    notes = []
    for explainer, row in zip(matrix.index, matrix.to_numpy()):
        lines.append(f"   * - {explainer}")
        for unit, outcome in zip(matrix.columns, row):
            text = str(outcome)
            if fraction is not None and outcome != "n/a":
                text += f" ({fraction.loc[explainer, unit]:.2f})"
            exp = expected.get((explainer, unit))
            if exp is not None and outcome != "n/a":
                text += " ✓" if exp[0] == outcome else " ✗"
                if exp[2]:
                    notes.append((explainer, unit, exp, outcome))
            lines.append(f"     - {text}")
    out = lines
    if notes:
        out += ["", "Expectations from the literature (✓ agrees, ✗ disagrees):", ""]
        grouped = {}
        for explainer, unit, (outcome, why, refs), got in notes:
            grouped.setdefault((unit, outcome, why, tuple(refs)), []).append(
                explainer if got == outcome else f"**{explainer}** (✗ observed {got})")
        for (unit, outcome, why, refs), names in grouped.items():
            cites = ", ".join(f"[{r}]_" for r in refs)
            out.append(f"* {unit}, {outcome}: {', '.join(names)} -- {why} {cites}.")
        used = sorted({r for *_, (o, w, refs), g in notes for r in refs})
        out += [""] + [f".. [{r}] {UNIT_TEST_REFERENCES[r]}" for r in used]
    return "\n".join(out)
