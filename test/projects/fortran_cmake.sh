#!/usr/bin/env bash
# CMake's Fortran detection through alea-fc, with ALEA_SEED set from the
# configure on: once with FC=alea-fc, once with -DCMAKE_Fortran_COMPILER=alea-fc
# (two seeds). Each time CMake must identify LLVMFlang 19 (and Clang 19 for C),
# the project must build, its CTest tests pass (a Fortran program and a C main
# over a Fortran library, which CMake links with the Fortran runtime through
# alea-cc), and both executables record the seed; the two builds' layouts differ.
source "$(dirname "$0")/common.sh"
[[ -x $ALEA_BUILD/bin/alea-fc ]] || fail "$ALEA_BUILD/bin/alea-fc is not built"
command -v flang-new-19 >/dev/null || fail "flang-new-19 not on PATH (scripts/setup.sh installs flang-19)"

work="$ALEA_BUILD/projects/fortran-cmake"
rm -rf "$work"
mkdir -p "$work"

configure_build_test() { # NAME SEED CMAKE-ARGS...
  local name=$1 seed=$2 dir="$work/$1"
  shift 2
  (
    export ALEA_SEED=$seed ALEA_LOG="$work/$name.log"
    "$@" -S "$PROJECTS_SRC/fortran-cmake" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      >"$dir.configure.out" 2>&1 || {
      cat "$dir.configure.out"
      fail "$name: cmake configure failed"
    }
    grep -q "alea-detect: Fortran LLVMFlang 19\." "$dir.configure.out" ||
      fail "$name: CMake did not identify LLVMFlang 19 as the Fortran compiler"
    grep -q "alea-detect: C Clang 19\." "$dir.configure.out" ||
      fail "$name: CMake did not identify Clang 19 as the C compiler"
    grep -q "CMAKE_Fortran_COMPILER:.*alea-fc" "$dir/CMakeCache.txt" ||
      fail "$name: CMake does not use alea-fc"
    cmake --build "$dir" -j2 >"$dir.build.out" 2>&1 || {
      cat "$dir.build.out"
      fail "$name: building failed"
    }
    (cd "$dir" && ctest --output-on-failure) || fail "$name: the project's tests failed"
    # CMake's compiler-id probe compiled and linked Fortran through alea-fc
    # (the log has the compile-and-link), and the C main over the Fortran
    # library was linked by alea-cc.
    grep -q '^alea-fc .* mode=compile-and-link ' "$ALEA_LOG" ||
      fail "$name: CMake's Fortran probes did not go through alea-fc"
    grep -q '^alea-cc .* mode=link .*cmixed' "$ALEA_LOG" ||
      fail "$name: the mixed C + Fortran program was not linked by alea-cc"
  )
  check_recorded "$dir/fprog" "$seed"
  check_recorded "$dir/cmixed" "$seed"
  note "$name (seed $seed): LLVMFlang identified, built, tests pass, seed recorded"
}

configure_build_test fc-env 5 env FC=alea-fc CC=alea-cc cmake
configure_build_test fc-cache 6 env CC=alea-cc cmake -DCMAKE_Fortran_COMPILER=alea-fc
check_layouts_differ "$work/fc-env/fprog" "$work/fc-cache/fprog"
note "fortran cmake detection: PASS"
