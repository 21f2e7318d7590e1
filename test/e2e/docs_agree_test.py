#!/usr/bin/env python3
"""The documentation says what the code does (issue 18, item 14).

1. Each documented synopsis (the first fenced block after its heading or at the
   top of its page) names every long option the command's --help lists, and
   nothing --help does not: `alea run` (docs/campaign.md), `alea report`
   (docs/measure.md), `alea import` (docs/measure.md), `alea compare`
   (docs/compare.md), `alea history` and `alea bisect` (docs/history.md).
2. docs/measure.md describes the demo campaign that scripts/demo.sh runs:
   its two systems' -O flags (baseline first), builds, executions,
   iterations, warm-up, threshold, design and adaptive target, all read from
   examples/demo/campaign.toml.

Usage: docs_agree_test.py BUILD_DIR SOURCE_DIR"""
import os
import re
import sys
import tomllib

from e2e_common import alea, check, finish, run

# (subcommand, page, text the synopsis block comes after)
SYNOPSES = [
    ("run", "docs/campaign.md", "# The campaign file"),
    ("report", "docs/measure.md", "## `alea report STORE`"),
    ("import", "docs/measure.md", "## Importing measurements (`alea import`)"),
    ("compare", "docs/compare.md", "# Is this revision faster?"),
    ("history", "docs/history.md", "# A benchmark over revisions"),
    ("bisect", "docs/history.md", "## Bisect"),
]


def first_block_after(text, marker):
    start = text.find(marker)
    if start < 0:
        return None
    m = re.search(r"```\n(.*?)```", text[start:], re.S)
    return m.group(1) if m else None


def long_options(help_text):
    """{--long: -s or None} of the options --help lists (but --help)."""
    options = {}
    for line in help_text.splitlines():
        m = re.match(r"\s+(?:(-\w),)?(--[a-z][a-z0-9-]*)", line)
        if m and m.group(2) != "--help":
            options[m.group(2)] = m.group(1)
    return options


def check_synopses(exe, src):
    for command, page, marker in SYNOPSES:
        with open(os.path.join(src, page)) as f:
            block = first_block_after(f.read(), marker)
        check(block is not None, f"{page}: a synopsis block after '{marker}'")
        if block is None:
            continue
        helped = long_options(run([exe, command, "--help"]).stdout)
        check(len(helped) >= 3, f"alea {command} --help lists its options: {helped}")
        documented = set(re.findall(r"--[a-z][a-z0-9-]*", block))
        shorts = set(re.findall(r"(?<![\w-])-[a-zA-Z](?![\w-])", block))
        missing = [o for o, short in helped.items() if o not in documented and short not in shorts]
        check(not missing, f"{page}: the synopsis of alea {command} lacks {sorted(missing)}")
        check(documented <= set(helped),
              f"{page}: the synopsis of alea {command} names options alea does not have: "
              f"{sorted(documented - set(helped))}")


def check_demo(src):
    with open(os.path.join(src, "examples/demo/campaign.toml"), "rb") as f:
        demo = tomllib.load(f)
    with open(os.path.join(src, "docs/measure.md")) as f:
        page = f.read()
    start = page.find("`examples/demo/campaign.toml` compares")
    check(start >= 0, "docs/measure.md describes examples/demo/campaign.toml")
    text = " ".join(page[start:start + 1500].split())
    systems = demo["system"]
    baseline = next(s for s in systems if s.get("baseline"))
    other = next(s for s in systems if not s.get("baseline"))
    flag = lambda s: next(a.split("=", 1)[1] for a in s["build"] if a.startswith("OPT="))
    levels, adaptive = demo["levels"], demo["adaptive"]
    expected = [
        f"compares `{flag(baseline)}` (baseline) with `{flag(other)}`",
        f"{levels['builds']} builds per system",
        f"{levels['executions']} executions",
        f"{levels['iterations']} iterations",
        f"{levels['warmup']} warm-up iterations",
        f"threshold {demo['campaign']['threshold'] * 100:g}%",
        f"±{adaptive['half_width'] * 100:g}%",
        f"at most {adaptive['max_builds']} builds per system",
        f"{adaptive['time_budget']} s of machine time",
    ]
    design = demo["campaign"].get("design", "interleaved")  # the default
    expected.append({"interleaved": "interleaved pairs", "unpaired": "unpaired",
                     "duet": "duet"}.get(design, design))
    for phrase in expected:
        check(phrase in text, f"docs/measure.md's demo paragraph says '{phrase}': {text[:400]}")


def main():
    exe, src = alea(sys.argv[1]), sys.argv[2]
    check_synopses(exe, src)
    check_demo(src)
    finish("the synopses and the demo's description agree with the code")


if __name__ == "__main__":
    main()
