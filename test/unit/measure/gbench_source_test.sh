#!/usr/bin/env bash
# End-to-end (alea run) of the gbench measurement source on a real Google
# Benchmark program built with alea-c++ over randomized layouts, with no
# --benchmark_* flag on its command line: the runner gives it
# BENCHMARK_FORMAT=json, BENCHMARK_REPETITIONS=<warm-up + iterations> and
# BENCHMARK_FILTER=<filter>, so every execution yields exactly that many
# positive iterations of the filtered benchmark, and the environment is
# recorded. A command that forces the console format fails each execution
# with what the program printed and how to get JSON.
# Usage: gbench_source_test.sh <alea> <programs dir>
set -euo pipefail
alea=$1 programs=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/alea-gbench-XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/campaign.toml" <<TOML
[campaign]
name = "gbench"
seed = 7

[levels]
builds = 2
executions = 2
iterations = 3
warmup = 1

[[system]]
name = "only"
shell = "\$CXX -O2 -DWORK=200000 -o gbench $programs/gbench.cpp -lbenchmark -lpthread"
artifacts = ["gbench"]

[[benchmark]]
name = "work"
command = ["{build_dir}/gbench"]
measure = { source = "gbench", filter = "BM_Work", field = "cpu_time" }

[[benchmark]]
name = "console"
command = ["{build_dir}/gbench", "--benchmark_format=console"]
measure = { source = "gbench", filter = "BM_Work" }
TOML

set +e
"$alea" run "$work/campaign.toml" --dir "$work/c" --no-report >"$work/run.out" 2>"$work/run.err"
status=$?
set -e
# The console benchmark's executions fail (recorded): exit status 3.
if [[ $status -ne 3 ]]; then
  echo "FAIL: alea run exited $status, expected 3"; cat "$work/run.err"; exit 1
fi

python3 - "$work/c/campaign.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
rows = db.execute("""SELECT e.id, e.status, e.error, e.environment, b.name
                     FROM execution e JOIN benchmark b ON b.id = e.benchmark_id""").fetchall()
work = [r for r in rows if r[4] == "work"]
console = [r for r in rows if r[4] == "console"]
check(len(work) == 4 and len(console) == 4, "2 builds x 2 executions of each benchmark: %s" % rows)
for eid, status, error, env, _ in work:
    check(status == "ok", "work execution %d ok: %s %s" % (eid, status, error))
    for var in ("BENCHMARK_FORMAT=json", "BENCHMARK_REPETITIONS=4", "BENCHMARK_FILTER=BM_Work"):
        check(var in env.split("\n"), "execution %d recorded %s: %r" % (eid, var, env))
    values = db.execute("SELECT iteration, value, warmup FROM measurement WHERE execution_id = ? "
                        "ORDER BY iteration", (eid,)).fetchall()
    # 4 repetitions of BM_Work alone (BM_Other filtered out, aggregates skipped).
    check([i for i, _, _ in values] == [0, 1, 2, 3], "4 iterations: %s" % values)
    check([w for _, _, w in values] == [1, 0, 0, 0], "the first is the warm-up: %s" % values)
    check(all(v > 0 for _, v, _ in values), "positive times: %s" % values)
for eid, status, error, _, _ in console:
    check(status == "iterations", "console execution %d failed: %s" % (eid, status))
    check(error.startswith("stdout is not Google Benchmark JSON: it begins with \"")
          and "BENCHMARK_FORMAT=json" in error and "--benchmark_format" in error,
          "the error says what the program printed and the way out: %r" % error)
print("PASS: gbench source (%d executions ok, %d failed with the hint)" % (len(work), len(console)))
PY
"$alea" report "$work/c" | tee "$work/report.txt" | grep -q "work on only: build (layout) effect"
