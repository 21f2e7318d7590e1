#!/usr/bin/env python3
"""Iterations are never dropped from large output: a benchmark prints its
iteration timings first, then 20 MiB of other output (on stdout, and in a
second benchmark on stderr). Every iteration must be stored, with its value
and index, for every execution; a benchmark whose one line is longer than
alea's line limit (16 MiB) must be a recorded failure with that reason, never
data. (Before, the executor kept only the last 16 MiB of stdout and 4 KiB of
stderr, and the timings at the start vanished without a trace.)

Usage: large_output_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* big [stdout|stderr|oneline]: iteration timings, then 20 MiB of filler lines
   (or one 17 MiB line) on the chosen stream. */
int main(int argc, char **argv) {
  FILE *out = argc > 1 && strcmp(argv[1], "stderr") == 0 ? stderr : stdout;
  int n = atoi(getenv("ALEA_ITERATIONS"));
  for (int i = 0; i < n; ++i)
    fprintf(out, "iteration %d took %d.25 ms\n", i, 10 + i);
  static char line[101];
  memset(line, 'x', 99);
  line[99] = '\n';
  if (argc > 1 && strcmp(argv[1], "oneline") == 0) {
    for (int i = 0; i < 17 * 1024 * 1024 / 99; ++i)
      fwrite(line, 1, 99, out);
    fputc('\n', out);
  } else {
    for (int i = 0; i < 20 * 1024 * 1024 / 100; ++i)
      fwrite(line, 1, 100, out);
  }
  return 0;
}
"""

CAMPAIGN = """
[levels]
builds = 2
executions = 2
iterations = 6
warmup = 1
[measure]
source = "regex"
regex = 'took ([0-9.]+) ms'
unit = "ms"
[[system]]
name = "s"
baseline = true
shell = "cc -O1 {source_dir}/big.c -o big"
artifacts = ["big"]
[[benchmark]]
name = "stdout"
command = ["{artifact:big}", "stdout"]
[[benchmark]]
name = "stderr"
command = ["{artifact:big}", "stderr"]
measure = { source = "regex", regex = 'took ([0-9.]+) ms', unit = "ms", stream = "stderr" }
[[benchmark]]
name = "oneline"
command = ["{artifact:big}", "oneline"]
"""


def main():
    with tempfile.TemporaryDirectory(prefix="alea-bigout-") as tmp:
        write(os.path.join(tmp, "big.c"), PROGRAM)
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
        out = os.path.join(tmp, "camp")
        r = run([alea(sys.argv[1]), "run", toml, "--dir", out, "--no-report"])
        # The "oneline" benchmark fails by design: status 3.
        check(r.returncode == 3, f"alea run exited {r.returncode}, expected 3: {r.stderr}")
        con = sqlite3.connect(os.path.join(out, "campaign.db"))
        for bench in ("stdout", "stderr"):
            rows = con.execute(
                "SELECT e.id, e.status, e.error FROM execution e JOIN benchmark b "
                "ON b.id = e.benchmark_id WHERE b.name = ?", (bench,)).fetchall()
            check(len(rows) == 4 and all(s == "ok" for _, s, _ in rows),
                  f"{bench}: executions {rows}")
            for eid, _, _ in rows:
                values = con.execute("SELECT iteration, value FROM measurement "
                                     "WHERE execution_id = ? ORDER BY iteration",
                                     (eid,)).fetchall()
                expected = [(i, (10 + i + 0.25) / 1000) for i in range(7)]
                check([(i, round(v, 9)) for i, v in values] == expected,
                      f"{bench}: execution {eid} stored {values}, expected {expected}")
        rows = con.execute(
            "SELECT e.status, e.error FROM execution e JOIN benchmark b "
            "ON b.id = e.benchmark_id WHERE b.name = 'oneline'").fetchall()
        (n_measure,) = con.execute(
            "SELECT count(*) FROM measurement m JOIN execution e ON e.id = m.execution_id "
            "JOIN benchmark b ON b.id = e.benchmark_id WHERE b.name = 'oneline'").fetchone()
        con.close()
        check(len(rows) == 4 and all(s == "iterations" and "is longer than 16 MiB" in (e or "")
                                     for s, e in rows),
              f"oneline: expected 4 failures for the long line, got {rows}")
        check(n_measure == 0, f"oneline: {n_measure} measurements stored from a failed execution")
    finish("7 iterations of every execution kept ahead of 20 MiB of stdout and of stderr; "
          "a 17 MiB line is a recorded failure")


if __name__ == "__main__":
    main()
