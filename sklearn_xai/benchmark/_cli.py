"""The ``sklearn-xai`` command line.

::

    sklearn-xai run                       # the default preset (about a minute)
    sklearn-xai run PRESET|CONFIG.yaml [--n-jobs N] [--backend loky|threading|dask]
                                       [--scheduler-address ADDR] [--shard-size N]
                                       [--device auto|cpu|cuda|cuda:N]
                                       [--out DIR] [--cache-dir DIR] [--no-cache]
                                       [--metrics NAME,...]
    sklearn-xai compare DATA.csv --target COLUMN [--model ALIAS] [--explainers NAME,...]
                                 [--metrics NAME,...|all] [--budget SECONDS]
                                 [--device auto|cpu|cuda|cuda:N]
                                 [--out DIR] [--cache-dir DIR] [--no-cache]
    sklearn-xai list [presets|explainers|maskers|metrics|generators|models]
    sklearn-xai report DIR [--metrics NAME,...]   # rebuild the report from saved results
    sklearn-xai site RESULTS_DIR [RESULTS_DIR ...] --out SITE_DIR  # a static results site
    sklearn-xai submit-check DIR                  # check a results folder to submit
"""

import argparse
import os
import sys
import tempfile
import textwrap

__all__ = ["main"]

DEFAULT_OUT = "sklearn_xai_results"
_LISTS = ("presets", "explainers", "maskers", "metrics", "generators", "models")


def _parser():
    parser = argparse.ArgumentParser(
        prog="sklearn-xai",
        description="Benchmark post-hoc feature-attribution explainers.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a preset or a YAML/JSON benchmark config")
    run.add_argument("benchmark", nargs="?", default="default",
                     help="preset name or config file (default: the 'default' preset)")
    run.add_argument("--n-jobs", type=int, default=-1,
                     help="cells run in parallel (default: -1, all cores)")
    run.add_argument("--backend", choices=("loky", "threading", "sequential", "dask"),
                     default=None, help="joblib backend (default: loky)")
    run.add_argument("--scheduler-address", default=None, metavar="ADDR",
                     help="address of a running dask scheduler (e.g. tcp://host:8786); "
                          "implies --backend dask")
    run.add_argument("--shard-size", default="auto", type=_shard_size, metavar="N",
                     help="explained rows per parallel task: 'auto' (default), a "
                          "number, or 'none' for one task per cell")
    run.add_argument("--device", default=None, type=_device, metavar="DEVICE",
                     help="where the torch models train and run: auto, cpu, cuda or "
                          "cuda:N (default: the config's 'device:', else each "
                          "model's own); not part of the cache keys")
    run.add_argument("--out", default=None,
                     help=f"output folder (default: ./{DEFAULT_OUT}/<benchmark name>)")
    _add_cache_options(run)
    run.add_argument("--alpha", type=float, default=0.05,
                     help="level of the test against the random control (default 0.05)")
    run.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    _add_metrics_option(run)
    run.add_argument("--import", dest="imports", action="append", default=[],
                     metavar="MODULE",
                     help="import MODULE (a .py file next to the config, or an "
                          "installed module) before reading the config, so that "
                          "components it registers (register_component) can be "
                          "named; repeatable")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    cmp = sub.add_parser(
        "compare", help="rank the explainers of a model trained on a CSV file")
    cmp.add_argument("csv", help="a CSV file with a header row; numeric and text "
                                 "feature columns (text ones are one-hot encoded)")
    cmp.add_argument("--target", required=True, help="name of the target column")
    cmp.add_argument("--model", default="xgboost",
                     help="model alias or class name (default: xgboost; see "
                          "'sklearn-xai list models')")
    cmp.add_argument("--n-explain", type=int, default=100,
                     help="held-out rows explained and scored (default 100)")
    cmp.add_argument("--seeds", type=int, default=2,
                     help="number of seeds (default 2: the fewest that show whether a "
                          "ranking depends on the explainers' random draws)")
    cmp.add_argument(
        "--explainers", action="append", default=None, metavar="NAME[,NAME...]",
        help="explainers to compare: labels of the applicable ones (tree_shap, "
             "kernel_shap, lime, ...) or explainer names of 'sklearn-xai list "
             "explainers'; the random control is always kept (default: every "
             "applicable explainer)")
    cmp.add_argument(
        "--metrics", action="append", default=None, metavar="NAME[,NAME...]",
        help="metrics to score (only these run): names of the metrics without ground "
             "truth (a loss may be named without 'neg_'), or 'all' for all of them "
             "(default: the decision set, one metric per question)")
    cmp.add_argument("--budget", type=_seconds, default=None, metavar="SECONDS",
                     help="fit the comparison in about SECONDS: a pilot on 5 rows times "
                          "it, then fewer seeds, fewer rows and, if still needed, "
                          "without the costliest explainers (what is cut is printed)")
    cmp.add_argument("--n-jobs", type=int, default=-1,
                     help="cells run in parallel (default: -1, all cores)")
    cmp.add_argument("--device", default=None, type=_device, metavar="DEVICE",
                     help="where a torch model trains and runs: auto, cpu, cuda or "
                          "cuda:N (default: the model's own); not part of the "
                          "cache keys")
    cmp.add_argument("--out", default=None,
                     help=f"output folder (default: ./{DEFAULT_OUT}/compare_<csv stem>)")
    _add_cache_options(cmp)
    cmp.add_argument("--alpha", type=float, default=0.05,
                     help="level of the decisions' tests (default 0.05)")
    cmp.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    cmp.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    lst = sub.add_parser("list", help="list presets, explainers, metrics, generators...")
    lst.add_argument("what", nargs="*", metavar="WHAT",
                     help=f"any of {', '.join(_LISTS)} (default: everything)")
    rep = sub.add_parser("report", help="rebuild the report of saved results")
    rep.add_argument("directory", help="a folder written by 'sklearn-xai run'")
    rep.add_argument("--alpha", type=float, default=0.05,
                     help="level of the test against the random control (default 0.05)")
    rep.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    _add_metrics_option(rep)
    site = sub.add_parser(
        "site", help="build a static results site (HTML, CSS, a little JavaScript) "
                     "from results folders")
    site.add_argument("directories", nargs="+", metavar="RESULTS_DIR",
                      help="results folders (written by 'sklearn-xai run', or "
                           "submitted); each is checked as by 'submit-check'")
    site.add_argument("--out", required=True, metavar="SITE_DIR",
                      help="the site's folder (open SITE_DIR/index.html)")
    site.add_argument("--alpha", type=float, default=0.05,
                      help="level of the leaderboards' tests (default 0.05)")
    chk = sub.add_parser(
        "submit-check", help="check a results folder before submitting it: files, "
                             "schema, preset, version, seeds")
    chk.add_argument("directory", help="the results folder, with its submission.json")
    return parser


def _add_cache_options(parser):
    parser.add_argument(
        "--cache-dir", default=None, metavar="DIR",
        help="cell cache folder (default: <out>/cache); cells are keyed by their "
             "content, so a folder shared by several --out folders computes each "
             "identical cell once")
    parser.add_argument("--no-cache", action="store_true",
                        help="recompute every cell (no read or write of the cell cache)")


def _cache_dir(args, directory):
    """The cell cache of a run: --cache-dir, else <out>/cache; None with
    --no-cache."""
    if args.no_cache:
        return None
    return args.cache_dir if args.cache_dir is not None else os.path.join(directory,
                                                                          "cache")


def _seconds(text):
    """--budget: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"expected a positive number of seconds; got {text!r}")
    return value


def _add_metrics_option(parser):
    parser.add_argument(
        "--metrics", action="append", default=None, metavar="NAME[,NAME...]",
        help="print the leaderboard of these metrics only (labels of the benchmark's "
             "metrics; a loss may be named without 'neg_'); the report files keep all")


def _metric_names(args):
    """The names given with --metrics (comma-separated, repeatable), or None."""
    return _names(getattr(args, "metrics", None))


def _names(values):
    """The names of a repeatable comma-separated option, or None."""
    if not values:
        return None
    names = [n.strip() for item in values for n in item.split(",") if n.strip()]
    return names or None


def _check_metric_names(names, labels):
    """Fail before anything runs when --metrics names a metric the benchmark
    does not have."""
    if names is None:
        return
    known = set(labels) | {m[4:] for m in labels if m.startswith("neg_")}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"--metrics: unknown metric(s) {unknown}; the benchmark has "
                         f"{list(labels)}.")


def _device(text):
    """--device: a device name ("auto", "cpu", "cuda", "cuda:N"), checked by
    its spelling; whether the machine has it is checked when the run starts."""
    from sklearn_xai.benchmark._spec import check_device_setting

    try:
        return check_device_setting(text, "--device")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _shard_size(text):
    """--shard-size: "auto", "none" or a positive integer."""
    if text.lower() in ("auto", "none"):
        return None if text.lower() == "none" else "auto"
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expected 'auto', 'none' or a positive number of rows; got {text!r}")
    return value


def _print_section(title, rows, out, indent="  "):
    """A titled list of (name, text), each text wrapped to TERMINAL_WIDTH
    columns under its own column."""
    from sklearn_xai.benchmark._report import TERMINAL_WIDTH

    print(f"{title}:", file=out)
    width = max((len(name) for name, _ in rows), default=0)
    hanging = " " * (len(indent) + width + 2)
    for name, text in rows:
        lead = f"{indent}{name:<{width}}  "
        lines = textwrap.wrap(text, max(TERMINAL_WIDTH - len(lead), 30)) or [""]
        print((lead + lines[0]).rstrip(), file=out)
        for line in lines[1:]:
            print(hanging + line, file=out)
    print(file=out)


def _first_line(obj):
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


def _list(what, out):
    from sklearn_xai.benchmark._spec import MODEL_ALIASES, _package_names
    from sklearn_xai.benchmark.presets import list_presets
    from sklearn_xai.metrics import FAMILIES, get_scorer_names, metric_specs

    unknown = sorted(set(what or ()) - set(_LISTS))
    if unknown:
        raise ValueError(f"cannot list {unknown}; choose from {list(_LISTS)}.")
    what = what or list(_LISTS)
    if "presets" in what:
        _print_section("Presets", list(list_presets().items()), out)
    for kind, title in (("explainer", "Explainers"), ("masker", "Maskers")):
        if kind + "s" in what:
            rows = [(n, _first_line(c)) for n, c in sorted(_package_names(kind).items())]
            _print_section(title, rows, out)
    if "metrics" in what:
        specs = {s.name: s for s in metric_specs()}
        by_family = {}
        for name in get_scorer_names():
            s = specs.get(name)
            if s is None:
                by_family.setdefault("fairness", []).append(
                    (name, "wraps another metric (fairness gap)"))
                continue
            arrow = "↑" if s.greater_is_better else "↓"
            needs = f" [uses {', '.join(s.requires)}]" if s.requires else ""
            by_family.setdefault(s.family or "other", []).append(
                (name, f"{arrow} {s.description}{needs}"))
        print(f"Metrics ({sum(map(len, by_family.values()))} scorer names by family; "
              "neg_* are losses, ↑ higher is better):", file=out)
        order = [f for f in FAMILIES if f in by_family] + sorted(set(by_family) - set(FAMILIES))
        for family in order:
            _print_section(f"  {family.replace('_', ' ').capitalize()} "
                           f"({len(by_family[family])})", by_family[family], out,
                           indent="    ")
    if "generators" in what:
        rows = [(n, _first_line(f)) for n, f in sorted(_package_names("dataset").items())]
        _print_section("Datasets (generators and loaders)", rows, out)
    if "models" in what:
        rows = [(alias, " / ".join(p for p in paths if p))
                for alias, paths in MODEL_ALIASES.items()]
        rows += [(n, _first_line(c)) for n, c in sorted(_package_names("model").items())]
        _print_section("Models (aliases: regressor / classifier; or any dotted path)",
                       rows, out)
    return 0


def _component(row):
    """Where a failed score's error came from, for the grouped summary."""
    where = row.get("failed_in", "") if hasattr(row, "get") else ""
    if where == "model":
        return f"dataset {row['dataset']!r} / model {row['model']!r}"
    if where == "metric":
        return f"metric {row['metric']!r}"
    return f"explainer {row['explainer']!r}"


def _grouped(frame, key):
    """(label, error, n_scores, n_cells) per distinct (label, error)."""
    cells = ["dataset", "model", "explainer", "seed"]
    frame = frame.assign(_label=[key(row) for _, row in frame.iterrows()])
    out = []
    for (label, error), group in frame.groupby(["_label", "error"], sort=False):
        out.append((label, error, len(group), len(group.drop_duplicates(cells))))
    return sorted(out, key=lambda g: (-g[2], g[0]))


def _show(results, alpha, paths, out, metrics=None):
    """Print the leaderboard (of ``metrics`` only when given) within
    TERMINAL_WIDTH columns, then the sanity checks, the not-applicable
    skips, the failures grouped by (component, error), the report's path,
    and last the decision (the last lines of the output, where a reader of
    the terminal looks).  Returns the number of failed scores."""
    from sklearn_xai.benchmark._report import (
        TERMINAL_WIDTH,
        _decision_markdown,
        _reliability_table,
        _with_families,
        format_leaderboard,
    )
    from sklearn_xai.utils._files import one_line

    table = results.table
    ok = table["status"] == "ok"
    decision = None
    if ok.any():
        board = _with_families(results.leaderboard(alpha=alpha), table)
        if metrics is not None:
            scored = set(board["metric"])
            metrics = [m for m in metrics if m in scored or f"neg_{m}" in scored]
        if metrics == []:
            print("No successful score of the metrics given with --metrics.", file=out)
        else:
            print(format_leaderboard(board, fmt="markdown", control=results.control,
                                     alpha=alpha, max_width=TERMINAL_WIDTH,
                                     metrics=metrics), file=out)
        if board["explainer"].nunique() > 1:
            # The report's decision: metrics its reliability table distrusts
            # do not vote.  Printed last, after the checks and failures.
            decision = _decision_markdown(board, results.control, alpha,
                                          _reliability_table(results, True),
                                          width=TERMINAL_WIDTH).rstrip()
    if ok.any():
        from sklearn_xai.benchmark._sanity import (
            SANITY_THRESHOLD,
            sanity_checks,
            sanity_summary,
        )

        lines = sanity_summary(sanity_checks(results))
        if lines:
            print(f"\nSanity checks (explanations of a randomised model; similarity "
                  f"< {SANITY_THRESHOLD:g} passes):", file=out)
            for line in lines:
                print(textwrap.fill(line, TERMINAL_WIDTH, initial_indent="  ",
                                    subsequent_indent="    "), file=out)
    if ok.any():
        from sklearn_xai.benchmark._units import unit_test_summary

        for line in unit_test_summary(results):  # known-behaviour units only
            print(("\n" if line.startswith("Known") else "") + line, file=out)
    skipped = table[table["status"] == "skipped"]
    if len(skipped):
        print(f"\n{len(skipped)} of {len(table)} scores skipped as not applicable:",
              file=out)
        for label, error, n, _ in _grouped(skipped, lambda r: f"metric {r['metric']!r}"):
            print(f"  {label}: {one_line(error)} (x{n})", file=out)
    errors = table[table["status"] == "error"]
    if len(errors):
        print(f"\n{len(errors)} of {len(table)} scores FAILED:", file=out)
        for label, error, n, n_cells in _grouped(errors, _component):
            print(f"  {label}: {one_line(error)} (x{n} scores in {n_cells} cells)",
                  file=out)
        print("Details are in the results table (columns status, error, failed_in); "
              "a rerun retries the failures.", file=out)
    if paths:
        print(f"\nReport: {paths['report_md']}  (and report.html, results.csv)", file=out)
    if decision is not None:
        print(decision, file=out)
    return len(errors)


def _check_output(directory):
    """Create the output folder now and check it is writable, so a long run
    never fails at the end for want of a place to write."""
    try:
        os.makedirs(directory, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".sklearn_xai_write_test"):
            pass
    except OSError as exc:
        raise ValueError(
            f"cannot write the output folder {directory!r} ({exc.strerror or exc}); "
            "choose another with --out DIR."
        ) from None


def _import_modules(names, benchmark):
    """Import the modules named with --import: a ``.py`` file next to the
    config file (or in the working directory for a preset), else an installed
    module.  Only modules the user names on the command line are imported,
    never files a config merely sits next to.

    The config's folder goes first on ``sys.path``, so the module imports its
    own neighbours and worker processes import it by name.  A module of the
    same name imported earlier from another file is an error (the file next
    to the config would silently not run); an error raised while the module
    runs is reported with its file and line.
    """
    import importlib
    import traceback

    if not names:
        return
    folder = os.path.dirname(os.path.abspath(benchmark)) if os.path.exists(benchmark) \
        else os.getcwd()
    for name in names:
        module = name[:-3] if name.endswith(".py") else name
        path = os.path.join(folder, module + ".py")
        local = os.path.isfile(path)
        if local:
            loaded = getattr(sys.modules.get(module), "__file__", None)
            if loaded is not None and os.path.realpath(loaded) != os.path.realpath(path):
                raise ImportError(
                    f"--import {name}: a module named {module!r} is already imported "
                    f"from {loaded}, so {path} would not run; rename {module}.py (and "
                    "the --import) to a name no other module uses."
                )
            if folder not in sys.path:
                sys.path.insert(0, folder)
        try:
            importlib.import_module(module)
        except Exception as exc:
            missing = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
            if not local and missing and (module + ".").startswith(missing + "."):
                raise ImportError(
                    f"--import {name}: {exc} (looked for {module}.py in {folder} and "
                    "in the installed packages)"
                ) from None
            frames = [f for f in traceback.extract_tb(exc.__traceback__)
                      if local and os.path.realpath(f.filename) == os.path.realpath(path)]
            at = f" at {path}, line {frames[-1].lineno}" if frames else ""
            raise ImportError(
                f"--import {name}: importing {module!r} failed{at}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc


def _check_benchmark_name(benchmark, imports):
    """Answer a mistyped preset name before anything heavy is imported.

    A name ending in ``.yaml``, ``.yml`` or ``.json`` must be an existing
    file.  Without ``--import`` the presets are the shipped ones, whose names
    are known without importing scikit-learn or torch; any other name that is
    not a file is an error, with the closest preset names.
    """
    if os.path.exists(benchmark):
        return
    if benchmark.lower().endswith((".yaml", ".yml", ".json")):
        raise ValueError(
            f"config file {benchmark!r} not found (relative to the working directory "
            f"{os.getcwd()}); give its path."
        )
    if imports:
        return  # an imported module may register presets
    from difflib import get_close_matches

    from sklearn_xai.benchmark._preset_names import SHIPPED_PRESETS, WITH_QUICK_VARIANT

    names = list(SHIPPED_PRESETS) + [f"{name}_quick" for name in WITH_QUICK_VARIANT]
    if benchmark in names:
        return
    close = get_close_matches(benchmark, names, n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(
        f"{benchmark!r} is neither a preset nor an existing config file.{hint} "
        "'sklearn-xai list presets' lists the presets."
    )


_REPORT_DIGEST = "report.digest.json"


def _results_digest(results, alpha, figures):
    """A digest of everything the report shows but the run's wall time."""
    import hashlib

    from sklearn_xai import __version__

    h = hashlib.sha256()
    for frame in (results.table.drop(columns=["cached"], errors="ignore"), results.per_row):
        h.update(frame.to_csv(index=False).encode())
    h.update(repr((results.spec, results.control, alpha, figures, __version__)).encode())
    return h.hexdigest()


def _write_report_if_changed(results, directory, alpha, figures, verbose=0,
                             explanations=None):
    """Write the report, unless a run with the same results already wrote it.

    A rerun that takes every cell from the cache gives the same results: the
    report files (and figures, which take most of a cached rerun's time) are
    then kept when the digest stored beside them matches and they all still
    exist.  Any change of the results, ``alpha``, the figures option or the
    package version rewrites them.  ``explanations`` is called (with no
    argument) only when the report is rewritten, for the section
    ``write_report(..., explanations=)`` places after the decision.

    Returns the report's paths and the record stored beside them (a plain
    JSON object: the digest, the paths and the terminal summaries already
    printed for these results, see :func:`_show_once`).
    """
    path = os.path.join(directory, _REPORT_DIGEST)
    digest = _results_digest(results, alpha, figures)
    stored = _read_record(path)
    if (stored is not None and stored.get("digest") == digest
            and isinstance(stored.get("paths"), dict)
            and all(isinstance(p, str) and os.path.isfile(p) and not os.path.islink(p)
                    and _in_folder(directory, p) for p in stored["paths"].values())):
        return stored["paths"], stored
    from sklearn_xai.benchmark._report import write_report

    section = explanations() if explanations is not None else None
    paths = write_report(results, directory, alpha=alpha, figures=figures,
                         explanations=section, verbose=verbose)
    record = {"digest": digest,
              "paths": {k: os.fspath(v) for k, v in paths.items()
                        if isinstance(v, (str, os.PathLike))},
              "terminal": {}}
    _write_record(path, record)
    return paths, record


def _in_folder(directory, path):
    """Whether ``path`` lies inside ``directory`` (links resolved)."""
    root = os.path.realpath(directory)
    return os.path.realpath(path).startswith(root.rstrip(os.sep) + os.sep)


def _read_record(path):
    """The JSON record beside a report, or None (never anything but JSON is
    read from a results folder)."""
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            stored = json.load(fh)
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) else None


def _write_record(path, record):
    import json

    from sklearn_xai.utils._files import write_in_folder

    # Never a half-written record, never written through a link.
    write_in_folder(os.path.dirname(path) or ".", os.path.basename(path),
                    json.dumps(record))


def _show_once(results, alpha, paths, out, metrics, directory, record):
    """:func:`_show`, with its text kept in the report's record.

    The terminal summary is a function of what the digest covers (the
    results, ``alpha``, the package version) and of ``metrics`` and the
    report's paths: a cached rerun prints the stored text instead of
    recomputing the leaderboard's paired tests.  Returns the number of
    failed scores, as :func:`_show`.
    """
    import io
    import json

    key = json.dumps([None if metrics is None else list(metrics),
                      sorted((str(k), os.fspath(v)) for k, v in paths.items()
                             if isinstance(v, (str, os.PathLike)))])
    terminal = record.setdefault("terminal", {})
    entry = terminal.get(key) if isinstance(terminal, dict) else None
    if (isinstance(entry, dict) and isinstance(entry.get("text"), str)
            and isinstance(entry.get("n_failed"), int)):
        out.write(entry["text"])
        return entry["n_failed"]
    buffer = io.StringIO()
    n_failed = _show(results, alpha, paths, buffer, metrics=metrics)
    text = buffer.getvalue()
    out.write(text)
    if isinstance(terminal, dict):
        terminal[key] = {"text": text, "n_failed": int(n_failed)}
        try:
            _write_record(os.path.join(directory, _REPORT_DIGEST), record)
        except OSError:
            pass  # the summary is printed; only the next rerun recomputes it
    return n_failed


def _run(args, out):
    _check_benchmark_name(args.benchmark, args.imports)
    _use_agg()
    from sklearn_xai.benchmark._runner import (
        BenchmarkInterrupted,
        _as_spec,
        run_benchmark,
    )

    _import_modules(args.imports, args.benchmark)
    spec = _as_spec(args.benchmark)
    spec.validate_names()
    # Fail fast (before any output folder or work), naming --device or the
    # config's device: key.
    device = args.device if args.device is not None else spec.device
    if device is not None:
        from sklearn_xai.utils._device import resolve_device

        resolve_device(device, parameter="--device" if args.device is not None
                       else "device")
    metrics = _metric_names(args)
    _check_metric_names(metrics, list(spec.metrics))
    directory = args.out or os.path.join(DEFAULT_OUT, spec.name)
    _check_output(directory)
    cache_dir = _cache_dir(args, directory)
    try:
        backend = "dask" if args.scheduler_address and args.backend is None else args.backend
        results = run_benchmark(spec, n_jobs=args.n_jobs, backend=backend,
                                cache_dir=cache_dir, verbose=0 if args.quiet else 1,
                                shard_size=args.shard_size,
                                scheduler_address=args.scheduler_address,
                                device=args.device)
    except BenchmarkInterrupted as exc:
        print(f"sklearn-xai run: {exc}", file=sys.stderr)
        return 130
    paths, record = _write_report_if_changed(results, directory, args.alpha,
                                             not args.no_figures,
                                             verbose=0 if args.quiet else 1)
    print(f"{spec.name}: {results.n_cells} cells ({results.n_computed} computed, "
          f"{results.n_cells - results.n_computed} from the cache) in "
          f"{results.wall_time:.1f} s\n", file=out)
    n_failed = _show_once(results, args.alpha, paths, out, metrics, directory, record)
    return 1 if n_failed else 0


def _compare(args, out):
    import numpy as np
    import pandas as pd
    from sklearn.model_selection import train_test_split

    from sklearn_xai.benchmark._compare import (
        _compare_within_budget,
        _select_explainers,
        _select_metrics,
        applicable_explainers,
        compare_explainers,
    )
    from sklearn_xai.benchmark._rows import compare_rows, csv_rows
    from sklearn_xai.benchmark._runner import BenchmarkInterrupted, _place, _task_of
    from sklearn_xai.benchmark._spec import resolve_component
    from sklearn_xai.utils._device import resolve_device

    if args.seeds < 1 or args.n_explain < 1:
        raise ValueError("--seeds and --n-explain must be positive numbers.")
    # Fail fast (before reading the data or training), naming --device.
    device = None if args.device is None else str(
        resolve_device(args.device, parameter="--device"))
    metrics = _select_metrics(_names(args.metrics), "--metrics")
    frame = pd.read_csv(args.csv)
    if args.target not in frame:
        raise ValueError(
            f"--target {args.target!r} is not a column of {args.csv}; columns: "
            f"{list(frame.columns)}."
        )
    y = frame.pop(args.target).to_numpy()
    X, encode, note = csv_rows(frame)  # text columns: one-hot in a Pipeline
    task = _task_of(y)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.25, random_state=0,
        stratify=y if task == "classification" else None)
    # A torch model trains on --device (see the runner's _place).
    model = _place(encode(resolve_component(args.model, "model", seed=0, task=task)),
                   device)
    model.fit(X_train, y_train)
    if note:
        print(note, file=out)
    print(f"{type(model).__name__} trained on {len(X_train)} rows; held-out score "
          f"{model.score(X_test, y_test):.3f}\n", file=out)
    # Unknown explainer names fail here, before anything is explained.  On
    # raw text columns only the explainers that substitute values apply.
    rows = compare_rows(model, X_test, X_train)
    available = rows.explainers(applicable_explainers(rows.model, X.shape[1]))
    names = _names(args.explainers)
    refused = [n for n in names or () if n in rows.left_out]
    if refused:
        raise ValueError(
            "--explainers: " + "; ".join(f"{n!r} does not apply to raw text columns "
                                         f"({rows.left_out[n]})" for n in refused)
            + f". The explainers that apply are {list(available)}.")
    for label, reason in rows.left_out.items():
        print(f"Left out on the raw columns: {label} ({reason}).", file=out)
    explainers = _select_explainers(available, names, "--explainers")
    stem = os.path.splitext(os.path.basename(args.csv))[0]
    directory = args.out or os.path.join(DEFAULT_OUT, f"compare_{stem}")
    _check_output(directory)
    options = dict(X_train=X_train, explainers=explainers, metrics=metrics,
                   n_explain=args.n_explain, seeds=list(range(args.seeds)),
                   n_jobs=args.n_jobs, backend=None, device=device,
                   cache_dir=_cache_dir(args, directory),
                   verbose=0 if args.quiet else 1)
    try:
        if args.budget is None:
            results = compare_explainers(model, X_test, y_test, **options)
        else:
            def say(note):
                print(f"--budget {args.budget:g}: {note}\n", file=out)
                out.flush()

            results = _compare_within_budget(model, X_test, y_test, budget=args.budget,
                                             say=say, output="auto", **options)
    except BenchmarkInterrupted as exc:
        print(f"sklearn-xai compare: {exc}", file=sys.stderr)
        return 130
    verbose = 0 if args.quiet else 1

    def explanations():
        # Pictures of the explainer the decision picks, on the compared rows,
        # from the attributions its cells of the first seed computed (the
        # same as explaining the rows again: numeric rows are explained as
        # they are, and every row draws from its own random stream).
        from sklearn_xai.benchmark._explanation_figures import explanation_figures

        seed = options["seeds"][0]
        computed = None
        if rows.codec is None:
            computed = {explainer: A for (_, _, explainer, s), A
                        in getattr(results, "attributions", {}).items() if s == seed}
        return explanation_figures(
            results, model, X_test, directory, X_train=X_train, y_train=y_train,
            feature_names=list(frame.columns), alpha=args.alpha, random_state=seed,
            attributions=computed, verbose=verbose)

    paths, record = _write_report_if_changed(
        results, directory, args.alpha, not args.no_figures, verbose=verbose,
        explanations=None if args.no_figures else explanations)
    print(f"compare: {results.n_cells} cells ({results.n_computed} computed, "
          f"{results.n_cells - results.n_computed} from the cache) in "
          f"{results.wall_time:.1f} s\n", file=out)
    n_failed = _show_once(results, args.alpha, paths, out, None, directory, record)
    return 1 if n_failed else 0


def _report(args, out):
    from sklearn_xai.benchmark._report import write_report
    from sklearn_xai.benchmark._results import BenchmarkResults

    results = BenchmarkResults.load(args.directory)
    metrics = _metric_names(args)
    _check_metric_names(metrics, list(dict.fromkeys(results.table["metric"])))
    paths = write_report(results, args.directory, alpha=args.alpha,
                         figures=not args.no_figures, verbose=1)
    return 1 if _show(results, args.alpha, paths, out, metrics=metrics) else 0


def _site(args, out):
    from sklearn_xai.benchmark._site import build_site
    from sklearn_xai.utils._files import one_line

    site = build_site(args.directories, args.out, alpha=args.alpha)
    for directory, problems in site["refused"].items():
        print(f"refused {one_line(directory)}:", file=out)
        for problem in problems:
            print(f"  - {one_line(problem)}", file=out)
    accepted = len(args.directories) - len(site["refused"])
    print(f"site: {accepted} of {len(args.directories)} results folders accepted; "
          f"open {site['paths']['index.html']}", file=out)
    return 1 if site["refused"] else 0


def _submit_check(args, out):
    from sklearn_xai.benchmark._submit import check_submission
    from sklearn_xai.utils._files import one_line

    problems = check_submission(args.directory)
    if not problems:
        print(f"{one_line(args.directory)}: accepted.", file=out)
        return 0
    print(f"{one_line(args.directory)}: {len(problems)} problem(s):", file=out)
    for problem in problems:
        print(f"  - {one_line(problem)}", file=out)
    return 1


