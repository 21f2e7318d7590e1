#!/bin/sh
# Runs the bootstrap benchmark (C++ engine vs bound vs 2 threads vs R).
# usage: bench/bootstrap/run.sh [build-dir] [R replicates]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
build=$(cd "$build" && pwd)
cmake --build "$build" --target bench_bootstrap -j2 >/dev/null
exec "$build/bin/bench_bootstrap" --r-script "$here/bootstrap.R" --r-replicates "${2:-40}"
