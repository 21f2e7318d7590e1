#!/usr/bin/env python3
"""The "identical layouts" warning on a program too small to have many
layouts (issue 11, item 12): a program of 2 functions (main and a helper)
built by alea-cc with only the function-order factor has 2 possible layouts,
so 4 builds must share one. `alea run` and `alea report` must then say how many
functions the program has and how likely the collision was (1 in 2: expected
for a program this small), not that the randomization did not take.

The same program linked with -s (stripped: no symbol table): the warning
says the program is stripped and its code is the same, never "0 functions"
(issue 18, item 9).

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
baseline = true
shell = "$CC -O1 {source_dir}/tiny.c -o tiny"
artifacts = ["tiny"]
[[system]]
name = "stripped"
shell = "$CC -O1 -s {source_dir}/tiny.c -o tiny"
artifacts = ["tiny"]
[[benchmark]]
name = "run"
command = ["{artifact:tiny}"]
"""

# The same program linked with -s (issue 18, item 9): its 2 layouts are the
# same code bytes, so 4 builds share one; the warning says the program is
# stripped, not that it has 0 functions.
EXPECTED_STRIPPED = ("have the same layout fingerprint; the program is stripped (no symbol "
                     "table), so the fingerprint is of its code: these builds' executable "
                     "sections are the same byte for byte")

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
        check(EXPECTED_STRIPPED in r.stderr + r.stdout,
              f"alea run says the program is stripped: {r.stderr[-3000:]}")
        check("0 functions" not in r.stderr + r.stdout, f"no '0 functions': {r.stderr[-3000:]}")
        check(not any("did not take" in line for line in (r.stderr + r.stdout).splitlines()
                      if " of tiny " in line),
              "no false alarm in alea run")
        rep = run([alea(build_dir), "report", camp, "--format", "json"])
        check(rep.returncode == 0, f"alea report: exit {rep.returncode}: {rep.stderr}")
        warnings = json.loads(rep.stdout)["campaign"]["warnings"] if rep.returncode == 0 else []
        same = [w for w in warnings if w.startswith("identical layouts: builds ")]
        tiny = [w for w in same if " of tiny " in w]
        check(tiny and all(w.endswith(" of tiny " + EXPECTED) for w in tiny),
              f"alea report says why: {same}")
        stripped = [w for w in same if " of stripped " in w]
        check(stripped and all(EXPECTED_STRIPPED in w and "0 functions" not in w
                               for w in stripped),
              f"alea report says the program is stripped: {same}")
    finish("a 2-function program's collision is explained as expected, stripped or not")


if __name__ == "__main__":
    main()
