#!/usr/bin/env python3
"""Remote targets (issue 9): what running executions through `alea __target`
over SSH costs, side by side in one run, alternating rounds; prints medians
and ratios. A benchmark, not a test: nothing asserts a time. Called by
bench/targets/run.sh (which builds alea first); see that file for the figures.

    targets_bench.py BUILD_DIR [--rounds1 N] [--rounds2 N] [--executions1 N]
                               [--executions2 N] [--work-ms MS] [--quiet CPUS]
                               [--quiet-wait S] [--keep]

Everything lives in a temporary directory removed at the end (--keep keeps
it): a real sshd (test/e2e/targets_fixture.SshServer, its own keys, a free
localhost port, two host aliases), the C program, the campaign files, the
campaign stores and the targets' workdirs.

Execution phase: from the store, first execution's start to the last one's
end, max(started_at + wall_seconds) - min(started_at), over every recorded
execution. This leaves out what happens once per campaign (alea's start-up,
the store's creation, the builds, the SSH connection and the helper's
shipping on the first connection, the report) and keeps everything paid per
execution: on the host the plan entry, the request, the SQLite commit; on a
target also the frames both ways through ssh and sshd and the worker
thread's hand-off. One cost per build stays inside the phase with targets:
a build's first execution on a target stages it there (have/put/stage
frames, an `ldd` of the executable). The wall time of the whole `alea run` is
printed beside it.
"""
import argparse
import datetime
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "e2e"))
from targets_fixture import SshServer  # noqa: E402

PROGRAM = r"""
/* bench/targets: `prog spin US` spins on the monotonic clock for US
   microseconds (a fixed duration whatever the load); `prog work N` does N
   iterations of a dependent integer loop (fixed CPU work, single-threaded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static volatile unsigned long sink;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
__attribute__((noinline)) static unsigned long work(unsigned long n) {
  unsigned long s = 1;
  for (unsigned long i = 0; i < n; ++i) s = s * 6364136223846793005UL + (i ^ (s >> 29));
  return s;
}
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  unsigned long n = strtoul(argv[2], 0, 10);
  if (!strcmp(argv[1], "spin")) {
    double end = now() + n * 1e-6;
    unsigned long k = 0;
    while (now() < end) sink = work(64 + (k++ & 1));
  } else {
    sink = work(n);
  }
  return 0;
}
"""


def campaign(name, builds, executions, command, targets=""):
    """The campaign file: the same text for every variant but the [[target]]
    tables appended at its end."""
    return f"""\
[campaign]
name = "{name}"
seed = 7
machines = "pool"
timeout = 60

[levels]
builds = {builds}
executions = {executions}

[measure]
source = "none"

[[system]]
name = "prog"
shell = "$CC -O2 -o prog {{source_dir}}/prog.c"
artifacts = ["prog"]

[[benchmark]]
name = "{name}"
command = ["{{artifact:prog}}", {", ".join(json.dumps(a) for a in command)}]
""" + targets


