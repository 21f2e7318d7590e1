#!/usr/bin/env bash
# Build overhead of alea-cc on large code (issue 11, item 6): each project's own
# build, as a user runs it, with CC=clang-19 and with CC=alea-cc (ALEA_SEED set:
# every factor, the plugin, -ffunction-sections/-fdata-sections, lld and its
# section shuffle, the link record). Projects, Debian's source packages with
# Debian's patches (what `apt-get source` gives a user):
#   sqlite3  the amalgamation: configure, then `make -j2 sqlite3 testfixture`
#            from `make clean` (sqlite3.c regenerated, then compiled three times
#            at -g -O2: libtool's PIC and non-PIC objects of libsqlite3, which
#            the shell links against (Debian's 32-dynamic_link.patch), and the
#            Tcl test fixture; testfixture needs tcl-dev)
#   lz4      `make -j2` from `make clean` (static and shared library, the CLI;
#            -O2 -g by Debian's patch, which also links the CLI against liblz4)
# Each round builds both sides one after the other, the side that goes first
# alternating from round to round, so that drift and a shared machine's load
# hit both alike. The figure is CPU time (user+sys of all children, from the
# shell's `time`), less sensitive than wall time to other load; prints
# per-round times and ratios and the medians (goal <= 1.03x).
# Usage: bench/build/build_overhead_large.sh BUILD_DIR [ROUNDS] [PROJECT...]
set -euo pipefail
export ALEA_BUILD=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [PROJECT...]}" && pwd)
rounds=${2:-3}
shift $(($# >= 2 ? 2 : 1))
projects=("$@")
((${#projects[@]})) || projects=(sqlite3 lz4)
source "$(dirname "$0")/../../test/projects/common.sh"
source "$(dirname "$0")/lib.sh" # calc, median, med (timed is its own here)
work="$ALEA_BUILD/bench-build/overhead-large"
mkdir -p "$work"


# Per project: prepare SIDE DIR CC (once), build SIDE DIR CC (timed; clean first).
prepare_sqlite3() {
  local dir=$2 cc=$3 src
  src=$(fetch_source sqlite3)
  rm -rf "$dir" && mkdir -p "$dir"
  # configure as the user would, alea's side under its seed (not timed)
  (cd "$dir" && "$src/configure" CC="$cc" >configure.log 2>&1) ||
    fail "sqlite3 configure with CC=$cc failed; see $dir/configure.log"
  grep -q '^LIBTCL = -L' "$dir/Makefile" ||
    fail "sqlite3 configure found no Tcl (testfixture needs tcl-dev: sudo scripts/setup.sh)"
}
build_sqlite3() {
  (cd "$2" && make clean >/dev/null && make -j2 sqlite3 testfixture >make.log 2>&1) ||
    fail "sqlite3 build with CC=$3 failed; see $2/make.log"
}
# With Debian's patches the shell links against libsqlite3.so: libtool leaves a
# wrapper script in the build directory and the program in .libs/.
binary_sqlite3() { if [[ -f $1/.libs/sqlite3 ]]; then echo "$1/.libs/sqlite3"; else echo "$1/sqlite3"; fi; }

prepare_lz4() {
  local dir=$2 src
  src=$(fetch_source lz4)
  fresh_copy "$src" "$dir"
}
build_lz4() {
  (cd "$2" && make clean >/dev/null && make -j2 CC="$3" >make.log 2>&1) ||
    fail "lz4 build with CC=$3 failed; see $2/make.log"
}
binary_lz4() { echo "$1/programs/lz4"; }

# timed PROJECT DIR CC SEED -> "wall cpu" seconds; SEED empty = plain.
timed() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time (
    if [[ -n $4 ]]; then export ALEA_SEED=$4; else unset ALEA_SEED; fi
    "build_$1" "$1" "$2" "$3"
  ) >/dev/null; } 2>&1 | tail -n1)
  set -- $t
  echo "$1 $(calc "$2 + $3")"
}

summary=()
for p in "${projects[@]}"; do
  declare -F "build_$p" >/dev/null || fail "unknown project $p (sqlite3, lz4)"
  plain="$work/$p-plain" alea="$work/$p-alea"
  "prepare_$p" plain "$plain" clang-19
  ALEA_SEED=1 "prepare_$p" alea "$alea" alea-cc
  echo "== $p: $rounds rounds, alternating (cpu = user+sys of all children)"
  pw=() pc=() aw=() ac=() rw=() rc=()
  for r in $(seq 1 "$rounds"); do
    for side in $( ((r % 2)) && echo "plain alea" || echo "alea plain"); do
      if [[ $side == plain ]]; then
        set -- $(timed "$p" "$plain" clang-19 "")
        pw+=("$1") pc+=("$2")
      else
        set -- $(timed "$p" "$alea" alea-cc "$r")
        aw+=("$1") ac+=("$2")
      fi
    done
    rw+=("$(calc "${aw[-1]} / ${pw[-1]}")") rc+=("$(calc "${ac[-1]} / ${pc[-1]}")")
    printf 'round %d: clang-19 %.2f s cpu %.2f s wall   alea-cc %.2f s cpu %.2f s wall   ratio cpu %.4f wall %.4f\n' \
      "$r" "${pc[-1]}" "${pw[-1]}" "${ac[-1]}" "${aw[-1]}" "${rc[-1]}" "${rw[-1]}"
  done
  # the alea build is randomized (seed of the last round), the plain one is not
  bin=$("binary_$p" "$alea")
  "$ALEA" layout "$bin" | sed -n 2,3p
  check_unrandomized "$("binary_$p" "$plain")"
  line=$(printf '%s: median cpu clang-19 %.2f s  alea-cc %.2f s  ratio %.4f  (median of per-round cpu ratios %.4f; wall %.4f; goal <= 1.03)' \
    "$p" "$(med "${pc[@]}")" "$(med "${ac[@]}")" "$(calc "$(med "${ac[@]}") / $(med "${pc[@]}")")" \
    "$(med "${rc[@]}")" "$(med "${rw[@]}")")
  echo "$line"
  summary+=("$line")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
