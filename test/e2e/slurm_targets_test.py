#!/usr/bin/env python3
"""Campaigns through Slurm, on a real single-node cluster the test starts
(targets_fixture.SlurmCluster: munged, slurmctld and slurmd from a generated
slurm.conf under the test's directory).

1. A campaign on a Slurm target: the helper runs in a job of its own
   (exclusive), every execution recorded with the target, the job id recorded
   with its final state, the same plan and builds as the campaign run locally.
2. Faults: the job scancel'ed in the middle of the campaign (the campaign
   submits a new one and goes on), then the host's `alea run` killed with
   SIGKILL; `alea run` again finds the job the killed run left (cancels it if
   it still runs) and finishes: every planned execution recorded exactly once,
   PRAGMA integrity_check ok, every job's state recorded.
3. Ctrl-C: exit status 130, the job cancelled (scancel) and recorded so, no
   job left running; `alea run` again completes the campaign.

Usage: slurm_targets_test.py BUILD_DIR SOURCE_DIR"""
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, check_each_planned_once, finish, run, write
from targets_fixture import SlurmCluster

build_dir = sys.argv[1]
ALEA = alea(build_dir)


def campaign(target, builds=2, executions=2, sleep="0"):
    return f"""
[campaign]
name = "slurm"
seed = 21
[levels]
builds = {builds}
executions = {executions}
[[system]]
name = "base"
baseline = true
shell = "printf '#!/bin/sh\\\\nsleep {sleep}\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[system]]
name = "cand"
shell = "printf '#!/bin/sh\\\\nsleep {sleep}\\\\n' > p && chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "nap"
command = ["{{build_dir}}/p"]
""" + target


TARGET = """
[[target]]
name = "cluster"
slurm = { partition = "debug", time_limit = "30", exclusive = true }
"""


def db(path):
    # Read-only: a connection that may come before alea made the store must
    # not create it (alea refuses an existing empty file as its store).
    return sqlite3.connect(f"file:{os.path.join(path, 'campaign.db')}?mode=ro", uri=True)


