#!/usr/bin/env python3
"""Campaigns on SSH targets, against a real OpenSSH server the test starts
(targets_fixture.SshServer: its own host and user keys, a free localhost port,
host keys checked), serving as two targets.

1. The same campaign (a C program built by alea-cc with layout randomization)
   run locally, on a pool of two SSH targets, and with machine as a level:
   same plan, same build seeds and fingerprints; every execution ran on a
   target, recorded with its target and its place in the target's sequence;
   both targets were used; the level campaign's build i ran on target i mod 2
   and its report has machine as the top level.
2. Hostile strings: a remote workdir with spaces, quotes, `$(...)` and `;` is
   created literally (0700) and nothing of it runs. A shared library missing
   on the target is reported before the execution. Ctrl-C: exit status 130,
   no helper left running, `alea run` again completes the campaign.
3. Faults: the SSH sessions killed 10 times at random moments during
   executions (campaigns one after the other until 10 kills happened), then
   the host's `alea run` killed with SIGKILL; `alea run` again finishes;
   every planned execution of each store is recorded exactly once and
   PRAGMA integrity_check is ok.

Usage: remote_targets_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, check_each_planned_once, finish, run, write
from targets_fixture import SshServer

build_dir = sys.argv[1]
ALEA = alea(build_dir)

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static unsigned long work(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i) s += i * i ^ (s >> 3);
  return s;
}
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 200000;
  sink = work(n);
  return 0;
}
"""


def campaign(targets="", machines="pool", builds=2, executions=3, loops=200000,
             seed=5):
    text = f"""
[campaign]
name = "remote"
seed = {seed}
machines = "{machines}"
[levels]
builds = {builds}
executions = {executions}
[[system]]
name = "base"
baseline = true
build = ["sh", "-c", "$CC -O2 -o prog {{source_dir}}/prog.c"]
artifacts = ["prog"]
[[system]]
name = "cand"
build = ["sh", "-c", "$CC -O1 -o prog {{source_dir}}/prog.c"]
artifacts = ["prog"]
[[benchmark]]
name = "loop"
command = ["{{build_dir}}/prog", "{loops}"]
"""
    return text + targets


def db(path):
    # Read-only: a connection that may come before alea made the store must
    # not create it (alea refuses an existing empty file as its store).
    return sqlite3.connect(f"file:{os.path.join(path, 'campaign.db')}?mode=ro", uri=True)


def plan_of(path):
    with db(path) as c:
        return c.execute(
            "SELECT p.position, s.name, b.name, p.build_index, p.execution_index "
            "FROM plan p JOIN system s ON s.id = p.system_id "
            "JOIN benchmark b ON b.id = p.benchmark_id ORDER BY p.position").fetchall()


def builds_of(path):
    with db(path) as c:
        return c.execute(
            "SELECT s.name, bu.build_index, bu.seed, bu.fingerprint FROM build bu "
            "JOIN system s ON s.id = bu.system_id ORDER BY s.name, bu.build_index").fetchall()


