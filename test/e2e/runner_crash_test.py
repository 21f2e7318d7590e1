#!/usr/bin/env python3
"""Crash safety of `alea run` (issue 4): SIGKILL it at random moments (at
least 20 kills, during builds, store creation and executions), resume each
time, then check that every planned execution was recorded exactly once, that
every measurement of a successful execution exists exactly once, that the
store passes PRAGMA integrity_check, and that the interrupted campaign equals
an uninterrupted one with the same seed (plan, builds, padding).

Usage: runner_crash_test.py BUILD_DIR SOURCE_DIR"""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

KILLS = 24
SYSTEMS, BENCHES, BUILDS, EXECS, ITERS, WARMUP = 2, 2, 3, 8, 3, 1

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int n = atoi(getenv("ALEA_ITERATIONS"));
  int us = argc > 1 ? atoi(argv[1]) : 1000;
  for (int i = 0; i < n; ++i) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    usleep(us);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("iter %d: %.9f s\n", i, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
    fflush(stdout);
  }
  return 0;
}
"""

CAMPAIGN = f"""
[campaign]
seed = 77
env_padding = [0, 2048]
timeout = 20

[levels]
builds = {BUILDS}
executions = {EXECS}
iterations = {ITERS}
warmup = {WARMUP}

[measure]
source = "regex"
regex = 'iter [0-9]+: ([0-9.]+) s'

[[system]]
name = "O0"
baseline = true
shell = "$CC -O0 {{source_dir}}/prog.c -o prog"
artifacts = ["prog"]
env = {{ CC = "cc" }}

[[system]]
name = "O2"
shell = "$CC -O2 {{source_dir}}/prog.c -o prog"
artifacts = ["prog"]
env = {{ CC = "cc" }}

[[benchmark]]
name = "short"
command = ["{{artifact:prog}}", "1500"]

