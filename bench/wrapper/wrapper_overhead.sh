#!/usr/bin/env bash
# The wrappers' own cost per invocation (a benchmark, not a test): side by side in
# one run, alternating rounds so that machine noise hits both sides alike.
#   1. decision only: ALEA_DRY_RUN=1 alea-cc -c empty.c   vs  /bin/true
#   2. a trivial compile, no seed (pure wrapper: resolve + execv)
#                     alea-cc -c empty.c                   vs  clang-19 -c empty.c
#   3. a trivial compile, seed set (plugin + sections on top)
#                     ALEA_SEED=1 alea-cc -c empty.c       vs  clang-19 -c empty.c
# Prints milliseconds per invocation, the difference and the ratio. Goal: the
# wrapper's own cost (difference in 1 and 2) < 5 ms per invocation.
# Usage: bench/wrapper/wrapper_overhead.sh [build-dir] [rounds]
set -euo pipefail

build=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build}
build=$(cd "$build" && pwd)
rounds=${2:-10}
cc=$build/bin/alea-cc
[[ -x $cc ]] || { echo "no $cc: build the alea-cc target first" >&2; exit 1; }
clang=$(command -v clang-19 || echo /usr/lib/llvm-19/bin/clang)
for v in $(env | grep -o '^ALEA_[A-Z_]*'); do unset "$v"; done
export ALEA_PLUGIN=$build/lib/AleaPlugin.so

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
: > empty.c

now() { date +%s%N; }
# time_block <n> <command...>: nanoseconds for n sequential runs of the command.
time_block() {
  local n=$1; shift
  local t0 t1 i
  t0=$(now)
  for ((i = 0; i < n; i++)); do "$@" > /dev/null; done
  t1=$(now)
  echo $((t1 - t0))
}

# compare <label> <per-round n> <base command> -- <wrapped command>
compare() {
  local label=$1 n=$2; shift 2
  local base=() wrapped=()
  while [[ $1 != -- ]]; do base+=("$1"); shift; done
  shift
  wrapped=("$@")
  "${base[@]}" > /dev/null; "${wrapped[@]}" > /dev/null # warm caches
  local tb=0 tw=0 r
  for ((r = 0; r < rounds; r++)); do
    tb=$((tb + $(time_block "$n" "${base[@]}")))
    tw=$((tw + $(time_block "$n" "${wrapped[@]}")))
  done
  local total=$((rounds * n))
  awk -v l="$label" -v b="$tb" -v w="$tw" -v n="$total" 'BEGIN {
    mb = b / n / 1e6; mw = w / n / 1e6;
    printf "%-44s base %8.3f ms  wrapped %8.3f ms  diff %+7.3f ms  ratio %.3f  (n=%d each)\n",
           l, mb, mw, mw - mb, mw / mb, n }'
}

echo "alea wrapper overhead: $cc vs $clang, $rounds alternating rounds"
# Both sides run under the same `env` so that its exec is not counted.
compare "decision (dry run) vs /bin/true" 100 \
  env ALEA_DRY_RUN=1 ALEA_SEED=1 /bin/true -- env ALEA_DRY_RUN=1 ALEA_SEED=1 "$cc" -c empty.c
compare "alea-cc -c empty.c, no seed vs clang-19" 5 \
  env "$clang" -c empty.c -o base.o -- env "$cc" -c empty.c -o wrapped.o
compare "alea-cc -c empty.c, ALEA_SEED=1 vs clang-19" 5 \
  env ALEA_SEED=1 "$clang" -c empty.c -o base.o -- env ALEA_SEED=1 "$cc" -c empty.c -o wrapped.o