with tempfile.TemporaryDirectory() as tmp:
    write(os.path.join(tmp, "prog.c"), PROGRAM)
    with SshServer(os.path.join(tmp, "sshd")) as ssh:
        remote = [os.path.join(tmp, "remote-1"), os.path.join(tmp, "remote-2")]

        # --- 1. local, pool, level ---------------------------------------------
        local = write(os.path.join(tmp, "local.toml"), campaign())
        pool = write(os.path.join(tmp, "pool.toml"), campaign(ssh.target_tables(remote)))
        r = run([ALEA, "run", local, "--no-report"], timeout=600)
        check(r.returncode == 0, f"local campaign: {r.returncode} {r.stderr[-2000:]}")
        r = run([ALEA, "run", pool, "--no-report"], timeout=600)
        check(r.returncode == 0, f"pool campaign: {r.returncode} {r.stderr[-2000:]}")
        ldir, pdir = os.path.join(tmp, "local.alea"), os.path.join(tmp, "pool.alea")
        check(plan_of(ldir) == plan_of(pdir), "pool: the same plan as the local campaign")
        lb, pb = builds_of(ldir), builds_of(pdir)
        check(lb == pb and all(b[3] for b in lb),
              f"pool: the same build seeds and fingerprints as locally: {lb} vs {pb}")
        check_each_planned_once(pdir, "pool")
        # The heap start offset applies on the targets as here: the helper, the
        # same alea, writes its runtime there; the same seeds draw the same offsets.
        heap_sql = ("SELECT plan_position, heap_offset, heap_status FROM execution "
                    "ORDER BY plan_position")
        with db(ldir) as c:
            local_heap = c.execute(heap_sql).fetchall()
        with db(pdir) as c:
            pool_heap = c.execute(heap_sql).fetchall()
        check(pool_heap == local_heap and all(h == "applied" for _, _, h in pool_heap),
              f"pool: heap offsets and statuses as locally: {pool_heap} vs {local_heap}")
        with db(pdir) as c:
            rows = c.execute("SELECT target, target_order, machine_id FROM execution "
                             "ORDER BY target, target_order").fetchall()
            machines = c.execute("SELECT target, hostname FROM machine "
                                 "WHERE target IS NOT NULL").fetchall()
            meta = dict(c.execute("SELECT key, value FROM meta").fetchall())
        used = sorted({t for t, _, _ in rows})
        check(used == sorted(ssh.hosts), f"pool: both targets ran executions: {used}")
        for t in used:
            orders = [o for tt, o, _ in rows if tt == t]
            check(orders == list(range(1, len(orders) + 1)),
                  f"pool: {t}'s sequence is recorded 1..n: {orders}")
        check(all(m for _, _, m in rows), "pool: every execution names its machine row")
        check(sorted({t for t, _ in machines}) == sorted(ssh.hosts),
              f"pool: a machine state per target: {machines}")
        check(meta.get("machines") == "pool" and meta.get("targets") == ",".join(ssh.hosts),
              f"pool: recorded in meta: {meta.get('machines')} {meta.get('targets')}")
        for wd in remote:
            mode = stat.S_IMODE(os.stat(wd).st_mode)
            check(mode == 0o700, f"the remote workdir {wd} is private (0700): {oct(mode)}")
        r = run([ALEA, "report", pdir, "--format", "json"])
        check(r.returncode == 0 and "pool of 2 targets" in json.loads(r.stdout)["campaign"]["design_note"],
              f"pool: the report names the targets: {r.stdout[:300]} {r.stderr[-500:]}")
        # Which targets, on which hosts, with which machines: in the JSON and
        # in the text (issue 18, item 11).
        if r.returncode == 0:
            named = json.loads(r.stdout)["campaign"].get("targets", [])
            hosts = dict(machines)
            check([t["name"] for t in named] == ssh.hosts and
                  all(t["hostname"] == hosts[t["name"]] and t["cpus"] > 0 for t in named),
                  f"pool: the JSON report lists each target with its host and CPUs: {named}")
        r = run([ALEA, "report", pdir])
        for t, host in machines:
            check(f"  target (pool) {t}: {host}: " in r.stdout,
                  f"pool: the text report names target {t} on {host}: {r.stdout[:800]}")

        level = write(os.path.join(tmp, "level.toml"),
                      campaign(ssh.target_tables(remote), machines="level", builds=4,
                               executions=2))
        r = run([ALEA, "run", level, "--no-report"], timeout=600)
        check(r.returncode == 0, f"level campaign: {r.returncode} {r.stderr[-2000:]}")
        vdir = os.path.join(tmp, "level.alea")
        check_each_planned_once(vdir, "level")
        with db(vdir) as c:
            placed = c.execute(
                "SELECT DISTINCT p.build_index, e.target FROM execution e "
                "JOIN plan p ON p.position = e.plan_position").fetchall()
        check(all(t == ssh.hosts[b % 2] for b, t in placed) and len(placed) == 4,
              f"level: build i ran on target i mod 2: {placed}")
        local4 = write(os.path.join(tmp, "local4.toml"), campaign(builds=4, executions=2))
        r = run([ALEA, "run", local4, "--no-report"], timeout=600)
        check(r.returncode == 0, f"local campaign (4 builds): {r.stderr[-1000:]}")
        check(plan_of(os.path.join(tmp, "local4.alea")) == plan_of(vdir) and
              builds_of(os.path.join(tmp, "local4.alea")) == builds_of(vdir),
              "level: the same plan, seeds and fingerprints as the local campaign")
        r = run([ALEA, "report", vdir])
        check(r.returncode == 0 and "levels: machine > build > execution" in r.stdout,
              f"level: machine is the top level of the analysis: {r.stdout[:1500]}")

        # --- 2. hostile strings ------------------------------------------------
        pwned = os.path.join(tmp, "pwned")
        hostile = os.path.join(tmp, f"w 'q' \"d\" $(touch {pwned}); `touch {pwned}` x")
        odd = write(os.path.join(tmp, "odd.toml"),
                    campaign(ssh.target_tables([hostile])[0:0] + f"""
[[target]]
name = "odd"
ssh = "{ssh.hosts[0]}"
ssh_options = [{", ".join(json.dumps(o) for o in ssh.ssh_options)}]
workdir = {json.dumps(hostile)}
""", builds=2, executions=1))
        r = run([ALEA, "run", odd, "--no-report"], timeout=600)
        check(r.returncode == 0, f"hostile workdir: {r.returncode} {r.stderr[-1500:]}")
        check(os.path.isdir(hostile) and stat.S_IMODE(os.stat(hostile).st_mode) == 0o700,
              "hostile workdir: created literally, private")
        check(not os.path.exists(pwned), "hostile workdir: nothing of it ran")

        # --- missing shared libraries on the target, reported before running ----
        libs = write(os.path.join(tmp, "libs.toml"), f"""
[campaign]
seed = 4
[levels]
builds = 1
executions = 1
[[system]]
name = "withlib"
build = ["sh", "-c", "printf 'int f(void){{{{return 0;}}' > f.c && $CC -shared -fPIC -o libaleafoo.so f.c && printf 'int f(void); int main(void){{{{return f();}}' > m.c && $CC -o prog m.c -L. -laleafoo"]
artifacts = ["prog"]
factors = "none"
[[benchmark]]
name = "run"
command = ["{{build_dir}}/prog"]
[[target]]
name = "t"
ssh = "{ssh.hosts[0]}"
ssh_options = [{", ".join(json.dumps(o) for o in ssh.ssh_options)}]
workdir = {json.dumps(remote[0])}
""")
        r = run([ALEA, "run", libs, "--no-report"], timeout=600)
        check("lacks shared libraries: libaleafoo.so" in r.stderr,
              f"a library missing on the target is reported: {r.returncode} {r.stderr[-1500:]}")
        check(r.returncode == 3, f"its execution is recorded as failed (exit 3): {r.returncode}")

        # --- Ctrl-C: the executions in flight are cancelled there, resume later ---
        stop = write(os.path.join(tmp, "stop.toml"),
                     campaign(ssh.target_tables(remote), builds=2, executions=10,
                              loops=60000000, seed=77))
        sdir = os.path.join(tmp, "stop.alea")
        proc = subprocess.Popen([ALEA, "run", stop, "--no-report"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        while proc.poll() is None:
            try:
                with db(sdir) as c:
                    if c.execute("SELECT count(*) FROM execution").fetchone()[0] >= 2:
                        break
            except sqlite3.Error:
                pass
            time.sleep(0.01)
        proc.send_signal(signal.SIGINT)
        proc.wait()
        check(proc.returncode == 130, f"Ctrl-C: exit status 130 ({proc.returncode}): "
              f"{proc.stderr.read()[-1500:]}")
        helpers = subprocess.run(["pgrep", "-f", "__target --workdir " + remote[0]],
                                 capture_output=True, text=True).stdout.split()
        check(not helpers, f"Ctrl-C: no helper left running on the targets: {helpers}")
        r = run([ALEA, "run", stop, "--no-report"], timeout=600)
        check(r.returncode == 0, f"Ctrl-C: the resumed run finishes: {r.stderr[-1500:]}")
        check_each_planned_once(sdir, "Ctrl-C and resume")

        # --- 3. faults ---------------------------------------------------------
        # Campaigns one after the other until the sessions were killed 10
        # times (however fast this machine runs them, the kills happen), the
        # last one then SIGKILLed and resumed; each store checked.
        rng = random.Random(3)
        kills = 0
        number = 0

        def start_campaign():
            global number
            number += 1
            path = write(os.path.join(tmp, f"fault{number}.toml"),
                         campaign(ssh.target_tables(remote), builds=4, executions=20,
                                  loops=60000000, seed=100 + number))
            proc = subprocess.Popen([ALEA, "run", path, "--no-report"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            return path, os.path.join(tmp, f"fault{number}.alea"), proc

        def query(fdir, sql, default):
            try:
                with db(fdir) as c:
                    return c.execute(sql).fetchall()
            except sqlite3.Error:
                return default

        path, fdir, proc = start_campaign()
        mark = 0
        while kills < 10:
            if proc.poll() is not None:
                # Finished before 10 kills: it must be complete; go on with another.
                check(proc.returncode == 0, f"faults: campaign {number} ended with "
                      f"{proc.returncode}: {proc.stderr.read()[-2000:]}")
                check_each_planned_once(fdir, f"faults (campaign {number})")
                path, fdir, proc = start_campaign()
                mark = 0
                continue
            # A random moment while executions run, once every target has
            # recorded an execution from a session started after the last
            # kill (the newest machine row among its executions): each target
            # works between two kills, so none is taken out for failing in a row.
            newest = dict(query(fdir, "SELECT target, max(machine_id) FROM execution "
                                      "GROUP BY target", []))
            if any((newest.get(t) or 0) <= mark for t in ssh.hosts):
                time.sleep(0.01)
                continue
            time.sleep(rng.uniform(0, 0.05))
            before = query(fdir, "SELECT coalesce(max(id), 0) FROM machine", [(0,)])[0][0]
            if ssh.kill_sessions() > 0:
                kills += 1
                mark = before  # sessions started after this are killed too
        check(kills == 10, f"faults: the sessions were killed 10 times ({kills})")
        # Then the host itself, mid-campaign (after one more execution).
        count = lambda: query(fdir, "SELECT count(*) FROM execution", [(0,)])[0][0]
        at = count()
        while proc.poll() is None and count() <= at:
            time.sleep(0.01)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        r = run([ALEA, "run", path, "--no-report"], timeout=900)
        check(r.returncode == 0, f"faults: the resumed run finishes: {r.returncode} "
              f"{r.stderr[-2000:]}")
        check_each_planned_once(fdir, f"faults (campaign {number}, SIGKILLed and resumed)")

finish("SSH targets: pool and level match the local campaign, hostile workdir safe, "
       "10 dropped sessions + SIGKILL: every execution exactly once")
