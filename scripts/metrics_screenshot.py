#!/usr/bin/env python3
"""The screenshot of docs/report.md's "Several metrics and which functions'
placement matters" (issue 20): a campaign of the end-to-end test's ping-pong
program (test/e2e/function_placement_test.py: `ping`'s loop calls `pong`)
built by alea-cc under 8 seeds per system, measured with
`metrics = ["sim-cycles", "wall", "sim-i1-misses"]` under a 128-byte
direct-mapped simulated I1, its HTML report rendered in headless Chromium
(test/e2e/chromium.py) and the part from the comparison to the placement
section kept (the placement figure, the metrics and
the placement sections). Checks that the sections are there and the picture is not
blank; prints where it wrote it.

Usage: scripts/metrics_screenshot.py [BUILD_DIR] [OUT.png]
  (defaults: build, docs/report-metrics.png; the campaign in _work/metrics-shot)"""
import os
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "test", "e2e"))
import chromium  # noqa: E402

# The end-to-end test's program (function_placement_test.py), its iterations
# scaled by SCALE percent: more-work is built with 2% more.
PROGRAM = r"""#include <stdlib.h>
#ifndef SCALE
#define SCALE 100
#endif
__attribute__((noinline)) unsigned pong(unsigned x) { return x * 2654435761u + 12345u; }
__attribute__((noinline)) unsigned ping(unsigned long n) {
  unsigned acc = 1;
  for (unsigned long i = 0; i < n; ++i)
    acc = pong(acc ^ (unsigned)i);
  return acc;
}
int main(int argc, char **argv) {
  unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 0) * SCALE / 100;
  return ping(n) == 42u;
}
"""

CAMPAIGN = """
[campaign]
name = "ping-pong, three metrics"
seed = 20261129

[levels]
builds = 8
executions = 1

[measure]
metrics = ["sim-cycles", "wall", "sim-i1-misses"]
sim_cache = { i1 = "128,1,64" }

[[system]]
name = "base"
baseline = true
shell = "cp {source_dir}/pingpong.c . && $CC -O1 -o pingpong pingpong.c"
artifacts = ["pingpong"]

[[system]]
name = "more-work"
shell = "cp {source_dir}/pingpong.c . && $CC -O1 -DSCALE=102 -o pingpong pingpong.c"
artifacts = ["pingpong"]

[[benchmark]]
name = "pingpong"
command = ["{artifact:pingpong}", "100000"]
"""


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build"))
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2
                          else os.path.join(root, "docs", "report-metrics.png"))
    work = os.path.join(root, "_work", "metrics-shot")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(work, "pingpong.c"), "w") as f:
        f.write(PROGRAM)
    text = CAMPAIGN
    campaign = os.path.join(work, "c.toml")
    with open(campaign, "w") as f:
        f.write(text)
    alea = os.path.join(build, "bin", "alea")
    subprocess.run([alea, "run", campaign, "--dir", os.path.join(work, "store")], check=True,
                   stdout=subprocess.DEVNULL)
    html = os.path.join(work, "report.html")
    subprocess.run([alea, "report", os.path.join(work, "store"), "--format", "html", "-o", html],
                   check=True)
    page = open(html).read()
    for needle in ('<section id="metrics">', "placement"):
        if needle not in page:
            sys.exit(f"metrics_screenshot: the report has no {needle!r}")
    # From the placement figure (in the benchmark's section) to the end of
    # the placement section, the metrics section between them.
    clip = """(() => {
      const first = document.querySelector('figure[id^="fig-placement"]') ||
                    document.querySelector('#metrics');
      const last = document.querySelector('#placement') || document.querySelector('#metrics');
      const a = first.getBoundingClientRect(), b = last.getBoundingClientRect();
      const y = a.top + window.scrollY - 8;
      return {x: 0, y: y, width: document.documentElement.scrollWidth,
              height: b.bottom + window.scrollY + 8 - y};
    })()"""
    r = chromium.render(html, work, name="metrics", clip=clip)
    if chromium.is_blank(r.png):
        sys.exit("metrics_screenshot: a blank screenshot")
    shutil.copyfile(r.png, out)
    print(f"metrics_screenshot: {out} ({chromium.png_size(out)[0]} x {chromium.png_size(out)[1]})")


if __name__ == "__main__":
    main()
