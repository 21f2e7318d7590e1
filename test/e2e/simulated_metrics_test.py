#!/usr/bin/env python3
"""The metrics a busy machine cannot move, through `alea run` and `alea report`
(docs/measure.md, "Counters and simulated metrics").

1. sim-instructions under Valgrind's cachegrind: a tiny C program built by
   alea-cc ($CC in the system's build shell) whose loop is two instructions
   (dec, jnz) per iteration in inline assembly, whatever the compiler and the
   layout: system `one` runs N iterations, `two` 2N, 3 builds x 2 executions
   each, as benchmark `spin`; benchmark `start` runs the same builds with no
   work (their start-up: the loader, libc, the heap-offset runtime). An
   execution of `spin` and one of `start` with the same build and index get
   the same environment padding and heap offset, so Valgrind, deterministic,
   counts exactly the loop's 2N x WORK instructions more in `spin` (within a
   few hundred: the argument's digits, ASLR's effect on string functions).
   The report's ratio of `spin` is then what the work says, (start of two +
   2 x 2N) / (start of one + 2N), within 0.1%, with a 95% interval narrower
   than 1%; the values are stored with unit "count", every execution records
   the simulated geometry in its environment, and the heap offset was
   applied under Valgrind in every one.
2. A hardware counter: `metric = "instructions"` either counts (a machine with
   a PMU: a value of at least 2N) or fails before the first build (none here:
   no build directory) with the one-line error that names the metric, the
   reason and what to use instead. Either way the test passes.

Usage: simulated_metrics_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

PROGRAM = r"""#include <stdlib.h>
#ifndef WORK
#define WORK 1
#endif
int main(int argc, char **argv) {
  unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 0) * WORK;
  if (n)
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
  return 0;
}
"""

N = 5_000_000

CAMPAIGN = """
[campaign]
seed = 20260301

[levels]
builds = 3
executions = 2

[measure]
metric = "{metric}"

[[system]]
name = "one"
baseline = true
shell = "$CC -O1 -DWORK=1 -o spin {{source_dir}}/spin.c"
artifacts = ["spin"]

[[system]]
name = "two"
shell = "$CC -O1 -DWORK=2 -o spin {{source_dir}}/spin.c"
artifacts = ["spin"]

[[benchmark]]
name = "spin"
command = ["{{artifact:spin}}", "{n}"]

[[benchmark]]
name = "start"
command = ["{{artifact:spin}}", "0"]
"""


def simulated(exe, tmp):
    write(os.path.join(tmp, "c.toml"), CAMPAIGN.format(metric="sim-instructions", n=N))
    store = os.path.join(tmp, "store")
    r = run([exe, "run", os.path.join(tmp, "c.toml"), "--dir", store], timeout=280)
    check(r.returncode == 0, f"alea run (sim-instructions) exits 0: {r.returncode} {r.stderr}")
    if r.returncode != 0:
        return
    with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
        rows = db.execute(
            "SELECT s.name, b.build_index, bm.name, e.execution_index, e.status, "
            "e.environment, e.heap_status, m.value FROM execution e "
            "JOIN build b ON b.id = e.build_id JOIN system s ON s.id = b.system_id "
            "JOIN benchmark bm ON bm.id = e.benchmark_id "
            "LEFT JOIN measurement m ON m.execution_id = e.id").fetchall()
        units = sorted(u for (u,) in db.execute("SELECT unit FROM benchmark"))
    check(len(rows) == 24 and all(r[4] == "ok" for r in rows),
          f"24 executions, all ok: {[r[4] for r in rows]}")
    check(units == ["count", "count"], f"the benchmarks' unit is count: {units}")
    check(all("cachegrind=--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64" in r[5]
              for r in rows), "every execution records the simulated geometry")
    check(all(r[6] == "applied" for r in rows),
          f"the heap offset was applied under Valgrind: {sorted(set(r[6] for r in rows))}")
    value = {(r[0], r[1], r[2], r[3]): r[7] or 0 for r in rows}
    work = {"one": 2 * N, "two": 4 * N}
    extra = [value[(s, b, "spin", e)] - value[(s, b, "start", e)] - work[s]
             for s in work for b in range(3) for e in range(2)]
    print(f"sim-instructions: spin - start - 2N x WORK per execution: {extra}")
    check(all(abs(x) < 1000 for x in extra),
          f"each execution counts the loop's instructions exactly, the start-up aside: {extra}")
    mean = lambda s, bench: sum(value[(s, b, bench, e)] for b in range(3) for e in range(2)) / 6
    expected = (mean("two", "start") + 4 * N) / (mean("one", "start") + 2 * N)
    rep = run([exe, "report", store, "--format", "json"])
    check(rep.returncode == 0, f"alea report exits 0: {rep.stderr}")
    doc = json.loads(rep.stdout)
    check(doc["campaign"]["units"] == {"spin": "count", "start": "count"},
          f"the report's units are counts: {doc['campaign']['units']}")
    spin = next(b for b in doc["report"]["benchmarks"] if b["name"] == "spin")
    est, (lo, hi) = spin["ratio"]["estimate"], spin["ratio"]["fieller"]["interval"]
    print(f"sim-instructions: start-up {mean('one', 'start'):.0f} (one), "
          f"{mean('two', 'start'):.0f} (two); expected ratio {expected:.5f}, "
          f"report {est:.5f} [{lo:.5f}, {hi:.5f}]")
    check(abs(est / expected - 1) < 0.001,
          f"two vs one is what the work says: {est:.5f} vs {expected:.5f}")
    check(lo <= est <= hi and hi - lo < 0.01 * est,
          f"a narrow 95% interval around it: [{lo:.5f}, {hi:.5f}]")


def hardware(exe, tmp):
    write(os.path.join(tmp, "hw.toml"),
          CAMPAIGN.format(metric="instructions", n=N).replace("builds = 3", "builds = 1")
          .replace("executions = 2", "executions = 1"))
    store = os.path.join(tmp, "hw-store")
    r = run([exe, "run", os.path.join(tmp, "hw.toml"), "--dir", store])
    if r.returncode == 0:  # a machine with a PMU
        with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
            values = [v for (v,) in db.execute("SELECT value FROM measurement")]
        print(f"instructions (a PMU): {values}")
        check(len(values) == 4 and all(v > 0 for v in values) and max(values) >= 2 * N,
              f"instructions counted, at least the loop's: {values}")
        return
    err = r.stderr.strip()
    print(f"instructions (no PMU): {err}")
    check(err.count("\n") == 0 and err.startswith("alea: error: ") and
          "hw.toml:" in err, f"one line at the campaign file's metric: {err!r}")
    check("metric \"instructions\" cannot be counted on this machine: perf_event_open: " in err
          and err.endswith("; use sim-instructions (Valgrind) or task-clock instead"),
          f"names the metric, the reason and what to use instead: {err!r}")
    check(not os.path.exists(os.path.join(store, "builds")), "before the first build")


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-simulated-") as tmp:
        write(os.path.join(tmp, "spin.c"), PROGRAM)
        simulated(exe, tmp)
        hardware(exe, tmp)
    finish("sim-instructions gives the work's ratio with a narrow interval; a hardware "
           "counter counts or fails before the first build")


if __name__ == "__main__":
    main()
