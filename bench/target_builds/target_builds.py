#!/usr/bin/env python3
"""The build phase of a 12-build, 2-system Lua campaign on two SSH targets
against one, and on the host (build_jobs = 1); see run.sh.

    target_builds.py BUILD_DIR LUA_SOURCE_DIR
"""
import datetime
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "e2e"))
from targets_fixture import SshServer  # noqa: E402

ALEA = os.path.join(sys.argv[1], "bin", "alea")
LUA = sys.argv[2]


def campaign(where, targets):
    text = f"""
[campaign]
name = "lua builds on targets"
seed = "0x1a"
build_jobs = 1
{where}
[levels]
builds = 6
executions = 1
"""
    for i, flags in enumerate(["-O2", "-O1"]):
        text += f"""
[[system]]
name = "{flags[1:]}"
baseline = {"true" if i == 0 else "false"}
shell = "cp -a {{source_dir}}/lua/. . && make linux CC=\\"$CC\\" MYCFLAGS={flags} >make.out 2>&1"
artifacts = ["src/lua"]
"""
    return text + """
[[benchmark]]
name = "version"
command = ["{artifact:src/lua}", "-v"]
""" + targets


def build_phase(name, text, work):
    # The campaign file's directory (the source directory staged to targets)
    # holds the sources and the stores, not the fixture or the workdirs.
    path = os.path.join(work, "campaign", name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    store = os.path.join(work, "campaign", name)
    start = time.time()
    r = subprocess.run([ALEA, "run", path, "--dir", store, "--no-report"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{name}: alea run failed ({r.returncode}): {r.stderr[-2000:]}")
    with sqlite3.connect(os.path.join(store, "campaign.db")) as db:
        last = db.execute("SELECT max(finished_at) FROM build").fetchone()[0]
        made = db.execute("SELECT s.name, b.build_index, b.seed, b.binary_hash FROM build b "
                          "JOIN system s ON s.id = b.system_id ORDER BY 1, 2").fetchall()
    end = datetime.datetime.fromisoformat(last.replace("Z", "+00:00")).timestamp()
    return end - start, made


with tempfile.TemporaryDirectory() as work:
    shutil.copytree(LUA, os.path.join(work, "campaign", "lua"), symlinks=True)
    with SshServer(os.path.join(work, "sshd")) as ssh:
        remote = [os.path.join(work, "remote-" + h) for h in ssh.hosts]
        load = lambda: open("/proc/loadavg").read().split()[:3]  # noqa: E731
        print(f"load average before: {' '.join(load())}; {os.cpu_count()} CPUs")
        variants = [("host", "", ""),
                    ("one target", 'build_on = "targets"', ssh.target_tables(remote[:1])),
                    ("two targets", 'build_on = "targets"', ssh.target_tables(remote))]
        took, made = {}, {}
        for i, (name, where, targets) in enumerate(variants):
            took[name], made[name] = build_phase(f"v{i}", campaign(where, targets), work)
            print(f"{name:12s}: build phase {took[name]:6.1f} s for 12 builds")
        print(f"speed-up two targets / one target: {took['one target'] / took['two targets']:.2f}x")
        print(f"one target / host (build_jobs = 1): {took['one target'] / took['host']:.2f}x")
        same = made["host"] == made["one target"] == made["two targets"]
        print("artifacts: " + ("identical per (system, build) on the host, one and two targets"
                               if same else "DIFFER between the variants"))
        print(f"load average after: {' '.join(load())}")
        if not same:
            sys.exit(1)
