"""Render a benchmark's ``report.html`` in headless Chromium and check it.

Runs the quick ``default`` preset into a temporary folder (or reads the
results folder given), writes ``report.html`` with
:func:`sklearn_xai.benchmark.write_report`, then opens it in headless
Chromium twice: ``--dump-dom`` gives the page as the browser parsed it,
``--screenshot`` a 1280-pixel-wide picture of it.  The checks:

* the page is one file: no ``src=`` or ``href=`` to another file (figures
  are ``data:`` images, links are ``#anchors``) and no script;
* the browser's DOM has every leaderboard table (one per dataset, model and
  metric family), the decision tables, the failure section, and one
  embedded figure per (dataset, model, family), each a valid PNG;
* the screenshot is not blank.

Run: ``python benchmarks/render_report.py [RESULTS_DIR] [--screenshot PNG]``.
Needs Chromium (``apt-get install -y chromium``; ``--chromium PATH`` to
choose another).  Prints what it checked and where the screenshot is; exits
with status 1 when a check fails, 2 when no Chromium is found.
"""

import argparse
import base64
import html.parser
import io
import os
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]
WINDOW = "1280,4000"


class _Page(html.parser.HTMLParser):
    """Tags, attributes and ids of a page."""

    def __init__(self):
        super().__init__()
        self.tables = []        # class of each <table>
        self.images = []        # src of each <img>
        self.svgs = 0
        self.ids = set()
        self.external = []      # src= / href= that point outside the page
        self.scripts = 0
        self.details = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "table":
            self.tables.append(attrs.get("class", ""))
        elif tag == "img":
            self.images.append(attrs.get("src", ""))
        elif tag == "svg":
            self.svgs += 1
        elif tag == "script":
            self.scripts += 1
        elif tag == "details":
            self.details += 1
        for name in ("src", "href"):
            value = attrs.get(name)
            if value is not None and not value.startswith(("#", "data:")):
                self.external.append(f"{tag} {name}={value!r}")


def parse(text):
    page = _Page()
    page.feed(text)
    return page


def find_chromium(path=None):
    for candidate in ([path] if path else []) + ["chromium", "chromium-browser",
                                                 "google-chrome", "/usr/bin/chromium"]:
        found = shutil.which(candidate) if candidate else None
        if found:
            return found
    return None


def chromium(binary, page, *extra, timeout=180):
    """Run headless Chromium on ``page`` (a path); returns its stdout."""
    with tempfile.TemporaryDirectory() as profile:
        cmd = [binary, *FLAGS, f"--user-data-dir={profile}", *extra,
               "file://" + os.path.abspath(page)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


def expected_counts(results):
    """(leaderboard tables, figures) the report of ``results`` must show."""
    from sklearn_xai.benchmark._report import _family_groups, _with_families

    table = results.table
    ok = table[table["status"] == "ok"]
    if ok.empty:
        return 0, 0
    board = _with_families(ok[["dataset", "model", "metric"]].drop_duplicates(), table)
    n = sum(len(_family_groups(sub))
            for _, sub in board.groupby(["dataset", "model"], sort=False))
    return n, n


def check(report, results, screenshot, binary):
    """Problems found in ``report`` (an empty list when it passes)."""
    import matplotlib.image as mpimg

    problems = []
    source = parse(open(report, encoding="utf-8").read())
    if source.external:
        problems.append(f"links to other files: {source.external[:5]}")
    if source.scripts:
        problems.append(f"{source.scripts} <script> elements")
    dom = parse(chromium(binary, report, "--dump-dom"))
    n_boards, n_figures = expected_counts(results)
    boards = [c for c in dom.tables if "board" in c.split()]
    if len(boards) != n_boards:
        problems.append(f"{len(boards)} leaderboard tables in the DOM, expected {n_boards}")
    pairs = results.table[["dataset", "model"]].drop_duplicates()
    ok = (results.table["status"] == "ok").any()
    decisions = [c for c in dom.tables if "decision" in c.split()]
    if ok and len(decisions) != len(pairs):
        problems.append(f"{len(decisions)} decision tables, expected {len(pairs)}")
    for section in (["decision", "leaderboards", "failures"] if ok else ["failures"]):
        if section not in dom.ids:
            problems.append(f"no section #{section}")
    n_errors = int((results.table["status"] == "error").sum())
    n_skipped = int((results.table["status"] == "skipped").sum())
    if n_errors and "failures" not in dom.tables:
        problems.append("failed scores but no failure table")
    if n_skipped and not dom.details:
        problems.append("skipped scores but no collapsed <details> section for them")
    figures = [src for src in dom.images if src.startswith("data:image/png;base64,")]
    if len(figures) + dom.svgs < n_figures:
        problems.append(f"{len(figures)} embedded figures, expected at least {n_figures}")
    for i, src in enumerate(figures):
        try:
            image = mpimg.imread(io.BytesIO(base64.b64decode(src.split(",", 1)[1])),
                                 format="png")
        except Exception as exc:  # noqa: BLE001 - any decoding problem is reported
            problems.append(f"figure {i} is not a valid PNG ({exc})")
            continue
        if image.shape[0] < 100 or image.shape[1] < 100:
            problems.append(f"figure {i} is only {image.shape[1]}x{image.shape[0]} pixels")
    chromium(binary, report, f"--screenshot={os.path.abspath(screenshot)}",
             f"--window-size={WINDOW}")
    if not os.path.exists(screenshot):
        problems.append("Chromium wrote no screenshot")
    else:
        shot = mpimg.imread(screenshot)
        ink = float((shot[..., :3].mean(axis=-1) < 0.9).mean())
        if ink < 0.01:
            problems.append(f"the screenshot is blank ({ink:.2%} of its pixels inked)")
    print(f"DOM: {len(boards)} leaderboard tables, {len(decisions)} decision tables, "
          f"{len(figures)} PNG figures, {dom.svgs} SVG figures, {dom.details} collapsed "
          f"sections; {n_errors} failed and {n_skipped} skipped scores in the results.")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", default=None,
                        help="a results folder (default: run the quick 'default' preset)")
    parser.add_argument("--preset", default="default",
                        help="preset run when no folder is given (default: default)")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--screenshot", default=None,
                        help="where to save the PNG (default: report_screenshot.png in "
                             "the results folder, or in the current folder for a run)")
    parser.add_argument("--chromium", default=None, help="the browser binary")
    args = parser.parse_args(argv)

    import matplotlib

    matplotlib.use("Agg")
    from sklearn_xai.benchmark import BenchmarkResults, run_benchmark, write_report

    binary = find_chromium(args.chromium)
    if binary is None:
        print("No Chromium found: install it (apt-get install -y chromium) or pass "
              "--chromium PATH.", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        if args.results is None:
            folder = os.path.join(tmp, "results")
            results = run_benchmark(args.preset, n_jobs=args.n_jobs,
                                    cache_dir=os.path.join(tmp, "cache"))
            screenshot = args.screenshot or "report_screenshot.png"
        else:
            folder = args.results
            results = BenchmarkResults.load(folder)
            screenshot = args.screenshot or os.path.join(folder, "report_screenshot.png")
        paths = write_report(results, folder)
        problems = check(paths["report_html"], results, screenshot, binary)
        size = os.path.getsize(paths["report_html"])
    print(f"report.html: {size / 1e3:.0f} kB, one file; screenshot: "
          f"{os.path.abspath(screenshot)}")
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    if not problems:
        print("All checks passed.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
