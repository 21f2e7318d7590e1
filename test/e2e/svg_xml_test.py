#!/usr/bin/env python3
"""The report figures parsed by a real XML parser.

report_plot_samples (test/unit/report) writes every sample and degenerate
figure twice: as the element the HTML report inlines and as a standalone .svg
file. Each one must parse with xml.etree.ElementTree and be what the HTML
page and a paper can use as it is: an SVG root with viewBox and role="img",
<title> and <desc> first and not empty, only finite numbers in geometry and
path data, no ids (many figures share one page), nothing that loads or runs
anything (href, image, script, style, foreignObject); figures with nothing to
draw say "no data". The standalone form starts with the XML declaration and
has the viewBox's size instead of width="100%".

Usage: svg_xml_test.py BUILD_DIR SOURCE_DIR"""
import math
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

from e2e_common import check, finish, run

build_dir = sys.argv[1]
SAMPLES = os.path.join(build_dir, "bin", "report_plot_samples")
NS = "{http://www.w3.org/2000/svg}"
SIX = ["forest", "build-means", "strip", "variance-shares", "drift", "warmup"]
GEOMETRY = {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height",
            "stroke-width", "font-size", "fill-opacity"}
FORBIDDEN_TAGS = {"script", "image", "style", "foreignObject", "use", "a", "iframe"}
PATH_DATA = re.compile(r"^[MmLlHhVvAaZz0-9., e+-]*$")


def number_ok(text):
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def check_figure(name, root, standalone):
    label = name + (" (standalone)" if standalone else " (inline)")
    check(root.tag == NS + "svg", f"{label}: root is an svg element ({root.tag})")
    check(root.get("role") == "img", f"{label}: role=img")
    box = root.get("viewBox", "").split()
    check(len(box) == 4 and all(number_ok(v) for v in box) and float(box[2]) > 0
          and float(box[3]) > 0, f"{label}: a positive viewBox ({box})")
    if standalone:
        check(len(box) == 4 and root.get("width") == box[2] and root.get("height") == box[3],
              f"{label}: the standalone file has the viewBox's size "
              f"({root.get('width')}x{root.get('height')})")
    else:
        check(root.get("width") == "100%" and root.get("height") is None,
              f"{label}: the inline figure scales with its container")
    check("alea-plot" in root.get("class", "").split(), f"{label}: class alea-plot")
    children = list(root)
    check(len(children) >= 2 and children[0].tag == NS + "title"
          and children[1].tag == NS + "desc", f"{label}: <title> and <desc> come first")
    if len(children) >= 2:
        check((children[0].text or "").strip() != "", f"{label}: the title is not empty")
        check(len((children[1].text or "").strip()) > 10, f"{label}: the desc says something")
    for el in root.iter():
        tag = el.tag.replace(NS, "")
        check(tag not in FORBIDDEN_TAGS, f"{label}: no <{tag}>")
        check(not el.tag.startswith("{") or el.tag.startswith(NS),
              f"{label}: only SVG elements ({el.tag})")
        for attr, value in el.attrib.items():
            check(attr != "id", f"{label}: no id attribute (<{tag} id={value}>)")
            check("href" not in attr, f"{label}: no link ({attr}={value})")
            check(not attr.startswith("on"), f"{label}: no event handler ({attr})")
            if attr in GEOMETRY and el is not root:  # the root's width is "100%"
                check(number_ok(value), f"{label}: <{tag} {attr}=\"{value}\"> is a finite number")
            if attr == "d":
                check(PATH_DATA.match(value) is not None and "nan" not in value.lower()
                      and "inf" not in value.lower(), f"{label}: path data {value[:60]!r}")
            if attr == "class":
                for cls in value.split():
                    if cls.startswith("series-"):
                        check(cls[len("series-"):] in [str(i) for i in range(8)],
                              f"{label}: series class {cls} is one of the palette's eight")
    no_data = [el for el in root.iter(NS + "text") if el.get("class") == "no-data"]
    if name.endswith("-empty"):
        check(len(no_data) == 1 and no_data[0].text == "no data", f"{label}: says no data")
    if name in SIX:
        check(not no_data, f"{label}: the sample figure draws its data")


with tempfile.TemporaryDirectory(prefix="alea-svg-") as tmp:
    r = run([SAMPLES, tmp])
    check(r.returncode == 0, f"report_plot_samples exits 0 ({r.returncode}): {r.stderr}")
    names = sorted(f[:-4] for f in os.listdir(tmp) if f.endswith(".svg"))
    check(all(n in names for n in SIX), f"the six figures are written ({names})")
    check(any(n.endswith("-empty") for n in names), "degenerate figures are written")
    for name in names:
        for standalone, path in ((True, os.path.join(tmp, name + ".svg")),
                                 (False, os.path.join(tmp, "inline", name + ".svg"))):
            label = name + (" (standalone)" if standalone else " (inline)")
            with open(path, "rb") as f:
                data = f.read()
            check(data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
                  if standalone else data.startswith(b"<svg "),
                  f"{label}: starts with {data[:40]!r}")
            try:
                root = ET.fromstring(data)
            except ET.ParseError as e:
                check(False, f"{label}: not well-formed XML: {e}")
                continue
            check_figure(name, root, standalone)
    print(f"{len(names)} figures, each in two forms")

finish("every report figure is well-formed SVG with its text alternative")
