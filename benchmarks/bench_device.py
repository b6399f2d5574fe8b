"""Speed on one device: ours against Captum called directly, and against the CPU.

The workload of issue #35: XAI-TRIS' 64x64 CNN (``make_tetrominoes(...,
image_size=64, scenario="linear", background="white")`` and
``TetrominoNetClassifier(architecture="cnn", device=...)`` trained briefly) on
one device (``--device auto|cpu|cuda``, default ``auto``).  Each row of the
table times one piece of work three ways, in interleaved rounds:

* **ours** at default settings on the device (``target="predicted"``,
  ``output="auto"``: the predicted class's probability, ``batch_size=None``);
* **Captum** called directly on the same module on the same device
  (``softmax(module(x))``, target = its argmax, calls of at most
  ``--captum-chunk`` model rows, 8192 by default: the floor);
* **ours on the CPU** of the same machine, on a CPU copy of the net with the
  same weights, on as many rows as ``--cpu-budget`` seconds per repetition
  allow (a pilot on a few rows sets the count); its time is scaled to the
  device's rows per image ("CPU/device": the throughput ratio that the
  goal below reads; a per-call cost weighs more on the CPU's fewer rows),
  and the device is also timed on the CPU's rows ("CPU/device, CPU rows").
  With ``--device cpu`` this is the same net.

The work (rows as in the issue's table):

* explainers on 4,000 images: ``Saliency``, ``InputXGradient``, ``DeepLift``,
  ``LRP`` (``sklearn_xai.explainers.LRP``, the Captum-based one); on 1,000:
  ``IntegratedGradients(n_steps=50)`` and ``SmoothGrad(n_perturbations=50)``
  (Captum: ``NoiseTunnel(Saliency)``, ``nt_type="smoothgrad"``,
  ``nt_samples=50``, ``stdevs`` = our ``std``, 0.1);
* metrics on 500 rows, scoring our device Saliency's attributions:
  ``infidelity`` (100 draws of ``N(0, 0.1^2)``, model at ``x - I``,
  normalised: ``captum.metrics.infidelity`` with a ``perturb_func`` drawing
  the same distribution), ``max_sensitivity`` (10 draws in the box of
  radius 0.02, ``normalize="relative"``: ``captum.metrics.sensitivity_max``
  with its default perturbation, radius 0.02, re-explaining with Captum's
  ``Saliency``; Captum also explains ``x`` itself inside the call, which
  ours takes as ``attributions``: one explanation in 11), and without a
  Captum peer ``pixel_flipping(features_per_step=64)``,
  ``region_perturbation`` (8x8 patches) and
  ``faithfulness_correlation(n_subsets=100)`` (the GPU kit's settings).

Value agreement: ``max |ours - Captum| / max |Captum|`` for the
deterministic explainers; SmoothGrad's noise is drawn from our per-row
streams and Captum's from ``torch.randn``, so only the relative difference
of the mean absolute attributions and the correlation over every pixel of
every map are given (two noisy estimates of one expectation: the correlation
grows with the number of samples); the two Captum metrics likewise differ
in their draws (the relative difference of the mean scores and the rows'
correlation); the metrics without a Captum peer are compared with ours on
the CPU (same rows).

Goals (issue #35, at default settings on a GPU): ours within 1.2x of Captum
for the explainers, within 1.5x of ``captum.metrics``, and the
model-evaluating metrics (pixel flipping, region perturbation, faithfulness
correlation, infidelity, max-sensitivity) at least 10x faster than the same
machine's CPU.  The verdict column is computed from the measured ratios
(:func:`verdicts`).  On a CPU device the CPU goal cannot be met (the "CPU"
side is the device): that mode checks that the script runs.

Timing: a warm-up call of each side first; ``torch.cuda.synchronize()``
around every timed call on CUDA; ``--rounds`` interleaved rounds of
(ours, Captum, ours on the CPU) (``benchmarks/_timing.py``), median and
range.  Everything else (``--guard`` seconds after which the remaining
items are skipped and listed, ``--small`` sizes, the JSON rewritten after
every item) follows the GPU kit's conventions.

Output: ``bench_device.json`` (every figure) and ``bench_device.md`` (the
table) under ``--out`` (default ``$OUT``, else ``build/bench_device``, which
git ignores); the table is also printed.

Run::

    python benchmarks/bench_device.py [--device cuda] [--small] [--out DIR]

On a GPU machine with the wheels of the GPU kit in ``.gpu/whl``:
``bash benchmarks/bench_device_gpu.sh --device cuda`` (see the README).
"""

