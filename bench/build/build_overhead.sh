#!/usr/bin/env bash
# Build overhead of alea-cc (issue 2, "Performance"): compile every C file of
# Lua 5.4 (Debian's source package) with `clang-19 -O2 -c` and with
# `alea-cc -O2 -c` (ALEA_SEED set: all factors, plugin, -ffunction-sections),
# alternating plain/alea in each round so drift hits both alike, then link the
# interpreter. Prints per-round times, medians and the ratio (goal <= 1.03x).
# Also the wrapper's own cost on a trivial compile (goal < 5 ms/invocation).
# Usage: bench/build/build_overhead.sh BUILD_DIR [ROUNDS]
set -euo pipefail
export ALEA_BUILD=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-5}
source "$(dirname "$0")/../../test/projects/common.sh"
source "$(dirname "$0")/lib.sh" # calc, median, med, timed

src=$(fetch_source lua5.4 --skip-patches)/src
work="$ALEA_BUILD/bench-build/overhead"
rm -rf "$work" && mkdir -p "$work/plain" "$work/alea"
cfiles=("$src"/*.c)

now() { date +%s.%N; }
compile_all() { # CC OUTDIR (ALEA_SEED from the environment; empty = plain)
  local cc=$1 out=$2 f objs=()
  [[ -n ${ALEA_SEED:-} ]] || unset ALEA_SEED
  for f in "${cfiles[@]}"; do
    $cc -O2 -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -c "$f" -o "$out/$(basename "$f" .c).o"
  done
  for f in "$out"/*.o; do
    case $f in */lua.o | */luac.o) ;; *) objs+=("$f") ;; esac
  done
  $cc -o "$out/lua" "$out/lua.o" "${objs[@]}" -lm -Wl,-E -ldl
}


echo "compiling ${#cfiles[@]} Lua files at -O2 and linking, $rounds rounds, alternating"
pw=() pc=() aw=() ac=() rw=() rc=()
for r in $(seq 1 "$rounds"); do
  set -- $(ALEA_SEED= timed clang-19 "$work/plain")
  pw+=("$1") pc+=("$2")
  set -- $(timed alea-cc "$work/alea" "$r")
  aw+=("$1") ac+=("$2")
  rw+=("$(calc "${aw[-1]} / ${pw[-1]}")") rc+=("$(calc "${ac[-1]} / ${pc[-1]}")")
  printf 'round %d: clang-19 %.3f s wall %.3f s cpu   alea-cc %.3f s wall %.3f s cpu   ratio wall %.4f cpu %.4f\n' \
    "$r" "${pw[-1]}" "${pc[-1]}" "${aw[-1]}" "${ac[-1]}" "${rw[-1]}" "${rc[-1]}"
done
"$ALEA_BUILD/bin/alea" layout "$work/alea/lua" | sed -n 2,3p
printf 'median cpu: clang-19 %.3f s   alea-cc %.3f s   ratio %.4f   (median of per-round cpu ratios %.4f; goal <= 1.03)\n' \
  "$(med "${pc[@]}")" "$(med "${ac[@]}")" "$(calc "$(med "${ac[@]}") / $(med "${pc[@]}")")" "$(med "${rc[@]}")"
printf 'median wall: clang-19 %.3f s   alea-cc %.3f s   ratio %.4f   (median of per-round wall ratios %.4f)\n' \
  "$(med "${pw[@]}")" "$(med "${aw[@]}")" "$(calc "$(med "${aw[@]}") / $(med "${pw[@]}")")" "$(med "${rw[@]}")"

# Wrapper cost on a trivial compile: alea-cc without a seed (pure pass-through)
# and with a seed, against clang-19 itself; 40 alternating invocations each.
echo 'int f(void) { return 1; }' >"$work/trivial.c"
n=40 tp=0 tw=0 ts=0
for i in $(seq 1 $n); do
  t0=$(now); clang-19 -c "$work/trivial.c" -o "$work/t0.o"; t1=$(now)
  alea-cc -c "$work/trivial.c" -o "$work/t1.o"; t2=$(now)
  ALEA_SEED=$i alea-cc -c "$work/trivial.c" -o "$work/t2.o"; t3=$(now)
  tp=$(calc "$tp + $t1 - $t0") tw=$(calc "$tw + $t2 - $t1") ts=$(calc "$ts + $t3 - $t2")
done
printf 'trivial compile, mean of %d: clang-19 %.2f ms   alea-cc (no seed) %.2f ms (+%.2f ms)   alea-cc (seed) %.2f ms (+%.2f ms)\n' \
  $n "$(calc "1000 * $tp / $n")" "$(calc "1000 * $tw / $n")" "$(calc "1000 * ($tw - $tp) / $n")" \
  "$(calc "1000 * $ts / $n")" "$(calc "1000 * ($ts - $tp) / $n")"