with tempfile.TemporaryDirectory() as tmp:
    with SlurmCluster(os.path.join(tmp, "slurm")) as cluster:
        env = dict(os.environ, **cluster.env)

        # --- 1. a campaign through Slurm ----------------------------------------
        local = write(os.path.join(tmp, "local.toml"), campaign(""))
        onslurm = write(os.path.join(tmp, "onslurm.toml"), campaign(TARGET))
        r = run([ALEA, "run", local, "--no-report"], env=env, timeout=600)
        check(r.returncode == 0, f"local: {r.returncode} {r.stderr[-1500:]}")
        r = run([ALEA, "run", onslurm, "--no-report"], env=env, timeout=600)
        check(r.returncode == 0, f"slurm: {r.returncode} {r.stderr[-2000:]}")
        sdir = os.path.join(tmp, "onslurm.alea")
        check_each_planned_once(sdir, "slurm")
        with db(sdir) as c:
            targets = c.execute("SELECT DISTINCT target FROM execution").fetchall()
            jobs = c.execute("SELECT target, job_id, state FROM target_job").fetchall()
            plan = c.execute("SELECT * FROM plan ORDER BY position").fetchall()
            builds = c.execute("SELECT build_index, seed, fingerprint FROM build "
                               "ORDER BY system_id, build_index").fetchall()
        with db(os.path.join(tmp, "local.alea")) as c:
            lplan = c.execute("SELECT * FROM plan ORDER BY position").fetchall()
            lbuilds = c.execute("SELECT build_index, seed, fingerprint FROM build "
                                "ORDER BY system_id, build_index").fetchall()
        check(targets == [("cluster",)], f"slurm: every execution ran on the target: {targets}")
        check(len(jobs) == 1 and jobs[0][2] == "COMPLETED",
              f"slurm: the job is recorded with its final state: {jobs}")
        seen = {j["id"]: j for j in cluster.jobs()}
        check(jobs and jobs[0][1] in seen and seen[jobs[0][1]]["name"].startswith("alea-"),
              f"slurm: the recorded job is Slurm's: {jobs} {seen}")
        check(plan == lplan and builds == lbuilds,
              "slurm: the same plan, seeds and fingerprints as the local campaign")

        # --- 2. scancel, then SIGKILL of the host, then resume -------------------
        fault = write(os.path.join(tmp, "fault.toml"),
                      campaign(TARGET, builds=3, executions=4, sleep="0.1"))
        fdir = os.path.join(tmp, "fault.alea")
        proc = subprocess.Popen([ALEA, "run", fault, "--no-report"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def recorded():
            try:
                with db(fdir) as c:
                    return c.execute("SELECT count(*) FROM execution").fetchone()[0]
            except sqlite3.Error:
                return 0

        def running_job():
            for j in cluster.jobs():
                if j["name"].startswith("alea-") and j["state"] == "RUNNING":
                    return j["id"]
            return None

        # Once a few executions are recorded, cancel the campaign's job.
        while proc.poll() is None and recorded() < 3:
            time.sleep(0.02)
        job = running_job()
        check(job is not None, "faults: the campaign's job runs")
        if job:
            cluster.run(["scancel", job])
            cluster.wait_job(job)
        # The campaign goes on in a new job; then the host is killed.
        at = recorded()
        while proc.poll() is None and recorded() < at + 3:
            time.sleep(0.02)
        check(proc.poll() is None, f"faults: the campaign went on after scancel "
              f"({proc.poll()}, {proc.stderr.read() if proc.poll() is not None else ''})")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        r = run([ALEA, "run", fault, "--no-report"], env=env, timeout=900)
        check(r.returncode == 0, f"faults: the resumed run finishes: {r.returncode} "
              f"{r.stderr[-2000:]}")
        check_each_planned_once(fdir, "faults")
        with db(fdir) as c:
            jobs = c.execute("SELECT job_id, state FROM target_job ORDER BY id").fetchall()
        check(len(jobs) >= 3, f"faults: a job per connection is recorded: {jobs}")
        check(all(state for _, state in jobs), f"faults: every job's state is recorded: {jobs}")
        check(jobs and jobs[0][1].startswith("CANCELLED"),
              f"faults: the scancel'ed job is recorded as cancelled: {jobs}")
        check(jobs and jobs[-1][1] == "COMPLETED", f"faults: the last job completed: {jobs}")
        check(not any(j["state"] in ("RUNNING", "PENDING") for j in cluster.jobs()),
              f"faults: no job left running: {cluster.jobs()}")

        # --- 3. Ctrl-C: the job is cancelled, the run resumes later -------------
        stop = write(os.path.join(tmp, "stop.toml"),
                     campaign(TARGET, builds=2, executions=4, sleep="0.1"))
        tdir = os.path.join(tmp, "stop.alea")
        proc = subprocess.Popen([ALEA, "run", stop, "--no-report"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        fdir = tdir
        while proc.poll() is None and recorded() < 2:
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        proc.wait()
        check(proc.returncode == 130, f"Ctrl-C: alea run exits with 130 ({proc.returncode}): "
              f"{proc.stderr.read()[-1500:]}")
        with db(tdir) as c:
            jobs = c.execute("SELECT job_id, state FROM target_job").fetchall()
        check(len(jobs) == 1 and jobs[0][1].startswith("CANCELLED"),
              f"Ctrl-C: the job was cancelled (scancel) and its state recorded: {jobs}")
        check(not any(j["state"] in ("RUNNING", "PENDING") for j in cluster.jobs()),
              f"Ctrl-C: no job left running: {cluster.jobs()}")
        r = run([ALEA, "run", stop, "--no-report"], env=env, timeout=600)
        check(r.returncode == 0, f"Ctrl-C: the resumed run finishes: {r.stderr[-1500:]}")
        check_each_planned_once(tdir, "Ctrl-C and resume")

finish("Slurm target: same plan and builds as locally, job recorded; scancel + SIGKILL + "
       "resume: every execution exactly once")
