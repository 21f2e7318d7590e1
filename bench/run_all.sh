#!/usr/bin/env bash
# Runs every benchmark of docs/benchmarks.md one after the other (each compares
# side by side in one run and prints ratios; none is a test) and keeps each
# output in <build>/bench-results/<name>.txt. Takes 35-55 minutes on 2 cores;
# run it on an otherwise idle machine for figures worth quoting.
# ALEA_BENCH_VALIDITY=1 adds the validity benchmark of the campaign designs
# (bench/validity/run.sh: about 30 more minutes, it loads the machine itself).
# Usage: bench/run_all.sh [build-dir]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
out=$build/bench-results
mkdir -p "$out"
cmake --build "$build" -j 2 >/dev/null || { echo "build failed" >&2; exit 1; }

run() { # NAME COMMAND...
  local name=$1; shift
  echo "== $name: $*"
  local t0=$SECONDS
  "$@" 2>&1 | tee "$out/$name.txt"
  echo "== $name: $((SECONDS - t0)) s, exit ${PIPESTATUS[0]}"
  echo
}
run wrapper_overhead "$here/wrapper/wrapper_overhead.sh" "$build" 10
run build_overhead "$here/build/build_overhead.sh" "$build" 5
run plugin_overhead "$here/passes/plugin_overhead.sh" "$build" 5
run runtime_overhead "$here/build/runtime_overhead.sh" "$build" 1 2 3
run runner "$here/runner/run.sh" "$build"
run bootstrap "$here/bootstrap/run.sh" "$build"
run methods "$here/methods/run.sh" "$build"
run targets "$here/targets/run.sh" "$build"
run report "$here/report/run.sh" "$build"
# Builds (issue 23): Lua and SQLite from Debian's sources, -j 1 / -j 2 / the
# build cache; SSH targets. About 15 more minutes.
run build_cache_lua "$here/build_cache/run.sh" lua "$build"
run build_cache_sqlite3 "$here/build_cache/run.sh" sqlite3 "$build"
run target_builds "$here/target_builds/run.sh" "$build"
if [[ ${ALEA_BENCH_VALIDITY:-0} == 1 ]]; then
  run validity "$here/validity/run.sh" "$build"
fi
