#!/usr/bin/env python3
"""The build cache in a campaign (`build_cache = true`, `alea run --build-cache`;
docs/campaign.md, "Build cache"): 2 systems x 3 builds of a small C program of
two units built with alea-cc.

  cache on (the key, or the flag)   the same seeds and byte-identical artifacts
                                    per (system, build) as without it
  the builds' logs                  the first build of a system compiled both
                                    units, the next ones reused both
  build_cache = "yes"               a one-line error naming the key and line

Usage: build_cache_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

HEADER = "int work(int n);\n"
MAIN = r"""#include <stdio.h>
#include "work.h"
int main(void) { printf("%d\n", work(KERNEL)); return 0; }
"""
WORK = r"""#include "work.h"
static int step(int i) { return i % 7; }
int work(int n) { int s = 0; for (int i = 0; i < n; ++i) s += step(i); return s; }
"""

CAMPAIGN = """
[campaign]
name = "build cache"
seed = "0xcac4e"
build_jobs = 1
{cache}
[levels]
builds = 3
executions = 1
[[system]]
name = "O2"
baseline = true
shell = "$CC -O2 -DKERNEL=1000 -I{source_dir} -c {source_dir}/main.c -o main.o && $CC -O2 -I{source_dir} -c {source_dir}/work.c -o work.o && $CC main.o work.o -o prog"
artifacts = ["prog"]
[[system]]
name = "O1"
shell = "$CC -O1 -DKERNEL=1000 -I{source_dir} -c {source_dir}/main.c -o main.o && $CC -O1 -I{source_dir} -c {source_dir}/work.c -o work.o && $CC main.o work.o -o prog"
artifacts = ["prog"]
[[benchmark]]
name = "prog"
command = ["{artifact:prog}"]
"""


def builds(directory):
    """{(system, build index): (seed, artifact hash, status)} and {...: log tail}."""
    with sqlite3.connect(os.path.join(directory, "campaign.db")) as db:
        rows = db.execute("SELECT s.name, b.build_index, b.seed, b.binary_hash, b.status, "
                          "b.log_tail FROM build b JOIN system s ON s.id = b.system_id").fetchall()
    return ({(r[0], r[1]): (r[2], r[3], r[4]) for r in rows},
            {(r[0], r[1]): r[5] or "" for r in rows})


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-build-cache-") as tmp:
        write(os.path.join(tmp, "work.h"), HEADER)
        write(os.path.join(tmp, "main.c"), MAIN)
        write(os.path.join(tmp, "work.c"), WORK)
        plain = write(os.path.join(tmp, "plain.toml"), CAMPAIGN.replace("{cache}", ""))
        cached = write(os.path.join(tmp, "cached.toml"),
                       CAMPAIGN.replace("{cache}", "build_cache = true"))

        made, logs = {}, {}
        for name, args in (("plain", [plain]), ("key", [cached]),
                           ("flag", [plain, "--build-cache"])):
            d = os.path.join(tmp, name)
            r = run([exe, "run", *args, "--dir", d, "--no-report"])
            check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
            made[name], logs[name] = builds(d)
            if name != "plain":  # each build's reuse is said as it ends
                check("built O2 #0: build cache: 0 of 2 compiles reused" in r.stderr and
                      "built O1 #2: build cache: 2 of 2 compiles reused" in r.stderr,
                      f"{name}: the builds' reuse not said: {r.stderr}")
            else:
                check("build cache:" not in r.stderr, f"plain: a build cache mentioned: {r.stderr}")
        check(len(made["plain"]) == 6 and all(v[2] == "ok" and v[1] for v in made["plain"].values()),
              f"6 builds with artifacts: {made['plain']}")
        check(len(set(v[1] for v in made["plain"].values())) > 2,
              "the builds' artifacts do not differ: the layouts were not randomized")
        for name in ("key", "flag"):
            check(made[name] == made["plain"],
                  f"with the cache ({name}) the builds differ:\n{made[name]}\n{made['plain']}")
            check(os.path.isdir(os.path.join(tmp, name, "build-cache")),
                  f"{name}: no build-cache directory in the campaign directory")
            for system in ("O2", "O1"):
                first = logs[name][(system, 0)]
                check("build cache: 0 of 2 compiles reused" in first,
                      f"{name} {system} #0 log: {first!r}")
                for b in (1, 2):
                    log = logs[name][(system, b)]
                    check("build cache: 2 of 2 compiles reused" in log,
                          f"{name} {system} #{b} log: {log!r}")
        check(all("build cache" not in log for log in logs["plain"].values()),
              "a build without the cache mentions it")

        bad = write(os.path.join(tmp, "bad.toml"),
                    CAMPAIGN.replace("{cache}", 'build_cache = "yes"'))
        r = run([exe, "run", bad, "--dir", os.path.join(tmp, "bad"), "--no-report"])
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        check(r.returncode == 1 and len(lines) == 1 and "campaign.build_cache" in lines[0] and
              "bad.toml:6:" in lines[0], f"build_cache = \"yes\": exit {r.returncode}: {r.stderr}")
    finish("the build cache gives every (system, build) the artifacts and seeds it has without "
           "it; the second and third builds reused both units; a bad value is one line")


if __name__ == "__main__":
    main()
