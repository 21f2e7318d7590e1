#!/usr/bin/env python3
"""`warmup = "auto"` on a real cache-warming program, and an auto campaign
reusing its pilot's builds (issue 11, items 10 and 11):

1. a C program built by alea-cc whose iterations look values up in a memo
   table, filling a quarter of it in each of the first 4 iterations: those do
   about 7x the work of a steady one by construction. Each iteration reports
   its work (table lookups + hash rounds, plus a jitter below 2% drawn from the
   process id so that executions differ) through <alea/iter.h>'s
   alea_iter_report, not a time: on a machine loaded to 20 runnable processes
   per CPU the CPU-time clock of a steady iteration moved enough for the
   changepoints to see 6 slow iterations. So the pilot's changepoints must find
   a warm-up of exactly 4 iterations on any machine, and the main campaign
   drops 4;
2. the build command appends "<system> <build index>" to a file each time it
   runs: over the pilot and the main campaign every (system, build index) is
   built once, the main campaign's builds say they were reused (log line and
   store), and the binaries the main campaign runs are byte for byte the
   pilot's.

Usage: warmup_auto_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

# Each iteration sums QUERIES table lookups (cheap); while the table is being
# filled, an iteration also computes a quarter of its entries, each costing
# COST rounds of an integer hash (expensive): 4 slow iterations, then steady.
PROGRAM = r"""
#include <alea/iter.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ENTRIES 4096
#define COST 7000
#define QUERIES 1200000

static uint64_t table[ENTRIES];

static uint64_t expensive(uint64_t x) {
  for (int r = 0; r < COST; ++r)
    x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ull + (uint64_t)r;
  return x;
}

int main(void) {
  const char *n = getenv("ALEA_ITERATIONS");
  int iterations = n ? atoi(n) : 10;
  uint64_t sum = 0;
  for (int it = 0; it < iterations; ++it) {
    uint64_t work = 0; /* the iteration's work: what it reports */
    if (it < 4) /* fill one quarter of the memo table */
      for (int i = it * ENTRIES / 4; i < (it + 1) * ENTRIES / 4; ++i) {
        table[i] = expensive((uint64_t)i);
        work += COST;
      }
    uint64_t h = (uint64_t)it;
    for (int q = 0; q < QUERIES; ++q) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      sum += table[h >> 52];
    }
    work += QUERIES;
    uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull + (uint64_t)it * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 30)) * 0x94d049bb133111ebull;
    uint64_t jitter = (x ^ (x >> 31)) % 20000; /* no trend over the iterations */
    alea_iter_report(work + jitter);
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
"""

CAMPAIGN = """
[campaign]
seed = 2024
[levels]
builds = 3
executions = 3
iterations = 10
warmup = "auto"
[measure]
source = "records"
[[system]]
name = "base"
baseline = true
shell = "echo base {build_index} >> {source_dir}/builds.txt && $CC -O2 -I{include} {source_dir}/memo.c -o memo"
artifacts = ["memo"]
[[system]]
name = "cand"
shell = "echo cand {build_index} >> {source_dir}/builds.txt && $CC -O1 -I{include} {source_dir}/memo.c -o memo"
artifacts = ["memo"]
[[benchmark]]
name = "memo"
command = ["{artifact:memo}"]
"""


def artifacts(db):
    """(system, build index) -> object hash of its artifact."""
    with sqlite3.connect(db) as c:
        return {(s, i): h for s, i, h in c.execute(
            "SELECT s.name, b.build_index, a.object_hash FROM build b "
            "JOIN system s ON s.id = b.system_id JOIN artifact a ON a.build_id = b.id")}


def main():
    build_dir, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    include = os.path.join(source_dir, "runner", "include")
    with tempfile.TemporaryDirectory(prefix="alea-warmup-") as tmp:
        write(os.path.join(tmp, "memo.c"), PROGRAM)
        toml = write(os.path.join(tmp, "c.toml"),
                     CAMPAIGN.replace("{include}", include).replace("{source_dir}", tmp))
        camp = os.path.join(tmp, "camp")
        r = run([alea(build_dir), "run", toml, "--dir", camp], timeout=600)
        check(r.returncode == 0, f"alea run: exit {r.returncode}: {r.stderr[-2000:]}")
        out = r.stdout + r.stderr

        # 1. the warm-up: 4 slow iterations by construction
        with sqlite3.connect(os.path.join(camp, "campaign.db")) as c:
            meta = dict(c.execute("SELECT key, value FROM meta"))
            dropped = c.execute("SELECT count(*) FROM measurement WHERE warmup = 1").fetchone()[0]
            executions = c.execute("SELECT count(*) FROM execution WHERE status = 'ok'").fetchone()[0]
        check(meta.get("levels.warmup") == "4",
              f"detected warm-up {meta.get('levels.warmup')}, expected 4; plan:\n"
              f"{meta.get('auto_plan')}")
        check("warm-up: 4 iterations (PELT changepoints" in meta.get("auto_plan", ""),
              f"the plan says how the warm-up was found: {meta.get('auto_plan')}")
        check(executions == 18 and dropped == 4 * 18,
              f"4 warm-up iterations dropped in each of 18 executions ({dropped}, {executions})")

        # 2. the pilot's builds reused: one build per (system, index) in all
        with open(os.path.join(tmp, "builds.txt")) as f:
            built = sorted(tuple(line.split()) for line in f if line.strip())
        expected = sorted((s, str(i)) for s in ("base", "cand") for i in range(3))
        check(built == expected, f"each (system, build index) built once: {built}")
        for s in ("base", "cand"):
            for i in range(3):
                check(f"build {s} #{i} (seed " in out and
                      f"): reused the pilot's build, not rebuilt" in out,
                      f"the log line says {s} #{i} was reused")
        with sqlite3.connect(os.path.join(camp, "campaign.db")) as c:
            logs = [t for (t,) in c.execute("SELECT log_tail FROM build")]
        check(len(logs) == 6 and all(t.startswith("reused the pilot's build ") for t in logs),
              f"the store records the reuse: {[t[:60] for t in logs]}")
        main_objs = artifacts(os.path.join(camp, "campaign.db"))
        pilot_objs = artifacts(os.path.join(camp, "pilot", "campaign.db"))
        check(main_objs == pilot_objs and len(main_objs) == 6,
              f"same artifacts as the pilot: {main_objs} vs {pilot_objs}")
        for key, h in main_objs.items():
            with open(os.path.join(camp, "objects", h), "rb") as a, \
                    open(os.path.join(camp, "pilot", "objects", pilot_objs.get(key, h)),
                         "rb") as b:
                check(a.read() == b.read(), f"{key}: the binary run is the pilot's, byte for byte")
    finish("warm-up of 4 found on a real program; the pilot's 6 builds reused, byte-identical")


if __name__ == "__main__":
    main()
