#!/usr/bin/env python3
"""Where the time between two executions goes, locally and through one SSH
target: figure 1's campaigns of bench/targets/run.sh (a 1 ms program, 2 builds
x 150 executions), each run once under `perf record -a` with a few syscall
tracepoints, then every cycle from one execution's exit to the next one's
execve is cut at the events that mark its steps. Medians over the cycles.
Needs perf (linux-perf) and root. An explanation, not a benchmark: the
tracepoints cost a little themselves, so the totals run above run.sh's.

    critical_path.py BUILD_DIR [--executions N] [--keep]

Through a target (the process, the event that ends the step):
    helper: exit -> 'done' frame   the program's exit (sched_process_exit) to
                                   the helper's write of its result frame
                                   (fd 1): wait4, the executor's bookkeeping,
                                   the result's MessagePack, the machine re-read
    transport back                 sshd reads it, ssh writes it to alea: the
                                   host's read of the frame
    host: frame -> SQLite          decoding, the worker's hand-off to the
                                   campaign thread: its first pwrite64
    host: SQLite -> request        the commit, the next unit handed to the
                                   worker, its request encoded: the write to ssh
    transport forward              ssh, sshd: the helper's read
    helper: request -> execve      decoding, the executor's preparation and
                                   spawn: the program's execve
Locally: exit -> SQLite (the executor's bookkeeping, the record) and SQLite ->
execve (the commit, the next execution's preparation and spawn).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "e2e"))
import targets_bench as tb  # noqa: E402
from targets_fixture import SshServer  # noqa: E402

EVENTS = ["sched:sched_process_exit", "syscalls:sys_enter_execve", "syscalls:sys_exit_read",
          "syscalls:sys_enter_write", "syscalls:sys_enter_pwrite64"]


def events(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,time,event,trace"],
                         capture_output=True, text=True, check=True).stdout
    ev = []
    for line in out.splitlines():
        m = re.match(r"\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)$", line)
        if m:
            ev.append((float(m.group(4)), m.group(1), m.group(5), m.group(6)))
    ev.sort()
    return ev


def is_helper(comm):
    return re.match(r"alea-[0-9a-f]{10}", comm) is not None


def is_program(comm, trace):
    # The staged program is called prog on a target; locally alea runs the
    # artifact's snapshot, whose name (the comm) is its hash's first 15 digits.
    return "comm=prog " in trace or re.fullmatch(r"[0-9a-f]{15}", comm) is not None


def cycles_ssh(ev):
    steps = ["exit", "done", "hostread", "sqlite", "request", "helperread", "execve"]
    out, cur = [], None
    for t, comm, e, tr in ev:
        if e == "sched:sched_process_exit" and is_program(comm, tr):
            cur = {"exit": t}
        elif cur is None:
            continue
        elif "done" not in cur:
            if is_helper(comm) and e.endswith("sys_enter_write") and "fd: 0x00000001" in tr:
                cur["done"] = t
        elif "hostread" not in cur:
            if comm == "alea" and e.endswith("sys_exit_read"):
                cur["hostread"] = t
        elif "sqlite" not in cur:
            if comm == "alea" and e.endswith("pwrite64"):
                cur["sqlite"] = t
        elif "request" not in cur:
            if comm == "alea" and e.endswith("sys_enter_write") and "fd: 0x00000002" not in tr:
                cur["request"] = t
        elif "helperread" not in cur:
            if is_helper(comm) and e.endswith("sys_exit_read"):
                cur["helperread"] = t
        elif is_helper(comm) and e.endswith("sys_enter_execve"):
            cur["execve"] = t
            out.append(cur)
            cur = None
    names = [("helper: exit -> 'done' frame", "exit", "done"),
             ("transport back (sshd, ssh)", "done", "hostread"),
             ("host: frame -> SQLite", "hostread", "sqlite"),
             ("host: SQLite -> next request", "sqlite", "request"),
             ("transport forward (ssh, sshd)", "request", "helperread"),
             ("helper: request -> execve", "helperread", "execve")]
    return [c for c in out if all(s in c for s in steps)], names


def cycles_local(ev):
    out, cur = [], None
    for t, comm, e, tr in ev:
        if e == "sched:sched_process_exit" and is_program(comm, tr):
            cur = {"exit": t}
        elif cur is None:
            continue
        elif "sqlite" not in cur:
            if comm == "alea" and e.endswith("pwrite64"):
                cur["sqlite"] = t
        elif comm == "alea" and e.endswith("sys_enter_execve"):
            cur["execve"] = t
            out.append(cur)
            cur = None
    names = [("host: exit -> SQLite", "exit", "sqlite"),
             ("host: SQLite -> execve", "sqlite", "execve")]
    return out, names


def report(label, cycles, names):
    us = lambda xs: statistics.median(xs) * 1e6  # noqa: E731
    print(f"\n{label}: {len(cycles)} cycles, medians")
    for what, a, b in names:
        print(f"  {us([c[b] - c[a] for c in cycles]):7.1f} us  {what}")
    print(f"  {us([c['execve'] - c['exit'] for c in cycles]):7.1f} us  total: exit -> next execve")
    ex = [c["execve"] for c in cycles]
    starts = [b - a for a, b in zip(ex, ex[1:])]
    print(f"  {us(starts) / 1e3:7.3f} ms  cycle: execve -> next execve")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--executions", type=int, default=150, help="per build (2 builds)")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    if not shutil.which("perf"):
        sys.exit("needs perf (apt install linux-perf)")
    alea = os.path.join(os.path.abspath(a.build), "bin", "alea")
    tmp = tempfile.mkdtemp(prefix="alea-critical-path-")
    try:
        with SshServer(os.path.join(tmp, "sshd")) as ssh:
            with open(os.path.join(tmp, "prog.c"), "w") as f:
                f.write(tb.PROGRAM)
            files = {}
            for name, targets in (("local", ""),
                                  ("ssh", tb.target_tables(ssh, [os.path.join(tmp, "remote")]))):
                files[name] = os.path.join(tmp, name + ".toml")
                with open(files[name], "w") as f:
                    f.write(tb.campaign("spin1ms", 2, a.executions, ["spin", "1000"], targets))
            # Warm-up: ships the helper.
            subprocess.run([alea, "run", files["ssh"], "--dir", os.path.join(tmp, "warm"),
                            "--no-report"], check=True, capture_output=True)
            for name in ("local", "ssh"):
                data = os.path.join(tmp, name + ".data")
                cmd = ["perf", "record", "-q", "-a", "-o", data]
                for e in EVENTS:
                    cmd += ["-e", e]
                subprocess.run(cmd + ["--", alea, "run", files[name], "--dir",
                                      os.path.join(tmp, name + ".alea"), "--no-report"],
                               check=True, capture_output=True)
                ev = events(data)
                cycles, names = (cycles_ssh if name == "ssh" else cycles_local)(ev)
                report("one SSH target" if name == "ssh" else "local (no target)", cycles, names)
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
