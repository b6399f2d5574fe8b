"""Meta-evaluation of the metrics of a benchmark: which numbers to trust.

:func:`meta_evaluate` scores every metric of every (dataset, model) of a
benchmark on four questions: is its explainer ranking above the noise
(seed-to-seed spread, split-half reliability), can it tell a good explainer
from the random control with the rows explained (effect size, rows needed for
80 % power), does it react as MetaQuantus asks (resilient to minor
perturbations, reactive to disruptive ones), and does it agree with the other
metrics of its family (Kendall tau between explainer rankings).
"""

import numbers
import os
import sys
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from sklearn_xai.benchmark._decisions import FLAG_BLIND, FLAG_CONTROL_WINS, FLAG_NO_SIGNAL
from sklearn_xai.benchmark._results import BenchmarkResults
from sklearn_xai.metrics import get_metric_spec
from sklearn_xai.utils import NotApplicableError, row_keys, row_normal, row_permutations
from sklearn_xai.utils._estimators import unwrap
from sklearn_xai.utils._output import model_input

__all__ = [
    "DISRUPTIVE_PERTURBATIONS",
    "meta_evaluate",
    "plot_metric_agreement",
    "reliability_summary",
]

# Explainer labels taken as the reference (the ground truth) when present.
_ORACLE_LABELS = ("oracle", "ground_truth")
# Flag thresholds (documented in meta_evaluate's Notes).
SPLIT_HALF_MIN = 0.5
SNR_MIN = 1.0
REACTIVITY_MIN = 0.5
RESILIENCE_MIN = 0.5
# Families whose metrics are invariant to a permutation of the attributions
# of a row by construction: shuffling tests nothing there, so it flags nothing.
_PERMUTATION_INVARIANT = ("complexity",)
# Score differences below this (relative to the scores) are rounding, not change.
_TOL = 1e-9
_COLUMNS = [
    "dataset", "model", "metric", "family", "greater_is_better", "n_explainers",
    "n_seeds", "n_rows", "noise_floor", "noise_source", "signal", "snr", "split_half",
    "reference", "control", "effect_size", "n_rows_80", "resilience_iac",
    "resilience_iec", "reactivity_iac", "reactivity_iec", "mc_score", "agreement",
    "family_agreement", "flags",
]


# ------------------------------------------- attribution-noise perturbations
def _shuffle_attributions(model, X, attributions, *, random_state):
    """Each row's attributions permuted across its features (a permutation
    drawn per row from the row's key): the explanation no longer says
    anything about the model."""
    perm = row_permutations(random_state, row_keys(X), attributions.shape[1], stream=1)
    return model, X, np.take_along_axis(attributions, perm, axis=1)


# Name -> perturb(model, X, attributions, *, random_state) returning the
# disrupted (model, X, attributions): the disruptive perturbations of the
# quick ``protocol="attribution_noise"``, which re-scores the cells'
# attributions without re-explaining.
DISRUPTIVE_PERTURBATIONS = {"shuffle_attributions": _shuffle_attributions}


def _minor_perturbation(X, attributions, noise_scale, x_scale, random_state):
    """Inputs plus Gaussian noise of ``noise_scale`` training standard
    deviations per feature, attributions plus Gaussian noise of
    ``noise_scale`` times the row's mean absolute attribution."""
    keys = row_keys(X)
    z = row_normal(random_state, keys, (2, X.shape[1]), stream=2)
    a_scale = np.abs(attributions).mean(axis=1, keepdims=True)
    return (X + noise_scale * x_scale * z[:, 0],
            attributions + noise_scale * a_scale * z[:, 1])


# ------------------------------------------------ MetaQuantus's perturbations
# The disruptive tests of protocol="metaquantus": each perturbs the model
# ("model" type: the explainers re-explain the rows for the perturbed model)
# or the inputs ("input" type: the cells' attributions are scored on the
# perturbed rows, as MetaQuantus's input perturbation test does).  The minor
# test of a type is always run with its disruptive ones.
METAQUANTUS_DISRUPTIVE = {"model_noise": "model", "input_noise": "input",
                          "randomised_model": "model", "shuffled_labels": "model"}
_MQ_CRITERIA = ("iac_nr", "iac_ar", "iec_nr", "iec_ar")


def _scale_parameters(model, std, rng):
    """A deep copy of the fitted ``model`` with every parameter multiplied
    by its own draw of ``N(1, std**2)`` (MetaQuantus's model perturbation,
    Quantus's ``sample(noise_type="multiplicative")``): every tensor of a
    torch net's ``module_``, ``coefs_`` and ``intercepts_`` of a
    scikit-learn MLP, ``coef_`` and ``intercept_`` of a linear model, in a
    Pipeline or a FrozenEstimator or not."""
    import copy

    new = copy.deepcopy(model)
    _, final = unwrap(new)
    module = getattr(final, "module_", None)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(module, torch.nn.Module):
        generator = torch.Generator().manual_seed(int(rng.integers(2**62)))
        with torch.no_grad():
            for param in module.parameters():
                noise = 1.0 + std * torch.randn(param.shape, generator=generator,
                                                dtype=param.dtype)
                param.mul_(noise.to(param.device))
        return new

    def scaled(values):
        values = np.asarray(values)
        return (values * rng.normal(1.0, std, values.shape)).astype(values.dtype)

    if hasattr(final, "coefs_") and hasattr(final, "intercepts_"):
        final.coefs_ = [scaled(w) for w in final.coefs_]
        final.intercepts_ = [scaled(b) for b in final.intercepts_]
        return new
    if hasattr(final, "coef_"):
        final.coef_ = scaled(final.coef_)
        intercept = getattr(final, "intercept_", None)
        if isinstance(intercept, np.ndarray):
            final.intercept_ = scaled(intercept)
        elif isinstance(intercept, numbers.Real):
            final.intercept_ = float(intercept * rng.normal(1.0, std))
        return new
    raise NotApplicableError(
        f"Cannot perturb the parameters of {type(final).__name__}: MetaQuantus's model "
        "tests need a torch net (module_), an MLPClassifier / MLPRegressor or a linear "
        "model (coef_); use disruptive=('input_noise',) for other models.")


def _shuffled_label_model(prepared, rng):
    """The model refitted on the training rows with their labels permuted."""
    from sklearn.base import clone

    y = np.asarray(prepared["y_train"])
    model = clone(prepared["model"])
    model.fit(prepared["X_train"], y[rng.permutation(len(y))])
    return model


def _predict(model, X):
    return np.asarray(model.predict(model_input(model, X)))


def _perturbed_models(name, prepared, std, rng):
    """The perturbed model of a model-type test."""
    if name == "randomised_model":
        from sklearn_xai.models import randomise_model

        return randomise_model(prepared["model"], "all",
                               random_state=int(rng.integers(2**31)))
    if name == "shuffled_labels":
        return _shuffled_label_model(prepared, rng)
    return _scale_parameters(prepared["model"], std, rng)


