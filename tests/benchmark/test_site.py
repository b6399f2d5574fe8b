"""The static results site: pages from several results folders, merged
submissions marked by source, OpenXAI's log-scale stability columns, an HTML
validator, escaping of hostile labels everywhere, and the pages in headless
Chromium (sorting and filtering from the address's hash)."""

import html
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sklearn_xai.benchmark import build_site
from sklearn_xai.benchmark._cli import main

from .conftest import HOSTILE, PRESET

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def site(site_folders, tiny_preset, tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    built = build_site([site_folders["base"], site_folders["submission"],
                        site_folders["stability"]], out)
    return out, built


def _page(out, paths, prefix, label):
    from sklearn_xai.benchmark._site import _page_name

    name = _page_name(prefix, label)
    assert name in paths
    return (out / name).read_text(encoding="utf-8")


def _rows(page):
    """The leaderboard's rows: their data- attributes and cells, unescaped."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for attrs, cells in re.findall(r"<tr([^>]*)>(.*?)</tr>", body):
        row = {k: html.unescape(v) for k, v in re.findall(r' data-(\w+)="([^"]*)"', attrs)}
        if re.search(r'\shidden\b', attrs):
            row["hidden"] = ""
        tds = re.findall(r"<td([^>]*)>(.*?)</td>", cells)
        row["cells"] = [html.unescape(re.sub(r"<[^>]+>", "", c)) for _, c in tds]
        row["sort"] = [(re.search(r'data-sort="([^"]*)"', a) or [None, None])[1]
                       for a, _ in tds]
        rows.append(row)
    return rows


def _headers(page):
    return re.findall(r'<th scope="col" data-key="([^"]*)"', page)


def test_site_merges_folders_and_marks_sources(site, site_folders):
    out, built = site
    assert built["refused"] == {}
    paths = built["paths"]
    page = _page(out, paths, "benchmark", PRESET)
    rows = _rows(page)
    # base: 3 explainers x 2 metrics; the submission: 2 x 2 (one dataset, model).
    sources = [r["source"] for r in rows]
    assert sources.count("base") == 6
    assert sources.count(HOSTILE["attr"]) == 4
    explainers = {r["cells"][_headers(page).index("explainer")] for r in rows}
    assert explainers == {"random", "ablation", "saliency", HOSTILE["img"]}
    # Both runs' decisions and provenance; the submission tagged.
    assert page.count("<h2>Decision</h2>") == 2
    assert "submission</span>" in page
    assert page.count("<details><summary>Provenance") == 2
    index = (out / "index.html").read_text(encoding="utf-8")
    for name in paths:
        if name.endswith(".html") and name != "index.html":
            assert f'href="{name}"' in index
    # An explainer page across benchmarks: the hostile explainer's rows.
    own = _rows(_page(out, paths, "explainer", HOSTILE["close"]))
    assert len(own) == 2 and {r["dataset"] for r in own} == {HOSTILE["path"]}


def test_stability_metrics_on_log_scale(site, stability_expected):
    out, built = site
    page = _page(out, built["paths"], "benchmark", HOSTILE["url"])
    heads = _headers(page)
    assert "ln_mean" in heads
    at, explainer_at = heads.index("ln_mean"), heads.index("explainer")
    found = {}
    for row in _rows(page):
        if row["cells"][heads.index("metric")].endswith("(RIS)"):
            found[row["cells"][explainer_at]] = float(row["sort"][at])
    assert found.keys() == stability_expected.keys()
    for explainer, value in stability_expected.items():
        assert found[explainer] == pytest.approx(value, rel=1e-12)
    # Not shown where no metric is OpenXAI's stability.
    assert "ln_mean" not in _headers(_page(out, built["paths"], "benchmark", PRESET))


def test_pages_pass_html5_validation(site):
    import html5lib
    out, built = site
    for name in built["paths"]:
        if name.endswith(".html"):
            parser = html5lib.HTMLParser(strict=True)
            parser.parse((out / name).read_bytes())  # raises on any parse error
            assert not parser.errors, (name, parser.errors[:3])


def _script_elements(text):
    return re.findall(r"<script\b([^>]*)>(.*?)</script>", text, flags=re.S)


def test_hostile_labels_escaped_everywhere(site, site_folders):
    out, built = site
    written = [Path(p) for p in built["paths"].values()]
    root = os.path.realpath(out)
    assert all(os.path.realpath(p).startswith(root + os.sep) for p in written)
    assert sorted(map(str, written)) == sorted(
        str(p) for p in out.rglob("*") if p.is_file())
    raw = [HOSTILE["img"], HOSTILE["attr"], HOSTILE["close"], "<b>", "onerror=alert"]
    for path in written:
        text = path.read_text(encoding="utf-8")
        for label in raw[:4]:
            assert label not in text, (path.name, label)
        assert "<script>" not in text
        if path.suffix == ".html":
            # Only the page's JSON data and its own script file.
            scripts = _script_elements(text)
            assert [attrs for attrs, _ in scripts] == [
                ' type="application/json" id="site-data"', ' src="site.js" defer'][
                :len(scripts)]
            for attrs, body in scripts[1:]:
                assert body == ""
            for attrs, body in scripts[:1]:
                assert "<" not in body and ">" not in body and "\u2028" not in body
                data = json.loads(body)
                assert all(isinstance(v, str) for vs in data["filters"].values()
                           for v in vs)
            # No link or image to a label: our own page and figure names only.
            for target in re.findall(r'(?:href|src)="([^"]*)"', text):
                assert re.fullmatch(r"[A-Za-z0-9_.\-/]+", target), target
                assert not target.startswith(("javascript", "/", "http")), target
            assert 'http-equiv="Content-Security-Policy"' in text
    # The labels come back intact: as text in the pages' JSON and in the SVG.
    page = _page(out, built["paths"], "benchmark", PRESET)
    data = json.loads(_script_elements(page)[0][1])
    assert HOSTILE["attr"] in data["filters"]["source"]
    stability = _page(out, built["paths"], "benchmark", HOSTILE["url"])
    data = json.loads(_script_elements(stability)[0][1])
    assert data["filters"]["dataset"] == [HOSTILE["path"]]
    assert data["filters"]["model"] == [HOSTILE["formula"]]
    texts = []
    for svg in out.glob("figures/*.svg"):
        texts += ["".join(t.itertext()) for t in ET.parse(svg).iter(
            "{http://www.w3.org/2000/svg}text")]
    assert HOSTILE["close"] in texts and HOSTILE["img"] in texts


def test_site_refuses_a_folder_with_the_reason(skipped_folder, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(skipped_folder, bad)
    (bad / "payload.pkl").write_bytes(b"\x80\x04N.")
    built = build_site([skipped_folder, bad], tmp_path / "site")
    assert list(built["refused"]) == [str(bad)]
    assert "payload.pkl" in built["refused"][str(bad)][0]
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Refused folders" in index and "payload.pkl: not a CSV, JSON or NPZ" in index


def test_site_never_writes_through_a_link(skipped_folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "site"
    out.mkdir()
    os.symlink(outside, out / "figures")
    import matplotlib.pyplot as plt

    from sklearn_xai.benchmark._site import _cd_writer

    fig = plt.figure(figsize=(1, 1))
    with pytest.raises(ValueError, match="symbolic link"):
        _cd_writer(str(out), "page", {})(fig, "d", "m")  # a diagram goes to figures/
    assert list(outside.iterdir()) == []
    # A link planted under a page's name is replaced, not followed.
    out2 = tmp_path / "site2"
    out2.mkdir()
    target = outside / "victim.txt"
    target.write_text("kept")
    os.symlink(target, out2 / "index.html")
    build_site([skipped_folder], out2)
    assert target.read_text() == "kept" and not (out2 / "index.html").is_symlink()


def test_cli_site(skipped_folder, tmp_path, capsys):
    bad = tmp_path / "bad"
    bad.mkdir()
    status = main(["site", str(skipped_folder), str(bad), "--out",
                   str(tmp_path / "site")])
    text = capsys.readouterr().out
    assert status == 1
    assert "1 of 2 results folders accepted" in text
    assert "results.csv is missing" in text
    assert (tmp_path / "site" / "index.html").is_file()


# ------------------------------------------------------------ Chromium
def _chromium(*args, timeout=60):
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--allow-file-access-from-files", "--virtual-time-budget=3000", *args],
        capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
@pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="headless Chromium is not installed (apt-get install chromium); the "
           "escaping and html5lib tests check the same pages everywhere")
def test_chromium_sorts_filters_and_runs_no_injected_script(site):
    out, built = site
    from sklearn_xai.benchmark._site import _page_name

    page = out / _page_name("benchmark", PRESET)
    family = "Ground truth"
    url = page.as_uri() + "#sort=mean&dir=desc&filter=family%3AGround%20truth"
    dom = _chromium("--dump-dom", url).stdout
    assert 'data-site-ready="1"' in dom  # the script ran
    title = re.search(r"<title>(.*?)</title>", dom).group(1)
    assert "pwned" not in title and "pwned" not in dom.split("<body", 1)[0]
    heads = _headers(dom)
    rows = _rows(dom)
    shown = [r for r in rows if "hidden" not in r]
    # Filtered: only the ground-truth family (feature_agreement) is visible.
    assert {r["family"] for r in shown} == {family}
    assert all(r["hidden"] == "" for r in rows if r["family"] != family)
    means = [float(r["sort"][heads.index("mean")]) for r in shown]
    assert means == sorted(means, reverse=True) and len(means) == 5
    # The hostile explainer's page: no injected script ran there either.
    dom = _chromium("--dump-dom", (out / _page_name("explainer", HOSTILE["img"])).as_uri()
                    ).stdout
    assert "pwned" not in re.search(r"<title>(.*?)</title>", dom).group(1)
    assert "<img src=\"x\"" not in dom
    shots = os.environ.get("SKLEARN_XAI_SITE_SHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        cd = sorted((out / "figures").glob("cd-benchmark-javascript*.svg"))[0]
        for name, target in [
                ("leaderboard.png", url),
                ("explainer.png", (out / _page_name("explainer", "ablation")).as_uri()),
                ("cd_diagram.png", cd.as_uri()),
                ("stability.png", (out / _page_name("benchmark", HOSTILE["url"])).as_uri()),
                ("index.png", (out / "index.html").as_uri())]:
            _chromium(f"--screenshot={os.path.join(shots, name)}",
                      "--window-size=1400,1100", target)
