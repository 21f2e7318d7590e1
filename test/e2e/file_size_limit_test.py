#!/usr/bin/env python3
"""`alea run` under a file size limit (`ulimit -f`, RLIMIT_FSIZE) that its
store outgrows (issue 18 item 7): alea must not die by SIGXFSZ without a word
(the signal's default action) but stop with one error line that names the
file and the limit, keep what it recorded, and resume once the limit is gone.

The limit is set in the child before exec; the signal's disposition is the
default there (Python's subprocess restores SIGXFSZ, which Python itself
ignores). The store outgrows 256 KiB for sure: 2 x 3 executions of 3000
iterations each are about 200 KiB of measurements, plus the WAL's frames.

Usage: file_size_limit_test.py BUILD_DIR SOURCE_DIR"""
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

LIMIT = 256 << 10

CAMPAIGN = """
[levels]
builds = 2
executions = 3
iterations = 3000
[measure]
source = "regex"
regex = 't=([0-9.]+)'
[[system]]
name = "s"
baseline = true
shell = "true"
[[benchmark]]
name = "many"
shell = "awk 'BEGIN{{for(i=0;i<3000;i++) print \\"t=\\" (1+i%7)/1000}'"
"""


def limited():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-fsize-") as tmp:
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
        out = os.path.join(tmp, "camp")
        store = os.path.join(out, "campaign.db")
        r = subprocess.run([exe, "run", toml, "--dir", out, "--no-report"], capture_output=True,
                           text=True, timeout=240, preexec_fn=limited)
        check(r.returncode == 1,
              f"under `ulimit -f`: exit {r.returncode} (-{signal.SIGXFSZ} is death by SIGXFSZ), "
              f"expected 1: {r.stderr}")
        errors = [l for l in r.stderr.splitlines() if l.startswith("alea: error: ")]
        check(len(errors) == 1, f"expected one error line: {r.stderr!r}")
        if errors:
            e = errors[0]
            check(f"'{store}-wal' has reached the file size limit of this process "
                  f"(`ulimit -f`: {LIMIT} bytes" in e, f"the error names no file or limit: {e!r}")
        con = sqlite3.connect(store)
        (kept,) = con.execute("SELECT count(*) FROM execution").fetchone()
        (integrity,) = con.execute("PRAGMA integrity_check").fetchone()
        con.close()
        check(integrity == "ok", f"integrity_check: {integrity}")
        check(0 < kept < 6, f"{kept} executions kept before the limit (expected some, not all)")

        r = run([exe, "run", toml, "--dir", out, "--no-report"])
        check(r.returncode == 0 and "6 of 6 executions recorded" in r.stderr,
              f"resume without the limit: {r.returncode} {r.stderr}")
    finish("under `ulimit -f` alea stops with one line naming the store's WAL and the limit "
           "(no death by SIGXFSZ), keeps what it recorded and resumes without the limit")


if __name__ == "__main__":
    main()