# -------------------------------------------------------------- statistics
def _oriented(values, greater_is_better):
    return values if greater_is_better else -values


def _split_half(S, seed_of, n_splits, rng):
    """Spearman-Brown corrected split-half reliability of the explainer
    means, and the split-half noise floor (RMS of half the difference of the
    half means, the standard deviation of a full-sample mean).

    ``S``: (K, N) per-unit scores (NaN where undefined); units are split
    within each seed."""
    K, N = S.shape
    half = np.zeros((n_splits, N), dtype=bool)
    for seed in np.unique(seed_of):
        cols = np.flatnonzero(seed_of == seed)
        order = rng.random((n_splits, cols.size)).argsort(axis=1).argsort(axis=1)
        half[:, cols] = order < cols.size // 2
    finite = np.isfinite(S)
    values = np.where(finite, S, 0.0)
    counts_a = finite.astype(float) @ half.T.astype(float)
    counts_b = finite.astype(float) @ (~half).T.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_a = (values @ half.T) / counts_a  # (K, n_splits)
        mean_b = (values @ (~half).T) / counts_b
    noise = np.sqrt(np.nanmean(((mean_a - mean_b) / 2) ** 2)) if N >= 2 else np.nan
    if K < 3:
        return np.nan, noise
    a = mean_a - mean_a.mean(axis=0)
    b = mean_b - mean_b.mean(axis=0)
    # Explainers with equal means up to rounding have no ranking to correlate.
    scale = _TOL * np.maximum(1.0, np.abs(mean_a).max(axis=0))
    flat = (np.ptp(mean_a, axis=0) <= scale) | (np.ptp(mean_b, axis=0) <= scale)
    a[:, flat] = b[:, flat] = np.nan
    denom = np.sqrt((a ** 2).sum(axis=0) * (b ** 2).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (a * b).sum(axis=0) / denom
    r = r[np.isfinite(r)]
    if r.size == 0:
        return np.nan, noise
    r = float(np.mean(r))
    return (2 * r / (1 + r) if r > -1 else -1.0), noise


def _rows_for_power(effect, alpha, power):
    """Pairs needed for a two-sided paired t-test of level ``alpha`` to
    reach ``power`` at standardised effect ``effect`` (normal approximation
    with Guenther's correction for the t distribution)."""
    if not np.isfinite(effect) or effect == 0:
        return np.nan
    z_a, z_b = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    return float(max(2, np.ceil(((z_a + z_b) / abs(effect)) ** 2 + z_a ** 2 / 2)))


def _wilcoxon_p(q, q_hat):
    """Two-sided Wilcoxon signed-rank p-value of q vs q_hat, zeros split
    (MetaQuantus's test); 1 when no pair differs."""
    keep = np.isfinite(q) & np.isfinite(q_hat)
    diff = _differences(q[keep], q_hat[keep])
    if diff.size == 0:
        return np.nan
    if not diff.any():
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(stats.wilcoxon(diff, zero_method="zsplit").pvalue)


def _differences(q, q_hat):
    """``q - q_hat`` with differences of rounding size (a sum in another
    order) set to zero."""
    diff = q - q_hat
    tol = _TOL * np.maximum(1.0, np.maximum(np.abs(q), np.abs(q_hat)))
    return np.where(np.abs(diff) <= tol, 0.0, diff)


def _nanmean(values):
    values = np.asarray(values, dtype=float)
    return float(np.mean(values[np.isfinite(values)])) if np.isfinite(values).any() \
        else np.nan


def _iac(Q, Q_hat, mask, adversary):
    """MetaQuantus's intra-consistency: the mean over perturbations and
    explainers of the two-sided Wilcoxon p-value (zeros split) between the
    unperturbed and the perturbed scores of the kept units, ``1 - p`` for a
    disruptive test.  ``Q`` (K, N), ``Q_hat`` (M, K, N), ``mask`` (M, N)."""
    values = []
    for m in range(Q_hat.shape[0]):
        for k in range(Q.shape[0]):
            p = _wilcoxon_p(Q[k][mask[m]], Q_hat[m, k][mask[m]])
            values.append(1.0 - p if adversary else p)
    return _nanmean(values)


def _iec_resilience(raw, raw_hat, mask):
    """MetaQuantus's inter-consistency under a minor perturbation: per
    perturbation, the fraction of (kept unit, rank position) where the
    explainers sorted by their raw scores (ascending, as MetaQuantus's
    ``argsort``) are the same explainer; averaged over perturbations."""
    values = []
    for m in range(raw_hat.shape[0]):
        keep = mask[m] & np.isfinite(raw).all(axis=0) & np.isfinite(raw_hat[m]).all(axis=0)
        if not keep.any():
            values.append(np.nan)
            continue
        order = np.argsort(raw[:, keep], axis=0, kind="stable")
        order_hat = np.argsort(raw_hat[m][:, keep], axis=0, kind="stable")
        values.append(float(np.mean(order == order_hat)))
    return _nanmean(values)


def _iec_adversary(Q, Q_hat, mask):
    """MetaQuantus's inter-consistency under a disruptive perturbation: per
    perturbation, the fraction of (explainer, kept unit) whose oriented
    score is strictly worse perturbed; averaged over perturbations."""
    values = []
    for m in range(Q_hat.shape[0]):
        keep = mask[m][None, :] & np.isfinite(Q) & np.isfinite(Q_hat[m])
        values.append(float(np.mean(_differences(Q[keep], Q_hat[m][keep]) > 0))
                      if keep.any() else np.nan)
    return _nanmean(values)


def _mc_criteria(Q, tests, greater_is_better):
    """MetaQuantus's criteria from oriented scores ``Q`` (K, N) and the
    perturbed scores of each test, ``{(type, name): (Q_hat (M, K, N), mask
    (M, N))}`` (name "minor" for the minor test of a type).

    Returns the table's columns (each criterion averaged over the types,
    ``mc_score`` the mean of the types' MC scores) and per type the four
    criteria and its MC score (their mean, MetaQuantus's ``MC_mean``)."""
    sign = 1.0 if greater_is_better else -1.0
    by_type = {}
    for (kind, name), (Q_hat, mask) in tests.items():
        lists = by_type.setdefault(kind, {c: [] for c in _MQ_CRITERIA})
        if name == "minor":
            lists["iac_nr"].append(_iac(Q, Q_hat, mask, False))
            lists["iec_nr"].append(_iec_resilience(sign * Q, sign * Q_hat, mask))
        else:
            lists["iac_ar"].append(_iac(Q, Q_hat, mask, True))
            lists["iec_ar"].append(_iec_adversary(Q, Q_hat, mask))
    per_type = {}
    for kind, lists in by_type.items():
        crit = {c: (_nanmean(v) if v else np.nan) for c, v in lists.items()}
        values = list(crit.values())
        crit["mc"] = float(np.mean(values)) if np.isfinite(values).all() else np.nan
        per_type[kind] = crit
    columns = {}
    for column, criterion in (("resilience_iac", "iac_nr"), ("resilience_iec", "iec_nr"),
                              ("reactivity_iac", "iac_ar"), ("reactivity_iec", "iec_ar"),
                              ("mc_score", "mc")):
        columns[column] = _nanmean([c[criterion] for c in per_type.values()])
    return columns, per_type


# ----------------------------------------------------------------- scoring
def _group_units(per_row, explainers):
    """(K, N) per-row scores over the (seed, row) units every explainer has,
    and the seed of each unit."""
    wide = per_row.pivot_table(index=["seed", "row"], columns="explainer", values="value",
                               aggfunc="mean", dropna=False)
    wide = wide.reindex(columns=explainers).dropna(how="all")
    wide = wide[wide.notna().any(axis=1)]
    return wide.to_numpy(dtype=float).T, wide.index.get_level_values("seed").to_numpy()


def _seed_means(ok, explainers):
    wide = ok.pivot_table(index="seed", columns="explainer", values="value", aggfunc="mean")
    return wide.reindex(columns=explainers).to_numpy(dtype=float).T  # (K, n_seeds)


def _pick_reference(reference, explainers, means, control):
    if reference is not None:
        return reference if reference in explainers else None
    for label in _ORACLE_LABELS:
        if label in explainers:
            return label
    candidates = [(m, e) for e, m in zip(explainers, means, strict=True) if e != control and np.isfinite(m)]
    return max(candidates)[1] if candidates else None


def _family(metric_name):
    try:
        return get_metric_spec(metric_name).family
    except ValueError:
        return "other"


def _metric_record(ok, rows, *, control, reference, n_splits, alpha, power, rng,
                   perturbed):
    """The reliability row of one (dataset, model, metric)."""
    gib = bool(ok["greater_is_better"].dropna().iloc[0]) if ok["greater_is_better"].notna().any() \
        else True
    explainers = list(dict.fromkeys(ok["explainer"]))
    seeds = _seed_means(ok, explainers)  # (K, n_seeds)
    means = _oriented(np.nanmean(seeds, axis=1), gib)
    rec = {"greater_is_better": gib, "n_explainers": len(explainers),
           "n_seeds": seeds.shape[1], "control": control if control in explainers else None}
    S = seed_of = None
    if rows is not None and len(rows):
        S, seed_of = _group_units(rows, explainers)
        S = _oriented(S, gib)
    rec["n_rows"] = int(S.shape[1]) if S is not None else seeds.shape[1]
    split_half, split_noise = (_split_half(S, seed_of, n_splits, rng) if S is not None
                               else (np.nan, np.nan))
    if seeds.shape[1] >= 2:
        rec["noise_floor"] = float(np.sqrt(np.nanmean(np.nanvar(seeds, axis=1, ddof=1))))
        rec["noise_source"] = "seeds"
    else:
        rec["noise_floor"], rec["noise_source"] = split_noise, "split_half"
    rec["signal"] = float(np.nanstd(means, ddof=1)) if len(means) >= 2 else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        rec["snr"] = (rec["signal"] / rec["noise_floor"] if rec["noise_floor"] > 0
                      else (np.inf if rec["signal"] > 0 else np.nan))
    rec["split_half"] = split_half
    ref = _pick_reference(reference, explainers, means, control)
    rec["reference"] = ref
    effect = np.nan
    if ref is not None and rec["control"] is not None and ref != control:
        i, j = explainers.index(ref), explainers.index(control)
        pairs = S if S is not None else _oriented(seeds, gib)
        diff = pairs[i] - pairs[j]
        diff = diff[np.isfinite(diff)]
        if diff.size >= 2:
            sd = diff.std(ddof=1)
            mean = diff.mean()
            effect = (mean / sd if sd > 0 else (0.0 if mean == 0 else np.sign(mean) * np.inf))
    rec["effect_size"] = float(effect)
    rec["n_rows_80"] = (2.0 if np.isinf(effect) and effect > 0
                        else _rows_for_power(effect, alpha, power))
    rec["metaquantus"] = None
    if perturbed and S is not None:
        # The explanation methods, the control left out (its explanation
        # ignores the model: it has nothing to lose).
        keep = [k for k, e in enumerate(explainers) if e != control]
        if keep:
            tests = {key: (_oriented(Q_hat[:, keep], gib), mask)
                     for key, (Q_hat, mask) in perturbed.items()}
            columns, per_type = _mc_criteria(S[keep], tests, gib)
            rec.update(columns)
            rec["metaquantus"] = per_type
    return rec


def _agreement(board):
    """Kendall tau-b between the metrics' explainer rankings of one (dataset,
    model): ``board`` holds oriented explainer means (explainers x metrics)."""
    metrics = list(board.columns)
    tau = pd.DataFrame(np.eye(len(metrics)), index=metrics, columns=metrics)
    for a in range(len(metrics)):
        for b in range(a + 1, len(metrics)):
            x, y = board.iloc[:, a].to_numpy(), board.iloc[:, b].to_numpy()
            keep = np.isfinite(x) & np.isfinite(y)
            value = np.nan
            if keep.sum() >= 2 and np.ptp(x[keep]) > 0 and np.ptp(y[keep]) > 0:
                value = stats.kendalltau(x[keep], y[keep]).statistic
            tau.iloc[a, b] = tau.iloc[b, a] = value
    for m in metrics:  # a metric that cannot rank agrees with nothing
        values = board[m].dropna().to_numpy()
        if values.size < 2 or not np.ptp(values) > 0:
            tau.loc[m, m] = np.nan
    return tau


def _flags(rec, per_type=None):
    flags = []
    if np.isfinite(rec["split_half"]) and rec["split_half"] < SPLIT_HALF_MIN:
        flags.append(f"unstable ranking (split-half {rec['split_half']:.2f})")
    if rec["n_explainers"] >= 2 and not rec["signal"] > 0:
        flags.append(FLAG_NO_SIGNAL)
    elif np.isfinite(rec["snr"]) and rec["snr"] < SNR_MIN:
        flags.append(f"below the noise floor (snr {rec['snr']:.2f})")
    # Blindness is judged on the disruption of the model (the explainers
    # re-explain a disrupted model), else on the shuffled attributions of
    # the quick protocol (not for the complexity family: shuffling cannot
    # change it).  Not on MetaQuantus's input test alone: it scores the
    # unperturbed attributions on disrupted inputs, so a metric that does
    # not read the inputs (ground truth, complexity) cannot react to it.
    per_type = per_type or {}
    disrupted = per_type.get("model")
    if disrupted is None and rec["family"] not in _PERMUTATION_INVARIANT:
        disrupted = per_type.get("attribution")
    if disrupted is not None:
        reactive = [disrupted["iac_ar"], disrupted["iec_ar"]]
        if np.isfinite(reactive).all() and max(reactive) < REACTIVITY_MIN:
            flags.append(FLAG_BLIND)
    resilient = rec.get("resilience_iec", np.nan)
    if np.isfinite(resilient) and resilient < RESILIENCE_MIN:
        flags.append(f"fragile under noise (IEC {resilient:.2f})")
    if rec["effect_size"] < 0:
        flags.append(f"{FLAG_CONTROL_WINS} (d_z {rec['effect_size']:.2f})")
    elif np.isfinite(rec["n_rows_80"]) and rec["n_rows_80"] > rec["n_rows"]:
        flags.append(f"underpowered (needs {int(rec['n_rows_80'])} rows)")
    elif rec["reference"] is not None and rec["control"] is not None \
            and not np.isfinite(rec["n_rows_80"]):
        flags.append("no power vs control")
    if np.isfinite(rec["family_agreement"]) and rec["family_agreement"] < 0:
        flags.append(f"against its family (tau {rec['family_agreement']:.2f})")
    return "; ".join(flags)


# -------------------------------------------------------- perturbed scores
def _test_copies(settings, prepared, X, pred0, seed, random_state):
    """The perturbed copies of one (dataset, model, seed): a list of
    ``(test, model or None, X, kept)`` per perturbation, ``test`` a (type,
    name) key, ``model`` the perturbed model (None: the fitted one, the
    cells' attributions scored), ``kept`` the rows the test keeps."""
    n, M = len(X), settings["n_perturbations"]
    everything = np.ones(n, dtype=bool)
    x_scale = np.nanstd(prepared["X_train"], axis=0)
    copies = []
    kinds = {METAQUANTUS_DISRUPTIVE[d] for d in settings["disruptive"]}
    tests = [("model", "minor")] if "model" in kinds else []
    tests += [("model", d) for d in settings["disruptive"]
              if METAQUANTUS_DISRUPTIVE[d] == "model"]
    if "input" in kinds:
        tests += [("input", "minor"), ("input", "input_noise")]
    for t, (kind, name) in enumerate(tests):
        level = settings[f"{kind}_noise"][0 if name == "minor" else 1]
        for m in range(M):
            rng = np.random.default_rng([random_state, seed, m, t])
            if kind == "model":
                model = _perturbed_models(name, prepared, level, rng)
                Xp, pred = X, _predict(model, X)
            else:
                model = None
                Xp = X + rng.uniform(-level, level, X.shape) * x_scale
                pred = _predict(prepared["model"], Xp)
            if pred0 is None:  # a regressor: every row is kept
                kept = everything
            else:
                kept = (pred == pred0) if name == "minor" else (pred != pred0)
            copies.append(((kind, name), model, Xp, kept))
    return copies


def _perturbed_group(tasks, reference_specs, cache_dir, protocol, settings, random_state):
    """Run the cells of one (dataset, model, seed) and re-score their
    metrics on the perturbed copies of the rows.

    ``protocol="metaquantus"``: MetaQuantus's tests, the explainers
    re-explaining the rows for each perturbed model; ``"attribution_noise"``:
    the cells' attributions perturbed and re-scored.  Returns the cell
    outputs, ``{(explainer, metric label): {test: (M, n) scores}}`` and
    ``{test: (M, n) kept rows}``."""
    from sklearn_xai.benchmark._runner import _explain, _fit, _fit_explainer, _run_cell

    task0 = tasks[0][1]
    fit = _fit(task0["dataset"], task0["model"], task0["seed"], reference_specs,
               device=task0.get("device"))
    outputs, perturbed, masks = [], {}, {}
    prepared = fit["prepared"]
    copies = []
    pred0 = target = None
    if not fit["error"] and protocol == "metaquantus":
        X = prepared["X_explain"]
        try:
            if prepared["task"] == "classification":
                # The explained class stays the fitted model's prediction (or
                # the explain_rows target), as MetaQuantus explains y_pred.
                pred0 = _predict(prepared["model"], X)
                target = (pred0 if prepared["explain_target"] is None
                          else prepared["explain_target"])
            copies = _test_copies(settings, prepared, X, pred0, task0["seed"], random_state)
        except Exception:  # noqa: BLE001 - e.g. a model whose parameters cannot be scaled
            copies = []
            if "input_noise" in settings["disruptive"]:
                try:
                    only_input = {**settings, "disruptive": ("input_noise",)}
                    copies = _test_copies(only_input, prepared, X, pred0, task0["seed"],
                                          random_state)
                except Exception:  # noqa: BLE001
                    copies = []
    for test, _, _, kept in copies:
        masks.setdefault(test, []).append(kept)
    masks = {test: np.array(kept) for test, kept in masks.items()}
    for index, task in tasks:
        # One fit of the cell's explainer serves the cell and the re-scoring
        # (the runner's rule: each cell's explainer is fitted once).
        fitted = None if fit["error"] else _fit_explainer(task, prepared)
        out = _run_cell(task, cache_dir, fit, fitted=fitted)
        outputs.append((index, out))
        if out["status"] != "ok" or out.get("explanation") is None or fit["error"]:
            continue
        explanation = out["explanation"]
        explainer = fitted["explainer"]
        if explainer is None:  # the cell itself ran (cached): keep its scores
            continue
        X = prepared["X_explain"]
        A = np.asarray(explanation["attributions"], dtype=np.float64)
        if A.shape != X.shape:
            continue
        scored = []  # (test, model, explainer, X, A, prepared) per copy
        if protocol == "attribution_noise":
            scored, masks = _attribution_copies(settings, task, prepared, explainer, X, A,
                                                random_state)
        else:
            for test, model, Xp, _ in copies:
                if model is None:
                    scored.append((test, prepared["model"], explainer, Xp, A, prepared))
                    continue
                view = {**prepared, "model": model}
                try:
                    again, _ = _explain(task, view)
                    Ap = np.asarray(again.explain(X, target=target), dtype=np.float64)
                except Exception:  # noqa: BLE001 - left out: the test has no score
                    continue
                scored.append((test, model, again, X, Ap, view))
        for label, metric_spec in task["metrics"].items():
            result = out["metrics"].get(label, {})
            if result.get("status") != "ok" or result.get("scores") is None:
                continue
            try:
                scores = _score_copies(task, label, metric_spec, fit, explanation, scored,
                                       len(X), target, protocol)
            except Exception:  # noqa: BLE001 - a metric that fails on perturbed rows
                continue
            by_test = {}
            for (test, *_), row in zip(scored, scores, strict=True):
                by_test.setdefault(test, []).append(row)
            if set(by_test) == set(masks) and all(
                    len(v) == len(masks[t]) for t, v in by_test.items()):
                perturbed[(task["labels"]["explainer"], label)] = {
                    t: np.array(v) for t, v in by_test.items()}
    return outputs, perturbed, masks


def _attribution_copies(settings, task, prepared, explainer, X, A, random_state):
    """The copies of ``protocol="attribution_noise"``: inputs and
    attributions plus noise (minor), the disruptive perturbations of
    :data:`DISRUPTIVE_PERTURBATIONS`; every row kept."""
    model = getattr(explainer, "explained_estimator_", prepared["model"])
    x_scale = np.nanstd(prepared["X_train"], axis=0)
    scored, masks = [], {}
    for m in range(settings["n_perturbations"]):
        seed = [random_state, task["seed"], m]
        Xm, Am = _minor_perturbation(X, A, settings["noise_scale"], x_scale,
                                     np.random.default_rng(seed))
        scored.append((("attribution", "minor"), model, explainer, Xm, Am, prepared))
        for name in settings["disruptive"]:
            dm, dX, dA = DISRUPTIVE_PERTURBATIONS[name](
                model, X, A, random_state=np.random.default_rng(seed))
            scored.append((("attribution", name), dm, explainer, np.asarray(dX, float),
                           np.asarray(dA, float), prepared))
    for test, *_ in scored:
        masks.setdefault(test, []).append(np.ones(len(X), dtype=bool))
    return scored, {t: np.array(v) for t, v in masks.items()}


def _score_copies(task, label, metric_spec, fit, explanation, scored, n, target, protocol):
    """Per-row scores (n_copies, n) of one metric on the perturbed copies:
    the copies that share a model and an explainer are stacked and scored
    in one call."""
    from sklearn_xai.benchmark._runner import _metadata_overrides, _metric_kwargs
    from sklearn_xai.benchmark._spec import _accepts
    from sklearn_xai.metrics import ExplanationScorer, get_scorer

    registry_spec = get_metric_spec(metric_spec["name"])
    out = np.full((len(scored), n), np.nan)
    groups = {}
    for i, (_, model, explainer, *_rest) in enumerate(scored):
        groups.setdefault((id(model), id(explainer)), []).append(i)
    for idx in groups.values():
        _, model, explainer, _, _, prepared = scored[idx[0]]
        same = model is fit["prepared"]["model"]
        reference = (fit["references"].get(task["reference_keys"].get(label))
                     if protocol == "attribution_noise" else None)
        kwargs, reason = _metric_kwargs(
            metric_spec, registry_spec, prepared, explainer, task["seed"],
            explanation.get("attributions_train") if same else None, reference)
        if reason is not None:
            raise NotApplicableError(reason)
        if protocol == "metaquantus" and target is not None and "target" not in kwargs \
                and registry_spec.kind == "model" and _accepts(registry_spec.func, "target"):
            kwargs["target"] = target  # the class the unperturbed model predicts
        metadata = {k: v for k, v in prepared["metadata"].items()
                    if k in registry_spec.metadata}
        overrides, reason = _metadata_overrides(metric_spec["params"], registry_spec,
                                                prepared)
        if reason is not None:
            raise NotApplicableError(reason)
        metadata.update(overrides)
        reps = len(idx)
        for key in ("reference", "target"):  # per-row arguments follow the rows
            if kwargs.get(key) is not None and np.ndim(kwargs[key]) >= 1:
                value = np.asarray(kwargs[key])
                kwargs[key] = np.tile(value, (reps,) + (1,) * (value.ndim - 1))
        scorer = get_scorer(metric_spec["name"], **kwargs)
        if not isinstance(scorer, ExplanationScorer):
            raise TypeError(f"{metric_spec['name']!r} gives no per-row scores.")
        X = np.concatenate([scored[i][3] for i in idx])
        A = np.concatenate([scored[i][4] for i in idx])
        meta = {k: np.concatenate([np.asarray(v)] * reps) for k, v in metadata.items()}
        scores = np.asarray(scorer.score_attributions(model, X, A, explainer=explainer,
                                                      **meta), float)
        out[idx] = scores.reshape(reps, n)
    return out


def _run_perturbed(spec, *, n_jobs, cache_dir, protocol, settings, random_state):
    """Run a benchmark (its cells and the perturbed re-scoring), grouped by
    (dataset, model, seed)."""
    import joblib

    from sklearn_xai.benchmark._runner import _run_device, _tasks, _uses_reference

    spec.validate_names()
    # The spec's device (a config's ``device:``), as run_benchmark uses it.
    tasks = _tasks(spec, _run_device(spec.device))
    groups = {}
    for i, task in enumerate(tasks):
        entry = groups.setdefault(task["fit_key"], ([], {}))
        entry[0].append((i, task))
        entry[1].update({task["reference_keys"][label]: s
                         for label, s in task["metrics"].items() if _uses_reference(s)})
    if cache_dir is not None:
        os.makedirs(os.path.join(os.fspath(cache_dir), "cells"), exist_ok=True)
    done = joblib.Parallel(n_jobs=n_jobs)(
        joblib.delayed(_perturbed_group)(group_tasks, refs, cache_dir, protocol, settings,
                                         random_state)
        for group_tasks, refs in groups.values())
    outputs, perturbed, masks = [], {}, {}
    for (group_tasks, _), (outs, scores, kept) in zip(groups.values(), done, strict=True):
        outputs.extend(outs)
        labels = group_tasks[0][1]["labels"]
        masks[(labels["dataset"], labels["model"], labels["seed"])] = kept
        for (explainer, metric), value in scores.items():
            perturbed[(labels["dataset"], labels["model"], metric, labels["seed"],
                       explainer)] = value
    outputs = [out for _, out in sorted(outputs, key=lambda pair: pair[0])]
    return BenchmarkResults.from_cells(spec, outputs), (perturbed, masks)


def _stack_perturbed(perturbed, dataset, model, metric, explainers, rows):
    """``{test: ((M, K, N) scores, (M, N) kept)}`` aligned with the units of
    :func:`_group_units`; a test is left out when an explainer or a seed
    lacks it."""
    scores_of, masks_of = perturbed
    wide = rows.pivot_table(index=["seed", "row"], columns="explainer", values="value",
                            aggfunc="mean", dropna=False).reindex(columns=explainers)
    wide = wide[wide.notna().any(axis=1)]
    seeds = wide.index.get_level_values("seed").to_numpy()
    positions = wide.index.get_level_values("row").to_numpy()
    tests = None
    for seed in np.unique(seeds):
        kept = masks_of.get((dataset, model, seed)) or {}
        have = set(kept)
        for explainer in explainers:
            have &= set(scores_of.get((dataset, model, metric, seed, explainer)) or {})
        tests = have if tests is None else tests & have
    out = {}
    for test in sorted(tests or (), key=str):
        M = min(masks_of[(dataset, model, seed)][test].shape[0] for seed in np.unique(seeds))
        Q_hat = np.full((M, len(explainers), len(seeds)), np.nan)
        mask = np.zeros((M, len(seeds)), dtype=bool)
        for seed in np.unique(seeds):
            cols = np.flatnonzero(seeds == seed)
            mask[:, cols] = masks_of[(dataset, model, seed)][test][:M][:, positions[cols]]
            for k, explainer in enumerate(explainers):
                values = scores_of[(dataset, model, metric, seed, explainer)][test]
                Q_hat[:, k, cols] = values[:M][:, positions[cols]]
        out[test] = (Q_hat, mask)
    return out


# ------------------------------------------------------------------ public
def meta_evaluate(results_or_spec, *, perturb="auto", protocol="metaquantus",
                  model_noise=(0.001, 2.0), input_noise=(0.001, 5.0), noise_scale=0.05,
                  n_perturbations=3, disruptive="auto", reference=None, n_splits=100,
                  alpha=0.05, power=0.8, n_jobs=None, cache_dir=None, random_state=0):
    """How far to trust each metric of a benchmark.

    One row per (dataset, model, metric), from the per-row scores of the
    benchmark's cells (see :ref:`metric-reliability`):

    * **noise floor**: the standard deviation of a run's value for one
      explainer, from the spread over seeds when the benchmark has several
      (``noise_source="seeds"``: data, split, model and explainer redrawn),
      else from random halves of the rows (``"split_half"``: half the
      difference of the half means); ``signal`` is the standard deviation
      of the explainer means and ``snr`` their ratio.
    * **split-half reliability** of the explainer ranking: the rows (within
      each seed) are split in random halves ``n_splits`` times, the Pearson
      correlation of the explainers' half means is averaged and corrected
      with Spearman-Brown, :math:`2r / (1 + r)` [2]_ (needs three
      explainers).
    * **discriminative power**: the paired standardised effect
      :math:`d_z = \\bar\\Delta / s_\\Delta` of the per-row differences
      between the ``reference`` explainer and the random control, and the
      explained rows a two-sided paired t-test of level ``alpha`` needs to
      detect it with probability ``power`` (normal approximation with
      Guenther's t correction, :math:`n = ((z_{1-\\alpha/2} + z_{\\beta}) /
      d_z)^2 + z_{1-\\alpha/2}^2 / 2`) [3]_.
    * **MetaQuantus's meta-consistency** [1]_ (spec mode only: the metrics
      are re-scored on perturbed copies; ``protocol="metaquantus"``, its
      tests as its code runs them).  *Model test*: every parameter of the
      model is multiplied by its own ``N(1, s**2)`` draw and each explainer
      re-explains the rows for the perturbed model, which the metric then
      scores; *input test*: the rows get uniform noise of ``±a`` training
      standard deviations per feature and the metric scores the cells'
      (unperturbed) attributions on the perturbed rows.  Each test is run
      at a *minor* level (``model_noise[0]``, ``input_noise[0]``; the rows
      whose predicted class is unchanged are kept) and a *disruptive* one
      (``model_noise[1]``, ``input_noise[1]``; the rows whose predicted class
      changed are kept; a regressor keeps every row), ``n_perturbations``
      times.  A metric should be resilient to the minor perturbation:
      ``resilience_iac`` (IAC NR, intra-consistency) is the mean two-sided
      Wilcoxon p-value (zeros split) between an explainer's unperturbed and
      perturbed per-row scores, ``resilience_iec`` (IEC NR,
      inter-consistency) the fraction of (row, rank position) where the
      explainers sorted by their scores are the same.  It should react to
      the disruptive one: ``reactivity_iac`` (IAC AR) is the mean of one
      minus the p-values, ``reactivity_iec`` (IEC AR) the fraction of
      (explainer, row) scores that get worse.  The MC score of a test type
      is the mean of its four criteria (the distance to the ideal
      ``(1, 1, 1, 1)``); the columns average the criteria over the model and
      input types and ``mc_score`` is the mean of their MC scores;
      ``meta.attrs["metaquantus"][(dataset, model, metric)]`` holds each
      type's criteria (``"iac_nr"``, ``"iac_ar"``, ``"iec_nr"``,
      ``"iec_ar"``, ``"mc"``).  ``protocol="attribution_noise"`` is a quick
      variant that re-explains nothing: Gaussian noise of ``noise_scale`` on
      the inputs (training standard deviations) and on the attributions
      (the row's mean absolute attribution) as the minor perturbation, the
      attributions of each row shuffled as the disruptive one (type
      ``"attribution"``, every row kept).
    * **agreement**: the Kendall tau-b between the metric's explainer
      ranking and each other metric's (the matrix is
      ``pd.DataFrame(meta.attrs["agreement"][(dataset, model)])``);
      ``agreement`` is its
      mean over the other metrics, ``family_agreement`` over those of the
      same family (:attr:`~sklearn_xai.metrics.MetricSpec.family`).

    ``flags`` lists what should stop a reader from trusting the metric's
    ranking (thresholds in the Notes).

    Parameters
    ----------
    results_or_spec : BenchmarkResults, BenchmarkSpec, dict, str or path-like
        Finished results (results-only mode: the per-row scores are reused,
        nothing is recomputed, the MetaQuantus columns are NaN), or a
        benchmark (a spec, config dict, preset name or config file), which
        is run with its cells' attributions kept for the perturbed
        re-scoring.
    perturb : "auto" or bool, default="auto"
        Re-score the metrics on perturbed rows (the MetaQuantus columns).
        "auto": when given a benchmark to run.  Results cannot be perturbed
        (they hold no attributions).
    protocol : {"metaquantus", "attribution_noise"}, default="metaquantus"
        The perturbations: MetaQuantus's model and input tests (the
        explainers re-explain the rows for each perturbed model), or the
        quick variant that perturbs the cells' attributions and explains
        nothing again (the cost of scoring the metrics twice).
    model_noise : (float, float), default=(0.001, 2.0)
        Standard deviations of the multiplicative ``N(1, s**2)`` noise on the
        model's parameters, minor and disruptive (MetaQuantus's MNIST
        levels; its ImageNet ones are ``(0.001, 0.5)``).  Torch nets
        (``module_``, skorch), scikit-learn MLPs and linear models; other
        models get the input test only.
    input_noise : (float, float), default=(0.001, 5.0)
        Half-widths of the uniform noise on the inputs, in training standard
        deviations of each feature, minor and disruptive (MetaQuantus's
        levels, on inputs of unit scale).
    noise_scale : float, default=0.05
        Size of the minor perturbation of ``protocol="attribution_noise"``,
        in training standard deviations of each feature (inputs) and in mean
        absolute attributions of the row (attributions).
    n_perturbations : int, default=3
        Perturbations per test (MetaQuantus's ``iterations`` times
        ``nr_perturbations``: the criteria are means over them).
    disruptive : "auto" or tuple of str, default="auto"
        The disruptive tests.  With ``protocol="metaquantus"``, among
        ``"model_noise"`` and ``"input_noise"`` (MetaQuantus's, the "auto"
        pair), ``"randomised_model"`` (every layer re-initialised by
        :func:`~sklearn_xai.models.randomise_model`) and
        ``"shuffled_labels"`` (the model refitted on permuted training
        labels), the last two model tests (averaged with ``"model_noise"``
        into the model type's reactivity); the minor test of a type runs
        with its disruptive ones.  With ``protocol="attribution_noise"``,
        among :data:`DISRUPTIVE_PERTURBATIONS` ("auto":
        ``("shuffle_attributions",)``).
    reference : str, default=None
        Explainer label of the reference of the discriminative power; None:
        an explainer labelled "oracle" or "ground_truth" when the benchmark
        has one, else the explainer with the best mean on the metric (the
        control left out; chosen on the same rows, so the effect is an
        optimistic one).
    n_splits : int, default=100
        Random row halvings of the split-half reliability.
    alpha : float, default=0.05
        Level of the paired test of the power analysis.
    power : float, default=0.8
        Target power of the power analysis.
    n_jobs : int, default=None
        (dataset, model, seed) groups run in parallel (spec mode).
    cache_dir : str or path-like, default=None
        The runner's cell cache (spec mode): cached explanations are reused.
    random_state : int, default=0
        Seed of the row halvings and of the perturbations (drawn per row
        from the row's content, so a row's perturbation never depends on
        the other rows).

    Returns
    -------
    meta : DataFrame
        One row per (dataset, model, metric): ``family``,
        ``greater_is_better``, ``n_explainers``, ``n_seeds``, ``n_rows``
        (paired units: seeds x explained rows), ``noise_floor``,
        ``noise_source``, ``signal``, ``snr``, ``split_half``,
        ``reference``, ``control``, ``effect_size``, ``n_rows_80``,
        ``resilience_iac``, ``resilience_iec``, ``reactivity_iac``,
        ``reactivity_iec``, ``mc_score``, ``agreement``,
        ``family_agreement``, ``flags``.  ``meta.attrs["agreement"]`` maps
        (dataset, model) to the Kendall tau matrix as a dict of dicts of
        floats, ``tau[metric_a][metric_b]`` (plain values, so that pandas
        operations on ``meta`` keep working; ``pd.DataFrame(...)`` of it is
        the matrix, and :func:`plot_metric_agreement` draws it).

    Notes
    -----
    Flags: split-half reliability below 0.5; signal below the noise floor;
    the control better than the reference;
    both reactivities of the disruptive model test below 0.5 ("blind to
    disruption");
    inter-consistency under minor noise below 0.5; more rows needed for 80 %
    power than the run explained; a mean Kendall tau with its family below
    zero.

    The blindness flag reads the model test (the quick protocol's shuffle
    when there is none, except for the complexity family, which a shuffle
    cannot change): MetaQuantus's input test scores unperturbed
    attributions on perturbed rows, so a metric that does not read the
    inputs (ground truth, complexity) cannot react to it by construction.

    ``protocol="metaquantus"`` follows MetaQuantus 0.0.5's code (its
    ``ModelPerturbationTest``, ``InputPerturbationTest`` and
    ``MetaEvaluation``): the explained class stays the unperturbed model's
    prediction (metrics that take a ``target`` score it); criteria are
    computed per perturbation on the kept rows and averaged.  Differences:
    the random control is left out of the criteria (its explanation ignores
    the model); a perturbation that keeps no row gives no criterion (its
    Wilcoxon p-value is NaN in recent SciPy and MetaQuantus's mean is then
    NaN; here the other perturbations' mean); differences of rounding size
    count as ties; the perturbed inputs are not clipped (MetaQuantus clips
    them below at the batch minimum, an image range); its
    ``score_direction`` test counts a higher disrupted score as worse for
    "higher" metrics too, a slip this reads as intended (worse in the
    metric's orientation).  ``benchmarks/bench_meta.py --metaquantus`` runs
    MetaQuantus on a shared case: the criteria agree within Monte-Carlo
    error (``tests/benchmark/data/metaquantus_shared_case.json``).

    References
    ----------
    .. [1] Hedström, A., Bommer, P., Wickstrøm, K. K., Samek, W.,
       Lapuschkin, S. and Höhne, M. M.-C. "The Meta-Evaluation Problem in
       Explainable AI: Identifying Reliable Estimators with MetaQuantus",
       Transactions on Machine Learning Research, 2023.
    .. [2] Brown, W. "Some experimental results in the correlation of mental
       abilities", British Journal of Psychology 3, 296-322, 1910.
    .. [3] Guenther, W. C. "Sample size formulas for normal theory t tests",
       The American Statistician 35(4), 243-244, 1981.

    Examples
    --------
    >>> from sklearn_xai.benchmark import meta_evaluate
    >>> meta = meta_evaluate({
    ...     "dataset": {"name": "make_linear_attribution", "params": {"n_samples": 200}},
    ...     "models": ["linear_regression"],
    ...     "explainers": {"random": "RandomExplainer", "ablation": "FeatureAblation"},
    ...     "metrics": ["feature_agreement"], "seeds": [0], "n_explain": 40})
    >>> row = meta.iloc[0]
    >>> row["reference"], bool(row["n_rows_80"] < 40), bool(0 <= row["mc_score"] <= 1)
    ('ablation', True, True)
    """
    from sklearn_xai.benchmark._runner import _as_spec

    if perturb not in ("auto", True, False):
        raise ValueError(f"perturb must be 'auto', True or False, got {perturb!r}.")
    for name, value, low in (("n_perturbations", n_perturbations, 1),
                             ("n_splits", n_splits, 1)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            raise ValueError(f"{name} must be an int >= {low}, got {value!r}.")
    if not (isinstance(noise_scale, numbers.Real) and noise_scale > 0):
        raise ValueError(f"noise_scale must be a positive float, got {noise_scale!r}.")
    for name, value in (("alpha", alpha), ("power", power)):
        if not (isinstance(value, numbers.Real) and 0 < value < 1):
            raise ValueError(f"{name} must be in (0, 1), got {value!r}.")
    if protocol not in ("metaquantus", "attribution_noise"):
        raise ValueError("protocol must be 'metaquantus' or 'attribution_noise', got "
                         f"{protocol!r}.")
    for name, value in (("model_noise", model_noise), ("input_noise", input_noise)):
        if isinstance(value, str) or np.ndim(value) != 1 or len(value) != 2 or not all(
                isinstance(v, numbers.Real) and v > 0 for v in value):
            raise ValueError(f"{name} must be a pair of positive floats (minor, "
                             f"disruptive), got {value!r}.")
    allowed = (DISRUPTIVE_PERTURBATIONS if protocol == "attribution_noise"
               else METAQUANTUS_DISRUPTIVE)
    if isinstance(disruptive, str) and disruptive == "auto":
        disruptive = (("shuffle_attributions",) if protocol == "attribution_noise"
                      else ("model_noise", "input_noise"))
    unknown = ([disruptive] if isinstance(disruptive, str)
               else [d for d in disruptive if d not in allowed])
    if unknown or not len(disruptive):
        raise ValueError(f"disruptive must be 'auto' or a tuple of {sorted(allowed)} "
                         f"with protocol={protocol!r}, got {disruptive!r}.")
    settings = {"n_perturbations": n_perturbations, "disruptive": tuple(disruptive),
                "noise_scale": float(noise_scale),
                "model_noise": tuple(map(float, model_noise)),
                "input_noise": tuple(map(float, input_noise))}
    perturbed = None
    if isinstance(results_or_spec, BenchmarkResults):
        if perturb is True:
            raise ValueError(
                "perturb=True needs the attributions, which BenchmarkResults do not hold: "
                "pass the benchmark (spec, preset or config) instead, with its cache_dir "
                "to reuse the explanations.")
        results = results_or_spec
    else:
        spec = _as_spec(results_or_spec)
        if perturb is False:
            from sklearn_xai.benchmark._runner import run_benchmark

            results = run_benchmark(spec, n_jobs=n_jobs, cache_dir=cache_dir)
        else:
            results, perturbed = _run_perturbed(
                spec, n_jobs=n_jobs, cache_dir=cache_dir, protocol=protocol,
                settings=settings, random_state=random_state)
    if reference is not None and reference not in set(results.table["explainer"]):
        raise ValueError(f"reference={reference!r} is not an explainer of the benchmark; "
                         f"explainers: {sorted(set(results.table['explainer']))}.")
    return _assemble(results, perturbed, reference=reference, n_splits=n_splits,
                     alpha=alpha, power=power, random_state=random_state)


def _assemble(results, perturbed, *, reference, n_splits, alpha, power, random_state):
    table = results.table
    ok = table[table["status"] == "ok"].copy()
    ok["value"] = pd.to_numeric(ok["value"], errors="coerce")
    per_row = results.per_row
    row_groups = ({} if per_row is None or not len(per_row) else
                  {k: g for k, g in per_row.groupby(["dataset", "model", "metric"],
                                                    sort=False)})
    records, agreement, mq = [], {}, {}
    for (dataset, model), pair in ok.groupby(["dataset", "model"], sort=False):
        pair_records = []
        board = {}
        for metric, group in pair.groupby("metric", sort=False):
            rng = np.random.default_rng([random_state, len(records) + len(pair_records)])
            rows = row_groups.get((dataset, model, metric))
            pert = None
            if perturbed is not None and rows is not None:
                explainers = list(dict.fromkeys(group["explainer"]))
                pert = _stack_perturbed(perturbed, dataset, model, metric, explainers, rows)
            rec = _metric_record(group, rows, control=results.control,
                                 reference=reference, n_splits=n_splits, alpha=alpha,
                                 power=power, rng=rng, perturbed=pert)
            name = group["metric_name"].iloc[0] if "metric_name" in group else metric
            rec.update(dataset=dataset, model=model, metric=metric,
                       family=_family(name if isinstance(name, str) else metric))
            pair_records.append(rec)
            means = group.groupby("explainer", sort=False)["value"].mean()
            board[metric] = _oriented(means, rec["greater_is_better"])
        board = pd.DataFrame(board)
        tau = _agreement(board)
        # Plain values only: pandas compares and copies ``attrs`` in its
        # operations (``astype``, ``concat``), which a DataFrame breaks.
        agreement[(dataset, model)] = tau.to_dict()
        families = {r["metric"]: r["family"] for r in pair_records}
        for rec in pair_records:
            others = [m for m in tau.columns if m != rec["metric"]]
            same = [m for m in others if families[m] == rec["family"]]
            row = tau.loc[rec["metric"]]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                rec["agreement"] = float(np.nanmean(row[others])) if others else np.nan
                rec["family_agreement"] = (float(np.nanmean(row[same])) if same
                                           and np.isfinite(row[same]).any() else np.nan)
            per_type = rec.pop("metaquantus", None)
            if per_type:
                mq[(dataset, model, rec["metric"])] = per_type
            rec["flags"] = _flags({**{k: np.nan for k in _COLUMNS}, **rec}, per_type)
        records.extend(pair_records)
    meta = pd.DataFrame.from_records(records).reindex(columns=_COLUMNS)
    meta.attrs["agreement"] = agreement
    meta.attrs["metaquantus"] = mq
    return meta


def reliability_summary(meta, *, max_width=100):
    """One line per flagged metric, for a terminal.

    Parameters
    ----------
    meta : DataFrame
        A :func:`meta_evaluate` table.
    max_width : int, default=100
        Longest line (longer ones are cut with an ellipsis).

    Returns
    -------
    lines : list of str

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_xai.benchmark import reliability_summary
    >>> meta = pd.DataFrame({"dataset": ["d"], "model": ["m"], "metric": ["x"],
    ...                      "flags": ["unstable ranking (split-half 0.20)"]})
    >>> reliability_summary(meta)
    ['d / m: x: unstable ranking (split-half 0.20)']
    """
    lines = []
    for _, row in meta.iterrows():
        if not isinstance(row["flags"], str) or not row["flags"]:
            continue
        line = f"{row['dataset']} / {row['model']}: {row['metric']}: {row['flags']}"
        if len(line) > max_width:
            line = line[:max_width - 1] + "…"
        lines.append(line)
    return lines


def plot_metric_agreement(meta, dataset=None, model=None, *, ax=None):
    """Heat map of the Kendall tau between the metrics' explainer rankings.

    Parameters
    ----------
    meta : DataFrame
        A :func:`meta_evaluate` table.
    dataset, model : str, default=None
        The pair to draw; None: the first one.
    ax : matplotlib Axes, default=None

    Returns
    -------
    fig : matplotlib Figure
    """
    import matplotlib.pyplot as plt

    agreement = meta.attrs.get("agreement") or {}
    if not agreement:
        raise ValueError("meta holds no agreement matrix: pass a meta_evaluate() table.")
    key = next((k for k in agreement if (dataset is None or k[0] == dataset)
                and (model is None or k[1] == model)), None)
    if key is None:
        raise ValueError(f"No agreement matrix for ({dataset!r}, {model!r}); pairs: "
                         f"{sorted(agreement)}.")
    tau = pd.DataFrame(agreement[key])
    n = len(tau)
    own_figure = ax is None
    if own_figure:
        size = 1.2 + 0.45 * n
        # At least 4.5 inches wide: the title and the metric names (left of
        # the matrix) need it when there are few metrics.
        fig, ax = plt.subplots(figsize=(max(size + 1.2, 4.5), size), layout="constrained")
    else:
        fig = ax.figure
    image = ax.imshow(tau.to_numpy(dtype=float), cmap="RdBu", vmin=-1, vmax=1)
    ax.set_xticks(range(n), tau.columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(n), tau.index, fontsize=8)
    for i in range(n):
        for j in range(n):
            value = tau.iat[i, j]
            ax.text(j, i, "–" if not np.isfinite(value) else f"{value:.1f}", ha="center",
                    va="center", fontsize=7, color="white" if abs(value) > 0.6 else "black")
    title = f"{key[0]} / {key[1]}\nKendall tau of explainer rankings"
    if own_figure:  # centred on the figure, not on the matrix beside the names
        fig.suptitle(title, fontsize=9)
    else:
        ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig
