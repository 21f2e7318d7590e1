#!/usr/bin/env bash
# Validity of the campaign designs (issues 8, 19; a benchmark, not a test:
# nothing asserts). Does the report's 95% confidence interval of the ratio behave
# as advertised, on a loaded or an idle machine, for each design?
#
#   - the program (--workload): `c` (default), the three small C files of
#     bench/validity/cwork (a dispatch loop and a hash table, ~18 ms per
#     execution with the default 800 repetitions: a campaign takes seconds, so
#     that hundreds of campaigns per design tell a 10% false-alarm rate from
#     5%); or `lua`, Lua 5.4 from Debian's source package (`apt-get source
#     lua5.4`, through test/projects/common.sh's cache; luai_makeseed fixed, so
#     that the interpreter's work does not depend on its addresses) running
#     bench/validity/work.lua (~0.15 s of CPU with 300 repetitions). Either is
#     built POOL times with alea-cc and different ALEA_SEED values (every factor
#     on), once, kept in the work dir. Each campaign's builds copy pool
#     binaries, so a campaign costs seconds, not a rebuild: base and cand get
#     2 x BUILDS distinct binaries drawn per campaign (the same draw in every
#     design), as the unpaired design's seeds do (one per system and build);
#     in the paired designs cand's build i is base's build i, the binary a
#     shared pair seed (seeds.hpp, pairSeed) builds from the same source
#     (--independent-pairs: the unpaired draw, as alea before issue 19 seeded
#     paired builds); wall time of each execution (measure source "none": one
#     value per execution);
#   - the load: a looping `make -j LOAD_JOBS` of the Lua sources with clang-19
#     in a scratch dir, started by this script and killed when it exits
#     (--load-jobs 0: none, the "idle" runs);
#   - N A/A campaigns (cand = base: the same source, flags and repetitions) and
#     M (--slow-n, default N) campaigns whose candidate runs round(REPS x (1 + SLOWDOWN)) repetitions
#     (a known slowdown; its true ratio is calibrated: start-up share measured),
#     for each design, each design with the same builds x executions x
#     iterations (2 systems x BUILDS x EXECUTIONS x 1). The campaigns run
#     interleaved (i, kind, designs in rotating order) so that the machine's
#     drift hits every design alike.
#
# The figures come from `alea analyze` of each campaign's measurements, with
# --paired for interleaved and duet (build i of cand with build i of base;
# `alea report` of a campaign does not pair yet); beside them: the campaign's
# own report, the unpaired analysis of the same data, the CPU-time ratio of the
# same executions (from the store) and duet's overlap.
# Prints per design: false alarms of the A/A campaigns, coverage of the true
# ratio, power, median relative CI half-width, how much narrower than unpaired,
# the time used; writes the raw per-campaign results to RUN/results.csv.
# Re-runnable: campaigns already done (RUN/<design>/<kind>-<i>/row.csv) are kept
# (a larger -n adds campaigns to them), an interrupted one resumes (`alea run`
# resumes its store); --fresh starts over.
#
# Usage: bench/validity/run.sh [options] [BUILD_DIR]
#   -n N               A/A campaigns per design (default 20)
#   --slow-n M         slowdown campaigns per design (default N)
#   --workload W       c (default) or lua
#   --slowdown X       injected slowdown, relative (default 0.10)
#   --designs "A B"    designs to run (default "unpaired interleaved duet"; a
#                      design `alea run` does not accept yet is skipped, said)
#   --builds B         builds per system (default 5)
#   --executions E     executions per build (default 3)
#   --reps R           workload repetitions of the baseline (default: c 800, lua 300)
#   --pool P           pool of randomized binaries (default 40)
#   --independent-pairs  paired designs' cand builds are their own draws, not
#                      their pair's base binary (the seeding before issue 19)
#   --load-jobs J      parallel jobs of the background make (default 2; 0: none)
#   --metrics M        wall (default): wall time of each execution; sim: every
#                      campaign measures `metrics = ["sim-cycles", "wall"]`
#                      (issue 20: each execution runs natively for wall, then
#                      under cachegrind), decides on sim-cycles, and gives one
#                      row per metric (design "<design>:sim-cycles" and
#                      "<design>:wall") from the same campaigns; the true ratio
#                      of sim-cycles is calibrated under cachegrind; the summary
#                      adds the machine time per campaign and the precision per
#                      machine-minute of each metric (validity.py simtable)
#   --threshold T      the campaigns' decision threshold (default: alea's, 0.01;
#                      "slower" = the whole interval above 1 + T)
#   --fresh            discard this configuration's campaigns and start over
#   --prepare          only fetch Lua and build the pool, then exit
#   --reanalyse        run nothing: report and analyse again this configuration's
#                      finished campaigns (e.g. after the analysis changed) and
#                      print the summary
# Work dir: $ALEA_VALIDITY_DIR, default <repo>/_work/validity. The pool is kept
# across runs and configurations: delete WORK/pool after changing alea-cc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${ALEA_VALIDITY_DIR:-$root/_work/validity} # read before common.sh unsets ALEA_*

