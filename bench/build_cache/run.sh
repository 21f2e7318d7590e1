#!/usr/bin/env bash
# The build phase of a 12-build, 2-system campaign (6 builds per system, a
# serial build each) of a real project from Debian's sources, three ways side
# by side in one run (issue 23; docs/campaign.md, "Parallel builds" and "Build
# cache"):
#   A  build_jobs = 1                     (one build at a time, no cache)
#   B  build_jobs = 2                     (two at a time, no cache)
#   C  build_jobs = 1, build_cache = true (one at a time, the cache)
# It prints the build phase's wall time of each, the ratio A / B, and the CPU
# time (user + system of the build's processes, /usr/bin/time around the
# build) of every build: A's mean, C's first build of each system (the cache
# is filled) and C's later builds (reused), as ratios to A's. It checks that
# the three campaigns made byte-identical artifacts per (system, build).
# Not a test: the times depend on the machine and its load.
#
# Usage: run.sh lua|sqlite3 [BUILD_DIR]
#   lua      Lua 5.4 (lua5.4), `make linux`, 34 C files; systems -O2 and -O1
#   sqlite3  SQLite 3.40 (sqlite3): its amalgamation sqlite3.c (8.6 MB, one
#            unit) and shell.c, made once beforehand with its configure (tclsh);
#            systems -O2 and -O1
set -euo pipefail
project=${1:?usage: run.sh lua|sqlite3 [BUILD_DIR]}
ALEA_BUILD=${2:-$(dirname "$0")/../../build}
source "$(dirname "$0")/../../test/projects/common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || fail "/usr/bin/time is needed (apt-get install time)"

case $project in
lua)
  src=$(fetch_source lua5.4 --skip-patches)
  build() { echo "cp -a $src/. . && /usr/bin/time -f '%U %S' -o cpu.txt make linux CC=\\\"\$CC\\\" MYCFLAGS=$1 >make.out 2>&1"; }
  artifact=src/lua
  ;;
sqlite3)
  # The amalgamation once (its configure and tclsh), then each build compiles it.
  pkg=$(fetch_source sqlite3 --skip-patches)
  src="$work/sqlite3-src"
  cp -a "$pkg" "$src"
  (cd "$src" && ./configure >configure.out 2>&1 && make sqlite3.c shell.c >amalgamation.out 2>&1) ||
    fail "the sqlite3 amalgamation could not be made (see $src/amalgamation.out)"
  build() {
    local f="$1 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
    echo "/usr/bin/time -f '%U %S' -o cpu.txt sh -c '\$CC $f -I$src -c $src/sqlite3.c -o sqlite3.o && \$CC $f -I$src -c $src/shell.c -o shell.o && \$CC sqlite3.o shell.o -o sqlite3 -lm' >make.out 2>&1"
  }
  artifact=sqlite3
  ;;
*) fail "unknown project '$project' (lua or sqlite3)" ;;
esac

campaign() { # FILE CACHE(true|false)
  cat >"$1" <<TOML
[campaign]
name = "$project builds"
seed = "0x1a"
build_cache = $2
[levels]
builds = 6
executions = 1
[[system]]
name = "O2"
baseline = true
shell = "$(build -O2)"
artifacts = ["$artifact"]
[[system]]
name = "O1"
shell = "$(build -O1)"
artifacts = ["$artifact"]
[[benchmark]]
name = "runs"
command = ["{artifact:$artifact}", "-version"]
TOML
}
campaign "$work/plain.toml" false
campaign "$work/cached.toml" true
[[ $project == lua ]] && sed -i 's/"-version"/"-v"/' "$work/plain.toml" "$work/cached.toml"

echo "$project: 2 systems x 6 builds; $(nproc) CPUs; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A wall
for run in A:plain:1 B:plain:2 C:cached:1; do
  IFS=: read -r name file jobs <<<"$run"
  start=$(date +%s.%N)
  "$ALEA" run "$work/$file.toml" --dir "$work/$name" -j "$jobs" --no-report >"$work/$name.log" 2>&1 ||
    { tail "$work/$name.log"; fail "campaign $name failed"; }
  wall[$name]=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start")
done

python3 - "$work" "${wall[A]}" "${wall[B]}" "${wall[C]}" <<'PY'
import glob, os, sqlite3, statistics, sys
work, wa, wb, wc = sys.argv[1], *map(float, sys.argv[2:])
def cpu(run):
    out = {}
    for f in glob.glob(os.path.join(work, run, "builds", "*", "*", "cpu.txt")):
        system, index = f.split(os.sep)[-3:-1]
        u, s = open(f).read().split()[:2]
        out[(system, int(index))] = float(u) + float(s)
    return out
def artifacts(run):
    with sqlite3.connect(os.path.join(work, run, "campaign.db")) as db:
        return db.execute("SELECT s.name, b.build_index, b.seed, b.binary_hash FROM build b "
                          "JOIN system s ON s.id = b.system_id ORDER BY 1, 2").fetchall()
a, c = cpu("A"), cpu("C")
assert len(a) == 12 and len(c) == 12, (a, c)
plain = statistics.mean(a.values())
first = statistics.mean(v for (s, i), v in c.items() if i == 0)
later = statistics.mean(v for (s, i), v in c.items() if i > 0)
print(f"build phase (wall, with 12 short executions):")
print(f"  A build_jobs = 1            {wa:7.1f} s")
print(f"  B build_jobs = 2            {wb:7.1f} s   A / B = {wa / wb:.2f}x")
print(f"  C build_jobs = 1, cache     {wc:7.1f} s   A / C = {wa / wc:.2f}x")
print(f"CPU per build (user + system of the build):")
print(f"  uncached (A, mean of 12)    {plain:7.2f} s")
print(f"  cached, first of a system   {first:7.2f} s   {first / plain:.2f}x (fills the cache)")
print(f"  cached, later builds (10)   {later:7.2f} s   {later / plain:.2f}x")
same = artifacts("A") == artifacts("B") == artifacts("C")
print("artifacts: " + ("identical per (system, build) in A, B and C" if same else "DIFFER"))
sys.exit(0 if same else 1)
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
