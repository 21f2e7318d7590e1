#!/usr/bin/env python3
"""Two `alea run` on one campaign directory: exactly one runs, nothing is lost.

Run A is held inside its first execution (the benchmark waits for a file the
test creates), so A provably holds the campaign while B starts: no sleep
decides anything. B must exit with status 4 at once, with one line naming A
(pid, host, since when), without touching A's builds or store. `alea report`
and `alea export` must work beside the running A. Once released, A must
finish with every planned execution recorded exactly once and every build ok.

Usage: concurrent_runs_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, run, wait_for_file, write

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = atoi(getenv("ALEA_ITERATIONS"));
  for (int i = 0; i < n; ++i)
    printf("t=%d.5\n", 1 + i % 3);
  return 0;
}
"""

CAMPAIGN = """
[campaign]
seed = 11
[levels]
builds = 2
executions = 3
iterations = 2
[measure]
source = "regex"
regex = 't=([0-9.]+)'
[[system]]
name = "a"
baseline = true
shell = "cc -O1 {source_dir}/p.c -o p"
artifacts = ["p"]
[[system]]
name = "b"
shell = "cc -O2 {source_dir}/p.c -o p"
artifacts = ["p"]
[[benchmark]]
name = "gated"
shell = "touch {source_dir}/started; while [ ! -e {source_dir}/go ]; do sleep 0.01; done; {artifact:p}"
"""




def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-concurrent-") as tmp:
        write(os.path.join(tmp, "p.c"), PROGRAM)
        campaign = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
        out = os.path.join(tmp, "camp")
        a = subprocess.Popen([exe, "run", campaign, "--dir", out, "--no-report"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_for_file(os.path.join(tmp, "started"), a)
        builds_before = sorted(os.listdir(os.path.join(out, "builds", "a")))

        b = run([exe, "run", campaign, "--dir", out, "--no-report"])
        check(b.returncode == 4, f"second run: exit {b.returncode}, expected 4: {b.stderr}")
        lines = b.stderr.strip().split("\n")
        holder = f"is in use by another alea run (pid {a.pid} on "
        check(any(holder in l and ", since 20" in l for l in lines),
              f"second run does not name the holder (pid {a.pid}): {b.stderr!r}")
        check(lines[-1].startswith("alea: error: ") and
              not any(l.startswith("campaign '") for l in lines),
              f"the refused run says its error, and no start line: {b.stderr!r}")
        check(not any("UNIQUE constraint" in l for l in lines), f"raw SQLite error: {b.stderr}")
        # The refusal alone: no start line before it (issue 18 item 11).
        check(len(lines) == 1 and lines[0].startswith("alea: error: "),
              f"the refused run prints more than its error: {b.stderr!r}")
        check(sorted(os.listdir(os.path.join(out, "builds", "a"))) == builds_before,
              "the second run touched the first run's build directories")

        # Readers work beside the running campaign.
        r = run([exe, "report", out])
        check(r.returncode == 0, f"report beside a running campaign: {r.returncode} {r.stderr}")
        r = run([exe, "export", out])
        check(r.returncode == 0, f"export beside a running campaign: {r.returncode} {r.stderr}")

        open(os.path.join(tmp, "go"), "w").close()
        _, err = a.communicate(timeout=240)
        check(a.returncode == 0, f"first run: exit {a.returncode}: {err}")

        con = sqlite3.connect(os.path.join(out, "campaign.db"))
        builds = con.execute("SELECT status, count(*) FROM build GROUP BY status").fetchall()
        check(builds == [("ok", 4)], f"builds: {builds}")
        (n, positions, ok) = con.execute(
            "SELECT count(*), count(DISTINCT plan_position), sum(status = 'ok') "
            "FROM execution").fetchone()
        check(n == 12 and positions == 12 and ok == 12,
              f"executions: {n} rows, {positions} positions, {ok} ok (expected 12 of each)")
        (m,) = con.execute("SELECT count(*) FROM measurement").fetchone()
        check(m == 24, f"{m} measurements, expected 24")
        con.close()
        aside = [d for d in os.listdir(os.path.join(out, "builds", "a")) if "interrupted" in d]
        check(not aside, f"build directories moved aside: {aside}")

        # Once A is done, the directory is free again (nothing left to do).
        r = run([exe, "run", campaign, "--dir", out, "--no-report"])
        check(r.returncode == 0 and "12 of 12 executions recorded" in r.stderr,
              f"run after the first finished: {r.returncode} {r.stderr}")
    finish("the second run was refused (exit 4, holder named), report/export worked "
          "beside the running campaign, 12 executions and 24 measurements exactly once")


if __name__ == "__main__":
    main()
