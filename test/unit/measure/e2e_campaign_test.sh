#!/usr/bin/env bash
# End-to-end (alea run + alea report) on small real programs built with
# alea-cc/alea-c++ over randomized layouts, one per iteration source:
# <alea/iter.h> records, a regex over self-timed output, Google Benchmark JSON,
# and none (the process's CPU time). System "tenth" does a tenth of the work of
# "base" in every program, so each ratio must come out far below 1 (about 0.1;
# the bounds are loose and the difference large because CI machines are loaded
# and a timing test must not depend on a quiet machine) and be decided
# "faster"; all four benchmarks are analysed; builds differ in layout (no
# "identical layouts" warning). Then a one-system campaign must be reported as
# a layout-sensitivity study.
# Usage: e2e_campaign_test.sh <alea> <programs dir> <dir holding alea/iter.h>
set -euo pipefail
alea=$1 programs=$2 include=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/alea-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT

build() { # $1 = extra flags; iterations timed in CPU time (the machine may be loaded)
  local f="$1 -DALEA_ITER_CLOCK=CLOCK_PROCESS_CPUTIME_ID"
  echo "\$CC -O2 $f -I$include -o good $programs/good.c && \$CC -O2 $f -o selftimed $programs/selftimed.c && \$CXX -O2 $f -o gbench $programs/gbench.cpp -lbenchmark -lpthread"
}

cat >"$work/campaign.toml" <<TOML
[campaign]
name = "e2e"
seed = 11
threshold = 0.02

[levels]
builds = 4
executions = 2
iterations = 5
warmup = 1

[[system]]
name = "base"
baseline = true
shell = "$(build "-DWORK=4000000")"
artifacts = ["good", "selftimed", "gbench"]

[[system]]
name = "tenth"
shell = "$(build "-DWORK=400000")"
artifacts = ["good", "selftimed", "gbench"]

[[benchmark]]
name = "records"
command = ["{build_dir}/good", "{iterations}"]
measure = { source = "records" }

[[benchmark]]
name = "regex"
command = ["{build_dir}/selftimed", "{iterations}"]
measure = { source = "regex", regex = 'iteration time: ([0-9.]+) ms', unit = "ms" }

[[benchmark]]
name = "gbench"
command = ["{build_dir}/gbench"]  # the runner adds JSON and the repetitions
measure = { source = "gbench", filter = "BM_Work", field = "cpu_time" }
TOML

"$alea" run "$work/campaign.toml" --dir "$work/c" --no-report >"$work/run.out" 2>"$work/run.err" || {
  echo "FAIL: alea run"; cat "$work/run.err"; exit 1; }
"$alea" report "$work/c" --format json >"$work/report.json"
"$alea" report "$work/c" | tee "$work/report.txt"

python3 - "$work/report.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c, r = doc["campaign"], doc["report"]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(c["failed_executions"] == 0, "no failed execution: %s" % c["failures"])
check(c["executions"] == c["planned_executions"] == 2 * 4 * 3 * 2, "all 48 executions ran")
check(not any("identical layouts" in w for w in c["warnings"]), "every build has its own layout")
import sqlite3
db = sqlite3.connect(sys.argv[1].replace("report.json", "c/campaign.db"))
prints = [f for (f,) in db.execute("SELECT fingerprint FROM build WHERE status = 'ok'")]
check(len(prints) == 8 and all(prints), "all 8 builds have a layout fingerprint: %s" % prints)
# The default design is paired: build i of both systems shares its seed (the pair's
# layout), so the layouts differ within each system, 4 of 4.
for s in ("base", "tenth"):
    own = [f for (f,) in db.execute("SELECT b.fingerprint FROM build b JOIN system s ON s.id = b.system_id "
                                    "WHERE b.status = 'ok' AND s.name = ?", (s,))]
    check(len(set(own)) == 4, "the 4 builds of %s have 4 different layouts: %s" % (s, own))
names = sorted(b["name"] for b in r["benchmarks"])
check(names == ["gbench", "records", "regex"], "all three benchmarks analysed: %s" % names)
for b in r["benchmarks"]:
    x = b["ratio"] if isinstance(b.get("ratio"), dict) else (b.get("ratios") or b.get("ratio"))[0]
    print(b["name"], "tenth/base =", round(x["estimate"], 3), "decision", x["decision"])
    check(0.02 < x["estimate"] < 0.5, "%s: ratio %g in (0.02, 0.5)" % (b["name"], x["estimate"]))
    check(x["decision"] == "faster", "%s decided faster" % b["name"])
    levels = [l["name"] for l in b["systems"][0]["levels"]]
    check(levels == ["build", "execution", "iteration"], "%s levels %s" % (b["name"], levels))
