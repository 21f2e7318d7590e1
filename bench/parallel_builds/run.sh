#!/usr/bin/env bash
# The build phase of a 12-build, 2-system campaign of Lua 5.4 (Debian's source
# package, its own makefile, a serial `make` per build) with -j 1 and -j 2 on
# this machine, side by side in one run, and their ratio (issue 23; docs/
# campaign.md, "Parallel builds"). Not a test: the times depend on the machine
# and its load. Also checks that both schedules made the same artifacts.
# Usage: run.sh [BUILD_DIR]
set -euo pipefail
ALEA_BUILD=${1:-$(dirname "$0")/../../build}
source "$(dirname "$0")/../../test/projects/common.sh"
src=$(fetch_source lua5.4 --skip-patches)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/c.toml" <<TOML
[campaign]
name = "lua builds"
seed = "0x1a"
[levels]
builds = 6
executions = 1
[[system]]
name = "O2"
baseline = true
shell = "cp -a $src/. . && make linux CC=\"\$CC\" MYCFLAGS=-O2 >make.out 2>&1"
artifacts = ["src/lua"]
[[system]]
name = "O1"
shell = "cp -a $src/. . && make linux CC=\"\$CC\" MYCFLAGS=-O1 >make.out 2>&1"
artifacts = ["src/lua"]
[[benchmark]]
name = "version"
command = ["{artifact:src/lua}", "-v"]
TOML
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
declare -A took
for jobs in 1 2; do
  start=$(date +%s.%N)
  "$ALEA" run "$work/c.toml" --dir "$work/j$jobs" -j "$jobs" --no-report >"$work/j$jobs.log" 2>&1 ||
    { tail "$work/j$jobs.log"; fail "alea run -j $jobs failed"; }
  took[$jobs]=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" \
    "$(date +%s.%N)" "$start")
  printf 'build_jobs = %d: %6.1f s for 12 builds (and 12 short executions)\n' "$jobs" "${took[$jobs]}"
done
printf 'speed-up -j 2 / -j 1: %.2fx\n' "$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "${took[1]}" "${took[2]}")"
q="SELECT s.name, b.build_index, b.seed, b.binary_hash FROM build b JOIN system s ON s.id = b.system_id ORDER BY 1, 2"
if [[ $(sqlite3 "$work/j1/campaign.db" "$q") == $(sqlite3 "$work/j2/campaign.db" "$q") ]]; then
  echo "artifacts: identical per (system, build) with -j 1 and -j 2"
else
  fail "the artifacts differ between -j 1 and -j 2"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
