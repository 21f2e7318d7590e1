#!/usr/bin/env python3
"""A benchmark that leaves a daemon behind (`setsid`, out of its process group,
so the end-of-execution kill of the group misses it): `alea run` must notice
it after every execution, record it with the execution, warn in the report,
and by default kill it, so no daemon outlives the campaign or disturbs the
executions after it. With `leftovers = "keep"` the daemons are reported and
left running (the test ends them).

Each daemon is `sleep` with a duration unique to this test run, so the test
finds exactly its own processes in /proc.

Usage: leftover_processes_test.py BUILD_DIR SOURCE_DIR"""
import os
import random
import signal
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, live_pids, run, write

CAMPAIGN = """
[campaign]
{extra}
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "printf '#!/bin/sh\\\\ntrue\\\\n' > p; chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "daemon"
shell = "setsid sleep {marker} </dev/null >/dev/null 2>&1 & {{artifact:p}}"
[[benchmark]]
name = "clean"
command = ["{{artifact:p}}"]
"""


def daemons(marker):
    """Pids of the running `sleep <marker>` processes."""
    return live_pids(lambda args: marker.encode() in args)


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-leftover-") as tmp:
        for mode in ("kill", "keep"):
            marker = f"{random.randint(100000, 999999)}.{os.getpid()}"
            extra = 'leftovers = "keep"' if mode == "keep" else ""
            toml = write(os.path.join(tmp, f"{mode}.toml"),
                         CAMPAIGN.format(extra=extra, marker=marker))
            out = os.path.join(tmp, mode)
            r = run([exe, "run", toml, "--dir", out])
            check(r.returncode == 0, f"{mode}: alea run exited {r.returncode}: {r.stderr}")
            con = sqlite3.connect(os.path.join(out, "campaign.db"))
            rows = con.execute("SELECT b.name, e.status, e.leftovers FROM execution e "
                               "JOIN benchmark b ON b.id = e.benchmark_id").fetchall()
            con.close()
            prefix = "killed pid " if mode == "kill" else "left running pid "
            daemon_rows = [x for x in rows if x[0] == "daemon"]
            clean_rows = [x for x in rows if x[0] == "clean"]
            check(len(daemon_rows) == 4 and all(s == "ok" and (l or "").startswith(prefix)
                                                for _, s, l in daemon_rows),
                  f"{mode}: executions of 'daemon': {daemon_rows}")
            check(len(clean_rows) == 4 and all(l is None for _, _, l in clean_rows),
                  f"{mode}: 'clean' was blamed for another's daemon: {clean_rows}")
            warning = "left running: 4 executions of daemon on s left processes running"
            check(warning in r.stdout, f"{mode}: no warning in the report: {r.stdout}")
            alive = daemons(marker)
            if mode == "kill":
                check(not alive, f"kill: daemons still running after the campaign: {alive}")
            else:
                check(len(alive) == 4, f"keep: expected the 4 daemons to run on, found {alive}")
                check("were kept" in r.stdout,
                      f"keep: the report does not say they were kept: {r.stdout}")
                for pid in alive:
                    os.kill(pid, signal.SIGKILL)
    finish("every daemon left by a benchmark was recorded with its execution and reported; "
          "killed by default, kept on request")


if __name__ == "__main__":
    main()