import argparse
import copy
import datetime
import json
import os
import platform
import subprocess
import sys
import time
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import interleaved  # noqa: E402

# The goals of issue #35 (checked by verdicts).
CAPTUM_EXPLAINER_GOAL = 1.2
CAPTUM_METRIC_GOAL = 1.5
CPU_SPEEDUP_GOAL = 10.0
MODEL_METRICS = ("pixel_flipping", "region_perturbation", "faithfulness_correlation",
                 "infidelity", "max_sensitivity")

FULL = dict(n_train=4000, epochs=2, n_fast=4000, n_slow=1000, n_metric=500, pilot=16,
            rounds=3, cpu_budget=3.0, guard=400.0)
SMALL = dict(n_train=100, epochs=1, n_fast=16, n_slow=2, n_metric=2, pilot=1,
             rounds=2, cpu_budget=0.25, guard=120.0)


# ------------------------------------------------------------------ helpers
def cpu_twin(net):
    """A copy of a fitted skorch net with its module on the CPU.

    skorch's ``set_params(device="cpu")`` on a fitted net changed only the
    attribute when this script was written (issue #35): the module is moved
    here by hand, on a deep copy so that the device net is untouched."""
    twin = copy.deepcopy(net)
    twin.set_params(device="cpu")
    for name in ("module_", "criterion_"):
        part = getattr(twin, name, None)
        if part is not None:
            part.to("cpu")
    return twin


def relative_max_diff(a, b):
    """``max |a - b| / max |b|`` over the finite entries (0 when b is 0)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    finite = np.isfinite(a) & np.isfinite(b)
    scale = np.max(np.abs(b[finite]), initial=0.0)
    diff = np.max(np.abs(a[finite] - b[finite]), initial=0.0)
    return float(diff / scale) if scale > 0 else float(diff)


def mean_agreement(a, b):
    """For results whose random draws differ: the relative difference of the
    mean absolute values (a scale check) and the correlation over all
    entries (per-row scores, or every pixel of every attribution map; NaN
    for fewer than 3 entries)."""
    a = np.ravel(np.asarray(a, dtype=np.float64))
    b = np.ravel(np.asarray(b, dtype=np.float64))
    finite = np.isfinite(a) & np.isfinite(b)
    a, b = a[finite], b[finite]
    scale = np.mean(np.abs(b)) if len(b) else 0.0
    rel = float(abs(np.mean(np.abs(a)) - scale) / scale) if scale > 0 else float("nan")
    corr = (float(np.corrcoef(a, b)[0, 1])
            if len(a) > 2 and np.std(a) > 0 and np.std(b) > 0 else float("nan"))
    return {"rel_mean_abs_diff": rel, "corr": corr}


def summary(times):
    return {"median_s": float(np.median(times)), "min_s": float(np.min(times)),
            "max_s": float(np.max(times)), "n_reps": len(times)}


class _Prob(torch.nn.Module):
    """``softmax(module(x))``: the nets' explained output (``output="proba"``)."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        return torch.softmax(self.module(x), dim=1)


