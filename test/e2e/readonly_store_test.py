#!/usr/bin/env python3
"""Readers open the campaign store read-only (issue 7): `alea report` and
`alea export` never create, migrate or write the file (docs/store.md,
"Reading a store").

1. on a complete store (written by `alea run`) both succeed and leave the
   file's bytes and mtime as they were, whatever the path looks like;
2. in a read-only directory without the WAL's -wal/-shm files they read the
   same data and create nothing (as root, where chmod stops no write, the
   readers run as nobody; the "creates nothing" check holds where the OS
   really keeps the reader out of the directory);
3. next to a live writer (another process holding the store open in WAL mode,
   with commits in its WAL and a write transaction open) a report works and
   sees the last committed snapshot, and the next one sees the commit;
4. an empty file stays 0 bytes, a foreign SQLite file and a file that is not
   SQLite keep their bytes, a missing file is not created: each is refused
   with exit status 1 and ONE line `alea: error: ...`.

Usage: readonly_store_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from e2e_common import check, finish, run

NOBODY = 65534


def drop_root():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def run_as_reader(args):
    """Runs a command as a user for whom file modes are enforced."""
    return run(args, preexec_fn=drop_root if os.geteuid() == 0 else None)


def state(path):
    """What a reader must not change: the bytes and the mtime (ns)."""
    with open(path, "rb") as f:
        return f.read(), os.stat(path).st_mtime_ns


def side_files(path):
    return [s for s in ("-wal", "-shm", "-journal") if os.path.exists(path + s)]


CAMPAIGN = """
[campaign]
seed = "0x5eed"
[levels]
builds = 2
executions = 2
[measure]
source = "none"
[[system]]
name = "a"
baseline = true
build = ["true"]
[[system]]
name = "b"
build = ["true"]
[[benchmark]]
name = "t"
command = ["/bin/true"]
"""


def main():
    alea = os.path.abspath(os.path.join(sys.argv[1], "bin", "alea"))
    with tempfile.TemporaryDirectory(prefix="alea-ro-") as tmp:
        os.chmod(tmp, 0o755)  # the unprivileged reader must reach the stores
        # ... and the executable, wherever the build is (a checkout under a
        # 0700 directory is out of its reach): a copy of it, beside them.
        reader = shutil.copy2(alea, os.path.join(tmp, "alea"))
        campaign = os.path.join(tmp, "c.toml")
        with open(campaign, "w") as f:
            f.write(CAMPAIGN)
        cdir = os.path.join(tmp, "run #1")  # characters a file: URI must escape
        r = run([alea, "run", campaign, "--dir", cdir, "--no-report"])
        check(r.returncode == 0, f"alea run: exit {r.returncode}: {r.stderr}")
        db = os.path.join(cdir, "campaign.db")
        check(side_files(db) == [], f"the run left {side_files(db)}")

        # 1. a complete store: readers change nothing in it
        before = state(db)
        r = run([alea, "export", cdir])
        check(r.returncode == 0 and r.stdout.count("\n") == 2 + 8,  # settings, header, rows
              f"export: exit {r.returncode}, {r.stdout.count(chr(10))} lines: {r.stderr}")
        exported = r.stdout
        for args in (["report", cdir], ["report", db, "--format", "json"],
                     ["export", db, "-o", os.path.join(tmp, "out.csv")]):
            r = run([alea] + args)
            check(r.returncode == 0, f"alea {' '.join(args)}: exit {r.returncode}: {r.stderr}")
        r = run([alea, "export", "campaign.db"], cwd=cdir)  # a relative path
        check(r.returncode == 0 and r.stdout == exported, f"export of a relative path: {r.stderr}")
        check(open(os.path.join(tmp, "out.csv")).read() == exported, "export -o differs")
        check(state(db) == before, "report/export changed the store's bytes or mtime")

        # 2. a read-only directory without -wal/-shm files
        for s in side_files(db):  # left by the readers above; no writer is running
            os.remove(db + s)
        # alea makes the store private (0600); this reader is another user,
        # whom the owner lets read it
        os.chmod(db, 0o644)
        os.chmod(cdir, 0o555)
        try:
            r = run_as_reader([reader, "export", cdir])
            check(r.returncode == 0 and r.stdout == exported,
                  f"export in a read-only directory: exit {r.returncode}: {r.stderr}")
            r = run_as_reader([reader, "report", cdir, "--format", "json"])
            check(r.returncode == 0 and json.loads(r.stdout or "{}").get("campaign", {})
                  .get("measurements") == 8,
                  f"report in a read-only directory: exit {r.returncode}: {r.stderr}")
            check(state(db) == before, "a reader changed the store in a read-only directory")
            enforced = run_as_reader(["/bin/sh", "-c", 'test -w "$0"', cdir]).returncode != 0
            if enforced:
                check(side_files(db) == [],
                      f"readers created {side_files(db)} in a read-only directory")
        finally:
            os.chmod(cdir, 0o755)

        # 3. a live writer in another process: commits in its WAL, and a write
        # transaction open while the first report reads
        live = os.path.join(tmp, "live")
        os.mkdir(live)
        shutil.copy(db, os.path.join(live, "campaign.db"))
        writer = sqlite3.connect(os.path.join(live, "campaign.db"), isolation_level=None)
        try:
            check(writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal", "not WAL")
            writer.execute("INSERT INTO meta(key, value) VALUES('note', 'committed')")
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("DELETE FROM measurement WHERE execution_id = "
                           "(SELECT min(id) FROM execution)")
            r = run([alea, "report", live, "--format", "json"])
            check(r.returncode == 0 and json.loads(r.stdout or "{}").get("campaign", {})
                  .get("measurements") == 8,
                  f"report next to a writer's open transaction: {r.returncode}: {r.stderr}")
            writer.execute("COMMIT")
            r = run([alea, "report", live, "--format", "json"])
            check(r.returncode == 0 and json.loads(r.stdout or "{}").get("campaign", {})
                  .get("measurements") == 7,
                  f"report after the writer's commit: {r.returncode}: {r.stderr}")
        finally:
            writer.close()

        # 4. files that are not alea stores: one error line, nothing changed
        empty = os.path.join(tmp, "empty.db")
        open(empty, "w").close()
        foreign = os.path.join(tmp, "foreign.db")
        con = sqlite3.connect(foreign)
        con.execute("CREATE TABLE notes(text)")
        con.commit()
        con.close()
        text = os.path.join(tmp, "notes.db")
        with open(text, "w") as f:
            f.write(exported)
        missing = os.path.join(tmp, "missing.db")
        cases = [(empty, f"'{empty}' is empty, not an alea store"),
                 (foreign, f"'{foreign}' is not an alea store (no such table: meta)"),
                 (text, f"'{text}' is not an alea store (not an SQLite database)"),
                 (missing, f"no such campaign store: '{missing}'")]
        for path, message in cases:
            was = state(path) if os.path.exists(path) else None
            for args in (["export", path], ["export", path, "-o", os.path.join(tmp, "x.csv")],
                         ["report", path]):
                r = run([alea] + args)
                check(r.returncode == 1 and r.stderr == f"alea: error: {message}\n",
                      f"alea {' '.join(args)}: exit {r.returncode}, stderr {r.stderr!r}, "
                      f"expected {message!r}")
                check((state(path) if os.path.exists(path) else None) == was,
                      f"alea {' '.join(args)} changed or created {path}")
                check(side_files(path) == [], f"alea {' '.join(args)}: {side_files(path)}")
            check(not os.path.exists(os.path.join(tmp, "x.csv")), "an output for no store")

    finish("readers leave a store unchanged, read it in a read-only directory and next "
          "to a live writer, and refuse empty, foreign and missing files in one line")


if __name__ == "__main__":
    main()
