#!/usr/bin/env python3
"""Paired designs and adaptive campaigns through the `alea` executable.

1. A duet campaign on real processes: the two executions of every block meet
   at a rendezvous (each writes to its own FIFO and reads the other's), which
   only completes when they run at the same time; the store records their
   disjoint CPUs and overlap, and the report pairs the builds. On a machine
   with one CPU the file is refused before anything runs, with the reason.
2. An interleaved campaign, finished, then continued with
   `alea run --until-half-width 0.01% --max-builds 5`: builds are added in
   batches up to the cap, the decisions are in the store and the report, and
   the report's JSON carries the design and a noise diagnosis per benchmark.

Usage: designs_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

build_dir = sys.argv[1]
ALEA = alea(build_dir)

# Each system's program: base writes its FIFO then reads cand's; cand the other
# way round. Alone, either would block (and hit the 120 s timeout).
DUET = """
[campaign]
seed = 11
design = "duet"
timeout = 120
[levels]
builds = 2
executions = 2
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\necho x > %s/fifo-base\\\\ncat %s/fifo-cand >/dev/null\\\\n' {source_dir} {source_dir} > p && chmod +x p"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "printf '#!/bin/sh\\\\ncat %s/fifo-base >/dev/null\\\\necho x > %s/fifo-cand\\\\n' {source_dir} {source_dir} > p && chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "meet"
command = ["{artifact:p}"]
"""

INTERLEAVED = """
[campaign]
seed = 12
[levels]
builds = 3
executions = 2
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\nexit 0\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "printf '#!/bin/sh\\\\nexit 0\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "true"
command = ["{artifact:p}"]
"""

with tempfile.TemporaryDirectory() as tmp:
    os.mkfifo(os.path.join(tmp, "fifo-base"))
    os.mkfifo(os.path.join(tmp, "fifo-cand"))
    duet = write(os.path.join(tmp, "duet.toml"), DUET)
    r = run([ALEA, "run", duet, "--no-report"], timeout=600)
    cpus = len(os.sched_getaffinity(0))
    if cpus < 2:
        check(r.returncode == 1 and "expected at least one CPU per system" in r.stderr,
              f"one CPU: the duet is refused before running: {r.returncode} {r.stderr!r}")
    else:
        check(r.returncode == 0, f"duet run: {r.returncode} {r.stderr!r}")
        db = sqlite3.connect(os.path.join(tmp, "duet.alea", "campaign.db"))
        rows = db.execute(
            "SELECT p.block, e.cpus, e.overlap, e.status FROM plan p "
            "JOIN execution e ON e.plan_position = p.position ORDER BY p.block").fetchall()
        check(len(rows) == 8 and all(s == "ok" for _, _, _, s in rows),
              f"every execution met its partner: {rows}")
        blocks = {}
        for block, c, overlap, _ in rows:
            blocks.setdefault(block, []).append(c)
            check(overlap is not None, f"overlap recorded: {rows}")
        check(len(blocks) == 4 and all(len(v) == 2 and v[0] != v[1] for v in blocks.values()),
              f"each block ran on two disjoint CPU sets: {blocks}")
        rep = run([ALEA, "report", os.path.join(tmp, "duet.alea")])
        check("design: duet" in rep.stdout and "pairing: paired by build" in rep.stdout,
              f"the report pairs the duet's builds: {rep.stdout}")
        check("ran beside its partner for" in rep.stdout,
              f"the report says how much the duet's executions overlapped: {rep.stdout}")

    inter = write(os.path.join(tmp, "inter.toml"), INTERLEAVED)
    d = os.path.join(tmp, "inter.alea")
    r = run([ALEA, "run", inter, "--no-report"])
    check(r.returncode == 0, f"interleaved run: {r.returncode} {r.stderr!r}")
    r = run([ALEA, "run", inter, "--no-report", "--until-half-width", "0.01%",
             "--max-builds", "5"])
    check(r.returncode == 0, f"adaptive continuation: {r.returncode} {r.stderr!r}")
    check("adaptive: 3 builds" in r.stderr and "adaptive: 5 builds" in r.stderr,
          f"the decisions are shown: {r.stderr!r}")
    db = sqlite3.connect(os.path.join(d, "campaign.db"))
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    check(meta.get("design") == "interleaved" and meta.get("levels.builds") == "5",
          f"design and the new build count recorded: {meta.get('design')} {meta.get('levels.builds')}")
    n = db.execute("SELECT count(*) FROM execution").fetchone()[0]
    check(n == 5 * 2 * 2, f"executions of 5 builds of 2 systems: {n}")
    blocks = db.execute("SELECT count(DISTINCT block) FROM plan").fetchone()[0]
    check(blocks == 10, f"the batches are planned in blocks too: {blocks}")
    rep = run([ALEA, "report", d, "--format", "json"])
    check(rep.returncode == 0, f"report: {rep.stderr!r}")
    j = json.loads(rep.stdout)
    camp = j["campaign"]
    check(camp["design"] == "interleaved", f"design in JSON: {camp.get('design')}")
    check(len(camp["adaptive_log"]) >= 2, f"adaptive log in JSON: {camp.get('adaptive_log')}")
    check(len(camp["noise"]) == 1 and camp["noise"][0]["benchmark"] == "true",
          f"a noise diagnosis per benchmark: {camp.get('noise')}")

finish("a duet's executions run together on disjoint CPUs; adaptive batches add builds up "
       "to the cap; the report says design, decisions and noise")
