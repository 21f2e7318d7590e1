#!/usr/bin/env bash
# `alea report` on a campaign store of 1,000,000 measurements (issue 10; a
# benchmark, not a test: it prints figures and asserts nothing). Goal: under
# 5 s and under 500 MB on 2 cores, text and HTML.
#
# The store: 2 systems x 5 benchmarks x 20 builds x 10 executions x 500
# iterations (+5 warm-up iterations per execution, flagged as such and left
# out by the report), written once by alea_report_gen_store through the
# runner's Store API as `alea run` records a campaign (conditions of every
# execution included, so the noise diagnosis runs), and cached in
# <build>/bench-report/ with its long CSV (`alea export`), which `alea
# analyze` reads. Delete that folder to write them again.
#
# Each round runs, one after the other: `alea report STORE` (text), `alea
# report STORE --format html -o out.html` when this alea has the HTML format
# (the script looks for "html" in `alea report --help`, so it works before
# and after that format lands), and `alea analyze CSV`; each under
# `/usr/bin/time` (wall time, peak RSS, and user + sys CPU time, which counts
# both bootstrap threads and is what a busy machine changes least). It prints
# every round, the medians, their ratio to the goal (time / 5 s, memory /
# 500 MB), the HTML's size, and then one run of alea_report_phases: the same
# report step by step (load, statistics, text) and the statistics engine's
# parts alone.
#
# A shared machine: on a 2-core machine where other processes keep a CPU busy
# the bootstrap's two threads do not run side by side, and the wall times mean
# little. Before each round the script waits until other processes keep fewer
# than 0.3 CPUs busy (/proc/stat over 0.5 s; at most ALEA_BENCH_QUIET_WAIT
# seconds, default 60, then it runs anyway) and prints what it found.
#
# Usage: bench/report/run.sh [build-dir] [rounds (3)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-3}
cmake --build "$build" --target alea alea_report_gen_store alea_report_phases -j 2 >/dev/null ||
  { echo "build failed" >&2; exit 1; }
alea=$build/bin/alea
data=$build/bench-report
mkdir -p "$data"
shape=(2 5 20 10 500 5 1) # systems benchmarks builds executions iterations warm-up seed
store=$data/campaign-$(IFS=x; echo "${shape[*]}").db
csv=${store%.db}.csv
if [[ ! -f $store ]]; then
  echo "writing $store"
  /usr/bin/time -f "  %e s, peak RSS %M KB" "$build/bin/alea_report_gen_store" "$store.tmp" "${shape[@]}"
  mv "$store.tmp" "$store"
fi
[[ -f $csv ]] || "$alea" export "$store" -o "$csv" 2>/dev/null
html=0
"$alea" report --help 2>&1 | grep -qi html && html=1
echo "store: $(du -m "$store" | cut -f1) MB, CSV $(du -m "$csv" | cut -f1) MB; HTML format: $([[ $html == 1 ]] && echo yes || echo 'not in this alea')"

# Runs a command under /usr/bin/time; appends "wall KB cpu" to the file $1.
measure() {
  local out=$1; shift
  local t
  t=$(mktemp)
  /usr/bin/time -f "%e %M %U %S" -o "$t" "$@" >/dev/null
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$t" >>"$out"
  rm -f "$t"
}

# CPUs kept busy by other processes over half a second (/proc/stat).
busy_cpus() {
  local a b
  a=$(head -1 /proc/stat)
  sleep 0.5
  b=$(head -1 /proc/stat)
  awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN {
    split(a, x); split(b, y); total = 0
    for (i = 2; i <= 11; i++) total += y[i] - x[i]
    idle = (y[5] - x[5]) + (y[6] - x[6])
    printf "%.2f", (total > 0 ? n * (1 - idle / total) : 0) }'
}
wait_quiet() {
  local start=$SECONDS busy
  while true; do
    busy=$(busy_cpus)
    if awk -v b="$busy" 'BEGIN { exit !(b < 0.3) }' || ((SECONDS - start >= ${ALEA_BENCH_QUIET_WAIT:-60})); then
      echo "$busy CPUs busy with other processes (waited $((SECONDS - start)) s)"
      return
    fi
  done
}

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for ((r = 1; r <= rounds; r++)); do
  echo "round $r: $(wait_quiet)"
  measure "$results/text" "$alea" report "$store"
  echo "  report, text : $(tail -1 "$results/text" | awk '{ printf "%6.2f s %7.1f MB  CPU %5.2f s", $1, $2 / 1024, $3 }')"
  if [[ $html == 1 ]]; then
    measure "$results/html" "$alea" report "$store" --format html -o "$data/out.html"
    echo "  report, HTML : $(tail -1 "$results/html" | awk '{ printf "%6.2f s %7.1f MB  CPU %5.2f s", $1, $2 / 1024, $3 }')"
  fi
  measure "$results/analyze" "$alea" analyze "$csv"
  echo "  analyze (CSV): $(tail -1 "$results/analyze" | awk '{ printf "%6.2f s %7.1f MB  CPU %5.2f s", $1, $2 / 1024, $3 }')"
done

# Median of column $2 of file $1.
median() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians of $rounds rounds (goal: 5 s, 500 MB):"
for what in text html analyze; do
  [[ -f $results/$what ]] || continue
  wall=$(median "$results/$what" 1)
  kb=$(median "$results/$what" 2)
  cpu=$(median "$results/$what" 3)
  awk -v w="$wall" -v k="$kb" -v c="$cpu" -v n="$what" 'BEGIN {
    printf "  %-8s %6.2f s (%.2fx the goal)  %7.1f MB (%.2fx the goal)  CPU %5.2f s\n",
           n, w, w / 5, k / 1024, k / 1024 / 500, c }'
done
if [[ $html == 1 && -f $data/out.html ]]; then
  echo "  HTML size: $(wc -c <"$data/out.html") bytes ($(gzip -c "$data/out.html" | wc -c) gzipped)"
fi
echo
"$build/bin/alea_report_phases" "$store"