# ----------------------------------------------------------- Captum, direct
def captum_explain(kind, module, X, chunk, *, n_steps=50, n_samples=50, std=0.1):
    """Captum's attributions of ``softmax(module(x))`` for its argmax, in
    calls of ``chunk`` rows, on the module's device."""
    from captum import attr

    prob = _Prob(module).eval()
    device = next(module.parameters()).device
    out = []
    for start in range(0, len(X), chunk):
        x = torch.as_tensor(X[start:start + chunk], device=device)
        with torch.no_grad():
            target = prob(x).argmax(1)
        x.requires_grad_(True)
        if kind == "Saliency":
            a = attr.Saliency(prob).attribute(x, target=target, abs=False)
        elif kind == "InputXGradient":
            a = attr.InputXGradient(prob).attribute(x, target=target)
        elif kind == "DeepLift":
            a = attr.DeepLift(prob).attribute(x, baselines=torch.zeros_like(x), target=target)
        elif kind == "LRP":
            a = attr.LRP(prob).attribute(x, target=target)
        elif kind == "IntegratedGradients":
            a = attr.IntegratedGradients(prob).attribute(
                x, baselines=torch.zeros_like(x), target=target, n_steps=n_steps,
                method="gausslegendre")
        elif kind == "SmoothGrad":
            a = attr.NoiseTunnel(attr.Saliency(prob)).attribute(
                x, nt_type="smoothgrad", nt_samples=n_samples, stdevs=std, target=target,
                abs=False)  # Captum's Saliency is absolute by default, ours signed
        else:  # pragma: no cover - a typo in the table below
            raise ValueError(kind)
        out.append(a.detach().reshape(len(x), -1).double().cpu().numpy())
    return np.concatenate(out)


