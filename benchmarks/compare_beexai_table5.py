"""Our BEExAI Table 5 run (Diamonds) beside the published table.

Usage::

    sklearn-xai run beexai_table5 --out runs/beexai
    python benchmarks/compare_beexai_table5.py mlp runs/beexai/results.csv [more.csv ...]

(several result files, e.g. one per seed, are concatenated) prints, for the
model ``mlp`` or ``xgboost``, our mean ± std over the seeds with the
published mean ± std in parentheses, ✗ where our mean lies more than two
published standard deviations away (a published std of 0 counts as
0.0125, half of the 0.025 grid monotonicity moves on at 9 features and 5
seeds), and the count of cells within the rule.  Published: Sithakoul et
al., BEExAI, 2024, Table 5 (mean ± std over five seeds; sensitivity x 100).
"""

import sys

import pandas as pd

EXPLAINERS = ("lime", "shap", "kernel_shap", "deeplift", "ig", "saliency")
HEADER = ("LIME", "Shap (SVS)", "KernelSHAP", "DeepLift", "IG", "Saliency")
ROWS = (("FaithCorr ↑", "faithfulness_correlation"), ("Infidelity ↓", "neg_infidelity"),
        ("Sensitivity ×100 ↓", "neg_max_sensitivity"),
        ("Comprehensiveness ↑", "comprehensiveness"), ("Sufficiency ↓", "neg_sufficiency"),
        ("Monotonicity ↑", "monotonicity"), ("AUC-TP ↓", "neg_auc_tp"),
        ("Complexity ↓", "neg_complexity"), ("Sparseness ↑", "sparseness"))
PUBLISHED = {
    "mlp": {
        "FaithCorr ↑": ((.728, .022), (.884, .017), (.773, .033), (.784, .042), (.838, .029),
                        (.302, .034)),
        "Infidelity ↓": ((.101, .004), (.102, .004), (.102, .004), (.107, .004), (.100, .003),
                         (.098, .003)),
        "Sensitivity ×100 ↓": ((.076, .001), (.068, .001), (.069, .001), (.073, .002),
                               (.068, .001), (.033, .002)),
        "Comprehensiveness ↑": ((.101, .005), (.110, .004), (.103, .004), (.086, .004),
                                (.105, .005), (.077, .006)),
        "Sufficiency ↓": ((.078, .003), (.068, .003), (.074, .003), (.098, .005), (.068, .003),
                          (.110, .008)),
        "Monotonicity ↑": ((.700, .061), (.825, .061), (.775, .050), (.975, .050),
                           (.825, .061), (.875, .0)),
        "AUC-TP ↓": ((.232, .012), (.204, .008), (.223, .010), (.243, .008), (.200, .010),
                     (.238, .009)),
        "Complexity ↓": ((.081, .004), (.194, .001), (.205, .001), (.194, .001), (.197, .001),
                         (.204, .001)),
        "Sparseness ↑": ((.790, .008), (.479, .006), (.436, .003), (.482, .008), (.465, .006),
                         (.442, .007)),
    },
    "xgboost": {
        "FaithCorr ↑": ((.837, .027), (.911, .031), (.870, .024)),
        "Infidelity ↓": ((.108, .005), (.112, .005), (.113, .005)),
        "Sensitivity ×100 ↓": ((.068, .003), (.067, .002), (.068, .002)),
        "Comprehensiveness ↑": ((.197, .009), (.199, .010), (.195, .010)),
        "Sufficiency ↓": ((.079, .009), (.075, .012), (.080, .011)),
        "Monotonicity ↑": ((.675, .061), (.900, .050), (.825, .061)),
        "AUC-TP ↓": ((.322, .069), (.321, .101), (.348, .088)),
        "Complexity ↓": ((.083, .003), (.164, .003), (.182, .003)),
        "Sparseness ↑": ((.787, .007), (.613, .012), (.544, .014)),
    },
}


def within_rule(ours, mean, std):
    """The page's rule: within two published stds (0.0125 for a std of 0)."""
    return abs(ours - mean) <= 2 * (std if std > 0 else 0.0125)


def rst_table(model, stats, rows=ROWS):
    """Our mean ± std beside the published ones as an RST table.

    ``stats`` is indexed by (explainer, metric) with columns ``mean`` and
    ``std``; ``rows`` are (label, metric) pairs.  Returns the table's lines,
    the number of cells within the rule and the number compared.
    """
    n = len(PUBLISHED[model][rows[0][0]])
    lines, within = [], 0
    for label, metric in rows:
        row = [label]
        for explainer, (mean, std) in zip(EXPLAINERS, PUBLISHED[model][label]):
            ours = stats.loc[(explainer, metric)]
            spread = 0.0 if pd.isna(ours["std"]) else ours["std"]  # one seed
            hit = within_rule(ours["mean"], mean, std)
            within += hit
            row.append(f"{ours['mean']:.3f} ± {spread:.3f} ({mean:.3f} ± {std:.3f})"
                       + ("" if hit else " ✗"))
        lines.append(row)
    width = max(len(c) for row in lines for c in row[1:]) + 1
    rule = " ".join(["=" * 19] + ["=" * width] * n)
    out = [rule, " ".join(["metric".ljust(19)] + [h.ljust(width) for h in HEADER[:n]]), rule]
    out += [" ".join([r[0].ljust(19)] + [c.ljust(width) for c in r[1:]]).rstrip()
            for r in lines]
    return out + [rule], within, n * len(rows)


def compare(model, results):
    ok = results[(results["status"] == "ok") & (results["model"] == model)]
    stats = ok.groupby(["explainer", "metric"])["value"].agg(["mean", "std"])
    seeds = [int(s) for s in sorted(ok["seed"].unique())]
    scores = ok.groupby("seed")["model_score"].first()
    out, within, total = rst_table(model, stats)
    out += ["", f"{model}: seeds {seeds}, R2 {scores.mean():.3f} ± {scores.std():.3f}; "
            f"{within} of {total} cells within two published stds"]
    return "\n".join(out)


if __name__ == "__main__":
    model, paths = sys.argv[1], sys.argv[2:]
    print(compare(model, pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)))
