#!/usr/bin/env python3
"""A synchronized duet (issue 19, item 3; docs/campaign.md "Designs").

1. Per-iteration barrier (measure source "records"): two programs built from
   test/e2e/duet/lockstep.c with <alea/iter.h> log each iteration's begin and
   end to one file (one O_APPEND write per line: the file's order is the
   events' order). Partner B's iteration 0 ends only once A has begun
   iteration 1 or sits blocked at the barrier, so without a barrier A always
   runs ahead. Asserted, for every block and every k >= 1: each partner's
   iteration k begins after both partners ended iteration k-1 (an ordering,
   no clock), and the store records the barrier.
2. Whole-process measurements, restarts: base ends at once, cand only once
   base was started twice more after cand began, i.e. once base was restarted
   to keep it company; both executions count, base's restarts are recorded.
3. Whole-process measurements, a partner that fails: base fails (exit 3) and
   is not restarted; cand ends only once base's process is gone (reaped), so
   it ran its last stretch alone: it is recorded with status "alone" and the
   reason, and not counted.

Usage: duet_sync_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

build_dir, source_dir = sys.argv[1], sys.argv[2]
ALEA = alea(build_dir)
INCLUDE = os.path.join(source_dir, "runner", "include")
LOCKSTEP = os.path.join(source_dir, "test", "e2e", "duet", "lockstep.c")
ITERATIONS = 4

if len(os.sched_getaffinity(0)) < 2:
    finish("skipped: a duet needs two CPUs (the refusal is tested by designs_test.py)")
    sys.exit(0)


def campaign(tmp, name, base_shell, cand_shell, command, measure, timeout=120, iterations=1):
    text = f"""
