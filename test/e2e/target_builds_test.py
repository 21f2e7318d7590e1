#!/usr/bin/env python3
"""Builds on targets (`build_on = "targets"`; docs/targets.md, "Builds on
targets"): a campaign of 2 systems x 3 builds of a small C program built with
alea-cc, made on the host, on two SSH targets of the fixture's sshd
(targets_fixture.SshServer) and in a job step of the fixture's Slurm cluster
(targets_fixture.SlurmCluster).

  the three places      the same seeds, the same artifact hashes (the objects'
                        SHA-256) and fingerprints per (system, build); over SSH
                        the artifacts come back into the host's build directory
                        and objects/, with the wrapper log (ALEA_LOG)
  the build cache       over SSH each target's own: the same artifacts, the
                        wrapper logs back, saying what was reused
  a target lost         the helper killed while a build runs there (the build
                        waits for the kill: it announces itself with a
                        directory, then sleeps): every (system, build) recorded
                        exactly once, with the host's artifacts
  a build killing its   (it SIGKILLs the helper above it, every time) lost,
  target                built again, lost again: recorded failed after 3 losses
  a failing build       recorded failed once, never built again
  config errors         build_on = "targets" without [[target]], a bad value:
                        one line each, with the line and column

Usage: target_builds_test.py BUILD_DIR SOURCE_DIR"""
import glob
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from e2e_common import alea, check, finish, run, write
from targets_fixture import SlurmCluster, SshServer

ALEA = alea(sys.argv[1])

PROGRAM = r"""#include <stdio.h>
static int work(int n) { int s = 0; for (int i = 0; i < n; ++i) s += i % 7; return s; }
static int more(int n) { return work(n) + work(n / 2); }
int main(void) { printf("%d\n", more(KERNEL)); return 0; }
"""

# The sources are compiled by a relative name: the layout pass salts each
# module's draws with its name, which must not be the place's own path.
# A compile, then a link: the build cache takes compiles (-c) only.
BUILD = "{hang}cp {{source_dir}}/prog.c . && $CC -O2 -DKERNEL={kernel} -c prog.c && $CC prog.o -o prog"


def campaign(where="", targets="", hang="", builds=3, systems=(("small", 1000), ("large", 2000)),
             log=True):
    text = f"""
[campaign]
name = "target builds"
seed = "0x7a6"
{where}
[levels]
builds = {builds}
executions = 1
"""
    for i, (name, kernel) in enumerate(systems):
        text += f"""
[[system]]
name = "{name}"
baseline = {"true" if i == 0 else "false"}
shell = {json.dumps(BUILD.format(hang=hang, kernel=kernel))}
artifacts = ["prog"]
{'env = { ALEA_LOG = "wrapper.log" }' if log else ""}
"""
    return text + """
[[benchmark]]
name = "prog"
command = ["{artifact:prog}"]
""" + targets


SLURM_TARGET = """
[[target]]
name = "cluster"
slurm = { partition = "debug", time_limit = "30", exclusive = true }
"""


def helper_of(pid):
    """The `alea __target` process above `pid` (None if there is none)."""
    while pid > 1:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"\0__target\0" in f.read():
                    return pid
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            return None
    return None


def builds(directory):
    """{(system, build index): (seed, artifact hash, fingerprint, status)};
    checks that each is recorded once."""
    with sqlite3.connect(f"file:{os.path.join(directory, 'campaign.db')}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT s.name, b.build_index, b.seed, b.binary_hash, b.fingerprint, "
                          "b.status, count(*) OVER (PARTITION BY s.name, b.build_index) "
                          "FROM build b JOIN system s ON s.id = b.system_id").fetchall()
    check(all(r[6] == 1 for r in rows), f"a build recorded twice in {directory}: {rows}")
    return {(r[0], r[1]): r[2:6] for r in rows}


def run_campaign(path, what, env=None, code=0):
    r = run([ALEA, "run", path, "--no-report"], timeout=600, env=env)
    check(r.returncode == code, f"{what}: exit {r.returncode}, expected {code}: {r.stderr[-2000:]}")
    return r


