#!/usr/bin/env bash
# Runner overhead (a benchmark, not a test; issue 4 "Performance"): executions
# per second of /bin/true through `alea run` against `hyperfine -N --runs N
# /bin/true`, side by side in one run, alternating rounds so that machine noise
# hits both alike. The campaign has one prebuilt "system" (build command
# `true`), one benchmark `/bin/true`, measure.source = "none", N executions;
# each alea execution includes what the runner always does: fresh environment
# padding, wait4 rusage, the machine-state check, and one SQLite transaction
# committing the execution and its measurement. Both rates are N / the whole
# command's wall time (start-up, store creation and hyperfine's shell-less
# calibration included). Goal: alea's rate >= hyperfine's. Also printed: alea's
# fixed start-up cost (a 1-execution campaign) and the rate without it.
# Usage: bench/runner/runner_overhead.sh [build-dir] [executions] [rounds]
set -euo pipefail
build=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build}
build=$(cd "$build" && pwd)
n=${2:-1000}
rounds=${3:-3}
alea=$build/bin/alea
[[ -x $alea ]] || { echo "no $alea: build the alea target first" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine not installed (apt install hyperfine)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/true.toml" <<TOML
[campaign]
name = "runner overhead"
seed = 1
[levels]
builds = 1
executions = $n
iterations = 1
[measure]
source = "none"
[[system]]
name = "true"
build = ["true"]
[[benchmark]]
name = "true"
command = ["/bin/true"]
TOML

sed "s/^executions = $n\$/executions = 1/" "$work/true.toml" >"$work/one.toml"

now() { date +%s%N; }
alea_ns=0 hf_ns=0 fixed_ns=0
for ((r = 1; r <= rounds; r++)); do
  rm -rf "$work/c"
  t0=$(now)
  "$alea" run "$work/true.toml" --dir "$work/c" --no-report >/dev/null 2>"$work/alea.err"
  t1=$(now)
  hyperfine -N --runs "$n" --warmup 0 --style none --export-json "$work/hf.json" /bin/true >/dev/null 2>&1
  t2=$(now)
  rm -rf "$work/one"
  "$alea" run "$work/one.toml" --dir "$work/one" --no-report >/dev/null 2>>"$work/alea.err"
  t3=$(now)
  a=$((t1 - t0)) h=$((t2 - t1))
  alea_ns=$((alea_ns + a)) hf_ns=$((hf_ns + h)) fixed_ns=$((fixed_ns + t3 - t2))
  awk -v r="$r" -v n="$n" -v a="$a" -v h="$h" 'BEGIN {
    printf "round %d: alea run %8.1f exec/s   hyperfine -N %8.1f exec/s\n", r, n / (a / 1e9), n / (h / 1e9) }'
done
recorded=$(sqlite3 "$work/c/campaign.db" "SELECT count(*) FROM execution WHERE status = 'ok'")
awk -v n="$n" -v r="$rounds" -v a="$alea_ns" -v h="$hf_ns" -v f="$fixed_ns" -v rec="$recorded" 'BEGIN {
  ar = n * r / (a / 1e9); hr = n * r / (h / 1e9)
  printf "\n/bin/true x %d, %d rounds (alea recorded %d ok executions in its last store)\n", n, r, rec
  printf "  alea run      : %8.1f executions/s  (%.3f ms each)\n", ar, 1e3 / ar
  printf "  hyperfine -N  : %8.1f executions/s  (%.3f ms each)\n", hr, 1e3 / hr
  printf "  ratio alea/hyperfine rate: %.2f  (goal >= 1)\n", ar / hr
  fixed = f / r / 1e6; mr = n * r / ((a - f) / 1e9)
  printf "  alea fixed start-up (a 1-execution campaign: store, machine state, cached compiler versions): %.1f ms\n", fixed
  printf "  alea per execution without it: %8.1f executions/s; ratio to hyperfine %.2f\n", mr, mr / hr }'
