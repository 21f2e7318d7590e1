#!/usr/bin/env bash
# Remote targets (issue 9; a benchmark, not a test: nothing asserts a time).
# Two figures side by side in one run, each from alternating rounds (A B A B
# ...) so that the noise of a shared machine hits both variants alike; prints
# every round, the medians and the ratios:
#
#   1. executions per second of a 1 ms program (spins 1000 us on the
#      monotonic clock) through ONE SSH target on localhost against the local
#      executor (no target): the same campaign file (1 system, 1 benchmark,
#      2 builds x 150 executions, measure source "none") with and without its
#      [[target]] table. Goal: >= 0.8x.
#   2. 200 executions (2 builds x 100) of a 50 ms single-threaded CPU-bound
#      program (a fixed loop count, calibrated at the start to 50 ms of CPU)
#      on TWO SSH targets (machines = "pool") against ONE: the ratio of
#      executions per second. Goal: >= 1.8x (both targets are this machine;
#      it needs 2 free cores).
#
# Set-up, all under a temporary directory removed at the end: a real sshd
# (test/e2e/targets_fixture.SshServer: its own host and user keys, a free
# localhost port, host aliases alea-t1 and alea-t2), the C program (built by
# each campaign with $CC = alea-cc, -O2, every layout factor), the campaign
# files, each round's fresh campaign store, the targets' workdirs (kept for
# the whole run, so alea's helper is shipped once, in an unmeasured warm-up
# round of each figure).
#
# Executions per second = executions / execution phase, the phase being read
# from the store: max(started_at + wall_seconds) - min(started_at). It leaves
# out what a campaign pays once (alea's start-up, the builds, the SSH
# connection, shipping the helper, the report) and keeps what it pays per
# execution (for a target: the frames both ways through ssh/sshd, the helper's
# bookkeeping, the host's worker hand-off and SQLite commit). Each build's
# first execution on a target also stages the build there (a few ms, once).
# Also printed per variant: the median start-to-start cycle of consecutive
# executions on one target, the execution's own wall time, the dead time
# between them (and its split at the moment the host recorded the execution),
# the wall time of the whole `alea run`, the load average; and the round trip
# of a 2 KiB message through `ssh alea-t1 cat` (the transport alone).
#
# A shared machine: before each round the script waits until other processes
# keep fewer than 0.3 CPUs busy (/proc/stat over 0.5 s; at most 20 s before a
# round of figure 2, 10 s before one of figure 1, then it runs anyway). A CPU
# taken by someone else during a round of figure 2 leaves the two targets one
# CPU; the "other" column (alea's own execution.other_load, the CPUs other
# processes kept busy while an execution ran, the other target included) shows
# it, and figure 2's ratio is also printed over the rounds where it stayed
# below 0.25 CPU besides the partner target; figure 1's (whose executions are
# too short for other_load) over the rounds that started on a quiet machine.
#
# Needs root (sshd), ssh and sshd (openssh-client, openssh-server), python3.
# About 2-3 minutes on 2 cores (at most ~5 with every quiet wait used up).
#
# Usage: bench/targets/run.sh [build-dir] [options of targets_bench.py]
#   --rounds1 N (7)  --rounds2 N (5)  --executions1 N (150 per build)
#   --executions2 N (100 per build)  --work-ms MS (50)  --quiet CPUS (0.3)
#   --quiet-wait S (20)  --keep (keep the temp dir and every store)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../build
if [[ $# -gt 0 && $1 != -* ]]; then build=$1; shift; fi
build=$(cd "$build" && pwd)
cmake --build "$build" --target alea alea-cc alea-ld AleaPlugin -j 2 >/dev/null \
  || { echo "build failed" >&2; exit 1; }
export CC=${CC:-clang-19}  # for the calibration build only; campaigns use alea-cc
exec python3 "$here/targets_bench.py" "$build" "$@"
