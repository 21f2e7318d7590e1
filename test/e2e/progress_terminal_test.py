#!/usr/bin/env python3
"""`alea run`'s progress bar on a real terminal: tmux (its own server, on a
socket in the test's directory) runs the campaign in a pane, and capture-pane
reads the screen as a user would see it.

The benchmark's fifth execution waits for a file the test creates, so the
screen is read while the campaign is provably in its execution phase: the bar
("[###...] n/12  nn%  failed 0  ETA ...") stands on the last line, with the
build lines above it. Then the test lets it go on and reads the end: the bar
at 12/12 100%, and the report below it. No sleep decides the outcome: each
wait is for an event, bounded only by a safety net far above its duration.

Usage: progress_terminal_test.py BUILD_DIR SOURCE_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, finish, write


def wait_until(what, predicate, limit=240):
    """Polls `predicate` until it holds; the limit is a safety net only."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    print(f"FAIL: {what} did not happen within {limit} s")
    return None


def main():
    exe = alea(sys.argv[1])
    if shutil.which("tmux") is None:
        print("FAIL: tmux is not installed (scripts/setup.sh installs it)")
        sys.exit(1)
    with tempfile.TemporaryDirectory(prefix="alea-tty-") as tmp:
        go, started = os.path.join(tmp, "go"), os.path.join(tmp, "started")
        count = os.path.join(tmp, "count")
        os.mkdir(count)
        # The fifth execution (after four have ended) waits for `go`.
        bench = (f"n=$(ls {count} | wc -l); touch {count}/$$; "
                 f"if [ $n -eq 4 ]; then touch {started}; "
                 f"while [ ! -e {go} ]; do sleep 0.01; done; fi")
        campaign = write(os.path.join(tmp, "c.toml"), f"""
[campaign]
name = "tty"
[levels]
builds = 2
executions = 3
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\ntrue\\\\n' > p; chmod +x p"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "printf '#!/bin/sh\\\\ntrue\\\\n' > p; chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "b"
shell = "{bench}"
""")
        socket = os.path.join(tmp, "tmux.sock")
        tmux = ["tmux", "-S", socket, "-f", "/dev/null"]
        screen = lambda: subprocess.run(tmux + ["capture-pane", "-p", "-t", "alea"],
                                        capture_output=True, text=True).stdout
        command = f"{exe} run {campaign} --dir {tmp}/c.alea --no-report; echo exit=$?; sleep 600"
        subprocess.run(tmux + ["new-session", "-d", "-s", "alea", "-x", "150", "-y", "40",
                               command], check=True)
        try:
            if wait_until("the fifth execution's start", lambda: os.path.exists(started)):
                bar = re.compile(r"^\[[#.]{30}\] +[0-4]/12 +\d+%  failed 0  ETA \S+$")
                text = wait_until("the bar on the screen",
                                  lambda: (lambda s: s if any(bar.match(line.rstrip())
                                                              for line in s.splitlines())
                                           else None)(screen()))
                check(text is not None, f"no bar while executing: {screen()!r}")
                if text:
                    lines = [l.rstrip() for l in text.splitlines() if l.strip()]
                    check(bar.match(lines[-1]) is not None,
                          f"the bar is not the last line: {lines!r}")
                    check(any(l.startswith("building cand #1") for l in lines),
                          f"the build lines stay above the bar: {lines!r}")
                    check(not any("progress:" in l for l in lines),
                          f"plain progress lines on a terminal: {lines!r}")
            write(go, "")
            text = wait_until("the end of the run", lambda: (lambda s: s if "exit=" in s
                                                              else None)(screen()))
            text = text or screen()
            check("exit=0" in text, f"the run did not end with status 0: {text!r}")
            check(re.search(r"\[#{30}\] 12/12 100%  failed 0  ETA 0s", text) is not None,
                  f"no full bar at the end: {text!r}")
        finally:
            subprocess.run(tmux + ["kill-server"], capture_output=True)
    finish("the progress bar in a tmux pane: drawn in place below the build lines, full at "
           "the end")


if __name__ == "__main__":
    main()
