#!/usr/bin/env bash
# Where alea-cc's build overhead on large code could go, cause by cause, in
# deterministic figures (issue 11, item 6): instruction counts from
# `valgrind --tool=callgrind` (every process of the command), which a shared
# machine's load does not change, and the pass's share of clang's own
# -ftime-report on the whole sqlite3 amalgamation. Causes:
#   plugin    the layout pass (-fpass-plugin, ALEA_SEED set, every factor)
#   sections  -ffunction-sections -fdata-sections (the section-order factor)
#   both      what alea-cc adds to a compile; alea-cc: the same through the wrapper
#   links     GNU ld (a plain clang-19 link) against lld, lld with the sections,
#             lld's --shuffle-sections with the flags alea adds, and the whole
#             alea-cc link (wrapper, lld trial, link record)
# Inputs are the trees bench/build/build_overhead_large.sh leaves behind (run it
# first): sqlite3's generated sources and lz4's. Prints one line per variant
# with its count and its ratio to plain. About 25 minutes on 2 cores.
# Usage: bench/build/overhead_causes.sh BUILD_DIR
set -euo pipefail
export ALEA_BUILD=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
source "$(dirname "$0")/../../test/projects/common.sh"
command -v valgrind >/dev/null || fail "valgrind not installed (scripts/setup.sh)"
large="$ALEA_BUILD/bench-build/overhead-large"
sq="$large/sqlite3-plain" lz="$large/lz4-plain"
[[ -f $sq/sqlite3.c && -f $sq/tsrc/where.c && -f $lz/lib/lz4.c ]] ||
  fail "run bench/build/build_overhead_large.sh $ALEA_BUILD first (it prepares the sources)"
work="$ALEA_BUILD/bench-build/overhead-causes"
rm -rf "$work" && mkdir -p "$work"
plugin="$ALEA_BUILD/lib/AleaPlugin.so"
sections=(-ffunction-sections -fdata-sections)

# count NAME COMMAND... -> instructions of every process the command runs. A
# process that execs (alea-cc becoming clang) continues in the same output file,
# so the wrapper's own instructions before an exec are not counted (its cost is
# bench/wrapper/wrapper_overhead.sh's figure); a link trial's wrapper is counted.
count() {
  local name=$1 f n total=0
  shift
  valgrind --tool=callgrind --trace-children=yes \
    --callgrind-out-file="$work/cg.$name.%p" "$@" >/dev/null 2>"$work/valgrind.$name.log" ||
    fail "$name failed under valgrind; see $work/valgrind.$name.log"
  for f in "$work/cg.$name".*; do
    n=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
    total=$((total + ${n:-0}))
  done
  rm -f "$work/cg.$name".*
  echo "$total"
}
report() { # LABEL BASE COUNT
  awk -v l="$1" -v b="$2" -v c="$3" \
    'BEGIN { printf "  %-34s %15.0f instructions  %+.3f%%\n", l, c, 100 * (c - b) / b }'
}

compile_variants() { # TITLE SOURCE FLAGS...
  local title=$1 src=$2 base n
  shift 2
  echo "== one compile: $title"
  base=$(count plain clang-19 "$@" -c "$src" -o "$work/plain.o")
  report "clang-19" "$base" "$base"
  n=$(ALEA_SEED=1 count plugin clang-19 -fpass-plugin="$plugin" "$@" -c "$src" -o "$work/plugin.o")
  report "+ plugin (pass)" "$base" "$n"
  n=$(count sections clang-19 "${sections[@]}" "$@" -c "$src" -o "$work/sections.o")
  report "+ function/data sections" "$base" "$n"
  n=$(ALEA_SEED=1 count both clang-19 -fpass-plugin="$plugin" "${sections[@]}" "$@" -c "$src" \
    -o "$work/both.o")
  report "+ both" "$base" "$n"
  n=$(ALEA_SEED=1 count alea-cc alea-cc "$@" -c "$src" -o "$work/alea.o")
  report "alea-cc (seed 1)" "$base" "$n"
}

