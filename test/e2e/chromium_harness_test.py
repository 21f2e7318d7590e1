#!/usr/bin/env python3
"""The headless-Chromium harness (chromium.py) on pages whose answers are known.

1. A page with the six sample report figures inline (written by
   report_plot_samples): at a laptop's width it renders non-blank, its DOM
   after load holds the six figures (svg role=img with a title), it requests
   nothing outside the file, and it is not wider than its viewport; at a
   phone's width (390 px) the same holds, the figures scaling down.
2. An empty white page renders blank (is_blank says yes when it should).
3. A page with <img src="https://example.invalid/x.png"> is reported as
   requesting that external URL, as the page's request, not the browser's.
4. A missing file is an error, not a render of Chromium's error page.

Usage: chromium_harness_test.py BUILD_DIR SOURCE_DIR"""
import os
import sys
import tempfile
from html.parser import HTMLParser

import chromium
from e2e_common import check, finish, run, write

build_dir = sys.argv[1]
SAMPLES = os.path.join(build_dir, "bin", "report_plot_samples")
SIX = ["forest", "build-means", "strip", "variance-shares", "drift", "warmup"]

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>six figures</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0 auto; padding: 8px; max-width: 760px; }}
figure {{ margin: 0 0 24px; }}
svg.alea-plot {{ display: block; max-width: 720px; height: auto; }}
</style></head>
<body><h1>Six figures</h1>
{figures}
</body></html>
"""


class Figures(HTMLParser):
    """Counts <figure>s and the report's <svg role="img" class="alea-plot">
    elements, and which of those have a <title>."""

    def __init__(self):
        super().__init__()
        self.figures = 0
        self.plots = []  # the class of each figure's svg
        self.titled = 0
        self._in_plot = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self.figures += 1
        elif tag == "svg" and a.get("role") == "img" and "alea-plot" in a.get("class", ""):
            self.plots.append(a["class"])
            self._in_plot = True
        elif tag == "title" and self._in_plot:
            self.titled += 1
            self._in_plot = False


def check_six(r, what, width):
    check(not chromium.is_blank(r.png), f"{what}: the screenshot is not blank")
    check(chromium.png_size(r.png)[0] == width,
          f"{what}: the screenshot is {width} px wide ({chromium.png_size(r.png)})")
    parsed = Figures()
    parsed.feed(r.dom)
    check(parsed.figures == 6 and len(parsed.plots) == 6 and parsed.titled == 6,
          f"{what}: the DOM holds six titled figures ({parsed.figures} figures, "
          f"{parsed.plots}, {parsed.titled} titled)")
    for name in SIX:
        check(any(name + "-plot" in c.split() for c in parsed.plots),
              f"{what}: the {name} figure is in the DOM")
    check(r.external == [], f"{what}: no external request ({r.external})")
    check(r.urls and all(u.startswith("file:") for u in r.urls),
          f"{what}: the page requested only itself ({r.urls})")
    check(r.layout["viewport_width"] == width,
          f"{what}: the viewport is {width} px wide ({r.layout})")
    check(r.layout["scroll_width"] <= r.layout["viewport_width"],
          f"{what}: nothing wider than the viewport ({r.layout})")


with tempfile.TemporaryDirectory(prefix="alea-chromium-test-") as tmp:
    plots = os.path.join(tmp, "plots")
    r = run([SAMPLES, plots])
    check(r.returncode == 0, f"report_plot_samples exits 0: {r.stderr}")
    figures = []
    for name in SIX:
        with open(os.path.join(plots, "inline", name + ".svg")) as f:
            figures.append(f"<figure>{f.read()}<figcaption>{name}</figcaption></figure>")
    six = write(os.path.join(tmp, "six.html"), PAGE.format(figures="\n".join(figures)))

    out = os.path.join(tmp, "out")
    check_six(chromium.render(six, out, name="laptop"), "laptop", chromium.LAPTOP[0])
    check_six(chromium.render_phone(six, out), "phone", chromium.PHONE[0])

    blank = write(os.path.join(tmp, "blank.html"),
                  "<!DOCTYPE html><html><head><style>html{background:#fff}</style></head>"
                  "<body></body></html>")
    r_blank = chromium.render(blank, out, name="blank")
    check(chromium.is_blank(r_blank.png), "an empty page renders blank")

    url = "https://example.invalid/x.png"
    external = write(os.path.join(tmp, "external.html"),
                     f'<!DOCTYPE html><html><body><p>text</p><img src="{url}" alt="x">'
                     "</body></html>")
    r_ext = chromium.render(external, out, name="external")
    check(r_ext.external == [url], f"the external image is reported ({r_ext.external})")
    check(url not in r_ext.background, "as the page's request, not the browser's own")
    check(not chromium.is_blank(r_ext.png), "the page with text is not blank")

    try:
        chromium.render(os.path.join(tmp, "missing.html"), out, name="missing")
        check(False, "a missing file is an error")
    except FileNotFoundError:
        pass

finish("the Chromium harness renders, reads the DOM, sees external requests and blank pages")
