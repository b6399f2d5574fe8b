"""Which explainers pass the randomisation sanity checks of a benchmark run."""

import numbers

import numpy as np
import pandas as pd

from sklearn_xai.benchmark._results import BenchmarkResults, metric_display_name
from sklearn_xai.utils._sklearn import Interval, fast_validate_params

__all__ = ["SANITY_THRESHOLD", "sanity_checks", "sanity_summary"]

# Similarity (Spearman correlation or SSIM) below which an explanation is
# taken to depend on the model; see sanity_checks' Notes.
SANITY_THRESHOLD = 0.5

# Randomisation metrics whose value is a similarity (lower is better) and
# the one whose value is a rise in complexity (higher is better).
_SIMILARITY = {
    "neg_mprt": "model parameter randomisation",
    "neg_smooth_mprt": "smooth model parameter randomisation",
    "neg_random_logit": "random logit",
    "neg_data_randomisation": "data randomisation",
}
_COMPLEXITY_RISE = {"efficient_mprt": "efficient model parameter randomisation"}

_COLUMNS = ["dataset", "model", "explainer", "metric", "check", "value", "n_seeds",
            "criterion", "passed"]


def _check_of(metric):
    """(check description, kind) of a scored metric name, or None."""
    base = metric.split("__", 1)[0]
    if base in _SIMILARITY:
        return _SIMILARITY[base], "similarity"
    if base in _COMPLEXITY_RISE:
        return _COMPLEXITY_RISE[base], "rise"
    return None


def _metric_name(label, spec):
    """The registered scorer name behind a metric label of the spec."""
    metrics = (spec or {}).get("metrics") or {}
    entry = metrics.get(label)
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        return entry["name"]
    return label


@fast_validate_params(
    {
        "results": [BenchmarkResults],
        "threshold": [Interval(numbers.Real, -1, 1, closed="both")],
    },
    prefer_skip_nested_validation=True,
)
def sanity_checks(results, *, threshold=SANITY_THRESHOLD):
    """Which explainers pass the randomisation sanity checks of a run.

    A sanity check asks whether an explanation depends on the model at all
    (Adebayo et al., 2018): explain the same rows again with the model's
    parameters randomised (MPRT and its smooth variant), with a model
    trained on permuted labels (data randomisation) or for another class
    (random logit), and compare.  An explainer *passes* a similarity check
    when its mean similarity (over the explained rows and seeds) is below
    ``threshold``; it passes the efficient MPRT when the complexity of its
    explanations rises, on average, once the model is randomised
    (Hedström et al., 2023).

    Parameters
    ----------
    results : BenchmarkResults
        A run that scored at least one randomisation metric
        (``neg_mprt``, ``neg_smooth_mprt``, ``efficient_mprt``,
        ``neg_random_logit``, ``neg_data_randomisation``).
    threshold : float, default=0.5
        Largest mean similarity that passes.

    Returns
    -------
    checks : DataFrame
        One row per (dataset, model, explainer, randomisation metric):
        ``check`` (what was randomised), ``value`` (mean over the rows and
        seeds of the metric's value: a similarity, or the relative rise of
        complexity for ``efficient_mprt``), ``n_seeds``, ``criterion`` (the
        rule applied, as text) and ``passed``.  Empty when the run scored no
        randomisation metric.

    Notes
    -----
    The threshold is a convention, not a test: a Spearman correlation of
    0.5 between the explanations of a trained and of a randomised model
    means they still share a quarter of their rank variance.  The random
    control with a fixed ``random_state`` gives the same attributions for
    any model, so it fails every similarity check (similarity 1): it
    ignores the model by construction, which is what the check detects.
    An explainer that fails is not wrong for a linear model whose
    coefficients are randomised to a similar direction; look at the
    per-layer curves (``mprt(..., return_layers=True)``) before concluding.

    References
    ----------
    .. [1] J. Adebayo, J. Gilmer, M. Muelly, I. Goodfellow, M. Hardt and
       B. Kim, "Sanity Checks for Saliency Maps", NeurIPS 2018.
    .. [2] A. Hedström, L. Weber, S. Lapuschkin and M. M.-C. Höhne, "A
       Fresh Look at Sanity Checks for Saliency Maps", xAI 2024
       (arXiv:2401.06465).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import BenchmarkResults, sanity_checks
    >>> table = pd.DataFrame({
    ...     "dataset": "d", "model": "m", "explainer": ["random", "ablation"] * 2,
    ...     "metric": "neg_mprt", "seed": [0, 0, 1, 1],
    ...     "value": [1.0, 0.2, 1.0, 0.3], "greater_is_better": False,
    ...     "status": "ok", "error": ""})
    >>> sanity_checks(BenchmarkResults(table))[["explainer", "value", "passed"]]
      explainer  value  passed
    0  ablation   0.25    True
    1    random   1.00   False
    """
    table = results.table
    ok = table[table["status"] == "ok"]
    rows = []
    for (dataset, model, explainer, metric), sub in ok.groupby(
            ["dataset", "model", "explainer", "metric"], sort=True):
        found = _check_of(_metric_name(metric, results.spec))
        if found is None:
            continue
        check, kind = found
        value = float(np.mean(sub["value"].to_numpy(dtype=float)))
        if kind == "similarity":
            criterion = f"mean similarity < {threshold:g}"
            passed = bool(value < threshold)
        else:
            criterion = "mean complexity rise > 0"
            passed = bool(value > 0)
        rows.append([dataset, model, explainer, metric, check, value,
                     int(sub["seed"].nunique()), criterion, passed])
    return pd.DataFrame(rows, columns=_COLUMNS)


def sanity_summary(checks):
    """One line per (dataset, model): the explainers that pass every check
    and those that fail one, from :func:`sanity_checks`.

    Parameters
    ----------
    checks : DataFrame
        The output of :func:`sanity_checks`.

    Returns
    -------
    lines : list of str
        Empty when ``checks`` is empty.
    """
    lines = []
    for (dataset, model), sub in checks.groupby(["dataset", "model"], sort=False):
        verdict = sub.groupby("explainer", sort=True)["passed"].all()
        passed = [e for e, v in verdict.items() if v]
        failed = []
        for explainer in (e for e, v in verdict.items() if not v):
            names = sub[(sub["explainer"] == explainer) & ~sub["passed"]]["metric"]
            names = [metric_display_name(m, m in _COMPLEXITY_RISE) for m in names]
            failed.append(f"{explainer} ({', '.join(names)})")
        lines.append(f"{dataset} / {model}: pass: {', '.join(passed) or 'none'}; "
                     f"fail: {', '.join(failed) or 'none'}")
    return lines