n=20 slow_n= workload=c slowdown=0.10 designs="unpaired interleaved duet" builds=5 executions=3
reps= pool=40 load_jobs=2 independent_pairs=0 fresh=0 prepare=0 reanalyse=0 build_arg= metrics=wall threshold=
while (($#)); do
  case $1 in
    -n) n=$2; shift 2 ;;
    --slow-n) slow_n=$2; shift 2 ;;
    --workload) workload=$2; shift 2 ;;
    --slowdown) slowdown=$2; shift 2 ;;
    --designs) designs=$2; shift 2 ;;
    --builds) builds=$2; shift 2 ;;
    --executions) executions=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --pool) pool=$2; shift 2 ;;
    --load-jobs) load_jobs=$2; shift 2 ;;
    --metrics) metrics=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --independent-pairs) independent_pairs=1; shift ;;
    --fresh) fresh=1; shift ;;
    --prepare) prepare=1; shift ;;
    --reanalyse) reanalyse=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) build_arg=$1; shift ;;
  esac
done
export ALEA_BUILD=$(cd "${build_arg:-$root/build}" && pwd)
slow_n=${slow_n:-$n}
case $workload in
  c) reps=${reps:-800} ;;
  lua) reps=${reps:-300} ;;
  *) echo "run.sh: --workload is c or lua, not $workload" >&2; exit 2 ;;
esac
case $metrics in
  wall) metric_names=("") ;; # one metric: the files keep their names (export.csv, ...)
  sim) metric_names=(sim-cycles wall) ;;
  *) echo "run.sh: --metrics is wall or sim, not $metrics" >&2; exit 2 ;;
esac
source "$root/test/projects/common.sh" # fail, note, fetch_source, fresh_copy; PATH
py="python3 $here/validity.py"
mkdir -p "$work"
work=$(cd "$work" && pwd)
slow_reps=$(python3 -c "print(round($reps * (1 + $slowdown)))")
t_start=$SECONDS

# ---------------------------------------------------------------- the pool
# Lua's sources: the lua workload's program, and the background load of both.
src=$(fetch_source lua5.4 --skip-patches)
# The pool of one workload: $pooldir/$prog.I; the lua pool keeps its old place.
if [[ $workload == lua ]]; then prog=lua pooldir=$work/pool; else prog=work pooldir=$work/pool-c; fi
mkdir -p "$pooldir"
note "pool: $pool $workload binaries built with alea-cc (ALEA_SEED 1000..$((1000 + pool - 1)), every factor), kept in $pooldir"
built=0
for ((i = 0; i < pool; i++)); do
  [[ -x $pooldir/$prog.$i ]] && continue
  if [[ $workload == lua ]]; then
    fresh_copy "$src" "$work/pool-build"
    (
      cd "$work/pool-build/src"
      export ALEA_SEED=$((1000 + i))
      make -j2 linux-noreadline ALL=lua CC=alea-cc MYCFLAGS="-D'luai_makeseed(L)=0'" >make.out 2>&1 ||
        { tail -20 make.out; fail "pool build $i (ALEA_SEED $ALEA_SEED) failed"; }
    )
    cp "$work/pool-build/src/lua" "$pooldir/$prog.$i.tmp"
  else
    rm -rf "$work/pool-build"
    cp -r "$here/cwork" "$work/pool-build"
    (
      cd "$work/pool-build"
      export ALEA_SEED=$((1000 + i))
      make -s CC=alea-cc >make.out 2>&1 || { tail -20 make.out; fail "pool build $i (ALEA_SEED $ALEA_SEED) failed"; }
    )
    cp "$work/pool-build/work" "$pooldir/$prog.$i.tmp"
  fi
  mv "$pooldir/$prog.$i.tmp" "$pooldir/$prog.$i"
  built=$((built + 1))
  echo "   built pool binary $i ($((SECONDS - t_start)) s)"
