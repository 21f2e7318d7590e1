#!/usr/bin/env bash
# Build overhead of alea-cc (issue 2, "Performance"): compile every C file of
# Lua 5.4 (Debian's source package) with `clang-19 -O2 -c` and with
# `alea-cc -O2 -c` (ALEA_SEED set: all factors, plugin, -ffunction-sections),
# alternating plain/alea in each round so drift hits both alike, then link the
# interpreter. Prints per-round times, medians and the ratio (goal <= 1.03x).
# Also the wrapper's own cost on a trivial compile (goal < 5 ms/invocation).
# Usage: bench/build/build_overhead.sh BUILD_DIR [ROUNDS]
set -euo pipefail
export ALEA_BUILD=${1:?usage: $0 BUILD_DIR [ROUNDS]}
rounds=${2:-5}
source "$(dirname "$0")/../../test/projects/common.sh"

src=$(fetch_source lua5.4 --skip-patches)/src
work="$ALEA_BUILD/bench-build/overhead"
rm -rf "$work" && mkdir -p "$work/plain" "$work/alea"
cfiles=("$src"/*.c)

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $* }"; } # float arithmetic without bc
compile_all() { # CC OUTDIR
  local cc=$1 out=$2 f objs=()
  for f in "${cfiles[@]}"; do
    $cc -O2 -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -c "$f" -o "$out/$(basename "$f" .c).o"
  done
  for f in "$out"/*.o; do
    case $f in */lua.o | */luac.o) ;; *) objs+=("$f") ;; esac
  done
  $cc -o "$out/lua" "$out/lua.o" "${objs[@]}" -lm -Wl,-E -ldl
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "compiling ${#cfiles[@]} Lua files at -O2 and linking, $rounds rounds, alternating"
plain=() alea=()
for r in $(seq 1 "$rounds"); do
  t0=$(now); compile_all clang-19 "$work/plain"; t1=$(now)
  ALEA_SEED=$r compile_all alea-cc "$work/alea"; t2=$(now)
  p=$(calc "$t1 - $t0") a=$(calc "$t2 - $t1")
  plain+=("$p") alea+=("$a")
  printf 'round %d: clang-19 %.3f s   alea-cc %.3f s   ratio %.4f\n' "$r" "$p" "$a" "$(calc "$a / $p")"
done
"$ALEA_BUILD/bin/alea" layout "$work/alea/lua" | sed -n 2,3p
mp=$(printf '%s\n' "${plain[@]}" | median) ma=$(printf '%s\n' "${alea[@]}" | median)
printf 'median: clang-19 %.3f s   alea-cc %.3f s   ratio alea/plain = %.4f (goal <= 1.03)\n' \
  "$mp" "$ma" "$(calc "$ma / $mp")"

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
