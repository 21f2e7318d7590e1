#!/usr/bin/env python3
"""Nothing a `kill -9`'d `alea run` started runs on beside the resumed
campaign (issue 18 item 6).

alea's own child dies with it (PR_SET_PDEATHSIG), but what that child started
does not: here a build that leaves a background `sleep`, then a shell
benchmark that starts three: one in the background, one that ignores SIGTERM,
and one that left the process group and the session (`setsid`). alea is
killed (SIGKILL) once the build, then the benchmark, has written the file that
says its children run; the test checks they are still running (re-parented,
not alea's any more), then resumes. The resumed run must end them before it
builds or measures anything, record the benchmark's as leftovers of the
interrupted execution (store column `execution.leftovers`, the report's
"left running" warning), and say which build's it ended.

Every kill waits for a file the campaign writes and every check for a state:
no sleep decides anything. Each `sleep` has a duration unique to this test
run, so the test finds exactly its own processes in /proc.

Usage: killed_run_children_test.py BUILD_DIR SOURCE_DIR"""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, finish, live_pids, run, wait_for_file, write

# One build at a time, so that build s #0 is the one that leaves the sleep
# (e2e-parallel_builds kills alea among parallel builds).
CAMPAIGN = """
[campaign]
timeout = 600
build_jobs = 1
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "if [ ! -e {tmp}/build-started ]; then sleep {m[0]} & touch {tmp}/build-started; wait; fi"
[[benchmark]]
name = "tree"
shell = "if [ ! -e {tmp}/bench-started ]; then sleep {m[1]} & (trap '' TERM; exec sleep {m[2]}) & setsid sleep {m[3]} </dev/null >/dev/null 2>&1 & touch {tmp}/bench-started; wait; fi"
"""

SAFETY = 120  # seconds: only ends a wait for a state that never comes (a bug)


def running(marker):
    """Pids of the live `sleep <marker>` processes."""
    return live_pids(lambda args: args[:2] == [b"sleep", marker.encode()])


def wait_until(what, condition):
    """Waits for a state; False if it never came within the safety limit."""
    give_up = time.monotonic() + SAFETY
    while not condition():
        if time.monotonic() > give_up:
            print(f"FAIL: gave up waiting for {what}")
            return False
        time.sleep(0.01)
    return True


def ignores_sigterm(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigIgn:"):
                return int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)) != 0
    return False


def kill_alea_when(exe, toml, out, started, markers):
    """Starts `alea run`, waits until the file `started` exists and every
    marked sleep runs, then kills alea with SIGKILL. The sleeps' pids, and
    what alea wrote to stderr."""
    p = subprocess.Popen([exe, "run", toml, "--dir", out, "--no-report"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_file(started, p)
    ok = wait_until(f"sleeps {markers}", lambda: all(len(running(m)) == 1 for m in markers))
    p.kill()
    _, err = p.communicate(timeout=SAFETY)
    check(p.returncode == -signal.SIGKILL, f"alea was not killed by SIGKILL: {p.returncode} {err}")
    if not ok:
        sys.exit(1)
    return {m: running(m)[0] for m in markers}, err


def main():
    exe = alea(sys.argv[1])
    base = f"{random.randint(100000, 999999)}"
    markers = [f"{base}.{i}" for i in range(1, 5)]
    try:
        with tempfile.TemporaryDirectory(prefix="alea-killed-") as tmp:
            toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN.format(tmp=tmp, m=markers))
            out = os.path.join(tmp, "camp")

            # 1. Killed during build s #0, whose command left a sleep behind.
            build_pids, _ = kill_alea_when(exe, toml, out, os.path.join(tmp, "build-started"),
                                        markers[:1])
            check(running(markers[0]) == [build_pids[markers[0]]],
                  "the build's sleep did not outlive alea: the test shows nothing")

            # 2. Resumed, killed during the first execution: by then the
            # build's sleep must be gone (ended before anything was built).
            bench_pids, err = kill_alea_when(exe, toml, out, os.path.join(tmp, "bench-started"),
                                        markers[1:])
            check(not running(markers[0]),
                  f"build's sleep {build_pids} still runs beside the resumed campaign")
            said = f"ended pid {build_pids[markers[0]]} (sleep), left running by build s #0"
            check(said in err, f"the resumed run does not say what it ended: {err}")
            check(ignores_sigterm(bench_pids[markers[2]]),
                  "the SIGTERM-ignoring sleep does not ignore SIGTERM: the test shows nothing")
            check(all(running(m) == [bench_pids[m]] for m in markers[1:]),
                  "the benchmark's sleeps did not outlive alea: the test shows nothing")

            # 3. Resumed to the end.
            r = run([exe, "run", toml, "--dir", out, "--resume"], timeout=SAFETY)
            check(r.returncode == 0, f"final resume: exit {r.returncode}: {r.stderr}")
            alive = {m: running(m) for m in markers if running(m)}
            check(not alive, f"still running after the resumed campaign: {alive}")

            con = sqlite3.connect(os.path.join(out, "campaign.db"))
            rows = con.execute("SELECT status, leftovers FROM execution "
                               "WHERE leftovers IS NOT NULL").fetchall()
            (n_ok,) = con.execute("SELECT count(*) FROM execution WHERE status = 'ok'").fetchone()
            con.close()
            check(n_ok == 4, f"{n_ok} of 4 executions ok")
            check(len(rows) == 1, f"expected the interrupted execution's leftovers: {rows}")
            if rows:
                text = rows[0][1]
                check(text.startswith("killed "), f"leftovers: {text!r}")
                for m in markers[1:]:
                    check(f"pid {bench_pids[m]} (sleep)" in text,
                          f"pid {bench_pids[m]} (sleep {m}) not in the leftovers: {text!r}")
                check(f"pid {build_pids[markers[0]]} " not in text,
                      f"the build's process is blamed on an execution: {text!r}")
            check("left running: 1 execution of tree on s" in r.stdout and
                  "alea killed them" in r.stdout,
                  f"the report does not warn about them: {r.stdout}")
    finally:
        for m in markers:  # a failed run must not leave sleeps behind
            for pid in running(m):
                os.kill(pid, signal.SIGKILL)
    finish("a kill -9'd run's build and benchmark children (a background job, a SIGTERM-"
           "ignoring one, a setsid one) were ended by the resumed run and recorded as the "
           "interrupted execution's leftovers")


if __name__ == "__main__":
    main()
