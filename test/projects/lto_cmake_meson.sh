#!/usr/bin/env bash
# LTO builds through the wrappers with the build systems' own LTO switches
# (docs/wrapper.md, "LTO under CMake and meson"): CMake's
# CMAKE_INTERPROCEDURAL_OPTIMIZATION and meson's b_lto, for a small C and C++
# project with static libraries (test/projects/lto). With ALEA_SEED: configure
# succeeds, CMake finds LLVM 19's archiver as alea-llvm-ar next to alea-cc,
# the objects and the archive members are LLVM bitcode, the archives have an
# index (only LLVM's ar writes one for bitcode), the programs print the right
# result, and `alea layout` shows the seed and a link record with lto-link.
# Without ALEA_SEED the same builds are plain clang builds and succeed.
source "$(dirname "$0")/common.sh"

command -v meson >/dev/null || fail "meson not installed (scripts/setup.sh installs it)"
[[ -L $ALEA_BUILD/bin/alea-llvm-ar ]] || fail "$ALEA_BUILD/bin/alea-llvm-ar is missing (wrapper/CMakeLists.txt)"
work="$ALEA_BUILD/projects/lto"
rm -rf "$work"
mkdir -p "$work"
src="$PROJECTS_SRC/lto"
seed=11
export ALEA_LOG="$work/alea.log"

is_bitcode() { [[ $(head -c 4 "$1" | od -An -tx1 | tr -d ' \n') == 4243c0de ]]; }

# check_outputs DIR OBJECT... -> the programs' output and the objects' kind
check_outputs() {
  local dir=$1 obj
  shift
  [[ $("$dir/lto_c") == "sum=55 squares=385" ]] || fail "$dir/lto_c prints '$("$dir/lto_c")'"
  [[ $("$dir/lto_cxx") == "lto-build-55 squares=385" ]] || fail "$dir/lto_cxx prints '$("$dir/lto_cxx")'"
  for obj in "$@"; do
    [[ -f $dir/$obj ]] || fail "$dir/$obj was not built"
    is_bitcode "$dir/$obj" || fail "$dir/$obj is not LLVM bitcode: no LTO compile"
  done
}

# check_archive ARCHIVE: an index that names the library's functions, read by
# LLVM 19's nm; the members are bitcode (a thin archive's members are files).
check_archive() {
  local archive=$1 symbol=$2 member
  llvm-nm-19 --print-armap "$archive" 2>/dev/null | grep -q "^$symbol in " ||
    fail "$archive has no index entry for $symbol (not archived by LLVM's ar?)"
  if [[ $(head -c 8 "$archive") == '!<thin>' ]]; then
    member=$(llvm-ar-19 t "$archive" | head -n1)
    is_bitcode "$member" || fail "the member $member of $archive is not bitcode"
  else
    llvm-ar-19 p "$archive" "$(llvm-ar-19 t "$archive" | head -n1)" >"$work/member"
    is_bitcode "$work/member" || fail "the member of $archive is not bitcode"
  fi
}

# check_lto_record BINARY: seed, factors and the link record with lto-link.
check_lto_record() {
  check_recorded "$1" "$seed"
  "$ALEA" layout "$1" | grep -q "^link: *section-order,lto-link" ||
    fail "alea layout $1 shows no lto-link record:"$'\n'"$("$ALEA" layout "$1" | head -6)"
}

# check_plain_log: every wrapper invocation since line FROM passed through.
check_plain_log() {
  local from=$1 lines
  lines=$(tail -n "+$((from + 1))" "$ALEA_LOG")
  [[ -n $lines ]] || fail "the build without ALEA_SEED did not run the wrappers"
  grep -v 'mode=pass-through reason="no ALEA_SEED"' <<<"$lines" | grep -q . &&
    fail "the build without ALEA_SEED was not a plain clang build:"$'\n'"$lines"
  return 0
}
log_lines() { if [[ -f $ALEA_LOG ]]; then wc -l <"$ALEA_LOG"; else echo 0; fi; }

cmake_objects=(CMakeFiles/stats.dir/stats.c.o CMakeFiles/words.dir/words.cpp.o
  CMakeFiles/lto_c.dir/main.c.o CMakeFiles/lto_cxx.dir/main.cpp.o)
meson_objects=(libstats.a.p/stats.c.o libwords.a.p/words.cpp.o lto_c.p/main.c.o
  lto_cxx.p/main.cpp.o)

