#!/bin/sh
# Builds and runs the resampling benchmark against a build directory's
# libalea_analysis.a, then the same computation in R, and prints the ratios.
# Usage: bench/methods/run.sh [build dir] [benchmarks runs replicates]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" && pwd)
nb=${2:-29}; m=${3:-5}; reps=${4:-20000}
exe=$(mktemp)
trap 'rm -f "$exe"' EXIT
c++ -std=c++20 -O2 -I"$root/analysis/include" -I"$root/common/include" \
  "$here/resampling_bench.cpp" "$build/lib/libalea_analysis.a" -pthread -o "$exe"
out=$("$exe" "$nb" "$m" "$reps")
echo "$out" | grep -v '^ALEA_'
rreps=$((reps / 20))
rout=$(Rscript "$here/resampling_bench.R" "$nb" "$m" "$rreps")
a_rt=$(echo "$out" | sed -n 's/^ALEA_RT_RATE=//p'); a_bs=$(echo "$out" | sed -n 's/^ALEA_BS_RATE=//p')
r_rt=$(echo "$rout" | sed -n 's/^R_RT_RATE=//p'); r_bs=$(echo "$rout" | sed -n 's/^R_BS_RATE=//p')
awk -v a="$a_rt" -v r="$r_rt" -v b="$a_bs" -v s="$r_bs" -v n="$rreps" 'BEGIN {
  printf "R (%d replicates): randomization test %.0f/s, bootstrap %.0f/s\n", n, r, s
  printf "alea / R: randomization test %.0fx, bootstrap %.0fx\n", a / r, b / s }'