check(len(r["suite"]) == 1 if isinstance(r.get("suite"), list) else r.get("suite") is not None,
      "suite geometric mean reported")
PY
grep -q "observed best-to-worst .* (includes execution noise)" "$work/report.txt"

# Same store, same seed: byte-identical reports, whatever the thread count.
"$alea" report "$work/c" --threads 1 >"$work/report.t1"
"$alea" report "$work/c" --threads 2 >"$work/report.t2"
cmp "$work/report.txt" "$work/report.t1"
cmp "$work/report.t1" "$work/report.t2"
# A different bootstrap seed changes the bootstrap intervals only.
"$alea" report "$work/c" --seed 0x99 >"$work/report.s99"
if cmp -s "$work/report.txt" "$work/report.s99"; then
  echo "FAIL: --seed did not change the bootstrap"; exit 1
fi

# Usage errors: one line `alea: error: ...`, exit status 1.
for args in "$work/nope" "$work/c --format xml" "$work/c --seed banana"; do
  set +e
  # shellcheck disable=SC2086
  "$alea" report $args >"$work/err.out" 2>"$work/err.txt"
  st=$?
  set -e
  if [[ $st -ne 1 || $(wc -l <"$work/err.txt") -ne 1 ]] || ! grep -q "^alea: error: " "$work/err.txt"; then
    echo "FAIL: alea report $args: status $st, stderr:"; cat "$work/err.txt"; exit 1
  fi
  cat "$work/err.txt"
done

# Source "none": one measurement per execution (the process's CPU time, user +
# sys from wait4: its wall time on a busy machine would measure the load), so
# the iteration level is absent.
cat >"$work/cpu.toml" <<TOML
[campaign]
name = "cpu"
seed = 5
[levels]
builds = 4
executions = 2
[measure]
source = "none"
metric = "cpu"
[[system]]
name = "base"
baseline = true
shell = "\$CC -O2 -DWORK=4000000 -I$include -o good $programs/good.c"
[[system]]
name = "tenth"
shell = "\$CC -O2 -DWORK=400000 -I$include -o good $programs/good.c"
[[benchmark]]
name = "cpu"
command = ["{build_dir}/good", "8"]
TOML
"$alea" run "$work/cpu.toml" --dir "$work/w" --no-report >/dev/null 2>"$work/cpu.err" || {
  echo "FAIL: alea run (cpu)"; cat "$work/cpu.err"; exit 1; }
"$alea" report "$work/w" --format json >"$work/cpu.json"
"$alea" report "$work/w"
python3 - "$work/cpu.json" "$work/report.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))["report"]
b = r["benchmarks"][0]
x = b["ratio"] if isinstance(b.get("ratio"), dict) else (b.get("ratios") or b.get("ratio"))[0]
print("cpu tenth/base =", round(x["estimate"], 3), x["decision"])
levels = [l["name"] for l in b["systems"][0]["levels"]]
assert levels == ["build", "execution"], levels
# Process start-up is included, so the ratio is nearer 1 than 0.1.
assert 0.02 < x["estimate"] < 0.7, x["estimate"]
assert x["decision"] == "faster", x["decision"]
PY

# One system: a layout-sensitivity study.
cat >"$work/single.toml" <<TOML
[campaign]
name = "single"
seed = 3
[levels]
builds = 2
executions = 2
iterations = 3
[[system]]
name = "only"
shell = "\$CC -O2 -I$include -o good $programs/good.c"
[[benchmark]]
name = "records"
command = ["{build_dir}/good", "{iterations}"]
measure = { source = "records" }
TOML
"$alea" run "$work/single.toml" --dir "$work/s" --no-report >/dev/null 2>"$work/single.err" || {
  echo "FAIL: alea run (single)"; cat "$work/single.err"; exit 1; }
"$alea" report "$work/s" >"$work/single.txt"
cat "$work/single.txt"
grep -q "one system: a layout-sensitivity study" "$work/single.txt"
grep -q "records on only: build (layout) effect: .*observed best-to-worst .* (includes execution noise)" "$work/single.txt"
echo "PASS: end-to-end campaign on real programs"