done
rm -rf "$work/pool-build"
distinct=$(for ((i = 0; i < pool; i++)); do "$ALEA" layout --fingerprint "$pooldir/$prog.$i"; done | sort -u | wc -l)
((distinct == pool)) || fail "the pool has $distinct distinct layouts out of $pool binaries"
note "pool ready: $pool binaries, $distinct distinct layout fingerprints ($built built now, $((SECONDS - t_start)) s)"
((prepare)) && exit 0

# ---------------------------------------------------------------- designs
# A design `alea run` does not accept yet (issue 8 not merged) is skipped;
# "unpaired" is today's design, run without the key when the key is unknown.
probe_design() { # DESIGN -> 0 when `alea run` accepts `design = DESIGN`
  local d=$work/probe/$1
  rm -rf "$d"
  mkdir -p "$d"
  cat >"$d/c.toml" <<TOML
[campaign]
seed = 1
design = "$1"
[levels]
builds = 1
executions = 1
[[system]]
name = "base"
baseline = true
build = ["true"]
[[system]]
name = "cand"
build = ["true"]
[[benchmark]]
name = "true"
command = ["/bin/true"]
TOML
  "$ALEA" run "$d/c.toml" --no-report >"$d/out" 2>&1
}
run_designs=() design_key=()
for d in $designs; do
  if probe_design "$d"; then
    run_designs+=("$d") design_key+=("design = \"$d\"")
  elif [[ $d == unpaired ]]; then
    run_designs+=("$d") design_key+=("")
    note "design unpaired: \`alea run\` does not know the design key yet; run with today's (unpaired) schedule"
  else
    note "design $d: skipped, \`alea run\` does not accept it: $(grep -m1 error "$work/probe/$d/out" || tail -1 "$work/probe/$d/out")"
  fi