[[benchmark]]
name = "long"
command = ["{{artifact:prog}}", "4000"]
"""


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run_alea(alea, campaign, out_dir, **kw):
    return subprocess.Popen([alea, "run", campaign, "--dir", out_dir, "--no-report"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def snapshot(db):
    con = sqlite3.connect(db)
    plan = con.execute("SELECT p.position, s.name, b.name, p.build_index, p.execution_index "
                       "FROM plan p JOIN system s ON s.id=p.system_id "
                       "JOIN benchmark b ON b.id=p.benchmark_id ORDER BY p.position").fetchall()
    builds = con.execute("SELECT s.name, bu.build_index, bu.seed, bu.status, bu.binary_hash "
                         "FROM build bu JOIN system s ON s.id=bu.system_id "
                         "ORDER BY s.name, bu.build_index").fetchall()
    pads = con.execute("SELECT plan_position, env_padding FROM execution "
                       "ORDER BY plan_position").fetchall()
    con.close()
    return plan, builds, pads


def main():
    build_dir = sys.argv[1]
    alea = os.path.join(build_dir, "bin", "alea")
    if not os.access(alea, os.X_OK):
        fail(f"{alea} not built")
    rng = random.Random(20261121)
    with tempfile.TemporaryDirectory(prefix="alea-crash-") as tmp:
        with open(os.path.join(tmp, "prog.c"), "w") as f:
            f.write(PROGRAM)
        campaign = os.path.join(tmp, "crash.toml")
        with open(campaign, "w") as f:
            f.write(CAMPAIGN)
        out = os.path.join(tmp, "killed")
        db = os.path.join(out, "campaign.db")

        kills, finished_early, runs = 0, 0, 0
        stages = {}
        while kills < KILLS:
            runs += 1
            p = run_alea(alea, campaign, out)
            if kills < 8:
                # Early kills: process start, store creation and builds.
                time.sleep(rng.uniform(0.0, 0.4))
            else:
                # Later kills: wait until this run records executions, then kill
                # at a random moment among them.
                before = executions(db)
                deadline = time.time() + 60
                while p.poll() is None and executions(db) <= before and time.time() < deadline:
                    time.sleep(0.005)
                time.sleep(rng.uniform(0.0, 0.08))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()
                kills += 1
                stage = progress(db)
                stages[stage] = stages.get(stage, 0) + 1
            else:
                err = p.stderr.read().decode()
                if p.returncode != 0:
                    fail(f"alea run exited {p.returncode}: {err}")
                finished_early += 1
                # Completed: start over in a fresh directory so that kills go on
                # landing in a running campaign.
                check(db, f"completed run {runs}")
                out = os.path.join(tmp, f"killed{runs}")
                db = os.path.join(out, "campaign.db")
            p.stderr.close()
        # The kills must have landed both before the executions (store
        # creation, builds) and among them, or the test proves less than it says.
        early = sum(n for st, n in stages.items() if st != "executions")
        if early < 2 or stages.get("executions", 0) < 10:
            fail(f"kills by stage {stages}: expected >= 2 before the executions and >= 10 "
                 "among them")
        # Resume to completion.
        p = run_alea(alea, campaign, out)
        _, err = p.communicate(timeout=240)
        if p.returncode != 0:
            fail(f"final resume exited {p.returncode}: {err.decode()}")
        check(db, "after kills")

        ref = os.path.join(tmp, "reference")
        p = run_alea(alea, campaign, ref)
        _, err = p.communicate(timeout=240)
        if p.returncode != 0:
            fail(f"reference run exited {p.returncode}: {err.decode()}")
        check(os.path.join(ref, "campaign.db"), "reference")
        a, b = snapshot(db), snapshot(os.path.join(ref, "campaign.db"))
        if a[0] != b[0]:
            fail("the interrupted campaign's plan differs from the reference")
        if [r[:4] for r in a[1]] != [r[:4] for r in b[1]]:
            fail(f"builds differ from the reference: {a[1]} vs {b[1]}")
        if a[2] != b[2]:
            fail("environment padding differs from the reference")
        print(f"ok: {kills} SIGKILLs over {runs} runs ({finished_early} ran to completion), "
              f"then resumed: {len(a[0])} executions exactly once, integrity ok, "
              f"same plan/builds/padding as an uninterrupted run; kills by stage: {stages}")


def executions(db):
    if not os.path.exists(db):
        return 0
    try:
        con = sqlite3.connect(db)
        (n,) = con.execute("SELECT count(*) FROM execution").fetchone()
        con.close()
        return n
    except sqlite3.Error:
        return 0


def progress(db):
    """Where a kill landed: before any build, during builds, or executions."""
    if not os.path.exists(db):
        return "before-store"
    try:
        con = sqlite3.connect(db)
        (builds,) = con.execute("SELECT count(*) FROM build").fetchone()
        (execs,) = con.execute("SELECT count(*) FROM execution").fetchone()
        con.close()
    except sqlite3.Error:
        return "store-creation"
    if execs == 0:
        return "builds"
    return "executions"


def check(db, when):
    con = sqlite3.connect(db)
    integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
    if integrity != "ok":
        fail(f"{when}: integrity_check: {integrity}")
    planned = SYSTEMS * BENCHES * BUILDS * EXECS
    (n_plan,) = con.execute("SELECT count(*) FROM plan").fetchone()
    if n_plan != planned:
        fail(f"{when}: {n_plan} plan entries, expected {planned}")
    (n_exec, n_pos) = con.execute(
        "SELECT count(*), count(DISTINCT plan_position) FROM execution").fetchone()
    if n_exec != planned or n_pos != planned:
        fail(f"{when}: {n_exec} executions over {n_pos} plan positions, expected {planned}")
    bad = con.execute("SELECT status, error, stderr_tail FROM execution "
                      "WHERE status <> 'ok'").fetchall()
    if bad:
        fail(f"{when}: failed executions: {bad[:3]}")
    rows = con.execute("SELECT execution_id, group_concat(iteration) FROM "
                       "(SELECT execution_id, iteration FROM measurement "
                       "ORDER BY execution_id, iteration) GROUP BY execution_id").fetchall()
    expected = ",".join(str(i) for i in range(ITERS + WARMUP))
    if len(rows) != planned or any(r[1] != expected for r in rows):
        fail(f"{when}: measurements not exactly once per iteration: {rows[:3]}")
    (n_build, n_unique) = con.execute(
        "SELECT count(*), count(DISTINCT system_id || '/' || build_index) FROM build").fetchone()
    if n_build != SYSTEMS * BUILDS or n_unique != n_build:
        fail(f"{when}: {n_build} build rows ({n_unique} distinct), expected {SYSTEMS * BUILDS}")
    (orphans,) = con.execute("SELECT count(*) FROM measurement m LEFT JOIN execution e "
                             "ON e.id = m.execution_id WHERE e.id IS NULL").fetchone()
    if orphans:
        fail(f"{when}: {orphans} measurements without an execution")
    con.close()


if __name__ == "__main__":
    main()