class _Output:
    """Standard output that goes quiet once its reader is gone.

    ``sklearn-xai run ... | head`` closes the pipe after a few lines; the
    run's files are written by then, so the rest of the summary is dropped
    (the file descriptor is pointed at ``os.devnull``, so that the
    interpreter's last flush does not fail either) and the command ends
    with its own status.
    """

    def __init__(self, stream):
        self.stream = stream
        self.gone = False

    def _quiet(self):
        self.gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self.stream.fileno())
            finally:
                os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass  # not a file descriptor (a test's StringIO): nothing to flush

    def write(self, text):
        if not self.gone:
            try:
                self.stream.write(text)
            except BrokenPipeError:
                self._quiet()
        return len(text)

    def flush(self):
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._quiet()


def _use_agg():
    """Figures are written to files: no display needed.  Without importing
    matplotlib (a cached rerun whose report is unchanged draws nothing): the
    ``MPLBACKEND`` environment variable picks Agg when it is imported, in
    this process and in the workers it starts."""
    os.environ["MPLBACKEND"] = "Agg"
    if "matplotlib" in sys.modules:  # already imported (main() called in Python)
        sys.modules["matplotlib"].use("Agg")


def main(argv=None):
    """Entry point of the ``sklearn-xai`` command.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    status : int
        0 on success; 1 on a configuration or input error (one line on
        stderr, nothing computed) or when any score of the run failed (the
        failures are listed, grouped by component and error); 130 when
        interrupted (rerun the same command to resume from the cache).
    """
    args = _parser().parse_args(argv)
    out = _Output(sys.stdout)
    try:
        if args.command != "run":
            _use_agg()
        if args.command == "list":
            status = _list(args.what, out)
        elif args.command == "run":
            status = _run(args, out)
        elif args.command == "compare":
            status = _compare(args, out)
        elif args.command == "site":
            status = _site(args, out)
        elif args.command == "submit-check":
            status = _submit_check(args, out)
        else:
            status = _report(args, out)
        out.flush()
        return status
    except (ValueError, TypeError, OSError, ImportError) as exc:
        print(f"sklearn-xai {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"sklearn-xai {args.command}: interrupted.", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
