#!/usr/bin/env python3
"""Hostile names in the reports, read by the programs that read them (issue
18, item 2; issue 18, item 11 for the HTML width and the suite lines).

Two stores: a real campaign whose name is
    x\\n\\input{/etc/passwd}\\n\\immediate\\write18{touch PWNED}\\n
(the issue's own), and an `alea import --name <that name>` of a long CSV whose
systems and benchmarks are a <script> element, an <img onerror>, & $ \\ { } |
and a spreadsheet formula. Then, for each store:

1. pdflatex -no-shell-escape on a document that \\input's `alea report
   --format latex`: it compiles, no PWNED file appears, the log shows no
   \\write18 reached (no "runsystem"), /etc/passwd's text is not in the PDF,
   and the names are in it as text (pdftotext);
2. `alea report --format md` rendered by Python-Markdown (Debian's
   python3-markdown, tables extension) into a page, and `alea report --format
   html`, both loaded in headless Chromium: no script ran (window.PWNED unset,
   the title unchanged), the page has no <script> or <img> element, the names
   are shown as text, and no table row gained or lost a cell; the suite's
   proportion lines are list items, not a code block;
3. alea's HTML report of an ordinary campaign (3 levels, two systems) at
   1280 px: neither the page nor any table needs sideways scrolling.

Usage: report_escape_test.py BUILD_DIR SOURCE_DIR"""
import html
import os
import random
import shutil
import subprocess
import sys
import tempfile

import chromium
from e2e_common import alea, check, finish, run, write

build_dir = sys.argv[1]
ALEA = alea(build_dir)

NAME = "x\n\\input{/etc/passwd}\n\\immediate\\write18{touch PWNED}\n"
SCRIPT = "<script>window.PWNED=1;document.title='PWNED'</script>"
IMG = "<img src=x onerror=\"window.PWNED=2\">"
SPECIALS = "a&b|c$d\\e{f}_%#~^"
FORMULA = "=HYPERLINK(\"http://evil/\")"
# What pdftotext and a browser show of them: the names themselves.
SHOWN = [SCRIPT, IMG, SPECIALS]

CAMPAIGN = """
[campaign]
name = "x\\n\\\\input{/etc/passwd}\\n\\\\immediate\\\\write18{touch PWNED}\\n"
seed = 3
[levels]
builds = 2
executions = 2
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\nexit 0\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "printf '#!/bin/sh\\\\nexit 0\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "true"
command = ["{artifact:p}"]
"""


def csv_field(s):
    return '"' + s.replace('"', '""') + '"'


def long_csv(path, systems, benchmarks, builds, executions, iterations, seed):
    """Measurements of a model: the second system 7% faster, a build effect of
    2%, execution and iteration noise."""
    rng = random.Random(seed)
    rows = ["system,benchmark,build,execution,iteration,value"]
    for k, system in enumerate(systems):
        for benchmark in benchmarks:
            for b in range(builds):
                build = rng.gauss(0, 0.02)
                for e in range(executions):
                    execution = rng.gauss(0, 0.005)
                    for i in range(iterations):
                        value = 0.0123 * (1 - 0.07 * k) * (1 + build + execution
                                                            + rng.gauss(0, 0.002))
                        rows.append(f"{csv_field(system)},{csv_field(benchmark)},"
                                    f"{b},{e},{i},{value!r}")
    return write(path, "\n".join(rows) + "\n")


def report(store, fmt, out):
    r = run([ALEA, "report", store, "--format", fmt, "-o", out])
    check(r.returncode == 0, f"alea report --format {fmt} {store}: {r.returncode} {r.stderr}")
    with open(out, encoding="utf-8") as f:
        return f.read()


# The typographic forms pdflatex's fonts give the ASCII quotes.
QUOTES = str.maketrans({"\u2019": "'", "\u2018": "`", "\u201d": '"', "\u201c": '"'})


def pdflatex(tex, work, what, names, encoding):
    """Compiles a document that \\input's `tex` in `work`, without shell
    escape, in the font encoding `encoding` (OT1, LaTeX's default, or T1, whose
    fonts have a glyph for every ASCII character: the text can be compared)."""
    os.makedirs(work)
    shutil.copy(tex, os.path.join(work, "report.tex"))
    write(os.path.join(work, "paper.tex"),
          f"\\documentclass{{article}}\n\\usepackage[{encoding}]{{fontenc}}\n"
          "\\usepackage{booktabs}\n\\begin{document}\n"
          "\\input{report.tex}\n\\end{document}\n")
    what = f"{what} ({encoding})"
    r = run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error",
             "paper.tex"], cwd=work, timeout=120)
    log = open(os.path.join(work, "paper.log"), encoding="latin-1").read()
    check(r.returncode == 0, f"{what}: pdflatex compiles alea's LaTeX: {r.returncode}\n"
                             f"{r.stdout[-1500:]}")
    check(not os.path.exists(os.path.join(work, "PWNED")), f"{what}: no PWNED file")
    check("runsystem" not in log, f"{what}: \\write18 is never reached (paper.log)")
    check("/etc/passwd" not in [line.strip("()") for line in log.split()],
          f"{what}: /etc/passwd is not read (paper.log)")
    if r.returncode != 0:
        return
    text = subprocess.run(["pdftotext", "-layout", "paper.pdf", "-"], cwd=work,
                          capture_output=True, text=True, check=True).stdout
    check("root:x:0:0" not in text, f"{what}: /etc/passwd's text is not in the PDF")
    if encoding == "T1":
        text = text.translate(QUOTES)
        for name in names:
            check(name in text, f"{what}: {name!r} is in the PDF as text:\n{text[:1500]}")


