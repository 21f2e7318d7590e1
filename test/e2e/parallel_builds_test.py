#!/usr/bin/env python3
"""Parallel builds on the host (`build_jobs`, `alea run -j`; docs/campaign.md,
"Parallel builds"): a campaign of 2 systems x 4 builds of a small C program
built with alea-cc.

  -j 1 and -j 2            the same seeds and byte-identical artifacts per
                           (system, build) (the objects' SHA-256)
  a failing build          the other builds of the campaign are made and
                           recorded; exit 3 (failures recorded)
  SIGKILL among the builds  (at the 3rd build's record, ALEA_TEST_KILL_AT,
                           while the other build runs): the resumed run makes
                           only the missing builds, and every (system, build)
                           is recorded exactly once with the artifacts of -j 1

Usage: parallel_builds_test.py BUILD_DIR SOURCE_DIR"""
import os
import re
import signal
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

PROGRAM = r"""#include <stdio.h>
static int work(int n) { int s = 0; for (int i = 0; i < n; ++i) s += i % 7; return s; }
static int more(int n) { return work(n) + work(n / 2); }
int main(void) { printf("%d\n", more(KERNEL)); return 0; }
"""

CAMPAIGN = """
[campaign]
name = "parallel builds"
seed = "0x5eed"
[levels]
builds = 4
executions = 1
[[system]]
name = "small"
baseline = true
shell = "{fail}$CC -O2 -DKERNEL=1000 {source_dir}/prog.c -o prog"
artifacts = ["prog"]
[[system]]
name = "large"
shell = "$CC -O2 -DKERNEL=2000 {source_dir}/prog.c -o prog"
artifacts = ["prog"]
[[benchmark]]
name = "prog"
command = ["{artifact:prog}"]
"""


def builds(directory):
    """{(system, build index): (seed, artifact hash, status)} of a store."""
    with sqlite3.connect(os.path.join(directory, "campaign.db")) as db:
        rows = db.execute("SELECT s.name, b.build_index, b.seed, b.binary_hash, b.status, "
                          "count(*) OVER (PARTITION BY s.name, b.build_index) FROM build b "
                          "JOIN system s ON s.id = b.system_id").fetchall()
    check(all(r[5] == 1 for r in rows), f"a build recorded twice in {directory}: {rows}")
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-parallel-builds-") as tmp:
        write(os.path.join(tmp, "prog.c"), PROGRAM)
        campaign = write(os.path.join(tmp, "c.toml"), CAMPAIGN.replace("{fail}", ""))

        made = {}
        for jobs in (1, 2):
            d = os.path.join(tmp, f"j{jobs}")
            r = run([exe, "run", campaign, "--dir", d, "-j", str(jobs), "--no-report"])
            check(r.returncode == 0, f"-j {jobs}: exit {r.returncode}: {r.stderr}")
            made[jobs] = builds(d)
        check(len(made[1]) == 8 and all(v[2] == "ok" and v[1] for v in made[1].values()),
              f"-j 1 made 8 builds with artifacts: {made[1]}")
        check(made[1] == made[2], f"-j 1 and -j 2 differ:\n{made[1]}\n{made[2]}")
        seeds = {(s, b): v[0] for (s, b), v in made[1].items()}
        check(len(set(v[1] for v in made[1].values())) > 2,
              "the builds' artifacts do not differ: the layouts were not randomized")
        check(seeds[("small", 0)] == seeds[("large", 0)],
              "build 0 of the two systems should share the pair seed (interleaved design)")

        # A failing build: build 2 of `small` fails; the 7 others are made.
        failing = write(os.path.join(tmp, "fail.toml"),
                        CAMPAIGN.replace("{fail}", "test {build_index} != 2 && "))
        d = os.path.join(tmp, "fail")
        r = run([exe, "run", failing, "--dir", d, "-j", "2", "--no-report"])
        check(r.returncode == 3, f"a failed build: exit {r.returncode}, expected 3: {r.stderr}")
        got = builds(d)
        check(len(got) == 8 and got[("small", 2)][2] == "failed" and
              sum(v[2] == "ok" for v in got.values()) == 7,
              f"one failed build stopped others: {got}")

        # SIGKILL at the third build's record, with two builds at once.
        d = os.path.join(tmp, "killed")
        env = dict(os.environ, ALEA_TEST_KILL_AT="build:3")
        r = run([exe, "run", campaign, "--dir", d, "-j", "2", "--no-report"], env=env)
        check(r.returncode == -signal.SIGKILL, f"not killed at the 3rd build: {r.returncode} "
              f"{r.stderr}")
        before = builds(d)
        check(len(before) == 2, f"2 builds recorded before the kill: {before}")
        r = run([exe, "run", campaign, "--dir", d, "-j", "2", "--no-report"])
        check(r.returncode == 0, f"resume: exit {r.returncode}: {r.stderr}")
        rebuilt = re.findall(r"^building (\S+ #\d)", r.stderr, re.M)
        check(len(rebuilt) == 6, f"the resume made {len(rebuilt)} builds, expected 6: {rebuilt}")
        after = builds(d)
        check(after == made[1], f"after the kill and resume, the builds differ from -j 1:\n"
              f"{after}\n{made[1]}")
    finish("-j 1 and -j 2 make the same builds; a failed build does not stop the others; a "
           "SIGKILL among parallel builds resumes with every build exactly once")


if __name__ == "__main__":
    main()
