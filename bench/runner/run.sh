#!/usr/bin/env bash
# Runs the runner benchmarks side by side and prints their figures:
#   (a) runner overhead: /bin/true through `alea run` vs `hyperfine -N`;
#   (b) store: measurements/s written through the Store API in campaign
#       conditions, and the store size per million measurements;
#   (c) the heap start offset's cost: after start-up, at start-up, through
#       `alea run` (heap_offset.py).
# Usage: bench/runner/run.sh [build-dir]   (needs the alea and alea_bench_store targets)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
build=$(cd "$build" && pwd)
cmake --build "$build" --target alea alea_bench_store -j 2 >/dev/null
echo "== (a) runner overhead =="
"$here/runner_overhead.sh" "$build" "${ALEA_BENCH_EXECUTIONS:-1000}" "${ALEA_BENCH_ROUNDS:-3}"
echo
echo "== (b) store throughput =="
"$build/bin/alea_bench_store" "${ALEA_BENCH_STORE_EXECUTIONS:-10000}" 100
echo
echo "== (c) heap start offset =="
python3 "$here/heap_offset.py" "$build" "${ALEA_BENCH_HEAP_ROUNDS:-9}" "${ALEA_BENCH_HEAP_SPAWNS:-1000}"
