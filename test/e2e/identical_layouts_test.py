#!/usr/bin/env python3
"""The "identical layouts" warning on a program too small to have many
layouts (issue 11, item 12): a program of 2 functions (main and a helper)
built by alea-cc with only the function-order factor has 2 possible layouts,
so 4 builds must share one. `alea run` and `alea report` must then say how many
functions the program has and how likely the collision was (1 in 2: expected
for a program this small), not that the randomization did not take.

Usage: identical_layouts_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int helper(int x) { return x * 7 + 3; }
int main(int argc, char **argv) {
  (void)argv;
  printf("value %d\n", helper(argc) % 2 + 1);
  return 0;
}
"""

CAMPAIGN = """
[campaign]
seed = 7
factors = ["function-order"]
[levels]
builds = 4
executions = 1
iterations = 1
[measure]
source = "regex"
regex = 'value ([0-9.]+)'
[[system]]
name = "tiny"
shell = "$CC -O1 {source_dir}/tiny.c -o tiny"
artifacts = ["tiny"]
[[benchmark]]
name = "run"
command = ["{artifact:tiny}"]
"""

EXPECTED = ("have the same layout fingerprint; the program has 3 functions (2 in 1 module "
            "alea compiled, 1 from the C runtime), so two builds coincide with probability "
            "about 1 in 2 (1.00 that some pair of 4 builds does): expected for a program this "
            "small")


def main():
    build_dir = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-layouts-") as tmp:
        write(os.path.join(tmp, "tiny.c"), PROGRAM)
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN.replace("{source_dir}", tmp))
        camp = os.path.join(tmp, "camp")
        r = run([alea(build_dir), "run", toml, "--dir", camp])
        check(r.returncode == 0, f"alea run: exit {r.returncode}: {r.stderr[-2000:]}")
        check(EXPECTED in r.stderr + r.stdout, f"alea run says why: {r.stderr[-3000:]}")
        check("did not take" not in r.stderr + r.stdout, "no false alarm in alea run")
        rep = run([alea(build_dir), "report", camp, "--format", "json"])
        check(rep.returncode == 0, f"alea report: exit {rep.returncode}: {rep.stderr}")
        warnings = json.loads(rep.stdout)["campaign"]["warnings"] if rep.returncode == 0 else []
        same = [w for w in warnings if w.startswith("identical layouts: builds ")]
        check(same and all(w.endswith(" of tiny " + EXPECTED) for w in same),
              f"alea report says why: {same}")
    finish("a 2-function program's collision is explained as expected")


if __name__ == "__main__":
    main()
