#!/usr/bin/env bash
# Zero runtime overhead by construction (issue 2, "Performance"): the same
# work executed by an unrandomized build and by randomized builds must cost the
# same number of instructions (placement changes, work does not). Counts are
# from `valgrind --tool=callgrind` for (1) zlib's minigzip compressing and
# decompressing a fixed 2 MB file and (2) Lua running test/projects/lua/bench.lua.
# Lua is built with -D'luai_makeseed(L)=0': stock Lua seeds its string hash
# with time() and the address of lua_newstate, i.e. its work depends on the
# layout and the clock, which is exactly what this benchmark must hold fixed.
# Prints instruction counts and the relative difference (goal within 0.1%).
# Usage: bench/build/runtime_overhead.sh BUILD_DIR [SEEDS...]
set -euo pipefail
export ALEA_BUILD=$(cd "${1:?usage: $0 BUILD_DIR [SEEDS...]}" && pwd)
shift
seeds=("$@")
((${#seeds[@]})) || seeds=(1 2 3)
source "$(dirname "$0")/../../test/projects/common.sh"
command -v valgrind >/dev/null || fail "valgrind not installed (scripts/setup.sh installs it)"

zsrc=$(fetch_source zlib)
lsrc=$(fetch_source lua5.4 --skip-patches)
work="$ALEA_BUILD/bench-build/runtime"
mkdir -p "$work"
head -c 2000000 /usr/lib/llvm-19/bin/clang >"$work/data.bin"

build() { # NAME [SEED]
  local name=$1 seed=${2:-}
  fresh_copy "$zsrc" "$work/zlib-$name"
  fresh_copy "$lsrc" "$work/lua-$name"
  (
    if [[ -n $seed ]]; then export ALEA_SEED=$seed; fi
    cd "$work/zlib-$name" && CC=alea-cc CFLAGS=-O2 ./configure --static >/dev/null 2>&1 &&
      make -j2 minigzip >/dev/null 2>&1
  ) || fail "zlib build $name failed"
  (
    if [[ -n $seed ]]; then export ALEA_SEED=$seed; fi
    cd "$work/lua-$name" && make -j2 linux CC=alea-cc MYCFLAGS="-D'luai_makeseed(L)=0'" >/dev/null 2>&1
  ) || fail "lua build $name failed"
}

calc() { awk "BEGIN { printf \"%.9f\", $* }"; } # float arithmetic without bc

# instructions CMD... -> total Ir collected by callgrind
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
count_zlib() {
  local a b
  a=$(instructions "$1/minigzip" -c "$work/data.bin")
  "$1/minigzip" -c "$work/data.bin" >"$work/z.gz"
  b=$(instructions "$1/minigzip" -d -c "$work/z.gz")
  echo $((a + b))
}
count_lua() { instructions "$1/src/lua" "$PROJECTS_SRC/lua/bench.lua" 100000; }

names=(plain)
build plain
for s in "${seeds[@]}"; do build "seed-$s" "$s"; names+=("seed-$s"); done

printf '%-12s %-18s %16s %10s   %16s %10s\n' build fingerprint "minigzip Ir" "vs plain" "lua Ir" "vs plain"
zp=0 lp=0 worst=0
for n in "${names[@]}"; do
  z=$(count_zlib "$work/zlib-$n") l=$(count_lua "$work/lua-$n")
  [[ $n == plain ]] && zp=$z lp=$l
  dz=$(calc "100 * ($z - $zp) / $zp") dl=$(calc "100 * ($l - $lp) / $lp")
  printf '%-12s %-18s %16d %+9.4f%%   %16d %+9.4f%%\n' "$n" \
    "$("$ALEA_BUILD/bin/alea" layout --fingerprint "$work/lua-$n/src/lua")" "$z" "$dz" "$l" "$dl"
  for d in $dz $dl; do
    a=${d#-}
    if [[ $(calc "($a > $worst) ? 1 : 0") == 1* ]]; then worst=$a; fi
  done
done
printf 'largest |difference| from the unrandomized build: %.4f%% (goal <= 0.1%%)\n' "$worst"
