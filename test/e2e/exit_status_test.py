#!/usr/bin/env python3
"""`alea run`'s exit statuses (docs/campaign.md, "Exit status"):

  0    every planned execution recorded, none failed
  1    an error stopped the run (here: a malformed campaign file)
  2    a bad command line
  3    the campaign finished with failed builds or executions (recorded,
       reported: the report is still printed)
  4    the campaign directory is held by another run (concurrent_runs_test.py)
  5    --fail-on: a comparison was decided that way (`alea run` and `alea report`)
  130  interrupted by SIGINT, 143 by SIGTERM (resumable)

The signals are sent while an execution is provably running (the benchmark
creates a file, then waits for one the test never creates), so no sleep
decides the outcome; the --fail-on campaign's values are printed by its
programs (regex source), not timed, so its decisions do not depend on the
machine either.

Usage: exit_status_test.py BUILD_DIR SOURCE_DIR"""
import os
import signal
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, run, wait_for_file, write


def campaign(tmp, name, build, bench):
    return write(os.path.join(tmp, name + ".toml"), f"""
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "{build}"
artifacts = ["p"]
[[benchmark]]
name = "b"
shell = "{bench}"
""")


# Two systems whose program prints its "time": base 1.0xy, slow 1.5xy (x, y:
# the build and execution index), one value per execution through the regex
# source, so that slow is decided slower (ratio about 1.5) on any machine.
def gated_campaign(tmp):
    return write(os.path.join(tmp, "gated.toml"), """
[levels]
builds = 3
executions = 2
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\necho t 1.0$1\\\\n' > p; chmod +x p"
artifacts = ["p"]
[[system]]
name = "slow"
shell = "printf '#!/bin/sh\\\\necho t 1.5$1\\\\n' > p; chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "b"
command = ["{artifact:p}", "{build_index}{execution_index}"]
measure = { source = "regex", regex = 't ([0-9.]+)' }
""")


def run_campaign(exe, path, *extra):
    return run([exe, "run", path, "--dir", path + ".alea", *extra])


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-exit-") as tmp:
        ok = campaign(tmp, "ok", "printf '#!/bin/sh\\\\ntrue\\\\n' > p; chmod +x p", "{artifact:p}")
        r = run_campaign(exe, ok)
        check(r.returncode == 0, f"clean campaign: exit {r.returncode}: {r.stderr}")

        bad_exec = campaign(tmp, "failing", "printf '#!/bin/sh\\\\nexit 1\\\\n' > p; chmod +x p",
                            "{artifact:p}")
        r = run_campaign(exe, bad_exec)
        check(r.returncode == 3, f"all executions fail: exit {r.returncode}, expected 3")
        check("4 failed" in r.stderr, f"failures not reported: {r.stderr}")
        check("failures (recorded, not used as data)" in r.stdout,
              f"the report is still printed: {r.stdout!r}")

        bad_build = campaign(tmp, "nobuild", "exit 2", "{artifact:p}")
        r = run_campaign(exe, bad_build, "--no-report")
        check(r.returncode == 3, f"all builds fail: exit {r.returncode}, expected 3: {r.stderr}")

        malformed = os.path.join(tmp, "malformed.toml")
        write(malformed, "[levels]\nbuilds = -1\n")
        r = run_campaign(exe, malformed)
        check(r.returncode == 1 and r.stderr.startswith("alea: error: "),
              f"malformed file: exit {r.returncode}: {r.stderr}")

        r = run([exe, "run", ok, "--no-such-option"])
        check(r.returncode == 2, f"bad option: exit {r.returncode}, expected 2")
        r = run([exe, "run"])
        check(r.returncode == 2, f"missing argument: exit {r.returncode}, expected 2")
        r = run([exe, "run", ok, "--format", "pdf"])
        check(r.returncode == 2, f"bad --format: exit {r.returncode}, expected 2")

        gated = gated_campaign(tmp)
        r = run_campaign(exe, gated, "--fail-on", "slower")
        check(r.returncode == 5, f"--fail-on slower on a slower system: exit {r.returncode}, "
              f"expected 5: {r.stderr}")
        check("alea:   b: slow vs base slower (ratio 1.495)" in r.stderr,
              f"the failing comparison is not named: {r.stderr}")
        check("slow vs base: 1.495 (49.5% slower)" in r.stdout, f"the report is still printed: {r.stdout!r}")
        for failOn, expected in (("faster", 0), ("change", 5), ("slower", 5)):
            r = run([exe, "report", gated + ".alea", "--fail-on", failOn])
            check(r.returncode == expected,
                  f"report --fail-on {failOn}: exit {r.returncode}, expected {expected}: {r.stderr}")
        r = run([exe, "report", gated + ".alea"])
        check(r.returncode == 0, f"report without --fail-on: exit {r.returncode}: {r.stderr}")
        r = run([exe, "report", gated + ".alea", "--fail-on", "worse"])
        check(r.returncode == 2, f"--fail-on worse: exit {r.returncode}, expected 2")
        # --no-report still gates (the report is made, not printed); failed
        # executions exit 3 unless the gate fails.
        r = run_campaign(exe, gated, "--no-report", "--fail-on", "slower")
        check(r.returncode == 5 and r.stdout == "", f"--no-report --fail-on: exit {r.returncode}, "
              f"stdout {r.stdout!r}")

        for sig, expected in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            started = os.path.join(tmp, f"started-{sig}")
            held = campaign(tmp, f"held{int(sig)}", "printf '#!/bin/sh\\\\ntrue\\\\n' > p; chmod +x p",
                            f"touch {started}; while [ ! -e {tmp}/never ]; do sleep 0.01; done")
            p = subprocess.Popen([exe, "run", held, "--dir", held + ".alea"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            wait_for_file(started, p)
            p.send_signal(sig)
            _, err = p.communicate(timeout=120)
            check(p.returncode == expected,
                  f"{signal.Signals(sig).name}: exit {p.returncode}, expected {expected}: {err}")
            check("run the same command again to resume" in err, f"no resume hint: {err}")
    finish("exit statuses 0, 1, 2, 3, 5, 130 and 143 as documented")


if __name__ == "__main__":
    main()
