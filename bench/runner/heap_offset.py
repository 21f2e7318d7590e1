#!/usr/bin/env python3
"""The heap start offset's cost (a benchmark, not a test; issue 11 item 3: "no
cost after start-up (measure it)"), side by side in one run, alternating runs
with and without the factor so that machine noise hits both alike:

(a) after start-up: a malloc-heavy C program (random sizes 16 B-4 KiB in a
    pool of 4096 live blocks, one 256 KiB block in 64 going through mmap), run
    plainly, with libalea_heap.so preloaded at offset 0 (the mechanism's cost
    alone) and at a random offset (the mechanism plus the layout it makes,
    which is what the factor is for); the ratios of the median CPU times
    (user + sys, wait4: on a shared machine less noisy than wall time);
(b) start-up: an empty C program spawned N times each way; the mean CPU time
    per execution and the difference (the runtime's load and constructor);
(c) through `alea run`: CPU time (alea and its children) and wall rate per
    execution of that empty program in a campaign with the factor on (the
    default) and off, the runner's part included (the static check, the
    report file).

Usage: bench/runner/heap_offset.py [build-dir] [rounds] [spawns]"""
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

MALLOC_HEAVY = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  enum { POOL = 4096 };
  static void *pool[POOL];
  uint64_t x = 88172645463325252ull, sum = 0;
  for (long i = 0; i < 10000000; ++i) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    unsigned slot = (unsigned)(x % POOL);
    size_t size = (i & 63) == 0 ? 256 * 1024 : 16 + (size_t)((x >> 20) % 4096);
    free(pool[slot]);
    unsigned char *p = malloc(size);
    p[0] = (unsigned char)i;
    p[size - 1] = (unsigned char)(i >> 8);
    sum += p[0] + p[size - 1];
    pool[slot] = p;
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
"""

EMPTY = "int main(void) { return 0; }\n"

CAMPAIGN = """
[campaign]
seed = 1
{factors}
[levels]
builds = 1
executions = {n}
[measure]
source = "none"
[[system]]
name = "empty"
build = ["true"]
[[benchmark]]
name = "empty"
command = ["{program}"]
"""


def spawn(argv, env):
    """Runs argv to its end; (wall seconds, user + sys seconds of the child)."""
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed: status {status}")
    return wall, ru.ru_utime + ru.ru_stime


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                            os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    spawns = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    runtime = os.path.join(build, "lib", "libalea_heap.so")
    alea = os.path.join(build, "bin", "alea")
    for f in (runtime, alea):
        if not os.path.exists(f):
            sys.exit(f"no {f}: build the alea target first")
    rng = random.Random(11)
    plain_env = {"PATH": "/usr/bin:/bin"}

    def heap_env(report):
        offset = rng.randrange(4096) * 16
        return dict(plain_env, LD_PRELOAD=runtime, ALEA_HEAP_OFFSET=f"{offset:07d}",
                    ALEA_HEAP_REPORT=report)

    with tempfile.TemporaryDirectory(prefix="alea-heap-bench-") as tmp:
        for name, text in (("heavy", MALLOC_HEAVY), ("empty", EMPTY)):
            with open(os.path.join(tmp, name + ".c"), "w") as f:
                f.write(text)
            subprocess.run(["cc", "-O2", "-o", os.path.join(tmp, name),
                            os.path.join(tmp, name + ".c")], check=True)
        report = os.path.join(tmp, "report")
        open(report, "w").close()

        print(f"(a) malloc-heavy program, {rounds} alternating rounds")
        heavy = [os.path.join(tmp, "heavy")]
        cpu = {"off": [], "on, offset 0": [], "on, random offset": []}
        for r in range(rounds):
            cpu["off"].append(spawn(heavy, plain_env)[1])
            zero = dict(heap_env(report), ALEA_HEAP_OFFSET="0000000")
            cpu["on, offset 0"].append(spawn(heavy, zero)[1])
            cpu["on, random offset"].append(spawn(heavy, heap_env(report))[1])
        with open(report) as f:
            statuses = set(f.read().split())
        print(f"    runtime status: {', '.join(sorted(statuses))}")
        base = statistics.median(cpu["off"])
        for label, values in cpu.items():
            m = statistics.median(values)
            print(f"    {label:18} median CPU {m:.3f} s  (min {min(values):.3f}, max "
                  f"{max(values):.3f})  ratio to off {m / base:.4f}")

        print(f"(b) empty program, {spawns} spawns each way, alternating")
        empty = [os.path.join(tmp, "empty")]
        off_t, on_t, off_c, on_c = [], [], [], []
        for _ in range(spawns):
            w, c = spawn(empty, plain_env)
            off_t.append(w)
            off_c.append(c)
            w, c = spawn(empty, heap_env(report))
            on_t.append(w)
            on_c.append(c)
        off_m, on_m = statistics.mean(off_c), statistics.mean(on_c)
        print(f"    mean CPU    off {off_m * 1e6:.0f} us   on {on_m * 1e6:.0f} us   "
              f"start-up cost {(on_m - off_m) * 1e6:+.0f} us of CPU per execution")
        print(f"    median wall off {statistics.median(off_t) * 1e6:.0f} us   on "
              f"{statistics.median(on_t) * 1e6:.0f} us")

        n = max(spawns // 2, 10)
        print(f"(c) alea run, {n} executions of the empty program, factor on and off, "
              f"3 alternating rounds")
        tomls = {}
        for label, factors in (("on", ""), ("off", 'factors = ["function-order"]')):
            tomls[label] = os.path.join(tmp, label + ".toml")
            with open(tomls[label], "w") as f:
                f.write(CAMPAIGN.format(factors=factors, n=n, program=empty[0]))
        walls = {"on": [], "off": []}
        cpus = {"on": [], "off": []}
        for r in range(3):
            for label in ("off", "on"):
                out = os.path.join(tmp, f"c-{label}-{r}")
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run([alea, "run", tomls[label], "--dir", out, "--no-report"],
                               check=True, capture_output=True)
                walls[label].append((time.perf_counter() - t0) / n)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus[label].append((after.ru_utime + after.ru_stime - before.ru_utime -
                                    before.ru_stime) / n)
        for label in ("off", "on"):
            print(f"    factor {label:3}: CPU per execution "
                  f"{', '.join(f'{x * 1e6:.0f}' for x in cpus[label])} us; wall "
                  f"{', '.join(f'{x * 1e6:.0f}' for x in walls[label])} us")
        c_on, c_off = statistics.median(cpus["on"]), statistics.median(cpus["off"])
        w_on, w_off = min(walls["on"]), min(walls["off"])
        print(f"    median CPU on/off {c_on / c_off:.3f} ({(c_on - c_off) * 1e6:+.0f} us per "
              f"execution); best wall on/off {w_on / w_off:.3f} "
              f"({(w_on - w_off) * 1e6:+.0f} us)")


if __name__ == "__main__":
    main()