sqflags=(-g -O2 -DNDEBUG -DSQLITE_THREADSAFE=1 -I"$sq" -I"$sq/tsrc")
compile_variants "sqlite's where.c (7,000 lines) at -g -O2" "$sq/tsrc/where.c" "${sqflags[@]}"
compile_variants "lz4's lz4.c at -O2" "$lz/lib/lz4.c" -O2

echo "== the layout pass's share of one compile of the amalgamation (clang -ftime-report)"
ALEA_SEED=1 clang-19 -fpass-plugin="$plugin" "${sections[@]}" "${sqflags[@]}" -ftime-report \
  -c "$sq/sqlite3.c" -o "$work/amalgamation.o" 2>"$work/time-report.txt"
awk '/alea::passes::LayoutPass/ { pass = $1 }
     /Clang front-end time report/ { front = 1 }
     front && /Total$/ && !total { total = $1 }
     END { printf "  LayoutPass %.3f s of %.2f s user time (%.2f%%)\n", pass, total, 100 * pass / total }' \
  "$work/time-report.txt"

echo "== the sqlite3 shell's link (-g objects of shell.c and sqlite3.c)"
libs=(-lreadline -lncurses -lm -lz)
shellflags=(-g -O2 -I"$sq" -DHAVE_READLINE=1 -DSQLITE_ENABLE_MATH_FUNCTIONS)
clang-19 "${shellflags[@]}" -c "$sq/shell.c" -o "$work/shell.o"
clang-19 "${sqflags[@]}" -c "$sq/sqlite3.c" -o "$work/sqlite3.o"
ALEA_SEED=1 clang-19 -fpass-plugin="$plugin" "${sections[@]}" "${shellflags[@]}" \
  -c "$sq/shell.c" -o "$work/shell-alea.o"
ALEA_SEED=1 clang-19 -fpass-plugin="$plugin" "${sections[@]}" "${sqflags[@]}" \
  -c "$sq/sqlite3.c" -o "$work/sqlite3-alea.o"
plain=("$work/shell.o" "$work/sqlite3.o") alea=("$work/shell-alea.o" "$work/sqlite3-alea.o")
base=$(count ld clang-19 -o "$work/a.ld" "${plain[@]}" "${libs[@]}")
report "clang-19 (GNU ld)" "$base" "$base"
report "GNU ld, alea's objects" "$base" "$(count ld-sec clang-19 -o "$work/a.ld2" "${alea[@]}" "${libs[@]}")"
report "lld" "$base" "$(count lld clang-19 -fuse-ld=lld -o "$work/a.lld" "${plain[@]}" "${libs[@]}")"
report "lld, alea's objects" "$base" \
  "$(count lld-sec clang-19 -fuse-ld=lld -o "$work/a.lld2" "${alea[@]}" "${libs[@]}")"
report "lld, alea's objects, shuffled" "$base" \
  "$(count lld-shuffle clang-19 -fuse-ld=lld -Wl,--undefined-version -Wl,--warn-backrefs \
    -Wl,--shuffle-sections='*=12345' -o "$work/a.lld3" "${alea[@]}" "${libs[@]}")"
report "alea-cc link (seed 1)" "$base" \
  "$(ALEA_SEED=1 count alea-link alea-cc -o "$work/a.alea" "${alea[@]}" "${libs[@]}")"
echo "== object size of the amalgamation at -g -O2: $(stat -c %s "$work/sqlite3.o") bytes plain," \
  "$(stat -c %s "$work/sqlite3-alea.o") bytes with alea's flags;" \
  "sections $(readelf -S -W "$work/sqlite3.o" | grep -c '^ *\[ *[0-9]') ->" \
  "$(readelf -S -W "$work/sqlite3-alea.o" | grep -c '^ *\[ *[0-9]')"