with tempfile.TemporaryDirectory() as top:
    # The campaign files' directory, staged to the SSH targets, holds the
    # source and the campaign directories; the fixtures and workdirs are
    # beside it.
    tmp = os.path.join(top, "src")
    os.makedirs(os.path.join(tmp, ".git"))
    write(os.path.join(tmp, ".git", "HEAD"), "ref: refs/heads/main\n")
    write(os.path.join(tmp, "prog.c"), PROGRAM)

    # --- config errors ----------------------------------------------------------
    for where, expect in [('build_on = "targets"', 'build_on = "targets" expects [[target]]'),
                          ('build_on = "cluster"', 'expected build_on = "host" or "targets"')]:
        path = write(os.path.join(tmp, "bad.toml"), campaign(where))
        r = run([ALEA, "run", path, "--no-report"])
        lines = r.stderr.strip().splitlines()
        check(r.returncode != 0 and len(lines) == 1 and expect in lines[0] and
              re.search(r":5:\d+: ", lines[0]) is not None,
              f"{where}: one line with its place: {r.returncode} {r.stderr!r}")

    # --- the host's builds --------------------------------------------------------
    run_campaign(write(os.path.join(tmp, "host.toml"), campaign()), "host")
    host = builds(os.path.join(tmp, "host.alea"))
    check(len(host) == 6 and all(b[3] == "ok" and b[1] and b[2] for b in host.values()),
          f"host: 6 builds with artifacts and fingerprints: {host}")
    check(len({b[1] for b in host.values()}) == 6, f"host: 6 different artifacts: {host}")

    with SshServer(os.path.join(top, "sshd")) as ssh:
        targets = ssh.target_tables([os.path.join(top, "remote-" + h) for h in ssh.hosts])
        # --- two SSH targets --------------------------------------------------------
        path = write(os.path.join(tmp, "ssh.toml"),
                     campaign('build_on = "targets"', targets))
        r = run_campaign(path, "ssh")
        sdir = os.path.join(tmp, "ssh.alea")
        check(builds(sdir) == host, f"ssh: the host's seeds and artifacts: {builds(sdir)} vs {host}")
        for host_name in ssh.hosts:
            check(f"on target {host_name}" in r.stderr, f"ssh: {host_name} built: {r.stderr[-1500:]}")
        for (system, index), (_, digest, _, _) in host.items():
            made = os.path.join(sdir, "builds", system, str(index))
            check(os.path.isfile(os.path.join(sdir, "objects", digest)) and
                  open(os.path.join(made, "prog"), "rb").read() ==
                  open(os.path.join(sdir, "objects", digest), "rb").read() and
                  os.access(os.path.join(made, "prog"), os.X_OK),
                  f"ssh: {system} #{index}'s artifact is in the host's build directory and objects/")
            log = os.path.join(made, "wrapper.log")
            check(os.path.isfile(log) and "alea-cc" in open(log).read(),
                  f"ssh: {system} #{index}'s wrapper log came back")

        # The source directory went there, without .git and campaign directories.
        staged = glob.glob(os.path.join(top, "remote-*", "c", "*", "*", "source"))
        check(len(staged) == 2 and all("prog.c" in os.listdir(d) and ".git" not in os.listdir(d)
                                       and not glob.glob(os.path.join(d, "*.alea"))
                                       for d in staged),
              f"ssh: the source directory staged without .git and campaign directories: "
              f"{[os.listdir(d) for d in staged]}")

        # --- with the build cache: each target's own, its wrapper log back -------------
        path = write(os.path.join(tmp, "cached.toml"),
                     campaign('build_on = "targets"\nbuild_cache = true', targets,
                              log=False))
        run_campaign(path, "cached")
        cdir = os.path.join(tmp, "cached.alea")
        check(builds(cdir) == host, "cached: the host's seeds and artifacts")
        with sqlite3.connect(f"file:{os.path.join(cdir, 'campaign.db')}?mode=ro", uri=True) as db:
            logs = [r[0] for r in db.execute("SELECT log_tail FROM build")]
        check(any("build cache: 1 of 1 compiles reused" in log for log in logs) and
              all(os.path.isfile(os.path.join(cdir, "builds", s, str(b), "alea-wrapper.log"))
                  for s, b in host),
              f"cached: the wrapper logs came back and say what was reused: {logs}")

        # --- a target lost during a build ------------------------------------------------
        # The first build to start makes the directory `mark`, writes its pid
        # and waits; the test then kills the helper running it (SIGKILL, as a
        # dying node would). Built again, it finds the directory and builds.
        # (Only that helper: killing every session could also kill a login
        # shell in the middle of its start-up files.)
        mark = os.path.join(top, "mark")
        hang = f"if mkdir {mark} 2>/dev/null; then echo $$ > {mark}/pid.tmp; " \
               f"mv {mark}/pid.tmp {mark}/pid; exec sleep 600; fi; "
        path = write(os.path.join(tmp, "lost.toml"),
                     campaign('build_on = "targets"', targets, hang=hang))
        proc = subprocess.Popen([ALEA, "run", path, "--no-report"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        pid_file = os.path.join(mark, "pid")
        for _ in range(6000):  # the bound of a hung fixture, not a timing
            if os.path.exists(pid_file) or proc.poll() is not None:
                break
            time.sleep(0.05)
        check(os.path.exists(pid_file), "lost: a build started on a target")
        if os.path.exists(pid_file):
            build_pid = int(open(pid_file).read())
            helper = helper_of(build_pid)
            check(helper is not None, f"lost: the helper running build process {build_pid}")
            for victim in (helper, build_pid):
                try:  # the build may already have gone with its helper
                    if victim:
                        os.kill(victim, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        out, err = proc.communicate(timeout=600)
        check(proc.returncode == 0, f"lost: exit {proc.returncode}: {err[-2000:]}")
        check("it will be built again" in err, f"lost: the lost build was built again: {err[-2000:]}")
        check(builds(os.path.join(tmp, "lost.alea")) == host,
              "lost: every build recorded once, with the host's artifacts")

        # --- a build that kills its target every time ----------------------------------
        # It finds the helper above it and SIGKILLs it: lost, built again on the
        # next target, lost again; the third loss records it as failed.
        killer = ("p=$PPID; while [ $p -gt 1 ] && ! tr '\\0' ' ' </proc/$p/cmdline | "
                  "grep -q ' __target'; do p=$(cut -d' ' -f4 /proc/$p/stat); done; "
                  "kill -9 $p; sleep 600; ")
        path = write(os.path.join(tmp, "killer.toml"),
                     campaign('build_on = "targets"', targets, hang=killer,
                              builds=1, systems=(("small", 1000),)))
        r = run_campaign(path, "killer", code=3)
        made = builds(os.path.join(tmp, "killer.alea"))
        check(list(made) == [("small", 0)] and made[("small", 0)][3] == "failed",
              f"killer: the build recorded failed once: {made}")
        with sqlite3.connect(os.path.join(tmp, "killer.alea", "campaign.db")) as db:
            tail = db.execute("SELECT log_tail FROM build").fetchone()[0]
        check(tail.startswith("lost 3 times while building on targets"),
              f"killer: the record says it was lost 3 times: {tail!r}")
        check(r.stderr.count("it will be built again") == 2,
              f"killer: built again twice, then recorded: {r.stderr[-2000:]}")

        # --- a build failing by itself ------------------------------------------------------
        path = write(os.path.join(tmp, "failing.toml"),
                     campaign('build_on = "targets"', targets, hang="exit 7; ",
                              builds=2, systems=(("small", 1000),)))
        r = run_campaign(path, "failing", code=3)
        made = builds(os.path.join(tmp, "failing.alea"))
        check(sorted(made) == [("small", 0), ("small", 1)] and
              all(b[3] == "failed" for b in made.values()),
              f"failing: both builds recorded failed: {made}")
        check(r.stderr.count("building small #0") == 1 and "built again" not in r.stderr,
              f"failing: a failed build is not built again: {r.stderr[-1500:]}")

    # --- a Slurm job step ---------------------------------------------------------------
    with SlurmCluster(os.path.join(top, "slurm")) as cluster:
        env = dict(os.environ, **cluster.env)
        path = write(os.path.join(tmp, "slurm.toml"), campaign('build_on = "targets"', SLURM_TARGET))
        r = run_campaign(path, "slurm", env=env)
        check("on target cluster" in r.stderr, f"slurm: built on the cluster: {r.stderr[-1500:]}")
        check(builds(os.path.join(tmp, "slurm.alea")) == host,
              "slurm: the host's seeds and artifacts")

finish("builds on SSH and Slurm targets: the host's seeds and artifacts; a lost target's build "
       "built again, recorded once; a build that kills its target recorded failed after 3 "
       "losses; a failing build recorded once; config errors in one line")
