"""Our XAI-Bench Table 1 run (``xaibench_table_metrics_code``) beside the
published table.

Usage::

    sklearn-xai run xaibench_table_metrics_code --n-jobs 2 --out runs/t1
    python benchmarks/compare_xaibench_table1.py runs/t1/results.csv

prints two RST tables (the seven metrics, then the four ROAR metrics) of our
mean ± std over the seeds (sample std) with the published mean ± std in
parentheses and ✗ where our mean lies more than two published standard
deviations away (the rule of ``compare_xaibench_wine.py``, shared), and the
count of cells within the rule.  Published: Liu et al., NeurIPS D&B 2021,
Table 1 of the revised version (mean ± std over 3 trials).
"""

import sys

import pandas as pd
from compare_xaibench_wine import rst_table

EXPLAINERS = ("random", "shap", "bf_shap", "shapr", "lime", "maple", "l2x")
HEADERS = ("RANDOM", "SHAP", "BF-SHAP", "SHAPR", "LIME", "MAPLE", "L2X")
ROWS = (("faith+ ↑", "faith_plus"), ("faith− ↑", "faith_minus"), ("mono+ ↑", "mono_plus"),
        ("mono− ↑", "mono_minus"), ("shapley-corr ↑", "shapley_corr"),
        ("shapley-mse ↓", "neg_shapley_mse"), ("infidelity ↓", "neg_infidelity"))
ROAR_ROWS = (("roar-faith+ ↑", "roar_faith_plus"), ("roar-faith− ↑", "roar_faith_minus"),
             ("roar-mono+ ↑", "roar_mono_plus"), ("roar-mono− ↑", "roar_mono_minus"))
PUBLISHED = {
    "faith+ ↑": ((-0.028, 0.022), (0.922, 0.020), (0.921, 0.038), (0.918, 0.039),
                 (0.859, 0.035), (0.626, 0.050), (-0.004, 0.100)),
    "faith− ↑": ((-0.022, 0.023), (0.970, 0.006), (0.979, 0.005), (0.977, 0.004),
                 (0.918, 0.010), (0.647, 0.045), (0.002, 0.080)),
    "mono+ ↑": ((0.538, 0.012), (0.720, 0.018), (0.708, 0.012), (0.719, 0.019),
                (0.667, 0.032), (0.712, 0.008), (0.562, 0.024)),
    "mono− ↑": ((0.467, 0.006), (0.433, 0.019), (0.407, 0.016), (0.435, 0.012),
                (0.428, 0.014), (0.440, 0.017), (0.430, 0.040)),
    "shapley-corr ↑": ((0.001, 0.014), (0.992, 0.005), (1.000, 0.001), (0.998, 0.001),
                       (0.955, 0.009), (0.735, 0.038), (0.073, 0.084)),
    "shapley-mse ↓": ((1.134, 0.040), (0.003, 0.001), (0.000, 0.000), (0.000, 0.000),
                      (0.026, 0.001), (0.071, 0.007), (0.188, 0.022)),
    "infidelity ↓": ((0.169, 0.014), (0.044, 0.009), (0.048, 0.010), (0.043, 0.008),
                     (0.049, 0.012), (0.073, 0.007), (0.122, 0.021)),
    "roar-faith+ ↑": ((0.003, 0.028), (0.461, 0.095), (0.502, 0.038), (0.468, 0.082),
                      (0.585, 0.046), (-0.429, 0.018), (0.045, 0.060)),
    "roar-faith− ↑": ((0.008, 0.049), (0.581, 0.024), (0.523, 0.006), (0.559, 0.026),
                      (0.621, 0.019), (-0.339, 0.013), (0.052, 0.038)),
    "roar-mono+ ↑": ((0.474, 0.016), (0.747, 0.028), (0.734, 0.011), (0.730, 0.022),
                     (0.707, 0.024), (0.425, 0.009), (0.500, 0.027)),
    "roar-mono− ↑": ((0.492, 0.019), (0.721, 0.032), (0.709, 0.040), (0.713, 0.044),
                     (0.745, 0.020), (0.471, 0.016), (0.451, 0.041)),
}


def compare(results):
    ok = results[results["status"] == "ok"]
    stats = ok.groupby(["explainer", "metric"])["value"].agg(["mean", "std"])
    main, within_main = rst_table(stats, ROWS, EXPLAINERS, HEADERS, PUBLISHED)
    roar, within_roar = rst_table(stats, ROAR_ROWS, EXPLAINERS, HEADERS, PUBLISHED)
    total = (len(ROWS) + len(ROAR_ROWS)) * len(EXPLAINERS)
    return "\n".join(main + [""] + roar + [
        "", f"{within_main + within_roar} of {total} cells within two published stds "
            f"({within_roar} of {len(ROAR_ROWS) * len(EXPLAINERS)} ROAR)"])


if __name__ == "__main__":
    print(compare(pd.read_csv(sys.argv[1])))
