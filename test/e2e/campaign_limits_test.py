#!/usr/bin/env python3
"""`alea run` with numbers beyond what it can hold, and the counts it prints
when stopped early (issue 18 items 7 and 11):

- `timeout = 1e10` (and `inf`, `build_timeout = 1e300`) is refused with its
  file:line:column and the bound, before anything is created; it was accepted
  and every execution then "timed out after 0.00 s";
- `builds = 2147483648` is refused with the real limit;
- levels that plan more than 10^8 executions are refused with the predicted
  count, and run with `--force`;
- a run interrupted (SIGINT) during its builds says how many executions were
  planned ("0 of 12", not "0 of 0"); the kill waits for the file the build
  writes.

Usage: campaign_limits_test.py BUILD_DIR SOURCE_DIR"""
import os
import signal
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, finish, wait_for_file, write

CAMPAIGN = """[campaign]
{campaign}
[levels]
builds = {builds}
executions = {executions}
[[system]]
name = "s"
baseline = true
shell = "{build}"
[[benchmark]]
name = "b"
shell = "true"
[[benchmark]]
name = "c"
shell = "true"
"""


def campaign(tmp, name, campaign="", builds=2, executions=3, build="true"):
    return write(os.path.join(tmp, name + ".toml"),
                 CAMPAIGN.format(campaign=campaign, builds=builds, executions=executions,
                                 build=build))


def refused(exe, toml, expected, what, started=None):
    """Checks that `alea run` refuses the file with the one line `expected`
    (after "file:"); a run that was not refused and writes `started` (its
    build does, then waits forever) is ended once the file exists."""
    out = toml[:-5] + ".alea"
    p = subprocess.Popen([exe, "run", toml, "--no-report"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    while started and p.poll() is None and not os.path.exists(started):
        time.sleep(0.01)
    if started and os.path.exists(started):
        p.kill()
    _, err = p.communicate(timeout=240)
    check(p.returncode == 1 and err == f"alea: error: {toml}:{expected}\n",
          f"{what}: exit {p.returncode}, stderr {err!r}, expected {expected!r}")
    check(not os.path.exists(out), f"{what}: the campaign directory was created")


def interrupted_during_build(exe, toml, started, extra):
    p = subprocess.Popen([exe, "run", toml, "--no-report"] + extra,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_file(started, p)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    check(p.returncode == 130, f"SIGINT during a build: exit {p.returncode}: {err}")
    return err


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-limits-") as tmp:
        bound = "at most 1000000000 seconds (about 31 years; a longer one overflows the clock)"
        refused(exe, campaign(tmp, "t1", "timeout = 1e10"),
                f"2:11: expected a timeout > 0 and {bound} for campaign.timeout",
                "timeout = 1e10")
        refused(exe, campaign(tmp, "t2", "timeout = inf"),
                f"2:11: expected a timeout > 0 and {bound} for campaign.timeout", "timeout = inf")
        refused(exe, campaign(tmp, "t3", "build_timeout = 1e300"),
                f"2:17: expected a build timeout > 0 and {bound} for campaign.build_timeout",
                "build_timeout = 1e300")
        refused(exe, campaign(tmp, "t4", builds=2147483648),
                '4:10: expected an integer in [1, 1000000] or "auto" for levels.builds',
                "builds = 2147483648")
        big = campaign(tmp, "big", builds=100, executions=1000000,
                       build=f"touch {tmp}/big-started; while [ ! -e {tmp}/never ]; do sleep 0.01; done")
        refused(exe, big, "3:1: the levels plan 200000000 executions (1 system x 2 benchmarks "
                          "x 100 builds x 1000000 executions), more than the 100000000 alea plans "
                          "unless forced; lower the levels, or run them anyway with `alea run "
                          "--force`", "10^8 executions", os.path.join(tmp, "big-started"))

        # Forced, it runs: interrupted in its first build, it says what was planned.
        err = interrupted_during_build(exe, big, os.path.join(tmp, "big-started"), ["--force"])
        check("alea: 0 of 200000000 executions recorded" in err, f"--force, interrupted: {err}")

        small = campaign(tmp, "small", builds=2, executions=3,
                         build=f"touch {tmp}/small-started; while [ ! -e {tmp}/never ]; do sleep 0.01; done")
        err = interrupted_during_build(exe, small, os.path.join(tmp, "small-started"), [])
        check("alea: 0 of 12 executions recorded" in err,
              f"interrupted during builds: the planned count is not given: {err}")
    finish("timeouts beyond the clock and counts beyond their limit are refused with "
           "file:line:column and the bound, 10^8 executions need --force, and an interrupted "
           "run gives the planned count")


if __name__ == "__main__":
    main()