def captum_infidelity(module, X, A, chunk, *, n_perturbations=100, sigma=0.1):
    """``captum.metrics.infidelity`` with ``I ~ N(0, sigma^2)`` and the model
    at ``x - I``, normalised, for the argmax class."""
    from captum.metrics import infidelity

    prob = _Prob(module).eval()
    device = next(module.parameters()).device

    def perturb(inputs):
        noise = sigma * torch.randn_like(inputs)
        return noise, inputs - noise

    out = []
    for start in range(0, len(X), chunk):
        x = torch.as_tensor(X[start:start + chunk], device=device)
        a = torch.as_tensor(A[start:start + chunk], dtype=x.dtype, device=device)
        with torch.no_grad():
            target = prob(x).argmax(1)
        out.append(infidelity(
            prob, perturb, x, a, target=target, n_perturb_samples=n_perturbations,
            max_examples_per_batch=max(1, 8192 // n_perturbations),
            normalize=True).double().cpu().numpy())
    return np.concatenate(out)


def captum_sensitivity_max(module, X, chunk, *, n_perturbations=10, radius=0.02):
    """``captum.metrics.sensitivity_max`` of Captum's signed ``Saliency`` with
    its default uniform perturbation of ``radius``, for the argmax class."""
    from captum import attr
    from captum.metrics import sensitivity_max

    prob = _Prob(module).eval()
    device = next(module.parameters()).device
    saliency = attr.Saliency(prob)
    out = []
    for start in range(0, len(X), chunk):
        x = torch.as_tensor(X[start:start + chunk], device=device)
        with torch.no_grad():
            target = prob(x).argmax(1)
        out.append(sensitivity_max(
            saliency.attribute, x, target=target, abs=False,
            n_perturb_samples=n_perturbations, perturb_radius=radius,
            max_examples_per_batch=max(1, 8192 // n_perturbations)).double().cpu().numpy())
    return np.concatenate(out)


# ------------------------------------------------------------------ the work
def explainer_items(sizes):
    """(name, rows, model rows per row, make(estimator), Captum kind, Captum kw,
    deterministic)."""
    from sklearn_xai import explainers as E

    return [
        ("Saliency", sizes["n_fast"], 1, lambda est: E.Saliency(est),
         "Saliency", {}, True),
        ("InputXGradient", sizes["n_fast"], 1, lambda est: E.InputXGradient(est),
         "InputXGradient", {}, True),
        ("DeepLift", sizes["n_fast"], 2, lambda est: E.DeepLift(est),
         "DeepLift", {}, True),
        ("LRP", sizes["n_fast"], 1, lambda est: E.LRP(est), "LRP", {}, True),
        ("IntegratedGradients(50)", sizes["n_slow"], 50,
         lambda est: E.IntegratedGradients(est, n_steps=50),
         "IntegratedGradients", {"n_steps": 50}, True),
        ("SmoothGrad(50)", sizes["n_slow"], 50,
         lambda est: E.SmoothGrad(est, n_perturbations=50, random_state=0),
         "SmoothGrad", {"n_samples": 50, "std": E.SmoothGrad().std}, False),
    ]


def metric_items(image_size):
    """(name, ours(est, explainer, X, A), Captum(module, X, A, chunk) or None,
    model rows per row)."""
    from sklearn_xai import metrics as M

    d = image_size * image_size
    fps = max(1, d // 64)
    patch = max(1, image_size // 8)
    return [
        (f"pixel_flipping(fps={fps})",
         lambda est, ex, X, A: M.pixel_flipping(est, X, A, features_per_step=fps),
         None, d // fps + 1),
        (f"region_perturbation({patch}x{patch})",
         lambda est, ex, X, A: M.region_perturbation(
             est, X, A, image_shape=(image_size, image_size), patch_size=patch),
         None, (image_size // patch) ** 2 + 1),
        ("faithfulness_correlation(100)",
         lambda est, ex, X, A: M.faithfulness_correlation(
             est, X, A, n_subsets=100, random_state=0),
         None, 101),
        ("infidelity(100)",
         lambda est, ex, X, A: M.infidelity(est, X, A, random_state=0),
         lambda module, X, A, chunk: captum_infidelity(module, X, A, chunk), 101),
        ("max_sensitivity(10)",
         lambda est, ex, X, A: M.max_sensitivity(
             est, X, A, explainer=ex, normalize="relative", random_state=0),
         lambda module, X, A, chunk: captum_sensitivity_max(module, X, chunk), 11),
    ]


# -------------------------------------------------------------- the verdicts
def verdicts(row):
    """The goals of issue #35 that apply to a result row, each checked on the
    row's numbers: a list of ``(label, value, bound, passed)``.

    ``row`` needs ``kind`` ("explainer" or "metric"), ``name`` and, where
    measured, ``ours_over_captum`` and ``cpu_speedup`` (CPU time per image
    over the device's).  A missing number gives ``passed=None``."""
    checks = []
    if row["kind"] == "explainer" or row.get("captum_peer"):
        bound = CAPTUM_EXPLAINER_GOAL if row["kind"] == "explainer" else CAPTUM_METRIC_GOAL
        value = row.get("ours_over_captum")
        checks.append(("ours/Captum", value, ("<=", bound),
                       None if value is None else bool(value <= bound)))
    if row["kind"] == "metric" and row["name"].startswith(MODEL_METRICS):
        value = row.get("cpu_speedup")
        checks.append(("CPU/device", value, (">=", CPU_SPEEDUP_GOAL),
                       None if value is None else bool(value >= CPU_SPEEDUP_GOAL)))
    return checks


def _verdict_text(row):
    parts = []
    for label, value, (op, bound), passed in verdicts(row):
        shown = "n/a" if value is None else f"{value:.2f}"
        word = "not measured" if passed is None else ("pass" if passed else "FAIL")
        parts.append(f"{label} {shown} {'≤' if op == '<=' else '≥'} {bound:g}: {word}")
    return "; ".join(parts) or "(no goal)"


def _t(rec):
    if not rec:
        return "–"
    return f"{rec['median_s']:.3f} [{rec['min_s']:.3f}–{rec['max_s']:.3f}]"


def _x(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def markdown_table(results):
    """The Markdown table of a results dict (as written to the JSON)."""
    lines = [
        "| work | rows | ours default (s) | Captum direct (s) | ours/Captum | "
        "ours CPU, per image × rows (s) [CPU rows] | CPU/device | CPU/device, CPU rows | "
        "value agreement | goals |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        if "error" in row:
            lines.append(f"| {row['name']} | {row.get('n_rows', '')} | error: "
                         f"{row['error'][:120]} | | | | | | | |")
            continue
        cpu = row.get("cpu")
        cpu_text = ("–" if not cpu else
                    f"{row['cpu_scaled_s']:.3f} [{cpu['n_rows']}]")
        lines.append(
            f"| {row['name']} | {row['n_rows']} | {_t(row['ours'])} | "
            f"{_t(row.get('captum'))} | {_x(row.get('ours_over_captum'))} | {cpu_text} | "
            f"{_x(row.get('cpu_speedup'), 1)} | {_x(row.get('cpu_speedup_same_rows'), 1)} | "
            f"{row.get('agreement_text', '–')} | "
            f"{_verdict_text(row)} |")
    return "\n".join(lines)


# -------------------------------------------------------------------- runner
class _Run:
    """The results dict, the time guard and the output files."""

    def __init__(self, out, guard, meta):
        self.t0 = time.perf_counter()
        self.out = out
        self.guard = guard
        self.results = {"meta": meta, "rows": [], "skipped": []}
        os.makedirs(out, exist_ok=True)

    def elapsed(self):
        return time.perf_counter() - self.t0

    def log(self, *args):
        print(f"[{self.elapsed():6.1f}s]", *args, flush=True)

    def allowed(self, name):
        if self.elapsed() > self.guard:
            self.results["skipped"].append(name)
            self.log(f"SKIP {name} (time guard {self.guard:.0f}s)")
            self.save()
            return False
        return True

    def save(self):
        self.results["meta"]["elapsed_s"] = round(self.elapsed(), 2)
        with open(os.path.join(self.out, "bench_device.json"), "w") as fh:
            json.dump(self.results, fh, indent=1, default=str)
        with open(os.path.join(self.out, "bench_device.md"), "w") as fh:
            fh.write(markdown_table(self.results) + "\n")


def _commit():
    if os.environ.get("GPU_COMMIT"):
        return os.environ["GPU_COMMIT"].strip()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        with open(os.path.join(root, ".gpu", "COMMIT")) as fh:
            return fh.read().strip()
    except OSError:
        pass
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _cpu_rows(fn_rows, n_max, pilot, budget, sync):
    """Rows of CPU work for one repetition of about ``budget`` seconds, from a
    pilot on ``pilot`` rows (after a warm-up on one row)."""
    fn_rows(1)
    n0 = min(pilot, n_max)
    start = time.perf_counter()
    fn_rows(n0)
    sync()
    per_row = (time.perf_counter() - start) / n0
    return int(min(n_max, max(n0, budget / max(per_row, 1e-9))))


def _measure(name, n_rows, ours, captum, cpu, sync, rounds, pilot, budget):
    """Warm-ups, then interleaved rounds of the sides.  ``ours(n)``,
    ``captum(n)``, ``cpu(n)``: the work on the first ``n`` rows (``captum``
    may be None).  Returns (record, last outputs by side)."""
    warm = min(n_rows, 8)  # first-call costs: CUDA context, kernels, lazy imports
    ours(warm)
    if captum is not None:
        captum(warm)
    n_cpu = _cpu_rows(cpu, n_rows, pilot, budget, sync)
    outputs = {}
    tasks = {"ours": lambda: outputs.__setitem__("ours", ours(n_rows))}
    if captum is not None:
        tasks["captum"] = lambda: outputs.__setitem__("captum", captum(n_rows))
    tasks["cpu"] = lambda: outputs.__setitem__("cpu", cpu(n_cpu))
    tasks["ours_cpu_rows"] = lambda: ours(n_cpu)

    def clock():
        sync()
        return time.perf_counter()

    times = interleaved(tasks, rounds=rounds, clock=clock)
    rec = {"name": name, "n_rows": n_rows, "ours": summary(times["ours"])}
    if captum is not None:
        rec["captum"] = summary(times["captum"])
        rec["ours_over_captum"] = rec["ours"]["median_s"] / rec["captum"]["median_s"]
    rec["cpu"] = {**summary(times["cpu"]), "n_rows": n_cpu}
    rec["cpu_scaled_s"] = rec["cpu"]["median_s"] / n_cpu * n_rows
    rec["cpu_speedup"] = rec["cpu_scaled_s"] / rec["ours"]["median_s"]
    # the same ratio on the CPU's rows, where per-call costs weigh alike
    rec["ours_cpu_rows"] = summary(times["ours_cpu_rows"])
    rec["cpu_speedup_same_rows"] = rec["cpu"]["median_s"] / rec["ours_cpu_rows"]["median_s"]
    # the device's values on the CPU's rows against the CPU's
    rec["device_vs_cpu_rel_max_diff"] = relative_max_diff(
        np.asarray(outputs["ours"])[:n_cpu], outputs["cpu"])
    return rec, outputs


def _record(run, rec):
    """Add a row (with its goals' verdicts) to the results and rewrite them."""
    if "error" not in rec:
        rec["goals"] = [{"goal": label, "value": value, "bound": f"{op} {bound:g}",
                         "passed": passed}
                        for label, value, (op, bound), passed in verdicts(rec)]
    run.results["rows"].append(rec)
    run.log(rec["name"], json.dumps(rec, default=str)[:400])
    run.save()


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto",
                        help="auto, cpu, cuda or cuda:N (default: auto)")
    parser.add_argument("--small", action="store_true",
                        help="small sizes: a smoke run of a few seconds to a minute")
    parser.add_argument("--image-size", type=int, default=64, choices=(8, 64),
                        help="side of the tetromino images (64: the issue's workload)")
    parser.add_argument("--out",
                        default=os.environ.get("OUT") or os.path.join("build", "bench_device"),
                        help="folder of bench_device.json and bench_device.md")
    parser.add_argument("--captum-chunk", type=int, default=8192,
                        help="model rows per Captum call (default 8192)")
    for key in FULL:
        parser.add_argument("--" + key.replace("_", "-"),
                            type=float if key in ("cpu_budget", "guard") else int,
                            default=None, help=f"default {FULL[key]} ({SMALL[key]} with --small)")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch CPU threads (default: torch's, all cores)")
    parser.add_argument("--only", nargs="+", default=None,
                        help="run only the items whose name starts with one of these")
    return parser.parse_args(argv)


def main(argv=None):
    """Run the benchmark; returns the results dict (also written to --out)."""
    args = parse_args(argv)
    warnings.filterwarnings("ignore")
    sizes = dict(SMALL if args.small else FULL)
    sizes.update({k: getattr(args, k) for k in FULL if getattr(args, k) is not None})

    import captum
    import sklearn
    import skorch
    from sklearn.frozen import FrozenEstimator

    import sklearn_xai
    from sklearn_xai import explainers as E
    from sklearn_xai.datasets import make_tetrominoes
    from sklearn_xai.models import TetrominoNetClassifier
    from sklearn_xai.utils._device import resolve_device

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    device = resolve_device(args.device, parameter="--device")
    torch.manual_seed(0)  # Captum's draws (torch.randn / torch.rand)
    cuda = device.type == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize(device)

    meta = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "device": str(device),
        "device_name": (torch.cuda.get_device_name(device) if cuda
                        else platform.processor() or platform.machine()),
        "cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads(),
        "python": sys.version.split()[0], "torch": torch.__version__,
        "captum": captum.__version__, "skorch": skorch.__version__,
        "sklearn": sklearn.__version__, "sklearn_xai": sklearn_xai.__version__,
        "commit": _commit(), "small": args.small, "image_size": args.image_size,
        "captum_chunk_model_rows": args.captum_chunk, "sizes": sizes,
        "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
        "matmul_allow_tf32": torch.backends.cuda.matmul.allow_tf32,
    }
    run = _Run(args.out, sizes["guard"], meta)
    run.log("meta", json.dumps(meta))

    def wanted(name):
        return args.only is None or name.startswith(tuple(args.only))

    # data and the net, trained on the device
    s = args.image_size
    n_test = max(sizes["n_fast"], sizes["n_slow"], sizes["n_metric"])
    data = make_tetrominoes(sizes["n_train"] + n_test, image_size=s, scenario="linear",
                            background="white", random_state=0)
    X = np.ascontiguousarray(data.data, dtype=np.float32)
    y = np.asarray(data.target)
    Xtr, ytr, Xte = X[:sizes["n_train"]], y[:sizes["n_train"]], X[sizes["n_train"]:]
    start = time.perf_counter()
    net = TetrominoNetClassifier(architecture="cnn", image_size=s,
                                 max_epochs=sizes["epochs"], random_state=0,
                                 device=str(device)).fit(Xtr, ytr)
    sync()
    net_cpu = net if device.type == "cpu" else cpu_twin(net)
    run.results["meta"]["training"] = {
        "fit_s": round(time.perf_counter() - start, 3),
        "test_accuracy": float(np.mean(net.predict(Xte) == y[sizes["n_train"]:])),
        "param_device": str(next(net.module_.parameters()).device),
        "cpu_copy_device": str(next(net_cpu.module_.parameters()).device)}
    run.log("training", run.results["meta"]["training"])
    run.save()
    est, est_cpu = FrozenEstimator(net), FrozenEstimator(net_cpu)
    module = net.module_
    Xfit = Xtr[:100]
    budget = dict(rounds=sizes["rounds"], pilot=sizes["pilot"], budget=sizes["cpu_budget"])

    for name, n_rows, per_row, make, kind, kw, deterministic in explainer_items(sizes):
        if not wanted(name) or not run.allowed(name):
            continue
        Xn = Xte[:n_rows]
        try:
            ex = make(est).fit(Xfit)
            ex_cpu = make(est_cpu).fit(Xfit)
            chunk = max(1, args.captum_chunk // per_row)
            rec, out = _measure(
                name, n_rows,
                lambda n: ex.transform(Xn[:n]),
                lambda n: captum_explain(kind, module, Xn[:n], chunk, **kw),
                lambda n: ex_cpu.transform(Xn[:n]), sync, **budget)
            rec["kind"] = "explainer"
            if deterministic:
                rec["ours_vs_captum_rel_max_diff"] = relative_max_diff(out["ours"], out["captum"])
                rec["agreement_text"] = (f"max diff / max {rec['ours_vs_captum_rel_max_diff']:.1e}"
                                         " (vs Captum)")
            else:
                agree = mean_agreement(out["ours"], out["captum"])
                rec["ours_vs_captum_noisy"] = agree
                rec["agreement_text"] = (
                    f"different noise: mean abs rel. diff {agree['rel_mean_abs_diff']:.1e}, "
                    f"corr {agree['corr']:.3f}")
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            rec = {"name": name, "n_rows": n_rows, "kind": "explainer",
                   "error": f"{type(exc).__name__}: {exc}"}
        _record(run, rec)

    items = [item for item in metric_items(s) if wanted(item[0])]
    if items:
        nm = sizes["n_metric"]
        Xm = Xte[:nm]
        sal = E.Saliency(est).fit(Xfit)
        sal_cpu = E.Saliency(est_cpu).fit(Xfit)
        Am = sal.transform(Xm)  # the same attributions scored on both sides
    for name, ours_fn, captum_fn, per_row in items:
        if not run.allowed(name):
            continue
        try:
            chunk = max(1, args.captum_chunk // per_row)
            rec, out = _measure(
                name, nm,
                lambda n: ours_fn(est, sal, Xm[:n], Am[:n]),
                None if captum_fn is None else (
                    lambda n: captum_fn(module, Xm[:n], Am[:n], 1024)),
                lambda n: ours_fn(est_cpu, sal_cpu, Xm[:n], Am[:n]), sync, **budget)
            rec.update(kind="metric", captum_peer=captum_fn is not None,
                       model_rows_per_row=per_row, value_mean=float(np.nanmean(out["ours"])))
            if captum_fn is not None:
                agree = mean_agreement(out["ours"], out["captum"])
                rec["ours_vs_captum_scores"] = agree
                rec["agreement_text"] = (
                    f"different draws: mean scores rel. diff {agree['rel_mean_abs_diff']:.1e}, "
                    f"corr {agree['corr']:.3f}")
            else:
                rec["agreement_text"] = (f"max diff / max {rec['device_vs_cpu_rel_max_diff']:.1e}"
                                         " (vs ours on the CPU)")
        except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
            rec = {"name": name, "n_rows": nm, "kind": "metric",
                   "error": f"{type(exc).__name__}: {exc}"}
        _record(run, rec)

    if cuda:
        run.results["meta"]["gpu_max_mem_gib"] = round(
            torch.cuda.max_memory_allocated(device) / 2**30, 2)
    run.save()
    meta = run.results["meta"]
    print(f"\n{meta['device_name']} ({meta['device']}), {meta['date_utc']} UTC, "
          f"commit {meta['commit']}, torch {meta['torch']}, captum {meta['captum']}, "
          f"{meta['cpu_count']} CPUs ({meta['torch_threads']} torch threads), "
          f"{sizes['rounds']} rounds, elapsed {meta['elapsed_s']:.0f} s, "
          f"skipped: {run.results['skipped'] or 'none'}\n")
    print(markdown_table(run.results))
    return run.results


if __name__ == "__main__":
    main()
