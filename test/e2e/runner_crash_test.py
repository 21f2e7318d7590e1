#!/usr/bin/env python3
"""Crash safety of `alea run`: SIGKILL it at least 20 times, resume each
time, then check that every planned execution was recorded exactly once, that
every measurement of a successful execution exists exactly once, that the
store passes PRAGMA integrity_check, and that the interrupted campaign equals
an uninterrupted one with the same seed (plan, builds, padding).

The kills are aimed with alea's test hook ALEA_TEST_KILL_AT=<point>:<n>
(runner/exec/include/alea/exec/kill_point.hpp): 4 in store creation, 5 among the
builds and 14 among the executions land there on every machine, fast or slow,
idle or busy; 6 more kills at random moments come on top.

Usage: runner_crash_test.py BUILD_DIR SOURCE_DIR"""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

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


def run_alea(alea, campaign, out_dir, kill_at=None, **kw):
    env = dict(os.environ)
    env.pop("ALEA_TEST_KILL_AT", None)
    # The runs' temporary files in the test's own directory: the scratch
    # directories killed runs leave are counted there (scratch_dirs).
    env["TMPDIR"] = os.path.join(os.path.dirname(campaign), "tmp")
    if kill_at:
        env["ALEA_TEST_KILL_AT"] = kill_at
    return subprocess.Popen([alea, "run", campaign, "--dir", out_dir, "--no-report"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, **kw)


def scratch_dirs(campaign):
    """The execution scratch directories (runner/exec/.../scratch.hpp) in the
    runs' TMPDIR."""
    tmp = os.path.join(os.path.dirname(campaign), "tmp")
    return sorted(n for n in os.listdir(tmp) if n.startswith("alea-scratch-"))


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


def counts(db):
    """(builds, executions) recorded so far; (0, 0) before the schema exists."""
    if not os.path.exists(db):
        return 0, 0
    con = sqlite3.connect(db)
    try:
        (b,) = con.execute("SELECT count(*) FROM build").fetchone()
        (e,) = con.execute("SELECT count(*) FROM execution").fetchone()
        return b, e
    except sqlite3.Error:
        return 0, 0
    finally:
        con.close()


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
        os.mkdir(os.path.join(tmp, "tmp"))
        out = os.path.join(tmp, "killed")
        db = os.path.join(out, "campaign.db")
        stages = {}

        def killed_run(kill_at, stage):
            """One run that must die by SIGKILL at `kill_at` (ALEA_TEST_KILL_AT):
            the point is reached for certain, whatever the machine's speed."""
            before = counts(db)
            p = run_alea(alea, campaign, out, kill_at)
            _, err = p.communicate(timeout=240)
            if p.returncode != -signal.SIGKILL:
                fail(f"{stage} kill at {kill_at}: alea run exited {p.returncode} instead of "
                     f"dying by SIGKILL: {err.decode()}")
            stages[stage] = stages.get(stage, 0) + 1
            return before, counts(db)

        # Store creation: the migration, the campaign's meta data, the machine
        # record and the systems, each killed before it commits (every resumed
        # run counts its writes from 1 again).
        for n in range(1, 5):
            _, after = killed_run(f"store-write:{n}", "store creation")
            if after != (0, 0):
                fail(f"store-write:{n}: expected no build or execution yet, found {after}")
            if n == 1:
                # Killed while the store's schema was written: a new store
                # appears whole or not at all, so a reader finds no store
                # (not a file without tables, "not an alea store").
                if os.path.exists(db):
                    fail("a store killed during its creation is visible half-made")
                r = subprocess.run([alea, "report", out], capture_output=True, text=True)
                if r.returncode != 1 or "no campaign store in" not in r.stderr:
                    fail(f"report of a store killed during its creation: {r.returncode} "
                         f"{r.stderr!r}")
        # Builds: each run records one build and dies before recording the next
        # (which ran: its directory is moved aside and rebuilt on resume).
        for _ in range(SYSTEMS * BUILDS - 1):
            before, after = killed_run("build:2", "builds")
            if after != (before[0] + 1, 0):
                fail(f"build:2: builds/executions went from {before} to {after}, "
                     "expected exactly one more build")
        # Executions: killed with the k-th execution of the run measured but not
        # yet recorded; exactly k-1 new executions are in the store.
        for _ in range(14):
            k = rng.randint(1, 6)
            before, after = killed_run(f"execution:{k}", "executions")
            if after[1] != before[1] + k - 1:
                fail(f"execution:{k}: executions went from {before[1]} to {after[1]}, "
                     f"expected {before[1] + k - 1}")
        # A run killed among its executions cannot remove its scratch
        # directory (the last one's is there for certain; each run removes
        # those of the runs killed before it).
        left = scratch_dirs(campaign)
        if len(left) < 1:
            fail("the killed runs left no scratch directory: the test shows less than it should")
        # Random kills on top, aimed by a sleep: they land anywhere (in an
        # execution's process, between records, or after the run ended), so
        # they are counted but not attributed to a stage.
        random_kills = 0
        for _ in range(6):
            p = run_alea(alea, campaign, out)
            time.sleep(rng.uniform(0.0, 0.3))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                random_kills += 1
            _, err = p.communicate(timeout=240)
            if p.returncode not in (0, -signal.SIGKILL):
                fail(f"alea run exited {p.returncode}: {err.decode()}")
        kills = sum(stages.values()) + random_kills
        if kills < 20:
            fail(f"only {kills} kills")
        # Resume to completion.
        p = run_alea(alea, campaign, out)
        _, err = p.communicate(timeout=240)
        if p.returncode != 0:
            fail(f"final resume exited {p.returncode}: {err.decode()}")
        check(db, "after kills")
        # The resumed run removed the killed runs' directories, and its own.
        if scratch_dirs(campaign):
            fail(f"scratch directories left after the resumed run: {scratch_dirs(campaign)} "
                 f"(before it: {len(left)})")

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
        print(f"ok: {kills} SIGKILLs ({random_kills} of them at random moments), then resumed: "
              f"{len(a[0])} executions exactly once, integrity ok, same plan/builds/padding "
              f"as an uninterrupted run; deterministic kills by stage: {stages}; the "
              f"scratch directories of killed runs ({len(left)} after the aimed kills) removed "
              f"by the resumed run")


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
