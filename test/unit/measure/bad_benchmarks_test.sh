#!/usr/bin/env bash
# End-to-end (alea run + alea report): a campaign with one good benchmark and
# three bad ones: one crashes (SIGSEGV), one hangs past its 1 s timeout, one
# prints garbage instead of its iterations. Each bad execution must be recorded
# as a failure with its cause and reported; the campaign must finish; the good
# benchmark's results must be reported (ratio of the two systems). Its
# iterations are timed in CPU time (ALEA_ITER_CLOCK): the ratio is checked,
# and wall time on a busy machine would measure the load.
# Usage: bad_benchmarks_test.sh <alea> <programs dir> <dir holding alea/iter.h>
set -euo pipefail
alea=$1 programs=$2 include=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/alea-bad-XXXXXX")
trap 'rm -rf "$work"' EXIT
cpu=-DALEA_ITER_CLOCK=CLOCK_PROCESS_CPUTIME_ID # iterations in CPU time, as said above

cat >"$work/campaign.toml" <<TOML
[campaign]
name = "bad benchmarks"
seed = 7
timeout = 30

[levels]
builds = 2
executions = 2
iterations = 4
warmup = 1

[measure]
source = "records"

[[system]]
name = "base"
baseline = true
shell = "\$CC -O1 $cpu -I$include -o good $programs/good.c && \$CC -O1 -I$include -o crash $programs/crash.c && \$CC -O1 -o hang $programs/hang.c && \$CC -O1 -o garbage $programs/garbage.c"

[[system]]
name = "half"
shell = "\$CC -O1 $cpu -DWORK=2000000 -I$include -o good $programs/good.c && \$CC -O1 -I$include -o crash $programs/crash.c && \$CC -O1 -o hang $programs/hang.c && \$CC -O1 -o garbage $programs/garbage.c"

[[benchmark]]
name = "good"
command = ["{build_dir}/good", "{iterations}"]

[[benchmark]]
name = "crash"
command = ["{build_dir}/crash"]

[[benchmark]]
name = "hang"
command = ["{build_dir}/hang"]
timeout = 1

[[benchmark]]
name = "garbage"
command = ["{build_dir}/garbage"]
measure = { source = "regex", regex = 'iteration time: ([0-9.]+) ms', unit = "ms" }
TOML

set +e
"$alea" run "$work/campaign.toml" --dir "$work/c" --no-report >"$work/run.out" 2>"$work/run.err"
status=$?
set -e
echo "alea run exit status: $status"
tail -n 3 "$work/run.err"
# 3: the campaign finished with failed executions (docs/campaign.md, "Exit status").
if [[ $status -ne 3 ]]; then
  echo "FAIL: alea run exited $status, expected 3 (finished, with failed executions)"
  cat "$work/run.err"; exit 1
fi

"$alea" report "$work/c" >"$work/report.txt"
"$alea" report "$work/c" --format json >"$work/report.json"
"$alea" report "$work/c" --format csv >"$work/report.csv"
"$alea" report "$work/c" --format md >"$work/report.md"
cat "$work/report.txt"

python3 - "$work/report.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["campaign"]
fails = {}
for f in c["failures"]:
    fails.setdefault((f["benchmark"], f["status"]), 0)
    fails[(f["benchmark"], f["status"])] += f["count"]
    print("failure:", f["benchmark"], f["system"], f["status"], f["cause"], f["count"])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
# 2 systems x 2 builds x 2 executions = 8 executions per benchmark.
check(c["planned_executions"] == 32, "32 planned executions")
check(c["executions"] == 32, "the campaign finished: every planned execution recorded")
check(fails.get(("crash", "signal")) == 8, "8 crashes recorded as signal")
check(fails.get(("hang", "timeout")) == 8, "8 hangs recorded as timeout")
check(fails.get(("garbage", "iterations")) == 8, "8 garbage outputs recorded as iterations failures")
check(c["failed_executions"] == 24, "24 failed executions")
check(any("SIGSEGV" in f["cause"] and "about to dereference NULL" in f["stderr_tail"]
          for f in c["failures"]), "the crash's signal name and stderr tail are reported")
check(any("no iteration matched" in f["cause"] for f in c["failures"]), "garbage: no iteration matched")
check(any("timed out" in f["cause"] for f in c["failures"]), "hang: timed out")
r = doc["report"]
check(r is not None, "the good benchmark is analysed")
names = [b["name"] for b in r["benchmarks"]]
check(names == ["good"], "only the good benchmark is analysed: %s" % names)
ratio = r["benchmarks"][0]["ratio"] if "ratio" in r["benchmarks"][0] else r["benchmarks"][0]["ratios"][0]
if isinstance(ratio, list):
    ratio = ratio[0]
est = ratio["estimate"]
print("good: half vs base ratio", est)
# 'half' does half the work of 'base' per iteration: the ratio must be well below 1.
check(0.1 < est < 0.8, "ratio of half vs base well below 1 (got %g)" % est)
for w in ("failed: 4 executions of crash on base", "not analysed: hang"):
    check(any(w in x for x in c["warnings"]), "warning: " + w)
PY

grep -q "killed by signal 11 (SIGSEGV)" "$work/report.txt"
grep -q "stderr| crash: about to dereference NULL" "$work/report.txt"
grep -q "^crash,base,,failures,signal,4,,,$" "$work/report.csv"
grep -q "## Failures" "$work/report.md"
echo "PASS: bad benchmarks recorded and reported; the good one analysed"