done
((${#run_designs[@]})) || fail "no design to run"

# ---------------------------------------------------------------- the run dir
# Without N: a larger -n keeps the campaigns already done and adds the others.
tag="$workload-slow$slowdown-reps$reps-${builds}x$executions-pool$pool-load$load_jobs"
((independent_pairs)) && tag+=-independent || tag+=-shared
[[ $metrics == sim ]] && tag+=-sim
[[ -n $threshold ]] && tag+=-thr$threshold
run=$work/runs/$tag
if ((fresh)); then rm -rf "$run"; fi
mkdir -p "$run"
cp "$here/work.lua" "$run/work.lua"
# The workload's command after the binary: the script (lua), then REPS.
if [[ $workload == lua ]]; then script=("$run/work.lua"); else script=(); fi

# ---------------------------------------------------------------- the load
load_pid=
stop_load() {
  if [[ -n $load_pid ]]; then
    kill -TERM -- "-$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    load_pid=
  fi
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT
trap 'stop_load; exit 143' TERM
if ((reanalyse)); then
  note "re-analysis: \`alea report\` again on the campaigns of $run (nothing is run)"
  [[ -f $run/calibration.json ]] || fail "$run has no calibration.json: nothing to re-analyse"
elif ((load_jobs > 0)); then
  fresh_copy "$src" "$work/load"
  # its own session (process group = its pid): stop_load kills exactly it and its makes
  setsid bash -c 'cd "$1/src" && while :; do make -s -j"$2" linux-noreadline CC=clang-19 >/dev/null 2>&1; make -s clean >/dev/null 2>&1; done' \
    load "$work/load" "$load_jobs" </dev/null &
  load_pid=$!
  sleep 5
  note "load: a looping \`make -j$load_jobs\` of Lua's sources with clang-19 (process group $load_pid); load average now $(cut -d' ' -f1-3 /proc/loadavg)"
else
  note "load: none"
fi

# ---------------------------------------------------------------- calibration
if ((reanalyse)); then
  cat "$run/calibration.txt"
elif [[ ! -f $run/calibration.json ]]; then
  cal_bins=()
  for ((i = 0; i < pool; i += 2)); do cal_bins+=("$pooldir/$prog.$i"); done
  rounds=2
  [[ $workload == c ]] && rounds=10 # 18 ms executions: more rounds, as cheap
  $py calibrate "$run/calibration.json.tmp" "$reps" "$slow_reps" "$rounds" "${script[*]:--}" "${cal_bins[@]}" |
    tee "$run/calibration.txt"
  if [[ $metrics == sim ]]; then
    # The true ratio in sim-cycles, measured by alea itself (its cachegrind
    # command, heap-offset runtime and environment padding: the campaigns'
    # intervals are a few parts per million wide, narrower than what running
    # cachegrind by hand would match): every pool binary once at 0, REPS and
    # SLOW_REPS repetitions; the ratio of the means over the whole pool is the
    # campaigns' estimand (they draw their builds from it). Lua under cachegrind
    # takes seconds per execution: its first 4 pool binaries only (the counts
    # vary by a few parts per million between binaries).
    cs=$run/calibration-sim
    rm -rf "$cs"
    mkdir -p "$cs"
    {
      printf '[campaign]\nname = "sim-cycles calibration"\nseed = 7\ntimeout = 120\n\n'
      printf '[levels]\nbuilds = %d\nexecutions = 1\niterations = 1\n\n' "$([[ $workload == lua ]] && echo $((pool < 4 ? pool : 4)) || echo "$pool")"
      printf '[measure]\nsource = "none"\nmetric = "sim-cycles"\n\n'
      for sr in "base $reps" "zero 0" "cand $slow_reps"; do
        set -- $sr
        printf '[[system]]\nname = "%s"\n%bshell = "cp %s/%s.{build_index} %s && echo %s >reps"\nartifacts = ["%s"]\n\n' \
          "$1" "$([[ $1 == base ]] && echo 'baseline = true\n')" "$pooldir" "$prog" "$prog" "$2" "$prog"
      done
      printf '[[benchmark]]\nname = "%s"\ncommand = ["{artifact:%s}", %s"{build_dir}/reps"]\n' \
        "$prog" "$prog" "${script:+\"$run/work.lua\", }"
    } >"$cs/campaign.toml"
    "$ALEA" run "$cs/campaign.toml" --dir "$cs/campaign.alea" --no-report >"$cs/run.out" 2>&1 ||
      { tail -5 "$cs/run.out" >&2; fail "the sim-cycles calibration campaign failed"; }
    $py calibrate-sim "$run/calibration.json.tmp" "$cs/campaign.alea/campaign.db" "$reps" "$slow_reps" |
      tee -a "$run/calibration.txt"
    rm -rf "$cs/campaign.alea/objects"
  fi
  mv "$run/calibration.json.tmp" "$run/calibration.json"
else
  cat "$run/calibration.txt"
fi

# ---------------------------------------------------------------- campaigns
run_campaign() { # DESIGN_INDEX KIND INDEX
  local di=$1 kind=$2 i=$3
  local design=${run_designs[$di]} key=${design_key[$di]}
  local dir=$run/$design/$kind-$(printf '%03d' "$i")
  [[ -f $dir/row.csv ]] && return 0
  mkdir -p "$dir/pick/base" "$dir/pick/cand"
  local picks base_picks cand_picks b seed cand_r=$reps
  picks=$($py pick "$pool" "$builds" "$kind" "$i")
  base_picks=($(sed -n 's/^base: //p' <<<"$picks"))
  cand_picks=($(sed -n 's/^cand: //p' <<<"$picks"))
  [[ $design != unpaired ]] && ((!independent_pairs)) && cand_picks=("${base_picks[@]}")
  for ((b = 0; b < builds; b++)); do
    ln -sfn "$pooldir/$prog.${base_picks[b]}" "$dir/pick/base/$b"
    ln -sfn "$pooldir/$prog.${cand_picks[b]}" "$dir/pick/cand/$b"
  done
  [[ $kind == slow ]] && cand_r=$slow_reps
  [[ $kind == aa ]] && seed=$((100000 + i)) || seed=$((200000 + i))
  cat >"$dir/campaign.toml" <<TOML
[campaign]
name = "$design $kind $i"
seed = $seed
timeout = 120
${threshold:+threshold = $threshold}
$key

[levels]
builds = $builds
executions = $executions
iterations = 1

[measure]
source = "none"
$([[ $metrics == sim ]] && echo 'metrics = ["sim-cycles", "wall"]')

[[system]]
name = "base"
baseline = true
shell = "cp {source_dir}/pick/base/{build_index} $prog && echo $reps >reps"
artifacts = ["$prog"]

[[system]]
name = "cand"
shell = "cp {source_dir}/pick/cand/{build_index} $prog && echo $cand_r >reps"
artifacts = ["$prog"]

[[benchmark]]
name = "$prog"
command = ["{artifact:$prog}", ${script:+\"$run/work.lua\", }"{build_dir}/reps"]
TOML
  local load t0 rc=0
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  "$ALEA" run "$dir/campaign.toml" --dir "$dir/campaign.alea" --no-report >"$dir/run.out" 2>&1 || rc=$?
  if ((rc != 0 && rc != 3)); then
    tail -5 "$dir/run.out" >&2
    fail "alea run $dir/campaign.toml exited $rc"
  fi
  [[ $metrics == sim ]] && $py timing "$dir" "$(python3 -c "import time; print(round(time.time() - $t0, 3))")"
  report_campaign "$dir" "$design" "$seed"
  local wall m sfx
  wall=$(python3 -c "import time; print(round(time.time() - $t0, 3))")
  : >"$dir/row.csv.tmp"
  for m in "${metric_names[@]}"; do # one row per metric (design "<design>:<metric>" when several)
    sfx=${m:+-$m}
    $py row "$dir/report.json" "$dir/analysis$sfx.json" "$dir/unpaired$sfx.json" "$dir/export$sfx.csv" \
      design="$design${m:+:$m}" kind="$kind" index="$i" seed="$seed" report_metric="$m" \
      true_ratio_work="$(python3 -c "print($cand_r / $reps)")" wall_seconds="$wall" loadavg="$load" \
      picks="${base_picks[*]} / ${cand_picks[*]}" >>"$dir/row.csv.tmp"
  done
  mv "$dir/row.csv.tmp" "$dir/row.csv"
  rm -rf "$dir/campaign.alea/objects" # 10 copies of the program: the report no longer needs them
  show_row "$dir/row.csv"
}

report_campaign() { # DIR DESIGN SEED: the campaign's report, export and analyses
  local dir=$1 design=$2 seed=$3 m sfx
  "$ALEA" report "$dir/campaign.alea" --format json >"$dir/report.json"
  for m in "${metric_names[@]}"; do # --metrics sim: each metric's export and analyses (files -<metric>)
    sfx=${m:+-$m}
    "$ALEA" export "$dir/campaign.alea" -o "$dir/export$sfx.csv" ${m:+--metric "$m"} 2>"$dir/export.err" ||
      { cat "$dir/export.err" >&2; fail "alea export $dir failed"; }
    # The figures: `alea analyze` of the measurements, --paired for the paired
    # designs (build i of cand with build i of base: paired Fieller, bootstrap
    # over pairs); the same with --unpaired shows what the pairing adds.
    # --unpaired: the export's settings line names the design, which would pair.
    "$ALEA" analyze "$dir/export$sfx.csv" --baseline base --format json --seed "$seed" --threads 1 --unpaired \
      >"$dir/unpaired$sfx.json"
    if [[ $design == unpaired ]]; then
      cp "$dir/unpaired$sfx.json" "$dir/analysis$sfx.json"
    else
      "$ALEA" analyze "$dir/export$sfx.csv" --baseline base --format json --seed "$seed" --threads 1 --paired \
        >"$dir/analysis$sfx.json"
    fi
  done
}

show_row() { # ROW.csv
  awk -F, '{ printf "   %-11s %-4s %3d: ratio %.4f [%.4f, %.4f] %-12s %5.1f s, load %s\n", $1, $2, $3, $6, $14, $15, $12, $(NF-2), $(NF-1) }' "$1"
}

reanalyse_campaign() { # DESIGN_INDEX KIND INDEX
  local dir=$run/${run_designs[$1]}/$2-$(printf '%03d' "$3")
  [[ -f $dir/row.csv ]] || fail "$dir has not run: --reanalyse only reports finished campaigns"
  report_campaign "$dir" "${run_designs[$1]}" "$(sed -n 's/^seed = //p' "$dir/campaign.toml")"
  local m sfx k=0
  : >"$dir/row.csv.tmp"
  for m in "${metric_names[@]}"; do
    sfx=${m:+-$m} k=$((k + 1))
    $py row "$dir/report.json" "$dir/analysis$sfx.json" "$dir/unpaired$sfx.json" "$dir/export$sfx.csv" \
      from="$dir/row.csv" from_line="$k" report_metric="$m" >>"$dir/row.csv.tmp"
  done
  mv "$dir/row.csv.tmp" "$dir/row.csv"
  show_row "$dir/row.csv"
}

total=$(((n + slow_n) * ${#run_designs[@]}))
note "campaigns: $n A/A + $slow_n slowdown (cand x$(python3 -c "print($slow_reps / $reps)") work: $slow_reps vs $reps repetitions) for each of: ${run_designs[*]}; 2 systems x $builds builds x $executions executions x 1 iteration each ($total campaigns) in $run"
nd=${#run_designs[@]}
for ((i = 1; i <= (n > slow_n ? n : slow_n); i++)); do
  for kind in aa slow; do
    [[ $kind == aa ]] && ((i > n)) && continue
    [[ $kind == slow ]] && ((i > slow_n)) && continue
    for ((r = 0; r < nd; r++)); do
      if ((reanalyse)); then
        reanalyse_campaign $(((i + r) % nd)) "$kind" "$i"
      else
        run_campaign $(((i + r) % nd)) "$kind" "$i"
      fi
    done
  done
done
stop_load
t_total=$((SECONDS - t_start))
if ((reanalyse)); then
  ran=$(paste -sd';' "$run/ran" 2>/dev/null | sed 's/;/; /g' || echo "an earlier run")
else
  echo "$(date -u +%Y-%m-%dT%H:%MZ), -n $n, in $t_total s (pool and calibration included)" >>"$run/ran"
  ran=$(paste -sd';' "$run/ran" | sed 's/;/; /g')
fi

# ---------------------------------------------------------------- summary
{
  $py header
  for d in "${run_designs[@]}"; do
    for ((i = 1; i <= n; i++)); do cat "$run/$d/aa-$(printf '%03d' "$i")/row.csv"; done
    for ((i = 1; i <= slow_n; i++)); do cat "$run/$d/slow-$(printf '%03d' "$i")/row.csv"; done
  done
} >"$run/results.csv"
{
  note "validity of the designs: run $ran; $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load: $( ((load_jobs > 0)) && echo "looping make -j$load_jobs" || echo none)"
  echo "   $n A/A + $slow_n slowdown campaigns per design, 2 systems x $builds builds x $executions executions x 1 iteration (wall time), workload $workload ($([[ $workload == lua ]] && echo "Lua 5.4 work.lua" || echo "bench/validity/cwork")) $reps vs $slow_reps repetitions, pool of $pool binaries"
  echo "   load average at the campaigns' starts: $(python3 -c "
import csv, statistics
v = [float(r['loadavg']) for r in csv.DictReader(open('$run/results.csv'))]
print(f'min {min(v):.2f}, median {statistics.median(v):.2f}, max {max(v):.2f}')")"
  $py summary "$run/results.csv" "$run/calibration.json"
  for d in "${run_designs[@]}"; do # are the paired designs' blocks independent? (issue 19)
    [[ $d == unpaired ]] || $py blocks "$run" "$d"
  done
  if [[ $metrics == sim ]]; then
    echo "sim-cycles against wall time on the same campaigns (machine time: timing.json of each campaign):"
    $py simtable "$run" "$run/results.csv" "$run/calibration.json"
  fi
  echo "raw results: $run/results.csv"
} | tee "$run/summary.txt"
