#!/usr/bin/env bash
# Rebuilds after a seed change (docs/wrapper.md, "Changing the seed"): make and
# Ninja do not see ALEA_SEED, but with ALEA_SEED_FILE the wrappers name the
# seed file in every dependency file a compile writes. Real builds of one small
# project, with make (-MMD, .d files included by the Makefile) and with
# CMake + Ninja (deps = gcc): seed file 1 builds everything; a second build
# runs nothing; seed file 2 reruns every compile and the link, and the program
# carries seed 2.
source "$(dirname "$0")/common.sh"

work="$ALEA_BUILD/projects/seedfile"
rm -rf "$work"
mkdir -p "$work"
seedfile="$work/seed"
export ALEA_SEED_FILE="$seedfile"
export ALEA_LOG="$work/alea.log"
sources=(main.c shapes.c text.c)
expected="areas=40 checksum=4238679418"

# compiles_logged FROM-LINE -> how many compiles alea-cc logged after line FROM
compiles_logged() { tail -n "+$(($1 + 1))" "$ALEA_LOG" | grep -c "^alea-cc .* mode=compile " || true; }
log_lines() { if [[ -f $ALEA_LOG ]]; then wc -l <"$ALEA_LOG"; else echo 0; fi; }

# check_seed_change BUILD-COMMAND BINARY NAME: the three steps for one build tool.
check_seed_change() {
  local build=$1 binary=$2 name=$3 before
  echo 1 >"$seedfile"
  before=$(log_lines)
  eval "$build" || fail "$name: the build with seed file 1 failed"
  [[ $("$binary") == "$expected" ]] || fail "$name: the program prints $("$binary")"
  check_recorded "$binary" 1
  cp "$binary" "$work/$name-seed1"
  [[ $(compiles_logged "$before") == "${#sources[@]}" ]] ||
    fail "$name: expected ${#sources[@]} compiles with seed file 1, got $(compiles_logged "$before")"
  grep -q "seed-file=$seedfile" "$ALEA_LOG" || fail "$name: the log does not name the seed file"

  before=$(log_lines)
  eval "$build" || fail "$name: the second build failed"
  [[ $(log_lines) == "$before" ]] || {
    tail -n "+$((before + 1))" "$ALEA_LOG"
    fail "$name: the second build with the same seed file ran the wrappers again"
  }

  # The new content must be newer than every object also on a file system
  # with one-second timestamps (make and Ninja compare modification times).
  sleep 1
  echo 2 >"$seedfile"
  before=$(log_lines)
  eval "$build" || fail "$name: the build with seed file 2 failed"
  [[ $(compiles_logged "$before") == "${#sources[@]}" ]] ||
    fail "$name: seed file 2 reran $(compiles_logged "$before") of ${#sources[@]} compiles"
  tail -n "+$((before + 1))" "$ALEA_LOG" | grep -q "mode=link .*seed=0x0000000000000002" ||
    fail "$name: seed file 2 did not relink with seed 2"
  [[ $("$binary") == "$expected" ]] || fail "$name: the program prints $("$binary") with seed 2"
  check_recorded "$binary" 2
  check_layouts_differ "$work/$name-seed1" "$binary"
}

note "make with -MMD"
mk="$work/make"
mkdir -p "$mk"
cp "$PROJECTS_SRC"/seedfile/{Makefile,main.c,shapes.c,text.c,seedfile.h} "$mk/"
check_seed_change "make -C '$mk' CC=alea-cc >/dev/null" "$mk/seedfile" make
grep -q "^main.o: $seedfile " "$mk/main.d" || {
  cat "$mk/main.d"
  fail "make: main.d does not name the seed file first"
}

note "CMake + Ninja"
nj="$work/ninja"
echo 1 >"$seedfile"
CC=alea-cc cmake -S "$PROJECTS_SRC/seedfile" -B "$nj" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  >"$work/cmake.out" 2>&1 || {
  cat "$work/cmake.out"
  fail "cmake configure with CC=alea-cc and ALEA_SEED_FILE failed"
}
check_seed_change "ninja -C '$nj' >/dev/null" "$nj/seedfile" ninja
# Ninja keeps the .d files in its deps log: every object lists the seed file.
[[ $(ninja -C "$nj" -t deps | grep -c "^ *$seedfile\$") == "${#sources[@]}" ]] || {
  ninja -C "$nj" -t deps
  fail "ninja: not every object depends on the seed file"
}
ninja -C "$nj" -n -d explain >"$work/noop.out" 2>&1
grep -q "no work to do" "$work/noop.out" || {
  cat "$work/noop.out"
  fail "ninja: a build after the seed change is not a no-op"
}
note "seed file: PASS"