[campaign]
seed = 5
design = "duet"
timeout = {timeout}
[levels]
builds = 2
executions = 1
warmup = 0
iterations = {iterations}
[measure]
{measure}
[[system]]
name = "base"
baseline = true
shell = "{base_shell}"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "{cand_shell}"
artifacts = ["p"]
[[benchmark]]
name = "b"
command = {command}
"""
    path = write(os.path.join(tmp, name + ".toml"), text)
    r = run([ALEA, "run", path, "--no-report"], timeout=600)
    check(r.returncode == 0 or name == "alone", f"{name}: run: {r.returncode} {r.stderr!r}")
    db = sqlite3.connect(os.path.join(tmp, name + ".alea", "campaign.db"))
    rows = db.execute(
        "SELECT s.name, p.block, e.status, e.error, e.overlap, e.duet_sync, e.duet_barriers, "
        "e.duet_restarts, (SELECT count(*) FROM measurement m WHERE m.execution_id = e.id) "
        "FROM plan p JOIN execution e ON e.plan_position = p.position "
        "JOIN system s ON s.id = p.system_id ORDER BY p.block, s.name").fetchall()
    return r, rows, os.path.join(tmp, name + ".alea")


def lockstep_blocks(log_path):
    """The log's lines grouped by block: a block is the lines from its first
    start to the exit of its last process (blocks run one after the other)."""
    blocks, current, running = [], [], set()
    with open(log_path) as f:
        for line in f:
            role, pid, event, k = line.split()
            current.append((role, int(pid), event, int(k)))
            if event == "start":
                running.add(pid)
            elif event == "exit":
                running.discard(pid)
                if not running:
                    blocks.append(current)
                    current = []
    return blocks


with tempfile.TemporaryDirectory() as tmp:
    # 1. The barrier.
    log = os.path.join(tmp, "lockstep.log")
    cc = f"clang-19 -std=c99 -O1 -I{INCLUDE} {LOCKSTEP} -o p"
    r, rows, _ = campaign(tmp, "lockstep", cc, cc.replace("-O1", "-O1 -DROLE_B"),
                          f'["{{artifact:p}}", "{log}"]', 'source = "records"', iterations=ITERATIONS)
    check(len(rows) == 4 and all(s == "ok" for _, _, s, *_ in rows),
          f"lockstep: every execution ok: {rows}")
    check(all(sync == "barrier" and barriers == ITERATIONS and n == ITERATIONS
              for _, _, _, _, _, sync, barriers, _, n in rows),
          f"lockstep: the store records the barrier and every iteration: {rows}")
    blocks = lockstep_blocks(log) if os.path.exists(log) else []
    check(len(blocks) == 2, f"lockstep: two blocks in the log: {len(blocks)}")
    for b, lines in enumerate(blocks):
        at = {(role, event, k): i for i, (role, _, event, k) in enumerate(lines)}
        for k in range(1, ITERATIONS):
            for role in "AB":
                begin = at.get((role, "begin", k))
                ends = [at.get((o, "end", k - 1)) for o in "AB"]
                check(begin is not None and None not in ends and begin > max(ends),
                      f"lockstep block {b}: {role} began iteration {k} only after both ended "
                      f"iteration {k - 1}: {lines}")

    # 2. Restarts keep the longer partner company.
    starts = os.path.join(tmp, "starts")
    base = write(os.path.join(tmp, "base.sh"), f"#!/bin/sh\necho start >> {starts}\n")
    cand = write(os.path.join(tmp, "cand.sh"),
                 "#!/bin/sh\n"
                 f"n0=$(cat {starts} 2>/dev/null | wc -l)\n"
                 f"while [ $(( $(cat {starts} 2>/dev/null | wc -l) - n0 )) -lt 2 ]; do\n"
                 "  sleep 0.01\n"
                 "done\n")
    r, rows, d = campaign(tmp, "company", f"cp {base} p && chmod +x p",
                          f"cp {cand} p && chmod +x p", '["{artifact:p}"]',
                          'source = "none"', timeout=60)
    check(len(rows) == 4 and all(s == "ok" and sync == "overlap" and n == 1
                                 for _, _, s, _, _, sync, _, _, n in rows),
          f"company: every execution counted: {rows}")
    check(all(restarts >= 1 for sys_, _, _, _, _, _, _, restarts, _ in rows if sys_ == "base"),
          f"company: base restarted to keep cand company, recorded: {rows}")
    rep = run([ALEA, "report", d])
    check("kept together" in rep.stdout and "restarting" in rep.stdout,
          f"company: the report says how the duet was kept together: {rep.stdout}")

    # 3. A partner that fails leaves the other alone: not counted.
    pid = os.path.join(tmp, "pid")
    base = write(os.path.join(tmp, "fail.sh"),
                 f"#!/bin/sh\necho $$ > {pid}.tmp && mv {pid}.tmp {pid}\nexit 3\n")
    cand = write(os.path.join(tmp, "wait.sh"),
                 "#!/bin/sh\n"
                 f"while [ ! -s {pid} ]; do sleep 0.01; done\n"
                 f"p=$(cat {pid}); rm -f {pid}\n"
                 "while [ -e /proc/$p ]; do sleep 0.01; done\n")
    r, rows, d = campaign(tmp, "alone", f"cp {base} p && chmod +x p",
                          f"cp {cand} p && chmod +x p", '["{artifact:p}"]',
                          'source = "none"', timeout=60)
    cands = [row for row in rows if row[0] == "cand"]
    bases = [row for row in rows if row[0] == "base"]
    check(len(bases) == 2 and all(s == "exit" for _, _, s, *_ in bases),
          f"alone: base failed: {bases}")
    check(len(cands) == 2 and all(
        s == "alone" and "stopped (exit status 3, expected 0) before it ended" in (err or "")
        and n == 0 for _, _, s, err, _, _, _, _, n in cands),
          f"alone: cand ran alone, recorded with the reason, not counted: {cands}")
    rep = run([ALEA, "report", d])
    check("ran alone" in rep.stdout + rep.stderr,
          f"alone: the report shows why cand's executions are not counted: {rep.stdout}")

finish("a duet's partners advance in lock step (records) or keep running until both end "
       "(whole process); an execution a partner left alone is not counted")