def epoch(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def figures(db, expected):
    """Execution-phase figures of one campaign store."""
    c = sqlite3.connect(db)
    try:
        rows = c.execute("SELECT started_at, wall_seconds, finished_at, status, "
                         "coalesce(target, ''), other_load FROM execution").fetchall()
    finally:
        c.close()  # before the store is removed (`with` would only commit)
    bad = [r for r in rows if r[3] != "ok"]
    if len(rows) != expected or bad:
        raise RuntimeError(f"{db}: {len(rows)} executions recorded for {expected}, "
                           f"{len(bad)} not ok: {bad[:3]}")
    start = min(r[0] for r in rows)
    end = max(r[0] + r[1] for r in rows)
    out = {"n": len(rows), "phase": end - start, "rate": len(rows) / (end - start),
           "wall": statistics.median(r[1] for r in rows),
           # executions running at once, on average over the phase
           "busy": sum(r[1] for r in rows) / (end - start),
           # the CPUs other processes kept busy while an execution ran (alea's
           # own other_load: the busy time of /proc/stat around it, less alea's
           # own CPU time and the execution's; docs/statistics.md)
           # (NULL for executions under 50 ms)
           "other": statistics.median([r[5] for r in rows if r[5] is not None] or [float("nan")])}
    # Per target (or the host): the cycle from one execution's start to the
    # next one's; the dead time between one's end and the next one's start;
    # of it, the part until the host recorded the execution (finished_at,
    # SQLite's clock, millisecond resolution) and the part after.
    cycles, dead, to_record, after_record = [], [], [], []
    for t in sorted({r[4] for r in rows}):
        seq = sorted((r for r in rows if r[4] == t), key=lambda r: r[0])
        for a, b in zip(seq, seq[1:]):
            cycles.append(b[0] - a[0])
            dead.append(b[0] - (a[0] + a[1]))
            rec = epoch(a[2]) + 0.0005  # strftime's %f truncates to the millisecond
            to_record.append(rec - (a[0] + a[1]))
            after_record.append(b[0] - rec)
    out["cycle"] = statistics.median(cycles)
    out["dead"] = statistics.median(dead)
    out["dead_mean"] = statistics.fmean(dead)
    out["to_record"] = statistics.fmean(to_record)
    out["after_record"] = statistics.fmean(after_record)
    out["split"] = "/".join(str(sum(1 for r in rows if r[4] == t))
                            for t in sorted({r[4] for r in rows}))
    return out


class Bench:
    def __init__(self, build, tmp, keep):
        self.keep = keep
        self.alea = os.path.join(build, "bin", "alea")
        self.tmp = tmp
        self.runs = 0
        self.log = open(os.path.join(tmp, "alea.log"), "w")

    def run(self, toml, expected):
        """One fresh campaign of `toml`; its figures plus the wall time of the
        whole `alea run`."""
        self.runs += 1
        d = os.path.join(self.tmp, f"c{self.runs}.alea")
        t0 = time.monotonic()
        r = subprocess.run([self.alea, "run", toml, "--dir", d, "--no-report"],
                           stdout=self.log, stderr=subprocess.PIPE, text=True, timeout=1800)
        total = time.monotonic() - t0
        self.log.write(r.stderr)
        self.log.flush()
        if r.returncode != 0:
            raise RuntimeError(f"alea run {toml} exited {r.returncode}:\n{r.stderr[-3000:]}")
        f = figures(os.path.join(d, "campaign.db"), expected)
        f["total"] = total
        if not self.keep:
            shutil.rmtree(d)  # the store and builds; the targets' workdirs stay
        return f


def ssh_round_trip(ssh, n=300, size=2048):
    """Median round trip of a `size`-byte message through ssh to `cat` on the
    target and back (the transport alone: ssh, sshd, their pipes, the cipher)."""
    p = subprocess.Popen(["ssh"] + ssh.ssh_options + ["--", ssh.hosts[0], "cat"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    msg = b"x" * size
    times = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            p.stdin.write(msg)
            got = 0
            while got < size:
                chunk = p.stdout.read(size - got)
                if not chunk:
                    raise RuntimeError("ssh cat ended")
                got += len(chunk)
            times.append(time.perf_counter() - t0)
    finally:
        p.stdin.close()
        p.wait()
    return statistics.median(times)


HEADER = (f"{'round':>5} {'variant':<11} {'exec/s':>8} {'phase s':>8} {'cycle ms':>9} "
          f"{'wall ms':>8} {'dead ms':>8} {'busy':>5} {'other':>5} {'alea run s':>10}  "
          f"load average  ")


def line(r, label, f):
    return (f"{r:>5} {label:<11} {f['rate']:>8.1f} {f['phase']:>8.3f} {f['cycle'] * 1e3:>9.3f} "
            f"{f['wall'] * 1e3:>8.3f} {f['dead'] * 1e3:>8.3f} {f['busy']:>5.2f} "
            f"{f['other']:>5.2f} {f['total']:>10.2f}  {load()}")


def med(rows, key):
    return statistics.median(r[key] for r in rows)


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def busy_cpus(window=0.5):
    """CPUs kept busy over `window` seconds (/proc/stat), this script idle."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    t0, i0 = sample()
    time.sleep(window)
    t1, i1 = sample()
    return os.cpu_count() * (1 - (i1 - i0) / max(t1 - t0, 1))


def wait_quiet(limit, max_wait):
    """Before each round (figure 2 needs both CPUs): waits until other
    processes keep fewer than `limit` CPUs busy over half a second, at most
    `max_wait` seconds (then runs anyway). Returns (seconds waited, busy)."""
    t0 = time.monotonic()
    while True:
        b = busy_cpus()
        waited = time.monotonic() - t0
        if b < limit or waited >= max_wait:
            return waited, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--rounds1", type=int, default=7, help="rounds of figure 1 (default 7)")
    ap.add_argument("--rounds2", type=int, default=5, help="rounds of figure 2 (default 5)")
    ap.add_argument("--executions1", type=int, default=150,
                    help="executions per build of figure 1 (2 builds; default 150)")
    ap.add_argument("--executions2", type=int, default=100,
                    help="executions per build of figure 2 (2 builds; default 100)")
    ap.add_argument("--work-ms", type=float, default=50.0,
                    help="CPU time of figure 2's program (default 50 ms)")
    ap.add_argument("--quiet", type=float, default=0.3,
                    help="before each round, wait until other processes keep fewer than this many "
                         "CPUs busy (default 0.3)")
    ap.add_argument("--quiet-wait", type=float, default=20,
                    help="... at most this many seconds before a round of figure 2, half of it "
                         "before a round of figure 1 (default 20)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the temporary directory and every campaign store")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    started = time.monotonic()
    print(f"machine: {os.cpu_count()} CPUs, {cpu_model()}, load average {load()} at the start")

    tmp = tempfile.mkdtemp(prefix="alea-bench-targets-")
    try:
        with SshServer(os.path.join(tmp, "sshd")) as ssh:
            bench = Bench(build, tmp, a.keep)
            src = os.path.join(tmp, "prog.c")
            with open(src, "w") as f:
                f.write(PROGRAM)

            # Figure 2's loop count: N iterations taking --work-ms of CPU on
            # this machine (the best of 5 runs of a plain -O2 build).
            exe = os.path.join(tmp, "calibrate")
            subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", exe, src], check=True)

            def cpu(n):
                best = None
                for _ in range(5):
                    p = subprocess.Popen([exe, "work", str(n)])
                    _, _, ru = os.wait4(p.pid, 0)
                    t = ru.ru_utime + ru.ru_stime
                    best = t if best is None else min(best, t)
                return best
            probe = 20_000_000
            loops = int(probe * (a.work_ms / 1e3) / cpu(probe))
            print(f"figure 2's program: work {loops} ({cpu(loops) * 1e3:.1f} ms of CPU, best of 5)")

            remote = [os.path.join(tmp, "remote-1"), os.path.join(tmp, "remote-2")]
            n1, n2 = 2 * a.executions1, 2 * a.executions2

            def write(name, text):
                path = os.path.join(tmp, name)
                with open(path, "w") as f:
                    f.write(text)
                return path
            spin = ["spin", "1000"]
            f1_local = write("spin.toml", campaign("spin1ms", 2, a.executions1, spin))
            f1_ssh = write("spin-ssh.toml", campaign("spin1ms", 2, a.executions1, spin,
                                                     ssh.target_tables(remote[:1])))
            work = ["work", str(loops)]
            f2_one = write("work-1.toml", campaign("work50ms", 2, a.executions2, work,
                                                   ssh.target_tables(remote[:1])))
            f2_two = write("work-2.toml", campaign("work50ms", 2, a.executions2, work,
                                                   ssh.target_tables(remote)))

            # Warm-up, not counted: ships alea's helper to the workdirs, fills
            # the page cache and the compiler-version cache.
            if a.rounds1:
                bench.run(f1_local, n1)
                bench.run(f1_ssh, n1)
            if a.rounds2:
                bench.run(f2_two, n2)

            rtt = ssh_round_trip(ssh)
            print(f"ssh round trip of 2 KiB through `ssh {ssh.hosts[0]} cat` (median of 300): "
                  f"{rtt * 1e3:.3f} ms")

            # ---- figure 1 ----------------------------------------------------
            print(f"\nfigure 1: a 1 ms program (spin 1000 us), 2 builds x {a.executions1} "
                  f"executions = {n1}, local vs one SSH target; {a.rounds1} rounds A B A B ...")
            print(HEADER)
            local, remote1, quiet1 = [], [], []
            for r in range(1, a.rounds1 + 1):
                waited, b = wait_quiet(a.quiet, a.quiet_wait / 2)
                quiet1.append(b < a.quiet)
                if waited > 0.6:
                    print(f"      (waited {waited:.1f} s for a quiet machine: {b:.2f} CPUs busy)")
                for label, toml, acc in (("local", f1_local, local),
                                         ("ssh x1", f1_ssh, remote1)):
                    f = bench.run(toml, n1)
                    acc.append(f)
                    print(line(r, label, f))

            # ---- figure 2 ----------------------------------------------------
            print(f"\nfigure 2: a {a.work_ms:g} ms CPU-bound program, 2 builds x "
                  f"{a.executions2} executions = {n2}, one SSH target vs two (pool); "
                  f"{a.rounds2} rounds A B A B ...")
            print(HEADER + "  executions per target")
            one, two = [], []
            for r in range(1, a.rounds2 + 1):
                waited, b = wait_quiet(a.quiet, a.quiet_wait)
                if waited > 0.6:
                    print(f"      (waited {waited:.1f} s for a quiet machine: {b:.2f} CPUs busy)")
                for label, toml, acc in (("ssh x1", f2_one, one), ("ssh x2 pool", f2_two, two)):
                    f = bench.run(toml, n2)
                    acc.append(f)
                    print(line(r, label, f) + f"  {f['split']}")

            # ---- summary -----------------------------------------------------
            def per_round(xs, ys):
                return [y["rate"] / x["rate"] for x, y in zip(xs, ys)]

            def show(ratios):
                return (f"median of the per-round ratios {statistics.median(ratios):.3f}: "
                        + " ".join(f"{x:.3f}" for x in ratios))

            print("\nsummary (medians over the rounds; exec/s = executions / execution phase)")
            print(f"{'':<40} {'exec/s':>8} {'cycle ms':>9} {'wall ms':>8} {'dead ms':>8} "
                  f"{'-> rec ms':>9} {'rec -> ms':>9} {'busy':>5} {'other':>5}")
            for label, rows in (("fig. 1  local (no target)", local),
                                ("fig. 1  one SSH target", remote1),
                                ("fig. 2  one SSH target", one),
                                ("fig. 2  two SSH targets, pool", two)):
                if rows:
                    print(f"{label:<40} {med(rows, 'rate'):>8.1f} "
                          f"{med(rows, 'cycle') * 1e3:>9.3f} {med(rows, 'wall') * 1e3:>8.3f} "
                          f"{med(rows, 'dead') * 1e3:>8.3f} {med(rows, 'to_record') * 1e3:>9.3f} "
                          f"{med(rows, 'after_record') * 1e3:>9.3f} {med(rows, 'busy'):>5.2f} "
                          f"{med(rows, 'other'):>5.2f}")
            if local:
                r1 = med(remote1, "rate") / med(local, "rate")
                print(f"\nfigure 1: one SSH target / local executions per second: {r1:.3f}  "
                      f"(goal >= 0.8)\n          {show(per_round(local, remote1))}")
                if not all(quiet1):
                    rs = [x for x, q in zip(per_round(local, remote1), quiet1) if q]
                    print(f"          rounds that started on a quiet machine ({len(rs)} of "
                          f"{len(quiet1)}): "
                          + (f"median ratio {statistics.median(rs):.3f}" if rs else "none"))
                extra = med(remote1, "cycle") - med(local, "cycle")
                print(f"          per execution the target adds {extra * 1e3:.3f} ms to the cycle "
                      f"({med(local, 'cycle') * 1e3:.3f} -> {med(remote1, 'cycle') * 1e3:.3f} ms); "
                      f"an ssh round trip alone is {rtt * 1e3:.3f} ms")
            if one:
                r2 = med(two, "rate") / med(one, "rate")
                print(f"figure 2: two SSH targets / one, executions per second: {r2:.3f}  "
                      f"(goal >= 1.8)\n          {show(per_round(one, two))}\n"
                      f"          executions running at once {med(one, 'busy'):.2f} -> "
                      f"{med(two, 'busy'):.2f}; execution wall {med(one, 'wall') * 1e3:.1f} -> "
                      f"{med(two, 'wall') * 1e3:.1f} ms")
                # Rounds in which another process took a CPU (another user's
                # build) cannot show what two targets give on two CPUs: the
                # one-target campaign's executions saw other load >= 0.25 CPU,
                # or the pool's more than its partner (1 CPU) + 0.25.
                free = [k for k in range(len(one))
                        if one[k]["other"] < 0.25 and two[k]["other"] < 1.25]
                if len(free) < len(one):
                    rs = per_round(one, two)
                    print(f"          rounds with both CPUs free for the campaigns ({len(free)} "
                          f"of {len(one)}: other load < 0.25 CPU): "
                          + (f"median ratio {statistics.median(rs[k] for k in free):.3f}"
                             if free else "none"))
            print(f"\n{bench.runs} campaigns, {time.monotonic() - started:.0f} s; "
                  f"load average at the end {load()}")
            print("columns: cycle = median start-to-start of consecutive executions on one "
                  "target (or the host); wall = median execution wall time; dead = median "
                  "end-to-next-start; busy = executions running at once (sum of walls / phase); "
                  "other = median CPUs kept busy by other processes during an execution (the "
                  "other target's execution included; none under 50 ms); -> rec = mean "
                  "end-to-recorded (SQLite's finished_at, 1 ms resolution, + 0.5 ms for its "
                  "truncation); rec -> = mean recorded-to-next-start")
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