def markdown_page(md_text, path):
    """Python-Markdown's HTML of alea's Markdown, as a page (the way a site or
    an editor's preview shows it: raw HTML allowed)."""
    try:
        import markdown
        body = markdown.markdown(md_text, extensions=["tables"])
    except ImportError:  # a Python of its own (pyenv): Debian's has python3-markdown
        body = subprocess.run(["/usr/bin/python3", "-m", "markdown", "-x", "tables"],
                              input=md_text, capture_output=True, text=True, check=True).stdout
    return write(path, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                       "<title>md</title></head><body>\n" + body + "\n</body></html>\n")


PROBE = {
    "pwned": "String(window.PWNED)",
    "title": "document.title",
    "elements": "document.querySelectorAll('script, img, iframe, object').length",
    "text": "document.body.innerText",
    "pre": "[...document.querySelectorAll('pre, code')].map(e => e.innerText)"
           ".filter(t => t.includes('faster on'))",
    "rows": "[...document.querySelectorAll('table')].map(t => [...t.rows].map(r => r.cells.length))",
    "width": "({page: document.documentElement.scrollWidth, viewport: window.innerWidth,"
             " wraps: [...document.querySelectorAll('.table-wrap')]"
             ".map(w => [w.scrollWidth, w.clientWidth])})",
}


def browse(page, shots, what, title, names):
    r = chromium.render(page, shots, name=what, evaluate=PROBE)
    v = r.values
    check(v["pwned"] == "undefined", f"{what}: no script ran (window.PWNED = {v['pwned']})")
    check(v["title"] == title, f"{what}: the title is unchanged: {v['title']!r}")
    check(v["elements"] == 0, f"{what}: no script, img, iframe or object element")
    for name in names:
        check(name in v["text"], f"{what}: {name!r} is shown as text")
    check(not v["pre"], f"{what}: the suite's lines are not a code block: {v['pre']}")
    for rows in v["rows"]:
        check(len(set(rows)) == 1, f"{what}: every row of a table has its header's cells: {rows}")
    check(not r.external, f"{what}: nothing external requested: {r.external}")
    return v


with tempfile.TemporaryDirectory() as tmp:
    # The campaign, run for real.
    campaign = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
    cdir = os.path.join(tmp, "c.alea")
    r = run([ALEA, "run", campaign, "--dir", cdir, "--no-report"], timeout=600)
    check(r.returncode == 0, f"the campaign runs: {r.returncode} {r.stderr[-2000:]}")
    check("campaign 'x\\n\\input{/etc/passwd}\\n" in r.stderr,
          f"the start line shows the name's newlines as \\n: {r.stderr[:300]!r}")
    tex = os.path.join(tmp, "campaign.tex")
    first = report(cdir, "latex", tex).split("\n")
    check(first[0].startswith("% alea report: x \\input{/etc/passwd} \\immediate") and
          first[1] == "\\begin{table}", f"one comment line, then the table: {first[:3]}")
    for enc in ("OT1", "T1"):
        pdflatex(tex, os.path.join(tmp, "tex-campaign-" + enc), "campaign", ["base", "cand"], enc)

    # Hostile systems and benchmarks, imported with the same name.
    data = long_csv(os.path.join(tmp, "hostile.csv"), [SCRIPT + " " + IMG, SPECIALS],
                    [FORMULA, "b|1"], builds=3, executions=2, iterations=3, seed=5)
    store = os.path.join(tmp, "hostile.db")
    r = run([ALEA, "import", "--name", NAME, data, "-o", store])
    check(r.returncode == 0, f"alea import --name: {r.returncode} {r.stderr}")
    tex = os.path.join(tmp, "hostile.tex")
    report(store, "latex", tex)
    for enc in ("OT1", "T1"):
        pdflatex(tex, os.path.join(tmp, "tex-hostile-" + enc), "imported",
                 [SPECIALS, SCRIPT, FORMULA, "b|1"], enc)

    shots = os.path.join(tmp, "shots")
    md = report(store, "md", os.path.join(tmp, "hostile.md"))
    page = markdown_page(md, os.path.join(tmp, "md.html"))
    browse(page, shots, "markdown", "md", SHOWN + ["b|1", FORMULA])
    page = os.path.join(tmp, "hostile.html")
    report(store, "html", page)
    browse(page, shots, "html", "alea report: " + NAME.replace("\n", " ").strip(),
           SHOWN + ["b|1", FORMULA])

    # An ordinary campaign's page at a laptop's width.
    data = long_csv(os.path.join(tmp, "ordinary.csv"), ["O1", "O2"], ["stencil", "sort"],
                    builds=10, executions=4, iterations=10, seed=7)
    store = os.path.join(tmp, "ordinary.db")
    r = run([ALEA, "import", "--name", "ordinary", data, "-o", store])
    check(r.returncode == 0, f"import: {r.stderr}")
    page = os.path.join(tmp, "ordinary.html")
    report(store, "html", page)
    v = browse(page, shots, "ordinary", "alea report: ordinary", ["O1", "O2"])
    w = v["width"]
    check(w["page"] <= w["viewport"], f"the page fits 1280 px: {w}")
    check(w["wraps"] and all(s <= c for s, c in w["wraps"]),
          f"no table scrolls sideways at 1280 px (scrollWidth, clientWidth): {w['wraps']}")

finish("hostile names compile in LaTeX and render as text in Markdown and HTML")
