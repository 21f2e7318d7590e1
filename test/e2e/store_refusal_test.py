#!/usr/bin/env python3
"""An existing store that is not one is an error naming the file, and is left
exactly as it was (issue 18 item 5).

A campaign is killed (SIGKILL, once its first execution has written a file),
which leaves campaign.db with its -wal and -shm; then campaign.db is
truncated to 0 bytes. `alea run --resume` and `alea run` must both refuse it
with one error line naming the file, and change nothing: the same bytes in
campaign.db, -wal and -shm, the build directories not moved aside, no
process started. The same for a file that is not SQLite and for another
program's SQLite database. `--resume` on a directory without a store creates
nothing.

Usage: store_refusal_test.py BUILD_DIR SOURCE_DIR"""
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, run, wait_for_file, write

CAMPAIGN = """
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "true"
[[benchmark]]
name = "b"
shell = "if [ ! -e {tmp}/ran ]; then touch {tmp}/ran; while [ ! -e {tmp}/never ]; do sleep 0.01; done; fi; touch {tmp}/ran-again"
"""


def state(directory):
    """Every file under `directory` with the sha256 of its content, but the
    lock file (which names its last holder, a refused run included)."""
    files = {}
    for root, dirs, names in os.walk(directory):
        for d in dirs:
            files[os.path.relpath(os.path.join(root, d), directory) + "/"] = ""
        for n in names:
            path = os.path.join(root, n)
            if path == os.path.join(directory, "lock"):
                continue
            with open(path, "rb") as f:
                files[os.path.relpath(path, directory)] = hashlib.sha256(f.read()).hexdigest()
    return files


def refused(exe, toml, out, store, args, what):
    """Runs alea with `args`; checks the one-line error naming `store` and
    that nothing under `out` changed."""
    before = state(out)
    r = run([exe, "run", toml, "--dir", out, "--no-report"] + args)
    lines = r.stderr.strip().split("\n")
    check(r.returncode == 1, f"{what} {args}: exit {r.returncode}, expected 1: {r.stderr}")
    check(len(lines) == 1 and lines[0].startswith("alea: error: '" + store + "' "),
          f"{what} {args}: not one error line naming the store: {r.stderr!r}")
    check(state(out) == before, f"{what} {args}: the campaign directory changed")
    return lines[0]


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-refusal-") as tmp:
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN.format(tmp=tmp))

        # A store truncated after a kill -9: 0 bytes, its -wal and -shm beside it.
        out = os.path.join(tmp, "killed")
        store = os.path.join(out, "campaign.db")
        p = subprocess.Popen([exe, "run", toml, "--dir", out, "--no-report"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_for_file(os.path.join(tmp, "ran"), p)
        p.kill()
        p.communicate(timeout=120)
        check(os.path.getsize(store + "-wal") > 0 and os.path.exists(store + "-shm"),
              "the killed run left no -wal/-shm: the test shows less than it should")
        os.truncate(store, 0)
        for args in (["--resume"], []):
            e = refused(exe, toml, out, store, args, "empty store")
            check("is empty, not an alea store" in e and "does not replace" in e, e)
        check(not os.path.exists(os.path.join(tmp, "ran-again")), "a benchmark ran")
        check(sorted(os.listdir(os.path.join(out, "builds", "s"))) == ["0", "1"],
              "build directories were moved aside")

        # A file that is not SQLite, and another program's database.
        junk = os.path.join(tmp, "junk")
        os.mkdir(junk)
        with open(os.path.join(junk, "campaign.db"), "wb") as f:
            f.write(b"not a database, but someone's file\n" * 20)
        e = refused(exe, toml, junk, os.path.join(junk, "campaign.db"), [], "junk file")
        check("is not an alea store (not an SQLite database)" in e, e)
        foreign = os.path.join(tmp, "foreign")
        os.mkdir(foreign)
        con = sqlite3.connect(os.path.join(foreign, "campaign.db"))
        con.execute("CREATE TABLE notes(text)")
        con.execute("INSERT INTO notes VALUES ('mine')")
        con.commit()
        con.close()
        e = refused(exe, toml, foreign, os.path.join(foreign, "campaign.db"), [],
                    "foreign database")
        check("is not an alea store" in e, e)

        # --resume where there is nothing: no store, no directory made.
        nothing = os.path.join(tmp, "nothing")
        r = run([exe, "run", toml, "--dir", nothing, "--resume"])
        check(r.returncode == 1 and "nothing to resume" in r.stderr and
              not os.path.exists(nothing), f"--resume without a store: {r.returncode} {r.stderr}")
    finish("an empty, non-SQLite or foreign store is refused with one line naming it, "
           "with or without --resume, and left byte for byte as it was (-wal and -shm too)")


if __name__ == "__main__":
    main()
