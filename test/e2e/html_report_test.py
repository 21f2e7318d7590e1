#!/usr/bin/env python3
"""The HTML report of a real campaign, rendered by headless Chromium.

A real campaign: two systems (-O1 and -O2) of two of alea's kernels
(examples/kernels) built by alea-cc with randomized layouts, 3 builds x 2
executions x 6 iterations (2 dropped as warm-up), plus a benchmark that always
fails (so the report has failures and warnings). Then

  alea report DIR --format html -o report.html --plots plots/

and checks, as a reader's browser sees it:
1. every figure (inline and each --plots file) parses as XML (ElementTree)
   and has a <title> and a <desc>;
2. Chromium renders the page at a laptop's and a phone's width: the
   screenshots are not blank, the page is no wider than the phone;
3. the DOM after load holds every benchmark, every figure (one per --plots
   file, by id) and every warning of the JSON report, and a text alternative
   for every figure;
4. nothing external is loaded: Chromium recorded no request other than the
   file itself, and the HTML names no http(s) resource (the SVG namespace
   aside);
5. --format latex is a booktabs table with one row per comparison.

Usage: html_report_test.py BUILD_DIR SOURCE_DIR"""
import html
import json
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

import chromium
from e2e_common import alea, check, finish, run, write

build_dir, source_dir = sys.argv[1], sys.argv[2]
ALEA = alea(build_dir)
KERNELS = os.path.join(source_dir, "examples", "kernels")
INCLUDE = os.path.join(source_dir, "runner", "include")
SVG_NS = "{http://www.w3.org/2000/svg}"

CAMPAIGN = f"""
[campaign]
name = "html report"
seed = 7
threshold = 0.02
factors = "all"
timeout = 60

[levels]
builds = 3
executions = 2
iterations = 4
warmup = 2

[measure]
source = "records"

[[system]]
name = "O1"
baseline = true
build = ["make", "-s", "-f", "{KERNELS}/Makefile", "ALEA_INCLUDE={INCLUDE}", "OPT=-O1", "stencil", "sort"]
artifacts = ["stencil", "sort"]

[[system]]
name = "O2"
build = ["make", "-s", "-f", "{KERNELS}/Makefile", "ALEA_INCLUDE={INCLUDE}", "OPT=-O2", "stencil", "sort"]
artifacts = ["stencil", "sort"]

[[benchmark]]
name = "stencil"
command = ["{{build_dir}}/stencil", "{{iterations}}"]

[[benchmark]]
name = "sort"
command = ["{{build_dir}}/sort", "{{iterations}}"]

[[benchmark]]
name = "broken"
command = ["/bin/sh", "-c", "echo 'no such input' >&2; exit 3"]
"""


def parse_svg(text, where):
    root = ET.fromstring(text)
    check(root.tag == SVG_NS + "svg", f"{where}: the root is <svg>: {root.tag}")
    check(root.find(SVG_NS + "title") is not None and root.find(SVG_NS + "desc") is not None,
          f"{where}: has <title> and <desc>")
    return root


with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, PATH=os.path.join(build_dir, "bin") + ":" + os.environ["PATH"],
               CC="alea-cc", CXX="alea-c++")
    toml = write(os.path.join(tmp, "campaign.toml"), CAMPAIGN)
    store = os.path.join(tmp, "store")
    r = run([ALEA, "run", toml, "--dir", store, "--no-report"], timeout=900, env=env)
    check(r.returncode == 3, f"the campaign ran, the broken benchmark failed: {r.returncode} "
          f"{r.stderr[-2000:]}")

    out = os.path.join(tmp, "report.html")
    plots = os.path.join(tmp, "plots")
    r = run([ALEA, "report", store, "--format", "html", "-o", out, "--plots", plots])
    check(r.returncode == 0, f"alea report --format html: {r.returncode} {r.stderr}")
    page = open(out, encoding="utf-8").read()
    doc = json.loads(run([ALEA, "report", store, "--format", "json"]).stdout)

    # 1. Figures parse as XML.
    files = sorted(f for f in os.listdir(plots) if f.endswith(".svg"))
    check(len(files) >= 1 + 2 * 5, f"a forest plot and 5 figures per benchmark: {files}")
    for f in files:
        parse_svg(open(os.path.join(plots, f), encoding="utf-8").read(), f)
    inline = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    check(len(inline) == len(files), f"the page inlines every figure: {len(inline)} vs {len(files)}")
    for i, s in enumerate(inline):
        parse_svg(s, f"inline figure {i}")

    # 2. Rendered at a laptop's and a phone's width.
    shots = os.path.join(tmp, "shots")
    laptop = chromium.render(out, shots)
    phone = chromium.render_phone(out, shots)
    check(not chromium.is_blank(laptop.png), "the laptop screenshot is not blank")
    check(not chromium.is_blank(phone.png), "the phone screenshot is not blank")
    check(phone.layout["scroll_width"] <= phone.layout["viewport_width"] + 1,
          f"the page fits a phone's width (no sideways scrolling): {phone.layout}")

    # 3. The DOM holds every benchmark, figure and warning.
    dom = html.unescape(laptop.dom)
    for b in ["stencil", "sort"]:
        check(f'data-benchmark="{b}"' in dom, f"the DOM has benchmark {b}'s section")
    check("broken" in dom, "the DOM names the failed benchmark")
    for f in files:
        fid = f[:-len(".svg")]
        check(f'id="fig-{fid}"' in dom, f"the DOM has figure {fid}")
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", dom, flags=re.S)
    check(len(captions) == len(files) and all(len(c) > 20 for c in captions),
          "every figure has a text alternative")
    warnings = list(doc["campaign"]["warnings"])
    report = doc["report"]
    warnings += report["warnings"]
    for b in report["benchmarks"]:
        warnings += b["warnings"]
    check(len(warnings) >= 1, f"the campaign has warnings to show: {warnings}")
    # Tags out first, then entities: a warning may hold "T^2 <= 0".
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", laptop.dom)))
    for w in warnings:
        check(re.sub(r"\s+", " ", w) in text, f"the DOM shows the warning {w!r}")
    check("Plan for the next campaign" in dom and 'id="facts"' in dom,
          "the plan and the campaign's facts are there")

    # 4. Nothing external.
    check(laptop.external == [] and phone.external == [],
          f"no external request: {laptop.external} {phone.external}")
    urls = re.findall(r"""(?:src|href|url)\s*[=(]\s*["']?(https?://[^"') >]+)""", page)
    check(urls == [], f"the HTML names no external resource: {urls}")
    check("http://www.w3.org/2000/svg" in page, "the SVGs carry their namespace")

    # 5. LaTeX for papers.
    r = run([ALEA, "report", store, "--format", "latex"])
    check(r.returncode == 0 and "\\toprule" in r.stdout and "\\bottomrule" in r.stdout,
          f"a booktabs table: {r.stdout[:500]}")
    rows = [l for l in r.stdout.splitlines() if l.startswith(("stencil &", "sort &"))]
    check(len(rows) == 2, f"one row per comparison: {rows}")

finish("the HTML report of a real campaign renders, self-contained, with every figure")