note "CMake, CMAKE_INTERPROCEDURAL_OPTIMIZATION=ON, ALEA_SEED=$seed"
cm="$work/cmake"
ALEA_SEED=$seed CC=alea-cc CXX=alea-c++ cmake -S "$src" -B "$cm" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON >"$cm.configure.out" 2>&1 || {
  cat "$cm.configure.out"
  fail "cmake configure with IPO and CC=alea-cc CXX=alea-c++ failed"
}
for lang in C CXX; do
  grep -q "^CMAKE_${lang}_COMPILER_AR:FILEPATH=$ALEA_BUILD/bin/alea-llvm-ar\$" "$cm/CMakeCache.txt" ||
    fail "CMake did not find alea-llvm-ar as the $lang IPO archiver: $(grep "_COMPILER_AR:" "$cm/CMakeCache.txt")"
  grep -q "^CMAKE_${lang}_COMPILER_RANLIB:FILEPATH=$ALEA_BUILD/bin/alea-llvm-ranlib\$" "$cm/CMakeCache.txt" ||
    fail "CMake did not find alea-llvm-ranlib for $lang"
done
ALEA_SEED=$seed ninja -C "$cm" >"$cm.build.out" 2>&1 || {
  cat "$cm.build.out"
  fail "the CMake IPO build failed"
}
grep -q '"'"$ALEA_BUILD"'/bin/alea-llvm-ar" cr ' "$cm/CMakeFiles/rules.ninja" ||
  fail "CMake does not archive with alea-llvm-ar"
check_outputs "$cm" "${cmake_objects[@]}"
check_archive "$cm/libstats.a" statsSum
check_archive "$cm/libwords.a" _Z9joinWordsRKSt6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaIS5_EE
check_lto_record "$cm/lto_c"
check_lto_record "$cm/lto_cxx"

note "CMake IPO without ALEA_SEED"
cp0="$work/cmake-plain"
from=$(log_lines)
CC=alea-cc CXX=alea-c++ cmake -S "$src" -B "$cp0" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON >"$cp0.configure.out" 2>&1 || {
  cat "$cp0.configure.out"
  fail "cmake configure with IPO and no seed failed"
}
ninja -C "$cp0" >/dev/null || fail "the CMake IPO build without a seed failed"
check_outputs "$cp0" "${cmake_objects[@]}"
check_archive "$cp0/libstats.a" statsSum
check_unrandomized "$cp0/lto_cxx"
check_plain_log "$from"

# meson looks for `llvm-ar` on PATH (Debian 12: LLVM 14's, which cannot read
# LLVM 19 bitcode), and only AR or a native file can change that.
note "meson, b_lto=true, ALEA_SEED=$seed"
ms="$work/meson"
ALEA_SEED=$seed CC=alea-cc CXX=alea-c++ AR=alea-llvm-ar meson setup "$ms" "$src" \
  -Db_lto=true --buildtype=release >"$ms.setup.out" 2>&1 || {
  cat "$ms.setup.out"
  fail "meson setup -Db_lto=true with CC=alea-cc failed"
}
grep -q "alea-llvm-ar" "$ms/build.ninja" || fail "meson does not archive with alea-llvm-ar"
grep -q -- "-flto" "$ms/build.ninja" || fail "meson does not compile with -flto"
ALEA_SEED=$seed ninja -C "$ms" >"$ms.build.out" 2>&1 || {
  cat "$ms.build.out"
  fail "the meson b_lto build failed"
}
check_outputs "$ms" "${meson_objects[@]}"
check_archive "$ms/libstats.a" statsSum
check_lto_record "$ms/lto_c"
check_lto_record "$ms/lto_cxx"

note "meson b_lto without ALEA_SEED"
mp="$work/meson-plain"
from=$(log_lines)
CC=alea-cc CXX=alea-c++ AR=alea-llvm-ar meson setup "$mp" "$src" -Db_lto=true \
  --buildtype=release >"$mp.setup.out" 2>&1 || {
  cat "$mp.setup.out"
  fail "meson setup -Db_lto=true without a seed failed"
}
ninja -C "$mp" >/dev/null || fail "the meson b_lto build without a seed failed"
check_outputs "$mp" "${meson_objects[@]}"
check_unrandomized "$mp/lto_cxx"
check_plain_log "$from"
note "LTO under CMake and meson: PASS"
